"""What convexkern knows of one conic solver, as one class: :class:`ConicSolverSpec`.

A solver reached through cvxpy is described by one subclass in one module of this package:
its cvxpy name and Python module, the cone classes it accepts, its settings from
``tol``/``max_iter``/``time_limit``, the map from its *own* status codes to
:class:`~convexkern.report.Status` (a :class:`Verdict`), how many iterations it ran, and
how its raw primal-dual pair is read in the conic form cvxpy gave it.  The solver table
(:mod:`convexkern.solvers.table`) lists one instance of each; nothing else knows a
solver's name.
"""

from __future__ import annotations

import contextlib
import importlib.util
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from ...report import Status

__all__ = ["ConicSolverSpec", "Verdict", "CLASSES_QP", "CLASSES_SOCP", "CLASSES_ALL",
           "as_vector", "drop_none"]

CLASSES_QP = frozenset({"LP", "QP"})
CLASSES_SOCP = CLASSES_QP | {"SOCP"}
CLASSES_ALL = CLASSES_SOCP | {"EXP", "SDP", "POW"}



#: module name -> whether it is importable (:attr:`ConicSolverSpec.installed`)
_FOUND: dict[str, bool] = {}

class Verdict(NamedTuple):
    """A solver's own word on a solve, in convexkern's vocabulary.

    ``status`` is what the solver claims; ``word`` its native status, quoted in messages;
    ``proven`` is False for a claim the solver itself marks as not reaching its
    tolerances (SCS's "infeasible (inaccurate)", Clarabel's ``AlmostDualInfeasible``): such
    a "no solution" word is never reported as a property of the problem."""

    status: Status
    word: str
    proven: bool = True


def as_vector(v: Any) -> np.ndarray | None:
    """A raw solver array as a flat float vector (``None`` stays ``None``)."""
    return None if v is None else np.asarray(v, dtype=float).ravel()


def drop_none(**kw: Any) -> dict[str, Any]:
    """The keyword arguments whose value is not ``None``."""
    return {k: v for k, v in kw.items() if v is not None}


#: the rate a solver's own dense factorisation is credited with when deciding whether it
#: can start at all (an optimistic one, so that a solve that could fit is not refused:
#: Clarabel factorised SDPLIB mcp100's 5050-side block at about 3e10 per second here)
FAST_FLOPS = 4e10


#: the rate credited to a sparse LDL factorisation without supernodes (QDLDL, SCS's and
#: OSQP's) when a deadline is at stake: 0.8e9 to 1.5e9 flop/s measured here (an SVM
#: dual's dense P, a dense 2100-row KKT block), so a slow one, as :func:`ldl_work` is a
#: lower estimate: the set-up is rather over-counted than not
SPARSE_LDL_FLOPS = 5e8


#: a solver with a clock read only after its set-up is watched (a forked child stopped
#: at the deadline) when an estimate of that set-up exceeds this share of the time left
WATCH_SHARE = 0.1


def ldl_seconds(data: Mapping[str, Any]) -> float:
    """:func:`ldl_work` at :data:`SPARSE_LDL_FLOPS`: a lower estimate of the seconds of a
    sparse LDL factorisation of cvxpy's KKT system for ``data``."""
    return ldl_work(data) / SPARSE_LDL_FLOPS


def stored_entries(data: Mapping[str, Any]) -> int:
    """The stored entries of cvxpy's constraint matrices in ``data`` (``A``, and ``F`` or
    ``G``; not ``P``, whose fill :func:`ldl_work` counts: a dense ``P`` fills nothing
    more)."""
    return int(sum(getattr(data.get(k), "nnz", 0) or 0 for k in ("A", "F", "G")))


def ldl_work(data: Mapping[str, Any]) -> float:
    """A lower estimate of the flops of a sparse LDL factorisation of cvxpy's KKT system
    ``[P + rho I, A'; A, -D]`` for its constraint rows (``data["A"]``, and ``"F"`` or
    ``"G"`` where the form keeps inequality rows apart): eliminating all the rows first forms
    the clique of each row's ``r_i`` columns, all the columns first the clique of each
    column's ``c_j`` rows; ``min(sum r_i^2, sum c_j^2)``; with a quadratic objective,
    plus a third of ``sum p_j^2`` over ``P``'s columns (``n^3 / 3`` for a dense ``P``).
    Only problems with dense blocks reach seconds: a sparse LP's is negligible."""
    work = 0.0
    # the constraint rows: ``A`` (conic form), or ``A`` and ``F`` (the QP form: equality
    # and inequality rows), or ``A`` and ``G`` (ECOS's)
    counts = [_line_counts(M) for M in (data.get(k) for k in ("A", "F", "G"))
              if M is not None and hasattr(M, "tocsr") and M.shape[0]]
    if counts:
        rows = np.concatenate([r for r, _ in counts]).astype(float)
        cols = sum(c for _, c in counts).astype(float)
        work += float(min(rows @ rows, cols @ cols))
    P = data.get("P")
    if P is not None and hasattr(P, "tocsc"):
        p = _line_counts(P)[1].astype(float)
        work += float(p @ p) / 3.0
    return work


def _line_counts(M: Any) -> tuple[np.ndarray, np.ndarray]:
    """The stored entries of each row and of each column of the sparse matrix ``M``, read
    from its compressed form as it is (a CSC matrix turned into CSR first cost 0.04 s on
    a dense 1500 x 600 block, counted against the caller's deadline)."""
    fmt = getattr(M, "format", "")
    if fmt not in ("csr", "csc"):
        M, fmt = M.tocsr(), "csr"
    major = np.diff(M.indptr)
    minor = np.bincount(M.indices, minlength=M.shape[1 if fmt == "csr" else 0])
    return (major, minor) if fmt == "csr" else (minor, major)


@dataclass(frozen=True, kw_only=True)
class ConicSolverSpec:
    """A conic solver reached through cvxpy.  Subclasses override the methods that read
    the solver's own answer; an instance of this base class alone (a solver convexkern
    only names) is driven by cvxpy's status and certified on the primal side."""

    name: str
    cvxpy_name: str
    module: str
    cones: frozenset[str]
    default_tol: float
    install: str
    #: the solver's accuracy settings are ``safety * tol`` (the tolerance policy,
    #: :data:`convexkern.solvers.outcome.TOLERANCE`, floors them)
    safety: float = 0.1
    #: the tightest accuracy settings ``safety * tol`` may reach for this solver (the
    #: policy's own floor applies too): below it the solver stalls rather than converges
    settings_floor: float = 0.0
    #: re-solve once at tighter settings when an "optimal" answer misses tol: every
    #: solver whose accuracy settings are tolerances (an interior-point method pays a few
    #: iterations, a first-order method more, within the caller's time_limit); without
    #: it, a solver's "optimal" at its own residual criteria stays optimal_inaccurate
    refine: bool = False
    #: a first-order method (SCS, OSQP): its first answer, at ``safety * tol``, often
    #: misses ``tol`` by far, and a refining re-solve costs less than a phase one and
    #: the steps toward it on that answer; the first certificate then spends none
    #: (:func:`convexkern.solvers.conic.solve_conic`).  Off for an interior-point method,
    #: whose accurate first answer a phase one often certifies where a re-solve would not
    quick_first: bool = False
    #: the largest PSD cone side it is tried on by default in :func:`convexkern.compare`
    #: (``None``: any): an interior-point solver factorises a dense block of the cone's
    #: svec size m(m+1)/2 each iteration, so the work grows as m^6
    max_psd_side: int | None = None
    #: the signs its dual vector may carry against SCS's convention ``c + A'y = 0``
    #: (both, when the solver's convention leaves it open: the certificate takes the one
    #: with the smaller dual residual; either gives valid bounds)
    dual_signs: tuple[float, ...] = (1.0,)
    #: cvxpy keeps a solver object between solves of one problem (``warm_start``); False
    #: for a solver whose kept object would ignore the next call's settings
    reuse: bool = True
    #: cvxpy's kept object for this solver holds its factorised workspace (as large as the
    #: solve's own peak) and buys no warm start of the iterate (an interior-point method
    #: starts afresh): dropped after each solve, so the certificate's own solves (a phase
    #: one) do not stack on it (SDPLIB arch0, Clarabel: peak 843 MB -> 578 MB, plain 531)
    drop_kept: bool = False
    #: the solver cannot keep a ``time_limit`` itself (it has no clock): under a deadline
    #: its solve runs in a forked child stopped at the deadline
    #: (:mod:`convexkern.solvers.watchdog`; a solver with worker threads runs there
    #: with :meth:`child_settings`)
    watched: bool = False
    #: the name of its own time-limit setting (``None``: none that convexkern shortens)
    time_key: str | None = None
    #: a pessimistic rate of its set-up, in seconds per stored entry of cvxpy's data, for
    #: the decision to watch it (:meth:`set_up_may_take`): the fill of a sparse LDL is not
    #: what :func:`ldl_work` counts where the rows' pattern has no structure
    setup_per_entry: float = 0.0

    def set_up_may_take(self, data: Mapping[str, Any]) -> float:
        """Seconds its set-up may take on cvxpy's ``data``: the larger of the sparse LDL's
        lower estimate (:func:`ldl_seconds`) and :attr:`setup_per_entry` per stored entry
        of the constraint rows (:func:`stored_entries`).
        On a random sparse LP (1500 x 3000, 45,000 entries, 51,000 stored) the set-up
        took 0.16 s (SCS), 0.26 s (Clarabel) and 0.78 s (OSQP) where the lower estimate
        says 0.002 s: a random pattern fills the factor nearly completely."""
        return max(ldl_seconds(data), self.setup_per_entry * stored_entries(data))

    def setup_seconds(self, data: Mapping[str, Any]) -> float:
        """Estimated seconds of set-up before the solver's own clock starts: under a
        deadline its own time limit (``time_key``) is shortened by them, so that it stops
        and hands back its last iterate in time (0: a clock that counts the set-up)."""
        del data
        return 0.0

    def watch(self, data: Mapping[str, Any], left: float) -> bool:
        """Whether a solve of cvxpy's ``data`` with ``left`` seconds to the deadline runs
        in a forked child stopped at the deadline (:mod:`convexkern.solvers.watchdog`):
        always for a solver without a clock (``watched``); a solver with one may ask for
        it when the work before its first clock read may not fit in ``left``."""
        del data, left
        return self.watched

    def child_settings(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        """The settings of a solve run in a forked child (:meth:`watch`): those given,
        unless a setting is unsafe after a fork (a pool of worker threads the child
        would wait on)."""
        return dict(settings)

    def unsafe(self, data: Mapping[str, Any]) -> str:
        """Why the solver may damage the process it runs in on cvxpy's ``data`` (``""``:
        it may not): a requirement of its own that it does not check safely.  Such a
        solve runs in a forked child (:mod:`convexkern.solvers.watchdog`), refused where
        there is none."""
        del data
        return ""

    def clock_work(self, data: Mapping[str, Any]) -> tuple[float, float]:
        """Dense work (flops) the solver does on cvxpy's ``data`` before it first reads its
        clock, and between two reads (0: nothing worth counting).  Under ``time_limit``
        a solve whose first part cannot fit in the time left is not started, and the
        solver's own limit (``time_key``) is shortened by one step, so that the step it
        begins just before its limit still ends by the deadline (:data:`FAST_FLOPS`)."""
        del data
        return 0.0, 0.0

    # ------------------------------------------------------------------ settings
    def settings(self, accuracy: float, max_iter: int | None,
                 time_limit: float | None) -> dict[str, Any]:
        """cvxpy keyword arguments for an accuracy target and the work bounds."""
        del accuracy, max_iter, time_limit
        return {}

    def unknown_settings(self, names: Iterable[str]) -> list[str]:
        """The names among ``names`` the solver does not know, for a solver that would
        ignore them silently (the others refuse them themselves): none here."""
        del names
        return []

    @property
    def setting_names(self) -> frozenset[str]:
        """The keyword arguments :meth:`settings` fills in (a user's own value of one of
        them turns refinement off: the user chose the accuracy)."""
        return frozenset(self.settings(1e-6, 1, 1.0))

    @property
    def installed(self) -> bool:
        """Whether the solver's module can be imported (looked up once per process: an
        estimator asks for every pair it fits, and each look-up walks ``sys.path``)."""
        found = _FOUND.get(self.module)
        if found is None:
            found = _FOUND[self.module] = importlib.util.find_spec(self.module) is not None
        return found

    # ------------------------------------------------------------------ its answer
    def verdict(self, raw: Any, settings: Mapping[str, Any]) -> Verdict | None:
        """The solver's own status code as a :class:`Verdict` (``None``: not read here;
        cvxpy's status word is used).  ``settings`` are the keyword arguments it ran
        with, for telling a limit it was given from one of its own."""
        del raw, settings
        return None

    def iterations(self, raw: Any) -> int | None:
        """Iterations done, from the raw answer (``None`` when it does not say)."""
        del raw
        return None

    def pair(self, raw: Any) -> tuple[np.ndarray | None, np.ndarray | None]:
        """``(x, y)`` of the raw answer in the conic form of
        :func:`convexkern.generic.conic_data` (``y`` stacked as the rows are), or
        ``(None, None)`` when not read."""
        del raw
        return None, None

    def certificate(self, raw: Any, claim: Status) -> np.ndarray | None:
        """The ray behind a "no solution" word, in the conic form of :meth:`pair`: for
        ``INFEASIBLE`` a Farkas ray ``y`` (rows), for ``UNBOUNDED`` an improving ray ``d``
        (columns); ``None`` when the solver gives none.  It is checked, never trusted
        (:mod:`convexkern.math.conic.rays`)."""
        del raw, claim
        return None

    def solving(self) -> contextlib.AbstractContextManager:
        """A context the solver's own call runs in (none by default): a solver whose
        arithmetic depends on a process-wide setting gets it for its call only."""
        return contextlib.nullcontext()

    def last_iterate(self, raw: Any) -> Any | None:
        """A raw answer cvxpy can unpack into the variables, for a stop on a limit that
        cvxpy treats as a failure (``None``: no usable point)."""
        del raw
        return None
