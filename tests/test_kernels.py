"""Tests of convexkern.kernels: Gram matrices, closure rules, factory and input checks."""

from __future__ import annotations

import doctest

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.metrics.pairwise import (
    linear_kernel,
    polynomial_kernel,
    rbf_kernel,
    sigmoid_kernel,
)

import convexkern.kernels.standard as kernels_module
from convexkern.errors import InvalidInputError
from convexkern.kernels import (
    KERNEL_NAMES,
    RBF,
    Epanechnikov,
    Gaussian,
    Kernel,
    Linear,
    Mahalanobis,
    Polynomial,
    ProductKernel,
    ScaledKernel,
    ShiftedKernel,
    Sigmoid,
    Simpson,
    SumKernel,
    make_kernel,
)

pytestmark = pytest.mark.usefixtures("one_blas_thread")

@pytest.fixture(scope="module")
def usps(usps_35) -> np.ndarray:
    return usps_35[0]


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20240607)


def lambda_min(K: np.ndarray) -> float:
    return float(np.linalg.eigvalsh(K)[0])


ALL_KERNELS = [
    Linear(),
    Polynomial(degree=3, gamma=0.5, coef0=1.0),
    RBF(gamma=0.02),
    Gaussian(sigma=3.0),
    Sigmoid(gamma=0.01, coef0=-1.0),
    Epanechnikov(sigma=8.0),
    Simpson(),
    Mahalanobis(R=np.linspace(0.0, 2.0, 256), delta=2.0),
    RBF(gamma=0.02) + 2.0 * Linear() * Polynomial() + 0.5,
]


# ---------------------------------------------------------------------------------------
# agreement with scikit-learn and with slow references
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        (Linear(), lambda A, B: linear_kernel(A, B)),
        (
            Polynomial(degree=3, gamma=0.01, coef0=0.5),
            lambda A, B: polynomial_kernel(A, B, degree=3, gamma=0.01, coef0=0.5),
        ),
        (
            Polynomial(degree=1, gamma=2.0, coef0=0.0),
            lambda A, B: polynomial_kernel(A, B, degree=1, gamma=2.0, coef0=0.0),
        ),
        (RBF(gamma=0.015), lambda A, B: rbf_kernel(A, B, gamma=0.015)),
        (Gaussian(sigma=4.0), lambda A, B: rbf_kernel(A, B, gamma=1.0 / 32.0)),
        (
            Sigmoid(gamma=0.02, coef0=-1.5),
            lambda A, B: sigmoid_kernel(A, B, gamma=0.02, coef0=-1.5),
        ),
    ],
    ids=["linear", "poly3", "poly1", "rbf", "gaussian", "sigmoid"],
)
def test_agrees_with_sklearn_on_usps(usps, ours, theirs):
    X, Z = usps[:150], usps[600:640]
    np.testing.assert_allclose(ours(X), theirs(X, X), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(ours(X, Z), theirs(X, Z), rtol=1e-10, atol=1e-12)


def test_rbf_agrees_with_sklearn_far_from_origin(rng):
    # the centring inside the squared distances must not change the result
    X = rng.standard_normal((40, 3)) + 1e3
    Z = rng.standard_normal((7, 3)) + 1e3
    np.testing.assert_allclose(RBF(0.3)(X, Z), rbf_kernel(X, Z, gamma=0.3), rtol=1e-8)
    np.testing.assert_allclose(RBF(0.3)(X), rbf_kernel(X, gamma=0.3), rtol=1e-8, atol=1e-300)
    assert np.all(np.diag(RBF(0.3)(X)) == 1.0)


def simpson_reference(X: np.ndarray, Z: np.ndarray) -> np.ndarray:
    K = np.zeros((X.shape[0], Z.shape[0]))
    for i, x in enumerate(X):
        for j, z in enumerate(Z):
            overlap = sum(min(a, b) for a, b in zip(x, z, strict=True))
            K[i, j] = overlap / min(sum(x), sum(z))
    return K


def test_simpson_matches_loop_reference(rng):
    X = rng.uniform(0.0, 1.0, (6, 5)) * (rng.uniform(size=(6, 5)) > 0.3)
    X[:, 0] += 0.1  # no all-zero row
    Z = rng.uniform(0.0, 2.0, (4, 5))
    np.testing.assert_allclose(Simpson()(X), simpson_reference(X, X), rtol=1e-14)
    np.testing.assert_allclose(Simpson()(X, Z), simpson_reference(X, Z), rtol=1e-14)
    assert np.all(np.diag(Simpson()(X)) == 1.0)


def test_simpson_blocking_gives_identical_results(usps, monkeypatch):
    X, Z = usps[:37], usps[100:111]
    full_sym, full_cross = Simpson()(X), Simpson()(X, Z)
    # a tiny budget forces 1-row x 3-column blocks
    monkeypatch.setattr(kernels_module, "_SIMPSON_BLOCK_BYTES", 8 * 256 * 3)
    small_sym, small_cross = Simpson()(X), Simpson()(X, Z)
    assert np.array_equal(small_sym, small_sym.T)
    np.testing.assert_allclose(small_sym, full_sym, rtol=1e-14)
    np.testing.assert_allclose(small_cross, full_cross, rtol=1e-14)
    # a budget for 5 rows of the full width: row blocks with a diagonal square each
    monkeypatch.setattr(kernels_module, "_SIMPSON_BLOCK_BYTES", 8 * 256 * 37 * 5)
    mid_sym = Simpson()(X)
    assert np.array_equal(mid_sym, mid_sym.T)
    np.testing.assert_allclose(mid_sym, full_sym, rtol=1e-14)


def test_simpson_is_indefinite_on_usps_3_vs_5(usps):
    # Luss & d'Aspremont, NIPS 2007, section 4: the Simpson score on USPS 3/5
    K = Simpson()(usps[:300])
    assert np.array_equal(K, K.T)
    assert np.all((K >= 0) & (K <= 1 + 1e-12))
    assert lambda_min(K) < -1.0


def test_mahalanobis_with_unit_weights_is_rbf(usps):
    X, Z = usps[:80], usps[500:520]
    m = X.shape[1]
    k = Mahalanobis(R=np.ones(m), delta=3.0)
    np.testing.assert_allclose(k(X), RBF(gamma=3.0 / m)(X), rtol=1e-12)
    np.testing.assert_allclose(k(X, Z), RBF(gamma=3.0 / m)(X, Z), rtol=1e-12)


def test_mahalanobis_matches_formula(rng):
    X, Z = rng.standard_normal((5, 3)), rng.standard_normal((4, 3))
    R, delta = np.array([0.5, 0.0, 2.0]), 1.5
    ref = np.array([[np.exp(-(delta / 3) * np.sum(R * (x - z) ** 2)) for z in Z] for x in X])
    np.testing.assert_allclose(Mahalanobis(R, delta)(X, Z), ref, rtol=1e-12)


def test_epanechnikov_matches_formula_and_is_indefinite(rng):
    X, Z = rng.standard_normal((6, 2)), rng.standard_normal((3, 2))
    ref = np.array([[max(0.0, 1 - np.sum((x - z) ** 2) / 1.5**2) for z in Z] for x in X])
    np.testing.assert_allclose(Epanechnikov(1.5)(X, Z), ref, rtol=1e-12, atol=1e-15)
    # indefinite already on the line (its Fourier transform changes sign)
    grid = np.linspace(0.0, 3.0, 120)[:, None]
    assert lambda_min(Epanechnikov(1.0)(grid)) < -1.0


def test_epanechnikov_is_indefinite_on_usps(usps):
    assert lambda_min(Epanechnikov(sigma=7.0)(usps[:300])) < -0.1


# ---------------------------------------------------------------------------------------
# shapes, dtype, exact symmetry
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("kernel", ALL_KERNELS, ids=repr)
def test_gram_is_exactly_symmetric_and_cross_has_right_shape(usps, kernel):
    X, Z = usps[:120], usps[700:713]
    K = kernel(X)
    assert K.dtype == np.float64 and K.shape == (120, 120)
    assert np.array_equal(K, K.T)
    C = kernel(X, Z)
    assert C.dtype == np.float64 and C.shape == (120, 13)
    assert np.all(np.isfinite(C))
    # the cross matrix with Z = X agrees with the symmetric one
    np.testing.assert_allclose(kernel(X, X), K, rtol=1e-9, atol=1e-9)


def test_accepts_lists_and_integers():
    K = Linear()([[1, 2], [3, 4]])
    assert K.dtype == np.float64
    assert np.array_equal(K, [[5.0, 11.0], [11.0, 25.0]])


# ---------------------------------------------------------------------------------------
# closure rules
# ---------------------------------------------------------------------------------------


def test_closure_rules_are_the_arithmetic(usps):
    X, Z = usps[:60], usps[300:310]
    k1, k2 = RBF(0.01), Polynomial(degree=2, gamma=0.01)
    for args in ((X,), (X, Z)):
        assert np.array_equal((k1 + k2)(*args), k1(*args) + k2(*args))
        assert np.array_equal((k1 * k2)(*args), k1(*args) * k2(*args))
        assert np.array_equal((2.5 * k1)(*args), 2.5 * k1(*args))
        assert np.array_equal((k1 * 2.5)(*args), k1(*args) * 2.5)
        assert np.array_equal((k1 + 0.75)(*args), k1(*args) + 0.75)
        assert np.array_equal((0.75 + k1)(*args), k1(*args) + 0.75)
    assert isinstance(k1 + k2, SumKernel)
    assert isinstance(k1 * k2, ProductKernel)
    assert isinstance(np.float64(2.0) * k1, ScaledKernel)
    assert isinstance(k1 + 1, ShiftedKernel)
    assert sum([k1, k2]) == k1 + k2  # sum() starts from 0 + k1, which is k1
    assert 0 + k1 is k1


def test_closure_repr_params_and_psd_flags():
    k = RBF(0.5) + 2 * Linear() * (Sigmoid(1.0) + 1)
    assert repr(k) == "RBF(gamma=0.5) + 2.0 * Linear() * (Sigmoid(gamma=1.0, coef0=0.0) + 1.0)"
    assert k.name == "sum"
    assert k.get_params()["k1"] == RBF(0.5)
    assert not k.is_psd
    assert (RBF(0.5) * Linear() + 3).is_psd
    assert not Polynomial(coef0=-1.0).is_psd
    assert not Simpson().is_psd and not Epanechnikov(1.0).is_psd


def kernel_strategy():
    gamma = st.floats(0.05, 2.0)
    leaves = st.one_of(
        st.just(Linear()),
        st.builds(Polynomial, degree=st.integers(1, 3), gamma=gamma, coef0=st.floats(0.0, 2.0)),
        st.builds(RBF, gamma=gamma),
        st.builds(
            Mahalanobis,
            R=st.lists(st.floats(0.0, 3.0), min_size=3, max_size=3),
            delta=st.floats(0.1, 3.0),
        ),
    )
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.builds(SumKernel, inner, inner),
            st.builds(ProductKernel, inner, inner),
            st.builds(ScaledKernel, inner, st.floats(0.1, 10.0)),
            st.builds(ShiftedKernel, inner, st.floats(0.0, 5.0)),
        ),
        max_leaves=4,
    )


@settings(max_examples=60, deadline=None)
@given(
    kernel=kernel_strategy(),
    points=st.lists(st.lists(st.floats(-2.0, 2.0), min_size=3, max_size=3), min_size=1, max_size=8),
)
def test_closure_preserves_psd(kernel, points):
    X = np.array(points)
    K = kernel(X)
    assert kernel.is_psd
    assert np.array_equal(K, K.T)
    scale = max(1.0, float(np.max(np.abs(K))))
    assert lambda_min(K) >= -1e-9 * scale


# ---------------------------------------------------------------------------------------
# factory, parameters, value semantics
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "params", "expected"),
    [
        ("linear", {}, Linear()),
        ("poly", {"degree": 3}, Polynomial(degree=3)),
        ("Polynomial", {"degree": 2, "gamma": 0.5, "coef0": 0.0}, Polynomial(2, 0.5, 0.0)),
        ("rbf", {"gamma": 0.1}, RBF(0.1)),
        ("gaussian", {"sigma": 2.0}, Gaussian(2.0)),
        ("gaussian", {"gamma": 0.1}, RBF(0.1)),
        ("sigmoid", {"gamma": 0.1, "coef0": -1.0}, Sigmoid(0.1, -1.0)),
        ("tanh", {"gamma": 0.1}, Sigmoid(0.1)),
        ("epanechnikov", {"sigma": 2.0}, Epanechnikov(2.0)),
        ("simpson", {}, Simpson()),
        ("mahalanobis", {"R": [1.0, 2.0], "delta": 0.5}, Mahalanobis([1.0, 2.0], 0.5)),
    ],
)
def test_make_kernel(name, params, expected):
    k = make_kernel(name, **params)
    assert k == expected and type(k) is type(expected)
    assert hash(k) == hash(expected)
    rebuilt = type(k)(**k.get_params(deep=False))
    assert rebuilt == k
    assert make_kernel(k) is k


def test_names_reprs_and_params():
    assert set(KERNEL_NAMES) >= {"linear", "rbf", "gaussian", "simpson", "mahalanobis"}
    assert repr(Polynomial()) == "Polynomial(degree=2, gamma=1.0, coef0=1.0)"
    assert repr(Mahalanobis([1.0, 0.0])) == "Mahalanobis(R=array([1., 0.]), delta=1.0)"
    assert Gaussian(2.0).gamma == pytest.approx(0.125)
    assert Gaussian(2.0) != RBF(0.125)
    R = np.array([1.0, 2.0])
    k = Mahalanobis(R)
    R[0] = 99.0  # the kernel keeps its own read-only copy
    assert k.R[0] == 1.0
    with pytest.raises(ValueError):
        k.get_params()["R"][0] = 5.0
    assert Polynomial(degree=3.0).degree == 3
    for k in ALL_KERNELS:
        assert isinstance(k, Kernel) and isinstance(k.name, str)


def test_get_params_follows_sklearn_and_kernels_clone():
    k = RBF(0.5) + 2 * Mahalanobis([1.0, 0.0])
    shallow = k.get_params(deep=False)
    assert set(shallow) == {"k1", "k2"}
    deep = k.get_params()
    assert deep["k1__gamma"] == 0.5 and deep["k2__scale"] == 2.0
    assert np.array_equal(deep["k2__kernel__R"], [1.0, 0.0])
    for kernel in [*ALL_KERNELS, k, Mahalanobis([1.0, 2.0])]:
        assert clone(kernel) is kernel  # immutable: sharing is safe
        leaf = type(kernel)(**kernel.get_params(deep=False))
        assert leaf == kernel
        # scikit-learn's clone protocol: the constructor stores what it is given
        params = kernel.get_params(deep=False)
        assert all(params[p] is v for p, v in leaf.get_params(deep=False).items())


# ---------------------------------------------------------------------------------------
# bad input names the argument
# ---------------------------------------------------------------------------------------


def test_bad_data_is_rejected_naming_the_argument():
    X = np.ones((3, 2))
    bad = X.copy()
    bad[1, 1] = np.nan
    with pytest.raises(ValueError, match="^X: contains 1 non-finite"):
        RBF(1.0)(bad)
    with pytest.raises(ValueError, match="^Z: contains 1 non-finite"):
        RBF(1.0)(X, np.where(np.isnan(bad), np.inf, bad))
    with pytest.raises(ValueError, match="^Z: has 3 columns but X has 2"):
        Linear()(X, np.ones((4, 3)))
    with pytest.raises(ValueError, match="^X: expected a 2-d array"):
        Linear()(np.ones(3))
    with pytest.raises(InvalidInputError, match="^X: is empty"):
        Linear()(np.ones((0, 2)))


@pytest.mark.parametrize(
    ("build", "argument"),
    [
        (lambda: RBF(0.0), "gamma"),
        (lambda: RBF(-1.0), "gamma"),
        (lambda: Sigmoid(gamma=0.0), "gamma"),
        (lambda: Polynomial(gamma=-2.0), "gamma"),
        (lambda: Polynomial(degree=0), "degree"),
        (lambda: Polynomial(degree=2.5), "degree"),
        (lambda: Polynomial(coef0=np.nan), "coef0"),
        (lambda: Gaussian(0.0), "sigma"),
        (lambda: Epanechnikov(-1.0), "sigma"),
        (lambda: Mahalanobis([1.0, -0.5]), "R"),
        (lambda: Mahalanobis([[1.0, 0.5]]), "R"),
        (lambda: Mahalanobis([1.0], delta=0.0), "delta"),
        (lambda: 0 * Linear(), "scale"),
        (lambda: Linear() * -2.0, "scale"),
        (lambda: Linear() + -1.0, "constant"),
        (lambda: make_kernel("rbf"), "gamma"),
        (lambda: make_kernel("rbf", gama=1.0), "gama"),
        (lambda: make_kernel("rbf", gamma=1.0, sigma=1.0), "sigma"),
        (lambda: make_kernel("poly", degree=-3), "degree"),
    ],
)
def test_bad_parameters_name_the_parameter(build, argument):
    with pytest.raises(ValueError, match=f"^{argument}: "):
        build()


def test_unknown_kernel_name_lists_the_known_names():
    with pytest.raises(ValueError, match="^name: unknown kernel 'laplacian'.*rbf.*simpson"):
        make_kernel("laplacian")
    with pytest.raises(TypeError, match="^name:"):
        make_kernel(3)


def test_simpson_rejects_negative_and_empty_rows():
    X = np.array([[0.2, 0.1], [0.0, 0.5]])
    with pytest.raises(ValueError, match="^X: the Simpson kernel needs nonnegative"):
        Simpson()(X - 0.3)
    with pytest.raises(ValueError, match="^Z: the Simpson kernel needs nonnegative"):
        Simpson()(X, -X)
    with pytest.raises(ValueError, match=r"^X: row\(s\) \[1\] are all zeros"):
        Simpson()(np.array([[1.0, 0.0], [0.0, 0.0]]))
    with pytest.raises(ValueError, match="^X: the Simpson"):
        (Simpson() + RBF(1.0))(X - 0.3)  # composite kernels run the checks of their parts


def test_mahalanobis_dimension_mismatch_names_x():
    with pytest.raises(ValueError, match="^X: has 3 columns but .* m = len\\(R\\) = 2"):
        Mahalanobis([1.0, 1.0])(np.ones((2, 3)))


def test_operators_with_non_numbers_are_type_errors():
    with pytest.raises(TypeError):
        Linear() + "a"
    with pytest.raises(TypeError):
        Linear() * [1.0]
    with pytest.raises(TypeError, match="^gamma:"):
        RBF("big")


def test_docstring_examples_run():
    result = doctest.testmod(kernels_module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 10 and result.failed == 0


@pytest.mark.parametrize("make", [lambda rng: RBF(gamma=10.0 ** rng.uniform(-4, 1)),
                                  lambda rng: Linear()])
def test_the_gram_error_bound_covers_the_smallest_eigenvalue(make):
    """``gram_error`` bounds the computed Gram matrix's distance to one PSD by
    construction, so ``lambda_min(K) >= -n delta``; checked against LAPACK's eigenvalues
    on data at scales 1e-3..1e3 with offsets up to 1e4 (the centring's cancellation); on
    standardised real data (Pima, ``gamma = 1/d``) the bound is small (below 1e-12 of the
    largest entry), so the certificate's slack is too."""
    rng = np.random.default_rng(11)
    for _ in range(25):
        n, d = int(rng.integers(5, 200)), int(rng.integers(1, 200))
        X = (rng.standard_normal((n, d)) * 10.0 ** rng.uniform(-3, 3)
             + rng.standard_normal(d) * 10.0 ** rng.uniform(-2, 4))
        k = make(rng)
        K, delta = k(X), k.gram_error(X)
        assert delta > 0 and np.linalg.eigvalsh(K)[0] >= -n * delta
    from convexkern.data import load_binary

    X = load_binary("pima", 1, 0)[0]
    X = (X - X.mean(0)) / X.std(0)
    k = make(np.random.default_rng(0)) if isinstance(make(rng), Linear) else RBF(1 / 8)
    assert k.gram_error(X) <= 1e-12 * float(np.max(np.abs(k(X))))


def test_a_kernel_without_a_construction_bound_says_none():
    X = np.random.default_rng(0).standard_normal((10, 3))
    assert Sigmoid(gamma=0.5, coef0=-1.0).gram_error(X) is None
