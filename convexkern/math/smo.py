r"""Sequential minimal optimisation (SMO) for the soft-margin SVM dual.

The problem (Mansour, *SVM lecture notes*, 2013, §11.2) is the kernel dual

.. math::

    \max_{\alpha}\; D(\alpha) = e^\top\alpha - \tfrac12\,\alpha^\top G\alpha,
    \qquad G = YKY,\; Y = \operatorname{diag}(y),
    \qquad \text{s.t. } y^\top\alpha = 0,\; 0 \le \alpha_i \le C,

and SMO (§11.3) improves it two coordinates at a time, each step solved in closed form.
This module is a pure-NumPy implementation in which every iteration costs a handful of
vectorised :math:`O(n)` operations and two kernel rows.

Notation used throughout
------------------------
Instead of the gradient :math:`g = G\alpha - e` of :math:`-D` we keep the vector

.. math::

    v = -y \circ g = y - K(y\circ\alpha),
    \qquad v_t = y_t - \sum_s \alpha_s y_s K(x_s, x_t),

i.e. :math:`v_t = y_t - (f(x_t) - b)` where :math:`f(x) = \sum_s \alpha_s y_s K(x_s, x) + b`
is the decision function.  With the index sets

* :math:`I_\uparrow = \{t : y_t = +1, \alpha_t < C\} \cup \{t : y_t = -1, \alpha_t > 0\}`
  (coordinates that may move in the direction :math:`+y_t`),
* :math:`I_\downarrow = \{t : y_t = +1, \alpha_t > 0\} \cup \{t : y_t = -1, \alpha_t < C\}`
  (coordinates that may move in the direction :math:`-y_t`),

the KKT conditions of the dual say exactly that some :math:`b` satisfies
:math:`v_t \le b` on :math:`I_\uparrow` and :math:`v_t \ge b` on :math:`I_\downarrow`, i.e.
:math:`m(\alpha) = \max_{I_\uparrow} v \le M(\alpha) = \min_{I_\downarrow} v`.  The solver
stops when the *maximal violation* :math:`m(\alpha) - M(\alpha)` is at most ``eps``, the
criterion of LIBSVM (Fan, Chen & Lin, JMLR 6, 2005, §2).

How :func:`smo` works
---------------------
**Working set** (second-order rule "WSS 3" of Fan, Chen & Lin 2005, in our words).
The first index :math:`i` is the most violating coordinate that may still move up:
:math:`i = \arg\max_{t \in I_\uparrow} v_t`.  For every candidate partner
:math:`t \in I_\downarrow` with :math:`v_t < v_i` we look at the exact one-dimensional
problem along the feasible direction that moves :math:`\alpha_i` by :math:`+y_i\delta`
and :math:`\alpha_t` by :math:`-y_t\delta` (it keeps :math:`y^\top\alpha` fixed).
Along it the dual rises by :math:`\delta b_{it} - \frac12 a_{it}\delta^2` with slope
:math:`b_{it} = v_i - v_t > 0` and curvature
:math:`a_{it} = K_{ii} + K_{tt} - 2K_{it}`, so ignoring the box the best gain is
:math:`b_{it}^2 / (2a_{it})`; the partner :math:`j` is the candidate with the largest
predicted gain.  Where :math:`a_{it} \le \tau` (an indefinite kernel, or two identical
points) the curvature is replaced by :math:`\tau` (we use :math:`\max(a_{it}, \tau)`,
which differs from LIBSVM's replacement only for :math:`0 < a_{it} < \tau`), making
such a pair look very attractive and the step run to the box, as LIBSVM does.  The
whole selection is a few vectorised operations on length-``n`` arrays.

**Two-variable step.**  With :math:`a = \max(a_{ij}, \tau)`, the step length is
:math:`\delta = \min(b_{ij}/a,\; \Delta_i,\; \Delta_j)`, where
:math:`\Delta_i` (:math:`C - \alpha_i` if :math:`y_i = 1`, else :math:`\alpha_i`) and
:math:`\Delta_j` (:math:`\alpha_j` if :math:`y_j = 1`, else :math:`C - \alpha_j`) are
the distances to the box; a variable that reaches its bound is set to it exactly.
This is the notes' update written with :math:`(\alpha_1, \alpha_2) = (\alpha_j,
\alpha_i)`: since :math:`E_k = f(x_k) - y_k = b - v_k`, the unclipped
:math:`\alpha_2 + y_2(E_1 - E_2)/\eta` equals :math:`\alpha_i + y_i b_{ij}/a_{ij}`, and
clipping it to :math:`[L, H]` (:func:`pair_bounds`) is clipping :math:`\delta`.  Two
errata in the notes: the curvature is
:math:`\eta = K(x_1,x_1) + K(x_2,x_2) - 2K(x_1,x_2)` (the notes write
:math:`K(x_1,x_2)` where :math:`K(x_1,x_1)` belongs), and for :math:`y_1 = y_2` the
bounds are :math:`L = \max(0, \alpha_1+\alpha_2-C)`,
:math:`H = \min(C, \alpha_1+\alpha_2)` (the notes swap them); for
:math:`y_1 \ne y_2`, :math:`L = \max(0, \alpha_2-\alpha_1)`,
:math:`H = \min(C, C+\alpha_2-\alpha_1)`.

**Gradient.**  The step changes :math:`v` by :math:`-\delta(K_{i\cdot} - K_{j\cdot})`:
two kernel rows and :math:`O(n)` work per iteration.  A warm start recomputes
:math:`v = y - K(y\circ\alpha_0)` from the rows of the non-zero :math:`\alpha_0`.

**Bias.**  For a free support vector (:math:`0 < \alpha_t < C`) the KKT conditions give
:math:`y_t f(x_t) = 1`, i.e. :math:`b = v_t`; we return the mean of :math:`v_t` over
the free vectors.  Without free vectors every :math:`b \in [m(\alpha), M(\alpha)]`
satisfies the KKT conditions and we return the midpoint.  (The notes' rule of
averaging the :math:`b_1, b_2` of the last pair is right only when both are at bounds;
when one is free, its own :math:`b` is the exact one.)

**Shrinking.**  Every ``min(n, 1000)`` iterations, a variable at a bound that may
only move up (in :math:`I_\uparrow` only) with :math:`v_t < M(\alpha)`, or only down
(in :math:`I_\downarrow` only) with :math:`v_t > m(\alpha)`, is removed from the
active set (the rule of LIBSVM); the loop then runs on shorter arrays and on kernel
rows restricted to the active set.  When the violation first drops below
``10 eps``, and again whenever the active set is optimal, :math:`v` is brought up to
date on the removed variables and the whole set is re-examined, so ``"optimal"``
always refers to all ``n`` variables.  The update reads only the rows of the variables
that moved since the full set was last shrunk (:math:`v = v_{ref} - K Y(\alpha -
\alpha_{ref})` from a snapshot taken then, :math:`O(n\,n_{moved})`; LIBSVM keeps
:math:`\bar G` instead).  While shrunk,
the violations recorded in ``history`` are those of the active set.

**Stopping on the duality gap** (``gap_tol``).  The KKT violation says little about the
distance to the optimum; the certified gap of :func:`convexkern.math.svm.dual_bounds`
does, and it needs only the decision values :math:`f = K(y\circ\alpha) = y - v`, which
SMO keeps: :math:`D(\alpha)` and :math:`P(\alpha)` (the best bias by the exact hinge
minimisation) follow in :math:`O(n \log n)` from ``v`` (:func:`convexkern.math.svm.bounds_at`),
with no product with ``K``.  With ``gap_tol`` the solver runs the ``eps`` rule as above;
each time the *full* set is optimal for the current ``eps`` (after the un-shrinking), it
evaluates this gap; if the relative gap misses ``gap_tol`` it lowers ``eps`` by the
factor the gap still has to fall (times 0.6, clipped to ``[1e-3, 1/2]``), revises the
active set at once and goes on, with the shrinking state and ``v`` kept (no restart, no
recomputation of ``K alpha``).  Before lowering ``eps`` it tries one Newton step on the
face SMO has found (:mod:`convexkern.math.smo_face`: the free variables solved for
exactly, the others at their bounds, when that costs at most ``20`` flops per step taken
and example of the smallest active set so far): once the free set is the optimum's,
that step closes the gap at once, where SMO's own steps would take about as many again
as it took to reach ``eps = 1e-3`` (USPS 3 vs 5, ``C = 10``: 871 steps and a gap of
1e-12, against 1988 steps to 3e-7).
This gap is an estimate (``v`` carries the round-off of the updates); the certificate
is computed from ``K`` by the caller (:func:`convexkern.algorithms.smo.solve`).

**Dual objective.**  From :math:`G\alpha = e + g = e - y\circ v`:
:math:`D(\alpha) = e^\top\alpha - \frac12\alpha^\top(e - y\circ v)
= \frac12\sum_t \alpha_t(1 + y_t v_t)`, an :math:`O(n)` evaluation.

References
----------
Y. Mansour, *SVM lecture notes*, 2013, §11.2-11.3.
R.-E. Fan, P.-H. Chen, C.-J. Lin, "Working set selection using second order information for
training support vector machines", JMLR 6:1889-1918, 2005.
P.-H. Chen, R.-E. Fan, C.-J. Lin, "A study on SMO-type decomposition methods for support
vector machines", IEEE TNN 17(4), 2006 (convergence with the curvature guard ``tau`` for
indefinite kernels).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from .._validation import (
    check_box_C,
    check_nonnegative,
    check_positive,
)
from .smo_face import face_step
from .smo_result import SMOProgress, SMOResult
from .smo_rows import (
    _ActiveRows,
    _KernelRows,
    check_alpha0,
    check_settings,
    kernel_rows,
    row_lookup,
)
from .svm import gap_estimate, relative_gap_of

__all__ = ["SMOResult", "SMOProgress", "smo", "pair_bounds", "gap_estimate"]

#: Default number of iterations between two ``history`` records (and callback calls).
HISTORY_EVERY = 100

#: With shrinking, the active set is revised every ``min(n, _SHRINK_EVERY)`` iterations
#: (LIBSVM's period).
_SHRINK_EVERY = 1000

#: The finest KKT tolerance the ``gap_tol`` rule lowers ``eps`` to.
_EPS_MIN = 1e-13

#: The ``gap_tol`` rule aims at this fraction of ``gap_tol`` when it lowers ``eps`` (the
#: gap falls about in proportion to ``eps``; a miss costs another full-set check).
_GAP_AIM = 0.6

#: With ``gap_tol``, the Newton step on the free variables' face (:mod:`.smo_face`) is
#: tried when it costs at most this many flops per SMO step taken (a warm start counts
#: as ``n`` steps) and example of the smallest active set so far: the steps it saves are
#: about as many as SMO took, on a shrunk active set (USPS 0-4 vs 5-9, n = 5000: 631
#: free coefficients, 9e7 flops, a 27 ms step after 58 ms of SMO, which ends on its own
#: in about 25 ms on an active set of 642: not tried; USPS 3 vs 5: 7.7e6 flops against
#: 871 steps on all 1214: tried)
_FACE_COST = 20.0

#: A revision that would keep more than this fraction of the active set is not applied
#: (re-gathering the restricted kernel rows would cost more than it saves).
_SHRINK_MIN_GAIN = 0.9


# --------------------------------------------------------------------------------------
# The two-variable step in the notation of the lecture notes
# --------------------------------------------------------------------------------------


def pair_bounds(
    alpha1: float, alpha2: float, y1: float, y2: float, C: float
) -> tuple[float, float]:
    r"""Feasible interval ``[L, H]`` for the new :math:`\alpha_2` of an SMO pair (§11.3).

    Moving :math:`(\alpha_1, \alpha_2)` while keeping :math:`y_1\alpha_1 + y_2\alpha_2`
    fixed and both in ``[0, C]``:

    * :math:`y_1 \ne y_2` (:math:`\alpha_2 - \alpha_1` fixed):
      :math:`L = \max(0, \alpha_2 - \alpha_1)`, :math:`H = \min(C, C + \alpha_2 - \alpha_1)`;
    * :math:`y_1 = y_2` (:math:`\alpha_1 + \alpha_2` fixed):
      :math:`L = \max(0, \alpha_1 + \alpha_2 - C)`, :math:`H = \min(C, \alpha_1 + \alpha_2)`.

    (The lecture notes print the two bounds of the :math:`y_1 = y_2` case swapped.)
    The solver itself uses the equivalent step-length form described in :func:`smo`;
    this function documents, and lets the tests check, the correspondence.
    """
    if y1 != y2:
        return max(0.0, alpha2 - alpha1), min(C, C + alpha2 - alpha1)
    return max(0.0, alpha1 + alpha2 - C), min(C, alpha1 + alpha2)


# --------------------------------------------------------------------------------------
# The solver
# --------------------------------------------------------------------------------------


#: entries of the curvature vectors an active set keeps (:attr:`_Work.curv`, 32 MiB)
_CURV_ENTRIES = 1 << 22


class _Work:
    """The solver's arrays on the current active set (every index when nothing is shrunk).

    ``idx`` holds the global indices of the active set (``None``: all of them, and then
    ``alpha`` *is* the caller's array).  ``V[0]`` (``v_up``) holds ``v`` on ``I_up`` and
    ``-inf`` elsewhere, ``V[1]`` (``v_low``) ``v`` on ``I_low`` and ``+inf`` elsewhere, so
    the masked argmax/argmin need no mask (each step updates the two rows in place, one
    after the other: cheaper than one broadcast update of both).
    """

    def __init__(
        self,
        idx: np.ndarray | None,
        row: Callable[[int], np.ndarray],
        y: np.ndarray,
        alpha: np.ndarray,
        v: np.ndarray,
        diag: np.ndarray,
        C: float | np.ndarray,
        get: Callable[[int], np.ndarray | None] | None = None,
    ) -> None:
        if idx is not None:
            y, alpha, v, diag = y[idx], alpha[idx], v[idx], diag[idx]
            if np.ndim(C):
                C = C[idx]
        self.idx = idx
        self.C = C
        self.C_list: list[float] | None = C.tolist() if np.ndim(C) else None
        self.row = row
        #: the loop's look-up of a row: ``row`` itself, or a cache's ``get`` that returns
        #: ``None`` on a miss (:func:`convexkern.math.smo_rows.row_lookup`)
        self.get = row if get is None else get
        self.rows: _ActiveRows | None = None  # the restricted rows, when shrunk
        self.alpha = alpha
        self.size = y.size
        pos = y > 0
        self.V = np.empty((2, self.size))
        self.v_up, self.v_low = self.V[0], self.V[1]
        self.v_up[:] = np.where(np.where(pos, alpha < C, alpha > 0), v, -np.inf)
        self.v_low[:] = np.where(np.where(pos, alpha > 0, alpha < C), v, np.inf)
        self.y_list = y.tolist()
        self.diag_list = diag.tolist()
        self.const_diag = bool(np.all(diag == diag[0]))
        self.d0 = float(diag[0])
        self.half_diag = 0.5 * diag
        #: ``1 / sqrt(max((K_ii + K_tt)/2 - K_it, tau/2))``, the guarded curvatures of each
        #: ``i`` SMO chose, by local index: the same ``i`` comes back often, it is kept
        self.curv: dict[int, np.ndarray] = {}
        self.curv_cap = max(16, _CURV_ENTRIES // max(self.size, 1))

    def v(self) -> np.ndarray:
        v = np.where(np.isfinite(self.v_up), self.v_up, self.v_low)
        if self.C_list is not None:
            # a bound C_i = 0 puts i in neither set: v_i is not tracked (and never used:
            # alpha_i = 0 stays), 0 keeps the sums in result() finite
            v[~np.isfinite(v)] = 0.0
        return v


def _iterate(
    w: _Work,
    eps: float,
    tau: float,
    it: int,
    it_check: float,
    max_iter: int,
    deadline: float,
    check_time: bool,
    t_start: float,
    history_every: int,
    history: list[tuple[int, float, float, float]],
    notify: Callable[[int, float, float, float], bool] | None,
    dual: float,
) -> tuple[str, int, float, float]:
    """Run SMO steps on ``w`` until optimal (on ``w``), a limit, or ``it_check``.

    Returns ``(reason, iterations, dual objective, violation)`` with ``reason`` one of
    ``"optimal"``, ``"iteration_limit"``, ``"time_limit"``, ``"interrupted"``, ``"check"``.
    """
    n = w.size
    C, C_list = w.C, w.C_list  # C_list: per-example bounds as a list, None for a scalar
    v_up, v_low, alpha = w.v_up, w.v_low, w.alpha
    row, get, y_list, diag_list = w.row, w.get, w.y_list, w.diag_list
    const_diag, d0, half_diag = w.const_diag, w.d0, w.half_diag
    half_tau = 0.5 * tau
    curv, curv_cap = w.curv, w.curv_cap
    bb = np.empty(n)  # b_it = v_i - v_t on I_low (-inf elsewhere), then over sqrt(a_it / 2)
    tmp = np.empty(n)
    scalar = np.empty(())  # v_i, then delta: a 0-d operand costs no conversion per call
    subtract, divide, maximum, sqrt = np.subtract, np.divide, np.maximum, np.sqrt
    multiply = np.multiply
    inf = math.inf
    perf_counter = time.perf_counter

    while True:
        i = int(v_up.argmax())
        vi = float(v_up[i])
        viol = vi - float(v_low[v_low.argmin()])
        if viol <= eps:
            return "optimal", it, dual, viol
        if it >= max_iter:
            return "iteration_limit", it, dual, viol
        if it >= it_check:
            return "check", it, dual, viol
        if it % history_every == 0:
            now = perf_counter()
            if now >= deadline:
                return "time_limit", it, dual, viol
            if not history or history[-1][0] != it:
                history.append((it, now - t_start, dual, viol))
                if notify is not None and notify(it, now - t_start, dual, viol):
                    return "interrupted", it, dual, viol
        elif check_time and perf_counter() >= deadline:
            return "time_limit", it, dual, viol

        # -- second-order choice of j over I_low: largest b_it^2 / a_it with b_it > 0 --
        Ki = get(i)
        if Ki is None:
            Ki = row(i)
        Kii = diag_list[i]
        # b^2 / a grows with b / sqrt(a) where b > 0, and some b > 0 exists (viol > eps):
        # j maximises b_it / sqrt(a_it), negative where v_t >= v_i, -inf off I_low
        ra = curv.get(i)  # 1 / sqrt(a_it / 2), a_it / 2 guarded from below by tau / 2
        if ra is None:
            if const_diag:
                ra = subtract(d0, Ki)  # (K_ii + K_tt)/2 - K_it
            else:
                ra = subtract(half_diag, Ki)
                ra += 0.5 * Kii
            maximum(ra, half_tau, out=ra)
            sqrt(ra, out=ra)
            divide(1.0, ra, out=ra)
            if len(curv) >= curv_cap:
                curv.clear()
            curv[i] = ra
        scalar[()] = vi
        subtract(scalar, v_low, out=bb)
        multiply(bb, ra, out=bb)
        j = int(bb.argmax())

        # -- analytic two-variable step along +y_i e_i - y_j e_j --
        a_true = Kii + diag_list[j] - 2.0 * float(Ki[j])
        a = a_true if a_true > tau else tau
        b = vi - float(v_low[j])
        delta = b / a
        ai0 = ai = float(alpha[i])
        aj0 = aj = float(alpha[j])
        yi = y_list[i]
        yj = y_list[j]
        if C_list is None:
            Ci = Cj = C
        else:  # per-example bounds
            Ci = C_list[i]
            Cj = C_list[j]
        # alpha_i moves by +y_i delta (i in I_up), alpha_j by -y_j delta (j in I_low)
        cap_i = Ci - ai if yi > 0 else ai
        cap_j = aj if yj > 0 else Cj - aj
        hit_i = hit_j = False
        if delta >= cap_i:
            delta, hit_i = cap_i, True
        if delta >= cap_j:
            hit_i = hit_i and cap_j == cap_i
            delta, hit_j = cap_j, True
        # a variable that reaches its bound is set to it exactly; the others are kept in
        # [0, C] against round-off
        if yi > 0:
            ai = Ci if hit_i else (ai + delta if ai + delta < Ci else Ci)
        else:
            ai = 0.0 if hit_i else (ai - delta if ai - delta > 0.0 else 0.0)
        if yj > 0:
            aj = 0.0 if hit_j else (aj - delta if aj - delta > 0.0 else 0.0)
        else:
            aj = Cj if hit_j else (aj + delta if aj + delta < Cj else Cj)
        alpha[i] = ai
        alpha[j] = aj
        dual += delta * b - 0.5 * a_true * delta * delta

        # -- gradient update: v -= delta (K_i - K_j), on both masked copies --
        Kj = get(j)
        if Kj is None:
            Kj = row(j)
        subtract(Ki, Kj, out=tmp)
        scalar[()] = delta
        multiply(tmp, scalar, out=tmp)
        v_up -= tmp  # both copies (two 1-d updates beat one broadcast over V)
        v_low -= tmp
        # membership changes: i may leave I_up (reached the bound it moved to) and enter
        # I_low (left the opposite bound); j may leave I_low and enter I_up
        if yi > 0:
            leave, enter = ai == Ci, ai0 == 0.0 and ai > 0.0
        else:
            leave, enter = ai == 0.0, ai0 == Ci and ai < Ci
        if leave or enter:
            vi_new = float(v_up[i])
            if leave:
                v_up[i] = -inf
            if enter:
                v_low[i] = vi_new
        if yj > 0:
            leave, enter = aj == 0.0, aj0 == Cj and aj < Cj
        else:
            leave, enter = aj == Cj, aj0 == 0.0 and aj > 0.0
        if leave or enter:
            vj_new = float(v_low[j])
            if leave:
                v_low[j] = inf
            if enter:
                v_up[j] = vj_new
        it += 1


def smo(
    K: Any,
    y: Any,
    C: float,
    *,
    eps: float = 1e-3,
    max_iter: int | None = None,
    time_limit: float | None = None,
    tau: float = 1e-12,
    alpha0: Any = None,
    kernel: Callable[[np.ndarray, np.ndarray], Any] | None = None,
    X: Any = None,
    cache_size_mb: float = 200.0,
    shrinking: bool = True,
    history_every: int = HISTORY_EVERY,
    callback: Callable[[SMOProgress], Any] | None = None,
    check_input: bool = True,
    gap_tol: float | None = None,
    psd_eps: float = 0.0,
) -> SMOResult:
    r"""Solve the soft-margin SVM dual by SMO with second-order working-set selection.

    Maximises :math:`D(\alpha) = e^\top\alpha - \frac12\alpha^\top YKY\alpha` subject to
    :math:`y^\top\alpha = 0` and :math:`0 \le \alpha \le C` (Mansour 2013, §11.2) and
    returns the dual variables, the bias and the certificate-relevant numbers.

    Parameters
    ----------
    K : array_like of shape (n, n) or None
        Precomputed symmetric kernel matrix (finite; checked to be symmetric).  A
        C-contiguous float64 array is used in place; anything else is copied once.  Pass
        ``None`` together with ``kernel`` and ``X`` to compute rows on demand.
    y : array_like of shape (n,)
        Labels in {-1, +1} (both classes present).
    C : float or array_like of shape (n,)
        Box constraint, ``C > 0``.  ``C = inf`` is the hard-margin dual (only
        ``alpha >= 0``); if the classes cannot be separated in feature space that dual is
        unbounded and the solver ends on ``max_iter``/``time_limit``, never "optimal".
        An array gives per-example bounds ``0 <= alpha_i <= C_i`` (finite, ``>= 0``, not
        all zero; a weighted SVM, ``C_i = C w_i``): the working set rule and the step are
        the same with ``C_i``, ``C_j`` in the distances to the box (LIBSVM's
        ``get_C(i)``).
    eps : float, default 1e-3
        Stop when the maximal KKT violation :math:`m(\alpha) - M(\alpha)` is ``<= eps``
        (LIBSVM's ``-e``, scikit-learn's ``tol``).
    max_iter : int, optional
        Iteration budget; reaching it returns status ``"iteration_limit"``.  ``None``
        means ``max(10**7, 100 n)`` (a safeguard, as in LIBSVM).
    time_limit : float, optional
        Wall-clock budget in seconds; reaching it returns status ``"time_limit"``.
    tau : float, default 1e-12
        Curvature guard: a pair curvature :math:`a_{ij} \le \tau` is replaced by ``tau``
        (so indefinite or singular kernels never divide by zero).
    alpha0 : array_like of shape (n,), optional
        Feasible warm start (``0 <= alpha0 <= C`` and ``|y'alpha0| <= 1e-10 sum(alpha0)``);
        anything else raises ``ValueError`` naming ``alpha0``.  The gradient is recomputed
        from it.  Default: zeros.
    kernel : callable, optional
        ``kernel(A, B)`` returning the ``(len(A), len(B))`` Gram block, e.g.
        ``lambda A, B: np.exp(-g * sqdist(A, B))``.  Only with ``K=None`` and ``X``.
    X : array_like of shape (n, d), optional
        The points ``kernel`` is evaluated on.
    cache_size_mb : float, default 200
        Memory for the LRU cache of kernel rows in ``kernel`` mode (at least two rows are
        always kept), and, with shrinking, for the separate cache of rows restricted to the
        active set (so memory use can reach about twice this).
    shrinking : bool, default True
        Set aside variables that sit at a bound and look settled (LIBSVM's heuristic, see
        the module docstring); the final answer is always checked on the full set.
    history_every : int, default 100
        Record ``(iteration, time, dual objective, max violation)`` and call ``callback``
        every this many iterations.
    callback : callable, optional
        Called as ``callback(progress)`` with an :class:`SMOProgress`; returning ``True``
        stops the solver with status ``"interrupted"``.
    check_input : bool, default True
        Validate ``K`` fully (finite, symmetric).  ``False`` skips those two full passes
        over an ``n x n`` matrix (for callers that validated ``K`` already, e.g. a
        formulation builder); shapes, labels and scalars are always checked.
    gap_tol : float, optional
        Stop on the relative duality gap instead: ``eps`` is then only the first KKT
        tolerance, lowered until the gap of :func:`convexkern.math.svm.bounds_at`,
        evaluated from the maintained gradient whenever the full set meets ``eps``, is
        ``<= gap_tol`` (see the module docstring), or ``eps`` reaches 1e-13 (status
        ``"optimal"`` with ``gap_estimate`` above ``gap_tol``).  An estimate: certify the
        result with :func:`convexkern.math.svm.dual_bounds`.
    psd_eps : float, default 0
        With ``gap_tol``: ``lambda_min(K) >= -psd_eps``, so the gap includes the slack
        of :func:`convexkern.math.svm.dual_bounds` for a kernel PSD only to ``psd_eps``.

    Returns
    -------
    SMOResult

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])           # XOR
    >>> K = (1.0 + X @ X.T) ** 2
    >>> res = smo(K, y, C=1e6, eps=1e-10)
    >>> res.status, np.round(res.alpha, 6).tolist(), round(res.b, 9) + 0.0
    ('optimal', [0.125, 0.125, 0.125, 0.125], 0.0)
    """
    C, eps, tau, time_limit, max_iter, history_every, cache_size_mb = check_settings(
        C, eps, tau, time_limit, max_iter, history_every, cache_size_mb, shrinking,
        check_input, callback)
    if gap_tol is not None:
        gap_tol = check_positive(gap_tol, "gap_tol")
    psd_eps = check_nonnegative(psd_eps, "psd_eps")
    rows, yv = kernel_rows(K, y, kernel, X, check_input, cache_size_mb)
    n = yv.shape[0]
    if np.ndim(C):
        C = check_box_C(C, n)
    if max_iter is None:
        max_iter = max(10**7, 100 * n)
    alpha = np.zeros(n) if alpha0 is None else check_alpha0(alpha0, yv, C)
    run = _Run(rows, yv, alpha, C, eps, tau, max_iter, time_limit, shrinking, history_every,
               callback, cache_size_mb)
    run.gap_tol, run.psd_eps = gap_tol, psd_eps
    return run.solve()


class _Run:
    """One :func:`smo` run: the full arrays, the active workspace ``w``, the shrinking
    schedule and the history (the clock starts here: the initial gradient is solve time)."""

    def __init__(
        self, rows: _KernelRows, yv: np.ndarray, alpha: np.ndarray, C: float | np.ndarray,
        eps: float,
        tau: float, max_iter: int, time_limit: float | None, shrinking: bool,
        history_every: int, callback: Callable[[SMOProgress], Any] | None,
        cache_size_mb: float,
    ) -> None:
        n = yv.shape[0]
        self.rows, self.yv, self.alpha, self.C, self.eps, self.tau = rows, yv, alpha, C, eps, tau
        self.max_iter, self.time_limit, self.history_every = max_iter, time_limit, history_every
        self.callback, self.cache_size_mb, self.n = callback, cache_size_mb, n
        self.t_start = time.perf_counter()
        self.deadline = math.inf if time_limit is None else self.t_start + time_limit
        # ---- initial state -------------------------------------------------------------
        warm = bool(np.any(alpha))
        self.v = yv - rows.times(yv * alpha) if warm else yv.copy()
        #: the steps a warm start stands for in the face step's allowance (its free set may
        #: already be the optimum's: counted as n steps, what SMO takes to get that far)
        self.it_credit = n if warm else 0
        self.dual = 0.5 * float(np.sum(alpha) + (alpha * yv) @ self.v)
        self.history: list[tuple[int, float, float, float]] = []
        self.w = _Work(None, rows.row, yv, alpha, self.v, rows.diag, C,
                       row_lookup(rows, n))
        self.shrink_every = min(n, _SHRINK_EVERY)
        self.active_min = n
        self.next_check: float = self.shrink_every if shrinking else math.inf
        self.unshrunk = False  # the one-time full reconstruction near convergence was done
        self.it = 0
        self.shrinking = shrinking
        self.gap_tol: float | None = None  # stop on the gap estimate (set by smo)
        self.psd_eps = 0.0
        self.estimate: tuple[float, float] | None = None
        self.gap_checks = 0
        self.face_steps = 0

    def sync(self) -> None:
        """Write the active set's alpha and v back into the global arrays."""
        w = self.w
        if w.idx is None:
            self.v[:] = w.v()
        else:
            self.alpha[w.idx] = w.alpha
            self.v[w.idx] = w.v()

    def unshrink(self) -> _Work:
        """Bring v up to date on the inactive set; return the full-set workspace.

        Since the snapshot ``(alpha_ref, v_ref)`` taken when the full set was last shrunk,
        only the variables active since then moved, so
        ``v = v_ref - K (y * (alpha - alpha_ref))`` on the inactive set (K symmetric)
        reads the rows of those few variables, not all of ``K``."""
        self.sync()
        w, v, yv = self.w, self.v, self.yv
        if w.idx is not None:
            inactive = np.ones(self.n, dtype=bool)
            inactive[w.idx] = False
            cols = np.flatnonzero(inactive)
            moved = yv * (self.alpha - self.alpha_ref)
            v[cols] = self.v_ref[cols] - self.rows.times(moved, cols)
        return _Work(None, self.rows.row, yv, self.alpha, v, self.rows.diag, self.C,
                     row_lookup(self.rows, self.n))

    def notify(self, it_: int, t_: float, dual_: float, viol_: float) -> bool:
        alpha = self.alpha
        if self.w.idx is not None:
            alpha[self.w.idx] = self.w.alpha
        alpha.flags.writeable = False
        try:
            return self.callback(SMOProgress(it_, t_, dual_, viol_, alpha)) is True  # type: ignore[misc]
        finally:
            alpha.flags.writeable = True

    def check(self, viol: float) -> None:
        """The periodic revision: unshrink once near the end, then set variables aside."""
        self.next_check = self.it + self.shrink_every
        if not self.unshrunk and viol <= 10.0 * self.eps:
            # close to the end: bring every variable back once, with exact gradients
            self.unshrunk = True
            if self.w.idx is not None:
                self.w = self.unshrink()
        w = self.w
        # LIBSVM's rule: a variable at a bound that may only move up (only in I_up)
        # and sits below M, or only down (only in I_low) above m, is set aside
        m = float(w.v_up.max())
        M = float(w.v_low.min())
        only_up = np.isinf(w.v_low)
        only_low = np.isinf(w.v_up)
        drop = (only_up & (w.v_up < M)) | (only_low & (w.v_low > m))
        n_keep = w.size - int(np.count_nonzero(drop))
        # (a step needs two variables: with fewer the set is not shrunk, a duplicated
        # point under a large constant kernel set every variable aside)
        if 2 <= n_keep <= _SHRINK_MIN_GAIN * w.size:
            self.sync()
            pos = np.flatnonzero(~drop)
            if w.idx is None:  # v is up to date everywhere: the snapshot unshrink starts from
                self.alpha_ref, self.v_ref = self.alpha.copy(), self.v.copy()
                active = _ActiveRows(self.rows, pos, self.cache_size_mb)
            else:
                active = _ActiveRows(self.rows, w.idx[pos], self.cache_size_mb, w.rows, pos)
            self.w = _Work(active.A, active.row, self.yv, self.alpha, self.v, self.rows.diag,
                           self.C, row_lookup(active, active.A.size))
            self.w.rows = active
            self.active_min = min(self.active_min, self.w.size)

    def solve(self) -> SMOResult:
        # ---- main loop: SMO steps on the active set, shrinking checks in between --------
        while True:
            reason, self.it, self.dual, viol = _iterate(
                self.w, self.eps, self.tau, self.it, self.next_check, self.max_iter,
                self.deadline, self.time_limit is not None, self.t_start, self.history_every,
                self.history, self.notify if self.callback is not None else None, self.dual,
            )
            if reason == "check":
                self.check(viol)
                continue
            if reason == "optimal" and self.w.idx is not None:
                # optimal on the active set: check the whole set with exact gradients
                self.w = self.unshrink()
                continue
            if reason == "optimal" and self.gap_tol is not None:
                met, viol = self.gap_met(viol)
                if not met:
                    continue
            break
        return self.result(reason, viol)

    def gap_met(self, viol: float) -> tuple[bool, float]:
        """On the full set, optimal for ``eps``: evaluate the gap from ``v``; when it
        misses ``gap_tol``, try the face step, then lower ``eps``, revise the active set
        now and say so (False).  Returns that and the violation at the point now held."""
        self.sync()
        self.gap_checks += 1
        self.estimate = gap_estimate(self.v, self.yv, self.alpha, self.C, self.psd_eps)
        rel = relative_gap_of(*self.estimate)
        if rel > self.gap_tol and face_step(  # type: ignore[operator]
                self.rows, self.yv, self.alpha, self.v, self.C,
                _FACE_COST * (self.it + self.it_credit) * self.active_min, self.deadline):
            self.face_steps += 1  # the face's optimum: SMO goes on from there if need be
            w = self.w = _Work(None, self.rows.row, self.yv, self.alpha, self.v,
                               self.rows.diag, self.C, row_lookup(self.rows, self.n))
            viol = float(w.v_up.max()) - float(w.v_low.min())
            self.dual = 0.5 * float(np.sum(self.alpha) + (self.alpha * self.yv) @ self.v)
            self.estimate = gap_estimate(self.v, self.yv, self.alpha, self.C, self.psd_eps)
            rel = relative_gap_of(*self.estimate)
        if rel <= self.gap_tol or self.eps <= _EPS_MIN:  # type: ignore[operator]
            return True, viol
        shrink = min(0.5, max(1e-3, _GAP_AIM * self.gap_tol / rel))  # type: ignore[operator]
        self.eps = max(_EPS_MIN, self.eps * shrink)
        # the set was just rebuilt with exact gradients: shrink it again at once (the
        # one-time un-shrinking near the end stays spent: the final check still runs on
        # the full set)
        if self.shrinking:
            self.check(viol)
        return False, viol

    def result(self, status: str, viol: float) -> SMOResult:
        alpha, v, yv, C = self.alpha, self.v, self.yv, self.C
        if self.w.idx is not None:  # stopped by a limit while shrunk: make v exact everywhere
            self.w = self.unshrink()
            viol = float(self.w.v_up.max()) - float(self.w.v_low.min())
        else:
            self.sync()
        w = self.w
        dual_exact = 0.5 * float(np.sum(alpha) + (alpha * yv) @ v)
        free = (alpha > 0) & (alpha < C)
        if np.any(free):
            bias = float(np.mean(v[free]))
        else:
            bias = 0.5 * (float(w.v_up.max()) + float(w.v_low.min()))
        solve_time = time.perf_counter() - self.t_start
        self.history.append((self.it, solve_time, dual_exact, viol))
        return SMOResult(
            alpha=alpha,
            b=bias,
            status=status,
            iterations=self.it,
            max_violation=float(viol),
            dual_objective=dual_exact,
            solve_time=solve_time,
            n_support=int(np.count_nonzero(alpha)),
            history=self.history,
            kernel_rows_computed=self.rows.rows_computed,
            eps=self.eps,
            active_size_min=self.active_min,
            gap_estimate=self.estimate,
            gap_checks=self.gap_checks,
            face_steps=self.face_steps,
        )
