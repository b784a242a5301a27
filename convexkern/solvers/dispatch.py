"""Dispatch: :func:`solve`, :func:`compare`, :func:`path` and the questions about the table.

A request resolves a solver name against the table (:mod:`convexkern.solvers.table`),
checks the controls and the formulation's Parameters, then runs either the conic path
(:func:`convexkern.solvers.conic.solve_conic`) or the algorithm's adapter, imported at this
moment.  Both end in :mod:`convexkern.solvers.outcome`, where every report is made.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import cvxpy as cp
import numpy as np

from .._validation import check_matrix, check_open_unit
from ..errors import ConvexkernError, InvalidInputError, InvalidTypeError, SolverNotFoundError
from ..formulation import Formulation
from ..math.budget import GRACE, deadline, grace_past, report_tail, time_left
from ..report import ReportTable, SolveReport, Status
from .conic import solve_conic
from .outcome import TOLERANCE, judged, pointless_report, unproved_past_deadline
from .plugins import load_solver_plugins, plugin_failure, plugin_source
from .table import ALGORITHMS, CONIC, AlgorithmSpec, ConicSolverSpec

__all__ = [
    "available_solvers",
    "installed_solvers",
    "solver_info",
    "solve",
    "compare",
    "path",
]


def installed_solvers() -> list[str]:
    """Names of every usable solver: installed conic ones, then every custom one (with
    those of installed plugins, :mod:`convexkern.solvers.plugins`)."""
    load_solver_plugins()
    return [s.name for s in CONIC.values() if s.installed] + list(ALGORITHMS)


def solver_info() -> list[dict[str, Any]]:
    """One row per known solver: name, kind, installed, what it solves, install hint."""
    load_solver_plugins()
    rows = []
    for s in CONIC.values():
        rows.append({
            "name": s.name, "kind": "conic (cvxpy)", "installed": s.installed,
            "solves": ",".join(sorted(s.cones)), "default_tol": s.default_tol,
            "install": "" if s.installed else s.install,
        })
    for c in ALGORITHMS.values():
        source = plugin_source(c.name)
        rows.append({
            "name": c.name, "kind": f"plugin ({source})" if source else "built-in",
            "installed": True,
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
    load_solver_plugins()
    cls = f.cone_class
    names = [s.name for s in CONIC.values() if s.installed and cls in s.cones]
    names += [c.name for c in ALGORITHMS.values() if c.key_for(f.kind, f.variant)]
    if f.default_solver in names:
        names.remove(f.default_solver)
        names.insert(0, f.default_solver)
    return names


def _check_formulation(f: Any) -> None:
    if not isinstance(f, Formulation):
        raise InvalidTypeError(
            "formulation", f"expected a convexkern Formulation, got {type(f).__name__}"
        )


def _resolve(f: Formulation, solver: str | None) -> ConicSolverSpec | AlgorithmSpec:
    name = (f.default_solver if solver is None else solver)
    if not isinstance(name, str):
        raise InvalidTypeError("solver", f"expected a solver name, got {name!r}")
    key = name.lower()
    if key not in ALGORITHMS and key not in CONIC:
        load_solver_plugins(key)  # an installed package's solver of that name, read now
    if key in ALGORITHMS and ALGORITHMS[key].key_for(f.kind, f.variant):
        # before anything reads f.cone_class: a lazily built cvxpy problem stays unbuilt
        return ALGORITHMS[key]
    if key in CONIC:
        spec = CONIC[key]
        if not spec.installed:
            raise SolverNotFoundError(
                f"solver '{key}' is not installed ({spec.install}); "
                f"installed solvers for {f.name}: {available_solvers(f)}"
            )
        if f.cone_class not in spec.cones:
            raise SolverNotFoundError(
                f"solver '{key}' does not handle {f.cone_class} problems such as {f.name}; "
                f"use one of {available_solvers(f)}"
            )
        return spec
    if key in ALGORITHMS:
        raise SolverNotFoundError(
            f"solver '{key}' solves {sorted(ALGORITHMS[key].kinds)}, not "
            f"{f.kind}{f'[{f.variant}]' if f.variant else ''}; "
            f"use one of {available_solvers(f)}"
        )
    why = plugin_failure(key)
    raise SolverNotFoundError(f"unknown solver '{name}'{f' ({why})' if why else ''}; "
                              f"solvers for {f.name}: {available_solvers(f)}")


def _check_controls(tol: Any, max_iter: Any, time_limit: Any) -> None:
    if tol is not None and check_open_unit(tol, "tol") < TOLERANCE.tol_floor:
        raise InvalidInputError(
            "tol", f"must be >= {TOLERANCE.tol_floor:g}: a relative gap of {tol!r} is below what a "
                   "certificate computed in double precision can prove")
    if max_iter is not None and (
        isinstance(max_iter, (bool, np.bool_)) or not isinstance(max_iter, (int, np.integer))
        or not 1 <= max_iter <= _MAX_ITER
    ):
        raise InvalidInputError(
            "max_iter", f"must be a positive integer of at most {_MAX_ITER} (the solvers "
                        f"count in 32-bit integers), got {max_iter!r}")
    if time_limit is not None and (
        isinstance(time_limit, (bool, np.bool_))
        or not isinstance(time_limit, (int, float, np.integer, np.floating))
        or not time_limit > 0
    ):
        raise InvalidInputError("time_limit", f"must be a positive number, got {time_limit!r}")


#: the largest ``max_iter``: the solvers' iteration counters are 32-bit integers
_MAX_ITER = 2**31 - 1


def _raised_outside(exc: BaseException) -> bool:
    """Whether ``exc`` was raised outside this package (by a solver or cvxpy): the frame
    it was raised in is not one of convexkern's."""
    tb = exc.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return not os.path.abspath(tb.tb_frame.f_code.co_filename).startswith(here + os.sep)


def _check_x0(f: Formulation, x0: Any) -> None:
    """A warm start is a mapping of names to arrays; an entry named as a variable of ``f``
    has that variable's size (named ``x0['alpha']`` in the error, not the data it meets
    later)."""
    if x0 is None:
        return
    if not isinstance(x0, Mapping):
        raise InvalidTypeError("x0", f"expected a dict of arrays by name, got {type(x0).__name__}")
    for name, value in x0.items():
        var = f.variables.get(name)
        if var is None:
            continue
        arr = check_matrix(value, f"x0['{name}']", ndim=np.ndim(value), allow_empty=True)
        if arr.size != var.size:
            raise InvalidInputError(
                f"x0['{name}']", f"has {arr.size} entries, {f.name}'s {name} has {var.size}")


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
        ``tol / 10`` as their accuracy settings (ECOS: ``tol * 1e-5``, see its table
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
    started = time.perf_counter()  # time_limit counts from here (the checks below read
    # the problem's tree: 0.2-0.6 s on 20,000 constraints written in a loop)
    _check_formulation(formulation)
    _check_controls(tol, max_iter, time_limit)
    if not isinstance(verbose, (bool, np.bool_)):
        raise InvalidInputError("verbose", f"expected True or False, got {verbose!r}")
    _check_x0(formulation, x0)
    spec = _resolve(formulation, solver)
    # every Parameter checked before any solver runs (a value set on the cvxpy Parameter
    # directly, e.g. C = 0 on a pos=True Parameter, which cvxpy accepts): all solvers,
    # conic or custom, refuse it with the same error naming it
    formulation.check_params()
    t_tol = spec.default_tol if tol is None else float(tol)
    t0 = time.perf_counter()
    try:
        if isinstance(spec, AlgorithmSpec):
            report = _run_algorithm(spec, formulation, started=started, tol=t_tol,
                                    max_iter=max_iter, time_limit=time_limit,
                                    verbose=verbose, x0=x0, options=options)
        else:
            report = solve_conic(formulation, spec, tol=t_tol, max_iter=max_iter,
                                 time_limit=time_limit, verbose=verbose, options=options,
                                 started=started)
            if report.status is Status.ERROR:
                others = [s for s in available_solvers(formulation) if s != spec.name]
                report = replace(report, message=f"{report.message}. Try another solver: "
                                                 f"{others}")
    except TypeError as exc:
        bad = [k for k in options if k in str(exc)]
        if isinstance(exc, ConvexkernError) or not options:
            raise  # a library error names its own
        if bad:
            raise InvalidInputError(
                "options", f"{spec.name} does not take {sorted(bad)} ({exc})") from None
        if not _raised_outside(exc):
            raise  # one of the library's own, naming no option: a bug, not the caller's
        # a solver's own type check that names no option ("must be real number, not
        # str"): one of those given is of the wrong type
        raise InvalidInputError(
            "options", f"{spec.name} refused the type of one of {sorted(options)} "
                       f"({type(exc).__name__}: {exc})") from None
    except ValueError as exc:
        # an option value the solver refuses with a plain ValueError that names it
        # ("eig must be 'rank_one' or 'full', got 'x'"): a library error naming it
        bad = [k for k in options if str(exc).startswith((f"{k} ", f"{k}:", f"{k}="))]
        if isinstance(exc, ConvexkernError) or len(bad) != 1:
            raise
        raise InvalidInputError(bad[0], f"{spec.name}: {exc}") from None
    except Exception as exc:
        # a solver's refusal of its settings as a bare Exception (Clarabel: "Bad settings:
        # Bad value for field ...")
        if type(exc) is not Exception or not options or not _raised_outside(exc):
            raise
        raise InvalidInputError(
            "options", f"{spec.name} refused its settings {sorted(options)} ({exc})") from None
    wall = time.perf_counter() - t0
    return replace(judged(formulation, report), wall_time=wall)


def _run_algorithm(spec: AlgorithmSpec, f: Formulation, *, started: float, tol: float,
                   max_iter: int | None, time_limit: float | None, verbose: bool,
                   x0: Mapping[str, np.ndarray] | None,
                   options: Mapping[str, Any]) -> SolveReport:
    """A custom algorithm's adapter.  Under ``time_limit`` its iterations and its final
    certificate work to the call's deadline, less the report's tail
    (:func:`~convexkern.math.budget.report_tail`), as a conic solve does: the adapter is
    given what is left of ``T`` after the checks, and the certificate reads the deadline
    (:func:`~convexkern.math.budget.time_left`) to bound its optional work.  (Counted from
    the adapter's own start, SDPM's methods ended at 1.2-1.7 T under ``T = 0.1``.)  The
    deadline's grace is the tail and :data:`~convexkern.math.budget.GRACE` of ``T``: a
    formulation's certificate begun within it ends by ``T + 5 %`` (those of milliseconds;
    a costly one is kept out of the iterations' limit by its method), and none is begun
    past it (:func:`~convexkern.solvers.outcome.certified_report`).  A call nested in
    another's (SMO on a Kreĭn formulation solves an SVM through ``ck.solve``) keeps the
    outer deadline and its grace instead of taking a second tail off it; one nested
    without a limit runs without one, its certificate included."""
    adapter = spec.adapter(f.kind, f.variant)
    if time_limit is None or not math.isfinite(time_limit):
        # no limit (an infinite one is no limit either), even nested in a timed call: the
        # outer deadline is lifted and its certificate is not skipped
        with deadline(None), unproved_past_deadline(False):
            return adapter(f, tol=tol, max_iter=max_iter, time_limit=time_limit,
                           verbose=verbose, x0=x0, **options)
    limit = float(time_limit)
    outer = time_left()
    if outer is None:
        end, grace = started + limit - report_tail(limit), report_tail(limit) + GRACE * limit
    else:  # nested: the outer deadline and its grace
        end, grace = min(time.perf_counter() + outer, started + limit), grace_past()
    with deadline(end, grace), unproved_past_deadline():
        # never 0 or less, which an algorithm refuses (the checks may have taken it all;
        # its first limit check then stops it)
        left = max(end - time.perf_counter(), 1e-6)
        return adapter(f, tol=tol, max_iter=max_iter, time_limit=left, verbose=verbose,
                       x0=x0, **options)


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

    ``solvers`` defaults to every applicable one (:func:`available_solvers`), except a
    conic solver on a PSD cone beyond its default reach (``ConicSolverSpec.max_psd_side``:
    Clarabel's dense factorisation of a 151 x 151 cone takes minutes), whose row has status
    ``skipped`` and says why; naming a solver always runs it.  Names are
    all resolved before anything is solved, so a typo fails at once.  ``progress`` is
    called with ``(name, None)`` before each solve and ``(name, report)`` after it.
    """
    _check_formulation(formulation)
    if solvers is not None and (isinstance(solvers, str) or not isinstance(solvers, Iterable)):
        raise InvalidTypeError("solvers", "expected a list of names, e.g. ['clarabel', 'smo'], "
                                          f"got {solvers!r}")
    names = available_solvers(formulation) if solvers is None else list(solvers)
    if solvers is not None:
        if not names:
            raise InvalidInputError("solvers", "is empty: name at least one solver, or "
                                               "pass None for every applicable one")
        odd = [n for n in names if not isinstance(n, str)]
        if odd:
            raise InvalidTypeError("solvers", f"expected solver names, got {odd[0]!r} "
                                              f"among {names!r}")
    for name in names:
        _resolve(formulation, name)
    side = largest_psd_side(formulation) if solvers is None else 0
    reports = []
    for name in names:
        if progress is not None:
            progress(name, None)
        spec = CONIC.get(name.lower())
        if spec is not None and spec.max_psd_side is not None and side > spec.max_psd_side:
            r = pointless_report(
                formulation, solver=spec.name, status=Status.SKIPPED, tol=tol,
                message=f"not run by default: a {side} x {side} PSD cone is beyond "
                        f"{spec.name}'s default reach ({spec.max_psd_side}; its work grows "
                        f"as the side^6); name it in solvers=[...] to run it")
        else:
            r = solve(formulation, name, tol=tol, max_iter=max_iter, time_limit=time_limit,
                      **options)
        reports.append(r)
        if progress is not None:
            progress(name, r)
    return ReportTable(reports)


def largest_psd_side(f: Formulation) -> int:
    """The side of the largest PSD constraint of ``f``'s cvxpy problem (0: none)."""
    sides = [int(c.args[0].shape[0]) for c in f.problem.constraints
             if isinstance(c, cp.constraints.PSD) and c.args[0].ndim == 2]
    return max(sides, default=0)


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
    compiled form; custom algorithms that accept a warm start get the previous point
    (``x0=...`` in ``kwargs`` is the first one's).
    The parameter is left at its last value.  Returns one report per grid value, with the
    value in ``report.params[param]`` and in the printed table.
    """
    _check_formulation(formulation)
    if not isinstance(param, str):
        raise InvalidTypeError("param", f"expected a parameter's name, got {param!r}")
    if param not in formulation.parameters:
        raise InvalidInputError(
            "param", f"{formulation.name} has no parameter '{param}' "
                     f"(it has {sorted(formulation.parameters)})"
        )
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise InvalidTypeError("values", f"expected a sequence of numbers, got {values!r}")
    grid = [float(v) for v in check_matrix(list(values), "values", ndim=1)]
    spec = _resolve(formulation, solver)
    reports: list[SolveReport] = []
    x0 = kwargs.pop("x0", None)  # the first solve's warm start; then each previous point
    for v in grid:
        formulation.set_params(**{param: v})
        r = solve(formulation, spec.name, tol=tol, x0=x0, **kwargs)
        reports.append(r)
        if warm_start and isinstance(spec, AlgorithmSpec) and spec.warm_start and r.x:
            x0 = dict(r.x)
    return ReportTable(reports, extra_columns=(param,))
