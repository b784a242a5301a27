"""The reproductions behind ``convexkern reproduce PAPER``, as data.

Each entry names the paper, the title of its report and the function that runs it as
``"module:function"``; the module is imported only when the reproduction runs (like the
solver table, :mod:`convexkern.solvers.table`).  Listing the reproductions therefore
imports none of them, and no module registers anything as a side effect of being
imported.  A user's own reproduction joins the table at run time through
:func:`register`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..errors import InvalidInputError, InvalidTypeError

__all__ = ["ReproductionSpec", "REPRODUCTIONS", "register"]

#: ``fn(ctx: Context) -> ReproductionResult`` (see :mod:`.harness`)
Runner = Callable[[Any], Any]


@dataclass(frozen=True, kw_only=True)
class ReproductionSpec:
    """One reproduction: its name, the title of its report, and what runs it."""

    name: str
    title: str
    #: ``"module:function"`` (imported when run) or, for a user's registration, the function
    target: str | Runner
    #: whether ``datasets=`` (``--datasets``) narrows it; refused otherwise
    takes_datasets: bool = False

    def function(self) -> Runner:
        """The function that runs the reproduction, importing its module if needed."""
        if callable(self.target):
            return self.target
        module, _, attr = self.target.partition(":")
        return getattr(importlib.import_module(module), attr)


def _builtin(name: str, title: str, *, takes_datasets: bool = False) -> ReproductionSpec:
    """A reproduction shipped with the package: the function ``reproduce`` of the module
    ``convexkern.reproduce.<name>``."""
    return ReproductionSpec(name=name, title=title, target=f"{__package__}.{name}:reproduce",
                            takes_datasets=takes_datasets)


_ENTRIES = (
    _builtin("luss2007", "Luss & d'Aspremont (NIPS 2007): robust SVM with indefinite kernels"),
    _builtin("abe2012", "Abe (ICANN 2012): LP-trained Mahalanobis kernels, Table 1",
             takes_datasets=True),
    _builtin("graepel2003", "Graepel & Herbrich (NIPS 2003): Semidefinite Programming Machines"),
    _builtin("loosli2019", "Loosli (ESANN 2019): TrIK-SVM vs KSVM in Kreĭn spaces"),
)

_table: dict[str, ReproductionSpec] = {e.name: e for e in _ENTRIES}

#: read-only view of the table (a user's additions go through :func:`register`)
REPRODUCTIONS: Mapping[str, ReproductionSpec] = MappingProxyType(_table)


def register(name: str, *, title: str) -> Callable[[Runner], Runner]:
    """Add a user's reproduction to the table under ``name``.

    Use as a decorator, called explicitly from the user's own code (no convexkern module
    registers anything on import)::

        @register("mypaper", title="Me (2026): my table")
        def reproduce(ctx):
            ...
            return ReproductionResult("mypaper", markdown)

    A built-in name cannot be taken.
    """
    if not isinstance(name, str) or not name:
        raise InvalidTypeError("name", f"expected a non-empty string, got {name!r}")
    if name in {e.name for e in _ENTRIES}:
        raise InvalidInputError("name", f"'{name}' is a built-in reproduction")

    def decorator(fn: Runner) -> Runner:
        if not callable(fn):
            raise InvalidTypeError("fn", f"expected a function, got {type(fn).__name__}")
        _table[name] = ReproductionSpec(name=name, title=title, target=fn)
        return fn

    return decorator
