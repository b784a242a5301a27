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
