"""The least-squares solver factorised once (convexkern.math.lstsq) against LAPACK's gelsy,
which the certificate's polishing steps used before: the same solution of least norm on
wide and tall, full-rank and rank-deficient, consistent and inconsistent, badly scaled
systems, for several right-hand sides of one factorisation."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg

from convexkern.math.lstsq import least_squares


def _system(shape, deficient, rng):
    N = rng.standard_normal(shape) * (rng.random(shape) < 0.3)
    J, M = shape
    if deficient and J > 2:  # dependent rows
        N[: J // 3] = 2.0 * N[J // 3: 2 * (J // 3)]
    if deficient and M > 2:  # dependent columns
        N[:, : M // 4] = -3.0 * N[:, M // 4: 2 * (M // 4)]
    return N * 10.0 ** rng.uniform(-6, 0, M)  # columns scaled over six decades


@pytest.mark.parametrize("shape", [(60, 150), (150, 60), (40, 40), (1, 5), (5, 1)])
@pytest.mark.parametrize("deficient", [False, True])
def test_matches_gelsy_for_several_right_hand_sides(shape, deficient):
    rng = np.random.default_rng(sum(shape) + deficient)
    N = _system(shape, deficient, rng)
    keep = N.copy()
    solve = least_squares(N)
    for r in (N @ rng.standard_normal(shape[1]),      # consistent
              rng.standard_normal(shape[0]),           # inconsistent when N is tall
              1e-9 * rng.standard_normal(shape[0])):   # a polish-sized residual
        ref = scipy.linalg.lstsq(N, r, lapack_driver="gelsy")[0]
        z = solve(r)
        # both are backward stable: they agree to rounding times N's condition
        # (at most ~1e8 here: six decades of column scale, dependent rows/columns)
        assert np.linalg.norm(z - ref) <= 1e-7 * max(np.linalg.norm(ref), 1e-300)
        assert np.linalg.norm(N @ z - r) <= np.linalg.norm(N @ ref - r) * (1 + 1e-6) + (
            1e-12 * np.linalg.norm(r))
    np.testing.assert_array_equal(N, keep)  # the factorisation worked on a copy


def test_least_norm_on_an_underdetermined_system():
    # x + y = 2 has the solutions (t, 2 - t); the least norm one is (1, 1)
    z = least_squares(np.array([[1.0, 1.0]]))(np.array([2.0]))
    np.testing.assert_allclose(z, [1.0, 1.0], rtol=1e-15)


def test_zero_and_empty_matrices_give_zero():
    assert np.all(least_squares(np.zeros((3, 4)))(np.ones(3)) == 0.0)
    assert least_squares(np.zeros((0, 4)))(np.zeros(0)).shape == (4,)


def test_a_matrix_that_is_not_finite_is_refused():
    with pytest.raises(ValueError):
        least_squares(np.array([[1.0, np.nan], [0.0, 1.0]]))


def test_zero_columns_take_no_part():
    rng = np.random.default_rng(7)
    N = rng.standard_normal((20, 50))
    N[:, rng.choice(50, 30, replace=False)] = 0.0
    r = rng.standard_normal(20)
    z = least_squares(N)(r)
    ref = scipy.linalg.lstsq(N, r, lapack_driver="gelsy")[0]
    assert np.all(z[~N.any(axis=0)] == 0.0)
    assert np.linalg.norm(z - ref) <= 1e-12 * np.linalg.norm(ref)
