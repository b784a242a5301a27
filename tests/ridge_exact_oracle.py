"""The exact optimum of a ridge regression ``min |Ax - b|^2 + lam |x|^2`` in rational
arithmetic (every float is a rational): the oracle of the tests that check certified
brackets of cone-written quadratics (``test_epigraph_step.py``, ``test_soc_norm_box.py``)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np


def exact_ridge(A: np.ndarray, b: np.ndarray, lam: float) -> Fraction:
    """The optimal value, from the normal equations ``(A'A + lam I) x = A'b`` solved by
    Gauss-Jordan elimination on the floats' exact values."""
    m, n = A.shape
    Af = [[Fraction(float(v)) for v in row] for row in A]
    bf = [Fraction(float(v)) for v in b]
    lf = Fraction(float(lam))
    G = [[sum(Af[k][i] * Af[k][j] for k in range(m)) + (lf if i == j else 0)
          for j in range(n)] + [sum(Af[k][i] * bf[k] for k in range(m))] for i in range(n)]
    for i in range(n):
        p = next(r for r in range(i, n) if G[r][i] != 0)
        G[i], G[p] = G[p], G[i]
        for r in range(n):
            if r != i and G[r][i] != 0:
                f = G[r][i] / G[i][i]
                G[r] = [a - f * c for a, c in zip(G[r], G[i], strict=True)]
    x = [G[i][n] / G[i][i] for i in range(n)]
    res = [sum(Af[k][j] * x[j] for j in range(n)) - bf[k] for k in range(m)]
    return sum(r * r for r in res) + lf * sum(v * v for v in x)
