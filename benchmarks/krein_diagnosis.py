"""Why TrIK falls to chance on the paper's blobs from n = 1000 on: measurements.

Problem: ``convexkern.reproduce.loosli2019`` blobs (dimension 5, four centres, train and
test sets of size n, seed 0), Epanechnikov kernel sigma = 6 (indefinite), C = 0.1.  For
each n and each shift ``lam = factor * lambda_min(K)`` this runs the TrIK active set with
the Hilbert-space check (the QP optimum) and with the Kreĭn-space check (the paper's
Algorithm 1) and reports, for each:

* the raw status, iterations, points added / removed (cycling shows as many removals),
  free and bounded support vectors;
* the spectrum of ``K_WW`` on the free set ``W`` (range, smallest ``|eigenvalue|``,
  condition number): eq. 6 solves with it;
* the share of the margin carried by the ridge: on ``W`` the Hilbert margins are exactly
  1, ``y_i (K Y a~)_i - 2 lam a~_i + y_i b = 1``, and ``2 |lam| a~_i`` (at most
  ``2 |lam| C``) is the part that the shift's ``K_- = -lam I`` carries;
* ``||a~||``, ``||alpha||`` (eq. 6) and the relative difference between the solver's
  ``alpha`` (rank-one / bordered ``K_WW^-1``) and a direct LAPACK solve of eq. 6;
* train / test accuracy of three ways of evaluating the solution off the training set:
  eq. 6 (``alpha_W = (I - 2 lam G_WW^-1) a~_W``), the full transition ``P = I - 2 lam
  K^-1``, and ``alpha = a~`` (the shift decomposition's own function, whose ``K_-`` part
  is a delta that vanishes off the training set: docs/krein.md);
* KSVM (full eigh + LIBSVM + flip transition) for reference.

Usage (one BLAS thread; a few minutes at n = 1500 because of the Kreĭn check)::

    nice -n 19 python3 benchmarks/krein_diagnosis.py --n 500 1000 1500
    nice -n 19 python3 benchmarks/krein_diagnosis.py --n 3000 --checks hilbert --factors 1 2 4

Timings printed here are only indicative (the point is the accuracies and the spectra).
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import scipy.linalg as sla

from convexkern.algorithms.trik import min_eigenvalue, trik
from convexkern.kernels import Epanechnikov
from convexkern.reproduce.loosli2019 import BLOBS_C, BLOBS_SIGMA, accuracy, blobs, ksvm


def _one(K, Kte, ytr, yte, C, lam, check):
    n = ytr.size
    t0 = time.perf_counter()
    r = trik(K, ytr, C, lam, optimality=check, check_lam=False)
    el = time.perf_counter() - t0
    W, at = r.free, r.alpha_tilde
    u = ytr[W] * at[W]
    Kww = K[np.ix_(W, W)]
    ev = np.linalg.eigvalsh(Kww) if W.size else np.ones(1)
    z = sla.solve(Kww, u, assume_a="sym") if W.size else np.zeros(0)
    a6 = np.where(np.isin(np.arange(n), r.bounded), C, 0.0)
    a6[W] = ytr[W] * (u - 2.0 * lam * z)
    aP = ytr * (ytr * at - 2.0 * lam * np.linalg.solve(K, ytr * at))
    ridge = 2.0 * abs(lam) * at[W]
    print(f"  lam = {lam / min_eigenvalue(K):g} lam_min, {check} check: {r.status}, "
          f"{r.iterations} it., +{r.n_added}/-{r.n_removed}, free {W.size}, bounded "
          f"{r.bounded.size}, {el:.2f} s")
    print(f"    K_WW: eigenvalues [{ev[0]:.3g}, {ev[-1]:.3g}], {int(np.sum(ev < 0))} negative, "
          f"min |eig| {np.min(np.abs(ev)):.3g}, cond {np.max(np.abs(ev)) / np.min(np.abs(ev)):.3g}"
          f"; ridge share of the margin on W: mean {ridge.mean() if W.size else 0:.3f}, "
          f"max {ridge.max() if W.size else 0:.3f} (2|lam|C = {2 * abs(lam) * C:.3f})")
    print(f"    ||a~|| {np.linalg.norm(at):.3g}, ||alpha|| (eq. 6) {np.linalg.norm(r.alpha):.3g}, "
          f"solver vs direct eq. 6: {np.linalg.norm(a6 - r.alpha) / np.linalg.norm(a6):.2g} rel.")
    acc = {key: (accuracy(K, ytr, ytr, a, r.b), accuracy(Kte, yte, ytr, a, r.b))
           for key, a in (("eq6", r.alpha), ("P", aP), ("at", at))}
    print(f"    train/test accuracy: eq. 6 {acc['eq6'][0]:.4f}/{acc['eq6'][1]:.4f}, "
          f"full P {acc['P'][0]:.4f}/{acc['P'][1]:.4f}, "
          f"alpha = a~ {acc['at'][0]:.4f}/{acc['at'][1]:.4f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, nargs="+", default=[500, 1000, 1500])
    ap.add_argument("--checks", nargs="+", default=["hilbert", "krein"])
    ap.add_argument("--factors", type=float, nargs="+", default=[1.0, 4.0])
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    from threadpoolctl import threadpool_limits

    warnings.simplefilter("ignore")
    with threadpool_limits(limits=1):
        for n in args.n:
            Xtr, ytr, Xte, yte = blobs(n, args.seed)
            k = Epanechnikov(sigma=BLOBS_SIGMA)
            K, Kte = k(Xtr), k(Xte, Xtr)
            lmin = min_eigenvalue(K)
            D = np.linalg.eigvalsh(K)
            a, b, info = ksvm(K, ytr, BLOBS_C)
            print(f"n = {n}: lambda_min {lmin:.4g}, {int(np.sum(D < 0))} negative eigenvalues "
                  f"of {n}; KSVM train {accuracy(K, ytr, ytr, a, b):.4f} test "
                  f"{accuracy(Kte, yte, ytr, a, b):.4f}")
            for fac in args.factors:
                for check in args.checks:
                    _one(K, Kte, ytr, yte, BLOBS_C, fac * lmin, check)


if __name__ == "__main__":
    main()
