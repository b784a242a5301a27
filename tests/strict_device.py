"""A strict stand-in for CuPy on the CPU, so that the GPU code path of
:mod:`convexkern.math.device` runs in CI on every commit.

Its arrays hold numpy arrays but behave like a GPU's where it matters for correctness:
they refuse to mix with host (numpy) arrays in arithmetic, indexing and function calls,
refuse implicit conversion to numpy (``np.asarray``), and refuse element-wise iteration
(``math.fsum`` over a device array would be a transfer per element on a GPU).  Moving
data takes ``cupy.asarray`` / ``.get()``, as with CuPy.  Only the functions the library
calls are provided; anything else raises ``AttributeError``.
"""

from __future__ import annotations

import types
from typing import Any

import numpy as np


class HostMixError(TypeError):
    """A host array met a device array (CuPy raises a ``TypeError`` too)."""


class DeviceArray:
    __slots__ = ("_a",)
    __array_priority__ = 1000

    def __init__(self, a: np.ndarray) -> None:
        self._a = a

    # -- what CuPy refuses ---------------------------------------------------------------
    def __array__(self, *args: Any, **kwargs: Any) -> np.ndarray:
        raise HostMixError("implicit conversion of a device array to numpy (use .get())")

    def __iter__(self):
        raise HostMixError("iterating over a device array element by element")

    # -- data movement and attributes ----------------------------------------------------
    def get(self) -> np.ndarray:
        return self._a.copy()

    shape = property(lambda self: self._a.shape)
    ndim = property(lambda self: self._a.ndim)
    size = property(lambda self: self._a.size)
    dtype = property(lambda self: self._a.dtype)
    T = property(lambda self: DeviceArray(self._a.T))

    def __len__(self) -> int:
        return len(self._a)

    def astype(self, dtype: Any) -> DeviceArray:
        return DeviceArray(self._a.astype(dtype))

    def copy(self) -> DeviceArray:
        return DeviceArray(self._a.copy())

    def __float__(self) -> float:
        return float(self._a)

    def __bool__(self) -> bool:
        return bool(self._a)

    def __getitem__(self, idx: Any) -> DeviceArray:
        return _wrap(self._a[_unwrap(idx, index=True)])

    def __setitem__(self, idx: Any, value: Any) -> None:
        self._a[_unwrap(idx, index=True)] = _unwrap(value)

    def __repr__(self) -> str:
        return f"DeviceArray({self._a!r})"


def _unwrap(x: Any, index: bool = False) -> Any:
    if isinstance(x, DeviceArray):
        return x._a
    if isinstance(x, np.ndarray) and x.ndim > 0:
        what = "index" if index else "operand"
        raise HostMixError(f"a host numpy array used as a device {what}")
    if isinstance(x, tuple):
        return tuple(_unwrap(e, index) for e in x)
    if isinstance(x, list):
        return [_unwrap(e, index) for e in x]
    return x


def _wrap(x: Any) -> Any:
    if isinstance(x, np.ndarray):
        return DeviceArray(x)
    if isinstance(x, tuple):
        return tuple(_wrap(e) for e in x)
    return x


def _binary(op: str):
    def f(self: DeviceArray, other: Any) -> Any:
        return _wrap(getattr(self._a, op)(_unwrap(other)))
    return f


for _op in ("add", "sub", "mul", "truediv", "matmul", "pow", "lt", "le", "gt", "ge",
            "eq", "ne", "and", "or", "xor"):
    for _name in (f"__{_op}__", f"__r{_op}__", f"__i{_op}__"):
        if hasattr(np.ndarray, _name):
            setattr(DeviceArray, _name, _binary(_name))


def _inplace(op: str):
    def f(self: DeviceArray, other: Any) -> DeviceArray:
        getattr(self._a, op)(_unwrap(other))
        return self
    return f


for _op in ("add", "sub", "mul", "truediv"):
    setattr(DeviceArray, f"__i{_op}__", _inplace(f"__i{_op}__"))
DeviceArray.__neg__ = lambda self: DeviceArray(-self._a)
DeviceArray.__abs__ = lambda self: DeviceArray(np.abs(self._a))
DeviceArray.__invert__ = lambda self: DeviceArray(~self._a)
DeviceArray.__module__ = "cupy"  # convexkern.math.device recognises arrays by module


def _function(fn: Any):
    def f(*args: Any, **kwargs: Any) -> Any:
        return _wrap(fn(*_unwrap(args), **{k: _unwrap(v) for k, v in kwargs.items()}))
    return f


def _asarray(a: Any, dtype: Any = None) -> DeviceArray:
    if isinstance(a, DeviceArray):
        return a if dtype is None else a.astype(dtype)
    return DeviceArray(np.array(a, dtype=dtype))


_FUNCS = ("empty", "zeros", "subtract", "reciprocal", "multiply", "divide", "where",
          "arange", "abs", "sqrt", "einsum", "triu", "outer", "ix_", "sum", "maximum",
          "exp")


def make_module() -> types.ModuleType:
    """A fresh ``cupy`` stand-in module."""
    mod = types.ModuleType("cupy")
    for name in _FUNCS:
        setattr(mod, name, _function(getattr(np, name)))
    mod.asarray = _asarray
    mod.ndarray = DeviceArray
    mod.float32, mod.float64 = np.float32, np.float64
    mod.linalg = types.SimpleNamespace(eigh=_function(np.linalg.eigh),
                                       eigvalsh=_function(np.linalg.eigvalsh))
    mod.cuda = types.SimpleNamespace(
        runtime=types.SimpleNamespace(getDeviceCount=lambda: 1),
        Device=lambda *a: types.SimpleNamespace(synchronize=lambda: None))
    return mod
