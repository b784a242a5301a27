"""Luss & d'Aspremont (NIPS 2007): the robust SVM with an indefinite kernel as a classifier."""

from __future__ import annotations

import warnings
from numbers import Real
from typing import Any

import numpy as np

from ..formulations import svm
from ..formulations.robust_indefinite import dual, inner_kernel, predict_kernel
from ._base import _BinaryKernelClassifier, _evaluate_kernel
from ._compat import Interval, StrOptions

__all__ = ["RobustSVMClassifier"]


class RobustSVMClassifier(_BinaryKernelClassifier):
    """Robust SVM with an indefinite kernel (Luss & d'Aspremont, NIPS 2007) as a
    scikit-learn classifier.

    Fits problem (3) (:func:`dual`) with ``solver`` (default ``"robust_apg"``, the
    accelerated projected gradient; ``"robust_pg"``, ``"robust_accpm"``, or a conic
    solver at small n) and predicts with the test-kernel heuristic of §2.3
    (:func:`predict_kernel`, ``test_kernel="projection"``: needs the kernel among the
    test points, so it is unavailable with ``kernel="precomputed"``) or with the raw
    test kernel rows (``test_kernel="raw"``).  The bias is that of the certified
    primal point on the training block of the kernel used for prediction
    (:func:`convexkern.formulations.svm.primal_bias`: the hinge-minimising bias for
    the decision values, as for :class:`~convexkern.estimators.SVMClassifier`).

    ``fit`` takes no ``sample_weight``: the robust dual (``robust_indefinite.dual``) has one
    scalar ``C`` in its certificate and in its projected-gradient and ACCPM solvers;
    per-example penalties exist only in :class:`~convexkern.estimators.SVMClassifier`
    (``svm.dual`` with a vector ``C``).

    Parameters
    ----------
    C, rho : float > 0
    kernel : name, Kernel, callable or "precomputed"
        e.g. ``convexkern.kernels.Simpson()`` or ``Epanechnikov(sigma)``.
    gamma, degree, coef0 : as in :class:`convexkern.estimators.SVMClassifier`.
    solver : str
    test_kernel : {"projection", "raw"}
    tol, max_iter : solver controls.
    device : {"cpu", "gpu"}, default "cpu"
        Where the decomposition of the kernel, its rank-one updates and the
        certificate's products run (``"gpu"``: CuPy and a CUDA device,
        :mod:`convexkern.math.device`).

    Attributes
    ----------
    alpha_, b_, report_, classes_, kernel_, X_fit_ (not for precomputed)

    Examples
    --------
    >>> import numpy as np
    >>> from convexkern.kernels import Epanechnikov
    >>> from convexkern.estimators import RobustSVMClassifier
    >>> X = np.array([[0.0], [0.3], [0.6], [2.0], [2.3], [2.6]])
    >>> y = np.array([0, 0, 0, 1, 1, 1])
    >>> clf = RobustSVMClassifier(C=10.0, rho=1.0, kernel=Epanechnikov(1.5)).fit(X, y)
    >>> clf.predict([[0.1], [2.4]]).tolist()
    [0, 1]
    """

    _parameter_constraints = {
        **_BinaryKernelClassifier._parameter_constraints,
        "C": [Interval(Real, 0, None, closed="neither")],
        "rho": [Interval(Real, 0, None, closed="neither")],
        "test_kernel": [StrOptions({"projection", "raw"})],
        "device": [StrOptions({"cpu", "gpu"})],
    }

    def __init__(self, C: float = 1.0, rho: float = 1.0, kernel: Any = "rbf",
                 gamma: Any = "scale", degree: int = 3, coef0: float = 0.0,
                 solver: str = "robust_apg", test_kernel: str = "projection",
                 tol: float | None = 1e-5, max_iter: int | None = None,
                 device: str = "cpu") -> None:
        self.C = C
        self.rho = rho
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.solver = solver
        self.test_kernel = test_kernel
        self.tol = tol
        self.max_iter = max_iter
        self.device = device

    def fit(self, X: Any, y: Any) -> RobustSVMClassifier:
        """Fit problem (3) on ``(X, y)`` (``X`` the training kernel if precomputed)."""
        self._validate_params()
        if self._precomputed() and self.test_kernel == "projection":
            warnings.warn(
                "test_kernel='projection' needs the kernel among the test points, which a "
                "precomputed kernel does not give: the raw test kernel rows are used (pass "
                "test_kernel='raw' to say so)", UserWarning, stacklevel=2)
        X, y_pm = self._validate_train(X, y)
        K0 = self._train_kernel(X)
        f = dual(K0, y_pm, float(self.C), float(self.rho), device=self.device)
        report = self._solve(f)
        self.alpha_ = np.asarray(report.x["alpha"], float)
        self.y_fit_ = y_pm
        self.K0_ = K0
        self.X_fit_ = None if self._precomputed() else X
        if "b" in report.x:  # the certificate's bias of (w(alpha), b) on K*(alpha)
            self.b_ = float(np.asarray(report.x["b"]).reshape(-1)[0])
        else:
            Ks = inner_kernel(K0, y_pm, self.alpha_, float(self.rho))
            self.b_ = svm.primal_bias(Ks @ (y_pm * self.alpha_), y_pm, float(self.C))
        self._set_support(X, self.alpha_ > 1e-8 * float(self.C), y_pm)
        return self

    def decision_function(self, X: Any) -> np.ndarray:
        """Decision values ``sum_i alpha_i y_i K~(x, x_i) + b``."""
        X = self._validate_test(X)
        a, yv = self.alpha_, self.y_fit_
        if self._precomputed() or self.test_kernel == "raw":
            Kt = X if self._precomputed() else _evaluate_kernel(
                self.kernel_, X, self.X_fit_)
            return Kt @ (yv * a) + self.b_
        n = yv.size
        Kte = _evaluate_kernel(self.kernel_, X, self.X_fit_)
        Ktt = _evaluate_kernel(self.kernel_, X)
        K_full = np.block([[self.K0_, Kte.T], [Kte, Ktt]])
        Kp = predict_kernel(K_full, n, yv, a, float(self.rho))
        b = svm.primal_bias(Kp[:n, :n] @ (yv * a), yv, float(self.C))
        return Kp[n:, :n] @ (yv * a) + b
