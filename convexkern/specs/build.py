"""The stages of building an instance from a validated spec: load the data, split,
preprocess, compute the Gram matrices, call the formulation's builder
(:meth:`ProblemSpec.build <convexkern.specs.ProblemSpec.build>` runs them in order)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from ..errors import ConvexkernError, InvalidInputError, InvalidTypeError, SpecError
from ..formulation import Formulation
from .dispatch import _FEATURE_ARGS, _KERNEL_ARGS, _LABEL_ARGS, _signature
from .model import (
    DataSpec,
    FormulationSpec,
    KernelSpec,
    PreprocessSpec,
    SplitSpec,
    _as_list,
    _strip_arg,
)


def _binary_labels(
    y: np.ndarray, opts: Mapping[str, Any], what: str
) -> tuple[np.ndarray, np.ndarray]:
    """Map labels to {-1, +1} by ``positive``/``negative``; returns (keep mask, y_pm)."""
    classes = np.unique(y).tolist()
    if "positive" not in opts:
        if set(classes) == {-1, 1}:
            return np.ones(y.size, dtype=bool), y.astype(float)
        raise SpecError("data.positive",
                        f"the labels of {what} are {classes[:20]}, not -1/+1: give positive "
                        "and negative classes")

    def match(v: Any, fld: str) -> Any:
        for c in classes:
            if type(c) is str and isinstance(v, str) and c == v:
                return c
            if type(c) is not str and not isinstance(v, str) and c == v:
                return c
        raise SpecError(fld, f"{v!r} is not a class of {what}; its classes are "
                             f"{classes[:30]}")

    pos = [match(v, "data.positive") for v in _as_list(opts["positive"])]
    neg_v = opts["negative"]
    if neg_v == "rest":
        neg = [c for c in classes if c not in pos]
        if not neg:
            raise SpecError("data.negative", "'rest' is empty: positive takes every class")
    else:
        neg = [match(v, "data.negative") for v in _as_list(neg_v)]
    is_pos, is_neg = np.isin(y, pos), np.isin(y, neg)
    keep = is_pos | is_neg
    return keep, np.where(is_pos[keep], 1.0, -1.0)


def _load_data(d: DataSpec) -> tuple[np.ndarray, np.ndarray]:
    from .. import data as ckdata

    o = dict(d.options)
    regression = d.task == "regression"
    if d.source == "dataset":
        try:
            if regression:  # the target as the data set gives it, as floats
                ds = ckdata.load(d.name)
                return np.asarray(ds.X, dtype=float), _target(ds.y, d.name)
            return ckdata.load_binary(d.name, o.get("positive"), o.get("negative"))
        except (InvalidInputError, InvalidTypeError) as exc:
            arg = exc.argument if exc.argument in ("positive", "negative") else "dataset"
            raise SpecError(f"data.{arg}", _strip_arg(exc)) from None
    if d.source == "csv":
        try:
            ds = ckdata.load_csv(d.name, o.get("label_column", -1),
                                 delimiter=o.get("delimiter", ","))
        except FileNotFoundError:
            raise SpecError("data.csv", f"no such file: {d.name}") from None
        except (InvalidInputError, InvalidTypeError) as exc:
            fld = (f"data.{exc.argument}" if exc.argument in ("label_column", "delimiter")
                   else "data.csv")
            raise SpecError(fld, _strip_arg(exc)) from None
        if regression:
            return np.asarray(ds.X, dtype=float), _target(ds.y, os.path.basename(d.name))
        keep, y = _binary_labels(ds.y, o, os.path.basename(d.name))
        return np.asarray(ds.X[keep], dtype=float), y
    import sklearn.datasets as skd

    n, seed = o["n_samples"], o["seed"]
    if d.name == "blobs":
        centers = o.get("centers", 2)
        X, lab = skd.make_blobs(n_samples=n, n_features=o.get("n_features", 2),
                                centers=centers, cluster_std=o.get("cluster_std", 1.0),
                                random_state=seed)
    elif d.name == "moons":
        X, lab = skd.make_moons(n_samples=n, noise=o.get("noise"), random_state=seed)
    else:
        X, lab = skd.make_circles(n_samples=n, noise=o.get("noise"),
                                  factor=o.get("factor", 0.8), random_state=seed)
    return np.asarray(X, dtype=float), np.where(lab == 1, 1.0, -1.0)


def _target(y: np.ndarray, what: str) -> np.ndarray:
    """A regression target as floats; a label that is not a finite number is an error
    naming ``data.task``."""
    try:
        out = np.asarray(y, dtype=float)
    except (TypeError, ValueError):
        raise SpecError("data.task", f"regression needs a numeric target; the labels of "
                                     f"{what} are not numbers") from None
    if not np.all(np.isfinite(out)):
        raise SpecError("data.task", f"the regression target of {what} is not finite")
    return out


def _split(y: np.ndarray, s: SplitSpec) -> tuple[np.ndarray, np.ndarray]:
    """Seeded train/test indices (sorted, i.e. in data order): the one seeded split of
    :func:`convexkern.splits.train_test_indices` (scikit-learn's ``train_test_split``,
    stratified by class unless ``stratify = false``), the same as the reproductions'.

    Every class (stratified) or at least one point (not stratified) must land on each side.
    """
    from ..splits import train_test_indices

    try:
        train, test = train_test_indices(y, test_size=s.test_size, seed=s.seed,
                                          stratify=s.stratify)
    except (InvalidInputError, InvalidTypeError) as exc:
        raise SpecError("split.test_size", _strip_arg(exc)) from None
    if s.stratify:
        for c in (1.0, -1.0):
            n_c = int(np.sum(y == c))
            if not (np.any(y[train] == c) and np.any(y[test] == c)):
                raise SpecError(
                    "split.test_size",
                    f"{s.test_size} of the {n_c} points of class {c:+.0f} leaves "
                    "none on one side of the split",
                )
    return train, test


def prepare_data(
    data: DataSpec,
    split: SplitSpec | None,
    preprocess: PreprocessSpec,
    progress: Callable[[str], None],
    timings: dict[str, float],
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None,
           np.ndarray | None, np.ndarray | None]:
    """Load, split and standardize: ``(X_train, y_train, X_test, y_test, mean, scale)``."""
    t0 = time.perf_counter()
    progress(f"loading data ({data.describe()})...")
    X, y = _load_data(data)
    classes = data.task == "classification"
    if classes and np.unique(y).size != 2:
        raise SpecError("data", f"the data have a single class ({np.unique(y).tolist()})")
    if split is not None:
        tr, te = _split(y, split)
        X_train, y_train, X_test, y_test = X[tr], y[tr], X[te], y[te]
        if classes and np.unique(y_train).size != 2:
            raise SpecError("split", "the training part has a single class; stratify it")
    else:
        X_train, y_train, X_test, y_test = X, y, None, None
    mean = scale = None
    if preprocess.standardize:
        mean = X_train.mean(axis=0)
        scale = X_train.std(axis=0)
        scale = np.where(scale > 0, scale, 1.0)
        X_train = (X_train - mean) / scale
        if X_test is not None:
            X_test = (X_test - mean) / scale
    timings["data"] = time.perf_counter() - t0
    if split is not None:
        progress(f"split: {y_train.size} train / {y_test.size} test "  # type: ignore[union-attr]
                 f"({'stratified, ' if split.stratify else ''}seed {split.seed})")
    return X_train, y_train, X_test, y_test, mean, scale


def kernel_matrices(
    spec: KernelSpec,
    X_train: np.ndarray,
    X_test: np.ndarray | None,
    progress: Callable[[str], None],
    timings: dict[str, float],
) -> tuple[Any, np.ndarray, np.ndarray | None]:
    """The kernel (``gamma = "scale"`` resolved on ``X_train``), the training Gram matrix
    and the test-versus-train matrix."""
    from ..kernels import make_kernel

    params = dict(spec.params)
    if params.get("gamma") == "scale":
        var = float(X_train.var())
        if not var > 0:
            raise SpecError("kernel.gamma", "'scale' needs features with nonzero variance")
        params["gamma"] = 1.0 / (X_train.shape[1] * var)
    try:
        kernel = make_kernel(spec.name, **params)
    except (InvalidInputError, InvalidTypeError) as exc:
        raise SpecError(f"kernel.{exc.argument}", _strip_arg(exc)) from None
    t1 = time.perf_counter()
    progress(f"building kernel {kernel!r} (n={X_train.shape[0]})...")
    try:
        K_train = kernel(X_train)
        K_test = kernel(X_test, X_train) if X_test is not None else None
    except (InvalidInputError, InvalidTypeError) as exc:
        raise SpecError("kernel", f"{spec.name} on these data: {exc}") from None
    timings["kernel"] = time.perf_counter() - t1
    return kernel, K_train, K_test


def call_builder(
    spec: FormulationSpec,
    fn: Callable[..., Formulation],
    K_train: np.ndarray | None,
    X_train: np.ndarray | None,
    y_train: np.ndarray | None,
    progress: Callable[[str], None],
    timings: dict[str, float],
) -> Formulation:
    """Call the builder ``fn`` with the spec's parameters and the data its signature asks
    for; its input errors become :class:`SpecError` naming the field."""
    sig = _signature(fn)
    kwargs = dict(spec.params)
    for p in sig.parameters:
        if p in _KERNEL_ARGS:
            kwargs[p] = K_train
        elif p in _FEATURE_ARGS:
            kwargs[p] = X_train
        elif p in _LABEL_ARGS:
            kwargs[p] = y_train
    t2 = time.perf_counter()
    size = "" if y_train is None else f" (n={y_train.size})"
    progress(f"building formulation {spec.name}{size}...")
    try:
        f = fn(**kwargs)
    except (InvalidInputError, InvalidTypeError) as exc:
        arg = exc.argument
        if arg in spec.params:
            fld = f"formulation.{arg}"
        elif arg in _KERNEL_ARGS:
            fld = "kernel"
        elif arg in _FEATURE_ARGS or arg in _LABEL_ARGS:
            fld = "data"
        else:
            fld = f"formulation.{arg}" if arg in sig.parameters else "formulation"
        raise SpecError(fld, f"{spec.name}: {arg} {_strip_arg(exc)}") from None
    except ConvexkernError:
        raise
    except ValueError as exc:  # a user's builder keeps its traceback (chained)
        raise SpecError("formulation", f"{spec.name}: {exc}") from (
            exc if spec.is_plugin else None)
    except Exception as exc:
        if not spec.is_plugin:
            raise
        raise SpecError("formulation.name",
                        f"{spec.name} raised {type(exc).__name__}: {exc}") from exc
    if not isinstance(f, Formulation):
        raise SpecError("formulation.name", f"{spec.name} returned "
                                            f"{type(f).__name__}, not a convexkern.Formulation")
    timings["formulation"] = time.perf_counter() - t2
    return f
