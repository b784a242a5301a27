"""Graepel & Herbrich (NIPS 2003): the papers' claims about the SDPM as verdicts.

:func:`check_virtual_support_vectors`: Propositions 2 and 3 (the weight vector is an
expansion in virtual examples on the margin; non-support trajectories carry zero dual
blocks), checked at a solution.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._validation import check_labels, check_positive
from ..formulations.sdpm import DEFAULT_SEGMENT, virtual_support_vectors, worst_case
from ..math.sdpm import check_trajectories

__all__ = ["check_virtual_support_vectors"]


def check_virtual_support_vectors(
    X_traj: Any, y: Any, w: Any, b: float, mu: Any, *, segment: float | None = DEFAULT_SEGMENT,
    C: float | None = None, tol: float = 1e-5,
) -> dict[str, Any]:
    """Verdict on Propositions 2 and 3 at a solution: ``w`` equals the expansion in the
    virtual examples, those lie on the margin (hard margin: ``y (w'x + b) = 1``; soft
    margin: only those with weight ``< C``), and non-support trajectories have zero dual
    blocks (their worst-case margin exceeds 1).

    On the real line an atom at infinity (``theta = inf``, weight on :math:`\\tilde x_{ir}`)
    is not a point on the margin: its condition (complementary slackness for the limit of
    atoms escaping to infinity) is a zero leading coefficient,
    :math:`y_i w^\\top\\tilde x_{ir} = 0`, reported relative to
    :math:`\\|w\\|\\|\\tilde x_{ir}\\|` as ``infinity_residual``.

    Returns a dict with the numbers (``w_residual`` relative, ``margin_residual``,
    ``infinity_residual``, ``zero_block_violation``) and ``ok``.
    """
    X = check_trajectories(X_traj)
    y = check_labels(y, "y", n=X.shape[0])
    w = np.asarray(w, float)
    mu = np.asarray(mu, float)
    vs = virtual_support_vectors(X, y, mu, segment=segment, w=w, b=b)
    w_exp = (vs.alpha * y[vs.index]) @ vs.points if vs.index.size else np.zeros_like(w)
    w_res = float(np.linalg.norm(w_exp - w) / max(np.linalg.norm(w), 1e-300))
    fin = np.isfinite(vs.theta)
    marg = y[vs.index] * (vs.points @ w + b) if vs.index.size else np.zeros(0)
    Cf = math.inf if C is None else check_positive(C, "C")
    # with a soft margin, an atom of a trajectory at the bound mu_0 = C may lie inside
    on = fin.copy()
    if math.isfinite(Cf):
        on &= mu[vs.index, 0] < Cf * (1 - 1e-4)
    margin_res = float(np.max(np.abs(marg[on] - 1.0))) if np.any(on) else 0.0
    inf_res = 0.0
    if np.any(~fin):
        lead = vs.points[~fin]  # the rows x_ir
        inf_res = float(np.max(np.abs(y[vs.index[~fin]] * (lead @ w))
                               / np.maximum(np.linalg.norm(lead, axis=1)
                                            * np.linalg.norm(w), 1e-300)))
    c, _ = worst_case(X @ w, y, segment)
    c = c + y * b
    non_sv = vs.rank == 0
    # complementary slackness: a trajectory with worst-case margin > 1 has mu_i = 0
    strict = c > 1 + 1e-3
    zb = float(np.max(np.abs(mu[strict]))) / max(float(np.abs(mu[:, 0]).max()), 1e-300) \
        if np.any(strict) else 0.0
    return {
        "ok": bool(w_res <= tol and margin_res <= 10 * tol and inf_res <= tol and zb <= tol),
        "w_residual": w_res,
        "margin_residual": margin_res,
        "infinity_residual": inf_res,
        "n_at_infinity": int((~fin).sum()),
        "zero_block_violation": zb,
        "n_support_trajectories": int((~non_sv).sum()),
        "n_virtual": int(vs.index.size),
        "ranks": vs.rank,
        "support": vs,
    }

