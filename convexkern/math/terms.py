"""The size of a cvxpy problem's terms at a point, before any cancellation: the scale a
relative gap near 0 is judged against (:func:`convexkern.report.relative_gap`).

An optimum within 1e-9 of 0 has no size of its own to measure a gap against.  It is
judged against the terms that cancel to give it, read here from the problem *as written*
(its objective, and each constraint weighted by its multiplier's size: the Lagrangian's
terms), so that the verdict is the same whichever conic form a solver was given.  The
conic form alone cannot tell them apart: a square written for ECOS becomes a second-order
cone whose constants ``(1 + t, 1 - t)`` pair with multipliers of size 1/2 whether the
square cancels terms of size 1 (Maros-Meszaros TAME, ``(x - y)^2`` at ``x = y = 1/2``) or
is 0 because its argument is (``-2^-45 x_0 + x_1^2`` at ``x = (1, 0)``: every term is
2^-45 or 0, and a bracket 16 times wider than the optimum is not within tol of it).

The terms of an expression are its value with every constant replaced by its absolute
value and every variable by its absolute value, evaluated through the affine atoms (so
``x - y`` at ``x = y = 1/2`` has terms 1), through the atoms that grow with the size of
their argument (powers, norms, ``quad_form``, ``quad_over_lin``, ``huber``, ``abs``), and
as the atom's own absolute value elsewhere (``exp``, ``log``, ``lambda_max``, ...).  No
bound rests on this: it only says when a bracket's width is small *relative* to the
problem.
"""

from __future__ import annotations

import math
from typing import Any

import cvxpy as cp
import numpy as np

__all__ = ["problem_terms"]

#: atoms whose value grows with the absolute size of their (first) argument, evaluated on
#: the argument's terms: the size of what they would be without cancellation inside them
_GROWING = frozenset({
    "power", "QuadForm", "quad_over_lin", "huber", "abs", "pnorm", "norm1", "norm_inf",
    "Pnorm", "PnormApprox", "Norm1", "NormInf", "sum_squares", "SymbolicQuadForm"})


def _value(e: Any) -> np.ndarray | None:
    v = e.value
    if v is None:
        return None
    v = np.asarray(v.toarray() if hasattr(v, "toarray") else v)
    if np.iscomplexobj(v):
        v = np.abs(v)
    return np.abs(np.asarray(v, dtype=float))


def _terms(e: Any, depth: int = 0) -> np.ndarray | None:
    """The expression's terms (nonnegative, its shape), or ``None`` where a value is
    missing."""
    if depth > 200:
        return _value(e)
    if isinstance(e, cp.Expression) and not e.args:  # a variable, parameter or constant
        return _value(e)
    if not hasattr(e, "numeric"):
        return _value(e)
    name = type(e).__name__
    affine = getattr(e, "is_atom_affine", lambda: False)()
    if not (affine or name in _GROWING):
        return _value(e)
    args = []
    for a in e.args:
        t = _terms(a, depth + 1) if (affine or a is e.args[0]) else _value(a)
        if t is None:
            return None
        args.append(t)
    try:
        with np.errstate(all="ignore"):
            out = e.numeric(args)
    except Exception:  # noqa: BLE001 - an atom whose numeric needs its own types
        return _value(e)
    out = np.asarray(out.toarray() if hasattr(out, "toarray") else out)
    if np.iscomplexobj(out):
        out = np.abs(out)
    out = np.abs(np.asarray(out, dtype=float))
    if out.size != math.prod(e.shape):
        return _value(e)
    return out.reshape(e.shape) if e.shape else out.reshape(())


def _flat(parts: Any) -> np.ndarray | None:
    if parts is None:
        return None
    if isinstance(parts, (list, tuple)):
        got = [_flat(p) for p in parts]
        if any(g is None for g in got):
            return None
        return np.concatenate(got) if got else np.zeros(0)
    v = np.asarray(parts.toarray() if hasattr(parts, "toarray") else parts)
    return np.abs(v).astype(float).ravel()


def _constraint_terms(c: Any) -> float:
    """``sum |multiplier| * terms`` of one constraint (0 where it has no multiplier)."""
    dual = _flat(c.dual_value)
    if dual is None or dual.size == 0 or not np.all(np.isfinite(dual)):
        return 0.0
    parts = [_terms(a) for a in c.args]
    if any(p is None for p in parts):
        return 0.0
    if type(c).__name__ in ("Inequality", "Equality") and len(parts) == 2:
        both = np.broadcast_to(parts[0], c.shape) + np.broadcast_to(parts[1], c.shape)
        t = np.asarray(both, dtype=float).ravel()
    else:
        t = np.concatenate([np.asarray(p, dtype=float).ravel() for p in parts])
    if t.size == dual.size:
        return float(dual @ t)
    return float(np.max(dual) * np.sum(t))  # a cone whose multiplier is stacked otherwise


def problem_terms(problem: cp.Problem) -> float | None:
    """The problem's terms at its variables' values: the objective's, plus each
    constraint's weighted by its multiplier's size (``None`` where a value is missing or
    the sum is not finite)."""
    try:
        obj = _terms(problem.objective.expr)
        if obj is None:
            return None
        total = float(np.sum(obj))
        for c in problem.constraints:
            total += _constraint_terms(c)
    except Exception:  # noqa: BLE001 - a scale is a convention: without it, the old one
        return None
    return total if math.isfinite(total) else None
