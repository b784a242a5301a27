"""The certificate's cheaper paths: each gives what the path it replaces
gives, or bounds that still hold every feasible point.

* :func:`~convexkern.math.conic.chains.close_chains` (a chain of rows closed in one
  pass): every bound it writes holds the whole feasible set, checked against the exact
  extent of each column over it (an LP per column, HiGHS);
* :func:`~convexkern.math.conic.psd.psd_shifts` (PSD blocks of one side in a batch): the
  same shift, to the bit, as :func:`psd_shift` block by block;
* ``_alike_rows`` (the test before the pair sums' sort): it never hides a pair;
* the exact row sums by array sweeps and by ``math.fsum`` (the number of rows decides
  which runs): the same values and bounds;
* the primal box's stop on slow rounds (``weak._box_enough``): only where the bound
  already meets ``tol`` and the rounds left could not make it enough;
* the early stops a ``tol`` allows (a bracket within 0.1 tol, a near bound ending the
  step search): a ``tol`` the bracket without them meets is met with them.
"""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog

import convexkern as ck
import convexkern.generic as generic
from convexkern.report import relative_gap


def _system(seed: int, chain: bool):
    """``rlo <= G z <= rhi`` through a known point, some columns boxed, the rest open;
    with ``chain``, a staircase of two-entry rows below a few random ones (each row
    closes the next column once the one before is closed)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 10))
    z0 = rng.normal(size=n)
    if chain:
        rows = [np.eye(n)[0]] + [np.eye(n)[i + 1] * rng.choice([-2.0, 0.5, 1.0])
                                 - np.eye(n)[i] * rng.choice([1.0, 3.0]) for i in range(n - 1)]
        G = sp.csr_matrix(np.array(rows))
    else:
        G = sp.random(int(rng.integers(2, 8)), n, density=0.5, random_state=rng, format="csr")
        G.data = rng.choice([-3.0, -1.0, -0.1, 0.0, 0.5, 1.0, 7.0], G.nnz)
    act = G @ z0
    m = G.shape[0]
    rlo = act - rng.choice([0.0, 0.5, np.inf], m)
    rhi = act + rng.choice([0.0, 0.3, np.inf], m)
    lo = z0 - rng.choice([1.0, np.inf, np.inf], n)
    hi = z0 + rng.choice([2.0, np.inf, np.inf], n)
    return G, rlo, rhi, lo, hi


def _extent(G, rlo, rhi, lo, hi, j: int, sense: float) -> float:
    """``sense * max(sense * z_j)`` over the feasible set (``inf``: unbounded), by LP."""
    n = G.shape[1]
    dense = G.toarray()
    A_ub, b_ub, A_eq, b_eq = [], [], [], []
    for i in range(G.shape[0]):
        if rlo[i] == rhi[i]:
            A_eq.append(dense[i])
            b_eq.append(rhi[i])
            continue
        if math.isfinite(rhi[i]):
            A_ub.append(dense[i])
            b_ub.append(rhi[i])
        if math.isfinite(rlo[i]):
            A_ub.append(-dense[i])
            b_ub.append(-rlo[i])
    c = np.zeros(n)
    c[j] = -sense
    res = linprog(c, A_ub=np.array(A_ub) if A_ub else None, b_ub=b_ub or None,
                  A_eq=np.array(A_eq) if A_eq else None, b_eq=b_eq or None,
                  bounds=[(None if not math.isfinite(a) else a,
                           None if not math.isfinite(b) else b) for a, b in zip(lo, hi)],
                  method="highs", options={"presolve": False})  # its presolve called
    # one of these unbounded LPs (through a known point) infeasible
    if res.status == 3:
        return sense * math.inf
    assert res.status == 0, res.message
    return sense * -res.fun


@pytest.mark.parametrize("chain", [False, True])
@pytest.mark.parametrize("seed", range(25))
def test_every_bound_a_chain_closes_holds_the_feasible_set(seed, chain):
    from convexkern.math.conic.chains import close_chains

    G, rlo, rhi, lo0, hi0 = _system(seed, chain)
    lo, hi = lo0.copy(), hi0.copy()
    closed = close_chains(G, rlo, rhi, lo, hi)
    newly = (np.isfinite(lo) & ~np.isfinite(lo0)) | (np.isfinite(hi) & ~np.isfinite(hi0))
    assert closed == int(np.count_nonzero(np.isfinite(lo) & ~np.isfinite(lo0))
                         + np.count_nonzero(np.isfinite(hi) & ~np.isfinite(hi0)))
    # only open bounds are written; the finite ones are left as they were
    keep_lo, keep_hi = np.isfinite(lo0), np.isfinite(hi0)
    assert np.array_equal(lo[keep_lo], lo0[keep_lo]) and np.array_equal(hi[keep_hi],
                                                                       hi0[keep_hi])
    for j in np.flatnonzero(newly):
        top = _extent(G, rlo, rhi, lo0, hi0, int(j), 1.0)
        bottom = _extent(G, rlo, rhi, lo0, hi0, int(j), -1.0)
        # an unbounded side has no finite bound; a bounded one is held, to rounding
        assert hi[j] == math.inf if top == math.inf else hi[j] >= top - 1e-12 * (
            1 + abs(top)), (j, hi[j], top)
        assert lo[j] == -math.inf if bottom == -math.inf else lo[j] <= bottom + 1e-12 * (
            1 + abs(bottom)), (j, lo[j], bottom)
        # and it is a real bound, not a wild one: within rounding of the extent where the
        # column is a link of the chain (its own row fixes it up to its neighbour's range)
        if chain and math.isfinite(top) and np.isfinite(hi0).sum() == 0:
            assert hi[j] <= top + 1e-9 * (1 + abs(top))


def test_a_staircase_is_closed_in_one_call_and_holds_its_point():
    """``z_0 in [0, 1]``, ``z_{i+1} - 2 z_i = 1``: a chain of 300 links, each bound
    implied by the one before; one call closes them all, and the solution through
    ``z_0 = 0.5`` stays inside."""
    from convexkern.math.conic.chains import close_chains

    n = 300
    rows = [np.eye(n)[0]] + [np.eye(n)[i + 1] - 2 * np.eye(n)[i] for i in range(n - 1)]
    G = sp.csr_matrix(np.array(rows))
    rlo = np.concatenate([[0.0], np.ones(n - 1)])
    rhi = np.concatenate([[1.0], np.ones(n - 1)])
    lo, hi = np.full(n, -np.inf), np.full(n, np.inf)
    assert close_chains(G, rlo, rhi, lo, hi) == 2 * n
    z = np.empty(n)
    z[0] = 0.5
    for i in range(n - 1):
        z[i + 1] = 2 * z[i] + 1
    assert np.all(lo <= z) and np.all(z <= hi)


def test_a_row_with_two_open_terms_closes_nothing():
    from convexkern.math.conic.chains import close_chains

    G = sp.csr_matrix(np.array([[1.0, 1.0, 1.0]]))
    lo = np.array([0.0, -np.inf, -np.inf])
    hi = np.array([1.0, np.inf, np.inf])
    assert close_chains(G, np.array([-np.inf]), np.array([2.0]), lo, hi) == 0
    assert np.isinf(hi[1]) and np.isinf(hi[2])


@pytest.mark.parametrize("seed", range(20))
def test_a_batch_of_psd_blocks_gets_the_shift_each_block_gets_alone(seed):
    from convexkern.math.conic.psd import psd_shift, psd_shifts

    rng = np.random.default_rng(seed)
    k = int(rng.integers(1, 7))
    B = int(rng.integers(1, 12))
    Ms, margins = [], []
    for b in range(B):
        R = rng.normal(size=(k, k))
        kind = b % 5
        if kind == 0:  # well inside
            M = R @ R.T + np.eye(k)
        elif kind == 1:  # singular: on the boundary
            M = R[:, :1] @ R[:, :1].T
        elif kind == 2:  # indefinite
            M = 0.5 * (R + R.T)
        elif kind == 3:  # inside, a margin to keep
            M = R @ R.T + 2 * np.eye(k)
        else:  # a hair inside, the margin the test decides on
            M = R @ R.T + 1e-13 * np.eye(k)
        Ms.append(M)
        margins.append([0.0, 0.0, 0.0, 1.0, 1e-13][kind])
    if seed % 4 == 0:
        Ms[0] = Ms[0].copy()
        Ms[0][0, 0] = np.nan  # not finite: inf, as alone
    stack, margins = np.array(Ms), np.array(margins)
    got = psd_shifts(stack, margins)
    want = np.array([psd_shift(M, float(t)) for M, t in zip(Ms, margins)])
    np.testing.assert_array_equal(got, want)


def test_the_pair_test_never_hides_a_pair():
    """Random nonnegative rows, some over the same columns: ``_alike_rows`` keeps every
    row that shares its columns with another (the pair sums are looked for among those
    only)."""
    from convexkern.math.conic.boxes import _alike_rows

    rng = np.random.default_rng(7)
    seen_pairs = seen_none = 0
    for trial in range(200):
        m, n = int(rng.integers(2, 12)), int(rng.integers(2, 8))
        A = sp.random(m, n, density=0.4, random_state=rng, format="csr")
        if trial % 3 == 0 and m >= 2:  # a row repeated over the same columns
            A = sp.lil_matrix(A)
            A[m - 1] = A[0] * -1.5
            A = sp.csr_matrix(A)
        A.sort_indices()
        rows = np.flatnonzero(np.diff(A.indptr) >= 2)
        if rows.size < 2:
            continue
        patterns = [tuple(A.indices[A.indptr[i]: A.indptr[i + 1]]) for i in rows]
        twins = np.array([patterns.count(p) > 1 for p in patterns])
        alike = _alike_rows(A, rows)
        assert np.all(alike[twins]), patterns  # every row with a twin is kept
        seen_pairs += bool(twins.any())
        seen_none += not alike.any()
    assert seen_pairs > 10 and seen_none > 10  # both cases met


@pytest.mark.parametrize("seed", range(6))
def test_the_row_sums_by_sweeps_and_by_fsum_agree_to_the_bit(seed, monkeypatch):
    from convexkern.math.conic import data as D
    from tests.test_exact_rows import _check, _rows

    rng = np.random.default_rng(seed)
    M, v, const = _rows(rng, 120, 60, [1.0, 8.0, 60.0][seed % 3])
    rows = np.arange(M.shape[0])
    by_fsum = D._exact_rows(M, v, rows, const)
    monkeypatch.setattr(D, "_SHORT_ROWS", 1)  # every length range in bulk
    by_sweeps = D._exact_rows(M, v, rows, const)
    np.testing.assert_array_equal(by_fsum[0], by_sweeps[0])
    np.testing.assert_array_equal(by_fsum[1], by_sweeps[1])
    _check(M, v, const)


def _priced():
    """One column with a dual residual of -1e-9 and a box [0, h]: the box's price is
    1e-9 h, the weak-duality base 1 (``-b'y`` with ``b = 1e9``, ``y = -1e-9``)."""
    from convexkern.math.conic.data import ConicData

    A = sp.csr_matrix(np.array([[1.0]]))
    data = ConicData(c=np.array([0.0]), A=A, b=np.array([1e9]), zero=1)
    return data, np.array([0.0]), np.array([-1e-9])


@pytest.mark.parametrize("shrink, meets, stops", [
    (0.97, True, True),    # slow, already within tol, never enough: stop
    (0.97, False, False),  # slow but not within tol yet: the rounds go on
    (0.5, True, False),    # fast: the rounds may still make it enough
])
def test_slow_rounds_stop_only_within_tol(shrink, meets, stops):
    from convexkern.math.conic.weak import _box_enough

    data, x, y = _priced()

    def good(v):  # ENOUGH * tol: out of reach
        return v >= 1.0 + 1e-3

    good.at_tol = lambda v: meets  # type: ignore[attr-defined]
    done = _box_enough(data, x, y, good)
    h, said = 1e3, []
    for _ in range(4):
        said.append(done(np.array([0.0]), np.array([h])))
        h *= shrink
    assert said[0] is False  # one round says nothing of the rate
    assert any(said) == stops, said


def test_without_a_tol_rule_slow_rounds_never_stop():
    from convexkern.math.conic.weak import _box_enough

    data, x, y = _priced()
    done = _box_enough(data, x, y, lambda v: False)
    assert not any(done(np.array([0.0]), np.array([1e3 * 0.97 ** k])) for k in range(6))


def test_the_random_systems_close_bounds_at_all():
    """Not vacuous: the systems above close about 200 bounds between them."""
    from convexkern.math.conic.chains import close_chains

    total = 0
    for seed in range(25):
        for chain in (False, True):
            G, rlo, rhi, lo, hi = _system(seed, chain)
            total += close_chains(G, rlo, rhi, lo, hi)
    assert total > 100


@pytest.mark.parametrize("seed", range(8))
def test_the_pair_sums_are_those_found_among_all_rows(seed, monkeypatch):
    """``|v_k| <= t_k`` pairs (``t - v >= 0``, ``t + v >= 0``) among random rows, some
    over the same columns without cancelling: the pair sums found among the rows
    ``_alike_rows`` keeps are the ones found among all rows, entry for entry."""
    from convexkern.math.conic import boxes
    from convexkern.math.conic.data import ConicData

    rng = np.random.default_rng(seed)
    n, k = 12, 4
    rows = []
    for q in range(k):  # the epigraph pairs over (v_q, t_q)
        a = np.zeros(n)
        a[q], a[k + q] = 1.0, -1.0
        b_ = a.copy()
        b_[q] = -1.0
        rows += [a, b_]
    for _ in range(10):  # random rows, a few repeated with other values
        a = np.where(rng.random(n) < 0.3, rng.choice([-2.0, 0.5, 1.0], n), 0.0)
        rows.append(a)
        if rng.random() < 0.5:
            rows.append(a * 3.0)
    rows = [r for r in rows if np.count_nonzero(r) >= 1]
    order = rng.permutation(len(rows))
    A = sp.csr_matrix(np.array(rows)[order])
    data = ConicData(c=np.zeros(n), A=A, b=np.zeros(A.shape[0]), zero=0, nonneg=A.shape[0])
    got = boxes._pair_sums(data)
    monkeypatch.setattr(boxes, "_alike_rows", lambda A_, r: np.ones(r.size, dtype=bool))
    want = boxes._pair_sums(data)
    assert want is not None and got is not None  # the epigraph pairs are there
    np.testing.assert_array_equal(got[0].toarray(), want[0].toarray())
    np.testing.assert_array_equal(got[1], want[1])


@pytest.mark.parametrize("k", [1, 3, 7, 8])
@pytest.mark.parametrize("case", ["margin +1e308", "margin -1e308", "diagonal 1e308",
                                  "entries 1e200"])
def test_a_batch_near_overflow_is_tested_block_by_block(k, case):
    """A review's reproducer: a block whose shifted matrix overflows (or that LAPACK's
    batched eigenvalues cannot finish) made the whole batch raise; it now goes through
    ``psd_shift`` alone, with the others, and the shifts are those of the blocks alone."""
    from convexkern.math.conic.psd import psd_shift, psd_shifts

    Ms = np.stack([np.eye(k)] * 4)
    margins = np.zeros(4)
    if case == "margin +1e308":
        margins[3] = 1e308
    elif case == "margin -1e308":
        margins[3] = -1e308
    elif case == "diagonal 1e308":
        Ms[3] = np.eye(k) * 1e308
    else:
        Ms[3] = np.full((k, k), 1e200) + 1e300 * np.eye(k)
    with np.errstate(all="ignore"):
        want = [psd_shift(M, float(t)) for M, t in zip(Ms, margins)]
        got = psd_shifts(Ms, margins)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("enough, at_tol, relaxed", [
    (True, True, False), (False, True, False), (False, False, True)])
def test_a_factored_bracket_within_tol_is_not_relaxed(monkeypatch, enough, at_tol, relaxed):
    """``factored_bounds``: the written objective's bracket is kept as it is once it meets
    the caller's ``tol`` (``enough.at_tol``); only a bracket missing it pays for the
    relaxed and tightened forms, and then each side is the better of the two."""
    from convexkern.math.conic import factored
    from convexkern.math.conic.data import ConicBounds

    direct = ConicBounds(lower=-1.0, upper=1.0, lower_reason="", upper_reason="")
    other = ConicBounds(lower=-0.5, upper=2.0, lower_reason="", upper_reason="")
    calls: list[str] = []
    monkeypatch.setattr(factored, "_objective_form", lambda data, x, y: ("form",))

    def relax(data, x, y, bounds):
        calls.append("relaxed")
        return other
    monkeypatch.setattr(factored, "_relaxed_bounds", relax)

    def rule(lower, upper):
        return enough
    rule.at_tol = lambda lower, upper: at_tol
    out = factored.factored_bounds(None, None, None, lambda *a: direct, rule)
    assert calls == (["relaxed"] if relaxed else [])
    assert (out.lower, out.upper) == ((-0.5, 1.0) if relaxed else (-1.0, 1.0))


def _lp_form(seed: int):
    """``min c'x, A x = b, x >= 0`` as a conic form (zero rows, then ``-x + s = 0``), with
    a vertex optimum from HiGHS and a few rows of one unit entry."""
    from convexkern.math.conic import ConicData

    rng = np.random.default_rng(seed)
    m, n = 4, 9
    A = rng.integers(-3, 4, (m, n)).astype(float)
    x0 = rng.choice([0.0, 1.0, 2.5], n)
    b = A @ x0
    c = rng.uniform(0.5, 2.0, n)
    x = linprog(c, A_eq=A, b_eq=b, bounds=[(0, None)] * n, method="highs").x
    form = ConicData(c=c, A=sp.vstack([sp.csr_matrix(A), -sp.eye(n)], format="csr"),
                     b=np.concatenate([b, np.zeros(n)]), zero=m, nonneg=n)
    return form, x + rng.normal(scale=1e-9, size=n)


@pytest.mark.parametrize("seed", range(4))
def test_a_kept_slack_is_the_slack_computed_afresh_and_handed_out_as_a_copy(seed):
    from dataclasses import replace

    from convexkern.math.conic import fix
    from convexkern.math.conic.data import KEPT_POINTS

    form, x = _lp_form(seed)
    points = [x + k * 1e-7 for k in range(KEPT_POINTS + 2)]
    for p in points + points[::-1]:
        s, es = fix.slack_bound(form, p)
        fresh = replace(form)  # the same form with an empty cache
        s0, es0 = fix.slack_bound(fresh, p)
        np.testing.assert_array_equal(s, s0)
        np.testing.assert_array_equal(es, es0)
        s[:] = np.nan  # a caller writing into its arrays changes nothing kept
        es[:] = -1.0
    s, es = fix.slack_bound(form, points[-1])
    assert np.all(np.isfinite(s)) and np.all(es >= 0)


def test_a_kept_active_correction_is_a_copy_and_not_kept_under_a_deadline(monkeypatch):
    import time

    from convexkern.math.budget import deadline
    from convexkern.math.conic import fix

    form, x = _lp_form(1)
    s, es = fix.slack_bound(form, x)
    first = fix.active_fix(form, x, s, es)
    calls = []
    real = fix._active_fix
    monkeypatch.setattr(fix, "_active_fix", lambda *a: calls.append(1) or real(*a))
    again = fix.active_fix(form, x, s, es)
    assert calls == []  # kept
    for a, b in zip(first[:4], again[:4]):
        np.testing.assert_array_equal(a, b)
        a[...] = -7  # the caller's copy only
    third = fix.active_fix(form, x, s, es)
    for a, b in zip(again[:4], third[:4]):
        np.testing.assert_array_equal(a, b)
    assert first[4] == third[4]
    with deadline(time.perf_counter() + 60.0):  # a deadline's budgets are not shared
        fix.active_fix(form, x, s, es)
    assert calls == [1]
    # rows found redundant since: a new correction
    form.cache["independent"] = (np.arange(form.zero - 1), "")
    fix.active_fix(form, x, s, es)
    assert calls == [1, 1]


def _free_lp_form(seed: int):
    """``min c'x, A x = b, G x <= h`` over free ``x``, every row of ``G`` with two entries
    or more (no bound rows to clip at): a conic form and HiGHS's vertex and multipliers."""
    from convexkern.math.conic import ConicData

    rng = np.random.default_rng(seed)
    n = 6
    G = rng.integers(-3, 4, (14, n)).astype(float)
    G = G[np.count_nonzero(G, axis=1) >= 2]
    xf = rng.uniform(-1, 1, n) / 3.0
    h = G @ xf + rng.choice([0.0, 0.0, 1.0], G.shape[0])
    A = rng.integers(-3, 4, (2, n)).astype(float)
    b = A @ xf
    c = rng.uniform(-1, 1, n)
    r = linprog(c, A_ub=G, b_ub=h, A_eq=A, b_eq=b, bounds=[(None, None)] * n,
                method="highs")
    form = ConicData(c=c, A=sp.vstack([sp.csr_matrix(A), sp.csr_matrix(G)], format="csr"),
                     b=np.concatenate([b, h]), zero=2, nonneg=G.shape[0])
    return form, r.x, np.concatenate([-r.eqlin.marginals, -r.ineqlin.marginals]), r.fun


@pytest.mark.parametrize("seed", [107, 3, 11])
def test_a_buffer_written_after_the_call_does_not_change_what_is_kept(seed):
    """A review's reproducer: the active correction of a point it leaves unmoved handed
    back the caller's own array, and the memo kept it; a caller that reused its buffer and
    certified the first point again got the overwritten point as if it met every active
    row exactly (an upper bound below the optimum).  Checked on the correction and on
    the whole bracket, against HiGHS's optimum."""
    from dataclasses import replace

    from convexkern.math.conic import conic_bounds, fix

    form, x, y, opt = _free_lp_form(seed)
    s, es = fix.slack_bound(form, x)
    buf = x.copy()
    fix.active_fix(form, buf, s, es)
    buf[:] = -1.0
    fresh = fix.active_fix(replace(form), x, s, es)  # an empty cache
    for a, b in zip(fix.active_fix(form, x, s, es)[:4], fresh[:4]):
        np.testing.assert_array_equal(a, b)
    other = replace(form)
    buf = x.copy()
    first = conic_bounds(other, buf, y)
    buf -= 1e-3 * form.c  # another iterate in the same buffer
    again = conic_bounds(other, x, y)
    slack = 1e-9 * max(1.0, abs(opt))  # HiGHS's own accuracy
    for br in (first, again):
        assert br.lower <= opt + slack and opt - slack <= br.upper


def test_the_upper_bounds_memo_hands_out_its_results_unchanged(monkeypatch):
    from convexkern.math.conic import bounds

    form, x = _lp_form(2)
    box = lambda: (np.full(form.b.size, -np.inf), np.full(form.b.size, np.inf))  # noqa: E731
    memo: dict = {}
    want = bounds._upper(form, x, box)
    got = bounds._upper(form, x, box, None, memo)
    assert got[:2] == want[:2] and got[2] == want[2]
    got[2]["written"] = 1.0  # a caller's update of the residuals stays its own
    calls = []
    real = bounds._upper_at
    monkeypatch.setattr(bounds, "_upper_at", lambda *a: calls.append(1) or real(*a))
    again = bounds._upper(form, x, box, None, memo)
    assert calls == [] and again[:2] == want[:2] and again[2] == want[2]


@pytest.mark.parametrize("ratio", [0.9, 0.93, 0.96, 0.99])
def test_a_tol_the_full_bracket_meets_is_met_with_the_early_stops(ratio, monkeypatch):
    """The early stops a ``tol`` allows (a bracket within 0.1 tol ends the work; the step
    search toward an interior point stops at a near bound) never leave a bracket short of
    a ``tol`` the bracket computed without them meets.  A review's reproducer: one ECOS
    point of a logistic regression; a step search stopped against the point's own value
    (no lower bound yet) left 1.02 tol where the full search gives 0.93 tol."""
    rng = np.random.default_rng(1)
    X, y = rng.standard_normal((40, 6)), np.sign(rng.standard_normal(40))
    w = cp.Variable(6)
    problem = cp.Problem(cp.Minimize(cp.sum(cp.logistic(-cp.multiply(y, X @ w))) / 40
                                     + 0.1 * cp.sum_squares(w)))
    calls, pair_bounds = [], generic._pair_bounds

    def spy(cd, x, yy, signs, tol=None, interior=True, written=None):
        calls.append((cd, x, yy, signs, interior, written))
        return pair_bounds(cd, x, yy, signs, tol, interior, written)

    with monkeypatch.context() as m:
        m.setattr(generic, "_pair_bounds", spy)
        ck.solve(ck.from_cvxpy(problem), "ecos")
    cd, x, yy, signs, interior, written = calls[0]

    def gap(b):
        scale = generic._gap_scale(generic._term_scale(cd, x),
                                   generic._near_zero_scale(cd, x, yy, written),
                                   b.lower, b.upper)
        return relative_gap(b.lower, b.upper, scale)

    full = gap(pair_bounds(cd, x, yy, signs, None, interior, written))
    assert 0 < full < 1e-6  # a bracket to test with
    tol = full / ratio
    assert gap(pair_bounds(cd, x, yy, signs, tol, interior, written)) <= tol
