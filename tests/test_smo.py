"""Tests of :mod:`convexkern.algorithms.smo` (SMO for the soft-margin SVM dual).

Real data (USPS 3 vs 5, Pima) against scikit-learn's LIBSVM, closed-form known answers
(the lecture notes' XOR example, a separable set with a hand-derived margin), the
on-demand kernel mode with a small row cache, indefinite kernels, warm starts, limits and
bad input.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.svm import SVC

from convexkern.algorithms.smo import SMOProgress, pair_bounds, smo
from convexkern.math import smo as smo_module
from convexkern.math.smo_rows import _CachedKernelRows
from tests.conftest import subset

# --------------------------------------------------------------------------------------
# data
# --------------------------------------------------------------------------------------

def _load_usps35():
    from convexkern.data import load_binary

    return load_binary("usps", 3, 5)


def _load_pima():
    from convexkern.data import load_binary

    return load_binary("pima", 1, 0)


def _sqdist(A, B):
    sa = np.einsum("ij,ij->i", A, A)
    sb = np.einsum("ij,ij->i", B, B)
    return np.maximum(sa[:, None] + sb[None, :] - 2.0 * (A @ B.T), 0.0)


def _rbf(gamma):
    return lambda A, B: np.exp(-gamma * _sqdist(A, B))


def _gram(kernel, X):
    K = kernel(X, X)
    return 0.5 * (K + K.T)  # exactly symmetric (the round-off of A @ B.T is not)


@pytest.fixture(scope="module")
def usps():
    """400 real USPS images, 3 (+1) vs 5 (-1), RBF with gamma = 1 / (256 var)."""
    X, y = _load_usps35()
    X, y = subset(X, y, 400, seed=0)
    gamma = 1.0 / (X.shape[1] * X.var())
    return X, y, _gram(_rbf(gamma), X), gamma


@pytest.fixture(scope="module")
def pima():
    """300 real Pima patients, standardised features, RBF with gamma = 1 / d."""
    X, y = _load_pima()
    X, y = subset(X, y, 300, seed=1)
    X = (X - X.mean(0)) / X.std(0)
    gamma = 1.0 / X.shape[1]
    return X, y, _gram(_rbf(gamma), X), gamma


# --------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------


def dual_objective(K, y, alpha):
    ya = y * alpha
    return float(alpha.sum() - 0.5 * ya @ K @ ya)


def assert_feasible(alpha, y, C):
    assert np.all(alpha >= 0.0) and np.all(alpha <= C)
    assert abs(y @ alpha) <= 1e-10 * max(alpha.sum(), 1.0)


def kkt_interval(K, y, alpha, C):
    """(m, M) of the module docstring, recomputed from scratch."""
    v = y - K @ (y * alpha)
    up = np.where(y > 0, alpha < C, alpha > 0)
    low = np.where(y > 0, alpha > 0, alpha < C)
    return v[up].max(), v[low].min()


def libsvm_alpha(K, y, C, tol):
    m = SVC(kernel="precomputed", C=C, tol=tol, shrinking=True).fit(K, y)
    alpha = np.zeros(len(y))
    alpha[m.support_] = np.abs(m.dual_coef_[0])
    return alpha, float(m.intercept_[0])


# --------------------------------------------------------------------------------------
# real data against LIBSVM
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name,C", [("usps", 1.0), ("usps", 10.0), ("pima", 1.0), ("pima", 5.0)])
def test_same_dual_objective_as_libsvm(request, name, C):
    X, y, K, _ = request.getfixturevalue(name)
    eps = 1e-6
    res = smo(K, y, C, eps=eps)
    assert res.status == "optimal" and res.converged
    assert res.max_violation <= eps
    assert_feasible(res.alpha, y, C)

    a_sk, b_sk = libsvm_alpha(K, y, C, tol=eps)
    D_sk = dual_objective(K, y, a_sk)
    D_us = dual_objective(K, y, res.alpha)
    assert abs(D_us - D_sk) <= 1e-6 * abs(D_sk)
    # the reported objective is the exact one, not a drifting running total
    assert res.dual_objective == pytest.approx(D_us, rel=1e-11)
    # the bias satisfies the KKT interval and agrees with LIBSVM's intercept (= -rho)
    m, M = kkt_interval(K, y, res.alpha, C)
    assert m - 1e-9 <= res.b + eps and res.b - eps <= M + 1e-9
    assert res.b == pytest.approx(b_sk, abs=1e-4)
    assert res.n_support == np.count_nonzero(res.alpha)
    # recomputed violation agrees with the maintained one
    assert m - M == pytest.approx(res.max_violation, abs=1e-9)


def test_history_is_sampled_and_monotone(usps):
    X, y, K, _ = usps
    res = smo(K, y, 10.0, eps=1e-5, history_every=10)
    its = [h[0] for h in res.history]
    assert its[0] == 0 and its[-1] == res.iterations
    assert all(b - a == 10 for a, b in zip(its[:-2], its[1:-1], strict=True))
    duals = np.array([h[2] for h in res.history])
    # SMO increases D at every step
    assert np.all(np.diff(duals) >= -1e-10 * abs(duals[-1]))
    assert res.history[-1][2] == res.dual_objective
    assert res.history[-1][3] == res.max_violation
    times = [h[1] for h in res.history]
    assert times == sorted(times)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 14),
    kind=st.sampled_from(["linear", "poly", "rbf", "duplicates"]),
    logC=st.floats(-2, 2),
    shrinking=st.booleans(),
)
def test_kkt_and_feasibility_on_random_small_problems(seed, n, kind, logC, shrinking):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 3))
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    y[0], y[1] = 1.0, -1.0
    if kind == "duplicates":
        X[: n // 2 + 1] = X[0]
    K = X @ X.T if kind in ("linear", "duplicates") else None
    if kind == "poly":
        K = (1.0 + X @ X.T) ** 2
    if kind == "rbf":
        K = np.exp(-0.5 * _sqdist(X, X))
    K = 0.5 * (K + K.T)
    C = float(10.0**logC)
    eps = 1e-7
    res = smo(K, y, C, eps=eps, shrinking=shrinking, max_iter=10**6)
    assert res.status == "optimal"
    assert_feasible(res.alpha, y, C)
    m, M = kkt_interval(K, y, res.alpha, C)
    assert m - M <= eps + 1e-9 * max(1.0, np.abs(K).max() * C)
    assert res.dual_objective == pytest.approx(dual_objective(K, y, res.alpha), rel=1e-9, abs=1e-12)
    # any feasible point is no better: e.g. the best of 20 random feasible scalings
    for _ in range(20):
        a = rng.uniform(0, C, n)
        a[y > 0] *= min(1.0, (a[y < 0].sum() / a[y > 0].sum()))
        a[y < 0] *= min(1.0, (a[y > 0].sum() / a[y < 0].sum()))
        assert abs(y @ a) <= 1e-9 * max(1.0, a.sum())
        assert dual_objective(K, y, a) <= res.dual_objective + 1e-9 * max(
            1.0, abs(res.dual_objective)
        )


def test_fortran_ordered_kernel(usps):
    X, y, K, _ = usps
    a = smo(K, y, 1.0, eps=1e-6)
    b = smo(np.asfortranarray(K), y, 1.0, eps=1e-6)
    np.testing.assert_array_equal(a.alpha, b.alpha)


def test_dual_objective_closed_form(pima):
    X, y, K, _ = pima
    res = smo(K, y, 2.0, eps=1e-4, max_iter=50)  # an intermediate point, too
    assert res.dual_objective == pytest.approx(dual_objective(K, y, res.alpha), rel=1e-12)


# --------------------------------------------------------------------------------------
# known answers
# --------------------------------------------------------------------------------------


def test_xor_polynomial_kernel_known_answer():
    # Lecture notes: XOR with K(x, z) = (1 + x'z)^2.  K = 8 I + 1 1', so on y'alpha = 0
    # the dual is sum(alpha) - 4 |alpha|^2: alpha_i = 1/8, D = 1/4, and
    # f(x) = sum_s alpha_s y_s (1 + x_s'x)^2 + b = x1 x2 with b = 0.
    X = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    y = X[:, 0] * X[:, 1]
    K = (1.0 + X @ X.T) ** 2
    res = smo(K, y, 1e6, eps=1e-12)
    assert res.status == "optimal"
    np.testing.assert_allclose(res.alpha, 0.125, atol=1e-12)
    assert res.b == pytest.approx(0.0, abs=1e-12)
    assert res.dual_objective == pytest.approx(0.25, rel=1e-12)
    rng = np.random.default_rng(0)
    Z = rng.uniform(-2, 2, size=(20, 2))
    f = ((1.0 + Z @ X.T) ** 2) @ (y * res.alpha) + res.b
    np.testing.assert_allclose(f, Z[:, 0] * Z[:, 1], atol=1e-10)


def test_separable_toy_known_margin():
    # x+ = (3, 1), x- = (1, 1), and (5, 0) (+1) well outside the margin.  For a
    # separable pair the hard-margin solution is w = 2 (x+ - x-) / |x+ - x-|^2 = (1, 0),
    # alpha = 2 / |x+ - x-|^2 = 1/2 on both, b = 1 - w'x+ = -2, margin 1 / |w| = 1,
    # D = |w|^2 / 2 = 1/2; the third point has f = 3 > 1, so alpha_3 = 0.
    X = np.array([[3.0, 1.0], [1.0, 1.0], [5.0, 0.0]])
    y = np.array([1.0, -1.0, 1.0])
    K = X @ X.T
    res = smo(K, y, 1e3, eps=1e-12)
    assert res.status == "optimal"
    np.testing.assert_allclose(res.alpha, [0.5, 0.5, 0.0], atol=1e-12)
    w = (y * res.alpha) @ X
    np.testing.assert_allclose(w, [1.0, 0.0], atol=1e-12)
    assert 1.0 / np.linalg.norm(w) == pytest.approx(1.0, rel=1e-12)
    assert res.b == pytest.approx(-2.0, abs=1e-12)
    assert res.dual_objective == pytest.approx(0.5, rel=1e-12)
    assert res.n_support == 2


def test_hard_margin_with_infinite_C():
    X = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    y = X[:, 0] * X[:, 1]
    res = smo((1.0 + X @ X.T) ** 2, y, np.inf, eps=1e-12)
    assert res.status == "optimal"
    np.testing.assert_allclose(res.alpha, 0.125, atol=1e-12)
    Xs = np.array([[3.0, 1.0], [1.0, 1.0], [5.0, 0.0]])
    res = smo(Xs @ Xs.T, np.array([1.0, -1.0, 1.0]), np.inf, eps=1e-12)
    np.testing.assert_allclose(res.alpha, [0.5, 0.5, 0.0], atol=1e-12)
    assert res.b == pytest.approx(-2.0, abs=1e-12)
    # not separable (a point and its copy with the other label): the dual is unbounded
    Xn = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    res = smo(Xn @ Xn.T, np.array([1.0, -1.0, 1.0]), np.inf, max_iter=1000)
    assert res.status == "iteration_limit"
    assert np.all(np.isfinite(res.alpha)) and np.isfinite(res.dual_objective)


def test_separable_toy_soft_margin_bias_without_free_vectors():
    # Same data with C = 0.2 < 1/2: alpha = (C, C, 0), w = (2C, 0) = (0.4, 0),
    # D = 2C - C^2 |x+ - x-|^2 / 2 = 0.32.  No free vector: v = y - K(y alpha) =
    # (-0.2, -1.4, -1.0); I_up = {2, 3} gives m = -1, I_low = {1} gives M = -0.2, and b
    # is the midpoint -0.6 (any b in [-1, -0.2] satisfies the KKT conditions).
    X = np.array([[3.0, 1.0], [1.0, 1.0], [5.0, 0.0]])
    y = np.array([1.0, -1.0, 1.0])
    res = smo(X @ X.T, y, 0.2, eps=1e-12)
    assert res.status == "optimal"
    np.testing.assert_allclose(res.alpha, [0.2, 0.2, 0.0], atol=1e-15)
    assert res.dual_objective == pytest.approx(0.32, rel=1e-12)
    assert res.b == pytest.approx(-0.6, abs=1e-12)
    assert res.max_violation == pytest.approx(-0.8, abs=1e-12)


def test_pair_bounds_are_the_feasible_segment():
    # [L, H] must be exactly the alpha2' keeping alpha1' = alpha1 + y1 y2 (alpha2 - alpha2')
    # in [0, C]; the lecture notes swap L and H in the y1 = y2 case.
    rng = np.random.default_rng(3)
    C = 2.0
    for _ in range(200):
        a1, a2 = rng.uniform(0, C, size=2)
        y1, y2 = rng.choice([-1.0, 1.0], size=2)
        L, H = pair_bounds(a1, a2, y1, y2, C)
        assert 0 <= L <= H <= C
        grid = np.linspace(-0.5, C + 0.5, 2001)
        a1new = a1 + y1 * y2 * (a2 - grid)
        ok = (grid >= 0) & (grid <= C) & (a1new >= -1e-12) & (a1new <= C + 1e-12)
        assert grid[ok].min() == pytest.approx(L, abs=2e-3)
        assert grid[ok].max() == pytest.approx(H, abs=2e-3)
    assert pair_bounds(0.3, 0.3, 1.0, 1.0, 1.0) == (0.0, pytest.approx(0.6))
    assert pair_bounds(0.8, 0.7, -1.0, -1.0, 1.0) == (pytest.approx(0.5), 1.0)
    assert pair_bounds(0.8, 0.3, 1.0, -1.0, 1.0) == (0.0, pytest.approx(0.5))


def test_two_point_problem_one_step_matches_notes_update():
    # With n = 2 and y1 != y2 the problem is one-dimensional: SMO must take exactly the
    # notes' clipped step alpha2 <- clip(alpha2 + y2 (E1 - E2) / eta, L, H) from alpha = 0,
    # with eta = K11 + K22 - 2 K12 (not K12 for K11).
    K = np.array([[2.0, 0.5], [0.5, 1.0]])
    y = np.array([1.0, -1.0])
    for C in (0.1, 10.0):
        res = smo(K, y, C, eps=1e-12)
        eta = K[0, 0] + K[1, 1] - 2 * K[0, 1]
        E = -y  # f = 0 at alpha = 0, b = 0
        L, H = pair_bounds(0.0, 0.0, y[0], y[1], C)
        a2 = np.clip(0.0 + y[1] * (E[0] - E[1]) / eta, L, H)
        a1 = 0.0 + y[0] * y[1] * (0.0 - a2)
        np.testing.assert_allclose(res.alpha, [a1, a2], rtol=1e-14)
        assert res.iterations == 1


# --------------------------------------------------------------------------------------
# kernel-callable mode with an LRU row cache
# --------------------------------------------------------------------------------------


def test_kernel_mode_equals_precomputed_with_small_cache(usps):
    X, y, K, gamma = usps
    n = len(y)
    C = 10.0
    ref = smo(K, y, C, eps=1e-6, shrinking=False)
    cache_mb = 20 * 8 * n / 2**20  # room for 20 of the 400 rows
    res = smo(
        None, y, C, eps=1e-6, kernel=_rbf(gamma), X=X, cache_size_mb=cache_mb, shrinking=False
    )
    assert res.status == "optimal"
    np.testing.assert_allclose(res.alpha, ref.alpha, rtol=0, atol=1e-8)
    assert res.b == pytest.approx(ref.b, abs=1e-8)
    assert res.dual_objective == pytest.approx(ref.dual_objective, rel=1e-10)
    # more rows were computed than exist: the cache evicted and recomputed rows
    assert res.kernel_rows_computed > n
    assert ref.kernel_rows_computed == 0


def test_row_cache_is_lru_and_bounded():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((10, 3))
    calls = []

    def lin(A, B):
        calls.append(A.shape[0])
        return A @ B.T

    rows = _CachedKernelRows(lin, X, cache_size_mb=3 * 8 * 10 / 2**20)  # 3 rows
    assert rows.capacity == 3
    np.testing.assert_allclose(rows.diag, np.einsum("ij,ij->i", X, X))
    for i in (0, 1, 2, 0, 3):  # 3 evicts 1 (least recently used), not 0
        np.testing.assert_allclose(rows.row(i), X @ X[i])
    assert rows.rows_computed == 4 and rows.evictions == 1
    assert list(rows.cache) == [2, 0, 3]
    rows.row(1)  # recomputed
    assert rows.rows_computed == 5 and rows.evictions == 2


def test_kernel_mode_warm_start(pima):
    X, y, K, gamma = pima
    first = smo(K, y, 1.0, eps=1e-2)
    res = smo(None, y, 1.0, eps=1e-6, kernel=_rbf(gamma), X=X, alpha0=first.alpha)
    ref = smo(K, y, 1.0, eps=1e-6, alpha0=first.alpha)
    np.testing.assert_allclose(res.alpha, ref.alpha, atol=1e-8)


# --------------------------------------------------------------------------------------
# indefinite kernel
# --------------------------------------------------------------------------------------


def test_indefinite_sigmoid_kernel_terminates_at_stationary_point(pima):
    X, y, _, _ = pima
    X, y = X[:80], y[:80]
    K = np.tanh(0.5 * X @ X.T - 1.0)
    K = 0.5 * (K + K.T)
    assert np.linalg.eigvalsh(K).min() < -1e-3  # really indefinite
    for C in (1.0, 100.0):
        res = smo(K, y, C, eps=1e-4, max_iter=200_000)
        assert np.all(np.isfinite(res.alpha)) and np.isfinite(res.b)
        assert np.isfinite(res.dual_objective)
        assert res.status == "optimal"
        assert res.max_violation <= 1e-4
        assert_feasible(res.alpha, y, C)
        m, M = kkt_interval(K, y, res.alpha, C)
        assert m - M <= 1e-4 + 1e-9
        assert res.dual_objective == pytest.approx(dual_objective(K, y, res.alpha), rel=1e-10)


def test_zero_curvature_pairs_use_tau():
    # Duplicate points with opposite labels: a_ij = 0 for that pair.
    X = np.array([[0.0, 1.0], [0.0, 1.0], [1.0, 0.0], [2.0, 2.0]])
    y = np.array([1.0, -1.0, 1.0, -1.0])
    K = X @ X.T
    res = smo(K, y, 1.0, eps=1e-9)
    assert res.status == "optimal"
    assert np.all(np.isfinite(res.alpha))
    assert_feasible(res.alpha, y, 1.0)


# --------------------------------------------------------------------------------------
# shrinking
# --------------------------------------------------------------------------------------


@pytest.fixture
def shrink_often(monkeypatch):
    """Revise the active set every 25 iterations, applying any reduction at all."""
    monkeypatch.setattr(smo_module, "_SHRINK_EVERY", 25)
    monkeypatch.setattr(smo_module, "_SHRINK_MIN_GAIN", 1.0)


@pytest.mark.parametrize("name,C", [("usps", 10.0), ("pima", 1.0)])
def test_shrinking_reaches_the_same_optimum(request, shrink_often, name, C):
    X, y, K, _ = request.getfixturevalue(name)
    eps = 1e-6
    plain = smo(K, y, C, eps=eps, shrinking=False)
    shrunk = smo(K, y, C, eps=eps, shrinking=True)
    assert plain.active_size_min == len(y)
    assert shrunk.active_size_min < len(y) / 2  # shrinking did happen
    assert shrunk.status == "optimal"
    # optimal on the full set, checked from scratch
    m, M = kkt_interval(K, y, shrunk.alpha, C)
    assert m - M <= eps + 1e-12
    assert m - M == pytest.approx(shrunk.max_violation, abs=1e-9)
    assert_feasible(shrunk.alpha, y, C)
    assert shrunk.dual_objective == pytest.approx(plain.dual_objective, rel=1e-9)
    assert shrunk.dual_objective == pytest.approx(dual_objective(K, y, shrunk.alpha), rel=1e-11)
    assert shrunk.b == pytest.approx(plain.b, abs=1e-5)


def test_limit_while_shrunk_returns_exact_numbers(usps, shrink_often):
    X, y, K, _ = usps
    C = 10.0
    res = smo(K, y, C, eps=1e-6, max_iter=300)
    assert res.status == "iteration_limit" and res.active_size_min < len(y)
    m, M = kkt_interval(K, y, res.alpha, C)
    assert res.max_violation == pytest.approx(m - M, abs=1e-9)
    assert res.dual_objective == pytest.approx(dual_objective(K, y, res.alpha), rel=1e-12)
    assert_feasible(res.alpha, y, C)


def test_callback_sees_full_alpha_while_shrunk(pima, shrink_often):
    X, y, K, _ = pima
    seen = []

    def cb(p):
        seen.append((p.dual_objective, p.alpha.copy()))

    res = smo(K, y, 1.0, eps=1e-6, history_every=20, callback=cb)
    assert res.active_size_min < len(y) and len(seen) > 5
    for d, a in seen:
        assert d == pytest.approx(dual_objective(K, y, a), rel=1e-9)


def test_kernel_mode_with_shrinking_equals_precomputed(usps, shrink_often):
    X, y, K, gamma = usps
    ref = smo(K, y, 1.0, eps=1e-6)
    res = smo(None, y, 1.0, eps=1e-6, kernel=_rbf(gamma), X=X, cache_size_mb=0.05)
    assert res.status == "optimal" and res.active_size_min < len(y)
    np.testing.assert_allclose(res.alpha, ref.alpha, atol=1e-8)
    assert res.dual_objective == pytest.approx(ref.dual_objective, rel=1e-10)


# --------------------------------------------------------------------------------------
# warm start, limits, callback
# --------------------------------------------------------------------------------------


def test_warm_start(usps):
    X, y, K, _ = usps
    cold = smo(K, y, 5.0, eps=1e-3)
    # restarting from a solution costs nothing
    again = smo(K, y, 5.0, eps=1e-3, alpha0=cold.alpha)
    assert again.status == "optimal" and again.iterations == 0
    assert again.dual_objective == pytest.approx(cold.dual_objective, rel=1e-12)
    assert again.b == pytest.approx(cold.b, rel=1e-12)
    # tightening eps continues where the loose solve stopped
    tight_cold = smo(K, y, 5.0, eps=1e-6)
    tight_warm = smo(K, y, 5.0, eps=1e-6, alpha0=cold.alpha)
    assert tight_warm.status == "optimal"
    assert tight_warm.iterations < 0.7 * tight_cold.iterations
    assert tight_warm.dual_objective == pytest.approx(tight_cold.dual_objective, rel=1e-10)
    # another C: the old alpha stays feasible when C grows; same optimum as a cold start
    other = smo(K, y, 1.5, eps=1e-6, alpha0=smo(K, y, 1.0, eps=1e-3).alpha)
    other_cold = smo(K, y, 1.5, eps=1e-6)
    assert other.status == "optimal"
    assert other.dual_objective == pytest.approx(other_cold.dual_objective, rel=1e-10)


@pytest.mark.parametrize(
    "alpha0",
    [
        "box",
        "equality",
        "length",
        "nan",
    ],
)
def test_infeasible_alpha0_raises(pima, alpha0):
    X, y, K, _ = pima
    n = len(y)
    a = np.zeros(n)
    if alpha0 == "box":
        a[0] = 1.5  # > C = 1
        a[np.flatnonzero(y != y[0])[0]] = 1.5
    elif alpha0 == "equality":
        a[0] = 0.5
    elif alpha0 == "length":
        a = np.zeros(n - 1)
    else:
        a[0] = np.nan
    with pytest.raises(ValueError, match="alpha0") as info:
        smo(K, y, 1.0, alpha0=a)
    assert info.value.argument == "alpha0"


def test_iteration_limit_is_a_status(usps):
    X, y, K, _ = usps
    res = smo(K, y, 1.0, max_iter=5)
    assert res.status == "iteration_limit" and not res.converged
    assert res.iterations == 5
    assert res.max_violation > res.eps
    assert_feasible(res.alpha, y, 1.0)
    assert smo(K, y, 1.0, max_iter=0).iterations == 0


def test_time_limit_is_a_status(usps):
    X, y, K, _ = usps
    res = smo(K, y, 1.0, eps=1e-8, time_limit=1e-9)
    assert res.status == "time_limit"
    assert_feasible(res.alpha, y, 1.0)


def test_callback_sees_progress_and_can_stop(pima):
    X, y, K, _ = pima
    seen = []

    def cb(p):
        assert isinstance(p, SMOProgress)
        assert not p.alpha.flags.writeable
        seen.append((p.iteration, p.dual_objective, p.max_violation, p.alpha.copy()))
        return p.iteration >= 20

    res = smo(K, y, 1.0, eps=1e-8, history_every=10, callback=cb)
    assert res.status == "interrupted"
    assert [s[0] for s in seen] == [0, 10, 20]
    assert res.iterations == 20
    assert seen[-1][1] == pytest.approx(dual_objective(K, y, seen[-1][3]), rel=1e-10)
    assert res.alpha.flags.writeable


# --------------------------------------------------------------------------------------
# bad input
# --------------------------------------------------------------------------------------


def _bad(argument, *args, **kwargs):
    with pytest.raises((ValueError, TypeError)) as info:
        smo(*args, **kwargs)
    assert info.value.argument == argument
    assert argument in str(info.value)


def test_bad_input_names_the_argument():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((6, 2))
    K = X @ X.T
    y = np.array([1.0, -1.0, 1.0, -1.0, 1.0, -1.0])
    Knan = K.copy()
    Knan[1, 2] = Knan[2, 1] = np.nan
    Kasym = K.copy()
    Kasym[0, 1] += 1.0
    _bad("K", Knan, y, 1.0)
    _bad("K", Kasym, y, 1.0)
    _bad("K", K[:, :5], y, 1.0)
    _bad("K", K[:5, :5], y, 1.0)  # does not match the labels
    with pytest.raises(ValueError, match=r"K: is 6 x 6 but y has 5 labels"):
        smo(K, y[:5], 1.0)  # the labels are the wrong ones: the message names both
    _bad("y", K, (y > 0).astype(float), 1.0)  # {0, 1} labels
    _bad("y", K, np.ones(6), 1.0)  # one class only
    _bad("C", K, y, 0.0)
    _bad("C", K, y, -1.0)
    _bad("C", K, y, np.nan)
    _bad("eps", K, y, 1.0, eps=0.0)
    _bad("tau", K, y, 1.0, tau=-1.0)
    _bad("max_iter", K, y, 1.0, max_iter=-1)
    _bad("max_iter", K, y, 1.0, max_iter=2.5)
    _bad("time_limit", K, y, 1.0, time_limit=0.0)
    _bad("kernel", None, y, 1.0)
    _bad("X", None, y, 1.0, kernel=lambda A, B: A @ B.T)
    _bad("kernel", None, y, 1.0, X=X)
    _bad("kernel", None, y, 1.0, kernel="rbf", X=X)
    _bad("kernel", K, y, 1.0, kernel=lambda A, B: A @ B.T, X=X)
    _bad("X", None, y, 1.0, kernel=lambda A, B: A @ B.T, X=X[:5])
    _bad("kernel", None, y, 1.0, kernel=lambda A, B: A @ B.T * np.nan, X=X)
    _bad("kernel", None, y, 1.0, kernel=lambda A, B: A @ A.T, X=X)  # wrong shape
    _bad("cache_size_mb", None, y, 1.0, kernel=lambda A, B: A @ B.T, X=X, cache_size_mb=0)
    _bad("callback", K, y, 1.0, callback=3)
    _bad("history_every", K, y, 1.0, history_every=0)
    _bad("shrinking", K, y, 1.0, shrinking="yes")
    _bad("K", K[:5, :5], y, 1.0, check_input=False)
    # check_input=False skips only the full scans of K
    res = smo(K, y, 1.0, check_input=False)
    assert res.dual_objective == pytest.approx(smo(K, y, 1.0).dual_objective, rel=1e-14)


def test_kept_curvatures_change_no_step(usps, monkeypatch):
    """Each chosen ``i``'s guarded curvature vector is kept (``_Work.curv``); emptied when
    full.  With room for only 16 of them the steps are the same, bit for bit, as with
    room for all, and with a per-example box (the non-constant path of the rule)."""
    X, y, K, _ = usps
    K = K + np.diag(np.linspace(0.0, 0.5, y.size))  # a non-constant diagonal
    for C in (10.0, np.full(y.size, 10.0)):
        roomy = smo(K, y, C, eps=1e-6)
        monkeypatch.setattr(smo_module, "_CURV_ENTRIES", 1)
        tight = smo(K, y, C, eps=1e-6)
        monkeypatch.undo()
        assert roomy.status == tight.status == "optimal"
        assert roomy.iterations == tight.iterations
        assert np.array_equal(roomy.alpha, tight.alpha)
        m, M = kkt_interval(K, y, tight.alpha, C)
        assert m - M <= 1e-6 + 1e-12
