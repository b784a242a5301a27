"""A refining re-solve's certificate shares the first certificate's work on the same conic
form (``ConicData.same_form``, ``solvers.conic._conic_point``): the phase-one points and
the exact searches are not redone, and the brackets still hold the published optimum."""

from __future__ import annotations

import math
import warnings

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp

import convexkern as ck
from convexkern.bench import load_suite
from convexkern.data.mps import build_problem, read_mps
from convexkern.math.conic import bounds, cones
from convexkern.math.conic.data import ConicData
from convexkern.solvers import conic


def _form(**over) -> ConicData:
    kw = dict(c=np.array([1.0, 2.0]), A=sp.csr_matrix([[1.0, 1.0], [-1.0, 0.0]]),
              b=np.array([1.0, 0.0]), zero=1, nonneg=1)
    kw.update(over)
    return ConicData(**kw)


def test_same_form_is_equality_of_every_array():
    a = _form()
    assert a.same_form(_form())
    assert not a.same_form(_form(c=np.array([1.0, np.nextafter(2.0, 3.0)])))
    assert not a.same_form(_form(b=np.array([1.0, -0.0 + 1e-300])))
    assert not a.same_form(_form(A=sp.csr_matrix([[1.0, 1.0], [-1.0, 1e-300]])))
    assert not a.same_form(_form(zero=0, nonneg=2))
    assert not a.same_form(_form(lb=np.zeros(2)))
    assert not a.same_form(_form(P=sp.eye(2, format="csr")))
    assert _form(P=sp.eye(2, format="csr")).same_form(_form(P=sp.eye(2, format="csr")))


def _recipe():
    file = next(p.file for p in load_suite("netlib_small").problems if p.name == "recipe")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ck.from_cvxpy(build_problem(read_mps(file))[0], "recipe")


@pytest.mark.parametrize("solver", ["clarabel", "ecos"])
def test_the_refining_certificate_solves_no_second_phase_one(solver, monkeypatch):
    """RECIPE on an interior-point solver: its first certificate leaves the lower bound
    open and the call re-solves; the first certificate's phase-one points serve the
    second (before: one primal and one dual phase one per certificate)."""
    calls = []
    real = cones._phase_one

    def counted(*a, **k):
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(cones, "_phase_one", counted)
    # the first certificate in full (by default it spends no phase one: the test below)
    monkeypatch.setattr(conic, "_quick_first", lambda *a: False)
    # no purified multipliers: with them the first certificate closes RECIPE's lower bound
    # and no re-solve follows (the sharing is what is tested here)
    monkeypatch.setattr(bounds, "_purified", lambda data, x, y: None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = ck.solve(_recipe(), solver)
    assert r.solver_stats.get("refined"), r.message
    first = len(calls)
    assert first >= 1
    # the same call with the sharing switched off solves them again
    calls.clear()
    monkeypatch.setattr(ConicData, "same_form", lambda self, other: False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r2 = ck.solve(_recipe(), solver)
    assert len(calls) > first
    assert r.status is r2.status
    for rep in (r, r2):  # the published optimum -266.616 (a minimisation)
        assert rep.dual_value <= -266.616 * (1 - 1e-6) or not math.isfinite(rep.dual_value)
        assert rep.primal_value >= -266.616 * (1 + 1e-6)


def test_a_first_answer_that_a_resolve_follows_solves_no_phase_one(monkeypatch):
    """RECIPE on SCS, a first-order solver (``ConicSolverSpec.quick_first``): its first answer
    misses tol, so its certificate is a quick one (no phase one, ``ConicPoint.quick``);
    the phase ones of the call, if any, are the re-solve's certificate's, and the bracket
    has a finite upper bound and holds the published optimum."""
    calls: list[int] = []
    solves: list[int] = []
    real_p1, real_at = cones._phase_one, conic._solve_at

    def counted(*a, **k):
        calls.append(len(solves))  # which solve's certificate asked for it
        return real_p1(*a, **k)

    def at(*a, **k):
        solves.append(1)
        return real_at(*a, **k)

    monkeypatch.setattr(cones, "_phase_one", counted)
    monkeypatch.setattr(conic, "_solve_at", at)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = ck.solve(_recipe(), "scs")
    assert r.solver_stats.get("refined") and len(solves) >= 2, r.message
    assert all(c >= 2 for c in calls)  # none during the first solve's certificate
    assert math.isfinite(r.primal_value) and r.primal_value >= -266.616 * (1 + 1e-6)
    assert r.dual_value <= -266.616 * (1 - 1e-6) or not math.isfinite(r.dual_value)


def test_a_quick_first_certificate_is_completed_when_no_resolve_answers(monkeypatch):
    """When the re-solve returns no point (here: an error), the first answer is certified
    in full after all: RECIPE's upper bound, which needs a step toward a phase-one point,
    is finite, as without the quick certificate."""
    from convexkern.solvers.outcome import pointless_report

    real_at = conic._solve_at
    solves: list[int] = []

    def at(f, spec, **k):
        solves.append(1)
        if len(solves) == 1:
            return real_at(f, spec, **k)
        return pointless_report(f, solver=spec.name, status=ck.Status.ERROR, tol=k["tol"],
                                solve_time=0.0, message="a re-solve that failed (test)")

    monkeypatch.setattr(conic, "_solve_at", at)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = ck.solve(_recipe(), "scs")
    assert len(solves) >= 2
    assert math.isfinite(r.primal_value) and r.primal_value >= -266.616 * (1 + 1e-6)


def _patched_resolve(monkeypatch, make_second):
    """RECIPE on SCS with every re-solve replaced by ``make_second(f, spec, k, real)``."""
    real_at = conic._solve_at
    solves: list[int] = []

    def at(f, spec, **k):
        solves.append(1)
        return real_at(f, spec, **k) if len(solves) == 1 else make_second(f, spec, k, real_at)

    monkeypatch.setattr(conic, "_solve_at", at)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ck.solve(_recipe(), "scs"), solves


def test_a_resolve_stopped_by_its_own_budget_with_no_point_completes_the_first(monkeypatch):
    """A re-solve that its own budget stops before it has a point (relabelled from
    ``time_limit`` as a judged answer) is no answer: the first point is certified in full,
    and RECIPE's first SCS answer is then certified to tol."""
    from convexkern.solvers.outcome import pointless_report

    r, solves = _patched_resolve(monkeypatch, lambda f, spec, k, real: pointless_report(
        f, solver=spec.name, status=ck.Status.TIME_LIMIT, tol=k["tol"], solve_time=0.0,
        message="stopped at its budget (test)"))
    assert len(solves) >= 2
    assert r.status is ck.Status.OPTIMAL and r.rel_gap <= r.tol, r.message


def test_a_worse_resolve_does_not_hide_the_first_answers_full_certificate(monkeypatch):
    """A re-solve whose point is worse (five iterations, no warm start: one a budget cut
    short) beside a first answer whose quick certificate left a side open: the first
    answer's full certificate is the better report, and it is kept."""
    r, solves = _patched_resolve(monkeypatch, lambda f, spec, k, real: real(
        f, spec, **{**k, "max_iter": 5, "options": {"warm_start": False}}))
    assert len(solves) >= 2
    assert r.status is ck.Status.OPTIMAL and r.rel_gap <= r.tol, r.message


def test_closer_prefers_a_smaller_gap_then_more_finite_sides():
    from convexkern.report import SolveReport, relative_gap

    def rep(lo: float, up: float) -> SolveReport:
        return SolveReport(status=ck.Status.OPTIMAL_INACCURATE, solver="scs",
                           formulation="f", primal_value=up, dual_value=lo,
                           rel_gap=relative_gap(up, lo), solve_time=0.0, tol=1e-4)

    tight, loose = rep(1.0, 1.0 + 1e-6), rep(1.0, 2.0)
    one_side, none = rep(-math.inf, 1.0), rep(-math.inf, math.inf)
    assert conic._closer(tight, loose) and not conic._closer(loose, tight)
    assert conic._closer(loose, one_side) and not conic._closer(one_side, loose)
    assert conic._closer(one_side, none) and not conic._closer(none, one_side)
    assert not conic._closer(none, none) and not conic._closer(one_side, one_side)


def _free_zero_cost(seed: int) -> cp.Problem:
    """An LP with free, zero-cost variables ``z`` in inequality rows that are slack at the
    optimum (a review's search for open bounds a re-solve closes)."""
    rng = np.random.default_rng(seed)
    n, m, k = int(rng.integers(4, 16)), int(rng.integers(3, 10)), int(rng.integers(1, 4))
    x, z = cp.Variable(n), cp.Variable(k)
    G, H = rng.standard_normal((m, n)), rng.standard_normal((m, k))
    h = G @ np.abs(rng.standard_normal(n)) + H @ rng.standard_normal(k) + rng.uniform(0, 1, m)
    c = np.abs(rng.standard_normal(n))
    lo = rng.uniform(0, 0.5, n) * (rng.uniform(size=n) < 0.5)
    obj = c @ x + (0.0 if rng.uniform() < 0.5 else float(rng.uniform(-2, 2)))
    return cp.Problem(cp.Minimize(obj), [G @ x + H @ z <= h + G @ lo, x >= lo, x <= 5])


def test_an_interior_point_answer_with_an_open_bound_is_re_solved(monkeypatch):
    """ECOS's first answer on some of these LPs leaves the lower bound open (the dual
    correction would leave the dual cone at its point); its refining re-solve closes it,
    and the call is ``optimal``.  A rule that skipped the re-solve of an interior-point
    answer with an open side (none of 36 such re-solves closed one on the public sets and
    the tests) lost this bound: not kept.  Which seeds leave it open depends on ECOS's
    arithmetic on the machine (seed 9 on one, 30 and 35 on another): every one that does
    is checked, and at least one must.  The purified multipliers are switched off: they
    close those bounds at the first answer (no seed of the 40 is re-solved with them)."""
    monkeypatch.setattr(bounds, "_purified", lambda data, x, y: None)
    refined = 0
    for seed in range(40):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = ck.solve(ck.from_cvxpy(_free_zero_cost(seed)), "ecos")
        if not (r.solver_stats.get("refined")
                and not math.isfinite(r.solver_stats["first_rel_gap"])):
            continue
        refined += 1
        assert r.status is ck.Status.OPTIMAL and r.rel_gap <= r.tol, (seed, r.message)
        ref = _free_zero_cost(seed)
        ref.solve(solver="CLARABEL")
        assert r.dual_value <= ref.value * (1 + 1e-7) + 1e-9, seed
        assert r.primal_value >= ref.value * (1 - 1e-7) - 1e-9, seed
    assert refined >= 1
