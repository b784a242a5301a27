"""Boxes on the primal and dual variables of a conic program by interval propagation
(feasibility-based bound tightening) over its rows and cones, every implied bound rounded
outward; used by :mod:`convexkern.math.conic`."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import scipy.linalg
import scipy.sparse as sp

from ..budget import PASS_SECONDS, fits
from .chains import close_chains
from .cones import _cone_box
from .data import (
    _TINY,
    _U,
    ConicData,
    _gamma,
    _up,
    cached,
    nonneg_rows,
    norm_up,
    row_positions,
    take,
    transposed,
)
from .psd import psd_shift
from .slack import abs_mv

__all__: list[str] = []  # private helpers of the convexkern.math.conic package


class _Layout:
    """What :func:`_propagate` needs of ``G`` besides the box, computed once: the row of
    every entry, the row lengths and their rounding factors, the entries grouped by column
    (for one reduction per column instead of an unbuffered ``ufunc.at``), and, for the
    values ``G.data`` holds (:meth:`picks`), where each entry reads the box from and
    where its two new bounds come from."""

    def __init__(self, G: sp.csr_matrix) -> None:
        self.rows = np.repeat(np.arange(G.shape[0]), np.diff(G.indptr))
        self.rows2 = np.concatenate([self.rows, self.rows + G.shape[0]])
        self.gamma = _gamma(np.diff(G.indptr)[self.rows] + 3)
        self.order = np.argsort(G.indices, kind="stable")
        cols_sorted = G.indices[self.order]
        first = np.ones(cols_sorted.size, dtype=bool)
        first[1:] = cols_sorted[1:] != cols_sorted[:-1]
        self.starts = np.flatnonzero(first)
        self.cols = cols_sorted[self.starts]
        self._seen: np.ndarray | None = None
        self._picks: tuple[np.ndarray, np.ndarray] | None = None

    def picks(self, G: sp.csr_matrix) -> tuple[np.ndarray, np.ndarray]:
        """``(take, put)`` for the values ``G.data`` holds now (recomputed when they
        change): ``take`` (2 x nnz) indexes ``[lo, hi, 0]``, the bound each entry is
        multiplied by in the row's minimal activity (``lo`` for a positive entry, ``hi``
        for a negative one, the trailing 0 for a stored zero) and in its maximal one;
        ``put`` (2 x nnz) indexes the flattened ``[up; dn]`` and then ``[inf, -inf]``,
        where each entry's new upper and lower bound on its column come from (swapped
        for a negative entry; none, the infinities, for a stored zero)."""
        g = G.data
        if self._picks is None or not np.array_equal(self._seen, g):
            n, nnz = G.shape[1], g.size
            j = G.indices
            pos, neg = g > 0, g < 0
            zero = np.full(nnz, 2 * n)
            take = np.stack([np.where(pos, j, np.where(neg, j + n, zero)),
                             np.where(pos, j + n, np.where(neg, j, zero))])
            e = np.arange(nnz)
            put = np.stack([np.where(pos, e, np.where(neg, e + nnz, 2 * nnz)),
                            np.where(pos, e + nnz, np.where(neg, e, 2 * nnz + 1))])
            self._seen, self._picks = g.copy(), (take, put)
        return self._picks


#: signs of the two halves of :func:`_propagate`'s stacked arrays: (upper, lower)
_SIDES = np.array([[1.0], [-1.0]])
#: a new (upper, lower) bound that bounds nothing
_OPEN = np.array([[np.inf], [-np.inf]])
#: the rest of a row's (minimal, maximal) activity when another of its entries is infinite
_UNBOUNDED_REST = np.array([[-np.inf], [np.inf]])


def _propagate(G: sp.csr_matrix, rlo: np.ndarray, rhi: np.ndarray, lo: np.ndarray,
               hi: np.ndarray, layout: _Layout | None = None,
               rows_on: np.ndarray | None = None) -> None:
    """One round of feasibility-based bound tightening of ``rlo <= G z <= rhi`` on the box
    ``[lo, hi]`` (in place), every implied bound rounded outward.  For entry ``(i, j)``:
    the row's minimal and maximal activity without it (finite parts summed per row, the
    infinite contributions counted), with the rounding bound ``gamma_{k+3}`` of the row's
    magnitudes and sides, give ``g z_j <= rhi_i - rest_min`` and
    ``g z_j >= rlo_i - rest_max``.  The minimal and maximal sides are computed together,
    stacked in two rows.  With ``rows_on`` (a mask over ``G``'s rows) only those rows are
    propagated (all of them when those hold more than half the entries: the whole round
    costs less than the selection); rows with two infinite terms on each side (they
    imply nothing) are left out once their terms are counted, when they hold most of
    the entries.  The rows propagated get the same arithmetic, so each implied bound is
    bit for bit what the whole round gives."""
    lay = layout or _Layout(G)
    if G.nnz == 0:
        return
    m, nnz = G.shape[0], G.nnz
    take, put = lay.picks(G)
    rows, g, gamma = lay.rows, G.data, lay.gamma
    e = None  # the entries propagated (None: all)
    if rows_on is not None:
        e = np.flatnonzero(rows_on[rows])
        if e.size > nnz // 2:
            e = None  # most of the rows: the selection would cost more than it saves
        else:
            rows, g, gamma, take = rows[e], g[e], gamma[e], take[:, e]
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        t = g * np.concatenate([lo, hi, [0.0]])[take]      # [tmin; tmax]
        fin = np.isfinite(t)
        rows2 = lay.rows2 if e is None else np.concatenate([rows, rows + m])
        count = np.bincount(rows2, weights=~fin.ravel(), minlength=2 * m)
        # a row with two infinite terms on each side implies nothing: left out
        some = (count[:m] <= 1) | (count[m:] <= 1)
        keep = some[rows]
        if np.count_nonzero(keep) <= keep.size // 2:
            k = np.flatnonzero(keep)
            e = k if e is None else e[k]
            if e.size == 0:
                return
            rows, g, gamma, t, fin = rows[k], g[k], gamma[k], t[:, k], fin[:, k]
            rows2 = np.concatenate([rows, rows + m])
        f = np.where(fin, t, 0.0)
        total = np.bincount(rows2, weights=f.ravel(), minlength=2 * m)
        mag = np.bincount(rows, weights=np.abs(f[0]) + np.abs(f[1]), minlength=m)
        sides = (mag + np.abs(np.where(np.isfinite(rlo), rlo, 0.0))
                 + np.abs(np.where(np.isfinite(rhi), rhi, 0.0)))
        err = gamma * sides[rows] + _TINY
        # the rest of the row without entry (i, j): [rest_min; rest_max]
        at = rows2.reshape(2, -1)
        rest = np.where(count[at] - ~fin == 0, total[at] - f, _UNBOUNDED_REST)
        # [up; dn]: g z_j <= rhi - rest_min + err and g z_j >= rlo - rest_max - err
        ud = (np.stack([rhi[rows], rlo[rows]]) - rest + _SIDES * err) / g
        if e is None:
            new = np.concatenate([ud.ravel(), [np.inf, -np.inf]])[put]  # [new_hi; new_lo]
        else:  # the same picks: an entry's new bounds come from its own [up; dn]
            flat = np.empty(2 * nnz + 2)
            flat[e], flat[e + nnz], flat[-2:] = ud[0], ud[1], (np.inf, -np.inf)
            new = flat[put[:, e]]
        new = np.where(np.isnan(new), _OPEN, new)
        new = new + _SIDES * (np.abs(new) * 4 * _U) + _SIDES * _TINY
    if e is None:
        order, starts, c = lay.order, lay.starts, lay.cols
    else:  # the layout's column order, restricted to the entries propagated
        at_e = np.full(nnz, -1)
        at_e[e] = np.arange(e.size)
        order = at_e[lay.order]
        order = order[order >= 0]
        j = G.indices[e][order]
        first = np.ones(e.size, dtype=bool)
        first[1:] = j[1:] != j[:-1]
        starts = np.flatnonzero(first)
        c = j[starts]
    hi[c] = np.minimum(hi[c], np.minimum.reduceat(new[0][order], starts))
    lo[c] = np.maximum(lo[c], np.maximum.reduceat(new[1][order], starts))


def _propagate_below(cols: np.ndarray, g: np.ndarray, bound: float, gam: float,
                     lo: np.ndarray, hi: np.ndarray) -> None:
    """:func:`_propagate` for the one row ``g' z[cols] <= bound`` (``cols`` distinct, every
    entry counted in the row's length, ``gam = gamma_{len + 3}``), in place: the same
    arithmetic without the sparse layout (a row whose coefficients change every round,
    the Lagrangian cut of :func:`_primal_box`).  A zero coefficient bounds nothing."""
    if cols.size == 0:
        return
    lj, hj = lo[cols], hi[cols]
    at = np.zeros(cols.size, dtype=np.intp)  # one row: sums in the order bincount adds
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        tmin = np.where(g > 0, g * lj, np.where(g < 0, g * hj, 0.0))
        tmax = np.where(g > 0, g * hj, np.where(g < 0, g * lj, 0.0))
        fin = np.isfinite(tmin)
        fmin = np.where(fin, tmin, 0.0)
        fmax = np.where(np.isfinite(tmax), tmax, 0.0)
        open_ = np.count_nonzero(~fin)
        smin = np.bincount(at, weights=fmin, minlength=1)[0]
        mag = np.bincount(at, weights=np.abs(fmin) + np.abs(fmax), minlength=1)[0]
        err = gam * (mag + 0.0 + (abs(bound) if math.isfinite(bound) else 0.0)) + _TINY
        rest = np.where(open_ - ~fin == 0, smin - fmin, -np.inf)
        up = (bound - rest + err) / g
        new_hi = np.where(g > 0, up, np.inf)
        new_lo = np.where(g < 0, up, -np.inf)
        new_hi[np.isnan(new_hi)] = np.inf
        new_lo[np.isnan(new_lo)] = -np.inf
        new_hi = new_hi + np.abs(new_hi) * 4 * _U + _TINY
        new_lo = new_lo - np.abs(new_lo) * 4 * _U - _TINY
    hi[cols] = np.minimum(hj, new_hi)
    lo[cols] = np.maximum(lj, new_lo)


#: the number of entries from which :func:`_tighten` propagates only the rows whose
#: columns moved, and leaves a trickle (below it the selection costs more than it
#: saves, and a round costs little)
_LARGE_NNZ = 20000


def _moved(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """Which bounds became finite or moved by more than 1e-3 of their size (the rows of
    the others are not propagated again: what they would add is at most that small)."""
    with np.errstate(invalid="ignore"):
        return (np.isfinite(before) != np.isfinite(after)) | (
            np.abs(after - before) > 1e-3 * (1.0 + np.abs(before)))


def _tighten(G, rlo, rhi, lo, hi, cone_rule, extra_rule=None, rounds: int = 20,
             done: Callable[[np.ndarray, np.ndarray], bool] | None = None) -> None:
    """Rounds of :func:`_propagate` and the cone rules until no bound becomes finite and
    none moves by more than 1e-3 of its size (a box only multiplies residuals of the order
    of the solver's accuracy: a few per cent of looseness costs nothing, more rounds do),
    or until ``done(lo, hi)`` says the box is good enough for its user.
    Under the caller's deadline (:mod:`convexkern.math.budget`) a round is begun only when
    it fits what is left and the deadline's grace (:func:`~convexkern.math.budget.fits`):
    every round's box is valid, later ones only tighter."""
    if not fits(PASS_SECONDS * (G.nnz + G.shape[1])):
        return  # not even one round fits what is left: the box stays as it is
    layout = _Layout(G)
    last: np.ndarray | None = None  # the box the previous round's rows were propagated on
    after: np.ndarray | None = None  # the box at the end of the previous round
    for k in range(rounds):
        if k > 0 and not fits(PASS_SECONDS * (G.nnz + G.shape[1])):
            break  # a round cannot be interrupted: none begun that ends past the deadline
        before = np.concatenate([lo, hi]) if after is None else after
        fin_before = np.isfinite(before)
        if extra_rule is not None:
            extra_rule(lo, hi)
        rows_on = None
        if G.nnz >= _LARGE_NNZ:
            now = np.concatenate([lo, hi])
            if last is not None:  # only rows with a column that moved since
                moved = _moved(last, now)
                moved = moved[: lo.size] | moved[lo.size:]
                rows_on = np.bincount(layout.rows, weights=moved[G.indices],
                                      minlength=G.shape[0]) > 0
            last = now
        _propagate(G, rlo, rhi, lo, hi, layout, rows_on)
        cone_rule(lo, hi)
        after = np.concatenate([lo, hi])
        fin_after = np.isfinite(after)
        if G.nnz < _LARGE_NNZ and not fin_after.all() and 0 < np.count_nonzero(
                fin_after & ~fin_before) < 15 + G.nnz / 30:
            # a trickle of new bounds, a link of a chain a round (SC50A: 15 rounds): the
            # chains of rows with at most one open term closed in one pass instead, a
            # Python step per bound (~10 us, against a round's ~150 us + 0.3 us an entry)
            if close_chains(G, rlo, rhi, lo, hi):
                after = np.concatenate([lo, hi])
                fin_after = np.isfinite(after)
        both = fin_before & fin_after
        newly = np.count_nonzero(fin_after & ~fin_before)
        # on a large G, a trickle (a triangular chain closing a bound or two a round)
        # that the rounds left could not carry through half of the open bounds is not
        # followed (on a small one a round costs little, and the chain's end may matter)
        trickle = k >= 2 and G.nnz >= _LARGE_NNZ and newly * (
            rounds - k - 1) < 0.5 * np.count_nonzero(~fin_after)
        if (newly == 0 or trickle) and np.all(np.abs(after[both] - before[both])
                                              <= 1e-3 * (1.0 + np.abs(before[both]))):
            break
        if done is not None and k + 1 < rounds and done(lo, hi):
            break


def _off_diagonal(P: sp.csr_matrix) -> bool:
    """Whether the CSR matrix ``P`` has a nonzero entry off its diagonal."""
    rows = np.repeat(np.arange(P.shape[0]), np.diff(P.indptr))
    return bool(np.any((P.indices != rows) & (P.data != 0)))


#: the most entries of the padded table of rows :func:`_pair_sums` groups (32 MB of values)
_PAIR_ENTRIES = 4_000_000


def _pair_sums(data: ConicData) -> tuple[sp.csr_matrix, np.ndarray] | None:
    """Sums of two nonnegative rows over the same columns that cancel some of them, as
    rows over ``(x, s)`` with their right-hand sides (``None``: no such pair).  cvxpy
    writes ``|v| <= t`` (``abs``, ``norm1``, ``huber``) as ``t - v >= 0`` and
    ``t + v >= 0``: neither row bounds ``t`` alone, their sum ``2t = s_i + s_j >= 0``
    does, and with it the objective cut bounds ``t`` and ``v``.  Only sums exact in
    floating point are kept (every coefficient and the right-hand side: ``(a + b) - a ==
    b`` and ``(a + b) - b == a``), so the derived row is as valid as the two it adds."""
    A = data.A
    rows = np.arange(data.zero, data.zero + data.nonneg)
    lens = np.diff(A.indptr)[rows]
    rows, lens = rows[lens >= 2], lens[lens >= 2]
    if rows.size < 2 or not A.has_sorted_indices:
        return None
    # rows as wide as the padded table allows (_PAIR_ENTRIES): a least absolute deviation
    # fit with p features has rows of p + 1 entries (16 was the cap, so p >= 16 had no box)
    ls = np.sort(lens)
    fits_ = np.flatnonzero(np.arange(1, ls.size + 1) * ls <= _PAIR_ENTRIES)
    if fits_.size == 0:
        return None
    rows = rows[lens <= ls[fits_[-1]]]
    if rows.size < 2:
        return None
    rows = rows[_alike_rows(A, rows)]  # only rows that may share their columns
    if rows.size < 2:
        return None
    # each row's columns and values, padded to one width; rows grouped by their columns
    length = np.diff(A.indptr)[rows]
    slot = np.arange(int(length.max()))
    valid = slot[None, :] < length[:, None]
    at = np.where(valid, A.indptr[rows][:, None] + slot[None, :], 0)
    C = np.where(valid, A.indices[at], -1)
    V = np.where(valid, A.data[at], 0.0)
    # rows sorted by their columns (lexicographically; ties in row order), so a group's
    # rows are together: the order of a stable sort by np.unique's group numbers
    order = np.lexsort(C.T[::-1])
    Cs = C[order]
    group = np.cumsum(np.concatenate([[True], np.any(Cs[1:] != Cs[:-1], axis=1)]))
    same = np.flatnonzero(group[:-1] == group[1:])
    same = same[np.diff(np.concatenate([[-2], same])) > 1]  # one pair per group
    i, j = order[same], order[same + 1]
    sv, bi, bj = V[i] + V[j], data.b[rows[i]], data.b[rows[j]]
    sb = bi + bj
    ok = (np.any((sv == 0) & valid[i], axis=1)
          & np.all((sv - V[i] == V[j]) & (sv - V[j] == V[i]), axis=1)
          & (sb - bi == bj) & (sb - bj == bi))
    if not ok.any():
        return None
    i, j, sv, sb = i[ok], j[ok], sv[ok], sb[ok]
    pair, pos = np.nonzero((sv != 0) & valid[i])
    k, (m, n) = np.arange(i.size), A.shape
    G = sp.csr_matrix((np.concatenate([sv[pair, pos], np.ones(2 * i.size)]),
                       (np.concatenate([pair, k, k]),
                        np.concatenate([C[i[pair], pos], n + rows[i], n + rows[j]]))),
                      shape=(i.size, n + m))
    return G, sb


def _alike_rows(A: sp.csr_matrix, rows: np.ndarray) -> np.ndarray:
    """Which of ``rows`` of ``A`` may be over the same columns as another of them: rows
    over the same columns share their length and the sums of their column indices and of
    those squared, so a row alike in these to no other is in no pair (a few array operations
    before the sort of the padded table in :func:`_pair_sums`, which then holds only the
    rows marked: Netlib ISRAEL's sort of all its rows took 3.8 ms)."""
    pos, indptr = row_positions(A, rows)
    owner = np.repeat(np.arange(rows.size), np.diff(indptr))
    j = A.indices[pos].astype(np.float64)
    sig = np.stack([np.diff(indptr).astype(np.float64),
                    np.bincount(owner, weights=j, minlength=rows.size),
                    np.bincount(owner, weights=j * j, minlength=rows.size)])
    order = np.lexsort(sig)
    s = sig[:, order]
    same = np.all(s[:, 1:] == s[:, :-1], axis=0)
    mark = np.zeros(rows.size, dtype=bool)
    mark[order[1:][same]] = True
    mark[order[:-1][same]] = True
    return mark


def _rows_with_slacks(data: ConicData, cut: bool) -> sp.csr_matrix:
    """``[A I]`` (the rows ``A x + s = b`` over ``(x, s)``), with the objective row
    ``[c' 0]`` below when ``cut``, assembled from ``A``'s CSR arrays directly (``A`` has
    no stored zeros; the objective row keeps only ``c``'s nonzeros)."""
    m, n = data.A.shape
    A = data.A
    counts = np.diff(A.indptr) + 1
    indptr = np.concatenate([[0], np.cumsum(counts)])
    indices = np.empty(indptr[-1], dtype=np.int64)
    values = np.empty(indptr[-1])
    slack_at = indptr[1:] - 1  # each row's last entry: its slack
    body = np.ones(indptr[-1], dtype=bool)
    body[slack_at] = False
    indices[body], values[body] = A.indices, A.data
    indices[slack_at], values[slack_at] = n + np.arange(m), 1.0
    if cut:
        cj = np.flatnonzero(data.c)
        indptr = np.append(indptr, indptr[-1] + cj.size)
        indices = np.concatenate([indices, cj])
        values = np.concatenate([values, data.c[cj]])
    return sp.csr_matrix((values, indices, indptr), shape=(m + int(cut), n + m))


def _psd_P_exact(P: sp.csr_matrix | None) -> bool:
    """``P`` is PSD without round-off doubt: zero, diagonal with nonnegative entries, or a
    dense block verified positive definite (:func:`psd_margin`)."""
    if P is None:
        return True
    cached = getattr(P, "_ck_psd_exact", None)
    if cached is not None:
        return cached
    out = psd_margin(P) is not None if _off_diagonal(P) else bool(np.all(P.diagonal() >= 0))
    try:
        P._ck_psd_exact = out  # type: ignore[attr-defined]
    except AttributeError:
        pass
    return out


def _p_shift(P: sp.csr_matrix | None) -> float:
    """A verified ``t >= 0`` with ``P + t I`` PSD (0 when ``P`` is exactly PSD)."""
    if _psd_P_exact(P):
        return 0.0
    assert P is not None
    used = np.flatnonzero(np.diff(P.indptr) > 0)
    sub = P[used][:, used].toarray()
    if sub.shape[0] > 6000:
        return math.inf
    sub = 0.5 * (sub + sub.T)
    if not np.array_equal(sub, P[used][:, used].toarray()):
        return math.inf  # not symmetric: the quadratic form is not what cvxpy declared
    return psd_shift(sub)


#: the largest block of ``P`` whose definiteness is verified (a dense eigenvalue and a
#: Cholesky: about a second at this size on 2 cores)
_DENSE_P_LIMIT = 1500


#: the largest singular block whose semidefiniteness is decided in exact arithmetic
_EXACT_P_LIMIT = 40


def _exactly_psd(block: np.ndarray, budget_s: float = 0.25) -> bool:
    """Whether the symmetric float matrix ``block`` is PSD, decided exactly: symmetric
    Gaussian elimination in rational arithmetic (every float is a rational), the largest
    remaining diagonal as pivot; PSD iff no pivot is negative and, once the largest is 0,
    what remains is 0.  A singular PSD quadratic written with integer-like entries (a sum
    of squares of differences, a Maros-Meszaros Q) passes here where any floating-point
    test must leave a margin.  ``False`` also when it runs past ``budget_s``."""
    import time
    from fractions import Fraction

    t0 = time.perf_counter()
    M = [[Fraction(float(v)) for v in row] for row in block]
    active = list(range(block.shape[0]))
    while active:
        if time.perf_counter() - t0 > budget_s:
            return False
        k = max(active, key=lambda i: M[i][i])
        d = M[k][k]
        if d < 0:
            return False
        if d == 0:
            return all(M[i][j] == 0 for i in active for j in active)
        active.remove(k)
        rowk = M[k]
        for i in active:
            if rowk[i] == 0:
                continue
            f, Mi = rowk[i] / d, M[i]
            for j in active:
                if rowk[j] != 0:
                    Mi[j] -= f * rowk[j]
    return True


def psd_margin(P: sp.csr_matrix) -> float | None:
    """A verified ``mu >= 0`` with ``P_S - mu I`` positive semidefinite on the block ``S``
    of ``P``'s nonzero rows and columns (Rump's Cholesky test, :func:`psd_shift`), or
    ``None`` when none is verified (not symmetric, too large, or not PSD).  Cached on
    ``P``."""
    cached = getattr(P, "_ck_psd_margin", False)
    if cached is not False:
        return cached
    from .cones import psd_shift

    Pr = sp.csr_matrix(P)
    used = np.flatnonzero(np.diff(Pr.indptr) > 0)
    out: float | None = None
    if 0 < used.size <= _DENSE_P_LIMIT:
        block = take(Pr, used, used).toarray()  # P[used][:, used], as SciPy selects
        if np.array_equal(block, block.T):
            lam = float(scipy.linalg.eigvalsh(block, subset_by_index=[0, 0])[0])
            if lam > 0 and psd_shift(block, 0.5 * lam) == 0.0:
                out = 0.5 * lam
            elif psd_shift(block) == 0.0 or (used.size <= _EXACT_P_LIMIT
                                             and _exactly_psd(block)):
                out = 0.0
    try:
        P._ck_psd_margin = out  # type: ignore[attr-defined]
    except AttributeError:
        pass
    return out


def _lagrangian_cut(data: ConicData, x: np.ndarray, y: np.ndarray, upper: float):
    """The cut ``r'x' <= R`` that every feasible ``x'`` with objective ``<= upper``
    satisfies, from weak duality with the multipliers ``y`` (in ``K*``) of all rows but
    the bound-like ones (a nonneg row with one entry): ``f(x') >= r'x' - b_S'y_S -
    1/2 x'Px`` with ``r = c + Px + A_S'y_S`` (``P`` exactly PSD).  Without the bound
    rows' multipliers ``r`` holds the reduced costs, which bound the variables those
    rows leave open (Lagrangian bound tightening).  Returns ``(r, err, R)``: the computed
    coefficients, their rounding bound and the right-hand side rounded up."""
    rows = nonneg_rows(data)
    single = np.flatnonzero(np.diff(rows.indptr) == 1) + data.zero
    yS = y.copy()
    yS[single] = 0.0
    At = transposed(data)
    r = data.c + At @ yS
    mag = np.abs(data.c) + abs_mv(At, yS)
    k = np.diff(At.indptr) + 2
    q = 0.0
    eq = 0.0
    if data.P is not None:
        Px = data.P @ x
        r = r + Px
        mag = mag + abs_mv(data.P, x)
        k = k + np.diff(data.P.indptr) + 1
        pq = x * Px
        q = math.fsum(pq.tolist())
        eq = float(np.sum(np.abs(pq))) * float(_gamma(int(np.max(k)) + 2)) + _TINY
    err = np.where(mag > 0, _gamma(k) * mag + _TINY, 0.0)
    by = yS * data.b
    bsum = math.fsum(by.tolist())
    R = upper + bsum + 0.5 * q
    eR = (float(np.sum(np.abs(by))) * 2 * _U + 0.5 * eq
          + 8 * _U * (abs(upper) + abs(bsum) + abs(q)) + _TINY)
    return r, err, _up(R + eR)


#: the most columns of one second-order block's tail whose Gram matrix is factorised
_SOC_NORM_LIMIT = 1500


def _tail_columns(data: ConicData, i: int, k: int) -> np.ndarray:
    """The columns of the tail rows of the second-order block at row ``i`` (size ``k``)."""
    return cached(data, f"soc_tail_{i}", lambda: np.unique(data.A[i + 1: i + k].indices))


def _soc_norm(data: ConicData, i: int, k: int) -> tuple[float, float] | None:
    """For the second-order block at row ``i`` (size ``k``) whose tail rows ``T`` have
    full column rank on their columns ``S``: ``(sqrt(mu), |b_T|)``, ``mu`` a verified
    lower bound on the smallest eigenvalue of ``M'M`` (``M = A[T][:, S]``; Rump's test on
    the computed product, less its rounding bound ``gamma_|T| | |M|'|M| |_F``), ``|b_T|``
    rounded up; ``None`` otherwise.  The tail ``b_T - M x_S`` is at most the head in
    norm, so ``|x_S| <= (head + |b_T|) / sqrt(mu)``: the box of a quadratic written as a
    cone (ECOS's and QOCO's ``t >= |L x|^2``), as the ``quadratic`` rule gives it for
    ``P``.  Once per form and block."""
    def make() -> tuple[float, ...]:  # () when there is no rule (None is not cached)
        from .cones import psd_shift

        cols = _tail_columns(data, i, k)
        if cols.size == 0 or cols.size > min(k - 1, _SOC_NORM_LIMIT):
            return ()
        M = data.A[i + 1: i + k][:, cols].tocsc()
        G = (M.T @ M).toarray()
        lam = float(scipy.linalg.eigvalsh(G, subset_by_index=[0, 0])[0])
        if not lam > 0 or psd_shift(G, 0.5 * lam) != 0.0:
            return ()
        absM = abs(M)
        err = float(_gamma(k + 2)) * norm_up((absM.T @ absM).toarray())
        mu = 0.5 * lam - _up(err * (1.0 + 4 * _U))
        if not mu > 0:
            return ()
        bnorm = _up(norm_up(data.b[i + 1: i + k]) * (1.0 + float(_gamma(k + 2))))
        return math.sqrt(mu) * (1.0 - 4 * _U), bnorm
    out = cached(data, f"soc_norm_{i}", make)
    return (out[0], out[1]) if out else None


def _diagonal_tails(data: ConicData, socs: list[tuple[int, int]]
                    ) -> tuple[np.ndarray, ...]:
    """The rule of :func:`_soc_norm` for every second-order block whose tail rows hold at
    most one entry each, at once: ``M'M`` is then diagonal, its smallest eigenvalue the
    smallest column sum of squares ``sum_r a_rj^2``, a sum of nonnegative products whose
    computed value is within ``gamma_{c+1}`` of it (``c`` terms), so nothing is
    factorised.  ECOS's and QOCO's form of a Huber regression has 20,000 such blocks of
    size 3 (``|(2 n_i, t_i - 1)| <= t_i + 1``), which the per-block rule took 21 s to
    visit.  Returns ``(head rows, block of each (block, column) pair, its column,
    sqrt(mu) rounded down, |b_T| rounded up, positions in socs of the blocks taken)``."""
    def make() -> tuple[np.ndarray, ...]:
        starts = np.array([i + 1 for i, _ in socs], dtype=np.intp)
        lengths = np.array([k - 1 for _, k in socs], dtype=np.intp)
        offsets = np.concatenate([[0], np.cumsum(lengths)])
        owner = np.repeat(np.arange(len(socs)), lengths)  # block of each tail row
        rows = np.arange(offsets[-1]) - np.repeat(offsets[:-1] - starts, lengths)
        T = data.A[rows].tocsr()
        T.eliminate_zeros()
        per_row = np.diff(T.indptr)
        ok = (np.bincount(owner, weights=per_row > 1, minlength=len(socs)) == 0) & (
            np.bincount(owner, weights=per_row, minlength=len(socs)) > 0)
        keep = ok[owner] & (per_row == 1)
        blk = owner[keep]
        col = T.indices[T.indptr[:-1][keep]]
        val = T.data[T.indptr[:-1][keep]]
        # one (block, column) pair per distinct column of a block: the root of its sum of
        # squares, from below; each sum scaled by its largest entry (unscaled, a square
        # below 1e-154 underflows, and a subnormal one can round up: a box too small)
        key, inv = np.unique(blk * np.int64(data.c.size) + col, return_inverse=True)
        root = _scaled_roots(inv, np.abs(val), key.size, down=True)
        pb = key // data.c.size
        pc = key % data.c.size
        mu_root = np.full(len(socs), np.inf)
        np.minimum.at(mu_root, pb, root)
        bnorm = _scaled_roots(owner, np.abs(data.b[rows]), len(socs), down=False)
        taken = np.flatnonzero(ok & (mu_root > _TINY) & np.isfinite(mu_root))
        where = np.full(len(socs), -1)
        where[taken] = np.arange(taken.size)
        sel = where[pb] >= 0
        heads = np.array([i for i, _ in socs], dtype=np.intp)[taken]
        return heads, where[pb[sel]], pc[sel], mu_root[taken], bnorm[taken], taken
    return cached(data, "soc_diagonal_tails", make)


def _scaled_roots(group: np.ndarray, mag: np.ndarray, size: int, down: bool) -> np.ndarray:
    """For each group ``g < size``, a bound on ``sqrt(sum mag_i^2)`` over its entries
    (``mag >= 0``), from below with ``down`` (a result under :data:`_TINY` is not to be
    trusted: the caller takes none), else from above; 0 for a group of zeros, inf and NaN
    as they came.  Entries are divided by their group's largest first (a sum in ``[1,
    count]``: no square underflows or overflows); ``gamma_{count+4}`` covers the rest."""
    top = np.zeros(size)
    np.maximum.at(top, group, mag)
    safe = np.where((top > 0) & np.isfinite(top), top, 1.0)
    cnt = np.bincount(group, minlength=size)
    t = np.bincount(group, weights=(mag / safe[group]) ** 2, minlength=size)
    g = _gamma(cnt + 4)
    with np.errstate(invalid="ignore"):
        if down:
            out = np.sqrt(t * (1.0 - g)) * safe * (1.0 - 4 * _U)
        else:
            out = np.nextafter(np.sqrt(t) * safe * (1.0 + g), np.inf) + (cnt + 4) * 5e-324
    return np.where(top == 0, 0.0, np.where(np.isfinite(top), out, top))


def _primal_box(data: ConicData, upper: float, x: np.ndarray | None = None,
                y: np.ndarray | None = None,
                done: Callable[[np.ndarray, np.ndarray], bool] | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """A box holding every feasible ``x`` with ``c'x + 1/2 x'Px <= upper`` (the objective
    cut is used only when ``P`` is exactly PSD, so that ``c'x <= upper`` follows; with a
    point ``x`` and multipliers ``y`` in ``K*``, also the cut of :func:`_lagrangian_cut`).
    ``done(lo, hi)`` (on the columns' bounds) ends the rounds early (:func:`_tighten`)."""
    m, n = data.A.shape
    rlo, rhi = data.b.copy(), data.b.copy()
    cut = math.isfinite(upper) and _psd_P_exact(data.P)
    G = _rows_with_slacks(data, cut)
    if cut:
        rlo = np.append(rlo, -np.inf)
        rhi = np.append(rhi, _up(upper))
    pairs = cached(data, "pair_sums", lambda: _pair_sums(data) or ())
    if pairs:
        G = sp.vstack([G, pairs[0]], format="csr")
        rlo, rhi = np.append(rlo, pairs[1]), np.append(rhi, pairs[1])
    lo = np.full(n + m, -np.inf)
    hi = np.full(n + m, np.inf)
    # a box already computed on this form for an objective level at least as high holds
    # every point this one must (its set is larger): the rounds start from it
    held = upper if cut else math.inf
    prev = data.cache.get("primal_box")
    if prev is not None and prev[0] >= held:
        lo, hi = prev[1].copy(), prev[2].copy()
    if data.lb is not None:
        lo[:n] = np.maximum(lo[:n], data.lb)
    if data.ub is not None:
        hi[:n] = np.minimum(hi[:n], data.ub)
    rules = []
    if cut and x is not None and y is not None:
        r_l, e_l, R_l = _lagrangian_cut(data, x, y, upper)
        cols = np.flatnonzero((r_l != 0) | (e_l != 0))
        gam = _gamma(cols.size + 3)

        def lagrangian(lo_: np.ndarray, hi_: np.ndarray) -> None:
            # the true coefficient is within e of r: take its worst case on each column's
            # sign, and pay e |x_j| on the right for a column of either sign
            lj, hj = lo_[cols], hi_[cols]
            rho = np.where(lj >= 0, r_l[cols] - e_l[cols],
                           np.where(hj <= 0, r_l[cols] + e_l[cols], r_l[cols]))
            mixed = (lj < 0) & (hj > 0) & (e_l[cols] > 0)
            with np.errstate(invalid="ignore"):
                pay = float(np.sum(e_l[cols][mixed] * np.maximum(-lj[mixed], hj[mixed])))
            if not math.isfinite(pay):
                return
            _propagate_below(cols, rho, _up(R_l + pay * (1 + 4 * _U)), gam, lo_, hi_)

        rules.append(lagrangian)
    if cut and data.P is not None:
        diag = data.P.diagonal()
        iso = np.flatnonzero(diag > 0)
        c = data.c
        dense = _off_diagonal(data.P)
        mu = psd_margin(data.P) if dense else None
        if dense:  # 1/2 mu |x_S|^2 <= 1/2 x'Px: every column of the block S alike
            iso = np.flatnonzero(np.diff(sp.csr_matrix(data.P).indptr) > 0)

        def quadratic(lo_: np.ndarray, hi_: np.ndarray) -> None:
            # 1/2 P_jj x_j^2 <= upper - min c'x  (P diagonal and PSD)
            with np.errstate(invalid="ignore"):
                cmin = np.where(c > 0, c * lo_[:n], c * hi_[:n])
            cmin = np.where(c == 0, 0.0, cmin)
            if not np.all(np.isfinite(cmin)):
                return
            slack = upper - float(np.sum(cmin))
            slack = slack + abs(slack) * 8 * _U + float(_gamma(n + 3)) * float(
                np.sum(np.abs(cmin))) + _TINY
            if slack < 0:
                return
            if dense and not (mu is not None and mu > 0):
                return
            scale = np.full(iso.size, mu) if dense else diag[iso]
            r = np.sqrt(2.0 * slack / scale) * (1.0 + 8 * _U)
            hi_[iso] = np.minimum(hi_[iso], r)
            lo_[iso] = np.maximum(lo_[iso], -r)

        rules.append(quadratic)
    socs = [(i, k) for kind, i, k in data.blocks if kind == "soc" and k >= 3]
    if socs:
        heads, pb, pc, d_root, d_bnorm, taken = _diagonal_tails(data, socs)
        rest = np.delete(np.arange(len(socs)), taken)

        def euclid(lo_: np.ndarray, hi_: np.ndarray) -> None:
            # |M x_S| = |b_T - s_T| <= s_0 + |b_T| and |M x_S|^2 >= mu |x_S|^2; a block's
            # mu is computed only once one of its columns is open
            if np.all(np.isfinite(lo_[:n])) and np.all(np.isfinite(hi_[:n])):
                return
            if heads.size:  # the blocks with a diagonal M'M, all at once
                h = np.nextafter(np.maximum(hi_[n + heads], 0.0) + d_bnorm, np.inf)
                r = np.nextafter(h / d_root * (1.0 + 4 * _U), np.inf)[pb]
                np.minimum.at(hi_, pc, r)
                np.maximum.at(lo_, pc, -r)
            for i, k in (socs[t] for t in rest.tolist()):
                h = hi_[n + i]
                cols = _tail_columns(data, i, k)
                if not math.isfinite(h) or (np.all(np.isfinite(lo_[cols]))
                                            and np.all(np.isfinite(hi_[cols]))):
                    continue
                norm = _soc_norm(data, i, k)
                if norm is None:
                    continue
                root_mu, bnorm = norm
                r = _up(_up(max(h, 0.0) + bnorm) / root_mu * (1.0 + 4 * _U))
                hi_[cols] = np.minimum(hi_[cols], r)
                lo_[cols] = np.maximum(lo_[cols], -r)

        rules.append(euclid)

    def extra(lo_: np.ndarray, hi_: np.ndarray) -> None:
        for rule in rules:
            rule(lo_, hi_)

    _tighten(G, rlo, rhi, lo, hi, lambda a, b_: _cone_box(a, b_, data, n, dual=False),
             extra, done=None if done is None else lambda a, b_: done(a[:n], b_[:n]))
    if prev is None or held <= prev[0]:
        data.cache["primal_box"] = (held, lo.copy(), hi.copy())
    return lo[:n], hi[:n]


def _dual_box(data: ConicData, lower: float) -> tuple[np.ndarray, np.ndarray]:
    """A box holding every dual feasible ``y`` with dual objective ``>= lower`` (both
    without the offset ``d``): ``A'y + Pw = -c``, ``y in K*``, ``b'y <= -lower``."""
    m, n = data.A.shape
    G = transposed(data)
    rlo, rhi = -data.c.copy(), -data.c.copy()
    pcols = np.zeros(n, dtype=bool)
    pdiag = np.zeros(n)
    if data.P is not None:
        pcols = np.diff(data.P.tocsc().indptr) > 0
        pdiag = np.maximum(data.P.diagonal(), 0.0)
    # a column with a native bound has a multiplier of its own: its row becomes one-sided
    # (c + A'y + Pw)_j >= 0 with a lower bound only, <= 0 with an upper bound only
    has_lo = np.zeros(n, dtype=bool) if data.lb is None else np.isfinite(data.lb)
    has_hi = np.zeros(n, dtype=bool) if data.ub is None else np.isfinite(data.ub)
    rhi = np.where(has_lo, np.inf, rhi)
    rlo = np.where(has_hi, -np.inf, rlo)
    keep = ~(has_lo & has_hi)
    G = G[keep]
    rlo, rhi = rlo[keep], rhi[keep]
    pc, pdg = pcols[keep], pdiag[keep]
    rlo[pc], rhi[pc] = -np.inf, np.inf
    # with native bounds the dual objective has terms of their own: no cut then
    cut = math.isfinite(lower) and data.lb is None and data.ub is None
    if cut:
        G = sp.vstack([G, sp.csr_matrix(data.b[None, :])], format="csr")
        G.eliminate_zeros()
        rlo = np.append(rlo, -np.inf)
        rhi = np.append(rhi, _up(-lower))
    lo = np.full(m, -np.inf)
    hi = np.full(m, np.inf)
    b = data.b
    rows_p = np.flatnonzero(pc)
    cneg = -data.c[keep][rows_p]

    def extra(lo_: np.ndarray, hi_: np.ndarray) -> None:
        # (Pw)_j in [-sqrt(P_jj) R, sqrt(P_jj) R] (Cauchy-Schwarz in the P semi-norm) with
        # R^2 = w'Pw <= 2(-lower - b'y), as the cut -b'y - 1/2 w'Pw >= lower says
        if not (cut and rows_p.size):
            return
        with np.errstate(invalid="ignore"):
            bmin = np.where(b > 0, b * lo_, b * hi_)
        bmin = np.where(b == 0, 0.0, bmin)
        if not np.all(np.isfinite(bmin)):
            return
        q = -lower - float(np.sum(bmin))
        q = q + abs(q) * 8 * _U + float(_gamma(m + 3)) * float(np.sum(np.abs(bmin))) + _TINY
        if q < 0:
            return
        rad = np.sqrt(pdg[rows_p] * 2.0 * q) * (1.0 + 8 * _U)
        slack = np.abs(cneg) * 4 * _U + _TINY
        rlo[rows_p] = np.where(has_hi[keep][rows_p], -np.inf, cneg - rad - slack)
        rhi[rows_p] = np.where(has_lo[keep][rows_p], np.inf, cneg + rad + slack)

    _tighten(G, rlo, rhi, lo, hi, lambda a, b_: _cone_box(a, b_, data, 0, dual=True), extra)
    return lo, hi

