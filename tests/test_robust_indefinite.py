"""Robust SVM with indefinite kernels (Luss & d'Aspremont, NIPS 2007) on real data.

Tolerances: the reference "max f" is certified by robust_apg to a relative gap of 1e-9;
Clarabel (interior point) and SCS are asked for tol=1e-8 (accuracy settings 10x tighter).
Their optimal values, and f at the alpha read from their Schur multiplier, are checked
against max f to 1e-7 relative: ten times the accuracy asked of the solvers, 100 times the
reference's certified gap (measured on these instances: 4e-9 for SCS's value on USPS, 1e-10
to 1e-14 otherwise; the required accuracy is 1e-5).  Brute-force cvxpy solves of the
inner problem are trusted to 1e-6 (SCS/Clarabel at their default accuracy on a 6 x 6 SDP).
"""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np
import pytest

import convexkern as ck
from convexkern.data import load_binary
from convexkern.estimators import RobustSVMClassifier
from convexkern.formulations import robust_indefinite as ri
from convexkern.kernels import Epanechnikov, Simpson
from convexkern.projections import project_svm_feasible


def _balanced(y, n, seed):
    rng = np.random.default_rng(seed)
    pos = rng.permutation(np.flatnonzero(y > 0))[: n // 2]
    neg = rng.permutation(np.flatnonzero(y < 0))[: n - n // 2]
    return np.sort(np.concatenate([pos, neg]))


@pytest.fixture(scope="module")
def usps30():
    """30 real USPS images (3 vs 5) with the Simpson score (indefinite)."""
    X, y = load_binary("usps", 3, 5)
    idx = _balanced(y, 30, 0)
    return Simpson()(X[idx]), y[idx]


@pytest.fixture(scope="module")
def pima24():
    """24 real Pima patients, standardised, Epanechnikov kernel (sigma = 3)."""
    X, y = load_binary("pima", 1, 0)
    X = (X - X.mean(0)) / X.std(0)
    idx = _balanced(y, 24, 1)
    return Epanechnikov(3.0)(X[idx]), y[idx]


@pytest.fixture(scope="module")
def tiny():
    X, y = load_binary("usps", 3, 5)
    idx = _balanced(y, 6, 2)
    return Simpson()(X[idx]), y[idx]


def _feasible(y, C, seed):
    rng = np.random.default_rng(seed)
    return project_svm_feasible(rng.uniform(0, C, y.size), y, C)


# ------------------------------------------------------------------ closed forms
def test_kernels_are_indefinite(usps30, pima24):
    for K0, _ in (usps30, pima24):
        assert np.linalg.eigvalsh(K0)[0] < -1e-3


def test_inner_minimiser_matches_brute_force(tiny):
    K0, y = tiny
    rho, C = 0.3, 1.0
    alpha = _feasible(y, C, 0)
    v = y * alpha
    K = cp.Variable(K0.shape, PSD=True)
    prob = cp.Problem(cp.Minimize(alpha.sum() - 0.5 * (v @ K @ v) + rho * cp.sum_squares(K - K0)))
    prob.solve(solver="CLARABEL")
    Ks = ri.inner_kernel(K0, y, alpha, rho)
    np.testing.assert_allclose(Ks, K.value, atol=1e-6)
    assert ri.objective(K0, y, alpha, rho) == pytest.approx(prob.value, rel=1e-7)


def test_f_at_zero_is_rho_negative_part(usps30):
    K0, y = usps30
    w = np.linalg.eigvalsh(K0)
    assert ri.objective(K0, y, np.zeros(y.size), 2.0) == pytest.approx(
        2.0 * np.sum(np.minimum(w, 0) ** 2), rel=1e-12)


@pytest.mark.parametrize("rho", [0.1, 1.0])
def test_gradient_finite_differences(usps30, rho):
    K0, y = usps30
    alpha = _feasible(y, 1.0, 1)
    g = ri.gradient(K0, y, alpha, rho)
    rng = np.random.default_rng(2)
    for _ in range(3):
        d = rng.standard_normal(y.size)
        h = 1e-5
        fp = ri.objective(K0, y, alpha + h * d, rho)
        fm = ri.objective(K0, y, alpha - h * d, rho)
        fd = (fp - fm) / (2 * h)
        assert fd == pytest.approx(g @ d, rel=1e-6, abs=1e-8)


def test_concavity_along_a_segment(pima24):
    K0, y = pima24
    a, b = _feasible(y, 1.0, 3), _feasible(y, 1.0, 4)
    ts = np.linspace(0, 1, 7)
    vals = np.array([ri.objective(K0, y, (1 - t) * a + t * b, 0.5) for t in ts])
    chords = (1 - ts) * vals[0] + ts * vals[-1]
    assert np.all(vals >= chords - 1e-10)


# ------------------------------------------------------------------ conic dual and bounds
@pytest.fixture(scope="module")
def usps30_opt(usps30):
    K0, y = usps30
    f = ri.dual(K0, y, C=1.0, rho=0.5)
    r = ck.solve(f, tol=1e-9)
    assert r.ok
    return f, r


@pytest.mark.parametrize("solver", ["clarabel", "scs"])
def test_conic_optimum_equals_max_f_usps(usps30_opt, solver):
    f, ref = usps30_opt
    r = ck.solve(f, solver, tol=1e-8)
    assert r.status.has_solution
    # the conic optimal value (6) equals max f (3) (1e-7: see the module docstring)
    assert f.problem.value == pytest.approx(ref.primal_value, rel=1e-7)
    # alpha read from the Schur multiplier is (nearly) optimal for (3)
    assert r.primal_value == pytest.approx(ref.primal_value, rel=1e-7)
    assert r.primal_value <= ref.dual_value + 1e-12
    assert r.dual_value >= ref.primal_value - 1e-12


@pytest.mark.parametrize("solver", ["clarabel", "scs"])
def test_conic_optimum_equals_max_f_pima(pima24, solver):
    K0, y = pima24
    f = ri.dual(K0, y, C=2.0, rho=1.0)
    ref = ck.solve(f, "robust_apg", tol=1e-9)
    assert ref.ok
    r = ck.solve(f, solver, tol=1e-8)
    assert f.problem.value == pytest.approx(ref.primal_value, rel=1e-7)
    assert r.primal_value == pytest.approx(ref.primal_value, rel=1e-7)


def test_bounds_bracket_the_optimum_everywhere(usps30_opt, usps30):
    K0, y = usps30
    f, ref = usps30_opt
    opt_lo, opt_hi = ref.primal_value, ref.dual_value
    for seed in range(4):
        c = ri.certificate(K0, y, _feasible(y, 1.0, seed), 1.0, 0.5, smo_refine=seed % 2 == 0)
        assert c.lower <= opt_hi + 1e-12
        assert c.upper >= opt_lo - 1e-12
        r = c.residuals
        assert c.upper == pytest.approx(min(r["bound_frank_wolfe"], r["bound_svm_at_alpha"],
                                            r["bound_svm_smo"]), rel=1e-15)


def test_certified_lower_bound_on_an_indefinite_kernel(usps30):
    """The certified lower bound on a strongly indefinite kernel: its Z-term
    -2t<M, Z> - t^2 ||Z||^2, evaluated on the data with Z = BB' from the computed negative
    eigenpairs, equals rho ||M_-||^2 up to second order in eigh's errors ((n u ||M||)^2,
    1e-26 relative) and the rounding of sums of n^2 terms (n^2 u ~ 1e-13): 1e-10.  The
    bound differs from the floating-point estimate of f by its pad (rounding_lower), that
    Z-term difference and 1.5 ulp of each (5e-16 relative); the rounding terms are reported
    (measured 6e-13 to 8e-13 for the lower bound, 3e-12 to 4e-12 for the upper), and the
    bracket is not inverted."""
    K0, y = usps30
    rho = 0.5
    for seed in range(3):
        a = _feasible(y, 1.0, seed)
        c = ri.certificate(K0, y, a, 1.0, rho, smo_refine=False)
        v = y * a
        w = np.linalg.eigvalsh(K0 + np.outer(v, v) / (4 * rho))
        r = c.residuals
        assert r["lower_z_term"] == pytest.approx(rho * np.sum(np.minimum(w, 0) ** 2),
                                                  rel=1e-10)
        est = r["value_estimate"]
        assert abs(c.lower - est) <= (r["rounding_lower"] + 1e-10 * r["lower_z_term"]
                                      + 5e-16 * abs(est))
        assert r["rounding_lower"] > 0 and r["rounding_upper"] > 0
        assert c.lower <= c.upper and "bound_inversion" not in r


@pytest.mark.parametrize("noise", [1e-6, 1e-2])
def test_certified_bounds_do_not_trust_the_eigenpairs(usps30_opt, usps30, noise):
    """The certified bounds hold with corrupted eigenpairs: B and P are built
    from whatever (w, V) they are given, so Z = BB' and K = PP' stay PSD, and every number
    is evaluated on the data.  The lower bound at the optimal alpha stays below the exact
    (rational) g(alpha, PP') of the accurate eigenpairs, an upper bound on f(alpha); the
    upper bounds stay above the reference's certified lower bound on OPT.  No tolerance."""
    from fractions import Fraction

    from convexkern.math import robust_indefinite as mri

    K0, y = usps30
    f, ref = usps30_opt
    rho, C = 0.5, 1.0
    a = ref.x["alpha"]
    v = y * a
    w, V = np.linalg.eigh(K0 + np.outer(v, v) / (4 * rho))
    rng = np.random.default_rng(11)
    wb = w * (1 + noise * rng.standard_normal(w.size))
    Vb = V + noise * rng.standard_normal(V.shape)
    K0F = [[Fraction(float(t)) for t in row] for row in K0]
    g_exact = _exact_g_at_proxy(K0, K0F, y, a, rho)
    good = mri.certified_lower(K0, y, a, rho, w, V)
    bad = mri.certified_lower(K0, y, a, rho, wb, Vb)
    assert Fraction(good.value) <= g_exact and Fraction(bad.value) <= g_exact
    pk = mri.proxy_kernel(K0, rho, wb, Vb)
    for u, _ in (mri.frank_wolfe_upper(pk, y, a, C), pk.svm_primal(y * a, y, C)):
        assert u >= ref.primal_value
    # worse eigenpairs give a looser, still valid, bracket
    if noise >= 1e-2:
        assert bad.value < good.value
        assert pk.svm_primal(y * a, y, C)[0] > ref.dual_value


def test_certificate_smo_refinement_is_capped_by_iterations_not_time(usps30_opt, usps30):
    """The SMO refinement of U(alpha) is bounded by a number of SMO steps (so the bound
    does not depend on machine load), skipped when the cheap bounds meet the requested
    tol, and every bound it returns still brackets the optimum."""
    K0, y = usps30
    f, ref = usps30_opt
    a = _feasible(y, 1.0, 5)  # far from optimal: the cheap bounds are loose
    for cap in (30, 400):
        c = ri.certificate(K0, y, a, 1.0, 0.5, smo_max_iter=cap)
        r = c.residuals
        assert 0 < r["smo_iterations"] <= cap
        assert c.upper >= ref.primal_value - 1e-12 and c.lower <= ref.dual_value + 1e-12
        # deterministic: the same point gives the same bound again
        assert ri.certificate(K0, y, a, 1.0, 0.5, smo_max_iter=cap).upper == c.upper
    # the cheap bounds alone meet the requested tol: no SMO step is taken
    cheap = ri.certificate(K0, y, a, 1.0, 0.5, smo_refine=False)
    c = ri.certificate(K0, y, a, 1.0, 0.5, tol=1.01 * cheap.rel_gap)
    assert c.residuals["smo_iterations"] == 0 and c.residuals["bound_svm_smo"] == math.inf
    assert c.upper == cheap.upper
    # through the registry: APG stops when its own cheap bounds meet tol, so the final
    # certificate needs no SMO at all
    r = ck.solve(f, tol=1e-6)
    assert r.ok and r.residuals["smo_iterations"] == 0
    # an unconverged point: the refinement runs, within the default cap, and stays valid
    r = ck.solve(f, "robust_apg", tol=1e-12, max_iter=3)
    assert r.status is ck.Status.ITERATION_LIMIT
    assert 0 < r.residuals["smo_iterations"] <= ri.default_smo_max_iter(y.size)
    assert r.dual_value >= ref.primal_value - 1e-12


def test_conic_solve_passes_its_tol_to_the_certificate(usps30_opt):
    """ck.solve(f, "clarabel", tol=...) hands tol to the certificate (through
    certified_report and Formulation.certificate): at a loose tol the cheap bounds at
    Clarabel's point meet it and no SMO refinement step is taken, while the same point
    certified without tol runs the refinement; the bracket stays valid either way."""
    f, ref = usps30_opt
    tol = 1e-2
    r = ck.solve(f, "clarabel", tol=tol)
    assert r.ok and r.rel_gap <= tol
    assert r.residuals["smo_iterations"] == 0 and r.residuals["bound_svm_smo"] == math.inf
    assert r.primal_value <= ref.dual_value + 1e-12
    assert r.dual_value >= ref.primal_value - 1e-12
    point = {"alpha": r.x["alpha"]}
    assert f.certificate(point, tol=tol).residuals["smo_iterations"] == 0
    full = f.certificate(point)  # no tol: the refinement runs (to its cap at most)
    assert 0 < full.residuals["smo_iterations"] <= ri.default_smo_max_iter(30)
    assert full.upper <= r.dual_value and full.upper >= ref.primal_value - 1e-12


def test_report_carries_alpha_and_certified_values(usps30_opt):
    f, r = usps30_opt
    a = r.x["alpha"]
    assert a.shape == (30,) and np.all(a >= 0) and np.all(a <= 1.0)
    assert r.primal_value == pytest.approx(ri.objective(f.data["K0"], f.data["y"], a, 0.5),
                                           rel=1e-13)
    assert r.history and all(h[2] <= h[3] + 1e-12 for h in r.history)
    assert r.gap == pytest.approx(r.dual_value - r.primal_value)


def test_schur_block_is_explicit(usps30_opt):
    f, _ = usps30_opt
    names = {type(a).__name__ for a in f.problem.atoms()}
    assert "MatrixFrac" not in names
    assert f.cone_class == "SDP"
    assert f.default_solver == "robust_apg"
    assert {"robust_apg", "robust_pg", "robust_accpm", "clarabel", "scs"} <= set(
        ck.available_solvers(f))


# ------------------------------------------------------------------ algorithms
@pytest.mark.parametrize("solver,tol", [("robust_apg", 1e-8), ("robust_pg", 1e-6),
                                        ("robust_accpm", 1e-4)])
def test_custom_methods_reach_certified_gap(usps30_opt, solver, tol):
    f, ref = usps30_opt
    r = ck.solve(f, solver, tol=tol, time_limit=60)
    assert r.ok, r.message
    assert r.rel_gap <= tol
    assert r.primal_value <= ref.dual_value + 1e-12
    assert r.primal_value >= ref.primal_value - tol * abs(ref.dual_value) * 1.01


def test_accpm_polish_is_recorded_and_unpolished_status_is_honest(usps30_opt):
    """Deterministic runs (no time limit: ACCPM and the polish are capped by iterations
    only).  On this instance at tol = 1e-4, ACCPM's LP bound meets tol but its last query
    point's own certificate does not (measured: 4.7e-4), so the polish branch is taken."""
    f, ref = usps30_opt
    tol = 1e-4
    raw = ck.solve(f, "robust_accpm", tol=tol, polish=False)
    s = raw.solver_stats
    assert s["polished"] is False and "polish_iterations" not in s
    # the LP (cutting-plane) bound and the best query point bracket the optimum
    assert s["best_upper_bound_seen"] >= ref.primal_value - 1e-12
    assert raw.primal_value <= ref.dual_value + 1e-12
    # ACCPM stopped on its LP bound; the status speaks of the returned point's own
    # certificate, which misses tol here: not reported as optimal
    assert raw.status is ck.Status.OPTIMAL_INACCURATE and raw.rel_gap > tol
    assert "exceeds tol" in raw.message
    # the default (polish=True): the same ACCPM run, then accelerated-gradient steps from
    # its point until that point's own certificate meets tol, recorded as such
    r = ck.solve(f, "robust_accpm", tol=tol)
    st = r.solver_stats
    assert st["polished"] is True and st["polish_iterations"] > 0
    assert st["polish_status"] == "optimal" and "polished" in r.message
    assert st["unpolished_point_value"] == pytest.approx(raw.primal_value, rel=1e-12)
    assert r.iterations == raw.iterations  # ACCPM's own count, polish steps kept apart
    assert r.status is ck.Status.OPTIMAL and r.rel_gap <= tol
    assert r.primal_value <= ref.dual_value + 1e-12


@pytest.mark.parametrize("solver,opts", [("robust_apg", {}), ("robust_pg", {}),
                                         ("robust_pg", {"step": "fixed"})])
def test_nonfinite_objective_is_an_error_status(usps30, monkeypatch, solver, opts):
    """A NaN objective used to spin the backtracking loop forever (L doubled to inf)."""
    from convexkern.algorithms import robust_svm

    K0, y = usps30
    f = ri.dual(K0, y, C=1.0, rho=0.5)
    real = robust_svm.RobustOracle.__call__
    calls = []

    def nan_after_two(self, alpha, **kw):
        out = real(self, alpha, **kw)
        calls.append(1)
        if len(calls) > 2:
            return robust_svm.OracleValue(math.nan, out.grad * math.nan, math.inf,
                                          math.inf, math.inf)
        return out

    monkeypatch.setattr(robust_svm.RobustOracle, "__call__", nan_after_two)
    r = ck.solve(f, solver, tol=1e-12, max_iter=50, **opts)
    assert r.status is ck.Status.ERROR and not r.ok
    assert "not finite" in r.message
    assert len(calls) < 10


def test_full_eig_and_rank_one_oracles_agree(pima24):
    from convexkern.algorithms.robust_svm import RobustOracle

    K0, y = pima24
    a = _feasible(y, 1.0, 7)
    o1 = RobustOracle(K0, y, 1.0, 0.5, eig="rank_one")(a)
    o2 = RobustOracle(K0, y, 1.0, 0.5, eig="full")(a)
    assert o1.value == pytest.approx(o2.value, rel=1e-11)
    np.testing.assert_allclose(o1.grad, o2.grad, atol=1e-9)
    assert o1.upper == pytest.approx(o2.upper, rel=1e-9)


def test_iteration_limit_is_a_status(usps30):
    K0, y = usps30
    f = ri.dual(K0, y, C=1.0, rho=0.5)
    for s in ("robust_apg", "robust_pg", "robust_accpm"):
        r = ck.solve(f, s, tol=1e-12, max_iter=2)
        assert r.status is ck.Status.ITERATION_LIMIT
        assert math.isfinite(r.gap) and r.gap >= 0


def test_parameters_are_checked_at_solve_time(usps30):
    K0, y = usps30
    f = ri.dual(K0, y, C=1.0, rho=0.5)
    # rho = 0 used to divide by zero in K*(alpha), C = 0 to give an "optimal" alpha = 0
    with pytest.raises(ValueError, match="rho"):
        ck.path(f, "rho", [0.0])
    with pytest.raises(ValueError, match="C"):
        ck.path(f, "C", [0.0])
    # a value set on the cvxpy Parameter directly (cvxpy accepts 0 for pos=True) is
    # refused at solve time by every solver, naming it
    for name in ("C", "rho"):
        f2 = ri.dual(K0, y, C=1.0, rho=0.5)
        f2.parameters[name].value = 0.0
        for solver in ("robust_apg", "robust_accpm", "scs"):
            with pytest.raises(ValueError, match=name):
                ck.solve(f2, solver, tol=1e-4)


def test_warm_start_and_parameter_path(usps30):
    K0, y = usps30
    f = ri.dual(K0, y, C=1.0, rho=0.5)
    rows = ck.path(f, "rho", [0.5, 1.0], tol=1e-6)
    assert all(r.ok for r in rows)
    assert rows[0].primal_value != pytest.approx(rows[1].primal_value)


# ------------------------------------------------------------------ bad input
def test_bad_input(usps30):
    K0, y = usps30
    with pytest.raises(ValueError, match="rho"):
        ri.dual(K0, y, C=1.0, rho=0.0)
    with pytest.raises(ValueError, match="C"):
        ri.dual(K0, y, C=-1.0, rho=1.0)
    bad = K0.copy()
    bad[0, 1] += 1.0
    with pytest.raises(ValueError, match="K0"):
        ri.dual(bad, y)
    nan = K0.copy()
    nan[2, 2] = np.nan
    with pytest.raises(ValueError, match="K0"):
        ri.dual(nan, y)
    with pytest.raises(ValueError, match="y"):
        ri.dual(K0, (y > 0).astype(float))
    with pytest.raises(ValueError, match="alpha"):
        ri.certificate(K0, y, np.full(y.size, 5.0), 1.0, 1.0)


# ------------------------------------------------------------------ prediction, estimator
def test_prediction_kernel_on_training_block_is_inner_kernel(usps30_opt):
    f, r = usps30_opt
    K0, y = f.data["K0"], f.data["y"]
    a = r.x["alpha"]
    Kp = ri.predict_kernel(K0, y.size, y, a, 0.5)
    np.testing.assert_allclose(Kp, ri.inner_kernel(K0, y, a, 0.5), atol=1e-10)
    assert np.linalg.eigvalsh(Kp)[0] >= -1e-10


@pytest.fixture(scope="module")
def usps30_with_test():
    """The 30 training images of ``usps30`` followed by 12 other USPS 3/5 images."""
    X, y = load_binary("usps", 3, 5)
    tr = _balanced(y, 30, 0)
    rest = np.setdiff1d(np.arange(y.size), tr)
    te = np.random.default_rng(5).choice(rest, 12, replace=False)
    return Simpson()(X[np.concatenate([tr, te])]), y[tr], y[te], X[tr], X[te]


def test_prediction_kernel_with_test_block(usps30_opt, usps30_with_test):
    """§2.3 of the paper, written out here independently: add the optimal rank-one update
    (Y alpha)(Y alpha)'/(4 rho) to the training block of the full kernel only, set the
    negative eigenvalues of the whole (train + test) matrix to zero, read the test block."""
    f, r = usps30_opt
    K_full, ytr, _, Xtr, Xte = usps30_with_test
    n, rho = ytr.size, 0.5
    np.testing.assert_allclose(K_full[:n, :n], f.data["K0"], atol=1e-14)
    a = r.x["alpha"]
    v = ytr * a
    M = K_full.copy()
    M[:n, :n] = M[:n, :n] + np.outer(v, v) / (4.0 * rho)
    w, V = np.linalg.eigh(M)
    assert w[0] < -1e-3  # the full matrix is indefinite: the projection does something
    expected = V @ np.diag(np.clip(w, 0.0, None)) @ V.T
    Kp = ri.predict_kernel(K_full, n, ytr, a, rho)
    scale = np.abs(w).max()
    np.testing.assert_allclose(Kp, expected, atol=1e-10 * scale)
    # the test rows are changed by the heuristic (not the raw kernel rows)
    assert np.abs(Kp[n:, :n] - K_full[n:, :n]).max() > 1e-3
    # the classifier's projection predictions are these test rows with the fitted alpha
    clf = RobustSVMClassifier(C=1.0, rho=rho, kernel=Simpson(), tol=1e-9).fit(Xtr, ytr)
    np.testing.assert_allclose(clf.alpha_, a, atol=1e-5)
    Kc = ri.predict_kernel(K_full, n, ytr, clf.alpha_, rho)
    b = clf.decision_function(Xte) - Kc[n:, :n] @ (ytr * clf.alpha_)
    np.testing.assert_allclose(b, b[0], atol=1e-9)  # one bias for every test row
    # ... and it is the bias of the certified primal point on the projected training
    # block: it minimises the hinge sum C sum_i (1 - y_i (f_i + b))_+, a convex
    # piecewise-linear function of b whose minimum is attained at a breakpoint y_i - f_i
    ftr = Kc[:n, :n] @ (ytr * clf.alpha_)

    def hinge(bb):
        return float(np.maximum(0.0, 1.0 - ytr * (ftr + bb)).sum())

    best = min(hinge(bb) for bb in ytr - ftr)
    assert hinge(b[0]) <= best * (1 + 1e-12) + 1e-12


def test_raw_kernel_svm_is_reported_as_a_stationary_point(usps30_with_test):
    from convexkern.reproduce import luss2007

    K_full, ytr, yte, _, _ = usps30_with_test
    n = ytr.size
    seen = {}
    for method, params in (("svm", {"C": 1.0}), ("denoise", {"C": 1.0}),
                           ("robust", {"C": 1.0, "rho": 0.5})):
        info: dict = {}
        d = luss2007.fit_predict(method, K_full, n, ytr, params, info=info)
        assert d.shape == yte.shape and np.all(np.isfinite(d))
        seen[method] = info["status"]
    # SMO stopped on its KKT tolerance on the indefinite raw kernel: not an optimum
    assert seen["svm"] == "stationary_point"
    assert seen["denoise"] == "optimal" and seen["robust"] == "optimal"
    assert luss2007.fit_status("svm", "iteration_limit") == "iteration_limit"


def test_classifier_on_real_data():
    from sklearn.base import clone

    X, y = load_binary("pima", 1, 0)
    X = (X - X.mean(0)) / X.std(0)
    idx = _balanced(y, 160, 4)
    X, y = X[idx], np.where(y[idx] > 0, "diabetes", "healthy")
    Xtr, ytr, Xte, yte = X[::2], y[::2], X[1::2], y[1::2]
    clf = RobustSVMClassifier(C=1.0, rho=1.0, kernel=Epanechnikov(3.0)).fit(Xtr, ytr)
    assert clf.report_.ok
    acc = np.mean(clf.predict(Xte) == yte)
    assert acc >= 0.65  # Pima is a hard data set: SVMs reach ~0.75
    raw = clone(clf).set_params(test_kernel="raw").fit(Xtr, ytr)
    assert np.mean(raw.predict(Xte) == yte) >= 0.6
    K = Epanechnikov(3.0)(Xtr)
    pre = RobustSVMClassifier(C=1.0, rho=1.0, kernel="precomputed").fit(K, ytr)
    np.testing.assert_allclose(pre.alpha_, raw.alpha_, atol=1e-6)
    np.testing.assert_allclose(pre.decision_function(Epanechnikov(3.0)(Xte, Xtr)),
                               raw.decision_function(Xte), atol=1e-6)
    with pytest.raises(ValueError, match="rho"):
        RobustSVMClassifier(rho=-1.0, kernel=Epanechnikov(3.0)).fit(Xtr, ytr)


@pytest.mark.slow
def test_reproduction_quick(tmp_path):
    from convexkern.reproduce import harness

    res = harness.run("luss2007", quick=True, out_dir=tmp_path, verbose=False)
    acc = res.data["table2"]["USPS-3-5/robust"]["accuracy"]
    assert acc >= 90.0
    assert (tmp_path / "luss2007" / "figure1_gap.png").exists()
    report = (tmp_path / "luss2007" / "report.md").read_text(encoding="utf-8")
    # the quick report prints the paper's Tables 1 and 2 beside ours
    assert "accuracy (paper)" in report and "| 96.25 |" in report and "| 96.65 |" in report
    assert "lambda_min (paper)" in report and "-34.76" in report
    # and the paper's values of the three data sets the quick run leaves out
    for value in ("97.90", "68.83", "65.22"):
        assert f"| {value} |" in report, value


def _fake_splits(acc, rec, lam=(-30.0, 450.0)):
    """Per-split results in the shape of ``luss2007.table2_split`` (numbers made up)."""
    from convexkern.reproduce import luss2007

    return [{"seed": s, "n_train": 767, "n_test": 773, "lambda_min": lam[0] + s,
             "lambda_max": lam[1], "methods": {
                 m: {"accuracy": acc[s], "recall": rec[s], "params": {"C": 1.0},
                     "fit_status": "optimal"} for m in luss2007.METHODS}}
            for s in range(len(acc))]


def test_luss_report_tables_print_the_paper_beside_ours():
    from convexkern.reproduce import luss2007

    splits = {"USPS-3-5": _fake_splits([95.0, 96.0], [94.0, 95.0])}
    t2, flagged = luss2007.table2_markdown(splits)
    lines = t2.splitlines()
    assert lines[0].split(" | ")[2:8] == ["accuracy (ours)", "accuracy (paper)", "diff",
                                          "recall (ours)", "recall (paper)", "diff"]
    robust = [ln for ln in lines if "| robust |" in ln][0].split(" | ")
    # mean +- sample std of (95, 96) is 95.50 +- 0.71; paper 96.25 and 96.65 (Table 2)
    assert robust[2:8] == ["95.50 ± 0.71", "96.25", "-0.75", "94.50 ± 0.71", "96.65",
                           "-2.15"]
    svm = [ln for ln in lines if "| svm |" in ln][0].split(" | ")
    assert svm[3:5] == ["74.90", "+20.60"]
    # cells beyond 2 points are listed: robust recall (-2.15), svm accuracy and recall,
    # shift accuracy (+5.07); not robust accuracy (-0.75)
    assert any(f.startswith("USPS-3-5 robust recall") for f in flagged)
    assert not any(f.startswith("USPS-3-5 robust accuracy") for f in flagged)
    t1 = luss2007.table1_markdown(splits)
    assert "| -29.50 ± 0.71 | -34.76 | 450.00 ± 0.00 | 453.58 |" in t1
    assert "| 767 / 773 | 767 / 773 |" in t1


def _paper_text(name):
    from pathlib import Path

    here = Path(__file__).resolve()
    for root in (here.parents[2], here.parents[3]):
        p = root / "shared" / "papers" / name
        if p.exists():
            return p.read_text(encoding="utf-8")
    pytest.skip(f"the paper's text ({name}) is not beside the checkout")


def test_luss_paper_values_match_the_paper_text():
    """The typed-in Tables 1 and 2 equal the numbers in the paper's text, read in the
    order it prints them (a typing error would fail here)."""
    import re

    from convexkern.reproduce import luss2007

    text = _paper_text("luss2007_indefinite_kernels_nips.txt")
    t1 = text[text.index("Table 1: Statistics"):text.index("Table 1 provides")]
    nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", t1.split("Liver-EP")[1])]
    names = list(luss2007.DATASETS)
    for k, name in enumerate(names):
        ntr, nte, lo, hi = luss2007.PAPER_TABLE1[name]
        assert (nums[k], nums[4 + k], nums[8 + k], nums[12 + k]) == (ntr, nte, lo, hi)
    t2 = text[text.index("Table 2: Performance"):text.index("4.2 Algorithm")]
    labels = {"denoise": "Denoise", "flip": "F lip", "shift": "Shift", "svm": "S VM",
              "robust": "Indefinite SVM"}
    for method, label in labels.items():
        row = t2.split(label + " ")[1].split()[:8]
        want = [v for name in names for v in luss2007.PAPER_TABLE2[(name, method)]]
        assert [float(v) for v in row] == want


def test_problem_spec_builds():
    from convexkern.specs import load_spec

    inst = load_spec("robust_usps_3v5_simpson").build()  # shipped: problems/
    f = inst.formulation
    assert f.name == "robust_indefinite.dual"
    assert f.param_values() == {"C": 1.0, "rho": 1.0}
    w = np.linalg.eigvalsh(f.data["K0"])
    assert w[0] < -20 and w[-1] > 400  # strongly indefinite, like the paper's Table 1


def test_paper_fixed_step_projected_gradient(usps30_opt):
    f, ref = usps30_opt
    r = ck.solve(f, "robust_pg", tol=1e-4, step="fixed", max_iter=5000)
    assert r.ok, r.message
    assert r.primal_value <= ref.dual_value + 1e-12
    with pytest.raises(ValueError, match="step"):
        ck.solve(f, "robust_pg", step="bogus")


# ------------------------------------------------------------------ large scales
# The reproducers of the audit: y alternating +-1, n = 40, X = N(0, 1)^3 + 0.8 y,
# PSD kernels at scales where ||K0||_F^2 rho is 1e15 and more.  f(alpha) was evaluated as
# e'alpha + rho(||K0||^2 - ||M_+||^2), which cancels catastrophically there: robust_apg
# reported "optimal" on [-1220.678, -1220.677] where OPT = 0.0126822.
#
# Exact oracles, in rational arithmetic on the float data (fractions.Fraction; no
# tolerance): for any alpha and any PSD K,
#   base(alpha) := e'alpha - v'K0v/2 - ||v||^4/(16 rho) <= f(alpha) <= g(alpha, K)
#   := e'alpha - v'Kv/2 + rho ||K - K0||_F^2,
# the left because f = base + rho dist(M, PSD)^2, the right because f is the minimum of g
# over PSD K.  With K = PP' (P = V_+ sqrt(w_+) from eigh of M, PSD by construction) the two
# differ by rho ||PP' - M||^2 only (eigh's backward error): f(alpha) is pinned exactly.
def _extreme_scale_data():
    rng = np.random.default_rng(2)
    n = 40
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X = rng.normal(size=(n, 3)) + 0.8 * y[:, None]
    return X, y


def _poly(X, scale):
    return scale * (X @ X.T + 1.0) ** 3


EXTREME_SCALES = {
    # name: (kernel, rho, a published reference optimum or None)
    "poly_x100_rho1e6": (lambda X: _poly(X, 100.0), 1e6, 0.0126822),
    "rbf_x1e6_rho1": (lambda X: 1e6 * ck.kernels.RBF(0.1)(X), 1.0, 1.1377e-4),
    "poly_rho1e4": (lambda X: _poly(X, 1.0), 1e4, None),
    "poly_rho1": (lambda X: _poly(X, 1.0), 1.0, None),  # friendly scale
}
EXTREME_SOLVERS = {  # solver: options.  Iteration caps (deterministic, unlike time limits)
    # keep the slow ones short: a capped run is a status, and its bracket must still be valid
    # (SCS takes 7-17 s uncapped at the large scales, ACCPM minutes)
    "robust_apg": {},
    "robust_pg": {"max_iter": 3000},
    "robust_accpm": {"max_iter": 40},
    "scs": {"max_iter": 5000},
    "clarabel": {"max_iter": 30},
}
ISSUE_TOL = 1e-6


def _exact_base(K0F, y, alpha, rho):
    from fractions import Fraction

    v = [Fraction(float(yi)) * Fraction(float(ai)) for yi, ai in zip(y, alpha, strict=True)]
    n = len(v)
    vKv = sum(v[i] * sum(K0F[i][j] * v[j] for j in range(n)) for i in range(n))
    vv = sum(t * t for t in v)
    return sum(Fraction(float(a)) for a in alpha) - vKv / 2 - vv * vv / (16 * Fraction(rho))


def _exact_g_at_proxy(K0, K0F, y, alpha, rho):
    """g(alpha, PP') exactly, P from eigh of M: an upper bound on f(alpha)."""
    from fractions import Fraction

    v = y * alpha
    w, V = np.linalg.eigh(K0 + np.outer(v, v) / (4.0 * rho))
    P = V[:, w > 0] * np.sqrt(w[w > 0])
    n, k = P.shape
    PF = [[Fraction(float(P[i, j])) for j in range(k)] for i in range(n)]
    vF = [Fraction(float(t)) for t in v]
    Pv = [sum(PF[i][j] * vF[i] for i in range(n)) for j in range(k)]
    dist = Fraction(0)
    for i in range(n):
        for j in range(n):
            dij = sum(PF[i][m] * PF[j][m] for m in range(k)) - K0F[i][j]
            dist += dij * dij
    return (sum(Fraction(float(a)) for a in alpha) - sum(t * t for t in Pv) / 2
            + Fraction(rho) * dist)


@pytest.fixture(scope="module", params=list(EXTREME_SCALES))
def extreme_runs(request):
    from fractions import Fraction

    X, y = _extreme_scale_data()
    kern, rho, quoted = EXTREME_SCALES[request.param]
    K0 = kern(X)
    K0F = [[Fraction(float(t)) for t in row] for row in K0]
    f = ri.dual(K0, y, C=1.0, rho=rho)
    runs = {}
    for solver, opts in EXTREME_SOLVERS.items():
        r = ck.solve(f, solver, tol=ISSUE_TOL, **opts)
        if "alpha" not in r.x:  # Clarabel fails outright on two scales: no point, no claim
            assert not r.status.has_solution, (solver, r.status)
            continue
        a = r.x["alpha"]
        runs[solver] = (r, _exact_base(K0F, y, a, rho), _exact_g_at_proxy(K0, K0F, y, a, rho))
    return request.param, quoted, runs


@pytest.mark.slow
def test_extreme_scale_brackets_hold_the_exact_objective(extreme_runs):
    """Each certificate's lower bound is at most f(alpha) (checked against the exact upper
    oracle g(alpha, PP')), its upper bound at least f at every solver's point (against the
    exact lower oracle base), the bracket is not inverted, and "optimal" means a certified
    gap <= tol.  No tolerance anywhere: exact rational comparisons."""
    from fractions import Fraction

    name, quoted, runs = extreme_runs
    assert "robust_apg" in runs and "scs" in runs
    for solver, (r, base, g_up) in runs.items():
        assert base <= g_up, (name, solver)  # the two exact oracles bracket f(alpha)
        assert Fraction(r.primal_value) <= g_up, (name, solver)  # lower <= f(alpha)
        assert r.primal_value <= r.dual_value, (name, solver, r.residuals)
        assert "bound_inversion" not in r.residuals
        assert r.residuals["rounding_lower"] >= 0 and r.residuals["rounding_upper"] >= 0
        if r.status is ck.Status.OPTIMAL:
            assert r.rel_gap <= ISSUE_TOL
        for other, (_, base_other, _) in runs.items():
            # upper >= OPT >= f(other's point) >= base(other's point)
            assert Fraction(r.dual_value) >= base_other, (name, solver, other)
    # the default method certifies the optimum at every scale
    apg = runs["robust_apg"][0]
    assert apg.status is ck.Status.OPTIMAL, (name, apg.message)
    if quoted is not None:
        # the reference gives OPT to 6 (5) significant digits: half a unit in the last
        # digit is 4e-6 (4.4e-5) relative; the certified gap is 1e-6
        rel = 1e-5 if quoted > 1e-3 else 5e-5
        assert apg.primal_value == pytest.approx(quoted, rel=rel)
        assert apg.dual_value == pytest.approx(quoted, rel=rel)


@pytest.mark.slow
def test_extreme_scale_lower_bound_is_the_exact_objective_to_rounding(extreme_runs):
    """The certified lower bound is not loose: it is the computed base terms (plus a
    non-negative Z-term) minus the pad, and the computed terms are within the bounds the pad
    is made of of the exact ones, so base(alpha) - lower <= 2 rounding_lower + 1.5 ulp
    (3.3e-16 relative: the final rounding and the ulp outward), plus 1.1e-16 relative for
    rounding the exact value to a float.  For
    these PSD kernels base(alpha) is f(alpha) up to rho dist(M, PSD)^2, i.e. up to the
    rounding of K0's entries (test above: base <= f <= g(alpha, PP'))."""
    name, _, runs = extreme_runs
    for solver, (r, base, _) in runs.items():
        slack = 2 * r.residuals["rounding_lower"] + 5e-16 * abs(float(base))
        assert float(base) - r.primal_value <= slack, (name, solver)


@pytest.mark.parametrize("entries", [1, 97, 30 * 30])
def test_blocked_symmetric_products_are_the_upper_triangle_mirrored(usps30, monkeypatch,
                                                                    entries):
    """The certificate's symmetric products are mirrored in place by blocks of rows (no
    n x n temporary); whatever the block, the result is the computed upper triangle with
    its transpose below (exactly symmetric), and the distance term is unchanged."""
    from convexkern.math import robust_indefinite as mri

    K0, y = usps30
    rng = np.random.default_rng(2)
    v = y * rng.uniform(0, 1, y.size)
    w, V = np.linalg.eigh(K0 + np.outer(v, v) / 2.0)
    ref = mri.proxy_kernel(K0, 0.5, w, V)
    B = rng.standard_normal((y.size, 7))
    G_ref = mri._gram(B)
    monkeypatch.setattr(mri, "_MIRROR_ENTRIES", entries)
    pk = mri.proxy_kernel(K0, 0.5, w, V)
    P = V[:, w > 0] * np.sqrt(w[w > 0])
    U = P @ P.T
    # the upper triangle is the rank-k update's; the lower one its mirror
    np.testing.assert_allclose(np.triu(pk.K), np.triu(U), rtol=1e-13, atol=1e-13)
    np.testing.assert_array_equal(pk.K, pk.K.T)
    np.testing.assert_array_equal(pk.K, ref.K)
    assert pk.dist_term == ref.dist_term
    G = mri._gram(B)
    np.testing.assert_array_equal(G, G.T)
    np.testing.assert_array_equal(G, G_ref)
    np.testing.assert_allclose(G, B.T @ B, rtol=1e-12, atol=1e-12)
