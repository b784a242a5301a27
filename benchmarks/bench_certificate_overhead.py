"""Benchmark: what the certificate costs, as the ratio ``ck.solve`` / plain ``problem.solve``.

For each (problem, solver) pair, the same cvxpy problem is solved by ``problem.solve`` with
the settings convexkern would give the solver (its default ``tol`` through the tolerance
policy) and by ``convexkern.solve(convexkern.from_cvxpy(problem), solver)`` (the solve, the
certificate, a refining re-solve where the solver's class asks for one).  Each side is timed
``--repeat`` times on a freshly built problem (so both pay cvxpy's compilation) and the
median is kept; the table gives the ratio of medians per pair, and per solver the median and
the largest ratio.  The report's own ``certify_time`` (median) is printed beside it.

Problems: cvxpy's standard continuous test problems (``cvxpy.tests.solver_test_helpers``:
a public set nobody on this project wrote), the generic-certificate examples of
docs/extending.md (1-norm SVM LP, nu-SVM QP, norm-SVM SOCP, nearest-kernel SDP on 200 Pima
patients) and kernel logistic regression (Pima, n = 300, ``cp.logistic``).  Feeds
docs/certificates.md ("Cost").  Quote numbers only from a quiet machine.

With ``--sets netlib,maros_meszaros,sdplib`` it runs the public sets shipped in
``convexkern/data/public`` instead (the sets of the "On public test sets" table).

Run: ``python benchmarks/bench_certificate_overhead.py [--repeat 5] [--only klr,lp_1]
[--sets standard,docs] [--solvers clarabel,scs]``
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
import warnings
from collections.abc import Callable

import cvxpy as cp
import numpy as np

import convexkern as ck
from convexkern.data import load_binary
from convexkern.kernels import RBF
from convexkern.solvers import TOLERANCE
from convexkern.solvers.table import CONIC

warnings.simplefilter("ignore")

_STANDARD = ("lp_0", "lp_1", "lp_2", "lp_3", "lp_4", "lp_5", "lp_6", "lp_7", "qp_0",
             "socp_0", "socp_1", "socp_2", "socp_4", "sdp_2", "expcone_1",
             "expcone_socp_1")


def _pima(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    X, y = load_binary("pima", 1, 0)
    idx = np.random.default_rng(seed).choice(y.size, n, replace=False)
    X, y = X[idx], y[idx]
    X = (X - X.mean(0)) / X.std(0)
    return X, y, RBF(gamma=1.0 / X.shape[1])(X)


def _docs_problems() -> dict[str, Callable[[], cp.Problem]]:
    X, y, K = _pima(200)

    def l1_svm() -> cp.Problem:
        n = y.size
        ap, an = cp.Variable(n, nonneg=True), cp.Variable(n, nonneg=True)
        b, xi = cp.Variable(), cp.Variable(n, nonneg=True)
        return cp.Problem(cp.Minimize(cp.sum(ap + an) + cp.sum(xi)),
                          [cp.multiply(y, K @ (ap - an) + b) >= 1 - xi])

    def nu_svm() -> cp.Problem:
        n = y.size
        a = cp.Variable(n)
        Q = cp.psd_wrap(K * np.outer(y, y))
        return cp.Problem(cp.Minimize(0.5 * cp.quad_form(a, Q)),
                          [a >= 0, a <= 1.0 / n, y @ a == 0, cp.sum(a) >= 0.3])

    def norm_svm() -> cp.Problem:
        w, b, xi = cp.Variable(X.shape[1]), cp.Variable(), cp.Variable(y.size, nonneg=True)
        return cp.Problem(cp.Minimize(cp.norm(w) + cp.sum(xi)),
                          [cp.multiply(y, X @ w + b) >= 1 - xi])

    def nearest_kernel() -> cp.Problem:
        S = np.tanh(0.5 * X[:30] @ X[:30].T - 1.0)
        M = cp.Variable((30, 30), symmetric=True)
        return cp.Problem(cp.Minimize(cp.sum_squares(M - S)),
                          [M >> 0, cp.trace(M) <= float(np.trace(S))])

    Xk, yk, Kk = _pima(300)

    def klr() -> cp.Problem:
        a, b = cp.Variable(yk.size), cp.Variable()
        loss = cp.sum(cp.logistic(-cp.multiply(yk, Kk @ a + b))) / yk.size
        return cp.Problem(cp.Minimize(loss + 1e-2 / 2 * cp.quad_form(a, cp.psd_wrap(Kk))))

    return {"l1_svm": l1_svm, "nu_svm": nu_svm, "norm_svm": norm_svm,
            "nearest_kernel": nearest_kernel, "klr": klr}


def _public(set_name: str) -> dict[str, Callable[[], cp.Problem]]:
    """The shipped public instances of one set (convexkern/data/public): every Netlib and
    Maros-Meszaros file; the SDPLIB files in both SDPA forms (mcp100's dual form, tens of
    seconds a solve, left out)."""
    from importlib import resources
    from pathlib import Path

    from convexkern.data import mps, sdpa

    root = Path(str(resources.files("convexkern.data") / "public" / set_name))
    out: dict[str, Callable[[], cp.Problem]] = {}
    for path in sorted(root.iterdir()):
        if set_name == "sdplib":
            if path.name.startswith("inf"):
                continue
            for form in ("primal", "dual"):
                if (path.name, form) != ("mcp100.dat-s", "dual"):
                    out[f"{path.name.split('.')[0]}:{form}"] = (
                        lambda p=path, f=form: sdpa.build_problem(sdpa.read_sdpa(p), f))
        elif path.suffix.lower() in (".mps", ".qps"):
            out[path.stem] = lambda p=path: mps.build_problem(mps.read_mps(p))[0]
    return out


def problems(sets: str = "standard,docs") -> dict[str, Callable[[], cp.Problem]]:
    from cvxpy.tests import solver_test_helpers as h

    out: dict[str, Callable[[], cp.Problem]] = {}
    for part in sets.split(","):
        if part == "standard":
            out.update({name: (lambda name=name: getattr(h, name)().prob)
                        for name in _STANDARD})
        elif part == "docs":
            out.update(_docs_problems())
        else:
            out.update(_public(part))
    return out


def _median_time(fn: Callable[[], object], repeat: int) -> tuple[float, object]:
    times, last = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        last = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), last


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--only", default="")
    ap.add_argument("--sets", default="standard,docs",
                    help="comma list of standard, docs, netlib, maros_meszaros, sdplib")
    ap.add_argument("--solvers", default="",
                    help="comma list of solvers (default: every installed conic solver)")
    args = ap.parse_args()
    probs = problems(args.sets)
    if args.only:
        probs = {k: v for k, v in probs.items() if k in args.only.split(",")}
    rows, ratios, floors = [], {}, {}
    for name, build in probs.items():
        f0 = ck.from_cvxpy(build(), name)
        for solver in [s for s in ck.available_solvers(f0) if s in CONIC and (
                not args.solvers or s in args.solvers.split(","))]:
            spec = CONIC[solver]
            acc = TOLERANCE.settings(spec.default_tol, spec.safety, spec.settings_floor)
            kwargs = spec.settings(acc, None, None)

            def plain(build=build, name=spec.cvxpy_name, kwargs=kwargs) -> None:
                try:
                    build().solve(solver=name, **kwargs)
                except (cp.error.SolverError, ValueError, ArithmeticError):
                    pass

            def certified(build=build, solver=solver, name=name):
                return ck.solve(ck.from_cvxpy(build(), name), solver)

            t_plain, _ = _median_time(plain, args.repeat)
            t_ck, r = _median_time(certified, args.repeat)
            ratio = t_ck / t_plain if t_plain > 0 else float("nan")
            ratios.setdefault(solver, []).append(ratio)
            rows.append((name, solver, r.status.value, t_plain, t_ck, ratio,
                         r.certify_time))
            # the same ratio with the report's own certify_time taken off: about what a
            # certificate costing nothing would leave (the conic read-out and the checks;
            # where a re-solve ran, it and the first answer's certificate stay in)
            if math.isfinite(r.certify_time):
                floors.setdefault(solver, []).append((t_ck - r.certify_time) / t_plain)
    print(f"# ck.solve / plain problem.solve (median of {args.repeat}, fresh problem each run)")
    print()
    print("| problem | solver | status | plain [s] | ck.solve [s] | ratio | certify [s] | "
          "ratio less certify |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for name, solver, st, tp, tc, ratio, tcert in rows:
        less = (tc - tcert) / tp if math.isfinite(tcert) and tp > 0 else float("nan")
        print(f"| {name} | {solver} | {st} | {tp:.4f} | {tc:.4f} | {ratio:.2f} | {tcert:.4f} "
              f"| {less:.2f} |")
    print()
    print_per_solver(ratios, floors)


def print_per_solver(ratios: dict[str, list[float]],
                     floors: dict[str, list[float]] | None = None) -> None:
    """The per-solver summary table: pairs, median and largest ratio; with ``floors``,
    also the median of the ratio less the report's ``certify_time`` over the pairs that
    have one (what a certificate costing nothing would leave)."""
    extra = floors is not None
    print("| solver | pairs | median ratio | largest ratio |"
          + (" median ratio less certify |" if extra else ""))
    print("|---|---:|---:|---:|" + ("---:|" if extra else ""))
    for solver, rs in ratios.items():
        tail = ""
        if extra:
            fs = floors.get(solver, [])
            tail = f" {statistics.median(fs):.2f} |" if fs else " |"
        print(f"| {solver} | {len(rs)} | {statistics.median(rs):.2f} | {max(rs):.2f} |{tail}")


if __name__ == "__main__":
    main()
