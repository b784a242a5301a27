r"""The triplets of Abe (ICANN 2012), §2, and the coefficient matrix ``A`` they give.

See :mod:`convexkern.formulations.lp_svm` for the notation.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..._validation import check_class_labels, check_matrix
from ...errors import InvalidInputError, InvalidTypeError

__all__ = ["TIE_RTOL", "triplets", "coefficients", "triplet_matrix"]


def _sq_dist_rows(X: np.ndarray, rows: np.ndarray, sq: np.ndarray) -> np.ndarray:
    D = sq[rows, None] + sq[None, :] - 2.0 * (X[rows] @ X.T)
    np.maximum(D, 0.0, out=D)
    return D


#: Relative width of the candidate band of :func:`triplets`: a sample ``c`` is a candidate
#: neighbour of ``r`` when its fast distance is within ``TIE_RTOL * (|x_r|^2 + max|x|^2)``
#: of the row minimum.  The rounding error of ``|x|^2 + |z|^2 - 2 x'z`` (BLAS blocking
#: included) is a small multiple of ``m * eps * (|x|^2 + |z|^2)``, far below this band for
#: any ``m`` up to ~10^6 inputs.
TIE_RTOL = 1e-9

#: Candidate pairs whose exact distances are computed at once (bounds the memory of the
#: exact pass to about ``_EXACT_BLOCK * m`` floats even when many samples tie).
_EXACT_BLOCK = 1 << 16


def _exact_argmin(X: np.ndarray, rows: np.ndarray, D: np.ndarray, sq: np.ndarray,
                  sq_max: float) -> np.ndarray:
    """Per row of ``D`` (fast distances, ``inf`` = not allowed): the column with the
    smallest *exactly recomputed* distance ``((X[r] - X[c]) ** 2).sum()`` among the
    columns within the ``TIE_RTOL`` band of the row minimum; ties go to the lowest index.
    """
    dmin = D.min(axis=1)
    cutoff = dmin + TIE_RTOL * (sq[rows] + sq_max)
    ii, cc = np.nonzero(D <= cutoff[:, None])  # row-major: columns ascending per row
    exact = np.empty(ii.size)
    for s in range(0, ii.size, _EXACT_BLOCK):
        sl = slice(s, s + _EXACT_BLOCK)
        exact[sl] = ((X[rows[ii[sl]]] - X[cc[sl]]) ** 2).sum(axis=1)
    order = np.lexsort((cc, exact, ii))  # by row, then exact distance, then index
    ii, cc = ii[order], cc[order]
    first = np.flatnonzero(np.r_[True, ii[1:] != ii[:-1]])
    out = np.empty(rows.size, dtype=np.int64)
    out[ii[first]] = cc[first]
    return out


def _safe_scale(X: np.ndarray) -> np.ndarray:
    """``X`` times a power of two (exact) when its squared distances would overflow or
    underflow float64, else ``X`` itself (never modified).

    Nearest neighbours do not change when every input is multiplied by the same number,
    and a power of two multiplies exactly, so the triplets of the scaled copy are those of
    ``X``; the squares ``|x|^2`` and ``(x_r - x_c)^2`` of ``X * 1e200`` would be ``inf``
    (and every distance ``nan``), those of ``X * 1e-200`` zero (every pair a tie).
    """
    amax = float(np.max(np.abs(X)))
    high = math.sqrt(np.finfo(np.float64).max / (8.0 * X.shape[1]))
    if amax == 0.0 or 2.0 ** -500 <= amax <= high:
        return X
    return np.ldexp(X, -int(np.frexp(amax)[1]))


def triplets(
    X: Any, y: Any, *, singletons: str = "raise", chunk: int = 1024
) -> np.ndarray:
    r"""The triplets ``(r, j, k)`` of Abe (2012), §2.

    For every training sample ``r``: ``j`` is its nearest neighbour (squared Euclidean
    distance) among the *other* samples of its class, ``k`` its nearest neighbour among the
    samples of every other class.

    Deterministic handling of ties and duplicates:

    * the distance that decides is the exact-order one,
      :math:`d(r, c) = \sum_i (x_{ir} - x_{ic})^2` evaluated as
      ``((X[r] - X[c]) ** 2).sum()``; among equal values of it the **lowest sample
      index** wins.  The result is therefore independent of ``chunk`` and of BLAS.
      (The fast expansion :math:`|x|^2 + |z|^2 - 2x^	op z` only preselects the
      candidates within a relative band ``TIE_RTOL`` of the row minimum; its rounding,
      which depends on the BLAS blocking, never decides.)
    * ``r`` itself is excluded by index only, so an exact duplicate of ``x_r`` in the same
      class is a valid same-class neighbour at distance 0 (its row of ``A`` is then
      :math:`(x_r - x_k)^2 \ge 0`); a duplicate in *another* class is a nearest
      other-class neighbour at distance 0, which makes row ``r`` of ``A`` :math:`\le 0`
      in every input (that triplet can never get a positive margin).

    Parameters
    ----------
    X : (n, m) array
        Finite inputs.
    y : (n,) array
        Class labels of any type (two or more classes).
    singletons : {"raise", "skip"}
        What to do with a sample that is alone in its class (it has no same-class
        neighbour): raise an error naming the class, or leave the sample out.  If no
        sample is left, an error names ``y``.
    chunk : int >= 1
        Rows of the distance matrix computed at a time (memory ``chunk * n`` floats).

    Returns
    -------
    (M, 3) int64 array
        Rows ``(r, j, k)``, in increasing ``r``; ``M = n`` unless singletons are skipped.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [3.0], [4.5]])
    >>> triplets(X, np.array([0, 0, 1, 1])).tolist()
    [[0, 1, 2], [1, 0, 2], [2, 3, 1], [3, 2, 1]]
    """
    X = check_matrix(X, "X")
    y = check_class_labels(y, "y", n=X.shape[0])
    if singletons not in ("raise", "skip"):
        raise InvalidInputError("singletons", f"must be 'raise' or 'skip', got {singletons!r}")
    if isinstance(chunk, bool) or not isinstance(chunk, (int, np.integer)):
        raise InvalidTypeError("chunk", f"expected an integer >= 1, got {chunk!r}")
    if chunk < 1:
        raise InvalidInputError("chunk", f"must be an integer >= 1, got {chunk!r}")
    chunk = int(chunk)
    classes, codes, counts = np.unique(y, return_inverse=True, return_counts=True)
    codes = codes.ravel()
    if classes.size < 2:
        raise InvalidInputError(
            "y", f"needs at least two classes for nearest other-class neighbours, got "
                 f"{classes.tolist()}")
    lonely = counts < 2
    if np.any(lonely) and singletons == "raise":
        raise InvalidInputError(
            "y", f"class(es) {classes[lonely].tolist()} have a single sample, which has no "
                 "same-class neighbour; pass singletons='skip' to leave such samples out")
    if np.all(lonely):
        raise InvalidInputError(
            "y", f"every class {classes.tolist()} has a single sample: no sample has a "
                 "same-class neighbour, so no triplet remains")
    n = X.shape[0]
    X = _safe_scale(X)
    sq = np.einsum("ij,ij->i", X, X)
    sq_max = float(sq.max())
    keep = ~lonely[codes]
    out = []
    for start in range(0, n, chunk):
        rows = np.arange(start, min(start + chunk, n))
        rows = rows[keep[rows]]
        if rows.size == 0:
            continue
        D = _sq_dist_rows(X, rows, sq)
        same = codes[rows, None] == codes[None, :]
        Ds = np.where(same, D, np.inf)
        Ds[np.arange(rows.size), rows] = np.inf
        Do = np.where(same, np.inf, D)
        j = _exact_argmin(X, rows, Ds, sq, sq_max)
        k = _exact_argmin(X, rows, Do, sq, sq_max)
        out.append(np.stack([rows, j, k], axis=1))
    return np.concatenate(out).astype(np.int64)


def coefficients(X: Any, triplets: Any) -> np.ndarray:
    r"""The matrix ``A`` (M, m): :math:`a_{ir} = (x_{ir} - x_{ik})^2 - (x_{ir} - x_{ij})^2`.

    The second term is :math:`(x_{ir} - x_{ij})^2` (same-class neighbour); the paper's (4)
    prints it with a wrong index.
    """
    X = check_matrix(X, "X")
    T = np.asarray(triplets)
    if T.ndim != 2 or T.shape[1] != 3 or T.shape[0] == 0:
        raise InvalidInputError("triplets", f"expected an (M, 3) array of (r, j, k), got {T.shape}")
    if not np.issubdtype(T.dtype, np.integer):
        raise InvalidTypeError("triplets", "expected integer indices")
    if T.min() < 0 or T.max() >= X.shape[0]:
        raise InvalidInputError("triplets", f"indices must lie in [0, {X.shape[0]})")
    r, j, k = T[:, 0], T[:, 1], T[:, 2]
    dk, dj = X[r] - X[k], X[r] - X[j]
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        A = dk ** 2 - dj ** 2
    amax = float(np.max(np.abs(X)))
    if not np.all(np.isfinite(A)):
        raise InvalidInputError(
            "X", f"the coefficients a_ir = (x_ir - x_ik)^2 - (x_ir - x_ij)^2 overflow float64 "
                 f"(max |X| = {amax:.3g}); the LP is posed on these squared differences, so "
                 "rescale X (e.g. to [0, 1], as LPMahalanobis(scale=True) does)")
    dmax = max(float(np.max(np.abs(dk))), float(np.max(np.abs(dj))))
    if 0.0 < dmax and dmax * dmax < np.finfo(np.float64).tiny * 2.0 ** 52:
        raise InvalidInputError(
            "X", f"the coefficients a_ir = (x_ir - x_ik)^2 - (x_ir - x_ij)^2 underflow float64 "
                 f"(the largest difference |x_ir - x_ic| is {dmax:.3g}, its square below "
                 "full precision); rescale X (e.g. to [0, 1])")
    return A


def triplet_matrix(X: Any, y: Any, **kwargs: Any) -> np.ndarray:
    """``coefficients(X, triplets(X, y, **kwargs))``: the ``A`` of the paper from data."""
    return coefficients(X, triplets(X, y, **kwargs))
