"""Kernel functions and their Gram matrices.

A :class:`Kernel` is a small immutable callable: ``kernel(X)`` returns the Gram matrix
``K[i, j] = k(x_i, x_j)`` of the rows of ``X`` (exactly symmetric), and ``kernel(X, Z)``
returns the cross matrix ``K[i, j] = k(x_i, z_j)``.  Every Gram matrix is float64 and
computed with vectorised numpy (no Python loop over pairs of points).

Kernels combine by the closure rules of the lecture notes (Mansour, SVM lecture notes
2013, §kernels): ``k1 + k2`` (sum), ``k1 * k2`` (elementwise product), ``c * k`` with
``c > 0`` and ``k + c`` with ``c >= 0``.  Each rule maps positive semidefinite (PSD)
kernels to PSD kernels; it does not make an indefinite kernel PSD.

Some kernels here are *indefinite* on purpose: the sigmoid kernel, the Epanechnikov kernel
and the Simpson score are the indefinite similarity measures of Luss & d'Aspremont,
NIPS 2007, §4.  Use :mod:`convexkern.spectral` to inspect or repair their spectrum.

Examples
--------
>>> import numpy as np
>>> from convexkern.kernels import RBF, Linear, make_kernel
>>> X = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
>>> k = RBF(gamma=0.5) + 2.0 * Linear()
>>> k
RBF(gamma=0.5) + 2.0 * Linear()
>>> K = k(X)
>>> K.shape, bool(np.array_equal(K, K.T))
((3, 3), True)
>>> make_kernel("gaussian", sigma=1.0)
Gaussian(sigma=1.0)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from ._validation import check_matrix, check_nonnegative, check_positive
from .errors import InvalidInputError, InvalidTypeError

__all__ = [
    "Kernel",
    "Linear",
    "Polynomial",
    "RBF",
    "Gaussian",
    "Sigmoid",
    "Epanechnikov",
    "Simpson",
    "Mahalanobis",
    "SumKernel",
    "ProductKernel",
    "ScaledKernel",
    "ShiftedKernel",
    "make_kernel",
    "KERNEL_NAMES",
]

#: Upper bound (bytes) on the temporary array used by :class:`Simpson`.
_SIMPSON_BLOCK_BYTES = 64 * 2**20


# ---------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------


def _symmetrize_inplace(K: np.ndarray) -> np.ndarray:
    """Make a square matrix exactly symmetric by averaging it with its transpose.

    Floating-point addition is commutative, so ``K[i, j] + K[j, i]`` and ``K[j, i] +
    K[i, j]`` round to the same number and the result is symmetric bit for bit.
    """
    K += K.T  # numpy buffers the overlapping operand
    K *= 0.5
    return K


def _inner(X: np.ndarray, Z: np.ndarray, symmetric: bool) -> np.ndarray:
    """Matrix of inner products ``X Z'``; exactly symmetric when ``symmetric``."""
    if symmetric:
        return _symmetrize_inplace(X @ X.T)
    return X @ Z.T


def _sq_dists(X: np.ndarray, Z: np.ndarray, symmetric: bool) -> np.ndarray:
    """Squared Euclidean distances ``||x_i - z_j||^2``, clipped at 0.

    The points are first centred (distances are translation invariant), which reduces the
    cancellation in ``||x||^2 + ||z||^2 - 2 x'z``.  When ``symmetric`` the result is
    exactly symmetric with an exactly zero diagonal.
    """
    centre = X.mean(axis=0)
    Xc = X - centre
    if symmetric:
        G = _inner(Xc, Xc, True)
        sq = np.einsum("ij,ij->i", Xc, Xc)
        D = sq[:, None] + sq[None, :]  # commutative, hence exactly symmetric
        G *= -2.0
        D += G
        np.fill_diagonal(D, 0.0)
    else:
        Zc = Z - centre
        D = np.einsum("ij,ij->i", Xc, Xc)[:, None] + np.einsum("ij,ij->i", Zc, Zc)[None, :]
        D -= 2.0 * (Xc @ Zc.T)
    np.maximum(D, 0.0, out=D)
    return D


def _check_real(value: Any, name: str) -> float:
    """Return ``value`` as a finite float (any sign) or raise naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InvalidTypeError(name, f"expected a real number, got {value!r}")
    v = float(value)
    if not np.isfinite(v):
        raise InvalidInputError(name, f"must be a finite number, got {value!r}")
    return v


def _check_degree(value: Any, name: str = "degree") -> int:
    """Return ``value`` as an int >= 1; integral floats such as ``3.0`` are accepted."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InvalidTypeError(name, f"expected a positive integer, got {value!r}")
    v = float(value)
    if not np.isfinite(v) or v != np.floor(v) or v < 1:
        raise InvalidInputError(name, f"must be a positive integer, got {value!r}")
    return int(v)


def _is_scalar(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float, np.integer, np.floating))


# ---------------------------------------------------------------------------------------
# base class
# ---------------------------------------------------------------------------------------


class Kernel:
    """Base class of every kernel: ``kernel(X, Z=None) -> ndarray``.

    Subclasses store their hyper-parameters at construction (validated, read-only) and
    implement :meth:`_compute`.  Instances are immutable, compare equal when they have the
    same type and parameters, and combine with ``+`` and ``*`` (see the module docstring).

    Attributes
    ----------
    name : str
        Lower-case name, as accepted by :func:`make_kernel` for the basic kernels.
    is_psd : bool
        True when every Gram matrix of the kernel is positive semidefinite in exact
        arithmetic (a theorem about the kernel, not a numerical check).  False means "not
        guaranteed": the kernel may produce indefinite Gram matrices.
    """

    name: ClassVar[str] = "kernel"
    # numpy scalars defer to our reflected operators (2.0 * k with np.float64(2.0)).
    __array_ufunc__ = None

    # -- public API ---------------------------------------------------------------------

    def __call__(self, X: Any, Z: Any = None) -> np.ndarray:
        """Gram matrix of the rows of ``X`` (``Z=None``) or cross matrix with ``Z``.

        Parameters
        ----------
        X : array_like of shape (n, d)
            Finite data, one point per row.
        Z : array_like of shape (m, d), optional
            Second set of points.  ``None`` means ``Z = X``; the result is then exactly
            symmetric.

        Returns
        -------
        ndarray of shape (n, n) or (n, m), float64
        """
        X = check_matrix(X, "X")
        if Z is not None:
            Z = check_matrix(Z, "Z")
            if Z.shape[1] != X.shape[1]:
                raise InvalidInputError("Z", f"has {Z.shape[1]} columns but X has {X.shape[1]}")
        self._check_inputs(X, Z)
        symmetric = Z is None
        K = self._compute(X, X if symmetric else Z, symmetric)
        return np.ascontiguousarray(K, dtype=np.float64)

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """Constructor parameters by name, following scikit-learn's convention.

        ``type(k)(**k.get_params(deep=False))`` rebuilds ``k``.  With ``deep=True`` the
        parameters of nested kernels are added as ``"<name>__<param>"`` entries.  The
        values are the stored objects themselves (arrays are read-only), so the kernels
        clone cleanly with :func:`sklearn.base.clone`.
        """
        out = dict(self._params())
        if deep:
            for key, val in self._params().items():
                if isinstance(val, Kernel):
                    out.update((f"{key}__{k}", v) for k, v in val.get_params(deep=True).items())
        return out

    def __sklearn_clone__(self) -> Kernel:
        """Kernels are immutable: a clone (scikit-learn's ``clone``) is the kernel itself."""
        return self

    @property
    def is_psd(self) -> bool:
        return True

    # -- closure rules -------------------------------------------------------------------

    def __add__(self, other: Any) -> Kernel:
        if isinstance(other, Kernel):
            return SumKernel(self, other)
        if _is_scalar(other):
            if float(other) == 0.0:
                return self
            return ShiftedKernel(self, other)
        return NotImplemented

    def __radd__(self, other: Any) -> Kernel:
        # ``sum([k1, k2])`` starts from 0 + k1
        return self.__add__(other)

    def __mul__(self, other: Any) -> Kernel:
        if isinstance(other, Kernel):
            return ProductKernel(self, other)
        if _is_scalar(other):
            return ScaledKernel(self, other)
        return NotImplemented

    def __rmul__(self, other: Any) -> Kernel:
        return self.__mul__(other)

    # -- value semantics -----------------------------------------------------------------

    def __repr__(self) -> str:
        args = ", ".join(f"{key}={_param_repr(val)}" for key, val in self._params().items())
        return f"{type(self).__name__}({args})"

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        mine, theirs = self._params(), other._params()  # type: ignore[attr-defined]
        if mine.keys() != theirs.keys():
            return False
        for key, val in mine.items():
            if isinstance(val, np.ndarray) or isinstance(theirs[key], np.ndarray):
                if not np.array_equal(val, theirs[key]):
                    return False
            elif val != theirs[key]:
                return False
        return True

    def __hash__(self) -> int:
        return hash((type(self).__name__, repr(self)))

    # -- for subclasses ------------------------------------------------------------------

    def _params(self) -> dict[str, Any]:
        """Parameters by constructor name (internal, not copied)."""
        return {}

    def _check_inputs(self, X: np.ndarray, Z: np.ndarray | None) -> None:
        """Kernel-specific checks on validated inputs (nonnegativity, dimension)."""

    def _compute(self, X: np.ndarray, Z: np.ndarray, symmetric: bool) -> np.ndarray:
        """Return the (n, m) kernel matrix; exactly symmetric when ``symmetric``."""
        raise NotImplementedError


def _param_repr(val: Any) -> str:
    if isinstance(val, np.ndarray):
        return f"array({np.array2string(val, separator=', ', threshold=8)})"
    return repr(val)


# ---------------------------------------------------------------------------------------
# basic kernels
# ---------------------------------------------------------------------------------------


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
        super().__init__(gamma=1.0 / (2.0 * self._sigma**2))

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


# ---------------------------------------------------------------------------------------
# closure rules
# ---------------------------------------------------------------------------------------


def _check_kernel_arg(value: Any, name: str) -> Kernel:
    if not isinstance(value, Kernel):
        raise InvalidTypeError(name, f"expected a Kernel, got {type(value).__name__}")
    return value


def _wrapped(k: Kernel) -> str:
    """repr of ``k`` with parentheses when it is a sum (for use inside a product)."""
    text = repr(k)
    return f"({text})" if isinstance(k, (SumKernel, ShiftedKernel)) else text


class _Composite(Kernel):
    """Kernels built from other kernels: delegate input checks to every part."""

    def _parts(self) -> tuple[Kernel, ...]:
        raise NotImplementedError

    def _check_inputs(self, X: np.ndarray, Z: np.ndarray | None) -> None:
        for part in self._parts():
            part._check_inputs(X, Z)

    @property
    def is_psd(self) -> bool:
        return all(part.is_psd for part in self._parts())


class SumKernel(_Composite):
    """Sum ``k(x, z) = k1(x, z) + k2(x, z)``; PSD when both are (Mansour 2013, §kernels).

    Usually built with ``k1 + k2``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0], [2.0]])
    >>> (Linear() + Linear())(X)
    array([[2., 4.],
           [4., 8.]])
    """

    name = "sum"

    def __init__(self, k1: Kernel, k2: Kernel) -> None:
        self._k1 = _check_kernel_arg(k1, "k1")
        self._k2 = _check_kernel_arg(k2, "k2")

    k1 = property(lambda self: self._k1)
    k2 = property(lambda self: self._k2)

    def _params(self) -> dict[str, Any]:
        return {"k1": self._k1, "k2": self._k2}

    def _parts(self) -> tuple[Kernel, ...]:
        return (self._k1, self._k2)

    def __repr__(self) -> str:
        return f"{self._k1!r} + {self._k2!r}"

    def _compute(self, X: np.ndarray, Z: np.ndarray, symmetric: bool) -> np.ndarray:
        K = self._k1._compute(X, Z, symmetric)
        K += self._k2._compute(X, Z, symmetric)
        return K


class ProductKernel(_Composite):
    """Elementwise product ``k(x, z) = k1(x, z) k2(x, z)``; PSD when both are (Schur).

    Mansour, SVM lecture notes 2013, §kernels.  Usually built with ``k1 * k2``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0], [2.0]])
    >>> (Linear() * Linear())(X)
    array([[ 1.,  4.],
           [ 4., 16.]])
    """

    name = "product"

    def __init__(self, k1: Kernel, k2: Kernel) -> None:
        self._k1 = _check_kernel_arg(k1, "k1")
        self._k2 = _check_kernel_arg(k2, "k2")

    k1 = property(lambda self: self._k1)
    k2 = property(lambda self: self._k2)

    def _params(self) -> dict[str, Any]:
        return {"k1": self._k1, "k2": self._k2}

    def _parts(self) -> tuple[Kernel, ...]:
        return (self._k1, self._k2)

    def __repr__(self) -> str:
        return f"{_wrapped(self._k1)} * {_wrapped(self._k2)}"

    def _compute(self, X: np.ndarray, Z: np.ndarray, symmetric: bool) -> np.ndarray:
        K = self._k1._compute(X, Z, symmetric)
        K *= self._k2._compute(X, Z, symmetric)
        return K


class ScaledKernel(_Composite):
    """Positive scaling ``k(x, z) = scale * kernel(x, z)`` with ``scale > 0``.

    Mansour, SVM lecture notes 2013, §kernels.  Usually built with ``c * k``; a scale
    ``<= 0`` is rejected (it would not preserve positive semidefiniteness).

    Examples
    --------
    >>> import numpy as np
    >>> (3 * Linear())(np.array([[1.0], [2.0]]))
    array([[ 3.,  6.],
           [ 6., 12.]])
    """

    name = "scaled"

    def __init__(self, kernel: Kernel, scale: float) -> None:
        self._kernel = _check_kernel_arg(kernel, "kernel")
        self._scale = check_positive(scale, "scale")

    kernel = property(lambda self: self._kernel)
    scale = property(lambda self: self._scale)

    def _params(self) -> dict[str, Any]:
        return {"kernel": self._kernel, "scale": self._scale}

    def _parts(self) -> tuple[Kernel, ...]:
        return (self._kernel,)

    def __repr__(self) -> str:
        return f"{self._scale!r} * {_wrapped(self._kernel)}"

    def _compute(self, X: np.ndarray, Z: np.ndarray, symmetric: bool) -> np.ndarray:
        K = self._kernel._compute(X, Z, symmetric)
        K *= self._scale
        return K


class ShiftedKernel(_Composite):
    """Kernel plus a constant ``k(x, z) = kernel(x, z) + constant`` with ``constant >= 0``.

    Mansour, SVM lecture notes 2013, §kernels (a nonnegative constant is a PSD kernel, and
    sums of PSD kernels are PSD).  Usually built with ``k + c``.

    Examples
    --------
    >>> import numpy as np
    >>> (Linear() + 1)(np.array([[1.0], [2.0]]))
    array([[2., 3.],
           [3., 5.]])
    """

    name = "shifted"

    def __init__(self, kernel: Kernel, constant: float) -> None:
        self._kernel = _check_kernel_arg(kernel, "kernel")
        self._constant = check_nonnegative(constant, "constant")

    kernel = property(lambda self: self._kernel)
    constant = property(lambda self: self._constant)

    def _params(self) -> dict[str, Any]:
        return {"kernel": self._kernel, "constant": self._constant}

    def _parts(self) -> tuple[Kernel, ...]:
        return (self._kernel,)

    def __repr__(self) -> str:
        return f"{self._kernel!r} + {self._constant!r}"

    def _compute(self, X: np.ndarray, Z: np.ndarray, symmetric: bool) -> np.ndarray:
        K = self._kernel._compute(X, Z, symmetric)
        K += self._constant
        return K


# ---------------------------------------------------------------------------------------
# factory
# ---------------------------------------------------------------------------------------


def _rbf_or_gaussian(**params: Any) -> Kernel:
    if "sigma" in params and "gamma" in params:
        raise InvalidInputError("sigma", "give either gamma (RBF) or sigma (Gaussian), not both")
    if "sigma" in params:
        return _build(Gaussian, "gaussian", params)
    return _build(RBF, "rbf", params)


_FACTORIES: dict[str, Callable[..., Kernel] | type[Kernel]] = {
    "linear": Linear,
    "poly": Polynomial,
    "polynomial": Polynomial,
    "rbf": _rbf_or_gaussian,
    "gaussian": _rbf_or_gaussian,
    "sigmoid": Sigmoid,
    "tanh": Sigmoid,
    "epanechnikov": Epanechnikov,
    "simpson": Simpson,
    "mahalanobis": Mahalanobis,
}

#: Names accepted by :func:`make_kernel`.
KERNEL_NAMES: tuple[str, ...] = tuple(_FACTORIES)


def _build(cls: type[Kernel], name: str, params: dict[str, Any]) -> Kernel:
    signature = inspect.signature(cls).parameters
    for key in params:
        if key not in signature:
            listed = ", ".join(signature) if signature else "none"
            raise InvalidInputError(
                key, f"unknown parameter for kernel {name!r}; accepted parameters: {listed}"
            )
    missing = [
        key
        for key, par in signature.items()
        if par.default is inspect.Parameter.empty and key not in params
    ]
    if missing:
        raise InvalidInputError(
            missing[0], f"kernel {name!r} needs the parameter(s) {', '.join(missing)}"
        )
    return cls(**params)


def make_kernel(name: str | Kernel, **params: Any) -> Kernel:
    """Build a kernel from its lower-case name and parameters.

    Parameters
    ----------
    name : str or Kernel
        One of ``"linear"``, ``"poly"``/``"polynomial"``, ``"rbf"``/``"gaussian"``,
        ``"sigmoid"``/``"tanh"``, ``"epanechnikov"``, ``"simpson"``, ``"mahalanobis"``
        (case-insensitive).  ``"rbf"`` and ``"gaussian"`` both accept either ``gamma``
        (giving :class:`RBF`) or ``sigma`` (giving :class:`Gaussian`).  A :class:`Kernel`
        instance is returned unchanged (no parameters allowed then).
    **params
        Constructor parameters of the kernel.

    Returns
    -------
    Kernel

    Raises
    ------
    ValueError
        For an unknown name (the message lists the known names), an unknown or missing
        parameter, or a bad parameter value; the message names the culprit.

    Examples
    --------
    >>> make_kernel("poly", degree=3)
    Polynomial(degree=3, gamma=1.0, coef0=1.0)
    >>> make_kernel("rbf", gamma=0.1)
    RBF(gamma=0.1)
    """
    if isinstance(name, Kernel):
        if params:
            raise InvalidInputError(
                next(iter(params)), "parameters cannot be given with a Kernel instance"
            )
        return name
    if not isinstance(name, str):
        raise InvalidTypeError("name", f"expected a kernel name (str), got {type(name).__name__}")
    key = name.strip().lower()
    if key not in _FACTORIES:
        raise InvalidInputError(
            "name", f"unknown kernel {name!r}; known kernels: {', '.join(KERNEL_NAMES)}"
        )
    factory = _FACTORIES[key]
    if isinstance(factory, type):
        return _build(factory, key, params)
    return factory(**params)
