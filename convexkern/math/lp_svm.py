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

**Rounding.**  Each value is a bound on the exact LP built from the float ``A`` and ``C``,
not a float evaluation of it: a float ``A R`` of entries with large mixed signs can cancel
to a value off by far more than the gap (an LP SVM certified ``optimal`` with a
bracket 1.4e-7 relative below the exact optimum, ``A`` with two columns ``B ± 1e10 u``).
Every product ``A x`` is enclosed by a compensated dot product (error-free products and
sums, Ogita, Rump & Oishi, SIAM J. Sci. Comput. 26 (2005)), whose error bound is about
``u |A x|`` (``u = 2**-53``) however much ``A x`` cancels, with Higham's
``gamma_n = n u / (1 - n u)`` (*Accuracy and Stability of Numerical Algorithms*, 2nd ed.)
bounding the summation of the small error terms; the sums are :func:`math.fsum`
(correctly rounded) and every other operation is rounded outward with
:func:`numpy.nextafter` (a result rounded to nearest is within one neighbour of the exact
value).  Feasibility is exact: the ν-LP's ``R`` is certified as ``R / sum(R)`` (exact
sum), the ν-LP dual's ``sum(delta) >= 1`` is checked by the sign of ``fsum(delta) - 1``
(exact) and repaired by ulps when it fails, and the LP dual's ``alpha`` is scaled until
the upper enclosure of ``A' alpha`` is ``<= 1``.  Not covered: ``C_rho`` within
``THRESHOLD_RTOL`` below ``1/M`` is treated as the threshold ``1/M`` (below), a convention
the report states in its message (``formulations/lp_svm/builders.py``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._validation import check_matrix

__all__ = [
    "THRESHOLD_RTOL",
    "below_threshold",
    "check_gram",
    "max_abs_diff",
    "nu_lp_value",
    "nu_lp_dual_value",
    "lp_value",
    "lp_dual_value",
    "c_min",
]


_U = 2.0 ** -53  # unit round-off of IEEE double, round to nearest


def _up(x: Any) -> Any:
    """The next float above ``x``: an upper bound on the exact result that rounded to ``x``."""
    return np.nextafter(x, np.inf)


def _down(x: Any) -> Any:
    """The next float below ``x``: a lower bound on the exact result that rounded to ``x``."""
    return np.nextafter(x, -np.inf)


def _gamma(n: int) -> float:
    """Higham's ``gamma_n = n u / (1 - n u)`` (Higham 2002, Lemma 3.1), rounded up."""
    return float(_up(n * _U / (1.0 - n * _U)))


_SPLIT = 134217729.0  # 2**27 + 1, Dekker's splitting constant
_SPLIT_MAX = 2.0 ** 995  # below this the splitting cannot overflow
_TINY = float(np.finfo(float).tiny)


def _two_prod(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``a * b = p + e`` exactly, elementwise (Dekker 1971; Ogita, Rump & Oishi, SIAM J.
    Sci. Comput. 26 (2005), Algorithm 3.3), barring underflow."""
    p = a * b
    c = _SPLIT * a
    ah = c - (c - a)
    al = a - ah
    c = _SPLIT * b
    bh = c - (c - b)
    bl = b - bh
    return p, al * bl - (((p - ah * bh) - al * bh) - ah * bl)


def _sum_columns(T: np.ndarray, L: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(res, err)`` with ``|res - sum_i (T_i + L_i)| <= err`` per column (axis 0).

    A pairwise tree of Knuth's error-free TwoSum (Ogita, Rump & Oishi 2005, Algorithm 3.1):
    the exact column sum is the tree's top plus every error term and ``L``; those ``N``
    small terms are summed in floating point (error ``<= gamma_N sum|.|``, Higham 2002,
    (4.4)), and the final addition is one rounding (``<= u |res|``)."""
    e_sum = L.sum(axis=0)
    e_abs = np.abs(L).sum(axis=0)
    n_terms = L.shape[0]
    P = T
    while P.shape[0] > 1:
        if P.shape[0] % 2:
            P = np.concatenate([P, np.zeros((1, P.shape[1]))])
        a, b = P[0::2], P[1::2]
        s = a + b
        z = s - a
        e = (a - (s - z)) + (b - z)
        e_sum = e_sum + e.sum(axis=0)
        e_abs = e_abs + np.abs(e).sum(axis=0)
        n_terms += e.shape[0] + 1
        P = s
    res = P[0] + e_sum
    g = _gamma(n_terms + 2)
    err = (_U * np.abs(res) + g * e_abs) * (1.0 + 8 * _U) + 4 * n_terms * _TINY
    return res, err


def _enclose(A: np.ndarray, x: np.ndarray, transpose: bool = False
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(v, lo, hi)``: ``v ~ A x`` (``A' x`` if ``transpose``) and ``lo <= A x <= hi``
    exactly (floats read as rationals).

    The products are split error-free (:func:`_two_prod`) and summed by
    :func:`_sum_columns`, so the enclosure is about ``u |A x|`` wide plus a term of order
    ``(n u)^2 |A| x``: cancellation in ``A x`` costs nothing (the compensated dot product
    of Ogita, Rump & Oishi 2005, Section 5).  If the splitting could overflow, Higham's
    bound ``|fl(A x) - A x| <= gamma_n |A| |x|`` (Higham 2002, (3.5)) is used instead.  An
    overflowing enclosure is ``-inf``/``+inf`` (valid, useless)."""
    x = np.asarray(x, float)
    big = max(float(np.max(np.abs(A), initial=0.0)), float(np.max(np.abs(x), initial=0.0)))
    with np.errstate(invalid="ignore", over="ignore", under="ignore"):
        if big < _SPLIT_MAX:
            T, L = _two_prod(A, x[:, None] if transpose else x[None, :])
            if not transpose:
                T, L = T.T, L.T
            v, err = _sum_columns(T, L)
        else:
            n = A.shape[0] if transpose else A.shape[1]
            v = A.T @ x if transpose else A @ x
            q = np.abs(A).T @ np.abs(x) if transpose else np.abs(A) @ np.abs(x)
            err = (_gamma(n + 2) * q) * (1.0 + 4 * _U) + 4 * n * _TINY
        ok = np.isfinite(v) & np.isfinite(err)
        lo = np.where(ok, _down(v - err), -np.inf)
        hi = np.where(ok, _up(v + err), np.inf)
    return v, lo, hi


def _sum_bounds(v: np.ndarray) -> tuple[float, float]:
    """``lo <= sum(v) <= hi`` exactly (:func:`math.fsum` is correctly rounded)."""
    t = math.fsum(v.tolist())
    return float(_down(t)), float(_up(t))


def check_gram(A: Any) -> np.ndarray:
    """The matrix ``A`` of the LPs (finite, 2-d), checked under the argument name "A"."""
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


def below_threshold(C: float, M: int) -> bool:
    """True when ``M C < 1`` beyond rounding (Theorem 2: unbounded ν-LP, infeasible dual)."""
    return C * M < 1.0 - THRESHOLD_RTOL


def _best_rho(s: np.ndarray, C: float, rho_min: float | None) -> tuple[float, float]:
    """``max_{rho >= rho_min} rho - C sum (rho - s)_+`` and its maximiser (module doc).

    ``inf`` when ``M C < 1 - THRESHOLD_RTOL`` (Theorem 2).  Otherwise the best kink: at
    ``C = 1/M`` up to rounding the slope beyond the last kink is ``1 - M C``, at most a few
    ulps, and the kink's value is still the objective of a feasible point (a valid lower
    bound)."""
    M = s.size
    if below_threshold(C, M):
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


def _h_lower(s_lo: np.ndarray, rho: float, C: float) -> float:
    """A lower bound on ``rho - C sum_r (rho - s_r)_+`` for every ``s >= s_lo`` (the value
    is nondecreasing in ``s``), rounded outward (module doc, Rounding)."""
    t = np.maximum(_up(rho - s_lo), 0.0)
    _, S = _sum_bounds(t)
    return float(_down(rho - _up(C * S)))


def nu_lp_value(A: np.ndarray, R: np.ndarray, C_rho: float, rho_min: float | None = 0.0
                ) -> tuple[float, dict[str, np.ndarray]]:
    """ν-LP objective at ``R`` with the best ``rho``, ``xi`` (``R`` projected on the simplex).

    Returns a lower bound, valid in exact arithmetic, on the ν-LP objective of the feasible
    point ``R / sum(R)`` (exact sum) with the best ``rho`` (module doc, Rounding), and the
    completed point ``{"R", "rho", "xi"}``.
    """
    Rs = _simplex_repair(np.asarray(R, float))
    s, lo, _ = _enclose(A, Rs)
    sig_lo, sig_hi = _sum_bounds(Rs)  # the certified point is Rs / sigma, sigma = sum(Rs)
    with np.errstate(invalid="ignore", over="ignore"):
        s_lo = _down(np.where(lo >= 0, lo / sig_hi, lo / sig_lo))
    if not np.all(np.isfinite(s_lo)):
        val, rho = (math.inf, math.inf) if below_threshold(C_rho, s.size) else (-math.inf, 0.0)
    else:
        val, rho = _best_rho(s_lo, C_rho, rho_min)
        if math.isfinite(val):
            val = _h_lower(s_lo, rho, C_rho)
            if rho_min is not None and rho != rho_min:  # a tie within rounding: rho_min
                v0 = _h_lower(s_lo, rho_min, C_rho)
                val, rho = (v0, rho_min) if v0 >= val else (val, rho)
    xi = np.maximum(rho - s, 0.0) if math.isfinite(rho) else np.full(s.size, math.inf)
    return val, {"R": Rs, "rho": np.asarray(rho), "xi": xi}


def _sum_at_least_one(d: np.ndarray, C: float) -> np.ndarray:
    """``d`` (``0 <= d <= C``) raised by a few ulps until ``sum(d) >= 1`` holds exactly (the
    sign of ``fsum(d) - 1`` is exact); unchanged if it already holds or no entry has room."""
    for _ in range(4):
        deficit = math.fsum([1.0, *(-d).tolist()])
        if deficit <= 0:
            break
        j = int(np.argmax(C - d))
        if not C - d[j] > 0:
            break
        d = d.copy()
        d[j] = min(float(_up(_up(d[j] + _up(deficit)))), C)
    return d


def _repair_delta(delta: np.ndarray, C: float, rho_min: float | None) -> np.ndarray | None:
    """``delta`` clipped to ``[0, C]`` and raised to ``sum >= 1`` (``= 1`` when ``rho_min``
    is None); None when impossible (``M C < 1``, Theorem 2).  At the threshold
    ``C = 1/M`` (``|M C - 1| <= THRESHOLD_RTOL``) the only feasible point is ``e/M``; the
    proportional raise can fall short of it by rounding, so ``e/M`` (clipped at ``C``) is
    used then, and only when it is feasible to that same ulp-level tolerance:
    ``delta <= C`` by the clip and ``sum delta = M min(1/M, C) >= 1 - THRESHOLD_RTOL``
    (one rounding, unlike a float sum of ``M`` terms).  Otherwise ``sum delta >= 1`` holds
    exactly (:func:`_sum_at_least_one`)."""
    if below_threshold(C, delta.size):
        return None
    d = np.clip(delta, 0.0, C)
    total = d.sum()
    if rho_min is None and total > 1.0:
        return _sum_at_least_one(d / total, C)
    if total < 1.0:
        room = C - d
        if room.sum() >= 1.0 - total:
            d = np.minimum(d + room * ((1.0 - total) / room.sum()), C)
        else:
            v = min(1.0 / d.size, C)
            if v * d.size < 1.0 - THRESHOLD_RTOL:
                return None
            d = np.full(d.size, v)
    d = _sum_at_least_one(d, C)
    if math.fsum([1.0, *(-d).tolist()]) > 0:
        # the raise fell short with every entry near C: at C = 1/M (or a few ulps above
        # it) the proportional raise and the few raises after it leave the sum ulps below
        # 1 (M = 256, C = 2^-8), and that delta is not feasible.  The box's corner C e
        # has the exact sum M C, >= 1 whenever M C >= 1 exactly; below that (C read as
        # the threshold, THRESHOLD_RTOL) the convention's point is kept and said
        corner = np.full(d.size, C)
        if math.fsum([1.0, *(-corner).tolist()]) <= 0:
            d = corner
    return d


def nu_lp_dual_value(A: np.ndarray, delta: np.ndarray, C_rho: float,
                     rho_min: float | None = 0.0) -> tuple[float, dict[str, np.ndarray]]:
    """ν-LP dual objective at ``delta`` (repaired) with the best ``z``; ``inf`` if
    ``M C_rho < 1`` (the dual is then infeasible).

    The value is an upper bound, valid in exact arithmetic, on the objective of a feasible
    point (module doc, Rounding): ``z`` is the upper enclosure of ``max A'delta``; with
    ``rho_min=None`` the point is ``delta / sum(delta)`` (``sum >= 1`` exactly, so still
    ``<= C_rho``) and ``z`` is divided by the exact sum, rounded up."""
    d = _repair_delta(np.asarray(delta, float), C_rho, rho_min)
    if d is None:
        return math.inf, {"delta": np.clip(delta, 0.0, C_rho), "z": np.asarray(math.inf)}
    _, _, hi = _enclose(A, d, transpose=True)
    z = float(np.max(hi))
    if rho_min is None:
        sig_lo, sig_hi = _sum_bounds(d)
        sig_lo = max(sig_lo, 1.0) if math.fsum([1.0, *(-d).tolist()]) <= 0 else sig_lo
        z = float(_up(z / sig_lo if z >= 0 else z / sig_hi))
        return z, {"delta": d, "z": np.asarray(z)}
    val = z
    if rho_min:
        w = float(_up(math.fsum([1.0, *(-d).tolist()])))  # >= 1 - sum(d)
        val = float(_up(z + float(_up(rho_min * w))))
    return val, {"delta": d, "z": np.asarray(z)}


def lp_value(A: np.ndarray, R: np.ndarray, C_M: float) -> tuple[float, dict[str, np.ndarray]]:
    """LP SVM objective at ``R`` (clipped at 0) with the best slacks ``xi = (1 - AR)_+``:
    an upper bound, valid in exact arithmetic, on the objective of that feasible point
    (module doc, Rounding)."""
    Rp = np.maximum(np.asarray(R, float), 0.0)
    s, lo, _ = _enclose(A, Rp)
    xi_up = np.maximum(_up(1.0 - lo), 0.0)
    _, S = _sum_bounds(xi_up)
    _, r_up = _sum_bounds(Rp)
    val = float(_up(r_up + float(_up(C_M * S))))
    return val, {"R": Rp, "xi": np.maximum(1.0 - s, 0.0)}


def lp_dual_value(A: np.ndarray, alpha: np.ndarray, C_M: float
                  ) -> tuple[float, dict[str, np.ndarray]]:
    """LP SVM dual objective at ``alpha`` made feasible (clip, then scale by ``max A'alpha``):
    a lower bound on ``sum(alpha)`` at a point whose ``A'alpha <= e`` is proven by the upper
    enclosure of ``A'alpha`` (module doc, Rounding)."""
    a = np.clip(np.asarray(alpha, float), 0.0, C_M)
    # A few selective passes first: for each violated column i, shrink the alpha_r with
    # a_ir > 0 by the fraction that removes the excess (costs far less than scaling all of
    # alpha when one column with large |a_ir| is violated by round-off); then the uniform
    # scaling by the enclosure of max(A'alpha) guarantees feasibility whatever is left.
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
    for k in range(8):
        t = float(np.max(_enclose(A, a, transpose=True)[2]))
        if t <= 1.0:
            break
        if not math.isfinite(t):
            a = np.zeros_like(a)
            break
        # fl(a * c) <= a for c < 1, so a stays in [0, C_M].  First (1/t)(1 - 4u); but
        # fl(c alpha_r) = c alpha_r (1 + d_r), |d_r| <= u, moves the exact A'alpha by up to
        # u c |A|'alpha, which under cancellation (|A|'alpha >> 1: lattice data, where
        # A'alpha = 1 is a sum of terms of size C_M) exceeds that margin every time; from
        # the second pass on the factor leaves room for it.
        room = 0.0 if k == 0 else 2 * _U * float(np.max(np.abs(A).T @ a)) * (
            1.0 + _gamma(A.shape[0] + 2))
        a = a * ((1.0 - 4 * _U) / (t + room))
    else:
        a = np.zeros_like(a)
    lo, _ = _sum_bounds(a)
    return max(lo, 0.0), {"alpha": a}


def c_min(A: Any) -> float:
    r"""Theorem 5, (18): :math:`C_{\min} = 1 / \max_i \sum_r a_{ir}`.

    For :math:`C_M \le C_{\min}` the LP SVM solution is ``R = 0`` (unique below it); above
    it ``R != 0``.  ``inf`` when every column sum is ``<= 0`` (``R = 0`` for every ``C_M``).
    """
    A = check_gram(A)
    b = float(A.sum(axis=0).max())
    return 1.0 / b if b > 0 else math.inf


def max_abs_diff(a: np.ndarray, b: np.ndarray) -> float:
    """``max |a - b|`` (0 for empty arrays): how far a point is from a reference one."""
    return float(np.max(np.abs(a - b))) if a.size else 0.0

