r"""SVM in Kreĭn spaces: KSVM (flip) and TrIK-SVM (shift) (Loosli, ESANN 2019).

Sources: G. Loosli, "TrIK-SVM: an alternative decomposition for kernel methods in Kreĭn
spaces", ESANN 2019; KSVM: G. Loosli, S. Canu, C. S. Ong, "Learning SVM in Kreĭn spaces",
IEEE TPAMI 38(6), 2016; SimpleSVM: Vishwanathan, Smola & Murty, ICML 2003.

An indefinite kernel :math:`k = k_+ - k_-` spans a reproducing kernel Kreĭn space.  The SVM
there is a *stabilization* (saddle-point) problem, solved as an ordinary SVM in the
associated Hilbert space with the positive kernel :math:`\tilde k = k_+ + k_-` and mapped
back by a transition matrix :math:`P` (:math:`KP = \tilde K`):

* **flip** (KSVM): :math:`K = UDU^\top`, :math:`\tilde K = U|D|U^\top`,
  :math:`P = U\,\mathrm{sign}(D)\,U^\top` (the paper writes :math:`|U|` where it means
  :math:`|D|`; :math:`\mathrm{sign}(0) := +1` here so that :math:`P` is an involution);
* **shift** (TrIK): for :math:`\lambda \le \lambda_{\min}(K) < 0`,
  :math:`K_+ = K - \lambda I`, :math:`K_- = -\lambda I`, :math:`\tilde K = K - 2\lambda I`,
  :math:`P = I - 2\lambda K^{-1}`; in the active-set form only the free support vectors
  are mapped: :math:`\alpha_W = (I - 2\lambda G_{WW}^{-1})\tilde\alpha_W`, bounded ones stay
  at :math:`C`, the others at 0 (paper eq. 6), :math:`G = YKY`.

**Coefficient convention.**  All coefficient vectors are *unlabelled*: the Hilbert
solution is :math:`\tilde f(x) = \sum_i\tilde\alpha_i y_i\tilde k(x_i,x) + b` with
:math:`0 \le \tilde\alpha \le C` (the SVM dual variables), the Kreĭn solution is
:math:`f(x) = \sum_i \alpha_i y_i k(x_i, x) + b` with the *original* kernel and no sign
constraint on :math:`\alpha`.  The transition acts on the labelled vectors,
:math:`Y\alpha = P\,Y\tilde\alpha`, which on the training points gives

* flip: :math:`K Y\alpha = KPY\tilde\alpha = \tilde KY\tilde\alpha`, so :math:`f = \tilde f`
  on *every* training point;
* shift (eq. 6): :math:`f = \tilde f` on the *free support vectors* (and everywhere on the
  training set with the full :math:`P`).

:func:`convexkern.verify.krein.check_equivalence` measures both.  The decompositions
and transitions live in :mod:`convexkern.math.krein` (re-exported here), the solvers' adapters
in :mod:`convexkern.algorithms.trik.adapter`, the paper's claims as verdicts in
:mod:`convexkern.verify.krein`.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import check_kernel, check_labels, check_margin_C, check_matrix
from ..errors import InvalidInputError, InvalidTypeError
from ..formulation import Formulation, stored_problem
from ..math.device import resolve, to_host
from ..math.krein import (
    ALPHA_RTOL,
    Decomposition,
    decompose,
    flip,
    full_coefficients,
    krein_coefficients,
    min_eigenvalue,
    shift,
    transition_matrix,
)
from ..report import Certificate
from . import svm

__all__ = [
    "Decomposition",
    "flip",
    "shift",
    "decompose",
    "transition_matrix",
    "stabilization",
    "to_krein",
    "KreinSolution",
    "decision_function",
    "min_eigenvalue",
]

SOURCE = "Loosli, ESANN 2019 (TrIK-SVM), eqs. 1-6 and Algorithm 1; KSVM: Loosli et al., TPAMI 2016"


# ----------------------------------------------------------------------------- builder
def _certify(f: Formulation, point: Mapping[str, np.ndarray]) -> Certificate:
    C_now = None if f.data["hard"] else f.param("C")
    cert = svm.certificate(f.data["K"], f.data["y"], point["alpha"], C_now, feas_tol=None,
                           check=False)
    extra = {k: np.asarray(v) for k, v in point.items() if k in ("alpha_krein", "b_krein")}
    if not extra:
        return cert
    return dataclasses.replace(cert, point={**cert.point, **extra})


def stabilization(
    K: Any,
    y: Any,
    C: float | None = 1.0,
    decomposition: str = "shift",
    lam: float | None = None,
    *,
    device: str = "auto",
) -> Formulation:
    r"""The stabilization problem as the Hilbert-space SVM dual with ``K~``.

    Maximises ``e'a - 1/2 a' Y K~ Y a`` s.t. ``y'a = 0``, ``0 <= a <= C`` (``C=None``: hard
    margin), with ``K~ = U|D|U'`` (flip) or ``K - 2 lam I`` (shift, ``lam`` defaulting to
    ``min(lambda_min(K), 0)`` by Lanczos).  The variable ``alpha`` is the Hilbert
    coefficient vector ``alpha~``; map a solution back with :func:`to_krein`.

    Solvers: the conic ones, ``smo``, ``trik`` (active set checking optimality in the
    Hilbert space: the QP optimum) and ``trik-krein`` (the paper's Algorithm 1, checking
    primal optimality in the Kreĭn space).  ``trik`` is the default for shift, ``smo`` for
    flip.  The certificate is :func:`convexkern.formulations.svm.certificate` with ``K~``
    (valid: ``K~`` is positive semidefinite).

    ``f.data`` holds ``K`` (= ``K~``, the Hilbert kernel), ``K_krein`` (the original),
    ``y``, ``hard``, ``decomposition`` (a :class:`Decomposition`) and ``lam``.

    ``device`` (``"auto"``, ``"cpu"`` or ``"gpu"``): where the flip's eigendecomposition
    and ``U|D|U'`` run (:func:`convexkern.math.krein.flip`; ``"auto"`` is ``K``'s device,
    a CuPy array or a CUDA torch tensor meaning the GPU); the solvers then run on the host.

    Examples
    --------
    >>> import numpy as np, convexkern as ck
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.2]])
    >>> K = np.tanh(X @ X.T - 0.5)                      # an indefinite sigmoid kernel
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])
    >>> f = ck.formulations.krein.stabilization(K, y, C=1.0, decomposition="shift")
    >>> r1, r2 = ck.solve(f, "trik"), ck.solve(f, "clarabel")
    >>> abs(r1.primal_value - r2.primal_value) < 1e-6 * abs(r2.primal_value)
    True
    """
    dev = resolve(device, K)
    y = check_labels(to_host(y), "y")
    K = check_kernel(to_host(K), "K", n=y.size)
    if not isinstance(decomposition, str):
        raise InvalidTypeError("decomposition",
                               f"expected 'flip' or 'shift', got {decomposition!r}")
    dec = decompose(K, decomposition, lam, device=dev)
    base = svm.dual(dec.K_tilde, y, C, psd_check=False)
    hard = C is None
    name = f"krein.stabilization({decomposition}{', hard' if hard else ''})"
    return Formulation(
        name=name,
        problem=stored_problem(base),  # svm.dual's builder: built on first access
        variables=base.variables,
        parameters=base.parameters,
        source=SOURCE,
        kind="krein.stabilization",
        data={"K": dec.K_tilde, "K_krein": K, "y": y, "hard": hard, "decomposition": dec,
              "lam": dec.lam},
        certify=_certify,
        default_solver="trik" if decomposition == "shift" else "smo",
        variant=dec.kind,
        decision="dual_expansion",  # in the Krein space, with the coefficients mapped back
        facts=dict(base.facts),
        notes=f"Hilbert-space SVM dual with the {decomposition} kernel K~; "
              "alpha is alpha~ (unlabelled); map back with krein.to_krein",
    )


# ----------------------------------------------------------------------------- projection
@dataclass(frozen=True)
class KreinSolution:
    """A Kreĭn-space solution: ``f(x) = sum_i alpha_i y_i k(x_i, x) + b``."""

    alpha: np.ndarray
    b: float
    alpha_tilde: np.ndarray
    method: str

    @property
    def n_support(self) -> int:
        return int(np.count_nonzero(self.alpha))


def to_krein(
    dec: Decomposition | Formulation,
    y: Any,
    alpha_tilde: Any,
    b: float,
    C: float | None = None,
    *,
    method: str | None = None,
    singular: str = "raise",
) -> KreinSolution:
    """Project a Hilbert-space solution back to the Kreĭn space: ``Y alpha = P Y alpha~``.

    Parameters
    ----------
    dec : Decomposition or a stabilization Formulation
    y, alpha_tilde, b : labels, Hilbert coefficients, bias (kept: ``f`` and ``f~`` share it)
    C : float or None
        Needed by ``method="active"`` to tell free from bounded support vectors (read from
        the formulation when ``dec`` is one).
    method : {"full", "active", "delta"}
        ``"full"``: the transition matrix ``P`` on all points (flip: the only choice;
        shift: ``I - 2 lam K^-1``).  ``"active"`` (shift only, the default for it): paper
        eq. 6 on the free support vectors.  ``"delta"`` (shift only): ``alpha = alpha~``,
        the shift decomposition's own Kreĭn function off the training set.  With
        ``K_- = -lam I`` read as the kernel ``k_-(x, z) = -lam [x = z]`` (a delta),
        ``f = f~ = sum_i alpha~_i y_i (k(x_i, .) - 2 lam [x_i = .]) + b``: at any point
        that is not a training point the delta part vanishes and
        ``f(x) = sum_i alpha~_i y_i k(x_i, x) + b``.  ``"active"`` and ``"full"`` instead
        express the delta part through the smooth ``k(x_i, .)`` (``K alpha = K~ alpha~``
        on the training points), which makes ``f`` interpolate the labels on the free
        support vectors; on the paper's blobs this is what drops the test accuracy to
        chance from n = 1000 on (docs/krein.md, "Why TrIK fails at n >= 1000").
    singular : {"raise", "lstsq"}
        What to do when the matrix to invert is singular (never silent).
    """
    if isinstance(dec, Formulation):
        if dec.kind != "krein.stabilization":
            raise InvalidInputError(
                "dec", f"expected a krein.stabilization formulation, got {dec.kind}")
        if C is None and not dec.data["hard"]:
            C = dec.param("C")
        dec = dec.data["decomposition"]
    elif not isinstance(dec, Decomposition):
        raise InvalidTypeError(
            "dec", f"expected a Decomposition or a krein.stabilization Formulation, got "
                   f"{type(dec).__name__}")
    y = check_labels(y, "y", n=dec.K.shape[0])
    at = check_matrix(alpha_tilde, "alpha_tilde", ndim=1)
    if at.size != y.size:
        raise InvalidInputError("alpha_tilde", f"has {at.size} entries, expected {y.size}")
    b = _check_bias(b)
    if C is not None:
        C = check_margin_C(C, "C")
    if method is None:
        method = "active" if dec.kind == "shift" else "full"
    if not isinstance(method, str):
        raise InvalidTypeError("method", f"must be 'full', 'active' or 'delta', got {method!r}")
    if singular not in ("raise", "lstsq"):
        raise InvalidInputError("singular", f"must be 'raise' or 'lstsq', got {singular!r}")
    if method == "delta":
        if dec.kind != "shift":
            raise InvalidInputError("method", "'delta' (alpha = alpha~) applies to the shift "
                                    "decomposition; flip uses its transition P ('full')")
        return KreinSolution(alpha=at.copy(), b=float(b), alpha_tilde=at, method=method)
    if method == "full":
        if dec.kind == "shift" and singular == "lstsq":
            singular = "pinv"
        alpha = full_coefficients(dec, y, at, singular=singular)
    elif method == "active":
        if dec.kind != "shift":
            raise InvalidInputError("method", "'active' (eq. 6) applies to the shift decomposition")
        alpha = krein_coefficients(dec.K, y, at, dec.lam, C, rel_tol=ALPHA_RTOL,
                                   singular=singular)
    else:
        raise InvalidInputError("method",
                                f"must be 'full', 'active' or 'delta', got {method!r}")
    return KreinSolution(alpha=alpha, b=float(b), alpha_tilde=at, method=method)


def _check_bias(b: Any, name: str = "b") -> float:
    """The bias ``b`` as a finite float, or an error naming ``name``."""
    if isinstance(b, bool) or not isinstance(b, (int, float, np.integer, np.floating)):
        raise InvalidTypeError(name, f"expected a number, got {b!r}")
    if not math.isfinite(float(b)):
        raise InvalidInputError(name, f"must be finite, got {b!r}")
    return float(b)


def decision_function(K_eval: Any, y: Any, alpha: Any, b: float) -> np.ndarray:
    """``f(x) = sum_i alpha_i y_i k(x_i, x) + b`` for rows of ``K_eval = k(x, x_train)``.

    ``K_eval`` is ``(n_eval, n_train)`` (or one row, ``(n_train,)``); ``y`` and ``alpha``
    have ``n_train`` entries.  A mismatch raises an error naming the argument.
    """
    Ke = _as_eval_kernel(K_eval)
    yv = check_labels(y, "y")
    a = check_matrix(alpha, "alpha", ndim=1)
    if a.size != yv.size:
        raise InvalidInputError("alpha", f"has {a.size} entries but y has {yv.size}")
    if Ke.shape[-1] != yv.size:
        raise InvalidInputError(
            "K_eval", f"has {Ke.shape[-1]} columns (training points) but y and alpha have "
                      f"{yv.size}")
    return Ke @ (yv * a) + _check_bias(b)


def _as_eval_kernel(K_eval: Any) -> np.ndarray:
    """``K_eval`` as a finite float array of one or two dimensions, or an error naming it."""
    try:
        nd = np.ndim(K_eval)
    except ValueError:  # ragged rows: reported by check_matrix as not an array of numbers
        nd = 2
    return check_matrix(K_eval, "K_eval", ndim=1 if nd == 1 else 2)
