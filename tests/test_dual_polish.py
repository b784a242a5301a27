"""The dual polish's iterative first try (``fix.dual_polish``): where a dense QR of the
polish's system would cost more than four times LSQR's iterations, LSQR goes first and
is kept only when it leaves the residual at its rounding level; otherwise the dense steps
follow from the same point, as before."""

from __future__ import annotations

import warnings

import cvxpy as cp
import numpy as np
import pytest

import convexkern as ck
from convexkern.math.conic import fix
from tests.test_generic_exp import _klr_problem


def _linear_svm(n: int = 2000, d: int = 50) -> cp.Problem:
    """The hinge-loss linear SVM a user writes (``pos``, ``sum_squares``)."""
    r = np.random.default_rng(4)
    X = r.standard_normal((n, d))
    y = np.sign(X @ r.standard_normal(d) + 0.5 * r.standard_normal(n))
    w, b = cp.Variable(d), cp.Variable()
    return cp.Problem(cp.Minimize(cp.sum(cp.pos(1 - cp.multiply(y, X @ w + b))) / n
                                  + 0.01 * cp.sum_squares(w)))


def _solve(problem: cp.Problem, solver: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ck.solve(ck.from_cvxpy(problem, "p"), solver)


def _counting(monkeypatch, name: str) -> list:
    calls: list = []
    real = getattr(fix, name)

    def counted(*a, **k):
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(fix, name, counted)
    return calls


@pytest.mark.parametrize("solver", ["clarabel", "osqp"])
def test_lsqr_first_certifies_a_linear_svm_without_the_dense_factorisation(solver,
                                                                          monkeypatch):
    lsqr = _counting(monkeypatch, "sparse_least_squares")
    dense = _counting(monkeypatch, "least_squares")
    r = _solve(_linear_svm(), solver)
    assert r.status.value == "optimal", r.message
    assert lsqr and not dense  # LSQR reached the rounding level: no dense QR
    # the dense path alone (LSQR priced out): the same status, a bracket as tight
    monkeypatch.setattr(fix, "_LSQR_STEPS", 10**9)
    r_dense = _solve(_linear_svm(), solver)
    assert dense
    assert r_dense.status is r.status
    assert r.rel_gap <= max(2.0 * r_dense.rel_gap, 1e-12)
    # each bracket holds the other's (both certified: they bracket the one optimum)
    assert r.dual_value <= r_dense.primal_value and r_dense.dual_value <= r.primal_value


def test_an_lsqr_try_that_misses_the_rounding_level_leaves_the_dense_steps_as_they_were(
        monkeypatch):
    """Kernel logistic regression's system is ill-conditioned: LSQR (forced to be tried,
    with few iterations) does not reach the rounding level, and the dense steps then
    give, from the same point, the same bounds bit for bit as without the try."""
    plain = _solve(_klr_problem(120), "clarabel")
    lsqr = _counting(monkeypatch, "sparse_least_squares")
    monkeypatch.setattr(fix, "_LSQR_STEPS", 3)  # cheap enough to be tried first
    tried = _solve(_klr_problem(120), "clarabel")
    assert lsqr, "the LSQR try was not made: the test would be vacuous"
    assert (tried.status, tried.dual_value, tried.primal_value) == (
        plain.status, plain.dual_value, plain.primal_value)


def test_an_lsqr_step_short_of_the_rounding_level_is_followed_by_the_dense_steps(
        monkeypatch):
    """An LSQR that only halves the residual (its solution halved here) improves the
    point but leaves it above the rounding level: the dense steps must still run, and
    the certificate is as tight as LSQR's full solution makes it."""
    real = fix.sparse_least_squares

    def half(*a, **k):
        solve = real(*a, **k)
        return lambda r: 0.5 * solve(r)

    monkeypatch.setattr(fix, "sparse_least_squares", half)
    dense = _counting(monkeypatch, "least_squares")
    r = _solve(_linear_svm(), "clarabel")
    assert dense, "the dense steps did not follow a step short of the rounding level"
    assert r.status.value == "optimal", r.message
