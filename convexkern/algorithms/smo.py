r"""SMO as a solver of the SVM formulations: the adapter the solver table points to.

The numerics (:func:`smo`, :class:`SMOResult`, :class:`SMOProgress`, :func:`pair_bounds`)
live in :mod:`convexkern.math.smo`, numpy only, because a certificate needs them too (the
SMO refinement of the robust SVM bound, :mod:`convexkern.math.robust_indefinite`); they
are re-exported here, where users and the docs have always imported them from.
:func:`solve` runs SMO on an ``svm.dual`` or ``svm.primal`` formulation until the
*certified* relative gap (:func:`convexkern.math.svm.dual_bounds`) meets ``tol``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..formulation import Formulation
from ..math.smo import HISTORY_EVERY, SMOProgress, SMOResult, pair_bounds, smo
from ..math.svm import dual_bounds, primal_bias, separability
from ..projections import project_svm_feasible
from ..report import SolveReport, Status, relative_gap
from ..solvers.outcome import certified_report, pointless_report
from ..solvers.status import algorithm_status

__all__ = ["SMOResult", "SMOProgress", "smo", "pair_bounds", "HISTORY_EVERY", "solve"]


def default_max_iter(n: int) -> int:
    """The SMO steps allowed when ``max_iter`` is not given: ``max(10**7, 100 n)``, LIBSVM's
    own cap, so that a problem SMO cannot finish (a huge ``C`` where round-off makes it
    cycle) ends in ``iteration_limit`` instead of running forever."""
    return max(10_000_000, 100 * int(n))


def _smo_for(f: Formulation) -> tuple[np.ndarray, np.ndarray, float | np.ndarray]:
    if "K" in f.data:  # svm.dual, and any formulation that is an SVM dual in a kernel K
        K, y = f.data["K"], f.data["y"]
    else:
        X, y = f.data["X"], f.data["y"]
        K = X @ X.T
    C = math.inf if f.data["hard"] else f.param("C")
    return K, y, C


#: seconds per entry of ``K`` kept, under a caller's ``time_limit``, for what follows SMO's
#: last step: its gradient made whole again after shrinking, the bounds of the last point
#: and the report's certificate (two products with ``K``: 7-19 ms each at n = 3000 on this
#: project's 2-core machine, SMO's own stop 7-18 ms past its limit; 6 ms of bounds and 8 ms
#: past it at n = 3000, a review found); two passes over ``K`` at 8 GB/s.  Without it a call
#: under ``T = 0.1`` ended at 1.18-1.33 T.
BOUNDS_SECONDS_PER_ENTRY = 2 * 8 / 8e9


def bounds_reserve(n: int) -> float:
    """Seconds kept for the bounds after SMO on ``n`` points (:data:`BOUNDS_SECONDS_PER_ENTRY`
    and 2 ms)."""
    return BOUNDS_SECONDS_PER_ENTRY * float(n) * float(n) + 2e-3


def solve(
    f: Formulation,
    *,
    tol: float,
    max_iter: int | None,
    time_limit: float | None,
    verbose: bool = False,
    x0: Mapping[str, np.ndarray] | None = None,
    eps: float | None = None,
    tau: float = 1e-12,
    **options: Any,
) -> SolveReport:
    """SMO until the *certified* relative gap is below ``tol``.

    One SMO run stops on the duality gap it can evaluate from its own gradient
    (``gap_tol = tol / 2``, :func:`convexkern.math.smo.smo`): ``eps`` (default 1e-3,
    LIBSVM's) is only its first KKT tolerance, lowered in place, shrinking kept, until that
    gap is met.  Then the formulation's certificate is computed once from ``K``
    (:func:`convexkern.math.svm.dual_bounds`, one product ``K (y * alpha)``): it alone
    decides the reported gap and status.  Should it miss ``tol`` (the gradient's round-off),
    SMO continues warm with ``gap_tol / 10``.

    Hard margin (``C=None``): on classes that cannot be separated in feature space the
    dual is unbounded and SMO would run to its iteration cap with growing ``alpha``.
    After ``10_000 + 100 n`` iterations without a separating ``w(alpha)`` (the
    certificate's margin is not positive), the linear feasibility problem
    ``y_i ((K beta)_i + b) >= 1`` is solved once (HiGHS, via scipy); if it is infeasible
    the report is ``unbounded`` for the dual (a maximisation) and ``infeasible`` for the
    primal (a minimisation), as the conic solvers say, else SMO continues warm.

    Without ``max_iter``, the budget is :func:`default_max_iter` steps.
    """
    K, y, C = _smo_for(f)
    alpha0 = None
    if x0 is not None and "alpha" in x0:
        alpha0 = project_svm_feasible(np.asarray(x0["alpha"], float), y, C)
    eps_k = 1e-3 if eps is None else float(eps)
    gap_tol = 0.5 * tol
    psd_eps = float(f.data.get("psd_eps", 0.0))
    t0 = time.perf_counter()
    total_it = 0
    history: list[tuple[float, float, float, float]] = []
    status = Status.OPTIMAL
    message = ""
    hard = np.ndim(C) == 0 and not math.isfinite(C)  # per-example bounds are finite
    probe = 10_000 + 100 * y.size if hard else None  # separability check
    budget = default_max_iter(y.size) if max_iter is None else max_iter
    if time_limit is not None and not math.isfinite(time_limit):
        time_limit = None  # an infinite limit is none (SMO itself refuses one)
    if time_limit is not None:  # the caller's limit holds the final bounds too
        time_limit = max(time_limit - bounds_reserve(y.size), 1e-6)
    while True:
        left_it = budget - total_it
        left_t = None if time_limit is None else time_limit - (time.perf_counter() - t0)
        if left_it <= 0 or (left_t is not None and left_t <= 0):
            status = Status.ITERATION_LIMIT if left_it <= 0 else Status.TIME_LIMIT
            break
        call_it = left_it
        probing = probe is not None and probe < left_it
        if probing:
            call_it = probe
        res = smo(K, y, C, eps=eps_k, max_iter=call_it, time_limit=left_t, tau=tau,
                  alpha0=alpha0, check_input=False, gap_tol=gap_tol, psd_eps=psd_eps,
                  **options)  # the builder validated K
        total_it += int(res.iterations)
        alpha0, eps_k = res.alpha, res.eps
        if res.status == "optimal" and f.kind == "svm.dual":
            # the report's own certificate (svm.dual caches it: certified_report below
            # reuses it for this alpha instead of computing K alpha again)
            c = f.certificate({"alpha": res.alpha}, tol=tol)
            lower, upper = c.primal_value, c.dual_value
            rounding = c.residuals.get("rounding", 0.0)
        else:  # a limit, the separability probe, or svm.primal: the pair, from K
            cert = dual_bounds(K, y, res.alpha, C, psd_eps)
            lower, upper = cert.lower, cert.upper
            rounding = cert.residuals.get("rounding", 0.0)
        rel_gap = relative_gap(lower, upper)
        history.append((total_it, time.perf_counter() - t0, lower, upper))
        if verbose:
            print(f"smo: eps={eps_k:.1e} it={total_it} lower={lower:.10g} "
                  f"upper={upper:.10g} rel_gap={rel_gap:.3g} (certified; "
                  f"{res.gap_checks} gap estimates)")
        if probing and res.status == "iteration_limit":
            probe = None  # checked once
            # svm.primal (no K of its own: K = X X'): the exact check reads X itself
            features = f.data["X"] if "K" not in f.data else None
            verdict, why = (separability(K, y, features) if not math.isfinite(upper)
                            else ("unknown", ""))
            if verdict == "nearly_inseparable":  # SMO's alpha would grow for ever
                return pointless_report(
                    f, status=Status.ERROR, solver="smo",
                    solve_time=time.perf_counter() - t0, iterations=total_it, tol=tol,
                    history=history,
                    message=f"SMO stopped: its multipliers grow without bound; {why} (so "
                            "not reported as unbounded): use a soft margin (C > 0)")
            if verdict == "inseparable":  # proven: a Farkas ray checked exactly
                # the dual (a maximisation) is unbounded; the primal is infeasible
                status = Status.UNBOUNDED if f.sense == "maximize" else Status.INFEASIBLE
                hint = f.hints.get(status.value, "use a soft margin (C > 0)")
                return pointless_report(
                    f, status=status, solver="smo", solve_time=time.perf_counter() - t0,
                    iterations=total_it, tol=tol, history=history,
                    message=f"the problem is {status.value}: the classes cannot be separated "
                            f"in feature space ({why}); " + hint,
                )
            alpha0 = project_svm_feasible(res.alpha, y, C)  # round-off in y'alpha
            continue
        if res.status != "optimal":
            status = algorithm_status(res.status)  # "interrupted" (callback) -> ERROR
            message = f"SMO stopped: {res.status}"
            break
        if rel_gap <= tol:
            break
        floor = rounding / max(abs(lower), abs(upper))
        if rel_gap - floor <= tol:  # all that is left of the gap is the rounding bound
            status = Status.OPTIMAL_INACCURATE
            message = (f"tol = {tol:.3g} is below what double precision can certify here: "
                       f"the rounding-error bound alone is {floor:.3g} of the objective")
            break
        if eps_k <= 1e-13 or gap_tol <= 1e-15:
            status = Status.OPTIMAL_INACCURATE
            message = "SMO reached its finest KKT tolerance before the certified gap met tol"
            break
        gap_tol /= 10.0  # the gradient's estimate was too optimistic: ask for more
    if status is Status.ITERATION_LIMIT and max_iter is None:
        message = (f"SMO used its default budget of {budget} steps (default_max_iter: "
                   "max(1e7, 100 n), LIBSVM's cap); pass max_iter to change it")
    elapsed = time.perf_counter() - t0
    if alpha0 is None:  # a limit before the first step: alpha = 0 is feasible, certify it
        alpha0 = np.zeros(y.size)
    point: dict[str, np.ndarray] = {"alpha": alpha0}
    if f.kind == "svm.primal":
        X = f.data["X"]
        point = {
            "w": X.T @ (y * alpha0),
            "b": np.asarray(primal_bias(K @ (y * alpha0), y, None if hard else C)),
            "alpha": alpha0,
        }
    return certified_report(
        f, point, solver="smo", status=status, tol=tol, solve_time=elapsed,
        iterations=total_it, history=history, message=message,
        solver_stats={"final_eps": eps_k, "runs": len(history)},
    )
