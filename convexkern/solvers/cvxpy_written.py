"""Whether cvxpy's conic form of a problem is the problem written.

cvxpy gives a solver another problem than the one written in a few places: exponents
replaced by rationals (``power``, ``pnorm``, ``geo_mean``, ``PowCone3DApprox``), entropies
by a quadrature of the logarithm, power-cone exponents summing to 1 only within its
tolerance, a parameter's or ``tr_inv``'s matrix read as symmetric where its value is not,
quadratic terms added in floating point.  :func:`approximated` names the atoms and cones
of a problem whose form is not the problem written (the certificate then claims no
bracket), and :func:`curved_along` checks a solver's improving ray against the written
objective.  Certificates of the form are proofs about the form only; these are the
places where that is not enough.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

__all__ = ["approximated", "curved_along"]


def _nodes(problem: Any) -> Iterator[Any]:
    """Every node of ``problem``'s expression trees once: the arguments
    (:func:`_children`) and a power cone's exponent (``alpha``, not among them)."""
    seen: set[int] = set()
    stack = [problem.objective, *problem.constraints]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        yield node
        stack.extend(_children(node))
        alpha = getattr(node, "alpha", None)
        if alpha is not None and hasattr(alpha, "parameters"):
            stack.append(alpha)


def approximated(problem: Any) -> str:
    """The atoms and cones cvxpy gives the solver in another form than the one written
    (``""``: none).

    * ``power``, ``pnorm`` and ``geo_mean`` write a non-dyadic exponent or weight by a
      rational with a denominator up to ``max_denom`` (``approx=True``, cvxpy's default):
      ``power(x, 0.1234567)`` is solved as ``x^(10/81)``, and a bracket of that form
      missed the written optimum of ``max x^p - x/10`` by 2.2e-8 relative, certified
      ``optimal``.  An exponent whose approximation is the written double
      (``approx_error == 0``: 0.3 as 3/10) is the problem written.
    * ``quantum_rel_entr`` (and ``quantum_cond_entr``, written with it),
      ``von_neumann_entr`` with ``quad_approx``, and the cones ``RelEntrConeQuad`` and
      ``OpRelEntrConeQuad`` are given as second-order or PSD cones by a Gauss-Legendre
      quadrature of the logarithm (``m`` nodes, ``k`` scalings): ``min
      quantum_rel_entr(X, I)`` over ``0.01 <= X <= 5`` (1 x 1, ``quad_approx=(2, 2)``) was
      certified ``optimal`` in ``[-0.36787152, -0.36787152]`` where the optimum is
      ``-1/e = -0.36787944``.  The quadrature's error has no sign cvxpy guarantees, so
      no bound on that form is one on the problem."""
    found: list[str] = []
    for node in _nodes(problem):
        found.extend(_quadrature(node) or _rational(node) or _pow_cones(node)
                     or _unsymmetric(node))
        if len(found) >= 3:
            break
    if not found:
        return ""
    fixes = []
    if any(f.startswith(("power", "pnorm", "geo_mean")) for f in found):
        fixes.append("write the exponent as a Fraction with a small denominator, or pass "
                     "approx=False (power cones, exact for the solvers that take them)")
    if any(f.startswith("PowCone3DApprox") for f in found):
        fixes.append("write a PowCone3D (exact) rather than a PowCone3DApprox")
    if any(f.startswith("PowConeND") for f in found):
        fixes.append("write exponents that sum to 1 exactly")
    if any(f.startswith("tr_inv") for f in found):
        fixes.append("make the matrix symmetric for every value of its variables (a "
                     "variable declared symmetric=True or PSD=True, or (X + X.T) / 2)")
    if any(f.startswith(("quad_form", "Parameter")) for f in found):
        fixes.append("give the parameter a value with its declared structure exactly, "
                     "e.g. (P + P.T) / 2")
    if any(f.startswith("von_neumann_entr") for f in found):
        fixes.append("leave out quad_approx: von_neumann_entr is then written with "
                     "exponential cones, exact")
    if any(f.startswith(("quantum", "RelEntrConeQuad", "OpRelEntrConeQuad")) for f in found):
        fixes.append("for a scalar relative entropy write rel_entr or kl_div (exponential "
                     "cones, exact); cvxpy has no exact conic form of quantum_rel_entr")
    return "; ".join(found[:3]) + ": " + "; ".join(fixes)


#: cvxpy's atoms and cones given to the solver by a quadrature of the logarithm, with
#: where their ``(m, k)`` is kept
_QUADRATURE = {"quantum_rel_entr": "quad_approx", "von_neumann_entr": "quad_approx",
               "RelEntrConeQuad": "mk", "OpRelEntrConeQuad": "mk"}


def _quadrature(node: Any) -> list[str]:
    """The node's note when cvxpy solves it by quadrature (:func:`approximated`)."""
    name = type(node).__name__
    where = _QUADRATURE.get(name)
    if where is None:
        return []
    mk = (getattr(node, "m", "?"), getattr(node, "k", "?")) if where == "mk" else tuple(
        getattr(node, "quad_approx", ()) or ())
    if not mk:  # von_neumann_entr without quad_approx: exponential cones, exact
        return []
    return [f"{name} '{str(node)[:50]}' is solved by cvxpy's quadrature approximation "
            f"(m, k) = ({mk[0]}, {mk[1]}) of the logarithm"]


def _rational(node: Any) -> list[str]:
    """The node's note when cvxpy solves it with a rational approximation of its exponent
    or weights (:func:`approximated`)."""
    err = getattr(node, "approx_error", 0.0)
    try:
        err = float(err)
    except (TypeError, ValueError):
        err = 0.0
    if not (err > 0.0 or err != err):
        return []
    name = type(node).__name__.removesuffix("Approx")
    if name == "GeoMean":
        used = "the weights " + ", ".join(str(w) for w in getattr(node, "w", ()))
    else:
        used = f"the exponent {getattr(node, 'p_used', None) or getattr(node, 'p', '?')}"
    return [f"{ {'GeoMean': 'geo_mean'}.get(name, name.lower())} '{str(node)[:50]}' is "
            f"solved with {used}, cvxpy's rational approximation (off by {err:.2g})"]


def _children(node: Any) -> list[Any]:
    """The nodes :func:`approximated` walks below ``node``: its arguments, and what cvxpy
    keeps beside them: ``perspective``'s function ``f`` (its arguments are ``f``'s
    variables only), the set of a ``suppfunc`` (kept on its parent ``SuppFunc``)."""
    out = list(getattr(node, "args", ()))
    for name in ("f", "f_recession"):
        sub = getattr(node, name, None) if type(node).__name__ == "perspective" else None
        if sub is not None:
            out.append(sub)
    parent = getattr(node, "_parent", None)
    out.extend(getattr(parent, "constraints", None) or ())
    return out


def _pow_cones(node: Any) -> list[str]:
    """The note of a power cone cvxpy gives the solver with other exponents than written:
    ``PowCone3DApprox`` (its exponent as cvxpy's rational, when that is not the double
    written: 0.1234567 as 10/81, certified ``optimal`` 1.8e-7 relative off the written
    optimum), and ``PowConeND`` whose exponents sum to 1 only within cvxpy's tolerance
    (1e-6; it writes them as ``(a0, 1 - a0)``: ``(0.5, 0.5 + 9e-7)`` was certified
    ``optimal`` with ``W = 1e8`` 1.7e-6 relative off).  Exponents that sum to 1 within
    rounding are the problem written, as ``power``'s are (:func:`_rational`)."""
    name = type(node).__name__
    if name not in ("PowCone3DApprox", "PowConeND"):
        return []
    alpha = getattr(node, "alpha", None)
    try:
        a = np.asarray(getattr(alpha, "value", alpha), dtype=float)
    except (TypeError, ValueError):
        return [f"{name} '{str(node)[:50]}' has exponents that cannot be read"]
    if name == "PowCone3DApprox":
        from cvxpy.utilities.power_tools import fracify  # noqa: PLC0415

        for v in np.atleast_1d(a).ravel().tolist():
            w = fracify([v, 1.0 - v])[0][0]
            if float(w) != v:
                return [f"PowCone3DApprox '{str(node)[:50]}' is solved with the exponent "
                        f"{w} for {v!r}, cvxpy's rational approximation"]
        return []
    axis = int(getattr(node, "axis", 0) or 0)
    sums = np.atleast_1d(np.sum(a, axis=axis) if a.ndim > 1 else np.sum(a))
    n = a.shape[axis] if a.ndim > 1 else a.size
    off = float(np.max(np.abs(sums - 1.0)))
    if off > 4 * n * np.finfo(float).eps:
        return [f"PowConeND '{str(node)[:50]}' has exponents summing to 1 {off:+.2g} "
                "(cvxpy accepts 1e-6), which cvxpy's form rewrites to sum to 1"]
    return []


def _unsymmetric(node: Any) -> list[str]:
    """The note of a matrix argument cvxpy's form reads as symmetric where the problem
    written does not:

    * ``tr_inv`` of a matrix not symmetric for every value of its variables: its value
      is +inf off the symmetric matrices, but cvxpy's form bounds only the symmetric
      part, with no ``X == X'`` row (``lambda_max`` and ``matrix_frac`` add one): ``min
      tr_inv([[2, a], [0, 2]]) - a`` was certified ``optimal`` at -0.869 where the
      optimum is 1, at ``a = 0``.  Symmetry is decided exactly on the coefficients of
      ``X - X'`` (:func:`_symmetric_affine`), not by cvxpy's syntactic test.
    * ``quad_form`` of a parameter whose value is not symmetric (cvxpy accepts one
      symmetric to its tolerance): its value ``x'Px`` is that of ``(P + P')/2``, the
      form's (DPP) matrix is one triangle's; a constant ``P`` reaches the certificate as
      written and is checked there (``convexkern.generic``)."""
    name = type(node).__name__
    args = getattr(node, "args", None) or []
    if name == "Parameter":
        return _structured_parameter(node)
    if name == "tr_inv" and args:
        if _symmetric_affine(args[0]):
            return []
        return [f"tr_inv '{str(node)[:50]}' is of a matrix that is not symmetric for every "
                "value of its variables (its value is +inf off the symmetric ones; cvxpy's "
                "form bounds the symmetric part only)"]
    if name == "QuadForm" and len(args) == 2 and args[1].parameters():
        value = args[1].value
        if value is None:
            return []
        M = value.toarray() if hasattr(value, "toarray") else np.asarray(value)
        if M.ndim == 2 and not np.array_equal(M, M.conj().T):
            return [f"quad_form '{str(node)[:50]}' has a parameter matrix whose value is not "
                    "symmetric (its value x'Px is that of (P + P')/2; cvxpy's form reads one "
                    "triangle)"]
    return []


def _structured_parameter(P: Any) -> list[str]:
    """The note of a parameter declared symmetric (``symmetric``, ``PSD``, ``NSD``,
    ``hermitian``) or diagonal whose value is not exactly so: cvxpy accepts a value off by
    its tolerance (1e-10 for ``diag``, its projection's for the others) and keeps it, so
    the value the problem is written with (``.value``) has it; its compiled form keeps one
    triangle (the diagonal).  ``min sum(P * X)`` over ``|X| <= 1e10`` with ``P`` off by
    1.5e-10 was certified ``optimal`` 1.5 away from the written optimum."""
    value = P.value
    if value is None:
        return []
    attrs = getattr(P, "attributes", {}) or {}
    M = value.toarray() if hasattr(value, "toarray") else np.asarray(value)
    if M.ndim != 2 or M.shape[0] != M.shape[1]:
        return []
    if any(attrs.get(k) for k in ("symmetric", "PSD", "NSD", "hermitian")) and not \
            np.array_equal(M, M.conj().T):
        return [f"Parameter '{P.name()}' is declared symmetric but its value is not exactly "
                "so (cvxpy's form keeps one triangle of it)"]
    if attrs.get("diag") and np.any(M - np.diag(np.diag(M))):
        return [f"Parameter '{P.name()}' is declared diagonal but its value is not exactly so "
                "(cvxpy's form keeps its diagonal)"]
    return []


def _symmetric_affine(X: Any) -> bool:
    """Whether the affine matrix expression ``X`` is symmetric (Hermitian) for every
    value of its variables: every coefficient of ``X - X'`` in cvxpy's canonical form is
    exactly 0.  A variable declared symmetric (or PSD) is; a wrap (``psd_wrap``,
    ``symmetric_wrap``) is looked through, as a claim and not a proof."""
    import cvxpy as cp  # noqa: PLC0415

    inner = X
    while type(inner).__name__ in ("PSDWrap", "SymmetricWrap", "HermitianWrap") and inner.args:
        inner = inner.args[0]
    if type(inner).__name__ == "Variable" and (inner.is_symmetric() or inner.is_hermitian()):
        return True
    if not (getattr(inner, "ndim", 0) == 2 and inner.shape[0] == inner.shape[1]):
        return False
    if not inner.variables():
        value = inner.value
        return value is not None and bool(np.array_equal(value, np.conj(value).T))
    try:
        D = inner - (inner.H if inner.is_complex() else inner.T)
        if D.is_complex():
            D = cp.hstack([cp.vec(cp.real(D), order="F"), cp.vec(cp.imag(D), order="F")])
        t = cp.Variable()
        data = cp.Problem(cp.Minimize(t), [cp.vec(D, order="F") == 0, t >= 0]
                          ).get_problem_data(cp.CLARABEL if cp.CLARABEL in
                                             cp.installed_solvers() else cp.SCS)[0]
    except Exception:  # noqa: BLE001 - cvxpy cannot form it: not proved symmetric
        return False
    A, b = data["A"], np.asarray(data["b"], dtype=float)
    m = int(data["dims"].zero)  # the equality rows come first
    rows = _rows_without_zeros(A, m)
    return bool(rows.nnz == 0 and not np.any(b[:m]))


def _rows_without_zeros(A: Any, m: int) -> Any:
    """The first ``m`` rows of the sparse ``A``, without its stored zeros."""
    import scipy.sparse as sp  # noqa: PLC0415

    R = sp.csr_matrix(A)[:m]
    R.eliminate_zeros()
    return R


def replaced_variables(inverse: Any) -> dict[int, Any]:
    """cvxpy's replacement of the user's variables with attributes (``nonneg``,
    ``bounds``, ...) by new ones, from its inverse data: variable id -> the new
    variable, whose columns the conic form holds."""
    replaced: dict[int, Any] = {}
    for entry in inverse or ():
        if (isinstance(entry, tuple) and len(entry) >= 2 and isinstance(entry[0], dict)
                and isinstance(entry[1], dict)):
            replaced.update(entry[0])
    return replaced


def curved_along(problem: Any, inverse: Any, ray: Any) -> str:
    """Why the solver's improving ray ``ray`` (its conic ``x``) is not one of the problem
    written (``""``: nothing seen): the written objective, evaluated by cvxpy along the
    ray far from the origin (``t d`` with ``max |t d|`` = 2^20, 2^21, 2^22), grows
    quadratically there while the form's objective, whose ``P d = 0`` the proof
    checked, is affine.  cvxpy adds the matrices of two quadratic terms on one variable
    in floating point: ``quad_form(x, psd_wrap(1e16 [[1, -1], [-1, 1]])) + sum_squares(x)
    - x_0 - x_1`` reached the solver as ``1e16 [[1, -1], [-1, 1]]`` (1e16 + 1 rounds to
    1e16), and its ray along ``(1, 1)`` "proved" a problem with optimum -1/2 unbounded.
    A norm or another convex term grows at most linearly that far out; a value cvxpy
    cannot evaluate there (an overflow) sees nothing."""
    d = np.asarray(ray, dtype=float).ravel() if ray is not None else None
    stuffing = [inv for inv in (inverse or ()) if hasattr(inv, "var_offsets")]
    if d is None or not stuffing or not np.all(np.isfinite(d)) or not np.any(d):
        return ""
    offsets = stuffing[-1].var_offsets
    replaced = replaced_variables(inverse)
    slots = []
    for v in problem.variables():
        key = v.id if v.id in offsets else getattr(replaced.get(v.id), "id", None)
        start = offsets.get(key) if key is not None else None
        if start is None or start + v.size > d.size:
            return ""
        slots.append((v, d[start: start + v.size]))
    scale = float(np.max(np.abs(d)))
    sign = -1.0 if type(problem.objective).__name__ == "Maximize" else 1.0
    saved = [(v, v.value) for v, _ in slots]
    vals = []
    try:
        with np.errstate(all="ignore"):
            for k in (1.0, 2.0, 3.0):
                t = k * 2.0 ** 20 / scale
                for v, dv in slots:
                    v.save_value(np.reshape(t * dv, v.shape, order="F"))
                val = problem.objective.expr.value
                vals.append(sign * float(np.real(val)) if val is not None else np.nan)
    except (ValueError, TypeError, ArithmeticError):
        return ""
    finally:
        for v, old in saved:
            v.save_value(old)
    if not np.all(np.isfinite(vals)):
        return ""
    second = vals[2] - 2.0 * vals[1] + vals[0]
    size = abs(vals[0]) + 2.0 * abs(vals[1]) + abs(vals[2])
    if second > 1e-6 * size:  # 2 T^2 q of a quadratic, far above any rounding
        return ("its improving ray is not one of the problem written: the written "
                "objective grows quadratically along it (cvxpy's form of the quadratic "
                "terms is rounded, e.g. two quad_forms of very different scales added)")
    return ""
