"""Tests of the scikit-learn estimators (convexkern.estimators).

The reference is scikit-learn's own LIBSVM classifier, ``sklearn.svm.SVC``, on the real
data sets the package ships (USPS 3 vs 5, Pima), both solved tightly.
"""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.utils.estimator_checks import parametrize_with_checks

import convexkern as ck
from convexkern.data import load_binary
from convexkern.errors import InvalidInputError, NotPSDError
from convexkern.estimators import (
    KERNELS,
    KreinSVC,
    LPMahalanobis,
    RobustSVMClassifier,
    SDPMClassifier,
    SVMClassifier,
)
from convexkern.kernels import RBF, Sigmoid

#: (solver, tol) pairs that solve the dual tightly enough to match LIBSVM at tol=1e-8
TIGHT = [("smo", 1e-7), ("clarabel", 1e-8)]


# --------------------------------------------------------------------------- helpers
def _split(name, pos, neg, n_train, n_test, seed=0, standardize=False):
    """A seeded, class-stratified train/test subsample of a shipped real data set."""
    X, y = load_binary(name, pos, neg)
    rng = np.random.default_rng(seed)
    idx = []
    for label in (1.0, -1.0):
        rows = rng.permutation(np.flatnonzero(y == label))
        idx.append(rows[: (n_train + n_test) // 2])
    idx = rng.permutation(np.concatenate(idx))
    X, y = X[idx], y[idx]
    Xtr, ytr, Xte, yte = X[:n_train], y[:n_train], X[n_train:], y[n_train:]
    if standardize:
        mu, sd = Xtr.mean(0), Xtr.std(0)
        Xtr, Xte = (Xtr - mu) / sd, (Xte - mu) / sd
    return Xtr, ytr, Xte, yte


@pytest.fixture(scope="module")
def usps():
    """USPS digits 3 (+1) vs 5 (-1): 300 training and 200 test images."""
    return _split("usps", 3, 5, 300, 200, seed=0)


@pytest.fixture(scope="module")
def pima():
    """Pima diabetes (tested positive = +1), standardised: 300 train, 200 test."""
    return _split("pima", 1, 0, 300, 200, seed=1, standardize=True)


@pytest.fixture(scope="module")
def usps_small():
    """150 USPS images for the cross-validation tests."""
    Xtr, ytr, _, _ = _split("usps", 3, 5, 150, 0, seed=2)
    return Xtr, ytr


# --------------------------------------------------------------------------- sklearn checks
def _expected_failed_checks(estimator):
    if isinstance(estimator, SVMClassifier) and estimator.kernel != "precomputed":
        # fits a repeated data set and the same one with integer weights and compares the
        # decision values to rtol 1e-7.  gamma="scale" is 1 / (n_features X.var()) over the
        # rows as given (repeats count, zero weights too), exactly as SVC, which fails this
        # check for the same reason; with a fixed gamma the two fits are the same problem
        # and differ by the solver's accuracy (~3e-7 at the default tol; tested at a tight
        # tol in test_svc_port.py::test_integer_weights_equal_repeated_samples)
        return {"check_sample_weight_equivalence_on_dense_data":
                "gamma='scale' uses the unweighted variance of X, as SVC does"}
    if getattr(estimator, "kernel", None) != "precomputed":  # LPMahalanobis has no kernel
        return {}
    # With kernel="precomputed" the checks feed linear-kernel Gram matrices as X.  The SVM
    # dual needs a positive semidefinite kernel and svm.dual rejects any other (the house
    # rule: nothing is silently repaired), so these three checks are inapplicable:
    float32 = "float32 Gram matrix is not PSD to 1e-8"
    return {
        # subtracts the mean from the Gram matrix: the result is no longer PSD
        # (smallest eigenvalue ~ -1e3), a kernel matrix that cannot be one
        "check_positive_only_tag_during_fit": "X - mean(X) of a Gram matrix is indefinite",
        # cast the rank-deficient (rank 5 or 4, n = 20..150) linear Gram matrix to float32:
        # the rounding leaves eigenvalues ~ -1e-6 relative, below svm.dual's PSD tolerance
        # of 1e-8; the same estimator passes both checks with float64 kernels
        "check_estimators_dtypes": float32,
        # marks every variant of the check; only X_dtype=float32 fails, the two float64
        # variants pass and are reported as XPASS
        "check_classifiers_train": f"{float32} (only the X_dtype=float32 variant fails)",
    }


@parametrize_with_checks(
    [SVMClassifier(), SVMClassifier(solver="clarabel"), SVMClassifier(kernel="precomputed"),
     KreinSVC(), KreinSVC(decomposition="flip"),
     SDPMClassifier(), SDPMClassifier(kernel=RBF(gamma=0.1)),
     RobustSVMClassifier(), LPMahalanobis()],
    expected_failed_checks=_expected_failed_checks,
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


# --------------------------------------------------------------------------- vs LIBSVM
@pytest.mark.parametrize("solver,tol", TIGHT)
@pytest.mark.parametrize("data", ["usps", "pima"])
@pytest.mark.parametrize("C", [0.1, 10.0])
def test_matches_libsvm(request, data, C, solver, tol):
    Xtr, ytr, Xte, yte = request.getfixturevalue(data)
    ref = SVC(kernel="rbf", C=C, gamma="scale", tol=1e-8).fit(Xtr, ytr)
    clf = SVMClassifier(C=C, kernel="rbf", gamma="scale", solver=solver, tol=tol).fit(Xtr, ytr)
    assert clf.report_.status is ck.Status.OPTIMAL
    assert clf.report_.rel_gap <= tol

    d_ref, d = ref.decision_function(Xte), clf.decision_function(Xte)
    scale = np.max(np.abs(d_ref))
    np.testing.assert_allclose(d, d_ref, rtol=1e-4, atol=1e-4 * scale)
    assert np.mean(clf.predict(Xte) == ref.predict(Xte)) >= 0.995
    assert abs(clf.score(Xte, yte) - ref.score(Xte, yte)) <= 0.005
    np.testing.assert_allclose(clf.intercept_, ref.intercept_, rtol=1e-4, atol=1e-4)
    # the same coefficients, in sklearn's sign convention.  An interior point method can
    # leave a point whose margin is 1 + 5e-5 with a coefficient of ~1e-4 C (it reaches 0
    # only as the barrier parameter does), so the support sets may differ by such points.
    coef, coef_ref = np.zeros(Xtr.shape[0]), np.zeros(Xtr.shape[0])
    coef[clf.support_], coef_ref[ref.support_] = clf.dual_coef_[0], ref.dual_coef_[0]
    np.testing.assert_allclose(coef, coef_ref, rtol=1e-3, atol=1e-3 * C)
    assert np.setxor1d(clf.support_, ref.support_).size <= 2
    assert np.abs(clf.n_support_ - ref.n_support_).sum() <= 2
    np.testing.assert_array_equal(clf.support_vectors_, Xtr[clf.support_])


def test_fitted_attributes(usps):
    Xtr, ytr, _, _ = usps
    C = 1.0
    clf = SVMClassifier(C=C).fit(Xtr, ytr)
    n, d = Xtr.shape
    n_sv = clf.support_.size
    assert clf.solver == "smo" and clf.report_.solver == "smo"
    assert isinstance(clf.report_, ck.SolveReport) and clf.report_.ok
    assert clf.alpha_.shape == (n,)
    np.testing.assert_array_equal(clf.alpha_, clf.report_.x["alpha"])
    assert clf.dual_coef_.shape == (1, n_sv) and clf.intercept_.shape == (1,)
    assert clf.support_vectors_.shape == (n_sv, d)
    np.testing.assert_array_equal(clf.support_vectors_, Xtr[clf.support_])
    assert clf.n_support_.sum() == n_sv
    assert clf.n_features_in_ == d and clf.shape_fit_ == (n, d)
    assert clf.n_iter_ >= 1
    np.testing.assert_array_equal(clf.classes_, [-1.0, 1.0])
    # dual feasibility: sum_i alpha_i y_i = 0 and 0 < alpha <= C on the support vectors
    assert abs(clf.dual_coef_.sum()) <= 1e-8 * C * n
    assert np.all(np.abs(clf.dual_coef_) <= C * (1 + 1e-12))
    assert np.all(np.abs(clf.dual_coef_) > 0)
    # gamma="scale" is resolved on the training data as in sklearn
    assert clf.kernel_ == RBF(gamma=1.0 / (d * Xtr.var()))
    # decision_function is the kernel expansion over the support vectors
    K = clf.kernel_(Xtr[:5], clf.support_vectors_)
    np.testing.assert_allclose(
        clf.decision_function(Xtr[:5]), K @ clf.dual_coef_[0] + clf.intercept_[0]
    )


def test_smo_is_default_and_available(usps):
    Xtr, ytr, _, _ = usps
    assert SVMClassifier().solver == "smo"
    f = ck.formulations.svm.dual(RBF(gamma=0.01)(Xtr[:20]), ytr[:20], C=1.0)
    assert "smo" in ck.available_solvers(f)


# --------------------------------------------------------------------------- kernels
def test_precomputed_equals_rbf(usps):
    Xtr, ytr, Xte, _ = usps
    gamma = 1.0 / (Xtr.shape[1] * Xtr.var())
    rbf = SVMClassifier(C=1.0, kernel="rbf", gamma=gamma).fit(Xtr, ytr)
    k = RBF(gamma=gamma)
    pre = SVMClassifier(C=1.0, kernel="precomputed").fit(k(Xtr), ytr)
    assert pre.support_vectors_.shape == (0, 0)  # SVC's; not a previous fit's
    # a refit with a precomputed kernel keeps no vectors of a fit on vectors
    again = SVMClassifier(C=1.0, kernel="rbf", gamma=gamma).fit(Xtr, ytr)
    again.set_params(kernel="precomputed").fit(k(Xtr), ytr)
    assert again.support_vectors_.shape == (0, 0)
    np.testing.assert_array_equal(pre.support_, rbf.support_)
    np.testing.assert_allclose(pre.dual_coef_, rbf.dual_coef_, rtol=1e-12, atol=1e-15)
    K_test = k(Xte, Xtr)
    np.testing.assert_allclose(
        pre.decision_function(K_test), rbf.decision_function(Xte), rtol=1e-10, atol=1e-12
    )
    np.testing.assert_array_equal(pre.predict(K_test), rbf.predict(Xte))
    # a Kernel instance and a plain callable give the same model too
    for kernel in (k, lambda A, B: k(A, B)):
        other = SVMClassifier(C=1.0, kernel=kernel).fit(Xtr, ytr)
        np.testing.assert_allclose(
            other.decision_function(Xte), rbf.decision_function(Xte), rtol=1e-10, atol=1e-12
        )
    # the test kernel must have one column per training point
    with pytest.raises(ValueError, match="X"):
        pre.decision_function(K_test[:, :-1])
    with pytest.raises(ValueError, match="X.*square"):
        SVMClassifier(kernel="precomputed").fit(K_test, ytr[: K_test.shape[0]])


def test_kernel_names_match_sklearn(pima):
    Xtr, ytr, Xte, _ = pima
    for kernel, params in [("linear", {}), ("poly", {"degree": 2, "coef0": 1.0})]:
        ref = SVC(kernel=kernel, C=1.0, tol=1e-8, **params).fit(Xtr, ytr)
        clf = SVMClassifier(kernel=kernel, C=1.0, tol=1e-7, **params).fit(Xtr, ytr)
        d_ref = ref.decision_function(Xte)
        np.testing.assert_allclose(
            clf.decision_function(Xte), d_ref, rtol=1e-4, atol=1e-4 * np.abs(d_ref).max()
        )
    assert set(KERNELS) >= {"linear", "poly", "rbf", "sigmoid"}


def test_indefinite_kernel_is_rejected(usps):
    """An indefinite kernel fails at fit with the parameter to change named: ``kernel``
    (``K`` for a precomputed matrix, where the matrix itself is the argument)."""
    Xtr, ytr, _, _ = usps
    for kernel in (Sigmoid(gamma=0.05, coef0=-1.0), "sigmoid", "tanh", "simpson"):
        with pytest.raises(ValueError, match="kernel: .*not positive semidefinite .*KreinSVC"):
            SVMClassifier(kernel=kernel, coef0=-1.0).fit(Xtr, ytr)
    K = RBF(gamma=0.01)(Xtr) - 0.5  # shifting a Gram matrix by a constant breaks PSD
    with pytest.raises(ValueError, match="K: is not positive semidefinite") as info:
        SVMClassifier(kernel="precomputed").fit(K, ytr)
    assert isinstance(info.value, NotPSDError)
    assert info.value.lambda_min == pytest.approx(np.linalg.eigvalsh(K)[0], rel=1e-8)


def test_indefinite_kernel_is_recognised_by_type_not_text(usps, monkeypatch):
    """fit turns svm.check_psd's NotPSDError into an error naming ``kernel`` whatever the
    message says, and leaves any other InvalidInputError on K alone (a sigmoid kernel:
    it gives no construction bound, so its Gram matrix is checked numerically)."""
    from convexkern.formulations import svm

    Xtr, ytr, _, _ = usps
    Xtr, ytr = Xtr[:40], ytr[:40]

    def reworded(K, name="K", tol=svm.PSD_TOL):
        raise NotPSDError(name, "reworded message", lambda_min=-0.25)

    monkeypatch.setattr(svm, "check_psd", reworded)
    with pytest.raises(InvalidInputError, match=r"kernel: .*smallest eigenvalue -0\.25") as info:
        SVMClassifier(kernel="sigmoid").fit(Xtr, ytr)
    assert isinstance(info.value.__cause__, NotPSDError)

    def other(K, name="K", tol=svm.PSD_TOL):
        raise InvalidInputError(name, "is not positive semidefinite (a look-alike message)")

    monkeypatch.setattr(svm, "check_psd", other)
    with pytest.raises(InvalidInputError, match="^K: is not positive") as info:
        SVMClassifier(kernel="sigmoid").fit(Xtr, ytr)
    assert not isinstance(info.value, NotPSDError)


def test_limit_without_a_point_raises_solver_error(usps, monkeypatch):
    """A solver stopped by a limit before it had any point (e.g. a conic solver whose
    raw answer cvxpy cannot unpack) gives a SolverError, not a KeyError."""
    import convexkern.estimators._base as est

    Xtr, ytr, _, _ = usps
    empty = ck.SolveReport(status=ck.Status.ITERATION_LIMIT, solver="smo",
                           formulation="svm.dual", message="stopped at max_iter=1")
    monkeypatch.setattr(est, "solve", lambda *a, **k: empty)
    with pytest.warns(ConvergenceWarning), pytest.raises(ck.SolverError, match="no point"):
        SVMClassifier().fit(Xtr, ytr)


# --------------------------------------------------------------------------- model selection
def test_grid_search(usps_small):
    X, y = usps_small
    grid = {"C": [0.1, 1, 10], "gamma": [0.001, 0.01, 0.1]}
    ours = GridSearchCV(SVMClassifier(), grid, cv=3).fit(X, y)
    ref = GridSearchCV(SVC(tol=1e-8), grid, cv=3).fit(X, y)
    np.testing.assert_allclose(
        ours.cv_results_["mean_test_score"], ref.cv_results_["mean_test_score"], atol=0.01
    )
    assert ours.best_score_ >= 0.9
    assert ours.best_estimator_.report_.ok
    assert ours.best_params_["C"] in grid["C"] and ours.best_params_["gamma"] in grid["gamma"]


def test_kernel_object_is_cloneable(usps_small):
    # sklearn.base.clone recurses into the Kernel through Kernel.get_params(deep=False)
    X, y = usps_small
    est = SVMClassifier(kernel=RBF(gamma=0.01))
    twin = clone(est)
    assert twin is not est and twin.kernel == est.kernel
    assert twin.get_params() == est.get_params()
    assert cross_val_score(est, X, y, cv=3).mean() >= 0.9
    search = GridSearchCV(est, {"C": [0.1, 10.0]}, cv=3).fit(X, y)
    assert search.best_estimator_.kernel == RBF(gamma=0.01)


def test_grid_search_over_kernel_objects(usps_small):
    X, y = usps_small
    grid = {"kernel": [RBF(gamma=0.001), RBF(gamma=0.01)]}
    search = GridSearchCV(SVMClassifier(), grid, cv=3).fit(X, y)
    assert search.best_params_["kernel"] in grid["kernel"]


def test_pipeline_with_scaler(pima):
    Xtr, ytr, Xte, yte = pima
    # undo the fixture's standardisation with an arbitrary per-feature affine map
    scale = np.linspace(0.5, 50.0, Xtr.shape[1])
    Xtr_raw, Xte_raw = Xtr * scale + 3.0, Xte * scale + 3.0
    ours = make_pipeline(StandardScaler(), SVMClassifier(C=1.0, tol=1e-7)).fit(Xtr_raw, ytr)
    ref = make_pipeline(StandardScaler(), SVC(C=1.0, tol=1e-8)).fit(Xtr_raw, ytr)
    assert np.mean(ours.predict(Xte_raw) == ref.predict(Xte_raw)) >= 0.995
    assert ours.score(Xte_raw, yte) >= 0.65
    np.testing.assert_allclose(
        ours.decision_function(Xte_raw), ref.decision_function(Xte_raw), rtol=1e-4, atol=1e-4
    )


# --------------------------------------------------------------------------- labels
def test_string_labels_round_trip(usps):
    Xtr, ytr, Xte, _ = usps
    labels = np.where(ytr > 0, "b", "a")  # "b" (classes_[1]) plays +1
    num = SVMClassifier().fit(Xtr, ytr)
    txt = SVMClassifier().fit(Xtr, labels)
    np.testing.assert_array_equal(txt.classes_, ["a", "b"])
    pred = txt.predict(Xte)
    assert set(pred) <= {"a", "b"}
    np.testing.assert_array_equal(pred, np.where(num.predict(Xte) > 0, "b", "a"))
    np.testing.assert_allclose(txt.decision_function(Xte), num.decision_function(Xte))
    assert txt.score(Xtr, labels) == num.score(Xtr, ytr)
    # swapping which label sorts first flips the sign, as in sklearn
    flipped = SVMClassifier().fit(Xtr, np.where(ytr > 0, "a", "b"))
    np.testing.assert_allclose(
        flipped.decision_function(Xte), -num.decision_function(Xte), rtol=1e-4, atol=1e-5
    )
    # 0/1 labels: predictions come back as 0/1
    ints = SVMClassifier().fit(Xtr, (ytr > 0).astype(int))
    assert set(ints.predict(Xte)) <= {0, 1}


# --------------------------------------------------------------------------- solve status
@pytest.mark.filterwarnings("ignore:Solution may be inaccurate:UserWarning")  # cvxpy's own
@pytest.mark.parametrize("solver", ["smo", "clarabel"])
def test_convergence_warning(usps, solver):
    Xtr, ytr, Xte, _ = usps
    with pytest.warns(ConvergenceWarning, match="iteration_limit"):
        clf = SVMClassifier(solver=solver, max_iter=2).fit(Xtr, ytr)
    assert clf.report_.status is ck.Status.ITERATION_LIMIT
    assert clf.predict(Xte).shape == (Xte.shape[0],)  # the best point found is usable


def test_no_warning_when_optimal(usps):
    Xtr, ytr, _, _ = usps
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)  # a warning fails the test
        clf = SVMClassifier().fit(Xtr, ytr)
    assert clf.report_.status is ck.Status.OPTIMAL


def test_no_solution_raises(usps, monkeypatch):
    import convexkern.estimators._base as est

    def failing_solve(f, solver, **kw):
        return ck.SolveReport(
            status=ck.Status.ERROR, solver=solver, formulation=f.name, message="simulated crash"
        )

    monkeypatch.setattr(est, "solve", failing_solve)
    Xtr, ytr, _, _ = usps
    with pytest.raises(ck.SolverError, match="status 'error'.*simulated crash"):
        SVMClassifier().fit(Xtr[:40], ytr[:40])


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "params,match",
    [
        ({"C": 0.0}, "'C' parameter"),
        ({"C": -1.0}, "'C' parameter"),
        ({"kernel": "nonsense"}, "'kernel' parameter"),
        ({"gamma": -0.1}, "'gamma' parameter"),
        ({"degree": 0}, "'degree' parameter"),
        ({"tol": 1.5}, "'tol' parameter"),
        ({"max_iter": 0}, "'max_iter' parameter"),
        ({"solver": "no-such-solver"}, "solver: 'no-such-solver' cannot solve svm.dual"),
    ],
)
def test_bad_parameters(usps, params, match):
    Xtr, ytr, _, _ = usps
    with pytest.raises(ValueError, match=match):
        SVMClassifier(**params).fit(Xtr[:40], ytr[:40])


def test_bad_data(usps):
    Xtr, ytr, _, _ = usps
    X, y = Xtr[:60].copy(), ytr[:60].copy()
    y3 = np.where(np.arange(60) % 3 == 0, 2.0, y)
    with pytest.raises(ValueError, match="Only binary classification is supported"):
        KreinSVC().fit(X, y3)  # SVMClassifier is multiclass (one-vs-one): test_svc_port.py
    with pytest.raises(ValueError, match="1 class"):
        SVMClassifier().fit(X, np.ones(60))
    with pytest.raises(ValueError, match="Unknown label type"):
        SVMClassifier().fit(X, np.linspace(0, 1, 60))
    X_nan = X.copy()
    X_nan[3, 7] = np.nan
    with pytest.raises(ValueError, match="Input X contains NaN"):
        SVMClassifier().fit(X_nan, y)
    clf = SVMClassifier().fit(X, y)
    with pytest.raises(ValueError, match="Input X contains NaN"):
        clf.predict(X_nan)
    with pytest.raises(ValueError, match="X has 255 features"):
        clf.predict(X[:, :-1])
    with pytest.raises(ValueError, match="kernel: the callable returned an array of shape"):
        SVMClassifier(kernel=lambda A, B: A @ B[:-1].T).fit(X, y)


def test_pickle_round_trip(usps):
    Xtr, ytr, Xte, _ = usps
    clf = SVMClassifier(kernel=RBF(gamma=0.01)).fit(Xtr, ytr)
    again = pickle.loads(pickle.dumps(clf))
    np.testing.assert_array_equal(again.decision_function(Xte), clf.decision_function(Xte))
    assert again.report_.status is ck.Status.OPTIMAL


# ---------------------------------------------------------------- foreign exceptions
def _all_estimators():
    return [SVMClassifier(), KreinSVC(), SDPMClassifier(), RobustSVMClassifier(),
            LPMahalanobis()]


@pytest.mark.parametrize("bad, words", [
    ([1, None, 1, -1, -1, 1, -1, 1], "contains None"),
    (np.array([1, None, 1, -1, -1, 1, -1, 1], dtype=object), "contains None"),
    ([1, "a", 1, "a", "a", 1, "a", 1], "mixes label types"),
])
def test_bad_label_values_name_y(bad, words):
    X = np.random.default_rng(8).normal(size=(8, 2))
    for est in _all_estimators():
        with pytest.raises(InvalidInputError, match=rf"^y: {words}") as exc:
            est.fit(X, bad)
        assert exc.value.argument == "y"


def test_sparse_X_is_refused_naming_X():
    import scipy.sparse as sp

    from convexkern.errors import InvalidTypeError

    X = np.random.default_rng(9).normal(size=(10, 2))
    y = np.array([1, -1] * 5)
    for est in _all_estimators():
        with pytest.raises(InvalidTypeError, match=r"^X: sparse input is not supported") as exc:
            est.fit(sp.csr_matrix(X), y)
        assert exc.value.argument == "X"


def test_lp_mahalanobis_unscaled_overflow_names_X():
    """scale=False on X * 1e200: the triplet coefficients overflow float64 (an IndexError
    before); scale=True works on the [0, 1]-scaled copy."""
    ds = load_binary("pima")
    X, y = ds[0][:80], ds[1][:80]
    with pytest.raises(InvalidInputError, match=r"^X: the coefficients .* overflow"):
        LPMahalanobis(scale=False).fit(X * 1e200, y)
    Xb = X * 1e200
    before = Xb.copy()
    LPMahalanobis().fit(Xb, y)
    np.testing.assert_array_equal(Xb, before)
    Xr = X.copy()
    Xr[0, 0], Xr[1, 0] = 1.5e308, -1.5e308  # max - min of input 0 overflows
    with pytest.raises(InvalidInputError, match=r"^X: the range max - min"):
        LPMahalanobis().fit(Xr, y)


def test_a_kernel_psd_by_construction_needs_no_factorisation(monkeypatch):
    """An RBF fit proves its Gram matrix PSD from the kernel's rounding bound (``n``
    times ``RBF.gram_error``): no Cholesky factorisation (``check_psd``) runs, the
    certificate carries the slack, and the fit is the one the factorisation gave; a
    callable kernel is still checked numerically."""
    import convexkern.formulations.svm as fsvm

    X, y = load_binary("pima", 1, 0)
    X = (X[:150] - X[:150].mean(0)) / X[:150].std(0)
    y = y[:150]
    checked = clone(SVMClassifier(C=3.0, kernel=_Checked(gamma=0.2))).fit(X, y)
    calls = []
    real = fsvm.check_psd
    monkeypatch.setattr(fsvm, "check_psd", lambda K, *a, **k: calls.append(1) or real(K))
    fast = SVMClassifier(C=3.0, kernel=_WholeGram(gamma=0.2)).fit(X, y)
    assert calls == []
    assert fast.report_.status is ck.Status.OPTIMAL
    assert 0 < fast.report_.residuals.get("psd_slack", 0.0)
    np.testing.assert_array_equal(fast.predict(X), checked.predict(X))
    # the default RBF path: rows on demand, certified about the exact kernel (no slack)
    rows = SVMClassifier(C=3.0, kernel=RBF(gamma=0.2)).fit(X, y)
    assert calls == []
    assert rows.report_.status is ck.Status.OPTIMAL
    assert "psd_slack" not in rows.report_.residuals
    np.testing.assert_array_equal(rows.predict(X), checked.predict(X))
    SVMClassifier(C=3.0, kernel=lambda A, B: RBF(gamma=0.2)(A, B)).fit(X, y)
    assert calls  # a callable gives no bound: checked by a factorisation


class _Checked(RBF):
    """RBF without its construction bound (the numerical check instead)."""

    def gram_error(self, X):
        return None


class _WholeGram(RBF):
    """RBF without rows on demand (the whole Gram matrix, PSD by the bound)."""

    def gram_rows(self, X):
        return None


def test_a_bad_psd_eps_is_named():
    K = RBF(gamma=1.0)(np.eye(3))
    with pytest.raises(InvalidInputError) as info:
        ck.formulations.svm.dual(K, np.array([1.0, -1.0, 1.0]), 1.0, psd_eps=-1.0)
    assert info.value.argument == "psd_eps"
