"""Reproduction of Table 1 of Abe, "Training Mahalanobis kernels by linear programming"
(ICANN 2012, LNCS 7553:339-346): recognition rates of one-against-all SVMs with the
LP-trained diagonal Mahalanobis kernel ("Proposed"), the covariance Mahalanobis kernel of
(1)-(2) ("Mahalanobis"), the RBF kernel, and the average number of inputs the LP keeps per
decision function ("Final"), printed beside the paper's own numbers (:data:`PAPER_TABLE1`).

Protocol (``convexkern reproduce abe2012``), following the paper's Section 4:

* data, shipped with the package, with the paper's In/Cl/Tr/Te: Thyroid (21/3/3772/3428),
  Abalone (8/3/3133/1044: rings 1-8, 9-10, 11-29; ``sex`` as one input coded M, F, I =
  0, 1, 2), Satimage (36/6/4435/2000), USPS (256/10/7291/2007), Letter (16/26/16000/4000)
  on their given splits; Balance (4/3/532/93) and Pima Indians (8/2/653/115) over 10
  seeded random splits (mean and standard deviation).  Blood and Hiragana-50/13/105 are
  not available to us (:data:`NOT_AVAILABLE`);
* inputs scaled to [0, 1] on the training data (on the training folds within CV);
* kernels ``exp(-(delta/m) sum_i R_ii (x_i - x'_i)^2)``: ``R`` from the LP SVM (10)-(13)
  on the triplets of each one-against-all problem, rescaled to ``sum R = m`` (the paper
  does not say how ``R`` is scaled; this gives ``delta`` the meaning of the RBF ``gamma``);
  ``R = 1/var`` for the Mahalanobis kernel (2) (unscaled, as printed); ``R = 1`` for RBF;
* one-against-all L1 SVMs, class = argmax of the decision values (the fuzzy
  one-against-all SVM of the paper's [8] classifies by the same argmax); a two-class set
  has one decision function;
* fivefold cross-validation over the paper's grids: ``C`` in {1, 10, 50, 100, 500, 1000,
  2000}, ``delta`` (proposed) and ``gamma`` (RBF) in {0.1, 0.5, 1, 5, 10, 20, 50, 100,
  200}, ``delta`` (Mahalanobis) in {0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 20};
* ``C_M`` as in the paper: for single splits, in two stages (``C_M = 2000``, CV over
  ``C`` and ``delta``; then ``delta`` fixed, CV over ``C_M`` and ``C``; the paper does
  not print the stage-2 grid of ``C_M``: we use the ``C`` grid {1, ..., 2000}); for the
  multiple splits (Balance, Pima) ``C_M`` in {1, 2000} with ``C`` and ``delta`` by CV and
  the ``C_M`` of the higher CV rate kept.

Each CV job is one (fold, ``C_M``) pair through :meth:`Context.parallel`, which computes
the triplet LPs of every one-against-all problem once and every (``delta``, ``C``) SVM on
precomputed Gram matrices; the final one-against-all LPs (26 of 16000 triplets on
Letter) run in parallel too; with several workers the first CV stage of the three kernels
is one batch, so no worker idles between kernels.  With a :class:`Context` every job is
cached on disk, so an interrupted run resumes; the key includes :data:`CV_NUMERICS`.
The job's numerics ("v2") cut its cost without changing the protocol: distances and Gram
matrices in reused buffers (the Mahalanobis and RBF Gram matrices once per ``delta`` for
all problems), decision values from the support vectors, a LIBSVM solution with no
``alpha`` at its bound kept for the larger ``C`` of the grid (:func:`_decisions_over_C`),
and stage 2's ``C_M = 2000`` row taken from stage 1.

``cv_max`` (environment ``CONVEXKERN_ABE2012_CV_MAX``): when set, model selection runs on
a stratified subsample of that many training samples (the final training and the test
use the full sets) -- a stated reduction for USPS and Letter on a small machine; unset,
the paper's protocol runs in full.  ``--quick`` (CI): Thyroid (600 train / 1500 test),
one split of Balance and Pima, 3-fold CV over small grids.  Which data sets run can be
narrowed by ``ctx.datasets`` or ``CONVEXKERN_DATASETS=thyroid,pima``.
"""

from __future__ import annotations

import os
import time
import warnings
from typing import Any

import numpy as np

from ..errors import InvalidInputError
from .harness import Context, ReproductionResult, markdown_table, seeded_splits

__all__ = ["PAPER_TABLE1", "NOT_AVAILABLE", "DATASETS", "GRIDS", "QUICK_GRIDS",
           "load_problem", "evaluate", "table1", "report_markdown", "theorems_markdown",
           "combine", "reproduce"]

#: Abe (2012), Table 1, as printed (accepted manuscript, Kobe University repository,
#: hdl 20.500.14094/90001766): In/Cl/Tr/Te, test recognition rates (%) of the proposed
#: kernel, the Mahalanobis kernel (1)-(2), the RBF kernel and the Mahalanobis distance of
#: Shen et al. [6] ("—" printed: ``None``), and "Final", the average number of inputs per
#: decision function kept by the LP.  Balance and Pima: mean and standard deviation over
#: 10 random splits.
PAPER_TABLE1: dict[str, dict[str, Any]] = {
    "thyroid": {"shape": "21/3/3772/3428", "lp": 97.93, "covariance": 97.49, "rbf": 96.47,
                "shen": None, "final": 17.7},
    "blood": {"shape": "13/12/3097/3100", "lp": 93.77, "covariance": 93.32, "rbf": 93.52,
              "shen": None, "final": 12.3},
    "hiragana50": {"shape": "50/39/4610/4610", "lp": 98.85, "covariance": 99.31,
                   "rbf": 99.26, "shen": None, "final": 24.0},
    "hiragana13": {"shape": "13/38/8375/8356", "lp": 99.86, "covariance": 99.80,
                   "rbf": 99.77, "shen": None, "final": 10.4},
    "hiragana105": {"shape": "105/38/8375/8356", "lp": 100.0, "covariance": 100.0,
                    "rbf": 100.0, "shen": None, "final": 39.2},
    "abalone": {"shape": "8/3/3133/1044", "lp": 66.38, "covariance": 67.63, "rbf": 65.04,
                "shen": None, "final": 7.0},
    "satimage": {"shape": "36/6/4435/2000", "lp": 91.20, "covariance": 91.00, "rbf": 91.90,
                 "shen": None, "final": 31.8},
    "usps": {"shape": "256/10/7291/2007", "lp": 95.32, "covariance": 94.77, "rbf": 95.47,
             "shen": None, "final": 116.0},
    "letter": {"shape": "16/26/16000/4000", "lp": 98.23, "covariance": 97.58, "rbf": 97.83,
               "shen": 96.54, "final": 15.8},
    "balance": {"shape": "4/3/532/93", "lp": 99.03, "lp_std": 1.12, "covariance": 97.96,
                "covariance_std": 2.01, "rbf": 99.03, "rbf_std": 1.22, "shen": 90.22,
                "shen_std": 3.17, "final": 4.0},
    "pima": {"shape": "8/2/653/115", "lp": 74.96, "lp_std": 3.92, "covariance": 75.31,
             "covariance_std": 3.98, "rbf": 75.13, "rbf_std": 4.14, "shen": 72.36,
             "shen_std": 3.71, "final": 8.0},
}

#: Data sets of Table 1 we do not have (from the author's book [8], not public).
NOT_AVAILABLE = ("blood", "hiragana50", "hiragana13", "hiragana105")

DATASETS = ("thyroid", "abalone", "satimage", "usps", "letter", "balance", "pima")
QUICK_DATASETS = ("thyroid", "balance", "pima")
_SINGLE = ("thyroid", "abalone", "satimage", "usps", "letter")
_MULTI_SPLIT = {"balance": 93, "pima": 115}  # test size of each of the 10 random splits
METHODS = ("lp", "covariance", "rbf")
_TRANSFORM = {"lp": "lp", "covariance": "covariance", "rbf": "identity"}

#: The paper's grids (Section 4).  ``C_M`` is the stage-2 grid (not printed: ours),
#: ``C_M_stage1`` the first stage's value, ``C_M_multi`` the two values for Balance, Pima.
GRIDS: dict[str, Any] = {
    "C": [1.0, 10.0, 50.0, 100.0, 500.0, 1000.0, 2000.0],
    "delta": [0.1, 0.5, 1.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0],
    "delta_cov": [0.01, 0.05, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0],
    "C_M_stage1": 2000.0,
    "C_M": [1.0, 10.0, 50.0, 100.0, 500.0, 1000.0, 2000.0],
    "C_M_multi": [1.0, 2000.0],
}
QUICK_GRIDS: dict[str, Any] = {
    "C": [10.0, 1000.0], "delta": [1.0, 10.0], "delta_cov": [0.1, 1.0],
    "C_M_stage1": 2000.0, "C_M": [10.0, 2000.0], "C_M_multi": [1.0, 2000.0],
}


def _abalone_problem(data: Any) -> tuple[np.ndarray, np.ndarray, int]:
    ds = data.load_abalone(sex="onehot")
    sex = ds.X[:, :3] @ np.array([0.0, 1.0, 2.0])  # sex_M, sex_F, sex_I -> 0, 1, 2
    X = np.column_stack([sex, ds.X[:, 3:]])
    y = np.where(ds.y <= 8, 0, np.where(ds.y <= 10, 1, 2))
    return X, y, int(ds.split_index)


def load_problem(name: str, *, quick: bool = False, seed: int = 0, n_splits: int = 10):
    """``(X, y, splits)`` of one data set of Table 1; ``splits`` = list of (train, test)."""
    from .. import data

    if name not in DATASETS:
        msg = (f"'{name}' is not available (Table 1's Blood and Hiragana sets are not "
               "shipped)" if name in NOT_AVAILABLE else f"unknown data set '{name}'")
        raise InvalidInputError("datasets", f"{msg}; available: {list(DATASETS)}")
    if name in _SINGLE:
        if name == "abalone":
            X, y, s = _abalone_problem(data)
        else:
            ds = {"thyroid": data.load_thyroid, "satimage": data.load_satimage,
                  "usps": data.load_usps, "letter": lambda: data.load("letter")}[name]()
            X, y, s = ds.X, ds.y, int(ds.split_index)
        tr, te = np.arange(s), np.arange(s, len(y))
        if quick:
            rng = np.random.default_rng(seed)
            tr = np.sort(rng.choice(tr, min(tr.size, 600), replace=False))
            te = np.sort(rng.choice(te, min(te.size, 1500), replace=False))
        return X, y, [(tr, te)]
    ds = data.load(name)
    return ds.X, ds.y, seeded_splits(ds.y, test_size=_MULTI_SPLIT[name],
                                     n_splits=1 if quick else n_splits, seed=seed)


# ----------------------------------------------------------------------------- numerics
def _minmax(X_fit: np.ndarray, *others: np.ndarray) -> list[np.ndarray]:
    lo = X_fit.min(axis=0)
    rng = X_fit.max(axis=0) - lo
    rng = np.where(rng > 0, rng, 1.0)
    return [(Z - lo) / rng for Z in (X_fit, *others)]


def _problems(y: np.ndarray, classes: np.ndarray) -> list[np.ndarray]:
    """Labels of the one-against-all problems (one for two classes: classes[1] vs rest)."""
    pos = classes[1:] if classes.size == 2 else classes
    return [np.where(y == c, 1, -1) for c in pos]


def _predict(dec: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """Class of the largest decision value (rows of ``dec``: one per problem)."""
    if classes.size == 2:
        return np.where(dec[0] > 0, classes[1], classes[0])
    return classes[np.argmax(dec, axis=0)]


def _weights(method: str, X: np.ndarray, yb: np.ndarray, C_M: float | None):
    """``(R, transformer)`` of one problem on [0, 1]-scaled inputs (R: sum m for LP)."""
    from ..estimators import LPMahalanobis

    t = LPMahalanobis(C_M=C_M or 1.0, delta=1.0, method=_TRANSFORM[method], scale=False,
                      normalize=method != "covariance")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an R = 0 fallback is recorded in fallback_
        t.fit(X, yb)
    return t


def _sqdist(A: np.ndarray, B: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """Squared distances ``max(|a|^2 + |b|^2 - (2A) B', 0)`` of the rows, written into
    ``out`` when given (the same values, without fresh ``n x n`` temporaries)."""
    if out is None:
        out = np.empty((A.shape[0], B.shape[0]))
    aa, bb = (A * A).sum(1), (B * B).sum(1)
    np.matmul(2.0 * A, B.T, out=out)
    step = max(1, 2**23 // max(1, B.shape[0]))  # row blocks of <= 64 MB temporaries
    for i in range(0, A.shape[0], step):
        blk = out[i:i + step]
        np.subtract(aa[i:i + step, None] + bb[None, :], blk, out=blk)
    return np.maximum(out, 0.0, out=out)


def _lp_status(t: Any) -> str:
    return "n/a" if t.lp_report_ is None else t.lp_report_.status.value


#: Tag of the numerics of one CV job, part of every job (so of its on-disk cache key):
#: change it whenever :func:`fold_scores` or its helpers compute something different.
#: "v2": Gram matrices in reused buffers, decision values from the support vectors, and
#: the saturated-``C`` reuse of :func:`_decisions_over_C` (v1: one cold SVC per grid point).
CV_NUMERICS = "v2"


def _gram(D: np.ndarray, delta: float, out: np.ndarray) -> np.ndarray:
    """``exp(-delta D)`` written into ``out`` (the same values as ``np.exp(-delta * D)``,
    without allocating two fresh ``n x n`` arrays per grid value)."""
    np.multiply(D, -delta, out=out)
    return np.exp(out, out=out)


def _decisions_over_C(Ktr: np.ndarray, Kva: np.ndarray, yb: np.ndarray, Cs) -> np.ndarray:
    """Validation decision values of the L1 SVM for every ``C`` in ``Cs`` (one row each).

    Each fit is scikit-learn's LIBSVM (``tol = 1e-3``) on the precomputed Gram matrix.
    Going through ``Cs`` in increasing order, a solution with no ``alpha`` at its bound
    ``C_k`` is kept for every larger ``C``: its working sets ``I_up``, ``I_low`` and its
    gradient do not depend on ``C`` as long as ``alpha < C``, so it meets LIBSVM's stopping
    rule (maximal violation ``< tol``, Fan, Chen & Lin 2005, Sec. 2) for ``C > C_k`` too,
    with the same free vectors and hence the same bias -- it is what LIBSVM returns when
    started from it.  (A cold fit at ``C`` may end at another point within ``tol``.)
    LIBSVM's row cache is sized to hold every row (its size changes time, not the result).
    """
    from sklearn import config_context
    from sklearn.svm import SVC

    n = Ktr.shape[0]
    cache_mb = max(200.0, min(1024.0, 4.0 * n * n / 2**20 + 1.0))  # every row (float32) fits
    out = np.empty((len(Cs), Kva.shape[0]))
    kept: tuple[float, np.ndarray] | None = None  # (C_k, decisions) of a saturated fit
    for j in np.argsort(Cs, kind="stable"):
        C = float(Cs[j])
        if kept is not None and C >= kept[0]:
            out[j] = kept[1]
            continue
        with config_context(assume_finite=True):  # exp of finite numbers: skip the scan
            svm = SVC(kernel="precomputed", C=C, cache_size=cache_mb).fit(Ktr, yb)
        coef = svm.dual_coef_[0]  # y_s alpha_s of the support vectors
        out[j] = Kva[:, svm.support_] @ coef + svm.intercept_[0]
        if np.abs(coef).max() < C:
            kept = (C, out[j])
    return out


def fold_scores(job: tuple) -> dict[str, Any]:
    """One CV job: validation rates over ``deltas x Cs`` for one fold and one ``C_M``.

    ``job = (X, y, tr, va, method, C_M, deltas, Cs[, numerics])``; the kernel of each
    one-against-all problem is trained on ``X[tr]`` (the LP once per problem; the
    Mahalanobis and RBF kernels are shared by all problems, so their Gram matrices are
    computed once per ``delta``), every SVM is fitted on a precomputed Gram matrix
    ``exp(-(delta/m) sum R (x - x')^2)`` (:func:`_decisions_over_C`).  ``numerics``
    (:data:`CV_NUMERICS`) only keys the cache.
    """
    X, y, tr, va, method, C_M, deltas, Cs = job[:8]
    Xtr, Xva = _minmax(X[tr], X[va])
    classes = np.unique(y[tr])
    probs = _problems(y[tr], classes)
    dec = np.zeros((len(probs), len(deltas), len(Cs), va.size))
    if method == "lp":  # one kernel per problem, trained on its own triplets
        groups = (([p], _weights(method, Xtr, yb, C_M)) for p, yb in enumerate(probs))
    else:
        groups = iter([(list(range(len(probs))), _weights(method, Xtr, probs[0], None))])
    Dtr, Ktr = np.empty((tr.size, tr.size)), np.empty((tr.size, tr.size))
    Dva, Kva = np.empty((va.size, tr.size)), np.empty((va.size, tr.size))
    selected, statuses = [], []
    for members, t in groups:
        selected += [t.n_selected_] * len(members)
        statuses += [_lp_status(t)] * len(members)
        Ftr, Fva = t.transform(Xtr), t.transform(Xva)  # sqrt(R/m) x (delta = 1)
        _sqdist(Ftr, Ftr, Dtr)
        _sqdist(Fva, Ftr, Dva)
        for i, d in enumerate(deltas):
            _gram(Dtr, d, Ktr)
            _gram(Dva, d, Kva)
            for p in members:
                dec[p, i] = _decisions_over_C(Ktr, Kva, probs[p], Cs)
    rates = np.zeros((len(deltas), len(Cs)))
    for i in range(len(deltas)):
        for j in range(len(Cs)):
            rates[i, j] = 100.0 * np.mean(_predict(dec[:, i, j], classes) == y[va])
    return {"rates": rates, "selected": selected, "lp_status": statuses}


def _cv_jobs(X, y, tr, method, C_Ms, deltas, Cs, folds, seed, cv_max):
    """``(jobs, n_cv)``: the :func:`fold_scores` jobs of one CV grid (``C_M``-major, then
    fold) and the number of training samples model selection runs on."""
    from sklearn.model_selection import StratifiedKFold

    if cv_max and tr.size > cv_max:
        from sklearn.model_selection import train_test_split
        tr, _ = train_test_split(tr, train_size=cv_max, stratify=y[tr], random_state=seed)
        tr = np.sort(tr)
    skf = StratifiedKFold(folds, shuffle=True, random_state=seed)
    splits = [(tr[a], tr[b]) for a, b in skf.split(np.zeros(tr.size), y[tr])]
    jobs = [(X, y, a, b, method, C_M, list(deltas), list(Cs), CV_NUMERICS) for C_M in C_Ms
            for a, b in splits]
    return jobs, int(tr.size)


def _first_grid(method: str, grids: dict, stages: int) -> tuple[list, list]:
    """``(C_Ms, deltas)`` of the CV grid :func:`evaluate` runs first for ``method``: for the
    LP kernel stage 1 at ``C_M_stage1`` (``stages=2``) or the ``C_M_multi`` grid
    (``stages=1``); ``C_M = None`` for the other kernels."""
    deltas = grids["delta_cov"] if method == "covariance" else grids["delta"]
    C_Ms = ([None] if method != "lp" else [grids["C_M_stage1"]] if stages == 2
            else grids["C_M_multi"])
    return list(C_Ms), list(deltas)


def _first_stage_jobs(X, y, tr, method, grids, folds, seed, cv_max, stages) -> list[tuple]:
    """The CV jobs :func:`evaluate` runs first for ``method``: the same tuples, so the same
    cache entries."""
    C_Ms, deltas = _first_grid(method, grids, stages)
    return _cv_jobs(X, y, tr, method, C_Ms, deltas, grids["C"], folds, seed, cv_max)[0]


def _cv_grid(X, y, tr, method, C_Ms, deltas, Cs, folds, seed, ctx, cv_max):
    """Mean CV rate over ``C_Ms x deltas x Cs`` (array of that shape) on training ``tr``."""
    jobs, n_cv = _cv_jobs(X, y, tr, method, C_Ms, deltas, Cs, folds, seed, cv_max)
    fn = fold_scores if ctx is None else ctx.cached(fold_scores)
    out = ctx.parallel(fn, jobs) if ctx is not None else [fn(j) for j in jobs]
    rates = np.array([o["rates"] for o in out]).reshape(len(C_Ms), folds, len(deltas), len(Cs))
    bad = sorted({s for o in out for s in o["lp_status"] if s not in ("optimal", "n/a")})
    return rates.mean(axis=1), bad, n_cv


def _best(mean: np.ndarray) -> tuple[int, ...]:
    """Index of the highest mean CV rate (ties: the first in grid order)."""
    return tuple(int(i) for i in np.unravel_index(int(np.argmax(mean)), mean.shape))


def final_fit(job: tuple) -> dict[str, Any]:
    """One one-against-all problem trained on the full training set; test decisions."""
    from sklearn.svm import SVC

    X, tr, te, yb, method, C_M, delta, C = job
    Xtr, Xte = _minmax(X[tr], X[te])
    t = _weights(method, Xtr, yb, C_M)
    Ftr, Fte = t.transform(Xtr), t.transform(Xte)
    svm = SVC(kernel="rbf", gamma=float(delta), C=float(C)).fit(Ftr, yb)
    return {"dec": svm.decision_function(Fte), "selected": t.n_selected_,
            "support": t.support_, "fallback": bool(t.fallback_), "lp_status": _lp_status(t)}


def evaluate(X, y, tr, te, method: str, grids: dict, *, folds: int = 5, seed: int = 0,
             stages: int = 2, ctx: Context | None = None,
             cv_max: int | None = None) -> dict[str, Any]:
    """Select the parameters of one kernel by CV on ``tr``, train on ``tr``, test on ``te``.

    ``stages=2``: the paper's two-stage ``C_M`` selection (single splits); ``stages=1``:
    ``C_M`` in ``grids["C_M_multi"]`` jointly with ``delta`` and ``C`` (multiple splits).
    """
    t0 = time.perf_counter()
    Cs = grids["C"]
    args = (folds, seed, ctx, cv_max)
    C_Ms1, deltas = _first_grid(method, grids, stages)
    mean1, bad, n_cv = _cv_grid(X, y, tr, method, C_Ms1, deltas, Cs, *args)
    k, i1, j = _best(mean1)
    C_M, delta, C, cv_rate = C_Ms1[k], deltas[i1], Cs[j], float(mean1[k, i1, j])
    if method == "lp" and stages == 2:  # stage 2: delta fixed, CV over C_M and C
        C1, C_Ms = C_Ms1[0], grids["C_M"]
        # stage 2 at C_M = C1 repeats stage 1's jobs at delta exactly (same folds, LPs and
        # fits): its rates are taken from stage 1
        rest = [c for c in C_Ms if c != C1]
        mean2, bad2, _ = (_cv_grid(X, y, tr, method, rest, [delta], Cs, *args) if rest
                          else (None, [], n_cv))
        mean = np.stack([mean1[0, i1:i1 + 1] if c == C1 else mean2[rest.index(c)]
                         for c in C_Ms])
        k, _, j = _best(mean)
        C_M, C, cv_rate = C_Ms[k], Cs[j], float(mean[k, 0, j])
        bad = sorted(set(bad) | set(bad2))
    if ctx is not None:
        ctx.progress(f"  {method}: CV {cv_rate:.2f}% at C_M={C_M}, delta={delta}, C={C}; "
                     "final training")
    classes = np.unique(y[tr])
    jobs = [(X, tr, te, yb, method, C_M, delta, C) for yb in _problems(y[tr], classes)]
    fn = final_fit if ctx is None else ctx.cached(final_fit)
    fits = ctx.parallel(fn, jobs) if ctx is not None else [fn(j) for j in jobs]
    pred = _predict(np.array([f["dec"] for f in fits]), classes)
    union = np.unique(np.concatenate([f["support"] for f in fits]))
    statuses = [f["lp_status"] for f in fits]
    return {"rate": 100.0 * float(np.mean(pred == y[te])),
            "best": {"C_M": C_M, "delta": delta, "C": C}, "cv_rate": cv_rate,
            "cv_samples": n_cv, "selected_mean": float(np.mean([f["selected"] for f in fits])),
            "selected_union": int(union.size),
            "fallbacks": int(sum(f["fallback"] for f in fits)),
            "lp_not_optimal": sorted(set(bad) | {s for s in statuses
                                                 if s not in ("optimal", "n/a")}),
            "time": time.perf_counter() - t0}


def table1(ctx: Context | None = None, *, datasets=None, quick: bool = False, seed: int = 0,
           methods=METHODS, grids: dict | None = None, folds: int | None = None,
           n_splits: int = 10, cv_max: int | None = None) -> dict[str, Any]:
    """Run Table 1 and return ``{dataset: {method: {...}}}`` with per-split results.

    ``grids`` (keys of :data:`GRIDS`), ``folds``, ``n_splits`` (Balance, Pima) and
    ``cv_max`` (model selection on a subsample) override the protocol's defaults.
    """
    names = list(datasets or (QUICK_DATASETS if quick else DATASETS))
    grids = grids or (QUICK_GRIDS if quick else GRIDS)
    folds = folds or (3 if quick else 5)
    out: dict[str, Any] = {}
    for name in names:
        X, y, splits = load_problem(name, quick=quick, seed=seed, n_splits=n_splits)
        tr0, te0 = splits[0]
        res: dict[str, Any] = {
            "shape": f"{X.shape[1]}/{np.unique(y).size}/{tr0.size}/{te0.size}",
            "splits": len(splits)}
        stages = 1 if name in _MULTI_SPLIT else 2
        if ctx is not None and (ctx.n_jobs > 1 or ctx.backend == "dask"):
            # every method's first CV stage in one batch, longest (LP) jobs first, so no
            # worker idles between methods; evaluate() below reads them from the cache
            batch = [j for method in methods for i, (tr, _) in enumerate(splits)
                     for j in _first_stage_jobs(X, y, tr, method, grids, folds, seed + i,
                                                cv_max, stages)]
            ctx.progress(f"{name}: {len(batch)} first-stage CV jobs of "
                         f"{', '.join(methods)} in one batch")
            ctx.parallel(ctx.cached(fold_scores), batch)
        for method in methods:
            runs = []
            for i, (tr, te) in enumerate(splits):
                if ctx is not None:
                    ctx.progress(f"{name}: {method} kernel, split {i + 1}/{len(splits)} "
                                 f"({tr.size} train, {te.size} test)")
                runs.append(evaluate(X, y, tr, te, method, grids, folds=folds,
                                     seed=seed + i, stages=stages, ctx=ctx, cv_max=cv_max))
            rates = np.array([r["rate"] for r in runs])
            res[method] = {"rate_mean": float(rates.mean()), "rate_std": float(rates.std()),
                           "selected_mean": float(np.mean([r["selected_mean"] for r in runs])),
                           "selected_union": float(np.mean([r["selected_union"] for r in runs])),
                           "runs": runs}
        out[name] = res
    return out


# ----------------------------------------------------------------------------- report
def _ours(v: dict | None) -> str:
    if v is None:
        return "not run"
    return f"{v['rate_mean']:.2f}" + (f" ± {v['rate_std']:.2f}" if v["rate_std"] > 0 else "")


def _paper(p: dict, key: str) -> str:
    v = p.get(key)
    if v is None:
        return "—"
    std = p.get(f"{key}_std")
    return f"{v:.2f}" + (f" ± {std:.2f}" if std is not None else "")


def _diff(ours: float | None, paper: float | None, limit: float = 1.5) -> str:
    if ours is None or paper is None:
        return "—"
    d = ours - paper
    return f"{d:+.2f}" + (" †" if abs(d) > limit else "")


def report_markdown(res: dict[str, Any], *, quick: bool = False,
                    cv_max: int | None = None) -> str:
    """Table 1 beside the paper's (every row of the paper's table, ours where run)."""
    rows = []
    for name in (*DATASETS, *NOT_AVAILABLE):
        p, r = PAPER_TABLE1[name], res.get(name)
        if name in NOT_AVAILABLE:
            rows.append([name, p["shape"], "not available"] + ["—", _paper(p, "lp"), "—",
                        "—", _paper(p, "covariance"), "—", "—", _paper(p, "rbf"), "—",
                        "—", _paper(p, "final"), "—"])
            continue
        cells = [name, f"{p['shape']}" + ("" if r is None or r["shape"] == p["shape"]
                                          else f" (ours {r['shape']})"),
                 "—" if r is None else str(r["splits"])]
        for key in METHODS:
            v = None if r is None else r.get(key)
            cells += [_ours(v), _paper(p, key),
                      _diff(None if v is None else v["rate_mean"], p[key])]
        lp = None if r is None else r.get("lp")
        cells += ["not run" if lp is None else f"{lp['selected_mean']:.1f}", _paper(p, "final"),
                  _diff(None if lp is None else lp["selected_mean"], p["final"], limit=np.inf)]
        rows.append(cells)
    header = ["data", "In/Cl/Tr/Te (paper)", "splits", "Proposed (ours)", "paper", "diff",
              "Mahalanobis (ours)", "paper", "diff", "RBF (ours)", "paper", "diff",
              "Final (ours)", "paper", "diff"]
    md = ("Recognition rates (%) on the test data, ours beside Abe (2012), Table 1 "
          "(\"paper\", as printed; Balance and Pima: mean ± std over 10 random splits); "
          "diff = ours − paper, † marks |diff| > 1.5 points. Final = inputs kept by the LP "
          "per decision function (mean).\n\n" + markdown_table(header, rows) + "\n\n"
          "The paper's fourth method, the Mahalanobis distance of Shen et al. [6], is not "
          "reproduced; its printed rates: Letter 96.54, Balance 90.22 ± 3.17, Pima "
          "72.36 ± 3.71. Blood and Hiragana-50/13/105 (from the author's book [8]) are not "
          "available to us.\n")
    sel = []
    for name, r in res.items():
        for key in METHODS:
            for i, run in enumerate(r[key]["runs"][:3] if key in r else ()):
                b = run["best"]
                sel.append([name, key, i + 1, f"{run['rate']:.2f}", f"{run['cv_rate']:.2f}",
                            run["cv_samples"], "—" if b["C_M"] is None else b["C_M"],
                            b["delta"], b["C"], run["fallbacks"],
                            ", ".join(run["lp_not_optimal"]) or "—"])
    if sel:
        md += ("\nSelected parameters (first splits shown): CV rate on the training data, "
               "samples used for model selection, `C_M`, `delta` (RBF: `gamma`), `C`; "
               "fallbacks = problems whose LP gave R = 0; LP statuses other than optimal.\n\n"
               + markdown_table(["data", "kernel", "split", "test %", "CV %", "CV samples",
                                 "C_M", "delta", "C", "fallbacks", "LP not optimal"], sel)
               + "\n")
    if cv_max:
        md += (f"\n_Reduced: model selection on a stratified subsample of at most {cv_max} "
               "training samples (final training and test on the full sets)._\n")
    if quick:
        md += ("\n_Quick run: subsampled Thyroid (600 train / 1500 test), one split of "
               "Balance and Pima, 3-fold CV over 2-value grids; not comparable to the "
               "paper._\n")
    return md


def combine(paths: list[str]) -> str:
    """Table 1 of several runs' ``results.json`` (e.g. data sets run separately) as one
    report table; the data sets of later files replace those of earlier ones."""
    import json

    res: dict[str, Any] = {}
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            res.update(json.load(fh)["results"])
    return report_markdown({k: res[k] for k in DATASETS if k in res})


def _theorem_cases() -> list[tuple[str, Any]]:
    """(label, thunk) pairs: each printed theorem checked on real triplets."""
    from .. import data
    from ..formulations import lp_svm
    from ..verify import lp_svm as th

    def A_of(name: str) -> np.ndarray:
        ds = data.load(name)
        return lp_svm.triplet_matrix(_minmax(ds.X)[0], ds.y)

    Ab, Ap = A_of("balance"), A_of("pima")
    Mb, Mp = Ab.shape[0], Ap.shape[0]
    Asep = Ab[Ab.sum(axis=1) > 0]  # triplets with a positive equal-weight margin
    return [
        (f"Balance, C_ρ = 2/M = {2 / Mb:.4g}", lambda: th.check_theorem_1(Ab, 2.0 / Mb)),
        (f"Pima, C_ρ = 2/M = {2 / Mp:.4g}", lambda: th.check_theorem_1(Ap, 2.0 / Mp)),
        (f"Balance, C_ρ = 0.5/M = {0.5 / Mb:.4g}", lambda: th.check_theorem_2(Ab)),
        ("Balance, C_ρ ∈ {1, 2, 10, 100}", lambda: th.check_theorem_3(Ab)),
        ("Pima, C_0 = 1, t ∈ {1.5, 2, 10}", lambda: th.check_theorem_4(Ap, 1.0)),
        (f"Balance triplets with a positive equal-weight margin ({Asep.shape[0]}), C_0 = 1",
         lambda: th.check_theorem_4(Asep, 1.0)),
        (f"Balance, C_0 = 2/M = {2 / Mb:.4g} (hypothesis not met)",
         lambda: th.check_theorem_4(Ab, 2.0 / Mb)),
        ("Balance, C_M = C_min (1 ∓ 0.01)", lambda: th.check_theorem_5(Ab)),
        ("Pima, C_M = C_min (1 ∓ 0.01)", lambda: th.check_theorem_5(Ap)),
        ("Balance", lambda: th.check_theorem_6(Ab)),
    ]


_KEY_NUMBERS = ("J_rho", "rho", "gamma", "C_M", "J_hat", "C_rho_printed", "J_rho_printed",
                "mapped_value_at_printed", "C_min", "C_0")


def _verdict_word(v: Any) -> str:
    printed = {True: "holds", False: "**fails**", None: "not tested (hypothesis not met)"}
    return (f"as printed: {printed[v.as_printed]}; "
            f"checked statement ({v.statement}): {'holds' if v.holds else '**FAILS**'}")


def theorems_markdown() -> str:
    """Theorems 1-6: the printed statements quoted, with their verdicts on real data."""
    from ..verify import lp_svm as th

    verdicts: dict[int, list[tuple[str, Any]]] = {}
    for label, thunk in _theorem_cases():
        v = thunk()
        verdicts.setdefault(v.theorem, []).append((label, v))
    md = ("\n## Theorems 1–6 as printed\n\nQuoted verbatim from " + th.PRINTED_SOURCE
          + " (the paper's LaTeX kept), each checked by `convexkern.verify.lp_svm` on the "
          "triplets of the full Balance (625 × 4) and Pima (768 × 8) sets, inputs scaled to "
          "[0, 1]; LPs solved and certified by the direct HiGHS path.\n")
    for k in sorted(verdicts):
        md += f"\n**Theorem {k}** (printed):\n\n> {th.PRINTED[k]}\n\n"
        for label, v in verdicts[k]:
            nums = ", ".join(f"{key} = {v.numbers[key]:.6g}" for key in _KEY_NUMBERS
                             if isinstance(v.numbers.get(key), float))
            md += (f"* {label}: {_verdict_word(v)}" + (f" [{nums}]" if nums else "") + "."
                   + (f" {v.note}." if v.note else "") + "\n")
    return md


def reproduce(ctx: Context) -> ReproductionResult:
    env = os.environ.get("CONVEXKERN_DATASETS")
    datasets = getattr(ctx, "datasets", None) or (env.split(",") if env else None)
    for name in datasets or ():
        if name not in DATASETS:
            load_problem(name)  # raises, naming the available sets
    cv_env = os.environ.get("CONVEXKERN_ABE2012_CV_MAX")
    cv_max = int(cv_env) if cv_env else None
    if cv_max is not None and cv_max < 10:
        raise InvalidInputError("CONVEXKERN_ABE2012_CV_MAX", f"must be >= 10, got {cv_max}")
    res = table1(ctx, datasets=datasets, quick=ctx.quick, seed=ctx.seed, cv_max=cv_max)
    ctx.progress("Theorems 1-6 as printed")
    md = report_markdown(res, quick=ctx.quick, cv_max=cv_max) + theorems_markdown()
    return ReproductionResult(name="abe2012", markdown=md,
                              data={"results": res, "paper": PAPER_TABLE1, "cv_max": cv_max})
