"""Rigorous bounds on the optimum of a conic program from any approximate primal-dual pair.

The conic form is the one cvxpy hands its solvers (SCS's convention)::

    minimize    c'x + 1/2 x'Px + d
    subject to  Ax + s = b,   s in K = {0}^z x R_+^l x SOC... x PSD... x EXP...

with dual ``maximize -b'y - 1/2 w'Pw + d  s.t.  c + A'y + Pw = 0,  y in K*``.
:func:`conic_bounds` turns a solver's ``(x, y)`` into a bracket ``[lower, upper]`` on the
optimal value that holds in exact arithmetic for the data as floats:

* **lower bound** (weak duality with a box, after Neumaier & Shcherbina 2004 and Jansson's
  VSDP): ``y`` is moved into ``K*`` (clipping, raising a second-order cone's head, a
  verified diagonal shift of a PSD block), the dual residual ``r = c + A'y + Px`` is
  computed with a bound on its rounding error, and for every feasible ``x'`` in a box
  ``[lo, hi]`` that holds the optimal points, ``f(x') >= -b'y - 1/2 x'Px + min r'x'``;
* **upper bound** (the same argument on the dual): the slack ``s = b - Ax`` is moved into
  ``K`` the same way; the move ``e`` is paid for by a box on the dual variables,
  ``d* <= f(x) + max_y (-e'y)``.

The boxes come from the problem's own constraints by interval propagation (feasibility-based
bound tightening over the rows of ``[A I]`` and the cones), tightened by the other side's
bound as an objective cut (``c'x <= upper`` when ``P`` is exactly PSD; ``b'y <= -lower``).
Every floating-point sum, product and matrix-vector product carries the standard bound
``|fl(a'b) - a'b| <= gamma_k |a|'|b|`` (Higham, *Accuracy and Stability*, eq. 3.5), and
final values are rounded outward, so the bracket is a proof, not an estimate.

Assumptions, stated in every result: the data are the floats cvxpy produced (its own
rounding is not undone); the upper bound, when the primal point needs a move, uses zero
duality gap (``p* = d*``: always for LP and QP, and for SOCP/SDP whenever either side is
strictly feasible) and ``P`` PSD as cvxpy's DCP analysis declares it.  A side whose box is
unbounded where the residual lives is reported as infinite, with the reason.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.linalg
import scipy.sparse as sp

from .budget import time_left
from .conic_boxes import _dual_box, _primal_box, _psd_P_exact
from .conic_cones import _cone_moves, _into_cone, _smat, interior_point, psd_shift
from .conic_data import (
    _TINY,
    _U,
    ConicBounds,
    ConicData,
    _dot,
    _down,
    _exact_rows,
    _fsum,
    _gamma,
    _up,
)

__all__ = ["ConicData", "ConicBounds", "conic_bounds", "psd_shift", "interior_point"]


def _abs_mv(M: sp.csr_matrix, v: np.ndarray) -> np.ndarray:
    return abs(M) @ np.abs(v)


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


def _dual_room(data: ConicData, y: np.ndarray) -> np.ndarray:
    """How far each multiplier may move and stay in ``K*`` (0: not a candidate)."""
    room = np.zeros(y.size)
    room[: data.zero] = 1.0
    nn = slice(data.zero, data.zero + data.nonneg)
    room[nn] = np.clip(y[nn], 0.0, 1.0)
    for kind, i, k in data.blocks:
        if kind == "soc":
            room[i: i + k] = min(1.0, max(0.0, y[i] - float(np.linalg.norm(y[i + 1: i + k]))))
        elif kind == "psd":
            size = k * (k + 1) // 2
            lam = float(scipy.linalg.eigvalsh(_smat(y[i: i + size], k, data.psd_lower),
                                              subset_by_index=[0, 0])[0])
            room[i: i + size] = min(1.0, max(0.0, lam))
    return room


def _dual_fix(data: ConicData, y: np.ndarray, r: np.ndarray, err: np.ndarray,
              J: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, str]:
    """Make the dual residual exactly zero on the columns ``J`` (which have no finite
    box): some ``(y*, w*) = (y, x) + delta`` with ``delta`` on a basis of multipliers
    (rows ``By``, within their room in ``K*``) and of ``w`` (columns ``Bw``, free) has
    ``(c + A'y* + Pw*)_J = 0`` exactly, with ``|delta| <= dv`` componentwise (enclosed as
    in :func:`_equality_fix`).  Returns ``(By, Bw, dv, reason)``; ``dv`` lists ``By``'s
    radii, then ``Bw``'s."""
    none = np.zeros(0, dtype=int)
    if J.size > 2000:
        return none, none, np.zeros(0), f"{J.size} unbounded variables are too many to correct"
    left = time_left()
    if left is not None and left <= 0:
        return none, none, np.zeros(0), "no time was left for the dual correction (time_limit)"
    rows, wcols, Ns, room = _dual_candidates(data, y, J)
    basis = _diagonal_basis(Ns, room)
    if basis is not None:
        diag = np.asarray(Ns[np.arange(J.size), basis]).ravel()
        dv = _diagonal_radius(diag, np.abs(r[J]) + err[J])
    else:
        if Ns.shape[1] < J.size:
            return none, none, np.zeros(0), "too few free multipliers to cancel the dual residual"
        N = Ns.toarray()
        try:
            _, _, piv = scipy.linalg.qr(N * room, mode="economic", pivoting=True)
        except (ValueError, np.linalg.LinAlgError):
            return none, none, np.zeros(0), "the dual residual could not be factorised"
        basis = np.sort(piv[: J.size])
        dv, why = _enclose_solve(N[:, basis], np.abs(r[J]) + err[J])
        if why:
            return none, none, np.zeros(0), f"the unbounded variables' dual rows {why}"
    order = np.argsort(basis >= rows.size, kind="stable")  # multipliers first, then w
    basis, dv = basis[order], dv[order]
    By = rows[basis[basis < rows.size]]
    Bw = wcols[basis[basis >= rows.size] - rows.size]
    # the moved multipliers must stay in K*: every point within dv of y on By
    if By.size and not _stays_in_dual(data, y, By, dv[: By.size]):
        return By, Bw, dv, "the dual correction would leave the dual cone"
    return By, Bw, dv, ""


def _dual_candidates(data: ConicData, y: np.ndarray, J: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray, sp.csc_matrix, np.ndarray]:
    """The unknowns that may cancel the dual residual on ``J``: the multipliers with room
    in ``K*`` (rows) and the columns of ``w`` that ``P`` touches; their matrix
    ``[A_rows' P_w]`` restricted to ``J`` and their room."""
    room_y = _dual_room(data, y)
    rows = np.flatnonzero(room_y > 0)
    wcols = np.zeros(0, dtype=int)
    if data.P is not None:
        wcols = np.flatnonzero(np.diff(data.P.tocsc().indptr) > 0)
    Ns = sp.hstack([data.A[rows][:, J].T] + ([data.P[J][:, wcols]] if wcols.size else []),
                   format="csc")
    room = np.concatenate([room_y[rows], np.ones(wcols.size)])
    return rows, wcols, Ns, room


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


def _stays_in_dual(data: ConicData, y: np.ndarray, By: np.ndarray, dv: np.ndarray) -> bool:
    """Whether ``y + delta`` is in ``K*`` for every ``delta`` on ``By`` with
    ``|delta| <= dv`` componentwise."""
    d = np.zeros(y.size)
    d[By] = dv
    nn = slice(data.zero, data.zero + data.nonneg)
    if np.any(y[nn] - d[nn] < 0):
        return False
    for kind, i, k in data.blocks:
        size = k if kind != "psd" else k * (k + 1) // 2
        dd = d[i: i + size]
        if not dd.any():
            continue
        if kind == "soc":
            tail = np.abs(y[i + 1: i + k]) + dd[1:]
            need = float(np.linalg.norm(tail)) * (1.0 + float(_gamma(k + 4)))
            if not y[i] - dd[0] >= need:
                return False
        elif kind == "psd":
            frob = float(np.linalg.norm(dd)) * (1 + 4 * _U)
            if psd_shift(_smat(y[i: i + size], k, data.psd_lower), frob) != 0.0:
                return False
        else:
            return False
    return True


def _min_product(alo: np.ndarray, ahi: np.ndarray, lo: np.ndarray, hi: np.ndarray
                 ) -> np.ndarray:
    """``min a x`` over ``a in [alo, ahi]``, ``x in [lo, hi]`` elementwise, with
    ``0 * inf = 0`` (a zero coefficient or a zero bound contributes nothing)."""
    out = np.full(alo.shape, np.inf)
    for a in (alo, ahi):
        for b in (lo, hi):
            with np.errstate(invalid="ignore"):
                p = a * b
            p = np.where((a == 0) | (b == 0), 0.0, p)
            out = np.minimum(out, p)
    return out


def _toward_bounds(data: ConicData, y: np.ndarray, lo: np.ndarray, hi: np.ndarray
                   ) -> np.ndarray:
    """Drop the multipliers of bound-like rows (``a x_j <= b``, one entry) on columns
    open on the other side.  In exact arithmetic this changes nothing (``-b_i y_i`` and
    the box term at the bound cancel), but the residual of column ``j`` then holds its
    reduced cost, which points away from the bound: the box term sits at the bound
    (finite) instead of at infinity.  Every ``y`` in ``K*`` gives a valid bound."""
    rows = data.A[data.zero: data.zero + data.nonneg]
    one = np.flatnonzero(np.diff(rows.indptr) == 1)
    if one.size == 0:
        return y
    j = rows.indices[rows.indptr[one]]
    a = rows.data[rows.indptr[one]]
    i = data.zero + one
    # a < 0 bounds x_j below: it matters when x_j is open above, and the other way round
    drop = np.where(a < 0, ~np.isfinite(hi[j]), ~np.isfinite(lo[j]))
    y = y.copy()
    y[i[drop]] = 0.0
    return y


def _lower(data: ConicData, x: np.ndarray, y: np.ndarray, lo: np.ndarray, hi: np.ndarray,
           p_shift: float, allow_fix: bool = True) -> tuple[float, str, dict[str, float]]:
    """Weak duality with the box (module docstring); without ``d``.  Columns without a
    finite box get an exactly zero residual: the point is first polished in floating
    point (:func:`_dual_polish`), then the rest is enclosed (:func:`_dual_fix`).  ``x``
    serves as the dual's ``w`` (any ``w`` gives a valid bound when ``P`` is PSD)."""
    yk, reason = _into_cone(y, data, dual=True)
    if reason:
        return -math.inf, reason, {}
    n = data.c.size
    At = data.A.T.tocsr()
    w = x

    def residual(yv: np.ndarray, wv: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rr = data.c + At @ yv
        mag = np.abs(data.c) + _abs_mv(At, yv)
        kcol = np.diff(At.indptr) + 2
        if data.P is not None:
            rr = rr + data.P @ wv
            mag = mag + _abs_mv(data.P, wv)
            kcol = kcol + np.diff(data.P.indptr) + 1
        return rr, np.where(mag > 0, _gamma(kcol) * mag + _TINY, 0.0)

    yk = _toward_bounds(data, yk, lo, hi)
    r, err = residual(yk, w)
    r, err = _refine_undecided(data, At, yk, r, err)
    term = _min_product(r - err, r + err, lo, hi)
    bad = ~np.isfinite(term)
    fix_b = 0.0
    fix_q = 0.0
    res_fix: dict[str, float] = {}
    why = ""
    if bad.any() and p_shift == 0.0 and allow_fix:
        # columns open on a side whose residual sign is not safely away from it join the
        # correction too: the correction moves every other column's residual a little
        open_side = ~np.isfinite(lo) | ~np.isfinite(hi)
        J = np.flatnonzero(bad | (open_side & (np.abs(r) <= 1e3 * err + 1e-9 * float(
            np.max(np.abs(r))))))
        polished = False
        for _ in range(6):
            if not polished:
                y2, w2 = _dual_polish(data, yk, w, J, residual)
                if y2 is not yk or w2 is not w:
                    yk, w = y2, w2
                    r, err = residual(yk, w)
                    r, err = _refine_undecided(data, At, yk, r, err)
                polished = True
            By, Bw, dv, why = _dual_fix(data, yk, r, err, J)
            if why == "the dual correction would leave the dual cone":
                # lift the multipliers too close to their cone's edge, then polish again
                nn0, nn1 = data.zero, data.zero + data.nonneg
                dy = dv[: By.size]
                near = (By >= nn0) & (By < nn1) & (yk[By] < 2 * dy)
                low, lift = By[near], 4 * dy[near]
                if low.size == 0:
                    break
                yk = yk.copy()
                yk[low] = np.maximum(yk[low], lift)
                r, err = residual(yk, w)
                r, err = _refine_undecided(data, At, yk, r, err)
                polished = False
                continue
            if why:
                break
            dy, dw = dv[: By.size], dv[By.size:]
            # the residual moves by A_By' delta_y + P_Bw delta_w on the other columns
            shift = (abs(data.A[By]).T @ dy) if By.size else np.zeros(n)
            if Bw.size:
                shift = shift + abs(data.P[:, Bw]) @ dw
            inJ = np.zeros(n, dtype=bool)
            inJ[J] = True
            e2 = np.where(inJ, 0.0, err + shift * (1 + 8 * _U))
            r2 = np.where(inJ, 0.0, r)
            term2 = np.where(inJ, 0.0, _min_product(r2 - e2, r2 + e2, lo, hi))
            still = ~np.isfinite(term2)
            if still.any():
                J = np.union1d(J, np.flatnonzero(still))
                polished = False
                why = "the correction's reach makes other columns' residual signs open"
                continue
            term, bad = term2, still
            fix_b = float(np.abs(data.b[By]) @ dy) * (1 + 4 * _U * (By.size + 2))
            if Bw.size:  # 1/2 w*'Pw* <= 1/2 w'Pw + |Pw|_Bw'dw + 1/2 dw'|P_BwBw|dw
                Pw = data.P @ w
                fix_q = (float(np.abs(Pw[Bw]) @ dw)
                         + 0.5 * float(dw @ (abs(data.P[Bw][:, Bw]) @ dw))) * (
                             1 + 8 * _U * (Bw.size + 2))
            res_fix = {"dual_correction": float(np.max(dv)) if dv.size else 0.0}
            why = ""
            break
    if bad.any():
        j = int(np.flatnonzero(bad)[0])
        late = " (no time was left for the dual correction: time_limit)" if (
            (left := time_left()) is not None and left <= 0) else ""
        tail = f" (the exact correction failed: {why})" if why and not late else ""
        return -math.inf, (f"conic variable {j} carries dual residual {r[j]:.2g} and has no "
                           f"finite bound from the constraints{late}{tail}"), {
                               "dual_residual": float(np.max(np.abs(r)))}
    by, ebyv = _dot(data.b, yk)
    s_box, e_box = _fsum(term)
    e_box += 2 * _U * float(np.sum(np.abs(term)))  # the products' own rounding
    q, eq = (0.0, 0.0)
    if data.P is not None:
        q, eq = _dot(w, data.P @ w)
        eq += float(np.sum(np.abs(w) * _gamma(np.diff(data.P.indptr) + 2)
                           * _abs_mv(data.P, w)))
    pen = 0.0
    if p_shift > 0:  # 1/2 (x'-x)'P(x'-x) >= -1/2 shift |x'-x|^2 over the box
        dist = np.maximum(np.abs(hi - x), np.abs(x - lo))
        pen = 0.5 * p_shift * float(np.sum(dist * dist)) * (1 + 1e-12)
    val = -by - 0.5 * q + s_box - pen - fix_b - fix_q
    errs = ebyv + 0.5 * eq + e_box
    total = val - errs - 8 * _U * (abs(by) + abs(q) + abs(s_box) + pen + fix_b + fix_q) - _TINY
    res = {"dual_residual": float(np.max(np.abs(r))) if r.size else 0.0,
           "dual_cone_move": float(np.max(np.abs(yk - y))) if y.size else 0.0, **res_fix}
    return _down(total), "", res


def _dual_polish(data: ConicData, y: np.ndarray, w: np.ndarray, J: np.ndarray,
                 residual) -> tuple[np.ndarray, np.ndarray]:
    """Up to two least-squares steps in floating point that shrink the dual residual on
    ``J`` (moving multipliers in proportion to their room in ``K*``, and ``w``), so that
    what :func:`_dual_fix` must enclose is rounding-sized.  No claim rests on this step:
    the residual is recomputed, with its error bound, at the point it returns."""
    if J.size == 0 or J.size > 2000:
        return y, w
    rows, wcols, Ns, room = _dual_candidates(data, y, J)
    if Ns.shape[1] == 0 or Ns.shape[1] > 20000:
        return y, w
    N = Ns.toarray() * room
    r = residual(y, w)[0]
    best = float(np.max(np.abs(r[J])))
    for _ in range(2):
        try:
            z = scipy.linalg.lstsq(N, -r[J], lapack_driver="gelsy")[0]
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
        r2 = residual(y2, w2)[0]
        now = float(np.max(np.abs(r2[J])))
        if not now < best:
            break
        y, w, r, best = y2, w2, r2, now
    return y, w


def _refine_undecided(data: ConicData, At: sp.csr_matrix, y: np.ndarray, r: np.ndarray,
                      err: np.ndarray, limit: int = 5000) -> tuple[np.ndarray, np.ndarray]:
    """The dual residual ``c + A'y`` recomputed exactly (:func:`_exact_rows`) on the
    columns whose sign the rounding bound leaves open and that ``P`` does not touch: an
    exact 0 (a combinatorial certificate met exactly) then carries no error term, so a
    free column costs nothing in the bound."""
    open_ = np.abs(r) <= err
    if data.P is not None:
        open_ &= np.diff(data.P.tocsr().indptr) == 0
    cols = np.flatnonzero(open_)[:limit]
    if cols.size == 0:
        return r, err
    vals, errs = _exact_rows(At, y, cols, data.c)
    r, err = r.copy(), err.copy()
    better = errs < err[cols]
    r[cols[better]], err[cols[better]] = vals[better], errs[better]
    return r, err


def _refine_slack(data: ConicData, x: np.ndarray, s: np.ndarray, es: np.ndarray,
                  limit: int = 5000) -> tuple[np.ndarray, np.ndarray]:
    """The slack ``b - Ax`` recomputed exactly on the equality and nonnegative rows whose
    cone membership the rounding bound leaves open (see :func:`_refine_undecided`)."""
    z, nn = data.zero, data.nonneg
    idx = np.arange(z + nn)
    open_ = np.zeros(z + nn, dtype=bool)
    open_[:z] = (np.abs(s[:z]) <= es[:z]) & (es[:z] > 0)
    open_[z:] = (s[z: z + nn] < es[z: z + nn])
    rows = idx[open_][:limit]
    if rows.size == 0:
        return s, es
    vals, errs = _exact_rows(data.A, -x, rows, data.b)
    s, es = s.copy(), es.copy()
    better = errs < es[rows]
    s[rows[better]], es[rows[better]] = vals[better], errs[better]
    return s, es


def _clip_singletons(data: ConicData, x: np.ndarray) -> np.ndarray:
    """``x`` with every bound-like row (a nonneg row ``a x_j <= b`` with one entry) met
    exactly: the coordinate is moved onto the inner side of the bound, stepping an ulp at
    a time until the computed slack is provably nonnegative."""
    rows = data.A[data.zero: data.zero + data.nonneg]
    one = np.flatnonzero(np.diff(rows.indptr) == 1)
    if one.size == 0:
        return x
    x = x.copy()
    j = rows.indices[rows.indptr[one]]
    a = rows.data[rows.indptr[one]]
    b = data.b[data.zero + one]
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


def _equality_fix(data: ConicData, x: np.ndarray, s: np.ndarray, es: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, str]:
    """Columns ``B`` and a radius ``d`` such that some ``x* = x + delta`` with ``delta``
    supported on ``B`` and ``|delta_B| <= d`` satisfies the zero-cone rows exactly.

    The residual ``r = b_E - A_E x`` is known within ``es``; ``delta_B = M^{-1} r`` with
    ``M = A_E[:, B]`` is enclosed by the classical bound ``||M^{-1} r|| <= ||R r|| /
    (1 - ||I - R M||)`` for an approximate inverse ``R`` (Krawczyk/Rump), every product
    with its rounding term.  ``B`` is chosen by QR with column pivoting, weighting columns
    by how far they are from the other constraints' boundaries (free columns first)."""
    z = data.zero
    none = np.zeros(0, dtype=int), np.zeros(0)
    if z == 0 or not (np.any(s[:z]) or np.any(es[:z])):
        return *none, ""  # no equality row, or every one met exactly
    if z > 2000:
        return *none, f"{z} equality rows are too many to correct exactly"
    AE = data.A[:z]
    rest = data.A[z:].tocsc()
    n = data.c.size
    # room of each column: free columns 1, columns in a nonneg row s_i / |a_ij| (capped)
    room = np.ones(n)
    nn = slice(0, data.nonneg)
    Ann = rest[nn].tocoo()
    if Ann.nnz:
        sl = s[z: z + data.nonneg][Ann.row]
        ratio = np.clip(sl, 0.0, None) / np.abs(Ann.data)
        np.minimum.at(room, Ann.col, np.minimum(ratio, 1.0))
    other = rest[data.nonneg:].tocoo()
    if other.nnz:
        np.minimum.at(room, other.col, 1e-3)  # cone blocks: prefer other columns
    if data.lb is not None:
        room = np.minimum(room, np.clip(x - data.lb, 0.0, 1.0))
    if data.ub is not None:
        room = np.minimum(room, np.clip(data.ub - x, 0.0, 1.0))
    # columns at a bound keep a little weight: when the roomy ones do not span the rows,
    # pivoting takes the best of them (their move is paid by the cone rows, like any slack)
    room = np.maximum(room, 1e-6)
    cached = data.cache.get("equality")
    if cached is None:
        basis = _diagonal_basis(AE.tocsc(), np.maximum(room, 1e-300))
        if basis is not None:
            cached = ("diag", basis, np.asarray(AE[np.arange(z), basis]).ravel())
            data.cache["equality"] = cached
    if cached is not None and cached[0] == "diag":
        _, B, diag = cached
        return B, _diagonal_radius(diag, np.abs(s[:z]) + es[:z]), ""
    if cached is not None:  # the basis depends on the data only: reuse it for new points
        _, B, R, beta = cached
        r = s[:z]
        rr = np.abs(R) @ (np.abs(r) + es[:z])
        d = float(np.max(rr)) * (1 + float(_gamma(z + 3))) / (1.0 - beta)
        return B, np.full(B.size, _up(d) + _TINY), ""
    left = time_left()
    if left is not None and left <= 0:
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
    r = s[:z]
    rr = np.abs(R) @ (np.abs(r) + es[:z])
    d = float(np.max(rr)) * (1 + float(_gamma(z + 3))) / (1.0 - beta)
    return B, np.full(B.size, _up(d) + _TINY), ""


def _active_fix(data: ConicData, x: np.ndarray, s: np.ndarray, es: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, str]:
    """:func:`_equality_fix` over the equality rows *and* the inequality rows (two or
    more entries) that ``x`` meets to rounding; a column at a bound row it meets
    (one entry) is pinned and does not move.  Two least-squares steps in floating point
    first meet those rows more closely (no claim rests on them: the slack is recomputed
    and the rows and pins are read again after each).  Active rows that depend on the
    others are left to the cone moves.  Returns ``(x, B, d, rows met exactly, reason)``."""
    z = data.zero
    none = np.zeros(0, dtype=int)
    fail = (x, none, np.zeros(0), none)
    left = time_left()
    if left is not None and left <= 0:
        return *fail, "no time was left for the exact correction (time_limit)"
    act, pinned = none, none
    for _ in range(3):
        a2, p2, at = _tight_rows(data, x, s, es)
        if p2.size and np.any(x[p2] != at):  # onto the bound itself, then provably inside
            x = x.copy()
            x[p2] = at
            x = _clip_singletons(data, x)
            s, es = _slack(data, x)
        act, pinned = np.union1d(act, a2), np.union1d(pinned, p2)
        rows = np.concatenate([np.arange(z), act])
        if rows.size == 0:
            return *fail, "no row is active"
        if rows.size > 2000:
            return *fail, f"{rows.size} active rows are too many to meet exactly"
        room = _column_room(data, x, s, act, pinned)
        W = (data.A[rows] @ sp.diags(room)).toarray()
        if _ == 2:
            break
        # meet the rows in floating point first, so what is enclosed is rounding-sized
        try:
            step = room * scipy.linalg.lstsq(W, s[rows], lapack_driver="gelsy")[0]
        except (ValueError, np.linalg.LinAlgError):
            return *fail, "the active rows could not be factorised"
        x2 = _clip_singletons(data, x + step)
        s2, es2 = _slack(data, x2)
        if not float(np.max(np.abs(s2[rows]))) < float(np.max(np.abs(s[rows]))):
            break
        x, s, es = x2, s2, es2
    fail = (x, none, np.zeros(0), none)
    # an independent subset of the rows over the columns that may move (of A itself, not
    # weighted by room), equality rows first (weighted up)
    movable = room > 0
    # a row none of whose columns may move is met exactly only if its slack is exactly 0
    idle = np.diff(data.A[rows][:, movable].tocsr().indptr) == 0
    exact0 = idle & (s[rows] == 0) & (es[rows] == 0)
    if np.any(idle & ~exact0 & (rows < z)):
        return *fail, ("an equality row whose columns all sit at their bounds is not met "
                       "exactly by the point")
    done = rows[exact0]
    rows, W = rows[~idle], W[~idle]
    z = int(np.sum(rows < data.zero))
    weight = np.ones(rows.size)
    weight[:z] = 1e4
    try:
        _, Rr, prow = scipy.linalg.qr(
            (data.A[rows][:, movable].toarray() * weight[:, None]).T, mode="economic",
            pivoting=True)
        diag = np.abs(np.diag(Rr))
        rank = int(np.sum(diag > 1e-10 * diag[0])) if diag.size else 0
        keep = np.sort(prow[:rank])
        if keep.size == 0 and done.size == 0:
            return *fail, "no column that meets an active row may move"
        if np.sum(keep < z) < z:
            return *fail, _singular_reason(data.A[:data.zero], data.zero)
        piv = (scipy.linalg.qr(W[keep], mode="economic", pivoting=True)[2] if keep.size
               else np.zeros(0, dtype=int))
    except (ValueError, np.linalg.LinAlgError):
        return *fail, "the active rows could not be factorised"
    B = np.sort(piv[: keep.size]) if keep.size else np.zeros(0, dtype=int)
    if np.any(room[B] == 0):
        return *fail, ("the equality and active rows are not spanned by the columns off "
                       "their bounds (a degenerate point)")
    met = rows[keep]
    dv, why = _enclose_solve(data.A[met][:, B].toarray(), np.abs(s[met]) + es[met])
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
    rows = A[z: z + nn]
    width = np.zeros(nn)
    if rows.nnz:  # a row's largest entry times the point's largest entry
        width = abs(rows).max(axis=1).toarray().ravel() * float(np.max(np.abs(x), initial=0))
    scale = np.abs(data.b[z: z + nn]) + _abs_mv(rows, x) + width
    tight = s[z: z + nn] <= 1e3 * es[z: z + nn] + 1e-12 * scale
    act = z + np.flatnonzero(tight & (nnz > 1))
    single = z + np.flatnonzero(tight & (nnz == 1))
    if single.size == 0:
        return act, np.zeros(0, dtype=int), np.zeros(0)
    Sg = A[single]
    pinned, at = np.asarray(Sg.indices, dtype=int), data.b[single] / Sg.data
    pinned, first = np.unique(pinned, return_index=True)  # a column with two: the first
    return act, pinned, at[first]


def _column_room(data: ConicData, x: np.ndarray, s: np.ndarray, act: np.ndarray,
                 pinned: np.ndarray) -> np.ndarray:
    """How far each column may move, from the inequality rows left free (not those in
    ``act``, met exactly) and native bounds; 0 on ``pinned`` columns."""
    z, nn = data.zero, data.nonneg
    A = data.A
    room = np.ones(data.c.size)
    free_nn = np.ones(nn, dtype=bool)
    free_nn[act - z] = False
    Ann = A[z: z + nn][free_nn].tocoo()
    if Ann.nnz:
        sl = s[z: z + nn][free_nn][Ann.row]
        np.minimum.at(room, Ann.col, np.minimum(np.clip(sl, 0.0, None) / np.abs(Ann.data), 1.0))
    other = A[z + nn:].tocoo()
    if other.nnz:
        np.minimum.at(room, other.col, 1e-3)
    if data.lb is not None:
        room = np.minimum(room, np.clip(x - data.lb, 0.0, 1.0))
    if data.ub is not None:
        room = np.minimum(room, np.clip(data.ub - x, 0.0, 1.0))
    room = np.maximum(room, 1e-12)
    room[pinned] = 0.0
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


def _upper(data: ConicData, x: np.ndarray, ylo: np.ndarray, yhi: np.ndarray,
           inner: np.ndarray | None = None) -> tuple[float, str, dict[str, float]]:
    """The best of :func:`_upper_at` at ``x`` and at points stepped toward the interior
    point ``inner`` (each one a valid bound)."""
    best = _upper_at(data, x, ylo, yhi)
    if best[0] == math.inf and data.nonneg:
        cand = _upper_at(data, x, ylo, yhi, active=True)
        if cand[0] < math.inf:
            best = cand
            best[2]["active_rows_exact"] = 1.0
    if inner is None or best[0] < math.inf and best[2].get("primal_residual", 0.0) == 0.0:
        return best
    for theta in (1e-10, 1e-8, 1e-6, 1e-4, 1e-2):
        cand = _upper_at(data, x + theta * (inner - x), ylo, yhi)
        if cand[0] == math.inf and data.nonneg:  # rows a relative interior point meets
            cand = _upper_at(data, x + theta * (inner - x), ylo, yhi, active=True)
        if cand[0] < best[0]:
            best = cand
            best[2]["interior_step"] = theta
        if cand[0] < math.inf and cand[2].get("primal_residual", 0.0) == 0.0:
            break
    return best


def _slack(data: ConicData, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``s = b - Ax`` with a componentwise bound on its rounding error."""
    s = data.b - data.A @ x
    mag = np.abs(data.b) + _abs_mv(data.A, x)
    es = np.where(mag > 0, _gamma(np.diff(data.A.indptr) + 2) * mag + _TINY, 0.0)
    # a row with one entry of magnitude 1 is b - x: one rounding, exact when it gives 0
    nnz = np.diff(data.A.indptr)
    unit = np.flatnonzero(nnz == 1)
    unit = unit[np.abs(data.A.data[data.A.indptr[unit]]) == 1.0]
    es[unit] = _U * np.abs(s[unit])
    return _refine_slack(data, x, s, es)


def _upper_at(data: ConicData, x: np.ndarray, ylo: np.ndarray, yhi: np.ndarray,
              active: bool = False) -> tuple[float, str, dict[str, float]]:
    """An upper bound from the primal point (without ``d``).

    The equality rows are met exactly by a point ``x*`` near ``x`` (:func:`_equality_fix`),
    so no multiplier of theirs is needed; what the cone rows still miss at ``x*`` is moved
    into the cone and paid for by the dual box, ``p* <= f(x*) + sum |move_i| |y_i|`` (zero
    duality gap; with no move the bound is ``max f`` over the box of ``x*``,
    unconditionally).  With ``active=True`` the inequality rows the point meets (to
    rounding) are met exactly too (:func:`_active_fix`): at a degenerate vertex their
    multipliers may have no finite bound, so no move of theirs can be paid for."""
    if data.lb is not None:
        x = np.maximum(x, data.lb)
    if data.ub is not None:
        x = np.minimum(x, data.ub)
    x = _clip_singletons(data, x)
    s, es = _slack(data, x)
    exact = np.zeros(0, dtype=int)
    if active:
        x, B, d, exact, reason = _active_fix(data, x, s, es)
        if reason:
            return math.inf, reason, {}
        s, es = _slack(data, x)
    else:
        B, d, reason = _equality_fix(data, x, s, es)
    if reason:
        return math.inf, reason, {}
    dx = np.zeros_like(x)
    dx[B] = d
    if data.lb is not None or data.ub is not None:
        lo_ok = data.lb is None or np.all(x[B] - d >= data.lb[B])
        hi_ok = data.ub is None or np.all(x[B] + d <= data.ub[B])
        if not (lo_ok and hi_ok):
            return math.inf, "the equality correction leaves a native variable bound", {}
    rad = es + (_abs_mv(data.A, dx) * (1 + float(_gamma(int(np.max(np.diff(
        data.A.indptr), initial=0)) + 2))) if B.size else 0.0)
    if exact.size:  # met exactly at x*: slack 0, in the cone
        s, rad = s.copy(), np.array(rad, dtype=float, copy=True)
        s[exact], rad[exact] = 0.0, 0.0
    move, reason = _cone_moves(s, rad, data)
    if reason:
        return math.inf, reason, {}
    width = np.maximum(np.abs(ylo), np.abs(yhi))
    with np.errstate(invalid="ignore"):
        pen_terms = np.where(move > 0, move * width, 0.0)
    if not np.all(np.isfinite(pen_terms)):
        i = int(np.flatnonzero(~np.isfinite(pen_terms))[0])
        return math.inf, (f"conic row {i} of the primal point is off its cone by "
                          f"{move[i]:.2g} and its multiplier has no finite bound"), {
                              "primal_residual": float(np.max(move))}
    pen, epen = _fsum(pen_terms)
    cx, ecx = _dot(data.c, x)
    q, eq = (0.0, 0.0)
    grad = np.abs(data.c)
    if data.P is not None:
        Px = data.P @ x
        q, eq = _dot(x, Px)
        eq += float(np.sum(np.abs(x) * _gamma(np.diff(data.P.indptr) + 2)
                           * _abs_mv(data.P, x)))
        grad = grad + np.abs(Px) * (1 + 1e-12) + _abs_mv(data.P, np.abs(x)) * 1e-12
    # f(x + delta) - f(x) = (c + Px)'delta + 1/2 delta'P delta
    drift = float(np.sum(grad * dx)) * (1 + 1e-12)
    if data.P is not None and B.size:
        drift += 0.5 * float(dx @ _abs_mv(data.P, dx)) * (1 + 1e-12)
    val = cx + 0.5 * q + pen + drift
    errs = ecx + 0.5 * eq + epen + _U * float(np.sum(pen_terms))
    total = val + errs + 8 * _U * (abs(cx) + abs(q) + abs(pen) + drift) + _TINY
    return _up(total), "", {"primal_residual": float(np.max(move)) if move.size else 0.0,
                            "equality_correction": float(np.max(d)) if d.size else 0.0}


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


def conic_bounds(data: ConicData, x: np.ndarray | None, y: np.ndarray | None,
                 rounds: int = 3, interior: bool = True) -> ConicBounds:
    """See :func:`_conic_bounds`; BLAS runs on one thread (the blocks are small: threads
    only contend, the more so on a loaded machine)."""
    global _POOLS
    if _POOLS is None:  # inspecting the loaded BLAS libraries costs ~1 ms: once
        from threadpoolctl import ThreadpoolController

        _POOLS = ThreadpoolController()
    with _POOLS.limit(limits=1, user_api="blas"):
        return _conic_bounds(data, x, y, rounds, interior)


_POOLS = None


def _conic_bounds(data: ConicData, x: np.ndarray | None, y: np.ndarray | None,
                  rounds: int = 3, interior: bool = True) -> ConicBounds:
    """A rigorous bracket on ``min c'x + 1/2 x'Px + d`` from an approximate primal point
    ``x`` and dual point ``y`` (either may be ``None``: that side is then infinite).

    The two sides help each other: a finite upper bound gives the primal box its
    objective cut, a finite lower bound the dual box its cut; a few rounds alternate.
    When the primal point misses a cone row whose multiplier has no finite bound,
    ``interior=True`` solves a phase-one problem once (:func:`interior_point`) and steps
    toward its point.
    """
    lower, upper = -math.inf, math.inf
    why_lo = "no dual point" if y is None else ""
    why_up = "no primal point" if x is None else ""
    res: dict[str, float] = {}
    if x is not None:
        x = np.asarray(x, dtype=float).ravel()
        if x.size != data.c.size or not np.all(np.isfinite(x)):
            x, why_up = None, "the primal point has the wrong size or is not finite"
    if y is not None:
        y = np.asarray(y, dtype=float).ravel()
        if y.size != data.b.size or not np.all(np.isfinite(y)):
            y, why_lo = None, "the dual point has the wrong size or is not finite"
    shift = _p_shift(data.P)
    if not math.isfinite(shift):
        why_lo = why_lo or "the quadratic objective could not be verified PSD"
    inner: np.ndarray | None = None
    tried_inner = False
    for it in range(rounds + 1):
        progress = False
        if x is not None and upper == math.inf:
            ylo, yhi = _dual_box(data, lower)
            val, why, r = _upper(data, x, ylo, yhi, inner)
            res.update(r)
            if math.isfinite(val):
                upper, why_up, progress = val, "", True
            else:
                why_up = why
                if not tried_inner and interior:
                    tried_inner, progress = True, True
                    inner, margin = interior_point(data)
                    res["phase_one_margin"] = margin
                    left = time_left()
                    if inner is None and left is not None and left <= 0:
                        why_up += " (no time was left for a phase-one point)"
        if y is not None and x is not None and math.isfinite(shift) and lower == -math.inf:
            yk, _ = _into_cone(y, data, dual=True)
            lo, hi = _primal_box(data, upper, x, yk)
            val, why, r = _lower(data, x, y, lo, hi, shift,
                                  allow_fix=math.isfinite(upper) or it > 0)
            res.update(r)
            if math.isfinite(val):
                lower, why_lo, progress = val, "", True
            else:
                why_lo = why
        if not progress or (math.isfinite(lower) and math.isfinite(upper)):
            break
    d = float(data.offset)
    if math.isfinite(lower):
        lower = _down(_down(lower + d) - 4 * _U * abs(d))
    if math.isfinite(upper):
        upper = _up(_up(upper + d) + 4 * _U * abs(d))
    return ConicBounds(lower=lower, upper=upper, lower_reason=why_lo, upper_reason=why_up,
                       residuals=res)

