"""Specs beyond binary classification: a user's regression formulation on a real target
(abalone's rings) and a data-free SDP built from its own size parameter.

Independent checks: the kernel ridge regression's predictions against its closed-form
solution (a linear system solved here with numpy), and the Lovász theta of the 5-cycle
against its known value sqrt(5) (Lovász 1979)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import convexkern as ck
from convexkern.cli import main
from convexkern.errors import SpecError
from convexkern.report import Status
from convexkern.specs import load_spec

BUILDERS = '''
import cvxpy as cp
import numpy as np
import convexkern as ck


def krr(K, y, lam=1e-2):
    """Kernel ridge regression with an intercept: min 1/n |y - K a - b|^2 + lam a'Ka;
    predicts with f(x) = sum_i a_i k(x_i, x) + b."""
    n = y.size
    a, b = cp.Variable(n, name="alpha"), cp.Variable(name="b")
    fit = cp.sum_squares(y - K @ a - b) / n
    problem = cp.Problem(cp.Minimize(fit + lam * cp.quad_form(a, cp.psd_wrap(K))))
    return ck.from_cvxpy(problem, "user.krr", data={"K": K, "y": y}, decision="expansion")


def theta(n=5):
    """The Lovasz theta of the n-cycle: max <J, X> s.t. tr X = 1, X_ij = 0 on its edges."""
    X = cp.Variable((n, n), symmetric=True, name="X")
    cons = [X >> 0, cp.trace(X) == 1] + [X[i, (i + 1) % n] == 0 for i in range(n)]
    return ck.from_cvxpy(cp.Problem(cp.Maximize(cp.sum(X)), cons), "user.theta")


def svm_like(K, y, C=1.0):
    return theta(5)
'''

REGRESSION = """
name = "krr_abalone"
[data]
dataset = "abalone"
task = "regression"
[split]
test_size = 0.9
seed = 0
[preprocess]
standardize = true
[kernel]
name = "rbf"
gamma = "scale"
[formulation]
name = "my_builders:krr"
lam = 0.01
"""

DATA_FREE = """
name = "theta_c5"
[formulation]
name = "my_builders:theta"
n = 5
[solve]
solvers = ["clarabel", "scs"]
"""


@pytest.fixture()
def folder(tmp_path):
    (tmp_path / "my_builders.py").write_text(BUILDERS)
    return tmp_path


def _spec(folder, text, name="spec.toml"):
    p = folder / name
    p.write_text(text)
    return p


def test_a_regression_spec_reports_the_test_rmse_of_the_closed_form(folder):
    inst = load_spec(_spec(folder, REGRESSION)).build()
    assert inst.task == "regression" and inst.n_train == 417 and inst.n_test == 3760
    # the target is abalone's rings as they are: no classes, no -1/+1
    assert np.unique(inst.y_train).size > 2 and inst.y_train.min() >= 1
    r = ck.solve(inst.formulation, "clarabel")
    # certified at Clarabel's 1e-8 though the kernel block of P is singular to rounding
    # (the dual's w is the quadratic part's minimiser, not an exact correction through K)
    assert r.status is Status.OPTIMAL, r.message
    rmse = inst.rmse(r)
    assert inst.accuracy(r) is None
    # closed form of the same problem: (K + n lam I) a + b = y, 1'K a + n b = 1'y
    K, y, n, lam = inst.K_train, inst.y_train, inst.n_train, 0.01
    M = np.block([[K + n * lam * np.eye(n), np.ones((n, 1))],
                  [np.ones((1, n)) @ K, np.array([[n]])]])
    sol = np.linalg.solve(M, np.concatenate([y, [y.sum()]]))
    a, b = sol[:n], sol[n]
    optimum = np.sum((y - K @ a - b) ** 2) / n + lam * a @ K @ a
    assert r.dual_value <= optimum * (1 + 1e-9) and optimum * (1 - 1e-9) <= r.primal_value
    exact = np.sqrt(np.mean((inst.K_test @ a + b - inst.y_test) ** 2))
    assert rmse == pytest.approx(exact, rel=1e-4)
    # and it predicts: well below the spread of the target around its training mean
    baseline = np.sqrt(np.mean((inst.y_train.mean() - inst.y_test) ** 2))
    assert rmse < 0.8 * baseline


def test_the_cli_prints_the_regression_error_not_an_accuracy(folder, capsys):
    code = main(["solve", str(_spec(folder, REGRESSION)), "--solver", "clarabel", "--json"])
    row = json.loads(capsys.readouterr().out)
    assert code == 0 and "test_accuracy" not in row and row["test_rmse"] > 0


def test_a_data_free_sdp_spec_runs_on_its_own_parameters(folder, capsys):
    path = _spec(folder, DATA_FREE)
    inst = load_spec(path).build()
    assert inst.n_train == 0 and inst.task is None and not inst.has_test
    code = main(["compare", str(path)])
    out = capsys.readouterr().out
    assert code == 0 and "clarabel" in out and "accuracy" not in out
    r = ck.solve(inst.formulation, "clarabel")
    assert r.status is Status.OPTIMAL
    lo, up = sorted((r.primal_value, r.dual_value))
    assert lo <= math.sqrt(5) <= up  # the certified bracket holds theta(C5) = sqrt(5)


@pytest.mark.parametrize(("text", "field"), [
    (DATA_FREE + "[split]\ntest_size = 0.5\n", "split"),
    (DATA_FREE.replace("my_builders:theta", "my_builders:svm_like").replace("n = 5\n", ""),
     "data"),
    (REGRESSION.replace('task = "regression"', 'task = "regression"\npositive = 1\n'
                        'negative = 2'), "data.positive"),
    (REGRESSION.replace('"regression"', '"ranking"'), "data.task"),
    (REGRESSION.replace("seed = 0\n", "seed = 0\nstratify = true\n", 1), "split.stratify"),
])
def test_specs_of_the_wrong_shape_name_the_field(folder, text, field):
    with pytest.raises(SpecError) as exc:
        load_spec(_spec(folder, text))
    assert exc.value.field == field
