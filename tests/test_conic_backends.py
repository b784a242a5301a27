"""Each conic solver's class reads the solver's own status codes: real solves at their
limits and on hostile data, and the maps against the solvers' own enumerations."""

from __future__ import annotations

import importlib

import cvxpy as cp
import numpy as np
import pytest

import convexkern as ck
from convexkern.formulations import svm
from convexkern.report import Status
from convexkern.solvers import table
from convexkern.solvers.backends import clarabel, highs, osqp, scs
from convexkern.solvers.outcome import judged, pointless_report


def _installed(name):
    return table.CONIC[name].installed


@pytest.fixture(scope="module")
def svm_dual(usps35_small):
    _, y, K = usps35_small
    return svm.dual(K, y, C=1.0)


def test_clarabel_map_covers_its_enumeration():
    import clarabel as cl

    names = {n for n in dir(cl.SolverStatus) if n[:1].isupper()}
    assert names <= set(clarabel.STATUS), names - set(clarabel.STATUS)


@pytest.mark.skipif(not _installed("osqp"), reason="osqp not installed")
def test_osqp_map_covers_its_enumeration():
    import osqp as o

    assert {int(v) for v in o.SolverStatus.__members__.values()} == set(osqp.STATUS)


@pytest.mark.skipif(not _installed("highs"), reason="highspy not installed")
def test_highs_map_covers_its_enumeration():
    import highspy

    assert set(highspy.HighsModelStatus.__members__) <= set(highs.STATUS)


def test_scs_inaccurate_no_solution_codes_are_not_proofs():
    for code, (status, proven) in scs.STATUS.items():
        if status in (Status.INFEASIBLE, Status.UNBOUNDED):
            assert proven is (code in (-1, -2)), code


@pytest.mark.parametrize("solver", ["clarabel", "scs", "osqp", "highs"])
def test_a_time_limit_is_a_time_limit(svm_dual, solver):
    """1 microsecond is always exceeded; the solver's own code says which limit it hit
    (cvxpy says 'user_limit' for both)."""
    if not _installed(solver):
        pytest.skip(f"{solver} not installed")
    r = ck.solve(svm_dual, solver, time_limit=1e-6)
    assert r.status is Status.TIME_LIMIT, (r.status, r.message)
    if r.status.has_solution and np.isfinite(r.dual_value):
        assert r.primal_value <= r.dual_value  # still a certified pair (a maximisation)


@pytest.mark.parametrize("solver", ["clarabel", "scs", "osqp", "ecos"])
def test_an_iteration_limit_is_an_iteration_limit(svm_dual, solver):
    if not _installed(solver):
        pytest.skip(f"{solver} not installed")
    r = ck.solve(svm_dual, solver, max_iter=2)
    assert r.status is Status.ITERATION_LIMIT, (r.status, r.message)
    assert r.iterations is not None and r.iterations <= 2


def test_the_native_word_is_kept(svm_dual):
    r = ck.solve(svm_dual, "clarabel")
    assert r.status is Status.OPTIMAL and r.solver_stats["native_status"] == "Solved"
    r = ck.solve(svm_dual, "scs")
    assert "status_val 1" in r.solver_stats["native_status"]


def test_an_interior_point_solver_object_is_not_kept_past_its_solve(svm_dual):
    """cvxpy keeps Clarabel's solver object (its factorised KKT system, as large as the
    solve) in the problem between solves; it buys no warm start, so it is dropped before
    the certificate runs (SDPLIB arch0: the phase one stacked on it, 1.6x the plain peak).
    SCS's kept answer is a warm start of its refining re-solve: it stays."""
    r = ck.solve(svm_dual, "clarabel")
    assert r.status is Status.OPTIMAL
    assert "CLARABEL" not in svm_dual.problem._solver_cache
    r = ck.solve(svm_dual, "scs")
    assert r.status.has_solution
    assert "SCS" in svm_dual.problem._solver_cache


def test_scs_inaccurate_unbounded_on_a_tiny_scale_lp_is_no_proof():
    """``min sum(x) s.t. 1e-12 x >= 1e-12`` has the optimum 3; SCS stops at its iteration
    cap with 'unbounded (inaccurate)', whose ray proves nothing, and Clarabel, asked for a
    second opinion, certifies the optimum: an error, never unbounded."""
    x = cp.Variable(3, name="x")
    f = ck.from_cvxpy(cp.Problem(cp.Minimize(cp.sum(x)), [1e-12 * x >= 1e-12]), "tiny")
    r = ck.solve(f, "scs")
    assert r.status is Status.ERROR, (r.status, r.message)
    assert "scs said 'unbounded'" in r.message and "status_val -6" in r.message
    assert "its certificate does not prove it" in r.message
    assert "clarabel certified an optimum in [3, 3]: the claim is false" in r.message
    ok = ck.solve(f, "clarabel")
    assert ok.status is Status.OPTIMAL
    assert min(ok.primal_value, ok.dual_value) <= 3.0 <= max(ok.primal_value, ok.dual_value)


def test_a_proven_claim_stands_and_facts_come_first(svm_dual):
    x = cp.Variable(2, name="x")
    f = ck.from_cvxpy(cp.Problem(cp.Minimize(cp.sum(x)), [x >= 1, cp.sum(x) <= 1]), "inf")
    r = ck.solve(f, "clarabel")
    assert r.status is Status.INFEASIBLE and r.solver_stats["claim_proven"] is True
    claim = pointless_report(f, solver="s", status=Status.INFEASIBLE, tol=1e-6,
                             message="", solver_stats={"claim_proven": False,
                                                       "native_status": "Almost"})
    assert judged(f, claim).status is Status.ERROR
    # a formulation that proves itself feasible refutes even a "proven" claim, by its proof
    refuted = judged(svm_dual, pointless_report(
        svm_dual, solver="s", status=Status.INFEASIBLE, tol=1e-6, message="",
        solver_stats={"claim_proven": True}))
    assert "feasible" in svm_dual.facts
    assert refuted.status is Status.ERROR and "refuted by the formulation" in refuted.message


def test_a_point_status_has_no_pointless_report(svm_dual):
    with pytest.raises(ValueError, match="needs a point"):
        pointless_report(svm_dual, solver="s", status=Status.OPTIMAL, tol=1e-6, message="")


def test_every_backend_module_imports_no_solver():
    """Whether a solver is installed is read with find_spec: a backend module imports
    only numpy and convexkern."""
    import ast
    from pathlib import Path

    for name in table.CONIC_MODULES:
        mod = importlib.import_module(f"convexkern.solvers.backends.{name}")
        tree = ast.parse(Path(mod.__file__).read_text())
        tops = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import)
                for a in n.names}
        tops |= {n.module.split(".")[0] for n in ast.walk(tree)
                 if isinstance(n, ast.ImportFrom) and n.level == 0 and n.module}
        assert tops <= {"__future__", "collections", "typing", "numpy", "math",
                        "importlib", "dataclasses", "contextlib"}, (name, tops)


def test_ldl_work_counts_the_cheaper_side_of_the_cliques():
    """``ldl_work``: min(sum r_i^2, sum c_j^2) over A, plus sum p_j^2 / 3 over P, by hand:
    a diagonal A costs n; one dense row of 4 over 4 columns costs min(16, 4); a dense
    3 x 3 P adds 3 * 9 / 3."""
    import scipy.sparse as sp

    from convexkern.solvers.backends.base import ldl_work

    assert ldl_work({"A": sp.eye(5, format="csc")}) == 5.0
    assert ldl_work({"A": sp.csc_matrix(np.ones((1, 4)))}) == 4.0
    dense_p = {"A": sp.csc_matrix(np.ones((1, 4))), "P": sp.csc_matrix(np.ones((3, 3)))}
    assert ldl_work(dense_p) == 4.0 + 9.0
    assert ldl_work({}) == 0.0
