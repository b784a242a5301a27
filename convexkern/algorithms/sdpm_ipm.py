r"""A structured interior-point (barrier) method for the SDPM dual (8), certified.

Graepel & Herbrich (NIPS 2003, §4) expect interior-point methods to reach
:math:`m = 10^5`--:math:`10^6` trajectories because the problem has only ``n`` weights: the
work per iteration can be ``O(m n^2)`` and the memory ``O(m n)``.  A general conic solver
does not see that structure (Clarabel through cvxpy factorises a sparse KKT system with ``m``
dense rows of ``w``).  This solver works on the dual (8) directly,

.. math:: \max_\mu\ \sum_i\mu_{i0} - \tfrac12\|B\mu\|^2,\quad B\mu = \sum_i y_i\tilde
    X_i^\top\mu_i\ (= w),\quad \mu_i\in\mathcal M_r([-\tau,\tau]),\ \mu_{i0}\le C,\
    \sum_i y_i\mu_{i0} = 0,

with the logarithmic barrier of each block's cone (for ``r = 2``:
:math:`-\log(\mu_0\mu_2 - \mu_1^2) - \log(\tau^2\mu_0 - \mu_2)`, the Hankel and localising
determinants; ``r = 1``: :math:`-\log(\tau\mu_0\pm\mu_1)`; ``r = 0``: :math:`-\log\mu_0`)
plus :math:`-\log(C - \mu_{i0})` for the soft margin: the barrier method of Boyd &
Vandenberghe (*Convex Optimization*, §11.3) on
:math:`f_t(\mu) = t(\tfrac12\|B\mu\|^2 - \sum_i\mu_{i0}) + \sum_i F_i(\mu_i)` with the bias
equality kept by each Newton step.  The Hessian :math:`tB^\top B + \mathrm{diag}(D_i)`
(:math:`D_i` the ``(r+1) x (r+1)`` barrier Hessians) is inverted by the Woodbury identity
through the ``n x n`` matrix :math:`S = I/t + \sum_i\tilde X_i^\top D_i^{-1}\tilde X_i`,
formed in chunks of examples with dense matrix products: ``O(m (r+1) n^2)`` work and
``O(m (r+1)^2 + n^2)`` memory beyond the data per Newton step; no ``m x m`` matrix.

Every iterate is strictly inside the dual feasible set, so the formulation's certificate
(:func:`convexkern.formulations.sdpm.certificate`) gives a lower bound from ``mu`` and an
upper bound from ``w = B mu`` (exact worst-case margins, best bias, exact hinge slack); the
method stops when that certified relative gap meets ``tol`` (about ``(r+2) m / t`` on the
central path).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import scipy.linalg

from ..errors import InvalidInputError
from ..report import Certificate, SolveReport
from ..solvers.outcome import certified_report
from ..solvers.status import algorithm_status
from ._progress import SdpmResult, blas_threads, checkpoint, no_room

__all__ = ["BarrierResult", "SdpmProblem", "barrier", "solve_formulation", "supported_problem"]

#: examples per chunk when forming S (bounds the temporaries to CHUNK x (r+1) x n floats)
CHUNK = 4096
#: re-centre while the squared Newton decrement exceeds this (a damped Newton step of a
#: self-concordant function is then in its quadratic phase; Boyd & Vandenberghe §9.6)
CENTRED = 0.5
#: at most this many rounds of iterative refinement of each Newton step, each only while
#: the residual exceeds REFINE_RTOL times the gradient (a residual costs two passes over
#: the data, a correction two more)
REFINE = 2
REFINE_RTOL = 1e-10
#: the Newton system is solved directly (not by Woodbury) up to this many block rows
DIRECT_MAX = 600
#: at most this many Newton steps per centring
MAX_CENTRING = 50
#: hard margin: stop when the dual mass per example exceeds this (the dual is then almost
#: surely unbounded: the data are not separable)
DIVERGED = 1e12


@dataclass
class BarrierResult(SdpmResult):
    """Raw output of :func:`barrier` (no bias: the certificate finds the best one)."""


def _barrier_parts(mu: np.ndarray, tau: float, C: float, need_hess: bool = True):
    """Value, gradient ``(m, R)`` and Hessian ``(m, R, R)`` of the blocks' barriers; value
    ``inf`` outside the domain."""
    m, R = mu.shape
    g = np.zeros((m, R))
    H = np.zeros((m, R, R)) if need_hess else None
    val = 0.0
    terms: list[tuple[np.ndarray, np.ndarray]] = []
    # linear pieces a'mu (+ const) > 0 as (value, gradient a)
    if R == 1:
        terms.append((mu[:, 0], np.array([1.0])))
    elif R == 2:
        terms.append((tau * mu[:, 0] - mu[:, 1], np.array([tau, -1.0])))
        terms.append((tau * mu[:, 0] + mu[:, 1], np.array([tau, 1.0])))
    else:
        terms.append((tau * tau * mu[:, 0] - mu[:, 2], np.array([tau * tau, 0.0, -1.0])))
    if not math.isinf(C):
        a = np.zeros(R)
        a[0] = -1.0
        terms.append((C - mu[:, 0], a))
    for v, a in terms:
        if np.any(v <= 0):
            return math.inf, g, H
        val -= float(np.log(v).sum())
        g -= a[None, :] / v[:, None]
        if need_hess:
            H += (a[:, None] * a[None, :])[None] / (v * v)[:, None, None]
    if R == 3:
        u, p, q = mu[:, 0], mu[:, 1], mu[:, 2]
        det = u * q - p * p
        if np.any(det <= 0) or np.any(u <= 0):
            return math.inf, g, H
        val -= float(np.log(det).sum())
        dd = np.stack([q, -2 * p, u], 1)
        g -= dd / det[:, None]
        if need_hess:
            H += dd[:, :, None] * dd[:, None, :] / (det * det)[:, None, None]
            K = np.array([[0.0, 0.0, 1.0], [0.0, -2.0, 0.0], [1.0, 0.0, 0.0]])
            H -= K[None] / det[:, None, None]
    return val, g, H


def _max_step(mu: np.ndarray, dmu: np.ndarray, tau: float, C: float) -> float:
    """The largest ``alpha <= 1`` (times 0.99) keeping ``mu + alpha dmu`` in the domain."""
    R = mu.shape[1]
    amax = np.full(mu.shape[0], np.inf)

    def lin(v: np.ndarray, dv: np.ndarray) -> None:
        nonlocal amax
        with np.errstate(divide="ignore", invalid="ignore"):
            a = np.where(dv < 0, -v / dv, np.inf)
        amax = np.minimum(amax, a)

    if R == 1:
        lin(mu[:, 0], dmu[:, 0])
    elif R == 2:
        lin(tau * mu[:, 0] - mu[:, 1], tau * dmu[:, 0] - dmu[:, 1])
        lin(tau * mu[:, 0] + mu[:, 1], tau * dmu[:, 0] + dmu[:, 1])
    else:
        lin(tau * tau * mu[:, 0] - mu[:, 2], tau * tau * dmu[:, 0] - dmu[:, 2])
        lin(mu[:, 0], dmu[:, 0])
        # det(alpha) = c0 + c1 alpha + c2 alpha^2 > 0 on [0, alpha)
        u, p, q = mu.T
        du, dp, dq = dmu.T
        c0 = u * q - p * p
        c1 = u * dq + du * q - 2 * p * dp
        c2 = du * dq - dp * dp
        with np.errstate(divide="ignore", invalid="ignore"):
            disc = c1 * c1 - 4 * c2 * c0
            sq = np.sqrt(np.maximum(disc, 0.0))
            r1 = np.where(c2 != 0, (-c1 - sq) / (2 * c2), np.where(c1 < 0, -c0 / c1, np.inf))
            r2 = np.where(c2 != 0, (-c1 + sq) / (2 * c2), np.inf)
        for r in (r1, r2):
            ok = (disc >= 0) & np.isfinite(r) & (r > 0)
            amax = np.where(ok, np.minimum(amax, r), amax)
    if not math.isinf(C):
        lin(C - mu[:, 0], -dmu[:, 0])
    a = float(amax.min()) if amax.size else math.inf
    return min(1.0, 0.99 * a)


def _initial(y: np.ndarray, R: int, tau: float, C: float, bias: bool) -> np.ndarray:
    """A strictly feasible start: each block the moments of the uniform measure on the
    segment, of mass ``C/2`` (1 for a hard margin), the larger class scaled down so that
    ``sum_i y_i mu_i0 = 0``."""
    m = y.size
    mass = np.full(m, 0.5 * C if math.isfinite(C) else 1.0)
    if bias:
        P, N = int((y > 0).sum()), int((y < 0).sum())
        if P and N:
            mass = np.where(y > 0, mass * min(P, N) / P, mass * min(P, N) / N)
    mom = np.array([1.0, 0.0, tau * tau / 3.0])[:R]
    return mass[:, None] * mom[None, :]


def _inv_cholesky(Hb: np.ndarray) -> np.ndarray | None:
    """``Linv`` ``(m, R, R)`` lower triangular with ``Hb_i^{-1} = Linv_i' Linv_i``: the
    inverse of each block's Cholesky factor, in closed form over the stack.  A block whose
    Cholesky pivots fail in floating point (it is near the boundary of its cone and ``Hb_i``
    is ill-conditioned) takes the eigenvalue route, eigenvalues floored at 1e-14 of its
    largest.  ``None`` when a block has no positive eigenvalue."""
    m, R, _ = Hb.shape
    L = np.zeros_like(Hb)
    bad = np.zeros(m, dtype=bool)
    for j in range(R):
        piv = Hb[:, j, j] - np.einsum("mk,mk->m", L[:, j, :j], L[:, j, :j])
        bad |= ~(piv > 1e-14 * Hb[:, j, j])
        L[:, j, j] = np.sqrt(np.where(bad, 1.0, piv))
        for i in range(j + 1, R):
            L[:, i, j] = (Hb[:, i, j] - np.einsum("mk,mk->m", L[:, i, :j], L[:, j, :j])
                          ) / L[:, j, j]
    Linv = np.zeros_like(Hb)
    for j in range(R):  # forward substitution, column by column of the identity
        Linv[:, j, j] = 1.0 / L[:, j, j]
        for i in range(j + 1, R):
            Linv[:, i, j] = -np.einsum("mk,mk->m", L[:, i, j:i], Linv[:, j:i, j]) / L[:, i, i]
    if np.any(bad):
        try:
            lam, V = np.linalg.eigh(Hb[bad])
        except np.linalg.LinAlgError:
            return None
        if not np.all(np.isfinite(lam)) or np.any(lam[:, -1] <= 0):
            return None
        lam = np.maximum(lam, 1e-14 * lam[:, -1:])
        # Hb^{-1} = V diag(1/lam) V' = M'M with M = diag(lam^-1/2) V' (not triangular:
        # only M'M is used)
        Linv[bad] = (V / np.sqrt(lam)[:, None, :]).transpose(0, 2, 1)
    return Linv


def _cho_jitter(S: np.ndarray) -> Any:
    """``cho_factor(S)`` (in place), retried once with a relative diagonal jitter of
    1e-13 mean diagonal (round-off in a Newton matrix); ``None`` if that fails too."""
    k = S.shape[0]
    try:
        return scipy.linalg.cho_factor(S, check_finite=False)
    except np.linalg.LinAlgError:
        try:
            S[np.diag_indices(k)] += 1e-13 * float(np.trace(S)) / k
            return scipy.linalg.cho_factor(S, check_finite=False)
        except np.linalg.LinAlgError:
            return None


def _newton_system(X: np.ndarray, y: np.ndarray, Hb: np.ndarray, t: float, bias: bool):
    r"""Factor the Newton system of :math:`f_t` and return ``solve(g) -> (dmu, dw)``, or
    ``None`` when it is singular.

    The step solves :math:`(D + tB^\top B)\Delta + \lambda a = -g`, :math:`a^\top\Delta
    = 0` (:math:`a_i = y_ie_0`, the bias equality; without a bias no :math:`\lambda`).
    With :math:`v = B\Delta` and :math:`\lambda = t\lambda'` it reduces to the
    ``(n+1) x (n+1)`` system :math:`\tilde S(v, \lambda') = -(BD^{-1}g, a^\top D^{-1}g)/t`,
    :math:`\tilde S = \mathrm{diag}(I/t, 0) + \sum_i [\tilde X_i, e_0]^\top D_i^{-1}
    [\tilde X_i, e_0]` (the bias as one more column of every block), and then
    :math:`\Delta_i = -D_i^{-1}(g_i + t y_i(\tilde X_iv + e_0\lambda'))`, :math:`dw = v`.
    """
    m, R, n = X.shape
    Xf = X.reshape(m * R, n)
    Linv = _inv_cholesky(Hb)
    if Linv is None:
        return None
    # D_i^{-1} = Linv_i' Linv_i, so S = I/t + sum_i (Linv_i X_i)'(Linv_i X_i), the bias column
    # e_0 of every block giving Linv_i e_0 (the first column of Linv_i)
    Dinv = np.einsum("mki,mkj->mij", Linv, Linv)
    k = n + 1 if bias else n
    S = np.zeros((k, k))
    S[np.arange(n), np.arange(n)] = 1.0 / t
    for s0 in range(0, m, CHUNK):
        Lc_, Xc = Linv[s0:s0 + CHUNK], X[s0:s0 + CHUNK]
        Y = np.matmul(Lc_, Xc).reshape(-1, n)  # Y_i = Linv_i X_i
        S[:n, :n] += Y.T @ Y  # numpy runs a symmetric rank-k update (dsyrk) for Y'Y
        if bias:
            yb = Lc_[:, :, 0].reshape(-1)
            S[:n, n] += Y.T @ yb
            S[n, n] += float(yb @ yb)
    if bias:
        S[n, :n] = S[:n, n]
    S = 0.5 * (S + S.T)
    Lc = _cho_jitter(S)
    if Lc is None:
        return None

    def base(g: np.ndarray, h: float) -> tuple[np.ndarray, float]:
        # (Delta, lambda) with D Delta + t B'B Delta + a lambda = -g, a'Delta = h
        u = y[:, None] * np.einsum("mij,mj->mi", Dinv, g)  # y_i D_i^{-1} g_i
        rhs = -(Xf.T @ u.reshape(-1)) / t
        if bias:
            rhs = np.append(rhs, -(u[:, 0].sum() + h) / t)
        sol = scipy.linalg.cho_solve(Lc, rhs, check_finite=False)
        inner = (Xf @ sol[:n]).reshape(m, R)
        if bias:
            inner[:, 0] += sol[n]
        lam = t * sol[n] if bias else 0.0
        return -np.einsum("mij,mj->mi", Dinv, g + t * y[:, None] * inner), lam

    def solve(g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The step for gradient ``g``, refined against the exact Hessian while its residual
        is large (the Woodbury solve loses digits when the D_i are ill-conditioned, late in
        the path)."""
        dmu, lam = base(g, 0.0)
        gnorm = float(np.abs(g).max())
        for k in range(REFINE + 1):
            v = Xf.T @ (y[:, None] * dmu).reshape(-1)  # B dmu
            if k == REFINE:
                break
            res = -g - np.einsum("mij,mj->mi", Hb, dmu) - t * y[:, None] * (Xf @ v).reshape(m, R)
            h = 0.0
            if bias:
                res[:, 0] -= y * lam
                h = -float(y @ dmu[:, 0])
            if float(np.abs(res).max()) <= REFINE_RTOL * gnorm and abs(h) <= REFINE_RTOL * (
                    float(np.abs(dmu[:, 0]).sum()) + 1e-300):
                break  # accurate already (early in the path): no correction
            # the correction solves the same system with right-hand side (res, h)
            ddmu, dlam = base(-res, h)
            dmu, lam = dmu + ddmu, lam + dlam
        return dmu, v

    return solve


def _newton_direct(X: np.ndarray, y: np.ndarray, Hb: np.ndarray, t: float, bias: bool):
    r"""The Newton system of :func:`_newton_system` solved directly in the ``m (r+1)``
    block coordinates, for ``m (r+1) <= n + 1`` (no larger than the Woodbury matrix
    :math:`\tilde S`): :math:`H = \mathrm{diag}(D_i) + tZZ^\top`, :math:`Z` the rows
    :math:`y_i\tilde x_{ik}` (so :math:`B = Z^\top`), by Cholesky, the bias equality by
    one more solve.  With fewer block rows than weights, :math:`\tilde S = I/t + \sum_i
    [\tilde X_i, e_0]^\top D_i^{-1}[\tilde X_i, e_0]` is the identity over ``t`` plus a
    matrix of rank at most ``m (r+1)`` whose entries grow like :math:`D_i^{-1}`, i.e. like
    the squared dual mass: at a large ``C`` (data x 1e3, ``C = 1e4``: masses ~1e9 at the
    start) it is singular in floating point and the Newton steps stall; ``H`` is not."""
    m, R, n = X.shape
    k = m * R
    Z = (y[:, None, None] * X).reshape(k, n)
    H = t * (Z @ Z.T)
    blocks = H.reshape(m, R, m, R)
    ar = np.arange(m)
    blocks[ar, :, ar, :] += Hb
    H = 0.5 * (H + H.T)
    H0 = H.copy()
    Lc = _cho_jitter(H)
    if Lc is None:
        return None
    a = np.zeros(k)
    if bias:
        a[::R] = y
        Ha = scipy.linalg.cho_solve(Lc, a, check_finite=False)
        aHa = float(a @ Ha)

    def base(rhs: np.ndarray) -> np.ndarray:
        d = scipy.linalg.cho_solve(Lc, rhs, check_finite=False)
        if bias and aHa > 0:
            d = d - (float(a @ d) / aHa) * Ha  # a' Delta = 0 (the multiplier eliminated)
        return d

    def solve(g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rhs = -g.reshape(-1)
        d = base(rhs)
        for _ in range(REFINE):  # refined against H (its multiplier re-fitted each round)
            res = rhs - H0 @ d
            if bias and aHa > 0:
                res -= (float(a @ scipy.linalg.cho_solve(Lc, res, check_finite=False))
                        / aHa) * a
            if float(np.abs(res).max()) <= REFINE_RTOL * float(np.abs(rhs).max()):
                break
            d = d + base(res)
        return d.reshape(m, R), Z.T @ d

    return solve


def barrier(
    problem: SdpmProblem,
    *,
    tol: float = 1e-6,
    max_iter: int | None = None,
    time_limit: float | None = None,
    verbose: bool = False,
    growth: float = 20.0,
    combine: bool = False,
) -> BarrierResult:
    """Run the barrier method (module docstring) on ``problem``.

    ``problem.certify`` gives the certified bounds that stop it (checked after each
    centring); ``max_iter`` counts Newton steps (default 500); ``growth``: the factor
    by which ``t`` grows between centrings; ``combine``: ``certify`` bounds the optimum
    from ``w`` (upper) and ``mu`` (lower) separately, so the best of each seen is paired
    (:func:`_best_pair`).  Statuses: ``optimal``, ``iteration_limit``,
    ``time_limit``, ``stalled`` (no Newton progress before ``tol``); a hard margin whose
    dual mass passes :data:`DIVERGED` per example stops with ``iteration_limit`` and a
    message (the data are then almost surely not separable, but that is not proven).
    """
    X, y, tau, C, bias, certify = problem
    m, R, n = X.shape
    t0 = time.perf_counter()
    Xf = X.reshape(m * R, n)
    mu = _initial(y, R, tau, C, bias)
    w = Xf.T @ (y[:, None] * mu).reshape(-1)
    lim = 500 if max_iter is None else int(max_iter)
    nu_bar = (R if R > 1 else 1) + (0 if math.isinf(C) else 1)
    scale0 = m * (C if math.isfinite(C) else 1.0)
    t = max(nu_bar * m / scale0, 1e-8)
    history: list[tuple[float, float, float, float]] = []
    status, message = "iteration_limit", ""
    it = 0
    newton_in_center = 0
    best: dict | None = None
    while it < lim:
        it += 1
        newton_in_center += 1
        t_step = time.perf_counter()
        fb, gb, Hb = _barrier_parts(mu, tau, C)
        Xw = (Xf @ w).reshape(m, R)
        gq = y[:, None] * Xw  # gradient of 1/2 |B mu|^2 - sum mu_0
        gq[:, 0] -= 1.0
        grad = t * gq + gb
        solve = (_newton_direct if m * R <= max(n + 1, DIRECT_MAX) else _newton_system)(
            X, y, Hb, t, bias)
        if solve is None:
            status, message = "stalled", f"the Newton system became singular (t = {t:.3g})"
            break
        dmu, dw = solve(grad)
        dec = -float((grad * dmu).sum())  # Newton decrement squared
        if not (math.isfinite(dec) and np.all(np.isfinite(dw))):
            status, message = "stalled", f"the Newton step is not finite (t = {t:.3g})"
            break
        alpha = _max_step(mu, dmu, tau, C)
        # the change of f_t along the step, without forming t * objective (at t ~ 1e12 its
        # rounding would swamp the decrease)
        wdw, dwdw, sdm = float(w @ dw), float(dw @ dw), float(dmu[:, 0].sum())
        while alpha > 1e-12:
            cand = mu + alpha * dmu
            fc, _, _ = _barrier_parts(cand, tau, C, need_hess=False)
            change = t * alpha * (wdw + 0.5 * alpha * dwdw - sdm) + (fc - fb)
            if change <= -0.25 * alpha * dec:
                break
            alpha *= 0.5
        if alpha <= 1e-12:
            if dec > 1e-9 * max(1.0, abs(fb)):
                status, message = "stalled", f"no descent along the Newton step (t = {t:.3g})"
                break
            alpha = 0.0
        mu = mu + alpha * dmu
        w = w + alpha * dw
        if math.isinf(C) and float(mu[:, 0].sum()) > DIVERGED * m:
            status = "diverged"
            break
        if dec > CENTRED and newton_in_center < MAX_CENTRING:
            if no_room(t0, time_limit, time.perf_counter() - t_step):
                status = "time_limit"
                break
            continue
        # centred (enough): certify, then predict along the central path
        w = Xf.T @ (y[:, None] * mu).reshape(-1)
        cert = certify(w, mu)
        best, cert = _best_pair(best, w, mu, cert, certify if combine else None)
        stop = checkpoint(history, it, t0, cert, tol, time_limit,
                          (f"sdpm-ipm: newton={it} t={t:.3g}") if verbose else None,
                          step=time.perf_counter() - t_step)  # what comes next: a step
        if stop:
            status = stop
            break
        t *= growth
        newton_in_center = 0
    if math.isinf(C) and (status == "diverged" or (
            status in ("stalled", "iteration_limit")
            and not any(math.isfinite(h[3]) for h in history))):
        # not a proof of infeasibility: reported as a stop before a certified answer
        status = "iteration_limit"
        message = (f"the hard-margin dual objective grows without bound (total mass "
                   f"{float(mu[:, 0].sum()):.3g} after {it} Newton steps) and no w with a "
                   "positive worst-case margin was found: the trajectories are probably not "
                   "separable (not proven; 'clarabel' proves infeasibility); use a soft "
                   "margin, C > 0" + (f" [{message}]" if message else ""))
    w = Xf.T @ (y[:, None] * mu).reshape(-1)
    if best is not None:
        # late centrings can lose digits of the primal point (its margins scale with the
        # data times sqrt(C * dual error)): the best certified bounds seen are returned
        # (the stopping certificate is the best pair's)
        w, mu = best["upper"][0], best["lower"][0]
    return BarrierResult(w=w, mu=mu, status=status, iterations=it, history=history,
                         message=message, stats={"t": t})


def _best_pair(best: dict | None, w: np.ndarray, mu: np.ndarray, cert: Certificate,
               certify: Callable[[np.ndarray, np.ndarray], Certificate] | None):
    """Keep the ``w`` with the lowest certified upper bound and the ``mu`` with the highest
    lower bound seen so far (each bound is valid on its own: the upper one depends on ``w``
    only, the lower one on ``mu`` only).  With ``certify`` (the primal kind, whose
    certificate takes ``w`` and ``mu`` apart) the best pair is certified together when it
    beats the current iterate; without it the best iterate by gap is kept whole."""
    if best is None:
        return {"upper": (w, cert.upper), "lower": (mu, cert.lower), "gap": cert.rel_gap}, cert
    if certify is None:
        if cert.rel_gap < best["gap"] or not math.isfinite(best["gap"]):
            best.update(upper=(w, cert.upper), lower=(mu, cert.lower), gap=cert.rel_gap)
        return best, cert
    if cert.upper <= best["upper"][1]:
        best["upper"] = (w, cert.upper)
    if cert.lower >= best["lower"][1]:
        best["lower"] = (mu, cert.lower)
    if best["upper"][0] is w and best["lower"][0] is mu:
        return best, cert
    comb = certify(best["upper"][0], best["lower"][0])
    return best, comb


class SdpmProblem(NamedTuple):
    """The linear SDPM as the structured solvers (:func:`barrier`,
    :func:`convexkern.algorithms.sdpm_dcd.dcd`) take it: trajectories ``X`` ``(m, r+1, n)``,
    labels ``y``, the half-width ``segment`` of ``[-tau, tau]``, ``C`` (``inf``: hard
    margin), whether there is a bias, and ``certify(w, mu) -> Certificate``, the
    formulation's certified bounds that stop the solver."""

    X: np.ndarray
    y: np.ndarray
    segment: float
    C: float
    bias: bool
    certify: Callable[[np.ndarray, np.ndarray], Certificate]


def supported_problem(f: Any, solver: str, tol: float) -> SdpmProblem:
    """The :class:`SdpmProblem` of an ``sdpm.primal``/``sdpm.dual`` formulation that the
    structured SDPM solvers handle (linear, degree ``<= 2``, on a segment), certified by
    ``f.certificate`` at ``tol``, or an ``InvalidInputError`` naming what does not apply
    and the solver to use instead."""
    d = f.data
    X = d.get("X_traj")
    if X is None:
        raise InvalidInputError("G", f"{solver} solves the linear SDPM only (it keeps w = B mu); "
                                     "for a kernel on derivative pairs use 'clarabel'")
    if d["segment"] is None or X.shape[1] > 3:
        raise InvalidInputError(
            "segment", f"{solver} needs trajectories of degree <= 2 on a segment [-tau, tau] "
                       f"(got degree {X.shape[1] - 1}, segment {d['segment']}); use 'clarabel'")
    C = math.inf if d["hard"] else f.param("C")

    def certify(w: np.ndarray, mu: np.ndarray) -> Certificate:
        # either sense: the solvers read cert.lower, cert.upper and cert.rel_gap
        return f.certificate({"w": w, "mu": mu}, tol=tol)

    return SdpmProblem(X, d["y"], float(d["segment"]), C, bool(d["bias"]), certify)


def solve_formulation(
    f: Any, *, tol: float, max_iter: int | None, time_limit: float | None,
    verbose: bool = False, x0: Mapping[str, np.ndarray] | None = None, **options: Any,
) -> SolveReport:
    """The solver table's adapter (``sdpm-ipm``) for ``sdpm.primal`` and ``sdpm.dual``
    (linear, degree ``<= 2``, on a segment): :func:`barrier`, then certify.

    ``options``: ``growth`` (the factor of ``t`` between centrings, > 1, default 20);
    ``blas_threads`` (BLAS threads for the run, default 1: the products are a few hundred
    columns wide, and on a shared 2-core machine two OpenBLAS threads made the rank-k
    update 4x and the (n+1)-Cholesky 6x slower than one; Clarabel runs on one thread too).
    ``x0`` is ignored (an interior-point method starts from the centre of the cone).
    """
    from threadpoolctl import threadpool_limits

    if options.keys() - {"growth", "blas_threads"}:
        raise InvalidInputError("options", f"unknown options {sorted(options)}")
    growth = options.get("growth", 20.0)
    if isinstance(growth, bool) or not isinstance(growth, (int, float)) or not growth > 1:
        raise InvalidInputError("growth", f"must be a number > 1, got {growth!r}")
    threads = blas_threads(options)
    problem = supported_problem(f, "sdpm-ipm", tol)
    t0 = time.perf_counter()
    with threadpool_limits(limits=threads, user_api="blas"):
        res = barrier(problem, tol=tol, max_iter=max_iter,
                      time_limit=time_limit, verbose=verbose, growth=float(growth),
                      combine=f.kind == "sdpm.primal")
    elapsed = time.perf_counter() - t0
    point = {"mu": res.mu}
    if f.kind == "sdpm.primal":
        point["w"] = res.w
    return certified_report(
        f, point, solver="sdpm-ipm", status=algorithm_status(res.status), tol=tol,
        solve_time=elapsed, iterations=res.iterations, history=res.history,
        message=res.message, solver_stats={"newton_steps": res.iterations, **res.stats},
    )
