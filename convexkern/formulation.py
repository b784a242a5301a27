"""The :class:`Formulation`: a cvxpy problem that knows how to certify its solutions.

Every builder in :mod:`convexkern.formulations` returns one.  It holds an ordinary
``cvxpy.Problem`` (extend it, solve it yourself, or hand it to :func:`convexkern.solve`),
its variables and parameters under the paper's names, and a certificate that turns any
candidate point into a valid pair of bounds on the optimal value.
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import cvxpy as cp
import numpy as np

from .errors import ConvexkernError, InvalidInputError, InvalidTypeError
from .generic import CONIC_KEY, generic_certify
from .report import Certificate

__all__ = ["Formulation", "cone_class", "from_cvxpy"]

#: Certificate function: ``certify(formulation, point) -> Certificate``, optionally with a
#: keyword ``tol`` (the requested relative gap; see :meth:`Formulation.certificate`).
Certifier = Callable[..., Certificate]
#: Point extraction after a conic solve: ``extract(formulation) -> dict``.
Extractor = Callable[["Formulation"], dict[str, np.ndarray]]


@dataclass(eq=False)
class Formulation:
    """A convex formulation of a kernel machine.

    Attributes
    ----------
    name : str
        Short identifier, e.g. ``"svm.dual"``.
    problem : cvxpy.Problem
        The conic problem.  It is an ordinary cvxpy problem: add constraints, change the
        objective, solve it with any cvxpy solver.  A builder may pass a function of no
        arguments instead: the problem is then built on first access of ``problem`` (and
        kept), so a custom algorithm that reads only ``data`` never pays for it (the SDPM
        with ``m = 10^5`` trajectories: gigabytes of cvxpy expressions).
    variables, parameters : dict
        cvxpy variables and parameters by the paper's names (``"alpha"``, ``"C"``...).
    source : str
        Paper and equation numbers.
    kind : str
        Family key that custom algorithms register for (``"svm.dual"``...).  Two
        formulations with the same ``kind`` share the same data layout in ``data``.
    data : dict
        The problem data (kernel, labels...) as validated float arrays, for custom
        algorithms and certificates.
    certify : callable or None
        ``certify(formulation, point) -> Certificate``.  It may also take a keyword
        ``tol`` (the relative gap the solve asked for): a certificate with optional extra
        work (e.g. a refinement of its bound) can then stop once the bound meets it.
        ``None`` (the default) uses the generic certificate of
        :mod:`convexkern.generic`: rigorous bounds from the conic form cvxpy builds, for
        any LP, QP, SOCP, SDP or exponential-cone problem solved by a conic solver.
    extract : callable, optional
        Reads the point to certify out of the solved ``problem`` (default: the values of
        ``variables``).  Formulations whose certificate needs dual variables (e.g. a
        multiplier vector) override it.
    dual_builder : callable, optional
        Builds the dual as another Formulation.
    default_solver : str
        Solver used by :func:`convexkern.solve` when none is named.
    facts : dict, optional
        What the builder proves, with the reason: ``"feasible"`` (a point it names is
        feasible) and ``"bounded"`` (the objective is bounded on the feasible set), and
        the opposite words ``"infeasible"``/``"unbounded"`` where a theorem proves them.
        A value is the reason, or a function returning it (``""``: not proven), run only
        when a solver's claim needs checking (e.g. an LP for separability).  A solver's
        ``infeasible``/``unbounded`` claim that contradicts a fact is refuted by
        :func:`convexkern.solve` (reported as ``error`` with both reasons); one that its
        own ray cannot prove stands when a fact proves it.
    variant : str, optional
        A refinement of ``kind`` that some algorithms need (the Kreĭn stabilization's
        ``"shift"`` or ``"flip"``): the solver table may name ``"kind[variant]"`` for an
        algorithm that applies to that variant only.
    hints : dict, optional
        What to tell the user when a solve ends without a solution, by status value
        (``{"infeasible": "use a soft margin (C > 0)"}``); every solver appends it to
        the report's message.
    decision : str, optional
        How a solution classifies a point, for a spec's test accuracy (one of
        :data:`DECISION_RULES`): ``"dual_expansion"`` (``sum_i alpha_i y_i k(x_i, x) +
        b``, the SVM dual's), ``"expansion"`` (``sum_i alpha_i k(x_i, x) + b``: a
        representer expansion such as kernel logistic regression's), ``"linear"``
        (``w'x + b``), or ``None``: no rule, and no accuracy is reported (a spec never
        guesses one from variable names).
    """

    name: str
    problem: cp.Problem
    variables: dict[str, cp.Variable]
    parameters: dict[str, cp.Parameter]
    source: str
    kind: str
    data: dict[str, Any]
    certify: Certifier | None = None
    extract: Extractor | None = None
    dual_builder: Callable[[], Formulation] | None = None
    default_solver: str = "clarabel"
    notes: str = ""
    hints: dict[str, str] = field(default_factory=dict)
    facts: dict[str, str | Callable[[], str]] = field(default_factory=dict)
    variant: str = ""
    decision: str | None = None
    _dual: Formulation | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.certify is None:
            self.certify = generic_certify
        if self.decision is not None and self.decision not in DECISION_RULES:
            raise InvalidInputError("decision", f"must be one of {list(DECISION_RULES)} or "
                                                f"None, got {self.decision!r}")

    @property
    def generic(self) -> bool:
        """Whether the formulation is certified by the generic certificate (or a wrapper
        of it marked ``generic = True``, e.g. a timer): the conic path then hands it the
        solver's raw pair."""
        return bool(getattr(self.certify, "generic", False))

    # -- the solution side -------------------------------------------------------------
    @property
    def sense(self) -> str:
        """``"minimize"`` or ``"maximize"``, as the problem's objective says (a problem
        still to be built may say it by a ``sense`` attribute of its builder, so that
        asking does not build it)."""
        p = self.__dict__.get("_problem")
        if not isinstance(p, cp.Problem) and getattr(p, "sense", None) in SENSES:
            return p.sense
        return "maximize" if isinstance(self.problem.objective, cp.Maximize) else "minimize"

    def certificate(self, point: Mapping[str, Any] | None = None, *,
                    tol: float | None = None) -> Certificate:
        """Certified bounds for ``point`` (default: the current values in ``problem``).

        Parameters
        ----------
        point : dict, optional
            Values by variable name (default: :meth:`current_point`).  Names it lacks
            are read from the solved problem where it has values.  The generic
            certificate also reads the conic path's raw pair under ``"__conic__"``.
        tol : float, optional
            The requested relative gap, forwarded to ``certify`` when it takes a ``tol``
            keyword (every solver passes its ``tol`` through
            :func:`convexkern.solvers.certified_report`); ignored otherwise.  The bounds
            are valid either way; ``tol`` only lets a certificate skip work it does not
            need.
        """
        if point is None:
            point = self.current_point()
        else:
            solved = {k: v.value for k, v in self.variables.items()
                      if k not in point and v.value is not None}
            point = {**solved, **point}
        pt = {k: v if k == CONIC_KEY else np.asarray(v, dtype=float)
              for k, v in point.items()}
        if tol is not None and _takes_tol(self.certify):
            return self.certify(self, pt, tol=tol)
        return self.certify(self, pt)

    def current_point(self) -> dict[str, np.ndarray]:
        """The point stored in the cvxpy problem after a solve."""
        if self.extract is not None:
            return self.extract(self)
        out = {}
        for k, v in self.variables.items():
            if v.value is None:
                raise InvalidInputError("point", f"variable '{k}' has no value: solve first")
            out[k] = np.asarray(v.value, dtype=float)
        return out

    def dual(self) -> Formulation:
        """The dual problem as a Formulation (built once, then cached)."""
        if self.dual_builder is None:
            raise NotImplementedError(f"{self.name} has no dual builder")
        if self._dual is None:
            self._dual = self.dual_builder()
        return self._dual

    # -- parameters --------------------------------------------------------------------
    def param_values(self) -> dict[str, Any]:
        """Current parameter values as plain Python numbers (or arrays)."""
        out: dict[str, Any] = {}
        for k, p in self.parameters.items():
            v = p.value
            if v is not None and np.ndim(v) == 0:
                v = complex(v) if np.iscomplexobj(v) else float(v)
            out[k] = v
        return out

    def param(self, name: str) -> Any:
        """The current value of the Parameter ``name``, validated: a float for a scalar
        Parameter (an array otherwise), finite, ``> 0`` if the Parameter is declared
        ``pos=True`` and ``>= 0`` if ``nonneg=True``.

        Solvers read hyper-parameters through this at solve time: a value set on the cvxpy
        Parameter directly (``f.parameters["C"].value = 0.0``; cvxpy accepts 0 for a
        ``pos=True`` Parameter) is refused here with an error naming it, as
        :meth:`set_params` refuses it.

        Raises
        ------
        InvalidInputError
            Unknown name, no value, non-finite value or a value outside the declared sign.
        """
        if name not in self.parameters:
            raise InvalidInputError(
                name, f"{self.name} has no parameter '{name}' (it has {sorted(self.parameters)})"
            )
        p = self.parameters[name]
        return _checked_value(name, p, p.value)

    def check_params(self) -> dict[str, Any]:
        """Every Parameter's value checked by :meth:`param`, by name (what
        :func:`convexkern.solve` does before any solver runs)."""
        return {k: self.param(k) for k in self.parameters}

    def set_params(self, **values: Any) -> Formulation:
        """Set parameter values by name, validated as :meth:`param` validates them (finite;
        ``> 0`` for ``pos=True``, ``>= 0`` for ``nonneg=True`` Parameters); returns
        ``self`` so calls chain."""
        for k, v in values.items():
            if k not in self.parameters:
                raise InvalidInputError(
                    k, f"{self.name} has no parameter '{k}' (it has {sorted(self.parameters)})"
                )
            p = self.parameters[k]
            p.value = _checked_value(k, p, v)
        return self

    @property
    def cone_class(self) -> str:
        """The hardest cone the problem needs: ``LP``, ``QP``, ``SOCP``, ``EXP`` or ``SDP``
        (a problem still to be built may say it by a ``cone_class`` attribute of its
        builder, so that asking does not build it)."""
        p = self.__dict__.get("_problem")
        if not isinstance(p, cp.Problem) and isinstance(getattr(p, "cone_class", None), str):
            return p.cone_class
        # read once per problem (a cvxpy problem's constraints and objective do not
        # change; the walk over its atoms took 0.2-0.6 s on 20,000 constraints written in
        # a loop, asked several times a solve)
        problem = self.problem
        kept = self.__dict__.get("_cone_class")
        if kept is None or kept[0] is not problem:
            kept = (problem, cone_class(problem))
            self.__dict__["_cone_class"] = kept
        return kept[1]

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v}" for k, v in self.param_values().items())
        return f"<Formulation {self.name} ({self.sense}, {self.cone_class}; {params})>"

    def __getstate__(self) -> dict[str, Any]:
        # a copy (copy.copy, deepcopy, pickle) holds the problem built: a builder still to
        # be called closes over this formulation's variables and parameters, which a deep
        # copy replaces (its problem would then not be over its own variables), and a
        # local function does not pickle.  Rows on demand (svm.dual) form their matrix then.
        self.problem  # noqa: B018
        return {k: v for k, v in self.__dict__.items() if k != "_cone_class"}


SENSES = ("minimize", "maximize")


class _LazyProblem:
    """``Formulation.problem``: stored as given; a builder function given instead of a
    ``cvxpy.Problem`` is called on first access and replaced by its result."""

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        if obj is None:
            return self
        p = obj.__dict__["_problem"]
        if not isinstance(p, cp.Problem) and callable(p):
            p = p()
            obj.__dict__["_problem"] = p
        return p

    def __set__(self, obj: Any, value: Any) -> None:
        obj.__dict__["_problem"] = value
        obj.__dict__.pop("_cone_class", None)  # read again for the new problem


def stored_problem(f: Formulation) -> Any:
    """``f``'s problem as stored, without building it: the ``cvxpy.Problem``, or the
    builder function not yet called (then no solve has used it)."""
    return f.__dict__["_problem"]


# a data descriptor set after the dataclass is made: its __init__ (``self.problem =
# problem``) then goes through __set__, and the field keeps its place in the signature
Formulation.problem = _LazyProblem()  # type: ignore[assignment]


def _checked_value(name: str, p: cp.Parameter, v: Any) -> Any:
    """``v`` as a value of Parameter ``p`` (float if scalar), or an error naming ``name``."""
    if v is None:
        raise InvalidInputError(name, "has no value: set it with f.set_params(...)")
    complex_ = bool(p.is_complex())  # a complex Parameter (cvxpy's complex=True/imag=True)
    try:
        arr = np.asarray(v)
        imaginary = np.iscomplexobj(arr) and not complex_ and bool(np.any(arr.imag != 0))
        arr = np.asarray(arr if complex_ else np.real(arr), dtype=complex if complex_
                         else float)
    except (TypeError, ValueError):
        raise InvalidInputError(name, f"must be a number, got {v!r}") from None
    if imaginary:
        raise InvalidInputError(name, f"must be real (the Parameter is), got {v!r}")
    if not np.all(np.isfinite(arr)):
        raise InvalidInputError(name, f"must be finite, got {v!r}")
    if p.is_pos() and np.any(arr <= 0):
        raise InvalidInputError(name, f"must be > 0, got {v!r}")
    if p.is_nonneg() and np.any(arr < 0):
        raise InvalidInputError(name, f"must be >= 0, got {v!r}")
    if p.ndim == 0:
        if arr.size != 1:
            raise InvalidInputError(name, f"must be a scalar, got shape {arr.shape}")
        return complex(arr.reshape(())) if complex_ else float(arr.reshape(()))
    if arr.shape != p.shape:  # e.g. one number for the per-example bounds of svm.dual
        raise InvalidInputError(name, f"must have shape {p.shape}, got shape {arr.shape}")
    return arr


def _takes_tol(certify: Callable[..., Any]) -> bool:
    """Whether a certifier accepts a ``tol`` keyword (or ``**kwargs``).  Reading a
    signature costs tens of microseconds, and a builder makes a certifier per
    formulation (one per pair of classes in a one-vs-one fit)."""
    # a plain function's parameters are those of its code object, which every closure a
    # builder makes shares: the answer is kept by code object
    code = (certify.__code__ if isinstance(certify, types.FunctionType)
            and not any(hasattr(certify, a) for a in _SIGNATURE_ATTRIBUTES) else None)
    if code is not None:
        known = _TAKES_TOL.get(code)
        if known is not None:
            return known
    answer = _signature_takes_tol(certify)
    if code is not None:
        _TAKES_TOL[code] = answer
    return answer


#: :func:`_takes_tol`'s answers for plain functions, by code object
_TAKES_TOL: dict[types.CodeType, bool] = {}
#: attributes through which ``inspect.signature`` gives a function another signature than
#: its code object's (such a function is asked every time)
_SIGNATURE_ATTRIBUTES = ("__wrapped__", "__signature__", "_partialmethod", "__partialmethod__")


def _signature_takes_tol(certify: Callable[..., Any]) -> bool:
    try:
        params = inspect.signature(certify).parameters.values()
    except (TypeError, ValueError):  # builtins and some C callables have no signature
        return False
    return any(
        (p.name == "tol" and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD))
        or p.kind is p.VAR_KEYWORD
        for p in params
    )


_SDP_ATOMS = {
    "lambda_max", "lambda_min", "lambda_sum_largest", "lambda_sum_smallest", "matrix_frac",
    "normNuc", "sigma_max", "log_det", "tr_inv", "MatrixFrac", "condition_number",
}
_EXP_ATOMS = {
    "exp", "log", "entr", "kl_div", "rel_entr", "log_sum_exp", "logistic", "log1p", "xexp",
}


def cone_class(problem: cp.Problem) -> str:
    """Classify a cvxpy problem by the hardest cone its canonical form needs: ``SDP`` (a
    PSD constraint, a PSD/NSD variable or a spectral atom), ``POW`` (a power cone
    constraint), ``EXP``, ``SOCP``, ``QP`` or ``LP``.  (``problem.atoms()`` lists atom
    *classes*: their own names are read.)"""
    cons = problem.constraints
    names = {getattr(a, "__name__", type(a).__name__) for a in problem.atoms()}
    psd_var = any(v.attributes.get("PSD") or v.attributes.get("NSD")
                  for v in problem.variables())
    if any(isinstance(c, cp.constraints.PSD) for c in cons) or names & _SDP_ATOMS or psd_var:
        return "SDP"
    pow_cones = tuple(getattr(cp.constraints, n) for n in ("PowCone3D", "PowConeND")
                      if hasattr(cp.constraints, n))
    if any(isinstance(c, pow_cones) for c in cons):
        return "POW"
    if any(isinstance(c, (cp.constraints.ExpCone,)) for c in cons) or names & _EXP_ATOMS:
        return "EXP"
    if problem.is_qp():
        # is_qp() is also true for LPs; an LP has a linear objective and no quadratic atoms.
        if problem.objective.expr.is_affine() and all(
            c.args[0].is_affine() if hasattr(c, "args") else True for c in cons
        ):
            return "LP"
        return "QP"
    return "SOCP"


#: the decision rules a formulation may declare (:attr:`Formulation.decision`)
DECISION_RULES = ("dual_expansion", "expansion", "linear")


def _quad_form_hint(problem: cp.Problem) -> str:
    """What to do where ``problem`` holds a ``quad_form`` of a finite constant matrix,
    not wrapped in ``psd_wrap``, that cvxpy's numerical check calls neither PSD nor NSD or
    fails on (a singular or badly scaled PSD matrix can): empty otherwise."""
    nodes = [problem.objective.expr, *problem.constraints]
    while nodes:
        node = nodes.pop()
        if type(node).__name__ == "QuadForm" and type(node.args[1]).__name__ == "Constant":
            P = node.args[1].value
            if np.all(np.isfinite(np.asarray(P.toarray() if hasattr(P, "toarray") else P))):
                try:
                    curved = node.is_atom_convex() or node.is_atom_concave()
                except (ValueError, RuntimeError, ArithmeticError):
                    curved = False
                if not curved:
                    return (" (cvxpy checks a quad_form matrix PSD numerically, and a "
                            "singular or badly scaled PSD one can fail that check: if it is "
                            "PSD, pass cp.psd_wrap(P) instead)")
        nodes.extend(getattr(node, "args", []))
    return ""


def from_cvxpy(problem: cp.Problem, name: str | None = None, *,
               parameters: Mapping[str, cp.Parameter] | None = None,
               data: Mapping[str, Any] | None = None, source: str = "",
               kind: str | None = None, default_solver: str = "clarabel",
               decision: str | None = None) -> Formulation:
    """A :class:`Formulation` for any DCP ``cvxpy.Problem``, certified by the generic
    certificate (:mod:`convexkern.generic`).

    Variables and Parameters are found by name (``cp.Variable(n, name="alpha")``); the
    objective gives the sense.  ``parameters`` may name Parameters explicitly (e.g. under
    other names); ``data`` is kept for custom algorithms; ``kind`` (default: ``name``) is
    the key user algorithms register for.

    Raises
    ------
    InvalidTypeError
        ``problem`` is not a ``cvxpy.Problem``.
    InvalidInputError
        The problem is not DCP, cvxpy's DCP check itself failed (its numerical PSD check
        of a ``quad_form`` matrix), or two variables (or parameters) share a name.
    """
    if not isinstance(problem, cp.Problem):
        raise InvalidTypeError("problem", f"must be a cvxpy.Problem, got {type(problem).__name__}")
    try:
        dcp = problem.is_dcp()
    except ConvexkernError:
        raise  # the library's own names its argument already
    except (ValueError, RuntimeError, ArithmeticError) as exc:
        # cvxpy checks a constant matrix of quad_form PSD numerically (ARPACK's
        # shift-invert): on a singular, badly scaled one SciPy's solve can fail inside it
        raise InvalidInputError("problem", f"cvxpy's DCP check failed ({type(exc).__name__}: "
                                f"{exc}){_quad_form_hint(problem)}") from exc
    if not dcp:
        raise InvalidInputError("problem", "is not DCP (cvxpy's disciplined convex "
                                "programming rules): no convex solver can take it"
                                f"{_quad_form_hint(problem)}")
    if not problem.variables():
        raise InvalidInputError("problem", "has no variables: there is nothing to solve")
    discrete = [v.name() for v in problem.variables()
                if v.attributes.get("integer") or v.attributes.get("boolean")]
    if discrete:
        raise InvalidInputError("problem", f"has integer or boolean variables {discrete}: "
                                "convexkern certifies continuous conic problems only")
    finite = [str(c)[:40] for c in problem.constraints if type(c).__name__ == "FiniteSet"]
    if finite:  # cvxpy writes it with boolean variables, which a continuous solver relaxes
        raise InvalidInputError("problem", f"has FiniteSet constraints {finite}: they are "
                                "mixed-integer (cvxpy writes them with boolean variables); "
                                "convexkern certifies continuous conic problems only")
    if parameters is not None and not isinstance(parameters, Mapping):
        raise InvalidTypeError("parameters", "expected a dict of name -> cvxpy.Parameter, "
                                             f"got {type(parameters).__name__}")
    if data is not None and not isinstance(data, Mapping):
        raise InvalidTypeError("data", f"expected a dict, got {type(data).__name__}")
    name = "cvxpy" if name is None else str(name)

    def by_name(items: list[Any], what: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for it in items:
            if it.name() in out:
                raise InvalidInputError("problem", f"two {what} are named '{it.name()}': "
                                        "give them distinct names")
            out[it.name()] = it
        return out

    variables = by_name(problem.variables(), "variables")
    params = by_name(problem.parameters(), "parameters") if parameters is None \
        else dict(parameters)
    for k, v in params.items():
        if not isinstance(v, cp.Parameter):
            raise InvalidTypeError("parameters", f"'{k}' must be a cvxpy.Parameter")
    return Formulation(
        name=name, problem=problem, variables=variables, parameters=params,
        source=source, kind=kind or name, data=dict(data or {}), certify=None,
        default_solver=default_solver, decision=decision,
    )
