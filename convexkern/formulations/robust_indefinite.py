r"""Robust SVM with an indefinite kernel (Luss & d'Aspremont, NIPS 2007).

Notation (the paper's): indefinite kernel matrix :math:`K_0`, labels :math:`y \in
\{-1,+1\}^n`, :math:`Y = \mathrm{diag}(y)`, :math:`e` the all-ones vector, box
:math:`C > 0`, penalty :math:`\rho > 0`, feasible set
:math:`\mathcal{A} = \{\alpha : y^\top\alpha = 0,\ 0 \le \alpha \le C\}`.

Problem (3):

.. math:: \max_{\alpha\in\mathcal{A}}\ f(\alpha), \qquad
          f(\alpha) = \min_{K\succeq 0}\ \alpha^\top e - \tfrac12 (Y\alpha)^\top K (Y\alpha)
          + \rho\|K - K_0\|_F^2 .

Facts derived in ``docs/robust_indefinite.md`` and checked by the tests:

* completing the square, :math:`-\tfrac12 v^\top K v + \rho\|K-K_0\|_F^2 =
  \rho\|K - M\|_F^2 + \rho\|K_0\|_F^2 - \rho\|M\|_F^2` with :math:`v = Y\alpha` and
  :math:`M(\alpha) = K_0 + vv^\top/(4\rho)`, so the inner minimiser is
  :math:`K^\star(\alpha) = M(\alpha)_+` (:func:`inner_kernel`) and
  :math:`f(\alpha) = e^\top\alpha + \rho(\|K_0\|_F^2 - \|M(\alpha)_+\|_F^2)`
  (:func:`objective`); in particular :math:`f(0) = \rho\|(K_0)_-\|_F^2`;
* by Danskin's theorem (the minimiser is unique), :math:`\nabla f(\alpha) = e - Y
  K^\star(\alpha) Y\alpha` (:func:`gradient`); the map :math:`M \mapsto M_+` is
  1-Lipschitz, so the gradient is Lipschitz on :math:`\mathcal{A}`;
* for any :math:`\alpha\in\mathcal{A}`, :math:`f(\alpha) \le \mathrm{OPT} \le
  U(\alpha)` where :math:`U(\alpha) = \mathrm{SVM}(K^\star(\alpha)) + \rho\|K^\star(\alpha)
  - K_0\|_F^2` (min-max inequality with :math:`K` fixed at :math:`K^\star(\alpha)`).  The
  SVM optimum is over-estimated by the soft-margin primal value at :math:`w(\alpha)` with
  the best bias (:func:`convexkern.formulations.svm.certificate`), optionally after an SMO
  refinement; a Frank--Wolfe bound :math:`f(\alpha) + \max_{\beta\in\mathcal{A}}
  \nabla f(\alpha)^\top(\beta - \alpha)` (concavity) is also valid; the smallest of these
  bounds is kept (:func:`certificate`);
* the dual (6) as a conic program (:func:`dual`): minimise
  :math:`\tfrac12 t + C e^\top\mu + \rho\|K-K_0\|_F^2` over :math:`K, t, \lambda \ge 0,
  \mu \ge 0, \nu` subject to :math:`\begin{pmatrix}K & z\\ z^\top & t\end{pmatrix}
  \succeq 0`, :math:`z = Y(e + \lambda - \mu + \nu y)`.  The multiplier :math:`Z` of the
  LMI gives :math:`\alpha = -2\,Y Z_{1:n,\,n+1}`.

The conic form is a cross-check at small n: one PSD cone of size n + 1 and a
second-order cone of size n^2 + 1.  Clarabel factorises a dense block per PSD cone (about
1 s at n = 50, tens of seconds at n = 100); SCS stays near a second up to n of about 150.
The custom methods of :mod:`convexkern.algorithms.robust_svm` (accelerated projected
gradient, the default; projected gradient; ACCPM) handle the paper's sizes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import cvxpy as cp
import numpy as np
import scipy.linalg as sla

from .._validation import check_kernel, check_labels, check_matrix, check_positive
from ..errors import InvalidInputError
from ..formulation import Formulation
from ..projections import project_svm_feasible, svm_infeasibility
from ..report import Certificate, relative_gap
from ..spectral import positive_part
from . import svm

__all__ = [
    "dual",
    "inner_kernel",
    "objective",
    "gradient",
    "evaluate",
    "Evaluation",
    "certificate",
    "frank_wolfe_bound",
    "svm_bound",
    "conic_alpha",
    "check_problem",
    "default_smo_max_iter",
    "predict_kernel",
]

SOURCE = ("Luss & d'Aspremont, Support vector machine classification with indefinite "
          "kernels, NIPS 2007")


# --------------------------------------------------------------------------- checks
def check_problem(K0: Any, y: Any, C: Any, rho: Any) -> tuple[np.ndarray, np.ndarray, float, float]:
    """Validate ``(K0, y, C, rho)``: symmetric finite kernel, labels ±1, ``C, rho > 0``."""
    y = check_labels(y, "y")
    K0 = check_kernel(K0, "K0", n=y.size)
    C = check_positive(C, "C")
    rho = check_positive(rho, "rho")
    return K0, y, C, rho


def _check_alpha(alpha: Any, y: np.ndarray, C: float, feas_tol: float | None) -> np.ndarray:
    a = check_matrix(alpha, "alpha", ndim=1)
    if a.size != y.size:
        raise InvalidInputError("alpha", f"has {a.size} entries, expected {y.size}")
    if feas_tol is not None:
        viol = svm_infeasibility(a, y, C)
        if viol > feas_tol * max(1.0, C):
            raise InvalidInputError(
                "alpha",
                f"violates y'alpha = 0, 0 <= alpha <= C by {viol:.3g} (> feas_tol = "
                f"{feas_tol:g}); project it first with "
                "convexkern.projections.project_svm_feasible",
            )
    return a


# --------------------------------------------------------------------------- closed forms
@dataclass(frozen=True)
class Evaluation:
    """Everything at one ``alpha`` from one eigendecomposition of ``M(alpha)``.

    Attributes
    ----------
    value : float
        :math:`f(\\alpha)`.
    grad : ndarray
        :math:`\\nabla f(\\alpha) = e - Y K^\\star Y\\alpha`.
    Kv : ndarray
        :math:`K^\\star(\\alpha) Y\\alpha` (the SVM decision values without bias).
    quad : float
        :math:`(Y\\alpha)^\\top K^\\star (Y\\alpha)`.
    dist2 : float
        :math:`\\|K^\\star - K_0\\|_F^2`.
    eig : (w, V) or None
        The eigendecomposition of :math:`M(\\alpha)` it was computed from (reused by the
        SMO refinement of :func:`certificate`, so that the certificate decomposes
        :math:`M(\\alpha)` once).
    """

    value: float
    grad: np.ndarray
    Kv: np.ndarray
    quad: float
    dist2: float
    eig: tuple[np.ndarray, np.ndarray] | None = field(default=None, repr=False, compare=False)

    def inner_kernel(self) -> np.ndarray:
        """:math:`K^\\star(\\alpha) = M(\\alpha)_+` from the stored eigendecomposition."""
        if self.eig is None:
            raise InvalidInputError("eig", "this Evaluation was built without eigenpairs")
        return positive_part(*self.eig)


def _eig(M: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return sla.eigh(M, driver="evd", check_finite=False)


def inner_kernel(K0: Any, y: Any, alpha: Any, rho: float) -> np.ndarray:
    """:math:`K^\\star(\\alpha) = (K_0 + (Y\\alpha)(Y\\alpha)^\\top/(4\\rho))_+`, the minimiser
    of the inner problem of (3) (Luss & d'Aspremont 2007, §3, with the factor 1/(4ρ))."""
    y = check_labels(y, "y")
    K0 = check_kernel(K0, "K0", n=y.size)
    rho = check_positive(rho, "rho")
    a = check_matrix(alpha, "alpha", ndim=1)
    v = y * a
    M = K0 + np.outer(v, v) / (4.0 * rho)
    return positive_part(*_eig(M))


def evaluate(K0: np.ndarray, y: np.ndarray, alpha: np.ndarray, rho: float) -> Evaluation:
    """:math:`f`, :math:`\\nabla f` and the pieces of the bounds at ``alpha`` (no input
    checks; one full eigendecomposition of :math:`M(\\alpha)`)."""
    v = y * alpha
    M = K0 + np.outer(v, v) / (4.0 * rho)
    w, V = _eig(M)
    pos = w > 0
    Vp = V[:, pos]
    Kv = Vp @ (w[pos] * (Vp.T @ v))
    quad = float(v @ Kv)
    normK0 = float(np.sum(K0 * K0))
    normMp = float(np.sum(w[pos] ** 2))
    value = float(alpha.sum() + rho * (normK0 - normMp))
    # ||K* - K0||^2 = ||M_+ - M + vv'/(4 rho)||^2 = ||-M_- + s vv'||^2, s = 1/(4 rho)
    s = 1.0 / (4.0 * rho)
    neg = ~pos
    Vn = V[:, neg]
    vn = Vn.T @ v
    dist2 = float(np.sum(w[neg] ** 2) - 2.0 * s * np.sum(w[neg] * vn**2) + s * s * (v @ v) ** 2)
    return Evaluation(value=value, grad=1.0 - y * Kv, Kv=Kv, quad=quad, dist2=max(dist2, 0.0),
                      eig=(w, V))


def objective(K0: Any, y: Any, alpha: Any, rho: float) -> float:
    """:math:`f(\\alpha) = e^\\top\\alpha + \\rho(\\|K_0\\|_F^2 - \\|M(\\alpha)_+\\|_F^2)`,
    the objective of problem (3) after the inner minimisation."""
    y = check_labels(y, "y")
    K0 = check_kernel(K0, "K0", n=y.size)
    rho = check_positive(rho, "rho")
    a = check_matrix(alpha, "alpha", ndim=1)
    return evaluate(K0, y, a, rho).value


def gradient(K0: Any, y: Any, alpha: Any, rho: float) -> np.ndarray:
    """:math:`\\nabla f(\\alpha) = e - Y K^\\star(\\alpha) Y \\alpha` (Danskin)."""
    y = check_labels(y, "y")
    K0 = check_kernel(K0, "K0", n=y.size)
    rho = check_positive(rho, "rho")
    a = check_matrix(alpha, "alpha", ndim=1)
    return evaluate(K0, y, a, rho).grad


def frank_wolfe_bound(value: float, grad: np.ndarray, alpha: np.ndarray, y: np.ndarray,
                      C: float) -> float:
    """:math:`f(\\alpha) + \\max_{\\beta\\in\\mathcal{A}} \\nabla f(\\alpha)^\\top(\\beta-\\alpha)`,
    a valid upper bound on max f by concavity.

    The linear maximisation over :math:`\\{y^\\top\\beta = 0, 0\\le\\beta\\le C\\}` has the LP
    dual :math:`\\min_\\mu C\\sum_i (g_i - \\mu y_i)_+`, a piecewise-linear function of
    ``mu`` minimised exactly at a breakpoint by :func:`svm.best_hinge_bias` (with
    ``f = y - y g`` the hinge terms are :math:`(g_i - \\mu y_i)_+`).
    """
    _, h = svm.best_hinge_bias(y - y * grad, y)
    return float(value + C * h - grad @ alpha)


def svm_bound(quad: float, Kv: np.ndarray, y: np.ndarray, C: float) -> float:
    """Soft-margin primal value at :math:`w(\\alpha)` with the best bias: an upper bound on
    the SVM optimum for the PSD kernel whose decision values are ``Kv``."""
    _, h = svm.best_hinge_bias(Kv, y)
    return 0.5 * max(quad, 0.0) + C * h


def default_smo_max_iter(n: int) -> int:
    """Default iteration cap of the SMO refinement: ``max(10000, 40 n)`` two-variable
    steps in total over its tolerance ladder (about as many steps as SMO needs at
    ``eps = 1e-4`` from a warm start on the USPS Simpson instances, n = 60 and 767)."""
    return max(10_000, 40 * int(n))


def certificate(
    K0: Any,
    y: Any,
    alpha: Any,
    C: float,
    rho: float,
    *,
    feas_tol: float | None = 1e-6,
    smo_refine: bool = True,
    smo_max_iter: int | None = None,
    tol: float | None = None,
    smo_time: float | None = None,
    check: bool = True,
) -> Certificate:
    """Certified bounds :math:`f(\\alpha) \\le \\mathrm{OPT} \\le U(\\alpha)` for problem (3)
    (Luss & d'Aspremont 2007, §3: min-max inequality with :math:`K` fixed at
    :math:`K^\\star(\\alpha)`, and concavity of :math:`f` for the Frank--Wolfe bound).

    Parameters
    ----------
    K0, y, C, rho : the problem data (validated unless ``check=False``).
    alpha : (n,) array
        Projected onto :math:`\\mathcal{A}` first (distance in
        ``residuals["projection"]``); a violation above ``feas_tol * max(1, C)`` raises.
    smo_refine : bool
        Also solve the SVM on :math:`K^\\star(\\alpha)` by SMO, warm-started at ``alpha``
        (tolerances 1e-4, 1e-6, 1e-8 in turn), and use the soft-margin primal value at
        each SMO solution: an over-estimate of the SVM optimum, so a valid bound.  The
        best of all bounds is kept.  SMO can stall on the rank-deficient
        :math:`K^\\star`, so the refinement is capped by ``smo_max_iter`` steps in total
        (deterministic: the bound does not depend on machine load).
    smo_max_iter : int, optional
        Default :func:`default_smo_max_iter` (``max(10000, 40 n)``).
    tol : float, optional
        The requested relative gap.  When the cheap bounds (Frank--Wolfe and the SVM primal
        at ``alpha``) already meet it, the SMO refinement is skipped; otherwise it stops as
        soon as the bound meets it.  ``None`` (default): the refinement runs to its cap.
        Every solve passes its ``tol`` here (through ``f.certificate(point, tol=tol)``,
        :meth:`convexkern.Formulation.certificate`).
    smo_time : float, optional
        An extra wall-clock cap in seconds (default none; makes the bound depend on load).

    Returns
    -------
    Certificate
        ``primal_value = f(alpha)``, ``dual_value = U(alpha)`` (maximisation);
        ``residuals`` has the absolute gap, the gap relative to ``f - f(0)``, which
        bound won (``bound_*``; ``bound_svm_smo`` is ``inf`` when the refinement was not
        run) and ``smo_iterations``, the SMO steps the refinement took.
    """
    if check:
        K0, y, C, rho = check_problem(K0, y, C, rho)
    a = _check_alpha(alpha, y, C, feas_tol)
    viol = svm_infeasibility(a, y, C)
    ap = project_svm_feasible(a, y, C) if viol > 0 else a
    proj = float(np.max(np.abs(ap - a)))
    ev = evaluate(K0, y, ap, rho)
    u_fw = frank_wolfe_bound(ev.value, ev.grad, ap, y, C)
    u_svm = svm_bound(ev.quad, ev.Kv, y, C) + rho * ev.dist2
    cheap = max(min(u_fw, u_svm), ev.value)
    u_smo, smo_iters = math.inf, 0
    if smo_refine and not (tol is not None and relative_gap(ev.value, cheap) <= tol):
        cap = default_smo_max_iter(y.size) if smo_max_iter is None else int(smo_max_iter)
        u_smo, smo_iters = _smo_bound(y, ap, C, rho, ev, cap, tol, smo_time)
    upper = min(u_fw, u_svm, u_smo)
    upper = max(upper, ev.value)
    f0 = rho * float(np.sum(np.minimum(sla.eigvalsh(K0, driver="evd"), 0.0) ** 2)) \
        if K0.shape[0] <= 2000 else math.nan
    gap = upper - ev.value
    res = {
        "projection": proj,
        "abs_gap": gap,
        "f0": f0,
        "gap_rel_f_minus_f0": (gap / max(abs(ev.value - f0), 1e-300)
                               if math.isfinite(f0) else math.nan),
        "bound_frank_wolfe": u_fw,
        "bound_svm_at_alpha": u_svm,
        "bound_svm_smo": u_smo,
        "smo_iterations": float(smo_iters),
    }
    # the bias of the certified primal point (w(alpha), b) on K*(alpha)
    b = svm.primal_bias(ev.Kv, y, C)
    return Certificate(
        primal_value=ev.value, dual_value=float(upper), sense="maximize",
        point={"alpha": ap, "b": np.asarray(b)}, residuals=res,
    )


def _smo_bound(y: np.ndarray, a: np.ndarray, C: float, rho: float, ev: Evaluation,
               max_iter: int, tol: float | None, time_limit: float | None) -> tuple[float, int]:
    """Best soft-margin primal value over an SMO tolerance ladder on :math:`K^\\star(a)`
    (at most ``max_iter`` SMO steps in total), plus :math:`\\rho\\|K^\\star - K_0\\|^2`."""
    from ..algorithms.smo import smo

    Ks = ev.inner_kernel()  # the eigenpairs of M(a) computed by evaluate: no second eigh
    extra = rho * ev.dist2
    best = math.inf
    used = 0
    try:
        a0 = np.clip(a, 0.0, C)
        # SMO wants |y'a0| <= 1e-10 sum(a0): repair the last bit of round-off
        if abs(y @ a0) > 1e-12 * max(a0.sum(), 1.0):
            a0 = project_svm_feasible(a0, y, C)
        for eps in (1e-4, 1e-6, 1e-8):
            left = max_iter - used
            if left <= 0:
                break
            r = smo(Ks, y, C, eps=eps, max_iter=left, time_limit=time_limit,
                    alpha0=a0 if a0.sum() > 0 else None, check_input=False)
            used += int(r.iterations)
            cert = svm.certificate(Ks, y, r.alpha, C, feas_tol=None, check=False)
            best = min(best, cert.upper)
            a0 = r.alpha
            if r.status != "optimal":
                break
            if tol is not None and relative_gap(ev.value, best + extra) <= tol:
                break
    except (InvalidInputError, ValueError):
        return math.inf, used
    return best + extra, used


# --------------------------------------------------------------------------- conic dual
def conic_alpha(Z: np.ndarray, y: np.ndarray) -> np.ndarray:
    """α from the multiplier ``Z`` of the Schur block: :math:`\\alpha = -2 Y Z_{1:n,n+1}`."""
    n = y.size
    return -2.0 * y * np.asarray(Z)[:n, n]


def dual(K0: Any, y: Any, C: float = 1.0, rho: float = 1.0) -> Formulation:
    """Problem (3) of Luss & d'Aspremont (2007) as a :class:`~convexkern.Formulation`.

    The cvxpy problem is the conic dual (6), with the Schur block written out explicitly
    (``matrix_frac`` re-evaluates :math:`z^\\top K^{-1} z` at a singular ``K`` and can be
    off at the optimum):

    .. math:: \\min\\ \\tfrac12 t + C e^\\top\\mu + \\rho\\|K - K_0\\|_F^2 \\quad\\text{s.t.}\\quad
              \\begin{pmatrix}K & z\\\\ z^\\top & t\\end{pmatrix}\\succeq 0,\\
              z = Y(e + \\lambda - \\mu + \\nu y),\\ \\lambda,\\mu\\ge 0 .

    Its optimal value equals :math:`\\max_{\\alpha\\in\\mathcal{A}} f(\\alpha)`.  ``f.sense`` is
    the cvxpy problem's ("minimize", problem (6)); the reports and their certificates speak
    of problem (3), a maximisation over α (``report.certificate.sense == "maximize"``): every
    report carries ``x["alpha"]`` (for conic solvers, read from the multiplier of the Schur block,
    :func:`conic_alpha`), ``primal_value = f(alpha)`` and ``dual_value = U(alpha)`` from
    :func:`certificate`.

    Conic solvers are a cross-check at small n (Clarabel: about 1 s at n = 50, tens of
    seconds at n = 100; SCS: about a second up to n ≈ 150).  The default solver is the
    accelerated projected gradient ``"robust_apg"``; ``"robust_pg"`` and ``"robust_accpm"``
    are the paper's methods.

    Parameters
    ----------
    K0 : (n, n) symmetric array (indefinite allowed)
    y : (n,) labels in {-1, +1}
    C, rho : float > 0 (cvxpy Parameters ``C`` and ``rho``)

    Examples
    --------
    >>> import numpy as np, convexkern as ck
    >>> K0 = np.array([[1.0, 0.9, 0.2], [0.9, 1.0, 0.95], [0.2, 0.95, 1.0]])
    >>> f = ck.formulations.robust_indefinite.dual(K0, np.array([1.0, -1.0, 1.0]), C=1.0, rho=1.0)
    >>> r = ck.solve(f, tol=1e-6)
    >>> r.ok, r.rel_gap <= 1e-6
    (True, True)
    """
    K0, y, Cv, rhov = check_problem(K0, y, C, rho)
    n = y.size
    # pos=True: f.set_params / ck.path refuse C <= 0 and rho <= 0 with an error naming the
    # parameter (the problem stays DPP); the solvers check both again at solve time
    Cp = cp.Parameter(pos=True, name="C", value=Cv)
    rp = cp.Parameter(pos=True, name="rho", value=rhov)
    K = cp.Variable((n, n), symmetric=True, name="K")
    t = cp.Variable(name="t")
    lam = cp.Variable(n, nonneg=True, name="lambda")
    mu = cp.Variable(n, nonneg=True, name="mu")
    nu = cp.Variable(name="nu")
    z = cp.multiply(y, 1.0 + lam - mu) + nu  # Y(e + lambda - mu + nu y), Y y = e
    zc = cp.reshape(z, (n, 1), order="F")
    block = cp.bmat([[K, zc], [zc.T, cp.reshape(t, (1, 1), order="F")]])
    schur = block >> 0
    obj = 0.5 * t + Cp * cp.sum(mu) + rp * cp.sum_squares(K - K0)
    problem = cp.Problem(cp.Minimize(obj), [schur])

    def extract(f: Formulation) -> dict[str, np.ndarray]:
        Z = schur.dual_value
        if Z is None:
            raise InvalidInputError("point", "the conic problem has no dual solution stored")
        return {"alpha": conic_alpha(Z, f.data["y"])}

    def certify(f: Formulation, point: Mapping[str, np.ndarray], *,
                tol: float | None = None) -> Certificate:
        C, rho = f.param("C"), f.param("rho")
        return certificate(f.data["K0"], f.data["y"], point["alpha"], C, rho,
                           feas_tol=None, tol=tol, check=False)

    return Formulation(
        name="robust_indefinite.dual",
        problem=problem,
        variables={"K": K, "t": t, "lambda": lam, "mu": mu, "nu": nu},
        parameters={"C": Cp, "rho": rp},
        source=f"{SOURCE}, problem (3) solved through its dual (6)",
        kind="robust_indefinite",
        data={"K0": K0, "y": y},
        certify=certify,
        extract=extract,
        default_solver="robust_apg",
    )


# --------------------------------------------------------------------------- prediction
def predict_kernel(K_full: Any, n_train: int, y: Any, alpha: Any, rho: float) -> np.ndarray:
    """The test-kernel heuristic of §2.3: rank-one update, then PSD projection.

    ``K_full`` is the (indefinite) kernel on training points first, then test points.  The
    optimal rank-one update :math:`(Y\\alpha)(Y\\alpha)^\\top/(4\\rho)` is added to its
    training block, the negative eigenvalues of the whole matrix are thresholded, and the
    returned matrix is the projected ``K_full``: its ``[:n, :n]`` block plays the role of
    :math:`K^\\star` and its ``[n:, :n]`` block gives the test decision values.
    """
    y = check_labels(y, "y")
    K_full = check_kernel(K_full, "K_full")
    rho = check_positive(rho, "rho")
    n = int(n_train)
    if n != y.size or K_full.shape[0] < n:
        raise InvalidInputError(
            "n_train", f"must equal len(y) = {y.size} and <= {K_full.shape[0]}")
    a = check_matrix(alpha, "alpha", ndim=1)
    v = y * a
    M = K_full.copy()
    M[:n, :n] += np.outer(v, v) / (4.0 * rho)
    return positive_part(*_eig(M))
