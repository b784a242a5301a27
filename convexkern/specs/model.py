"""The spec records: one frozen dataclass per TOML section, the validated
:class:`ProblemSpec`, and the built :class:`Instance` (data, Gram matrices, formulation,
prediction by convention; see :mod:`convexkern.specs`)."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..formulation import Formulation
from .dispatch import _resolve_builder


@dataclass(frozen=True)
class DataSpec:
    """The ``[data]`` section: one of ``dataset``, ``csv`` or ``generator``.

    ``source`` is ``"dataset"``, ``"csv"`` or ``"generator"``; ``name`` is the data set
    name, the resolved CSV path, or the generator name; ``options`` holds the other keys
    (``positive``, ``negative``, ``n_samples``...).
    """

    source: str
    name: str
    options: Mapping[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        o = self.options
        if self.source == "generator":
            return f"{self.name} (n_samples={o.get('n_samples', 200)}, seed={o.get('seed', 0)})"
        what = os.path.basename(self.name) if self.source == "csv" else self.name
        if "positive" in o:
            return f"{what}, {_fmt_classes(o['positive'])} vs {_fmt_classes(o.get('negative'))}"
        return what


@dataclass(frozen=True)
class SplitSpec:
    """The ``[split]`` section: a seeded (stratified) train/test split, made by
    :func:`convexkern.splits.train_test_indices`."""

    test_size: float
    seed: int = 0
    stratify: bool = True


@dataclass(frozen=True)
class PreprocessSpec:
    """The ``[preprocess]`` section."""

    standardize: bool = False


@dataclass(frozen=True)
class KernelSpec:
    """The ``[kernel]`` section: a :func:`convexkern.kernels.make_kernel` name and its
    parameters (``gamma = "scale"`` is resolved on the training data)."""

    name: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class FormulationSpec:
    """The ``[formulation]`` section: ``module.builder`` and its keyword arguments."""

    name: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def module(self) -> str:
        return self.name.split(".", 1)[0]

    @property
    def builder(self) -> str:
        return self.name.split(".", 1)[1]

    def builder_function(self) -> Callable[..., Formulation]:
        """The builder function (its module is imported on first use)."""
        return _resolve_builder(self.name)[0]


@dataclass(frozen=True)
class SolveSpec:
    """The ``[solve]`` section; every field optional."""

    solvers: tuple[str, ...] | None = None
    tol: float | None = None
    max_iter: int | None = None
    time_limit: float | None = None


@dataclass(frozen=True)
class ProblemSpec:
    """A validated problem spec (see the module docstring for the TOML format).

    Build the instance with :meth:`build`.
    """

    name: str
    description: str
    data: DataSpec
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
        from .build import _build

        return _build(self, progress or (lambda msg: None))


@dataclass(frozen=True, eq=False)
class Instance:
    """A built instance: the data, the Gram matrices and the formulation.

    Attributes
    ----------
    spec : ProblemSpec
    X_train, y_train : arrays
        Preprocessed training features and labels in {-1, +1}.
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
    X_train: np.ndarray
    y_train: np.ndarray
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
        return int(self.y_train.size)

    @property
    def n_test(self) -> int:
        return 0 if self.y_test is None else int(self.y_test.size)

    @property
    def has_test(self) -> bool:
        return self.y_test is not None and self.y_test.size > 0

    def decision_function(self, report: Any, X: np.ndarray | None = None) -> np.ndarray | None:
        """Decision values of the solution in ``report`` on the test set (or on ``X``).

        Returns None when the formulation does not support prediction by the convention
        of the module docstring (``alpha`` and ``b`` on the spec's own ``K``, or ``w``
        and ``b`` on its own ``X``) or the report has no solution.
        """
        xs = getattr(report, "x", None) or {}
        if "b" not in xs:
            return None
        b = float(np.asarray(xs["b"]).reshape(-1)[0])
        data = self.formulation.data
        if not _same(data.get("y"), self.y_train):
            return None
        if (self.K_train is not None and "alpha" in xs and "K_krein" in data
                and _same(data["K_krein"], self.K_train)):
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
        if self.K_train is not None and "alpha" in xs and _same(data.get("K"), self.K_train):
            alpha = np.asarray(xs["alpha"], dtype=float).reshape(-1)
            if alpha.size != self.n_train:
                return None
            if X is None:
                K_eval = self.K_test
            else:
                K_eval = self.kernel(self._preprocess(X), self.X_train)
            if K_eval is None:
                return None
            return K_eval @ (self.y_train * alpha) + b
        if self.K_train is None and "w" in xs and _same(data.get("X"), self.X_train):
            w = np.asarray(xs["w"], dtype=float).reshape(-1)
            Xe = self.X_test if X is None else self._preprocess(X)
            if Xe is None or w.size != Xe.shape[1]:
                return None
            return Xe @ w + b
        return None

    def accuracy(self, report: Any) -> float | None:
        """Test accuracy of the solution in ``report`` (None without a test set or a
        prediction rule, see :meth:`decision_function`)."""
        if not self.has_test:
            return None
        f = self.decision_function(report)
        if f is None or not np.all(np.isfinite(f)):
            return None
        pred = np.where(f >= 0, 1.0, -1.0)
        return float(np.mean(pred == self.y_test))

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


def _fmt_classes(v: Any) -> str:
    if isinstance(v, list):
        return "{" + ", ".join(str(c) for c in v) + "}"
    return str(v)
