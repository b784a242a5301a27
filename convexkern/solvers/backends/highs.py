"""HiGHS (simplex / interior point for LP, active set for QP) through cvxpy."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...report import Status
from .base import CLASSES_QP, FAST_FLOPS, ConicSolverSpec, Verdict, as_vector, drop_none

#: HiGHS's ``HighsModelStatus`` names -> status (every one a proven word: HiGHS has no
#: "inaccurate" variant)
STATUS: dict[str, Status] = {
    "kOptimal": Status.OPTIMAL,
    "kInfeasible": Status.INFEASIBLE,
    "kUnbounded": Status.UNBOUNDED,
    "kUnboundedOrInfeasible": Status.INFEASIBLE_OR_UNBOUNDED,
    "kIterationLimit": Status.ITERATION_LIMIT,
    "kTimeLimit": Status.TIME_LIMIT,
    "kInterrupt": Status.ERROR,
    "kHighsInterrupt": Status.ERROR,
    "kObjectiveBound": Status.ERROR,
    "kObjectiveTarget": Status.ERROR,
    "kSolutionLimit": Status.ERROR,
    "kNotset": Status.ERROR,
    "kLoadError": Status.ERROR,
    "kModelError": Status.ERROR,
    "kPresolveError": Status.ERROR,
    "kSolveError": Status.ERROR,
    "kPostsolveError": Status.ERROR,
    "kModelEmpty": Status.ERROR,
    "kUnknown": Status.ERROR,
    "kMemoryLimit": Status.ERROR,
}


#: HiGHS's QP iteration cap when the caller gives no max_iter (a cycling QP stops with
#: ``iteration_limit`` after about a second instead of never)
QP_ITERATIONS = 200_000


#: seconds per stored entry of the model cvxpy passes HiGHS before its clock starts (0.27 s
#: for 2.25e6 entries measured here, rounded up)
LOAD_SECONDS = 2e-7
#: seconds per stored entry of ``A`` and of ``P`` HiGHS may run past its own limit once its
#: clock runs (its presolve reads the clock between passes): with limits of 0.05-1 s it
#: returned up to 0.40 s past limit and load on a 1500-point 1-norm SVM LP (``A``: 2.25e6
#: entries), up to 0.10 s on the SVM dual QP of the same size (``P``: 2.25e6 entries)
STEP_SECONDS_A = 2e-7
STEP_SECONDS_P = 3e-8


class Highs(ConicSolverSpec):
    def settings(self, accuracy: float, max_iter: int | None,
                 time_limit: float | None) -> dict[str, Any]:
        # HiGHS counts simplex, IPM and QP iterations apart: a caller's max_iter caps each
        # of them; without one the QP count is capped all the same (its active-set QP
        # method can cycle: an objective scaled by 1e-6 ran a million iterations without
        # end where the unscaled one takes 8), the LP counts keep HiGHS's own limits
        return drop_none(primal_feasibility_tolerance=max(accuracy, 1e-10),
                         dual_feasibility_tolerance=max(accuracy, 1e-10),
                         time_limit=time_limit,
                         qp_iteration_limit=QP_ITERATIONS if max_iter is None else max_iter,
                         simplex_iteration_limit=max_iter, ipm_iteration_limit=max_iter)

    def setup_seconds(self, data: Mapping[str, Any]) -> float:
        # its clock starts once cvxpy has passed it the model: the load of a 1500-point
        # 1-norm SVM LP (2.25e6 entries) took 0.27 s, so its limit of 0.57 s ended 0.83 s
        # after the call; counted at LOAD_SECONDS per stored entry
        return LOAD_SECONDS * _entries(data)

    def clock_work(self, data: Mapping[str, Any]) -> tuple[float, float]:
        # nothing before its first clock read beyond the load (setup_seconds); between two
        # reads a presolve pass, counted per entry of A and P (as flops at FAST_FLOPS,
        # the rate the caller divides by): under time_limit its own limit is shortened by
        # one and a half of them, so that the pass it begins last ends by the deadline
        step = (STEP_SECONDS_A * _entries(data, ("A",))
                + STEP_SECONDS_P * _entries(data, ("P",)))
        return 0.0, step * FAST_FLOPS

    def verdict(self, raw: Any, settings: Mapping[str, Any]) -> Verdict | None:
        word = raw.get("model_status") if isinstance(raw, Mapping) else None
        word = getattr(word, "name", word)
        if word not in STATUS:
            return None
        return Verdict(STATUS[word], str(word))

    def iterations(self, raw: Any) -> int | None:
        info = raw.get("info") if isinstance(raw, Mapping) else None
        counts = [getattr(info, k, 0) or 0 for k in
                  ("simplex_iteration_count", "ipm_iteration_count", "qp_iteration_count")]
        return int(sum(counts)) if info is not None else None

    def pair(self, raw: Any) -> tuple[Any, Any]:
        sol = raw.get("solution") if isinstance(raw, Mapping) else None
        return (as_vector(getattr(sol, "col_value", None)),
                as_vector(getattr(sol, "row_dual", None)))


def _entries(data: Mapping[str, Any], keys: tuple[str, ...] = ("A", "P")) -> float:
    """The stored entries of cvxpy's matrices ``keys``."""
    return float(sum(getattr(data.get(k), "nnz", 0) or 0 for k in keys))


# HiGHS's QP solver has no gap tolerance: its certified gap was 1.5e-8..3.3e-7 relative
# whatever the feasibility tolerances, so the default target is 1e-6.  Its row duals'
# sign convention depends on the row's sense: both signs are tried.
SOLVER = Highs(name="highs", cvxpy_name="HIGHS", module="highspy", cones=CLASSES_QP,
               default_tol=1e-6, install="pip install highspy", dual_signs=(1.0, -1.0),
               refine=True, time_key="time_limit")
