"""A solver that calls a diverging iterate "optimal" (QOCO on cvxpy's unbounded ``lp_3``
and ``lp_6``) is reported ``unbounded`` only when the point's direction is proved an
improving ray and the point itself proved feasible (rays.diverging_point_proof); a large
point of a bounded problem is not."""

from __future__ import annotations

import math
import warnings

import cvxpy as cp
import numpy as np
import pytest

import convexkern as ck
from convexkern.math.conic import ConicData
from convexkern.math.conic.rays import DIVERGED, diverging_point_proof
from convexkern.report import Status
from convexkern.solvers import conic
from convexkern.solvers.table import CONIC

# min -x1 s.t. x >= 0, x2 <= 1 (rows of Ax + s = b, s >= 0): unbounded along (1, 0)
_A = np.array([[-1.0, 0.0], [0.0, -1.0], [0.0, 1.0]])
_B = np.array([0.0, 0.0, 1.0])


def test_a_diverging_feasible_point_proves_unboundedness():
    data = ConicData(c=np.array([-1.0, 0.0]), A=_A, b=_B, nonneg=3)
    val, why = diverging_point_proof(data, np.array([1e9, 0.5]))
    assert val < 0 and not why


def test_a_point_too_small_to_be_a_direction_is_not_read_as_one():
    data = ConicData(c=np.array([-1.0, 0.0]), A=_A, b=_B, nonneg=3)
    small = 0.5 * DIVERGED * (1.0 + float(np.max(np.abs(_B))))
    val, why = diverging_point_proof(data, np.array([small, 0.5]))
    assert val == math.inf and "not large enough" in why


def test_a_direction_that_does_not_improve_proves_nothing():
    """The same rows with c = (1, 0): the problem is bounded; (1e9, 0.5) is feasible and
    its direction a recession direction, but c'd = 1 > 0."""
    data = ConicData(c=np.array([1.0, 0.0]), A=_A, b=_B, nonneg=3)
    assert diverging_point_proof(data, np.array([1e9, 0.5]))[0] == math.inf


def test_an_infeasible_problem_is_not_unbounded_along_its_ray():
    """The rows above with x2 >= 2 added: no point is feasible, yet (1, 0) is still a
    direction of the homogeneous rows with c'd < 0; without a feasible point the problem
    is not unbounded (here: infeasible), and nothing is proved."""
    A = np.vstack([_A, [0.0, -1.0]])
    data = ConicData(c=np.array([-1.0, 0.0]), A=A, b=np.append(_B, -2.0), nonneg=4)
    val, why = diverging_point_proof(data, np.array([1e9, 1.5]))
    assert val == math.inf and "feasible" in why


def _solvers(problem: cp.Problem) -> list[str]:
    f = ck.from_cvxpy(problem)
    return [s for s in ck.available_solvers(f) if s in CONIC]


@pytest.mark.parametrize("name", ["lp_3", "lp_6"])
def test_cvxpy_unbounded_lps_are_unbounded_on_every_solver(name):
    """cvxpy's unbounded test LPs: every solver that answers is reported ``unbounded``
    (proven), none ``optimal_inaccurate`` with a finite value (QOCO before)."""
    from cvxpy.tests import solver_test_helpers as h

    sense = getattr(h, name)().prob.objective.NAME
    for solver in _solvers(getattr(h, name)().prob):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = ck.solve(ck.from_cvxpy(getattr(h, name)().prob, name), solver)
        if r.status is Status.ERROR:  # SCS refuses lp_6, which has no constraint rows
            continue
        assert r.status is Status.UNBOUNDED, (solver, r.status, r.message)
        assert r.solver_stats.get("claim_proven"), (solver, r.message)
        assert r.primal_value == (-math.inf if sense == "minimize" else math.inf)


def test_qoco_diverging_answer_is_what_the_proof_changes(monkeypatch):
    """With the proof switched off, QOCO's answer on ``lp_3`` is the old one (an open
    side, not certified): the ``unbounded`` report comes from the proof."""
    from cvxpy.tests import solver_test_helpers as h

    if "qoco" not in _solvers(h.lp_3().prob):
        pytest.skip("qoco not installed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = ck.solve(ck.from_cvxpy(h.lp_3().prob, "lp_3"), "qoco")
        if "diverging point" not in r.message:
            pytest.skip(f"qoco answered lp_3 otherwise: {r.status.value}")
        monkeypatch.setattr(conic, "diverging_point_proof",
                            lambda data, x: (math.inf, "switched off"))
        off = ck.solve(ck.from_cvxpy(h.lp_3().prob, "lp_3"), "qoco")
    assert r.status is Status.UNBOUNDED
    assert off.status is not Status.UNBOUNDED and not math.isfinite(off.rel_gap)


def test_a_large_optimum_of_a_bounded_lp_stays_an_optimum():
    """min -x s.t. 1e-9 x <= 1: the optimum x = 1e9 is past the size the proof reads as a
    direction, but x = 1 is not a ray (the row bounds it): every solver's bracket holds
    -1e9, none says unbounded."""
    x = cp.Variable()
    problem = cp.Problem(cp.Minimize(-x), [1e-9 * x <= 1, x >= 0])
    for solver in _solvers(problem):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = ck.solve(ck.from_cvxpy(cp.Problem(cp.Minimize(-x), [1e-9 * x <= 1, x >= 0])),
                         solver)
        assert r.status is not Status.UNBOUNDED, (solver, r.message)
        if math.isfinite(r.rel_gap):
            assert r.dual_value <= -1e9 * (1 - 1e-12) and r.primal_value >= -1e9 * (1 + 1e-12)
