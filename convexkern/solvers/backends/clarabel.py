"""Clarabel (interior point, LP/QP/SOCP/EXP/SDP) through cvxpy."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ...report import Status
from .base import (
    CLASSES_ALL,
    FAST_FLOPS,
    WATCH_SHARE,
    ConicSolverSpec,
    Verdict,
    as_vector,
)

#: Clarabel's ``SolverStatus`` names -> (status, proven)
STATUS: dict[str, tuple[Status, bool]] = {
    "Solved": (Status.OPTIMAL, True),
    "AlmostSolved": (Status.OPTIMAL_INACCURATE, True),
    "PrimalInfeasible": (Status.INFEASIBLE, True),
    "DualInfeasible": (Status.UNBOUNDED, True),
    "AlmostPrimalInfeasible": (Status.INFEASIBLE, False),
    "AlmostDualInfeasible": (Status.UNBOUNDED, False),
    "MaxIterations": (Status.ITERATION_LIMIT, True),
    "MaxTime": (Status.TIME_LIMIT, True),
    "NumericalError": (Status.ERROR, True),
    "InsufficientProgress": (Status.ERROR, True),
    "Unsolved": (Status.ERROR, True),
    "CallbackTerminated": (Status.ERROR, True),
}


class Clarabel(ConicSolverSpec):
    def settings(self, accuracy: float, max_iter: int | None,
                 time_limit: float | None) -> dict[str, Any]:
        # max_iter/time_limit always passed (Clarabel's defaults when not asked): cvxpy
        # keeps the Clarabel solver object between solves and would keep a previous
        # call's limits
        return dict(tol_gap_abs=accuracy, tol_gap_rel=accuracy, tol_feas=accuracy,
                    max_iter=200 if max_iter is None else max_iter,
                    time_limit=math.inf if time_limit is None else time_limit)

    def verdict(self, raw: Any, settings: Mapping[str, Any]) -> Verdict | None:
        word = str(getattr(raw, "status", ""))
        if word not in STATUS:
            return None
        status, proven = STATUS[word]
        return Verdict(status, word, proven)

    def clock_work(self, data: Mapping[str, Any]) -> tuple[float, float]:
        # its clock is first read after the set-up and the initial point, two
        # factorisations of the KKT system, whose PSD part is a dense block of each cone's
        # svec side (SDPLIB mcp100's dual form: 5050, 2.7 s before the first read, then
        # about 1.1 s an iteration, one factorisation each); a solve with no time for one
        # iteration is not begun either, so three are counted
        psd = getattr(data.get("dims"), "psd", None) or []
        one = sum((k * (k + 1) / 2) ** 3 / 3.0 for k in psd)
        return 3.0 * one, one

    def watch(self, data: Mapping[str, Any], left: float) -> bool:
        # its clock counts its set-up but is first read after it and the initial point,
        # two factorisations of the KKT system (a dense 1500 x 600 SOCP: 0.6 s before the
        # first read, 0.4 s an iteration; under time_limit=1 it returned after 1.6-1.7 s;
        # SDPLIB mcp100's dual form, its dense PSD block: 5.6 s under time_limit=5):
        # watched, as SCS, when a lower estimate of that work may take a tenth of what is
        # left (the sparse factorisation's, and the PSD blocks' of clock_work)
        work = self.set_up_may_take(data) + self.clock_work(data)[0] / FAST_FLOPS
        return work > WATCH_SHARE * left

    def child_settings(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        # one thread in a forked child: a child of a process whose Clarabel has started
        # its pool of worker threads (a 40 x 40 SDP, 600 exponential cones) waits forever
        # on workers the fork did not copy; with max_threads=1 it uses none
        return {**settings, "max_threads": 1}

    def iterations(self, raw: Any) -> int | None:
        it = getattr(raw, "iterations", None)
        return None if it is None else int(it)

    def pair(self, raw: Any) -> tuple[Any, Any]:
        return as_vector(getattr(raw, "x", None)), as_vector(getattr(raw, "z", None))

    def certificate(self, raw: Any, claim: Status) -> Any:
        x, z = self.pair(raw)
        return z if claim is Status.INFEASIBLE else x if claim is Status.UNBOUNDED else None


SOLVER = Clarabel(
    name="clarabel", cvxpy_name="CLARABEL", module="clarabel", cones=CLASSES_ALL,
    default_tol=1e-8, install="pip install clarabel", refine=True, drop_kept=True,
    # two orders below tol: an interior-point method pays one or two more iterations,
    # cheaper than the refining re-solve that a certified gap just above tol asks for
    # (Netlib at 1e-9: 6 of 17 re-solved; at 1e-10: 2); below 1e-11 it stalls
    # (InsufficientProgress on a hard-margin SVM dual at 1e-12)
    safety=0.01, settings_floor=1e-11,
    # robust_indefinite's (n+1)-PSD cone: about 1 s at n = 50, tens of seconds at n = 100,
    # minutes at 150 (docs/robust_indefinite.md)
    max_psd_side=90, time_key="time_limit",
    # 5.1e-6 s per stored entry to its first clock read on a random sparse LP
    # (set_up_may_take)
    setup_per_entry=6e-6,
)
