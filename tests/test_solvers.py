"""The solver table (data, lazy adapters, a user's registration) and the one status map."""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np
import pytest

import convexkern as ck
from convexkern.formulations import svm
from convexkern.solvers import algorithm_status, certified_report, cvxpy_status, table
from convexkern.solvers.status import ALGORITHM_STATUS

X = np.array([[0.0, 0.0], [1.0, 0.2], [0.1, 1.0], [1.2, 1.1]])
Y = np.array([-1.0, -1.0, 1.0, 1.0])


def test_cvxpy_statuses_map_once():
    assert cvxpy_status("optimal") is ck.Status.OPTIMAL
    assert cvxpy_status("infeasible_inaccurate") is ck.Status.INFEASIBLE
    iou = cvxpy_status("infeasible_or_unbounded")
    assert iou is ck.Status.INFEASIBLE_OR_UNBOUNDED and not iou.has_solution
    assert cvxpy_status(None) is ck.Status.ERROR
    assert cvxpy_status("a status cvxpy never had") is ck.Status.ERROR


def test_algorithm_words_map_once():
    # a point that stalled or failed a final check is a solution short of tol, not optimal
    for word in ("stalled", "krein_stationary", "inaccurate"):
        assert algorithm_status(word) is ck.Status.OPTIMAL_INACCURATE
    assert algorithm_status("interrupted") is ck.Status.ERROR
    assert algorithm_status("no such word") is ck.Status.ERROR
    assert {algorithm_status(w) for w in ("iteration_limit", "time_limit")} == {
        ck.Status.ITERATION_LIMIT, ck.Status.TIME_LIMIT}
    assert set(ALGORITHM_STATUS.values()) <= set(ck.Status)


def test_table_is_read_only():
    with pytest.raises(TypeError):
        table.ALGORITHMS["mine"] = None  # type: ignore[index]
    with pytest.raises(TypeError):
        table.ALGORITHMS["smo"].adapters["svm.dual"] = None  # type: ignore[index]


def test_a_users_solver_joins_the_table_and_is_certified(clean_table):
    calls = []

    @ck.register_solver("mine", kinds=["svm.dual"], default_tol=1e-3, description="test")
    def solve_mine(f, *, tol, max_iter, time_limit, verbose=False, x0=None, **options):
        calls.append(tol)
        ref = ck.solve(f, "clarabel", tol=1e-9)
        return certified_report(f, {"alpha": ref.x["alpha"]}, solver="mine",
                                status=algorithm_status("optimal"), tol=tol, solve_time=0.0)

    f = svm.dual(X @ X.T, Y, C=1.0)
    assert "mine" in ck.available_solvers(f)
    r = ck.solve(f, "mine")
    assert calls == [1e-3] and r.solver == "mine" and r.ok and r.rel_gap <= 1e-3
    info = {row["name"]: row for row in ck.solver_info()}
    assert info["mine"]["solves"] == "svm.dual" and info["mine"]["description"] == "test"


def test_registration_merges_kinds_and_refuses_clashes(clean_table):
    def a(f, **kw):
        raise AssertionError("not called")

    def b(f, **kw):
        raise AssertionError("not called")

    ck.register_solver("two", kinds=["k.one"])(a)
    ck.register_solver("two", kinds=["k.two"])(b)
    spec = table.ALGORITHMS["two"]
    assert spec.kinds == {"k.one", "k.two"}
    assert spec.adapter("k.one") is a and spec.adapter("k.two") is b
    with pytest.raises(ck.InvalidInputError, match="already registered"):
        ck.register_solver("two", kinds=["k.one"])(b)
    with pytest.raises(ck.InvalidInputError, match="conic solver"):
        ck.register_solver("clarabel", kinds=["k.one"])
    with pytest.raises(ck.InvalidInputError, match="kinds"):
        ck.register_solver("three", kinds=[])
    # a built-in algorithm gains a kind without losing its own
    ck.register_solver("smo", kinds=["k.three"])(a)
    assert {"svm.dual", "svm.primal", "k.three"} <= table.ALGORITHMS["smo"].kinds


def test_tol_is_checked_once_for_every_solver():
    f = svm.dual(X @ X.T, Y, C=1.0)
    for bad in (0.0, 1.0, -1e-3, float("nan")):
        with pytest.raises(ck.InvalidInputError, match="tol: must be a number in"):
            ck.solve(f, "smo", tol=bad)
    with pytest.raises(ck.InvalidTypeError, match="tol"):
        ck.solve(f, "clarabel", tol="1e-6")


def test_bad_arguments_to_dispatch_are_library_errors_naming_them():
    """Foreign exceptions once: each becomes a library error naming the argument."""
    f = svm.dual(X @ X.T + 0.1 * np.eye(4), Y, C=1.0)
    with pytest.raises(ck.InvalidTypeError, match="^solvers:"):
        ck.compare(f, 5)
    with pytest.raises(ck.InvalidTypeError, match="^solvers:"):
        ck.compare(f, "smo")
    for bad, err in ((None, ck.InvalidTypeError), (1.0, ck.InvalidTypeError),
                     ("12", ck.InvalidTypeError), (["a"], ck.InvalidTypeError),
                     ([[1.0, 2.0]], ck.InvalidInputError), ([], ck.InvalidInputError),
                     ([1.0, float("nan")], ck.InvalidInputError)):
        with pytest.raises(err, match="^values:"):
            ck.path(f, "C", bad)
    assert f.parameters["C"].value == 1.0  # nothing was solved or changed
    for solver in ("smo", "clarabel", "scs"):
        with pytest.raises(ck.InvalidInputError, match=rf"^options: {solver} does not take"):
            ck.solve(f, solver, foo=1)


def test_linprog_refuses_unknown_options():
    from convexkern.formulations import lp_svm

    A = np.abs(np.random.default_rng(0).normal(size=(12, 3)))
    with pytest.raises(ck.InvalidInputError, match="^options: linprog does not take"):
        ck.solve(lp_svm.lp(A, 1.0), "linprog", foo=1)


def test_smo_stopped_before_its_first_step_certifies_alpha_zero():
    """time_limit so small that SMO never steps: alpha = 0 is feasible and certified
    (a time_limit status with a valid bracket), not a numpy error.  Through ``ck.solve``
    the call's deadline has passed before the certificate could begin: the point comes
    back as a time limit, unproved (the certificate is not run past the deadline)."""
    f = svm.dual(X @ X.T + 0.1 * np.eye(4), Y, C=1.0)
    r = ck.solve(f, "smo", time_limit=1e-12)
    assert r.status is ck.Status.TIME_LIMIT and np.all(r.x["alpha"] == 0.0)
    assert "no time was left for the certificate" in r.message
    # the adapter alone (no caller's deadline): the same point, certified
    r = table.ALGORITHMS["smo"].adapter("svm.dual")(f, tol=1e-6, max_iter=None,
                                                     time_limit=1e-12)
    assert r.status is ck.Status.TIME_LIMIT
    assert r.primal_value == 0.0 and np.all(r.x["alpha"] == 0.0)
    ref = ck.solve(f, "clarabel", tol=1e-9)
    assert r.primal_value <= ref.primal_value <= r.dual_value * (1 + 1e-9)


def test_a_claim_the_formulation_refutes_is_never_a_status(clean_table):
    """'infeasible'/'unbounded' from a solver on a problem the builder
    proves feasible and bounded is reported as an error with both reasons; a claim the
    facts do not refute (the hard-margin dual may be unbounded) stands."""
    for status in (ck.Status.INFEASIBLE, ck.Status.UNBOUNDED, ck.Status.INFEASIBLE_OR_UNBOUNDED):
        @ck.register_solver(f"liar_{status.value}", kinds=["svm.dual"])
        def liar(f, *, tol, max_iter, time_limit, verbose=False, x0=None, _s=status, **kw):
            return ck.SolveReport(status=_s, solver="liar", formulation=f.name)

        r = ck.solve(svm.dual(X @ X.T, Y, C=1.0), f"liar_{status.value}")
        assert r.status is ck.Status.ERROR and "refuted by the formulation" in r.message
        assert "alpha = 0 is feasible" in r.message or "bounds the objective" in r.message
    # the hard margin: bounded only if the classes are separable, which an LP witness
    # (checked with a rounding bound) proves; XOR is not linearly separable
    xor, yx = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]]), Y
    hard = ck.solve(svm.dual(xor @ xor.T, yx, C=None), "liar_unbounded")
    assert hard.status is ck.Status.UNBOUNDED  # true, and nothing refutes it
    sep = ck.solve(svm.dual(X @ X.T, Y, C=None), "liar_unbounded")
    assert sep.status is ck.Status.ERROR and "the classes are separable" in sep.message
    hard = ck.solve(svm.dual(xor @ xor.T, yx, C=None), "liar_infeasible")
    assert hard.status is ck.Status.ERROR  # alpha = 0 is feasible for every C


def test_hard_margin_claims_at_extreme_scales_are_checked():
    """item 2, found by tests/test_fuzz.py: on separable data scaled by 1e-6
    (or 1e6) conic solvers called the hard-margin dual 'unbounded' and its primal
    'infeasible'; the checked separating witness refutes both."""
    rng = np.random.default_rng(0)
    y = np.where(np.arange(16) % 2 == 0, 1.0, -1.0)
    Xs = 1e-6 * (rng.normal(size=(16, 3)) + 0.7 * y[:, None])
    ref = ck.solve(svm.dual(Xs @ Xs.T, y, C=None), "smo")
    assert ref.status is ck.Status.OPTIMAL  # a finite optimum (~4e13) exists
    for f in (svm.dual(Xs @ Xs.T, y, C=None), svm.primal(Xs, y, C=None)):
        for solver in ("clarabel", "scs"):
            r = ck.solve(f, solver)
            assert r.status not in (ck.Status.INFEASIBLE, ck.Status.UNBOUNDED), (solver, r)


@pytest.mark.parametrize("C", [3e7, 1e12])
def test_feasible_bounded_svm_at_huge_C_is_never_infeasible_or_unbounded(C):
    rng = np.random.default_rng(0)
    Xr = rng.normal(size=(40, 3))
    yr = np.where(Xr[:, 0] + 0.3 * rng.normal(size=40) > 0, 1.0, -1.0)
    K = ck.kernels.RBF(gamma=0.5)(Xr)
    for f in (svm.dual(K, yr, C), svm.primal(Xr, yr, C)):
        for s in ck.available_solvers(f):
            if s not in ("clarabel", "scs", "smo", "highs", "ecos"):
                continue
            # SMO on the linear primal at a huge C needs millions of steps (its default
            # budget, 1e7, takes a minute): a smaller cap keeps this test about statuses
            r = ck.solve(f, s, max_iter=20_000 if s == "smo" else None)
            assert r.status not in (ck.Status.INFEASIBLE, ck.Status.UNBOUNDED,
                                    ck.Status.INFEASIBLE_OR_UNBOUNDED), (f.name, s, r)


def test_a_solver_refines_once_when_a_small_objective_misses_tol():
    """Clarabel's tolerances are absolute, so at |opt| ~ 5e-5 its
    'optimal' at settings tol/10 certifies only ~1e-6 relative; it is re-solved once at
    settings tighter by the shortfall (at most 1000 times) and the report says so (and is
    certified optimal)."""
    rng = np.random.default_rng(0)
    Xs = rng.normal(size=(60, 3))
    ys = np.where(Xs[:, 0] > 0, 1.0, -1.0)
    f = svm.dual(1e4 * (Xs @ Xs.T), ys, 1e-6)
    r = ck.solve(f, "clarabel")
    assert r.solver_stats.get("refined") and r.solver_stats["first_rel_gap"] > r.tol
    assert r.status is ck.Status.OPTIMAL and r.rel_gap <= r.tol and "re-solved" in r.message
    # a user's own accuracy setting is respected: no second solve
    own = ck.solve(f, "clarabel", tol_feas=1e-9)
    assert not own.solver_stats.get("refined")
    # SCS is refined too (every solver whose settings are tolerances): the second run
    # at tighter settings improves what its first "optimal" certified
    scs = ck.solve(f, "scs")
    assert scs.solver_stats.get("refined") and "re-solved" in scs.message
    assert scs.rel_gap < scs.solver_stats["first_rel_gap"]


def test_a_re_solve_is_as_much_tighter_as_the_first_gap_misses_tol():
    """The refined settings: a tenfold margin on the shortfall, between 10 and 1000
    times tighter; an open bound (infinite gap) or no gap at all asks for 1000."""
    from convexkern.solvers import TOLERANCE as T

    assert T.refined(1e-5, 2.5) == pytest.approx(4e-7)
    assert T.refined(1e-5, 1.01) == pytest.approx(1e-5 * 0.1 / 1.01)
    assert T.refined(1e-5, 0.5) == pytest.approx(1e-6)  # at least tenfold
    assert T.refined(1e-5, 1e6) == pytest.approx(1e-8)  # at most 1000-fold
    assert T.refined(1e-5, math.inf) == pytest.approx(1e-8)
    assert T.refined(1e-5, math.nan) == pytest.approx(1e-8)
    assert T.refined(1e-12) == T.refine_floor


def test_a_gap_measured_as_absolute_says_so():
    """A tiny SVM dual is judged against its certificate's scale ``sum(alpha)`` (a
    relative gap, no note); a certificate that gives no scale has its gap compared as an
    absolute one, and the report says so."""
    from convexkern.report import Certificate

    f = svm.dual(1e-12 * (X @ X.T) + 1e-13 * np.eye(4), Y, C=1e-12)
    r = ck.solve(f, "smo")
    assert max(abs(r.primal_value), abs(r.dual_value)) < 1e-9
    assert "absolute gap" not in r.message
    assert r.rel_gap == pytest.approx(abs(r.dual_value - r.primal_value) / max(
        abs(r.primal_value), abs(r.dual_value)), rel=1e-6)
    x = cp.Variable(name="x")

    def unscaled(f, point):  # a hand certificate without a scale, around 1e-12
        v = float(point["x"])
        return Certificate(primal_value=v, dual_value=1e-12, sense="minimize", point=point)

    g = ck.Formulation(name="tiny", problem=cp.Problem(cp.Minimize(x), [x >= 1e-12]),
                       variables={"x": x}, parameters={}, source="", kind="tiny", data={},
                       certify=unscaled)
    r = ck.solve(g, "clarabel")
    assert max(abs(r.primal_value), abs(r.dual_value)) < 1e-9
    assert "compared with tol as an absolute gap" in r.message


def test_a_bad_warm_start_is_named_x0():
    """A wrong-length warm start was reported as 'y: ...' by the data it met later."""
    f = svm.dual(X @ X.T + 0.1 * np.eye(4), Y, C=1.0)
    with pytest.raises(ck.InvalidInputError, match=r"^x0\['alpha'\]: has 3 entries"):
        ck.solve(f, "smo", x0={"alpha": np.zeros(3)})
    with pytest.raises(ck.InvalidTypeError, match="^x0:"):
        ck.solve(f, "smo", x0=[0.0, 0.0, 0.0, 0.0])
    r = ck.solve(f, "smo", x0={"alpha": np.zeros(4)})
    assert r.ok


def test_cvxpy_inaccuracy_warning_stays_inside_the_report():
    """cvxpy's 'Solution may be inaccurate' UserWarning is not passed on: the report's
    status and certified gap say it with numbers."""
    import warnings

    f = svm.dual(X @ X.T + 0.1 * np.eye(4), Y, C=1.0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = ck.solve(f, "scs", max_iter=3)
    assert r.status is not ck.Status.OPTIMAL
    assert not [w for w in caught if "Solution may be inaccurate" in str(w.message)]


def test_default_compare_skips_a_psd_cone_beyond_a_solvers_reach(monkeypatch):
    """ck.compare(f) on a robust problem ran Clarabel on its (n+1)-PSD cone for
    minutes at n = 150.  By default a conic solver is tried only up to its
    max_psd_side (Clarabel: 90); the skipped row says why, and naming it runs it."""
    from dataclasses import replace

    from convexkern.formulations import robust_indefinite as ri

    assert table.CONIC["clarabel"].max_psd_side == 90
    monkeypatch.setitem(table._conic, "clarabel",
                        replace(table._conic["clarabel"], max_psd_side=3))  # n + 1 = 5 > 3
    f = ri.dual(X @ X.T - 0.5 * np.eye(4), Y, C=1.0, rho=1.0)
    rows = {r.solver: r for r in ck.compare(f)}
    skipped = rows["clarabel"]
    assert skipped.status is ck.Status.SKIPPED and not skipped.status.has_solution
    assert "5 x 5 PSD cone" in skipped.message and "solvers=[...]" in skipped.message
    assert rows["robust_apg"].ok and rows["scs"].status.has_solution
    named = ck.compare(f, solvers=["clarabel"])
    assert named[0].status is ck.Status.OPTIMAL


def test_robust_claims_of_infeasibility_are_refuted():
    """The conic form (6) of the robust SVM is feasible (K = I, t = n) and bounded below
    by 0: Clarabel's 'infeasible' on a 1e6-scaled polynomial kernel (found by
    benchmarks/reliability.py) is an error, never a status of the problem."""
    from convexkern.formulations import robust_indefinite as ri

    f = ri.dual(X @ X.T - 0.5 * np.eye(4), Y, C=1.0, rho=1.0)
    assert set(f.facts) == {"feasible", "bounded"}

    @ck.register_solver("liar_robust", kinds=["robust_indefinite"])
    def liar(f, **kw):
        return ck.SolveReport(status=ck.Status.INFEASIBLE, solver="liar", formulation=f.name)

    try:
        r = ck.solve(f, "liar_robust")
    finally:
        from convexkern.solvers import table

        table._algorithms.pop("liar_robust")
    assert r.status is ck.Status.ERROR and "K = I, t = n" in r.message


def test_tol_below_double_precision_is_refused_not_run_to_a_budget():
    """robust_pg at tol = 1e-16 ran its whole budget (minutes); no certificate in double
    precision proves a relative gap that small, so the request is refused."""
    from convexkern.solvers import TOLERANCE

    TOL_FLOOR = TOLERANCE.tol_floor

    f = svm.dual(X @ X.T + 0.1 * np.eye(4), Y, C=1.0)
    for bad in (1e-16, 0.5 * TOL_FLOOR):
        with pytest.raises(ck.InvalidInputError, match="^tol: must be >= 1e-14"):
            ck.solve(f, "smo", tol=bad)
    assert ck.solve(f, "clarabel", tol=TOL_FLOOR).status.has_solution
