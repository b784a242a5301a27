r"""The SVM mathematics shared by the builders of :mod:`convexkern.formulations.svm` and
the SMO adapter (Mansour, SVM lecture notes, 2013, §11.2).

numpy only: the PSD check, the dual objective, the exact hinge minimiser behind the best
bias, the KKT bias, and :func:`dual_bounds`, the certified pair ``D(alpha) <= OPT <=
P(alpha)`` (with the slack of a kernel PSD only to ``eps``) that
:func:`convexkern.formulations.svm.certificate` wraps into a ``Certificate`` (its
docstring and ``docs/svm.md`` derive the bounds).  Notation as there: ``G = YKY``,
decision values ``f = K Y alpha``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import NotPSDError
from ..projections import project_svm_feasible, svm_infeasibility
from .gram_rows import GramRows

__all__ = [
    "PSD_TOL",
    "check_psd",
    "dual_objective",
    "best_hinge_bias",
    "primal_bias",
    "bias",
    "decision_function",
    "SVMBounds",
    "dual_bounds",
    "bounds_at",
    "gap_estimate",
    "relative_gap_of",
]

#: Relative tolerance of the PSD check on the kernel (eigenvalues above -tol * max|K_ii|).
PSD_TOL = 1e-8
#: The unit round-off of IEEE double precision.
_U = 2.0**-53


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
    The certificate of :func:`convexkern.formulations.svm.dual` adds the slack that
    ``eps > 0`` calls for (see :func:`convexkern.formulations.svm.certificate`).  On
    failure the smallest eigenvalue is computed for the message.

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


def dual_objective(K: np.ndarray, y: np.ndarray, alpha: np.ndarray) -> float:
    """:math:`D(\\alpha) = e^\\top\\alpha - \\tfrac12 (y\\circ\\alpha)^\\top K (y\\circ\\alpha)`
    (notes §11.2)."""
    ya = y * alpha
    return float(alpha.sum() - 0.5 * ya @ (K @ ya))


def _hinge_min(f: np.ndarray, y: np.ndarray,
               c: np.ndarray | None = None) -> tuple[float, float, float, float]:
    """Minimise ``h(b) = sum_i c_i max(0, 1 - y_i (f_i + b))`` exactly: ``(b, lo, hi, min)``
    (``c = None``: all weights 1; else weights ``c_i >= 0``, the per-example ``C_i``).

    Term ``i`` equals ``c_i max(0, y_i (t_i - b))`` with ``t_i = y_i - f_i``: for a positive
    point it is ``c_i (t_i - b)_+``, for a negative one ``c_i (b - t_i)_+``.  The sum is
    convex and piecewise linear with kinks at the ``t_i``, so the minimum is attained at a
    kink: all kinks are evaluated at once with sorted prefix sums, in O(n log n).  ``b`` is
    the first kink attaining the smallest value; ``[lo, hi]`` is the interval of minimisers
    (its end points are kinks), where kinks within 1e-12 relative round-off of the
    minimum count as minimisers.  The one routine behind :func:`best_hinge_bias`,
    :func:`primal_bias` and :func:`dual_bounds` (which calls it once).
    """
    t = y - f
    if c is None:
        tp = np.sort(t[y > 0])
        tn = np.sort(t[y < 0])
        cand = np.concatenate([tp, tn])
        cp_sum = np.concatenate([[0.0], np.cumsum(tp)])
        cn_sum = np.concatenate([[0.0], np.cumsum(tn)])
        # positives with t > b: sum (t - b); negatives with t < b: sum (b - t)
        kp = np.searchsorted(tp, cand, side="right")  # count of positives with t <= b
        kn = np.searchsorted(tn, cand, side="left")  # count of negatives with t < b
        total = (cp_sum[-1] - cp_sum[kp]) - cand * (tp.size - kp) + cand * kn - cn_sum[kn]
        scale = max(1.0, float(np.abs(t).sum()))
    else:
        pos, neg = y > 0, y < 0
        op, on = np.argsort(t[pos]), np.argsort(t[neg])
        tp, tn = t[pos][op], t[neg][on]
        wp, wn = c[pos][op], c[neg][on]
        cand = np.concatenate([tp, tn])
        wp_sum = np.concatenate([[0.0], np.cumsum(wp)])  # weights
        wn_sum = np.concatenate([[0.0], np.cumsum(wn)])
        cp_sum = np.concatenate([[0.0], np.cumsum(wp * tp)])  # weighted t
        cn_sum = np.concatenate([[0.0], np.cumsum(wn * tn)])
        kp = np.searchsorted(tp, cand, side="right")
        kn = np.searchsorted(tn, cand, side="left")
        total = ((cp_sum[-1] - cp_sum[kp]) - cand * (wp_sum[-1] - wp_sum[kp])
                 + cand * wn_sum[kn] - cn_sum[kn])
        scale = max(float(np.max(c, initial=0.0)), float(c @ np.abs(t)))
    i = int(np.argmin(total))
    best = float(total[i])
    ties = cand[total <= best + 1e-12 * scale]
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


def primal_bias(f: Any, y: Any, C: float | np.ndarray | None = 1.0) -> float:
    """The bias of the primal point that :func:`convexkern.formulations.svm.certificate`
    certifies (notes §11.2).

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

    Per-example bounds ``C`` (an ``(n,)`` array, a weighted SVM): ``b`` minimises the
    weighted hinge sum ``sum_i C_i max(0, 1 - y_i (f_i + b))``.
    """
    f = np.asarray(f, dtype=float)
    y = np.asarray(y, dtype=float)
    if C is not None and np.ndim(C) == 1:
        _, lo, hi, _ = _hinge_min(f, y, np.asarray(C, dtype=float))
        return 0.5 * (lo + hi)
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



@dataclass(frozen=True)
class SVMBounds:
    """The certified pair of :func:`dual_bounds` at one (projected) ``alpha``.

    ``lower = D(alpha)`` and ``upper = P(alpha)`` (plus the PSD slack) bound the maximum of
    the SVM dual; ``b`` is the bias of the certified primal point; ``residuals`` holds
    ``projection`` (and ``bound_inversion``, ``psd_slack`` when they occur), ``notes`` the
    reasons a bound is missing or invalid.
    """

    lower: float
    upper: float
    alpha: np.ndarray
    b: float
    residuals: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _hard_psd_slack(hard: float, psd_eps: float, aa: float,
                    gamma: float) -> tuple[float, str]:
    """The PSD slack of the hard-margin bound ``hard = quad / (2 gamma^2)`` on a kernel PSD
    only to ``eps``: ``u / (1 - eps u) - hard`` with ``u = hard + eps ||a||^2 / (2 gamma^2)``;
    a note (and no bound) when ``eps u >= 1``."""
    if not (psd_eps > 0 and math.isfinite(hard)):
        return 0.0, ""
    u_psd = hard + 0.5 * psd_eps * aa / gamma**2  # >= P'(alpha)
    if psd_eps * u_psd < 1.0:
        return u_psd / (1.0 - psd_eps * u_psd) - hard, ""
    return math.inf, (f"K is PSD only to eps = {psd_eps:.3g} and eps * P'(alpha) >= 1: "
                      "no upper bound is certified for the hard margin")


def _up(x: float, k: int = 1) -> float:
    """``x`` moved up by ``k`` relative round-offs (covers ``k`` roundings of ``x``)."""
    return x + k * _U * abs(x) if math.isfinite(x) else x


class _Rounding:
    """Rounding-error bounds of :func:`dual_bounds` (Higham, *Accuracy and Stability of
    Numerical Algorithms*, §3.1: a sum or dot product of ``k`` terms computed in any order
    errs by at most ``gamma_k sum |terms|``, ``gamma_k = k u / (1 - k u)``).

    On a kernel with ``lambda_min(K) >= -eps`` (the certificate's own assumption) every
    entry obeys ``|K_ij| <= max_i K_ii + eps =: k_max``, so with ``a >= 0`` the computed
    ``f = fl(K (y a))`` errs by at most ``e_f = gamma_n k_max ||a||_1`` in each entry and
    ``fl((y a)' f)`` by at most ``e_q = ||a||_1 (e_f + gamma_n ||f||_inf)``.  With rows of a
    :class:`~convexkern.math.gram_rows.GramRows` (each computed entry within ``d =
    entry_err`` of a PSD ``K*``), ``e_f`` also holds ``d ||a||_1``, and ``e_f`` and
    ``e_q`` then bound the distance to ``f* = K* (y a)`` and ``(y a)' K* (y a)``: a constant
    offset ``K0 + c 1 1'`` (which ``y'a = 0`` cancels exactly) makes these terms grow
    with ``c``, as the computed values do.
    """

    def __init__(self, k_max: float, a: np.ndarray, f: np.ndarray, entry_err: float = 0.0):
        n = a.size
        self.g = (n + 2) * _U / (1.0 - (n + 2) * _U)
        self.k_max = k_max
        self.a1 = float(a.sum()) * (1.0 + self.g)  # >= ||a||_1 (a >= 0 after projection)
        # f's rounding, plus (entry_err > 0: rows of a GramRows) the distance of the
        # computed entries to the PSD K* the bounds are about: |f - f*| <= entry_err a1
        self.e_f = self.g * self.k_max * self.a1 + entry_err * self.a1 * (1.0 + 4 * _U)
        self.e_q = self.a1 * (self.e_f + self.g * float(np.max(np.abs(f), initial=0.0)))
        self.total = 0.0

    def margin_low(self, f_pos: float, f_neg: float) -> float:
        """A lower bound on the exact ``(min_{y=1} f - max_{y=-1} f) / 2``."""
        m = 0.5 * (f_pos - f_neg) - self.e_f - 2 * _U * (abs(f_pos) + abs(f_neg))
        return m if m > 0 else 0.0

    def hinge_up(self, f: np.ndarray, y: np.ndarray, b: float,
                 c: float | np.ndarray) -> float:
        """An upper bound on the exact ``sum_i c_i max(0, 1 - y_i (f_i + b))``, each
        margin widened by its rounding error ``e_f + 2u(|f_i + b| + |m_i|)``."""
        s = f + b
        m = 1.0 - y * s
        e = self.e_f + 2 * _U * (np.abs(s) + np.abs(m))
        h = np.maximum(m + e, 0.0)
        total = float(c * h.sum()) if np.ndim(c) == 0 else float(np.dot(c, h))
        # what the widening added (0 where the margin stays inactive): the floor SMO reads
        self.total += float(np.dot(np.broadcast_to(c, h.shape), h - np.maximum(m, 0.0)))
        return _up(total, 2) * (1.0 + self.g)

    def lower(self, s: float, quad: float, ya: np.ndarray, l1_star: float) -> float:
        """A lower bound on ``D(a)``, exact ``y'a = 0`` not assumed: the residual
        ``r = y'a`` costs ``|r| (1 + k_max l1_star)`` by weak duality with an optimal
        primal point whose bias lies at a kink ``y_i - f_i`` of the hinge sum, where
        ``|f_i| <= k_max ||alpha*||_1`` and ``l1_star >= ||alpha*||_1`` (the caller's
        ``min(2 upper, sum C)``: ``||alpha*||_1 = OPT + ||w*||^2/2 <= 2 OPT``)."""
        r = abs(math.fsum(ya.tolist())) * (1.0 + 2 * _U)
        pen = 0.0
        if r > 0:
            pen = r * (1.0 + self.k_max * l1_star) if math.isfinite(l1_star) else math.inf
        err = self.g * s + 0.5 * self.e_q + pen
        self.total += err
        low = s - 0.5 * quad - err
        return low - 4 * _U * abs(low)


def dual_bounds(K: np.ndarray | GramRows, y: np.ndarray, alpha: np.ndarray,
                C: float | np.ndarray, psd_eps: float = 0.0) -> SVMBounds:
    """``D(alpha) <= OPT <= P(alpha)`` for the SVM dual on a kernel with
    ``lambda_min(K) >= -psd_eps`` (``C = inf``: hard margin); no input checks.

    ``K`` may be a :class:`~convexkern.math.gram_rows.GramRows`: the bounds are then about
    its PSD matrix ``K*`` (``psd_eps`` ignored), from the rows of the support vectors
    only, each computed entry's distance to ``K*`` carried as a rounding term.

    ``C`` may be an ``(n,)`` array of per-example bounds ``0 <= alpha_i <= C_i`` (finite,
    ``>= 0``): the primal is then ``1/2 ||w||^2 + sum_i C_i xi_i`` and ``P(alpha)`` uses the
    weighted hinge sum, minimised exactly in ``b``; the PSD slack uses
    ``max ||alpha||^2 <= min(S_+, S_-) (max_{y_i=1} C_i + max_{y_i=-1} C_i)`` with
    ``S_+- = sum_{y_i=+-1} C_i`` (``docs/svm.md``).

    ``alpha`` is projected onto ``{y'a = 0, 0 <= a <= C}`` first (the distance in
    ``residuals["projection"]``).  The bounds, their rounding-error terms and
    the PSD slack are derived in :func:`convexkern.formulations.svm.certificate`.
    """
    Cv = np.asarray(C, dtype=np.float64) if np.ndim(C) == 1 else None
    Cf = float(C) if Cv is None else math.nan  # nan: per-example bounds in Cv
    Cb = Cf if Cv is None else Cv
    if isinstance(K, GramRows):
        # rows on demand: the decision values from the support vectors' rows only, the
        # bounds about the PSD K* that every computed entry is within entry_error of.
        # Only the box is projected onto: the projection onto y'a = 0 would move every
        # zero coefficient off zero (all n rows), and the lower bound prices the residual
        # of y'a = 0 itself (_Rounding.lower)
        a = np.clip(alpha, 0.0, Cb)
        proj = float(np.max(np.abs(a - alpha), initial=0.0))
        return bounds_at(K.times(y * a), y, a, C, 0.0, proj, k_max=K.k_max,
                         entry_err=K.entry_error)
    viol = svm_infeasibility(alpha, y, Cb)
    a = project_svm_feasible(alpha, y, Cb) if viol > 0 else alpha
    proj = float(np.max(np.abs(a - alpha)))
    # |K_ij| <= k_max on a kernel PSD to psd_eps (the certificate's own assumption)
    k_max = float(np.max(np.diagonal(K))) + max(float(psd_eps), 0.0)
    return bounds_at(K @ (y * a), y, a, C, psd_eps, proj, k_max=k_max)


def bounds_at(f: np.ndarray, y: np.ndarray, a: np.ndarray, C: float | np.ndarray,
              psd_eps: float = 0.0, proj: float = 0.0, *, k_max: float = 0.0,
              entry_err: float = 0.0) -> SVMBounds:
    """The pair of :func:`dual_bounds` at a feasible ``a`` whose decision values
    ``f = K (y * a)`` are given (no projection, no checks).

    :func:`dual_bounds` calls it with ``f`` recomputed from ``K``: that is the certificate.
    SMO calls it with the ``f = y - v`` of the gradient it maintains
    (:func:`convexkern.math.smo.smo` with ``gap_tol``): the same formulas, an O(n log n)
    *estimate* of the gap to decide when to stop, never reported as a certificate (``v``
    carries the round-off of many rank-two updates).  ``k_max >= max |K_ij|`` sizes the
    rounding-error terms of ``f`` (:class:`_Rounding`); 0 leaves them out (the estimate).
    """
    Cv = np.asarray(C, dtype=np.float64) if np.ndim(C) == 1 else None
    Cf = float(C) if Cv is None else math.nan  # nan: per-example bounds in Cv
    soft = Cv is not None or math.isfinite(Cf)
    ya = y * a
    rnd = _Rounding(k_max, a, f, entry_err)
    quad = max(float(ya @ f), 0.0)
    q_up = quad + rnd.e_q  # >= the exact (y a)' K (y a)
    residuals: dict[str, float] = {"projection": proj}
    notes: list[str] = []
    # the hard-margin bound: w(alpha)/gamma with the largest-margin bias is hard-margin
    # feasible when gamma > 0, and the soft-margin optimum is at most the hard-margin one
    # (its box only restricts alpha), so it bounds every C; with a PSD slack eps, a bound
    # of the dual on K + eps I (derived in docs/svm.md)
    f_pos, f_neg = float(f[y > 0].min()), float(f[y < 0].max())
    b_hard = -0.5 * (f_pos + f_neg)  # primal_bias(f, y, None): the largest-margin bias
    gamma = rnd.margin_low(f_pos, f_neg)  # <= the exact margin of w(alpha)
    hard = _up(0.5 * q_up / gamma**2, 8) if gamma > 0 else math.inf
    if soft:
        _, lo, hi, _ = _hinge_min(f, y, Cv)
        b = 0.5 * (lo + hi)  # primal_bias(f, y, C), from the same minimisation
        upper = _up(0.5 * q_up, 2) + rnd.hinge_up(f, y, b, Cf if Cv is None else Cv)
    else:
        b, upper = b_hard, hard
    if not math.isfinite(upper):
        notes.append("no primal-feasible point: the margin is not positive")
    if psd_eps > 0 and math.isfinite(upper) and soft:
        if Cv is None:
            n_min = min(int(np.sum(y > 0)), int(np.sum(y < 0)))
            a_max = 2.0 * n_min * Cf**2  # >= ||alpha||^2 on the feasible set
        else:
            c_pos, c_neg = Cv[y > 0], Cv[y < 0]
            a_max = (min(float(c_pos.sum()), float(c_neg.sum()))
                     * (float(c_pos.max()) + float(c_neg.max())))
        slack = 0.5 * psd_eps * (float(a @ a) + a_max)
        upper += slack
        residuals["psd_slack"] = slack
    hard_slack, hard_note = _hard_psd_slack(hard, psd_eps, float(a @ a), gamma)
    if soft:
        u_hard = hard + hard_slack
        if u_hard < upper:
            # a separable w(alpha) at a large C: the hard-margin bound is the tighter one
            residuals["hard_margin_bound"] = u_hard
            upper = u_hard
    elif math.isfinite(upper):
        if hard_note:
            upper = math.inf
            notes.append(hard_note)
        elif hard_slack:
            upper += hard_slack
            residuals["psd_slack"] = hard_slack
    c_sum = (float(Cv.sum()) if Cv is not None else Cf * a.size) if soft else math.inf
    lower = rnd.lower(float(a.sum()), quad, ya, _up(min(2.0 * upper, c_sum), 4))
    # For a feasible alpha, P(alpha) >= D(alpha) holds identically (docs/svm.md), whatever
    # the kernel, and both bounds carry their rounding errors: an inversion means a broken
    # assumption (non-finite data) and is reported, never hidden.
    inversion = lower - upper
    if inversion > 0:
        residuals["bound_inversion"] = inversion
        notes.append(
            f"upper bound {upper:.10g} below the dual value {lower:.10g} by {inversion:.3g}: "
            "beyond round-off, so these bounds are not valid (non-finite data?)"
        )
    if rnd.total > 0:
        residuals["rounding"] = rnd.total
    return SVMBounds(lower=lower, upper=upper, alpha=a, b=float(b), residuals=residuals,
                     notes=notes)


def separability(K: np.ndarray, y: np.ndarray, features: np.ndarray | None = None
                 ) -> tuple[str, str]:
    """Whether the classes are separable in the feature space of ``K``: some ``(beta, b)``
    with ``y_i ((K beta)_i + b) > 0`` for all ``i`` (then the hard-margin primal is
    feasible and its dual bounded).  Returns ``(verdict, reason)``, the verdict
    ``"separable"`` (a witness was found by an LP and its margins re-checked with a
    rounding-error bound: a proof), ``"inseparable"`` (a Farkas ray checked in exact
    arithmetic: a proof, :func:`_inseparable_ray`), ``"nearly_inseparable"`` (HiGHS
    found the LP infeasible to its tolerance, but no ray holds exactly: the data are
    within rounding of inseparable ones, as a linear kernel ``X X'`` of rank d < n
    stored in floating point is) or ``"unknown"``.

    The LP is scale-free (``beta`` absorbs any scaling of ``K``), so it is solved on
    ``K / max|K|``: at ``K ~ 1e-12`` the unscaled LP's tolerances (1e-7) decide nothing.
    HiGHS's "infeasible" on it is not a proof by itself: on ``K = RBF + 1e-10 I`` with
    duplicated points of opposite labels (positive definite, so separable, with a
    ``beta`` of size 1e10) it said infeasible.  ``features`` (the rows ``x_i`` of a linear
    kernel ``K = X X'``) are what the exact check reads in place of ``K``.
    """
    from scipy.optimize import linprog

    n = y.size
    s = float(np.max(np.abs(K))) if K.size else 0.0
    if not (math.isfinite(s) and s > 0):
        return "unknown", "the kernel is zero or not finite"
    Kn = K / s
    A = -(y[:, None] * np.hstack([Kn, np.ones((n, 1))]))
    res = linprog(np.zeros(n + 1), A_ub=A, b_ub=-np.ones(n), bounds=(None, None),
                  method="highs")
    if res.status == 2:
        why = _inseparable_ray(Kn, y, K if features is None else features)
        if why.startswith("proved"):
            return "inseparable", why
        return "nearly_inseparable", f"HiGHS said the separability LP is infeasible, but {why}"
    if res.status != 0 or res.x is None:
        return "unknown", f"the separability LP ended with status {res.status}"
    beta, b = res.x[:n], float(res.x[n])
    margins = y * (Kn @ beta + b)
    # a dot product of length n is off by at most (n + 1) u (|Kn| |beta| + |b|)
    err = (n + 2) * 2.0**-53 * (np.abs(Kn) @ np.abs(beta) + abs(b))
    if float(np.min(margins - err)) > 0:
        return "separable", (f"a separating (beta, b) was found and its margins checked "
                             f"(min {float(margins.min()):.3g} > its rounding bound)")
    return "unknown", "the separating point the LP found does not pass the check"


#: the largest ``support x columns`` the exact Farkas check multiplies out in fractions
_EXACT_WORK = 2_000_000


def _inseparable_ray(Kn: np.ndarray, y: np.ndarray, M: np.ndarray) -> str:
    """A Farkas ray for ``y_i ((K beta)_i + b) >= 1``: ``lam >= 0`` with ``sum lam = 1``,
    ``y' lam = 0`` and ``M' (y * lam) = 0`` *exactly* (``M`` the stored ``K``, or the
    features ``X`` of a linear kernel), which no ``(beta, b)`` can meet.  An LP on ``Kn``
    in floating point names the support; on it the equations are solved again in
    rational arithmetic on the stored doubles (:func:`_exact_ray`), and the ray is kept
    when every entry is nonnegative.  Returns ``"proved: ..."`` or why not."""
    from scipy.optimize import linprog

    n = y.size
    A_eq = np.vstack([(Kn * y[None, :]), y[None, :], np.ones((1, n))])
    b_eq = np.zeros(n + 2)
    b_eq[-1] = 1.0
    # a vertex (dual simplex): its support is at most the rank of the rows plus two
    res = linprog(np.zeros(n), A_eq=A_eq, b_eq=b_eq, bounds=(0, None), method="highs-ds")
    if res.status != 0 or res.x is None:
        return "no Farkas ray was found to prove it"
    on = np.flatnonzero(res.x > 1e-9 * float(np.max(res.x)))
    if on.size == 0 or on.size * on.size * (M.shape[1] + 2) > _EXACT_WORK:
        return "no Farkas ray small enough to check exactly was found"
    lam = _exact_ray(M[on], y[on], res.x[on])
    if lam is None:
        return ("no Farkas ray on the support the LP found holds exactly: the data are "
                "within rounding of inseparable ones, not proved inseparable")
    return (f"proved: {on.size} points whose labelled combination of kernel rows is "
            "exactly 0 (a Farkas ray of y_i((K beta)_i + b) >= 1, checked in rational "
            "arithmetic)")


def _exact_ray(Ms: np.ndarray, ys: np.ndarray, guess: np.ndarray) -> list | None:
    """``lam >= 0`` on the given points with ``Ms' (ys * lam) = 0``, ``ys' lam = 0`` and
    ``sum lam = 1`` in exact rational arithmetic (Gaussian elimination on the stored
    doubles; an unknown left free by the elimination keeps its LP value, rounded to a
    fraction), or ``None`` when the equations have no solution or it has a negative
    entry."""
    from fractions import Fraction

    k = ys.size
    rows = [[Fraction(float(Ms[i, j])) * int(ys[i]) for i in range(k)]
            for j in range(Ms.shape[1])]
    rows.append([Fraction(int(ys[i])) for i in range(k)])
    rhs = [Fraction(0)] * len(rows)
    rows.append([Fraction(1)] * k)
    rhs.append(Fraction(1))
    pivots: list[int] = []
    r = 0
    for col in range(k):  # reduced row echelon form, exactly
        at = next((i for i in range(r, len(rows)) if rows[i][col] != 0), None)
        if at is None:
            continue
        rows[r], rows[at], rhs[r], rhs[at] = rows[at], rows[r], rhs[at], rhs[r]
        p = rows[r][col]
        rows[r] = [v / p for v in rows[r]]
        rhs[r] = rhs[r] / p
        for i in range(len(rows)):
            if i != r and rows[i][col] != 0:
                m = rows[i][col]
                rows[i] = [a - m * b for a, b in zip(rows[i], rows[r])]
                rhs[i] = rhs[i] - m * rhs[r]
        pivots.append(col)
        r += 1
        if r == len(rows):
            break
    if any(v != 0 for v in rhs[r:]):  # a row reduced to 0 = nonzero: no solution
        return None
    free = [c for c in range(k) if c not in pivots]
    lam = [Fraction(0)] * k
    for c in free:
        lam[c] = Fraction(float(max(guess[c], 0.0))).limit_denominator(10**6)
    for i, c in enumerate(pivots):
        lam[c] = rhs[i] - sum(rows[i][f] * lam[f] for f in free)
    return lam if all(v >= 0 for v in lam) and sum(lam) == 1 else None


def gap_estimate(v: np.ndarray, y: np.ndarray, alpha: np.ndarray, C: float | np.ndarray,
                 psd_eps: float = 0.0) -> tuple[float, float]:
    """``(D(alpha), P(alpha))`` of :func:`convexkern.math.svm.bounds_at` from SMO's
    ``v = y - K(y * alpha)``: decision values ``f = y - v``, O(n log n), no product with K.

    Examples with a bound ``C_i = 0`` (``alpha_i = 0`` for ever, ``v_i`` not tracked) are
    left out: dropping them changes neither the dual nor the primal optimum.
    """
    if np.ndim(C):
        keep = C > 0
        if not np.all(keep):
            v, y, alpha, C = v[keep], y[keep], alpha[keep], C[keep]
        if not (np.any(y > 0) and np.any(y < 0)):
            # a class whose bounds are all 0: y'alpha = 0 pins every alpha at 0, and both
            # optima are 0 (w = 0, the bias far enough on the other class's side)
            return 0.0, 0.0
    b = bounds_at(y - v, y, alpha, C, psd_eps)
    return b.lower, b.upper


def relative_gap_of(lower: float, upper: float) -> float:
    """The relative gap of :func:`convexkern.report.relative_gap` (the report's convention:
    absolute below 1e-9), for the math layer."""
    if not (math.isfinite(lower) and math.isfinite(upper)):
        return math.inf
    scale = max(abs(lower), abs(upper))
    gap = abs(upper - lower)
    return gap if scale < 1e-9 else gap / scale
