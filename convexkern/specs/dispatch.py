"""Formulation dispatch: ``"<module>.<builder>"`` resolved against
:mod:`convexkern.formulations`, with no table (see "Extension point" in
:mod:`convexkern.specs`).  A builder's signature says which data it takes."""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable
from typing import Any

from ..errors import SpecError
from ..formulation import Formulation
from .plugins import is_plugin_name, resolve_plugin

_KERNEL_ARGS = ("K", "K0")
_FEATURE_ARGS = ("X",)
_LABEL_ARGS = ("y",)
_DATA_ARGS = (*_KERNEL_ARGS, *_FEATURE_ARGS, *_LABEL_ARGS)


def _formulation_modules() -> list[str]:
    from .. import formulations

    return list(formulations.__all__)


def _implemented_modules() -> list[str]:
    from .. import formulations

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
    from .. import formulations

    out = []
    for m in _implemented_modules():
        module = getattr(formulations, m)
        out += [f"{m}.{b}" for b in _builders(module) if _feedable(getattr(module, b))]
    return out


def _feedable(fn: Callable[..., Any]) -> bool:
    """True when a spec can feed the builder data (it takes K, K0 or X)."""
    return any(p in (*_KERNEL_ARGS, *_FEATURE_ARGS) for p in _signature(fn).parameters)


def _resolve_builder(name: str, folder: str | os.PathLike[str] | None = None
                     ) -> tuple[Callable[..., Formulation], Any]:
    """The builder named ``name``, and its module (None for a plugin).  ``"module:function"``
    and entry-point names go to :func:`.plugins.resolve_plugin`, which searches ``folder``
    (the spec's) first."""
    from .. import formulations

    if is_plugin_name(name):
        built_in = "" if ":" in name else ", ".join(_all_builders())
        return resolve_plugin(name, folder, built_in=built_in), None
    if name.count(".") != 1 or not all(name.split(".")):
        raise SpecError("formulation.name",
                        f"expected '<module>.<builder>' such as 'svm.dual', got {name!r} "
                        "(your own builder: 'module:function'); "
                        f"available: {', '.join(_all_builders())}")
    mod_name, fn_name = name.split(".")
    if mod_name not in _formulation_modules():
        raise SpecError("formulation.name",
                        f"unknown formulation module {mod_name!r}; available: "
                        f"{', '.join(_all_builders())} (for a builder in your own module "
                        f"{mod_name}.py: '{mod_name}:{fn_name}')")
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

