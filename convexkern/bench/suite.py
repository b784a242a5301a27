"""Benchmark suites: TOML files listing problems, read and validated here.

A suite names problems (a formulation on a shipped data set, at one or more sizes, with
its hyper-parameters) and the controls every (problem, solver) pair runs with::

    name = "quick"
    description = "seconds; what CI runs"
    tol = 1e-6              # target relative certified gap, the same for every solver
                            # (not below the certificate's floor, TOLERANCE.tol_floor)
    time_limit = 20.0       # seconds per (problem, solver) pair, a hard limit (<= 1e6)
    seed = 0                # seed of the size subsamples, in [0, 2**32 - 1]
    solvers = ["clarabel", "scs", "smo"]   # optional; default: every applicable solver

    [[problem]]
    name = "svm_dual_pima"
    spec = "svm_pima_rbf"   # a problem spec (convexkern.specs): shipped name, path or table
    sizes = [60, 120]       # training points kept: a stratified subsample of the spec's
                            # training part (omitted: all of it)
    [problem.override.formulation]   # optional: keys replacing the spec's own
    C = 10.0                # (drop = ["kernel"] removes a section of the spec)

    [[problem]]
    name = "lp_dual_thyroid"
    builder = "convexkern.bench.factories:lp_dual"  # fn(X, y, **params) -> Formulation
    sizes = [100]
    [problem.data]          # with builder: the spec sections that make X, y
    dataset = "thyroid"     # (data, split, preprocess), validated as in a spec
    positive = 3
    negative = "rest"
    [problem.params]        # keyword arguments of the builder
    C_M = 10.0

    [[problem]]
    name = "afiro"
    file = "netlib/afiro.mps"   # an MPS / QPS file, a CBF file (.cbf, .cbf.gz: CBLIB's
                                # format) or an SDPA sparse file (.dat-s, with
                                # form = "primal" or "dual": SDPA's (P) or (D)): a shipped
                                # public one (convexkern.data.mps.public_file; one of the
                                # 138 Maros-Meszaros files is fetched on first use, checked
                                # against its checksum), or a path relative to the suite
                                # file
    optimum = -464.75314286     # optional: a published optimal value; every certified
    optimum_digits = 11         # bracket is checked against it (slack: half a unit of the
                                # last published digit plus 1e-9 relative)

    [[problem]]
    name = "socp_3_ax0"
    cvxpy = "socp_3"            # a problem of cvxpy's standard test set
    args = [0]                  # (cvxpy.tests.solver_test_helpers.<name>(*args)), with
    optimum = -1.932105         # the optimum its test expects, as for a file

    [[problem]]
    name = "galenet"
    file = "netlib_infeasible/galenet.mps"
    expect = "infeasible"       # a file or cvxpy problem with no optimum: "infeasible" or
                                # "unbounded"; a pair succeeds when its report says so
                                # (a solver's claim is reported only once proven)

Every field is checked by :func:`load_suite`; a bad one raises
:class:`~convexkern.errors.SpecError` naming it (``"problem[2].sizes"``, ``"time_limit"``,
``"problem[0].spec.kernel.gamma"``...).  What needs the data (a size larger than the
training part) is checked when the problem is built, with the same kind of error.
"""

from __future__ import annotations

import copy
import hashlib
import importlib
import json
import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import SpecError

__all__ = ["Suite", "Problem", "load_suite", "available_suites"]

_TOP_KEYS = ("name", "description", "tol", "time_limit", "seed", "solvers", "problem")
_PROBLEM_KEYS = ("name", "spec", "builder", "sizes", "solvers", "override", "drop", "params",
                 "data", "split", "preprocess", "kernel", "file", "optimum", "optimum_digits",
                 "form", "cvxpy", "args", "expect")
_DATA_SECTIONS = ("data", "split", "preprocess", "kernel")
#: the placeholder formulation that lets the spec validator check a builder problem's data
_PLACEHOLDER = {"name": "svm.primal"}


@dataclass(frozen=True)
class Problem:
    """One problem of a suite at one size (``n=None``: the spec's whole training part).

    ``spec`` is the resolved spec as a dict (with overrides applied); ``builder`` is
    ``"module:function"`` or ``None`` (the spec's own formulation).  A file problem has
    ``file`` (the resolved path of an MPS / QPS file), an empty ``spec``, and optionally
    the published ``optimum`` with its ``slack``.
    """

    name: str
    n: int | None
    spec: Mapping[str, Any]
    base_dir: str
    builder: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    solvers: tuple[str, ...] | None = None
    seed: int = 0
    file: str | None = None
    optimum: float | None = None
    slack: float = 0.0
    form: str = "primal"
    cvxpy: str | None = None
    args: tuple[Any, ...] = ()
    #: the status a pair must report to succeed: ``"optimal"`` (a certified gap within
    #: the suite's tol), ``"infeasible"`` or ``"unbounded"`` (a proven claim)
    expect: str = "optimal"
    #: the public name of a file fetched on first use (``"maros_meszaros/AUG2D.QPS"``):
    #: ``file`` is its place in the cache, filled (or its checksums checked again) before
    #: a run (:func:`convexkern.data.fetched.fetch`)
    fetch: str | None = None

    @property
    def id(self) -> str:
        """The row label: ``name@n`` (``name`` without a size)."""
        return self.name if self.n is None else f"{self.name}@{self.n}"

    @property
    def formulation_label(self) -> str:
        """What the per-formulation tables group by: the builder or the spec's name."""
        if self.builder is not None:
            return self.builder.rpartition(":")[2]
        if self.cvxpy is not None:
            return "cvxpy standard"
        if self.file is not None:
            if self.file.endswith(".dat-s"):
                return f"sdp (SDPA file, {self.form})"
            if self.file.endswith((".cbf", ".cbf.gz")):
                return "conic (CBF file)"
            return "qp (QPS file)" if self.file.upper().endswith(".QPS") else "lp (MPS file)"
        f = self.spec["formulation"]
        extra = f.get("decomposition")
        return f["name"] + (f"[{extra}]" if extra else "")

    def key(self) -> str:
        """A digest of everything that defines the instance (for the results cache),
        the *contents* of the files it is read from among it (:meth:`sources`): a path
        alone would keep a result after its file changed."""
        sources = self.sources()
        blob = json.dumps({"spec": self.spec, "base": self.base_dir, "n": self.n,
                           "builder": self.builder, "params": self.params,
                           "seed": self.seed, "file": self.file, "form": self.form,
                           "optimum": self.optimum, "cvxpy": self.cvxpy,
                           "args": list(self.args),
                           # absent when "optimal": earlier suites' cached rows stay valid
                           **({"expect": self.expect} if self.expect != "optimal" else {}),
                           # absent without user files: shipped problems keep their keys
                           **({"sources": sources} if sources else {})},
                          sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def sources(self) -> dict[str, str]:
        """Path -> content digest of the user's files the instance is read from: an MPS /
        QPS / CBF / SDPA ``file``, a spec's ``data.csv``, and the module file of a builder
        (a suite's ``builder`` or a spec's ``formulation.name = "module:function"``) that is
        not convexkern's own (whose code is in the cache key already, as the runner's code
        version).  A file that cannot be read has no digest (its build fails, by name)."""
        paths: list[Path] = []
        if self.file is not None:
            paths.append(Path(self.file))
        data = self.spec.get("data")
        if isinstance(data, Mapping) and isinstance(data.get("csv"), str):
            p = Path(os.path.expanduser(data["csv"]))
            paths.append(p if p.is_absolute() else Path(self.base_dir) / p)
        paths += [p for p in (self._builder_file(),) if p is not None]
        return {str(p): d for p in paths if (d := _file_digest(p)) is not None}

    def _builder_file(self) -> Path | None:
        """The source file of the user's builder module (None: none, or convexkern's)."""
        import inspect

        from ..specs.plugins import is_plugin_name, resolve_plugin

        fn: Any = None
        try:
            if self.builder is not None:
                fn = _builder_function(self.builder, "builder")
            else:
                name = (self.spec.get("formulation") or {}).get("name")
                if isinstance(name, str) and is_plugin_name(name):
                    fn = resolve_plugin(name, self.base_dir)
            source = inspect.getsourcefile(fn) if fn is not None else None
        except (SpecError, TypeError, OSError):
            return None
        if source is None:
            return None
        path = Path(source).resolve()
        own = Path(__file__).resolve().parents[1]
        return None if path.is_relative_to(own) else path


#: (path, mtime_ns, size) -> sha256 of the file: a large file is read once per run
_DIGESTS: dict[tuple[str, int, int], str] = {}


def _file_digest(path: Path) -> str | None:
    """The sha256 of a file's content (None when it cannot be read)."""
    try:
        st = path.stat()
        memo = (str(path), st.st_mtime_ns, st.st_size)
        if memo not in _DIGESTS:
            h = hashlib.sha256()
            with open(path, "rb") as fh:
                for chunk in iter(lambda: fh.read(1 << 20), b""):
                    h.update(chunk)
            _DIGESTS[memo] = h.hexdigest()[:16]
        return _DIGESTS[memo]
    except OSError:
        return None


@dataclass(frozen=True)
class Suite:
    """A validated suite: its controls and the problems, one per size."""

    name: str
    description: str
    tol: float
    time_limit: float
    seed: int
    solvers: tuple[str, ...] | None
    problems: tuple[Problem, ...]
    path: str | None = None


def _suites_dir() -> Any:
    return resources.files("convexkern.bench").joinpath("suites")


def available_suites() -> list[str]:
    """Names of the suites shipped with the package, sorted."""
    return sorted(e.name[:-5] for e in _suites_dir().iterdir() if e.name.endswith(".toml"))


def _suite_path(name_or_path: str | os.PathLike[str]) -> Path:
    p = Path(os.fspath(name_or_path))
    if p.is_file():
        return p
    stem = p.name[:-5] if p.name.endswith(".toml") else p.name
    stem = stem.replace("-", "_")  # maros-meszaros-small names maros_meszaros_small
    if p.parent == Path(".") and stem in available_suites():
        return Path(str(_suites_dir().joinpath(f"{stem}.toml")))
    raise SpecError("suite", f"no suite file {os.fspath(name_or_path)!r} and no shipped suite "
                             f"of that name; shipped suites: {', '.join(available_suites())}")


def _safe_name(name: str) -> str:
    """A suite's name becomes a folder under ``--out-dir``: letters, digits, ``-``, ``_``
    and ``.`` only, not starting with a dot (no separators, no ``..``, not absolute)."""
    import re

    if not re.fullmatch(r"[A-Za-z0-9_-][A-Za-z0-9_.-]*", name):
        raise SpecError("name", f"{name!r} must be a plain folder name (letters, digits, "
                                "'-', '_', '.'; no path separators, not starting with '.'): "
                                "the report is written to <out-dir>/<name>")
    return name


def load_suite(suite: str | os.PathLike[str] | Mapping[str, Any]) -> Suite:
    """Read and validate a suite: a shipped name, a TOML path, or the parsed dict.

    Raises :class:`SpecError` naming the offending field.
    """
    from ..specs.files import read_toml

    path: Path | None = None
    if isinstance(suite, Mapping):
        raw, base = dict(suite), Path.cwd()
    elif isinstance(suite, (str, os.PathLike)):
        path = _suite_path(suite)
        raw = read_toml(path)
        base = path.parent
    else:
        raise SpecError("suite", f"expected a name, a path or a dict, got {type(suite).__name__}")
    _keys(raw, _TOP_KEYS, "")
    name = _safe_name(_text(raw.get("name", path.stem if path else ""), "name"))
    description = raw.get("description", "")
    if not isinstance(description, str):
        raise SpecError("description", f"must be a string, got {description!r}")
    tol = _tol(raw.get("tol", 1e-6), "tol")
    time_limit = _time_limit(raw.get("time_limit", 60.0), "time_limit")
    seed = _seed(raw.get("seed", 0), "seed")
    solvers = _solvers(raw["solvers"], "solvers") if "solvers" in raw else None
    items = raw.get("problem")
    if not isinstance(items, list) or not items or not all(isinstance(t, dict) for t in items):
        raise SpecError("problem", "give at least one [[problem]] table")
    problems: list[Problem] = []
    seen: set[str] = set()
    for i, t in enumerate(items):
        for p in _problem(t, f"problem[{i}]", base, seed):
            if p.id in seen:
                raise SpecError(f"problem[{i}].name", f"{p.id!r} appears twice")
            seen.add(p.id)
            problems.append(p)
    return Suite(name=name, description=description, tol=tol,
                 time_limit=time_limit, seed=seed, solvers=solvers,
                 problems=tuple(problems), path=None if path is None else str(path))


def _problem(t: dict[str, Any], where: str, base: Path, seed: int) -> list[Problem]:
    from ..specs import load_spec

    _keys(t, _PROBLEM_KEYS, where)
    name = _text(t.get("name"), f"{where}.name")
    kinds = [k for k in ("spec", "builder", "file", "cvxpy") if k in t]
    if len(kinds) != 1:
        raise SpecError(f"{where}.spec", "give exactly one of spec (a problem spec), "
                                         "builder ('module:function' with [data]), file "
                                         "(an MPS / QPS / SDPA file) or cvxpy (a problem of "
                                         "cvxpy's standard test set)")
    if kinds == ["file"]:
        return [_file_problem(t, name, where, base, seed)]
    if kinds == ["cvxpy"]:
        return [_cvxpy_problem(t, name, where, base, seed)]
    has_spec = kinds == ["spec"]
    for k in ("optimum", "optimum_digits", "form", "args", "expect"):
        if k in t:
            raise SpecError(f"{where}.{k}", "belongs to a file or cvxpy problem")
    if has_spec:
        for k in ("params", *_DATA_SECTIONS):
            if k in t:
                raise SpecError(f"{where}.{k}", "belongs to a builder problem; with spec, "
                                                "use [problem.override.<section>]")
        spec, spec_base = _spec_dict(t["spec"], f"{where}.spec", base)
        builder, params = None, {}
    else:
        if "override" in t:
            raise SpecError(f"{where}.override", "applies to spec problems only (give the "
                                                 "builder's sections directly)")
        if "data" not in t:
            raise SpecError(f"{where}.data", "a builder problem needs [problem.data]")
        builder = _text(t["builder"], f"{where}.builder")
        _builder_function(builder, f"{where}.builder")
        spec = {k: t[k] for k in _DATA_SECTIONS if k in t}
        spec.update(name=name, formulation=dict(_PLACEHOLDER))
        params = t.get("params", {})
        if not isinstance(params, dict):
            raise SpecError(f"{where}.params", "must be a table of keyword arguments")
        spec_base = base
    if "override" in t:
        spec = _overridden(spec, t["override"], f"{where}.override")
    if "drop" in t:
        if builder is not None:
            raise SpecError(f"{where}.drop", "applies to spec problems only")
        drop = t["drop"]
        if not isinstance(drop, list) or not all(d in _DATA_SECTIONS[1:] for d in drop):
            raise SpecError(f"{where}.drop", f"must be an array of spec sections among "
                                             f"{', '.join(_DATA_SECTIONS[1:])}, got {drop!r}")
        spec = {k: v for k, v in spec.items() if k not in drop}
    try:
        load_spec(spec, base_dir=spec_base)
    except SpecError as exc:
        raise SpecError(f"{where}.spec.{exc.field}",
                        str(exc).split(": ", 1)[-1]) from None
    sizes: list[int | None] = [None]
    if "sizes" in t:
        s = t["sizes"]
        if not isinstance(s, list) or not s:
            raise SpecError(f"{where}.sizes", "must be a non-empty array of integers")
        sizes = [_int(v, f"{where}.sizes", 2) for v in s]
        if len(set(sizes)) != len(sizes):
            raise SpecError(f"{where}.sizes", f"has a size twice: {s}")
    solvers = _solvers(t["solvers"], f"{where}.solvers") if "solvers" in t else None
    return [Problem(name=name, n=n, spec=spec, base_dir=str(spec_base), builder=builder,
                    params=dict(params), solvers=solvers, seed=seed) for n in sizes]


def _file_problem(t: dict[str, Any], name: str, where: str, base: Path, seed: int) -> Problem:
    """A problem read from an MPS / QPS, CBF or SDPA file, with its published optimum if
    given."""
    from ..data.fetched import fetchable, local_path, public_root
    from ..data.mps import public_file

    for k in ("sizes", "override", "drop", "params", *_DATA_SECTIONS):
        if k in t:
            raise SpecError(f"{where}.{k}", "does not apply to a file problem (the file is "
                                            "the whole instance)")
    value = _text(t["file"], f"{where}.file")
    p = Path(value)
    if not p.is_absolute():
        p = base / p
    fetch = None
    if not p.is_file():
        entry = fetchable(value)
        if entry is not None:  # fetched (or its cached copy checked) before a run
            p = local_path(entry)
            fetch = None if p.parent == public_root() / entry.set else value
        else:
            try:
                p = public_file(value)
            except ValueError:
                raise SpecError(f"{where}.file", f"no file {value!r} beside the suite and no "
                                                 "public file of that name") from None
    optimum, slack = _optimum(t, where)
    expect = _expect(t, where, optimum)
    form = "primal"
    if "form" in t:
        form = _text(t["form"], f"{where}.form")
        if form not in ("primal", "dual") or not p.name.endswith(".dat-s"):
            raise SpecError(f"{where}.form", "is 'primal' or 'dual', for an SDPA file "
                                             f"(.dat-s); got {form!r} for {p.name}")
    solvers = _solvers(t["solvers"], f"{where}.solvers") if "solvers" in t else None
    return Problem(name=name, n=None, spec={}, base_dir=str(p.parent), solvers=solvers,
                   seed=seed, file=str(p.resolve()), optimum=optimum, slack=slack,
                   form=form, expect=expect, fetch=fetch)


def _optimum(t: Mapping[str, Any], where: str) -> tuple[float | None, float]:
    """A published optimum and its slack: half a unit of its last significant digit
    (``optimum_digits``, default 8) and 1e-9 relative."""
    if "optimum" not in t:
        if "optimum_digits" in t:
            raise SpecError(f"{where}.optimum_digits", "needs optimum")
        return None, 0.0
    optimum = _num(t["optimum"], f"{where}.optimum")
    digits = _int(t.get("optimum_digits", 8), f"{where}.optimum_digits", 1)
    unit = 10.0 ** (math.floor(math.log10(abs(optimum))) - digits + 1) if optimum else 0.0
    return optimum, 0.5 * unit + 1e-9 * abs(optimum) + 1e-12


#: what a suite problem may expect of its pairs
EXPECT = ("optimal", "infeasible", "unbounded")


def _expect(t: Mapping[str, Any], where: str, optimum: float | None) -> str:
    """The ``expect`` field: one of :data:`EXPECT`; a problem with no optimum has no
    published optimum either."""
    expect = _text(t.get("expect", "optimal"), f"{where}.expect")
    if expect not in EXPECT:
        raise SpecError(f"{where}.expect", f"is one of {', '.join(EXPECT)}; got {expect!r}")
    if expect != "optimal" and optimum is not None:
        raise SpecError(f"{where}.optimum", f"an {expect} problem has no optimum")
    return expect


def _cvxpy_problem(t: dict[str, Any], name: str, where: str, base: Path,
                   seed: int) -> Problem:
    """A problem of cvxpy's standard test set (``cvxpy.tests.solver_test_helpers``), by
    the name of its helper and the helper's arguments."""
    for k in ("sizes", "override", "drop", "params", "form", *_DATA_SECTIONS):
        if k in t:
            raise SpecError(f"{where}.{k}", "does not apply to a cvxpy problem")
    helper = _text(t["cvxpy"], f"{where}.cvxpy")
    from cvxpy.tests import solver_test_helpers as sth

    if not callable(getattr(sth, helper, None)) or helper.startswith("_"):
        raise SpecError(f"{where}.cvxpy", f"cvxpy's standard test set has no problem "
                                          f"{helper!r} (e.g. lp_1, socp_0, sdp_2, pcp_1)")
    args = t.get("args", [])
    if not isinstance(args, list) or not all(
            isinstance(a, (int, float, str)) and not isinstance(a, bool) for a in args):
        raise SpecError(f"{where}.args", f"must be an array of numbers or strings, got "
                                         f"{args!r}")
    optimum, slack = _optimum(t, where)
    expect = _expect(t, where, optimum)
    solvers = _solvers(t["solvers"], f"{where}.solvers") if "solvers" in t else None
    return Problem(name=name, n=None, spec={}, base_dir=str(base), solvers=solvers,
                   seed=seed, optimum=optimum, slack=slack, cvxpy=helper, args=tuple(args),
                   expect=expect)


def _spec_dict(value: Any, where: str, base: Path) -> tuple[dict[str, Any], Path]:
    """The spec as a dict (a name or path read from TOML) and the folder of its paths."""
    from ..specs import spec_path
    from ..specs.files import read_toml

    if isinstance(value, dict):
        return copy.deepcopy(value), base
    if not isinstance(value, str):
        raise SpecError(where, "must be a spec name, a path or a table")
    p = Path(value)
    if not p.is_absolute() and (base / p).is_file():
        p = base / p
    try:
        path = spec_path(p if p.is_file() else value)
    except SpecError as exc:
        raise SpecError(where, str(exc).split(": ", 1)[-1]) from None
    return read_toml(path, where), path.parent


def _overridden(spec: dict[str, Any], over: Any, where: str) -> dict[str, Any]:
    if not isinstance(over, dict) or not all(isinstance(v, dict) for v in over.values()):
        raise SpecError(where, "must be tables of spec sections, e.g. "
                               "[problem.override.formulation]")
    out = copy.deepcopy(spec)
    for section, keys in over.items():
        out.setdefault(section, {}).update(copy.deepcopy(keys))
    return out


def _builder_function(target: str, where: str) -> Callable[..., Any]:
    module, sep, attr = target.partition(":")
    if not sep or not module or not attr:
        raise SpecError(where, f"expected 'module:function', got {target!r}")
    try:
        fn = getattr(importlib.import_module(module), attr, None)
    except ImportError as exc:
        raise SpecError(where, f"cannot import {module!r}: {exc}") from None
    if not callable(fn):
        raise SpecError(where, f"{module!r} has no function {attr!r}")
    return fn


def _keys(t: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
    for k in t:
        if k not in allowed:
            fld = f"{where}.{k}" if where else k
            raise SpecError(fld, f"unknown key; allowed: {', '.join(allowed)}")


def _text(v: Any, fld: str) -> str:
    if not isinstance(v, str) or not v.strip():
        raise SpecError(fld, f"must be a non-empty string, got {v!r}")
    return v


def _num(v: Any, fld: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise SpecError(fld, f"must be a finite number, got {v!r}")
    return float(v)


def _unit(v: Any, fld: str) -> float:
    x = _num(v, fld)
    if not 0 < x < 1:
        raise SpecError(fld, f"must lie in (0, 1), got {v!r}")
    return x


def _pos(v: Any, fld: str) -> float:
    x = _num(v, fld)
    if not x > 0:
        raise SpecError(fld, f"must be positive, got {v!r}")
    return x


def _tol(v: Any, fld: str) -> float:
    """A suite's ``tol``: in (0, 1) and not below the tolerance policy's floor
    (:data:`convexkern.solvers.TOLERANCE`), as ``--tol``: below it every pair would end in
    ``error`` after the whole suite ran."""
    from ..solvers import TOLERANCE

    x = _unit(v, fld)
    if x < TOLERANCE.tol_floor:
        raise SpecError(fld, f"must be >= {TOLERANCE.tol_floor:g}: a relative gap of {v!r} "
                             "is below what a certificate computed in double precision can "
                             "prove")
    return x


def _time_limit(v: Any, fld: str) -> float:
    """A suite's ``time_limit``: positive and at most :data:`~convexkern.specs.validate.
    MAX_TIME_LIMIT` (the one cap of ``--time-limit`` and a spec's ``solve.time_limit``)."""
    from ..specs.validate import MAX_TIME_LIMIT

    x = _pos(v, fld)
    if x > MAX_TIME_LIMIT:
        raise SpecError(fld, f"must be at most {MAX_TIME_LIMIT:g} s (11.6 days), got {v!r}: "
                             "a larger limit is no bound a benchmark means")
    return x


def _seed(v: Any, fld: str) -> int:
    """A seed in ``[0, 2**32 - 1]``, the range of ``--seed`` (scikit-learn refuses others
    only when a problem is built, naming the problem, not the key)."""
    from .._validation import check_seed
    from ..errors import InvalidInputError, InvalidTypeError

    if isinstance(v, bool) or not isinstance(v, int):
        raise SpecError(fld, f"must be an integer, got {v!r}")
    try:
        return check_seed(v, fld)
    except (InvalidInputError, InvalidTypeError) as exc:
        raise SpecError(fld, str(exc).removeprefix(f"{fld}: ")) from None


def _int(v: Any, fld: str, minimum: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < minimum:
        raise SpecError(fld, f"must be an integer >= {minimum}, got {v!r}")
    return v


def _solvers(v: Any, fld: str) -> tuple[str, ...]:
    from ..solvers import solver_info

    if isinstance(v, str):
        v = [v]
    if not isinstance(v, list) or not v or not all(isinstance(s, str) for s in v):
        raise SpecError(fld, 'must be a non-empty array of solver names, e.g. ["clarabel"]')
    known = [r["name"] for r in solver_info()]
    names = [s.strip().lower() for s in v]
    for s in names:
        if s not in known:
            raise SpecError(fld, f"unknown solver {s!r}; known solvers: {', '.join(known)}")
    if len(set(names)) != len(names):
        raise SpecError(fld, f"a solver is listed twice: {v}")
    return tuple(names)
