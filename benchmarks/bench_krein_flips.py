"""Benchmark (docs/krein.md, the accuracy per number of flipped eigenpairs): flip the k
most negative eigenpairs, shift the rest by the next eigenvalue mu, SMO on
``K - 2 U_k D_k U_k' - 2 mu I``, and read ``Y alpha = (I - 2 U_k U_k') Y alpha~`` off the
training set.  k = 0 is the shift (``KreinSVC()``'s default), k = all negatives is KSVM.
Test accuracy for k = 0, 1, 4, 16, 64, all on USPS 3v5 / Simpson, Pima / tanh (the
reproduction's stratified splits, C = 1) and the blobs (n = 1000, C = 0.1).  The pairs
are picked from a full ``eigh``: it measures what more flips would buy, it is not the
estimator's method (which finds its pairs by Lanczos).

Usage:  nice -n 19 python3 benchmarks/bench_krein_flips.py
"""

from __future__ import annotations

import warnings

import numpy as np
from threadpoolctl import threadpool_limits

import convexkern as ck
from convexkern.formulations import svm
from convexkern.kernels import Epanechnikov
from convexkern.reproduce.loosli2019 import accuracy, blobs, ksvm, real_kernels

PROBLEMS = (("usps", 150, 1.0), ("usps", 600, 1.0), ("pima", 200, 1.0), ("pima", 500, 1.0),
            ("blobs", 1000, 0.1))


def _problem(name: str, n: int):
    if name == "blobs":
        Xtr, ytr, Xte, yte = blobs(n, 0)
        k = Epanechnikov(sigma=6.0)
        return k(Xtr), ytr, k(Xte, Xtr), yte
    return real_kernels(name, n, 0)


def main() -> None:
    warnings.simplefilter("ignore")
    with threadpool_limits(limits=1):
        for name, n, C in PROBLEMS:
            K, y, Kte, yte = _problem(name, n)
            D, U = np.linalg.eigh(K)
            n_neg = int(np.sum(D < 0))
            a, b, _ = ksvm(K, y, C)
            out = [f"{name} n={n}: KSVM {accuracy(Kte, yte, y, a, b):.3f}, {n_neg} negative "
                   f"eigenvalues, smallest {np.round(D[:3], 2)}"]
            for k_flip in (0, 1, 4, 16, 64, n_neg):
                kk = min(k_flip, n_neg)
                Uk, Dk = U[:, :kk], D[:kk]
                mu = min(D[kk], 0.0) if kk < n else 0.0
                Kt = K - 2.0 * (Uk * Dk) @ Uk.T - 2.0 * mu * np.eye(n)
                r = ck.solve(svm.dual(0.5 * (Kt + Kt.T), y, C, psd_check=False), "smo")
                u = y * np.asarray(r.x["alpha"])
                ua = u - 2.0 * Uk @ (Uk.T @ u)
                acc = accuracy(Kte, yte, y, y * ua, float(r.x["b"]))
                out.append(f"k={kk} (mu {mu:.3g}): {acc:.3f}")
            print("; ".join(out), flush=True)


if __name__ == "__main__":
    main()
