r"""Eigen-update of a symmetric matrix after a positive rank-one change (secular equation).

The robust SVM of Luss & d'Aspremont (NIPS 2007) needs, at every iteration, the positive
part of :math:`M = K_0 + \sigma vv^\top` (:math:`\sigma = 1/(4\rho) > 0`): its squared
Frobenius norm (the objective) and :math:`M_+ v` (the gradient).  With
:math:`K_0 = Q\Lambda Q^\top` computed once, :math:`M = Q(\Lambda + \sigma uu^\top)Q^\top`,
:math:`u = Q^\top v`, and the eigenvalues :math:`\mu` of :math:`D + \sigma zz^\top` (``D``
diagonal) are the roots of the secular equation (Golub 1973; Bunch, Nielsen & Sorensen
1978)

.. math:: g(\mu) = \frac{1}{\sigma} + \sum_i \frac{z_i^2}{d_i - \mu} = 0,

one in each interval :math:`(d_i, d_{i+1})` and the last in
:math:`(d_k, d_k + \sigma\|z\|^2]` (interlacing).  The eigenvector of :math:`\mu_j` is
proportional to :math:`(D - \mu_j)^{-1}z`, so with
:math:`N_j = \sum_i z_i^2/(d_i-\mu_j)^2 = g'(\mu_j)` and :math:`z^\top(D-\mu_j)^{-1}z =
-1/\sigma` at a root,

.. math:: (D + \sigma zz^\top)_+ z = -\frac{1}{\sigma}\sum_{\mu_j > 0}
          \frac{\mu_j}{N_j}(D - \mu_j)^{-1} z,

an :math:`O(k\,k_+)` product.  Roots in intervals entirely below zero are negative; they
are computed only for :math:`\|M_-\|_F^2` and :math:`v^\top M_- v` (the robust objective
needs these from the negative eigenvalues themselves: :math:`\|M\|^2 - \|M_+\|^2`
cancels catastrophically when :math:`M` is large and nearly PSD).  Each root is found in
shifted coordinates (origin at the nearer pole, so the differences :math:`d_i - \mu_j`
are computed without cancellation) by the two-pole rational model of LAPACK's ``dlaed4``
("middle way"), safeguarded by bisection.

Deflation (as in LAPACK ``dlaed2``): components with :math:`\sigma|z_i|\|z\|` below
``tol`` keep their eigenpair :math:`(d_i, e_i)`; groups of eigenvalues closer than ``tol``
are merged by a rotation inside the group, after which one direction carries
:math:`\|z_G\|` and the others are eigenvectors with eigenvalue :math:`d_G`, orthogonal
to :math:`z` (they add :math:`d_G^2` to the norm and nothing to :math:`M_+v`).

Per update the cost is two products with ``Q`` (:math:`O(n^2)`) plus :math:`O(k k_+)` per
root-finding sweep (a handful of sweeps), against :math:`O(n^3)` for a new
eigendecomposition.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla

from .._validation import check_kernel, check_matrix, check_positive
from ..errors import InvalidInputError
from ..spectral import positive_part

__all__ = ["RankOneUpdate", "PositivePart", "secular_roots"]

_EPS = np.finfo(float).eps


@dataclass(frozen=True)
class PositivePart:
    """What :meth:`RankOneUpdate.positive_apply` returns.

    Attributes
    ----------
    Mv : ndarray
        :math:`M_+ v`.
    norm2 : float
        :math:`\\|M_+\\|_F^2` (sum of squared positive eigenvalues).
    Mfull_v : ndarray
        :math:`M v = K_0 v + \\sigma (v^\\top v) v`.
    neg_norm2 : float
        :math:`\\|M_-\\|_F^2` (sum of squared negative eigenvalues), summed from the
        negative eigenvalues themselves (never as :math:`\\|M\\|^2 - \\|M_+\\|^2`, which
        cancels when :math:`M` is nearly PSD and large).
    neg_quad : float
        :math:`v^\\top M_- v \\ge 0`, from the negative eigenpairs
        (:math:`\\sum_{\\mu_j<0} -\\mu_j/(\\sigma^2 N_j)` plus the deflated ones).
    vK0v : float
        :math:`v^\\top K_0 v`, as :math:`u^\\top\\Lambda u`.
    n_roots : int
        Secular roots computed.
    n_deflated : int
        Components deflated (small weight or merged with a close eigenvalue).
    sweeps : int
        Root-finding sweeps used.
    """

    Mv: np.ndarray
    norm2: float
    Mfull_v: np.ndarray
    n_roots: int
    n_deflated: int
    sweeps: int
    neg_norm2: float
    neg_quad: float
    vK0v: float


def secular_roots(
    d: np.ndarray, z: np.ndarray, sigma: float, which: np.ndarray, *, max_sweeps: int = 60,
    rtol: float | None = None, mu0: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Roots of :math:`1/\\sigma + \\sum_i z_i^2/(d_i - \\mu)` in the intervals ``which``.

    ``d`` strictly increasing, ``z`` without zeros, ``sigma > 0``.  Root ``j`` lies in
    ``(d[j], d[j+1])`` (``(d[-1], d[-1] + sigma |z|^2]`` for the last).  Iteration stops
    when ``|g| <= rtol * (1/sigma + sum_i |z_i^2/(d_i - mu)|)`` (default ``4 k eps``) or
    the bracket is exhausted.  ``mu0`` (one guess per root, NaN for none) warm-starts the
    iteration, e.g. from the previous step of an iterative method.  Returns
    ``(origin, tau, N, sweeps)`` with
    :math:`\\mu_j = d_{origin_j} + \\tau_j` and :math:`N_j = \\sum_i z_i^2/(d_i-\\mu_j)^2`.
    """
    k = d.size
    which = np.asarray(which, dtype=np.intp)
    m = which.size
    if m == 0:
        return which, np.zeros(0), np.zeros(0), 0
    rtol = 4.0 * k * _EPS if rtol is None else float(rtol)
    z2 = z * z
    inv_s = 1.0 / sigma
    last = which == k - 1
    nxt = np.minimum(which + 1, k - 1)
    width = np.where(last, sigma * float(z2.sum()), d[nxt] - d[which])
    mid = d[which] + 0.5 * width
    buf = np.empty((m, k))  # (m, k) layout: rows are roots
    warm = np.zeros(m, dtype=bool)
    if mu0 is not None:
        mu0 = np.asarray(mu0, dtype=float)
        warm = np.isfinite(mu0) & (mu0 > d[which]) & ((mu0 < d[nxt]) | last) & (
            mu0 < d[which] + width)
    if np.all(warm):
        left = last | (mu0 <= mid)
    else:
        # choose the origin: the pole nearer the root (sign of g at the interval midpoint)
        np.subtract(d[None, :], mid[:, None], out=buf)
        np.divide(z2[None, :], buf, out=buf)
        gm = inv_s + buf.sum(axis=1)
        left = last | (gm >= 0)  # g(mid) >= 0: root in the left half -> origin at d[j]
        if np.any(warm):
            left = np.where(warm, last | (mu0 <= mid), left)
    origin = np.where(left, which, nxt)
    Dm = np.subtract(d[None, :], d[origin][:, None])  # exact poles relative to each origin
    rows = np.arange(m)
    lo = np.where(left, 0.0, -0.5 * width)
    hi = np.where(left, np.where(last, width, 0.5 * width), 0.0)
    lo = np.where(warm & ~left, -width, lo)
    hi = np.where(warm & left & ~last, width, hi)
    tau = np.where(warm, (mu0 if mu0 is not None else 0.0) - d[origin], 0.5 * (lo + hi))
    tau = np.where((tau > lo) & (tau < hi), tau, 0.5 * (lo + hi))
    p = Dm[rows, which]
    q = np.where(last, np.inf, Dm[rows, nxt])
    N = np.zeros(m)
    active = np.ones(m, dtype=bool)
    t = np.empty((m, k))
    t2 = np.empty((m, k))
    sweeps = 0
    for sweep in range(1, max_sweeps + 1):
        idx = np.flatnonzero(active)
        if idx.size == 0:
            break
        sweeps = sweep
        full = idx.size == m
        na = idx.size
        diff = buf[:na]
        np.subtract(Dm if full else Dm[idx], tau[idx][:, None], out=diff)
        tt, tt2 = t[:na], t2[:na]
        np.divide(z2[None, :], diff, out=tt)
        np.divide(tt, diff, out=tt2)
        # left terms (i <= j) are all negative, right terms positive: cumulative sums
        np.cumsum(tt, axis=1, out=tt)
        np.cumsum(tt2, axis=1, out=tt2)
        wi = which[idx]
        ri = rows[:na]
        psi = tt[ri, wi]
        dpsi = tt2[ri, wi]
        phi = tt[:, -1] - psi
        dphi = tt2[:, -1] - dpsi
        g = inv_s + psi + phi
        N[idx] = dpsi + dphi
        scale = inv_s + phi - psi
        ti = tau[idx]
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
        active[idx] = ~done
    left_over = np.flatnonzero(active)  # hit max_sweeps: N at the returned tau
    if left_over.size:
        diff = Dm[left_over] - tau[left_over][:, None]
        N[left_over] = (z2[None, :] / (diff * diff)).sum(axis=1)
    return origin, tau, N, sweeps


class RankOneUpdate:
    """Positive part of :math:`K_0 + \\sigma vv^\\top` from one eigendecomposition of ``K0``.

    Parameters
    ----------
    K0 : (n, n) symmetric array
    tol : float, optional
        Absolute deflation threshold; default ``8 eps max(|lambda|_max, sigma |v|^2)``
        per update.
    warm_start : bool
        Start each secular solve of :meth:`positive_apply` from the previous roots (when
        the deflation pattern is unchanged): iterative methods move ``v`` a little per
        step, and the roots follow.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> A = rng.standard_normal((6, 6)); K0 = A + A.T; v = rng.standard_normal(6)
    >>> r1 = RankOneUpdate(K0)
    >>> w = np.linalg.eigvalsh(K0 + 0.5 * np.outer(v, v))
    >>> bool(np.allclose(r1.eigenvalues(v, 0.5), w))
    True
    """

    def __init__(self, K0: np.ndarray, *, tol: float | None = None, check: bool = True,
                 warm_start: bool = True) -> None:
        if check:
            K0 = check_kernel(K0, "K0")
        self.K0 = K0
        self.lam, self.Q = sla.eigh(K0, driver="evd", check_finite=False)
        self.n = K0.shape[0]
        self.tol = tol
        self.warm_start = warm_start
        self._cache: tuple | None = None
        self._lam_scale = float(np.max(np.abs(self.lam))) if self.n else 0.0

    # -- reduction -----------------------------------------------------------------------
    def _reduce(self, u: np.ndarray, sigma: float):
        lam = self.lam
        unorm2 = float(u @ u)
        tol = self.tol if self.tol is not None else 8 * _EPS * max(self._lam_scale,
                                                                    sigma * unorm2, 1e-300)
        small = sigma * np.abs(u) * np.sqrt(unorm2) <= tol
        keep = np.flatnonzero(~small)
        # merge runs of close eigenvalues among the kept components
        groups: list[np.ndarray] = []
        if keep.size:
            gaps = np.diff(lam[keep]) > tol
            starts = np.concatenate([[0], np.flatnonzero(gaps) + 1])
            ends = np.concatenate([starts[1:], [keep.size]])
            groups = [keep[s:e] for s, e in zip(starts, ends, strict=True)]
        d = np.array([lam[g[0]] for g in groups])
        z = np.array([np.linalg.norm(u[g]) if g.size > 1 else abs(u[g[0]]) for g in groups])
        sign = np.array([1.0 if g.size > 1 else np.sign(u[g[0]]) for g in groups])
        return small, groups, d, z, sign

    # -- public --------------------------------------------------------------------------
    def positive_apply(self, v: np.ndarray, sigma: float, *, side: str = "auto") -> PositivePart:
        """:math:`M_+ v` and :math:`\\|M_+\\|_F^2` for :math:`M = K_0 + \\sigma vv^\\top`,
        in :math:`O(n^2)` plus the secular solve.

        ``side="positive"`` computes the positive eigenpairs; ``"negative"`` the negative
        ones, then :math:`M_+v = Mv - M_-v` and :math:`\\|M_+\\|^2 = \\|M\\|^2 -
        \\|M_-\\|^2` (by interlacing, only roots in intervals starting below zero can be
        negative); ``"auto"`` picks the side with fewer candidate roots.  Either way the
        negative roots are computed too (on the positive side, in the same secular solve)
        for ``neg_norm2`` and ``neg_quad``, which are never differences of large norms.
        """
        sigma = check_positive(sigma, "sigma")
        lam, Q = self.lam, self.Q
        u = Q.T @ v
        small, groups, d, z, sign = self._reduce(u, sigma)
        k = d.size
        n_pos_cand = k - max(int(np.searchsorted(d, 0.0, side="right")) - 1, 0)
        n_neg_cand = int(np.count_nonzero(d < 0))
        if side == "auto":
            side = "negative" if n_neg_cand < n_pos_cand else "positive"
        if side not in ("positive", "negative"):
            raise InvalidInputError(
                "side", f"must be 'auto', 'positive' or 'negative', got {side!r}")
        neg = side == "negative"
        keep_d = (lambda x: x < 0) if neg else (lambda x: x > 0)
        r = np.where(small & keep_d(lam), lam * u, 0.0)
        norm2 = float(np.sum(np.where(small & keep_d(lam), lam, 0.0) ** 2))
        # ||M_-||^2 and v'M_-v from the negative eigenvalues themselves, on either side
        small_neg = small & (lam < 0)
        neg_norm2 = float(np.sum(np.where(small_neg, lam, 0.0) ** 2))
        neg_quad = float(np.sum(np.where(small_neg, -lam * u * u, 0.0)))
        n_defl = int(small.sum())
        for g, dg in zip(groups, d, strict=True):
            if g.size > 1 and keep_d(dg):
                norm2 += (g.size - 1) * dg * dg
            if g.size > 1 and dg < 0:  # directions orthogonal to u: nothing in v'M_-v
                neg_norm2 += (g.size - 1) * dg * dg
            n_defl += g.size - 1
        sweeps = 0
        n_roots = 0
        if k:
            which_neg = np.arange(n_neg_cand)  # roots in (d_j, d_{j+1}) with d_j < 0
            if neg:
                which = which_neg
            else:  # skip intervals with d_{j+1} <= 0, but keep the negative roots' norm
                which = np.union1d(which_neg, np.arange(k - n_pos_cand, k))
            key = (side, small.tobytes(), tuple(g.size for g in groups))
            mu0 = None
            if self.warm_start and self._cache is not None and self._cache[0] == key:
                mu0 = self._cache[1][which]
            origin, tau, N, sweeps = secular_roots(d, z, sigma, which, mu0=mu0)
            mu = d[origin] + tau
            if self.warm_start:
                full = np.full(k, np.nan)
                full[which] = mu
                self._cache = (key, full)
            sel = keep_d(mu)
            n_roots = which.size
            norm2 += float(np.sum(mu[sel] ** 2))
            below = mu < 0
            neg_norm2 += float(np.sum(mu[below] ** 2))
            # (q_j'u)^2 = (z'(D - mu_j)^{-1} z)^2 / N_j = 1 / (sigma^2 N_j) at a root
            neg_quad += float(np.sum(-mu[below] / (sigma * sigma * N[below])))
            if np.any(sel):
                Dm = d[None, :] - d[origin[sel]][:, None]
                Dm -= tau[sel][:, None]
                np.divide(1.0, Dm, out=Dm)
                rz = -(z / sigma) * ((mu[sel] / N[sel]) @ Dm)
                for j, g in enumerate(groups):
                    if g.size == 1:
                        r[g[0]] += sign[j] * rz[j]
                    else:
                        r[g] += rz[j] * u[g] / z[j]
        uu = float(u @ u)
        uKu = float(u @ (lam * u))
        mfull_u = lam * u + sigma * uu * u  # M v in the eigenbasis of K0
        if neg:
            Mv = Q @ (mfull_u - r)
            normM = float(lam @ lam) + 2 * sigma * uKu + sigma * sigma * uu * uu
            norm2 = max(normM - norm2, 0.0)
        else:
            Mv = Q @ r
        Mfull_v = Q @ (lam * u) + sigma * float(v @ v) * v
        return PositivePart(Mv=Mv, norm2=norm2, Mfull_v=Mfull_v, n_roots=n_roots,
                            n_deflated=n_defl, sweeps=sweeps, neg_norm2=neg_norm2,
                            neg_quad=max(neg_quad, 0.0), vK0v=uKu)

    def eigenvalues(self, v: np.ndarray, sigma: float) -> np.ndarray:
        """All eigenvalues of :math:`K_0 + \\sigma vv^\\top`, ascending (secular equation
        plus the deflated ones)."""
        v = check_matrix(v, "v", ndim=1)
        if v.size != self.n:
            raise InvalidInputError("v", f"has {v.size} entries, expected {self.n}")
        sigma = check_positive(sigma, "sigma")
        u = self.Q.T @ v
        small, groups, d, z, _ = self._reduce(u, sigma)
        out = list(self.lam[small])
        for g, dg in zip(groups, d, strict=True):
            out += [dg] * (g.size - 1)
        if d.size:
            origin, tau, _, _ = secular_roots(d, z, sigma, np.arange(d.size))
            out += list(d[origin] + tau)
        return np.sort(np.asarray(out))

    def positive_part(self, v: np.ndarray, sigma: float) -> np.ndarray:
        """The matrix :math:`M_+` (``O(n^3)``; for tests and for the prediction step)."""
        sigma = check_positive(sigma, "sigma")
        lam, Q = self.lam, self.Q
        u = Q.T @ v
        small, groups, d, z, sign = self._reduce(u, sigma)
        n = self.n
        B = np.diag(np.where(small & (lam > 0), lam, 0.0))  # in the Q basis
        if d.size:
            origin, tau, N, _ = secular_roots(d, z, sigma, np.arange(d.size))
            mu = d[origin] + tau
            W = z[:, None] / (d[:, None] - d[origin][None, :] - tau[None, :]) / np.sqrt(N)
            # lift reduced eigenvectors back to the Q basis
            L = np.zeros((n, d.size))
            for j, g in enumerate(groups):
                if g.size == 1:
                    L[g[0], j] = sign[j]
                else:
                    L[g, j] = u[g] / z[j]
                    if d[j] > 0:
                        uh = u[g] / z[j]
                        B[np.ix_(g, g)] += d[j] * (np.eye(g.size) - np.outer(uh, uh))
            B += positive_part(mu, L @ W)
        Mp = Q @ B @ Q.T
        return 0.5 * (Mp + Mp.T)
