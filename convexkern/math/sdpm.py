r"""Graepel & Herbrich (NIPS 2003): the trajectory mathematics of the SDPM.

Pure numpy: the input check for polynomial trajectories ``X_traj`` of shape
``(m, r+1, n)`` (row ``k`` of example ``i`` = coefficient of :math:`\theta^k`) and the
kernel on derivative pairs (:func:`trajectory_kernel`), which the builders of
:mod:`convexkern.formulations.sdpm` and the estimator use.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..errors import InvalidInputError, InvalidTypeError

__all__ = ["check_trajectories", "trajectory_kernel", "coefficient_error",
           "rigorous_min", "row_norms"]

#: unit round-off of IEEE double precision
UNIT = 2.0**-53


def check_trajectories(X_traj: Any, name: str = "X_traj") -> np.ndarray:
    """Return ``X_traj`` as a finite float array of shape ``(m, r+1, n)`` or raise."""
    if isinstance(X_traj, (str, bytes)):
        raise InvalidTypeError(name, "expected an array of shape (m, r+1, n)")
    try:
        X = np.asarray(X_traj, dtype=float)
    except (TypeError, ValueError):
        raise InvalidTypeError(name, "expected an array of numbers of shape (m, r+1, n)") from None
    if X.ndim != 3:
        raise InvalidInputError(
            name, f"expected shape (m, r+1, n) (row k of example i = coefficient of theta^k), "
                  f"got shape {X.shape}")
    if min(X.shape) == 0:
        raise InvalidInputError(name, f"is empty (shape {X.shape})")
    if not np.all(np.isfinite(X)):
        raise InvalidInputError(name, "contains non-finite values (NaN or inf)")
    return X



def _jet_mul(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """Product of truncated bivariate series (last two axes: powers of theta, phi)."""
    P, Q = A.shape[-2:]
    out = np.zeros(np.broadcast_shapes(A.shape, B.shape))
    for u in range(P):
        for v in range(Q):
            out[..., u:, v:] += A[..., u:u + 1, v:v + 1] * B[..., : P - u, : Q - v]
    return out


def _jet_compose(s: np.ndarray, derivs: Callable[[np.ndarray, int], np.ndarray]) -> np.ndarray:
    """``f(s)`` for a truncated series ``s``: ``sum_k f^(k)(s_00)/k! (s - s_00)^k``."""
    P, Q = s.shape[-2:]
    s0 = s[..., 0, 0]
    delta = s.copy()
    delta[..., 0, 0] = 0.0
    out = np.zeros_like(s)
    out[..., 0, 0] = derivs(s0, 0)
    power = np.zeros_like(s)
    power[..., 0, 0] = 1.0
    for k in range(1, P + Q - 1):
        power = _jet_mul(power, delta)
        out += (derivs(s0, k) / math.factorial(k))[..., None, None] * power
    return out


def trajectory_kernel(kernel: Any, A: Any, B: Any = None, *, degree: int | None = None,
                      degree_b: int | None = None) -> np.ndarray:
    """Kernel on derivative pairs (§3, "Learning with kernels"), in closed form.

    For input trajectories :math:`a_i(\\theta) = \\sum_u A_{iu}\\theta^u` and
    :math:`b_j(\\varphi)`, returns the Taylor coefficients of
    :math:`k(a_i(\\theta), b_j(\\varphi))`:

    .. math:: G[i, u, j, v] = \\frac{1}{u!\\,v!}\\,\\partial_\\theta^u\\partial_\\varphi^v
              k(a_i(\\theta), b_j(\\varphi))\\big|_{0,0} = \\langle c_u(i), c_v(j)\\rangle,

    the inner products of the feature-space Taylor coefficients :math:`c_u` of
    :math:`\\phi(a_i(\\theta))` (so the SDPM on the feature-space trajectories of degree
    ``degree`` uses ``G`` in place of :math:`x_{iu}^\\top x_{jv}`).  Computed by truncated
    bivariate series arithmetic: the inner product (or squared distance) is a polynomial
    in :math:`(\\theta, \\varphi)` and :math:`k` an analytic function of it.

    Parameters
    ----------
    kernel : convexkern.kernels.Polynomial, RBF (Gaussian) or Linear
    A : (m, ra+1, n); B : (m', rb+1, n), default ``A``
    degree, degree_b : output degrees in theta and phi (default: 2, and ``degree`` for B
        when B is None, else B's own degree; a test point is ``B`` of shape (m', 1, n) with
        ``degree_b=0``).

    Returns
    -------
    (m, degree+1, m', degree_b+1) array
    """
    from ..kernels import RBF, Linear, Polynomial

    A = check_trajectories(A, "A")
    same = B is None
    B = A if same else check_trajectories(B, "B")
    P = 2 if degree is None else int(degree)
    Q = (P if same else B.shape[1] - 1) if degree_b is None else int(degree_b)
    P1, Q1 = P + 1, Q + 1

    def pad(X: np.ndarray, k: int) -> np.ndarray:
        if X.shape[1] >= k:
            return X[:, :k]
        return np.concatenate([X, np.zeros((X.shape[0], k - X.shape[1], X.shape[2]))], 1)

    Ap, Bp = pad(A, P1), pad(B, Q1)
    S = np.einsum("iun,jvn->iujv", Ap, Bp).transpose(0, 2, 1, 3)  # (m, m', P1, Q1)
    if isinstance(kernel, Linear):
        out = S
    elif isinstance(kernel, Polynomial):
        g, c0, p = kernel.gamma, kernel.coef0, kernel.degree
        s = g * S
        s[..., 0, 0] += c0

        def dpoly(s0: np.ndarray, k: int) -> np.ndarray:
            if k > p:
                return np.zeros_like(s0)
            return math.perm(p, k) * s0 ** (p - k)

        out = _jet_compose(s, dpoly)
    elif isinstance(kernel, RBF):
        g = kernel.gamma

        def self_series(X: np.ndarray, k: int) -> np.ndarray:
            # coefficients of |x(theta)|^2 up to theta^(k-1)
            full = np.einsum("iun,ivn->iuv", X, X)
            out_ = np.zeros((X.shape[0], k))
            for u in range(full.shape[1]):
                for v in range(full.shape[2]):
                    if u + v < k:
                        out_[:, u + v] += full[:, u, v]
            return out_

        aa = self_series(Ap, P1)
        bb = self_series(Bp, Q1)
        Dist = -2.0 * S
        Dist[..., :, 0] += aa[:, None, :]
        Dist[..., 0, :] += bb[None, :, :]

        def dexp(s0: np.ndarray, k: int) -> np.ndarray:
            return (-g) ** k * np.exp(-g * s0)

        out = _jet_compose(Dist, dexp)
    else:
        raise InvalidTypeError("kernel", "expected a Linear, Polynomial or RBF/Gaussian kernel, "
                                         f"got {type(kernel).__name__}")
    return out.transpose(0, 2, 1, 3)


def row_norms(X: np.ndarray) -> np.ndarray:
    """``||x_ik||`` ``(m, r+1)`` of trajectories ``X`` ``(m, r+1, n)`` (one pass, no copy)."""
    return np.sqrt(np.einsum("ikn,ikn->ik", X, X))


def coefficient_error(X: np.ndarray, w: np.ndarray,
                      norms: np.ndarray | None = None) -> np.ndarray:
    """A bound ``E`` ``(m, r+1)`` on the rounding error of the computed coefficients
    ``F = X @ w`` (``F[i, k] = x_ik' w``): a dot product of length ``n`` in any summation
    order (blocked BLAS, FMA) is off by at most ``gamma_n sum_j |x_ikj w_j|`` (Higham,
    *Accuracy and Stability of Numerical Algorithms*, §3.1), and ``sum_j |x_ikj w_j| <=
    ||x_ik|| ||w||`` (Cauchy-Schwarz: the norms need no ``|X|`` copy of the data).  The
    factor covers the rounding of the norms themselves; ``n`` times the smallest subnormal
    covers underflow.  ``norms``: :func:`row_norms` of ``X`` if already known (a solver
    certifies the same data many times)."""
    n = X.shape[2]
    g = 1.01 * (n + 4) * UNIT
    if norms is None:
        norms = row_norms(X)
    return g * norms * float(np.sqrt(w @ w)) + n * 5e-324


def rigorous_min(P: np.ndarray, E: np.ndarray, segment: float) -> np.ndarray:
    r"""Rigorous lower bounds on :math:`\min_{\theta\in[-\tau,\tau]} p_i(\theta)` for
    polynomials of degree ``r <= 2`` known only to within ``E``: every real polynomial
    :math:`p_i` with :math:`|p_{ik} - P_{ik}| \le E_{ik}` is ``>=`` the returned bound on
    the segment, the floating-point evaluation of the bound included.

    Degree 2, :math:`p = a\theta^2 + b\theta + c`, two valid bounds, the larger kept:

    * *uniform*: :math:`\min_S \hat p - (E_2\tau^2 + E_1\tau + E_0)`, :math:`\min_S\hat p`
      over the ends :math:`\pm\tau` and, when :math:`\hat a > 0` and the vertex may lie in
      ``S`` (:math:`|\hat b| \le 2\hat a\tau`, tested with a margin), the vertex value
      :math:`\hat c - \hat b^2/4\hat a`;
    * *on all of* :math:`\mathbb R`, when :math:`a \ge \hat a - E_2 > 0`: :math:`p \ge
      (\hat c - E_0) - (|\hat b| + E_1)^2 / 4(\hat a - E_2)`, free of :math:`\tau`, so a
      trajectory with a clearly positive leading coefficient keeps a tight bound at any
      :math:`\tau` (at :math:`\tau = 10^{12}` the uniform term :math:`E_2\tau^2` is
      :math:`10^{24}` times the rounding of the leading coefficient).

    Degrees 0 and 1: :math:`\hat c - E_0` and :math:`\hat c - (|\hat b| + E_1)\tau - E_0`.
    Each bound is lowered by a few units of round-off of the magnitudes it adds (a handful
    of operations, each off by at most one unit ``u`` relative).
    """
    P = np.asarray(P, dtype=float)
    E = np.asarray(E, dtype=float)
    R = P.shape[1]
    tau = float(segment)
    u8 = 8 * UNIT
    c, e0 = P[:, 0], E[:, 0]
    if R == 1:
        return c - e0 - u8 * (np.abs(c) + e0)
    b, e1 = P[:, 1], E[:, 1]
    if R == 2:
        mag = np.abs(c) + (np.abs(b) + e1) * tau + e0
        return c - (np.abs(b) + e1) * tau - e0 - u8 * mag
    if R != 3:
        raise ValueError("rigorous_min handles degree <= 2")
    a, e2 = P[:, 2], E[:, 2]
    t2 = tau * tau
    ends = np.minimum(a * t2 + b * tau + c, a * t2 - b * tau + c)
    mag = np.abs(a) * t2 + np.abs(b) * tau + np.abs(c)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        inside = (a > 0) & (np.abs(b) <= 2 * a * tau * (1 + u8))
        q = np.where(inside, b * b / (4 * a), 0.0)
        vert = np.where(inside, c - q, np.inf)
        mag = np.where(inside, np.maximum(mag, np.abs(c) + q), mag)
        err = e2 * t2 + e1 * tau + e0
        uniform = np.minimum(ends, vert) - err - u8 * (mag + err)
        alo = a - e2 - u8 * np.abs(a)
        B = np.abs(b) + e1
        qR = B * B / (4 * np.where(alo > 0, alo, 1.0))
        line = np.where(alo > 0, c - e0 - qR - u8 * (np.abs(c) + e0 + qR), -np.inf)
    out = np.maximum(uniform, line)
    return np.where(np.isnan(out), -np.inf, out)
