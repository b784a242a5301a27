"""Dense least squares factorised once and solved for several right-hand sides.

The certificate's polishing steps (:mod:`convexkern.math.conic.fix`) solve ``N z ~ r``
twice with the same ``N`` and a new residual ``r``.  SciPy's ``lstsq`` (LAPACK
``gelsy``) factorises ``N`` anew on every call.  Here ``N`` is factorised once, by the
same complete orthogonal factorisation ``gelsy`` uses (Golub & Van Loan, *Matrix
Computations*, 4th ed., sections 5.4.2 and 5.5.5): a column-pivoted Householder QR
``N P = Q R`` (``geqp3``), its numerical rank ``r`` (the diagonal of ``R`` above ``eps``
times its first entry, ``gelsy``'s ``rcond``), and ``R``'s leading ``r`` rows reduced to
``[T11 0] Z`` (``tzrzf``).  Each solve is then ``z = P Z' [T11^{-1} (Q'r)_r; 0]``, the
least-squares solution of least norm, at the cost of a few products with ``Q`` and
``Z``.  Zero columns (multipliers that touch none of the rows) are left out of the
factorisation; their unknowns are 0.  The solutions agree with ``gelsy``'s to about
1e-16 relative (also on the polish's rank-deficient, badly scaled systems, where another
least-squares method gives other digits and, measured on kernel logistic regression,
looser bounds); the second solve is nearly free.  Nothing rests on these solutions being
exact: the callers recompute the residual they leave.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import scipy.linalg
import scipy.sparse as sp
import scipy.sparse.linalg
from scipy.linalg import lapack

__all__ = ["least_squares", "sparse_least_squares"]

_EPS = float(np.finfo(float).eps)


def least_squares(N: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    """A function ``solve(r)`` giving the least-squares solution of least norm of
    ``N z ~ r`` (as ``scipy.linalg.lstsq(N, r, lapack_driver="gelsy")``) for a dense
    ``N`` factorised once; ``N`` is not modified.  Raises ``ValueError`` or
    ``LinAlgError`` on a matrix that is not finite or cannot be factorised."""
    N = np.asarray(N, dtype=float)
    used = np.flatnonzero(np.any(N != 0, axis=0))
    if used.size < N.shape[1]:  # a zero column takes no part: its unknown is 0
        inner, full = least_squares(N[:, used]), N.shape[1]

        def scatter(r: np.ndarray) -> np.ndarray:
            z = np.zeros(full)
            z[used] = inner(r)
            return z
        return scatter
    J, M = N.shape
    k = min(J, M)
    if k == 0:
        return lambda r: np.zeros(M)
    A = np.array(N, order="F")  # a copy: the factorisation overwrites it
    (qr, tau), R, piv = scipy.linalg.qr(A, pivoting=True, mode="raw", overwrite_a=True)
    qr = np.asfortranarray(qr[:, :k])  # the reflectors (a wide N's R is trapezoidal)
    d = np.abs(np.diagonal(R))
    rank = int(np.count_nonzero(d > _EPS * d[0])) if d[0] > 0 else 0  # gelsy: rcond = eps
    _, work, _ = lapack.dormqr(b"L", b"T", qr, tau, np.zeros((J, 1)), -1)
    lwork = max(int(work[0]), 1)
    T11, rz = R[:rank, :rank], None
    if 0 < rank < M:  # [R11 R12] = [T11 0] Z (complete orthogonal factorisation)
        rz, ztau, info = lapack.dtzrzf(np.array(R[:rank], order="F"),
                                       lwork=max(64 * rank, 1))
        if info != 0:
            raise np.linalg.LinAlgError("the trapezoidal factorisation failed")
        T11 = np.triu(rz[:, :rank])

    def solve(r: np.ndarray) -> np.ndarray:
        """N P = Q_r [T11 0] Z: z = P Z' [T11^{-1} (Q'r)_r; 0]."""
        r = np.asarray(r, dtype=float)
        z = np.zeros(M)
        if rank == 0:
            return z
        qtr = lapack.dormqr(b"L", b"T", qr, tau, r.reshape(-1, 1).copy(), lwork,
                            overwrite_c=1)[0][:rank, 0]
        p = np.zeros((M, 1))
        p[:rank, 0] = scipy.linalg.solve_triangular(T11, qtr)
        if rz is not None:
            p = lapack.dormrz(rz, ztau, p, side=b"L", trans=b"T",
                              lwork=max(64 * M, 1), overwrite_c=1)[0]
        z[piv] = p[:, 0]
        return z
    return solve


def sparse_least_squares(N: sp.spmatrix, iter_lim: int = 400
                         ) -> Callable[[np.ndarray], np.ndarray]:
    """``solve(r)`` for a sparse ``N`` too large to factorise densely: LSQR (Paige &
    Saunders 1982, ``scipy.sparse.linalg.lsqr``) from 0, which tends to the least-squares
    solution of least norm, run to its tolerance of 1e-16 or ``iter_lim`` steps.  Its
    accuracy depends on ``N``'s conditioning; the callers recompute what it leaves (a
    dual correction's rows on SCS: 1535 x 10,000, 9 s by :func:`least_squares`)."""
    N = sp.csr_matrix(N, dtype=float)

    def solve(r: np.ndarray) -> np.ndarray:
        return scipy.sparse.linalg.lsqr(N, np.asarray(r, dtype=float), atol=1e-16,
                                        btol=1e-16, conlim=1e16, iter_lim=iter_lim)[0]
    return solve
