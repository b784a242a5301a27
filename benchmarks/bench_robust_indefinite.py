"""Benchmarks for the robust SVM with indefinite kernels (Luss & d'Aspremont, NIPS 2007).

Run:  python benchmarks/bench_robust_indefinite.py [--quick] [--part conic|usps|rank_one]

Measures, each ratio in one run (BLAS pinned to one thread, so that timings do not depend
on how many other processes share the machine's cores):

1. ``conic``: the optimal value of the conic dual (6) with Clarabel and SCS against max f
   from the accelerated method (certified to 1e-9) on real subsets (n = 20-40), and the
   conic solve times as n grows (where each solver stops being usable);
2. ``usps``: on USPS 3-5 (767 training images, Simpson score, C = rho = 1), the time to a
   certified relative gap of 1e-3 / 1e-4 / 1e-6 for the accelerated method with rank-one
   updates, the same with a full eigendecomposition per iteration, projected gradient and
   ACCPM as the paper describes them (full eigendecomposition per iteration, fixed step
   1/L for projected gradient), and projected gradient with a backtracking step;
3. ``rank_one``: time per update of the secular-equation eigen-update against
   ``scipy.linalg.eigh(driver="evd")`` at n = 767, along the accelerated method's own
   sequence of oracle points (recorded from a run, replayed in order); ``--quick`` uses
   120 images and 15 iterations (a smoke run, not a measurement);
4. ``scale``: the default solver (``ck.solve(f, tol=1e-4)``, robust_apg) on
   USPS digits 0-4 vs 5-9 (the first n training images, Simpson score, C = rho = 1), its
   wall and CPU time in units of one ``scipy.linalg.eigh(K0, driver="evd")`` timed in the
   same run, and the number of O(n^3) decompositions (``eigh``/``eigvalsh`` of an n x n
   matrix) the solve made, counted by a wrapper (target: <= 3 eigh of time, 1
   decomposition).  ``--n 3000 5000`` picks the sizes (default 3000);
5. ``profile``: the same solve with its phases timed (the decomposition of K0,
   the oracle's secular solves and products with Q, the final certificate's parts), each
   in units of one ``eigh(K0)`` timed in the same run.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
import scipy.linalg as sla
from threadpoolctl import threadpool_limits

import convexkern as ck
from convexkern.algorithms.rank_one import RankOneUpdate
from convexkern.algorithms.robust_svm import accelerated_gradient, accpm, projected_gradient
from convexkern.data import load_binary
from convexkern.formulations import robust_indefinite as ri
from convexkern.kernels import Epanechnikov, Simpson
from convexkern.reproduce.harness import seeded_splits


def _balanced(y, n, seed):
    rng = np.random.default_rng(seed)
    pos = rng.permutation(np.flatnonzero(y > 0))[: n // 2]
    neg = rng.permutation(np.flatnonzero(y < 0))[: n - n // 2]
    return np.sort(np.concatenate([pos, neg]))


def _instance(name, n, seed=0):
    if name.startswith("usps"):
        X, y = load_binary("usps", 3, 5)
        idx = _balanced(y, n, seed)
        return Simpson()(X[idx]), y[idx]
    ds = {"pima": ("pima", 1, 0), "bupa": ("bupa", 1, 2)}[name]
    X, y = load_binary(*ds)
    X = (X - X.mean(0)) / X.std(0)
    idx = _balanced(y, n, seed)
    return Epanechnikov(3.0)(X[idx]), y[idx]


def bench_conic(quick: bool) -> None:
    print("\n## Conic dual (6) vs max f (real subsets, C = 1, rho = 1)\n")
    print("| instance | n | solver | status | conic value | max f | rel. diff | time (s) |")
    print("|---|---|---|---|---|---|---|---|")
    cases = [("usps", 20), ("usps", 40), ("pima", 30), ("bupa", 30)]
    if quick:
        cases = cases[:2]
    for name, n in cases:
        K0, y = _instance(name, n)
        f = ri.dual(K0, y, C=1.0, rho=1.0)
        ref = ck.solve(f, "robust_apg", tol=1e-9)
        for s in ("clarabel", "scs"):
            t = time.perf_counter()
            r = ck.solve(f, s, tol=1e-8)
            dt = time.perf_counter() - t
            val = f.problem.value
            rel = abs(val - ref.primal_value) / abs(ref.primal_value)
            print(f"| {name} | {n} | {s} | {r.status} | {val:.10g} | {ref.primal_value:.10g} "
                  f"| {rel:.1e} | {dt:.2f} |")
    print("\n## Conic solve time as n grows (USPS 3-5, Simpson)\n")
    print("| n | solver | status | rel. diff to max f | time (s) |")
    print("|---|---|---|---|---|")
    sizes = [50, 100] if quick else [50, 100, 150, 200]
    for n in sizes:
        K0, y = _instance("usps", n, seed=1)
        f = ri.dual(K0, y, C=1.0, rho=1.0)
        ref = ck.solve(f, "robust_apg", tol=1e-9)
        for s in ("clarabel", "scs"):
            if s == "clarabel" and n > 100:
                print(f"| {n} | clarabel | skipped (dense PSD block: minutes) | - | - |")
                continue
            t = time.perf_counter()
            r = ck.solve(f, s, tol=1e-8, time_limit=300)
            dt = time.perf_counter() - t
            val = f.problem.value if f.problem.value is not None else math.nan
            rel = abs(val - ref.primal_value) / abs(ref.primal_value)
            print(f"| {n} | {s} | {r.status} | {rel:.1e} | {dt:.2f} |")


METHODS_FILTER: list[str] = []


def _usps_train():
    X, y = load_binary("usps", 3, 5)
    tr, _ = seeded_splits(y, test_size=773, seed=0)[0]
    return Simpson()(X[tr]), y[tr]


def _time_to(res, thr):
    h = np.asarray(res.history)
    rel = (h[:, 3] - h[:, 2]) / np.abs(h[:, 3])
    i = np.flatnonzero(rel <= thr)
    return float(h[i[0], 1]) if i.size else math.nan


def bench_usps(quick: bool) -> None:
    K0, y = _usps_train()
    w = np.linalg.eigvalsh(K0)
    print(f"\n## USPS 3-5, n = {y.size}, C = rho = 1 (lambda_min {w[0]:.2f}, "
          f"lambda_max {w[-1]:.2f})\n")
    tl = 30.0 if quick else 150.0
    runs = [
        ("accelerated, rank-one update", accelerated_gradient, {"eig": "rank_one"}),
        ("accelerated, full eigh", accelerated_gradient, {"eig": "full"}),
        ("projected gradient, fixed step, full eigh (paper)", projected_gradient,
         {"eig": "full", "step": "fixed"}),
        ("projected gradient, backtracking, full eigh", projected_gradient, {"eig": "full"}),
        ("ACCPM, full eigh (paper)", accpm, {"eig": "full"}),
    ]
    print("| method | status | iterations | oracle calls | final rel. gap | s to 1e-3 "
          "| s to 1e-4 | s to 1e-6 |")
    print("|---|---|---|---|---|---|---|---|")
    t4 = {}
    keep = [m for m in METHODS_FILTER if m]
    if keep:
        runs = [r for r in runs if any(m in r[0] for m in keep)]
    for label, fn, kw in runs:
        res = fn(K0, y, 1.0, 1.0, tol=1e-6, time_limit=tl, **kw)
        t4[label] = _time_to(res, 1e-4)
        print(f"| {label} | {res.status} | {res.iterations} | {res.oracle_calls} | "
              f"{res.rel_gap:.2e} | {_time_to(res, 1e-3):.2f} | {t4[label]:.2f} | "
              f"{_time_to(res, 1e-6):.2f} |")
    base = t4.get("accelerated, rank-one update", math.nan)
    for label, t in t4.items():
        ratio = (t / base) if math.isfinite(t) else math.inf
        txt = format(ratio, ".1f") if math.isfinite(t) else f"> {tl / base:.1f} (not reached)"
        print(f"time to 1e-4, {label} / accelerated rank-one: {txt}")
    f = ri.dual(K0, y, C=1.0, rho=1.0)
    r = ck.solve(f, tol=1e-6)
    print(f"\nck.solve(f, tol=1e-6) (default robust_apg): {r}")
    print(f"  absolute gap {r.gap:.3g}; gap / (f - f(0)) = "
          f"{r.residuals['gap_rel_f_minus_f0']:.3g}; f(0) = {r.residuals['f0']:.6g}; "
          f"SMO refinement steps {r.residuals['smo_iterations']:.0f}")


def _apg_oracle_points(K0, y, C, rho, max_iter):
    """The points at which the accelerated method evaluates its oracle, in order (feasible
    iterates, backtracking trials and extrapolated points), recorded from a real run."""
    from unittest import mock

    from convexkern.algorithms import robust_svm

    points = []

    class Recording(robust_svm.RobustOracle):
        def __call__(self, alpha, **kw):
            points.append(np.array(alpha, dtype=float))
            return super().__call__(alpha, **kw)

    with mock.patch.object(robust_svm, "RobustOracle", Recording):
        res = accelerated_gradient(K0, y, C, rho, tol=1e-6, max_iter=max_iter)
    return points, res


def bench_rank_one(quick: bool) -> None:
    K0, y = _usps_train()
    if quick:  # smoke run: a small subset, a few iterations
        idx = _balanced(y, 120, 0)
        K0, y = K0[np.ix_(idx, idx)], y[idx]
    n = y.size
    C = rho = 1.0
    s = 1.0 / (4.0 * rho)
    # the update is timed along the accelerated method's own sequence of oracle calls,
    # replayed in order (so the warm start sees what it sees inside the method)
    points, res = _apg_oracle_points(K0, y, C, rho, max_iter=15 if quick else 60)
    r1 = RankOneUpdate(K0)
    t = time.perf_counter()
    warm = [r1.positive_apply(y * a, s) for a in points]
    t_r1 = (time.perf_counter() - t) / len(points)
    r1c = RankOneUpdate(K0, warm_start=False)
    t = time.perf_counter()
    for a in points:
        r1c.positive_apply(y * a, s)
    t_cold = (time.perf_counter() - t) / len(points)
    # eigh on an evenly spaced sample of the same points (it has no warm start)
    sample = np.unique(np.linspace(0, len(points) - 1, min(8, len(points))).astype(int))
    err = 0.0
    t = time.perf_counter()
    for i in sample:
        v = y * points[i]
        w, V = sla.eigh(K0 + s * np.outer(v, v), driver="evd")
        pos = w > 0
        Mv = V[:, pos] @ (w[pos] * (V[:, pos].T @ v))
        err = max(err, float(np.max(np.abs(Mv - warm[i].Mv))) / max(1.0, float(np.abs(w).max())))
    t_eig = (time.perf_counter() - t) / sample.size  # includes the product, as the oracle
    print(f"\n## Rank-one eigen-update, n = {n}\n")
    print(f"{len(points)} oracle points of {res.iterations} accelerated iterations "
          f"(status {res.status}); max |M_+ v (update) - M_+ v (eigh)| / ||M|| = {err:.1e}")
    print(f"secular update (warm start): {1e3 * t_r1:.1f} ms; cold start: {1e3 * t_cold:.1f} ms; "
          f"eigh(driver='evd'): {1e3 * t_eig:.1f} ms; ratios {t_eig / t_r1:.1f}x (warm), "
          f"{t_eig / t_cold:.1f}x (cold)")


def bench_scale(sizes) -> None:
    from convexkern.data import load_usps

    print("\n## Default robust solver, USPS 0-4 vs 5-9, Simpson, C = rho = 1, tol 1e-4\n")
    print("| n | status | iterations | oracle calls | rel. gap | O(n^3) decompositions | "
          "eigh (s) | solve wall (s) | wall / eigh | solve CPU / eigh CPU |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    ds = load_usps("train")
    for n in sizes:
        X, d = ds.X[:n], ds.y[:n]
        y = np.where(d < 5, 1.0, -1.0)
        K0 = Simpson()(X)
        c0, t0 = time.process_time(), time.perf_counter()
        sla.eigh(K0, driver="evd")
        t_eig, c_eig = time.perf_counter() - t0, time.process_time() - c0
        calls = []
        originals = {name: getattr(sla, name) for name in ("eigh", "eigvalsh")}

        def counting(name, n=n, calls=calls, originals=originals):
            def wrapped(a, *args, **kw):
                if np.ndim(a) == 2 and np.shape(a)[0] == n:
                    calls.append(name)
                return originals[name](a, *args, **kw)
            return wrapped

        for name in originals:
            setattr(sla, name, counting(name))
        try:
            f = ri.dual(K0, y, C=1.0, rho=1.0)
            c0, t0 = time.process_time(), time.perf_counter()
            r = ck.solve(f, tol=1e-4)
            t_solve, c_solve = time.perf_counter() - t0, time.process_time() - c0
        finally:
            for name, fn in originals.items():
                setattr(sla, name, fn)
        print(f"| {n} | {r.status.value} | {r.iterations} | "
              f"{r.solver_stats.get('oracle_calls')} | {r.rel_gap:.1e} | {len(calls)} "
              f"({', '.join(calls)}) | {t_eig:.2f} | {t_solve:.2f} | {t_solve / t_eig:.2f} | "
              f"{c_solve / c_eig:.2f} |", flush=True)


def bench_profile(sizes) -> None:
    import functools

    import convexkern.formulations.robust_indefinite as rif
    import convexkern.math.rank_one as r1m
    from convexkern.data import load_usps

    T: dict[str, list] = {}

    def wrap(owner, name, label):
        fn = getattr(owner, name)

        @functools.wraps(fn)
        def timed(*a, **k):
            t = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                e = T.setdefault(label, [0, 0.0])
                e[0] += 1
                e[1] += time.perf_counter() - t
        setattr(owner, name, timed)
        return fn

    targets = [
        (r1m.RankOneUpdate, "__init__", "decomposition of K0 (eigh)"),
        (r1m.RankOneUpdate, "positive_apply", "oracle: rank-one update (total)"),
        (r1m, "secular_roots", "  secular root sweeps (oracle + certificate)"),
        (r1m, "_resolvent_combination", "  oracle: M_- u and N at the roots"),
        (rif, "certificate", "certificate (total)"),
        (r1m.RankOneUpdate, "eigh_reduced", "  certificate: eigenvectors of M (reduced)"),
        (r1m.RankOneUpdate, "eigh", "  certificate: eigh_reduced + V = QW"),
        (rif, "certified_lower", "  certificate: certified lower bound"),
        (rif, "proxy_kernel", "  certificate: proxy kernel PP' and its distance"),
        (rif, "frank_wolfe_upper", "  certificate: Frank-Wolfe bound"),
        (rif, "smo_bound", "  certificate: SMO refinement"),
    ]
    ds = load_usps("train")
    for n in sizes:
        X, d = ds.X[:n], ds.y[:n]
        y = np.where(d < 5, 1.0, -1.0)
        K0 = Simpson()(X)
        t0 = time.perf_counter()
        sla.eigh(K0, driver="evd")
        t_eig = time.perf_counter() - t0
        T.clear()
        saved = [(o, name, wrap(o, name, label)) for o, name, label in targets]
        try:
            f = ri.dual(K0, y, C=1.0, rho=1.0)
            t0 = time.perf_counter()
            r = ck.solve(f, tol=1e-4)
            t_solve = time.perf_counter() - t0
        finally:
            for o, name, fn in saved:
                setattr(o, name, fn)
        print(f"\n### n = {n}: {r.status.value}, {r.iterations} iterations, "
              f"{r.solver_stats.get('oracle_calls')} oracle calls, rel. gap {r.rel_gap:.1e}; "
              f"eigh {t_eig:.2f} s, solve {t_solve:.2f} s = {t_solve / t_eig:.2f} eigh\n")
        print("| phase | calls | seconds | eigh |")
        print("|---|---|---|---|")
        for label in [lab for _, _, lab in targets]:
            c, sec = T.get(label, [0, 0.0])
            print(f"| {label.strip()} | {c} | {sec:.2f} | {sec / t_eig:.2f} |")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--part", choices=["conic", "usps", "rank_one", "scale", "profile", "all"],
                    default="all")
    ap.add_argument("--n", type=int, nargs="+", default=[3000],
                    help="sizes for --part scale (default 3000)")
    ap.add_argument("--methods", default="", help="comma-separated substrings of the usps "
                    "method labels to run (default: all)")
    args = ap.parse_args()
    METHODS_FILTER[:] = args.methods.split(",")
    with threadpool_limits(limits=1):
        if args.part in ("rank_one", "all"):
            bench_rank_one(args.quick)
        if args.part in ("conic", "all"):
            bench_conic(args.quick)
        if args.part in ("usps", "all"):
            bench_usps(args.quick)
        if args.part == "scale":
            bench_scale([min(n, 300) for n in args.n] if args.quick else args.n)
        if args.part == "profile":
            bench_profile([min(n, 300) for n in args.n] if args.quick else args.n)


if __name__ == "__main__":
    main()
