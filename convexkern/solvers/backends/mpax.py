"""MPAX (restarted PDHG on JAX, LP/QP; on a GPU where JAX has one, else on the CPU)
through cvxpy."""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Mapping
from typing import Any

from ...report import Status
from .base import CLASSES_QP, ConicSolverSpec, Verdict, as_vector

#: MPAX's ``termination_status`` (``mpax.TerminationStatus``) -> (status, proven): its
#: infeasibility words are detections by a first-order method, so not proofs here (the
#: certificate checks the ray, which MPAX does not return)
STATUS: dict[int, tuple[Status, bool]] = {
    1: (Status.ERROR, True),          # unspecified
    2: (Status.OPTIMAL, True),
    3: (Status.INFEASIBLE, False),    # primal infeasible
    4: (Status.UNBOUNDED, False),     # dual infeasible
    5: (Status.TIME_LIMIT, True),
    6: (Status.ITERATION_LIMIT, True),
    7: (Status.ERROR, True),          # numerical error
    8: (Status.ERROR, True),          # invalid problem
    9: (Status.ERROR, True),          # other
}


#: the iterations allowed without ``max_iter`` (MPAX's own default is 2^31: a target it
#: cannot reach would run for hours)
MAX_ITER = 200_000


class Mpax(ConicSolverSpec):
    def settings(self, accuracy: float, max_iter: int | None,
                 time_limit: float | None) -> dict[str, Any]:
        # MPAX has no clock of its own: a time_limit is kept by the certificate's budget
        # and by convexkern bench's hard limit per pair, not by the solve
        del time_limit
        return dict(eps_abs=accuracy, eps_rel=accuracy,
                    iteration_limit=MAX_ITER if max_iter is None else max_iter)

    def solving(self) -> contextlib.AbstractContextManager:
        """JAX in double precision for MPAX's call only (``jax.enable_x64``, a context:
        the caller's own JAX setting is left as it was).  JAX computes in single
        precision by default, and a point accurate to single precision's rounding
        leaves residuals that cost the certificate more than ``tol`` (Netlib BLEND:
        certified gap 5.2e-4 in single precision against 8.8e-6 in double; BEACONFD's
        upper bound open in single, 3.1e-6 in double)."""
        jax = importlib.import_module("jax")
        scoped = getattr(jax, "enable_x64", None)
        if scoped is None:  # older JAX: the same context under jax.experimental
            scoped = getattr(importlib.import_module("jax.experimental"), "enable_x64",
                             None)
        return contextlib.nullcontext() if scoped is None else scoped(True)

    def verdict(self, raw: Any, settings: Mapping[str, Any]) -> Verdict | None:
        code = getattr(raw, "termination_status", None)
        if code is None or int(code) not in STATUS:
            return None
        status, proven = STATUS[int(code)]
        return Verdict(status, f"termination_status {int(code)}", proven)

    def iterations(self, raw: Any) -> int | None:
        it = getattr(raw, "iteration_count", None)
        return None if it is None else int(it)

    def pair(self, raw: Any) -> tuple[Any, Any]:
        """MPAX is given ``-A x = -b`` and ``-F x >= -g``: both rows negated, so its
        multipliers keep the sign convention ``c + Px + A'y = 0`` of cvxpy's QP form
        ``A x = b``, ``F x <= g`` (equality rows first)."""
        return (as_vector(getattr(raw, "primal_solution", None)),
                as_vector(getattr(raw, "dual_solution", None)))


#: a refining re-solve when an "optimal" answer misses tol: in double precision
#: (:meth:`Mpax.solving`) tighter settings are within reach (Netlib STOCFOR1: certified
#: gap 8.7e-4 at settings 1e-5, 9.3e-8 after the re-solve at 1e-7)
SOLVER = Mpax(name="mpax", cvxpy_name="MPAX", module="mpax", cones=CLASSES_QP,
              default_tol=1e-4, install="pip install mpax", refine=True)
