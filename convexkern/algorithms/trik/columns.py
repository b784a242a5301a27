"""Kernel columns on demand (:class:`_Columns`) and the up/down-dated inverse of the
original kernel on the working set (:class:`_IndefiniteInverse`, for the Kreĭn check)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import scipy.linalg as sla

from ...errors import InvalidInputError
from ...math.krein import solve_symmetric as _solve_sym


class _Columns:
    """Kernel columns on demand: a precomputed matrix, or a kernel function with a cache
    of the columns of points that entered the support-vector set."""

    def __init__(self, K: np.ndarray | None, kernel: Callable | None, X: np.ndarray | None):
        self.K = K
        self.kernel = kernel
        self.X = X
        self.computed = 0
        if K is not None:
            self.n = K.shape[0]
            self.diag = np.ascontiguousarray(np.diag(K)).copy()
        else:
            assert X is not None and kernel is not None
            self.n = X.shape[0]
            self.slot = np.full(self.n, -1, dtype=np.int64)
            self.cols = np.empty((self.n, 16))
            self.used = 0
            self.diag = np.empty(self.n)
            # the kernel API has no diagonal: take it from small diagonal blocks
            # (n / 128 calls, 128 n evaluations) rather than n one-by-one calls
            for s in range(0, self.n, 128):
                blk = X[s:s + 128]
                try:
                    d = np.diag(np.asarray(kernel(blk, blk), dtype=np.float64))
                except Exception as exc:  # noqa: BLE001 - re-raised with the argument's name
                    raise InvalidInputError("kernel", f"kernel(A, B) failed ({exc})") from None
                if d.shape != (blk.shape[0],) or not np.all(np.isfinite(d)):
                    raise InvalidInputError(
                        "kernel", "kernel(A, A) must be a finite square matrix of size len(A)")
                self.diag[s:s + 128] = d

    def _eval(self, idx: np.ndarray) -> np.ndarray:
        try:
            out = np.asarray(self.kernel(self.X, self.X[idx]), dtype=np.float64)
        except Exception as exc:  # noqa: BLE001 - re-raised with the argument's name
            raise InvalidInputError("kernel", f"kernel(A, B) failed ({exc})") from None
        if out.shape != (self.n, idx.size):
            raise InvalidInputError(
                "kernel", f"kernel(X, Z) must have shape {(self.n, idx.size)}, got {out.shape}")
        if not np.all(np.isfinite(out)):
            raise InvalidInputError("kernel", "returned non-finite values (NaN or inf)")
        self.computed += idx.size
        return out

    def ensure(self, idx: np.ndarray) -> None:
        if self.K is not None:
            return
        new = idx[self.slot[idx] < 0]
        if new.size == 0:
            return
        need = self.used + new.size
        if need > self.cols.shape[1]:
            grown = np.empty((self.n, max(need, 2 * self.cols.shape[1])))
            grown[:, :self.used] = self.cols[:, :self.used]
            self.cols = grown
        self.cols[:, self.used:need] = self._eval(new)
        self.slot[new] = np.arange(self.used, need)
        self.used = need

    def block(self, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """``K[rows][:, cols]``."""
        if self.K is not None:
            return self.K[np.ix_(rows, cols)]
        self.ensure(cols)
        return self.cols[rows][:, self.slot[cols]]

    def times2(self, c1: np.ndarray, c2: np.ndarray) -> np.ndarray:
        """``K @ [c1, c2]`` (two coefficient vectors with the same support)."""
        nz = np.flatnonzero((c1 != 0) | (c2 != 0))
        if self.K is not None:
            if nz.size > self.n // 4:
                return self.K @ np.column_stack([c1, c2])
            return self.K[:, nz] @ np.column_stack([c1[nz], c2[nz]])
        if nz.size == 0:
            return np.zeros((self.n, 2))
        self.ensure(nz)
        return self.cols[:, self.slot[nz]] @ np.column_stack([c1[nz], c2[nz]])

    def times(self, coef: np.ndarray) -> np.ndarray:
        """``K @ coef`` for a ``coef`` supported on points whose columns are known."""
        nz = np.flatnonzero(coef)
        if self.K is not None:
            if nz.size > self.n // 4:
                return self.K @ coef
            return self.K[:, nz] @ coef[nz]
        if nz.size == 0:
            return np.zeros(self.n)
        self.ensure(nz)
        return self.cols[:, self.slot[nz]] @ coef[nz]


class _IndefiniteInverse:
    """``K_WW^{-1}`` for the (indefinite) original kernel on the working set, kept up to
    date by bordering when points enter (Schur complement, O(m^2 p)) and by the rank-one
    formula ``M_rr - M_rk M_kr / M_kk`` when one leaves (O(m^2)).

    ``solve(rhs)`` checks the residual ``|K_WW z - rhs|`` (O(m^2)); above ``1e-8`` relative
    the inverse is recomputed from scratch (symmetric indefinite LU, O(m^3)) and
    ``refactorizations`` counts it; a singular ``K_WW`` falls back to least squares with a
    ``RuntimeWarning`` (:func:`_solve_sym`).
    """

    def __init__(self) -> None:
        self.A = np.zeros((0, 0))  # K_WW
        self.M: np.ndarray | None = np.zeros((0, 0))  # its inverse (None: unknown)
        self.refactorizations = 0
        self.planned = False  # the inverse was dropped by remove_many, not by a failure
        self.fallbacks = 0

    def add(self, B: np.ndarray, D: np.ndarray) -> None:
        m, p = self.A.shape[0], D.shape[0]
        A = np.empty((m + p, m + p))
        A[:m, :m] = self.A
        A[:m, m:] = B
        A[m:, :m] = B.T
        A[m:, m:] = D
        self.A = A
        if self.M is None:
            return
        MB = self.M @ B
        S = D - B.T @ MB
        try:
            Sinv = np.linalg.inv(S)
        except np.linalg.LinAlgError:
            self.M = None
            return
        if not np.all(np.isfinite(Sinv)):
            self.M = None
            return
        T = MB @ Sinv
        M = np.empty((m + p, m + p))
        M[:m, :m] = self.M + T @ MB.T
        M[:m, m:] = -T
        M[m:, :m] = -T.T
        M[m:, m:] = Sinv
        self.M = M

    def remove(self, k: int) -> None:
        keep = np.r_[0:k, k + 1:self.A.shape[0]]
        self.A = self.A[np.ix_(keep, keep)]
        if self.M is None:
            return
        mkk = self.M[k, k]
        if not np.isfinite(mkk) or abs(mkk) < 1e-12 * max(1.0, float(np.abs(self.M).max())):
            self.M = None
            return
        col = self.M[keep, k]
        self.M = self.M[np.ix_(keep, keep)] - np.outer(col, col) / mkk

    def remove_many(self, positions: list[int]) -> None:
        """:meth:`remove` of each of ``positions`` (in decreasing order), or, when the
        downdates (``k`` rank-one updates of ``2 m^2`` flops) would cost more than
        inverting what is left (``2 (m - k)^3``), the inverse dropped for the next
        :meth:`solve` to recompute (not counted as a refactorization: nothing failed)."""
        m, k = self.A.shape[0], len(positions)
        if self.M is not None and k * m * m <= (m - k) ** 3:
            for pos in positions:
                self.remove(pos)
            return
        keep = np.setdiff1d(np.arange(m), positions)
        self.A = self.A[np.ix_(keep, keep)]  # one gather, not one copy a position
        if self.M is not None:
            self.M = None
            self.planned = True

    def solve(self, rhs: np.ndarray) -> np.ndarray:
        if rhs.size == 0:
            return np.zeros(0)
        if self.M is not None:
            z = self.M @ rhs
            res = float(np.max(np.abs(self.A @ z - rhs)))
            if res <= 1e-8 * max(1.0, float(np.max(np.abs(rhs)))):
                return z
        self.refactorizations += 0 if self.planned and self.M is None else 1
        self.planned = False
        z, fb = _solve_sym(self.A, rhs)
        self.fallbacks += int(fb)
        if fb:
            self.M = None
        else:
            try:
                self.M = sla.inv(self.A, check_finite=False)
            except np.linalg.LinAlgError:
                self.M = None
        return z
