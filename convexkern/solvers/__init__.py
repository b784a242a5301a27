"""Solvers: the table of every solver, dispatch, and the certified report.

==============  =======================================================================
module          what lives there
==============  =======================================================================
``table``       the solver table as data: conic solvers (cvxpy) and built-in algorithms
                (name -> adapter ``"module:function"`` per formulation kind, default
                tol, warm start, description); :func:`register_solver` for a user's own
``backends``    one module per conic solver: its cones, settings, status codes, raw pair
``status``      the words of the built-in algorithms and cvxpy's statuses -> :class:`Status`
``dispatch``    :func:`solve`, :func:`compare`, :func:`path`, :func:`available_solvers`
``conic``       the cvxpy path (its documented API): solve, read the raw answer, certify
``outcome``     every report is made here: :func:`certified_report` (a point and the
                formulation's certificate), :func:`pointless_report`, the refutation of a
                "no solution" claim, and the tolerance policy :data:`TOLERANCE`
``plugins``     solvers of installed packages (``convexkern.solvers`` entry points), read
                lazily; :class:`PluginWarning` for a broken one
==============  =======================================================================

Whatever the solver, the report's numbers come from the formulation's certificate, and the
status is ``optimal`` only when the certified relative gap meets ``tol``.
"""

from __future__ import annotations

from .dispatch import (
    available_solvers,
    compare,
    installed_solvers,
    path,
    solve,
    solver_info,
)
from .outcome import TOLERANCE, certified_report, pointless_report
from .plugins import PluginWarning
from .status import algorithm_status, cvxpy_status
from .table import ALGORITHMS, CONIC, AlgorithmSpec, ConicSolverSpec, register_solver

__all__ = [
    "ALGORITHMS",
    "CONIC",
    "AlgorithmSpec",
    "PluginWarning",
    "TOLERANCE",
    "ConicSolverSpec",
    "algorithm_status",
    "available_solvers",
    "certified_report",
    "compare",
    "cvxpy_status",
    "installed_solvers",
    "path",
    "pointless_report",
    "register_solver",
    "solve",
    "solver_info",
]
