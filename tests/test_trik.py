"""The TrIK active set (Loosli, ESANN 2019, Algorithm 1): factor up/down-dates, kernel
columns on demand, both optimality checks, limits and bad input.

The active set solves the KKT system of the working set directly, so at a correct working
set its solution is exact up to round-off; agreement with Clarabel (asked for 1e-9) is
asserted at 1e-6 relative in objective, factor identities at 1e-10 relative.
"""

from __future__ import annotations

import numpy as np
import pytest

import convexkern as ck
from convexkern.algorithms.trik import krein_coefficients, min_eigenvalue, trik
from convexkern.algorithms.trik.block_exchange import _block_exchange
from convexkern.algorithms.trik.columns import _Columns, _IndefiniteInverse
from convexkern.algorithms.trik.factor import _chol_append, _chol_delete
from convexkern.data import load_binary
from convexkern.errors import InvalidInputError
from convexkern.kernels import Sigmoid, Simpson


@pytest.fixture(scope="module")
def pima():
    """150 real Pima patients (standardised), sigmoid kernel tanh(x'z/8 - 1)."""
    X, y = load_binary("pima", 1, 0)
    X = (X - X.mean(0)) / X.std(0)
    rng = np.random.default_rng(7)
    idx = np.sort(rng.permutation(y.size)[:150])
    k = Sigmoid(gamma=0.125, coef0=-1.0)
    return X[idx], y[idx], k, k(X[idx])


def test_cholesky_append_and_delete():
    rng = np.random.default_rng(0)
    A = rng.normal(size=(40, 40))
    H = A @ A.T + 40 * np.eye(40)
    R = _chol_append(np.zeros((0, 0)), np.zeros((0, 25)), H[:25, :25])
    R = _chol_append(R, H[:25, 25:], H[25:, 25:])  # block update
    np.testing.assert_allclose(R.T @ R, H, rtol=0, atol=1e-10 * np.abs(H).max())
    for k in (39, 0, 17):  # last, first, middle
        R = _chol_delete(R, k)
        H = np.delete(np.delete(H, k, 0), k, 1)
        assert np.allclose(np.triu(R), R)
        np.testing.assert_allclose(R.T @ R, H, rtol=0, atol=1e-10 * np.abs(H).max())


def test_indefinite_inverse_updates():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(30, 4))
    K = np.tanh(X @ X.T - 1.0)  # indefinite
    inv = _IndefiniteInverse()
    inv.add(np.zeros((0, 10)), K[:10, :10])
    inv.add(K[:10, 10:], K[10:, 10:])
    keep = list(range(30))
    for k in (3, 20, 0):
        inv.remove(k)
        keep.pop(k)
    rhs = rng.normal(size=len(keep))
    z = inv.solve(rhs)
    Kk = K[np.ix_(keep, keep)]
    np.testing.assert_allclose(Kk @ z, rhs, atol=1e-8 * np.abs(rhs).max())
    assert inv.refactorizations == 0  # the up/down-dated inverse passed its residual test


@pytest.mark.parametrize("gone", [[20, 3], list(range(29, 1, -1))])
def test_indefinite_inverse_drops_several_rows(gone):
    """A few rows are downdated one by one (the inverse kept); most of them at once leave
    the inverse to the next solve, which computes it from what is left."""
    rng = np.random.default_rng(2)
    X = rng.normal(size=(30, 4))
    K = np.tanh(X @ X.T - 1.0)
    inv = _IndefiniteInverse()
    inv.add(np.zeros((0, 30)), K)
    inv.solve(np.ones(30))  # the inverse known
    inv.remove_many(gone)
    keep = [i for i in range(30) if i not in gone]
    assert (inv.M is None) == (len(gone) > 2)
    rhs = rng.normal(size=len(keep))
    z = inv.solve(rhs)
    np.testing.assert_allclose(K[np.ix_(keep, keep)] @ z, rhs,
                               atol=1e-8 * np.abs(rhs).max())
    # the inverse dropped on purpose is recomputed without counting a failure
    assert inv.refactorizations == 0 and inv.M is not None


def test_a_step_that_drops_most_points_factors_anew():
    """The flip decomposition's first step from every point free: the factor of what is
    left is computed anew, and the active set ends where the conic solver does."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(120, 5))
    y = np.where(X[:, 0] + 0.8 * rng.normal(size=120) > 0, 1.0, -1.0)
    f = ck.formulations.krein.stabilization(np.tanh(0.05 * X @ X.T - 0.5), y, 1.0, "flip")
    ref = ck.solve(f, "clarabel", tol=1e-9)
    r = ck.solve(f, "trik", tol=1e-9)
    assert r.status is ck.Status.OPTIMAL, r.message
    assert r.primal_value == pytest.approx(ref.primal_value, rel=1e-7)


@pytest.mark.parametrize("C", [1.0, 0.002])
def test_hilbert_variant_reproduces_conic_optimum(pima, C):
    _, y, _, K = pima
    f = ck.formulations.krein.stabilization(K, y, C, "shift")
    ref = ck.solve(f, "clarabel", tol=1e-9)
    res = trik(K, y, C, f.data["lam"], optimality="hilbert")
    assert res.status == "optimal"
    assert res.dual_objective == pytest.approx(ref.primal_value, rel=1e-6)
    assert res.hilbert_violation <= 1e-7
    assert np.all(res.alpha_tilde >= 0) and np.all(res.alpha_tilde <= C)
    assert abs(y @ res.alpha_tilde) <= 1e-10 * max(1.0, res.alpha_tilde.sum())
    # the Kreĭn coefficients are eq. 6 on the free support vectors
    a6 = krein_coefficients(K, y, res.alpha_tilde, res.lam, C)
    np.testing.assert_allclose(res.alpha, a6, rtol=1e-6, atol=1e-8 * np.abs(a6).max())
    if C < 0.01:  # a small C bounds support vectors: alpha = C there
        assert res.bounded.size > 0 and np.all(res.alpha[res.bounded] == C)


def test_block_sizes_reach_same_optimum(pima):
    _, y, _, K = pima
    lam = min_eigenvalue(K)
    one = trik(K, y, 0.002, lam, optimality="hilbert", block=1)
    big = trik(K, y, 0.002, lam, optimality="hilbert", block=64)
    assert one.dual_objective == pytest.approx(big.dual_objective, rel=1e-9)
    assert big.iterations < one.iterations



@pytest.mark.parametrize("C", [None, 1.0, 0.002])
def test_block_exchange_reaches_single_move_optimum(pima, C):
    """Block exchanges (all violators in, all box-leavers out per round) and the
    one-point-at-a-time active set reach the same Hilbert QP optimum on real data."""
    _, y, _, K = pima
    lam = min_eigenvalue(K)
    one = trik(K, y, C, lam, optimality="hilbert", exchange="single")
    blk = trik(K, y, C, lam, optimality="hilbert", exchange="block")
    auto = trik(K, y, C, lam, optimality="hilbert")
    assert one.status == blk.status == "optimal"
    assert blk.dual_objective == pytest.approx(one.dual_objective, rel=1e-9)
    assert blk.hilbert_violation <= 1e-7
    np.testing.assert_allclose(blk.alpha_tilde, one.alpha_tilde, rtol=0, atol=1e-7 * (C or 1))
    assert blk.iterations < one.iterations
    assert auto.iterations == blk.iterations  # the default with a precomputed K


def test_block_exchange_on_usps_and_its_feasible_hand_over():
    """USPS 3 vs 5 with the Simpson score at a small C (many bounded points): the block
    phase stopped after one round hands over a feasible point with the factor of its
    working set, and the finished solve matches the single-move optimum."""
    X, y = load_binary("usps", 3, 5)
    X, y = X[:200], y[:200]
    K = Simpson()(X)
    lam, C = min(min_eigenvalue(K), 0.0), 0.001
    ph = _block_exchange(_Columns(K, None, None), y, C, -2 * lam, 1e-9, 10**6, np.inf, 0.0,
                         max_rounds=1)
    assert ph.iterations == 1 and not ph.converged and ph.W
    at = y * ph.u
    assert np.all(at >= 0) and np.all(at <= C)
    assert abs(y @ at) <= 1e-12
    W = np.asarray(ph.W)
    assert np.all(ph.state[W] == 1) and np.all(at[ph.state == 2] == C)
    Kt = K[np.ix_(W, W)] - 2 * lam * np.eye(W.size)
    np.testing.assert_allclose(ph.R.T @ ph.R, Kt, rtol=0, atol=1e-10 * np.abs(Kt).max())
    one = trik(K, y, C, lam, optimality="hilbert", exchange="single")
    blk = trik(K, y, C, lam, optimality="hilbert", exchange="block")
    assert blk.status == "optimal" and blk.hilbert_violation <= 1e-7
    assert blk.dual_objective == pytest.approx(one.dual_objective, rel=1e-9)
    f = ck.formulations.krein.stabilization(K, y, C, "shift")
    ref = ck.solve(f, "clarabel", tol=1e-9)
    assert blk.dual_objective == pytest.approx(ref.primal_value, rel=1e-6)

def test_krein_variant_f_equals_ftilde_on_free(pima):
    _, y, _, K = pima
    res = trik(K, y, 1.0, optimality="krein")
    # the Kreĭn-space check holds, but the point is not the Hilbert QP optimum: the raw
    # status says so (never "optimal"/converged at a non-optimal point)
    assert res.max_violation <= 1e-8
    assert res.status == "krein_stationary" and not res.converged
    assert res.hilbert_violation > 1e3 * res.kkt_tol
    Kt = K - 2 * res.lam * np.eye(y.size)
    f = K @ (y * res.alpha) + res.b
    ft = Kt @ (y * res.alpha_tilde) + res.b
    W = res.free
    assert W.size > 0
    np.testing.assert_allclose(f[W], ft[W], atol=1e-8 * np.abs(ft).max())
    np.testing.assert_allclose(y[W] * f[W], 1.0, atol=1e-8)  # free SVs on the margin
    # Kreĭn-space primal optimality: the others satisfy their margin conditions in f
    others = np.setdiff1d(np.arange(y.size), np.r_[W, res.bounded])
    assert np.all(y[others] * f[others] >= 1 - 1e-8)


def test_kernel_on_demand_matches_precomputed(pima):
    X, y, k, K = pima
    lam = min_eigenvalue(K)
    a = trik(K, y, 0.002, lam, optimality="hilbert")
    b = trik(None, y, 0.002, lam, optimality="hilbert", kernel=k, X=X)
    np.testing.assert_allclose(b.alpha_tilde, a.alpha_tilde, atol=1e-10)
    assert b.dual_objective == pytest.approx(a.dual_objective, rel=1e-10)
    assert a.kernel_columns_computed == 0
    # only columns of points that entered the support-vector set are evaluated
    assert b.kernel_columns_computed <= b.n_added <= 2 * y.size
    c = trik(None, y, 0.002, lam, optimality="hilbert", kernel=k, X=X, exchange="block")
    assert c.dual_objective == pytest.approx(a.dual_objective, rel=1e-9)
    assert c.kernel_columns_computed <= y.size


def test_limits_are_statuses(pima):
    _, y, _, K = pima
    res = trik(K, y, 1.0, optimality="krein", max_iter=3)
    assert res.status == "iteration_limit" and res.iterations == 3
    f = ck.formulations.krein.stabilization(K, y, 1.0)
    r = ck.solve(f, "trik-krein", max_iter=3)
    assert r.status is ck.Status.ITERATION_LIMIT


def test_bad_input(pima):
    X, y, k, K = pima
    lmin = min_eigenvalue(K)
    with pytest.raises(InvalidInputError, match="lam"):
        trik(K, y, 1.0, 0.5 * lmin)
    with pytest.raises(InvalidInputError, match="lam"):
        trik(K, y, 1.0, 1.0)
    with pytest.raises(InvalidInputError, match="lam"):
        trik(None, y, 1.0, kernel=k, X=X)  # no K to find lambda_min from
    with pytest.raises(InvalidInputError, match="optimality"):
        trik(K, y, 1.0, optimality="banach")
    with pytest.raises(InvalidInputError, match="exchange"):
        trik(K, y, 1.0, optimality="hilbert", exchange="all")
    with pytest.raises(InvalidInputError, match="exchange"):
        trik(K, y, 1.0, optimality="krein", exchange="block")
    with pytest.raises(InvalidInputError, match="y"):
        trik(K, np.where(y > 0, 1.0, 0.0), 1.0)
    with pytest.raises(InvalidInputError, match="kernel"):
        trik(K, y, 1.0, kernel=k, X=X)


def _rank4_indefinite():
    """n = 30, K = AA' - bb' of rank 4 (3 positive, 1 negative eigenvalue): the flipped
    kernel U|D|U' is PSD of rank 4, so K~_WW is singular for any 5 free points."""
    rng = np.random.default_rng(0)
    A, B = rng.normal(size=(30, 3)), rng.normal(size=(30, 1))
    return A @ A.T - B @ B.T, np.where(A[:, 0] > 0, 1.0, -1.0)


def test_singular_flipped_kernel_is_not_reported_optimal(monkeypatch):
    import convexkern.algorithms.trik.factor as T  # the pivot test lives there

    K, y = _rank4_indefinite()
    f = ck.formulations.krein.stabilization(K, y, 1.0, "flip")
    ref = ck.solve(f, "clarabel", tol=1e-9)
    Kt = f.data["K"]
    res = trik(Kt, y, 1.0, 0.0, optimality="hilbert", check_lam=False)
    assert res.singular_pivots > 0  # the tiny pivot was detected
    # the active set cannot reach the optimum through a singular K~_WW: it must say so
    assert res.status == "inaccurate" and not res.converged
    assert res.dual_objective < ref.primal_value * (1 - 1e-6)
    assert res.hilbert_violation > res.kkt_tol
    # without pivot detection (the old behaviour) the final check alone catches it
    monkeypatch.setattr(T, "PIVOT_RTOL", 0.0)
    old = trik(Kt, y, 1.0, 0.0, optimality="hilbert", check_lam=False)
    assert old.singular_pivots == 0
    # (measured: KKT violation 2.6e-3 and y'alpha~ = 6e-5, formerly labelled "optimal";
    # "inaccurate" on one machine, "stalled" on another: never "optimal")
    assert old.status in ("inaccurate", "stalled") and not old.converged
    assert old.hilbert_violation > old.kkt_tol or old.equality_residual > 1e-10
    monkeypatch.undo()
    # through ck.solve: not optimal, and the message names the flipped kernel, not lam
    r = ck.solve(f, "trik")
    assert r.status is ck.Status.OPTIMAL_INACCURATE
    assert "U|D|U'" in r.message and "lam must" not in r.message
    assert r.solver_stats["singular_pivots"] > 0


def test_rank_deficient_psd_kernel_reaches_optimum():
    """A linear kernel of rank 3 (n = 30, lam ~ -1e-14): 4 free points make K~_WW singular
    but the bordered KKT system is regular; the dense fallback reaches the optimum."""
    rng = np.random.default_rng(0)
    A = rng.normal(size=(30, 3))
    K, y = A @ A.T, np.where(A[:, 0] > 0, 1.0, -1.0)
    f = ck.formulations.krein.stabilization(K, y, 1.0, "shift")
    ref = ck.solve(f, "clarabel", tol=1e-9)
    for name in ("trik", "trik-krein"):
        r = ck.solve(f, name)
        assert r.status is ck.Status.OPTIMAL, (name, r.message)
        assert r.primal_value == pytest.approx(ref.primal_value, rel=1e-6)


def test_lambda_min_is_computed_at_most_once_per_solve(monkeypatch):
    """Singular pivots used to recompute lambda_min (Lanczos) each time to decide whether
    lam was to blame, although it had been computed (lam=None) or checked (check_lam)
    on entry.  Now: once on entry, or once at the first failed pivot with
    check_lam=False, and the failed pivots still never blame a valid lam."""
    import convexkern.algorithms.trik.solver as T  # where trik() looks lambda_min up

    rng = np.random.default_rng(0)
    A = rng.normal(size=(30, 3))
    K, y = A @ A.T, np.where(A[:, 0] > 0, 1.0, -1.0)  # rank 3: singular pivots
    calls = []
    real = T.min_eigenvalue
    monkeypatch.setattr(T, "min_eigenvalue", lambda Kv: calls.append(1) or real(Kv))
    lam = min(real(K), 0.0)  # round-off size (~ -1e-14): K~ stays numerically singular
    unchecked = 1 if lam < 0 else 0  # lam = 0 cannot be above lambda_min: nothing to check
    for kw, expected in (({}, 1), ({"lam": lam}, 1),
                         ({"lam": lam, "check_lam": False}, unchecked),
                         ({"lam": 0.0, "check_lam": False}, 0)):
        calls.clear()
        res = trik(K, y, 1.0, optimality="hilbert", exchange="single", **kw)
        assert res.singular_pivots > 0, kw  # the path in question was taken
        assert len(calls) == expected, (kw, len(calls))
        assert res.status == "optimal", (kw, res.status)


def test_invalid_shift_blames_lam_with_lambda_min(pima):
    _, y, _, K = pima
    lmin = min_eigenvalue(K)
    # lam above lambda_min, not checked up front: K~ = K - 2 lam I is indefinite
    with pytest.raises(InvalidInputError, match="lambda_min"):
        trik(K, y, None, 0.2 * lmin, optimality="hilbert", check_lam=False)


@pytest.mark.slow
def test_n3000_mostly_free_finishes_in_seconds():
    from sklearn.datasets import make_blobs

    X, lab = make_blobs(n_samples=3000, n_features=5, centers=4, random_state=0,
                        cluster_std=2.0)
    y = np.where(lab % 2 == 0, 1.0, -1.0)
    K = Sigmoid(gamma=0.02, coef0=-1.0)(X)
    res = trik(K, y, 1.0, optimality="hilbert")
    assert res.status == "optimal" and res.free.size > 2500
    assert res.iterations < 100  # block updates: not one iteration per point


def test_trik_takes_blas_threads_and_refuses_unknown_options(monkeypatch):
    """``blas_threads`` reaches the active set (it was swallowed: ``None`` still ran on one
    thread, ``0`` was accepted); an unknown option is named, not ignored."""
    import convexkern.algorithms.trik.adapter as ad

    seen = []
    run = ad.trik

    def watched(*a, **k):
        seen.append(k.get("blas_threads"))
        return run(*a, **k)

    monkeypatch.setattr(ad, "trik", watched)
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 3))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    f = ck.formulations.krein.stabilization(np.tanh(0.3 * X @ X.T - 0.5), y, 1.0)
    ck.solve(f, "trik")
    ck.solve(f, "trik", blas_threads=None)
    ck.solve(f, "trik", blas_threads=np.int64(2))
    assert seen == [1, None, 2]
    for bad in ({"blas_threads": 0}, {"exchange": "block"}):
        with pytest.raises(InvalidInputError, match="blas_threads|options"):
            ck.solve(f, "trik", **bad)
