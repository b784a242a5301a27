"""Edges of the SVM formulations found by a review (twenty-first session), each checked
against an optimum known exactly: the linear primal's bracket carries its rounding (it
missed the optimum by 1e-10 on points far from the origin), SMO on a set every variable
of which it would set aside, a class whose bounds are all zero, and a solver's NaN point."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import convexkern as ck
from convexkern.formulations import svm
from convexkern.report import Status
from convexkern.solvers.outcome import certified_report


def _exact_primal_value(X, y, C, alpha) -> Fraction:
    """The linear SVM optimum from an exact dual point ``alpha`` (Fractions): checked dual
    feasible, and the primal value of the point it defines (the best bias among the
    hinge kinks) equal to the dual value, which weak duality makes the optimum."""
    Xf = [[Fraction(v) for v in row] for row in X.tolist()]
    yf = [Fraction(v) for v in y.tolist()]
    n, d = len(yf), len(Xf[0])
    assert sum(a * t for a, t in zip(alpha, yf)) == 0 and all(a >= 0 for a in alpha)
    assert C is None or all(a <= C for a in alpha)
    w = [sum(alpha[i] * yf[i] * Xf[i][k] for i in range(n)) for k in range(d)]
    ww = sum(v * v for v in w)
    dual = sum(alpha) - ww / 2
    m = [sum(w[k] * Xf[i][k] for k in range(d)) for i in range(n)]
    best = None
    for j in range(n):
        b = yf[j] - m[j]
        if C is None:
            if not all(yf[i] * (m[i] + b) >= 1 for i in range(n)):
                continue
            val = ww / 2
        else:
            val = ww / 2 + Fraction(C) * sum(max(Fraction(0), 1 - yf[i] * (m[i] + b))
                                              for i in range(n))
        best = val if best is None else min(best, val)
    assert best == dual
    return dual


_FAR = [  # points 2^22 and 2^25 from the origin, with exact optimal dual points
    (np.array([[3.0, 3.0], [0.0, 3.0], [3.0, 3.0], [-3.0, 0.0], [1.0, -2.0]]) + 2.0**22,
     np.array([-1.0, 1.0, 1.0, 1.0, -1.0]), 1.0,
     [Fraction(1), Fraction(1, 27), Fraction(1), Fraction(2, 27), Fraction(1, 9)]),
    (np.array([[-2.0, -2.0], [3.0, 3.0], [3.0, -1.0], [4.0, 3.0], [4.0, 1.0]]) + 2.0**25,
     np.array([-1.0, 1.0, 1.0, 1.0, 1.0]), None,
     [Fraction(1, 13), Fraction(0), Fraction(1, 13), Fraction(0), Fraction(0)]),
]


@pytest.mark.parametrize("case", range(len(_FAR)))
@pytest.mark.parametrize("solver", ["clarabel", "scs", "ecos", "smo"])
def test_the_linear_primals_bracket_holds_far_from_the_origin(case, solver):
    """Margins of points 2^22 from the origin cancel in floating point: the bracket,
    evaluated without its rounding, missed 19/9 (SCS) and 1/13 (Clarabel) by 1.6e-10 and
    was called optimal."""
    X, y, C, alpha = _FAR[case]
    opt = _exact_primal_value(X, y, C, alpha)
    r = ck.solve(svm.primal(X, y, C=C), solver, tol=1e-6)
    assert Fraction(r.dual_value) <= opt <= Fraction(r.primal_value)
    if solver in ("clarabel", "scs"):
        assert r.status is Status.OPTIMAL  # the rounding terms leave tol reachable


def test_the_linear_primals_bracket_on_ordinary_data_stays_tight():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 3))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=40) > 0, 1.0, -1.0)
    r = ck.solve(svm.primal(X, y, C=1.0), "clarabel", tol=1e-8)
    assert r.status is Status.OPTIMAL and r.rel_gap <= 1e-8


def test_smo_does_not_set_every_variable_aside():
    """A constant kernel (two copies of one point, opposite labels): SMO's shrinking set
    every variable aside and read ``diag[0]`` of an empty set (IndexError).  The optimum
    is 2: ``(y'a)^2 = 0`` leaves ``sum a`` over the box."""
    f = svm.dual(np.full((2, 2), 1e6), np.array([1.0, -1.0]), C=1.0)
    r = ck.solve(f, "smo", tol=1e-10)
    lo, hi = sorted((r.primal_value, r.dual_value))
    assert lo <= 2.0 <= hi
    r = ck.solve(svm.primal(np.array([[1e3], [1e3]]), np.array([1.0, -1.0]), C=1.0),
                 "smo", tol=1e-10)
    assert r.dual_value <= 2.0 <= r.primal_value


def test_a_class_whose_bounds_are_all_zero():
    """``C = [1, 0]``: the second class is pinned, ``y'a = 0`` pins the first, and the
    optimum is 0; SMO's gap estimate took a maximum over an empty class (ValueError)."""
    f = svm.dual(np.eye(2), np.array([1.0, -1.0]), C=np.array([1.0, 0.0]))
    for solver in ("smo", "clarabel"):
        r = ck.solve(f, solver)
        assert r.status is Status.OPTIMAL
        lo, hi = sorted((r.primal_value, r.dual_value))
        assert lo <= 0.0 <= hi


def test_a_nan_point_is_reported_not_certified():
    """MPAX after a diverging run handed back a NaN ``alpha``; the SVM certificate raised
    numpy's ValueError on it."""
    f = svm.dual(np.eye(2), np.array([1.0, -1.0]), C=1.0)
    r = certified_report(f, {"alpha": np.array([math.nan, 1.0])}, solver="mpax",
                         status=Status.ITERATION_LIMIT, tol=1e-6, solve_time=0.1)
    assert r.status is Status.ITERATION_LIMIT
    assert "not finite" in r.message and "alpha" in r.message
    assert not math.isfinite(r.rel_gap)
    r = certified_report(f, {"alpha": np.array([math.inf, 1.0])}, solver="mpax",
                         status=Status.OPTIMAL, tol=1e-6, solve_time=0.1)
    assert r.status is Status.ERROR
