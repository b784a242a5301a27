r"""The mathematics of the robust SVM with an indefinite kernel (Luss & d'Aspremont, NIPS
2007), shared by the certificate of :mod:`convexkern.formulations.robust_indefinite` and the
methods of :mod:`convexkern.algorithms.robust_svm`, so that neither imports the other.

Problem (3), its closed-form inner kernel :math:`K^\star(\alpha) = M(\alpha)_+`,
:math:`M(\alpha) = K_0 + (Y\alpha)(Y\alpha)^\top/(4\rho)`, the objective :math:`f` and its
gradient (:func:`evaluate`), the two cheap upper bounds (:func:`frank_wolfe_bound`,
:func:`svm_bound`) and the SMO refinement of the SVM bound (:func:`smo_bound`, SMO from
:mod:`convexkern.math.smo`), and the test-kernel heuristic (:func:`predict_kernel`).
The facts behind them are derived in ``docs/robust_indefinite.md`` and listed in the
docstring of :mod:`convexkern.formulations.robust_indefinite`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.linalg as sla

from .._validation import check_kernel, check_labels, check_matrix, check_positive
from ..errors import InvalidInputError
from ..projections import project_svm_feasible, svm_infeasibility
from ..spectral import positive_part
from .smo import smo
from .svm import best_hinge_bias, dual_bounds

__all__ = [
    "check_problem",
    "check_alpha",
    "Evaluation",
    "inner_kernel",
    "evaluate",
    "objective",
    "gradient",
    "frank_wolfe_bound",
    "svm_bound",
    "default_smo_max_iter",
    "smo_bound",
    "predict_kernel",
]


# --------------------------------------------------------------------------- checks
def check_problem(K0: Any, y: Any, C: Any, rho: Any) -> tuple[np.ndarray, np.ndarray, float, float]:
    """Validate ``(K0, y, C, rho)``: symmetric finite kernel, labels ±1, ``C, rho > 0``."""
    y = check_labels(y, "y")
    K0 = check_kernel(K0, "K0", n=y.size)
    C = check_positive(C, "C")
    rho = check_positive(rho, "rho")
    return K0, y, C, rho


def check_alpha(alpha: Any, y: np.ndarray, C: float, feas_tol: float | None) -> np.ndarray:
    a = check_matrix(alpha, "alpha", ndim=1)
    if a.size != y.size:
        raise InvalidInputError("alpha", f"has {a.size} entries, expected {y.size}")
    if feas_tol is not None:
        viol = svm_infeasibility(a, y, C)
        if viol > feas_tol * max(1.0, C):
            raise InvalidInputError(
                "alpha",
                f"violates y'alpha = 0, 0 <= alpha <= C by {viol:.3g} (> feas_tol = "
                f"{feas_tol:g}); project it first with "
                "convexkern.projections.project_svm_feasible",
            )
    return a


# --------------------------------------------------------------------------- closed forms
@dataclass(frozen=True)
class Evaluation:
    """Everything at one ``alpha`` from one eigendecomposition of ``M(alpha)``.

    Attributes
    ----------
    value : float
        :math:`f(\\alpha)`.
    grad : ndarray
        :math:`\\nabla f(\\alpha) = e - Y K^\\star Y\\alpha`.
    Kv : ndarray
        :math:`K^\\star(\\alpha) Y\\alpha` (the SVM decision values without bias).
    quad : float
        :math:`(Y\\alpha)^\\top K^\\star (Y\\alpha)`.
    dist2 : float
        :math:`\\|K^\\star - K_0\\|_F^2`.
    eig : (w, V) or None
        The eigendecomposition of :math:`M(\\alpha)` it was computed from (reused by the
        SMO refinement :func:`smo_bound`, so that the certificate decomposes
        :math:`M(\\alpha)` once).
    """

    value: float
    grad: np.ndarray
    Kv: np.ndarray
    quad: float
    dist2: float
    eig: tuple[np.ndarray, np.ndarray] | None = field(default=None, repr=False, compare=False)

    def inner_kernel(self) -> np.ndarray:
        """:math:`K^\\star(\\alpha) = M(\\alpha)_+` from the stored eigendecomposition."""
        if self.eig is None:
            raise InvalidInputError("eig", "this Evaluation was built without eigenpairs")
        return positive_part(*self.eig)


def _eig(M: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return sla.eigh(M, driver="evd", check_finite=False)


def inner_kernel(K0: Any, y: Any, alpha: Any, rho: float) -> np.ndarray:
    """:math:`K^\\star(\\alpha) = (K_0 + (Y\\alpha)(Y\\alpha)^\\top/(4\\rho))_+`, the minimiser
    of the inner problem of (3) (Luss & d'Aspremont 2007, §3, with the factor 1/(4ρ))."""
    y = check_labels(y, "y")
    K0 = check_kernel(K0, "K0", n=y.size)
    rho = check_positive(rho, "rho")
    a = check_matrix(alpha, "alpha", ndim=1)
    v = y * a
    M = K0 + np.outer(v, v) / (4.0 * rho)
    return positive_part(*_eig(M))


def evaluate(K0: np.ndarray, y: np.ndarray, alpha: np.ndarray, rho: float) -> Evaluation:
    """:math:`f`, :math:`\\nabla f` and the pieces of the bounds at ``alpha`` (no input
    checks; one full eigendecomposition of :math:`M(\\alpha)`)."""
    v = y * alpha
    M = K0 + np.outer(v, v) / (4.0 * rho)
    w, V = _eig(M)
    pos = w > 0
    Vp = V[:, pos]
    Kv = Vp @ (w[pos] * (Vp.T @ v))
    quad = float(v @ Kv)
    normK0 = float(np.sum(K0 * K0))
    normMp = float(np.sum(w[pos] ** 2))
    value = float(alpha.sum() + rho * (normK0 - normMp))
    # ||K* - K0||^2 = ||M_+ - M + vv'/(4 rho)||^2 = ||-M_- + s vv'||^2, s = 1/(4 rho)
    s = 1.0 / (4.0 * rho)
    neg = ~pos
    Vn = V[:, neg]
    vn = Vn.T @ v
    dist2 = float(np.sum(w[neg] ** 2) - 2.0 * s * np.sum(w[neg] * vn**2) + s * s * (v @ v) ** 2)
    return Evaluation(value=value, grad=1.0 - y * Kv, Kv=Kv, quad=quad, dist2=max(dist2, 0.0),
                      eig=(w, V))


def objective(K0: Any, y: Any, alpha: Any, rho: float) -> float:
    """:math:`f(\\alpha) = e^\\top\\alpha + \\rho(\\|K_0\\|_F^2 - \\|M(\\alpha)_+\\|_F^2)`,
    the objective of problem (3) after the inner minimisation."""
    y = check_labels(y, "y")
    K0 = check_kernel(K0, "K0", n=y.size)
    rho = check_positive(rho, "rho")
    a = check_matrix(alpha, "alpha", ndim=1)
    return evaluate(K0, y, a, rho).value


def gradient(K0: Any, y: Any, alpha: Any, rho: float) -> np.ndarray:
    """:math:`\\nabla f(\\alpha) = e - Y K^\\star(\\alpha) Y \\alpha` (Danskin)."""
    y = check_labels(y, "y")
    K0 = check_kernel(K0, "K0", n=y.size)
    rho = check_positive(rho, "rho")
    a = check_matrix(alpha, "alpha", ndim=1)
    return evaluate(K0, y, a, rho).grad


def frank_wolfe_bound(value: float, grad: np.ndarray, alpha: np.ndarray, y: np.ndarray,
                      C: float) -> float:
    """:math:`f(\\alpha) + \\max_{\\beta\\in\\mathcal{A}} \\nabla f(\\alpha)^\\top(\\beta-\\alpha)`,
    a valid upper bound on max f by concavity.

    The linear maximisation over :math:`\\{y^\\top\\beta = 0, 0\\le\\beta\\le C\\}` has the LP
    dual :math:`\\min_\\mu C\\sum_i (g_i - \\mu y_i)_+`, a piecewise-linear function of
    ``mu`` minimised exactly at a breakpoint by :func:`best_hinge_bias` (with
    ``f = y - y g`` the hinge terms are :math:`(g_i - \\mu y_i)_+`).
    """
    _, h = best_hinge_bias(y - y * grad, y)
    return float(value + C * h - grad @ alpha)


def svm_bound(quad: float, Kv: np.ndarray, y: np.ndarray, C: float) -> float:
    """Soft-margin primal value at :math:`w(\\alpha)` with the best bias: an upper bound on
    the SVM optimum for the PSD kernel whose decision values are ``Kv``."""
    _, h = best_hinge_bias(Kv, y)
    return 0.5 * max(quad, 0.0) + C * h


def default_smo_max_iter(n: int) -> int:
    """Default iteration cap of the SMO refinement: ``max(10000, 40 n)`` two-variable
    steps in total over its tolerance ladder (about as many steps as SMO needs at
    ``eps = 1e-4`` from a warm start on the USPS Simpson instances, n = 60 and 767)."""
    return max(10_000, 40 * int(n))



def smo_bound(y: np.ndarray, a: np.ndarray, C: float, rho: float, ev: Evaluation,
              max_iter: int, done: Callable[[float], bool] | None,
              time_limit: float | None) -> tuple[float, int]:
    """Best soft-margin primal value over an SMO tolerance ladder on :math:`K^\\star(a)`
    (at most ``max_iter`` SMO steps in total), plus :math:`\\rho\\|K^\\star - K_0\\|^2`,
    and the SMO steps taken.

    The ladder runs ``eps`` = 1e-4, 1e-6, 1e-8 (warm-started, each SMO solution's bound
    from :func:`convexkern.math.svm.dual_bounds`) and stops early once ``done(bound)`` is
    true (the caller's test of its target gap).  A failing SMO gives ``(inf, steps)``.
    """
    Ks = ev.inner_kernel()  # the eigenpairs of M(a) computed by evaluate: no second eigh
    extra = rho * ev.dist2
    best = math.inf
    used = 0
    try:
        a0 = np.clip(a, 0.0, C)
        # SMO wants |y'a0| <= 1e-10 sum(a0): repair the last bit of round-off
        if abs(y @ a0) > 1e-12 * max(a0.sum(), 1.0):
            a0 = project_svm_feasible(a0, y, C)
        for eps in (1e-4, 1e-6, 1e-8):
            left = max_iter - used
            if left <= 0:
                break
            r = smo(Ks, y, C, eps=eps, max_iter=left, time_limit=time_limit,
                    alpha0=a0 if a0.sum() > 0 else None, check_input=False)
            used += int(r.iterations)
            best = min(best, dual_bounds(Ks, y, r.alpha, C).upper)
            a0 = r.alpha
            if r.status != "optimal":
                break
            if done is not None and done(best + extra):
                break
    except (InvalidInputError, ValueError):
        return math.inf, used
    return best + extra, used


# --------------------------------------------------------------------------- prediction
def predict_kernel(K_full: Any, n_train: int, y: Any, alpha: Any, rho: float) -> np.ndarray:
    """The test-kernel heuristic of §2.3: rank-one update, then PSD projection.

    ``K_full`` is the (indefinite) kernel on training points first, then test points.  The
    optimal rank-one update :math:`(Y\\alpha)(Y\\alpha)^\\top/(4\\rho)` is added to its
    training block, the negative eigenvalues of the whole matrix are thresholded, and the
    returned matrix is the projected ``K_full``: its ``[:n, :n]`` block plays the role of
    :math:`K^\\star` and its ``[n:, :n]`` block gives the test decision values.
    """
    y = check_labels(y, "y")
    K_full = check_kernel(K_full, "K_full")
    rho = check_positive(rho, "rho")
    n = int(n_train)
    if n != y.size or K_full.shape[0] < n:
        raise InvalidInputError(
            "n_train", f"must equal len(y) = {y.size} and <= {K_full.shape[0]}")
    a = check_matrix(alpha, "alpha", ndim=1)
    v = y * a
    M = K_full.copy()
    M[:n, :n] += np.outer(v, v) / (4.0 * rho)
    return positive_part(*_eig(M))
