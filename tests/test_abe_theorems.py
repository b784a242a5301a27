"""Theorems 1-6 of Abe (ICANN 2012) as executable verdicts, each run on real data.

Data: Balance (625 x 4), Pima (768 x 8) and 400 Thyroid rows (21 inputs), inputs scaled to
[0, 1].  The checks solve their LPs with the direct HiGHS path (certified gaps ~1e-12),
so the verdicts' internal tolerances (1e-6 relative and tighter) are far above solver
error.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from convexkern.data import load, load_thyroid
from convexkern.formulations import lp_svm


def _minmax(X):
    rng = X.max(0) - X.min(0)
    return (X - X.min(0)) / np.where(rng > 0, rng, 1.0)


@pytest.fixture(scope="module")
def A_balance():
    ds = load("balance")
    return lp_svm.triplet_matrix(_minmax(ds.X), ds.y)


@pytest.fixture(scope="module")
def A_pima():
    ds = load("pima")
    return lp_svm.triplet_matrix(_minmax(ds.X), ds.y)


@pytest.fixture(scope="module")
def A_thyroid():
    ds = load_thyroid("train")
    idx = np.sort(np.random.default_rng(0).choice(ds.y.size, 400, replace=False))
    return lp_svm.triplet_matrix(ds.X[idx], np.where(ds.y[idx] == 3, 1, -1))


def test_theorem_1_forward_and_corrected_converse(A_balance):
    """Balance, C_rho = 2/M: J_rho > 0, the forward map C_M = C_rho/J_rho holds, the
    converse holds with C_rho = C_M/J_hat and fails with the printed C_M * J_hat."""
    M = A_balance.shape[0]
    v = lp_svm.check_theorem_1(A_balance, 2.0 / M)
    n = v.numbers
    assert v.holds and v.as_printed is False
    assert n["J_rho"] > 0
    assert n["J_hat"] == pytest.approx(1.0 / n["J_rho"], rel=1e-7)
    assert n["mapped_lp_value"] == pytest.approx(n["J_hat"], rel=1e-7)
    assert n["J_rho_corrected"] == pytest.approx(n["J_rho"], rel=1e-7)
    # the printed mapping gives a different C_rho, whose optimum is not the mapped point's value
    assert n["C_rho_printed"] != pytest.approx(n["C_rho_corrected"])
    assert n["mapped_value_at_printed"] < n["J_rho_printed"] - 1e-6
    assert "NOT optimal" in v.note


def test_theorem_1_needs_positive_J(A_pima):
    """Pima, C_rho = 2/M: rho > 0 but J_rho < 0, so no LP SVM is equivalent."""
    v = lp_svm.check_theorem_1(A_pima, 2.0 / A_pima.shape[0])
    assert v.numbers["J_rho"] < 0 and v.numbers["rho"] > 0
    assert v.holds and v.as_printed is False and "J_rho > 0" in v.note


def test_theorem_2_every_solver(A_thyroid):
    v = lp_svm.check_theorem_2(A_thyroid)
    assert v.holds and len(v.numbers["statuses"]) >= 4
    assert v.numbers["ray_slope"] == pytest.approx(0.5)


@pytest.mark.parametrize("data", ["A_balance", "A_thyroid"])
def test_theorem_3_constant_for_C_at_least_1(data, request):
    v = lp_svm.check_theorem_3(request.getfixturevalue(data))
    assert v.holds, v
    assert v.numbers["max_cross_value_error"] <= 1e-9 * max(1, max(map(abs, v.numbers["values"])))


def test_theorem_4_zero_margin_on_nonseparable_data(A_pima, A_thyroid):
    for A in (A_pima, A_thyroid):
        v = lp_svm.check_theorem_4(A, 1.0)
        assert v.holds and v.numbers["gamma"] <= 0 and v.numbers["rho"] == 0.0


def test_theorem_4_nu_property_when_rho_positive(A_balance):
    M = A_balance.shape[0]
    v = lp_svm.check_theorem_4(A_balance, 2.0 / M)
    n = v.numbers
    assert v.holds and n["rho"] > 0
    assert n["margin_errors"] <= n["1/C_rho"] <= n["support_triplets"]


@pytest.mark.parametrize("data", ["A_balance", "A_pima", "A_thyroid"])
def test_theorem_5_c_min(data, request):
    A = request.getfixturevalue(data)
    v = lp_svm.check_theorem_5(A)
    assert v.holds, v
    assert v.numbers["max_R_below"] == 0.0 and v.numbers["max_R_above"] > 0
    assert math.isfinite(v.numbers["C_min"])


@pytest.mark.parametrize("data", ["A_balance", "A_pima"])
def test_theorem_6_c0(data, request):
    v = lp_svm.check_theorem_6(request.getfixturevalue(data))
    assert v.holds, v
    C0 = v.numbers["C_0"]
    assert 0 < C0 < math.inf
    below, limit = v.numbers["value_vs_limit"]["C0/2"]
    assert below < limit  # below C_0 the LP SVM does strictly better than the limit point
