r"""The exchange method's master QP (Graepel & Herbrich 2003, eq. (6) on finitely many
cuts), solved by a dense primal-dual interior-point method (Mehrotra's predictor-corrector,
SIAM J. Optim. 2(4), 1992; for QPs as in Nocedal & Wright, *Numerical Optimization*,
§16.6) on its ``n + 1`` weights.

The master of :mod:`convexkern.algorithms.exchange` on cuts :math:`c = 1..k`, each of one
trajectory :math:`g(c)`, with one slack per trajectory (a relaxation of (6)):

.. math:: \min_{w,b,\xi}\ \tfrac12\|w\|^2 + C\sum_g \xi_g\quad\text{s.t.}\quad
    Z_c w + p_c b + q_c\xi_{g(c)} \ge h_c,\quad \xi \ge 0,

with :math:`Z_c = y_{g}v_c^\top\tilde X_{g}` (``v_c`` the normalised moment vector of the
cut), :math:`p_c = v_{c0}y_g` (0 without a bias), :math:`q_c = h_c = v_{c0}`.  Its dual,
:math:`\max_{z\ge0} h^\top z - \tfrac12\|Z^\top z\|^2` s.t. :math:`p^\top z = 0`,
:math:`\sum_{c\in g} q_cz_c \le C`, has :math:`w = Z^\top z` at the optimum; ``z`` are the
multipliers :math:`\beta` the exchange method turns into moments.

Each Newton step eliminates the slacks, the multipliers and the per-trajectory
:math:`\xi_g` (a diagonal block) and solves one :math:`(n+1)\times(n+1)` system
:math:`M = \Psi + A^\top E A`, ``A = [Z, p]``, :math:`\Psi = \mathrm{diag}(I_n, 0)`, with
``E`` block diagonal by trajectory: :math:`E_g = D_g - u_gu_g^\top / H_g`,
:math:`D = z/s`, :math:`u = Dq`, :math:`H_g = q_g^\top u_g + \eta_g/\xi_g`.  ``E`` is formed
entry by entry without cancellation (its diagonal :math:`D_i(H_g - D_iq_i^2)/H_g` with
:math:`H_g - D_iq_i^2` summed from the other terms), because at the end of the solve
:math:`D_i \sim 1/\mu` and the naive difference :math:`A^\top DA - UH^{-1}U^\top` loses all
digits.  Cost per step: one ``k x (n+1)`` by ``(n+1)`` product and one Cholesky factor of
size ``n + 1`` (BLAS), against a sparse ``LDL`` of a KKT matrix with ``k`` dense rows in
Clarabel.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp

__all__ = ["MasterQP", "master_qp"]

#: steps without a better iterate after which the method stops (round-off reached)
STALL_STEPS = 3
#: a stalled solve still counts as solved within this factor of the asked accuracy
STALL_ACCEPT = 100.0
#: the floor of the merit's denominators
_TINY = 1e-300
#: a warm start's entries are moved to at least this (times C for the multipliers)
WARM_SHIFT = 0.1



@dataclass
class MasterQP:
    """Raw output of :func:`master_qp`."""

    w: np.ndarray
    b: float
    xi: np.ndarray
    z: np.ndarray
    status: str  # "solved", "inaccurate" (iteration limit or a failed step), "time_limit"
    iterations: int
    primal: float  # master objective at (w, xi)
    dual: float  # master dual objective at z (dual residuals not removed)
    merit: float = math.inf  # max(primal residual, dual residual, relative gap), relative
    warm: tuple | None = None  # (x, xi, z, eta) saved for the next master's warm start


def _block_weights(D: np.ndarray, q: np.ndarray, grp: np.ndarray, G: int, h: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, sp.csr_matrix | None, np.ndarray]:
    r"""``E = diag(d) + O`` block diagonal by group, without cancellation, and ``H`` per
    group; ``h`` is :math:`\eta/\xi` per group.  Returns ``(d, H, off, rows)``: ``O`` the
    off-diagonal part on the cuts ``rows`` of groups with several cuts (``None`` if there
    are none)."""
    k = D.size
    t = D * q * q
    H = np.bincount(grp, weights=t, minlength=G) + h
    # H - t_i: for the largest term of its group, the sum of the others (no cancellation);
    # for the rest, H - t_i >= H / 2, so the difference is accurate
    order = np.lexsort((-t, grp))
    first = np.ones(k, dtype=bool)
    first[1:] = grp[order][1:] != grp[order][:-1]
    top = np.zeros(k, dtype=bool)
    top[order[first]] = True
    rest = np.bincount(grp[~top], weights=t[~top], minlength=G) + h
    others = np.where(top, rest[grp], H[grp] - t)
    d = D * others / H[grp]
    counts = np.bincount(grp, minlength=G)
    multi = np.flatnonzero(counts[grp] > 1)
    if multi.size == 0:
        return d, H, None, multi
    u = D * q
    gm = grp[multi]
    o = np.argsort(gm, kind="stable")
    multi, gm = multi[o], gm[o]
    # all ordered pairs (a, c), a != c, within a group, as positions in ``multi``
    starts = np.searchsorted(gm, gm, side="left")
    sizes = np.searchsorted(gm, gm, side="right") - starts
    ii = np.repeat(np.arange(multi.size), sizes)
    jj = np.repeat(starts, sizes) + np.arange(ii.size) - np.repeat(np.cumsum(sizes) - sizes,
                                                                   sizes)
    keep = ii != jj
    ii, jj = ii[keep], jj[keep]
    a, c = multi[ii], multi[jj]
    off = sp.csr_matrix((-u[a] * u[c] / H[grp[a]], (ii, jj)),
                        shape=(multi.size, multi.size))
    return d, H, off, multi


def _normal_matrix(A: np.ndarray, d: np.ndarray, off: sp.csr_matrix | None, rows: np.ndarray,
                   psi: np.ndarray) -> np.ndarray:
    r""":math:`\Psi + A^\top(\mathrm{diag}(d) + O)A`, the diagonal part by one symmetric
    rank-k update (BLAS ``syrk``)."""
    B = A * np.sqrt(d)[:, None]
    M = sla.blas.dsyrk(1.0, B, trans=1, lower=0)
    M = np.triu(M) + np.triu(M, 1).T
    if off is not None:
        Ar = A[rows]
        Mo = Ar.T @ (off @ Ar)
        M += 0.5 * (Mo + Mo.T)
    M[np.diag_indices(M.shape[0])] += psi
    return M


class _Newton:
    """The Newton system of one iterate, factored once for the predictor and the
    corrector: the stationarity residuals ``r_x``, ``r_xi`` and the primal ``r_p`` are
    fixed; :meth:`direction` takes the complementarity right-hand sides."""

    def __init__(self, A: np.ndarray, q: np.ndarray, grp: np.ndarray, G: int,
                 psi: np.ndarray, it: tuple, res: tuple) -> None:
        self.A, self.q, self.grp, self.G, self.psi = A, q, grp, G, psi
        self.s, self.xi, self.z, self.eta = it
        self.r_x, self.r_xi, self.r_p = res
        self.D = self.z / self.s
        d, self.H, off, rows = _block_weights(self.D, q, grp, G, self.eta / self.xi)
        M = _normal_matrix(A, d, off, rows, psi)
        try:
            self.fac = sla.cho_factor(M, check_finite=False)
        except np.linalg.LinAlgError:
            M[np.diag_indices(M.shape[0])] += 1e-14 * max(1.0, float(np.max(np.diag(M))))
            self.fac = sla.cho_factor(M, check_finite=False)

    def _gsum(self, v: np.ndarray) -> np.ndarray:
        return np.bincount(self.grp, weights=v, minlength=self.G)

    def _solve(self, r_x: np.ndarray, r_xi: np.ndarray, r_p: np.ndarray, r_sz: np.ndarray,
               r_xe: np.ndarray) -> list[np.ndarray]:
        A, q, grp, D, H = self.A, self.q, self.grp, self.D, self.H
        t1 = r_sz / self.s - D * r_p
        rhs_x = -r_x + A.T @ t1
        rhs_xi = -r_xi + self._gsum(q * t1) + r_xe / self.xi
        v = rhs_xi / H
        dx = sla.cho_solve(self.fac, rhs_x - A.T @ (D * q * v[grp]), check_finite=False)
        Adx = A @ dx
        dxi = (rhs_xi - self._gsum(D * q * Adx)) / H
        ds = Adx + q * dxi[grp] + r_p
        dz = (r_sz - self.z * ds) / self.s
        deta = (r_xe - self.eta * dxi) / self.xi
        return [dx, dxi, ds, dz, deta]

    def direction(self, r_sz: np.ndarray, r_xe: np.ndarray) -> list[np.ndarray]:
        """``(dx, dxi, ds, dz, deta)``: the Newton step, then one step of iterative
        refinement on the stationarity rows (the others hold by construction): in the end
        game ``D ~ 1/mu`` and the (n+1)-system alone leaves the dual residual behind."""
        d = self._solve(self.r_x, self.r_xi, self.r_p, r_sz, r_xe)
        e_x = self.psi * d[0] - self.A.T @ d[3] + self.r_x
        e_xi = -self._gsum(self.q * d[3]) - d[4] + self.r_xi
        c = self._solve(e_x, e_xi, np.zeros_like(self.s), np.zeros_like(self.s),
                        np.zeros_like(self.xi))
        return [u + v for u, v in zip(d, c, strict=True)]


def _step(v: np.ndarray, dv: np.ndarray) -> float:
    """The largest ``a`` with ``v + a dv >= 0``."""
    neg = dv < 0
    return float(np.min(-v[neg] / dv[neg], initial=math.inf))


def master_qp(Z: np.ndarray, v0: np.ndarray, grp: np.ndarray, y: np.ndarray, C: float,
              bias: bool, G: int, *, tol: float = 1e-10, max_iter: int = 80,
              start: tuple | None = None, save_at: float = 1e-2,
              deadline: float | None = None) -> MasterQP:
    """Solve the master QP (module docstring) for a soft margin (``C`` finite).

    ``Z`` ``(k, n)``: the cuts' rows; ``v0`` ``(k,)``: their first moments (0 for a cut at
    infinity: the row :math:`Z_cw \\ge 0`); ``grp`` ``(k,)``: each cut's trajectory in
    ``0..G-1``; ``y`` ``(G,)``: the trajectories' labels.  Stops when the primal residual
    (margin units, relative to ``1 + max |h|``), the dual residuals (relative to the size
    of ``w`` and to ``C``) and the master's duality gap (relative to the objective) are all
    below ``tol``, or when ``STALL_STEPS``
    steps bring no better iterate (round-off); returns the best iterate and its ``merit``
    (the largest of those three numbers).  Primal and dual take one step length (in a QP
    the stationarity residual :math:`\\Psi x - A^\\top z` mixes both).

    ``start``: ``(x, xi, z, eta)`` aligned with this problem (``x = (w, b)``), a warm
    start, typically the previous master's iterate saved at merit ``save_at`` (``warm``
    in the result; a well-centred point, not the last one, which hugs the boundary), with
    the new cuts' ``z`` at 0.  Every entry is moved to at least ``WARM_SHIFT`` (times
    ``C`` for the multipliers), and the slacks are the rows' residuals moved likewise.

    ``deadline`` (a ``perf_counter`` time): no step is begun that would end past it, at
    the last step's pace (status ``"time_limit"``, the best iterate so far).
    """
    k, n = Z.shape
    q = np.asarray(v0, float)
    A = np.hstack([Z, (q * y[grp])[:, None]]) if bias else Z
    psi = np.ones(A.shape[1])
    psi[n:] = 0.0
    if start is None:
        counts = np.maximum(np.bincount(grp, minlength=G), 1)
        x, xi, s = np.zeros(A.shape[1]), np.ones(G), np.ones(k)
        z = np.where(q > 0, 0.5 * C / (counts[grp] * np.where(q > 0, q, 1.0)), 1.0)
        eta = np.full(G, 0.5 * C)
    else:
        x = np.array(start[0], float)
        xi = np.maximum(start[1], WARM_SHIFT)
        z = np.maximum(start[2], WARM_SHIFT * C)
        eta = np.maximum(start[3], WARM_SHIFT * C)
        s = np.maximum(A @ x + q * xi[grp] - q, WARM_SHIFT)
    warm = None
    scale_p = 1.0 + float(np.max(q, initial=0.0))
    status, it = "inaccurate", 0
    best: tuple = (math.inf, 0, x, xi, z, math.nan, math.nan)
    last = time.perf_counter()  # when the last step began
    for it in range(1, max_iter + 1):
        Atz = A.T @ z
        res = (psi * x - Atz, C - np.bincount(grp, weights=q * z, minlength=G) - eta,
               A @ x + q * xi[grp] - s - q)
        primal = 0.5 * float(x[:n] @ x[:n]) + C * float(xi.sum())
        dual = float(q @ z) - 0.5 * float(Atz[:n] @ Atz[:n])
        mu = (float(s @ z) + float(xi @ eta)) / (k + G)
        # complementarity mu (k + G) bounds the duality gap once the residuals vanish
        # all relative, so that scaled data (w ~ 1/scale, a small C) get the same digits
        merit = max(float(np.max(np.abs(res[2]), initial=0.0)) / scale_p,
                    float(np.max(np.abs(res[0]), initial=0.0))
                    / max(float(np.max(np.abs(x[:n]), initial=0.0)),
                          float(np.max(np.abs(Atz[:n]), initial=0.0)), _TINY),
                    float(np.max(np.abs(res[1]), initial=0.0)) / C,
                    mu * (k + G) / max(abs(primal), abs(dual), _TINY))
        if warm is None and merit <= save_at:
            warm = (x.copy(), xi.copy(), z.copy(), eta.copy())
        if merit < best[0]:
            best = (merit, it, x.copy(), xi.copy(), z.copy(), primal, dual)
        if merit <= tol:
            status = "solved"
            break
        if it - best[1] >= STALL_STEPS:
            # round-off: the residuals no longer fall (the best iterate is returned)
            status = "solved" if best[0] <= STALL_ACCEPT * tol else "inaccurate"
            break
        now = time.perf_counter()
        if deadline is not None and (now > deadline or (
                it > 1 and now + 1.5 * (now - last) > deadline)):
            status = "time_limit"
            break
        last = now
        try:
            nt = _Newton(A, q, grp, G, psi, (s, xi, z, eta), res)
        except np.linalg.LinAlgError:
            break
        aff = nt.direction(-s * z, -xi * eta)
        a = min(1.0, _step(s, aff[2]), _step(xi, aff[1]), _step(z, aff[3]),
                _step(eta, aff[4]))
        mu_aff = (float((s + a * aff[2]) @ (z + a * aff[3]))
                  + float((xi + a * aff[1]) @ (eta + a * aff[4]))) / (k + G)
        sigma = (mu_aff / mu) ** 3 if mu > 0 else 0.0
        dx, dxi, ds, dz, deta = nt.direction(-s * z - aff[2] * aff[3] + sigma * mu,
                                             -xi * eta - aff[1] * aff[4] + sigma * mu)
        a = min(1.0, 0.99 * min(_step(s, ds), _step(xi, dxi), _step(z, dz),
                                _step(eta, deta)))
        x, xi, s, z, eta = x + a * dx, xi + a * dxi, s + a * ds, z + a * dz, eta + a * deta
    _, _, x, xi, z, primal, dual = best
    return MasterQP(w=x[:n].copy(), b=float(x[n]) if bias else 0.0, xi=xi, z=z,
                    status=status, iterations=it, primal=primal, dual=dual, merit=best[0],
                    warm=warm if warm is not None else (x, xi, z, eta))
