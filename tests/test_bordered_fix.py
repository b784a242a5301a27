"""The bordered exact correction (equality rows with a diagonal basis, a few active rows)
checked in rational arithmetic: the correction it encloses exists, solves the rows
exactly, and lies inside its radius, at scales from 1e-8 to 1e8; and on SCS's point of a
nearest-kernel SDP the certificate's bracket still holds Clarabel's optimum."""

from __future__ import annotations

from fractions import Fraction

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp

import convexkern as ck
from convexkern.math.conic.bordered import bordered_fix
from convexkern.math.conic.data import ConicData
from convexkern.math.conic.fix import active_fix, clip_singletons, slack_bound
from convexkern.report import Status


def _data(rng, z, k, extra, scale, row_spread):
    """``z`` equality rows, each with a column of its own and entries on ``extra`` shared
    columns; ``k`` inequality rows met by ``x0`` (active); three inequality rows with room.
    Rows scaled by ``scale * 10**U(-row_spread, row_spread)``."""
    n = z + extra
    E = np.zeros((z, n))
    E[np.arange(z), np.arange(z)] = rng.uniform(0.5, 2.0, z) * rng.choice([-1, 1], z)
    E[:, z:] = rng.normal(size=(z, extra)) * (rng.random((z, extra)) < 0.4)
    E[np.arange(z), z + rng.integers(0, extra, z)] += 1.0  # two entries at least
    F = rng.normal(size=(k, n)) * (rng.random((k, n)) < 0.5)
    F[:, z] += 1.0
    F[:, 0] += 1.0
    rest = rng.normal(size=(3, n))
    A = np.vstack([E, F, rest])
    A *= (scale * 10.0 ** rng.uniform(-row_spread, row_spread, A.shape[0]))[:, None]
    x0 = rng.normal(size=n) * 10.0 ** rng.uniform(-1, 1, n)
    b = A @ x0
    b[z + k:] += np.abs(b[z + k:]) + scale  # the last three rows have room
    data = ConicData(c=rng.normal(size=n), A=sp.csr_matrix(A), b=b, zero=z, nonneg=k + 3)
    x = x0 * (1 + 1e-9 * rng.normal(size=n))  # a solver's point: rows met to ~1e-9
    return data, x


def _exact_check(data, x, B, d, rows):
    """Solve ``A[rows][:, B] delta = b - A x`` in Fractions; assert it is square and
    nonsingular and ``|delta| <= d``; return ``max |delta|``."""
    from lp_exact_oracle import _solve_exact

    A = data.A.toarray()
    assert len(rows) == len(B)
    M = [[Fraction(float(A[i, j])) for j in B] for i in rows]
    xf = [Fraction(float(v)) for v in x]
    r = [Fraction(float(data.b[i])) - sum(Fraction(float(A[i, j])) * xf[j]
                                          for j in np.flatnonzero(A[i]))
         for i in rows]
    delta = _solve_exact(M, r)
    assert delta is not None, "the chosen basis is singular"
    for j, (dj, rad) in enumerate(zip(delta, d)):
        assert abs(dj) <= Fraction(float(rad)), (j, float(dj), rad)
    return max(float(abs(v)) for v in delta)


@pytest.mark.parametrize("scale", [1e-8, 1.0, 1e8])
@pytest.mark.parametrize("seed", range(4))
def test_the_enclosed_correction_is_exact(seed, scale):
    rng = np.random.default_rng(seed)
    data, x = _data(rng, z=18, k=3, extra=9, scale=scale, row_spread=2)
    s, es = slack_bound(data, x)
    out = bordered_fix(data, x, s, es, np.arange(18), np.arange(18, 21), np.ones(27),
                       slack=slack_bound, clip=clip_singletons)
    assert out is not None  # the structure is there: the bordered path answers
    x2, B, d, met, why = out
    assert why == "", why
    assert set(met) == set(range(18, 21))  # the three active rows, met exactly
    rows = np.concatenate([np.arange(18), np.sort(met)])
    biggest = _exact_check(data, x2, B, d, rows)
    # a radius that proves something: not wildly above the correction it encloses
    # (the float steps leave a rounding-sized residual; d bounds every such residual)
    assert np.max(d) <= 1e4 * max(biggest, 1e-15 * float(np.max(np.abs(x2))))


def test_a_dependent_active_row_is_left_out():
    """Of three active rows, one the sum of the other two, two are met exactly (any two:
    the third is then met too) and the correction is still exact."""
    rng = np.random.default_rng(7)
    data, x = _data(rng, z=10, k=3, extra=6, scale=1.0, row_spread=0)
    A = data.A.toarray()
    A[12] = A[10] + A[11]
    b = data.b.copy()
    b[12] = b[10] + b[11]
    data = ConicData(c=data.c, A=sp.csr_matrix(A), b=b, zero=10, nonneg=6)
    s, es = slack_bound(data, x)
    x2, B, d, met, why = bordered_fix(data, x, s, es, np.arange(10), np.arange(10, 13),
                                      np.ones(16), slack=slack_bound, clip=clip_singletons)
    assert why == ""
    assert len(met) == 2 and set(met) <= {10, 11, 12}
    _exact_check(data, x2, B, d, np.concatenate([np.arange(10), np.sort(met)]))


def test_without_a_diagonal_basis_the_dense_path_answers():
    """Equality rows sharing all their columns have no diagonal basis: the bordered path
    declines (None) and active_fix still corrects exactly."""
    rng = np.random.default_rng(3)
    n = 8
    A = np.vstack([rng.normal(size=(3, n)), rng.normal(size=(2, n)), rng.normal(size=(2, n))])
    x0 = rng.normal(size=n)
    b = A @ x0
    b[5:] += 5.0
    data = ConicData(c=rng.normal(size=n), A=sp.csr_matrix(A), b=b, zero=3, nonneg=4)
    x = x0 * (1 + 1e-10)
    s, es = slack_bound(data, x)
    assert bordered_fix(data, x, s, es, np.arange(3), np.arange(3, 5), np.ones(n),
                        slack=slack_bound, clip=clip_singletons) is None
    x2, B, d, met, why = active_fix(data, x, s, es)
    assert why == ""
    _exact_check(data, x2, B, d, np.concatenate([np.arange(3), np.sort(met)]))


def test_scs_nearest_kernel_bracket_holds_the_optimum():
    """SCS's point of a nearest-kernel SDP (900 equality rows of cvxpy's form with a
    diagonal basis, the trace row active) is certified through the bordered correction;
    its bracket holds Clarabel's certified optimum."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 5))
    S = np.tanh(0.5 * X @ X.T - 1.0)

    def build():
        M = cp.Variable((30, 30), symmetric=True)
        return cp.Problem(cp.Minimize(cp.sum_squares(M - S)),
                          [M >> 0, cp.trace(M) <= float(np.trace(S))])

    ref = ck.solve(ck.from_cvxpy(build(), "ref"), "clarabel", tol=1e-9)
    assert ref.status is Status.OPTIMAL
    r = ck.solve(ck.from_cvxpy(build(), "nk"), "scs")
    assert r.status.has_solution and np.isfinite(r.rel_gap), r.message
    lo, up = sorted((r.primal_value, r.dual_value))
    rlo, rup = sorted((ref.primal_value, ref.dual_value))
    assert lo <= rup and rlo <= up  # the brackets overlap: each holds the optimum


def test_a_bordered_correction_that_leaves_a_missed_row_open_is_not_kept():
    """SCS on the nu-SVM QP of docs/extending.md (Pima, n = 200): the bordered correction
    left the sum row ``sum(a) >= 0.3`` (off by 4.4e-9) open, so the upper bound needed a
    phase-one solve and came out looser (4.9e-7 -> 1.1e-6); the dense path, which reads the
    tight rows again after its floating-point steps, meets it."""
    from convexkern.data import load_binary
    from convexkern.kernels import RBF

    X, y = load_binary("pima", 1, 0)
    idx = np.random.default_rng(0).choice(y.size, 200, replace=False)
    X, y = X[idx], y[idx]
    X = (X - X.mean(0)) / X.std(0)
    K = RBF(gamma=1.0 / X.shape[1])(X)
    a = cp.Variable(y.size)
    prob = cp.Problem(cp.Minimize(0.5 * cp.quad_form(a, cp.psd_wrap(K * np.outer(y, y)))),
                      [a >= 0, a <= 1.0 / y.size, y @ a == 0, cp.sum(a) >= 0.3])
    r = ck.solve(ck.from_cvxpy(prob), "scs")
    assert r.status is Status.OPTIMAL, r.message
    assert "phase_one_margin" not in r.residuals
    assert r.residuals.get("active_rows_exact") == 1.0
    ref = ck.solve(ck.from_cvxpy(prob), "clarabel")
    assert r.dual_value <= ref.primal_value and ref.dual_value <= r.primal_value


def test_active_rows_with_columns_of_their_own_need_no_dense_solve(monkeypatch):
    """No equality row, many active rows each with columns of its own (``u_i + v_i <= 1``
    of cvxpy's logistic): active_fix meets the ones the point meets to rounding exactly
    through their diagonal basis, with no dense factorisation, and the correction is
    exact (rational arithmetic)."""
    import scipy.linalg

    rng = np.random.default_rng(5)
    m = 40
    A = np.zeros((m + 3, 2 * m + 2))
    A[np.arange(m), 2 * np.arange(m)] = 1.0          # u_i + v_i <= 1
    A[np.arange(m), 2 * np.arange(m) + 1] = 1.0
    A[m:, :] = rng.normal(size=(3, 2 * m + 2))       # three rows with room
    x0 = np.concatenate([rng.uniform(0.2, 0.8, 2 * m), rng.normal(size=2)])
    x0[1:2 * m:2] = 1.0 - x0[0:2 * m:2]
    b = A @ x0
    b[m:] += 3.0
    data = ConicData(c=rng.normal(size=2 * m + 2), A=sp.csr_matrix(A), b=b, zero=0,
                     nonneg=m + 3)
    x = x0 * (1 + 1e-9 * rng.normal(size=x0.size))   # the rows met to ~1e-9, some missed

    def no_dense(*args, **kwargs):
        raise AssertionError("a dense factorisation was used")

    monkeypatch.setattr(scipy.linalg, "lstsq", no_dense)
    s, es = slack_bound(data, x)
    x2, B, d, met, why = active_fix(data, x, s, es)
    assert why == ""
    # every row x misses is among those met exactly (the others keep their room)
    missed = np.flatnonzero(s[:m] < 0)
    assert missed.size >= 5 and set(missed) <= set(met) <= set(range(m))
    _exact_check(data, x2, B, d, np.sort(met))
    assert np.all(slack_bound(data, x2 + 0.0)[0][m:] > 0)  # the other rows keep room


@pytest.mark.slow
def test_scs_logistic_regression_bracket_holds_the_optimum():
    """SCS on a logistic regression (2000 x 50, cvxpy's logistic: 2000 rows u + v <= 1
    active at its point; the dense correction took 46 s of certificate there, the
    active rows' own diagonal basis 0.6 s): the bracket holds Clarabel's optimum."""
    rng = np.random.default_rng(0)
    A = rng.standard_normal((2000, 50))
    y = np.sign(A @ rng.standard_normal(50) + 0.5 * rng.standard_normal(2000))

    def build():
        w = cp.Variable(50)
        return cp.Problem(cp.Minimize(cp.sum(cp.logistic(-cp.multiply(y, A @ w))) / 2000
                                      + 0.1 * cp.sum_squares(w)))

    ref = ck.solve(ck.from_cvxpy(build(), "ref"), "clarabel")
    assert ref.status is Status.OPTIMAL
    r = ck.solve(ck.from_cvxpy(build(), "logit"), "scs")
    assert r.status is Status.OPTIMAL, r.message
    lo, up = sorted((r.primal_value, r.dual_value))
    rlo, rup = sorted((ref.primal_value, ref.dual_value))
    assert lo <= rup and rlo <= up
