"""The primal box's second-order-cone norm rule (``boxes._soc_norm``): the tail of a cone
``|b_T - M x_S| <= head`` with ``M`` of full column rank bounds every ``x_j`` in ``S`` by
``(head + |b_T|) / sqrt(mu)``, ``mu`` a verified lower bound on ``lambda_min(M'M)``.  It
is what bounds the free variables of a quadratic written as a cone (ECOS, QOCO)."""

from __future__ import annotations

from fractions import Fraction

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp

import convexkern as ck
from convexkern.math.conic.boxes import _primal_box, _soc_norm, _tail_columns
from convexkern.math.conic.data import ConicData
from convexkern.report import Status
from tests.ridge_exact_oracle import exact_ridge


def _block(rng, t: int, s: int, scale: float, b_scale: float) -> ConicData:
    """One second-order block: head row ``s_0 = h0 - x_{s}`` (a column of its own, the
    head variable, boxed by a nonnegative row), tail ``b_T - M x_S``."""
    M = rng.standard_normal((t, s)) * scale
    b_T = rng.standard_normal(t) * b_scale
    n = s + 1
    A = np.zeros((1 + 1 + t, n))
    A[0, s] = 1.0       # nonneg row: 5 - h >= 0
    A[1, s] = -1.0      # SOC head: s_0 = h
    A[2:, :s] = M       # SOC tail: b_T - M x
    b = np.concatenate([[5.0, 0.0], b_T])
    return ConicData(c=np.zeros(n), A=sp.csr_matrix(A), b=b, nonneg=1, soc=[1 + t])


def _worst(data: ConicData, s: int, head: float) -> np.ndarray:
    """``max |x_j|`` over ``|b_T - M x| <= head``: ``|(M^+ b)_j| + head |row j of M^+|``."""
    M = data.A[2:, :s].toarray()
    pinv = np.linalg.pinv(M)
    return np.abs(pinv @ data.b[2:]) + head * np.linalg.norm(pinv, axis=1)


@pytest.mark.parametrize("scale", [1e-8, 1.0, 1e8])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_norm_box_holds_every_feasible_point(scale, seed):
    """The box of ``x_S`` holds the farthest feasible point of each coordinate, the tail's
    constant far larger than the head (a rule that dropped ``|b_T|`` fails here), at
    scales 1e-8 .. 1e8 of ``M``."""
    rng = np.random.default_rng(seed)
    data = _block(rng, t=12, s=7, scale=scale, b_scale=100.0 * scale)
    assert list(_tail_columns(data, 1, 13)) == list(range(7))
    assert _soc_norm(data, 1, 13) is not None
    lo, hi = _primal_box(data, np.inf)
    worst = _worst(data, 7, 5.0)
    assert np.all(hi[:7] >= worst) and np.all(lo[:7] <= -worst)
    assert np.all(np.isfinite(hi[:7]))
    # and not absurdly loose: within sqrt(2) * cond(M) of the truth
    sv = np.linalg.svd(data.A[2:, :7].toarray(), compute_uv=False)
    assert np.max(hi[:7]) <= 2.0 * (sv[0] / sv[-1]) * np.max(worst)


def test_mu_is_a_lower_bound_on_the_exact_smallest_eigenvalue():
    """``mu`` against ``M'M`` formed in rational arithmetic: ``M'M - mu I`` has a
    Cholesky factor in exact arithmetic (all pivots positive)."""
    rng = np.random.default_rng(3)
    data = _block(rng, t=6, s=4, scale=1.0, b_scale=1.0)
    root_mu, _ = _soc_norm(data, 1, 7)
    M = [[Fraction(float(v)) for v in row] for row in data.A[2:, :4].toarray()]
    mu = Fraction(root_mu) ** 2
    G = [[sum(M[k][i] * M[k][j] for k in range(6)) - (mu if i == j else 0)
          for j in range(4)] for i in range(4)]
    for p in range(4):  # exact Gaussian elimination: every pivot of an SPD matrix > 0
        assert G[p][p] > 0
        for r in range(p + 1, 4):
            f = G[r][p] / G[p][p]
            G[r] = [a - f * b for a, b in zip(G[r], G[p], strict=True)]


def test_a_rank_deficient_tail_gives_no_rule():
    rng = np.random.default_rng(4)
    data = _block(rng, t=5, s=3, scale=1.0, b_scale=1.0)
    A = data.A.toarray()
    A[2:, 2] = A[2:, 0] + A[2:, 1]  # a dependent column
    data = ConicData(c=data.c, A=sp.csr_matrix(A), b=data.b, nonneg=1, soc=[6])
    assert _soc_norm(data, 1, 6) is None


@pytest.mark.parametrize("seed", [0, 1])
def test_ecos_on_an_unboxed_ridge_needs_no_dual_phase_one(seed):
    """``min |Ax - b|^2 + lam |x|^2`` with ``x`` free: ECOS writes both squares as
    second-order cones, whose norm rule boxes ``x``; the lower bound needs no dual phase
    one, and the bracket holds the optimum computed exactly."""
    rng = np.random.default_rng(seed)
    A, b = rng.standard_normal((8, 5)), rng.standard_normal(8)
    x = cp.Variable(5)
    prob = cp.Problem(cp.Minimize(cp.sum_squares(A @ x - b) + 0.3 * cp.sum_squares(x)))
    r = ck.solve(ck.from_cvxpy(prob), "ecos")
    exact = exact_ridge(A, b, 0.3)
    assert r.dual_value <= exact <= r.primal_value
    assert r.status is Status.OPTIMAL, r.message
    assert "dual_phase_one_margin" not in r.residuals
