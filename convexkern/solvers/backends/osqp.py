"""OSQP (operator splitting, LP/QP) through cvxpy."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...report import Status
from .base import (
    CLASSES_QP,
    WATCH_SHARE,
    ConicSolverSpec,
    Verdict,
    as_vector,
)

#: OSQP 1.x's ``info.status_val`` (``osqp.SolverStatus``) -> (status, proven)
STATUS: dict[int, tuple[Status, bool]] = {
    1: (Status.OPTIMAL, True),
    2: (Status.OPTIMAL_INACCURATE, True),
    3: (Status.INFEASIBLE, True),
    4: (Status.INFEASIBLE, False),
    5: (Status.UNBOUNDED, True),
    6: (Status.UNBOUNDED, False),
    7: (Status.ITERATION_LIMIT, True),
    8: (Status.TIME_LIMIT, True),
    9: (Status.ERROR, True),    # non-convex
    10: (Status.ERROR, True),   # interrupted
    11: (Status.ERROR, True),   # unsolved
}


class Osqp(ConicSolverSpec):
    def settings(self, accuracy: float, max_iter: int | None,
                 time_limit: float | None) -> dict[str, Any]:
        # as for Clarabel, defaults passed explicitly so no earlier limit persists in a
        # reused OSQP object (cvxpy updates a cached solver with the new settings only)
        return dict(eps_abs=accuracy, eps_rel=accuracy,
                    max_iter=4000 if max_iter is None else max_iter,
                    time_limit=1e10 if time_limit is None else time_limit)

    def verdict(self, raw: Any, settings: Mapping[str, Any]) -> Verdict | None:
        info = getattr(raw, "info", None)
        code = getattr(info, "status_val", None)
        if code is None or int(code) not in STATUS:
            return None
        status, proven = STATUS[int(code)]
        return Verdict(status, f"{getattr(info, 'status', '')} (status_val {int(code)})",
                       proven)

    def watch(self, data: Mapping[str, Any], left: float) -> bool:
        # its clock counts its set-up, a sparse LDL of the KKT system, but is first read
        # after it (an 1500-point SVM dual's dense P: 0.43 s): watched, as SCS, when a
        # lower estimate of it may take a tenth of what is left
        return self.set_up_may_take(data) > WATCH_SHARE * left

    def iterations(self, raw: Any) -> int | None:
        it = getattr(getattr(raw, "info", None), "iter", None)
        return None if it is None else int(it)

    def pair(self, raw: Any) -> tuple[Any, Any]:
        return as_vector(getattr(raw, "x", None)), as_vector(getattr(raw, "y", None))

    def certificate(self, raw: Any, claim: Status) -> Any:
        """OSQP keeps its certificates apart: ``prim_inf_cert`` (rows ``[A; F]`` of
        cvxpy's QP form) and ``dual_inf_cert`` (columns)."""
        name = {Status.INFEASIBLE: "prim_inf_cert", Status.UNBOUNDED: "dual_inf_cert"}
        return as_vector(getattr(raw, name[claim], None)) if claim in name else None


SOLVER = Osqp(name="osqp", cvxpy_name="OSQP", module="osqp", cones=CLASSES_QP,
              default_tol=1e-3, install="pip install osqp", refine=True,
              quick_first=True, time_key="time_limit",
              # 1.5e-5 s per stored entry on a random sparse LP (set_up_may_take)
              setup_per_entry=2e-5)
