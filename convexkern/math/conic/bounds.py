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
from collections.abc import Callable
from functools import partial

import numpy as np
import scipy.sparse as sp

from ..budget import PASS_SECONDS, fits, time_left
from .boxes import _dual_box, _p_shift, _primal_box
from .cones import (
    _cone_moves,
    _into_cone,
    dual_interior_point,
    interior_point,
    no_gap,
    psd_shift,
    sure_unpaid,
)
from .data import (
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
    _worst_first,
    cached,
    exact_rows_fit,
    nonneg_rows,
    transposed,
)
from .fix import active_fix, dual_fix, dual_polish, equality_fix, fix_cost, quadratic_polish
from .recession import epigraph_direction
from .redundant import follow_exactly, ill_posed
from .slack import abs_mv, clip_singletons, slack_bound
from .weak import _box_enough, _dual_residual, _min_product, _purified, _weak_duality

__all__ = ["ConicData", "ConicBounds", "conic_bounds", "psd_shift", "interior_point"]


def _toward_bounds(data: ConicData, y: np.ndarray, lo: np.ndarray, hi: np.ndarray
                   ) -> np.ndarray:
    """Drop the multipliers of bound-like rows (``a x_j <= b``, one entry) on columns
    open on the other side.  In exact arithmetic this changes nothing (``-b_i y_i`` and
    the box term at the bound cancel), but the residual of column ``j`` then holds its
    reduced cost, which points away from the bound: the box term sits at the bound
    (finite) instead of at infinity.  Every ``y`` in ``K*`` gives a valid bound."""
    rows = nonneg_rows(data)
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
           p_shift: float, allow_fix: bool = True,
           enough: Callable[[float], bool] | None = None
           ) -> tuple[float, str, dict[str, float]]:
    """Weak duality with the box (module docstring); without ``d``.  Columns without a
    finite box get an exactly zero residual: the point is first polished in floating
    point (:func:`dual_polish`), then the rest is enclosed (:func:`dual_fix`).  ``x``
    serves as the dual's ``w`` (any ``w`` gives a valid bound when ``P`` is PSD).
    ``enough(bound)`` says when a finite bound needs no correction to tighten it."""
    yk, reason = _into_cone(y, data, dual=True)
    if reason:
        return -math.inf, reason, {}
    n = data.c.size
    At = transposed(data)
    w = x
    residual = partial(_dual_residual, data, At)
    yk = _toward_bounds(data, yk, lo, hi)
    r, err = residual(yk, w)
    r, err = _refine_undecided(data, At, yk, w, r, err)
    term = _min_product(r - err, r + err, lo, hi)
    bad = ~np.isfinite(term)
    fix_b = 0.0
    fix_q = 0.0
    res_fix: dict[str, float] = {}
    why = ""
    # columns whose finite box makes their residual costly (1e-9 on a free column boxed
    # to 1e5 by the objective cut loses 1e-4 of the bound) are worth a correction too:
    # joined once the open ones are corrected, or alone when together they cost more
    # than 1e-10 of the bound (kernel logistic regression: 8e-9 of 0.53)
    scale = abs(float(data.b @ yk)) + 1.0
    costly0 = np.isfinite(term) & (-term > 1e-12 * scale)
    worth = not bad.any() and float(-np.sum(term[costly0])) > 1e-10 * scale
    if worth and enough is not None and enough(_down(_weak_duality(data, yk, w, term, 0.0))):
        worth = False  # tight enough for the caller without the correction
    kept = (yk, w, r, err, term, bad) if worth else None
    if (bad.any() or worth) and p_shift == 0.0 and allow_fix:
        # columns open on a side whose residual sign is not safely away from it join the
        # correction too: the correction moves every other column's residual a little
        open_side = ~np.isfinite(lo) | ~np.isfinite(hi)
        J = np.flatnonzero(bad | (costly0 if worth else False) | (open_side & (
            np.abs(r) <= 1e3 * err + 1e-9 * float(np.max(np.abs(r))))))
        polished = False
        done = None
        for _ in range(6):
            if not polished:
                y2, w2 = dual_polish(data, yk, w, J, residual)
                if y2 is not yk or w2 is not w:
                    yk, w = y2, w2
                    r, err = residual(yk, w)
                    r, err = _refine_undecided(data, At, yk, w, r, err)
                    term = _min_product(r - err, r + err, lo, hi)
                    bad = ~np.isfinite(term)
                    # the polished point needs no correction (when the correction is
                    # to make costly columns exact: unless it can make the bound enough)
                    if not bad.any() and not (worth and _reachable(data, yk, w, term, 0.0,
                                                                   scale, enough)):
                        why = ""
                        break
                    # the polish moves the residual of columns outside J too: those it
                    # leaves open are corrected in the same round
                    J = np.union1d(J, np.flatnonzero(bad))
                polished = True
            By, Bw, dv, why = dual_fix(data, yk, r, err, J)
            if why == "the dual correction would leave the dual cone":
                # lift the multipliers too close to their cone's edge, then polish again
                nn0, nn1 = data.zero, data.zero + data.nonneg
                dy = dv[: By.size]
                near = (By >= nn0) & (By < nn1) & (yk[By] < 2 * dy)
                low, lift = By[near], 4 * dy[near]
                if low.size == 0 or done is not None:  # not after a correction that held
                    break
                yk = yk.copy()
                yk[low] = np.maximum(yk[low], lift)
                r, err = residual(yk, w)
                r, err = _refine_undecided(data, At, yk, w, r, err)
                polished = False
                continue
            if why:  # a larger correction that failed: the one that held stands (below)
                break
            dy, dw = dv[: By.size], dv[By.size:]
            # the residual moves by A_By' delta_y + P_Bw delta_w on the other columns
            shift = (abs(data.A[By]).T @ dy) if By.size else np.zeros(n)
            if Bw.size:
                shift = shift + abs(data.P[:, Bw]) @ dw
            inJ = np.zeros(n, dtype=bool)
            inJ[J] = True
            e2 = np.where(inJ, 0.0, (err + shift * (1 + float(_gamma(By.size + Bw.size + 2))))
                          * (1 + 2 * _U))  # each shift sums up to |By| + |Bw| terms
            r2 = np.where(inJ, 0.0, r)
            term2 = np.where(inJ, 0.0, _min_product(r2 - e2, r2 + e2, lo, hi))
            still = ~np.isfinite(term2)
            if still.any():
                J = np.union1d(J, np.flatnonzero(still))
                polished = False
                why = "the correction's reach makes other columns' residual signs open"
                continue
            term, bad = term2, still
            fix_b, fix_q = fix_cost(data, w, By, dy, Bw, dw)
            res_fix = {"dual_correction": float(np.max(dv)) if dv.size else 0.0}
            why = ""
            if done is not None and _weak_duality(data, yk, w, term, fix_b + fix_q) <= \
                    _weak_duality(data, *done[:3], done[4] + done[5]):
                break  # it paid more than it cancelled: none larger is tried
            # columns left out whose residual, moved by the correction, is now costly on
            # their box join a larger correction (kept only if it succeeds)
            costly = ~inJ & (-term > 1e-12 * scale)
            if not costly.any() or not _reachable(data, yk, w, term, fix_b + fix_q, scale,
                                                   enough):
                break
            done = (yk, w, term, bad, fix_b, fix_q, res_fix, r, err)
            J = np.union1d(J, np.flatnonzero(costly))
            polished = False
        # a larger correction that failed, or that pays more than it cancels (a Huber fit
        # on SCS lost 1.3e-4 of its bound in four): the one that held before it stands
        if done is not None and (why or bad.any() or _weak_duality(
                data, yk, w, term, fix_b + fix_q) < _weak_duality(data, *done[:3],
                                                                  done[4] + done[5])):
            yk, w, term, bad, fix_b, fix_q, res_fix, r, err = done
            why = ""
    if kept is not None and (bad.any() or why):
        # a correction tried only to tighten a finite bound failed: the bound without it,
        # at the polished point where that one is better (its residual is recomputed)
        if (yk is not kept[0] or w is not kept[1]) and p_shift == 0.0:
            kept = _better(data, kept, _terms(data, At, yk, w, lo, hi, residual))
        if data.P is not None and p_shift == 0.0:  # w the quadratic part's minimiser
            kept = (kept[0], *_polished_w(data, At, kept[0], kept[1:], lo, hi, residual,
                                          enough))
        yk, w, r, err, term, bad = kept
        fix_b = fix_q = 0.0
        res_fix, why, kept = {}, "", None
    if bad.any():
        return -math.inf, _open_column(r, bad, why), {"dual_residual": float(np.max(np.abs(r)))}
    pen = 0.0
    if p_shift > 0:  # 1/2 (x'-x)'P(x'-x) >= -1/2 shift |x'-x|^2 over the box
        dist = np.maximum(np.abs(hi - x), np.abs(x - lo))
        pen = 0.5 * p_shift * float(np.sum(dist * dist)) * (1 + 1e-12)
    total = _weak_duality(data, yk, w, term, pen + fix_b + fix_q)
    if kept is not None:  # a correction tried only to tighten: kept only where it does
        if data.P is not None and p_shift == 0.0 and not (
                enough is not None and enough(_down(total))):
            # the uncorrected point with w the quadratic part's minimiser: a correction
            # through a singular block of P (a kernel ridge regression's K) can cost more
            # than it cancels (Clarabel on one: 2e-5 with it, 1.4e-9 with this w)
            kept = (kept[0], *_polished_w(data, At, kept[0], kept[1:], lo, hi, residual,
                                          enough))
        plain = _weak_duality(data, kept[0], kept[1], kept[4], pen)
        if plain > total:
            yk, w, r, total, res_fix = kept[0], kept[1], kept[2], plain, {}
    res = {"dual_residual": float(np.max(np.abs(r))) if r.size else 0.0,
           "dual_cone_move": float(np.max(np.abs(yk - y))) if y.size else 0.0, **res_fix}
    return _down(total), "", res


def _open_column(r: np.ndarray, bad: np.ndarray, why: str) -> str:
    """Why the lower bound is open: the first column whose residual has no finite box."""
    j = int(np.flatnonzero(bad)[0])
    late = " (no time was left for the dual correction: time_limit)" if (
        (left := time_left()) is not None and left <= 0) else ""
    tail = f" (the exact correction failed: {why})" if why and not late else ""
    return (f"conic variable {j} carries dual residual {r[j]:.2g} and has no finite bound "
            f"from the constraints{late}{tail}")


def _terms(data: ConicData, At: sp.csr_matrix, y: np.ndarray, w: np.ndarray,
           lo: np.ndarray, hi: np.ndarray, residual) -> tuple:
    """``(y, w, r, err, term, bad)`` of :func:`_lower` at the dual point ``(y, w)``."""
    r, err = _refine_undecided(data, At, y, w, *residual(y, w))
    term = _min_product(r - err, r + err, lo, hi)
    return y, w, r, err, term, ~np.isfinite(term)


def _better(data: ConicData, a: tuple, b: tuple) -> tuple:
    """Of two :func:`_terms` tuples, the one with fewer open columns, then the higher
    bound (``a`` on a tie)."""
    na, nb = int(a[5].sum()), int(b[5].sum())
    if nb != na:
        return b if nb < na else a
    if na == 0 and _weak_duality(data, b[0], b[1], b[4], 0.0) > \
            _weak_duality(data, a[0], a[1], a[4], 0.0):
        return b
    return a


def _polished_w(data: ConicData, At: sp.csr_matrix, y: np.ndarray, now: tuple,
                lo: np.ndarray, hi: np.ndarray, residual,
                enough: Callable[[float], bool] | None) -> tuple:
    """``(w, r, err, term, bad)`` with ``w`` the minimiser of the quadratic part for this
    ``y`` (:func:`quadratic_polish`) where that gives a better bound than ``now`` (a
    solver's ``x`` minimises it only to the solver's accuracy)."""
    w, r, err, term, bad = now
    wanted = enough is None or bad.any() or not enough(
        _down(_weak_duality(data, y, w, term, 0.0)))
    w2 = quadratic_polish(data, y, w, residual, term, wanted)
    if w2 is w:
        return now
    return _better(data, (y, *now), _terms(data, At, y, w2, lo, hi, residual))[1:]


def _reachable(data: ConicData, y: np.ndarray, w: np.ndarray, term: np.ndarray,
               paid: float, scale: float, enough: Callable[[float], bool] | None) -> bool:
    """Whether correcting the costly columns (a finite box, a residual costing over 1e-12
    of ``scale``) exactly is worth a round of :func:`_lower`: together they cost over
    1e-10 of it and, for a caller with a target (``enough``), the bound is not enough
    with that cost and would be without it, short of the upper bound (else the rest of
    the gap decides)."""
    costly = np.isfinite(term) & (-term > 1e-12 * scale)
    cost = float(-np.sum(term[costly]))
    if not cost > 1e-10 * scale:
        return False
    if enough is None:
        return True
    now = _weak_duality(data, y, w, term, paid)
    return not enough(now) and enough(min(now + cost, getattr(enough, "upper", math.inf)))


def _refine_undecided(data: ConicData, At: sp.csr_matrix, y: np.ndarray, w: np.ndarray,
                      r: np.ndarray, err: np.ndarray, limit: int = 5000
                      ) -> tuple[np.ndarray, np.ndarray]:
    """The dual residual ``c + A'y + Pw`` recomputed exactly (:func:`_exact_rows`) on the
    columns whose sign the rounding bound leaves open: an exact 0 (a combinatorial
    certificate met exactly) then carries no error term, so a free column costs nothing
    in the bound, and a column of ``P`` pays its residual, not the rounding bound of its
    ``k``-term sum (kernel logistic regression: 1e-14 against 1e-13 on a box of 3e3)."""
    open_ = np.abs(r) <= err
    cols = np.flatnonzero(open_)
    if cols.size == 0:
        return r, err
    # [A' P]: the residual's rows over the unknowns (y, w)
    M = At if data.P is None else cached(
        data, "dual_rows", lambda: sp.hstack([At, data.P], format="csr"))
    cols = _worst_first(M, cols, err[cols], limit)
    if not exact_rows_fit(M, cols):  # past the deadline: the rounding bounds stand
        return r, err
    if data.P is None:
        vals, errs = _exact_rows(At, y, cols, data.c)
    else:
        vals, errs = _exact_rows(M, np.concatenate([y, w]), cols, data.c)
    r, err = r.copy(), err.copy()
    better = errs < err[cols]
    r[cols[better]], err[cols[better]] = vals[better], errs[better]
    return r, err


def _lower_best(data: ConicData, x: np.ndarray, y: np.ndarray, lo: np.ndarray,
                hi: np.ndarray, p_shift: float, allow_fix: bool,
                inner: tuple[np.ndarray, np.ndarray] | None,
                enough: Callable[[float], bool] | None = None
                ) -> tuple[float, str, dict[str, float]]:
    """:func:`_lower` at ``(x, y)``, and when that is infinite, at ``y`` with the
    multipliers complementarity says are zero set to zero (:func:`_purified`), then at
    points stepped toward the dual interior point ``inner = (y, w)`` (each one a valid
    bound): the multipliers of a solver's optimal point sit on their cone's boundary
    (complementarity), where no exact correction of the dual residual stays in ``K*``."""
    best = _lower(data, x, y, lo, hi, p_shift, allow_fix, enough)
    if allow_fix and math.isinf(best[0]) and (y0 := _purified(data, x, y)) is not None:
        cand = _lower(data, x, y0, lo, hi, p_shift, allow_fix, enough)
        if cand[0] > best[0]:
            best = cand
            best[2]["multipliers_zeroed"] = float(np.count_nonzero(y0 != y))
    if inner is None or math.isfinite(best[0]):
        return best
    yin, win = inner
    cand, theta = _smallest_step(
        lambda t: _lower(data, x + t * (win - x), y + t * (yin - y), lo, hi, p_shift,
                         allow_fix, enough), math.isfinite)
    if cand[0] > best[0]:
        best = cand
        best[2]["dual_interior_step"] = theta
    return best


def _upper(data: ConicData, x: np.ndarray,
           box: Callable[[], tuple[np.ndarray, np.ndarray]],
           inner: np.ndarray | None = None, memo: dict | None = None,
           near: Callable[[float], bool] | None = None
           ) -> tuple[float, str, dict[str, float]]:
    """The best of :func:`_upper_at` at ``x`` and at points stepped toward the interior
    point ``inner`` (each one a valid bound); ``box()`` gives the dual box, computed
    only where a move must be paid for.  ``memo`` (a dict kept by the caller for one
    bracket) holds the results already computed, by point (bit for bit), box and kind:
    a round after a phase one tries ``x`` itself again with the same box.  ``near(v)``
    says a bound ``v`` already makes a bracket as tight as the caller needs: the search
    for a smaller step then stops (:func:`_smallest_step`)."""
    def upper_at(point: np.ndarray, active: bool = False
                 ) -> tuple[float, str, dict[str, float]]:
        if memo is None:
            return _upper_at(data, point, box, active)
        key = (point.tobytes(), id(box), active)
        if key not in memo:
            memo[key] = _upper_at(data, point, box, active)
        val, why, res = memo[key]
        return val, why, dict(res)

    best = upper_at(x)
    if _active_helps(best, data):
        cand = upper_at(x, active=True)
        if cand[0] < math.inf:
            best = cand
            best[2]["active_rows_exact"] = 1.0
    if inner is None or best[0] < math.inf and best[2].get("primal_residual", 0.0) == 0.0:
        return best
    def at(theta: float) -> tuple[float, str, dict[str, float]]:
        cand = upper_at(x + theta * (inner - x))
        if _active_helps(cand, data):  # rows a relative interior point meets
            cand = upper_at(x + theta * (inner - x), active=True)
        return cand

    cand, theta = _smallest_step(at, lambda v: v < math.inf, near)
    if cand[0] < best[0]:
        best = cand
        best[2]["interior_step"] = theta
    return best


def _lifted_upper(data: ConicData, x: np.ndarray,
                  box: Callable[[], tuple[np.ndarray, np.ndarray]],
                  near: Callable[[float], bool] | None = None
                  ) -> tuple[float, str, dict[str, float]] | None:
    """:func:`_upper` stepping along the epigraph columns
    (:func:`convexkern.math.conic.recession.epigraph_direction`) of the cone rows ``x``
    misses, or ``None`` when there are none (or no time is left: the slack and the
    search are four passes over the form, not interrupted; begun with 15 ms left, on a
    logistic regression of 5000 exponential cones they ended 0.16 s past the deadline)."""
    if not fits(4 * PASS_SECONDS * (data.A.nnz + data.A.shape[0])):
        return None
    xc = x
    if data.lb is not None:
        xc = np.maximum(xc, data.lb)
    if data.ub is not None:
        xc = np.minimum(xc, data.ub)
    s, es = slack_bound(data, xc)
    move, reason = _cone_moves(s, es, data)
    if reason:
        return None
    D = epigraph_direction(data, xc, move)
    if D is None:
        return None
    return _upper(data, xc, box, xc + D, near=near)


def _active_helps(result: tuple[float, str, dict[str, float]], data: ConicData) -> bool:
    """Whether meeting the active inequality rows exactly can close an open upper bound:
    it failed on the equality correction, or on inequality rows alone (a cone row's
    move is not what :func:`active_fix` removes)."""
    if result[0] < math.inf or not data.nonneg:
        return False
    res = result[2]
    if "unpaid_cone_rows" in res:
        return res["unpaid_cone_rows"] == 0 and res["unpaid_inequality_rows"] > 0
    return "equality" in result[1] or "degenerate" in result[1]


#: the steps toward an interior point that are tried (the bound loses about the step
#: times the distance, so the smallest that works is searched for): four per decade, up
#: to 0.32 (a nearly ill-posed problem, SDPLIB control2, needs 0.1: a loose bound is a
#: bound); a decade's grid cost SDPLIB truss3 up to ten times the loss it needed
_STEPS = tuple(10.0 ** (-k / 4) for k in range(48, 1, -1))


def _smallest_step(at, works, near: Callable[[float], bool] | None = None
                   ) -> tuple[tuple[float, str, dict[str, float]], float]:
    """The result at the smallest step of :data:`_STEPS` whose value ``works`` (bisection:
    a larger step gives more room, so once one works the larger ones do), and that step;
    the largest step's result when none works.  The smallest step is tried first: a
    solver's point whose multipliers sit just off their cone needs no more (ECOS on a
    Huber regression: each try a dense correction of 1.5 s, seven of them before), and
    when it fails the search costs one try more than the bisection alone.  A working
    value that is ``near`` ends the search: a smaller step would tighten a bracket the
    caller already finds tight enough (cvxpy's ``socp_1`` and ``expcone_1``, Netlib
    RECIPE on SCS)."""
    first = at(_STEPS[0])
    if works(first[0]):
        return first, _STEPS[0]
    lo, hi = 1, len(_STEPS) - 1
    found = at(_STEPS[hi]), _STEPS[hi]
    if not works(found[0][0]):
        return found
    while lo < hi and not (near is not None and near(found[0][0])):
        mid = (lo + hi) // 2
        cand = at(_STEPS[mid])
        if works(cand[0]):
            found, hi = (cand, _STEPS[mid]), mid
        else:
            lo = mid + 1
    return found


def _upper_at(data: ConicData, x: np.ndarray,
              box: Callable[[], tuple[np.ndarray, np.ndarray]], active: bool = False
              ) -> tuple[float, str, dict[str, float]]:
    """An upper bound from the primal point (without ``d``).

    The equality rows are met exactly by a point ``x*`` near ``x`` (:func:`equality_fix`),
    so no multiplier of theirs is needed; what the cone rows still miss at ``x*`` is moved
    into the cone and paid for by the dual box, ``p* <= f(x*) + sum |move_i| |y_i|`` (zero
    duality gap; with no move the bound is ``max f`` over the box of ``x*``,
    unconditionally).  With ``active=True`` the inequality rows the point meets (to
    rounding) are met exactly too (:func:`active_fix`): at a degenerate vertex their
    multipliers may have no finite bound, so no move of theirs can be paid for."""
    if data.lb is not None:
        x = np.maximum(x, data.lb)
    if data.ub is not None:
        x = np.minimum(x, data.ub)
    x = clip_singletons(data, x)
    s, es = slack_bound(data, x)
    exact = np.zeros(0, dtype=int)
    if active:
        x, B, d, exact, reason = active_fix(data, x, s, es)
        if reason:
            return math.inf, reason, {}
        s, es = slack_bound(data, x)
    else:
        sure = sure_unpaid(data, s, es, box)
        if sure is not None:
            return sure
        B, d, reason = equality_fix(data, x, s, es)
    if reason:
        return math.inf, reason, {}
    dx = np.zeros_like(x)
    dx[B] = d
    if data.lb is not None or data.ub is not None:  # every column: active_fix moves others
        moved = dx > 0  # x - dx and x + dx rounded outward
        lo_ok = data.lb is None or np.all(np.where(
            moved, np.nextafter(x - dx, -np.inf), x) >= data.lb)
        hi_ok = data.ub is None or np.all(np.where(
            moved, np.nextafter(x + dx, np.inf), x) <= data.ub)
        if not (lo_ok and hi_ok):
            return math.inf, "the equality correction leaves a native variable bound", {}
    rad = es + (abs_mv(data.A, dx) * (1 + float(_gamma(int(np.max(np.diff(
        data.A.indptr), initial=0)) + 2))) if B.size else 0.0)
    if exact.size:  # met exactly at x*: slack 0, in the cone
        s, rad = s.copy(), np.array(rad, dtype=float, copy=True)
        s[exact], rad[exact] = 0.0, 0.0
    move, reason = _cone_moves(s, rad, data)
    if reason:
        return math.inf, reason, {}
    if np.any(move > 0):
        ylo, yhi = box()
        width = np.maximum(np.abs(ylo), np.abs(yhi))
        if exact.size:  # misses no bound pays for, implied by the rows met exactly
            move[follow_exactly(data, x, np.where(np.isfinite(width), 0.0, move), exact)] = 0.0
        with np.errstate(invalid="ignore"):
            pen_terms = np.where(move > 0, move * width, 0.0)
    else:
        pen_terms = np.zeros(move.size)
    if np.any(move > 0) and not no_gap(data, width):
        # which rows are off their cone, for _active_helps: inequality rows alone can be
        # met exactly instead (a logistic loss's u + v <= 1 after the epigraph step)
        missed = np.flatnonzero(move > 0)
        nn = (missed >= data.zero) & (missed < data.zero + data.nonneg)
        return math.inf, ("the moves' price needs a zero duality gap, unproved: a cone "
                          "block's multiplier has no finite bound"), {
                              "unpaid_inequality_rows": float(np.sum(nn)),
                              "unpaid_cone_rows": float(np.sum(~nn))}
    if not np.all(np.isfinite(pen_terms)):
        unpaid = np.flatnonzero(~np.isfinite(pen_terms))
        i = int(unpaid[0])
        nn = (unpaid >= data.zero) & (unpaid < data.zero + data.nonneg)
        return math.inf, (f"conic row {i} of the primal point is off its cone by "
                          f"{move[i]:.2g} and its multiplier has no finite bound"), {
                              "primal_residual": float(np.max(move)),
                              "unpaid_inequality_rows": float(np.sum(nn)),
                              "unpaid_cone_rows": float(np.sum(~nn))}
    pen, epen = _fsum(pen_terms)
    cx, ecx = _dot(data.c, x)
    q, eq = (0.0, 0.0)
    grad = np.abs(data.c)
    if data.P is not None:
        Px = data.P @ x
        q, eq = _dot(x, Px)
        eq += float(np.sum(np.abs(x) * _gamma(np.diff(data.P.indptr) + 2)
                           * abs_mv(data.P, x)))
        grad = grad + np.abs(Px) * (1 + 1e-12) + abs_mv(data.P, np.abs(x)) * 1e-12
    # f(x + delta) - f(x) = (c + Px)'delta + 1/2 delta'P delta
    drift = float(np.sum(grad * dx)) * (1 + 1e-12)
    if data.P is not None and B.size:
        drift += 0.5 * float(dx @ abs_mv(data.P, dx)) * (1 + 1e-12)
    val = cx + 0.5 * q + pen + drift
    errs = ecx + 0.5 * eq + epen + _U * float(np.sum(pen_terms))
    total = val + errs + 8 * _U * (abs(cx) + abs(q) + abs(pen) + drift) + _TINY
    return _up(total), "", {"primal_residual": float(np.max(move)) if move.size else 0.0,
                            "moves_paid": float(np.any(move > 0)),
                            "equality_correction": float(np.max(d)) if d.size else 0.0}


def _with_offset(lower: float, upper: float, d: float) -> tuple[float, float]:
    """The bracket of ``f + d`` from one of ``f``, rounded outward."""
    if math.isfinite(lower):
        lower = _down(_down(lower + d) - 4 * _U * abs(d))
    if math.isfinite(upper):
        upper = _up(_up(upper + d) + 4 * _U * abs(d))
    return lower, upper


def _once(make: Callable[[], tuple[np.ndarray, np.ndarray]]
          ) -> Callable[[], tuple[np.ndarray, np.ndarray]]:
    """``make``, called at the first use only (a box is costly and often not needed);
    ``get.ready()`` says whether it has been made."""
    memo: list = []

    def get() -> tuple[np.ndarray, np.ndarray]:
        if not memo:
            memo.append(make())
        return memo[0]
    get.ready = lambda: bool(memo)  # type: ignore[attr-defined]
    return get


#: the residuals a lower bound reports of itself (:func:`_lower`, :func:`_lower_best`)
_LOWER_KEYS = ("dual_residual", "dual_cone_move", "dual_correction", "dual_interior_step",
               "multipliers_zeroed")


#: the least a certificate takes, however small the form (2.6-3 ms on cvxpy's standard
#: problems of 2 to 16 rows and entries): one begun with less left than this and a pass
#: over the form ended 10-15 ms past a deadline of 0.2 s
_LEAST_SECONDS = 3e-3


def conic_bounds(data: ConicData, x: np.ndarray | None, y: np.ndarray | None,
                 rounds: int = 3, interior: bool = True,
                 enough: Callable[[float, float], bool] | None = None) -> ConicBounds:
    """See :func:`_conic_bounds`; BLAS runs on one thread (the blocks are small: threads
    only contend, the more so on a loaded machine)."""
    global _POOLS
    if _POOLS is None:  # inspecting the loaded BLAS libraries costs ~1 ms: once
        from threadpoolctl import ThreadpoolController

        _POOLS = ThreadpoolController()
    with _POOLS.limit(limits=1, user_api="blas"):
        return _conic_bounds(data, x, y, rounds, interior, enough)


_POOLS = None


def _conic_bounds(data: ConicData, x: np.ndarray | None, y: np.ndarray | None,
                  rounds: int = 3, interior: bool = True,
                  enough: Callable[[float, float], bool] | None = None) -> ConicBounds:
    """A rigorous bracket on ``min c'x + 1/2 x'Px + d`` from an approximate primal point
    ``x`` and dual point ``y`` (either may be ``None``: that side is then infinite).

    The two sides help each other: a finite upper bound gives the primal box its
    objective cut, a finite lower bound the dual box its cut; a few rounds alternate.
    When the primal point misses a cone row whose multiplier has no finite bound,
    ``interior=True`` solves a phase-one problem once (:func:`interior_point`) and steps
    toward its point.

    ``enough(lower, upper)`` (offset included) says when a bracket is tight enough for
    the caller: a correction that would only tighten a finite lower bound is then
    skipped.  The bounds are valid either way.
    """
    lower, upper = -math.inf, math.inf
    d = float(data.offset)
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
    if not fits(_LEAST_SECONDS + PASS_SECONDS * (data.A.nnz + data.A.shape[0])):
        # past the caller's deadline and its grace: nothing is started (a late solver's
        # answer is reported with both sides open rather than past time_limit + 5 %)
        late = "no time was left for the certificate (time_limit)"
        return ConicBounds(lower=-math.inf, upper=math.inf, lower_reason=why_lo or late,
                           upper_reason=why_up or late, residuals=res)
    shift = _p_shift(data.P)
    if not math.isfinite(shift):
        why_lo = why_lo or "the quadratic objective could not be verified PSD"
    near = None  # an upper bound whose bracket with the lower bound is tight enough
    # (not while there is none: measured against the point's own value, a bracket short
    # of tol by less than 0.1 tol crossed it, ECOS on a logistic regression)
    if enough is not None and x is not None:
        def near(v: float) -> bool:
            return lower > -math.inf and enough(*_with_offset(lower, v, d))
    inner: np.ndarray | None = None
    dual_inner: tuple[np.ndarray, np.ndarray] | None = None
    tried_inner = tried_dual = stepped = tried_lift = paid = hopeless = False
    lower_cut = math.nan  # the upper bound whose cut the lower bound's box had
    failed_at: float | None = None  # the lower bound whose dual box the upper failed with
    boxes: dict[float, Callable[[], tuple[np.ndarray, np.ndarray]]] = {}
    tried: dict = {}  # the upper bounds computed, by point, box and kind (_upper's memo)

    def dual_box(at: float) -> Callable[[], tuple[np.ndarray, np.ndarray]]:
        """The dual box of the cut at ``at``, built at its first use, once per value."""
        if at not in boxes:
            boxes[at] = _once(lambda: _dual_box(data, at))
        return boxes[at]
    for it in range(rounds + 1):
        left = time_left()
        if it > 0 and left is not None and left <= 0:
            break  # past the caller's deadline: the bounds of the rounds run so far stand
        progress = False
        if x is not None and upper == math.inf and not hopeless and not tried_lift and (
                failed_at is not None and failed_at == lower):
            # before a phase one: a step along the epigraph columns (no solve at all)
            tried_lift = True
            lifted = _lifted_upper(data, x, dual_box(lower), near)
            if lifted is not None:
                res.update(lifted[2])
                if math.isfinite(lifted[0]):
                    upper, why_up, progress = lifted[0], "", True
                    paid = bool(lifted[2].get("moves_paid"))
                    res["epigraph_step"] = 1.0
        if x is not None and upper == math.inf and not hopeless:
            # the phase one (a solve of its own) only once the upper bound has failed with
            # the box of the lower bound's cut too: the cut often closes it (SDPLIB mcp100,
            # dual form: a 23 s phase one for a bound the cut gave anyway)
            again = failed_at is not None and failed_at == lower
            if again and interior and not tried_inner:
                tried_inner, progress = True, True
                inner, margin = interior_point(data, x)
                res["phase_one_margin"] = margin
                left = time_left()
                if inner is None and left is not None and left <= 0:
                    why_up += " (no time was left for a phase-one point)"
            if not again or (inner is not None and not stepped):
                stepped = inner is not None
                val, why, r = _upper(data, x, dual_box(lower), inner, tried, near)
                res.update(r)
                if math.isfinite(val):
                    upper, why_up, progress = val, "", True
                    paid = bool(r.get("moves_paid"))
                elif ill_posed(data):
                    # the equality rows are within rounding of an inconsistent system: no
                    # point (a phase one's, a step's) is corrected onto them
                    why_up, failed_at, hopeless = why, lower, True
                    res["ill_posed_equalities"] = 1.0
                    progress = progress or (interior and not tried_inner)  # the lower's
                else:
                    why_up, failed_at = why, lower
                    progress = progress or (interior and not tried_inner)
        # a lower bound from before the upper bound's cut and the exact correction it
        # allows is computed again with them, once (the upper bound is not computed again;
        # Netlib SC205 on SCS: 1.9e-4 and two re-solves, where the cut's box gives 4.5e-5)
        again = (lower > -math.inf and math.isfinite(upper) and lower_cut != upper
                 and not (enough is not None and enough(*_with_offset(lower, upper, d)))
                 and ((left := time_left()) is None or left > 0))
        if y is not None and x is not None and math.isfinite(shift) and (
                lower == -math.inf or again):
            lower_cut = upper
            yk, _ = _into_cone(y, data, dual=True)
            fix = math.isfinite(upper) or it > 0

            def good(v: float, up: float = upper) -> bool:
                return enough is not None and enough(*_with_offset(v, up, d))
            good.upper = upper  # what a lower bound can reach (without d)
            if (at_tol := getattr(enough, "at_tol", None)) is not None:
                good.at_tol = lambda v, up=upper: at_tol(*_with_offset(v, up, d))

            # the early stop prices the box's residual terms only: not with a PSD shift,
            # whose penalty (_lower) grows with the box's width too
            lo, hi = _primal_box(data, upper, x, yk, None if enough is None or shift > 0
                                 else _box_enough(data, x, yk, good))
            val, why, r = _lower_best(data, x, y, lo, hi, shift, fix, dual_inner,
                                      good if enough is not None else None)
            if math.isfinite(val) and val > lower:
                for k in _LOWER_KEYS:  # the bound replaced: its own residuals go
                    res.pop(k, None)
                res.update(r)
                lower, why_lo, progress = val, "", True
            elif lower == -math.inf:  # (a finite bound from before stands as it was)
                res.update(r)
                why_lo = why
                # the dual phase one only once the exact correction itself has failed
                if fix and not tried_dual and interior and shift == 0.0:
                    tried_dual, progress = True, True
                    yin, win, margin = dual_interior_point(data, y)
                    res["dual_phase_one_margin"] = margin
                    if yin is not None:
                        dual_inner = (yin, x if win is None else win)
        if not progress or (math.isfinite(lower) and math.isfinite(upper)):
            break
    if paid and math.isfinite(upper) and not math.isfinite(lower):  # the moves' price:
        upper, why_up = math.inf, ("the moves are priced over the dual feasible set, "
                                   "which no dual point proves nonempty")
    if math.isfinite(upper):  # a failed try's count of the rows it could not pay for
        res = {k: v for k, v in res.items() if not k.startswith("unpaid_")}
    lower, upper = _with_offset(lower, upper, d)
    return ConicBounds(lower=lower, upper=upper, lower_reason=why_lo, upper_reason=why_up,
                       residuals=res)

