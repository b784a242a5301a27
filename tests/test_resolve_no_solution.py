"""A re-solve that proves the problem has no optimum is the answer.

A first-order solver may stop at a point of an unbounded LP and call it solved. Its
certificate leaves the lower bound open, and a refining re-solve follows. When that
re-solve proves the problem unbounded (its improving ray checked), the report says
``unbounded``. Before, the proof went into the message and the first answer's
``optimal_inaccurate`` stood.
"""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np
import pytest

import convexkern as ck
from convexkern.report import SolveReport, Status
from convexkern.solvers.outcome import proves_no_solution


def _unbounded_lp(seed: int) -> cp.Problem:
    """``min c'x`` over ``A x <= b``, with ``d`` a recession direction along which
    ``c'd < 0`` (``c = -t d``, ``t`` from 1e-8 to 1): unbounded, slowly for small ``t``."""
    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(2, 6)), int(rng.integers(1, 6))
    d = rng.standard_normal(n)
    A = rng.standard_normal((m, n))
    A[A @ d > 0] *= -1
    b = A @ rng.standard_normal(n) + rng.uniform(0, 1, m)
    c = -d * 10 ** rng.uniform(-8, 0)
    x = cp.Variable(n)
    return cp.Problem(cp.Minimize(c @ x), [A @ x <= b])


@pytest.mark.parametrize("solver", ["scs", "osqp"])
def test_a_re_solve_proving_unbounded_is_the_answer(solver):
    if solver not in ck.available_solvers(ck.from_cvxpy(_unbounded_lp(0))):
        pytest.skip(f"{solver} is not installed")
    found = 0
    for seed in range(12):
        r = ck.solve(ck.from_cvxpy(_unbounded_lp(seed)), solver)
        if r.status is Status.UNBOUNDED:
            assert r.solver_stats.get("claim_proven") is True
            assert r.primal_value == -math.inf
            found += bool(r.solver_stats.get("refined"))
        else:  # (never a proof kept in the message under another status)
            assert "(the problem is unbounded" not in r.message, r.message
    assert found >= 1  # the re-solve's path was taken (5 of 12 with SCS, 7 with OSQP)


def _report(status: Status, primal: float, dual: float, proven: bool | None = None
            ) -> SolveReport:
    stats = {} if proven is None else {"claim_proven": proven}
    return SolveReport(status=status, solver="x", formulation="f", primal_value=primal,
                       dual_value=dual, solver_stats=stats)


def test_proves_no_solution_needs_a_checked_claim():
    first = _report(Status.OPTIMAL_INACCURATE, 1.0, -math.inf)
    assert proves_no_solution(_report(Status.UNBOUNDED, -math.inf, math.nan, True), first)
    assert not proves_no_solution(_report(Status.UNBOUNDED, -math.inf, math.nan, False), first)
    assert not proves_no_solution(_report(Status.UNBOUNDED, -math.inf, math.nan), first)
    assert not proves_no_solution(_report(Status.OPTIMAL, 0.0, 0.0, True), first)


def test_proves_no_solution_not_against_a_certified_side():
    # a certified lower bound refutes "unbounded"; a certified feasible point "infeasible"
    unb = _report(Status.UNBOUNDED, -math.inf, math.nan, True)
    inf = _report(Status.INFEASIBLE, math.inf, math.nan, True)
    assert not proves_no_solution(unb, _report(Status.OPTIMAL_INACCURATE, 1.0, 0.5))
    assert proves_no_solution(inf, _report(Status.OPTIMAL_INACCURATE, math.inf, 0.5))
    assert not proves_no_solution(inf, _report(Status.OPTIMAL_INACCURATE, 1.0, -math.inf))
