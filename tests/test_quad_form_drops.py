"""A ``quad_form`` that cvxpy writes as a second-order cone with pivots of ``P`` dropped
(``decomp_quad`` drops LDL pivots below 1e6 eps of the largest): the conic form is then
not the problem written, and no bracket is claimed for it.  Found by an adversarial run:
``min 1/2 x'diag(1, 1e-12)x - 1e-6 x_2`` over ``0 <= x <= 2e6`` (optimum -0.5 exactly, at
``x = (0, 1e6)``) was certified "optimal" in ``[-2, -1.99999998]`` by Clarabel in its
epigraph form."""

from __future__ import annotations

import math
import warnings

import cvxpy as cp
import numpy as np
import pytest

import convexkern as ck
from convexkern.report import Status

P = np.diag([1.0, 1e-12])
Q = np.array([0.0, -1e-6])
OPT = -0.5  # x2: min 0.5e-12 x2^2 - 1e-6 x2 at x2 = 1e6; x1 = 0


def _objective() -> cp.Problem:
    x = cp.Variable(2, name="x")
    return cp.Problem(cp.Minimize(0.5 * cp.quad_form(x, P) + Q @ x), [x >= 0, x <= 2e6])


def _epigraph() -> cp.Problem:
    x, t = cp.Variable(2, name="x"), cp.Variable(name="t")
    return cp.Problem(cp.Minimize(t + Q @ x),
                      [x >= 0, x <= 2e6, 0.5 * cp.quad_form(x, P) <= t])


def _sum_squares() -> cp.Problem:
    x = cp.Variable(2, name="x")
    return cp.Problem(cp.Minimize(0.5 * cp.sum_squares(cp.multiply(np.sqrt(np.diag(P)), x))
                                  + Q @ x),
                      [x >= 0, x <= 2e6])


def _solve(problem: cp.Problem, solver: str):
    f = ck.from_cvxpy(problem)
    if solver not in ck.available_solvers(f):
        pytest.skip(f"{solver} is not installed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ck.solve(f, solver)


def _holds(r) -> bool:
    return r.dual_value <= OPT + 1e-9 and r.primal_value >= OPT - 1e-9


@pytest.mark.parametrize(("build", "solver"), [
    (_epigraph, "clarabel"), (_epigraph, "scs"), (_epigraph, "ecos"),
    (_objective, "ecos")])
def test_a_form_with_dropped_pivots_gets_no_bracket(build, solver):
    r = _solve(build(), solver)
    assert r.status is not Status.OPTIMAL
    assert math.isinf(r.dual_value) and math.isinf(r.primal_value), (r.dual_value,
                                                                     r.primal_value)
    assert "quad_form" in r.message and "sum_squares" in r.message, r.message


@pytest.mark.parametrize(("build", "solver"), [
    (_objective, "clarabel"), (_objective, "scs"), (_sum_squares, "clarabel"),
    (_sum_squares, "ecos")])
def test_the_same_problem_is_certified_where_the_form_is_exact(build, solver):
    """In the objective, Clarabel and SCS take ``P`` itself; ``sum_squares`` of the
    exact factor gives every solver the problem as written."""
    r = _solve(build(), solver)
    assert r.status is Status.OPTIMAL, r.message
    assert _holds(r), (r.dual_value, r.primal_value)


def test_a_second_solve_from_cvxpys_cached_form_is_refused_too():
    """cvxpy canonicalises once per problem and solver; the second solve reads its cache,
    and the note kept on the problem still refuses the bracket."""
    problem = _epigraph()
    first = _solve(problem, "clarabel")
    second = _solve(problem, "clarabel")
    for r in (first, second):
        assert math.isinf(r.dual_value) and math.isinf(r.primal_value)
        assert "quad_form" in r.message


def test_a_well_conditioned_quad_form_is_left_alone():
    """Pivots within 1e6 eps of the largest: nothing dropped, the form is the problem's
    (ECOS, epigraph form), certified."""
    Pw = np.array([[2.0, 0.5], [0.5, 1.0]])
    x, t = cp.Variable(2, name="x"), cp.Variable(name="t")
    problem = cp.Problem(cp.Minimize(t - np.ones(2) @ x), [cp.quad_form(x, Pw) <= t])
    r = _solve(problem, "ecos")
    assert r.status is Status.OPTIMAL, r.message
    # x* = P^{-1} 1 / 2, optimum -1'P^{-1}1 / 4
    opt = -float(np.ones(2) @ np.linalg.solve(Pw, np.ones(2))) / 4
    assert r.dual_value <= opt + 1e-9 and r.primal_value >= opt - 1e-9


def test_a_tiny_dropped_pivot_with_large_multipliers_is_caught():
    """``P = G'G`` of an integer ``G`` (3 x 5, rank 3): cvxpy's Bunch-Kaufman LDL of this
    singular ``P`` has multipliers of 2.6e15, and the pivot of 1.7e-32 it drops carries 12 %
    of ``P``.  Four solvers called the epigraph form ``optimal`` around -7310.42; the
    optimum is -7442 exactly (a designed KKT point of the adversarial run, qp_epi seed
    564).  The factor's reconstruction error flags it."""
    G = np.array([[-32.0, -32.0, 64.0, 16.0, 0.0], [16.0, 32.0, -32.0, 0.0, -32.0],
                  [0.0, -48.0, 0.0, 32.0, -16.0]])
    q = np.array([4276.0, 5452.0, -8622.0, -2026.0, -1576.0])
    A = np.array([[5.0, -4.0, -5.0, 1.0, -3.0], [-0.1875, -0.0625, 0.0625, -0.25, -0.0625],
                  [0.5, 1.0, 1.25, 0.25, 0.5]])
    b = np.array([-11.0, -0.46875, 3.875])
    x, t = cp.Variable(5, name="x"), cp.Variable(name="t")
    problem = cp.Problem(cp.Minimize(t + q @ x), [
        x[[0, 1, 2]] >= [-0.75, 0.0, 0.25], x[[0, 2]] <= [0.25, 1.75], A @ x == b,
        0.5 * cp.quad_form(x, cp.psd_wrap(G.T @ G)) <= t])
    r = _solve(problem, "clarabel")
    assert r.dual_value <= -7442.0 <= r.primal_value, (r.dual_value, r.primal_value)
    assert "quad_form" in r.message, r.message


def test_the_factor_check_past_a_thousand_columns_uses_probes():
    """Past 1000 columns the reconstruction is checked on random vectors (a lower
    estimate): a factor missing one column of a diagonal P is caught, an exact one is
    not flagged."""
    from convexkern.solvers.cvxpy_bounds import _factor_miss

    n = 1100
    d = np.linspace(1.0, 2.0, n)
    P = np.diag(d)
    exact = np.diag(np.sqrt(d))
    assert _factor_miss(P, 1.0, exact, np.zeros((0, 0))) == ""
    assert "misses P" in _factor_miss(P, 1.0, exact[:, 1:], np.zeros((0, 0)))
    assert "misses P" in _factor_miss(P[:50, :50], 1.0, exact[:50, 1:50], np.zeros((0, 0)))


def test_an_altered_form_is_not_solved_again():
    """A refining re-solve cannot give an altered form a bound on the problem: none is
    made (before, Clarabel solved and certified the epigraph form twice)."""
    r = _solve(_epigraph(), "clarabel")
    assert not r.solver_stats.get("refined"), r.message
    assert r.message.count("cvxpy's conic form is not the problem written") == 2
