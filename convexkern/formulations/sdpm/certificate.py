r"""Certified bounds on the SDPM primal (6) optimum (see :mod:`convexkern.formulations.sdpm`).

Upper bound: exact worst-case margins of ``w`` (polynomial roots), then the best bias
(soft margin: exact hinge slack; hard margin: a rescaling).  Lower bound: moments moved
into the dual feasible set and the dual objective (8) evaluated.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..._validation import check_labels, check_margin_C, check_matrix
from ...errors import InvalidInputError
from ...formulation import Formulation
from ...math import sos
from ...math.sdpm import UNIT, check_trajectories, coefficient_error, rigorous_min, row_norms
from ...report import Certificate
from ..svm import best_hinge_bias
from ._common import DEFAULT_SEGMENT, _check_candidate


def worst_case(
    F: np.ndarray, y: np.ndarray, segment: float | None
) -> tuple[np.ndarray, np.ndarray]:
    """``c_i = min_{theta in S} y_i f_i(theta)`` and the minimiser, ``f_i`` with coefficients
    ``F[i]`` (e.g. ``F = X_traj @ w``)."""
    return sos.poly_min(y[:, None] * F, segment)


def _upper(F: np.ndarray, quad: float, y: np.ndarray, segment: float | None, C: float,
           bias: bool, E: np.ndarray | None = None) -> tuple[float, dict[str, Any]]:
    """Primal value of the repaired point (see the module docstring) and its parts.

    ``E`` bounds the rounding error of the coefficients ``F`` (``F = X @ w`` computed in
    floating point, :func:`convexkern.math.sdpm.coefficient_error`): the margins are then
    rigorous lower bounds (:func:`convexkern.math.sdpm.rigorous_min` for degree ``<= 2``;
    above, the computed minimum less ``sum_k E_k tau^k`` and its evaluation's rounding)."""
    c, th = worst_case(F, y, segment)
    info: dict[str, Any] = {"theta_worst": th, "margin_worst": c}
    if E is not None and segment is not None:
        if F.shape[1] <= 3:
            lo = rigorous_min(y[:, None] * F, E, segment)
        else:
            tk = float(segment) ** np.arange(F.shape[1])
            mag = np.abs(F) @ tk
            lo = c - E @ tk - 4 * F.shape[1] * UNIT * mag
        info["margin_rounding"] = float(np.max(c - lo)) if c.size else 0.0
        c = np.minimum(c, lo)
        info["margin_worst"] = c
    return _upper_margins(c, quad, y, C, bias, info, rigorous=E is not None)


def _upper_margins(c: np.ndarray, quad: float, y: np.ndarray, C: float, bias: bool,
                   info: dict[str, Any], rigorous: bool = False) -> tuple[float, dict[str, Any]]:
    """Primal value from exact worst-case margins ``c_i`` (without bias) of ``w`` with
    ``quad = ||w||^2``: best bias, exact hinge slack (soft margin) or the rescaling
    ``(w, b) / gamma`` (hard margin).

    ``rigorous``: ``c`` are rigorous lower bounds of the margins and the value is an upper
    bound in exact arithmetic: each slack ``1 - c_i - y_i b`` and each margin
    ``c_i + y_i b`` is moved by the rounding of its evaluation (relative to the magnitudes
    it subtracts), and the sums of nonnegative terms are rounded up by a relative
    ``(n + m + 10)``-unit factor (``||w||^2`` has ``n`` terms, the hinge ``m``)."""
    quad = max(float(quad), 0.0)
    up = 1.0 + 2 * (y.size + 10) * UNIT if rigorous else 1.0
    if not np.all(np.isfinite(c)):
        info.update(scale=math.nan, b=0.0, xi=np.full(y.size, math.inf))
        return math.inf, info
    if math.isinf(C):
        if bias:
            pos, neg = c[y > 0].min(), c[y < 0].min()
            b = 0.5 * (neg - pos)
            gamma = 0.5 * (pos + neg)
        else:
            b, gamma = 0.0, float(c.min())
        if rigorous:  # the smallest margin of (w, b), its rounding included
            gamma = float(np.min(c + y * b - 4 * UNIT * (np.abs(c) + abs(b))))
        info.update(b=b, gamma=gamma)
        if gamma <= 0:
            info.update(scale=math.nan, xi=np.zeros(y.size))
            return math.inf, info
        info.update(scale=1.0 / gamma, xi=np.zeros(y.size))
        return 0.5 * quad / gamma**2 * up * (1 + 8 * UNIT), info
    biases = [best_hinge_bias(y * c, y)[0]] if bias else [0.0]
    if bias and np.any(y > 0) and np.any(y < 0):  # the hard margin's bias, for the rescaling
        biases.append(0.5 * (float(c[y < 0].min()) - float(c[y > 0].min())))
    best = (math.inf, 1.0, 0.0, np.full(y.size, math.inf))
    for b in biases:
        marg = c + y * b - 4 * UNIT * (np.abs(c) + abs(b))  # margins of (w, b), rounding off
        for sc in {1.0, _best_scale(quad, marg, C)}:
            xi = np.maximum(0.0, 1.0 - sc * marg + 4 * UNIT * (1.0 + sc * np.abs(marg)))
            val = (0.5 * quad * sc * sc + C * float(xi.sum())) * up * (1 + 4 * UNIT)
            if val < best[0]:
                best = (val, sc, b, xi)
    val, sc, b, xi = best
    info.update(b=b, scale=sc, xi=xi)
    return val, info


def _best_scale(q: float, marg: np.ndarray, C: float) -> float:
    """The exact minimiser over ``s >= 0`` of ``1/2 q s^2 + C sum_i max(0, 1 - s marg_i)``
    (the point ``s (w, b)`` with exact slacks; convex, piecewise quadratic with kinks at
    ``1/marg_i``): with a large ``C`` and a ``w`` whose margins are all slightly below 1,
    scaling ``w`` up beats paying ``C`` times the missing margin (``s = 0``: the point
    ``w = 0``).  ``1.0`` when ``q = 0``."""
    if not q > 0 or not np.all(np.isfinite(marg)):
        return 1.0
    pos = np.sort(marg[marg > 0])[::-1]  # kinks 1/pos ascending
    s_neg, n_neg = float(marg[marg <= 0].sum()), int((marg <= 0).sum())
    # on [kink_k, kink_{k+1}) the terms still active are the nonpositive margins and pos[k:]
    suffix = np.concatenate([np.cumsum(pos[::-1])[::-1], [0.0]])
    kinks = np.concatenate([[0.0], 1.0 / pos, [math.inf]])
    SA = s_neg + suffix
    nA = n_neg + (pos.size - np.arange(pos.size + 1))
    st = np.clip(C * SA / q, kinks[:-1], kinks[1:])
    st = np.where(np.isfinite(st), st, kinks[:-1])
    phi = 0.5 * q * st * st + C * (nA - st * SA)
    k = int(np.argmin(phi))
    return float(st[k]) if math.isfinite(st[k]) else 1.0


def _feasible_moments(mu: np.ndarray, y: np.ndarray, segment: float | None, C: float,
                      bias: bool) -> tuple[np.ndarray, float]:
    """Move ``mu`` into the dual feasible set; returns it and the max change."""
    mu0 = np.array(mu, dtype=float)
    m = sos.moment_repair(mu0, segment) if mu0.shape[1] > 1 else np.maximum(mu0, 0.0)
    if math.isfinite(C):
        s = np.minimum(1.0, C / np.maximum(m[:, 0], 1e-300))
        m = m * s[:, None]
    if bias:
        P = float(m[y > 0, 0].sum())
        N = float(m[y < 0, 0].sum())
        if P > N and P > 0:
            m[y > 0] *= N / P
        elif N > P and N > 0:
            m[y < 0] *= P / N
    return m, float(np.max(np.abs(m - mu0))) if mu0.size else 0.0


def dual_objective(mu: np.ndarray, y: np.ndarray, X_traj: np.ndarray | None = None, *,
                   G: np.ndarray | None = None) -> float:
    """:math:`\\sum_i\\mu_{i0} - \\tfrac12\\|\\sum_i y_i\\tilde X_i^\\top\\mu_i\\|^2` (dual (8));
    with ``G`` (the trajectory Gram, ``(m, r+1, m, r+1)``) instead of ``X_traj`` for kernels."""
    v = y[:, None] * mu
    if G is not None:
        m, R = v.shape
        vv = v.reshape(-1)
        quad = float(vv @ (G.reshape(m * R, m * R) @ vv))
    else:
        wv = np.einsum("ik,ikn->n", v, X_traj)
        quad = float(wv @ wv)
    return float(mu[:, 0].sum() - 0.5 * max(quad, 0.0))


def certificate(
    X_traj: Any,
    y: Any,
    *,
    segment: float | None = DEFAULT_SEGMENT,
    C: float | None = None,
    bias: bool = True,
    w: Any = None,
    mu: Any = None,
    G: np.ndarray | None = None,
    _norms: np.ndarray | None = None,
) -> Certificate:
    """Certified bounds on the primal (6) optimum from a weight vector and/or moments.

    Parameters
    ----------
    X_traj, y, segment, C, bias : as in :func:`primal` (``X_traj`` may be None with ``G``)
    w : (n,) array, optional
        A primal candidate; default ``w = sum_i y_i X_i' mu_i`` from ``mu``.
    mu : (m, r+1) array, optional
        A dual candidate (moment vectors); without it there is no lower bound.
    G : (m, r+1, m, r+1) array, optional
        Gram of the trajectory coefficients (kernel SDPM); then ``w`` is implicit.

    Returns
    -------
    Certificate
        ``sense="minimize"``: ``primal_value`` is the objective at the repaired primal point
        (``inf`` when no feasible rescaling exists), ``dual_value`` the dual objective at the
        repaired moments (``-inf`` without ``mu``).  ``point`` holds ``w`` (rescaled), ``b``,
        ``xi``, ``mu`` (repaired), ``theta_worst``.
    """
    y = check_labels(y, "y")
    Cf = check_margin_C(C)
    X, R = None, 0
    if G is not None:
        G = check_matrix(G, "G", ndim=4)
        R = G.shape[1]
        if G.shape != (y.size, R, y.size, R):
            raise InvalidInputError("G", f"expected shape (m, r+1, m, r+1) with m = {y.size} "
                                         f"labels, got {G.shape}")
    else:
        X = check_trajectories(X_traj, "X_traj")
        R = X.shape[1]
        if X.shape[0] != y.size:
            raise InvalidInputError("y", f"has {y.size} labels but X_traj has {X.shape[0]} "
                                         "trajectories")
        if w is not None:
            w = _check_candidate(w, "w", (X.shape[2],))
    residuals: dict[str, float] = {}
    point: dict[str, np.ndarray] = {}
    mu_f = None
    E = None  # rounding bound of the coefficients F (linear case on a segment)
    if mu is not None:
        mu = _check_candidate(mu, "mu", (y.size, R))
        mu_f, moved = _feasible_moments(mu, y, segment, Cf, bias)
        residuals["moment_repair"] = moved
        point["mu"] = mu_f
    if G is not None:
        if mu is None:
            raise InvalidInputError("mu", "a kernel certificate needs the moments mu")
        m, R = mu.shape
        Gm = G.reshape(m * R, m * R)
        v = (y[:, None] * mu).reshape(-1)
        F = (Gm @ v).reshape(m, R)
        quad = float(v @ Gm @ v)
        wv = None
    else:
        if w is None:
            if mu is None:
                raise InvalidInputError("w", "give w or mu")
            wv = np.einsum("ik,ikn->n", y[:, None] * mu, X)
        else:
            wv = w
        F = X @ wv
        quad = float(wv @ wv) * (1 + (X.shape[2] + 2) * UNIT)
        if segment is None:
            wv, F, quad, moved = _repair_leading(X, y, wv, F)
            if moved:
                residuals["leading_repair"] = moved
        elif np.all(np.isfinite(wv)):
            E = coefficient_error(X, wv, _norms if _norms is not None
                                  and _norms.shape == X.shape[:2] else None)
    upper, info = _upper(F, quad, y, segment, Cf, bias, E)
    if "margin_rounding" in info:
        residuals["margin_rounding"] = info["margin_rounding"]
    scale = info.get("scale", math.nan)
    if wv is not None:
        point["w"] = wv * (scale if math.isfinite(scale) else 1.0)
    point["b"] = np.asarray(info.get("b", 0.0) * (scale if math.isfinite(scale) else 1.0))
    point["xi"] = np.asarray(info.get("xi", np.zeros(y.size)))
    point["theta_worst"] = info["theta_worst"]
    point["scale"] = np.asarray(scale if math.isfinite(scale) else 1.0)
    if math.isinf(Cf):
        residuals["margin_violation"] = max(0.0, 1.0 - float(info.get("gamma", math.nan)))
    lower = -math.inf
    if mu_f is not None:
        lower = dual_objective(mu_f, y, None if G is not None else X, G=G)
    note = ""
    if not math.isfinite(upper):
        note = ("no feasible rescaling of w: the worst-case margin is not positive"
                + (" (hard margin: the data may not be separable; try C > 0)" if math.isinf(Cf)
                   else ""))
    return Certificate(
        primal_value=float(upper), dual_value=float(lower), sense="minimize",
        point=point, residuals=residuals, note=note,
    )


def _repair_leading(X: np.ndarray, y: np.ndarray, w: np.ndarray, F: np.ndarray):
    """On the real line a trajectory whose leading coefficient ``y_i w'x_ir`` is zero or
    negative has ``min_theta = -inf`` unless the top two coefficients vanish.  At the optimum
    such ("active") trajectories have ``w`` orthogonal to ``x_{i,r-1}`` and ``x_{i,r}``;
    the solver's ``w`` is so only to its accuracy.  Project ``w`` onto the orthogonal
    complement of those rows; the coefficients that are then zero in exact arithmetic are
    set to zero (they are at the round-off level, ~1e-16 relative)."""
    r = X.shape[1] - 1
    if r == 0:
        return w, F, float(w @ w), 0.0
    norms = np.linalg.norm(X[:, r, :], axis=1)
    active = np.zeros(X.shape[0], dtype=bool)
    w2, F2 = w, F
    for _ in range(X.shape[0] + 1):  # the active set only grows; usually 1-2 rounds
        lead = y * F2[:, r]
        new = (lead <= 1e-9 * np.linalg.norm(w2) * np.maximum(norms, 1e-300)) & ~active
        if not np.any(new & (lead <= 0)) and _:
            break
        if not np.any(new):
            break
        active |= new
        V = X[active, r - 1:, :].reshape(-1, X.shape[2])
        _U, s, Vt = np.linalg.svd(V, full_matrices=False)
        keep = s > 1e-12 * max(float(s.max()), 1e-300)
        Q = Vt[keep].T
        w2 = w - Q @ (Q.T @ w)
        F2 = X @ w2
        F2[np.ix_(np.flatnonzero(active), np.arange(r - 1, r + 1))] = 0.0
    if not np.any(active):
        return w, F, float(w @ w), 0.0
    return w2, F2, float(w2 @ w2), float(np.max(np.abs(w2 - w)))


def certify_point(f: Formulation, point: Mapping[str, np.ndarray]) -> Certificate:
    """The Formulation ``certify`` hook shared by :func:`primal`, :func:`dual` and the
    exchange method."""
    d = f.data
    C = None if d["hard"] else f.param("C")
    mu = point.get("mu")
    if f.kind == "sdpm.dual" and mu is None:
        raise InvalidInputError("point", "the dual needs 'mu'")
    w = point.get("w") if f.kind != "sdpm.dual" else None
    X = d.get("X_traj")
    norms = None
    if X is not None and d["segment"] is not None:
        norms = d.get("_row_norms")  # the data's row norms, once per formulation
        if norms is None:
            norms = d["_row_norms"] = row_norms(X)
    cert = certificate(
        X, d["y"], segment=d["segment"], C=C, bias=d["bias"],
        w=w, mu=mu, G=d.get("G"), _norms=norms,
    )
    if f.kind == "sdpm.dual":
        return Certificate(
            primal_value=cert.dual_value, dual_value=cert.primal_value, sense="maximize",
            point=cert.point, residuals=cert.residuals, note=cert.note,
        )
    return cert

