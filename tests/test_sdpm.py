"""SDPM (Graepel & Herbrich 2003): primal (6), dual (8), virtual support vectors, exchange
method, kernels on derivative pairs, rotation trajectories of real USPS digits.

Tolerances: Clarabel solves to ~1e-9 relative and the certificates recompute both bounds
from the data, so conic forms must agree to 1e-6 relative (the target); the exchange
method is run to a certified gap of 1e-7; SCS (first order) to its
certified gap (asked 1e-5).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import convexkern as ck
from convexkern import transforms
from convexkern.data import load_usps
from convexkern.errors import InvalidInputError
from convexkern.estimators import SDPMClassifier
from convexkern.formulations import sdpm
from convexkern.kernels import RBF, Linear, Polynomial
from convexkern.math import sos
from convexkern.verify.sdpm import check_virtual_support_vectors
from tests.conftest import SOLVER_RTOL

pytestmark = pytest.mark.filterwarnings("ignore:.*dimension greater than 2")
RTOL = 1e-6
TAU = math.radians(20)


def _rel(a, b):
    return abs(a - b) / max(abs(a), abs(b))


@pytest.mark.parametrize("C", [None, 0.005])
def test_sdp_socp_exchange_dual_agree(usps19, C):
    X, y, _ = usps19
    vals = {}
    for label, kw in {"socp": {}, "sdp2x2": {"cone": "psd"},
                      "sdp_subst": {"method": "substitution"}}.items():
        f = sdpm.primal(X, y, TAU, C, **kw)
        r = ck.solve(f, "clarabel")
        assert r.status is ck.Status.OPTIMAL, (label, r.message)
        assert r.rel_gap <= 1e-7
        vals[label] = r.primal_value
    assert sdpm.primal(X, y, TAU, C).cone_class == "SOCP"
    assert sdpm.primal(X, y, TAU, C, method="substitution").cone_class == "SDP"
    rd = ck.solve(sdpm.dual(X, y, TAU, C), "clarabel")
    assert rd.status is ck.Status.OPTIMAL
    vals["dual"] = rd.primal_value
    re = ck.solve(sdpm.primal(X, y, TAU, C), "exchange", tol=1e-7)
    assert re.status is ck.Status.OPTIMAL and re.rel_gap <= 1e-7
    assert len(re.history) == re.iterations and re.history[-1][2] <= re.history[-1][3]
    vals["exchange"] = re.primal_value
    ref = vals["socp"]
    for k, v in vals.items():
        assert _rel(v, ref) <= RTOL, (k, v, ref)


def test_virtual_support_vectors(usps19):
    X, y, _ = usps19
    f = sdpm.primal(X, y, TAU, None)
    r = ck.solve(f, "clarabel")
    v = check_virtual_support_vectors(X, y, r.x["w"], float(r.x["b"]), r.x["mu"],
                                           segment=TAU)
    assert v["ok"], {k: v[k] for k in v if k != "support"}
    assert v["w_residual"] < 1e-6 and v["margin_residual"] < 1e-5
    vs = v["support"]
    assert np.all(np.abs(vs.theta) <= TAU + 1e-12) and np.all(vs.alpha > 0)
    # Proposition 3 covers rank one; on the segment some dual matrices have rank 2.  A
    # quadratic nonnegative on the segment has at most one interior zero, so a rank-2 block
    # has an atom at an end (often at both: -tau and +tau)
    assert np.any(vs.rank == 2)
    for i in np.flatnonzero(vs.rank == 2):
        th = np.sort(vs.theta[vs.index == i])
        assert np.isclose(th[0], -TAU) or np.isclose(th[1], TAU), th
    assert 0 < v["n_support_trajectories"] < len(y)


@pytest.mark.parametrize("C", [None, 0.01])
def test_virtual_support_vectors_on_real_line(usps19, C):
    """On R the dual matrices of trajectories with y_i w'x_i2 = 0 at the optimum are rank 2
    with mass at infinity: mu_i = mu_i0 delta_{mu_i1/mu_i0} + (mu_i2 - mu_i1^2/mu_i0) e_2.
    A rank-one extraction missed that mass (w residual 0.65 hard / 0.40 soft)."""
    X, y, _ = usps19
    r = ck.solve(sdpm.primal(X, y, None, C), "clarabel")
    assert r.status.has_solution and r.rel_gap <= 1e-7, r
    w, b, mu = r.x["w"], float(r.x["b"]), r.x["mu"]
    v = check_virtual_support_vectors(X, y, w, b, mu, segment=None, C=C)
    assert v["ok"], {k: v[k] for k in v if k != "support"}
    assert v["w_residual"] < 1e-6 and v["margin_residual"] < 1e-5
    vs = v["support"]
    at_inf = ~np.isfinite(vs.theta)
    assert v["n_at_infinity"] == at_inf.sum() > 0
    for i in vs.index[at_inf]:
        # the atom at infinity sits on a zero leading coefficient, in a rank-2 dual block
        assert abs(y[i] * X[i, 2] @ w) <= 1e-6 * np.linalg.norm(w) * np.linalg.norm(X[i, 2])
        assert vs.rank[i] == 2
        H = sos.hankel(mu[i][None])[0]
        assert np.linalg.eigvalsh(H)[0] > 1e-3 * np.linalg.eigvalsh(H)[1]
    # the true numerical rank: trajectories with a rank-2 dual matrix exist on R
    assert np.any(vs.rank == 2) and np.all(vs.rank <= 2)


def test_real_line_degree2_collapses_and_agrees(usps19):
    X, y, _ = usps19
    C = 0.01
    f = sdpm.primal(X, y, segment=None, C=C)
    r = ck.solve(f, "clarabel")
    assert r.status is ck.Status.OPTIMAL, r.message
    rp = ck.solve(sdpm.primal(X, y, None, C, cone="psd"), "clarabel")
    rd = ck.solve(sdpm.dual(X, y, None, C), "clarabel")
    assert _rel(r.primal_value, rp.primal_value) <= RTOL
    assert _rel(r.primal_value, rd.primal_value) <= RTOL
    # every trajectory forces y_i w'x_i'' >= 0 on R (the pitfall the docs explain): a
    # smaller feasible set than on a segment
    w = r.x["w"]
    assert np.all(y * (X[:, 2] @ w) >= -1e-12 * np.linalg.norm(w))
    rs = ck.solve(sdpm.primal(X, y, TAU, C), "clarabel")
    assert r.primal_value > rs.primal_value
    # The collapse: in the two features of Figure 2(a) (mean intensity of the top and bottom
    # halves) no w separates the whole parabolas x_i(theta), theta in R, of these 20 digits:
    # the hard margin is infeasible on R, and the soft-margin optimum is the trivial
    # classifier w = 0 with every xi_i = 1, objective C m for balanced classes (certified
    # to 1e-7), while on the segment both give a proper separator.
    Xf = X @ transforms.half_means()
    Cf = 1.0
    rr = ck.solve(sdpm.primal(Xf, y, None, Cf), "clarabel")
    rf = ck.solve(sdpm.primal(Xf, y, TAU, Cf), "clarabel")
    assert rr.status.has_solution and rf.status.has_solution
    assert rr.rel_gap <= 1e-7 and rr.primal_value == pytest.approx(Cf * len(y), rel=1e-7)
    assert np.linalg.norm(rr.x["w"]) <= 1e-8 * np.linalg.norm(rf.x["w"])
    # on the segment the optimum beats the trivial classifier (measured 18.2 < 20)
    assert rf.primal_value < (1 - 1e-3) * Cf * len(y) and rf.rel_gap <= 1e-7
    assert ck.solve(sdpm.primal(Xf, y, None, None), "clarabel").status is ck.Status.INFEASIBLE
    assert ck.solve(sdpm.primal(Xf, y, TAU, None), "clarabel").status is ck.Status.OPTIMAL


@pytest.mark.parametrize("C", [None, 0.01])
def test_exchange_on_real_line_matches_socp(usps19, C):
    """On R the leading coefficient of some trajectories is zero at the optimum: the
    exchange method used to pick theta* ~ 1e12 there and crash the master QP.  With
    normalised cuts on the circle it converges; both gaps are certified from the data, so
    the two optima agree to the exchange tolerance plus Clarabel's certified gap."""
    X, y, _ = usps19
    ref = ck.solve(sdpm.primal(X, y, None, C), "clarabel")
    assert ref.status.has_solution and ref.rel_gap <= 1e-7, ref
    re = ck.solve(sdpm.primal(X, y, None, C), "exchange", tol=1e-6)
    assert re.status is ck.Status.OPTIMAL and re.rel_gap <= 1e-6, (re, re.message)
    assert _rel(re.primal_value, ref.primal_value) <= 1e-6 + ref.rel_gap
    # both certified brackets contain the optimum
    assert re.dual_value <= ref.primal_value * (1 + 1e-12)
    assert ref.dual_value <= re.primal_value * (1 + 1e-12)


def test_exchange_master_failure_is_a_status(usps19, monkeypatch):
    import cvxpy as cp

    X, y, _ = usps19
    f = sdpm.primal(X, y, TAU, 0.01)

    def fail(*args, **kwargs):
        raise cp.SolverError("Solver 'CLARABEL' failed (simulated)")

    monkeypatch.setattr(cp.Problem, "solve", fail)
    r = ck.solve(f, "exchange", master="cvxpy")
    assert r.status is ck.Status.ERROR and "simulated" in r.message, r
    assert not r.status.has_solution


def test_exchange_rejects_unknown_init(usps19):
    X, y, _ = usps19
    with pytest.raises(InvalidInputError, match="init"):
        ck.solve(sdpm.primal(X, y, TAU, 0.01), "exchange", init="bogus")


def test_normalized_min_on_R_against_dense_circle():
    from convexkern.algorithms.exchange import cut_moments, normalized_min_R

    rng = np.random.default_rng(7)
    phi = np.linspace(-np.pi / 2, np.pi / 2, 400001)[1:-1]
    for r in (2, 4):
        F = rng.normal(size=(6, r + 1))
        v, t = normalized_min_R(F)
        # the circle grid includes theta = tan(phi) up to ~1e5; infinity is the lead coeff
        dense = np.minimum((cut_moments(np.tan(phi), r) @ F.T).min(0), F[:, r])
        assert np.all(v <= dense + 1e-12)  # a true minimum is below every grid value
        assert np.all(dense - v <= 1e-9)  # grid spacing 8e-6 rad: quadratic error ~1e-10
        # the returned minimiser attains the returned value
        np.testing.assert_allclose(np.einsum("ik,ik->i", cut_moments(t, r), F), v, atol=1e-12)


@pytest.mark.parametrize("segment", [0.6, None])
def test_degree4_sdp_matches_dual(segment):
    rng = np.random.default_rng(0)
    m, n = 16, 4
    X = rng.normal(size=(m, 5, n)) * np.array([1, 0.5, 0.3, 0.1, 0.05])[None, :, None]
    y = np.where(np.arange(m) % 2, 1.0, -1.0)
    X[:, 0, 0] += 1.5 * y
    X[:, 4] = 0.0
    X[:, 4, 0] = 0.05 * y  # a quartic term that w can keep nonnegative on R
    f = sdpm.primal(X, y, segment, C=1.0)
    assert f.cone_class == "SDP"
    # The certified gap of the degree-4 SDP is ~10x the solver's own accuracy (the dual
    # PSD multipliers are less accurate than the primal), so at the default settings it is
    # 1e-8..1e-7 relative rather than the 1e-9 Clarabel reaches on the SOCP forms.
    r = ck.solve(f, "clarabel")
    rd = ck.solve(sdpm.dual(X, y, segment, 1.0), "clarabel")
    assert r.status.has_solution and rd.status.has_solution, (r, rd)
    assert r.rel_gap <= RTOL and rd.rel_gap <= RTOL
    assert _rel(r.primal_value, rd.primal_value) <= RTOL
    if segment is not None:
        rs = ck.solve(sdpm.primal(X, y, segment, 1.0, method="substitution"), "clarabel")
        assert _rel(rs.primal_value, r.primal_value) <= RTOL
    # Propositions 2 and 3 at degree 4: the atoms (Prony's points of the flat moment
    # matrices) reproduce w and lie on the margin.  The moments and w are accurate to the
    # certified gap (~1e-7 relative), hence the 1e-6 bounds.
    v = check_virtual_support_vectors(X, y, r.x["w"], float(r.x["b"]), r.x["mu"],
                                           segment=segment, C=1.0)
    assert v["ok"], {k: v[k] for k in v if k != "support"}
    assert v["w_residual"] < 1e-6 and v["margin_residual"] < 1e-6
    vs = v["support"]
    assert vs.index.size > 0 and np.all(vs.alpha > 0)
    if segment is not None:
        assert np.all(np.abs(vs.theta) <= segment)


def test_odd_degree_certificate_stays_below_optimum():
    """r = 3 on a segment: any moments are repaired into the odd-degree moment cone (both
    localising matrices of tau +- theta), so a perturbed mu_3 never certifies a lower bound
    above the optimum.  (Clipping |mu_3| <= tau mu_2 only gave 0.958 > OPT = 0.910 here.)"""
    rng = np.random.default_rng(0)
    m, n, tau = 12, 4, 0.8
    X = rng.normal(size=(m, 4, n)) * np.array([1, 0.5, 0.3, 0.2])[None, :, None]
    y = np.where(np.arange(m) % 2, 1.0, -1.0)
    X[:, 0, 0] += 2 * y
    r = ck.solve(sdpm.primal(X, y, tau, 1.0), "clarabel", tol=1e-9)
    assert r.status.has_solution and r.rel_gap <= 1e-7
    opt = r.primal_value
    rd = ck.solve(sdpm.dual(X, y, tau, 1.0), "clarabel", tol=1e-9)
    assert _rel(rd.primal_value, opt) <= RTOL
    best = -np.inf
    for _ in range(200):
        mu = r.x["mu"].copy()
        mu[:, 3] = rng.uniform(-1, 1, size=m) * tau * np.maximum(mu[:, 2], 0)
        c = sdpm.certificate(X, y, segment=tau, C=1.0, mu=mu)
        best = max(best, c.dual_value)
    # opt (r.primal_value) is a certified upper bound: a valid lower bound stays below it
    assert best <= opt * (1 + 1e-12), (best, opt)


def test_scs_solves_it(usps19):
    X, y, _ = usps19
    f = sdpm.primal(X, y, TAU, 0.005)
    ref = ck.solve(f, "clarabel")
    r = ck.solve(f, "scs", tol=1e-5)
    # OPTIMAL means the certified gap (recomputed from the data) meets tol = 1e-5; SCS gets
    # there on this problem (measured: rel gap 8e-8, 4e-10 from Clarabel's optimum)
    assert r.status is ck.Status.OPTIMAL and r.rel_gap <= 1e-5, r
    # both brackets contain the optimum, so they overlap, and the two upper bounds differ
    # by at most the sum of the certified gaps
    assert ref.dual_value <= r.primal_value and r.dual_value <= ref.primal_value
    assert abs(r.primal_value - ref.primal_value) <= r.gap + ref.gap
    assert _rel(r.primal_value, ref.primal_value) <= 1e-5


def test_certificate_bounds_are_valid(usps19):
    X, y, _ = usps19
    f = sdpm.primal(X, y, TAU, 0.005)
    r = ck.solve(f, "clarabel")
    opt = r.primal_value
    rng = np.random.default_rng(1)
    for s in (1e-3, 1e-1):
        w = r.x["w"] * (1 + s * rng.normal(size=r.x["w"].size))
        mu = r.x["mu"] * (1 + s * rng.normal(size=r.x["mu"].shape))
        c = sdpm.certificate(X, y, segment=TAU, C=0.005, w=w, mu=mu)
        assert c.dual_value <= opt * (1 + 1e-8) and c.primal_value >= opt * (1 - 1e-8)
    # the repaired primal point is feasible: its exact worst-case margins are >= 1 - xi
    c = sdpm.certificate(X, y, segment=TAU, C=None, w=r.x["w"] * 0.7)
    marg, _ = sdpm.worst_case(X @ c.point["w"], y, TAU)
    assert np.min(marg + y * float(c.point["b"])) >= 1 - 1e-12


def test_infeasible_hard_margin_is_a_status():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(6, 3, 3))
    X = np.concatenate([X, X])  # the same trajectories with opposite labels
    y = np.r_[np.ones(6), -np.ones(6)]
    f = sdpm.primal(X, y, 0.3, C=None)
    for solver in ("clarabel", "scs"):
        r = ck.solve(f, solver)
        assert r.status is ck.Status.INFEASIBLE and "soft margin" in r.message, r
    re = ck.solve(f, "exchange")
    assert re.status is ck.Status.INFEASIBLE and "soft margin" in re.message
    rd = ck.solve(sdpm.dual(X, y, 0.3, C=None), "clarabel")
    assert rd.status is ck.Status.UNBOUNDED and "soft margin" in rd.message, rd


def test_kernel_dual_rejects_bad_gram():
    """dual(G=...) never symmetrises G or drops negative eigenvalues silently."""
    rng = np.random.default_rng(4)
    A = rng.normal(size=(4, 3, 5)) * np.array([1, 0.3, 0.1])[None, :, None]
    y = np.array([1.0, -1.0, 1.0, -1.0])
    G = sdpm.trajectory_kernel(RBF(gamma=0.2), A)
    assert ck.solve(sdpm.dual(None, y, 0.3, 1.0, G=G), "clarabel").status.has_solution
    Gn = G.copy()
    Gn[0, 1, 2, 0] += 1e-3  # one entry off: not symmetric
    with pytest.raises(InvalidInputError, match="G.*symmetric"):
        sdpm.dual(None, y, 0.3, 1.0, G=Gn)
    Gi = G.reshape(12, 12) - 0.01 * np.eye(12) * np.abs(np.linalg.eigvalsh(G.reshape(12, 12))).max()
    with pytest.raises(InvalidInputError, match="G.*positive semidefinite"):
        sdpm.dual(None, y, 0.3, 1.0, G=Gi.reshape(4, 3, 4, 3))


def test_kernel_on_derivative_pairs():
    rng = np.random.default_rng(3)
    A = rng.normal(size=(4, 3, 5)) * np.array([1, 0.3, 0.1])[None, :, None]
    # linear kernel: exactly the coefficient inner products
    G = sdpm.trajectory_kernel(Linear(), A)
    np.testing.assert_allclose(G, np.einsum("iun,jvn->iujv", A, A), atol=1e-12)
    for k in (Polynomial(degree=3, gamma=0.5, coef0=1.0), RBF(gamma=0.2)):
        G = sdpm.trajectory_kernel(k, A)
        assert G.shape == (4, 3, 4, 3)

        def g(i, j, t, p, k=k):
            a = A[i, 0] + t * A[i, 1] + t * t * A[i, 2]
            b = A[j, 0] + p * A[j, 1] + p * p * A[j, 2]
            return float(k(a[None], b[None])[0, 0])

        h = 1e-3
        for i, j in ((0, 1), (2, 2)):
            d10 = (g(i, j, h, 0) - g(i, j, -h, 0)) / (2 * h)
            d11 = (g(i, j, h, h) - g(i, j, h, -h) - g(i, j, -h, h) + g(i, j, -h, -h)) / (4 * h * h)
            d20 = (g(i, j, h, 0) - 2 * g(i, j, 0, 0) + g(i, j, -h, 0)) / (h * h) / 2
            assert G[i, 0, j, 0] == pytest.approx(g(i, j, 0, 0), rel=1e-12)
            assert G[i, 1, j, 0] == pytest.approx(d10, rel=1e-5, abs=1e-6)
            assert G[i, 1, j, 1] == pytest.approx(d11, rel=1e-4, abs=1e-6)
            assert G[i, 2, j, 0] == pytest.approx(d20, rel=1e-4, abs=1e-6)
        lam = np.linalg.eigvalsh(G.reshape(12, 12))
        assert lam.min() >= -1e-10 * lam.max()


def test_kernel_dual_with_linear_kernel_is_the_linear_dual(usps19):
    X, y, _ = usps19
    G = sdpm.trajectory_kernel(Linear(), X)
    rk = ck.solve(sdpm.dual(None, y, TAU, 0.005, G=G), "clarabel")
    rl = ck.solve(sdpm.dual(X, y, TAU, 0.005), "clarabel")
    assert rk.status is ck.Status.OPTIMAL
    assert _rel(rk.primal_value, rl.primal_value) <= RTOL


def test_rotation_taylor_expansion_against_true_rotations(usps19):
    _, _, imgs = usps19
    # The derivatives are central differences with a 1-degree step, so at +-1 degree the
    # quadratic expansion interpolates the true rotation exactly: test away from the step.
    ang = np.radians([2.0, 5.0, 10.0])
    e = transforms.taylor_error(imgs, ang)
    # the quadratic term helps at small angles (measured: 0.023 vs 0.23 at 2 degrees, 0.20
    # vs 0.46 at 5); its error is O(theta^3) against a change O(theta), so the relative
    # error grows about like theta^2 (x6.25 from 2 to 5 degrees; measured x8.8)
    assert e["rel_err_2"][0] < 0.2 * e["rel_err_1"][0]
    assert e["rel_err_2"][1] < 0.6 * e["rel_err_1"][1]
    assert 4.0 < e["rel_err_2"][1] / e["rel_err_2"][0] < 16.0
    # at the paper's 10 degrees the expansion is coarse (barely smoothed 16x16 digits; the
    # median relative error is ~0.87) but still below the size of the change itself
    assert e["rel_err_2"][2] < 1.0
    # mode="constant" clips the spline at the frame: the same expansion is far worse
    ec = transforms.taylor_error(imgs, ang, mode="constant")
    assert np.all(e["rel_err_2"] < 0.1 * ec["rel_err_2"])
    assert np.all(e["rel_err_1"] < 0.5 * ec["rel_err_1"])
    # ... because of a kink at theta = 0: its second difference quotient blows up as the
    # step shrinks (~1/h), while grid-constant's converges
    x0 = transforms.smooth(imgs)

    def second_diff(h, mode):
        rot = [transforms.rotate(x0, t, smoothed=True, mode=mode) for t in (h, -h)]
        return np.linalg.norm(rot[0] - 2 * x0 + rot[1]) / h**2

    small, big = np.radians(0.05), np.radians(1.0)
    grid = second_diff(small, "grid-constant") / second_diff(big, "grid-constant")
    const = second_diff(small, "constant") / second_diff(big, "constant")
    assert abs(grid - 1) < 0.1 and const > 10, (grid, const)
    T = transforms.rotation_trajectories(imgs[:2])
    assert T.shape == (2, 3, 256)
    np.testing.assert_allclose(transforms.rotate(T[:, 0], 0.0, smoothed=True), T[:, 0],
                               atol=1e-10)
    with pytest.raises(InvalidInputError, match="mode"):
        transforms.rotate(imgs[:1], 0.1, mode="nearest")


def test_bad_input(usps19):
    X, y, imgs = usps19
    with pytest.raises(InvalidInputError, match="X_traj"):
        sdpm.primal(X[:, :, :].reshape(20, -1), y)
    with pytest.raises(InvalidInputError, match="even"):
        sdpm.primal(X[:, :2], y, segment=None)
    with pytest.raises(InvalidInputError, match="segment"):
        sdpm.primal(X, y, segment=0.0)
    with pytest.raises(InvalidInputError, match="segment"):
        sdpm.primal(X, y, segment=-0.1)
    Xn = X.copy()
    Xn[0, 1, 3] = np.nan
    with pytest.raises(InvalidInputError, match="non-finite"):
        sdpm.primal(Xn, y)
    with pytest.raises(InvalidInputError, match="y"):
        sdpm.primal(X, y[:-1])
    with pytest.raises(InvalidInputError, match="C"):
        sdpm.primal(X, y, C=-1.0)
    bad = imgs[:2].copy()
    bad[0, 5] = np.nan
    with pytest.raises(InvalidInputError, match="images"):
        transforms.rotation_trajectories(bad)


@pytest.mark.parametrize("kernel", ["linear", Polynomial(degree=2, gamma=1 / 256, coef0=1.0)])
def test_estimator_fits_real_digits(usps19, kernel):
    from sklearn.base import clone

    ds = load_usps("test")
    keep = (ds.y == 1) | (ds.y == 9)
    _, y, imgs = usps19
    labels = np.where(y > 0, 1, 9)
    clf = SDPMClassifier(invariance="rotation", segment=TAU, C=1.0,
                         kernel=kernel).fit(imgs, labels)
    assert clf.report_.status.has_solution and clf.report_.rel_gap <= 1e-6
    acc = clf.score(ds.X[keep][:200], ds.y[keep][:200])
    assert acc >= 0.9  # 1 vs 9 is an easy pair; 20 training images suffice
    if kernel == "linear":
        vs = clf.virtual_support_
        assert vs.index.size > 0
        # the virtual support vectors reproduce the weight vector (Proposition 2)
        w = (vs.alpha * np.where(labels[vs.index] == 9, 1.0, -1.0)) @ vs.points
        np.testing.assert_allclose(w, clf.coef_, atol=1e-5 * np.linalg.norm(clf.coef_))
    c2 = clone(clf)
    assert c2.get_params()["segment"] == TAU and not hasattr(c2, "report_")



def test_estimator_without_invariance_is_the_linear_svm(usps19):
    """The default (no invariance) fits degree-0 trajectories: the soft-margin linear SVM on
    the raw images, as LIBSVM's; each support vector is its own virtual support vector."""
    from sklearn.svm import SVC

    _, y, imgs = usps19
    ds = load_usps("test")
    test = ds.X[(ds.y == 1) | (ds.y == 9)][:100]
    clf = SDPMClassifier(C=0.01, tol=1e-8).fit(imgs, y)
    ref = SVC(kernel="linear", C=0.01, tol=1e-10).fit(imgs, y)
    assert clf.report_.status is ck.Status.OPTIMAL and clf.report_.rel_gap <= 1e-8
    assert clf.report_.formulation.endswith("r=0, SOCP)")
    d, d_ref = clf.decision_function(test), ref.decision_function(test)
    np.testing.assert_allclose(d, d_ref, rtol=1e-5, atol=1e-5 * np.abs(d_ref).max())
    np.testing.assert_allclose(clf.coef_, ref.coef_[0], atol=1e-5 * np.abs(ref.coef_).max())
    vs = clf.virtual_support_
    np.testing.assert_array_equal(vs.theta, 0.0)
    np.testing.assert_array_equal(vs.points, imgs[vs.index])
    np.testing.assert_array_equal(np.sort(vs.index), np.sort(ref.support_))
    np.testing.assert_allclose(vs.alpha, clf.mu_[vs.index, 0])
    # a callable returning the same degree-0 trajectories is the same model
    same = SDPMClassifier(invariance=lambda X: X[:, None, :], C=0.01, tol=1e-8).fit(imgs, y)
    np.testing.assert_array_equal(same.decision_function(test), d)


def test_estimator_invariance_errors(usps19):
    _, y, imgs = usps19
    with pytest.raises(InvalidInputError, match="invariance: must map .* got shape"):
        SDPMClassifier(invariance=lambda X: X[:, None, :-1]).fit(imgs, y)
    with pytest.raises(InvalidInputError, match=r"invariance\(X\): expected shape"):
        SDPMClassifier(invariance=lambda X: X).fit(imgs, y)
    with pytest.raises(InvalidInputError, match="images: expected shape"):
        SDPMClassifier(invariance="rotation").fit(imgs[:, :100], y)
    with pytest.raises(ValueError, match="'invariance' parameter"):
        SDPMClassifier(invariance="scaling").fit(imgs, y)

def test_reproduction_fits_check_the_status(usps19, monkeypatch):
    """A failed solve inside the reproduction is an error naming the status, not a
    KeyError on a missing variable."""
    from convexkern.errors import SolverError
    from convexkern.reproduce import graepel2003

    X, y, imgs = usps19
    solve = ck.solve
    monkeypatch.setattr(ck, "solve", lambda f, s, **kw: solve(f, s, max_iter=1))
    with pytest.raises(SolverError, match="SDPM.*iteration_limit"):
        graepel2003._sdpm_fit(X, y, TAU, 10.0)
    with pytest.raises(SolverError, match="SVM.*iteration_limit"):
        graepel2003._svm_fit(X[:, 0], y, 10.0)


@pytest.mark.slow
def test_reproduction_quick_runs(tmp_path):
    from convexkern.reproduce import harness

    res = harness.run("graepel2003", quick=True, out_dir=tmp_path, verbose=False)
    assert (tmp_path / "graepel2003" / "report.md").exists()
    a = res.data["figure2a"]
    assert a["rel_gap"] < 1e-6
    assert abs(a["exchange_objective"] - a["objective"]) <= 1e-6 * a["objective"]
    err = np.asarray(res.data["mean_errors"])
    assert err.shape == (3, 3) and np.all((0 <= err) & (err <= 0.5))
    report = (tmp_path / "graepel2003" / "report.md").read_text(encoding="utf-8")
    assert "paper (Graepel & Herbrich 2003, Fig. 2)" in report
    assert "slightly better than the VSVM" in report


def test_graepel_report_prints_the_paper_beside_our_counts():
    from convexkern.reproduce import graepel2003

    # made-up mean errors (SVM, virtual SVM, SDPM) of three tasks
    mean = np.array([[0.10, 0.08, 0.07], [0.05, 0.05, 0.05], [0.02, 0.01, 0.03]])
    a_out = {"virtual_sv_index": [4, 5], "virtual_sv_theta_deg": [-20.0, 18.9]}
    rows = graepel2003.paper_rows([(1, 7), (3, 5), (4, 9)], 3, 250, mean, a_out)
    assert [r[0] for r in rows] == ["protocol", "(a)", "(b)", "(c)"]
    assert rows[2][1] == graepel2003.PAPER_FIGURE2["b"]
    assert "1 / 1 / 1 of 3 tasks" in rows[2][2]  # SDPM vs SVM: below, equal, above
    assert "1 / 1 / 1 of 3 tasks" in rows[3][2]
    assert "mean error SVM 5.67 %, SDPM 5.00 %" in rows[2][2]
    assert "-20.0°, 18.9°" in rows[1][2]


def test_several_parameters_reduce_to_one(usps19):
    """With D = 1 the (D+1)-LMI is the 2x2 Gram condition on R, and the box S-procedure is
    the Lukacs form (the S-lemma is exact for one quadratic constraint)."""
    X, y, _ = usps19
    X, y = X[:12], y[:12]
    y = np.where(np.arange(12) % 2, 1.0, -1.0)
    C = 0.01
    J, H = X[:, 1:2], 2.0 * X[:, 2:3, None, :]
    for box, seg in ((None, None), (TAU, TAU)):
        rm = ck.solve(sdpm.primal_multi(X[:, 0], J, H, y, C, box=box), "clarabel")
        r1 = ck.solve(sdpm.primal(X, y, seg, C), "clarabel")
        assert rm.status.has_solution
        assert _rel(rm.primal_value, r1.primal_value) <= 1e-6


def _multi_data():
    """D = 2 synthetic expansions (no real two-parameter data ships with the package):
    Hessians positive along w's main direction, so w does not collapse without a box."""
    rng = np.random.default_rng(3)
    m, n, D = 25, 5, 2
    X0 = rng.normal(size=(m, n))
    y = np.sign(X0[:, 0] + 0.1)
    X0[:, 0] += 1.5 * y
    J = 0.3 * rng.normal(size=(m, D, n))
    H = 0.05 * rng.normal(size=(m, D, D, n))
    H = 0.5 * (H + H.transpose(0, 2, 1, 3))
    H[:, 0, 0, 0] += 0.5 * y
    H[:, 1, 1, 0] += 0.5 * y
    return X0, J, H, y


def _multi_dual_value(X0, J, H, y, C, box):
    """The dual of primal_multi written out independently (one PSD variable per example)."""
    import cvxpy as cp

    m, D = J.shape[:2]
    Z = [cp.Variable((D + 1, D + 1), PSD=True) for _ in range(m)]
    v = sum(y[i] * (Z[i][0, 0] * X0[i] + J[i].T @ Z[i][0, 1:]
                    + 0.5 * sum(Z[i][1 + a, 1 + b] * H[i, a, b]
                                for a in range(D) for b in range(D)))
            for i in range(m))
    cons = [sum(y[i] * Z[i][0, 0] for i in range(m)) == 0]
    if C is not None:
        cons += [Z[i][0, 0] <= C for i in range(m)]
    if box is not None:
        cons += [Z[i][a, a] <= box**2 * Z[i][0, 0] for i in range(m) for a in range(1, D + 1)]
    p = cp.Problem(cp.Maximize(sum(Z[i][0, 0] for i in range(m)) - 0.5 * cp.sum_squares(v)),
                   cons)
    p.solve(solver="CLARABEL")
    assert p.status == cp.OPTIMAL
    return p.value


@pytest.mark.parametrize("C", [1.0, None])
@pytest.mark.parametrize("box", [None, 0.4])
def test_several_parameters_certified_D2(C, box):
    """primal_multi with D = 2: the certificate brackets the optimum of the independently
    written dual, the repaired point is feasible on a grid of the parameter square, and SCS
    stopped after 30 iterations is not reported optimal (its bounds still bracket it)."""
    X0, J, H, y = _multi_data()
    f = sdpm.primal_multi(X0, J, H, y, C, box=box)
    r = ck.solve(f, "clarabel", tol=1e-9)
    assert r.status is ck.Status.OPTIMAL and r.rel_gap <= 1e-8, r
    assert r.dual_value <= r.primal_value
    # the independent dual is solved at Clarabel's default accuracy (~1e-8 relative)
    opt = _multi_dual_value(X0, J, H, y, C, box)
    assert r.dual_value <= opt * (1 + 1e-7) and opt <= r.primal_value * (1 + 1e-7)
    # the upper bound is the objective at a feasible point: margins >= 1 - xi on a grid
    # (box: the square itself; no box: a large square of R^2)
    w, b, xi = r.x["w"], float(r.x["b"]), r.x["xi"]
    assert r.primal_value == pytest.approx(
        0.5 * w @ w + (0.0 if C is None else C * xi.sum()), rel=1e-12)
    L = 3.0 if box is None else box
    g = np.linspace(-L, L, 81)
    T = np.stack(np.meshgrid(g, g), -1).reshape(-1, 2)
    xt = (X0[:, None, :] + np.einsum("ka,ian->ikn", T, J)
          + 0.5 * np.einsum("ka,kb,iabn->ikn", T, T, H))
    marg = y[:, None] * (xt @ w + b) - (1 - xi)[:, None]
    assert marg.min() >= -1e-10, marg.min()
    rs = ck.solve(f, "scs", max_iter=30)
    assert rs.status is not ck.Status.OPTIMAL
    assert rs.dual_value <= r.primal_value * (1 + 1e-12)
    assert rs.primal_value >= r.dual_value * (1 - 1e-12)


@pytest.mark.parametrize("solver", ["clarabel", "ecos", "scs", "exchange"])
def test_every_installed_solver_agrees(usps19, solver):
    X, y, _ = usps19
    f = sdpm.primal(X, y, TAU, 0.005)
    if solver not in ck.available_solvers(f):
        pytest.skip(f"{solver} not installed")
    ref = ck.solve(sdpm.dual(X, y, TAU, 0.005), "clarabel").primal_value
    r = ck.solve(f, solver)
    assert r.status.has_solution
    # SOLVER_RTOL for conic solvers; the exchange method stops at its 1e-6 certified gap
    assert r.primal_value == pytest.approx(ref, rel=SOLVER_RTOL.get(solver, 1e-6))
    assert r.dual_value <= ref * (1 + 1e-8) <= r.primal_value * (1 + 2e-8)


def test_C_must_stay_positive_after_the_build(usps19):
    """C is a pos=True Parameter of primal, dual and primal_multi: set_params and ck.path
    refuse C = 0 naming it, and a 0 written on the cvxpy Parameter directly (which cvxpy
    accepts) is refused by every solver before it runs, naming C (it used to fail later,
    inside the certificate)."""
    X, y, _ = usps19
    X0, J, H, ym = _multi_data()
    builds = [sdpm.primal(X, y, TAU, 0.005), sdpm.dual(X, y, TAU, 0.005),
              sdpm.primal_multi(X0, J, H, ym, 1.0)]
    for f in builds:
        assert f.parameters["C"].is_pos() and f.problem.is_dpp()
        for bad in (0.0, -1.0, float("nan")):
            with pytest.raises(InvalidInputError, match="C"):
                f.set_params(C=bad)
        with pytest.raises(InvalidInputError, match="C"):
            ck.path(f, "C", [0.0])
        f.parameters["C"].value = 0.0
        solvers = ["clarabel", "exchange"] if f.kind == "sdpm.primal" else ["clarabel"]
        for solver in solvers:
            with pytest.raises(InvalidInputError, match="C"):
                ck.solve(f, solver)
        with pytest.raises(InvalidInputError, match="C"):
            f.param("C")


# ---------------------------------------------------------------- foreign exceptions
def _small_traj():
    rng = np.random.default_rng(3)
    return rng.normal(size=(10, 3, 2)), np.array([1.0, -1.0] * 5)


@pytest.mark.parametrize("kwargs, start", [
    ({"w": np.ones(3)}, "w: expected shape (2,)"),
    ({"w": np.ones((2, 2))}, "w: expected a 1-d array"),
    ({"mu": np.ones((10, 2))}, "mu: expected shape (10, 3)"),
    ({"mu": np.ones((9, 3))}, "mu: expected shape (10, 3)"),
    ({"mu": np.ones(10)}, "mu: expected a 2-d array"),
    ({"mu": "x"}, "mu: expected an array of numbers"),
])
def test_certificate_wrong_shapes_name_the_argument(kwargs, start):
    from convexkern.errors import ConvexkernError

    X, y = _small_traj()
    with pytest.raises((ValueError, TypeError)) as exc:
        sdpm.certificate(X, y, **kwargs)
    assert isinstance(exc.value, ConvexkernError)
    assert str(exc.value).startswith(start)


def test_certificate_bad_data_name_the_argument():
    X, y = _small_traj()
    with pytest.raises(InvalidInputError, match=r"^y: has 9 labels"):
        sdpm.certificate(X, y[:9], w=np.ones(2))
    with pytest.raises(TypeError, match=r"^X_traj: "):
        sdpm.certificate("x", y, w=np.ones(2))
    with pytest.raises(InvalidInputError, match=r"^G: "):
        sdpm.certificate(None, y, mu=np.ones((10, 3)), G=np.ones((5, 5)))


def test_primal_multi_bad_arrays_name_the_argument():
    from convexkern.errors import InvalidTypeError

    rng = np.random.default_rng(4)
    X0, J, H = rng.normal(size=(10, 2)), rng.normal(size=(10, 1, 2)), rng.normal(size=(10, 1, 1, 2))
    y = np.array([1.0, -1.0] * 5)
    for args, name in (((X0, "J", H), "J"), (("X0", J, H), "X0"), ((X0, J, "H"), "H")):
        with pytest.raises(InvalidTypeError, match=rf"^{name}: ") as exc:
            sdpm.primal_multi(*args, y)
        assert exc.value.argument == name
    with pytest.raises(InvalidInputError, match=r"^H: expected a 4-d array"):
        sdpm.primal_multi(X0, J, None, y)
    with pytest.raises(InvalidInputError, match=r"^J: expected shape"):
        sdpm.primal_multi(X0, rng.normal(size=(9, 1, 2)), H, y)
    with pytest.raises(InvalidInputError, match=r"^w: expected shape \(2,\)"):
        sdpm.certificate_multi(X0, J, H, y, w=np.ones(5))
    with pytest.raises(InvalidInputError, match=r"^Z: expected shape"):
        sdpm.certificate_multi(X0, J, H, y, w=np.ones(2), Z=np.ones((10, 3, 3)))


@pytest.mark.parametrize("bad", [[1, None] * 5, [1, "a"] * 5])
def test_sdpm_builders_bad_label_values_name_y(bad):
    X, _ = _small_traj()
    for build in (sdpm.primal, sdpm.dual):
        with pytest.raises(InvalidInputError, match=r"^y: (contains None|mixes label types)"):
            build(X, bad)


def test_sdpm_classifier_sparse_X_is_refused_naming_X():
    import scipy.sparse as sp

    from convexkern.errors import InvalidTypeError

    X = np.random.default_rng(5).normal(size=(10, 2))
    y = np.array([1, -1] * 5)
    with pytest.raises(InvalidTypeError, match=r"^X: sparse input is not supported"):
        SDPMClassifier().fit(sp.csr_matrix(X), y)
    clf = SDPMClassifier().fit(X, y)
    with pytest.raises(InvalidTypeError, match=r"^X: sparse input is not supported"):
        clf.decision_function(sp.csr_matrix(X))
