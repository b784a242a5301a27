"""``time_limit`` for the custom algorithms, end to end: counted from ``ck.solve``'s entry,
with the report's tail kept (the conic path's rule), iterations stopped before one that
would end past it, the robust methods' final certificate held in the limit, and no
certificate begun past the deadline.  Before, each method counted from its own start and
stopped only once past it: SDPM's methods ended at 1.2-1.7 T under ``T = 0.1``, the robust
methods at 1.5-3.2 T (their final certificate, 0.1-0.4 s at n = 770, came on top)."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

import convexkern as ck
from convexkern import transforms
from convexkern.algorithms._progress import no_room
from convexkern.algorithms.robust_svm import EIGH_SECONDS, certificate_reserve
from convexkern.data import load_usps
from convexkern.formulations import robust_indefinite as ri
from convexkern.formulations import sdpm, svm
from convexkern.math.budget import report_tail, time_left
from convexkern.solvers import algorithm_status, certified_report

X = np.array([[0.0, 0.0], [1.0, 0.2], [0.1, 1.0], [1.2, 1.1]])
Y = np.array([-1.0, -1.0, 1.0, 1.0])
#: the process's own jitter past a timed call's end (a collection or a page fault: a
#: review saw 0.211 s against 0.21 in one run of nine; the old code ended 15-25 ms past)
_JITTER = 0.005


def _timed(f, solver, T, tol):
    """The faster of two calls ``ck.solve(f, solver, tol=tol, time_limit=T)``: ``(wall,
    report)``.  One call in a few, late in a long test run, met a stall of 30-40 ms (a page
    fault or a collection) that the method's own clock cannot foresee; the overshoots this
    file guards against are systematic and show in both calls."""
    best = None
    for _ in range(2):
        t = time.perf_counter()
        r = ck.solve(f, solver, tol=tol, time_limit=T)
        wall = time.perf_counter() - t
        if best is None or wall < best[0]:
            best = (wall, r)
    return best


def test_no_room_reads_the_last_lap():
    t0 = time.perf_counter() - 0.5  # half a second spent
    assert no_room(t0, 1.0, 0.6) and not no_room(t0, 1.0, 0.3)
    assert not no_room(t0, None, 100.0)  # no limit: never


def test_the_adapter_gets_what_is_left_of_the_call_and_its_deadline(clean_table):
    """The adapter's ``time_limit`` counts from ``ck.solve``'s entry, less the report's
    tail, and the deadline it works under (what the certificates read) is the same."""
    seen = {}

    @ck.register_solver("clocked", kinds=["svm.dual"], default_tol=1e-3)
    def solve_clocked(f, *, tol, max_iter, time_limit, verbose=False, x0=None, **options):
        seen["limit"], seen["left"] = time_limit, time_left()
        return certified_report(f, {"alpha": np.zeros(Y.size)}, solver="clocked",
                                status=algorithm_status("time_limit"), tol=tol,
                                solve_time=0.0)

    f = svm.dual(X @ X.T, Y, C=1.0)
    t = time.perf_counter()
    ck.solve(f, "clocked", time_limit=0.5)
    spent = time.perf_counter() - t
    # what was left at the adapter's start: at most T less the tail, at least that less
    # the whole call's time
    assert 0.5 - report_tail(0.5) - spent <= seen["limit"] <= 0.5 - report_tail(0.5)
    assert seen["left"] <= seen["limit"] and seen["limit"] - seen["left"] <= spent
    ck.solve(f, "clocked")
    assert seen["limit"] is None and seen["left"] is None  # no limit, no deadline


def test_no_certificate_is_begun_past_the_deadline(clean_table, monkeypatch):
    """A method whose last step ended past ``T`` and its grace: the point comes back
    unproved, as a time limit, and the certificate is not run."""
    called = []

    @ck.register_solver("late", kinds=["svm.dual"], default_tol=1e-3)
    def solve_late(f, *, tol, max_iter, time_limit, verbose=False, x0=None, **options):
        time.sleep(time_limit + 0.05)  # past T + 3 %
        return certified_report(f, {"alpha": np.full(Y.size, 0.5)}, solver="late",
                                status=algorithm_status("optimal"), tol=tol, solve_time=0.1)

    f = svm.dual(X @ X.T, Y, C=1.0)
    cert = ck.Formulation.certificate
    monkeypatch.setattr(ck.Formulation, "certificate",
                        lambda *a, **k: called.append(1) or cert(*a, **k))
    r = ck.solve(f, "late", time_limit=0.2)
    assert not called
    assert r.status is ck.Status.TIME_LIMIT and "no time was left for the certificate" in r.message
    assert np.array_equal(r.x["alpha"], np.full(Y.size, 0.5))  # handed back as it was
    assert math.isnan(r.primal_value) and math.isnan(r.dual_value)
    # with time left, the same method's point is certified
    r = ck.solve(f, "late", time_limit=5.0)
    assert called and math.isfinite(r.rel_gap)


def test_a_robust_method_is_not_begun_when_its_first_step_cannot_fit():
    """The first oracle call decomposes K0 (n = 600: about 0.03 s) and the final
    certificate is kept in the limit (0.07 s): under ``T = 0.1`` neither is begun."""
    rng = np.random.default_rng(0)
    Z = rng.standard_normal((600, 600))
    K0 = 0.5 * (Z + Z.T) / 30.0
    y = np.where(rng.standard_normal(600) > 0, 1.0, -1.0)
    # the premise: the decomposition and the certificate, as estimated, pass T
    assert certificate_reserve(600) + EIGH_SECONDS * 600 ** 3 > 0.1
    f = ri.dual(K0, y, 1.0, 1.0)
    for name in ("robust_apg", "robust_pg", "robust_accpm"):
        t = time.perf_counter()
        r = ck.solve(f, name, time_limit=0.1)
        assert time.perf_counter() - t < 0.1
        assert r.status is ck.Status.TIME_LIMIT and r.message.startswith("not started"), r


@pytest.fixture(scope="module")
def sdpm200():
    ds = load_usps("train")
    X_, y_ = transforms.rotation_trajectories(ds.X[:200]), np.where(ds.y[:200] < 5, 1.0, -1.0)
    return sdpm.primal(X_, y_, math.radians(10), 1.0)


@pytest.mark.parametrize("solver", ["sdpm-ipm", "sdpm-dcd", "exchange"])
def test_sdpm_methods_end_within_the_limit(sdpm200, solver):
    """200 USPS trajectories need more than ``T = 0.2`` s at ``tol = 1e-10``: the call ends
    within T + 5 % (it stopped only once past T before: 1.2-1.7 T at 0.1 s) with a
    certified bracket."""
    # one BLAS thread: on a loaded 2-core machine a threaded BLAS made one master step of
    # the exchange method 15 times slower (2.9 s), which no check between steps can stop
    with threadpool_limits(limits=1, user_api="blas"):
        ck.solve(sdpm200, solver, tol=1e-3)  # imports and first-call costs out of the timing
        wall, r = _timed(sdpm200, solver, 0.2, 1e-10)
    assert r.status is ck.Status.TIME_LIMIT, r
    assert wall <= 1.05 * 0.2 + _JITTER, wall
    assert math.isfinite(r.primal_value) and math.isfinite(r.dual_value)


@pytest.mark.parametrize("master", ["clarabel", "clarabel-dense", "cvxpy", "ipm"])
@pytest.mark.parametrize("T", [0.05, 0.4])
def test_the_exchange_methods_masters_keep_the_limit(sdpm200, master, T):
    """A Clarabel master was given no limit: the exchange method ended at 2-11 T under
    ``T = 0.1-0.5``.  Clarabel now gets what is left (less its set-up, read before its
    clock: a master whose set-up cannot fit is not begun).  The interior-point master
    read no clock either (1.05-1.4 T under ``T = 0.05``, half the calls without a
    bracket): it stops before a step that cannot fit.  Either way the point reached
    (``w = 0`` when no master fits) comes back with its bracket."""
    with threadpool_limits(limits=1, user_api="blas"):
        ck.solve(sdpm200, "exchange", max_iter=1, master=master)
        best, r = None, None
        for _ in range(2):  # the faster call's wall and report (a loaded machine's noise)
            t = time.perf_counter()
            got = ck.solve(sdpm200, "exchange", tol=1e-10, time_limit=T, master=master)
            wall = time.perf_counter() - t
            if best is None or wall < best:
                best, r = wall, got
    assert r.status is ck.Status.TIME_LIMIT, r
    assert best <= 1.05 * T + _JITTER, (best, r.message)
    if T < 0.1 and not math.isfinite(r.primal_value):
        # at 50 ms the guard's 3 % is 1.5 ms: a master ending a few ms late (within the
        # wall's allowance; twice in full test runs, never alone) leaves the point
        # unproved, and the report says so
        assert "no time was left for the certificate" in r.message, r.message
        return
    assert math.isfinite(r.primal_value) and not math.isnan(r.dual_value), r.message


def test_smo_keeps_its_final_bounds_in_the_limit():
    """SMO on 3000 points (a dense 72 MB ``K``) under ``T = 0.2``: the products with ``K``
    after its last step (7-19 ms each) and its own stop came past the limit: 1.33 T at
    ``T = 0.1`` before, and at 0.3 s the certificate found no time left.  Now the call ends
    within T + 5 % with a certified bracket."""
    from convexkern.kernels import RBF

    rng = np.random.default_rng(1)
    Xr = rng.normal(size=(3000, 10))
    yr = np.where(Xr[:, 0] + 0.8 * rng.normal(size=3000) > 0, 1.0, -1.0)
    f = svm.dual(RBF(gamma=0.1)(Xr), yr, C=10.0)
    with threadpool_limits(limits=1, user_api="blas"):  # as above
        ck.solve(f, "smo", tol=1e-2)  # first-call costs out of the timing
        wall, r = _timed(f, "smo", 0.2, 1e-10)
    assert r.status is ck.Status.TIME_LIMIT, r
    assert wall <= 1.05 * 0.2 + _JITTER, wall
    assert math.isfinite(r.primal_value) and math.isfinite(r.dual_value), r.message


def test_the_guard_is_the_custom_algorithms_only():
    """Past the deadline and its grace, ``certified_report`` hands a point back unproved
    only for a custom algorithm (:func:`unproved_past_deadline`, set by ``ck.solve``): a
    conic solver that cannot be stopped (MPAX) still has its point certified."""
    from convexkern.math.budget import deadline
    from convexkern.solvers.outcome import unproved_past_deadline

    f = svm.dual(X @ X.T + 0.1 * np.eye(4), Y, C=1.0)
    point = {"alpha": np.zeros(Y.size)}
    past = time.perf_counter() - 1.0
    with deadline(past):
        r = certified_report(f, point, solver="s", status=ck.Status.TIME_LIMIT, tol=1e-6,
                             solve_time=0.0)
        assert math.isfinite(r.rel_gap)
        with unproved_past_deadline():
            r = certified_report(f, point, solver="s", status=ck.Status.TIME_LIMIT,
                                 tol=1e-6, solve_time=0.0)
        assert math.isnan(r.primal_value) and "no time was left" in r.message


def test_a_call_nested_in_another_keeps_its_deadline(clean_table):
    """An adapter that solves through ``ck.solve`` itself (SMO on a Kreĭn formulation): the
    inner call works to the outer deadline, without a second report tail taken off."""
    seen = {}

    @ck.register_solver("inner", kinds=["svm.dual"], default_tol=1e-3)
    def solve_inner(f, *, tol, max_iter, time_limit, verbose=False, x0=None, **options):
        seen["inner"] = time_left()
        return certified_report(f, {"alpha": np.zeros(Y.size)}, solver="inner",
                                status=algorithm_status("time_limit"), tol=tol,
                                solve_time=0.0)

    @ck.register_solver("outer", kinds=["svm.dual"], default_tol=1e-3)
    def solve_outer(f, *, tol, max_iter, time_limit, verbose=False, x0=None, **options):
        seen["outer"] = time_left()
        return ck.solve(f, "inner", tol=tol, time_limit=time_limit)

    ck.solve(svm.dual(X @ X.T, Y, C=1.0), "outer", time_limit=0.5)
    # the inner deadline is the outer one (the time between the two reads apart), not a
    # tail of 10 ms earlier
    assert 0.0 <= seen["outer"] - seen["inner"] < 0.5 * report_tail(0.5)

    @ck.register_solver("unlimited", kinds=["svm.dual"], default_tol=1e-3)
    def solve_unlimited(f, *, tol, max_iter, time_limit, verbose=False, x0=None, **options):
        seen["outer"] = time_left()
        return ck.solve(f, "inner", tol=tol)  # asks for no limit

    r = ck.solve(svm.dual(X @ X.T, Y, C=1.0), "unlimited", time_limit=0.5)
    # no deadline inside, and the certificate is run
    assert seen["outer"] is not None and seen["inner"] is None and math.isfinite(r.rel_gap)


def test_an_infinite_limit_is_no_limit():
    f = svm.dual(X @ X.T + 0.1 * np.eye(4), Y, C=1.0)
    r = ck.solve(f, "smo", time_limit=math.inf)
    assert r.status is ck.Status.OPTIMAL


def test_trik_keeps_its_final_check_in_the_limit():
    """TrIK's warm start (a Cholesky of all n points) and its final check (a dense solve on
    the free points) come after its last limit check: 1500 points under ``T = 0.1`` ended
    at 1.7-2 T.  The warm start is begun only when it and the check fit."""
    from convexkern.formulations import krein

    rng = np.random.default_rng(1)
    Xk = rng.normal(size=(1500, 10))
    yk = np.where(Xk[:, 0] + 0.8 * rng.normal(size=1500) > 0, 1.0, -1.0)
    f = krein.stabilization(np.tanh(0.05 * Xk @ Xk.T - 0.5), yk, C=1.0)
    with threadpool_limits(limits=1, user_api="blas"):  # as above
        ck.solve(f, "trik", tol=1e-2, max_iter=50)
        wall, r = _timed(f, "trik", 0.1, 1e-6)
    assert wall <= 1.05 * 0.1 + _JITTER, (wall, r.message)
    assert math.isfinite(r.primal_value) and math.isfinite(r.dual_value), r.message


def test_trik_on_the_flip_decomposition_keeps_the_limit():
    """On the flip decomposition TrIK's first step from a working set of every point drops
    almost all of them at once; one factor downdate per point (1483 of 1500: 1.3 s) ran
    with no clock read, to 4.5 T under ``T = 0.3``.  The factor is now computed anew when
    that costs less."""
    from convexkern.formulations import krein

    rng = np.random.default_rng(1)
    Xk = rng.normal(size=(1500, 10))
    yk = np.where(Xk[:, 0] + 0.8 * rng.normal(size=1500) > 0, 1.0, -1.0)
    f = krein.stabilization(np.tanh(0.05 * Xk @ Xk.T - 0.5), yk, C=1.0,
                            decomposition="flip")
    with threadpool_limits(limits=1, user_api="blas"):  # as above
        ck.solve(f, "trik", tol=1e-2, max_iter=2)
        wall, r = _timed(f, "trik", 0.3, 1e-8)
    assert wall <= 1.05 * 0.3 + _JITTER, (wall, r.message)
