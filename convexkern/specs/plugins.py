"""A user's own builder named in a spec: ``formulation.name = "module:function"``, and
builders offered by installed packages through the ``convexkern.formulations`` entry-point
group (docs/plugins.md).

``"module:function"`` (or ``"package.module:function"``): the module is looked up

1. in the spec file's folder (``<folder>/module.py`` or ``<folder>/module/__init__.py``;
   ``package/module.py`` for a dotted name),
2. in the current directory, the same way,
3. as an entry point called ``module`` in the group ``convexkern.formulations`` that names
   a module,
4. as an installed module (``import module``).

A module found in a folder is imported by its location, never by putting the folder on
``sys.path``: each folder becomes a private package (``_convexkern_user_<hash>``, its
``__path__`` the folder), so a module's relative imports (``from . import helpers``) reach
its neighbours and two folders holding a ``my_formulations.py`` each do not clash.  A
loaded module is kept per file and read again when the file changes.

``"name"`` (no dot, no colon): the entry point ``name`` of ``convexkern.formulations``,
which names a builder (``name = "mypkg.formulations:lp"``).  An entry point that names a
module instead is reached as ``"name:function"`` (step 3 above).

Every failure is a :class:`~convexkern.errors.SpecError` on ``formulation.name`` saying
where it looked or what went wrong (the import's own exception is chained).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.metadata
import importlib.util
import inspect
import os
import sys
import threading
import warnings
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from ..errors import SpecError
from ..solvers.plugins import PluginWarning

__all__ = ["ENTRY_POINT_GROUP", "is_plugin_name", "resolve_plugin", "entry_point_names"]

#: the entry-point group read for formulation builders
ENTRY_POINT_GROUP = "convexkern.formulations"

_FIELD = "formulation.name"
_NS_PREFIX = "_convexkern_user_"
_lock = threading.RLock()
#: module file -> (its (mtime_ns, size) when loaded, the module)
_loaded: dict[Path, tuple[tuple[int, int], ModuleType]] = {}


def is_plugin_name(name: str) -> bool:
    """True for ``"module:function"`` and a bare entry-point name (no dot): the names this
    module resolves (``"svm.dual"`` is a built-in's)."""
    return ":" in name or "." not in name


def _split(name: str) -> tuple[str, str | None]:
    if ":" not in name:
        if not name or any(c.isspace() for c in name):
            raise SpecError(_FIELD, f"expected 'module:function', '<module>.<builder>' (a "
                                    f"built-in) or an entry-point name, got {name!r}")
        return name, None
    module, _, fn = name.partition(":")
    parts = module.split(".")
    if not (all(p.isidentifier() for p in parts) and fn.isidentifier()):
        raise SpecError(_FIELD, f"expected 'module:function' or 'package.module:function' "
                                f"(Python identifiers), got {name!r}")
    return module, fn


# --------------------------------------------------------------------------- folders
def _module_file(folder: Path, module: str) -> Path | None:
    """The file that ``import module`` would run from ``folder`` (None: not there)."""
    base = folder.joinpath(*module.split("."))
    for cand in (base.with_name(base.name + ".py"), base / "__init__.py"):
        if cand.is_file():
            return cand
    return None


def _namespace(folder: Path) -> str:
    """The private package whose ``__path__`` is ``folder`` (created once per folder)."""
    digest = hashlib.sha1(os.fsencode(folder)).hexdigest()[:12]
    name = f"{_NS_PREFIX}{digest}"
    if name not in sys.modules:
        spec = importlib.machinery.ModuleSpec(name, None, is_package=True)
        spec.submodule_search_locations = [str(folder)]
        pkg = importlib.util.module_from_spec(spec)
        pkg.__doc__ = f"user formulations of {folder} (loaded by convexkern specs)"
        sys.modules[name] = pkg
    return name


def _stamp(path: Path) -> tuple[int, int]:
    st = path.stat()
    return st.st_mtime_ns, st.st_size


def _import_from_folder(folder: Path, module: str, path: Path, spec_name: str) -> ModuleType:
    """Import ``module`` whose file is ``path`` under ``folder``'s private package; the
    module is cached per file and read again when the file changed."""
    with _lock:
        stamp = _stamp(path)
        cached = _loaded.get(path)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        full = f"{_namespace(folder)}.{module}"
        importlib.invalidate_caches()  # a file written since the folder was last listed
        try:
            if cached is not None and sys.modules.get(full) is cached[1]:
                mod = importlib.reload(cached[1])
            else:
                mod = importlib.import_module(full)
        except Exception as exc:
            for key in [k for k in sys.modules if k == full or k.startswith(full + ".")]:
                del sys.modules[key]  # a half-run module is not kept
            _loaded.pop(path, None)
            hint = ""
            if (isinstance(exc, ModuleNotFoundError) and exc.name
                    and _module_file(folder, exc.name) is not None):
                hint = (f" ({exc.name} is in {folder}, which is not on sys.path: import it "
                        f"relatively, 'from . import {exc.name.split('.')[-1]}')")
            raise SpecError(_FIELD, f"{spec_name}: importing {path} failed: "
                                    f"{type(exc).__name__}: {exc}{hint}") from exc
        _loaded[path] = (stamp, mod)
        return mod


# --------------------------------------------------------------------------- entry points
def _entry_points() -> dict[str, Any]:
    try:
        eps = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
    except Exception as exc:  # broken metadata: no plugin, rather than no spec at all
        warnings.warn(f"convexkern: could not read the entry points of {ENTRY_POINT_GROUP!r}: "
                      f"{type(exc).__name__}: {exc}", PluginWarning, stacklevel=3)
        return {}
    out: dict[str, Any] = {}
    for ep in eps:
        out.setdefault(ep.name, ep)
    return out


def entry_point_names() -> list[str]:
    """Names of the ``convexkern.formulations`` entry points installed, sorted."""
    return sorted(_entry_points())


def _load_entry_point(ep: Any, spec_name: str) -> Any:
    dist = getattr(ep, "dist", None)
    where = f" from {dist.name} {dist.version}" if dist is not None else ""
    try:
        return ep.load()
    except Exception as exc:
        raise SpecError(_FIELD, f"{spec_name}: the entry point '{ep.name}' ({ep.value}{where}) "
                                f"of {ENTRY_POINT_GROUP} failed to load: "
                                f"{type(exc).__name__}: {exc}") from exc


# --------------------------------------------------------------------------- resolution
def _functions(module: ModuleType) -> list[str]:
    """Public functions defined in ``module`` (for the message of a missing one)."""
    return sorted(n for n, v in vars(module).items()
                  if not n.startswith("_") and inspect.isfunction(v)
                  and v.__module__ == module.__name__)


def _where(module: ModuleType) -> str:
    return getattr(module, "__file__", None) or module.__name__


def _find_module(module: str, folders: list[Path], spec_name: str) -> ModuleType:
    looked = []
    for folder, what in folders:
        path = _module_file(folder, module)
        if path is not None:
            return _import_from_folder(folder, module, path, spec_name)
        rel = os.path.join(*module.split("."))
        looked.append(f"{folder / rel}.py ({what})")
    eps = _entry_points()
    if module in eps:
        obj = _load_entry_point(eps[module], spec_name)
        if not isinstance(obj, ModuleType):
            raise SpecError(_FIELD, f"{spec_name}: the entry point '{module}' of "
                                    f"{ENTRY_POINT_GROUP} is a builder, not a module: name "
                                    f"it alone, formulation.name = \"{module}\"")
        return obj
    looked.append(f"an entry point '{module}' in {ENTRY_POINT_GROUP}")
    top = module.split(".")[0]
    try:
        found = importlib.util.find_spec(top) is not None
    except (ImportError, ValueError):
        found = False
    if found:
        try:
            return importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name is None or not (module == exc.name
                                        or module.startswith(exc.name + ".")):
                raise SpecError(_FIELD, f"{spec_name}: importing {module} failed: "
                                        f"ModuleNotFoundError: {exc}") from exc
        except Exception as exc:
            raise SpecError(_FIELD, f"{spec_name}: importing {module} failed: "
                                    f"{type(exc).__name__}: {exc}") from exc
    looked.append(f"an installed module '{module}'")
    raise SpecError(_FIELD, f"{spec_name}: module '{module}' not found; looked for "
                            + ", ".join(looked))


def _folders(folder: str | os.PathLike[str] | None) -> list[tuple[Path, str]]:
    out: list[tuple[Path, str]] = []
    if folder is not None:
        out.append((Path(os.fspath(folder)).resolve(), "the spec's folder"))
    cwd = Path.cwd().resolve()
    if not out or out[0][0] != cwd:
        out.append((cwd, "the current directory"))
    return out


def resolve_plugin(name: str, folder: str | os.PathLike[str] | None = None, *,
                   built_in: str = "") -> Callable[..., Any]:
    """The builder a plugin name stands for (see the module docstring).

    Parameters
    ----------
    name : str
        ``"module:function"``, ``"package.module:function"`` or an entry-point name.
    folder : path, optional
        The spec file's folder, searched first (then the current directory).
    built_in : str
        The built-in builders, listed by the message of an unknown bare name.

    Raises
    ------
    SpecError
        On ``formulation.name``: malformed name, module not found (with the places it
        looked), import failure, function missing or not callable, broken entry point.
    """
    module_name, fn_name = _split(name)
    if fn_name is None:
        eps = _entry_points()
        if module_name not in eps:
            known = ", ".join(sorted(eps)) or "none installed"
            raise SpecError(_FIELD, f"unknown formulation {name!r}: not a built-in "
                                    f"'<module>.<builder>' ({built_in or 'see docs'}) and "
                                    f"not an entry point of {ENTRY_POINT_GROUP} ({known}); "
                                    "for a builder in your own module write "
                                    "'module:function'")
        obj = _load_entry_point(eps[module_name], name)
        if isinstance(obj, ModuleType):
            raise SpecError(_FIELD, f"the entry point '{name}' of {ENTRY_POINT_GROUP} is the "
                                    f"module {obj.__name__}: name one of its builders, "
                                    f"'{name}:<function>' ({', '.join(_functions(obj))})")
        if not callable(obj):
            raise SpecError(_FIELD, f"the entry point '{name}' of {ENTRY_POINT_GROUP} is a "
                                    f"{type(obj).__name__}, not a builder function")
        return _inspectable(obj, name)
    module = _find_module(module_name, _folders(folder), name)
    fn = getattr(module, fn_name, None)
    if fn is None:
        raise SpecError(_FIELD, f"{name}: {module_name} ({_where(module)}) has no function "
                                f"{fn_name!r}; its functions: "
                                f"{', '.join(_functions(module)) or 'none'}")
    if not callable(fn):
        raise SpecError(_FIELD, f"{name}: {module_name}.{fn_name} is a {type(fn).__name__}, "
                                "not a builder function")
    return _inspectable(fn, name)


def _inspectable(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``fn`` if its signature can be read (the spec fills its arguments by name)."""
    try:
        inspect.signature(fn)
    except (TypeError, ValueError) as exc:
        raise SpecError(_FIELD, f"{name}: the signature of {fn!r} cannot be read ({exc}); "
                                "a builder is a Python function") from None
    return fn
