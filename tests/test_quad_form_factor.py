"""A ``quad_form`` that reaches the solver through cvxpy's factor of ``P`` (a second-order
cone: every solver for a ``quad_form`` in a constraint, ECOS in the objective) is
certified as written, not as factored (:mod:`convexkern.math.conic.factored`).

The factor is exact only to rounding; with a singular ``P = f f'`` and a large box the
factored problem's optimum moves away from the written one.  Before, Clarabel, SCS and
ECOS returned brackets of the factored problem, ``optimal``, missing the written optimum
(a seeded run: 211 misses in 900 solves).  The reference here is exact: the box QP's
KKT points enumerated in rational arithmetic on the stored doubles."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import cvxpy as cp
import numpy as np
import pytest

import convexkern as ck
from convexkern.report import Status


def _solve_rational(A, b):
    n = len(A)
    M = [row[:] + [v] for row, v in zip(A, b)]
    for c in range(n):
        p = next((r for r in range(c, n) if M[r][c] != 0), None)
        if p is None:
            return None
        M[c], M[p] = M[p], M[c]
        for r in range(n):
            if r != c and M[r][c] != 0:
                f = M[r][c] / M[c][c]
                M[r] = [a - f * w for a, w in zip(M[r], M[c])]
    return [M[i][n] / M[i][i] for i in range(n)]


def exact_box_qp(P, g, B):
    """``min 1/2 x'Px + g'x`` over ``|x_i| <= B``, exactly: the least value over the KKT
    points of each active set (a KKT point of a convex QP is optimal; ``P`` as stored is
    PSD to rounding, so the least is taken)."""
    n = len(g)
    Pf = [[Fraction(float(P[i, j])) for j in range(n)] for i in range(n)]
    gf = [Fraction(float(v)) for v in g]
    Bf = Fraction(float(B))
    best = None
    for pat in itertools.product((-1, 0, 1), repeat=n):
        free = [i for i in range(n) if pat[i] == 0]
        x = [Bf * pat[i] for i in range(n)]
        if free:
            sol = _solve_rational(
                [[Pf[i][j] for j in free] for i in free],
                [-(gf[i] + sum(Pf[i][j] * x[j] for j in range(n) if pat[j])) for i in free])
            if sol is None:
                continue
            for i, v in zip(free, sol):
                x[i] = v
        if any(abs(v) > Bf for v in x):
            continue
        grad = [gf[i] + sum(Pf[i][j] * x[j] for j in range(n)) for i in range(n)]
        if not all(pat[i] == 0 or (pat[i] == 1 and grad[i] <= 0)
                   or (pat[i] == -1 and grad[i] >= 0) for i in range(n)):
            continue
        val = sum(gf[i] * x[i] for i in range(n)) + Fraction(1, 2) * sum(
            x[i] * Pf[i][j] * x[j] for i in range(n) for j in range(n))
        best = val if best is None or val < best else best
    return best


def _instance(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 5))
    k = int(rng.integers(1, n))
    F = rng.standard_normal((n, k))
    P = F @ F.T
    P = (P + P.T) / 2
    g = rng.standard_normal(n) * 2.0 ** int(rng.integers(-20, 0))
    B = 2.0 ** int(rng.integers(14, 27))
    return P, g, B


SEEDS = range(12)


@pytest.mark.parametrize("seed", SEEDS)
def test_brackets_hold_the_written_optimum_of_a_singular_quad_form(seed):
    """Epigraph form (``quad_form(x, P) <= t``) on Clarabel, SCS and ECOS, and the
    objective form on ECOS: every bracket holds the exact optimum of the problem as
    written, at boxes up to 2^26 (wider brackets where the rounding of the factor can
    move the optimum: reported as such, never a miss)."""
    P, g, B = _instance(seed)
    opt = exact_box_qp(P, g, B)
    assert opt is not None
    n = len(g)
    x, t = cp.Variable(n), cp.Variable()
    box = [x >= -B, x <= B]
    forms = [(cp.Problem(cp.Minimize(0.5 * t + g @ x), [cp.quad_form(x, P) <= t, *box]), s)
             for s in ("clarabel", "scs", "ecos")]
    forms.append((cp.Problem(cp.Minimize(0.5 * cp.quad_form(x, P) + g @ x), box), "ecos"))
    for problem, solver in forms:
        r = ck.solve(ck.from_cvxpy(problem), solver)
        lo, up = sorted((r.primal_value, r.dual_value))
        if math.isnan(lo) or math.isnan(up):
            assert r.status is not Status.OPTIMAL
            continue
        # exact comparison: the bounds as doubles against the rational optimum
        assert (lo == -math.inf or Fraction(lo) <= opt) and (
            up == math.inf or opt <= Fraction(up)), (solver, lo, float(opt), up)


def test_a_free_argument_with_a_definite_P_is_certified_without_a_box():
    """``quad_form(x, P) <= t`` with a free ``x`` and ``P`` verified positive definite:
    ``(1 - rho) sigma |F'x|^2 <= x'Px <= (1 + rho) sigma |F'x|^2`` needs no box
    (:func:`~convexkern.math.conic.factored.factor_ratio`)."""
    Pw = np.array([[2.0, 0.5], [0.5, 1.0]])
    x, t = cp.Variable(2, name="x"), cp.Variable(name="t")
    problem = cp.Problem(cp.Minimize(t - np.ones(2) @ x), [cp.quad_form(x, Pw) <= t])
    opt = -float(np.ones(2) @ np.linalg.solve(Pw, np.ones(2))) / 4
    for solver in ("clarabel", "scs", "ecos"):
        r = ck.solve(ck.from_cvxpy(problem), solver)
        assert r.status is Status.OPTIMAL, (solver, r.message)
        assert r.dual_value <= opt + 1e-9 and r.primal_value >= opt - 1e-9


def test_a_free_argument_with_a_singular_P_is_not_certified_and_says_why():
    """``P = f f'`` and a free ``x``: the optimal set runs along ``f``'s null space, no
    row bounds ``x`` and ``P`` is not definite, so the factor's rounding cannot be bounded
    and no bracket is claimed; the message names the ``quad_form`` and what would let it
    be certified.  With a box it is certified."""
    f = np.array([1.0, 0.3, -0.7])
    Pw = np.outer(f, f)
    x, t = cp.Variable(3, name="x"), cp.Variable(name="t")
    free = cp.Problem(cp.Minimize(t - f @ x), [cp.quad_form(x, Pw) <= t])
    r = ck.solve(ck.from_cvxpy(free), "ecos")
    assert r.status is not Status.OPTIMAL
    assert math.isinf(r.dual_value) and math.isinf(r.primal_value)
    assert "quad_form(x, P)" in r.message and "bound the variable" in r.message
    boxed = cp.Problem(cp.Minimize(t - f @ x),
                       [cp.quad_form(x, Pw) <= t, x >= -100, x <= 100])
    r = ck.solve(ck.from_cvxpy(boxed), "ecos")
    assert r.status is Status.OPTIMAL, r.message
    assert r.dual_value <= -0.25 + 1e-9 and r.primal_value >= -0.25 - 1e-9


def test_an_objective_quad_form_on_ecos_is_certified_with_free_variables():
    """In the objective, on a variable, the written objective itself (``P``, as cvxpy
    gives a solver that takes it) is certified: no box is needed."""
    Pw = np.array([[2.0, 0.5], [0.5, 1.0]])
    x = cp.Variable(2, name="x")
    problem = cp.Problem(cp.Minimize(0.5 * cp.quad_form(x, Pw) - np.ones(2) @ x),
                         [x[0] >= -1e3])
    r = ck.solve(ck.from_cvxpy(problem), "ecos")
    assert r.status is Status.OPTIMAL, r.message
    opt = -0.5 * float(np.ones(2) @ np.linalg.solve(Pw, np.ones(2)))
    assert r.dual_value <= opt + 1e-9 and r.primal_value >= opt - 1e-9


@pytest.mark.parametrize("eta", [0.0, 1e-300, 3e-17, 1.1e-16, 0.3, 0.9999999, 1.0, 7.5, 1e6,
                                 2.0 ** 51 + 3, 2.0 ** 53, 1.8e16, 1e300])
def test_the_cone_shift_is_exact(eta):
    """``1 + e`` and ``1 - e`` exact with ``e >= eta``; none exists from 2^52 on (then
    both round and the "relaxed" cone would force its tail to 0): ``inf``, no bracket."""
    from convexkern.math.conic.factored import _exact_step

    e = _exact_step(eta)
    if eta >= 2.0 ** 52:
        assert e == math.inf
        return
    assert e >= eta
    assert Fraction(1.0 + e) == 1 + Fraction(e) and Fraction(1.0 - e) == 1 - Fraction(e)


@pytest.mark.parametrize("seed", range(6))
def test_eta_bounds_the_factor_difference_exactly(seed):
    """``factor_eta`` bounds ``|u'Pu / sigma - |s_T / 2|^2|`` at points of the box, the
    difference computed in rational arithmetic on the stored factor and cone rows."""
    from convexkern.generic import conic_data
    from convexkern.math.conic.factored import factor_eta
    from convexkern.solvers.cvxpy_bounds import quad_form_drops, with_factors

    rng = np.random.default_rng(100 + seed)
    n = 3
    F0 = rng.standard_normal((n, 2))
    P = F0 @ F0.T
    P = (P + P.T) / 2
    B = 2.0 ** 20
    x, t = cp.Variable(n), cp.Variable()
    c = rng.standard_normal(n)
    problem = cp.Problem(cp.Minimize(t), [cp.quad_form(x - c, P) <= t, x >= -B, x <= B])
    with quad_form_drops() as drops:
        data, chain, inverse = problem.get_problem_data("CLARABEL")
    cd, _ = conic_data(data, chain.reductions[-1])
    cd, why = with_factors(cd, drops.forms, inverse)
    assert not why and len(cd.factors) == 1
    q = cd.factors[0]
    lo = np.full(cd.c.size, -B)
    hi = np.full(cd.c.size, B)
    eta = factor_eta(cd, q, lo, hi)
    assert math.isfinite(eta)
    k = q.F.shape[1]
    rows = range(q.head + 2, q.head + 2 + k)
    Ad = cd.A.toarray()
    worst = Fraction(0)
    for _ in range(40):
        z = rng.uniform(-B, B, cd.c.size)
        z[rng.random(cd.c.size) < 0.5] = B * rng.choice([-1, 1])
        zf = [Fraction(v) for v in z]
        u = [sum(Fraction(q.A[i, j]) * zf[j] for j in range(cd.c.size)) + Fraction(q.b[i])
             for i in range(n)]
        quad = sum(u[i] * Fraction(q.P[i, j]) * u[j] for i in range(n) for j in range(n))
        s = [Fraction(cd.b[r]) - sum(Fraction(Ad[r, j]) * zf[j] for j in range(cd.c.size))
             for r in rows]
        d = abs(quad / Fraction(q.sigma) - sum(v * v for v in s) / 4)
        worst = max(worst, d)
        assert d <= Fraction(eta), (float(d), eta)
    assert worst > 0  # the check is not vacuous: the factor is not exact


@pytest.mark.parametrize("seed", range(6))
def test_the_ratio_bounds_the_factor_exactly(seed):
    """``factor_ratio``'s ``rho``: ``|u'Pu / sigma - |F'u|^2| <= rho |F'u|^2`` at random
    ``u`` far along every direction, in rational arithmetic on the stored ``P`` and
    factor, for positive definite ``P`` of condition up to 1e6."""
    from convexkern.generic import conic_data
    from convexkern.math.conic.factored import factor_ratio
    from convexkern.solvers.cvxpy_bounds import quad_form_drops, with_factors

    rng = np.random.default_rng(200 + seed)
    n = 4
    Q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    P = (Q * np.logspace(0, -6 * seed / 5, n)) @ Q.T
    P = (P + P.T) / 2
    x, t = cp.Variable(n), cp.Variable()
    problem = cp.Problem(cp.Minimize(t), [cp.quad_form(x, P) <= t])
    with quad_form_drops() as drops:
        data, chain, inverse = problem.get_problem_data("CLARABEL")
    cd, _ = conic_data(data, chain.reductions[-1])
    cd, why = with_factors(cd, drops.forms, inverse)
    q = cd.factors[0]
    rho = factor_ratio(cd, q)
    assert rho is not None and 0 < rho < 0.5
    for _ in range(30):
        u = [Fraction(v) for v in rng.standard_normal(n) * 10.0 ** rng.uniform(-3, 8)]
        quad = sum(u[i] * Fraction(q.P[i, j]) * u[j] for i in range(n) for j in range(n))
        Fu = [sum(Fraction(q.F[i, j]) * u[i] for i in range(n)) for j in range(q.F.shape[1])]
        fac = sum(v * v for v in Fu)
        assert abs(quad / Fraction(q.sigma) - fac) <= Fraction(rho) * fac


@pytest.mark.parametrize("solver", ["clarabel", "scs", "ecos"])
def test_an_infeasible_quad_form_constraint_is_proven_on_the_written_problem(solver):
    """``x'Px <= 1`` and ``x_0 >= 10`` (``P`` definite): the solver's Farkas ray or the
    phase one is checked on a form that holds every written point (the factor's ratio),
    so the word ``infeasible`` is a proof about the problem as written."""
    Pw = np.array([[2.0, 0.5], [0.5, 1.0]])
    x = cp.Variable(2, name="x")
    problem = cp.Problem(cp.Minimize(cp.sum(x)), [cp.quad_form(x, Pw) <= 1, x[0] >= 10])
    r = ck.solve(ck.from_cvxpy(problem), solver)
    assert r.status is Status.INFEASIBLE, r.message
    assert r.solver_stats.get("claim_proven"), r.message


def test_an_infeasible_singular_quad_form_is_proven_over_a_box():
    """``P = f f'`` (not definite): the relaxed form takes the factor's shift over the box
    the other rows give; ``(f'x)^2 <= 1`` with ``f'x >= 3`` inside ``|x| <= 100``."""
    f = np.array([1.0, 0.3, -0.7])
    x = cp.Variable(3, name="x")
    problem = cp.Problem(cp.Minimize(cp.sum(x)),
                         [cp.quad_form(x, np.outer(f, f)) <= 1, f @ x >= 3,
                          x >= -100, x <= 100])
    r = ck.solve(ck.from_cvxpy(problem), "clarabel")
    assert r.status is Status.INFEASIBLE, r.message
    assert r.solver_stats.get("claim_proven"), r.message


def test_ecos_own_unbounded_ray_is_proven_on_the_written_objective():
    """ECOS factors an objective ``quad_form``; its improving ray is checked on the
    written objective (``P`` itself: the ray must meet ``P d = 0``), which proves it.
    Before, the ray failed on the factored cone and only Clarabel's second opinion
    proved the word."""
    Pw = np.array([[2.0, 0.5], [0.5, 1.0]])
    x, s = cp.Variable(2, name="x"), cp.Variable(name="s")
    problem = cp.Problem(cp.Minimize(0.5 * cp.quad_form(x, Pw) + s), [s <= 0, x >= -1])
    r = ck.solve(ck.from_cvxpy(problem), "ecos")
    assert r.status is Status.UNBOUNDED, r.message
    assert r.solver_stats.get("claim_proven"), r.message
    assert "its improving ray proves it" in r.message


@pytest.mark.parametrize("before", ["CLARABEL", "ECOS", "data"])
def test_a_problem_cvxpy_compiled_before_is_watched_again(before):
    """cvxpy reuses its last compile for the same solver without canonicalising: a
    problem the user solved (or compiled) with cvxpy first used to reach the certificate
    with no record of its factor, and the factored form's bracket, missing the written
    optimum, was reported ``optimal`` (a review found 20 such misses over this file's
    seeds).  The unwatched compile is dropped and done again."""
    P, g, B = _instance(5)
    opt = exact_box_qp(P, g, B)
    n = len(g)
    x, t = cp.Variable(n), cp.Variable()
    problem = cp.Problem(cp.Minimize(0.5 * t + g @ x),
                         [cp.quad_form(x, P) <= t, x >= -B, x <= B])
    solver = "CLARABEL" if before == "data" else before
    if before == "data":
        problem.get_problem_data(solver)
    else:
        problem.solve(solver=solver)
    r = ck.solve(ck.from_cvxpy(problem), solver.lower())
    lo, up = sorted((r.primal_value, r.dual_value))
    assert (lo == -math.inf or Fraction(lo) <= opt) and (
        up == math.inf or opt <= Fraction(up)), (lo, float(opt), up)


@pytest.mark.parametrize("attrs", [{"nonneg": True}, {"bounds": [-10, 10]}])
def test_an_argument_with_attributes_is_read_through_cvxpys_replacement(attrs):
    """cvxpy canonicalises ``quad_form`` before it replaces a variable with attributes by
    a plain one; the argument is read through that replacement (before this, cvxpy's
    extractor aborted the process on the unknown variable).  Certified, holding the
    optimum -1/6 of ``min x'Px - 1'x``, ``0 <= x <= 10``."""
    P = np.array([[2.0, 1.0], [1.0, 2.0]])
    x, t = cp.Variable(2, name="x", **attrs), cp.Variable(name="t")
    cons = [cp.quad_form(x, P) <= t, x <= 10, x >= 0]
    problem = cp.Problem(cp.Minimize(t - cp.sum(x)), cons)
    r = ck.solve(ck.from_cvxpy(problem), "clarabel")
    assert r.status is Status.OPTIMAL, r.message
    assert r.dual_value <= -1 / 6 + 1e-9 and r.primal_value >= -1 / 6 - 1e-9


def test_a_symmetric_variable_in_the_argument_is_not_misread():
    """A ``symmetric`` variable becomes its upper triangle in the form (another shape,
    the same id): its entries are not read as the form's columns; the bracket still
    holds the optimum (or is refused, with the reason)."""
    X, t = cp.Variable((2, 2), symmetric=True, name="X"), cp.Variable(name="t")
    P = np.diag([1.0, 2.0, 2.0, 3.0])
    problem = cp.Problem(cp.Minimize(t - cp.trace(X)),
                         [cp.quad_form(cp.vec(X, order="F"), P) <= t, X >= -5, X <= 5])
    r = ck.solve(ck.from_cvxpy(problem), "clarabel")
    # min t - X00 - X11 with X00^2 + 3 X11^2 + 4 X01^2 <= t: X00 = 1/2, X11 = 1/6
    opt = -(1 / 4 + 1 / 12)
    lo, up = sorted((r.primal_value, r.dual_value))
    assert lo <= opt + 1e-9 and opt - 1e-9 <= up, (lo, opt, up, r.message)


def test_a_concave_quad_form_in_a_maximize_is_certified_on_ecos():
    """``P`` negative definite, ``maximize g'x + x'Px`` with a free ``x``: ECOS's factor
    carries ``sigma < 0``; the objective route takes ``(2 c_t / sigma) P``, PSD for
    ``c_t > 0`` whatever ``sigma``'s sign."""
    P = -np.array([[2.0, 0.5], [0.5, 1.0]])
    g = np.array([1.0, -2.0])
    x = cp.Variable(2, name="x")
    problem = cp.Problem(cp.Maximize(g @ x + cp.quad_form(x, P)))
    r = ck.solve(ck.from_cvxpy(problem), "ecos")
    assert r.status is Status.OPTIMAL, r.message
    opt = -0.25 * float(g @ np.linalg.solve(P, g))
    lo, up = sorted((r.primal_value, r.dual_value))
    assert lo <= opt + 1e-9 and opt - 1e-9 <= up, (lo, opt, up)


@pytest.mark.parametrize("solver", ["ecos", "clarabel"])
def test_a_labelled_argument_takes_the_exact_routes(solver):
    """``quad_form(multiply(y, a), K)`` (an SVM dual as users write it, labels +-1): the
    argument's coefficients are +-1, so the written objective (ECOS) and the ratio
    (a definite ``K`` in a constraint, no box on ``a``) stay exact."""
    rng = np.random.default_rng(4)
    X = rng.standard_normal((6, 2))
    K = np.exp(-0.5 * np.sum((X[:, None] - X[None]) ** 2, axis=2)) + 0.1 * np.eye(6)
    y = np.array([1.0, -1, 1, -1, 1, -1])
    a = cp.Variable(6, name="a")
    if solver == "ecos":
        problem = cp.Problem(cp.Maximize(cp.sum(a) - 0.5 * cp.quad_form(cp.multiply(y, a), K)),
                             [y @ a == 0])
    else:
        t = cp.Variable(name="t")
        problem = cp.Problem(cp.Maximize(cp.sum(a) - 0.5 * t),
                             [cp.quad_form(cp.multiply(y, a), K) <= t, y @ a == 0])
    r = ck.solve(ck.from_cvxpy(problem), solver)
    assert r.status is Status.OPTIMAL, r.message
    # the same problem with P itself (Clarabel's objective path) as the reference
    ref = cp.Problem(cp.Maximize(cp.sum(a) - 0.5 * cp.quad_form(a, K * np.outer(y, y))),
                     [y @ a == 0])
    ref.solve(solver="CLARABEL", tol_gap_abs=1e-12, tol_gap_rel=1e-12, tol_feas=1e-12)
    lo, up = sorted((r.primal_value, r.dual_value))
    assert lo - 1e-9 * abs(ref.value) <= ref.value <= up + 1e-9 * abs(ref.value)


@pytest.mark.parametrize("seed", range(4))
def test_eta_is_the_exact_difference_over_the_box(seed):
    """With ``P - sigma F F'`` bounded entry by entry by a compensated dot product and the
    cone's tail exact for a variable's entries, the shift is ``m'|E|m / sigma`` for the
    exact difference ``E`` of the stored doubles, to a few ulps (the plain floating-point
    difference with its rounding bound gave 20 to 90 times that on these instances)."""
    from convexkern.generic import conic_data
    from convexkern.math.conic.factored import factor_eta
    from convexkern.solvers.cvxpy_bounds import quad_form_drops, with_factors

    P, g, B = _instance(seed)
    n = len(g)
    x, t = cp.Variable(n), cp.Variable()
    problem = cp.Problem(cp.Minimize(0.5 * t + g @ x),
                         [cp.quad_form(x, P) <= t, x >= -B, x <= B])
    with quad_form_drops() as drops:
        data, chain, inverse = problem.get_problem_data("CLARABEL")
    cd, _ = conic_data(data, chain.reductions[-1])
    cd, _ = with_factors(cd, drops.forms, inverse)
    q = cd.factors[0]
    eta = factor_eta(cd, q, np.full(cd.c.size, -B), np.full(cd.c.size, B))
    k = q.F.shape[1]
    E = [[Fraction(float(q.P[i, j])) - Fraction(q.sigma) * sum(
        Fraction(float(q.F[i, c])) * Fraction(float(q.F[j, c])) for c in range(k))
        for j in range(n)] for i in range(n)]
    exact = sum(abs(v) for row in E for v in row) * Fraction(B) ** 2 / abs(Fraction(q.sigma))
    assert exact > 0
    assert Fraction(eta) >= exact
    assert Fraction(eta) <= exact * (1 + Fraction(1, 10 ** 10))


def test_the_factor_check_is_not_begun_past_the_deadline():
    """Under time_limit with nothing left, the relaxed and tightened forms do not begin the
    bound on ``P - sigma F F'``, which cannot be interrupted (kernel logistic regression's
    300 x 300 factor on ECOS: 1.1 s, begun with 0.3 s left, the call then took 1.6 T): the
    bracket stays open and says why, and nothing is kept for later; with time, the factor's
    ratio is computed."""
    import time

    from convexkern.generic import conic_data
    from convexkern.math.budget import deadline
    from convexkern.math.conic.data import ConicBounds
    from convexkern.math.conic.factored import _relaxed_bounds, factor_ratio
    from convexkern.solvers.cvxpy_bounds import quad_form_drops, with_factors

    Pw = np.array([[2.0, 0.5], [0.5, 1.0]])
    x, t = cp.Variable(2), cp.Variable()
    problem = cp.Problem(cp.Minimize(t - np.ones(2) @ x), [cp.quad_form(x, Pw) <= t])
    with quad_form_drops() as drops:
        data, chain, inverse = problem.get_problem_data("ECOS")
    cd, _ = conic_data(data, chain.reductions[-1])
    cd, _ = with_factors(cd, drops.forms, inverse)
    q = cd.factors[0]
    asked = []

    def bounds(form, xx, yy):
        asked.append(form)
        return ConicBounds(-1.0, 1.0, "", "")

    with deadline(time.perf_counter() - 1.0):
        out = _relaxed_bounds(cd, None, None, bounds)
    assert math.isinf(out.lower) and math.isinf(out.upper)
    assert "no time was left" in out.lower_reason and "time_limit" in out.upper_reason
    assert not asked and "difference" not in q.cache and "ratio" not in q.cache
    rho = factor_ratio(cd, q)  # no deadline
    assert rho is not None and 0 < rho < 0.5
    out = _relaxed_bounds(cd, None, None, bounds)
    assert len(asked) == 2 and (out.lower, out.upper) == (-1.0, 1.0)
