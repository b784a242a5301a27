"""The upper bound's step along epigraph columns (``math/conic/recession.py``), tried
before a phase-one solve: the column of a quadratic's or a logistic loss's epigraph
variable moves only its own cone blocks, along the cone."""

from __future__ import annotations

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp

import convexkern as ck
from convexkern.data import load_binary
from convexkern.kernels import RBF
from convexkern.math.conic.data import ConicData
from convexkern.math.conic.recession import epigraph_direction
from convexkern.report import Status
from tests.ridge_exact_oracle import exact_ridge


def _data(A, b, c, zero=0, nonneg=0, soc=(), exp=0) -> ConicData:
    return ConicData(A=sp.csr_matrix(np.asarray(A, dtype=float)), b=np.asarray(b, float),
                     c=np.asarray(c, float), zero=zero, nonneg=nonneg, soc=list(soc),
                     exp=exp)


def test_the_epigraph_column_of_a_second_order_cone_is_found_with_its_sign():
    """``t >= x^2`` as ``(t + 1, t - 1, 2x)`` in a second-order cone, ``x <= 3``: raising
    ``t`` moves the slack along ``(1, 1, 0)``, in the cone; ``x`` is not a direction."""
    # columns (t, x); slack s = b - A v: s0 = 1 + t, s1 = -1 + t (as t - 1), s2 = 2x
    A = [[0.0, 1.0],     # x <= 3: s = 3 - x
         [-1.0, 0.0],    # s0 = 1 + t
         [-1.0, 0.0],    # s1 = -1 + t
         [0.0, -2.0]]    # s2 = 2x
    data = _data(A, [3.0, 1.0, -1.0, 0.0], [1.0, 0.0], nonneg=1, soc=[3])
    move = np.array([0.0, 1e-13, 0.0, 0.0])
    D = epigraph_direction(data, np.array([0.25, 0.5]), move)
    assert D is not None and D[0] > 0 and D[1] == 0


def test_no_direction_through_an_equality_row_or_out_of_the_cone():
    # t also in an equality row: not moved
    A = [[1.0, 0.0], [-1.0, 0.0], [-1.0, 0.0], [0.0, -2.0]]
    data = _data(A, [0.25, 1.0, -1.0, 0.0], [1.0, 0.0], zero=1, soc=[3])
    assert epigraph_direction(data, np.array([0.25, 0.5]), np.array([0, 1e-13, 0, 0])) is None
    # a column that moves only a tail entry leaves the cone either way
    data = _data([[0.0], [0.0], [-1.0]], [1.0, 0.0, 0.0], [0.0], soc=[3])
    assert epigraph_direction(data, np.zeros(1), np.array([1e-13, 0, 0])) is None
    # ... and one that moves the head does not
    data = _data([[-1.0], [0.0], [0.0]], [1.0, 0.0, 0.0], [1.0], soc=[3])
    assert epigraph_direction(data, np.zeros(1), np.array([1e-13, 0, 0]))[0] > 0


def test_an_exponential_cones_argument_is_lowered():
    """``exp(-t) <= u`` as ``(-t, 1, u)``: raising ``t`` moves the slack along
    ``(-1, 0, 0)``, in the cone's closure; ``u`` also sits in a nonnegative row
    ``u <= 1`` that raising it would cut, and lowering it leaves the cone."""
    # columns (t, u); s = b - A v: s0 = -t, s1 = 1, s2 = u, and the row 1 - u >= 0
    A = [[0.0, 1.0], [1.0, 0.0], [0.0, 0.0], [0.0, -1.0]]
    data = _data(A, [1.0, 0.0, 1.0, 0.0], [1.0, 0.0], nonneg=1, exp=1)
    D = epigraph_direction(data, np.array([0.5, 0.6]), np.array([0, 0, 0, 1e-12]))
    assert D is not None and D[0] > 0 and D[1] == 0


@pytest.mark.parametrize("scale", [1e-6, 1e-4, 1e-2, 1.0, 1e2])
@pytest.mark.parametrize("seed", [0, 1])
def test_ecos_ridge_bracket_holds_the_exact_optimum_without_a_phase_one(scale, seed):
    """ECOS writes ``sum_squares`` as a second-order cone its point misses by rounding;
    the epigraph step closes the upper bound (no phase-one solve), and the bracket holds
    the optimum computed exactly, at scales 1e-6 .. 1e2 of the data (objective 1e-12 ..
    1e4).  Below 1e-2 ECOS's own answer is inaccurate (its tolerances are absolute) and
    above 1e2 it fails: there the bracket must still hold, nothing more."""
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((8, 5)) * scale
    b = rng.standard_normal(8) * scale
    lam = 0.3 * scale ** 2
    x = cp.Variable(5)
    prob = cp.Problem(cp.Minimize(cp.sum_squares(A @ x - b) + lam * cp.sum_squares(x)),
                      [x >= -1e3, x <= 1e3])
    r = ck.solve(ck.from_cvxpy(prob), "ecos")
    exact = exact_ridge(A, b, lam)
    assert r.dual_value <= exact <= r.primal_value, (r.dual_value, float(exact),
                                                     r.primal_value)
    if 1e-2 <= scale <= 1e2:
        assert r.status is Status.OPTIMAL, r.message
        assert r.residuals.get("epigraph_step") == 1.0
        assert "phase_one_margin" not in r.residuals


@pytest.fixture(scope="module")
def klr_problem():
    X, y = load_binary("pima", 1, 0)
    idx = np.random.default_rng(0).choice(y.size, 120, replace=False)
    X, y = X[idx], y[idx]
    X = (X - X.mean(0)) / X.std(0)
    K = RBF(gamma=1.0 / X.shape[1])(X)

    def build() -> cp.Problem:
        a, b = cp.Variable(y.size), cp.Variable()
        loss = cp.sum(cp.logistic(-cp.multiply(y, K @ a + b))) / y.size
        return cp.Problem(cp.Minimize(loss + 1e-2 / 2 * cp.quad_form(a, cp.psd_wrap(K))))
    return build


def test_kernel_logistic_regression_needs_no_primal_phase_one(klr_problem):
    """The logistic loss's epigraph variables lower their exponential cones' arguments:
    Clarabel's upper bound closes without a phase-one solve, and the bracket holds the
    optimum of an independent solve (Clarabel at 1e-12) within that solve's accuracy.
    (SCS's point also misses the rows ``u + v <= 1``: see the next test.)"""
    r = ck.solve(ck.from_cvxpy(klr_problem()), "clarabel")
    assert r.status is Status.OPTIMAL, r.message
    assert r.residuals.get("epigraph_step") == 1.0
    assert "phase_one_margin" not in r.residuals
    ref = klr_problem()
    ref.solve(solver="CLARABEL", tol_gap_abs=1e-12, tol_gap_rel=1e-12, tol_feas=1e-12)
    assert r.dual_value - 1e-9 <= ref.value <= r.primal_value + 1e-9


def test_the_rows_the_epigraph_step_leaves_are_met_exactly(klr_problem):
    """SCS's point also misses the logistic loss's rows ``u + v <= 1`` (by ~1e-9), which
    no single column enters along its cones: after the epigraph step only those
    inequality rows are off, and they are met exactly (``active_fix``) instead of paid
    for with a multiplier box that an exponential cone's open multiplier leaves
    infinite.  Before, a phase one ran (0.41 s of a 1.2 s call at 300 points)."""
    r = ck.solve(ck.from_cvxpy(klr_problem()), "scs")
    assert r.status is Status.OPTIMAL, r.message
    assert r.residuals.get("epigraph_step") == 1.0
    assert "phase_one_margin" not in r.residuals
    assert not any(k.startswith("unpaid_") for k in r.residuals)  # a failed try's count
    ref = klr_problem()
    ref.solve(solver="CLARABEL", tol_gap_abs=1e-12, tol_gap_rel=1e-12, tol_feas=1e-12)
    assert r.dual_value - 1e-9 <= ref.value <= r.primal_value + 1e-9
