"""MPAX (restarted PDHG on JAX) as a conic solver: run on the CPU here, certified like any
other; its infeasibility words are detections, never reported as proofs by themselves.

References are cvxpy's own expected values (``cvxpy.tests.solver_test_helpers``)."""

from __future__ import annotations

import cvxpy as cp
import pytest

import convexkern as ck
from convexkern.report import Status

pytest.importorskip("mpax")
sth = pytest.importorskip("cvxpy.tests.solver_test_helpers")


def _problem(name: str) -> ck.Formulation:
    h = getattr(sth, name)()
    return ck.from_cvxpy(cp.Problem(h.objective, h.constraints), name), float(h.expect_val)


@pytest.mark.parametrize("name", ["lp_1", "lp_2", "qp_0"])
def test_mpax_answers_are_certified_at_its_default_tol(name):
    f, optimum = _problem(name)
    assert "mpax" in ck.available_solvers(f)
    r = ck.solve(f, "mpax")
    assert r.status is Status.OPTIMAL, r.message
    assert r.rel_gap <= 1e-4
    slack = 1e-9 * max(1.0, abs(optimum))  # cvxpy's values are exact here (-9, -99.5, 1)
    assert r.dual_value <= optimum + slack and optimum - slack <= r.primal_value


def test_mpax_has_no_say_on_an_infeasible_problem_without_a_proof():
    f, _ = _problem("lp_4")  # infeasible
    r = ck.solve(f, "mpax", max_iter=2000)
    assert r.status is not Status.OPTIMAL
    if r.status is Status.INFEASIBLE:  # only with a proof (a second solver's Farkas ray)
        assert r.solver_stats.get("claim_proven") is True


def test_mpax_settings_follow_tol_and_max_iter():
    from convexkern.solvers.table import CONIC

    s = CONIC["mpax"].settings(1e-5, 300, 2.0)
    assert s == {"eps_abs": 1e-5, "eps_rel": 1e-5, "iteration_limit": 300}
    assert CONIC["mpax"].settings(1e-5, None, None)["iteration_limit"] > 0


def test_mpax_computes_in_double_precision_for_its_call_only():
    """JAX's default single precision left cvxpy's ``lp_0`` at a certified gap of 4.4e-3
    (its tol 1e-4): the residuals of a point rounded to single precision cost the
    bound more than tol.  MPAX now runs under ``jax.enable_x64`` for its call only, and
    the caller's JAX setting is what it was before and after."""
    jax = pytest.importorskip("jax")
    from convexkern.solvers.table import CONIC

    before = bool(jax.config.jax_enable_x64)
    with CONIC["mpax"].solving():
        assert jax.numpy.zeros(1).dtype == jax.numpy.float64
    assert bool(jax.config.jax_enable_x64) is before
    f, optimum = _problem("lp_0")
    r = ck.solve(f, "mpax")
    assert bool(jax.config.jax_enable_x64) is before
    assert r.status is Status.OPTIMAL, r.message
    slack = 1e-9 * max(1.0, abs(optimum))  # cvxpy's value is exact here (1)
    assert r.dual_value <= optimum + slack and optimum - slack <= r.primal_value
