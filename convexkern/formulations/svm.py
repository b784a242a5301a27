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
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

import cvxpy as cp
import numpy as np

from .._validation import check_kernel, check_labels, check_matrix, check_positive
from ..errors import InvalidInputError, NotPSDError
from ..formulation import Formulation
from ..projections import project_svm_feasible, svm_infeasibility
from ..report import Certificate, SolveReport, Status
from ..solvers.certify import certified_report
from ..solvers.status import algorithm_status

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
]

SOURCE = "Mansour, SVM lecture notes (2013), §11.2"
#: Relative tolerance of the PSD check on the kernel (eigenvalues above -tol * max|K_ii|).
PSD_TOL = 1e-8
#: Relative round-off within which the certificate's upper bound may fall below its lower
#: bound and is clamped to it (beyond this the inversion is reported, see certificate()).
_ROUND_OFF = 1e-12


# --------------------------------------------------------------------------- checks
#: Jitters tried by :func:`check_psd`, as fractions of ``tol * max|K_ii|``: none first (an
#: exactly PSD kernel, ``eps = 0``), then round-off sizes (a computed Gram matrix of a
#: singular or ill-conditioned kernel is PSD only to about ``n u max K_ii``), then ``tol``.
_PSD_LADDER = (0.0, 1e-6, 1e-3, 1.0)


def check_psd(K: np.ndarray, name: str = "K", tol: float = PSD_TOL) -> float:
    """Raise unless ``K`` is positive semidefinite to ``tol * max|diag(K)|``; return the
    ``eps >= 0`` it proves, ``lambda_min(K) >= -eps``.

    A Cholesky factorisation of ``K + j I`` succeeds exactly when no eigenvalue lies below
    ``-j`` (up to round-off), at a third of the cost of an eigendecomposition.  It is tried
    with ``j = 0`` first (success: ``eps = 0``), then with ``j = tol * max|K_ii|`` times
    1e-6, 1e-3 and 1; the first success gives ``eps = j``.  A kernel that is PSD only up
    to round-off thus costs two to four factorisations, an exactly PSD one a single one.
    The certificate of :func:`dual` adds the slack that ``eps > 0`` calls for (see
    :func:`certificate`).  On failure the smallest eigenvalue is computed for the message.

    Raises
    ------
    NotPSDError
        (an :class:`~convexkern.errors.InvalidInputError`) naming ``name``, with the
        smallest eigenvalue in ``lambda_min``.
    """
    scale = max(float(np.max(np.abs(np.diag(K)))), 1e-300)
    eye = None
    for frac in _PSD_LADDER:
        jitter = frac * tol * scale
        try:
            if jitter == 0.0:
                np.linalg.cholesky(K)
            else:
                eye = np.eye(K.shape[0]) if eye is None else eye
                np.linalg.cholesky(K + jitter * eye)
            return jitter
        except np.linalg.LinAlgError:
            continue
    lam = float(np.linalg.eigvalsh(K)[0])
    raise NotPSDError(
        name,
        f"is not positive semidefinite (smallest eigenvalue {lam:.4g}); the SVM dual is then "
        "not concave. Repair the spectrum explicitly (convexkern.spectral.denoise, flip or "
        "shift), or use a formulation for indefinite kernels "
        "(formulations.robust_indefinite, formulations.krein)",
        lambda_min=lam,
    )


def _check_C(C: Any) -> float:
    if C is None:
        return math.inf
    return check_positive(C, "C")


# --------------------------------------------------------------------------- pieces
def dual_objective(K: np.ndarray, y: np.ndarray, alpha: np.ndarray) -> float:
    """:math:`D(\\alpha) = e^\\top\\alpha - \\tfrac12 (y\\circ\\alpha)^\\top K (y\\circ\\alpha)`
    (notes §11.2)."""
    ya = y * alpha
    return float(alpha.sum() - 0.5 * ya @ (K @ ya))


def _hinge_min(f: np.ndarray, y: np.ndarray) -> tuple[float, float, float, float]:
    """Minimise ``h(b) = sum_i max(0, 1 - y_i (f_i + b))`` exactly: ``(b, lo, hi, min)``.

    Term ``i`` equals ``max(0, y_i (t_i - b))`` with ``t_i = y_i - f_i``: for a positive
    point it is ``(t_i - b)_+``, for a negative one ``(b - t_i)_+``.  The sum is convex and
    piecewise linear with kinks at the ``t_i``, so the minimum is attained at a kink: all
    kinks are evaluated at once with sorted prefix sums, in O(n log n).  ``b`` is the
    first kink attaining the smallest value; ``[lo, hi]`` is the interval of minimisers
    (its end points are kinks), where kinks within 1e-12 relative round-off of the
    minimum count as minimisers.  The one routine behind :func:`best_hinge_bias`,
    :func:`primal_bias` and :func:`certificate` (which calls it once).
    """
    t = y - f
    tp = np.sort(t[y > 0])
    tn = np.sort(t[y < 0])
    cand = np.concatenate([tp, tn])
    cp_sum = np.concatenate([[0.0], np.cumsum(tp)])
    cn_sum = np.concatenate([[0.0], np.cumsum(tn)])
    # positives with t > b: sum (t - b); negatives with t < b: sum (b - t)
    kp = np.searchsorted(tp, cand, side="right")  # count of positives with t <= b
    kn = np.searchsorted(tn, cand, side="left")  # count of negatives with t < b
    total = (cp_sum[-1] - cp_sum[kp]) - cand * (tp.size - kp) + cand * kn - cn_sum[kn]
    i = int(np.argmin(total))
    best = float(total[i])
    ties = cand[total <= best + 1e-12 * max(1.0, float(np.abs(t).sum()))]
    return float(cand[i]), float(ties.min()), float(ties.max()), max(best, 0.0)


def best_hinge_bias(f: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Exact ``argmin_b sum_i max(0, 1 - y_i (f_i + b))`` and the minimum.

    Term ``i`` equals ``max(0, y_i (t_i - b))`` with ``t_i = y_i - f_i``: for a positive
    point it is ``(t_i - b)_+``, for a negative one ``(b - t_i)_+``.  The sum is convex and
    piecewise linear with kinks at the ``t_i``, so the minimum is attained at a kink: all
    kinks are evaluated at once with sorted prefix sums, in O(n log n).
    """
    b, _, _, best = _hinge_min(f, y)
    return b, best


def primal_bias(f: Any, y: Any, C: float | None = 1.0) -> float:
    """The bias of the primal point that :func:`certificate` certifies (notes §11.2).

    With decision values ``f = K (y * alpha)`` (no bias), the certificate's primal point is
    ``(w(alpha), b, xi = hinge)``.  Soft margin: ``b`` minimises the hinge sum (so the
    primal objective at it is the certified upper bound ``P(alpha)``); when the minimisers
    form an interval (no free support vector), its midpoint is returned.  Hard margin
    (``C=None``): the bias of the largest margin for this ``w``,
    ``b = -(min_{y_i=1} f_i + max_{y_i=-1} f_i) / 2``.

    At an optimal ``alpha`` this is an optimal bias: for a free support vector
    (``0 < alpha_i < C``) it equals ``y_i - f_i`` (the KKT rule of :func:`bias`).  For an
    inexact ``alpha`` it is a better estimate than averaging over coefficients classified
    as free by a threshold: the threshold misclassifies near-bound coefficients of an
    interior-point or first-order solver, and one wrong ``t_i`` moves the average, while
    the minimiser moves only with the decision values (by the solver's error).
    """
    f = np.asarray(f, dtype=float)
    y = np.asarray(y, dtype=float)
    if C is None or not math.isfinite(float(C)):
        return -0.5 * (float(f[y > 0].min()) + float(f[y < 0].max()))
    _, lo, hi, _ = _hinge_min(f, y)
    return 0.5 * (lo + hi)


def bias(
    K: np.ndarray | None,
    y: np.ndarray,
    alpha: np.ndarray,
    C: float | None = None,
    *,
    f: np.ndarray | None = None,
    rel_tol: float = 1e-8,
) -> float:
    """Bias from the free support vectors (notes §11.2, KKT conditions).

    For a free support vector (``0 < alpha_i < C``) the margin constraint is tight,
    ``y_i (f_i + b) = 1``, so ``b = y_i - f_i``; the average over free vectors is returned.
    With no free vector, every ``b`` in the interval allowed by the KKT conditions of the
    bounded and zero coefficients is optimal, and its midpoint is returned.

    Parameters
    ----------
    K : (n, n) array or None
        Kernel matrix (unused when the decision values ``f = K (y * alpha)`` are given).
    y, alpha : (n,) arrays
    C : float or None (hard margin)
    rel_tol : float
        ``alpha_i`` within ``rel_tol * C`` (or ``rel_tol * max alpha``) of a bound counts as
        at the bound.
    """
    Cf = math.inf if C is None else float(C)
    if f is None:
        f = K @ (y * alpha)
    scale = Cf if math.isfinite(Cf) else max(float(np.max(alpha)), 1e-300)
    lo_thr, hi_thr = rel_tol * scale, Cf - rel_tol * scale
    free = (alpha > lo_thr) & (alpha < hi_thr)
    if np.any(free):
        return float(np.mean(y[free] - f[free]))
    t = y - f
    at_zero = alpha <= lo_thr
    at_c = ~at_zero
    # alpha_i = 0: y_i (f_i + b) >= 1; alpha_i = C: y_i (f_i + b) <= 1.
    lower_set = (at_zero & (y > 0)) | (at_c & (y < 0))
    upper_set = (at_zero & (y < 0)) | (at_c & (y > 0))
    lo = float(np.max(t[lower_set])) if np.any(lower_set) else -math.inf
    hi = float(np.min(t[upper_set])) if np.any(upper_set) else math.inf
    if math.isfinite(lo) and math.isfinite(hi):
        return 0.5 * (lo + hi)
    return lo if math.isfinite(lo) else hi if math.isfinite(hi) else 0.0


def decision_function(K_eval: np.ndarray, y: np.ndarray, alpha: np.ndarray, b: float) -> np.ndarray:
    """``f(x) = sum_i alpha_i y_i k(x_i, x) + b`` for rows of ``K_eval`` = k(x, x_train)."""
    return K_eval @ (y * alpha) + b


def certificate(
    K: Any,
    y: Any,
    alpha: Any,
    C: float | None = 1.0,
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
    C : float or None
        ``None`` for the hard margin.
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
    in ``docs/svm.md``): an inversion within 1e-12 relative round-off is clamped, a larger
    one is reported in ``residuals["bound_inversion"]`` and ``note``, never hidden.

    Returns
    -------
    Certificate
        ``primal_value = D(alpha)`` (a lower bound on the maximum) and
        ``dual_value = P(alpha)`` (an upper bound), see the module docstring.
    """
    return _certificate(K, y, alpha, C, feas_tol=feas_tol, check=check, psd_eps=0.0)


def _certificate(K: Any, y: Any, alpha: Any, C: float | None, *, feas_tol: float | None,
                 check: bool, psd_eps: float) -> Certificate:
    """:func:`certificate` for a kernel with ``lambda_min(K) >= -psd_eps`` (its Notes)."""
    if check:
        y = check_labels(y, "y")
        K = check_kernel(K, "K", n=y.size)
        alpha = check_matrix(alpha, "alpha", ndim=1)
        if alpha.size != y.size:
            raise InvalidInputError("alpha", f"has {alpha.size} entries, expected {y.size}")
    Cf = _check_C(C) if check else (math.inf if C is None else float(C))
    viol = svm_infeasibility(alpha, y, Cf)
    if feas_tol is not None and viol > feas_tol * max(1.0, Cf if math.isfinite(Cf) else 1.0):
        raise InvalidInputError(
            "alpha",
            f"violates y'alpha = 0, 0 <= alpha <= C by {viol:.3g} (> feas_tol = {feas_tol:g}); "
            "project it first with convexkern.projections.project_svm_feasible",
        )
    a = project_svm_feasible(alpha, y, Cf) if viol > 0 else alpha
    proj = float(np.max(np.abs(a - alpha)))
    ya = y * a
    f = K @ ya
    quad = max(float(ya @ f), 0.0)
    lower = float(a.sum() - 0.5 * quad)
    if math.isfinite(Cf):
        _, lo, hi, hinge = _hinge_min(f, y)
        upper = 0.5 * quad + Cf * hinge
        b = 0.5 * (lo + hi)  # primal_bias(f, y, Cf), from the same minimisation
    else:
        f_pos, f_neg = float(f[y > 0].min()), float(f[y < 0].max())
        b = -0.5 * (f_pos + f_neg)  # primal_bias(f, y, None): the largest-margin bias
        gamma = 0.5 * (f_pos - f_neg)  # the margin of w(alpha) with that bias
        upper = 0.5 * quad / gamma**2 if gamma > 0 else math.inf
    residuals = {"projection": proj}
    notes = [] if math.isfinite(upper) else ["no primal-feasible point: the margin is not positive"]
    # For a feasible alpha, P(alpha) >= D(alpha) holds identically (docs/svm.md), whatever
    # the kernel; only round-off can invert the pair.  Inversions within that round-off
    # (relative 1e-12 of the largest term) are clamped; a larger one means a broken
    # assumption (K not PSD, non-finite data) and is reported, never hidden.
    inversion = lower - upper
    if inversion > 0:
        scale = max(1.0, float(a.sum()), quad, abs(upper))
        if inversion <= _ROUND_OFF * scale:
            upper = lower
        else:
            residuals["bound_inversion"] = inversion
            notes.append(
                f"upper bound {upper:.10g} below the dual value {lower:.10g} by {inversion:.3g}: "
                "beyond round-off, so these bounds are not valid (non-finite data?)"
            )
    if psd_eps > 0 and math.isfinite(upper):
        if math.isfinite(Cf):
            n_min = min(int(np.sum(y > 0)), int(np.sum(y < 0)))
            slack = 0.5 * psd_eps * (float(a @ a) + 2.0 * n_min * Cf**2)
            upper += slack
            residuals["psd_slack"] = slack
        else:  # hard margin, gamma > 0 as upper is finite
            u_psd = upper + 0.5 * psd_eps * float(a @ a) / gamma**2  # >= P'(alpha)
            if psd_eps * u_psd < 1.0:
                slack = u_psd / (1.0 - psd_eps * u_psd) - upper
                upper += slack
                residuals["psd_slack"] = slack
            else:
                upper = math.inf
                notes.append(f"K is PSD only to eps = {psd_eps:.3g} and eps * P'(alpha) >= 1: "
                             "no upper bound is certified for the hard margin")
    return Certificate(
        primal_value=lower, dual_value=upper, sense="maximize",
        point={"alpha": a, "b": np.asarray(b)}, residuals=residuals, note="; ".join(notes),
    )


# --------------------------------------------------------------------------- builders
def dual(K: Any, y: Any, C: float | None = 1.0, *, psd_check: bool = True) -> Formulation:
    """The kernel SVM dual (notes §11.2) as a :class:`~convexkern.Formulation`.

    Parameters
    ----------
    K : (n, n) array
        A positive semidefinite kernel matrix (checked; see :func:`check_psd`).
    y : (n,) array of -1/+1
    C : float > 0, or None for the hard margin
        A ``cvxpy.Parameter`` (``f.parameters["C"]``): change it and re-solve without
        rebuilding (see :func:`convexkern.path`).
    psd_check : bool
        Skip the O(n^3 / 3) PSD check when you know ``K`` is PSD (the certificate then
        takes ``K`` as exactly PSD).  Otherwise the ``eps`` that :func:`check_psd` proves
        (``lambda_min(K) >= -eps``, 0 when a plain Cholesky succeeds) is kept in
        ``f.data["psd_eps"]`` and the certificate adds its slack (:func:`certificate`).

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
    K = check_kernel(K, "K", n=y.size)
    hard = C is None
    Cv = _check_C(C)
    psd_eps = check_psd(K) if psd_check else 0.0
    n = y.size
    alpha = cp.Variable(n, name="alpha")
    ya = cp.multiply(y, alpha)
    objective = cp.Maximize(cp.sum(alpha) - 0.5 * cp.quad_form(ya, cp.psd_wrap(K)))
    constraints = [y @ alpha == 0, alpha >= 0]
    params: dict[str, cp.Parameter] = {}
    if not hard:
        Cp = cp.Parameter(pos=True, name="C", value=Cv)
        constraints.append(alpha <= Cp)
        params["C"] = Cp
    problem = cp.Problem(objective, constraints)

    def certify(f: Formulation, point: Mapping[str, np.ndarray]) -> Certificate:
        C_now = None if hard else f.param("C")
        return _certificate(f.data["K"], f.data["y"], point["alpha"], C_now, feas_tol=None,
                            check=False, psd_eps=f.data["psd_eps"])

    return Formulation(
        name="svm.dual" if not hard else "svm.dual(hard)",
        problem=problem,
        variables={"alpha": alpha},
        parameters=params,
        source=f"{SOURCE} (dual)",
        kind="svm.dual",
        data={"K": K, "y": y, "hard": hard, "psd_eps": psd_eps},
        certify=certify,
        default_solver="smo",
    )


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
    Cv = _check_C(C)
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
        m = yd * (Xd @ wv + bv)
        residuals: dict[str, float] = {}
        if hard:
            gamma = float(m.min())
            residuals["margin_violation"] = max(0.0, 1.0 - gamma)
            upper = 0.5 * float(wv @ wv) / gamma**2 if gamma > 0 else math.inf
            C_now = math.inf
        else:
            C_now = f.param("C")
            upper = 0.5 * float(wv @ wv) + C_now * float(np.maximum(0.0, 1.0 - m).sum())
        lower = -math.inf
        out = {"w": wv, "b": np.asarray(bv)}
        if "alpha" in point:
            a_raw = np.asarray(point["alpha"], float)
            a = project_svm_feasible(a_raw, yd, C_now)
            residuals["projection"] = float(np.max(np.abs(a - a_raw)))
            v = Xd.T @ (yd * a)
            lower = float(a.sum() - 0.5 * v @ v)
            out["alpha"] = a
        return Certificate(
            primal_value=upper, dual_value=lower, sense="minimize", point=out,
            residuals=residuals,
            note="" if "alpha" in point else "no multipliers given: no lower bound",
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
    )


# --------------------------------------------------------------------------- SMO glue
def _separable(K: np.ndarray, y: np.ndarray) -> bool:
    """Whether some ``(beta, b)`` has ``y_i ((K beta)_i + b) >= 1`` for all ``i``: the
    hard-margin primal is feasible in the span of the data (every ``w`` can be reduced
    to it), i.e. the hard-margin dual is bounded.  An LP feasibility problem, solved by
    HiGHS to its default tolerances (1e-7)."""
    from scipy.optimize import linprog

    n = y.size
    A = -(y[:, None] * np.hstack([K, np.ones((n, 1))]))
    res = linprog(np.zeros(n + 1), A_ub=A, b_ub=-np.ones(n), bounds=(None, None),
                  method="highs")
    return res.status != 2  # 2: infeasible; anything else (found, limit) is no proof


def _smo_for(f: Formulation) -> tuple[np.ndarray, np.ndarray, float]:
    if "K" in f.data:  # svm.dual, and any formulation that is an SVM dual in a kernel K
        K, y = f.data["K"], f.data["y"]
    else:
        X, y = f.data["X"], f.data["y"]
        K = X @ X.T
    C = math.inf if f.data["hard"] else f.param("C")
    return K, y, C


def _solve_smo(
    f: Formulation,
    *,
    tol: float,
    max_iter: int | None,
    time_limit: float | None,
    verbose: bool = False,
    x0: Mapping[str, np.ndarray] | None = None,
    eps: float | None = None,
    tau: float = 1e-12,
    **options: Any,
) -> SolveReport:
    """SMO until the *certified* relative gap is below ``tol``.

    SMO stops on its KKT violation ``eps``; the certificate is then computed, and while
    the certified gap misses ``tol`` SMO is restarted warm with ``eps / 10``.

    Hard margin (``C=None``): on classes that cannot be separated in feature space the
    dual is unbounded and SMO would run to its iteration cap with growing ``alpha``.
    After ``10_000 + 100 n`` iterations without a separating ``w(alpha)`` (the
    certificate's margin is not positive), the linear feasibility problem
    ``y_i ((K beta)_i + b) >= 1`` is solved once (HiGHS, via scipy); if it is infeasible
    the report is ``unbounded``, as the conic solvers say, else SMO continues warm.
    """
    from ..algorithms.smo import smo

    K, y, C = _smo_for(f)
    alpha0 = None
    if x0 is not None and "alpha" in x0:
        alpha0 = project_svm_feasible(np.asarray(x0["alpha"], float), y, C)
    eps_k = 1e-3 if eps is None else float(eps)
    t0 = time.perf_counter()
    total_it = 0
    history: list[tuple[float, float, float, float]] = []
    status = Status.OPTIMAL
    message = ""
    probe = None if math.isfinite(C) else 10_000 + 100 * y.size  # separability check
    while True:
        left_it = None if max_iter is None else max_iter - total_it
        left_t = None if time_limit is None else time_limit - (time.perf_counter() - t0)
        if (left_it is not None and left_it <= 0) or (left_t is not None and left_t <= 0):
            status = Status.ITERATION_LIMIT if left_it is not None and left_it <= 0 \
                else Status.TIME_LIMIT
            break
        call_it = left_it
        probing = probe is not None and (left_it is None or probe < left_it)
        if probing:
            call_it = probe
        res = smo(K, y, C, eps=eps_k, max_iter=call_it, time_limit=left_t, tau=tau,
                  alpha0=alpha0, check_input=False, **options)  # the builder validated K
        total_it += int(res.iterations)
        alpha0 = res.alpha
        cert = _certificate(K, y, res.alpha, None if not math.isfinite(C) else C,
                            feas_tol=None, check=False, psd_eps=f.data.get("psd_eps", 0.0))
        history.append((total_it, time.perf_counter() - t0, cert.lower, cert.upper))
        if verbose:
            print(f"smo: eps={eps_k:.1e} it={total_it} lower={cert.lower:.10g} "
                  f"upper={cert.upper:.10g} rel_gap={cert.rel_gap:.3g}")
        if probing and res.status == "iteration_limit":
            probe = None  # checked once
            if not math.isfinite(cert.upper) and not _separable(K, y):
                hint = f.hints.get(Status.UNBOUNDED.value, "use a soft margin (C > 0)")
                return SolveReport(
                    status=Status.UNBOUNDED, solver="smo", formulation=f.name,
                    primal_value=math.inf, solve_time=time.perf_counter() - t0,
                    iterations=total_it, tol=tol, params=f.param_values(),
                    history=tuple(tuple(float(v) for v in h) for h in history),
                    message="the problem is unbounded: the classes cannot be separated in "
                            "feature space (y_i((K beta)_i + b) >= 1 is infeasible, HiGHS); "
                            + hint,
                )
            alpha0 = project_svm_feasible(res.alpha, y, C)  # round-off in y'alpha
            continue
        if res.status != "optimal":
            status = algorithm_status(res.status)  # "interrupted" (callback) -> ERROR
            message = f"SMO stopped: {res.status}"
            break
        if cert.rel_gap <= tol:
            break
        if eps_k <= 1e-13:
            status = Status.OPTIMAL_INACCURATE
            message = "SMO reached its finest KKT tolerance before the certified gap met tol"
            break
        eps_k /= 10.0
    elapsed = time.perf_counter() - t0
    point: dict[str, np.ndarray] = {"alpha": alpha0}
    if f.kind == "svm.primal":
        X = f.data["X"]
        point = {
            "w": X.T @ (y * alpha0),
            "b": np.asarray(primal_bias(K @ (y * alpha0), y,
                                        None if not math.isfinite(C) else C)),
            "alpha": alpha0,
        }
    return certified_report(
        f, point, solver="smo", status=status, tol=tol, solve_time=elapsed,
        iterations=total_it, history=history, message=message,
        solver_stats={"final_eps": eps_k},
    )
