r"""Kreĭn-space mathematics shared by the stabilization builder and the TrIK active set.

Sources: G. Loosli, "TrIK-SVM: an alternative decomposition for kernel methods in Kreĭn
spaces", ESANN 2019; KSVM: G. Loosli, S. Canu, C. S. Ong, "Learning SVM in Kreĭn spaces",
IEEE TPAMI 38(6), 2016.

An indefinite kernel matrix splits as :math:`K = K_+ - K_-`; the associated Hilbert kernel
is :math:`\tilde K = K_+ + K_-` and the transition matrix :math:`P` (:math:`KP = \tilde K`)
maps a Hilbert-space solution back to the Kreĭn space:

* **flip** (KSVM): :math:`K = UDU^\top`, :math:`\tilde K = U|D|U^\top`,
  :math:`P = U\,\mathrm{sign}(D)\,U^\top` (:math:`\mathrm{sign}(0) := +1`, so :math:`P` is
  an involution);
* **shift** (TrIK): for :math:`\lambda \le \lambda_{\min}(K)`, :math:`K_+ = K - \lambda I`,
  :math:`K_- = -\lambda I`, :math:`\tilde K = K - 2\lambda I`, :math:`P = I - 2\lambda
  K^{-1}`; on the free support vectors only (paper eq. 6):
  :math:`\alpha_W = (I - 2\lambda G_{WW}^{-1})\tilde\alpha_W`, :math:`G = YKY`.

Coefficient vectors are *unlabelled* (see :mod:`convexkern.formulations.krein`): the
transition acts on the labelled ones, :math:`Y\alpha = P\,Y\tilde\alpha`.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.linalg as sla

from .._validation import check_kernel
from ..errors import InvalidInputError, InvalidTypeError
from ..spectral import eigh
from ..spectral import min_eigenvalue as _spectral_min_eigenvalue
from .device import module, resolve, to_device, to_host

__all__ = [
    "ALPHA_RTOL",
    "Decomposition",
    "flip",
    "shift",
    "decompose",
    "check_lam",
    "transition_matrix",
    "full_coefficients",
    "krein_coefficients",
    "min_eigenvalue",
    "dominant_negative_pairs",
    "solve_symmetric",
]

#: free / bounded threshold on alpha~, relative to C
ALPHA_RTOL = 1e-9


# ----------------------------------------------------------------------------- decompositions
@dataclass(frozen=True)
class Decomposition:
    """A Kreĭn decomposition ``K = K_+ - K_-`` and its Hilbert kernel ``K~ = K_+ + K_-``.

    Attributes
    ----------
    kind : {"flip", "shift"}
    K : ndarray
        The original (indefinite) kernel matrix.
    K_tilde : ndarray
        ``K_+ + K_-`` (positive semidefinite for flip, positive definite for shift).
    lam : float or None
        The shift (``K~ = K - 2 lam I``); None for flip.
    eigvals, eigvecs : ndarray or None
        ``K = U diag(D) U'`` (flip only).
    """

    kind: str
    K: np.ndarray
    K_tilde: np.ndarray
    lam: float | None = None
    eigvals: np.ndarray | None = None
    eigvecs: np.ndarray | None = None

    @property
    def K_plus(self) -> np.ndarray:
        if self.kind == "flip":
            return (self.eigvecs * np.maximum(self.eigvals, 0.0)) @ self.eigvecs.T
        return self.K - self.lam * np.eye(self.K.shape[0])

    @property
    def K_minus(self) -> np.ndarray:
        if self.kind == "flip":
            return (self.eigvecs * np.maximum(-self.eigvals, 0.0)) @ self.eigvecs.T
        return -self.lam * np.eye(self.K.shape[0])


_CONTROLLER: Any = None


def blas_limit(threads: int) -> Any:
    """Context limiting BLAS threads; the library scan of ``threadpoolctl`` (~0.1 s) is
    done once per process, not per call."""
    global _CONTROLLER
    from threadpoolctl import ThreadpoolController

    if _CONTROLLER is None:
        _CONTROLLER = ThreadpoolController()
    return _CONTROLLER.limit(limits=threads, user_api="blas")


def min_eigenvalue(K: np.ndarray) -> float:
    """Smallest eigenvalue of a symmetric ``K`` by Lanczos (no full decomposition):
    :func:`convexkern.spectral.min_eigenvalue` (dense for ``n <= 200``, LAPACK fallback
    when ARPACK does not converge) with one BLAS thread (matrix-vector products: one
    thread is fastest)."""
    with blas_limit(1):
        return float(_spectral_min_eigenvalue(K))


def _smallest_pairs(K: np.ndarray, k: int, tol: float, seed: int
                    ) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` algebraically smallest eigenpairs by Lanczos (ARPACK), ascending."""
    from scipy.sparse.linalg import eigsh

    n = K.shape[0]
    with blas_limit(1):
        w, V = eigsh(K, k=k, which="SA", tol=tol, ncv=min(n - 1, max(20, 2 * k + 1)),
                     v0=np.random.default_rng(seed).standard_normal(n))
    order = np.argsort(w)
    return w[order], V[:, order]


def _n_flips(w: np.ndarray, max_pairs: int, ratio: float) -> int:
    """Leading eigenvalues ``w[j]`` (ascending) to flip: ``w[j] < 0`` and
    ``|min(w[j+1], 0)| <= ratio |w[j]|`` for every ``j`` up to the returned count."""
    j = 0
    while (j < min(max_pairs, w.size - 1) and w[j] < 0
           and abs(min(w[j + 1], 0.0)) <= ratio * abs(w[j])):
        j += 1
    return j


def dominant_negative_pairs(K: np.ndarray, *, max_pairs: int = 8, ratio: float = 0.5,
                            seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    r"""The most negative eigenpairs of ``K`` worth flipping before a shift.

    With eigenvalues :math:`d_1 \le d_2 \le \dots`, pair :math:`j` is returned while
    :math:`d_j < 0` and :math:`|\min(d_{j+1}, 0)| \le` ``ratio`` :math:`|d_j|` for it and
    every pair before it (each flip at least halves the shift that remains, for the
    default ``ratio``), at most ``max_pairs`` of them; ``ratio=inf`` returns every
    negative pair up to ``max_pairs``.  Flipping them, :math:`K' = K - 2U_kD_kU_k^\top`,
    leaves :math:`\lambda_{\min}(K') = \min(d_{k+1}, 0)` for the shift: the Kreĭn
    decomposition :math:`K_- = U_k|D_k|U_k^\top - \mu I`, :math:`\mu = \lambda_{\min}(K')`,
    between KSVM's flip (every negative pair) and TrIK's shift (none).

    Lanczos (``eigsh``) for ``n > 200``, first to a loose tolerance to decide (2, 4, 8,
    ... pairs until the rule stops), then, when pairs are kept, to machine precision for
    them; LAPACK (``evr``, the ``max_pairs + 1`` smallest) for ``n <= 200``.

    Returns
    -------
    d : (k,) ndarray, ascending, negative
    U : (n, k) ndarray, orthonormal eigenvectors, ``K U = U diag(d)``
    """
    n = K.shape[0]
    if max_pairs < 1 or n < 2:
        return np.zeros(0), np.zeros((n, 0))
    if n <= 200:
        w, V = sla.eigh(K, subset_by_index=[0, min(max_pairs, n - 1)], driver="evr",
                        check_finite=False)
        j = _n_flips(w, max_pairs, ratio)
        return w[:j], V[:, :j]
    k = 2
    while True:
        w, V = _smallest_pairs(K, min(k, max_pairs + 1, n - 1), 1e-3, seed)
        j = _n_flips(w, max_pairs, ratio)
        if j < w.size - 1 or j >= max_pairs or w.size >= n - 1:
            break
        k *= 2
    if j == 0:
        return np.zeros(0), np.zeros((n, 0))
    w, V = _smallest_pairs(K, j, 0.0, seed)  # the kept pairs to machine precision
    return w, V


def flip(K: Any, *, device: str = "auto") -> Decomposition:
    """KSVM's flip: ``K~ = U|D|U'`` and ``P = U sign(D) U'`` (full eigendecomposition).

    ``device``: where the decomposition and the product ``U|D|U'`` run
    (:mod:`convexkern.math.device`: ``"gpu"`` with CuPy; ``"auto"`` is ``K``'s device);
    the result is on the host either way."""
    dev = resolve(device, K)
    K = check_kernel(to_host(K), "K")
    xp = module(dev)
    D, U = xp.linalg.eigh(to_device(K, dev)) if dev == "gpu" else eigh(K)
    Kt = (U * xp.abs(D)) @ U.T
    Kt += Kt.T
    Kt *= 0.5  # round-off only: U|D|U' is symmetric in exact arithmetic
    return Decomposition("flip", K, to_host(Kt), None, to_host(D), to_host(U))


def check_lam(K: np.ndarray, lam: Any) -> float:
    """The shift ``lam`` of :func:`shift`: ``min(lambda_min(K), 0)`` when None, else checked
    to be a finite number ``<= min(lambda_min(K), 0)`` (``ValueError`` naming ``lam``).

    A positive ``lam`` is refused outright, as :func:`convexkern.algorithms.trik.trik`
    refuses it; the round-off allowance ``1e-9 max(1, |lambda_min|)`` applies only to a
    ``lam <= 0`` just above a slightly negative ``lambda_min``."""
    lmin = min_eigenvalue(K)
    if lam is None:
        return min(lmin, 0.0)
    if isinstance(lam, bool) or not isinstance(lam, (int, float, np.integer, np.floating)):
        raise InvalidTypeError("lam", f"expected a number, got {lam!r}")
    lam = float(lam)
    if not math.isfinite(lam):
        raise InvalidInputError("lam", f"must be finite, got {lam!r}")
    if lam > 0:  # as trik requires: K- = -lam I must be positive semidefinite
        raise InvalidInputError(
            "lam", f"must be a finite number <= 0, got {lam!r}: the shift decomposition "
                   "K+ = K - lam I, K- = -lam I needs lam <= min(lambda_min(K), 0)")
    if lam > min(lmin, 0.0) + 1e-9 * max(1.0, abs(lmin)):
        raise InvalidInputError(
            "lam", f"= {lam:.6g} is above min(lambda_min(K), 0) = {min(lmin, 0.0):.6g}: the "
            "shift decomposition K+ = K - lam I needs lam <= lambda_min(K) (and lam <= 0) "
            "so that K+ and K~ = K - 2 lam I are positive semidefinite")
    return lam


def shift(K: Any, lam: float | None = None) -> Decomposition:
    """TrIK's shift: ``K+ = K - lam I``, ``K- = -lam I``, ``K~ = K - 2 lam I``.

    ``lam`` defaults to ``min(lambda_min(K), 0)``, found by Lanczos (no full
    eigendecomposition); a ``lam`` above it raises ``ValueError``.
    """
    K = check_kernel(K, "K")
    lam = check_lam(K, lam)
    Kt = K - 2.0 * lam * np.eye(K.shape[0])
    return Decomposition("shift", K, Kt, lam)


def decompose(K: Any, decomposition: str = "shift", lam: float | None = None, *,
              device: str = "auto") -> Decomposition:
    """``flip(K, device=device)`` or ``shift(K, lam)`` by name (the shift needs no
    decomposition: ``device`` is only checked)."""
    if decomposition == "flip":
        if lam is not None:
            raise InvalidInputError("lam", "is only used by the shift decomposition")
        return flip(K, device=device)
    resolve(device, K)
    if decomposition == "shift":
        return shift(to_host(K), lam)
    raise InvalidInputError("decomposition", f"must be 'flip' or 'shift', got {decomposition!r}")


# ----------------------------------------------------------------------------- transitions
def transition_matrix(dec: Decomposition, *, singular: str = "raise") -> np.ndarray:
    """``P`` with ``K P = K~``: ``U sign(D) U'`` (flip) or ``I - 2 lam K^{-1}`` (shift).

    For shift ``K`` must be invertible: ``singular="raise"`` (default) raises a
    ``ValueError`` if it is not; ``"pinv"`` uses the pseudo-inverse with a
    ``RuntimeWarning`` (``K P = K~`` then holds only on the range of ``K``).
    """
    n = dec.K.shape[0]
    if dec.kind == "flip":
        S = np.where(dec.eigvals >= 0, 1.0, -1.0)
        return (dec.eigvecs * S) @ dec.eigvecs.T
    if dec.lam == 0.0:
        return np.eye(n)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", sla.LinAlgWarning)
            Kinv = sla.solve(dec.K, np.eye(n), assume_a="sym")
    except (np.linalg.LinAlgError, sla.LinAlgWarning):
        if singular == "raise":
            raise InvalidInputError(
                "K", "is singular, so P = I - 2 lam K^-1 does not exist; use the active-set "
                "projection (to_krein(..., method='active')), regularise K explicitly "
                "(K + delta I), or pass singular='pinv'") from None
        if singular != "pinv":
            raise InvalidInputError(
                "singular", f"must be 'raise' or 'pinv', got {singular!r}") from None
        warnings.warn("K is singular: P uses the pseudo-inverse of K", RuntimeWarning,
                      stacklevel=2)
        Kinv = np.linalg.pinv(dec.K, hermitian=True)
    return np.eye(n) - 2.0 * dec.lam * Kinv


def full_coefficients(dec: Decomposition, y: np.ndarray, alpha_tilde: np.ndarray, *,
                      singular: str = "raise") -> np.ndarray:
    """Kreĭn coefficients by the full transition: ``Y alpha = P Y alpha~`` on all points
    (flip: ``P x = U sign(D) U'x`` as two products with ``U``, no ``n x n`` ``P``)."""
    if dec.kind == "flip":
        S = np.where(dec.eigvals >= 0, 1.0, -1.0)
        U = dec.eigvecs
        return y * (U @ (S * (U.T @ (y * alpha_tilde))))
    P = transition_matrix(dec, singular=singular)
    return y * (P @ (y * alpha_tilde))


def solve_symmetric(A: np.ndarray, rhs: np.ndarray) -> tuple[np.ndarray, bool]:
    """Solve a symmetric (indefinite) system; least squares with a warning if singular.

    Returns the solution and whether the least-squares fallback was used.
    """
    if A.shape[0] == 0:
        return np.zeros(0), False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", sla.LinAlgWarning)
            return sla.solve(A, rhs, assume_a="sym", check_finite=False), False
    except (np.linalg.LinAlgError, sla.LinAlgWarning):
        warnings.warn(
            "K restricted to the free support vectors is numerically singular: the Kreĭn "
            "coefficients (I - 2 lam G_WW^-1) alpha~_W are computed by least squares "
            "(minimum-norm solution)", RuntimeWarning, stacklevel=3)
        return np.linalg.lstsq(A, rhs, rcond=None)[0], True


def krein_coefficients(
    K: np.ndarray, y: np.ndarray, alpha_tilde: np.ndarray, lam: float, C: float | None = None,
    *, rel_tol: float = 1e-9, singular: str = "raise",
) -> np.ndarray:
    r"""Kreĭn coefficients from Hilbert ones, on the free support vectors (paper eq. 6).

    ``alpha_W = (I - 2 lam G_WW^{-1}) alpha~_W`` on the free support vectors
    ``W = {rel_tol*s < alpha~ < C - rel_tol*s}`` (``s = C``, or ``max alpha~`` for the hard
    margin), ``alpha = C`` on bounded ones, 0 elsewhere.

    ``singular`` says what to do when ``K_WW`` is singular: ``"raise"`` (default) or
    ``"lstsq"`` (minimum-norm least squares, with a ``RuntimeWarning``).
    """
    Cf = math.inf if C is None else float(C)
    scale = Cf if math.isfinite(Cf) else max(float(np.max(alpha_tilde)), 1e-300)
    free = (alpha_tilde > rel_tol * scale) & (alpha_tilde < Cf - rel_tol * scale)
    alpha = np.where(alpha_tilde >= Cf - rel_tol * scale, Cf, 0.0) if math.isfinite(Cf) \
        else np.zeros_like(alpha_tilde)
    W = np.flatnonzero(free)
    if W.size:
        u = y[W] * alpha_tilde[W]
        Kww = K[np.ix_(W, W)]
        if singular == "raise":
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("error", sla.LinAlgWarning)
                    z = sla.solve(Kww, u, assume_a="sym")
            except (np.linalg.LinAlgError, sla.LinAlgWarning):
                raise InvalidInputError(
                    "K", f"K restricted to the {W.size} free support vectors is singular, so "
                    "G_WW^-1 in (I - 2 lam G_WW^-1) alpha~ does not exist; pass "
                    "singular='lstsq' to use the minimum-norm least-squares solution "
                    "(with a warning)") from None
        elif singular == "lstsq":
            z, _ = solve_symmetric(Kww, u)
        else:
            raise InvalidInputError("singular", f"must be 'raise' or 'lstsq', got {singular!r}")
        alpha[W] = y[W] * (u - 2.0 * lam * z)
    return alpha
