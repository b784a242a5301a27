r"""The builders of Abe (ICANN 2012)'s four LPs and their certificates.

The notation, the representation of the strict ``rho > 0`` (``rho_min``) and the duals are
described in :mod:`convexkern.formulations.lp_svm`; the closed-form values the certificates
evaluate are in :mod:`convexkern.math.lp_svm`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import cvxpy as cp
import numpy as np

from ..._validation import check_positive
from ...errors import InvalidInputError, InvalidTypeError
from ...formulation import Formulation
from ...math.lp_svm import (
    below_threshold,
    check_gram,
    lp_dual_value,
    lp_value,
    max_abs_diff,
    nu_lp_dual_value,
    nu_lp_value,
)
from ...report import Certificate, Status
from .triplets import triplet_matrix

__all__ = ["nu_lp", "nu_lp_dual", "lp", "lp_dual", "lp_from_data", "nu_lp_from_data"]

SOURCE = "Abe, 'Training Mahalanobis kernels by linear programming', ICANN 2012"
KINDS = ("lp_svm.nu_lp", "lp_svm.nu_lp_dual", "lp_svm.lp", "lp_svm.lp_dual")


def _check_rho_min(rho_min: Any) -> float | None:
    if rho_min is None:
        return None
    if isinstance(rho_min, bool) or not isinstance(rho_min, (int, float, np.integer, np.floating)):
        raise InvalidTypeError("rho_min", f"expected None or a number >= 0, got {rho_min!r}")
    v = float(rho_min)
    if not math.isfinite(v) or v < 0:
        raise InvalidInputError("rho_min", f"must be None or a finite number >= 0, got {rho_min!r}")
    return v


def _theorem2_hint(M: int) -> str:
    return (f"by Theorem 2 (Abe 2012) this happens exactly when C_rho < 1/M = {1.0 / M:.6g} "
            f"(M = {M} triplets); raise C_rho")


def _extractor(var: cp.Variable, name: str, con: Any, dual: str) -> Any:
    """The ``extract`` of a builder: ``var``'s value as ``name`` and the multipliers of
    ``con`` (when the solver gave them) as ``dual``."""

    def extract(f: Formulation) -> dict[str, np.ndarray]:
        if var.value is None:
            raise InvalidInputError("point", "the problem has no solution stored")
        out = {name: np.asarray(var.value, float)}
        if con.dual_value is not None:
            out[dual] = np.asarray(con.dual_value, float)
        return out

    return extract


def _certifier(param: str, main: str, own: Any, dual: str, other: Any,
               carry: tuple[str, ...], sense: str, proven: Status | None = None) -> Any:
    """The ``certify`` of a builder: ``own(A, point[main], C)`` (the closed-form value of
    this problem, ``C = f.param(param)``) and, when the multipliers ``point[dual]`` are
    given, ``other(A, point[dual], C)`` (the partner's value) as the bound from the other
    side, kept on the right side of the value; ``carry`` names the partner's completed
    point entries added to the point.  ``proven``: the status Theorem 2 proves when
    ``C_rho < 1/M`` (the ν-LP pair), with the hint as the note."""

    def certify(f: Formulation, point: Mapping[str, np.ndarray]) -> Certificate:
        C = f.param(param)
        Ad = f.data["A"]
        val, pt = own(Ad, point[main], C)
        res = {"projection": max_abs_diff(pt[main], np.asarray(point[main], float))}
        bound = math.inf if sense == "maximize" else -math.inf
        if dual in point:
            bound, opt = other(Ad, point[dual], C)
            pt.update({k: opt[k] for k in carry})
            res[f"{dual}_projection"] = max_abs_diff(opt[dual], np.asarray(point[dual], float))
        if math.isfinite(val) and math.isfinite(bound):
            bound = max(bound, val) if sense == "maximize" else min(bound, val)
        side = "upper" if sense == "maximize" else "lower"
        note = "" if dual in point else f"no multipliers: no {side} bound"
        status = None
        if proven is not None and below_threshold(C, Ad.shape[0]):
            note = f"{proven.value}: " + _theorem2_hint(Ad.shape[0])
            status = proven
        elif proven is not None and C is not None and Fraction(float(C)) * Ad.shape[0] < 1:
            # within THRESHOLD_RTOL below 1/M: a 1/M rounded down, read as the threshold
            note = ((note + "; ") if note else "") + (
                f"C_rho = {float(C)!r} is below 1/M = 1/{Ad.shape[0]} by rounding only and "
                "is read as 1/M: at the stored value itself the problem is unbounded "
                "(Theorem 2); pass a C_rho >= 1/M to avoid the convention")
        scale = None
        if proven is not None:  # the nu-LP pair: rho - C sum(xi) and z cancel to 0
            # the objective's terms at the completed point, summed before they cancel: a
            # tiny optimum of tiny data is not called optimal by an absolute gap
            terms = [abs(float(pt["rho"])) + abs(C) * float(np.sum(np.abs(pt["xi"])))
                     if "rho" in pt and "xi" in pt else 0.0,
                     abs(float(pt["z"])) if "z" in pt else 0.0]
            finite = [t for t in terms if math.isfinite(t)]
            scale = max(finite) if finite and max(finite) > 0 else None
        return Certificate(primal_value=val, dual_value=bound, sense=sense, point=pt,
                           residuals=res, note=note, proven=status, scale=scale)

    return certify


def _theorem2_bounded(C_rho: Any, M: int) -> str:
    """Why (7) is bounded when ``C_rho >= 1/M`` (exactly, in rational arithmetic): summing
    the M margin rows, ``rho - C_rho sum(xi) <= sum(A R)/M + (1/M - C_rho) sum(xi)``, and
    ``R`` lies in the simplex (Abe 2012, Theorem 2); "" (not proven) otherwise."""
    if C_rho is None or Fraction(float(C_rho)) * M < 1:
        return ""
    return (f"C_rho = {float(C_rho):.6g} >= 1/M = {1 / M:.6g}: bounded by Abe's Theorem 2 "
            "(the margin rows summed)")


def _theorem2_no_solution(C_rho: Any, M: int, word: str) -> str:
    """Why (7) is unbounded and (14)-(17) infeasible when ``C_rho < 1/M`` (exactly, in
    rational arithmetic: Abe 2012, Theorem 2); "" (not proven) otherwise."""
    if C_rho is None or not Fraction(float(C_rho)) * M < 1:
        return ""
    return (f"C_rho = {float(C_rho)!r} < 1/M = 1/{M}: {word} by Abe's Theorem 2; "
            "raise C_rho")


def _theorem2_feasible(C_rho: Any, M: int) -> str:
    """Why (14)-(17) is feasible when ``C_rho >= 1/M``: ``delta = e/M``; "" otherwise."""
    if C_rho is None or Fraction(float(C_rho)) * M < 1:
        return ""
    return f"C_rho = {float(C_rho):.6g} >= 1/M: delta = e/M, z = max(A'delta) is feasible"


def nu_lp(A: Any, C_rho: float = 1.0, *, rho_min: float | None = 0.0) -> Formulation:
    """The ν-LP SVM (5)–(9) (maximisation) as a :class:`~convexkern.Formulation`.

    Parameters
    ----------
    A : (M, m) array
        Triplet coefficients, row ``r`` = ``(a_1r .. a_mr)`` (see :func:`triplet_matrix`).
    C_rho : float > 0
        Margin parameter, a ``cvxpy.Parameter`` (``f.parameters["C_rho"]``).  Below ``1/M``
        the problem is unbounded (Theorem 2): every solver reports ``unbounded``.
    rho_min : float >= 0 or None
        How the paper's strict ``rho > 0`` is represented (package docstring): ``0.0`` the
        closure (dual = the paper's (14)–(17)), ``None`` free, ``eps > 0`` ``rho >= eps``.

    Returns
    -------
    Formulation
        Variables ``R`` (m,), ``rho``, ``xi`` (M,); reports carry ``x["R"], x["rho"],
        x["xi"]`` and the multipliers ``x["delta"]``.

    Examples
    --------
    >>> import numpy as np, convexkern as ck
    >>> A = np.array([[1.0, -1.0], [-1.0, 2.0], [0.5, 0.5]])
    >>> r = ck.solve(ck.formulations.lp_svm.nu_lp(A, C_rho=1.0), "linprog")
    >>> r.status.value, round(r.primal_value, 6), round(r.dual_value, 6)
    ('optimal', 0.2, 0.2)
    """
    A = check_gram(A)
    Cv = check_positive(C_rho, "C_rho")
    rmin = _check_rho_min(rho_min)
    M, m = A.shape
    R = cp.Variable(m, nonneg=True, name="R")
    xi = cp.Variable(M, nonneg=True, name="xi")
    rho = cp.Variable(name="rho")
    Cp = cp.Parameter(pos=True, name="C_rho", value=Cv)
    margin = A @ R >= rho - xi
    cons = [cp.sum(R) == 1, margin]
    if rmin is not None:
        cons.append(rho >= rmin)
    problem = cp.Problem(cp.Maximize(rho - Cp * cp.sum(xi)), cons)

    extract = _extractor(R, "R", margin, "delta")

    certify = _certifier(
        "C_rho", "R", lambda Ad, R_, C: nu_lp_value(Ad, R_, C, rmin),
        "delta", lambda Ad, d, C: nu_lp_dual_value(Ad, d, C, rmin), ("delta",), "maximize",
        proven=Status.UNBOUNDED)

    return Formulation(
        name="lp_svm.nu_lp", problem=problem,
        variables={"R": R, "rho": rho, "xi": xi}, parameters={"C_rho": Cp},
        source=f"{SOURCE}, (5)-(9)", kind="lp_svm.nu_lp",
        data={"A": A, "rho_min": rmin}, certify=certify, extract=extract,
        dual_builder=lambda: nu_lp_dual(A, float(Cp.value), rho_min=rmin),
        default_solver="linprog",
        hints={"unbounded": _theorem2_hint(A.shape[0])},
        facts={"feasible": "R = e_1, rho = max(rho_min, 0), xi = max(0, rho - A R) is "
                           "feasible",
               "bounded": lambda: _theorem2_bounded(Cp.value, M),
               "unbounded": lambda: _theorem2_no_solution(Cp.value, M, "unbounded")},
    )


def nu_lp_dual(A: Any, C_rho: float = 1.0, *, rho_min: float | None = 0.0) -> Formulation:
    """The dual (14)–(17) of the ν-LP SVM (minimisation) as a Formulation.

    ``min z  s.t.  sum delta >= 1, A' delta <= z e, 0 <= delta <= C_rho`` (with
    ``sum delta = 1`` when ``rho_min is None`` and the objective ``z + eps (1 - sum delta)``
    when ``rho_min = eps > 0``).  Infeasible for ``C_rho < 1/M`` (every solver reports
    ``infeasible``).  Variables ``delta`` (M,), ``z``; the multipliers of ``A'delta <= z``
    are the ν-LP's ``R`` (``x["R"]`` in reports).
    """
    A = check_gram(A)
    Cv = check_positive(C_rho, "C_rho")
    rmin = _check_rho_min(rho_min)
    M, m = A.shape
    delta = cp.Variable(M, nonneg=True, name="delta")
    z = cp.Variable(name="z")
    Cp = cp.Parameter(pos=True, name="C_rho", value=Cv)
    cover = A.T @ delta <= z
    cons = [cover, delta <= Cp]
    obj = z
    if rmin is None:
        cons.append(cp.sum(delta) == 1)
    else:
        cons.append(cp.sum(delta) >= 1)
        if rmin > 0:
            obj = z + rmin * (1 - cp.sum(delta))
    problem = cp.Problem(cp.Minimize(obj), cons)

    extract = _extractor(delta, "delta", cover, "R")

    certify = _certifier(
        "C_rho", "delta", lambda Ad, d, C: nu_lp_dual_value(Ad, d, C, rmin),
        "R", lambda Ad, R_, C: nu_lp_value(Ad, R_, C, rmin), ("R", "rho"), "minimize",
        proven=Status.INFEASIBLE)

    return Formulation(
        name="lp_svm.nu_lp_dual", problem=problem,
        variables={"delta": delta, "z": z}, parameters={"C_rho": Cp},
        source=f"{SOURCE}, (14)-(17)", kind="lp_svm.nu_lp_dual",
        data={"A": A, "rho_min": rmin}, certify=certify, extract=extract,
        dual_builder=lambda: nu_lp(A, float(Cp.value), rho_min=rmin),
        default_solver="linprog",
        hints={"infeasible": _theorem2_hint(A.shape[0])},
        facts={"feasible": lambda: _theorem2_feasible(Cp.value, M),
               "bounded": "0 <= delta <= C_rho bounds A'delta, hence z from below",
               "infeasible": lambda: _theorem2_no_solution(Cp.value, M, "infeasible")},
    )


def lp(A: Any, C_M: float = 1.0) -> Formulation:
    """The LP SVM (10)–(13) (minimisation) as a Formulation.

    ``min sum R + C_M sum xi  s.t.  R >= 0, A R >= 1 - xi, xi >= 0``.  Always feasible
    (``R = 0, xi = 1``) and bounded below by 0.  Variables ``R``, ``xi``; parameter
    ``C_M``; reports carry the multipliers ``x["alpha"]`` of the margin constraints.

    Examples
    --------
    >>> import numpy as np, convexkern as ck
    >>> A = np.array([[1.0, -1.0], [-1.0, 2.0], [0.5, 0.5]])
    >>> r = ck.solve(ck.formulations.lp_svm.lp(A, C_M=10.0), "linprog")
    >>> np.round(r.x["R"], 6).tolist(), round(r.primal_value, 6)
    ([3.0, 2.0], 5.0)
    """
    A = check_gram(A)
    Cv = check_positive(C_M, "C_M")
    M, m = A.shape
    R = cp.Variable(m, nonneg=True, name="R")
    xi = cp.Variable(M, nonneg=True, name="xi")
    Cp = cp.Parameter(pos=True, name="C_M", value=Cv)
    margin = A @ R >= 1 - xi
    problem = cp.Problem(cp.Minimize(cp.sum(R) + Cp * cp.sum(xi)), [margin])

    extract = _extractor(R, "R", margin, "alpha")

    certify = _certifier("C_M", "R", lp_value, "alpha", lp_dual_value, ("alpha",), "minimize")

    return Formulation(
        name="lp_svm.lp", problem=problem, variables={"R": R, "xi": xi},
        parameters={"C_M": Cp}, source=f"{SOURCE}, (10)-(13)", kind="lp_svm.lp",
        data={"A": A}, certify=certify, extract=extract,
        dual_builder=lambda: lp_dual(A, float(Cp.value)), default_solver="linprog",
        facts={"feasible": "R = 0, xi = 1 is feasible", "bounded": "the objective is >= 0"},
    )


def lp_dual(A: Any, C_M: float = 1.0) -> Formulation:
    """The dual of the LP SVM (derived in the package docstring; not in the paper).

    ``max sum alpha  s.t.  A' alpha <= e, 0 <= alpha <= C_M``.  Variable ``alpha``; the
    multipliers of ``A' alpha <= e`` are the LP SVM's ``R`` (``x["R"]`` in reports).
    """
    A = check_gram(A)
    Cv = check_positive(C_M, "C_M")
    M, m = A.shape
    alpha = cp.Variable(M, nonneg=True, name="alpha")
    Cp = cp.Parameter(pos=True, name="C_M", value=Cv)
    cover = A.T @ alpha <= 1
    problem = cp.Problem(cp.Maximize(cp.sum(alpha)), [cover, alpha <= Cp])

    extract = _extractor(alpha, "alpha", cover, "R")

    certify = _certifier("C_M", "alpha", lp_dual_value, "R", lp_value, ("R",), "maximize")

    return Formulation(
        name="lp_svm.lp_dual", problem=problem, variables={"alpha": alpha},
        parameters={"C_M": Cp}, source=f"{SOURCE}, dual of (10)-(13)",
        kind="lp_svm.lp_dual", data={"A": A}, certify=certify, extract=extract,
        dual_builder=lambda: lp(A, float(Cp.value)), default_solver="linprog",
        facts={"feasible": "alpha = 0 is feasible", "bounded": "0 <= alpha <= C_M"},
    )


def lp_from_data(X: Any, y: Any, C_M: float = 1.0) -> Formulation:
    """:func:`lp` on ``A = triplet_matrix(X, y)`` (for TOML specs, which pass ``X``, ``y``).

    ``data["X"]`` is not kept: the formulation learns a metric, not a classifier, so a
    spec reports no test accuracy for it.
    """
    f = lp(triplet_matrix(X, y), C_M)
    f.data["triplets_from"] = tuple(np.shape(X))
    return f


def nu_lp_from_data(X: Any, y: Any, C_rho: float = 1.0, *,
                    rho_min: float | None = 0.0) -> Formulation:
    """:func:`nu_lp` on ``A = triplet_matrix(X, y)`` (for TOML specs)."""
    f = nu_lp(triplet_matrix(X, y), C_rho, rho_min=rho_min)
    f.data["triplets_from"] = tuple(np.shape(X))
    return f
