"""The soft-margin kernel SVM of Mansour's lecture notes (§11.2-11.3) as a classifier."""

from __future__ import annotations

from collections.abc import Callable
from numbers import Real
from typing import Any

import numpy as np

from ..errors import InvalidInputError, NotPSDError, SolverError
from ..formulations import svm
from ..kernels import Kernel
from ._base import _BinaryKernelClassifier, _support_mask
from ._compat import Interval

__all__ = ["SVMClassifier"]


class SVMClassifier(_BinaryKernelClassifier):
    r"""Soft-margin kernel SVM solved as a certified convex program.

    Trains on the kernel dual of Mansour's lecture notes (§11.2),

    .. math:: \max_\alpha\ e^\top\alpha - \tfrac12 \alpha^\top Y K Y \alpha
              \quad\text{s.t.}\quad y^\top\alpha = 0,\ 0 \le \alpha \le C,

    built by :func:`convexkern.formulations.svm.dual` and solved by ``solver``: SMO (§11.3)
    by default, or any conic solver of :func:`convexkern.available_solvers`.  The decision
    function is :math:`f(x) = \sum_i \alpha_i y_i k(x_i, x) + b`, with the bias :math:`b`
    of the certified primal point (:func:`convexkern.formulations.svm.primal_bias`: the
    minimiser of the hinge loss, which equals :math:`y_i - \sum_j \alpha_j y_j k(x_j, x_i)`
    on every free support vector at the optimum).  For the same ``C``, kernel and
    ``gamma`` it is the model of :class:`sklearn.svm.SVC`.

    Parameters
    ----------
    C : float, default 1.0
        Penalty on the slacks (> 0); the upper bound on the dual coefficients.
    kernel : str, callable or Kernel, default "rbf"
        ``"linear"``, ``"poly"``, ``"rbf"``, ``"sigmoid"`` (or another name of
        :data:`KERNELS`); a :class:`convexkern.kernels.Kernel` (its own parameters are
        used, ``gamma``/``degree``/``coef0`` are ignored); a callable ``k(X, Z)``
        returning the ``(len(X), len(Z))`` kernel matrix; or ``"precomputed"``, when
        ``fit`` takes the ``(n, n)`` training kernel and ``predict`` the
        ``(n_test, n_train)`` kernel.  The training kernel must be positive semidefinite:
        ``"sigmoid"``/``"tanh"`` and ``"simpson"`` usually are not, and ``fit`` then
        raises a ``ValueError`` naming ``kernel`` (``K`` for a precomputed kernel); use
        :class:`~convexkern.estimators.KreinSVC` or ``RobustSVMClassifier`` for them.
    gamma : {"scale", "auto"} or float, default "scale"
        Scale of the ``rbf``, ``poly`` and ``sigmoid`` kernels: ``"scale"`` is
        ``1 / (n_features * X.var())``, ``"auto"`` is ``1 / n_features`` (as in
        scikit-learn).
    degree : int, default 3
        Degree of the ``poly`` kernel.
    coef0 : float, default 0.0
        Offset of the ``poly`` and ``sigmoid`` kernels.
    solver : str, default "smo"
        A name from ``convexkern.available_solvers(formulation)``, checked in ``fit``.
    tol : float in (0, 1) or None, default None
        Target certified relative duality gap; ``None`` is the solver's default.
    max_iter : int or None, default None
        Iteration limit of the solver; hitting it gives a ``ConvergenceWarning``.

    Attributes
    ----------
    report_ : SolveReport
        The certified solve: status, primal and dual values, gap, time, iterations.
    alpha_ : ndarray of shape (n_samples,)
        The dual solution (the certified point ``report_.x["alpha"]``).
    dual_coef_ : ndarray of shape (1, n_SV)
        ``alpha_i y_i`` on the support vectors, with ``y_i = +1`` for ``classes_[1]``.
    support_ : ndarray of shape (n_SV,)
        Indices of the support vectors: ``alpha_i > 1e-5 * min(C, max(alpha))`` (interior
        point solvers return tiny nonzero coefficients instead of zeros).
    support_vectors_ : ndarray of shape (n_SV, n_features)
        The support vectors (not set when ``kernel="precomputed"``).
    n_support_ : ndarray of shape (2,)
        Number of support vectors of each class, in the order of ``classes_``.
    intercept_ : ndarray of shape (1,)
        The bias ``b``: :func:`~convexkern.formulations.svm.primal_bias` of the decision
        values of the support vectors (the coefficients kept in ``dual_coef_``), so the
        model's own decision function is hinge-optimal in ``b``; ``report_.x["b"]`` is the
        same rule on the full ``alpha``.
    classes_ : ndarray of shape (2,)
        The two labels; ``classes_[1]`` is predicted where the decision value is positive.
    kernel_ : Kernel, callable or "precomputed"
        The kernel used (for a name: the :class:`~convexkern.kernels.Kernel` built with
        the resolved ``gamma``).
    n_iter_ : int
        Iterations of the solver.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of str
        Feature names, when ``X`` had string column names.
    shape_fit_ : tuple of int
        Shape of the training ``X``.

    See Also
    --------
    convexkern.formulations.svm.dual : the formulation solved here.
    sklearn.svm.SVC : LIBSVM's solver for the same model.

    References
    ----------
    Y. Mansour, *SVM lecture notes*, 2013, §11.2 (soft-margin SVM and its kernel dual) and
    §11.3 (SMO).

    Examples
    --------
    >>> import numpy as np
    >>> from convexkern.estimators import SVMClassifier
    >>> X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [3.0, 3.0], [3.0, 4.0], [4.0, 3.0]])
    >>> y = np.array(["no", "no", "no", "yes", "yes", "yes"])
    >>> clf = SVMClassifier(C=10.0, gamma=0.5).fit(X, y)
    >>> clf.predict([[0.5, 0.5], [3.5, 3.5]]).tolist()
    ['no', 'yes']
    >>> str(clf.report_.status), clf.report_.rel_gap <= 1e-6
    ('optimal', True)
    >>> clf.classes_.tolist(), clf.n_support_.tolist()
    (['no', 'yes'], [3, 3])
    >>> np.round(clf.decision_function([[0.5, 0.5], [3.5, 3.5]]), 3).tolist()
    [-1.16, 1.161]
    """

    _parameter_constraints: dict[str, list[Any]] = {
        **_BinaryKernelClassifier._parameter_constraints,
        "C": [Interval(Real, 0, None, closed="neither")],
    }

    def __init__(
        self,
        C: float = 1.0,
        kernel: str | Kernel | Callable[..., Any] = "rbf",
        gamma: str | float = "scale",
        degree: int = 3,
        coef0: float = 0.0,
        solver: str = "smo",
        tol: float | None = None,
        max_iter: int | None = None,
    ) -> None:
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.solver = solver
        self.tol = tol
        self.max_iter = max_iter

    def fit(self, X: Any, y: Any) -> SVMClassifier:
        """Fit the SVM on ``(X, y)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), or (n_samples, n_samples)
            Training data, or the training kernel when ``kernel="precomputed"``.
        y : array-like of shape (n_samples,)
            Two class labels, of any type.

        Returns
        -------
        self : SVMClassifier

        Raises
        ------
        ValueError
            For a bad parameter (the message names it), a target that is not two-class,
            a kernel that is not positive semidefinite (naming ``K``), or a solver that
            cannot solve the SVM dual.
        convexkern.SolverError
            When the solver returns no solution.

        Warns
        -----
        sklearn.exceptions.ConvergenceWarning
            When the solve stops before its certified gap meets ``tol``.
        """

        self._validate_params()
        X, y_pm = self._validate_train(X, y)
        K = self._train_kernel(X)
        C = float(self.C)
        try:
            f = svm.dual(K, y_pm, C)
        except NotPSDError as exc:
            if self._precomputed():
                raise
            # an indefinite kernel (sigmoid/tanh, simpson...): say which parameter to change
            raise InvalidInputError(
                "kernel",
                f"{self.kernel!r} gives a training kernel matrix that is not positive "
                f"semidefinite (smallest eigenvalue {exc.lambda_min:.4g}), and "
                "SVMClassifier solves the SVM dual, which needs one. Use a PSD kernel, or an "
                "estimator for indefinite kernels: convexkern.estimators.KreinSVC or "
                "RobustSVMClassifier",
            ) from exc
        report = self._solve(f)
        if "alpha" not in report.x:  # a limit reached before the solver had any point
            raise SolverError(
                f"SVMClassifier: solver {report.solver!r} stopped with status "
                f"'{report.status}' and no point ({report.message}); increase max_iter"
            )

        alpha = np.asarray(report.x["alpha"], dtype=np.float64)
        mask = _support_mask(alpha, C)
        a_sv = np.where(mask, alpha, 0.0)
        b = svm.primal_bias(K @ (y_pm * a_sv), y_pm, C)
        self.alpha_ = alpha
        self._set_support(X, mask, y_pm)
        self.dual_coef_ = (a_sv * y_pm)[self.support_].reshape(1, -1)
        self.intercept_ = np.array([b], dtype=np.float64)
        return self

    def decision_function(self, X: Any) -> np.ndarray:
        """Signed decision values :math:`f(x) = \\sum_i \\alpha_i y_i k(x_i, x) + b`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), or (n_samples, n_train)
            Test data (the kernel with the training points when ``kernel="precomputed"``).

        Returns
        -------
        ndarray of shape (n_samples,)
            Positive values predict ``classes_[1]``.
        """
        X = self._validate_test(X)
        return self._kernel_to_support(X) @ self.dual_coef_[0] + self.intercept_[0]
