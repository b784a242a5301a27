"""``KreinSVC()`` (defaults) vs KSVM on the 30 blobs problems of the Loosli (ESANN 2019)
reproduction: test accuracy only ("within 1 point of KSVM").

Problems: sizes ``np.geomspace(100, 3000, 30)`` rounded, problem *i* with seed *i*, exactly
those of ``convexkern reproduce loosli2019`` (Epanechnikov sigma = 6, C = 0.1).  KSVM =
full eigh + LIBSVM + the flip transition; default = ``KreinSVC(C, kernel="precomputed")``
(shift, SMO to a certified 1e-6, ``alpha = alpha~``).  One BLAS thread; a few minutes.

Usage:  nice -n 19 python3 benchmarks/krein_thirty.py
"""

from __future__ import annotations

import warnings

import numpy as np
from threadpoolctl import threadpool_limits

from convexkern.estimators import KreinSVC
from convexkern.kernels import Epanechnikov
from convexkern.reproduce.loosli2019 import BLOBS_C, BLOBS_SIGMA, accuracy, blobs, ksvm


def main() -> None:
    warnings.simplefilter("ignore", RuntimeWarning)
    sizes = np.round(np.geomspace(100, 3000, 30)).astype(int)
    diffs = []
    with threadpool_limits(limits=1):
        for i, n in enumerate(sizes):
            Xtr, ytr, Xte, yte = blobs(int(n), i)
            k = Epanechnikov(sigma=BLOBS_SIGMA)
            K, Kte = k(Xtr), k(Xte, Xtr)
            a, b, _ = ksvm(K, ytr, BLOBS_C)
            acc_k = accuracy(Kte, yte, ytr, a, b)
            clf = KreinSVC(BLOBS_C, kernel="precomputed").fit(K, ytr)
            acc_d = clf.score(Kte, yte)
            diffs.append(acc_d - acc_k)
            print(f"{n:5d} seed {i:2d}: default {acc_d:.3f} ({clf.report_.status}, rel. gap "
                  f"{clf.report_.rel_gap:.1e}, {clf.flipped_.size} pairs flipped), KSVM "
                  f"{acc_k:.3f}, difference "
                  f"{acc_d - acc_k:+.3f}", flush=True)
    d = np.array(diffs)
    print(f"default better on {int((d > 0).sum())}, tied on {int((d == 0).sum())}, worse on "
          f"{int((d < 0).sum())} of {d.size}; mean difference {d.mean():+.4f}, smallest "
          f"{d.min():+.4f}")


if __name__ == "__main__":
    main()
