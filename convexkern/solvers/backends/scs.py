"""SCS (operator splitting, LP/QP/SOCP/EXP/SDP) through cvxpy."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...report import Status
from .base import (
    CLASSES_ALL,
    WATCH_SHARE,
    ConicSolverSpec,
    Verdict,
    as_vector,
    drop_none,
)

#: SCS's ``info["status_val"]`` -> (status, proven): 1 solved, 2 solved (inaccurate),
#: -1/-6 unbounded (inaccurate), -2/-7 infeasible (inaccurate), -3 indeterminate,
#: -4 failed, -5 interrupted
STATUS: dict[int, tuple[Status, bool]] = {
    1: (Status.OPTIMAL, True),
    2: (Status.OPTIMAL_INACCURATE, True),
    -1: (Status.UNBOUNDED, True),
    -6: (Status.UNBOUNDED, False),
    -2: (Status.INFEASIBLE, True),
    -7: (Status.INFEASIBLE, False),
    -3: (Status.ERROR, True),
    -4: (Status.ERROR, True),
    -5: (Status.ERROR, True),
}
#: the codes of a solve that converged to its own tolerances: never a limit
CONVERGED = frozenset({1, -1, -2})


def _info(raw: Any) -> Mapping[str, Any]:
    info = raw.get("info") if isinstance(raw, Mapping) else None
    return info if isinstance(info, Mapping) else {}


class Scs(ConicSolverSpec):
    def settings(self, accuracy: float, max_iter: int | None,
                 time_limit: float | None) -> dict[str, Any]:
        return drop_none(eps_abs=accuracy, eps_rel=accuracy, max_iters=max_iter,
                         time_limit_secs=time_limit)

    def verdict(self, raw: Any, settings: Mapping[str, Any]) -> Verdict | None:
        info = _info(raw)
        code = info.get("status_val")
        if code not in STATUS:
            return None
        word = f"{info.get('status', '')} (status_val {code})"
        if code not in CONVERGED:
            # a stop on a limit: its iteration count or its time says which (SCS's
            # times are in milliseconds)
            cap = settings.get("max_iters")
            if cap is not None and (self.iterations(raw) or 0) >= cap:
                return Verdict(Status.ITERATION_LIMIT, word)
            limit = settings.get("time_limit_secs")
            spent = (info.get("setup_time", 0.0) or 0.0) + (info.get("solve_time", 0.0) or 0.0)
            if limit is not None and spent >= 1e3 * limit:
                return Verdict(Status.TIME_LIMIT, word)
        status, proven = STATUS[code]
        return Verdict(status, word, proven)

    def setup_seconds(self, data: Mapping[str, Any]) -> float:
        # its time_limit_secs counts from the end of its set-up, a sparse LDL of the KKT
        # matrix (2 s on a dense 1500 x 600 block; 0.2 s on an 800-point SVM dual's P;
        # 0.14-0.17 s on a random sparse LP of 51,000 stored entries, whose fill the LDL's
        # lower estimate does not see: 0.002 s, and the call ended at 1.06-1.09 T)
        return self.set_up_may_take(data)

    def watch(self, data: Mapping[str, Any], left: float) -> bool:
        # watched (a forked child stopped at the deadline) when that set-up may take a
        # tenth of what is left: its own limit, shortened by the set-up's estimate, then
        # returns its last iterate before the deadline when the estimate holds, and the
        # child is stopped when it does not (time_limit=1 returned after 3.1 s on the dense
        # block); the child's workspace, the warm start of a refining re-solve, is lost,
        # which costs little on a solve this short of time
        return self.set_up_may_take(data) > WATCH_SHARE * left

    def iterations(self, raw: Any) -> int | None:
        it = _info(raw).get("iter")
        return None if it is None else int(it)

    def pair(self, raw: Any) -> tuple[Any, Any]:
        if not isinstance(raw, Mapping):
            return None, None
        return as_vector(raw.get("x")), as_vector(raw.get("y"))

    def certificate(self, raw: Any, claim: Status) -> Any:
        x, y = self.pair(raw)
        return y if claim is Status.INFEASIBLE else x if claim is Status.UNBOUNDED else None

    def last_iterate(self, raw: Any) -> Any | None:
        """SCS at a limit with status "failed" or "indeterminate" keeps a finite last
        iterate that cvxpy refuses to unpack: the same answer labelled "solved
        (inaccurate)" (status_val 2) is unpacked; the report keeps the limit status."""
        info = _info(raw)
        if "status_val" not in info or "x" not in raw:
            return None
        x = as_vector(raw["x"])
        if x is None or x.size == 0 or not bool((abs(x) < float("inf")).all()):
            return None
        return {**raw, "info": {**info, "status_val": 2}}


SOLVER = Scs(name="scs", cvxpy_name="SCS", module="scs", cones=CLASSES_ALL,
             default_tol=1e-4, install="pip install scs", refine=True, quick_first=True,
             # its limit counts from the end of its set-up: given what is left after
             # cvxpy's compilation, not the caller's whole time_limit
             time_key="time_limit_secs",
             # 3.1e-6 s per stored entry on a random sparse LP (set_up_may_take)
             setup_per_entry=4e-6)
