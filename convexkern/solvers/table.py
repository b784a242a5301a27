"""The solver table: every solver convexkern knows, as data.

Two kinds of entry, looked up by lower-case name, in preference order (the order of
:func:`convexkern.compare`'s columns):

* :class:`ConicSolverSpec`: a conic solver reached through cvxpy.  Which cone classes it
  accepts and which module must be importable are data; availability is checked with
  :func:`importlib.util.find_spec`, without importing the solver.
* :class:`AlgorithmSpec`: a built-in algorithm.  For each formulation kind it solves, the
  entry names its adapter as ``"module:function"``; the module is imported the first time
  a formulation of that kind is dispatched to it.  A bare ``import convexkern`` therefore
  knows every solver, and no module registers anything as a side effect of being imported.

A user's own algorithm joins the table at run time through :func:`register_solver`.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..errors import InvalidInputError, InvalidTypeError
from ..report import SolveReport

__all__ = [
    "ConicSolverSpec",
    "AlgorithmSpec",
    "CONIC",
    "ALGORITHMS",
    "register_solver",
]

Adapter = Callable[..., SolveReport]

# Fraction of ``tol`` handed to a conic solver as its own accuracy target: the certified
# gap, recomputed from the returned point, is typically a few times the solver's own
# residuals, so the solver is asked for ten times better than the target.
_CONIC_SAFETY = 0.1
_CLASSES_QP = frozenset({"LP", "QP"})
_CLASSES_SOCP = _CLASSES_QP | {"SOCP"}
_CLASSES_ALL = _CLASSES_SOCP | {"EXP", "SDP"}


@dataclass(frozen=True, kw_only=True)
class ConicSolverSpec:
    """A conic solver reached through cvxpy, described as data."""

    name: str
    cvxpy_name: str
    module: str
    cones: frozenset[str]
    default_tol: float
    settings: Callable[[float, int | None, float | None], dict[str, Any]]
    install: str
    #: the solver's accuracy settings are ``safety * tol`` (floored at 1e-12)
    safety: float = _CONIC_SAFETY
    #: re-solve once at 1000 times tighter settings when an "optimal" answer misses tol
    #: (interior-point solvers, whose extra iterations are few)
    refine: bool = False
    #: the largest PSD cone side it is tried on by default in :func:`convexkern.compare`
    #: (``None``: any): an interior-point solver factorises a dense block of the cone's
    #: svec size m(m+1)/2 each iteration, so the work grows as m^6
    max_psd_side: int | None = None

    @property
    def setting_names(self) -> frozenset[str]:
        """The keyword arguments ``settings`` fills in (a user's own value of one of them
        turns refinement off: the user chose the accuracy)."""
        return frozenset(self.settings(1e-6, 1, 1.0))

    @property
    def installed(self) -> bool:
        return importlib.util.find_spec(self.module) is not None


@dataclass(frozen=True, kw_only=True)
class AlgorithmSpec:
    """A built-in (or user-registered) algorithm: for each formulation kind, its adapter.

    An adapter is ``fn(formulation, *, tol, max_iter, time_limit, verbose, x0, **options)``
    returning a :class:`SolveReport` built with
    :func:`convexkern.solvers.certified_report`.  It is given as ``"module:function"``
    (imported at first dispatch) or, for a user's registration, as the function itself.
    """

    name: str
    adapters: Mapping[str, str | Adapter]
    default_tol: float
    description: str = ""
    warm_start: bool = False

    def __post_init__(self) -> None:
        # read-only, like the table that holds it
        object.__setattr__(self, "adapters", MappingProxyType(dict(self.adapters)))

    @property
    def kinds(self) -> frozenset[str]:
        """The formulation kinds this algorithm solves (a key ``"kind[variant]"``: that
        variant of the kind only)."""
        return frozenset(self.adapters)

    def key_for(self, kind: str, variant: str = "") -> str | None:
        """The table key that applies to a formulation of ``kind`` and ``variant``: the
        variant's own key first, then the whole kind's; ``None`` when none applies."""
        for key in ((f"{kind}[{variant}]",) if variant else ()) + (kind,):
            if key in self.adapters:
                return key
        return None

    def adapter(self, kind: str, variant: str = "") -> Adapter:
        """The adapter for formulation ``kind`` (and ``variant``), importing its module if
        needed."""
        key = self.key_for(kind, variant)
        if key is None:
            raise KeyError(kind if not variant else f"{kind}[{variant}]")
        target = self.adapters[key]
        if callable(target):
            return target
        module, _, attr = target.partition(":")
        return getattr(importlib.import_module(module), attr)


def _drop_none(**kw: Any) -> dict[str, Any]:
    return {k: v for k, v in kw.items() if v is not None}


_CONIC_ENTRIES = (
    ConicSolverSpec(
        name="clarabel", cvxpy_name="CLARABEL", module="clarabel", cones=_CLASSES_ALL,
        default_tol=1e-8, install="pip install clarabel", refine=True,
        # robust_indefinite's (n+1)-PSD cone: about 1 s at n = 50, tens of seconds at
        # n = 100, minutes at 150 (docs/robust_indefinite.md)
        max_psd_side=90,
        # max_iter/time_limit always passed (Clarabel's defaults when not asked): cvxpy
        # keeps the Clarabel solver object between solves and would keep a previous
        # call's limits.
        settings=lambda t, it, tl: dict(
            tol_gap_abs=t, tol_gap_rel=t, tol_feas=t, max_iter=200 if it is None else it,
            time_limit=math.inf if tl is None else tl),
    ),
    ConicSolverSpec(
        name="scs", cvxpy_name="SCS", module="scs", cones=_CLASSES_ALL,
        default_tol=1e-4, install="pip install scs",
        settings=lambda t, it, tl: _drop_none(
            eps_abs=t, eps_rel=t, max_iters=it, time_limit_secs=tl),
    ),
    # ECOS solves the SVM dual through cvxpy's second-order-cone form of quad_form, and its
    # certified gap levels off at 1e-7..6e-6 relative (USPS, Pima subsets) once its own
    # tolerances reach 1e-10; below that it reports itself inaccurate.  So the default
    # target is 1e-5, reached with settings 1e-10 (safety 1e-5).
    ConicSolverSpec(
        name="ecos", cvxpy_name="ECOS", module="ecos", cones=_CLASSES_SOCP | {"EXP"},
        default_tol=1e-5, safety=1e-5, install="pip install ecos",
        settings=lambda t, it, tl: _drop_none(abstol=t, reltol=t, feastol=t, max_iters=it),
    ),
    # HiGHS's QP solver has no gap tolerance: its certified gap was 1.5e-8..3.3e-7 relative
    # whatever the feasibility tolerances, so the default target is 1e-6.
    ConicSolverSpec(
        name="highs", cvxpy_name="HIGHS", module="highspy", cones=_CLASSES_QP,
        default_tol=1e-6, install="pip install highspy",
        settings=lambda t, it, tl: _drop_none(
            primal_feasibility_tolerance=max(t, 1e-10),
            dual_feasibility_tolerance=max(t, 1e-10), time_limit=tl),
    ),
    ConicSolverSpec(
        name="osqp", cvxpy_name="OSQP", module="osqp", cones=_CLASSES_QP,
        default_tol=1e-3, install="pip install osqp",
        # as for Clarabel, defaults passed explicitly so no earlier limit persists in a
        # reused OSQP object (cvxpy updates a cached solver with the new settings only)
        settings=lambda t, it, tl: dict(
            eps_abs=t, eps_rel=t, max_iter=4000 if it is None else it,
            time_limit=1e10 if tl is None else tl),
    ),
    ConicSolverSpec(
        name="cvxopt", cvxpy_name="CVXOPT", module="cvxopt", cones=_CLASSES_SOCP | {"SDP"},
        default_tol=1e-7, install="pip install cvxopt", max_psd_side=90,
        settings=lambda t, it, tl: _drop_none(abstol=t, reltol=t, feastol=t, max_iters=it),
    ),
    ConicSolverSpec(
        name="mosek", cvxpy_name="MOSEK", module="mosek", cones=_CLASSES_ALL,
        default_tol=1e-8, install="pip install mosek (needs a licence)",
        settings=lambda t, it, tl: {},
    ),
    ConicSolverSpec(
        name="piqp", cvxpy_name="PIQP", module="piqp", cones=_CLASSES_QP,
        default_tol=1e-8, install="pip install piqp",
        settings=lambda t, it, tl: _drop_none(eps_abs=t, eps_rel=t, max_iter=it),
    ),
)

_LP_KINDS = ("lp_svm.nu_lp", "lp_svm.nu_lp_dual", "lp_svm.lp", "lp_svm.lp_dual")
_ROBUST = "convexkern.algorithms.robust_svm"
_KREIN = "convexkern.algorithms.trik.adapter"

_ALGORITHM_ENTRIES = (
    AlgorithmSpec(
        name="smo", default_tol=1e-6, warm_start=True,
        description="sequential minimal optimisation, second-order working set (notes §11.3)",
        adapters={
            "svm.dual": "convexkern.algorithms.smo:solve",
            "svm.primal": "convexkern.algorithms.smo:solve",
            "krein.stabilization": f"{_KREIN}:_solve_smo_krein",
        },
    ),
    AlgorithmSpec(
        name="robust_apg", default_tol=1e-6, warm_start=True,
        description="accelerated projected gradient (FISTA, restarts) with rank-one "
                    "eigen-updates",
        adapters={"robust_indefinite": f"{_ROBUST}:solve_apg"},
    ),
    AlgorithmSpec(
        name="robust_pg", default_tol=1e-4, warm_start=True,
        description="projected gradient, Luss & d'Aspremont 2007 §3.1",
        adapters={"robust_indefinite": f"{_ROBUST}:solve_pg"},
    ),
    AlgorithmSpec(
        name="robust_accpm", default_tol=1e-4, warm_start=True,
        description="analytic centre cutting plane method, Luss & d'Aspremont 2007 §3.2",
        adapters={"robust_indefinite": f"{_ROBUST}:solve_accpm"},
    ),
    AlgorithmSpec(
        name="linprog", default_tol=1e-7,
        description="direct sparse HiGHS (scipy.optimize.linprog, method='highs') for "
                    "Abe's LPs",
        adapters={k: "convexkern.algorithms.linprog_direct:solve_formulation"
                  for k in _LP_KINDS},
    ),
    AlgorithmSpec(
        name="exchange", default_tol=1e-6,
        description="exchange (cutting-plane) method: SVM on growing virtual points "
                    "(Graepel & Herbrich 2003)",
        adapters={"sdpm.primal": "convexkern.algorithms.exchange:solve_formulation"},
    ),
    AlgorithmSpec(
        name="sdpm-ipm", default_tol=1e-6,
        description="structured barrier method on the SDPM dual: n x n Newton systems, "
                    "O(m n) memory (linear, degree <= 2, segment; Graepel & Herbrich 2003)",
        adapters={k: "convexkern.algorithms.sdpm_ipm:solve_formulation"
                  for k in ("sdpm.primal", "sdpm.dual")},
    ),
    AlgorithmSpec(
        name="sdpm-dcd", default_tol=1e-6,
        description="dual coordinate descent on the SDPM's moment blocks (linear, degree "
                    "<= 2, segment; slow for large C)",
        adapters={k: "convexkern.algorithms.sdpm_dcd:solve_formulation"
                  for k in ("sdpm.primal", "sdpm.dual")},
    ),
    AlgorithmSpec(
        name="trik", default_tol=1e-6,
        description="TrIK active set (Loosli 2019, Alg. 1) with Hilbert-space optimality "
                    "checks",
        adapters={"krein.stabilization": f"{_KREIN}:_solve_trik"},
    ),
    AlgorithmSpec(
        name="trik-krein", default_tol=1e-6,
        description="TrIK active set (Loosli 2019, Alg. 1), primal optimality checked in "
                    "the Kreĭn space (may stop before the Hilbert QP optimum)",
        # its check is eq. 6's shift transition: it does not apply to the flip variant
        adapters={"krein.stabilization[shift]": f"{_KREIN}:_solve_trik_krein"},
    ),
)

_conic: dict[str, ConicSolverSpec] = {s.name: s for s in _CONIC_ENTRIES}
_algorithms: dict[str, AlgorithmSpec] = {s.name: s for s in _ALGORITHM_ENTRIES}

#: read-only views of the table (registration goes through :func:`register_solver`)
CONIC: Mapping[str, ConicSolverSpec] = MappingProxyType(_conic)
ALGORITHMS: Mapping[str, AlgorithmSpec] = MappingProxyType(_algorithms)


def register_solver(
    name: str,
    *,
    kinds: Iterable[str],
    default_tol: float = 1e-6,
    description: str = "",
    warm_start: bool = False,
) -> Callable[[Adapter], Adapter]:
    """Add a user's algorithm to the table under ``name`` for the formulation ``kinds``.

    Use as a decorator, called explicitly from the user's own code (no convexkern module
    registers anything on import)::

        @register_solver("mymethod", kinds=["mypaper.dual"], default_tol=1e-6)
        def solve_mymethod(f, *, tol, max_iter, time_limit, verbose, x0=None, **options):
            ...
            return certified_report(f, point, solver="mymethod", ...)

    A name already in the table may take new kinds (it is merged, the first description
    kept); a kind it already solves, or a conic solver's name, is refused.
    """
    if not isinstance(name, str) or not name:
        raise InvalidTypeError("name", f"expected a non-empty string, got {name!r}")
    key = name.lower()
    if key in _conic:
        raise InvalidInputError("name", f"'{key}' is a conic solver name")
    new_kinds = tuple(kinds)
    if not new_kinds or not all(isinstance(k, str) for k in new_kinds):
        raise InvalidInputError("kinds", f"expected formulation kind names, got {new_kinds!r}")

    def decorator(fn: Adapter) -> Adapter:
        if not callable(fn):
            raise InvalidTypeError("fn", f"expected a function, got {type(fn).__name__}")
        existing = _algorithms.get(key)
        adapters: dict[str, str | Adapter] = {}
        if existing is not None:
            clash = existing.kinds & set(new_kinds)
            if clash and any(existing.adapters[k] is not fn for k in clash):
                raise InvalidInputError(
                    "name", f"solver '{key}' is already registered for {sorted(clash)}"
                )
            adapters.update(existing.adapters)
        adapters.update({k: fn for k in new_kinds})
        _algorithms[key] = AlgorithmSpec(
            name=key, adapters=adapters, default_tol=default_tol,
            description=(existing.description if existing else "") or description,
            warm_start=warm_start and (existing.warm_start if existing else True),
        )
        return fn

    return decorator
