"""Validation of the TOML tables: every field is checked and a bad one raises
:class:`~convexkern.errors.SpecError` naming it (``"kernel.gamma"``, ``"data.dataset"``...).
What can only be checked against the data is checked when the spec is built
(:mod:`.build`)."""

from __future__ import annotations

import inspect
import math
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .._validation import check_open_unit, check_seed
from ..errors import InvalidInputError, InvalidTypeError, SpecError
from ..formulation import Formulation
from .dispatch import (
    _DATA_ARGS,
    _KERNEL_ARGS,
    _all_builders,
    _feedable,
    _resolve_builder,
    _signature,
)
from .model import (
    DataSpec,
    FormulationSpec,
    KernelSpec,
    PreprocessSpec,
    SolveSpec,
    SplitSpec,
    _as_list,
    _strip_arg,
)
from .problem import ProblemSpec

#: Generators accepted by ``data.generator`` (scikit-learn ``make_<name>``).
GENERATORS: tuple[str, ...] = ("blobs", "moons", "circles")

_SECTIONS = ("data", "split", "preprocess", "kernel", "formulation", "solve")
_TOP_KEYS = ("name", "description", *_SECTIONS)
_DATA_SOURCES = ("dataset", "csv", "generator")
_DATA_KEYS = {  # per generator: _GENERATOR_KEYS
    "dataset": ("dataset", "positive", "negative", "task"),
    "csv": ("csv", "label_column", "delimiter", "positive", "negative", "task"),
}
#: ``data.task``: classes mapped to -1/+1, or a real target kept as it is
TASKS = ("classification", "regression")
_GENERATOR_KEYS = {
    "blobs": ("generator", "n_samples", "seed", "n_features", "cluster_std", "centers"),
    "moons": ("generator", "n_samples", "seed", "noise"),
    "circles": ("generator", "n_samples", "seed", "noise", "factor"),
}
_SPLIT_KEYS = ("test_size", "seed", "stratify")
#: The largest kernel matrix a generated data set may need, in bytes (4 GiB, i.e.
#: ``n_samples <= 23170``): a spec asking for more is refused before anything is built.
MAX_GRAM_BYTES = 4 * 2**30
#: The largest feature matrix a generated data set may have, in bytes (1 GiB: ``8
#: n_samples n_features``): the split, standardising and the kernel each copy ``X``, so a
#: few copies stay within a few GiB, as :data:`MAX_GRAM_BYTES` bounds the kernel matrix.
MAX_FEATURE_BYTES = 2**30
#: The largest time limit a spec, a suite or ``--time-limit`` takes, in seconds (1e6 s,
#: 11.6 days): a larger one is a typo or a stand-in for "none", and past it the timers
#: beneath (a poll's milliseconds, a solver's time_t) overflow.
MAX_TIME_LIMIT = 1e6
_PREPROCESS_KEYS = ("standardize",)
_SOLVE_KEYS = ("solvers", "tol", "max_iter", "time_limit")


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
    """A number strictly between 0 and 1 (``tol``, ``test_size``, ``factor``), by the one
    open-unit check of :func:`convexkern._validation.check_open_unit`."""
    try:
        return check_open_unit(v, fld)
    except (InvalidInputError, InvalidTypeError) as exc:
        raise SpecError(fld, _strip_arg(exc)) from None


def _seed(v: Any, fld: str) -> int:
    """A seed in ``[0, 2**32 - 1]`` (numpy's and scikit-learn's range), by the one seed
    check :func:`convexkern._validation.check_seed`."""
    if isinstance(v, bool) or not isinstance(v, int):
        raise SpecError(fld, f"must be an integer, got {_tname(v)} {v!r}")
    try:
        return check_seed(v, fld)
    except (InvalidInputError, InvalidTypeError) as exc:
        raise SpecError(fld, _strip_arg(exc)) from None


def _n_samples(v: Any) -> int:
    """``n_samples`` of a generator: >= 4, and small enough that the n x n Gram matrix of
    float64 (``8 n^2`` bytes) stays within :data:`MAX_GRAM_BYTES`."""
    n = _int(v, "data.n_samples", minimum=4)
    need = 8 * n * n
    if need > MAX_GRAM_BYTES:
        n_max = math.isqrt(MAX_GRAM_BYTES // 8)
        raise SpecError(
            "data.n_samples",
            f"{n} samples need a {n} x {n} kernel matrix of {need / 2**30:.1f} GiB (8 n^2 "
            f"bytes), above the cap of {MAX_GRAM_BYTES / 2**30:g} GiB; use n_samples <= "
            f"{n_max}")
    return n


def _n_features(v: Any, n_samples: int) -> int:
    """``n_features`` of a generator: >= 1, and small enough that the feature matrix of
    float64 (``8 n_samples n_features`` bytes) stays within :data:`MAX_FEATURE_BYTES`."""
    d = _int(v, "data.n_features", minimum=1)
    need = 8 * n_samples * d
    if need > MAX_FEATURE_BYTES:
        raise SpecError(
            "data.n_features",
            f"{n_samples} samples of {d} features need a feature matrix of "
            f"{need / 2**30:.3g} GiB (8 n_samples n_features bytes), above the cap of "
            f"{MAX_FEATURE_BYTES / 2**30:g} GiB; use n_features <= "
            f"{MAX_FEATURE_BYTES // (8 * n_samples)}")
    return d


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

    data_t = _section(raw, "data")
    data = _parse_data(data_t, base) if data_t is not None else None
    split_t = _section(raw, "split")
    split = _parse_split(split_t) if split_t is not None else None
    if split is not None and data is not None and data.task == "regression" and split.stratify:
        if "stratify" in split_t:  # type: ignore[operator]
            raise SpecError("split.stratify", "a regression target has no classes to "
                                              "stratify by: set stratify = false")
        split = SplitSpec(test_size=split.test_size, seed=split.seed, stratify=False)
    pre_t = _section(raw, "preprocess")
    preprocess = _parse_preprocess(pre_t) if pre_t is not None else PreprocessSpec()
    folder = path.parent if path is not None else base  # where a plugin module is looked for
    formulation, builder = _parse_formulation(
        _section(raw, "formulation", required=True), folder,  # type: ignore[arg-type]
        with_data=data is not None)
    if data is None:
        _check_data_free(formulation, builder, raw)
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


def _check_data_free(formulation: FormulationSpec, builder: Any,
                     raw: Mapping[str, Any]) -> None:
    """A spec without ``[data]``: a problem the builder makes from its own parameters
    (an SDP, a theta function); no section that needs data, no builder argument that
    takes it."""
    takes = [p for p in _signature(builder).parameters
             if p in _DATA_ARGS]
    if takes:
        raise SpecError("data", f"the [data] section is required: formulation "
                                f"{formulation.name} takes {', '.join(takes)}")
    for section in ("split", "preprocess", "kernel"):
        if section in raw:
            raise SpecError(section, f"[{section}] needs data: a spec without a [data] "
                                     "section builds its problem from the formulation's "
                                     "own parameters")


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
        from ..data import available_datasets

        _check_keys(t, _DATA_KEYS["dataset"], "data")
        name = _str(t["dataset"], "data.dataset")
        known = available_datasets()
        if name not in known:
            raise SpecError("data.dataset", f"unknown data set {name!r}; available: "
                                            f"{', '.join(known)}")
        opts = _parse_classes(t)
        opts.update(_parse_task(t))
        return DataSpec("dataset", name, MappingProxyType(opts))
    if source == "csv":
        _check_keys(t, _DATA_KEYS["csv"], "data")
        rel = _str(t["csv"], "data.csv")
        p = Path(os.path.expanduser(rel))
        if not p.is_absolute():
            p = base / p
        opts = _parse_classes(t)
        opts.update(_parse_task(t))
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
        opts["n_samples"] = _n_samples(t["n_samples"])
    if "seed" in t:
        opts["seed"] = _seed(t["seed"], "data.seed")
    if "noise" in t:
        noise = _num(t["noise"], "data.noise")
        if noise < 0:
            raise SpecError("data.noise", f"must be >= 0, got {noise}")
        opts["noise"] = noise
    if "factor" in t:
        opts["factor"] = _open_unit(t["factor"], "data.factor")
    if "n_features" in t:
        opts["n_features"] = _n_features(t["n_features"], opts["n_samples"])
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


def _parse_task(t: Mapping[str, Any]) -> dict[str, Any]:
    """``task``: ``"classification"`` (the default) or ``"regression"``, which keeps the
    label column as a real target and takes no classes."""
    if "task" not in t:
        return {}
    task = _str(t["task"], "data.task")
    if task not in TASKS:
        raise SpecError("data.task", f"must be one of {', '.join(TASKS)}, got {task!r}")
    if task == "regression" and ("positive" in t or "negative" in t):
        raise SpecError("data.positive" if "positive" in t else "data.negative",
                        "a regression target has no classes: remove positive and negative")
    return {"task": task}


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


def _parse_split(t: dict[str, Any]) -> SplitSpec:
    _check_keys(t, _SPLIT_KEYS, "split")
    if "test_size" not in t:
        raise SpecError("split.test_size", "is required in [split] (a fraction in (0, 1))")
    return SplitSpec(
        test_size=_open_unit(t["test_size"], "split.test_size"),
        seed=_seed(t.get("seed", 0), "split.seed"),
        stratify=_bool(t.get("stratify", True), "split.stratify"),
    )


def _parse_preprocess(t: dict[str, Any]) -> PreprocessSpec:
    _check_keys(t, _PREPROCESS_KEYS, "preprocess")
    return PreprocessSpec(standardize=_bool(t.get("standardize", False),
                                            "preprocess.standardize"))


def _parse_kernel(t: dict[str, Any]) -> KernelSpec:
    from ..kernels import KERNEL_NAMES, make_kernel

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


def _parse_formulation(t: dict[str, Any], folder: Path, with_data: bool = True
                       ) -> tuple[FormulationSpec, Callable[..., Formulation]]:
    if "name" not in t:
        raise SpecError("formulation.name",
                        f"is required; available: {', '.join(_all_builders())}")
    name = _str(t["name"], "formulation.name").strip()
    fn, _ = _resolve_builder(name, folder)
    sig = _signature(fn)
    if with_data and not _feedable(fn):
        raise SpecError("formulation.name",
                        f"{name} takes neither a kernel matrix (K, K0) nor features (X), so "
                        "a spec cannot feed it data (a problem built from its parameters "
                        "alone: leave out [data]); usable: "
                        f"{', '.join(_all_builders())}")
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
    for key, value in params.items():  # a boolean parameter takes a TOML boolean only
        p = sig.parameters.get(key)
        if p is not None and (isinstance(p.default, bool) or p.annotation in (bool, "bool")):
            _bool(value, f"formulation.{key}")
    for p in sig.parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or p.name in _DATA_ARGS:
            continue
        if p.kind is p.POSITIONAL_ONLY:
            raise SpecError("formulation.name",
                            f"{name} has the positional-only parameter {p.name!r}, which a "
                            "spec cannot set")
        if p.default is inspect.Parameter.empty and p.name not in params:
            raise SpecError(f"formulation.{p.name}", f"is required by {name}")
    return FormulationSpec(name, MappingProxyType(params), folder=str(folder)), fn


def _known_solvers() -> list[str]:
    from ..solvers import solver_info

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
    tol = _solve_tol(t["tol"]) if "tol" in t else None
    max_iter = _int(t["max_iter"], "solve.max_iter", minimum=1) if "max_iter" in t else None
    time_limit = None
    if "time_limit" in t:
        time_limit = _positive(t["time_limit"], "solve.time_limit")
        if time_limit > MAX_TIME_LIMIT:
            raise SpecError("solve.time_limit", f"must be at most {MAX_TIME_LIMIT:g} s "
                                                f"(11.6 days), got {t['time_limit']!r}")
    return SolveSpec(solvers=solvers, tol=tol, max_iter=max_iter, time_limit=time_limit)


def _solve_tol(v: Any) -> float:
    """``solve.tol``: in (0, 1) and not below the tolerance policy's floor
    (:data:`convexkern.solvers.TOLERANCE`), checked here so that the error names the key
    (the solver's own check names its argument, ``tol``)."""
    from ..solvers import TOLERANCE

    tol = _open_unit(v, "solve.tol")
    if tol < TOLERANCE.tol_floor:
        raise SpecError("solve.tol", f"must be >= {TOLERANCE.tol_floor:g}: a relative gap of "
                                     f"{v!r} is below what a certificate computed in double "
                                     "precision can prove")
    return tol
