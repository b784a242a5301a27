"""Soft/hard-margin SVM formulations (Mansour's notes §11.2): known answers, cross-solver
agreement on real data, certificate validity, statuses and bad input."""

from __future__ import annotations

import json
import math

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.svm import SVC

import convexkern as ck
from convexkern.formulations import svm
from convexkern.math import svm as svm_math
from convexkern.projections import project_svm_feasible
from tests.conftest import SOLVER_RTOL, conic_solvers_for

XOR_X = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
XOR_Y = np.array([1.0, 1.0, -1.0, -1.0])


def xor_kernel():
    return (1.0 + XOR_X @ XOR_X.T) ** 2


# ------------------------------------------------------------------ known answers
@pytest.mark.parametrize("solver", ["clarabel", "scs", "smo", "ecos", "osqp", "highs"])
def test_xor_degree2_kernel_known_answer(solver):
    """Lecture notes' XOR example: with k(x,z) = (1 + x'z)^2 every point is a support
    vector with alpha_i = 1/8, the dual optimum is 1/4 and f(x) = x1 x2 (b = 0)."""
    f = svm.dual(xor_kernel(), XOR_Y, C=None)
    if solver not in ck.available_solvers(f):
        pytest.skip(f"{solver} not installed")
    r = ck.solve(f, solver)
    assert r.status is ck.Status.OPTIMAL, r.message
    rtol = SOLVER_RTOL[solver]
    np.testing.assert_allclose(r.x["alpha"], 0.125, rtol=10 * rtol, atol=1e-7)
    assert r.primal_value == pytest.approx(0.25, rel=rtol)
    assert r.dual_value == pytest.approx(0.25, rel=rtol)
    # decision function at new points equals x1 * x2
    Z = np.array([[0.5, 2.0], [-1.5, 0.3], [2.0, 2.0]])
    Kz = (1.0 + Z @ XOR_X.T) ** 2
    fz = svm.decision_function(Kz, XOR_Y, r.x["alpha"], float(r.x["b"]))
    np.testing.assert_allclose(fz, Z[:, 0] * Z[:, 1], atol=1e-5)


def _two_point_data():
    # Closest pair (1,0)+ and (-1,0)-; the other points lie beyond the margin |x1| >= 1.
    X = np.array([[1.0, 0.0], [-1.0, 0.0], [3.0, 1.0], [-2.0, -4.0], [2.5, -3.0]])
    y = np.array([1.0, -1.0, 1.0, -1.0, 1.0])
    return X, y


def test_separable_toy_hard_margin_closed_form():
    """Max-margin separator of the toy set is w = (1, 0), b = 0: margin 1 = half the
    distance between the closest opposite points, optimum 1/2 ||w||^2 = 1/2."""
    X, y = _two_point_data()
    for f in (svm.dual(X @ X.T, y, C=None), svm.primal(X, y, C=None)):
        r = ck.solve(f, "clarabel")
        assert r.ok
        assert r.primal_value == pytest.approx(0.5, rel=1e-7)
    r = ck.solve(svm.primal(X, y, C=None), "clarabel")
    np.testing.assert_allclose(r.x["w"], [1.0, 0.0], atol=1e-6)
    assert float(r.x["b"]) == pytest.approx(0.0, abs=1e-6)
    r = ck.solve(svm.dual(X @ X.T, y, C=None), "smo")
    np.testing.assert_allclose(r.x["alpha"], [0.5, 0.5, 0, 0, 0], atol=1e-6)


@pytest.mark.parametrize("C", [0.05, 0.2, 0.45])
def test_soft_margin_small_C_closed_form(C):
    """With C < 1/2 both closest points sit at the bound: alpha = (C, C), and since
    G restricted to them is all ones, D = 2C - 2C^2."""
    X, y = _two_point_data()
    X, y = X[:2], y[:2]
    for solver in ("clarabel", "smo"):
        r = ck.solve(svm.dual(X @ X.T, y, C=C), solver)
        assert r.ok
        assert r.primal_value == pytest.approx(2 * C - 2 * C**2, rel=1e-7)
        np.testing.assert_allclose(r.x["alpha"], [C, C], atol=1e-8)


# ------------------------------------------------------------------ real data
@pytest.mark.parametrize("dataset", ["usps35_small", "pima_small"])
def test_all_solvers_agree_on_real_data(dataset, request):
    X, y, K = request.getfixturevalue(dataset)
    f = svm.dual(K, y, C=1.0)
    ref = ck.solve(f, "clarabel", tol=1e-9)
    assert ref.ok
    names = conic_solvers_for(f)
    assert {"clarabel", "scs", "smo"} <= set(names)
    table = ck.compare(f, solvers=names)
    for r in table:
        # every default tol is one its solver reaches on an easy real problem
        assert r.status is ck.Status.OPTIMAL, (r.solver, r.rel_gap, r.message)
        assert r.primal_value == pytest.approx(ref.primal_value, rel=SOLVER_RTOL[r.solver])
        # certified bounds from every solver bracket the reference optimum
        assert r.primal_value <= ref.dual_value + 1e-9 * abs(ref.dual_value)
        assert r.dual_value >= ref.primal_value - 1e-9 * abs(ref.primal_value)


def test_smo_and_conic_match_libsvm_on_usps(usps35_small):
    """Same dual objective as scikit-learn's SVC(kernel="precomputed") to 1e-6 relative,
    and the reported bias (the certified primal point's, svm.primal_bias) equals LIBSVM's
    intercept to the solvers' accuracy."""
    _, y, K = usps35_small
    C = 2.0
    sk = SVC(kernel="precomputed", C=C, tol=1e-10).fit(K, y)  # intercept to ~1e-10
    alpha_sk = np.zeros(y.size)
    alpha_sk[sk.support_] = np.abs(sk.dual_coef_[0])
    d_sk = svm.dual_objective(K, y, alpha_sk)
    f = svm.dual(K, y, C=C)
    for solver in ("smo", "clarabel"):
        r = ck.solve(f, solver)
        assert r.ok
        assert r.primal_value == pytest.approx(d_sk, rel=1e-6)
        # sklearn's decision function is K @ (dual_coef) + intercept with its own sign.
        # Tolerance 1e-6: SMO's final KKT violation eps (1e-6 at tol=1e-6) bounds the
        # spread of y_i - f_i over free vectors, hence the bias error; Clarabel is run to
        # 1e-9 (tol/10) and is at least as accurate.  Measured: 3e-9 (SMO), 2e-8 (Clarabel).
        b = float(r.x["b"])
        assert b == pytest.approx(float(sk.intercept_[0]), abs=1e-6)


def test_primal_and_dual_agree_linear_kernel(pima_small):
    X, y, _ = pima_small
    fp = svm.primal(X, y, C=0.5)
    fd = svm.dual(X @ X.T, y, C=0.5)
    rp = ck.solve(fp, "clarabel")
    rd = ck.solve(fd, "clarabel")
    assert rp.ok and rd.ok
    assert rp.primal_value == pytest.approx(rd.primal_value, rel=1e-7)
    # w recovered from the dual equals the primal w
    w_from_dual = X.T @ (y * rd.x["alpha"])
    np.testing.assert_allclose(rp.x["w"], w_from_dual, atol=1e-4 * np.abs(w_from_dual).max())
    assert fp.dual().name == "svm.dual"
    rs = ck.solve(fp, "smo")
    assert rs.ok and rs.primal_value == pytest.approx(rp.primal_value, rel=1e-6)


# ------------------------------------------------------------------ certificate
def test_certificate_brackets_optimum_for_poor_points(pima_small):
    _, y, K = pima_small
    f = svm.dual(K, y, C=1.0)
    opt = ck.solve(f, "clarabel", tol=1e-9).primal_value
    rng = np.random.default_rng(3)
    for _ in range(20):
        a = project_svm_feasible(rng.uniform(0, 1, y.size), y, 1.0)
        cert = svm.certificate(K, y, a, 1.0)
        assert cert.lower <= opt * (1 + 1e-9)
        assert cert.upper >= opt * (1 - 1e-9)
        assert cert.gap > 0


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(4, 16),
    seed=st.integers(0, 10_000),
    C=st.floats(0.01, 100.0),
    gamma=st.floats(0.05, 5.0),
)
def test_certificate_lower_never_exceeds_upper(n, seed, C, gamma):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    K = np.exp(-gamma * ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    a = project_svm_feasible(rng.uniform(-0.5, 1.5, n) * C, y, C)
    cert = svm.certificate(K, y, a, C)
    # The bounds recomputed here from their definitions, without the certificate's
    # round-off clamp: D = e'a - q/2 and P = q/2 + C min_b sum hinge (brute force over
    # the kinks b = y_i - f_i, where a piecewise-linear convex function attains its min).
    a = cert.point["alpha"]
    fv = K @ (y * a)
    q = float((y * a) @ fv)
    hinge = np.maximum(0.0, 1.0 - y[None, :] * (fv[None, :] + (y - fv)[:, None])).sum(1)
    lower, upper = a.sum() - 0.5 * q, 0.5 * q + C * hinge.min()
    # the hard-margin bound q / (2 gamma^2), gamma the largest margin of w(a) over biases,
    # bounds every C when gamma > 0 (the soft optimum is at most the hard one)
    gamma = 0.5 * (fv[y > 0].min() - fv[y < 0].max())
    if gamma > 0:
        upper = min(upper, max(0.5 * q / gamma**2, lower))
    scale = max(1.0, a.sum(), q, abs(upper))
    assert lower <= upper + 1e-12 * scale
    assert cert.lower == pytest.approx(lower, rel=1e-12, abs=1e-12)
    assert cert.upper == pytest.approx(upper, rel=1e-12, abs=1e-12)
    assert "bound_inversion" not in cert.residuals
    # and both sandwich the true optimum (Clarabel, accuracy ~1e-9 relative)
    opt = ck.solve(svm.dual(K, y, C, psd_check=False), "clarabel", tol=1e-9).primal_value
    slack = 1e-7 * max(1.0, abs(opt))
    assert cert.lower <= opt + slack and opt <= cert.upper + slack


def test_psd_eps_is_zero_when_plain_cholesky_accepts_the_kernel():
    """An RBF Gram matrix of well-separated points is positive definite: a Cholesky
    without jitter succeeds, so check_psd proves eps = 0 and no slack is added."""
    X = np.arange(8.0)[:, None] * 2.0
    y = np.array([1.0, -1.0] * 4)
    K = ck.kernels.RBF(gamma=0.5)(X)
    np.linalg.cholesky(K)  # the precondition: plain Cholesky accepts K
    assert svm.check_psd(K) == 0.0
    f = svm.dual(K, y, C=1.0)
    assert f.data["psd_eps"] == 0.0
    r = ck.solve(f, "clarabel", tol=1e-9)
    assert r.ok and "psd_slack" not in r.residuals


def test_psd_slack_makes_the_upper_bound_valid_for_a_nearly_psd_kernel():
    """K = [[1, 1], [1, 1]] - d v v' with v = (1, -1)/sqrt 2 and d = 1e-9: lambda_min = -d,
    accepted by the PSD check (d <= 1e-8 max K_ii) with a proven eps in (d, 1e-8].  With
    y = (1, -1) the feasible set is alpha = (t, t), t in [0, C], and G's quadratic form is
    t^2 (1, -1) K (1, -1)' = -2 d t^2, so D(t) = 2 t + d t^2 and OPT = 2 C + d C^2 (by
    hand).  At t = C/4: f = K Y alpha = (-d t, d t), the hinge minimum is 2 + 2 d t and
    the PSD formula P = C (2 + 2 d t) = 2 C + d C^2 / 2 is below OPT; the slack
    eps/2 (||alpha||^2 + 2 C^2) restores the bracket."""
    d, C = 1e-9, 1.0
    v = np.array([1.0, -1.0]) / np.sqrt(2.0)
    K = np.ones((2, 2)) - d * np.outer(v, v)
    y = np.array([1.0, -1.0])
    opt = 2 * C + d * C**2
    f = svm.dual(K, y, C)
    eps = f.data["psd_eps"]
    assert d <= eps <= svm.PSD_TOL * K.diagonal().max()
    a = np.full(2, C / 4)
    plain = svm.certificate(K, y, a, C)  # takes K as exactly PSD
    assert plain.upper < opt - 0.4 * d * C**2  # invalid by d C^2 / 2 (round-off 1e-16)
    cert = f.certificate({"alpha": a})
    slack = cert.residuals["psd_slack"]
    assert slack == pytest.approx(0.5 * eps * (a @ a + 2 * C**2), rel=1e-12)
    assert cert.upper == pytest.approx(plain.upper + slack, rel=1e-15)
    assert cert.lower <= opt <= cert.upper
    for t in (0.0, 0.3, 0.9, 1.0):  # every feasible point's bracket contains OPT
        c = f.certificate({"alpha": np.full(2, t * C)})
        assert c.lower <= opt <= c.upper, t


def test_certificate_reports_an_inverted_pair_instead_of_clamping(monkeypatch):
    """P(alpha) >= D(alpha) holds identically for feasible alpha and both bounds carry
    their rounding errors, so an upper bound below the lower one is a fault: it is
    reported, not clamped away.  The fault is injected by a hinge bound that returns 0
    (the private routine that evaluates the hinge sum at the certified bias)."""
    K = xor_kernel()
    a = np.full(4, 0.05)
    calls = []
    real = svm_math._hinge_min
    monkeypatch.setattr(svm_math, "_hinge_min",
                        lambda f, y, c=None: calls.append(1) or real(f, y, c))
    honest = svm.certificate(K, XOR_Y, a, 1.0)
    assert honest.lower <= honest.upper and not honest.note
    assert len(calls) == 1  # one minimisation per certificate, for the bound and the bias
    assert float(honest.point["b"]) == svm.primal_bias(K @ (XOR_Y * a), XOR_Y, 1.0)
    monkeypatch.setattr(svm_math._Rounding, "hinge_up", lambda self, f, y, b, c: 0.0)
    cert = svm.certificate(K, XOR_Y, a, 1.0)
    q = float((XOR_Y * a) @ K @ (XOR_Y * a))
    assert cert.upper == pytest.approx(0.5 * q) and cert.upper < cert.lower
    assert cert.residuals["bound_inversion"] == pytest.approx(cert.lower - cert.upper)
    assert "not valid" in cert.note


def test_hard_margin_certificate_without_margin_is_infinite():
    X = np.array([[0.0], [1.0], [2.0]])
    y = np.array([1.0, -1.0, 1.0])  # not linearly separable in 1-d
    cert = svm.certificate(X @ X.T, y, np.array([0.5, 1.0, 0.5]), None)
    assert math.isinf(cert.upper)
    assert "margin" in cert.note


def test_best_hinge_bias_matches_brute_force():
    rng = np.random.default_rng(7)
    f = rng.normal(size=40)
    y = np.where(rng.uniform(size=40) > 0.4, 1.0, -1.0)
    b, val = svm.best_hinge_bias(f, y)
    grid = np.linspace(-6, 6, 120_001)
    vals = np.maximum(0, 1 - y[None, :] * (f[None, :] + grid[:, None])).sum(1)
    assert val == pytest.approx(vals.min(), abs=1e-3)
    assert val <= vals.min() + 1e-12
    assert np.maximum(0, 1 - y * (f + b)).sum() == pytest.approx(val, abs=1e-12)


def test_primal_bias_minimises_the_hinge_and_centres_ties():
    rng = np.random.default_rng(11)
    f = rng.normal(size=30)
    y = np.where(rng.uniform(size=30) > 0.5, 1.0, -1.0)
    b = svm.primal_bias(f, y, 1.0)
    grid = np.linspace(-6, 6, 120_001)
    vals = np.maximum(0, 1 - y[None, :] * (f[None, :] + grid[:, None])).sum(1)
    assert np.maximum(0, 1 - y * (f + b)).sum() <= vals.min() + 1e-12
    # (0.5 - b)_+ + (b + 1)_+ is 1.5 on all of [-1, 0.5]: the midpoint -0.25
    assert svm.primal_bias(np.array([0.5, 0.0]), np.array([1.0, -1.0]), 1.0) == -0.25
    # hard margin: the largest-margin bias, -(min_pos f + max_neg f) / 2
    assert svm.primal_bias(np.array([3.0, 1.0, -2.0]), np.array([1.0, 1.0, -1.0]), None) \
        == pytest.approx(0.5)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 25), seed=st.integers(0, 10_000), C=st.one_of(st.just(math.inf),
                                                                    st.floats(0.1, 10)))
def test_projection_matches_qp(n, seed, C):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    v = rng.normal(scale=3.0, size=n)
    a = project_svm_feasible(v, y, C)
    assert abs(y @ a) <= 1e-9 * max(1.0, np.abs(v).sum())
    assert a.min() >= 0 and (math.isinf(C) or a.max() <= C)
    x = cp.Variable(n)
    cons = [y @ x == 0, x >= 0] + ([] if math.isinf(C) else [x <= C])
    cp.Problem(cp.Minimize(cp.sum_squares(x - v)), cons).solve(solver="CLARABEL")
    assert np.sum((a - v) ** 2) <= np.sum((x.value - v) ** 2) + 1e-7


# ------------------------------------------------------------------ statuses
def test_hard_margin_non_separable_is_unbounded():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([1.0, -1.0, 1.0, -1.0])
    f = svm.dual(X @ X.T + 1.0, y, C=None)
    for solver in ("clarabel", "scs", "smo"):
        r = ck.solve(f, solver)
        assert r.status is ck.Status.UNBOUNDED, (solver, r.status)
        assert not r.ok and r.primal_value == math.inf
    for solver in ("clarabel", "smo"):
        # the primal (a minimisation) of the same data is infeasible, whoever solves it
        # (SMO used to call it unbounded, with primal_value = +inf for a minimisation)
        r = ck.solve(svm.primal(X, y, C=None), solver)
        assert r.status is ck.Status.INFEASIBLE, (solver, r.status, r.message)
        assert not r.ok and math.isnan(r.primal_value)


def test_smo_without_max_iter_has_a_budget(monkeypatch):
    """max_iter=None means LIBSVM's cap max(1e7, 100 n), not an endless run: with the cap
    made small, a run that needs more stops at iteration_limit and says why."""
    import convexkern.algorithms.smo as adapter

    assert adapter.default_max_iter(10) == 10_000_000
    assert adapter.default_max_iter(200_000) == 20_000_000
    monkeypatch.setattr(adapter, "default_max_iter", lambda n: 5)
    rng = np.random.default_rng(3)
    X = rng.standard_normal((60, 2))
    y = np.where(X[:, 0] + 0.5 * rng.standard_normal(60) > 0, 1.0, -1.0)
    f = svm.dual(ck.kernels.RBF(gamma=0.5)(X), y, C=10.0)
    r = ck.solve(f, "smo")
    assert r.status is ck.Status.ITERATION_LIMIT and r.iterations <= 5, (r.status, r)
    assert "default budget of 5 steps" in r.message
    ref = ck.solve(f, "clarabel", tol=1e-10)
    assert r.primal_value <= ref.dual_value and r.dual_value >= ref.primal_value


def _round_off_indefinite_rbf():
    """A valid RBF kernel (56 one-dimensional points, gamma = 1.72) whose computed
    spectrum has lambda_min ~ -3e-15 from round-off (found by an audit's fuzzing)."""
    rng = np.random.default_rng(29)
    n, d = int(rng.integers(5, 60)), int(rng.integers(1, 6))
    X = rng.standard_normal((n, d))
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    y[0], y[1] = 1.0, -1.0
    gamma = float(rng.uniform(0.1, 3))
    return ck.kernels.RBF(gamma=gamma)(X), y


@pytest.mark.filterwarnings("ignore:Forming a nonconvex expression")
def test_round_off_negative_eigenvalue_is_a_status_not_a_crash():
    """ECOS needs quad_form as a second-order cone and cvxpy refuses a matrix with a
    round-off negative eigenvalue (a raw ValueError); the report says so by status."""
    K, y = _round_off_indefinite_rbf()
    assert K.shape == (56, 56) and np.linalg.eigvalsh(K)[0] < 0  # the instance in question
    f = svm.dual(K, y, C=1.0)  # accepted: the PSD check allows round-off
    ref = ck.solve(f, "clarabel", tol=1e-9)
    assert ref.status is ck.Status.OPTIMAL
    table = ck.compare(f)  # every applicable solver, ECOS included when installed
    solvers = {r.solver for r in table}
    assert solvers == set(ck.available_solvers(f)) and {"smo", "clarabel"} <= solvers
    for r in table:
        if r.solver == "ecos":  # the one solver whose canonicalisation refuses K
            assert r.status is ck.Status.ERROR, (r.status, r.message)
            assert r.message.startswith("ecos failed (ValueError)"), r.message
            assert "indefinite" in r.message and math.isnan(r.primal_value)
        else:  # every other solver is certified optimal
            assert r.status is ck.Status.OPTIMAL and r.ok, (r.solver, r.status, r.message)
            assert r.primal_value <= ref.dual_value + 1e-9 * abs(ref.dual_value)


def test_solver_side_exception_becomes_error_report(monkeypatch):
    f = svm.dual(xor_kernel(), XOR_Y, C=1.0)
    for exc in (ValueError("bad canonicalisation"), ArithmeticError("overflow"),
                cp.error.SolverError("crashed")):
        def boom(*args, _exc=exc, **kwargs):
            raise _exc

        monkeypatch.setattr(f.problem, "get_problem_data", boom)
        r = ck.solve(f, "clarabel")
        assert r.status is ck.Status.ERROR and not r.ok
        assert r.message.startswith("clarabel failed") and str(exc) in r.message


def test_smo_hard_margin_detects_non_separable_data_quickly():
    """Three flipped labels make 20 points inseparable by a linear kernel: SMO's alpha
    grows without bound.  After 10_000 + 100 n iterations an LP separability check stops
    it (it used to run 10^7 iterations, minutes, to iteration_limit).  On ``X`` itself
    (``svm.primal``) a Farkas ray holds exactly: infeasible, proven.  On the stored
    ``X X'`` (rank 3 only to rounding) no ray holds exactly, so neither SMO nor a conic
    solver's "unbounded" is reported as true: the data are within rounding of
    inseparable ones, and the report says so."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((20, 3))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    y[:3] *= -1
    p = svm.primal(X, y, C=None)
    r = ck.solve(p, "smo")
    assert r.status is ck.Status.INFEASIBLE, (r.status, r.message)
    assert "rational arithmetic" in r.message and "soft margin" in r.message
    assert r.iterations <= 10_000 + 100 * 20
    f = svm.dual(X @ X.T, y, C=None)
    assert ck.solve(f, "clarabel").status is not ck.Status.UNBOUNDED
    r = ck.solve(f, "smo")
    assert r.status is ck.Status.ERROR, (r.status, r.message)
    assert r.iterations <= 10_000 + 100 * 20
    assert "within rounding of inseparable" in r.message and "soft margin" in r.message


def test_smo_hard_margin_slow_but_separable_continues_after_the_check(monkeypatch):
    """Separable data that needs more than the probe's 10_000 + 100 n iterations: the
    check finds it separable and SMO carries on to the optimum.  (SMO's face step is
    switched off: with it, SMO reaches the optimum of this data before the probe.)"""
    from convexkern.math import smo as smo_module

    monkeypatch.setattr(smo_module, "_FACE_COST", 0.0)
    rng = np.random.default_rng(0)
    X = rng.standard_normal((300, 40))
    s = X @ rng.standard_normal(40)
    y = np.where(s > np.median(s), 1.0, -1.0)
    f = svm.dual(X @ X.T + 1.0, y, C=None)
    r = ck.solve(f, "smo")
    assert r.status is ck.Status.OPTIMAL and r.iterations > 10_000 + 100 * 300
    ref = ck.solve(f, "clarabel", tol=1e-9)
    assert r.primal_value == pytest.approx(ref.primal_value, rel=SOLVER_RTOL["smo"])


@pytest.mark.filterwarnings("ignore:Solution may be inaccurate")
def test_iteration_limit_is_a_status(usps35_small):
    _, y, K = usps35_small
    f = svm.dual(K, y, C=1.0)
    for solver, it in (("clarabel", 2), ("scs", 5), ("smo", 3)):
        r = ck.solve(f, solver, max_iter=it)
        assert r.status is ck.Status.ITERATION_LIMIT, (solver, r.status, r.message)
        # still a certified pair of bounds from the last point
        assert r.primal_value <= r.dual_value


def test_time_limit_is_its_own_status(usps35_small):
    """Clarabel's MaxTime reaches cvxpy as a bare 'user_limit': the raw solver status
    tells a time limit from an iteration limit.  1 microsecond is always exceeded by the
    setup (a factorisation of a 120 x 120 dense KKT block) before the first iteration."""
    _, y, K = usps35_small
    f = svm.dual(K, y, C=1.0)
    r = ck.solve(f, "clarabel", time_limit=1e-6)
    assert r.status is ck.Status.TIME_LIMIT, (r.status, r.message)
    assert not r.ok
    r = ck.solve(f, "clarabel", max_iter=1)
    assert r.status is ck.Status.ITERATION_LIMIT, (r.status, r.message)
    # cvxpy keeps the Clarabel/OSQP solver objects between solves: limits must not leak
    assert ck.solve(f, "clarabel").ok
    if "osqp" in ck.available_solvers(f):
        assert ck.solve(f, "osqp", max_iter=3).status is ck.Status.ITERATION_LIMIT
        assert ck.solve(f, "osqp").status is ck.Status.OPTIMAL


def test_path_resolves_grid_without_rebuilding(pima_small):
    _, y, K = pima_small
    f = svm.dual(K, y, C=1.0)
    grid = [0.1, 1.0, 10.0]
    for solver in ("clarabel", "smo"):
        table = ck.path(f, "C", grid, solver)
        assert [r.params["C"] for r in table] == grid
        for C, r in zip(grid, table):
            fresh = ck.solve(svm.dual(K, y, C=C), "clarabel", tol=1e-9)
            assert r.ok and r.primal_value == pytest.approx(fresh.primal_value, rel=1e-6)
        assert "C" in str(table).splitlines()[0]
    # cvxpy kept one compiled parametric program across the grid
    assert f.problem._cache.param_prog is not None


def test_compare_table_exports(usps35_small):
    _, y, K = usps35_small
    table = ck.compare(svm.dual(K, y, C=1.0), solvers=["clarabel", "smo"])
    text = str(table)
    lines = text.splitlines()
    assert len(lines) == 4 and lines[0].split()[:2] == ["solver", "status"]
    rows = json.loads(table.to_json())
    assert [r["solver"] for r in rows] == ["clarabel", "smo"]
    assert all(r["status"] == "optimal" for r in rows)
    csv_lines = table.to_csv().splitlines()
    assert len(csv_lines) == 3 and "rel_gap" in csv_lines[0]
    assert table["smo"].solver == "smo"


# ------------------------------------------------------------------ bad input
def test_bad_inputs_name_the_argument():
    K = xor_kernel()
    with pytest.raises(ValueError, match="K"):
        svm.dual(np.where(np.eye(4) > 0, np.nan, K), XOR_Y)
    K_asym = K.copy()
    K_asym[0, 1] += 1.0
    with pytest.raises(ValueError, match="not symmetric"):
        svm.dual(K_asym, XOR_Y)
    with pytest.raises(ValueError, match="y: labels must be -1 or \\+1"):
        svm.dual(K, np.array([0.0, 0.0, 1.0, 1.0]))
    with pytest.raises(ValueError, match="y: both classes"):
        svm.dual(K, np.ones(4))
    with pytest.raises(ValueError, match="C"):
        svm.dual(K, XOR_Y, C=0.0)
    with pytest.raises(ValueError, match="C"):
        svm.dual(K, XOR_Y, C=-1.0)
    with pytest.raises(ValueError, match="K: is 4 x 4 but y has 3 labels"):
        svm.dual(K, XOR_Y[:3])  # either may be the wrong one: the message names both
    with pytest.raises(ValueError, match="y: has 3 labels"):
        svm.primal(XOR_X, XOR_Y[:3])
    with pytest.raises(ValueError, match="positive semidefinite"):
        svm.dual(np.tanh(XOR_X @ XOR_X.T - 1.5), XOR_Y)
    with pytest.raises(ValueError, match="alpha: violates"):
        svm.certificate(K, XOR_Y, np.array([1.0, 0.0, 0.0, 0.0]), 1.0)
    f = svm.dual(K, XOR_Y, C=1.0)
    with pytest.raises(ck.SolverNotFoundError, match="clarabel"):
        ck.solve(f, "gurobby")
    with pytest.raises(ValueError, match="tol"):
        ck.solve(f, "clarabel", tol=0.0)
    # C = 0 is not a soft margin (alpha = 0 is the only point): rejected, never solved
    for g in (f, svm.primal(XOR_X, XOR_Y, C=1.0)):
        for bad in (-2.0, 0.0):
            with pytest.raises(ValueError, match="C: must be > 0"):
                g.set_params(C=bad)
        with pytest.raises(ValueError, match="C: must be > 0"):
            ck.path(g, "C", [0.0, 1.0], "clarabel")
        assert g.parameters["C"].value == 1.0 and g.problem.is_dpp()
    with pytest.raises(ValueError, match="no parameter 'rho'"):
        f.set_params(rho=1.0)


def test_large_C_on_separable_data_takes_the_hard_margin_bound():
    """at C = 1e4 on data separable in feature space, a solver's
    slightly inexact alpha makes the soft-margin bound loose (C times a small hinge sum),
    while the hard-margin bound of the same alpha is tight; the certificate keeps the best
    valid bound, and the bracket still holds the optimum."""
    rng = np.random.default_rng(1)
    X = np.vstack([rng.normal(size=(20, 2)) + 3.0, rng.normal(size=(20, 2)) - 3.0])
    y = np.r_[np.ones(20), -np.ones(20)]
    f = svm.dual(X @ X.T, y, C=1e4)
    ref = ck.solve(f, "clarabel", tol=1e-10)
    r = ck.solve(f, "scs")  # SCS's default accuracy: its alpha misses the optimum a little
    a = np.asarray(r.x["alpha"])
    fv = X @ X.T @ (y * a)
    q = float((y * a) @ fv)
    soft = 0.5 * q + 1e4 * np.maximum(
        0.0, 1.0 - y[None, :] * (fv[None, :] + (y - fv)[:, None])).sum(1).min()
    assert "hard_margin_bound" in r.residuals and r.dual_value < soft
    assert r.primal_value <= ref.primal_value * (1 + 1e-9) <= r.dual_value * (1 + 2e-9)
    assert r.dual_value <= ref.primal_value * (1 + 10 * r.tol)


@pytest.mark.parametrize("seed", [1, 2])
def test_offset_kernel_brackets_hold(seed):
    """``K0 + c 1 1'`` has the optimum of ``K0`` (``y'alpha = 0`` cancels the offset
    exactly), but its entries cancel: the bounds evaluated in floating point used to shut
    around a wrong number (SMO, SCS and Clarabel said ``optimal`` with brackets 1e-9 to
    1e-5 relative off at c = 1e5..1e9).  Oracle: Clarabel at tol 1e-10 on ``K0`` itself."""
    import warnings

    rng = np.random.default_rng(seed)
    n = 40
    X = rng.normal(size=(n, 3))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=n) > 0, 1.0, -1.0)
    K0 = np.exp(-((X[:, None] - X[None]) ** 2).sum(-1))
    checked = 0
    for C in (1.0, 100.0):
        ref = ck.solve(svm.dual(K0, y, C), "clarabel", tol=1e-10)
        assert ref.status == "optimal"
        lo0, hi0 = sorted([ref.primal_value, ref.dual_value])
        for c in (1e5, 1e6, 1e8):
            f = svm.dual(K0 + c, y, C)
            for solver in ("smo", "scs", "clarabel"):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    r = ck.solve(f, solver)
                if r.status not in ("optimal", "optimal_inaccurate"):
                    continue
                lo, hi = sorted([r.primal_value, r.dual_value])
                assert lo <= hi0 and hi >= lo0, (C, c, solver, r.status, lo, hi, lo0, hi0)
                checked += 1
    assert checked >= 12  # most solves answer; every answer holds the optimum
