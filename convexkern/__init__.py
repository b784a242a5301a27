"""convexkern: convex formulations of kernel machines, certified.

Build a formulation (an ordinary ``cvxpy.Problem`` that knows how to certify its
solutions), solve it with any installed conic solver or a purpose-built algorithm, and get
back a :class:`SolveReport` whose duality gap is recomputed from the data.

>>> import convexkern as ck
>>> f = ck.formulations.svm.dual(K, y, C=1.0)            # doctest: +SKIP
>>> ck.compare(f, solvers=["clarabel", "scs", "smo"])     # doctest: +SKIP
"""

from __future__ import annotations

from . import formulations
from .errors import (
    ConvexkernError,
    InvalidInputError,
    InvalidTypeError,
    NotPSDError,
    SolverError,
    SolverNotFoundError,
    SpecError,
)
from .formulation import Formulation, from_cvxpy
from .report import Certificate, ReportTable, SolveReport, Status
from .solvers import (
    available_solvers,
    compare,
    installed_solvers,
    path,
    register_solver,
    solve,
    solver_info,
)

__version__ = "0.1.0"

__all__ = [
    "Certificate",
    "ConvexkernError",
    "Formulation",
    "InvalidInputError",
    "InvalidTypeError",
    "NotPSDError",
    "ReportTable",
    "SolveReport",
    "SolverError",
    "SolverNotFoundError",
    "SpecError",
    "Status",
    "available_solvers",
    "compare",
    "formulations",
    "from_cvxpy",
    "installed_solvers",
    "path",
    "register_solver",
    "solve",
    "solver_info",
]


def __getattr__(name: str):  # lazy submodules: kernels, spectral, data, estimators, ...
    import importlib

    if name in {"kernels", "spectral", "data", "estimators", "projections", "algorithms",
                "cli", "specs", "transforms", "reproduce", "verify", "math",
                "splits"}:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
