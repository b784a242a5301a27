"""cvxpy reuses its compile of a DPP problem with the parameters' new values, but some
canonicalisations read a parameter's value once and keep it: a ``quad_form`` of a
parameter ``P`` below a non-affine atom is factored from ``P.value``; a ``PowCone3D`` or
``PowConeND`` exponent goes into the cone's dimensions.  convexkern kept its own compile
across calls, so a later ``ck.solve`` after a change of such a parameter certified the
old problem (found by an adversarial run of re-solves, twentieth session):
``maximum(quad_form(x, psd_wrap(P)), 0) + q'x`` ``optimal`` at -1.25 where the optimum
is -2.0625, a ``PowCone3D`` whose exponent changed "proved" infeasible.  Such a compile
is now made again; a parameter that is a column of the compiled program keeps it."""

from __future__ import annotations

from fractions import Fraction

import cvxpy as cp
import numpy as np
import pytest

import convexkern as ck
from convexkern.report import Status


def _holds(r, opt, rel=1e-12):
    lo, up = sorted((r.primal_value, r.dual_value))
    slack = rel * max(1.0, abs(opt))
    return lo - slack <= opt <= up + slack


def _quadratic_optimum(d, q):
    """min x'diag(d)x + q'x = -sum q_i^2 / (4 d_i), in rational arithmetic."""
    return float(-sum(Fraction(qi) ** 2 / (4 * Fraction(di)) for di, qi in zip(d, q)))


@pytest.mark.parametrize("solver", ["clarabel", "scs"])
def test_a_factored_parameter_p_is_compiled_again_when_it_changes(solver):
    P = cp.Parameter((2, 2), PSD=True, name="P")
    x = cp.Variable(2, name="x")
    q = np.array([1.0, -2.0])
    prob = cp.Problem(cp.Minimize(cp.maximum(cp.quad_form(x, cp.psd_wrap(P)), 0) + q @ x))
    f = ck.from_cvxpy(prob)
    for d in ([1.0, 1.0], [4.0, 0.5], [0.25, 8.0]):
        P.value = np.diag(d)
        r = ck.solve(f, solver)
        assert r.status is Status.OPTIMAL, (d, r.message)
        assert _holds(r, _quadratic_optimum(d, q), rel=1e-9 if solver == "clarabel" else 1e-6)


@pytest.mark.parametrize("solver", ["clarabel", "scs"])
def test_a_power_cone_exponent_parameter_is_compiled_again_when_it_changes(solver):
    """``max z`` with ``x^a y^(1-a) >= |z|``, ``x <= 2``, ``y <= 1``: the optimum is
    ``2^a``; with ``z >= 1.5`` it is infeasible at ``a = 0.25`` and ``2^0.75`` at 0.75."""
    a = cp.Parameter(nonneg=True, name="a", value=0.5)
    x, y, z = cp.Variable(name="x"), cp.Variable(name="y"), cp.Variable(name="z")
    prob = cp.Problem(cp.Maximize(z), [cp.PowCone3D(x, y, z, a), x <= 2, y <= 1])
    f = ck.from_cvxpy(prob)
    for av in (0.5, 0.25, 0.75):
        a.value = av
        r = ck.solve(f, solver)
        assert r.status is Status.OPTIMAL, (av, r.message)
        assert _holds(r, 2.0 ** av, rel=1e-9 if solver == "clarabel" else 1e-5)
    a.value = 0.25
    hard = cp.Problem(cp.Maximize(z), [cp.PowCone3D(x, y, z, a), x <= 2, y <= 1, z >= 1.5])
    g = ck.from_cvxpy(hard)
    assert ck.solve(g, solver).status is Status.INFEASIBLE
    a.value = 0.75
    r = ck.solve(g, solver)
    assert r.status is not Status.INFEASIBLE, r.message
    if r.status is Status.OPTIMAL:
        assert _holds(r, 2.0 ** 0.75, rel=1e-9 if solver == "clarabel" else 1e-5)


def test_a_parameter_that_is_a_column_keeps_the_compile():
    """A parameter the compiled program carries as a column (an LP's right-hand side):
    cvxpy's compile is reused, with the new value, and the bound follows it."""
    b = cp.Parameter(name="b", value=1.0)
    x = cp.Variable(2, name="x")
    prob = cp.Problem(cp.Minimize(cp.sum(x)), [x >= b, x <= 10])
    f = ck.from_cvxpy(prob)
    assert _holds(ck.solve(f, "clarabel"), 2.0, rel=1e-9)
    kept = prob._cache.param_prog
    b.value = 3.0
    r = ck.solve(f, "clarabel")
    assert prob._cache.param_prog is kept
    assert r.status is Status.OPTIMAL and _holds(r, 6.0, rel=1e-9)


def test_a_factored_p_that_is_also_a_column_is_compiled_again():
    """The same ``P`` in an affine row as well (cvxpy then carries ``trace(P)`` as a
    parameter of its own): the factor still holds ``P``'s first value, so a change drops
    the compile."""
    P = cp.Parameter((2, 2), PSD=True, name="P")
    x = cp.Variable(2, name="x")
    q = np.array([1.0, -2.0])
    prob = cp.Problem(cp.Minimize(cp.maximum(cp.quad_form(x, cp.psd_wrap(P)), 0) + q @ x),
                      [cp.trace(P) * x[0] <= 100])
    f = ck.from_cvxpy(prob)
    for d in ([1.0, 1.0], [4.0, 0.5]):
        P.value = np.diag(d)
        r = ck.solve(f, "clarabel")
        assert r.status is Status.OPTIMAL, (d, r.message)
        assert _holds(r, _quadratic_optimum(d, q), rel=1e-9)


@pytest.mark.parametrize("solver", ["clarabel", "scs"])
def test_a_powcone3d_approx_exponent_parameter_is_compiled_again(solver):
    """``PowCone3DApprox`` is written as second-order cones from the exponent's value: the
    compiled program has no power cone, and the parameter a column through the objective.
    ``max z + a``: ``2^a + a``; with ``z >= 1.3`` infeasible at 0.25, ``sqrt 2 + 1/2``
    at 0.5 (a false "infeasible" before)."""
    a = cp.Parameter(nonneg=True, name="a", value=0.5)
    x, y, z = cp.Variable(name="x"), cp.Variable(name="y"), cp.Variable(name="z")
    base = [cp.PowCone3DApprox(x, y, z, a), x <= 2, y <= 1]
    f = ck.from_cvxpy(cp.Problem(cp.Maximize(z + a), base))
    for av in (0.5, 0.25):
        a.value = av
        r = ck.solve(f, solver)
        assert r.status is Status.OPTIMAL, (av, r.message)
        assert _holds(r, 2.0 ** av + av, rel=1e-9 if solver == "clarabel" else 1e-5)
    g = ck.from_cvxpy(cp.Problem(cp.Maximize(z + a), [*base, z >= 1.3]))
    a.value = 0.25
    assert ck.solve(g, solver).status is Status.INFEASIBLE
    a.value = 0.5
    r = ck.solve(g, solver)
    assert r.status is not Status.INFEASIBLE, r.message
