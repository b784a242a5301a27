"""``KreinSVC()``'s default: the shift decomposition, SMO on ``K - 2 lam I`` and
``alpha = alpha~`` off the training set, against KSVM on the paper's blobs, and the cause
of TrIK's collapse from n = 1000 on (eq. 6 through an indefinite, near-singular ``K_WW``).

Tolerances: accuracy "within 1 point of KSVM" is the target; the agreement of two
certified solutions follows from strong concavity of the Hilbert dual (the modulus is
``lambda_min(K~) = lambda_min(K) - 2 lam = |lam|`` for ``lam = lambda_min(K)``), see
:func:`test_default_is_certified_and_matches_trik`.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import convexkern as ck
from convexkern.algorithms.trik import trik
from convexkern.data import load_binary
from convexkern.errors import InvalidInputError
from convexkern.estimators import KreinSVC
from convexkern.formulations import krein
from convexkern.kernels import Epanechnikov, Sigmoid
from convexkern.reproduce.loosli2019 import BLOBS_C, BLOBS_SIGMA, accuracy, blobs, ksvm


@pytest.fixture(scope="module")
def blobs1000():
    """The paper's blobs at n = 1000 (seed 0): Epanechnikov sigma = 6, lambda_min = -1.62,
    383 negative eigenvalues."""
    Xtr, ytr, Xte, yte = blobs(1000, 0)
    k = Epanechnikov(sigma=BLOBS_SIGMA)
    return k(Xtr), ytr, k(Xte, Xtr), yte


@pytest.fixture(scope="module")
def pima_tanh():
    """120 Pima training and 40 test patients (standardised), tanh(x'z/8 - 1)."""
    X, y = load_binary("pima", 1, 0)
    X = (X - X.mean(0)) / X.std(0)
    rng = np.random.default_rng(3)
    pos = rng.permutation(np.flatnonzero(y > 0))[:80]
    neg = rng.permutation(np.flatnonzero(y < 0))[:80]
    idx = np.sort(np.concatenate([pos, neg]))
    X, y = X[idx], y[idx]
    k = Sigmoid(gamma=0.125, coef0=-1.0)
    te = np.arange(160) % 4 == 0
    return k(X[~te]), y[~te], k(X[te], X[~te]), y[te]


def test_default_within_one_point_of_ksvm(blobs1000):
    """n = 1000: KSVM (eigh + LIBSVM + P) measured 0.954 test accuracy, the default
    0.963; the target is "within 1 point"."""
    K, y, Kte, yte = blobs1000
    a, b, _ = ksvm(K, y, BLOBS_C)
    acc_ksvm = accuracy(Kte, yte, y, a, b)
    clf = KreinSVC(BLOBS_C, kernel="precomputed").fit(K, y)
    assert clf.report_.solver == "smo"
    assert clf.report_.status is ck.Status.OPTIMAL, clf.report_.message
    assert clf.expansion_ == "delta"
    assert clf.score(Kte, yte) >= acc_ksvm - 0.01
    # sparse: alpha = alpha~ is zero off the support vectors (measured 961 of 1000)
    assert clf.support_.size < y.size


def test_eq6_through_indefinite_K_WW_is_the_cause(blobs1000):
    """The QP optimum (Hilbert check, certified) mapped back by eq. 6 solves with K_WW,
    a principal block of the indefinite K: measured 147 of its 368 eigenvalues negative,
    the smallest |eigenvalue| 1.4e-6 (cond 1e7), ||alpha|| = 2.9e4 against ||alpha~|| =
    2.6, test accuracy 0.528.  The same alpha~ read as alpha = alpha~ gives 0.963."""
    K, y, Kte, yte = blobs1000
    res = trik(K, y, BLOBS_C, optimality="hilbert")
    assert res.status == "optimal"
    W = res.free
    ev = np.linalg.eigvalsh(K[np.ix_(W, W)])
    assert np.sum(ev < 0) > W.size / 5
    assert np.min(np.abs(ev)) < 1e-4 * np.max(np.abs(ev))
    assert np.linalg.norm(res.alpha) > 1e3 * np.linalg.norm(res.alpha_tilde)
    assert accuracy(Kte, yte, y, res.alpha, res.b) < 0.65
    assert accuracy(Kte, yte, y, res.alpha_tilde, res.b) > 0.93


def test_default_is_certified_and_matches_trik(pima_tanh):
    """The plain shift's report (SMO) brackets the optimum found by Clarabel, and the solution
    agrees with the active set's (solver="trik"): for feasible points with certified gaps
    g1, g2 of a dual whose negative is |lam|-strongly convex,
    ||alpha1 - alpha2|| <= sqrt(2 g1 / |lam|) + sqrt(2 g2 / |lam|)."""
    K, y, Kte, yte = pima_tanh
    f = krein.stabilization(K, y, 1.0, "shift")
    ref = ck.solve(f, "clarabel", tol=1e-9)
    # the plain shift (flip_pairs=0): the report is then the stabilization of K itself
    clf = KreinSVC(1.0, kernel="precomputed", flip_pairs=0).fit(K, y)
    r = clf.report_
    assert r.status is ck.Status.OPTIMAL and r.rel_gap <= 1e-6
    slack = 1e-9 * abs(ref.primal_value)
    assert r.primal_value <= ref.dual_value + slack
    assert ref.primal_value <= r.dual_value + slack
    np.testing.assert_array_equal(clf.alpha_[clf.support_], np.asarray(r.x["alpha"])[
        clf.support_])
    two = KreinSVC(1.0, kernel="precomputed", solver="trik", flip_pairs=0).fit(K, y)
    mu = abs(clf.lam_)
    bound = math.sqrt(2 * r.gap / mu) + math.sqrt(2 * two.report_.gap / mu)
    assert np.linalg.norm(clf.alpha_ - two.alpha_) <= bound + 1e-12 * np.linalg.norm(
        two.alpha_)
    # decision values: f(x) = sum_i alpha~_i y_i k(x_i, x) + b, the original kernel
    d = clf.decision_function(Kte)
    np.testing.assert_allclose(d, Kte @ (y * np.asarray(r.x["alpha"])) + float(r.x["b"]),
                               rtol=1e-12, atol=1e-12 * np.abs(d).max())


def test_eq6_expansion_keeps_the_papers_algorithm(pima_tanh):
    K, y, _, _ = pima_tanh
    clf = KreinSVC(1.0, kernel="precomputed", expansion="eq6").fit(K, y)
    assert clf.report_.solver == "trik-krein"
    np.testing.assert_allclose(clf.alpha_, np.asarray(clf.report_.x["alpha_krein"]))


def test_expansion_arguments_are_checked(pima_tanh):
    K, y, _, _ = pima_tanh
    with pytest.raises(InvalidInputError, match="^expansion"):
        KreinSVC(kernel="precomputed", decomposition="flip", expansion="delta").fit(K, y)
    with pytest.raises(ValueError, match="expansion"):
        KreinSVC(kernel="precomputed", expansion="full").fit(K, y)
    f = krein.stabilization(K, y, 1.0, "flip")
    at = np.asarray(ck.solve(f, "smo").x["alpha"])
    with pytest.raises(InvalidInputError, match="^method: 'delta'"):
        krein.to_krein(f, y, at, 0.0, method="delta")
    g = krein.stabilization(K, y, 1.0, "shift")
    sol = krein.to_krein(g, y, at, 0.5, method="delta")
    np.testing.assert_array_equal(sol.alpha, at)
    assert sol.b == 0.5 and sol.method == "delta"


# ------------------------------------------------------------ dominant negative pairs
def _spectrum_matrix(d, seed):
    n = d.size
    Q, _ = np.linalg.qr(np.random.default_rng(seed).standard_normal((n, n)))
    return (Q * d) @ Q.T, Q


@pytest.mark.parametrize("n", [60, 300])  # LAPACK (n <= 200) and Lanczos paths
def test_dominant_negative_pairs_follow_the_rule(n):
    """Eigenvalues -100, -10, -1, -0.9, then 1..n: -100 (10 <= 50) and -10 (1 <= 5) are
    flipped, -1 is not (0.9 > 0.5); eigenvectors to 1e-8 (|cos| with the true ones)."""
    from convexkern.math.krein import dominant_negative_pairs

    d = np.concatenate([[-100.0, -10.0, -1.0, -0.9], np.linspace(1.0, float(n), n - 4)])
    K, Q = _spectrum_matrix(d, 0)
    K = 0.5 * (K + K.T)
    w, U = dominant_negative_pairs(K)
    np.testing.assert_allclose(w, [-100.0, -10.0], rtol=1e-10)
    np.testing.assert_allclose(np.abs(np.sum(U * Q[:, :2], axis=0)), 1.0, atol=1e-8)
    w3, _ = dominant_negative_pairs(K, ratio=math.inf, max_pairs=3)
    np.testing.assert_allclose(w3, [-100.0, -10.0, -1.0], rtol=1e-10)
    assert dominant_negative_pairs(K, max_pairs=0)[0].size == 0


@pytest.mark.parametrize("n", [60, 300])
def test_all_negative_pairs_flipped_is_the_full_flip(n):
    """Every negative pair flipped (ratio = inf) gives KSVM's U|D|U' (1e-8 relative):
    the partial-eigen flip kernel equals the full one when nothing is left to shift."""
    from convexkern.math.krein import dominant_negative_pairs, flip

    rng = np.random.default_rng(1)
    d = np.concatenate([-rng.uniform(0.5, 5.0, 5), rng.uniform(0.1, 10.0, n - 5)])
    K, _ = _spectrum_matrix(d, 2)
    K = 0.5 * (K + K.T)
    w, U = dominant_negative_pairs(K, ratio=math.inf, max_pairs=10)
    assert w.size == 5
    Kp = K - 2.0 * (U * w) @ U.T
    Kt = flip(K).K_tilde
    assert np.max(np.abs(Kp - Kt)) <= 1e-8 * np.max(np.abs(Kt))


def test_default_flips_the_dominant_pair_on_pima_tanh():
    """Pima, tanh(x'z/8 - 1), the reproduction's stratified split (200 train): one
    eigenvalue -144 then -1.27.  Plain shift (flip_pairs=0): 0.651 = the majority rate;
    default (that pair flipped): 0.762; KSVM 0.768 (measured).  Asserted: the default
    within 2 points of KSVM, the plain shift not above the majority rate + 0.01, and the
    transition identity K Y alpha = K' Y alpha~ on the training set."""
    from convexkern.splits import seeded_splits

    X, y = load_binary("pima", 1, 0)
    X = (X - X.mean(0)) / X.std(0)
    tr, te = seeded_splits(y, test_size=y.size - 200, seed=0)[0]
    k = Sigmoid(gamma=1.0 / X.shape[1], coef0=-1.0)
    K, Kte, ytr, yte = k(X[tr]), k(X[te], X[tr]), y[tr], y[te]
    a, b, _ = ksvm(K, ytr, 1.0)
    acc_ksvm = accuracy(Kte, yte, ytr, a, b)
    clf = KreinSVC(1.0, kernel="precomputed").fit(K, ytr)
    assert clf.flipped_.size == 1 and clf.flipped_[0] < 50 * clf.lam_
    assert clf.report_.status is ck.Status.OPTIMAL
    assert clf.score(Kte, yte) >= acc_ksvm - 0.02
    plain = KreinSVC(1.0, kernel="precomputed", flip_pairs=0).fit(K, ytr)
    majority = max(np.mean(yte > 0), np.mean(yte < 0))
    assert plain.flipped_.size == 0 and plain.score(Kte, yte) <= majority + 0.01
    # K' = K - 2 d u u', alpha~ from the report: K Y alpha = K' Y alpha~ (exact algebra)
    w, U = clf.flipped_, None
    evals, evecs = np.linalg.eigh(K)
    U = evecs[:, :1]
    Kp = K - 2.0 * (U * w) @ U.T
    at = np.asarray(clf.report_.x["alpha"])
    lhs, rhs = K @ (ytr * clf.alpha_), Kp @ (ytr * at)
    assert np.max(np.abs(lhs - rhs)) <= 1e-8 * np.max(np.abs(rhs))


def test_flip_pairs_with_flip_is_refused(pima_tanh):
    K, y, _, _ = pima_tanh
    with pytest.raises(InvalidInputError, match="^flip_pairs"):
        KreinSVC(kernel="precomputed", decomposition="flip", flip_pairs=2).fit(K, y)
