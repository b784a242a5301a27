"""Where the dense linear algebra of a kernel algorithm runs: the CPU (numpy) or a CUDA GPU
(CuPy).

The custom algorithms of this project are bound by dense operations on ``n x n`` kernel
matrices (one ``eigh``, products with the eigenvector matrix, the secular solve's
``roots x poles`` blocks).  Those are written once against the numpy interface and run
on whichever module :func:`module` returns for a device: ``numpy`` for ``"cpu"`` (the
default and the only required dependency), ``cupy`` for ``"gpu"`` (``pip install
convexkern[gpu]``).  Vectors of length ``n`` and the scalar logic stay on the host: a
transfer of ``n`` doubles costs microseconds beside an ``O(n^2)`` product.

The certificates stay rigorous on either device: their rounding terms bound every dot
product of length ``m`` by :math:`\\gamma_m |x|^\\top|y|`, which holds for any order of
summation in IEEE binary64 arithmetic (with or without fused multiply-adds), hence for
the GPU's BLAS as for the CPU's; sums that the bounds take as correctly rounded
(``math.fsum``) are always done on the host (:func:`fsum`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..errors import InvalidInputError

__all__ = ["DEVICES", "resolve", "module", "to_device", "to_host", "is_device_array",
           "fsum", "synchronize", "gpu_available", "dot", "module_of", "columns"]

#: the devices a ``device=`` option accepts ("auto": the input array's)
DEVICES = ("auto", "cpu", "gpu")


def _cupy() -> Any:
    try:
        import cupy  # noqa: PLC0415 (optional dependency, imported on demand)
    except ImportError as exc:  # pragma: no cover - depends on the machine
        raise ImportError(f"CuPy is not installed ({exc}); pip install convexkern[gpu]") \
            from exc
    return cupy


def gpu_available() -> tuple[bool, str]:
    """``(True, "")`` when CuPy is installed and sees a CUDA device, else ``(False, why)``."""
    try:
        cupy = _cupy()
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:  # noqa: BLE001 - any failure means "no GPU here", with its reason
        return False, str(exc) or type(exc).__name__
    if count < 1:
        return False, "CuPy sees no CUDA device"
    return True, ""


def _kind(a: Any) -> str:
    """``"cupy"``, ``"torch"`` (a tensor on a CUDA device: ``"torch-cuda"``) or ``"numpy"``."""
    mod = type(a).__module__.split(".")[0]
    if mod == "cupy":
        return "cupy"
    if mod == "torch":
        return "torch-cuda" if getattr(a, "is_cuda", False) else "torch"
    return "numpy"


def is_device_array(a: Any) -> bool:
    """Whether ``a`` lives on a GPU (a CuPy array or a CUDA torch tensor)."""
    return _kind(a) in ("cupy", "torch-cuda")


def resolve(device: Any, *arrays: Any) -> str:
    """``"cpu"`` or ``"gpu"`` for a ``device=`` option: ``"auto"`` is ``"gpu"`` when any of
    ``arrays`` lives on a GPU (a CuPy array or a CUDA torch tensor), else ``"cpu"``;
    ``"gpu"`` (or ``"cuda"``) needs CuPy and a CUDA device, and says which is missing."""
    if not isinstance(device, str) or device.lower() not in DEVICES + ("cuda",):
        raise InvalidInputError("device", f"must be one of {DEVICES}, got {device!r}")
    d = device.lower()
    if d == "auto":
        d = "gpu" if any(is_device_array(a) for a in arrays) else "cpu"
    if d == "cuda":
        d = "gpu"
    if d == "gpu":
        ok, why = gpu_available()
        if not ok:
            raise InvalidInputError(
                "device", f"'gpu' needs CuPy and a CUDA device (pip install "
                f"convexkern[gpu]): {why}")
    return d


def module(device: str) -> Any:
    """The array module of a resolved device: ``numpy`` or ``cupy``."""
    return _cupy() if device == "gpu" else np


def to_device(a: Any, device: str, dtype: Any = None) -> Any:
    """``a`` as an array of ``device``'s module (no copy when it is one already; a CUDA
    torch tensor is shared through DLPack)."""
    if device != "gpu":
        return np.asarray(to_host(a), dtype=dtype)
    cupy = _cupy()
    if _kind(a) == "torch-cuda":
        a = cupy.from_dlpack(a.detach())
    return cupy.asarray(a, dtype=dtype)


def to_host(a: Any) -> Any:
    """``a`` as a numpy array (a copy from the GPU; numpy arrays and scalars unchanged)."""
    kind = _kind(a)
    if kind == "cupy":
        return a.get()
    if kind.startswith("torch"):
        return a.detach().cpu().numpy()
    return a


def fsum(a: Any) -> float:
    """``math.fsum`` of an array's entries, on the host (correctly rounded whatever the
    device: the certificates' bounds rely on it)."""
    return math.fsum(np.ravel(to_host(a)))


def synchronize(device: str) -> None:
    """Wait for the device's queued work (for timings)."""
    if device == "gpu":
        _cupy().cuda.Device().synchronize()


def dot(A: Any, x: np.ndarray) -> np.ndarray:
    """``A @ x`` on the host for a matrix ``A`` on either device and a host array ``x``
    (the product runs where ``A`` is)."""
    if isinstance(A, np.ndarray):
        return A @ x
    return to_host(A @ to_device(x, "gpu"))


def module_of(a: Any) -> Any:
    """The array module of ``a``: ``cupy`` for a CuPy array, else ``numpy``."""
    return _cupy() if _kind(a) == "cupy" else np


def columns(V: Any, mask: np.ndarray) -> Any:
    """``V[:, mask]`` for a host boolean ``mask`` and a matrix ``V`` on either device."""
    if isinstance(V, np.ndarray):
        return V[:, mask]
    return V[:, module_of(V).asarray(np.flatnonzero(mask))]
