"""Cholesky factors of ``K~_WW`` for the TrIK active set: block updates when points enter
the working set, Givens downdates when they leave, the pivot test that detects a
numerically singular ``K~_WW``, and the dense bordered KKT solve used while it is."""

from __future__ import annotations

import math
import warnings
from typing import TYPE_CHECKING

import numpy as np
import scipy.linalg as sla

if TYPE_CHECKING:
    from .columns import _Columns

#: a Cholesky pivot whose square is below this fraction of its diagonal entry of K~
#: (the part of a new point's K~-norm not explained by the working set) is treated as
#: zero: K~_WW is then numerically singular and the KKT solve would be meaningless
#: (relative condition ~ 1e11, i.e. fewer than ~5 correct digits left).
PIVOT_RTOL = 1e-11


def _chol_append(R: np.ndarray, H12: np.ndarray, H22: np.ndarray) -> np.ndarray:
    """Upper Cholesky factor of ``[[H11, H12], [H12', H22]]`` from that of ``H11``.

    ``R12 = R11^{-T} H12``, ``R22 = chol(H22 - R12' R12)``: O(m^2 p) for p new rows.
    Raises :class:`numpy.linalg.LinAlgError` when a pivot is negative (LAPACK) or tiny:
    ``R22_jj^2 <= PIVOT_RTOL * H22_jj`` (the new point is numerically a combination of
    the working set in ``K~``); the message holds the smallest ratio.
    """
    m, p = R.shape[0], H22.shape[0]
    if m == 0:
        R22 = sla.cholesky(H22, lower=False, check_finite=False)
        _check_pivots(R22, H22)
        return np.ascontiguousarray(R22)
    R12 = sla.solve_triangular(R, H12, trans="T", lower=False, check_finite=False)
    S = H22 - R12.T @ R12
    R22 = sla.cholesky(S, lower=False, check_finite=False)
    _check_pivots(R22, H22)
    out = np.zeros((m + p, m + p))
    out[:m, :m] = R
    out[:m, m:] = R12
    out[m:, m:] = R22
    return out


def _pivot_ratio(R: np.ndarray, diag: np.ndarray) -> float:
    """Smallest ``R_jj^2 / H_jj`` (1 for an empty factor; 0 when ``H_jj <= 0``)."""
    if R.shape[0] == 0:
        return 1.0
    piv = np.diag(R) ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(diag > 0, piv / diag, 0.0)
    return float(ratio.min())


def _check_pivots(R22: np.ndarray, H22: np.ndarray) -> None:
    ratio = _pivot_ratio(R22, np.diag(H22))
    if not ratio > PIVOT_RTOL:
        raise np.linalg.LinAlgError(f"tiny Cholesky pivot (squared pivot / diagonal = "
                                    f"{ratio:.3g} <= {PIVOT_RTOL:.0e})")


def _chol_rank1_update(R: np.ndarray, x: np.ndarray) -> None:
    """In place: ``R`` (upper) becomes the factor of ``R'R + x x'`` (Givens rotations)."""
    p = R.shape[0]
    for j in range(p):
        rjj, xj = R[j, j], x[j]
        if xj == 0.0:
            continue
        r = math.hypot(rjj, xj)
        c, s = r / rjj, xj / rjj
        R[j, j] = r
        if j + 1 < p:
            row = R[j, j + 1:]
            row += s * x[j + 1:]
            row /= c
            xs = x[j + 1:]
            xs *= c
            xs -= s * row


def _chol_delete(R: np.ndarray, k: int) -> np.ndarray:
    """Factor of ``H`` without row/column ``k``: the trailing block gets the rank-one
    update by the deleted row of ``R``; O((m-k)^2)."""
    m = R.shape[0]
    x = R[k, k + 1:].copy()
    R33 = R[k + 1:, k + 1:].copy()
    _chol_rank1_update(R33, x)
    out = np.zeros((m - 1, m - 1))
    out[:k, :k] = R[:k, :k]
    out[:k, k:] = R[:k, k + 1:]
    out[k:, k:] = R33
    return out


def _regular(R: np.ndarray, diag: np.ndarray) -> bool:
    """Whether a factor's smallest squared pivot, relative to ``diag``, is above
    ``PIVOT_RTOL`` (``K~_WW`` numerically positive definite)."""
    return _pivot_ratio(R, diag) > PIVOT_RTOL


def _try_factor(cols: _Columns, Wa: np.ndarray, shift: float) -> np.ndarray | None:
    """Cholesky factor of ``K~_WW``, or ``None`` when it is numerically singular."""
    if Wa.size == 0:
        return np.zeros((0, 0))
    H = cols.block(Wa, Wa) + shift * np.eye(Wa.size)
    try:
        R = sla.cholesky(H, lower=False, check_finite=False)
    except np.linalg.LinAlgError:
        return None
    return R if _regular(R, np.diag(H)) else None


def _bordered_solve(H: np.ndarray, r: np.ndarray, s: float) -> tuple[np.ndarray, float]:
    """``[[H, 1], [1', 0]] [u; b] = [r; s]`` densely (least squares if singular)."""
    m = H.shape[0]
    M = np.empty((m + 1, m + 1))
    M[:m, :m] = H
    M[:m, m] = M[m, :m] = 1.0
    M[m, m] = 0.0
    rhs = np.append(r, s)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", sla.LinAlgWarning)
            sol = sla.solve(M, rhs, assume_a="sym", check_finite=False)
    except (np.linalg.LinAlgError, sla.LinAlgWarning):
        sol = np.linalg.lstsq(M, rhs, rcond=None)[0]
    return sol[:m], float(sol[m])
