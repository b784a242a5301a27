"""Norms in the certificate's rounding terms hold at any scale.

``np.linalg.norm`` squares the entries unscaled. Below about 1e-154 it returns 0, and
above 1e154 it returns inf. A dual correction of 1e-176 on a PSD block was read as none,
and the corrected ray passed as in the cone. The result was a proven "infeasible" for
feasible SDPs whose data are scaled by 2^600 (a review's reproducer, Clarabel and SCS).
``norm_up`` scales first, as ``norms_up`` does for the second-order blocks.
"""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp

import convexkern as ck
from convexkern.math.conic.cones import _stays_in_dual
from convexkern.math.conic.data import ConicData, norm_up
from convexkern.report import Status


@pytest.mark.parametrize("scale", [1e-300, 1e-176, 1e-160, 1.0, 1e160, 1e300])
def test_norm_up_bounds_the_norm_at_any_scale(scale):
    v = np.array([3.0, 4.0, 12.0]) * scale  # norm 13 * scale
    bound = norm_up(v)
    assert bound >= 13.0 * scale * (1 - 1e-15)  # at least the norm (13 * scale rounds)
    assert bound <= 13.0 * scale * (1 + 1e-14)  # and not loose
    assert norm_up(np.array([[1.0, 2.0], [2.0, 4.0]]) * scale) >= 5.0 * scale


def test_norm_up_of_zero_and_of_subnormals():
    assert norm_up(np.zeros(4)) == 0.0  # exact: a cone's apex stays in the cone
    tiny = 5e-324
    assert norm_up(np.array([tiny, tiny])) >= tiny  # never below an entry
    assert norm_up(np.array([math.inf, 1.0])) == math.inf
    assert math.isnan(norm_up(np.array([math.nan, 1.0])))


def test_a_tiny_correction_of_a_psd_block_is_not_none():
    # y: the 2 x 2 block 1e-176 I (its smallest eigenvalue 1e-176); a correction of up to
    # 1e-176 in each svec entry (Frobenius norm sqrt(3) 1e-176) can leave the cone, and
    # must be read as such: the old norm read it as 0 and let it pass
    data = ConicData(c=np.zeros(1), A=sp.csr_matrix(np.ones((3, 1))), b=np.zeros(3),
                     psd=[2])
    y = np.array([1e-176, 0.0, 1e-176])
    assert not _stays_in_dual(data, y, np.arange(3), np.full(3, 1e-176))
    # the same at scale 1, where the old norm was right
    assert not _stays_in_dual(data, y * 1e176, np.arange(3), np.full(3, 1.0))
    # a correction the block's margin does hold, at both scales
    assert _stays_in_dual(data, y, np.arange(3), np.full(3, 1e-178))
    assert _stays_in_dual(data, y * 1e176, np.arange(3), np.full(3, 1e-2))


@pytest.mark.parametrize("solver", ["clarabel", "scs"])
def test_a_feasible_sdp_scaled_by_2_600_is_never_infeasible(solver):
    # min t s.t. t I - s [[2, 1], [1, 2]] >> 0: feasible (t = 4 s), optimum about 3 s
    s = 2.0 ** 600
    t = cp.Variable(name="t")
    problem = cp.Problem(cp.Minimize(t), [t * np.eye(2) - s * np.array([[2.0, 1.0],
                                                                       [1.0, 2.0]]) >> 0])
    r = ck.solve(ck.from_cvxpy(problem), solver)
    assert r.status is not Status.INFEASIBLE, r.message
    if r.status.has_solution:  # any bracket holds the optimum, (2 + fl(sqrt 2)/sqrt 2) s
        assert r.dual_value <= 3.0000000000000004 * s and r.primal_value >= 2.9999999999999996 * s


@pytest.mark.parametrize("scale", [1.0, 1e-150, 1e-170, 1e-200])
def test_the_box_of_a_tiny_second_order_cone_holds_its_points(scale):
    # min t s.t. |x - a| <= t, a = (3, 4) scale: optimum 0 at x = a (a review's case). The
    # box of the cone's one-entry tail rows took |a| from unscaled squares, 0 below 1e-162,
    # and certified a lower bound above the optimum
    from convexkern.math.conic.bounds import conic_bounds
    from convexkern.math.conic.boxes import _primal_box

    a = np.array([3.0, 4.0]) * scale
    data = ConicData(c=np.array([1.0, 0.0, 0.0]), A=sp.csr_matrix(-np.eye(3)),
                     b=np.concatenate([[0.0], -a]), soc=[3])
    x = np.array([5e-3 * scale, *a])  # feasible: |x_S - a| = 0 <= t
    lo, hi = _primal_box(data, math.inf)
    assert np.all(lo <= x) and np.all(x <= hi)
    y = np.array([1.0, 0.6e-6, 0.8e-6])
    bounds = conic_bounds(data, x, y)
    assert bounds.lower <= 0.0 <= bounds.upper
