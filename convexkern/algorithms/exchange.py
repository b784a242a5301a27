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

The master is by default the dense primal-dual interior-point method of
:mod:`convexkern.math.exchange` (``master="ipm"``): one ``(n+1) x (n+1)`` Cholesky factor
per step, the per-trajectory slacks eliminated block by block.  Three things make the
exchange method cheap with it, each measured on the benchmark (USPS, m = 1000, C = 1):

* a *working set*: a cut whose multiplier is zero (below ``max(1e-6, accuracy)`` of the
  largest) leaves the master (``drop_after=1`` master in a row); removing constraints with
  zero multipliers keeps the master's optimum, and the oracle searches every trajectory's
  whole parameter set each iteration, so a cut that is violated again comes back;
* an *inexact master*: its relative accuracy follows 0.1 times the certified gap, from
  1e-3 down to 1e-10, and the oracle adds only cuts violated by more than 1e-2 times that
  accuracy (a master without a violated cut after it is solved again 100 times more
  accurately before the method reports ``stalled``; one the interior-point method cannot
  finish goes to Clarabel);
* a *warm start*: the previous master's iterate, saved when its merit first passes 1e-2
  (a centred point), on the cuts still held, the new cuts' multipliers at 0, every entry
  moved to at least 0.1 (~10 % less master work than a cold start);

and ``init="ends"`` (cuts at 0 and +-tau to start: 9 iterations instead of 15).  A hard
margin's master goes to Clarabel (``"clarabel-dense"``), which proves infeasibility.
``master="clarabel"`` (the previous default, Clarabel's API on a lifted sparse form, a cold
solve per iteration) and ``master="cvxpy"`` (the QP rebuilt through cvxpy, the first path)
are kept as cross-checks; with ``drop_after=None, init="center"`` they run as before.
A dual coordinate-descent master was judged by a proxy and not built: warm-started from
sdpm-ipm points at relative gaps 1e-2, 1e-3 and 2e-5 on 300 USPS trajectories (C = 1),
sdpm-dcd still missed 1e-6 after 300 epochs each (9e-4, 6e-5, 3e-6): at this C coordinate
descent needs thousands of passes however close it starts.

The master's multipliers :math:`\beta` give moments :math:`\mu_i = \sum_c \beta_c v_c`, a
discrete measure (atoms at infinity included): the formulation's certificate (the
``Formulation`` the adapter is handed, ``f.certificate``) turns :math:`(w, \mu)` into a
certified gap, and the iteration stops when that gap meets ``tol``.
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import cvxpy as cp
import numpy as np
import scipy.sparse as sp

from ..errors import InvalidInputError
from ..math import sos
from ..math.exchange import master_qp
from ..report import SolveReport
from ..solvers.backends.base import SPARSE_LDL_FLOPS, ldl_seconds
from ..solvers.outcome import certified_report, pointless_report
from ..solvers.status import algorithm_status
from ._progress import SdpmResult, blas_threads, checkpoint, next_lap, no_room

__all__ = ["ExchangeResult", "exchange", "cut_moments", "normalized_min_R"]


@dataclass
class ExchangeResult(SdpmResult):
    """Raw output of :func:`exchange`, with the master's bias ``b`` and the cuts;
    :func:`solve_formulation` makes it a ``SolveReport``."""

    b: float = 0.0
    cuts: tuple[np.ndarray, np.ndarray] | None = None  # (trajectory index, theta)


def _master(Z: np.ndarray, v0: np.ndarray, idx: np.ndarray, y: np.ndarray, C: float,
            bias: bool, n: int, m: int, seconds: float | None = None):
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
    limit: dict[str, float] = {}
    if seconds is not None:  # cvxpy's compilation, then Clarabel's work before its clock
        # (_clarabel_limit); the compilation estimated first (200 trajectories' first
        # cuts: 40 ms, the whole share of T = 0.05), its form's LDL from Z's dense rows
        c = Z.shape[0]  # its rows: c of n + 2 entries, m singletons (ldl_work's count)
        ldl = min(c * (n + 2.0) ** 2, n * float(c) ** 2) / SPARSE_LDL_FLOPS
        entries = Z.size + 2 * c + m
        if _COMPILE_PER_ENTRY * Z.size + _clarabel_work(ldl, entries)[0] > seconds:
            return None, w, b, _NOT_STARTED
        t = time.perf_counter()
        try:
            data = prob.get_problem_data("CLARABEL")[0]
        except cp.SolverError as e:
            return None, w, b, str(e)
        own = _clarabel_limit(ldl_seconds(data), entries, seconds - (time.perf_counter() - t))
        if own is None:
            return None, w, b, _NOT_STARTED
        limit["time_limit"] = own
    try:
        with warnings.catch_warnings():  # a master stopped at its limit: the method's
            # status says it
            warnings.filterwarnings("ignore", message="Solution may be inaccurate",
                                    category=UserWarning)
            prob.solve(solver="CLARABEL", **_MASTER_TOL, **limit)
    except cp.SolverError as e:
        return None, w, b, str(e)
    return prob, w, b, margin


_NOT_STARTED = "Clarabel's set-up would not fit"

#: seconds per entry of the cut rows ``Z`` of cvxpy's compilation of the master (measured:
#: 2.6e-7 to 6e-7 on 40 and 200 trajectories' first cuts, the larger on the smaller)
_COMPILE_PER_ENTRY = 4e-7
#: seconds per stored entry of Clarabel's work outside its factorisations before it first
#: reads its clock (its set-up's copies and equilibration: 19-22 ms on 27,000 entries
#: where the factorisations are estimated at 6 ms)
_CLARABEL_PER_ENTRY = 8e-7


def _clarabel_work(ldl: float, entries: int) -> tuple[float, float]:
    """``(first, step)``: Clarabel's seconds before it first reads its clock (its set-up, the
    initial point and one iteration: two factorisations of ``ldl`` seconds at the lower
    estimate's rate, or its per-entry work if larger) and between two reads (one
    factorisation).  Measured on the exchange method's masters: 19-22 ms and 4-6 ms on 40
    trajectories' first cuts (estimated 22 and 7), 111-152 ms and up to 38 ms on 200
    (estimated 130 and 65)."""
    per = _CLARABEL_PER_ENTRY * entries
    return max(2.0 * ldl, per), max(ldl, per / 3.0)


def _clarabel_limit(ldl: float, entries: int, seconds: float) -> float | None:
    """Clarabel's own time limit for a master that must end within ``seconds`` (its clock
    counts most of its set-up and is read once an iteration: the step it begins last, and
    half a factorisation for the set-up's uncounted part, are kept), or ``None`` when its
    work before its first clock read cannot fit (:func:`_clarabel_work`)."""
    first, step = _clarabel_work(ldl, entries)
    if seconds < first:
        return None
    return max(seconds - step - 0.5 * ldl, 1e-3)


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
    status: str  # "ok", "infeasible", "time_limit" (stopped with no point) or "error"
    w: np.ndarray | None = None
    b: float = 0.0
    beta: np.ndarray | None = None
    message: str = ""
    steps: int = 0  # interior-point steps (ipm)
    warm: Any = None  # the ipm's saved iterate, for the next master's warm start


def _master_native(Z: np.ndarray, v0: np.ndarray, idx: np.ndarray, y: np.ndarray, C: float,
                   bias: bool, n: int, m: int, *, X: np.ndarray, V: np.ndarray,
                   seconds: float | None = None) -> _MasterResult:
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
    return _clarabel_master(A, q, np.concatenate(rhs), cones, n, bias, slice(m * R, m * R + c),
                            seconds)


def _master_dense(Z: np.ndarray, v0: np.ndarray, idx: np.ndarray, y: np.ndarray, C: float,
                  bias: bool, n: int, m: int, *, X: np.ndarray, V: np.ndarray,
                  seconds: float | None = None) -> _MasterResult:
    """The master QP through Clarabel's API with one dense row per cut (no lifting):
    variables ``x = (w, b, xi)``, rows :math:`-(Z_c w + v_{c0} y_i b + v_{c0}\\xi_i) + s =
    -v_{c0}`, then :math:`-\\xi \\le 0`."""
    import clarabel

    c = Z.shape[0]
    soft = math.isfinite(C)
    nb = 1 if bias else 0
    nxi = m if soft else 0
    nx = n + nb + nxi
    cols = [sp.csc_matrix(-Z)]
    if bias:
        cols.append(sp.csc_matrix(-(v0 * y[idx])[:, None]))
    if soft:
        cols.append(sp.csc_matrix((-v0, (np.arange(c), idx)), shape=(c, m)))
    blocks, rhs = [sp.hstack(cols, format="csc")], [-v0]
    q = np.zeros(nx)
    if soft:
        blocks.append(sp.hstack([sp.csc_matrix((m, n + nb)), -sp.identity(m)], format="csc"))
        rhs.append(np.zeros(m))
        q[n + nb:] = C
    A = sp.vstack(blocks, format="csc")
    return _clarabel_master(A, q, np.concatenate(rhs), [clarabel.NonnegativeConeT(c + nxi)],
                            n, bias, slice(0, c), seconds)


def _clarabel_master(A: Any, q: np.ndarray, rhs: np.ndarray, cones: list, n: int,
                     bias: bool, cut_rows: slice, seconds: float | None = None
                     ) -> _MasterResult:
    """Solve ``min 1/2 ||w||^2 + q'x`` s.t. ``A x + s = rhs``, ``s`` in ``cones`` with
    Clarabel (``x = (w, b, ...)``, ``w`` its first ``n`` entries) at the master's
    tolerances, within ``seconds`` (Clarabel's own limit; its last iterate is used, a
    stop with none is ``"time_limit"``); the cuts' multipliers are ``z[cut_rows]``."""
    import clarabel

    nx = A.shape[1]
    P = sp.diags(np.concatenate([np.ones(n), np.zeros(nx - n)]), format="csc")
    settings = clarabel.DefaultSettings()
    settings.verbose = False
    for k, v in _MASTER_TOL.items():
        setattr(settings, k, v)
    if seconds is not None:
        own = _clarabel_limit(ldl_seconds({"A": A}), A.nnz, seconds)
        if own is None:
            return _MasterResult("time_limit", message=_NOT_STARTED)
        settings.time_limit = own
    try:
        sol = clarabel.DefaultSolver(P, q, A, rhs, cones, settings).solve()
    except Exception as e:  # noqa: BLE001 - a solver crash is a status of the method
        return _MasterResult("error", message=f"Clarabel failed: {type(e).__name__}: {e}")
    st = str(sol.status)
    if st in _NATIVE_INFEASIBLE:
        return _MasterResult("infeasible", message=st)
    x = np.asarray(sol.x, float)
    z = np.asarray(sol.z, float)
    if st not in _NATIVE_USABLE or x.size != nx or not np.all(np.isfinite(x)):
        return _MasterResult("time_limit" if st == "MaxTime" else "error",
                             message=f"Clarabel: {st}")
    return _MasterResult("ok", w=x[:n], b=float(x[n]) if bias else 0.0,
                         beta=np.maximum(z[cut_rows], 0.0), message=st)


def _master_ipm(Z: np.ndarray, v0: np.ndarray, idx: np.ndarray, y: np.ndarray, C: float,
                bias: bool, n: int, m: int, *, X: np.ndarray, V: np.ndarray,
                accuracy: float = 1e-10, start: Any = None, seconds: float | None = None
                ) -> _MasterResult:
    """The master QP by the dense interior-point method of :mod:`convexkern.math.exchange`
    (soft margin; the hard margin, whose master may be infeasible, goes to Clarabel,
    :func:`_master_dense`, which proves infeasibility).  ``accuracy``: the master's
    relative residuals and gap (the exchange method loosens it while the certified gap
    is large)."""
    if not math.isfinite(C):
        return _master_dense(Z, v0, idx, y, C, bias, n, m, X=X, V=V, seconds=seconds)
    deadline = None if seconds is None else time.perf_counter() + seconds
    try:
        res = master_qp(Z, v0, idx, y, C, bias, m, tol=accuracy, start=start,
                        deadline=deadline)
    except (np.linalg.LinAlgError, FloatingPointError, ValueError):
        return _master_dense(Z, v0, idx, y, C, bias, n, m, X=X, V=V, seconds=_left(deadline))
    if not (np.all(np.isfinite(res.w)) and np.all(np.isfinite(res.z))):
        return _master_dense(Z, v0, idx, y, C, bias, n, m, X=X, V=V, seconds=_left(deadline))
    if res.status == "time_limit" and res.iterations <= 1:
        return _MasterResult("time_limit", message="no interior-point step fits")
    if res.status not in ("solved", "time_limit"):
        # round-off stopped it short (badly scaled data): Clarabel, with its
        # equilibration, takes this master; the warm start stays the ipm's
        alt = _master_dense(Z, v0, idx, y, C, bias, n, m, X=X, V=V, seconds=_left(deadline))
        if alt.status == "ok":
            alt.steps, alt.warm = res.iterations, res.warm
            alt.message = f"ipm {res.status} (merit {res.merit:.1e}), then {alt.message}"
            return alt
    return _MasterResult("ok", w=res.w, b=res.b, beta=np.maximum(res.z, 0.0),
                         message=f"ipm {res.status} in {res.iterations} steps "
                                 f"(merit {res.merit:.1e})",
                         steps=res.iterations, warm=res.warm)


def _left(deadline: float | None) -> float | None:
    """The seconds to ``deadline`` (``None``: none), never below zero."""
    return None if deadline is None else max(deadline - time.perf_counter(), 0.0)


def _master_cvxpy(Z: np.ndarray, v0: np.ndarray, idx: np.ndarray, y: np.ndarray, C: float,
                  bias: bool, n: int, m: int, *, X: np.ndarray, V: np.ndarray,
                  seconds: float | None = None) -> _MasterResult:
    """The same master through cvxpy (rebuilt every call: the old path, a cross-check)."""
    prob, wv, bv, margin = _master(Z, v0, idx, y, C, bias, n, m, seconds)
    if prob is None:
        return _MasterResult("time_limit" if margin == _NOT_STARTED else "error",
                             message=str(margin))
    if prob.status in (cp.INFEASIBLE, cp.INFEASIBLE_INACCURATE):
        return _MasterResult("infeasible", message=prob.status)
    if wv.value is None:
        return _MasterResult("time_limit" if prob.status == cp.USER_LIMIT else "error",
                             message=f"master problem: {prob.status}")
    return _MasterResult("ok", w=np.asarray(wv.value, float),
                         b=float(bv.value) if bv is not None else 0.0,
                         beta=np.maximum(np.asarray(margin.dual_value, float), 0.0),
                         message=prob.status)


def _master_stop(mr: _MasterResult, it: int, cuts: int) -> str:
    """The method's message when the master at iteration ``it`` returned no point."""
    if mr.status == "time_limit":  # the last master's point stands
        return f"the master QP was stopped at time_limit ({mr.message})"
    if mr.status == "infeasible":
        return ("the hard-margin problem is infeasible (already on the current virtual "
                "points): the trajectories are not separable; use a soft margin (C > 0)")
    return f"the master QP failed at iteration {it} ({cuts} cuts): {mr.message}"


def _master_seconds(t0: float, time_limit: float, certifying: float, it: int) -> float:
    """What the master may take of ``time_limit`` (counted from ``t0``), given to its solver
    as its own limit: what is left less twice the certificate that follows it (the mean of
    the ``it - 1`` so far; before the first, a fifth of what is left).  The interior-point
    master takes it only where it hands a master to Clarabel; a Clarabel master had no
    limit (2-11 T under ``T = 0.1-0.5``)."""
    left = time_limit - (time.perf_counter() - t0)
    reserve = 2.0 * certifying / (it - 1) if it > 1 else 0.2 * left
    return max(left - reserve, 1e-3)


_MASTERS = {"ipm": _master_ipm, "clarabel": _master_native, "cvxpy": _master_cvxpy,
            "clarabel-dense": _master_dense}

#: the inexact master (``ipm``): its relative accuracy starts at ``_ACCURACY[1]`` and
#: follows ``_ACCURACY[2]`` times the certified relative gap down to ``_ACCURACY[0]``
_ACCURACY = (1e-10, 1e-3, 1e-1)
#: an inexact master's cut must be violated by more than this times its accuracy
_FLOOR = 1e-2

#: a multiplier counts as zero below this fraction of the largest one
_ZERO_BETA = 1e-6


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


def _most_violated(X: np.ndarray, y: np.ndarray, w: np.ndarray, b: float, Z: np.ndarray,
                   v0: np.ndarray, widx: np.ndarray, C: float, segment: float | None,
                   floor: float = 1e-10) -> tuple[np.ndarray, np.ndarray]:
    """The separation oracle: per trajectory, the most violated parameter of the margin
    polynomial with the master's slack, :math:`g_i(\\theta) = y_i(w^\\top\\tilde
    x_i(\\theta) + b) - 1 + \\xi_i`, over the whole parameter set (exact polynomial
    minima).  Returns the trajectories with a cut violated by more than ``floor`` (relative
    to the polynomial's size) and their parameters."""
    m, R, _ = X.shape
    r = R - 1
    F = y[:, None] * (X @ w)
    F[:, 0] += y * b
    xi_now = np.zeros(m)
    if math.isfinite(C):
        # the master's slack for trajectory i: max over its (finite) cuts of 1 - margin,
        # the margin y_i (w'x_i(theta) + b) = (cut row . (w, b)) / v0 for a normalised cut
        fin = v0 > 0
        cut_m = (Z[fin] @ w) / v0[fin] + y[widx[fin]] * b
        np.maximum.at(xi_now, widx[fin], np.maximum(0.0, 1.0 - cut_m))
    Fg = F.copy()
    Fg[:, 0] -= 1.0 - xi_now
    if segment is None:
        vals, args = normalized_min_R(Fg)
        size = np.linalg.norm(Fg, axis=1)
    else:
        vals, args = sos.poly_min(Fg, segment)
        size = np.abs(F).sum(1) * max(1.0, segment) ** r
    add = np.flatnonzero(vals < -floor * np.maximum(1.0, size))
    return add, args[add]


def _check_options(init: Any, master: Any, drop_after: Any, warm: Any) -> None:
    if init not in ("center", "ends"):
        raise InvalidInputError("init", f"must be 'center' or 'ends', got {init!r}")
    if master not in _MASTERS:
        raise InvalidInputError("master", f"must be one of {sorted(_MASTERS)}, got {master!r}")
    if drop_after is not None and (isinstance(drop_after, bool)
                                   or not isinstance(drop_after, (int, np.integer))
                                   or drop_after < 1):
        raise InvalidInputError("drop_after", "must be a positive integer (masters in a row "
                                              f"with a zero multiplier) or None, got "
                                              f"{drop_after!r}")
    if not isinstance(warm, bool):
        raise InvalidInputError("warm", f"must be True or False, got {warm!r}")


def _working_set(beta: np.ndarray, v0: np.ndarray, age: np.ndarray, acc: float,
                 drop_after: int) -> tuple[np.ndarray, np.ndarray]:
    """Which cuts stay in the master, and their new ages.  A cut whose multiplier has been
    zero (below ``max(1e-6, acc)`` of the largest) for ``drop_after`` masters leaves:
    removing constraints with zero multipliers keeps the master's optimum, and the oracle,
    which searches each trajectory's whole parameter set, brings a cut back if it is
    violated again."""
    mass = beta * np.where(v0 > 0, v0, 1.0)
    zero = mass <= max(_ZERO_BETA, acc) * max(float(mass.max(initial=0.0)), 1e-300)
    age = np.where(zero, age + 1, 0)
    return age < drop_after, age


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
    init: str = "ends",
    verbose: bool = False,
    master: str = "ipm",
    drop_after: int | None = 1,
    warm: bool = True,
) -> ExchangeResult:
    """Run the exchange method on trajectories ``X`` (m, r+1, n).

    ``certify(w, mu) -> Certificate`` gives the certified bounds used for stopping.
    ``init``: ``"ends"`` (default: theta = 0 and +-tau for every trajectory on a segment,
    fewer iterations) or ``"center"`` (theta = 0 only); on the real line both are
    ``"center"``.  A failure of the master QP's
    solver is returned as status ``"error"`` with the solver's message.

    ``master``: ``"ipm"`` (default: the dense interior-point method of
    :mod:`convexkern.math.exchange` on the ``n + 1`` weights, inexact while the certified
    gap is large and warm-started from the previous master when ``warm``; a hard margin
    goes to ``"clarabel-dense"``), ``"clarabel-dense"`` (Clarabel's API, one dense row per
    cut), ``"clarabel"`` (Clarabel's API on the lifted, sparse form, the previous default)
    or ``"cvxpy"`` (the QP rebuilt through cvxpy every iteration, the first path).
    ``drop_after``: a cut whose multiplier is zero (below ``max(1e-6, accuracy)`` of the
    largest) in that many masters in a row leaves the master (the working set); ``None``
    keeps every cut, as the old masters did.
    """
    _check_options(init, master, drop_after, warm)
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
    # the working set: rows of the cuts the master still holds (all cuts ever added are
    # kept in idx_l/th_l; a cut leaves the master after ``drop_after`` masters in a row
    # with a zero multiplier)
    Z = np.zeros((0, n))
    V = np.zeros((0, R))
    widx = np.zeros(0, dtype=int)
    age = np.zeros(0, dtype=int)
    n_seen = 0
    # the master's accuracy (ipm, soft margin: the hard margin's goes to Clarabel),
    # tightened with the certified gap
    inexact = master == "ipm" and math.isfinite(C)
    acc = _ACCURACY[1] if inexact else _ACCURACY[0]
    # the ipm's warm start: (w, b), xi and eta per trajectory, z per working cut
    x_w: np.ndarray | None = None
    xi_w, eta_w, z_w = np.zeros(m), np.zeros(m), np.zeros(0)
    stats = {"master_steps": 0, "row_steps": 0, "master_s": 0.0, "oracle_s": 0.0,
             "certificate_s": 0.0, "max_working": 0}
    for it in range(1, limit + 1):
        # rows of the new cuts only; the old ones are kept
        idx_new = np.asarray(idx_l[n_seen:], dtype=int)
        Vn = cut_moments(np.asarray(th_l[n_seen:], float), r)
        Zn = y[idx_new, None] * np.einsum("ck,ckn->cn", Vn, X[idx_new])
        n_seen = len(idx_l)
        V = np.vstack([V, Vn])
        Z = np.vstack([Z, Zn])
        widx = np.concatenate([widx, idx_new])
        age = np.concatenate([age, np.zeros(idx_new.size, dtype=int)])
        z_w = np.concatenate([z_w, np.zeros(idx_new.size)])
        v0 = V[:, 0]
        stats["max_working"] = max(stats["max_working"], int(widx.size))
        # the master on the trajectories that hold a cut (the others have xi = 0)
        grp, loc = np.unique(widx, return_inverse=True)
        tm = time.perf_counter()
        extra: dict[str, Any] = {}
        if master == "ipm":
            extra["accuracy"] = acc
            if x_w is not None and warm:
                extra["start"] = (x_w, xi_w[grp], z_w, eta_w[grp])
        if time_limit is not None:
            extra["seconds"] = _master_seconds(t0, time_limit, stats["certificate_s"], it)
        mr = solve_master(Z, v0, loc, y[grp], C, bias, n, grp.size, X=X[grp], V=V, **extra)
        stats["master_s"] += time.perf_counter() - tm
        stats["master_steps"] += mr.steps
        stats["row_steps"] += mr.steps * widx.size
        if mr.warm is not None:
            x_w, xi_w[grp], z_w, eta_w[grp] = mr.warm
        if mr.status != "ok":
            status, message = mr.status, _master_stop(mr, it, widx.size)
            break
        w, b, beta = mr.w, mr.b, mr.beta
        mu = np.zeros((m, R))
        np.add.at(mu, widx, beta[:, None] * V)
        tc = time.perf_counter()
        cert = certify(w, mu)
        stats["certificate_s"] += time.perf_counter() - tc
        stop = checkpoint(history, it, t0, cert, tol, time_limit,
                          (f"exchange: it={it} cuts={len(idx_l)} working={widx.size} "
                           f"master: {mr.message}")
                          if verbose else None)
        if stop:
            status = stop
            break
        if inexact:
            acc = min(acc, max(_ACCURACY[0], _ACCURACY[2] * cert.rel_gap))
        to = time.perf_counter()
        # an inexact master's w violates its own cuts by up to its accuracy: only a larger
        # violation makes a cut (else the method crawls, adding cuts next to old ones)
        add, args = _most_violated(X, y, w, b, Z, V[:, 0], widx, C, segment,
                                   floor=max(1e-10, _FLOOR * acc) if inexact else 1e-10)
        idx_l.extend(add.tolist())
        th_l.extend(args.tolist())
        stats["oracle_s"] += time.perf_counter() - to
        if add.size == 0 and inexact and acc > _ACCURACY[0]:
            acc = max(_ACCURACY[0], 1e-2 * acc)  # no cut: the master again, more accurate
            if no_room(t0, time_limit, next_lap(history)):
                status = "time_limit"
                break
            continue
        if add.size == 0:
            status = "stalled"
            message = "no violated cut left but the certified gap misses tol (master accuracy)"
            break
        if drop_after is not None:
            keep, age = _working_set(beta, v0, age, acc, drop_after)
            Z, V, widx, age, z_w = Z[keep], V[keep], widx[keep], age[keep], z_w[keep]
    return ExchangeResult(
        w=w, b=b, mu=mu, status=status, iterations=it, history=history,
        cuts=(np.asarray(idx_l), np.asarray(th_l)), message=message, stats=stats,
    )


def solve_formulation(
    f: Any, *, tol: float, max_iter: int | None, time_limit: float | None,
    verbose: bool = False, x0: Mapping[str, np.ndarray] | None = None, **options: Any,
) -> SolveReport:
    """The solver table's adapter for ``sdpm.primal``: :func:`exchange`, then certify.

    The bounds that stop the iteration are the formulation's own certificate at
    ``(w, mu)`` (``f.certificate``), the same that certifies the final report.
    ``options``: ``init``, ``master``, ``drop_after``, ``warm`` (:func:`exchange`) and
    ``blas_threads`` (BLAS threads for the run, default 1: see
    :func:`~convexkern.algorithms._progress.blas_threads`).
    """
    from threadpoolctl import threadpool_limits

    d = f.data
    C = math.inf if d["hard"] else f.param("C")
    if options.keys() - {"init", "master", "drop_after", "warm", "blas_threads"}:
        raise InvalidInputError("options", f"unknown options {sorted(options)}")
    threads = blas_threads(options)

    def certify(w: np.ndarray, mu: np.ndarray):
        return f.certificate({"w": w, "mu": mu})

    t0 = time.perf_counter()
    with threadpool_limits(limits=threads, user_api="blas"):
        res = exchange(d["X_traj"], d["y"], d["segment"], C, d["bias"], certify, tol=tol,
                       max_iter=max_iter, time_limit=time_limit, verbose=verbose,
                       init=options.get("init", "ends"),
                       master=options.get("master", "ipm"),
                       drop_after=options.get("drop_after", 1),
                       warm=options.get("warm", True))
    elapsed = time.perf_counter() - t0
    if res.status in ("infeasible", "error"):
        return pointless_report(
            f, status=algorithm_status(res.status), solver="exchange", solve_time=elapsed,
            iterations=res.iterations, tol=tol, message=res.message,
        )
    return certified_report(
        f, {"w": res.w, "b": np.asarray(res.b), "mu": res.mu}, solver="exchange",
        status=algorithm_status(res.status), tol=tol, solve_time=elapsed,
        iterations=res.iterations, history=res.history, message=res.message,
        solver_stats={"cuts": int(res.cuts[0].size) if res.cuts else 0, **res.stats},
    )
