"""The certificate inside the solve's budget: its own solve (the phase-one point) sees only
what is left of ``time_limit``, a report says how long the certificate took, and a memory
error in the certificate is a report, not a foreign exception."""

from __future__ import annotations

import time

import cvxpy as cp
import numpy as np

import convexkern as ck
from convexkern.math.budget import deadline, time_left
from convexkern.math.conic import ConicData, interior_point
from convexkern.report import Status


def _needs_phase_one() -> ConicData:
    """min x1 s.t. x1 + x2 = 1, x >= 0 (nonneg rows), given a point off its cone rows:
    the upper bound's repair asks for a phase-one point."""
    A = np.array([[1.0, 1.0], [-1.0, 0.0], [0.0, -1.0]])
    return ConicData(c=np.array([1.0, 0.0]), A=A, b=np.array([1.0, 0.0, 0.0]), zero=1,
                     nonneg=2)


def test_time_left_counts_down_inside_a_deadline_only():
    assert time_left() is None
    with deadline(time.perf_counter() + 10.0):
        left = time_left()
        assert left is not None and 9.0 < left <= 10.0
        with deadline(None):
            assert time_left() is None
    assert time_left() is None


def test_no_phase_one_once_the_budget_is_spent():
    data = _needs_phase_one()
    with deadline(time.perf_counter() - 1.0):
        t0 = time.perf_counter()
        assert interior_point(data) == (None, 0.0)
        assert time.perf_counter() - t0 < 0.5
    assert "interior" not in data.cache  # a skip is not remembered
    point, margin = interior_point(data)  # with time, the phase one runs
    assert point is not None and margin > 0


def test_reports_carry_the_certificate_time(pima_small):
    _, y, K = pima_small
    f = ck.formulations.svm.dual(K, y, C=1.0)
    for solver in ("clarabel", "smo"):
        r = ck.solve(f, solver)
        assert r.status is Status.OPTIMAL
        assert 0.0 <= r.certify_time <= r.wall_time
        assert r.to_dict()["certify_time"] == r.certify_time


def test_a_memory_error_in_the_certificate_is_a_report(monkeypatch):
    x = cp.Variable(2, name="x")
    f = ck.from_cvxpy(cp.Problem(cp.Minimize(cp.sum(x)), [x >= 1]), "mem")

    def refuse(point, tol=None):
        raise MemoryError("Unable to allocate 2.5 GiB for an array")

    monkeypatch.setattr(f, "certificate", refuse)
    r = ck.solve(f, "clarabel")
    assert r.status is Status.ERROR and "the certificate ran out of memory" in r.message
    assert "2.5 GiB" in r.message


def _big_psd_block(k: int) -> ConicData:
    """min tr(X) s.t. X_11 = 1, X PSD (k x k, one svec block, SCS's lower triangle)."""
    size = k * (k + 1) // 2
    rows_eq = np.zeros((1, size))
    rows_eq[0, 0] = 1.0
    A = np.vstack([rows_eq, -np.eye(size)])
    c = np.zeros(size)
    c[[j * k - j * (j - 1) // 2 for j in range(k)]] = 1.0  # the diagonal in svec order
    return ConicData(c=c, A=A, b=np.concatenate([[1.0], np.zeros(size)]), zero=1,
                     psd=[k])


def test_a_phase_one_that_cannot_fit_the_deadline_is_not_started():
    """A 60 x 60 PSD block: the phase one's first factorisation (a dense 1830 x 1830
    block, 2e9 flops) cannot be interrupted, so with 0.5 s left it is not begun: a
    skipped phase one, not an overrun deadline (SDPLIB mcp100 under time_limit=1 took
    3.9 s before); with no deadline it runs."""
    data = _big_psd_block(60)
    with deadline(time.perf_counter() + 0.5):
        assert interior_point(data) == (None, 0.0)
    assert "interior" not in data.cache
    small = _big_psd_block(4)
    point, margin = interior_point(small)
    assert point is not None and margin > 0


def test_the_phase_one_reads_the_svec_as_the_matrix_it_is():
    """The phase-one margin of a PSD block is its smallest eigenvalue: the selector from
    svec to the matrix (sparse) must put each scaled off-diagonal entry in both places."""
    from convexkern.math.conic.cones import _mat_expr, _svec_index

    k = 5
    rng = np.random.default_rng(3)
    S = rng.standard_normal((k, k))
    S = S + S.T
    for lower in (True, False):
        r, c = _svec_index(k, lower)
        v = np.where(r == c, S[r, c], np.sqrt(2.0) * S[r, c])
        M = _mat_expr(cp, cp.Constant(v), k, lower).value
        np.testing.assert_allclose(M, S, rtol=0, atol=1e-14)
