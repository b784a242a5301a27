"""The hard margin's "the classes are not separable" is a proof or nothing.

A review found four conic solvers' "unbounded" on a hard-margin Krein problem reported as
true, the fact behind it being HiGHS's "infeasible" on the separability LP, a word decided
by tolerances: ``K = RBF + 1e-10 I`` on duplicated points with opposite labels is positive
definite, so the classes are separable (by a ``beta`` of size 1e10) and the optimum is
``2 / eps`` exactly.  Inseparability now needs a Farkas ray ``lam >= 0``, ``sum lam = 1``,
``y' lam = 0``, ``K (y * lam) = 0`` that holds in rational arithmetic on the stored
doubles (``convexkern.math.svm.separability``)."""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest

import convexkern as ck
from convexkern.formulations import krein, svm
from convexkern.math.svm import separability
from convexkern.report import Status

x = np.array([0.0, 0.0, 1.0, 1.0])
y = np.array([1.0, -1.0, 1.0, -1.0])
RBF = np.exp(-(x[:, None] - x[None, :]) ** 2)


def test_a_positive_definite_kernel_is_never_called_inseparable():
    K = RBF + 1e-10 * np.eye(4)
    verdict, reason = separability(K, y)
    assert verdict != "inseparable", reason
    eps = K[0, 0] - 1.0  # the diagonal shift as stored
    f = krein.stabilization(K, y, C=None, decomposition="shift")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for solver in ("clarabel", "scs", "osqp", "smo", "trik"):
            if solver not in ck.available_solvers(f):
                continue
            r = ck.solve(f, solver, tol=1e-6)
            assert r.status not in (Status.UNBOUNDED, Status.INFEASIBLE), (solver, r.message)
            # a claim left unproven names the rows in the user's terms, not cvxpy's indices
            assert "conic row" not in r.message and "conic variable" not in r.message
            # the optimum 2/eps: each finite bound on its side of it (a maximisation)
            opt = 2.0 / eps
            assert not np.isfinite(r.primal_value) or r.primal_value <= opt * (1 + 1e-12)
            assert not np.isfinite(r.dual_value) or r.dual_value >= opt * (1 - 1e-12)


def test_duplicated_points_with_opposite_labels_are_proved_inseparable():
    verdict, reason = separability(RBF, y)
    assert verdict == "inseparable" and "rational arithmetic" in reason
    # the ray itself, checked here independently: points 0 and 1 have equal rows
    assert np.array_equal(RBF[0], RBF[1])
    lam = [Fraction(1, 2), Fraction(1, 2), Fraction(0), Fraction(0)]
    assert sum(int(y[i]) * lam[i] for i in range(4)) == 0
    assert all(sum(int(y[i]) * lam[i] * Fraction(float(RBF[i, j])) for i in range(4)) == 0
               for j in range(4))
    r = ck.solve(svm.dual(RBF, y, C=None), "smo")
    assert r.status is Status.UNBOUNDED and "rational arithmetic" in r.message


def test_rows_that_differ_by_one_ulp_are_not_a_proof():
    K = RBF.copy()
    K[1, 1] = K[3, 3] = np.nextafter(1.0, 2.0)  # each pair's second point: one ulp up
    assert np.all(np.linalg.eigvalsh(K) > -1e-15)  # within rounding of PSD, so separable
    verdict, reason = separability(K, y)
    assert verdict != "inseparable", reason


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_linear_kernels_features_carry_the_proof(seed):
    """Flipped labels on 20 points in 3 dimensions: the ray on ``X`` holds exactly (the
    equations have rational data, and the support the LP names is solved exactly);
    on the stored ``X X'`` it need not."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((20, 3))
    yy = np.where(X[:, 0] > 0, 1.0, -1.0)
    yy[:3] *= -1
    verdict, reason = separability(X @ X.T, yy, X)
    assert verdict == "inseparable", reason


def test_one_duplicated_pair_among_many_points_is_proved():
    """The Farkas LP is solved by dual simplex: a vertex, whose support (here the two
    copies) the exact check can afford; an interior point would spread over all n."""
    rng = np.random.default_rng(1)
    X = rng.standard_normal((200, 5))
    X[1] = X[0]
    yy = np.where(X[:, 0] > 0, 1.0, -1.0)
    yy[0], yy[1] = 1.0, -1.0
    K = np.exp(-0.5 * ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    verdict, reason = separability(K, yy)
    assert verdict == "inseparable" and reason.startswith("proved: 2 points"), reason
