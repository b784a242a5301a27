"""How the conic form is read: ``ConicData``'s quadratic form is the upper triangle of the
solver's ``P`` mirrored (the solvers read that triangle), and the objective's constant is
the last entry of cvxpy's objective tensor."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from convexkern.generic import _offset
from convexkern.math.conic.data import ConicData


def _mirror(P: sp.spmatrix) -> np.ndarray:
    """The upper triangle (duplicates summed) mirrored, densely."""
    U = np.triu(sp.csr_matrix(P, dtype=float).toarray())
    return U + np.triu(U, 1).T


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["full", "upper", "lower", "dups"]))
def test_the_quadratic_form_is_the_upper_triangle_mirrored(seed, kind):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 7))
    B = rng.standard_normal((n, n)) * (rng.random((n, n)) < 0.5)
    S = B + B.T
    if kind == "upper":
        P = sp.csc_matrix(np.triu(S))
    elif kind == "lower":
        P = sp.csc_matrix(np.tril(S))
    elif kind == "dups":  # a COO matrix holding some entries twice
        r, c = np.nonzero(S)
        P = sp.coo_matrix((np.concatenate([S[r, c], 0.5 * S[r, c]]),
                           (np.concatenate([r, r]), np.concatenate([c, c]))), shape=(n, n))
    else:
        P = sp.csc_matrix(S)
    d = ConicData(c=np.zeros(n), A=sp.csr_matrix((0, n)), b=np.zeros(0), P=P)
    want = _mirror(P)
    if not np.any(want):
        assert d.P is None
    else:
        assert np.array_equal(d.P.toarray(), want)
        assert d.P.has_canonical_format and np.all(d.P.data != 0)


class _Form:
    def __init__(self, q):
        self.q, self.parameters = q, []


def test_the_objective_constant_is_the_last_entry_of_its_tensor():
    q = sp.csc_matrix(np.array([[1.0], [0.0], [2.5]]))
    assert _offset(_Form(q)) == 2.5
    assert _offset(_Form(sp.csc_matrix(np.array([[1.0], [3.0], [0.0]])))) == 0.0
    assert _offset(_Form(np.array([[1.0], [-4.0]]))) == -4.0
    dup = sp.coo_matrix(([1.0, 2.0], ([2, 2], [0, 0])), shape=(3, 1))
    assert _offset(_Form(dup)) == 3.0
