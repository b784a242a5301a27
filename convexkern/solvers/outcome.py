"""Outcomes: the one module where a solve becomes a :class:`SolveReport`.

Every report is made here, by one of three functions, and its status is decided here
from three witnesses: the certificate (a point's proven bracket), what the formulation
proves (:attr:`Formulation.facts`, :attr:`Certificate.proven`) and the solver's word.

* :func:`certified_report`: a point, certified by the formulation's certificate;
* :func:`pointless_report`: a solve that returned no point (a limit before any usable
  iterate, a solver's error, a "no solution" claim, a solver not run);
* :func:`judged`: a "no solution" claim checked against the formulation's facts and the
  solver's own word on its accuracy.

The tolerance policy (how ``tol`` becomes a solver's settings, the floors, when a gap is
absolute) is one table, :data:`TOLERANCE`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..formulation import Formulation
from ..math.budget import fits
from ..report import ABSOLUTE_GAP_BELOW, SolveReport, Status

__all__ = ["TOLERANCE", "TolerancePolicy", "certified_report", "judged", "pointless_report",
           "proves_no_solution", "refine_hopeless", "unproved_past_deadline"]


@dataclass(frozen=True, kw_only=True)
class TolerancePolicy:
    """How a requested ``tol`` (the target relative certified gap) is read, in one place."""

    #: the smallest ``tol`` a solve accepts: a certified relative gap below it is under
    #: the rounding of the certificate itself in double precision (tens of ulps of the
    #: objective), so asking for less only runs an algorithm to its budget
    tol_floor: float = 1e-14
    #: a conic solver's accuracy settings are ``solver.safety * tol`` (its certified gap,
    #: recomputed from the returned point, is typically a few times its own residuals),
    #: floored here
    settings_floor: float = 1e-12
    #: a refining re-solve (``ConicSolverSpec.refine``) runs at settings up to this much
    #: tighter, floored at ``refine_floor``: the solver's feasibility and gap tolerances
    #: are absolute, so a problem with a small objective needs them far below ``tol``
    refine_factor: float = 1e-3
    refine_floor: float = 1e-14
    #: ... and only as much tighter as the first gap's shortfall asks, with this margin:
    #: settings ``accuracy * refine_margin * tol / gap`` (a first-order solver asked for
    #: far more than it needs can stall: SCS on SDPLIB theta1's dual form certifies at
    #: settings 1e-6 and 1e-7 in 0.3 s and runs into its iteration cap at 1e-8)
    refine_margin: float = 0.1
    #: the re-solve's own time budget: this many times the first solve, at least
    #: ``refine_min_s`` seconds (a first-order solver at settings 1000x tighter ran 32 s
    #: after a 0.27 s solve on SDPLIB's theta1), within the caller's time_limit
    refine_time: float = 10.0
    refine_min_s: float = 0.5
    #: below this magnitude of both bounds the gap is compared with ``tol`` as an absolute
    #: number (:func:`convexkern.report.relative_gap`)
    absolute_below: float = ABSOLUTE_GAP_BELOW

    def settings(self, tol: float, safety: float, floor: float = 0.0) -> float:
        """A conic solver's accuracy settings for ``tol`` (``floor``: the solver's own)."""
        return max(tol * safety, self.settings_floor, floor)

    def refined(self, accuracy: float, shortfall: float = math.inf) -> float:
        """The settings of a refining re-solve after a solve at ``accuracy`` whose
        certified gap was ``shortfall`` times ``tol`` (infinite: an open bound)."""
        factor = self.refine_factor
        if math.isfinite(shortfall) and shortfall > 0:
            factor = min(max(factor, self.refine_margin / shortfall), self.refine_margin)
        return max(accuracy * factor, self.refine_floor)


#: the tolerance policy every solve reads
TOLERANCE = TolerancePolicy()


#: set while a custom algorithm runs under a caller's deadline
#: (:func:`unproved_past_deadline`)
_PAST_DEADLINE_UNPROVED: ContextVar[bool] = ContextVar("convexkern_unproved_past_deadline",
                                                       default=False)


@contextmanager
def unproved_past_deadline(on: bool = True) -> Iterator[None]:
    """Within the block (a custom algorithm under ``time_limit``), :func:`certified_report`
    begins no certificate once the deadline in force and its grace have passed: the point
    is handed back unproved, as a time limit (``on=False``: certified whatever the time,
    for a call without a limit nested in a timed one).  Not for the conic solvers, whose
    generic certificate keeps the deadline itself, and some of which cannot be stopped
    (MPAX: a certificate under a millisecond after a solve at 27-110 T)."""
    token = _PAST_DEADLINE_UNPROVED.set(on)
    try:
        yield
    finally:
        _PAST_DEADLINE_UNPROVED.reset(token)


def certified_report(
    f: Formulation,
    point: Mapping[str, np.ndarray],
    *,
    solver: str,
    status: Status,
    tol: float,
    solve_time: float,
    iterations: int | None = None,
    history: Sequence[Sequence[float]] = (),
    solver_stats: Mapping[str, Any] | None = None,
    message: str = "",
) -> SolveReport:
    """Certify ``point`` with the formulation's certificate and build the report.

    ``status=OPTIMAL`` is kept only when the certified relative gap is at most ``tol``;
    otherwise it becomes ``OPTIMAL_INACCURATE`` and the message says why.  A conic
    solver's own "optimal_inaccurate" (``solver_stats["status"]``) at a point certified
    within ``tol`` becomes ``OPTIMAL``: the proof decides, the word stays in the message.
    A status the certificate proves from the data (``Certificate.proven``, e.g. unbounded
    by a theorem) replaces a solver's "optimal" or "optimal_inaccurate".  Every solver,
    conic or custom, goes through here; ``tol`` is also handed to the certificate
    (:meth:`Formulation.certificate`), which may use it to skip refinements it does not
    need.
    """
    t0 = time.perf_counter()
    bad = [] if f.generic else _not_finite(point)
    if bad:  # a solver's NaN iterate (MPAX after a diverging run): nothing to certify
        return pointless_report(
            f, solver=solver, status=status if status in (
                Status.ITERATION_LIMIT, Status.TIME_LIMIT) else Status.ERROR,
            tol=tol, solve_time=solve_time, iterations=iterations,
            solver_stats=solver_stats,
            message="; ".join(m for m in (message, f"{solver}'s point is not finite (NaN or "
                                                   f"inf in {bad}): nothing to certify") if m))
    if _PAST_DEADLINE_UNPROVED.get() and not fits(0.0):
        # a custom algorithm's last step ended past the caller's deadline and its grace:
        # the formulation's certificate is not begun; the point is handed back unproved
        return SolveReport(
            status=Status.ERROR if status is Status.ERROR else Status.TIME_LIMIT,
            solver=solver, formulation=f.name, solve_time=float(solve_time),
            iterations=iterations, x={k: np.asarray(v) for k, v in point.items()},
            history=tuple(tuple(float(v) for v in h) for h in history), tol=tol,
            params=f.param_values(), solver_stats=dict(solver_stats or {}),
            message="; ".join(m for m in (message, f"{solver} said {status.value}, but no "
                                          "time was left for the certificate (time_limit): "
                                          "the point is not certified") if m))
    try:
        cert = f.certificate(point, tol=tol)
    except MemoryError as exc:  # an allocation the machine refuses: said, not raised
        return pointless_report(
            f, solver=solver, status=Status.ERROR, tol=tol, solve_time=solve_time,
            iterations=iterations, solver_stats=solver_stats,
            message="; ".join(m for m in (message, f"the certificate ran out of memory "
                                                   f"({type(exc).__name__}: {exc})") if m))
    certify_time = time.perf_counter() - t0
    wrong = _refuse(f, cert)
    if wrong:
        return SolveReport(
            status=Status.ERROR, solver=solver, formulation=f.name,
            primal_value=float(cert.primal_value), dual_value=float(cert.dual_value),
            solve_time=float(solve_time), iterations=iterations, tol=tol,
            params=f.param_values(), solver_stats=dict(solver_stats or {}),
            message="; ".join(m for m in (message, wrong) if m),
        )
    rel = cert.rel_gap
    notes = [m for m in (message, cert.note) if m]
    if cert.proven is not None and status in (Status.OPTIMAL, Status.OPTIMAL_INACCURATE):
        notes.append(f"{solver} said {status.value}; the certificate proves {cert.proven.value}")
        status = cert.proven
    scale = max(abs(cert.primal_value), abs(cert.dual_value))
    if cert.scale is None and math.isfinite(scale) and scale < TOLERANCE.absolute_below:
        notes.append(f"both values are below {TOLERANCE.absolute_below:g} in magnitude: "
                     f"the gap {cert.gap:.3g} is compared with tol as an absolute gap (a "
                     "relative one has no meaning at zero)")
    if status is Status.OPTIMAL and not rel <= tol:
        status = Status.OPTIMAL_INACCURATE
        notes.append(f"certified relative gap {rel:.3g} exceeds tol {tol:.3g}")
    elif (status is Status.OPTIMAL_INACCURATE and rel <= tol
          and (solver_stats or {}).get("status") == "optimal_inaccurate"):
        # a conic solver that missed its own settings, at a point the certificate proves
        # within tol: the proof decides, the solver's word stays in the message
        status = Status.OPTIMAL
        notes.append(f"{solver} said optimal_inaccurate; its point is certified to tol")
    return SolveReport(
        status=status,
        solver=solver,
        formulation=f.name,
        primal_value=float(cert.primal_value),
        dual_value=float(cert.dual_value),
        gap=float(cert.gap),
        rel_gap=float(rel),
        solve_time=float(solve_time),
        certify_time=certify_time,
        iterations=iterations,
        x={k: np.asarray(v) for k, v in cert.point.items()},
        history=tuple(tuple(float(v) for v in h) for h in history),
        tol=tol,
        params=f.param_values(),
        residuals=dict(cert.residuals),
        solver_stats=dict(solver_stats or {}),
        message="; ".join(notes),
    )


def _not_finite(point: Mapping[str, Any]) -> list[str]:
    """The names of the point's numeric entries holding a NaN or an infinity."""
    out = []
    for k, v in point.items():
        if isinstance(v, (np.ndarray, float, int, list, tuple)):
            try:
                arr = np.asarray(v, dtype=float)
            except (TypeError, ValueError):
                continue
            if not np.all(np.isfinite(arr)):
                out.append(k)
    return out


#: an inverted bracket is accepted up to this many units of round-off of its values
_INVERSION_ULPS = 64 * 2.0 ** -53


def _refuse(f: Formulation, cert: Any) -> str:
    """Why the certificate cannot be right (empty if nothing is wrong): no sense, NaN
    bounds, or a lower bound above the upper one beyond round-off.  Each is a bug in the
    certificate, never an optimum.  A sense swapped by mistake shows up as an
    inverted bracket (its "primal" value is then on the wrong side).  The certificate's
    sense may differ from the cvxpy problem's when the builder solves a dual of the
    paper's problem (``robust_indefinite.dual`` minimises the dual (6) of the
    maximisation (3)): the optimal values agree, so the bracket is checked, not the word."""
    who = getattr(f.certify, "__qualname__", repr(f.certify))
    if cert.sense not in ("minimize", "maximize"):
        return (f"certificate {who} of {f.name} gives sense {cert.sense!r} (neither "
                "'minimize' nor 'maximize'): its bounds are refused")
    lo, up = cert.lower, cert.upper
    if math.isnan(lo) or math.isnan(up):
        return f"certificate {who} of {f.name} returned NaN bounds: they are refused"
    if math.isfinite(lo) and math.isfinite(up):
        slack = _INVERSION_ULPS * max(abs(lo), abs(up)) + 1e-300
        if lo > up + slack:
            return (f"certificate {who} of {f.name} returned lower bound {lo!r} above its "
                    f"upper bound {up!r}: the bracket is refused (a certificate bug)")
    return ""


#: a phase-one margin below this says a side has (numerically) no strictly feasible point
NO_INTERIOR = 1e-6


def refine_hopeless(r: SolveReport, sdp: bool) -> str:
    """Why a refining re-solve cannot close an open side of ``r``, or ``""``.

    * An SDP's side whose phase one (computed by the certificate) found no strictly
      feasible point: no cone move of a point, however accurate, can be paid for
      (SDPLIB's hinf and qap5).  Not for LPs: there an exact correction of a re-solved
      point may close a bound without any interior (Netlib BEACONFD on QOCO).
    * An open primal side on a form whose equality rows the certificate found dependent
      only to rounding (:func:`~convexkern.math.conic.redundant.ill_posed`): no point,
      however accurate, is corrected onto them (cvxpy's ``lp_5``: 7-21 times the plain
      solve, half of it a re-solve that ended as open)."""
    res = r.residuals or {}
    for value, key, side in ((r.dual_value, "dual_phase_one_margin", "dual"),
                             (r.primal_value, "phase_one_margin", "primal")):
        margin = res.get(key)
        if sdp and not math.isfinite(value) and margin is not None and margin < NO_INTERIOR:
            return (f"not re-solved: the {side} side has no strictly feasible point "
                    f"(phase-one margin {margin:.2g}), so a more accurate point cannot give "
                    "it a finite bound")
    if not math.isfinite(r.primal_value) and res.get("ill_posed_equalities"):
        return ("not re-solved: the equality rows depend on each other only to rounding, so "
                "no point, however accurate, is corrected onto them and the primal side "
                "stays open")
    return ""


def pointless_report(
    f: Formulation,
    *,
    solver: str,
    status: Status,
    tol: float | None,
    message: str,
    solve_time: float = math.nan,
    iterations: int | None = None,
    solver_stats: Mapping[str, Any] | None = None,
    history: Sequence[Sequence[float]] = (),
) -> SolveReport:
    """The report of a solve that returned no point to certify.

    ``status`` is a limit reached before any usable iterate, ``error``, ``skipped``, or a
    "no solution" claim (``infeasible``, ``unbounded``, ``infeasible_or_unbounded``); an
    unbounded problem's value is reported as the infinite optimum its sense implies.  A
    status that would carry a point (``optimal``...) is refused: that report is made by
    :func:`certified_report`."""
    if status in (Status.OPTIMAL, Status.OPTIMAL_INACCURATE):
        raise ValueError(f"a '{status.value}' report needs a point: use certified_report")
    primal = math.nan
    if status is Status.UNBOUNDED:
        primal = math.inf if f.sense == "maximize" else -math.inf
    return SolveReport(
        status=status, solver=solver, formulation=f.name, primal_value=primal,
        solve_time=float(solve_time), iterations=iterations, tol=tol,
        params=f.param_values(), solver_stats=dict(solver_stats or {}), message=message,
        history=tuple(tuple(float(v) for v in h) for h in history),
    )


#: which fact of the formulation each "no solution" status contradicts
_CONTRADICTS = {
    Status.INFEASIBLE: ("feasible",),
    Status.UNBOUNDED: ("bounded",),
    Status.INFEASIBLE_OR_UNBOUNDED: ("feasible", "bounded"),
}


def judged(f: Formulation, report: SolveReport) -> SolveReport:
    """A solver's "no solution" claim judged: never reported as a property of the problem
    when the formulation's facts refute it (:attr:`Formulation.facts`, a proof that it is
    feasible or bounded) or, unless a fact proves it (``facts["infeasible"]``...), when
    its ray does not prove it (``solver_stats["claim_proven"]``
    False, set by the conic path after checking the solver's Farkas or improving ray, and
    another solver's, :mod:`convexkern.math.conic.rays`).  Either becomes ``error``, with
    the solver's words and the reason.  Any other report is returned unchanged."""
    keys = _CONTRADICTS.get(report.status, ())
    if not keys:
        return report
    said = f"{report.solver} said '{report.status.value}'"
    words = f" [{report.message}]" if report.message else ""
    if all(k in f.facts for k in keys):
        reasons = [f.facts[k]() if callable(f.facts[k]) else f.facts[k] for k in keys]
        if all(reasons):  # a lazy fact may not be provable for this instance
            return replace(
                report, status=Status.ERROR, primal_value=math.nan,
                message=f"{said}, refuted by the formulation ({'; '.join(reasons)}): "
                        "numerical trouble, not a property of the problem; try another "
                        f"solver or rescale the data{words}")
    if report.solver_stats.get("claim_proven") is False:
        fact = f.facts.get(report.status.value)
        proof = (fact() if callable(fact) else fact) if fact is not None else ""
        if proof:  # the formulation proves what the solver's ray could not
            return replace(report, solver_stats={**report.solver_stats, "claim_proven": True},
                           message=f"the problem is {report.status.value}: {proof} [{said}; "
                                   "its ray proved nothing, the formulation proves it]")
        return replace(report, status=Status.ERROR, primal_value=math.nan,
                       message=report.message or f"{said}: not proven")
    return report


def proves_no_solution(second: SolveReport, first: SolveReport) -> bool:
    """Whether a re-solve's report proves the problem infeasible or unbounded (its ray
    checked: ``claim_proven``) where the first answer's certificate does not refute it: a
    finite bound on the side the claim empties (a certified feasible point refutes
    "infeasible", a certified bound on the optimum "unbounded")."""
    if not second.solver_stats.get("claim_proven"):
        return False
    if second.status is Status.UNBOUNDED:
        return not math.isfinite(first.dual_value)
    if second.status is Status.INFEASIBLE:
        return not math.isfinite(first.primal_value)
    return False
