"""What the SDPM algorithms (the barrier method, dual coordinate descent, the exchange
method) share: the step after each certified iterate (record it, report it when asked, and
say whether to stop: the certified gap met, or the time spent), and the form of their raw
output (:class:`SdpmResult`)."""

from __future__ import annotations

import numbers
import time
from dataclasses import dataclass, field

import numpy as np

from ..errors import InvalidInputError
from ..report import Certificate

__all__ = ["checkpoint", "SdpmResult", "no_room", "next_lap", "blas_threads"]


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


#: the next iteration is expected to take up to this many times the last one (the
#: exchange method's masters grow with their cuts: 1.4 times from one to the next)
LAP_GROWTH = 1.5


def checkpoint(history: list[tuple[float, ...]], it: int, t0: float, cert: Certificate,
               tol: float, time_limit: float | None,
               line: str | None = None, step: float | None = None) -> str | None:
    """Append ``(it, elapsed, lower, upper)`` to ``history``; when ``line`` is given
    (verbose runs) print it followed by the bounds; return ``"optimal"`` once the
    certified relative gap is within ``tol``, ``"time_limit"`` once the next step would end
    past ``time_limit`` seconds from ``t0`` (:func:`no_room`), else ``None`` (go on).  The
    next step is taken to last ``step`` seconds where the caller knows (a Newton step
    between two checkpoints), else :func:`next_lap`'s estimate."""
    history.append((it, time.perf_counter() - t0, cert.lower, cert.upper))
    if line is not None:
        print(f"{line} lower={cert.lower:.12g} upper={cert.upper:.12g} "
              f"rel_gap={cert.rel_gap:.3g}")
    if cert.rel_gap <= tol:
        return "optimal"
    if no_room(t0, time_limit, next_lap(history) if step is None else step):
        return "time_limit"
    return None


def next_lap(history: list[tuple[float, ...]], origin: float = 0.0) -> float:
    """How long the next iteration is expected to take, from a history of ``(it, elapsed,
    ...)`` rows: :data:`LAP_GROWTH` times the last one; after the first row alone, the time
    it took since ``origin`` (seconds from the start: a set-up not to be repeated, such as
    the robust SVM's decomposition of ``K0``, left out), as it is."""
    if len(history) > 1:
        return LAP_GROWTH * (history[-1][1] - history[-2][1])
    return max(history[-1][1] - origin, 0.0) if history else 0.0


def no_room(t0: float, time_limit: float | None, lap: float) -> bool:
    """Whether ``time_limit`` seconds from ``t0`` leave no room for another step as long as
    ``lap`` (:func:`next_lap`'s estimate, or the caller's; the work after the loop is kept
    out of ``time_limit`` by the method's adapter).  A step cannot be interrupted: a method
    under a time limit stops before one that would end past it (stopped only once past
    the limit, SDPM's methods ended at 1.2-1.7 T under ``T = 0.1`` s).  Never without a
    ``time_limit``."""
    return time_limit is not None and time.perf_counter() - t0 + lap > time_limit


def blas_threads(options: dict, default: int | None = 1) -> int | None:
    """The ``blas_threads`` option of a method's adapter, checked: the BLAS threads its
    run may use (``None``: the process's pool, as it is).  One is the SDPM methods'
    default: the products are a few hundred columns wide, and on a shared 2-core machine
    two OpenBLAS threads made ``sdpm-ipm``'s rank-k update 4x and its (n+1)-Cholesky 6x
    slower, and the exchange method's run 40x slower (34 s against 0.8 s on 200 USPS
    trajectories, another process beside it)."""
    threads = options.get("blas_threads", default)
    if threads is not None and (isinstance(threads, bool | np.bool_)
                                or not isinstance(threads, numbers.Integral) or threads < 1):
        raise InvalidInputError("blas_threads",
                                f"must be a positive integer or None, got {threads!r}")
    return None if threads is None else int(threads)
