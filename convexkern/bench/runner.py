"""Running a suite: plan each problem (which solvers take it), run every (problem, solver)
pair in its own process, cache each result on disk as it arrives, write the report.

Backends: ``"loky"`` (joblib's process pool, ``n_jobs`` workers; with one job the pairs
run one after the other) and ``"dask"`` (``dask.distributed``: an existing cluster at
``scheduler``, otherwise a ``LocalCluster`` of ``n_jobs`` workers).  Either way a worker
only supervises: the solve runs in a child process it starts, killed past the time limit.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InvalidInputError, SpecError
from ..reproduce.harness import code_version, dask_client
from .environment import environment
from .metrics import is_success
from .report import write_report
from .suite import Suite, load_suite
from .suite import _time_limit as suite_time_limit
from .suite import _tol as suite_tol
from .worker import empty_row, plan_problem, run_pair

__all__ = ["BenchResult", "run_suite", "code_version", "BACKENDS"]

BACKENDS = ("loky", "dask")


@dataclass
class BenchResult:
    """What :func:`run_suite` returns: the rows (one per pair) and the files written."""

    suite: Suite
    rows: list[dict[str, Any]]
    files: dict[str, Path] = field(default_factory=dict)
    solved_now: int = 0
    from_cache: int = 0


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _text(v: Any) -> bool:
    return isinstance(v, str)


def _names(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(n, str) for n in v)


#: every field of a cached pair result and problem plan that the runner and the report
#: read, with its check: an entry missing one, or of another type, is corrupt (warned
#: about and run again), never a traceback in the report.  Numbers may be NaN or inf
#: (Python's JSON reads them back); ``iterations`` may be null.
_RESULT_KEYS: Mapping[str, Callable[[Any], bool]] = {
    "status": _text, "solver_status": _text, "message": _text, "time": _number,
    "rel_gap": _number, "gap": _number, "primal_value": _number, "dual_value": _number,
    "solve_time": _number, "peak_rss_mb": _number, "base_rss_mb": _number,
    "iterations": lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool)),
}
_PLAN_KEYS: Mapping[str, Callable[[Any], bool]] = {
    "solvers": _names, "kind": _text, "formulation": _text,
    "variant": lambda v: v is None or isinstance(v, str),
    "n": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "skipped": lambda v: isinstance(v, dict) and all(isinstance(m, str) for m in v.values()),
}


class _Cache:
    """One JSON file per key under ``out_dir/.cache`` (written atomically).  The folder is
    made by the first :meth:`put`: a run refused before any result leaves nothing."""

    def __init__(self, root: Path, enabled: bool) -> None:
        self.root, self.enabled = root, enabled

    def _path(self, key: str) -> Path:
        return self.root / f"{key}.json"

    def get(self, key: str, required: Mapping[str, Callable[[Any], bool]]
            ) -> dict[str, Any] | None:
        """The cached value of ``key`` when it is a dict whose every ``required`` field
        passes its check; a corrupt entry (torn, or JSON that is not such a value) warns
        and is run again."""
        if not self.enabled or not self._path(key).is_file():
            return None
        try:
            value = json.loads(self._path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):  # a torn file from an interrupted run: run it again
            value = None
        bad = ([k for k, ok in required.items() if k not in value or not ok(value[k])]
               if isinstance(value, dict) else ["(not a JSON object)"])
        if bad:
            warnings.warn(f"cache entry {self._path(key)} is not a result (bad "
                          f"{', '.join(bad[:3])}): run again", RuntimeWarning, stacklevel=2)
            return None
        return value

    def put(self, key: str, value: Mapping[str, Any]) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        tmp = self._path(key).with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(json.dumps(value, default=_json_default), encoding="utf-8")
        os.replace(tmp, self._path(key))


def _json_default(v: Any) -> Any:
    if hasattr(v, "item"):
        return v.item()
    return str(v)


def _digest(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, default=str).encode()).hexdigest()[:24]


def _execute(fn: Callable[[Any], dict[str, Any]], tasks: Sequence[Any], *, n_jobs: int,
             backend: str, client: Any) -> Iterator[dict[str, Any]]:
    """``fn(task)`` for every task, yielded as each finishes (in any order)."""
    if not tasks:
        return
    if backend == "dask":
        from dask.distributed import as_completed

        futures = client.map(fn, list(tasks), pure=False)
        for fut in as_completed(futures):
            yield fut.result()
        return
    if n_jobs == 1 or len(tasks) == 1:
        for t in tasks:
            yield fn(t)
        return
    from joblib import Parallel, delayed

    # no more workers than tasks: each idle one is a process (and semaphores) for nothing
    yield from Parallel(n_jobs=min(n_jobs, len(tasks)), backend="loky",
                        return_as="generator_unordered")(delayed(fn)(t) for t in tasks)


def run_suite(
    suite: str | os.PathLike[str] | Mapping[str, Any] | Suite,
    *,
    solvers: Sequence[str] | None = None,
    tol: float | None = None,
    time_limit: float | None = None,
    out_dir: str | os.PathLike[str] = "bench-results",
    n_jobs: int = 1,
    backend: str = "loky",
    scheduler: str | None = None,
    cluster_kwargs: Mapping[str, Any] | None = None,
    use_cache: bool = True,
    progress: Callable[[str], None] | None = None,
    repeat: int = 1,
) -> BenchResult:
    """Run a benchmark suite and write ``out_dir/<suite>/`` (report.md, results.csv,
    results.json, profile PNGs); results are cached in ``out_dir/<suite>/.cache`` by
    (problem, solver, tol, time limit, code version), so a rerun resumes.

    ``solvers`` replaces the suite's list (a pair a solver cannot take is left out);
    ``tol`` and ``time_limit`` replace the suite's.  ``repeat`` runs every pair that many
    times (each in a fresh worker): a row's ``time`` is then the median, ``time_min`` and
    ``time_max`` the range; its status, bracket and the rest are the first run's.
    """
    s = suite if isinstance(suite, Suite) else load_suite(suite)
    if backend not in BACKENDS:
        raise InvalidInputError("backend", f"expected one of {BACKENDS}, got {backend!r}")
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or n_jobs < 1:
        raise InvalidInputError("n_jobs", f"must be a positive integer, got {n_jobs!r}")
    if isinstance(repeat, bool) or not isinstance(repeat, int) or repeat < 1:
        raise InvalidInputError("repeat", f"must be a positive integer, got {repeat!r}")
    if scheduler is not None and backend != "dask":
        raise InvalidInputError("scheduler", "applies to backend='dask' only")
    if solvers is not None:
        from ..solvers import installed_solvers

        if isinstance(solvers, str) or not all(isinstance(n, str) for n in solvers):
            raise InvalidInputError("solvers", f"expected a list of names, got {solvers!r}")
        missing = [n for n in solvers if n.lower() not in installed_solvers()]
        if missing:
            raise InvalidInputError("solvers", f"{missing} not installed solvers; installed: "
                                               f"{', '.join(installed_solvers())}")
        solvers = [n.lower() for n in solvers]
    tol = s.tol if tol is None else _checked(tol, "tol", suite_tol)
    limit = s.time_limit if time_limit is None else _checked(time_limit, "time_limit",
                                                             suite_time_limit)
    say = progress or (lambda msg: None)
    for p in s.problems:  # public files fetched on first use, or their copies checked:
        if p.fetch is not None:  # here, once, before any child
            from ..data.fetched import fetch

            fetch(p.fetch, progress)  # without a progress callback: a line on stderr
    out = Path(out_dir) / s.name
    cache = _Cache(out / ".cache", use_cache)
    code = code_version()
    threads = max(1, (os.cpu_count() or 1) // n_jobs)
    setup = max(120.0, 5 * limit)
    t0 = time.perf_counter()
    with contextlib.ExitStack() as stack:
        client = None
        if backend == "dask":
            client = stack.enter_context(
                dask_client(scheduler, n_jobs, **dict(cluster_kwargs or {})))
        plans = _plans(s, solvers, cache, code, setup, n_jobs, backend, client, say)
        rows, pending, owner = [], [], {}
        for p in s.problems:
            plan = plans[p.id]
            for name in plan["solvers"] + list(plan["skipped"]):
                key = _digest("pair", p.key(), name, tol, limit, code)
                label = plan["kind"] + (f"[{plan['variant']}]" if plan["variant"] else "")
                row = {"problem": p.id, "formulation": label, "kind": plan["kind"],
                       "n": plan["n"], "solver": name, "tol": tol, "time_limit": limit,
                       "key": key}
                rows.append(row)
                if name in plan["skipped"]:
                    row.update(empty_row(key, "skipped", message=plan["skipped"][name]),
                               cached=False)
                    continue
                row["runs"] = {}
                for k in range(repeat):  # the first run keeps the key of a single run
                    rkey = key if k == 0 else _digest("pair", p.key(), name, tol, limit,
                                                      code, "repeat", k)
                    if (hit := cache.get(rkey, _RESULT_KEYS)) is not None:
                        row["runs"][k] = hit
                        if k == 0:
                            row.update(hit, cached=True)
                        continue
                    owner[rkey] = (row, k)
                    pending.append({"key": rkey, "problem": p, "solver": name, "tol": tol,
                                    "time_limit": limit, "setup_limit": setup,
                                    "threads": threads})
        say(f"{len(rows)} pairs x {repeat} run(s): {len(pending)} to run")
        done = 0
        for res in _execute(run_pair, pending, n_jobs=n_jobs, backend=backend, client=client):
            cache.put(res["key"], res)
            row, k = owner[res["key"]]
            row["runs"][k] = res
            if k == 0:
                row.update(res, cached=False)
            done += 1
            say(f"[{done}/{len(pending)}] {row['problem']} {row['solver']}: {res['status']} "
                f"in {res['time']:.3g} s")
    for r in rows:
        _summarise_runs(r)
        r["success"] = is_success(r, tol)
        r.pop("key", None)
    names = list(dict.fromkeys(r["solver"] for r in rows))
    n_cached = sum(1 for r in rows if r.get("cached"))
    meta = {"suite": s.name, "tol": tol, "time_limit": limit, "version": _version(),
            "code": code, "jobs": n_jobs, "backend": backend, "cached": n_cached,
            "elapsed": time.perf_counter() - t0, "repeat": repeat,
            "environment": environment()}
    files = write_report(rows, out_dir=out, suite=s, tol=tol, time_limit=limit,
                         solvers=names, meta=meta)
    say(f"report written to {files['report']}")
    return BenchResult(suite=s, rows=rows, files=files, solved_now=len(pending),
                       from_cache=n_cached)


def _checked(value: Any, name: str, check: Callable[[Any, str], float]) -> float:
    """An argument checked as the suite's key of that name (the same bounds: the floor of
    ``tol``, the cap of ``time_limit``), its error an :class:`InvalidInputError`."""
    try:
        return check(value, name)
    except SpecError as exc:
        raise InvalidInputError(name, str(exc).split(": ", 1)[-1]) from None


def _summarise_runs(row: dict[str, Any]) -> None:
    """A row's ``time`` as the median of its runs, with ``time_min``, ``time_max`` and
    ``repeats`` (a skipped pair: one run, no time)."""
    runs = row.pop("runs", None) or {}
    times = sorted(float(r["time"]) for r in runs.values()
                   if r.get("time") is not None and math.isfinite(float(r["time"])))
    row["repeats"] = len(runs) if runs else 0
    if times:
        row["time"] = float(np.median(times))
        row["time_min"], row["time_max"] = times[0], times[-1]
    else:
        row["time_min"] = row["time_max"] = row.get("time")


def _version() -> str:
    from .. import __version__

    return __version__


def _plans(s: Suite, solvers: Sequence[str] | None, cache: _Cache, code: str, setup: float,
           n_jobs: int, backend: str, client: Any,
           say: Callable[[str], None]) -> dict[str, dict[str, Any]]:
    """Which solvers run on each problem (built once in a child, cached)."""
    from ..solvers import installed_solvers

    installed = installed_solvers()  # a newly installed solver joins the plan
    plans: dict[str, dict[str, Any]] = {}
    tasks = []
    for p in s.problems:
        wanted = tuple(solvers) if solvers else (p.solvers or s.solvers)
        key = _digest("plan", p.key(), wanted, code, installed)
        hit = cache.get(key, _PLAN_KEYS)
        if hit is not None:
            plans[p.id] = hit
        else:
            tasks.append({"key": key, "problem": p, "solvers": wanted, "setup_limit": setup,
                          "id": p.id})
    say(f"suite {s.name}: {len(s.problems)} problems, {len(tasks)} to build")
    ids = {t["key"]: t["problem"].id for t in tasks}
    built = []
    for res in _execute(plan_problem, tasks, n_jobs=n_jobs, backend=backend, client=client):
        pid = ids[res["key"]]
        if res["outcome"] != "done":
            err = res.get("error") or {"field": None, "message": "building took too long"}
            fld = err.get("field") or pid
            raise SpecError(fld, f"problem {pid} could not be built: "
                                 f"{err['message'].split(': ', 1)[-1]}")
        built.append(res)
        plans[pid] = res
    for res in built:  # cached once every problem is built: a refused suite writes nothing
        cache.put(res["key"], res)
    return plans
