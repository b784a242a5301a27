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

from dataclasses import dataclass, field

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
    n_roots : int
        Secular roots computed.
    n_deflated : int
        Components deflated (small weight or merged with a close eigenvalue).
    sweeps : int
        Root-finding sweeps used.
    neg_norm2 : float
        :math:`\\|M_-\\|_F^2` (sum of squared negative eigenvalues), summed from the
        negative eigenvalues themselves (never as :math:`\\|M\\|^2 - \\|M_+\\|^2`, which
        cancels when :math:`M` is nearly PSD and large).
    neg_quad : float
        :math:`v^\\top M_- v \\ge 0`, from the negative eigenpairs
        (:math:`\\sum_{\\mu_j<0} -\\mu_j/(\\sigma^2 N_j)` plus the deflated ones).
    vK0v : float
        :math:`v^\\top K_0 v`, as :math:`u^\\top\\Lambda u`.
    neg_trace : float
        :math:`\\mathrm{tr}\\,M_- = \\|M_-\\|_*` (sum of the magnitudes of the negative
        eigenvalues), for the rounding floor of the certificate
        (:func:`convexkern.math.robust_indefinite.rounding_floor`).
    u : ndarray
        :math:`Q^\\top v`, the coordinates of ``v`` in the eigenbasis of ``K0`` (a caller
        whose next ``v`` is a linear combination of earlier ones can combine these
        instead of paying another product with ``Q``).
    Mfull_v : ndarray (property)
        :math:`M v = K_0 v + \\sigma (v^\\top v) v`, computed on first access (one more
        product with ``Q``, which the robust oracle does not need).
    """

    Mv: np.ndarray
    norm2: float
    n_roots: int
    n_deflated: int
    sweeps: int
    neg_norm2: float
    neg_quad: float
    vK0v: float
    u: np.ndarray = field(repr=False, compare=False)
    _full: tuple = field(repr=False, compare=False)
    neg_trace: float = 0.0
    #: ``(key, mu)``: the roots of this call by interval (NaN where not computed) and the
    #: deflation pattern they belong to (``roots0`` of a later call)
    roots: tuple | None = field(default=None, repr=False, compare=False)

    @property
    def Mfull_v(self) -> np.ndarray:
        Q, lu, sigma, v = self._full
        return Q @ lu + sigma * float(v @ v) * v


#: relative secular residual below which a root's last step is taken without another
#: evaluation in :meth:`RankOneUpdate.positive_apply` (the steps converge quadratically
#: from there: the step's error is ~1e-16 relative, and N is recomputed at the root)
_ACCEPT = 1e-8

#: rows of the (roots x poles) resolvent processed at a time: the block stays in cache
#: and every reduction over it is a BLAS matrix-vector product
_BLOCK = 64

#: bytes of one (roots x poles) block buffer: the rows per block are chosen so that a
#: buffer stays near 512 KiB (two of them are in use), e.g. 21 rows at k = 3000 poles, 8
#: (the minimum) from k = 8192 on (at k = 3000, 64 rows per block took about
#: 1.4x as long per sweep as 16-32; measured under load, ratios in one run)
_BLOCK_BYTES = 1 << 19


def _sums(d: np.ndarray, z2: np.ndarray, dorig: np.ndarray, tau: np.ndarray,
          which: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``psi, psi', phi, phi'`` at :math:`\\mu_j = d_{o_j} + \\tau_j` (``dorig = d[o]``):
    :math:`\\psi_j = \\sum_{i \\le w_j} z_i^2/(d_i - \\mu_j)` (the poles left of root
    ``j``, ``w = which``; all terms negative), :math:`\\psi'_j = \\sum_{i\\le w_j}
    z_i^2/(d_i-\\mu_j)^2`, and :math:`\\phi, \\phi'` over the poles right of it.

    The differences are formed as :math:`(d_i - d_{o_j}) - \\tau_j` (exact poles relative
    to the origin, no cancellation near it), in blocks of at most :data:`_BLOCK` roots
    (fewer when the poles are many, :data:`_BLOCK_BYTES`); the sums
    over the poles left (right) of every root in a block are matrix-vector products, and
    only the columns between the block's first and last interval are masked."""
    m = which.size
    out = np.empty((4, m))
    for s, e, x, x2 in _reciprocal_blocks(d, dorig, tau):
        w = which[s:e]
        a, b = int(w.min()) + 1, int(w.max()) + 1  # [0, a): left of all; [b, k): right
        pl, dpl = x[:, :a] @ z2[:a], x2[:, :a] @ z2[:a]
        pr, dpr = x[:, b:] @ z2[b:], x2[:, b:] @ z2[b:]
        if b > a:
            left = np.arange(a, b)[None, :] <= w[:, None]
            zm = z2[a:b]
            xm, xm2 = x[:, a:b], x2[:, a:b]
            pl = pl + np.where(left, xm, 0.0) @ zm
            dpl = dpl + np.where(left, xm2, 0.0) @ zm
            pr = pr + np.where(left, 0.0, xm) @ zm
            dpr = dpr + np.where(left, 0.0, xm2) @ zm
        out[0, s:e], out[1, s:e], out[2, s:e], out[3, s:e] = pl, dpl, pr, dpr
    return out[0], out[1], out[2], out[3]


def _reciprocal_blocks(d: np.ndarray, dorig: np.ndarray, tau: np.ndarray):
    """For blocks of roots ``j`` in ``[s, e)`` (at most :data:`_BLOCK`, and about
    :data:`_BLOCK_BYTES` per buffer): ``(s, e, X, X2)`` with
    :math:`X_{ji} = 1/((d_i - d_{o_j}) - \tau_j)` and ``X2 = X**2``, in two buffers
    reused from block to block (the differences formed as in :func:`_sums`)."""
    m, k = tau.size, d.size
    rows = max(8, min(_BLOCK, _BLOCK_BYTES // (8 * max(k, 1))))
    nb0 = min(rows, max(m, 1))
    R = np.empty((nb0, k))
    R2 = np.empty((nb0, k))
    for s in range(0, m, rows):
        e = min(s + rows, m)
        x, x2 = R[: e - s], R2[: e - s]
        np.subtract(d[None, :], dorig[s:e, None], out=x)
        x -= tau[s:e, None]
        np.reciprocal(x, out=x)
        np.multiply(x, x, out=x2)
        yield s, e, x, x2


def _resolvent_combination(d: np.ndarray, z2: np.ndarray, dorig: np.ndarray,
                           tau: np.ndarray, mu: np.ndarray,
                           use: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(sum_j c_j / (d - mu_j), N)`` in one pass over blocks of roots: :math:`N_j =
    \\sum_i z_i^2/(d_i - \\mu_j)^2` at the final roots, :math:`c_j = \\mu_j/N_j` for the
    roots in ``use`` (0 for the others); :math:`\\mu_j = d_{o_j} + \\tau_j`, differences
    formed as in :func:`_sums`."""
    m = mu.size
    acc = np.zeros(d.size)
    N = np.empty(m)
    for s, e, x, x2 in _reciprocal_blocks(d, dorig, tau):
        Nb = x2 @ z2
        N[s:e] = Nb
        acc += np.where(use[s:e], mu[s:e] / Nb, 0.0) @ x
    return acc, N


def secular_roots(
    d: np.ndarray, z: np.ndarray, sigma: float, which: np.ndarray, *, max_sweeps: int = 60,
    rtol: float | None = None, mu0: np.ndarray | None = None, accept: float = 0.0,
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
    blocks of roots (:func:`_sums`).

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
        ps, _, ph, _ = _sums(d, z2, mid[cold], np.zeros(cold.size), which[cold])
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
        psi, dpsi, phi, dphi = _sums(d, z2, dorig[idx], ti, which[idx])
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
        _, dps, _, dph = _sums(d, z2, dorig[left_over], tau[left_over], which[left_over])
        N[left_over] = dps + dph
    return origin, tau, N, sweeps


@dataclass(frozen=True)
class _Reduced:
    """The secular problem after deflation: components ``small`` keep ``(lam_i, e_i)``;
    the kept ones form groups ``keep[starts[j]:ends[j]]`` of (numerically) equal
    eigenvalues, each carrying the pole ``d_j`` and the weight ``z_j`` (``sign_j`` the
    sign of ``u`` for a single component, 1 for a merged group)."""

    small: np.ndarray
    keep: np.ndarray
    starts: np.ndarray
    sizes: np.ndarray
    d: np.ndarray
    z: np.ndarray
    sign: np.ndarray

    def members(self, j: int) -> np.ndarray:
        s = int(self.starts[j])
        return self.keep[s: s + int(self.sizes[j])]

    def lift(self, rz: np.ndarray, u: np.ndarray, out: np.ndarray) -> None:
        """``out += L rz``: reduced coordinates back to the eigenbasis of ``K0`` (a single
        component gets ``sign * rz``, a merged group ``rz * u_G / ||u_G||``)."""
        single = self.sizes == 1
        out[self.keep[self.starts[single]]] += self.sign[single] * rz[single]
        for j in np.flatnonzero(~single):
            g = self.members(j)
            out[g] += rz[j] * u[g] / self.z[j]


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

    Attributes
    ----------
    lam, Q : the eigendecomposition of ``K0`` (``scipy.linalg.eigh``, computed once).
    eigh_calls : int
        Full eigendecompositions this object computed (1).

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
        self.eigh_calls = 1
        self.n = K0.shape[0]
        self.tol = tol
        self.warm_start = warm_start
        self._cache: tuple | None = None
        self._lam_scale = float(np.max(np.abs(self.lam))) if self.n else 0.0
        self._q32: np.ndarray | None = None  # Q in single precision (eigh(single=True))

    # -- reduction -----------------------------------------------------------------------
    def _reduce(self, u: np.ndarray, sigma: float) -> _Reduced:
        lam = self.lam
        unorm2 = float(u @ u)
        tol = self.tol if self.tol is not None else 8 * _EPS * max(self._lam_scale,
                                                                    sigma * unorm2, 1e-300)
        small = sigma * np.abs(u) * np.sqrt(unorm2) <= tol
        keep = np.flatnonzero(~small)
        # merge runs of close eigenvalues among the kept components
        if keep.size:
            gaps = np.diff(lam[keep]) > tol
            starts = np.concatenate([[0], np.flatnonzero(gaps) + 1])
        else:
            starts = np.zeros(0, dtype=np.intp)
        sizes = np.diff(np.append(starts, keep.size))
        first = keep[starts]
        d = lam[first]
        z = np.abs(u[first])
        sign = np.where(sizes == 1, np.sign(u[first]), 1.0)
        for j in np.flatnonzero(sizes > 1):
            z[j] = np.linalg.norm(u[keep[starts[j]: starts[j] + sizes[j]]])
        return _Reduced(small, keep, starts, sizes, d, z, sign)

    # -- public --------------------------------------------------------------------------
    def positive_apply(self, v: np.ndarray, sigma: float, *, side: str = "auto",
                       u: np.ndarray | None = None,
                       roots0: tuple | None = None) -> PositivePart:
        """:math:`M_+ v` and :math:`\\|M_+\\|_F^2` for :math:`M = K_0 + \\sigma vv^\\top`,
        in :math:`O(n^2)` plus the secular solve.

        ``side="positive"`` computes the positive eigenpairs; ``"negative"`` the negative
        ones, then :math:`M_+v = Mv - M_-v` and :math:`\\|M_+\\|^2 = \\|M\\|^2 -
        \\|M_-\\|^2` (by interlacing, only roots in intervals starting below zero can be
        negative); ``"auto"`` picks the side with fewer candidate roots.  Either way the
        negative roots are computed too (on the positive side, in the same secular solve)
        for ``neg_norm2`` and ``neg_quad``, which are never differences of large norms.
        ``u`` (optional) is :math:`Q^\\top v` when the caller has it (e.g. as a linear
        combination of earlier ``PositivePart.u``); then one product with ``Q`` is done
        per call instead of two.  ``roots0``: starting roots ``(key, mu)`` in the form of
        ``PositivePart.roots`` (e.g. extrapolated from two earlier calls' roots by an
        iterative method), used instead of the last call's when the deflation pattern
        matches; any guess is safe (one outside its interval is ignored).
        """
        sigma = check_positive(sigma, "sigma")
        lam, Q = self.lam, self.Q
        if u is None:
            u = Q.T @ v
        red = self._reduce(u, sigma)
        small, d, z = red.small, red.d, red.z
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
        neg_trace = -float(np.sum(np.where(small_neg, lam, 0.0)))
        neg_quad = float(np.sum(np.where(small_neg, -lam * u * u, 0.0)))
        n_defl = int(small.sum())
        multi = red.sizes > 1
        extra = (red.sizes[multi] - 1) * d[multi] ** 2  # directions orthogonal to u
        norm2 += float(np.sum(extra[keep_d(d[multi])]))
        neg_norm2 += float(np.sum(extra[d[multi] < 0]))
        neg_trace -= float(np.sum(((red.sizes[multi] - 1) * d[multi])[d[multi] < 0]))
        n_defl += int(np.sum(red.sizes[multi] - 1))
        sweeps = 0
        n_roots = 0
        if k:
            which_neg = np.arange(n_neg_cand)  # roots in (d_j, d_{j+1}) with d_j < 0
            if neg:
                which = which_neg
            else:  # skip intervals with d_{j+1} <= 0, but keep the negative roots' norm
                which = np.union1d(which_neg, np.arange(k - n_pos_cand, k))
            key = (side, small.tobytes(), red.sizes.tobytes())
            mu0 = None
            start = roots0 if roots0 is not None else self._cache
            if self.warm_start and start is not None and start[0] == key:
                mu0 = start[1][which]
            origin, tau, _, sweeps = secular_roots(d, z, sigma, which, mu0=mu0,
                                                   accept=_ACCEPT)
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
            neg_trace -= float(np.sum(mu[below]))
            need = np.flatnonzero(sel | below)
            if need.size:
                # M_+ z (or M_- z) and N at the final roots, in one pass
                comb, N = _resolvent_combination(d, z * z, d[origin[need]], tau[need],
                                                 mu[need], sel[need])
                # (q_j'u)^2 = (z'(D - mu_j)^{-1} z)^2 / N_j = 1 / (sigma^2 N_j) at a root
                nb = below[need]
                neg_quad += float(np.sum(-mu[need][nb] / (sigma * sigma * N[nb])))
                red.lift(-(z / sigma) * comb, u, r)
        uu = float(u @ u)
        lu = lam * u
        uKu = float(u @ lu)
        if neg:
            mfull_u = lu + sigma * uu * u  # M v in the eigenbasis of K0
            Mv = Q @ (mfull_u - r)
            normM = float(lam @ lam) + 2 * sigma * uKu + sigma * sigma * uu * uu
            norm2 = max(normM - norm2, 0.0)
        else:
            Mv = Q @ r
        return PositivePart(Mv=Mv, norm2=norm2, n_roots=n_roots, n_deflated=n_defl,
                            sweeps=sweeps, neg_norm2=neg_norm2,
                            neg_quad=max(neg_quad, 0.0), vK0v=uKu, u=u,
                            _full=(Q, lu, sigma, np.asarray(v, float)),
                            neg_trace=neg_trace,
                            roots=self._cache if self.warm_start else None)

    def _secular_all(self, v: np.ndarray, sigma: float):
        u = self.Q.T @ v
        red = self._reduce(u, sigma)
        roots = None
        if red.d.size:
            # warm start from the last positive_apply's roots when the deflation pattern
            # is the same (e.g. the certificate of the point an iterative method stopped
            # at): those roots take one sweep to confirm instead of a cold solve
            mu0 = None
            c = self._cache
            if self.warm_start and c is not None and c[0][1:] == (
                    red.small.tobytes(), red.sizes.tobytes()):
                mu0 = c[1]
            roots = secular_roots(red.d, red.z, sigma, np.arange(red.d.size), mu0=mu0)
        return u, red, roots

    def eigenvalues(self, v: np.ndarray, sigma: float) -> np.ndarray:
        """All eigenvalues of :math:`K_0 + \\sigma vv^\\top`, ascending (secular equation
        plus the deflated ones)."""
        v = check_matrix(v, "v", ndim=1)
        if v.size != self.n:
            raise InvalidInputError("v", f"has {v.size} entries, expected {self.n}")
        sigma = check_positive(sigma, "sigma")
        _, red, roots = self._secular_all(v, sigma)
        out = [self.lam[red.small], np.repeat(red.d, red.sizes - 1)]
        if roots is not None:
            out.append(red.d[roots[0]] + roots[1])
        return np.sort(np.concatenate(out))

    def eigh_reduced(self, v: np.ndarray, sigma: float) -> tuple[np.ndarray, np.ndarray]:
        """Eigenpairs of :math:`K_0 + \\sigma vv^\\top` in the eigenbasis of ``K0``:
        ``(w, W)`` with :math:`M \\approx (QW)\\,\\mathrm{diag}(w)\\,(QW)^\\top`, ``w``
        ascending, in :math:`O(n^2)` (no product with ``Q``).

        The eigenvector of a root :math:`\\mu_j` is :math:`(D - \\mu_j)^{-1}z/\\sqrt{N_j}`
        (lifted back through the deflation); a deflated component keeps :math:`e_i`; the
        other directions of a merged group are a Householder basis of the complement of
        :math:`u_G`.  Accurate, not trusted: a certificate built on them
        (:func:`convexkern.math.robust_indefinite.certified_lower`,
        :func:`convexkern.math.robust_indefinite.proxy_kernel`) is valid for any
        ``(w, V)``.
        """
        sigma = check_positive(sigma, "sigma")
        n, lam = self.n, self.lam
        u, red, roots = self._secular_all(v, sigma)
        w = np.empty(n)
        W = np.zeros((n, n))
        sm = np.flatnonzero(red.small)
        c = sm.size
        w[:c] = lam[sm]
        W[sm, np.arange(c)] = 1.0
        for j in np.flatnonzero(red.sizes > 1):
            g = red.members(j)
            uh = u[g] / red.z[j]
            h = uh.copy()
            h[0] += 1.0 if uh[0] >= 0 else -1.0  # Householder: H uh = -+e_1
            H = np.eye(g.size) - 2.0 * np.outer(h, h) / float(h @ h)
            w[c: c + g.size - 1] = red.d[j]
            W[np.ix_(g, np.arange(c, c + g.size - 1))] = H[:, 1:]
            c += g.size - 1
        if roots is not None:
            origin, tau, _, _ = roots
            d, z = red.d, red.z
            k = d.size
            w[c:] = d[origin] + tau
            # reduced eigenvectors (D - mu_j)^{-1} z / sqrt(N_j), lifted row by row
            Wr = np.subtract(d[:, None], d[origin][None, :])
            Wr -= tau[None, :]
            np.divide(z[:, None], Wr, out=Wr)
            Wr /= np.sqrt(np.einsum("ij,ij->j", Wr, Wr))[None, :]  # N at the roots
            single = red.sizes == 1
            rows = red.keep[red.starts[single]]
            W[rows, c: c + k] = red.sign[single][:, None] * Wr[single]
            for j in np.flatnonzero(~single):
                g = red.members(j)
                W[g, c: c + k] = np.outer(u[g] / red.z[j], Wr[j])
        order = np.argsort(w, kind="stable")
        return w[order], W[:, order]

    def eigh(self, v: np.ndarray, sigma: float, *,
             single: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Eigenpairs ``(w, V)`` of :math:`K_0 + \\sigma vv^\\top` from the update
        (:meth:`eigh_reduced`, then ``V = Q W``: one matrix product, no new
        decomposition).  ``single``: the product in single precision (half the time;
        ``V`` accurate to about 1e-7, returned as float64), for callers that only need
        approximate eigenvectors (the certificate, which does not trust them)."""
        w, W = self.eigh_reduced(v, sigma)
        if single:
            if self._q32 is None:
                self._q32 = self.Q.astype(np.float32)
            return w, (self._q32 @ W.astype(np.float32)).astype(np.float64)
        return w, self.Q @ W

    def positive_part(self, v: np.ndarray, sigma: float) -> np.ndarray:
        """The matrix :math:`M_+` (``O(n^3)``; for tests and for the prediction step)."""
        w, V = self.eigh(v, sigma)
        Mp = positive_part(w, V)
        return 0.5 * (Mp + Mp.T)
