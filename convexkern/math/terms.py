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

The terms of an expression are its value with every constant and every variable replaced
by its absolute value, evaluated through every atom (so ``x - y`` at ``x = y = 1/2`` has
terms 1, ``(x - y)^2`` and ``max(x - y, y - x)`` too), and never below the atom's own
absolute value (a ``log`` of larger terms may be smaller).  No bound rests on this: it
only says when a bracket's width is small *relative* to the problem.
"""

from __future__ import annotations

import math
from typing import Any

import cvxpy as cp
import numpy as np

__all__ = ["problem_terms"]


def _abs(v: Any) -> np.ndarray:
    """``|v|`` as a float array (a sparse or complex value too)."""
    v = np.asarray(v.toarray() if hasattr(v, "toarray") else v)
    return np.abs(v).astype(float)


def _value(e: Any) -> np.ndarray | None:
    v = e.value  # an atom's value is computed anew on each read
    return None if v is None else _abs(v)


def _terms(e: Any, depth: int = 0) -> np.ndarray | None:
    """The expression's terms (nonnegative, its shape), or ``None`` where a value is
    missing."""
    if depth > 200:
        return _value(e)
    if isinstance(e, cp.Expression) and not e.args:  # a variable, parameter or constant
        return _value(e)
    if not hasattr(e, "numeric"):
        return _value(e)
    affine = getattr(e, "is_atom_affine", lambda: False)()
    args = []
    for a in e.args:
        t = _terms(a, depth + 1)
        if t is None:
            return None
        args.append(t)
    value = None if affine else _value(e)
    try:
        with np.errstate(all="ignore"):
            out = e.numeric(args)
    except Exception:  # noqa: BLE001 - an atom whose numeric needs its own types
        return _value(e)
    out = _abs(out)
    if out.size != math.prod(e.shape):
        return _value(e)
    out = out.reshape(e.shape) if e.shape else out.reshape(())
    if value is not None and value.shape == out.shape:
        out = np.maximum(out, value)  # never below the atom's own size
    return out


def _flat(parts: Any) -> np.ndarray | None:
    if parts is None:
        return None
    if isinstance(parts, (list, tuple)):
        got = [_flat(p) for p in parts]
        if any(g is None for g in got):
            return None
        return np.concatenate(got) if got else np.zeros(0)
    return _abs(parts).ravel()


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
