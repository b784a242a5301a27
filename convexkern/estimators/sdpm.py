"""Graepel & Herbrich (NIPS 2003): the Semidefinite Programming Machine as a classifier."""

from __future__ import annotations

from collections.abc import Callable
from numbers import Integral, Real
from typing import Any

import numpy as np

from ..errors import InvalidInputError
from ..formulations.sdpm import DEFAULT_SEGMENT, dual, primal, virtual_support_vectors
from ..kernels import RBF, Linear, Polynomial
from ..math.sdpm import check_trajectories, trajectory_kernel
from ._base import _BinaryKernelClassifier
from ._compat import Interval, StrOptions

__all__ = ["SDPMClassifier"]


def _no_invariance(X: np.ndarray) -> np.ndarray:
    """Degree-0 trajectories ``(m, 1, p)``: each input is its own (constant) trajectory."""
    return X[:, None, :]


def _rotation(sigma2: float) -> Callable[[np.ndarray], np.ndarray]:
    from .. import transforms

    return lambda X: transforms.rotation_trajectories(X, sigma2=sigma2)


class SDPMClassifier(_BinaryKernelClassifier):
    """Scikit-learn compatible SDPM: inputs plus an invariance in, a classifier out.

    The invariance is a parameter: a function mapping the ``(m, p)`` inputs to polynomial
    trajectories ``(m, r+1, p)`` (row ``k`` = coefficient of ``theta^k``), on which the SDPM
    asks the margin for every ``theta`` in the segment.  Without one (the default), the
    trajectories are the inputs themselves (degree 0) and the SDPM is the ordinary soft-
    margin SVM on ``X``; this works on any ``X``.

    ``fit`` takes no ``sample_weight``: the SDP/SOCP formulations
    (``sdpm.primal``/``sdpm.dual``) take one scalar ``C``; per-example penalties exist only
    in :class:`~convexkern.estimators.SVMClassifier` (``svm.dual`` with a vector ``C``).

    Parameters
    ----------
    invariance : None, "rotation" or callable, default None
        ``None``: no invariance, trajectories of degree 0 (shape ``(m, 1, p)``).
        ``"rotation"``: :func:`convexkern.transforms.rotation_trajectories` (16x16 images,
        so ``p = 256``; Gaussian smoothing ``sigma2``; test inputs are smoothed the same
        way).  A callable maps ``(m, p)`` inputs to ``(m, r+1, p)`` trajectories (test
        inputs are used as they are).  (Not named ``transform``: scikit-learn reads an
        attribute of that name as a transformer's method.)
    segment : float > 0 or None
        Half-width of the parameter segment (radians for rotations); None: all of R (an
        even degree ``r`` is then needed).  Irrelevant for degree 0.
    C : float > 0 or None
        Soft margin (None: hard margin; an infeasible problem raises
        :class:`convexkern.SolverError`).
    kernel : "linear" or a convexkern Kernel (Linear, Polynomial, RBF/Gaussian)
        A Kernel instance uses the kernel on derivative pairs (:func:`trajectory_kernel`)
        and the dual (8).
    solver : str
        ``"clarabel"`` (default), ``"scs"`` or ``"exchange"`` (linear kernel only).
    sigma2 : float >= 0
        Smoothing variance for ``invariance="rotation"``.
    tol, max_iter : passed to :func:`convexkern.solve`.

    Attributes
    ----------
    classes_, coef_ (linear), intercept_, report_ (the certified SolveReport), n_iter_,
    virtual_support_ (:class:`VirtualSupport`, linear kernel), mu_ (dual moments).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.datasets import make_blobs
    >>> X, y = make_blobs(40, n_features=3, centers=2, random_state=0)
    >>> clf = SDPMClassifier(C=1.0).fit(X, y)   # no invariance: the linear SVM on X
    >>> bool(clf.score(X, y) > 0.9)
    True
    >>> from convexkern.data import load_usps                      # doctest: +SKIP
    >>> ds = load_usps("train"); keep = (ds.y == 1) | (ds.y == 9)   # doctest: +SKIP
    >>> clf = SDPMClassifier(invariance="rotation", C=1.0).fit(      # doctest: +SKIP
    ...     ds.X[keep][:40], ds.y[keep][:40])
    """

    _parameter_constraints: dict[str, list[Any]] = {
        "invariance": [StrOptions({"rotation"}), callable, None],
        "segment": [Interval(Real, 0, None, closed="neither"), None],
        "C": [Interval(Real, 0, None, closed="neither"), None],
        "kernel": [StrOptions({"linear"}), Linear, Polynomial, RBF],
        "solver": [str],
        "sigma2": [Interval(Real, 0, None, closed="left")],
        "tol": [Interval(Real, 0, 1, closed="neither"), None],
        "max_iter": [Interval(Integral, 1, None, closed="left"), None],
    }

    def __init__(self, invariance: Any = None, segment: float | None = DEFAULT_SEGMENT,
                 C: float | None = 1.0, kernel: Any = "linear", solver: str = "clarabel",
                 sigma2: float = 0.09, tol: float | None = None,
                 max_iter: int | None = None) -> None:
        self.invariance = invariance
        self.segment = segment
        self.C = C
        self.kernel = kernel
        self.solver = solver
        self.sigma2 = sigma2
        self.tol = tol
        self.max_iter = max_iter

    def _invariance_function(self) -> Callable[[np.ndarray], np.ndarray]:
        if self.invariance is None:
            return _no_invariance
        if isinstance(self.invariance, str):  # "rotation" (the only name the checks allow)
            return _rotation(self.sigma2)
        return self.invariance

    def _trajectories(self, X: np.ndarray) -> np.ndarray:
        T = check_trajectories(self._invariance_function()(X), "invariance(X)")
        if T.shape[0] != X.shape[0] or T.shape[2] != X.shape[1]:
            raise InvalidInputError(
                "invariance", f"must map (m, p) = {X.shape} inputs to (m, r+1, p) trajectories, "
                             f"got shape {T.shape}")
        return T

    def _inputs(self, X: np.ndarray) -> np.ndarray:
        if isinstance(self.invariance, str):  # "rotation": the smoothed images
            from .. import transforms

            return transforms.smooth(X, sigma2=self.sigma2)
        return X

    def fit(self, X: Any, y: Any) -> SDPMClassifier:
        """Train on inputs ``X`` (m, p) and labels ``y`` (two classes)."""
        self._validate_params()
        X, ypm = self._validate_train(X, y)
        T = self._trajectories(X)
        linear = isinstance(self.kernel, str)
        for stale in ("coef_", "virtual_support_", "_T", "_ymu"):  # from an earlier fit
            self.__dict__.pop(stale, None)
        if linear:
            f = primal(T, ypm, self.segment, self.C)
        else:
            G = trajectory_kernel(self.kernel, T, degree=T.shape[1] - 1)
            f = dual(None, ypm, self.segment, self.C, G=G)
            self._T = T
        r = self._solve(f)
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
        """``w'x + b`` (linear) or the kernel expansion on the support trajectories."""
        X = self._validate_test(X)
        Z = self._inputs(X)
        if hasattr(self, "coef_"):
            return Z @ self.coef_ + self.intercept_
        Kx = trajectory_kernel(self.kernel, self._T, Z[:, None, :],
                               degree=self._T.shape[1] - 1, degree_b=0)[:, :, :, 0]
        return np.einsum("iu,iuj->j", self._ymu, Kx) + self.intercept_
