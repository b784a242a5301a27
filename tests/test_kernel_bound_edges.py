"""The kernels' entrywise error bounds at the edges of the double range, against exact
values of the stored doubles (a review of the twenty-first session): products that
underflow err by an absolute amount Higham's relative bound leaves out, which ``gamma``
near the overflow threshold makes visible, and a certificate resting on the bound then
missed the optimum."""

from __future__ import annotations

from decimal import Decimal, getcontext
from fractions import Fraction

import numpy as np
import pytest

import convexkern as ck
from convexkern.errors import InvalidInputError
from convexkern.formulations import svm
from convexkern.kernels import RBF, Gaussian, Linear

_A = 3.8348249442449526e-157  # a * a is subnormal


def _rbf_pair(d: int, gamma: float) -> tuple[np.ndarray, Decimal]:
    """Two points ``+-a e`` (mean exactly 0, so the centred points are the points) and
    the exact kernel of the stored doubles, ``exp(-gamma 4 d a^2)``, to 60 digits."""
    getcontext().prec = 60
    X = np.vstack([np.full(d, _A), np.full(d, -_A)])
    D = 4 * d * Fraction(_A) ** 2
    return X, (-(Decimal(gamma) * (Decimal(D.numerator) / Decimal(D.denominator)))).exp()


@pytest.mark.parametrize("d", [10, 1000])
def test_the_rbf_bound_covers_products_that_underflow(d):
    """``gamma = 1.7e308``: the entry was 7 (d = 10) and 47 (d = 1000) times its bound
    off the exact kernel."""
    X, exact = _rbf_pair(d, 1.7e308)
    k = RBF(gamma=1.7e308)
    delta = k.gram_error(X)
    rows = k.gram_rows(X)
    assert rows.entry_error == delta
    for value in (k(X)[0, 1], rows.row(0)[1], rows.full()[0, 1]):
        assert abs(Decimal(float(value)) - exact) <= Decimal(delta)


def test_a_certificate_on_those_rows_holds_the_optimum():
    """The SVM dual on ``K* = [[1, k], [k, 1]]`` with ``C = 1``: ``alpha* = (1, 1)`` and the
    optimum is ``1 + k`` exactly; the bracket was ``optimal`` 5.8e-13 above it."""
    X, k_exact = _rbf_pair(1000, 1.7e308)
    opt = 1 + k_exact
    r = ck.solve(svm.dual(RBF(gamma=1.7e308).gram_rows(X), np.array([1.0, -1.0]), 1.0))
    lo, hi = sorted((r.primal_value, r.dual_value))
    assert Decimal(lo) <= opt <= Decimal(hi)


def test_the_linear_bound_covers_products_that_underflow():
    X = np.full((2, 1000), _A)
    exact = 1000 * Fraction(_A) ** 2
    K = Linear()(X)
    assert abs(Fraction(float(K[0, 1])) - exact) <= Fraction(Linear().gram_error(X))


@pytest.mark.parametrize("sigma", [1e-170, 1e200])
def test_a_gaussian_bandwidth_outside_the_double_range_is_named(sigma):
    """``1 / (2 sigma^2)`` raised ZeroDivisionError and OverflowError."""
    with pytest.raises(InvalidInputError, match="^sigma: "):
        Gaussian(sigma=sigma)
