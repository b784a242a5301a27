"""The exact correction of :func:`~convexkern.math.conic.fix.active_fix` when the equality
rows have a diagonal basis: the few active rows bordered on by their Schur complement.

cvxpy's conic form gives most equality rows a column of their own (an auxiliary variable
defined by its row: ``M - S = T`` in a nearest-matrix problem, a stacked SOC argument), so
``A_E[:, B_E] = D`` is diagonal on some basis ``B_E``.  Meeting those rows *and* ``k``
active inequality rows ``A_F`` exactly then needs no dense factorisation of the
``(z + k)``-row system: eliminating ``delta_B = D^{-1}(r_E - A_E[:, C] delta_C)`` leaves
the ``k x k`` system ``S delta_C = r_F - G r_E`` with ``G = A_F[:, B_E] D^{-1}`` and the
Schur complement ``S = A_F[:, C] - G A_E[:, C]`` on ``k`` further columns ``C``.

Its enclosure is Rump's (as in :func:`~convexkern.math.conic.fix._enclose_solve`) with
``S`` known only to an interval ``[S~ - E, S~ + E]`` (``E``: the rounding of ``G`` and of
the product, Higham's ``gamma`` bounds): with ``R ~ S~^{-1}`` and
``beta_i >= sum_j (|I - R S~| + |R| E)_ij``, every ``S`` in the interval has
``||S^{-1} w||_inf <= || |R||w| ||_inf / (1 - beta)`` for ``beta = max beta_i < 1``.
Then ``|delta_B| <= |D|^{-1}(|r_E| + |A_E[:, C]| |delta_C|)``.  The whole correction
costs sparse products and one ``k x |N|`` pivoted QR (``N``: the columns that may move),
where the dense path factorises ``(z + k) x |N|``: SCS's point on a 30 x 30 nearest-kernel
SDP (900 equality rows, one active trace row) 1 s to a few milliseconds.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import scipy.linalg
import scipy.sparse as sp

from ..budget import affordable
from .data import _TINY, _U, ConicData, _gamma, _up, entries, take

__all__ = ["bordered_fix"]

#: the largest ``k x |N|`` Schur block formed densely (80 MB of float64)
MAX_SCHUR_ENTRIES = 10_000_000

Slack = Callable[[ConicData, np.ndarray], tuple[np.ndarray, np.ndarray]]
Clip = Callable[[ConicData, np.ndarray], np.ndarray]


def _diagonal_basis(N: sp.csc_matrix, room: np.ndarray) -> np.ndarray | None:
    """For a sparse ``N`` (rows: equations, columns: candidate unknowns), one column per
    row that has no other nonzero among the rows, the roomiest; ``None`` if some row has
    none.  ``N[:, basis]`` is then diagonal: its inverse is exact up to one rounding."""
    Nc = sp.csc_matrix(N)
    Nc.eliminate_zeros()
    cnt = np.diff(Nc.indptr)
    single = np.flatnonzero((cnt == 1) & (room > 0))
    if single.size == 0:
        return None
    rows = Nc.indices[Nc.indptr[single]]
    score = room[single] * np.abs(Nc.data[Nc.indptr[single]])
    order = np.lexsort((-score, rows))  # by row, best first
    rows_sorted = rows[order]
    first = np.ones(order.size, dtype=bool)
    first[1:] = rows_sorted[1:] != rows_sorted[:-1]
    pick_rows = rows_sorted[first]
    if pick_rows.size != N.shape[0]:
        return None
    basis = np.empty(N.shape[0], dtype=int)
    basis[pick_rows] = single[order[first]]
    return basis


def _diagonal_radius(diag: np.ndarray, rhs_abs: np.ndarray) -> np.ndarray:
    """Componentwise enclosure radius of ``diag^{-1} r`` for ``|r| <= rhs_abs``: one
    division rounds once, so ``|r_i / a_i| <= fl(rhs_i / |a_i|)(1 + 2u)``."""
    return np.nextafter(rhs_abs / np.abs(diag) * (1 + 4 * _U), np.inf) + _TINY


class _Split:
    """The equality rows' diagonal basis and the active rows' Schur block over the
    other movable columns (all from the data and ``room``; the point is not read)."""

    def __init__(self, A: sp.csr_matrix, eq: np.ndarray, act: np.ndarray,
                 mov: np.ndarray, local: np.ndarray, room: np.ndarray) -> None:
        self.BE = mov[local]
        self.D = entries(A, eq, self.BE)
        self.N = np.setdiff1d(mov, self.BE)
        self.AE = take(A, eq).tocsc()
        AF = take(A, act)
        self.G = (take(A, act, self.BE) @ sp.diags(1.0 / self.D)).tocsr()
        self.S = (take(A, act, self.N) - self.G @ take(A, eq, self.N)).toarray()
        self.AF = AF
        self.room_N = room[self.N]
        self.idle = np.diff(take(A, act, mov).indptr) == 0


def bordered_fix(data: ConicData, x: np.ndarray, s: np.ndarray, es: np.ndarray,
                 eq: np.ndarray, act: np.ndarray, room: np.ndarray, *,
                 slack: Slack, clip: Clip
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, str] | None:
    """:func:`~convexkern.math.conic.fix.active_fix`'s correction on the equality rows
    ``eq`` (which must have a diagonal basis among the columns with ``room > 0``) and
    the active inequality rows ``act``: ``(x, B, d, inequality rows met exactly,
    reason)`` as there, or ``None`` when the structure is absent (the dense path then
    runs).  ``slack`` and ``clip`` are :func:`~convexkern.math.conic.slack.slack_bound` and
    :func:`~convexkern.math.conic.slack.clip_singletons`."""
    mov = np.flatnonzero(room > 0)
    if eq.size == 0 or mov.size == 0:
        return None
    local = _diagonal_basis(take(data.A, eq, mov).tocsc(), room[mov])
    if local is None:
        return None
    k, n_free = act.size, mov.size - eq.size
    if k * n_free > MAX_SCHUR_ENTRIES or not affordable(
            4.0 * k * k * n_free + 20.0 * data.A.nnz):
        return None
    sp_ = _Split(data.A, eq, act, mov, local, room)
    exact0 = sp_.idle & (s[act] == 0) & (es[act] == 0)
    done = act[exact0]
    live = np.flatnonzero(~sp_.idle)
    keep, C = _independent(sp_, live)
    if keep is None:
        return None
    fail = (x, np.zeros(0, dtype=int), np.zeros(0), np.zeros(0, dtype=int))
    F = act[keep]
    SC = sp_.S[np.ix_(keep, C)]
    cols = sp_.N[C]
    # two steps in floating point first (nothing rests on them: the slack is recomputed)
    for _ in range(2):
        step = _float_step(sp_, keep, cols, SC, s[eq], s[F])
        if step is None:
            break
        x2 = clip(data, x + step)
        s2, es2 = slack(data, x2)
        rows = np.concatenate([eq, F])
        if not float(np.max(np.abs(s2[rows]), initial=0.0)) < float(
                np.max(np.abs(s[rows]), initial=0.0)):
            break
        x, s, es = x2, s2, es2
    fail = (x, *fail[1:])
    v = np.abs(s) + es
    out, why = _enclose(sp_, keep, cols, SC, v[eq], v[F])
    if why:
        return *fail, f"the equality and active rows {why}"
    B, d = out
    met = np.concatenate([F, done])
    return x, B, d, met[met >= data.zero], ""


def _independent(sp_: _Split, live: np.ndarray
                 ) -> tuple[np.ndarray | None, np.ndarray]:
    """The active rows independent of the equality rows and of each other (their Schur
    rows' numerical rank, as the dense path ranks its rows), and for them as many
    columns of ``N``, the roomiest by pivoting; ``(None, _)`` when none may move."""
    none = np.zeros(0, dtype=int)
    if live.size == 0:
        return none, none
    S = sp_.S[live]
    if S.shape[1] == 0:
        return None, none
    _, Rr, prow = scipy.linalg.qr(S.T, mode="economic", pivoting=True)
    diag = np.abs(np.diag(Rr))
    rank = int(np.sum(diag > 1e-10 * diag[0])) if diag.size and diag[0] > 0 else 0
    keep = np.sort(live[prow[:rank]])
    if rank == 0:
        return keep, none
    _, Rc, pc = scipy.linalg.qr(sp_.S[keep] * sp_.room_N, mode="economic", pivoting=True)
    if np.any(np.diag(Rc)[:rank] == 0):
        return None, none
    return keep, pc[:rank]


def _float_step(sp_: _Split, keep: np.ndarray, cols: np.ndarray, SC: np.ndarray,
                rE: np.ndarray, rF: np.ndarray) -> np.ndarray | None:
    """The step meeting the rows in floating point on ``B_E`` and ``cols``."""
    step = np.zeros(sp_.AE.shape[1])
    dC = np.zeros(0)
    if keep.size:
        try:
            dC = np.linalg.solve(SC, rF - sp_.G[keep] @ rE)
        except np.linalg.LinAlgError:
            return None
        step[cols] = dC
    step[sp_.BE] = (rE - (sp_.AE[:, cols] @ dC if cols.size else 0.0)) / sp_.D
    return step if np.all(np.isfinite(step)) else None


def _enclose(sp_: _Split, keep: np.ndarray, cols: np.ndarray, SC: np.ndarray,
             vE: np.ndarray, vF: np.ndarray
             ) -> tuple[tuple[np.ndarray, np.ndarray], str]:
    """``(B, d)``: the columns and a radius with ``|delta| <= d`` for the exact
    correction of every residual ``|r| <= v`` (the module docstring's bound)."""
    z = sp_.D.size
    dC = np.zeros(0)
    AEC = sp_.AE[:, cols]
    if keep.size:
        k = keep.size
        absG = abs(sp_.G[keep])
        absAEC = abs(AEC)
        # S~ = A_F[:, C] - G~ A_E[:, C]; G~ carries two roundings (1/D, then the product)
        mag = np.abs(sp_.AF[keep][:, cols].toarray()) + (absG @ absAEC).toarray()
        E = _gamma(z + 6) * mag * (1 + float(_gamma(z + 2))) + _TINY
        try:
            R = np.linalg.inv(SC)
        except np.linalg.LinAlgError:
            return (np.zeros(0, dtype=int), np.zeros(0)), "are rank deficient"
        if not np.all(np.isfinite(R)):
            return (np.zeros(0, dtype=int), np.zeros(0)), "are rank deficient"
        aR = np.abs(R)
        off = (np.abs(np.eye(k) - R @ SC) + _gamma(k + 2) * (aR @ np.abs(SC))
               + (aR @ E) * (1 + float(_gamma(k + 2))))
        beta_i = np.sum(off, axis=1) * (1 + 4 * _U)
        beta = float(np.max(beta_i))
        if not beta < 0.5:
            return ((np.zeros(0, dtype=int), np.zeros(0)),
                    f"are too ill-conditioned to correct exactly ({beta:.2g})")
        w = (vF + absG @ vE) * (1 + float(_gamma(z + 4)))
        base = (aR @ w) * (1 + float(_gamma(k + 3)))
        dmax = _up(float(np.max(base)) / (1.0 - beta))
        dC = np.nextafter((base + beta_i * dmax) * (1 + 4 * _U), np.inf) + _TINY
    width = int(np.max(np.diff(AEC.tocsr().indptr), initial=0))
    tE = vE + (abs(AEC) @ dC if cols.size else 0.0)
    tE = np.nextafter(tE * (1 + float(_gamma(width + 2))), np.inf)
    dB = _diagonal_radius(sp_.D, tE)
    return (np.concatenate([sp_.BE, cols]), np.concatenate([dB, dC])), ""
