r"""The mathematics of the robust SVM with an indefinite kernel (Luss & d'Aspremont, NIPS
2007), shared by the certificate of :mod:`convexkern.formulations.robust_indefinite` and the
methods of :mod:`convexkern.algorithms.robust_svm`, so that neither imports the other.

Problem (3), its closed-form inner kernel :math:`K^\star(\alpha) = M(\alpha)_+`,
:math:`M(\alpha) = K_0 + (Y\alpha)(Y\alpha)^\top/(4\rho)`, the objective :math:`f` and its
gradient (:func:`evaluate`, cancellation-free: :math:`f = e^\top\alpha - \tfrac12
v^\top K_0 v - \|v\|^4/(16\rho) + \rho\|M_-\|_F^2`), the floating-point estimates of
the two cheap upper bounds the iterative methods stop on (:func:`frank_wolfe_bound`,
:func:`svm_bound`), the *certified* bounds of the certificate, which trust neither the
eigendecomposition nor floating-point arithmetic (:func:`certified_lower`,
:class:`ProxyKernel` with :meth:`ProxyKernel.svm_primal`, :func:`frank_wolfe_upper`, the
SMO refinement :func:`smo_bound`, SMO from :mod:`convexkern.math.smo`), and the
test-kernel heuristic (:func:`predict_kernel`).  The facts behind them are derived in
``docs/robust_indefinite.md`` and listed in the docstring of
:mod:`convexkern.formulations.robust_indefinite`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.linalg as sla

from .._validation import (
    check_int,
    check_kernel,
    check_labels,
    check_matrix,
    check_positive,
    check_same_length,
)
from ..errors import InvalidInputError
from ..projections import project_svm_feasible, svm_infeasibility
from ..spectral import positive_part
from .budget import time_left
from .device import columns, dot, fsum, module, module_of, resolve, to_device, to_host
from .rank_one import RankOneUpdate
from .smo import smo
from .svm import best_hinge_bias

__all__ = [
    "check_problem",
    "check_alpha",
    "K0Spectrum",
    "Evaluation",
    "inner_kernel",
    "evaluate",
    "objective",
    "gradient",
    "frank_wolfe_bound",
    "svm_bound",
    "default_smo_max_iter",
    "UNIT_ROUNDOFF",
    "LowerBound",
    "abs_norm_bound",
    "certified_lower",
    "rounding_floor",
    "ProxyKernel",
    "proxy_kernel",
    "frank_wolfe_upper",
    "smo_bound",
    "predict_kernel",
]


# --------------------------------------------------------------------------- checks
def check_problem(K0: Any, y: Any, C: Any, rho: Any) -> tuple[np.ndarray, np.ndarray, float, float]:
    """Validate ``(K0, y, C, rho)``: symmetric finite kernel, labels ±1, ``C, rho > 0``."""
    y = check_labels(y, "y")
    K0 = check_kernel(K0, "K0", n=y.size)
    C = check_positive(C, "C")
    rho = check_positive(rho, "rho")
    return K0, y, C, rho


def _check_point(K0: Any, y: Any, alpha: Any, rho: Any,
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Validate ``(K0, y, alpha, rho)`` where ``f`` is evaluated: labels ±1, a symmetric
    finite kernel of their size, ``rho > 0`` and a vector ``alpha`` of their length."""
    y = check_labels(y, "y")
    K0 = check_kernel(K0, "K0", n=y.size)
    rho = check_positive(rho, "rho")
    a = check_matrix(alpha, "alpha", ndim=1)
    check_same_length(y, a, "y", "alpha")
    return K0, y, a, rho


def check_alpha(alpha: Any, y: np.ndarray, C: float, feas_tol: float | None) -> np.ndarray:
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


# --------------------------------------------------------------------------- K0's spectrum
class K0Spectrum:
    """The eigendecomposition of ``K0``, computed at most once per formulation and shared
    by its solvers and its certificate (held in ``f.data["spectrum"]``).

    A solver that needs it (the rank-one oracle of :mod:`convexkern.algorithms.robust_svm`)
    calls :meth:`decomposition`; the certificate then reuses it (:func:`evaluate` with
    ``spectrum``: the eigenpairs of :math:`M(\\alpha)` by a rank-one update instead of a
    second ``eigh``, and ``f(0)`` from its eigenvalues), but never computes it itself
    unless asked (a conic solve's certificate needs one ``eigh`` of :math:`M(\\alpha)`,
    cheaper than a decomposition of ``K0`` plus the update).  The certificate does not
    trust these eigenpairs: a stale or inaccurate decomposition can only loosen its
    bounds.

    ``device`` (``"cpu"`` or ``"gpu"``, resolved by :func:`convexkern.math.device.resolve`)
    is where the decomposition, its updates and the certificate's ``n x n`` products run;
    :meth:`matrix` is ``K0`` there.
    """

    def __init__(self, K0: np.ndarray, device: str = "cpu") -> None:
        self.device = resolve(device, K0)
        self.K0 = K0 = to_host(K0)
        self._on_device: Any = K0 if self.device == "cpu" else None
        self._update: RankOneUpdate | None = None
        self._eigvals: np.ndarray | None = None
        self._abs_norm: float | None = None

    def matrix(self) -> Any:
        """``K0`` on the spectrum's device (copied there once)."""
        if self._on_device is None:
            self._on_device = to_device(self.K0, self.device)
        return self._on_device

    def matrix_for(self, K0: np.ndarray) -> Any:
        """``K0`` on the spectrum's device: :meth:`matrix` when it is this spectrum's
        ``K0`` (the same array), else a copy of the given one (a certificate is always
        about the matrix it was given; another spectrum's eigenpairs only loosen it)."""
        return self.matrix() if K0 is self.K0 else to_device(K0, self.device)

    def abs_norm(self) -> float:
        """:func:`abs_norm_bound` of ``K0`` (O(n^2), computed once)."""
        if self._abs_norm is None:
            self._abs_norm = abs_norm_bound(self.matrix())
        return self._abs_norm

    @property
    def known(self) -> bool:
        """Whether the decomposition has been computed."""
        return self._update is not None

    def decomposition(self) -> RankOneUpdate:
        """The :class:`~convexkern.math.rank_one.RankOneUpdate` of ``K0`` (one ``eigh``,
        the first time)."""
        if self._update is None:
            self._update = RankOneUpdate(self.matrix(), check=False, device=self.device)
        return self._update

    def eigenvalues(self, *, compute: bool = True) -> np.ndarray | None:
        """The eigenvalues of ``K0`` (from the decomposition when known; otherwise one
        ``eigvalsh``, cached, or ``None`` when ``compute`` is false)."""
        if self._update is not None:
            return self._update.lam
        if self._eigvals is None and compute:
            if self.device == "gpu":
                self._eigvals = to_host(module("gpu").linalg.eigvalsh(self.matrix()))
            else:
                self._eigvals = sla.eigvalsh(self.K0, driver="evd")
        return self._eigvals


# --------------------------------------------------------------------------- closed forms
@dataclass(frozen=True)
class Evaluation:
    """Everything at one ``alpha`` from one eigendecomposition of ``M(alpha)``.

    Floating-point *estimates* (accurate, cancellation-free, but not certified; the
    certified bounds are :func:`certified_lower` and :class:`ProxyKernel`).

    Attributes
    ----------
    value : float
        :math:`f(\\alpha) = e^\\top\\alpha - \\tfrac12 v^\\top K_0 v - \\|v\\|^4/(16\\rho)
        + \\rho\\|M_-\\|_F^2` (no :math:`\\|K_0\\|_F^2` anywhere).
    grad : ndarray
        :math:`\\nabla f(\\alpha) = e - Y K^\\star Y\\alpha`.
    Kv : ndarray
        :math:`K^\\star(\\alpha) Y\\alpha = Mv + M_-v` (the SVM decision values without bias).
    quad : float
        :math:`(Y\\alpha)^\\top K^\\star (Y\\alpha)`.
    dist2 : float
        :math:`\\|K^\\star - K_0\\|_F^2 = \\|M_- + s vv^\\top\\|_F^2`.
    eig : (w, V) or None
        The eigendecomposition of :math:`M(\\alpha)` it was computed from (reused by the
        certified bounds and the SMO refinement, so that the certificate decomposes
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
        return positive_part(self.eig[0], to_host(self.eig[1]))


def _eig(M: Any) -> tuple[np.ndarray, Any]:
    """``eigh`` of a symmetric matrix on its device: eigenvalues on the host, eigenvectors
    on the device."""
    if isinstance(M, np.ndarray):
        return sla.eigh(M, driver="evd", check_finite=False)
    w, V = module_of(M).linalg.eigh(M)
    return to_host(w), V


def inner_kernel(K0: Any, y: Any, alpha: Any, rho: float) -> np.ndarray:
    """:math:`K^\\star(\\alpha) = (K_0 + (Y\\alpha)(Y\\alpha)^\\top/(4\\rho))_+`, the minimiser
    of the inner problem of (3) (Luss & d'Aspremont 2007, §3, with the factor 1/(4ρ))."""
    K0, y, a, rho = _check_point(K0, y, alpha, rho)
    v = y * a
    M = K0 + np.outer(v, v) / (4.0 * rho)
    return positive_part(*_eig(M))


def evaluate(K0: np.ndarray, y: np.ndarray, alpha: np.ndarray, rho: float, *,
             spectrum: K0Spectrum | None = None, single: bool = False) -> Evaluation:
    """:math:`f`, :math:`\\nabla f` and the pieces of the bounds at ``alpha`` (no input
    checks; one full eigendecomposition of :math:`M(\\alpha)`, or, when ``spectrum``
    holds a decomposition of ``K0``, its rank-one update: secular equation plus one
    matrix product, :meth:`convexkern.math.rank_one.RankOneUpdate.eigh`).

    With :math:`s = 1/(4\\rho)`, :math:`\\|M\\|^2 - \\|K_0\\|^2 = 2s\\,v^\\top K_0 v +
    s^2\\|v\\|^4` exactly, so :math:`f = e^\\top\\alpha + \\rho(\\|K_0\\|^2 - \\|M\\|^2 +
    \\|M_-\\|^2) = e^\\top\\alpha - \\tfrac12 v^\\top K_0 v - \\|v\\|^4/(16\\rho) +
    \\rho\\|M_-\\|^2`: only the negative eigenvalues of :math:`M` enter, and nothing of size
    :math:`\\rho\\|K_0\\|^2` is cancelled (the old form lost :math:`\\rho\\,u\\|K_0\\|_F^2`).
    ``single``: with the rank-one update, form the eigenvectors :math:`V = QW` in single
    precision (:meth:`~convexkern.math.rank_one.RankOneUpdate.eigh`); the estimates are
    then accurate to about 1e-7 relative, the certified bounds stay valid.  With a
    ``spectrum``, the ``n x n`` work runs on its device (``eig``'s ``V`` stays there).
    """
    v = y * alpha
    s = 1.0 / (4.0 * rho)
    if spectrum is not None:
        K0 = spectrum.matrix_for(K0)
    K0v = dot(K0, v)
    vv = float(v @ v)
    vK0v = float(v @ K0v)
    if spectrum is not None and spectrum.known:
        w, V = spectrum.decomposition().eigh(v, s, single=single)
    else:
        xp = module_of(K0)
        vx = v if xp is np else xp.asarray(v)
        w, V = _eig(K0 + xp.outer(vx, vx) * s)
    neg = w < 0
    wn = w[neg]
    Vn = columns(V, neg)
    vn = dot(Vn.T, v)
    Mnv = -dot(Vn, wn * vn)  # M_- v, M_- = -Vn diag(wn) Vn' (psd)
    Kv = K0v + (s * vv) * v + Mnv  # M_+ v = M v + M_- v
    vMnv = float(-(wn @ (vn * vn)))  # v' M_- v >= 0
    neg2 = float(wn @ wn)  # ||M_-||^2
    quad = vK0v + s * vv * vv + vMnv
    value = math.fsum([math.fsum(alpha), -0.5 * vK0v, -vv * vv / (16.0 * rho), rho * neg2])
    # ||K* - K0||^2 = ||M_+ - M + s vv'||^2 = ||M_- + s vv'||^2
    dist2 = neg2 + 2.0 * s * vMnv + s * s * vv * vv
    return Evaluation(value=float(value), grad=1.0 - y * Kv, Kv=Kv, quad=float(quad),
                      dist2=max(float(dist2), 0.0), eig=(w, V))


def objective(K0: Any, y: Any, alpha: Any, rho: float) -> float:
    """:math:`f(\\alpha) = e^\\top\\alpha - \\tfrac12 v^\\top K_0 v - \\|v\\|^4/(16\\rho) +
    \\rho\\|M(\\alpha)_-\\|_F^2` (:math:`= e^\\top\\alpha + \\rho(\\|K_0\\|_F^2 -
    \\|M(\\alpha)_+\\|_F^2)`), the objective of problem (3) after the inner minimisation; a
    floating-point estimate (:func:`certified_lower` gives a certified lower bound)."""
    K0, y, a, rho = _check_point(K0, y, alpha, rho)
    return evaluate(K0, y, a, rho).value


def gradient(K0: Any, y: Any, alpha: Any, rho: float) -> np.ndarray:
    """:math:`\\nabla f(\\alpha) = e - Y K^\\star(\\alpha) Y \\alpha` (Danskin)."""
    K0, y, a, rho = _check_point(K0, y, alpha, rho)
    return evaluate(K0, y, a, rho).grad


def frank_wolfe_bound(value: float, grad: np.ndarray, alpha: np.ndarray, y: np.ndarray,
                      C: float) -> float:
    """:math:`f(\\alpha) + \\max_{\\beta\\in\\mathcal{A}} \\nabla f(\\alpha)^\\top(\\beta-\\alpha)`,
    an upper bound on max f by concavity *when value and grad are exact*.

    The iterative methods use it on their floating-point estimates (to decide when to
    stop); the certificate uses the rigorous :func:`frank_wolfe_upper` instead.  The
    linear maximisation over :math:`\\{y^\\top\\beta = 0, 0\\le\\beta\\le C\\}` has the LP
    dual :math:`\\min_\\mu C\\sum_i (g_i - \\mu y_i)_+`, a piecewise-linear function of
    ``mu`` minimised exactly at a breakpoint by :func:`best_hinge_bias` (with
    ``f = y - y g`` the hinge terms are :math:`(g_i - \\mu y_i)_+`).
    """
    _, h = best_hinge_bias(y - y * grad, y)
    return float(value + C * h - grad @ alpha)


def svm_bound(quad: float, Kv: np.ndarray, y: np.ndarray, C: float) -> float:
    """Soft-margin primal value at :math:`w(\\alpha)` with the best bias: an upper bound on
    the SVM optimum for the PSD kernel whose decision values are ``Kv`` (a floating-point
    estimate; the certificate uses :meth:`ProxyKernel.svm_primal`)."""
    _, h = best_hinge_bias(Kv, y)
    return 0.5 * max(quad, 0.0) + C * h


def default_smo_max_iter(n: int) -> int:
    """Default iteration cap of the SMO refinement: ``max(10000, 40 n)`` two-variable
    steps in total over its tolerance ladder (about as many steps as SMO needs at
    ``eps = 1e-4`` from a warm start on the USPS Simpson instances, n = 60 and 767)."""
    return max(10_000, 40 * int(n))


# --------------------------------------------------------------------------- certified bounds
#: unit roundoff of IEEE binary64
UNIT_ROUNDOFF = 2.0**-53


def _g(k: float) -> float:
    r"""``1.01 k u``: a bound on :math:`\gamma_k = ku/(1-ku)` (Higham, *Accuracy and
    Stability*, §3.1) that also absorbs the relative rounding (at most
    :math:`\gamma_{k'}`, :math:`k' u \le 10^{-3}`) committed in computing the quantity it
    multiplies.  Valid while :math:`ku \le 10^{-3}` (``k`` up to 9e12) and no intermediate
    result underflows or overflows (the standard model of floating-point arithmetic; a
    non-finite intermediate makes the bound non-finite, never silently wrong)."""
    return 1.01 * float(k) * UNIT_ROUNDOFF


def _round_down(terms: list[float], errs: list[float]) -> tuple[float, float]:
    """A float at most :math:`\\sum t - \\sum e` in exact arithmetic, and the pad used.

    ``math.fsum`` is correctly rounded (error <= u |sum| <= u sum|t|); the pad covers it
    twice over, and the final subtraction is moved one ulp down."""
    s = math.fsum(terms)
    pad = math.fsum(errs) * (1.0 + 4.0 * UNIT_ROUNDOFF) \
        + 2.0 * UNIT_ROUNDOFF * math.fsum(abs(t) for t in terms)
    return float(np.nextafter(s - pad, -np.inf)), pad


def _round_up(terms: list[float], errs: list[float]) -> tuple[float, float]:
    """A float at least :math:`\\sum t + \\sum e` in exact arithmetic, and the pad used."""
    s = math.fsum(terms)
    pad = math.fsum(errs) * (1.0 + 4.0 * UNIT_ROUNDOFF) \
        + 2.0 * UNIT_ROUNDOFF * math.fsum(abs(t) for t in terms)
    return float(np.nextafter(s + pad, np.inf)), pad


@dataclass(frozen=True)
class LowerBound:
    """A certified lower bound on :math:`f(\\alpha)` (:func:`certified_lower`).

    Attributes
    ----------
    value : float
        :math:`\\le f(\\alpha)` in exact arithmetic on the floating-point data.
    rounding : float
        The rounding terms subtracted (every bound on a floating-point error, summed).
    z_term : float
        The certified part of :math:`\\rho\\|M_-\\|^2`:
        :math:`\\rho(-2t\\langle M, Z\\rangle - t^2\\|Z\\|^2)` (0 when not positive).
    """

    value: float
    rounding: float
    z_term: float


#: rows of |K0| formed at a time by :func:`abs_norm_bound` (never the whole n x n |K0|)
_ROWS = 512


def abs_norm_bound(K0: np.ndarray, iters: int = 6) -> float:
    r"""A certified upper bound on :math:`\||K_0|\|_2` in :math:`O(n^2)` per iteration.

    :math:`|K_0|` is symmetric and entrywise non-negative, so :math:`\||K_0|\|_2 =
    \rho(|K_0|) \le \max_i (|K_0|x)_i/x_i` for any :math:`x > 0` (Collatz--Wielandt: the
    right side is the norm of :math:`|K_0|` induced by the weighted max-norm
    :math:`\|z\|_x = \max_i |z_i|/x_i`).  ``x`` is a few power iterations on
    :math:`|K_0|` from the all-ones vector (plus a small positive floor, so that every
    :math:`x_i > 0`), which makes the bound close to :math:`\rho(|K_0|)`; the rows of
    :math:`|K_0|` are formed in blocks of :data:`_ROWS`.  Rounding: every term of
    :math:`|K_0|x` is non-negative, so its computed value is at least
    :math:`(1 - \gamma_n)` times the true one; the quotient and the maximum add
    :math:`\gamma_3`.
    """
    n = K0.shape[0]
    if n == 0:
        return 0.0
    xp = module_of(K0)
    rows = _ROWS if xp is np else max(_ROWS, (1 << 25) // n)

    def apply(x: np.ndarray) -> np.ndarray:
        out = np.empty(n)
        for s in range(0, n, rows):
            out[s: s + rows] = dot(xp.abs(K0[s: s + rows]), x)
        return out

    x = np.ones(n)
    for _ in range(iters):
        z = apply(x)
        top = float(np.max(z))
        if not (top > 0 and math.isfinite(top)):
            break
        x = z / top + 1e-3
    z = apply(x)
    ratio = float(np.max(z / x))
    if not math.isfinite(ratio):
        return math.inf
    g = _g(n + 3)
    return float(np.nextafter(ratio * (1.0 + g) / (1.0 - g), np.inf))


def certified_lower(K0: np.ndarray, y: np.ndarray, alpha: np.ndarray, rho: float,
                    w: np.ndarray, V: np.ndarray, *,
                    abs_norm: float | None = None) -> LowerBound:
    r"""A lower bound on :math:`f(\alpha)` that does not trust the eigendecomposition.

    :math:`f(\alpha) = e^\top\alpha - \tfrac12 v^\top K_0 v - \|v\|^4/(16\rho) +
    \rho\min_{K\succeq 0}\|K - M\|_F^2`.  For any PSD :math:`Z` and :math:`t \ge 0`,
    :math:`\|K - M\|^2 \ge 2t\langle K - M, Z\rangle - t^2\|Z\|^2 \ge -2t\langle M, Z\rangle
    - t^2\|Z\|^2` (:math:`\|A - tZ\|^2 \ge 0` and :math:`\langle K, Z\rangle \ge 0`).
    :math:`Z = BB^\top` with :math:`B = V_-\sqrt{-w_-}` (the computed negative eigenpairs;
    PSD by construction whatever their accuracy), :math:`\langle M, Z\rangle =
    \sum_j b_j^\top K_0 b_j + s\|B^\top v\|^2` and :math:`\|Z\|^2 = \|B^\top B\|_F^2`
    evaluated from the data :math:`(K_0, v)`, and the best
    :math:`t = \max(0, -\langle M,Z\rangle/\|Z\|^2)` (1 for exact eigenpairs, when the
    term equals :math:`\rho\|M_-\|^2`; :math:`t = 0` is :math:`Z = 0`).

    Rounding terms (``u`` = 2^-53, :math:`\gamma_k \le` ``_g(k)``, :math:`R \ge
    \||K_0|\|_2` from :func:`abs_norm_bound`, or ``abs_norm`` when the caller has it): a
    length-``m`` dot product is off by at most :math:`\gamma_m|x|^\top|y|` and a matrix
    product entrywise likewise, so :math:`|\mathrm{fl}(v^\top K_0 v) - v^\top K_0 v| \le
    \gamma_{2n}|v|^\top|K_0||v| \le \gamma_{2n}R\|v\|^2`, :math:`\|v\|^4/(16\rho)` is off by
    a relative :math:`\gamma_{2n+4}`; :math:`b_j^\top K_0 b_j` is summed per column (length
    ``n``) and the ``k`` columns by ``math.fsum``, so :math:`\sum_j b_j^\top K_0 b_j` is off
    by :math:`\gamma_{2n+1}\sum_j|b_j|^\top|K_0||b_j| + u|\cdot| \le
    \gamma_{2n+1}R\|B\|_F^2 + u|\cdot|` (no product :math:`|K_0||B|`: it cost as much as
    :math:`K_0B`); :math:`s\|B^\top v\|^2` is off by :math:`\gamma_{2n+k+4}\,s\,
    \||B|^\top|v|\|^2` and :math:`\|B^\top B\|^2` (squares summed per column, columns
    by ``math.fsum``) by :math:`\gamma_{2n+k+3}\||B|^\top|B|\|_F^2` (both Gram matrices
    by a symmetric rank-``n`` update); all are subtracted.
    """
    n = y.size
    v = y * alpha
    av = np.abs(v)
    xp = module_of(V)
    R = abs_norm_bound(K0) if abs_norm is None else float(abs_norm)
    K0v = dot(K0, v)
    q = float(v @ K0v)
    vv = float(v @ v)
    e_q = _g(2 * n) * R * vv * (1.0 + _g(n))
    T = vv * vv / (16.0 * rho)
    e_T = _g(2 * n + 4) * T
    A = math.fsum(alpha)
    e_A = _g(1) * math.fsum(np.abs(alpha))
    terms = [A, -0.5 * q, -T]
    errs = [e_A, 0.5 * e_q, e_T]
    z_term = 0.0
    neg = w < 0
    k = int(np.count_nonzero(neg))
    if k:
        sq = np.sqrt(-w[neg])
        B = columns(V, neg)  # a copy: scaled in place
        B *= sq if xp is np else xp.asarray(sq)
        aB = xp.abs(B)
        s = 1.0 / (4.0 * rho)
        m1 = fsum(xp.einsum("ij,ij->j", B, K0 @ B))
        BB = float(xp.einsum("ij,ij->", B, B)) * (1.0 + _g(n * k + 1))  # >= ||B||_F^2
        e_m1 = _g(2 * n + 1) * R * BB + _g(1) * abs(m1)
        Bv = dot(B.T, v)
        m2 = s * float(Bv @ Bv)
        aBv = dot(aB.T, av)
        e_m2 = _g(2 * n + k + 4) * s * float(aBv @ aBv)
        BtB = _gram(B)
        zz = fsum(xp.einsum("ij,ij->j", BtB, BtB))
        aBtB = _gram(aB)
        e_zz = _g(2 * n + k + 3) * float(xp.sum(aBtB * aBtB)) * (1.0 + _g(k * k + 1))
        m = m1 + m2
        e_m = e_m1 + e_m2 + _g(1) * (abs(m1) + abs(m2))
        t = -m / zz if zz > 0 and m < 0 else 0.0
        if t > 0 and math.isfinite(t):
            R2 = -2.0 * t * m - t * t * zz
            e_R = 2.0 * t * e_m + t * t * e_zz + _g(4) * (2.0 * t * abs(m) + t * t * zz)
            if R2 - e_R > 0:  # otherwise Z = 0 (t = 0) is the better certified choice
                z_term = rho * R2
                terms.append(z_term)
                errs.append(rho * e_R + _g(1) * z_term)
    value, pad = _round_down(terms, errs)
    return LowerBound(value=value, rounding=pad, z_term=z_term)


def rounding_floor(n: int, abs_norm: float, alpha_sum: float, C: float, vv: float,
                   rho: float, neg_trace: float, pos_trace: float, dist2: float) -> float:
    r"""An estimate of the rounding terms the certificate will add to the gap at a point,
    i.e. of the smallest absolute gap it can certify there (an *estimate* for the
    methods' stopping rule, not a bound; the certificate computes its own terms).

    The dominant terms of :func:`certified_lower`, :func:`proxy_kernel` and
    :func:`frank_wolfe_upper`, with :math:`R \ge \||K_0|\|_2`, :math:`\|B\|_F^2 =
    \mathrm{tr}\,M_-` (``neg_trace``), :math:`\|P\|_F^2 = \mathrm{tr}\,M_+`
    (``pos_trace``), :math:`\|D\|_F^2 \approx \|K^\star - K_0\|_F^2` (``dist2``):
    :math:`\gamma_{2n}R\|v\|^2/2 + \gamma_{2n}\|v\|^4/(16\rho) + 2\rho\gamma_{2n+1}R\,
    \mathrm{tr}M_- + \rho\gamma_{2n+k}(\mathrm{tr}M_-)^2` (lower) and
    :math:`2\rho\|D\|_F(\gamma_{n+3}\|D\|_F + \gamma_{k+2}\mathrm{tr}M_+) +
    \gamma_{2n}\mathrm{tr}M_+\|v\|^2 + \gamma_n(e^\top\alpha + nC)` (upper; the
    products with :math:`|P|` bounded through :math:`\||P|^\top|v|\|^2 \le
    \mathrm{tr}M_+\|v\|^2`).  Below this gap a smaller ``tol`` cannot be
    certified in double precision.
    """
    g2 = _g(2 * n + 4)
    nD = math.sqrt(max(dist2, 0.0))
    low = (0.5 * g2 * abs_norm * vv + g2 * vv * vv / (16.0 * rho)
           + 2.0 * rho * g2 * abs_norm * neg_trace + rho * _g(3 * n) * neg_trace ** 2)
    up = (2.0 * rho * nD * (_g(n + 3) * nD + _g(n + 2) * pos_trace)
          + g2 * pos_trace * vv
          + _g(n) * (abs(alpha_sum) + n * C))
    return float(low + up)


def _gram(B: Any) -> Any:
    """:math:`\\mathrm{fl}(B^\\top B)`, symmetric, by a rank-``n`` update (``dsyrk``: half
    the flops of ``B.T @ B``; each entry is still one length-``n`` dot product; on a GPU
    the product ``B.T @ B``, whose entries are such dot products too)."""
    xp = module_of(B)
    U = sla.blas.dsyrk(1.0, B, trans=1) if xp is np else B.T @ B
    return _mirror_upper(U)


#: entries of a block of rows in :func:`_mirror_upper` and :func:`_dist_rows`
_MIRROR_ENTRIES = 1 << 24


def _mirror_upper(U: Any) -> Any:
    """``U`` with its strict lower triangle overwritten by the transpose of its strict
    upper one, in place, by blocks of rows (no ``n x n`` temporary: at n = 5e4 each would
    be 20 GB): every entry of the result is the computed upper entry, so it is exactly
    symmetric and each entry is one computed dot product."""
    n = U.shape[0]
    xp = module_of(U)
    step = max(1, _MIRROR_ENTRIES // max(n, 1))
    for i0 in range(0, n, step):
        i1 = min(i0 + step, n)
        if i0:
            U[i0:i1, :i0] = U[:i0, i0:i1].T  # reads rows < i0 above the diagonal only
        d = U[i0:i1, i0:i1]
        U[i0:i1, i0:i1] = xp.triu(d) + xp.triu(d, 1).T
    return U


def _dist_rows(S: Any, K0: Any) -> np.ndarray:
    """The squared norms of the rows of ``S - K0`` (each one length-``n`` sum), on the
    host, by blocks of rows (no ``n x n`` difference)."""
    n = S.shape[0]
    xp = module_of(S)
    step = max(1, _MIRROR_ENTRIES // max(n, 1))
    out = []
    for i0 in range(0, n, step):
        D = S[i0: i0 + step] - K0[i0: i0 + step]
        out.append(to_host(xp.einsum("ij,ij->i", D, D)))
    return np.concatenate(out) if out else np.zeros(0)


@dataclass(frozen=True)
class ProxyKernel:
    r"""The PSD kernel :math:`K_P = PP^\top` that the certified upper bounds fix.

    :math:`P = V_+\sqrt{w_+}` from the computed positive eigenpairs of :math:`M(\alpha)`, so
    :math:`K_P` is PSD by construction (and :math:`= K^\star(\alpha)` for exact eigenpairs).
    For any PSD :math:`K`, :math:`\mathrm{OPT} \le \mathrm{SVM}(K) + \rho\|K - K_0\|_F^2`
    (min-max inequality); see :meth:`svm_primal` and :func:`frank_wolfe_upper`.

    Attributes
    ----------
    P : (n, k) array
    K : (n, n) array
        :math:`\mathrm{fl}(PP^\top)`, symmetrised (the matrix SMO runs on).
    dist_term : float
        :math:`\ge \rho\|PP^\top - K_0\|_F^2` in exact arithmetic: :math:`D =
        \mathrm{fl}(PP^\top) - K_0` is formed explicitly, its entries are off by at most
        :math:`\gamma_{k+2}(|P||P|^\top)_{ij} + u|D_{ij}|`, and
        :math:`\||P||P|^\top\|_F \le \sum_i\|p_i\|^2` (Cauchy--Schwarz), so
        :math:`\|PP^\top - K_0\|_F \le \|D\|_F(1 + \gamma_{n+3}) + \gamma_{k+2}\|P\|_F^2
        + u\|D\|_F` (:math:`\|D\|_F^2` summed per row, the rows by ``math.fsum``).
    dist_rounding : float
        ``dist_term`` minus :math:`\rho\|D\|_F^2` as computed.
    """

    P: np.ndarray
    K: np.ndarray
    dist_term: float
    dist_rounding: float

    def svm_primal(self, c: np.ndarray, y: np.ndarray, C: float) -> tuple[float, float]:
        r"""A certified upper bound on :math:`\mathrm{SVM}(K_P) + \rho\|K_P - K_0\|^2` and its
        rounding terms.

        The soft-margin primal point :math:`w = \mathrm{fl}(P^\top c)` (any :math:`w \in
        \mathbb{R}^k` is a primal point for the feature map :math:`x_i \mapsto p_i`; ``c =
        y * beta`` puts it at :math:`w(\beta)`) with the best bias ``b`` for the computed
        decision values (:func:`best_hinge_bias`; any ``b`` is valid).  Rounding:
        :math:`\|w\|^2` is off by a relative :math:`\gamma_k`, the decision values
        :math:`Pw` by :math:`\gamma_k|P||w|`, each hinge term by that plus
        :math:`\gamma_3(|d_i + b| + |1 - y_i(d_i + b)|)` (hinge is monotone and 1-Lipschitz).
        """
        P = self.P
        k = P.shape[1]
        w = dot(P.T, c)
        ww = float(w @ w)
        d = dot(P, w)
        e_d = _g(k) * dot(module_of(P).abs(P), np.abs(w))
        b, _ = best_hinge_bias(d, y)
        t1 = d + b
        t2 = 1.0 - y * t1
        hinge = math.fsum(np.maximum(t2 + e_d + _g(3) * (np.abs(t1) + np.abs(t2)), 0.0))
        terms = [0.5 * ww, C * hinge, self.dist_term]
        errs = [0.5 * _g(k) * ww, _g(2) * C * hinge]
        up, _ = _round_up(terms, errs)
        # what rounding added: the padding inside `hinge`, the final pad, dist_rounding
        plain = 0.5 * ww + C * float(np.sum(np.maximum(t2, 0.0))) + self.dist_term
        return up, max(up - plain, 0.0) + self.dist_rounding


def proxy_kernel(K0: np.ndarray, rho: float, w: np.ndarray, V: np.ndarray) -> ProxyKernel:
    """:class:`ProxyKernel` from the eigenpairs ``(w, V)`` of :math:`M(\\alpha)`."""
    n = K0.shape[0]
    xp = module_of(V)
    pos = w > 0
    sq = np.sqrt(w[pos])
    P = columns(V, pos)  # a copy: scaled in place
    P *= sq if xp is np else xp.asarray(sq)
    k = P.shape[1]
    # fl(PP') by a symmetric rank-k update (half the flops of P @ P.T; every entry is still
    # one length-k dot product, so the rounding bound below holds whatever the order; on
    # a GPU the product P @ P.T), its upper triangle mirrored in place
    if not k:
        S = xp.zeros((n, n))
    else:
        S = _mirror_upper(sla.blas.dsyrk(1.0, P.T, trans=1) if xp is np else P @ P.T)
    # squares summed per row (length n), rows by math.fsum: relative error gamma_{n+2}
    nD = math.sqrt(math.fsum(_dist_rows(S, K0)))
    nD_up = nD * (1.0 + _g(n + 3))
    eD = _g(k + 2) * float(xp.sum(P * P)) + _g(1) * nD_up
    dist_up = (nD_up + eD) ** 2 * (1.0 + _g(3))
    dist_term = float(np.nextafter(rho * dist_up * (1.0 + _g(1)), np.inf))
    return ProxyKernel(P=P, K=S, dist_term=dist_term,
                       dist_rounding=max(dist_term - rho * nD * nD, 0.0))


def frank_wolfe_upper(pk: ProxyKernel, y: np.ndarray, alpha: np.ndarray,
                      C: float) -> tuple[float, float]:
    r"""A certified Frank--Wolfe bound and its rounding terms.

    :math:`g(\beta) = e^\top\beta - \tfrac12\beta^\top YK_PY\beta + \rho\|K_P - K_0\|^2` is
    concave, so :math:`\mathrm{OPT} \le \max_{\mathcal{A}} g \le g(\alpha) +
    \max_{\beta\in\mathcal{A}} \nabla g(\alpha)^\top(\beta - \alpha)`,
    :math:`\nabla g(\alpha) = e - YK_Pv`.  For exact eigenpairs this is the Frank--Wolfe bound
    on :math:`f` (:math:`g(\alpha) = f(\alpha)`, :math:`\nabla g(\alpha) = \nabla f(\alpha)`,
    Danskin); here it needs neither the true :math:`f(\alpha)` nor the true gradient, only
    :math:`K_P`.  The linear maximum is bounded through weak LP duality by
    :math:`C\sum_i(h_i - \mu y_i)_+` at the breakpoint ``mu`` of
    :func:`frank_wolfe_bound`.  Rounding: with :math:`a = |P|^\top|v|`,
    :math:`\|P^\top v\|^2` is off by :math:`\gamma_{2n+k}\|a\|^2`, :math:`h = e -
    YP(P^\top v)` entrywise by :math:`e_h = \gamma_{n+k+1}|P|a + u|h|`, and the linear
    terms by :math:`e_h` (times ``C`` or :math:`\alpha`) plus :math:`\gamma_4|h_i - \mu y_i|` and
    :math:`\gamma_n|h|^\top\alpha`.
    """
    P = pk.P
    n, k = P.shape
    v = y * alpha
    av = np.abs(v)
    aP = module_of(P).abs(P)
    w = dot(P.T, v)
    ww = float(w @ w)
    a = dot(aP.T, av)
    e_ww = _g(2 * n + k) * float(a @ a)
    h = 1.0 - y * dot(P, w)
    e_h = _g(n + k + 1) * dot(aP, a) + _g(1) * np.abs(h)
    mu, _ = best_hinge_bias(y - y * h, y)
    r = h - mu * y
    lin = math.fsum(np.maximum(r + e_h + _g(4) * np.abs(r), 0.0))
    ha = float(h @ alpha)
    e_ha = float(e_h @ alpha) + _g(n) * float(np.abs(h) @ alpha)
    A = math.fsum(alpha)
    terms = [A, -0.5 * ww, pk.dist_term, C * lin, -ha]
    errs = [_g(1) * math.fsum(np.abs(alpha)), 0.5 * e_ww, _g(2) * C * lin, e_ha]
    up, _ = _round_up(terms, errs)
    plain = A - 0.5 * ww + pk.dist_term + C * float(np.sum(np.maximum(r, 0.0))) - ha
    return up, max(up - plain, 0.0) + pk.dist_rounding


def smo_bound(y: np.ndarray, a: np.ndarray, C: float, pk: ProxyKernel,
              max_iter: int, done: Callable[[float], bool] | None,
              time_limit: float | None) -> tuple[float, int, float]:
    """Best certified soft-margin primal bound (:meth:`ProxyKernel.svm_primal`, so
    :math:`\\rho\\|K_P - K_0\\|^2` included) over an SMO tolerance ladder on :math:`K_P`
    (at most ``max_iter`` SMO steps in total), the SMO steps taken, and the rounding terms
    of the best bound.

    SMO only proposes points: each bound is evaluated with its rounding terms at
    :math:`w = P^\\top Y\\beta`, whatever SMO's accuracy.  The ladder runs ``eps`` = 1e-4,
    1e-6, 1e-8 (warm-started) and stops early once ``done(bound)`` is true (the caller's
    test of its target gap).  A failing SMO gives ``(inf, steps, 0)``.  ``time_limit``
    bounds each SMO run; under a deadline (:func:`~convexkern.math.budget.time_left`) each
    gets at most what is left of it, and none is begun past it.
    """
    Ks = to_host(pk.K)  # from the eigenpairs of M(a) computed by evaluate: no second eigh
    best, rounding = math.inf, 0.0
    used = 0
    try:
        a0 = np.clip(a, 0.0, C)
        # SMO wants |y'a0| <= 1e-10 sum(a0): repair the last bit of round-off
        if abs(y @ a0) > 1e-12 * max(a0.sum(), 1.0):
            a0 = project_svm_feasible(a0, y, C)
        for eps in (1e-4, 1e-6, 1e-8):
            left = max_iter - used
            # under a caller's deadline (ck.solve's time_limit) SMO gets what is left of it
            limit = time_limit if (due := time_left()) is None else (
                due if time_limit is None else min(time_limit, due))
            if left <= 0 or (limit is not None and limit <= 0):
                break
            r = smo(Ks, y, C, eps=eps, max_iter=left, time_limit=limit,
                    alpha0=a0 if a0.sum() > 0 else None, check_input=False)
            used += int(r.iterations)
            bound, r_bound = pk.svm_primal(y * r.alpha, y, C)
            if bound < best:
                best, rounding = bound, r_bound
            a0 = r.alpha
            if r.status != "optimal":
                break
            if done is not None and done(best):
                break
    except (InvalidInputError, ValueError):
        return math.inf, used, 0.0
    return best, used, rounding


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
    n = check_int(n_train, "n_train", minimum=1)
    if n != y.size or K_full.shape[0] < n:
        raise InvalidInputError(
            "n_train", f"must equal len(y) = {y.size} and <= {K_full.shape[0]}")
    a = check_matrix(alpha, "alpha", ndim=1)
    check_same_length(y, a, "y", "alpha")
    v = y * a
    M = K_full.copy()
    M[:n, :n] += np.outer(v, v) / (4.0 * rho)
    return positive_part(*_eig(M))
