"""Tests of convexkern.spectral: spectrum summaries, PSD repairs, Lanczos extreme eigenvalues."""

from __future__ import annotations

import doctest

import numpy as np
import pytest
import scipy.sparse
from scipy.sparse.linalg import LinearOperator, aslinearoperator

import convexkern.spectral as spectral_module
from convexkern.errors import SolverError
from convexkern.kernels import RBF, Sigmoid, Simpson
from convexkern.spectral import (
    SpectrumSummary,
    denoise,
    eigh,
    flip,
    krein_decomposition,
    max_eigenvalue,
    min_eigenvalue,
    positive_part,
    psd_projection,
    shift,
    spectrum,
)

pytestmark = pytest.mark.usefixtures("one_blas_thread")

@pytest.fixture(scope="module")
def simpson_usps(usps_35) -> np.ndarray:
    """Indefinite Simpson kernel on 160 USPS 3/5 digits (Luss & d'Aspremont, NIPS 2007)."""
    return Simpson()(usps_35[0][:160])


@pytest.fixture(scope="module")
def sigmoid_500() -> np.ndarray:
    """An indefinite 500 x 500 sigmoid kernel on random data."""
    X = np.random.default_rng(7).standard_normal((500, 8))
    return Sigmoid(gamma=0.3, coef0=0.0)(X)


@pytest.fixture(scope="module")
def sigmoid_500_eigenvalues(sigmoid_500) -> np.ndarray:
    return np.linalg.eigvalsh(sigmoid_500)


@pytest.fixture(scope="module")
def sigmoid_200() -> np.ndarray:
    X = np.random.default_rng(9).standard_normal((200, 8))
    return Sigmoid(gamma=0.3, coef0=0.0)(X)


@pytest.fixture(scope="module")
def rbf_300() -> np.ndarray:
    """A PSD kernel whose smallest eigenvalues form a tight cluster near zero."""
    X = np.random.default_rng(8).standard_normal((300, 6))
    return RBF(gamma=0.2)(X)


def scale_of(K: np.ndarray) -> float:
    return max(1.0, float(np.max(np.abs(np.linalg.eigvalsh(K)))))


# ---------------------------------------------------------------------------------------
# spectrum and eigh
# ---------------------------------------------------------------------------------------


def test_spectrum_of_a_known_matrix():
    Q = np.linalg.qr(np.random.default_rng(0).standard_normal((5, 5)))[0]
    K = (Q * np.array([-3.0, -1.0, 0.0, 2.0, 10.0])) @ Q.T
    K = (K + K.T) / 2
    s = spectrum(K)
    assert isinstance(s, SpectrumSummary)
    assert s.n == 5 and s.n_negative == 2 and not s.is_psd
    assert s.lambda_min == pytest.approx(-3.0) and s.lambda_max == pytest.approx(10.0)
    assert s.negative_mass == pytest.approx(4.0)
    text = str(s)
    assert "\n" not in text and "lambda_min=-3" in text and "n_negative=2" in text
    with pytest.raises(AttributeError):
        s.n = 3  # frozen


def test_spectrum_rounding_threshold(rbf_300):
    s = spectrum(rbf_300)
    assert s.is_psd and s.negative_mass == 0.0 and s.tol > 0
    strict = spectrum(np.diag([-1e-300, 1.0]), tol=0.0)
    assert strict.n_negative == 1


def test_spectrum_on_usps_simpson_kernel(simpson_usps):
    s = spectrum(simpson_usps)
    w = np.linalg.eigvalsh(simpson_usps)
    assert s.lambda_min == pytest.approx(w[0], rel=1e-10) and s.lambda_min < -1.0
    assert s.n_negative == np.count_nonzero(w < -s.tol) > 10
    assert s.negative_mass == pytest.approx(-w[w < -s.tol].sum(), rel=1e-10)


def test_eigh_is_ascending_and_reconstructs(simpson_usps):
    w, U = eigh(simpson_usps)
    assert np.all(np.diff(w) >= 0)
    np.testing.assert_allclose(U.T @ U, np.eye(w.size), atol=1e-10)
    np.testing.assert_allclose((U * w) @ U.T, simpson_usps, atol=1e-10)


# ---------------------------------------------------------------------------------------
# the three spectrum fixes (Luss & d'Aspremont, NIPS 2007, section 4.1)
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("fix", [psd_projection, denoise, flip, shift], ids=lambda f: f.__name__)
def test_fixes_are_exactly_symmetric_and_psd(simpson_usps, fix):
    R = fix(simpson_usps)
    assert R.dtype == np.float64 and R.shape == simpson_usps.shape
    assert np.array_equal(R, R.T)
    assert np.linalg.eigvalsh(R)[0] >= -1e-10 * scale_of(simpson_usps)


def test_denoise_clips_the_negative_eigenvalues(simpson_usps):
    w, U = np.linalg.eigh(simpson_usps)
    P = denoise(simpson_usps)
    np.testing.assert_allclose(P, (U * np.maximum(w, 0)) @ U.T, atol=1e-10)
    np.testing.assert_allclose(np.linalg.eigvalsh(P), np.sort(np.maximum(w, 0)), atol=1e-10)
    assert np.array_equal(psd_projection(simpson_usps), P)


def test_positive_part_from_eigenpairs(simpson_usps):
    """positive_part(w, V) = V max(w, 0) V', exactly symmetric, from any eigenpairs (here
    numpy's, in ascending order, and a permutation of them)."""
    K = simpson_usps
    w, U = np.linalg.eigh(K)
    assert w[0] < 0  # indefinite: the positive part differs from K
    scale = scale_of(K)
    P = positive_part(w, U)
    assert np.array_equal(P, P.T)
    np.testing.assert_allclose(P, (U * np.maximum(w, 0)) @ U.T, atol=1e-12 * scale)
    np.testing.assert_allclose(np.linalg.eigvalsh(P), np.sort(np.maximum(w, 0)),
                               atol=1e-10 * scale)
    perm = np.random.default_rng(0).permutation(w.size)
    np.testing.assert_allclose(positive_part(w[perm], U[:, perm]), P, atol=1e-12 * scale)
    np.testing.assert_allclose(psd_projection(K), P, atol=1e-10 * scale)


def test_psd_projection_is_the_frobenius_nearest_psd_matrix(simpson_usps):
    K = simpson_usps
    P = psd_projection(K)
    best = np.linalg.norm(K - P)
    rng = np.random.default_rng(1)
    n = K.shape[0]
    w, U = np.linalg.eigh(K)
    scale = float(np.max(np.abs(w)))
    candidates = [flip(K), shift(K), np.zeros_like(K), K @ K / scale]
    for size in (1e-3, 1e-2, 1e-1):
        B = size * rng.standard_normal((n, 10))
        candidates.append(P + B @ B.T)  # perturbations of P inside the PSD cone
    for eps in (1e-3, 1e-1):
        candidates.append((U * np.maximum(w, eps)) @ U.T)  # other PSD spectra, same basis
    for Q in candidates:
        assert np.linalg.eigvalsh(Q)[0] >= -1e-9 * scale
        assert np.linalg.norm(K - Q) > best


def test_fixes_of_a_psd_matrix_change_nothing(rbf_300):
    K = rbf_300
    assert np.array_equal(shift(K), K)
    np.testing.assert_allclose(psd_projection(K), K, atol=1e-10)
    np.testing.assert_allclose(flip(K), K, atol=1e-10)


def test_flip_takes_absolute_eigenvalues(sigmoid_200):
    w = np.linalg.eigvalsh(sigmoid_200)
    F = flip(sigmoid_200)
    np.testing.assert_allclose(
        np.linalg.eigvalsh(F), np.sort(np.abs(w)), atol=1e-9 * scale_of(sigmoid_200)
    )


def test_shift_adds_minus_lambda_min_to_the_diagonal(sigmoid_200):
    lam = np.linalg.eigvalsh(sigmoid_200)[0]
    assert lam < -1.0
    S = shift(sigmoid_200)
    np.testing.assert_allclose(S - sigmoid_200, -lam * np.eye(200), rtol=0, atol=1e-10)
    assert abs(np.linalg.eigvalsh(S)[0]) <= 1e-10 * scale_of(sigmoid_200)


def test_krein_decomposition(simpson_usps):
    Kp, Km = krein_decomposition(simpson_usps)
    scale = scale_of(simpson_usps)
    assert np.array_equal(Kp, Kp.T) and np.array_equal(Km, Km.T)
    np.testing.assert_allclose(Kp - Km, simpson_usps, atol=1e-10)
    np.testing.assert_allclose(Kp @ Km, 0.0, atol=1e-9 * scale**2)
    assert np.linalg.eigvalsh(Km)[0] >= -1e-10 * scale
    assert np.array_equal(Kp, psd_projection(simpson_usps))


# ---------------------------------------------------------------------------------------
# min_eigenvalue / max_eigenvalue
# ---------------------------------------------------------------------------------------


def test_min_eigenvalue_by_lanczos_agrees_with_eigvalsh(sigmoid_500, sigmoid_500_eigenvalues):
    w = sigmoid_500_eigenvalues
    assert w[0] < -1.0  # indefinite
    # dense_fallback=0: the value must come from the Lanczos iteration itself
    lam = min_eigenvalue(sigmoid_500, dense_fallback=0)
    assert isinstance(lam, float)
    assert lam == pytest.approx(w[0], rel=1e-6)
    assert max_eigenvalue(sigmoid_500, dense_fallback=0) == pytest.approx(w[-1], rel=1e-6)


def test_min_eigenvalue_on_usps_simpson(simpson_usps):
    w = np.linalg.eigvalsh(simpson_usps)
    assert min_eigenvalue(simpson_usps, dense_fallback=0) == pytest.approx(w[0], rel=1e-6)
    assert max_eigenvalue(simpson_usps, dense_fallback=0) == pytest.approx(w[-1], rel=1e-6)


def test_min_eigenvalue_on_sparse_and_operator_inputs(sigmoid_500, sigmoid_500_eigenvalues):
    w = sigmoid_500_eigenvalues
    op = aslinearoperator(sigmoid_500)
    assert min_eigenvalue(op) == pytest.approx(w[0], rel=1e-6)
    assert max_eigenvalue(op) == pytest.approx(w[-1], rel=1e-6)
    rng = np.random.default_rng(3)
    A = scipy.sparse.random(400, 400, density=0.02, random_state=rng, format="csr")
    A = A + A.T - 3.0 * scipy.sparse.eye(400)
    wa = np.linalg.eigvalsh(A.toarray())
    assert min_eigenvalue(A) == pytest.approx(wa[0], rel=1e-6)
    assert max_eigenvalue(A) == pytest.approx(wa[-1], rel=1e-6)


def test_clustered_minimum_falls_back_or_raises(rbf_300):
    # lambda_min of a smooth PSD kernel sits in a tight cluster near zero: Lanczos is slow
    w0 = np.linalg.eigvalsh(rbf_300)[0]
    with pytest.raises(SolverError, match="did not find the smallest eigenvalue"):
        min_eigenvalue(rbf_300, maxiter=1, dense_fallback=0)
    # with the dense fallback (the default) the answer is the LAPACK one
    assert min_eigenvalue(rbf_300, maxiter=1) == pytest.approx(w0, rel=1e-8, abs=1e-12)
    assert abs(min_eigenvalue(rbf_300) - w0) <= 1e-10 * scale_of(rbf_300)


def test_small_and_dense_paths():
    K = np.diag(np.arange(-3.0, 47.0))
    assert min_eigenvalue(K) == -3.0 and max_eigenvalue(K) == 46.0
    K = np.diag(np.linspace(-2.0, 5.0, 300))
    assert min_eigenvalue(K, method="dense") == pytest.approx(-2.0)
    assert max_eigenvalue(K, method="dense") == pytest.approx(5.0)
    assert min_eigenvalue(np.zeros((300, 300))) == 0.0


# ---------------------------------------------------------------------------------------
# bad input names the argument
# ---------------------------------------------------------------------------------------

NON_SYMMETRIC = np.array([[1.0, 2.0], [0.0, 1.0]])
FUNCTIONS = [
    spectrum,
    eigh,
    psd_projection,
    denoise,
    flip,
    shift,
    krein_decomposition,
    min_eigenvalue,
    max_eigenvalue,
]


@pytest.mark.parametrize("func", FUNCTIONS, ids=lambda f: f.__name__)
def test_non_symmetric_kernel_is_rejected(func):
    with pytest.raises(ValueError, match="^K: is not symmetric"):
        func(NON_SYMMETRIC)
    with pytest.raises(ValueError, match="^K: contains 1 non-finite"):
        func(np.array([[1.0, 0.0], [0.0, np.nan]]))
    with pytest.raises(ValueError, match="^K: must be square"):
        func(np.ones((2, 3)))


def test_lanczos_input_checks():
    big = np.diag(np.arange(300.0))
    big[0, 5] = 1.0
    with pytest.raises(ValueError, match="^K: is not symmetric"):
        min_eigenvalue(big)
    with pytest.raises(ValueError, match="^K: is not symmetric"):
        min_eigenvalue(scipy.sparse.csr_array(big))
    with pytest.raises(ValueError, match="^K: the operator is not symmetric"):
        min_eigenvalue(aslinearoperator(big + 0.5 * np.triu(np.ones((300, 300)), 1)))
    with pytest.raises(ValueError, match="^K: must be square"):
        min_eigenvalue(LinearOperator((3, 4), matvec=lambda x: x[:3], dtype=float))
    sym = np.eye(300)
    with pytest.raises(ValueError, match="^tol:"):
        min_eigenvalue(sym, tol=0.0)
    with pytest.raises(ValueError, match="^method:"):
        min_eigenvalue(sym, method="power")
    with pytest.raises(ValueError, match="^maxiter:"):
        max_eigenvalue(sym, maxiter=0)
    with pytest.raises(ValueError, match="^tol:"):
        spectrum(sym, tol=-1.0)


def test_docstring_examples_run():
    result = doctest.testmod(spectral_module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 10 and result.failed == 0
