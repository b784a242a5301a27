"""Tests of :mod:`convexkern.math.smo_face` (the Newton step on the face SMO has found).

The step is checked against optimums it did not compute: SMO run to a KKT violation of
1e-11 without it (real USPS and Pima images), a three-point problem solved by hand, and
the certified bracket of :func:`convexkern.math.svm.dual_bounds`; and for what it must
never do (leave the box, break ``y'alpha = 0``, let ``v`` drift from ``y - K(y*alpha)``,
lower the dual, step on an indefinite face).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from convexkern.data import load_binary
from convexkern.math import smo as smo_module
from convexkern.math.smo import smo
from convexkern.math.smo_face import face_step
from convexkern.math.smo_rows import _PrecomputedRows
from convexkern.math.svm import dual_bounds
from tests.conftest import subset


def _rbf_gram(X, gamma):
    sq = np.einsum("ij,ij->i", X, X)
    K = np.exp(-gamma * np.maximum(sq[:, None] + sq[None, :] - 2.0 * X @ X.T, 0.0))
    return 0.5 * (K + K.T)


@pytest.fixture(scope="module")
def usps():
    """300 real USPS images, 3 (+1) vs 5 (-1), RBF with gamma = 1 / (256 var)."""
    X, y = subset(*load_binary("usps", 3, 5), 300, seed=2)
    return _rbf_gram(X, 1.0 / (X.shape[1] * X.var())), y


@pytest.fixture(scope="module")
def pima():
    """300 real Pima patients, standardised, RBF with gamma = 1 / d."""
    X, y = subset(*load_binary("pima", 1, 0), 300, seed=3)
    X = (X - X.mean(0)) / X.std(0)
    return _rbf_gram(X, 1.0 / X.shape[1]), y


def _dual(K, y, alpha):
    ya = y * alpha
    return float(alpha.sum() - 0.5 * ya @ K @ ya)


def _free(alpha, C):
    return np.flatnonzero((alpha > 0) & (alpha < C))


def _check_invariants(K, y, alpha, v, C, before):
    """In the box exactly, y'alpha = 0 to rounding, v = y - K(y alpha) to rounding, the
    dual not lowered."""
    assert np.all(alpha >= 0.0) and np.all(alpha <= C)
    assert abs(float(y @ alpha)) <= 1e-12 * max(float(alpha.sum()), 1.0)
    exact = y - K @ (y * alpha)
    assert np.max(np.abs(v - exact)) <= 1e-11 * max(1.0, float(np.max(np.abs(exact))))
    assert _dual(K, y, alpha) >= before - 1e-12 * abs(before)


@pytest.mark.parametrize("name,C,eps", [("usps", 10.0, 1e-3), ("usps", 1.0, 1e-3),
                                        ("pima", 1.0, 1e-5), ("pima", "weights", 1e-5)])
def test_one_step_reaches_the_optimum_smo_converges_to(request, name, C, eps):
    """From SMO stopped at ``eps`` (where its free set is already the optimum's: on Pima
    at C = 1, eps = 1e-3 leaves one variable at its bound that the optimum frees)."""
    K, y = request.getfixturevalue(name)
    if C == "weights":  # per-example bounds (a weighted SVM)
        C = np.random.default_rng(0).uniform(0.5, 2.0, y.size)
    start = smo(K, y, C, eps=eps, check_input=False)  # no gap_tol: no face step inside
    ref = smo(K, y, C, eps=1e-11, check_input=False)
    assert ref.status == "optimal"
    alpha, v = start.alpha.copy(), y - K @ (y * start.alpha)
    before = _dual(K, y, alpha)
    # the precondition of "one step": SMO at 1e-3 already has the optimum's free set
    assert np.array_equal(_free(alpha, C), _free(ref.alpha, C))
    assert face_step(_PrecomputedRows(K), y, alpha, v, C, np.inf) == 1
    _check_invariants(K, y, alpha, v, C, before)
    opt = _dual(K, y, ref.alpha)
    # SMO at eps = 1e-11 is within about eps * sum(alpha) of the optimum; the step lands
    # on it to rounding, far closer than SMO at 1e-3 (before)
    assert abs(_dual(K, y, alpha) - opt) <= 1e-9 * abs(opt)
    assert opt - before > 1e3 * abs(_dual(K, y, alpha) - opt)
    assert np.max(np.abs(alpha - ref.alpha)) <= 1e-6 * float(np.max(C))
    # its bias: v is constant on the free vectors
    F = _free(alpha, C)
    assert np.ptp(v[F]) <= 1e-9


def test_a_cut_step_sets_the_variable_to_its_bound_and_goes_on():
    """Three orthogonal points (K = I), y = (+1, +1, -1), C = 1: the face of all three
    free has its optimum at (2/3, 2/3, 4/3), outside the box; from (0.3, 0.1, 0.4) the
    step stops where alpha_3 reaches C (t = 9/14), and the next round on the face
    {1, 2} ends at (1/2, 1/2, 1), the optimum (v = (1/2, 1/2, 0): b = 1/2 and
    v_3 <= b for alpha_3 = C, y_3 = -1)."""
    K, y, C = np.eye(3), np.array([1.0, 1.0, -1.0]), 1.0
    alpha = np.array([0.3, 0.1, 0.4])
    v = y - K @ (y * alpha)
    before = _dual(K, y, alpha)
    assert face_step(_PrecomputedRows(K), y, alpha, v, C, np.inf) == 2
    assert alpha[2] == 1.0  # exactly at the bound
    np.testing.assert_allclose(alpha, [0.5, 0.5, 1.0], rtol=0, atol=1e-14)
    _check_invariants(K, y, alpha, v, C, before)


def test_hard_margin_face_step(usps):
    """C = inf (separable in feature space): no upper bound, the step lands on the
    optimum SMO reaches at eps = 1e-11."""
    K, y = usps
    start = smo(K, y, np.inf, eps=1e-3, check_input=False)
    ref = smo(K, y, np.inf, eps=1e-11, check_input=False)
    alpha, v = start.alpha.copy(), y - K @ (y * start.alpha)
    before = _dual(K, y, alpha)
    assert np.array_equal(_free(alpha, np.inf), _free(ref.alpha, np.inf))
    assert face_step(_PrecomputedRows(K), y, alpha, v, np.inf, np.inf) == 1
    _check_invariants(K, y, alpha, v, np.inf, before)
    opt = _dual(K, y, ref.alpha)
    assert abs(_dual(K, y, alpha) - opt) <= 1e-9 * abs(opt)


def test_no_step_on_an_indefinite_face():
    """K = [[1, 2], [2, 1]] (eigenvalues 3, -1), y = (+1, -1), alpha = (1/2, 1/2): the
    face's stationary point is a maximum of nothing (the dual's curvature along it is -2
    times its square): nothing moves."""
    K, y = np.array([[1.0, 2.0], [2.0, 1.0]]), np.array([1.0, -1.0])
    alpha = np.array([0.5, 0.5])
    v = y - K @ (y * alpha)
    a0, v0 = alpha.copy(), v.copy()
    assert face_step(_PrecomputedRows(K), y, alpha, v, 1.0, np.inf) == 0
    assert np.array_equal(alpha, a0) and np.array_equal(v, v0)


def test_no_step_on_a_singular_face():
    """Two copies of one point on the same side: K_FF is singular, the bordered system
    has no unique solution; nothing moves (SMO goes on by its own steps)."""
    K = np.array([[1.0, 1.0, 0.2], [1.0, 1.0, 0.2], [0.2, 0.2, 1.0]])
    y = np.array([1.0, 1.0, -1.0])
    alpha = np.array([0.2, 0.3, 0.5])
    v = y - K @ (y * alpha)
    a0 = alpha.copy()
    moved = face_step(_PrecomputedRows(K), y, alpha, v, 1.0, np.inf)
    assert moved == 0 and np.array_equal(alpha, a0)


def test_over_budget_nothing_moves(usps):
    K, y = usps
    res = smo(K, y, 10.0, eps=1e-3, check_input=False)
    alpha, v = res.alpha.copy(), y - K @ (y * res.alpha)
    f = _free(alpha, 10.0).size
    budget = f ** 3 / 3.0  # less than f^3 / 3 + 2 f n
    assert face_step(_PrecomputedRows(K), y, alpha, v, 10.0, budget) == 0
    assert np.array_equal(alpha, res.alpha)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(4, 40),
       logC=st.floats(-2.0, 2.0), eps=st.sampled_from([1e-1, 1e-2, 1e-3]))
def test_never_leaves_the_box_nor_lowers_the_dual(seed, n, logC, eps):
    """Random points, RBF, SMO stopped early at a loose eps (a face that may be wrong):
    whatever the step does, the invariants hold."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    K = _rbf_gram(X, 0.5)
    C = 10.0 ** logC
    res = smo(K, y, C, eps=eps, check_input=False)
    alpha, v = res.alpha.copy(), y - K @ (y * res.alpha)
    face_step(_PrecomputedRows(K), y, alpha, v, C, np.inf)
    _check_invariants(K, y, alpha, v, C, _dual(K, y, res.alpha))


def test_the_allowance_counts_the_smallest_active_set(usps, monkeypatch):
    """The step's flop allowance is _FACE_COST per step taken and example of the smallest
    active set (shrinking every 50 steps makes it smaller than n)."""
    K, y = usps
    monkeypatch.setattr(smo_module, "_SHRINK_EVERY", 50)
    seen = []
    real = smo_module.face_step

    def spy(rows, yy, alpha, v, C, budget, deadline):
        seen.append(budget)
        return real(rows, yy, alpha, v, C, budget, deadline)

    monkeypatch.setattr(smo_module, "face_step", spy)
    res = smo(K, y, 10.0, check_input=False, gap_tol=1e-12, eps=1e-2)
    assert seen and res.active_size_min < y.size
    assert max(seen) <= smo_module._FACE_COST * res.iterations * res.active_size_min


def test_smo_with_the_step_certifies_the_same_optimum_in_fewer_steps(usps, monkeypatch):
    """SMO on the gap (gap_tol 1e-8) with the step and without it (its cost allowance
    set to 0): both certified brackets hold the optimum of SMO at eps = 1e-11, and the
    step saves SMO steps."""
    K, y = usps
    ref = _dual(K, y, smo(K, y, 10.0, eps=1e-11, check_input=False).alpha)
    with_step = smo(K, y, 10.0, check_input=False, gap_tol=1e-8)
    monkeypatch.setattr(smo_module, "_FACE_COST", 0.0)
    without = smo(K, y, 10.0, check_input=False, gap_tol=1e-8)
    assert with_step.face_steps >= 1 and without.face_steps == 0
    assert with_step.iterations < without.iterations
    for res in (with_step, without):
        b = dual_bounds(K, y, res.alpha, 10.0)
        assert b.lower <= ref * (1 + 1e-10) and ref <= b.upper * (1 + 1e-10)
        assert (b.upper - b.lower) <= 1e-8 * abs(b.upper)


def test_a_large_C_snaps_nothing_but_rounding():
    """C = 1e10 on a linear kernel scaled by 1e5 (coefficients about 1e-5, 15 orders
    below C): snapping near a bound is relative to a coefficient and its step, not to
    C, so no free coefficient is zeroed, y'alpha stays 0 and the dual rises to the
    optimum (review of the session's first version, which zeroed one and lost half the
    dual's lower bound)."""
    from convexkern import solve
    from convexkern.formulations import svm

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    w = np.array([1.0, -0.5])
    y = np.where(X @ w > 0, 1.0, -1.0)
    X += 0.3 * y[:, None] * w
    K = (X @ X.T) * 1e5
    C = 1e10
    ref = _dual(K, y, smo(K, y, np.inf, eps=1e-11, check_input=False).alpha)
    start = smo(K, y, C, eps=1e-3, check_input=False)
    alpha, v = start.alpha.copy(), y - K @ (y * start.alpha)
    before = _dual(K, y, alpha)
    assert face_step(_PrecomputedRows(K), y, alpha, v, C, np.inf) >= 1
    assert np.array_equal(alpha > 0, start.alpha > 0)  # no support vector lost
    _check_invariants(K, y, alpha, v, C, before)
    assert abs(_dual(K, y, alpha) - ref) <= 1e-9 * ref
    r = solve(svm.dual(K, y, C=C), "smo", tol=1e-9)
    assert r.status.value == "optimal", r.message
    # a maximisation: primal_value is the certified lower bound D(alpha), dual_value the
    # upper; the reference (SMO at 1e-11) is within rounding of the optimum
    assert r.primal_value <= ref * (1 + 1e-9) and r.dual_value >= ref * (1 - 1e-12)


def test_the_reported_violation_is_that_of_the_point_returned():
    """After a step on the face meets gap_tol, max_violation and the last history entry
    are those of the new point (not of the point before the step)."""
    rng = np.random.default_rng(18)
    X = rng.normal(size=(200, 5))
    y = np.sign(X[:, 0] + 0.5 * rng.normal(size=200))
    y[y == 0] = 1.0
    K = _rbf_gram(X, 0.2)
    r = smo(K, y, 10.0, eps=0.3, gap_tol=1e-3, check_input=False)
    assert r.face_steps >= 1
    v = y - K @ (y * r.alpha)
    up = np.where(y > 0, r.alpha < 10.0, r.alpha > 0)
    low = np.where(y > 0, r.alpha > 0, r.alpha < 10.0)
    true = float(v[up].max() - v[low].min())
    assert r.max_violation == r.history[-1][3]
    assert abs(r.max_violation - true) <= 1e-12 and true < 0.3


def test_no_step_past_the_deadline_or_beyond_the_row_cache(usps):
    K, y = usps
    res = smo(K, y, 10.0, eps=1e-3, check_input=False)
    f = _free(res.alpha, 10.0).size
    for rows, deadline in ((_PrecomputedRows(K), 0.0),  # a deadline already past
                           (_SmallCache(K, f - 1), np.inf)):  # f rows do not fit
        alpha, v = res.alpha.copy(), y - K @ (y * res.alpha)
        assert face_step(rows, y, alpha, v, 10.0, np.inf, deadline) == 0
        assert np.array_equal(alpha, res.alpha)


class _SmallCache(_PrecomputedRows):
    """Precomputed rows behind a row cache of ``capacity`` rows (what the step reads)."""

    def __init__(self, K, capacity):
        super().__init__(K)
        self.capacity = capacity


def test_a_warm_start_counts_as_n_steps(usps):
    """A warm start near the optimum (SMO's own point at eps = 1e-3) has taken no steps
    of this run: it is credited with n, so its first gap check takes the step on the face
    rather than redoing SMO's work (a review found 357 steps where a cold start took
    369)."""
    K, y = usps
    start = smo(K, y, 10.0, eps=1e-3, check_input=False)
    warm = smo(K, y, 10.0, alpha0=start.alpha, gap_tol=1e-10, check_input=False)
    assert warm.face_steps >= 1
    assert warm.iterations <= 0.1 * start.iterations, (warm.iterations, start.iterations)
    b = dual_bounds(K, y, warm.alpha, 10.0)
    assert (b.upper - b.lower) <= 1e-9 * abs(b.upper)
