"""One harness for every paper reproduction (``convexkern reproduce PAPER``).

A reproduction is a function ``fn(ctx: Context) -> ReproductionResult`` named in the table
of :mod:`.table` as ``"module:function"`` (imported when it runs; a user's own joins through
:func:`register`).  The harness gives it:

* seeded splits (:func:`seeded_splits`, from :mod:`convexkern.splits`: the same split a
  TOML spec's ``[split]`` makes for the same seed) and a cross-validation grid search
  (:func:`cv_select`) whose folds run in parallel through joblib: ``backend="loky"``
  (processes on this machine) or ``backend="dask"`` (a ``dask.distributed`` cluster at
  ``scheduler``, else a ``LocalCluster``; :func:`dask_client`);
* an on-disk cache (``ctx.cached(fn)``, a ``joblib.Memory`` under ``out_dir/.cache``) so
  an interrupted run resumes where it stopped;
* a progress display (``ctx.progress(...)``, on stderr);
* a Markdown report written to ``out_dir/<name>/report.md`` with the PNG figures the
  reproduction saved through ``ctx.figure_path(...)``.

``quick=True`` asks for a reduced version that runs in seconds (used by CI); the full run
is for people.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import sys
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .._tables import markdown_table
from ..errors import ConvexkernError, InvalidInputError
from ..splits import seeded_splits
from .table import REPRODUCTIONS, register

__all__ = [
    "Context",
    "ReproductionResult",
    "register",
    "available",
    "run",
    "seeded_splits",
    "cv_select",
    "markdown_table",
    "dask_client",
    "code_version",
]


@dataclass
class ReproductionResult:
    """What a reproduction returns: the report text, figure files and raw numbers."""

    name: str
    markdown: str
    figures: list[Path] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class Context:
    """Run-time services for a reproduction."""

    name: str
    quick: bool
    out_dir: Path
    seed: int = 0
    n_jobs: int = 1
    verbose: bool = True
    datasets: list[str] | None = None  # restrict a multi-data-set reproduction (None: all)
    backend: str = "loky"  # "dask": through the dask.distributed client of the run
    _t0: float = field(default_factory=time.perf_counter)

    def __post_init__(self) -> None:
        self.out_dir.mkdir(parents=True, exist_ok=True)
        from joblib import Memory

        # joblib hashes a cached function's own source only, not the code it calls: the
        # cache lives in a folder per version of convexkern's code (bench's digest), so a
        # change to a solver or a kernel computes again instead of reporting old numbers
        self.memory = Memory(str(self.out_dir / ".cache" / f"code-{code_version()}"),
                             verbose=0)

    def progress(self, message: str) -> None:
        """One progress line on stderr, with the elapsed time."""
        if self.verbose:
            dt = time.perf_counter() - self._t0
            print(f"[{self.name} {dt:7.1f}s] {message}", file=sys.stderr, flush=True)

    def cached(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """``fn`` memoised on disk: a resumed run skips what it already computed.

        ``fn`` must be a module-level function of picklable arguments.  An entry that
        cannot be read (a pickle torn by an interrupted run) is computed again, with a
        one-line warning (:class:`_Memoised`).
        """
        return _Memoised(self.memory.cache(fn))

    def parallel(self, fn: Callable[..., Any], items: Iterable[Any]) -> list[Any]:
        """``[fn(item) for item in items]`` through joblib with ``n_jobs`` workers."""
        from joblib import Parallel, delayed

        items = list(items)
        if self.backend == "dask":
            from joblib import parallel_config

            with parallel_config(backend="dask", n_jobs=-1):  # every worker of the cluster
                return Parallel()(delayed(fn)(it) for it in items)
        if self.n_jobs == 1 or len(items) <= 1:
            return [fn(it) for it in items]
        return Parallel(n_jobs=self.n_jobs)(delayed(fn)(it) for it in items)

    def figure_path(self, filename: str) -> Path:
        """Where to save a figure (PNG) so the report links it."""
        return self.out_dir / filename


class _UnreadableEntry(logging.Filter):
    """joblib logs an unreadable cache entry (then computes it again) as a warning with
    the whole traceback of the unpickling: said here as one line, as bench says a corrupt
    entry of its own cache."""

    _MARK = "Exception while loading results for "

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if self._MARK not in text:
            return True
        call = text.split(self._MARK, 1)[1].split("\n", 1)[0]
        last = text.rstrip().rsplit("\n", 1)[-1].strip()
        warnings.warn(f"cache entry of {call} is unreadable ({last}): run again",
                      RuntimeWarning, stacklevel=2)
        return False


class _Memoised:
    """A ``joblib.Memory`` function whose unreadable entries warn in one line (in the
    process that calls it: a worker too, as it is pickled with its filter's install)."""

    def __init__(self, memorized: Any) -> None:
        self.memorized = memorized

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        log = logging.getLogger("joblib")
        if not any(isinstance(f, _UnreadableEntry) for f in log.filters):
            log.addFilter(_UnreadableEntry())
        return self.memorized(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name == "memorized":  # not set yet (unpickling): no recursion
            raise AttributeError(name)
        return getattr(self.memorized, name)


#: source files that do not change a result (the command line, the report's layout)
_NOT_RESULTS = ("cli.py", "__main__.py", "bench/report.py", "bench/metrics.py")


def code_version() -> str:
    """A digest of convexkern's version and of its source files (but those of
    ``_NOT_RESULTS``): a result cached by other code is not reused.  Bench's results
    cache and a reproduction's (:meth:`Context.cached`) both depend on it (here, below
    bench, so that both layers reach it)."""
    from .. import __version__

    root = Path(__file__).resolve().parents[1]
    h = hashlib.sha256(__version__.encode())
    for p in sorted(root.rglob("*.py")):
        if p.relative_to(root).as_posix() in _NOT_RESULTS:
            continue
        h.update(str(p.relative_to(root)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:12]


def available() -> dict[str, str]:
    """The reproductions of the table: name -> title (none is imported)."""
    return {k: v.title for k, v in sorted(REPRODUCTIONS.items())}


def run(
    name: str,
    *,
    quick: bool = False,
    out_dir: str | Path = "results",
    seed: int = 0,
    n_jobs: int = 1,
    verbose: bool = True,
    datasets: Sequence[str] | None = None,
    backend: str = "loky",
    scheduler: str | None = None,
) -> ReproductionResult:
    """Run one reproduction and write ``out_dir/<name>/report.md`` (+ figures, JSON).

    ``backend="dask"`` runs the parallel grids on a ``dask.distributed`` cluster: the one at
    ``scheduler``, else a ``LocalCluster`` of ``n_jobs`` workers (:func:`dask_client`).
    """
    names = available()
    if name not in names:
        raise InvalidInputError("paper", f"unknown reproduction '{name}'; available: {list(names)}")
    if backend not in ("loky", "dask"):
        raise InvalidInputError("backend", f"expected 'loky' or 'dask', got {backend!r}")
    if scheduler is not None and backend != "dask":
        raise InvalidInputError("scheduler", "applies to backend='dask' only")
    entry = REPRODUCTIONS[name]
    if datasets and not entry.takes_datasets:
        takers = [k for k, v in REPRODUCTIONS.items() if v.takes_datasets]
        raise InvalidInputError("datasets", f"'{name}' runs its own data sets; --datasets "
                                            f"applies to {takers} only")
    fn, title = entry.function(), entry.title
    created = [p for p in (Path(out_dir), Path(out_dir) / name) if not p.exists()]
    ctx = Context(name=name, quick=quick, out_dir=Path(out_dir) / name, seed=seed,
                  n_jobs=n_jobs, verbose=verbose,
                  datasets=list(datasets) if datasets else None, backend=backend)
    ctx.progress(f"{title} ({'quick' if quick else 'full'} run)")
    try:
        if backend == "dask":
            with dask_client(scheduler, n_jobs):
                result = fn(ctx)
        else:
            result = fn(ctx)
    except ConvexkernError:
        _remove_if_empty(created)  # a refused run leaves nothing behind (its cache stays)
        raise
    head = f"# {title}\n\n_{'Quick' if quick else 'Full'} run, seed {seed}._\n\n"
    (ctx.out_dir / "report.md").write_text(head + result.markdown + "\n", encoding="utf-8")
    (ctx.out_dir / "results.json").write_text(
        json.dumps(jsonable(result.data), indent=2) + "\n", encoding="utf-8"
    )
    ctx.progress(f"report written to {ctx.out_dir / 'report.md'}")
    return result


def _remove_if_empty(folders: Sequence[Path]) -> None:
    """Remove the folders this run created, deepest first, where nothing is inside but
    folders and the cache's own ``.gitignore`` (a cache of finished work is kept)."""
    for top in sorted(folders, key=lambda p: len(p.parts), reverse=True):
        if not top.is_dir() or any(p.is_file() and p.name != ".gitignore"
                                   for p in top.rglob("*")):
            continue
        for item in sorted(top.rglob("*"), key=lambda p: len(p.parts), reverse=True):
            item.unlink() if item.is_file() else item.rmdir()
        top.rmdir()


@contextlib.contextmanager
def dask_client(scheduler: str | None = None, n_workers: int = 1,
                **cluster_kwargs: Any) -> Iterator[Any]:
    """A ``dask.distributed.Client`` for the duration of a ``with`` block: connected to
    ``scheduler`` when given, else to a ``LocalCluster`` of ``n_workers`` single-threaded
    workers (``cluster_kwargs`` passed to it, e.g. ``processes=False``); both closed after.

    Needs the optional extra: ``pip install 'convexkern[dask]'``.
    """
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise InvalidInputError("backend", "'dask' needs dask.distributed: pip install "
                                           "'convexkern[dask]'") from None
    cluster = None
    if scheduler:
        client = Client(scheduler)
    else:
        kw: dict[str, Any] = {"n_workers": n_workers, "threads_per_worker": 1,
                              "dashboard_address": None}
        kw.update(cluster_kwargs)
        cluster = LocalCluster(**kw)
        client = Client(cluster)
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def jsonable(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, (np.floating, np.integer)):
        return obj.item()
    if isinstance(obj, Path):
        return str(obj)
    return obj


def _fold_score(args: tuple) -> float:
    fit_score, params, tr, va = args
    return float(fit_score(params, tr, va))


def cv_select(
    fit_score: Callable[[dict[str, Any], np.ndarray, np.ndarray], float],
    grid: Sequence[dict[str, Any]],
    y: np.ndarray,
    *,
    folds: int = 5,
    seed: int = 0,
    ctx: Context | None = None,
) -> tuple[dict[str, Any], np.ndarray]:
    """Grid search by stratified k-fold cross-validation.

    ``fit_score(params, train_idx, val_idx)`` trains on ``train_idx`` (indices into the
    caller's training set) and returns a score to maximise (e.g. accuracy on
    ``val_idx``).  All (grid point, fold) pairs run through ``ctx.parallel``.  Ties go to
    the first grid point, so order the grid from the simplest model.

    Returns the best parameters and the (n_grid, folds) score matrix.
    """
    from sklearn.model_selection import StratifiedKFold

    if not grid:
        raise InvalidInputError("grid", "is empty")
    skf = StratifiedKFold(n_splits=folds, shuffle=True, random_state=seed)
    splits = list(skf.split(np.zeros(len(y)), y))
    jobs = [(fit_score, p, tr, va) for p in grid for tr, va in splits]
    if ctx is not None:
        scores = ctx.parallel(_fold_score, jobs)
    else:
        scores = [_fold_score(j) for j in jobs]
    mat = np.asarray(scores, dtype=float).reshape(len(grid), folds)
    best = int(np.argmax(mat.mean(axis=1)))
    return dict(grid[best]), mat
