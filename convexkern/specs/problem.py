"""The spec object and what it builds: :class:`ProblemSpec` (a validated spec; its
:meth:`~ProblemSpec.build` runs the stages of :mod:`.build`) and :class:`Instance` (data,
Gram matrices, formulation, and prediction by convention; see :mod:`convexkern.specs`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from ..formulation import Formulation
from .build import call_builder, kernel_matrices, prepare_data
from .model import DataSpec, FormulationSpec, KernelSpec, PreprocessSpec, SolveSpec, SplitSpec


@dataclass(frozen=True)
class ProblemSpec:
    """A validated problem spec (see the module docstring for the TOML format).

    Build the instance with :meth:`build`.
    """

    name: str
    description: str
    data: DataSpec | None
    formulation: FormulationSpec
    kernel: KernelSpec | None = None
    split: SplitSpec | None = None
    preprocess: PreprocessSpec = field(default_factory=PreprocessSpec)
    solve: SolveSpec = field(default_factory=SolveSpec)
    path: str | None = None

    def build(self, progress: Callable[[str], None] | None = None) -> Instance:
        """Load the data, split, preprocess, compute the Gram matrices and build the
        formulation.

        Parameters
        ----------
        progress : callable, optional
            Called with a short message before each stage (``"loading data..."``,
            ``"building kernel (n=770)..."``...), e.g. to print progress.

        Raises
        ------
        SpecError
            Naming the field, for what can only be checked against the data.
        """
        progress = progress or (lambda msg: None)
        timings: dict[str, float] = {}
        fn = self.formulation.builder_function()
        if self.data is None:  # built from the formulation's own parameters
            f = call_builder(self.formulation, fn, None, None, None, progress, timings)
            return Instance(spec=self, X_train=None, y_train=None, X_test=None, y_test=None,
                            kernel=None, K_train=None, K_test=None, formulation=f,
                            timings=MappingProxyType(timings))
        X_train, y_train, X_test, y_test, mean, scale = prepare_data(
            self.data, self.split, self.preprocess, progress, timings)
        kernel = K_train = K_test = None
        if self.kernel is not None:
            kernel, K_train, K_test = kernel_matrices(self.kernel, X_train, X_test, progress,
                                                       timings)
        f = call_builder(self.formulation, fn, K_train, X_train, y_train, progress, timings)
        return Instance(
            spec=self, X_train=X_train, y_train=y_train, X_test=X_test, y_test=y_test,
            kernel=kernel, K_train=K_train, K_test=K_test, formulation=f,
            timings=MappingProxyType(timings), feature_mean=mean, feature_scale=scale,
        )


@dataclass(frozen=True, eq=False)
class Instance:
    """A built instance: the data, the Gram matrices and the formulation.

    Attributes
    ----------
    spec : ProblemSpec
    X_train, y_train : arrays or None
        Preprocessed training features, and labels in {-1, +1} (a real target for
        ``data.task = "regression"``); None for a spec without ``[data]``.
    X_test, y_test : arrays or None
        The held-out part (None without a ``[split]``).
    kernel : Kernel or None
        The kernel with every parameter resolved (``gamma = "scale"`` replaced).
    K_train : (n_train, n_train) array or None
        Training Gram matrix (None when the builder takes features, not a kernel).
    K_test : (n_test, n_train) array or None
        Test-versus-train kernel matrix, for prediction.
    formulation : Formulation
    timings : dict
        Seconds spent in each stage (``"data"``, ``"kernel"``, ``"formulation"``).
    feature_mean, feature_scale : arrays or None
        The training statistics of ``[preprocess] standardize`` (None without it),
        applied to new points by :meth:`decision_function`.
    """

    spec: ProblemSpec
    X_train: np.ndarray | None
    y_train: np.ndarray | None
    X_test: np.ndarray | None
    y_test: np.ndarray | None
    kernel: Any
    K_train: np.ndarray | None
    K_test: np.ndarray | None
    formulation: Formulation
    timings: Mapping[str, float] = field(default_factory=dict)
    feature_mean: np.ndarray | None = field(default=None, repr=False)
    feature_scale: np.ndarray | None = field(default=None, repr=False)

    @property
    def n_train(self) -> int:
        return 0 if self.y_train is None else int(self.y_train.size)

    @property
    def task(self) -> str | None:
        """``"classification"``, ``"regression"``, or None for a spec without data."""
        return None if self.spec.data is None else self.spec.data.task

    @property
    def n_test(self) -> int:
        return 0 if self.y_test is None else int(self.y_test.size)

    @property
    def has_test(self) -> bool:
        return self.y_test is not None and self.y_test.size > 0

    def decision_function(self, report: Any, X: np.ndarray | None = None) -> np.ndarray | None:
        """Decision values of the solution in ``report`` on the test set (or on ``X``).

        Returns None when the formulation declares no decision rule
        (:attr:`convexkern.Formulation.decision`), when its data are not the spec's own
        (``K`` and ``y``, or ``X``), or when the report has no solution.
        """
        xs = getattr(report, "x", None) or {}
        rule = getattr(self.formulation, "decision", None)
        if rule is None or "b" not in xs or self.y_train is None:
            return None  # no declared rule: never guessed from the variables' names
        b = float(np.asarray(xs["b"]).reshape(-1)[0])
        data = self.formulation.data
        if not _same(data.get("y"), self.y_train):
            return None
        if (rule == "dual_expansion" and self.K_train is not None and "alpha" in xs
                and "K_krein" in data and _same(data["K_krein"], self.K_train)):
            # Krein stabilization: predict with the Krein coefficients and the original
            # kernel (Loosli 2019), read from the report or projected back from alpha~
            if "alpha_krein" in xs:
                alpha = np.asarray(xs["alpha_krein"], dtype=float).reshape(-1)
                b = float(np.asarray(xs.get("b_krein", b)).reshape(-1)[0])
            else:
                from ..errors import ConvexkernError
                from ..formulations.krein import to_krein

                try:
                    sol = to_krein(self.formulation, self.y_train, xs["alpha"], b)
                except ConvexkernError:
                    return None
                alpha, b = sol.alpha, sol.b
            K_eval = self.K_test if X is None else self.kernel(self._preprocess(X), self.X_train)
            return None if K_eval is None else K_eval @ (self.y_train * alpha) + b
        if (rule in ("dual_expansion", "expansion") and self.K_train is not None
                and "alpha" in xs and _same(data.get("K"), self.K_train)):
            alpha = np.asarray(xs["alpha"], dtype=float).reshape(-1)
            if alpha.size != self.n_train:
                return None
            if X is None:
                K_eval = self.K_test
            else:
                K_eval = self.kernel(self._preprocess(X), self.X_train)
            if K_eval is None:
                return None
            coef = self.y_train * alpha if rule == "dual_expansion" else alpha
            return K_eval @ coef + b
        if (rule == "linear" and self.K_train is None and "w" in xs
                and _same(data.get("X"), self.X_train)):
            w = np.asarray(xs["w"], dtype=float).reshape(-1)
            Xe = self.X_test if X is None else self._preprocess(X)
            if Xe is None or w.size != Xe.shape[1]:
                return None
            return Xe @ w + b
        return None

    def accuracy(self, report: Any) -> float | None:
        """Test accuracy of the solution in ``report`` (None without a test set or a
        prediction rule, see :meth:`decision_function`, and for a regression target)."""
        f = self._test_values(report)
        if f is None or self.task != "classification":
            return None
        pred = np.where(f >= 0, 1.0, -1.0)
        return float(np.mean(pred == self.y_test))

    def rmse(self, report: Any) -> float | None:
        """Root mean squared error of the solution's predictions on the test set, for a
        regression target (None otherwise, or without a test set or a prediction rule)."""
        f = self._test_values(report)
        if f is None or self.task != "regression":
            return None
        return float(np.sqrt(np.mean((f - self.y_test) ** 2)))

    def _test_values(self, report: Any) -> np.ndarray | None:
        if not self.has_test:
            return None
        f = self.decision_function(report)
        return f if f is not None and np.all(np.isfinite(f)) else None

    def _preprocess(self, X: Any) -> np.ndarray:
        X = np.asarray(X, dtype=float)
        if self.feature_mean is not None and self.feature_scale is not None:
            X = (X - self.feature_mean) / self.feature_scale
        return X


def _same(a: Any, b: np.ndarray) -> bool:
    """``a`` is ``b`` (or an equal array): the formulation kept the spec's data as is."""
    if a is b:
        return True
    return isinstance(a, np.ndarray) and a.shape == b.shape and bool(np.array_equal(a, b))
