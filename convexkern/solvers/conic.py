"""Conic solvers through cvxpy's documented route: build, solve, read the solver's own
answer, certify.

``problem.get_problem_data`` gives the conic form (kept for the generic certificate),
``chain.solve_via_data`` the solver's raw answer, and ``problem.unpack_results`` loads the
variables.  Between the last two, the solver's class (:mod:`convexkern.solvers.backends`)
reads the raw answer in the solver's own status codes, so a time limit is told from an
iteration limit and an inaccurate "infeasible" from a proof.  Every report is then made by
:mod:`convexkern.solvers.outcome`.  No method of a cvxpy object is replaced.
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import cvxpy as cp
import numpy as np

from ..errors import InvalidInputError
from ..formulation import Formulation, from_cvxpy
from ..generic import CONIC_KEY, ConicPoint, conic_data, conic_names, user_bounds
from ..math.budget import GRACE, deadline, report_tail, time_left
from ..math.conic import (
    ConicData,
    claim_forms,
    diverging_point_proof,
    farkas_proof,
    feasible_point_proof,
    improving_ray_proof,
    interior_point,
    phase_one_problem,
)
from ..report import SolveReport, Status
from .backends.base import FAST_FLOPS, ConicSolverSpec, Verdict
from .compiled import CompileStopped, may_not_fit, watched_compile
from .cvxpy_bounds import (
    ALTERED_KEY,
    FACTORS_KEY,
    cached_compile,
    compile_as_written,
    forget_unwatched,
    note_watched,
    quad_form_drops,
    with_factors,
)
from .cvxpy_written import approximated, curved_along
from .outcome import (
    TOLERANCE,
    certified_report,
    pointless_report,
    proves_no_solution,
    refine_hopeless,
)
from .status import cvxpy_status
from .table import CONIC
from .watchdog import ChildLost, Stopped, can_watch, run_watched

__all__ = ["solve_conic"]

_NO_SOLUTION_MESSAGE = {
    Status.INFEASIBLE: "the problem is infeasible",
    Status.UNBOUNDED: "the problem is unbounded",
    Status.INFEASIBLE_OR_UNBOUNDED: "the problem is infeasible or unbounded (the solver did "
                                    "not say which)",
}

#: keyword arguments of ``Problem.solve`` that are cvxpy's, not the solver's
_CVXPY_KEYWORDS = ("warm_start", "enforce_dpp", "ignore_dpp", "canon_backend")


def solve_conic(
    f: Formulation,
    spec: ConicSolverSpec,
    *,
    tol: float,
    max_iter: int | None = None,
    time_limit: float | None = None,
    verbose: bool = False,
    options: Mapping[str, Any] | None = None,
    started: float | None = None,
) -> SolveReport:
    """Solve ``f`` with the conic solver ``spec`` and certify the returned point.
    ``time_limit`` counts from ``started`` (a :func:`time.perf_counter` value: the
    caller's start), or from now.

    A solver whose spec allows it (``ConicSolverSpec.refine``) and that claimed
    ``optimal`` at a point whose certified gap misses ``tol`` is run again at the
    policy's tighter settings (:meth:`TolerancePolicy.refined`): its feasibility and gap
    tolerances are absolute, so a problem with a small objective (|opt| ~ 1e-4) needs
    them far below ``tol``.  First at the settings the gap's shortfall asks for, then,
    if those still miss ``tol``, at the policy's full factor, both within one budget.
    The best-certified report is kept; ``solver_stats["refined"]`` says it happened.  None
    is run where the first certificate shows it cannot help
    (:func:`~convexkern.solvers.outcome.refine_hopeless`).

    For a first-order solver (``ConicSolverSpec.quick_first``: SCS, OSQP), where such a
    re-solve may follow (not for SDPs, whose phase one also says when no re-solve can
    help), the first answer's certificate spends no phase one (nor the rounds that would
    follow one): a point too inaccurate for ``tol`` is not worth an interior point
    (Netlib BANDM on SCS: 0.47 s of interior steps before a 0.07 s re-solve).  It is
    certified in full after all where the call would otherwise end short of ``tol``.
    """
    options = dict(options or {})
    unknown = spec.unknown_settings(k for k in options if k not in _CVXPY_KEYWORDS)
    if unknown:
        raise InvalidInputError("options", f"{spec.name} has no setting {unknown} (it would "
                                           "ignore it without a word)")
    accuracy = TOLERANCE.settings(tol, spec.safety, spec.settings_floor)
    # time_limit bounds the whole call, certificates included
    t_start = time.perf_counter() if started is None else started
    end = None if time_limit is None else t_start + time_limit - report_tail(time_limit)

    forms: list = []  # the conic forms certified so far: a re-solve's shares their work
    kept: list = []  # the first answer's point, while its certificate is a quick one
    quick = _quick_first(f, spec, options)

    def at(acc: float, limit: float | None, until: float | None = None,
           quick: bool = False, late_ok: bool = False) -> SolveReport:
        # a re-solve that returns past the caller's deadline is not certified (late_ok
        # False): the first answer's report stands, and the call ends in time
        return _solve_at(f, spec, tol=tol, accuracy=acc, max_iter=max_iter,
                         time_limit=limit, verbose=verbose, options=options, until=until,
                         late_ok=late_ok, forms=forms, quick=quick,
                         keep=kept if quick else None)

    def in_full(report: SolveReport) -> SolveReport:
        # the first answer with the phase one its quick certificate did without
        if not kept or not report.rel_gap > tol:
            return report
        point, status, common = kept.pop()
        conic = point.get(CONIC_KEY)
        if not getattr(conic, "quick", False):
            return report
        with deadline(end, GRACE * time_limit if time_limit else 0.0):
            full = certified_report(f, {**point, CONIC_KEY: replace(conic, quick=False)},
                                    status=status, **common)
        return report if _closer(report, full) else full  # past the deadline, both open

    first = at(accuracy, time_limit, end, quick=quick, late_ok=True)
    if not (spec.refine and first.status is Status.OPTIMAL_INACCURATE
            and first.solver_stats.get("status") == "optimal"
            and not (spec.setting_names & set(options))):
        return in_full(first)
    if f.problem.__dict__.get("_convexkern_altered", {}).get(spec.cvxpy_name):
        return first  # the solver's form is not the problem: no point of it closes a bound
    hopeless = refine_hopeless(first, sdp=f.cone_class == "SDP")
    if hopeless:  # a more accurate point cannot close the open bound
        best = in_full(first)
        return replace(best, message="; ".join(m for m in (best.message, hopeless) if m))
    left = None if end is None else end - time.perf_counter()
    if left is not None and left <= 0.1 * time_limit:
        return in_full(first)  # no time worth a second solve and its certificate
    # the settings the shortfall asks for, then (only if those miss tol) the full factor;
    # both share one budget, which stops the solver, while each certificate has what the
    # caller has left (all it needs without a time_limit), like the first one's
    rungs = [TOLERANCE.refined(accuracy, first.rel_gap / tol)]
    if TOLERANCE.refined(accuracy) < rungs[0]:
        rungs.append(TOLERANCE.refined(accuracy))
    budget = max(TOLERANCE.refine_min_s, TOLERANCE.refine_time * first.solve_time)
    t_refine = time.perf_counter()
    best, solve_time, notes = first, first.solve_time, []
    for finer in rungs:
        own_left = budget - (time.perf_counter() - t_refine)
        left = None if end is None else end - time.perf_counter()
        if own_left <= 0.05 * budget or (left is not None and left <= 0.1 * time_limit):
            break
        own = left is None or own_left < left
        second = at(finer, own_left if own else left,
                    math.inf if end is None else end)
        solve_time += second.solve_time
        note = (f"{'again' if notes else 're-solved'} at settings {finer:.0e} after a "
                f"certified gap of {best.rel_gap:.2g}"
                + ("" if notes else f" at {accuracy:.0e}"))
        if not math.isfinite(second.rel_gap) and second.message:
            note += f" ({second.message})"  # why the re-solve gave nothing
        if own and second.status is Status.TIME_LIMIT:
            # stopped by the re-solve's own budget, not by the caller: its point is judged
            # by its certificate alone
            second = replace(second, status=Status.OPTIMAL if second.rel_gap <= tol
                             else Status.OPTIMAL_INACCURATE)
            note += f" (the re-solve stopped at its budget of {budget:.2g} s)"
        notes.append(note)
        if proves_no_solution(second, first):  # the answer, not the first's open bracket
            return replace(second, solve_time=solve_time, solver_stats={
                **second.solver_stats, "refined": True, "first_rel_gap": first.rel_gap},
                message=f"{second.message}; found by a re-solve at settings {finer:.0e} "
                        f"(the first answer, at {accuracy:.0e}, had a certified gap of "
                        f"{first.rel_gap:.2g})")
        if second.status.has_solution and _closer(second, best):
            best = second
        if best.rel_gap <= tol:
            break
    if best.rel_gap > tol:  # the first answer's full certificate may be the better one
        full = in_full(first)
        if full is not first and _closer(full, best):
            best = full
    return replace(
        best, solve_time=solve_time,
        solver_stats={**best.solver_stats, "refined": True,
                      "first_rel_gap": first.rel_gap},
        message="; ".join(m for m in (best.message, *notes) if m),
    )


def _quick_first(f: Formulation, spec: ConicSolverSpec, options: Mapping[str, Any]) -> bool:
    """Whether the first answer's certificate may skip the phase one (:func:`solve_conic`):
    a solver that re-solves a point missing ``tol``, on a form that is not an SDP (whose
    phase one also tells when no re-solve can help), with no settings of the caller's."""
    return bool(spec.refine and spec.quick_first and f.generic and f.cone_class != "SDP"
                and not (spec.setting_names & set(options)))


def _closer(a: SolveReport, b: SolveReport) -> bool:
    """Whether ``a``'s bracket is the better: a smaller certified gap, or, both open, more
    finite sides."""
    if a.rel_gap < b.rel_gap:
        return True
    sides = [sum(math.isfinite(v) for v in (r.primal_value, r.dual_value)) for r in (a, b)]
    return not math.isfinite(b.rel_gap) and not math.isfinite(a.rel_gap) and sides[0] > sides[1]


class _NoStart(Exception):
    """The solver's work before its first clock read cannot fit in the time left."""

    def __init__(self, need: float, left: float, what: str = "") -> None:
        super().__init__(f"{need:.2g} s needed, {left:.2g} s left")
        self.need, self.left, self.what = need, left, what


def _out_of_time(spec: ConicSolverSpec, exc: Exception, time_limit: float | None) -> str:
    """Why a solve under ``time_limit`` gave no point: not started, or stopped."""
    name = spec.name
    if isinstance(exc, CompileStopped):
        return (f"{name} was not started: cvxpy's compilation of the problem had not ended "
                f"at the deadline (time_limit={time_limit}) and was stopped after "
                f"{exc.waited:.3g} s")
    if isinstance(exc, _NoStart) and exc.need <= 0.0:
        what = exc.what or "cvxpy's compilation of the problem left no time"
        return f"{name} was not started: {what} of time_limit={time_limit}"
    if isinstance(exc, _NoStart):
        what = exc.what or ("the dense factorisations it does before it first reads its "
                            f"clock take about {exc.need:.2g} s (at {FAST_FLOPS:.0e} flop/s)")
        return (f"{name} was not started: {what}, more than the {max(exc.left, 0.0):.2g} s "
                f"left of time_limit={time_limit}")
    assert isinstance(exc, Stopped)
    setup = getattr(exc, "setup", 0.0)
    why = ("it has no clock of its own" if spec.watched else
           "it reads its clock only after its set-up (a factorisation of the KKT system"
           + (f", estimated at {setup:.2g} s), and its own limit, shortened by that,"
              if setup > 0 else "), and its own limit")
           + " did not stop it in time")
    return (f"{name} had not returned at the deadline (time_limit={time_limit}): {why}, "
            f"so its solve was stopped from outside after {exc.waited:.3g} s; no point "
            "to certify")


def _run(f: Formulation, spec: ConicSolverSpec, settings: dict[str, Any],
         verbose: bool, grace: float = 0.0) -> tuple[Any, Any, Any, Any]:
    """``(data, chain, inverse_data, raw)``: cvxpy's conic form and the solver's raw
    answer, by ``get_problem_data`` and ``chain.solve_via_data``.  Under a deadline
    (:func:`time_left`): a solver whose dense work before its first clock read cannot fit
    is not started (:class:`_NoStart`), one that reads its clock only between long steps
    gets its own limit shortened by a step (``spec.clock_work``), and one that cannot keep
    a time limit itself (``spec.watch``: no clock, or one read only after a set-up that
    may not fit) solves in a forked child stopped ``grace`` seconds past the deadline
    (:mod:`.watchdog`: :class:`Stopped`)."""
    problem = f.problem
    cvx = {k: settings.pop(k) for k in _CVXPY_KEYWORDS if k in settings}

    def compile_() -> tuple[Any, Any, Any]:
        name = spec.cvxpy_name
        forget_unwatched(problem, name)  # a compile of the user's, unwatched
        before = cached_compile(problem)
        with compile_as_written(name), quad_form_drops() as drops:
            out = problem.get_problem_data(
                name, enforce_dpp=cvx.get("enforce_dpp", False),
                ignore_dpp=cvx.get("ignore_dpp", False), verbose=verbose,
                canon_backend=cvx.get("canon_backend"), solver_opts=settings)
        note_watched(problem, name)
        # what the canonicalisation saw is kept on the problem (a later compile from
        # cvxpy's cache does not canonicalise) and replaced by the next one that does;
        # the scan of the written problem runs every time (a parameter's value may have
        # changed since, either way)
        dropped = problem.__dict__.setdefault("_convexkern_dropped", {})
        kept = problem.__dict__.setdefault("_convexkern_factors", {})
        if before is None or cached_compile(problem) is not before:
            dropped[name] = _dropped(drops) if drops else ""
            kept[name] = list(drops.forms)
        approx = approximated(problem)
        notes = problem.__dict__.setdefault("_convexkern_altered", {})
        notes[name] = "; ".join(
            ([dropped[name]] if dropped.get(name) else []) + ([
                f"cvxpy's conic form is not the problem written: {approx}, so no "
                "bound on the form is one on the problem"] if approx else []))
        if notes.get(spec.cvxpy_name) and isinstance(out[0], dict):
            out[0][ALTERED_KEY] = notes[spec.cvxpy_name]
        if kept.get(spec.cvxpy_name) and isinstance(out[0], dict):
            out[0][FACTORS_KEY] = kept[spec.cvxpy_name]
        return out

    def compiled() -> tuple[Any, Any, Any]:
        # watched when it may not fit what is left (a compile of 0.7 s begun under
        # time_limit=0.1 ran to 7 T): stopped at the deadline, a time limit
        left = time_left()
        if left is not None and left <= 0:  # the checks before it took the time (a tree
            # of 20,000 constraints written in a loop: 0.6 s)
            raise _NoStart(0.0, left, "the checks of the problem before cvxpy's "
                                      "compilation took all")
        if left is None or not can_watch() or not may_not_fit(problem, left):
            return compile_()
        # the child's wait counted after the estimate (0.3-0.5 s on 20,000 rows written
        # in a loop: the call ended at 1.35-2.3 T when it was not)
        return watched_compile(compile_, problem, spec.cvxpy_name,
                               max(time_left(), 0.0) + grace)

    try:
        data, chain, inverse = compiled()
    except AssertionError as exc:  # an internal check of cvxpy's reductions (a complex
        # tr_inv in its complex-to-real step): the problem cannot be compiled for it
        raise cp.error.SolverError(
            f"cvxpy could not compile the problem for {spec.name} (AssertionError"
            f"{': ' + str(exc) if str(exc) else ''})") from exc
    except (ValueError, TypeError) as exc:
        if isinstance(exc, ValueError) and "must be in bounds" not in str(exc):
            raise
        if not any(v.value is not None for v in problem.variables()):
            raise  # no value to clear: not the case below
        # cvxpy 1.9 copies the variables' current values (a previous solve's) into the
        # auxiliary variables it bounds for a solver that takes bounds (HiGHS), and
        # refuses a value a hair outside those bounds; its sum_largest with a fractional
        # k slices by k when a value is set (TypeError): compiled again from no values
        # (ck.compare runs HiGHS after other solvers on the same problem)
        for v in problem.variables():
            v.value = None
        try:
            data, chain, inverse = compile_()
        except TypeError as again:
            raise cp.error.SolverError(
                f"cvxpy could not compile the problem for {spec.name} ({again})") from again
    unsafe = spec.unsafe(data)
    if unsafe and not can_watch():
        raise cp.error.SolverError(f"{unsafe}: not run without a child process to hold it")
    warm = cvx.get("warm_start", True) and spec.reuse
    left = time_left()
    # the set-up before the solver's clock starts (SCS: a sparse LDL), estimated once
    setup = 0.0 if left is None else spec.setup_seconds(data)
    first, step = spec.clock_work(data)
    if left is not None and (left <= 0 or first / FAST_FLOPS > left + grace):
        # past the deadline nothing is started (a watched ECOS, forked with only the
        # stop's grace left after a compile that ended at the deadline: 1.06 T)
        raise _NoStart(first / FAST_FLOPS, left)
    watched = bool(unsafe) or (left is not None and can_watch() and spec.watch(data, left))
    if left is not None:  # what the estimates above left (0.09 s on a dense 1500 x 600
        left = time_left()  # block: a watched SCS was stopped that late)
    if left is not None and spec.time_key in settings:
        # what is left after the compilation, less one step (with a margin: the rate is
        # an optimistic one) so that the step it begins last still ends by the deadline;
        # never 0, which some solvers read as "no limit" (SCS)
        own = min(settings[spec.time_key], left) - setup - 1.5 * step / FAST_FLOPS
        if own <= 0 and setup + step > 0 and not watched:
            # its set-up and one step would end past the deadline, and nothing would stop
            # it there: not begun (HiGHS on a 1500-point SVM dual, a re-solve begun with
            # 0.3 s left: 0.5 s more)
            need = setup + 1.5 * step / FAST_FLOPS
            raise _NoStart(need, left, f"its set-up before its clock runs and one step "
                                       f"between two reads of it take about {need:.2g} s")
        settings = {**settings, spec.time_key: max(own, 1e-3)}
    def call(given: dict[str, Any]) -> Any:
        with spec.solving():
            return chain.solve_via_data(problem, data, warm, verbose, given)

    if watched:
        in_child = spec.child_settings(settings)
        if left is not None and spec.time_key in in_child:
            # its own stop well ahead of the kill: the set-up estimate errs both ways
            # (an 800-point SVM dual's SCS set-up took 0.21-0.36 s against 0.34), SCS
            # passes its own limit by ~20 ms, and the fork, cvxpy's preparation and the
            # answer's way back come on top (~40 ms); stopped from outside, the child
            # hands back no point at all
            in_child[spec.time_key] = max(in_child[spec.time_key] - min(0.2 * left, 0.5),
                                          1e-3)
        try:
            raw = run_watched(lambda: call(in_child),
                              math.inf if left is None else max(time_left(), 0.0) + grace)
        except Stopped as exc:
            exc.setup = setup  # for the report's message
            raise
    else:
        raw = call(settings)
    if spec.drop_kept:
        problem._solver_cache.pop(spec.cvxpy_name, None)
    return data, chain, inverse, raw


def _has_values(problem: Any) -> bool:
    """Whether every variable of ``problem`` holds a value (cvxpy unpacks none for a
    "no solution" word, inaccurate ones included)."""
    return all(v.value is not None for v in problem.variables())


def _unpack(f: Formulation, raw: Any, chain: Any, inverse: Any) -> bool:
    """Load the raw answer into the problem's variables; False when cvxpy refuses it
    (a solver error in cvxpy's reading)."""
    try:
        with warnings.catch_warnings():
            # cvxpy's "Solution may be inaccurate": the report's status and certified gap
            # say it with numbers, a second voice only confuses
            warnings.filterwarnings("ignore", message="Solution may be inaccurate",
                                    category=UserWarning)
            f.problem.unpack_results(raw, chain, inverse)
    except (cp.error.SolverError, ValueError, KeyError, TypeError):
        return False
    return True


def _solve_at(f: Formulation, spec: ConicSolverSpec, *, tol: float, accuracy: float,
              max_iter: int | None, time_limit: float | None, verbose: bool,
              options: Mapping[str, Any], second: bool = True,
              until: float | None = None, late_ok: bool = True,
              forms: list | None = None, quick: bool = False,
              keep: list | None = None) -> SolveReport:
    """One solve at the solver settings ``accuracy``, certified against ``tol``
    (``second``: a "no solution" word this solver cannot prove may ask another).  The
    certificate's deadline is ``until`` (a ``perf_counter`` time; ``None`` or ``inf``:
    none), which the callers give: the call's, less the report's tail
    (:func:`~convexkern.math.budget.report_tail`); an answer that comes after it is
    certified only when ``late_ok`` (else the report is a ``time_limit`` with no point)."""
    settings = {**spec.settings(accuracy, max_iter, time_limit), **options}
    t0 = time.perf_counter()
    # the certificate of a late answer may use 3 % of time_limit past the deadline (the
    # caller's allowance is time_limit + 5 %; the rest is the report's own work)
    grace = GRACE * time_limit if time_limit is not None else 0.0
    with deadline(None if until == math.inf else until, grace):
        return _solve_within(f, spec, settings, t0=t0, tol=tol, accuracy=accuracy,
                             max_iter=max_iter, time_limit=time_limit, verbose=verbose,
                             second=second, late_ok=late_ok, forms=forms, quick=quick,
                             keep=keep)


def _within(left: float | None) -> float:
    """The deadline of a solve nested in a call whose deadline is ``left`` seconds away
    (``inf``: none): that deadline itself, whose report tail the call has already kept."""
    return math.inf if left is None else time.perf_counter() + left


def _solve_within(f: Formulation, spec: ConicSolverSpec, settings: dict[str, Any], *,
                  t0: float, tol: float, accuracy: float, max_iter: int | None,
                  time_limit: float | None, verbose: bool, second: bool,
                  late_ok: bool = True, forms: list | None = None, quick: bool = False,
                  keep: list | None = None) -> SolveReport:
    """:func:`_solve_at` under the caller's deadline (the certificate's own solves see
    what is left of ``time_limit``: :mod:`convexkern.math.budget`).  ``quick``: an
    "optimal" answer's certificate spends no phase one (:attr:`ConicPoint.quick`);
    ``keep`` (a list) receives ``(point, status, report arguments)`` to certify it again."""
    try:
        # a watched solve is stopped a little after the deadline (2 % of time_limit): a
        # solver whose own clock stops it at the deadline still gets its answer out
        data, chain, inverse, raw = _run(f, spec, settings, verbose,
                                         0.02 * (time_limit or 0.0))
    except (_NoStart, Stopped) as exc:
        return pointless_report(
            f, solver=spec.name, status=Status.TIME_LIMIT, tol=tol,
            solve_time=time.perf_counter() - t0,
            message=_out_of_time(spec, exc, time_limit))
    except (cp.error.SolverError, ValueError, ArithmeticError, RuntimeError,
            ChildLost) as exc:
        # Raised by the solver, or by cvxpy while canonicalising the problem for it (e.g.
        # ECOS needs quad_form(x, P) as a second-order cone and cvxpy refuses a P with
        # round-off negative eigenvalues; ECOS's own "Internal problem occurred in ECOS
        # while setting up" on rank-deficient equality rows).  A status, not a crash.
        return pointless_report(
            f, solver=spec.name, status=Status.ERROR, tol=tol,
            solve_time=time.perf_counter() - t0,
            message=f"{spec.name} failed ({type(exc).__name__}): {exc}")
    except BaseException as exc:
        if type(exc).__name__ != "PanicException":  # Ctrl-C, SystemExit: not the solver's
            raise
        # a panic in a solver's Rust code, raised through pyo3 as a BaseException
        # (Clarabel asserts that a PowConeND's exponents sum to 1 within its own rounding;
        # cvxpy accepts 1e-6)
        return pointless_report(
            f, solver=spec.name, status=Status.ERROR, tol=tol,
            solve_time=time.perf_counter() - t0,
            message=f"{spec.name} failed (a panic in its native code): {exc}")
    elapsed = time.perf_counter() - t0
    left = time_left()
    if not late_ok and left is not None and left <= 0:
        return pointless_report(
            f, solver=spec.name, status=Status.TIME_LIMIT, tol=tol, solve_time=elapsed,
            message=f"{spec.name} returned {-left:.2g} s after the deadline: not certified")
    verdict = spec.verdict(raw, settings)
    unpacked = _unpack(f, raw, chain, inverse)
    if verdict is None:  # a solver whose own codes are not read: cvxpy's word
        word = f.problem.status if unpacked else "solver_error"
        verdict = Verdict(cvxpy_status(word), str(word),
                          proven=word not in cp.settings.INACCURATE)
    iters = spec.iterations(raw)
    stats = f.problem.solver_stats if unpacked else None
    if iters is None and stats is not None:
        iters = getattr(stats, "num_iters", None)
    solve_time = (getattr(stats, "solve_time", None) if stats is not None else None) or elapsed
    solver_stats = {
        "status": f.problem.status if unpacked else None,
        "native_status": verdict.word,
        "objective": f.problem.value if unpacked else None,
        "iterations": iters,
        "setup_time": getattr(stats, "setup_time", None) if stats is not None else None,
        "compile_time": getattr(f.problem, "compilation_time", None),
    }
    status = verdict.status
    if status in (Status.ITERATION_LIMIT, Status.TIME_LIMIT) and not (
            unpacked and _has_values(f.problem)):
        # a stop on a limit that cvxpy reads as a failure or as an inaccurate "no
        # solution" (SCS's "unbounded (inaccurate - reached max_iters)": no values)
        last = spec.last_iterate(raw)
        unpacked = (last is not None and _unpack(f, last, chain, inverse)
                    and _has_values(f.problem))
    elif (status is Status.OPTIMAL_INACCURATE and max_iter is not None
          and (iters or 0) >= max_iter):
        status = Status.ITERATION_LIMIT  # a solver that stopped on the cap, whatever it says
    common = dict(solver=spec.name, tol=tol, solve_time=float(solve_time), iterations=iters,
                  solver_stats=solver_stats)
    if status in _NO_SOLUTION_MESSAGE:
        # a claim: checked here by its ray, then by outcome.judged against the
        # formulation's facts (claim_proven False: never reported as a property)
        status, proven, why = _prove_claim(f, spec, status, verdict, raw, data,
                                           (chain, inverse),
                                           tol=tol, accuracy=accuracy,
                                           time_limit=time_left(), second_opinion=second)
        solver_stats.update(claim_proven=proven, claim_proof=why)
        message = f"{_no_solution_message(f, status)}; {why}" if proven else why
        return pointless_report(f, status=status, **common, message=message)
    if status is Status.ERROR or not unpacked:
        if status in (Status.ITERATION_LIMIT, Status.TIME_LIMIT):
            what = f"max_iter={max_iter}" if status is Status.ITERATION_LIMIT \
                else f"time_limit={time_limit}"
            message = (f"{spec.name} stopped at {what} with no usable point "
                       f"(its status: {verdict.word})")
        else:
            status = Status.ERROR
            message = f"{spec.name} failed (its status: {verdict.word})"
        return pointless_report(f, status=status, **common, message=message)
    try:
        point = f.current_point()
    except (InvalidInputError, TypeError, ValueError) as exc:
        return pointless_report(
            f, status=Status.ERROR, **common,
            message=f"{spec.name} reported '{verdict.word}' but returned no usable point "
                    f"({exc})")
    conic = None
    if f.generic:
        conic = _conic_point(spec, data, chain, raw, f.problem, inverse, forms)
        if quick and status is Status.OPTIMAL and conic is not None:
            conic = replace(conic, quick=True)
        point[CONIC_KEY] = conic
    if keep is not None:
        keep.append((point, status, common))
    report = certified_report(f, point, status=status, **common)
    if (conic is not None and report.status.has_solution
            and math.isfinite(report.primal_value) and math.isinf(report.dual_value)):
        val, _ = diverging_point_proof(conic.data, conic.x)  # an optimum's side open
        if val < 0:
            why = (f"{spec.name} said '{verdict.word}' at a diverging point: its direction "
                   f"is an improving ray (certified c'd <= {val:.3g} < 0) and the point is "
                   "feasible")
            solver_stats.update(claim_proven=True, claim_proof=why)
            return pointless_report(f, status=Status.UNBOUNDED, **common, message=(
                f"{_no_solution_message(f, Status.UNBOUNDED)}; {why}"))
    return report


#: the solvers asked for a second opinion on a claim whose own ray proves nothing, in order
#: (their rays are read: :meth:`ConicSolverSpec.certificate`)
_SECOND_OPINION = ("clarabel", "highs", "scs")


def _prove_claim(f: Formulation, spec: ConicSolverSpec, claim: Status, verdict: Verdict,
                 raw: Any, data: Any, chain_inverse: tuple[Any, Any], *, tol: float,
                 accuracy: float, time_limit: float | None, second_opinion: bool
                 ) -> tuple[Status, bool, str]:
    """``(status, proven, why)`` for a solver's "no solution" word.

    ``infeasible`` stands when the solver's Farkas ray proves it, or the certified
    phase-one LP of the rows does (:func:`_phase_one_proof`); ``unbounded`` when its
    improving ray proves there is no optimum and a point proves the problem feasible
    (without that point: ``infeasible_or_unbounded``, which the ray does prove).  A claim
    neither proves is put to the other solvers of ``_SECOND_OPINION`` in turn, each once
    and within the time left: the first proven claim is adopted, a certified optimum
    refutes the first solver's word.  Otherwise the claim is unproven (``why`` says so)
    and ``outcome.judged`` reports an error."""
    said = f"{spec.name} said '{claim.value}' (its status: {verdict.word})"
    try:  # the user's problem: cvxpy's derived bounds on auxiliary variables left out
        chain, inverse = chain_inverse
        cd, reason = conic_data(data, getattr(chain, "solver", None))
        reason = reason or _altered(data)
        cd = user_bounds(cd, f.problem, inverse)
        cd, reason = _claim_form(cd, reason, data, inverse, claim)
    except (KeyError, ValueError, TypeError, AttributeError) as exc:
        cd, reason = None, f"its conic form could not be read ({exc})"
    proof = _ray_proof(spec, claim, raw, cd, reason)
    if proof[0] is not None and claim is Status.UNBOUNDED:
        bent = curved_along(f.problem, chain_inverse[1], spec.certificate(raw, claim))
        proof = (None, bent) if bent else proof
    if proof[0] is not None:
        return proof[0], True, f"{said}; {proof[1]}"
    why = f"{said}, but its certificate does not prove it ({proof[1]})"
    if cd is not None and "conic " in why:  # the rows and columns in the user's names
        names = conic_names(f.problem, chain_inverse[1], cd.solver_rows)
        why = why if names is None else names.rename(why)
    if (claim is Status.INFEASIBLE and f.name != _PHASE_ONE
            and (time_limit is None or time_limit > 0)):  # never a phase one of a phase one
        done, note = _phase_one_proof(spec, cd, reason, tol=tol, accuracy=accuracy,
                                      time_limit=time_limit)
        time_limit = time_left() if time_limit is not None else None
        if done:
            return claim, True, f"{why}; {note}"
        why += f"; {note}"
    others = [CONIC[n] for n in _SECOND_OPINION if n != spec.name and CONIC[n].installed
              and f.cone_class in CONIC[n].cones] if second_opinion else []
    for other in others:
        left = time_left() if time_limit is not None else None  # the deadline in force
        if left is not None and left <= 0:
            break
        r = _solve_at(f, other, tol=tol, accuracy=accuracy, max_iter=None,
                      time_limit=left, verbose=False, options={}, second=False,
                      until=_within(left))
        if r.status in _NO_SOLUTION_MESSAGE and r.solver_stats.get("claim_proven"):
            return r.status, True, f"{why}; {other.name}'s does: {r.solver_stats['claim_proof']}"
        if r.status is Status.OPTIMAL:
            lo, up = sorted((r.primal_value, r.dual_value))
            why += (f"; {other.name} certified an optimum in [{lo:.10g}, {up:.10g}]: the "
                    "claim is false")
            break
        why += f"; {other.name} proved nothing either ({r.status.value})"
    if not verdict.proven:
        why += "; the solver itself marked the word inaccurate"
    return claim, False, why + ". Not a property of the problem: try another solver, " \
        "tighter settings or rescaled data"


#: the name of the phase-one formulation (:func:`_phase_one_proof`): a claim about it is
#: never measured by a phase one of its own
_PHASE_ONE = "phase one (convexkern)"


def _phase_one_proof(spec: ConicSolverSpec, cd: ConicData | None, reason: str, *,
                     tol: float, accuracy: float, time_limit: float | None
                     ) -> tuple[bool, str]:
    """Whether the phase-one LP of the problem's rows (:func:`phase_one_problem`) in the
    user's conic form ``cd``, solved by the same solver and certified like any optimum,
    has a certified optimum ``> 0`` (which proves the rows infeasible), and what it
    showed."""
    if cd is None:
        return False, f"{reason} for a phase one"
    problem = None if reason else phase_one_problem(cd)
    if problem is None:
        return False, "no phase one for its cones"
    r = _solve_at(from_cvxpy(problem, name=_PHASE_ONE), spec, tol=tol, accuracy=accuracy,
                  max_iter=None, time_limit=time_limit, verbose=False, options={},
                  second=False, until=_within(time_limit))
    ends = (r.primal_value, r.dual_value)
    # the bracket's lower end; NaN (no point, or one end missing) proves nothing
    lo = min(ends) if not any(math.isnan(v) for v in ends) else math.nan
    if lo > 0:
        return True, (f"the phase-one LP (min t, every row relaxed by t) has a certified "
                      f"optimum >= {lo:.3g} > 0 ({spec.name}'s answer, certified)")
    return False, (f"its phase-one LP ({r.status.value}) has no certified optimum > 0 "
                   f"(lower bound {lo:.3g})")


def _claim_form(cd: ConicData, reason: str, data: Any, inverse: Any, claim: Status
                ) -> tuple[ConicData, str]:
    """``cd`` as a "no solution" word about the written problem is checked on: where a
    ``quad_form`` reached the solver through cvxpy's factor of ``P``
    (:func:`~convexkern.math.conic.factored.claim_forms`), a form that holds every
    written point (for ``infeasible``) or whose points and rays are the written
    problem's (for ``unbounded``), the rays' restriction noted on it; or the reason no
    such form exists."""
    if reason or not isinstance(data, dict) or not data.get(FACTORS_KEY):
        return cd, reason
    full, reason = with_factors(cd, data[FACTORS_KEY], inverse)
    if reason:
        return cd, reason
    relaxed, restricted, cols, rows = claim_forms(full)
    form = relaxed if claim is Status.INFEASIBLE else restricted
    if form is None:
        return cd, (
            "a quad_form reached the solver through cvxpy's factor of P, which is exact "
            "only to rounding, and neither P is verified positive definite nor (for an "
            "infeasible word) does a constraint bound its argument, so no form proves a "
            "claim about the problem as written")
    form.cache["claim_of"] = (cd, rows, cols)
    return form, ""


def _ray_proof(spec: ConicSolverSpec, claim: Status, raw: Any, cd: ConicData | None,
               reason: str) -> tuple[Status | None, str]:
    """The status the solver's own ray proves in the user's conic form ``cd`` (``None``:
    nothing) and what it shows."""
    if claim not in (Status.INFEASIBLE, Status.UNBOUNDED):
        return None, "the solver gives no ray for this word"
    if cd is None or reason:
        return None, reason
    ray = spec.certificate(raw, claim)
    if ray is None:
        return None, "the solver gives no ray"
    of, rows, cols = cd.cache.get("claim_of", (cd, None, None))
    if claim is Status.INFEASIBLE:
        ray = of.rows_of(ray)
    keep = rows if claim is Status.INFEASIBLE else cols
    if keep is not None:
        ray = np.asarray(ray, dtype=float).ravel()
        if ray.size != (of.b.size if claim is Status.INFEASIBLE else of.c.size):
            return None, "the solver's ray has the wrong size"
        ray = ray[keep]
    if claim is Status.INFEASIBLE:
        val, why = farkas_proof(cd, ray)
        if val > 0:
            return Status.INFEASIBLE, (f"its Farkas ray proves it (certified lower bound "
                                       f"{val:.3g} > 0 on the feasibility problem)")
        return None, why or f"its Farkas ray bounds the feasibility problem by {val:.3g} <= 0"
    val, why = improving_ray_proof(cd, ray)
    if not val < 0:
        return None, why or f"its improving ray's certified objective {val:.3g} is not < 0"
    n = cd.c.size
    found = feasible_point_proof(cd, np.zeros(n)) or feasible_point_proof(
        cd, interior_point(cd)[0])
    if found:
        return Status.UNBOUNDED, (f"its improving ray proves it (certified c'd <= {val:.3g} "
                                  "< 0, and a point proves the problem feasible)")
    return Status.INFEASIBLE_OR_UNBOUNDED, (
        f"its improving ray proves there is no optimum (certified c'd <= {val:.3g} < 0); "
        "no feasible point was found, so the problem is unbounded only if it is feasible")


def _no_solution_message(f: Formulation, status: Status) -> str:
    """What a proven "no solution" word means, with the builder's hint where it has one."""
    message = _NO_SOLUTION_MESSAGE[status]
    hint = f.hints.get(status.value)
    if hint is None and status is Status.INFEASIBLE_OR_UNBOUNDED:
        hint = "; ".join(h for h in (f.hints.get(Status.INFEASIBLE.value),
                                     f.hints.get(Status.UNBOUNDED.value)) if h) or None
    return f"{message}: {hint}" if hint else message


def _altered(data: Any) -> str:
    """Why cvxpy's conic form is not the user's problem (``""``: it is), as noted by
    :func:`_run`'s compile (:func:`~convexkern.solvers.cvxpy_bounds.quad_form_drops`,
    :func:`~convexkern.solvers.cvxpy_written.approximated`)."""
    what = data.get(ALTERED_KEY) if isinstance(data, dict) else None
    return what or ""


def _dropped(drops: list[str]) -> str:
    """Why a form whose ``quad_form`` factors drop pivots of ``P`` is not certified."""
    return (f"cvxpy's conic form is not the problem written: writing quad_form as a "
            f"second-order cone (an LDL factor of P, pivots below 1e6 eps of the largest "
            f"dropped), {'; '.join(drops)}, so no bound on the form is one on the problem; "
            "write the quadratic as sum_squares(F @ x) with a factor F of P (then the form "
            "is exact), or, in the objective, use a solver that takes P itself (Clarabel, "
            "SCS, OSQP, QOCO)")


def _conic_point(spec: ConicSolverSpec, data: Any, chain: Any, raw: Any,
                 problem: Any = None, inverse: Any = None,
                 forms: list | None = None) -> ConicPoint | None:
    """The solver's raw pair in its conic form, for the generic certificate (``None``
    when the form cannot be read).  ``forms``: the forms already certified in this call
    (a refining re-solve's is the first one's): one that is this form, bit for bit,
    lends its certificate's work (``ConicData.cache``: the phase-one points, the exact
    dependence searches, the correction's basis), each search's work budget renewed."""
    try:
        cd, reason = conic_data(data, getattr(chain, "solver", None))
    except (KeyError, ValueError, TypeError, AttributeError):
        return None  # the certificate then falls back to the point by variable names
    reason = reason or _altered(data)
    if problem is not None and inverse is not None:
        cd = user_bounds(cd, problem, inverse)  # cvxpy's derived bounds are not the user's
    if not reason and isinstance(data, dict) and data.get(FACTORS_KEY):
        cd, reason = with_factors(cd, data[FACTORS_KEY], inverse)
    if forms is not None:
        prev = next((p for p in forms if p.same_form(cd)), None)
        if prev is None:
            forms.append(cd)
        else:
            prev.cache.pop("dual_dependence_work", None)
            cd.cache = prev.cache
    x, y = spec.pair(raw)
    y = cd.rows_of(y)  # the solver's row order (ECOS's exponential cones) -> the form's
    # x None (a solver whose raw answer is not read): the certificate falls back to the
    # variables' values, bounding the primal side only
    names = None if problem is None else conic_names(problem, inverse, cd.solver_rows)
    return ConicPoint(data=cd, x=x, y=y, solver=spec.cvxpy_name, note=reason, names=names,
                      dual_signs=spec.dual_signs)
