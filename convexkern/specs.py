"""Declarative problem specs: one TOML file describes one instance, end to end.

A spec names the data set, the preprocessing and train/test split, the kernel and its
parameters, the formulation and its hyper-parameters, and the solvers to run::

    name = "svm_usps_3v5_rbf"
    description = "Soft-margin SVM dual, USPS digits 3 vs 5 (real data), RBF kernel"

    [data]
    dataset = "usps"            # a shipped data set (convexkern.data.available_datasets())
    positive = 3                # class(es) -> +1
    negative = 5                # class(es) -> -1 ("rest": every other class)

    [split]                     # optional; omitted: train on everything, no test set
    test_size = 0.5             # fraction held out, stratified by class
    seed = 0                    # seed of the permutation

    [preprocess]                # optional
    standardize = false         # z-score every feature with the *training* statistics

    [kernel]                    # needed by builders that take a kernel matrix K / K0
    name = "rbf"                # convexkern.kernels.make_kernel name
    gamma = 0.025               # kernel parameters; gamma = "scale" -> 1/(d * X_train.var())

    [formulation]
    name = "svm.dual"           # <module>.<builder> in convexkern.formulations
    C = 1.0                     # keyword arguments of the builder

    [solve]                     # optional
    solvers = ["clarabel", "scs", "smo"]
    tol = 1e-6                  # also max_iter, time_limit

The three data sources of ``[data]`` (exactly one):

* ``dataset = "<name>"`` with ``positive`` / ``negative`` (a class label, a list of
  labels, or ``negative = "rest"``), through :func:`convexkern.data.load_binary`;
* ``csv = "path.csv"`` (one header row; relative paths resolve against the folder of the
  spec file), with ``label_column`` (default: the last), ``delimiter``, and
  ``positive`` / ``negative`` (optional when the labels already are -1/+1);
* ``generator = "blobs" | "moons" | "circles"`` (scikit-learn ``make_*``) with
  ``n_samples``, ``seed`` and ``noise`` (moons, circles), ``factor`` (circles),
  ``n_features``, ``cluster_std`` and ``centers`` (blobs: a list of two points); class 1
  becomes +1 and class 0 becomes -1.

Validation
----------
:func:`load_spec` checks every field and raises :class:`~convexkern.errors.SpecError`
naming it (``"kernel.gamma"``, ``"data.dataset"``, ``"formulation.name"``, ...): unknown
sections and keys (typos), wrong types, unknown data set / kernel / formulation / solver
names (the message lists the valid ones), ``positive == negative``, ``test_size`` outside
``(0, 1)``...  What can only be checked against the data (a class that does not exist, a
kernel matrix that is not PSD, a builder rejecting ``C = -1``) is checked by
:meth:`ProblemSpec.build`, which raises a :class:`SpecError` naming the field as well.

Extension point: formulation dispatch
-------------------------------------
There is no table of formulations here.  ``formulation.name = "<module>.<builder>"``
resolves to ``getattr(convexkern.formulations.<module>, "<builder>")``, and the
builder's signature says what it needs:

* a parameter named ``K`` or ``K0`` receives the training kernel matrix (the
  ``[kernel]`` section is then required);
* a parameter named ``X`` receives the (preprocessed) training features;
* a parameter named ``y`` receives the training labels in {-1, +1};
* every other key of ``[formulation]`` is passed as a keyword argument, checked against
  the signature (an unknown key is a :class:`SpecError` naming ``formulation.<key>``;
  a required parameter left out is one too).

A builder is any public function of the module (listed in its ``__all__``) returning a
:class:`~convexkern.Formulation`.  So a new module such as
``robust_indefinite.dual(K0, y, C, rho)`` or ``krein.stabilization(K, y, C,
decomposition)`` is usable from a spec as soon as it exists, with no change here.
Builder errors (``InvalidInputError`` naming an argument) are re-raised as
``SpecError("formulation.<argument>")``.

Prediction follows a convention rather than a table (:meth:`Instance.decision_function`):
a formulation that keeps the spec's training kernel as ``data["K"]`` (and labels as
``data["y"]``) and whose reports carry ``x["alpha"]`` and ``x["b"]`` predicts with
``f(x) = sum_i alpha_i y_i k(x_i, x) + b`` (the SVM dual); one that keeps the features as
``data["X"]`` and reports ``x["w"]`` and ``x["b"]`` predicts with ``f(x) = w'x + b``.
Formulations that transform the kernel (a learned proxy, a stabilised ``K~``) get no
accuracy from the spec: their classifier needs their own mapping back.

Shipped specs
-------------
The specs of ``problems/*.toml`` are installed with the package
(``convexkern/problems/*.toml``): :func:`available_specs` lists them and
:func:`load_spec` accepts a bare name (``load_spec("svm_usps_3v5_rbf")``) as well as a
path, a dict or TOML text already parsed.
"""

from __future__ import annotations

import inspect
import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

from .errors import ConvexkernError, InvalidInputError, InvalidTypeError, SpecError
from .formulation import Formulation

__all__ = [
    "ProblemSpec",
    "DataSpec",
    "SplitSpec",
    "PreprocessSpec",
    "KernelSpec",
    "FormulationSpec",
    "SolveSpec",
    "Instance",
    "load_spec",
    "available_specs",
    "spec_path",
    "GENERATORS",
]

#: Generators accepted by ``data.generator`` (scikit-learn ``make_<name>``).
GENERATORS: tuple[str, ...] = ("blobs", "moons", "circles")

_SECTIONS = ("data", "split", "preprocess", "kernel", "formulation", "solve")
_TOP_KEYS = ("name", "description", *_SECTIONS)
_DATA_SOURCES = ("dataset", "csv", "generator")
_DATA_KEYS = {  # per generator: _GENERATOR_KEYS
    "dataset": ("dataset", "positive", "negative"),
    "csv": ("csv", "label_column", "delimiter", "positive", "negative"),
}
_GENERATOR_KEYS = {
    "blobs": ("generator", "n_samples", "seed", "n_features", "cluster_std", "centers"),
    "moons": ("generator", "n_samples", "seed", "noise"),
    "circles": ("generator", "n_samples", "seed", "noise", "factor"),
}
_SPLIT_KEYS = ("test_size", "seed", "stratify")
_PREPROCESS_KEYS = ("standardize",)
_SOLVE_KEYS = ("solvers", "tol", "max_iter", "time_limit")
_KERNEL_ARGS = ("K", "K0")
_FEATURE_ARGS = ("X",)
_LABEL_ARGS = ("y",)
_DATA_ARGS = (*_KERNEL_ARGS, *_FEATURE_ARGS, *_LABEL_ARGS)


# ---------------------------------------------------------------------------------------
# the spec records
# ---------------------------------------------------------------------------------------


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
    """The ``[split]`` section: a seeded (stratified) train/test split."""

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
        """The builder function (its module is imported, registering its solvers)."""
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
                from .errors import ConvexkernError
                from .formulations.krein import to_krein

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


# ---------------------------------------------------------------------------------------
# finding and reading specs
# ---------------------------------------------------------------------------------------


def _shipped_dir() -> Any:
    return resources.files(__package__).joinpath("problems")


def available_specs() -> list[str]:
    """Names of the problem specs shipped with the package, sorted."""
    try:
        entries = list(_shipped_dir().iterdir())
    except (FileNotFoundError, NotADirectoryError):  # pragma: no cover - broken install
        return []
    return sorted(e.name[: -len(".toml")] for e in entries if e.name.endswith(".toml"))


def spec_path(name_or_path: str | os.PathLike[str]) -> Path:
    """The file of a spec given by path or by the bare name of a shipped spec.

    An existing file wins; otherwise a shipped spec of that name (with or without
    ``.toml``).  Raises :class:`SpecError` (field ``"spec"``) listing the shipped specs.
    """
    p = Path(os.fspath(name_or_path))
    if p.is_file():
        return p
    stem = p.name[: -len(".toml")] if p.name.endswith(".toml") else p.name
    if p.parent == Path(".") and stem in available_specs():
        res = _shipped_dir().joinpath(f"{stem}.toml")
        return Path(str(res))
    raise SpecError(
        "spec",
        f"no spec file {os.fspath(name_or_path)!r} and no shipped spec of that name; "
        f"shipped specs: {', '.join(available_specs()) or 'none'}",
    )


def load_spec(spec: str | os.PathLike[str] | Mapping[str, Any], *,
              base_dir: str | os.PathLike[str] | None = None) -> ProblemSpec:
    """Read and validate a problem spec.

    Parameters
    ----------
    spec : path, bare name or dict
        A TOML file, the name of a shipped spec (see :func:`available_specs`), or the
        parsed TOML as a dict.
    base_dir : path, optional
        Folder against which a relative ``data.csv`` path resolves (default: the spec
        file's folder; the current directory for a dict).

    Returns
    -------
    ProblemSpec

    Raises
    ------
    SpecError
        Naming the offending field (see the module docstring).
    """
    path: Path | None = None
    if isinstance(spec, Mapping):
        raw = dict(spec)
    elif isinstance(spec, (str, os.PathLike)):
        path = spec_path(spec)
        try:
            with open(path, "rb") as fh:
                raw = tomllib.load(fh)
        except tomllib.TOMLDecodeError as exc:
            raise SpecError("toml", f"{path}: {exc}") from None
        except OSError as exc:
            raise SpecError("spec", f"cannot read {path}: {exc.strerror or exc}") from None
    else:
        raise SpecError(
            "spec", f"expected a path, a shipped spec name or a dict, got {type(spec).__name__}"
        )
    if base_dir is None:
        base = path.parent if path is not None else Path.cwd()
    else:
        base = Path(os.fspath(base_dir))
    return _parse(raw, path, base)


# ---------------------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------------------


def _check_keys(table: Mapping[str, Any], allowed: Sequence[str], where: str) -> None:
    for key in table:
        if key not in allowed:
            prefix = f"{where}." if where else ""
            raise SpecError(
                f"{prefix}{key}",
                f"unknown key; {('[' + where + ']') if where else 'the top level'} "
                f"accepts {', '.join(allowed)}",
            )


def _section(raw: Mapping[str, Any], name: str, required: bool = False) -> dict[str, Any] | None:
    if name not in raw:
        if required:
            raise SpecError(name, f"the [{name}] section is required")
        return None
    value = raw[name]
    if not isinstance(value, Mapping):
        raise SpecError(name, f"must be a table ([{name}]), got {_tname(value)}")
    return dict(value)


def _tname(v: Any) -> str:
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
            list: "an array", dict: "a table"}.get(type(v), type(v).__name__)


def _str(v: Any, fld: str) -> str:
    if not isinstance(v, str):
        raise SpecError(fld, f"must be a string, got {_tname(v)} {v!r}")
    if not v.strip():
        raise SpecError(fld, "must not be empty")
    return v


def _bool(v: Any, fld: str) -> bool:
    if not isinstance(v, bool):
        raise SpecError(fld, f"must be true or false, got {_tname(v)} {v!r}")
    return v


def _int(v: Any, fld: str, minimum: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise SpecError(fld, f"must be an integer, got {_tname(v)} {v!r}")
    if minimum is not None and v < minimum:
        raise SpecError(fld, f"must be >= {minimum}, got {v}")
    return v


def _num(v: Any, fld: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise SpecError(fld, f"must be a number, got {_tname(v)} {v!r}")
    if not math.isfinite(v):
        raise SpecError(fld, f"must be finite, got {v!r}")
    return float(v)


def _positive(v: Any, fld: str) -> float:
    x = _num(v, fld)
    if x <= 0:
        raise SpecError(fld, f"must be > 0, got {v!r}")
    return x


def _open_unit(v: Any, fld: str) -> float:
    x = _num(v, fld)
    if not 0 < x < 1:
        raise SpecError(fld, f"must lie strictly between 0 and 1, got {v!r}")
    return x


def _fmt_classes(v: Any) -> str:
    if isinstance(v, list):
        return "{" + ", ".join(str(c) for c in v) + "}"
    return str(v)


def _class_list(v: Any, fld: str) -> list[Any]:
    items = v if isinstance(v, list) else [v]
    if not items:
        raise SpecError(fld, "must name at least one class")
    for c in items:
        if isinstance(c, bool) or not isinstance(c, (int, float, str)):
            raise SpecError(
                fld, f"a class label must be an integer, a number or a string, got {_tname(c)}"
            )
    return list(items)


def _parse(raw: Mapping[str, Any], path: Path | None, base: Path) -> ProblemSpec:
    _check_keys(raw, _TOP_KEYS, "")
    name = raw.get("name")
    if name is None:
        if path is None:
            raise SpecError("name", "is required")
        name = path.stem
    name = _str(name, "name")
    description = raw.get("description", "")
    if not isinstance(description, str):
        raise SpecError("description", f"must be a string, got {_tname(description)}")

    data = _parse_data(_section(raw, "data", required=True), base)  # type: ignore[arg-type]
    split_t = _section(raw, "split")
    split = _parse_split(split_t) if split_t is not None else None
    pre_t = _section(raw, "preprocess")
    preprocess = _parse_preprocess(pre_t) if pre_t is not None else PreprocessSpec()
    formulation, builder = _parse_formulation(_section(raw, "formulation", required=True))  # type: ignore[arg-type]
    kernel_t = _section(raw, "kernel")
    needs_kernel = any(p in _KERNEL_ARGS for p in _signature(builder).parameters)
    if kernel_t is None:
        if needs_kernel:
            raise SpecError(
                "kernel", f"formulation {formulation.name} takes a kernel matrix: add a "
                "[kernel] section (e.g. name = \"rbf\", gamma = \"scale\")"
            )
        kernel = None
    else:
        if not needs_kernel:
            raise SpecError(
                "kernel", f"formulation {formulation.name} takes the features X, not a kernel "
                "matrix: remove the [kernel] section"
            )
        kernel = _parse_kernel(kernel_t)
    solve_t = _section(raw, "solve")
    solve = _parse_solve(solve_t) if solve_t is not None else SolveSpec()
    return ProblemSpec(
        name=name, description=description, data=data, formulation=formulation,
        kernel=kernel, split=split, preprocess=preprocess, solve=solve,
        path=None if path is None else str(path),
    )


def _parse_data(t: dict[str, Any], base: Path) -> DataSpec:
    given = [k for k in _DATA_SOURCES if k in t]
    if len(given) != 1:
        known = {k for keys in (*_GENERATOR_KEYS.values(), _DATA_KEYS["dataset"],
                                _DATA_KEYS["csv"]) for k in keys}
        for key in t:
            if key not in known:  # a typo is the likelier mistake
                raise SpecError(f"data.{key}", "unknown key; [data] takes one of dataset, "
                                               "csv or generator, and their options")
        what = "none" if not given else " and ".join(given)
        raise SpecError("data", f"give exactly one of dataset, csv or generator (got {what})")
    source = given[0]
    if source == "dataset":
        from .data import available_datasets

        _check_keys(t, _DATA_KEYS["dataset"], "data")
        name = _str(t["dataset"], "data.dataset")
        known = available_datasets()
        if name not in known:
            raise SpecError("data.dataset", f"unknown data set {name!r}; available: "
                                            f"{', '.join(known)}")
        opts = _parse_classes(t)
        return DataSpec("dataset", name, MappingProxyType(opts))
    if source == "csv":
        _check_keys(t, _DATA_KEYS["csv"], "data")
        rel = _str(t["csv"], "data.csv")
        p = Path(os.path.expanduser(rel))
        if not p.is_absolute():
            p = base / p
        opts = _parse_classes(t)
        if "label_column" in t:
            lc = t["label_column"]
            if isinstance(lc, bool) or not isinstance(lc, (int, str)):
                raise SpecError("data.label_column",
                                f"must be a column index or name, got {_tname(lc)}")
            opts["label_column"] = lc
        if "delimiter" in t:
            d = t["delimiter"]
            if not isinstance(d, str) or len(d) != 1:
                raise SpecError("data.delimiter", f"must be a single character, got {d!r}")
            opts["delimiter"] = d
        return DataSpec("csv", str(p), MappingProxyType(opts))
    gen = _str(t["generator"], "data.generator")
    if gen not in GENERATORS:
        raise SpecError("data.generator",
                        f"unknown generator {gen!r}; available: {', '.join(GENERATORS)}")
    _check_keys(t, _GENERATOR_KEYS[gen], "data")
    opts: dict[str, Any] = {"n_samples": 200, "seed": 0}
    if "n_samples" in t:
        opts["n_samples"] = _int(t["n_samples"], "data.n_samples", minimum=4)
    if "seed" in t:
        opts["seed"] = _int(t["seed"], "data.seed", minimum=0)
    if "noise" in t:
        noise = _num(t["noise"], "data.noise")
        if noise < 0:
            raise SpecError("data.noise", f"must be >= 0, got {noise}")
        opts["noise"] = noise
    if "factor" in t:
        opts["factor"] = _open_unit(t["factor"], "data.factor")
    if "n_features" in t:
        opts["n_features"] = _int(t["n_features"], "data.n_features", minimum=1)
    if "cluster_std" in t:
        opts["cluster_std"] = _positive(t["cluster_std"], "data.cluster_std")
    if "centers" in t:
        c = t["centers"]
        ok = (isinstance(c, list) and len(c) == 2 and all(isinstance(r, list) for r in c)
              and len(c[0]) == len(c[1]) > 0
              and all(not isinstance(v, bool) and isinstance(v, (int, float))
                      for r in c for v in r))
        if not ok:
            raise SpecError("data.centers", "must be two points of equal length, e.g. "
                                            "[[-1.0, 0.0], [1.0, 0.0]]")
        if "n_features" in opts and opts["n_features"] != len(c[0]):
            raise SpecError("data.n_features",
                            f"is {opts['n_features']} but the centers have {len(c[0])}")
        opts["centers"] = [[float(v) for v in r] for r in c]
    return DataSpec("generator", gen, MappingProxyType(opts))


def _parse_classes(t: Mapping[str, Any]) -> dict[str, Any]:
    """``positive`` / ``negative``: both or neither (the defaults of the data set)."""
    opts: dict[str, Any] = {}
    if "positive" in t:
        _class_list(t["positive"], "data.positive")
        opts["positive"] = t["positive"]
    if "negative" in t:
        if t["negative"] != "rest":
            _class_list(t["negative"], "data.negative")
        opts["negative"] = t["negative"]
    if ("positive" in opts) != ("negative" in opts):
        missing = "negative" if "positive" in opts else "positive"
        raise SpecError(f"data.{missing}", "give both positive and negative classes "
                                           "(negative may be \"rest\")")
    if opts and opts["negative"] != "rest":
        both = {repr(c) for c in _as_list(opts["positive"])} & {
            repr(c) for c in _as_list(opts["negative"])}
        if both:
            raise SpecError(
                "data.negative",
                f"class(es) {', '.join(sorted(both))} also in positive: positive and "
                "negative must differ",
            )
    return opts


def _as_list(v: Any) -> list[Any]:
    return list(v) if isinstance(v, list) else [v]


def _parse_split(t: dict[str, Any]) -> SplitSpec:
    _check_keys(t, _SPLIT_KEYS, "split")
    if "test_size" not in t:
        raise SpecError("split.test_size", "is required in [split] (a fraction in (0, 1))")
    return SplitSpec(
        test_size=_open_unit(t["test_size"], "split.test_size"),
        seed=_int(t.get("seed", 0), "split.seed", minimum=0),
        stratify=_bool(t.get("stratify", True), "split.stratify"),
    )


def _parse_preprocess(t: dict[str, Any]) -> PreprocessSpec:
    _check_keys(t, _PREPROCESS_KEYS, "preprocess")
    return PreprocessSpec(standardize=_bool(t.get("standardize", False),
                                            "preprocess.standardize"))


def _parse_kernel(t: dict[str, Any]) -> KernelSpec:
    from .kernels import KERNEL_NAMES, make_kernel

    if "name" not in t:
        raise SpecError("kernel.name", f"is required; kernels: {', '.join(KERNEL_NAMES)}")
    name = _str(t["name"], "kernel.name").strip().lower()
    if name not in KERNEL_NAMES:
        raise SpecError("kernel.name",
                        f"unknown kernel {t['name']!r}; kernels: {', '.join(KERNEL_NAMES)}")
    params = {k: v for k, v in t.items() if k != "name"}
    trial = dict(params)
    for key, value in params.items():
        if isinstance(value, str):
            if key == "gamma" and value == "scale":
                trial[key] = 1.0  # resolved on the training data by build()
            else:
                raise SpecError(
                    f"kernel.{key}",
                    f"must be a number, got the string {value!r}"
                    + ('; the only string allowed is gamma = "scale"' if key == "gamma" else ""),
                )
    try:
        make_kernel(name, **trial)
    except (InvalidInputError, InvalidTypeError) as exc:
        raise SpecError(f"kernel.{exc.argument}", _strip_arg(exc)) from None
    except (TypeError, ValueError) as exc:
        raise SpecError("kernel", str(exc)) from None
    return KernelSpec(name, MappingProxyType(params))


def _strip_arg(exc: Exception) -> str:
    """The message of an InvalidInputError without its ``"argument: "`` prefix."""
    text = str(exc)
    arg = getattr(exc, "argument", None)
    if arg and text.startswith(f"{arg}: "):
        return text[len(arg) + 2:]
    return text


def _formulation_modules() -> list[str]:
    from . import formulations

    return list(formulations.__all__)


def _implemented_modules() -> list[str]:
    from . import formulations

    out = []
    for m in _formulation_modules():
        try:
            getattr(formulations, m)
        except (AttributeError, ImportError):  # not written yet, or broken
            continue
        out.append(m)
    return out


def _is_builder(obj: Any) -> bool:
    if not callable(obj):
        return False
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return False
    ann = sig.return_annotation
    if ann is Formulation or ann in ("Formulation", "'Formulation'"):
        return True
    if ann is inspect.Signature.empty:
        return any(p in _DATA_ARGS for p in sig.parameters)
    return False


def _builders(module: Any) -> list[str]:
    names = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
    return [n for n in names if _is_builder(getattr(module, n, None))]


def _all_builders() -> list[str]:
    """Every ``module.builder`` a spec can use."""
    from . import formulations

    out = []
    for m in _implemented_modules():
        module = getattr(formulations, m)
        out += [f"{m}.{b}" for b in _builders(module) if _feedable(getattr(module, b))]
    return out


def _feedable(fn: Callable[..., Any]) -> bool:
    """True when a spec can feed the builder data (it takes K, K0 or X)."""
    return any(p in (*_KERNEL_ARGS, *_FEATURE_ARGS) for p in _signature(fn).parameters)


def _resolve_builder(name: str) -> tuple[Callable[..., Formulation], Any]:
    from . import formulations

    if name.count(".") != 1 or not all(name.split(".")):
        raise SpecError("formulation.name",
                        f"expected '<module>.<builder>' such as 'svm.dual', got {name!r}; "
                        f"available: {', '.join(_all_builders())}")
    mod_name, fn_name = name.split(".")
    if mod_name not in _formulation_modules():
        raise SpecError("formulation.name",
                        f"unknown formulation module {mod_name!r}; available: "
                        f"{', '.join(_all_builders())}")
    try:
        module = getattr(formulations, mod_name)
    except AttributeError as exc:
        raise SpecError("formulation.name",
                        f"{exc}; available: {', '.join(_all_builders())}") from None
    except ImportError as exc:
        raise SpecError("formulation.name",
                        f"convexkern.formulations.{mod_name} failed to import ({exc})") from None
    fn = getattr(module, fn_name, None)
    builders = _builders(module)
    if fn_name.startswith("_") or fn is None or fn_name not in builders:
        raise SpecError("formulation.name",
                        f"{mod_name} has no builder {fn_name!r}; builders of {mod_name}: "
                        f"{', '.join(f'{mod_name}.{b}' for b in builders) or 'none'}")
    return fn, module


def _signature(fn: Callable[..., Any]) -> inspect.Signature:
    return inspect.signature(fn)


def _parse_formulation(t: dict[str, Any]) -> tuple[FormulationSpec, Callable[..., Formulation]]:
    if "name" not in t:
        raise SpecError("formulation.name",
                        f"is required; available: {', '.join(_all_builders())}")
    name = _str(t["name"], "formulation.name").strip()
    fn, _ = _resolve_builder(name)
    sig = _signature(fn)
    if not _feedable(fn):
        raise SpecError("formulation.name",
                        f"{name} takes neither a kernel matrix (K, K0) nor features (X), so "
                        f"a spec cannot feed it data; usable: {', '.join(_all_builders())}")
    params = {k: v for k, v in t.items() if k != "name"}
    accepts_kwargs = any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values())
    settable = [p.name for p in sig.parameters.values()
                if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
                and p.name not in _DATA_ARGS]
    for key in params:
        if key in _DATA_ARGS:
            raise SpecError(f"formulation.{key}",
                            "is filled from the data by the spec; remove it")
        if key not in settable and not accepts_kwargs:
            raise SpecError(f"formulation.{key}",
                            f"unknown parameter of {name}; its parameters: "
                            f"{', '.join(settable) or 'none'}")
    for p in sig.parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or p.name in _DATA_ARGS:
            continue
        if p.kind is p.POSITIONAL_ONLY:
            raise SpecError("formulation.name",
                            f"{name} has the positional-only parameter {p.name!r}, which a "
                            "spec cannot set")
        if p.default is inspect.Parameter.empty and p.name not in params:
            raise SpecError(f"formulation.{p.name}", f"is required by {name}")
    return FormulationSpec(name, MappingProxyType(params)), fn


def _known_solvers() -> list[str]:
    from .solvers import solver_info

    return [r["name"] for r in solver_info()]


def _parse_solve(t: dict[str, Any]) -> SolveSpec:
    _check_keys(t, _SOLVE_KEYS, "solve")
    solvers = None
    if "solvers" in t:
        s = t["solvers"]
        if isinstance(s, str):
            s = [s]
        if not isinstance(s, list) or not s or not all(isinstance(v, str) for v in s):
            raise SpecError("solve.solvers",
                            'must be a non-empty array of solver names, e.g. ["clarabel"]')
        known = _known_solvers()
        names = []
        for v in s:
            key = v.strip().lower()
            if key not in known:
                raise SpecError("solve.solvers",
                                f"unknown solver {v!r}; known solvers: {', '.join(known)}")
            if key in names:
                raise SpecError("solve.solvers", f"solver {v!r} is listed twice")
            names.append(key)
        solvers = tuple(names)
    tol = _open_unit(t["tol"], "solve.tol") if "tol" in t else None
    max_iter = _int(t["max_iter"], "solve.max_iter", minimum=1) if "max_iter" in t else None
    time_limit = _positive(t["time_limit"], "solve.time_limit") if "time_limit" in t else None
    return SolveSpec(solvers=solvers, tol=tol, max_iter=max_iter, time_limit=time_limit)


# ---------------------------------------------------------------------------------------
# building
# ---------------------------------------------------------------------------------------


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
    from . import data as ckdata

    o = dict(d.options)
    if d.source == "dataset":
        try:
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
            fld = "data.label_column" if exc.argument == "label_column" else "data.csv"
            raise SpecError(fld, _strip_arg(exc)) from None
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


def _split(y: np.ndarray, s: SplitSpec) -> tuple[np.ndarray, np.ndarray]:
    """Seeded train/test indices (sorted, i.e. in data order).

    Stratified: within each class, a permutation drawn from ``default_rng(seed)`` puts
    ``round(test_size * n_class)`` of its points in the test set.
    """
    rng = np.random.default_rng(s.seed)
    n = y.size
    if s.stratify:
        test_parts = []
        for c in (1.0, -1.0):
            idx = np.flatnonzero(y == c)
            k = int(round(s.test_size * idx.size))
            if k < 1 or k > idx.size - 1:
                raise SpecError(
                    "split.test_size",
                    f"{s.test_size} of the {idx.size} points of class {c:+.0f} leaves "
                    "none on one side of the split",
                )
            test_parts.append(rng.permutation(idx)[:k])
        test = np.sort(np.concatenate(test_parts))
    else:
        k = int(round(s.test_size * n))
        if k < 1 or k > n - 2:
            raise SpecError("split.test_size",
                            f"{s.test_size} of {n} points leaves an empty side")
        test = np.sort(rng.permutation(n)[:k])
    mask = np.zeros(n, dtype=bool)
    mask[test] = True
    return np.flatnonzero(~mask), test


def _build(spec: ProblemSpec, progress: Callable[[str], None]) -> Instance:
    from .kernels import make_kernel

    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    progress(f"loading data ({spec.data.describe()})...")
    X, y = _load_data(spec.data)
    if np.unique(y).size != 2:
        raise SpecError("data", f"the data have a single class ({np.unique(y).tolist()})")
    if spec.split is not None:
        tr, te = _split(y, spec.split)
        X_train, y_train, X_test, y_test = X[tr], y[tr], X[te], y[te]
        if np.unique(y_train).size != 2:
            raise SpecError("split", "the training part has a single class; stratify it")
    else:
        X_train, y_train, X_test, y_test = X, y, None, None
    mean = scale = None
    if spec.preprocess.standardize:
        mean = X_train.mean(axis=0)
        scale = X_train.std(axis=0)
        scale = np.where(scale > 0, scale, 1.0)
        X_train = (X_train - mean) / scale
        if X_test is not None:
            X_test = (X_test - mean) / scale
    timings["data"] = time.perf_counter() - t0
    if spec.split is not None:
        progress(f"split: {y_train.size} train / {y_test.size} test "  # type: ignore[union-attr]
                 f"({'stratified, ' if spec.split.stratify else ''}seed {spec.split.seed})")

    fn = spec.formulation.builder_function()
    sig = _signature(fn)
    kernel = K_train = K_test = None
    if spec.kernel is not None:
        params = dict(spec.kernel.params)
        if params.get("gamma") == "scale":
            var = float(X_train.var())
            if not var > 0:
                raise SpecError("kernel.gamma", "'scale' needs features with nonzero variance")
            params["gamma"] = 1.0 / (X_train.shape[1] * var)
        try:
            kernel = make_kernel(spec.kernel.name, **params)
        except (InvalidInputError, InvalidTypeError) as exc:
            raise SpecError(f"kernel.{exc.argument}", _strip_arg(exc)) from None
        t1 = time.perf_counter()
        progress(f"building kernel {kernel!r} (n={y_train.size})...")
        try:
            K_train = kernel(X_train)
            K_test = kernel(X_test, X_train) if X_test is not None else None
        except (InvalidInputError, InvalidTypeError) as exc:
            raise SpecError("kernel", f"{spec.kernel.name} on these data: {exc}") from None
        timings["kernel"] = time.perf_counter() - t1

    kwargs = dict(spec.formulation.params)
    for p in sig.parameters:
        if p in _KERNEL_ARGS:
            kwargs[p] = K_train
        elif p in _FEATURE_ARGS:
            kwargs[p] = X_train
        elif p in _LABEL_ARGS:
            kwargs[p] = y_train
    t2 = time.perf_counter()
    progress(f"building formulation {spec.formulation.name} (n={y_train.size})...")
    try:
        f = fn(**kwargs)
    except (InvalidInputError, InvalidTypeError) as exc:
        arg = exc.argument
        if arg in spec.formulation.params:
            fld = f"formulation.{arg}"
        elif arg in _KERNEL_ARGS:
            fld = "kernel"
        elif arg in _FEATURE_ARGS or arg in _LABEL_ARGS:
            fld = "data"
        else:
            fld = f"formulation.{arg}" if arg in sig.parameters else "formulation"
        raise SpecError(fld, f"{spec.formulation.name}: {arg} {_strip_arg(exc)}") from None
    except ConvexkernError:
        raise
    except ValueError as exc:
        raise SpecError("formulation", f"{spec.formulation.name}: {exc}") from None
    if not isinstance(f, Formulation):
        raise SpecError("formulation.name", f"{spec.formulation.name} returned "
                                            f"{type(f).__name__}, not a Formulation")
    timings["formulation"] = time.perf_counter() - t2
    return Instance(
        spec=spec, X_train=X_train, y_train=y_train, X_test=X_test, y_test=y_test,
        kernel=kernel, K_train=K_train, K_test=K_test, formulation=f,
        timings=MappingProxyType(timings), feature_mean=mean, feature_scale=scale,
    )
