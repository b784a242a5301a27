r"""Block exchanges: primal-dual active-set rounds that warm-start the TrIK loop
(Hintermüller, Ito & Kunisch, SIAM J. Optim. 13(3), 2003)."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla

from .columns import _Columns
from .factor import _regular


def _project_equality(at: np.ndarray, yw: np.ndarray, target: float, Cf: float
                      ) -> np.ndarray | None:
    """Euclidean projection of ``at`` onto ``{0 <= a <= C, yw'a = target}``:
    ``a = clip(at + tau yw, 0, C)`` with ``tau`` by bisection (``yw'a`` is nondecreasing in
    ``tau``); ``None`` when the set is empty."""
    def lhs(tau: float) -> float:
        return float(yw @ np.clip(at + tau * yw, 0.0, Cf))

    a0 = np.clip(at, 0.0, Cf)
    if abs(float(yw @ a0) - target) <= 1e-13 * max(1.0, float(np.abs(a0).sum())):
        return a0
    pos, neg = yw > 0, yw < 0
    lo_val = -Cf * int(neg.sum()) if neg.any() else 0.0
    hi_val = Cf * int(pos.sum()) if pos.any() else 0.0
    if not lo_val <= target <= hi_val:
        return None
    span = float(np.abs(at).max()) + (Cf if math.isfinite(Cf) else abs(target)) + 1.0
    lo, hi = -span, span
    while lhs(hi) < target:
        hi *= 2.0
    while lhs(lo) > target:
        lo *= 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if lhs(mid) < target:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-15 * max(1.0, abs(hi)):
            break
    return np.clip(at + hi * yw, 0.0, Cf)


@dataclass
class _BlockPhase:
    """Where the block-exchange phase left the active set (see :func:`_block_exchange`)."""

    state: np.ndarray
    W: list[int]
    R: np.ndarray
    u: np.ndarray
    b: float
    iterations: int
    n_added: int
    n_removed: int
    converged: bool
    history: list[tuple[float, ...]]


#: the flop rate the first block round is estimated at (its Cholesky of all n points ran
#: at about 4e10 on one core of this project's 2-core machine: n = 3000 in 0.24 s)
ROUND_FLOPS = 2.5e10


def block_seconds(n: int) -> float:
    """What the first block round may take on ``n`` points (every point free: one Cholesky
    of ``K~`` and a product with it)."""
    return (n ** 3 / 3.0 + 2.0 * n * n) / ROUND_FLOPS


def _block_exchange(cols: _Columns, yv: np.ndarray, Cf: float, shift: float, eps: float,
                    max_iter: int, deadline: float, t0: float, max_rounds: int = 30,
                    reserve: float = 0.0) -> _BlockPhase:
    r"""Primal-dual active-set exchanges (Hintermüller, Ito & Kunisch, SIAM J. Optim. 2003)
    for the Hilbert QP: start with every point free; each round solves the KKT system on
    the free set (a fresh Cholesky factor of :math:`\tilde K_{WW}`, one LAPACK call), then
    moves *every* free point that left the box to its bound and *every* bounded or zero
    point that violates its margin into the free set.  When most points end up free this
    takes a handful of rounds instead of one iteration per point.

    The rounds are not monotone, so they are only a warm start: the phase stops when no
    point moves (the KKT conditions hold), when a partition repeats, after ``max_rounds``
    rounds or when ``K~_WW`` is not numerically positive definite.  It returns the last
    working set with its factor and a *feasible* point (the last solution projected onto
    ``{y'a = 0, 0 <= a <= C}``), from which the monotone one-point-at-a-time active set
    continues; an empty working set at zero when there is nothing usable.
    """
    n = yv.size
    state = np.ones(n, dtype=np.int8)
    seen: set[bytes] = set()
    history: list[tuple[float, ...]] = []
    last: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, float] | None = None
    converged = False
    rounds = 0
    n_added, n_removed = n, 0
    # a later round is begun only when one as long as the longest so far, and the
    # ``reserve`` after the phase, end by the deadline (the first one's is decided by the
    # caller: :func:`block_seconds`)
    longest = 0.0
    while rounds < min(max_rounds, max_iter) and (
            (now := time.perf_counter()) + longest + reserve <= deadline or rounds == 0):
        key = state.tobytes()
        if key in seen:
            break
        seen.add(key)
        F = np.flatnonzero(state == 1)
        B = np.flatnonzero(state == 2)
        if F.size == 0:
            break
        cols.ensure(F)
        H = cols.block(F, F)
        H[np.diag_indices_from(H)] += shift
        hdiag = np.diag(H).copy()
        try:  # H is symmetric: H.T is the Fortran-ordered copy LAPACK factors in place
            R = sla.cholesky(H.T, lower=False, overwrite_a=True, check_finite=False)
        except np.linalg.LinAlgError:
            break
        if not _regular(R, hdiag):  # numerically singular K~_FF
            break
        rounds += 1
        u = np.zeros(n)
        u[B] = yv[B] * Cf
        r = yv[F].copy()
        if B.size:
            r -= cols.block(F, B) @ u[B]
        s = -float(u[B].sum())
        sol = sla.cho_solve((R, False), np.column_stack([r, np.ones(F.size)]),
                            check_finite=False)
        a, c = sol[:, 0], sol[:, 1]
        csum = float(c.sum())
        if not (math.isfinite(csum) and csum > 0):
            break
        b = (float(a.sum()) - s) / csum
        u[F] = a - b * c
        if not np.all(np.isfinite(u)):
            break
        last = (F, B, R, u, b)
        at = yv * u
        Ktu = cols.times(u) + shift * u
        g = yv * (Ktu + b) - 1.0  # margin - 1
        new = state.copy()
        new[(state == 1) & (at < 0.0)] = 0
        new[(state == 1) & (at > Cf)] = 2
        new[(state != 1) & (((state == 0) & (g < -eps)) | ((state == 2) & (g > eps)))] = 1
        moved = new != state
        feasible = not np.any((at[F] < 0.0) | (at[F] > Cf))
        dual = float(at.sum() - 0.5 * u @ Ktu) if feasible else math.nan
        viol = float(max(0.0, -g[state == 0].min(initial=0.0), g[state == 2].max(initial=0.0)))
        history.append((rounds, time.perf_counter() - t0, int(F.size), int(B.size), dual, viol))
        longest = max(longest, time.perf_counter() - now)
        if not moved.any():
            converged = True
            break
        n_added += int(np.count_nonzero(moved & (new == 1)))
        n_removed += int(np.count_nonzero(moved & (state == 1)))
        state = new
    aI = None
    if last is not None:
        F, B, R, u, b = last
        target = -float(Cf * yv[B].sum()) if B.size else 0.0
        aI = _project_equality(yv[F] * u[F], yv[F], target, Cf)
    if aI is None:  # nothing usable, or the free set cannot balance y'a (e.g. all but a
        # few points bounded): the one-point-at-a-time active set starts from scratch
        return _BlockPhase(state=np.zeros(n, dtype=np.int8), W=[], R=np.zeros((0, 0)),
                           u=np.zeros(n), b=0.0, iterations=rounds, n_added=n_added,
                           n_removed=n_removed + int(np.count_nonzero(state == 1)),
                           converged=False, history=history)
    state = np.zeros(n, dtype=np.int8)
    state[B] = 2
    state[F] = 1
    u = np.zeros(n)
    u[B] = yv[B] * Cf
    u[F] = yv[F] * aI
    return _BlockPhase(state=state, W=F.tolist(), R=R, u=u, b=float(b), iterations=rounds,
                       n_added=n_added, n_removed=n_removed, converged=converged,
                       history=history)
