"""The phase-one problems of :mod:`convexkern.math.conic.cones`, handed to Clarabel in its
own form.

A phase one asks for a point deep inside the cone rows: ``max t`` subject to the equality
rows and ``b - A x - t e`` in the cone (primal), or ``c + A'y + P w = 0`` and
``y - t e`` in the dual cone (dual), with ``t <= 1`` and, when asked, a box around the
solver's point.  Both are the conic data already in hand with one column more (``t``'s
direction ``e``) and a few rows; written through cvxpy they cost a compilation each, which
on a problem of ten variables is ten times the solve.  Here they are stacked as sparse
matrices and passed to Clarabel directly (``P = 0``, ``A z + s = b``, ``s`` in the cones).

Only proposals: the caller re-checks every point exactly, so a wrong answer here costs a
looser bound, never a wrong one.  ``None`` means "not solved here" (Clarabel missing,
refusing the data, or ending without a point), and the caller falls back to cvxpy.
"""

from __future__ import annotations

import functools
import math
import time
from typing import Any

import numpy as np
import scipy.sparse as sp

from .data import ConicData

__all__ = ["OutOfTime", "primal", "dual"]

#: Clarabel's statuses that leave a point worth re-checking (cvxpy keeps the values of the
#: same ones: solved, solved to reduced accuracy, stopped by a limit; and stopped by
#: :func:`_stop_in_time`, an iterate like the one a limit leaves)
_USABLE = ("Solved", "AlmostSolved", "MaxIterations", "MaxTime", "CallbackTerminated")

#: the statuses of a solve ended by the clock (Clarabel's limit or :func:`_stop_in_time`)
_STOPPED = ("MaxTime", "CallbackTerminated")


class OutOfTime(Exception):
    """The phase one was ended by its time limit before it reached a point strictly
    inside: no other solver is worth starting in what is left (the caller's fallback
    through cvxpy, begun then, overran ``time_limit=1`` by a third of a second)."""


#: an iteration is not begun unless this many times the last one's duration is left
_STEP_MARGIN = 1.5


@functools.cache
def _clarabel() -> Any:
    try:
        import clarabel  # noqa: PLC0415 (optional at run time: the caller falls back)
    except ImportError:
        return None
    return clarabel


def _svec_order(k: int, lower: bool) -> np.ndarray:
    """For a PSD block of side ``k`` listed over the ``lower`` (else upper) triangle column
    by column, the position of each entry of Clarabel's order (the upper triangle column
    by column); the sqrt(2) scaling of the off-diagonal entries is the same in both."""
    if not lower:
        return np.arange(k * (k + 1) // 2)
    # the lower triangle column by column is the upper one row by row (numpy's triu
    # order); Clarabel's, the upper one column by column, is numpy's tril order transposed
    a, b = np.triu_indices(k)
    key_data = a * k + b  # (min, max) of each data entry
    c, d = np.tril_indices(k)
    key_clarabel = d * k + c
    where = np.empty(k * k, dtype=np.intp)
    where[key_data] = np.arange(key_data.size)
    return where[key_clarabel]


def _diagonal(k: int, lower: bool) -> np.ndarray:
    """Positions of the diagonal entries in a PSD block's svec (see :func:`_svec_order`)."""
    a, b = np.triu_indices(k) if lower else np.tril_indices(k)
    return np.flatnonzero(a == b)


def _cones(data: ConicData, clarabel: Any, head: list[Any]) -> tuple[list[Any], np.ndarray,
                                                                     np.ndarray]:
    """Clarabel's cones for the blocks after the zero and nonneg rows (appended to
    ``head``), the row order that puts the PSD blocks in Clarabel's layout, and the
    interior direction ``e`` of every block row (in the data's order)."""
    m = data.A.shape[0]
    order = np.arange(m)
    e = np.zeros(m)
    cones = list(head)
    pow_alpha = iter(data.p3d)
    for kind, i, k in data.blocks:
        if kind == "soc":
            cones.append(clarabel.SecondOrderConeT(k))
            e[i] = 1.0
        elif kind == "psd":
            size = k * (k + 1) // 2
            cones.append(clarabel.PSDTriangleConeT(k))
            order[i: i + size] = i + _svec_order(k, data.psd_lower)
            e[i + _diagonal(k, data.psd_lower)] = 1.0
        elif kind == "exp":
            cones.append(clarabel.ExponentialConeT())
            e[i: i + 3] = (-1.0, 1.0, 1.0)
        else:  # pow
            cones.append(clarabel.PowerConeT(float(next(pow_alpha))))
            e[i: i + 3] = (1.0, 1.0, 0.0)
    return cones, order, e


class _NotHere(Exception):
    """Clarabel refused the data or failed inside (the caller falls back to cvxpy)."""


def _solve(clarabel: Any, A: sp.spmatrix, b: np.ndarray, q: np.ndarray, cones: list[Any],
           settings: dict[str, float], time_limit: float | None
           ) -> tuple[np.ndarray, np.ndarray, bool] | None:
    """Clarabel on ``min q'z, A z + s = b, s in cones``: ``(z, multipliers, stopped)``
    (``stopped``: ended by the clock), ``None`` when it ended without a point;
    :class:`_NotHere` when it could not run, :class:`OutOfTime` when the clock ended it
    without a point."""
    opts = clarabel.DefaultSettings()
    opts.verbose = False
    for key, value in settings.items():
        setattr(opts, key, value)
    if time_limit is not None:
        opts.time_limit = max(float(time_limit), 1e-3)
        ends = time.perf_counter() + max(float(time_limit), 0.0)
    nz = q.size
    try:
        t0 = time.perf_counter()
        solver = clarabel.DefaultSolver(sp.csc_matrix((nz, nz)), q, sp.csc_matrix(A), b,
                                        cones, opts)
        if time_limit is not None and hasattr(solver, "set_termination_callback"):
            solver.set_termination_callback(_stop_in_time(ends, time.perf_counter() - t0))
        sol = solver.solve()
    except Exception as exc:  # noqa: BLE001 (any refusal: the cvxpy path is the fallback)
        raise _NotHere(str(exc)) from exc
    stopped = str(sol.status) in _STOPPED
    if str(sol.status) not in _USABLE:
        return None
    z = np.asarray(sol.x, dtype=float)
    if z.size != nz or not np.all(np.isfinite(z)):
        if stopped:
            raise OutOfTime
        return None
    return z, np.asarray(sol.z, dtype=float), stopped


def _stop_in_time(ends: float, first: float) -> Any:
    """Clarabel's termination callback that ends the solve when the next iteration would
    end past ``ends`` (a :func:`time.perf_counter` value), reckoned at
    :data:`_STEP_MARGIN` times the last iteration's duration (before the first one, the
    set-up's ``first`` seconds: a factorisation of the same system).  Clarabel's own
    ``time_limit`` is read after an iteration's work: on kernel logistic regression's
    phase one (35 ms iterations) a limit of 0.05 s ended after 0.107 s, 0.02 s after
    0.07 s."""
    step = [first]
    since: list[float] = []  # when the callback was last called (it is called before the
                             # first iteration too: no duration is known yet then)

    def stop(_info: Any) -> bool:
        now = time.perf_counter()
        if since:
            step[0] = now - since[0]
            since[0] = now
        else:
            since.append(now)
        return now + _STEP_MARGIN * step[0] > ends

    return stop


def _box_rows(n: int, near: np.ndarray, width: int, first: int) -> tuple[sp.spmatrix,
                                                                        np.ndarray]:
    """Rows ``|v_j - near_j| <= radius`` on the ``n`` columns from ``first`` of a
    ``width``-column system, as ``A v <= b``."""
    radius = max(1.0, float(np.max(np.abs(near), initial=0.0)))
    eye = sp.eye(n, width, k=first, format="csr")
    return sp.vstack([eye, -eye]), np.concatenate([near + radius, radius - near])


def primal(data: ConicData, blocked: np.ndarray | None, near: np.ndarray | None,
           settings: dict[str, float], time_limit: float | None
           ) -> tuple[np.ndarray | None, float, np.ndarray | None] | None:
    """The primal phase one (:func:`convexkern.math.conic.cones.interior_point`):
    ``(x, t, multipliers of the nonnegative rows)``, or ``None`` when not solved here.
    Rows marked ``blocked`` are only kept ``>= 0``.  With no point, ``t`` is the margin
    Clarabel found (at most 1e-12: no strictly feasible point, to its accuracy), or NaN
    when it ended without an answer (another solver may then find a point)."""
    clarabel = _clarabel()
    if clarabel is None:
        return None
    m, n = data.A.shape
    z, nn = data.zero, data.nonneg
    head = ([clarabel.ZeroConeT(z)] if z else []) + ([clarabel.NonnegativeConeT(nn)]
                                                     if nn else [])
    cones, order, e = _cones(data, clarabel, head)
    if nn:
        e[z: z + nn] = 1.0 if blocked is None else (~blocked).astype(float)
    # b - A x - t e in K  <=>  [A, e] (x, t) + s = b, s in K
    rows = [sp.hstack([data.A, sp.csr_matrix(e[:, None])], format="csr")[order]]
    rhs = [data.b[order]]
    extra_A = [sp.csr_matrix(([1.0], ([0], [n])), shape=(1, n + 1))]  # t <= 1
    extra_b = [np.ones(1)]
    if near is not None:
        Ab, bb = _box_rows(n, np.asarray(near, dtype=float), n + 1, 0)
        extra_A.append(Ab)
        extra_b.append(bb)
    for bound, sign in ((data.lb, -1.0), (data.ub, 1.0)):
        if bound is None:
            continue
        fin = np.flatnonzero(np.isfinite(bound))
        if fin.size:  # x >= lb + t: -x + t <= -lb;  x <= ub - t: x + t <= ub
            k = fin.size
            extra_A.append(sp.csr_matrix(
                (np.concatenate([np.full(k, sign), np.ones(k)]),
                 (np.tile(np.arange(k), 2), np.concatenate([fin, np.full(k, n)]))),
                shape=(k, n + 1)))
            extra_b.append(sign * bound[fin])
    extra = sp.vstack(extra_A, format="csr")
    cones.append(clarabel.NonnegativeConeT(extra.shape[0]))
    A = sp.vstack(rows + [extra], format="csc")
    b = np.concatenate(rhs + extra_b)
    q = np.zeros(n + 1)
    q[n] = -1.0
    try:
        sol = _solve(clarabel, A, b, q, cones, settings, time_limit)
    except _NotHere:
        return None
    if sol is None:
        return None, math.nan, None
    zz, duals, stopped = sol
    mult = np.abs(duals[z: z + nn]) if nn else None
    t = float(zz[n])
    if not t > 1e-12:
        if stopped:
            raise OutOfTime
        return None, t, mult
    return zz[:n], t, mult


def _dual_block_rows(data: ConicData, e: np.ndarray, width: int, ti: int) -> sp.csr_matrix:
    """The rows ``B`` (data's order) with ``-B (y, w, t)`` the slack of the dual phase
    one's cone blocks: ``y_blk - t e`` for SOC and PSD (self-dual), and for an exponential
    block ``(y0 - y1 + 2t, -y0 - t, y2 - t)``, in ``K_exp`` exactly when ``y - t (-1, 1, 1)``
    is in ``K*_exp`` (``(u, v, w)`` is in ``K*_exp`` iff ``(u - v, -u, w)`` is in
    ``K_exp``)."""
    m = data.A.shape[0]
    start = data.zero + data.nonneg
    mb = m - start
    blk = np.arange(start, m)
    is_exp = np.zeros(mb, dtype=bool)
    exp_rows = [i - start for kind, i, _ in data.blocks if kind == "exp"]
    if exp_rows:
        first = np.asarray(exp_rows)
        is_exp[np.concatenate([first, first + 1, first + 2])] = True
    plain = np.flatnonzero(~is_exp)
    tail = np.flatnonzero(e[start:] != 0.0)
    tail = tail[~is_exp[tail]]
    r_idx = [plain, tail]
    c_idx = [blk[plain], np.full(tail.size, ti)]
    vals = [-np.ones(plain.size), e[start + tail]]
    if exp_rows:
        f = np.asarray(exp_rows)
        y0 = start + f
        tt = np.full(f.size, ti)
        # rows f, f+1, f+2: B v = (-y0 + y1 - 2t, y0 + t, -y2 + t)
        r_idx += [f, f, f, f + 1, f + 1, f + 2, f + 2]
        c_idx += [y0, y0 + 1, tt, y0, tt, y0 + 2, tt]
        vals += [np.full(f.size, v) for v in (-1.0, 1.0, -2.0, 1.0, 1.0, -1.0, 1.0)]
    return sp.csr_matrix((np.concatenate(vals), (np.concatenate(r_idx), np.concatenate(c_idx))),
                         shape=(mb, width))


def dual(data: ConicData, near: np.ndarray | None, settings: dict[str, float],
         time_limit: float | None
         ) -> tuple[np.ndarray | None, np.ndarray | None, float] | None:
    """The dual phase one (:func:`convexkern.math.conic.cones.dual_interior_point`):
    ``(y, w, t)``, or ``None`` when not solved here (power cones and native bounds are the
    caller's to refuse).  With no point, ``t`` is as in :func:`primal`."""
    clarabel = _clarabel()
    if clarabel is None or data.p3d or data.lb is not None or data.ub is not None:
        return None
    m, n = data.A.shape
    z, nn = data.zero, data.nonneg
    nw = n if data.P is not None else 0
    width = m + nw + 1  # (y, w, t)
    ti = m + nw
    cones, order, e = _cones(data, clarabel, [clarabel.ZeroConeT(n)])
    # c + A'y + P w = 0  <=>  [A', P, 0] (y, w, t) + s = -c, s = 0
    parts = [data.A.T.tocsr()] + ([data.P] if nw else []) + [sp.csr_matrix((n, 1))]
    rows_A = [sp.hstack(parts, format="csr")]
    rows_b = [-data.c]
    # t <= 1, then y_i - t >= 0 on the nonnegative rows
    nonneg_A = [sp.csr_matrix(([1.0], ([0], [ti])), shape=(1, width))]
    nonneg_b = [np.ones(1)]
    if nn:
        idx = np.arange(z, z + nn)
        nonneg_A.append(sp.csr_matrix(
            (np.concatenate([-np.ones(nn), np.ones(nn)]),
             (np.tile(np.arange(nn), 2), np.concatenate([idx, np.full(nn, ti)]))),
            shape=(nn, width)))
        nonneg_b.append(np.zeros(nn))
    if near is not None:
        Ab, bb = _box_rows(m, np.asarray(near, dtype=float), width, 0)
        nonneg_A.append(Ab)
        nonneg_b.append(bb)
    nonneg = sp.vstack(nonneg_A, format="csr")
    # the blocks: s = y_blk - t e in K (SOC and PSD are self-dual); for an exponential
    # block, (y0 - y1 + 2t, -y0 - t, y2 - t) in K_exp (the dual cone's interior direction
    # (-1, 1, 1) moved through K*_exp)
    start = z + nn
    mb = m - start
    B = _dual_block_rows(data, e, width, ti)[order[start:] - start]
    head_cones = [cones[0], clarabel.NonnegativeConeT(nonneg.shape[0])]
    A = sp.vstack(rows_A + [nonneg, B], format="csc")
    b = np.concatenate(rows_b + nonneg_b + [np.zeros(mb)])
    q = np.zeros(width)
    q[ti] = -1.0
    try:
        sol = _solve(clarabel, A, b, q, head_cones + cones[1:], settings, time_limit)
    except _NotHere:
        return None
    if sol is None:
        return None, None, math.nan
    v, _, stopped = sol
    t = float(v[ti])
    if not (math.isfinite(t) and t > 1e-12):
        if stopped:
            raise OutOfTime
        return None, None, t
    return v[:m], (v[m: m + nw] if nw else None), t
