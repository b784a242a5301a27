"""Finding and reading spec files: the shipped specs (package data read through
:mod:`importlib.resources`), paths, :func:`read_toml` (also the benchmark suites' reader)
and :func:`load_spec`."""

from __future__ import annotations

import os
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

from ..errors import SpecError
from .problem import ProblemSpec
from .validate import _parse


def _shipped_dir() -> Any:
    """The shipped specs: the repository's top-level ``problems/``, installed as the data
    package ``convexkern.problems`` (pyproject's ``package-dir`` maps one to the other)."""
    return resources.files("convexkern.problems")


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


def read_toml(path: Path, where: str = "toml", *, unreadable: str | None = None,
              ) -> dict[str, Any]:
    """The parsed TOML file at ``path``.  Invalid TOML raises :class:`SpecError` naming the
    field ``where`` and the file; with ``unreadable``, so does a file that cannot be read
    (naming that field), which otherwise raises the ``OSError`` itself."""
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(where, f"{path}: {exc}") from None
    except OSError as exc:
        if unreadable is None:
            raise
        raise SpecError(unreadable, f"cannot read {path}: {exc.strerror or exc}") from None


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
        raw = read_toml(path, unreadable="spec")
    else:
        raise SpecError(
            "spec", f"expected a path, a shipped spec name or a dict, got {type(spec).__name__}"
        )
    if base_dir is None:
        base = path.parent if path is not None else Path.cwd()
    else:
        base = Path(os.fspath(base_dir))
    return _parse(raw, path, base)
