r"""Solvers for the robust SVM with an indefinite kernel (Luss & d'Aspremont, NIPS 2007).

All three maximise the concave, continuously differentiable

.. math:: f(\alpha) = e^\top\alpha - \tfrac12 v^\top K_0 v - \frac{\|v\|^4}{16\rho}
          + \rho\|M_-\|_F^2, \quad M = K_0 + \frac{vv^\top}{4\rho},\quad v = Y\alpha,
          \qquad \nabla f(\alpha) = e - Y K^\star(\alpha) v,

over :math:`\mathcal{A} = \{y^\top\alpha = 0, 0 \le \alpha \le C\}` (see
:mod:`convexkern.formulations.robust_indefinite`; the objective, gradient and bounds are
those of :mod:`convexkern.math.robust_indefinite`):

* :func:`accelerated_gradient` -- FISTA with backtracking on the Lipschitz constant and
  gradient-based adaptive restart, on the exact gradient (the objective is smooth; the
  paper's smoothing is not needed);
* :func:`projected_gradient` -- §3.1 of the paper, monotone backtracking step;
* :func:`accpm` -- §3.2, analytic centres by an infeasible-start Newton method, cut
  management (at most ``max_cuts`` cuts, the least relevant dropped) and the
  cutting-plane (LP) upper bound instead of the paper's ellipsoid bound.

The oracle (:class:`RobustOracle`) evaluates :math:`f` and :math:`\nabla f` either with a
full eigendecomposition per call (``eig="full"``, the paper's O(n^3)) or with the
secular-equation update of :mod:`convexkern.math.rank_one` (``eig="rank_one"``,
O(n^2) per call after one decomposition of ``K0``; the adapters take that decomposition
from the formulation's :class:`~convexkern.math.robust_indefinite.K0Spectrum`, so that the
certificate reuses it: one ``eigh`` per solve).  Every iterate's pair of bounds
(lower ``f``, upper ``min(Frank-Wolfe, SVM primal at alpha + rho ||K* - K0||^2)``) is
recorded in the history; the methods stop when the relative gap of the *current* iterate's
own bounds is at most ``tol``, with status ``"stalled"`` when that gap is within the
rounding floor of the certificate (a ``tol`` that double precision cannot certify at the
point, :func:`~convexkern.math.robust_indefinite.rounding_floor`) or has stopped
decreasing, and on ``max_iter`` / ``time_limit`` (no run goes on for minutes
chasing a gap it cannot prove).  These are floating-point estimates (cancellation-free, but
without rounding terms, and valid only as far as the eigenpairs are exact); the final
report is certified again from the data by
:func:`convexkern.formulations.robust_indefinite.certificate`, whose bounds trust neither
the eigenpairs nor the arithmetic, and only that certificate can make a report
``optimal``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.linalg as sla

from .._validation import check_choice, check_matrix
from ..errors import InvalidInputError
from ..formulation import Formulation
from ..math.rank_one import RankOneUpdate
from ..math.robust_indefinite import (
    K0Spectrum,
    evaluate,
    frank_wolfe_bound,
    rounding_floor,
    svm_bound,
)
from ..projections import project_svm_feasible
from ..report import SolveReport, Status, relative_gap
from ..solvers.outcome import certified_report, pointless_report
from ..solvers.status import algorithm_status
from ._progress import blas_threads, next_lap, no_room

__all__ = [
    "RobustOracle",
    "OracleValue",
    "RobustResult",
    "accelerated_gradient",
    "projected_gradient",
    "accpm",
]


@dataclass(frozen=True)
class OracleValue:
    """``f``, ``grad f`` and the two cheap upper bounds at one feasible ``alpha``."""

    value: float
    grad: np.ndarray
    upper: float
    upper_fw: float
    upper_svm: float
    u: np.ndarray | None = None  # Q'(y * alpha) (rank-one oracle only)
    roots: tuple | None = None  # the secular roots (rank-one oracle only)
    #: estimated smallest absolute gap the certificate can prove at this point
    #: (:func:`convexkern.math.robust_indefinite.rounding_floor`; 0 without bounds)
    floor: float = 0.0


class RobustOracle:
    """Value, gradient and upper bound of problem (3) at feasible points: floating-point
    estimates (cancellation-free) that the methods stop on; the certified bracket of a
    report is :func:`convexkern.formulations.robust_indefinite.certificate`'s.

    Parameters
    ----------
    K0, y, C, rho : the (validated) problem data.
    eig : {"rank_one", "full"}
        Secular-equation update of a decomposition of ``K0`` computed once, or a full
        ``eigh`` of :math:`K_0 + vv^\\top/(4\\rho)` per call (the paper's cost).
    spectrum : K0Spectrum, optional
        Where to take (or put) that decomposition: the formulation's, so that its
        certificate reuses it.  Default: a new one.
    """

    def __init__(self, K0: np.ndarray, y: np.ndarray, C: float, rho: float, *,
                 eig: str = "rank_one", spectrum: K0Spectrum | None = None) -> None:
        check_choice(eig, "eig", ("rank_one", "full"))  # a library error naming it
        self.K0, self.y, self.C, self.rho, self.eig = K0, y, float(C), float(rho), eig
        self.sigma = 1.0 / (4.0 * rho)
        self.r1: RankOneUpdate | None = None
        spectrum = spectrum if spectrum is not None else K0Spectrum(K0)
        if eig == "rank_one":
            self.r1 = spectrum.decomposition()
        # for the rounding floor: R >= || |K0| ||_2 (O(n^2), cached with the spectrum)
        self.abs_norm = spectrum.abs_norm()
        self.trace = float(np.trace(K0))
        self.calls = 0

    def __call__(self, alpha: np.ndarray, *, bounds: bool = True,
                 u: np.ndarray | None = None, roots0: tuple | None = None) -> OracleValue:
        """``f``, its gradient and (with ``bounds``) the two cheap upper bounds at
        ``alpha``; ``u = Q'(y * alpha)`` may be passed when known (rank-one oracle)."""
        self.calls += 1
        y, rho, s = self.y, self.rho, self.sigma
        v = y * alpha
        u_out = roots = None
        if self.r1 is None:
            ev = evaluate(self.K0, y, alpha, rho)
            value, grad, Kv, quad, dist2 = ev.value, ev.grad, ev.Kv, ev.quad, ev.dist2
            w = ev.eig[0]
            neg_trace = -float(np.sum(w[w < 0]))
        else:
            pp = self.r1.positive_apply(v, s, u=u, roots0=roots0)
            u_out, roots = pp.u, pp.roots
            Kv = pp.Mv
            vv = float(v @ v)
            # cancellation-free (no ||K0||^2, no ||M||^2 - ||M_+||^2): see
            # convexkern.math.robust_indefinite.evaluate
            quad = pp.vK0v + s * vv * vv + pp.neg_quad  # v'M_+v = v'Mv + v'M_-v
            dist2 = pp.neg_norm2 + 2 * s * pp.neg_quad + s * s * vv * vv  # ||M_- + s vv'||^2
            value = math.fsum([math.fsum(alpha), -0.5 * pp.vK0v, -vv * vv / (16.0 * rho),
                               rho * pp.neg_norm2])
            grad = 1.0 - y * Kv
            neg_trace = pp.neg_trace
        if not bounds:
            return OracleValue(value, grad, math.inf, math.inf, math.inf, u_out, roots)
        u_fw = frank_wolfe_bound(value, grad, alpha, y, self.C)
        u_svm = svm_bound(quad, Kv, y, self.C) + rho * dist2
        vv = float(v @ v)
        # tr M_+ = tr M + tr M_- = tr K0 + s ||v||^2 + tr M_-
        floor = rounding_floor(y.size, self.abs_norm, float(np.sum(alpha)), self.C, vv, rho,
                               neg_trace, self.trace + s * vv + neg_trace, dist2)
        return OracleValue(value, grad, max(min(u_fw, u_svm), value), u_fw, u_svm, u_out,
                           roots, floor)


@dataclass
class RobustResult:
    """Outcome of a robust-SVM method: best point, status and the bound history."""

    alpha: np.ndarray
    value: float
    upper: float
    status: str
    iterations: int
    history: list[tuple[int, float, float, float]] = field(default_factory=list)
    solve_time: float = 0.0
    oracle_calls: int = 0
    message: str = ""

    @property
    def rel_gap(self) -> float:
        return relative_gap(self.value, self.upper)


def _start(y: np.ndarray, C: float, alpha0: np.ndarray | None) -> np.ndarray:
    if alpha0 is None:
        return np.zeros(y.size)
    return project_svm_feasible(np.asarray(alpha0, float), y, C)


#: Largest number of step halvings (doublings of the Lipschitz estimate L) in one
#: backtracking search: 2**60 ~ 1e18 times the starting L.  A search that exhausts it, or
#: meets a NaN/inf objective, ends the method with status "error" instead of looping.
MAX_BACKTRACK = 60

#: factor by which the accelerated method lets its Lipschitz estimate shrink per iteration
L_DECAY = 0.95


def _nonfinite(on: OracleValue) -> bool:
    return not (math.isfinite(on.value) and np.all(np.isfinite(on.grad)))


#: iterations without a 1% decrease of the best gap after which a method stops as
#: "stalled" (a safety net under the rounding floor, which normally stops it first)
STALL_WINDOW = 500

#: the same for ACCPM, whose iterations cost an LP over up to ``max_cuts`` cuts each
STALL_WINDOW_ACCPM = 50


def _converged(value: float, upper: float, tol: float, floor: float) -> tuple[str | None, str]:
    """``"optimal"`` when the estimated relative gap meets ``tol``; ``"stalled"`` (with the
    reason) when the absolute gap is within the rounding ``floor`` of the certificate
    (:func:`~convexkern.math.robust_indefinite.rounding_floor`): below it a smaller gap
    cannot be certified in double precision, so iterating further only burns time."""
    gap = upper - value
    scale = max(abs(value), abs(upper))
    if gap <= tol * scale:
        return "optimal", ""
    if gap <= floor:
        rel = floor / scale if scale > 0 else math.inf
        return "stalled", (
            f"stopped at the rounding floor: the estimated gap {gap:.3g} is within what "
            f"double precision can certify at this point (about {floor:.3g} absolute, "
            f"{rel:.2g} relative, from the rounding terms of the certificate); tol = "
            f"{tol:.3g} is below it")
    return None, ""


class _Stall:
    """Stops a method whose best gap has not decreased by 1% in ``window`` iterations."""

    def __init__(self, window: int) -> None:
        self.window, self.gaps = int(window), []

    def __call__(self, gap: float) -> tuple[str | None, str]:
        self.gaps.append(gap)
        if self.window > 0 and len(self.gaps) > self.window:
            old = self.gaps[-1 - self.window]
            if not gap < 0.99 * old:
                return "stalled", (f"stalled: the gap {gap:.3g} has not decreased by 1% in "
                                   f"{self.window} iterations")
        return None, ""


#: seconds a method gets when no ``time_limit`` was given and ``tol`` is below the rounding
#: floor at its starting point (:func:`_below_floor_budget`)
BELOW_FLOOR_BUDGET = 10.0


def _below_floor_budget(o: OracleValue, tol: float,
                        time_limit: float | None) -> tuple[float | None, str]:
    """A bounded budget for a request that cannot be met: when ``tol`` (relative) is below
    the rounding floor of the certificate already at the starting point, the method stops
    at the floor, on a stall, or after :data:`BELOW_FLOOR_BUDGET` seconds (unless the
    caller gave its own ``time_limit``), and the message of a stop on time says why."""
    scale = max(abs(o.value), abs(o.upper))
    if time_limit is not None or not tol * scale < o.floor:
        return time_limit, ""
    rel = o.floor / scale if scale > 0 else math.inf
    return BELOW_FLOOR_BUDGET, (
        f"tol = {tol:.3g} is below the rounding floor of this instance (about {rel:.2g} "
        f"relative at the starting point: what double precision can certify), so the "
        f"method ran with a budget of {BELOW_FLOOR_BUDGET:g} s; pass time_limit= to "
        f"give it longer")


class _Run:
    """The bookkeeping the three methods share around their iterations: the clock, the
    oracle, the iteration count ``it``, the budget (``max_iter``, ``time_limit`` and
    :func:`_below_floor_budget`), the history of bounds, the stall detector
    (:class:`_Stall`) and the :class:`RobustResult`."""

    def __init__(self, K0: np.ndarray, y: np.ndarray, C: float, rho: float, *, eig: str,
                 spectrum: K0Spectrum | None, max_iter: int, time_limit: float | None,
                 stall_window: int) -> None:
        self.t0 = time.perf_counter()
        self.orc = RobustOracle(K0, y, C, rho, eig=eig, spectrum=spectrum)
        # the decomposition of K0 (rank_one: in the oracle's set-up) is not an iteration's
        # (n = 1500: 0.8 s, an iteration 0.07 s; counted in, the first limit check stopped
        # the method at its start under T = 2.5)
        self.origin = time.perf_counter() - self.t0
        self.y, self.C, self.it = y, C, 0
        self.max_iter, self.time_limit, self.budget_note = max_iter, time_limit, ""
        self.stall = _Stall(stall_window)
        self.history: list[tuple[int, float, float, float]] = []

    def start(self, x: np.ndarray, tol: float) -> OracleValue:
        """The oracle at the starting point ``x``, recorded as iteration 0; a ``tol`` below
        the rounding floor there gets the bounded budget of :func:`_below_floor_budget`."""
        ox = self.orc(x)
        self.time_limit, self.budget_note = _below_floor_budget(ox, tol, self.time_limit)
        self.record(ox.value, ox.upper)
        return ox

    def gradient_start(self, alpha0: Any, tol: float, K0: np.ndarray, L0: float | None,
                       ) -> tuple[np.ndarray, OracleValue, float, str | None, str]:
        """The start of the gradient methods: ``(x, f at x, L, status, message)`` with the
        starting Lipschitz estimate ``L0`` (default the largest ``|K0_ii|``, at least 1e-6)
        and the status at ``x`` (:func:`_converged`; ``"error"`` where ``f`` or its
        gradient is not finite)."""
        x = _start(self.y, self.C, alpha0)
        ox = self.start(x, tol)
        L = L0 if L0 is not None else max(float(np.max(np.abs(np.diag(K0)))), 1e-6)
        if _nonfinite(ox):
            return x, ox, L, "error", "the objective or its gradient is not finite at the start"
        return (x, ox, L, *_converged(ox.value, ox.upper, tol, ox.floor))

    def record(self, value: float, upper: float) -> None:
        """Append ``(it, seconds, value, upper)`` to the history."""
        self.history.append((self.it, time.perf_counter() - self.t0, value, upper))

    def limits(self) -> tuple[str | None, str]:
        """``"iteration_limit"`` or ``"time_limit"`` (with the budget note, if any) once
        reached (the time limit: once an iteration as long as the last one would end past
        it), else ``None``."""
        if self.max_iter is not None and self.it >= self.max_iter:
            return "iteration_limit", ""
        if no_room(self.t0, self.time_limit, next_lap(self.history, self.origin)):
            return "time_limit", self.budget_note
        return None, ""

    def ascend(self, base: np.ndarray, ob: OracleValue, L: float, *, fixed: bool = False,
               ) -> tuple[np.ndarray, OracleValue, float, str | None, str]:
        """The next iteration of a gradient method unless a limit is reached first
        (:meth:`limits`; the iteration is then not counted): the projected gradient step
        ``P(base + grad f(base) / L)`` with ``L`` doubled until it ascends (the quadratic
        model ``f(base) + g'd - L/2 ||d||^2`` holds, to rounding; ``fixed``: the step
        ``1/L`` as given).  Returns ``(point, f there, L, status, message)``: ``status``
        ``None`` after a step, a limit's, or ``"error"`` where the search ended without
        one (a NaN/inf objective, or :data:`MAX_BACKTRACK` doublings of ``L``)."""
        status, message = self.limits()
        if status is not None:
            return base, ob, L, status, message
        self.it += 1
        for _ in range(MAX_BACKTRACK):
            xn = project_svm_feasible(base + ob.grad / L, self.y, self.C)
            d = xn - base
            t_call = time.perf_counter()
            on = self.orc(xn)
            if _nonfinite(on):
                break
            model = ob.value + float(ob.grad @ d) - 0.5 * L * float(d @ d)
            if fixed or on.value >= model - 1e-12 * max(1.0, abs(ob.value)):
                return xn, on, L, None, ""
            L *= 2.0
            if no_room(self.t0, self.time_limit, time.perf_counter() - t_call):
                # another trial step would end past the limit (with eig="full" each is
                # an eigendecomposition): the iteration is abandoned, not counted
                self.it -= 1
                return base, ob, L, "time_limit", self.budget_note
        return xn, on, L, "error", _backtrack_message(on, L, self.it)

    def result(self, alpha: np.ndarray, value: float, upper: float, status: str,
               message: str) -> RobustResult:
        return RobustResult(alpha=alpha, value=value, upper=upper, status=status,
                            iterations=self.it, history=self.history,
                            solve_time=time.perf_counter() - self.t0,
                            oracle_calls=self.orc.calls, message=message)


def accelerated_gradient(
    K0: np.ndarray, y: np.ndarray, C: float, rho: float, *, tol: float = 1e-6,
    max_iter: int | None = None, time_limit: float | None = None, alpha0: Any = None,
    eig: str = "rank_one", L0: float | None = None, verbose: bool = False,
    spectrum: K0Spectrum | None = None, stall_window: int = STALL_WINDOW,
) -> RobustResult:
    """FISTA on the smooth concave ``f`` with backtracking and adaptive restart.

    Stops when the current iterate's own estimated relative gap is ``<= tol``
    (``max_iter`` defaults to 100000), or with status ``"stalled"`` when that gap is
    within the rounding floor of the certificate (a ``tol`` below what double precision
    can certify at this point, :func:`_converged`) or the best gap has not decreased by
    1% in ``stall_window`` iterations; ``time_limit`` (seconds) bounds the iterations.
    A NaN/inf objective or gradient, or a backtracking search that finds no ascent
    after :data:`MAX_BACKTRACK` doublings of ``L``, ends the method with status
    ``"error"`` (best point so far, reason in ``message``). With the rank-one oracle, the
    extrapolated point's coordinates in the eigenbasis of ``K0`` are combined from the last
    two iterates' (the map :math:`\\alpha \\mapsto Q^\\top Y\\alpha` is linear), one product
    with ``Q`` fewer per iteration. ``spectrum``: where the decomposition of ``K0`` is taken
    from or stored (:class:`~convexkern.math.robust_indefinite.K0Spectrum`).
    """
    run = _Run(K0, y, C, rho, eig=eig, spectrum=spectrum, time_limit=time_limit,
               max_iter=100_000 if max_iter is None else max_iter, stall_window=stall_window)
    x, ox, L, status, message = run.gradient_start(alpha0, tol, K0, L0)
    best_x, best = x, ox
    upper = ox.upper
    yk, oy = x, ox
    tk = 1.0
    while status is None:
        xn, on, L, status, message = run.ascend(yk, oy, L)
        if status is not None:
            break
        it = run.it
        upper = min(upper, on.upper)
        if on.value > best.value:
            best_x, best = xn, on
        run.record(best.value, upper)
        if verbose and it % 50 == 0:
            print(f"apg it={it} f={on.value:.12g} U={on.upper:.12g} L={L:.3g}")
        status, message = _converged(on.value, on.upper, tol, on.floor)
        if status is not None:
            best_x, best = xn, on
            break
        status, message = run.stall(upper - best.value)
        if status is not None:
            break
        # adaptive restart (O'Donoghue & Candes): momentum against the ascent direction
        if float((yk - xn) @ (xn - x)) > 0:
            tk = 1.0
        tn = 0.5 * (1.0 + math.sqrt(1.0 + 4.0 * tk * tk))
        beta = (tk - 1.0) / tn
        yk = xn + beta * (xn - x)
        u_y = r_y = None
        if on.u is not None and ox.u is not None:
            u_y = on.u + beta * (on.u - ox.u)
        if on.roots is not None and ox.roots is not None and on.roots[0] == ox.roots[0]:
            # the roots move smoothly with alpha: extrapolate them like the point
            # (second-order accurate starting guesses instead of the last call's)
            r_y = (on.roots[0], on.roots[1] + beta * (on.roots[1] - ox.roots[1]))
        x, ox, tk = xn, on, tn
        # f and its gradient are defined for any alpha, feasible or not; bounds are not
        # needed at the extrapolated point
        oy = run.orc(yk, bounds=False, u=u_y, roots0=r_y)
        if _nonfinite(oy):
            status = "error"
            message = f"the objective or its gradient is not finite at iteration {it}"
            break
        L *= L_DECAY
    return run.result(best_x, best.value, upper, status, message)


def _backtrack_message(on: OracleValue, L: float, it: int) -> str:
    if _nonfinite(on):
        return f"the objective or its gradient is not finite at iteration {it}"
    return (f"backtracking failed at iteration {it}: no ascent after {MAX_BACKTRACK} "
            f"doublings of the step constant (L = {L:.3g})")


def projected_gradient(
    K0: np.ndarray, y: np.ndarray, C: float, rho: float, *, tol: float = 1e-6,
    max_iter: int | None = None, time_limit: float | None = None, alpha0: Any = None,
    eig: str = "full", L0: float | None = None, step: str = "backtracking",
    verbose: bool = False, spectrum: K0Spectrum | None = None,
    stall_window: int = STALL_WINDOW,
) -> RobustResult:
    """Projected gradient ascent (§3.1), ``max_iter`` defaulting to 100000; stops as
    :func:`accelerated_gradient` does (``tol``, the rounding floor, ``stall_window``,
    ``time_limit``).

    ``step="backtracking"``: monotone step ``1/L`` with ``L`` doubled until the ascent
    condition holds and shrunk by 10% after each step.  ``step="fixed"``: the paper's
    fixed step ``1/L`` with the global bound ``L = lambda_max(K0)_+ + 3 n C^2 / (4 rho)``
    (from ``||M_+|| <= lambda_max(K0)_+ + sigma ||v||^2`` and
    ``||d(M_+) v|| <= 2 sigma ||v||^2 ||d alpha||``, ``||v||^2 <= n C^2``).  A NaN/inf
    objective or an exhausted backtracking search ends with status ``"error"``.
    """
    check_choice(step, "step", ("backtracking", "fixed"))  # a library error naming it
    if step == "fixed":
        lmax = max(float(sla.eigvalsh(K0, subset_by_index=[K0.shape[0] - 1,
                                                           K0.shape[0] - 1])[0]), 0.0)
        L0 = lmax + 3.0 * y.size * C * C / (4.0 * rho)
    run = _Run(K0, y, C, rho, eig=eig, spectrum=spectrum, time_limit=time_limit,
               max_iter=100_000 if max_iter is None else max_iter, stall_window=stall_window)
    x, ox, L, status, message = run.gradient_start(alpha0, tol, K0, L0)
    upper = ox.upper
    while status is None:
        xn, on, L, status, message = run.ascend(x, ox, L, fixed=step == "fixed")
        if status is not None:
            break
        x, ox = xn, on
        upper = min(upper, on.upper)
        run.record(on.value, upper)
        if verbose and run.it % 50 == 0:
            print(f"pg it={run.it} f={on.value:.12g} U={on.upper:.12g} L={L:.3g}")
        status, message = _converged(on.value, on.upper, tol, on.floor)
        if status is None:
            status, message = run.stall(upper - on.value)
        if step != "fixed":
            L *= 0.9
    return run.result(x, ox.value, upper, status, message)


# --------------------------------------------------------------------------- ACCPM
def _analytic_centre(
    A: np.ndarray, b: np.ndarray, y: np.ndarray, C: float, beta: np.ndarray,
    *, max_newton: int = 40, tol: float = 1e-7,
) -> np.ndarray:
    """Analytic centre of ``{0 < beta < C, y'beta = 0, A beta > b}``.

    Infeasible-start Newton method (Boyd & Vandenberghe §10.3) on
    ``min -sum log beta - sum log(C - beta) - sum log s`` s.t. ``y'beta = 0``,
    ``A beta - s = b``: the starting ``beta`` need only lie in the box, ``s > 0``; the
    KKT system is reduced to ``(m + 1) x (m + 1)`` through the diagonal Hessian.
    """
    m = A.shape[0]
    beta = np.clip(beta, 1e-3 * C, (1 - 1e-3) * C)
    s = A @ beta - b
    s = np.maximum(s, 1e-3 * max(1.0, float(np.max(np.abs(s), initial=1.0))))
    nu = np.zeros(m + 1)

    def resid(beta: np.ndarray, s: np.ndarray, nu: np.ndarray) -> float:
        gb = -1.0 / beta + 1.0 / (C - beta) + y * nu[0] + A.T @ nu[1:]
        gs = -1.0 / s - nu[1:]
        rp = np.concatenate([[y @ beta], A @ beta - s - b])
        return float(np.sqrt(gb @ gb + gs @ gs + rp @ rp))

    E = np.vstack([y[None, :], A])
    for _ in range(max_newton):
        gb = -1.0 / beta + 1.0 / (C - beta)
        gs = -1.0 / s
        hb = 1.0 / beta**2 + 1.0 / (C - beta) ** 2
        hs = 1.0 / s**2
        r1 = float(y @ beta)
        r2 = A @ beta - s - b
        EH = E / hb
        S = EH @ E.T
        S[1:, 1:] += np.diag(1.0 / hs)
        rhs = E @ (-gb / hb) - np.concatenate([[0.0], -gs / hs]) + np.concatenate([[r1], r2])
        try:
            w = sla.solve(S, rhs, assume_a="pos")
        except (np.linalg.LinAlgError, ValueError):
            w = np.linalg.lstsq(S, rhs, rcond=None)[0]
        dbeta = (-gb - E.T @ w) / hb
        ds = (-gs + w[1:]) / hs
        dnu = w - nu
        # largest step keeping the box and s > 0, then backtracking on the residual
        t = 1.0
        with np.errstate(divide="ignore", invalid="ignore"):
            for arr, dv in ((beta, dbeta), (s, ds)):
                neg = dv < 0
                if np.any(neg):
                    t = min(t, 0.99 * float(np.min(-arr[neg] / dv[neg])))
            pos = dbeta > 0
            if np.any(pos):
                t = min(t, 0.99 * float(np.min((C - beta[pos]) / dbeta[pos])))
        r0 = resid(beta, s, nu)
        while t > 1e-12 and resid(beta + t * dbeta, s + t * ds, nu + t * dnu) > (1 - 0.01 * t) * r0:
            t *= 0.5
        beta, s, nu = beta + t * dbeta, s + t * ds, nu + t * dnu
        if resid(beta, s, nu) <= tol * max(1.0, 1.0 / C) or t <= 1e-12:
            break
    return beta


def _lp_bound(cut_val: np.ndarray, cut_g: np.ndarray, cut_a: np.ndarray, y: np.ndarray,
              C: float) -> float:
    """``max s`` over ``beta`` in the feasible set with ``s <= f_k + g_k'(beta - a_k)``."""
    from scipy.optimize import linprog

    m, n = cut_g.shape
    # variables (beta, s); minimise -s
    c = np.zeros(n + 1)
    c[-1] = -1.0
    A_ub = np.hstack([-cut_g, np.ones((m, 1))])
    b_ub = cut_val - np.einsum("ij,ij->i", cut_g, cut_a)
    A_eq = np.concatenate([y, [0.0]])[None, :]
    bounds = [(0.0, C)] * n + [(None, None)]
    res = linprog(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=[0.0], bounds=bounds,
                  method="highs")
    if res.status != 0:
        return math.inf
    # dual-side validity: the LP value is exact to HiGHS's tolerances; pad by them
    return float(-res.fun) + 1e-7 * max(1.0, abs(float(res.fun)))


def accpm(
    K0: np.ndarray, y: np.ndarray, C: float, rho: float, *, tol: float = 1e-6,
    max_iter: int | None = None, time_limit: float | None = None, alpha0: Any = None,
    eig: str = "full", max_cuts: int | None = None, lp_every: int = 1,
    verbose: bool = False, spectrum: K0Spectrum | None = None,
    stall_window: int = STALL_WINDOW_ACCPM,
) -> RobustResult:
    """Analytic centre cutting plane method (§3.2).

    Each query point is the analytic centre of the localisation set
    ``{alpha in A : f_k + g_k'(alpha - alpha_k) >= f_best}``; the upper bound is the LP
    over the current cuts (valid with any subset of cuts), also compared with each
    query point's own bounds.  At most ``max_cuts`` cuts are kept (default
    ``min(max(3 n, 50), 400)``; far fewer than ~2n makes the method stall): when full,
    the cut with the largest slack at the new centre is dropped.  ``max_iter`` defaults
    to 2000.  Stops as :func:`accelerated_gradient` does (``tol``, the rounding floor of
    the best point, ``stall_window``, ``time_limit``).
    """
    n = y.size
    max_cuts = min(max(3 * n, 50), 400) if max_cuts is None else int(max_cuts)
    run = _Run(K0, y, C, rho, eig=eig, spectrum=spectrum, time_limit=time_limit,
               max_iter=2000 if max_iter is None else max_iter, stall_window=stall_window)
    orc = run.orc
    x = _start(y, C, alpha0) if alpha0 is not None else project_svm_feasible(
        np.full(n, 0.5 * C), y, C)
    ox = run.start(x, tol)
    best_x, best = x, ox
    upper = ox.upper
    vals, grads, pts = [ox.value], [ox.grad], [x]
    centre = x
    status, message = None, ""
    while status is None:
        status, message = _converged(best.value, upper, tol, best.floor)
        if status is None and run.it > 0:
            status, message = run.stall(upper - best.value)
        if status is None:
            status, message = run.limits()
        if status is not None:
            break
        run.it += 1
        it = run.it
        G = np.asarray(grads)
        P = np.asarray(pts)
        Fv = np.asarray(vals)
        b = best.value - Fv + np.einsum("ij,ij->i", G, P)
        # scale rows for conditioning
        sc = np.maximum(np.linalg.norm(G, axis=1), 1e-12)
        centre = _analytic_centre(G / sc[:, None], b / sc, y, C, centre)
        xq = project_svm_feasible(centre, y, C)
        oq = orc(xq)
        if oq.value > best.value:
            best_x, best = xq, oq
        upper = min(upper, oq.upper)
        vals.append(oq.value)
        grads.append(oq.grad)
        pts.append(xq)
        if len(vals) > max_cuts:
            slack = (np.asarray(vals) + np.einsum("ij,ij->i", np.asarray(grads),
                                                  centre[None, :] - np.asarray(pts))
                     - best.value) / np.maximum(np.linalg.norm(np.asarray(grads), axis=1),
                                                1e-12)
            drop = int(np.argmax(slack[:-1]))
            del vals[drop], grads[drop], pts[drop]
        if it % lp_every == 0:
            upper = min(upper, _lp_bound(np.asarray(vals), np.asarray(grads),
                                         np.asarray(pts), y, C))
        run.record(best.value, upper)
        if verbose and it % 10 == 0:
            print(f"accpm it={it} f={best.value:.12g} U={upper:.12g} cuts={len(vals)}")
    return run.result(best_x, best.value, upper, status, message)


# --------------------------------------------------------------------------- adapters
#: Seconds given to the paper's slow baselines (projected gradient, ACCPM) when the caller
#: sets neither ``time_limit`` nor ``max_iter`` (``ck.compare`` with default
#: solvers must end; at n = 150 they need minutes where the default ``robust_apg`` needs 1 s).
BASELINE_BUDGET = 60.0


def _warm_alpha(alpha: Any, y: np.ndarray) -> np.ndarray:
    """``x0['alpha']`` checked as a finite vector of one entry per label, named as such in
    the error (not as the labels or iterate it would meet later)."""
    a = check_matrix(alpha, "x0['alpha']", ndim=1)
    if a.size != y.size:
        raise InvalidInputError("x0['alpha']", f"has {a.size} entries, y has {y.size}")
    return a


#: the seconds kept for the final certificate
#: (:func:`convexkern.formulations.robust_indefinite.certificate`) under a caller's
#: ``time_limit``, as ``(per n^3, fixed)``: 1.5 times what its bounds took at n = 100-770
#: on this project's 2-core machine (2e-10 n^3 + 5 ms; 0.06-0.09 s at n = 770); its SMO
#: refinement reads the deadline itself.  Without it the calls ended at 1.5-3.2 T.
CERTIFICATE_RESERVE = (3e-10, 0.01)


#: seconds per n^3 of an eigendecomposition of ``K0`` (a lower estimate: 2.2e-10 at
#: n = 770 on this project's 2-core machine), which the first oracle call of a solve
#: computes: a call whose limit cannot hold it and the certificate is not begun
EIGH_SECONDS = 1.5e-10


def certificate_reserve(n: int) -> float:
    """Seconds kept for the final certificate of a problem with ``n`` points."""
    per, fixed = CERTIFICATE_RESERVE
    return per * float(n) ** 3 + fixed


def _time_plan(n: int, eig: str, spectrum: K0Spectrum | None) -> tuple[float, float]:
    """Under a caller's ``time_limit``: ``(reserve, need)``, the seconds kept out of the
    iterations for the final certificate and the least a call must have to begin (that
    and the first decomposition, when none of ``K0`` is kept or each oracle call makes
    its own, ``eig="full"``).  Without a decomposition kept, ``eig="full"``'s certificate
    decomposes ``M(alpha)`` and computes ``K0``'s eigenvalues itself (0.15-0.28 s at
    n = 770, a review found, against 0.09 with one)."""
    cube = float(n) ** 3
    unknown = spectrum is None or not spectrum.known
    reserve = certificate_reserve(n) + (2.0 * EIGH_SECONDS * cube
                                        if eig == "full" and unknown else 0.0)
    return reserve, reserve + (EIGH_SECONDS * cube if eig == "full" or unknown else 0.0)


#: the most points on which the robust methods run on one BLAS thread unless told
#: (``blas_threads``; above it, the process's pool).  Measured on 2 cores with 30
#: iterations: at n = 800 one thread took 0.46 s against 0.60 (robust_apg) and 4.6
#: against 6.4 (robust_pg) on a quiet machine, 0.51 against 1.10 and 5.4 against 9.5 with
#: another process busy; at n = 2000 (quiet) the pool was 1.24-1.37 times faster
ONE_THREAD_POINTS = 1000


def _glue(method, name: str, default_eig: str, polish_default: bool = False,
          default_budget: float | None = None):
    def run(f: Formulation, **kw: Any) -> SolveReport:
        threads = blas_threads(kw, 1 if f.data["y"].size <= ONE_THREAD_POINTS else None)
        kw.pop("blas_threads", None)
        if threads is None:
            return body(f, **kw)
        from threadpoolctl import threadpool_limits

        with threadpool_limits(limits=threads, user_api="blas"):
            return body(f, **kw)

    def body(
        f: Formulation, *, tol: float, max_iter: int | None, time_limit: float | None,
        verbose: bool = False, x0: Mapping[str, np.ndarray] | None = None, **options: Any,
    ) -> SolveReport:
        K0, y = f.data["K0"], f.data["y"]
        # C and rho may have been changed through the Parameters since the build (e.g. by
        # ck.path): problem (3) needs both > 0 (rho = 0 divides by zero in K*(alpha),
        # C = 0 leaves only alpha = 0)
        C, rho = f.param("C"), f.param("rho")
        alpha0 = None if x0 is None or "alpha" not in x0 else _warm_alpha(x0["alpha"], y)
        options.setdefault("eig", default_eig)
        polish = options.pop("polish", polish_default)
        # the formulation's decomposition of K0: computed here at most once and reused by
        # its certificate (certified_report below), so a solve costs one eigh
        spectrum = f.data.get("spectrum")
        budgeted = default_budget is not None and time_limit is None and max_iter is None
        if budgeted:
            time_limit = default_budget
        elif time_limit is not None and math.isfinite(time_limit):
            reserve, need = _time_plan(y.size, options["eig"], spectrum)
            if need >= time_limit:  # its first decomposition would end past it
                return pointless_report(
                    f, solver=name, status=Status.TIME_LIMIT, tol=tol, solve_time=0.0,
                    message=f"not started: its first eigendecomposition and the final "
                            f"certificate take about {need:.2g} s, more than the "
                            f"{time_limit:.2g} s left of time_limit")
            time_limit = max(time_limit - reserve, 1e-6)
        res = method(K0, y, C, rho, tol=tol, max_iter=max_iter, time_limit=time_limit,
                     alpha0=alpha0, verbose=verbose, spectrum=spectrum, **options)
        alpha, solve_time, message = res.alpha, res.solve_time, res.message
        if budgeted and res.status == "time_limit":
            message = "; ".join(m for m in (message, (
                f"{name} used its default budget of {default_budget:g} s (a slow baseline "
                "of the paper; robust_apg is the fast default); pass time_limit= or "
                "max_iter= to change it")) if m)
        stats: dict[str, Any] = {"oracle_calls": res.oracle_calls, "eig": options["eig"],
                                 "best_upper_bound_seen": res.upper}
        if polish_default:
            stats["polished"] = False
        if polish and res.status == "optimal" and res.rel_gap <= tol:
            # the LP bound certifies OPT, but not the query point itself: a short
            # accelerated-gradient polish from the best point makes the returned point's
            # own certificate meet tol.  The returned point is then APG's, not ACCPM's:
            # solver_stats["polished"] and the message say so.
            own = RobustOracle(K0, y, C, rho, eig="rank_one", spectrum=spectrum)(alpha)
            if own.upper - own.value > tol * max(abs(own.value), abs(own.upper)):
                left = None if time_limit is None else max(time_limit - res.solve_time, 1e-3)
                pol = accelerated_gradient(K0, y, C, rho, tol=0.5 * tol, alpha0=alpha,
                                           max_iter=2000, time_limit=left, spectrum=spectrum)
                alpha, solve_time = pol.alpha, solve_time + pol.solve_time
                stats.update(polished=True, polish_iterations=pol.iterations,
                             polish_status=pol.status, polish_time=pol.solve_time,
                             unpolished_point_value=res.value)
                message = (f"polished: {name} reached its LP bound gap {res.rel_gap:.2g} in "
                           f"{res.iterations} iterations, but the returned point is that of "
                           f"{pol.iterations} accelerated-gradient iterations from its best "
                           f"point ({pol.status})")
        return certified_report(
            f, {"alpha": alpha}, solver=name, status=algorithm_status(res.status), tol=tol,
            solve_time=solve_time, iterations=res.iterations, history=res.history,
            solver_stats=stats, message=message,
        )

    run.__name__ = f"_solve_{name}"
    return run


# the adapters the solver table (convexkern.solvers.table) points to
solve_apg = _glue(accelerated_gradient, "robust_apg", "rank_one")
solve_pg = _glue(projected_gradient, "robust_pg", "full", default_budget=BASELINE_BUDGET)
solve_accpm = _glue(accpm, "robust_accpm", "full", polish_default=True,
                    default_budget=BASELINE_BUDGET)
