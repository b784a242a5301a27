"""Which scale the relative gap is judged against (``generic._gap_scale``): the dual
objective's terms count only for a bracket within 1e-9 of 0.  An adversarial run found
SCS "optimal" on a badly scaled LP (one equality row 1e6 times the others, redundant
rows) with the bracket ``[-0.00339, 0.00280]`` around the optimum -0.0030517578125: its
multipliers (to 4e10) made terms of 3e9 against which any bracket looked tight."""

from __future__ import annotations

import warnings

import cvxpy as cp
import numpy as np
import pytest

import convexkern as ck
from convexkern.generic import _gap_scale
from convexkern.report import Status

# lp_dyadic seed 35 of the run: dyadic data (exact as printed), optimum by a designed
# KKT point, checked in rational arithmetic by the run and certified by HiGHS
c = np.array([8.940696716308594e-07, 1.2516975402832031e-06, -8.940696716308594e-07,
    -5.960464477539062e-07, 0.0, -3.5762786865234375e-07, 4.172325134277344e-07])
A_eq = np.array([[-0.0087890625, -0.0009765625, 0.001953125, 0.0, 0.0, 0.0, -0.0029296875],
       [0.0048828125, -0.0009765625, 0.0, -0.0078125, 0.0, 0.0087890625, 0.0], [-1024.0,
       -512.0, 512.0, -2048.0, 0.0, 2304.0, -768.0], [-4.291534423828125e-06,
       -4.76837158203125e-07, 9.5367431640625e-07, 0.0, 0.0, 0.0,
       -1.430511474609375e-06]]).reshape(4, 7)
b_eq = np.array([-27.5, 19.75, -2031616.0, -0.013427734375])
A_in = np.array([[0.0009765625, -0.0078125, 0.005859375, 0.0048828125, 0.0, 0.00390625,
       -0.001953125], [0.0, 0.0087890625, 0.0, 0.0068359375, 0.0, -0.0048828125, 0.0],
       [-0.0078125, 0.0, 0.0009765625, 0.0, 0.0, 0.0, 0.0], [0.0009765625, 0.0048828125,
       0.0, 0.0, 0.0009765625, 0.0087890625, 0.0], [0.0, 0.0, 0.00390625, 0.001953125,
       0.0087890625, 0.0, 0.0], [0.0, 0.0029296875, 0.0078125, 0.0, 0.0048828125,
       0.00390625, 0.0048828125]]).reshape(6, 7)
b_in = np.array([-0.5, -4.75, -21.5, 4.0, 1.75, 12.0])
L = np.array([0.0, 0.0, 0.0, -np.inf, 0.0, 0.0, -np.inf])
U = np.array([np.inf, np.inf, np.inf, 1024.0, np.inf, np.inf, np.inf])
x_star = np.array([2816.0, 0.0, 512.0, -768.0, 0.0, 0.0, 1280.0])
OPT = -0.0030517578125  # of the maximisation of -c'x


def _problem() -> cp.Problem:
    x = cp.Variable(c.size, name="x")
    il, iu = np.flatnonzero(np.isfinite(L)), np.flatnonzero(np.isfinite(U))
    return cp.Problem(cp.Maximize(-(c @ x)), [x[il] >= L[il], x[iu] <= U[iu],
                                             A_eq @ x == b_eq, A_in @ x <= b_in])


def test_the_dual_terms_count_only_for_a_bracket_at_zero():
    assert _gap_scale(3e-3, 3e9, -0.0034, 0.0028) == 3e-3
    assert _gap_scale(1e-10, 1.0, -1e-12, 1e-11) == 1.0
    assert _gap_scale(None, 5.0, 1e-12, 2e-12) == 5.0
    assert _gap_scale(2.0, 7.0, float("-inf"), 1.0) == 2.0


@pytest.mark.parametrize("solver", ["scs", "clarabel", "highs"])
def test_optimal_means_a_bracket_within_tol_of_its_own_size(solver):
    f = ck.from_cvxpy(_problem())
    if solver not in ck.available_solvers(f):
        pytest.skip(f"{solver} is not installed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = ck.solve(f, solver, time_limit=60)
    lo, up = r.primal_value, r.dual_value  # a maximisation: primal is the lower bound
    assert not np.isfinite(lo) or lo <= OPT * (1 - 1e-15)
    assert not np.isfinite(up) or up >= OPT * (1 + 1e-15)
    if r.status is Status.OPTIMAL:
        assert up - lo <= r.tol * max(abs(lo), abs(up)), (solver, lo, up, r.tol)
