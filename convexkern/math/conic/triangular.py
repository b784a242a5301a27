"""A triangular basis of the equality rows, found by peeling column singletons, and the
componentwise enclosure of the correction it gives: the exact correction of
:func:`~convexkern.math.conic.fix.equality_fix` for more rows than a dense factorisation
can take.

cvxpy's conic form gives most equality rows an auxiliary column of their own (``X - A =
Z`` in a nearest-matrix problem), but not all: the rows ``diag(X) = 1`` of a nearest
correlation matrix share their ``X_ii`` with the rows ``Z_ii = X_ii - A_ii``, so no
diagonal basis exists (:func:`~convexkern.math.conic.bordered._diagonal_basis`), and the
2550 rows of a 50 x 50 problem are too many to factorise densely.  Peeling does: a column
with one nonzero among the rows still in play takes that row (the roomiest such column of
the row), the row leaves, and the columns it touched may become singletons in turn.
When every row is taken, the basis ``M = A_E[:, B]`` is block upper triangular by rounds:
a row taken in round ``t`` touches no column taken in an earlier round (that column's only
row in play was its own), and among the columns of its own round only its own (the others
were singletons of other rows).

The correction ``M delta = r`` is then solved by rounds, the last first; since every
stored entry is exact, ``|delta_c| <= (|r_i| + sum_k |M_ik| |delta_k|) / |M_ic|`` over the
row ``i`` of ``c`` and the columns ``k`` of later rounds holds for the true solution with
``|r| <= rhs_abs``, and is rounded upward (the sum's ``gamma`` bound, the division's
ulp).  No inverse and no Krawczyk step: the bound is exact arithmetic on the rounding
model.  A chain of ``k`` rows takes ``k`` rounds; each round is one sparse product.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .data import _TINY, _U, _gamma, entries, row_positions, rows_dot

__all__ = ["Peeled", "forward_peel", "triangular_basis", "triangular_radius"]


class Peeled:
    """A triangular basis: ``rounds`` of ``(rows, cols)`` (row ``rows[j]`` solved for column
    ``cols[j]``), the basis columns ``B`` in round order, ``|A_E[:, B]|`` as CSR (its
    columns in the order of ``B``), the pivots ``|A_E[rows[j], cols[j]]|`` in the same
    order and each row's number of stored entries."""

    def __init__(self, AE: sp.csr_matrix, rounds: list[tuple[np.ndarray, np.ndarray]],
                 core: np.ndarray | None = None) -> None:
        self.rounds = rounds
        empty = np.zeros(0, dtype=np.intp)
        self.rows = np.concatenate([r for r, _ in rounds]) if rounds else empty
        self.B = np.concatenate([c for _, c in rounds]) if rounds else empty
        self.core = empty if core is None else core  # rows no singleton took
        self.A = AE
        self.M = abs(AE[:, self.B]).tocsr()
        self.pivot = np.abs(entries(AE, self.rows, self.B))
        self.length = np.diff(AE.indptr)


def triangular_basis(AE: sp.csr_matrix, room: np.ndarray, max_rounds: int = 10_000,
                     partial: bool = False) -> Peeled | None:
    """Peel ``A_E`` (rows: the equality rows; columns with ``room > 0`` may be taken, the
    roomiest ``room * |a|`` first) into a triangular basis; ``None`` when some row is left
    without a singleton column (the dense path is then the one left) or the rounds exceed
    ``max_rounds``.  With ``partial``, the rows left are returned as ``core`` (a
    ``Peeled`` with no round when nothing peels): they contain no peeled column, so a
    basis of theirs among the other columns, solved first, completes the triangle."""
    A = sp.csr_matrix(AE, copy=True)
    A.sum_duplicates()
    A.eliminate_zeros()
    z, n = A.shape
    if z == 0:
        return None
    coo = A.tocoo()
    alive_row = np.ones(z, dtype=bool)
    free_col = room > 0
    count = np.bincount(coo.col, minlength=n)  # nonzeros among the rows in play
    rounds: list[tuple[np.ndarray, np.ndarray]] = []
    left = z
    while left:
        if len(rounds) >= max_rounds:
            return None
        single = (count == 1) & free_col
        if not single.any():
            if not partial:
                return None
            break
        # each singleton column's one entry in a row still in play
        live = single[coo.col] & alive_row[coo.row]
        cols, rows = coo.col[live], coo.row[live]
        score = room[cols] * np.abs(coo.data[live])
        order = np.lexsort((-score, rows))  # by row, the best column first
        rows, cols = rows[order], cols[order]
        first = np.ones(rows.size, dtype=bool)
        first[1:] = rows[1:] != rows[:-1]
        take_rows, take_cols = rows[first], cols[first]
        rounds.append((take_rows, take_cols))
        alive_row[take_rows] = False
        free_col[take_cols] = False
        left -= take_rows.size
        # the rows that left no longer count in their columns
        count -= np.bincount(A.indices[row_positions(A, take_rows)[0]], minlength=n)
    return Peeled(A, rounds, np.flatnonzero(alive_row))


def triangular_radius(peeled: Peeled, rhs_abs: np.ndarray,
                      core: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Componentwise enclosure ``d`` (in the order of ``peeled.B``) of ``|delta|`` for
    ``M delta = r``, ``|r| <= rhs_abs`` (indexed by the rows of ``A_E``), every operation
    rounded upward (module docstring).  ``core = (cols, radii)``: the other columns that
    move, solved first with those radii (the core rows' basis of a partial peel); the
    peeled rows pay for them as for a later round's."""
    d = np.zeros(peeled.B.size)
    extra = 0.0
    if core is not None and core[0].size:
        extra = abs(peeled.A[:, core[0]]) @ core[1]  # each row's sum over the core's columns
    spans, start = [], 0
    for rows, _ in peeled.rounds:
        spans.append((rows, start, start + rows.size))
        start += rows.size
    for rows, a, b in reversed(spans):
        # a row's other basis columns are of later rounds (d already set) or its own
        # (d still 0): the sum is over the later ones
        total = np.abs(rhs_abs[rows]) + rows_dot(peeled.M, rows, d)
        if core is not None and core[0].size:
            total = total + extra[rows]
        k = peeled.length[rows] + 2
        bound = total * (1 + _gamma(k)) / peeled.pivot[a:b] * (1 + 4 * _U)
        d[a:b] = np.nextafter(bound, np.inf) + _TINY
    return d


#: rows of at most this many entries may take a column of their own and freeze the others
_SHORT_ROW = 8


def forward_peel(S: sp.csr_matrix, room: np.ndarray, rhs_abs: np.ndarray,
                 max_rounds: int = 200
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                            np.ndarray]:
    """Rows of ``S`` (equations ``S delta = r``, ``|r| <= rhs_abs``) solved first, one
    column each, by rounds: a row with one column left that may move (``room > 0``) takes
    it; when there is none, a short row (at most ``_SHORT_ROW`` entries) none of whose
    columns another short row left holds takes one, and its other columns are frozen
    (they do not move: ``delta = 0`` there; no other short row needed them), all but a
    few such rows that stay with the columns they hold for the rows left.  A row's
    column is then fixed by the row alone, ``|delta_c| <= (|r_i| + sum_k |S_ik|
    |delta_k|) / |S_ic|`` over the columns of earlier rounds, rounded upward; within a
    round no row holds another's column.  What is left is a smaller system, on the
    columns neither taken nor frozen, whose right-hand side pays for the taken ones.
    Huber regression's dual correction on SCS (800 rows ``-u_i = r``, then 800 rows
    ``u_i - y_i = r``) and a least absolute deviation fit's on QOCO (1515 rows ``u_i +
    v_i = r``) leave only the 20 dense rows of ``x``.

    Returns ``(rows taken, their columns, radii, rows left, bound on the right-hand
    side of the rows left, the columns the rows left may use)``."""
    S = sp.csr_matrix(S, copy=True)
    S.sum_duplicates()
    S.eliminate_zeros()
    m, n = S.shape
    coo = S.tocoo()
    absS = abs(S).tocsr()
    length = np.diff(S.indptr)
    short = length <= _SHORT_ROW
    usable = np.asarray(room) > 0
    untaken = np.ones(m, dtype=bool)
    d = np.zeros(n)
    taken_rows, taken_cols = [], []
    for _ in range(max_rounds):
        live = usable[coo.col] & untaken[coo.row]
        n_live = np.bincount(coo.row[live], minlength=m)
        pick = live & (n_live[coo.row] == 1)
        freeze = False
        if not pick.any():  # a short row none of whose columns another short row holds
            in_short = np.bincount(coo.col[live & short[coo.row]], minlength=n)
            shared = np.bincount(coo.row[live & (in_short[coo.col] > 1)], minlength=m)
            pick = live & short[coo.row] & (shared[coo.row] == 0)
            freeze = True
        if not pick.any():
            break
        rows, cols = coo.row[pick], coo.col[pick]
        score = room[cols] * np.abs(coo.data[pick])
        order = np.lexsort((-score, rows))  # each row's best column first
        rows, cols = rows[order], cols[order]
        first = np.ones(rows.size, dtype=bool)
        first[1:] = rows[1:] != rows[:-1]
        rows, cols = rows[first], cols[first]
        # one row per column (rows with one column left may share it)
        cols, keep = np.unique(cols, return_index=True)
        rows = rows[keep]
        if freeze:  # some short rows are kept for the rest, so that it has columns left
            spare = 2 * int(np.count_nonzero(untaken & ~short)) + 8
            if rows.size <= spare:
                break
            kept = rows[-spare:]
            short[kept] = False  # left to the rest, with their columns
            rows, cols = rows[:-spare], cols[:-spare]
        total = np.abs(rhs_abs[rows]) + rows_dot(absS, rows, d)
        piv = np.abs(entries(S, rows, cols))
        bound = total * (1 + _gamma(length[rows] + 2)) / piv * (1 + 4 * _U)
        d[cols] = np.nextafter(bound, np.inf) + _TINY
        untaken[rows] = False
        usable[cols] = False
        if freeze:  # the rows' other columns stay where they are
            usable[S.indices[row_positions(S, rows)[0]]] = False
        taken_rows.append(rows)
        taken_cols.append(cols)
    none = np.zeros(0, dtype=np.intp)
    taken = np.concatenate(taken_rows) if taken_rows else none
    cols = np.concatenate(taken_cols) if taken_cols else none
    rest = np.flatnonzero(untaken)
    rhs_rest = (np.abs(rhs_abs[rest]) + rows_dot(absS, rest, d)) * (1 + _gamma(length[rest] + 2))
    return (taken, cols, d[cols], rest, np.nextafter(rhs_rest * (1 + 4 * _U), np.inf),
            np.flatnonzero(usable))
