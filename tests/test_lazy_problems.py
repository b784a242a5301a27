"""Formulations whose cvxpy problem is built on first access of ``f.problem`` (svm.dual,
krein.stabilization, robust_indefinite.dual): a copy or a pickle of one not yet built
solves over its own variables and parameters, and reading the point needs no build."""

from __future__ import annotations

import copy
import pickle

import cvxpy as cp
import numpy as np
import pytest

import convexkern as ck
from convexkern.data import load_binary
from convexkern.formulation import stored_problem
from convexkern.formulations import krein, svm
from convexkern.formulations import robust_indefinite as ri
from convexkern.kernels import RBF, Sigmoid


@pytest.fixture(scope="module")
def pima():
    """40 real Pima patients, standardised: an RBF kernel and an indefinite sigmoid one."""
    X, y = load_binary("pima", 1, 0)
    X = (X - X.mean(0)) / X.std(0)
    idx = np.random.default_rng(0).permutation(y.size)[:40]
    X, y = X[idx], y[idx]
    return RBF(gamma=0.1)(X), Sigmoid(gamma=0.125, coef0=-1.0)(X), y


def _builders(pima):
    K, Ki, y = pima
    return {"svm.dual": lambda: svm.dual(K, y, C=1.0),
            "krein.shift": lambda: krein.stabilization(Ki, y, C=1.0, decomposition="shift"),
            "krein.flip": lambda: krein.stabilization(Ki, y, C=1.0, decomposition="flip"),
            "robust": lambda: ri.dual(Ki[:15, :15], y[:15], C=1.0, rho=1.0)}


def _unbuilt(f) -> bool:
    return not isinstance(stored_problem(f), cp.Problem)


@pytest.mark.parametrize(("name", "custom", "kind"), [
    ("svm.dual", "smo", ("maximize", "QP")), ("krein.shift", "trik", ("maximize", "QP")),
    ("krein.flip", "smo", ("maximize", "QP")), ("robust", "robust_apg", ("minimize", "SDP"))])
def test_the_conic_problem_is_built_only_for_a_conic_solve(pima, name, custom, kind):
    """The custom algorithms and their certificates read f.data alone: the cvxpy problem
    (whose constants copy the kernel two or three times) is built on first access of
    f.problem, for a conic solve, whose bracket then overlaps the custom one; the sense and
    cone class are known before (the Krein SMO adapter once built it, through replace())."""
    f = _builders(pima)[name]()
    assert (f.sense, f.cone_class) == kind
    r = ck.solve(f, custom, tol=1e-7)
    assert r.ok, r.message
    assert _unbuilt(f)
    c = ck.solve(f, "clarabel", tol=1e-7)
    assert not _unbuilt(f)
    assert c.ok, c.message
    assert c.primal_value <= r.dual_value and r.primal_value <= c.dual_value
    assert (f.sense, f.cone_class) == kind


@pytest.mark.parametrize("name", ["svm.dual", "krein.shift", "krein.flip", "robust"])
def test_a_deep_copy_solves_over_its_own_variables_and_parameters(pima, name):
    """A deep copy of a formulation not yet built holds a problem over the copy's own
    variables: a conic solve of it sets them, leaves the original's alone, and uses the
    copy's parameters (its bracket overlaps the copy's custom solve, at a C that binds)."""
    f = _builders(pima)[name]()
    assert _unbuilt(f)
    g = copy.deepcopy(f)
    g.set_params(C=0.005)  # binds on every one of them
    r = ck.solve(g, "clarabel", tol=1e-7)
    assert r.ok, r.message
    own = {id(v) for v in g.variables.values()}
    assert own <= {id(v) for v in g.problem.variables()}
    assert all(v.value is None for v in f.variables.values())
    c = ck.solve(g, tol=1e-7)  # the custom solver, at the copy's C
    assert c.ok, c.message
    assert r.primal_value <= c.dual_value and c.primal_value <= r.dual_value
    o = ck.solve(f, tol=1e-7)  # the original, at C = 1: another optimum
    assert o.primal_value > c.dual_value or o.dual_value < c.primal_value


def test_krein_pickles_before_its_problem_is_built(pima):
    """krein.stabilization pickled with the standard pickle as built, as before its problem
    was built on first use, and the copy solves to the original's bracket."""
    f = _builders(pima)["krein.shift"]()
    g = pickle.loads(pickle.dumps(f))
    a, b = ck.solve(f, "trik", tol=1e-8), ck.solve(g, "trik", tol=1e-8)
    assert a.ok and b.ok
    assert a.primal_value <= b.dual_value and b.primal_value <= a.dual_value


def test_robust_point_reading_builds_nothing(pima):
    """After robust_apg, f.certificate() with no point says no conic point is stored and
    leaves the problem unbuilt (its constant copies K0 twice); a problem the user set in its
    place is read for its Schur block."""
    f = _builders(pima)["robust"]()
    assert ck.solve(f, "robust_apg", tol=1e-6).ok
    with pytest.raises(ck.InvalidInputError, match="no dual solution stored"):
        f.certificate()
    assert _unbuilt(f)
    other = _builders(pima)["robust"]()
    f.problem = other.problem  # the same problem, written by another call
    r = ck.solve(f, "clarabel", tol=1e-7)
    assert r.ok, r.message


def test_the_cone_class_is_read_once_per_problem(monkeypatch):
    """``Formulation.cone_class`` walks the problem's atoms (0.2-0.6 s on 20,000
    constraints written in a loop) and a solve asks for it several times: read once per
    problem, and again for a problem put in its place."""
    import convexkern.formulation as formulation

    calls = []
    walk = formulation.cone_class
    monkeypatch.setattr(formulation, "cone_class", lambda p: calls.append(p) or walk(p))
    x = cp.Variable(3)
    f = ck.from_cvxpy(cp.Problem(cp.Minimize(cp.sum(x)), [x >= 0]))
    assert f.cone_class == "LP" and f.cone_class == "LP"
    ck.solve(f, "clarabel")
    assert len(calls) == 1
    f.problem = cp.Problem(cp.Minimize(cp.sum_squares(x)), [x >= 1])
    assert f.cone_class == "QP" and len(calls) == 2
