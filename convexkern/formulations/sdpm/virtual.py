"""Virtual support vectors (Propositions 2 and 3; see :mod:`convexkern.formulations.sdpm`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..._validation import check_labels
from ...errors import InvalidInputError
from ...math import sos
from ...math.sdpm import check_trajectories
from ._common import DEFAULT_SEGMENT


@dataclass(frozen=True)
class VirtualSupport:
    """The truly virtual support vectors of a fitted SDPM (Propositions 2 and 3).

    Attributes
    ----------
    index : (k,) int array
        Trajectory of each virtual support vector.
    theta : (k,) array
        Its parameter value :math:`\\theta_{ij}` (in ``S``), or ``inf`` for an atom at
        infinity (real line only, see :func:`convexkern.math.sos.atoms`).
    alpha : (k,) array
        Its weight in :math:`w = \\sum_j \\alpha_j y_{i_j} \\tilde x_{i_j}(\\theta_j)`.
    points : (k, n) array
        The virtual examples :math:`\\tilde x_{i_j}(\\theta_j)` (linear case); for an atom
        at infinity the leading coefficient row :math:`\\tilde x_{ir}` (the limit of
        :math:`\\tilde x_i(\\theta)/\\theta^r`), whose weight is the mass at infinity.
    rank : (m,) int array
        Numerical rank of each dual matrix :math:`M_i = H(\\mu_i)`: eigenvalues above
        ``rtol`` times the largest of all the :math:`M_i` (0 for non-support trajectories).
    """

    index: np.ndarray
    theta: np.ndarray
    alpha: np.ndarray
    points: np.ndarray | None
    rank: np.ndarray


def _eval_traj(X: np.ndarray, idx: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """``x_i(theta)``; the leading row ``x_ir`` for ``theta = inf`` (an atom at infinity)."""
    R = X.shape[1]
    inf = ~np.isfinite(theta)
    V = np.zeros((theta.size, R))
    V[~inf] = theta[~inf, None] ** np.arange(R)[None, :]
    V[inf, R - 1] = 1.0
    return np.einsum("kr,krn->kn", V, X[idx])


def virtual_support_vectors(
    X_traj: Any, y: Any, mu: Any, *, segment: float | None = DEFAULT_SEGMENT,
    w: Any = None, b: float = 0.0, rtol: float = 1e-6,
) -> VirtualSupport:
    """Extract the support trajectories and their atoms from the dual moments ``mu``.

    Degree 2: closed form from each 2x2 moment matrix (rank 1: one atom at
    :math:`\\mu_{i1}/\\mu_{i0}`; rank 2 on a segment: atoms at :math:`\\pm\\tau`; rank 2 on
    :math:`\\mathbb R`: one atom at :math:`\\mu_{i1}/\\mu_{i0}` plus an atom at infinity of
    weight :math:`\\mu_{i2} - \\mu_{i1}^2/\\mu_{i0}` on the row :math:`\\tilde x_{ir}`, which
    happens when :math:`y_i w^\\top\\tilde x_{ir} = 0` at the optimum).  Higher degree:
    Prony's points when the moment matrix is flat, or the minimisers of the margin
    polynomial ``y_i (w' x_i(theta) + b)`` over ``S`` (needs ``w``; plus infinity on R),
    weights by nonnegative least squares on the moments (:func:`convexkern.math.sos.atoms`);
    a trajectory keeps at most as many atoms as the numerical rank of its moment matrix.
    """
    X = check_trajectories(X_traj)
    y = check_labels(y, "y", n=X.shape[0])
    mu = np.asarray(mu, float)
    m, R, n = X.shape
    scale = max(float(np.max(np.abs(mu))), 1e-300)
    cand = None
    if R - 1 > 2:
        if w is None:
            raise InvalidInputError("w", "degree > 2 needs w to locate the support points")
        F = y[:, None] * (X @ np.asarray(w, float))
        F[:, 0] += y * b
        roots = sos._deriv_roots(F)
        cand = []
        for i in range(m):
            c = roots[i][np.isfinite(roots[i])]
            if segment is not None:
                c = c[np.abs(c) <= segment]
                c = np.concatenate([c, [-segment, segment]])
            cand.append(c)
    at = sos.atoms(mu, segment, candidates=cand, rtol=rtol, scale=scale)
    ev = np.linalg.eigvalsh(sos.hankel(mu[:, : 2 * ((R - 1) // 2) + 1]))
    ranks = (ev > rtol * max(float(ev.max(initial=0.0)), 1e-300)).sum(1)
    ranks[np.abs(mu).max(1) <= rtol * scale] = 0
    idx, th, al = [], [], []
    r = R - 1
    for i, (t, a) in enumerate(at):
        # an atom's size in the moments: a max(1, |theta|)^r (a for an atom at infinity)
        size = a * np.where(np.isfinite(t), np.maximum(1.0, np.abs(t)), 1.0) ** r
        keep = size > rtol * scale
        if R > 3 and keep.sum() > ranks[i] > 0:
            # a measure whose moment matrix has rank k <= l has exactly k atoms: more
            # (a least-squares fit of inexact moments) are noise; keep the k largest
            keep &= size >= np.sort(size[keep])[-ranks[i]]
        idx.extend([i] * int(keep.sum()))
        th.extend(t[keep])
        al.extend(a[keep])
    idx_a = np.asarray(idx, dtype=int)
    th_a = np.asarray(th, float)
    return VirtualSupport(
        index=idx_a, theta=th_a, alpha=np.asarray(al, float),
        points=_eval_traj(X, idx_a, th_a) if idx_a.size else np.zeros((0, n)), rank=ranks,
    )
