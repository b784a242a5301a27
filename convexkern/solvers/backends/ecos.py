"""ECOS (interior point, LP/QP as SOCP, SOCP, EXP) through cvxpy."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ...report import Status
from .base import CLASSES_SOCP, ConicSolverSpec, Verdict, as_vector, drop_none

#: ECOS's ``info["exitFlag"]`` -> (status, proven); 10 + k is "close to" outcome k
STATUS: dict[int, tuple[Status, bool]] = {
    0: (Status.OPTIMAL, True),
    1: (Status.INFEASIBLE, True),
    2: (Status.UNBOUNDED, True),
    10: (Status.OPTIMAL_INACCURATE, True),
    11: (Status.INFEASIBLE, False),
    12: (Status.UNBOUNDED, False),
    -1: (Status.ITERATION_LIMIT, True),
    -2: (Status.ERROR, True),   # numerical problems
    -3: (Status.ERROR, True),   # left the cone
    -4: (Status.ERROR, True),   # interrupted
    -7: (Status.ERROR, True),   # fatal
}


class Ecos(ConicSolverSpec):
    def settings(self, accuracy: float, max_iter: int | None,
                 time_limit: float | None) -> dict[str, Any]:
        del time_limit  # ECOS has none
        return drop_none(abstol=accuracy, reltol=accuracy, feastol=accuracy,
                         max_iters=max_iter)

    def verdict(self, raw: Any, settings: Mapping[str, Any]) -> Verdict | None:
        info = raw.get("info") if isinstance(raw, Mapping) else None
        code = info.get("exitFlag") if isinstance(info, Mapping) else None
        if code not in STATUS:
            return None
        status, proven = STATUS[code]
        return Verdict(status, f"{info.get('infostring', '')} (exitFlag {code})", proven)

    def unsafe(self, data: Mapping[str, Any]) -> str:
        # ECOS requires equality rows of full rank and does not check it safely: on some
        # rows that are multiples of each other its set-up fails ("Internal problem
        # occurred in ECOS while setting up the problem") after corrupting its heap, which
        # can crash the process later ("malloc(): invalid size"); on others it works
        A = data.get("A")
        if A is None or not hasattr(A, "shape") or A.shape[0] < 2:
            return ""
        m, n = A.shape
        if m > n:
            return f"{m} equality rows over {n} columns cannot have full rank"
        if m > 200 or m * n > 1_000_000:
            return ""  # an SVD of that size would cost more than the check is worth
        dense = A.toarray() if hasattr(A, "toarray") else np.asarray(A, dtype=float)
        rank = int(np.linalg.matrix_rank(dense))
        if rank < m:
            return (f"its {m} equality rows have rank {rank}; ECOS needs them of full rank "
                    "and can corrupt its memory on such rows")
        return ""

    def iterations(self, raw: Any) -> int | None:
        info = raw.get("info") if isinstance(raw, Mapping) else None
        it = info.get("iter") if isinstance(info, Mapping) else None
        return None if it is None else int(it)

    def pair(self, raw: Any) -> tuple[Any, Any]:
        """ECOS's rows are ``A x = b`` then ``G x + s = h``: ``y`` then ``z``."""
        if not isinstance(raw, Mapping):
            return None, None
        y, z = as_vector(raw.get("y")), as_vector(raw.get("z"))
        ys = None if z is None else np.concatenate([y if y is not None else [], z])
        return as_vector(raw.get("x")), ys

    def certificate(self, raw: Any, claim: Status) -> Any:
        x, y = self.pair(raw)
        return y if claim is Status.INFEASIBLE else x if claim is Status.UNBOUNDED else None


# ECOS solves the SVM dual through cvxpy's second-order-cone form of quad_form, and its
# certified gap levels off at 1e-7..6e-6 relative (USPS, Pima subsets) once its own
# tolerances reach 1e-10; below that it reports itself inaccurate.  So the default target
# is 1e-5, reached with settings 1e-10 (safety 1e-5).
SOLVER = Ecos(name="ecos", cvxpy_name="ECOS", module="ecos", cones=CLASSES_SOCP | {"EXP"},
              default_tol=1e-5, safety=1e-5, install="pip install ecos",
              refine=True, watched=True)  # ECOS has no clock
