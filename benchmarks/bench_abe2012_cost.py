"""Cost of Abe (2012) Table 1 under the paper's protocol, estimated from a few timed units.

``convexkern reproduce abe2012`` runs, per data set, CV jobs that each (one fold, one
``C_M``) solve one LP SVM per one-against-all problem and fit one SVM per problem and
(``delta``, ``C``) grid point on a precomputed Gram matrix; then the final training on the
full training set.  This script times, on one real fold of the chosen data set (4/5 of the
training set, or of ``--cv-max`` samples) and one one-against-all problem (the largest
class vs the rest, or ``--problem``), one LP SVM solve on the fold's triplets, the squared
distances, and ``--deltas`` *blocks* spread over the paper's ``delta`` grid, a block being
one ``delta`` with its 7 values of ``C``:

* ``v1`` (``--compare``; the code before ``abe2012.CV_NUMERICS = "v2"``, kept below as
  :func:`block_v1`): two fresh ``exp`` arrays, then per ``C`` a cold SVC fit and
  ``decision_function``;
* ``v2`` (the current code): ``abe2012._sqdist`` and ``abe2012._gram`` into reused
  buffers (the Gram matrices of the Mahalanobis and RBF kernels once per ``delta`` for all
  problems, which share the kernel), then ``abe2012._decisions_over_C`` (LIBSVM's fits,
  decisions from the support vectors, a ``C``-saturated solution kept for larger ``C``).

It multiplies by the number of such units the protocol needs, per fold and problem:
blocks ``9 (RBF) + 9 (Mahalanobis) + 9 (stage 1, C_M = 2000) + 7 (stage 2, one delta, 7
C_M)`` (v2: 6 in stage 2, the ``C_M = 2000`` row is stage 1's) and LP solves ``1 + 7``
(v2: ``1 + 6``); Balance and Pima: ``9 + 9 + 2 x 9`` blocks and 2 LPs, x 10 splits; x 5
folds; plus one LP per problem for the final training (counted at the fold's LP time: an
underestimate).

Run (each <= 5 minutes on a quiet 2-core machine)::

    python benchmarks/bench_abe2012_cost.py --dataset usps --compare
    python benchmarks/bench_abe2012_cost.py --dataset letter --compare
    python benchmarks/bench_abe2012_cost.py --dataset satimage --compare --problem 3

It prints the unit times, the v1/v2 ratio of a block and the estimated single-core hours
of the full protocol (divide by ``--jobs``); a rough estimate (SVM times vary with the grid
point and the class, and how often a fit saturates with the problem).
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def sqdist_v1(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """Squared distances as the v1 code computed them (fresh temporaries)."""
    return np.maximum((A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2.0 * A @ B.T, 0.0)


def block_v1(D: np.ndarray, Dv: np.ndarray, yb: np.ndarray, delta: float, Cs) -> np.ndarray:
    """One block as the v1 code ran it: fresh Gram matrices, a cold SVC per ``C``."""
    from sklearn.svm import SVC

    K, Kv = np.exp(-delta * D), np.exp(-delta * Dv)
    return np.array([SVC(kernel="precomputed", C=C).fit(K, yb).decision_function(Kv)
                     for C in Cs])


def main() -> None:
    from convexkern.reproduce import abe2012 as abe

    ap = argparse.ArgumentParser()
    ap.add_argument("--dataset", default="letter", choices=abe.DATASETS)
    ap.add_argument("--cv-max", type=int, default=None,
                    help="model selection on this many training samples (the reduction)")
    ap.add_argument("--deltas", type=int, default=3,
                    help="timed blocks (delta values spread over the grid, 7 C each)")
    ap.add_argument("--problem", type=int, default=None,
                    help="one-against-all problem (class index; default: the largest class)")
    ap.add_argument("--compare", action="store_true",
                    help="time the v1 blocks too and compare their decisions with v2's")
    args = ap.parse_args()

    X, y, splits = abe.load_problem(args.dataset)
    tr, _ = splits[0]
    rng = np.random.default_rng(0)
    n = tr.size if args.cv_max is None else min(tr.size, args.cv_max)
    idx = rng.permutation(tr)[:n]
    a, b = np.sort(idx[: int(0.8 * n)]), np.sort(idx[int(0.8 * n):])
    Xa, Xb = abe._minmax(X[a], X[b])
    classes, counts = np.unique(y[a], return_counts=True)
    cls = classes[np.argmax(counts) if args.problem is None else args.problem]
    yb = np.where(y[a] == cls, 1, -1)
    Cs = abe.GRIDS["C"]
    clock = time.perf_counter

    t0 = clock()
    t = abe._weights("lp", Xa, yb, abe.GRIDS["C_M_stage1"])
    t_lp = clock() - t0
    F, G = t.transform(Xa), t.transform(Xb)
    D, Dv = np.empty((F.shape[0], F.shape[0])), np.empty((G.shape[0], F.shape[0]))
    t0 = clock()
    abe._sqdist(F, F, D)
    abe._sqdist(G, F, Dv)
    t_sq = clock() - t0  # v2: into reused buffers
    t_sq1 = 0.0
    if args.compare:
        t0 = clock()
        same = np.array_equal(sqdist_v1(F, F), D) and np.array_equal(sqdist_v1(G, F), Dv)
        t_sq1 = clock() - t0
    grid = abe.GRIDS["delta"]
    picks = [grid[i] for i in np.linspace(0, len(grid) - 1, args.deltas).astype(int)]
    K, Kv = np.empty_like(D), np.empty_like(Dv)
    t_gram = t_fits = t_v1 = 0.0
    agree = []
    for d in picks:
        t0 = clock()
        abe._gram(D, d, K)
        abe._gram(Dv, d, Kv)
        t1 = clock()
        dec2 = abe._decisions_over_C(K, Kv, yb, Cs)
        t2 = clock()
        t_gram, t_fits = t_gram + t1 - t0, t_fits + t2 - t1
        if args.compare:
            t0 = clock()
            dec1 = block_v1(D, Dv, yb, d, Cs)
            t_v1 += clock() - t0
            agree.append((d, int(np.sum(np.sign(dec1) != np.sign(dec2))),
                          float(np.abs(dec1 - dec2).max())))
    k = len(picks)
    t_gram, t_fits, t_v1 = t_gram / k, t_fits / k, t_v1 / k

    P = 1 if classes.size == 2 else classes.size
    multi = args.dataset in ("balance", "pima")
    splits_n, folds = (10 if multi else 1), 5
    if multi:
        b1, b2, lps1, lps2 = 36, 36, 2, 2
        grams2 = 18 + 18 * P
    else:
        b1, b2, lps1, lps2 = 34, 33, 8, 7
        grams2 = 18 + 15 * P
    per_fold_v2 = P * b2 * t_fits + grams2 * t_gram + P * lps2 * (t_lp + t_sq) + 2 * t_sq
    total_v2 = splits_n * (folds * per_fold_v2 + P * t_lp)
    print(f"{args.dataset}: fold of {a.size} training / {b.size} validation samples, "
          f"{P} one-against-all problem(s), {splits_n} split(s); timed problem: class {cls}")
    print(f"  one LP SVM solve (C_M = 2000, {a.size} triplets): {t_lp:.2f} s; "
          f"squared distances: {t_sq:.2f} s" + (f" (v1: {t_sq1:.2f} s, equal: {same})"
                                                 if args.compare else ""))
    print(f"  v2 block (mean of {k}: delta in {picks}): Gram matrices {t_gram:.3f} s + "
          f"7 C {t_fits:.3f} s")
    if args.compare:
        per_fold_v1 = P * b1 * t_v1 + P * lps1 * (t_lp + t_sq1) + 2 * t_sq1
        total_v1 = splits_n * (folds * per_fold_v1 + P * t_lp)
        print(f"  v1 block: {t_v1:.3f} s; block speed-up v1/v2: {t_v1 / (t_gram + t_fits):.2f} "
              f"(lp kernel), {t_v1 / (t_gram / P + t_fits):.2f} (shared kernels)")
        for d, flips, diff in agree:
            print(f"    delta = {d}: v1 and v2 validation decisions differ in sign at {flips} "
                  f"of {b.size * len(Cs)} (sample, C), max |difference| {diff:.2e}")
        print(f"  estimated v1: {total_v1 / 3600:.2f} single-core hours")
    print(f"  estimated v2: {total_v2 / 3600:.2f} single-core hours")


if __name__ == "__main__":
    main()
