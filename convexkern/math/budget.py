"""The caller's time budget, seen by the certificate's own solves.

A certificate may solve a small problem of its own (the phase-one point of
:func:`convexkern.math.conic.interior_point`); under ``ck.solve(..., time_limit=T)`` it has
only what is left of ``T``.  The solve path sets the deadline around the certificate
(:func:`deadline`); the math reads what is left (:func:`time_left`).  A context variable,
so threads and nested solves each keep their own.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["deadline", "time_left", "affordable", "fits", "FLOPS", "SOLVER_FLOPS",
           "PASS_SECONDS", "REPORT_TAIL", "report_tail", "GRACE", "grace_past"]

_DEADLINE: ContextVar[float | None] = ContextVar("convexkern_deadline", default=None)
_GRACE: ContextVar[float] = ContextVar("convexkern_grace", default=0.0)


@contextmanager
def deadline(at: float | None, grace: float = 0.0) -> Iterator[None]:
    """Within the block, :func:`time_left` counts down to ``at`` (a
    :func:`time.perf_counter` value; ``None``: no deadline).  ``grace`` seconds past it
    are still open to :func:`fits` (the part of the caller's allowance beyond ``T``
    that a certificate of a late answer may use)."""
    token = _DEADLINE.set(at)
    token_g = _GRACE.set(max(float(grace), 0.0))
    try:
        yield
    finally:
        _GRACE.reset(token_g)
        _DEADLINE.reset(token)


def time_left() -> float | None:
    """Seconds left before the deadline in force (``None``: none)."""
    at = _DEADLINE.get()
    return None if at is None else at - time.perf_counter()


#: dense floating-point work per second the budget assumes (one core of a 2020s CPU does
#: several times more; the margin keeps a dense step from overrunning the deadline)
FLOPS = 2e8


#: the rate assumed for a solver's own dense factorisation (a LAPACK kernel runs at about
#: 2e10 flops per second on one core of this project's CI machines; a quarter of that)
SOLVER_FLOPS = 5e9


#: seconds per stored entry of one sparse pass of the certificate (a round of interval
#: propagation over ``[A I]``: 0.24 s for 9e5 entries on this project's 2-core machine;
#: a box's first rounds, over all its rows, up to 2.2-3.0e-7 an entry on logistic
#: regression, the 1-norm SVM LP and a dense SOCP: at 2e-7 a round begun with what that
#: rate allowed ended 0.05 s past a deadline of 2.6 s)
PASS_SECONDS = 3e-7


#: seconds of a call's own work after its last read of the clock: the solver's answer
#: unpacked, the certificate's closing steps (its notes, the gap's scale) and the report,
#: 3-8 ms on Netlib and Maros-Meszaros problems; a fixed cost, where the 3 % grace past
#: the deadline is a share of it (at ``T`` = 0.05-0.1 s calls ended 1.05-1.14 T)
REPORT_TAIL = 0.01


#: the share of a time limit past its deadline that work begun late may still use (the
#: caller's allowance is ``T + 5 %``; the rest is the report's own)
GRACE = 0.03


def report_tail(limit: float) -> float:
    """How much of a time limit of ``limit`` seconds the work leaves for the end of the
    call (:data:`REPORT_TAIL`, at most a fifth of a short limit): its deadline comes that
    much before the caller's."""
    return min(REPORT_TAIL, 0.2 * limit)


def grace_past() -> float:
    """The seconds past the deadline in force that :func:`fits` still admits (0 without
    one)."""
    return _GRACE.get()


def fits(seconds: float) -> bool:
    """Whether work of about ``seconds`` ends before the deadline plus its grace (always,
    without a deadline).  Past that, a step that cannot be interrupted is not started:
    its bound stays open, with the reason, instead of overrunning the caller's limit."""
    left = time_left()
    return left is None or seconds <= left + _GRACE.get()


def affordable(flops: float) -> bool:
    """Whether a dense step of about ``flops`` floating-point operations fits in what is
    left of the deadline (always, without one): a factorisation cannot be interrupted,
    so it is skipped up front, and the bound goes on without it."""
    left = time_left()
    return left is None or flops <= FLOPS * max(left, 0.0)
