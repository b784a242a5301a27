"""The solver table: every solver convexkern knows, as data.

Two kinds of entry, looked up by lower-case name, in preference order (the order of
:func:`convexkern.compare`'s columns):

* :class:`ConicSolverSpec`: a conic solver reached through cvxpy, one class in one module
  of :mod:`convexkern.solvers.backends` (its cones, settings, status map and how its raw
  pair is read).  Availability is checked with :func:`importlib.util.find_spec`, without
  importing the solver.
* :class:`AlgorithmSpec`: a built-in algorithm.  For each formulation kind it solves, the
  entry names its adapter as ``"module:function"``; the module is imported the first time
  a formulation of that kind is dispatched to it.  A bare ``import convexkern`` therefore
  knows every solver, and no module registers anything as a side effect of being imported.

A user's own algorithm joins the table at run time through :func:`register_solver`.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ..errors import InvalidInputError, InvalidTypeError
from ..report import SolveReport
from .backends.base import ConicSolverSpec

__all__ = [
    "ConicSolverSpec",
    "AlgorithmSpec",
    "CONIC",
    "ALGORITHMS",
    "register_solver",
]

Adapter = Callable[..., SolveReport]

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


#: the conic solvers, one module each in :mod:`convexkern.solvers.backends` (each defines
#: ``SOLVER``), in preference order: adding a solver is one module and one line here
CONIC_MODULES = (
    "clarabel",
    "scs",
    "ecos",
    "highs",
    "osqp",
    "cvxopt",
    "mosek",
    "piqp",
    "qoco",
    "mpax",
)
_CONIC_ENTRIES: tuple[ConicSolverSpec, ...] = tuple(
    importlib.import_module(f"{__package__}.backends.{m}").SOLVER for m in CONIC_MODULES)

_LP_KINDS = ("lp_svm.nu_lp", "lp_svm.nu_lp_dual", "lp_svm.lp", "lp_svm.lp_dual")
_SDPM_KINDS = ("sdpm.primal", "sdpm.dual")
_ROBUST = "convexkern.algorithms.robust_svm"
_KREIN = "convexkern.algorithms.trik.adapter"

_ALGORITHM_ENTRIES = (
    AlgorithmSpec(
        name="smo", default_tol=1e-6, warm_start=True,
        description="sequential minimal optimisation, second-order working set (notes §11.3)",
        adapters={
            "svm.dual": "convexkern.algorithms.smo:solve",
            "svm.primal": "convexkern.algorithms.smo:solve",
            "krein.stabilization": f"{_KREIN}:solve_smo_krein",
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
        adapters=dict.fromkeys(_LP_KINDS, "convexkern.algorithms.linprog_direct:solve_formulation"),
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
        adapters=dict.fromkeys(_SDPM_KINDS, "convexkern.algorithms.sdpm_ipm:solve_formulation"),
    ),
    AlgorithmSpec(
        name="sdpm-dcd", default_tol=1e-6,
        description="dual coordinate descent on the SDPM's moment blocks (linear, degree "
                    "<= 2, segment; slow for large C)",
        adapters=dict.fromkeys(_SDPM_KINDS, "convexkern.algorithms.sdpm_dcd:solve_formulation"),
    ),
    AlgorithmSpec(
        name="trik", default_tol=1e-6,
        description="TrIK active set (Loosli 2019, Alg. 1) with Hilbert-space optimality "
                    "checks",
        adapters={"krein.stabilization": f"{_KREIN}:solve_trik"},
    ),
    AlgorithmSpec(
        name="trik-krein", default_tol=1e-6,
        description="TrIK active set (Loosli 2019, Alg. 1), primal optimality checked in "
                    "the Kreĭn space (may stop before the Hilbert QP optimum)",
        # its check is eq. 6's shift transition: it does not apply to the flip variant
        adapters={"krein.stabilization[shift]": f"{_KREIN}:solve_trik_krein"},
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
