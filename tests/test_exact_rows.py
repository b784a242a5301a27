"""The exact row sums of the certificate (``data._exact_rows``), with the short rows summed
by array operations (``data._short_sums``): every value is the correctly rounded exact
``const + (M v)_i`` and its error 0 exactly when that is a float, checked against
rational arithmetic on rows built to cancel, to be exact and to span 600 orders of
magnitude."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from convexkern.math.conic import data as D


def _exact(M: sp.csr_matrix, v: np.ndarray, const: np.ndarray) -> list[Fraction]:
    out = []
    for i in range(M.shape[0]):
        acc = Fraction(float(const[i]))
        for k in range(M.indptr[i], M.indptr[i + 1]):
            acc += Fraction(float(M.data[k])) * Fraction(float(v[M.indices[k]]))
        out.append(acc)
    return out


def _check(M: sp.csr_matrix, v: np.ndarray, const: np.ndarray) -> None:
    vals, errs = D._exact_rows(M, v, np.arange(M.shape[0]), const)
    for i, ex in enumerate(_exact(M, v, const)):
        if not np.isfinite(errs[i]):
            continue  # a row near overflow or underflow: no claim
        assert vals[i] == float(ex), (i, vals[i], float(ex))  # correctly rounded
        assert (errs[i] == 0.0) == (Fraction(float(vals[i])) == ex), (i, errs[i])
        assert abs(Fraction(float(vals[i])) - ex) <= Fraction(float(errs[i]))


def _rows(rng: np.random.Generator, m: int, n: int, mag: float) -> tuple:
    """``m`` rows of 1..8 entries: random, exactly cancelling (``a x - a x``), integer,
    and decimal data, with magnitudes ``10**(+-mag)``."""
    rows, cols, data = [], [], []
    v = rng.choice([-1.0, 1.0], n) * 10.0 ** rng.uniform(-mag, mag, n)
    v[rng.random(n) < 0.2] = 0.0  # exact zeros in the point
    const = rng.choice([-1.0, 1.0], m) * 10.0 ** rng.uniform(-mag, mag, m)
    for i in range(m):
        kind = i % 4
        k = int(rng.integers(1, 9))
        js = rng.choice(n, size=k, replace=False)
        if kind == 0:  # random data
            a = rng.choice([-1.0, 1.0], k) * 10.0 ** rng.uniform(-mag, mag, k)
        elif kind == 1 and k >= 2:  # two terms cancel exactly; the constant cancels too
            a = rng.standard_normal(k)
            a[1] = -a[0] * v[js[0]] / v[js[1]] if v[js[1]] != 0 else 0.0
            const[i] = 0.0
        elif kind == 2:  # integers: exact sums are common
            a = rng.integers(-5, 6, k).astype(float)
            const[i] = float(rng.integers(-5, 6))
        else:  # decimal data
            a = np.round(rng.standard_normal(k), 2)
        rows += [i] * k
        cols += js.tolist()
        data += a.tolist()
    M = sp.csr_matrix((data, (rows, cols)), shape=(m, n))
    M.sum_duplicates()
    return M, v, const


@pytest.mark.parametrize("mag", [0.0, 3.0, 30.0, 140.0])
def test_short_rows_in_bulk_are_correctly_rounded_and_exact_where_exact(mag):
    rng = np.random.default_rng(int(mag) + 1)
    M, v, const = _rows(rng, 600, 300, mag)
    _check(M, v, const)


def test_integer_rows_that_sum_to_zero_are_exact_zeros():
    """``x - y`` at ``x = y`` (and ``2x - x - x``): an exact 0, error 0, in bulk."""
    n = 200
    vv = np.random.default_rng(0).standard_normal(n)
    M = sp.lil_matrix((n - 1, n))
    vv[1::2] = vv[0::2][: vv[1::2].size]  # v[2k+1] = v[2k]
    for i in range(0, n - 1, 2):
        M[i, i], M[i, i + 1] = 1.0, -1.0
    for i in range(1, n - 1, 2):
        M[i, i], M[i, i + 1] = 2.0, 0.5
    M = sp.csr_matrix(M)
    vals, errs = D._exact_rows(M, vv, np.arange(n - 1), np.zeros(n - 1))
    even = np.arange(0, n - 1, 2)
    assert np.all(vals[even] == 0.0) and np.all(errs[even] == 0.0)
    _check(M, vv, np.zeros(n - 1))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([1.0, 8.0, 60.0]))
def test_the_array_sums_agree_with_rational_arithmetic(seed, mag):
    rng = np.random.default_rng(seed)
    M, v, const = _rows(rng, 80, 40, mag)
    _check(M, v, const)


def test_the_array_path_decides_most_short_rows():
    """Not vacuous: on rows of random data the array sums decide nearly all rows (the
    rest go to ``math.fsum``)."""
    rng = np.random.default_rng(5)
    M, v, const = _rows(rng, 400, 200, 3.0)
    starts = M.indptr[:-1]
    T = np.zeros((M.shape[0], 2 * 8 + 1))
    T[:, -1] = const
    for i in range(M.shape[0]):
        for q, k in enumerate(range(starts[i], M.indptr[i + 1])):
            p, e = D._two_product(np.array([M.data[k]]), np.array([v[M.indices[k]]]))
            T[i, q], T[i, 8 + q] = p[0], e[0]
    _, _, decided = D._short_sums(T)
    assert np.mean(decided) > 0.9
    assert np.mean(D._short_sums(T, passes=1)[2]) < np.mean(decided)  # sweeps matter


def test_errors_that_cancel_are_never_read_as_a_rounding():
    """The decision on rows ``(E, s)``: errors that sum to 0 (the row exact, though not
    all of them 0) are not taken for a rounding of ``s`` (undecided: left to fsum);
    one error that dominates, under half of ``s``'s gap, is."""
    T = np.array([[1e-20, -1e-20, 0.0, 1.0], [3e-30, -1e-30, -2e-30, 5.0],
                  [0.0, 0.0, 1e-25, 1.0], [0.0, 0.0, 0.0, 3.0],
                  [0.0, 0.0, 0.6 * np.spacing(1.0), 1.0]])
    vals, errs, decided = D._decide(T)
    assert not decided[0] and not decided[1]
    assert decided[2] and vals[2] == 1.0 and errs[2] == 0.5 * np.spacing(1.0)
    assert decided[3] and vals[3] == 3.0 and errs[3] == 0.0
    assert not decided[4]  # more than half a gap: 1.0 is not the rounded sum
