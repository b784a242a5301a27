r"""The closed-form values behind the certificates of Abe (ICANN 2012)'s four LPs.

Notation as in :mod:`convexkern.formulations.lp_svm`: ``A`` is (M triplets, m inputs), row
``r`` = :math:`(a_{1r}, \dots, a_{mr})`.  These functions evaluate each LP's objective at any
point, made feasible first, so that a builder's certificate and the theorem verdicts
(:mod:`convexkern.verify.lp_svm`) compute the same numbers.

**Certificates** (recomputed from ``A`` for every solver):

* ν-LP primal value at ``R``: ``R`` is projected onto the simplex, and for fixed ``R`` the
  best ``rho`` and ``xi`` are closed form.  With :math:`s = AR`,
  :math:`h(\rho) = \rho - C_\rho\sum_r(\rho - s_r)_+` is concave piecewise linear with
  kinks at the :math:`s_r` and slope :math:`1 - C_\rho\,\#\{s_r < \rho\}`; its maximum over
  :math:`\rho \ge \rho_{\min}` lies at a kink or at :math:`\rho_{\min}` (all are evaluated
  with sorted prefix sums), and is :math:`+\infty` when :math:`C_\rho M < 1`.
* ν-LP dual value at ``delta``: ``delta`` is clipped to :math:`[0, C_\rho]` and, if its sum
  is below 1, raised in proportion to the room left below :math:`C_\rho` (possible iff
  :math:`M C_\rho \ge 1`); then the best ``z`` is closed form, :math:`z = \max_i
  (A^\top\delta)_i`.
* LP SVM primal value at ``R``: ``R`` clipped at 0, :math:`\xi = (e - AR)_+`, value
  :math:`e^\top R + C_M e^\top(e - AR)_+`.
* LP SVM dual value at ``alpha``: ``alpha`` clipped to :math:`[0, C_M]` and divided by
  :math:`t = \max_i (A^\top\alpha)_i` when ``t > 1``; value :math:`e^\top\alpha`.

The multipliers the certificates need are read from the conic solver's constraint duals
(cvxpy) or from HiGHS's marginals (solver ``"linprog"``, the direct sparse path).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._validation import check_matrix

__all__ = [
    "THRESHOLD_RTOL",
    "nu_lp_value",
    "nu_lp_dual_value",
    "lp_value",
    "lp_dual_value",
    "c_min",
]


def _check_A(A: Any) -> np.ndarray:
    return check_matrix(A, "A")


def _simplex_repair(R: np.ndarray) -> np.ndarray:
    Rp = np.maximum(R, 0.0)
    s = Rp.sum()
    return np.full(R.size, 1.0 / R.size) if not s > 0 else Rp / s


#: ``M C_rho`` within this of 1 counts as the threshold ``C_rho = 1/M`` of Theorem 2.  A
#: ``C_rho`` computed as ``1/M`` is ``(1 + d1)/M`` with ``|d1| <= u`` (``u = eps/2``, one
#: rounding) and the float product ``C_rho * M`` adds one more rounding, so it lies within
#: ``2u + u^2 < eps`` of 1 (below 1 for about one ``M`` in nine); four ulps leave room for
#: one or two more roundings in how the caller formed ``C_rho`` (``c / M`` with ``c = 1``,
#: ``2 / (2M)``).  Anything further from 1 is a genuine ``C_rho < 1/M``: the ν-LP is then
#: unbounded and its dual infeasible (Theorem 2), never "optimal".
THRESHOLD_RTOL = 4.0 * float(np.finfo(float).eps)


def _below_threshold(C: float, M: int) -> bool:
    """True when ``M C < 1`` beyond rounding (Theorem 2: unbounded ν-LP, infeasible dual)."""
    return C * M < 1.0 - THRESHOLD_RTOL


def _best_rho(s: np.ndarray, C: float, rho_min: float | None) -> tuple[float, float]:
    """``max_{rho >= rho_min} rho - C sum (rho - s)_+`` and its maximiser (module doc).

    ``inf`` when ``M C < 1 - THRESHOLD_RTOL`` (Theorem 2).  Otherwise the best kink: at
    ``C = 1/M`` up to rounding the slope beyond the last kink is ``1 - M C``, at most a few
    ulps, and the kink's value is still the objective of a feasible point (a valid lower
    bound)."""
    M = s.size
    if _below_threshold(C, M):
        return math.inf, math.inf
    ss = np.sort(s)
    prefix = np.concatenate([[0.0], np.cumsum(ss)[:-1]])
    k = np.arange(M)
    vals = ss - C * (k * ss - prefix)  # h at rho = ss[k]: k smaller values below it
    if rho_min is not None:
        vals = np.where(ss >= rho_min, vals, -np.inf)
        v0 = rho_min - C * float(np.maximum(rho_min - s, 0.0).sum())
    else:
        v0 = -np.inf
    i = int(np.argmax(vals))
    if vals[i] >= v0:
        return float(vals[i]), float(ss[i])
    return float(v0), float(rho_min)


def nu_lp_value(A: np.ndarray, R: np.ndarray, C_rho: float, rho_min: float | None = 0.0
                ) -> tuple[float, dict[str, np.ndarray]]:
    """ν-LP objective at ``R`` with the best ``rho``, ``xi`` (``R`` projected on the simplex).

    Returns the value and the completed point ``{"R", "rho", "xi"}``.
    """
    Rs = _simplex_repair(np.asarray(R, float))
    s = A @ Rs
    val, rho = _best_rho(s, C_rho, rho_min)
    xi = np.maximum(rho - s, 0.0) if math.isfinite(rho) else np.full(s.size, math.inf)
    return val, {"R": Rs, "rho": np.asarray(rho), "xi": xi}


def _repair_delta(delta: np.ndarray, C: float, rho_min: float | None) -> np.ndarray | None:
    """``delta`` clipped to ``[0, C]`` and raised to ``sum >= 1`` (``= 1`` when ``rho_min``
    is None); None when impossible (``M C < 1``, Theorem 2).  At the threshold
    ``C = 1/M`` (``|M C - 1| <= THRESHOLD_RTOL``) the only feasible point is ``e/M``; the
    proportional raise can fall short of it by rounding, so ``e/M`` (clipped at ``C``) is
    used then, and only when it is feasible to that same ulp-level tolerance:
    ``delta <= C`` by the clip and ``sum delta = M min(1/M, C) >= 1 - THRESHOLD_RTOL``
    (one rounding, unlike a float sum of ``M`` terms)."""
    if _below_threshold(C, delta.size):
        return None
    d = np.clip(delta, 0.0, C)
    total = d.sum()
    if rho_min is None and total > 1.0:
        return d / total
    if total < 1.0:
        room = C - d
        if room.sum() >= 1.0 - total:
            d = np.minimum(d + room * ((1.0 - total) / room.sum()), C)
        else:
            v = min(1.0 / d.size, C)
            if v * d.size < 1.0 - THRESHOLD_RTOL:
                return None
            d = np.full(d.size, v)
    return d


def nu_lp_dual_value(A: np.ndarray, delta: np.ndarray, C_rho: float,
                     rho_min: float | None = 0.0) -> tuple[float, dict[str, np.ndarray]]:
    """ν-LP dual objective at ``delta`` (repaired) with the best ``z``; ``inf`` if
    ``M C_rho < 1`` (the dual is then infeasible)."""
    d = _repair_delta(np.asarray(delta, float), C_rho, rho_min)
    if d is None:
        return math.inf, {"delta": np.clip(delta, 0.0, C_rho), "z": np.asarray(math.inf)}
    z = float(np.max(A.T @ d))
    val = z if not rho_min else z + rho_min * (1.0 - float(d.sum()))
    return val, {"delta": d, "z": np.asarray(z)}


def lp_value(A: np.ndarray, R: np.ndarray, C_M: float) -> tuple[float, dict[str, np.ndarray]]:
    """LP SVM objective at ``R`` (clipped at 0) with the best slacks ``xi = (1 - AR)_+``."""
    Rp = np.maximum(np.asarray(R, float), 0.0)
    xi = np.maximum(1.0 - A @ Rp, 0.0)
    return float(Rp.sum() + C_M * xi.sum()), {"R": Rp, "xi": xi}


def lp_dual_value(A: np.ndarray, alpha: np.ndarray, C_M: float
                  ) -> tuple[float, dict[str, np.ndarray]]:
    """LP SVM dual objective at ``alpha`` made feasible (clip, then scale by ``max A'alpha``)."""
    a = np.clip(np.asarray(alpha, float), 0.0, C_M)
    # A few selective passes first: for each violated column i, shrink the alpha_r with
    # a_ir > 0 by the fraction that removes the excess (costs far less than scaling all of
    # alpha when one column with large |a_ir| is violated by round-off); then the uniform
    # scaling by max(A'alpha) guarantees feasibility whatever is left.
    Ap = np.maximum(A, 0.0)
    for _ in range(5):
        g = A.T @ a
        excess = g - 1.0
        bad = excess > 0
        if not np.any(bad):
            break
        pos = Ap[:, bad].T @ a  # sum_r a_ir^+ alpha_r, per violated column
        theta = np.minimum(np.where(pos > 0, excess[bad] / np.where(pos > 0, pos, 1.0), 0.0), 1.0)
        shrink = np.max(np.where(Ap[:, bad] > 0, theta, 0.0), axis=1)  # per-row fraction
        a = a * (1.0 - shrink)
    t = float(np.max(A.T @ a))
    if t > 1.0:
        a = a / t
    return float(a.sum()), {"alpha": a}


def c_min(A: Any) -> float:
    r"""Theorem 5, (18): :math:`C_{\min} = 1 / \max_i \sum_r a_{ir}`.

    For :math:`C_M \le C_{\min}` the LP SVM solution is ``R = 0`` (unique below it); above
    it ``R != 0``.  ``inf`` when every column sum is ``<= 0`` (``R = 0`` for every ``C_M``).
    """
    A = _check_A(A)
    b = float(A.sum(axis=0).max())
    return 1.0 / b if b > 0 else math.inf


def _dist(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.max(np.abs(a - b))) if a.size else 0.0

