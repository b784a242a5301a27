"""The soft-margin kernel SVM of Mansour's lecture notes (§11.2-11.3) as a classifier."""

from __future__ import annotations

import math
from collections.abc import Callable
from numbers import Real
from typing import Any

import numpy as np
from sklearn.utils.class_weight import compute_class_weight
from sklearn.utils.validation import check_is_fitted

from .._validation import check_kernel
from ..errors import InvalidInputError, NotPSDError, SolverError
from ..formulations import svm
from ..kernels import Kernel
from ..report import SolveReport
from . import _ovo
from ._base import (
    _BinaryKernelClassifier,
    _build_kernel,
    _check_sample_weight,
    _evaluate_kernel,
    _support_mask,
)
from ._compat import Interval, StrOptions

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
    ``gamma`` it is the model of :class:`sklearn.svm.SVC`, with SVC's weights and
    multiclass scheme: sample ``i`` gets the penalty ``C_i = C * sample_weight[i] *
    class_weight_[y_i]`` (the dual box ``0 <= alpha_i <= C_i``), and more than two classes
    are separated one-vs-one, one certified solve per pair, in LIBSVM's layout
    (``docs/svm.md``, "scikit-learn parity").

    Probabilities: SVC's ``probability=True`` is deprecated in scikit-learn 1.9; wrap the
    estimator in :class:`sklearn.calibration.CalibratedClassifierCV` (e.g.
    ``CalibratedClassifierCV(SVMClassifier(), cv=5)``, Platt's sigmoid fitted on held-out
    decision values), which has ``predict_proba``.

    Parameters
    ----------
    C : float, default 1.0
        Penalty on the slacks (> 0); the upper bound on the dual coefficients.
        ``float("inf")`` is the hard margin (``svm.dual(K, y, None)``; weights are then
        ignored but for the zeros), which needs classes separable in feature space.
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
    class_weight : dict, "balanced" or None, default None
        Multiplies ``C`` per class: a dict ``{label: weight}`` (labels not named get 1), or
        ``"balanced"``, ``n_samples / (n_classes * count(class))``, as in SVC
        (:func:`sklearn.utils.class_weight.compute_class_weight`).
    decision_function_shape : {"ovr", "ovo"}, default "ovr"
        The shape of :meth:`decision_function` for more than two classes: the one-vs-one
        values of the pairs (``"ovo"``), or scikit-learn's one-vs-rest transform of them.
    break_ties : bool, default False
        With ``"ovr"`` and more than two classes, predict by the largest decision value
        instead of the vote (ties in the vote then go by confidence).
    solver : str, default "smo"
        A name from ``convexkern.available_solvers(formulation)``, checked in ``fit``.
    tol : float in (0, 1) or None, default None
        Target certified relative duality gap; ``None`` is the solver's default.
    max_iter : int or None, default None
        Iteration limit of the solver; hitting it gives a ``ConvergenceWarning``.
    device : {"cpu", "gpu"}, default "cpu"
        Where the kernel rows are computed: ``"gpu"`` evaluates the rows SMO touches and
        the certificate's rows on a CUDA GPU (CuPy, :mod:`convexkern.math.device`); SMO's
        loop stays on the host.  It needs rows on demand (the ``"rbf"`` kernel or an
        :class:`~convexkern.kernels.RBF`, finite ``C``); otherwise ``fit`` raises an error
        naming ``device``.

    Attributes
    ----------
    report_ : SolveReport
        The certified solve: status, primal and dual values, gap, time, iterations (with
        more than two classes: the pair with the largest certified relative gap).
    reports_ : tuple of SolveReport
        One certified solve per pair of classes, in the order of ``intercept_``.
    alpha_ : ndarray of shape (n_samples,) or (n_pairs, n_samples)
        The dual solution (the certified point ``report_.x["alpha"]``; per pair, zero on
        the samples outside the pair and on those of weight 0).
    dual_coef_ : ndarray of shape (n_classes - 1, n_SV)
        ``alpha_i y_i`` on the support vectors.  Two classes: one row, ``y_i = +1`` for
        ``classes_[1]``.  More: LIBSVM's layout, ``y_i = +1`` for the first class of a
        pair; the coefficient of a support vector of class ``c`` in its pair with ``d`` is
        in row ``d - 1`` if ``d > c``, else in row ``d``.
    support_ : ndarray of shape (n_SV,)
        Indices into ``X`` of the support vectors, grouped by class in the order of
        ``classes_`` (increasing within a class): ``alpha_i > 1e-5 * min(C_max, max(alpha))``
        in some pair (interior point solvers return tiny nonzero coefficients instead of
        zeros).
    support_vectors_ : ndarray of shape (n_SV, n_features)
        The support vectors (shape ``(0, 0)`` when ``kernel="precomputed"``, as SVC's).
    n_support_ : ndarray of shape (n_classes,)
        Number of support vectors of each class, in the order of ``classes_``.
    intercept_ : ndarray of shape (n_pairs,)
        The bias ``b`` of each pair: :func:`~convexkern.formulations.svm.primal_bias` of
        the decision values of the support vectors (the coefficients kept in
        ``dual_coef_``), so the model's own decision function is hinge-optimal in ``b``;
        ``report_.x["b"]`` is the same rule on the full ``alpha``.
    classes_ : ndarray of shape (n_classes,)
        The sorted labels; with two, ``classes_[1]`` is predicted where the decision value
        is positive.
    class_weight_ : ndarray of shape (n_classes,)
        The weight of each class (1 without ``class_weight``).
    coef_ : ndarray of shape (n_pairs, n_features)
        Primal weights of each pair, ``kernel="linear"`` only (a read-only property).
    kernel_ : Kernel, callable or "precomputed"
        The kernel used (for a name: the :class:`~convexkern.kernels.Kernel` built with
        the resolved ``gamma``).
    n_iter_ : ndarray of shape (n_pairs,)
        Iterations of the solver, per pair (``n_pairs = n_classes (n_classes - 1) / 2``).
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

    Three classes, one SVM per pair, with a weight per sample:

    >>> X3 = np.vstack([X, [[0.0, 4.0], [0.0, 5.0], [1.0, 4.5]]])
    >>> y3 = np.array(["no"] * 3 + ["yes"] * 3 + ["maybe"] * 3)
    >>> w = np.array([1.0, 1.0, 2.0, 1.0, 1.0, 1.0, 0.5, 1.0, 1.0])
    >>> clf3 = SVMClassifier(C=10.0, kernel="linear").fit(X3, y3, sample_weight=w)
    >>> clf3.classes_.tolist(), clf3.n_iter_.shape, clf3.dual_coef_.shape[0]
    (['maybe', 'no', 'yes'], (3,), 2)
    >>> clf3.predict([[0.2, 0.2], [3.2, 3.8], [0.5, 4.5]]).tolist()
    ['no', 'yes', 'maybe']
    >>> clf3.decision_function([[0.2, 0.2]]).shape  # "ovr": one column per class
    (1, 3)
    """

    _parameter_constraints: dict[str, list[Any]] = {
        **_BinaryKernelClassifier._parameter_constraints,
        "C": [Interval(Real, 0, None, closed="right")],  # C = inf: the hard margin
        "class_weight": [dict, StrOptions({"balanced"}), None],
        "decision_function_shape": [StrOptions({"ovr", "ovo"})],
        "break_ties": ["boolean"],
        "device": [StrOptions({"cpu", "gpu"})],
    }

    def __init__(
        self,
        C: float = 1.0,
        kernel: str | Kernel | Callable[..., Any] = "rbf",
        gamma: str | float = "scale",
        degree: int = 3,
        coef0: float = 0.0,
        class_weight: dict[Any, float] | str | None = None,
        decision_function_shape: str = "ovr",
        break_ties: bool = False,
        solver: str = "smo",
        tol: float | None = None,
        max_iter: int | None = None,
        device: str = "cpu",
    ) -> None:
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.class_weight = class_weight
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties
        self.solver = solver
        self.tol = tol
        self.max_iter = max_iter
        self.device = device

    def __sklearn_tags__(self):  # noqa: D105
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = True
        return tags

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> SVMClassifier:
        """Fit the SVM on ``(X, y)``: one SVM for two classes, one per pair of classes
        (one-vs-one, as LIBSVM) for more.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), or (n_samples, n_samples)
            Training data, or the training kernel when ``kernel="precomputed"``.  A
            scipy.sparse matrix is refused (an error naming ``X``).
        y : array-like of shape (n_samples,)
            Class labels (two or more classes), of any type.
        sample_weight : array-like of shape (n_samples,), default None
            Per-sample weights ``>= 0``: sample ``i`` gets the penalty
            ``C_i = C * sample_weight[i] * class_weight_[y_i]`` (LIBSVM's weighted C-SVC);
            a sample of weight 0 is left out of the training (as in SVC).  Ignored, except
            for the zeros, when ``C = inf``.

        Returns
        -------
        self : SVMClassifier

        Raises
        ------
        ValueError
            For a bad parameter (the message names it), a target with one class, a weight
            that is negative or not finite or of the wrong length (naming
            ``sample_weight``), a class whose samples all have weight 0, a kernel that is
            not positive semidefinite (naming ``kernel``, or ``K`` for a precomputed one),
            or a solver that cannot solve the SVM dual.
        convexkern.SolverError
            When a solver returns no solution (``C = inf`` on classes that cannot be
            separated in feature space: the hard-margin dual is unbounded).

        Warns
        -----
        sklearn.exceptions.ConvergenceWarning
            When a solve stops before its certified gap meets ``tol``.
        """
        self._validate_params()
        X, y_idx = self._validate_train(X, y, multiclass=True)
        k = self.classes_.size
        weights = self._weights(y_idx, sample_weight)
        keep = np.flatnonzero(weights > 0)
        self._train_kernel_resolve(X)
        C = float(self.C)
        hard = not math.isfinite(C)
        Xk = X if keep.size == X.shape[0] else X[keep]
        # a kernel that computes its Gram matrix by rows on demand (RBF): each pair's SMO
        # touches only the rows it needs and its certificate only the support vectors'
        # rows, as LIBSVM does; no n x n matrix (soft margin)
        on_demand = (not hard and not self._precomputed() and isinstance(self.kernel_, Kernel)
                     and self.kernel_.gram_rows(Xk[:2]) is not None)
        if self.device != "cpu" and not on_demand:
            raise InvalidInputError(
                "device", f"{self.device!r} computes kernel rows on demand, which needs the "
                "RBF kernel and a finite C; use device='cpu' for this kernel")
        K: Any = None
        delta = None
        if not on_demand:
            K = self._gram(X, keep)  # on the samples of positive weight
            # finite and symmetric, checked once here: every pair's svm.dual then skips
            # the pass over its sub-matrix (check_input=False)
            K = check_kernel(K, "X" if self._precomputed() else "kernel", n=K.shape[0])
            # a kernel that is PSD by construction bounds its Gram matrix's rounding:
            # each pair's PSD slack is its size times that, with no O(n^3) factorisation
            if isinstance(self.kernel_, Kernel):
                delta = self.kernel_.gram_error(Xk)
                if delta is not None and not np.isfinite(delta):
                    delta = None  # squared norms past the double range: checked instead
        if k == 2:  # classes_[1] is +1, as in scikit-learn
            plan = [(keep, np.where(y_idx[keep] == 1, 1.0, -1.0))]
        else:  # pair (a, b): class a is +1, as in LIBSVM
            plan = []
            for a, b in _ovo.pairs(k):
                rows = np.flatnonzero((y_idx[keep] == a) | (y_idx[keep] == b))
                plan.append((keep[rows], np.where(y_idx[keep[rows]] == a, 1.0, -1.0)))
        position = np.full(y_idx.size, -1, dtype=np.intp)
        position[keep] = np.arange(keep.size)
        reports, solutions, intercepts = [], [], []
        self.alpha_ = np.zeros((len(plan), y_idx.size))
        for p, (idx, y_pm) in enumerate(plan):
            rows = position[idx]
            if on_demand:
                Kp = self.kernel_.gram_rows(Xk if rows.size == Xk.shape[0] else Xk[rows],
                                            device=self.device)
            else:
                Kp = K if rows.size == K.shape[0] else K[np.ix_(rows, rows)]  # rows: 0..n-1
            Cp = None if hard else _box(C * weights[idx])
            report, alpha = self._solve_pair(Kp, y_pm, Cp, delta)
            mask = _support_mask(alpha, math.inf if Cp is None else float(np.max(Cp)))
            a_sv = np.where(mask, alpha, 0.0)
            b_cert = report.x.get("b")
            if b_cert is not None and int(np.count_nonzero(mask)) == int(np.count_nonzero(alpha)):
                # every non-zero alpha is a support vector: the certificate's own primal
                # bias (primal_bias of the same product K (y alpha)) is this model's
                intercepts.append(float(b_cert))
            else:
                f_sv = Kp.times(y_pm * a_sv) if on_demand else Kp @ (y_pm * a_sv)
                intercepts.append(svm.primal_bias(f_sv, y_pm, Cp))
            solutions.append((idx[mask], (a_sv * y_pm)[mask]))
            reports.append(report)
            self.alpha_[p, idx] = alpha
        if k == 2:
            self.alpha_ = self.alpha_[0]
        self.support_, self.n_support_, self.dual_coef_ = _ovo.libsvm_layout(
            k, y_idx, solutions)
        # a precomputed kernel has no vectors: (0, 0), as SVC (not a previous fit's)
        self.support_vectors_ = (np.empty((0, 0)) if self._precomputed()
                                 else X[self.support_].copy())
        self.intercept_ = np.array(intercepts, dtype=np.float64)
        self.reports_ = tuple(reports)
        self.report_ = max(reports, key=lambda r: r.rel_gap)  # the weakest certificate
        self.n_iter_ = np.array([r.iterations for r in reports], dtype=np.int32)
        return self

    # -- fit helpers ----------------------------------------------------------------------

    def _weights(self, y_idx: np.ndarray, sample_weight: Any) -> np.ndarray:
        """``sample_weight * class_weight_[y]``, checked; sets ``class_weight_``."""
        sw = _check_sample_weight(sample_weight, y_idx.size)
        y_labels = self.classes_[y_idx]
        self.class_weight_ = compute_class_weight(self.class_weight, classes=self.classes_,
                                                  y=y_labels)
        bad = ~(np.isfinite(self.class_weight_) & (self.class_weight_ >= 0))
        if np.any(bad):
            raise InvalidInputError(
                "class_weight", f"must be finite and >= 0; class "
                f"{self.classes_[bad].tolist()} has {self.class_weight_[bad].tolist()}")
        weights = sw * self.class_weight_[y_idx]
        if not np.any(weights > 0):
            raise InvalidInputError(
                "sample_weight", "all samples have zero weight (sample_weight times "
                "class_weight): there is nothing to train on")
        empty = [c for c in range(self.classes_.size) if not np.any(weights[y_idx == c] > 0)]
        if empty:
            raise InvalidInputError(
                "sample_weight",
                f"no sample of class {self.classes_[empty].tolist()} has a positive weight "
                "(sample_weight times class_weight); every class needs one (with weights "
                "of 0 left out, SVC would train on fewer classes than classes_)")
        return weights

    def _train_kernel_resolve(self, X: np.ndarray) -> None:
        """Set ``kernel_`` from the whole training ``X`` (``gamma="scale"`` uses the
        variance of every sample, zero weights included, as SVC does)."""
        self.kernel_ = _build_kernel(self.kernel, X, gamma=self.gamma, degree=self.degree,
                                     coef0=self.coef0)

    def _gram(self, X: np.ndarray, keep: np.ndarray) -> np.ndarray:
        if self._precomputed():
            return X if keep.size == X.shape[0] else X[np.ix_(keep, keep)]
        return _evaluate_kernel(self.kernel_, X if keep.size == X.shape[0] else X[keep])

    def _solve_pair(self, K: np.ndarray, y_pm: np.ndarray, C: float | np.ndarray | None,
                    delta: float | None = None) -> tuple[SolveReport, np.ndarray]:
        """Build and solve one binary SVM dual; its report and ``alpha``.  ``delta``: the
        kernel's Gram-error bound (:meth:`Kernel.gram_error`), which proves ``K`` PSD to
        ``n delta`` with no factorisation; ``None``: ``K`` is checked numerically."""
        try:
            f = svm.dual(K, y_pm, C, check_input=False,  # fit checked the whole K
                         psd_eps=None if delta is None or not isinstance(K, np.ndarray)
                         else K.shape[0] * delta)
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
        try:
            report = self._solve(f)
        except SolverError as exc:
            if C is not None:
                raise
            raise SolverError(
                f"SVMClassifier: C=inf is the hard margin, which needs classes separable in "
                f"the kernel's feature space; use a finite C ({exc})") from exc
        if "alpha" not in report.x:  # a limit reached before the solver had any point
            raise SolverError(
                f"SVMClassifier: solver {report.solver!r} stopped with status "
                f"'{report.status}' and no point ({report.message}); increase max_iter"
            )
        return report, np.asarray(report.x["alpha"], dtype=np.float64)

    # -- predict ----------------------------------------------------------------------------

    def _ovo_values(self, X: Any) -> np.ndarray:
        """Decision values: ``(n,)`` for two classes, ``(n, n_pairs)`` (LIBSVM signs)
        for more."""
        X = self._validate_test(X)
        K_sv = self._kernel_to_support(X)
        if self.classes_.size == 2:
            return K_sv @ self.dual_coef_[0] + self.intercept_[0]
        return _ovo.ovo_decision(K_sv, self.dual_coef_, self.intercept_, self.n_support_)

    def decision_function(self, X: Any) -> np.ndarray:
        r"""Decision values, as :meth:`sklearn.svm.SVC.decision_function` returns them.

        Two classes: :math:`f(x) = \sum_i \alpha_i y_i k(x_i, x) + b`, positive for
        ``classes_[1]``.  More: the one-vs-one values of the pairs ``(a, b)`` (positive
        for ``a``), shape ``(n, n_classes (n_classes - 1) / 2)``, for
        ``decision_function_shape="ovo"``; for ``"ovr"`` (the default) scikit-learn's
        transformation of them into ``(n, n_classes)``: votes plus summed confidences
        squashed into ``(-1/3, 1/3)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), or (n_samples, n_train)
            Test data (the kernel with the training points when ``kernel="precomputed"``).

        Returns
        -------
        ndarray of shape (n_samples,), (n_samples, n_classes) or (n_samples, n_pairs)
        """
        dec = self._ovo_values(X)
        if self.classes_.size > 2 and self.decision_function_shape == "ovr":
            return _ovo.ovr_decision(dec, self.classes_.size)
        return dec

    def predict(self, X: Any) -> np.ndarray:
        """Class labels: two classes by the sign of the decision value; more by LIBSVM's
        one-vs-one vote (ties to the first class), or, with ``break_ties=True`` and
        ``decision_function_shape="ovr"``, by the largest ``"ovr"`` decision value.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), or (n_samples, n_train)

        Returns
        -------
        ndarray of shape (n_samples,)
            Labels from ``classes_``.

        Raises
        ------
        ValueError
            ``break_ties=True`` with ``decision_function_shape="ovo"`` (naming
            ``break_ties``, as SVC refuses it).
        """
        check_is_fitted(self)
        if self.break_ties and self.decision_function_shape == "ovo":
            raise InvalidInputError(
                "break_ties", "break_ties must be False when decision_function_shape is 'ovo'")
        k = self.classes_.size
        if k == 2:
            return self.classes_[(self._ovo_values(X) > 0).astype(np.intp)]
        dec = self._ovo_values(X)
        if self.break_ties:
            return self.classes_[np.argmax(_ovo.ovr_decision(dec, k), axis=1)]
        return self.classes_[_ovo.vote(dec, k)]

    @property
    def coef_(self) -> np.ndarray:
        """Primal weights ``w`` of each pair (read-only), linear kernel only: shape
        ``(1, n_features)`` for two classes, ``(n_pairs, n_features)`` for more.

        Raises
        ------
        AttributeError
            For any kernel but ``"linear"``, as :attr:`sklearn.svm.SVC.coef_`.
        """
        if not (isinstance(self.kernel, str) and self.kernel == "linear"):
            raise AttributeError("coef_ is only available when using a linear kernel")
        check_is_fitted(self)
        if self.classes_.size == 2:
            coef = self.dual_coef_ @ self.support_vectors_
        else:
            coef = _ovo.ovo_coef(self.support_vectors_, self.dual_coef_, self.n_support_)
        coef.flags.writeable = False
        return coef


def _box(c: np.ndarray) -> float | np.ndarray:
    """Per-example bounds, or one number when they are all equal (SMO's scalar path)."""
    return float(c[0]) if np.all(c == c[0]) else c
