"""An exact (rational) optimum of Abe's four LPs for small instances (the oracle of
``tests/test_lp_round.py``; a helper of the tests, not a test).

HiGHS solves the LP in floating point; its answer only proposes a basis.  The basis is
then verified in :class:`fractions.Fraction` arithmetic: the vertex ``x_B`` solves the
active rows exactly, the multipliers solve the transposed system exactly, and primal
feasibility (every row) and dual feasibility (multipliers of inequalities >= 0) are checked
exactly.  Both passing proves ``c'x`` is the exact optimum of the LP whose data are the
float ``A`` and ``C`` read as rationals (LP duality); nothing of convexkern is used.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from scipy.optimize import linprog


def lp_data(kind, A, C, rho_min=0.0):
    """``min c'x + const  s.t.  G x <= h, E x = b`` (float arrays), and the sign that turns
    the min into the formulation's own sense (``-1`` for the maximisations)."""
    A = np.asarray(A, float)
    M, m = A.shape
    I_M, I_m = np.eye(M), np.eye(m)
    if kind == "lp_svm.nu_lp":  # x = [R, xi, rho]
        n = m + M + 1
        G = [np.hstack([-I_m, np.zeros((m, M + 1))]), np.hstack([np.zeros((M, m)), -I_M,
             np.zeros((M, 1))]), np.hstack([-A, -I_M, np.ones((M, 1))])]
        h = [np.zeros(m), np.zeros(M), np.zeros(M)]
        if rho_min is not None:
            G.append(np.eye(1, n, n - 1) * -1.0)
            h.append(np.array([-rho_min]))
        E = np.hstack([np.ones((1, m)), np.zeros((1, M + 1))])
        return (np.concatenate([np.zeros(m), np.full(M, C), [-1.0]]), np.vstack(G),
                np.concatenate(h), E, np.ones(1), 0.0, -1.0)
    if kind == "lp_svm.nu_lp_dual":  # x = [delta, z]
        eps = 0.0 if rho_min is None else rho_min
        G = [np.hstack([-I_M, np.zeros((M, 1))]), np.hstack([I_M, np.zeros((M, 1))]),
             np.hstack([A.T, -np.ones((m, 1))])]
        h = [np.zeros(M), np.full(M, C), np.zeros(m)]
        sum_row = np.hstack([np.ones((1, M)), np.zeros((1, 1))])
        c = np.concatenate([np.full(M, -eps), [1.0]])
        if rho_min is None:
            return c, np.vstack(G), np.concatenate(h), sum_row, np.ones(1), 0.0, 1.0
        G.append(-sum_row)
        h.append(-np.ones(1))
        return c, np.vstack(G), np.concatenate(h), None, None, eps, 1.0
    if kind == "lp_svm.lp":  # x = [R, xi]
        G = np.vstack([-np.eye(m + M), np.hstack([-A, -I_M])])
        h = np.concatenate([np.zeros(m + M), -np.ones(M)])
        return np.concatenate([np.ones(m), np.full(M, C)]), G, h, None, None, 0.0, 1.0
    if kind == "lp_svm.lp_dual":  # x = alpha
        G = np.vstack([-I_M, I_M, A.T])
        h = np.concatenate([np.zeros(M), np.full(M, C), np.ones(m)])
        return -np.ones(M), G, h, None, None, 0.0, -1.0
    raise ValueError(kind)


def _solve_exact(rows, rhs):
    """Solve the square system ``rows x = rhs`` in Fractions; None if singular."""
    n = len(rows)
    a = [list(r) + [b] for r, b in zip(rows, rhs)]
    for col in range(n):
        piv = next((i for i in range(col, n) if a[i][col] != 0), None)
        if piv is None:
            return None
        a[col], a[piv] = a[piv], a[col]
        p = a[col][col]
        inv = 1 / p
        rowc = [v * inv for v in a[col]]
        a[col] = rowc
        for i in range(n):
            if i != col and a[i][col] != 0:
                f = a[i][col]
                ai = a[i]
                a[i] = [vi - f * vc for vi, vc in zip(ai, rowc)]
    return [a[i][n] for i in range(n)]


def _reduce_into(echelon, row):
    """Reduce ``row`` against the exact echelon rows; keep it (True) if independent."""
    r = list(row)
    for col, e in echelon:
        if r[col]:
            f = r[col]
            r = [a - f * b for a, b in zip(r, e)]
    piv = next((j for j, v in enumerate(r) if v), None)
    if piv is None:
        return False
    p = r[piv]
    echelon.append((piv, [v / p for v in r]))
    return True


def exact_optimum(kind, A, C, rho_min=0.0, tries=6, seed=0):
    """The exact optimal value (a Fraction) of ``kind`` on ``A``, ``C``, in the
    formulation's own sense; None if no basis proposed by HiGHS verifies."""
    c, G, h, E, b, const, sign = lp_data(kind, A, C, rho_min)
    n = c.size
    res = linprog(c, A_ub=G, b_ub=h, A_eq=E, b_eq=b, bounds=[(None, None)] * n,
                  method="highs", options={"primal_feasibility_tolerance": 1e-10,
                                           "dual_feasibility_tolerance": 1e-10})
    if res.status != 0:
        return None
    x = res.x
    lam = -np.asarray(res.ineqlin.marginals)
    slack = (h - G @ x) / np.maximum(np.abs(G).max(1), 1e-300)
    nE = 0 if E is None else E.shape[0]
    Gq = [[Fraction(float(v)) for v in row] for row in G]
    hq = [Fraction(float(v)) for v in h]
    Eq = [] if E is None else [[Fraction(float(v)) for v in row] for row in E]
    bq = [] if E is None else [Fraction(float(v)) for v in b]
    cq = [Fraction(float(v)) for v in c]
    rng = np.random.default_rng(seed)
    for t in range(tries):
        noise = rng.uniform(0, 1e-12, slack.size) if t else np.zeros(slack.size)
        key = np.where(lam > 1e-9 * max(1.0, np.abs(lam).max()), 0.0, 1.0) + np.abs(slack) + noise
        order = np.argsort(key, kind="stable")
        chosen: list[int] = []
        echelon: list[tuple[int, list]] = []  # (pivot column, reduced row), exact
        for row in Eq:
            _reduce_into(echelon, row)
        for i in order:
            if len(chosen) + nE == n:
                break
            if _reduce_into(echelon, Gq[i]):
                chosen.append(int(i))
        if len(chosen) + nE != n:
            continue
        rows = Eq + [Gq[i] for i in chosen]
        xq = _solve_exact(rows, bq + [hq[i] for i in chosen])
        if xq is None:
            continue
        if any(sum(g * v for g, v in zip(Gq[i], xq) if g) > hq[i] for i in range(len(Gq))):
            continue
        # dual: c + rows' y = 0 with y = (mu for E, lam_B >= 0 for the chosen G rows)
        cols = [[rows[k][j] for k in range(n)] for j in range(n)]
        yq = _solve_exact(cols, [-v for v in cq])
        if yq is None or any(v < 0 for v in yq[nE:]):
            continue
        val = sum(ci * xi for ci, xi in zip(cq, xq)) + Fraction(float(const))
        return int(sign) * val
    return None
