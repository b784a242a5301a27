"""Graepel & Herbrich (NIPS 2003): the Semidefinite Programming Machine as a classifier."""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from ..errors import InvalidInputError
from ..formulations.sdpm import (
    DEFAULT_SEGMENT,
    check_trajectories,
    dual,
    primal,
    trajectory_kernel,
    virtual_support_vectors,
)

__all__ = ["SDPMClassifier"]


class SDPMClassifier(ClassifierMixin, BaseEstimator):
    """Scikit-learn compatible SDPM: images plus a transformation in, a classifier out.

    Parameters
    ----------
    transform : "rotation" or callable
        ``"rotation"``: :func:`convexkern.transforms.rotation_trajectories` (16x16 images,
        Gaussian smoothing ``sigma2``); a callable maps ``(m, p)`` inputs to ``(m, r+1, p)``
        trajectories.
    segment : float > 0 or None
        Half-width of the parameter segment (radians for rotations); None: all of R.
    C : float > 0 or None
        Soft margin (None: hard margin; an infeasible problem raises with a hint).
    kernel : "linear" or a convexkern Kernel (Polynomial, RBF)
        Non-linear kernels use the kernel on derivative pairs (:func:`trajectory_kernel`)
        and the dual (8).
    solver : str
        ``"clarabel"`` (default), ``"scs"`` or ``"exchange"`` (linear kernel only).
    sigma2 : float
        Smoothing variance for ``transform="rotation"``.

    Attributes
    ----------
    classes_, coef_ (linear), intercept_, report_ (the certified SolveReport),
    virtual_support_ (:class:`VirtualSupport`, linear kernel), mu_ (dual moments).

    Examples
    --------
    >>> from convexkern.data import load_usps                      # doctest: +SKIP
    >>> ds = load_usps("train"); keep = (ds.y == 1) | (ds.y == 9)   # doctest: +SKIP
    >>> clf = SDPMClassifier(C=1.0).fit(ds.X[keep][:40], ds.y[keep][:40])  # doctest: +SKIP
    """

    def __init__(self, transform: Any = "rotation", segment: float | None = DEFAULT_SEGMENT,
                 C: float | None = 1.0, kernel: Any = "linear", solver: str = "clarabel",
                 sigma2: float = 0.09, tol: float | None = None) -> None:
        self.transform = transform
        self.segment = segment
        self.C = C
        self.kernel = kernel
        self.solver = solver
        self.sigma2 = sigma2
        self.tol = tol

    def __sklearn_tags__(self):  # noqa: D105
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def _trajectories(self, X: np.ndarray) -> np.ndarray:
        if self.transform == "rotation":
            from .. import transforms
            return transforms.rotation_trajectories(X, sigma2=self.sigma2)
        if callable(self.transform):
            return check_trajectories(self.transform(X))
        raise InvalidInputError("transform", f"expected 'rotation' or a callable, got "
                                             f"{self.transform!r}")

    def _inputs(self, X: np.ndarray) -> np.ndarray:
        if self.transform == "rotation":
            from .. import transforms
            return transforms.smooth(X, sigma2=self.sigma2)
        return X

    def fit(self, X: Any, y: Any) -> SDPMClassifier:
        from ..errors import SolverError
        from ..solvers import solve

        X = np.asarray(X, dtype=float)
        if X.ndim != 2:
            raise InvalidInputError("X", f"expected (m, p) inputs, got shape {X.shape}")
        if not np.all(np.isfinite(X)):
            raise InvalidInputError("X", "contains non-finite values (NaN or inf)")
        y = np.asarray(y)
        self.classes_ = np.unique(y)
        if self.classes_.size != 2:
            raise InvalidInputError("y", f"needs exactly two classes, got {self.classes_.tolist()}")
        ypm = np.where(y == self.classes_[1], 1.0, -1.0)
        T = self._trajectories(X)
        self.n_features_in_ = X.shape[1]
        linear = isinstance(self.kernel, str) and self.kernel == "linear"
        if linear:
            f = primal(T, ypm, self.segment, self.C)
        else:
            G = trajectory_kernel(self.kernel, T)
            f = dual(None, ypm, self.segment, self.C, G=G)
            self._T = T
        r = solve(f, self.solver, tol=self.tol)
        if not r.status.has_solution:
            hint = " (hard margin: use a soft margin, C > 0)" if self.C is None else ""
            raise SolverError(f"SDPMClassifier: status '{r.status}'{hint}: {r.message}")
        self.report_ = r
        self.mu_ = np.asarray(r.x.get("mu")) if "mu" in r.x else None
        self.intercept_ = float(r.x["b"])
        if linear:
            self.coef_ = np.asarray(r.x["w"], float)
            if self.mu_ is not None:
                self.virtual_support_ = virtual_support_vectors(
                    T, ypm, self.mu_, segment=self.segment, w=self.coef_, b=self.intercept_)
        else:
            self._ymu = ypm[:, None] * self.mu_ * float(r.x.get("scale", 1.0))
        return self

    def decision_function(self, X: Any) -> np.ndarray:
        if not hasattr(self, "report_"):
            from sklearn.exceptions import NotFittedError
            raise NotFittedError("SDPMClassifier is not fitted yet")
        X = np.asarray(X, dtype=float)
        if X.ndim != 2 or X.shape[1] != self.n_features_in_:
            raise InvalidInputError("X", f"expected (n, {self.n_features_in_}) inputs")
        Z = self._inputs(X)
        if hasattr(self, "coef_"):
            return Z @ self.coef_ + self.intercept_
        Kx = trajectory_kernel(self.kernel, self._T, Z[:, None, :],
                               degree=self._T.shape[1] - 1, degree_b=0)[:, :, :, 0]
        return np.einsum("iu,iuj->j", self._ymu, Kx) + self.intercept_

    def predict(self, X: Any) -> np.ndarray:
        return self.classes_[(self.decision_function(X) > 0).astype(int)]
