"""QOCO (interior point for second-order cone programs: LP/QP/SOCP) through cvxpy.

cvxpy hands QOCO the form ``A x = b``, ``G x + s = h`` (ECOS's), so its raw pair is read as
ECOS's is: ``y`` for the equality rows, then ``z`` for the cone rows.  QOCO has no
infeasibility detection: its words are solved, solved (inaccurate), iteration limit or
numerical error.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from ...report import Status
from .base import CLASSES_SOCP, ConicSolverSpec, Verdict, as_vector, drop_none

STATUS: dict[str, Status] = {
    "QOCO_SOLVED": Status.OPTIMAL,
    "QOCO_SOLVED_INACCURATE": Status.OPTIMAL_INACCURATE,
    "QOCO_MAX_ITER": Status.ITERATION_LIMIT,
    "QOCO_NUMERICAL_ERROR": Status.ERROR,
}


class Qoco(ConicSolverSpec):
    def settings(self, accuracy: float, max_iter: int | None,
                 time_limit: float | None) -> dict[str, Any]:
        del time_limit  # QOCO has none
        return drop_none(abstol=accuracy, reltol=accuracy, max_iters=max_iter)

    def unknown_settings(self, names: Iterable[str]) -> list[str]:
        # QOCO sets the attributes it knows and ignores the others without a word
        try:  # imported only here: QOCO is installed when this spec solves
            qoco = importlib.import_module("qoco")
            known = {a for a in dir(qoco.QOCO().ext.QOCOSettings()) if not a.startswith("_")}
        except (ImportError, AttributeError):  # pragma: no cover - another QOCO layout
            return []
        known |= {"algebra", "dump_problem"}  # read by cvxpy's interface and QOCO's setup
        return sorted(n for n in names if n not in known)

    def verdict(self, raw: Any, settings: Mapping[str, Any]) -> Verdict | None:
        word = str(getattr(raw, "status", ""))
        return Verdict(STATUS[word], word) if word in STATUS else None

    def iterations(self, raw: Any) -> int | None:
        it = getattr(raw, "iters", None)
        return None if it is None else int(it)

    def pair(self, raw: Any) -> tuple[Any, Any]:
        y, z = as_vector(getattr(raw, "y", None)), as_vector(getattr(raw, "z", None))
        ys = None if z is None else np.concatenate([y if y is not None else [], z])
        return as_vector(getattr(raw, "x", None)), ys


SOLVER = Qoco(name="qoco", cvxpy_name="QOCO", module="qoco", cones=CLASSES_SOCP,
              default_tol=1e-7, install="pip install qoco", refine=True,
              # two orders below tol, as Clarabel: an iteration more, where tol/10 left
              # BEACONFD, DUAL1 and a 2000 x 400 lasso to a refining re-solve (16.7 s -> 6.4)
              safety=0.01,
              # cvxpy's kept QOCO object takes new data but not new settings
              reuse=False, drop_kept=True,
              watched=True)  # QOCO has no clock
