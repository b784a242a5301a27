"""Kernel rows for :mod:`convexkern.math.smo`: one interface for a precomputed matrix and
for a kernel evaluated on demand (with an LRU row cache), plus the rows restricted to an
active set while shrinking; and the checks of the solver's other arguments."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import numpy as np

from .._validation import (
    check_int,
    check_kernel,
    check_labels,
    check_matrix,
    check_positive,
    check_same_length,
)
from ..errors import InvalidInputError, InvalidTypeError
from .gram_rows import GramRows

__all__ = ["kernel_rows", "row_lookup", "check_settings", "check_alpha0"]


# --------------------------------------------------------------------------------------
# Kernel rows: one interface for a precomputed matrix and for an on-demand kernel
# --------------------------------------------------------------------------------------


class _KernelRows:
    """Access to the kernel matrix by rows.

    ``row(i)`` is ``K[i, :]`` (must not be modified by the caller), ``sub_row(i, cols)``
    is ``K[i, cols]`` (a new array), ``diag`` the diagonal, and ``times(coef, cols)``
    is ``(K @ coef)[cols]``.  ``rows_computed`` counts (full or partial) kernel-row
    evaluations; it stays 0 for a precomputed matrix.
    """

    n: int
    diag: np.ndarray
    rows_computed: int = 0

    def row(self, i: int) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError

    def prepare(self, cols: np.ndarray) -> Any:
        """Anything ``sub_row`` can reuse for every row restricted to ``cols``."""
        return None

    def sub_row(self, i: int, cols: np.ndarray, prepared: Any = None) -> np.ndarray:
        raise NotImplementedError  # pragma: no cover - interface

    def times(self, coef: np.ndarray, cols: np.ndarray | None = None) -> np.ndarray:
        raise NotImplementedError  # pragma: no cover - interface


class _PrecomputedRows(_KernelRows):
    """Rows of an explicit (C-contiguous) kernel matrix; ``row`` returns a view."""

    def __init__(self, K: np.ndarray) -> None:
        self.K = np.ascontiguousarray(K, dtype=np.float64)
        self.n = self.K.shape[0]
        self.diag = np.ascontiguousarray(np.diagonal(self.K), dtype=np.float64)
        self.rows_computed = 0
        # bound method looked up once: row(i) is the hottest call of the solver
        self.row = self.K.__getitem__  # type: ignore[method-assign]

    def sub_row(self, i: int, cols: np.ndarray, prepared: Any = None) -> np.ndarray:
        return self.K[i].take(cols)

    def times(self, coef: np.ndarray, cols: np.ndarray | None = None) -> np.ndarray:
        nz = np.flatnonzero(coef)
        if 3 * nz.size >= self.n:
            out = coef @ self.K  # one pass over K; sum_s c_s K[s, :] like the row updates
        else:
            # sum of c_s K[s, :] over the non-zero c_s: reads only those rows and
            # allocates nothing of size n x n
            out = np.zeros(self.n)
            buf = np.empty(self.n)
            K = self.K
            for s, c in zip(nz.tolist(), coef[nz].tolist(), strict=True):
                np.multiply(K[s], c, out=buf)
                out += buf
        return out if cols is None else out[cols]


class _LRURows:
    """Rows kept in an LRU cache of at most ``capacity`` rows: ``row(i)`` is the cached row
    (then the most recently used) or one computed by ``_miss(i)`` and stored, the least
    recently used row dropped beyond ``capacity`` (counted in ``evictions``)."""

    cache: OrderedDict[int, np.ndarray]
    capacity: int
    evictions: int = 0

    def _miss(self, i: int) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError

    def row(self, i: int) -> np.ndarray:
        cache = self.cache
        r = cache.get(i)
        if r is not None:
            cache.move_to_end(i)
            return r
        r = self._miss(i)
        cache[i] = r
        if len(cache) > self.capacity:
            cache.popitem(last=False)
            self.evictions += 1
        return r


class _CachedKernelRows(_LRURows, _KernelRows):
    """Rows ``kernel(X[i:i+1], X)`` computed on demand and kept in an LRU cache.

    At most ``capacity`` full rows (each ``8 n`` bytes) are held; the full ``n x n``
    matrix is never formed.  ``rows_computed`` counts kernel row evaluations (full or
    partial) and ``evictions`` the rows dropped from the cache.
    """

    def __init__(
        self, kernel: Callable[[np.ndarray, np.ndarray], Any], X: np.ndarray, cache_size_mb: float
    ) -> None:
        self.kernel = kernel
        self.X = X
        self.n = X.shape[0]
        self.capacity = max(2, int(cache_size_mb * 2**20 // (8 * self.n)))
        self.cache: OrderedDict[int, np.ndarray] = OrderedDict()
        self.rows_computed = 0
        self.evictions = 0
        self.diag = self._compute_diag()

    def _block(
        self,
        rows: slice | np.ndarray,
        cols: slice | np.ndarray | None = None,
        B: np.ndarray | None = None,
    ) -> np.ndarray:
        A = self.X[rows]
        if B is None:
            B = self.X if cols is None else self.X[cols]
        try:
            out = np.asarray(self.kernel(A, B), dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise InvalidInputError(
                "kernel", f"kernel(A, B) failed on blocks of X ({type(exc).__name__}: {exc})"
            ) from exc
        if out.shape != (A.shape[0], B.shape[0]):
            raise InvalidInputError(
                "kernel",
                f"kernel(A, B) must return an array of shape (len(A), len(B)) = "
                f"{(A.shape[0], B.shape[0])}, got {out.shape}",
            )
        if not np.all(np.isfinite(out)):
            raise InvalidInputError("kernel", "returned non-finite values (NaN or inf)")
        return out

    def _columns(self, cols: np.ndarray | None) -> Any:
        """What :meth:`_block` takes for the columns ``cols``: those rows of ``X``."""
        return self.X if cols is None else self.X[cols]

    def _compute_diag(self, block: int = 256) -> np.ndarray:
        d = np.empty(self.n)
        for s in range(0, self.n, block):
            e = min(s + block, self.n)
            d[s:e] = np.diagonal(self._block(slice(s, e), slice(s, e)))
        return d

    def _miss(self, i: int) -> np.ndarray:
        r = np.ascontiguousarray(self._block(slice(i, i + 1))[0])
        self.rows_computed += 1
        return r

    def prepare(self, cols: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(self.X[cols])

    def sub_row(self, i: int, cols: np.ndarray, prepared: Any = None) -> np.ndarray:
        r = self.cache.get(i)
        if r is None and len(self.cache) < self.capacity:
            r = self.row(i)  # room left: compute the full row once, it stays useful
        if r is not None:
            return r.take(cols)
        # cache full: evaluate the kernel on the active columns only
        self.rows_computed += 1
        B = self._columns(cols) if prepared is None else prepared
        return np.ascontiguousarray(self._block(slice(i, i + 1), cols, B)[0])

    def times(self, coef: np.ndarray, cols: np.ndarray | None = None) -> np.ndarray:
        nz = np.flatnonzero(coef)
        # rows already in the cache first, then the others by blocks (bounded by the
        # cache budget) restricted to the wanted columns
        cached = [s for s in nz.tolist() if s in self.cache]
        full = np.zeros(self.n)
        for s in cached:
            full += coef[s] * self.cache[s]
        out = full if cols is None else full[cols]
        rest = np.setdiff1d(nz, cached, assume_unique=True)
        m = self.n if cols is None else cols.size
        B = self._columns(cols)
        step = max(1, min(self.capacity * self.n // max(m, 1), 4096))
        for s in range(0, rest.size, step):
            idx = rest[s : s + step]
            out += coef[idx] @ self._block(idx, cols, B)
            self.rows_computed += idx.size
        return out


class _GramRowsAccess(_CachedKernelRows):
    """:class:`_CachedKernelRows` on a :class:`~convexkern.math.gram_rows.GramRows`: the
    rows come from its ``block(rows, cols)`` by index (no validation per call: the
    provider computes them by its own formula), the diagonal from ``diag``."""

    def __init__(self, provider: GramRows, cache_size_mb: float) -> None:
        self.provider = provider
        self.n = provider.n
        self.X = None
        self.capacity = max(2, int(cache_size_mb * 2**20 // (8 * self.n)))
        self.cache: OrderedDict[int, np.ndarray] = OrderedDict()
        # the provider sees the same rows (its certificate's products reuse them)
        provider.cache = self.cache
        self.rows_computed = 0
        self.evictions = 0
        self.diag = np.ascontiguousarray(provider.diag, dtype=np.float64)

    def _block(self, rows: slice | np.ndarray, cols: slice | np.ndarray | None = None,
               B: np.ndarray | None = None) -> np.ndarray:
        idx = np.arange(*rows.indices(self.n)) if isinstance(rows, slice) else rows
        if isinstance(cols, slice):
            cols = np.arange(*cols.indices(self.n))
        return self.provider.rows(idx, cols)

    def _miss(self, i: int) -> np.ndarray:
        self.rows_computed += 1
        return self.provider.row(i)

    def times(self, coef: np.ndarray, cols: np.ndarray | None = None) -> np.ndarray:
        # the provider's product: on the host, one matrix product over the rows already in
        # the cache it shares with SMO, blocks for the others; on a GPU, all of them there,
        # summed there (cheaper than bringing the rows back, even those in the host cache)
        nz = np.flatnonzero(coef)
        if self.provider.device == "cpu":
            cache = self.cache
            self.rows_computed += sum(1 for i in nz.tolist() if i not in cache)
        else:
            self.rows_computed += int(nz.size)
        return self.provider.times(coef, cols)

    def prepare(self, cols: np.ndarray) -> None:
        return None  # the provider takes column indices (in _block)

    def _columns(self, cols: np.ndarray | None) -> Any:
        return None  # the provider takes column indices (in _block)


class _ActiveRows(_LRURows):
    """Rows restricted to an active set ``A`` (shrinking), in local indices.

    ``row(i)`` is ``K[A[i], A]``, gathered once and kept in an LRU cache of at most
    ``cache_size_mb``.  When the active set shrinks again, a row still cached for the
    previous (larger) set is cut down from there instead of from the full row.
    """

    def __init__(
        self,
        base: _KernelRows,
        A: np.ndarray,
        cache_size_mb: float,
        parent: _ActiveRows | None = None,
        pos: np.ndarray | None = None,
    ) -> None:
        self.base = base
        self.A = A
        self.capacity = max(2, int(cache_size_mb * 2**20 // (8 * max(A.size, 1))))
        self.cache: OrderedDict[int, np.ndarray] = OrderedDict()
        self.parent_cache = None if parent is None else parent.cache
        self.pos = pos  # local positions of A within the parent's active set
        self.prepared = base.prepare(A)

    def _miss(self, i: int) -> np.ndarray:
        old = None
        if self.parent_cache is not None:
            # the parent set is gone: hand its rows over instead of keeping both copies
            old = self.parent_cache.pop(int(self.pos[i]), None)  # type: ignore[index]
        if old is not None:
            return old.take(self.pos)
        return self.base.sub_row(int(self.A[i]), self.A, self.prepared)


def row_lookup(rows: Any, size: int) -> Callable[[int], np.ndarray | None]:
    """The fastest way SMO's loop can read row ``i`` of ``rows`` (``size`` rows in all):
    a function returning the row, or ``None`` when it must be computed (call
    ``rows.row(i)`` then).  An LRU cache with room for every row never evicts, so its
    order does not matter and a hit is a plain dictionary look-up."""
    cache = getattr(rows, "cache", None)
    if isinstance(rows, _LRURows) and isinstance(cache, dict) and rows.capacity >= size:
        return cache.get
    return rows.row


def kernel_rows(
    K: Any,
    y: Any,
    kernel: Callable[[np.ndarray, np.ndarray], Any] | None,
    X: Any,
    check_input: bool,
    cache_size_mb: float,
) -> tuple[_KernelRows, np.ndarray]:
    """The validated labels and the row access of :func:`convexkern.math.smo.smo`: a
    precomputed ``K``, or ``kernel`` evaluated on ``X`` (with ``K=None``)."""
    rows: _KernelRows
    if isinstance(K, GramRows):  # rows on demand from a kernel's own evaluator
        if kernel is not None or X is not None:
            raise InvalidInputError(
                "kernel", "give either K (a matrix or GramRows) or kernel and X, not both")
        yv = check_labels(y, "y")
        if yv.size != K.n:
            raise InvalidInputError("y", f"has {yv.size} entries, K has {K.n} rows")
        return _GramRowsAccess(K, cache_size_mb), yv
    if K is not None:
        if kernel is not None or X is not None:
            raise InvalidInputError(
                "kernel", "give either a precomputed K or kernel and X (with K=None), not both"
            )
        yv = check_labels(y, "y")
        # check_input=False: type and shape only, the caller vouches for the values
        rows = _PrecomputedRows(check_kernel(K, "K", n=yv.shape[0], values=check_input))
    else:
        if kernel is None:
            raise InvalidInputError("kernel", "K is None: pass a kernel callable and X")
        if not callable(kernel):
            raise InvalidTypeError("kernel", f"expected a callable, got {type(kernel).__name__}")
        if X is None:
            raise InvalidInputError("X", "K is None: pass the data X the kernel is evaluated on")
        yv = check_labels(y, "y")
        Xv = check_matrix(X, "X")
        check_same_length(yv, Xv, "y", "X")
        rows = _CachedKernelRows(kernel, np.ascontiguousarray(Xv), cache_size_mb)
    return rows, yv


def check_alpha0(alpha0: Any, y: np.ndarray, C: float | np.ndarray) -> np.ndarray:
    """The warm start of :func:`convexkern.math.smo.smo`, checked; an own copy."""
    a = check_matrix(alpha0, "alpha0", ndim=1)
    if a.shape[0] != y.shape[0]:
        raise InvalidInputError("alpha0", f"has {a.shape[0]} entries but y has {y.shape[0]}")
    if np.any(a < 0) or np.any(a > C):
        raise InvalidInputError(
            "alpha0",
            f"is not feasible: entries must lie in [0, C] (C = {_describe(C)}), got min "
            f"{a.min():.6g} and max {a.max():.6g}",
        )
    total = float(np.sum(a))
    resid = abs(float(y @ a))
    if resid > 1e-10 * total:
        raise InvalidInputError(
            "alpha0",
            f"is not feasible: |y' alpha0| = {resid:.3g} exceeds 1e-10 * sum(alpha0) "
            f"= {1e-10 * total:.3g}",
        )
    return np.array(a, dtype=np.float64)  # own copy


def _describe(C: float | np.ndarray) -> str:
    return f"{C:g}" if np.ndim(C) == 0 else f"per-example bounds in [{C.min():g}, {C.max():g}]"


def check_settings(
    C: Any, eps: Any, tau: Any, time_limit: Any, max_iter: Any, history_every: Any,
    cache_size_mb: Any, shrinking: Any, check_input: Any, callback: Any,
) -> tuple[Any, float, float, float | None, int | None, int, float]:
    """The scalar arguments of :func:`smo`, checked (errors name the argument)."""
    if np.ndim(C) == 0 or isinstance(C, (str, bytes)):  # per-example bounds: checked in smo
        C = check_positive(C, "C", allow_inf=True)
    eps = check_positive(eps, "eps")
    tau = check_positive(tau, "tau")
    if time_limit is not None:
        time_limit = check_positive(time_limit, "time_limit")
    if max_iter is not None:
        max_iter = check_int(max_iter, "max_iter", minimum=0)
    history_every = check_int(history_every, "history_every", minimum=1)
    cache_size_mb = check_positive(cache_size_mb, "cache_size_mb")
    for flag, name in ((shrinking, "shrinking"), (check_input, "check_input")):
        if not isinstance(flag, (bool, np.bool_)):
            raise InvalidTypeError(name, f"expected True or False, got {flag!r}")
    if callback is not None and not callable(callback):
        raise InvalidTypeError("callback", f"expected a callable, got {type(callback).__name__}")
    return C, eps, tau, time_limit, max_iter, history_every, cache_size_mb
