# ruff: noqa: E741  (l: half-degree, the paper's notation)
"""Nonnegative univariate polynomials (convexkern.math.sos): Gram forms on R and on a segment.

Tolerances: Clarabel is run at its default accuracy (~1e-8 relative); minima of
O(1)-coefficient polynomials are compared to the exact root-based minimum at 1e-6.
"""

from __future__ import annotations

import cvxpy as cp
import numpy as np
import pytest

from convexkern.errors import InvalidInputError
from convexkern.math import sos

pytestmark = pytest.mark.filterwarnings("ignore:.*dimension greater than 2")
TOL = 1e-6


def _sos_min(F, segment, **kw):
    """max c s.t. p_i - c_i >= 0 on the domain, all rows in one vectorised constraint."""
    N, R = F.shape
    c = cp.Variable(N)
    E = cp.Constant(F) - cp.reshape(c, (N, 1), order="C") @ np.eye(R)[:1]
    con = sos.nonneg(E, segment, **kw)
    prob = cp.Problem(cp.Maximize(cp.sum(c)), con.constraints)
    prob.solve(solver="CLARABEL")
    assert prob.status == cp.OPTIMAL
    return c.value, con


def _grid_min(F, lo, hi):
    t = np.linspace(lo, hi, 20001)
    return np.array([np.polyval(f[::-1], t).min() for f in F])


@pytest.mark.parametrize("d", [2, 4])
@pytest.mark.parametrize("cone", ["auto", "psd"])
def test_min_on_R_matches_roots(d, cone):
    rng = np.random.default_rng(d)
    F = rng.normal(size=(8, d + 1))
    F[:, -1] = np.abs(F[:, -1]) + 0.5
    exact, arg = sos.poly_min(F, None)
    assert np.all(exact <= _grid_min(F, -6, 6) + 1e-9)
    got, con = _sos_min(F, None, cone=cone)
    np.testing.assert_allclose(got, exact, atol=TOL)
    # the dual functional of "p - c >= 0" with objective sum(c) is a probability measure
    # at the minimiser: moments (1, t*, t*^2, ...).  The minimiser of a polynomial at its
    # minimum is determined only to ~sqrt(solver accuracy) = 1e-4 (the value is flat there).
    mu = con.moments()
    np.testing.assert_allclose(mu, arg[:, None] ** np.arange(d + 1), atol=1e-3)


@pytest.mark.parametrize("d", [1, 2, 3, 4])
def test_segment_forms_agree(d):
    tau = 0.7
    rng = np.random.default_rng(10 + d)
    F = rng.normal(size=(10, d + 1))
    exact, _ = sos.poly_min(F, tau)
    np.testing.assert_allclose(exact, _grid_min(F, -tau, tau), atol=1e-7)
    a, con_a = _sos_min(F, tau, method="lukacs")
    b, con_b = _sos_min(F, tau, method="substitution")
    np.testing.assert_allclose(a, exact, atol=TOL)
    np.testing.assert_allclose(b, exact, atol=TOL)
    # both dual forms give moments of a measure on the segment
    for con in (con_a, con_b):
        mu = con.moments()
        assert np.all(sos.moment_violation(mu, tau) <= 1e-6)
        np.testing.assert_allclose(mu[:, 0], 1.0, atol=1e-6)


def test_quadratic_segment_is_socp_and_substitution_is_sdp():
    E = cp.Variable((5, 3))
    luk = sos.nonneg_on_segment(E, 0.3)
    sub = sos.nonneg_on_segment(E, 0.3, method="substitution")
    assert all(not isinstance(c, cp.constraints.PSD) for c in luk.constraints)
    assert len(luk.constraints) == 2  # one stacked SOC + one stacked sign constraint
    (psd,) = sub.constraints
    assert isinstance(psd, cp.constraints.PSD) and psd.args[0].shape == (5, 3, 3)


def test_gram_basis_sums_and_aux_count():
    for l in range(1, 5):
        Bp, Bz = sos.gram_basis(l)
        n = l + 1
        assert Bz.shape[0] == l * (l - 1) // 2
        anti = np.add.outer(np.arange(n), np.arange(n)).reshape(-1)
        for j in range(2 * l + 1):
            assert Bp[j, anti == j].sum() == pytest.approx(1.0)
        for row in Bz:  # auxiliary moves keep every anti-diagonal sum
            assert all(abs(row[anti == j].sum()) < 1e-12 for j in range(2 * l + 1))
            np.testing.assert_array_equal(row.reshape(n, n), row.reshape(n, n).T)


@pytest.mark.parametrize("method", ["lukacs", "substitution"])
def test_rejects_polynomial_dipping_below_zero_on_segment(method):
    tau = 0.5
    # p(theta) = (theta - 0.4)^2 - 0.001: negative only near 0.4, inside the segment
    dip = np.array([[0.16 - 0.001, -0.8, 1.0]])
    ok = np.array([[0.16 - 0.001, -0.8, 1.0]]) + np.array([[0.002, 0, 0]])
    for F, feasible in ((dip, False), (ok, True)):
        con = sos.nonneg_on_segment(F, tau, method=method)
        prob = cp.Problem(cp.Minimize(0), con.constraints)
        prob.solve(solver="CLARABEL")
        assert (prob.status == cp.OPTIMAL) == feasible, (method, F, prob.status)
    # a polynomial negative outside the segment only is accepted on it, rejected on R
    out = np.array([[1.0, 0.0, -1.0]])  # 1 - theta^2
    p1 = cp.Problem(cp.Minimize(0), sos.nonneg_on_segment(out, 0.9, method=method).constraints)
    p1.solve(solver="CLARABEL")
    assert p1.status == cp.OPTIMAL
    p2 = cp.Problem(cp.Minimize(0), sos.nonneg_on_R(out).constraints)
    p2.solve(solver="CLARABEL")
    assert p2.status in (cp.INFEASIBLE, cp.INFEASIBLE_INACCURATE)


def test_substitution_matrix_is_the_substitution():
    rng = np.random.default_rng(3)
    p = rng.normal(size=4)
    tau = 0.8
    T = sos.substitution_matrix(3, tau)
    for t in (-2.0, -0.3, 0.0, 1.7):
        th = tau * (t * t - 1) / (t * t + 1)
        lhs = (1 + t * t) ** 3 * np.polyval(p[::-1], th)
        assert np.polyval((T @ p)[::-1], t) == pytest.approx(lhs, rel=1e-12)


def test_moment_repair_and_atoms():
    tau = 0.5
    rng = np.random.default_rng(4)
    # measures with 1 or 2 atoms on the segment, including both ends
    cases = [(np.array([0.2]), np.array([1.5])),
             (np.array([-tau, tau]), np.array([0.3, 0.7])),
             (np.array([-0.1, tau]), np.array([0.4, 0.2]))]
    for th, wt in cases:
        mu = (wt[:, None] * th[:, None] ** np.arange(3)).sum(0)
        (t2, w2), = sos.atoms(mu[None], tau)
        mu2 = (w2[:, None] * t2[:, None] ** np.arange(3)).sum(0)
        np.testing.assert_allclose(mu2, mu, atol=1e-12)
        assert np.all(np.abs(t2) <= tau + 1e-12) and np.all(w2 >= 0)
    bad = rng.normal(size=(20, 5))
    fixed = sos.moment_repair(bad, tau)
    assert np.all(sos.moment_violation(fixed, tau) <= 1e-12)
    inside = np.array([[1.0, 0.1, 0.1, 0.0, 0.02]])
    np.testing.assert_array_equal(sos.moment_repair(inside, tau), inside)


@pytest.mark.parametrize("d", [3, 5])
def test_odd_degree_moment_cone_on_segment(d):
    """Odd degree 2l+1 on [-tau, tau]: the moment cone is both localising matrices of
    tau +- theta PSD.  Clipping |mu_d| <= tau mu_{d-1} is weaker: (1, 0, 1/2, 1/2) on
    [-1, 1] passes that clip but no measure has it (mean 0, second moment 1/2 and third
    moment 1/2 would need E[theta^2 (1 - theta)] = 0 with E[theta^2] > 0, so all mass at
    theta = 1, contradicting mean 0)."""
    tau = 0.8
    rng = np.random.default_rng(d)
    # true moment vectors: discrete measures inside and at the ends of the segment
    for _ in range(20):
        th = np.concatenate([rng.uniform(-tau, tau, 3), [-tau, tau]])
        wt = rng.uniform(0, 1, 5)
        mu = (wt[:, None] * th[:, None] ** np.arange(d + 1)).sum(0)
        assert sos.moment_violation(mu[None], tau)[0] <= 1e-13
    bad = np.zeros((1, d + 1))
    bad[0, :4] = [1.0, 0.0, 0.5, 0.5]
    if d == 5:
        bad[0, 4:] = [0.5, 0.5]  # mu_4 = mu_2 would fit all mass on |theta| = 1
    assert sos.moment_violation(bad, 1.0)[0] > 0.1
    fixed = sos.moment_repair(bad, 1.0)
    assert sos.moment_violation(fixed, 1.0)[0] <= 1e-12
    # random vectors: repaired into the cone
    R = rng.normal(size=(30, d + 1))
    Rf = sos.moment_repair(R, tau)
    assert np.all(sos.moment_violation(R, tau) > 0)
    assert np.all(sos.moment_violation(Rf, tau) <= 1e-12)
    # interior measures (4 atoms strictly inside: positive definite matrices) are unchanged
    th = np.array([-0.6, -0.1, 0.3, 0.7])
    inside = (np.array([0.2, 0.5, 0.1, 0.3])[:, None] * th[:, None] ** np.arange(d + 1)).sum(0)
    np.testing.assert_array_equal(sos.moment_repair(inside[None], tau), inside[None])


def test_atoms_on_real_line_with_mass_at_infinity():
    """The closed moment cone of R holds limits of atoms escaping to infinity: (m0, m1, m2)
    with m2 > m1^2/m0 is an atom at m1/m0 plus weight m2 - m1^2/m0 at infinity (the limit
    of eps t^-2 delta_t as t -> inf has moments (0, 0, eps))."""
    mu = np.array([[2.0, 0.6, 0.18 + 0.5],   # 2 delta_0.3 + 0.5 at infinity
                   [1.0, -0.2, 0.04],        # delta_-0.2: rank one
                   [0.0, 0.0, 0.3]])         # only mass at infinity
    at = sos.atoms(mu, None)
    np.testing.assert_allclose(at[0][0], [0.3, np.inf])
    np.testing.assert_allclose(at[0][1], [2.0, 0.5])
    np.testing.assert_allclose(at[1][0], [-0.2])
    np.testing.assert_allclose(at[1][1], [1.0])
    np.testing.assert_array_equal(at[2][0], [np.inf])
    np.testing.assert_allclose(at[2][1], [0.3])
    # degree 4 by nonnegative least squares: candidate points plus infinity
    th = np.array([-0.5, 0.4])
    m4 = (np.array([1.0, 2.0])[:, None] * th[:, None] ** np.arange(5)).sum(0)
    m4[4] += 0.7
    (t4, w4), = sos.atoms(m4[None], None, candidates=[np.array([-0.5, 0.1, 0.4])])
    np.testing.assert_allclose(t4, [-0.5, 0.4, np.inf])
    np.testing.assert_allclose(w4, [1.0, 2.0, 0.7], atol=1e-12)
    # a flat (rank 2 <= l = 2) degree-4 moment vector on a segment: Prony, no candidates
    th, wt = np.array([-0.45, 0.2]), np.array([0.3, 1.1])
    m4 = (wt[:, None] * th[:, None] ** np.arange(5)).sum(0)
    (t4, w4), = sos.atoms(m4[None], 0.5)
    np.testing.assert_allclose(t4, th, atol=1e-12)
    np.testing.assert_allclose(w4, wt, atol=1e-12)



def test_atoms_of_degree_zero():
    """One moment (the mass): one atom at theta = 0; a zero row is the zero measure."""
    at = sos.atoms(np.array([[0.5], [0.0]]), 0.3)
    np.testing.assert_array_equal(at[0][0], [0.0])
    np.testing.assert_array_equal(at[0][1], [0.5])
    assert at[1][0].size == 0 and at[1][1].size == 0

def test_bad_input():
    with pytest.raises(InvalidInputError, match="even degree"):
        sos.nonneg_on_R(np.ones((2, 4)))
    with pytest.raises(InvalidInputError, match="segment"):
        sos.nonneg_on_segment(np.ones((2, 3)), 0.0)
    with pytest.raises(InvalidInputError, match="segment"):
        sos.nonneg_on_segment(np.ones((2, 3)), -1.0)
    with pytest.raises(InvalidInputError, match="method"):
        sos.nonneg_on_segment(np.ones((2, 3)), 1.0, method="magic")
    with pytest.raises(InvalidInputError, match="non-finite"):
        sos.nonneg_on_R(np.array([[1.0, np.nan, 1.0]]))
