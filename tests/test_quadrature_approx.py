"""cvxpy gives ``quantum_rel_entr`` (so ``quantum_cond_entr``), ``von_neumann_entr`` with
``quad_approx`` and the cones ``RelEntrConeQuad`` / ``OpRelEntrConeQuad`` to the solver
as second-order or PSD cones from a Gauss-Legendre quadrature of the logarithm.  Before,
the certificate bounded that form: ``min quantum_rel_entr(X, I)`` over ``0.01 <= X <= 5``
(1 x 1, ``quad_approx=(2, 2)``) was certified ``optimal`` in ``[-0.36787152,
-0.36787152]`` on Clarabel and SCS, where the optimum is ``-1/e`` (``x log x`` at
``x = 1/e``).  Such a form gets no bracket now, with a message that names the
quadrature; the same entropies written with exponential cones are certified."""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np
import pytest
from cvxpy.constraints import RelEntrConeQuad

import convexkern as ck
from convexkern.report import Status

#: min x log x over [0.01, 5]: at x = 1/e
_OPT = -1.0 / math.e


def _quantum(quad):
    X = cp.Variable((1, 1), symmetric=True, name="X")
    return cp.Problem(cp.Minimize(cp.quantum_rel_entr(X, np.eye(1), quad_approx=quad)),
                      [X >> 0.01, X << 5])


def _cone(m, k):
    x, t = cp.Variable(name="x"), cp.Variable(name="t")
    return cp.Problem(cp.Minimize(t), [RelEntrConeQuad(x, cp.Constant(1.0), t, m, k),
                                       x >= 0.01, x <= 5])


@pytest.mark.parametrize("solver", ["clarabel", "scs"])
@pytest.mark.parametrize("build", [lambda: _quantum((2, 2)), lambda: _quantum((3, 3)),
                                   lambda: _cone(2, 2)], ids=["quantum22", "quantum33",
                                                              "cone22"])
def test_a_quadrature_form_gets_no_bracket(solver, build):
    r = ck.solve(ck.from_cvxpy(build()), solver)
    assert r.status is not Status.OPTIMAL
    assert math.isinf(r.primal_value) and math.isinf(r.dual_value)
    assert "quadrature" in r.message and "rel_entr" in r.message


def test_the_quadrature_form_is_off_the_written_optimum():
    """What the refusal guards: the form's own optimum (cvxpy's value) is not -1/e, by
    far more than the solver's accuracy."""
    p = _quantum((2, 2))
    p.solve(solver="CLARABEL")
    assert abs(p.value - _OPT) > 1e-6


def test_the_same_entropy_on_exponential_cones_is_certified():
    x = cp.Variable(name="x")
    p = cp.Problem(cp.Minimize(-cp.sum(cp.entr(x))), [x >= 0.01, x <= 5])
    r = ck.solve(ck.from_cvxpy(p), "clarabel")
    assert r.status is Status.OPTIMAL, r.message
    lo, up = sorted((r.primal_value, r.dual_value))
    assert lo - 1e-12 <= _OPT <= up + 1e-12, (lo, _OPT, up)


def test_von_neumann_entropy_without_quadrature_is_certified():
    """``von_neumann_entr(X)`` without ``quad_approx`` is written with exponential cones
    (exact): max over unit-trace 2 x 2 PSD matrices is log 2, at X = I / 2."""
    X = cp.Variable((2, 2), symmetric=True, name="X")
    p = cp.Problem(cp.Maximize(cp.von_neumann_entr(X)), [X >> 0, cp.trace(X) == 1])
    r = ck.solve(ck.from_cvxpy(p), "clarabel")
    assert r.status is Status.OPTIMAL, r.message
    lo, up = sorted((r.primal_value, r.dual_value))
    assert lo - 1e-12 <= math.log(2) <= up + 1e-12, (lo, up)
    q = cp.Problem(cp.Maximize(cp.von_neumann_entr(X, quad_approx=(3, 3))),
                   [X >> 0, cp.trace(X) == 1])
    r = ck.solve(ck.from_cvxpy(q), "clarabel")
    assert r.status is not Status.OPTIMAL and "quadrature" in r.message
