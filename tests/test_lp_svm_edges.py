"""Edges of the ν-LP pair found by a review (twenty-first session), against exact optima
in rational arithmetic: at ``C_rho = 1/M`` exactly the certified ``delta`` fell ulps short
of ``sum delta >= 1`` and the upper bound missed the optimum, called ``optimal``; and a
tiny optimum of tiny data was called ``optimal`` by an absolute gap."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import convexkern as ck
from convexkern.formulations import lp_svm
from convexkern.report import Status


@pytest.mark.parametrize("solver", ["clarabel", "ecos", "qoco", "scs"])
@pytest.mark.parametrize("rho_min", [0.0, None])
def test_at_the_threshold_the_certified_delta_is_feasible(solver, rho_min):
    """One input (``R = 1``) and ``C_rho = 2^-8 = 1/M`` exactly: the only feasible
    ``delta`` is ``e/M`` and both optima are ``sum(a)/M``, exactly."""
    if solver not in ck.available_solvers(lp_svm.nu_lp_dual(np.ones((2, 1)), 0.5)):
        pytest.skip(f"{solver} is not installed")
    rng = np.random.default_rng(0)
    M = 256
    A = rng.normal(size=(M, 1)) * 10.0 ** rng.integers(-6, 7)
    C = 2.0**-8
    exact = sum(Fraction(float(a)) for a in A[:, 0]) / M
    r = ck.solve(lp_svm.nu_lp_dual(A, C, rho_min=rho_min), solver)
    assert Fraction(r.dual_value) <= exact <= Fraction(r.primal_value)
    d = r.x["delta"]
    assert sum(Fraction(float(v)) for v in d) >= 1 and float(d.max()) <= C


def test_a_few_ulps_above_the_threshold():
    """``C_rho = fl(1/199)``, above ``1/199`` by 1.5e-17 relative: the corner ``C e`` is
    the feasible point the raise could not reach."""
    rng = np.random.default_rng(0)
    for m0 in (49, 98, 103):  # the draw of the reviewer's instance
        rng.normal(size=(m0, 2))
        rng.random((m0, 3))
    A = rng.normal(size=(199, 2))
    C = 1.0 / 199
    assert Fraction(C) * 199 > 1
    for solver in ("clarabel", "ecos"):
        r = ck.solve(lp_svm.nu_lp_dual(A, C), solver)
        d = r.x["delta"]
        assert sum(Fraction(float(v)) for v in d) >= 1 and float(d.max()) <= C


def test_a_tiny_optimum_of_tiny_data_is_judged_against_its_terms():
    """Data scaled by 1e-12: the bracket [-1.7e-12, 1.9e-13] around -8.3e-13 was
    ``optimal`` at tol 1e-6 by an absolute gap of 1.9e-12; the same data unscaled is
    certified to 1e-15."""
    B = np.random.default_rng(5).normal(size=(30, 3))
    for scale, want in ((1.0, Status.OPTIMAL), (1e-12, None)):
        r = ck.solve(lp_svm.nu_lp(scale * B, 0.1), "linprog", tol=1e-6)
        if want is not None:
            assert r.status is want
        else:
            assert r.status is not Status.OPTIMAL or r.rel_gap <= 1e-6
            assert r.rel_gap > 0.1  # the bracket is as wide as the optimum
