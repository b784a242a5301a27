"""The triangular basis of the equality rows (convexkern/math/conic/triangular.py): its
enclosure checked in rational arithmetic, and the nearest correlation matrix, whose rows
``diag(X) = 1`` share their columns with ``X - A = Z`` (no diagonal basis), certified at
a size (50 x 50: 2550 equality rows) the dense correction refuses."""

from __future__ import annotations

from fractions import Fraction

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp

import convexkern as ck
from convexkern.math.conic.triangular import triangular_basis, triangular_radius
from convexkern.report import Status


def _exact_inverse(M: np.ndarray) -> list[list[Fraction]]:
    """``M^{-1}`` in rational arithmetic (Gauss-Jordan on the stored doubles)."""
    n = M.shape[0]
    a = [[Fraction(float(v)) for v in row] + [Fraction(int(i == j)) for j in range(n)]
         for i, row in enumerate(M)]
    for c in range(n):
        p = next(r for r in range(c, n) if a[r][c] != 0)
        a[c], a[p] = a[p], a[c]
        piv = a[c][c]
        a[c] = [v / piv for v in a[c]]
        for r in range(n):
            if r != c and a[r][c] != 0:
                f = a[r][c]
                a[r] = [v - f * w for v, w in zip(a[r], a[c], strict=True)]
    return [row[n:] for row in a]


def _ncm_rows(n: int, rng: np.random.Generator) -> sp.csr_matrix:
    """Rows ``w_k Z_k - v_k X_k = ...`` for every entry ``k`` and ``u_i X_ii = ...``, with
    decimal-like coefficients (columns: X first, then Z)."""
    N = n * n
    rows, cols, vals = [], [], []
    for k in range(N):
        rows += [k, k]
        cols += [N + k, k]
        vals += [float(rng.choice([1.0, 0.3, -2.7])), float(rng.choice([-1.0, 0.7, 1.1]))]
    for i in range(n):
        rows.append(N + i)
        cols.append(i * n + i)
        vals.append(float(rng.choice([1.0, -0.1, 3.3])))
    return sp.csr_matrix((vals, (rows, cols)), shape=(N + n, 2 * N))


def test_the_enclosure_holds_the_exact_correction_and_is_tight():
    """For ``|r| <= rhs``, the largest ``|delta_c|`` of ``M delta = r`` is
    ``sum_j |M^{-1}|_cj rhs_j`` (at a vertex of the box), computed exactly; the radius
    covers it, within rounding (each row of this structure has one later column, so the
    back-substitution bound is the exact maximum)."""
    rng = np.random.default_rng(3)
    A = _ncm_rows(3, rng)
    peeled = triangular_basis(A, np.ones(A.shape[1]))
    assert peeled is not None and len(peeled.rounds) == 2
    M = A[peeled.rows][:, peeled.B].toarray()  # rows and columns in the peeled order
    inv = _exact_inverse(M)
    rhs = rng.uniform(1e-9, 1e-3, A.shape[0])
    d = triangular_radius(peeled, rhs)
    rhs_peeled = [Fraction(float(v)) for v in rhs[peeled.rows]]
    for c in range(M.shape[0]):
        exact = sum(abs(inv[c][j]) * rhs_peeled[j] for j in range(M.shape[0]))
        assert Fraction(float(d[c])) >= exact, c
        assert float(d[c]) <= float(exact) * (1 + 1e-12) + 1e-300, c


def test_a_row_with_no_singleton_column_has_no_triangular_basis():
    """Two rows over the same two columns: neither column is ever a singleton."""
    A = sp.csr_matrix(np.array([[1.0, 1.0], [1.0, -1.0]]))
    assert triangular_basis(A, np.ones(2)) is None


def test_a_chain_is_peeled_one_row_a_round():
    """``x_{i+1} - x_i = r_i`` with ``x_0`` pinned: a chain of rounds, each bound the
    running sum of the right-hand sides (exactly, up to rounding)."""
    k = 30
    A = sp.diags([np.ones(k), -np.ones(k - 1)], [0, -1], shape=(k, k), format="csr")
    peeled = triangular_basis(A, np.ones(k))
    assert peeled is not None and len(peeled.rounds) == k
    d = triangular_radius(peeled, np.full(k, 1e-6))
    order = np.argsort(peeled.B)
    np.testing.assert_allclose(d[order], 1e-6 * np.arange(1, k + 1), rtol=1e-12)


def _ncm(n: int, seed: int) -> cp.Problem:
    rng = np.random.default_rng(seed)
    B = rng.uniform(-1, 1, (n, n))
    A = (B + B.T) / 2
    np.fill_diagonal(A, 1.0)
    X = cp.Variable((n, n), symmetric=True, name="X")
    return cp.Problem(cp.Minimize(cp.sum_squares(X - A)), [X >> 0, cp.diag(X) == 1])


@pytest.mark.parametrize("n", [10, 50])
def test_the_nearest_correlation_matrix_is_certified(n):
    """At n = 50 (2550 equality rows) the upper bound was "too many to correct exactly";
    the bracket holds an independent high-accuracy solve of the same problem."""
    ref = _ncm(n, 1)
    ref.solve(solver="CLARABEL", tol_gap_abs=1e-10, tol_gap_rel=1e-10, tol_feas=1e-10)
    r = ck.solve(ck.from_cvxpy(_ncm(n, 1), "ncm"), "clarabel")
    assert r.status is Status.OPTIMAL, r.message
    slack = 1e-9 * abs(ref.value)
    assert r.dual_value - slack <= ref.value <= r.primal_value + slack


def test_a_lasso_with_more_free_columns_than_the_dense_correction_takes():
    """``sum_squares(A x - b) / m + 0.1 |x|_1`` with m = 2100 has 2140 free columns whose
    dual residual must be cancelled exactly (the box leaves them open: ``u >= |x|`` gives
    ``u >= 0`` only by adding two rows).  Before, "2140 unbounded variables are too many
    to correct"; the dual correction now peels the ``w`` of ``P``'s diagonal off each
    ``sum_squares`` row and solves the 40 rows left densely.  The bracket holds an
    independent high-accuracy solve."""
    rng = np.random.default_rng(1)
    m, n = 2100, 20
    A, b = rng.standard_normal((m, n)), rng.standard_normal(m)

    def lasso() -> cp.Problem:
        x = cp.Variable(n, name="x")
        return cp.Problem(cp.Minimize(cp.sum_squares(A @ x - b) / m + 0.1 * cp.norm1(x)))

    ref = lasso()
    ref.solve(solver="CLARABEL", tol_gap_abs=1e-10, tol_gap_rel=1e-10, tol_feas=1e-10)
    r = ck.solve(ck.from_cvxpy(lasso(), "lasso"), "clarabel")
    assert r.status is Status.OPTIMAL, r.message
    slack = 1e-8 * abs(ref.value)
    assert r.dual_value - slack <= ref.value <= r.primal_value + slack
