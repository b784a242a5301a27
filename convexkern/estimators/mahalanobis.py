r"""A scikit-learn transformer that learns a diagonal Mahalanobis kernel by LP (Abe, 2012).

:class:`LPMahalanobis` learns the weights :math:`R_{ii}` of

.. math:: K(x, x') = \exp\!\big(-\tfrac{\delta}{m}(x - x')^\top R\,(x - x')\big)

(the paper's (1)) and *transforms* the inputs to :math:`u = \sqrt{\delta R/m}\circ x`
restricted to the selected inputs (``R_ii > 0``), so that an RBF SVM with ``gamma=1`` on
the transformed inputs is exactly the SVM with the trained Mahalanobis kernel:
:math:`\|u - u'\|^2 = \tfrac{\delta}{m}(x - x')^\top R (x - x')`.  It therefore composes
with any RBF classifier in a :class:`~sklearn.pipeline.Pipeline`, and ``GridSearchCV``
can tune ``C_M``, ``delta`` and the SVM's ``C`` together::

    Pipeline([("kernel", LPMahalanobis()), ("svm", SVC(kernel="rbf", gamma=1.0))])

``method`` chooses how ``R`` is obtained:

* ``"lp"`` (default): the LP SVM (10)–(13) on the triplets of the training data
  (:func:`convexkern.formulations.lp_svm.triplet_matrix`); with more than two classes the
  triplets use the class labels directly (``k`` = nearest sample of *any* other class).
  For the paper's one-against-all scheme wrap the pipeline in
  :class:`~sklearn.multiclass.OneVsRestClassifier`: each binary problem then learns its
  own ``R``.
* ``"covariance"``: :math:`R = \mathrm{diag}(Q)^{-1}` from the training covariance (the
  paper's baseline (2)); constant inputs get weight 0.
* ``"identity"``: ``R = 1`` (the RBF kernel with :math:`\gamma = \delta/m`).

Inputs are first scaled to [0, 1] on the training data (``scale=True``), as in Abe's
experiments; a constant input then has :math:`a_{ir} = 0` for every triplet, costs
without helping, and gets ``R_ii = 0`` (it is dropped).
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import check_label_types
from ..errors import InvalidInputError
from ._base import _reject_sparse

__all__ = ["LPMahalanobis", "covariance_weights", "learn_weights"]


def covariance_weights(X: np.ndarray) -> np.ndarray:
    """``R = 1 / var(X_i)`` per input (the diagonal of the paper's (2)); 0 for constant inputs."""
    v = np.var(np.asarray(X, float), axis=0)
    out = np.zeros_like(v)
    nz = v > 1e-300
    out[nz] = 1.0 / v[nz]
    return out


def learn_weights(X: Any, y: Any, C_M: float = 1.0, *, solver: str = "linprog",
                  tol: float = 1e-7, singletons: str = "skip"):
    """Solve the LP SVM on the triplets of ``(X, y)``; returns ``(R, report)``.

    ``R`` is the LP SVM's ``R`` (not normalised).  Raises if the solve has no solution,
    and (:class:`~convexkern.errors.InvalidInputError` naming ``y``) when no triplet
    exists: with ``singletons="skip"`` a sample alone in its class is left out, so data
    in which *every* class has a single sample (e.g. two points of two classes) has none.
    """
    from .. import solvers
    from ..formulations import lp_svm

    A = lp_svm.triplet_matrix(X, y, singletons=singletons)
    rep = solvers.solve(lp_svm.lp(A, C_M), solver, tol=tol)
    if not rep.status.has_solution:
        raise InvalidInputError(
            "X", f"the LP SVM returned status {rep.status.value}: {rep.message}")
    return np.asarray(rep.x["R"], float), rep


class LPMahalanobis(TransformerMixin, BaseEstimator):
    """Learn a diagonal Mahalanobis kernel by the LP SVM; transform to its feature scaling.

    ``fit`` takes no ``sample_weight``: the ν-LP/LP programs (``lp_svm``) are built on
    triplets, not on weighted samples; per-example penalties exist only in
    :class:`~convexkern.estimators.SVMClassifier` (``svm.dual`` with a vector ``C``).

    Parameters
    ----------
    C_M : float, default 1.0
        Margin parameter of the LP SVM (10)–(13).  Below :func:`~convexkern.formulations.
        lp_svm.c_min` the LP gives ``R = 0``; the transformer then falls back to equal
        weights (the RBF kernel), warns, and sets ``fallback_ = True``.
    delta : float, default 1.0
        The kernel's scale :math:`\\delta` in (1).
    method : {"lp", "covariance", "identity"}, default "lp"
    scale : bool, default True
        Min-max scale the inputs to [0, 1] on the training data first.
    normalize : bool, default True
        Rescale ``R`` so that ``sum R = m`` (mean weight 1, so ``delta`` has the same
        meaning for every method; selection is unaffected).
    solver : str, default "linprog"
        Any solver of :func:`convexkern.available_solvers` for the LP SVM.
    tol : float, default 1e-7
        Target certified relative gap of the LP solve.
    zero_tol : float, default 1e-8
        ``R_ii <= zero_tol * max(R)`` counts as zero (input dropped).

    Attributes
    ----------
    R_ : ndarray (m,)
        The weights (0 for dropped inputs).
    support_ : ndarray of int
        Indices of the selected inputs (``R_ii > 0``); ``n_selected_`` their number.
    kernel_ : convexkern.kernels.Mahalanobis
        The trained kernel on the (scaled) inputs.
    lp_report_ : SolveReport or None
        The certified LP solve (``method="lp"``).
    fallback_ : bool

    Examples
    --------
    >>> from sklearn.pipeline import Pipeline
    >>> from sklearn.svm import SVC
    >>> from convexkern.data import load
    >>> ds = load("balance")
    >>> pipe = Pipeline([("kernel", LPMahalanobis(C_M=10.0, delta=1.0)),
    ...                  ("svm", SVC(kernel="rbf", gamma=1.0, C=10.0))])
    >>> pipe.fit(ds.X, ds.y).named_steps["kernel"].n_selected_
    3
    """

    def __init__(self, C_M: float = 1.0, delta: float = 1.0, *, method: str = "lp",
                 scale: bool = True, normalize: bool = True, solver: str = "linprog",
                 tol: float = 1e-7, zero_tol: float = 1e-8) -> None:
        self.C_M = C_M
        self.delta = delta
        self.method = method
        self.scale = scale
        self.normalize = normalize
        self.solver = solver
        self.tol = tol
        self.zero_tol = zero_tol

    def _check_params(self) -> None:
        for name in ("C_M", "delta"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)) \
                    or not (math.isfinite(float(v)) and float(v) > 0):
                raise InvalidInputError(name, f"must be a positive finite number, got {v!r}")
        if self.method not in ("lp", "covariance", "identity"):
            raise InvalidInputError(
                "method", f"must be 'lp', 'covariance' or 'identity', got {self.method!r}")
        for name in ("scale", "normalize"):  # read by truth value: "no" would mean yes
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise InvalidInputError(name, f"expected True or False, got "
                                              f"{getattr(self, name)!r}")
        z = self.zero_tol
        if isinstance(z, bool) or not isinstance(z, (int, float, np.integer, np.floating)) \
                or not 0 <= float(z) < 1:
            raise InvalidInputError(
                "zero_tol", f"must be a number in [0, 1) (a share of the largest weight; 1 "
                            f"would drop every input), got {z!r}")

    def _scaled(self, X: np.ndarray) -> np.ndarray:
        if not self.scale:
            return X
        return (X - self.min_) / self.range_

    def fit(self, X: Any, y: Any) -> LPMahalanobis:
        """Learn ``R`` from ``(X, y)``; returns ``self``."""
        from ..kernels import Mahalanobis

        self._check_params()
        _reject_sparse(X)
        check_label_types(y, "y")
        X, y = validate_data(self, X, y, dtype=np.float64)
        classes = np.unique(y)
        if classes.size < 2:
            raise InvalidInputError(
                "y", f"needs at least two classes, got one class: {classes.tolist()}")
        self.classes_ = classes
        m = X.shape[1]
        self.min_ = X.min(axis=0)
        with np.errstate(over="ignore"):
            rng = X.max(axis=0) - self.min_
        if self.scale and not np.all(np.isfinite(rng)):
            raise InvalidInputError(
                "X", "the range max - min of input(s) "
                     f"{np.flatnonzero(~np.isfinite(rng))[:6].tolist()} overflows float64, so "
                     "the [0, 1] scaling is undefined; rescale X first")
        self.range_ = np.where(rng > 0, rng, 1.0)
        Xs = self._scaled(X)
        self.lp_report_ = None
        self.fallback_ = False
        if self.method == "lp":
            R, rep = learn_weights(Xs, y, self.C_M, solver=self.solver, tol=self.tol)
            self.lp_report_ = rep
            if not rep.ok:
                warnings.warn(f"LP SVM solve: {rep.status.value} ({rep.message})",
                              ConvergenceWarning, stacklevel=2)
        elif self.method == "covariance":
            R = covariance_weights(Xs)
        else:
            R = np.ones(m)
        R = np.maximum(R, 0.0)
        if not R.max() > 0:
            warnings.warn(
                f"R = 0 (C_M = {self.C_M} is at or below C_min): falling back to equal "
                "weights (the RBF kernel)", ConvergenceWarning, stacklevel=2)
            R = np.ones(m)
            self.fallback_ = True
        R = np.where(R > self.zero_tol * R.max(), R, 0.0)
        if self.normalize:
            R = R * (m / R.sum())
        self.R_ = R
        self.support_ = np.flatnonzero(R > 0)
        self.n_selected_ = int(self.support_.size)
        self.kernel_ = Mahalanobis(R, float(self.delta))
        self._w = np.sqrt(float(self.delta) * R[self.support_] / m)
        return self

    def transform(self, X: Any) -> np.ndarray:
        """``sqrt(delta R / m) * x`` on the selected inputs (after the [0, 1] scaling)."""
        check_is_fitted(self, "R_")
        _reject_sparse(X)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return self._scaled(X)[:, self.support_] * self._w

    def gram(self, X: Any, Z: Any | None = None) -> np.ndarray:
        """The trained kernel matrix ``K(X, Z)`` (for ``SVC(kernel="precomputed")``)."""
        check_is_fitted(self, "R_")
        _reject_sparse(X)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        if Z is not None:
            _reject_sparse(Z, "Z")
        Zs = None if Z is None else self._scaled(
            validate_data(self, Z, dtype=np.float64, reset=False))
        return self.kernel_(self._scaled(X), Zs)
