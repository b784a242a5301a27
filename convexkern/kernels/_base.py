"""The :class:`Kernel` base class, the Gram-matrix helpers every kernel shares, and the
kernels combined by the closure rules (sums, products, positive scalings, shifts), which
the base class's operators return."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from .._validation import check_matrix, check_nonnegative, check_positive
from ..errors import InvalidInputError, InvalidTypeError
from ..math.rounding import UNIT_ROUNDOFF, gamma

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


_U = UNIT_ROUNDOFF
#: relative error allowed for numpy's exp (a few ulps; widened)
_EXP_ULPS = 16 * _U
_gamma_k = gamma  # Higham's gamma_k


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

    def gram_rows(self, X: Any, device: str = "cpu") -> Any:
        """The Gram matrix of the rows of ``X`` by rows on demand, with an entrywise error
        bound against a PSD matrix (:class:`~convexkern.math.gram_rows.GramRows`; its
        rows computed on ``device``), or ``None`` (the default) where the kernel gives
        none: the Gram matrix is then formed whole."""
        return None

    def gram_error(self, X: np.ndarray) -> float | None:
        """A bound ``delta`` with ``|K[i, j] - K*[i, j]| <= delta`` for the Gram matrix ``K``
        this kernel computes of the rows of ``X`` and a matrix ``K*`` positive
        semidefinite by construction (the kernel's exact value on points this computation
        uses), so that ``lambda_min(K) >= -n delta`` with no factorisation of ``K``;
        ``None`` where the kernel gives no such bound (the default: a Gram matrix is then
        checked numerically)."""
        return None

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


class _Pair(_Composite):
    """A kernel of two kernels ``k1``, ``k2`` (the sum and the product)."""

    def __init__(self, k1: Kernel, k2: Kernel) -> None:
        self._k1 = _check_kernel_arg(k1, "k1")
        self._k2 = _check_kernel_arg(k2, "k2")

    k1 = property(lambda self: self._k1)
    k2 = property(lambda self: self._k2)

    def _params(self) -> dict[str, Any]:
        return {"k1": self._k1, "k2": self._k2}

    def _parts(self) -> tuple[Kernel, ...]:
        return (self._k1, self._k2)



class SumKernel(_Pair):
    """Sum ``k(x, z) = k1(x, z) + k2(x, z)``; PSD when both are (Mansour 2013, §kernels).

    Usually built with ``k1 + k2``.

    Examples
    --------
    >>> import numpy as np
    >>> from convexkern.kernels import Linear
    >>> X = np.array([[1.0], [2.0]])
    >>> (Linear() + Linear())(X)
    array([[2., 4.],
           [4., 8.]])
    """

    name = "sum"

    def __repr__(self) -> str:
        return f"{self._k1!r} + {self._k2!r}"

    def _compute(self, X: np.ndarray, Z: np.ndarray, symmetric: bool) -> np.ndarray:
        K = self._k1._compute(X, Z, symmetric)
        K += self._k2._compute(X, Z, symmetric)
        return K


class ProductKernel(_Pair):
    """Elementwise product ``k(x, z) = k1(x, z) k2(x, z)``; PSD when both are (Schur).

    Mansour, SVM lecture notes 2013, §kernels.  Usually built with ``k1 * k2``.

    Examples
    --------
    >>> import numpy as np
    >>> from convexkern.kernels import Linear
    >>> X = np.array([[1.0], [2.0]])
    >>> (Linear() * Linear())(X)
    array([[ 1.,  4.],
           [ 4., 16.]])
    """

    name = "product"

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
    >>> from convexkern.kernels import Linear
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
    >>> from convexkern.kernels import Linear
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
