"""The step the SDPM algorithms share after each certified iterate: record it, report it
when asked, and say whether to stop (the certified gap met, or the time spent)."""

from __future__ import annotations

import time

from ..report import Certificate

__all__ = ["checkpoint"]


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
