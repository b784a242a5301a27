"""Limits and options as a user meets them (a review of the twenty-first session): a
solver stopped by its iteration cap keeps its last iterate, HiGHS keeps a caller's cap
on an LP, a solver whose set-up may not fit before the deadline is watched, bad solver
settings are library errors naming them, and complex parameters are taken as cvxpy takes
them."""

from __future__ import annotations

import warnings

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp

import convexkern as ck
from convexkern.errors import InvalidInputError
from convexkern.report import Status
from convexkern.solvers.table import CONIC


def _box_lp(n: int = 300, m: int = 150):
    """``min c'x`` over ``A x <= b, 0 <= x <= 1`` (feasible at 0, bounded by the box)."""
    rng = np.random.default_rng(0)
    A = sp.random(m, n, density=0.01, random_state=0, format="csr")
    b = A @ rng.random(n) + 0.1
    c = rng.standard_normal(n)
    x = cp.Variable(n, name="x")
    return cp.Problem(cp.Minimize(c @ x), [A @ x <= b, x >= 0, x <= 1])


def _reference(problem_builder) -> float:
    p = problem_builder()
    p.solve(solver="HIGHS")
    return float(p.value)


@pytest.mark.skipif("scs" not in CONIC, reason="scs is not installed")
def test_an_scs_stop_on_its_cap_is_an_iteration_limit_with_its_last_iterate():
    """SCS stopped by ``max_iters`` guessing "unbounded (inaccurate)": cvxpy unpacks no
    values for that word, and the report was an ``error`` with the iterate lost."""
    ref = _reference(_box_lp)
    r = ck.solve(ck.from_cvxpy(_box_lp()), "scs", max_iter=3)
    assert r.status is Status.ITERATION_LIMIT
    assert r.iterations == 3
    assert "x" in r.x
    lo, hi = sorted((r.primal_value, r.dual_value))
    assert lo <= ref <= hi


@pytest.mark.skipif("highs" not in CONIC, reason="highs is not installed")
def test_highs_keeps_a_callers_cap_on_an_lp():
    """``max_iter`` capped only HiGHS's QP count: an LP ran its 750 simplex steps."""
    ref = _reference(_box_lp)
    r = ck.solve(ck.from_cvxpy(_box_lp()), "highs", max_iter=1)
    assert r.status is Status.ITERATION_LIMIT
    assert r.iterations <= 1
    lo, hi = sorted((r.primal_value, r.dual_value))
    assert lo <= ref <= hi
    assert ck.solve(ck.from_cvxpy(_box_lp()), "highs").status is Status.OPTIMAL


@pytest.mark.parametrize("solver", ["scs", "osqp", "clarabel"])
def test_a_random_sparse_pattern_is_watched_under_a_short_limit(solver):
    """A random sparse LP (1500 x 3000, 45,000 entries): its set-up took 0.16-0.78 s on
    these solvers where the LDL's lower estimate says 0.002 s (the pattern fills the
    factor), and ``time_limit=0.5`` returned after 0.7 s.  The pessimistic rate per
    stored entry of the constraint rows has it watched; a small SVM dual with a dense
    ``P`` (counted by the LDL estimate) and a long limit are not."""
    spec = CONIC.get(solver)
    if spec is None:
        pytest.skip(f"{solver} is not installed")
    big = _box_lp(3000, 1500).get_problem_data(spec.cvxpy_name)[0]
    assert spec.watch(big, 0.5)
    assert not spec.watch(big, 60.0)
    x = cp.Variable(40)
    small = cp.Problem(cp.Minimize(cp.sum_squares(x - 1.0)), [x >= 0]).get_problem_data(
        spec.cvxpy_name)[0]
    assert not spec.watch(small, 0.5)
    if solver == "scs":
        # and its own limit, which counts from the end of that set-up, is shortened by the
        # same estimate (by the LDL's alone, 0.002 s, SCS ended at 1.06-1.09 T)
        from convexkern.solvers.backends.base import ldl_seconds

        assert ldl_seconds(big) < 0.01
        assert spec.setup_seconds(big) == spec.set_up_may_take(big) >= 0.1


@pytest.mark.parametrize("solver, settings", [
    ("clarabel", {"direct_solve_method": "nope"}),  # Clarabel's bare Exception
    ("scs", {"eps_abs": "x"}),  # "must be real number, not str": no name
    ("scs", {"acceleration_lookback": 1.5}),
    ("ecos", {"abstol": "x"}),
    ("ecos", {"max_iters": 1.5}),
    ("qoco", {"abstol": "x"}),
])
def test_a_setting_a_solver_refuses_is_a_library_error_naming_the_options(solver, settings):
    if solver not in CONIC:
        pytest.skip(f"{solver} is not installed")
    x = cp.Variable(3)
    f = ck.from_cvxpy(cp.Problem(cp.Minimize(cp.sum_squares(x - 1.0) + cp.norm1(x)),
                                 [x >= 0]))
    with pytest.raises(InvalidInputError, match=r"^options: ") as exc:
        ck.solve(f, solver, **settings)
    assert exc.value.argument == "options"
    assert str(sorted(settings)) in str(exc.value)


def test_verbose_max_iter_and_time_limit_are_checked():
    x = cp.Variable(2)
    f = ck.from_cvxpy(cp.Problem(cp.Minimize(cp.sum_squares(x - 1.0))))
    with pytest.raises(InvalidInputError, match="^verbose: "):
        ck.solve(f, "clarabel", verbose="yes")
    with pytest.raises(InvalidInputError, match="^max_iter: .*32-bit"):
        ck.solve(f, "clarabel", max_iter=10**30)
    with pytest.raises(InvalidInputError, match="^time_limit: "):
        ck.solve(f, "clarabel", time_limit=np.float64("nan"))
    # numpy numbers are numbers
    assert ck.solve(f, "clarabel", time_limit=np.int64(5), max_iter=np.int32(50),
                    verbose=np.bool_(False)).status is Status.OPTIMAL


def test_a_complex_parameter_is_taken_as_cvxpy_takes_it():
    """A complex scalar parameter was refused ("must be a number"); a real parameter
    given a complex value with an imaginary part is refused by name instead of having
    it dropped."""
    a = cp.Parameter(complex=True, name="a")
    a.value = 1 + 2j
    x = cp.Variable(name="x")
    prob = cp.Problem(cp.Minimize(cp.abs(x - cp.real(a)) + cp.square(x)))
    r = ck.solve(ck.from_cvxpy(prob), "clarabel")
    assert r.status is Status.OPTIMAL
    assert r.dual_value <= 0.75 <= r.primal_value  # x = 1/2: 1/2 + 1/4
    assert r.params["a"] == 1 + 2j
    b = cp.Parameter(name="b")
    f = ck.from_cvxpy(cp.Problem(cp.Minimize(cp.square(x - b))))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's ComplexWarning: nothing is dropped
        with pytest.raises(InvalidInputError, match="^b: must be real"):
            f.set_params(b=1 + 2j)


def test_a_report_with_a_complex_parameter_is_written_as_json():
    import json

    a = cp.Parameter(complex=True, name="a")
    a.value = 1 + 2j
    x = cp.Variable(name="x")
    r = ck.solve(ck.from_cvxpy(cp.Problem(cp.Minimize(cp.square(x - cp.real(a))))),
                 "clarabel")
    assert json.loads(json.dumps(r.to_dict()))["param_a"] == "(1+2j)"


@pytest.mark.skipif("qoco" not in CONIC, reason="qoco is not installed")
def test_a_setting_qoco_would_ignore_is_refused():
    """QOCO sets the attributes it knows and ignores the others: ``foo=1`` solved as if
    not given (Clarabel, SCS and ECOS refuse it themselves)."""
    x = cp.Variable(3)
    f = ck.from_cvxpy(cp.Problem(cp.Minimize(cp.sum_squares(x - 1.0)), [x >= 0]))
    with pytest.raises(InvalidInputError, match=r"^options: qoco has no setting \['foo'\]"):
        ck.solve(f, "qoco", foo=1)
    r = ck.solve(f, "qoco", max_iters=50, ruiz_iters=2)  # known ones are taken
    assert r.status in (Status.OPTIMAL, Status.OPTIMAL_INACCURATE)
    assert r.dual_value <= 0.0 <= r.primal_value  # x = 1


def _small_svm():
    from convexkern.formulations import svm
    from convexkern.kernels import RBF

    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    return svm.dual(RBF(gamma=0.5)(X), y, C=1.0)


@pytest.mark.parametrize("solver", ["ecos", "qoco", "scs", "smo"])
def test_a_huge_time_limit_is_no_limit(solver):
    """``time_limit=1e10`` (accepted) made the watched ECOS and QOCO fail: the wait
    handed to ``select`` overflowed ``time_t``."""
    f = _small_svm()
    if solver not in ck.available_solvers(f):
        pytest.skip(f"{solver} is not installed")
    assert ck.solve(f, solver, time_limit=1e10).status is Status.OPTIMAL


def test_compare_and_path_name_a_bad_argument():
    """``compare(f, [])`` returned an empty table, ``compare(f, [None])`` raised
    AttributeError, ``path(f, ['C'], ...)`` TypeError, and ``path(..., x0=...)`` a
    duplicate keyword; ``x0`` is now the first solve's warm start."""
    from convexkern.errors import InvalidTypeError

    f = _small_svm()
    with pytest.raises(InvalidInputError, match="^solvers: is empty"):
        ck.compare(f, [])
    with pytest.raises(InvalidTypeError, match="^solvers: "):
        ck.compare(f, [None])
    with pytest.raises(InvalidTypeError, match="^param: "):
        ck.path(f, ["C"], [1.0])
    first = ck.solve(f, "smo")
    table = ck.path(f, "C", [1.0, 2.0], x0=dict(first.x))
    assert [r.status for r in table] == [Status.OPTIMAL, Status.OPTIMAL]


@pytest.mark.parametrize("solver", ["robust_apg", "robust_pg", "robust_accpm"])
def test_a_bad_robust_warm_start_is_named_as_the_warm_start(solver):
    """``x0['alpha']`` of the wrong length was reported as "y: has 5 labels but the data
    has 3 rows", a NaN one as "v: contains non-finite values"; both now name the warm
    start."""
    from convexkern.errors import InvalidInputError
    from convexkern.formulations import robust_indefinite as ri

    rng = np.random.default_rng(0)
    X = rng.standard_normal((5, 2))
    g = ri.dual(np.tanh(X @ X.T), np.array([1.0, -1, 1, -1, 1]), C=1.0, rho=1.0)
    for bad in (np.ones(3), np.full(5, np.nan)):
        with pytest.raises(InvalidInputError, match=r"^x0\['alpha'\]"):
            ck.solve(g, solver, x0={"alpha": bad})
