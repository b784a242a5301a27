"""One vocabulary for outcomes: every solver's native status becomes a :class:`Status` here.

Conic solvers answer through cvxpy's status strings; the built-in algorithms answer with
a short word (``"optimal"``, ``"iteration_limit"``, ``"stalled"``...).  Both tables live in
this module and nowhere else.  Whatever is mapped to ``OPTIMAL`` is still only a claim:
:func:`convexkern.solvers.certified_report` keeps it only when the certified gap meets
``tol``.
"""

from __future__ import annotations

import cvxpy as cp

from ..report import Status

__all__ = ["CVXPY_STATUS", "ALGORITHM_STATUS", "cvxpy_status", "algorithm_status"]

#: cvxpy's status strings.  ``infeasible_or_unbounded`` (a solver that proved the pair
#: cannot both be solved without saying which side fails) keeps its own status: claiming
#: either one would be a guess.
CVXPY_STATUS: dict[str, Status] = {
    cp.OPTIMAL: Status.OPTIMAL,
    cp.OPTIMAL_INACCURATE: Status.OPTIMAL_INACCURATE,
    cp.INFEASIBLE: Status.INFEASIBLE,
    cp.INFEASIBLE_INACCURATE: Status.INFEASIBLE,
    cp.UNBOUNDED: Status.UNBOUNDED,
    cp.UNBOUNDED_INACCURATE: Status.UNBOUNDED,
    cp.settings.INFEASIBLE_OR_UNBOUNDED: Status.INFEASIBLE_OR_UNBOUNDED,
    cp.USER_LIMIT: Status.ITERATION_LIMIT,
    cp.SOLVER_ERROR: Status.ERROR,
}

#: the words the built-in algorithms (:mod:`convexkern.algorithms`) end on.
#: ``stalled`` (no progress left), ``krein_stationary`` (TrIK's Kreĭn-space check holds
#: before the Hilbert optimum) and ``inaccurate`` (a final check failed) all carry a point
#: whose gap the certificate still measures; ``interrupted`` is a callback's stop.
ALGORITHM_STATUS: dict[str, Status] = {
    "optimal": Status.OPTIMAL,
    "iteration_limit": Status.ITERATION_LIMIT,
    "time_limit": Status.TIME_LIMIT,
    "stalled": Status.OPTIMAL_INACCURATE,
    "krein_stationary": Status.OPTIMAL_INACCURATE,
    "inaccurate": Status.OPTIMAL_INACCURATE,
    "infeasible": Status.INFEASIBLE,
    "unbounded": Status.UNBOUNDED,
    "interrupted": Status.ERROR,
    "error": Status.ERROR,
}


def cvxpy_status(status: str | None) -> Status:
    """The :class:`Status` of a cvxpy problem status (unknown or ``None``: ``ERROR``)."""
    return CVXPY_STATUS.get(status, Status.ERROR)  # type: ignore[arg-type]


def algorithm_status(word: str) -> Status:
    """The :class:`Status` of a built-in algorithm's final word (unknown: ``ERROR``)."""
    return ALGORITHM_STATUS.get(word, Status.ERROR)
