r"""A separability witness for trajectories: a proof that the hard-margin SDPM is feasible.

SCS said ``infeasible`` on the hard-margin primal (6) at :math:`\tau = 10^6` rad on
trajectories that a margin separates.  A claim of infeasibility is refuted by one point
(:math:`w, b`) with :math:`y_i(w^\top\tilde x_i(\theta) + b) > 0` for every
:math:`\theta\in[-\tau,\tau]` and every ``i`` (then :math:`(w, b)/\gamma`, :math:`\gamma`
the smallest such margin, is feasible for (6), and the dual (8) is bounded by its
value).  The witness is searched by a small, well-scaled SOCP and then **checked in
floating point with rigorous rounding** (:func:`convexkern.math.sdpm.rigorous_min`), so
the verdict ``"separable"`` is a proof whatever the SOCP's accuracy:

1. *strictly on the real line*: :math:`g_i(\theta) = y_i(w^\top\tilde x_i(\theta) + b) - 1
   - \varepsilon_i\theta^2 \ge 0` on :math:`\mathbb R` (degree 2; the 2x2 Gram / second-order
   cone of :func:`convexkern.math.sos.nonneg_on_R`), :math:`\varepsilon_i` a small multiple of
   :math:`\|\tilde x_{i2}\|`: a leading coefficient clearly above its rounding makes the
   check free of :math:`\tau` (a witness on :math:`\mathbb R` serves every segment, also
   :math:`\tau = 10^{12}`, where the rounding of the leading coefficient times
   :math:`\tau^2` swamps any margin);
2. *on the segment*, after the substitution :math:`\theta = \tau s` (coefficient rows
   :math:`\tilde x_{ik}\tau^k`, :math:`s\in[-1, 1]`, Markov–Lukács form), for data
   separable on the segment only.

Both SOCPs are solved on the data divided by their largest row norm (feasibility is
invariant under scaling ``w``).  Degrees ``r <= 2`` only (the rigorous check's reach).
"""

from __future__ import annotations

import math
import warnings

import cvxpy as cp
import numpy as np

from ...math import sos
from ...math.sdpm import UNIT, coefficient_error, rigorous_min

#: the strict part of the real-line witness, relative to the leading row's norm
STRICT = 1e-3


def check_witness(X: np.ndarray, y: np.ndarray, segment: float, w: np.ndarray,
                  b: float) -> float:
    """A rigorous lower bound on :math:`\\min_i\\min_{|\\theta|\\le\\tau} y_i(w^\\top\\tilde
    x_i(\\theta) + b)` (``> 0``: ``(w, b)`` separates the trajectories)."""
    if not (np.all(np.isfinite(w)) and math.isfinite(b)):
        return -math.inf
    P = y[:, None] * (X @ w)
    E = coefficient_error(X, w)
    P[:, 0] += y * b
    E[:, 0] += 2 * UNIT * (np.abs(P[:, 0]) + abs(b))  # the rounding of adding b
    lo = rigorous_min(P, E, segment)
    return float(lo.min()) if lo.size else math.inf


def _solve(cols, w: cp.Variable, b: cp.Variable | None, segment: float | None):
    con = sos.nonneg_on_R(cols) if segment is None else sos.nonneg_on_segment(cols, segment)
    obj = cp.sum_squares(w) + (cp.square(b) if b is not None else 0)
    prob = cp.Problem(cp.Minimize(obj), con.constraints)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            prob.solve(solver="CLARABEL")
        except (cp.error.SolverError, ValueError, ArithmeticError):
            return None
    if w.value is None:
        return None
    return np.asarray(w.value, float), float(b.value) if b is not None else 0.0


def separability(X: np.ndarray, y: np.ndarray, segment: float | None,
                 bias: bool = True) -> tuple[str, str, np.ndarray | None, float]:
    """Whether a ``(w, b)`` separates the trajectories ``X`` ``(m, r+1, n)`` with labels
    ``y`` on ``[-segment, segment]``: ``(verdict, reason, w, b)`` with the verdict
    ``"separable"`` (a witness passed the rigorous check: a proof) or ``"unknown"``."""
    m, R, n = X.shape
    if segment is None or R > 3 or m == 0:
        return "unknown", "the witness check handles degree <= 2 on a segment", None, 0.0
    tau = float(segment)
    tries = []
    if R == 3:
        s = float(np.sqrt(np.einsum("ikn,ikn->ik", X, X)).max())
        tries.append(("the real line", X / s, None, s))
    tk = tau ** np.arange(R)
    Xs = X * tk[None, :, None]
    s = float(np.sqrt(np.einsum("ikn,ikn->ik", Xs, Xs)).max())
    tries.append(("the segment", Xs / s, 1.0, s))
    for where, Xn, seg, s in tries:
        if not (math.isfinite(s) and s > 0):
            continue
        w = cp.Variable(n, name="w")
        b = cp.Variable(name="b") if bias else None
        cols = [cp.multiply(y, Xn[:, k, :] @ w) for k in range(R)]
        cols[0] = cols[0] - 1.0 if b is None else cols[0] + cp.multiply(y, b) - 1.0
        if seg is None:
            eps = STRICT * np.sqrt(np.einsum("in,in->i", Xn[:, 2, :], Xn[:, 2, :]))
            cols[2] = cols[2] - eps
        got = _solve(cols, w, b, seg)
        if got is None:
            continue
        wv, bv = got[0] / s, got[1]
        gamma = check_witness(X, y, tau, wv, bv)
        if gamma > 0:
            return "separable", (
                f"a (w, b) found on {where} separates every trajectory on [-{tau:.4g}, "
                f"{tau:.4g}]: its worst-case margin is >= {gamma:.3g} with the rounding of "
                "its evaluation bounded (rigorous check)"), wv, bv
    return "unknown", "no separating (w, b) passed the rigorous check", None, 0.0


def clash_fact(X: np.ndarray, y: np.ndarray):
    """The hard-margin builders' lazy proof of infeasibility from the data alone: two
    trajectories that are equal entry for entry (exact comparison) with opposite labels
    ask ``y w'x(theta) >= 1`` and ``-y w'x(theta) >= 1`` of one number; ``""`` when no
    such pair exists (which proves nothing either way)."""

    def fact() -> str:
        flat = np.ascontiguousarray(np.asarray(X, dtype=float).reshape(len(y), -1))
        seen: dict[bytes, int] = {}
        for i, row in enumerate(flat):
            j = seen.setdefault(row.tobytes(), i)
            if j != i and y[j] != y[i]:
                return (f"trajectories {j} and {i} are equal with opposite labels: no w "
                        "meets both margin constraints")
        return ""

    return fact


def separable_fact(X: np.ndarray, y: np.ndarray, segment: float | None, bias: bool):
    """The hard-margin builders' lazy fact (:attr:`convexkern.Formulation.facts`): the
    reason the primal is feasible (its dual bounded), or ``""`` when not proven."""

    def fact() -> str:
        verdict, reason, _w, _b = separability(X, y, segment, bias)
        return f"the trajectories are separable: {reason}" if verdict == "separable" else ""

    return fact
