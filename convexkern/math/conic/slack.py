"""The primal slack ``b - Ax`` with a componentwise bound on its rounding, for
:mod:`convexkern.math.conic` (:func:`slack_bound`), the bound-like rows met exactly
(:func:`clip_singletons`), and ``|M| |v|`` (:func:`abs_mv`).  A slack is computed once per
point and form: the upper bound reads it again for each of its tries."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .data import (
    _TINY,
    _U,
    ARRAYS_NNZ,
    ConicData,
    _exact_rows,
    _gamma,
    _worst_first,
    cached,
    exact_rows_fit,
    kept_for,
    nonneg_rows,
)

__all__ = ["abs_mv", "clip_singletons", "slack_bound"]


def abs_mv(M: sp.csr_matrix, v: np.ndarray) -> np.ndarray:
    """``|M| |v|``.  A small canonical CSR ``M`` (:data:`~.data.ARRAYS_NNZ` entries) is
    summed from its arrays, row by row in storage order, as SciPy's product sums (the
    same floating-point result, without building ``|M|``, which costs ~25 us on a form
    of a few rows); another gets ``|M|``, kept on ``M``.  What is kept is renewed when
    ``M``'s arrays are other objects."""
    arrays = (M.data, getattr(M, "indices", None), getattr(M, "indptr", None))
    kept = getattr(M, "_ck_abs", None)
    if kept is None or any(a is not b for a, b in zip(kept[0], arrays, strict=True)):
        if M.format == "csr" and M.nnz <= ARRAYS_NNZ and M.has_canonical_format:
            rows = np.repeat(np.arange(M.shape[0]), np.diff(M.indptr))
            kept = (arrays, (rows, np.abs(M.data)))
        else:
            kept = (arrays, abs(M))
        try:
            M._ck_abs = kept  # type: ignore[union-attr]
        except AttributeError:
            pass
    if isinstance(kept[1], tuple):
        rows, mags = kept[1]
        return np.bincount(rows, weights=mags * np.abs(v)[M.indices],
                           minlength=M.shape[0]).astype(float, copy=False)
    return kept[1] @ np.abs(v)


def slack_bound(data: ConicData, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``s = b - Ax`` with a componentwise bound on its rounding error.  The same point
    (bit for bit) on the same form gets the same arrays, computed once (copies: a
    caller may write into them)."""
    x = np.ascontiguousarray(x, dtype=float)
    s, es = kept_for(data, "slacks", (x.shape, x.tobytes()), lambda: _slack_bound(data, x))
    return s.copy(), es.copy()


def _slack_bound(data: ConicData, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`slack_bound`, computed."""
    gam, unit = cached(data, "slack_rows", lambda: _slack_rows(data.A))
    s = data.b - data.A @ x
    mag = np.abs(data.b) + abs_mv(data.A, x)
    es = np.where(mag > 0, gam * mag + _TINY, 0.0)
    # a row with one entry of magnitude 1 is b - x: one rounding, exact when it gives 0
    es[unit] = _U * np.abs(s[unit])
    return _refine_slack(data, x, s, es)


def _slack_rows(A: sp.csr_matrix) -> tuple[np.ndarray, np.ndarray]:
    """Per row of ``A``, ``gamma_{k+2}`` of its length, and the rows with one entry of
    magnitude 1."""
    nnz = np.diff(A.indptr)
    unit = np.flatnonzero(nnz == 1)
    return _gamma(nnz + 2), unit[np.abs(A.data[A.indptr[unit]]) == 1.0]


def _refine_slack(data: ConicData, x: np.ndarray, s: np.ndarray, es: np.ndarray,
                  limit: int = 5000) -> tuple[np.ndarray, np.ndarray]:
    """The slack ``b - Ax`` recomputed exactly on the equality and nonnegative rows whose
    cone membership the rounding bound leaves open (see :func:`_refine_undecided`)."""
    z, nn = data.zero, data.nonneg
    idx = np.arange(z + nn)
    open_ = np.zeros(z + nn, dtype=bool)
    open_[:z] = (np.abs(s[:z]) <= es[:z]) & (es[:z] > 0)
    open_[z:] = (s[z: z + nn] < es[z: z + nn])
    rows = _worst_first(data.A, idx[open_], es[idx[open_]], limit)
    if rows.size == 0 or not exact_rows_fit(data.A, rows):  # (past the deadline)
        return s, es
    vals, errs = _exact_rows(data.A, -x, rows, data.b)
    s, es = s.copy(), es.copy()
    better = errs < es[rows]
    s[rows[better]], es[rows[better]] = vals[better], errs[better]
    return s, es


def _singletons(data: ConicData) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The bound-like rows ``a x_j <= b`` (a nonneg row with one entry): ``(j, a, b)``."""
    def make() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        rows = nonneg_rows(data)
        one = np.flatnonzero(np.diff(rows.indptr) == 1)
        return (rows.indices[rows.indptr[one]], rows.data[rows.indptr[one]],
                data.b[data.zero + one])
    return cached(data, "singletons", make)


def clip_singletons(data: ConicData, x: np.ndarray) -> np.ndarray:
    """``x`` with every bound-like row (a nonneg row ``a x_j <= b`` with one entry) met
    exactly: the coordinate is moved onto the inner side of the bound, stepping an ulp at
    a time until the computed slack is provably nonnegative."""
    j, a, b = _singletons(data)
    if j.size == 0:
        return x
    x = x.copy()
    for _ in range(4):
        slack = b - a * x[j]
        ok = slack >= 2 * _U * (np.abs(b) + np.abs(a * x[j])) + (slack != 0) * _TINY
        ok |= (slack == 0) & ((a * x[j]) == b) & (np.abs(a) == 1.0)  # exact: a = +-1
        bad = ~ok
        if not bad.any():
            break
        # the bound itself, then one ulp further inside per round
        target = np.where(bad, b / a, x[j])
        inward = np.where(a > 0, -np.inf, np.inf)
        cur = np.where(bad & (np.sign(a) * (x[j] - target) >= 0), target, x[j])
        step = np.where(bad & ((b - a * cur) < 0), np.nextafter(cur, inward), cur)
        np.minimum.at(x, j[bad & (a > 0)], step[bad & (a > 0)])
        np.maximum.at(x, j[bad & (a < 0)], step[bad & (a < 0)])
    return x
