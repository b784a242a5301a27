"""``power``, ``pnorm`` and ``geo_mean`` with an exponent (or weight) that is not a
small-denominator rational reach the solver as cvxpy's rational approximation
(``approx=True``, its default): ``power(x, 0.1234567)`` is solved as ``x^(10/81)``.
Before, the certificate bounded that form and reported ``optimal`` brackets that missed
the written optimum (``max x^p - x/10``: ``[0.9029480485, 0.9029480488]`` on Clarabel
where the optimum is 0.9029480264).  Such a form gets no bracket now, with a message
that says what to write instead; an exponent whose approximation is the written double
(0.3 as 3/10) is the problem written and is certified as before."""

from __future__ import annotations

import math
from fractions import Fraction

import cvxpy as cp
import pytest

import convexkern as ck
from convexkern.report import Status


def _power_model(p):
    x = cp.Variable(name="x")
    return cp.Problem(cp.Maximize(cp.power(x, p) - 0.1 * x))


def _optimum(p):
    p = float(p)
    xs = (p / 0.1) ** (1 / (1 - p))
    return xs ** p - 0.1 * xs


@pytest.mark.parametrize("solver", ["clarabel", "scs"])
def test_an_approximated_exponent_gets_no_bracket(solver):
    r = ck.solve(ck.from_cvxpy(_power_model(0.1234567)), solver)
    assert r.status is not Status.OPTIMAL
    assert math.isinf(r.primal_value) and math.isinf(r.dual_value)
    assert "10/81" in r.message and "approx=False" in r.message


@pytest.mark.parametrize("p", [0.3, 0.25, Fraction(10, 81)])
def test_an_exact_exponent_is_certified(p):
    r = ck.solve(ck.from_cvxpy(_power_model(p)), "clarabel")
    assert r.status is Status.OPTIMAL, r.message
    lo, up = sorted((r.primal_value, r.dual_value))
    opt = _optimum(p)
    assert lo - 1e-12 <= opt <= up + 1e-12, (lo, opt, up)


def test_pnorm_and_geo_mean_weights_are_checked_too():
    y = cp.Variable(3, name="y")
    for problem, word in [
            (cp.Problem(cp.Minimize(cp.pnorm(y, 2.345678)), [cp.sum(y) >= 3]), "pnorm"),
            (cp.Problem(cp.Maximize(cp.geo_mean(y, [0.1234567, 0.5, 0.3765433])),
                        [cp.sum(y) <= 3]), "geo_mean")]:
        r = ck.solve(ck.from_cvxpy(problem), "clarabel")
        assert r.status is not Status.OPTIMAL
        assert word in r.message and "rational approximation" in r.message
