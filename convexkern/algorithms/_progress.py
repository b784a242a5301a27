"""What the SDPM algorithms (the barrier method, dual coordinate descent, the exchange
method) share: the step after each certified iterate (record it, report it when asked, and
say whether to stop: the certified gap met, or the time spent), and the form of their raw
output (:class:`SdpmResult`)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..report import Certificate

__all__ = ["checkpoint", "SdpmResult"]


@dataclass
class SdpmResult:
    """Raw output of an SDPM algorithm, which its adapter makes a ``SolveReport``: the
    weights ``w``, the moments ``mu`` (``(m, r+1)``), the status, the iterations, the
    ``history`` of certified bounds ``(it, seconds, lower, upper)`` (:func:`checkpoint`),
    a message and the method's own statistics."""

    w: np.ndarray
    mu: np.ndarray
    status: str
    iterations: int
    history: list[tuple[float, float, float, float]] = field(default_factory=list)
    message: str = ""
    stats: dict[str, float] = field(default_factory=dict)


def checkpoint(history: list[tuple[float, ...]], it: int, t0: float, cert: Certificate,
               tol: float, time_limit: float | None,
               line: str | None = None) -> str | None:
    """Append ``(it, elapsed, lower, upper)`` to ``history``; when ``line`` is given
    (verbose runs) print it followed by the bounds; return ``"optimal"`` once the
    certified relative gap is within ``tol``, ``"time_limit"`` once ``time_limit`` seconds
    have passed since ``t0``, else ``None`` (go on)."""
    history.append((it, time.perf_counter() - t0, cert.lower, cert.upper))
    if line is not None:
        print(f"{line} lower={cert.lower:.12g} upper={cert.upper:.12g} "
              f"rel_gap={cert.rel_gap:.3g}")
    if cert.rel_gap <= tol:
        return "optimal"
    if time_limit is not None and time.perf_counter() - t0 > time_limit:
        return "time_limit"
    return None
