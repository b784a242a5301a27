"""The TrIK active set, :func:`trik` (Loosli, ESANN 2019, Algorithm 1): input checks and
the shift, the working-set state, the KKT step with its dual-admissibility test, the primal
optimality check in either space, the entry of violators and the final check."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.linalg as sla

from ..._validation import check_kernel, check_labels, check_matrix, check_positive
from ...errors import InvalidInputError, InvalidTypeError
from ...math.krein import blas_limit as _blas_limit
from ...math.krein import min_eigenvalue
from ...math.krein import solve_symmetric as _solve_sym
from .block_exchange import _block_exchange, block_seconds
from .columns import _Columns, _IndefiniteInverse
from .factor import _bordered_solve, _chol_append, _chol_delete, _try_factor
from .result import TrIKResult

__all__ = ["trik", "min_eigenvalue"]

def _lam_error(lmin: float | None, lam: float, add: np.ndarray, m: int,
               detail: str) -> InvalidInputError | None:
    """The error for a failed Cholesky update of ``K~_WW`` when ``lam`` is the cause.

    With ``lam <= lambda_min(K)`` (``lam < 0``) ``K~ = K - 2 lam I >= -lam I`` is positive
    definite, so a failed or tiny pivot means either that ``lam`` is above ``lambda_min``
    (possible with ``check_lam=False``; ``lmin = lambda_min(K)``, computed by the caller
    at most once per solve, None when ``K`` is not given) — an error naming ``lam`` — or
    that ``K~`` is only numerically singular (``|lam|`` at round-off level, or
    ``lam = 0``: a rank-deficient ``K``, KSVM's flipped ``U|D|U'``).  In the second case
    ``None`` is returned and the caller switches to dense bordered solves (counted in
    ``singular_pivots``), never blaming ``lam``.
    """
    if lam < 0 and lmin is not None:
        if lam > lmin + 1e-9 * max(1.0, abs(lmin)):
            return InvalidInputError(
                "lam", f"K - 2 lam I (lam = {lam:.6g}) is not positive definite on the "
                f"working set: lam must be <= lambda_min(K) = {lmin:.6g} (adding point(s) "
                f"{add.tolist()[:5]} to a working set of {m}: {detail})")
    return None



# ----------------------------------------------------------------------------- setup
@dataclass
class _Problem:
    """The checked input of :func:`trik` and the settings derived from it."""

    cols: _Columns
    Kv: np.ndarray | None  # the precomputed kernel (None: columns on demand)
    yv: np.ndarray
    hard: bool  # C is None
    Cf: float  # C, or inf for the hard margin
    lam: float
    #: lam <= lambda_min(K) established on entry (lam defaulted, or check_lam passed): a
    #: failed pivot can then never be blamed on lam, and lambda_min is not needed again
    lam_ok: bool
    lmin_known: float | None
    optimality: str
    eps: float
    max_iter: int
    block_max: int
    verbose: bool

    @property
    def n(self) -> int:
        return self.yv.size

    @property
    def shift(self) -> float:
        return -2.0 * self.lam


def _check_modes(optimality: str, exchange: str) -> None:
    if optimality not in ("krein", "hilbert"):
        raise InvalidInputError("optimality", f"must be 'krein' or 'hilbert', got {optimality!r}")
    if exchange not in ("auto", "block", "single"):
        raise InvalidInputError(
            "exchange", f"must be 'auto', 'block' or 'single', got {exchange!r}")
    if exchange == "block" and optimality == "krein":
        raise InvalidInputError(
            "exchange", "'block' starts from the Hilbert QP optimum, where the Kreĭn-space "
            "check has nothing left to add; use optimality='hilbert', or exchange='single' "
            "for the paper's algorithm")


def _check_data(K: Any, y: Any, kernel: Any, X: Any
                ) -> tuple[np.ndarray | None, np.ndarray, _Columns]:
    if K is not None:
        if kernel is not None or X is not None:
            raise InvalidInputError("kernel", "give either K or kernel and X (K=None), not both")
        Kv = check_kernel(K, "K")
        yv = check_labels(y, "y", n=Kv.shape[0])
        return Kv, yv, _Columns(np.ascontiguousarray(Kv), None, None)
    if kernel is None or X is None:
        raise InvalidInputError("K", "is None: pass kernel and X to compute columns on demand")
    if not callable(kernel):
        raise InvalidTypeError("kernel", f"expected a callable, got {type(kernel).__name__}")
    Xv = check_matrix(X, "X")
    yv = check_labels(y, "y", n=Xv.shape[0])
    return None, yv, _Columns(None, kernel, np.ascontiguousarray(Xv))


def _check_shift(lam: Any, Kv: np.ndarray | None, check_lam: bool
                 ) -> tuple[float, bool, float | None]:
    """``(lam, lam_ok, lambda_min if computed)``; lam defaults to ``min(lambda_min, 0)``."""
    if lam is None:
        if Kv is None:
            raise InvalidInputError("lam", "must be given when K is computed on demand")
        lmin = min_eigenvalue(Kv)
        return min(lmin, 0.0), True, lmin
    if isinstance(lam, bool) or not isinstance(lam, (int, float, np.floating, np.integer)):
        raise InvalidTypeError("lam", f"expected a number, got {lam!r}")
    lam = float(lam)
    if not math.isfinite(lam) or lam > 0:
        raise InvalidInputError("lam", f"must be a finite number <= 0, got {lam!r}")
    if check_lam and Kv is not None:
        lmin = min_eigenvalue(Kv)
        if lam > lmin + 1e-9 * max(1.0, abs(lmin)):
            raise InvalidInputError(
                "lam", f"= {lam:.6g} exceeds lambda_min(K) = {lmin:.6g}: the "
                "shift decomposition needs lam <= lambda_min so that K - 2 lam I is "
                "positive definite")
        return lam, True, lmin
    return lam, False, None


def _prepare(K: Any, y: Any, C: float | None, lam: float | None, *, optimality: str,
             eps: float, max_iter: int | None, kernel: Any, X: Any, block: int | None,
             exchange: str, check_lam: bool, verbose: bool) -> _Problem:
    _check_modes(optimality, exchange)
    eps = check_positive(eps, "eps")
    hard = C is None
    Cf = math.inf if hard else check_positive(C, "C")
    Kv, yv, cols = _check_data(K, y, kernel, X)
    lam_v, lam_ok, lmin = _check_shift(lam, Kv, check_lam)
    n = yv.size
    if max_iter is None:
        max_iter = 50 * n + 100
    if block is None:
        block_max = 1 if optimality == "krein" else max(1, n // 8)
    else:
        block_max = int(block)
    if block_max < 1:
        raise InvalidInputError("block", f"must be >= 1, got {block}")
    return _Problem(cols=cols, Kv=Kv, yv=yv, hard=hard, Cf=Cf, lam=lam_v, lam_ok=lam_ok,
                    lmin_known=lmin, optimality=optimality, eps=eps, max_iter=max_iter,
                    block_max=block_max, verbose=verbose)


# ----------------------------------------------------------------------------- state
@dataclass
class _State:
    """The active set: free (``W``, factor ``R`` of ``K~_WW``; ``None`` while it is
    numerically singular), bounded and zero points, ``u = y * alpha~`` and the counters."""

    state: np.ndarray  # 0: at zero, 1: free (in W), 2: at C
    u: np.ndarray  # y * alpha_tilde
    W: list[int]
    R: np.ndarray | None
    #: K_WW^{-1} of the original kernel for the Kreĭn check; with lam = 0 (K~ = K, e.g. the
    #: flipped kernel) eq. 6 is the identity and both checks coincide: no inverse needed
    kinv: _IndefiniteInverse | None
    #: Points whose entry into W was undone at once (the Hilbert QP rejects them: they
    #: violate only in the Kreĭn space).  Re-adding them would cycle; they are skipped
    #: until the working-set solution moves again.
    tabu: np.ndarray
    b: float = 0.0
    bsize: int = 1
    it: int = 0
    n_added: int = 0
    n_removed: int = 0
    singular_pivots: int = 0
    dense_solves: int = 0
    viol_max: float = math.inf
    just_added: bool = False
    last_added: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    history: list[tuple[float, ...]] = field(default_factory=list)

    @classmethod
    def empty(cls, P: _Problem) -> _State:
        n = P.n
        kinv = _IndefiniteInverse() if P.optimality == "krein" and P.lam != 0.0 else None
        return cls(state=np.zeros(n, dtype=np.int8), u=np.zeros(n), W=[],
                   R=np.zeros((0, 0)), kinv=kinv, tabu=np.zeros(n, dtype=bool))


def _warm_start(P: _Problem, st: _State, deadline: float, t0: float) -> None:
    """Start from the block exchanges' working set (:func:`_block_exchange`), unless its
    first round and the final check of a working set of every point cannot end by the
    deadline (:func:`block_seconds`, :func:`_finish_seconds`; begun under ``T = 0.5`` on
    3000 points, the call ended at 1.7 T)."""
    finish = _finish_seconds(P, P.n, False)
    if time.perf_counter() + block_seconds(P.n) + finish > deadline:
        return
    phase = _block_exchange(P.cols, P.yv, P.Cf, P.shift, P.eps, P.max_iter, deadline, t0,
                            reserve=finish)
    st.state, st.W, st.R, st.u, st.b = phase.state, phase.W, phase.R, phase.u, phase.b
    st.it, st.n_added, st.n_removed = phase.iterations, phase.n_added, phase.n_removed
    st.history.extend(phase.history)
    if P.verbose:
        print(f"trik[{P.optimality}] block exchange: {st.it} rounds, "
              f"{'converged' if phase.converged else 'not converged'}, "
              f"free={len(st.W)} bounded={int(np.sum(st.state == 2))}")


def _sides(yv: np.ndarray, state: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points whose margin bounds ``b`` from below (``b >= y - g``) and from above."""
    at0, atC = state == 0, state == 2
    lower = (at0 & (yv > 0)) | (atC & (yv < 0))
    upper = (at0 & (yv < 0)) | (atC & (yv > 0))
    return lower, upper


# ----------------------------------------------------------------------------- steps
def _working_set_step(P: _Problem, st: _State) -> bool:
    """Solve the KKT system on ``W``; step to the box and drop the points that hit a
    bound when its solution leaves it (dual admissibility).  True when points left."""
    st.it += 1
    yv, cols = P.yv, P.cols
    Wa = np.asarray(st.W)
    B = np.flatnonzero(st.state == 2)
    r = yv[Wa].copy()
    if B.size:
        r -= cols.block(Wa, B) @ st.u[B]
    s = -float(st.u[B].sum()) if B.size else 0.0
    if st.R is not None:
        rhs = np.column_stack([r, np.ones(Wa.size)])
        tmp = sla.solve_triangular(st.R, rhs, trans="T", lower=False, check_finite=False)
        sol = sla.solve_triangular(st.R, tmp, lower=False, check_finite=False)
        a, c = sol[:, 0], sol[:, 1]
        b_new = (a.sum() - s) / c.sum()
        u_new = a - b_new * c
    else:  # K~_WW numerically singular: dense solve of the bordered KKT system
        u_new, b_new = _bordered_solve(cols.block(Wa, Wa) + P.shift * np.eye(Wa.size), r, s)
        st.dense_solves += 1
    at_new = yv[Wa] * u_new
    at_old = yv[Wa] * st.u[Wa]
    low = at_new < 0.0
    high = at_new > P.Cf
    if low.any() or high.any():
        _step_to_bound(P, st, Wa, at_old, at_new - at_old, low, high)
        return True
    if st.just_added and np.max(np.abs(at_new - at_old)) > 0.0:
        st.tabu[:] = False
    st.u[Wa] = u_new
    st.b = float(b_new)
    if st.just_added:
        st.bsize = min(P.block_max, 2 * st.bsize)
    return False


def _step_to_bound(P: _Problem, st: _State, Wa: np.ndarray, at_old: np.ndarray,
                   d: np.ndarray, low: np.ndarray, high: np.ndarray) -> None:
    """Move from ``at_old`` along ``d`` until the first coefficient hits a bound and
    take the points that hit one out of ``W`` (factor downdates)."""
    Cf = P.Cf
    with np.errstate(divide="ignore", invalid="ignore"):
        t_low = np.where(low, -at_old / d, np.inf)
        t_high = np.where(high, (Cf - at_old) / d, np.inf)
    tt = np.minimum(t_low, t_high)
    t = float(np.clip(tt.min(), 0.0, 1.0))
    at = at_old + t * d
    hit = np.flatnonzero(tt <= t + 1e-12)
    for pos in hit:
        at[pos] = 0.0 if t_low[pos] <= t_high[pos] else Cf
    st.u[Wa] = P.yv[Wa] * at
    st.bsize = max(1, st.bsize // 2)
    if t <= 1e-14 and st.just_added and np.all(np.isin(np.asarray(st.W)[hit], st.last_added)):
        st.tabu[np.asarray(st.W)[hit]] = True
    elif t > 1e-14:
        st.tabu[:] = False
    m, k = len(st.W), hit.size
    # k rows deleted one at a time cost about k m^2 (each a copy of the factor and a
    # rank-one update), a new factor of what is left (m - k)^3 / 3: the flip
    # decomposition's warm start, every point free, drops most of them in one step
    # (1483 of 1500: 1.3 s of deletions against a factor of 17 rows)
    anew = st.R is not None and k * m * m > (m - k) ** 3 / 3
    gone = sorted(hit.tolist(), reverse=True)
    for pos in gone:
        idx = st.W.pop(pos)
        st.state[idx] = 0 if at[pos] == 0.0 else 2
        if st.R is not None and not anew:
            st.R = _chol_delete(st.R, pos)
        st.n_removed += 1
    if st.kinv is not None:
        st.kinv.remove_many(gone)
    if anew or st.R is None:  # back to the factor as soon as K~_WW is well conditioned
        st.R = _try_factor(P.cols, np.asarray(st.W, dtype=np.int64), P.shift)
    st.just_added = False


def _check_margins(P: _Problem, st: _State, t0: float
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Primal optimality check: the margin violations outside ``W``, with the Hilbert
    decision values ``gt = K~ u`` or the Kreĭn ones ``g = K uk`` (eq. 6); sets ``b`` when
    ``W`` is empty, ``viol_max`` and the history.  Returns ``(viol, g, gt, lower, upper)``."""
    yv, u = P.yv, st.u
    if st.kinv is None or not st.W:
        gt = P.cols.times(u) + P.shift * u  # K~ u, decision values without bias (Hilbert)
        g = gt
    else:
        Wa = np.asarray(st.W)
        z = st.kinv.solve(u[Wa])
        uk = u.copy()
        uk[Wa] = u[Wa] - 2.0 * P.lam * z
        both = P.cols.times2(u, uk)  # one pass over K for K u and K uk
        gt = both[:, 0] + P.shift * u
        g = both[:, 1]
    tvals = yv - g  # b must be >= t on "lower" points, <= t on "upper" points
    lower, upper = _sides(yv, st.state)
    if not st.W:
        lo = float(tvals[lower].max()) if lower.any() else -math.inf
        hi = float(tvals[upper].min()) if upper.any() else math.inf
        st.b = 0.5 * (lo + hi) if math.isfinite(lo) and math.isfinite(hi) else (
            lo if math.isfinite(lo) else hi if math.isfinite(hi) else 0.0)
    viol = np.full(P.n, -math.inf)
    viol[lower] = tvals[lower] - st.b
    viol[upper] = st.b - tvals[upper]
    st.viol_max = float(max(viol.max(), 0.0))
    dual = float(np.sum(yv * u) - 0.5 * u @ gt)
    n_bounded = int((st.state == 2).sum())
    st.history.append((st.it, time.perf_counter() - t0, len(st.W), n_bounded, dual,
                       st.viol_max))
    if P.verbose:
        print(f"trik[{P.optimality}] it={st.it} free={len(st.W)} bounded={n_bounded} "
              f"dual={dual:.10g} viol={st.viol_max:.3g}")
    return viol, g, gt, lower, upper


def _entering(P: _Problem, st: _State, viol: np.ndarray, g: np.ndarray, gt: np.ndarray,
              lower: np.ndarray, upper: np.ndarray) -> np.ndarray | None:
    """The most violating points to add (a block of up to ``bsize``); None when every
    violator is rejected by the Hilbert QP (Kreĭn check: the active set has stalled)."""
    yv = P.yv
    eligible = (viol > P.eps) & ~st.tabu
    if g is not gt:  # Kreĭn check: only points the Hilbert QP can accept may enter
        viol_h = np.full(P.n, -math.inf)
        viol_h[lower] = (yv - gt)[lower] - st.b
        viol_h[upper] = st.b - (yv - gt)[upper]
        eligible &= viol_h > P.eps
    cand = np.flatnonzero(eligible)
    if cand.size == 0:
        return None
    p = min(st.bsize, cand.size)
    if p < cand.size:
        add = cand[np.argpartition(-viol[cand], p - 1)[:p]]
    else:
        add = cand
    add = add[np.argsort(-viol[add])]
    if not st.W and p == 1:  # start from a violating pair, one point of each class
        other = cand[yv[cand] != yv[add[0]]]
        if other.size:
            add = np.array([add[0], other[np.argmax(viol[other])]])
    return add


def _enter(P: _Problem, st: _State, add: np.ndarray) -> None:
    """Add ``add`` to ``W`` with a block update of the factor (the most violating point
    alone when the block fails; dense mode when ``K~_WW`` becomes singular)."""
    cols = P.cols
    while True:
        cols.ensure(add)
        if st.W:
            H12 = cols.block(np.asarray(st.W), add)
        else:
            H12 = np.zeros((0, add.size))
        H22 = cols.block(add, add) + P.shift * np.eye(add.size)
        if st.R is None:  # already in dense mode
            break
        try:
            st.R = _chol_append(st.R, H12, H22)
            break
        except np.linalg.LinAlgError as exc:
            if not P.lam_ok:
                if P.lmin_known is None and P.lam < 0 and P.Kv is not None:
                    P.lmin_known = min_eigenvalue(P.Kv)  # once, at the first failed pivot
                err = _lam_error(P.lmin_known, P.lam, add, len(st.W), str(exc))
                if err is not None:
                    raise err from None
            if add.size > 1:  # retry with the most violating point alone
                add = add[:1]
                st.bsize = 1
                continue
            # The point is (numerically) a combination of the working set in K~: K~_WW
            # becomes singular, but the bordered KKT system (with y'a = 0) may not be
            # (e.g. d + 1 free points of a rank-d linear kernel).  Drop the factor and
            # solve the bordered system densely until a removal makes K~_WW regular.
            st.R = None
            st.singular_pivots += 1
            break
    if st.kinv is not None:
        st.kinv.add(H12, H22 - P.shift * np.eye(add.size))
    st.W.extend(add.tolist())
    st.last_added = add
    st.state[add] = 1
    st.n_added += add.size
    st.just_added = True


#: the flop rate :func:`_finish_seconds` assumes (its dense symmetric solve ran at
#: 1.2-1.6e10 on one core of this project's 2-core machine: 2387 free points in 0.28 s)
FINISH_FLOPS = 1e10


def _finish_seconds(P: _Problem, f: int, kept: bool) -> float:
    """What :func:`_finish` may take with ``f`` free points: a solve on them (with the kept
    ``K_WW^-1``, ``kept``, or a dense one of ``f^3 / 3`` flops after gathering their block
    of ``K``, 8 f^2 bytes at 2 GB/s; none with ``lam = 0``) and a product with ``K~``."""
    solve = 0.0 if P.lam == 0.0 else (2.0 * f * f if kept else f ** 3 / 3.0)
    gather = 0.0 if P.lam == 0.0 or kept else 8.0 * f * f / 2e9
    return (solve + 2.0 * P.n * P.n) / FINISH_FLOPS + gather


def _iterate(P: _Problem, st: _State, deadline: float, t0: float) -> str:
    """The SimpleSVM loop; returns the raw status.  A pass is begun only when one as long
    as the longest so far (a refactorisation of ``K_WW^-1`` among cheap updates) and the
    final check after it (:func:`_finish_seconds`) still end by the deadline."""
    last, longest, grew = time.perf_counter(), 0.0, 0
    f = len(st.W)
    while True:
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
        if st.it >= P.max_iter:
            return "iteration_limit"
        # the check after the next pass, whose working set may grow as the last one did
        # (a review: 512 free points estimated, 887 after the pass, 1.51 T)
        grew, f = max(grew, len(st.W) - f), len(st.W)
        kept = st.kinv is not None and st.kinv.M is not None and st.kinv.A.shape[0] == f
        if now + longest + _finish_seconds(P, f + grew, kept) > deadline:
            return "time_limit"
        if st.W and _working_set_step(P, st):
            continue
        viol, g, gt, lower, upper = _check_margins(P, st, t0)
        if st.viol_max <= P.eps:
            return "optimal"
        add = _entering(P, st, viol, g, gt, lower, upper)
        if add is None:  # every violator is rejected by the Hilbert QP
            return "stalled"
        _enter(P, st, add)


# ----------------------------------------------------------------------------- result
def _finish(P: _Problem, st: _State, status: str, t0: float) -> TrIKResult:
    """Kreĭn coefficients (eq. 6) and the final check of the returned point."""
    yv, u, state, lam, Cf, n = P.yv, st.u, st.state, P.lam, P.Cf, P.n
    fallbacks = 0
    at = yv * u
    at = np.clip(at, 0.0, Cf)
    free = np.flatnonzero(state == 1)
    bounded = np.flatnonzero(state == 2)
    alpha = np.where(state == 2, Cf, 0.0) if not P.hard else np.zeros(n)
    if free.size and lam == 0.0:  # eq. 6 with lam = 0: alpha = alpha~, nothing to invert
        alpha[free] = yv[free] * u[free]
    elif free.size:
        kinv = st.kinv
        if kinv is not None and kinv.A.shape[0] == free.size:
            order = np.asarray(st.W)
            z = np.empty(free.size)
            zw = kinv.solve(u[order])
            z[np.searchsorted(free, order)] = zw
        else:
            z, fb = _solve_sym(P.cols.block(free, free), u[free])
            fallbacks += int(fb)
        alpha[free] = yv[free] * (u[free] - 2.0 * lam * z)
    # KKT violation of the Hilbert QP at the returned point
    gt = P.cols.times(u) + P.shift * u
    tv = yv - gt
    lower, upper = _sides(yv, state)
    hv = np.zeros(n)
    hv[lower] = tv[lower] - st.b
    hv[upper] = st.b - tv[upper]
    if free.size:
        hv[free] = np.abs(tv[free] - st.b)
    dual = float(at.sum() - 0.5 * u @ gt)
    # Final check of the returned point (the loop's test looks only at the margins it
    # checks, on its own running quantities): the KKT conditions of the Hilbert QP,
    # free points included, and y'alpha~ = 0, both against round-off-aware thresholds.
    hv_max = float(max(hv.max(), 0.0))
    eps_m = np.finfo(float).eps
    dmax = float(np.max(P.cols.diag)) + P.shift if n else 0.0
    kkt_tol = 10.0 * P.eps + 10.0 * n * eps_m * (
        1.0 + float(np.max(np.abs(gt))) + max(dmax, 0.0) * float(np.abs(u).sum()))
    eq_res = abs(float(yv @ at))
    eq_ok = eq_res <= 1e3 * n * eps_m * max(1.0, float(at.sum()))
    if status == "optimal":
        if not eq_ok:
            status = "inaccurate"
        elif hv_max > kkt_tol:
            status = "krein_stationary" if P.optimality == "krein" else "inaccurate"
    kinv = st.kinv
    return TrIKResult(
        alpha_tilde=at, alpha=alpha, b=float(st.b), status=status, optimality=P.optimality,
        lam=float(lam), iterations=st.it, free=free, bounded=bounded,
        max_violation=st.viol_max, hilbert_violation=hv_max,
        dual_objective=dual, n_added=st.n_added, n_removed=st.n_removed,
        kernel_columns_computed=P.cols.computed, solve_time=time.perf_counter() - t0,
        history=st.history,
        singular_fallbacks=fallbacks + (kinv.fallbacks if kinv is not None else 0),
        refactorizations=kinv.refactorizations if kinv is not None else 0,
        kkt_tol=float(kkt_tol), equality_residual=eq_res, singular_pivots=st.singular_pivots,
        dense_solves=st.dense_solves,
    )


# ----------------------------------------------------------------------------- solver
def trik(
    K: Any,
    y: Any,
    C: float | None = 1.0,
    lam: float | None = None,
    *,
    optimality: str = "krein",
    eps: float = 1e-8,
    max_iter: int | None = None,
    time_limit: float | None = None,
    kernel: Callable[[np.ndarray, np.ndarray], Any] | None = None,
    X: Any = None,
    block: int | None = None,
    exchange: str = "auto",
    check_lam: bool = True,
    verbose: bool = False,
    blas_threads: int | None = 1,
) -> TrIKResult:
    r"""TrIK-SVM active set (Loosli, ESANN 2019, Algorithm 1) for the shift decomposition.

    Parameters
    ----------
    K : (n, n) array or None
        The (indefinite) kernel matrix; ``None`` with ``kernel`` and ``X`` to compute only
        the columns that are needed.
    y : (n,) array of -1/+1
    C : float or None
        Box constraint; ``None`` for the hard margin.
    lam : float, optional
        Shift ``λ <= min(λ_min(K), 0)``; default ``min(λ_min(K), 0)`` by Lanczos (needs
        ``K``).  ``λ > λ_min`` is rejected (``K - 2λI`` would not be positive definite).
    optimality : {"krein", "hilbert"}
        Where primal optimality is checked: with the Kreĭn-space decision function (the
        paper's algorithm) or with the Hilbert-space one (then the result is the optimum
        of the Hilbert QP, as a conic solver or SMO would find it).
    eps : float
        Margin-violation tolerance of the optimality check.
    max_iter, time_limit : optional
        Bounds on linear solves and seconds (default ``max_iter = 50 n + 100``).
    kernel, X : optional
        Kernel function ``kernel(A, B) -> (len(A), len(B))`` and the points.
    block : int, optional
        Largest number of points added at once by the one-point-at-a-time loop.  Default:
        1 for ``optimality="krein"`` (the paper adds the most violating point, which is
        what keeps the Kreĭn solution sparse), ``max(1, n // 8)`` for ``"hilbert"``
        (blocks grow by doubling while the additions stay admissible).
    exchange : {"auto", "block", "single"}
        ``"block"``: warm-start with primal-dual active-set rounds that move every
        violator at once (module docstring), Hilbert check only; ``"single"``: the
        SimpleSVM loop alone, from an empty working set (the paper's algorithm);
        ``"auto"`` (default): ``"block"`` for ``optimality="hilbert"`` with a precomputed
        ``K`` and no ``block`` given, else ``"single"`` (with a kernel function the
        rounds would evaluate every column).  Both reach the same QP optimum.
    check_lam : bool
        Verify ``λ <= λ_min(K)`` by Lanczos when ``λ`` is given (needs ``K``).
    blas_threads : int or None, default 1
        BLAS threads during the iterations (``threadpoolctl``).  Each iteration is a few
        O(m^2) triangular solves and matrix-vector products, for which one thread is
        fastest and immune to oversubscription (measured 40x faster than the default
        thread pool on a loaded 2-core machine); ``None`` leaves the pool alone.
    """
    if blas_threads is not None:
        with _blas_limit(int(blas_threads)):
            return trik(K, y, C, lam, optimality=optimality, eps=eps, max_iter=max_iter,
                        time_limit=time_limit, kernel=kernel, X=X, block=block,
                        exchange=exchange, check_lam=check_lam, verbose=verbose,
                        blas_threads=None)
    # the limit counts the preparation too (its checks read K: 24 ms at n = 3000)
    deadline = math.inf if time_limit is None else time.perf_counter() + float(time_limit)
    P = _prepare(K, y, C, lam, optimality=optimality, eps=eps, max_iter=max_iter,
                 kernel=kernel, X=X, block=block, exchange=exchange, check_lam=check_lam,
                 verbose=verbose)
    t0 = time.perf_counter()
    st = _State.empty(P)
    if exchange == "block" or (exchange == "auto" and optimality == "hilbert"
                               and P.Kv is not None and block is None):
        _warm_start(P, st, deadline, t0)
    status = _iterate(P, st, deadline, t0)
    return _finish(P, st, status, t0)
