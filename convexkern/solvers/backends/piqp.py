"""PIQP (proximal interior point, LP/QP) through cvxpy: driven by cvxpy's status word."""

from __future__ import annotations

from typing import Any

from .base import CLASSES_QP, ConicSolverSpec, drop_none


class Piqp(ConicSolverSpec):
    def settings(self, accuracy: float, max_iter: int | None,
                 time_limit: float | None) -> dict[str, Any]:
        del time_limit
        return drop_none(eps_abs=accuracy, eps_rel=accuracy, max_iter=max_iter)


SOLVER = Piqp(name="piqp", cvxpy_name="PIQP", module="piqp", cones=CLASSES_QP,
              default_tol=1e-8, install="pip install piqp",
              watched=True)  # no time limit passed to PIQP
