"""Bad options and arguments are library errors that name them: each case here was once a
foreign exception or a misleading name (found by the audit of benchmarks/bad_input_audit.py)."""

from __future__ import annotations

import numpy as np
import pytest

import convexkern as ck
from convexkern.algorithms.linprog_direct import choose
from convexkern.errors import InvalidInputError, InvalidTypeError
from convexkern.formulations import lp_svm, robust_indefinite
from convexkern.solvers import dispatch


def _data(n=14, seed=0):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    return rng.normal(size=(n, 3)) + 0.7 * y[:, None], y


@pytest.mark.parametrize("option, value, exc_type", [
    ("method", "bogus", InvalidInputError),  # was scipy's "ValueError: Unknown solver"
    ("method", 3, InvalidTypeError),
    ("form", "bogus", InvalidInputError),  # was a plain ValueError
    ("form", None, InvalidTypeError),
])
def test_linprog_bad_method_or_form_is_a_library_error_naming_it(option, value, exc_type):
    X, y = _data()
    f = lp_svm.lp(lp_svm.triplet_matrix(X, y), 1.0)
    with pytest.raises(exc_type, match=rf"^{option}: ") as exc:
        ck.solve(f, "linprog", **{option: value})
    assert exc.value.argument == option
    with pytest.raises(exc_type, match=rf"^{option}: "):
        choose(f.kind, f.data["A"].shape, **{option: value})


def test_linprog_valid_methods_and_forms_still_solve():
    X, y = _data()
    f = lp_svm.lp(lp_svm.triplet_matrix(X, y), 1.0)
    values = set()
    for method, form in (("highs", "given"), ("highs-ds", "partner"), ("highs-ipm", "auto")):
        r = ck.solve(f, "linprog", method=method, form=form)
        assert r.status is ck.Status.OPTIMAL, (method, form, r)
        values.add(round(r.primal_value, 6))
    assert len(values) == 1  # the three routes reach one optimum (HiGHS' 1e-7 tolerances)


@pytest.mark.parametrize("solver, option", [("robust_apg", "eig"), ("robust_pg", "step")])
def test_bad_algorithm_option_value_names_the_option(solver, option):
    """An algorithm that refuses an option value with a plain ValueError naming it
    ("eig must be 'rank_one' or 'full'") reaches the user as a library error naming it
    (whether the algorithm or the dispatcher names it)."""
    X, y = _data(12)
    f = robust_indefinite.dual((X @ X.T + 1.0) ** 3, y, 1.0, 1.0)
    with pytest.raises(InvalidInputError, match=rf"^{option}: .*bogus") as e:
        ck.solve(f, solver, **{option: "bogus"})
    assert e.value.argument == option


def test_dispatcher_names_only_an_option_the_message_starts_with(monkeypatch):
    """The dispatcher's translation is narrow: a plain ValueError that does not start with
    an option's name passes through unchanged (it is not blamed on an option)."""
    X, y = _data(12)
    f = robust_indefinite.dual((X @ X.T + 1.0) ** 3, y, 1.0, 1.0)

    def boom(*args, **kwargs):
        raise ValueError("something else went wrong (eig mentioned later)")

    spec = dispatch._resolve(f, "robust_apg")
    monkeypatch.setattr(type(spec), "adapter", lambda self, kind, variant=None: boom)
    with pytest.raises(ValueError, match="^something else") as e:
        ck.solve(f, "robust_apg", eig="full")
    assert not isinstance(e.value, ck.ConvexkernError)


def test_robust_functions_name_a_wrong_length_alpha_and_a_bad_n_train():
    """Foreign exceptions: ``ri.objective/gradient/inner_kernel`` with alpha of
    the wrong length raised numpy's broadcast error; ``predict_kernel(K0, 'a', ...)`` an
    ``int()`` error."""
    from convexkern.errors import InvalidInputError as _Bad
    from convexkern.formulations import robust_indefinite as ri

    rng = np.random.default_rng(0)
    X = rng.normal(size=(6, 2))
    K0 = np.tanh(X @ X.T)
    y = np.array([1.0, -1.0] * 3)
    for fn in (ri.objective, ri.gradient, ri.inner_kernel):
        with pytest.raises(_Bad, match="alpha"):
            fn(K0, y, np.ones(5), 1.0)
    with pytest.raises(InvalidTypeError, match="n_train"):
        ri.predict_kernel(K0, "a", y, np.ones(6), 1.0)
    with pytest.raises(_Bad, match="alpha"):
        ri.predict_kernel(K0, 6, y, np.ones(4), 1.0)


def test_slow_robust_baselines_get_a_default_budget_through_solve(monkeypatch):
    """Runs that do not end: ``ck.compare`` with default solvers on a robust
    problem ran robust_pg/robust_accpm for many minutes.  Without ``time_limit`` and
    ``max_iter`` they get ``BASELINE_BUDGET`` seconds (shrunk here to keep the test short)
    and the message says so; an explicit ``max_iter`` is the caller's budget."""
    from convexkern.algorithms import robust_svm as rs

    monkeypatch.setattr(rs, "BASELINE_BUDGET", 0.3)
    solve_pg = rs._glue(rs.projected_gradient, "robust_pg", "full",
                        default_budget=rs.BASELINE_BUDGET)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=60) > 0, 1.0, -1.0)
    K0 = (X @ X.T + 1.0) ** 3 - 0.5 * np.eye(60)
    f = robust_indefinite.dual(K0, y, 1.0, 1.0)
    r = solve_pg(f, tol=1e-12, max_iter=None, time_limit=None)
    if r.status == "time_limit":
        assert "default budget" in r.message and r.solve_time < 5.0
    else:  # it may also end honestly before the budget (floor, stall)
        assert r.status in ("optimal", "optimal_inaccurate")
    r = solve_pg(f, tol=1e-12, max_iter=3, time_limit=None)
    assert r.status == "iteration_limit" and "default budget" not in r.message


@pytest.mark.parametrize("call", ["oracle", "pg"])
def test_robust_algorithms_called_directly_name_a_bad_option(call):
    """Called directly (not through ck.solve), a bad ``eig=``/``step=`` is a library error
    naming the option too."""
    from convexkern.algorithms import robust_svm as rs

    X, y = _data(12)
    K0 = (X @ X.T + 1.0) ** 3
    with pytest.raises(InvalidInputError, match="bogus") as e:
        if call == "oracle":
            rs.RobustOracle(K0, y, 1.0, 1.0, eig="bogus")
        else:
            rs.projected_gradient(K0, y, 1.0, 1.0, step="bogus")
    assert e.value.argument == ("eig" if call == "oracle" else "step")
