"""Runs that do not end: the robust methods stop at the rounding floor of the
certificate (a tol below what double precision can certify at the point), on a stall, or
on their time budget -- with an honest status and a bracket that holds the optimum.

Time bounds in these tests are generous (several times the measured seconds on the loaded
2-core development machine): they catch runs of minutes (97 s at n = 16 and
> 120 s at n = 100), not slow machines.  Brackets are checked against an independent
solve: SCS on the conic dual (6) at n = 16 (certified by the same certificate code, but a
different point from a different algorithm) and the accelerated method at tol = 1e-10 at
n = 100; two valid brackets of one optimum intersect.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

import convexkern as ck
from convexkern.algorithms.robust_svm import accelerated_gradient, accpm, projected_gradient
from convexkern.data import load_binary
from convexkern.formulations import robust_indefinite as ri
from convexkern.kernels import Simpson
from convexkern.math.robust_indefinite import K0Spectrum, rounding_floor
from tests.conftest import blas_pool


def _cubic(n, scale=1.0, seed=0):
    """The fuzz suite's family: an indefinite cubic polynomial kernel minus 2I."""
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X = rng.normal(size=(n, 3)) + 0.8 * y[:, None]
    return scale * ((X @ X.T + 1.0) ** 3 - 2.0 * np.eye(n)), y


@pytest.fixture(scope="module")
def usps100():
    X, y = load_binary("usps", 3, 5)
    rng = np.random.default_rng(0)
    pos = rng.permutation(np.flatnonzero(y > 0))[:50]
    neg = rng.permutation(np.flatnonzero(y < 0))[:50]
    idx = np.sort(np.concatenate([pos, neg]))
    return Simpson()(X[idx]), y[idx]


def _bracket_holds(lo, hi, ref_lo, ref_hi, what):
    assert lo <= hi, (what, lo, hi)
    # two valid brackets of the same optimum intersect
    assert lo <= ref_hi and ref_lo <= hi, (what, (lo, hi), (ref_lo, ref_hi))


def _certify(K0, y, alpha, rho=1.0):
    c = ri.certificate(K0, y, alpha, 1.0, rho, feas_tol=None)
    return c.primal_value, c.dual_value


@pytest.mark.parametrize("scale, rho", [(1.0, 1.0), (1e-4, 1e-2), (100.0, 1e6)])
@pytest.mark.slow
def test_apg_below_the_floor_stops_at_it_n16(scale, rho):
    K0, y = _cubic(16, scale)
    t = time.perf_counter()
    r = accelerated_gradient(K0, y, 1.0, rho, tol=1e-16)
    dt = time.perf_counter() - t
    assert dt < 10.0, dt
    assert r.status == "stalled", r
    assert "rounding floor" in r.message, r.message
    lo, hi = _certify(K0, y, r.alpha, rho)
    ref = ck.solve(ri.dual(K0, y, 1.0, rho), "scs", tol=1e-8)
    assert ref.status.has_solution, ref
    _bracket_holds(lo, hi, ref.primal_value, ref.dual_value, "apg n=16")


def test_solve_below_the_floor_is_optimal_inaccurate_and_says_why():
    K0, y = _cubic(16)
    f = ri.dual(K0, y, 1.0, 1.0)
    t = time.perf_counter()
    r = ck.solve(f, "robust_apg", tol=1e-14)
    assert time.perf_counter() - t < 10.0
    assert r.status is ck.Status.OPTIMAL_INACCURATE, r
    assert "rounding floor" in r.message, r.message
    # the certified gap is near the floor the method estimated: within a small factor of
    # the certificate's own rounding terms (what double precision can prove here)
    res = r.residuals
    assert r.gap <= 10.0 * (res["rounding_lower"] + res["rounding_upper"]), r


def test_rounding_floor_estimates_the_certificates_rounding_terms():
    """The floor the methods stop on is within a small factor of the rounding terms the
    certificate then adds (measured 1.1-1.7x on the fuzz family and the audit's scales):
    too low would let a method run on below what can be certified, too high would stop it
    early."""
    for scale, rho in [(1.0, 1.0), (1e-4, 1e-2), (100.0, 1e6), (1.0, 1e-3)]:
        K0, y = _cubic(40, scale)
        f = ri.dual(K0, y, 1.0, rho)
        r = ck.solve(f, "robust_apg", tol=1e-6)
        a = r.x["alpha"]
        v = y * a
        w = np.linalg.eigvalsh(K0 + np.outer(v, v) / (4 * rho))
        neg, pos = -float(np.sum(w[w < 0])), float(np.sum(w[w > 0]))
        dist2 = float(np.sum(w[w < 0] ** 2))  # ~ ||M_- + s vv'||^2 up to the vv' term
        dist2 = max(dist2, float(r.residuals["bound_svm_at_alpha"] - r.primal_value) / rho)
        fl = rounding_floor(y.size, K0Spectrum(K0).abs_norm(), float(a.sum()), 1.0,
                            float(v @ v), rho, neg, pos, dist2)
        actual = r.residuals["rounding_lower"] + r.residuals["rounding_upper"]
        assert actual / 4 <= fl <= 4 * actual, (scale, rho, fl, actual)


def test_abs_norm_bound_is_an_upper_bound_and_tight():
    for seed in range(3):
        K0, _ = _cubic(30, seed=seed)
        R = K0Spectrum(K0).abs_norm()
        true = float(np.linalg.norm(np.abs(K0), 2))
        assert true <= R <= 1.01 * true, (true, R)
    rng = np.random.default_rng(0)
    A = rng.normal(size=(25, 25))
    A = A + A.T
    A[3] = A[:, 3] = 0.0  # a zero row: x_i stays positive, the bound stays valid
    R = K0Spectrum(A).abs_norm()
    assert np.linalg.norm(np.abs(A), 2) <= R


def test_pg_below_the_floor_ends_in_seconds_n100(usps100):
    K0, y = usps100
    t = time.perf_counter()
    r = projected_gradient(K0, y, 1.0, 1.0, tol=1e-16, eig="rank_one")
    dt = time.perf_counter() - t
    assert dt < 30.0, dt
    assert r.status == "stalled", r
    lo, hi = _certify(K0, y, r.alpha)
    ref = ck.solve(ri.dual(K0, y, 1.0, 1.0), "robust_apg", tol=1e-10)
    _bracket_holds(lo, hi, ref.primal_value, ref.dual_value, "pg n=100")


@pytest.mark.parametrize("solver", ["robust_accpm", "robust_pg", "robust_apg"])
@pytest.mark.slow
def test_time_limit_is_honoured_n100(usps100, solver):
    """A bounded budget: tol = 1e-14 (the smallest ck.solve accepts) and 1.5 s; the run
    ends on its budget or below the floor, reports what it certified, and the bracket
    holds."""
    K0, y = usps100
    f = ri.dual(K0, y, 1.0, 1.0)
    t = time.perf_counter()
    r = ck.solve(f, solver, tol=1e-14, time_limit=1.5)
    dt = time.perf_counter() - t
    # iterations stop at 1.5 s; ACCPM's polish is skipped (not optimal), the final
    # certificate at n = 100 costs well under a second
    assert dt < 1.5 + 8.0, dt
    assert r.status in (ck.Status.TIME_LIMIT, ck.Status.OPTIMAL_INACCURATE), r
    ref = ck.solve(f, "robust_apg", tol=1e-10)
    _bracket_holds(r.primal_value, r.dual_value, ref.primal_value, ref.dual_value, solver)


@pytest.mark.slow
def test_accpm_below_the_floor_direct_call_is_bounded(usps100, monkeypatch):
    """ACCPM makes slow but steady progress at n = 100 (no stall, far from the floor), so
    a tol below the floor gets a bounded budget of its own when no time_limit is given
    (BELOW_FLOOR_BUDGET, 10 s; 2 s here to keep the test short)."""
    import convexkern.algorithms.robust_svm as rs

    monkeypatch.setattr(rs, "BELOW_FLOOR_BUDGET", 2.0)
    K0, y = usps100
    t = time.perf_counter()
    r = accpm(K0, y, 1.0, 1.0, tol=1e-16)
    assert time.perf_counter() - t < 2.0 + 3.0
    assert r.status in ("time_limit", "stalled"), r
    if r.status == "time_limit":
        assert "below the rounding floor" in r.message, r.message
    lo, hi = _certify(K0, y, r.alpha)
    ref = ck.solve(ri.dual(K0, y, 1.0, 1.0), "robust_apg", tol=1e-10)
    _bracket_holds(lo, hi, ref.primal_value, ref.dual_value, "accpm n=100")


@pytest.mark.slow
def test_pg_on_a_slowly_converging_instance_is_bounded(monkeypatch):
    """The cubic kernel at n = 100: projected gradient needs ~30000 iterations (a minute)
    to reach the floor; below it, the request gets the bounded budget."""
    import convexkern.algorithms.robust_svm as rs

    monkeypatch.setattr(rs, "BELOW_FLOOR_BUDGET", 2.0)
    K0, y = _cubic(100)
    t = time.perf_counter()
    r = projected_gradient(K0, y, 1.0, 1.0, tol=1e-16, eig="rank_one")
    assert time.perf_counter() - t < 2.0 + 3.0
    assert r.status in ("time_limit", "stalled"), r
    lo, hi = _certify(K0, y, r.alpha)
    ref = ck.solve(ri.dual(K0, y, 1.0, 1.0), "robust_apg", tol=1e-7)
    _bracket_holds(lo, hi, ref.primal_value, ref.dual_value, "pg cubic n=100")
    # a tol above the floor is not given the budget: the caller's limits apply
    r = projected_gradient(K0, y, 1.0, 1.0, tol=1e-2, eig="rank_one")
    assert r.status == "optimal", r


def test_single_precision_eigenvectors_keep_the_bracket_valid(usps100, monkeypatch):
    """At a loose tol the certificate forms V = QW in single precision.  The
    bounds do not trust V, so the bracket must still hold the optimum (reference: the
    accelerated method at tol = 1e-10 in double precision), and meet tol."""
    import convexkern.formulations.robust_indefinite as rif

    K0, y = usps100
    ref = ck.solve(ri.dual(K0, y, 1.0, 1.0), "robust_apg", tol=1e-10)
    monkeypatch.setattr(rif, "SINGLE_N", 10)  # the path is for n >= 1000; force it here
    from convexkern.math.rank_one import RankOneUpdate

    seen = []
    eigh = RankOneUpdate.eigh

    def spy(self, v, sigma, *, single=False):
        seen.append(single)
        return eigh(self, v, sigma, single=single)

    monkeypatch.setattr(RankOneUpdate, "eigh", spy)
    f = ri.dual(K0, y, 1.0, 1.0)
    r = ck.solve(f, "robust_apg", tol=1e-4)
    assert r.status is ck.Status.OPTIMAL, r
    assert seen and seen[0] is True, seen
    _bracket_holds(r.primal_value, r.dual_value, ref.primal_value, ref.dual_value, "single")
    # the eigenpairs themselves: single-precision vectors, double-precision values
    r1 = f.data["spectrum"].decomposition()
    v = y * r.x["alpha"]
    w, V = r1.eigh(v, 0.25, single=True)
    w64, V64 = r1.eigh(v, 0.25)
    assert np.array_equal(w, w64)
    M = K0 + 0.25 * np.outer(v, v)
    scale = np.max(np.abs(w64))
    # residual of float32 eigenvectors: ~ 1e-7 relative (float32 unit roundoff 6e-8
    # times the ~sqrt(n) growth of a length-n product)
    assert np.max(np.abs(M @ V - V * w)) <= 1e-5 * scale
    assert np.max(np.abs(M @ V64 - V64 * w64)) <= 1e-10 * scale


def test_blas_threads_of_the_robust_methods(monkeypatch, blas_seen):
    """One BLAS thread up to ONE_THREAD_POINTS points unless told (two threads made
    robust_apg 1.3x slower at n = 800 on a quiet 2-core machine, 2.2x with another process
    beside it); ``blas_threads`` sets it, a bad value is refused by name."""
    import convexkern.algorithms.robust_svm as rs

    seen = blas_seen(rs, "certified_report")  # inside the run's BLAS limit
    K, y = _cubic(16)
    f = ri.dual(K, y, 1.0, 1.0)
    ck.solve(f, "robust_apg", tol=1e-4)
    ck.solve(f, "robust_apg", tol=1e-4, blas_threads=2)
    assert seen == [1, 2]
    monkeypatch.setattr(rs, "ONE_THREAD_POINTS", 10)  # above it: the pool as it is
    ck.solve(f, "robust_apg", tol=1e-4)
    assert seen[-1] == blas_pool()
    with pytest.raises(ck.errors.InvalidInputError, match="blas_threads"):
        ck.solve(f, "robust_pg", blas_threads=0)
