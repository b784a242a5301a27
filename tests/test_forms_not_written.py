"""Forms cvxpy gives the solver that are not the problem the user wrote, found by an
adversarial search and a review (twentieth session); before, each was certified
``optimal`` (or "unbounded") on a bracket that missed the written optimum.  Each is now
bounded as written, or gets no bracket with a message that says what to write instead;
the same models written exactly are certified.

* ``quad_form(x, P)`` with ``P`` symmetric only to ``np.allclose`` (or, through
  ``psd_wrap``, triangular): the written value is that of ``(P + P')/2``, the solvers
  read ``P``'s upper triangle; the certificate uses the average where it is exact, and a
  parameter ``P`` with an unsymmetric value is refused.
* ``PowCone3DApprox`` (its exponent as cvxpy's rational), ``PowConeND`` with exponents
  summing to 1 within cvxpy's 1e-6 only.
* ``perspective`` and ``suppfunc``, which keep an approximated ``power`` out of their
  arguments, where the scan for approximated atoms did not look.
* ``tr_inv`` of a matrix not symmetric for every value of its variables (its value is
  +inf off the symmetric matrices; the form bounds only the symmetric part).

And foreign exceptions that are reports now."""

from __future__ import annotations

import math
from fractions import Fraction

import cvxpy as cp
import numpy as np
import pytest

import convexkern as ck
from convexkern.report import Status


def _bracket(r):
    return sorted((r.primal_value, r.dual_value))


def _holds(r, opt, ulps=8):
    lo, up = _bracket(r)
    slack = ulps * np.finfo(float).eps * max(1.0, abs(opt))
    return lo - slack <= opt <= up + slack


# -- quad_form with P symmetric to np.allclose only ---------------------------------------


def _nearly_symmetric():
    b = 1.0 - 4.000001e-6
    return np.array([[1.0, b], [b + 8e-6, 1.0]]), np.array([-1.0, 1.0])


def _exact_quadratic_optimum(P, q):
    """min x'Px + q'x = -q' S^-1 q / 4, S = (P + P')/2, in rational arithmetic."""
    Pf = [[Fraction(float(P[i, j])) for j in range(2)] for i in range(2)]
    S = [[(Pf[i][j] + Pf[j][i]) / 2 for j in range(2)] for i in range(2)]
    det = S[0][0] * S[1][1] - S[0][1] * S[1][0]
    assert S[0][0] > 0 and det > 0
    Si = [[S[1][1] / det, -S[0][1] / det], [-S[1][0] / det, S[0][0] / det]]
    qf = [Fraction(float(v)) for v in q]
    return float(-sum(qf[i] * Si[i][j] * qf[j] for i in range(2) for j in range(2)) / 4)


@pytest.mark.parametrize("solver", ["clarabel", "osqp", "highs"])
def test_an_unsymmetric_p_is_certified_as_written(solver):
    """``(P + P')/2`` is exact here: the certificate bounds the written problem with it.
    The solver solved the upper triangle's problem, so its point gives no tight bracket,
    but the bracket holds the written optimum (before: ``optimal`` at -1.25e5, where the
    written optimum is -5.0e11)."""
    P, q = _nearly_symmetric()
    assert np.allclose(P, P.T) and not np.array_equal(P, P.T)
    x = cp.Variable(2, name="x")
    prob = cp.Problem(cp.Minimize(cp.quad_form(x, P) + q @ x))
    r = ck.solve(ck.from_cvxpy(prob), solver)
    opt = _exact_quadratic_optimum(P, q)
    assert r.status is not Status.OPTIMAL
    lo, up = _bracket(r)
    assert not (math.isfinite(lo) and math.isfinite(up)) or _holds(r, opt), (lo, opt, up)


@pytest.mark.parametrize("solver", ["clarabel", "osqp"])
def test_p_off_in_its_last_bits_is_certified(solver):
    """``P_21 = P_12 + 2^-50``, as a product ``X'WX`` from numpy leaves it: the average
    is exact, the written problem is certified ``optimal`` around its exact optimum."""
    P = np.array([[2.0, 1.0], [1.0 + 2.0 ** -50, 2.0]])
    q = np.array([-1.0, 3.0])
    x = cp.Variable(2, name="x")
    r = ck.solve(ck.from_cvxpy(cp.Problem(cp.Minimize(cp.quad_form(x, P) + q @ x))), solver)
    assert r.status is Status.OPTIMAL, r.message
    assert _holds(r, _exact_quadratic_optimum(P, q), ulps=2 ** 20 if solver == "osqp" else 64)


def test_p_whose_average_is_not_exact_gets_no_bracket():
    """``P_21 = P_12 + 2^-52``: ``(P_12 + P_21)/2`` is not a double, so the written
    problem's matrix cannot be given to the certificate; no bracket, and the message
    says what to pass."""
    P = np.array([[2.0, 1.0], [1.0 + 2.0 ** -52, 2.0]])
    x = cp.Variable(2, name="x")
    r = ck.solve(ck.from_cvxpy(cp.Problem(cp.Minimize(cp.quad_form(x, P) + x[0]))),
                 "clarabel")
    assert r.status is not Status.OPTIMAL
    assert "not symmetric" in r.message and "(P + P.T) / 2" in r.message


def test_an_upper_triangular_p_gets_no_false_unbounded():
    """``quad_form(x, psd_wrap(U))``, ``U = [[2, 2], [0, 2]]``: the written ``x'Ux`` is
    bounded below (optimum -0.5 with ``q = (-1, 1)``), the solvers read ``U + U' -
    diag(U)``, which is not PSD, and said "unbounded", reported as proven before."""
    U = np.array([[2.0, 2.0], [0.0, 2.0]])
    q = np.array([-1.0, 1.0])
    x = cp.Variable(2, name="x")
    prob = cp.Problem(cp.Minimize(cp.quad_form(x, cp.psd_wrap(U)) + q @ x))
    for solver in ("clarabel", "osqp"):
        r = ck.solve(ck.from_cvxpy(prob), solver)
        assert r.status not in (Status.UNBOUNDED, Status.INFEASIBLE_OR_UNBOUNDED), r.message
        assert r.status is not Status.OPTIMAL


def test_a_parameter_p_with_an_unsymmetric_value_gets_no_bracket():
    """A ``PSD=True`` parameter keeps a value symmetric to cvxpy's tolerance only, and its
    DPP form hands the solver one triangle: ``optimal`` 11 % off the written optimum
    before."""
    b = 1.0 - 1e-8
    P = cp.Parameter((2, 2), PSD=True, name="P")
    P.value = np.array([[1.0, b], [b + 2e-9, 1.0]])
    x = cp.Variable(2, name="x")
    prob = cp.Problem(cp.Minimize(cp.quad_form(x, P) + np.array([-1.0, 1.0]) @ x))
    r = ck.solve(ck.from_cvxpy(prob), "clarabel")
    assert r.status is not Status.OPTIMAL
    assert "parameter matrix" in r.message and "(P + P.T) / 2" in r.message


def test_a_refusal_is_lifted_when_the_parameter_is_symmetric_again():
    """The refusal of an unsymmetric parameter value is about that value: set back to an
    exactly symmetric one, the same formulation is certified again (the note was kept on
    the problem for good before, with a message about a value no longer there).  The
    optimum, ``sum_i min_{|t| <= 1} A_ii t + t^2``, is -6."""
    P = cp.Parameter((3, 3), symmetric=True, name="P")
    x = cp.Variable(3, name="x")
    prob = cp.Problem(cp.Minimize(cp.trace(P @ cp.diag(x)) + cp.sum_squares(x)),
                      [x >= -1, x <= 1])
    f = ck.from_cvxpy(prob)
    A = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 0.0], [0.0, 0.0, -4.0]])
    near = A.copy()
    near[0, 1] += 1e-11
    statuses = []
    for value in (A, near, A):
        P.value = value
        r = ck.solve(f, "clarabel")
        statuses.append(r.status)
        if r.status is Status.OPTIMAL:
            assert r.dual_value <= -6.0 <= r.primal_value
    assert statuses == [Status.OPTIMAL, Status.OPTIMAL_INACCURATE, Status.OPTIMAL]
    assert "declared symmetric" not in r.message


def test_the_upper_triangle_form_is_far_off_the_written_optimum():
    """What the refusal guards: cvxpy's own value is the upper triangle's optimum,
    -1.25e5, where the written one is -5.0e11."""
    P, q = _nearly_symmetric()
    x = cp.Variable(2)
    prob = cp.Problem(cp.Minimize(cp.quad_form(x, P) + q @ x))
    prob.solve(solver="CLARABEL")
    assert abs(prob.value - _exact_quadratic_optimum(P, q)) > 1e9


def test_a_symmetric_p_is_certified_against_the_exact_optimum():
    P, q = _nearly_symmetric()
    P = np.array([[1.0, 0.5], [0.5, 1.0]])
    x = cp.Variable(2)
    r = ck.solve(ck.from_cvxpy(cp.Problem(cp.Minimize(cp.quad_form(x, P) + q @ x))),
                 "clarabel")
    assert r.status is Status.OPTIMAL, r.message
    assert _holds(r, _exact_quadratic_optimum(P, q))


# -- power cones with other exponents than written -------------------------------------


def test_a_powcone3d_approx_is_refused_unless_its_rational_is_the_double():
    x, y, z = cp.Variable(name="x"), cp.Variable(name="y"), cp.Variable(name="z")

    def model(a):
        return cp.Problem(cp.Maximize(z), [cp.PowCone3DApprox(x, y, z, a), x <= 10, y <= 1])

    r = ck.solve(ck.from_cvxpy(model(0.1234567)), "clarabel")
    assert r.status is not Status.OPTIMAL and "PowCone3DApprox" in r.message
    assert "10/81" in r.message
    # 0.25 is its own rational: the form is the problem written (optimum 10^0.25)
    r = ck.solve(ck.from_cvxpy(model(0.25)), "clarabel")
    assert r.status is Status.OPTIMAL, r.message
    assert _holds(r, 10.0 ** 0.25, ulps=64)


@pytest.mark.parametrize("solver", ["clarabel", "scs"])
def test_powcone_nd_exponents_that_do_not_sum_to_one_are_refused(solver):
    """``(0.5, 0.5 + 9e-7)``: cvxpy accepts it (1e-6) and writes ``(a0, 1 - a0)``; the
    written optimum with ``W = 1e8`` is ``1e8^(1 + 9e-7)``, 1.7e-6 relative above the
    form's (SCS certified the form's)."""
    W, z = cp.Variable(2, name="W"), cp.Variable(name="z")
    prob = cp.Problem(cp.Maximize(z), [cp.PowConeND(W, z, np.array([0.5, 0.5 + 9e-7])),
                                       W == 1e8])
    r = ck.solve(ck.from_cvxpy(prob), solver)
    assert r.status is not Status.OPTIMAL and "PowConeND" in r.message


class PanicException(BaseException):
    """Stands for pyo3's panic exception (a ``BaseException``), as Clarabel raised it on
    such exponents when it was given its own n-d power cone."""


def test_a_panic_in_a_solvers_native_code_is_an_error_report(monkeypatch):
    from cvxpy.reductions.solvers.solving_chain import SolvingChain

    x = cp.Variable(name="x")
    prob = cp.Problem(cp.Minimize(x), [x >= 1])

    def panic(*args, **kwargs):
        raise PanicException("assertion failed")

    monkeypatch.setattr(SolvingChain, "solve_via_data", panic)
    r = ck.solve(ck.from_cvxpy(prob), "clarabel")
    assert r.status is Status.ERROR and "panic in its native code" in r.message

    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(SolvingChain, "solve_via_data", interrupt)
    with pytest.raises(KeyboardInterrupt):  # not the solver's: it goes through
        ck.solve(ck.from_cvxpy(prob), "clarabel")


# -- approximations hidden from the arguments -----------------------------------------

_P = 0.1234567


def _max_power_optimum():
    """max_x x^p - x/10, at x = (10 p)^(1/(1-p))."""
    xs = (10 * _P) ** (1 / (1 - _P))
    return xs ** _P - xs / 10


def test_an_approximated_power_inside_perspective_is_seen():
    x, s = cp.Variable(name="x"), cp.Variable(nonneg=True, name="s")
    prob = cp.Problem(cp.Minimize(cp.perspective(-cp.power(x, _P), s) + x / 10), [s == 1])
    r = ck.solve(ck.from_cvxpy(prob), "clarabel")
    assert r.status is not Status.OPTIMAL and "10/81" in r.message


def test_an_approximated_power_inside_a_support_function_is_seen():
    v, z = cp.Variable(2, name="v"), cp.Variable(2, name="z")
    sf = cp.suppfunc(v, [v[1] <= cp.power(v[0], _P) - v[0] / 10, v[0] >= 0])
    prob = cp.Problem(cp.Minimize(sf(z)), [z == np.array([0.0, 1.0])])
    r = ck.solve(ck.from_cvxpy(prob), "clarabel")
    assert r.status is not Status.OPTIMAL and "10/81" in r.message


def test_an_exact_support_function_is_certified():
    """The scan looks into the set without refusing an exact one: the support function
    of the unit disc at (3, 4) is 5."""
    v, z = cp.Variable(2, name="v"), cp.Variable(2, name="z")
    sf = cp.suppfunc(v, [cp.norm(v) <= 1])
    prob = cp.Problem(cp.Minimize(sf(z)), [z == np.array([3.0, 4.0])])
    r = ck.solve(ck.from_cvxpy(prob), "clarabel")
    assert r.status is Status.OPTIMAL, r.message
    assert _holds(r, 5.0, ulps=64)


# -- tr_inv of a matrix not known to be symmetric --------------------------------------


def test_tr_inv_of_an_unsymmetric_matrix_gets_no_bracket():
    """``min tr_inv([[2, a], [0, 2]]) - a``: finite only at ``a = 0`` (optimum 1); the
    form bounds the symmetric part and reached -0.869."""
    a = cp.Variable(name="a")
    X = cp.bmat([[2.0, a], [0.0, 2.0]])
    prob = cp.Problem(cp.Minimize(cp.tr_inv(X) - a), [cp.abs(a) <= 3])
    r = ck.solve(ck.from_cvxpy(prob), "clarabel")
    assert r.status is not Status.OPTIMAL and "tr_inv" in r.message
    assert "symmetric=True" in r.message and "(X + X.T) / 2" in r.message


def test_tr_inv_of_a_symmetric_expression_is_certified():
    """Symmetry is decided on the coefficients of ``X - X'``, not by cvxpy's syntactic
    test (False for ``X / 2`` and ``A X A'``): ``min tr_inv(X / 2)`` with ``trace(X) <=
    3`` is 6, at ``X = I``."""
    X = cp.Variable((3, 3), symmetric=True, name="X")
    assert not (X / 2).is_symmetric()
    prob = cp.Problem(cp.Minimize(cp.tr_inv(X / 2)), [cp.trace(X) <= 3])
    r = ck.solve(ck.from_cvxpy(prob), "clarabel")
    assert r.status is Status.OPTIMAL, r.message
    assert _holds(r, 6.0, ulps=64)


def test_a_wrap_does_not_make_tr_inv_symmetric():
    """``psd_wrap`` and ``symmetric_wrap`` claim symmetry without proving it: the
    unsymmetric matrix of the test above is refused through them too."""
    a = cp.Variable(name="a")
    X = cp.bmat([[2.0, a], [0.0, 2.0]])
    for wrap in (cp.psd_wrap, cp.symmetric_wrap):
        prob = cp.Problem(cp.Minimize(cp.tr_inv(wrap(X)) - a), [cp.abs(a) <= 3])
        r = ck.solve(ck.from_cvxpy(prob), "clarabel")
        assert r.status is not Status.OPTIMAL and "tr_inv" in r.message


def test_tr_inv_of_a_symmetric_variable_is_certified():
    """``min tr_inv(X)`` with ``trace(X) <= 3``, 3 x 3: ``tr_inv(X) >= 9 / trace(X)``, so
    the optimum is 3, at ``X = I``."""
    X = cp.Variable((3, 3), symmetric=True, name="X")
    prob = cp.Problem(cp.Minimize(cp.tr_inv(X)), [cp.trace(X) <= 3])
    r = ck.solve(ck.from_cvxpy(prob), "clarabel")
    assert r.status is Status.OPTIMAL, r.message
    assert _holds(r, 3.0, ulps=64)


# -- foreign exceptions that are reports now -------------------------------------------


@pytest.mark.parametrize("solver", ["clarabel", "scs"])
def test_geo_mean_on_power_cones_is_certified(solver):
    """``approx=False`` gives the solver an n-dimensional power cone.  Clarabel took it as
    such, which the certificate does not read (the conic data's size check raised
    ValueError); it is now written as a tree of 3-d cones for Clarabel too, as for SCS,
    and certified: ``max geo_mean(x, w)`` over ``c'x <= 1`` is ``prod (w_i/c_i)^w_i``."""
    x = cp.Variable(3, name="x")
    c, w = np.array([1.0, 2.0, 3.0]), np.array([0.25, 0.25, 0.5])
    prob = cp.Problem(cp.Maximize(cp.geo_mean(x, w, approx=False)), [c @ x <= 1])
    r = ck.solve(ck.from_cvxpy(prob), solver)
    assert r.status is Status.OPTIMAL, (r.status, r.message)
    opt = float(np.prod((w / c) ** w))
    assert _holds(r, opt, ulps=64)


def test_sum_largest_with_a_fractional_k_solves_twice():
    """cvxpy's ``sum_largest`` with ``k = 2.5`` slices by ``k`` when its argument has a
    value (a previous solve's): the second solve raised TypeError.  It is compiled again
    from no values: the sum of the 2.5 largest of (5, 4, 3, 2, 1) is 10.5."""
    y = cp.Variable(5, name="y")
    prob = cp.Problem(cp.Minimize(cp.sum_largest(y, 2.5)),
                      [y == np.array([5.0, 4.0, 3.0, 2.0, 1.0])])
    for solver in ("clarabel", "scs"):
        r = ck.solve(ck.from_cvxpy(prob), solver)
        assert r.status is Status.OPTIMAL, (solver, r.message)
        assert _holds(r, 10.5, ulps=1e8 if solver == "scs" else 64)


def test_a_symmetric_parameter_with_an_unsymmetric_value_gets_no_bracket():
    """cvxpy keeps a ``symmetric=True`` parameter's value off by up to its tolerance and
    compiles one triangle: ``min sum(P * X)`` over ``|X| <= 1e10`` was certified
    ``optimal`` 1.5 away from the written optimum on every solver."""
    P = cp.Parameter((2, 2), symmetric=True, name="P")
    P.value = np.array([[1.0, 1.0], [1.0 + 1.5e-10, 1.0]])
    X = cp.Variable((2, 2), name="X")
    prob = cp.Problem(cp.Minimize(cp.sum(cp.multiply(P, X))), [cp.abs(X) <= 1e10])
    r = ck.solve(ck.from_cvxpy(prob), "clarabel")
    assert r.status is not Status.OPTIMAL
    assert "declared symmetric" in r.message and "(P + P.T) / 2" in r.message
    P.value = np.array([[1.0, 1.0], [1.0, 1.0]])  # exactly symmetric: certified
    r = ck.solve(ck.from_cvxpy(cp.Problem(cp.Minimize(cp.sum(cp.multiply(P, X))),
                                          [cp.abs(X) <= 1])), "clarabel")
    assert r.status is Status.OPTIMAL and _holds(r, -4.0, ulps=64)


def test_a_finite_set_is_refused_as_mixed_integer():
    """cvxpy writes ``FiniteSet`` with boolean variables, which a continuous solver
    relaxes to free ones: SCS "proved" ``min x`` over ``{1, 2, 3}`` unbounded."""
    x = cp.Variable(name="x")
    with pytest.raises(ck.InvalidInputError, match="FiniteSet"):
        ck.from_cvxpy(cp.Problem(cp.Minimize(x), [cp.FiniteSet(x, [1.0, 2.0, 3.0])]))


def test_an_assertion_in_cvxpys_compile_is_an_error_report():
    """A complex ``tr_inv`` trips an assertion in cvxpy's complex-to-real step: an
    ``error`` report, not the ``AssertionError``."""
    X = cp.Variable((2, 2), hermitian=True, name="X")
    prob = cp.Problem(cp.Minimize(cp.tr_inv(X)), [cp.real(cp.trace(X)) <= 2])
    r = ck.solve(ck.from_cvxpy(prob), "clarabel")
    assert r.status is Status.ERROR and "could not compile" in r.message


@pytest.mark.parametrize("solver", ["clarabel", "osqp"])
def test_a_ray_of_a_rounded_sum_of_quadratics_proves_nothing(solver):
    """cvxpy adds two quadratic terms' matrices in floating point: ``1e16 [[1, -1], [-1,
    1]] + I`` reaches the solver as ``1e16 [[1, -1], [-1, 1]]``, singular along (1, 1),
    and the solvers' rays along it "proved" unbounded a problem whose optimum is -1/2.
    The written objective grows quadratically along that ray: the claim is unproven."""
    x = cp.Variable(2, name="x")
    big = 1e16 * np.array([[1.0, -1.0], [-1.0, 1.0]])
    prob = cp.Problem(cp.Minimize(cp.quad_form(x, cp.psd_wrap(big)) + cp.sum_squares(x)
                                  - x[0] - x[1]))
    r = ck.solve(ck.from_cvxpy(prob), solver)
    assert r.status not in (Status.UNBOUNDED, Status.INFEASIBLE_OR_UNBOUNDED), r.message
    if r.status is Status.ERROR:
        assert "grows quadratically" in r.message


@pytest.mark.parametrize("solver", ["clarabel", "osqp"])
def test_a_true_unbounded_quadratic_problem_is_still_proved(solver):
    """Along its ray the objective is affine (``-x_0``, the quadratic term and the norm
    unchanged or linear): the claim stands."""
    x = cp.Variable(3, name="x")
    prob = cp.Problem(cp.Minimize(cp.sum_squares(x[1:]) - x[0] + cp.norm1(x[1:])),
                      [x[1:] <= 1])
    r = ck.solve(ck.from_cvxpy(prob), solver)
    assert r.status is Status.UNBOUNDED, r.message
