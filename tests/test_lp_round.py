"""Rounding in the certificates of Abe (ICANN 2012)'s four LPs.

Every certified value is checked against exact rational arithmetic (``fractions``): the
enclosure of ``A x``, the four closed-form values at arbitrary points (is the point the
value belongs to exactly feasible, and is the value on the right side of its exact
objective?), and every solver's bracket against the exact optimum of small LPs
(``tests/lp_exact_oracle.py``: HiGHS proposes a basis, verified in rationals).  No tolerance is
involved: a bound is valid or not.  The instances are the classes where the float
certificates used to miss (``A`` with large mixed-sign columns whose ``A R`` cancels,
columns scaled by 1e±12, huge entries, triplets of offset features); before the fix a
search over 60 such instances found 310 of 1,178 brackets off the exact optimum (289 of
them reported ``optimal``), up to 1.4e-7 relative (docs/lp_svm.md, Certificates).
"""

from __future__ import annotations

import math
import os
import warnings
from fractions import Fraction

import numpy as np
import pytest

import convexkern as ck
from convexkern.formulations import lp_svm
from convexkern.math.lp_svm import (
    _enclose,
    lp_dual_value,
    lp_value,
    nu_lp_dual_value,
    nu_lp_value,
)
from tests.lp_exact_oracle import exact_optimum

Q = Fraction


def _hard_A(rng, cls, M, m):
    """The instance classes of the search (module doc)."""
    B = rng.normal(size=(M, m))
    if cls == "cancel":
        L = 10.0 ** rng.integers(4, 13)
        u = rng.normal(size=M)
        B[:, 0] += L * u
        B[:, 1] -= L * u
        return B
    if cls == "colscale":
        return B * 10.0 ** rng.integers(-12, 13, size=m)
    if cls == "big":
        return B * 10.0 ** rng.integers(6, 14)
    if cls == "offset":
        M = max(M, 4)  # two samples per class at least
        X = rng.normal(size=(M, m)) + 10.0 ** rng.integers(3, 8)
        return lp_svm.triplet_matrix(X, np.where(np.arange(M) % 2, 1, -1))
    return B


CLASSES = ("plain", "cancel", "colscale", "big", "offset")


def _exact_matvec(A, x, transpose=False):
    if transpose:
        return [sum(Q(A[r, j]) * Q(x[r]) for r in range(A.shape[0])) for j in range(A.shape[1])]
    return [sum(Q(A[r, j]) * Q(x[j]) for j in range(A.shape[1])) for r in range(A.shape[0])]


@pytest.mark.parametrize("seed", range(6))
def test_enclosure_contains_the_exact_product(seed):
    rng = np.random.default_rng(seed)
    for cls in CLASSES:
        A = _hard_A(rng, cls, int(rng.integers(2, 30)), int(rng.integers(2, 6)))
        for transpose in (False, True):
            x = np.abs(rng.normal(size=A.shape[0] if transpose else A.shape[1]))
            v, lo, hi = _enclose(A, x, transpose)
            ex = _exact_matvec(A, x, transpose)
            assert all(Q(a) <= e <= Q(b) for a, e, b in zip(lo, ex, hi)), cls
    # the Higham fallback (entries too large to split error-free)
    A = rng.normal(size=(7, 3)) * 2.0 ** 1000
    x = np.abs(rng.normal(size=3))
    _, lo, hi = _enclose(A, x)
    assert all(Q(a) <= e <= Q(b) for a, e, b in zip(lo, _exact_matvec(A, x), hi))


def test_enclosure_is_tight_under_cancellation():
    """The compensated product stays ~u relative to the result when ``A x`` cancels 1e12
    times (Higham's worst-case bound would be ~1e-4 relative here)."""
    rng = np.random.default_rng(0)
    A = rng.normal(size=(50, 3))
    u = rng.normal(size=50) * 1e12
    A[:, 0] += u
    A[:, 1] -= u
    x = np.array([0.25, 0.25, 0.5])
    v, lo, hi = _enclose(A, x)
    ex = np.array([float(e) for e in _exact_matvec(A, x)])
    assert np.all(hi - lo <= 8 * 2.0 ** -53 * np.abs(ex) + 1e-300)


def _exact_h(s, rho, C):
    return rho - C * sum(max(rho - sr, 0) for sr in s)


@pytest.mark.parametrize("cls", CLASSES)
@pytest.mark.parametrize("rho_min", [0.0, None, 0.01])
def test_closed_form_values_are_exact_bounds_at_arbitrary_points(cls, rho_min):
    """Each value belongs to a point that is exactly feasible, and lies on the safe side of
    that point's exact objective (so it bounds the optimum whatever the solver did)."""
    rng = np.random.default_rng(CLASSES.index(cls))
    for _ in range(4):
        M, m = int(rng.integers(3, 12)), int(rng.integers(2, 5))
        A = _hard_A(rng, cls, M, m)
        M = A.shape[0]
        C_rho = float(rng.choice([1.5 / M, 0.5, 1.0]))
        C_M = float(rng.choice([0.01, 1.0, 100.0]))
        R = np.abs(rng.normal(size=m)) * rng.integers(0, 2, size=m) + 1e-3
        d0 = np.abs(rng.normal(size=M)) / M
        # nu-LP primal: a lower bound on max_rho h(rho) at R / sum(R) (exact)
        val, pt = nu_lp_value(A, R, C_rho, rho_min)
        Rq = [Q(r) for r in pt["R"]]
        sig = sum(Rq)
        s = [e / sig for e in _exact_matvec(A, pt["R"])]
        rhos = [r for r in s if rho_min is None or r >= Q(rho_min)]
        rhos += [] if rho_min is None else [Q(rho_min)]
        assert Q(val) <= max(_exact_h(s, r, Q(C_rho)) for r in rhos)
        # nu-LP dual: delta exactly feasible, value >= its exact objective
        val, pt = nu_lp_dual_value(A, d0, C_rho, rho_min)
        dq = [Q(v) for v in pt["delta"]]
        assert all(0 <= v <= Q(C_rho) for v in dq) and sum(dq) >= 1
        z = max(_exact_matvec(A, pt["delta"], transpose=True))
        if rho_min is None:
            assert all(v / sum(dq) <= Q(C_rho) for v in dq)
            assert Q(val) >= z / sum(dq)
        else:
            assert Q(val) >= z + Q(rho_min) * (1 - sum(dq))
        # LP primal: value >= e'R + C_M e'(e - AR)_+ at R clipped
        val, pt = lp_value(A, R - 0.5, C_M)
        Rq = [Q(r) for r in pt["R"]]
        assert all(r >= 0 for r in Rq)
        s = _exact_matvec(A, pt["R"])
        assert Q(val) >= sum(Rq) + Q(C_M) * sum(max(1 - x, 0) for x in s)
        # LP dual: alpha exactly feasible, value <= e'alpha
        val, pt = lp_dual_value(A, d0 * M * C_M, C_M)
        aq = [Q(v) for v in pt["alpha"]]
        assert all(0 <= v <= Q(C_M) for v in aq)
        assert all(g <= 1 for g in _exact_matvec(A, pt["alpha"], transpose=True))
        assert Q(val) <= sum(aq)


@pytest.mark.parametrize("seed, C_M, shape, L, optimum", [
    (1, 1.0, (10, 3), 1e7, 8.7213829123657),
    (41, 100.0, (12, 3), 1e10, 970.1415169720451),
])
def test_cancelling_columns_bracket_contains_the_exact_optimum(seed, C_M, shape, L,
                                                                       optimum):
    """The search's worst cases: ``A`` with columns ``B ± L u``.  Before, HiGHS
    (``linprog`` and ``highs``) said ``optimal`` for the LP SVM with the brackets
    [8.721382911360338, 8.721382911360338] (1.2e-10 relative below the exact optimum) and
    [970.1413813145319, 970.1413813145319] (1.4e-7 below): the float ``A R`` cancelled.
    The enclosure does not; the LP dual's brackets are checked too."""
    rng = np.random.default_rng(seed)
    M, m = int(rng.integers(6, 16)), int(rng.integers(2, 4))
    A = rng.normal(size=(M, m))
    Lr = 10.0 ** rng.integers(4, 13)
    u = rng.normal(size=M)
    A[:, 0] += Lr * u
    A[:, 1] -= Lr * u
    assert (M, m) == shape and Lr == L  # the instance of the docstring
    ex = exact_optimum("lp_svm.lp", A, C_M)
    assert abs(float(ex) - optimum) <= 1e-12 * optimum  # the exact value, to print precision
    for name in ("linprog", "highs"):
        for f in (lp_svm.lp(A, C_M), lp_svm.lp_dual(A, C_M)):
            r = ck.solve(f, name)
            lo, up = sorted((r.primal_value, r.dual_value))
            assert Q(lo) <= ex <= Q(up), (name, f.name, r)


#: instances per class in the bracket search: 3 in the default suite (a few seconds);
#: ``CONVEXKERN_LP_ROUND_N=40 python -m pytest tests/test_lp_round.py -k every_bracket``
#: runs the long search (every listed solver, SCS and OSQP too; a few minutes)
SEARCH_N = int(os.environ.get("CONVEXKERN_LP_ROUND_N", "3"))
FAST = ("linprog", "highs", "clarabel", "ecos")


def _solvers(f):
    have = ck.available_solvers(f)
    return have if SEARCH_N > 3 else [s for s in FAST if s in have]


@pytest.mark.parametrize("cls", CLASSES)
def test_every_bracket_contains_the_exact_optimum(cls):
    """The strongest of the searches, cut to a few seconds: 3 instances per class, the four
    LPs (the ν-LP pair with ``rho_min`` 0, None and 0.01 in turn), every fast solver
    (``SEARCH_N`` widens it); every finite bound is compared exactly with the optimum."""
    checked = 0
    for seed in range(SEARCH_N):
        rng = np.random.default_rng(1000 * CLASSES.index(cls) + seed)
        M, m = int(rng.integers(6, 14)), int(rng.integers(2, 4))
        A = _hard_A(rng, cls, M, m)
        for kind, C in (("nu_lp", 1.5 / M), ("nu_lp_dual", 0.5), ("lp", 1.0),
                        ("lp_dual", 100.0 / max(1.0, float(np.abs(A).max())))):
            kw = {"rho_min": (0.0, None, 0.01)[seed % 3]} if kind.startswith("nu") else {}
            ex = exact_optimum("lp_svm." + kind, A, C, **kw)
            if ex is None:  # no HiGHS basis verified: nothing to compare with
                continue
            f = getattr(lp_svm, kind)(A, C, **kw)
            for name in _solvers(f):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    r = ck.solve(f, name)
                if not r.status.has_solution:
                    continue
                lo, up = sorted((r.primal_value, r.dual_value))
                assert not (math.isfinite(lo) and Q(lo) > ex), (kind, name, r)
                assert not (math.isfinite(up) and Q(up) < ex), (kind, name, r)
                checked += 1
    assert checked >= 20 * SEARCH_N // 3


def test_threshold_convention_is_stated_in_the_report():
    """``C_rho = float(1/49)`` lies below 1/49 as a rational (checked here with Fraction):
    the certificate reads it as 1/M, and the report must say so."""
    import convexkern as ck
    from convexkern.formulations import lp_svm

    assert Fraction(1 / 49) * 49 < 1
    A = np.random.default_rng(0).normal(size=(49, 3)) + 0.5
    r = ck.solve(lp_svm.nu_lp(A, 1 / 49), "linprog")
    assert "read as 1/M" in r.message
    A = A[:44]  # float(1/44) is not below 1/44 as a rational: no convention applies
    r = ck.solve(lp_svm.nu_lp(A, 1 / 44), "linprog")
    assert Fraction(1 / 44) * 44 >= 1 and "read as 1/M" not in r.message


@pytest.mark.slow
def test_lattice_data_certificate_is_tight_and_contains_the_exact_optimum():
    """Balance (the lattice {1..5}^4): A'alpha = 1 is a sum of terms of size C_M with
    exact cancellation, and rescaling alpha by (1/t)(1 - 4u) never proved A'alpha <= 1
    (the rounding of each scaled alpha_r moves the exact sum by ~u |A|'alpha): the LP
    dual bound fell to 0, a relative gap of 1 (``optimal_inaccurate``) on 9 of the 30
    final LPs of Table 1.  The rescaling now leaves room for that rounding."""
    from convexkern.reproduce import abe2012

    X, y, splits = abe2012.load_problem("balance", n_splits=1, seed=0)
    tr, te = splits[0]
    Xtr, _ = abe2012._minmax(X[tr[:200]], X[te])
    yb = abe2012._problems(y[tr[:200]], np.unique(y[tr[:200]]))[0]
    A = lp_svm.triplet_matrix(Xtr, yb)
    ex = exact_optimum("lp_svm.lp", A, 2000.0)
    r = ck.solve(lp_svm.lp(A, 2000.0), "linprog")
    assert r.status.value == "optimal" and r.rel_gap <= 1e-9, r
    assert Q(r.dual_value) <= ex <= Q(r.primal_value)


def test_the_exact_oracle_on_known_answers():
    """The oracle on the docstring example, by hand: ``R = (3, 2)`` gives ``AR = (1, 1,
X
    feasible for ``C_M = 10``, so 5 is the LP SVM optimum; the ν-LP (``C_rho = 1``) has
    ``R = (0.6, 0.4)``, margins ``(0.2, 0.2, 0.5)``, ``rho = 0.2``, and ``delta = (0.6, 0.4,
    0)`` gives ``A'delta = (0.2, 0.2)``, so 1/5 exactly."""
    A = np.array([[1.0, -1.0], [-1.0, 2.0], [0.5, 0.5]])
    assert exact_optimum("lp_svm.lp", A, 10.0) == 5
    assert exact_optimum("lp_svm.lp_dual", A, 10.0) == 5
    assert exact_optimum("lp_svm.nu_lp", A, 1.0) == Fraction(1, 5)
    assert exact_optimum("lp_svm.nu_lp_dual", A, 1.0) == Fraction(1, 5)
    assert exact_optimum("lp_svm.nu_lp", A, 1.0, rho_min=None) == Fraction(1, 5)
