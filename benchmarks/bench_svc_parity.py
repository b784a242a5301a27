"""Benchmark: SVMClassifier against scikit-learn's SVC, and SMO's scalar vs vector box.

Five tables, one run, on the shipped real data:

1. **SMO, scalar C vs per-example bounds.**  ``smo(K, y, C)`` and ``smo(K, y, np.full(n,
   C))`` at LIBSVM's stopping rule (``eps = 1e-3``, ``check_input=False``), best of
   ``--repeat``, and ``SVC(kernel="precomputed", tol=1e-3)`` on the same ``K``.  The two
   SMO calls take the same steps (tested bit for bit); the ratio shows what the vector
   path costs per step (two list lookups), and ``scalar / LIBSVM`` is the "smo eps" row of
   ``benchmarks/bench_svm.py`` (docs/svm.md: 0.95-1.7x), so a slowdown of the scalar path
   would show here.
2. **Multiclass fits.**  ``SVMClassifier(tol=1e-3)`` (one-vs-one, certified relative gap
   1e-3 per pair) and ``SVC(tol=1e-3)``, RBF, ``gamma="scale"``, C = 1, with and without
   ``class_weight="balanced"`` and random sample weights: fit time, ratio, test accuracy
   of each, and the largest difference of the ``"ovo"`` decision values.
3. **Binary fits.**  ``SVMClassifier(C=10)`` against ``SVC(C=10)``, RBF, ``gamma="scale"``,
   default tols, on USPS 3 vs 5 and 0 vs 1 (all training images of the two digits): the
   fit with the kernel's Gram-error bound, and with the numerical PSD check it replaced.
4. **The binary fits in turn.**  The same fits, ``30 * repeat`` of each estimator in turn
   in one process: medians, and the ratio fit by fit (median and quartiles).
5. **Grid search.**  ``GridSearchCV`` over 12 (C, gamma) points, 3-fold, on 2250 satimage
   images, ``SVMClassifier(tol=1e-3)`` against ``SVC(tol=1e-3)``.

Instances: USPS 3 vs 5 (1214 training images), Pima (768), USPS 0-4 vs 5-9 (first 5000
training images) for table 1; USPS 10 digits (first 2000 training images, tested on the
2007 test images) and satimage 6 classes (4435 training, 2000 test, standardised) for
table 2.

Run: ``OMP_NUM_THREADS=1 python benchmarks/bench_svc_parity.py [--repeat 3]`` (about 2
minutes on a quiet 2-core machine).
"""

from __future__ import annotations

import argparse
import time
import warnings
from functools import partial

import numpy as np
from sklearn.svm import SVC

from convexkern.algorithms.smo import smo
from convexkern.data import load, load_satimage, load_usps
from convexkern.estimators import SVMClassifier
from convexkern.kernels import RBF


def _best(fn, repeat):
    best, out = np.inf, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def smo_table(repeat: int) -> None:
    ds = load_usps("train")
    keep = (ds.y == 3) | (ds.y == 5)
    X, y = ds.X[keep], np.where(ds.y[keep] == 3, 1.0, -1.0)
    pima = load("pima")
    Xp = (pima.X - pima.X.mean(0)) / pima.X.std(0)
    X5, d5 = ds.X[:5000], ds.y[:5000]
    cases = [("usps 3v5", RBF(gamma=1.0 / (X.shape[1] * X.var()))(X), y),
             ("pima", RBF(gamma=1.0 / Xp.shape[1])(Xp), np.where(pima.y == 1, 1.0, -1.0)),
             ("usps 0-4v5-9 n=5000", RBF(gamma=1.0 / (X5.shape[1] * X5.var()))(X5),
              np.where(d5 < 5, 1.0, -1.0))]
    print("| instance | n | scalar C (s) | vector C (s) | vector / scalar | LIBSVM (s) "
          "| scalar / LIBSVM | same steps |")
    print("|---|---|---|---|---|---|---|---|")
    for name, K, yy in cases:
        n = yy.size
        t_s, r_s = _best(partial(smo, K, yy, 1.0, eps=1e-3, check_input=False), repeat)
        t_v, r_v = _best(partial(smo, K, yy, np.full(n, 1.0), eps=1e-3, check_input=False),
                         repeat)
        t_l, _ = _best(partial(SVC(kernel="precomputed", C=1.0, tol=1e-3).fit, K, yy), repeat)
        same = r_s.iterations == r_v.iterations and np.array_equal(r_s.alpha, r_v.alpha)
        print(f"| {name} | {n} | {t_s:.4f} | {t_v:.4f} | {t_v / t_s:.2f} | {t_l:.4f} | "
              f"{t_s / t_l:.2f} | {same} |")


def multiclass_table(repeat: int) -> None:
    tr, te = load_usps("train"), load_usps("test")
    sat_tr, sat_te = load_satimage("train"), load_satimage("test")
    mu, sd = sat_tr.X.mean(0), sat_tr.X.std(0)
    cases = [("usps 10 classes", tr.X[:2000], tr.y[:2000], te.X, te.y),
             ("satimage 6 classes", (sat_tr.X - mu) / sd, sat_tr.y, (sat_te.X - mu) / sd,
              sat_te.y)]
    print("| instance | n | weights | SVMClassifier (s) | SVC (s) | ratio | accuracy ours "
          "| accuracy SVC | max decision diff |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, Xtr, ytr, Xte, yte in cases:
        sw = np.random.default_rng(0).uniform(0.5, 2.0, size=ytr.size)
        for label, cw, w in (("none", None, None), ("balanced + sample", "balanced", sw)):
            ours = SVMClassifier(tol=1e-3, class_weight=cw, decision_function_shape="ovo")
            ref = SVC(tol=1e-3, class_weight=cw, decision_function_shape="ovo")
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t_o, m_o = _best(partial(ours.fit, Xtr, ytr, w), repeat)
            t_r, m_r = _best(partial(ref.fit, Xtr, ytr, sample_weight=w), repeat)
            acc_o = float(np.mean(m_o.predict(Xte) == yte))
            acc_r = float(np.mean(m_r.predict(Xte) == yte))
            diff = float(np.max(np.abs(m_o.decision_function(Xte) - m_r.decision_function(Xte))))
            print(f"| {name} | {ytr.size} | {label} | {t_o:.3f} | {t_r:.3f} | {t_o / t_r:.2f} "
                  f"| {acc_o:.4f} | {acc_r:.4f} | {diff:.2e} |")


class _CheckedRBF(RBF):
    """The RBF kernel without its Gram-error bound: the estimator then forms the whole
    Gram matrix and proves it PSD numerically (a Cholesky factorisation), as it did for
    every kernel."""

    def gram_error(self, X: np.ndarray) -> None:
        return None


class _WholeGramRBF(RBF):
    """The RBF kernel without rows on demand: the estimator forms the whole Gram matrix
    (PSD by the Gram-error bound, no factorisation), as it did before rows on demand."""

    def gram_rows(self, X: np.ndarray) -> None:
        return None


def binary_table(repeat: int) -> None:
    """``SVMClassifier().fit`` against ``SVC().fit`` on two USPS pairs, RBF, ``C = 10``,
    ``gamma="scale"``, both at their default tol, best of ``repeat``: rows on demand (the
    default) and, for comparison in the same run, the whole Gram matrix with the kernel's
    Gram-error bound, and with the numerical PSD check that bound replaced; and rows on
    demand at ``tol=1e-3``, a certified gap as loose as SVC's own stopping rule."""
    ds = load_usps("train")
    print("| instance | n | SVC fit (s) | SVMClassifier fit (s) | ratio | whole Gram matrix (s) "
          "| ratio | with the numerical PSD check (s) | ratio | same predictions | "
          "certified rel. gap | at tol 1e-3 (s) | ratio | its gap | same predictions |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for a, b in ((3, 5), (0, 1)):
        keep = (ds.y == a) | (ds.y == b)
        X, y = ds.X[keep], ds.y[keep]
        gamma = 1.0 / (X.shape[1] * X.var())
        t_s, svc = _best(partial(SVC(C=10.0, gamma="scale").fit, X, y), repeat)
        t_c, clf = _best(partial(SVMClassifier(C=10.0, gamma="scale").fit, X, y), repeat)
        t_w, _ = _best(partial(SVMClassifier(C=10.0, kernel=_WholeGramRBF(gamma)).fit, X, y),
                       repeat)
        t_k, _ = _best(partial(SVMClassifier(C=10.0, kernel=_CheckedRBF(gamma)).fit, X, y),
                       repeat)
        # SVC's own stopping strictness: a certified relative gap of 1e-3 (SVC's tol =
        # 1e-3 bounds a KKT violation, not a gap)
        t_3, clf3 = _best(partial(SVMClassifier(C=10.0, gamma="scale", tol=1e-3).fit, X, y),
                          repeat)
        same = bool(np.array_equal(svc.predict(X), clf.predict(X)))
        same3 = bool(np.array_equal(svc.predict(X), clf3.predict(X)))
        gap = max(r.rel_gap for r in clf.reports_)
        gap3 = max(r.rel_gap for r in clf3.reports_)
        print(f"| usps {a}v{b} | {y.size} | {t_s:.4f} | {t_c:.4f} | {t_c / t_s:.2f} | "
              f"{t_w:.4f} | {t_w / t_s:.2f} | {t_k:.4f} | {t_k / t_s:.2f} | {same} | "
              f"{gap:.2g} | {t_3:.4f} | {t_3 / t_s:.2f} | {gap3:.2g} | {same3} |")


def turns_table(repeat: int) -> None:
    """The binary fits of :func:`binary_table` (default tols), timed another way: ``30 *
    repeat`` fits of each estimator in turn in one process (``SVMClassifier``, then
    ``SVC``, again and again), so that both see the same drift of the machine; the median
    of each, and the median and quartiles of the ratio fit by fit."""
    ds = load_usps("train")
    print("| instance | n | fits each | SVMClassifier median (s) | SVC median (s) | ratio of "
          "medians | ratio fit by fit: median | quartiles |")
    print("|---|---|---|---|---|---|---|---|")
    runs = 30 * repeat
    for a, b in ((3, 5), (0, 1)):
        keep = (ds.y == a) | (ds.y == b)
        X, y = ds.X[keep], ds.y[keep]
        SVMClassifier(C=10.0).fit(X, y)
        SVC(C=10.0).fit(X, y)
        ours, theirs = np.empty(runs), np.empty(runs)
        for k in range(runs):
            t0 = time.perf_counter()
            SVMClassifier(C=10.0).fit(X, y)
            t1 = time.perf_counter()
            SVC(C=10.0).fit(X, y)
            ours[k], theirs[k] = t1 - t0, time.perf_counter() - t1
        r = ours / theirs
        print(f"| usps {a}v{b} | {y.size} | {runs} | {np.median(ours):.4f} | "
              f"{np.median(theirs):.4f} | {np.median(ours) / np.median(theirs):.2f} | "
              f"{np.median(r):.2f} | {np.quantile(r, 0.25):.2f}-{np.quantile(r, 0.75):.2f} |")


def grid_table(repeat: int) -> None:
    """``GridSearchCV`` over C in {0.1, 1, 10, 100} x gamma in {0.5, 1, 2} / (d var X)
    (12 points, 3-fold, ``n_jobs=1``) on the first 2250 satimage training images
    (standardised, 6 classes, one-vs-one), ``SVMClassifier(tol=1e-3)`` against
    ``SVC(tol=1e-3)``: the time of the whole search (best of ``repeat``), the best
    parameters each found and their test accuracies."""
    from sklearn.model_selection import GridSearchCV

    tr, te = load_satimage("train"), load_satimage("test")
    mu, sd = tr.X.mean(0), tr.X.std(0)
    X, y = (tr.X[:2250] - mu) / sd, tr.y[:2250]
    Xt = (te.X - mu) / sd
    g0 = 1.0 / (X.shape[1] * X.var())
    grid = {"C": [0.1, 1.0, 10.0, 100.0], "gamma": [0.5 * g0, g0, 2.0 * g0]}
    print("| instance | n | grid | SVMClassifier search (s) | SVC search (s) | ratio | best "
          "(ours) | best (SVC) | test accuracy ours | SVC |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t_o, g_o = _best(partial(GridSearchCV(SVMClassifier(tol=1e-3), grid, cv=3).fit, X, y),
                         repeat)
    t_r, g_r = _best(partial(GridSearchCV(SVC(tol=1e-3), grid, cv=3).fit, X, y), repeat)
    acc_o = float(np.mean(g_o.predict(Xt) == te.y))
    acc_r = float(np.mean(g_r.predict(Xt) == te.y))

    def best(g: GridSearchCV) -> str:
        return f"C={g.best_params_['C']:g}, gamma={g.best_params_['gamma'] / g0:g} g0"

    print(f"| satimage 6 classes | {y.size} | 12 x 3-fold | {t_o:.2f} | {t_r:.2f} | "
          f"{t_o / t_r:.2f} | {best(g_o)} | {best(g_r)} | {acc_o:.4f} | {acc_r:.4f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", choices=("smo", "multiclass", "binary", "turns", "grid"),
                        default=None)
    args = parser.parse_args()
    for name, table in (("smo", smo_table), ("multiclass", multiclass_table),
                        ("binary", binary_table), ("turns", turns_table),
                        ("grid", grid_table)):
        if args.only in (None, name):
            table(args.repeat)
            print()


if __name__ == "__main__":
    main()
