"""The outcome of :func:`convexkern.math.smo.smo` and what its ``callback`` sees (kept
apart from the solver's loop; both are re-exported by :mod:`convexkern.math.smo`)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["SMOProgress", "SMOResult"]


@dataclass(frozen=True)
class SMOProgress:
    """What a ``callback`` sees every ``history_every`` iterations.

    ``alpha`` is a read-only view of the solver's working array, valid only during the
    call (copy it to keep it).
    """

    iteration: int
    time: float
    dual_objective: float
    max_violation: float
    alpha: np.ndarray


@dataclass(frozen=True)
class SMOResult:
    """The outcome of :func:`smo`.

    Attributes
    ----------
    alpha : ndarray of shape (n,)
        The dual variables, in ``[0, C]`` (``[0, C_i]``) exactly, with ``y @ alpha`` zero up
        to round-off.
    b : float
        The bias of the decision function ``f(x) = sum_s alpha_s y_s K(x_s, x) + b``.
    status : str
        ``"optimal"`` (maximal violation ``<= eps``; with ``gap_tol``, the gap estimate
        met, which a step on the face can reach with a violation above ``eps``),
        ``"iteration_limit"``, ``"time_limit"`` or ``"interrupted"`` (the callback asked
        to stop).
    iterations : int
        Number of two-variable steps taken.
    max_violation : float
        ``m(alpha) - M(alpha)`` at the returned point (see the module docstring).
    dual_objective : float
        ``D(alpha) = e'alpha - alpha' G alpha / 2`` at the returned point, evaluated as
        ``sum_t alpha_t (1 + y_t v_t) / 2`` from the maintained ``v = y - K(y*alpha)``.
    solve_time : float
        Seconds spent solving (initial gradient included, input validation excluded).
    n_support : int
        Number of ``alpha_t > 0``.
    history : list of (iteration, time, dual objective, max violation)
        Sampled every ``history_every`` iterations and at the end.  The dual objective in
        the history is tracked incrementally (one scalar update per step); the final
        ``dual_objective`` is recomputed from the gradient.  While variables are shrunk,
        the recorded violation is that of the active set (a lower bound); the last entry
        is always for the full set.
    kernel_rows_computed : int
        Kernel rows evaluated by the ``kernel`` callable (0 for a precomputed ``K``);
        more rows than ``n`` means the row cache evicted and recomputed some.
    eps : float
        The stopping tolerance in force.
    active_size_min : int
        Smallest active set used (``n`` when shrinking never set a variable aside).
    gap_estimate : (float, float) or None
        With ``gap_tol``: ``(D(alpha), P(alpha))`` from the maintained gradient at the
        last gap check (an estimate of the certified pair, not a certificate).
    gap_checks : int
        Number of gap evaluations (``gap_tol``).
    face_steps : int
        Gap checks that moved ``alpha`` to the optimum of its face (:mod:`.smo_face`).
    """

    alpha: np.ndarray
    b: float
    status: str
    iterations: int
    max_violation: float
    dual_objective: float
    solve_time: float
    n_support: int
    history: list[tuple[int, float, float, float]] = field(default_factory=list)
    kernel_rows_computed: int = 0
    eps: float = 1e-3
    active_size_min: int = 0
    gap_estimate: tuple[float, float] | None = None
    gap_checks: int = 0
    face_steps: int = 0

    @property
    def converged(self) -> bool:
        """True when the ``eps`` criterion was met."""
        return self.status == "optimal"
