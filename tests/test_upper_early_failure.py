"""The upper bound's early failure (``cones.sure_unpaid``): an LP or QP point with an
inequality row off by more than its rounding, whose multiplier has no finite bound, fails
before its equality correction is computed.  The claim is that no correction could have
saved it: checked here on every such point the certificate meets on shipped Netlib and
Maros-Meszaros instances (the solvers whose points leave rows off: OSQP, SCS), by running
the full upper bound at the same point with the early test switched off."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import convexkern as ck
from convexkern.bench import load_suite
from convexkern.data.mps import build_problem, read_mps
from convexkern.math.conic import bounds, cones


def _files() -> dict[str, str]:
    return {p.name: p.file for s in ("netlib_small", "maros_meszaros_small")
            for p in load_suite(s).problems}


@pytest.mark.parametrize("name,solver", [("adlittle", "osqp"), ("blend", "scs"),
                                         ("kb2", "osqp"), ("share2b", "osqp"),
                                         ("QAFIRO", "scs")])
def test_an_early_failure_is_a_failure_of_the_full_bound(name, solver, monkeypatch):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        prob, _ = build_problem(read_mps(_files()[name]))
    f = ck.from_cvxpy(prob, name)
    full_upper = bounds._upper_at
    early = cones.sure_unpaid
    seen = []

    def upper_at(data, x, box, active=False):
        out = full_upper(data, x, box, active)
        if not active and bounds.sure_unpaid is early:
            xc = x if data.lb is None else np.maximum(x, data.lb)
            xc = xc if data.ub is None else np.minimum(xc, data.ub)
            s, es = bounds.slack_bound(data, bounds.clip_singletons(data, xc))
            if early(data, s, es, box) is not None:
                seen.append(name)
                assert out[0] == math.inf
                monkeypatch.setattr(bounds, "sure_unpaid", lambda *a, **k: None)
                try:  # the whole bound at the same point: its correction cannot save it
                    assert full_upper(data, x, box, active)[0] == math.inf
                finally:
                    monkeypatch.setattr(bounds, "sure_unpaid", early)
        return out

    monkeypatch.setattr(bounds, "_upper_at", upper_at)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = ck.solve(f, solver)
    assert seen, "the early test never fired: the check would be vacuous"
    assert r.status.has_solution


def test_a_point_within_rounding_of_its_rows_is_left_to_the_full_bound():
    """Rows met to rounding (``s_i >= es_i``) are not judged early, even with an infinite
    multiplier box: the correction may meet them."""
    import scipy.sparse as sp

    from convexkern.math.conic.data import ConicData

    data = ConicData(c=np.ones(2), A=sp.csr_matrix(-np.eye(2)), b=np.zeros(2), nonneg=2)

    def inf_box():
        return np.full(2, -np.inf), np.full(2, np.inf)

    assert cones.sure_unpaid(data, np.array([0.0, 1.0]), np.zeros(2), inf_box) is None
    out = cones.sure_unpaid(data, np.array([-1e-9, 1.0]), np.array([1e-16, 0.0]), inf_box)
    assert out is not None and out[0] == math.inf and out[2]["unpaid_inequality_rows"] == 1

    def finite_box():  # payable: left to the full bound
        return np.zeros(2), np.ones(2)

    assert cones.sure_unpaid(data, np.array([-1e-9, 1.0]), np.array([1e-16, 0.0]),
                             finite_box) is None
