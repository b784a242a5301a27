"""Rows of a Gram matrix computed on demand, with the entrywise error bound that makes a
certificate from them a proof.

LIBSVM never forms the kernel matrix: SMO touches the rows of its working sets, and the
decision values need only the support vectors' rows.  :class:`GramRows` gives SMO
(:func:`convexkern.math.smo.smo`) and the SVM certificate
(:func:`convexkern.math.svm.dual_bounds`) that access.  Every entry it computes is within
``entry_error`` of the matching entry of a matrix ``K*`` that is positive semidefinite by
construction (for the RBF kernel, :meth:`convexkern.kernels.RBF.gram_rows`: its exact
value on the stored centred points), and at most ``k_max`` in magnitude, so that the
certificate bounds the SVM on ``K*`` with no factorisation and no ``n x n`` matrix.

The rows may be computed on a GPU (``device="gpu"``, :mod:`convexkern.math.device`):
``block`` then returns device arrays, :meth:`GramRows.rows` brings them to the host for
SMO's loop, and :meth:`GramRows.times` sums the certificate's rows where they are computed
(the bound ``entry_error`` holds for any order of the dot products, so it covers a GPU's).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .device import module, to_host

__all__ = ["GramRows"]

#: entries formed at a time by :meth:`GramRows.times` (32 MiB of doubles; 512 MiB on a GPU)
_BLOCK_ENTRIES = 1 << 22
_GPU_BLOCK_ENTRIES = 1 << 26


class GramRows:
    """On-demand rows of an ``n x n`` Gram matrix.

    Parameters
    ----------
    n : int
    block : callable ``(rows, cols) -> array``
        The entries ``K[rows][:, cols]`` (``cols=None``: every column; both host index
        arrays), computed by one formula whose entrywise error ``entry_error`` bounds,
        whatever the block; an array of ``device``.
    diag : (n,) array
        The diagonal (for SMO's curvature; the certificate does not use it).
    entry_error : float
        ``|K[i, j] - K*[i, j]| <= entry_error`` for every entry ``block`` returns, with
        ``K*`` symmetric positive semidefinite (the matrix the certificate is about).
    k_max : float
        ``|K[i, j]| <= k_max`` for every computed entry and every entry of ``K*``.
    device : {"cpu", "gpu"}, default "cpu"
        Where ``block`` computes (a resolved device, :func:`convexkern.math.device.resolve`).
    row : callable ``i -> (n,) array``, optional
        One full row on the host, by the same formula as ``block`` (so within
        ``entry_error`` of ``K*``): SMO's row misses, one at a time, skip the index
        arrays and broadcasting of a general block (:meth:`row`).
    """

    def __init__(self, n: int, block: Callable[[np.ndarray, np.ndarray | None], Any],
                 diag: np.ndarray, entry_error: float, k_max: float, *,
                 device: str = "cpu", row: Callable[[int], np.ndarray] | None = None) -> None:
        self.n = int(n)
        self.shape = (self.n, self.n)
        self.block = block
        self.diag = diag
        self.entry_error = float(entry_error)
        self.k_max = float(k_max)
        self.device = device
        self._row = row
        #: full rows already computed, by index (SMO's row cache, shared when SMO runs on
        #: these rows: the certificate's :meth:`times` then reuses them)
        self.cache: dict[int, np.ndarray] = {}

    def rows(self, rows: np.ndarray, cols: np.ndarray | None = None) -> np.ndarray:
        """``K[rows][:, cols]`` on the host (``block``'s, brought back from the device)."""
        return to_host(self.block(rows, cols))

    def row(self, i: int) -> np.ndarray:
        """``K[i, :]`` on the host, a new array: by the provider's own one-row formula
        when it has one, else a block of one row."""
        if self._row is not None:
            return self._row(i)
        return np.ascontiguousarray(self.rows(np.array([i]), None)[0])

    def times(self, coef: np.ndarray, cols: np.ndarray | None = None) -> np.ndarray:
        """``(sum_j coef_j K[j, :])[cols]`` over the non-zero ``coef_j`` only (their rows,
        in blocks, summed on the device that computes them), on the host: the decision
        values of a dual point from its support vectors' rows."""
        nz = np.flatnonzero(coef)
        m = self.n if cols is None else int(np.size(cols))
        xp = module(self.device)
        gpu = xp is not np
        out = xp.zeros(m)
        if not gpu and self.cache:  # rows SMO computed: one product, no recomputation
            hit = np.array([i for i in nz.tolist() if i in self.cache], dtype=np.intp)
            if hit.size:
                R = np.array([self.cache[i] for i in hit.tolist()])  # rows of equal length
                out += coef[hit] @ (R if cols is None else R[:, cols])
                nz = np.setdiff1d(nz, hit, assume_unique=True)
        step = max(1, (_GPU_BLOCK_ENTRIES if gpu else _BLOCK_ENTRIES) // max(m, 1))
        for s in range(0, nz.size, step):
            idx = nz[s: s + step]
            c = coef[idx]
            out += (xp.asarray(c) if gpu else c) @ self.block(idx, cols)
        return to_host(out)

    def full(self) -> np.ndarray:
        """The whole matrix on the host (for a conic solver), symmetrised: each computed
        entry and its mirror are both within ``entry_error`` of ``K*``, so is their
        mean."""
        K = self.block(np.arange(self.n), None)
        K += K.T
        K *= 0.5
        return to_host(K)
