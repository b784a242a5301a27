"""Diagnostic for Abe (2012) Table 1: the best *test* rate anywhere on the paper's grid.

For a data set and a kernel, every (``delta``, ``C``) grid point (and ``C_M`` for the
proposed kernel) is trained on the training set and scored on the test set
(:func:`convexkern.reproduce.abe2012.fold_scores` with the test set in the validation
slot), averaged over the splits.  The maximum ("oracle", not a valid protocol: it selects
on the test data) says whether the paper's number is reachable with our data, kernel and
grid at all; the gap between it and the cross-validated rate is what model selection
costs.  Used to check the causes of deviations in docs/lp_svm.md.

Run: ``python benchmarks/abe2012_grid_oracle.py balance rbf [--C-M 2000] [--splits 10]``
(Balance or Pima, all splits: a few minutes on a quiet 2-core machine).
"""

from __future__ import annotations

import argparse

import numpy as np


def main() -> None:
    from convexkern.reproduce import abe2012 as abe

    ap = argparse.ArgumentParser()
    ap.add_argument("dataset", choices=abe.DATASETS)
    ap.add_argument("method", choices=abe.METHODS)
    ap.add_argument("--C-M", type=float, nargs="*", default=None,
                    help="C_M values of the proposed kernel (default: the protocol's)")
    ap.add_argument("--splits", type=int, default=10)
    args = ap.parse_args()
    X, y, splits = abe.load_problem(args.dataset, n_splits=args.splits)
    g = abe.GRIDS
    deltas = g["delta_cov"] if args.method == "covariance" else g["delta"]
    if args.method == "lp":
        C_Ms = args.C_M or (g["C_M_multi"] if len(splits) > 1 else g["C_M"])
    else:
        C_Ms = [None]
    rates = np.array([[abe.fold_scores((X, y, tr, te, args.method, C_M, deltas, g["C"]))["rates"]
                       for C_M in C_Ms] for tr, te in splits])  # (split, C_M, delta, C)
    mean = rates.mean(axis=0)
    k, i, j = np.unravel_index(int(np.argmax(mean)), mean.shape)
    print(f"{args.dataset} {args.method}: {len(splits)} split(s); best mean test rate on the "
          f"grid {mean[k, i, j]:.2f} ± {rates[:, k, i, j].std():.2f} at C_M={C_Ms[k]}, "
          f"delta={deltas[i]}, C={g['C'][j]}")
    q = np.percentile(mean, [0, 25, 50, 75, 100])
    print("  mean test rates over the grid: min/25%/median/75%/max = "
          + " / ".join(f"{v:.2f}" for v in q))
    print("  per C: " + ", ".join(f"C={C}: {mean[:, :, c].max():.2f}"
                                  for c, C in enumerate(g["C"])))
    print("  per delta: " + ", ".join(f"{d}: {mean[:, r, :].max():.2f}"
                                      for r, d in enumerate(deltas)))


if __name__ == "__main__":
    main()
