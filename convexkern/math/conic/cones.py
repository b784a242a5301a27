"""Cone membership made provable: moves into a cone (or its dual) that land inside
whatever the rounding, verified PSD shifts (Rump's Cholesky test), interval rules of each
cone, and a phase-one interior point; used by :mod:`convexkern.math.conic`."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

import numpy as np
import scipy.linalg
import scipy.sparse as sp

from ..budget import FLOPS, SOLVER_FLOPS, affordable, time_left
from ..rounding import E_DOWN
from . import phase_one
from .data import (
    _U,
    ConicData,
    _down,
    _gamma,
    _up,
    cached,
    norm_up,
    norms_up,
    other_blocks,
    soc_groups,
)
from .psd import _smat, _svec_index, psd_shift, psd_shifts, stacked

__all__ = ["psd_shift", "interior_point", "cvxpy_solvers"]



@functools.cache
def cvxpy_solvers() -> frozenset[str]:
    """cvxpy's installed solvers, asked once (``cp.installed_solvers()`` tries to import
    every solver cvxpy knows: milliseconds a call, paid per phase one before)."""
    import cvxpy as cp  # noqa: PLC0415 (as the phase ones import it: on demand)

    return frozenset(cp.installed_solvers())


def _installed() -> frozenset[str]:
    return cvxpy_solvers()

#: the relative error allowed for ``exp``/``log`` of the math library in the power and
#: exponential cone tests (a few ulps in fact; every such value is widened by this)
_LIBM = 1e-12


def _pow_alphas(data: ConicData) -> dict[int, float]:
    """The exponent of every 3-d power cone block, by its first row (kept in the data's
    cache: the box rules ask for it every round of propagation)."""
    if not data.p3d:
        return {}
    out = data.cache.get("pow_alphas")
    if out is None:
        starts = [i for kind, i, _ in data.blocks if kind == "pow"]
        out = data.cache["pow_alphas"] = dict(zip(starts, (float(a) for a in data.p3d),
                                                   strict=True))
    return out


def _exp_split(data: ConicData) -> tuple[np.ndarray, list[tuple[str, int, int]]]:
    """The first rows of the exponential-cone blocks (an array: they are handled by array
    operations, not a Python step per block: kernel logistic regression has 600) and the
    other non-second-order blocks, once per form."""
    def make() -> tuple[np.ndarray, list[tuple[str, int, int]]]:
        blocks = other_blocks(data)
        return (np.array([i for kind, i, _ in blocks if kind == "exp"], dtype=np.intp),
                [b for b in blocks if b[0] != "exp"])
    return cached(data, "exp_split", make)


def _psd_groups(data: ConicData) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """The PSD blocks grouped by side ``k``: ``(k, first rows, diagonal positions within
    a block's svec)``, once per form (a stack of a side's blocks is one batch of
    :func:`~convexkern.math.conic.psd.psd_shifts`)."""
    def make() -> list[tuple[int, np.ndarray, np.ndarray]]:
        by: dict[int, list[int]] = {}
        for kind, i, k in _exp_split(data)[1]:
            if kind == "psd":
                by.setdefault(k, []).append(i)
        out = []
        for k, starts in by.items():
            r, c = _svec_index(k, data.psd_lower)
            out.append((k, np.array(starts, dtype=np.intp), np.flatnonzero(r == c)))
        return out
    return cached(data, "psd_groups", make)


def _ups(v: np.ndarray) -> np.ndarray:
    """:func:`_up` of each entry (the next double up; infinities and NaN kept)."""
    return np.where(np.isfinite(v), np.nextafter(v, np.inf), v)


def _pymax(a: np.ndarray, b: np.ndarray | float) -> np.ndarray:
    """Python's ``max(a, b)`` entrywise (``a`` unless ``b > a``: a NaN ``b`` keeps ``a``)."""
    return np.where(b > a, b, a)


def _pymin(a: np.ndarray, b: np.ndarray | float) -> np.ndarray:
    """Python's ``min(a, b)`` entrywise (``a`` unless ``b < a``)."""
    return np.where(b < a, b, a)


def _geo(a: float, b: float, alpha: float) -> float:
    """A lower bound on ``a^alpha b^(1 - alpha)`` for ``a, b >= 0`` (the power cone's
    weighted geometric mean; 0 when either is 0)."""
    if not (a > 0 and b > 0):
        return 0.0
    if not (math.isfinite(a) and math.isfinite(b)):
        return math.inf
    return math.exp(alpha * math.log(a) + (1.0 - alpha) * math.log(b)) * (1.0 - _LIBM)


def _into_pow(a: float, b: float, c: float, alpha: float, dual: bool
              ) -> tuple[float, float]:
    """``(a, b)`` raised so that ``(a, b, c)`` is in the power cone ``a^alpha b^(1-alpha)
    >= |c|`` (``dual``: its dual, ``(a/alpha)^alpha (b/(1-alpha))^(1-alpha) >= |c|``),
    ``a, b >= 0``.  Both are scaled by one factor where both are positive (the mean is
    homogeneous); else each is raised to ``|c|`` (times its weight for the dual): the
    mean is at least the smaller of its arguments."""
    a, b = max(a, 0.0), max(b, 0.0)
    wa, wb = (alpha, 1.0 - alpha) if dual else (1.0, 1.0)
    need = _up(abs(c) * (1.0 + _LIBM))
    have = _geo(a / wa, b / wb, alpha)
    if have >= need:
        return a, b
    if have > 0:
        kappa = _up(need / have * (1.0 + 4 * _U))
        return _up(a * kappa), _up(b * kappa)
    lift = _up(need * (1.0 + 4 * _U))
    return max(a, _up(lift * wa)), max(b, _up(lift * wb))


def _into_cone(v: np.ndarray, data: ConicData, dual: bool) -> tuple[np.ndarray, str]:
    """A copy of ``v`` moved into the cone (``dual``: ``K*``, where the zero rows are
    free; else ``K``, where they become 0), each block by a move that provably lands
    inside; a block that cannot be handled makes the reason string non-empty."""
    v = np.array(v, dtype=float)
    if not dual:  # the zero cone's dual is the whole space: only K pins those rows
        v[: data.zero] = 0.0
    nn = slice(data.zero, data.zero + data.nonneg)
    v[nn] = np.maximum(v[nn], 0.0)
    reason = ""
    alphas = _pow_alphas(data)
    for k, heads, tails in soc_groups(data):
        need = norms_up(v[tails], k)
        if not np.all(np.isfinite(need)):
            reason = "a second-order cone block is not finite"
        low = np.isfinite(need) & (v[heads] < need)
        v[heads[low]] = need[low]
    for k, starts, diag in _psd_groups(data):  # the blocks of one side at once
        t = psd_shifts(stacked(v, starts, k, data.psd_lower), np.zeros(starts.size))
        if not np.all(np.isfinite(t)):
            reason = "a PSD block could not be verified"
        up = np.isfinite(t) & (t > 0)
        d = starts[up][:, None] + diag
        v[d] = np.nextafter(v[d] + t[up][:, None], math.inf)
    for kind, i, _ in _exp_split(data)[1]:
        if kind == "pow":
            v[i], v[i + 1] = _into_pow(v[i], v[i + 1], v[i + 2], alphas[i], dual)
            if not np.all(np.isfinite(v[i: i + 3])):
                reason = "a power cone block is not finite"
    return v, _into_exp(v, _exp_split(data)[0], dual) or reason


def _into_exp(v: np.ndarray, E: np.ndarray, dual: bool) -> str:
    """:func:`_into_cone` on the exponential blocks starting at ``E``, in place: the last
    entry raised to the cone's bound (rounded up, with ``1e-12`` for ``exp``'s error), a
    block at the boundary set onto the cone's other piece; the reason of the last block
    that cannot be handled (``""``: none)."""
    if not E.size:
        return ""
    a, bb, cc = v[E], v[E + 1], v[E + 2]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if dual:  # K*_exp = {(u,v,w): u < 0, -u exp(v/u) <= e w} U {u = 0, v, w >= 0}
            edge = a >= 0
            arg = bb / a - 1.0
            need = -a * np.exp(np.where(arg < 700.0, arg, 0.0))
            x_new, y_new = np.where(edge, 0.0, a), np.where(edge, _pymax(bb, 0.0), bb)
        else:  # K_exp = {(x,y,z): y > 0, y exp(x/y) <= z} U {x <= 0, y = 0, z >= 0}
            edge = bb <= 0
            arg = a / bb
            need = bb * np.exp(np.where(arg < 700.0, arg, 0.0))
            x_new, y_new = np.where(edge, _pymin(a, 0.0), a), np.where(edge, 0.0, bb)
        inside = ~edge & (arg < 700.0)
        z_new = np.where(edge, _pymax(cc, 0.0),
                         np.where(inside, _pymax(cc, _ups(need * (1.0 + 1e-12))), cc))
    v[E], v[E + 1], v[E + 2] = x_new, y_new, z_new
    out = ~edge & ~inside
    bad = ~(np.isfinite(x_new) & np.isfinite(y_new) & np.isfinite(z_new))
    last = np.flatnonzero(out | bad)
    if not last.size:
        return ""
    return ("an exponential cone block is not finite" if bad[last[-1]]
            else "an exponential cone block is out of range")


def sure_unpaid(data: ConicData, s: np.ndarray, es: np.ndarray,
                 box: Callable[[], tuple[np.ndarray, np.ndarray]]
                 ) -> tuple[float, str, dict[str, float]] | None:
    """The upper bound's failure (:func:`convexkern.math.conic.bounds._upper_at`), found
    before its equality correction, of an LP or QP point with an inequality row off by
    more than its rounding (``s_i < es_i``) whose multiplier has no finite bound: any
    correction only widens the radius, so that row moves and cannot be paid for (Netlib
    BOEING2: ten failing attempts a certificate, in the search for an interior step).
    Only with a dual box already made (``box.ready()``): making one for this test alone
    cost a 2000 x 400 lasso on SCS 0.13 s where the full bound never needed it.
    ``None`` when no such row is certain."""
    if data.soc or data.psd or data.exp or data.p3d or not data.nonneg:
        return None
    if not getattr(box, "ready", lambda: True)():
        return None  # the box is not made yet: the full bound may not need it at all
    nn = slice(data.zero, data.zero + data.nonneg)
    off = np.flatnonzero(s[nn] < es[nn]) + data.zero
    if not off.size:
        return None
    ylo, yhi = box()
    unpaid = off[~np.isfinite(np.maximum(np.abs(ylo[off]), np.abs(yhi[off])))]
    if not unpaid.size:
        return None
    i, short = int(unpaid[0]), es[off] - s[off]
    return math.inf, (f"conic row {i} of the primal point is off its cone by more than "
                      f"{es[i] - s[i]:.2g} and its multiplier has no finite bound"), {
                          "primal_residual": float(np.max(short)),
                          "unpaid_inequality_rows": float(unpaid.size),
                          "unpaid_cone_rows": 0.0}


def no_gap(data: ConicData, width: np.ndarray) -> bool:
    """Whether ``p* = d*`` is proved, as the price of a move in the upper bound needs
    (:func:`convexkern.math.conic.bounds._upper_at`): for a problem with polyhedral
    cones only (LP duality, once the price is finite), or when the
    dual box (``width``: each multiplier's largest magnitude over the dual feasible set
    with the objective cut) is finite on every multiplier of a second-order, PSD,
    exponential or power block.  Were the primal not strictly feasible on those blocks
    (with the polyhedral rows met), a ``y0`` in the dual cone, nonzero on them, with
    ``A'y0 = 0`` and ``b'y0 <= 0`` would exist (the theorem of the alternative for
    Slater's condition), and ``y + t y0`` would stay in that set for every ``t >= 0``:
    those multipliers would have no bound.  A strictly feasible primal then gives a zero
    gap."""
    first = data.zero + data.nonneg
    if first >= data.b.size:
        return True
    return bool(np.all(np.isfinite(width[first:])))


def _cone_moves(s: np.ndarray, rad: np.ndarray, data: ConicData) -> tuple[np.ndarray, str]:
    """Per row (zero rows excluded: 0), a move ``m >= 0`` such that ``s* + m`` is in the
    cone for every ``s*`` within ``rad`` of ``s``: clipping, a second-order head raised, a
    PSD diagonal shifted, an exponential cone's last entry raised, a power cone's first two
    raised by one amount (the mean is concave and homogeneous, so it grows by at least
    that amount)."""
    move = np.zeros_like(s)
    nn = slice(data.zero, data.zero + data.nonneg)
    move[nn] = np.maximum(0.0, -(s[nn] - rad[nn]))
    reason = ""
    alphas = _pow_alphas(data)
    for k, heads, tails in soc_groups(data):
        need = norms_up(np.abs(s[tails]) + rad[tails], k)
        gap = need - (s[heads] - rad[heads])
        # rounded up, but a 0 from an exact head (no radius) is exact: need == head
        short = np.where((gap == 0.0) & (rad[heads] == 0.0), 0.0, np.nextafter(gap, np.inf))
        move[heads] = np.where(short > 0.0, short, 0.0)
    for k, starts, diag in _psd_groups(data):  # the blocks of one side at once
        # every S* within Rm of S is PSD once S - |Rm|_F I is
        grow = 1.0 + float(_gamma(k * k + 2))
        margins = [_up(norm_up(Rm) * grow)
                   for Rm in stacked(rad, starts, k, data.psd_lower)]
        t = psd_shifts(stacked(s, starts, k, data.psd_lower), np.array(margins))
        if not np.all(np.isfinite(t)):
            reason = "a PSD block of the primal slack could not be verified"
        move[starts[:, None] + diag] = t[:, None]
    for kind, i, _ in _exp_split(data)[1]:
        if kind == "pow":
            def low(v: float, r: float) -> float:  # exact when r = 0
                return _down(v - r) if r > 0 else v

            xl, yl = low(s[i], rad[i]), low(s[i + 1], rad[i + 1])
            zh = abs(s[i + 2]) + rad[i + 2]
            need = _up(_up(zh) * (1.0 + _LIBM)) if zh > 0 else 0.0
            short = need - _geo(max(xl, 0.0), max(yl, 0.0), alphas[i])
            delta = _up(short) if short > 0 else 0.0
            for j, v in ((i, xl), (i + 1, yl)):
                m = max(0.0, -v) + delta
                move[j] = _up(m) if m > 0 else 0.0
    return move, _exp_moves(s, rad, _exp_split(data)[0], move) or reason


def _exp_moves(s: np.ndarray, rad: np.ndarray, E: np.ndarray, move: np.ndarray) -> str:
    """:func:`_cone_moves` on the exponential blocks starting at ``E``, in place: the last
    entry's move that puts every point within ``rad`` of ``s`` into the cone; the reason
    of the last block that has none (``""``: none)."""
    if not E.size:
        return ""
    xh, yl, zl = s[E] + rad[E], s[E + 1] - rad[E + 1], s[E + 2] - rad[E + 2]
    yh = s[E + 1] + rad[E + 1]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        arg = np.where(xh >= 0, xh / yl, xh / yh)
        edge = yl <= 0
        need = _ups(yh * np.exp(np.where(arg < 700, arg, 0.0)) * (1.0 + 1e-12))
        short = _ups(need - zl)
        out = ~edge & ~((arg < 700) & ~np.isnan(short))  # NaN: no move is known
        ok = ~edge & ~out
        move[E[ok] + 2] = _pymax(np.zeros(int(ok.sum())), short[ok])
    last = np.flatnonzero(edge | out)
    if not last.size:
        return ""
    return ("an exponential cone of the primal slack is at its boundary y = 0"
            if edge[last[-1]] else "an exponential cone of the primal slack is out of range")


def _cone_box(lo: np.ndarray, hi: np.ndarray, data: ConicData, start: int, dual: bool) -> None:
    """Tighten the box of a vector in ``K`` (or ``K*``) located at ``start`` in place."""
    z = start
    if not dual:
        lo[z: z + data.zero] = np.maximum(lo[z: z + data.zero], 0.0)
        hi[z: z + data.zero] = np.minimum(hi[z: z + data.zero], 0.0)
    nn = slice(z + data.zero, z + data.zero + data.nonneg)
    lo[nn] = np.maximum(lo[nn], 0.0)
    alphas = {i + z: a for i, a in _pow_alphas(data).items()}
    for _, heads, tails in soc_groups(data):
        heads, tails = heads + z, tails + z
        lo[heads] = np.maximum(lo[heads], 0.0)
        h = hi[heads][:, None]
        lo[tails] = np.maximum(lo[tails], -h)
        hi[tails] = np.minimum(hi[tails], h)
    E = _exp_split(data)[0] + z
    if E.size:
        if dual:
            hi[E] = _pymin(hi[E], 0.0)
        else:
            lo[E + 1] = _pymax(lo[E + 1], 0.0)
            # y exp(x/y) <= z gives x <= y log(z/y) <= z/e for every y > 0 (the
            # maximum over y of y log(z/y)), and x <= 0 <= z/e when y = 0
            cap = _ups(_pymax(hi[E + 2], 0.0) / E_DOWN * (1.0 + 1e-12))
            hi[E] = np.where(np.isfinite(hi[E + 2]), _pymin(hi[E], cap), hi[E])
        lo[E + 2] = _pymax(lo[E + 2], 0.0)
    for kind, i, k in _exp_split(data)[1]:
        i += z
        if kind == "psd":
            r, c = _svec_index(k, data.psd_lower)
            idx = np.arange(r.size) + i
            diag = r == c
            lo[idx[diag]] = np.maximum(lo[idx[diag]], 0.0)
            dpos = np.empty(k, dtype=int)
            dpos[r[diag]] = idx[diag]
            dh = hi[dpos]
            off = ~diag
            # |X_ij| <= sqrt(X_ii X_jj); the svec entry is sqrt(2) X_ij
            bound = np.sqrt(2.0 * dh[r[off]] * dh[c[off]]) * (1.0 + 8 * _U)
            lo[idx[off]] = np.maximum(lo[idx[off]], -bound)
            hi[idx[off]] = np.minimum(hi[idx[off]], bound)
        elif kind == "pow":
            lo[i] = max(lo[i], 0.0)
            lo[i + 1] = max(lo[i + 1], 0.0)
            # the weighted geometric mean is at most the weighted arithmetic one:
            # |z| <= alpha x + (1 - alpha) y; for the dual cone |w| <= u + v
            alpha = alphas[i]
            wa, wb = (1.0, 1.0) if dual else (alpha, 1.0 - alpha)
            cap = _up(_up(wa * hi[i]) + _up(wb * hi[i + 1])) if (
                math.isfinite(hi[i]) and math.isfinite(hi[i + 1])) else math.inf
            hi[i + 2] = min(hi[i + 2], cap)
            lo[i + 2] = max(lo[i + 2], -cap)


def interior_point(data: ConicData, near: np.ndarray | None = None
                   ) -> tuple[np.ndarray | None, float]:
    """A point deep inside the cone rows (phase one): ``max t`` subject to the equality
    rows and ``b - Ax - t e`` in the cone (``e``: 1, the SOC head, the identity, the
    exponential cone's interior point ``(-1, 1, 1)``, the power cone's ``(1, 1, 0)``), with
    ``t <= 1``, solved once by cvxpy, and again within the box of radius
    ``max(1, |near|_inf)`` around the solver's point ``near`` when the answer lies beyond
    ten times that box (a step toward a far point costs the bound in proportion; see
    :func:`dual_interior_point`); returns
    ``(x, t)`` (``None`` if it failed).  Only a direction for
    the upper bound's step toward the interior: nothing about it is trusted without
    being re-checked."""
    import cvxpy as cp

    left = time_left()
    if left is not None and left <= 0:
        return None, 0.0
    cached = data.cache.get("interior")
    if cached is not None:
        return cached
    if not _phase_one_fits(data):
        return None, 0.0
    out = _phase_one(data, cp)
    box = None
    if out[0] is not None and near is not None and _far(out[0], near):
        box = near  # again, within the box: a step toward a far point costs the bound
        boxed = _phase_one(data, cp, near=box)
        if boxed[0] is not None:
            out = boxed
    if (out[0] is None or out[1] < 1e-7) and out[2] is not None and data.nonneg:
        # no point strictly inside every row: the rows whose multipliers block the margin
        # are implicit equalities (a fixed column, two opposite rows); keep them >= 0 only
        # and look for a point strictly inside the others (a relative interior point)
        dual = out[2]
        blocked = dual > 1e-6 * float(np.max(dual, initial=0.0))
        if blocked.any() and not blocked.all():
            again = _phase_one(data, cp, blocked, box)
            if again[0] is not None and again[1] > out[1]:
                out = again
    out = out[:2]
    spent = (left := time_left()) is not None and left <= 0
    if out[0] is not None or not spent:  # a skip for want of time is not the answer
        data.cache["interior"] = out
    return out


#: the phase-one solves' own settings: their point is only a direction toward the interior,
#: re-checked exactly wherever it is used, and its depth ``t`` needs a few digits, not
#: eight (kernel logistic regression at n = 300: 17 Clarabel iterations to 11, the same
#: certified gaps to their second digit)
PHASE_ONE_SETTINGS: dict[str, dict[str, float]] = {
    "CLARABEL": {"tol_gap_abs": 1e-4, "tol_gap_rel": 1e-4, "tol_feas": 1e-6,
                 "tol_ktratio": 1e-4},
}


def _phase_one_fits(data: ConicData) -> bool:
    """Whether two iterations of an interior-point phase one fit in what is left of the
    deadline: each factorises, with no check of the clock inside, a dense block of the
    side of every PSD cone's svec (SDPLIB mcp100's 100 x 100 block: 5050, 4e10 flops, so
    a phase one under ``time_limit=1`` overran it by seconds), counted at the rate of a
    solver's dense kernels (:data:`~convexkern.math.budget.SOLVER_FLOPS`; arch0's 161 x 161
    block: about 300 s, measured 90); cvxpy's compilation of the problem, not interruptible
    either, as 1e7 + 100 flops per nonzero of ``A`` at the Python-bound rate (kernel
    logistic regression at n = 300: 0.06 s).  The direct route to Clarabel
    (:mod:`.phase_one`) builds its problem in a fraction of that; the term stays, as the
    margin for the solver's own sparse set-up, which is not counted otherwise."""
    sides = [k * (k + 1) // 2 for k in data.psd]
    solver = 2.0 * sum(s ** 3 / 3.0 for s in sides)  # the phase one's solver's factorisations
    compile_ = 1e7 + 100.0 * data.A.nnz  # cvxpy's compilation, Python-bound
    return affordable(compile_ + solver * (FLOPS / SOLVER_FLOPS))


def _mat_expr(cp, v, k: int, lower: bool):
    """The symmetric ``k x k`` matrix (a cvxpy expression) whose scaled svec is ``v``."""
    r, c = _svec_index(k, lower)
    size = k * (k + 1) // 2
    scale = np.where(r == c, 1.0, 1.0 / math.sqrt(2.0))
    off = r != c  # sparse: a dense selector is k^2 x k(k+1)/2 (400 MB at k = 100)
    cols = np.arange(size)
    Msel = sp.csr_matrix((np.concatenate([scale, scale[off]]),
                          (np.concatenate([r * k + c, (c * k + r)[off]]),
                           np.concatenate([cols, cols[off]]))), shape=(k * k, size))
    S = cp.reshape(Msel @ v, (k, k), order="C")
    return 0.5 * (S + S.T)


def _margin_rows(cp, data: ConicData, v, t) -> list:
    """cvxpy constraints ``v - t e`` in each second-order and PSD block of ``data`` (``e``:
    the SOC head, the identity): the margin of a phase one, primal or dual."""
    cons = []
    for kind, i, k in data.blocks:
        if kind == "soc":
            cons.append(cp.SOC(v[i] - t, v[i + 1: i + k]))
        elif kind == "psd":
            M = _mat_expr(cp, v[i: i + k * (k + 1) // 2], k, data.psd_lower)
            cons.append(M - t * np.eye(k) >> 0)
    return cons


def _far(point: np.ndarray, near: np.ndarray) -> bool:
    """Whether an interior point lies beyond ten times the box of radius
    ``max(1, |near|_inf)`` around the solver's point."""
    radius = max(1.0, float(np.max(np.abs(near), initial=0.0)))
    return float(np.max(np.abs(point - near), initial=0.0)) > 10.0 * radius


def dual_interior_point(data: ConicData, near: np.ndarray
                        ) -> tuple[np.ndarray | None, np.ndarray | None, float]:
    """A dual point deep inside ``K*`` (the dual phase one), solved again within the box
    of radius ``max(1, |near|_inf)`` around the solver's multipliers ``near`` when its
    answer lies beyond ten times that box: ``max t`` subject to
    ``c + A'y + Pw = 0`` and ``y - t e`` in ``K*`` (the equality rows' multipliers free),
    ``t <= 1`` (the exponential cone's dual interior direction is ``(-1, 1, 1)``); returns
    ``(y, w, t)`` (``None`` when it failed, or for power cones and native variable bounds,
    whose dual cones it does not write).  The box keeps
    the step toward it cheap: a step ``theta`` costs at most ``theta |b|_1`` times the
    radius of the bound (without it the phase one may answer with entries of 1e7).  Only
    a direction for the lower bound's step toward the interior of the dual: nothing about
    it is trusted without being re-checked.  A dual with no interior (``t`` near 0:
    SDPLIB's hinf problems) has no lower bound a floating-point proof can give."""
    import cvxpy as cp

    if data.p3d or data.lb is not None or data.ub is not None:
        return None, None, 0.0
    left = time_left()
    if left is not None and left <= 0:
        return None, None, 0.0
    cached = data.cache.get("dual_interior")
    if cached is not None:
        return cached
    if not _phase_one_fits(data):
        return None, None, 0.0
    out = _dual_phase_one(data, cp, None)
    if out[0] is not None and _far(out[0], near):
        boxed = _dual_phase_one(data, cp, near)
        if boxed[0] is not None:
            out = boxed
    spent = (left := time_left()) is not None and left <= 0
    if out[0] is not None or not spent:
        data.cache["dual_interior"] = out
    return out


def _dual_phase_one(data: ConicData, cp, near: np.ndarray | None
                    ) -> tuple[np.ndarray | None, np.ndarray | None, float]:
    """The problem of :func:`dual_interior_point`, solved (within the box around ``near``
    when given): by Clarabel on the conic data directly (:mod:`.phase_one`), then through
    cvxpy (Clarabel when it could not run directly, SCS when it ended without an answer;
    not when it found that no point has a positive margin)."""
    solvers = ("CLARABEL", "SCS")
    if "CLARABEL" in _installed():
        left = time_left()
        if left is not None and left <= 0:
            return None, None, 0.0
        try:
            got = phase_one.dual(data, near, PHASE_ONE_SETTINGS["CLARABEL"],
                                 None if left is None else 0.5 * left)
        except phase_one.OutOfTime:
            return None, None, 0.0
        if got is not None:
            if got[0] is not None:
                return got
            if math.isfinite(got[2]):
                return None, None, 0.0  # solved: no interior point (see _phase_one)
            solvers = ("SCS",)
    if not any(s in _installed() for s in solvers):
        return None, None, 0.0
    m, n = data.A.shape
    y = cp.Variable(m)
    t = cp.Variable()
    expr = data.c + data.A.T @ y
    w = None
    if data.P is not None:
        w = cp.Variable(n)
        expr = expr + data.P @ w
    z, nn = data.zero, data.nonneg
    cons = [expr == 0, t <= 1.0]
    if near is not None:
        radius = max(1.0, float(np.max(np.abs(near), initial=0.0)))
        cons.append(cp.norm(y - near, "inf") <= radius)
    if nn:
        cons.append(y[z: z + nn] >= t)
    cons += _margin_rows(cp, data, y, t)  # SOC and PSD are self-dual
    exp_starts = [i for kind, i, _ in data.blocks if kind == "exp"]
    if exp_starts:  # (u, v, w) - t (-1, 1, 1) in K*_exp, i.e. (u - v, -u, w) in K_exp
        e0 = np.asarray(exp_starts)
        u, v, w3 = y[e0] + t, y[e0 + 1] - t, y[e0 + 2] - t
        cons.append(cp.constraints.ExpCone(u - v, -u, w3))
    prob = cp.Problem(cp.Maximize(t), cons)
    limit = {"CLARABEL": "time_limit", "SCS": "time_limit_secs"}
    for solver in solvers:
        if solver not in _installed():
            continue
        left = time_left()
        if left is not None and left <= 0:
            break
        try:
            prob.solve(solver=solver, **PHASE_ONE_SETTINGS.get(solver, {}),
                       **({} if left is None else {limit[solver]: 0.5 * left}))
        except (cp.error.SolverError, ValueError, ArithmeticError):
            continue
        if y.value is not None and t.value is not None and float(t.value) > 1e-12:
            return (np.asarray(y.value, dtype=float),
                    None if w is None else np.asarray(w.value, dtype=float), float(t.value))
    return None, None, 0.0


def _phase_one(data: ConicData, cp, blocked: np.ndarray | None = None,
               near: np.ndarray | None = None
               ) -> tuple[np.ndarray | None, float, np.ndarray | None]:
    """The phase-one problem of :func:`interior_point`, solved: ``(x, t, multipliers of
    the nonnegative rows)``; rows marked ``blocked`` are only kept ``>= 0``.  By Clarabel
    on the conic data directly (:mod:`.phase_one`), then through cvxpy (Clarabel when it
    could not run directly, SCS when it ended without an answer; not when it found that
    no point has a positive margin)."""
    solvers = ("CLARABEL", "SCS")
    mult = None
    if "CLARABEL" in _installed():
        left = time_left()
        if left is not None and left <= 0:
            return None, 0.0, None
        try:
            got = phase_one.primal(data, blocked, near, PHASE_ONE_SETTINGS["CLARABEL"],
                                   None if left is None else 0.5 * left)
        except phase_one.OutOfTime:
            return None, 0.0, None
        if got is not None:
            if got[0] is not None:
                return got
            if math.isfinite(got[1]):  # Clarabel solved it and found no interior point:
                # SCS's second try found margins of 1e-10 to 7e-8, rounding of the same
                # answer, and on the public sets (397 pairs) closed no bound and changed no
                # status, at up to 0.18 s a call (Netlib VTP.BASE)
                return None, 0.0, got[2]
            solvers, mult = ("SCS",), got[2]
    if not any(s in _installed() for s in solvers):
        return None, 0.0, mult
    m, n = data.A.shape
    x = cp.Variable(n)
    t = cp.Variable()
    s = data.b - data.A @ x
    z, nn = data.zero, data.nonneg
    cons = [t <= 1.0]
    if near is not None:
        radius = max(1.0, float(np.max(np.abs(near), initial=0.0)))
        cons.append(cp.norm(x - near, "inf") <= radius)
    if z:
        cons.append(s[:z] == 0)
    nn_con = None
    if nn:
        if blocked is None:
            nn_con = s[z: z + nn] >= t
        else:
            nn_con = s[z: z + nn] >= cp.multiply(t, (~blocked).astype(float))
        cons.append(nn_con)
    cons += _margin_rows(cp, data, s, t)
    exp_starts = [i for kind, i, _ in data.blocks if kind == "exp"]
    if exp_starts:  # s - t (-1, 1, 1) in K_exp, all blocks in one vector constraint
        e0 = np.asarray(exp_starts)
        cons.append(cp.constraints.ExpCone(s[e0] + t, s[e0 + 1] - t, s[e0 + 2] - t))
    alphas = _pow_alphas(data)
    if alphas:  # s - t (1, 1, 0) in the power cones
        p0 = np.asarray(list(alphas))
        cons.append(cp.constraints.PowCone3D(s[p0] - t, s[p0 + 1] - t, s[p0 + 2],
                                             np.asarray(list(alphas.values()))))
    if data.lb is not None:
        fin = np.isfinite(data.lb)
        if fin.any():
            cons.append(x[fin] >= data.lb[fin] + t)
    if data.ub is not None:
        fin = np.isfinite(data.ub)
        if fin.any():
            cons.append(x[fin] <= data.ub[fin] - t)
    prob = cp.Problem(cp.Maximize(t), cons)
    limit = {"CLARABEL": "time_limit", "SCS": "time_limit_secs"}
    for solver in solvers:
        if solver not in _installed():
            continue
        left = time_left()
        if left is not None and left <= 0:
            return None, 0.0, None  # the caller's budget is spent: no phase one
        try:  # half of what is left: the rest of the certificate needs time too
            prob.solve(solver=solver, **PHASE_ONE_SETTINGS.get(solver, {}),
                       **({} if left is None else {limit[solver]: 0.5 * left}))
        except (cp.error.SolverError, ValueError, ArithmeticError):
            continue
        if nn_con is not None and nn_con.dual_value is not None:
            mult = np.abs(np.asarray(nn_con.dual_value, dtype=float).ravel())
        if x.value is not None and t.value is not None and float(t.value) > 1e-12:
            return np.asarray(x.value, dtype=float), float(t.value), mult
    return None, 0.0, mult


# -- the dual cone, for the dual correction (:func:`convexkern.math.conic.fix.dual_fix`)


def _dual_room(data: ConicData, y: np.ndarray) -> np.ndarray:
    """How far each multiplier may move and stay in ``K*`` (0: not a candidate)."""
    room = np.zeros(y.size)
    room[: data.zero] = 1.0
    nn = slice(data.zero, data.zero + data.nonneg)
    room[nn] = np.clip(y[nn], 0.0, 1.0)
    for _, heads, tails in soc_groups(data):
        T = y[tails]
        inside = y[heads] - np.sqrt(np.einsum("ij,ij->i", T, T))
        room[np.concatenate([heads[:, None], tails], axis=1)] = np.clip(inside, 0.0, 1.0)[
            :, None]
    for kind, i, k in other_blocks(data):
        if kind == "psd":
            size = k * (k + 1) // 2
            lam = float(scipy.linalg.eigvalsh(_smat(y[i: i + size], k, data.psd_lower),
                                              subset_by_index=[0, 0])[0])
            room[i: i + size] = min(1.0, max(0.0, lam))
        elif kind == "exp":  # how far inside K*_exp: -u > 0 and e w - (-u) exp(v/u) > 0
            u, v, w = (float(t) for t in y[i: i + 3])
            if u < 0 and v / u < 700.0:
                inside = E_DOWN * w - (-u) * math.exp(v / u)
                room[i: i + 3] = min(1.0, -u, max(0.0, inside))
    return room


def _stays_in_dual(data: ConicData, y: np.ndarray, By: np.ndarray, dv: np.ndarray) -> bool:
    """Whether ``y + delta`` is in ``K*`` for every ``delta`` on ``By`` with
    ``|delta| <= dv`` componentwise."""
    d = np.zeros(y.size)
    d[By] = dv
    nn = slice(data.zero, data.zero + data.nonneg)
    if np.any(y[nn] - d[nn] < 0):
        return False
    for k, heads, tails in soc_groups(data):
        moved = (d[heads] != 0) | np.any(d[tails] != 0, axis=1)
        if moved.any():
            h, t = heads[moved], tails[moved]
            if not np.all(y[h] - d[h] >= norms_up(np.abs(y[t]) + d[t], k)):
                return False
    for kind, i, k in other_blocks(data):
        size = k if kind != "psd" else k * (k + 1) // 2
        dd = d[i: i + size]
        if not dd.any():
            continue
        if kind == "psd":
            frob = norm_up(dd)
            if psd_shift(_smat(y[i: i + size], k, data.psd_lower), frob) != 0.0:
                return False
        elif kind == "exp":
            if not _exp_dual_box_inside(y[i: i + 3], dd):
                return False
        else:
            return False
    return True



def _exp_dual_box_inside(y: np.ndarray, d: np.ndarray) -> bool:
    """Whether every ``(u, v, w)`` within ``d`` of ``y`` componentwise is in
    ``K*_exp = {u < 0, -u exp(v/u) <= e w}``: ``g(u, v) = -u exp(v/u)`` is the perspective
    of a convex function, jointly convex for ``u < 0``, so its largest value on the box
    is at a vertex; each is widened by 1e-12 (the math library's error)."""
    u_hi = _up(float(y[0]) + float(d[0]))
    if not u_hi < 0:
        return False
    w_lo = float(y[2]) - float(d[2])
    w_lo = w_lo - abs(w_lo) * 4 * _U
    worst = 0.0
    for u in (float(y[0]) - float(d[0]), u_hi):
        for v in (float(y[1]) - float(d[1]), float(y[1]) + float(d[1])):
            arg = v / u
            if arg >= 700.0:
                return False
            worst = max(worst, -u * math.exp(arg) * (1.0 + 1e-12))
    return worst * (1.0 + 4 * _U) <= E_DOWN * w_lo * (1.0 - 4 * _U)
