"""Solvers: the table of every solver, dispatch, and the certified report.

==============  =======================================================================
module          what lives there
==============  =======================================================================
``table``       the solver table as data: conic solvers (cvxpy) and built-in algorithms
                (name -> adapter ``"module:function"`` per formulation kind, default
                tol, warm start, description); :func:`register_solver` for a user's own
``status``      the one mapping from every solver's native outcome to :class:`Status`
``dispatch``    :func:`solve`, :func:`compare`, :func:`path`, :func:`available_solvers`
``conic``       the cvxpy path: solve, read the raw answer, certify
``certify``     :func:`certified_report`: a point and a formulation's certificate -> report
``plugins``     solvers of installed packages (``convexkern.solvers`` entry points), read
                lazily; :class:`PluginWarning` for a broken one
==============  =======================================================================

Whatever the solver, the report's numbers come from the formulation's certificate, and the
status is ``optimal`` only when the certified relative gap meets ``tol``.
"""

from __future__ import annotations

from ..errors import moved
from .certify import certified_report
from .dispatch import (
    available_solvers,
    compare,
    installed_solvers,
    path,
    solve,
    solver_info,
)
from .plugins import PluginWarning
from .status import algorithm_status, cvxpy_status
from .table import ALGORITHMS, CONIC, AlgorithmSpec, ConicSolverSpec, register_solver

__all__ = [
    "ALGORITHMS",
    "CONIC",
    "AlgorithmSpec",
    "PluginWarning",
    "ConicSolverSpec",
    "algorithm_status",
    "available_solvers",
    "certified_report",
    "compare",
    "cvxpy_status",
    "installed_solvers",
    "path",
    "register_solver",
    "solve",
    "solver_info",
]

#: names that moved to another layer in the one-house layout (issue 10); the error names
#: the new home without importing it
__getattr__ = moved(__name__, {
    "CustomSolverSpec": "convexkern.solvers.AlgorithmSpec (adapters by formulation kind)",
})
