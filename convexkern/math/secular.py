r"""The secular equation of a positive rank-one update, solved for many roots at once.

Roots of :math:`g(\mu) = 1/\sigma + \sum_i z_i^2/(d_i - \mu)` (Golub 1973; Bunch, Nielsen
& Sorensen 1978), one per interval, for the eigen-update of
:mod:`convexkern.math.rank_one` (the robust SVM of Luss & d'Aspremont, NIPS 2007).  Each
sweep evaluates :math:`g` and its derivative at every active root: a ``roots x poles``
block of reciprocals whose sums are matrix-vector products.  Those blocks run on the
device of :mod:`convexkern.math.device` (numpy on the CPU, CuPy on a GPU); the
per-root logic (brackets, the two-pole model of LAPACK's ``dlaed4``) stays on the host,
on vectors of length ``k``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .device import to_host

__all__ = ["Poles", "secular_roots", "resolvent_combination", "ACCEPT"]

_EPS = np.finfo(float).eps

#: relative secular residual below which a root's last step is taken without another
#: evaluation in :meth:`convexkern.math.rank_one.RankOneUpdate.positive_apply` (the steps
#: converge quadratically from there: the step's error is ~1e-16 relative, and N is
#: recomputed at the root)
ACCEPT = 1e-8

#: rows of the (roots x poles) resolvent processed at a time on the CPU: the block stays
#: in cache and every reduction over it is a BLAS matrix-vector product
_BLOCK = 64

#: bytes of one (roots x poles) block buffer on the CPU: the rows per block are chosen so
#: that a buffer stays near 512 KiB (two of them are in use), e.g. 21 rows at k = 3000
#: poles, 8 (the minimum) from k = 8192 on (at k = 3000, 64 rows per block took about
#: 1.4x as long per sweep as 16-32; measured under load, ratios in one run)
_BLOCK_BYTES = 1 << 19

#: entries of one block on a GPU (256 MiB of doubles): few, large kernels, not
#: thousands of cache-sized ones
_GPU_BLOCK_ENTRIES = 1 << 25


class Poles:
    """The poles ``d`` (strictly increasing) and squared weights ``z2`` of one secular
    equation, with their copies on the device ``xp`` (``numpy`` or ``cupy``) that the
    blocks are formed on."""

    def __init__(self, d: np.ndarray, z2: np.ndarray, xp: Any = np) -> None:
        self.d, self.z2, self.xp = d, z2, xp
        self.dx = d if xp is np else xp.asarray(d)
        self.z2x = z2 if xp is np else xp.asarray(z2)

    def rows(self) -> int:
        k = max(self.d.size, 1)
        if self.xp is np:
            return max(8, min(_BLOCK, _BLOCK_BYTES // (8 * k)))
        return max(8, _GPU_BLOCK_ENTRIES // k)


def _reciprocal_blocks(P: Poles, dorig: np.ndarray, tau: np.ndarray):
    """For blocks of roots ``j`` in ``[s, e)``: ``(s, e, X, X2)`` on the device, with
    :math:`X_{ji} = 1/((d_i - d_{o_j}) - \\tau_j)` and ``X2 = X**2`` (on the CPU in two
    buffers reused from block to block; the differences formed as in :func:`_sums`)."""
    xp, m, k = P.xp, tau.size, P.d.size
    rows = P.rows()
    nb0 = min(rows, max(m, 1))
    R = xp.empty((nb0, k))
    R2 = xp.empty((nb0, k))
    do, ta = (dorig, tau) if xp is np else (xp.asarray(dorig), xp.asarray(tau))
    for s in range(0, m, rows):
        e = min(s + rows, m)
        x, x2 = R[: e - s], R2[: e - s]
        xp.subtract(P.dx[None, :], do[s:e, None], out=x)
        x -= ta[s:e, None]
        xp.reciprocal(x, out=x)
        xp.multiply(x, x, out=x2)
        yield s, e, x, x2


def _sums(P: Poles, dorig: np.ndarray, tau: np.ndarray,
          which: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``psi, psi', phi, phi'`` at :math:`\\mu_j = d_{o_j} + \\tau_j` (``dorig = d[o]``):
    :math:`\\psi_j = \\sum_{i \\le w_j} z_i^2/(d_i - \\mu_j)` (the poles left of root
    ``j``, ``w = which``; all terms negative), :math:`\\psi'_j = \\sum_{i\\le w_j}
    z_i^2/(d_i-\\mu_j)^2`, and :math:`\\phi, \\phi'` over the poles right of it.

    The differences are formed as :math:`(d_i - d_{o_j}) - \\tau_j` (exact poles relative
    to the origin, no cancellation near it), in blocks of roots (:meth:`Poles.rows`); the
    sums over the poles left (right) of every root in a block are matrix-vector
    products, and only the columns between the block's first and last interval are
    masked.  Returned on the host."""
    xp, z2 = P.xp, P.z2x
    m = which.size
    out = xp.empty((4, m))
    for s, e, x, x2 in _reciprocal_blocks(P, dorig, tau):
        w = which[s:e]
        a, b = int(w.min()) + 1, int(w.max()) + 1  # [0, a): left of all; [b, k): right
        pl, dpl = x[:, :a] @ z2[:a], x2[:, :a] @ z2[:a]
        pr, dpr = x[:, b:] @ z2[b:], x2[:, b:] @ z2[b:]
        if b > a:
            wx = w if xp is np else xp.asarray(w)
            left = xp.arange(a, b)[None, :] <= wx[:, None]
            zm = z2[a:b]
            xm, xm2 = x[:, a:b], x2[:, a:b]
            pl = pl + xp.where(left, xm, 0.0) @ zm
            dpl = dpl + xp.where(left, xm2, 0.0) @ zm
            pr = pr + xp.where(left, 0.0, xm) @ zm
            dpr = dpr + xp.where(left, 0.0, xm2) @ zm
        out[0, s:e], out[1, s:e], out[2, s:e], out[3, s:e] = pl, dpl, pr, dpr
    out = to_host(out)
    return out[0], out[1], out[2], out[3]


def resolvent_combination(P: Poles, dorig: np.ndarray, tau: np.ndarray, mu: np.ndarray,
                          use: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(sum_j c_j / (d - mu_j), N)`` in one pass over blocks of roots, on the host:
    :math:`N_j = \\sum_i z_i^2/(d_i - \\mu_j)^2` at the final roots, :math:`c_j =
    \\mu_j/N_j` for the roots in ``use`` (0 for the others); :math:`\\mu_j = d_{o_j} +
    \\tau_j`, differences formed as in :func:`_sums`."""
    xp = P.xp
    m = mu.size
    acc = xp.zeros(P.d.size)
    N = xp.empty(m)
    mux, usex = (mu, use) if xp is np else (xp.asarray(mu), xp.asarray(use))
    for s, e, x, x2 in _reciprocal_blocks(P, dorig, tau):
        Nb = x2 @ P.z2x
        N[s:e] = Nb
        acc += xp.where(usex[s:e], mux[s:e] / Nb, 0.0) @ x
    return to_host(acc), to_host(N)


def secular_roots(
    d: np.ndarray, z: np.ndarray, sigma: float, which: np.ndarray, *, max_sweeps: int = 60,
    rtol: float | None = None, mu0: np.ndarray | None = None, accept: float = 0.0,
    xp: Any = np,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Roots of :math:`1/\\sigma + \\sum_i z_i^2/(d_i - \\mu)` in the intervals ``which``.

    ``d`` strictly increasing, ``z`` without zeros, ``sigma > 0``.  Root ``j`` lies in
    ``(d[j], d[j+1])`` (``(d[-1], d[-1] + sigma |z|^2]`` for the last).  Iteration stops
    when ``|g| <= rtol * (1/sigma + sum_i |z_i^2/(d_i - mu)|)`` (default ``4 k eps``) or
    the bracket is exhausted.  ``mu0`` (one guess per root, NaN for none) warm-starts the
    iteration, e.g. from the previous step of an iterative method.  Returns
    ``(origin, tau, N, sweeps)`` with
    :math:`\\mu_j = d_{origin_j} + \\tau_j` and :math:`N_j = \\sum_i z_i^2/(d_i-\\mu_j)^2`.
    Each sweep costs :math:`O(k)` per active root, as BLAS matrix-vector products over
    blocks of roots (:func:`_sums`), on the device of the array module ``xp`` (``numpy``,
    the default, or ``cupy``); inputs and outputs are numpy arrays.

    ``accept > 0``: a root whose ``|g|`` is already at most ``accept`` times the scale
    takes its last (quadratically convergent) step without a further evaluation, saving
    a sweep; its ``N`` is then that of the point before the step (callers that need ``N``
    at the root recompute it, as :meth:`RankOneUpdate.positive_apply` does).
    """
    k = d.size
    which = np.asarray(which, dtype=np.intp)
    m = which.size
    if m == 0:
        return which, np.zeros(0), np.zeros(0), 0
    rtol = 4.0 * k * _EPS if rtol is None else float(rtol)
    z2 = z * z
    P = Poles(d, z2, xp)
    inv_s = 1.0 / sigma
    last = which == k - 1
    nxt = np.minimum(which + 1, k - 1)
    width = np.where(last, sigma * float(z2.sum()), d[nxt] - d[which])
    mid = d[which] + 0.5 * width
    warm = np.zeros(m, dtype=bool)
    if mu0 is not None:
        mu0 = np.asarray(mu0, dtype=float)
        warm = np.isfinite(mu0) & (mu0 > d[which]) & ((mu0 < d[nxt]) | last) & (
            mu0 < d[which] + width)
    if np.all(warm):
        left = last | (mu0 <= mid)
    else:
        # choose the origin: the pole nearer the root (sign of g at the interval midpoint),
        # evaluated only for the roots without a usable warm start
        cold = np.flatnonzero(~warm)
        ps, _, ph, _ = _sums(P, mid[cold], np.zeros(cold.size), which[cold])
        gm = inv_s + ps + ph
        left = last.copy() if mu0 is None else last | (warm & (mu0 <= mid))
        left[cold] |= gm >= 0  # g(mid) >= 0: root in the left half -> origin at d[j]
    origin = np.where(left, which, nxt)
    dorig = d[origin]
    lo = np.where(left, 0.0, -0.5 * width)
    hi = np.where(left, np.where(last, width, 0.5 * width), 0.0)
    lo = np.where(warm & ~left, -width, lo)
    hi = np.where(warm & left & ~last, width, hi)
    tau = np.where(warm, (mu0 if mu0 is not None else 0.0) - dorig, 0.5 * (lo + hi))
    tau = np.where((tau > lo) & (tau < hi), tau, 0.5 * (lo + hi))
    p = d[which] - dorig  # the poles around each root, relative to its origin
    q = np.where(last, np.inf, d[nxt] - dorig)
    N = np.zeros(m)
    active = np.ones(m, dtype=bool)
    sweeps = 0
    for sweep in range(1, max_sweeps + 1):
        idx = np.flatnonzero(active)
        if idx.size == 0:
            break
        sweeps = sweep
        ti = tau[idx]
        psi, dpsi, phi, dphi = _sums(P, dorig[idx], ti, which[idx])
        g = inv_s + psi + phi
        N[idx] = dpsi + dphi
        scale = inv_s + phi - psi
        lo_i = np.where(g < 0, ti, lo[idx])
        hi_i = np.where(g > 0, ti, hi[idx])
        lo[idx], hi[idx] = lo_i, hi_i
        done = (np.abs(g) <= rtol * scale) | (hi_i - lo_i <= 4 * _EPS * np.maximum(
            np.abs(lo_i), np.abs(hi_i)) + 1e-300)
        # two-pole rational model: c + s1/(p - x) + s2/(q - x) = 0
        pi, qi = p[idx], q[idx]
        dp = pi - ti
        s1 = dpsi * dp * dp
        a1 = psi - dpsi * dp
        fin = np.isfinite(qi)
        dq = np.where(fin, qi - ti, 1.0)
        s2 = np.where(fin, dphi * dq * dq, 0.0)
        a2 = np.where(fin, phi - dphi * dq, phi)
        c = inv_s + a1 + a2
        with np.errstate(divide="ignore", invalid="ignore"):
            # quadratic c x^2 - (c (p + q) + s1 + s2) x + (c p q + s1 q + s2 p) = 0 on (p, q)
            qq = np.where(fin, qi, 0.0)
            A = c
            B = -(c * (pi + qq) + s1 + s2)
            Cc = c * pi * qq + s1 * qq + s2 * pi
            disc = np.sqrt(np.maximum(B * B - 4 * A * Cc, 0.0))
            qn = -0.5 * (B + np.copysign(disc, B))
            x1 = qn / A
            x2 = Cc / qn
            in1 = (x1 > pi) & (x1 < qq)
            x_int = np.where(in1, x1, x2)
            x_last = pi + s1 / c
            x = np.where(fin, x_int, np.where(c > 0, x_last, np.nan))
        ok = np.isfinite(x) & (x > lo_i) & (x < hi_i)
        x = np.where(ok, x, 0.5 * (lo_i + hi_i))
        tau[idx] = np.where(done, ti, x)
        if accept > 0:
            done = done | (ok & (np.abs(g) <= accept * scale))
        active[idx] = ~done
    left_over = np.flatnonzero(active)  # hit max_sweeps: N at the returned tau
    if left_over.size:
        _, dps, _, dph = _sums(P, dorig[left_over], tau[left_over], which[left_over])
        N[left_over] = dps + dph
    return origin, tau, N, sweeps
