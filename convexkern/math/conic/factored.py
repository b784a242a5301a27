"""Bounds on a problem whose quadratic form reached the solver through a factor.

A second-order cone solver cannot take ``u'Pu`` itself: the form it is given holds a
factor, ``t >= |F'u|^2`` for ``P ~ sigma F F'`` (cvxpy's ``quad_form`` through an LDL
factor of ``P``), written as the cone ``(1 + t, 1 - t, 2 F'u)``.  The factor is exact
only to rounding, and so are the cone's coefficients, so the form's optimum is not the
written problem's: along a direction where ``P`` and ``sigma F F'`` differ by a rounding
error ``e``, a point at distance ``R`` moves the value by ``e R^2``.  For a singular
``P`` the optimum can sit far along such a direction, and a bracket of the form then
misses the written optimum (a box-constrained QP with ``P = f f'`` and a box of ``2^26``:
the form's optimum -337.529 where the written one is -337.475, both solvers' brackets
within 1e-9 of the former).

What is certified here is the written problem.  Over a box that holds every point of the
rows the two problems share (every row but the factors' cones), the difference
``D = u'Pu / sigma - |F'u + delta|^2`` (``delta``: the cone's rounding of ``2 F'u``) is
at most ``eta`` in size, bounded rigorously from ``|P - sigma F F'|``, the rounding of its
computation and the box.  Then

* the form with each cone's first two entries ``(1 + t, 1 - t)`` made ``(1 + e + t,
  1 - e - t)``, ``e >= eta`` (both exact), says ``|F'u + delta|^2 <= t + e``; it holds
  every written point (take ``t = u'Pu / sigma``), so its lower bound is one on the
  written optimum;
* the form with ``(1 - e + t, 1 + e - t)`` says ``|F'u + delta|^2 <= t - e``, so each of
  its points has ``u'Pu / sigma <= t``: the written atom is at most the form's epigraph
  variable, which by the disciplined convex structure keeps every written constraint and
  the objective no larger, so its upper bound is one on the written optimum.

No finite box on the argument's columns from those rows: no bracket, with a message.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction

import numpy as np
import scipy.sparse as sp

from ..budget import FLOPS, fits
from .boxes import _DENSE_P_LIMIT, _primal_box, psd_margin
from .data import _TINY, _U, ConicBounds, ConicData, _gamma, _two_product, norm_up

__all__ = ["QuadFactor", "factored_bounds", "claim_forms"]

#: a factor whose difference matrix would cost more flops than this is not verified
#: (cvxpy's own LDL of ``P`` costs ``n^3 / 3``; a 1500-side factor is about 3e9)
MAX_FLOPS = 4e9


@dataclass(frozen=True)
class QuadFactor:
    """One quadratic form given to the solver through a factor: ``u = A u_x + b`` (over
    the form's columns) with ``u'Pu`` written and ``t >= |F'u|^2``, ``sigma t`` in its
    place (``t`` the form's column ``tcol``), in the second-order cone whose head is row
    ``head`` (``2 + F``'s columns rows: head ``1 + t``, then ``1 - t``, then ``2 F'u``
    rounded).  ``what`` names it in messages."""

    head: int
    tcol: int
    P: np.ndarray
    sigma: float
    F: np.ndarray
    A: sp.csr_matrix
    b: np.ndarray
    what: str = "a quad_form"
    #: work kept for this factor (the bound on ``|P - sigma F F'|``), shared by every
    #: certificate of the same compiled form
    cache: dict = field(default_factory=dict, compare=False, repr=False)


def _without_blocks(data: ConicData, heads: set[int]) -> ConicData:
    """``data`` without the second-order cone blocks that start at ``heads``."""
    keep = np.ones(data.b.size, dtype=bool)
    soc = []
    for kind, i, k in data.blocks:
        if kind != "soc":
            continue
        if i in heads:
            keep[i: i + k] = False
        else:
            soc.append(k)
    rows = np.flatnonzero(keep)
    return ConicData(c=data.c, A=data.A[rows], b=data.b[rows], P=data.P,
                     offset=data.offset, zero=data.zero, nonneg=data.nonneg, soc=soc,
                     psd=list(data.psd), exp=data.exp, p3d=list(data.p3d),
                     psd_lower=data.psd_lower, lb=data.lb, ub=data.ub)


def factor_eta(data: ConicData, q: QuadFactor, lo: np.ndarray, hi: np.ndarray) -> float:
    """A rigorous bound on ``|u'Pu / sigma - |s_T / 2|^2|`` over the box ``[lo, hi]``
    of the form's columns, ``s_T = b_T - A_T x`` the cone's tail after ``1 - t``
    (``inf``: the box does not bound the argument, or the factor is too large)."""
    n, k = q.F.shape
    T = np.arange(q.head + 2, q.head + 2 + k)
    used = np.unique(np.concatenate([q.A.indices, data.A[T].indices]))
    with np.errstate(invalid="ignore", over="ignore"):
        mx = np.zeros(data.c.size)
        mx[used] = np.maximum(np.abs(lo[used]), np.abs(hi[used]))
    if not np.all(np.isfinite(mx)) or n * n * max(k, 1) > MAX_FLOPS:
        return math.inf
    Aa = abs(q.A)
    mu = np.asarray(Aa @ mx).ravel() + np.abs(q.b)
    mu = mu * (1.0 + float(_gamma(int(np.max(np.diff(q.A.indptr), initial=0)) + 2)))
    # u'(P - sigma F F')u over the box: mu'|E|mu with |E| bounded entry by entry
    Fa = np.abs(q.F)
    Fm = Fa.T @ mu
    diff = 0.0
    diff += float(mu @ (_difference(q) @ mu))
    diff = diff * (1.0 + float(_gamma(n + 2))) / abs(q.sigma)
    # delta = s_T / 2 - F'u = (b_T / 2 - F'b) - (A_T / 2 + F'A) x
    AT = data.A[T]
    G = 0.5 * AT.toarray() + (q.A.T @ q.F).T
    g0 = 0.5 * data.b[T] - q.F.T @ q.b
    if _plain(q):  # F'A is one product by +-1 per entry, F'b is 0: one rounding at most
        err = _U * (np.abs(G) @ mx)
    else:
        err = float(_gamma(n + 3)) * (0.5 * np.abs(data.b[T]) + Fa.T @ np.abs(q.b)
                                      + 0.5 * np.asarray(abs(AT) @ mx).ravel()
                                      + Fa.T @ np.asarray(Aa @ mx).ravel())
    d = np.abs(g0) + np.abs(G) @ mx + err
    eta = diff + 2.0 * float(Fm @ d) + float(d @ d)
    eta = eta * (1.0 + 64.0 * (n + k + data.c.size + 8) * _U) + _TINY
    return eta if math.isfinite(eta) else math.inf


def factored_bounds(data: ConicData, x: np.ndarray | None, y: np.ndarray | None,
                    bounds: Callable[[ConicData, np.ndarray | None, np.ndarray | None],
                                     ConicBounds],
                    enough: Callable[[float, float], bool] | None = None) -> ConicBounds:
    """A bracket on the written problem of a form whose quadratic forms went through
    factors (``data.factors``, module docstring), ``bounds(form, x, y)`` computing a
    form's bracket.  Where every factored form is a term of the objective on a variable
    (``c_t t`` with ``t`` in no other row, ``u`` a variable's entries), the written
    objective is certified as it stands, ``1/2 x'(2 c_t / sigma) P x`` in place of the
    cone (:func:`_objective_form`: what cvxpy gives a solver that takes ``P``);
    otherwise, and where that bracket is not ``enough``, the form with every factor's
    cone relaxed (by ``e >= eta`` or by the ratio ``rho``) gives a lower bound and the one
    with it tightened an upper bound; each side is the better of the two.  A first
    bracket within the caller's ``tol`` (``enough.at_tol``, when ``enough`` has it) is
    kept as it is."""
    direct = _objective_form(data, x, y)
    first = None if direct is None else bounds(*direct)
    at_tol = getattr(enough, "at_tol", None)
    if first is not None and (enough is None or enough(first.lower, first.upper) or (
            at_tol is not None and at_tol(first.lower, first.upper))):
        # within the caller's tol already: the relaxed and tightened forms (two brackets
        # more, Maros-Meszaros QSC205 on ECOS: 60 of 100 ms) could only narrow it
        return first
    other = _relaxed_bounds(data, x, y, bounds)
    if first is None:
        return other
    lo_ = first if first.lower >= other.lower else other
    up_ = first if first.upper <= other.upper else other
    return ConicBounds(lower=lo_.lower, upper=up_.upper, lower_reason=lo_.lower_reason,
                       upper_reason=up_.upper_reason,
                       residuals={**other.residuals, **first.residuals})


def _relaxed_bounds(data: ConicData, x: np.ndarray | None, y: np.ndarray | None,
                    bounds: Callable[[ConicData, np.ndarray | None, np.ndarray | None],
                                     ConicBounds]) -> ConicBounds:
    """:func:`factored_bounds` by relaxing and tightening every factor's cone."""
    factors = data.factors
    heads = {q.head for q in factors}
    lo, hi = _primal_box(_without_blocks(data, heads), math.inf)
    b_up, b_dn = data.b.copy(), data.b.copy()
    worst = 0.0
    for q in factors:
        n = q.F.shape[0]
        if not (data.b[q.head] == 1.0 and data.b[q.head + 1] == 1.0):
            why = f"{q.what}: its second-order cone is not in the form expected"
            return ConicBounds(-math.inf, math.inf, why, why)
        if "difference" not in q.cache and not fits(_difference_seconds(q)):
            # the bound on P - sigma F F' cannot be interrupted (kernel logistic
            # regression's 300 x 300 factor: 1.1 s, begun with 0.3 s left of time_limit)
            why = (f"{q.what}: no time was left to bound the rounding of cvxpy's factor of "
                   "P (time_limit)")
            return ConicBounds(-math.inf, math.inf, why, why)
        eta = factor_eta(data, q, lo, hi)
        rho = factor_ratio(data, q)
        t_at = abs(float(x[q.tcol])) if x is not None and np.size(x) == data.c.size else 0.0
        if rho is not None and not rho * max(t_at, 1e-300) >= eta:
            # |F'u|^2 <= y t: relaxed with y >= 1/(1 - rho), tightened with y <= 1/(1 + rho)
            up, dn = _ratio_y(rho)
            b_up[q.head] = b_up[q.head + 1] = up
            b_dn[q.head] = b_dn[q.head + 1] = dn
            worst = max(worst, rho * t_at)
            continue
        if not math.isfinite(eta):
            why = (f"{q.what} ({n} x {n}) reached the solver through cvxpy's factor of P, "
                   "exact only to rounding, and no constraint bounds its argument, so "
                   "that rounding can move the optimum by any amount; bound the variable "
                   "(x <= B, x >= -B), or write sum_squares(F @ x) with a factor F of "
                   "your own (exact), or, in the objective, use a solver that takes P "
                   "(Clarabel, SCS, OSQP, QOCO)")
            if n * n * max(q.F.shape[1], 1) > MAX_FLOPS:
                why = too_large(q.what, n)
            return ConicBounds(-math.inf, math.inf, why, why)
        e = _exact_step(eta)
        if not math.isfinite(e):
            why = (f"{q.what} ({n} x {n}) reached the solver through cvxpy's factor of P, "
                   f"and the bound on that factor's rounding over the box ({eta:.3g}) is "
                   "too large to express in the cone")
            return ConicBounds(-math.inf, math.inf, why, why)
        b_up[q.head], b_up[q.head + 1] = 1.0 + e, 1.0 - e  # |F'u + delta|^2 <= t + e
        b_dn[q.head], b_dn[q.head + 1] = 1.0 - e, 1.0 + e  # |F'u + delta|^2 <= t - e
        worst = max(worst, e)
    low = bounds(replace(data, b=b_up, factors=()), x, y)
    high = bounds(replace(data, b=b_dn, factors=()), x, y)
    res = {**low.residuals, **{f"upper_{k}": v for k, v in high.residuals.items()}}
    res["factor_shift"] = worst
    return ConicBounds(lower=low.lower, upper=high.upper, lower_reason=low.lower_reason,
                       upper_reason=high.upper_reason, residuals=res)


def factor_ratio(data: ConicData, q: QuadFactor) -> float | None:
    """A verified ``rho < 1/2`` with ``(1 - rho) sigma |F'u|^2 <= u'Pu <= (1 + rho) sigma
    |F'u|^2`` for every ``u``, where the cone's tail is exactly ``2 F'u`` (a variable's
    entries, no constant, the tail rows ``-2 F'`` on them) and ``P`` is verified positive
    definite: ``|u'(P - sigma F F')u| <= e |u|^2`` with ``e`` a bound on the Frobenius
    norm of the difference and its rounding, and ``sigma F F' >= (mu - e) I`` for ``P >=
    mu I`` (Weyl), so ``rho = e / (mu - e)``.  No box is needed (a free ``x`` in
    ``quad_form(x, P) <= t``).  ``None``: not that case.  Computed once per factor
    (``q.cache``: the tail rows are the compiled form's, whatever cone heads a caller
    moved)."""
    if "ratio" not in q.cache:
        q.cache["ratio"] = _ratio(data, q)
    return q.cache["ratio"]


def _ratio(data: ConicData, q: QuadFactor) -> float | None:
    """:func:`factor_ratio`, computed."""
    n, k = q.F.shape
    if q.sigma <= 0 or n > _DENSE_P_LIMIT or not _plain(q):
        return None
    T = np.arange(q.head + 2, q.head + 2 + k)
    AT = data.A[T].toarray()
    G = 0.5 * AT
    G[:, q.A.indices] += q.F.T * q.A.data  # exact (+-1); 0 only where they cancel
    if np.any(G != 0) or np.any(data.b[T] != 0):
        return None
    mu = psd_margin(sp.csr_matrix(q.P))
    if mu is None or not mu > 0 or np.count_nonzero(np.any(q.P != 0, axis=1)) != n:
        return None
    bound = _difference(q)
    e = norm_up(bound) * (1.0 + 8.0 * (n * n + k + 8) * _U) + _TINY
    if not mu > 3.0 * e:
        return None
    rho = e / (mu - e) * (1.0 + 16 * _U)
    return rho if rho < 0.5 else None


#: the entries times terms up to which ``P - sigma F F'`` is evaluated as a compensated
#: dot product (:func:`_difference_blocks`); past it, in plain floating point
DOT2_WORK = 4e7
#: seconds per entry times term of the compensated evaluation (kernel logistic
#: regression's 300 x 300 factor, 2.7e7 of them: 1.13 s on this project's 2-core machine)
DOT2_SECONDS = 6e-8


def _difference_seconds(q: QuadFactor) -> float:
    """What :func:`_difference` may take on ``q`` (the compensated path's rate where its
    work allows it; else two dense products at the budget's rate)."""
    n, k = q.F.shape
    work = float(n) * n * max(k, 1)
    return DOT2_SECONDS * work if work <= DOT2_WORK else 4.0 * work / FLOPS


def _two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(s, e)`` with ``s = fl(a + b)`` and ``a + b = s + e`` exactly (Knuth)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _difference(q: QuadFactor) -> np.ndarray:
    """:func:`_difference_blocks` stacked, computed once per factor (``q.cache``)."""
    if "difference" not in q.cache:
        q.cache["difference"] = np.vstack([b for _, b in _difference_blocks(q)]) \
            if q.F.shape[0] else np.zeros((0, 0))
    return q.cache["difference"]


def _difference_blocks(q: QuadFactor):
    """Blocks of rows ``(start, bound)`` of an entrywise upper bound on ``|P - sigma F
    F'|`` (the exact difference of the stored doubles).  Where the work is small and
    every product stays clear of underflow and overflow, each entry is the dot product
    ``(P_ij, a_i., b_i.) . (1, -F_j., -F_j.)`` of exact terms (``sigma F = a + b`` by
    TwoProduct) summed by Ogita, Rump and Oishi's Dot2 (SIAM J. Sci. Comput. 26, 2005):
    ``|res - E| <= u |E| + gamma_{2k+1}^2 sum |x||y|``, so ``|E| <= (|res| + gamma^2 sum
    |x||y|) / (1 - u)``, within a few ulps of the difference itself.  Otherwise the
    difference formed in floating point plus ``gamma_{k+3} (|P| + |sigma| |F||F|')``,
    20 to 90 times larger on a singular ``P``."""
    F, sig = q.F, q.sigma
    n, k = F.shape
    Fa = np.abs(F)
    big = float(np.max(Fa, initial=0.0))
    small = float(np.min(Fa[Fa > 0], initial=1.0))
    # every product (and its TwoProduct error: the low part of sigma F times F) stays
    # far from underflow and overflow between 1e-60 and 1e60
    exact = (n * n * max(k, 1) <= DOT2_WORK and 1e-60 < abs(sig) < 1e60
             and big < 1e60 and small > 1e-60 and bool(np.all(np.isfinite(q.P)))
             and float(np.max(np.abs(q.P), initial=0.0)) < 1e290)
    a, b = _two_product(np.full_like(F, sig), F) if exact else (None, None)
    gam = float(_gamma(k + 3))
    g2 = float(_gamma(2 * k + 1)) ** 2
    step = max(1, min(512, int(2e6 // max(n, 1))))
    for s in range(0, n, step):
        P = q.P[s: s + step]
        crude = np.abs(P - sig * (F[s: s + step] @ F.T)) + gam * (
            np.abs(P) + abs(sig) * (Fa[s: s + step] @ Fa.T))
        if not exact:
            yield s, crude
            continue
        hi, lo = P.astype(float, copy=True), np.zeros_like(P, dtype=float)
        mass = np.abs(P)
        for col in range(k):
            for x in (a[s: s + step, col], b[s: s + step, col]):
                h, r = _two_product(x[:, None], -F[None, :, col])
                hi, e = _two_sum(hi, h)
                lo = lo + (e + r)
                mass = mass + np.abs(x)[:, None] * Fa[None, :, col]
        res = hi + lo
        tight = (np.abs(res) + g2 * mass * (1.0 + float(_gamma(2 * k + 2)))) * (1.0 + 4 * _U)
        yield s, np.minimum(tight, crude)


def _plain(q: QuadFactor) -> bool:
    """Whether the argument is distinct columns of the form with coefficients +-1 and no
    constant (a variable's entries, or ``multiply(y, alpha)`` with labels ``y``): every
    product with it is exact."""
    A = q.A
    return bool(not np.any(q.b != 0)
                and np.array_equal(np.diff(A.indptr), np.ones(A.shape[0], dtype=int))
                and np.all(np.abs(A.data) == 1.0) and np.unique(A.indices).size == A.shape[0])


def too_large(what: str, n: int) -> str:
    """Why a factor too large to check gets no bracket."""
    return (f"{what} ({n} x {n}) reached the solver through cvxpy's factor of P, exact "
            f"only to rounding, and checking that factor would cost more than "
            f"{MAX_FLOPS:.0e} flops; write sum_squares(F @ x) with a factor F of your own "
            "(exact)")


def _ratio_y(rho: float) -> tuple[float, float]:
    """The cone's ``y`` in ``(y + t, y - t, 2 F'u)`` for the ratio ``rho``: ``>= 1/(1 -
    rho)`` (relaxed: every written point) and ``<= 1/(1 + rho)`` (tightened: within the
    written problem), each rounded outward by two ulps."""
    up = float(np.nextafter(np.nextafter(1.0 / (1.0 - rho), np.inf), np.inf))
    dn = float(np.nextafter(np.nextafter(1.0 / (1.0 + rho), 0.0), 0.0))
    return up, dn


def _exact_step(eta: float) -> float:
    """The least ``e >= eta`` with ``1 + e`` and ``1 - e`` exact: a multiple of the
    spacing of the doubles at ``1 + eta`` (then ``(1 + e) - (1 - e) = 2 e``, and the cone
    ``(1 + t + e, 1 - t - e, v)`` says ``|v / 2|^2 <= t + e`` exactly); ``inf`` from
    ``2^52`` on, where ``1 + e`` cannot be exact."""
    e = float(eta)
    if not e < 2.0 ** 52:  # 1 + e is no longer exact for any such e
        return math.inf
    while True:
        ulp = float(np.spacing(1.0 + e))
        e = math.ceil(e / ulp) * ulp
        if (Fraction(1.0 + e) == 1 + Fraction(e)
                and Fraction(1.0 - e) == 1 - Fraction(e)):
            return e
        e = float(np.nextafter(e, math.inf))


def _objective_form(data: ConicData, x: np.ndarray | None, y: np.ndarray | None
                    ) -> tuple[ConicData, np.ndarray | None, np.ndarray | None] | None:
    """:func:`_direct`'s form with ``(x, y)`` restricted to its columns and rows."""
    direct = _direct(data)
    if direct is None:
        return None
    form, keep_c, keep_r = direct
    return (form, None if x is None or np.size(x) != data.c.size else np.asarray(x)[keep_c],
            None if y is None or np.size(y) != data.b.size else np.asarray(y)[keep_r])


def _direct(data: ConicData) -> tuple[ConicData, np.ndarray, np.ndarray] | None:
    """The written problem itself, with ``P`` in the objective, when every factored form
    is an objective term ``c_t t`` on a variable's entries (``t`` in no row but its cone's
    ``1 + t`` and ``1 - t``, ``u`` distinct columns with coefficients +-1, no constant,
    ``c_t > 0``, so that ``(2 c_t / sigma) P`` is PSD for either sign of ``sigma``): the
    cones and the ``t`` columns removed, with the columns and rows kept (``None``: not
    that case).  ``P``'s entries are scaled by ``2 c_t / sigma`` in floating point, as
    cvxpy scales them for a solver that takes ``P``."""
    n = data.c.size
    At = data.A.tocsc()
    drop_rows = np.zeros(data.b.size, dtype=bool)
    drop_cols = np.zeros(n, dtype=bool)
    rows, cols, vals = [], [], []
    sizes = {i: k for kind, i, k in data.blocks if kind == "soc"}
    for q in data.factors:
        j = q.tcol
        hit = At.indices[At.indptr[j]: At.indptr[j + 1]]
        ct = float(data.c[j])
        A = q.A
        if (sorted(hit.tolist()) != [q.head, q.head + 1] or not ct > 0
                or q.head not in sizes or drop_cols[j] or not _plain(q)
                or not np.array_equal(q.P, q.P.T)):  # the form reads one triangle
            return None
        drop_rows[q.head: q.head + sizes[q.head]] = True
        drop_cols[j] = True
        alpha = 2.0 * ct / q.sigma
        Pc = sp.coo_matrix(alpha * q.P)
        rows.append(A.indices[Pc.row])
        cols.append(A.indices[Pc.col])
        vals.append(Pc.data * A.data[Pc.row] * A.data[Pc.col])  # signs: exact
    if data.P is not None:
        Pd = sp.coo_matrix(data.P)
        rows.append(Pd.row)
        cols.append(Pd.col)
        vals.append(Pd.data)
    keep_c, keep_r = np.flatnonzero(~drop_cols), np.flatnonzero(~drop_rows)
    if np.intersect1d(np.concatenate(rows), np.flatnonzero(drop_cols)).size:
        return None  # a t column in a quadratic term
    where = np.full(n, -1)
    where[keep_c] = np.arange(keep_c.size)
    P = sp.csr_matrix((np.concatenate(vals), (where[np.concatenate(rows)],
                                              where[np.concatenate(cols)])),
                      shape=(keep_c.size, keep_c.size))
    soc = [k for kind, i, k in data.blocks if kind == "soc" and not drop_rows[i]]
    form = ConicData(c=data.c[keep_c], A=data.A[keep_r][:, keep_c], b=data.b[keep_r], P=P,
                     offset=data.offset, zero=data.zero, nonneg=data.nonneg, soc=soc,
                     psd=list(data.psd), exp=data.exp, p3d=list(data.p3d),
                     psd_lower=data.psd_lower,
                     lb=None if data.lb is None else data.lb[keep_c],
                     ub=None if data.ub is None else data.ub[keep_c])
    return form, keep_c, keep_r


def claim_forms(data: ConicData) -> tuple[ConicData | None, ConicData | None,
                                          np.ndarray | None, np.ndarray | None]:
    """Where a solver's "no solution" word is checked on a form with factors
    (``data.factors``): ``(relaxed, restricted, cols, rows)``, a form whose
    infeasibility proves the written problem's (it holds every written point) and one
    whose points and rays are the written problem's (an unbounded ray there is one of
    the written problem), with the columns and rows of ``data`` they keep (``None``:
    all).  The written objective (:func:`_direct`) serves both.  Otherwise the relaxed
    form takes each factor's ratio (:func:`factor_ratio`) or, over a box from the other
    rows, its shift (:func:`factor_eta`); the restricted one needs every ratio (a ray
    leaves any box).  ``None`` in place of a form: there is none."""
    direct = _direct(data)
    if direct is not None:
        form, keep_c, keep_r = direct
        return form, form, keep_c, keep_r
    b_up, b_dn = data.b.copy(), data.b.copy()
    relaxed_ok = restricted_ok = True
    box = None
    for q in data.factors:
        if not (data.b[q.head] == 1.0 and data.b[q.head + 1] == 1.0):
            return None, None, None, None
        rho = factor_ratio(data, q)
        if rho is not None:
            up, dn = _ratio_y(rho)
            b_up[q.head] = b_up[q.head + 1] = up
            b_dn[q.head] = b_dn[q.head + 1] = dn
            continue
        restricted_ok = False
        if box is None:
            box = _primal_box(_without_blocks(data, {p.head for p in data.factors}),
                              math.inf)
        eta = factor_eta(data, q, *box)
        if not math.isfinite(eta):
            relaxed_ok = False
            continue
        e = _exact_step(eta)
        if not math.isfinite(e):
            relaxed_ok = False
            continue
        b_up[q.head], b_up[q.head + 1] = 1.0 + e, 1.0 - e
    return (replace(data, b=b_up, factors=()) if relaxed_ok else None,
            replace(data, b=b_dn, factors=()) if restricted_ok else None, None, None)
