"""Exact corrections of approximate points for :mod:`convexkern.math.conic`.

A solver's point meets its equality rows, and its dual residual vanishes, only to
rounding.  The bounds need points that meet them *exactly*; these functions find a
basis of unknowns and an enclosure ``|delta| <= d`` such that some point ``x + delta``
(or ``y + delta``) does (Krawczyk/Rump: ``||M^{-1} r|| <= ||R r|| / (1 - ||I - RM||)`` for
an approximate inverse ``R``, every product with its rounding term, Higham eq. 3.5).
A least-squares step in floating point first shrinks what must be enclosed; nothing is
claimed of that step: the residual is recomputed, with its error bound, where it lands.

* primal: :func:`equality_fix` (the equality rows), :func:`active_fix` (the equality
  rows and the inequality rows the point meets, at a degenerate vertex), with
  :func:`~convexkern.math.conic.slack.clip_singletons` meeting bound rows exactly and
  :func:`~convexkern.math.conic.slack.slack_bound` computing ``b - Ax`` with its error;
* dual: :func:`dual_fix` (a zero residual on the columns with no finite box) after
  :func:`dual_polish`.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.sparse as sp

from ..budget import affordable, time_left
from ..lstsq import least_squares, sparse_least_squares
from .bordered import _diagonal_basis, _diagonal_radius, bordered_fix
from .cones import _dual_room, _into_cone, _stays_in_dual
from .data import (
    _TINY,
    _U,
    ConicData,
    _gamma,
    _up,
    cached,
    entries,
    kept_for,
    nonneg_rows,
    take,
    transposed,
)
from .redundant import WORK, exact_dependence, independent_equalities
from .slack import abs_mv, clip_singletons, slack_bound
from .triangular import Peeled, forward_peel, triangular_basis, triangular_radius

__all__ = ["abs_mv", "active_fix", "clip_singletons", "dual_fix", "dual_polish",
           "equality_fix", "quadratic_polish", "slack_bound"]


def dual_fix(data: ConicData, y: np.ndarray, r: np.ndarray, err: np.ndarray,
              J: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, str]:
    """Make the dual residual exactly zero on the columns ``J`` (which have no finite
    box): some ``(y*, w*) = (y, x) + delta`` with ``delta`` on a basis of multipliers
    (rows ``By``, within their room in ``K*``) and of ``w`` (columns ``Bw``, free) has
    ``(c + A'y* + Pw*)_J = 0`` exactly, with ``|delta| <= dv`` componentwise (enclosed as
    in :func:`equality_fix`).  Returns ``(By, Bw, dv, reason)``; ``dv`` lists ``By``'s
    radii, then ``Bw``'s."""
    none = np.zeros(0, dtype=int)
    left = time_left()
    if left is not None and left <= 0:
        return none, none, np.zeros(0), "no time was left for the dual correction (time_limit)"
    rows, wcols, Ns, room = _dual_candidates(data, y, J)
    basis = _diagonal_basis(Ns, room)
    # no diagonal basis: a triangular part peeled first (the w of P's diagonal, one per
    # sum_squares row), the rows left solved densely, then the peeled ones back
    peel = None if basis is not None or not affordable(40.0 * Ns.nnz + 40.0 * J.size) \
        else triangular_basis(Ns.tocsr(), room, partial=True)
    if basis is not None:
        diag = np.asarray(Ns[np.arange(J.size), basis]).ravel()
        dv = _diagonal_radius(diag, np.abs(r[J]) + err[J])
    elif peel is not None and (peel.rounds or 2.0 * J.size ** 2 * Ns.shape[1] > _DENSE_FLOPS):
        basis, dv, why = _peeled_solve(peel, Ns, room, np.abs(r[J]) + err[J])
        if why:
            return none, none, np.zeros(0), f"the unbounded variables' dual rows {why}"
    else:
        if J.size > 2000:
            return none, none, np.zeros(0), (f"{J.size} unbounded variables are too many to "
                                             "correct")
        if Ns.shape[1] < J.size:
            return none, none, np.zeros(0), "too few free multipliers to cancel the dual residual"
        if not affordable(2.0 * J.size * J.size * Ns.shape[1] + 3.0 * J.size ** 3):
            return none, none, np.zeros(0), ("no time was left for the dual correction "
                                             "(time_limit)")
        N = Ns.toarray()
        eqs = np.arange(J.size)  # the columns of J whose residual the basis cancels
        for attempt in range(2):
            basis, dv, why = _pivoted_solve(N[eqs], room, np.abs(r[J[eqs]]) + err[J[eqs]])
            if why == _UNFACTORED:
                return none, none, np.zeros(0), f"the dual residual {why}"
            if not why:
                break
            if attempt == 0:  # columns whose dual rows are exact combinations of others'
                eqs, open_ = _independent_columns(data, y, J, rows, wcols)
                if eqs.size < J.size and not open_:
                    continue
                if open_:
                    why += f" ({open_})"
            return none, none, np.zeros(0), f"the unbounded variables' dual rows {why}"
    order = np.argsort(basis >= rows.size, kind="stable")  # multipliers first, then w
    basis, dv = basis[order], dv[order]
    By = rows[basis[basis < rows.size]]
    Bw = wcols[basis[basis >= rows.size] - rows.size]
    # the moved multipliers must stay in K*: every point within dv of y on By
    if By.size and not _stays_in_dual(data, y, By, dv[: By.size]):
        return By, Bw, dv, "the dual correction would leave the dual cone"
    return By, Bw, dv, ""


def fix_cost(data: ConicData, w: np.ndarray, By: np.ndarray, dy: np.ndarray,
             Bw: np.ndarray, dw: np.ndarray) -> tuple[float, float]:
    """What a dual correction within ``dy`` on the multipliers ``By`` and ``dw`` on the
    columns ``Bw`` of ``w`` can cost the weak-duality bound: ``|b_By|'dy``, and
    ``|Pw|_Bw'dw + 1/2 dw'|P_BwBw|dw`` (``1/2 w*'Pw* <= 1/2 w'Pw +`` that), rounded up;
    ``|Pw|`` is the computed one plus its rounding bound ``gamma_{k+2} |P||w|`` (a row
    of ``k`` entries: a computed 0 may stand for 1e-17)."""
    fix_b = float(np.abs(data.b[By]) @ dy) * (1 + 4 * _U * (By.size + 2))
    if not Bw.size:
        return fix_b, 0.0
    P = data.P
    Pw = np.abs((P @ w)[Bw]) + _gamma(np.diff(P.indptr)[Bw] + 2) * abs_mv(P, w)[Bw] * (
        1 + 4 * _U)
    fix_q = (float(Pw @ dw)
             + 0.5 * float(dw @ (abs(P[Bw][:, Bw]) @ dw))) * (1 + 8 * _U * (Bw.size + 2))
    return fix_b, fix_q


_UNFACTORED = "could not be factorised"
_DENSE_FLOPS = 2e9  # a dual correction's core above this is first reduced (forward_peel)


def _pivoted_solve(N: np.ndarray, room: np.ndarray, rhs: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, str]:
    """``(basis, dv, reason)``: the columns of ``N`` (rows: equations) a QR with column
    pivoting on ``N * room`` takes, one per row, and the enclosure of the correction on
    them for ``|r| <= rhs`` (:func:`_enclose_solve`)."""
    none = np.zeros(0, dtype=int)
    # a zero column is never a pivot while a nonzero one is left: left out of the QR
    cols = np.flatnonzero(np.any(N != 0.0, axis=0))
    try:
        _, _, piv = scipy.linalg.qr(N[:, cols] * room[cols], mode="economic", pivoting=True)
    except (ValueError, np.linalg.LinAlgError):
        return none, np.zeros(0), _UNFACTORED
    basis = np.sort(cols[piv[: N.shape[0]]])
    dv, why = _enclose_solve(N[:, basis], rhs)
    return basis, dv, why


def _peeled_solve(peel: Peeled, Ns: sp.csc_matrix, room: np.ndarray, rhs: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, str]:
    """``(basis, dv, reason)`` of :func:`dual_fix` from a partial triangular peel of its
    system ``Ns``: the rows no singleton took (``peel.core``, holding no peeled column)
    solved first (on a pivoted-QR basis of the other columns, enclosed as the dense path
    does; a core too large for that first solves its rows with one column left,
    :func:`forward_peel`, and densely again if the rest is then singular), then the
    peeled rows back by rounds, paying for the core's radii (:func:`triangular_radius`)."""
    core, none = peel.core, np.zeros(0, dtype=int)
    cb, dv_core = none, np.zeros(0)
    if core.size:
        free = np.setdiff1d(np.arange(Ns.shape[1]), peel.B)
        sub = Ns.tocsr()[core][:, free].tocsc()
        held = np.diff(sub.indptr) > 0  # only the columns the core rows hold can move them
        free, sub = free[held], sub[:, held].tocsr()
        big = 2.0 * core.size ** 2 * free.size + 3.0 * core.size ** 3 > _DENSE_FLOPS
        for forward in (True, False) if big else (False,):
            _, fc, fd, rest, rhs_rest, mov = forward_peel(sub, room[free], rhs[core]) \
                if forward else (none, none, np.zeros(0), np.arange(core.size), rhs[core],
                                 np.arange(free.size))
            if rest.size > 2000:
                return cb, dv_core, f"leave {rest.size} rows to correct densely: too many"
            if mov.size < rest.size:
                why = "leave too few free multipliers to cancel the dual residual"
            elif not affordable(2.0 * rest.size ** 2 * mov.size + 3.0 * rest.size ** 3):
                return cb, dv_core, "left no time for the dual correction (time_limit)"
            else:
                local, dv_rest, why = _pivoted_solve(sub[rest][:, mov].toarray(),
                                                     room[free[mov]], rhs_rest) \
                    if rest.size else (none, np.zeros(0), "")
            if not why:
                cb, dv_core = free[np.concatenate([fc, mov[local]])], np.concatenate(
                    [fd, dv_rest])
                break
        if why:
            return none, np.zeros(0), why
    d_peel = triangular_radius(peel, rhs, (cb, dv_core))
    return np.concatenate([peel.B, cb]), np.concatenate([d_peel, dv_core]), ""


def _independent_columns(data: ConicData, y: np.ndarray, J: np.ndarray, rows: np.ndarray,
                         wcols: np.ndarray) -> tuple[np.ndarray, str]:
    """Positions in ``J`` whose residuals a correction must cancel, and why some others
    could not be left out (``""``: none).

    Column ``d`` of ``J`` is left out when its dual row ``(c, A', P)_d`` is proved an
    exact combination ``sum l_k (c, A', P)_k`` of the kept ones (:func:`exact_dependence`)
    over every unknown a correction moves (``rows``, ``wcols``) and every multiplier
    outside ``rows`` that is not 0: its residual is then ``sum l_k r_k``, exactly 0 once
    theirs are.  Netlib RECIPE: 24 of the 51 free columns have dual rows that repeat
    others' on the multipliers with room, while the full rows have rank 51."""
    m = data.b.size
    At = transposed(data)
    M = At if data.P is None else cached(
        data, "dual_rows", lambda: sp.hstack([At, data.P], format="csr"))
    fixed = np.setdiff1d(np.flatnonzero(y), rows)
    cols = np.sort(np.concatenate([rows, fixed] + ([m + wcols] if data.P is not None
                                                     else [])))
    key = ("dual_dependence", J.tobytes(), cols.tobytes())
    if key not in data.cache:
        if not affordable(4.0 * J.size * J.size * cols.size):
            return np.arange(J.size), "no time was left to search them for exact dependence"
        # one budget of rational work for every search on this form
        budget = data.cache.setdefault("dual_dependence_work", [WORK])
        data.cache[key] = exact_dependence(M[J], data.c[J], cols, budget)[:2]
    kept, unproved = data.cache[key]
    if unproved.size:
        return np.arange(J.size), (f"{unproved.size} of them depend on the others only to "
                                   "rounding")
    return kept, ""


def _dual_candidates(data: ConicData, y: np.ndarray, J: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray, sp.csc_matrix, np.ndarray]:
    """The unknowns that may cancel the dual residual on ``J``: the multipliers with room
    in ``K*`` (rows) and the columns of ``w`` that ``P`` touches; their matrix
    ``[A_rows' P_w]`` restricted to ``J`` and their room."""
    room_y = _dual_room(data, y)
    rows = np.flatnonzero(room_y > 0)
    m = data.b.size
    if data.P is None:
        wcols = np.zeros(0, dtype=int)
        Ns = take(transposed(data), J, rows)
    else:  # the rows J of [A' P] (built once per form) over the multipliers and w's
        wcols = cached(data, "w_columns",
                       lambda: np.flatnonzero(np.diff(data.P.tocsc().indptr) > 0))
        M = cached(data, "dual_rows", lambda: sp.hstack([transposed(data), data.P],
                                                          format="csr"))
        Ns = take(M, J, np.concatenate([rows, m + wcols]))
    room = np.concatenate([room_y[rows], np.ones(wcols.size)])
    return rows, wcols, Ns.tocsc(), room


def _enclose_solve(M: np.ndarray, v_abs: np.ndarray) -> tuple[np.ndarray, str]:
    """A componentwise radius ``dv`` with ``|M^{-1} v| <= dv`` for every ``|v| <= v_abs``
    (Rump's bound with an approximate inverse ``R``: ``|delta| <= |R||v| + |I - RM| |delta|``
    and ``||delta|| <= || |R||v| || / (1 - ||I - RM||)``, every product with its rounding
    term); a reason instead when ``M`` is singular or too ill-conditioned."""
    k = M.shape[0]
    if k == 0:
        return np.zeros(0), ""
    try:
        R = np.linalg.inv(M)
    except np.linalg.LinAlgError:
        return np.zeros(0), "are rank deficient"
    if not np.all(np.isfinite(R)):
        return np.zeros(0), "are rank deficient"
    err_rm = _gamma(k + 2) * (np.abs(R) @ np.abs(M))
    beta_i = np.sum(np.abs(np.eye(k) - R @ M) + err_rm, axis=1) * (1 + 4 * _U)
    beta = float(np.max(beta_i))
    if not beta < 0.5:
        return np.zeros(0), f"are too ill-conditioned to correct exactly ({beta:.2g})"
    base = (np.abs(R) @ v_abs) * (1 + float(_gamma(k + 3)))
    dmax = _up(float(np.max(base)) / (1.0 - beta))
    dv = np.nextafter((base + beta_i * dmax) * (1 + 4 * _U), np.inf) + _TINY
    return dv, ""


def dual_polish(data: ConicData, y: np.ndarray, w: np.ndarray, J: np.ndarray,
                 residual) -> tuple[np.ndarray, np.ndarray]:
    """Up to two least-squares steps in floating point that shrink the dual residual on
    ``J`` (moving multipliers in proportion to their room in ``K*``, and ``w``), so that
    what :func:`dual_fix` must enclose is rounding-sized.  No claim rests on this step:
    the residual is recomputed, with its error bound, at the point it returns.

    Where the dense factorisation would take more than four times as long as LSQR's
    iterations on the sparse matrix, LSQR is tried first and kept when it brings the
    residual to its rounding level (a linear SVM on 2000 points: 14 ms against 270 ms
    for the dense QR, the same residual, 2.6e-17); on an ill-conditioned system (kernel
    logistic regression's ``K``) it does not, and the dense steps follow from the same
    point."""
    if J.size == 0 or J.size > 2000:
        return y, w
    rows, wcols, Ns, room = _dual_candidates(data, y, J)
    # one dense factorisation for both steps, LSQR only past ~10 s (looser on KLR's)
    dense = 2.0 * J.size * Ns.shape[1] * min(J.size, Ns.shape[1])
    big = dense > 10 * _DENSE_FLOPS
    # seconds: the dense QR at 1e10 flop/s; LSQR's steps, each two products at 1e9 and
    # about 50 us of its own (scipy's loop), which small systems are all about
    lsqr = _LSQR_STEPS * (5e-5 + 4.0 * (Ns.nnz + J.size + Ns.shape[1]) / 1e9)
    work = 1600.0 * (Ns.nnz + J.size + Ns.shape[1]) if big else 2.0 * dense
    if Ns.shape[1] == 0 or (Ns.shape[1] > 20000 and not big) or not affordable(work):
        return y, w  # or two least-squares solves would overrun the deadline
    r = residual(y, w)[0]
    if not big and dense / 1e10 > 4.0 * lsqr:
        try:
            solve = sparse_least_squares(Ns @ sp.diags(room), _LSQR_STEPS)
        except (ValueError, np.linalg.LinAlgError):
            solve = None
        if solve is not None:
            y2, w2, r2, level = _polish_steps(data, y, w, J, r, rows, wcols, room, solve,
                                              residual, stop_at_level=True)
            if level:
                return y2, w2
    try:
        solve = sparse_least_squares(Ns @ sp.diags(room)) if big else least_squares(
            Ns.toarray() * room)
    except (ValueError, np.linalg.LinAlgError):
        return y, w
    return _polish_steps(data, y, w, J, r, rows, wcols, room, solve, residual)[:2]


#: LSQR's iterations when it is tried before a dense factorisation (:func:`dual_polish`;
#: the linear SVM's system reaches its rounding level in about 60)
_LSQR_STEPS = 100


def _polish_steps(data: ConicData, y: np.ndarray, w: np.ndarray, J: np.ndarray,
                  r: np.ndarray, rows: np.ndarray, wcols: np.ndarray, room: np.ndarray,
                  solve, residual, stop_at_level: bool = False
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """:func:`dual_polish`'s two steps with the least-squares ``solve``: ``(y, w, r,
    level)``, ``level`` when the residual on ``J`` is within four times its rounding
    bound (no step can do much better; ``stop_at_level``: no second step then)."""
    best = float(np.max(np.abs(r[J])))
    level = False
    for _ in range(2):
        try:
            z = solve(-r[J])
        except (ValueError, np.linalg.LinAlgError):
            break
        step = room * z
        y2 = y.copy()
        y2[rows] += step[: rows.size]
        w2 = w
        if wcols.size:
            w2 = w.copy()
            w2[wcols] += step[rows.size:]
        y2, why = _into_cone(y2, data, dual=True)
        if why:
            break
        r2, e2 = residual(y2, w2)
        now = float(np.max(np.abs(r2[J])))
        # a step that cancels a residual of size `best` moves the point by about as much
        # (times the basis's condition); one that moved it far, the cone projection
        # pulling it back, trades the residual for the bound's value: refused
        moved = float(np.max(np.abs(y2 - y), initial=0.0))
        if not now < best or moved > 1e6 * best:
            break
        y, w, r, best = y2, w2, r2, now
        level = now <= 4.0 * float(np.max(e2[J]))
        if level and stop_at_level:
            break
    return y, w, r, level


#: the largest block of ``P`` :func:`quadratic_polish` factorises (dense)
_POLISH_P_LIMIT = 2000


def quadratic_polish(data: ConicData, y: np.ndarray, w: np.ndarray, residual,
                     term: np.ndarray, wanted: bool) -> np.ndarray:
    """``w`` moved toward the minimiser of the dual's quadratic part for this ``y``: up
    to two least-squares steps on ``P``'s block of used columns ``U`` that shrink the
    residual ``(c + A'y + Pw)_U`` (any ``w`` gives a valid bound; the best one cancels
    that residual, so the box pays nothing for it: SCS on kernel logistic regression,
    a lower bound 7e-4 below the optimum with ``w = x``, 3.5e-5 with this ``w``).  Only
    where ``wanted`` and the residual on ``U`` costs more than 1e-12 of the objective's
    scale on the box (``term``); ``w`` itself (the same object) otherwise."""
    P = data.P
    if P is None or not wanted:
        return w
    used = np.flatnonzero(np.diff(P.indptr) > 0)
    if used.size == 0 or used.size > _POLISH_P_LIMIT:
        return w
    scale = abs(float(data.b @ y)) + 1.0
    if not float(-np.sum(term[used])) > 1e-12 * scale:
        return w
    if not affordable(8.0 * used.size ** 3):
        return w
    sub = sp.csr_matrix(P[used][:, used])
    diag = sub.diagonal()
    if sub.nnz == np.count_nonzero(diag) and np.all(diag > 0):
        def solve(rhs: np.ndarray) -> np.ndarray:  # a diagonal block (a sum of squares)
            return rhs / diag
    else:
        block = sub.toarray()

        try:
            solve = least_squares(block)  # factorised once for both steps
        except (ValueError, np.linalg.LinAlgError):
            return w
    r = residual(y, w)[0][used]
    best = float(np.max(np.abs(r)))
    out = w
    for _ in range(2):
        try:
            step = solve(-r)
        except (ValueError, np.linalg.LinAlgError):
            break
        w2 = out.copy()
        w2[used] += step
        r2 = residual(y, w2)[0][used]
        now = float(np.max(np.abs(r2)))
        if not (now < best and np.all(np.isfinite(w2))):
            break
        out, r, best = w2, r2, now
    return out


def equality_fix(data: ConicData, x: np.ndarray, s: np.ndarray, es: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, str]:
    """Columns ``B`` and a radius ``d`` such that some ``x* = x + delta`` with ``delta``
    supported on ``B`` and ``|delta_B| <= d`` satisfies the zero-cone rows exactly.

    The residual ``r = b_E - A_E x`` is known within ``es``; ``delta_B = M^{-1} r`` with
    ``M = A_E[:, B]`` is enclosed by the classical bound ``||M^{-1} r|| <= ||R r|| /
    (1 - ||I - R M||)`` for an approximate inverse ``R`` (Krawczyk/Rump), every product
    with its rounding term.  ``B`` is chosen by QR with column pivoting, weighting columns
    by how far they are from the other constraints' boundaries (free columns first).
    Rows proved exact combinations of the others are dropped once the basis is found
    singular (:func:`~convexkern.math.conic.redundant.independent_equalities`): a point
    meeting the rest meets them."""
    z = data.zero
    none = np.zeros(0, dtype=int), np.zeros(0)
    if z == 0 or not (np.any(s[:z]) or np.any(es[:z])):
        return *none, ""  # no equality row, or every one met exactly
    known = data.cache.get("independent")
    eq = known[0] if known is not None else np.arange(z)
    B, d, reason = _equality_fix_on(data, eq, x, s, es)
    if reason and known is None and "rank deficient" in reason:
        known = independent_equalities(data)
        if known[0].size < z:
            data.cache.pop("equality", None)
            B, d, reason = _equality_fix_on(data, known[0], x, s, es)
    if reason and known is not None and known[1]:
        if "rank deficient" in reason and "ill_posed_rows" in data.cache:
            data.cache["ill_posed"] = known[1]  # the rows left, not this point's basis
        reason = known[1]  # which rows are dependent only to rounding
    return B, d, reason


def _equality_fix_on(data: ConicData, eq: np.ndarray, x: np.ndarray, s: np.ndarray,
                     es: np.ndarray) -> tuple[np.ndarray, np.ndarray, str]:
    """:func:`equality_fix` on the equality rows ``eq``."""
    z = eq.size
    none = np.zeros(0, dtype=int), np.zeros(0)
    AE = take(data.A, eq)
    n = data.c.size
    # room of each column: free columns 1, columns in a nonneg row s_i / |a_ij| (capped)
    room = np.ones(n)
    (a_row, a_col, a_val), other = _room_rows(data)
    if a_row.size:
        sl = s[data.zero: data.zero + data.nonneg][a_row]
        ratio = np.clip(sl, 0.0, None) / np.abs(a_val)
        np.minimum.at(room, a_col, np.minimum(ratio, 1.0))
    if other.size:
        np.minimum.at(room, other, 1e-3)  # cone blocks: prefer other columns
    if data.lb is not None:
        room = np.minimum(room, np.clip(x - data.lb, 0.0, 1.0))
    if data.ub is not None:
        room = np.minimum(room, np.clip(data.ub - x, 0.0, 1.0))
    # columns at a bound keep a little weight: when the roomy ones do not span the rows,
    # pivoting takes the best of them (their move is paid by the cone rows, like any slack)
    room = np.maximum(room, 1e-6)
    s, es = s[eq], es[eq]
    cached = data.cache.get("equality")
    if cached is None:
        basis = _diagonal_basis(AE.tocsc(), np.maximum(room, 1e-300))
        if basis is not None:
            cached = ("diag", basis, entries(AE, np.arange(z), basis))
            data.cache["equality"] = cached
        elif affordable(40.0 * AE.nnz + 40.0 * z):
            # no diagonal basis: a triangular one, peeled from column singletons (the
            # rows diag(X) = 1 beside X - A = Z), solved by rounds without a factorisation
            peeled = triangular_basis(AE, room)
            if peeled is not None:
                cached = ("tri", peeled)
                data.cache["equality"] = cached
    if cached is not None and cached[0] == "diag":
        _, B, diag = cached
        return B, _diagonal_radius(diag, np.abs(s) + es), ""
    if cached is not None and cached[0] == "tri":
        peeled = cached[1]
        return peeled.B, triangular_radius(peeled, np.abs(s) + es), ""
    if z > 2000:
        return *none, f"{z} equality rows are too many to correct exactly"
    if cached is not None:  # the basis depends on the data only: reuse it for new points
        _, B, R, beta = cached
        r = s
        rr = np.abs(R) @ (np.abs(r) + es)
        d = float(np.max(rr)) * (1 + float(_gamma(z + 3))) / (1.0 - beta)
        return B, np.full(B.size, _up(d) + _TINY), ""
    left = time_left()
    if (left is not None and left <= 0) or not affordable(4.0 * z * z * n):
        return *none, "no time was left for the equality correction (time_limit)"
    dense = (AE @ sp.diags(room)).toarray()
    try:
        _, _, piv = scipy.linalg.qr(dense, mode="economic", pivoting=True)
    except (ValueError, np.linalg.LinAlgError):
        return *none, "the equality rows could not be factorised"
    B = np.sort(piv[:z])
    M = AE[:, B].toarray()
    try:
        R = np.linalg.inv(M)
    except np.linalg.LinAlgError:
        return *none, _singular_reason(AE, z)
    RM = R @ M
    err_rm = _gamma(z + 2) * (np.abs(R) @ np.abs(M))
    beta = float(np.max(np.sum(np.abs(np.eye(z) - RM) + err_rm, axis=1)) * (1 + 4 * _U))
    if not beta < 0.5:
        return *none, (f"the equality rows are too ill-conditioned to correct exactly "
                       f"(||I - RM|| = {beta:.2g}; {_singular_reason(AE, z)})")
    data.cache["equality"] = ("dense", B, R, beta)
    r = s
    rr = np.abs(R) @ (np.abs(r) + es)
    d = float(np.max(rr)) * (1 + float(_gamma(z + 3))) / (1.0 - beta)
    return B, np.full(B.size, _up(d) + _TINY), ""


def _room_rows(data: ConicData) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray],
                                         np.ndarray]:
    """The nonnegative rows' entries ``(row, col, value)`` (rows counted from the first
    nonnegative row) and the columns of the cone rows after them, read from ``A``'s CSR
    arrays once per form (SciPy's slice and ``tocoo`` cost ~0.2 ms on a form of a few
    rows, more than the arithmetic)."""
    def make() -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], np.ndarray]:
        A, z, nn = data.A, data.zero, data.nonneg
        lo, hi = int(A.indptr[z]), int(A.indptr[z + nn])
        row = np.repeat(np.arange(nn), np.diff(A.indptr[z: z + nn + 1]))
        return (row, A.indices[lo:hi], A.data[lo:hi]), A.indices[hi:]
    return cached(data, "room_rows", make)


def _meets_inequalities(data: ConicData, x: np.ndarray, exact: np.ndarray) -> bool:
    """Whether every nonnegative row that ``x`` misses beyond its rounding bound is among
    the rows met exactly (``exact``): a correction that left one out (an active row read
    as dependent, or one the first reading of the tight rows missed) is worth less than
    the dense path, which reads them again after its floating-point steps (SCS on the
    nu-SVM QP: its sum row, off by 4.4e-9, left open by the bordered correction)."""
    s, es = slack_bound(data, x)
    nn = np.arange(data.zero, data.zero + data.nonneg)
    return bool(np.all(np.isin(nn[s[nn] + es[nn] < 0], exact)))


def active_fix(data: ConicData, x: np.ndarray, s: np.ndarray, es: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, str]:
    """:func:`equality_fix` over the equality rows *and* the inequality rows (two or
    more entries) that ``x`` meets to rounding; a column at a bound row it meets
    (one entry) is pinned and does not move.  Two least-squares steps in floating point
    first meet those rows more closely (no claim rests on them: the slack is recomputed
    and the rows and pins are read again after each).  Active rows that depend on the
    others are left to the cone moves.  Returns ``(x, B, d, rows met exactly, reason)``.

    Without a deadline (whose budgets a second call may not share) the same point and
    slack on the same form, with the same rows known redundant, are corrected once: the
    upper bound asks again with each new dual box (copies are handed out)."""
    if time_left() is not None:
        return _active_fix(data, x, s, es)
    known = data.cache.get("independent")
    key = (x.tobytes(), s.tobytes(), es.tobytes(),
           None if known is None else known[0].tobytes())
    def make() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, str]:
        got = _active_fix(data, x, s, es)
        # copies kept: the point handed back may be the caller's own array
        return (*(a.copy() for a in got[:4]), got[4])
    got = kept_for(data, "active_fixes", key, make)
    return (*(a.copy() for a in got[:4]), got[4])


def _active_fix(data: ConicData, x: np.ndarray, s: np.ndarray, es: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, str]:
    """:func:`active_fix`, computed."""
    z = data.zero
    none = np.zeros(0, dtype=int)
    fail = (x, none, np.zeros(0), none)
    left = time_left()
    if left is not None and left <= 0:
        return *fail, "no time was left for the exact correction (time_limit)"
    start = (x, s, es)
    known = data.cache.get("independent")
    eq = known[0] if known is not None else np.arange(z)
    act, pinned = none, none
    for _ in range(3):
        a2, p2, at = _tight_rows(data, x, s, es)
        if p2.size and np.any(x[p2] != at):  # onto the bound itself, then provably inside
            x = x.copy()
            x[p2] = at
            x = clip_singletons(data, x)
            s, es = slack_bound(data, x)
        act, pinned = np.union1d(act, a2), np.union1d(pinned, p2)
        rows = np.concatenate([eq, act])
        if rows.size == 0:
            return *fail, "no row is active"
        if rows.size > 2000:
            return *fail, f"{rows.size} active rows are too many to meet exactly"
        room = _column_room(data, x, s, act, pinned)
        if _ == 0:  # a diagonal basis of the equality rows: the k active rows bordered on
            out = bordered_fix(data, x, s, es, eq, act, room, slack=slack_bound,
                               clip=clip_singletons)
            if out is None and eq.size == 0:  # no equality row: the active rows' own
                # diagonal basis (each row a column of its own: u + v <= 1 of a logistic)
                out = bordered_fix(data, x, s, es, act, none, room, slack=slack_bound,
                                   clip=clip_singletons)
                if out is not None and not out[4]:
                    out = (*out[:3], np.union1d(out[3], act), "")
            if out is not None and not out[4] and _meets_inequalities(data, out[0], out[3]):
                return out
        if not affordable(6.0 * rows.size * rows.size * data.c.size):
            return *fail, "no time was left for the exact correction (time_limit)"
        # the columns that may move (a pinned one has room 0: no column of W is zero)
        mov = np.flatnonzero(room > 0)
        Am = take(data.A, rows, mov)
        W = Am.toarray() * room[mov]
        if _ == 2:
            break
        # meet the rows in floating point first, so what is enclosed is rounding-sized
        try:
            step = np.zeros(x.size)
            step[mov] = room[mov] * scipy.linalg.lstsq(W, s[rows], lapack_driver="gelsy")[0]
        except (ValueError, np.linalg.LinAlgError):
            return *fail, "the active rows could not be factorised"
        x2 = clip_singletons(data, x + step)
        s2, es2 = slack_bound(data, x2)
        if not float(np.max(np.abs(s2[rows]))) < float(np.max(np.abs(s[rows]))):
            break
        x, s, es = x2, s2, es2
    fail = (x, none, np.zeros(0), none)
    # an independent subset of the rows over the columns that may move (of A itself, not
    # weighted by room), equality rows first (weighted up)
    # a row none of whose columns may move is met exactly only if its slack is exactly 0
    idle = np.diff(Am.tocsr().indptr) == 0
    exact0 = idle & (s[rows] == 0) & (es[rows] == 0)
    if np.any(idle & ~exact0 & (rows < z)):
        return *fail, ("an equality row whose columns all sit at their bounds is not met "
                       "exactly by the point")
    done = rows[exact0]
    rows, W, Am = rows[~idle], W[~idle], Am[~idle]
    z = int(np.sum(rows < data.zero))
    weight = np.ones(rows.size)
    weight[:z] = 1e4
    try:
        _, Rr, prow = scipy.linalg.qr(
            (Am.toarray() * weight[:, None]).T, mode="economic", pivoting=True)
        diag = np.abs(np.diag(Rr))
        rank = int(np.sum(diag > 1e-10 * diag[0])) if diag.size else 0
        keep = np.sort(prow[:rank])
        if keep.size == 0 and done.size == 0:
            return *fail, "no column that meets an active row may move"
        if np.sum(keep < z) < z:
            if known is None:  # drop the equality rows proved redundant, and try again
                eq, why = independent_equalities(data)
                if eq.size < data.zero:
                    return active_fix(data, *start)
                if why:
                    return *fail, why
            return *fail, _singular_reason(data.A[:data.zero], data.zero)
        Rw, piv = (scipy.linalg.qr(W[keep], mode="economic", pivoting=True)[1:] if keep.size
                   else (np.zeros((0, 0)), np.zeros(0, dtype=int)))
    except (ValueError, np.linalg.LinAlgError):
        return *fail, "the active rows could not be factorised"
    B = np.sort(mov[piv[: keep.size]]) if keep.size else np.zeros(0, dtype=int)
    # the pivoting takes a column whose remaining part is exactly 0 only when no other is
    # left: the movable columns do not span the rows
    if B.size < keep.size or np.any(np.diag(Rw)[: keep.size] == 0):
        return *fail, ("the equality and active rows are not spanned by the columns off "
                       "their bounds (a degenerate point)")
    met = rows[keep]
    dv, why = _enclose_solve(take(data.A, met, B).toarray(), np.abs(s[met]) + es[met])
    if why:
        return *fail, f"the equality and active rows {why}"
    met = np.concatenate([met, done])
    return x, B, dv, met[met >= data.zero], ""


def _tight_rows(data: ConicData, x: np.ndarray, s: np.ndarray, es: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The inequality rows (two or more entries) ``x`` meets to rounding, the columns of
    the bound rows (one entry) it meets, and those bounds (``b_i / a_ij``, rounded)."""
    z, nn = data.zero, data.nonneg
    A = data.A
    nnz = np.diff(A.indptr)[z: z + nn]
    rows = nonneg_rows(data)
    width = np.zeros(nn)
    if rows.nnz:  # a row's largest entry times the point's largest entry
        width = cached(data, "nonneg_row_max", lambda: abs(rows).max(axis=1).toarray().ravel()
                       ) * float(np.max(np.abs(x), initial=0))
    scale = np.abs(data.b[z: z + nn]) + abs_mv(rows, x) + width
    tight = s[z: z + nn] <= 1e3 * es[z: z + nn] + 1e-12 * scale
    act = z + np.flatnonzero(tight & (nnz > 1))
    single = z + np.flatnonzero(tight & (nnz == 1))
    if single.size == 0:
        return act, np.zeros(0, dtype=int), np.zeros(0)
    at_entry = A.indptr[single]  # each bound row's one stored entry
    pinned = np.asarray(A.indices[at_entry], dtype=int)
    at = data.b[single] / A.data[at_entry]
    pinned, first = np.unique(pinned, return_index=True)  # a column with two: the first
    return act, pinned, at[first]


def _column_room(data: ConicData, x: np.ndarray, s: np.ndarray, act: np.ndarray,
                 pinned: np.ndarray) -> np.ndarray:
    """How far each column may move, from the inequality rows left free (not those in
    ``act``, met exactly) and native bounds; 0 on ``pinned`` columns."""
    z, nn = data.zero, data.nonneg
    room = np.ones(data.c.size)
    free_nn = np.ones(nn, dtype=bool)
    free_nn[act - z] = False
    (a_row, a_col, a_val), other = _room_rows(data)
    keep = free_nn[a_row]
    if np.any(keep):
        row, col, val = a_row[keep], a_col[keep], a_val[keep]
        sl = s[z: z + nn][row]
        np.minimum.at(room, col, np.minimum(np.clip(sl, 0.0, None) / np.abs(val), 1.0))
    if other.size:
        np.minimum.at(room, other, 1e-3)
    if data.lb is not None:
        room = np.minimum(room, np.clip(x - data.lb, 0.0, 1.0))
    if data.ub is not None:
        room = np.minimum(room, np.clip(data.ub - x, 0.0, 1.0))
    room = np.maximum(room, 1e-12)
    room[pinned] = 0.0
    # a column at a native bound does not move: any correction of it may cross the bound
    if data.lb is not None:
        room[x <= data.lb] = 0.0
    if data.ub is not None:
        room[x >= data.ub] = 0.0
    return room


def _singular_reason(AE: sp.csr_matrix, z: int) -> str:
    """Which matrix is singular when the equality correction fails: the rows themselves
    (numerical rank below their count: redundant rows) or only the basis of columns the
    correction chose near the point's active bounds (a degenerate point)."""
    rank = int(np.linalg.matrix_rank(AE.toarray())) if AE.shape[1] <= 20000 else z
    if rank < z:
        return f"the {z} equality rows are rank deficient (numerical rank {rank}: redundant rows)"
    return (f"the {z} equality rows have full rank, but the columns with room to move at "
            "this point do not span them (a degenerate point)")
