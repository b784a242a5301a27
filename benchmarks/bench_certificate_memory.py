"""Benchmark: the certificate's peak memory, as the ratio ``ck.solve`` / plain ``problem.solve``.

Each side of each (problem, solver) pair runs in a fresh Python process that imports the
same modules and builds the same cvxpy problem, then solves it once: plainly
(``problem.solve`` with the settings convexkern would give the solver) or through
``convexkern.solve(convexkern.from_cvxpy(problem), solver)`` (solve, certificate, and any
refining re-solve or phase one).  A process's peak resident set (``ru_maxrss``) is its
whole footprint, so the table gives both peaks, their ratio, and the ratio of what each
side added above the process's footprint once the problem was built (the part the solve
and its certificate are responsible for).

The problems are those of ``bench_certificate_overhead.py`` (cvxpy's standard problems,
the docs examples, kernel logistic regression, and with ``--sets`` the shipped public
sets); ``--sdpa`` adds SDPA files from elsewhere (e.g. SDPLIB arch0, not shipped), each
in both forms.  Feeds docs/certificates.md ("Peak memory").

Run: ``python benchmarks/bench_certificate_memory.py [--sets standard,docs,sdplib]
[--solvers clarabel,scs] [--sdpa /path/arch0.dat-s] [--json out.json]``
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import warnings
from pathlib import Path

from bench_certificate_overhead import print_per_solver

warnings.simplefilter("ignore")

_MB = 1024.0  # ru_maxrss is in KiB on Linux


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / _MB


def _build(sets: str, name: str):
    if name.startswith("file:"):  # file:<path>:<form>
        from convexkern.data import sdpa as sdpa_io
        _, path, form = name.split(":")
        return sdpa_io.build_problem(sdpa_io.read_sdpa(path), form)
    from bench_certificate_overhead import problems
    return problems(sets)[name]()


def child(mode: str, sets: str, name: str, solver: str) -> dict:
    """One side of one pair, in this (fresh) process: its peaks in MB."""
    import cvxpy as cp

    import convexkern as ck
    from convexkern.solvers import TOLERANCE
    from convexkern.solvers.table import CONIC

    problem = _build(sets, name)
    built = _peak_mb()
    spec = CONIC[solver]
    status = ""
    if mode == "plain":
        acc = TOLERANCE.settings(spec.default_tol, spec.safety, spec.settings_floor)
        try:
            problem.solve(solver=spec.cvxpy_name, **spec.settings(acc, None, None))
            status = str(problem.status)
        except (cp.error.SolverError, ValueError, ArithmeticError) as exc:
            status = f"error ({type(exc).__name__})"
    else:
        status = ck.solve(ck.from_cvxpy(problem, name), solver).status.value
    return {"built_mb": built, "peak_mb": _peak_mb(), "status": status}


def _run_child(mode: str, sets: str, name: str, solver: str) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", mode, "--sets", sets, "--only", name,
         "--solvers", solver], capture_output=True, text=True, cwd=Path(__file__).parent)
    lines = [ln for ln in out.stdout.splitlines() if ln.startswith("{")]
    if out.returncode != 0 or not lines:
        tail = (out.stderr or out.stdout).strip().splitlines()[-1:] or ["no output"]
        return {"built_mb": float("nan"), "peak_mb": float("nan"),
                "status": f"crashed: {tail[0][:80]}"}
    return json.loads(lines[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="standard,docs",
                    help="comma list of standard, docs, netlib, maros_meszaros, sdplib")
    ap.add_argument("--only", default="", help="comma list of problem names")
    ap.add_argument("--solvers", default="",
                    help="comma list of solvers (default: every installed conic solver)")
    ap.add_argument("--sdpa", default="", help="comma list of SDPA files, both forms")
    ap.add_argument("--json", default="", metavar="PATH")
    ap.add_argument("--child", default="", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.sets, args.only, args.solvers)))
        return

    import convexkern as ck
    from convexkern.solvers.table import CONIC

    names = []
    if args.sets:
        from bench_certificate_overhead import problems
        names = [n for n in problems(args.sets)
                 if not args.only or n in args.only.split(",")]
    names += [f"file:{p}:{form}" for p in args.sdpa.split(",") if p
              for form in ("primal", "dual")]
    rows = []
    for name in names:
        f0 = ck.from_cvxpy(_build(args.sets, name), "probe")
        for solver in [s for s in ck.available_solvers(f0) if s in CONIC and (
                not args.solvers or s in args.solvers.split(","))]:
            plain = _run_child("plain", args.sets, name, solver)
            cert = _run_child("ck", args.sets, name, solver)
            row = {"problem": name.replace("file:", "").split("/")[-1], "solver": solver,
                   "plain": plain, "ck": cert,
                   "ratio": cert["peak_mb"] / plain["peak_mb"],
                   "excess_ratio": ((cert["peak_mb"] - cert["built_mb"])
                                    / max(plain["peak_mb"] - plain["built_mb"], 1.0))}
            rows.append(row)
            print(f"{row['problem']:24s} {solver:9s} plain {plain['peak_mb']:8.0f} MB "
                  f"ck {cert['peak_mb']:8.0f} MB  ratio {row['ratio']:.2f}  "
                  f"{cert['status']}", file=sys.stderr)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    print("| problem | solver | plain peak [MB] | ck.solve peak [MB] | ratio "
          "| added above the built problem, ratio | ck.solve status |")
    print("|---|---|---:|---:|---:|---:|---|")
    for r in rows:
        print(f"| {r['problem']} | {r['solver']} | {r['plain']['peak_mb']:.0f} "
              f"| {r['ck']['peak_mb']:.0f} | {r['ratio']:.2f} | {r['excess_ratio']:.2f} "
              f"| {r['ck']['status']} |")
    per: dict[str, list[float]] = {}
    for r in rows:
        per.setdefault(r["solver"], []).append(r["ratio"])
    print()
    print_per_solver(per)


if __name__ == "__main__":
    main()
