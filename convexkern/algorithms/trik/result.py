"""The outcome of the TrIK active set: :class:`TrIKResult`."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

__all__ = ["TrIKResult"]


@dataclass(frozen=True)
class TrIKResult:
    """The outcome of :func:`trik`.

    Attributes
    ----------
    alpha_tilde : ndarray (n,)
        Hilbert-space dual variables, in ``[0, C]`` with ``y'alpha_tilde = 0``.
    alpha : ndarray (n,)
        Kreĭn-space coefficients (paper eq. 6, unlabelled convention of the module
        docstring); ``f(x) = sum_i alpha_i y_i k(x_i, x) + b`` with the original kernel.
    b : float
        Bias, shared by ``f`` and ``f~``.
    status : str
        ``"optimal"`` (no margin violation above ``eps`` in the checked space, and the
        returned point passes the final check: KKT violation of the Hilbert QP below
        ``kkt_tol`` and ``|y'α~|`` at round-off level),
        ``"krein_stationary"`` (Kreĭn check only: no Kreĭn-space margin violation above
        ``eps``, but the point is *not* the Hilbert QP optimum — its KKT violation
        ``hilbert_violation`` exceeds ``kkt_tol``; this is where the paper's Algorithm 1
        stops, not an optimum of the problem it solves),
        ``"inaccurate"`` (the loop stopped but the final check failed: a Hilbert KKT
        violation above ``kkt_tol`` with the Hilbert check, or ``y'α~`` not ~0 — e.g. an
        ill-conditioned ``K~_WW``),
        ``"stalled"`` (the remaining violators cannot enter the working set: with the
        Kreĭn check they are all rejected by the Hilbert QP — adding one is undone at
        once — so the active set cannot move; ``max_violation`` says by how much they
        violate),
        ``"iteration_limit"``, ``"time_limit"``.
    optimality : str
        ``"hilbert"`` or ``"krein"``: where primal optimality was checked.
    lam : float
        The shift ``λ`` (``K~ = K - 2 λ I``).
    iterations : int
        Linear solves on the working set.
    free, bounded : ndarray of int
        Indices of free (``0 < α~ < C``) and bounded (``α~ = C``) support vectors.
    max_violation : float
        Largest margin violation in the checked space at the returned point.
    hilbert_violation : float
        Largest KKT violation of the Hilbert QP at ``alpha_tilde`` (0 at its optimum), in
        margin units (``y_i f~(x_i) - 1``).
    kkt_tol : float
        Threshold of the final check: ``10 eps`` plus the round-off level
        ``10 n eps_mach (1 + max|f~ - b| + max diag(K~) ||α~||_1)``.
    equality_residual : float
        ``|y'α~|`` at the returned point (0 in exact arithmetic).
    singular_pivots, dense_solves : int
        Times an entering point made ``K~_WW`` numerically singular (a Cholesky pivot
        below ``PIVOT_RTOL``: ``lam = 0`` with a rank-deficient ``K``, e.g. KSVM's flipped
        ``U|D|U'``, or ``|lam|`` at round-off level), and the linear solves then done
        densely on the bordered KKT system ``[[K~_WW, 1], [1', 0]]`` (least squares if it
        is singular too) until a removal made ``K~_WW`` regular again.
    dual_objective : float
        ``e'α~ - α~'YK~Yα~/2``.
    n_added, n_removed : int
        Points moved into / out of the working set.
    kernel_columns_computed : int
        Kernel columns evaluated by the kernel function (0 with a precomputed ``K``).
    solve_time : float
    history : list of (iteration, time, n_free, n_bounded, dual objective, violation)
    singular_fallbacks : int
        Times ``K_WW`` was numerically singular and the Kreĭn coefficients were obtained
        by least squares (each one also raised a ``RuntimeWarning``).
    refactorizations : int
        Times the up/down-dated ``K_WW^{-1}`` (Kreĭn check) failed its residual test and
        was recomputed from scratch.
    """

    alpha_tilde: np.ndarray
    alpha: np.ndarray
    b: float
    status: str
    optimality: str
    lam: float
    iterations: int
    free: np.ndarray
    bounded: np.ndarray
    max_violation: float
    hilbert_violation: float
    dual_objective: float
    n_added: int
    n_removed: int
    kernel_columns_computed: int
    solve_time: float
    history: list[tuple[float, ...]] = field(default_factory=list)
    singular_fallbacks: int = 0
    refactorizations: int = 0
    kkt_tol: float = math.nan
    equality_residual: float = math.nan
    singular_pivots: int = 0
    dense_solves: int = 0

    @property
    def converged(self) -> bool:
        """True only for ``status == "optimal"`` (never for ``"krein_stationary"``)."""
        return self.status == "optimal"

    @property
    def n_support(self) -> int:
        """Number of nonzero Kreĭn coefficients."""
        return int(np.count_nonzero(self.alpha))
