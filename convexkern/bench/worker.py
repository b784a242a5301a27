"""One (problem, solver) pair in its own process, under a hard time limit.

:func:`supervise` starts a child process (``forkserver`` on Linux, with convexkern and cvxpy
preloaded, so a child starts in milliseconds; ``spawn`` elsewhere), lets it build the
problem (bounded by ``setup_limit``), then gives the solve ``limit + grace`` seconds of wall
time before killing it.  The child reports its peak resident set size
(``resource.getrusage(RUSAGE_SELF).ru_maxrss``, which includes the interpreter and the
libraries: ``base_rss_mb`` is the same figure before the problem is built).

:func:`run_pair` and :func:`plan_problem` are what the runner sends to a backend (joblib's
loky workers or a Dask cluster); each returns a plain dict.
"""

from __future__ import annotations

import math
import multiprocessing as mp
import sys
import time
import traceback
from collections.abc import Callable, Mapping
from typing import Any

from ..report import Status
from .problems import build
from .suite import Problem

__all__ = ["supervise", "run_pair", "plan_problem", "empty_row", "GRACE"]

#: extra wall time past the limit before the child is killed: a solver told the limit stops
#: itself and its point is still certified (the certificate runs after the solver)
GRACE = (2.0, 0.25)  # max(2 s, 25 % of the limit)


def _rss_mb() -> float:
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX
        return math.nan
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kb / (1024.0 * 1024.0) if sys.platform == "darwin" else kb / 1024.0


#: imported once by the fork server, so that every child starts with them loaded
_PRELOAD = ("convexkern.bench.worker", "convexkern.solvers", "convexkern.specs",
            "convexkern.kernels", "convexkern.data", "sklearn.model_selection")


def _context() -> Any:
    if "forkserver" in mp.get_all_start_methods():
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(list(_PRELOAD))
        return ctx
    return mp.get_context("spawn")  # pragma: no cover - not Linux


def _trampoline(conn: Any, fn: Callable[..., Any], args: tuple, marks: bool) -> None:
    """The child: run ``fn(*args)`` and send ``("done", value)`` or ``("error", ...)``.
    ``marks``: ``fn`` takes ``mark=``, called when its timed part starts; otherwise the
    clock starts at once."""
    try:
        if marks:
            out = fn(*args, mark=lambda: conn.send(("mark", None)))
        else:
            conn.send(("mark", None))
            out = fn(*args)
        conn.send(("done", out))
    except BaseException as exc:  # noqa: BLE001 - everything goes back to the parent
        field = getattr(exc, "field", None)
        conn.send(("error", {"type": type(exc).__name__, "field": field, "message": str(exc),
                             "traceback": traceback.format_exc(limit=6)}))
    finally:
        conn.close()


def _start(proc: Any) -> None:
    """Start ``proc``, also from a daemonic process (a Dask worker under its nanny is one).

    multiprocessing refuses children of a daemonic process so that none outlives it; this
    one cannot outlive its supervisor's ``finally`` (kill and join), and if the supervisor
    itself is killed, the solve still stops at its own time limit.
    """
    config = mp.current_process()._config  # noqa: SLF001 - the flag start() checks
    daemon = config.get("daemon")
    if daemon:
        config["daemon"] = False
    try:
        proc.start()
    finally:
        if daemon:
            config["daemon"] = daemon


#: the longest single wait on the child, in seconds: a poll's timeout is converted to
#: milliseconds in a C int (about 24.8 days), which a long time limit times the setup
#: factor would overflow
_POLL_MAX = 3600.0


def supervise(fn: Callable[..., Any], args: tuple, *, limit: float,
              setup_limit: float = 600.0, marks: bool = False,
              grace: float | None = None) -> tuple[str, Any, float]:
    """Run ``fn(*args)`` in a child process with a hard wall-time limit.

    Returns ``(outcome, value, seconds)``: ``("done", fn's value, t)``, ``("error", info,
    t)`` (an exception in the child, or the child died: info has ``type`` and ``message``),
    or ``("time_limit", None, t)`` when the child was killed after ``limit + grace``
    seconds from its mark (``setup_limit`` bounds the time before the mark); ``grace``
    defaults to ``max(2 s, 25 % of limit)`` (:data:`GRACE`).
    """
    ctx = _context()
    recv, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_trampoline, args=(send, fn, args, marks))
    _start(proc)
    send.close()
    if grace is None:
        grace = max(GRACE[0], GRACE[1] * limit)
    t0 = time.perf_counter()
    started: float | None = None
    try:
        while True:
            budget = (setup_limit - (time.perf_counter() - t0) if started is None
                      else limit + grace - (time.perf_counter() - started))
            if budget <= 0:
                return "time_limit", None, time.perf_counter() - (started or t0)
            if not recv.poll(min(budget, _POLL_MAX)):
                continue  # the budget is measured again: a long one is waited in slices
            try:
                kind, value = recv.recv()
            except EOFError:  # the child died without a word (killed, out of memory)
                proc.join(5)
                return "error", {"type": "WorkerDied", "field": None,
                                 "message": f"worker exited with code {proc.exitcode}"}, \
                    time.perf_counter() - (started or t0)
            if kind == "mark":
                started = time.perf_counter()
                continue
            return kind, value, time.perf_counter() - (started or t0)
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join(5)
        recv.close()


# ---------------------------------------------------------------------------------------
# the child's work
# ---------------------------------------------------------------------------------------


def _limit_threads(threads: int | None) -> Any:
    if not threads:
        return None
    from threadpoolctl import threadpool_limits

    return threadpool_limits(threads)


def _plan_child(problem: Problem, solvers: tuple[str, ...] | None) -> dict[str, Any]:
    from ..solvers import available_solvers
    from ..solvers.dispatch import largest_psd_side
    from ..solvers.table import CONIC

    f, n = build(problem)
    usable = available_solvers(f)
    side = largest_psd_side(f)
    wanted = list(solvers) if solvers else usable
    run, skipped = [], {}
    for s in wanted:
        if s not in usable:
            continue  # cannot take this formulation: not a pair of the benchmark
        spec = CONIC.get(s)
        if spec is not None and spec.max_psd_side is not None and side > spec.max_psd_side:
            skipped[s] = (f"a {side} x {side} PSD cone is beyond {s}'s reach "
                          f"({spec.max_psd_side}, as in ck.compare)")
        else:
            run.append(s)
    return {"formulation": f.name, "kind": f.kind, "variant": f.variant, "n": n,
            "solvers": run, "skipped": skipped}


def _pair_child(problem: Problem, solver: str, tol: float, time_limit: float,
                threads: int | None, mark: Callable[[], None]) -> dict[str, Any]:
    from ..solvers import solve

    base = _rss_mb()
    _limit_threads(threads)
    f, _ = build(problem)
    mark()
    r = solve(f, solver, tol=tol, time_limit=time_limit)
    return {"status": r.status.value, "rel_gap": r.rel_gap, "gap": r.gap,
            "primal_value": r.primal_value, "dual_value": r.dual_value,
            "time": r.wall_time, "solve_time": r.solve_time, "iterations": r.iterations,
            "peak_rss_mb": _rss_mb(), "base_rss_mb": base, "message": r.message,
            "sense": f.sense}


def empty_row(key: str, status: str, **values: Any) -> dict[str, Any]:
    """A result row with every field (no solution): what a failed or skipped pair records."""
    row: dict[str, Any] = {"key": key, "status": status, "solver_status": "",
                           "rel_gap": math.inf, "gap": math.inf, "primal_value": math.nan,
                           "dual_value": math.nan, "time": math.nan, "solve_time": math.nan,
                           "iterations": None, "peak_rss_mb": math.nan,
                           "base_rss_mb": math.nan, "message": ""}
    row.update(values)
    return row


def plan_problem(task: Mapping[str, Any]) -> dict[str, Any]:
    """Build the problem in a child and list the solvers that take it."""
    kind, value, _ = supervise(_plan_child, (task["problem"], task["solvers"]),
                               limit=task["setup_limit"], setup_limit=task["setup_limit"])
    out = {"key": task["key"], "outcome": kind}
    if kind == "done":
        out.update(value)
    elif kind == "error":
        out["error"] = value
    return out


def run_pair(task: Mapping[str, Any]) -> dict[str, Any]:
    """One (problem, solver) pair: a row of the results (see :mod:`convexkern.bench`)."""
    limit = float(task["time_limit"])
    kind, value, seconds = supervise(
        _pair_child, (task["problem"], task["solver"], task["tol"], limit,
                      task.get("threads")),
        limit=limit, setup_limit=task["setup_limit"], marks=True)
    row = empty_row(task["key"], Status.ERROR.value, time=seconds)
    if kind == "done":
        row.update(value)
        row["solver_status"] = value["status"]
        if value["time"] > limit:  # over the limit: never an optimum
            row["status"] = Status.TIME_LIMIT.value
            row["message"] = (f"took {value['time']:.3g} s > time limit {limit:g} s "
                              f"(solver said {value['status']}) " + row["message"]).strip()
    elif kind == "time_limit":
        row["status"] = Status.TIME_LIMIT.value
        row["message"] = f"killed after {seconds:.3g} s (hard limit {limit:g} s + grace)"
    else:
        row["message"] = f"{value['type']}: {value['message']}"
    problem = task["problem"]
    if getattr(problem, "expect", "optimal") != "optimal":
        row["expect"] = problem.expect
    if getattr(problem, "optimum", None) is not None:
        row["optimum"] = problem.optimum
        row["bracket_holds"] = bracket_holds(row["primal_value"], row["dual_value"],
                                             problem.optimum, problem.slack,
                                             row.get("sense", "minimize"))
    return row


def bracket_holds(primal: float, dual: float, optimum: float, slack: float,
                  sense: str = "minimize") -> bool | None:
    """Whether a report's certified bracket holds a published optimum, each finite side on
    its own within ``slack`` (minimising, ``dual <= optimum <= primal``; maximising the
    other way round); ``None`` when neither side is finite."""
    def finite(v: Any) -> bool:
        return isinstance(v, (int, float)) and math.isfinite(v)

    if not (finite(primal) or finite(dual)):
        return None
    lo, hi = (dual, primal) if sense == "minimize" else (primal, dual)
    ok_lo = not finite(lo) or lo <= optimum + slack
    ok_hi = not finite(hi) or hi >= optimum - slack
    return bool(ok_lo and ok_hi)
