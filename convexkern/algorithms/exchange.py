r"""Exchange (cutting-plane) method for the semi-infinite SDPM primal.

The SDPM (Graepel & Herbrich 2003, eq. (6)) asks :math:`y_i(w^\top\tilde x_i(\theta) + b)
\ge 1 - \xi_i` for *every* :math:`\theta \in S`.  The exchange method keeps a finite set of
cuts per trajectory and solves the ordinary SVM on them (the *master*):

.. math:: \min_{w,b,\xi}\ \tfrac12\|w\|^2 + C\sum_i\xi_i\quad\text{s.t.}\quad
          y_i(w^\top\tilde x_i(\theta) + b) \ge 1 - \xi_i,\ \theta \in \Theta_i,\ \xi\ge0,

with one slack per *trajectory* (shared by its virtual points, so the master is a
relaxation of (6) and its dual value a valid lower bound).  Then for each trajectory the
most violated parameter :math:`\theta_i^\star` is found exactly (polynomial roots) and
added when it violates the margin: on a segment :math:`\theta_i^\star = \arg\min_{\theta\in
S} g_i(\theta)`, with :math:`g_i(\theta) = y_i(w^\top\tilde x_i(\theta)+b) - 1 + \xi_i`.

Every cut is a *normalised* moment vector :math:`v(\theta) = (1,\theta,\dots,\theta^r) /
(1+\theta^2)^{r/2}` (:func:`cut_moments`; :math:`e_r` for the cut "at infinity",
:math:`y_i w^\top\tilde x_{ir} \ge 0`), the constraint :math:`v(\theta)^\top g_i \ge 0`.
On the real line :math:`\theta = \tan\varphi` makes the parameter set the compact circle,
and the most violated cut minimises :math:`v(\theta)^\top g_i` over
:math:`\mathbb R\cup\{\infty\}` (:func:`normalized_min_R`).  (Minimising :math:`g_i` itself
picks, when a leading coefficient is nearly zero, :math:`\theta^\star \sim 10^{12}` with
rows of size :math:`\theta^{\star 2}`: the master QP then fails, or with normalised rows the
method crawls, each cut barely differing from the one at infinity.)

The master is solved through Clarabel's own API (:func:`_master_native`): the QP's data
are numpy/scipy arrays, the rows of old cuts are kept from one iteration to the next and
only the new cuts' rows are computed, so nothing is compiled per iteration (the cvxpy
master, ``master="cvxpy"``, rebuilt and recompiled the whole problem every iteration;
it is kept as a cross-check).  Clarabel is an interior-point method and has no warm
start: each master is solved from scratch, at the solver's own cost.

The master's multipliers :math:`\beta` give moments :math:`\mu_i = \sum_c \beta_c v_c`, a
discrete measure (atoms at infinity included): the formulation's certificate (the
``Formulation`` the adapter is handed, ``f.certificate``) turns :math:`(w, \mu)` into a
certified gap, and the iteration stops when that gap meets ``tol``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import cvxpy as cp
import numpy as np
import scipy.sparse as sp

from .. import sos
from ..errors import InvalidInputError
from ..report import SolveReport
from ..solvers.certify import certified_report
from ..solvers.status import algorithm_status
from ._progress import checkpoint

__all__ = ["ExchangeResult", "exchange", "cut_moments", "normalized_min_R"]


@dataclass
class ExchangeResult:
    """Raw output of :func:`exchange`; :func:`solve_formulation` makes it a ``SolveReport``."""

    w: np.ndarray
    b: float
    mu: np.ndarray
    status: str
    iterations: int
    history: list[tuple[float, float, float, float]] = field(default_factory=list)
    cuts: tuple[np.ndarray, np.ndarray] | None = None  # (trajectory index, theta)
    message: str = ""


def _master(Z: np.ndarray, v0: np.ndarray, idx: np.ndarray, y: np.ndarray, C: float,
            bias: bool, n: int, m: int):
    """Solve the master QP; rows ``Z[c] = y_i X_i' v_c`` (n,), ``v0[c]`` = first moment of
    cut ``c`` (0 for a cut at infinity).  Returns ``(problem, w, b, margin)``, or ``None``
    for ``problem`` (with the solver's message in ``margin``) when the solver fails."""
    w = cp.Variable(n)
    lhs = Z @ w
    b = cp.Variable() if bias else None
    if b is not None:
        lhs = lhs + cp.multiply(v0 * y[idx], b)
    cons = []
    obj = 0.5 * cp.sum_squares(w)
    if math.isfinite(C):
        xi = cp.Variable(m)
        lhs = lhs + cp.multiply(v0, xi[idx])
        obj = obj + C * cp.sum(xi)
        cons.append(xi >= 0)
    margin = lhs >= v0
    prob = cp.Problem(cp.Minimize(obj), [margin, *cons])
    try:
        prob.solve(solver="CLARABEL", **_MASTER_TOL)
    except cp.SolverError as e:
        return None, w, b, str(e)
    return prob, w, b, margin


#: Clarabel's accuracy for the master, both paths (the certificate needs multipliers and
#: weights accurate well below the requested gap)
_MASTER_TOL = {"tol_gap_abs": 1e-11, "tol_gap_rel": 1e-11, "tol_feas": 1e-11}

#: Clarabel outcomes whose point the method uses (the certificate judges it); the
#: infeasible ones are a status of the master, anything else is an error
_NATIVE_USABLE = ("Solved", "AlmostSolved", "InsufficientProgress", "MaxIterations",
                  "MaxTime")
_NATIVE_INFEASIBLE = ("PrimalInfeasible", "AlmostPrimalInfeasible")


@dataclass
class _MasterResult:
    status: str  # "ok", "infeasible" or "error"
    w: np.ndarray | None = None
    b: float = 0.0
    beta: np.ndarray | None = None
    message: str = ""


def _master_native(Z: np.ndarray, v0: np.ndarray, idx: np.ndarray, y: np.ndarray, C: float,
                   bias: bool, n: int, m: int, *, X: np.ndarray, V: np.ndarray
                   ) -> _MasterResult:
    """The master QP through Clarabel's API, lifted so that its matrix stays sparse.

    Every cut of trajectory ``i`` reads ``w`` only through :math:`F_i = \\tilde X_i w \\in
    \\mathbb R^{r+1}` (``Z_c = y_i v_c^\\top\\tilde X_i``), so the variables are ``x = (w, b,
    xi, F)`` with the ``m (r+1)`` dense equality rows :math:`\\tilde X w - F = 0` (as many
    as the SOCP has) and one sparse row of ``r + 3`` entries per cut:
    :math:`-(y_i v_c^\\top F_i + v_{c0} y_i b + v_{c0}\\xi_i) + s = -v_{c0}`, ``s >= 0``;
    then :math:`-\\xi \\le 0`.  (The dense cut rows ``Z`` of the cvxpy master make the KKT
    factorisation fill in: ``cuts x cuts``.)  The margin rows' multipliers are Clarabel's
    ``z`` on them, as in the cvxpy master (:math:`w = Z^\\top\\beta` at the optimum).
    """
    import clarabel

    c = Z.shape[0]
    R = V.shape[1]
    soft = math.isfinite(C)
    nb = 1 if bias else 0
    nxi = m if soft else 0
    oF = n + nb + nxi  # offset of F
    nx = oF + m * R
    rows = np.arange(c)
    # cut rows: -(y_i v_c' F_i) - v0 y_i b - v0 xi_i
    ri = [np.repeat(rows, R)]
    ci = [(oF + idx[:, None] * R + np.arange(R)[None, :]).ravel()]
    vi = [(-(y[idx][:, None] * V)).ravel()]
    if bias:
        ri.append(rows)
        ci.append(np.full(c, n))
        vi.append(-(v0 * y[idx]))
    if soft:
        ri.append(rows)
        ci.append(n + nb + idx)
        vi.append(-v0)
    A_cut = sp.csc_matrix((np.concatenate(vi), (np.concatenate(ri), np.concatenate(ci))),
                          shape=(c, nx))
    Xf = X.reshape(m * R, n)
    A_eq = sp.hstack([sp.csc_matrix(Xf), sp.csc_matrix((m * R, nb + nxi)),
                      -sp.identity(m * R, format="csc")], format="csc")
    blocks, rhs = [A_eq, A_cut], [np.zeros(m * R), -v0]
    cones = [clarabel.ZeroConeT(m * R), clarabel.NonnegativeConeT(c + nxi)]
    q = np.zeros(nx)
    if soft:
        blocks.append(sp.hstack([sp.csc_matrix((m, n + nb)), -sp.identity(m),
                                 sp.csc_matrix((m, m * R))], format="csc"))
        rhs.append(np.zeros(m))
        q[n + nb: oF] = C
    A = sp.vstack(blocks, format="csc")
    P = sp.diags(np.concatenate([np.ones(n), np.zeros(nx - n)]), format="csc")
    settings = clarabel.DefaultSettings()
    settings.verbose = False
    for k, v in _MASTER_TOL.items():
        setattr(settings, k, v)
    try:
        solver = clarabel.DefaultSolver(P, q, A, np.concatenate(rhs), cones, settings)
        sol = solver.solve()
    except Exception as e:  # noqa: BLE001 - a solver crash is a status of the method
        return _MasterResult("error", message=f"Clarabel failed: {type(e).__name__}: {e}")
    st = str(sol.status)
    if st in _NATIVE_INFEASIBLE:
        return _MasterResult("infeasible", message=st)
    x = np.asarray(sol.x, float)
    z = np.asarray(sol.z, float)
    if st not in _NATIVE_USABLE or x.size != nx or not np.all(np.isfinite(x)):
        return _MasterResult("error", message=f"Clarabel: {st}")
    return _MasterResult("ok", w=x[:n], b=float(x[n]) if bias else 0.0,
                         beta=np.maximum(z[m * R: m * R + c], 0.0), message=st)


def _master_cvxpy(Z: np.ndarray, v0: np.ndarray, idx: np.ndarray, y: np.ndarray, C: float,
                  bias: bool, n: int, m: int, *, X: np.ndarray, V: np.ndarray
                  ) -> _MasterResult:
    """The same master through cvxpy (rebuilt every call: the old path, a cross-check)."""
    prob, wv, bv, margin = _master(Z, v0, idx, y, C, bias, n, m)
    if prob is None:
        return _MasterResult("error", message=str(margin))
    if prob.status in (cp.INFEASIBLE, cp.INFEASIBLE_INACCURATE):
        return _MasterResult("infeasible", message=prob.status)
    if wv.value is None:
        return _MasterResult("error", message=f"master problem: {prob.status}")
    return _MasterResult("ok", w=np.asarray(wv.value, float),
                         b=float(bv.value) if bv is not None else 0.0,
                         beta=np.maximum(np.asarray(margin.dual_value, float), 0.0),
                         message=prob.status)


_MASTERS = {"clarabel": _master_native, "cvxpy": _master_cvxpy}


def cut_moments(theta: np.ndarray, r: int) -> np.ndarray:
    r"""Moment vectors of the cuts, normalised: :math:`(1, \theta, \dots, \theta^r) /
    (1 + \theta^2)^{r/2}` for a point (entries bounded by 1 in absolute value, so a cut
    far out on :math:`\mathbb R` stays well scaled) and :math:`e_r` for ``theta = +-inf``
    (the limit: the atom at infinity)."""
    th = np.asarray(theta, float)
    inf = ~np.isfinite(th)
    V = np.zeros((th.size, r + 1))
    t = th[~inf]
    # theta^k / (1 + theta^2)^(r/2) = (theta / s)^k (1 / s)^(r - k), s = hypot(1, theta):
    # no overflow however large theta is
    s = np.hypot(1.0, t)[:, None]
    k = np.arange(r + 1)[None, :]
    V[~inf] = (t[:, None] / s) ** k * (1.0 / s) ** (r - k)
    V[inf, r] = 1.0
    return V


def normalized_min_R(F: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""Per row of ``F`` (even degree ``r``), the minimum over :math:`\mathbb R\cup\{\infty\}`
    of :math:`h(\theta) = g(\theta) / (1 + \theta^2)^{r/2}` and a minimiser (``inf`` when it
    is the leading coefficient, the value at infinity).

    :math:`h` is :math:`g` on the compact circle :math:`\theta = \tan\varphi`, and
    :math:`h(\theta) = v(\theta)^\top g` with ``v`` the normalised cut of
    :func:`cut_moments`: the most violated *normalised* cut.  Minimising ``g`` itself
    instead picks, when the leading coefficient is nearly zero, a point far out whose cut
    barely differs from the one at infinity, and the method crawls (or, without the
    normalisation, the master becomes ill-conditioned).  Critical points: real roots of
    :math:`g'(\theta)(1+\theta^2) - r\theta g(\theta)`, a polynomial of degree ``<= r``.
    """
    F = np.atleast_2d(np.asarray(F, float))
    N, R = F.shape
    r = R - 1
    vals = F[:, r].copy()
    args = np.full(N, math.inf)
    k = np.arange(R)
    dg = np.zeros((N, R + 2))
    dg[:, : r] += F[:, 1:] * k[1:]          # g'
    dg[:, 2: r + 2] += F[:, 1:] * k[1:]     # theta^2 g'
    dg[:, 1: R + 1] -= r * F                # - r theta g
    for i in range(N):
        t = np.zeros(1)
        c = np.trim_zeros(dg[i, ::-1], "f")
        if c.size > 1:
            rt = np.roots(c)
            t = np.concatenate([t, rt[np.abs(rt.imag) <= 1e-9 * (1 + np.abs(rt.real))].real])
        h = cut_moments(t, r) @ F[i]
        j = int(np.argmin(h))
        if h[j] < vals[i]:
            vals[i], args[i] = h[j], t[j]
    return vals, args


def exchange(
    X: np.ndarray,
    y: np.ndarray,
    segment: float | None,
    C: float,
    bias: bool,
    certify: Any,
    *,
    tol: float = 1e-6,
    max_iter: int | None = None,
    time_limit: float | None = None,
    init: str = "center",
    verbose: bool = False,
    master: str = "clarabel",
) -> ExchangeResult:
    """Run the exchange method on trajectories ``X`` (m, r+1, n).

    ``certify(w, mu) -> Certificate`` gives the certified bounds used for stopping.
    ``init``: ``"center"`` (theta = 0 for every trajectory) or ``"ends"`` (also +-tau on a
    segment; the same as ``"center"`` on the real line).  A failure of the master QP's
    solver is returned as status ``"error"`` with the solver's message.  ``master``:
    ``"clarabel"`` (default: Clarabel's own API, :func:`_master_native`, nothing rebuilt
    or recompiled; only the new cuts' rows are computed) or ``"cvxpy"`` (the same QP
    rebuilt through cvxpy every iteration, the old path, kept as a cross-check).
    """
    if init not in ("center", "ends"):
        raise InvalidInputError("init", f"must be 'center' or 'ends', got {init!r}")
    if master not in _MASTERS:
        raise InvalidInputError("master", f"must be one of {sorted(_MASTERS)}, got {master!r}")
    solve_master = _MASTERS[master]
    m, R, n = X.shape
    r = R - 1
    idx_l: list[int] = []
    th_l: list[float] = []  # inf marks the asymptotic cut
    starts = [0.0] if init == "center" or segment is None else [0.0, -segment, segment]
    for i in range(m):
        for t in starts:
            idx_l.append(i)
            th_l.append(t)
    t0 = time.perf_counter()
    history: list[tuple[float, float, float, float]] = []
    limit = 200 if max_iter is None else int(max_iter)
    status, message = "iteration_limit", ""
    w = np.zeros(n)
    b = 0.0
    mu = np.zeros((m, R))
    it = 0
    Z = np.zeros((0, n))
    V = np.zeros((0, R))
    for it in range(1, limit + 1):
        idx = np.asarray(idx_l, dtype=int)
        th = np.asarray(th_l, float)
        # rows of the new cuts only; the old ones are kept
        new = slice(Z.shape[0], idx.size)
        Vn = cut_moments(th[new], r)
        Zn = y[idx[new], None] * np.einsum("ck,ckn->cn", Vn, X[idx[new]])
        V = np.vstack([V, Vn])
        Z = np.vstack([Z, Zn])
        v0 = V[:, 0]
        mr = solve_master(Z, v0, idx, y, C, bias, n, m, X=X, V=V)
        if mr.status == "error":
            status = "error"
            message = f"the master QP failed at iteration {it} ({idx.size} cuts): {mr.message}"
            break
        if mr.status == "infeasible":
            status = "infeasible"
            message = ("the hard-margin problem is infeasible (already on the current virtual "
                       "points): the trajectories are not separable; use a soft margin (C > 0)")
            break
        w, b, beta = mr.w, mr.b, mr.beta
        mu = np.zeros((m, R))
        np.add.at(mu, idx, beta[:, None] * V)
        cert = certify(w, mu)
        stop = checkpoint(history, it, t0, cert, tol, time_limit,
                          (f"exchange: it={it} cuts={idx.size}") if verbose else None)
        if stop:
            status = stop
            break
        # most violated parameter per trajectory, for the margin polynomial with the
        # master's slack: g_i(theta) = y_i (w'x_i(theta) + b) - 1 + xi_i
        F = y[:, None] * (X @ w)
        F[:, 0] += y * b
        xi_now = np.zeros(m)
        if math.isfinite(C):
            # the master's slack for trajectory i: max over its (finite) cuts of 1 - margin,
            # the margin y_i (w'x_i(theta) + b) = (cut row . (w, b)) / v0 for a normalised cut
            fin = v0 > 0
            cut_m = (Z[fin] @ w) / v0[fin] + y[idx[fin]] * b
            np.maximum.at(xi_now, idx[fin], np.maximum(0.0, 1.0 - cut_m))
        Fg = F.copy()
        Fg[:, 0] -= 1.0 - xi_now
        if segment is None:
            vals, args = normalized_min_R(Fg)
            size = np.linalg.norm(Fg, axis=1)
        else:
            vals, args = sos.poly_min(Fg, segment)
            size = np.abs(F).sum(1) * max(1.0, segment) ** r
        add = np.flatnonzero(vals < -1e-10 * np.maximum(1.0, size))
        for i in add:
            idx_l.append(int(i))
            th_l.append(float(args[i]))
        new_cuts = add.size
        if new_cuts == 0:
            status = "stalled"
            message = "no violated cut left but the certified gap misses tol (master accuracy)"
            break
    return ExchangeResult(
        w=w, b=b, mu=mu, status=status, iterations=it, history=history,
        cuts=(np.asarray(idx_l), np.asarray(th_l)), message=message,
    )


def solve_formulation(
    f: Any, *, tol: float, max_iter: int | None, time_limit: float | None,
    verbose: bool = False, x0: Mapping[str, np.ndarray] | None = None, **options: Any,
) -> SolveReport:
    """The solver table's adapter for ``sdpm.primal``: :func:`exchange`, then certify.

    The bounds that stop the iteration are the formulation's own certificate at
    ``(w, mu)`` (``f.certificate``), the same that certifies the final report.
    """
    d = f.data
    C = math.inf if d["hard"] else f.param("C")
    if options.keys() - {"init", "master"}:
        raise InvalidInputError("options", f"unknown options {sorted(options)}")

    def certify(w: np.ndarray, mu: np.ndarray):
        return f.certificate({"w": w, "mu": mu})

    t0 = time.perf_counter()
    res = exchange(d["X_traj"], d["y"], d["segment"], C, d["bias"], certify, tol=tol,
                   max_iter=max_iter, time_limit=time_limit, verbose=verbose,
                   init=options.get("init", "center"),
                   master=options.get("master", "clarabel"))
    elapsed = time.perf_counter() - t0
    if res.status in ("infeasible", "error"):
        return SolveReport(
            status=algorithm_status(res.status), solver="exchange", formulation=f.name,
            solve_time=elapsed, iterations=res.iterations, tol=tol,
            params=f.param_values(), message=res.message,
        )
    return certified_report(
        f, {"w": res.w, "b": np.asarray(res.b), "mu": res.mu}, solver="exchange",
        status=algorithm_status(res.status), tol=tol, solve_time=elapsed,
        iterations=res.iterations, history=res.history, message=res.message,
        solver_stats={"cuts": int(res.cuts[0].size) if res.cuts else 0},
    )
