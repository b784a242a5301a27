"""Every "infeasible"/"unbounded" word a conic solver says is checked before it reaches the
user: its Farkas or improving ray must prove it (convexkern.math.conic.rays), or another
solver's must, or the formulation's facts; otherwise the report is an error that says why.

Known answers are built by hand (an infeasible system, an unbounded LP, a QP unbounded
along the null space of its quadratic, problems infeasible on both sides), the hostile
cases are those a 971-case run found reaching users unchecked (scales of 1e-12 and 1e12),
and two property tests draw feasible, bounded problems (LP, QP, SOCP, SDP, exponential
cone) at scales 1e-12 to 1e12 and check that no solver's "no solution" word survives on
any of them and that every certified bracket holds an independent high-accuracy optimum.
"""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import convexkern as ck
from convexkern.math.conic import ConicData
from convexkern.math.conic.rays import farkas_proof, feasible_point_proof, improving_ray_proof
from convexkern.report import Status
from convexkern.solvers.table import CONIC

CLAIMS = (Status.INFEASIBLE, Status.UNBOUNDED, Status.INFEASIBLE_OR_UNBOUNDED)


def _conic_solvers(f):
    return [s for s in ck.available_solvers(f) if s in CONIC]


def _solve_all(problem, name):
    f = ck.from_cvxpy(problem, name)
    return {s: ck.solve(f, s) for s in _conic_solvers(f)}


# ---------------------------------------------------------------- the proofs themselves
def test_farkas_proof_on_a_hand_made_system():
    """x1 >= 1, x2 >= 1, x1 + x2 <= 1 (rows of ``Ax + s = b``, s >= 0): y = (1, 1, 1) gives
    A'y = 0 and b'y = -1 < 0.  y = (1, 1, 3) has A'y = (2, 2) but is corrected exactly
    (multipliers with room cancel A'y) into a valid proof, as the system is infeasible;
    y = (1, 0, 0), whose only multiplier with room cannot cancel A'y and keep b'y < 0,
    proves nothing; nor does any y for a feasible system."""
    A = np.array([[-1.0, 0.0], [0.0, -1.0], [1.0, 1.0]])
    data = ConicData(c=np.zeros(2), A=A, b=np.array([-1.0, -1.0, 1.0]), nonneg=3)
    val, why = farkas_proof(data, np.array([1.0, 1.0, 1.0]))
    assert val > 0 and not why
    val, why = farkas_proof(data, np.array([1.0, 1.0, 3.0]))  # A'y != 0: corrected
    assert val > 0 and not why
    val, _ = farkas_proof(data, np.array([1.0, 0.0, 0.0]))    # cannot be corrected
    assert not val > 0
    feasible = ConicData(c=np.zeros(2), A=A, b=np.array([-1.0, -1.0, 3.0]), nonneg=3)
    assert not farkas_proof(feasible, np.array([1.0, 1.0, 1.0]))[0] > 0
    assert feasible_point_proof(feasible, np.array([1.0, 1.0]))
    assert not feasible_point_proof(data, np.array([1.0, 1.0]))


def test_improving_ray_proof_on_a_hand_made_lp():
    """min -x1 s.t. x >= 0, x2 <= 1: d = (1, 0) has -Ad in K and c'd = -1; d = (0, 1) leaves
    the cone (x2 <= 1 bounds it) and d = (1, 0) on c = (1, 0) does not improve."""
    A = np.array([[-1.0, 0.0], [0.0, -1.0], [0.0, 1.0]])
    data = ConicData(c=np.array([-1.0, 0.0]), A=A, b=np.array([0.0, 0.0, 1.0]), nonneg=3)
    val, why = improving_ray_proof(data, np.array([1.0, 0.0]))
    assert val < 0 and not why
    assert not improving_ray_proof(data, np.array([0.0, 1.0]))[0] < 0
    other = ConicData(c=np.array([1.0, 0.0]), A=A, b=np.array([0.0, 0.0, 1.0]), nonneg=3)
    assert not improving_ray_proof(other, np.array([1.0, 0.0]))[0] < 0


def test_a_quadratic_ray_must_lie_in_the_null_space_of_P():
    """min x1^2/2 + x1 + x2 over all of R^2: the ray (0, -1) has Pd = 0 and improves the
    objective; the ray (-1, 0) improves its linear part but the quadratic term grows along
    it: no proof."""
    P = np.diag([1.0, 0.0])
    data = ConicData(c=np.array([1.0, 1.0]), A=np.zeros((0, 2)), b=np.zeros(0), P=P)
    assert improving_ray_proof(data, np.array([0.0, -1.0]))[0] < 0
    assert not improving_ray_proof(data, np.array([-1.0, 0.0]))[0] < 0


# ---------------------------------------------------------------- solvers' words, checked
def _x():
    return cp.Variable(3, name="x")


def test_infeasible_is_proven_by_the_solvers_ray():
    x = _x()
    reports = _solve_all(cp.Problem(cp.Minimize(cp.sum(x)), [x >= 1, cp.sum(x) <= 2]), "inf")
    for name, r in reports.items():
        if name == "qoco":  # no infeasibility detection: never a claim
            assert r.status not in CLAIMS
            continue
        assert r.status is Status.INFEASIBLE, (name, r.status, r.message)
        assert r.solver_stats["claim_proven"] is True
        # a solver's own Farkas ray, or (HiGHS and MPAX give none through cvxpy) the certified
        # phase-one LP
        proof = "phase-one LP" if name in ("highs", "mpax") else "Farkas ray proves it"
        assert proof in r.message, (name, r.message)


def test_unbounded_is_proven_by_the_ray_and_a_feasible_point():
    x = _x()
    reports = _solve_all(cp.Problem(cp.Minimize(-x[0]), [x >= 1, x[1] + x[2] == 3]), "unb")
    for name, r in reports.items():
        if name == "qoco":  # no ray of its own: a claim only where its diverging point
            # proves one (rays.diverging_point_proof)
            assert r.status not in CLAIMS or (
                r.status is Status.UNBOUNDED and r.solver_stats.get("claim_proven") is True
                and "diverging point" in r.message), r.message
            continue
        if name == "mpax":  # a first-order method with no ray: a claim only with a proof
            assert r.status not in CLAIMS or r.solver_stats.get("claim_proven") is True
            continue
        assert r.status is Status.UNBOUNDED and r.primal_value == -math.inf, (name, r.message)
        assert "improving ray proves it" in r.message


def test_a_qp_unbounded_along_the_null_space_of_its_quadratic():
    x = _x()
    reports = _solve_all(cp.Problem(cp.Minimize(cp.sum_squares(x[:2]) - x[2]), [x[2] >= 0]),
                         "qp_unb")
    assert reports["clarabel"].status is Status.UNBOUNDED
    for name, r in reports.items():  # a claim, an error, or a stop: never an optimum
        assert r.status in (Status.UNBOUNDED, Status.ERROR, Status.OPTIMAL_INACCURATE,
                            Status.ITERATION_LIMIT), name


def test_rank_deficient_equalities_infeasible():
    """x1 - x2 = 1 and x1 - x2 = 2 (identical rows): the ray (1, -1) is exact only after
    rounding the solver's (0.2952..., -0.2952...)."""
    x = _x()
    reports = _solve_all(cp.Problem(cp.Minimize(-x[0] - x[1]),
                                    [x[0] - x[1] == 1, x[0] - x[1] == 2]), "both")
    for name in ("clarabel", "scs", "ecos"):
        assert reports[name].status is Status.INFEASIBLE, (name, reports[name].message)


def test_infeasible_on_both_sides_is_never_called_unbounded():
    """x2 >= 1 and x2 <= 0 with min -x1 over x1 >= 0: the primal is infeasible and the dual
    too; a solver's "unbounded" becomes "infeasible_or_unbounded" (its ray proves that no
    optimum exists, no point proves the problem feasible)."""
    x = _x()
    reports = _solve_all(cp.Problem(cp.Minimize(-x[0]), [x[0] >= 0, x[1] >= 1, x[1] <= 0]),
                         "both2")
    for name, r in reports.items():
        assert r.status is not Status.UNBOUNDED, (name, r.message)
    assert reports["clarabel"].status is Status.INFEASIBLE


# ---------------------------------------------------------------- the hostile run's findings
def test_tiny_scale_lp_false_unbounded_is_an_error():
    """``min sum(x) s.t. 1e-12 x >= 1e-12`` (optimum 3): SCS, ECOS, HiGHS and OSQP said
    unbounded; none of their rays proves it and Clarabel certifies the optimum."""
    x = _x()
    reports = _solve_all(cp.Problem(cp.Minimize(cp.sum(x)), [1e-12 * x >= 1e-12]), "tiny")
    assert reports["clarabel"].status is Status.OPTIMAL
    for name, r in reports.items():
        assert r.status not in CLAIMS, (name, r.message)
        if r.status is Status.ERROR and "said" in r.message:
            assert "clarabel certified an optimum in [3, 3]" in r.message, (name, r.message)


def test_norm_times_1e12_false_infeasible_is_an_error():
    """``min ||1e12 (x - c)|| s.t. sum x = 0`` (feasible, bounded): SCS said infeasible."""
    c = np.random.default_rng(0).standard_normal(5)
    x = cp.Variable(5, name="x")
    reports = _solve_all(cp.Problem(cp.Minimize(cp.norm(1e12 * (x - c))), [cp.sum(x) == 0]),
                         "norm1e12")
    assert reports["clarabel"].status is Status.OPTIMAL
    for name, r in reports.items():
        assert r.status not in CLAIMS, (name, r.message)


def test_costs_times_1e12_false_unbounded_is_an_error():
    """An LP in a box with costs x 1e12: Clarabel said unbounded (infeasible, in the run
    that found it); a box is never unbounded."""
    c = np.random.default_rng(0).standard_normal(5)
    x = cp.Variable(5, name="x")
    reports = _solve_all(cp.Problem(cp.Minimize(1e12 * (c @ x)), [x >= -1, x <= 1]), "cost")
    for name, r in reports.items():
        assert r.status not in CLAIMS, (name, r.message)
    assert reports["highs"].status is Status.OPTIMAL if "highs" in reports else True


# ---------------------------------------------------------------- the property
def _drawn_problem(seed: int, kind: str, rs: float, os_: float) -> cp.Problem:
    """A feasible problem bounded by its box ``-1 <= x <= 1`` (a point ``x0`` inside meets
    the rows with slack), its rows scaled by ``rs`` and its objective by ``os_``."""
    rng = np.random.default_rng(seed)
    n, m = 4, 3
    x = cp.Variable(n, name="x")
    x0 = rng.uniform(-0.5, 0.5, n)
    A = rng.standard_normal((m, n))
    b = A @ x0 + rng.uniform(0.1, 1.0, m)
    c = rng.standard_normal(n)
    cons = [rs * (A @ x) <= rs * b, x >= -1, x <= 1]
    if kind == "lp":
        obj = c @ x
    elif kind == "qp":
        obj = c @ x + cp.sum_squares(x[:2])
    elif kind == "socp":
        obj = c @ x + cp.norm(x - x0)
    elif kind == "sdp":
        Ms = [(lambda G: G + G.T)(rng.standard_normal((3, 3))) for _ in range(n + 1)]
        obj = c @ x + cp.lambda_max(Ms[0] + sum(x[i] * Ms[i + 1] for i in range(n)))
    elif kind == "pow":  # t <= (x0 + 1)^0.3 (x1 + 1)^0.7, a power cone
        t = cp.Variable(name="t")
        cons.append(cp.constraints.PowCone3D(x[0] + 1, x[1] + 1, t, 0.3))
        obj = c @ x - t
    else:
        obj = c @ x + cp.sum(cp.exp(x[:2]))
    return cp.Problem(cp.Minimize(os_ * obj), cons)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), log_scale=st.sampled_from([-12, -6, 0, 6, 12]),
       kind=st.sampled_from(["lp", "qp", "socp", "exp", "pow"]),
       where=st.sampled_from(["obj", "rows"]))
def test_no_claim_survives_on_a_feasible_bounded_problem(seed, log_scale, kind, where):
    """A feasible, bounded problem (a point x0 inside a box, rows that x0 meets with slack)
    scaled by 10^k in its objective or its rows: whatever a solver says, no report is
    infeasible, unbounded or infeasible_or_unbounded."""
    scale = 10.0 ** log_scale
    rs, os_ = (scale, 1.0) if where == "rows" else (1.0, scale)
    f = ck.from_cvxpy(_drawn_problem(seed, kind, rs, os_), f"fuzz_{kind}")
    for s in _conic_solvers(f):
        r = ck.solve(f, s)
        assert r.status not in CLAIMS, (s, kind, log_scale, where, r.status, r.message)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), log_scale=st.sampled_from([-12, -6, 0, 6, 12]),
       kind=st.sampled_from(["lp", "qp", "socp", "sdp", "exp", "pow"]),
       where=st.sampled_from(["obj", "rows"]))
def test_brackets_hold_an_independent_optimum_at_every_scale(seed, log_scale, kind, where):
    """Every finite side of every solver's certified bracket holds the optimum of the same
    problem *unscaled*, solved by plain cvxpy + Clarabel at gap tolerances 1e-10 (its error
    on these O(1) problems is below 1e-9; the slack is ten times that, times the objective's
    scale), and no report is a "no solution" claim."""
    scale = 10.0 ** log_scale
    rs, os_ = (scale, 1.0) if where == "rows" else (1.0, scale)
    ref_prob = _drawn_problem(seed, kind, 1.0, 1.0)
    ref_prob.solve(solver="CLARABEL", tol_gap_abs=1e-10, tol_gap_rel=1e-10,
                   tol_feas=1e-10)
    assert ref_prob.status == cp.OPTIMAL
    ref = os_ * float(ref_prob.value)
    slack = 1e-8 * os_ * (1.0 + abs(float(ref_prob.value)))
    f = ck.from_cvxpy(_drawn_problem(seed, kind, rs, os_), f"drawn_{kind}")
    for s in _conic_solvers(f):
        r = ck.solve(f, s)
        assert r.status not in CLAIMS, (s, kind, log_scale, where, r.status, r.message)
        lo, hi = r.dual_value, r.primal_value
        assert not (math.isfinite(lo) and lo > ref + slack), (s, kind, log_scale, where, lo, ref)
        assert not (math.isfinite(hi) and hi < ref - slack), (s, kind, log_scale, where, hi, ref)


@pytest.mark.parametrize("solver", ["clarabel", "scs"])
def test_a_claim_a_fact_proves_stands_without_a_ray(solver):
    """Abe's Theorem 2 proves the nu-LP dual infeasible for C_rho < 1/M: the report is
    'infeasible' with the theorem as its proof, whatever the solver's ray shows."""
    from convexkern.formulations import lp_svm

    A = np.abs(np.random.default_rng(1).standard_normal((40, 5)))
    f = lp_svm.nu_lp_dual(A, 0.5 / 40)
    r = ck.solve(f, solver)
    assert r.status is Status.INFEASIBLE, (r.status, r.message)
    assert "Theorem 2" in r.message


def test_cvxpys_derived_bounds_on_auxiliary_variables_are_not_certified():
    """cvxpy 1.9 gives a solver that takes variable bounds (HiGHS) interval bounds on the
    auxiliary variables of its canonical form, and bounds ``pos(1 - y * (X @ w + b))`` by
    ``[1, 1]`` when ``w`` is free (``0 * inf`` in its interval product).  HiGHS then
    solves another problem: a linear SVM's objective 0.5 |w|^2 + hinge is n = 60 at
    ``w = 0``, where the optimum is far below.  The certificate is about the user's
    problem (the auxiliary columns free), so it may not call that answer optimal: its
    bracket holds the optimum an independent solver finds."""
    if "highs" not in ck.installed_solvers():
        pytest.skip("HiGHS is not installed")
    rng = np.random.default_rng(7)
    X = rng.standard_normal((60, 5))
    y = np.sign(X[:, 0] + 0.5 * rng.standard_normal(60))

    def svm() -> cp.Problem:
        w, b = cp.Variable(5, name="w"), cp.Variable(name="b")
        return cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w)
                                      + cp.sum(cp.pos(1 - cp.multiply(y, X @ w + b)))))

    ref = svm()
    ref.solve(solver="CLARABEL")
    assert ref.value < 50.0  # the hinge loss at w = 0 is 60
    r = ck.solve(ck.from_cvxpy(svm(), "svm"), "highs")
    lo, up = sorted((r.primal_value, r.dual_value))
    assert lo <= ref.value * (1 + 1e-6) and up >= ref.value * (1 - 1e-6), (lo, up, ref.value)
    # compiled without cvxpy's derived bounds (solvers/cvxpy_bounds.py), HiGHS solves the
    # user's problem
    assert r.status is Status.OPTIMAL, r.message
    assert abs(r.primal_value - ref.value) <= 1e-6 * ref.value


def test_a_false_infeasible_from_derived_bounds_is_not_proven():
    """Quantile regression ``sum(maximum(tau r, (tau - 1) r))``, ``r = b - A x`` with a free
    ``x``, has no constraints at all.  cvxpy 1.9 bounds the auxiliary variable of
    ``maximum`` by ``[0, 0]`` for HiGHS (a NaN read as 0), HiGHS says "infeasible", and
    the phase-one LP of that form proved it (reported ``infeasible``, "certified").  The
    phase one now runs on the user's form (the auxiliary columns free): the claim is not
    proven, and another solver refutes it."""
    if "highs" not in ck.installed_solvers():
        pytest.skip("HiGHS is not installed")
    rng = np.random.default_rng(1)
    A, b = rng.standard_normal((40, 4)), rng.standard_normal(40)
    x = cp.Variable(4, name="x")
    r_ = b - A @ x
    prob = cp.Problem(cp.Minimize(cp.sum(cp.maximum(0.3 * r_, -0.7 * r_))))
    r = ck.solve(ck.from_cvxpy(prob, "quantile"), "highs")
    assert r.status is Status.OPTIMAL, r.message  # the user's problem, solved


def test_highs_after_another_solver_on_the_same_problem_compiles():
    """cvxpy 1.9 copies the variables' values of a previous solve into the auxiliary
    variables it bounds for HiGHS, and refuses one a hair outside its bounds ("Variable
    value must be in bounds"): ``ck.compare`` runs HiGHS after other solvers on the same
    problem.  The problem is compiled again from no values."""
    if "highs" not in ck.installed_solvers():
        pytest.skip("HiGHS is not installed")
    rng = np.random.default_rng(7)
    X = rng.standard_normal((60, 5))
    y = np.sign(X[:, 0] + 0.5 * rng.standard_normal(60))
    w, b = cp.Variable(5, name="w"), cp.Variable(name="b")
    f = ck.from_cvxpy(cp.Problem(cp.Minimize(
        0.5 * cp.sum_squares(w) + cp.sum(cp.pos(1 - cp.multiply(y, X @ w + b))))), "svm")
    first = ck.solve(f, "clarabel")
    assert first.status is Status.OPTIMAL
    r = ck.solve(f, "highs")
    assert "must be in bounds" not in r.message, r.message
    lo, up = sorted((r.primal_value, r.dual_value))
    assert lo <= first.primal_value * (1 + 1e-7) and up >= first.dual_value * (1 - 1e-7)


@pytest.mark.parametrize("bounded", [False, True])
def test_the_certificate_keeps_only_the_users_bounds_of_cvxpys_form(bounded):
    """On cvxpy's own form for HiGHS (compiled as cvxpy does, with its derived bounds),
    ``generic.user_bounds`` keeps the bounds of the user's variables and frees the
    auxiliary columns; on that form the phase-one LP proves nothing about a quantile
    regression, which has no constraints (cvxpy 1.9 pins ``maximum``'s auxiliary
    variable to 0 there, and the phase one of the form as given was infeasible)."""
    if "highs" not in ck.installed_solvers():
        pytest.skip("HiGHS is not installed")
    from convexkern.generic import conic_data, user_bounds
    from convexkern.solvers.conic import _phase_one_proof
    from convexkern.solvers.table import CONIC

    rng = np.random.default_rng(1)
    A, b = rng.standard_normal((40, 4)), rng.standard_normal(40)
    x = cp.Variable(4, name="x", bounds=[-5.0, 5.0] if bounded else None)
    r_ = b - A @ x
    prob = cp.Problem(cp.Minimize(cp.sum(cp.maximum(0.3 * r_, -0.7 * r_))))
    data, chain, inverse = prob.get_problem_data("HIGHS")  # cvxpy's form, as it is
    cd, reason = conic_data(data, chain.solver)
    mine = user_bounds(cd, prob, inverse)
    if bounded:
        off = next(d for d in reversed(inverse) if hasattr(d, "var_offsets")).var_offsets[x.id]
        user = np.zeros(cd.c.size, dtype=bool)
        user[off: off + 4] = True
        np.testing.assert_array_equal(mine.lb[user], -5.0)
        np.testing.assert_array_equal(mine.ub[user], 5.0)
        assert np.all(np.isinf(mine.lb[~user])) and np.all(np.isinf(mine.ub[~user]))
    else:  # no bound of the user's: none is left
        assert mine.lb is None and mine.ub is None
    done, note = _phase_one_proof(CONIC["highs"], mine, reason, tol=1e-8, accuracy=1e-8,
                                  time_limit=None)
    assert not done, note


def test_compile_as_written_is_undone_after_the_compilation():
    """The solver objects cvxpy keeps are told they take no bounds for the compilation
    only, and told so again after an error inside."""
    if "highs" not in ck.installed_solvers():
        pytest.skip("HiGHS is not installed")
    from cvxpy.reductions.solvers import defines

    from convexkern.solvers.cvxpy_bounds import compile_as_written

    insts = [m["HIGHS"] for m in (defines.SOLVER_MAP_QP, defines.SOLVER_MAP_CONIC)
             if "HIGHS" in m]
    before = [i.BOUNDED_VARIABLES for i in insts]
    with pytest.raises(RuntimeError):
        with compile_as_written("highs"):
            assert all(i.BOUNDED_VARIABLES is False for i in insts)
            raise RuntimeError
    assert [i.BOUNDED_VARIABLES for i in insts] == before
    assert all("BOUNDED_VARIABLES" not in i.__dict__ for i in insts)


def test_scs_solves_a_problem_written_without_constraints():
    """cvxpy refuses SCS ("cannot solve this problem") when the user wrote no constraint,
    though the canonical form of ``sum(maximum(...))`` has rows; compiled past that check
    (solvers/cvxpy_bounds.py) SCS solves it, certified like the others.  A form with no
    rows at all (a free linear objective) still fails in SCS and is reported, not raised."""
    rng = np.random.default_rng(3)
    A, b = rng.standard_normal((50, 4)), rng.standard_normal(50)
    x = cp.Variable(4, name="x")
    r_ = b - A @ x
    f = ck.from_cvxpy(cp.Problem(cp.Minimize(cp.sum(cp.maximum(0.3 * r_, -0.7 * r_)))), "q")
    ref = ck.solve(f, "clarabel")
    r = ck.solve(f, "scs")
    assert r.status is Status.OPTIMAL, r.message
    assert r.dual_value <= ref.primal_value * (1 + 1e-7)
    assert r.primal_value >= ref.dual_value * (1 - 1e-7)
    free = ck.solve(ck.from_cvxpy(cp.Problem(cp.Minimize(cp.sum(x))), "free"), "scs")
    assert free.status in (Status.ERROR, Status.UNBOUNDED), free.message


def test_requires_constr_is_undone_after_the_compilation():
    from cvxpy.reductions.solvers import defines

    from convexkern.solvers.cvxpy_bounds import compile_as_written

    scs = defines.SOLVER_MAP_CONIC["SCS"]
    before = scs.REQUIRES_CONSTR
    with compile_as_written("scs"):
        assert scs.REQUIRES_CONSTR is False
    assert scs.REQUIRES_CONSTR == before and "REQUIRES_CONSTR" not in scs.__dict__
