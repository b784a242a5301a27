"""Benchmark: ``KreinSVC()`` (defaults) vs KSVM, and the TrIK variants, in one run
(Loosli, ESANN 2019).

Problem: a ``make_blobs`` problem (dimension 5, four centres, two per class; train and
test sets of size n) with the indefinite Epanechnikov kernel (sigma = 6), C = 0.1, as in
``convexkern reproduce loosli2019``.  Timed (wall clock, same process, same precomputed
kernel matrix, same BLAS threads):

* **default** — ``KreinSVC(C, kernel="precomputed").fit(K, y)`` with every other
  parameter at its default: the dominant negative eigenpairs flipped (none qualify on
  these problems; deciding costs a short Lanczos run), shift decomposition,
  ``lambda_min`` by Lanczos, SMO on
  ``K - 2 lam I`` to a certified relative gap of 1e-6, ``alpha = alpha~`` (input
  validation and the certificate included);
* **ksvm** — full eigendecomposition (LAPACK ``evd``) + LIBSVM (scikit-learn's
  ``SVC(kernel="precomputed")``, tol 1e-3) on ``U|D|U'`` + the transition ``P``;
* **trik** — Lanczos + the active set with the Kreĭn-space check and eq. 6 (the paper's
  algorithm; slow: ~n iterations), and **trik-hilbert** — the active set with the
  Hilbert-space check (block exchanges) and eq. 6.  Only with ``--methods``.

Reports the times, the ratio default / KSVM (the target: <= 0.5 at n = 3000 with
a test accuracy within 1 point of KSVM's), the nonzero Kreĭn coefficients and the test
accuracies.

Usage::

    python3 benchmarks/bench_krein.py [--n 3000] [--repeat 1] [--threads 1]
        [--methods default ksvm trik trik-hilbert]

All methods run with the same number of BLAS threads (default 1).
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

from convexkern.estimators import KreinSVC
from convexkern.kernels import Epanechnikov
from convexkern.reproduce.loosli2019 import BLOBS_C, BLOBS_SIGMA, accuracy, blobs, ksvm, trik_run


def _default(K: np.ndarray, y: np.ndarray, C: float) -> tuple[np.ndarray, float, dict]:
    clf = KreinSVC(C, kernel="precomputed").fit(K, y)
    rep = clf.report_
    return clf.alpha_, float(clf.intercept_), {
        "status": str(rep.status), "iterations": rep.iterations,
        "gap": rep.gap / max(abs(rep.primal_value), 1e-300), "lam": clf.lam_,
        "flipped": clf.flipped_.size}


METHODS = {
    "default": lambda K, y, C: _default(K, y, C),
    "ksvm": lambda K, y, C: ksvm(K, y, C),
    "trik": lambda K, y, C: trik_run(K, y, C, "krein"),
    "trik-hilbert": lambda K, y, C: trik_run(K, y, C, "hilbert"),
}


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
    ap.add_argument("--methods", nargs="+", default=["default", "ksvm"], choices=list(METHODS))
    args = ap.parse_args()
    ctx = None
    if args.threads:
        from threadpoolctl import threadpool_limits

        ctx = threadpool_limits(limits=args.threads)
    warnings.simplefilter("ignore", RuntimeWarning)
    print(f"{'n':>6} {'method':<13} {'time[s]':>9} {'nnz':>6} {'test acc':>9}")
    for n in args.n:
        Xtr, ytr, Xte, yte = blobs(n, args.seed)
        k = Epanechnikov(sigma=BLOBS_SIGMA)
        K, Kte = k(Xtr), k(Xte, Xtr)
        best: dict[str, float] = {}
        acc: dict[str, float] = {}
        for _ in range(args.repeat):
            for name in args.methods:
                t0 = time.perf_counter()
                alpha, b, info = METHODS[name](K, ytr, args.C)
                el = time.perf_counter() - t0
                if el < best.get(name, np.inf):
                    best[name] = el
                    acc[name] = accuracy(Kte, yte, ytr, alpha, b)
                    if name == "ksvm":
                        extra = (f"  (eigh {info['time_eigh']:.2f}s, LIBSVM "
                                 f"{info['time_libsvm']:.2f}s)")
                    elif name == "default":
                        extra = (f"  ({info['status']}, {info['iterations']} it., certified "
                                 f"rel. gap {info['gap']:.1e}, {info['flipped']} pairs "
                                 f"flipped, lam {info['lam']:.4g})")
                    else:
                        extra = f"  ({info['status']}, {info['iterations']} it.)"
                    print(f"{n:>6} {name:<13} {el:>9.3f} {np.count_nonzero(alpha):>6} "
                          f"{acc[name]:>9.4f}{extra}", flush=True)
        if "ksvm" in best:
            parts = [f"{m} / KSVM = {best[m] / best['ksvm']:.3f} (accuracy "
                     f"{acc[m] - acc['ksvm']:+.4f})" for m in args.methods if m != "ksvm"]
            print(f"{n:>6} ratios: " + "; ".join(parts))
    if ctx is not None:
        ctx.restore_original_limits()


if __name__ == "__main__":
    main()
