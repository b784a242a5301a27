"""MOSEK (interior point, every cone; needs a licence) through cvxpy: driven by cvxpy's
status word, with MOSEK's own default accuracy."""

from __future__ import annotations

from .base import CLASSES_ALL, ConicSolverSpec

SOLVER = ConicSolverSpec(name="mosek", cvxpy_name="MOSEK", module="mosek", cones=CLASSES_ALL,
                         default_tol=1e-8, install="pip install mosek (needs a licence)")
