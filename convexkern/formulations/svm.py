r"""Soft- and hard-margin support vector machines (Mansour, SVM lecture notes, 2013, §11.2).

Notation (the notes'): training points :math:`x_i` with labels :math:`y_i \in \{-1,+1\}`,
kernel matrix :math:`K`, :math:`Y = \mathrm{diag}(y)`, :math:`G = YKY`, :math:`e` the
all-ones vector.

* Primal (linear, §11.2):
  :math:`\min_{w,b,\xi}\ \tfrac12\|w\|^2 + C\sum_i \xi_i` s.t.
  :math:`y_i(w^\top x_i + b) \ge 1 - \xi_i,\ \xi \ge 0`.
* Dual (kernel, §11.2):
  :math:`\max_\alpha\ D(\alpha) = e^\top\alpha - \tfrac12\alpha^\top G\alpha` s.t.
  :math:`y^\top\alpha = 0,\ 0 \le \alpha \le C`.
* Hard margin: no slack (``C=None``); the dual loses the upper bound ``alpha <= C``.
* Weighted (per-example) penalties: ``C`` an ``(n,)`` array, the primal penalty
  :math:`\sum_i C_i \xi_i` and the dual box :math:`0 \le \alpha_i \le C_i` (LIBSVM's
  weighted C-SVC: ``C_i = C w_i`` for sample and class weights).

Certificate (derived in ``docs/svm.md``): any feasible :math:`\alpha` defines
:math:`w(\alpha) = \sum_i \alpha_i y_i \phi(x_i)` and decision values
:math:`f = K Y \alpha`.  Weak duality gives, for a PSD kernel,

.. math:: D(\alpha) \le \mathrm{OPT} \le P(\alpha) = \tfrac12\alpha^\top G\alpha
          + C \min_b \sum_i \max(0, 1 - y_i(f_i + b)),

the primal objective at :math:`(w(\alpha), b^\star, \xi = \text{hinge})`, with the best
bias :math:`b^\star` found exactly (a one-dimensional piecewise-linear minimisation).  For
the hard margin, :math:`(w, b)/\gamma` with
:math:`\gamma = \max_b \min_i y_i(f_i + b) > 0` is primal feasible, so
:math:`P(\alpha) = \tfrac12\alpha^\top G\alpha/\gamma^2`.  Both bounds are recomputed
from ``K`` and ``y`` for any solver's answer.

The mathematics (PSD check, hinge minimiser, biases, the bounds and the PSD slack) lives
in :mod:`convexkern.math.svm` and is re-exported here; this module builds the problems and
wraps the bounds into a :class:`~convexkern.report.Certificate`.  The SMO solver and its
adapter are in :mod:`convexkern.algorithms.smo`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import cvxpy as cp
import numpy as np

from .._validation import (
    check_box_C,
    check_kernel,
    check_labels,
    check_margin_C,
    check_matrix,
    check_nonnegative,
)
from ..errors import InvalidInputError
from ..formulation import Formulation
from ..math import svm as _svm
from ..math.gram_rows import GramRows
from ..math.rounding import UNIT_ROUNDOFF as _U
from ..math.rounding import gamma as _gamma
from ..math.svm import (
    PSD_TOL,
    best_hinge_bias,
    bias,
    check_psd,
    decision_function,
    dual_objective,
    primal_bias,
    separability,
)
from ..projections import project_svm_feasible, svm_infeasibility
from ..report import Certificate

__all__ = [
    "dual",
    "primal",
    "certificate",
    "dual_objective",
    "bias",
    "best_hinge_bias",
    "primal_bias",
    "decision_function",
    "check_psd",
    "PSD_TOL",
]

SOURCE = "Mansour, SVM lecture notes (2013), §11.2"


def certificate(
    K: Any,
    y: Any,
    alpha: Any,
    C: float | np.ndarray | None = 1.0,
    *,
    feas_tol: float | None = 1e-6,
    check: bool = True,
) -> Certificate:
    """Certified bounds on the SVM dual optimum from any (nearly) feasible ``alpha``.

    Parameters
    ----------
    K, y : kernel matrix (PSD) and labels in {-1, +1}
    alpha : (n,) array
        A candidate; it is projected onto ``{y'a = 0, 0 <= a <= C}`` and the distance is
        reported in ``residuals["projection"]``.
    C : float, (n,) array or None
        ``None`` for the hard margin; an array for per-example bounds ``0 <= alpha_i <= C_i``
        (the weighted hinge ``sum_i C_i xi_i`` in the primal bound).
    feas_tol : float or None
        Reject ``alpha`` whose constraint violation exceeds ``feas_tol * max(1, C)`` (a
        clear error naming ``alpha``); ``None`` accepts any point (it is still projected).
    check : bool
        Validate ``K`` and ``y`` (symmetry, finiteness, labels).  The PSD property is
        assumed: the bound ``P`` is valid only for a PSD kernel.  The certificate of a
        :func:`dual` formulation uses the ``eps`` that :func:`check_psd` proved
        (``lambda_min(K) >= -eps``) and adds the slack below when ``eps > 0``.

    Notes
    -----
    Kernels PSD only to ``eps`` (``lambda_min(K) >= -eps``, ``K' = K + eps I`` PSD; the
    dual formulation's certificate): with ``G' = G + eps I`` and ``f' = f + eps y*alpha``,

    * ``P'(alpha) <= P(alpha) + eps/2 ||alpha||^2``: the quadratic term grows by
      ``eps/2 ||alpha||^2`` and every hinge term ``(1 - y_i (f_i + b) - eps alpha_i)_+``
      shrinks, as ``eps alpha_i >= 0``;
    * ``OPT <= OPT' + eps/2 max ||alpha||^2 <= OPT' + eps min(n_+, n_-) C^2``, since
      ``D = D' + eps/2 ||alpha||^2`` and ``y'alpha = 0, alpha <= C`` give
      ``||alpha||^2 <= C ||alpha||_1 <= 2 C^2 min(n_+, n_-)``;
    * ``OPT' <= P'(alpha)`` (weak duality, ``K'`` PSD).

    So ``OPT <= P(alpha) + eps/2 (||alpha||^2 + 2 min(n_+, n_-) C^2)`` (at most
    ``eps n C^2``), the upper bound reported (the slack in ``residuals["psd_slack"]``).
    Hard margin (no box): ``P'(alpha) <= U' = (q + eps ||alpha||^2) / (2 gamma^2)``
    (``y_i f'_i = y_i f_i + eps alpha_i``, so the margin ``gamma' >= gamma``).  With
    ``s = sum_{y_i=1} alpha_i = sum_{y_i=-1} alpha_i``, ``alpha' G' alpha >= 4 s^2 rho^2``
    (``rho``, the optimal margin in the feature space of ``K'``, is half the distance
    between the classes' convex hulls, and ``2 rho^2 = 1 / OPT' >= 1 / U'``) and
    ``||alpha||^2 <= 2 s^2``, so ``D(alpha) <= 2 s - s^2 (1/U' - eps)`` and
    ``OPT <= U' / (1 - eps U')`` when ``eps U' < 1`` (else no finite bound: the dual
    may then be unbounded).

    ``P(alpha) >= D(alpha)`` holds identically for feasible ``alpha`` (notes §11.2; proof
    in ``docs/svm.md``).  Both bounds carry a worst-case rounding-error term (Higham's
    ``gamma_n`` bounds on ``K (y alpha)`` and its dot products, with ``|K_ij| <= max K_ii
    + eps``, and the residual of ``y'alpha = 0`` priced by a bound on the optimal bias;
    the sum in ``residuals["rounding"]``), so they enclose the exact optimum of the stored
    data even where the kernel's entries are huge or cancel (``K0 + c 1 1'``); an
    inverted pair is a fault, reported in ``residuals["bound_inversion"]`` and ``note``,
    never hidden.

    Returns
    -------
    Certificate
        ``primal_value = D(alpha)`` (a lower bound on the maximum) and
        ``dual_value = P(alpha)`` (an upper bound), see the module docstring.
    """
    return _certificate(K, y, alpha, C, feas_tol=feas_tol, check=check, psd_eps=0.0)


def _certificate(K: Any, y: Any, alpha: Any, C: float | np.ndarray | None, *,
                 feas_tol: float | None, check: bool, psd_eps: float) -> Certificate:
    """:func:`certificate` for a kernel with ``lambda_min(K) >= -psd_eps`` (its Notes)."""
    if check:
        y = check_labels(y, "y")
        K = check_kernel(K, "K", n=y.size)
        alpha = check_matrix(alpha, "alpha", ndim=1)
        if alpha.size != y.size:
            raise InvalidInputError("alpha", f"has {alpha.size} entries, expected {y.size}")
    if C is None:
        Cf: float | np.ndarray = math.inf
    elif check:
        Cf = check_box_C(C, y.size)
    else:
        Cf = float(C) if np.ndim(C) == 0 else np.asarray(C, dtype=np.float64)
    c_top = float(np.max(Cf))
    viol = svm_infeasibility(alpha, y, Cf)
    if feas_tol is not None and viol > feas_tol * max(1.0, c_top if math.isfinite(c_top) else 1.0):
        raise InvalidInputError(
            "alpha",
            f"violates y'alpha = 0, 0 <= alpha <= C by {viol:.3g} (> feas_tol = {feas_tol:g}); "
            "project it first with convexkern.projections.project_svm_feasible",
        )
    b = _svm.dual_bounds(K, y, alpha, Cf, psd_eps)
    # the scale a bracket below 1e-9 is judged against (report.relative_gap): the dual
    # objective's linear terms sum(alpha), within a factor 2 of D(alpha) near the
    # optimum (1/2 alpha'Q alpha <= sum(alpha) there); without it a kernel scaled by 1e10
    # (optimum 1e-10) was judged by an absolute gap, optimal with a bracket 7.5 times
    # wider than the optimum
    scale = float(np.sum(np.abs(b.alpha)))
    return Certificate(
        primal_value=b.lower, dual_value=b.upper, sense="maximize",
        point={"alpha": b.alpha, "b": np.asarray(b.b)}, residuals=b.residuals,
        note="; ".join(b.notes), scale=scale if math.isfinite(scale) else None,
    )


# --------------------------------------------------------------------------- builders
def dual(K: Any, y: Any, C: float | np.ndarray | None = 1.0, *,
         psd_check: bool = True, check_input: bool = True,
         psd_eps: float | None = None) -> Formulation:
    """The kernel SVM dual (notes §11.2) as a :class:`~convexkern.Formulation`.

    Parameters
    ----------
    K : (n, n) array, or GramRows
        A positive semidefinite kernel matrix (checked; see :func:`check_psd`), or its
        rows on demand (:class:`~convexkern.math.gram_rows.GramRows`, e.g.
        ``RBF(gamma).gram_rows(X)``): SMO then computes only the rows it touches and the
        certificate only the support vectors' rows, about the PSD matrix the rows are
        within ``entry_error`` of (no PSD check, no ``n x n`` matrix); the cvxpy problem
        (for a conic solver) forms the matrix when first used.  Soft margin only.
    y : (n,) array of -1/+1
    C : float > 0, (n,) array of bounds >= 0, or None for the hard margin
        A ``cvxpy.Parameter`` (``f.parameters["C"]``): change it and re-solve without
        rebuilding (see :func:`convexkern.path`).  An array gives each example its own
        bound, ``0 <= alpha_i <= C_i`` (the weighted C-SVC of LIBSVM, ``C_i = C w_i``; a
        zero pins ``alpha_i = 0``, not all may be zero); the parameter is then the vector.
    psd_check : bool
        Skip the O(n^3 / 3) PSD check when you know ``K`` is PSD (the certificate then
        takes ``K`` as exactly PSD).  Otherwise the ``eps`` that :func:`check_psd` proves
        (``lambda_min(K) >= -eps``, 0 when a plain Cholesky succeeds) is kept in
        ``f.data["psd_eps"]`` and the certificate adds its slack (:func:`certificate`).
    psd_eps : float >= 0, optional
        A proven ``eps`` with ``lambda_min(K) >= -eps`` that the caller knows by
        construction (``n`` times a kernel's :meth:`~convexkern.kernels.Kernel.gram_error`:
        the Gram matrix is within that of one PSD by construction); it replaces the
        numerical check, and the certificate adds its slack.
    check_input : bool
        ``False`` skips the one pass over the ``n^2`` entries that checks ``K`` finite and
        symmetric (:func:`convexkern._validation.check_kernel`; type, shape and labels are
        still checked): for a caller that validated ``K`` itself (a kernel matrix it
        computed or checked once, then built or sliced again).  The certificate is a
        proof only for a finite symmetric ``K``, so with ``False`` that is the caller's
        promise; it is recorded in ``f.data["checked"]``.  The solvers never check ``K``
        again: SMO runs with its own ``check_input=False`` on the builder's ``K``.

    Returns
    -------
    Formulation
        Maximises ``e'alpha - 1/2 alpha' Y K Y alpha``; variable ``alpha``; parameter ``C``
        (soft margin); solvable by the conic solvers and by ``smo`` (the default).  Reports
        carry ``x["alpha"]`` and the bias ``x["b"]`` of the certified primal point
        (:func:`primal_bias`).

    Examples
    --------
    >>> import numpy as np, convexkern as ck
    >>> X = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])
    >>> K = (1 + X @ X.T) ** 2
    >>> r = ck.solve(ck.formulations.svm.dual(K, y, C=None), "clarabel")
    >>> np.round(r.x["alpha"], 6).tolist(), round(r.primal_value, 6)
    ([0.125, 0.125, 0.125, 0.125], 0.25)
    """
    y = check_labels(y, "y")
    if not isinstance(check_input, (bool, np.bool_)):
        raise InvalidInputError("check_input", f"expected True or False, got {check_input!r}")
    hard = C is None
    on_demand = isinstance(K, GramRows)
    if on_demand:
        if K.n != y.size:
            raise InvalidInputError("K", f"has {K.n} rows, expected {y.size} (len(y))")
        if hard:
            raise InvalidInputError("C", "must be finite with rows on demand (GramRows): "
                                         "the hard margin's checks need the whole matrix")
        psd_eps = 0.0  # the certificate is about the rows' PSD matrix K*
    else:
        K = check_kernel(K, "K", n=y.size, values=bool(check_input))
    n = y.size
    Cv = math.inf if hard else check_box_C(C, n)
    if not on_demand:
        psd_eps = (check_nonnegative(psd_eps, "psd_eps") if psd_eps is not None
                   else check_psd(K) if psd_check else 0.0)
    alpha = cp.Variable(n, name="alpha")
    params: dict[str, cp.Parameter] = {}
    if not hard:
        if np.ndim(Cv) == 0:
            Cp = cp.Parameter(pos=True, name="C", value=Cv)
        else:  # per-example bounds, some may be 0
            Cp = cp.Parameter(n, nonneg=True, name="C", value=Cv)
        params["C"] = Cp

    def build() -> cp.Problem:
        # built on first access of f.problem (a conic solve): SMO, TriK and the
        # certificate read f.data alone, and cvxpy's constants copy K three times (0.58
        # of 0.69 s at n = 8000); with rows on demand the matrix itself is formed here
        # (a one-vs-one fit builds one formulation per pair of classes)
        Km = K.full() if on_demand else K
        ya = cp.multiply(y, alpha)
        constraints = [y @ alpha == 0, alpha >= 0]
        if not hard:
            constraints.append(alpha <= params["C"])
        return cp.Problem(cp.Maximize(cp.sum(alpha) - 0.5 * cp.quad_form(ya, cp.psd_wrap(Km))),
                          constraints)

    build.sense = "maximize"  # type: ignore[attr-defined]
    build.cone_class = "QP"  # type: ignore[attr-defined]
    problem: Any = build

    last: list[Any] = []  # (K, y, alpha, C, psd_eps, certificate) of the last call

    def certify(f: Formulation, point: Mapping[str, np.ndarray]) -> Certificate:
        C_now = None if hard else f.param("C")
        K_, y_, a, eps = f.data["K"], f.data["y"], point["alpha"], f.data["psd_eps"]
        # the same point on the same data certified twice in a row (SMO's adapter checks
        # its answer, then certified_report certifies it): the bounds are computed once
        if (last and last[0] is K_ and last[1] is y_ and last[4] == eps
                and np.array_equal(last[2], a) and np.array_equal(last[3], C_now)):
            cert = last[5]
        else:
            cert = _certificate(K_, y_, a, C_now, feas_tol=None, check=False, psd_eps=eps)
            last[:] = [K_, y_, np.array(a, copy=True), C_now if C_now is None
                       else np.array(C_now, copy=True), eps, cert]
        # own copies of the point's arrays: a caller may modify a report's x
        return replace(cert, point={k: np.array(v, copy=True) for k, v in cert.point.items()})

    return Formulation(
        name="svm.dual" if not hard else "svm.dual(hard)",
        problem=problem,
        variables={"alpha": alpha},
        parameters=params,
        source=f"{SOURCE} (dual)",
        kind="svm.dual",
        data={"K": K, "y": y, "hard": hard, "psd_eps": psd_eps, "checked": bool(check_input)},
        certify=certify,
        default_solver="smo",
        decision="dual_expansion",
        facts={"feasible": "alpha = 0 is feasible",
               "bounded": _separable_fact(K, y) if hard
               else "0 <= alpha <= C bounds the objective",
               **({"unbounded": _inseparable_fact(K, y)} if hard else {})},
    )


def _primal_upper(X: np.ndarray, y: np.ndarray, w: np.ndarray, b: float,
                  C: float) -> tuple[float, dict[str, float]]:
    """An upper bound on the linear SVM primal (``C = inf``: hard margin) at ``(w, b)``,
    the slacks taken as hinge losses, every rounding error counted (Higham §3.1): each
    margin ``m_i = y_i (x_i'w + b)`` is computed within ``gamma_{d+2} (|x_i|'|w| + |b|)``
    (points far from the origin cancel heavily in it: 2^22 offsets moved a bracket past the
    optimum by 1e-10 before), ``w'w`` is summed exactly (``math.fsum``) from squares each
    within half an ulp.  Residuals: the largest margin violation (hard margin)."""
    residuals: dict[str, float] = {}
    if w.size != X.shape[1] or not (np.all(np.isfinite(w)) and math.isfinite(b)):
        return math.inf, residuals
    d = X.shape[1]
    g = float(_gamma(d + 2))
    m = y * (X @ w + b)
    err = (np.abs(X) @ np.abs(w) + abs(b)) * (g * (1.0 + g)) + 2 * _U * np.abs(m)
    ww = math.fsum((w * w).tolist()) * (1.0 + 2 * _U)  # each square within half an ulp
    if not math.isfinite(C):
        gamma = float(np.min(m - err)) if m.size else math.inf
        residuals["margin_violation"] = max(0.0, 1.0 - float(np.min(m)) if m.size else 0.0)
        if not gamma > 0:
            return math.inf, residuals
        return _up(_up(0.5 * ww) / _down(gamma * gamma), 4), residuals
    hinge = np.maximum(1.0 - m + err + 2 * _U * np.abs(1.0 - m), 0.0)
    total = math.fsum(hinge.tolist()) * (1.0 + 2 * _U)
    return _up(_up(0.5 * ww) + _up(C * total), 2), residuals


def _balanced(a: np.ndarray, y: np.ndarray, C: float) -> np.ndarray | None:
    """``a`` (in ``[0, C]``, ``y'a = 0`` to round-off) moved so that ``y'a = 0`` holds
    exactly, or ``None``.  The exact residual ``r`` (``math.fsum``: correctly rounded, so 0
    only when exactly 0) is taken off the smallest coefficient that has room for it,
    lowering one on the side ahead or raising one on the other (a zero one takes ``|r|``
    exactly); a step that rounds leaves a far smaller residual, taken off in turn."""
    a = a.copy()
    for _ in range(8):
        r = math.fsum((y * a).tolist())
        if r == 0.0:
            return a
        down = (y * r > 0) & (a >= abs(r))  # a_i - |r| stays >= 0
        up = (y * r < 0) & (C - a >= abs(r))  # a_i + |r| stays <= C
        ok = down | up
        if not ok.any():
            return None
        i = int(np.flatnonzero(ok)[np.argmin(a[ok])])  # the finest ulp
        a[i] = a[i] - abs(r) if down[i] else a[i] + abs(r)
    return a if math.fsum((y * a).tolist()) == 0.0 else None


def _linear_dual_lower(X: np.ndarray, y: np.ndarray, a: np.ndarray, C: float) -> float:
    """A lower bound on the linear SVM primal from dual multipliers ``a``: ``D(a) = sum a -
    1/2 ||X'(y a)||^2`` at ``a`` made exactly feasible (:func:`_balanced`; weak duality
    needs ``y'a = 0`` exactly, the bias being free), ``u = X'(y a)`` enclosed
    componentwise within ``gamma_{n+1} |X|' a`` (Higham §3.1).  Only ``u`` is formed (not
    ``K (y a)``, whose entries cancel far more when the points lie far from the origin).
    ``-inf`` when ``a`` cannot be balanced exactly."""
    n = y.size
    a = _balanced(a, y, C)
    if a is None:
        return -math.inf
    u = X.T @ (y * a)
    err = (np.abs(X).T @ a) * (float(_gamma(n + 1)) * (1.0 + 4 * _U))
    big = (np.abs(u) + err) * (1.0 + 2 * _U)
    uu = math.fsum((big * big).tolist()) * (1.0 + 2 * _U)  # >= ||u||^2
    total = math.fsum(a.tolist())
    return _down(_down(total) - _up(0.5 * uu))


def _up(x: float, k: int = 1) -> float:
    """``x`` moved up by ``k`` ulps' worth of relative round-off."""
    return x + k * _U * abs(x) + _TINY if math.isfinite(x) else x


def _down(x: float) -> float:
    return x - _U * abs(x) - _TINY if math.isfinite(x) else x


_TINY = 2.0**-1074  # the smallest subnormal: an underflow's absolute error


def _separable_fact(K: np.ndarray, y: np.ndarray):
    """The hard margin's lazy fact: the classes are separable in the feature space of K
    (proven by a checked witness, :func:`convexkern.math.svm.separability`), so the
    hard-margin primal is feasible and its dual bounded; ``""`` when not proven."""

    def fact() -> str:
        verdict, reason = separability(K, y)
        return f"the classes are separable: {reason}" if verdict == "separable" else ""

    return fact


def _inseparable_fact(K: np.ndarray, y: np.ndarray, features: np.ndarray | None = None):
    """The hard margin's other lazy fact: the classes are not separable in the feature
    space of K, so the hard-margin primal is infeasible and its dual unbounded; proven
    by a Farkas ray checked in exact arithmetic (:func:`convexkern.math.svm.separability`,
    on ``features`` where the kernel is ``X X'``), ``""`` when not proven."""

    def fact() -> str:
        verdict, reason = separability(K, y, features)
        return f"the classes are not separable: {reason}" if verdict == "inseparable" else ""

    return fact


def primal(X: Any, y: Any, C: float | None = 1.0) -> Formulation:
    """The linear soft-margin (or hard-margin, ``C=None``) SVM primal (notes §11.2).

    Variables ``w`` (d,), ``b`` and ``xi`` (n,) (no ``xi`` for the hard margin); parameter
    ``C``.  The certificate evaluates the primal objective at ``(w, b)`` with the slacks
    recomputed as hinge losses (so any ``(w, b)`` is feasible), and bounds the optimum from
    below by the dual value of the multipliers of the margin constraints (``alpha``, read
    from the conic solver's dual variables), projected onto the dual feasible set.
    """
    y = check_labels(y, "y")
    X = check_matrix(X, "X")
    if X.shape[0] != y.size:
        raise InvalidInputError("y", f"has {y.size} labels but X has {X.shape[0]} rows")
    hard = C is None
    Cv = check_margin_C(C)
    n, d = X.shape
    w = cp.Variable(d, name="w")
    b = cp.Variable(name="b")
    margins = cp.multiply(y, X @ w + b)
    variables: dict[str, cp.Variable] = {"w": w, "b": b}
    params: dict[str, cp.Parameter] = {}
    if hard:
        margin_con = margins >= 1
        problem = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w)), [margin_con])
    else:
        xi = cp.Variable(n, name="xi")
        Cp = cp.Parameter(pos=True, name="C", value=Cv)
        margin_con = margins >= 1 - xi
        problem = cp.Problem(
            cp.Minimize(0.5 * cp.sum_squares(w) + Cp * cp.sum(xi)), [margin_con, xi >= 0]
        )
        variables["xi"] = xi
        params["C"] = Cp

    def extract(f: Formulation) -> dict[str, np.ndarray]:
        if w.value is None or b.value is None:
            raise InvalidInputError("point", "the primal problem has no solution stored")
        out = {"w": np.asarray(w.value, float), "b": np.asarray(b.value, float)}
        if margin_con.dual_value is not None:
            out["alpha"] = np.asarray(margin_con.dual_value, float)
        return out

    def certify(f: Formulation, point: Mapping[str, np.ndarray]) -> Certificate:
        Xd, yd = f.data["X"], f.data["y"]
        wv = np.asarray(point["w"], float).reshape(-1)
        bv = float(np.asarray(point["b"]).reshape(-1)[0]) if np.size(point["b"]) else 0.0
        C_now = math.inf if hard else f.param("C")
        upper, residuals = _primal_upper(Xd, yd, wv, bv, C_now)
        lower = -math.inf
        out = {"w": wv, "b": np.asarray(bv)}
        note = "no multipliers given: no lower bound"
        if "alpha" in point:
            a_raw = np.asarray(point["alpha"], float).reshape(-1)
            if a_raw.size != yd.size or not np.all(np.isfinite(a_raw)):
                note = "the multipliers have the wrong size or are not finite: no lower bound"
            else:
                a = project_svm_feasible(a_raw, yd, C_now)
                residuals["projection"] = float(np.max(np.abs(a - a_raw), initial=0.0))
                lower = _linear_dual_lower(Xd, yd, a, C_now)
                out["alpha"] = a
                note = "" if math.isfinite(lower) else (
                    "the multipliers could not be made exactly feasible (y'alpha = 0): no "
                    "lower bound")
        return Certificate(
            primal_value=upper, dual_value=lower, sense="minimize", point=out,
            residuals=residuals, note=note,
        )

    return Formulation(
        name="svm.primal" if not hard else "svm.primal(hard)",
        problem=problem,
        variables=variables,
        parameters=params,
        source=f"{SOURCE} (linear primal)",
        kind="svm.primal",
        data={"X": X, "y": y, "hard": hard},
        certify=certify,
        extract=extract,
        dual_builder=lambda: dual(X @ X.T, y, None if hard else Cv, psd_check=False),
        default_solver="clarabel",
        decision="linear",
        facts={"bounded": "the objective is >= 0",
               "feasible": _separable_fact(X @ X.T, y) if hard
               else "w = 0, b = 0, xi = 1 is feasible",
               **({"infeasible": _inseparable_fact(X @ X.T, y, X)} if hard else {})},
    )
