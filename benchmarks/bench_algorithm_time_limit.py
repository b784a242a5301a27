"""Benchmark: does ``time_limit`` hold end to end for the custom algorithms?

The companion of ``bench_time_limit.py`` (conic solvers): for each (problem, algorithm, T)
the wall time of ``convexkern.solve(f, algorithm, tol=1e-10, time_limit=T)`` is measured
and compared with ``T``; the target is ``wall <= 1.05 T`` on every row, with a certified
bracket when there was time for one and the reason when there was not.  The problems are
the shipped specs (USPS 3-5 with the Simpson score for the robust SVM, n = 770; Pima with
the sigmoid kernel for TrIK and SMO; thyroid for the LP SVM, 720 and 2880 triplets; USPS
3-5 with an RBF kernel for SMO), 200 USPS rotation trajectories for the SDPM methods (the
exchange method also with its Clarabel masters), a 3000-point RBF SVM dual (a dense 72 MB
``K``) for SMO, and a 1500-point tanh kernel's flip decomposition for TrIK.  Each
algorithm is called once beforehand on the same formulation with ``max_iter=2`` (the first
dispatch imports its module, and the robust SVM's formulation computes its decomposition of
``K0``), then once per ``T``.

Run: ``python benchmarks/bench_algorithm_time_limit.py [--limits 0.1,0.3,1]
[--only robust,sdpm]`` (about a minute; quote only from a quiet machine).
"""

from __future__ import annotations

import argparse
import importlib.resources as resources
import math
import time
import warnings

import numpy as np
import tomllib

import convexkern as ck
from convexkern import transforms
from convexkern.data import load_usps
from convexkern.formulations import sdpm, svm
from convexkern.kernels import RBF
from convexkern.specs import load_spec

warnings.simplefilter("ignore")


def _spec(name: str, split: float | None = None):
    text = (resources.files("convexkern.problems") / f"{name}.toml").read_text()
    spec = tomllib.loads(text)
    if split is not None:
        spec["split"]["test_size"] = split
    return lambda: load_spec(spec).build().formulation


def _sdpm200() -> ck.Formulation:
    ds = load_usps("train")
    return sdpm.primal(transforms.rotation_trajectories(ds.X[:200]),
                       np.where(ds.y[:200] < 5, 1.0, -1.0), math.radians(10), 1.0)


def _svm3000() -> ck.Formulation:
    rng = np.random.default_rng(1)
    X = rng.normal(size=(3000, 10))
    y = np.where(X[:, 0] + 0.8 * rng.normal(size=3000) > 0, 1.0, -1.0)
    return svm.dual(RBF(gamma=0.1)(X), y, C=10.0)


def _flip1500() -> ck.Formulation:
    from convexkern.formulations import krein

    rng = np.random.default_rng(1)
    X = rng.normal(size=(1500, 10))
    y = np.where(X[:, 0] + 0.8 * rng.normal(size=1500) > 0, 1.0, -1.0)
    return krein.stabilization(np.tanh(0.05 * X @ X.T - 0.5), y, C=1.0,
                               decomposition="flip")


def cases() -> dict[str, tuple]:
    return {
        "svm usps 3-5 (n = 770)": (_spec("svm_usps_3v5_rbf"), ["smo"]),
        "svm dual (n = 3000)": (_svm3000, ["smo"]),
        "robust usps 3-5 (n = 770)": (_spec("robust_usps_3v5_simpson"),
                                      ["robust_apg", "robust_pg", "robust_accpm"]),
        "krein pima (n = 576)": (_spec("krein_pima_sigmoid"), ["trik", "trik-krein", "smo"]),
        "lp svm thyroid (720)": (_spec("lp_svm_thyroid"), ["linprog"]),
        "lp svm thyroid (2880)": (_spec("lp_svm_thyroid", 0.6), ["linprog"]),
        "sdpm usps (m = 200)": (_sdpm200, ["exchange", "sdpm-ipm", "sdpm-dcd",
                                           ("exchange", {"master": "clarabel"}),
                                           ("exchange", {"master": "clarabel-dense"}),
                                           ("exchange", {"master": "cvxpy"})]),
        "krein tanh, flip (n = 1500)": (_flip1500, ["trik"]),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limits", default="0.1,0.3,1", help="comma list of T in seconds")
    ap.add_argument("--only", default="", help="comma list of words a case's name contains")
    args = ap.parse_args()
    only = [w.strip() for w in args.only.split(",") if w.strip()]
    limits = [float(v) for v in args.limits.split(",")]
    print("| problem | algorithm | T (s) | wall (s) | wall / T | status | certified gap |")
    print("|---|---|---:|---:|---:|---|---:|")
    worst = 0.0
    for name, (build, algorithms) in cases().items():
        if only and not any(w in name for w in only):
            continue
        f = build()
        for algorithm in algorithms:
            algorithm, options = (algorithm, {}) if isinstance(algorithm, str) else algorithm
            label = algorithm + "".join(f", {k}={v}" for k, v in options.items())
            # the module's import out of the timing
            ck.solve(f, algorithm, max_iter=2, **options)
            for T in limits:
                t0 = time.perf_counter()
                r = ck.solve(f, algorithm, tol=1e-10, time_limit=T, **options)
                wall = time.perf_counter() - t0
                worst = max(worst, wall / T)
                gap = f"{r.rel_gap:.2g}" if math.isfinite(r.rel_gap) else "none"
                print(f"| {name} | {label} | {T:g} | {wall:.3f} | {wall / T:.2f} | "
                      f"{r.status.value} | {gap} |", flush=True)
    print(f"\nlargest wall / T: {worst:.3f} (target 1.05)")


if __name__ == "__main__":
    main()
