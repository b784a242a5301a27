"""Exact Euclidean projection onto the SVM dual feasible set.

The set ``{alpha : y'alpha = 0, 0 <= alpha <= C}`` (``C = inf`` for the hard margin) is the
feasible set of the SVM dual (Mansour, SVM lecture notes 2013, §11.2) and of the robust SVM
of Luss & d'Aspremont (NIPS 2007, eq. (3)).  Its projection is used by certificates (to
repair round-off in solver output, with the distance reported) and by projected-gradient
methods.
"""

from __future__ import annotations

import numpy as np

from ._validation import check_labels, check_matrix
from .errors import InvalidInputError

__all__ = ["project_svm_feasible", "svm_infeasibility"]


def _clip_sum(mu: float, v: np.ndarray, y: np.ndarray, C: float | np.ndarray) -> float:
    return float(y @ np.clip(v - mu * y, 0.0, C))


def project_svm_feasible(
    v: np.ndarray, y: np.ndarray, C: float | np.ndarray = np.inf
) -> np.ndarray:
    """Project ``v`` onto ``{a : y'a = 0, 0 <= a <= C}`` exactly, in O(n log n).

    The KKT conditions give ``a_i = clip(v_i - mu y_i, 0, C)`` for the scalar multiplier
    ``mu`` of ``y'a = 0``.  ``g(mu) = sum_i y_i clip(v_i - mu y_i, 0, C)`` is continuous,
    piecewise linear and non-increasing, with breakpoints where some ``v_i - mu y_i`` hits
    0 or ``C``.  A bisection over the sorted breakpoints finds the piece where ``g``
    changes sign, and ``mu`` is then solved for exactly on that piece.

    Parameters
    ----------
    v : (n,) array
    y : (n,) array of -1/+1, both classes present
    C : float, positive (``inf`` for the set of the hard-margin dual), or (n,) array
        Per-example upper bounds ``0 <= a_i <= C_i`` (finite, ``>= 0``; a zero pins
        ``a_i = 0``), as in a weighted SVM.

    Returns
    -------
    (n,) array, feasible to round-off.

    Examples
    --------
    >>> import numpy as np
    >>> a = project_svm_feasible(np.array([2.0, 0.0]), np.array([1.0, -1.0]), C=1.0)
    >>> a.tolist()
    [1.0, 1.0]
    """
    v = check_matrix(v, "v", ndim=1)
    y = check_labels(y, "y", n=v.size)
    if np.ndim(C) == 0:
        if not (C > 0):
            raise InvalidInputError("C", f"must be positive, got {C!r}")
        finite = bool(np.isfinite(C))
    else:
        C = check_matrix(C, "C", ndim=1)
        if C.size != v.size or np.any(C < 0):
            raise InvalidInputError(
                "C", f"must be a scalar > 0 or {v.size} finite bounds >= 0, got shape "
                     f"{C.shape} with min {C.min(initial=0.0):.3g}")
        finite = True
    # Breakpoints in mu: v_i - mu y_i = 0 -> mu = v_i y_i; = C -> mu = (v_i - C) y_i.
    bps = v * y
    if finite:
        bps = np.concatenate([bps, (v - C) * y])
    bps = np.unique(bps)
    # g is non-increasing; find consecutive breakpoints with g(lo) >= 0 >= g(hi).
    lo_i, hi_i = 0, bps.size - 1
    g_lo = _clip_sum(bps[lo_i], v, y, C)
    g_hi = _clip_sum(bps[hi_i], v, y, C)
    if g_lo < 0:  # root left of every breakpoint (only when C is infinite)
        return _solve_piece(bps[0] - 1.0, bps[0], v, y, C)
    if g_hi > 0:
        return _solve_piece(bps[-1], bps[-1] + 1.0, v, y, C)
    while hi_i - lo_i > 1:
        mid = (lo_i + hi_i) // 2
        g_mid = _clip_sum(bps[mid], v, y, C)
        if g_mid > 0:
            lo_i = mid
        elif g_mid < 0:
            hi_i = mid
        else:
            return np.clip(v - bps[mid] * y, 0.0, C)
    return _solve_piece(bps[lo_i], bps[hi_i], v, y, C)


def _solve_piece(
    lo: float, hi: float, v: np.ndarray, y: np.ndarray, C: float | np.ndarray
) -> np.ndarray:
    """On ``(lo, hi)`` the active pattern is fixed: solve the linear equation for mu."""
    mid = 0.5 * (lo + hi)
    z = v - mid * y
    free = (z > 0) & (z < C)
    upper = z >= C
    # sum over free of y_i (v_i - mu y_i) + C sum over upper of y_i = 0, with y_i^2 = 1.
    n_free = int(np.count_nonzero(free))
    if not np.any(upper):
        const = float(y[free] @ v[free])
    elif np.ndim(C) == 0:
        const = float(y[free] @ v[free]) + C * float(np.sum(y[upper]))
    else:  # per-example bounds: sum over upper of y_i C_i
        const = float(y[free] @ v[free]) + float(y[upper] @ C[upper])
    mu = const / n_free if n_free else mid
    return np.clip(v - mu * y, 0.0, C)


def svm_infeasibility(alpha: np.ndarray, y: np.ndarray, C: float | np.ndarray = np.inf) -> float:
    """Largest violation of ``y'alpha = 0`` and ``0 <= alpha <= C`` (max-norm; ``C`` a
    scalar or per-example bounds)."""
    box = max(float(np.max(-alpha, initial=0.0)), float(np.max(alpha - C, initial=0.0)))
    return max(box, abs(float(y @ alpha)))
