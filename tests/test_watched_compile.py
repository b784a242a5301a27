"""cvxpy's compilation under ``time_limit`` (``convexkern/solvers/compiled.py``): a compile
that may not fit what is left runs in a forked child stopped at the deadline, and what it
made solves and certifies as a compile in the caller's process does."""

from __future__ import annotations

import gc
import time

import cvxpy as cp
import numpy as np
import pytest

import convexkern as ck
from convexkern.report import Status
from convexkern.solvers import compiled
from convexkern.solvers.watchdog import can_watch

pytestmark = pytest.mark.skipif(not can_watch(), reason="no os.fork here")


def _models() -> dict[str, cp.Problem]:
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 3))
    y = np.where(X[:, 0] + 0.3 * rng.standard_normal(40) > 0, 1.0, -1.0)
    K = np.exp(-0.5 * np.sum((X[:, None] - X[None]) ** 2, axis=2))
    a, b = cp.Variable(40), cp.Variable()
    klr = cp.Problem(cp.Minimize(cp.sum(cp.logistic(-cp.multiply(y, K @ a + b))) / 40
                                 + 0.05 * cp.quad_form(a, cp.psd_wrap(K))))
    x = cp.Variable(5)
    A = rng.standard_normal((3, 5))
    lp = cp.Problem(cp.Minimize(np.ones(5) @ x), [A @ x == A @ np.ones(5), x >= 0])
    return {"klr": klr, "lp": lp}


@pytest.mark.parametrize("warm", [False, True])
@pytest.mark.parametrize("solver", ["clarabel", "scs", "ecos"])
@pytest.mark.parametrize("name", ["klr", "lp"])
def test_a_watched_compile_solves_and_certifies_as_one_made_here(monkeypatch, name, solver,
                                                                 warm):
    """The child's conic data, solving chain and inverse data, and the notes the compile
    leaves on the problem (the quadratic forms given through a factor), certify the same
    bracket, to the bit, as a compile in this process; cvxpy's id counter moves past the
    ids the child gave, so no later variable here shares one.  ``warm``: the problem was
    solved here before (cvxpy's cached compile, and the solver's warm start), on both
    sides."""
    if solver not in ck.available_solvers(ck.from_cvxpy(_models()[name])):
        pytest.skip(f"{solver} is not installed")
    mine = _models()[name]
    if warm:
        ck.solve(ck.from_cvxpy(mine), solver)  # then again, warm, as the watched one
    here = ck.solve(ck.from_cvxpy(mine), solver, time_limit=60.0)
    watched = []
    real = compiled.watched_compile
    import convexkern.solvers.conic as conic

    monkeypatch.setattr(conic, "may_not_fit", lambda problem, left: True)
    monkeypatch.setattr(conic, "watched_compile",
                        lambda *a, **k: (watched.append(1), real(*a, **k))[1])
    from cvxpy.lin_ops import lin_utils

    problem = _models()[name]
    if warm:
        monkeypatch.setattr(conic, "may_not_fit", lambda problem, left: False)
        ck.solve(ck.from_cvxpy(problem), solver)  # cvxpy's cache holds a compile of here
        monkeypatch.setattr(conic, "may_not_fit", lambda problem, left: True)
    before = lin_utils.ID_COUNTER.count
    there = ck.solve(ck.from_cvxpy(problem), solver, time_limit=60.0)
    assert watched
    assert there.status is here.status and there.status.has_solution
    assert (there.primal_value, there.dual_value) == (here.primal_value, here.dual_value)
    assert there.message == here.message
    # the child's new ids are not given again here (warm: it made none)
    assert lin_utils.ID_COUNTER.count >= before + (0 if warm else 1)
    fresh = cp.Variable()
    ids = {v.id for v in problem.variables()} | {c.id for c in problem.constraints}
    assert fresh.id not in ids
    for v in problem.variables():
        assert v.value is not None  # unpacked onto the caller's own variables
    # the notes the compile leaves on the problem (what cvxpy altered, the quadratic forms
    # given through a factor) are the child's, as a compile here leaves them
    key = ck.solvers.CONIC[solver].cvxpy_name
    notes = {k: problem.__dict__.get(k, {}).get(key) for k in compiled._NOTES}
    theirs = {k: mine.__dict__.get(k, {}).get(key) for k in compiled._NOTES}
    assert notes["_convexkern_altered"] == theirs["_convexkern_altered"] is not None
    assert notes["_convexkern_dropped"] == theirs["_convexkern_dropped"]
    assert len(notes["_convexkern_factors"]) == len(theirs["_convexkern_factors"])
    for a, b in zip(notes["_convexkern_factors"], theirs["_convexkern_factors"], strict=True):
        assert np.array_equal(a.P, b.P) and np.array_equal(a.F, b.F) and a.sigma == b.sigma
        assert a.arg.shape == b.arg.shape
    if (name, solver) == ("klr", "ecos"):  # ECOS takes quad_form through a factor of K
        assert notes["_convexkern_factors"]
    # cvxpy's own cache of the compile is not the child's: a later solve compiles again
    # and the notes are its own (the child's name an epigraph variable of its compile)
    again = ck.solve(ck.from_cvxpy(problem), solver)
    assert again.status.has_solution
    assert again.message.split(";")[0] == here.message.split(";")[0]


def test_a_compile_past_the_deadline_is_stopped_there(monkeypatch):
    """A compile that has not ended at the deadline (here one made to take 3 s) is stopped
    there: a time limit, said so, within the caller's 5 %, where it ran to its end."""
    slow_get = cp.Problem.get_problem_data

    def slow(self, *args, **kwargs):
        time.sleep(3.0)
        return slow_get(self, *args, **kwargs)

    monkeypatch.setattr(cp.Problem, "get_problem_data", slow)
    monkeypatch.setattr(compiled, "estimate", lambda problem: 3.0)
    gc.collect()
    t0 = time.perf_counter()
    r = ck.solve(ck.from_cvxpy(_models()["lp"]), "clarabel", time_limit=0.5)
    wall = time.perf_counter() - t0
    assert r.status is Status.TIME_LIMIT
    assert "compilation of the problem had not ended at the deadline" in r.message, r.message
    assert wall < 0.5 * 1.05 + 0.2  # not the 3 s of the compile


def test_a_compile_that_cannot_reach_the_caller_by_the_deadline_is_not_sent():
    """The caller's wait ends at the first byte of the child's answer: a compile done
    just before the deadline reached it well after (an SVM dual's 127 MB, 1.1-1.5 T under
    ``T = 1``). The child sends nothing it cannot carry by the deadline."""
    big = np.zeros(10**7)  # 80 MB pickled: about 0.16 s to carry back

    def compile_():
        return big, None, None

    problem = _models()["lp"]
    t0 = time.perf_counter()
    with pytest.raises(compiled.CompileStopped):
        compiled.watched_compile(compile_, problem, "SCS", 0.15)
    assert time.perf_counter() - t0 < 0.15 + 0.1
    # with the time to carry it, it comes back whole
    out = compiled.watched_compile(compile_, problem, "SCS", 30.0)
    assert np.array_equal(out[0], big) and out[1:] == (None, None)


def test_a_compile_in_another_thread_does_not_hang_the_child(monkeypatch):
    """A fork taken while another thread held the compile's lock left that lock held for
    ever in the child, whose compile then waited until the deadline (7 of 30 watched
    solves beside a thread compiling quad_forms came back ``time_limit``). The locks are
    taken around the fork."""
    import threading

    import convexkern.solvers.conic as conic
    from convexkern.solvers.cvxpy_bounds import compile_locks

    monkeypatch.setattr(conic, "may_not_fit", lambda problem, left: True)
    lock = compile_locks()[0]
    held = threading.Event()

    def hold():
        with lock:
            held.set()
            time.sleep(0.3)

    other = threading.Thread(target=hold)
    other.start()
    held.wait()
    r = ck.solve(ck.from_cvxpy(_models()["lp"]), "clarabel", time_limit=5.0)
    other.join()
    assert r.status is Status.OPTIMAL, r.message


def test_a_problem_of_many_small_pieces_is_estimated_by_its_nodes():
    """A problem written one constraint at a time (as an SDPA file's reader writes one
    term per matrix) has few constant entries and many expression nodes, and cvxpy's
    compile of it takes time per node: 400 rows written in a loop are estimated at more
    than 400 nodes' worth, enough to be watched with 0.1 s left, where the count of
    entries alone (about 2,000) put it at 6 ms."""
    x = cp.Variable(401)
    rows = [x[i] + 2.0 * x[i + 1] <= float(i) for i in range(400)]
    p = cp.Problem(cp.Minimize(cp.sum(x)), rows + [x >= 0])
    entries = sum(int(c.size) for c in p.constants())
    by_entries = compiled.COMPILE_FIXED_SECONDS + compiled.COMPILE_SECONDS_PER_ENTRY * entries
    assert by_entries < 0.01
    assert compiled.tree(p)[0] >= 4 * 400  # each row: an index, a product, a sum, itself
    assert compiled.estimate(p) >= by_entries + 1600 * compiled.COMPILE_SECONDS_PER_NODE
    assert compiled.may_not_fit(p, 0.1)


def test_a_shared_expression_is_counted_once():
    """Nodes are counted once however often the tree reaches them: 14 levels of
    ``e = abs(e) + e`` (cvxpy flattens the sums, so each level reads every earlier one)
    are 2**14 paths from the top but about 30 distinct nodes."""
    x = cp.Variable()
    e = x
    for _ in range(14):
        e = cp.abs(e) + e
    p = cp.Problem(cp.Minimize(e), [x >= 1])
    assert compiled.tree(p)[0] < 100


def test_a_sparse_constant_counts_its_nonzeros_but_not_a_quad_forms_matrix():
    """A sparse matrix is as many entries as it stores: Netlib-sized LPs (BANDM, 2,500
    nonzeros in 305 x 472, compiled in 7 ms) are not watched under a limit of 0.05 s.
    Not the matrix of a ``quad_form``, which cvxpy may factor densely for a second-order
    cone solver (a review: a sparse 4000 x 4000 one, 20,000 nonzeros, on ECOS ran to
    1.3-1.75 T unwatched at T = 0.5): all its entries count."""
    import scipy.sparse as sp

    A = sp.random(300, 500, density=0.02, random_state=0, format="csr")
    x = cp.Variable(500)
    p = cp.Problem(cp.Minimize(cp.sum(x)), [A @ x >= 1, x >= 0])
    assert A.nnz <= compiled.tree(p)[1] <= A.nnz + 10  # and the scalars 1 and 0
    assert compiled.estimate(p) < 0.01 and not compiled.may_not_fit(p, 0.04)
    P = sp.eye(500, format="csr")
    q = cp.Problem(cp.Minimize(cp.quad_form(x, P)), [A @ x >= 1])
    assert compiled.tree(q)[1] >= 500 * 500
