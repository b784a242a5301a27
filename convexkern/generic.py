"""The generic certificate: certified bounds for any cvxpy problem, from its conic form.

A formulation built without a hand-written certificate (``Formulation(..., certify=None)``
or :func:`convexkern.from_cvxpy`) is certified here.  The conic solve path hands over the
solver's raw primal-dual pair in the form cvxpy built for it
(``problem.get_problem_data``); :func:`convexkern.math.conic.conic_bounds` turns the pair
into a rigorous bracket.  The conic forms read are SCS's and Clarabel's (``A x + s = b``,
``s`` in a product cone), ECOS's (``A x = b``, ``G x + s = h``) and the QP form of OSQP and
HiGHS (``A x = b``, ``F x <= g``); another solver's answer, or a point given by variable
values only, is certified on the primal side where the point determines the conic
variables and honestly uncertified on the dual side.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import cvxpy as cp
import numpy as np
import scipy.sparse as sp

from .math.conic import ConicBounds, ConicData, conic_bounds, factored_bounds
from .math.conic.cones import cvxpy_solvers
from .math.conic.data import canonical_entries, csr_of_entries
from .math.conic.slack import abs_mv
from .math.terms import problem_terms
from .report import ABSOLUTE_GAP_BELOW, Certificate, relative_gap

__all__ = ["ConicPoint", "generic_certify", "conic_data", "user_bounds", "CONIC_KEY"]

#: the key under which the conic path hands the raw pair to the certificate
CONIC_KEY = "__conic__"


@dataclass(frozen=True)
class ConicNames:
    """What each column and row of cvxpy's conic form is, in the user's terms: ``(start,
    size, label, shape)`` spans, in the form's order (``str(label)`` is the label)."""

    columns: tuple[tuple[int, int, Any, tuple[int, ...]], ...]
    rows: tuple[tuple[int, int, Any, tuple[int, ...]], ...]
    solver_rows: np.ndarray | None = None

    @staticmethod
    def _find(spans: tuple, i: int, fallback: str) -> str:
        for start, size, label, shape in spans:
            if start <= i < start + size:
                k = i - start
                if size == 1:
                    return str(label)
                where = np.unravel_index(k, shape, order="F") if shape else (k,)
                return f"{label}[{', '.join(str(int(w)) for w in where)}]"
        return fallback

    def column(self, j: int) -> str:
        return self._find(self.columns, j, f"column {j} of the conic form")

    def row(self, i: int) -> str:
        r = int(self.solver_rows[i]) if self.solver_rows is not None else i
        return self._find(self.rows, r, f"row {i} of the conic form")

    def rename(self, text: str) -> str:
        """``text`` with "conic variable j" and "conic row i" named."""
        text = re.sub(r"conic variable (\d+)", lambda m: self.column(int(m.group(1))), text)
        return re.sub(r"conic row (\d+)", lambda m: self.row(int(m.group(1))), text)


class _ConstraintLabel:
    """A user constraint's label, written only when a message names it (printing a
    constraint prints its data: milliseconds a constraint, wasted on a certified solve)."""

    def __init__(self, index: int, constraint: Any) -> None:
        self.index, self.constraint = index, constraint

    def __str__(self) -> str:
        c = self.constraint
        text = str(c)  # the expression as written, when short and free of data dumps
        if len(text) > 40 or "np." in text or "[" in text:
            text = f"{type(c).__name__}, shape {tuple(c.shape)}"
        return f"constraint {self.index} ({text})"


def conic_names(problem: cp.Problem, inverse: Any,
                solver_rows: np.ndarray | None = None) -> ConicNames | None:
    """The :class:`ConicNames` of ``problem``'s conic form from cvxpy's inverse data (the
    third value of ``get_problem_data``); ``None`` when it does not say."""
    try:
        stuffing = next(d for d in reversed(list(inverse)) if hasattr(d, "var_offsets")
                        and hasattr(d, "id2var"))
        solver_inv = inverse[-1]
        solver_inv = getattr(solver_inv, "inverse_data", solver_inv)
    except (StopIteration, TypeError, IndexError):
        return None
    user_vars = {v.id for v in problem.variables()}
    cols = []
    for vid, off in stuffing.var_offsets.items():
        shape = tuple(stuffing.var_shapes.get(vid, ()))
        size = int(np.prod(shape)) if shape else 1
        var = stuffing.id2var.get(vid)
        label = (f"variable '{var.name()}'" if vid in user_vars and var is not None
                 else "an auxiliary variable of cvxpy's canonical form")
        cols.append((int(off), size, label, shape))
    user_cons = {c.id: k for k, c in enumerate(problem.constraints)}
    rows, at = [], 0
    cons = []
    if isinstance(solver_inv, Mapping):
        cons = list(solver_inv.get("eq_constr", [])) + list(solver_inv.get("other_constr", []))
    for c in cons:
        size = int(getattr(c, "size", 0))
        if c.id in user_cons:
            label = _ConstraintLabel(user_cons[c.id], c)
            shape = tuple(c.shape) if size == int(np.prod(c.shape or (1,))) else ()
        else:
            label = f"a {type(c).__name__} row cvxpy added for its canonical form"
            shape = ()
        rows.append((at, size, label, shape))
        at += size
    return ConicNames(columns=tuple(cols), rows=tuple(rows), solver_rows=solver_rows)


def user_bounds(cd: ConicData, problem: cp.Problem, inverse: Any) -> ConicData:
    """``cd`` with its native variable bounds kept on the columns of ``problem``'s own
    variables only (as declared: ``bounds=``, ``nonneg``, ...).  For a solver that takes
    bounds, cvxpy also bounds the auxiliary variables of its canonical form by interval
    arithmetic on their expressions, and those bounds are derived, not given: cvxpy 1.9
    bounds ``pos(1 - y * (X @ w + b))`` by ``[1, 1]`` for a free ``w`` (a NaN from
    ``0 * inf`` read as 0), HiGHS then solves another problem (a linear SVM's hinge loss
    300 where the optimum is 99.9), and a certificate of the form as given would prove
    that other problem.  The solve path compiles without them
    (:func:`convexkern.solvers.cvxpy_bounds.compile_as_written`); this is the certificate's
    own guard, for any form.  Without them the certificate is about the user's problem; a
    bound that the constraints imply is found again by the box.  A bound of the user's
    own is never dropped (the upper bound needs the point to meet it), so when the
    columns cannot be read ``cd`` is returned as it is."""
    if cd.lb is None and cd.ub is None:
        return cd
    n = cd.c.size
    keep = np.zeros(n, dtype=bool)
    try:
        stuffing = next(d for d in reversed(list(inverse)) if hasattr(d, "var_offsets"))
        user = {v.id for v in problem.variables()}
        for vid, off in stuffing.var_offsets.items():
            if vid in user:
                shape = tuple(stuffing.var_shapes.get(vid, ()))
                size = int(np.prod(shape)) if shape else 1
                keep[int(off): int(off) + size] = True
    except (StopIteration, TypeError, AttributeError, ValueError):
        return cd
    if keep.all():
        return cd
    lb = None if cd.lb is None else np.where(keep, cd.lb, -np.inf)
    ub = None if cd.ub is None else np.where(keep, cd.ub, np.inf)
    if lb is not None and not np.isfinite(lb).any():
        lb = None
    if ub is not None and not np.isfinite(ub).any():
        ub = None
    return replace(cd, lb=lb, ub=ub)


@dataclass(frozen=True)
class ConicPoint:
    """A solver's raw answer in the conic form it was given: ``x`` (primal), ``y`` (dual,
    ``None`` if the solver gave none), with the form itself."""

    data: ConicData
    x: np.ndarray | None
    y: np.ndarray | None
    solver: str = ""
    note: str = ""
    #: the names of the conic form's columns and rows in the user's terms (``None``: the
    #: messages keep the conic indices)
    names: ConicNames | None = None
    #: the signs ``y`` may carry against the convention ``c + A'y = 0`` (the solver's
    #: class says: :attr:`convexkern.solvers.backends.base.ConicSolverSpec.dual_signs`)
    dual_signs: tuple[float, ...] = (1.0,)
    #: a first answer that a more accurate re-solve follows should it miss ``tol``: its
    #: certificate spends no phase one, nor the rounds that would follow one (a point too
    #: inaccurate to certify is not worth an interior point; the re-solve's certificate
    #: is computed in full)
    quick: bool = False


def _exp_order_ok(solver: Any) -> bool:
    order = getattr(solver, "EXP_CONE_ORDER", None)
    return order is None or list(order) == [0, 1, 2]


def _offset(pp: Any) -> float:
    """The objective's constant term of cvxpy's parametrised cone program ``pp``: without
    parameters the last entry of its (single-column) objective tensor, read directly
    (``apply_parameters`` would build the whole problem data again for it)."""
    q = getattr(pp, "q", None)
    if not pp.parameters and q is not None and q.ndim == 2 and q.shape[1] == 1:
        if sp.issparse(q) and q.format == "csr" and q.has_canonical_format:
            return float(np.sum(q.data[q.indptr[-2]: q.indptr[-1]]))  # the last row's
        if sp.issparse(q):  # its stored entries in the last row (no sparse indexing)
            qc = sp.csc_matrix(q)
            qc.sum_duplicates()
            return float(np.sum(qc.data[qc.indices == q.shape[0] - 1]))
        return float(np.asarray(q[-1]).item())
    return float(np.asarray(pp.apply_parameters()[1]).item())


def _stacked(top: Any, bottom: Any, n: int) -> tuple[sp.csr_matrix, int]:
    """``[top; bottom]`` as CSR (a block ``None`` has no rows) and ``top``'s row count.
    Small canonical CSR or CSC blocks (cvxpy's) are read from their arrays and sorted
    once (SciPy's conversions of two small blocks and their stacking cost ~0.2 ms);
    others go through SciPy."""
    blocks = [sp.csr_matrix((0, n)) if M is None else M for M in (top, bottom)]
    got = [canonical_entries(M) for M in blocks]  # (None for a large block)
    if any(g is None for g in got):
        csr = [sp.csr_matrix(M) for M in blocks]
        return sp.vstack(csr, format="csr"), csr[0].shape[0]
    m0 = blocks[0].shape[0]
    rows = np.concatenate([np.asarray(got[0][0], dtype=np.int64),
                           np.asarray(got[1][0], dtype=np.int64) + m0])
    return csr_of_entries(rows, np.concatenate([got[0][1], got[1][1]]),
                          np.concatenate([got[0][2], got[1][2]]),
                          (m0 + blocks[1].shape[0], n)), m0


def _symmetric_entries(P: Any) -> bool:
    """Whether a small canonical CSR or CSC ``P`` (cvxpy's) is exactly symmetric, from its
    arrays: its nonzero entries, sorted by place, are those of ``P'`` (False also for any
    other matrix, which :func:`_written_p` then reads through SciPy)."""
    got = canonical_entries(P)
    if got is None or P.shape[0] != P.shape[1]:
        return False
    r, c, d = got
    nz = d != 0
    r, c, d = r[nz].astype(np.int64), c[nz].astype(np.int64), d[nz]
    n = P.shape[0]
    at, mirror = r * n + c, c * n + r  # each entry's place, and its mirror's
    here, there = np.argsort(at), np.argsort(mirror)
    return bool(np.array_equal(at[here], mirror[there])
                and np.array_equal(d[here], d[there]))


#: the largest side of an unsymmetric quadratic objective whose average ``(P + P')/2`` is
#: formed (dense, as the check of its exactness is)
_DENSE_AVERAGE = 2000


def _written_p(P: Any) -> tuple[Any, str]:
    """The quadratic objective's matrix the problem was written with, and why a form
    cannot be certified (``""``: it can).  cvxpy keeps a constant ``quad_form`` matrix as
    written, and accepts one symmetric only to ``np.allclose`` (or, through
    ``psd_wrap``, not at all); its value ``x'Px`` is that of ``S = (P + P')/2``, while
    the solvers (and :class:`ConicData`) read ``P``'s upper triangle, mirrored.  ``P =
    [[1, b], [b + 8e-6, 1]]``, ``b = 1 - 4.000001e-6``: certified ``optimal`` at -1.25e5
    where the written optimum is -5.0e11; an upper-triangular ``P`` got a proven, false
    "unbounded".  So an asymmetric ``P`` is replaced by ``S`` when every ``(P_ij +
    P_ji)/2`` is exact in floating point (checked by an error-free sum: a ``P = X'WX``
    off in its last bits is then certified as written); otherwise the form is refused."""
    if P is None or not (sp.issparse(P) or isinstance(P, np.ndarray)):
        return P, ""
    if _symmetric_entries(P):
        return P, ""
    Q = sp.csr_matrix(P, dtype=float, copy=True)
    Q.sum_duplicates()
    Q.eliminate_zeros()
    T = Q.tocsc()  # its arrays are those of P' in CSR
    T.sort_indices()
    n = Q.shape[0]
    if (np.array_equal(Q.indptr, T.indptr) and np.array_equal(Q.indices, T.indices)
            and np.array_equal(Q.data, T.data)):
        return P, ""
    worst = math.inf
    if n <= _DENSE_AVERAGE:  # the entries of P and of P' aligned, dense
        a = Q.toarray()
        b = np.ascontiguousarray(a.T)
        total = a + b
        back = total - a
        err = (a - (total - back)) + (b - back)  # Knuth's TwoSum: the sum's rounding error
        half = total * 0.5
        worst = float(np.max(np.abs(a - b)))
        if np.all(np.isfinite(total)) and not np.any(err) and np.array_equal(half * 2.0,
                                                                               total):
            return sp.csr_matrix(half), ""
    return P, ("the quadratic objective's matrix P is not symmetric"
               + (f" (by up to {worst:.2g})" if math.isfinite(worst) else "")
               + "; cvxpy accepts one symmetric to np.allclose: its value x'Px "
               "is that of (P + P')/2, which is not exact in floating point here (or P is "
               f"larger than {_DENSE_AVERAGE} to form it), and the "
               "solvers read P's upper triangle, so the form is not the problem written; "
               "pass a symmetric P, e.g. (P + P.T) / 2")


def conic_data(data: Mapping[str, Any], solver: Any = None) -> tuple[ConicData, str]:
    """The :class:`ConicData` of cvxpy's ``get_problem_data`` output for ``solver`` (the
    solving chain's solver reduction, for its PSD and exponential-cone conventions), and
    a reason string when the form cannot be certified soundly."""
    offset = 0.0
    pp = data.get("param_prob")
    if pp is not None:
        try:
            offset = _offset(pp)
        except (TypeError, ValueError, IndexError, AttributeError):
            offset = math.nan
    reason = "" if math.isfinite(offset) else "the objective's constant term is unknown"
    P, why = _written_p(data.get("P"))
    reason = reason or why
    lb = data.get("lower_bounds")
    ub = data.get("upper_bounds")
    lb = None if lb is None else np.asarray(lb, dtype=float)
    ub = None if ub is None else np.asarray(ub, dtype=float)
    if "F" in data and "q" in data:  # the QP form (OSQP, HiGHS): A x = b, F x <= g
        A, n_eq = _stacked(data["A"], data["F"], len(data["q"]))
        b = np.concatenate([np.ravel(data["b"]), np.ravel(data["G"])])
        return ConicData(c=data["q"], A=A, b=b, P=P, offset=offset, zero=n_eq,
                         nonneg=A.shape[0] - n_eq, lb=lb, ub=ub), reason
    dims = data["dims"]
    if "G" in data and "h" in data:  # ECOS (and QOCO): A x = b, G x + s = h

        def rhs(v: Any) -> np.ndarray:
            return np.zeros(0) if v is None else np.ravel(np.asarray(v, dtype=float))

        A, _ = _stacked(data.get("A"), data.get("G"), len(data["c"]))
        b = np.concatenate([rhs(data.get("b")), rhs(data.get("h"))])
    else:
        A, b = data["A"], data["b"]
    psd_lower = True
    kind = getattr(solver, "PSD_TRIANGLE_KIND", None)
    if kind is not None:
        psd_lower = str(getattr(kind, "value", kind)).lower() == "lower"
    if list(dims.psd) and not getattr(solver, "PSD_SQRT2_SCALING", True):
        reason = reason or "the solver's PSD vectorisation is not scaled by sqrt(2)"
    solver_rows = None
    if dims.exp and not _exp_order_ok(solver):
        order = list(getattr(solver, "EXP_CONE_ORDER", []))
        if sorted(order) != [0, 1, 2]:
            reason = reason or "the solver orders exponential cones its own way"
        else:  # the solver's triple holds component order[j] at place j: put them back
            first = int(dims.zero) + int(dims.nonneg) + int(sum(dims.soc)) + int(
                sum(k * (k + 1) // 2 for k in dims.psd))
            solver_rows = np.arange(A.shape[0])
            back = np.array([order.index(c) for c in range(3)])
            for blk in range(int(dims.exp)):
                at = first + 3 * blk
                solver_rows[at: at + 3] = at + back
            A = sp.csr_matrix(A)[solver_rows]
            b = np.asarray(b, dtype=float)[solver_rows]
    if list(getattr(dims, "pnd", []) or []):
        reason = reason or "n-dimensional power cones are not certified"
    return ConicData(c=data["c"], A=A, b=b, P=P, offset=offset,
                     zero=int(dims.zero), nonneg=int(dims.nonneg), soc=list(dims.soc),
                     psd=list(dims.psd), exp=int(dims.exp), p3d=list(dims.p3d),
                     psd_lower=psd_lower, lb=lb, ub=ub, solver_rows=solver_rows), reason


#: a bracket within this fraction of the caller's ``tol`` ends the certificate's work
#: (the tightening that would follow only shrinks a gap already well inside ``tol``)
ENOUGH = 0.1


def _pair_bounds(cd: ConicData, x: Any, y: Any, signs: tuple[float, ...],
                 tol: float | None = None, interior: bool = True,
                 written: Any = None) -> ConicBounds:
    """Bounds with the dual point taken as ``s * y`` for the sign ``s`` (among those the
    solver's convention leaves open) whose dual residual ``c + A'(s y)`` is smaller:
    either sign gives valid bounds, the right one tight ones."""
    if y is not None and len(signs) > 1:
        At = cd.A.T

        def resid(s: float) -> float:
            g = cd.c + At @ (s * y)
            if cd.P is not None and x is not None:
                g = g + cd.P @ x
            return float(np.linalg.norm(g))

        signs = (min(signs, key=resid),)
    enough = None
    if tol is not None and tol > 0:
        primal_terms, near_zero = _term_scale(cd, x), _near_zero_scale(cd, x, y, written)

        def gap(lower: float, upper: float) -> float:
            return relative_gap(lower, upper, _gap_scale(primal_terms, near_zero, lower,
                                                         upper))

        def enough(lower: float, upper: float) -> bool:
            return gap(lower, upper) <= ENOUGH * tol
        # what the status is judged by (the primal box's stop on slow rounds reads it)
        enough.at_tol = lambda lower, upper: gap(lower, upper) <= tol  # type: ignore[attr-defined]

    dual = None if y is None else signs[0] * y
    if cd.factors:  # the written problem's bracket, not the factored form's
        return factored_bounds(cd, x, dual, lambda d, xd, yd: conic_bounds(
            d, xd, yd, interior=interior, enough=enough), enough)
    return conic_bounds(cd, x, dual, interior=interior, enough=enough)


def generic_certify(f: Any, point: Mapping[str, Any], tol: float | None = None
                    ) -> Certificate:
    """Certify ``point`` for any cvxpy formulation: see the module docstring.

    With the conic path's raw pair (``point["__conic__"]``) both sides are bounded; with
    variable values only, the primal side is bounded when the values fill every conic
    variable (no auxiliary variables) and the dual side is reported uncertified.  With
    ``tol`` (the caller's relative gap), tightening stops once the bracket is within
    ``ENOUGH * tol``: the bounds are as valid, the work is what ``tol`` needs.
    """
    sense = f.sense
    values = {k: v for k, v in point.items() if k != CONIC_KEY}
    cp_point = point.get(CONIC_KEY)
    reason = ""
    if isinstance(cp_point, ConicPoint) and cp_point.x is None and not cp_point.note:
        cp_point = None  # a solver whose raw answer is not read: the values still count
    if isinstance(cp_point, ConicPoint):
        cd, x, y = cp_point.data, cp_point.x, cp_point.y
        reason = cp_point.note
        signs = cp_point.dual_signs
    else:
        cd, x, reason = _primal_only(f.problem, values)
        y, signs = None, (1.0,)
    if reason:
        bounds = ConicBounds(-math.inf, math.inf, reason, reason)
    else:
        bounds = _pair_bounds(cd, x, y, signs, tol,
                              interior=not (isinstance(cp_point, ConicPoint) and cp_point.quick),
                              written=f.problem)
    if sense == "maximize":  # cvxpy minimises the negated objective
        lower, upper = -bounds.upper, -bounds.lower
        why_lower, why_upper = bounds.upper_reason, bounds.lower_reason
    else:
        lower, upper = bounds.lower, bounds.upper
        why_lower, why_upper = bounds.lower_reason, bounds.upper_reason
    notes = []
    if why_lower:
        notes.append(f"no certified lower bound: {why_lower}")
    if why_upper:
        notes.append(f"no certified upper bound: {why_upper}")
    names = cp_point.names if isinstance(cp_point, ConicPoint) else None
    if names is not None:
        notes = [names.rename(n) for n in notes]
    primal, dual = (upper, lower) if sense == "minimize" else (lower, upper)
    return Certificate(
        primal_value=primal, dual_value=dual, sense=sense,
        scale=_gap_scale(_term_scale(cd, x), _near_zero_scale(cd, x, y, f.problem),
                         lower, upper),
        point={k: np.asarray(v, dtype=float) for k, v in values.items()},
        residuals=dict(bounds.residuals), note="generic certificate"
        + ("; " + "; ".join(notes) if notes else ""),
    )


generic_certify.generic = True  # type: ignore[attr-defined]


def _gap_scale(primal: float | None, both: Any, lower: float, upper: float
               ) -> float | None:
    """The scale the relative gap of ``[lower, upper]`` is judged against
    (:func:`convexkern.report.relative_gap`): the primal objective's terms ``primal``,
    and a wider measure (``both``, a number or a function computing it) only where the
    bracket is within 1e-9 of 0, an optimum at 0 (Maros-Meszaros TAME on ECOS: an
    epigraph variable near 0; :func:`_near_zero_scale`).  Elsewhere dual terms far larger
    than the bounds say only that the multipliers are large: SCS's on redundant or badly
    scaled rows (to 4e10) made brackets twice as wide as the optimum, and wider, read as
    within tol."""
    size = max((abs(v) for v in (lower, upper) if math.isfinite(v)), default=math.inf)
    if size >= ABSOLUTE_GAP_BELOW:
        return primal
    return both() if callable(both) else both


def _near_zero_scale(cd: Any, x: Any, y: Any, written: Any = None) -> Any:
    """A function giving the scale of a bracket within 1e-9 of 0 (computed only when one
    is judged): the larger of the conic objective's terms and the terms of the problem
    as written, its objective and its constraints weighted by their multipliers
    (:func:`convexkern.math.terms.problem_terms`: the same whatever conic form a solver
    got); the conic dual objective's terms where the written problem's cannot be read.
    The conic dual's alone counted a square's epigraph constants (ECOS's ``1 +- t``,
    multipliers 1/2) as terms of size 1: ``-2^-45 x_0 + x_1^2`` was optimal on ECOS
    with a bracket 16 times wider than its optimum, inaccurate on Clarabel."""
    done: list[float | None] = []

    def scale() -> float | None:
        if not done:
            terms = problem_terms(written) if written is not None else None
            primal = _term_scale(cd, x)
            if terms is None:
                done.append(_term_scale(cd, x, y))
            else:
                done.append(max(terms, primal or 0.0))
        return done[0]

    return scale


def _term_scale(cd: Any, x: Any, y: Any = None) -> float | None:
    """The size of the terms the bounds sum before any cancellation
    (:func:`convexkern.report.relative_gap`): the objective's at ``x``,
    ``sum |c_j x_j| + 1/2 sum |x_i P_ij x_j| + |d|``, or, where larger, the dual
    objective's at ``y``, ``sum |b_i y_i| + |d|``.  The second is what a quadratic written
    as a cone has (ECOS on Maros-Meszaros TAME, ``(x - y)^2`` at ``x = y = 1/2``: the
    objective is an epigraph variable near 0, the cone's constants and multipliers are of
    size 1).  ``None`` without a primal point."""
    if cd is None or x is None:
        return None
    x = np.asarray(x, dtype=float).ravel()
    if x.size != cd.c.size or not np.all(np.isfinite(x)):
        return None
    total = float(np.sum(np.abs(cd.c * x))) + abs(float(cd.offset))
    if cd.P is not None:
        total += 0.5 * float(np.abs(x) @ abs_mv(cd.P, x))  # |P| kept on P
    if y is not None:
        y = np.asarray(y, dtype=float).ravel()
        if y.size == cd.b.size and np.all(np.isfinite(y)):
            total = max(total, float(np.sum(np.abs(cd.b * y))) + abs(float(cd.offset)))
    return total if math.isfinite(total) else None


def _primal_only(problem: cp.Problem, values: Mapping[str, Any]
                 ) -> tuple[Any, Any, str]:
    """The conic form (SCS's convention, or Clarabel's) and the conic ``x`` filled from
    variable values, when every conic column belongs to a named variable."""
    solver = next((s for s in ("CLARABEL", "SCS") if s in cvxpy_solvers()), None)
    if solver is None:
        return None, None, "no conic solver is installed to build the conic form"
    from .solvers.cvxpy_bounds import (  # noqa: PLC0415
        forget_unwatched,
        quad_form_drops,
        with_factors,
    )
    from .solvers.cvxpy_written import approximated  # noqa: PLC0415

    try:
        forget_unwatched(problem, solver)  # a compile cvxpy kept from outside the watch
        with quad_form_drops() as drops:
            data, chain, inverse = problem.get_problem_data(solver)
    except (cp.error.SolverError, cp.error.DCPError, ValueError) as exc:
        return None, None, f"cvxpy cannot build the conic form ({exc})"
    try:
        cd, reason = conic_data(data, chain.reductions[-1])
    except (KeyError, ValueError, TypeError, AttributeError) as exc:
        return None, None, f"its conic form could not be read ({exc})"
    if not reason and drops:
        reason = "; ".join(drops)
    if not reason:
        reason = approximated(problem)
    if not reason and drops.forms:  # the written problem's bound, not the factored one's
        cd, reason = with_factors(cd, drops.forms, inverse)
    if reason:
        return None, None, reason
    stuffing = [inv for inv in inverse if hasattr(inv, "var_offsets")]
    if not stuffing:
        return None, None, "the conic form's variables are not mapped"
    offsets = stuffing[-1].var_offsets
    by_id = {v.id: v for v in problem.variables()}
    x = np.full(cd.c.size, np.nan)
    for vid, start in offsets.items():
        var = by_id.get(vid)
        if var is None or var.name() not in values:
            continue
        val = np.asarray(values[var.name()], dtype=float)
        if val.size != var.size:
            continue
        x[start: start + var.size] = val.ravel(order="F")
    if np.isnan(x).any():
        return None, None, ("the point does not determine every conic variable (cvxpy "
                            "added auxiliary variables): solve with a conic solver")
    return cd, x, ""
