"""The one place where a solver's point becomes a report: :func:`certified_report`."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..formulation import Formulation
from ..report import SolveReport, Status

__all__ = ["certified_report"]


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
    otherwise it becomes ``OPTIMAL_INACCURATE`` and the message says why.  A status the
    certificate proves from the data (``Certificate.proven``, e.g. unbounded by a theorem)
    replaces a solver's "optimal" or "optimal_inaccurate".  Every solver,
    conic or custom, goes through here; ``tol`` is also handed to the certificate
    (:meth:`Formulation.certificate`), which may use it to skip refinements it does not
    need.
    """
    cert = f.certificate(point, tol=tol)
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
    if math.isfinite(scale) and scale < 1e-9:
        notes.append(f"both values are below 1e-9 in magnitude: the gap {cert.gap:.3g} is "
                     "compared with tol as an absolute gap (a relative one has no meaning "
                     "at zero)")
    if status is Status.OPTIMAL and not rel <= tol:
        status = Status.OPTIMAL_INACCURATE
        notes.append(f"certified relative gap {rel:.3g} exceeds tol {tol:.3g}")
    return SolveReport(
        status=status,
        solver=solver,
        formulation=f.name,
        primal_value=float(cert.primal_value),
        dual_value=float(cert.dual_value),
        gap=float(cert.gap),
        rel_gap=float(rel),
        solve_time=float(solve_time),
        iterations=iterations,
        x={k: np.asarray(v) for k, v in cert.point.items()},
        history=tuple(tuple(float(v) for v in h) for h in history),
        tol=tol,
        params=f.param_values(),
        residuals=dict(cert.residuals),
        solver_stats=dict(solver_stats or {}),
        message="; ".join(notes),
    )


#: an inverted bracket is accepted up to this many units of round-off of its values
_INVERSION_ULPS = 64 * 2.0 ** -53


def _refuse(f: Formulation, cert: Any) -> str:
    """Why the certificate cannot be right (empty if nothing is wrong): no sense, NaN
    bounds, or a lower bound above the upper one beyond round-off.  Each is a bug in the
    certificate, never an optimum (issue 11).  A sense swapped by mistake shows up as an
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
