"""PSD blocks of a conic form: the svec layout, verified shifts (Rump's Cholesky test),
one block at a time or a stack of blocks of one side at once; used by
:mod:`convexkern.math.conic.cones`."""

from __future__ import annotations

import functools
import math

import numpy as np
import scipy.linalg

from .data import _U, _gamma, _up

__all__ = ["psd_shift", "psd_shifts", "stacked"]


@functools.lru_cache(maxsize=128)
def _svec_index(k: int, lower: bool) -> tuple[np.ndarray, np.ndarray]:
    """Row and column of each svec entry of a k x k block, listed column by column over
    the lower (``lower=True``) or the upper triangle (read-only, kept per ``(k, lower)``:
    the cone rules ask for them every round, and numpy builds them from a k x k mask)."""
    # column-major order of the lower triangle is row-major order of the upper one, and
    # the other way round: (i, j) from numpy's row-major lists, transposed
    i, j = np.triu_indices(k) if lower else np.tril_indices(k)
    i.flags.writeable = False
    j.flags.writeable = False
    return j, i


def _smat(v: np.ndarray, k: int, lower: bool) -> np.ndarray:
    """The symmetric ``k x k`` matrix whose scaled svec is ``v``."""
    return stacked(v, np.zeros(1, dtype=np.intp), k, lower)[0]


def stacked(v: np.ndarray, starts: np.ndarray, k: int, lower: bool) -> np.ndarray:
    """The ``k x k`` blocks whose svecs start at ``starts`` in ``v``, as a stack
    ``(blocks, k, k)``: each the matrix :func:`_smat` gives (the same operations on
    each entry)."""
    r, c = _svec_index(k, lower)
    V = v[starts[:, None] + np.arange(r.size)]
    M = np.zeros((starts.size, k, k))
    vals = np.where(r != c, V / math.sqrt(2.0), V)
    M[:, r, c] = vals
    M[:, c, r] = vals
    return M


def _rump_c(M: np.ndarray, extra: float) -> float:
    """Rump's constant for the Cholesky test of ``M + extra I`` (BIT 46, 2006, doubled)."""
    k = M.shape[0]
    return float(_rump_of(k, float(np.sum(np.abs(np.diag(M)))) + k * abs(extra)))


def _rump_of(k: int, trace: float | np.ndarray) -> float | np.ndarray:
    """:func:`_rump_c` from the side ``k`` and ``sum |M_ii| + k |extra|`` (elementwise for
    an array of them: the same operations on each)."""
    g = float(_gamma(k + 2))
    return 2.0 * g / (1.0 - g) * trace + 1e-290


def _chol_ok(A: np.ndarray) -> bool:
    try:
        np.linalg.cholesky(A)
        return True
    except np.linalg.LinAlgError:
        return False


def psd_shift(M: np.ndarray, margin: float = 0.0) -> float:
    """A shift ``t >= 0`` with ``M + (t - margin) I`` positive definite, verified:
    floating-point Cholesky of that matrix minus ``c I`` runs to completion, ``c`` from
    Rump's test ("Verification of positive definiteness", BIT 46, 2006), doubled for
    safety.  ``t = 0`` when ``M - margin I`` is verified PD as it is; ``inf`` if no shift
    could be verified."""
    k = M.shape[0]
    if k == 0:
        return 0.0
    if not (np.all(np.isfinite(M)) and math.isfinite(margin)):
        return math.inf
    eye = np.eye(k)
    c0 = _rump_c(M, margin)
    if _chol_ok(M - (margin + c0) * eye):
        return 0.0
    lam = float(scipy.linalg.eigvalsh(M, subset_by_index=[0, 0])[0])
    t = max(0.0, margin - lam)
    scale = float(np.max(np.abs(np.diag(M)))) + 1.0e-300
    for _ in range(6):
        c = _rump_c(M, t + margin)
        shift = t + 2.0 * c
        if _chol_ok(M + (shift - margin - c) * eye):
            return _up(shift)
        t = 2.0 * t + 4.0 * c + 16.0 * _U * scale
    return math.inf


#: from this many blocks of one side on, :func:`psd_shifts` tests them in one batch
#: (SDPLIB's truss problems: dozens of 3 x 3 to 6 x 6 blocks, each a Python step of
#: Cholesky, eigenvalue and Rump constant before)
_BATCH = 4


def psd_shifts(Ms: np.ndarray, margins: np.ndarray) -> np.ndarray:
    """:func:`psd_shift` of each matrix of the stack ``Ms`` (``(blocks, k, k)``) with its
    margin, the same values: the blocks whose Rump test passes as they are (shift 0) are
    found by one batched Cholesky factorisation of exactly the matrices
    :func:`psd_shift` factorises (screened by their eigenvalues first, so that one block
    that fails does not fail the batch); every other block goes through
    :func:`psd_shift` alone."""
    B = Ms.shape[0]
    margins = np.asarray(margins, dtype=float)
    out = np.empty(B)
    todo = np.ones(B, dtype=bool)
    k = Ms.shape[1] if Ms.ndim == 3 else 0
    if B >= _BATCH and k > 0:
        fin = np.flatnonzero(np.all(np.isfinite(Ms.reshape(B, -1)), axis=1)
                            & np.isfinite(margins))
        M = Ms[fin]
        # Rump's constant of each block, as _rump_c computes it (each trace a sum of its
        # own contiguous row, as np.sum of the block's diagonal)
        diag = np.ascontiguousarray(np.abs(np.diagonal(M, axis1=1, axis2=2)))
        c0 = _rump_of(k, np.array([float(np.sum(d)) for d in diag])
                      + k * np.abs(margins[fin]))
        with np.errstate(invalid="ignore", over="ignore"):
            T = M - (margins[fin] + c0)[:, None, None] * np.eye(k)
        # the screen: blocks whose shifted matrix overflowed, or a batch LAPACK cannot
        # finish (entries near 1e308), are left to psd_shift one by one
        lam = np.full(fin.size, -np.inf)
        ok = np.all(np.isfinite(T.reshape(fin.size, -1)), axis=1)
        if ok.any():
            try:
                lam[ok] = np.linalg.eigvalsh(T[ok])[:, 0]
            except np.linalg.LinAlgError:
                pass
        scale = np.max(diag, axis=1, initial=0.0) if fin.size else np.zeros(0)
        cand = lam > 1e-10 * scale
        if np.any(cand):
            try:
                np.linalg.cholesky(T[cand])
            except np.linalg.LinAlgError:
                cand[:] = False  # one of them fails after all: each is tested alone
            out[fin[cand]] = 0.0
            todo[fin[cand]] = False
    for b in np.flatnonzero(todo):
        out[b] = psd_shift(Ms[b], float(margins[b]))
    return out
