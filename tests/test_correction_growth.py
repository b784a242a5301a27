"""The lower bound's dual correction grows (costly columns join it) only while that pays:
a larger correction that moves more multipliers than it cancels is not kept, and no
larger one is tried after it.

SCS on a Huber regression (1000 x 100, Student-t noise; the model of
benchmarks/user_models_at_scale.py) at ``eps 1e-6``: the correction over the 100 free
columns certifies 1.1e-5; growing it to 731, 2320, ... 2951 columns took the bound down
to a gap of 7.7e-5 in six dense solves (3 s against 0.3 s)."""

from __future__ import annotations

import math

import pytest
from huber_models import huber_problem

import convexkern as ck
import convexkern.math.conic.bounds as B

pytest.importorskip("scs")


def _solve(monkeypatch, grow: bool) -> tuple[ck.SolveReport, list[int]]:
    sizes: list[int] = []
    fix = B.dual_fix

    def counted(data, y, r, err, J):
        sizes.append(int(J.size))
        return fix(data, y, r, err, J)

    monkeypatch.setattr(B, "dual_fix", counted)
    if not grow:  # the first correction alone: no costly column is ever worth a round
        monkeypatch.setattr(B, "_reachable", lambda *a, **k: False)
    f = ck.from_cvxpy(huber_problem(1000, 100, 2)())
    report = ck.solve(f, "scs", eps_abs=1e-6, eps_rel=1e-6)
    monkeypatch.undo()
    return report, sizes


def test_a_larger_correction_never_lowers_the_bound(monkeypatch):
    grown, sizes = _solve(monkeypatch, grow=True)
    first, first_sizes = _solve(monkeypatch, grow=False)
    assert first.status is ck.Status.OPTIMAL and math.isfinite(first.dual_value)
    assert grown.primal_value == first.primal_value  # the same point's upper bound
    # what a correction that grew is worth: never less than the first one alone
    assert grown.dual_value >= first.dual_value
    assert grown.rel_gap <= first.rel_gap
    # and it stops at the first growth that does not pay: at most one round past it
    assert len(sizes) <= len(first_sizes) + 1, sizes


def test_the_correction_cost_pays_for_the_rounding_of_pw():
    """``fix_cost`` bounds the rise of ``1/2 w'Pw`` over ``|delta_w| <= dw`` from above,
    exactly, when the computed ``Pw`` is 0 and the exact one 1e-17 (``P`` all ones,
    ``w = (1, 1e-17, -1)``): the worst case ``|Pw_0| dw + dw^2 / 2`` in rational
    arithmetic."""
    from fractions import Fraction
    from types import SimpleNamespace

    import numpy as np
    import scipy.sparse as sp

    from convexkern.math.conic.fix import fix_cost

    P = sp.csr_matrix(np.ones((3, 3)))
    w, dw, Bw = np.array([1.0, 1e-17, -1.0]), np.array([1e-10]), np.array([0])
    assert (P @ w)[0] == 0.0  # the rounding the bound must pay for
    _, fix_q = fix_cost(SimpleNamespace(P=P, b=np.zeros(1)), w, np.zeros(0, int),
                        np.zeros(0), Bw, dw)
    exact = (Fraction(dw[0]) * abs(sum(Fraction(v) for v in w))
             + Fraction(1, 2) * Fraction(dw[0]) ** 2)
    assert Fraction(fix_q) >= exact
