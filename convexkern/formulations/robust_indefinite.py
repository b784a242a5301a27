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
  :math:`f(\alpha) = e^\top\alpha + \rho(\|K_0\|_F^2 - \|M(\alpha)_+\|_F^2)
  = e^\top\alpha - \tfrac12 v^\top K_0 v - \|v\|^4/(16\rho) + \rho\|M(\alpha)_-\|_F^2`
  (:func:`objective` evaluates the second form, which cancels nothing of size
  :math:`\rho\|K_0\|_F^2`); in particular :math:`f(0) = \rho\|(K_0)_-\|_F^2`;
* by Danskin's theorem (the minimiser is unique), :math:`\nabla f(\alpha) = e - Y
  K^\star(\alpha) Y\alpha` (:func:`gradient`); the map :math:`M \mapsto M_+` is
  1-Lipschitz, so the gradient is Lipschitz on :math:`\mathcal{A}`;
* for any :math:`\alpha\in\mathcal{A}` and any PSD :math:`K`, :math:`f(\alpha) \le
  \mathrm{OPT} \le \mathrm{SVM}(K) + \rho\|K - K_0\|_F^2` (min-max inequality).
  :func:`certificate` certifies both sides in exact arithmetic on the float data: a lower
  bound on :math:`f(\alpha)` through a PSD :math:`Z` built from the computed negative
  eigenpairs (:func:`convexkern.math.robust_indefinite.certified_lower`), upper bounds with
  :math:`K = PP^\top` built from the computed positive ones (the soft-margin primal value at
  :math:`w = P^\top Y\beta`, :math:`\beta = \alpha` or SMO's points, and a Frank--Wolfe
  bound on the concave :math:`g(\cdot, PP^\top)`), each with explicit rounding terms; the
  smallest upper bound is kept;
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

The mathematics (closed forms, bounds, the SMO refinement, the test-kernel heuristic) lives
in :mod:`convexkern.math.robust_indefinite` and is re-exported here; this module builds the
conic form and assembles the certificate.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import cvxpy as cp
import numpy as np
import scipy.linalg as sla

from ..errors import InvalidInputError
from ..formulation import Formulation, stored_problem
from ..math.device import resolve, to_host
from ..math.robust_indefinite import (
    Evaluation,
    K0Spectrum,
    certified_lower,
    check_alpha,
    check_problem,
    default_smo_max_iter,
    evaluate,
    frank_wolfe_bound,
    frank_wolfe_upper,
    gradient,
    inner_kernel,
    objective,
    predict_kernel,
    proxy_kernel,
    smo_bound,
    svm_bound,
)
from ..math.svm import primal_bias
from ..projections import project_svm_feasible, svm_infeasibility
from ..report import Certificate, relative_gap

__all__ = [
    "dual",
    "inner_kernel",
    "objective",
    "gradient",
    "evaluate",
    "Evaluation",
    "K0Spectrum",
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
    spectrum: K0Spectrum | None = None,
) -> Certificate:
    """Certified bounds :math:`L(\\alpha) \\le f(\\alpha) \\le \\mathrm{OPT} \\le U(\\alpha)`
    for problem (3) (Luss & d'Aspremont 2007, §3: min-max inequality with :math:`K` fixed at
    a PSD proxy :math:`PP^\\top \\approx K^\\star(\\alpha)`, and concavity for the
    Frank--Wolfe bound), valid in exact arithmetic on the floating-point data: neither the
    eigendecomposition of :math:`M(\\alpha)` nor the arithmetic is trusted (the bounds and
    their rounding terms are derived in :mod:`convexkern.math.robust_indefinite` and
    ``docs/robust_indefinite.md``).  The bracket is never clamped: an inverted pair (a bug)
    is reported as it is, with ``residuals["bound_inversion"]`` and a note.

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
    spectrum : K0Spectrum, optional
        The formulation's cached decomposition of ``K0`` (``f.data["spectrum"]``).  When a
        solver has computed it, the eigenpairs of :math:`M(\\alpha)` come from its
        rank-one update (no second ``eigh``) and ``f0`` from its eigenvalues; the bounds
        trust these eigenpairs no more than those of ``eigh``.  Otherwise ``f0`` costs one
        ``eigvalsh(K0)`` (cached in ``spectrum``) for ``n <= 2000`` and is NaN above.

    Returns
    -------
    Certificate
        ``primal_value = L(alpha)`` (the certified lower bound on ``f(alpha)``),
        ``dual_value = U(alpha)`` (maximisation); ``residuals`` has the absolute gap, the
        gap relative to ``f - f(0)``, every upper bound (``bound_*``; ``bound_svm_smo`` is
        ``inf`` when the refinement was not run), ``smo_iterations`` (the SMO steps the
        refinement took), ``value_estimate`` (the floating-point ``f(alpha)``), the
        rounding terms ``rounding_lower``, ``rounding_upper`` (of the bound kept) and
        ``rounding_dist`` (of :math:`\\rho\\|PP^\\top - K_0\\|^2`), and ``lower_z_term``.
    """
    if check:
        K0, y, C, rho = check_problem(K0, y, C, rho)
    a = check_alpha(alpha, y, C, feas_tol)
    viol = svm_infeasibility(a, y, C)
    ap = project_svm_feasible(a, y, C) if viol > 0 else a
    proj = float(np.max(np.abs(ap - a)))
    # the eigenvectors of M(alpha) are only proposals (every bound holds for any (w, V)):
    # at a loose tol and large n they are formed in single precision (V = QW, the
    # certificate's largest product, at half the cost), and again in double when the
    # bracket so obtained misses tol
    single = (tol is not None and tol >= SINGLE_TOL and y.size >= SINGLE_N
              and spectrum is not None and spectrum.known)
    # the n x n work runs where the spectrum is (a GPU: K0 and the eigenvectors there)
    K0x = spectrum.matrix_for(K0) if spectrum is not None else K0
    a_sum = float(np.sum(np.abs(ap)))  # the scale of a tiny optimum (the Certificate's)
    while True:
        ev = evaluate(K0, y, ap, rho, spectrum=spectrum, single=single)
        w, V = ev.eig
        low = certified_lower(K0x, y, ap, rho, w, V,
                              abs_norm=None if spectrum is None or K0 is not spectrum.K0
                              else spectrum.abs_norm())
        lower = low.value
        pk = proxy_kernel(K0x, rho, w, V)
        u_fw, r_fw = frank_wolfe_upper(pk, y, ap, C)
        u_svm, r_svm = pk.svm_primal(y * ap, y, C)
        if not single or relative_gap(lower, min(u_fw, u_svm), a_sum) <= tol:
            break
        single = False
        del ev, w, V, pk  # the float32 attempt's n x n arrays, before the retry
    u_smo, smo_iters, r_smo = math.inf, 0, 0.0
    if smo_refine and not (tol is not None
                           and relative_gap(lower, min(u_fw, u_svm), a_sum) <= tol):
        cap = default_smo_max_iter(y.size) if smo_max_iter is None else int(smo_max_iter)
        def done(bound: float) -> bool:
            return tol is not None and relative_gap(lower, bound, a_sum) <= tol

        u_smo, smo_iters, r_smo = smo_bound(y, ap, C, pk, cap, done, smo_time)
    upper = min(u_fw, u_svm, u_smo)
    r_up = r_fw if upper == u_fw else r_svm if upper == u_svm else r_smo
    lam0 = _k0_eigenvalues(K0, spectrum)
    f0 = rho * float(np.sum(np.minimum(lam0, 0.0) ** 2)) if lam0 is not None else math.nan
    gap = upper - lower
    res = {
        "projection": proj,
        "abs_gap": gap,
        "f0": f0,
        "gap_rel_f_minus_f0": (gap / max(abs(lower - f0), 1e-300)
                               if math.isfinite(f0) else math.nan),
        "bound_frank_wolfe": u_fw,
        "bound_svm_at_alpha": u_svm,
        "bound_svm_smo": u_smo,
        "smo_iterations": float(smo_iters),
        "value_estimate": ev.value,
        "rounding_lower": low.rounding,
        "rounding_upper": r_up,
        "rounding_dist": pk.dist_rounding,
        "lower_z_term": low.z_term,
    }
    note = ""
    if not upper >= lower:
        # impossible for valid bounds: reported, never clamped
        res["bound_inversion"] = lower - upper
        note = (f"certified upper bound {upper:.17g} below the certified lower bound "
                f"{lower:.17g}: these bounds are not valid (a bug; please report it)")
    # the bias of the certified primal point (w(alpha), b) on K*(alpha)
    b = primal_bias(ev.Kv, y, C)
    return Certificate(
        primal_value=lower, dual_value=float(upper), sense="maximize",
        point={"alpha": ap, "b": np.asarray(b)}, residuals=res, note=note,
        scale=a_sum if math.isfinite(a_sum) else None,  # as svm.certificate's
    )


#: the certificate forms the eigenvectors of M(alpha) in single precision when its ``tol``
#: is at least this and n at least :data:`SINGLE_N` (float32 eigenvectors, ~1e-7 relative,
#: move the upper bounds by a first-order ~1e-7 relative amount; the lower bound only at
#: second order), and falls back to double precision when that bracket misses ``tol``
SINGLE_TOL = 1e-5
SINGLE_N = 1000


def _k0_eigenvalues(K0: np.ndarray, spectrum: K0Spectrum | None) -> np.ndarray | None:
    """Eigenvalues of ``K0`` for the diagnostic ``f(0)``: from the cached decomposition when
    a solver computed it, otherwise one ``eigvalsh`` (cached) up to n = 2000, else None."""
    small = K0.shape[0] <= 2000
    if spectrum is not None:
        return spectrum.eigenvalues(compute=small)
    return sla.eigvalsh(K0, driver="evd") if small else None


# --------------------------------------------------------------------------- conic dual
def conic_alpha(Z: np.ndarray, y: np.ndarray) -> np.ndarray:
    """α from the multiplier ``Z`` of the Schur block: :math:`\\alpha = -2 Y Z_{1:n,n+1}`."""
    n = y.size
    return -2.0 * y * np.asarray(Z)[:n, n]


def dual(K0: Any, y: Any, C: float = 1.0, rho: float = 1.0, *,
         device: str = "auto") -> Formulation:
    """Problem (3) of Luss & d'Aspremont (2007) as a :class:`~convexkern.Formulation`.

    The cvxpy problem is the conic dual (6), with the Schur block written out explicitly
    (``matrix_frac`` re-evaluates :math:`z^\\top K^{-1} z` at a singular ``K`` and can be
    off at the optimum).  It is built on first access of ``f.problem`` (a conic solve):
    ``robust_apg``, the paper's methods and the certificate read ``f.data`` alone:

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
    device : {"auto", "cpu", "gpu"}
        Where ``robust_apg`` and the certificate do their ``n x n`` work (the
        decomposition of ``K0``, its rank-one updates, the certificate's products):
        ``"gpu"`` needs CuPy (``pip install convexkern[gpu]``) and a CUDA device;
        ``"auto"`` (default) is ``"gpu"`` when ``K0`` is a CuPy array or a CUDA torch
        tensor.  ``K0`` is validated and kept on the host too (the conic solvers and the
        paper's baselines ``robust_pg`` / ``robust_accpm`` run there).

    Examples
    --------
    >>> import numpy as np, convexkern as ck
    >>> K0 = np.array([[1.0, 0.9, 0.2], [0.9, 1.0, 0.95], [0.2, 0.95, 1.0]])
    >>> f = ck.formulations.robust_indefinite.dual(K0, np.array([1.0, -1.0, 1.0]), C=1.0, rho=1.0)
    >>> r = ck.solve(f, tol=1e-6)
    >>> r.ok, r.rel_gap <= 1e-6
    (True, True)
    """
    dev = resolve(device, K0)
    K0, y, Cv, rhov = check_problem(to_host(K0), to_host(y), C, rho)
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
    def build() -> cp.Problem:
        # built on first access of f.problem: cvxpy's constant copies K0 twice (40 GB at
        # n = 5e4), which robust_apg and the certificate never read
        z = cp.multiply(y, 1.0 + lam - mu) + nu  # Y(e + lambda - mu + nu y), Y y = e
        zc = cp.reshape(z, (n, 1), order="F")
        block = cp.bmat([[K, zc], [zc.T, cp.reshape(t, (1, 1), order="F")]])
        obj = 0.5 * t + Cp * cp.sum(mu) + rp * cp.sum_squares(K - K0)
        return cp.Problem(cp.Minimize(obj), [block >> 0])

    build.sense = "minimize"  # type: ignore[attr-defined]
    build.cone_class = "SDP"  # type: ignore[attr-defined]

    def extract(f: Formulation) -> dict[str, np.ndarray]:
        # the Schur block: the first PSD constraint of side n + 1 of the problem as it is
        # (a copy's own; none while the problem is not built: no solve has used it)
        p = stored_problem(f)
        Z = next((c.dual_value for c in getattr(p, "constraints", ())
                  if isinstance(c, cp.constraints.PSD) and c.shape == (n + 1, n + 1)), None)
        if Z is None:
            raise InvalidInputError("point", "the conic problem has no dual solution stored")
        return {"alpha": conic_alpha(Z, f.data["y"])}

    def certify(f: Formulation, point: Mapping[str, np.ndarray], *,
                tol: float | None = None) -> Certificate:
        C, rho = f.param("C"), f.param("rho")
        return certificate(f.data["K0"], f.data["y"], point["alpha"], C, rho,
                           feas_tol=None, tol=tol, check=False,
                           spectrum=f.data.get("spectrum"))

    return Formulation(
        name="robust_indefinite.dual",
        problem=build,
        variables={"K": K, "t": t, "lambda": lam, "mu": mu, "nu": nu},
        parameters={"C": Cp, "rho": rp},
        source=f"{SOURCE}, problem (3) solved through its dual (6)",
        kind="robust_indefinite",
        # "spectrum": the decomposition of K0, computed at most once (by the rank-one
        # oracle) and reused by the certificate
        data={"K0": K0, "y": y, "spectrum": K0Spectrum(K0, device=dev)},
        certify=certify,
        extract=extract,
        default_solver="robust_apg",
        facts={"feasible": "K = I, t = n, lambda = mu = nu = 0 is feasible",
               "bounded": "the objective is >= 0 (t >= 0 in the PSD block, mu >= 0)"},
    )
