"""The upper bound of a primal point that misses its cones prices the moves into them by
the dual multipliers' box: ``p* <= f(x) + sum |move_i| sup |y_i|``.  That needs ``p* =
d*`` and a nonempty dual feasible set (its ``sup`` is over that set).  For polyhedral
cones a finite price proves both (LP duality); for a second-order, PSD, exponential or
power block the box must be finite on every multiplier of those blocks, which excludes
the direction ``y0`` that a primal without a strictly feasible point would have
(:func:`convexkern.math.conic.cones.no_gap`); and the price counts only when a dual point
proves the set nonempty (a finite lower bound).  Before, neither was checked (a review of
the twentieth session; no counterexample was found among solver answers, so these test
the rules themselves)."""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp

import convexkern.math.conic.bounds as bounds
from convexkern.math.conic import ConicData, conic_bounds
from convexkern.math.conic.cones import no_gap


def _soc_data():
    """``min x_0`` with ``x_0 >= 1`` and ``(x_0, x_1, x_2)`` in a second-order cone."""
    A = sp.csr_matrix(np.vstack([[-1.0, 0.0, 0.0], -np.eye(3)]))
    return ConicData(c=np.array([1.0, 0.0, 0.0]), A=A, b=np.array([-1.0, 0.0, 0.0, 0.0]),
                     nonneg=1, soc=[3])


def test_no_gap_needs_every_cone_multiplier_bounded():
    data = _soc_data()
    assert no_gap(data, np.array([np.inf, 1.0, 2.0, 3.0]))  # the row's may be open
    assert not no_gap(data, np.array([1.0, 1.0, np.inf, 3.0]))
    lp = ConicData(c=np.ones(2), A=sp.csr_matrix(-np.eye(2)), b=np.zeros(2), nonneg=2)
    assert no_gap(lp, np.array([np.inf, np.inf]))  # polyhedral: LP duality


def test_an_open_cone_multiplier_leaves_the_moved_upper_bound_open():
    """A point off the cone, its move (the head raised) priced by a box finite on the
    head's multiplier but open on a tail's: the price is finite, but nothing proves a
    zero gap, so no upper bound.  With every multiplier bounded the bound stands."""
    data = _soc_data()
    x = np.array([1.0, 1.0, 1e-9])  # (1, 1, 1e-9) is off the cone by about 5e-19
    lo, hi = np.array([-1.0, -1.0, -np.inf, -np.inf]), np.array([1.0, 1.0, np.inf, np.inf])
    val, why, _ = bounds._upper_at(data, x, lambda: (lo, hi))
    assert val == math.inf and "duality gap" in why
    val, why, res = bounds._upper_at(data, x, lambda: (-np.ones(4), np.ones(4)))
    assert math.isfinite(val) and res["moves_paid"] == 1.0, why


def test_a_price_over_a_dual_set_no_point_proves_nonempty_is_dropped(monkeypatch):
    """With no dual point (the lower bound open), a finite upper bound that paid for
    moves is dropped; one that paid for none stands."""
    data = _soc_data()
    x = np.array([2.0, 1.0, 1.0])

    def upper(moves):
        def fake(d, x_, box, active=False):
            return 2.0, "", {"moves_paid": float(moves)}
        return fake

    monkeypatch.setattr(bounds, "_upper_at", upper(True))
    b = conic_bounds(data, x, None)
    assert b.upper == math.inf and "nonempty" in b.upper_reason
    monkeypatch.setattr(bounds, "_upper_at", upper(False))
    assert 2.0 <= conic_bounds(data, x, None).upper <= 2.0 + 1e-14  # rounded outward
