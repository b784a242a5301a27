"""The section records: one frozen dataclass per TOML section of a spec (see
:mod:`convexkern.specs` for the format), and the small helpers the other modules share."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..formulation import Formulation
from .dispatch import _resolve_builder
from .plugins import is_plugin_name


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

    @property
    def task(self) -> str:
        """``"classification"`` (labels mapped to -1/+1) or ``"regression"`` (the target
        kept as a real number)."""
        return str(self.options.get("task", "classification"))

    def describe(self) -> str:
        o = self.options
        if self.source == "generator":
            return f"{self.name} (n_samples={o.get('n_samples', 200)}, seed={o.get('seed', 0)})"
        what = os.path.basename(self.name) if self.source == "csv" else self.name
        if self.task == "regression":
            return f"{what} (regression target)"
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
    """The ``[formulation]`` section: ``module.builder`` (a built-in), ``module:function``
    or an entry-point name (a plugin, :mod:`convexkern.specs.plugins`), and its keyword
    arguments.  ``folder`` is where a plugin module is looked for first (the spec's)."""

    name: str
    params: Mapping[str, Any] = field(default_factory=dict)
    folder: str | None = field(default=None, compare=False)

    @property
    def module(self) -> str:
        return self.name.split(":" if ":" in self.name else ".", 1)[0]

    @property
    def builder(self) -> str:
        parts = self.name.split(":" if ":" in self.name else ".", 1)
        return parts[1] if len(parts) == 2 else ""

    @property
    def is_plugin(self) -> bool:
        """A user's builder (``module:function``) or an installed package's (entry point)."""
        return is_plugin_name(self.name)

    def builder_function(self) -> Callable[..., Formulation]:
        """The builder function (its module is imported on first use)."""
        return _resolve_builder(self.name, self.folder)[0]


@dataclass(frozen=True)
class SolveSpec:
    """The ``[solve]`` section; every field optional."""

    solvers: tuple[str, ...] | None = None
    tol: float | None = None
    max_iter: int | None = None
    time_limit: float | None = None


def _fmt_classes(v: Any) -> str:
    if isinstance(v, list):
        return "{" + ", ".join(str(c) for c in v) + "}"
    return str(v)


def _as_list(v: Any) -> list[Any]:
    return list(v) if isinstance(v, list) else [v]


def _strip_arg(exc: Exception) -> str:
    """The message of an InvalidInputError without its ``"argument: "`` prefix."""
    text = str(exc)
    arg = getattr(exc, "argument", None)
    if arg and text.startswith(f"{arg}: "):
        return text[len(arg) + 2:]
    return text
