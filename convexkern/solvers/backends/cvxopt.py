"""CVXOPT (interior point, LP/QP/SOCP/SDP) through cvxpy: driven by cvxpy's status word;
its raw pair is not read, so the generic certificate bounds the primal side only."""

from __future__ import annotations

from typing import Any

from .base import CLASSES_SOCP, ConicSolverSpec, drop_none


class Cvxopt(ConicSolverSpec):
    def settings(self, accuracy: float, max_iter: int | None,
                 time_limit: float | None) -> dict[str, Any]:
        del time_limit  # CVXOPT has none
        return drop_none(abstol=accuracy, reltol=accuracy, feastol=accuracy,
                         max_iters=max_iter)


SOLVER = Cvxopt(name="cvxopt", cvxpy_name="CVXOPT", module="cvxopt",
                cones=CLASSES_SOCP | {"SDP"}, default_tol=1e-7,
                install="pip install cvxopt", max_psd_side=90,
                watched=True)  # CVXOPT has no clock
