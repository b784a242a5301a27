"""The Huber regression with heavy-tailed noise that several certificate tests solve (a
tall dense data matrix, Student-t noise with 2 degrees of freedom)."""

from __future__ import annotations

import numpy as np


def huber_problem(m: int, d: int, seed: int):
    """A function building ``min sum huber(A x - b, 1)`` afresh (``A`` an ``m x d``
    standard normal matrix, ``b = A x0 + t_2`` noise), the same data each call."""
    import cvxpy as cp

    r = np.random.default_rng(seed)
    A = r.standard_normal((m, d))
    b = A @ r.standard_normal(d) + r.standard_t(2, m)

    def build():
        x = cp.Variable(d)
        return cp.Problem(cp.Minimize(cp.sum(cp.huber(A @ x - b, 1.0))))
    return build
