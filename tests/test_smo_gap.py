"""SMO stopping on the duality gap (``gap_tol``), the one certificate of the ``smo`` solver,
the one-pass kernel check and the explicit no-check path (SMO row).

What is checked, and against what:

* the bracket ``[D(alpha), P(alpha)]`` that ``ck.solve(f, "smo")`` certifies overlaps the
  bracket Clarabel certifies at a tight tolerance (two proofs of where the optimum lies:
  disjoint brackets would mean one of them is false), on real data, scalar and
  per-example ``C``, with shrinking revised often and without shrinking;
* the gap SMO estimates from its gradient agrees with the certificate recomputed from
  ``K`` (``dual_bounds``) to round-off, and an estimate that lies can never turn into a
  reported ``optimal`` (the certificate decides);
* shrinking and no shrinking give the same optimum, to the certified gaps;
* ``check_kernel`` (one blocked pass) refuses NaN, inf and asymmetry wherever they sit
  relative to the tiles, naming the argument; ``svm.dual`` and ``smo`` check by default,
  skip only with an explicit ``check_input=False``, and ``ck.solve`` never checks again.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import convexkern as ck
from convexkern import _validation
from convexkern.errors import InvalidInputError
from convexkern.formulations import svm
from convexkern.math import smo as smo_module
from convexkern.math.smo import smo
from convexkern.math.svm import dual_bounds


def _overlap(a_lo, a_hi, b_lo, b_hi):
    """Both brackets are proofs that contain the optimum, so they must intersect."""
    assert a_lo <= b_hi and b_lo <= a_hi, (a_lo, a_hi, b_lo, b_hi)


def _clarabel(K, y, C):
    r = ck.solve(svm.dual(K, y, C=C), "clarabel", tol=1e-9)
    assert r.status is ck.Status.OPTIMAL
    return r


@pytest.fixture
def shrink_often(monkeypatch):
    """Revise the active set every 25 iterations, applying any reduction at all."""
    monkeypatch.setattr(smo_module, "_SHRINK_EVERY", 25)
    monkeypatch.setattr(smo_module, "_SHRINK_MIN_GAIN", 1.0)


# ----------------------------------------------------------------------- the certificate
@pytest.mark.parametrize("data,C", [("usps35_small", 1.0), ("usps35_small", 100.0),
                                    ("pima_small", 0.5), ("pima_small", 10.0)])
@pytest.mark.parametrize("shrinking", [True, False])
def test_smo_bracket_holds_clarabels_optimum(request, shrink_often, data, C, shrinking):
    _, y, K = request.getfixturevalue(data)
    ref = _clarabel(K, y, C)
    f = svm.dual(K, y, C=C)
    for tol in (1e-4, 1e-6, 1e-9):
        r = ck.solve(f, "smo", tol=tol, shrinking=shrinking)
        assert r.status is ck.Status.OPTIMAL and r.rel_gap <= tol
        _overlap(r.primal_value, r.dual_value, ref.primal_value, ref.dual_value)
        # the report's numbers are the certificate's, recomputed from K (x["alpha"] is the
        # projected point; projecting it again moves it by round-off)
        b = dual_bounds(K, y, r.x["alpha"], C)
        assert (r.primal_value, r.dual_value) == pytest.approx((b.lower, b.upper), rel=1e-13)


def test_per_example_bounds_with_zeros_and_psd_slack(pima_small):
    """Weighted C with some C_i = 0 (left out of the gap estimate) on a kernel PSD only
    to a jitter (the estimate carries the PSD slack, as the certificate does)."""
    _, y, K = pima_small
    rng = np.random.default_rng(3)
    Cv = rng.uniform(0.2, 3.0, y.size)
    Cv[rng.choice(y.size, 10, replace=False)] = 0.0
    # a kernel with one slightly negative eigenvalue: check_psd proves psd_eps > 0
    w, U = np.linalg.eigh(K)
    w[0] = -1e-10 * w[-1]
    Kn = (U * w) @ U.T
    Kn = 0.5 * (Kn + Kn.T)
    f = svm.dual(Kn, y, C=Cv)
    assert f.data["psd_eps"] > 0
    r = ck.solve(f, "smo", tol=1e-7)
    assert r.status is ck.Status.OPTIMAL and r.rel_gap <= 1e-7
    assert "psd_slack" in r.residuals
    ref = ck.solve(svm.dual(Kn, y, C=Cv), "clarabel", tol=1e-9)
    _overlap(r.primal_value, r.dual_value, ref.primal_value, ref.dual_value)


def test_hard_margin_stops_on_the_gap():
    X = np.array([[2.0, 2.0], [1.5, 3.0], [3.0, 1.0], [-1.0, -2.0], [-2.0, -1.0], [0.0, -3.0]])
    y = np.array([1.0, 1.0, 1.0, -1.0, -1.0, -1.0])
    K = X @ X.T
    r = ck.solve(svm.dual(K, y, C=None), "smo", tol=1e-8)
    ref = _clarabel(K, y, None)
    assert r.status is ck.Status.OPTIMAL and r.rel_gap <= 1e-8
    _overlap(r.primal_value, r.dual_value, ref.primal_value, ref.dual_value)


# ----------------------------------------------------------------------- the gap rule
@pytest.mark.parametrize("face", [True, False])
@pytest.mark.parametrize("C", [1.0, 50.0])
def test_gap_estimate_matches_the_certificate(usps35_small, C, face, monkeypatch):
    """With the face step (math/smo_face.py) and without it (its allowance set to 0: the
    eps rule alone then closes the gap)."""
    _, y, K = usps35_small
    if not face:
        monkeypatch.setattr(smo_module, "_FACE_COST", 0.0)
    res = smo(K, y, C, gap_tol=1e-7)
    assert res.status == "optimal" and res.gap_checks >= 1
    lo, up = res.gap_estimate
    assert (up - lo) / up <= 1e-7
    b = dual_bounds(K, y, res.alpha, C)
    # the same formulas on v (maintained) and on K alpha (recomputed): they differ by the
    # round-off of the rank-two updates only, far below the gap itself
    scale = max(abs(b.lower), 1.0)
    assert abs(lo - b.lower) <= 1e-10 * scale
    assert abs(up - b.upper) <= 1e-10 * scale
    # and the eps rule alone would have stopped earlier, at a wider certified gap
    plain = smo(K, y, C, eps=1e-3)
    bp = dual_bounds(K, y, plain.alpha, C)
    assert (bp.upper - bp.lower) / bp.upper > 1e-7
    if face:  # the step on the face closed the gap, or eps was lowered in place
        assert res.face_steps >= 1 or res.eps < 1e-3
    else:
        assert res.face_steps == 0 and res.eps < 1e-3  # lowered in place


def test_gap_rule_keeps_one_run(usps35_small):
    """The adapter certifies once: one SMO run, no restart (which would recompute K alpha
    and lose the active set)."""
    _, y, K = usps35_small
    r = ck.solve(svm.dual(K, y, C=1.0), "smo", tol=1e-8)
    assert r.status is ck.Status.OPTIMAL
    assert r.solver_stats["runs"] == 1 and len(r.history) == 1


def test_optimistic_estimate_never_becomes_optimal(usps35_small, monkeypatch):
    """If the gradient's gap said 0 while the true gap is not, the certificate from K
    would still decide: SMO is pushed on, and what is reported is never an unproven
    optimum."""
    _, y, K = usps35_small
    monkeypatch.setattr(smo_module, "gap_estimate",
                        lambda v, yy, a, C, psd_eps=0.0: (1.0, 1.0))
    f = svm.dual(K, y, C=1.0)
    r = ck.solve(f, "smo", tol=1e-12)
    b = dual_bounds(K, y, r.x["alpha"], 1.0)
    assert (r.primal_value, r.dual_value) == pytest.approx((b.lower, b.upper), rel=1e-13)
    if r.status is ck.Status.OPTIMAL:
        assert r.rel_gap <= 1e-12
    else:
        assert r.status is ck.Status.OPTIMAL_INACCURATE and r.rel_gap > 1e-12
    assert r.solver_stats["runs"] > 1  # the lie was caught and SMO continued


def test_shrinking_gives_the_same_optimum(usps35_small, shrink_often):
    _, y, K = usps35_small
    out = []
    for shrinking in (True, False):
        res = smo(K, y, 10.0, gap_tol=1e-9, shrinking=shrinking)
        b = dual_bounds(K, y, res.alpha, 10.0)
        assert (b.upper - b.lower) / b.upper <= 2e-9
        out.append(b)
    _overlap(out[0].lower, out[0].upper, out[1].lower, out[1].upper)


def test_gap_tol_and_psd_eps_are_checked(usps35_small):
    _, y, K = usps35_small
    for bad in (0.0, -1e-6, math.nan, "1e-6"):
        with pytest.raises((InvalidInputError, TypeError), match="gap_tol"):
            smo(K, y, 1.0, gap_tol=bad)
    with pytest.raises((InvalidInputError, TypeError), match="psd_eps"):
        smo(K, y, 1.0, gap_tol=1e-6, psd_eps=-1.0)


def test_limits_still_report_a_certified_gap(usps35_small):
    _, y, K = usps35_small
    r = ck.solve(svm.dual(K, y, C=10.0), "smo", tol=1e-9, max_iter=20)
    assert r.status is ck.Status.ITERATION_LIMIT
    b = dual_bounds(K, y, r.x["alpha"], 10.0)
    assert (r.primal_value, r.dual_value) == pytest.approx((b.lower, b.upper), rel=1e-13)


# ----------------------------------------------------------------------- the cached cert
def test_certificate_is_computed_once_per_point(usps35_small):
    _, y, K = usps35_small
    f = svm.dual(K, y, C=1.0)
    a = ck.solve(f, "smo", tol=1e-6).x["alpha"]
    c1 = f.certificate({"alpha": a})
    kept = c1.point["alpha"].copy()  # the point certified (a, or a projected to rounding)
    c1.point["alpha"][:] = 0.0  # a caller scribbling on its copy changes nothing
    c2 = f.certificate({"alpha": a})
    assert c2.primal_value == c1.primal_value and np.array_equal(c2.point["alpha"], kept)
    assert np.max(np.abs(kept - a)) <= 1e-15
    f.set_params(C=2.0)  # another C: computed afresh
    c3 = f.certificate({"alpha": a})
    b = dual_bounds(K, y, a, 2.0)
    assert (c3.primal_value, c3.dual_value) == pytest.approx((b.lower, b.upper), rel=1e-13)


# ----------------------------------------------------------------------- input checks
@pytest.mark.parametrize("n", [5, 127, 128, 129, 300])
def test_check_kernel_finds_bad_entries_in_any_tile(n):
    rng = np.random.default_rng(n)
    A = rng.standard_normal((n, n))
    A = A + A.T
    assert _validation.check_kernel(A, "K") is not None
    spots = [(0, 0), (n - 1, n - 1), (n - 1, 0), (0, n - 1), (n // 2, n // 3),
             (min(127, n - 1), min(128, n - 1))]
    for bad in (np.nan, np.inf, -np.inf):
        for i, j in spots:
            for both in (False, True):
                B = A.copy()
                B[i, j] = bad
                if both:
                    B[j, i] = bad
                with pytest.raises(InvalidInputError, match="Kmat.*non-finite"):
                    _validation.check_kernel(B, "Kmat")
    for i, j in spots:
        if i == j:
            continue
        B = A.copy()
        B[i, j] += 1e-6 * np.abs(A).max()
        with pytest.raises(InvalidInputError, match="Kmat.*not symmetric"):
            _validation.check_kernel(B, "Kmat")
        B[i, j] = A[i, j] * (1 + 1e-13)  # within symmetric_tol: accepted
        _validation.check_kernel(B, "Kmat")


def test_validation_on_by_default_and_off_only_explicitly(usps35_small, monkeypatch):
    _, y, K = usps35_small
    bad = K.copy()
    bad[3, 7] = np.nan
    asym = K.copy()
    asym[3, 7] += 1e-3
    for B in (bad, asym):
        with pytest.raises(InvalidInputError, match="K"):
            svm.dual(B, y, C=1.0)
        with pytest.raises(InvalidInputError, match="K"):
            smo(B, y, 1.0)
    # explicitly off: type and shape only, and the formulation says so
    f = svm.dual(asym, y, C=1.0, check_input=False, psd_check=False)
    assert f.data["checked"] is False
    assert svm.dual(K, y, C=1.0).data["checked"] is True
    with pytest.raises(InvalidInputError, match="K"):
        svm.dual(K[:-1], y, C=1.0, check_input=False)
    with pytest.raises(InvalidInputError, match="check_input"):
        svm.dual(K, y, C=1.0, check_input="no")
    # validated once: the builder reads K's values, ck.solve with SMO never again
    calls = []
    real = _validation._max_asymmetry
    monkeypatch.setattr(_validation, "_max_asymmetry",
                        lambda arr, *a, **k: calls.append(1) or real(arr, *a, **k))
    f = svm.dual(K, y, C=1.0)
    assert len(calls) == 1
    ck.solve(f, "smo", tol=1e-6)
    ck.path(f, "C", [0.5, 1.0, 2.0], "smo")
    assert len(calls) == 1


@pytest.mark.parametrize("C", [1.0, 100.0])
def test_unshrinking_from_the_snapshot_is_exact(usps35_small, shrink_often, C):
    """With the active set revised every 25 steps, the gradient rebuilt from the snapshot
    (rows of the moved variables only) equals y - K(y * alpha) recomputed from scratch,
    to round-off, in both the precomputed and the on-demand kernel mode."""
    X, y, K = usps35_small
    res = smo(K, y, C, gap_tol=1e-9)
    assert res.active_size_min < y.size  # shrinking did set variables aside
    lo, up = res.gap_estimate
    b = dual_bounds(K, y, res.alpha, C)
    scale = max(abs(b.lower), 1.0)
    assert abs(lo - b.lower) <= 1e-10 * scale and abs(up - b.upper) <= 1e-10 * scale
    gamma = 1.0 / X.shape[1] / X.var()

    def rbf(A, B):
        sq = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2.0 * A @ B.T
        return np.exp(-gamma * np.maximum(sq, 0.0))

    lazy = smo(None, y, C, kernel=rbf, X=X, gap_tol=1e-9, cache_size_mb=0.05)
    bl = dual_bounds(K, y, lazy.alpha, C)
    _overlap(bl.lower, bl.upper, b.lower, b.upper)
    assert (bl.upper - bl.lower) / bl.upper <= 2e-9
