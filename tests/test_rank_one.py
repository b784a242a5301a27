"""Secular-equation eigen-update (convexkern.algorithms.rank_one) against scipy.linalg.eigh.

Tolerances: eigh itself is backward stable to ~n eps ||M||; the secular solve is accurate to
a few hundred eps ||M|| (roots to 4 k eps relative to the secular terms), so agreement is
asked to 1e-10 relative to ||M||_2.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sla

from convexkern.algorithms.rank_one import RankOneUpdate, secular_roots
from convexkern.data import load_binary
from convexkern.kernels import Simpson


def _reference(K0, v, s):
    M = K0 + s * np.outer(v, v)
    w, V = sla.eigh(M)
    Mp = (V * np.maximum(w, 0)) @ V.T
    return w, Mp, float(np.sum(np.maximum(w, 0) ** 2)), float(np.max(np.abs(w)))


@pytest.fixture(scope="module")
def simpson_usps():
    X, y = load_binary("usps", 3, 5)
    rng = np.random.default_rng(3)
    idx = np.sort(rng.permutation(y.size)[:150])
    return Simpson()(X[idx]), y[idx]


@pytest.mark.parametrize("n,seed", [(2, 0), (7, 1), (60, 2)])
def test_random_symmetric(n, seed):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((n, n))
    K0 = A + A.T
    v = rng.standard_normal(n)
    s = 0.37
    r1 = RankOneUpdate(K0)
    w, Mp, n2, scale = _reference(K0, v, s)
    assert np.max(np.abs(r1.eigenvalues(v, s) - w)) <= 1e-10 * scale
    pp = r1.positive_apply(v, s)
    assert np.max(np.abs(pp.Mv - Mp @ v)) <= 1e-10 * scale * np.linalg.norm(v)
    assert abs(pp.norm2 - n2) <= 1e-10 * scale**2 * n
    assert np.max(np.abs(r1.positive_part(v, s) - Mp)) <= 1e-10 * scale


def test_real_indefinite_kernel(simpson_usps):
    K0, y = simpson_usps
    assert np.linalg.eigvalsh(K0)[0] < -0.1  # the Simpson score is indefinite here
    rng = np.random.default_rng(0)
    v = y * rng.uniform(0, 1, y.size)
    r1 = RankOneUpdate(K0)
    for rho in (0.1, 1.0, 10.0):
        s = 1 / (4 * rho)
        w, Mp, n2, scale = _reference(K0, v, s)
        assert np.max(np.abs(r1.eigenvalues(v, s) - w)) <= 1e-10 * scale
        for side in ("positive", "negative", "auto"):
            pp = r1.positive_apply(v, s, side=side)
            assert np.max(np.abs(pp.Mv - Mp @ v)) <= 1e-10 * scale * np.linalg.norm(v)
            assert abs(pp.norm2 - n2) <= 1e-10 * scale**2
            np.testing.assert_allclose(pp.Mfull_v, (K0 + s * np.outer(v, v)) @ v,
                                       atol=1e-10 * scale * np.linalg.norm(v))


def test_deflation_repeated_eigenvalues_and_zero_weights():
    """Eigenvalues of multiplicity 8 and a component of v orthogonal to an eigenvector."""
    rng = np.random.default_rng(5)
    n = 40
    Q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    lam = np.repeat([-2.0, -1.0, 0.0, 1.0, 3.0], 8)
    K0 = (Q * lam) @ Q.T
    K0 = 0.5 * (K0 + K0.T)
    v = rng.standard_normal(n)
    v -= Q[:, 30] * (Q[:, 30] @ v)
    r1 = RankOneUpdate(K0)
    s = 0.7
    w, Mp, n2, scale = _reference(K0, v, s)
    pp = r1.positive_apply(v, s, side="negative")
    pp2 = r1.positive_apply(v, s, side="positive")
    np.testing.assert_allclose(pp.Mv, pp2.Mv, atol=1e-10 * scale * np.linalg.norm(v))
    assert pp.n_deflated >= 5 * 7  # each cluster of 8 leaves 7 deflated directions
    assert np.max(np.abs(r1.eigenvalues(v, s) - w)) <= 1e-10 * scale
    assert np.max(np.abs(pp.Mv - Mp @ v)) <= 1e-10 * scale * np.linalg.norm(v)
    assert abs(pp.norm2 - n2) <= 1e-10 * scale**2
    assert np.max(np.abs(r1.positive_part(v, s) - Mp)) <= 1e-10 * scale


def test_v_in_eigenspace_fully_deflated():
    K0 = np.diag([-1.0, 2.0, 5.0])
    v = np.array([0.0, 0.0, 1.0])
    r1 = RankOneUpdate(K0)
    pp = r1.positive_apply(v, 1.0)
    np.testing.assert_allclose(r1.eigenvalues(v, 1.0), [-1.0, 2.0, 6.0], atol=1e-14)
    np.testing.assert_allclose(pp.Mv, [0.0, 0.0, 6.0], atol=1e-14)
    assert pp.norm2 == pytest.approx(40.0, rel=1e-14)


def test_warm_start_same_answer(simpson_usps):
    K0, y = simpson_usps
    rng = np.random.default_rng(1)
    v = y * rng.uniform(0, 1, y.size)
    cold = RankOneUpdate(K0, warm_start=False)
    warm = RankOneUpdate(K0)
    warm.positive_apply(v, 0.25)
    v2 = v * (1 + 1e-3 * rng.standard_normal(v.size))
    a, b = cold.positive_apply(v2, 0.25), warm.positive_apply(v2, 0.25)
    assert b.sweeps <= a.sweeps
    np.testing.assert_allclose(a.Mv, b.Mv, rtol=0, atol=1e-10 * np.abs(a.Mv).max())


def test_secular_roots_interlace():
    d = np.array([-1.0, 0.0, 2.0])
    z = np.array([0.5, 1.0, 0.25])
    origin, tau, N, _ = secular_roots(d, z, 2.0, np.arange(3))
    mu = d[origin] + tau
    assert np.all(mu > d) and np.all(mu[:-1] < d[1:])
    np.testing.assert_allclose(1 / 2.0 + np.sum((z**2)[:, None] / (d[:, None] - mu[None, :]), 0), 0,
                               atol=1e-13)
    np.testing.assert_allclose(np.sort(mu), np.linalg.eigvalsh(np.diag(d) + 2 * np.outer(z, z))
                               , atol=1e-13)


def test_bad_input():
    with pytest.raises(ValueError, match="K0"):
        RankOneUpdate(np.array([[1.0, 2.0], [0.0, 1.0]]))
    r1 = RankOneUpdate(np.eye(2))
    with pytest.raises(ValueError, match="sigma"):
        r1.positive_apply(np.ones(2), -1.0)
    with pytest.raises(ValueError, match="v"):
        r1.eigenvalues(np.ones(3), 1.0)


@pytest.mark.parametrize("side", ["positive", "negative", "auto"])
def test_negative_part_without_cancellation(side):
    """||M_-||^2, v'M_-v and v'K0v come from the negative eigenvalues themselves on either
    side: with eigenvalues of K0 up to 1e8 and five between -5 and -1,
    ||M||^2 - ||M_+||^2 loses u ||M||^2 ~ 1 (measured: 32 for 51.76).

    Tolerances from backward stability: every eigenvalue of either method is within
    delta = n u ||M||_2 (4.4e-7 here) of the exact one (Weyl), and every eigenvector
    within 2 delta / gap of it (Davis-Kahan), gap = the smallest distance from a negative
    eigenvalue to any other; both methods err, hence the factors 2."""
    rng = np.random.default_rng(7)
    n = 40
    Q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    lam = np.concatenate([-np.arange(1.0, 6.0), np.geomspace(1.0, 1e8, n - 5)])
    K0 = (Q * lam) @ Q.T
    K0 = 0.5 * (K0 + K0.T)
    v = rng.standard_normal(n)
    s = 0.25
    M = K0 + s * np.outer(v, v)
    w, V = sla.eigh(M)
    neg = w < 0
    wn, qv = w[neg], V[:, neg].T @ v
    delta = n * 2.0**-53 * float(np.linalg.norm(M, 2))
    gap = min(float(np.min(np.abs(np.delete(w, j) - w[j]))) for j in np.flatnonzero(neg))
    theta = 2 * delta / gap
    vv = float(v @ v)
    pp = RankOneUpdate(K0).positive_apply(v, s, side=side)
    n2 = float(wn @ wn)
    assert abs(pp.neg_norm2 - n2) <= 4 * delta * float(np.sum(-wn)) + wn.size * (2 * delta) ** 2
    quad = float(np.sum(-wn * qv**2))
    assert abs(pp.neg_quad - quad) <= 2 * 2 * delta * vv + 4 * float(np.sum(-wn)) * vv * theta
    assert abs(pp.vK0v - float(v @ K0 @ v)) <= 2 * delta * vv
    assert n2 > 50  # the five negative eigenvalues survive the update (measured 51.76)
