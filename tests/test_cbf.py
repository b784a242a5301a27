"""Tests of the CBF reader (convexkern.data.cbf).

Each small CBF text below is written by hand from the format's definitions (Friberg 2014,
the CBF technical reference; MOSEK's cone definitions for EXP, EXP*, POW, POW*), and each
problem is also written independently in cvxpy, with cvxpy's own atoms (``entr``,
``geo_mean``, ``quad_over_lin``, ``exp``) where that is possible; the two optimal values,
both from Clarabel, must agree.  Where a closed form exists it is checked too.
"""

from __future__ import annotations

import gzip
import math

import cvxpy as cp
import numpy as np
import pytest

from convexkern.data.cbf import CBFError, build_problem, read_cbf
from convexkern.errors import InvalidInputError

RTOL = 1e-6


def _value(problem: cp.Problem) -> float:
    problem.solve(solver="CLARABEL")
    assert problem.status == cp.OPTIMAL, problem.status
    return float(problem.value)


def _cbf_value(tmp_path, text: str, name: str = "p.cbf") -> float:
    path = tmp_path / name
    path.write_text(text)
    return _value(build_problem(read_cbf(path)))


def _assert_close(a: float, b: float) -> None:
    assert a == pytest.approx(b, rel=RTOL, abs=1e-7), (a, b)


def _cbf(*blocks: str) -> str:
    """Blocks joined by blank lines (the layout CBLIB's files use)."""
    return "\n\n".join(b.strip("\n") for b in blocks) + "\n"


# -- the spec's own examples (appendix C) ------------------------------------------------

SPEC_C1 = _cbf(
    "# appendix C.1: linear, second-order and semidefinite cones", "VER\n1",
    "OBJSENSE\nMIN", "PSDVAR\n1\n3", "VAR\n3 1\nF 3", "CON\n5 2\nL= 2\nQ 3",
    "OBJFCOORD\n5\n0 0 0 2.0\n0 1 0 1.0\n0 1 1 2.0\n0 2 1 1.0\n0 2 2 2.0",
    "OBJACOORD\n1\n1 1.0",
    "FCOORD\n9\n0 0 0 0 1.0\n0 0 1 1 1.0\n0 0 2 2 1.0\n1 0 0 0 1.0\n1 0 1 0 1.0\n"
    "1 0 2 0 1.0\n1 0 1 1 1.0\n1 0 2 1 1.0\n1 0 2 2 1.0",
    "ACOORD\n6\n0 1 1.0\n1 0 1.0\n1 2 1.0\n2 1 1.0\n3 0 1.0\n4 2 1.0",
    "BCOORD\n2\n0 -1.0\n1 -0.5")

SPEC_C2 = _cbf(
    "# appendix C.2: PSD variables and a linear matrix inequality", "VER\n1",
    "OBJSENSE\nMIN", "PSDVAR\n1\n2", "VAR\n2 1\nF 2", "PSDCON\n1\n2", "CON\n1 1\nL+ 1",
    "OBJFCOORD\n2\n0 0 0 1.0\n0 1 1 1.0", "OBJACOORD\n2\n0 1.0\n1 1.0", "OBJBCOORD\n1.0",
    "FCOORD\n1\n0 0 1 0 1.0", "ACOORD\n2\n0 0 -1.0\n0 1 -1.0",
    "HCOORD\n4\n0 0 1 0 1.0\n0 0 1 1 3.0\n0 1 0 0 3.0\n0 1 1 0 1.0",
    "DCOORD\n2\n0 0 0 -1.0\n0 1 1 -1.0")

SPEC_C3 = _cbf(
    "# appendix C.3: an LP, maximised, with a CHANGE sequence", "VER\n1", "OBJSENSE\nMAX",
    "VAR\n2 1\nL+ 2", "CON\n2 2\nL- 1\nL+ 1", "OBJACOORD\n2\n0 1.0\n1 0.64",
    "ACOORD\n4\n0 0 50.0\n1 0 3.0\n0 1 31.0\n1 1 -2.0", "BCOORD\n2\n0 -250.0\n1 4.0",
    "CHANGE", "OBJACOORD\n2\n0 1.11\n1 0.76")


def _spec_c1_cvxpy() -> cp.Problem:
    X = cp.Variable((3, 3), PSD=True)
    x = cp.Variable(3)
    C = np.array([[2.0, 1, 0], [1, 2, 1], [0, 1, 2]])
    return cp.Problem(cp.Minimize(cp.trace(C @ X) + x[1]),
                      [cp.trace(X) + x[1] == 1, cp.sum(X) + x[0] + x[2] == 0.5,
                       cp.norm(cp.hstack([x[0], x[2]])) <= x[1]])


def test_spec_example_c1_psdvar_and_q(tmp_path):
    (tmp_path / "c1.cbf").write_text(SPEC_C1)
    data = read_cbf(tmp_path / "c1.cbf")
    assert (data.n, data.m, data.psd_var_dims, data.version) == (3, 5, [3], 1)
    assert [(c.name, c.dim) for c in data.con_cones] == [("L=", 2), ("Q", 3)]
    # the objective matrix: off-diagonal coordinates stand for both triangles
    np.testing.assert_array_equal(data.obj_F[0].toarray(), [[2, 1, 0], [1, 2, 1], [0, 1, 2]])
    _assert_close(_value(build_problem(data)), _value(_spec_c1_cvxpy()))


def test_spec_example_c2_psdcon_hcoord_dcoord_objbcoord(tmp_path):
    X = cp.Variable((2, 2), PSD=True)
    x = cp.Variable(2)
    H0, H1 = np.array([[0.0, 1], [1, 3]]), np.array([[3.0, 1], [1, 0]])
    ref = cp.Problem(cp.Minimize(cp.trace(X) + x[0] + x[1] + 1),
                     [2 * X[1, 0] - x[0] - x[1] >= 0, x[0] * H0 + x[1] * H1 - np.eye(2) >> 0])
    _assert_close(_cbf_value(tmp_path, SPEC_C2), _value(ref))


def test_psd_coordinates_may_name_either_triangle(tmp_path):
    """H and D entries given at (k, l) or (l, k) mean the same symmetric matrix."""
    upper = SPEC_C2.replace("0 0 1 0 1.0\n0 0 1 1", "0 0 0 1 1.0\n0 0 1 1").replace(
        "0 1 1 0 1.0", "0 1 0 1 1.0")
    assert upper != SPEC_C2
    _assert_close(_cbf_value(tmp_path, upper, "u.cbf"), _cbf_value(tmp_path, SPEC_C2))


def test_spec_example_c3_maximise_and_change(tmp_path):
    (tmp_path / "c3.cbf").write_text(SPEC_C3)
    data = read_cbf(tmp_path / "c3.cbf")
    assert data.sense == "max" and "CHANGE" in data.notes[0]
    np.testing.assert_array_equal(data.obj_a, [1.0, 0.64])      # the first instance only
    x = cp.Variable(2, nonneg=True)
    ref = cp.Problem(cp.Maximize(x[0] + 0.64 * x[1]),
                     [50 * x[0] + 31 * x[1] <= 250, 3 * x[0] - 2 * x[1] >= -4])
    _assert_close(_value(build_problem(data)), _value(ref))


def test_gzip_file_reads_the_same(tmp_path):
    (tmp_path / "c1.cbf.gz").write_bytes(gzip.compress(SPEC_C1.encode()))
    data = read_cbf(tmp_path / "c1.cbf.gz")
    assert data.name == "c1"
    _assert_close(_value(build_problem(data)), _value(_spec_c1_cvxpy()))


# -- one test per cone ------------------------------------------------------------------

def test_linear_cones_objbcoord_and_max(tmp_path):
    """max 2 x0 + x1 - x2 + 7 with x0 + x1 <= 4 (L-), x0 - x1 = 1 (L=), x2 >= 1 (L+ on
    VAR), x0, x1 free; CON rows written as A x + b."""
    text = _cbf("VER\n1", "OBJSENSE\nMAX", "VAR\n3 2\nF 2\nL+ 1", "CON\n3 3\nL- 1\nL= 1\nL+ 1",
                "OBJACOORD\n3\n0 2\n1 1\n2 -1", "OBJBCOORD\n7",
                "ACOORD\n5\n0 0 1\n0 1 1\n1 0 1\n1 1 -1\n2 2 1", "BCOORD\n3\n0 -4\n1 -1\n2 -1")
    x = cp.Variable(3)
    ref = cp.Problem(cp.Maximize(2 * x[0] + x[1] - x[2] + 7),
                     [x[0] + x[1] <= 4, x[0] - x[1] == 1, x[2] >= 1])
    got = _cbf_value(tmp_path, text)
    _assert_close(got, _value(ref))
    _assert_close(got, 2 * 2.5 + 1.5 - 1 + 7)


def test_rotated_cone_has_the_factor_two(tmp_path):
    """(p, q, r) in QR means 2 p q >= |r|^2: min p with q = 1/2, r = (1, 2) is 5 (it
    would be 10 without the factor 2)."""
    text = _cbf("VER\n1", "OBJSENSE\nMIN", "VAR\n4 1\nQR 4", "CON\n3 1\nL= 3",
                "OBJACOORD\n1\n0 1", "ACOORD\n3\n0 1 1\n1 2 1\n2 3 1",
                "BCOORD\n3\n0 -0.5\n1 -1\n2 -2")
    p, q, r = cp.Variable(), cp.Variable(), cp.Variable(2)
    ref = cp.Problem(cp.Minimize(p), [cp.quad_over_lin(r, q) <= 2 * p, q == 0.5,
                                      r == np.array([1.0, 2.0])])
    got = _cbf_value(tmp_path, text)
    _assert_close(got, _value(ref))
    _assert_close(got, 5.0)


def test_quadratic_cone_on_constraints(tmp_path):
    """min x0 + x1 with (x0 + 1, x1 - 2, x0 - x1) in Q (CON, with constants)."""
    text = _cbf("VER\n1", "OBJSENSE\nMIN", "VAR\n2 1\nF 2", "CON\n3 1\nQ 3",
                "OBJACOORD\n2\n0 1\n1 1", "ACOORD\n4\n0 0 1\n1 1 1\n2 0 1\n2 1 -1",
                "BCOORD\n2\n0 1\n1 -2")
    x = cp.Variable(2)
    ref = cp.Problem(cp.Minimize(x[0] + x[1]),
                     [cp.norm(cp.hstack([x[1] - 2, x[0] - x[1]])) <= x[0] + 1])
    _assert_close(_cbf_value(tmp_path, text), _value(ref))


def test_exponential_cone_order_first_coordinate_is_the_bound(tmp_path):
    """(u0, u1, u2) in EXP means u0 >= u1 exp(u2 / u1): min u0 with u1 = 1, u2 = 2 is
    e^2.  (cvxpy's ExpCone(x, y, z) has the bound last; the wrong order would give
    u2 >= exp(...) and another value.)"""
    text = _cbf("VER\n2", "OBJSENSE\nMIN", "VAR\n3 1\nEXP 3", "CON\n2 1\nL= 2",
                "OBJACOORD\n1\n0 1", "ACOORD\n2\n0 1 1\n1 2 1", "BCOORD\n2\n0 -1\n1 -2")
    u0 = cp.Variable()
    ref = cp.Problem(cp.Minimize(u0), [u0 >= 1 * cp.exp(2 / 1)])
    got = _cbf_value(tmp_path, text)
    _assert_close(got, _value(ref))
    _assert_close(got, math.exp(2.0))


def test_exponential_cone_on_constraints_entropy(tmp_path):
    """max sum t_i with (1, x_i, t_i) in EXP (CON rows with a constant 1) and sum x = 1:
    t_i <= -x_i log x_i, so the optimum is the entropy log 4; cvxpy writes it with entr."""
    k = 4
    rows = []              # CON row 3i: 1 (b), 3i+1: x_i, 3i+2: t_i ; last row sum x - 1
    for i in range(k):
        rows += [f"{3 * i + 1} {i} 1", f"{3 * i + 2} {k + i} 1"]
    rows += [f"{3 * k} {i} 1" for i in range(k)]
    text = _cbf("VER\n2", "OBJSENSE\nMAX", f"VAR\n{2 * k} 1\nF {2 * k}",
                f"CON\n{3 * k + 1} {k + 1}\n" + "EXP 3\n" * k + "L= 1",
                f"OBJACOORD\n{k}\n" + "\n".join(f"{k + i} 1" for i in range(k)),
                f"ACOORD\n{len(rows)}\n" + "\n".join(rows),
                f"BCOORD\n{k + 1}\n" + "\n".join(f"{3 * i} 1" for i in range(k)) +
                f"\n{3 * k} -1")
    x = cp.Variable(k)
    ref = cp.Problem(cp.Maximize(cp.sum(cp.entr(x))), [cp.sum(x) == 1])
    got = _cbf_value(tmp_path, text)
    _assert_close(got, _value(ref))
    _assert_close(got, math.log(k))


def test_dual_exponential_cone_closed_form(tmp_path):
    """(s0, s1, s2) in EXP* means s0 >= -s2 exp(s1 / s2) / e, s2 <= 0: min s0 with
    s1 = 1, s2 = -2 is 2 exp(-1/2) / e."""
    text = _cbf("VER\n2", "OBJSENSE\nMIN", "VAR\n3 1\nEXP* 3", "CON\n2 1\nL= 2",
                "OBJACOORD\n1\n0 1", "ACOORD\n2\n0 1 1\n1 2 1", "BCOORD\n2\n0 -1\n1 2")
    _assert_close(_cbf_value(tmp_path, text), 2 * math.exp(-0.5) / math.e)


def test_dual_exponential_cone_by_duality(tmp_path):
    """EXP* is the dual cone of EXP: the problem (P) min c'u, u in EXP, a'u = 1, written
    in cvxpy, and its dual (D) max y, c - y a in EXP*, written in CBF, have one optimal
    value (strong duality; c is inside EXP*)."""
    c, a = np.array([2.0, 1.0, 0.5]), np.array([0.3, 0.4, 1.0])
    u = cp.Variable(3)
    primal = cp.Problem(cp.Minimize(c @ u), [cp.ExpCone(u[2], u[1], u[0]), a @ u == 1])
    acoord = "\n".join(f"{i} 0 {-a[i]}" for i in range(3))
    bcoord = "\n".join(f"{i} {c[i]}" for i in range(3))
    text = _cbf("VER\n2", "OBJSENSE\nMAX", "VAR\n1 1\nF 1", "CON\n3 1\nEXP* 3",
                "OBJACOORD\n1\n0 1", f"ACOORD\n3\n{acoord}", f"BCOORD\n3\n{bcoord}")
    _assert_close(_cbf_value(tmp_path, text), _value(primal))


def test_power_cone_three_dimensional(tmp_path):
    """@0:POW with alpha = (3, 1) (beta = (3/4, 1/4): parameters are normalised): max
    u2 - u0/2 - u1/4 with u0 + u1 <= 3 against cvxpy's geo_mean."""
    text = _cbf("VER\n3", "POWCONES\n1 2\n2\n3.0\n1.0", "OBJSENSE\nMAX", "VAR\n3 1\n@0:POW 3",
                "CON\n1 1\nL- 1", "OBJACOORD\n3\n0 -0.5\n1 -0.25\n2 1",
                "ACOORD\n2\n0 0 1\n0 1 1", "BCOORD\n1\n0 -3")
    u = cp.Variable(3)
    ref = cp.Problem(cp.Maximize(u[2] - u[0] / 2 - u[1] / 4),
                     [cp.geo_mean(u[:2], [3, 1]) >= u[2], u[0] + u[1] <= 3])
    got = _cbf_value(tmp_path, text)
    _assert_close(got, _value(ref))
    assert got > 0.1


def test_power_cone_with_three_parameters_and_a_norm(tmp_path):
    """@0:POW 5 with alpha = (1, 2, 3): prod u_i^(alpha_i/6) >= ||(u3, u4)||; max
    u3 + 2 u4 with sum u[:3] <= 6."""
    text = _cbf("VER\n3", "OBJSENSE\nMAX", "POWCONES\n1 3\n3\n1\n2\n3", "VAR\n5 1\n@0:POW 5",
                "CON\n1 1\nL+ 1", "OBJACOORD\n2\n3 1\n4 2",
                "ACOORD\n3\n0 0 -1\n0 1 -1\n0 2 -1", "BCOORD\n1\n0 6")
    u = cp.Variable(5)
    ref = cp.Problem(cp.Maximize(u[3] + 2 * u[4]),
                     [cp.geo_mean(u[:3], [1, 2, 3]) >= cp.norm(u[3:]), cp.sum(u[:3]) <= 6])
    _assert_close(_cbf_value(tmp_path, text), _value(ref))


def test_dual_power_cone_by_duality(tmp_path):
    """POW* (from POW*CONES) is the dual cone of POW with the same parameters: (P) min
    c'u, u in POW(1, 3), a'u = 1 in cvxpy; (D) max y, c - y a in POW*(1, 3) in CBF."""
    c, a = np.array([1.0, 2.0, 0.5]), np.array([1.0, 1.0, 1.0])
    u = cp.Variable(3)
    primal = cp.Problem(cp.Minimize(c @ u),
                        [cp.geo_mean(u[:2], [1, 3]) >= cp.abs(u[2]), a @ u == 1])
    acoord = "\n".join(f"{i} 0 {-a[i]}" for i in range(3))
    bcoord = "\n".join(f"{i} {c[i]}" for i in range(3))
    text = _cbf("VER\n3", "POW*CONES\n1 2\n2\n1\n3", "OBJSENSE\nMAX", "VAR\n1 1\nF 1",
                "CON\n3 1\n@0:POW* 3", "OBJACOORD\n1\n0 1", f"ACOORD\n3\n{acoord}",
                f"BCOORD\n3\n{bcoord}")
    _assert_close(_cbf_value(tmp_path, text), _value(primal))


def test_psd_variable_with_constraint_coordinates_off_the_diagonal(tmp_path):
    """max <J, X> (J = all ones, written by its lower triangle) with trace X = 1 on a 3x3
    PSD variable: the optimum is 3 (X = J / 3)."""
    text = _cbf("VER\n1", "OBJSENSE\nMAX", "PSDVAR\n1\n3", "CON\n1 1\nL= 1",
                "OBJFCOORD\n6\n0 0 0 1\n0 1 0 1\n0 1 1 1\n0 2 0 1\n0 2 1 1\n0 2 2 1",
                "FCOORD\n3\n0 0 0 0 1\n0 0 1 1 1\n0 0 2 2 1", "BCOORD\n1\n0 -1")
    X = cp.Variable((3, 3), PSD=True)
    ref = cp.Problem(cp.Maximize(cp.sum(X)), [cp.trace(X) == 1])
    got = _cbf_value(tmp_path, text)
    _assert_close(got, _value(ref))
    _assert_close(got, 3.0)


# -- integer problems ------------------------------------------------------------------

def test_integer_problem_is_read_but_refused_by_build_problem(tmp_path):
    text = _cbf("# appendix section 1: the minimal working example", "VER\n1",
                "OBJSENSE\nMIN", "VAR\n3 1\nQ 3", "INT\n1\n0", "CON\n1 1\nL= 1",
                "OBJACOORD\n1\n0 5.1", "ACOORD\n2\n0 1 6.2\n0 2 7.3", "BCOORD\n1\n0 -8.4")
    (tmp_path / "mwe.cbf").write_text(text)
    data = read_cbf(tmp_path / "mwe.cbf")
    np.testing.assert_array_equal(data.int_vars, [0])
    with pytest.raises(CBFError, match=r"mwe: 1 integer variable.*continuous problems only"):
        build_problem(data)


# -- bad files --------------------------------------------------------------------------

HEAD = "VER\n1\nOBJSENSE\nMIN\n"


@pytest.mark.parametrize("text, pattern", [
    (HEAD + "VAR\n2 1\nF 2\nFOO\n1\n",
     r"bad.cbf:8: unknown keyword 'FOO'"),
    (HEAD + "VAR\n3 1\nF 2\n",
     r"bad.cbf:6: VAR: the header announces 3 scalars, the cones add up to 2"),
    (HEAD + "VAR\n2 2\nF 2\n",
     r"bad.cbf:7: the file ends inside VAR \(expected cone dimension\)"),
    (HEAD + "VAR\n2 1\nF 2\nCON\n1 1\nL+ 1\nACOORD\n3\n0 0 1\n0 1 1\nBCOORD\n1\n0 1\n",
     r"bad.cbf:15: ACOORD: expected con var value, found the keyword BCOORD"),
    (HEAD + "VAR\n2 1\nF 2\nCON\n1 1\nL+ 1\nACOORD\n1\n0 2 1.0\n",
     r"bad.cbf:13: ACOORD: var index 2 out of range \(0 to 1\)"),
    (HEAD + "VAR\n2 1\nF 2\nCON\n1 1\nL+ 1\nBCOORD\n1\n1 1.0\n",
     r"bad.cbf:13: BCOORD: con index 1 out of range"),
    (HEAD + "PSDVAR\n1\n2\nCON\n1 1\nL= 1\nFCOORD\n1\n0 0 2 0 1.0\n",
     r"bad.cbf:13: FCOORD: row index 2 out of range \(0 to 1\)"),
    (HEAD + "VAR\n2 1\nF 2\nOBJACOORD\n1\n0 abc\n",
     r"bad.cbf:10: OBJACOORD: not a finite decimal number: 'abc'"),
    (HEAD + "VAR\n2 1\nF 2\nOBJACOORD\n1\n0 inf\n",
     r"bad.cbf:10: OBJACOORD: not a finite decimal number: 'inf'"),
    (HEAD + "VAR\nx 1\nF 2\n",
     r"bad.cbf:6: VAR: not an integer: 'x'"),
    (HEAD + "VAR\n2 1\nF 2\nOBJACOORD\n1\n0 1 2\n",
     r"bad.cbf:10: OBJACOORD: expected 2 field\(s\) 'var value', got 3"),
    (HEAD + "PSDVAR\n1\n2\nOBJFCOORD\n2\n0 1 0 1.0\n0 0 1 2.0\n",
     r"bad.cbf:11: OBJFCOORD: coordinate \(0, 1, 0\) given twice \(lines 10, 11; transposed"),
    (HEAD + "VAR\n2 1\nF 2\nOBJACOORD\n2\n0 1\n0 2\n",
     r"bad.cbf:11: OBJACOORD: coordinate \(0,\) given twice \(lines 10, 11\)"),
    ("OBJSENSE\nMIN\nVER\n1\n",
     r"bad.cbf:1: the first keyword must be VER, found OBJSENSE"),
    ("VER\n1\nVAR\n1 1\nF 1\n",
     r"bad.cbf: no OBJSENSE keyword"),
    ("VER\n4\nOBJSENSE\nMIN\n",
     r"bad.cbf:2: CBF version 4 is not supported"),
    (HEAD + "VAR\n3 1\nSVPSD 3\n",
     r"bad.cbf:7: VAR: the cone SVPSD \(CBF version 4\) is not supported"),
    (HEAD + "VAR\n3 1\nQQ 3\n",
     r"bad.cbf:7: VAR: unknown cone 'QQ'"),
    (HEAD + "VAR\n2 1\nEXP 2\n",
     r"bad.cbf:7: VAR: cone EXP needs dimension 3, got 2"),
    (HEAD + "VAR\n3 1\n@0:POW 3\n",
     r"bad.cbf:7: VAR: cone @0:POW refers to parameter vector 0, but POWCONES defines 0"),
    ("VER\n3\nPOWCONES\n1 3\n2\n1\n1\nOBJSENSE\nMIN\n",
     r"bad.cbf:4: POWCONES: the header announces 3 parameters, the cones list 2"),
    (HEAD + "OBJSENSE\nMAX\n",
     r"bad.cbf:5: OBJSENSE appears twice \(lines 3 and 5\)"),
    (HEAD + "VAR\n1 1\nF 1\nOBJACOORD\n1\n0 1\nCON\n1 1\nL+ 1\n",
     r"bad.cbf:11: CON \(problem structure\) after the problem data"),
    ("VER\n1\nOBJSENSE\nMINIMIZE\n",
     r"bad.cbf:4: OBJSENSE must be MIN or MAX, got 'MINIMIZE'"),
    (HEAD + "INT\n1\n0\nVAR\n1 1\nF 1\n",
     r"bad.cbf:5: INT before VAR"),
    (HEAD + "VAR\n2 1\nF 2\nINT\n1\n2\n",
     r"bad.cbf:10: INT: variable index 2 out of range"),
    ("# only a comment\n\n", r"bad.cbf: no VER keyword"),
])
def test_bad_files_name_the_problem_and_the_line(tmp_path, text, pattern):
    path = tmp_path / "bad.cbf"
    path.write_text(text)
    with pytest.raises(CBFError, match=pattern) as exc:
        read_cbf(path)
    assert isinstance(exc.value, InvalidInputError) and exc.value.argument == "path"


def test_a_corrupt_gzip_file_is_a_cbf_error(tmp_path):
    path = tmp_path / "bad.cbf.gz"
    path.write_bytes(gzip.compress(SPEC_C1.encode())[:40])
    with pytest.raises(CBFError, match="bad.cbf.gz: not a readable gzip file"):
        read_cbf(path)


def test_a_cbf_file_runs_in_a_bench_suite(tmp_path):
    """A suite problem may name a CBF file beside the suite: it is read, certified like
    any other, and its bracket checked against the optimum given (e^2, from the closed
    form of the exponential-cone problem above)."""
    from convexkern.bench import load_suite, run_suite

    text = _cbf("VER\n2", "OBJSENSE\nMIN", "VAR\n3 1\nEXP 3", "CON\n2 1\nL= 2",
                "OBJACOORD\n1\n0 1", "ACOORD\n2\n0 1 1\n1 2 1", "BCOORD\n2\n0 -1\n1 -2")
    with gzip.open(tmp_path / "expo.cbf.gz", "wt") as fh:
        fh.write(text)
    (tmp_path / "s.toml").write_text(
        'name = "cbf"\ntol = 1e-6\ntime_limit = 30.0\nsolvers = ["clarabel", "scs"]\n'
        f'[[problem]]\nname = "expo"\nfile = "expo.cbf.gz"\noptimum = {math.exp(2.0)!r}\n'
        "optimum_digits = 15\n")
    suite = load_suite(tmp_path / "s.toml")
    assert suite.problems[0].formulation_label == "conic (CBF file)"
    result = run_suite(suite, out_dir=tmp_path / "out", n_jobs=1)
    rows = {r["solver"]: r for r in result.rows}
    assert rows["clarabel"]["status"] == "optimal"
    assert all(r["bracket_holds"] is not False for r in rows.values())
    assert rows["clarabel"]["bracket_holds"] is True
