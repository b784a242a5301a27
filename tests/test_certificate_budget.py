"""The certificate inside the solve's budget: its own solve (the phase-one point) sees only
what is left of ``time_limit``, a report says how long the certificate took, and a memory
error in the certificate is a report, not a foreign exception."""

from __future__ import annotations

import time

import cvxpy as cp
import numpy as np
import scipy.sparse as sp

import convexkern as ck
from convexkern.math.budget import deadline, time_left
from convexkern.math.conic import ConicData, interior_point
from convexkern.report import Status


def _needs_phase_one() -> ConicData:
    """min x1 s.t. x1 + x2 = 1, x >= 0 (nonneg rows), given a point off its cone rows:
    the upper bound's repair asks for a phase-one point."""
    A = np.array([[1.0, 1.0], [-1.0, 0.0], [0.0, -1.0]])
    return ConicData(c=np.array([1.0, 0.0]), A=A, b=np.array([1.0, 0.0, 0.0]), zero=1,
                     nonneg=2)


def test_time_left_counts_down_inside_a_deadline_only():
    assert time_left() is None
    with deadline(time.perf_counter() + 10.0):
        left = time_left()
        assert left is not None and 9.0 < left <= 10.0
        with deadline(None):
            assert time_left() is None
    assert time_left() is None


def test_no_phase_one_once_the_budget_is_spent():
    data = _needs_phase_one()
    with deadline(time.perf_counter() - 1.0):
        t0 = time.perf_counter()
        assert interior_point(data) == (None, 0.0)
        assert time.perf_counter() - t0 < 0.5
    assert "interior" not in data.cache  # a skip is not remembered
    point, margin = interior_point(data)  # with time, the phase one runs
    assert point is not None and margin > 0


def test_reports_carry_the_certificate_time(pima_small):
    _, y, K = pima_small
    f = ck.formulations.svm.dual(K, y, C=1.0)
    for solver in ("clarabel", "smo"):
        r = ck.solve(f, solver)
        assert r.status is Status.OPTIMAL
        assert 0.0 <= r.certify_time <= r.wall_time
        assert r.to_dict()["certify_time"] == r.certify_time


def test_a_memory_error_in_the_certificate_is_a_report(monkeypatch):
    x = cp.Variable(2, name="x")
    f = ck.from_cvxpy(cp.Problem(cp.Minimize(cp.sum(x)), [x >= 1]), "mem")

    def refuse(point, tol=None):
        raise MemoryError("Unable to allocate 2.5 GiB for an array")

    monkeypatch.setattr(f, "certificate", refuse)
    r = ck.solve(f, "clarabel")
    assert r.status is Status.ERROR and "the certificate ran out of memory" in r.message
    assert "2.5 GiB" in r.message


def _big_psd_block(k: int) -> ConicData:
    """min tr(X) s.t. X_11 = 1, X PSD (k x k, one svec block, SCS's lower triangle)."""
    size = k * (k + 1) // 2
    rows_eq = np.zeros((1, size))
    rows_eq[0, 0] = 1.0
    A = np.vstack([rows_eq, -np.eye(size)])
    c = np.zeros(size)
    c[[j * k - j * (j - 1) // 2 for j in range(k)]] = 1.0  # the diagonal in svec order
    return ConicData(c=c, A=A, b=np.concatenate([[1.0], np.zeros(size)]), zero=1,
                     psd=[k])


def test_a_phase_one_that_cannot_fit_the_deadline_is_not_started():
    """A 60 x 60 PSD block: the phase one's first factorisation (a dense 1830 x 1830
    block, 2e9 flops) cannot be interrupted, so with 0.5 s left it is not begun: a
    skipped phase one, not an overrun deadline (SDPLIB mcp100 under time_limit=1 took
    3.9 s before); with no deadline it runs."""
    data = _big_psd_block(60)
    with deadline(time.perf_counter() + 0.5):
        assert interior_point(data) == (None, 0.0)
    assert "interior" not in data.cache
    small = _big_psd_block(4)
    point, margin = interior_point(small)
    assert point is not None and margin > 0


def test_the_phase_one_reads_the_svec_as_the_matrix_it_is():
    """The phase-one margin of a PSD block is its smallest eigenvalue: the selector from
    svec to the matrix (sparse) must put each scaled off-diagonal entry in both places."""
    from convexkern.math.conic.cones import _mat_expr, _svec_index

    k = 5
    rng = np.random.default_rng(3)
    S = rng.standard_normal((k, k))
    S = S + S.T
    for lower in (True, False):
        r, c = _svec_index(k, lower)
        v = np.where(r == c, S[r, c], np.sqrt(2.0) * S[r, c])
        M = _mat_expr(cp, cp.Constant(v), k, lower).value
        np.testing.assert_allclose(M, S, rtol=0, atol=1e-14)


def test_fits_allows_the_grace_past_the_deadline_and_nothing_more():
    from convexkern.math.budget import fits

    assert fits(1e9)  # no deadline: anything fits
    with deadline(time.perf_counter() - 1.0, grace=5.0):
        assert fits(1.0) and not fits(10.0)
    with deadline(time.perf_counter() - 1.0):
        assert not fits(0.0)


def test_a_certificate_past_the_deadline_and_its_grace_starts_nothing():
    """A solver's answer that comes after time_limit + grace: the certificate reports both
    sides open, saying why, instead of overrunning (a dense 1500 x 600 SOCP's box rounds
    cost 0.8 s past T = 1); with the grace left, the same data is certified."""
    from convexkern.math.conic import conic_bounds

    data = _needs_phase_one()
    x, y = np.array([0.0, 1.0]), np.array([0.0, 1.0, 0.0])  # the optimum and its dual
    with deadline(time.perf_counter() - 1.0, grace=0.5):
        late = conic_bounds(data, x, y)
    assert late.lower == -np.inf and late.upper == np.inf
    assert "no time was left for the certificate" in late.lower_reason
    assert "no time was left for the certificate" in late.upper_reason
    with deadline(time.perf_counter() - 1.0, grace=60.0):
        graced = conic_bounds(data, x, y)
    assert graced.lower <= 0.0 <= graced.upper
    assert np.isfinite(graced.lower) and np.isfinite(graced.upper)
    # a millisecond left: less than the least a certificate takes (2.6-3 ms on cvxpy's
    # standard problems, whatever their size; begun, it ended 10-15 ms past T = 0.2)
    with deadline(time.perf_counter() + 1e-3):
        short = conic_bounds(data, x, y)
    assert short.lower == -np.inf and short.upper == np.inf
    assert "no time was left for the certificate" in short.lower_reason


def test_scs_gets_the_time_left_after_compilation(monkeypatch):
    """SCS's own limit is what is left of time_limit when it starts, not the whole of it
    (cvxpy's compilation of a dense 1500 x 600 SOCP takes 0.4 s of T = 1)."""
    import cvxpy.reductions.solvers.solving_chain as sc

    x = cp.Variable(3, name="x")
    f = ck.from_cvxpy(cp.Problem(cp.Minimize(cp.sum_squares(x - 1)), [x >= 0]), "limit")
    real_get = f.problem.get_problem_data

    def slow_get(*args, **kwargs):
        out = real_get(*args, **kwargs)
        time.sleep(0.3)  # a compilation that takes 0.3 s of the caller's 1 s
        return out

    seen: dict[str, float] = {}
    real_via = sc.SolvingChain.solve_via_data

    def via(self, problem, data, warm_start, verbose, solver_opts):
        seen.setdefault("limit", solver_opts["time_limit_secs"])  # the first solve
        return real_via(self, problem, data, warm_start, verbose, solver_opts)

    monkeypatch.setattr(f.problem, "get_problem_data", slow_get)
    monkeypatch.setattr(sc.SolvingChain, "solve_via_data", via)
    r = ck.solve(f, "scs", time_limit=1.0)
    assert r.status in (Status.OPTIMAL, Status.OPTIMAL_INACCURATE)
    assert 0.0 < seen["limit"] <= 0.7


def test_exact_recomputations_and_box_rounds_past_the_deadline_are_not_begun(monkeypatch):
    """The exact recomputation of undecided rows (``_exact_rows``: 0.5-0.7 s on the 1-norm
    SVM LP's dual rows, begun 0.2-0.5 s past the deadline) and a round of the box's
    propagation (0.3-0.5 s there, begun with 0.02 s left) cannot be interrupted: neither is
    begun when it cannot end by the deadline; the rounding bounds and the box so far stand
    (valid, only looser). Without a deadline both run as before."""
    from convexkern.math.conic import bounds, boxes, slack
    from convexkern.math.conic.data import transposed

    data = _needs_phase_one()
    x = np.array([0.5, 0.5])  # x1 + x2 = 1 met: the equality row's sign is undecided
    s, es = data.b - data.A @ x, np.full(3, 1e-15)
    r, err = np.zeros(2), np.full(2, 1e-15)
    At = transposed(data)
    calls = []

    def exact(*args, **kw):
        calls.append(1)
        raise AssertionError("begun past the deadline")

    monkeypatch.setattr(slack, "_exact_rows", exact)
    monkeypatch.setattr(bounds, "_exact_rows", exact)
    with deadline(time.perf_counter() - 1.0):
        s2, es2 = slack._refine_slack(data, x, s, es)
        r2, err2 = bounds._refine_undecided(data, At, np.zeros(3), None, r, err)
    assert not calls
    assert np.array_equal(s2, s) and np.array_equal(es2, es)
    assert np.array_equal(r2, r) and np.array_equal(err2, err)
    monkeypatch.undo()
    assert np.array_equal(slack._refine_slack(data, x, s, es)[1][:1], [0.0])  # exact 0

    # the box's rounds: the first is begun while fits() says so, none after (unchecked,
    # two: the box of the first, then one that moves nothing)
    answers = iter([True, False])
    rounds = []
    monkeypatch.setattr(boxes, "fits", lambda seconds: next(answers, False))
    real = boxes._propagate
    monkeypatch.setattr(boxes, "_propagate", lambda *a, **k: (rounds.append(1), real(*a, **k)))
    G = data.A.tocsr()
    lo, hi = np.full(2, -np.inf), np.full(2, np.inf)
    boxes._tighten(G, np.full(3, -np.inf), data.b.copy(), lo, hi, lambda lo, hi: None)
    assert len(rounds) == 1
    assert np.all(lo <= 0.0) and np.all(hi >= 1.0)  # it holds the feasible set [0, 1]^2


def test_the_epigraph_step_is_not_begun_when_its_passes_cannot_fit(monkeypatch):
    """The epigraph step (the slack, then the search for epigraph columns: four passes
    over the form, not interrupted) was begun whenever any time was left: with 15 ms left,
    on a logistic regression of 5000 exponential cones, it ended 0.16 s past the deadline.
    It is begun only when those passes fit; without a deadline it runs."""
    from convexkern.math.conic import bounds

    rng = np.random.default_rng(0)
    A = sp.random(400, 300, density=0.05, random_state=0, format="csr")  # 6000 entries
    data = ConicData(c=np.ones(300), A=A, b=np.ones(400), nonneg=400)
    x = rng.standard_normal(300)
    calls = []
    real = bounds.slack_bound
    monkeypatch.setattr(bounds, "slack_bound",
                        lambda *a, **k: (calls.append(1), real(*a, **k))[1])
    box = lambda: (np.full(400, -np.inf), np.full(400, np.inf))  # noqa: E731
    with deadline(time.perf_counter() + 5e-4):  # 4 passes of 6400 entries: about 8 ms
        assert bounds._lifted_upper(data, x, box) is None
    assert not calls
    bounds._lifted_upper(data, x, box)
    assert calls


def test_the_work_leaves_the_end_of_a_short_limit_to_the_report(monkeypatch):
    """The deadline the solve and its certificate see comes ``report_tail(T)`` before the
    caller's (10 ms, at most a fifth of T): what follows the last read of the clock (the
    answer unpacked, the certificate's notes, the report) took 3-8 ms, and calls under
    T = 0.05-0.1 s ended at 1.05-1.14 T.  Read at the certificate's start."""
    from convexkern.math.budget import REPORT_TAIL, report_tail
    from convexkern.solvers import conic

    assert report_tail(1.0) == REPORT_TAIL and report_tail(0.02) == 0.2 * 0.02
    real = conic.certified_report
    seen: list[float] = []

    def at_start(*args, **kwargs):
        seen.append(time.perf_counter() + time_left())
        return real(*args, **kwargs)

    real_at = conic._solve_at
    begun: list[float] = []

    def solve_at(*args, **kwargs):
        begun.append(time.perf_counter())
        return real_at(*args, **kwargs)

    monkeypatch.setattr(conic, "certified_report", at_start)
    monkeypatch.setattr(conic, "_solve_at", solve_at)
    x = cp.Variable(3)
    for T in (0.04, 5.0):
        seen.clear()
        begun.clear()
        f = ck.from_cvxpy(cp.Problem(cp.Minimize(cp.sum(x)), [x >= 1]))
        t0 = time.perf_counter()
        r = ck.solve(f, "clarabel", time_limit=T)
        assert seen and begun, r.message
        # counted from the call's start, between t0 and the solve's (the deadline read
        # back as now + time left: two clock reads, a microsecond apart)
        tail = report_tail(T)
        assert t0 + T - tail - 1e-4 <= seen[0] <= begun[0] + T - tail + 1e-4


def test_time_limit_counts_from_the_call_and_nothing_is_compiled_past_it(monkeypatch):
    """``time_limit`` counts from ``ck.solve``'s start, not from the solve's after the
    checks of the problem (0.2-0.6 s on 20,000 constraints written in a loop, which ran
    past ``T`` before the clock began); when those checks took all of it, cvxpy's
    compilation is not begun."""
    from convexkern.math.budget import report_tail
    from convexkern.solvers import conic, dispatch

    real_resolve, real_report = dispatch._resolve, conic.certified_report
    seen: list[float] = []
    compiles: list[int] = []
    pause = [0.2]

    def slow_resolve(*args, **kwargs):
        time.sleep(pause[0])
        return real_resolve(*args, **kwargs)

    def at_start(*args, **kwargs):
        seen.append(time.perf_counter() + time_left())
        return real_report(*args, **kwargs)

    real_get = cp.Problem.get_problem_data

    def counted(self, *args, **kwargs):
        compiles.append(1)
        return real_get(self, *args, **kwargs)

    monkeypatch.setattr(dispatch, "_resolve", slow_resolve)
    monkeypatch.setattr(conic, "certified_report", at_start)
    monkeypatch.setattr(cp.Problem, "get_problem_data", counted)
    x = cp.Variable(3)
    T = 1.0
    t0 = time.perf_counter()
    r = ck.solve(ck.from_cvxpy(cp.Problem(cp.Minimize(cp.sum(x)), [x >= 1])), "clarabel",
                 time_limit=T)
    assert seen and compiles, r.message
    assert seen[0] <= t0 + T - report_tail(T) + 0.05  # not 0.2 s later
    pause[0], T = 0.3, 0.2
    compiles.clear()
    r = ck.solve(ck.from_cvxpy(cp.Problem(cp.Minimize(cp.sum(x)), [x >= 1])), "clarabel",
                 time_limit=T)
    assert r.status is Status.TIME_LIMIT and not compiles
    assert "checks of the problem before cvxpy's compilation took all" in r.message
