"""Fuzzing the public API at extreme scales: whatever was once caught stays caught.

Every case must end in a library error (``ConvexkernError``) or an honest report:

* never a foreign exception, never a changed input array;
* never ``infeasible``/``unbounded`` on an instance feasible and bounded by construction
  (a soft margin);
* a bracket ``[lower, upper]`` that is ordered and meets the bracket of an independent
  tight solve (two valid brackets of one optimum always intersect);
* ``optimal`` only with a certified relative gap within ``tol``;
* every run within its time budget.

The number of cases per test is ``CONVEXKERN_FUZZ_EXAMPLES`` (default 25, the quick
profile CI runs); ``CONVEXKERN_FUZZ_EXAMPLES=500 python -m pytest tests/test_fuzz.py`` is
the long run (docs/reliability.md).
"""

from __future__ import annotations

import math
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import convexkern as ck
from convexkern.formulations import krein, lp_svm, robust_indefinite, svm

EXAMPLES = int(os.environ.get("CONVEXKERN_FUZZ_EXAMPLES", "25"))
BUDGET = 10.0  # seconds a solve may take (time_limit), plus overhead below
NO_SOLUTION_CLAIMS = (ck.Status.INFEASIBLE, ck.Status.UNBOUNDED,
                      ck.Status.INFEASIBLE_OR_UNBOUNDED)
FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


def _data(seed: int, n: int, d: int, scale: float):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X = rng.normal(size=(n, d)) + 0.7 * y[:, None]
    return scale * X, y


def _run(f, solver, inputs):
    """Solve, checking the promises that hold whatever the outcome."""
    before = [a.copy() for a in inputs]
    try:
        r = ck.solve(f, solver, time_limit=BUDGET,
                     max_iter=200_000 if solver == "smo" else None)
    except ck.ConvexkernError:
        r = None  # a library error is an honest answer
    for a, b in zip(inputs, before):
        assert np.array_equal(a, b, equal_nan=True), "an input array was changed"
    if r is None:
        return None
    assert r.wall_time <= BUDGET + 5.0, (solver, r.wall_time)
    if r.status is ck.Status.OPTIMAL:
        assert r.rel_gap <= r.tol, (solver, r)
    return r


def _bracket(r):
    """(lower, upper) of the optimum from a report, in the formulation's sense."""
    p, d = r.primal_value, r.dual_value
    return (min(p, d), max(p, d))


def _intersect(a, b, what):
    (lo1, hi1), (lo2, hi2) = _bracket(a), _bracket(b)
    if not all(math.isfinite(v) for v in (lo1, hi1, lo2, hi2)):
        return
    slack = 1e-12 * max(1.0, abs(lo1), abs(hi1), abs(lo2), abs(hi2))
    assert max(lo1, lo2) <= min(hi1, hi2) + slack, (what, a, b)


@FUZZ
@given(seed=st.integers(0, 10_000), n=st.integers(4, 24), d=st.integers(1, 4),
       log_scale=st.integers(-6, 6), log_C=st.one_of(st.none(), st.integers(-6, 12)),
       solver=st.sampled_from(["smo", "clarabel", "scs"]), form=st.sampled_from(["dual",
                                                                                 "primal"]))
def test_svm_reports_are_honest(seed, n, d, log_scale, log_C, solver, form):
    X, y = _data(seed, n, d, 10.0 ** log_scale)
    C = None if log_C is None else 10.0 ** log_C
    try:
        f = svm.dual(X @ X.T, y, C) if form == "dual" else svm.primal(X, y, C)
    except ck.ConvexkernError:
        return  # e.g. a Gram matrix whose round-off indefiniteness exceeds PSD_TOL
    r = _run(f, solver, [X, y])
    if r is None:
        return
    if C is not None:
        assert r.status not in NO_SOLUTION_CLAIMS, (solver, r)
    ref = ck.solve(f, "clarabel", tol=1e-9, time_limit=BUDGET)
    if r.status in NO_SOLUTION_CLAIMS:
        # a finite certified bracket elsewhere proves the problem feasible and bounded
        assert not (ref.status.has_solution and all(
            math.isfinite(v) for v in (ref.primal_value, ref.dual_value))), (r, ref)
    if r.status.has_solution:
        lo, hi = _bracket(r)
        assert lo <= hi, r
        if ref.status is ck.Status.OPTIMAL:
            _intersect(r, ref, f"{form} {solver}")


def _abe_case(seed, n, log_scale, log_C, solver, form):
    """(report, formulation) of one of Abe's LPs on triplets of scaled data; (None, None)
    when the data are refused with a library error."""
    X, y = _data(seed, n, 3, 10.0 ** log_scale)
    try:
        A = lp_svm.triplet_matrix(X, y)
        f = getattr(lp_svm, form)(A, 10.0 ** log_C)
    except ck.ConvexkernError:
        return None, None
    return _run(f, solver, [X, y, A]), f


@FUZZ
@given(seed=st.integers(0, 10_000), n=st.integers(6, 20), log_scale=st.integers(-4, 8),
       log_C=st.integers(-3, 12), solver=st.sampled_from(["linprog", "clarabel", "scs"]),
       form=st.sampled_from(["lp", "lp_dual"]))
def test_lp_svm_reports_are_honest(seed, n, log_scale, log_C, solver, form):
    r, f = _abe_case(seed, n, log_scale, log_C, solver, form)
    if r is None:
        return
    assert r.status not in NO_SOLUTION_CLAIMS, (solver, r)  # both always feasible, bounded
    if r.status.has_solution:
        ref = ck.solve(f, "linprog")
        if ref.status is ck.Status.OPTIMAL:
            _intersect(r, ref, f"{form} {solver}")


@FUZZ
@given(seed=st.integers(0, 10_000), n=st.integers(6, 20), log_C=st.integers(-3, 12),
       decomposition=st.sampled_from(["shift", "flip"]),
       solver=st.sampled_from(["trik", "smo", "clarabel"]))
def test_krein_reports_are_honest(seed, n, log_C, decomposition, solver):
    X, y = _data(seed, n, 3, 1.0)
    K = np.tanh(0.5 * X @ X.T - 1.0)  # the sigmoid kernel: indefinite
    try:
        f = krein.stabilization(K, y, 10.0 ** log_C, decomposition)
    except ck.ConvexkernError:
        return
    r = _run(f, solver, [K, y])
    if r is None:
        return
    assert r.status not in NO_SOLUTION_CLAIMS, (solver, r)
    if r.status.has_solution:
        ref = ck.solve(f, "clarabel", tol=1e-9, time_limit=BUDGET)
        if ref.status is ck.Status.OPTIMAL:
            _intersect(r, ref, f"{decomposition} {solver}")


@FUZZ
@given(seed=st.integers(0, 10_000), n=st.integers(6, 16), log_kscale=st.integers(-4, 6),
       log_rho=st.integers(-2, 6), solver=st.sampled_from(["robust_apg", "scs"]))
@pytest.mark.slow
def test_robust_reports_are_honest(seed, n, log_kscale, log_rho, solver):
    X, y = _data(seed, n, 3, 1.0)
    K0 = 10.0 ** log_kscale * ((X @ X.T + 1.0) ** 3 - 2.0 * np.eye(n))  # indefinite
    f = robust_indefinite.dual(K0, y, 1.0, 10.0 ** log_rho)
    r = _run(f, solver, [K0, y])
    if r is None:
        return
    assert r.status not in NO_SOLUTION_CLAIMS, (solver, r)  # (6) is feasible and bounded
    if r.status.has_solution:
        lo, hi = _bracket(r)
        assert lo <= hi, r
        ref = ck.solve(f, "robust_apg", tol=1e-9, time_limit=BUDGET)
        if ref.status.has_solution:  # any certified bracket of the same optimum
            _intersect(r, ref, f"robust {solver}")


@FUZZ
@given(seed=st.integers(0, 10_000), n=st.integers(6, 20), log_scale=st.integers(-4, 8),
       log_C=st.integers(-3, 12), solver=st.sampled_from(["linprog", "clarabel", "scs"]),
       form=st.sampled_from(["nu_lp", "nu_lp_dual"]))
def test_nu_lp_reports_are_honest(seed, n, log_scale, log_C, solver, form):
    """Abe's nu-LP (7) and its dual: unbounded exactly when C_rho < 1/M (Theorem 2), so
    a claim is checked against an independent solve (linprog) rather than assumed."""
    r, f = _abe_case(seed, n, log_scale, log_C, solver, form)
    if r is None:
        return
    ref = ck.solve(f, "linprog")
    if r.status in NO_SOLUTION_CLAIMS and ref.status is ck.Status.OPTIMAL:
        raise AssertionError(("a certified optimum refutes the claim", r, ref))
    if r.status.has_solution:
        lo, hi = _bracket(r)
        assert lo <= hi, r
        if ref.status is ck.Status.OPTIMAL:
            _intersect(r, ref, f"{form} {solver}")


@pytest.fixture(scope="module")
def usps_rotations():
    from convexkern import transforms
    from convexkern.data import load_usps

    ds = load_usps("train")
    sel = np.concatenate([np.flatnonzero(ds.y == 1)[:8], np.flatnonzero(ds.y == 7)[:8]])
    return transforms.rotation_trajectories(ds.X[sel]), np.where(ds.y[sel] == 1, 1.0, -1.0)


@settings(max_examples=max(4, EXAMPLES // 3), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(log_scale=st.integers(-3, 4), log_C=st.one_of(st.none(), st.integers(-4, 6)),
       tau=st.sampled_from([0.02, 0.35, 1.5, 1e6]),
       solver=st.sampled_from(["exchange", "clarabel", "scs", "sdpm-ipm"]))
@pytest.mark.slow
def test_sdpm_reports_are_honest(usps_rotations, log_scale, log_C, tau, solver):
    """The SDPM primal (6) on real USPS rotation trajectories at extreme scales (and a
    segment of 1e6 rad): never a no-solution claim on a soft margin, nor on a hard margin
    that the builder's separability witness proves feasible, brackets that meet a tight
    Clarabel solve's."""
    from convexkern.formulations import sdpm

    Xt, y = usps_rotations
    Xs = Xt * 10.0 ** log_scale
    C = None if log_C is None else 10.0 ** log_C
    try:
        f = sdpm.primal(Xs, y, tau, C)
    except ck.ConvexkernError:
        return
    r = _run(f, solver, [Xs, y])
    if r is None:
        return
    if r.status in NO_SOLUTION_CLAIMS:  # soft margin: feasible; hard: unless not separable
        fact = f.facts["feasible"]
        assert not (fact() if callable(fact) else fact), (solver, r)
    if r.status.has_solution:
        lo, hi = _bracket(r)
        assert lo <= hi, r
        ref = ck.solve(f, "clarabel", tol=1e-9, time_limit=BUDGET)
        if ref.status is ck.Status.OPTIMAL:
            _intersect(r, ref, f"sdpm {solver}")


@FUZZ
@given(seed=st.integers(0, 10_000), n=st.integers(4, 16), log_scale=st.integers(-5, 5),
       log_C=st.integers(-4, 9), solver=st.sampled_from(["clarabel", "scs", "ecos"]))
def test_generic_certificate_is_honest_at_extreme_scales(seed, n, log_scale, log_C, solver):
    """The generic certificate on the SVM dual at extreme kernel scales and C:
    its bracket meets the hand certificate's tight bracket."""
    from dataclasses import replace

    X, y = _data(seed, n, 3, 10.0 ** log_scale)
    try:
        hand = svm.dual(X @ X.T, y, 10.0 ** log_C)
    except ck.ConvexkernError:
        return
    gen = replace(hand, certify=None)
    r = _run(gen, solver, [X, y])
    if r is None:
        return
    assert r.status not in NO_SOLUTION_CLAIMS, (solver, r)
    if r.status.has_solution:
        lo, hi = _bracket(r)
        assert lo <= hi, r
        ref = ck.solve(hand, "clarabel", tol=1e-9, time_limit=BUDGET)
        if ref.status is ck.Status.OPTIMAL:
            _intersect(r, ref, f"generic {solver}")


@pytest.mark.parametrize("bad", [np.nan, np.inf, "x", None, -1.0, 0.0])
def test_bad_hyper_parameters_are_library_errors(bad):
    X, y = _data(0, 8, 2, 1.0)
    for build in (lambda: svm.dual(X @ X.T, y, bad), lambda: svm.primal(X, y, bad),
                  lambda: lp_svm.lp(lp_svm.triplet_matrix(X, y), bad)):
        if bad is None:
            continue  # C=None is the hard margin for the SVMs
        with pytest.raises(ck.ConvexkernError):
            build()
