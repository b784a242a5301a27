"""The conic form read without SciPy's conversions (``generic._stacked``,
``generic._symmetric_entries``, ``generic._offset``, ``data._upper_mirrored``,
``data.transposed``, ``data.row_range``, ``fix._room_rows``, ``slack.abs_mv``): each gives
what SciPy's own operations give, bit for bit, on matrices with empty rows, explicit
zeros, duplicate entries, unsorted indices and magnitudes from 1e-8 to 1e8, on both sides
of the size (``data.ARRAYS_NNZ``) past which SciPy's conversions are used; a matrix
outside the fast path (not canonical, CSC where CSR is read) goes through SciPy, and a
caller's matrix is not changed."""

from __future__ import annotations

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp

from convexkern import generic as G
from convexkern.math.conic import chains as CH
from convexkern.math.conic import data as D
from convexkern.math.conic import fix as F
from convexkern.math.conic import slack as S


@pytest.fixture(params=["arrays", "scipy"])
def path(request, monkeypatch) -> str:
    """Each test on both paths: every matrix read from its arrays, or none."""
    limit = 10**9 if request.param == "arrays" else -1
    for mod in (D, S, CH):
        monkeypatch.setattr(mod, "ARRAYS_NNZ", limit)
    return request.param


def _random(seed: int, square: bool = False) -> tuple[sp.csr_matrix, np.random.Generator]:
    rng = np.random.default_rng(seed)
    m, n = (int(v) for v in rng.integers(0, 25, 2))
    if square:
        n = m
    M = sp.random(m, n, density=float(rng.uniform(0.0, 0.6)), format="csr",
                  random_state=seed,
                  data_rvs=lambda k: rng.normal(size=k) * 10.0 ** rng.integers(-8, 9, k))
    if M.nnz and rng.random() < 0.5:  # an explicit zero
        M.data[int(rng.integers(0, M.nnz))] = 0.0
    return M, rng


def _same(a: sp.spmatrix, b: sp.spmatrix) -> bool:
    a, b = sp.csr_matrix(a), sp.csr_matrix(b)
    return (a.shape == b.shape and np.array_equal(a.indptr, b.indptr)
            and np.array_equal(a.indices, b.indices) and np.array_equal(a.data, b.data))


def _scipy_mirrored(P: sp.spmatrix) -> sp.csr_matrix | None:
    """The upper triangle mirrored, by SciPy's own operations (duplicates summed)."""
    Q = sp.csr_matrix(P, dtype=float)
    Q.sum_duplicates()
    U = sp.triu(Q, format="csr")
    out = sp.csr_matrix(U + sp.triu(Q, k=1, format="csr").T)
    out.eliminate_zeros()
    out.sort_indices()
    return out if out.nnz else None


@pytest.mark.parametrize("seed", range(40))
def test_abs_mv_is_scipy_product_bit_for_bit(seed: int, path: str) -> None:
    M, rng = _random(seed)
    v = rng.normal(size=M.shape[1]) * 10.0 ** rng.integers(-8, 9, M.shape[1])
    want = abs(M) @ np.abs(v)
    got = S.abs_mv(M, v)
    assert got.dtype == np.float64 and np.array_equal(got, want)
    assert np.array_equal(S.abs_mv(M, v), want)  # from what was kept


def test_abs_mv_of_a_form_not_canonical_is_that_of_its_canonical_form(path: str) -> None:
    # (0, 1) stored twice with opposite signs, row 1's indices unsorted
    M = sp.csr_matrix((np.array([1.0, -1.0, 3.0, 1e-16, 1.0]), np.array([1, 1, 2, 1, 0]),
                       np.array([0, 2, 5])), shape=(2, 3))
    v = np.array([1.0, 1.0, 1.0])
    C = M.copy()
    C.sum_duplicates()
    assert np.array_equal(S.abs_mv(M, v), abs(C) @ v)
    assert S.abs_mv(sp.csr_matrix((3, 2)), np.ones(2)).dtype == np.float64  # no entries


def test_conic_data_keeps_the_callers_matrix_and_reads_it_canonical() -> None:
    A = sp.csr_matrix((np.array([2.0, 0.0, 1.0, 5.0]), np.array([1, 0, 0, 1]),
                       np.array([0, 3, 4])), shape=(2, 2))  # unsorted, a stored zero
    before = (A.data.copy(), A.indices.copy(), A.indptr.copy())
    cd = D.ConicData(c=np.zeros(2), A=A, b=np.zeros(2), nonneg=2)
    assert all(np.array_equal(a, b) for a, b in zip(before, (A.data, A.indices, A.indptr),
                                                    strict=True))
    assert cd.A.has_canonical_format and cd.A.data.all()
    assert np.array_equal(cd.A.toarray(), A.toarray())


def test_abs_mv_renews_what_it_keeps_when_the_arrays_change() -> None:
    M = sp.csr_matrix(np.array([[1.0, -2.0], [0.0, 3.0]]))
    v = np.array([1.0, 1.0])
    assert np.array_equal(S.abs_mv(M, v), [3.0, 3.0])
    M.data = np.array([-5.0, 2.0, 3.0])  # a new array, as an in-place change leaves
    assert np.array_equal(S.abs_mv(M, v), [7.0, 3.0])


@pytest.mark.parametrize("seed", range(40))
def test_transposed_is_scipy_transpose(seed: int, path: str) -> None:
    M, _ = _random(seed)
    cd = D.ConicData(c=np.zeros(M.shape[1]), A=M, b=np.zeros(M.shape[0]),
                     nonneg=M.shape[0])
    assert _same(D.transposed(cd), cd.A.T.tocsr())


@pytest.mark.parametrize("seed", range(30))
def test_row_range_and_room_rows_are_scipy_slices(seed: int) -> None:
    M, rng = _random(seed)
    m = M.shape[0]
    z = int(rng.integers(0, m + 1))
    nn = int(rng.integers(0, m - z + 1))
    assert _same(D.row_range(M, z, z + nn), M[z: z + nn])
    cd = D.ConicData(c=np.zeros(M.shape[1]), A=M, b=np.zeros(m), zero=z, nonneg=m - z)
    cd.nonneg, cd.soc = nn, [1] * (m - z - nn)  # the rows after the nonneg ones: cones
    (row, col, val), cone_cols = F._room_rows(cd)
    want = cd.A[z: z + nn].tocoo()
    assert np.array_equal(row, want.row) and np.array_equal(col, want.col)
    assert np.array_equal(val, want.data)
    assert np.array_equal(cone_cols, cd.A[z + nn:].tocoo().col)


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("seed", range(30))
def test_upper_mirrored_is_scipy_on_canonical_input(seed: int, fmt: str, path: str) -> None:
    M, _ = _random(seed, square=True)
    P = (M + M.T).asformat(fmt) if seed % 2 else M.asformat(fmt)  # also unsymmetric
    got, want = D._upper_mirrored(P), _scipy_mirrored(P)
    assert (got is None) == (want is None)
    if got is not None:
        assert _same(got, want) and got.has_canonical_format


def test_upper_mirrored_sums_duplicates_of_a_form_not_canonical(path: str) -> None:
    # (0, 1) stored twice, indices unsorted in row 0, an explicit zero, integer values
    P = sp.csr_matrix((np.array([2, 1, 1, 0, 4]), np.array([1, 0, 1, 1, 1]),
                       np.array([0, 3, 5])), shape=(2, 2))
    assert not P.has_canonical_format
    got = D._upper_mirrored(P)
    assert np.array_equal(got.toarray(), [[1.0, 3.0], [3.0, 4.0]])
    assert _same(got, _scipy_mirrored(P))
    assert D._upper_mirrored(sp.csr_matrix((3, 3))) is None


@pytest.mark.parametrize("seed", range(30))
def test_a_symmetric_p_is_taken_as_written_exactly_when_it_is(seed: int, path: str) -> None:
    M, rng = _random(seed, square=True)
    P = (M + M.T).tocsc()
    cases = [(P, np.array_equal(P.toarray(), P.toarray().T))]
    if P.nnz:  # one entry off its mirror by an ulp
        Q = P.tocsr()
        k = int(rng.integers(0, Q.nnz))
        row = int(np.searchsorted(Q.indptr, k, side="right") - 1)
        if Q.indices[k] != row:
            Q.data[k] = np.nextafter(Q.data[k], np.inf)
            cases.append((Q, False))
    for A, symmetric in cases:
        got, why = G._written_p(A)  # else averaged, or refused with a reason
        assert (got is A and not why) == symmetric
        if path == "arrays":
            assert G._symmetric_entries(A) == symmetric
    assert not G._symmetric_entries(sp.coo_matrix(P))  # another format: SciPy's path


@pytest.mark.parametrize("seed", range(30))
def test_stacked_is_scipy_vstack(seed: int, path: str) -> None:
    A, rng = _random(seed)
    B = sp.random(int(rng.integers(0, 20)), A.shape[1], density=0.3, format="csc",
                  random_state=seed + 1000)
    for top, bottom in ((A.tocsc(), B), (A, None), (None, B), (A, B.tocsr())):
        got, m0 = G._stacked(top, bottom, A.shape[1])
        blocks = [sp.csr_matrix((0, A.shape[1])) if M is None else sp.csr_matrix(M)
                  for M in (top, bottom)]
        assert _same(got, sp.vstack(blocks, format="csr"))
        assert m0 == blocks[0].shape[0]


def test_offset_is_the_objective_constant() -> None:
    x = cp.Variable(3)
    for const in (0.0, 2.5, -1e-300, 7e12):
        prob = cp.Problem(cp.Minimize(cp.sum_squares(x) + np.array([1.0, 2.0, 3.0]) @ x
                                      + const), [x >= 0])
        data, _, _ = prob.get_problem_data(cp.CLARABEL)
        pp = data["param_prob"]
        want = float(np.asarray(pp.apply_parameters()[1]).item())
        assert G._offset(pp) == want


def test_a_dense_p_goes_through_scipy(path: str) -> None:
    P = np.array([[2.0, 1.0], [1.0, 3.0]])
    got, why = G._written_p(P)
    assert got is P and not why
    assert _same(D._upper_mirrored(P), _scipy_mirrored(sp.csr_matrix(P)))
    assert D.ConicData(c=np.zeros(2), A=np.zeros((0, 2)), b=np.zeros(0), P=P).P is not None
