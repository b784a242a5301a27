"""Cost of Abe (2012) Table 1 under the paper's protocol, estimated from a few timed units.

``convexkern reproduce abe2012`` runs, per data set, CV jobs that each (one fold, one
``C_M``) solve one LP SVM per one-against-all problem and fit one SVM per problem and
(``delta``, ``C``) grid point on a precomputed Gram matrix; then the final training on the
full training set.  This script times, on one real fold of the chosen data set (4/5 of the
training set, or of ``--cv-max`` samples), one LP SVM solve on the fold's triplets and
``--fits`` SVM fits + predictions at grid points spread over the paper's grid, for one
one-against-all problem (the largest class vs the rest), and multiplies by the number of
such units the protocol needs:

* SVM fits: ``classes x folds x (63 (RBF) + 63 (Mahalanobis) + 63 (stage 1, C_M = 2000) +
  7 x 7 (stage 2, C_M x C))``, one problem for two classes; Balance and Pima: x 10 splits,
  with 2 x 63 for the LP kernel (``C_M`` in {1, 2000}) instead of the two stages;
* LP solves: ``classes x folds x (1 + 7)`` (two stages) or ``x 2`` (Balance, Pima), plus
  ``classes`` for the final training.

Run (each <= 5 minutes on a quiet 2-core machine)::

    python benchmarks/bench_abe2012_cost.py --dataset letter
    python benchmarks/bench_abe2012_cost.py --dataset usps
    python benchmarks/bench_abe2012_cost.py --dataset letter --cv-max 1000

It prints the unit times and the estimated single-core hours of the full protocol (divide
by ``--jobs``); a rough estimate (SVM times vary with the grid point and the class).
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def main() -> None:
    from convexkern.reproduce import abe2012 as abe

    ap = argparse.ArgumentParser()
    ap.add_argument("--dataset", default="letter", choices=abe.DATASETS)
    ap.add_argument("--cv-max", type=int, default=None,
                    help="model selection on this many training samples (the reduction)")
    ap.add_argument("--fits", type=int, default=6, help="timed SVM fits (spread over the grid)")
    args = ap.parse_args()

    from sklearn.svm import SVC

    X, y, splits = abe.load_problem(args.dataset)
    tr, _ = splits[0]
    rng = np.random.default_rng(0)
    n = tr.size if args.cv_max is None else min(tr.size, args.cv_max)
    idx = rng.permutation(tr)[:n]
    a, b = np.sort(idx[: int(0.8 * n)]), np.sort(idx[int(0.8 * n):])
    Xa, Xb = abe._minmax(X[a], X[b])
    classes, counts = np.unique(y[a], return_counts=True)
    yb = np.where(y[a] == classes[np.argmax(counts)], 1, -1)

    t0 = time.perf_counter()
    t = abe._weights("lp", Xa, yb, abe.GRIDS["C_M_stage1"])
    t_lp = time.perf_counter() - t0
    F, G = t.transform(Xa), t.transform(Xb)
    D, Dv = abe._sqdist(F, F), abe._sqdist(G, F)
    grid = [(d, C) for d in abe.GRIDS["delta"] for C in abe.GRIDS["C"]]
    pick = [grid[i] for i in np.linspace(0, len(grid) - 1, args.fits).astype(int)]
    t0 = time.perf_counter()
    for d, C in pick:
        K, Kv = np.exp(-d * D), np.exp(-d * Dv)
        SVC(kernel="precomputed", C=C).fit(K, yb).decision_function(Kv)
    t_fit = (time.perf_counter() - t0) / len(pick)

    n_prob = 1 if classes.size == 2 else classes.size
    multi = args.dataset in ("balance", "pima")
    splits_n = 10 if multi else 1
    fits_per_prob = 5 * (63 + 63 + (2 * 63 if multi else 63 + 49))
    lps_per_prob = 5 * (2 if multi else 8) + 1
    total = splits_n * n_prob * (fits_per_prob * t_fit + lps_per_prob * t_lp)
    print(f"{args.dataset}: fold of {a.size} training / {b.size} validation samples, "
          f"{n_prob} one-against-all problem(s), {splits_n} split(s)")
    print(f"  one LP SVM solve (C_M = 2000, {a.size} triplets): {t_lp:.2f} s")
    print(f"  one SVM fit + prediction (mean of {len(pick)} grid points): {t_fit:.3f} s")
    print(f"  protocol: {fits_per_prob * n_prob * splits_n} SVM fits, "
          f"{lps_per_prob * n_prob * splits_n} LP solves (final LPs on the full training "
          "set counted at the fold's LP time: an underestimate)")
    print(f"  estimated: {total / 3600:.2f} single-core hours")


if __name__ == "__main__":
    main()
