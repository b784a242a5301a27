"""Constants and argument checks shared by the SDPM builders and certificates."""

from __future__ import annotations

import math
from typing import Any

import cvxpy as cp
import numpy as np

from ..._validation import check_labels, check_margin_C, check_matrix
from ...errors import InvalidInputError
from ...math import sos
from ...math.sdpm import check_trajectories

SOURCE = "Graepel & Herbrich, Invariant pattern recognition by SDP machines, NIPS 2003"
#: Relative round-off allowed in a trajectory Gram ``G``: asymmetry and negative
#: eigenvalues up to this fraction of its largest entry / eigenvalue (beyond: an error).
GRAM_RTOL = 1e-10
#: Default segment half-width: 10 degrees in radians (the paper's Figure 2(b, c) setting).
DEFAULT_SEGMENT = math.pi / 18


def _check_segment(segment: Any, degree: int) -> float | None:
    if segment is None:
        if degree % 2:
            raise InvalidInputError(
                "segment", f"on the whole real line the trajectory degree must be even (a "
                           f"polynomial of odd degree {degree} takes every value); give a "
                           "segment tau > 0")
        return None
    return sos._check_tau(segment)


def _common(X_traj: Any, y: Any, segment: Any, C: Any):
    X = check_trajectories(X_traj)
    y = check_labels(y, "y", n=X.shape[0])
    seg = _check_segment(segment, X.shape[1] - 1)
    Cv = check_margin_C(C)
    return X, y, seg, Cv



def _check_candidate(v: Any, name: str, shape: tuple[int, ...]) -> np.ndarray:
    """A float array of exactly ``shape`` (a candidate ``w``, ``mu``, ``lam``, ``Z``; NaN
    allowed: a certificate turns it into an infinite bound), or an error naming ``name``."""
    arr = check_matrix(v, name, ndim=len(shape), allow_empty=True, finite=False)
    if arr.shape != shape:
        raise InvalidInputError(name, f"expected shape {shape}, got {arr.shape}")
    return arr


def _margin_terms(
    w: cp.Variable, c0: cp.Expression, y: Any, C: float, bias: bool,
    variables: dict[str, cp.Variable], params: dict[str, cp.Parameter],
) -> tuple[cp.Expression, cp.Expression, list[cp.Constraint]]:
    """The SVM part shared by the primal builders: adds the bias ``b`` (``y_i b``) and, with
    a soft margin (finite ``C``), the slack ``xi`` to the margin expression ``c0``; returns
    it, the objective ``1/2 ||w||^2 (+ C sum xi)`` and the constraints ``xi >= 0``.  The
    new variables and the parameter ``C`` are added to ``variables`` and ``params``."""
    if bias:
        b = cp.Variable(name="b")
        variables["b"] = b
        c0 = c0 + y * b
    obj = 0.5 * cp.sum_squares(w)
    cons: list[cp.Constraint] = []
    if not math.isinf(C):
        xi = cp.Variable(y.shape[0], name="xi")
        Cp = cp.Parameter(pos=True, name="C", value=C)
        variables["xi"] = xi
        params["C"] = Cp
        c0 = c0 + xi
        obj = obj + Cp * cp.sum(xi)
        cons.append(xi >= 0)
    return c0, obj, cons
