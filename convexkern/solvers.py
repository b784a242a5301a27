"""Solver registry and dispatch: :func:`solve`, :func:`compare`, :func:`path`.

Two kinds of solver live in one registry, looked up by lower-case name:

* **conic solvers** reached through cvxpy (``clarabel``, ``scs`` always; ``ecos``,
  ``highs``, ``osqp``, ``cvxopt``, ``mosek``... when installed).  Their capabilities are
  data (:class:`ConicSolverSpec`): which cone classes they accept and which module must
  be importable.  Availability is checked with :func:`importlib.util.find_spec`, without
  importing the solver.
* **custom algorithms** (``smo``...) registered with :func:`register_solver` for the
  formulation kinds they solve.

Whatever the solver, the report's numbers come from the formulation's certificate, and the
status is ``optimal`` only when the certified relative gap meets ``tol``.
"""

from __future__ import annotations

import importlib.util
import math
import time
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cvxpy as cp
import numpy as np

from .errors import InvalidInputError, InvalidTypeError, SolverNotFoundError
from .formulation import Formulation
from .report import ReportTable, SolveReport, Status

__all__ = [
    "ConicSolverSpec",
    "CustomSolverSpec",
    "register_solver",
    "available_solvers",
    "installed_solvers",
    "solver_info",
    "solve",
    "compare",
    "path",
    "certified_report",
]

# Fraction of ``tol`` handed to a conic solver as its own accuracy target: the certified
# gap, recomputed from the returned point, is typically a few times the solver's own
# residuals, so the solver is asked for ten times better than the target.
_CONIC_SAFETY = 0.1
_CLASSES_QP = frozenset({"LP", "QP"})
_CLASSES_SOCP = _CLASSES_QP | {"SOCP"}
_CLASSES_ALL = _CLASSES_SOCP | {"EXP", "SDP"}


@dataclass(frozen=True, kw_only=True)
class ConicSolverSpec:
    """A conic solver reached through cvxpy, described as data."""

    name: str
    cvxpy_name: str
    module: str
    cones: frozenset[str]
    default_tol: float
    settings: Callable[[float, int | None, float | None], dict[str, Any]]
    install: str
    #: the solver's accuracy settings are ``safety * tol`` (floored at 1e-12)
    safety: float = _CONIC_SAFETY

    @property
    def installed(self) -> bool:
        return importlib.util.find_spec(self.module) is not None


@dataclass(frozen=True, kw_only=True)
class CustomSolverSpec:
    """A purpose-built algorithm registered for some formulation kinds.

    ``fn(formulation, *, tol, max_iter, time_limit, verbose, x0, **options)`` must return a
    :class:`SolveReport` built with :func:`certified_report`.
    """

    name: str
    kinds: frozenset[str]
    fn: Callable[..., SolveReport]
    default_tol: float
    description: str = ""
    warm_start: bool = False


def _drop_none(**kw: Any) -> dict[str, Any]:
    return {k: v for k, v in kw.items() if v is not None}


_CONIC: dict[str, ConicSolverSpec] = {}
_CUSTOM: dict[str, CustomSolverSpec] = {}


def _add_conic(spec: ConicSolverSpec) -> None:
    _CONIC[spec.name] = spec


# Registry order is preference order (and the column order of compare()).
_add_conic(ConicSolverSpec(
    name="clarabel", cvxpy_name="CLARABEL", module="clarabel", cones=_CLASSES_ALL,
    default_tol=1e-8, install="pip install clarabel",
    # max_iter/time_limit always passed (Clarabel's defaults when not asked): cvxpy keeps
    # the Clarabel solver object between solves and would keep a previous call's limits.
    settings=lambda t, it, tl: dict(
        tol_gap_abs=t, tol_gap_rel=t, tol_feas=t, max_iter=200 if it is None else it,
        time_limit=math.inf if tl is None else tl),
))
_add_conic(ConicSolverSpec(
    name="scs", cvxpy_name="SCS", module="scs", cones=_CLASSES_ALL,
    default_tol=1e-4, install="pip install scs",
    settings=lambda t, it, tl: _drop_none(
        eps_abs=t, eps_rel=t, max_iters=it, time_limit_secs=tl),
))
# ECOS solves the SVM dual through cvxpy's second-order-cone form of quad_form, and its
# certified gap levels off at 1e-7..6e-6 relative (USPS, Pima subsets) once its own
# tolerances reach 1e-10; below that it reports itself inaccurate.  So the default target
# is 1e-5, reached with settings 1e-10 (safety 1e-5).
_add_conic(ConicSolverSpec(
    name="ecos", cvxpy_name="ECOS", module="ecos", cones=_CLASSES_SOCP | {"EXP"},
    default_tol=1e-5, safety=1e-5, install="pip install ecos",
    settings=lambda t, it, tl: _drop_none(abstol=t, reltol=t, feastol=t, max_iters=it),
))
# HiGHS's QP solver has no gap tolerance: its certified gap was 1.5e-8..3.3e-7 relative
# whatever the feasibility tolerances, so the default target is 1e-6.
_add_conic(ConicSolverSpec(
    name="highs", cvxpy_name="HIGHS", module="highspy", cones=_CLASSES_QP,
    default_tol=1e-6, install="pip install highspy",
    settings=lambda t, it, tl: _drop_none(
        primal_feasibility_tolerance=max(t, 1e-10), dual_feasibility_tolerance=max(t, 1e-10),
        time_limit=tl),
))
_add_conic(ConicSolverSpec(
    name="osqp", cvxpy_name="OSQP", module="osqp", cones=_CLASSES_QP,
    default_tol=1e-3, install="pip install osqp",
    # as for Clarabel, defaults passed explicitly so no earlier limit persists in a reused
    # OSQP object (cvxpy updates a cached solver with the new settings only)
    settings=lambda t, it, tl: dict(
        eps_abs=t, eps_rel=t, max_iter=4000 if it is None else it,
        time_limit=1e10 if tl is None else tl),
))
_add_conic(ConicSolverSpec(
    name="cvxopt", cvxpy_name="CVXOPT", module="cvxopt", cones=_CLASSES_SOCP | {"SDP"},
    default_tol=1e-7, install="pip install cvxopt",
    settings=lambda t, it, tl: _drop_none(abstol=t, reltol=t, feastol=t, max_iters=it),
))
_add_conic(ConicSolverSpec(
    name="mosek", cvxpy_name="MOSEK", module="mosek", cones=_CLASSES_ALL,
    default_tol=1e-8, install="pip install mosek (needs a licence)",
    settings=lambda t, it, tl: {},
))
_add_conic(ConicSolverSpec(
    name="piqp", cvxpy_name="PIQP", module="piqp", cones=_CLASSES_QP,
    default_tol=1e-8, install="pip install piqp",
    settings=lambda t, it, tl: _drop_none(eps_abs=t, eps_rel=t, max_iter=it),
))


def register_solver(
    name: str,
    *,
    kinds: Iterable[str],
    default_tol: float = 1e-6,
    description: str = "",
    warm_start: bool = False,
) -> Callable[[Callable[..., SolveReport]], Callable[..., SolveReport]]:
    """Register a custom algorithm under ``name`` for the formulation ``kinds``.

    Use as a decorator on the function that solves a formulation::

        @register_solver("smo", kinds=["svm.dual"], default_tol=1e-6)
        def _solve_smo(f, *, tol, max_iter, time_limit, verbose, x0=None, **options):
            ...
            return certified_report(f, point, solver="smo", ...)
    """
    key = name.lower()
    if key in _CONIC:
        raise InvalidInputError("name", f"'{key}' is a conic solver name")

    def decorator(fn: Callable[..., SolveReport]) -> Callable[..., SolveReport]:
        existing = _CUSTOM.get(key)
        new_kinds = frozenset(kinds)
        if existing is not None and existing.fn is not fn:
            # The same name may serve more kinds; it is merged, not replaced.
            if existing.kinds & new_kinds:
                raise InvalidInputError(
                    "name", f"solver '{key}' is already registered for {sorted(existing.kinds)}"
                )
            new_kinds = existing.kinds | new_kinds
            fns = dict(getattr(existing.fn, "_by_kind", {k: existing.fn for k in existing.kinds}))
            fns.update({k: fn for k in frozenset(kinds)})

            def dispatch(f: Formulation, **kw: Any) -> SolveReport:
                return fns[f.kind](f, **kw)

            dispatch._by_kind = fns  # type: ignore[attr-defined]
            _CUSTOM[key] = CustomSolverSpec(
                name=key, kinds=new_kinds, fn=dispatch, default_tol=default_tol,
                description=existing.description or description,  # the first one describes it
                warm_start=warm_start and existing.warm_start,
            )
        else:
            _CUSTOM[key] = CustomSolverSpec(
                name=key, kinds=new_kinds, fn=fn, default_tol=default_tol,
                description=description, warm_start=warm_start,
            )
        return fn

    return decorator


def installed_solvers() -> list[str]:
    """Names of every usable solver: installed conic ones, then every custom one."""
    return [s.name for s in _CONIC.values() if s.installed] + list(_CUSTOM)


def solver_info() -> list[dict[str, Any]]:
    """One row per known solver: name, kind, installed, what it solves, install hint."""
    rows = []
    for s in _CONIC.values():
        rows.append({
            "name": s.name, "kind": "conic (cvxpy)", "installed": s.installed,
            "solves": ",".join(sorted(s.cones)), "default_tol": s.default_tol,
            "install": "" if s.installed else s.install,
        })
    for c in _CUSTOM.values():
        rows.append({
            "name": c.name, "kind": "built-in", "installed": True,
            "solves": ",".join(sorted(c.kinds)), "default_tol": c.default_tol,
            "install": "", "description": c.description,
        })
    return rows


def available_solvers(f: Formulation | None = None) -> list[str]:
    """Solver names that can solve ``f`` (every installed one when ``f`` is None).

    Conic solvers qualify when installed and when they accept the formulation's cone
    class; custom algorithms when registered for its ``kind``.  The formulation's default
    solver comes first.
    """
    if f is None:
        return installed_solvers()
    _check_formulation(f)
    cls = f.cone_class
    names = [s.name for s in _CONIC.values() if s.installed and cls in s.cones]
    names += [c.name for c in _CUSTOM.values() if f.kind in c.kinds]
    if f.default_solver in names:
        names.remove(f.default_solver)
        names.insert(0, f.default_solver)
    return names


def _check_formulation(f: Any) -> None:
    if not isinstance(f, Formulation):
        raise InvalidTypeError(
            "formulation", f"expected a convexkern Formulation, got {type(f).__name__}"
        )


def _resolve(f: Formulation, solver: str | None) -> ConicSolverSpec | CustomSolverSpec:
    name = (f.default_solver if solver is None else solver)
    if not isinstance(name, str):
        raise InvalidTypeError("solver", f"expected a solver name, got {name!r}")
    key = name.lower()
    usable = available_solvers(f)
    if key in _CUSTOM and f.kind in _CUSTOM[key].kinds:
        return _CUSTOM[key]
    if key in _CONIC:
        spec = _CONIC[key]
        if not spec.installed:
            raise SolverNotFoundError(
                f"solver '{key}' is not installed ({spec.install}); "
                f"installed solvers for {f.name}: {usable}"
            )
        if f.cone_class not in spec.cones:
            raise SolverNotFoundError(
                f"solver '{key}' does not handle {f.cone_class} problems such as {f.name}; "
                f"use one of {usable}"
            )
        return spec
    if key in _CUSTOM:
        raise SolverNotFoundError(
            f"solver '{key}' solves {sorted(_CUSTOM[key].kinds)}, not {f.kind}; "
            f"use one of {usable}"
        )
    raise SolverNotFoundError(f"unknown solver '{name}'; solvers for {f.name}: {usable}")


def _check_controls(tol: Any, max_iter: Any, time_limit: Any) -> None:
    if tol is not None and (
        isinstance(tol, bool) or not isinstance(tol, (int, float)) or not (0 < tol < 1)
    ):
        raise InvalidInputError("tol", f"must be a number in (0, 1), got {tol!r}")
    if max_iter is not None and (
        isinstance(max_iter, bool) or not isinstance(max_iter, (int, np.integer)) or max_iter < 1
    ):
        raise InvalidInputError("max_iter", f"must be a positive integer, got {max_iter!r}")
    if time_limit is not None and (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, (int, float))
        or not time_limit > 0
    ):
        raise InvalidInputError("time_limit", f"must be a positive number, got {time_limit!r}")


def solve(
    formulation: Formulation,
    solver: str | None = None,
    *,
    tol: float | None = None,
    max_iter: int | None = None,
    time_limit: float | None = None,
    verbose: bool = False,
    x0: Mapping[str, np.ndarray] | None = None,
    **options: Any,
) -> SolveReport:
    """Solve a formulation and return a certified :class:`SolveReport`.

    Parameters
    ----------
    formulation : Formulation
    solver : str, optional
        A name from :func:`available_solvers`; default: the formulation's own default.
    tol : float, optional
        Target *relative certified gap*.  Custom algorithms stop on it; conic solvers get
        ``tol / 10`` as their accuracy settings (ECOS: ``tol * 1e-5``, see its registry
        entry).  Default: the solver's ``default_tol`` (see ``convexkern solvers``), a
        target the solver reaches on ordinary problems.
    max_iter, time_limit : optional
        Bounds on the work; running out is reported as a status, never as an optimum.
    verbose : bool
        Let the solver print its log.
    x0 : dict, optional
        Warm start for custom algorithms that accept one (ignored by conic solvers, which
        warm-start through cvxpy's parameter caching).
    **options
        Passed to the solver unchanged (cvxpy keyword arguments for conic solvers).

    Raises
    ------
    InvalidInputError
        A Parameter of the formulation has an invalid value
        (:meth:`Formulation.check_params`).
    """
    _check_formulation(formulation)
    _check_controls(tol, max_iter, time_limit)
    spec = _resolve(formulation, solver)
    # every Parameter checked before any solver runs (a value set on the cvxpy Parameter
    # directly, e.g. C = 0 on a pos=True Parameter, which cvxpy accepts): all solvers,
    # conic or custom, refuse it with the same error naming it
    formulation.check_params()
    t_tol = spec.default_tol if tol is None else float(tol)
    t0 = time.perf_counter()
    if isinstance(spec, CustomSolverSpec):
        report = spec.fn(
            formulation, tol=t_tol, max_iter=max_iter, time_limit=time_limit,
            verbose=verbose, x0=x0, **options,
        )
    else:
        report = _solve_conic(formulation, spec, t_tol, max_iter, time_limit, verbose, options)
    wall = time.perf_counter() - t0
    return _with(report, wall_time=wall)


def _with(report: SolveReport, **changes: Any) -> SolveReport:
    from dataclasses import replace

    return replace(report, **changes)


_CVXPY_STATUS = {
    cp.OPTIMAL: Status.OPTIMAL,
    cp.OPTIMAL_INACCURATE: Status.OPTIMAL_INACCURATE,
    cp.INFEASIBLE: Status.INFEASIBLE,
    cp.INFEASIBLE_INACCURATE: Status.INFEASIBLE,
    cp.UNBOUNDED: Status.UNBOUNDED,
    cp.UNBOUNDED_INACCURATE: Status.UNBOUNDED,
    cp.USER_LIMIT: Status.ITERATION_LIMIT,
    cp.SOLVER_ERROR: Status.ERROR,
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


def _solve_conic(
    f: Formulation,
    spec: ConicSolverSpec,
    tol: float,
    max_iter: int | None,
    time_limit: float | None,
    verbose: bool,
    options: Mapping[str, Any],
) -> SolveReport:
    kwargs = spec.settings(max(tol * spec.safety, 1e-12), max_iter, time_limit)
    kwargs.update(options)
    # The solver's raw answer, kept for its status words: cvxpy maps SCS's "indeterminate
    # at max_iters" to a SolverError and Clarabel's MaxTime to user_limit without saying
    # which limit.  unpack_results is wrapped on this instance only for this call.
    raw: dict[str, Any] = {}
    problem = f.problem
    unpack = problem.unpack_results

    def _keep_raw(solution: Any, chain: Any, inverse_data: Any) -> Any:
        raw.update(solution=solution, chain=chain, inverse_data=inverse_data)
        return unpack(solution, chain, inverse_data)

    t0 = time.perf_counter()
    forced: Status | None = None
    problem.unpack_results = _keep_raw  # type: ignore[method-assign]
    try:
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
            others = [s for s in available_solvers(f) if s != spec.name]
            return SolveReport(
                status=Status.ERROR, solver=spec.name, formulation=f.name,
                solve_time=elapsed, iterations=iters, tol=tol, params=f.param_values(),
                message=f"{spec.name} failed ({type(exc).__name__}): {exc} "
                        f"Try another solver: {others}",
            )
    finally:
        problem.__dict__.pop("unpack_results", None)
    elapsed = time.perf_counter() - t0
    stats = f.problem.solver_stats
    status = _CVXPY_STATUS.get(f.problem.status, Status.ERROR)
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
        message = ""
        if status is Status.INFEASIBLE:
            message = "the problem is infeasible"
        elif status is Status.UNBOUNDED:
            message = "the problem is unbounded"
        elif status is Status.ERROR:
            message = f"{spec.name} returned status '{f.problem.status}'"
        hint = f.hints.get(status.value)
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
    return certified_report(
        f, point, solver=spec.name, status=status, tol=tol, solve_time=float(solve_time),
        iterations=iters, solver_stats=solver_stats,
    )


def certified_report(
    f: Formulation,
    point: Mapping[str, np.ndarray],
    *,
    solver: str,
    status: Status,
    tol: float,
    solve_time: float,
    iterations: int | None = None,
    history: Sequence[Sequence[float]] = (),
    solver_stats: Mapping[str, Any] | None = None,
    message: str = "",
) -> SolveReport:
    """Certify ``point`` with the formulation's certificate and build the report.

    ``status=OPTIMAL`` is kept only when the certified relative gap is at most ``tol``;
    otherwise it becomes ``OPTIMAL_INACCURATE`` and the message says why.  A status the
    certificate proves from the data (``Certificate.proven``, e.g. unbounded by a theorem)
    replaces a solver's "optimal" or "optimal_inaccurate".  Every solver,
    conic or custom, goes through here; ``tol`` is also handed to the certificate
    (:meth:`Formulation.certificate`), which may use it to skip refinements it does not
    need.
    """
    cert = f.certificate(point, tol=tol)
    rel = cert.rel_gap
    notes = [m for m in (message, cert.note) if m]
    if cert.proven is not None and status in (Status.OPTIMAL, Status.OPTIMAL_INACCURATE):
        notes.append(f"{solver} said {status.value}; the certificate proves {cert.proven.value}")
        status = cert.proven
    if status is Status.OPTIMAL and not rel <= tol:
        status = Status.OPTIMAL_INACCURATE
        notes.append(f"certified relative gap {rel:.3g} exceeds tol {tol:.3g}")
    return SolveReport(
        status=status,
        solver=solver,
        formulation=f.name,
        primal_value=float(cert.primal_value),
        dual_value=float(cert.dual_value),
        gap=float(cert.gap),
        rel_gap=float(rel),
        solve_time=float(solve_time),
        iterations=iterations,
        x={k: np.asarray(v) for k, v in cert.point.items()},
        history=tuple(tuple(float(v) for v in h) for h in history),
        tol=tol,
        params=f.param_values(),
        residuals=dict(cert.residuals),
        solver_stats=dict(solver_stats or {}),
        message="; ".join(notes),
    )


def compare(
    formulation: Formulation,
    solvers: Sequence[str] | None = None,
    *,
    tol: float | None = None,
    max_iter: int | None = None,
    time_limit: float | None = None,
    progress: Callable[[str, SolveReport | None], None] | None = None,
    **options: Any,
) -> ReportTable:
    """Solve one formulation with several solvers; one report per solver, in order.

    ``solvers`` defaults to every applicable one (:func:`available_solvers`).  Names are
    all resolved before anything is solved, so a typo fails at once.  ``progress`` is
    called with ``(name, None)`` before each solve and ``(name, report)`` after it.
    """
    _check_formulation(formulation)
    names = available_solvers(formulation) if solvers is None else list(solvers)
    if isinstance(solvers, str):
        raise InvalidTypeError("solvers", "expected a list of names, e.g. ['clarabel', 'smo']")
    for name in names:
        _resolve(formulation, name)
    reports = []
    for name in names:
        if progress is not None:
            progress(name, None)
        r = solve(formulation, name, tol=tol, max_iter=max_iter, time_limit=time_limit,
                  **options)
        reports.append(r)
        if progress is not None:
            progress(name, r)
    return ReportTable(reports)


def path(
    formulation: Formulation,
    param: str,
    values: Iterable[float],
    solver: str | None = None,
    *,
    tol: float | None = None,
    warm_start: bool = True,
    **kwargs: Any,
) -> ReportTable:
    """Re-solve a built formulation over a grid of one parameter, without rebuilding.

    The parameter is a ``cvxpy.Parameter`` of a DPP problem, so cvxpy reuses its
    compiled form; custom algorithms that accept a warm start get the previous point.
    The parameter is left at its last value.  Returns one report per grid value, with the
    value in ``report.params[param]`` and in the printed table.
    """
    _check_formulation(formulation)
    if param not in formulation.parameters:
        raise InvalidInputError(
            "param", f"{formulation.name} has no parameter '{param}' "
                     f"(it has {sorted(formulation.parameters)})"
        )
    grid = [float(v) for v in values]
    if not grid:
        raise InvalidInputError("values", "the grid is empty")
    spec = _resolve(formulation, solver)
    reports: list[SolveReport] = []
    x0 = None
    for v in grid:
        formulation.set_params(**{param: v})
        r = solve(formulation, spec.name, tol=tol, x0=x0, **kwargs)
        reports.append(r)
        if warm_start and isinstance(spec, CustomSolverSpec) and spec.warm_start and r.x:
            x0 = dict(r.x)
    return ReportTable(reports, extra_columns=(param,))
