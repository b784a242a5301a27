"""Solvers offered by installed packages: the ``convexkern.solvers`` entry-point group.

A package declares, in its ``pyproject.toml``::

    [project.entry-points."convexkern.solvers"]
    mymethod = "mypkg.solvers:register"

The entry point's *name* is the solver's name; its value is a function that takes no
argument and calls :func:`convexkern.register_solver` (see docs/plugins.md)::

    def register():
        from convexkern import register_solver
        register_solver("mymethod", kinds=["mypkg.dual"])(solve_mymethod)

Nothing is read when ``convexkern`` is imported (no module registers anything on import).
The group is read lazily: the entry point of one name the first time that name is not in
the table (:func:`convexkern.solve` with ``solver="mymethod"``), every entry point the
first time the list of solvers is asked for (:func:`convexkern.installed_solvers`,
:func:`~convexkern.solver_info`, :func:`~convexkern.available_solvers`,
:func:`~convexkern.compare` without ``solvers``).  Each entry point is tried at most once
per process.

A plugin that fails (its module does not import, its function raises, it registers no
solver of its name, or its name is a built-in solver's) is skipped with a
:class:`PluginWarning` naming it and saying why; the other solvers are untouched, and a
solve that names it gets a :class:`~convexkern.errors.SolverNotFoundError` with the same
reason.  A name the user's own code registered first keeps the user's registration.
"""

from __future__ import annotations

import importlib.metadata
import threading
import warnings
from typing import Any

from .table import _ALGORITHM_ENTRIES, ALGORITHMS, CONIC

__all__ = ["ENTRY_POINT_GROUP", "PluginWarning", "load_solver_plugins", "plugin_failure",
           "plugin_source"]

#: the entry-point group read for solvers
ENTRY_POINT_GROUP = "convexkern.solvers"

_BUILT_IN = frozenset(CONIC) | frozenset(s.name for s in _ALGORITHM_ENTRIES)
_lock = threading.RLock()
_tried: set[str] = set()  # entry-point names (lower case) already tried
_failed: dict[str, str] = {}  # entry-point name -> why it was skipped
_sources: dict[str, str] = {}  # solver registered by a plugin -> its distribution
_all_read = False


class PluginWarning(UserWarning):
    """An installed plugin could not be loaded; the message names it and says why."""


def _entry_points(group: str) -> list[Any]:
    """The entry points of ``group`` (first of each name; none if the metadata is broken)."""
    try:
        eps = importlib.metadata.entry_points(group=group)
    except Exception as exc:  # broken metadata must not break a solve
        warnings.warn(f"convexkern: could not read the entry points of {group!r}: "
                      f"{type(exc).__name__}: {exc}", PluginWarning, stacklevel=3)
        return []
    seen: dict[str, Any] = {}
    for ep in eps:
        seen.setdefault(ep.name.lower(), ep)
    return list(seen.values())


def max_abs_diff(ep: Any) -> str:
    dist = getattr(ep, "dist", None)
    return f"{dist.name} {dist.version}" if dist is not None else ""


def _describe(ep: Any) -> str:
    where = f" from {max_abs_diff(ep)}" if max_abs_diff(ep) else ""
    return f"solver plugin '{ep.name}' ({ep.value}{where})"


def _load(ep: Any) -> None:
    key = ep.name.lower()
    what = _describe(ep)
    if key in _BUILT_IN:
        _fail(key, f"{what} is ignored: '{key}' is a built-in solver's name")
        return
    if key in ALGORITHMS:  # the user's own register_solver ran first: theirs wins
        return
    try:
        hook = ep.load()
        if key not in ALGORITHMS:  # not registered as a side effect of the import
            if not callable(hook):
                raise TypeError(f"{ep.value} is a {type(hook).__name__}, not a function "
                                "that calls convexkern.register_solver")
            hook()
    except Exception as exc:  # a broken plugin must not break the others
        _fail(key, f"{what} failed: {type(exc).__name__}: {exc}")
        return
    if key not in ALGORITHMS:
        _fail(key, f"{what} ran but registered no solver named '{key}' (its function must "
                   f"call convexkern.register_solver('{key}', kinds=[...]))")
        return
    _sources[key] = max_abs_diff(ep) or ep.value


def _fail(key: str, message: str) -> None:
    _failed[key] = message
    warnings.warn(message, PluginWarning, stacklevel=4)


def load_solver_plugins(name: str | None = None) -> None:
    """Read the ``convexkern.solvers`` entry points: the one called ``name`` (a solver
    name the table does not know), or every one (``name=None``); each at most once."""
    global _all_read
    with _lock:
        if _all_read:
            return
        key = None if name is None else name.lower()
        for ep in _entry_points(ENTRY_POINT_GROUP):
            ep_key = ep.name.lower()
            if (key is not None and ep_key != key) or ep_key in _tried:
                continue
            _tried.add(ep_key)
            _load(ep)
        if key is None:
            _all_read = True


def plugin_failure(name: str) -> str | None:
    """Why the solver plugin ``name`` was skipped (None: it was not)."""
    return _failed.get(name.lower())


def plugin_source(name: str) -> str | None:
    """The distribution (``"mypkg 0.1"``) whose entry point registered the solver
    ``name``; None for a built-in or a solver the user's code registered."""
    return _sources.get(name.lower())


def _reset() -> None:
    """Forget which entry points were read (for tests; registrations stay)."""
    global _all_read
    with _lock:
        _tried.clear()
        _failed.clear()
        _sources.clear()
        _all_read = False
