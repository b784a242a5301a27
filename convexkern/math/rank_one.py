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
from typing import Any

import numpy as np
import scipy.linalg as sla

from .._validation import check_kernel, check_matrix, check_positive
from ..errors import InvalidInputError
from ..spectral import positive_part
from .device import dot, module, resolve, to_device, to_host
from .secular import ACCEPT, Poles, resolvent_combination, secular_roots

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
        return dot(Q, lu) + sigma * float(v @ v) * v


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
    device : {"cpu", "gpu", "auto"}
        Where ``eigh(K0)``, the products with ``Q`` and the secular blocks run
        (:mod:`convexkern.math.device`; ``"auto"``: ``K0``'s device).  Vectors in and
        out are numpy arrays on either device.

    Attributes
    ----------
    lam, Q : the eigendecomposition of ``K0`` (``scipy.linalg.eigh`` on the CPU, CuPy's
        ``eigh`` on a GPU, computed once); ``lam`` on the host, ``Q`` on the device.
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

    def __init__(self, K0: Any, *, tol: float | None = None, check: bool = True,
                 warm_start: bool = True, device: str = "cpu") -> None:
        self.device = resolve(device, K0)
        self.xp = module(self.device)
        if check:
            K0 = check_kernel(to_host(K0), "K0")
        self.K0 = K0
        if self.device == "gpu":
            lam, self.Q = self.xp.linalg.eigh(to_device(K0, "gpu"))
            self.lam = to_host(lam)
        else:
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
            u = dot(Q.T, v)
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
                                                   accept=ACCEPT, xp=self.xp)
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
                comb, N = resolvent_combination(Poles(d, z * z, self.xp), d[origin[need]],
                                                tau[need], mu[need], sel[need])
                # (q_j'u)^2 = (z'(D - mu_j)^{-1} z)^2 / N_j = 1 / (sigma^2 N_j) at a root
                nb = below[need]
                neg_quad += float(np.sum(-mu[need][nb] / (sigma * sigma * N[nb])))
                red.lift(-(z / sigma) * comb, u, r)
        uu = float(u @ u)
        lu = lam * u
        uKu = float(u @ lu)
        if neg:
            mfull_u = lu + sigma * uu * u  # M v in the eigenbasis of K0
            Mv = dot(Q, mfull_u - r)
            normM = float(lam @ lam) + 2 * sigma * uKu + sigma * sigma * uu * uu
            norm2 = max(normM - norm2, 0.0)
        else:
            Mv = dot(Q, r)
        return PositivePart(Mv=Mv, norm2=norm2, n_roots=n_roots, n_deflated=n_defl,
                            sweeps=sweeps, neg_norm2=neg_norm2,
                            neg_quad=max(neg_quad, 0.0), vK0v=uKu, u=u,
                            _full=(Q, lu, sigma, np.asarray(v, float)),
                            neg_trace=neg_trace,
                            roots=self._cache if self.warm_start else None)

    def _secular_all(self, v: np.ndarray, sigma: float):
        u = dot(self.Q.T, v)
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
            roots = secular_roots(red.d, red.z, sigma, np.arange(red.d.size), mu0=mu0,
                                  xp=self.xp)
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
        ascending (on the host), ``W`` on the device of ``Q``, in :math:`O(n^2)` (no
        product with ``Q``).

        The eigenvector of a root :math:`\\mu_j` is :math:`(D - \\mu_j)^{-1}z/\\sqrt{N_j}`
        (lifted back through the deflation); a deflated component keeps :math:`e_i`; the
        other directions of a merged group are a Householder basis of the complement of
        :math:`u_G`.  Accurate, not trusted: a certificate built on them
        (:func:`convexkern.math.robust_indefinite.certified_lower`,
        :func:`convexkern.math.robust_indefinite.proxy_kernel`) is valid for any
        ``(w, V)``.
        """
        sigma = check_positive(sigma, "sigma")
        n, lam, xp = self.n, self.lam, self.xp
        u, red, roots = self._secular_all(v, sigma)
        # the eigenvalues first (host), so that each column of W is written once, at its
        # place in ascending order (no n x n permutation copy)
        sm = np.flatnonzero(red.small)
        groups = np.flatnonzero(red.sizes > 1)
        parts = [lam[sm]] + [np.full(int(red.sizes[j]) - 1, red.d[j]) for j in groups]
        if roots is not None:
            parts.append(red.d[roots[0]] + roots[1])
        w = np.concatenate(parts) if parts else np.zeros(0)
        order = np.argsort(w, kind="stable")
        col = np.empty(n, dtype=np.intp)
        col[order] = np.arange(n)  # the place of each unsorted column

        def dev(a: np.ndarray) -> Any:
            return a if xp is np else xp.asarray(a)

        W = xp.zeros((n, n))
        c = sm.size
        W[dev(sm), dev(col[:c])] = 1.0
        for j in groups:
            g = red.members(j)
            uh = u[g] / red.z[j]
            h = uh.copy()
            h[0] += 1.0 if uh[0] >= 0 else -1.0  # Householder: H uh = -+e_1
            H = np.eye(g.size) - 2.0 * np.outer(h, h) / float(h @ h)
            W[xp.ix_(dev(g), dev(col[c: c + g.size - 1]))] = dev(H[:, 1:])
            c += g.size - 1
        if roots is not None:
            origin, tau, _, _ = roots
            d, z = dev(red.d), dev(red.z)
            k = red.d.size
            cols = dev(col[c: c + k])
            # reduced eigenvectors (D - mu_j)^{-1} z / sqrt(N_j), lifted row by row
            Wr = xp.subtract(d[:, None], d[dev(origin)][None, :])
            Wr -= dev(tau)[None, :]
            xp.divide(z[:, None], Wr, out=Wr)
            Wr /= xp.sqrt(xp.einsum("ij,ij->j", Wr, Wr))[None, :]  # N at the roots
            single = red.sizes == 1
            rows = red.keep[red.starts[single]]
            Wr *= dev(np.where(single, red.sign, 1.0))[:, None]  # in place: no k x k copy
            srows = np.flatnonzero(single)
            # whole rows at a time (a single component's row has entries in the roots'
            # columns only): one-index scatters, no (rows x cols) index arrays, through a
            # buffer of at most about 2^25 entries
            step = max(1, (1 << 25) // max(n, 1))
            for s0 in range(0, srows.size, step):
                R = xp.zeros((min(step, srows.size - s0), n))
                R[:, cols] = Wr[dev(srows[s0: s0 + step])]
                W[dev(rows[s0: s0 + step])] = R
                del R
            for j in np.flatnonzero(~single):
                g = red.members(j)
                W[dev(g)[:, None], cols[None, :]] = xp.outer(dev(u[g] / red.z[j]), Wr[j])
        return w[order], W

    def eigh(self, v: np.ndarray, sigma: float, *,
             single: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Eigenpairs ``(w, V)`` of :math:`K_0 + \\sigma vv^\\top` from the update
        (:meth:`eigh_reduced`, then ``V = Q W``: one matrix product, no new
        decomposition).  ``single``: the product in single precision (half the time;
        ``V`` accurate to about 1e-7, returned as float64), for callers that only need
        approximate eigenvectors (the certificate, which does not trust them).  ``w`` is
        on the host, ``V`` on the device of ``Q``."""
        w, W = self.eigh_reduced(v, sigma)
        if single:
            if self._q32 is None:
                self._q32 = self.Q.astype(np.float32)
            # each n x n temporary dropped as soon as the next exists (at n = 5e4 on a
            # GPU: 10 or 20 GB each)
            W32 = W.astype(np.float32)
            del W
            V32 = self._q32 @ W32
            del W32
            return w, V32.astype(np.float64)
        return w, self.Q @ W

    def positive_part(self, v: np.ndarray, sigma: float) -> np.ndarray:
        """The matrix :math:`M_+` (``O(n^3)``; for tests and for the prediction step)."""
        w, V = self.eigh(v, sigma)
        Mp = positive_part(w, to_host(V))
        return 0.5 * (Mp + Mp.T)
