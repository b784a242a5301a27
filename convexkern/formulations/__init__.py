"""Formulation builders, one module per source paper.

=====================  =================================================================
module                 source
=====================  =================================================================
``svm``                Mansour, SVM lecture notes (2013) §11.2-11.3: soft-margin SVM, SMO
``robust_indefinite``  Luss & d'Aspremont (NIPS 2007): robust SVM, indefinite kernels
``lp_svm``             Abe (ICANN 2012): nu-LP and LP SVMs training Mahalanobis kernels
``sdpm``               Graepel & Herbrich (NIPS 2003): Semidefinite Programming Machines
``krein``              Loosli (ESANN 2019): KSVM (flip) and TrIK-SVM (shift) in Krein spaces
=====================  =================================================================

Submodules are imported on first use (``convexkern.formulations.svm``).  They register
nothing: the algorithms that solve their formulations are entries of the solver table
(:mod:`convexkern.solvers.table`).
"""

from __future__ import annotations

import importlib
from types import ModuleType

_MODULES = ("svm", "robust_indefinite", "lp_svm", "sdpm", "krein")
__all__ = list(_MODULES)


def __getattr__(name: str) -> ModuleType:
    if name in _MODULES:
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"{__name__}.{name}":
                raise AttributeError(
                    f"convexkern.formulations.{name} is not implemented yet"
                ) from None
            raise
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
