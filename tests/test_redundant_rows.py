"""Redundant equality rows: an exact combination of the others must not leave a bound
infinite; a row dependent only to rounding is named as ill-posed, never certified.

The data are integers (exact in floating point), so "exactly redundant" is a fact of the
stored problem, not of the code under test; the reference optimum is an independent
Clarabel solve at 1e-12 (its own accuracy, about 1e-11 relative, is the tolerance used)."""

from __future__ import annotations

import cvxpy as cp
import numpy as np
import pytest
import scipy.sparse as sp

import convexkern as ck
from convexkern.math.conic import ConicData
from convexkern.math.conic.redundant import independent_equalities
from convexkern.report import Status


def _lp_with_redundant_rows(divisor: float) -> cp.Problem:
    """Four integer rows and three more: a sum of two, ``2 a_3 - a_4 / divisor``, a copy.

    With ``divisor = 4`` every extra row is an exact combination (dyadic multipliers);
    with ``divisor = 3`` one of them is a combination only to rounding."""
    rng = np.random.default_rng(1)
    A1 = rng.integers(-3, 4, (4, 10)).astype(float)
    A = np.vstack([A1, A1[0] + A1[1], 2 * A1[2] - A1[3] / divisor, A1[1]])
    x0 = np.array([0, 1, 0, 2, 0, 4, 0, 5, 6, 7.0])
    b = A @ x0
    c = A1.T @ np.array([1, -1, 0.5, 2]) + np.array([1, 0, 1, 0, 1, 0, 1, 0, 0, 0.0])
    x, z = cp.Variable(10), cp.Variable(2)
    return cp.Problem(cp.Minimize(c @ x + cp.sum_squares(z)),
                      [x >= 0, A @ x == b, z == x[:2] - 1])


def _reference(problem: cp.Problem) -> float:
    return problem.solve(solver="CLARABEL", tol_gap_abs=1e-12, tol_gap_rel=1e-12,
                         tol_feas=1e-12)


@pytest.mark.parametrize("solver", ["clarabel", "scs", "ecos", "highs", "osqp"])
def test_exactly_redundant_rows_are_certified(solver):
    problem = _lp_with_redundant_rows(4.0)
    f = ck.from_cvxpy(problem)
    if solver not in ck.available_solvers(f):
        pytest.skip(f"{solver} not installed")
    ref = _reference(_lp_with_redundant_rows(4.0))
    r = ck.solve(f, solver=solver)
    assert r.status is Status.OPTIMAL, r.message
    slack = 1e-10 * abs(ref)  # the reference's own accuracy
    assert r.dual_value <= ref + slack and ref - slack <= r.primal_value


def test_rows_dependent_only_to_rounding_are_named_ill_posed():
    f = ck.from_cvxpy(_lp_with_redundant_rows(3.0))
    r = ck.solve(f, solver="clarabel")
    assert r.status is not Status.OPTIMAL
    assert r.primal_value == float("inf")
    assert "only to rounding" in r.message and "ill-posed" in r.message
    # the lower side does not need the rows met exactly: it stays certified and sound
    assert r.dual_value <= _reference(_lp_with_redundant_rows(3.0)) + 1e-9


@pytest.mark.parametrize("solver", ["clarabel", "scs"])
def test_an_ill_posed_form_gets_no_phase_one_and_no_re_solve(solver):
    """Rows dependent only to rounding are a fact of the data: a phase-one point and a
    more accurate re-solve meet the same singular rows, so neither is begun (cvxpy's
    ``lp_5`` spent 7-21 times the plain solve on them), and the report says why."""
    f = ck.from_cvxpy(_lp_with_redundant_rows(3.0))
    r = ck.solve(f, solver=solver)
    assert r.primal_value == float("inf")
    assert r.residuals.get("ill_posed_equalities") == 1.0
    assert "phase_one_margin" not in r.residuals  # the upper bound's phase one
    assert not r.solver_stats.get("refined")
    assert "not re-solved" in r.message and "only to rounding" in r.message
    assert r.dual_value <= _reference(_lp_with_redundant_rows(3.0)) + 1e-9


def _homogeneous(seed: int, lp: bool) -> cp.Problem:
    """``E y = 0``, ``y >= 0``, with ``E``'s fourth row ``fl(0.1 e_1 + 0.7 e_2)``:
    dependent only to rounding, but ``y = 0`` meets it; ``y`` sits at 0 at the optimum."""
    r = np.random.default_rng(seed)
    if lp:
        A = r.standard_normal((6, 16))
        b, c = A @ r.uniform(0.5, 2, 16), r.standard_normal(16) + 0.3
    else:
        F, g = r.standard_normal((20, 10)), r.standard_normal(20)
    E = r.standard_normal((3, 6))
    E = np.vstack([E, 0.1 * E[0] + 0.7 * E[1]])
    y, d = cp.Variable(6), r.uniform(0.5, 1.5, 6)
    if lp:
        x = cp.Variable(16)
        return cp.Problem(cp.Minimize(c @ x + d @ y),
                          [A @ x == b, E @ y == 0, x >= 0, x <= 10, y >= 0, y <= 1])
    x = cp.Variable(10)
    return cp.Problem(cp.Minimize(cp.norm(F @ x - g, 2) + d @ y),
                      [E @ y == 0, y >= 0, cp.sum(x) == 1])


@pytest.mark.parametrize(("seed", "lp", "solver"), [(2, True, "ecos"), (2, False, "clarabel")])
def test_homogeneous_rows_dependent_to_rounding_are_not_called_ill_posed(seed, lp, solver):
    """A review's reproducer: rows with right-hand side 0 dependent only to rounding are
    met by any point whose columns there are 0 (the re-solve's, here), so they neither
    stop the upper bound's work nor the re-solve, and the message claims nothing of the
    problem's feasibility."""
    r = ck.solve(ck.from_cvxpy(_homogeneous(seed, lp)), solver)
    assert r.status is Status.OPTIMAL, r.message
    assert "ill_posed_equalities" not in r.residuals
    assert "no feasible point" not in r.message
    # the reference at 1e-10 (at 1e-12 Clarabel calls its SOCP point inaccurate)
    ref = _homogeneous(seed, lp).solve(solver="CLARABEL", tol_gap_abs=1e-10,
                                       tol_gap_rel=1e-10, tol_feas=1e-10)
    slack = 1e-9 * abs(ref)
    assert r.dual_value <= ref + slack and ref - slack <= r.primal_value


def test_cvxpy_lp_5_redundant_only_to_rounding_is_not_certified():
    """cvxpy's own ``lp_5``: rows ``R' A`` formed in floating point (smallest singular
    value 1.4e-16 of 6.9); its stated optimum belongs to the exact problem, not to the
    stored doubles, so no finite upper bound may be claimed for it."""
    helpers = pytest.importorskip("cvxpy.tests.solver_test_helpers")
    sth = helpers.lp_5()
    r = ck.solve(ck.from_cvxpy(cp.Problem(sth.objective, sth.constraints)),
                 solver="clarabel")
    assert r.status is not Status.OPTIMAL
    assert "only to rounding" in r.message


def test_a_row_scaled_down_keeps_its_certified_bound():
    """A review's reproducer: an equality row of integers scaled by 1e-16 is independent
    of the others (scaled up, well conditioned), and its problem is certified
    ``optimal``; a rule that judged the rows' dependence by their unscaled pivots (1e-17
    here) closed the upper bound's corrections and lost it."""
    A = np.array([[-1., 0, 3, -2, 2], [2, -3, 3, -2, -1], [-1, 3, 3, -1, -1],
                  [1e-16, -2e-16, -1e-16, 3e-16, -3e-16]])
    x0 = np.array([0., 0, 2.5, 0, 1])
    c = np.array([-0.09475607, 0.06559431, 1.26065713, -0.19497366, 1.36826721])
    x = cp.Variable(5)
    r = ck.solve(ck.from_cvxpy(cp.Problem(cp.Minimize(c @ x),
                                          [x >= 0, A @ x == A @ x0, x <= 10])), "highs")
    assert r.status is Status.OPTIMAL, r.message


def _data(rows: np.ndarray, b: np.ndarray) -> ConicData:
    z, n = rows.shape
    return ConicData(c=np.ones(n), A=sp.vstack([sp.csr_matrix(rows), -sp.eye(n)]),
                     b=np.concatenate([b, np.zeros(n)]), zero=z, nonneg=n)


def test_independent_equalities_proves_dyadic_and_rational_combinations():
    a = np.array([[1.0, 2, 0, -1], [0, 1, 3, 1], [2, 0, 1, 1]])
    extra = np.vstack([0.5 * a[0] + 0.25 * a[1], a[2], 3 * a[0] - 2 * a[1] + a[2]])
    rows = np.vstack([a, extra])
    b = rows @ np.array([1.0, 2, 3, 4])
    kept, why = independent_equalities(_data(rows, b))
    assert why == "" and kept.size == 3
    # the kept rows span the others: each dropped row is a combination of kept ones
    assert np.linalg.matrix_rank(rows[kept]) == 3


def test_an_inconsistent_right_hand_side_is_not_dropped():
    a = np.array([[1.0, 2, 0, -1], [0, 1, 3, 1]])
    rows = np.vstack([a, a[0] + a[1]])
    b = np.array([1.0, 2.0, 3.0 + 2.0**-40])  # the sum row's b is off by one bit
    kept, why = independent_equalities(_data(rows, b))
    assert kept.size == 3 and "only to rounding" in why


def test_a_row_off_by_one_ulp_is_not_dropped():
    a = np.array([[1.0, 2, 0, -1], [0, 1, 3, 1]])
    third = a[0] + a[1]
    third[1] = np.nextafter(third[1], 10.0)
    rows = np.vstack([a, third])
    kept, why = independent_equalities(_data(rows, rows @ np.ones(4)))
    assert kept.size == 3 and "only to rounding" in why


# ------------------------------------------------ free columns with dependent dual rows
def _lp_with_proportional_free_columns() -> cp.Problem:
    """Two free variables that enter only as ``s = u_0 + 0.3 u_1`` (every coefficient of
    ``u_1`` is 0.3 times ``u_0``'s times a power of two, so exactly proportional in the
    stored doubles): neither has a finite box, and their dual rows are dependent.  The
    optimum is 1 (``s = 1``, ``v = 0``: every feasible point has ``s + v_0 >= 1``)."""
    u = cp.Variable(2)
    v = cp.Variable(3, nonneg=True)
    s = u[0] + 0.3 * u[1]
    return cp.Problem(cp.Minimize(s + cp.sum(v) + 0.5 * v[2]),
                      [s + v[0] >= 1, 2 * s - v[1] <= 8, -4 * s + v[2] <= 3,
                       v[0] + v[2] <= 5])


@pytest.mark.parametrize("solver", ["clarabel", "scs", "ecos", "highs", "osqp", "qoco"])
def test_free_columns_with_exactly_dependent_dual_rows_are_certified(solver):
    """The dual correction cancels the residual of ``u_0`` only: ``u_1``'s dual row is
    proved 0.3 times ``u_0``'s (objective included), so its residual is then exactly 0
    too.  Before, Clarabel, ECOS and QOCO stopped at "the unbounded variables' dual rows
    are rank deficient" (Netlib RECIPE's and Maros-Meszaros QBRANDY's class)."""
    f = ck.from_cvxpy(_lp_with_proportional_free_columns())
    if solver not in ck.available_solvers(f):
        pytest.skip(f"{solver} not installed")
    r = ck.solve(f, solver=solver)
    assert r.status is Status.OPTIMAL, r.message
    assert r.dual_value <= 1.0 <= r.primal_value


def test_exact_dependence_solves_for_multipliers_that_are_doubles():
    """A row ``0.12 a_0 + 0.38 a_1`` of decimal data: the multipliers are the doubles
    nearest 0.12 and 0.38, not 3/25 and 19/50, so only an exact solve proves it; one bit
    off in one entry and it is not proved."""
    from convexkern.math.conic.redundant import exact_dependence

    a0 = np.array([1.0, 0, 2, 0])
    a1 = np.array([0.0, 1, 0, 4])
    row = np.array([0.12, 0.38, 0.24, 1.52])  # 0.12 * 2 and 0.38 * 4 are exact
    M = sp.csr_matrix(np.vstack([a0, a1, row]))
    kept, unproved, _ = exact_dependence(M, np.array([1.0, 0.0, 0.12]))
    assert kept.size == 2 and unproved.size == 0
    off = row.copy()
    off[2] = np.nextafter(off[2], 1.0)
    kept, unproved, _ = exact_dependence(sp.csr_matrix(np.vstack([a0, a1, off])),
                                         np.array([1.0, 0.0, 0.12]))
    assert unproved.size == 1
    # the right-hand side counts too
    kept, unproved, _ = exact_dependence(M, np.array([1.0, 0.0, 0.13]))
    assert unproved.size == 1


def _rational_identity(AE: sp.csr_matrix, b: np.ndarray, lam: np.ndarray, d: int) -> bool:
    """The identity ``row_d = sum l_i row_i`` (``b`` included) in ``Fraction`` arithmetic,
    with each ``l_i`` the nearest fraction of denominator at most 10^6: the reference the
    integer check must agree with."""
    from fractions import Fraction

    from convexkern.math.conic.redundant import DENOMINATOR

    acc: dict[int, Fraction] = {}
    rhs = -Fraction(float(b[d]))
    for j, v in zip(AE.indices[AE.indptr[d]: AE.indptr[d + 1]],
                    AE.data[AE.indptr[d]: AE.indptr[d + 1]], strict=True):
        acc[int(j)] = acc.get(int(j), Fraction(0)) - Fraction(float(v))
    for i, v in enumerate(lam.tolist()):
        f = Fraction(v).limit_denominator(DENOMINATOR)
        for j, a in zip(AE.indices[AE.indptr[i]: AE.indptr[i + 1]],
                        AE.data[AE.indptr[i]: AE.indptr[i + 1]], strict=True):
            acc[int(j)] = acc.get(int(j), Fraction(0)) + f * Fraction(float(a))
        rhs += f * Fraction(float(b[i]))
    return rhs == 0 and all(v == 0 for v in acc.values())


@pytest.mark.parametrize("seed", range(8))
def test_the_integer_check_is_the_rational_identity(seed, monkeypatch):
    """The identity check in integers (``_exact_combination``) says exactly what rational
    arithmetic says, on rows of integers times powers of ten from 1e-300 to 1e300,
    subnormal entries, thirds and tenths, multipliers with denominators up to 10^6 + 1,
    and rows nudged by 1e-12 (the search for other multipliers switched off)."""
    from convexkern.math.conic import redundant as R

    monkeypatch.setattr(R, "_consistent", lambda *a: False)
    rng = np.random.default_rng(seed)
    exact = 0
    for _ in range(300):
        k, n = int(rng.integers(1, 6)), int(rng.integers(1, 8))
        scale = 10.0 ** int(rng.integers(-300, 300)) if rng.random() < 0.3 else 1.0
        base = rng.integers(-5, 6, (k, n)).astype(float) * scale
        if rng.random() < 0.5:
            base = base * rng.choice([0.1, 1 / 3, 2.0**-1070, 0.7], (k, n))
        bb = rng.integers(-5, 6, k).astype(float) * scale
        lam = rng.integers(-3, 4, k) / rng.choice([1, 2, 3, 7, 10**6 + 1], k)
        row, rb = lam @ base, float(lam @ bb)
        if rng.random() < 0.3:
            row = row + rng.normal(size=n) * 1e-12 * scale
        AE = sp.csr_matrix(np.vstack([base, row]))
        b = np.append(bb, rb)
        want = _rational_identity(AE, b, lam, k)
        exact += want
        assert R._exact_combination(AE, b, np.arange(k), lam, k, [10**9]) == want
    assert exact > 10  # both answers are met


@pytest.mark.parametrize("b", [(np.inf, -np.inf), (-1024.0, np.nan)])
def test_rows_holding_inf_or_nan_are_never_proved_combinations(b):
    """Two equal rows whose right-hand sides are not finite: no exact identity holds (the
    integer check once read inf and NaN as the integer -2^63 and said it did)."""
    from convexkern.math.conic.redundant import _exact_combination, exact_dependence

    AE = sp.csr_matrix(np.array([[1.0, 2.0], [1.0, 2.0]]))
    rhs = np.array(b)
    assert not _exact_combination(AE, rhs, np.array([0]), np.array([1.0]), 1, [10**9])
    kept, unproved, _ = exact_dependence(AE, rhs)
    assert kept.size + unproved.size == 2  # the dependent row is not dropped


def test_a_duplicate_stored_entry_counts_as_the_matrix_does():
    """``x0 = 1`` and ``2 x0 = 1`` with the 2 stored as two entries of 1 (a CSR matrix not
    in canonical form): the second row is no combination of the first, and is kept (the
    rational elimination once kept only the last duplicate and dropped the row)."""
    A = sp.csr_matrix((np.array([1.0, 1.0, 1.0]), np.array([0, 0, 0]), np.array([0, 1, 3])),
                      shape=(2, 1))
    data = ConicData(c=np.array([1.0]), A=A, b=np.array([1.0, 1.0]), zero=2)
    rows, reason = independent_equalities(data)
    assert rows.tolist() == [0, 1] and "only to rounding" in reason
