"""Compile for a solver as the user's problem asks, past two of cvxpy's solver checks,
and in cones the certificate reads.

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

**n-dimensional power cones.** Clarabel takes cvxpy's ``PowConeND``; the certificate does
not read it.  Within the block the solver is read as not taking it, so cvxpy writes the
cone as a tree of 3-d power cones (exact but for the rounding of the ratios of the
exponents' partial sums), as it does for SCS.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

import numpy as np

from .cvxpy_written import _nodes, replaced_variables

__all__ = ["ALTERED_KEY", "FACTORS_KEY", "FactorForm", "compile_as_written", "with_factors",
           "quad_form_drops", "forget_unwatched", "note_watched", "compile_locks",
           "cached_compile", "drop_compile"]

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
    insts = _instances(cvxpy_name)
    targets = [(inst, attr, False) for inst in insts for attr in _OVERRIDES
               if getattr(inst, attr, False)]
    targets += [(inst, "SUPPORTED_CONSTRAINTS", kept) for inst in insts
                for kept in [_without_nd_power(inst)] if kept is not None]
    if not targets:
        yield
        return
    with _LOCK:
        saved = [(inst, attr, inst.__dict__.get(attr, _UNSET)) for inst, attr, _ in targets]
        for inst, attr, value in targets:
            setattr(inst, attr, value)
        try:
            yield
        finally:
            for inst, attr, old in saved:
                if old is _UNSET:
                    delattr(inst, attr)
                else:
                    setattr(inst, attr, old)


def _without_nd_power(inst: Any) -> list[Any] | None:
    """The solver's constraint classes without ``PowConeND`` (``None``: it takes none).
    cvxpy then writes an n-dimensional power cone (``geo_mean(..., approx=False)``) as a
    tree of 3-d ones, as it does for SCS, and the certificate reads those; Clarabel's own
    n-d cone is not read (no bracket)."""
    supported = list(getattr(inst, "SUPPORTED_CONSTRAINTS", None) or [])
    kept = [c for c in supported if getattr(c, "__name__", "") != "PowConeND"]
    return kept if len(kept) < len(supported) else None


#: the key of cvxpy's problem data under which :func:`_run` notes a form that is not the
#: user's problem (read by the certificate: no bracket is claimed for it)
ALTERED_KEY = "__convexkern_altered__"

#: the key under which :func:`_run` keeps the forms cvxpy wrote through a factor
#: (:class:`FactorForm`), for the certificate to bound the written problem
FACTORS_KEY = "__convexkern_factors__"


#: cvxpy's quad_form canonicalisation is watched under its own lock (the compile may hold
#: :data:`_LOCK` at the same time)
_QUAD_LOCK = threading.Lock()


def compile_locks() -> tuple[threading.Lock, threading.Lock]:
    """The locks a compile takes, in the order it takes them: held around the fork of a
    compile run in a child (:mod:`.compiled`), so that no other thread is half-way through
    cvxpy's patched attributes or its quad_form canonicalisation when the child is made."""
    return _LOCK, _QUAD_LOCK


@contextmanager
def quad_form_drops() -> Iterator[Drops]:
    """Within the block, cvxpy's canonicalisation of ``quad_form(x, P)`` as a second-order
    cone is watched: it factors ``P`` by an LDL decomposition into ``scale (M1 M1' - M2
    M2')`` and drops the pivots below ``1e6 eps`` of the largest
    (``cvxpy.atoms.quad_form.decomp_quad``); with Bunch-Kaufman's pivoting a dropped
    pivot, however small, can carry a large part of ``P`` through its multipliers.  The
    conic form then holds another matrix than the user's.  Each factor whose
    reconstruction misses ``P`` by more than its rounding (an entry beyond ``64 n eps``
    of ``P``'s largest) is described in the yielded list (empty: none, or ``P`` not
    factored: a solver that takes ``P`` itself).  An adversarial run found brackets 2 %
    to 1e16 times ``|p*|`` away from the optimum on such forms (ECOS; every solver for a
    ``quad_form`` inside a constraint).  A factor within its rounding can still move the
    optimum of a problem that reaches far along ``P``'s near-null directions: every
    factored form is kept in ``forms`` (with its argument and epigraph variable), and
    the certificate bounds the written problem from it
    (:mod:`convexkern.math.conic.factored`)."""
    try:  # the module (the package exports a function of the same name)
        canon = importlib.import_module(
            "cvxpy.reductions.dcp2cone.canonicalizers.quad_form_canon")
        canon.decomp_quad  # noqa: B018 - the names patched below must exist
        canon.quad_over_lin_canon  # noqa: B018
    except (ImportError, AttributeError):  # pragma: no cover - a cvxpy without them
        yield Drops()
        return
    found = Drops()
    real, real_qol = canon.decomp_quad, canon.quad_over_lin_canon
    last: list[Any] = []
    owner = threading.get_ident()  # a compile in another thread is not this block's

    def watched(P: Any, *args: Any, **kwargs: Any) -> Any:
        out = real(P, *args, **kwargs)
        if threading.get_ident() != owner:
            return out
        last[:] = []
        if args or kwargs:
            return out
        why = _factor_miss(P, *out)
        if why:
            found.append(why)
        last[:] = [P, *out]
        return out

    def epigraph(expr: Any, args: Any, *rest: Any, **kwargs: Any) -> Any:
        # called by quad_form's canonicalisation right after the factor: sum_squares(F'u)
        t, cons = real_qol(expr, args, *rest, **kwargs)
        if last and threading.get_ident() == owner:
            P, scale, M1, M2 = last
            F = M1 if np.size(M1) else M2
            mul = args[0]  # Constant(F') @ u
            u = mul.args[1] if len(getattr(mul, "args", ())) == 2 else None
            found.forms.append(FactorForm(P=P, sigma=scale if np.size(M1) else -scale,
                                          F=F, arg=u, t=t, cone=cons[0] if cons else None,
                                          cache={}))
            last[:] = []
        return t, cons

    with _QUAD_LOCK:
        canon.decomp_quad, canon.quad_over_lin_canon = watched, epigraph
        try:
            yield found
        finally:
            canon.decomp_quad, canon.quad_over_lin_canon = real, real_qol


class FactorForm(NamedTuple):
    """A ``quad_form(u, P)`` cvxpy wrote as ``sigma t``, ``t >= |F'u|^2`` (``P ~ sigma F
    F'``): ``arg`` the expression ``u`` (``None``: not read), ``t`` the epigraph
    variable, ``cone`` its second-order cone constraint."""

    P: Any
    sigma: float
    F: Any
    arg: Any
    t: Any
    cone: Any
    #: work the certificate keeps for this factor across solves (a fresh dict each)
    cache: dict


class Drops(list):
    """The factors that miss ``P`` beyond rounding (their descriptions, as a list), and
    every factored form (``forms``: :class:`FactorForm`)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[FactorForm] = []


def _factor_miss(P: Any, scale: float, M1: np.ndarray, M2: np.ndarray) -> str:
    """How far ``scale (M1 M1' - M2 M2')`` is from ``P`` when that is beyond rounding
    (``""``: within it): the largest entry of the difference against ``64 n eps`` of
    ``P``'s largest; past 1000 columns, the difference applied to four random vectors
    (a lower estimate: a miss it shows is a miss)."""
    Pd = P.toarray() if hasattr(P, "toarray") else np.asarray(P, dtype=float)
    n = Pd.shape[0]
    top = float(np.max(np.abs(Pd), initial=0.0))
    if n == 0 or top == 0.0 or not np.isfinite(top):
        return ""

    def dense(M: Any) -> np.ndarray:  # a factor: dense, or sparse (cvxpy's Cholesky path)
        M = M.toarray() if hasattr(M, "toarray") else np.asarray(M, dtype=float)
        return M.reshape(n, -1) if M.size else np.zeros((n, 0))

    M1, M2 = dense(M1), dense(M2)
    if n <= 1000:  # at most ~1e9 flops, a third of cvxpy's own LDL of P
        miss = float(np.max(np.abs(Pd - scale * (M1 @ M1.T - M2 @ M2.T))))
    else:
        V = np.random.default_rng(0).standard_normal((n, 4))
        D = Pd @ V - scale * (M1 @ (M1.T @ V) - M2 @ (M2.T @ V))
        miss = float(np.max(np.abs(D)) / np.max(np.sum(np.abs(V), axis=0)))
    if not miss > 64 * n * float(np.finfo(float).eps) * top:
        return ""
    return (f"its factor of a quad_form's P ({n} x {n}) misses P by {miss / top:.2g} of its "
            "largest entry")


def with_factors(cd: Any, forms: list[FactorForm], inverse: Any) -> tuple[Any, str]:
    """``cd`` carrying its factored quadratic forms
    (:class:`~convexkern.math.conic.factored.QuadFactor`: the argument's affine map over
    the form's columns, read with cvxpy's own coefficient extractor, and the cone of each
    epigraph variable), and ``""``; or ``cd`` and the reason no bracket of the written
    problem can be claimed (a form not read)."""
    from dataclasses import replace  # noqa: PLC0415

    import scipy.sparse as sp  # noqa: PLC0415

    from ..math.conic import QuadFactor  # noqa: PLC0415
    from ..math.conic.factored import MAX_FLOPS, too_large  # noqa: PLC0415

    def dense(M: Any) -> np.ndarray:
        return np.asarray(M.toarray() if hasattr(M, "toarray") else M, dtype=float)

    out = []
    try:
        from cvxpy.utilities.coeff_extractor import CoeffExtractor  # noqa: PLC0415

        stuffing = next(d for d in reversed(list(inverse)) if hasattr(d, "var_offsets"))
        extract = CoeffExtractor(stuffing, None)
        socs = [(i, k) for kind, i, k in cd.blocks if kind == "soc"]
        for form in forms:
            u = form.arg
            n = int(np.shape(form.P)[0])
            k = int(np.shape(form.F)[1]) if np.ndim(form.F) == 2 else 0
            what = f"quad_form({str(u)[:40]}, P)" if u is not None else "a quad_form"
            if n * n * max(k, 1) > MAX_FLOPS:
                return cd, too_large(what, n)
            if u is None or u.parameters() or form.t.id not in stuffing.var_offsets:
                return cd, f"{what}: its factored form could not be read"
            u = _in_form(u, stuffing, inverse)
            if u is None:
                return cd, f"{what}: its argument's variables could not be read in the form"
            T = sp.csc_matrix(extract.affine(u))
            width = stuffing.x_length + 1
            # one column per parameter entry, the constant's last: u has no parameter
            if T.shape[0] != u.size * width or T[:, :-1].count_nonzero():
                return cd, f"{what}: its factored form could not be read"
            T = sp.coo_matrix(T[:, -1])
            A = sp.csr_matrix((T.data, (T.row % u.size, T.row // u.size)),
                              shape=(u.size, width))
            tcol = int(stuffing.var_offsets[form.t.id])
            head = next((i for i, size in socs if size == k + 2
                         and cd.A[i, tcol] == -1.0 and cd.A[i + 1, tcol] == 1.0
                         and cd.b[i] == 1.0 and cd.b[i + 1] == 1.0), None)
            if head is None or A.shape[0] != n:
                return cd, f"{what}: its second-order cone was not found in the form"
            out.append(QuadFactor(head=head, tcol=tcol, P=dense(form.P), sigma=float(form.sigma),
                                  F=dense(form.F).reshape(n, k), A=sp.csr_matrix(A[:, :-1]),
                                  b=A[:, -1].toarray().ravel(), what=what,
                                  cache=form.cache))
    except (StopIteration, AttributeError, TypeError, ValueError, IndexError) as exc:
        return cd, f"a quad_form's factored form could not be read ({type(exc).__name__})"
    return replace(cd, factors=tuple(out)), ""


def _in_form(u: Any, stuffing: Any, inverse: Any) -> Any:
    """``u`` over the variables of the conic form (``None``: not possible).  cvxpy
    canonicalises ``quad_form`` before it replaces a variable with attributes
    (``nonneg``, ``bounds``, ...) by a plain one of the same shape, so ``u`` may name a
    variable the form does not have: it is then read through that replacement (cvxpy's
    attribute reduction keeps the map in its inverse data); a replacement of another shape
    (``symmetric``, ``diag``) is not read.  Every variable is checked against the form's
    offsets and shapes before cvxpy's extractor sees it (it aborts the process on an
    unknown one)."""
    shapes = getattr(stuffing, "var_shapes", {})

    def known(v: Any) -> bool:
        return v.id in stuffing.var_offsets and tuple(shapes.get(v.id, ())) == tuple(v.shape)

    swap: dict[int, Any] = {}
    replaced = replaced_variables(inverse)  # cvxpy's attribute reduction
    for v in u.variables():
        if known(v):
            continue
        new = replaced.get(v.id)
        if new is None or new is v or tuple(new.shape) != tuple(v.shape) or not known(new):
            return None
        swap[id(v)] = new
    return u.tree_copy(swap) if swap else u


def forget_unwatched(problem: Any, cvxpy_name: str) -> None:
    """Before a compile under :func:`quad_form_drops`: cvxpy reuses its last compile of a
    problem for the same solver without canonicalising again.  That compile is dropped,
    so that this one is made again and watched, when it was made outside the watch (the
    user's own ``problem.solve(solver=...)``: no record of its factors), or when it holds
    a parameter's value that has changed since (:func:`_frozen_changed`).  Otherwise it
    stays (:func:`note_watched`)."""
    prog = cached_compile(problem)
    seen = problem.__dict__.get("_convexkern_watched", {})
    if prog is not None and (seen.get(cvxpy_name) is not prog
                             or _frozen_changed(problem, cvxpy_name, prog)):
        drop_compile(problem)


def cached_compile(problem: Any) -> Any:
    """cvxpy's cached compile of ``problem`` (its parametrised program), or ``None``."""
    return getattr(getattr(problem, "_cache", None), "param_prog", None)


def drop_compile(problem: Any) -> None:
    """Drop cvxpy's cached compile of ``problem``: the next compile canonicalises again."""
    cache = getattr(problem, "_cache", None)
    if cache is None:
        return
    try:
        cache.invalidate()
    except AttributeError:  # pragma: no cover - a cvxpy without it
        problem._cache = type(cache)()


def note_watched(problem: Any, cvxpy_name: str) -> None:
    """After a compile under :func:`quad_form_drops`: cvxpy's cached compile was watched;
    the parameters' values it was made with are kept (:func:`_frozen_changed`)."""
    prog = cached_compile(problem)
    problem.__dict__.setdefault("_convexkern_watched", {})[cvxpy_name] = prog
    values = {p.id: _copy_value(p.value) for p in _parameters(problem)}
    problem.__dict__.setdefault("_convexkern_param_values", {})[cvxpy_name] = values


def _exponent_parameters(problem: Any) -> set[int]:
    """The ids of the parameters in a power cone's exponent: cvxpy reads their values once
    into the cones (or, for ``PowCone3DApprox``, into the second-order cones of its
    rational approximation), whatever other column they have."""
    return {q.id for node in _nodes(problem)
            for q in (getattr(getattr(node, "alpha", None), "parameters", list)())}


def _parameters(problem: Any) -> list[Any]:
    """Every parameter of ``problem``, those cvxpy's ``parameters()`` leaves out too: a
    power cone's exponent (``alpha``, not among the constraint's arguments)."""
    found = {p.id: p for p in problem.parameters()}
    for node in _nodes(problem):
        if type(node).__name__ == "Parameter":
            found.setdefault(node.id, node)
    return list(found.values())


def _copy_value(v: Any) -> Any:
    return None if v is None else np.array(v, dtype=complex if np.iscomplexobj(v) else float)


def _frozen_changed(problem: Any, cvxpy_name: str, prog: Any) -> bool:
    """Whether cvxpy's cached compile ``prog`` holds a parameter's value that has changed
    since it was made.  cvxpy reuses a compile of a DPP problem with the parameters'
    new values, but some canonicalisations read a value once: ``quad_form(x, P)`` of a
    parameter ``P`` below a non-affine atom is factored from ``P.value``, a ``PowCone3D``
    or ``PowConeND`` exponent goes into the cone's dimensions.  Such a parameter has no
    column in the compiled program (``param_id_to_col``), or the program has power cones
    (whose exponents are not columns): a change of any parameter then drops the compile.
    Before, the certificate bounded the old problem: ``maximum(quad_form(x, psd_wrap(P)),
    0) + q'x`` was certified ``optimal`` at the first ``P``'s optimum, and a
    ``PowCone3D`` with a new exponent was "proved" infeasible."""
    kept = problem.__dict__.get("_convexkern_param_values", {}).get(cvxpy_name)
    if kept is None:
        return False
    changed = []
    for p in _parameters(problem):
        old, now = kept.get(p.id, _UNSET), p.value
        if old is _UNSET or (old is None) != (now is None) or (
                now is not None and not np.array_equal(old, np.asarray(now))):
            changed.append(p.id)
    if not changed:
        return False
    if set(changed) & _exponent_parameters(problem):
        return True  # read once into the cones (PowCone3DApprox: into SOC rows)
    columns = getattr(prog, "param_id_to_col", None) or {}
    dims = getattr(prog, "cone_dims", None)
    powers = bool(getattr(dims, "p3d", None)) or bool(getattr(dims, "pnd", None))
    # a factored quad_form's P may be a column too (the same parameter in an affine
    # row): any change drops a compile that holds a factor
    factored = bool(problem.__dict__.get("_convexkern_factors", {}).get(cvxpy_name))
    return powers or factored or any(pid not in columns for pid in changed)
