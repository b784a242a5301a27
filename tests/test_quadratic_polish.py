"""``quadratic_polish`` (math/conic/fix.py): ``w`` moved so that the dual residual
``c + A'y + Pw`` vanishes on ``P``'s used columns; a diagonal block (a sum of squares) is
solved by division, any other by least squares, to the same point."""

from __future__ import annotations

from functools import partial

import numpy as np
import scipy.sparse as sp

from convexkern.math.conic.bounds import _dual_residual
from convexkern.math.conic.data import ConicData, transposed
from convexkern.math.conic.fix import quadratic_polish


def _case(P: np.ndarray, seed: int = 0):
    rng = np.random.default_rng(seed)
    n, m = P.shape[0], 4
    A = sp.csr_matrix(rng.standard_normal((m, n)))
    data = ConicData(c=rng.standard_normal(n), A=A, b=rng.standard_normal(m),
                     P=sp.csr_matrix(P), nonneg=m)
    y = np.abs(rng.standard_normal(m))
    w = rng.standard_normal(n)
    residual = partial(_dual_residual, data, transposed(data))
    term = -np.full(n, 1.0)  # the residual "costs" 1 per column: worth polishing
    return data, y, w, residual, term


def test_a_diagonal_block_is_solved_by_division():
    P = np.diag([2.0, 0.5, 4.0, 1e-3, 8.0])
    data, y, w, residual, term = _case(P)
    w2 = quadratic_polish(data, y, w, residual, term, wanted=True)
    r, err = residual(y, w2)
    assert w2 is not w
    assert np.max(np.abs(r)) <= 10 * np.max(err)
    # the exact minimiser of the residual: w = -(c + A'y) / diag(P)
    np.testing.assert_allclose(w2, -(data.c + data.A.T @ y) / np.diag(P), rtol=1e-12)


def test_a_dense_block_is_solved_too():
    rng = np.random.default_rng(1)
    L = rng.standard_normal((5, 5))
    data, y, w, residual, term = _case(L @ L.T + 0.1 * np.eye(5))
    w2 = quadratic_polish(data, y, w, residual, term, wanted=True)
    r, err = residual(y, w2)
    assert np.max(np.abs(r)) <= 1e3 * np.max(err)


def test_nothing_moves_when_not_wanted():
    data, y, w, residual, term = _case(np.diag([2.0, 1.0, 1.0, 1.0, 1.0]))
    assert quadratic_polish(data, y, w, residual, term, wanted=False) is w
