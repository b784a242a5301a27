r"""TrIK-SVM: an active-set solver for SVMs with indefinite kernels (Loosli, ESANN 2019).

The kernel matrix :math:`K` (indefinite, smallest eigenvalue :math:`\lambda_{\min} < 0`) is
split as :math:`K = K_+ - K_-` with :math:`K_+ = K - \lambda I`, :math:`K_- = -\lambda I`
for a shift :math:`\lambda \le \lambda_{\min}`.  The associated Hilbert space has the
positive definite kernel :math:`\tilde K = K_+ + K_- = K - 2\lambda I`, and the
*stabilization* problem in the Kreĭn space is solved as the ordinary SVM dual with
:math:`\tilde K`,

.. math::

    \max_{\tilde\alpha}\; e^\top\tilde\alpha - \tfrac12\tilde\alpha^\top Y\tilde KY\tilde\alpha
    \quad\text{s.t. } y^\top\tilde\alpha = 0,\; 0 \le \tilde\alpha \le C,

followed by the transition back to the Kreĭn space (paper eq. 6).

Coefficient convention (the one used everywhere in convexkern)
---------------------------------------------------------------
Both coefficient vectors are *unlabelled*: the decision functions are

.. math::

    \tilde f(x) = \sum_i \tilde\alpha_i y_i \tilde k(x_i, x) + b, \qquad
    f(x) = \sum_i \alpha_i y_i k(x_i, x) + b,

with the *original* (indefinite) kernel :math:`k` in :math:`f`.  :math:`\tilde\alpha` is in
the box :math:`[0, C]`; the Kreĭn coefficients :math:`\alpha` have no sign constraint.
With :math:`W` the free support vectors (:math:`0 < \tilde\alpha_i < C`),
:math:`G = YKY`:

.. math::

    \alpha_W = (I - 2\lambda G_{WW}^{-1})\,\tilde\alpha_W, \qquad
    \alpha_i = C \text{ on bounded support vectors}, \qquad \alpha_i = 0 \text{ elsewhere},

which makes :math:`f = \tilde f` on the free support vectors (the paper mixes labelled and
unlabelled coefficients; this is eq. 6 in the unlabelled form).

Algorithm (paper Algorithm 1, after SimpleSVM, Vishwanathan, Smola & Murty, ICML 2003)
------------------------------------------------------------------------------------
The points are split into free (``W``), bounded (``α̃ = C``) and zero (``α̃ = 0``) sets.
Each iteration

1. solves the KKT system of the QP restricted to ``W`` (margins equal to 1 on ``W``,
   ``y'α̃ = 0``) with the Cholesky factor of :math:`\tilde K_{WW}`;
2. **dual admissibility**: if the solution leaves the box, steps from the current
   feasible :math:`\tilde\alpha` towards it until the first coefficient hits a bound, moves
   that point out of ``W`` (a Cholesky *downdate*, Givens rotations on the trailing
   block) and solves again;
3. **primal optimality**: otherwise checks the margins of the points outside ``W`` —
   with the Hilbert-space decision function :math:`\tilde f` (``optimality="hilbert"``:
   the KKT conditions of the QP, so the result is its optimum) or with the Kreĭn-space
   decision function :math:`f` (``optimality="krein"``, the paper's rule) — and adds the
   most violating points to ``W`` (a block Cholesky *update*).  With the Kreĭn check a
   violator that does not also violate its Hilbert margin would be pushed out again at
   once (its :math:`\tilde\alpha` would have to leave the box): such points are not
   added, and when only such violators remain the solver stops with status
   ``"stalled"`` (the paper's algorithm would cycle there).

Blocks grow (doubling) while additions stay admissible and shrink when they are not;
all checks are vectorised.

**Block exchanges** (``exchange="block"``, the default for ``optimality="hilbert"`` with a
precomputed ``K``): before the one-point-at-a-time loop, primal-dual active-set rounds
(Hintermüller, Ito & Kunisch, SIAM J. Optim. 13(3), 2003) start with every point free and
move *all* box-leaving free points to their bound and *all* margin violators into ``W`` at
once, with a fresh Cholesky factor per round (one LAPACK call).  When most points end up
support vectors this takes a handful of rounds instead of one iteration per point
(blobs, n = 3000, 2746 support vectors: 4 rounds instead of 898 iterations).  The rounds
are not monotone, so they only warm-start the loop above: it takes over from their last
working set (projected onto the feasible set if needed) and its optimality check, not the
rounds, decides when to stop.  With a kernel *function* only the columns of points that ever
enter the support-vector set are computed (and cached); the full matrix is never formed.
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.linalg as sla

from .._validation import check_kernel, check_labels, check_matrix, check_positive
from ..errors import InvalidInputError, InvalidTypeError

__all__ = ["TrIKResult", "trik", "krein_coefficients", "min_eigenvalue"]

#: a Cholesky pivot whose square is below this fraction of its diagonal entry of K~
#: (the part of a new point's K~-norm not explained by the working set) is treated as
#: zero: K~_WW is then numerically singular and the KKT solve would be meaningless
#: (relative condition ~ 1e11, i.e. fewer than ~5 correct digits left).
PIVOT_RTOL = 1e-11


# ----------------------------------------------------------------------------- results
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


# ----------------------------------------------------------------------------- helpers
_CONTROLLER: Any = None


def _blas_limit(threads: int) -> Any:
    """Context limiting BLAS threads; the library scan of ``threadpoolctl`` (~0.1 s) is
    done once per process, not per call."""
    global _CONTROLLER
    from threadpoolctl import ThreadpoolController

    if _CONTROLLER is None:
        _CONTROLLER = ThreadpoolController()
    return _CONTROLLER.limit(limits=threads, user_api="blas")


def min_eigenvalue(K: np.ndarray) -> float:
    """Smallest eigenvalue of a symmetric ``K`` by Lanczos (no full decomposition).

    Uses :func:`convexkern.spectral.min_eigenvalue` when that module is available (it
    solves ``n <= 200`` densely and falls back to LAPACK when ARPACK does not converge),
    else ``scipy.sparse.linalg.eigsh(K, k=1, which="SA")`` with ``eigvalsh`` for
    ``n <= 64``.
    """
    try:  # the shared spectral tools (a colleague's module)
        from ..spectral import min_eigenvalue as _me  # type: ignore[attr-defined]
    except ImportError:
        _me = None
    if _me is not None:
        with _blas_limit(1):  # matrix-vector products: one thread is fastest
            return float(_me(K))
    n = K.shape[0]
    if n <= 64:
        return float(np.linalg.eigvalsh(K)[0])
    from scipy.sparse.linalg import eigsh
    v0 = np.ones(n) / math.sqrt(n)
    with _blas_limit(1):  # matrix-vector products: one thread is fastest
        val = eigsh(K, k=1, which="SA", v0=v0, tol=1e-10, return_eigenvectors=False)
    return float(val[0])


def _chol_append(R: np.ndarray, H12: np.ndarray, H22: np.ndarray) -> np.ndarray:
    """Upper Cholesky factor of ``[[H11, H12], [H12', H22]]`` from that of ``H11``.

    ``R12 = R11^{-T} H12``, ``R22 = chol(H22 - R12' R12)``: O(m^2 p) for p new rows.
    Raises :class:`numpy.linalg.LinAlgError` when a pivot is negative (LAPACK) or tiny:
    ``R22_jj^2 <= PIVOT_RTOL * H22_jj`` (the new point is numerically a combination of
    the working set in ``K~``); the message holds the smallest ratio.
    """
    m, p = R.shape[0], H22.shape[0]
    if m == 0:
        R22 = sla.cholesky(H22, lower=False, check_finite=False)
        _check_pivots(R22, H22)
        return np.ascontiguousarray(R22)
    R12 = sla.solve_triangular(R, H12, trans="T", lower=False, check_finite=False)
    S = H22 - R12.T @ R12
    R22 = sla.cholesky(S, lower=False, check_finite=False)
    _check_pivots(R22, H22)
    out = np.zeros((m + p, m + p))
    out[:m, :m] = R
    out[:m, m:] = R12
    out[m:, m:] = R22
    return out


def _pivot_ratio(R: np.ndarray, diag: np.ndarray) -> float:
    """Smallest ``R_jj^2 / H_jj`` (1 for an empty factor; 0 when ``H_jj <= 0``)."""
    if R.shape[0] == 0:
        return 1.0
    piv = np.diag(R) ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(diag > 0, piv / diag, 0.0)
    return float(ratio.min())


def _check_pivots(R22: np.ndarray, H22: np.ndarray) -> None:
    ratio = _pivot_ratio(R22, np.diag(H22))
    if not ratio > PIVOT_RTOL:
        raise np.linalg.LinAlgError(f"tiny Cholesky pivot (squared pivot / diagonal = "
                                    f"{ratio:.3g} <= {PIVOT_RTOL:.0e})")


def _chol_rank1_update(R: np.ndarray, x: np.ndarray) -> None:
    """In place: ``R`` (upper) becomes the factor of ``R'R + x x'`` (Givens rotations)."""
    p = R.shape[0]
    for j in range(p):
        rjj, xj = R[j, j], x[j]
        if xj == 0.0:
            continue
        r = math.hypot(rjj, xj)
        c, s = r / rjj, xj / rjj
        R[j, j] = r
        if j + 1 < p:
            row = R[j, j + 1:]
            row += s * x[j + 1:]
            row /= c
            xs = x[j + 1:]
            xs *= c
            xs -= s * row


def _chol_delete(R: np.ndarray, k: int) -> np.ndarray:
    """Factor of ``H`` without row/column ``k``: the trailing block gets the rank-one
    update by the deleted row of ``R``; O((m-k)^2)."""
    m = R.shape[0]
    x = R[k, k + 1:].copy()
    R33 = R[k + 1:, k + 1:].copy()
    _chol_rank1_update(R33, x)
    out = np.zeros((m - 1, m - 1))
    out[:k, :k] = R[:k, :k]
    out[:k, k:] = R[:k, k + 1:]
    out[k:, k:] = R33
    return out


def _project_equality(at: np.ndarray, yw: np.ndarray, target: float, Cf: float
                      ) -> np.ndarray | None:
    """Euclidean projection of ``at`` onto ``{0 <= a <= C, yw'a = target}``:
    ``a = clip(at + tau yw, 0, C)`` with ``tau`` by bisection (``yw'a`` is nondecreasing in
    ``tau``); ``None`` when the set is empty."""
    def lhs(tau: float) -> float:
        return float(yw @ np.clip(at + tau * yw, 0.0, Cf))

    a0 = np.clip(at, 0.0, Cf)
    if abs(float(yw @ a0) - target) <= 1e-13 * max(1.0, float(np.abs(a0).sum())):
        return a0
    pos, neg = yw > 0, yw < 0
    lo_val = -Cf * int(neg.sum()) if neg.any() else 0.0
    hi_val = Cf * int(pos.sum()) if pos.any() else 0.0
    if not lo_val <= target <= hi_val:
        return None
    span = float(np.abs(at).max()) + (Cf if math.isfinite(Cf) else abs(target)) + 1.0
    lo, hi = -span, span
    while lhs(hi) < target:
        hi *= 2.0
    while lhs(lo) > target:
        lo *= 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if lhs(mid) < target:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-15 * max(1.0, abs(hi)):
            break
    return np.clip(at + hi * yw, 0.0, Cf)


@dataclass
class _BlockPhase:
    """Where the block-exchange phase left the active set (see :func:`_block_exchange`)."""

    state: np.ndarray
    W: list[int]
    R: np.ndarray
    u: np.ndarray
    b: float
    iterations: int
    n_added: int
    n_removed: int
    converged: bool
    history: list[tuple[float, ...]]


def _block_exchange(cols: _Columns, yv: np.ndarray, Cf: float, shift: float, eps: float,
                    max_iter: int, deadline: float, t0: float, max_rounds: int = 30
                    ) -> _BlockPhase:
    r"""Primal-dual active-set exchanges (Hintermüller, Ito & Kunisch, SIAM J. Optim. 2003)
    for the Hilbert QP: start with every point free; each round solves the KKT system on
    the free set (a fresh Cholesky factor of :math:`\tilde K_{WW}`, one LAPACK call), then
    moves *every* free point that left the box to its bound and *every* bounded or zero
    point that violates its margin into the free set.  When most points end up free this
    takes a handful of rounds instead of one iteration per point.

    The rounds are not monotone, so they are only a warm start: the phase stops when no
    point moves (the KKT conditions hold), when a partition repeats, after ``max_rounds``
    rounds or when ``K~_WW`` is not numerically positive definite.  It returns the last
    working set with its factor and a *feasible* point (the last solution projected onto
    ``{y'a = 0, 0 <= a <= C}``), from which the monotone one-point-at-a-time active set
    continues; an empty working set at zero when there is nothing usable.
    """
    n = yv.size
    state = np.ones(n, dtype=np.int8)
    seen: set[bytes] = set()
    history: list[tuple[float, ...]] = []
    last: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, float] | None = None
    converged = False
    rounds = 0
    n_added, n_removed = n, 0
    while rounds < min(max_rounds, max_iter) and time.perf_counter() <= deadline:
        key = state.tobytes()
        if key in seen:
            break
        seen.add(key)
        F = np.flatnonzero(state == 1)
        B = np.flatnonzero(state == 2)
        if F.size == 0:
            break
        cols.ensure(F)
        H = cols.block(F, F)
        H[np.diag_indices_from(H)] += shift
        hdiag = np.diag(H).copy()
        try:  # H is symmetric: H.T is the Fortran-ordered copy LAPACK factors in place
            R = sla.cholesky(H.T, lower=False, overwrite_a=True, check_finite=False)
        except np.linalg.LinAlgError:
            break
        if not _pivot_ratio(R, hdiag) > PIVOT_RTOL:  # numerically singular K~_FF
            break
        rounds += 1
        u = np.zeros(n)
        u[B] = yv[B] * Cf
        r = yv[F].copy()
        if B.size:
            r -= cols.block(F, B) @ u[B]
        s = -float(u[B].sum())
        sol = sla.cho_solve((R, False), np.column_stack([r, np.ones(F.size)]),
                            check_finite=False)
        a, c = sol[:, 0], sol[:, 1]
        csum = float(c.sum())
        if not (math.isfinite(csum) and csum > 0):
            break
        b = (float(a.sum()) - s) / csum
        u[F] = a - b * c
        if not np.all(np.isfinite(u)):
            break
        last = (F, B, R, u, b)
        at = yv * u
        Ktu = cols.times(u) + shift * u
        g = yv * (Ktu + b) - 1.0  # margin - 1
        new = state.copy()
        new[(state == 1) & (at < 0.0)] = 0
        new[(state == 1) & (at > Cf)] = 2
        new[(state != 1) & (((state == 0) & (g < -eps)) | ((state == 2) & (g > eps)))] = 1
        moved = new != state
        feasible = not np.any((at[F] < 0.0) | (at[F] > Cf))
        dual = float(at.sum() - 0.5 * u @ Ktu) if feasible else math.nan
        viol = float(max(0.0, -g[state == 0].min(initial=0.0), g[state == 2].max(initial=0.0)))
        history.append((rounds, time.perf_counter() - t0, int(F.size), int(B.size), dual, viol))
        if not moved.any():
            converged = True
            break
        n_added += int(np.count_nonzero(moved & (new == 1)))
        n_removed += int(np.count_nonzero(moved & (state == 1)))
        state = new
    aI = None
    if last is not None:
        F, B, R, u, b = last
        target = -float(Cf * yv[B].sum()) if B.size else 0.0
        aI = _project_equality(yv[F] * u[F], yv[F], target, Cf)
    if aI is None:  # nothing usable, or the free set cannot balance y'a (e.g. all but a
        # few points bounded): the one-point-at-a-time active set starts from scratch
        return _BlockPhase(state=np.zeros(n, dtype=np.int8), W=[], R=np.zeros((0, 0)),
                           u=np.zeros(n), b=0.0, iterations=rounds, n_added=n_added,
                           n_removed=n_removed + int(np.count_nonzero(state == 1)),
                           converged=False, history=history)
    state = np.zeros(n, dtype=np.int8)
    state[B] = 2
    state[F] = 1
    u = np.zeros(n)
    u[B] = yv[B] * Cf
    u[F] = yv[F] * aI
    return _BlockPhase(state=state, W=F.tolist(), R=R, u=u, b=float(b), iterations=rounds,
                       n_added=n_added, n_removed=n_removed, converged=converged,
                       history=history)


class _Columns:
    """Kernel columns on demand: a precomputed matrix, or a kernel function with a cache
    of the columns of points that entered the support-vector set."""

    def __init__(self, K: np.ndarray | None, kernel: Callable | None, X: np.ndarray | None):
        self.K = K
        self.kernel = kernel
        self.X = X
        self.computed = 0
        if K is not None:
            self.n = K.shape[0]
            self.diag = np.ascontiguousarray(np.diag(K)).copy()
        else:
            assert X is not None and kernel is not None
            self.n = X.shape[0]
            self.slot = np.full(self.n, -1, dtype=np.int64)
            self.cols = np.empty((self.n, 16))
            self.used = 0
            self.diag = np.empty(self.n)
            # the kernel API has no diagonal: take it from small diagonal blocks
            # (n / 128 calls, 128 n evaluations) rather than n one-by-one calls
            for s in range(0, self.n, 128):
                blk = X[s:s + 128]
                try:
                    d = np.diag(np.asarray(kernel(blk, blk), dtype=np.float64))
                except Exception as exc:  # noqa: BLE001 - re-raised with the argument's name
                    raise InvalidInputError("kernel", f"kernel(A, B) failed ({exc})") from None
                if d.shape != (blk.shape[0],) or not np.all(np.isfinite(d)):
                    raise InvalidInputError(
                        "kernel", "kernel(A, A) must be a finite square matrix of size len(A)")
                self.diag[s:s + 128] = d

    def _eval(self, idx: np.ndarray) -> np.ndarray:
        try:
            out = np.asarray(self.kernel(self.X, self.X[idx]), dtype=np.float64)
        except Exception as exc:  # noqa: BLE001 - re-raised with the argument's name
            raise InvalidInputError("kernel", f"kernel(A, B) failed ({exc})") from None
        if out.shape != (self.n, idx.size):
            raise InvalidInputError(
                "kernel", f"kernel(X, Z) must have shape {(self.n, idx.size)}, got {out.shape}")
        if not np.all(np.isfinite(out)):
            raise InvalidInputError("kernel", "returned non-finite values (NaN or inf)")
        self.computed += idx.size
        return out

    def ensure(self, idx: np.ndarray) -> None:
        if self.K is not None:
            return
        new = idx[self.slot[idx] < 0]
        if new.size == 0:
            return
        need = self.used + new.size
        if need > self.cols.shape[1]:
            grown = np.empty((self.n, max(need, 2 * self.cols.shape[1])))
            grown[:, :self.used] = self.cols[:, :self.used]
            self.cols = grown
        self.cols[:, self.used:need] = self._eval(new)
        self.slot[new] = np.arange(self.used, need)
        self.used = need

    def block(self, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """``K[rows][:, cols]``."""
        if self.K is not None:
            return self.K[np.ix_(rows, cols)]
        self.ensure(cols)
        return self.cols[rows][:, self.slot[cols]]

    def times2(self, c1: np.ndarray, c2: np.ndarray) -> np.ndarray:
        """``K @ [c1, c2]`` (two coefficient vectors with the same support)."""
        nz = np.flatnonzero((c1 != 0) | (c2 != 0))
        if self.K is not None:
            if nz.size > self.n // 4:
                return self.K @ np.column_stack([c1, c2])
            return self.K[:, nz] @ np.column_stack([c1[nz], c2[nz]])
        if nz.size == 0:
            return np.zeros((self.n, 2))
        self.ensure(nz)
        return self.cols[:, self.slot[nz]] @ np.column_stack([c1[nz], c2[nz]])

    def times(self, coef: np.ndarray) -> np.ndarray:
        """``K @ coef`` for a ``coef`` supported on points whose columns are known."""
        nz = np.flatnonzero(coef)
        if self.K is not None:
            if nz.size > self.n // 4:
                return self.K @ coef
            return self.K[:, nz] @ coef[nz]
        if nz.size == 0:
            return np.zeros(self.n)
        self.ensure(nz)
        return self.cols[:, self.slot[nz]] @ coef[nz]


class _IndefiniteInverse:
    """``K_WW^{-1}`` for the (indefinite) original kernel on the working set, kept up to
    date by bordering when points enter (Schur complement, O(m^2 p)) and by the rank-one
    formula ``M_rr - M_rk M_kr / M_kk`` when one leaves (O(m^2)).

    ``solve(rhs)`` checks the residual ``|K_WW z - rhs|`` (O(m^2)); above ``1e-8`` relative
    the inverse is recomputed from scratch (symmetric indefinite LU, O(m^3)) and
    ``refactorizations`` counts it; a singular ``K_WW`` falls back to least squares with a
    ``RuntimeWarning`` (:func:`_solve_sym`).
    """

    def __init__(self) -> None:
        self.A = np.zeros((0, 0))  # K_WW
        self.M: np.ndarray | None = np.zeros((0, 0))  # its inverse (None: unknown)
        self.refactorizations = 0
        self.fallbacks = 0

    def add(self, B: np.ndarray, D: np.ndarray) -> None:
        m, p = self.A.shape[0], D.shape[0]
        A = np.empty((m + p, m + p))
        A[:m, :m] = self.A
        A[:m, m:] = B
        A[m:, :m] = B.T
        A[m:, m:] = D
        self.A = A
        if self.M is None:
            return
        MB = self.M @ B
        S = D - B.T @ MB
        try:
            Sinv = np.linalg.inv(S)
        except np.linalg.LinAlgError:
            self.M = None
            return
        if not np.all(np.isfinite(Sinv)):
            self.M = None
            return
        T = MB @ Sinv
        M = np.empty((m + p, m + p))
        M[:m, :m] = self.M + T @ MB.T
        M[:m, m:] = -T
        M[m:, :m] = -T.T
        M[m:, m:] = Sinv
        self.M = M

    def remove(self, k: int) -> None:
        keep = np.r_[0:k, k + 1:self.A.shape[0]]
        self.A = self.A[np.ix_(keep, keep)]
        if self.M is None:
            return
        mkk = self.M[k, k]
        if not np.isfinite(mkk) or abs(mkk) < 1e-12 * max(1.0, float(np.abs(self.M).max())):
            self.M = None
            return
        col = self.M[keep, k]
        self.M = self.M[np.ix_(keep, keep)] - np.outer(col, col) / mkk

    def solve(self, rhs: np.ndarray) -> np.ndarray:
        if rhs.size == 0:
            return np.zeros(0)
        if self.M is not None:
            z = self.M @ rhs
            res = float(np.max(np.abs(self.A @ z - rhs)))
            if res <= 1e-8 * max(1.0, float(np.max(np.abs(rhs)))):
                return z
        self.refactorizations += 1
        z, fb = _solve_sym(self.A, rhs)
        self.fallbacks += int(fb)
        if fb:
            self.M = None
        else:
            try:
                self.M = sla.inv(self.A, check_finite=False)
            except np.linalg.LinAlgError:
                self.M = None
        return z


def _solve_sym(A: np.ndarray, rhs: np.ndarray) -> tuple[np.ndarray, bool]:
    """Solve a symmetric (indefinite) system; least squares with a warning if singular."""
    if A.shape[0] == 0:
        return np.zeros(0), False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", sla.LinAlgWarning)
            return sla.solve(A, rhs, assume_a="sym", check_finite=False), False
    except (np.linalg.LinAlgError, sla.LinAlgWarning):
        warnings.warn(
            "K restricted to the free support vectors is numerically singular: the Kreĭn "
            "coefficients (I - 2 lam G_WW^-1) alpha~_W are computed by least squares "
            "(minimum-norm solution)", RuntimeWarning, stacklevel=3)
        return np.linalg.lstsq(A, rhs, rcond=None)[0], True


def krein_coefficients(
    K: np.ndarray, y: np.ndarray, alpha_tilde: np.ndarray, lam: float, C: float | None = None,
    *, rel_tol: float = 1e-9, singular: str = "raise",
) -> np.ndarray:
    r"""Kreĭn coefficients from Hilbert ones, on the free support vectors (paper eq. 6).

    ``alpha_W = (I - 2 lam G_WW^{-1}) alpha~_W`` on the free support vectors
    ``W = {rel_tol*s < alpha~ < C - rel_tol*s}`` (``s = C``, or ``max alpha~`` for the hard
    margin), ``alpha = C`` on bounded ones, 0 elsewhere.

    ``singular`` says what to do when ``K_WW`` is singular: ``"raise"`` (default) or
    ``"lstsq"`` (minimum-norm least squares, with a ``RuntimeWarning``).
    """
    Cf = math.inf if C is None else float(C)
    scale = Cf if math.isfinite(Cf) else max(float(np.max(alpha_tilde)), 1e-300)
    free = (alpha_tilde > rel_tol * scale) & (alpha_tilde < Cf - rel_tol * scale)
    alpha = np.where(alpha_tilde >= Cf - rel_tol * scale, Cf, 0.0) if math.isfinite(Cf) \
        else np.zeros_like(alpha_tilde)
    W = np.flatnonzero(free)
    if W.size:
        u = y[W] * alpha_tilde[W]
        Kww = K[np.ix_(W, W)]
        if singular == "raise":
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("error", sla.LinAlgWarning)
                    z = sla.solve(Kww, u, assume_a="sym")
            except (np.linalg.LinAlgError, sla.LinAlgWarning):
                raise InvalidInputError(
                    "K", f"K restricted to the {W.size} free support vectors is singular, so "
                    "G_WW^-1 in (I - 2 lam G_WW^-1) alpha~ does not exist; pass "
                    "singular='lstsq' to use the minimum-norm least-squares solution "
                    "(with a warning)") from None
        elif singular == "lstsq":
            z, _ = _solve_sym(Kww, u)
        else:
            raise InvalidInputError("singular", f"must be 'raise' or 'lstsq', got {singular!r}")
        alpha[W] = y[W] * (u - 2.0 * lam * z)
    return alpha


def _try_factor(cols: _Columns, Wa: np.ndarray, shift: float) -> np.ndarray | None:
    """Cholesky factor of ``K~_WW``, or ``None`` when it is numerically singular."""
    if Wa.size == 0:
        return np.zeros((0, 0))
    H = cols.block(Wa, Wa) + shift * np.eye(Wa.size)
    try:
        R = sla.cholesky(H, lower=False, check_finite=False)
    except np.linalg.LinAlgError:
        return None
    return R if _pivot_ratio(R, np.diag(H)) > PIVOT_RTOL else None


def _bordered_solve(H: np.ndarray, r: np.ndarray, s: float) -> tuple[np.ndarray, float]:
    """``[[H, 1], [1', 0]] [u; b] = [r; s]`` densely (least squares if singular)."""
    m = H.shape[0]
    M = np.empty((m + 1, m + 1))
    M[:m, :m] = H
    M[:m, m] = M[m, :m] = 1.0
    M[m, m] = 0.0
    rhs = np.append(r, s)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", sla.LinAlgWarning)
            sol = sla.solve(M, rhs, assume_a="sym", check_finite=False)
    except (np.linalg.LinAlgError, sla.LinAlgWarning):
        sol = np.linalg.lstsq(M, rhs, rcond=None)[0]
    return sol[:m], float(sol[m])


def _lam_error(lmin: float | None, lam: float, add: np.ndarray, m: int,
               detail: str) -> InvalidInputError | None:
    """The error for a failed Cholesky update of ``K~_WW`` when ``lam`` is the cause.

    With ``lam <= lambda_min(K)`` (``lam < 0``) ``K~ = K - 2 lam I >= -lam I`` is positive
    definite, so a failed or tiny pivot means either that ``lam`` is above ``lambda_min``
    (possible with ``check_lam=False``; ``lmin = lambda_min(K)``, computed by the caller
    at most once per solve, None when ``K`` is not given) — an error naming ``lam`` — or
    that ``K~`` is only numerically singular (``|lam|`` at round-off level, or
    ``lam = 0``: a rank-deficient ``K``, KSVM's flipped ``U|D|U'``).  In the second case
    ``None`` is returned and the caller switches to dense bordered solves (counted in
    ``singular_pivots``), never blaming ``lam``.
    """
    if lam < 0 and lmin is not None:
        if lam > lmin + 1e-9 * max(1.0, abs(lmin)):
            return InvalidInputError(
                "lam", f"K - 2 lam I (lam = {lam:.6g}) is not positive definite on the "
                f"working set: lam must be <= lambda_min(K) = {lmin:.6g} (adding point(s) "
                f"{add.tolist()[:5]} to a working set of {m}: {detail})")
    return None


# ----------------------------------------------------------------------------- solver
def trik(
    K: Any,
    y: Any,
    C: float | None = 1.0,
    lam: float | None = None,
    *,
    optimality: str = "krein",
    eps: float = 1e-8,
    max_iter: int | None = None,
    time_limit: float | None = None,
    kernel: Callable[[np.ndarray, np.ndarray], Any] | None = None,
    X: Any = None,
    block: int | None = None,
    exchange: str = "auto",
    check_lam: bool = True,
    verbose: bool = False,
    blas_threads: int | None = 1,
) -> TrIKResult:
    r"""TrIK-SVM active set (Loosli, ESANN 2019, Algorithm 1) for the shift decomposition.

    Parameters
    ----------
    K : (n, n) array or None
        The (indefinite) kernel matrix; ``None`` with ``kernel`` and ``X`` to compute only
        the columns that are needed.
    y : (n,) array of -1/+1
    C : float or None
        Box constraint; ``None`` for the hard margin.
    lam : float, optional
        Shift ``λ <= min(λ_min(K), 0)``; default ``min(λ_min(K), 0)`` by Lanczos (needs
        ``K``).  ``λ > λ_min`` is rejected (``K - 2λI`` would not be positive definite).
    optimality : {"krein", "hilbert"}
        Where primal optimality is checked: with the Kreĭn-space decision function (the
        paper's algorithm) or with the Hilbert-space one (then the result is the optimum
        of the Hilbert QP, as a conic solver or SMO would find it).
    eps : float
        Margin-violation tolerance of the optimality check.
    max_iter, time_limit : optional
        Bounds on linear solves and seconds (default ``max_iter = 50 n + 100``).
    kernel, X : optional
        Kernel function ``kernel(A, B) -> (len(A), len(B))`` and the points.
    block : int, optional
        Largest number of points added at once by the one-point-at-a-time loop.  Default:
        1 for ``optimality="krein"`` (the paper adds the most violating point, which is
        what keeps the Kreĭn solution sparse), ``max(1, n // 8)`` for ``"hilbert"``
        (blocks grow by doubling while the additions stay admissible).
    exchange : {"auto", "block", "single"}
        ``"block"``: warm-start with primal-dual active-set rounds that move every
        violator at once (module docstring), Hilbert check only; ``"single"``: the
        SimpleSVM loop alone, from an empty working set (the paper's algorithm);
        ``"auto"`` (default): ``"block"`` for ``optimality="hilbert"`` with a precomputed
        ``K`` and no ``block`` given, else ``"single"`` (with a kernel function the
        rounds would evaluate every column).  Both reach the same QP optimum.
    check_lam : bool
        Verify ``λ <= λ_min(K)`` by Lanczos when ``λ`` is given (needs ``K``).
    blas_threads : int or None, default 1
        BLAS threads during the iterations (``threadpoolctl``).  Each iteration is a few
        O(m^2) triangular solves and matrix-vector products, for which one thread is
        fastest and immune to oversubscription (measured 40x faster than the default
        thread pool on a loaded 2-core machine); ``None`` leaves the pool alone.
    """
    if blas_threads is not None:
        with _blas_limit(int(blas_threads)):
            return trik(K, y, C, lam, optimality=optimality, eps=eps, max_iter=max_iter,
                        time_limit=time_limit, kernel=kernel, X=X, block=block,
                        exchange=exchange, check_lam=check_lam, verbose=verbose,
                        blas_threads=None)
    if optimality not in ("krein", "hilbert"):
        raise InvalidInputError("optimality", f"must be 'krein' or 'hilbert', got {optimality!r}")
    if exchange not in ("auto", "block", "single"):
        raise InvalidInputError(
            "exchange", f"must be 'auto', 'block' or 'single', got {exchange!r}")
    if exchange == "block" and optimality == "krein":
        raise InvalidInputError(
            "exchange", "'block' starts from the Hilbert QP optimum, where the Kreĭn-space "
            "check has nothing left to add; use optimality='hilbert', or exchange='single' "
            "for the paper's algorithm")
    eps = check_positive(eps, "eps")
    hard = C is None
    Cf = math.inf if hard else check_positive(C, "C")
    if K is not None:
        if kernel is not None or X is not None:
            raise InvalidInputError("kernel", "give either K or kernel and X (K=None), not both")
        Kv = check_kernel(K, "K")
        yv = check_labels(y, "y", n=Kv.shape[0])
        cols = _Columns(np.ascontiguousarray(Kv), None, None)
    else:
        if kernel is None or X is None:
            raise InvalidInputError("K", "is None: pass kernel and X to compute columns on demand")
        if not callable(kernel):
            raise InvalidTypeError("kernel", f"expected a callable, got {type(kernel).__name__}")
        Xv = check_matrix(X, "X")
        yv = check_labels(y, "y", n=Xv.shape[0])
        cols = _Columns(None, kernel, np.ascontiguousarray(Xv))
        Kv = None
    n = yv.size
    # lam <= lambda_min(K) established on entry (lam defaulted, or check_lam passed): a
    # failed pivot can then never be blamed on lam, and lambda_min is not needed again
    lam_ok = False
    lmin_known: float | None = None
    if lam is None:
        if Kv is None:
            raise InvalidInputError("lam", "must be given when K is computed on demand")
        lmin_known = min_eigenvalue(Kv)
        lam = min(lmin_known, 0.0)
        lam_ok = True
    else:
        if isinstance(lam, bool) or not isinstance(lam, (int, float, np.floating, np.integer)):
            raise InvalidTypeError("lam", f"expected a number, got {lam!r}")
        lam = float(lam)
        if not math.isfinite(lam) or lam > 0:
            raise InvalidInputError("lam", f"must be a finite number <= 0, got {lam!r}")
        if check_lam and Kv is not None:
            lmin_known = min_eigenvalue(Kv)
            if lam > lmin_known + 1e-9 * max(1.0, abs(lmin_known)):
                raise InvalidInputError(
                    "lam", f"= {lam:.6g} exceeds lambda_min(K) = {lmin_known:.6g}: the "
                    "shift decomposition needs lam <= lambda_min so that K - 2 lam I is "
                    "positive definite")
            lam_ok = True
    shift = -2.0 * lam
    if max_iter is None:
        max_iter = 50 * n + 100
    if block is None:
        block_max = 1 if optimality == "krein" else max(1, n // 8)
    else:
        block_max = int(block)
    if block_max < 1:
        raise InvalidInputError("block", f"must be >= 1, got {block}")

    t0 = time.perf_counter()
    deadline = math.inf if time_limit is None else t0 + float(time_limit)
    state = np.zeros(n, dtype=np.int8)  # 0: at zero, 1: free (in W), 2: at C
    u = np.zeros(n)  # y * alpha_tilde
    W: list[int] = []
    R = np.zeros((0, 0))
    b = 0.0
    bsize = 1
    it = 0
    n_added = n_removed = 0
    fallbacks = 0
    singular_pivots = 0
    dense_solves = 0
    history: list[tuple[float, ...]] = []
    status = "optimal"
    viol_max = math.inf
    # K_WW^{-1} of the original kernel for the Kreĭn check; with lam = 0 (K~ = K, e.g. the
    # flipped kernel) eq. 6 is the identity and both checks coincide: no inverse needed
    kinv = _IndefiniteInverse() if optimality == "krein" and lam != 0.0 else None
    just_added = False
    last_added = np.zeros(0, dtype=np.int64)
    # Points whose entry into W was undone at once (the Hilbert QP rejects them: they
    # violate only in the Kreĭn space).  Re-adding them would cycle; they are skipped
    # until the working-set solution moves again.
    tabu = np.zeros(n, dtype=bool)

    if exchange == "block" or (exchange == "auto" and optimality == "hilbert"
                               and Kv is not None and block is None):
        phase = _block_exchange(cols, yv, Cf, shift, eps, max_iter, deadline, t0)
        state, W, R, u, b = phase.state, phase.W, phase.R, phase.u, phase.b
        it, n_added, n_removed = phase.iterations, phase.n_added, phase.n_removed
        history.extend(phase.history)
        if verbose:
            print(f"trik[{optimality}] block exchange: {it} rounds, "
                  f"{'converged' if phase.converged else 'not converged'}, "
                  f"free={len(W)} bounded={int(np.sum(state == 2))}")

    def hilbert_values() -> np.ndarray:
        return cols.times(u) + shift * u  # K~ u

    while True:
        if it >= max_iter:
            status = "iteration_limit"
            break
        if time.perf_counter() > deadline:
            status = "time_limit"
            break
        if W:
            it += 1
            Wa = np.asarray(W)
            B = np.flatnonzero(state == 2)
            r = yv[Wa].copy()
            if B.size:
                r -= cols.block(Wa, B) @ u[B]
            s = -float(u[B].sum()) if B.size else 0.0
            if R is not None:
                rhs = np.column_stack([r, np.ones(Wa.size)])
                tmp = sla.solve_triangular(R, rhs, trans="T", lower=False, check_finite=False)
                sol = sla.solve_triangular(R, tmp, lower=False, check_finite=False)
                a, c = sol[:, 0], sol[:, 1]
                b_new = (a.sum() - s) / c.sum()
                u_new = a - b_new * c
            else:  # K~_WW numerically singular: dense solve of the bordered KKT system
                u_new, b_new = _bordered_solve(cols.block(Wa, Wa) + shift * np.eye(Wa.size),
                                               r, s)
                dense_solves += 1
            at_new = yv[Wa] * u_new
            at_old = yv[Wa] * u[Wa]
            low = at_new < 0.0
            high = at_new > Cf
            if low.any() or high.any():
                d = at_new - at_old
                with np.errstate(divide="ignore", invalid="ignore"):
                    t_low = np.where(low, -at_old / d, np.inf)
                    t_high = np.where(high, (Cf - at_old) / d, np.inf)
                tt = np.minimum(t_low, t_high)
                t = float(np.clip(tt.min(), 0.0, 1.0))
                at = at_old + t * d
                hit = np.flatnonzero(tt <= t + 1e-12)
                for pos in hit:
                    at[pos] = 0.0 if t_low[pos] <= t_high[pos] else Cf
                u[Wa] = yv[Wa] * at
                bsize = max(1, bsize // 2)
                if t <= 1e-14 and just_added and np.all(np.isin(np.asarray(W)[hit], last_added)):
                    tabu[np.asarray(W)[hit]] = True
                elif t > 1e-14:
                    tabu[:] = False
                for pos in sorted(hit.tolist(), reverse=True):
                    idx = W.pop(pos)
                    state[idx] = 0 if at[pos] == 0.0 else 2
                    if R is not None:
                        R = _chol_delete(R, pos)
                    if kinv is not None:
                        kinv.remove(pos)
                    n_removed += 1
                if R is None:  # back to the factor as soon as K~_WW is well conditioned
                    R = _try_factor(cols, np.asarray(W, dtype=np.int64), shift)
                just_added = False
                continue
            if just_added and np.max(np.abs(at_new - at_old)) > 0.0:
                tabu[:] = False
            u[Wa] = u_new
            b = float(b_new)
            if just_added:
                bsize = min(block_max, 2 * bsize)
        # ---- primal optimality check -------------------------------------------------
        if kinv is None or not W:
            gt = hilbert_values()  # K~ u, decision values without bias (Hilbert)
            g = gt
        else:
            Wa = np.asarray(W)
            z = kinv.solve(u[Wa])
            uk = u.copy()
            uk[Wa] = u[Wa] - 2.0 * lam * z
            both = cols.times2(u, uk)  # one pass over K for K u and K uk
            gt = both[:, 0] + shift * u
            g = both[:, 1]
        tvals = yv - g  # b must be >= t on "lower" points, <= t on "upper" points
        at0, atC = state == 0, state == 2
        lower = (at0 & (yv > 0)) | (atC & (yv < 0))
        upper = (at0 & (yv < 0)) | (atC & (yv > 0))
        if not W:
            lo = float(tvals[lower].max()) if lower.any() else -math.inf
            hi = float(tvals[upper].min()) if upper.any() else math.inf
            b = 0.5 * (lo + hi) if math.isfinite(lo) and math.isfinite(hi) else (
                lo if math.isfinite(lo) else hi if math.isfinite(hi) else 0.0)
        viol = np.full(n, -math.inf)
        viol[lower] = tvals[lower] - b
        viol[upper] = b - tvals[upper]
        viol_max = float(max(viol.max(), 0.0))
        dual = float(np.sum(yv * u) - 0.5 * u @ gt)
        history.append((it, time.perf_counter() - t0, len(W), int(atC.sum()), dual, viol_max))
        if verbose:
            print(f"trik[{optimality}] it={it} free={len(W)} bounded={int(atC.sum())} "
                  f"dual={dual:.10g} viol={viol_max:.3g}")
        if viol_max <= eps:
            break
        eligible = (viol > eps) & ~tabu
        if g is not gt:  # Kreĭn check: only points the Hilbert QP can accept may enter
            viol_h = np.full(n, -math.inf)
            viol_h[lower] = (yv - gt)[lower] - b
            viol_h[upper] = b - (yv - gt)[upper]
            eligible &= viol_h > eps
        cand = np.flatnonzero(eligible)
        if cand.size == 0:  # every violator is rejected by the Hilbert QP
            status = "stalled"
            break
        p = min(bsize, cand.size)
        if p < cand.size:
            add = cand[np.argpartition(-viol[cand], p - 1)[:p]]
        else:
            add = cand
        add = add[np.argsort(-viol[add])]
        if not W and p == 1:  # start from a violating pair, one point of each class
            other = cand[yv[cand] != yv[add[0]]]
            if other.size:
                add = np.array([add[0], other[np.argmax(viol[other])]])
        while True:
            cols.ensure(add)
            if W:
                Wa = np.asarray(W)
                H12 = cols.block(Wa, add)
            else:
                H12 = np.zeros((0, add.size))
            H22 = cols.block(add, add) + shift * np.eye(add.size)
            if R is None:  # already in dense mode
                break
            try:
                R = _chol_append(R, H12, H22)
                break
            except np.linalg.LinAlgError as exc:
                if not lam_ok:
                    if lmin_known is None and lam < 0 and Kv is not None:
                        lmin_known = min_eigenvalue(Kv)  # once, at the first failed pivot
                    err = _lam_error(lmin_known, lam, add, len(W), str(exc))
                    if err is not None:
                        raise err from None
                if add.size > 1:  # retry with the most violating point alone
                    add = add[:1]
                    bsize = 1
                    continue
                # The point is (numerically) a combination of the working set in K~: K~_WW
                # becomes singular, but the bordered KKT system (with y'a = 0) may not be
                # (e.g. d + 1 free points of a rank-d linear kernel).  Drop the factor and
                # solve the bordered system densely until a removal makes K~_WW regular.
                R = None
                singular_pivots += 1
                break
        if kinv is not None:
            kinv.add(H12, H22 - shift * np.eye(add.size))
        W.extend(add.tolist())
        last_added = add
        state[add] = 1
        n_added += add.size
        just_added = True

    at = yv * u
    at = np.clip(at, 0.0, Cf)
    free = np.flatnonzero(state == 1)
    bounded = np.flatnonzero(state == 2)
    alpha = np.where(state == 2, Cf, 0.0) if not hard else np.zeros(n)
    if free.size and lam == 0.0:  # eq. 6 with lam = 0: alpha = alpha~, nothing to invert
        alpha[free] = yv[free] * u[free]
    elif free.size:
        if kinv is not None and kinv.A.shape[0] == free.size:
            order = np.asarray(W)
            z = np.empty(free.size)
            zw = kinv.solve(u[order])
            z[np.searchsorted(free, order)] = zw
        else:
            z, fb = _solve_sym(cols.block(free, free), u[free])
            fallbacks += int(fb)
        alpha[free] = yv[free] * (u[free] - 2.0 * lam * z)
    # KKT violation of the Hilbert QP at the returned point
    gt = hilbert_values()
    tv = yv - gt
    lower = ((state == 0) & (yv > 0)) | ((state == 2) & (yv < 0))
    upper = ((state == 0) & (yv < 0)) | ((state == 2) & (yv > 0))
    hv = np.zeros(n)
    hv[lower] = tv[lower] - b
    hv[upper] = b - tv[upper]
    if free.size:
        hv[free] = np.abs(tv[free] - b)
    dual = float(at.sum() - 0.5 * u @ gt)
    # Final check of the returned point (the loop's test looks only at the margins it
    # checks, on its own running quantities): the KKT conditions of the Hilbert QP,
    # free points included, and y'alpha~ = 0, both against round-off-aware thresholds.
    hv_max = float(max(hv.max(), 0.0))
    eps_m = np.finfo(float).eps
    dmax = float(np.max(cols.diag)) + shift if n else 0.0
    kkt_tol = 10.0 * eps + 10.0 * n * eps_m * (
        1.0 + float(np.max(np.abs(gt))) + max(dmax, 0.0) * float(np.abs(u).sum()))
    eq_res = abs(float(yv @ at))
    eq_ok = eq_res <= 1e3 * n * eps_m * max(1.0, float(at.sum()))
    if status == "optimal":
        if not eq_ok:
            status = "inaccurate"
        elif hv_max > kkt_tol:
            status = "krein_stationary" if optimality == "krein" else "inaccurate"
    return TrIKResult(
        alpha_tilde=at, alpha=alpha, b=float(b), status=status, optimality=optimality,
        lam=float(lam), iterations=it, free=free, bounded=bounded,
        max_violation=viol_max, hilbert_violation=hv_max,
        dual_objective=dual, n_added=n_added, n_removed=n_removed,
        kernel_columns_computed=cols.computed, solve_time=time.perf_counter() - t0,
        history=history,
        singular_fallbacks=fallbacks + (kinv.fallbacks if kinv is not None else 0),
        refactorizations=kinv.refactorizations if kinv is not None else 0,
        kkt_tol=float(kkt_tol), equality_residual=eq_res, singular_pivots=singular_pivots,
        dense_solves=dense_solves,
    )
