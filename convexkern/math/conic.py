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
              J: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, str]:
    """Make the dual residual exactly zero on the columns ``J`` (which have no finite
    box): some ``(y*, w*) = (y, x) + delta`` with ``delta`` on a basis of multipliers
    (rows ``By``, within their room in ``K*``) and of ``w`` (columns ``Bw``, free) has
    ``(c + A'y* + Pw*)_J = 0`` exactly, with ``|delta| <= d`` (enclosed as in
    :func:`_equality_fix`).  Returns ``(By, Bw, d, reason)``."""
    none = np.zeros(0, dtype=int)
    if J.size > 2000:
        return none, none, 0.0, f"{J.size} unbounded variables are too many to correct"
    left = time_left()
    if left is not None and left <= 0:
        return none, none, 0.0, "no time was left for the dual correction (time_limit)"
    room_y = _dual_room(data, y)
    rows = np.flatnonzero(room_y > 0)
    AtJ = data.A[rows][:, J].T.toarray()  # |J| x |rows|
    parts, rooms = [AtJ], [room_y[rows]]
    wcols = none
    if data.P is not None:
        wcols = np.flatnonzero(np.diff(data.P.tocsc().indptr) > 0)
        parts.append(data.P[J][:, wcols].toarray())
        rooms.append(np.ones(wcols.size))
    room = np.concatenate(rooms)
    Ns = sp.hstack([data.A[rows][:, J].T] + ([data.P[J][:, wcols]] if wcols.size else []),
                   format="csc")
    basis = _diagonal_basis(Ns, room)
    if basis is not None:
        diag = np.asarray(Ns[np.arange(J.size), basis]).ravel()
        dv = _diagonal_radius(diag, np.abs(r[J]) + err[J])
        d = float(np.max(dv)) if dv.size else 0.0
        By = rows[basis[basis < rows.size]]
        Bw = wcols[basis[basis >= rows.size] - rows.size]
        if By.size and not _stays_in_dual(data, y, By, d):
            return none, none, 0.0, "the dual correction would leave the dual cone"
        return By, Bw, d, ""
    N = np.hstack(parts)
    if N.shape[1] < J.size:
        return none, none, 0.0, "too few free multipliers to cancel the dual residual"
    try:
        _, _, piv = scipy.linalg.qr(N * room, mode="economic", pivoting=True)
    except (ValueError, np.linalg.LinAlgError):
        return none, none, 0.0, "the dual residual could not be factorised"
    basis = np.sort(piv[: J.size])
    M = N[:, basis]
    try:
        R = np.linalg.inv(M)
    except np.linalg.LinAlgError:
        return none, none, 0.0, "the unbounded variables' columns are rank deficient"
    err_rm = _gamma(J.size + 2) * (np.abs(R) @ np.abs(M))
    beta = float(np.max(np.sum(np.abs(np.eye(J.size) - R @ M) + err_rm, axis=1))) * (1 + 4 * _U)
    if not beta < 0.5:
        return none, none, 0.0, (f"the unbounded variables' dual rows are too "
                                 f"ill-conditioned to correct exactly ({beta:.2g})")
    d = float(np.max(np.abs(R) @ (np.abs(r[J]) + err[J]))) * (1 + float(_gamma(J.size + 3)))
    d = _up(d / (1.0 - beta)) + _TINY
    By = rows[basis[basis < rows.size]]
    Bw = wcols[basis[basis >= rows.size] - rows.size]
    # the moved multipliers must stay in K*: every point within d of y on By
    if By.size and not _stays_in_dual(data, y, By, d):
        return none, none, 0.0, "the dual correction would leave the dual cone"
    return By, Bw, d, ""


def _stays_in_dual(data: ConicData, y: np.ndarray, By: np.ndarray, d: float) -> bool:
    """Whether ``y + delta`` is in ``K*`` for every ``delta`` on ``By`` with ``|delta| <= d``."""
    mark = np.zeros(y.size, dtype=bool)
    mark[By] = True
    nn = slice(data.zero, data.zero + data.nonneg)
    if np.any(mark[nn] & (y[nn] - d < 0)):
        return False
    for kind, i, k in data.blocks:
        size = k if kind != "psd" else k * (k + 1) // 2
        hit = mark[i: i + size]
        if not hit.any():
            continue
        if kind == "soc":
            tail = np.abs(y[i + 1: i + k]) + d * hit[1:]
            need = float(np.linalg.norm(tail)) * (1.0 + float(_gamma(k + 4)))
            if not y[i] - d * hit[0] >= need:
                return False
        elif kind == "psd":
            frob = d * math.sqrt(float(np.sum(hit))) * (1 + 4 * _U)
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
    finite box get an exactly zero residual by :func:`_dual_fix`."""
    yk, reason = _into_cone(y, data, dual=True)
    if reason:
        return -math.inf, reason, {}
    n = data.c.size
    At = data.A.T.tocsr()
    Px = np.zeros(n) if data.P is None else data.P @ x

    def residual(yv: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rr = data.c + At @ yv
        mag = np.abs(data.c) + _abs_mv(At, yv)
        kcol = np.diff(At.indptr) + 2
        if data.P is not None:
            rr = rr + Px
            mag = mag + _abs_mv(data.P, x)
            kcol = kcol + np.diff(data.P.indptr) + 1
        return rr, np.where(mag > 0, _gamma(kcol) * mag + _TINY, 0.0)

    r, err = residual(yk)
    yk = _toward_bounds(data, yk, lo, hi)
    r, err = residual(yk)
    r, err = _refine_undecided(data, At, yk, r, err)
    term = _min_product(r - err, r + err, lo, hi)
    bad = ~np.isfinite(term)
    fix_b = 0.0
    fix_q = 0.0
    res_fix: dict[str, float] = {}
    if bad.any() and p_shift == 0.0 and allow_fix:
        # columns open on a side whose residual sign is not safely away from it join the
        # correction too: the correction moves every other column's residual a little
        open_side = ~np.isfinite(lo) | ~np.isfinite(hi)
        unsafe = open_side & (np.abs(r) <= 1e3 * err + 1e-9 * float(np.max(np.abs(r))))
        J = np.flatnonzero(bad | unsafe)
        for _ in range(2):
            By, Bw, d, why = _dual_fix(data, yk, r, err, J)
            if why:
                break
            # residual moved by A_By' delta_y + P_Bw delta_w on the other columns
            shift = d * (np.asarray(abs(data.A[By]).sum(axis=0)).ravel() if By.size
                         else np.zeros(n))
            if Bw.size:
                shift = shift + d * np.asarray(abs(data.P[:, Bw]).sum(axis=1)).ravel()
            inJ = np.zeros(n, dtype=bool)
            inJ[J] = True
            e2 = np.where(inJ, 0.0, err + shift * (1 + 8 * _U))
            r2 = np.where(inJ, 0.0, r)
            term2 = np.where(inJ, 0.0, _min_product(r2 - e2, r2 + e2, lo, hi))
            still = ~np.isfinite(term2)
            if still.any():
                J = np.union1d(J, np.flatnonzero(still))
                continue
            term, bad = term2, still
            fix_b = d * float(np.sum(np.abs(data.b[By]))) * (1 + 4 * _U)
            if Bw.size:  # 1/2 w*'Pw* <= 1/2 x'Px + |Px|_Bw d + 1/2 d^2 sum|P_BwBw|
                fix_q = (d * float(np.sum(np.abs(Px[Bw])))
                         + 0.5 * d * d * float(abs(data.P[Bw][:, Bw]).sum())) * (1 + 8 * _U)
            res_fix = {"dual_correction": d}
            break
    if bad.any():
        j = int(np.flatnonzero(bad)[0])
        late = " (no time was left for the dual correction: time_limit)" if (
            (left := time_left()) is not None and left <= 0) else ""
        return -math.inf, (f"conic variable {j} carries dual residual {r[j]:.2g} and has no "
                           f"finite bound from the constraints{late}"), {"dual_residual": float(
                               np.max(np.abs(r)))}
    by, ebyv = _dot(data.b, yk)
    s_box, e_box = _fsum(term)
    e_box += 2 * _U * float(np.sum(np.abs(term)))  # the products' own rounding
    q, eq = (0.0, 0.0)
    if data.P is not None:
        q, eq = _dot(x, Px)
        eq += float(np.sum(np.abs(x) * _gamma(np.diff(data.P.indptr) + 2)
                           * _abs_mv(data.P, x)))
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
    room = np.maximum(room, 1e-300)
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
    if inner is None or best[0] < math.inf and best[2].get("primal_residual", 0.0) == 0.0:
        return best
    for theta in (1e-10, 1e-8, 1e-6, 1e-4, 1e-2):
        cand = _upper_at(data, x + theta * (inner - x), ylo, yhi)
        if cand[0] < best[0]:
            best = cand
            best[2]["interior_step"] = theta
        if cand[0] < math.inf and cand[2].get("primal_residual", 0.0) == 0.0:
            break
    return best


def _upper_at(data: ConicData, x: np.ndarray, ylo: np.ndarray, yhi: np.ndarray
              ) -> tuple[float, str, dict[str, float]]:
    """An upper bound from the primal point (without ``d``).

    The equality rows are met exactly by a point ``x*`` near ``x`` (:func:`_equality_fix`),
    so no multiplier of theirs is needed; what the cone rows still miss at ``x*`` is moved
    into the cone and paid for by the dual box, ``p* <= f(x*) + sum |move_i| |y_i|`` (zero
    duality gap; with no move the bound is ``max f`` over the box of ``x*``,
    unconditionally)."""
    if data.lb is not None:
        x = np.maximum(x, data.lb)
    if data.ub is not None:
        x = np.minimum(x, data.ub)
    x = _clip_singletons(data, x)
    s = data.b - data.A @ x
    mag = np.abs(data.b) + _abs_mv(data.A, x)
    es = np.where(mag > 0, _gamma(np.diff(data.A.indptr) + 2) * mag + _TINY, 0.0)
    # a row with one entry of magnitude 1 is b - x: one rounding, exact when it gives 0
    nnz = np.diff(data.A.indptr)
    unit = np.flatnonzero(nnz == 1)
    unit = unit[np.abs(data.A.data[data.A.indptr[unit]]) == 1.0]
    es[unit] = _U * np.abs(s[unit])
    s, es = _refine_slack(data, x, s, es)
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

