"""Failures met by an adversarial run of 30,000 solves that escaped ``convexkern.solve`` as
foreign exceptions: ECOS's own set-up error on rank-deficient equality rows, and an exact
sum of terms holding infinities of both signs inside the certificate.  Each is a report
(or an open bound), never a crash."""

from __future__ import annotations

import math
import warnings

import cvxpy as cp
import numpy as np
import pytest

import convexkern as ck
from convexkern.math.conic.data import _fsum
from convexkern.report import Status


def test_an_exact_sum_of_opposite_infinities_is_unknown_not_an_error():
    assert _fsum(np.array([1.0, np.inf, -np.inf])) == (pytest.approx(math.nan, nan_ok=True),
                                                       math.inf)
    s, e = _fsum(np.array([1e308, 1e308, -1e308]))  # the exact sum overflows midway
    assert (math.isnan(s) and e == math.inf) or (s == 1e308 and e >= 0.0)
    assert _fsum(np.array([0.5, 0.25])) == (0.75, 0.5 * math.ulp(0.75))


@pytest.mark.parametrize("time_limit", [None, 60.0])
@pytest.mark.parametrize("rhs", [[0.0, 0.0, 0.0, 0.25], [0.0, 0.0, 0.0, 0.0]])
def test_ecos_set_up_failure_is_an_error_status(rhs, time_limit):
    """Equality rows that are multiples of (6, 4) (the last contradicting the first, or
    consistent): ECOS raises "Internal problem occurred in ECOS while setting up the
    problem" from its C code, or dies of the heap it corrupted ("corrupted size vs.
    prev_size", "malloc(): invalid size", seen when it ran in the test process itself).
    ECOS on equality rows of deficient rank runs in a forked child, with or without a
    ``time_limit`` (``Ecos.unsafe``): the report says ``error``, this process lives on."""
    if "ecos" not in ck.available_solvers():
        pytest.skip("ECOS is not installed")
    A = np.array([[6.0, 4.0], [12.0, 8.0], [12.0, 8.0], [6.0, 4.0]])
    x = cp.Variable(2, name="x")
    prob = cp.Problem(cp.Minimize(np.array([7.5, 5.0]) @ x),
                      [A @ x == np.array(rhs), np.zeros((3, 2)) @ x <= [0.0, 0.0, 2.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = ck.solve(ck.from_cvxpy(prob), "ecos", tol=1e-6, time_limit=time_limit)
    assert r.status in (Status.ERROR, Status.INFEASIBLE, Status.OPTIMAL,
                        Status.OPTIMAL_INACCURATE), r.status
    if r.status is Status.ERROR:
        assert "ecos" in r.message.lower()
