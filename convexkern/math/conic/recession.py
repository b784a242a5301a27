"""Epigraph columns: a direction into the cone found in the conic data, before any phase one.

A solver's point at the optimum meets its cone constraints at their boundary, so rounding
leaves some cone rows a little outside their cone (1e-13 for Clarabel on kernel logistic
regression, 1e-8 for SCS).  Where such a row's multiplier has no finite bound, the move
into the cone cannot be paid for, and the upper bound needs a strictly feasible direction
(:func:`convexkern.math.conic.interior_point`: a phase-one solve, often the largest cost
of the certificate).

The conic form cvxpy writes for what researchers use has such directions for free: the
epigraph variable of ``sum_squares``, ``quad_form``, ``norm`` or ``logistic`` appears only
in its own cone block(s) and in the objective, and raising it moves its blocks' slacks
along a direction of the cone (``t`` in ``(t + 1, t - 1, 2Lx)`` of a quadratic's second-
order cone: ``(1, 1, 0, ...)``; ``t`` in ``exp(-t) <= u``: ``(-1, 0, 0)`` of the
exponential cone).  :func:`epigraph_direction` finds the columns whose slack direction
``-A[:, j]`` (or ``+A[:, j]``) lies in the cone on every row it touches (no equality row
among them) and that touch a row the point misses; a step along their sum keeps every
other row as it was and moves the missed ones into their cones.  The step itself is
chosen and verified by the upper bound as any step toward an interior point is
(:func:`convexkern.math.conic.bounds._upper`): nothing here needs to be exact.
"""

from __future__ import annotations

import numpy as np

from .data import ConicData, cached, transposed

__all__ = ["epigraph_direction"]

#: a column's step in the direction, relative to ``max(1, |x_j|)``: the upper bound tries
#: 1e-12 .. 0.32 of it, so moves of 1e-15 .. 3e-4 of the column's size (a solver's point
#: misses its cones by its accuracy, 1e-13 .. 1e-6; the bound loses about the move)
_STEP = 1e-3


def _row_kinds(data: ConicData) -> tuple[np.ndarray, np.ndarray]:
    """Per row: its kind (0 zero, 1 nonnegative, 2 second-order, 3 exponential, 4 PSD
    or power) and the index of its cone block in ``data.blocks`` (-1 for a zero or
    nonnegative row)."""
    m = data.b.size
    kind = np.full(m, 4, dtype=np.int8)
    kind[: data.zero] = 0
    kind[data.zero: data.zero + data.nonneg] = 1
    owner = np.full(m, -1, dtype=np.int64)
    if data.blocks:  # all blocks at once (a loop over logistic regression's 5000
        # exponential cones took 0.15 s, begun by the epigraph step past a deadline)
        names = [name for name, _, _ in data.blocks]
        first = np.array([i for _, i, _ in data.blocks], dtype=np.int64)
        size = np.array([k for _, _, k in data.blocks], dtype=np.int64)
        psd = np.array([name == "psd" for name in names])
        rows = np.where(psd, size * (size + 1) // 2, size)
        blk = np.repeat(np.arange(len(names)), rows)
        at = np.repeat(first - np.cumsum(rows) + rows, rows) + np.arange(int(rows.sum()))
        code = np.array([{"soc": 2, "exp": 3}.get(name, 4) for name in names], dtype=np.int8)
        owner[at] = blk
        kind[at] = code[blk]
    return kind, owner


def epigraph_direction(data: ConicData, x: np.ndarray, move: np.ndarray) -> np.ndarray | None:
    """A direction ``D`` (``x + theta D`` for small ``theta``) that moves the rows with
    ``move > 0`` (their shortfall from :func:`convexkern.math.conic.cones._cone_moves`)
    into their cones and every other row along its cone, or ``None`` when no column
    qualifies.  Each column's step is ``_STEP * max(1, |x_j|)`` (the caller scales it
    by 1e-12 .. 0.32)."""
    n = data.A.shape[1]
    missed = np.flatnonzero(move > 0)
    if missed.size == 0:
        return None
    kind, owner = cached(data, "row_kinds", lambda: _row_kinds(data))
    if np.all(kind[missed] == 4):
        return None  # PSD and power blocks are not entered this way
    # the rows of every block a missed row belongs to (a cone is entered through any of
    # its rows: an exponential cone's z is raised, or its x lowered)
    blocks = np.unique(owner[missed][owner[missed] >= 0])
    touched = np.concatenate([missed[owner[missed] < 0],
                              np.flatnonzero(np.isin(owner, blocks))])
    cols = np.unique(data.A[touched].indices)
    At = transposed(data)  # A's columns as rows, kept once per form
    D = np.zeros(n)
    for sign in (1.0, -1.0):  # x_j + sign t: the slack b - Ax moves by -sign A_j t
        free = cols[D[cols] == 0]
        if sign > 0 and data.ub is not None:
            free = free[~np.isfinite(data.ub[free])]
        if sign < 0 and data.lb is not None:
            free = free[~np.isfinite(data.lb[free])]
        good = free[_along_cones(data, At[free], -sign, kind, owner)]
        D[good] = sign * _STEP * np.maximum(1.0, np.abs(x[good]))
    return D if np.any(D) else None


def _along_cones(data: ConicData, sub, sign: float, kind: np.ndarray,
                 owner: np.ndarray) -> np.ndarray:
    """Per row of ``sub`` (columns of ``A``, as rows of ``A'``): whether the slack
    direction ``d = sign * column`` lies in the closed cone of every block it touches (no
    zero, PSD or power row; ``d >= 0`` on a nonnegative row; a floating-point test)."""
    ncol = sub.shape[0]
    coo = sub.tocoo()
    r, c, d = coo.col, coo.row, sign * coo.data
    kr = kind[r]
    ok = np.bincount(c, weights=((kr == 0) | (kr == 4)) | ((kr == 1) & (d < 0)),
                     minlength=ncol) == 0
    starts = np.array([i for _, i, _ in data.blocks] or [0], dtype=np.int64)
    cone = (kr == 2) | (kr == 3)
    if np.any(cone):
        rc, cc, dc, kc = r[cone], c[cone], d[cone], kr[cone]
        blk = owner[rc]
        pos = rc - starts[blk]
        key, inv = np.unique(cc * (len(starts) + 1) + blk, return_inverse=True)
        col_of = key // (len(starts) + 1)
        head = np.bincount(inv, weights=np.where(pos == 0, dc, 0.0), minlength=key.size)
        tail = np.bincount(inv, weights=np.where(pos > 0, dc * dc, 0.0), minlength=key.size)
        is_exp = np.bincount(inv, weights=kc == 3, minlength=key.size) > 0
        # second-order cone: d0 >= |d_1:|
        fine = np.where(is_exp, True, head >= np.sqrt(tail))
        if np.any(is_exp):  # exponential cone (a, b, c): b e^(a/b) <= c, closure b = 0
            e = [np.bincount(inv, weights=np.where(pos == p, dc, 0.0), minlength=key.size)
                 for p in range(3)]
            a, b, z = e
            with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
                inside = np.where(b > 0, b * np.exp(np.minimum(a / b, 700.0)) <= z,
                                  (b == 0) & (a <= 0))
            fine = np.where(is_exp, inside & (z >= 0), fine)
        ok &= np.bincount(col_of, weights=~fine, minlength=ncol) == 0
    return ok
