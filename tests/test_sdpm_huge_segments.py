"""the SDPM on huge segments (tau = 1e6 and 1e12 rad).

The rotation trajectories are polynomials (second-order Taylor expansions of the
rotation), not periodic functions of the angle: a segment longer than 2 pi is still a
well-posed polynomial problem.  Its optimum is nondecreasing in tau and bounded by the
real-line optimum; on these digits every worst-case angle lies well inside +-1000 rad, so
the optimum at tau = 1e3 equals the real-line one (checked below to 1e-7 by two certified
Clarabel solves), which pins the optimum at every larger tau.  A reported case of
brackets missing the optimum did not reproduce on this code: these tests pin that every certified
bracket at tau = 1e6 and 1e12 contains the pinned optimum (loose brackets and an honest
``optimal_inaccurate`` are allowed: the worst-case margins of a floating-point w over
+-1e12 are dominated by the rounding of its leading coefficient), and that no status
claims an optimum the bracket does not prove.
"""

from __future__ import annotations

import numpy as np
import pytest

import convexkern as ck
from convexkern import transforms
from convexkern.data import load_usps
from convexkern.formulations import sdpm

pytestmark = pytest.mark.filterwarnings("ignore:.*dimension greater than 2",
                                        "ignore:Solution may be inaccurate")


@pytest.fixture(scope="module")
def usps12():
    """12 real USPS training images, six '1' (+1) and six '9' (-1), as rotations."""
    ds = load_usps("train")
    sel = np.concatenate([np.flatnonzero(ds.y == 1)[:6], np.flatnonzero(ds.y == 9)[:6]])
    return transforms.rotation_trajectories(ds.X[sel]), np.where(ds.y[sel] == 1, 1.0, -1.0)


@pytest.fixture(scope="module", params=[None, 0.01], ids=["hard", "soft"])
def pinned(request, usps12):
    X, y = usps12
    C = request.param
    r3 = ck.solve(sdpm.primal(X, y, 1e3, C), "clarabel", tol=1e-8)
    rR = ck.solve(sdpm.primal(X, y, None, C), "clarabel", tol=1e-8)
    # certified brackets (Clarabel certifies ~1e-8 on the real line, a re-solve included)
    for r in (r3, rR):
        assert r.status.has_solution and r.rel_gap <= 1e-7, r
    lo, hi = r3.dual_value, rR.primal_value  # opt(1e3) >= lo, opt(R) <= hi
    assert lo <= hi and hi - lo <= 1e-7 * hi  # opt(1e3) = opt(R): pinned for tau >= 1e3
    return X, y, C, lo, hi


@pytest.mark.parametrize("tau", [1e6, 1e12])
@pytest.mark.parametrize("solver,opts", [("exchange", {"tol": 1e-7}),
                                         ("exchange", {"tol": 1e-7, "init": "ends"}),
                                         ("clarabel", {"tol": 1e-9})])
@pytest.mark.slow
def test_huge_segment_brackets_hold_the_optimum(pinned, tau, solver, opts):
    X, y, C, lo, hi = pinned
    r = ck.solve(sdpm.primal(X, y, tau, C), solver, **opts)
    if not r.status.has_solution:
        assert r.status in (ck.Status.ERROR, ck.Status.ITERATION_LIMIT), r
        return
    # minimisation: dual_value is the certified lower bound, primal_value the upper
    assert r.dual_value <= hi * (1 + 1e-9), (r, lo, hi)
    assert r.primal_value >= lo * (1 - 1e-9), (r, lo, hi)
    if r.status is ck.Status.OPTIMAL:
        assert r.rel_gap <= opts["tol"]


@pytest.mark.parametrize("kind", ["primal", "dual"])
@pytest.mark.slow
def test_scs_false_infeasibility_refuted_at_tau_1e6(usps12, kind):
    """SCS said ``infeasible`` (primal) / ``unbounded`` (dual) on this separable
    hard-margin instance at tau = 1e6.  The builder's separability witness (checked with
    rigorous rounding; in exact arithmetic by tests/test_sdpm_rigorous.py) refutes it:
    never a no-solution status, and a reported solution's bracket still holds the optimum."""
    X, y = usps12
    f = getattr(sdpm, kind)(X, y, 1e6, None)
    r = ck.solve(f, "scs")
    assert r.status not in (ck.Status.INFEASIBLE, ck.Status.UNBOUNDED,
                            ck.Status.INFEASIBLE_OR_UNBOUNDED), r
    if r.status is ck.Status.ERROR:
        assert "separable" in r.message and "scs said" in r.message, r.message
    # the witness itself: a proof of feasibility whatever SCS says
    fact = f.facts["feasible" if kind == "primal" else "bounded"]
    assert "separable" in fact()
