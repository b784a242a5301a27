"""What every solve returns: :class:`Status`, :class:`Certificate`, :class:`SolveReport`.

A report's numbers are recomputed from the problem data by the formulation's certificate,
never copied from a solver's own claim: ``primal_value`` is the formulation's objective at
the returned point (in the formulation's own sense), ``dual_value`` is a valid bound from the
other side, and ``gap = |dual_value - primal_value|`` is therefore a *certified* bound on
the distance to the optimum.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, overload

import numpy as np

from ._tables import csv_text, text_table

__all__ = ["Status", "Certificate", "SolveReport", "ReportTable", "relative_gap"]


class Status(str, Enum):
    """The outcome of a solve, shared by conic solvers and custom algorithms.

    Only ``OPTIMAL`` means "an optimum certified to the requested tolerance".
    ``OPTIMAL_INACCURATE`` is a solution whose certified gap misses the tolerance (or that
    the solver itself flagged as inaccurate).  Running out of iterations or time is a
    status, never an optimum.
    """

    OPTIMAL = "optimal"
    OPTIMAL_INACCURATE = "optimal_inaccurate"
    INFEASIBLE = "infeasible"
    UNBOUNDED = "unbounded"
    #: the solver proved that the primal-dual pair has no optimum without telling which
    #: side fails (cvxpy's ``infeasible_or_unbounded``)
    INFEASIBLE_OR_UNBOUNDED = "infeasible_or_unbounded"
    ITERATION_LIMIT = "iteration_limit"
    TIME_LIMIT = "time_limit"
    ERROR = "error"
    #: not run: :func:`convexkern.compare` left a solver out by default (the message says
    #: why; naming the solver runs it)
    SKIPPED = "skipped"

    def __str__(self) -> str:
        return self.value

    @property
    def has_solution(self) -> bool:
        """True when the report carries a point and certified values."""
        return self in (
            Status.OPTIMAL,
            Status.OPTIMAL_INACCURATE,
            Status.ITERATION_LIMIT,
            Status.TIME_LIMIT,
        )


#: below this magnitude of both values a gap is reported as an absolute number
ABSOLUTE_GAP_BELOW = 1e-9
#: an optimum this much smaller than its objective's terms is one they cancel to
CANCELLED = 1e-6


def relative_gap(primal_value: float, dual_value: float,
                 scale: float | None = None) -> float:
    """``|d - p| / max(|p|, |d|)``, the convention of interior-point codes (scale-free for
    large objectives).

    When both values are below 1e-9, or a million times below ``scale`` (the size of the
    objective's terms at the certified point, their absolute values summed before any
    cancellation, where the certificate knows it), a relative figure has no meaning: the
    gap is then taken relative to ``scale``, so an optimum that is tiny because the data
    are tiny is not called optimal by an absolute gap, and an optimum at 0 reached by
    cancelling terms (Maros-Meszaros TAME: ``(x - y)^2`` at ``x = y = 1/2``) is judged
    against them; without ``scale`` the absolute gap is returned.
    """
    if not (math.isfinite(primal_value) and math.isfinite(dual_value)):
        return math.inf
    gap = abs(dual_value - primal_value)
    size = max(abs(primal_value), abs(dual_value))
    known = scale is not None and math.isfinite(scale) and scale > 0
    if size >= ABSOLUTE_GAP_BELOW and not (known and size < CANCELLED * scale):
        return gap / size
    if scale is not None and math.isfinite(scale) and scale > 0:
        return gap / max(size, scale)
    return gap


@dataclass(frozen=True)
class Certificate:
    """A certified pair of bounds on a formulation's optimal value.

    Attributes
    ----------
    primal_value : float
        The formulation's objective at ``point`` (in its own sense).
    dual_value : float
        A valid bound from the other side (an upper bound for a maximisation, a lower bound
        for a minimisation); ``inf``/``-inf`` when no finite bound could be certified.
    sense : {"minimize", "maximize"}
    point : dict
        The point that was certified.  Solver output that violates the constraints by
        round-off is first projected onto the feasible set; ``residuals`` says by how much.
    residuals : dict
        Named scalars (e.g. ``"projection"``: distance moved to reach feasibility).
    note : str
        Anything a reader of the numbers should know.
    proven : Status or None
        A status that the data prove whatever the solver said, e.g. ``UNBOUNDED`` for the
        ν-LP SVM with ``C_rho < 1/M`` (Abe 2012, Theorem 2).  :func:`certified_report`
        reports it in place of a solver's "optimal".  ``None`` (the default): nothing is
        proven beyond the two bounds.
    """

    primal_value: float
    dual_value: float
    sense: str
    point: Mapping[str, np.ndarray] = field(default_factory=dict)
    residuals: Mapping[str, float] = field(default_factory=dict)
    note: str = ""
    proven: Status | None = None
    #: the size of the objective's terms at the point (see :func:`relative_gap`), when the
    #: certificate knows it
    scale: float | None = None

    @property
    def lower(self) -> float:
        """Lower bound on the optimal value."""
        return self.primal_value if self.sense == "maximize" else self.dual_value

    @property
    def upper(self) -> float:
        """Upper bound on the optimal value."""
        return self.dual_value if self.sense == "maximize" else self.primal_value

    @property
    def gap(self) -> float:
        """``|dual_value - primal_value|`` (``inf`` when a bound is missing)."""
        if not (math.isfinite(self.primal_value) and math.isfinite(self.dual_value)):
            return math.inf
        return abs(self.dual_value - self.primal_value)

    @property
    def rel_gap(self) -> float:
        """The gap relative to the objective (or to ``scale``), see :func:`relative_gap`."""
        return relative_gap(self.primal_value, self.dual_value, self.scale)


_NAN = float("nan")


@dataclass(frozen=True)
class SolveReport:
    """The result of one solve, whichever solver produced it.

    Attributes
    ----------
    status : Status
    solver : str
        Registry name of the solver (``"clarabel"``, ``"smo"``, ...).
    formulation : str
        Name of the formulation that was solved.
    primal_value, dual_value : float
        Certified values, see :class:`Certificate`; NaN when there is no solution.
    gap, rel_gap : float
        ``|dual_value - primal_value|`` and its relative form.
    solve_time : float
        Seconds spent in the solver (for conic solvers: as reported by the solver when it
        reports it, else wall time of the call).
    wall_time : float
        Seconds for the whole ``solve`` call, including cvxpy compilation and the
        certificate.
    certify_time : float
        Seconds the certificate took (part of ``wall_time``; NaN when no point was
        certified).
    iterations : int or None
    x : dict of str to ndarray
        Named variable values at the certified point (paper names, e.g. ``"alpha"``).
    history : tuple of tuples
        Per-iteration records ``(iteration, time, lower, upper)`` for iterative methods.
    tol : float or None
        The target relative certified gap in force.
    params : dict
        Values of the formulation's parameters at solve time (e.g. ``{"C": 1.0}``).
    residuals : dict
        Named residuals from the certificate (feasibility repairs, ...).
    solver_stats : dict
        What the solver itself reported (its status string, objective, iterations...),
        kept for reference; not used for the certified numbers.
    message : str
        Human-readable notes (why a status was downgraded, a suggestion...).
    """

    status: Status
    solver: str
    formulation: str
    primal_value: float = _NAN
    dual_value: float = _NAN
    gap: float = _NAN
    rel_gap: float = _NAN
    solve_time: float = _NAN
    wall_time: float = _NAN
    certify_time: float = _NAN
    iterations: int | None = None
    x: Mapping[str, np.ndarray] = field(default_factory=dict)
    history: tuple[tuple[float, ...], ...] = ()
    tol: float | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    residuals: Mapping[str, float] = field(default_factory=dict)
    solver_stats: Mapping[str, Any] = field(default_factory=dict)
    message: str = ""

    @property
    def ok(self) -> bool:
        """True when the status is ``OPTIMAL`` (certified to ``tol``)."""
        return self.status is Status.OPTIMAL

    # -- display and export ------------------------------------------------------------
    _COLUMNS = (
        "solver",
        "status",
        "primal_value",
        "dual_value",
        "gap",
        "rel_gap",
        "solve_time",
        "iterations",
    )

    def to_dict(self, *, include_x: bool = False, include_history: bool = False) -> dict:
        """A JSON-ready dict (floats, strings, lists); arrays only when asked for."""
        row: dict[str, Any] = {
            "formulation": self.formulation,
            "solver": self.solver,
            "status": self.status.value,
            "primal_value": _num(self.primal_value),
            "dual_value": _num(self.dual_value),
            "gap": _num(self.gap),
            "rel_gap": _num(self.rel_gap),
            "solve_time": _num(self.solve_time),
            "wall_time": _num(self.wall_time),
            "certify_time": _num(self.certify_time),
            "iterations": self.iterations,
            "tol": self.tol,
        }
        row.update({f"param_{k}": _jsonable(v) for k, v in self.params.items()})
        if self.residuals:
            row["residuals"] = {k: _num(v) for k, v in self.residuals.items()}
        if self.message:
            row["message"] = self.message
        if include_x:
            row["x"] = {k: np.asarray(v).tolist() for k, v in self.x.items()}
        if include_history:
            row["history"] = [list(map(_num, h)) for h in self.history]
        return row

    def to_json(self, **kwargs: Any) -> str:
        """The :meth:`to_dict` row as a JSON string."""
        return json.dumps(self.to_dict(**kwargs))

    def __str__(self) -> str:
        it = "-" if self.iterations is None else str(self.iterations)
        return (
            f"{self.solver}: {self.status.value}  primal={_fmt(self.primal_value)}  "
            f"dual={_fmt(self.dual_value)}  gap={_fmt(self.gap, 3)} "
            f"(rel {_fmt(self.rel_gap, 3)})  time={self.solve_time:.3g}s  iter={it}"
        )


class ReportTable(Sequence[SolveReport]):
    """An ordered collection of reports (from :func:`compare` or :func:`path`).

    Prints as an aligned table, exports to JSON and CSV, and indexes like a list (by
    position) or like a dict (by solver name).
    """

    def __init__(self, reports: Iterable[SolveReport], *, extra_columns: Sequence[str] = ()):
        self._reports = list(reports)
        self._extra = tuple(extra_columns)

    @overload
    def __getitem__(self, key: int) -> SolveReport: ...
    @overload
    def __getitem__(self, key: slice) -> ReportTable: ...
    @overload
    def __getitem__(self, key: str) -> SolveReport: ...

    def __getitem__(self, key: int | slice | str) -> SolveReport | ReportTable:
        if isinstance(key, str):
            for r in self._reports:
                if r.solver == key:
                    return r
            raise KeyError(key)
        if isinstance(key, slice):
            return ReportTable(self._reports[key], extra_columns=self._extra)
        return self._reports[key]

    def __len__(self) -> int:
        return len(self._reports)

    def rows(self) -> list[dict]:
        """One :meth:`SolveReport.to_dict` row per report."""
        return [r.to_dict() for r in self._reports]

    def to_json(self, path: str | None = None, *, indent: int | None = 2) -> str:
        """JSON array of rows; written to ``path`` when given."""
        text = json.dumps(self.rows(), indent=indent)
        if path is not None:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
        return text

    def to_csv(self, path: str | None = None) -> str:
        """CSV with one row per report (nested fields flattened); written to ``path``."""
        text = csv_text(self.rows())
        if path is not None:
            with open(path, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
        return text

    def __str__(self) -> str:
        header = [*self._extra, "solver", "status", "primal", "dual", "gap", "rel_gap",
                  "time[s]", "iter"]
        body = []
        for r in self._reports:
            extra = [_fmt(r.params.get(c, _NAN), 4) if not isinstance(r.params.get(c), str)
                     else r.params[c] for c in self._extra]
            body.append([
                *extra,
                r.solver,
                r.status.value,
                _fmt(r.primal_value),
                _fmt(r.dual_value),
                _fmt(r.gap, 3),
                _fmt(r.rel_gap, 3),
                f"{r.solve_time:.3g}",
                "-" if r.iterations is None else str(r.iterations),
            ])
        return text_table(header, body)

    __repr__ = __str__


def _num(v: Any) -> float | None:
    """JSON has no NaN/inf: NaN becomes None, infinities become strings."""
    if v is None:
        return None
    f = float(v)
    if math.isnan(f):
        return None
    if math.isinf(f):
        return "inf" if f > 0 else "-inf"  # type: ignore[return-value]
    return f


def _jsonable(v: Any) -> Any:
    if isinstance(v, (complex, np.complexfloating)):  # a complex parameter: "(1+2j)"
        return str(complex(v))
    if isinstance(v, np.ndarray) and np.iscomplexobj(v):
        return [str(complex(z)) for z in v.ravel()]
    if isinstance(v, (np.floating, float)):
        return _num(v)
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, np.ndarray):
        return v.tolist()
    return v


def _fmt(v: Any, digits: int = 10) -> str:
    if v is None:
        return "-"
    f = float(v)
    if math.isnan(f):
        return "-"
    if math.isinf(f):
        return "inf" if f > 0 else "-inf"
    return f"{f:.{digits}g}"
