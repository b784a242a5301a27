"""Power cones in the generic certificate: cvxpy's ``PowCone3D`` (``x^a y^(1-a) >= |z|``)
moved into the cone and its dual with a proven margin, paid for like the other cones, and
covered by the phase-one point; brackets checked against closed-form optima and against
the values cvxpy's own power-cone test problems publish."""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np
import pytest

import convexkern as ck
from convexkern.math.conic.cones import _geo, _into_pow
from convexkern.report import Status

SOLVERS = [s for s in ("clarabel", "scs") if s in ck.installed_solvers()]


def _mean(a: float, b: float, alpha: float) -> float:
    return a ** alpha * b ** (1 - alpha)


@pytest.mark.parametrize("dual", [False, True])
@pytest.mark.parametrize("alpha", [0.5, 0.3, 0.999, 1e-3])
def test_a_point_moved_into_the_power_cone_is_inside(alpha, dual):
    """Far outside, on an axis, and nearly inside: the raised point is in the cone (or its
    dual) by the mean computed independently in ``**`` arithmetic."""
    rng = np.random.default_rng(7)
    wa, wb = (alpha, 1 - alpha) if dual else (1.0, 1.0)
    cases = [(0.0, 0.0, 1.0), (1.0, 0.0, -2.0), (-3.0, 5.0, 4.0), (1e-8, 1e8, 3.0)]
    cases += [tuple(v) for v in rng.standard_normal((20, 3)) * 10.0 ** rng.integers(-6, 6, 3)]
    for a, b, c in cases:
        a2, b2 = _into_pow(a, b, c, alpha, dual)
        assert a2 >= max(a, 0.0) and b2 >= max(b, 0.0)
        assert _mean(a2 / wa, b2 / wb, alpha) >= abs(c), (a, b, c, a2, b2)


def test_the_mean_is_bounded_below():
    """``_geo`` is a lower bound of the weighted geometric mean (checked in exact rational
    arithmetic on powers with integer roots)."""
    for a, b in [(4.0, 9.0), (1e-300, 1e300), (2.0 ** 60, 2.0 ** -60), (0.0, 5.0)]:
        exact = math.sqrt(a) * math.sqrt(b) if a and b else 0.0
        assert _geo(a, b, 0.5) <= exact


@pytest.fixture(scope="module")
def weighted_mean():
    """max z s.t. x^0.3 y^0.7 >= |z|, x + y <= 1: optimum 0.3^0.3 0.7^0.7 at (0.3, 0.7)."""
    x, y, z = cp.Variable(name="x"), cp.Variable(name="y"), cp.Variable(name="z")
    prob = cp.Problem(cp.Maximize(z), [cp.constraints.PowCone3D(x, y, z, 0.3), x + y <= 1])
    return ck.from_cvxpy(prob, "weighted_mean"), 0.3 ** 0.3 * 0.7 ** 0.7


@pytest.mark.parametrize("solver", SOLVERS)
def test_a_power_cone_problem_is_certified(weighted_mean, solver):
    f, optimum = weighted_mean
    assert f.cone_class == "POW"
    r = ck.solve(f, solver)
    assert r.status is Status.OPTIMAL, r.message
    lo, up = sorted((r.primal_value, r.dual_value))
    assert lo <= optimum <= up, (lo, optimum, up)


@pytest.mark.parametrize("name", ["pcp_1", "pcp_2", "pcp_3"])
def test_cvxpy_power_cone_problems_get_brackets_that_hold_their_values(name):
    """cvxpy's own power-cone test problems: Clarabel's answer is certified optimal and
    the bracket holds the value cvxpy publishes with the problem (to its printed digits:
    the published values come from some solver at its tolerance, 1e-6 of room)."""
    from cvxpy.tests import solver_test_helpers as h

    sth = getattr(h, name)()
    f = ck.from_cvxpy(sth.prob, name)
    r = ck.solve(f, "clarabel")
    assert r.status is Status.OPTIMAL, r.message
    published = float(sth.expect_val)
    lo, up = sorted((r.primal_value, r.dual_value))
    room = 1e-6 * max(1.0, abs(published))
    assert lo - room <= published <= up + room, (lo, published, up)
