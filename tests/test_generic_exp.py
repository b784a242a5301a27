"""Exponential cones in the generic certificate: kernel logistic regression written plainly
(``cp.logistic`` and ``quad_form``), the first model a user writes, gets finite certified
bounds from every exponential-cone solver's answer that holds enough accuracy, and ECOS's
own order of the exponential cone's coordinates is read back to the standard one."""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np
import pytest

import convexkern as ck
from convexkern.data import load_binary
from convexkern.kernels import RBF
from convexkern.report import Status


def _klr_problem(n: int) -> cp.Problem:
    """Kernel logistic regression written plainly: ``n`` Pima patients (drawn with seed
    0, standardised), RBF with ``gamma = 1/d``, ``cp.logistic`` and ``quad_form``."""
    X, y = load_binary("pima", 1, 0)
    idx = np.random.default_rng(0).choice(y.size, n, replace=False)
    X, y = X[idx], y[idx]
    X = (X - X.mean(0)) / X.std(0)
    K = RBF(gamma=1.0 / X.shape[1])(X)
    a, b = cp.Variable(y.size, name="alpha"), cp.Variable(name="b")
    loss = cp.sum(cp.logistic(-cp.multiply(y, K @ a + b))) / y.size
    return cp.Problem(cp.Minimize(loss + 1e-2 / 2 * cp.quad_form(a, cp.psd_wrap(K))))


@pytest.fixture(scope="module")
def klr():
    return ck.from_cvxpy(_klr_problem(120), "klr", decision="expansion")


def test_kernel_logistic_regression_is_certified_on_both_sides(klr):
    """Clarabel (interior point) certified to 1e-6; SCS (first order) at its default
    accuracy gets a finite bracket, as loose as its point; both brackets overlap (two
    proofs about one optimum)."""
    assert klr.cone_class == "EXP"
    rc = ck.solve(klr, "clarabel", tol=1e-6)
    assert rc.status is Status.OPTIMAL, rc.message
    rs = ck.solve(klr, "scs")
    assert math.isfinite(rs.primal_value) and math.isfinite(rs.dual_value), rs.message
    lo_c, up_c = sorted((rc.primal_value, rc.dual_value))
    lo_s, up_s = sorted((rs.primal_value, rs.dual_value))
    assert lo_c <= up_s and lo_s <= up_c


def test_ecos_exponential_order_is_read_back():
    """ECOS keeps each exponential cone's coordinates as (x, z, y): read back into the
    standard order, its answer on a small problem with a closed-form optimum is
    certified.  min -x + y  s.t.  exp(x) <= y, -5 <= x <= 5  (optimum at x = 0: 1)."""
    if "ecos" not in ck.installed_solvers():
        pytest.skip("ecos not installed")
    x, y = cp.Variable(name="x"), cp.Variable(name="y")
    f = ck.from_cvxpy(cp.Problem(cp.Minimize(-x + y), [cp.exp(x) <= y, x >= -5, x <= 5]),
                      "e")
    # -x + e^x is minimised at x = 0: optimum 1
    for solver in ("clarabel", "ecos"):
        r = ck.solve(f, solver)
        assert r.status is Status.OPTIMAL, (solver, r.message)
        assert min(r.primal_value, r.dual_value) <= 1.0 <= max(r.primal_value, r.dual_value)


@pytest.fixture(scope="module")
def klr300():
    """Kernel logistic regression as a new user writes it: Pima, n = 300, RBF,
    ``cp.logistic``."""

    def build() -> cp.Problem:
        return _klr_problem(300)

    reference = build()  # an independent value: plain cvxpy, Clarabel at 1e-12
    reference.solve(solver="CLARABEL", tol_gap_abs=1e-12, tol_gap_rel=1e-12,
                    tol_feas=1e-12)
    return build, float(reference.value)


@pytest.mark.parametrize("solver", ["clarabel", "scs", "ecos"])
def test_kernel_logistic_regression_is_certified_at_the_default_tol(klr300, solver):
    """Every exponential-cone solver certifies the plain model at its default tol, with
    no hand-written certificate: the quadratic part's multiplier ``w`` is the minimiser
    for the solver's ``y`` (not its ``x``), the residual on ``P``'s columns is summed
    exactly, the re-solve's certificate is not cut short by the re-solve's own budget,
    and (ECOS, whose SOC form of ``quad_form`` leaves the coefficients without a box) the
    lower bound steps toward a dual phase-one point strictly inside the exponential
    cones' dual.  The bracket holds an independent tight solve's value."""
    if solver not in ck.installed_solvers():
        pytest.skip(f"{solver} not installed")
    build, optimum = klr300
    r = ck.solve(ck.from_cvxpy(build(), "klr"), solver)
    assert r.status is Status.OPTIMAL, r.message
    assert r.rel_gap <= r.tol
    lo, up = sorted((r.primal_value, r.dual_value))
    # the reference is Clarabel's own word at 1e-12 (not a proof): 1e-11 of room
    assert lo - 1e-11 <= optimum <= up + 1e-11, (lo, optimum, up)


def test_the_dual_exponential_cone_box_check_is_sound():
    """``_exp_dual_box_inside`` says a box around ``y`` lies in ``K*_exp`` only where every
    sampled point of it does (``-u exp(v/u) <= e w``, ``u < 0``), and it says so for a
    box well inside; a box reaching ``u = 0`` or the boundary is refused."""
    from convexkern.math.conic.cones import _exp_dual_box_inside

    rng = np.random.default_rng(3)
    assert _exp_dual_box_inside(np.array([-1.0, 1.0, 1.0]), np.full(3, 1e-3))
    assert not _exp_dual_box_inside(np.array([-1e-4, 1.0, 1.0]), np.full(3, 1e-3))
    # on the boundary (-u exp(v/u) = 1 = e w): any box around it leaves the cone
    assert not _exp_dual_box_inside(np.array([-1.0, 0.0, 1.0 / math.e]), np.full(3, 1e-9))
    said = 0
    for _ in range(300):
        y = np.array([-rng.uniform(1e-3, 3), rng.uniform(-3, 3), 0.0])
        y[2] = -y[0] * math.exp(y[1] / y[0]) / math.e * rng.uniform(0.5, 1.5)
        d = np.abs(y) * 10.0 ** rng.uniform(-8, -1, 3)
        if not _exp_dual_box_inside(y, d):
            continue
        said += 1
        for s in rng.uniform(-1, 1, (50, 3)):
            u, v, w = y + s * d
            assert u < 0 and -u * math.exp(v / u) <= math.e * w, (y, d, s)
    assert said > 30  # the check is not vacuous
