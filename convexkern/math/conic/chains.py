"""Chains of implied bounds closed in one pass: the rows of ``rlo <= G z <= rhi`` with one
open term on a side bound that term's column, and a column so closed may leave another
row with one open term.  A round of :func:`convexkern.math.conic.boxes._propagate` (all
rows at once, on the box of the round before) closes one link of such a chain a round:
Netlib's staircase LPs (SC50A, SC205, STOCFOR1) ran 15 to 20 rounds, and stopped at 20
with bounds still open.  Here the links are followed one row at a time, each new bound
used by the next row at once; used by :func:`convexkern.math.conic.boxes._tighten`."""

from __future__ import annotations

import math
from collections import deque

import numpy as np
import scipy.sparse as sp

from .data import _TINY, _U, ARRAYS_NNZ, _gamma

__all__ = ["close_chains"]

#: the most bounds one call closes (a Python step each: past this, the rounds go on)
_MOST = 20000


def _open_counts(G: sp.csr_matrix, lo: np.ndarray, hi: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per row, how many of its terms are infinite in its minimal activity and in its
    maximal one (a stored zero contributes nothing), and whether the row's minimal
    (maximal) side can close a bound now: it has at most one open term and a column
    whose bound on that side is open (when one term is open, that term's column)."""
    g, j = G.data, G.indices
    m = G.shape[0]
    rows = np.repeat(np.arange(m), np.diff(G.indptr))
    low = np.where(g > 0, lo[j], hi[j])  # the bound each entry's minimal term reads
    high = np.where(g > 0, hi[j], lo[j])  # the maximal term's; the minimal side bounds it
    nz = g != 0
    open_low, open_high = nz & ~np.isfinite(low), nz & ~np.isfinite(high)
    cmin = np.bincount(rows, weights=open_low, minlength=m).astype(np.intp)
    cmax = np.bincount(rows, weights=open_high, minlength=m).astype(np.intp)
    # the minimal side bounds each column on the side its maximal term reads, and the
    # other way round; with one open term only that term's column
    gives_min = np.bincount(rows, weights=open_high & ((cmin[rows] == 0) | open_low),
                            minlength=m) > 0
    gives_max = np.bincount(rows, weights=open_low & ((cmax[rows] == 0) | open_high),
                            minlength=m) > 0
    return cmin, cmax, (cmin <= 1) & gives_min, (cmax <= 1) & gives_max


def close_chains(G: sp.csr_matrix, rlo: np.ndarray, rhi: np.ndarray, lo: np.ndarray,
                 hi: np.ndarray) -> int:
    """Close, in place, every open bound that rows with at most one open term imply, one
    row after another (each new bound read by the next row at once).

    A row whose minimal activity has no infinite term gives, with a finite ``rhi``,
    ``g z_j <= rhi - rest_min`` for each of its columns ``j`` (``rest_min`` the sum of
    its other terms): an upper bound on ``z_j`` for ``g > 0``, a lower one for
    ``g < 0``; with exactly one infinite term, only for that term's column.  Its maximal
    activity with ``rlo`` the other way round.  The arithmetic is
    :func:`~convexkern.math.conic.boxes._propagate`'s: the rest's rounding bounded by
    ``gamma_{k+3}`` of the row's magnitudes (both sides' finite terms) and its sides,
    every bound rounded outward.  A bound is written only where it was infinite (the
    rounds tighten the others); the rows of a column so closed are counted again and,
    when they may now close a bound, queued.  Returns how many bounds were closed."""
    if G.nnz == 0:
        return 0
    cmin, cmax, use_min, use_max = _open_counts(G, lo, hi)
    use_min &= np.isfinite(rhi)
    use_max &= np.isfinite(rlo)
    todo = deque(np.flatnonzero(use_min | use_max).tolist())
    if not todo:
        return 0
    indptr, indices, data = G.indptr.tolist(), G.indices.tolist(), G.data.tolist()
    # the rows of each column, in increasing order (G's CSC arrays; a small G's read from
    # its own by a stable sort)
    if G.nnz > ARRAYS_NNZ:
        Gc = G.tocsc()
        cptr, crow, cval = Gc.indptr.tolist(), Gc.indices.tolist(), Gc.data.tolist()
    else:
        by_col = np.argsort(G.indices, kind="stable")
        rows = np.repeat(np.arange(G.shape[0]), np.diff(G.indptr))
        cptr = np.concatenate([[0], np.cumsum(np.bincount(G.indices,
                                                          minlength=G.shape[1]))])
        cptr, crow, cval = cptr.tolist(), rows[by_col].tolist(), G.data[by_col].tolist()
    lo_l, hi_l = lo.tolist(), hi.tolist()
    cmin_l, cmax_l = cmin.tolist(), cmax.tolist()
    rlo_l, rhi_l = rlo.tolist(), rhi.tolist()
    gam = _gamma(np.diff(G.indptr) + 3).tolist()
    queued = [False] * G.shape[0]
    for i in todo:
        queued[i] = True
    closed = 0
    while todo and closed < _MOST:
        i = todo.popleft()
        queued[i] = False
        for side in (0, 1):  # 0: the minimal activity against rhi, 1: the maximal, rlo
            rhs = rhi_l[i] if side == 0 else rlo_l[i]
            # a side bounds the columns whose terms of the other side are open: none, no
            # row to read (each count is kept as bounds close)
            mine, other = (cmin_l[i], cmax_l[i]) if side == 0 else (cmax_l[i], cmin_l[i])
            if mine > 1 or other == 0 or not math.isfinite(rhs):
                continue
            closed += _close_row(i, side, rhs, indptr, indices, data, lo_l, hi_l, rlo_l,
                                 rhi_l, gam, cptr, crow, cval, cmin_l, cmax_l, todo,
                                 queued)
    if closed:
        lo[:] = lo_l
        hi[:] = hi_l
    return closed


def _close_row(i, side, rhs, indptr, indices, data, lo_l, hi_l, rlo_l, rhi_l, gam, cptr,
               crow, cval, cmin_l, cmax_l, todo, queued) -> int:
    """:func:`close_chains` on one side of row ``i`` (Python lists throughout: a step per
    entry costs less than an array operation on a row of a few entries)."""
    terms, cols, gs = [], [], []
    total = mag = 0.0
    n_open = 0
    for e in range(indptr[i], indptr[i + 1]):
        g = data[e]
        if g == 0.0:
            continue
        c = indices[e]
        tmin = g * (lo_l[c] if g > 0 else hi_l[c])
        tmax = g * (hi_l[c] if g > 0 else lo_l[c])
        term = tmin if side == 0 else tmax
        fin = math.isfinite(term)
        if fin:
            total += term
        else:
            n_open += 1
        terms.append(term if fin else None)
        cols.append(c)
        gs.append(g)
        mag += (abs(tmin) if math.isfinite(tmin) else 0.0) + (
            abs(tmax) if math.isfinite(tmax) else 0.0)
    if n_open > 1:
        return 0  # counted before a bound of the row's opened (not here: bounds only close)
    sides = (abs(rlo_l[i]) if math.isfinite(rlo_l[i]) else 0.0) + (
        abs(rhi_l[i]) if math.isfinite(rhi_l[i]) else 0.0)
    err = gam[i] * (mag + sides) + _TINY
    closed = 0
    for term, c, g in zip(terms, cols, gs, strict=True):
        if n_open == 1 and term is not None:
            continue  # one open term: only its column is bounded
        upper = (side == 0) == (g > 0)  # which bound of z_c the row gives
        if math.isfinite(hi_l[c] if upper else lo_l[c]):
            continue
        rest = total if term is None else total - term
        # side 0: g z <= rhs - rest + err; side 1: g z >= rhs - rest - err
        v = (rhs - rest + (err if side == 0 else -err)) / g
        if not math.isfinite(v):
            continue
        if upper:
            hi_l[c] = v + abs(v) * 4 * _U + _TINY
        else:
            lo_l[c] = v - abs(v) * 4 * _U - _TINY
        closed += 1
        # the rows of the column: the terms that read this bound are finite now
        for e in range(cptr[c], cptr[c + 1]):
            ge, r = cval[e], crow[e]
            if ge == 0.0:
                continue
            if (ge > 0) == upper:  # a maximal term reads hi (g > 0) or lo (g < 0)
                cmax_l[r] -= 1
            else:
                cmin_l[r] -= 1
            a, b = cmin_l[r], cmax_l[r]
            if not queued[r] and ((a <= 1 and b >= 1 and math.isfinite(rhi_l[r]))
                                  or (b <= 1 and a >= 1 and math.isfinite(rlo_l[r]))):
                queued[r] = True
                todo.append(r)
    return closed
