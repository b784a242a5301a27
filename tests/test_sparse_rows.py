"""The certificate's row selections without SciPy's indexing (``data.take``,
``data.rows_dot``, ``data.entries``): the same matrices and values as ``M[rows]``,
``M[rows][:, cols]``, ``(M @ v)[rows]`` and ``M[rows, cols]``, on shapes with empty rows,
repeated rows, explicit zeros and duplicate entries; and a row product whose rounding
stays within the ``gamma`` bound the triangular enclosure charges for it."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp

from convexkern.math.conic import data as D


def _matrices(seed: int) -> tuple[sp.csr_matrix, np.random.Generator]:
    rng = np.random.default_rng(seed)
    m, n = (int(v) for v in rng.integers(1, 25, 2))
    M = sp.random(m, n, density=float(rng.uniform(0.0, 0.6)), format="csr",
                  random_state=seed, data_rvs=lambda k: rng.normal(size=k))
    return M, rng


@pytest.mark.parametrize("seed", range(60))
def test_take_is_scipy_indexing(seed: int) -> None:
    M, rng = _matrices(seed)
    m, n = M.shape
    rows = rng.integers(0, m, int(rng.integers(0, 2 * m + 1)))  # repeats, any order
    cols = rng.permutation(n)[: int(rng.integers(0, n + 1))]
    got, want = D.take(M, rows), M[rows]
    assert got.shape == want.shape
    assert np.array_equal(got.toarray(), want.toarray())
    got, want = D.take(M, rows, cols), M[rows][:, cols]
    assert got.shape == want.shape
    assert np.array_equal(got.toarray(), want.toarray())


@pytest.mark.parametrize("seed", range(60))
def test_entries_is_scipy_elementwise(seed: int) -> None:
    M, rng = _matrices(seed)
    m, n = M.shape
    k = int(rng.integers(0, 40))
    rows, cols = rng.integers(0, m, k), rng.integers(0, n, k)
    want = np.asarray(M[rows, cols]).ravel() if k else np.zeros(0)
    assert np.array_equal(D.entries(M, rows, cols), want)


def test_entries_sum_duplicates_and_keep_explicit_zeros() -> None:
    # CSR with a duplicate entry (0, 1) stored twice and an explicit zero at (1, 0)
    M = sp.csr_matrix((np.array([1.5, 2.0, 0.0, -3.0]), np.array([1, 1, 0, 2]),
                       np.array([0, 2, 4])), shape=(2, 3))
    assert np.array_equal(D.entries(M, np.array([0, 1, 1, 0]), np.array([1, 0, 2, 0])),
                          [3.5, 0.0, -3.0, 0.0])
    assert np.array_equal(D.take(M, np.array([1, 0])).toarray(), M[[1, 0]].toarray())


@pytest.mark.parametrize("seed", range(40))
def test_rows_dot_within_its_rounding_bound(seed: int) -> None:
    """``rows_dot`` differs from the exact row products by at most ``gamma_k |M||v|``
    (the bound the triangular radius multiplies by), on rows that cancel."""
    M, rng = _matrices(seed)
    m, n = M.shape
    v = rng.normal(size=n) * 10.0 ** rng.integers(-8, 9, n)
    rows = rng.integers(0, m, int(rng.integers(1, 2 * m + 1)))
    got = D.rows_dot(M, rows, v)
    assert np.allclose(got, (M @ v)[rows], rtol=1e-12, atol=1e-300 + 1e-12 * float(
        np.max(abs(M) @ np.abs(v), initial=0.0)))
    absM = abs(M)
    for i, g in zip(rows.tolist(), got.tolist(), strict=True):
        lo, hi = M.indptr[i], M.indptr[i + 1]
        exact = sum((Fraction(float(a)) * Fraction(float(v[j]))
                     for a, j in zip(M.data[lo:hi], M.indices[lo:hi])), Fraction(0))
        k = hi - lo
        bound = float(D._gamma(k)) * float(absM[i].toarray().ravel() @ np.abs(v)) if k else 0.0
        assert abs(Fraction(g) - exact) <= Fraction(bound) + Fraction(1e-300)
