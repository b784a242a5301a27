"""The kernel algorithms on a GPU against the same code on the CPU (one run each).

Run (on a machine with CuPy and a CUDA device):

    python benchmarks/bench_gpu.py [--n 10000 20000] [--cpu-n 10000] [--krein-n 20000]
                                   [--json results.json]

Data: Letter Recognition (shipped; 20000 x 16), letters A-M against N-Z, the first ``n``
rows of a seeded permutation, features scaled to [0, 1], and the Epanechnikov kernel
with sigma = 1 (``convexkern.kernels.Epanechnikov``; indefinite: 742 of 1500 eigenvalues
negative at n = 1500, where robust_apg takes 67 iterations to 1e-4).  Measured, wall
clock, each once:

1. robust SVM (Luss & d'Aspremont 2007, problem (3), C = rho = 1): ``ck.solve(f,
   "robust_apg", tol=1e-4)`` on ``robust_indefinite.dual(K, y, device=...)`` -- the
   decomposition of ``K0``, the rank-one oracle and the certificate (its ``n x n``
   products on the device, its bounds in float64 with their rounding terms) -- at every
   ``--n`` on the GPU and at ``--cpu-n`` on the CPU (all the machine's cores);
2. KSVM's flip (Loosli et al. 2016): ``krein.stabilization(K, y, decomposition="flip",
   device=...)`` (one ``eigh`` and ``U|D|U'``) and then SMO on ``K~`` (on the host) at
   ``--krein-n``, on the GPU and the CPU.

A warm-up at n = 400 on the GPU first (CuPy compiles its kernels on first use; that
time is reported apart).  Targets (issue 23, one H100): robust SVM at n = 2e4 to a
certified 1e-4 in under 60 s; the flip at n = 2e4 in under 30 s.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

import convexkern as ck
from convexkern.data import load_binary
from convexkern.formulations import krein
from convexkern.formulations import robust_indefinite as ri
from convexkern.kernels import Epanechnikov
from convexkern.math.device import gpu_available, synchronize

LETTERS_POS = list("ABCDEFGHIJKLM")


def letter_kernel(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    X, y = load_binary("letter", LETTERS_POS, "rest")
    idx = np.random.default_rng(seed).permutation(y.size)[:n]
    X, y = X[idx], y[idx]
    X = (X - X.min(0)) / np.maximum(X.max(0) - X.min(0), 1e-12)
    return Epanechnikov(1.0)(X), y


def robust(K: np.ndarray, y: np.ndarray, device: str, tol: float) -> dict:
    t0 = time.perf_counter()
    f = ri.dual(K, y, C=1.0, rho=1.0, device=device)
    r = ck.solve(f, "robust_apg", tol=tol)
    synchronize(device)
    wall = time.perf_counter() - t0
    return {"task": "robust_apg", "n": int(y.size), "device": device, "status": r.status,
            "rel_gap": float(r.rel_gap), "lower": float(r.primal_value),
            "upper": float(r.dual_value), "wall_s": wall, "solve_s": float(r.solve_time),
            "certify_s": float(r.certify_time), "iterations": r.iterations}


def flip(K: np.ndarray, y: np.ndarray, device: str) -> dict:
    t0 = time.perf_counter()
    f = krein.stabilization(K, y, C=1.0, decomposition="flip", device=device)
    synchronize(device)
    t_flip = time.perf_counter() - t0
    r = ck.solve(f, "smo", tol=1e-3)
    wall = time.perf_counter() - t0
    return {"task": "krein_flip", "n": int(y.size), "device": device, "status": r.status,
            "rel_gap": float(r.rel_gap), "flip_s": t_flip, "smo_s": wall - t_flip,
            "wall_s": wall}


def _row(res: dict) -> str:
    keys = ("task", "n", "device", "status", "rel_gap", "wall_s", "solve_s", "certify_s",
            "flip_s", "smo_s", "iterations")
    cells = []
    for k in keys:
        v = res.get(k, "")
        cells.append(f"{v:.3g}" if isinstance(v, float) else str(v))
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, nargs="*", default=[10000, 20000])
    ap.add_argument("--cpu-n", type=int, nargs="*", default=[10000])
    ap.add_argument("--krein-n", type=int, nargs="*", default=[20000])
    ap.add_argument("--krein-cpu-n", type=int, nargs="*", default=[10000])
    ap.add_argument("--tol", type=float, default=1e-4)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    ok, why = gpu_available()
    print(f"GPU: {ok} {why}; CPU cores {os.cpu_count()}")
    results = []

    def emit(res: dict) -> None:
        results.append(res)
        print(_row(res), flush=True)
        if args.json:
            with open(args.json, "w") as fh:
                json.dump(results, fh, indent=1)

    print("| task | n | device | status | rel. gap | wall s | solve s | certify s | "
          "flip s | SMO s | iterations |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    if ok:
        Kw, yw = letter_kernel(400)
        t0 = time.perf_counter()
        robust(Kw, yw, "gpu", args.tol)
        flip(Kw, yw, "gpu")
        print(f"(warm-up at n = 400 on the GPU: {time.perf_counter() - t0:.1f} s)")
    # the GPU runs first (the CPU baselines take longest), each size's kernel built once
    plan = [("gpu", sorted(set(args.n + args.krein_n)) if ok else []),
            ("cpu", sorted(set(args.cpu_n + args.krein_cpu_n)))]
    for dev, sizes in plan:
        for n in sizes:
            t0 = time.perf_counter()
            K, y = letter_kernel(n)
            print(f"(kernel at n = {n}: {time.perf_counter() - t0:.1f} s)", flush=True)
            if n in (args.n if dev == "gpu" else args.cpu_n):
                emit(robust(K, y, dev, args.tol))
            if n in (args.krein_n if dev == "gpu" else args.krein_cpu_n):
                emit(flip(K, y, dev))
            del K

if __name__ == "__main__":
    main()
