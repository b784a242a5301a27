"""The base class of convexkern's classifiers and the helpers they share.

Every estimator of :mod:`convexkern.estimators` builds a formulation, solves it with any
solver of the table (:func:`convexkern.available_solvers`) and keeps the certified
:class:`~convexkern.SolveReport` in ``report_``.  The parts every kernel classifier shares
live in :class:`_BinaryKernelClassifier` and the helper functions next to it:

* kernel handling: ``kernel`` as a name (:data:`KERNELS`), a callable ``k(X, Z)``, a
  :class:`convexkern.kernels.Kernel`, or ``"precomputed"``, with ``gamma="scale"`` /
  ``"auto"`` resolved as in scikit-learn (:func:`_resolve_gamma`, :func:`_build_kernel`,
  :func:`_evaluate_kernel`);
* label encoding: any two labels to -1/+1 with ``classes_`` (:func:`_encode_binary_labels`);
* solving: solver name checked against :func:`convexkern.available_solvers`, a
  ``ConvergenceWarning`` when the solve is not certified optimal, an error when there is no
  solution (:meth:`_BinaryKernelClassifier._solve`);
* ``predict`` from ``decision_function``, the scikit-learn tags, and ``clone`` support for
  :class:`~convexkern.kernels.Kernel` parameters.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from numbers import Integral, Real
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import check_label_types
from ..errors import InvalidInputError, InvalidTypeError, SolverError
from ..formulation import Formulation
from ..kernels import Kernel, make_kernel
from ..report import SolveReport, Status
from ..solvers import available_solvers, solve
from ._compat import Interval, StrOptions

__all__ = ["KERNELS"]

#: Kernel names accepted by the estimators, with the estimator parameters each one uses
#: (scikit-learn's conventions: ``poly`` is ``(gamma x'z + coef0) ** degree``, ``sigmoid``
#: is ``tanh(gamma x'z + coef0)``).  Kernels with other parameters (``epanechnikov``,
#: ``mahalanobis``, ...) are passed as a :class:`~convexkern.kernels.Kernel` instance.
_KERNEL_PARAMS: dict[str, tuple[str, ...]] = {
    "linear": (),
    "poly": ("degree", "gamma", "coef0"),
    "polynomial": ("degree", "gamma", "coef0"),
    "rbf": ("gamma",),
    "gaussian": ("gamma",),
    "sigmoid": ("gamma", "coef0"),
    "tanh": ("gamma", "coef0"),
    "simpson": (),
}

#: Names accepted for the ``kernel`` parameter (besides ``"precomputed"``).
KERNELS: tuple[str, ...] = tuple(_KERNEL_PARAMS)

#: Dual coefficients at most ``_ALPHA_RTOL * min(C, max(alpha))`` count as zero (not a
#: support vector), and within ``_ALPHA_RTOL * C`` of ``C`` as at the bound.  Interior point
#: solvers return non-support coefficients of order 1e-9..1e-7 rather than exact zeros.
_ALPHA_RTOL = 1e-5


# ---------------------------------------------------------------------------------------
# shared helpers (kernel handling, labels)
# ---------------------------------------------------------------------------------------


def _resolve_gamma(gamma: str | float, X: np.ndarray) -> float:
    """``gamma`` as a number: ``"scale"`` is ``1 / (n_features * X.var())`` and ``"auto"``
    is ``1 / n_features``, as in :class:`sklearn.svm.SVC`."""
    if isinstance(gamma, str):
        if gamma == "scale":
            var = float(X.var())
            return 1.0 / (X.shape[1] * var) if var > 0 else 1.0
        if gamma == "auto":
            return 1.0 / X.shape[1]
        raise InvalidInputError("gamma", f"must be 'scale', 'auto' or a number > 0, got {gamma!r}")
    return float(gamma)


def _build_kernel(
    kernel: str | Kernel | Callable[..., Any],
    X: np.ndarray,
    *,
    gamma: str | float = "scale",
    degree: int = 3,
    coef0: float = 0.0,
) -> Kernel | Callable[..., Any] | str:
    """The kernel to use for training data ``X``: a :class:`Kernel`, a callable, or
    ``"precomputed"``.

    A name from :data:`KERNELS` is built with :func:`convexkern.kernels.make_kernel` from
    the estimator's ``gamma`` (resolved on ``X``), ``degree`` and ``coef0``; a
    :class:`Kernel` or any other callable is returned unchanged.
    """
    if isinstance(kernel, str):
        if kernel == "precomputed":
            return kernel
        if kernel not in _KERNEL_PARAMS:
            raise InvalidInputError(
                "kernel",
                f"unknown kernel {kernel!r}; use one of {list(KERNELS) + ['precomputed']}, "
                "a convexkern.kernels.Kernel or a callable",
            )
        values = {"gamma": _resolve_gamma(gamma, X), "degree": degree, "coef0": coef0}
        return make_kernel(kernel, **{p: values[p] for p in _KERNEL_PARAMS[kernel]})
    if callable(kernel):
        return kernel
    raise InvalidTypeError(
        "kernel", f"expected a kernel name, a Kernel or a callable, got {type(kernel).__name__}"
    )


def _evaluate_kernel(
    kernel: Kernel | Callable[..., Any], X: np.ndarray, Z: np.ndarray | None = None
) -> np.ndarray:
    """Gram matrix ``k(X, X)`` (``Z=None``) or cross matrix ``k(X, Z)``, checked.

    A :class:`Kernel` computes an exactly symmetric Gram matrix for ``Z=None``; any other
    callable is called as ``kernel(X, X)`` or ``kernel(X, Z)``, as scikit-learn does, and
    its output must be a finite ``(len(X), len(Z))`` array (symmetry and positive
    semidefiniteness are checked by the formulation).
    """
    if isinstance(kernel, Kernel):
        return kernel(X) if Z is None else kernel(X, Z)
    other = X if Z is None else Z
    K = np.asarray(kernel(X, other), dtype=np.float64)
    shape = (X.shape[0], other.shape[0])
    if K.shape != shape:
        raise InvalidInputError(
            "kernel", f"the callable returned an array of shape {K.shape}, expected {shape}"
        )
    if not np.all(np.isfinite(K)):
        raise InvalidInputError("kernel", "the callable returned non-finite values")
    return K


def _check_targets(y: np.ndarray) -> None:
    """scikit-learn's check of classification targets, its ``ValueError`` (continuous
    labels: "Unknown label type") raised as the library's error naming ``y``."""
    try:
        check_classification_targets(y)
    except ValueError as exc:
        raise InvalidInputError("y", str(exc)) from exc


def _encode_binary_labels(y: np.ndarray, estimator: str) -> tuple[np.ndarray, np.ndarray]:
    """``(classes_, y_pm)``: the two sorted labels and ``y`` coded as -1.0/+1.0.

    ``classes_[1]`` becomes +1 (a positive decision value predicts it), as in
    scikit-learn.  Regression targets, more than two classes and a single class raise an
    :class:`~convexkern.errors.InvalidInputError` naming ``y`` (a ``ValueError``, with
    scikit-learn's words) that says so.
    """
    _check_targets(y)
    y_type = type_of_target(y, input_name="y")
    if y_type != "binary":
        raise InvalidInputError("y",
            f"Only binary classification is supported. The type of the target is {y_type}: "
            f"{estimator} separates two classes, y has {np.unique(y).size} "
            "(use sklearn.multiclass.OneVsRestClassifier for more)"
        )
    classes, y_idx = np.unique(y, return_inverse=True)
    if classes.size != 2:
        raise InvalidInputError("y",
            f"{estimator} needs samples of 2 classes, but y has 1 class: {classes.tolist()}"
        )
    return classes, np.where(y_idx.reshape(-1) == 1, 1.0, -1.0)


def _encode_labels(y: np.ndarray, estimator: str) -> tuple[np.ndarray, np.ndarray]:
    """``(classes_, y_idx)``: the sorted labels (two or more) and ``y`` as indices into
    them (for the multiclass :class:`~convexkern.estimators.SVMClassifier`).

    Regression and multilabel targets and a single class raise an
    :class:`~convexkern.errors.InvalidInputError` naming ``y`` that says so, as
    :func:`_encode_binary_labels` does.
    """
    _check_targets(y)
    y_type = type_of_target(y, input_name="y")
    if y_type not in ("binary", "multiclass"):
        raise InvalidInputError("y",
            f"{estimator} takes binary or multiclass targets; the type of the target is "
            f"{y_type}")
    classes, y_idx = np.unique(y, return_inverse=True)
    if classes.size < 2:
        raise InvalidInputError("y",
            f"{estimator} needs samples of at least 2 classes, but y has 1 class: "
            f"{classes.tolist()}"
        )
    return classes, y_idx.reshape(-1)


def _check_sample_weight(sample_weight: Any, n: int) -> np.ndarray:
    """``sample_weight`` as ``n`` finite float64 weights ``>= 0`` (ones for ``None``; a
    number is repeated), a copy; anything else raises an error naming ``sample_weight``."""
    if sample_weight is None:
        return np.ones(n)
    if isinstance(sample_weight, (str, bytes)):
        raise InvalidTypeError("sample_weight", f"expected numbers, got {sample_weight!r}")
    try:
        w = np.array(sample_weight, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidTypeError(
            "sample_weight", f"expected an array of numbers, got {type(sample_weight).__name__}"
        ) from None
    if w.ndim == 0:
        w = np.full(n, float(w))
    if w.ndim != 1 or w.size != n:
        raise InvalidInputError(
            "sample_weight", f"must have shape ({n},) (one weight per sample), got {w.shape}")
    if not np.all(np.isfinite(w)):
        raise InvalidInputError("sample_weight", "contains NaN or infinite values")
    if np.any(w < 0):
        raise InvalidInputError(
            "sample_weight", f"must be >= 0 (a weight scales the sample's C), got "
                             f"{int(np.sum(w < 0))} negative value(s), min {w.min():.6g}")
    return w


def _reject_sparse(X: Any, name: str = "X") -> None:
    """Refuse a scipy.sparse matrix or array (an :class:`InvalidTypeError` naming ``X``).

    The formulations work on dense Gram matrices and feature arrays; densifying a sparse
    input silently could exhaust memory, so the caller decides (``X.toarray()``).
    """
    import scipy.sparse as sp

    if sp.issparse(X):
        raise InvalidTypeError(
            name, f"sparse input is not supported (got a scipy.sparse {type(X).__name__} of "
                  f"shape {X.shape}); convert it with X.toarray() if it fits in memory")


def _support_mask(alpha: np.ndarray, C: float, rtol: float = _ALPHA_RTOL) -> np.ndarray:
    """Support vectors: ``alpha_i > rtol * min(C, max(alpha))``."""
    top = float(np.max(alpha)) if alpha.size else 0.0
    return alpha > rtol * min(C, top)


# ---------------------------------------------------------------------------------------
# shared base class
# ---------------------------------------------------------------------------------------


def _rebuilt(kernel: Kernel, params: dict[str, Any]) -> Kernel:
    """``kernel`` built again with ``params`` changed (``name`` or ``name__sub`` for a
    nested kernel); an unknown name is scikit-learn's ``ValueError`` naming it."""
    own = kernel.get_params(deep=False)
    direct: dict[str, Any] = {}
    deeper: dict[str, dict[str, Any]] = {}
    for key, value in params.items():
        head, sep, rest = key.partition("__")
        if head not in own:
            raise InvalidInputError(
                key, f"{type(kernel).__name__} has no parameter {head!r} (it has "
                     f"{sorted(own)})")
        if sep:
            if not isinstance(own[head], Kernel):
                raise InvalidInputError(key, f"{type(kernel).__name__}'s {head!r} is not a "
                                             "kernel")
            deeper.setdefault(head, {})[rest] = value
        else:
            direct[head] = value
    for head, sub in deeper.items():
        direct[head] = _rebuilt(direct.get(head, own[head]), sub)
    return type(kernel)(**{**own, **direct})


class _BinaryKernelClassifier(ClassifierMixin, BaseEstimator):
    """Plumbing shared by convexkern's binary kernel classifiers (not public).

    A subclass declares its own parameters in ``__init__`` (``kernel``, ``solver``,
    ``tol``, ``max_iter`` and, when named kernels use them, ``gamma``, ``degree``,
    ``coef0``), extends ``_parameter_constraints`` (dropping the entries of parameters it
    does not have) and implements ``fit`` and ``decision_function`` with these helpers:

    * :meth:`_validate_train` - ``validate_data`` + labels to -1/+1; sets ``classes_``,
      ``n_features_in_``, ``shape_fit_``; checks that a precomputed kernel is square;
    * :meth:`_train_kernel` - resolves the kernel into ``kernel_`` and returns the Gram
      matrix of the training data;
    * :meth:`_solve` - checks the solver name, solves, warns/raises on the status and sets
      ``report_`` and ``n_iter_``;
    * :meth:`_set_support` - sets ``support_``, ``support_vectors_`` (not for a
      precomputed kernel) and ``n_support_``;
    * :meth:`_validate_test` and :meth:`_kernel_to_support` - check test data and return
      its kernel with the support vectors (columns ``support_`` of a precomputed
      ``(n_test, n_train)`` kernel).

    ``predict`` maps the sign of ``decision_function`` to ``classes_``.
    """

    _parameter_constraints: dict[str, list[Any]] = {
        "kernel": [StrOptions(set(KERNELS) | {"precomputed"}), callable],
        "gamma": [StrOptions({"scale", "auto"}), Interval(Real, 0, None, closed="neither")],
        "degree": [Interval(Integral, 1, None, closed="left")],
        "coef0": [Interval(Real, None, None, closed="neither")],
        "solver": [str],
        "tol": [Interval(Real, 0, 1, closed="neither"), None],
        "max_iter": [Interval(Integral, 1, None, closed="left"), None],
    }

    # -- scikit-learn protocol ----------------------------------------------------------

    def _precomputed(self) -> bool:
        return isinstance(self.kernel, str) and self.kernel == "precomputed"

    def __sklearn_tags__(self):  # noqa: D105
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        tags.input_tags.pairwise = self._precomputed()
        return tags

    # -- fit helpers --------------------------------------------------------------------

    def _validate_train(self, X: Any, y: Any,
                        multiclass: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Validated float64 ``X`` and labels ``y`` coded -1/+1 (``multiclass``: indices
        into ``classes_``, two or more classes); sets ``classes_``, ``n_features_in_`` (via
        ``validate_data``) and ``shape_fit_``."""
        _reject_sparse(X)
        check_label_types(y, "y")
        X, y = validate_data(self, X, y, dtype=np.float64, accept_sparse=False)
        encode = _encode_labels if multiclass else _encode_binary_labels
        self.classes_, y_pm = encode(y, type(self).__name__)
        if self._precomputed() and X.shape[0] != X.shape[1]:
            raise InvalidInputError(
                "X",
                f"with kernel='precomputed' must be the square (n_samples, n_samples) "
                f"training kernel, got shape {X.shape}",
            )
        self.shape_fit_ = X.shape
        return X, y_pm

    def _train_kernel(self, X: np.ndarray) -> np.ndarray:
        """Resolve ``kernel_`` on the training data and return its Gram matrix."""
        self.kernel_ = _build_kernel(
            self.kernel,
            X,
            gamma=getattr(self, "gamma", "scale"),
            degree=getattr(self, "degree", 3),
            coef0=getattr(self, "coef0", 0.0),
        )
        if self._precomputed():
            return X
        return _evaluate_kernel(self.kernel_, X)

    def _check_solver(self, f: Formulation) -> str:
        """The solver name, lower-cased, if it can solve ``f``; else a ValueError."""
        usable = available_solvers(f)
        name = self.solver.lower()
        if name not in usable:
            raise InvalidInputError(
                "solver",
                f"{self.solver!r} cannot solve {f.name} (installed solvers for it: {usable})",
            )
        return name

    def _solve(self, f: Formulation, **options: Any) -> SolveReport:
        """Solve ``f`` with ``solver``, ``tol`` and ``max_iter`` (and ``options``, passed
        to :func:`convexkern.solve`, e.g. a warm start ``x0``); set ``report_``, ``n_iter_``.

        A status other than ``optimal`` (iteration or time limit, certified gap above
        ``tol``) gives a ``ConvergenceWarning``; a status without a solution
        (infeasible, unbounded, solver error) raises :class:`convexkern.SolverError`.
        """
        name = self._check_solver(f)
        report = solve(f, name, tol=self.tol, max_iter=self.max_iter, **options)
        if not report.status.has_solution:
            others = [s for s in available_solvers(f) if s != name]
            raise SolverError(
                f"{type(self).__name__}: solver {name!r} returned status '{report.status}' "
                f"and no solution ({report.message or 'no message'}); try another solver "
                f"(solver=...) among {others}"
            )
        self.report_ = report
        self.n_iter_ = report.iterations
        if report.status is not Status.OPTIMAL:
            tol = "default" if report.tol is None else f"{report.tol:.3g}"
            warnings.warn(
                f"{type(self).__name__}: solver {name!r} stopped with status "
                f"'{report.status}' (certified relative gap {report.rel_gap:.3g}, tol "
                f"{tol}, {report.iterations} iterations)"
                f"{'; ' + report.message if report.message else ''}. The model uses the best "
                "point found; increase max_iter or tol.",
                ConvergenceWarning,
                stacklevel=3,
            )
        return report

    def set_params(self, **params: Any) -> Any:
        """scikit-learn's ``set_params``, with the nested parameters of a :class:`Kernel`
        (``kernel__gamma``, ``kernel__k1__gamma``, which ``get_params(deep=True)`` lists)
        set by rebuilding the kernel: kernels are immutable, and scikit-learn's own
        ``set_params`` would set them on the kernel in place."""
        nested: dict[str, dict[str, Any]] = {}
        plain: dict[str, Any] = {}
        for key, value in params.items():
            head, sep, rest = key.partition("__")
            if sep and isinstance(params.get(head, getattr(self, head, None)), Kernel):
                nested.setdefault(head, {})[rest] = value
            else:
                plain[key] = value
        super().set_params(**plain)
        for head, sub in nested.items():
            super().set_params(**{head: _rebuilt(getattr(self, head), sub)})
        return self

    def _set_support(self, X: np.ndarray, mask: np.ndarray, y_pm: np.ndarray) -> None:
        """Set ``support_``, ``support_vectors_`` (empty when precomputed) and ``n_support_``
        (support vectors per class, in the order of ``classes_``)."""
        self.support_ = np.flatnonzero(mask).astype(np.int32)
        # a precomputed kernel has no vectors: (0, 0), as SVC (not a previous fit's)
        self.support_vectors_ = (np.empty((0, 0)) if self._precomputed()
                                 else X[self.support_].copy())
        self.n_support_ = np.array(
            [np.count_nonzero(mask & (y_pm < 0)), np.count_nonzero(mask & (y_pm > 0))],
            dtype=np.int32,
        )

    # -- predict helpers ----------------------------------------------------------------

    def _validate_test(self, X: Any) -> np.ndarray:
        """Validated float64 test data (``(n_test, n_train)`` kernel when precomputed)."""
        check_is_fitted(self)
        _reject_sparse(X)
        X = validate_data(self, X, dtype=np.float64, accept_sparse=False, reset=False)
        if self._precomputed() and X.shape[1] != self.shape_fit_[0]:
            raise InvalidInputError(
                "X",
                f"with kernel='precomputed' must be the (n_test, n_train) kernel with "
                f"n_train = {self.shape_fit_[0]} columns, got shape {X.shape}",
            )
        return X

    def _kernel_to_support(self, X: np.ndarray) -> np.ndarray:
        """``(n_test, n_SV)`` kernel between validated test data and the support vectors."""
        if self._precomputed():
            return X[:, self.support_]
        return _evaluate_kernel(self.kernel_, X, self.support_vectors_)

    def predict(self, X: Any) -> np.ndarray:
        """Class labels: ``classes_[1]`` where the decision value is positive, else
        ``classes_[0]``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), or (n_samples, n_train)
            Test data (a kernel with the training points when ``kernel="precomputed"``).

        Returns
        -------
        ndarray of shape (n_samples,)
            Labels from ``classes_``.
        """
        d = self.decision_function(X)
        return self.classes_[(d > 0).astype(np.intp)]
