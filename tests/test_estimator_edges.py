"""Edges of the scikit-learn estimators found by a review (twenty-first session), each
against scikit-learn's own behaviour or the documented one: nested kernel parameters
set through ``set_params`` and ``GridSearchCV``, a refit on a precomputed kernel leaving
no vectors of an earlier fit, round-off coefficients not counted as support vectors, a
precomputed kernel's test-kernel rule said out loud, and bad ``class_weight``,
``zero_tol``, ``scale`` and ``normalize`` values named."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_iris, make_classification
from sklearn.model_selection import GridSearchCV
from sklearn.svm import SVC

from convexkern.errors import InvalidInputError
from convexkern.estimators import KreinSVC, LPMahalanobis, RobustSVMClassifier, SVMClassifier
from convexkern.kernels import RBF


def test_a_kernels_nested_parameters_are_set_as_get_params_lists_them():
    """``get_params(deep=True)`` lists ``kernel__gamma``; setting it raised a bare
    AttributeError (kernels are immutable and have no ``set_params``)."""
    est = SVMClassifier(kernel=RBF(gamma=0.1) + RBF(gamma=2.0))
    assert "kernel__k1__gamma" in est.get_params(deep=True)
    est.set_params(kernel__k1__gamma=5.0, C=3.0)
    assert est.kernel == RBF(gamma=5.0) + RBF(gamma=2.0) and est.C == 3.0
    with pytest.raises(InvalidInputError, match="no parameter 'nope'"):
        est.set_params(kernel__nope=1.0)
    X, y = load_iris(return_X_y=True)
    g = GridSearchCV(SVMClassifier(kernel=RBF(gamma=0.1)), {"kernel__gamma": [0.05, 0.5]},
                     cv=3, error_score="raise").fit(X, y)
    ref = GridSearchCV(SVC(), {"gamma": [0.05, 0.5]}, cv=3).fit(X, y)
    assert g.best_params_["kernel__gamma"] == ref.best_params_["gamma"]
    np.testing.assert_allclose(g.cv_results_["mean_test_score"],
                               ref.cv_results_["mean_test_score"])


@pytest.mark.parametrize("make", [lambda: SVMClassifier(), lambda: KreinSVC(),
                                  lambda: RobustSVMClassifier(test_kernel="raw")])
def test_a_precomputed_refit_keeps_no_vectors_of_an_earlier_fit(make):
    X, y = make_classification(60, 4, random_state=0)
    est = make().fit(X, y)
    assert est.support_vectors_.shape[0] == est.support_.size
    K = RBF(gamma=0.25)(X)
    est.set_params(kernel="precomputed").fit(K, y)
    assert est.support_vectors_.shape == (0, 0)  # SVC's


@pytest.mark.parametrize("decomposition", ["shift", "flip"])
def test_krein_support_vectors_are_svcs_on_a_psd_kernel(decomposition):
    """On an RBF kernel the Krein SVM is the SVM: round-off coefficients (1e-17..1e-15,
    the flip's map back) were counted, listing 38 and 42 support vectors of a class
    where SVC has 22 and 21."""
    X, y = make_classification(80, 5, random_state=1, flip_y=0.1)
    ref = SVC(kernel="rbf", tol=1e-10).fit(X, y)
    k = KreinSVC(kernel="rbf", decomposition=decomposition, tol=1e-9).fit(X, y)
    np.testing.assert_array_equal(np.sort(k.support_), np.sort(ref.support_))
    np.testing.assert_array_equal(k.n_support_, ref.n_support_)
    np.testing.assert_allclose(k.decision_function(X), ref.decision_function(X), atol=1e-6)


def test_a_precomputed_robust_fit_says_it_predicts_with_the_raw_rows():
    X, y = make_classification(40, 4, random_state=0)
    K = RBF(gamma=0.25)(X)
    with pytest.warns(UserWarning, match="test_kernel='projection'"):
        RobustSVMClassifier(kernel="precomputed").fit(K, y)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        RobustSVMClassifier(kernel="precomputed", test_kernel="raw").fit(K, y)


@pytest.mark.parametrize("weight", [-1.0, np.nan, np.inf])
def test_a_bad_class_weight_is_named(weight):
    """A negative, NaN or infinite class weight was blamed on ``sample_weight`` or
    ``C``."""
    X, y = make_classification(30, 4, random_state=0)
    with pytest.raises(InvalidInputError, match="^class_weight: ") as exc:
        SVMClassifier(class_weight={0: weight}).fit(X, y)
    assert exc.value.argument == "class_weight"


@pytest.mark.parametrize("params", [{"zero_tol": 1.0}, {"zero_tol": None}, {"zero_tol": "a"},
                                    {"scale": "no"}, {"normalize": None}])
def test_lp_mahalanobis_names_a_bad_parameter(params):
    """``zero_tol >= 1`` dropped every input and blamed an internal ``R``; a string or
    None raised TypeError; ``scale="no"`` scaled (read by truth value)."""
    X, y = make_classification(30, 4, random_state=0)
    name = next(iter(params))
    with pytest.raises(InvalidInputError, match=f"^{name}: ") as exc:
        LPMahalanobis(**params).fit(X, y)
    assert exc.value.argument == name


@pytest.mark.parametrize("name", ["KreinSVC", "RobustSVMClassifier", "SVMClassifier"])
@pytest.mark.parametrize("labels", ["one class", "three classes", "continuous"])
def test_bad_targets_are_the_librarys_error_naming_y(name, labels):
    """One class, three classes for a binary estimator, continuous labels: an
    InvalidInputError naming ``y`` (a ValueError, with scikit-learn's words), never a
    plain ValueError (a review found all three plain on KreinSVC and RobustSVMClassifier)."""
    import convexkern.estimators as est
    from convexkern.errors import InvalidInputError

    X = np.random.default_rng(0).standard_normal((30, 2))
    y = {"one class": np.zeros(30, dtype=int), "three classes": np.arange(30) % 3,
         "continuous": np.where(X[:, 0] > 0, 2.5, -0.5) + 0.01 * np.arange(30)}[labels]
    if name == "SVMClassifier" and labels == "three classes":
        return  # multiclass: fitted one-vs-one, not an error
    with pytest.raises(InvalidInputError, match=r"^y: ") as info:
        getattr(est, name)().fit(X, y)
    assert isinstance(info.value, ValueError)
