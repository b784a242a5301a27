"""A second-order block at its apex (every entry exactly 0) is in the cone: no move, no
rounding of an exact 0 into 5e-324.  Before, an improving ray through a cone's apex
(``quad_form(x, P) <= 1`` bounds ``x``; the free direction is elsewhere) was refused on
every solver, and a true "unbounded" was reported as ``error``."""

from __future__ import annotations

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp

import convexkern as ck
from convexkern.math.conic import ConicData
from convexkern.math.conic.data import norms_up
from convexkern.report import Status


def test_an_all_zero_tail_has_norm_zero_and_others_are_rounded_up():
    T = np.array([[0.0, 0.0, 0.0], [3.0, 4.0, 0.0], [1e-310, 0.0, 0.0]])
    out = norms_up(T, 4)
    assert out[0] == 0.0
    assert out[1] > 5.0 and out[2] >= 1e-310


def test_a_slack_at_the_apex_needs_no_move():
    from convexkern.math.conic.cones import _cone_moves

    data = ConicData(c=np.zeros(1), A=sp.csr_matrix(np.zeros((3, 1))), b=np.zeros(3),
                     soc=[3])
    move, why = _cone_moves(np.zeros(3), np.zeros(3), data)
    assert not why and not np.any(move)
    # a head a hair below its tail's norm is still moved
    move, _ = _cone_moves(np.array([1.0, 1.0, 1e-8]), np.zeros(3), data)
    assert move[0] > 0


@pytest.mark.parametrize("solver", ["clarabel", "scs", "ecos"])
def test_an_unbounded_ray_through_a_cone_apex_is_proven(solver):
    Pw = np.array([[2.0, 0.5], [0.5, 1.0]])
    x, s = cp.Variable(2, name="x"), cp.Variable(name="s")
    problem = cp.Problem(cp.Minimize(cp.sum(x) + s), [cp.quad_form(x, Pw) <= 1, s <= 0])
    r = ck.solve(ck.from_cvxpy(problem), solver)
    assert r.status is Status.UNBOUNDED, r.message
    assert r.solver_stats.get("claim_proven"), r.message
