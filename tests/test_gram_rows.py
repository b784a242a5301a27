"""Kernel rows on demand (``RBF.gram_rows``): the entrywise bound against the exact kernel,
SMO and the SVM certificate from the rows the solve touches, and the estimator's path that
never forms the Gram matrix."""

from __future__ import annotations

import numpy as np
import pytest

import convexkern as ck
from convexkern.algorithms.smo import smo
from convexkern.data import load_binary
from convexkern.errors import InvalidInputError
from convexkern.estimators import SVMClassifier
from convexkern.formulations import svm
from convexkern.kernels import RBF
from convexkern.math import gram_rows
from convexkern.math.svm import dual_bounds


def _pima(n=200):
    X, y = load_binary("pima", 1, 0)
    return X[:n], y[:n]


@pytest.mark.parametrize("scale, offset, gamma", [(1.0, 0.0, 0.01), (1e3, 0.0, 1e-8),
                                                  (1e-3, 1e6, 3e3), (1.0, 1e4, 0.3)])
def test_rows_are_within_the_bound_of_the_exact_kernel(scale, offset, gamma):
    """Every computed entry against the exact kernel of the centred points, evaluated in
    extended precision from the same stored doubles (an independent computation)."""
    X, _ = _pima(120)
    X = X * scale + offset
    gr = RBF(gamma).gram_rows(X)
    rows = np.arange(0, 120, 7)
    B = gr.block(rows, None)
    Xc = X - X.mean(axis=0)  # the points the bound is about (as gram_rows forms them)
    L = Xc.astype(np.longdouble)
    diff = L[rows][:, None, :] - L[None, :, :]
    exact = np.exp(-np.longdouble(gamma) * np.sum(diff * diff, axis=2))
    err = float(np.max(np.abs(B.astype(np.longdouble) - exact)))
    assert err <= gr.entry_error
    assert np.all((B >= 0) & (B <= gr.k_max))
    # SMO's row misses take the one-row formula (a matrix-vector product): the same bound
    R = np.vstack([gr.row(int(i)) for i in rows])
    assert float(np.max(np.abs(R.astype(np.longdouble) - exact))) <= gr.entry_error
    assert np.all((R >= 0) & (R <= gr.k_max))
    # the whole Gram matrix of the same kernel is within the same bound of it: the two
    # computations differ by at most twice the bound
    K = RBF(gamma)(X)
    assert float(np.max(np.abs(K[rows] - B))) <= 2 * gr.entry_error


def test_smo_on_rows_touches_few_rows_and_matches_the_matrix():
    X, y = load_binary("usps", 0, 1, split="train")
    k = RBF(1.0 / (X.shape[1] * X.var()))
    r_rows = smo(k.gram_rows(X), y, 10.0, eps=1e-3)
    r_full = smo(k(X), y, 10.0, eps=1e-3, check_input=False)
    assert r_rows.status == r_full.status == "optimal"
    assert r_rows.kernel_rows_computed < y.size // 10  # 59 of 2199 when measured
    np.testing.assert_allclose(r_rows.alpha, r_full.alpha, atol=1e-10)


@pytest.mark.parametrize("C, gamma", [(1.0, 0.1), (1e3, 0.1), (0.01, 10.0), (10.0, 1e-4)])
def test_certificate_from_rows_brackets_an_independent_solve(C, gamma):
    """The bracket from the support vectors' rows against Clarabel's certified bracket
    on the whole matrix: both hold the optimum, so they meet; and it agrees with the
    whole-matrix certificate at the same point to the size of the bounds."""
    X, y = _pima(150)
    X = (X - X.mean(0)) / X.std(0)
    k = RBF(gamma)
    f_rows = svm.dual(k.gram_rows(X), y, C)
    r = ck.solve(f_rows, "smo", tol=1e-7)
    assert r.status in (ck.Status.OPTIMAL, ck.Status.OPTIMAL_INACCURATE)
    K = k(X)
    conic = ck.solve(svm.dual(K, y, C, psd_eps=K.shape[0] * k.gram_error(X)), "clarabel",
                     tol=1e-7)
    assert r.primal_value <= conic.dual_value and conic.primal_value <= r.dual_value
    whole = dual_bounds(K, y, r.x["alpha"], C, K.shape[0] * k.gram_error(X))
    scale = max(abs(whole.upper), 1.0)
    assert abs(whole.lower - r.primal_value) <= 1e-9 * scale
    assert abs(whole.upper - r.dual_value) <= 1e-6 * scale


def test_rows_formulation_builds_the_matrix_only_for_a_conic_solver(monkeypatch):
    X, y = _pima(80)
    calls = []
    real = gram_rows.GramRows.full
    monkeypatch.setattr(gram_rows.GramRows, "full",
                        lambda self: calls.append(1) or real(self))
    f = svm.dual(RBF(0.001).gram_rows(X), y, 1.0)
    assert f.sense == "maximize" and f.cone_class == "QP"
    r = ck.solve(f, "smo", tol=1e-6)
    assert calls == [] and r.status is ck.Status.OPTIMAL
    rc = ck.solve(f, "clarabel", tol=1e-6)
    assert calls == [1] and rc.status is ck.Status.OPTIMAL
    assert r.primal_value <= rc.dual_value and rc.primal_value <= r.dual_value


def test_rows_formulation_refuses_what_it_cannot_certify():
    X, y = _pima(40)
    with pytest.raises(InvalidInputError, match="C"):
        svm.dual(RBF(0.01).gram_rows(X), y, None)
    with pytest.raises(InvalidInputError, match="K"):
        svm.dual(RBF(0.01).gram_rows(X[:30]), y, 1.0)


def test_the_estimator_never_forms_the_gram_matrix(monkeypatch):
    X, y = load_binary("usps", 3, 5, split="train")
    calls = []
    real = gram_rows.GramRows.full
    monkeypatch.setattr(gram_rows.GramRows, "full",
                        lambda self: calls.append(1) or real(self))
    rows = SVMClassifier(C=10.0).fit(X, y)
    assert calls == []
    assert rows.report_.status is ck.Status.OPTIMAL and rows.report_.rel_gap <= 1e-6
    from sklearn.svm import SVC

    ref = SVC(C=10.0).fit(X, y)
    np.testing.assert_array_equal(rows.predict(X), ref.predict(X))
    Xt, _ = load_binary("usps", 3, 5, split="test")
    np.testing.assert_array_equal(rows.predict(Xt), ref.predict(Xt))


def test_certificate_reuses_the_rows_smo_computed():
    """SMO's row cache is the GramRows' own: the certificate's products take the rows SMO
    computed (the same doubles) instead of computing them again."""
    X, y = load_binary("usps", 3, 5, split="train")
    k = RBF(1.0 / (X.shape[1] * X.var()))
    G = k.gram_rows(X)
    r = ck.solve(svm.dual(G, y, C=10.0), "smo")
    assert r.status == "optimal" and len(G.cache) > 0
    fresh = k.gram_rows(X)
    some = list(G.cache)[:5]
    for i in some:  # one row at a time, as SMO computes them (a block may round otherwise)
        np.testing.assert_array_equal(G.cache[i], fresh.rows([i])[0])
    coef = y * r.x["alpha"]
    np.testing.assert_allclose(G.times(coef), fresh.times(coef), rtol=1e-12, atol=1e-12)
    cols = np.arange(3, y.size, 7)
    np.testing.assert_allclose(G.times(coef, cols), fresh.times(coef)[cols], rtol=1e-12,
                               atol=1e-12)


@pytest.mark.parametrize("C", [0.5, 100.0])
def test_the_intercept_is_the_primal_bias_of_the_support_vectors(C):
    """The fit takes the certificate's bias when every non-zero alpha is a support
    vector: it must be the bias minimising the hinge sum of the decision values from the
    model's own dual coefficients, computed here from the whole Gram matrix."""
    X, y = _pima(300)
    m = SVMClassifier(C=C).fit(X, y)
    y_pm = np.where(y == m.classes_[1], 1.0, -1.0)
    K = m.kernel_(X, X[m.support_])
    f = K @ m.dual_coef_[0]
    b = svm.primal_bias(f, y_pm, C)
    # the two products differ by the order of their sums only
    assert abs(m.intercept_[0] - b) <= 1e-9 * (1.0 + abs(b))
    assert abs(m.intercept_[0] - m.report_.x["b"]) == 0.0
