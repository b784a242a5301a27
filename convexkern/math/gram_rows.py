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
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["GramRows"]

#: entries formed at a time by :meth:`GramRows.times` (32 MiB of doubles)
_BLOCK_ENTRIES = 1 << 22


class GramRows:
    """On-demand rows of an ``n x n`` Gram matrix.

    Parameters
    ----------
    n : int
    block : callable ``(rows, cols) -> ndarray``
        The entries ``K[rows][:, cols]`` (``cols=None``: every column), computed by one
        formula whose entrywise error ``entry_error`` bounds, whatever the block.
    diag : (n,) array
        The diagonal (for SMO's curvature; the certificate does not use it).
    entry_error : float
        ``|K[i, j] - K*[i, j]| <= entry_error`` for every entry ``block`` returns, with
        ``K*`` symmetric positive semidefinite (the matrix the certificate is about).
    k_max : float
        ``|K[i, j]| <= k_max`` for every computed entry and every entry of ``K*``.
    """

    def __init__(self, n: int, block: Callable[[np.ndarray, np.ndarray | None], np.ndarray],
                 diag: np.ndarray, entry_error: float, k_max: float) -> None:
        self.n = int(n)
        self.shape = (self.n, self.n)
        self.block = block
        self.diag = diag
        self.entry_error = float(entry_error)
        self.k_max = float(k_max)

    def times(self, coef: np.ndarray) -> np.ndarray:
        """``sum_j coef_j K[j, :]`` over the non-zero ``coef_j`` only (their rows, in
        blocks): the decision values of a dual point from its support vectors' rows."""
        nz = np.flatnonzero(coef)
        out = np.zeros(self.n)
        step = max(1, _BLOCK_ENTRIES // max(self.n, 1))
        for s in range(0, nz.size, step):
            idx = nz[s: s + step]
            out += coef[idx] @ self.block(idx, None)
        return out

    def full(self) -> np.ndarray:
        """The whole matrix (for a conic solver), symmetrised: each computed entry and
        its mirror are both within ``entry_error`` of ``K*``, so is their mean."""
        K = self.block(np.arange(self.n), None)
        K += K.T
        K *= 0.5
        return K
