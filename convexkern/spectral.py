"""Spectral tools for kernel matrices: spectrum summaries, PSD repairs, extreme eigenvalues.

Indefinite kernels (sigmoid, Epanechnikov, Simpson; see :mod:`convexkern.kernels`) give
Gram matrices with negative eigenvalues.  This module measures them (:func:`spectrum`,
:func:`min_eigenvalue`) and implements the three spectrum fixes used as baselines by Luss
& d'Aspremont, NIPS 2007, §4.1 (also Chen et al., JMLR 2009, "Similarity-based
classification"): :func:`denoise` (clip the negative eigenvalues to zero, which is the
Frobenius-nearest PSD matrix, :func:`psd_projection`), :func:`flip` (replace every
eigenvalue by its absolute value) and :func:`shift` (add ``|lambda_min| I``).
:func:`krein_decomposition` splits ``K = K_plus - K_minus`` into PSD parts (Loosli,
ESANN 2019).

Every function checks its kernel with :func:`convexkern._validation.check_kernel`
(square, finite, symmetric to 1e-10 relative) and every matrix it returns is exactly
symmetric.

Examples
--------
>>> import numpy as np
>>> from convexkern.spectral import spectrum, denoise, flip, shift
>>> K = np.array([[1.0, 2.0], [2.0, 1.0]])           # eigenvalues -1 and 3
>>> print(spectrum(K))
SpectrumSummary(n=2, lambda_min=-1, lambda_max=3, n_negative=1, negative_mass=1)
>>> np.round(np.linalg.eigvalsh(flip(K)), 12)
array([1., 3.])
>>> np.round(np.linalg.eigvalsh(shift(K)), 12)
array([0., 4.])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.linalg
import scipy.sparse
from scipy.sparse.linalg import ArpackNoConvergence, LinearOperator, aslinearoperator, eigsh

from ._validation import check_int, check_kernel, check_nonnegative, check_positive
from .errors import InvalidInputError, SolverError

__all__ = [
    "SpectrumSummary",
    "spectrum",
    "eigh",
    "psd_projection",
    "positive_part",
    "denoise",
    "flip",
    "shift",
    "krein_decomposition",
    "min_eigenvalue",
    "max_eigenvalue",
]

#: Below this order a dense solve is always used by :func:`min_eigenvalue`.
_SMALL_N = 200


def _symmetrize_inplace(A: np.ndarray) -> np.ndarray:
    """Average ``A`` with its transpose; exactly symmetric since ``+`` is commutative."""
    A += A.T
    A *= 0.5
    return A


# ---------------------------------------------------------------------------------------
# spectrum summary and eigendecomposition
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SpectrumSummary:
    """Summary of the spectrum of a symmetric matrix.

    Attributes
    ----------
    lambda_min, lambda_max : float
        Smallest and largest eigenvalue.
    n_negative : int
        Number of eigenvalues below ``-tol``.
    n : int
        Order of the matrix.
    negative_mass : float
        Sum of ``|lambda|`` over those ``n_negative`` eigenvalues.
    tol : float
        The threshold used: eigenvalues in ``[-tol, 0)`` are treated as rounding noise.
    """

    lambda_min: float
    lambda_max: float
    n_negative: int
    n: int
    negative_mass: float
    tol: float = 0.0

    @property
    def is_psd(self) -> bool:
        """True when no eigenvalue is below ``-tol``."""
        return self.n_negative == 0

    def __str__(self) -> str:
        return (
            f"SpectrumSummary(n={self.n}, lambda_min={self.lambda_min:.6g}, "
            f"lambda_max={self.lambda_max:.6g}, n_negative={self.n_negative}, "
            f"negative_mass={self.negative_mass:.6g})"
        )


def spectrum(K: Any, *, tol: float | None = None) -> SpectrumSummary:
    """Summarise the spectrum of a symmetric kernel matrix (full ``eigvalsh``).

    Parameters
    ----------
    K : array_like of shape (n, n)
        Symmetric finite matrix.
    tol : float, optional
        Eigenvalues ``>= -tol`` count as nonnegative.  Default ``n * eps * max|lambda|``,
        the usual rounding-level threshold, so a PSD matrix computed in floating point
        reports ``n_negative == 0``.  Pass ``0.0`` to count every negative eigenvalue.

    Returns
    -------
    SpectrumSummary

    Examples
    --------
    >>> import numpy as np
    >>> s = spectrum(np.diag([-2.0, -1.0, 0.0, 5.0]))
    >>> s.n_negative, s.negative_mass, s.lambda_max
    (2, 3.0, 5.0)
    """
    A = check_kernel(K, "K")
    w = scipy.linalg.eigvalsh(A, driver="evd", check_finite=False)
    scale = float(np.max(np.abs(w)))
    if tol is None:
        thr = A.shape[0] * np.finfo(np.float64).eps * scale
    else:
        thr = check_nonnegative(tol, "tol", expected="a number")
    neg = w[w < -thr]
    return SpectrumSummary(
        lambda_min=float(w[0]),
        lambda_max=float(w[-1]),
        n_negative=int(neg.size),
        n=int(A.shape[0]),
        negative_mass=float(-neg.sum()) if neg.size else 0.0,
        tol=float(thr),
    )


def eigh(K: Any) -> tuple[np.ndarray, np.ndarray]:
    """Eigenvalues (ascending) and orthonormal eigenvectors of a symmetric kernel matrix.

    A checked wrapper around ``scipy.linalg.eigh(K, driver="evd")`` (divide and conquer,
    the fastest LAPACK driver when all eigenvectors are wanted).

    Returns
    -------
    w : ndarray of shape (n,)
        Eigenvalues in ascending order.
    U : ndarray of shape (n, n)
        ``U[:, i]`` is the unit eigenvector of ``w[i]``; ``K = U diag(w) U'``.

    Examples
    --------
    >>> import numpy as np
    >>> w, U = eigh(np.array([[2.0, 1.0], [1.0, 2.0]]))
    >>> np.round(w, 12)
    array([1., 3.])
    """
    A = check_kernel(K, "K")
    return scipy.linalg.eigh(A, driver="evd", check_finite=False)


# ---------------------------------------------------------------------------------------
# PSD repairs
# ---------------------------------------------------------------------------------------


def _parts(K: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Return ``(Ks, P, N, lambda_min)`` with ``Ks = (K + K')/2 = P - N``, P, N PSD.

    ``P = U max(D, 0) U'`` and ``N = U max(-D, 0) U'``.  Only the smaller of the two
    eigen-subspaces is used to form the low-rank product; the other part follows from
    ``Ks``.  All three matrices are exactly symmetric.
    """
    A = check_kernel(K, "K")
    w, U = scipy.linalg.eigh(A, driver="evd", check_finite=False)
    Ks = _symmetrize_inplace(A.copy())
    neg = w < 0
    n_neg = int(np.count_nonzero(neg))
    if n_neg <= A.shape[0] - n_neg:
        C = U[:, neg] * np.sqrt(-w[neg])
        N = _symmetrize_inplace(C @ C.T)
        P = Ks + N
    else:
        P = positive_part(w, U)
        N = P - Ks
    return Ks, P, N, float(w[0])


def positive_part(w: Any, V: Any) -> np.ndarray:
    """``V max(w, 0) V'``: the positive part of the symmetric matrix whose
    eigendecomposition is ``(w, V)``, i.e. its Frobenius-nearest PSD matrix (Higham, 1988).

    The one implementation of this formula, for callers that already hold an
    eigendecomposition (e.g. the inner minimiser :math:`K^\\star(\\alpha) = M(\\alpha)_+` of
    Luss & d'Aspremont, NIPS 2007, §3, from the eigenpairs of :math:`M(\\alpha)`);
    :func:`psd_projection` decomposes a matrix itself and forms whichever of its positive
    and negative parts has the smaller rank (this one, or ``K`` plus the negative part).
    No input checks.

    Parameters
    ----------
    w : ndarray of shape (n,)
        Eigenvalues (any order).
    V : ndarray of shape (m, n)
        ``V[:, i]`` is the eigenvector of ``w[i]``.

    Returns
    -------
    ndarray of shape (m, m)
        Exactly symmetric and PSD up to rounding (formed as ``B B'`` with
        ``B = V[:, w > 0] sqrt(w[w > 0])``).

    Examples
    --------
    >>> import numpy as np
    >>> w, V = np.array([-1.0, 3.0]), np.array([[1.0, 1.0], [-1.0, 1.0]]) / np.sqrt(2.0)
    >>> np.round(positive_part(w, V), 12)
    array([[1.5, 1.5],
           [1.5, 1.5]])
    """
    w = np.asarray(w, dtype=float)
    V = np.asarray(V, dtype=float)
    pos = w > 0
    B = V[:, pos] * np.sqrt(w[pos])
    return _symmetrize_inplace(B @ B.T)


def psd_projection(K: Any) -> np.ndarray:
    """Nearest positive semidefinite matrix in Frobenius norm: ``U max(D, 0) U'``.

    With ``K = U diag(D) U'``, clipping the negative eigenvalues to zero gives the
    minimiser of ``||K - P||_F`` over PSD ``P`` (Higham, 1988; used as the "denoise"
    baseline by Luss & d'Aspremont, NIPS 2007, §4.1).

    Parameters
    ----------
    K : array_like of shape (n, n)
        Symmetric finite matrix.

    Returns
    -------
    ndarray of shape (n, n)
        Exactly symmetric; its eigenvalues are ``max(D, 0)`` up to rounding.

    Examples
    --------
    >>> import numpy as np
    >>> psd_projection(np.array([[1.0, 2.0], [2.0, 1.0]]))
    array([[1.5, 1.5],
           [1.5, 1.5]])
    """
    return _parts(K)[1]


def denoise(K: Any) -> np.ndarray:
    """Clip the negative eigenvalues of ``K`` to zero ("denoise").

    Luss & d'Aspremont, NIPS 2007, §4.1; Chen et al., JMLR 2009 ("clip").  Identical to
    :func:`psd_projection`, the Frobenius-nearest PSD matrix.

    Examples
    --------
    >>> import numpy as np
    >>> K = np.array([[0.0, 1.0], [1.0, 0.0]])
    >>> np.round(denoise(K), 12)
    array([[0.5, 0.5],
           [0.5, 0.5]])
    """
    return _parts(K)[1]


def flip(K: Any) -> np.ndarray:
    """Replace every eigenvalue by its absolute value: ``U |D| U'`` ("flip").

    Luss & d'Aspremont, NIPS 2007, §4.1; Chen et al., JMLR 2009.  Computed as
    ``P + N`` from the split ``K = P - N`` of :func:`krein_decomposition`.

    Examples
    --------
    >>> import numpy as np
    >>> np.round(flip(np.array([[0.0, 1.0], [1.0, 0.0]])), 12)
    array([[1., 0.],
           [0., 1.]])
    """
    _, P, N, _ = _parts(K)
    return P + N


def shift(K: Any) -> np.ndarray:
    """Add ``|lambda_min| I`` when ``lambda_min < 0`` ("shift"); otherwise return K.

    Luss & d'Aspremont, NIPS 2007, §4.1; Chen et al., JMLR 2009.  The smallest eigenvalue
    is computed by a dense LAPACK solve (only the one eigenvalue is extracted).  The
    result is ``(K + K')/2 + |lambda_min| I``, exactly symmetric (the averaging changes
    ``K`` by less than its accepted asymmetry); for a PSD ``K`` this is a copy of
    ``(K + K')/2``.

    Examples
    --------
    >>> import numpy as np
    >>> shift(np.array([[0.0, 1.0], [1.0, 0.0]]))
    array([[1., 1.],
           [1., 1.]])
    """
    A = check_kernel(K, "K")
    lam = float(
        scipy.linalg.eigvalsh(A, subset_by_index=[0, 0], driver="evr", check_finite=False)[0]
    )
    out = _symmetrize_inplace(A.copy())
    if lam < 0:
        out[np.diag_indices_from(out)] += -lam
    return out


def krein_decomposition(K: Any) -> tuple[np.ndarray, np.ndarray]:
    """Split ``K = K_plus - K_minus`` into its positive and negative parts.

    ``K_plus = U max(D, 0) U'`` and ``K_minus = U max(-D, 0) U'`` are PSD with
    ``K_plus K_minus = 0``: the canonical Kreĭn-space decomposition of an indefinite
    kernel (Loosli, ESANN 2019).  ``K_plus`` is :func:`psd_projection`, and
    ``K_plus + K_minus`` is :func:`flip`.

    Returns
    -------
    K_plus, K_minus : ndarray of shape (n, n)
        Exactly symmetric PSD matrices (up to rounding in their eigenvalues).

    Examples
    --------
    >>> import numpy as np
    >>> Kp, Km = krein_decomposition(np.array([[0.0, 1.0], [1.0, 0.0]]))
    >>> Km
    array([[ 0.5, -0.5],
           [-0.5,  0.5]])
    """
    _, P, N, _ = _parts(K)
    return P, N


# ---------------------------------------------------------------------------------------
# extreme eigenvalues by Lanczos
# ---------------------------------------------------------------------------------------


def _square_order(shape: tuple[int, int]) -> int:
    """The order ``n`` of a square, non-empty ``K`` of this ``shape``, or an error naming it."""
    n, m = shape
    if n != m:
        raise InvalidInputError("K", f"must be square, got shape {shape}")
    if n == 0:
        raise InvalidInputError("K", "is empty")
    return n


def _as_operator(K: Any) -> tuple[LinearOperator, np.ndarray | None, int]:
    """Validate ``K`` and return ``(operator, dense_or_None, n)``."""
    if isinstance(K, LinearOperator):
        n = _square_order(K.shape)
        op = K if K.dtype == np.float64 else _retype(K)
        _probe_symmetry(op, n)
        return op, None, n
    if scipy.sparse.issparse(K):
        S = scipy.sparse.csr_array(K, dtype=np.float64)
        n = _square_order(S.shape)
        if not np.all(np.isfinite(S.data)):
            raise InvalidInputError("K", "contains non-finite value(s) (NaN or inf)")
        scale = max(float(abs(S).max()) if S.nnz else 0.0, 1.0)
        asym = abs(S - S.T)
        asym_max = float(asym.max()) if asym.nnz else 0.0
        if asym_max > 1e-10 * scale:
            raise InvalidInputError("K", f"is not symmetric (max |K - K'| = {asym_max:.3g})")
        return aslinearoperator(S), None, n
    A = check_kernel(K, "K")
    return aslinearoperator(A), A, A.shape[0]


def _retype(op: LinearOperator) -> LinearOperator:
    return LinearOperator(
        op.shape,
        matvec=lambda x: np.asarray(op.matvec(x), dtype=np.float64),
        matmat=lambda x: np.asarray(op.matmat(x), dtype=np.float64),
        dtype=np.float64,
    )


def _probe_symmetry(op: LinearOperator, n: int) -> None:
    """Reject an operator with ``u'(Kv) != v'(Ku)`` for random u, v (two products)."""
    rng = np.random.default_rng(12345)
    u, v = rng.standard_normal(n), rng.standard_normal(n)
    Ku, Kv = np.ravel(op.matvec(u)), np.ravel(op.matvec(v))
    if not (np.all(np.isfinite(Ku)) and np.all(np.isfinite(Kv))):
        raise InvalidInputError("K", "the operator returned non-finite values")
    a, b = float(u @ Kv), float(v @ Ku)
    scale = np.linalg.norm(u) * np.linalg.norm(Kv) + np.linalg.norm(v) * np.linalg.norm(Ku)
    if abs(a - b) > 1e-8 * max(scale, np.finfo(float).tiny):
        raise InvalidInputError(
            "K", f"the operator is not symmetric: u'Kv = {a:.6g} but v'Ku = {b:.6g}"
        )


def _spectral_radius_estimate(op: LinearOperator, n: int, rng: np.random.Generator) -> float:
    """A lower bound on the spectral radius from a few power iterations."""
    v = rng.standard_normal(n)
    v /= np.linalg.norm(v)
    best = 0.0
    for _ in range(12):
        w = np.ravel(op.matvec(v))
        nrm = float(np.linalg.norm(w))
        if nrm == 0.0:
            break
        best = max(best, nrm)
        v = w / nrm
    return best


def _extreme(
    K: Any,
    *,
    largest: bool,
    tol: float,
    method: str,
    maxiter: int | None,
    ncv: int | None,
    dense_fallback: int,
    seed: int,
) -> float:
    tol = check_positive(tol, "tol")
    if method not in ("lanczos", "dense"):
        raise InvalidInputError("method", f"must be 'lanczos' or 'dense', got {method!r}")
    dense_fallback = check_int(dense_fallback, "dense_fallback", minimum=0)
    if maxiter is not None:
        maxiter = check_int(maxiter, "maxiter", minimum=1)
    op, A, n = _as_operator(K)
    if ncv is not None:
        ncv = check_int(ncv, "ncv", minimum=3)
        ncv = min(ncv, n - 1)

    def dense() -> float:
        M = A if A is not None else _densify(op, n)
        idx = [n - 1, n - 1] if largest else [0, 0]
        return float(
            scipy.linalg.eigvalsh(M, subset_by_index=idx, driver="evr", check_finite=False)[0]
        )

    if method == "dense" or n <= _SMALL_N:
        if method == "dense" and A is None and n > 20000:
            raise InvalidInputError(
                "method", f"'dense' would materialise a {n} x {n} matrix; use 'lanczos'"
            )
        return dense()

    rng = np.random.default_rng(seed)
    sigma = _spectral_radius_estimate(op, n, rng)
    if sigma == 0.0:
        return 0.0
    # Lanczos on sigma I - K (or K + sigma I): its largest algebraic eigenvalue is
    # sigma - lambda_min (sigma + lambda_max) whatever sigma, and ARPACK's relative
    # residual test then reads ||r|| <= tol * |sigma - lambda_min| ~ tol * spectral radius,
    # a criterion that stays meaningful when lambda_min is close to zero.
    sign = 1.0 if largest else -1.0

    def mv(x: np.ndarray) -> np.ndarray:
        Kx = op.matmat(x) if x.ndim == 2 else np.ravel(op.matvec(x))
        return sigma * x + sign * Kx

    shifted = LinearOperator((n, n), matvec=mv, matmat=mv, dtype=np.float64)
    n_cv = ncv if ncv is not None else min(n - 1, 20)
    budget = maxiter
    use_fallback = A is not None and n <= dense_fallback
    if budget is None:
        # with the fallback: about the cost of the dense solve, in matrix-vector products;
        # without: about 2000 products, then a clear error rather than a very long run
        budget = max(10, (n // 4) // n_cv) if use_fallback else max(10, 2000 // n_cv)
    try:
        theta = eigsh(
            shifted,
            k=1,
            which="LA",
            tol=tol,
            ncv=n_cv,
            maxiter=budget,
            v0=rng.standard_normal(n),
            return_eigenvectors=False,
        )[0]
    except ArpackNoConvergence:
        if use_fallback:
            return dense()
        what = "largest" if largest else "smallest"
        raise SolverError(
            f"Lanczos (ARPACK eigsh) did not find the {what} eigenvalue of the "
            f"{n} x {n} matrix to tol={tol:g} within maxiter={budget}; this happens when "
            "it lies in a tight cluster (e.g. lambda_min ~ 0 for a PSD kernel).  Increase "
            "tol or maxiter, or use method='dense'."
        ) from None
    return float(theta - sigma) if largest else float(sigma - theta)


def _densify(op: LinearOperator, n: int) -> np.ndarray:
    M = np.asarray(op.matmat(np.eye(n)), dtype=np.float64)
    return _symmetrize_inplace(M)


def min_eigenvalue(
    K: Any,
    *,
    tol: float = 1e-10,
    method: str = "lanczos",
    maxiter: int | None = None,
    ncv: int | None = None,
    dense_fallback: int = 5000,
    seed: int = 0,
) -> float:
    """Smallest eigenvalue of a large symmetric matrix, without a full decomposition.

    Parameters
    ----------
    K : ndarray, scipy sparse matrix or scipy.sparse.linalg.LinearOperator, shape (n, n)
        Symmetric matrix.  Arrays are checked like every kernel (finite, symmetric to
        1e-10 relative); sparse matrices likewise; an operator is probed for symmetry
        with two random products.
    tol : float, default 1e-10
        Relative accuracy with respect to the spectral radius: the Lanczos iteration
        stops when the residual of the Ritz pair is below about ``tol * rho(K)``, so an
        eigenvalue lies within that distance of the returned value (in practice the
        error is far smaller).  Like any Krylov method it assumes the random start vector
        is not orthogonal to the extreme eigenvector, which fails with probability 0.
    method : {"lanczos", "dense"}, default "lanczos"
        ``"lanczos"`` runs ARPACK (``scipy.sparse.linalg.eigsh``) with matrix-vector
        products only; ``"dense"`` computes the one eigenvalue with LAPACK (``evr``),
        materialising an operator first.
    maxiter : int, optional
        Maximum number of ARPACK restarts (each costs about ``ncv`` products).  Default:
        about ``n / 4`` products when the dense fallback applies, otherwise about 2000.
    ncv : int, optional
        Number of Lanczos vectors (default 20).
    dense_fallback : int, default 5000
        For a dense array with ``n <= dense_fallback``: if the Lanczos iteration has not
        converged within its budget (by default about ``n / 4`` products, roughly the
        cost of a dense solve), the value is computed by the dense LAPACK solver instead,
        so the answer is never worse than with ``"dense"`` and the time at most about
        twice.  ``0`` disables the fallback (then non-convergence raises).
    seed : int, default 0
        Seed of the random start vectors (results are reproducible).

    Returns
    -------
    float

    Raises
    ------
    SolverError
        If the Lanczos iteration does not converge and no dense fallback applies.  A
        wrong number is never returned silently.

    Notes
    -----
    Matrices with ``n <= 200`` are always solved densely.  Otherwise the spectral radius
    ``rho`` is first estimated by 12 power iterations (a lower bound), then ARPACK looks
    for the largest algebraic eigenvalue of the shifted operator (``rho I - K`` for the
    minimum, ``K + rho I`` for the maximum).  This is fast when the extreme eigenvalue is
    separated from the rest, as for the negative eigenvalues of indefinite kernels, and
    slow when it sits in a tight cluster, as ``lambda_min ~ 0`` of a smooth PSD kernel
    (RBF), where the dense fallback takes over.

    Examples
    --------
    >>> import numpy as np
    >>> from convexkern.kernels import Sigmoid
    >>> X = np.random.default_rng(0).standard_normal((400, 5))
    >>> K = Sigmoid(gamma=0.5, coef0=-1.0)(X)
    >>> lam = min_eigenvalue(K)
    >>> bool(abs(lam - np.linalg.eigvalsh(K)[0]) < 1e-8 * abs(lam))
    True
    """
    return _extreme(
        K,
        largest=False,
        tol=tol,
        method=method,
        maxiter=maxiter,
        ncv=ncv,
        dense_fallback=dense_fallback,
        seed=seed,
    )


def max_eigenvalue(
    K: Any,
    *,
    tol: float = 1e-10,
    method: str = "lanczos",
    maxiter: int | None = None,
    ncv: int | None = None,
    dense_fallback: int = 5000,
    seed: int = 0,
) -> float:
    """Largest eigenvalue of a large symmetric matrix, without a full decomposition.

    The mirror of :func:`min_eigenvalue` (same parameters, accuracy, fallback and errors;
    ARPACK runs on ``K + rho I``).

    Examples
    --------
    >>> import numpy as np
    >>> K = np.diag(np.arange(300.0))
    >>> round(max_eigenvalue(K), 8)
    299.0
    """
    return _extreme(
        K,
        largest=True,
        tol=tol,
        method=method,
        maxiter=maxiter,
        ncv=ncv,
        dense_fallback=dense_fallback,
        seed=seed,
    )
