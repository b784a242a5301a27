"""Interval propagation of the certificate's boxes (``convexkern.math.conic.boxes``).

The vectorised round :func:`_propagate` is checked against a plain per-entry loop of the
same arithmetic (sums in the same order, so the bounds agree to the bit), and for what
makes it a proof: every point of the feasible set stays in the box it returns.  The
one-row version used for the Lagrangian cut must agree with it exactly.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp

from convexkern.math.rounding import UNIT_ROUNDOFF, gamma
from tests.huber_models import huber_problem

TINY = 1e-300


def _reference(G: sp.csr_matrix, rlo, rhi, lo, hi):
    """One round for ``rlo <= G z <= rhi`` on ``[lo, hi]``, entry by entry in Python."""
    lo, hi = lo.copy(), hi.copy()
    new_lo, new_hi = lo.copy(), hi.copy()
    for i in range(G.shape[0]):
        a, b = G.indptr[i], G.indptr[i + 1]
        cols, vals = G.indices[a:b], G.data[a:b]

        def term(g, j, low):
            if g > 0:
                return g * (lo[j] if low else hi[j])
            if g < 0:
                return g * (hi[j] if low else lo[j])
            return 0.0

        tmin = [term(g, j, True) for g, j in zip(vals, cols)]
        tmax = [term(g, j, False) for g, j in zip(vals, cols)]
        fmin = [t if math.isfinite(t) else 0.0 for t in tmin]
        fmax = [t if math.isfinite(t) else 0.0 for t in tmax]
        smin = smax = mag = 0.0
        for u, v in zip(fmin, fmax):
            smin += u
            smax += v
            mag += abs(u) + abs(v)
        nmin = sum(not math.isfinite(t) for t in tmin)
        nmax = sum(not math.isfinite(t) for t in tmax)
        side = (mag + (abs(rlo[i]) if math.isfinite(rlo[i]) else 0.0)
                + (abs(rhi[i]) if math.isfinite(rhi[i]) else 0.0))
        err = float(gamma(b - a + 3)) * side + TINY
        for k, (g, j) in enumerate(zip(vals, cols)):
            if g == 0:
                continue
            rest_min = smin - fmin[k] if nmin - (not math.isfinite(tmin[k])) == 0 else -math.inf
            rest_max = smax - fmax[k] if nmax - (not math.isfinite(tmax[k])) == 0 else math.inf
            with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
                up = float((np.float64(rhi[i]) - rest_min + err) / g)
                dn = float((np.float64(rlo[i]) - rest_max - err) / g)
            h, lw = (up, dn) if g > 0 else (dn, up)
            h = math.inf if math.isnan(h) else h
            lw = -math.inf if math.isnan(lw) else lw
            h = h + abs(h) * 4 * UNIT_ROUNDOFF + TINY
            lw = lw - abs(lw) * 4 * UNIT_ROUNDOFF - TINY
            new_hi[j] = min(new_hi[j], h)
            new_lo[j] = max(new_lo[j], lw)
    return new_lo, new_hi


def _instance(seed: int):
    """Rows through a known point ``z0`` (some ranges, some one-sided), a box around it
    with infinite sides, negative entries and stored zeros."""
    rng = np.random.default_rng(seed)
    m, n = int(rng.integers(2, 9)), int(rng.integers(2, 12))
    G = sp.random(m, n, density=0.5, random_state=rng, format="csr")
    G.data = rng.choice([-3.0, -1.0, -0.1, 0.0, 0.5, 1.0, 7.0], G.nnz) * rng.uniform(
        0.5, 2.0, G.nnz)
    z0 = rng.normal(size=n)
    act = G @ z0
    rlo = act - rng.choice([0.0, 0.5, np.inf], m)
    rhi = act + rng.choice([0.0, 0.3, np.inf], m)
    lo = z0 - rng.choice([1.0, 10.0, np.inf], n)
    hi = z0 + rng.choice([2.0, np.inf], n)
    return G, rlo, rhi, lo, hi, z0


@pytest.mark.parametrize("open_", [False, True])
@pytest.mark.parametrize("seed", range(60))
def test_a_round_is_the_per_entry_rule_to_the_bit(seed, open_):
    """Also with most bounds infinite (``open_``), where the rows that imply nothing are
    left out once counted."""
    from convexkern.math.conic.boxes import _propagate

    G, rlo, rhi, lo, hi, _ = (_open_instance if open_ else _instance)(seed)
    want_lo, want_hi = _reference(G, rlo, rhi, lo, hi)
    got_lo, got_hi = lo.copy(), hi.copy()
    _propagate(G, rlo, rhi, got_lo, got_hi)
    assert np.array_equal(got_lo, want_lo) and np.array_equal(got_hi, want_hi)


@pytest.mark.parametrize("seed", range(60))
def test_no_feasible_point_leaves_the_box(seed):
    """Rounds until nothing moves; points of the feasible set (the known one, and others
    along the rows' null space that the first box holds) stay inside."""
    from convexkern.math.conic.boxes import _Layout, _propagate

    G, rlo, rhi, lo0, hi0, z0 = _instance(seed)
    lo, hi = lo0.copy(), hi0.copy()
    layout = _Layout(G)
    for _ in range(30):
        _propagate(G, rlo, rhi, lo, hi, layout)
    assert np.all(lo <= z0) and np.all(z0 <= hi)
    dense = G.toarray()
    null = np.linalg.svd(dense)[2][np.linalg.matrix_rank(dense):]
    rng = np.random.default_rng(1000 + seed)
    for _ in range(50):
        if null.shape[0] == 0:
            break
        z = z0 + null.T @ rng.normal(scale=0.3, size=null.shape[0])  # G z = G z0
        if np.all(lo0 <= z) and np.all(z <= hi0):
            assert np.all(lo <= z) and np.all(z <= hi)


def test_the_layout_follows_changed_values():
    """The signs the layout keeps are those of the values ``G`` holds now: the same
    pattern with its values' signs flipped bounds the other side."""
    from convexkern.math.conic.boxes import _Layout, _propagate

    G = sp.csr_matrix(np.array([[1.0, 1.0]]))
    layout = _Layout(G)
    lo, hi = np.array([0.0, 0.0]), np.array([np.inf, np.inf])
    _propagate(G, np.array([-np.inf]), np.array([1.0]), lo, hi, layout)
    assert hi[0] == pytest.approx(1.0) and hi[1] == pytest.approx(1.0)
    G.data[:] = [1.0, -1.0]  # x0 - x1 <= 1 with x >= 0: x0 is open again, x1 unbounded
    lo2, hi2 = np.array([0.0, 0.0]), np.array([np.inf, np.inf])
    _propagate(G, np.array([-np.inf]), np.array([1.0]), lo2, hi2, layout)
    assert np.all(np.isinf(hi2))


@pytest.mark.parametrize("seed", range(40))
def test_the_one_row_round_is_the_general_one(seed):
    from convexkern.math.conic.boxes import _propagate, _propagate_below

    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 10))
    cols = np.sort(rng.choice(20, n, replace=False))
    g = rng.choice([-2.0, -0.5, 0.0, 0.25, 1.0, 3.0], n)
    lo = np.where(rng.random(20) < 0.3, -np.inf, rng.normal(size=20) - 1.0)
    hi = np.where(rng.random(20) < 0.3, np.inf, lo + rng.uniform(0.1, 3.0, 20))
    hi = np.where(np.isfinite(hi), hi, np.inf)
    bound = float(rng.normal() * 5)
    row = sp.csr_matrix((g, cols, np.array([0, n])), shape=(1, 20))
    want_lo, want_hi = lo.copy(), hi.copy()
    _propagate(row, np.array([-np.inf]), np.array([bound]), want_lo, want_hi)
    got_lo, got_hi = lo.copy(), hi.copy()
    _propagate_below(cols, g, bound, float(gamma(n + 3)), got_lo, got_hi)
    assert np.array_equal(got_lo, want_lo) and np.array_equal(got_hi, want_hi)


def _open_instance(seed: int):
    """:func:`_instance` with most bounds infinite: most rows then have two infinite
    terms on each side, and the round leaves them out once counted."""
    G, rlo, rhi, lo, hi, z0 = _instance(seed)
    rng = np.random.default_rng(500 + seed)
    lo = np.where(rng.random(lo.size) < 0.8, -np.inf, lo)
    hi = np.where(rng.random(hi.size) < 0.8, np.inf, hi)
    return G, rlo, rhi, lo, hi, z0


@pytest.mark.parametrize("seed", range(60))
def test_a_selection_of_rows_is_the_rule_on_those_rows_to_the_bit(seed):
    """``rows_on`` holding at most half of the entries: exactly the per-entry rule on
    those rows (the others imply nothing); holding more, the whole round (tighter)."""
    from convexkern.math.conic.boxes import _propagate

    G, rlo, rhi, lo, hi, _ = (_open_instance if seed % 2 else _instance)(seed)
    on = np.random.default_rng(900 + seed).random(G.shape[0]) < 0.4
    got_lo, got_hi = lo.copy(), hi.copy()
    _propagate(G, rlo, rhi, got_lo, got_hi, rows_on=on)
    length = np.diff(G.indptr)
    if length[on].sum() <= G.nnz // 2:
        sub = sp.csr_matrix(G[np.flatnonzero(on)])
        want_lo, want_hi = _reference(sub, rlo[on], rhi[on], lo, hi)
    else:
        want_lo, want_hi = _reference(G, rlo, rhi, lo, hi)
    assert np.array_equal(got_lo, want_lo) and np.array_equal(got_hi, want_hi)


@pytest.mark.parametrize("seed", range(40))
def test_rounds_on_the_moved_rows_keep_every_feasible_point(seed, monkeypatch):
    """:func:`_tighten` propagating only the rows whose columns moved (forced on these
    small instances): the known feasible point stays in the box, which is never looser
    than the first round's."""
    from convexkern.math.conic import boxes

    monkeypatch.setattr(boxes, "_LARGE_NNZ", 0)
    G, rlo, rhi, lo0, hi0, z0 = (_open_instance if seed % 2 else _instance)(seed)
    one_lo, one_hi = lo0.copy(), hi0.copy()
    boxes._propagate(G, rlo, rhi, one_lo, one_hi)
    lo, hi = lo0.copy(), hi0.copy()
    boxes._tighten(G, rlo, rhi, lo, hi, lambda a, b: None, rounds=20)
    assert np.all(lo <= z0) and np.all(z0 <= hi)
    assert np.all(lo >= one_lo) and np.all(hi <= one_hi)


@pytest.mark.parametrize("length, carried", [(8, True), (400, False)])
def test_a_chain_is_closed_in_one_pass_or_followed_while_the_rounds_can_carry_it(
        length, carried, monkeypatch):
    """``z_0 = 1``, ``z_{i+1} = z_i``: a round closes one more bound.  On a small matrix
    the chain is closed at once after the first round's trickle
    (:func:`~convexkern.math.conic.chains.close_chains`), in two rounds whatever its
    length; on a large one (the size forced down here) a short chain is carried to its
    end by the rounds and one that twenty rounds cannot carry through half of its open
    bounds is left after a few.  The point of ones stays inside either way."""
    from convexkern.math.conic import boxes

    n = length
    rows = [[1.0] + [0.0] * (n - 1)] + [
        [0.0] * i + [-1.0, 1.0] + [0.0] * (n - i - 2) for i in range(n - 1)]
    G = sp.csr_matrix(np.array(rows))
    rlo = rhi = np.array([1.0] + [0.0] * (n - 1))
    lo, hi = np.full(n, -np.inf), np.full(n, np.inf)
    small_lo, small_hi = lo.copy(), hi.copy()
    rounds = []
    real = boxes._propagate
    monkeypatch.setattr(boxes, "_propagate", lambda *a, **k: (rounds.append(1), real(*a, **k)))
    boxes._tighten(G, rlo, rhi, small_lo, small_hi, lambda a, b: None, rounds=20)
    assert np.all(np.isfinite(small_hi)) and np.all(np.isfinite(small_lo))
    assert np.all(small_lo <= 1.0) and np.all(small_hi >= 1.0)
    # z = 1 to rounding: each link widens by its own rounding bound (a few ulps)
    assert np.all(small_hi - small_lo <= 1e-14 * np.arange(1, n + 1))
    assert len(rounds) == 2  # the first round's one bound, then the chain, then no move
    monkeypatch.setattr(boxes, "_LARGE_NNZ", 0)
    boxes._tighten(G, rlo, rhi, lo, hi, lambda a, b: None, rounds=20)
    assert np.all(lo <= 1.0) and np.all(hi >= 1.0)
    closed = int(np.count_nonzero(np.isfinite(hi)))
    if carried:
        assert closed == n
    else:
        assert 2 <= closed <= 5


def _epigraph_form():
    """``t - v >= 0`` and ``t + v >= 0`` (cvxpy's ``|v| <= t``) as nonnegative rows of a
    conic form over ``(v, t)``: ``A x + s = 0``, ``s >= 0``."""
    from convexkern.math.conic.data import ConicData

    A = sp.csr_matrix(np.array([[1.0, -1.0], [-1.0, -1.0]]))
    return ConicData(c=np.array([0.0, 1.0]), A=A, b=np.zeros(2), zero=0, nonneg=2)


def test_a_pair_sum_is_the_sum_of_its_two_rows_over_x_and_s():
    """On a non-square form with the pair among other rows, the derived row is exactly
    row i plus row j of ``[A I]`` (their slacks at ``n + i`` and ``n + j``)."""
    from convexkern.math.conic.boxes import _pair_sums, _rows_with_slacks
    from convexkern.math.conic.data import ConicData

    A = np.array([[1.0, 2.0, 0.0, 0.0, 1.0],     # an equality row
                  [0.0, 3.0, 1.0, 0.0, 0.0],     # a nonnegative row, no partner
                  [0.0, 0.0, 1.0, -1.0, 0.0],    # t - v >= 0 over columns 2, 3
                  [0.0, 0.0, -1.0, -1.0, 0.0]])  # -t - v ... cancels column 2
    b = np.array([1.0, 2.0, 0.5, 0.25])
    data = ConicData(c=np.zeros(5), A=sp.csr_matrix(A), b=b, zero=1, nonneg=3)
    G, rhs = _pair_sums(data)
    full = _rows_with_slacks(data, False).toarray()
    np.testing.assert_array_equal(G.toarray(), (full[2] + full[3])[None, :])
    assert rhs.tolist() == [0.75]


def test_the_sum_of_an_epigraph_pair_bounds_its_epigraph_variable():
    """Neither row of ``|v| <= t`` bounds ``t`` from below; their sum ``-2t + s_0 + s_1 =
    0`` (over ``(x, s)``) does, and the primal box with the objective cut ``t <= 5`` then
    bounds ``v`` and ``t`` both."""
    from convexkern.math.conic.boxes import _pair_sums, _primal_box

    data = _epigraph_form()
    G, rhs = _pair_sums(data)
    assert G.shape == (1, 4) and rhs.tolist() == [0.0]
    np.testing.assert_array_equal(G.toarray(), [[0.0, -2.0, 1.0, 1.0]])
    lo, hi = _primal_box(data, 5.0)
    assert lo[1] >= -1e-12 and hi[1] <= 5.0 * (1 + 1e-12)
    assert -5.0 * (1 + 1e-12) <= lo[0] and hi[0] <= 5.0 * (1 + 1e-12)


@pytest.mark.parametrize("first, second, derived", [(0.25, 0.5, True), (0.1, 0.2, False)])
def test_a_pair_is_added_only_when_its_sum_is_exact(first, second, derived):
    """Rows ``first v - t >= 0`` and ``second v + t >= 0`` cancel ``t``; ``0.25 + 0.5``
    is exact in floating point, ``0.1 + 0.2`` is not: that derived row would not be the
    sum of the two, so none is added."""
    from convexkern.math.conic.boxes import _pair_sums
    from convexkern.math.conic.data import ConicData

    A = sp.csr_matrix(np.array([[first, -1.0], [second, 1.0]]))
    data = ConicData(c=np.array([0.0, 1.0]), A=A, b=np.zeros(2), zero=0, nonneg=2)
    out = _pair_sums(data)
    assert (out is not None) == derived
    if derived:
        np.testing.assert_array_equal(out[0].toarray(), [[0.75, 0.0, 1.0, 1.0]])


def test_a_huber_regression_is_certified_through_the_epigraph_pairs():
    """Huber regression 1000 x 100: cvxpy's form has 2000 rows ``|v_i| <= t_i``; without
    their sums the primal box left every column open and the dual correction 2100 rows,
    more than it takes (no lower bound on any solver).  Now Clarabel and SCS certify
    it, their brackets overlapping."""

    import convexkern as ck
    from convexkern.report import Status

    build = huber_problem(1000, 100, seed=2)

    reps = [ck.solve(ck.from_cvxpy(build(), "huber"), s) for s in ("clarabel", "scs")]
    for rep in reps:
        assert rep.status is Status.OPTIMAL, rep.message
    (lo1, up1), (lo2, up2) = (sorted((p.dual_value, p.primal_value)) for p in reps)
    assert lo1 <= up2 and lo2 <= up1


def test_columns_the_pairs_box_are_still_corrected_when_their_residual_costs():
    """A lasso (300 x 100) on HiGHS: the pairs box ``norm1``'s epigraph columns, so they
    are no longer free; HiGHS's dual residual (1e-8) on those boxes cost 2.3e-6 of the
    bound (over tol 1e-6) until the costly columns were corrected exactly, in as many
    rounds as the correction's reach needs."""
    import cvxpy as cp

    import convexkern as ck
    from convexkern.report import Status

    r = np.random.default_rng(1)
    A = r.standard_normal((300, 100))
    b = r.standard_normal(300)
    x = cp.Variable(100)
    prob = cp.Problem(cp.Minimize(cp.sum_squares(A @ x - b) / 300 + 0.1 * cp.norm1(x)))
    rep = ck.solve(ck.from_cvxpy(prob, "lasso"), "highs")
    assert rep.status is Status.OPTIMAL, rep.message


@pytest.mark.parametrize("p", [15, 16, 20, 60])
def test_the_pairs_of_a_wide_epigraph_are_formed(p):
    """A least absolute deviation fit with ``p`` features writes ``|x_i'b - y_i| <= t_i``
    as two rows of ``p + 1`` entries.  Rows of more than 16 entries were left out of the
    pairs, so from ``p = 16`` on no ``t_i`` had a box (a fit of 5000 x 20 then had no
    lower bound on any solver: "5020 unbounded variables are too many to correct")."""
    from convexkern.math.conic.boxes import _pair_sums
    from convexkern.math.conic.data import ConicData

    rng = np.random.default_rng(p)
    k = 30
    X = rng.standard_normal((k, p))
    y = rng.standard_normal(k)
    # columns (b, t); rows t_i - X_i b >= -y_i and t_i + X_i b >= y_i as A x + s = rhs
    eye = np.eye(k)
    A = np.vstack([np.hstack([X, -eye]), np.hstack([-X, -eye])])
    data = ConicData(A=sp.csr_matrix(A), b=np.concatenate([y, -y]), c=np.r_[np.zeros(p),
                     np.ones(k)], nonneg=2 * k)
    out = _pair_sums(data)
    assert out is not None
    G, rhs = out
    assert G.shape[0] == k
    # each derived row is -2 t_i (the x part; its two slacks +1 +1) with rhs 0
    Gx = G.toarray()[:, : p + k]
    assert np.all(Gx[:, :p] == 0.0)
    rows, cols = np.nonzero(Gx[:, p:])
    assert sorted(rows.tolist()) == list(range(k)) and sorted(cols.tolist()) == list(range(k))
    assert np.all(Gx[:, p:][rows, cols] == -2.0)
    assert np.all(rhs == 0.0)


@pytest.mark.slow
def test_a_least_absolute_deviation_fit_with_twenty_features_is_certified():
    """``norm1(X b - y)`` with 5000 points and 20 features (found by a review: certified
    with 15 features, ``[-inf, ...]`` with 16 or more); Clarabel, ECOS and QOCO now
    certify it, their brackets holding a tight independent solve.  On QOCO the residual
    of 1515 epigraph columns is worth correcting: their rows ``u_i + v_i = r`` share no
    column with another short row, so each takes one and freezes the other
    (``triangular.forward_peel``), leaving the 20 rows of ``x``, and the polish of the
    1535 x 10,000 system runs by LSQR: 17.3 s of certificate before, 0.4 s now."""
    import cvxpy as cp

    import convexkern as ck
    from convexkern.report import Status

    r = np.random.default_rng(4)
    X = r.standard_normal((5000, 20))
    y = X @ r.standard_normal(20) + r.standard_t(2, 5000)

    def build():
        b = cp.Variable(20)
        return cp.Problem(cp.Minimize(cp.norm1(X @ b - y)))

    ref = build()
    ref.solve(solver="CLARABEL", tol_gap_abs=1e-12, tol_gap_rel=1e-12, tol_feas=1e-12)
    slack = 1e-9 * abs(ref.value)
    for solver in ("clarabel", "ecos", "qoco"):
        rep = ck.solve(ck.from_cvxpy(build(), "lad"), solver)
        assert rep.status is Status.OPTIMAL, (solver, rep.message)
        assert rep.dual_value - slack <= ref.value <= rep.primal_value + slack


def _box_lp():
    """``min x1 + x2`` over ``x >= 0``, ``x1 + x2 <= 10`` in cvxpy's conic form."""
    from convexkern.math.conic.data import ConicData

    A = sp.csr_matrix(np.array([[-1.0, 0.0], [0.0, -1.0], [1.0, 1.0]]))
    return ConicData(c=np.ones(2), A=A, b=np.array([0.0, 0.0, 10.0]), nonneg=3)


def test_a_primal_box_starts_from_one_held_for_a_higher_level_only():
    """The box of the objective level ``upper`` holds every feasible point with
    ``c'x <= upper``; one computed for a higher level (a larger set) is a valid start
    and is reused, one for a lower level (a smaller set) is not."""
    from convexkern.math.conic.boxes import _primal_box

    data = _box_lp()
    lo, hi = _primal_box(data, 1.0)
    assert np.all(hi <= 1.0 + 1e-12) and data.cache["primal_box"][0] == 1.0
    # a higher level: (5, 5), objective 10, is feasible and must stay in the box
    lo, hi = _primal_box(data, 10.0)
    assert np.all(lo <= 5.0) and np.all(hi >= 5.0)
    assert data.cache["primal_box"][0] == 1.0  # the tighter one is kept
    # a lower level starts from the kept box: still every point with x1 + x2 <= 0.5
    data2 = _box_lp()
    _primal_box(data2, 10.0)
    lo, hi = _primal_box(data2, 0.5)
    assert data2.cache["primal_box"][0] == 0.5
    for x in ([0.0, 0.0], [0.5, 0.0], [0.25, 0.25], [0.0, 0.5]):
        assert np.all(lo <= x) and np.all(np.array(x) <= hi)
    assert np.all(hi <= 0.5 + 1e-12)
