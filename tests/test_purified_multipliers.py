"""An interior-point solver's multipliers are all nonzero; where the lower bound at them
is open, it is tried at the multipliers that complementarity says are zero set to
exactly zero (weak._purified).  Any point of K* gives a valid bound, so the brackets are
checked against the published optima: Netlib RECIPE and cvxpy's lp_7, open on Clarabel,
ECOS and QOCO before."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from netlib_cases import assert_certified, netlib

import convexkern as ck
from convexkern.math.conic import ConicData, bounds
from convexkern.math.conic.weak import GAP, NEGLIGIBLE, _purified
from convexkern.report import Status


def _lp(zero: int, nonneg: int) -> ConicData:
    m = zero + nonneg
    return ConicData(c=np.zeros(2), A=sp.csr_matrix(np.ones((m, 2))), b=np.full(m, 2.0),
                     zero=zero, nonneg=nonneg)


def test_an_inactive_row_loses_its_multiplier():
    """Rows x1 + x2 <= 2 at x = (0.5, 0.5): slack 1 > the multiplier 1e-3, zeroed, but
    not the multiplier 2 > 1; at x = (1, 1) the slack is 0 and both stay."""
    data = _lp(0, 2)
    y = np.array([1e-3, 2.0])
    assert _purified(data, np.array([0.5, 0.5]), y).tolist() == [0.0, 2.0]
    assert _purified(data, np.array([1.0, 1.0]), y) is None  # nothing changes: None


def test_negligible_and_gapped_multipliers_are_zeroed_and_others_kept():
    data = _lp(3, 2)
    x = np.array([1.0, 1.0])  # every row tight: only magnitudes decide
    y = np.array([1.0, -0.5 * NEGLIGIBLE, 0.3, 2.0, 0.7])
    assert _purified(data, x, y).tolist() == [1.0, 0.0, 0.3, 2.0, 0.7]
    small = 0.5 / GAP * 0.3  # below the gap under the smallest of the others
    y = np.array([1.0, small, 0.3, 2.0, small / 10])
    assert _purified(data, x, y).tolist() == [1.0, 0.0, 0.3, 2.0, 0.0]
    y = np.array([1.0, 2.0 / GAP * 0.3, 0.3, 2.0, 0.7])  # a jump short of GAP: kept
    assert _purified(data, x, y) is None


def test_other_cone_blocks_are_left_as_they_are():
    data = ConicData(c=np.zeros(2), A=sp.csr_matrix(np.ones((4, 2))), b=np.full(4, 2.0),
                     zero=1, nonneg=0, soc=(3,))
    y = np.array([1.0, 1e-20, 1e-20, 1e-20])
    assert _purified(data, np.array([1.0, 1.0]), y) is None


def _lp_7() -> ck.Formulation:
    from cvxpy.tests import solver_test_helpers as h

    return ck.from_cvxpy(h.lp_7().prob, "lp_7")


#: the published optima (Netlib's to 11 digits; lp_7's is 0) and the slack of their digits
_CASES = {"recipe": (lambda: netlib("recipe"), -266.616, 5e-9), "lp_7": (_lp_7, 0.0, 1e-12)}


@pytest.mark.parametrize("solver", ["clarabel", "ecos", "qoco"])
@pytest.mark.parametrize("name", ["recipe", "lp_7"])
def test_interior_point_answers_are_certified(name, solver):
    make, optimum, slack = _CASES[name]
    assert_certified(make(), solver, optimum, slack)


def test_without_purification_ecos_leaves_recipe_lower_bound_open(monkeypatch):
    """The same solve with no purified multipliers: ECOS's lower bound stays open, so the
    certificate above is purification's."""
    monkeypatch.setattr(bounds, "_purified", lambda data, x, y: None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = ck.solve(netlib("recipe"), "ecos")
    assert not math.isfinite(r.dual_value) and r.status is not Status.OPTIMAL
