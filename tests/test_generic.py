"""The generic certificate: rigorous brackets for any cvxpy problem.

Optima are known by construction (planted KKT points), so a bracket is checked against a
number that does not come from the code under test.  The only tolerance is the rounding
of the oracle's own value (a float dot product of the planted point): 1e-12 relative.
"""

from __future__ import annotations

import math
import os
from dataclasses import replace

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import convexkern as ck
from convexkern.report import Certificate, Status

EXAMPLES = int(os.environ.get("CONVEXKERN_FUZZ_EXAMPLES", "12"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])
SOLVERS = [s for s in ("clarabel", "scs", "ecos") if s in ck.installed_solvers()]
ORACLE_RTOL = 1e-12


def _holds(r, opt: float) -> bool:
    slack = ORACLE_RTOL * max(1.0, abs(opt))
    lo = min(r.primal_value, r.dual_value)
    up = max(r.primal_value, r.dual_value)
    if r.status is Status.ERROR or not r.status.has_solution:
        return True  # no bracket claimed
    return lo - slack <= opt <= up + slack


def _check(problem: cp.Problem, opt: float, solvers=SOLVERS) -> list:
    f = ck.from_cvxpy(problem, "planted")
    out = []
    for s in solvers:
        r = ck.solve(f, s)
        assert _holds(r, opt), (s, r.status, r.primal_value, r.dual_value, opt, r.message)
        if r.status is Status.OPTIMAL:
            assert r.rel_gap <= r.tol
        out.append(r)
    return out


def _lp(seed: int, m: int, n: int, scale: float):
    """min c'x s.t. Ax = b, x >= 0 with a planted nondegenerate vertex optimum (m basic
    variables, positive reduced costs elsewhere)."""
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(m, n)) * scale
    basic = rng.permutation(n)[:m]
    x = np.zeros(n)
    x[basic] = rng.random(m) + 0.1
    z = np.where(x > 0, 0.0, rng.random(n) + 0.1)
    yv = rng.normal(size=m)
    b = A @ x
    c = A.T @ yv + z
    xv = cp.Variable(n, name="x")
    prob = cp.Problem(cp.Minimize(c @ xv), [A @ xv == b, xv >= 0])
    return prob, math.fsum(c * x)


def _qp(seed: int, m: int, n: int, scale: float):
    """min 1/2 x'Px + c'x s.t. Gx <= h (some rows active), P = M'M possibly singular."""
    rng = np.random.default_rng(seed)
    M = rng.normal(size=(max(1, n - 1), n))
    P = M.T @ M
    G = rng.normal(size=(m, n)) * scale
    x = rng.normal(size=n)
    active = rng.random(m) < 0.5
    lam = np.where(active, rng.random(m) + 0.1, 0.0)
    h = G @ x + np.where(active, 0.0, rng.random(m) + 0.1)
    c = -(P @ x) - G.T @ lam
    xv = cp.Variable(n, name="x")
    prob = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(M @ xv) + c @ xv),
                      [G @ xv <= h])
    return prob, 0.5 * float(x @ P @ x) + math.fsum(c * x)


def _socp(seed: int, m: int, n: int, scale: float):
    """min c'x s.t. Ax = b, x in SOC, x_0 <= T (inactive), optimum on the cone's
    boundary.  The bound gives the box the generic certificate needs (a cone variable
    with a boundary dual and no bound is reported uncertified, docs/certificates.md)."""
    rng = np.random.default_rng(seed)
    u = rng.normal(size=n - 1)
    x = np.concatenate([[np.linalg.norm(u)], u])
    z = np.concatenate([[np.linalg.norm(u)], -u]) * (rng.random() + 0.5)
    A = rng.normal(size=(m, n)) * scale
    yv = rng.normal(size=m)
    b = A @ x
    c = A.T @ yv + z
    xv = cp.Variable(n, name="x")
    prob = cp.Problem(cp.Minimize(c @ xv), [A @ xv == b, cp.SOC(xv[0], xv[1:]),
                                            xv[0] <= 10 * (x[0] + 1)])
    return prob, math.fsum(c * x)


def _sdp(seed: int, m: int, k: int, scale: float):
    """min tr(CX) s.t. tr(A_i X) = b_i, X PSD, tr X <= T (inactive), with
    complementary X*, Z* of rank r."""
    rng = np.random.default_rng(seed)
    V, _ = np.linalg.qr(rng.normal(size=(k, k)))
    r = max(1, k // 2)
    X = V[:, :r] @ np.diag(rng.random(r) + 0.5) @ V[:, :r].T
    Z = V[:, r:] @ np.diag(rng.random(k - r) + 0.5) @ V[:, r:].T
    As = [(lambda B: (B + B.T) * scale)(rng.normal(size=(k, k))) for _ in range(m)]
    yv = rng.normal(size=m)
    C = sum(yi * Ai for yi, Ai in zip(yv, As)) + Z
    b = np.array([np.sum(Ai * X) for Ai in As])
    Xv = cp.Variable((k, k), symmetric=True, name="X")
    prob = cp.Problem(cp.Minimize(cp.trace(C @ Xv)),
                      [cp.trace(Ai @ Xv) == bi for Ai, bi in zip(As, b)]
                      + [Xv >> 0, cp.trace(Xv) <= 10 * (np.trace(X) + 1)])
    return prob, float(np.sum(C * X))


@SETTINGS
@given(seed=st.integers(0, 2**31 - 1), m=st.integers(1, 6), n=st.integers(2, 12),
       scale=st.sampled_from([1e-3, 1.0, 1e3]))
def test_planted_lp_bracket_holds(seed, m, n, scale):
    _check(*_lp(seed, min(m, n - 1) or 1, n, scale))


@SETTINGS
@given(seed=st.integers(0, 2**31 - 1), m=st.integers(1, 8), n=st.integers(2, 8),
       scale=st.sampled_from([1e-2, 1.0, 1e2]))
def test_planted_qp_bracket_holds(seed, m, n, scale):
    _check(*_qp(seed, m, n, scale))


@SETTINGS
@given(seed=st.integers(0, 2**31 - 1), m=st.integers(1, 3), n=st.integers(3, 8),
       scale=st.sampled_from([1e-2, 1.0, 1e2]))
def test_planted_socp_bracket_holds(seed, m, n, scale):
    _check(*_socp(seed, m, n, scale))


@settings(max_examples=max(3, EXAMPLES // 3), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), m=st.integers(1, 4), k=st.integers(2, 5),
       scale=st.sampled_from([1e-1, 1.0, 1e1]))
def test_planted_sdp_bracket_holds(seed, m, k, scale):
    _check(*_sdp(seed, m, k, scale), solvers=[s for s in SOLVERS if s != "ecos"])


def test_clarabel_certifies_each_cone_class_at_its_default_tol():
    """The examples' promise: Clarabel at its default tol is
    certified optimal on an LP, a QP, an SOCP and an SDP."""
    for build, args in ((_lp, (3, 3, 8, 1.0)), (_qp, (4, 5, 6, 1.0)),
                        (_socp, (5, 2, 6, 1.0)), (_sdp, (6, 2, 4, 1.0))):
        prob, opt = build(*args)
        r = ck.solve(ck.from_cvxpy(prob), "clarabel")
        assert r.status is Status.OPTIMAL, (build.__name__, r.message)
        assert _holds(r, opt)


@pytest.mark.parametrize("solver", SOLVERS)
def test_infeasible_and_unbounded_are_never_optimal(solver):
    x = cp.Variable(3, name="x")
    infeasible = cp.Problem(cp.Minimize(cp.sum(x)), [x >= 0, cp.sum(x) == -1])
    unbounded = cp.Problem(cp.Minimize(-cp.sum(x)), [x >= 0])
    for prob in (infeasible, unbounded):
        r = ck.solve(ck.from_cvxpy(prob), solver)
        assert r.status is not Status.OPTIMAL
        assert r.status is not Status.OPTIMAL_INACCURATE or not math.isfinite(r.gap)


def test_maximisation_and_constant_offset():
    """cvxpy minimises the negated objective with a constant term: both are undone."""
    x = cp.Variable(3, name="x")
    prob = cp.Problem(cp.Maximize(cp.sum(x) - cp.sum_squares(x) + 2.0),
                      [x >= 0, cp.sum(x) == 1])
    r = ck.solve(ck.from_cvxpy(prob), "clarabel")
    opt = 1.0 - 1.0 / 3.0 + 2.0  # x = 1/3 each
    assert r.status is Status.OPTIMAL and _holds(r, opt)
    assert r.primal_value <= opt + 1e-12 <= r.dual_value + 2e-12


@pytest.mark.parametrize("solver", ["CLARABEL", "SCS", "ECOS", "OSQP", "HIGHS"])
def test_the_objective_constant_is_read_as_cvxpy_applies_it(solver):
    """The offset read from cvxpy's objective tensor equals what ``apply_parameters``
    computes, for each solver's form (with and without a quadratic part); a problem with
    a parameter takes cvxpy's own route."""
    from convexkern.generic import conic_data

    x = cp.Variable(3)
    a = cp.Parameter(value=2.5)
    cases = [cp.Problem(cp.Minimize(cp.sum(x) + 5.25), [x >= 1]),
             cp.Problem(cp.Minimize(cp.sum_squares(x) - 3 * cp.sum(x) - 7.125), [x >= -1]),
             cp.Problem(cp.Maximize(-cp.sum(x) + 0.5), [x >= 1]),
             cp.Problem(cp.Minimize(cp.sum(x) + a * 3.0), [x >= 1])]
    for prob in cases:
        try:
            data, chain, _ = prob.get_problem_data(solver)
        except cp.error.SolverError:
            pytest.skip(f"{solver} is not installed")
        expected = float(np.asarray(data["param_prob"].apply_parameters()[1]).item())
        cd, reason = conic_data(data, chain.solver)
        assert reason == "" and cd.offset == expected

def test_user_solver_point_without_dual_is_honestly_uncertified():
    """Variable values alone give an upper bound (when they fill the conic form) and no
    lower one: never an optimum."""
    x = cp.Variable(2, name="x")
    prob = cp.Problem(cp.Minimize(cp.sum(x)), [x >= 1])
    f = ck.from_cvxpy(prob)
    cert = f.certificate({"x": np.array([1.0, 1.0])})
    assert cert.upper == pytest.approx(2.0, abs=1e-12) and cert.upper >= 2.0
    assert cert.lower == -math.inf and "no certified lower bound" in cert.note


def test_point_names_missing_from_the_point_are_read_from_the_solved_problem():
    a = cp.Variable(2, name="a")
    b = cp.Variable(name="b")
    prob = cp.Problem(cp.Minimize(cp.sum(a) + b), [a >= 0, b >= 1])
    f = ck.from_cvxpy(prob)
    prob.solve(solver="CLARABEL")
    cert = f.certificate({"a": np.zeros(2)})  # b from the solve
    assert cert.upper >= 1.0 and math.isfinite(cert.upper)


def test_from_cvxpy_refuses_bad_input():
    x = cp.Variable(name="x")
    with pytest.raises(ck.InvalidTypeError, match="problem"):
        ck.from_cvxpy("not a problem")
    with pytest.raises(ck.InvalidInputError, match="DCP"):
        ck.from_cvxpy(cp.Problem(cp.Maximize(cp.square(x))))
    y = cp.Variable(name="x")
    with pytest.raises(ck.InvalidInputError, match="named 'x'"):
        ck.from_cvxpy(cp.Problem(cp.Minimize(x + y), [x >= 0, y >= 0]))


#: a singular PSD matrix with entries from 2^-22 to 2^21 (a review's case): cvxpy's
#: numerical PSD check of quad_form (ARPACK's shift-invert) failed inside SciPy on it
_BADLY_SCALED_P = np.array(
    [[4096.0, -98304.0, -0.03125, 24.0, 65536.0, -32.0, 0.0, -16.0, 65536.0],
     [-98304.0, 2359296.0, 0.75, -576.0, -1572864.0, 768.0, 0.0, 384.0, -1572864.0],
     [-0.03125, 0.75, 2.384185791015625e-07, -0.00018310546875, -0.5, 0.000244140625, 0.0,
      0.0001220703125, -0.5],
     [24.0, -576.0, -0.00018310546875, 0.140625, 384.0, -0.1875, 0.0, -0.09375, 384.0],
     [65536.0, -1572864.0, -0.5, 384.0, 1048576.0, -512.0, 0.0, -256.0, 1048576.0],
     [-32.0, 768.0, 0.000244140625, -0.1875, -512.0, 0.25, 0.0, 0.125, -512.0],
     [0.0] * 9,
     [-16.0, 384.0, 0.0001220703125, -0.09375, -256.0, 0.125, 0.0, 0.0625, -256.0],
     [65536.0, -1572864.0, -0.5, 384.0, 1048576.0, -512.0, 0.0, -256.0, 1048576.0]])


def test_a_failing_dcp_check_is_named(monkeypatch):
    # whatever SciPy raises inside cvxpy's DCP check reaches the caller as the library's
    # error naming the problem, with the way around it (on any machine: the check patched)
    x = cp.Variable(2, name="x")
    problem = cp.Problem(cp.Minimize(cp.quad_form(x, np.eye(2))), [x >= 1])

    def fails() -> bool:
        raise ValueError("array must not contain infs or NaNs")
    monkeypatch.setattr(problem, "is_dcp", fails)
    with pytest.raises(ck.InvalidInputError, match=r"problem.*DCP check failed") as err:
        ck.from_cvxpy(problem)
    assert isinstance(err.value.__cause__, ValueError)
    # the matrix it failed on: a clean answer either way (the check's arithmetic is the
    # machine's), and psd_wrap takes the same problem
    x = cp.Variable(9, name="x")
    try:
        ck.from_cvxpy(cp.Problem(cp.Minimize(cp.quad_form(x, _BADLY_SCALED_P)), [x >= 1]))
    except ck.InvalidInputError as exc:
        assert "problem" in str(exc)
    f = ck.from_cvxpy(cp.Problem(cp.Minimize(cp.quad_form(x, cp.psd_wrap(_BADLY_SCALED_P))),
                                 [x >= 1]))
    assert f.sense == "minimize"
    # a matrix cvxpy's check calls neither PSD nor NSD: the refusal points to psd_wrap
    # (an indefinite matrix is refused as well; the hint says what to do if it is not)
    bad = cp.Problem(cp.Minimize(cp.quad_form(x[:2], np.diag([1.0, -1.0]))))
    with pytest.raises(ck.InvalidInputError, match=r"not DCP.*psd_wrap"):
        ck.from_cvxpy(bad)
    # no hint where the quad_form is not the trouble (a convex one maximised, a wrapped
    # one): psd_wrap would change nothing there
    for other in (cp.Problem(cp.Maximize(cp.quad_form(x[:2], np.eye(2)))),
                  cp.Problem(cp.Minimize(cp.quad_form(x[:2], cp.psd_wrap(np.eye(2)))
                                         - cp.sum_squares(x[:2])))):
        with pytest.raises(ck.InvalidInputError, match="not DCP") as err:
            ck.from_cvxpy(other)
        assert "psd_wrap" not in str(err.value)


def test_an_inverted_bracket_is_refused():
    x = cp.Variable(name="x")
    prob = cp.Problem(cp.Minimize(x), [x >= 1])

    def wrong(f, point):  # "upper" below "lower": a certificate bug
        return Certificate(primal_value=0.5, dual_value=1.0, sense="minimize",
                           point=point)

    f = ck.Formulation(name="wrong", problem=prob, variables={"x": x}, parameters={},
                       source="", kind="wrong", data={}, certify=wrong)
    r = ck.solve(f, "clarabel")
    assert r.status is Status.ERROR and "refused" in r.message


def _yardstick(name, usps35_small):
    """Small real instances of the five papers' builders (hand-certified)."""
    from convexkern import transforms
    from convexkern.data import load_usps
    from convexkern.formulations import krein, lp_svm, robust_indefinite, sdpm, svm

    X, y, K = usps35_small
    if name == "svm.dual":
        return svm.dual(K[:60, :60], y[:60], C=1.0)
    if name == "svm.primal":
        return svm.primal(X[:40], y[:40], C=1.0)
    if name == "lp_svm.lp":
        return lp_svm.lp_from_data(X[:20, :30], y[:20], C_M=1.0)
    if name == "krein.stabilization":
        Ki = K[:50, :50] - 0.3 * np.eye(50)
        return krein.stabilization(Ki, y[:50], C=1.0)
    if name == "robust_indefinite.dual":
        Ki = K[:12, :12] - 0.2 * np.eye(12)
        return robust_indefinite.dual(Ki, y[:12], C=1.0, rho=1.0)
    ds = load_usps("train")
    sel = np.concatenate([np.flatnonzero(ds.y == 1)[:6], np.flatnonzero(ds.y == 9)[:6]])
    Xt = transforms.rotation_trajectories(ds.X[sel])
    yt = np.where(ds.y[sel] == 1, 1.0, -1.0)
    return sdpm.primal(Xt, yt, math.radians(20), 0.005)


YARDSTICK = ["svm.dual", "svm.primal", "lp_svm.lp", "krein.stabilization",
             "robust_indefinite.dual", "sdpm.primal"]


@pytest.mark.parametrize("name", YARDSTICK)
def test_generic_bracket_meets_the_hand_certificates(name, usps35_small):
    """The five papers as the yardstick: on small real instances the generic bracket and
    the hand-written one (both rigorous) must intersect, for every conic solver; the
    generic one is finite where the solver's answer is accurate (docs/certificates.md
    tabulates both gaps)."""
    hand = _yardstick(name, usps35_small)
    gen = replace(hand, certify=None)
    ref = ck.solve(hand, "clarabel", tol=1e-9)
    assert ref.status.has_solution, ref.message
    r_lo, r_up = sorted((ref.primal_value, ref.dual_value))
    for s in [s for s in ck.available_solvers(gen) if s in SOLVERS]:
        r = ck.solve(gen, s)
        if not r.status.has_solution:
            continue
        lo, up = sorted((r.primal_value, r.dual_value))
        assert lo <= r_up and r_lo <= up, (name, s, (lo, up), (r_lo, r_up), r.message)
        if s == "clarabel":
            assert math.isfinite(r.gap), (name, r.message)


@pytest.mark.parametrize("build, arg, words", [
    (lambda: cp.Problem(cp.Minimize(0)), "problem", "has no variables"),
    (lambda: cp.Problem(cp.Minimize(cp.sum(cp.Variable(2, integer=True, name="k"))),
                        [cp.Variable(2, integer=True, name="k") >= 0]), "problem",
     "integer or boolean"),
    (lambda: cp.Problem(cp.Minimize(cp.Variable(boolean=True, name="z"))), "problem",
     "integer or boolean"),
])
def test_what_is_not_a_continuous_conic_problem_is_refused(build, arg, words):
    with pytest.raises(ck.InvalidInputError, match=f"^{arg}: .*{words}"):
        ck.from_cvxpy(build(), "bad")


@pytest.mark.parametrize("kwargs, arg", [({"parameters": "abc"}, "parameters"),
                                         ({"data": 5}, "data")])
def test_bad_from_cvxpy_arguments_are_named(kwargs, arg):
    x = cp.Variable(2, name="x")
    with pytest.raises(ck.InvalidTypeError, match=f"^{arg}: "):
        ck.from_cvxpy(cp.Problem(cp.Minimize(cp.sum(x)), [x >= 0]), "p", **kwargs)


def test_messages_name_the_users_variables_and_constraints():
    """A conic column or row is named as the user wrote it: ``variable 'X'[1, 0]`` (entries
    in cvxpy's column-major order), ``constraint 1 (...)``, or an auxiliary of cvxpy's
    canonical form."""
    from convexkern.generic import conic_names

    X = cp.Variable((2, 2), name="X")
    b = cp.Variable(name="b")
    cons = [X >= -1, cp.sum(X) + b == 1]
    problem = cp.Problem(cp.Minimize(cp.sum(cp.abs(X)) + b), cons)
    data, _, inverse = problem.get_problem_data("CLARABEL")
    names = conic_names(problem, inverse)
    stuffing = next(d for d in reversed(inverse) if hasattr(d, "var_offsets"))
    x0 = stuffing.var_offsets[X.id]
    assert names.column(x0 + 1) == "variable 'X'[1, 0]"
    assert names.column(stuffing.var_offsets[b.id]) == "variable 'b'"
    aux = [j for j in range(data["c"].size)
           if "auxiliary" in names.column(j)]
    assert aux  # |X| needs cvxpy's epigraph variables
    labels = {names.row(i).split(" (")[0] for i in range(data["A"].shape[0])}
    assert {"constraint 0", "constraint 1"} <= {lab.split("[")[0] for lab in labels}
    assert names.rename("conic variable 3 carries") == f"{names.column(3)} carries"


def test_a_tiny_optimum_is_judged_against_its_own_size():
    """``min 1e-12 sum(x) s.t. x >= 1`` has the optimum 3e-12: below 1e-9 the gap is taken
    relative to the objective's terms at the point (3e-12 here), never as an absolute
    number that any bracket of width < tol meets; whoever is called optimal has a bracket
    within tol of 3e-12 relative, and holds it."""
    x = cp.Variable(3, name="x")
    f = ck.from_cvxpy(cp.Problem(cp.Minimize(1e-12 * cp.sum(x)), [x >= 1]), "tiny")
    for solver in SOLVERS:
        r = ck.solve(f, solver)
        lo, up = sorted((r.primal_value, r.dual_value))
        assert lo <= 3e-12 * (1 + 1e-12) and up >= 3e-12 * (1 - 1e-12), (solver, lo, up)
        if r.status is ck.Status.OPTIMAL:
            assert up - lo <= r.tol * 3e-12 * 1.01, (solver, up - lo, r.tol)


def test_singular_psd_quadratic_is_decided_exactly():
    """A singular PSD ``P`` with integer-like entries is PSD in exact arithmetic (no
    floating-point test can say so without a margin); an ulp less on one diagonal entry
    makes it indefinite, and the exact test says so."""
    from convexkern.math.conic.boxes import _exactly_psd

    D = np.diff(np.eye(5), axis=0)                     # (x_i - x_{i+1})^2 summed
    P = D.T @ D
    assert _exactly_psd(P)
    Q = P.copy()
    Q[0, 0] = np.nextafter(Q[0, 0], 0.0)               # now x = 1 gives x'Qx < 0
    assert not _exactly_psd(Q)
    assert _exactly_psd(np.zeros((3, 3)))
    assert not _exactly_psd(np.array([[0.0, 1.0], [1.0, 0.0]]))


def test_an_optimum_its_terms_cancel_to_zero_is_judged_against_the_terms():
    """``min (x - y)^2 s.t. x + y = 1, x, y >= 0`` (Maros-Meszaros TAME) has the optimum 0,
    reached by cancelling terms of size 1/2: a bracket of width 5e-8 is a relative gap of
    about 1e-7 against them (not 1 against its own size), and a bracket as wide as the
    terms is not optimal."""
    from convexkern.report import relative_gap

    assert relative_gap(4e-16, -5e-8, scale=0.5) == pytest.approx(1e-7)
    assert relative_gap(4e-16, -5e-8) == pytest.approx(1.0)          # no scale known
    assert relative_gap(0.3, -0.2, scale=0.5) == pytest.approx(5 / 3)  # no cancellation
    assert relative_gap(2.0, 1.0, scale=1e6) == pytest.approx(0.5)     # |f| >= 1e-6 scale
    v = cp.Variable(2, name="v")  # the quadratic on v itself, as the TAME file writes it
    Q = np.array([[1.0, -1.0], [-1.0, 1.0]])
    f = ck.from_cvxpy(cp.Problem(cp.Minimize(cp.quad_form(v, Q)), [cp.sum(v) == 1, v >= 0]))
    for solver in ("clarabel", "scs"):
        r = ck.solve(f, solver)
        assert r.status is Status.OPTIMAL, (solver, r.message)
        assert r.dual_value <= 0.0 <= r.primal_value


@pytest.mark.parametrize("solver", ["ecos", "qoco"])
def test_a_cancelled_optimum_written_as_a_cone_is_judged_against_the_cone_terms(solver):
    """ECOS gets TAME's quadratic as a second-order cone: the conic objective is an
    epigraph variable near 0, and the terms that cancel are the cone's constants times
    their multipliers (size 1/2).  Against those (the dual objective's terms) its bracket
    of width 7.5e-13 is optimal; against the objective's own terms alone it was a relative
    gap of 1.2.  QOCO takes the quadratic as ``P`` (the objective's terms): the same
    verdict either way."""
    if solver not in ck.installed_solvers():
        pytest.skip(f"{solver} is not installed")
    v = cp.Variable(2, name="v")
    Q = np.array([[1.0, -1.0], [-1.0, 1.0]])
    f = ck.from_cvxpy(cp.Problem(cp.Minimize(cp.quad_form(v, Q)), [cp.sum(v) == 1, v >= 0]))
    r = ck.solve(f, solver)
    assert r.status is Status.OPTIMAL, (solver, r.message)
    assert r.dual_value <= 0.0 <= r.primal_value
    assert r.primal_value - r.dual_value <= r.tol  # the terms are 1/2: width <= tol / 2
