"""Compile for a solver as the user's problem asks, past two of cvxpy's solver checks.

**Derived bounds.** For a solver that takes variable bounds natively
(``BOUNDED_VARIABLES``: HiGHS, MPAX, PIQP, ...), cvxpy 1.9 passes the user's variable
bounds as bounds, and also bounds the auxiliary variables of its canonical form by
interval arithmetic on the expressions they stand for.  That arithmetic can be wrong: for
``pos(1 - y * (X @ w + b))`` with a free ``w`` it computes ``X @ w`` as NaN
(``0 * inf``), reads the NaN as 0 after ``multiply`` and pins the auxiliary variable to 1;
the solver then solves another problem (a linear SVM: 300 where the optimum is 99.9; a
quantile regression "infeasible").  :func:`compile_as_written` compiles with the solver
read as taking no bounds: no auxiliary variable is bounded, and the user's bounds reach
the solver as constraint rows, which it handles as well.  The certificate reads the same
form (:func:`convexkern.generic.user_bounds` keeps only the user's bounds in any case).

**A problem without constraints.** cvxpy refuses a solver that needs constraint rows
(``REQUIRES_CONSTR``: SCS) for a problem the user wrote without constraints, although
its canonical form has rows (``sum(maximum(...))``, a quantile regression, has one per
term): "The solver SCS cannot solve this problem".  Within the same block the check reads
the canonical form's need only; a form that really has no rows still fails in the solver,
and the report says so.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

__all__ = ["ALTERED_KEY", "compile_as_written", "quad_form_drops"]

_LOCK = threading.Lock()
_UNSET = object()

#: the class attributes of cvxpy's solver objects read as ``False`` while compiling
_OVERRIDES = ("BOUNDED_VARIABLES", "REQUIRES_CONSTR")


def _instances(cvxpy_name: str) -> list[Any]:
    """The solver objects cvxpy's chain construction reads for ``cvxpy_name`` (its QP and
    its conic interface)."""
    try:
        from cvxpy.reductions.solvers import defines  # noqa: PLC0415 (cvxpy internals)
    except ImportError:  # pragma: no cover - a cvxpy without the maps
        return []
    found = []
    for table in (getattr(defines, "SOLVER_MAP_QP", {}), getattr(defines, "SOLVER_MAP_CONIC", {})):
        inst = table.get(cvxpy_name.upper())
        if inst is not None:
            found.append(inst)
    return found


@contextmanager
def compile_as_written(cvxpy_name: str) -> Iterator[None]:
    """Within the block, cvxpy compiles for ``cvxpy_name`` as for a solver that takes no
    variable bounds and needs no constraints of the user's (module docstring); its
    objects are restored on exit."""
    targets = [(inst, attr) for inst in _instances(cvxpy_name) for attr in _OVERRIDES
               if getattr(inst, attr, False)]
    if not targets:
        yield
        return
    with _LOCK:
        saved = [(inst, attr, inst.__dict__.get(attr, _UNSET)) for inst, attr in targets]
        for inst, attr in targets:
            setattr(inst, attr, False)
        try:
            yield
        finally:
            for inst, attr, old in saved:
                if old is _UNSET:
                    delattr(inst, attr)
                else:
                    setattr(inst, attr, old)


#: the key of cvxpy's problem data under which :func:`_run` notes a form that is not the
#: user's problem (read by the certificate: no bracket is claimed for it)
ALTERED_KEY = "__convexkern_altered__"


#: cvxpy's quad_form canonicalisation is watched under its own lock (the compile may hold
#: :data:`_LOCK` at the same time)
_QUAD_LOCK = threading.Lock()


@contextmanager
def quad_form_drops() -> Iterator[list[str]]:
    """Within the block, cvxpy's canonicalisation of ``quad_form(x, P)`` as a second-order
    cone is watched: it factors ``P`` by an LDL decomposition and drops the pivots below
    ``1e6 eps`` of the largest (``cvxpy.atoms.quad_form.decomp_quad``), so that the
    conic form holds another matrix than the user's ``P``.  Each drop beyond the
    factorisation's own rounding (a pivot above ``64 n eps`` of the largest) is described
    in the yielded list (empty: none, or ``P`` not factored: a solver that takes ``P``
    itself).  On ECOS, and on every solver for a ``quad_form`` inside a constraint, a
    ``P`` with a pivot ratio of 1e-12 gave a form whose optimum is not the problem's (an
    adversarial run found brackets 2 % to 1e16 times ``|p*|`` away from it)."""
    try:  # the module (the package exports a function of the same name)
        canon = importlib.import_module(
            "cvxpy.reductions.dcp2cone.canonicalizers.quad_form_canon")
        from cvxpy.utilities.linalg import dense_ldl_decomp  # noqa: PLC0415
        canon.decomp_quad  # noqa: B018 - the name patched below must exist
    except (ImportError, AttributeError):  # pragma: no cover - a cvxpy without them
        yield []
        return
    found: list[str] = []
    real = canon.decomp_quad

    def watched(P: Any, *args: Any, **kwargs: Any) -> Any:
        out = real(P, *args, **kwargs)
        if args or kwargs or hasattr(P, "tocsc"):  # the sparse path factors without drops
            return out
        try:
            d = np.asarray(dense_ldl_decomp(np.asarray(P, dtype=float))[0], dtype=float)
        except (ValueError, np.linalg.LinAlgError):  # pragma: no cover - P refused
            return out
        top = float(np.max(np.abs(d), initial=0.0))
        if top > 0:
            n = d.size
            rel = np.abs(d) / top
            eps = float(np.finfo(float).eps)
            lost = rel[(rel <= 1e6 * eps) & (rel > 64 * n * eps)]
            if lost.size:
                found.append(f"{lost.size} of the {n} pivots of a quad_form's P "
                             f"({n} x {n}), the largest {float(lost.max()):.2g} of its "
                             "largest")
        return out

    with _QUAD_LOCK:
        canon.decomp_quad = watched
        try:
            yield found
        finally:
            canon.decomp_quad = real
