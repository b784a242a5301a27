"""Benchmark: TrIK (shift) vs KSVM (flip) training time, in one run (Loosli, ESANN 2019).

Problem: a ``make_blobs`` problem (dimension 5, four centres, two per class; train and
test sets of size n) with the indefinite Epanechnikov kernel (sigma = 6), C = 0.1, as in
``convexkern reproduce loosli2019``.  Timed (wall clock, same process, same kernel matrix):

* **TrIK** — ``lambda_min`` by Lanczos + the active set with the Kreĭn-space check
  (the paper's algorithm), and the variant with the Hilbert-space check;
* **KSVM** — full eigendecomposition (LAPACK ``evd``) + LIBSVM (scikit-learn's
  ``SVC(kernel="precomputed")``, tol 1e-3) on ``U|D|U'`` + the transition ``P``.

Reports the times, the ratio TrIK / KSVM (the paper's target: <= 0.5 at n = 3000), the
number of nonzero Kreĭn coefficients and the test accuracies.

Usage:  python3 benchmarks/bench_krein.py [--n 3000] [--repeat 1] [--threads 1]

All methods run with the same number of BLAS threads (default 1).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from convexkern.kernels import Epanechnikov
from convexkern.reproduce.loosli2019 import BLOBS_C, BLOBS_SIGMA, _acc, _blobs, _ksvm, _trik


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, nargs="+", default=[3000])
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1,
                    help="BLAS threads for everything (default 1: LIBSVM is single-threaded, "
                         "and on a shared machine threaded eigh was 18x slower); 0 = the "
                         "library's own")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--C", type=float, default=BLOBS_C)
    args = ap.parse_args()
    ctx = None
    if args.threads:
        from threadpoolctl import threadpool_limits

        ctx = threadpool_limits(limits=args.threads)
    print(f"{'n':>6} {'method':<12} {'time[s]':>9} {'nnz':>6} {'test acc':>9}")
    for n in args.n:
        Xtr, ytr, Xte, yte = _blobs(n, args.seed)
        k = Epanechnikov(sigma=BLOBS_SIGMA)
        K, Kte = k(Xtr), k(Xte, Xtr)
        best: dict[str, float] = {}
        for _ in range(args.repeat):
            for name, fn, arg in (("trik", _trik, "krein"), ("trik-hilbert", _trik, "hilbert"),
                                  ("ksvm", _ksvm, None)):
                t0 = time.perf_counter()
                alpha, b, info = fn(K, ytr, args.C, arg) if arg else fn(K, ytr, args.C)
                el = time.perf_counter() - t0
                if el < best.get(name, np.inf):
                    best[name] = el
                    extra = ""
                    if name == "ksvm":
                        extra = (f"  (eigh {info['time_eigh']:.2f}s, LIBSVM "
                                 f"{info['time_libsvm']:.2f}s)")
                    else:
                        extra = f"  ({info['status']}, {info['iterations']} it.)"
                    print(f"{n:>6} {name:<12} {el:>9.3f} {np.count_nonzero(alpha):>6} "
                          f"{_acc(Kte, yte, ytr, alpha, b):>9.4f}{extra}", flush=True)
        print(f"{n:>6} ratio TrIK / KSVM = {best['trik'] / best['ksvm']:.3f}, "
              f"TrIK-Hilbert / KSVM = {best['trik-hilbert'] / best['ksvm']:.3f}")
    if ctx is not None:
        ctx.restore_original_limits()


if __name__ == "__main__":
    main()
