"""ν-LP and LP SVMs (Abe, ICANN 2012): triplets, the four LPs, certificates, statuses,
solver agreement on real data, the direct HiGHS path, and the kernel-training transformer.

Tolerances: values are compared with the direct HiGHS path (``linprog``, certified gap
~1e-12 on these sets) as reference, each solver to its ``SOLVER_RTOL`` entry (interior
point codes ~1e-8 accurate, SCS first-order 1e-4), *relative to the reference value*
``|ref|`` — 1e-6 / 1e-4 relative — even though the ν-LP optimum is O(1e-3)
on these sets while ``A`` is O(1).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import convexkern as ck
from convexkern import Status
from convexkern.data import load, load_thyroid
from convexkern.errors import InvalidInputError, InvalidTypeError
from convexkern.formulations import lp_svm
from tests.conftest import SOLVER_RTOL, minmax

RTOL = {**SOLVER_RTOL, "linprog": 1e-7}
SOLVERS = [s for s in ("linprog", "highs", "clarabel", "ecos", "scs")
           if s in ck.installed_solvers()]

# ------------------------------------------------------------------ triplets
def _brute_triplets(X, y):
    out = []
    for r in range(len(y)):
        d = ((X - X[r]) ** 2).sum(1)
        same = [(d[i], i) for i in range(len(y)) if y[i] == y[r] and i != r]
        other = [(d[i], i) for i in range(len(y)) if y[i] != y[r]]
        out.append((r, min(same)[1], min(other)[1]))
    return np.array(out)


def test_triplets_match_brute_force_on_real_data():
    ds = load("balance")  # integer inputs: many exact ties, broken by the lowest index
    X, y = ds.X[:150], ds.y[:150]
    T = lp_svm.triplets(X, y, chunk=37)
    np.testing.assert_array_equal(T, _brute_triplets(X, y))


def _exact_brute_triplets(X, y):
    """Reference written independently of the code: for each r the exact-order distance
    ``((X - X[r]) ** 2).sum(1)`` to every sample, argmin (first = lowest index) over the
    same class without r and over the other classes."""
    idx = np.arange(len(y))
    out = []
    for r in range(len(y)):
        d = ((X - X[r]) ** 2).sum(1)
        out.append((r, np.argmin(np.where((y == y[r]) & (idx != r), d, np.inf)),
                    np.argmin(np.where(y != y[r], d, np.inf))))
    return np.array(out)


@pytest.mark.parametrize("scaled", [False, True])
@pytest.mark.slow
def test_triplets_deterministic_on_float_thyroid(scaled):
    """Thyroid (3772 x 21, 34 groups of duplicate rows, many near ties): the default
    chunking, chunk=1 and an exact brute-force reference give the same triplets.  (Before
    the exact recomputation, 10 rows of the scaled set differed from the reference and 6
    changed between chunk=1 and the default, through the rounding of |x|^2+|z|^2-2x'z.)"""
    ds = load_thyroid("train")
    X = minmax(ds.X) if scaled else ds.X
    T = lp_svm.triplets(X, ds.y)
    np.testing.assert_array_equal(T, lp_svm.triplets(X, ds.y, chunk=1))
    np.testing.assert_array_equal(T, _exact_brute_triplets(X, ds.y))


def test_coefficients_formula():
    ds = load("pima")
    X, y = ds.X[:60], ds.y[:60]
    T = lp_svm.triplets(X, y)
    A = lp_svm.coefficients(X, T)
    r, j, k = T[5]
    np.testing.assert_allclose(A[5], (X[r] - X[k]) ** 2 - (X[r] - X[j]) ** 2)
    # with R = 1 the margin of triplet r is d(r, k) - d(r, j): other minus same class
    d = lambda a, b: float(((X[a] - X[b]) ** 2).sum())  # noqa: E731
    assert A[5].sum() == pytest.approx(d(r, k) - d(r, j))


def test_triplets_duplicates_and_ties():
    X = np.array([[0.0], [0.0], [1.0], [1.0], [0.0]])
    y = np.array([0, 0, 1, 1, 1])
    T = lp_svm.triplets(X, y)
    # sample 0: same-class duplicate 1 at distance 0; other class: 4 is a duplicate too
    assert T[0].tolist() == [0, 1, 4]
    A = lp_svm.coefficients(X, T)
    assert A[0, 0] == 0.0  # cross-class duplicate: the triplet can never have a margin
    # sample 4 (class 1 at 0.0): same-class nearest is 2 (tie with 3 -> lowest index)
    assert T[4].tolist() == [4, 2, 0]


def test_triplets_bad_input():
    X = np.array([[0.0], [1.0], [2.0]])
    with pytest.raises(InvalidInputError, match="two classes"):
        lp_svm.triplets(X, np.array([1, 1, 1]))
    with pytest.raises(InvalidInputError, match="single sample"):
        lp_svm.triplets(X, np.array([1, 1, 2]))
    T = lp_svm.triplets(X, np.array([1, 1, 2]), singletons="skip")
    assert T[:, 0].tolist() == [0, 1]
    with pytest.raises(InvalidInputError, match="non-finite"):
        lp_svm.triplets(np.array([[0.0], [np.nan], [2.0]]), np.array([1, 1, 2]))
    with pytest.raises(InvalidInputError, match="labels"):
        lp_svm.triplets(X, np.array([1, 2]))
    with pytest.raises(InvalidInputError, match="singletons"):
        lp_svm.triplets(X, np.array([1, 1, 2]), singletons="drop")
    for bad in (0, -3):
        with pytest.raises(InvalidInputError, match="chunk"):
            lp_svm.triplets(X, np.array([1, 1, 2]), singletons="skip", chunk=bad)
    with pytest.raises(InvalidTypeError, match="chunk"):
        lp_svm.triplets(X, np.array([1, 1, 2]), singletons="skip", chunk=2.5)
    # every class a singleton: nothing left after skipping -> an error naming y
    with pytest.raises(InvalidInputError, match="no triplet") as exc:
        lp_svm.triplets(X[:2], np.array([0, 1]), singletons="skip")
    assert exc.value.argument == "y"
    with pytest.raises(InvalidInputError, match="indices"):
        lp_svm.coefficients(X, np.array([[0, 1, 5]]))
    with pytest.raises(InvalidTypeError):
        lp_svm.coefficients(X, np.array([[0.0, 1.0, 2.0]]))


def test_constant_input_gets_zero_weight():
    ds = load("pima")
    X = minmax(ds.X)
    X = np.hstack([X, np.full((X.shape[0], 1), 0.5)])
    A = lp_svm.triplet_matrix(X, ds.y)
    assert np.all(A[:, -1] == 0)
    r = ck.solve(lp_svm.lp(A, 3.0), "linprog")
    assert r.ok and r.x["R"][-1] == 0.0


# ------------------------------------------------------------------ builders
@pytest.mark.parametrize("builder", [lp_svm.nu_lp, lp_svm.nu_lp_dual, lp_svm.lp, lp_svm.lp_dual])
def test_builder_bad_input(builder):
    A = np.ones((3, 2))
    for bad in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(InvalidInputError):
            builder(A, bad)
    with pytest.raises(InvalidInputError, match="non-finite"):
        builder(np.array([[1.0, np.nan]]), 1.0)
    with pytest.raises(InvalidInputError):
        builder(np.ones(3), 1.0)
    f = builder(A, 1.0)
    with pytest.raises(InvalidInputError):
        f.set_params(**{next(iter(f.parameters)): -1.0})


def test_rho_min_bad_input():
    with pytest.raises(InvalidInputError, match="rho_min"):
        lp_svm.nu_lp(np.ones((3, 2)), 1.0, rho_min=-1.0)
    with pytest.raises(InvalidTypeError, match="rho_min"):
        lp_svm.nu_lp_dual(np.ones((3, 2)), 1.0, rho_min="0")


def test_senses_kinds_and_parameters(A_balance):
    assert lp_svm.nu_lp(A_balance, 0.01).sense == "maximize"
    assert lp_svm.nu_lp_dual(A_balance, 0.01).sense == "minimize"
    assert lp_svm.lp(A_balance, 1.0).sense == "minimize"
    assert lp_svm.lp_dual(A_balance, 1.0).sense == "maximize"
    for b, p in ((lp_svm.nu_lp, "C_rho"), (lp_svm.lp, "C_M")):
        f = b(A_balance, 0.5)
        assert f.cone_class == "LP" and f.problem.is_dpp() and p in f.parameters
        assert "linprog" in ck.available_solvers(f) and "highs" in ck.available_solvers(f)


# ------------------------------------------------------------------ solver agreement
CASES = [("nu_lp", 2.0), ("nu_lp_dual", 2.0), ("lp", 3.0), ("lp_dual", 3.0)]


@pytest.mark.parametrize("name,c", CASES)
@pytest.mark.parametrize("data", ["A_balance", "A_pima"])
def test_all_solvers_agree_and_certify(name, c, data, request):
    A = request.getfixturevalue(data)
    M = A.shape[0]
    C = c / M if name.startswith("nu") else c  # C_rho = 2/M: above the 1/M threshold
    f = getattr(lp_svm, name)(A, C)
    ref = ck.solve(f, "linprog")
    assert ref.ok and ref.rel_gap <= 1e-9
    scale = abs(ref.primal_value)  # relative: the nu-LP optimum is ~1e-3 here
    assert scale > 0
    for s in SOLVERS:
        r = ck.solve(f, s)
        assert r.status.has_solution, (s, r)
        # certified bounds bracket the reference optimum, whatever the status
        lo, hi = sorted((r.primal_value, r.dual_value))
        assert lo - 1e-12 * scale <= ref.primal_value <= hi + 1e-12 * scale, (s, r)
        if r.status is not Status.OPTIMAL:
            # a point short of tol is held to its certified bracket only (above), and its
            # status must say why: SCS 3.3 at its default tol on the balance nu-LP dual
            # (optimum 6.3e-4, below its absolute eps 1e-5) stops at a relative gap of 8e-4
            assert r.status is Status.OPTIMAL_INACCURATE and r.rel_gap > r.tol, (s, r)
            continue
        assert abs(r.primal_value - ref.primal_value) <= RTOL[s] * scale, (s, r, ref)
        assert r.gap <= 10 * RTOL[s] * scale, (s, r)


@pytest.mark.parametrize("pair,rho_min", [("nu_lp", 0.0), ("nu_lp", None), ("nu_lp", 0.01),
                                          ("lp", 0.0)])
def test_strong_duality_on_real_data(A_pima, pair, rho_min):
    M = A_pima.shape[0]
    if pair == "lp":
        fp, fd = lp_svm.lp(A_pima, 3.0), lp_svm.lp_dual(A_pima, 3.0)
    else:
        fp = lp_svm.nu_lp(A_pima, 3.0 / M, rho_min=rho_min)
        fd = lp_svm.nu_lp_dual(A_pima, 3.0 / M, rho_min=rho_min)
    for s in ("linprog", "clarabel"):
        p, d = ck.solve(fp, s), ck.solve(fd, s)
        assert p.ok and d.ok
        assert abs(p.primal_value - d.primal_value) <= RTOL[s] * abs(p.primal_value)
    assert fp.dual().name == fd.name


def test_rho_min_choices_differ_where_theory_says(A_pima):
    """rho free may go negative, rho >= 0 may not; rho >= eps is a tighter LP."""
    C = 1.0  # Theorem 3 regime: value = max_R min_r (AR)_r, negative on Pima
    free = ck.solve(lp_svm.nu_lp(A_pima, C, rho_min=None), "linprog")
    closed = ck.solve(lp_svm.nu_lp(A_pima, C, rho_min=0.0), "linprog")
    eps = ck.solve(lp_svm.nu_lp(A_pima, C, rho_min=0.01), "linprog")
    assert free.ok and closed.ok and eps.ok
    assert float(free.x["rho"]) < 0  # Pima is not separable by a diagonal metric
    assert float(closed.x["rho"]) == 0.0  # the zero-margin solution
    # each choice is a tighter LP than the one before, and strictly so here: the free
    # optimum has rho < 0 (excluded by rho >= 0), the closed one rho = 0 (excluded by
    # rho >= 0.01); the docs say "strictly smaller" for eps
    assert free.primal_value > closed.primal_value > eps.primal_value
    assert float(eps.x["rho"]) >= 0.01


def test_path_reuses_parameters(A_balance):
    f = lp_svm.lp(A_balance, 1.0)
    tab = ck.path(f, "C_M", [0.5, 1.0, 5.0], "clarabel")
    vals = [r.primal_value for r in tab]
    assert all(r.ok for r in tab) and vals[0] < vals[1] < vals[2]  # value increases in C_M


def test_certificate_from_arbitrary_points_is_valid(A_balance):
    f = lp_svm.lp(A_balance, 2.0)
    opt = ck.solve(f, "linprog").primal_value
    rng = np.random.default_rng(0)
    for _ in range(5):
        cert = f.certificate({"R": rng.normal(size=A_balance.shape[1]),
                              "alpha": rng.uniform(-1, 3, size=A_balance.shape[0])})
        assert cert.lower <= opt + 1e-9 <= cert.upper + 2e-9
    g = lp_svm.nu_lp(A_balance, 2.0 / A_balance.shape[0])
    optg = ck.solve(g, "linprog").primal_value
    for _ in range(5):
        cert = g.certificate({"R": rng.normal(size=A_balance.shape[1]),
                              "delta": rng.uniform(-1, 1, size=A_balance.shape[0])})
        assert cert.lower <= optg + 1e-12 and optg <= cert.upper + 1e-12


# ------------------------------------------------------------------ statuses (Theorem 2)
@pytest.mark.parametrize("solver", SOLVERS)
def test_unbounded_and_infeasible_below_one_over_M(A_thyroid, solver):
    M = A_thyroid.shape[0]
    for C in (0.5 / M, 0.99 / M):
        p = ck.solve(lp_svm.nu_lp(A_thyroid, C), solver)
        d = ck.solve(lp_svm.nu_lp_dual(A_thyroid, C), solver)
        assert p.status is ck.Status.UNBOUNDED and p.primal_value == math.inf, p
        assert d.status is ck.Status.INFEASIBLE and not d.ok, d
        assert "Theorem 2" in p.message and "Theorem 2" in d.message
    # just above the threshold both are solvable
    assert ck.solve(lp_svm.nu_lp(A_thyroid, 1.01 / M), solver).status.has_solution


@pytest.mark.parametrize("data", ["pima", "balance49"])
def test_threshold_C_rho_one_over_M_is_certified(data):
    """At C_rho = 1/M exactly (the boundary of Theorem 2) the only dual-feasible delta is
    e/M, and the optimum is max_i mean_r a_ir (for fixed R the objective is nondecreasing
    in rho, so rho >= max_r (AR)_r and the value is mean_r (AR)_r).  Pima: M = 768, where
    the proportional repair of delta fell short by rounding (optimal_inaccurate, infinite
    gap, before); Balance subset with M = 49, where float(1/M) * M < 1."""
    ds = load("pima" if data == "pima" else "balance")
    X, y = minmax(ds.X), ds.y
    if data == "balance49":
        idx = np.random.default_rng(0).choice(y.size, 49, replace=False)
        X, y = X[idx], y[idx]
    A = lp_svm.triplet_matrix(X, y)
    M = A.shape[0]
    assert data == "pima" or (1.0 / M) * M < 1.0
    expected = float(A.mean(axis=0).max())
    for s in ("linprog", "highs", "clarabel"):
        for f in (lp_svm.nu_lp(A, 1.0 / M), lp_svm.nu_lp_dual(A, 1.0 / M)):
            r = ck.solve(f, s)
            assert r.ok and r.rel_gap <= 10 * RTOL[s], (s, f.name, r)
            assert abs(r.primal_value - expected) <= RTOL[s] * abs(expected), (s, f.name, r)


def test_just_below_one_over_M_is_unbounded_never_optimal():
    """M C_rho = 1 - 5e-13: a genuine C_rho < 1/M (Theorem 2: unbounded nu-LP, infeasible
    dual), 2000 ulps from the threshold, while the rounding of C_rho = 1/M moves M C_rho
    off 1 by at most ~1 ulp.  HiGHS's feasibility tolerance (1e-7) accepts it as optimal;
    with the former 1e-12 threshold the certificate confirmed that with gap 0.  The
    closed forms now give no bound, and every solver's report carries the Theorem 2
    statuses (the certificate proves them: ``Certificate.proven``)."""
    A = np.random.default_rng(0).normal(size=(40, 4))
    M = A.shape[0]
    C = (1.0 - 5e-13) / M
    assert 1.0 - C * M > 1e-13
    assert lp_svm.nu_lp_value(A, np.full(4, 0.25), C)[0] == math.inf
    assert lp_svm.nu_lp_dual_value(A, np.full(M, 1.0 / M), C)[0] == math.inf
    p = ck.solve(lp_svm.nu_lp(A, C), "linprog")
    d = ck.solve(lp_svm.nu_lp_dual(A, C), "linprog")
    assert p.status is ck.Status.UNBOUNDED and p.primal_value == math.inf, p
    assert d.status is ck.Status.INFEASIBLE and not d.ok, d
    assert "Theorem 2" in p.message and "Theorem 2" in d.message
    # every solver: the certificate proves the Theorem 2 status, whatever the solver said
    for s in SOLVERS:
        for f, expected in ((lp_svm.nu_lp(A, C), ck.Status.UNBOUNDED),
                            (lp_svm.nu_lp_dual(A, C), ck.Status.INFEASIBLE)):
            r = ck.solve(f, s)
            assert r.status is expected and not r.ok, (s, f.name, r)
            assert not math.isfinite(r.rel_gap), (s, f.name, r)
    # at the threshold itself (C_rho = float(1/M)) both are solvable and certified
    for f in (lp_svm.nu_lp(A, 1.0 / M), lp_svm.nu_lp_dual(A, 1.0 / M)):
        r = ck.solve(f, "linprog")
        assert r.ok and r.rel_gap <= 10 * RTOL["linprog"], r


@pytest.mark.parametrize("form", ["given", "partner"])
def test_linprog_forms_and_statuses(A_thyroid, form):
    M = A_thyroid.shape[0]
    assert ck.solve(lp_svm.nu_lp(A_thyroid, 0.5 / M), "linprog", form=form).status.value \
        == "unbounded"
    assert ck.solve(lp_svm.nu_lp_dual(A_thyroid, 0.5 / M), "linprog", form=form).status.value \
        == "infeasible"
    r1 = ck.solve(lp_svm.lp(A_thyroid, 2.0), "linprog", form=form, method="highs-ipm")
    r2 = ck.solve(lp_svm.lp(A_thyroid, 2.0), "linprog", form=form, method="highs")
    assert r1.ok and r2.ok and r1.primal_value == pytest.approx(r2.primal_value, rel=1e-8)


def test_linprog_iteration_limit_is_a_status(A_pima):
    r = ck.solve(lp_svm.lp(A_pima, 3.0), "linprog", max_iter=3, form="given", method="highs")
    assert r.status is ck.Status.ITERATION_LIMIT and not r.ok


# ------------------------------------------------------------------ C_min
@pytest.mark.parametrize("solver", ["linprog", "clarabel"])
def test_c_min_against_the_lp(A_balance, solver):
    """C_min of (18) checked against the LP SVM itself.  Just below it (C_M = 0.99 C_min)
    the optimum is the value M C_M of R = 0; just above (1.01 C_min) the LP does better:
    with inputs in [0, 1] every |a_ir| <= 1, and the point R = e_i/max|a| on the column of
    largest sum improves on R = 0 by 0.01/max|a| >= 0.01 (so the assertion's margin 0.005
    is 50x Clarabel's error on a value of ~27).  With every column sum <= 0, C_min = inf
    and R = 0 is optimal even for a large C_M."""
    M = A_balance.shape[0]
    c0 = lp_svm.c_min(A_balance)
    assert 0 < c0 < math.inf and np.abs(A_balance).max() <= 1.0
    below = ck.solve(lp_svm.lp(A_balance, 0.99 * c0), solver)
    above = ck.solve(lp_svm.lp(A_balance, 1.01 * c0), solver)
    assert below.ok and above.ok
    assert below.primal_value == pytest.approx(M * 0.99 * c0, rel=RTOL[solver])
    assert np.abs(below.x["R"]).max() <= 1e-6
    assert above.primal_value <= M * 1.01 * c0 - 0.005
    assert np.abs(above.x["R"]).max() > 1e-3
    neg = -np.abs(A_balance)
    assert lp_svm.c_min(neg) == math.inf
    r = ck.solve(lp_svm.lp(neg, 100.0), solver)
    assert r.ok and r.primal_value == pytest.approx(100.0 * M, rel=RTOL[solver])


# ------------------------------------------------------------------ the transformer
def test_transformer_pipeline_gridsearch():
    from sklearn.model_selection import GridSearchCV
    from sklearn.pipeline import Pipeline
    from sklearn.svm import SVC

    from convexkern.estimators import LPMahalanobis

    ds = load("pima")
    X, y = ds.X[:300], ds.y[:300]
    majority = max(np.mean(y == c) for c in np.unique(y))  # 0.62 on these 300 rows
    pipe = Pipeline([("kernel", LPMahalanobis()), ("svm", SVC(kernel="rbf", gamma=1.0))])
    grid = {"kernel__C_M": [10.0, 100.0], "kernel__delta": [1.0, 10.0], "svm__C": [1.0, 10.0]}
    gs = GridSearchCV(pipe, grid, cv=3).fit(X, y)
    k = gs.best_estimator_.named_steps["kernel"]
    assert k.lp_report_.ok and 0 < k.n_selected_ <= 8
    # clearly above always predicting the majority class: +0.06 is two standard errors
    # of a 300-sample accuracy (measured: 0.733)
    assert gs.best_score_ >= majority + 0.06
    # the transform reproduces the Mahalanobis kernel (1) exactly
    U = k.transform(X[:20])
    D = ((U[:, None, :] - U[None, :, :]) ** 2).sum(-1)
    np.testing.assert_allclose(np.exp(-D), k.gram(X[:20]), rtol=1e-10, atol=1e-12)


def test_transformer_methods_and_fallback():
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    from convexkern.estimators import LPMahalanobis

    ds = load("balance")
    cov = LPMahalanobis(method="covariance").fit(ds.X, ds.y)
    ident = LPMahalanobis(method="identity").fit(ds.X, ds.y)
    np.testing.assert_allclose(ident.R_, 1.0)
    assert cov.R_.sum() == pytest.approx(4.0)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        low = LPMahalanobis(C_M=1e-6).fit(ds.X, ds.y)
    assert low.fallback_ and any(issubclass(x.category, ConvergenceWarning) for x in w)
    for bad in ({"C_M": 0.0}, {"delta": -1.0}, {"method": "sdp"}):
        with pytest.raises(InvalidInputError):
            LPMahalanobis(**bad).fit(ds.X, ds.y)
    with pytest.raises(ValueError):
        LPMahalanobis().fit(np.where(np.arange(625)[:, None] == 3, np.nan, ds.X), ds.y)
    with pytest.raises(InvalidInputError, match="two classes"):
        LPMahalanobis().fit(ds.X, np.zeros(625))
    # two points of two classes: no same-class neighbour anywhere -> an error naming y
    with pytest.raises(InvalidInputError, match="no triplet") as exc:
        LPMahalanobis().fit(np.array([[0.0, 1.0], [1.0, 0.0]]), np.array([0, 1]))
    assert exc.value.argument == "y"


def test_one_vs_rest_learns_one_R_per_class():
    from sklearn.multiclass import OneVsRestClassifier
    from sklearn.pipeline import Pipeline
    from sklearn.svm import SVC

    from convexkern.estimators import LPMahalanobis

    ds = load("balance")
    ova = OneVsRestClassifier(Pipeline([("kernel", LPMahalanobis(C_M=10.0, delta=3.0)),
                                        ("svm", SVC(kernel="rbf", gamma=1.0, C=100.0))]))
    ova.fit(ds.X, ds.y)
    Rs = [e.named_steps["kernel"].R_ for e in ova.estimators_]
    assert len(Rs) == 3 and not np.allclose(Rs[0], Rs[1])
    assert ova.score(ds.X, ds.y) > 0.9


# ------------------------------------------------------------------ the TOML spec
def test_spec_lp_svm_thyroid():
    from convexkern.specs import load_spec

    spec = load_spec("lp_svm_thyroid")
    f = spec.build().formulation
    assert f.kind == "lp_svm.lp" and f.data["A"].shape == (720, 21)
    reps = ck.compare(f, solvers=["linprog", "clarabel"], tol=1e-6)
    assert all(r.ok for r in reps)
    assert reps[1].primal_value == pytest.approx(reps[0].primal_value, rel=1e-6)


# ------------------------------------------------------------------ property: any A
@pytest.mark.parametrize("seed", range(4))
def test_random_A_pairs_agree_and_bracket(seed):
    """Synthetic edge cases (mixed signs, all-negative columns, M < m): the primal and
    dual values agree (strong duality) and every certificate brackets the optimum."""
    rng = np.random.default_rng(seed)
    M, m = rng.integers(3, 40), rng.integers(1, 12)
    A = rng.normal(size=(M, m)) + (0.3 if seed % 2 else -0.3)
    C = float(rng.uniform(0.05, 20))
    p, d = ck.solve(lp_svm.lp(A, C), "linprog"), ck.solve(lp_svm.lp_dual(A, C), "clarabel")
    assert p.ok and d.ok
    assert p.primal_value == pytest.approx(d.primal_value, rel=1e-6, abs=1e-9)
    Cr = 2.0 / M
    q, e = ck.solve(lp_svm.nu_lp(A, Cr), "clarabel"), ck.solve(lp_svm.nu_lp_dual(A, Cr), "linprog")
    assert q.ok and e.ok
    assert q.primal_value == pytest.approx(e.primal_value, rel=1e-6, abs=1e-7)
    for r in (p, d, q, e):
        assert r.gap <= 1e-6 * max(1.0, abs(r.primal_value))


# ------------------------------------------------------------------ the reproduction
@pytest.mark.slow
def test_reproduction_quick_balance(tmp_path):
    from convexkern.reproduce import abe2012
    from convexkern.reproduce.harness import Context

    ctx = Context(name="abe2012", quick=True, out_dir=tmp_path, verbose=False)
    res = abe2012.table1(ctx, datasets=["balance"], quick=True)
    r = res["balance"]
    for method in ("lp", "covariance", "rbf"):
        assert 85.0 < r[method]["rate_mean"] <= 100.0  # Balance: ~96% for every kernel
    assert 1 <= r["lp"]["selected_mean"] <= 4


# ------------------------------------------------------------------ sklearn contract
def _sk_checks():
    from sklearn.utils.estimator_checks import parametrize_with_checks

    from convexkern.estimators import LPMahalanobis

    return parametrize_with_checks([LPMahalanobis()])


@_sk_checks()
def test_sklearn_estimator_checks(estimator, check):
    import warnings

    with warnings.catch_warnings():  # tiny random sets: C_M = 1 is often below C_min
        warnings.simplefilter("ignore")
        check(estimator)


# ---------------------------------------------------------------- foreign exceptions
def test_triplets_extreme_scale_exact_or_refused():
    """X * 2^700 (exact) gives the triplets of X (distances computed on an exactly rescaled
    copy instead of overflowing to inf/nan); its coefficients overflow float64, and
    ``triplet_matrix`` says so naming X instead of an IndexError.  X * 2^-700 likewise
    keeps the triplets (no underflow to all-ties) and refuses the underflowing A."""
    ds = load("balance")
    X, y = ds.X[:60], ds.y[:60]
    T = lp_svm.triplets(X, y)
    for e in (700, -700):
        Xs = np.ldexp(X, e)
        before = Xs.copy()
        np.testing.assert_array_equal(lp_svm.triplets(Xs, y), T)
        with pytest.raises(InvalidInputError, match=r"^X: the coefficients") as exc:
            lp_svm.triplet_matrix(Xs, y)
        assert exc.value.argument == "X"
        assert "overflow" in str(exc.value) if e > 0 else "underflow" in str(exc.value)
        np.testing.assert_array_equal(Xs, before)  # input not modified
    with pytest.raises(InvalidInputError, match=r"^X: .*overflow"):
        lp_svm.triplet_matrix(X * 1e200, y)


@pytest.mark.parametrize("bad, what", [
    ([1, None, 1, 2, 2, 1], "None"),
    (np.array([1, None, 1, 2, 2, 1], dtype=object), "None"),
    ([1, "a", 1, "a", 2, 1], "mixes label types"),
])
def test_triplets_bad_label_values_name_y(bad, what):
    X = np.arange(12.0).reshape(6, 2)
    with pytest.raises(InvalidInputError, match=rf"^y: .*{what}") as exc:
        lp_svm.triplets(X, bad)
    assert exc.value.argument == "y"
    with pytest.raises(InvalidInputError, match=r"^y: "):
        lp_svm.triplet_matrix(X, bad)
