"""Shared by the tests of the bounds on Netlib's LPs: a shipped instance as a formulation,
and the check that a solver's report is certified with a bracket holding the optimum."""

from __future__ import annotations

import warnings

import pytest

import convexkern as ck
from convexkern.data.mps import build_problem, public_file, read_mps
from convexkern.report import Status


def netlib(name: str) -> ck.Formulation:
    """The shipped Netlib LP ``name`` (convexkern/data/public/netlib)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ck.from_cvxpy(build_problem(read_mps(public_file(f"netlib/{name}.mps")))[0], name)


def assert_certified(f: ck.Formulation, solver: str, optimum: float, slack: float) -> None:
    """``solver``'s report on ``f`` is ``optimal`` and its bracket holds ``optimum`` within
    ``slack`` (a published value's rounding); skipped where the solver is not installed."""
    if solver not in ck.available_solvers(f):
        pytest.skip(f"{solver} not installed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = ck.solve(f, solver)
    assert r.status is Status.OPTIMAL, r.message
    assert r.dual_value <= optimum + slack and r.primal_value >= optimum - slack
