"""Conic solvers through cvxpy: solve, read the solver's own words, certify the point.

cvxpy returns its status and the variables' values; this adapter keeps the solver's raw
answer too (SCS's and Clarabel's status words tell an iteration limit from a time limit,
and SCS's last iterate is usable where cvxpy raises), then hands the point to
:func:`convexkern.solvers.certify.certified_report`.
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import cvxpy as cp
import numpy as np

from ..errors import InvalidInputError
from ..formulation import Formulation
from ..generic import CONIC_KEY, ConicPoint, conic_data, raw_pair
from ..report import SolveReport, Status
from .certify import certified_report
from .status import cvxpy_status
from .table import ConicSolverSpec

__all__ = ["solve_conic"]

_NO_SOLUTION_MESSAGE = {
    Status.INFEASIBLE: "the problem is infeasible",
    Status.UNBOUNDED: "the problem is unbounded",
    Status.INFEASIBLE_OR_UNBOUNDED: "the problem is infeasible or unbounded (the solver did "
                                    "not say which)",
}


def _raw_status_text(stats: Any, raw: Any) -> str:
    """The solver's own status words: from cvxpy's ``extra_stats`` and from the raw
    solution object (SCS: ``info["status"]``; Clarabel: ``status``, e.g. ``MaxTime``)."""
    parts: list[str] = []
    for source in (getattr(stats, "extra_stats", None), raw):
        if source is None:
            continue
        if isinstance(source, Mapping):
            parts.append(str(source.get("status", "")))
            info = source.get("info")  # SCS: 'solved (inaccurate - reached max_iters)'
            if isinstance(info, Mapping):
                parts.append(str(info.get("status", "")))
        else:
            parts.append(str(getattr(source, "status", "")))
    return " ".join(parts)


def _raw_iterations(raw: Any) -> int | None:
    """Iterations done, read from the raw solution (SCS ``info["iter"]``, Clarabel
    ``iterations``), for a solve cvxpy could not unpack."""
    it = None
    if isinstance(raw, Mapping) and isinstance(raw.get("info"), Mapping):
        it = raw["info"].get("iter")
    elif raw is not None:
        it = getattr(raw, "iterations", None)
    return int(it) if isinstance(it, (int, np.integer)) else None


def _unpack_last_iterate(raw: Mapping[str, Any], unpack: Callable[..., Any]) -> bool:
    """Load a solver's last iterate into the problem's variables after a stop on a limit
    that cvxpy treats as a failure (SCS at ``max_iters`` with status "failed" or
    "indeterminate": cvxpy raises instead of unpacking its finite iterate).  SCS only:
    its raw answer is relabelled "solved (inaccurate)" for cvxpy's inversion.  Returns
    whether a point was loaded; the caller reports the limit status and certifies it."""
    sol = raw.get("solution")
    if not (isinstance(sol, Mapping) and isinstance(sol.get("info"), Mapping)
            and "status_val" in sol["info"] and "x" in sol):
        return False
    x = np.asarray(sol["x"], dtype=float)
    if x.size == 0 or not np.all(np.isfinite(x)):
        return False
    patched = dict(sol)
    patched["info"] = {**sol["info"], "status_val": 2}  # SCS: solved (inaccurate)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # cvxpy's "Solution may be inaccurate"
            unpack(patched, raw["chain"], raw["inverse_data"])
    except (cp.error.SolverError, ValueError, KeyError, TypeError):
        return False
    return True


def _limit_status(stats: Any, raw: Any = None) -> Status | None:
    """Detect an iteration or time limit from the solver's raw status text."""
    text = _raw_status_text(stats, raw).lower().replace("_", "").replace(" ", "")
    if "maxiter" in text or "iterationlimit" in text:
        return Status.ITERATION_LIMIT
    if "maxtime" in text or "timelimit" in text:
        return Status.TIME_LIMIT
    return None


def solve_conic(
    f: Formulation,
    spec: ConicSolverSpec,
    tol: float,
    max_iter: int | None,
    time_limit: float | None,
    verbose: bool,
    options: Mapping[str, Any],
    others_for: Callable[[Formulation], list[str]],
) -> SolveReport:
    """Solve ``f`` with the conic solver ``spec`` and certify the returned point.

    ``others_for(f)`` names the solvers an error message suggests instead.  A solver whose
    spec allows it (``ConicSolverSpec.refine``) and that claimed ``optimal`` at a point
    whose certified gap misses ``tol`` is run once more with settings 1000 times tighter
    (floored at 1e-14): its feasibility and gap tolerances are absolute, so a problem
    with a small objective (|opt| ~ 1e-4) needs them far below ``tol`` (issue 12).  The
    better-certified report is kept; ``solver_stats["refined"]`` says it happened.
    """
    accuracy = max(tol * spec.safety, 1e-12)

    def at(acc: float, limit: float | None) -> SolveReport:
        return _solve_at(f, spec, tol, acc, max_iter, limit, verbose, options, others_for)

    first = at(accuracy, time_limit)
    if not (spec.refine and first.status is Status.OPTIMAL_INACCURATE
            and first.solver_stats.get("status") == "optimal"
            and not (spec.setting_names & set(options))):
        return first
    left = None if time_limit is None else time_limit - first.solve_time
    if left is not None and left <= 0:
        return first
    finer = max(accuracy * 1e-3, 1e-14)
    second = at(finer, left)
    best = second if second.status.has_solution and second.rel_gap < first.rel_gap \
        else first
    note = (f"re-solved at settings {finer:.0e} after a certified gap of "
            f"{first.rel_gap:.2g} at {accuracy:.0e}")
    if (best is second and best.status is Status.OPTIMAL_INACCURATE
            and best.solver_stats.get("status") == "optimal_inaccurate"
            and best.rel_gap <= tol):
        # the solver could not reach the tighter settings, but its point is certified
        # to tol: the certificate, not the solver's word, decides (a proof either way)
        best = replace(best, status=Status.OPTIMAL)
        note += "; the re-solve ended 'optimal_inaccurate' but its point is certified to tol"
    return replace(
        best, solve_time=first.solve_time + second.solve_time,
        solver_stats={**best.solver_stats, "refined": True,
                      "first_rel_gap": first.rel_gap},
        message="; ".join(m for m in (best.message, note) if m),
    )


def _solve_at(f: Formulation, spec: ConicSolverSpec, tol: float, accuracy: float,
              max_iter: int | None, time_limit: float | None, verbose: bool,
              options: Mapping[str, Any],
              others_for: Callable[[Formulation], list[str]]) -> SolveReport:
    """One solve at the solver settings ``accuracy``, certified against ``tol``."""
    kwargs = spec.settings(accuracy, max_iter, time_limit)
    kwargs.update(options)
    # The solver's raw answer, kept for its status words: cvxpy maps SCS's "indeterminate
    # at max_iters" to a SolverError and Clarabel's MaxTime to user_limit without saying
    # which limit.  unpack_results is wrapped on this instance only for this call.
    raw: dict[str, Any] = {}
    problem = f.problem
    unpack = problem.unpack_results
    build = problem.get_problem_data

    def _keep_raw(solution: Any, chain: Any, inverse_data: Any) -> Any:
        raw.update(solution=solution, chain=chain, inverse_data=inverse_data)
        return unpack(solution, chain, inverse_data)

    def _keep_data(*args: Any, **kwargs: Any) -> Any:
        out = build(*args, **kwargs)
        raw["data"] = out[0]  # the conic form the solver gets: the generic certificate's
        return out

    t0 = time.perf_counter()
    forced: Status | None = None
    problem.unpack_results = _keep_raw  # type: ignore[method-assign]
    if f.generic:
        problem.get_problem_data = _keep_data  # type: ignore[method-assign]
    try:
        with warnings.catch_warnings():
            # cvxpy's "Solution may be inaccurate": the report's status and certified gap
            # say it with numbers, a second voice only confuses (issue 12)
            warnings.filterwarnings("ignore", message="Solution may be inaccurate",
                                    category=UserWarning)
            problem.solve(solver=spec.cvxpy_name, verbose=verbose, **kwargs)
    except (cp.error.SolverError, ValueError, ArithmeticError) as exc:
        # Raised inside problem.solve: by the solver, or by cvxpy while canonicalising the
        # problem for it (e.g. ECOS needs quad_form(x, P) as a second-order cone and cvxpy
        # refuses a P with round-off negative eigenvalues).  A status, not a crash.
        elapsed = time.perf_counter() - t0
        sol = raw.get("solution")
        iters = _raw_iterations(sol)
        limit = _limit_status(None, sol)
        if limit is None and max_iter is not None and iters is not None and iters >= max_iter:
            limit = Status.ITERATION_LIMIT
        if limit is not None and _unpack_last_iterate(raw, unpack):
            forced = limit  # the last iterate is in the variables: certify it below
        elif limit is not None:
            what = f"max_iter={max_iter}" if limit is Status.ITERATION_LIMIT \
                else f"time_limit={time_limit}"
            return SolveReport(
                status=limit, solver=spec.name, formulation=f.name, solve_time=elapsed,
                iterations=iters, tol=tol, params=f.param_values(),
                message=f"{spec.name} stopped at {what} with no usable point "
                        f"(its status: '{_raw_status_text(None, sol).strip()}')",
            )
        else:
            others = [s for s in others_for(f) if s != spec.name]
            return SolveReport(
                status=Status.ERROR, solver=spec.name, formulation=f.name,
                solve_time=elapsed, iterations=iters, tol=tol, params=f.param_values(),
                message=f"{spec.name} failed ({type(exc).__name__}): {exc} "
                        f"Try another solver: {others}",
            )
    finally:
        problem.__dict__.pop("unpack_results", None)
        problem.__dict__.pop("get_problem_data", None)
    elapsed = time.perf_counter() - t0
    stats = f.problem.solver_stats
    status = cvxpy_status(f.problem.status)
    limit = forced or _limit_status(stats, raw.get("solution"))
    if limit is not None and status in (Status.OPTIMAL_INACCURATE, Status.ITERATION_LIMIT,
                                        Status.ERROR):
        status = limit
    elif (status is Status.OPTIMAL_INACCURATE and max_iter is not None
          and (getattr(stats, "num_iters", None) or 0) >= max_iter):
        status = Status.ITERATION_LIMIT  # a solver that stopped on the cap, whatever it says
    solver_stats = {
        "status": f.problem.status,
        "objective": f.problem.value,
        "iterations": getattr(stats, "num_iters", None),
        "setup_time": getattr(stats, "setup_time", None),
        "compile_time": getattr(f.problem, "compilation_time", None),
    }
    solve_time = getattr(stats, "solve_time", None) or elapsed
    iters = getattr(stats, "num_iters", None)
    if not status.has_solution:
        message = _NO_SOLUTION_MESSAGE.get(
            status, f"{spec.name} returned status '{f.problem.status}'")
        hint = f.hints.get(status.value)
        if hint is None and status is Status.INFEASIBLE_OR_UNBOUNDED:
            hint = "; ".join(h for h in (f.hints.get(Status.INFEASIBLE.value),
                                         f.hints.get(Status.UNBOUNDED.value)) if h) or None
        if hint:
            message = f"{message}: {hint}" if message else hint
        primal = math.nan
        if status is Status.UNBOUNDED:
            primal = math.inf if f.sense == "maximize" else -math.inf
        return SolveReport(
            status=status, solver=spec.name, formulation=f.name, primal_value=primal,
            solve_time=float(solve_time), iterations=iters, tol=tol,
            params=f.param_values(), solver_stats=solver_stats, message=message,
        )
    try:
        point = f.current_point()
    except (InvalidInputError, TypeError, ValueError) as exc:
        return SolveReport(
            status=Status.ERROR, solver=spec.name, formulation=f.name,
            solve_time=float(solve_time), iterations=iters, tol=tol,
            params=f.param_values(), solver_stats=solver_stats,
            message=f"{spec.name} reported '{f.problem.status}' but returned no usable point "
                    f"({exc})",
        )
    if f.generic:
        point[CONIC_KEY] = _conic_point(spec, raw)
    return certified_report(
        f, point, solver=spec.name, status=status, tol=tol, solve_time=float(solve_time),
        iterations=iters, solver_stats=solver_stats,
    )


def _conic_point(spec: ConicSolverSpec, raw: Mapping[str, Any]) -> ConicPoint | None:
    """The solver's raw pair in its conic form, for the generic certificate (``None``
    when the solve did not go through the capture)."""
    data, chain = raw.get("data"), raw.get("chain")
    if data is None or chain is None:
        return None
    try:
        cd, reason = conic_data(data, getattr(chain, "solver", None))
    except (KeyError, ValueError, TypeError, AttributeError) as exc:
        del exc
        return None  # the certificate then falls back to the point by variable names
    x, y = raw_pair(spec.cvxpy_name, raw.get("solution"), data)
    # x None (a solver whose raw answer is not read): the certificate falls back to the
    # variables' values, bounding the primal side only
    return ConicPoint(data=cd, x=x, y=y, solver=spec.cvxpy_name, note=reason)


