"""Rigorous checks of a solver's "no solution" claims: Farkas rays and improving rays.

For the conic program of :mod:`convexkern.math.conic` (``min c'x + 1/2 x'Px`` subject to
``Ax + s = b``, ``s`` in ``K``) a solver backs an "infeasible" word with a *Farkas ray*
``y`` (``y`` in ``K*``, ``A'y = 0``, ``b'y < 0``) and an "unbounded" word with an
*improving ray* ``d`` (``-Ad`` in ``K``, ``Pd = 0``, ``c'd < 0``).  Neither holds exactly in
floating point; each is checked here by the same rounding-aware arithmetic as the bounds of
an optimum (Neumaier & Shcherbina 2004; VSDP's certificates of infeasibility):

* **infeasible** (:func:`farkas_proof`): weak duality on the *feasibility* problem
  ``min 0`` over the same constraints.  Its certified lower bound from ``y`` (``y`` moved
  into ``K*``, the residual ``A'y`` enclosed, free columns' residuals corrected to exactly
  zero, the rest paid for over a box that holds every feasible point) is positive only if
  no feasible point exists;
* **no optimum** (:func:`improving_ray_proof`): ``d`` is made an exactly feasible point of
  the homogeneous problem ``Ax + s = 0``, ``Px = 0`` (equality rows corrected exactly,
  cone rows met with no move), and its certified
  objective ``c'd`` is negative: then no dual point exists (``c'd = s_d'y >= 0`` for every
  dual-feasible ``y``), so the problem has no optimum: it is unbounded if it is feasible;
* **feasible** (:func:`feasible_point_proof`): a point that meets every row with no move,
  which turns "no optimum" into "unbounded";
* **infeasible, by phase one** (:func:`phase_one_problem`): where no Farkas ray passes,
  the problem ``min t`` subject to ``|A_Z x - b_Z| <= t``, ``A_N x - b_N <= t`` and the
  native bounds (zero and nonnegative rows only) is an ordinary, well-posed LP (feasible,
  bounded below by its ``t >= -1`` row); a certified lower bound ``> 0`` on its optimum,
  from the generic certificate like any optimum, proves that no point meets the rows.

A solver's ray carries round-off; where it does not pass as it is, a cleaned copy (tiny
entries dropped, then rounded to a few binary digits) is tried, each one checked anew.

A check that cannot be completed (a free column whose residual cannot be corrected, a cone
row off its cone) returns the reason; a claim it cannot prove is not a proof.
"""

from __future__ import annotations

import math
from dataclasses import replace

import cvxpy as cp
import numpy as np
import scipy.sparse as sp

from .bounds import _lower, _upper_at
from .boxes import _primal_box
from .data import ConicData

__all__ = ["farkas_proof", "improving_ray_proof", "feasible_point_proof",
           "diverging_point_proof", "phase_one_problem"]


def _vector(v: np.ndarray | None, size: int) -> np.ndarray | None:
    if v is None:
        return None
    v = np.asarray(v, dtype=float).ravel()
    if v.size != size or not np.all(np.isfinite(v)) or not np.any(v):
        return None
    return v


def _cleaned(v: np.ndarray) -> list[np.ndarray]:
    """``v`` and the rays an exact certificate is likely near: ``v`` with entries below
    1e-9 of its largest set to 0, that rounded to 20 and to 10 binary digits of its
    largest entry, and rounded to integers in units of its smallest entry (a
    combinatorial certificate such as ``(1, -1)`` or ``(1, 3, 3, 1)`` is then met exactly,
    where the solver's ``(0.7071..., -0.7071...)`` leaves residuals of round-off).  Each
    candidate is checked from scratch; none is trusted."""
    scale = float(np.max(np.abs(v)))
    u = np.where(np.abs(v) <= 1e-9 * scale, 0.0, v / scale)
    out = [v, u]
    small = float(np.min(np.abs(u[u != 0])))
    tries = [np.round(u * 2.0 ** bits) / 2.0 ** bits for bits in (20, 10)]
    if small >= 2.0 ** -20:  # integers in the ratio of the smallest entry: (1, 3, 3, 1)
        tries.append(np.round(u / small))
    for w in tries:
        if np.any(w) and not any(np.array_equal(w, o) for o in out):
            out.append(w)
    return out


def farkas_proof(data: ConicData, y: np.ndarray | None) -> tuple[float, str]:
    """A certified lower bound on the feasibility problem ``min 0`` from the ray ``y`` or
    a cleaned copy of it (:func:`_cleaned`; ``-inf`` and the first reason when none can be
    bounded).  A positive value proves that the constraints of ``data`` have no
    solution."""
    m, n = data.A.shape
    y = _vector(y, m)
    if y is None:
        return -math.inf, "the solver gave no finite, nonzero Farkas ray"
    feas = replace(data, c=np.zeros(n), P=None, offset=0.0)
    lo, hi = _primal_box(feas, math.inf)
    first = ""
    best = -math.inf
    for cand in _cleaned(y):
        val, why, _ = _lower(feas, np.zeros(n), cand, lo, hi, 0.0, allow_fix=True)
        if val > 0:
            return val, ""
        best = max(best, val)
        first = first or why
    return best, first


def _homogeneous(data: ConicData) -> ConicData:
    """The recession cone of the feasible set within ``P``'s null space: ``Ax + s = 0``,
    ``s`` in ``K``, and ``Px = 0`` as equality rows (``P`` PSD: ``x'Px = 0`` exactly when
    ``Px = 0``, so the objective along the ray is linear); a finite native bound becomes
    a sign."""
    n = data.c.size
    lb = np.full(n, -np.inf)
    ub = np.full(n, np.inf)
    if data.lb is not None:
        lb[np.isfinite(data.lb)] = 0.0
    if data.ub is not None:
        ub[np.isfinite(data.ub)] = 0.0
    A, zero = data.A, data.zero
    if data.P is not None:
        P = sp.csr_matrix(data.P)
        rows = np.flatnonzero(np.diff(P.indptr) > 0)
        A = sp.vstack([P[rows], A], format="csr")
        zero += rows.size
    return replace(data, A=A, b=np.zeros(A.shape[0]), P=None, offset=0.0, zero=zero,
                   lb=lb, ub=ub)


def _met_with_no_move(data: ConicData, x: np.ndarray) -> tuple[float, str]:
    """``(value, reason)`` of :func:`_upper_at` at ``x`` with no multiplier box: finite only
    when every row is met exactly after the equality correction (no cone move to pay
    for), so the value is that of an exactly feasible point."""
    m = data.b.size
    val, why, res = _upper_at(data, x, lambda: (np.full(m, -np.inf), np.full(m, np.inf)))
    if why:
        return math.inf, why
    if res.get("primal_residual", 0.0) > 0.0:
        return math.inf, "a cone row is missed"
    return val, ""


def improving_ray_proof(data: ConicData, d: np.ndarray | None) -> tuple[float, str]:
    """A certified upper bound on ``c'd*`` for an exactly feasible direction ``d*`` of the
    homogeneous problem near ``d`` (``+inf`` and the reason when none is found).  A
    negative value proves that the problem has no dual point, hence no optimum."""
    d = _vector(d, data.c.size)
    if d is None:
        return math.inf, "the solver gave no finite, nonzero improving ray"
    home = _homogeneous(data)
    first = ""
    best = math.inf
    for cand in _cleaned(d):
        val, why = _met_with_no_move(home, cand)
        if val < 0:
            return val, ""
        best = min(best, val)
        first = first or why
    return best, first


def feasible_point_proof(data: ConicData, x: np.ndarray | None) -> bool:
    """True when a point near ``x`` (its equality rows corrected exactly) meets every
    constraint of ``data`` with no move."""
    if x is None:
        return False
    x = np.asarray(x, dtype=float).ravel()
    if x.size != data.c.size or not np.all(np.isfinite(x)):
        return False
    feas = replace(data, c=np.zeros(data.c.size), P=None, offset=0.0)
    val, _ = _met_with_no_move(feas, x)
    return math.isfinite(val)


#: a point whose largest entry exceeds this multiple of ``1 + |b|_inf`` is read as a
#: diverging iterate (:func:`diverging_point_proof`)
DIVERGED = 1e6


def diverging_point_proof(data: ConicData, x: np.ndarray | None) -> tuple[float, str]:
    """``(value, reason)``: a negative ``value`` proves the problem unbounded from a point
    ``x`` a solver returned as an optimum while it was diverging (QOCO's "optimal" on
    cvxpy's unbounded ``lp_3`` and ``lp_6``: points of size 2e16 and 2e10).  The
    direction ``x / |x|_inf`` (or a cleaned copy) is made an exactly feasible direction
    of the homogeneous problem with a certified ``c'd < 0`` (:func:`improving_ray_proof`:
    no dual point exists), and ``x`` itself an exactly feasible point
    (:func:`feasible_point_proof`).  Tried only for ``|x|_inf > DIVERGED (1 + |b|_inf)``:
    a smaller point is not read as a direction."""
    if x is None or data.factors:
        return math.inf, "no point in the solver's own conic form"
    x = np.asarray(x, dtype=float).ravel()
    if x.size != data.c.size or not np.all(np.isfinite(x)):
        return math.inf, "the point has the wrong size or is not finite"
    size = float(np.max(np.abs(x), initial=0.0))
    b_inf = float(np.max(np.abs(data.b), initial=0.0))
    if not size > DIVERGED * (1.0 + b_inf):
        return math.inf, "the point is not large enough to be read as a direction"
    val, why = improving_ray_proof(data, x / size)
    if not val < 0:
        return math.inf, why or f"its direction's certified objective {val:.3g} is not < 0"
    if not feasible_point_proof(data, x):
        return math.inf, "the point itself is not proved feasible"
    return val, ""


def phase_one_problem(data: ConicData) -> cp.Problem | None:
    """The phase-one LP of ``data``'s rows, or ``None`` where its cones are not only zero
    and nonnegative ones.

    ``min t`` over ``(x, t)`` subject to ``A_Z x - b_Z <= t``, ``b_Z - A_Z x <= t`` (the
    zero rows), ``A_N x - b_N <= t`` (the nonnegative rows: ``s = b - Ax >= -t``), the
    native bounds of ``x``, and ``t >= -1``.  Its data are the stored doubles of ``data``
    (cvxpy copies them, negates ``b``, adds the coefficients ``+-1`` of ``t``: all exact),
    so a certified lower bound ``t* > 0`` proves that no ``x`` meets ``Ax + s = b``, ``s``
    in the cones, within the native bounds: the constraints of ``data`` are infeasible.
    The objective of ``data`` plays no part."""
    if data.soc or data.psd or data.exp or data.p3d:
        return None
    n = data.c.size
    z, k = data.zero, data.nonneg
    x = cp.Variable(n, name="x")
    t = cp.Variable(name="t")
    A, b = data.A, data.b
    cons = [t >= -1.0]
    if z:
        AZ = A[:z]
        cons += [AZ @ x - b[:z] <= t, b[:z] - AZ @ x <= t]
    if k:
        cons.append(A[z: z + k] @ x - b[z: z + k] <= t)
    for bound, sign in ((data.lb, 1.0), (data.ub, -1.0)):
        if bound is not None:
            fin = np.flatnonzero(np.isfinite(bound))
            if fin.size:
                cons.append(sign * x[fin] >= sign * bound[fin])
    return cp.Problem(cp.Minimize(t), cons)
