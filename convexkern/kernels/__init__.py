"""Kernel functions and their Gram matrices.

A :class:`Kernel` is a small immutable callable: ``kernel(X)`` returns the Gram matrix
``K[i, j] = k(x_i, x_j)`` of the rows of ``X`` (exactly symmetric), and ``kernel(X, Z)``
returns the cross matrix ``K[i, j] = k(x_i, z_j)``.  Every Gram matrix is float64 and
computed with vectorised numpy (no Python loop over pairs of points).

Kernels combine by the closure rules of the lecture notes (Mansour, SVM lecture notes
2013, §kernels): ``k1 + k2`` (sum), ``k1 * k2`` (elementwise product), ``c * k`` with
``c > 0`` and ``k + c`` with ``c >= 0``.  Each rule maps positive semidefinite (PSD)
kernels to PSD kernels; it does not make an indefinite kernel PSD.

Some kernels here are *indefinite* on purpose: the sigmoid kernel, the Epanechnikov kernel
and the Simpson score are the indefinite similarity measures of Luss & d'Aspremont,
NIPS 2007, §4.  Use :mod:`convexkern.spectral` to inspect or repair their spectrum.

Examples
--------
>>> import numpy as np
>>> from convexkern.kernels import RBF, Linear, make_kernel
>>> X = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
>>> k = RBF(gamma=0.5) + 2.0 * Linear()
>>> k
RBF(gamma=0.5) + 2.0 * Linear()
>>> K = k(X)
>>> K.shape, bool(np.array_equal(K, K.T))
((3, 3), True)
>>> make_kernel("gaussian", sigma=1.0)
Gaussian(sigma=1.0)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from ..errors import InvalidInputError, InvalidTypeError
from ._base import Kernel, ProductKernel, ScaledKernel, ShiftedKernel, SumKernel
from .standard import (
    RBF,
    Epanechnikov,
    Gaussian,
    Linear,
    Mahalanobis,
    Polynomial,
    Sigmoid,
    Simpson,
)

__all__ = [
    "Kernel",
    "Linear",
    "Polynomial",
    "RBF",
    "Gaussian",
    "Sigmoid",
    "Epanechnikov",
    "Simpson",
    "Mahalanobis",
    "SumKernel",
    "ProductKernel",
    "ScaledKernel",
    "ShiftedKernel",
    "make_kernel",
    "KERNEL_NAMES",
]


# ---------------------------------------------------------------------------------------
# factory
# ---------------------------------------------------------------------------------------


def _rbf_or_gaussian(**params: Any) -> Kernel:
    if "sigma" in params and "gamma" in params:
        raise InvalidInputError("sigma", "give either gamma (RBF) or sigma (Gaussian), not both")
    if "sigma" in params:
        return _build(Gaussian, "gaussian", params)
    return _build(RBF, "rbf", params)


_FACTORIES: dict[str, Callable[..., Kernel] | type[Kernel]] = {
    "linear": Linear,
    "poly": Polynomial,
    "polynomial": Polynomial,
    "rbf": _rbf_or_gaussian,
    "gaussian": _rbf_or_gaussian,
    "sigmoid": Sigmoid,
    "tanh": Sigmoid,
    "epanechnikov": Epanechnikov,
    "simpson": Simpson,
    "mahalanobis": Mahalanobis,
}

#: Names accepted by :func:`make_kernel`.
KERNEL_NAMES: tuple[str, ...] = tuple(_FACTORIES)


def _build(cls: type[Kernel], name: str, params: dict[str, Any]) -> Kernel:
    signature = inspect.signature(cls).parameters
    for key in params:
        if key not in signature:
            listed = ", ".join(signature) if signature else "none"
            raise InvalidInputError(
                key, f"unknown parameter for kernel {name!r}; accepted parameters: {listed}"
            )
    missing = [
        key
        for key, par in signature.items()
        if par.default is inspect.Parameter.empty and key not in params
    ]
    if missing:
        raise InvalidInputError(
            missing[0], f"kernel {name!r} needs the parameter(s) {', '.join(missing)}"
        )
    return cls(**params)


def make_kernel(name: str | Kernel, **params: Any) -> Kernel:
    """Build a kernel from its lower-case name and parameters.

    Parameters
    ----------
    name : str or Kernel
        One of ``"linear"``, ``"poly"``/``"polynomial"``, ``"rbf"``/``"gaussian"``,
        ``"sigmoid"``/``"tanh"``, ``"epanechnikov"``, ``"simpson"``, ``"mahalanobis"``
        (case-insensitive).  ``"rbf"`` and ``"gaussian"`` both accept either ``gamma``
        (giving :class:`RBF`) or ``sigma`` (giving :class:`Gaussian`).  A :class:`Kernel`
        instance is returned unchanged (no parameters allowed then).
    **params
        Constructor parameters of the kernel.

    Returns
    -------
    Kernel

    Raises
    ------
    ValueError
        For an unknown name (the message lists the known names), an unknown or missing
        parameter, or a bad parameter value; the message names the culprit.

    Examples
    --------
    >>> make_kernel("poly", degree=3)
    Polynomial(degree=3, gamma=1.0, coef0=1.0)
    >>> make_kernel("rbf", gamma=0.1)
    RBF(gamma=0.1)
    """
    if isinstance(name, Kernel):
        if params:
            raise InvalidInputError(
                next(iter(params)), "parameters cannot be given with a Kernel instance"
            )
        return name
    if not isinstance(name, str):
        raise InvalidTypeError("name", f"expected a kernel name (str), got {type(name).__name__}")
    key = name.strip().lower()
    if key not in _FACTORIES:
        raise InvalidInputError(
            "name", f"unknown kernel {name!r}; known kernels: {', '.join(KERNEL_NAMES)}"
        )
    factory = _FACTORIES[key]
    if isinstance(factory, type):
        return _build(factory, key, params)
    return factory(**params)
