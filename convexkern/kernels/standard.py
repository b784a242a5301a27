"""The named kernels: linear, polynomial, RBF and Gaussian, sigmoid, Epanechnikov, Simpson
and Mahalanobis."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_matrix, check_positive
from ..errors import InvalidInputError
from ..math.device import module, resolve, to_device
from ..math.gram_rows import GramRows
from ._base import (
    _EXP_ULPS,
    _U,
    Kernel,
    _check_degree,
    _check_real,
    _gamma_k,
    _inner,
    _sq_dists,
)

#: Upper bound (bytes) on the temporary array used by :class:`Simpson`.
_SIMPSON_BLOCK_BYTES = 64 * 2**20


# ---------------------------------------------------------------------------------------
# basic kernels
# ---------------------------------------------------------------------------------------


#: the smallest subnormal double: the absolute error bound of a product that underflows
_ETA = 2.0**-1074


class Linear(Kernel):
    """Linear kernel ``k(x, z) = x'z`` (Mansour, SVM lecture notes 2013, §kernels).

    Examples
    --------
    >>> import numpy as np
    >>> Linear()(np.array([[1.0, 2.0], [3.0, 4.0]]))
    array([[ 5., 11.],
           [11., 25.]])
    """

    name = "linear"

    def _compute(self, X: np.ndarray, Z: np.ndarray, symmetric: bool) -> np.ndarray:
        return _inner(X, Z, symmetric)

    def gram_error(self, X: np.ndarray) -> float:
        """The entrywise error of ``X X'`` (averaged with its transpose) against the exact
        one (PSD): ``gamma_d sqrt(s_i s_j) <= gamma_d max_i s_i`` per product (Higham
        eq. 3.5), one more rounding for the average, and the absolute error of products
        that underflow (each within half the smallest subnormal ``eta``: ``d eta`` per
        product, which eq. 3.5 leaves out)."""
        X = np.asarray(X, dtype=float)
        d = X.shape[1]
        sq = float(np.max(np.einsum("ij,ij->i", X, X), initial=0.0))
        return float(np.nextafter(sq * (_gamma_k(d) + 2 * _U) * (1.0 + 4 * _U)
                                  + (d + 2) * _ETA, np.inf))


class Polynomial(Kernel):
    """Polynomial kernel ``k(x, z) = (gamma x'z + coef0) ** degree``.

    PSD for ``coef0 >= 0`` (Mansour, SVM lecture notes 2013, §kernels: sums, products and
    positive scalings of the linear kernel and of constants).  A negative ``coef0`` is
    accepted but the kernel is then not guaranteed PSD.

    Parameters
    ----------
    degree : int, default 2
        Positive integer.
    gamma : float, default 1.0
        Positive scale of the inner product.
    coef0 : float, default 1.0
        Finite offset.

    Examples
    --------
    >>> import numpy as np
    >>> k = Polynomial(degree=2, gamma=1.0, coef0=1.0)
    >>> k(np.array([[1.0, 0.0]]), np.array([[2.0, 5.0]]))
    array([[9.]])
    """

    name = "polynomial"

    def __init__(self, degree: int = 2, gamma: float = 1.0, coef0: float = 1.0) -> None:
        self._degree = _check_degree(degree)
        self._gamma = check_positive(gamma, "gamma")
        self._coef0 = _check_real(coef0, "coef0")

    degree = property(lambda self: self._degree)
    gamma = property(lambda self: self._gamma)
    coef0 = property(lambda self: self._coef0)

    def _params(self) -> dict[str, Any]:
        return {"degree": self._degree, "gamma": self._gamma, "coef0": self._coef0}

    @property
    def is_psd(self) -> bool:
        return self._coef0 >= 0.0

    def _compute(self, X: np.ndarray, Z: np.ndarray, symmetric: bool) -> np.ndarray:
        K = _inner(X, Z, symmetric)
        K *= self._gamma
        K += self._coef0
        if self._degree > 1:
            np.power(K, self._degree, out=K)
        return K


class RBF(Kernel):
    """Gaussian RBF kernel ``k(x, z) = exp(-gamma ||x - z||^2)``.

    PSD for every ``gamma > 0`` (Mansour, SVM lecture notes 2013, §kernels).

    Parameters
    ----------
    gamma : float
        Positive width parameter.

    See Also
    --------
    Gaussian : the same kernel parametrised by its bandwidth ``sigma``.

    Examples
    --------
    >>> import numpy as np
    >>> K = RBF(gamma=0.5)(np.array([[0.0, 0.0], [1.0, 1.0]]))
    >>> np.round(K, 6)
    array([[1.      , 0.367879],
           [0.367879, 1.      ]])
    """

    name = "rbf"

    def __init__(self, gamma: float) -> None:
        self._gamma = check_positive(gamma, "gamma")

    gamma = property(lambda self: self._gamma)

    def _params(self) -> dict[str, Any]:
        return {"gamma": self._gamma}

    def _compute(self, X: np.ndarray, Z: np.ndarray, symmetric: bool) -> np.ndarray:
        D = _sq_dists(X, Z, symmetric)
        D *= -self._gamma
        return np.exp(D, out=D)

    def gram_error(self, X: np.ndarray) -> float:
        """The entrywise error of the Gram matrix against the exact kernel of the centred
        points :func:`_sq_dists` uses (PSD for any point set): each squared distance
        ``s_i + s_j - 2 x_i'x_j`` is within ``gamma_{d+3} 2 (s_i + s_j)`` of its value
        (Higham eq. 3.5, ``|x_i'x_j| <= sqrt(s_i s_j)``; the clip at 0 and the exact zero
        diagonal only move it closer), ``t -> exp(-t)`` is 1-Lipschitz on ``t >= 0``,
        and the scaling by ``gamma`` and ``exp`` add their own rounding (``exp``'s
        taken as 16 ulps)."""
        X = np.asarray(X, dtype=float)
        Xc = X - X.mean(axis=0)
        return self._error(float(np.max(np.einsum("ij,ij->i", Xc, Xc), initial=0.0)),
                           X.shape[1])

    def _error(self, sq: float, d: int) -> float:
        """:meth:`gram_error` from ``max_i s_i`` of the centred points and the dimension.
        Products that underflow err by up to half the smallest subnormal ``eta`` each,
        an absolute error eq. 3.5 leaves out: ``4 (d + 3) eta`` on a squared distance,
        which ``gamma`` near the overflow threshold makes large (``gamma = 1.7e308`` on
        points 4e-157 from their mean: an entry 47 times the bound off before)."""
        dist = 4.0 * sq * _gamma_k(d + 3) * (1.0 + 4 * _U) + 4.0 * (d + 3) * _ETA
        scaled = self._gamma * (dist + 4.0 * sq * 2 * _U) * (1.0 + 4 * _U)
        return float(np.nextafter(scaled + _EXP_ULPS + 2 * _U, np.inf))

    def gram_rows(self, X: Any, device: str = "cpu") -> GramRows | None:
        """The Gram matrix of the rows of ``X`` by rows on demand
        (:class:`~convexkern.math.gram_rows.GramRows`), computed as the full Gram matrix
        is: the points centred on their mean, squared distances ``(s_i + s_j) - 2
        x_i'x_j`` clipped at 0, scaled by ``-gamma`` and exponentiated.  Every entry is
        therefore within :meth:`gram_error` of the exact kernel of the centred points
        (PSD; its derivation holds for any order of the dot products), and in [0, 1].

        ``device="gpu"`` computes the rows on a CUDA GPU (CuPy): the centred points and
        their squared norms are formed on the host and copied, so the GPU evaluates the
        same formula on the same doubles; its ``exp`` (within 1 ulp in CUDA's double
        precision) is inside the 16 ulps the bound allows."""
        X = check_matrix(X, "X")
        dev = resolve(device, X)
        Xc = X - X.mean(axis=0)
        sq = np.einsum("ij,ij->i", Xc, Xc)
        g = self._gamma
        # gram_error(X), from the centred points already formed here (a subclass's own)
        delta = (self._error(float(np.max(sq, initial=0.0)), X.shape[1])
                 if type(self).gram_error is RBF.gram_error else self.gram_error(X))
        if delta is None or not np.isfinite(delta):
            # a subclass without the bound, or squared norms that overflow (the rows would
            # hold inf - inf): no rows on demand; the whole matrix is formed and checked
            return None
        xp = module(dev)
        Xd, sqd = to_device(Xc, dev), to_device(sq, dev)

        def block(rows: np.ndarray, cols: np.ndarray | None) -> Any:
            r = xp.asarray(rows)
            if cols is None:
                B, sb = Xd, sqd
            else:
                c = xp.asarray(cols)
                B, sb = Xd[c], sqd[c]
            D = sqd[r][:, None] + sb[None, :]
            D -= 2.0 * (Xd[r] @ B.T)
            xp.maximum(D, 0.0, out=D)
            D *= -g
            return xp.exp(D, out=D)

        zero, minus_g = np.zeros(()), np.array(-g)  # 0-d: no conversion per call

        def row(i: int) -> np.ndarray:
            # block([i], None)[0] by the same steps: (s_i + s_j) - 2 x_i'x_j, clipped at
            # 0, times -gamma, exp; one matrix-vector product, no index arrays.  Doubling
            # x_i is exact, so the product is exactly twice x_j'x_i as computed
            two_dot = Xc @ (2.0 * Xc[i])
            D = sq + sq[i]
            D -= two_dot
            np.maximum(D, zero, out=D)
            np.multiply(D, minus_g, out=D)
            return np.exp(D, out=D)

        # the diagonal's exact value is exp(0) = 1 (SMO's curvature only)
        return GramRows(X.shape[0], block, np.ones(X.shape[0]), delta, 1.0, device=dev,
                        row=row if xp is np else None)


class Gaussian(RBF):
    """Gaussian kernel ``k(x, z) = exp(-||x - z||^2 / (2 sigma^2))``.

    The :class:`RBF` kernel with ``gamma = 1 / (2 sigma^2)``; only the parametrisation
    differs (Mansour, SVM lecture notes 2013, §kernels).

    Parameters
    ----------
    sigma : float
        Positive bandwidth.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [2.0]])
    >>> bool(np.allclose(Gaussian(sigma=2.0)(X), RBF(gamma=0.125)(X)))
    True
    """

    name = "gaussian"

    def __init__(self, sigma: float) -> None:
        self._sigma = check_positive(sigma, "sigma")
        gamma = 0.5 / self._sigma / self._sigma  # no overflow of sigma^2 on the way
        if not (np.isfinite(gamma) and gamma > 0):
            raise InvalidInputError(
                "sigma", f"gives gamma = 1 / (2 sigma^2) outside the double range, got "
                         f"{sigma!r}")
        super().__init__(gamma=gamma)

    sigma = property(lambda self: self._sigma)

    def _params(self) -> dict[str, Any]:
        return {"sigma": self._sigma}


class Sigmoid(Kernel):
    """Sigmoid (hyperbolic tangent) kernel ``k(x, z) = tanh(gamma x'z + coef0)``.

    Indefinite in general, whatever ``gamma`` and ``coef0``; it is one of the indefinite
    kernels of Luss & d'Aspremont, NIPS 2007, §4 and of Loosli, ESANN 2019.

    Parameters
    ----------
    gamma : float
        Positive scale of the inner product.
    coef0 : float, default 0.0
        Finite offset (often negative in practice).

    Examples
    --------
    >>> import numpy as np
    >>> K = Sigmoid(gamma=1.0, coef0=0.0)(np.array([[1.0, 0.0], [0.0, 1.0]]))
    >>> np.round(K, 6)
    array([[0.761594, 0.      ],
           [0.      , 0.761594]])
    """

    name = "sigmoid"

    def __init__(self, gamma: float, coef0: float = 0.0) -> None:
        self._gamma = check_positive(gamma, "gamma")
        self._coef0 = _check_real(coef0, "coef0")

    gamma = property(lambda self: self._gamma)
    coef0 = property(lambda self: self._coef0)

    def _params(self) -> dict[str, Any]:
        return {"gamma": self._gamma, "coef0": self._coef0}

    @property
    def is_psd(self) -> bool:
        return False

    def _compute(self, X: np.ndarray, Z: np.ndarray, symmetric: bool) -> np.ndarray:
        K = _inner(X, Z, symmetric)
        K *= self._gamma
        K += self._coef0
        return np.tanh(K, out=K)


class Epanechnikov(Kernel):
    """Epanechnikov kernel ``k(x, z) = max(0, 1 - ||x - z||^2 / sigma^2)``.

    The form used by Luss & d'Aspremont, NIPS 2007, §4 on the UCI data sets.  It is
    *indefinite* in general, already for one-dimensional inputs: the Fourier transform of
    ``t -> max(0, 1 - t^2)`` is ``4 (sin w - w cos w) / w^3``, which is negative e.g. at
    ``w = 3 pi / 2``, so by Bochner's theorem the kernel is not positive definite on the
    line, and a fortiori not on ``R^d``.

    Parameters
    ----------
    sigma : float
        Positive radius of the support.

    Examples
    --------
    >>> import numpy as np
    >>> Epanechnikov(sigma=2.0)(np.array([[0.0], [1.0], [3.0]]))
    array([[1.  , 0.75, 0.  ],
           [0.75, 1.  , 0.  ],
           [0.  , 0.  , 1.  ]])
    """

    name = "epanechnikov"

    def __init__(self, sigma: float) -> None:
        self._sigma = check_positive(sigma, "sigma")

    sigma = property(lambda self: self._sigma)

    def _params(self) -> dict[str, Any]:
        return {"sigma": self._sigma}

    @property
    def is_psd(self) -> bool:
        return False

    def _compute(self, X: np.ndarray, Z: np.ndarray, symmetric: bool) -> np.ndarray:
        D = _sq_dists(X, Z, symmetric)
        D *= -1.0 / self._sigma**2
        D += 1.0
        return np.maximum(D, 0.0, out=D)


class Simpson(Kernel):
    """Simpson (overlap) score for nonnegative vectors.

    ``k(x, z) = sum_i min(x_i, z_i) / min(sum_i x_i, sum_i z_i)``, the similarity used by
    Luss & d'Aspremont, NIPS 2007, §4 on the USPS digits.  It lies in ``[0, 1]`` with
    ``k(x, x) = 1``, and it is *indefinite*: on USPS digits 3 vs 5 (pixels in [0, 1]) its
    smallest eigenvalue is strongly negative.

    Inputs must be nonnegative and no row may be all zeros (the score is 0/0 there).  The
    sums of minima are computed in blocks whose temporary ``(rows, cols, d)`` array stays
    below 64 MB; for ``Z=None`` only the upper block triangle is computed and mirrored.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 0.0, 1.0], [1.0, 1.0, 2.0]])
    >>> Simpson()(X)
    array([[1., 1.],
           [1., 1.]])
    >>> Simpson()(X, np.array([[0.0, 4.0, 0.0]]))
    array([[0.  ],
           [0.25]])
    """

    name = "simpson"

    @property
    def is_psd(self) -> bool:
        return False

    def _check_inputs(self, X: np.ndarray, Z: np.ndarray | None) -> None:
        for arr, label in ((X, "X"), (Z, "Z")):
            if arr is None:
                continue
            low = float(arr.min())
            if low < 0.0:
                raise InvalidInputError(
                    label, f"the Simpson kernel needs nonnegative inputs, found {low:.6g}"
                )
            zero = np.flatnonzero(arr.sum(axis=1) == 0.0)
            if zero.size:
                raise InvalidInputError(
                    label,
                    f"row(s) {zero[:5].tolist()} are all zeros; the Simpson score is "
                    "undefined (0/0) there",
                )

    def _compute(self, X: np.ndarray, Z: np.ndarray, symmetric: bool) -> np.ndarray:
        n, d = X.shape
        m = Z.shape[0]
        overlap = np.empty((n, m))
        col_block = int(max(1, min(m, _SIMPSON_BLOCK_BYTES // (8 * d))))
        row_block = int(max(1, _SIMPSON_BLOCK_BYTES // (8 * d * col_block)))
        buf = np.empty((min(row_block, n), col_block, d))
        for r0 in range(0, n, row_block):
            r1 = min(n, r0 + row_block)
            Xb = X[r0:r1, None, :]
            c_start = r0 if symmetric else 0  # upper block triangle only
            for c0 in range(c_start, m, col_block):
                c1 = min(m, c0 + col_block)
                tmp = buf[: r1 - r0, : c1 - c0]
                np.minimum(Xb, Z[None, c0:c1, :], out=tmp)
                overlap[r0:r1, c0:c1] = tmp.sum(axis=2)
            if symmetric:
                # the diagonal square was computed in full: copy its upper triangle down
                # (min and sum are commutative, so this changes nothing in practice, but
                # the exact symmetry then does not rest on summation order), and mirror
                # the rest of these rows into the columns left of the next blocks
                blk = overlap[r0:r1, r0:r1]
                blk[...] = np.triu(blk) + np.triu(blk, 1).T
                overlap[r1:, r0:r1] = overlap[r0:r1, r1:].T
        sx = X.sum(axis=1)
        sz = sx if symmetric else Z.sum(axis=1)
        overlap /= np.minimum(sx[:, None], sz[None, :])
        return overlap


class Mahalanobis(Kernel):
    """Diagonal Mahalanobis kernel ``k(x, z) = exp(-(delta/m) (x - z)' diag(R) (x - z))``.

    ``m`` is the number of inputs (features) and ``R`` a nonnegative weight per input;
    Abe, ICANN 2012, eq. (1).  With ``R = 1`` it is the RBF kernel with
    ``gamma = delta / m``.  PSD for every nonnegative ``R``.

    Parameters
    ----------
    R : array_like of shape (m,)
        Nonnegative finite weights, one per input.
    delta : float, default 1.0
        Positive scale.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 0.0], [1.0, 3.0]])
    >>> K = Mahalanobis(R=[2.0, 0.0], delta=1.0)(X)
    >>> bool(np.isclose(K[0, 1], np.exp(-(1.0 / 2) * 2.0)))
    True
    """

    name = "mahalanobis"

    def __init__(self, R: Any, delta: float = 1.0) -> None:
        arr = check_matrix(R, "R", ndim=1)
        if np.any(arr < 0):
            raise InvalidInputError(
                "R", f"weights must be nonnegative, found {float(arr.min()):.6g}"
            )
        if arr.flags.writeable or arr.base is not None:
            # keep a private read-only copy (an already private read-only array, as
            # returned by get_params, is kept as it is so that clones share it)
            arr = arr.copy()
            arr.flags.writeable = False
        self._R = arr
        self._delta = check_positive(delta, "delta")

    R = property(lambda self: self._R)
    delta = property(lambda self: self._delta)

    def _params(self) -> dict[str, Any]:
        return {"R": self._R, "delta": self._delta}

    def _check_inputs(self, X: np.ndarray, Z: np.ndarray | None) -> None:
        if X.shape[1] != self._R.size:
            raise InvalidInputError(
                "X",
                f"has {X.shape[1]} columns but the Mahalanobis kernel has "
                f"m = len(R) = {self._R.size} inputs",
            )

    def _compute(self, X: np.ndarray, Z: np.ndarray, symmetric: bool) -> np.ndarray:
        w = np.sqrt(self._R)
        Xw = X * w
        D = _sq_dists(Xw, Xw if symmetric else Z * w, symmetric)
        D *= -self._delta / self._R.size
        return np.exp(D, out=D)
