"""The exchange method's master QP through Clarabel's own API against the cvxpy
master it replaced: the same certified optimum.  Both are run to a certified relative gap
of 1e-7 (the certificate recomputes both bounds from the data), so their optima must agree
within the sum of the two certified gaps.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import convexkern as ck
from convexkern import transforms
from convexkern.data import load_usps
from convexkern.errors import InvalidInputError
from convexkern.formulations import sdpm

pytestmark = pytest.mark.filterwarnings("ignore:.*dimension greater than 2")


@pytest.fixture(scope="module")
def usps16():
    """16 real USPS training images, eight '1' (+1) and eight '9' (-1), as rotations."""
    ds = load_usps("train")
    sel = np.concatenate([np.flatnonzero(ds.y == 1)[:8], np.flatnonzero(ds.y == 9)[:8]])
    return transforms.rotation_trajectories(ds.X[sel]), np.where(ds.y[sel] == 1, 1.0, -1.0)


@pytest.mark.parametrize("segment,C", [(math.radians(20), None), (math.radians(20), 0.01),
                                       (None, 0.01)])
@pytest.mark.slow
def test_native_master_matches_cvxpy_master(usps16, segment, C):
    X, y = usps16
    out = {}
    for master in ("clarabel", "cvxpy"):
        # the previous configuration (every cut kept, centre start): the masters as they were
        r = ck.solve(sdpm.primal(X, y, segment, C), "exchange", tol=1e-7, master=master,
                     drop_after=None, init="center")
        assert r.status is ck.Status.OPTIMAL and r.rel_gap <= 1e-7, (master, r.message)
        out[master] = r
    a, b = out["clarabel"], out["cvxpy"]
    assert abs(a.primal_value - b.primal_value) <= (a.rel_gap + b.rel_gap) * abs(b.primal_value)
    # each certified bracket contains the other's certified optimum
    assert a.dual_value <= b.primal_value and b.dual_value <= a.primal_value


def test_native_master_failure_is_a_status(usps16, monkeypatch):
    import clarabel

    X, y = usps16

    def fail(*args, **kwargs):
        raise RuntimeError("simulated crash")

    monkeypatch.setattr(clarabel, "DefaultSolver", fail)
    r = ck.solve(sdpm.primal(X, y, math.radians(20), 0.01), "exchange", master="clarabel")
    assert r.status is ck.Status.ERROR and "simulated crash" in r.message, r
    assert not r.status.has_solution


def test_ipm_master_failure_falls_back_to_clarabel(usps16, monkeypatch):
    """A failing interior-point master (simulated) hands the master to Clarabel; the run
    still ends certified."""
    from convexkern.algorithms import exchange as ex

    def fail(*args, **kwargs):
        raise np.linalg.LinAlgError("simulated")

    monkeypatch.setattr(ex, "master_qp", fail)
    X, y = usps16
    f = sdpm.primal(X, y, math.radians(20), 0.01)
    r = ck.solve(f, "exchange", tol=1e-7)
    ref = ck.solve(f, "clarabel", tol=1e-8)
    assert r.status is ck.Status.OPTIMAL and r.solver_stats["master_steps"] == 0, r.message
    assert r.dual_value <= ref.primal_value and ref.dual_value <= r.primal_value


def test_native_master_infeasible_hard_margin_is_a_status():
    """Two identical trajectories with opposite labels: the hard margin is infeasible
    already on the first cuts."""
    ds = load_usps("train")
    X = transforms.rotation_trajectories(ds.X[[0, 0, 1]])
    y = np.array([1.0, -1.0, 1.0])
    r = ck.solve(sdpm.primal(X, y, math.radians(10), None), "exchange")
    assert r.status is ck.Status.INFEASIBLE, r


def test_unknown_master_is_refused(usps16):
    X, y = usps16
    with pytest.raises(InvalidInputError, match="master"):
        ck.solve(sdpm.primal(X, y, math.radians(20), 0.01), "exchange", master="bogus")
