"""The ``convexkern`` command line (also ``python -m convexkern``).

::

    convexkern solvers                         # every solver: kind, installed, what it solves
    convexkern specs                           # the problem specs shipped with the package
    convexkern solve SPEC [--solver NAME]      # one certified report (+ test accuracy)
    convexkern compare SPEC [--solvers a,b,c]  # the same instance on several solvers
    convexkern bench SUITE [--jobs N] [--repeat K]  # a benchmark suite: report, profiles

``SPEC`` is a TOML file (see :mod:`convexkern.specs`) or the bare name of a shipped spec
(``convexkern compare svm_usps_3v5_rbf``).  ``solve`` and ``compare`` take ``--tol``,
``--max-iter``, ``--time-limit`` (overriding the spec's ``[solve]`` section), ``--json``
or ``--csv`` (machine-readable output instead of the table) and ``--out FILE``.

Standard output carries only the result (table, JSON or CSV), so it can be piped.
Progress lines go to standard error, when it is a terminal or with ``--progress``;
``--quiet`` silences them.  Bad input (a malformed spec, an unknown or missing solver)
prints one line ``convexkern: error: ...`` on standard error and exits with status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import sys
import time
from collections.abc import Sequence
from typing import Any, TextIO

from ._tables import csv_text, text_table
from ._validation import check_open_unit, check_seed
from .errors import (
    InvalidInputError,
    InvalidTypeError,
    SolverError,
    SolverNotFoundError,
    SpecError,
)

__all__ = ["main", "build_parser"]

PROG = "convexkern"


# ---------------------------------------------------------------------------------------
# progress display
# ---------------------------------------------------------------------------------------


class _Progress:
    """Progress lines on stderr: stages, then one line per solve."""

    def __init__(self, enabled: bool, stream: TextIO) -> None:
        self.enabled = enabled
        self.stream = stream
        self.t0 = time.perf_counter()
        self._open = False  # a "[i/n] solver ..." line waits for its result

    def _write(self, text: str) -> None:
        if self.enabled:
            self.stream.write(text)
            self.stream.flush()

    def stage(self, message: str) -> None:
        self._close()
        self._write(f"[{time.perf_counter() - self.t0:6.1f}s] {message}\n")

    def start(self, i: int, n: int, solver: str) -> None:
        self._close()
        self._write(f"[{time.perf_counter() - self.t0:6.1f}s] [{i}/{n}] {solver} ...")
        self._open = True

    def done(self, report: Any) -> None:
        t = report.wall_time if math.isfinite(report.wall_time) else report.solve_time
        self._write(f" {report.status.value} in {t:.3g} s\n")
        self._open = False

    def _close(self) -> None:
        if self._open:
            self._write("\n")
            self._open = False


# ---------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------


@contextlib.contextmanager
def _solver_output_to_stderr() -> Any:
    """Send whatever the solvers print to stderr, so stdout carries only the result.

    Some solvers write to file descriptor 1 from C (SCS: "ERROR: could not determine
    problem status"), so the descriptor itself is redirected, and C stdio buffers are
    flushed before it is restored.
    """
    saved_py = sys.stdout
    saved_fd = None
    try:
        sys.stdout.flush()
        saved_fd = os.dup(1)
        os.dup2(2, 1)
    except (OSError, ValueError, AttributeError):  # no real descriptors (embedded use)
        saved_fd = None
    sys.stdout = sys.stderr
    try:
        yield
    finally:
        sys.stdout = saved_py
        if saved_fd is not None:
            _flush_c_stdio()
            os.dup2(saved_fd, 1)
            os.close(saved_fd)


def _flush_c_stdio() -> None:
    try:
        import ctypes

        ctypes.CDLL(None).fflush(None)
    except (OSError, AttributeError, TypeError):  # pragma: no cover - not a C runtime
        pass


def _emit(text: str, args: argparse.Namespace, progress: _Progress, err: TextIO) -> None:
    if not text.endswith("\n"):
        text += "\n"
    if getattr(args, "out", None):
        with open(args.out, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        if not args.quiet:
            progress._close()
            err.write(f"{PROG}: wrote {args.out}\n")
    else:
        sys.stdout.write(text)
        sys.stdout.flush()


def _check_out(args: argparse.Namespace) -> None:
    """Refuse an ``--out`` that cannot be written before any work (a missing folder, a
    folder as the file): otherwise it is found only when the result is written, after
    every solve ran.  Nothing is created here."""
    out = getattr(args, "out", None)
    if not out:
        return
    path = os.path.abspath(out)
    folder = os.path.dirname(path)
    if os.path.isdir(path):
        raise InvalidInputError("--out", f"{out!r} is a folder; give a file name")
    if not os.path.isdir(folder):
        raise InvalidInputError("--out", f"folder {folder!r} of {out!r} does not exist")
    if not os.access(folder, os.W_OK) or (os.path.exists(path)
                                          and not os.access(path, os.W_OK)):
        raise InvalidInputError("--out", f"{out!r} is not writable")


def _parse_solvers(text: str) -> list[str]:
    names = [s.strip().lower() for s in text.split(",") if s.strip()]
    if not names:
        raise SolverNotFoundError("--solvers: give a comma-separated list, e.g. clarabel,scs")
    return names


def _check_names(names: Sequence[str]) -> None:
    """Fail before any work on a name no solver has (typos)."""
    from .solvers import installed_solvers, solver_info

    known = {r["name"]: r for r in solver_info()}
    for n in names:
        if n not in known:
            raise SolverNotFoundError(
                f"unknown solver '{n}'; installed solvers: {', '.join(installed_solvers())}"
            )
        if not known[n]["installed"]:
            raise SolverNotFoundError(
                f"solver '{n}' is not installed ({known[n]['install']}); installed solvers: "
                f"{', '.join(installed_solvers())}"
            )


def _controls(args: argparse.Namespace, spec: Any) -> dict[str, Any]:
    s = spec.solve
    return {
        "tol": args.tol if args.tol is not None else s.tol,
        "max_iter": args.max_iter if args.max_iter is not None else s.max_iter,
        "time_limit": args.time_limit if args.time_limit is not None else s.time_limit,
    }


def _load(args: argparse.Namespace, progress: _Progress) -> Any:
    from .specs import load_spec

    progress.stage(f"reading spec {args.spec}...")
    return load_spec(args.spec)


def _row(report: Any, spec: Any, inst: Any) -> dict[str, Any]:
    row = {"spec": spec.name, **report.to_dict()}
    row["n_train"] = inst.n_train
    if inst.has_test:
        row["n_test"] = inst.n_test
        if inst.task == "regression":
            row["test_rmse"] = inst.rmse(report)
        else:
            row["test_accuracy"] = inst.accuracy(report)
    return row


def _accuracy_text(reports: Sequence[Any], inst: Any) -> str:
    if not inst.has_test:
        return ""
    regression = inst.task == "regression"
    parts = []
    for r in reports:
        value = inst.rmse(r) if regression else inst.accuracy(r)
        if value is not None:
            parts.append(f"{r.solver} {value:.4g}" if regression else f"{r.solver} {value:.4f}")
    if not parts:
        return ""
    what = "test RMSE" if regression else "test accuracy"
    return f"{what} ({inst.n_test} held-out points): " + ", ".join(parts)


# ---------------------------------------------------------------------------------------
# commands
# ---------------------------------------------------------------------------------------


def _cmd_solvers(args: argparse.Namespace, progress: _Progress, err: TextIO) -> int:
    from .solvers import solver_info

    info = solver_info()
    if args.json:
        _emit(json.dumps(info, indent=2), args, progress, err)
        return 0
    rows = []
    for r in info:
        kind = "conic via cvxpy" if r["kind"].startswith("conic") else r["kind"]
        notes = r["install"] if not r["installed"] else r.get("description", "")
        rows.append([r["name"], kind, "yes" if r["installed"] else "no", r["solves"],
                     f"{r['default_tol']:g}", notes])
    text = text_table(["name", "kind", "installed", "solves", "default tol", "install / notes"],
                  rows)
    _emit(text, args, progress, err)
    return 0


def _cmd_specs(args: argparse.Namespace, progress: _Progress, err: TextIO) -> int:
    from .specs import available_specs, load_spec

    rows = []
    for name in available_specs():
        try:
            desc = load_spec(name).description
        except SpecError as exc:  # a broken shipped spec should still be listed
            desc = f"(invalid: {exc})"
        rows.append({"name": name, "description": desc})
    if args.json:
        _emit(json.dumps(rows, indent=2), args, progress, err)
    else:
        _emit(text_table(["name", "description"], [[r["name"], r["description"]] for r in rows]),
              args, progress, err)
    return 0


def _cmd_solve(args: argparse.Namespace, progress: _Progress, err: TextIO) -> int:
    from .report import ReportTable
    from .solvers import available_solvers, solve

    spec = _load(args, progress)
    if args.solver is not None:
        _check_names([args.solver.lower()])
    inst = spec.build(progress=progress.stage)
    f = inst.formulation
    if args.solver is not None:
        name = args.solver.lower()
    elif spec.solve.solvers:  # the spec's first usable solver (none: refused, as compare)
        name = _spec_solvers(spec, f, available_solvers(f), args, progress, err)[0]
    else:  # the formulation's default
        name = None
    progress.start(1, 1, name or f.default_solver)
    with _solver_output_to_stderr():
        report = solve(f, name, **_controls(args, spec))
    progress.done(report)
    if args.json:
        text = json.dumps(_row(report, spec, inst), indent=2)
    elif args.csv:
        text = csv_text([_row(report, spec, inst)])
    else:
        text = str(ReportTable([report]))
        acc = _accuracy_text([report], inst)
        if acc:
            text += "\n" + acc
        if report.message:
            text += f"\nnote: {report.message}"
    _emit(text, args, progress, err)
    return _failed(err, [report])


def _cmd_compare(args: argparse.Namespace, progress: _Progress, err: TextIO) -> int:
    from .solvers import available_solvers, compare

    spec = _load(args, progress)
    explicit = args.solvers is not None
    if explicit:
        names = _parse_solvers(args.solvers)
        _check_names(names)
    inst = spec.build(progress=progress.stage)
    f = inst.formulation
    usable = available_solvers(f)
    if explicit:
        pass  # checked by compare() below
    elif spec.solve.solvers:
        names = _spec_solvers(spec, f, usable, args, progress, err)
    elif usable:  # the library's default: every applicable solver, with its skips (a
        names = None  # conic solver on a PSD cone beyond its reach: max_psd_side)
    else:
        raise SolverNotFoundError(f"no installed solver can solve {f.name}")
    total = len(usable if names is None else names)
    count = iter(range(1, total + 1))

    def on_progress(name: str, report: Any) -> None:
        if report is None:
            progress.start(next(count), total, name)
        else:
            progress.done(report)

    # compare() resolves every name before solving anything: a solver that cannot solve
    # this formulation fails at once
    with _solver_output_to_stderr():
        table = compare(f, names, progress=on_progress, **_controls(args, spec))
    reports = list(table)
    if args.json:
        text = json.dumps([_row(r, spec, inst) for r in reports], indent=2)
    elif args.csv:
        text = csv_text([_row(r, spec, inst) for r in reports])
    else:
        head = f"{spec.name}: {f.name}" + (
            "" if spec.data is None else f", n_train={inst.n_train}")
        if inst.has_test:
            head += f", n_test={inst.n_test}"
        text = head + "\n" + str(table)
        acc = _accuracy_text(reports, inst)
        if acc:
            text += "\n" + acc
        notes = [f"{r.solver}: {r.message}" for r in reports if r.message]
        if notes:
            text += "\n" + "\n".join(f"note: {m}" for m in notes)
    _emit(text, args, progress, err)
    return _failed(err, reports)


def _spec_solvers(spec: Any, f: Any, usable: Sequence[str], args: argparse.Namespace,
                  progress: _Progress, err: TextIO) -> list[str]:
    """The spec's ``[solve].solvers`` that can take ``f``, in order, with a note for each
    left out; none of them: :class:`SolverNotFoundError` (exit 2), for ``solve`` as for
    ``compare``: another solver is never substituted for the ones the spec names."""
    names = []
    for n in spec.solve.solvers:
        if n in usable:
            names.append(n)
        elif not args.quiet:
            progress._close()
            err.write(f"{PROG}: note: skipping solver '{n}' from the spec (not installed "
                      f"or not applicable to {f.name}; usable: {', '.join(usable)})\n")
    if not names:
        raise SolverNotFoundError(
            f"none of the spec's solvers {list(spec.solve.solvers)} can solve {f.name}; "
            f"installed solvers for it: {', '.join(usable)}"
        )
    return names


def _failed(err: TextIO, reports: Sequence[Any]) -> int:
    """The exit status of a solve or a comparison: 1 (with a line on stderr) when a
    requested solve ended in ``error``, else 0.  Infeasible, unbounded and limit statuses
    are answers, not failures."""
    bad = [r.solver for r in reports if r.status.value == "error"]
    if bad:
        err.write(f"{PROG}: error: {', '.join(bad)} ended in status 'error' (see the notes)\n")
        return 1
    return 0


# ---------------------------------------------------------------------------------------
# parser and entry point
# ---------------------------------------------------------------------------------------


def _positive_float(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not (math.isfinite(v) and v > 0):
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}")
    return v


def _checked(text: str, parse: Any, check: Any, option: str, what: str) -> Any:
    """An option's value parsed by ``parse`` and validated by the library's own ``check``,
    its error turned into argparse's (which names the option itself)."""
    try:
        v = parse(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
    try:
        return check(v, option)
    except (InvalidInputError, InvalidTypeError) as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix(f"{option}: ")) from None


def _tol(text: str) -> float:
    """``--tol``: a number in (0, 1), by the one open-unit check
    (:func:`convexkern._validation.check_open_unit`), and not below the tolerance
    policy's floor (:data:`convexkern.solvers.TOLERANCE`)."""
    from .solvers.outcome import TOLERANCE

    v = _checked(text, float, check_open_unit, "--tol", "a number")
    if v < TOLERANCE.tol_floor:
        raise argparse.ArgumentTypeError(
            f"must be >= {TOLERANCE.tol_floor:g}: a relative gap of {text} is below what a "
            "certificate computed in double precision can prove")
    return v


def _time_limit(text: str) -> float:
    """``--time-limit``: a positive number of seconds, at most
    :data:`convexkern.specs.validate.MAX_TIME_LIMIT` (the cap of a spec's and a suite's
    ``time_limit``: past it the timers beneath overflow)."""
    from .specs.validate import MAX_TIME_LIMIT

    v = _positive_float(text)
    if v > MAX_TIME_LIMIT:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_TIME_LIMIT:g} s (11.6 days), "
                                         f"got {text!r}")
    return v


def _positive_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {text!r}")
    return v


#: the most worker processes ``--jobs`` starts: more than any machine here has cores to
#: give them, and each is a process with its semaphores (100000 hung the pool's start)
MAX_JOBS = 256
#: the most runs ``--repeat`` makes of each pair: a median needs a handful, and each run
#: is a fresh worker process
MAX_REPEAT = 1000


def _bounded_int(most: int, why: str) -> Any:
    """An argument type: an integer in ``[1, most]``."""
    def parse(text: str) -> int:
        v = _positive_int(text)
        if v > most:
            raise argparse.ArgumentTypeError(f"must be at most {most} ({why}), got {text!r}")
        return v
    return parse


_jobs = _bounded_int(MAX_JOBS, "worker processes")
_repeat = _bounded_int(MAX_REPEAT, "runs of each pair, each a fresh process")


def _seed(text: str) -> int:
    """``--seed``: an integer in [0, 2**32 - 1], by the one seed check
    (:func:`convexkern._validation.check_seed`)."""
    return _checked(text, int, check_seed, "--seed", "an integer")


def _cmd_reproduce(args: argparse.Namespace, progress: _Progress, err: TextIO) -> int:
    from .reproduce import available, run

    names = available()
    if args.paper is None or args.list:
        rows = [[k, v] for k, v in names.items()]
        _emit(text_table(["paper", "reproduction"], rows), args, progress, err)
        return 0
    with _solver_output_to_stderr():  # a solver's banner is not part of the report
        result = run(args.paper, quick=args.quick, out_dir=args.out_dir, seed=args.seed,
                     n_jobs=args.jobs, verbose=not args.quiet,
                     datasets=args.datasets.split(",") if args.datasets else None,
                     backend=args.backend, scheduler=args.scheduler)
    _emit(result.markdown, args, progress, err)
    return 0


def _cmd_bench(args: argparse.Namespace, progress: _Progress, err: TextIO) -> int:
    from .bench import available_suites, load_suite, run_suite

    if args.suite is None:
        rows = [[n, load_suite(n).description] for n in available_suites()]
        _emit(text_table(["suite", "description"], rows), args, progress, err)
        return 0
    solvers = None
    if args.solvers is not None:
        solvers = _parse_solvers(args.solvers)
        _check_names(solvers)
    with _solver_output_to_stderr():
        result = run_suite(args.suite, solvers=solvers, tol=args.tol,
                           time_limit=args.time_limit, out_dir=args.out_dir, n_jobs=args.jobs,
                           backend=args.backend, scheduler=args.scheduler,
                           use_cache=not args.no_cache, progress=progress.stage,
                           repeat=args.repeat)
    _emit(result.files["report"].read_text(encoding="utf-8"), args, progress, err)
    ran = [r for r in result.rows if r["status"] != "skipped"]
    if not ran:
        err.write(f"{PROG}: error: no (problem, solver) pair ran: the requested solvers "
                  "apply to none of the suite's problems\n")
        return 1
    failed = [f"{r['problem']}/{r['solver']}" for r in ran if r["status"] == "error"]
    if len(failed) == len(ran):
        err.write(f"{PROG}: error: every pair ended in status 'error' (see the report)\n")
        return 1
    if failed:  # the report is written: it is a result, but not one where every solve ran
        more = f" and {len(failed) - 5} more" if len(failed) > 5 else ""
        err.write(f"{PROG}: error: {len(failed)} of {len(ran)} pairs ended in status 'error' "
                  f"({', '.join(failed[:5])}{more}; see the report)\n")
        return 1
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``convexkern`` command."""
    from . import __version__

    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Convex formulations of kernel machines, solved and certified.",
        epilog="SPEC is a TOML problem spec, by path or by the name of a shipped spec "
               "(see 'convexkern specs').",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    common = argparse.ArgumentParser(add_help=False)
    noise = common.add_mutually_exclusive_group()
    noise.add_argument("--progress", action="store_true",
                       help="show progress on stderr even when it is not a terminal")
    noise.add_argument("-q", "--quiet", action="store_true", help="no progress or notes on stderr")
    common.add_argument("--out", metavar="FILE", help="write the output to FILE, not stdout")
    fmt = argparse.ArgumentParser(add_help=False)
    g = fmt.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true", help="JSON output")
    g.add_argument("--csv", action="store_true", help="CSV output")
    run = argparse.ArgumentParser(add_help=False)
    run.add_argument("spec", metavar="SPEC", help="TOML spec file or shipped spec name")
    run.add_argument("--tol", type=_tol, help="target relative certified gap")
    run.add_argument("--max-iter", type=_positive_int, metavar="N", help="iteration bound")
    run.add_argument("--time-limit", type=_time_limit, metavar="S",
                     help="time bound per solver, seconds")

    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    p = sub.add_parser("solvers", parents=[common], help="list the solvers and what they solve")
    p.add_argument("--json", action="store_true", help="JSON output")
    p.set_defaults(func=_cmd_solvers, csv=False)
    p = sub.add_parser("specs", parents=[common], help="list the shipped problem specs")
    p.add_argument("--json", action="store_true", help="JSON output")
    p.set_defaults(func=_cmd_specs, csv=False)
    p = sub.add_parser("solve", parents=[run, fmt, common],
                       help="solve a spec with one solver; report and test accuracy")
    p.add_argument("--solver", metavar="NAME",
                   help="solver (default: the spec's first, else the formulation's default)")
    p.set_defaults(func=_cmd_solve)
    p = sub.add_parser("compare", parents=[run, fmt, common],
                       help="solve a spec with several solvers; aligned table")
    p.add_argument("--solvers", metavar="A,B,C",
                   help="comma-separated solver names (default: the spec's [solve].solvers, "
                        "else every applicable solver)")
    p.set_defaults(func=_cmd_compare)
    p = sub.add_parser("reproduce", parents=[common],
                       help="reproduce a paper's experiments on the shipped real data")
    p.add_argument("paper", nargs="?", metavar="PAPER",
                   help="luss2007, abe2012, graepel2003 or loosli2019 (omit to list)")
    p.add_argument("--list", action="store_true", help="list the available reproductions")
    p.add_argument("--quick", action="store_true",
                   help="a reduced run that takes seconds (what CI runs)")
    p.add_argument("--out-dir", default="results", metavar="DIR",
                   help="where the report, figures and the resumable cache go")
    p.add_argument("--seed", type=_seed, default=0,
                   help="seed of the random splits, in [0, 2**32 - 1]")
    p.add_argument("--jobs", type=_jobs, default=1, metavar="N",
                   help=f"parallel workers for cross-validation (joblib), at most {MAX_JOBS}")
    p.add_argument("--datasets", default=None, metavar="A,B",
                   help="restrict a multi-data-set reproduction (abe2012) to these data sets")
    _add_backend(p)
    p.set_defaults(func=_cmd_reproduce, json=False, csv=False)
    _add_bench(sub, common)
    return parser


def _add_backend(p: argparse.ArgumentParser) -> None:
    p.add_argument("--backend", choices=("loky", "dask"), default="loky",
                   help="joblib's process pool (loky) or a dask.distributed cluster "
                        "(pip install 'convexkern[dask]')")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="with --backend dask: an existing scheduler (default: a LocalCluster "
                        "of --jobs workers)")


def _add_bench(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("bench", parents=[common],
                       help="run a benchmark suite: success rates, times, performance profiles")
    p.add_argument("suite", nargs="?", metavar="SUITE",
                   help="a shipped suite (quick, kernels, netlib_small, ...) or a suite TOML "
                        "file (omit to list)")
    p.add_argument("--solvers", metavar="A,B,C",
                   help="only these solvers (default: the suite's, else every applicable one)")
    p.add_argument("--tol", type=_tol, help="target relative certified gap (default: the suite's)")
    p.add_argument("--time-limit", type=_time_limit, metavar="S",
                   help="hard time limit per (problem, solver) pair, seconds")
    p.add_argument("--out-dir", default="bench-results", metavar="DIR",
                   help="where report.md, results.csv/json, the PNGs and the cache go "
                        "(in DIR/SUITE)")
    p.add_argument("--jobs", type=_jobs, default=1, metavar="N",
                   help=f"pairs run at the same time (worker processes), at most {MAX_JOBS}")
    p.add_argument("--repeat", type=_repeat, default=1, metavar="K",
                   help="run every pair K times: the report gives the median time and the "
                        f"range (at most {MAX_REPEAT})")
    _add_backend(p)
    p.add_argument("--no-cache", action="store_true",
                   help="run every pair again (results are still written to the cache)")
    p.set_defaults(func=_cmd_bench, json=False, csv=False)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status: 0 every requested solve ended with an
    answer (optimal, inaccurate, a limit, a proven infeasible/unbounded), 1 a solve ended
    in ``error``, a solver crashed or nothing ran, 2 bad input or a refused setting."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, usage errors (status 2)
        return int(exc.code) if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    err = sys.stderr
    show = not args.quiet and (args.progress or _isatty(err))
    progress = _Progress(show, err)
    try:
        _check_out(args)
        return int(args.func(args, progress, err))
    except (SpecError, InvalidInputError, InvalidTypeError, SolverNotFoundError) as exc:
        progress._close()
        err.write(f"{PROG}: error: {exc}\n")
        return 2
    except OSError as exc:  # --out into a missing folder, unreadable files...
        progress._close()
        err.write(f"{PROG}: error: {exc}\n")
        return 2
    except SolverError as exc:
        progress._close()
        err.write(f"{PROG}: error: solver failed: {exc}\n")
        return 1
    except KeyboardInterrupt:
        progress._close()
        err.write(f"{PROG}: interrupted\n")
        return 130


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
