# ruff: noqa: E741  (l is the paper's half-degree)
"""The SDPM primal (6) and dual (8) builders (see :mod:`convexkern.formulations.sdpm`)."""

from __future__ import annotations

import math
from typing import Any

import cvxpy as cp
import numpy as np

from ..._validation import check_labels, check_margin_C
from ...errors import InvalidInputError, InvalidTypeError
from ...formulation import Formulation
from ...math import sos
from ._common import (
    DEFAULT_SEGMENT,
    GRAM_RTOL,
    SOURCE,
    _check_segment,
    _common,
    _margin_terms,
)
from .certificate import certify_point
from .witness import clash_fact, separable_fact


def primal(
    X_traj: Any,
    y: Any,
    segment: float | None = DEFAULT_SEGMENT,
    C: float | None = None,
    bias: bool = True,
    *,
    method: str = "lukacs",
    cone: str = "auto",
) -> Formulation:
    """The SDPM primal (6): maximum margin for every point of every trajectory.

    Parameters
    ----------
    X_traj : (m, r+1, n) array
        Row ``k`` of ``X_traj[i]`` is the coefficient of ``theta^k`` of trajectory ``i``.
    y : (m,) array of -1/+1
    segment : float > 0 or None
        ``tau``: the constraint holds for ``theta`` in ``[-tau, tau]``; ``None``: for every
        real ``theta`` (needs an even degree ``r``; with a quadratic term it forces
        ``y_i w'x_i2 >= 0`` for every ``i``, so ``w`` degenerates as ``m`` grows; the default
        is the segment used by the paper's experiments, 10 degrees in radians).
    C : float > 0 or None
        Soft margin with slack penalty ``C`` (a ``cvxpy.Parameter``); ``None``: hard margin.
    bias : bool
        Include the offset ``b``.
    method : {"lukacs", "substitution"}
        Form of the segment constraint (:func:`convexkern.math.sos.nonneg_on_segment`):
        ``"lukacs"`` is a second-order cone program for ``r <= 2``; ``"substitution"`` is
        the paper's, an SDP with 3x3 blocks for ``r = 2``.
    cone : {"auto", "psd"}
        ``"psd"`` writes 2x2 Gram blocks as LMIs (the SDP form of the same problem).

    Returns
    -------
    Formulation
        Variables ``w``, ``b``, ``xi``; parameter ``C``.  Reports carry ``x["w"]``,
        ``x["b"]``, ``x["mu"]`` (the dual moments, from the cone multipliers) and
        ``x["theta_worst"]``.  Solvable by ``clarabel``, ``scs`` and ``exchange``.

    Examples
    --------
    >>> import numpy as np, convexkern as ck
    >>> X = np.array([[[2.0, 0.0], [0.0, 1.0], [0.0, 0.0]],
    ...               [[-2.0, 0.0], [0.0, -1.0], [0.0, 0.0]]])
    >>> f = ck.formulations.sdpm.primal(X, np.array([1.0, -1.0]), segment=1.0, C=None)
    >>> r = ck.solve(f, "clarabel")
    >>> r.status.value, round(r.primal_value, 6), np.round(r.x["w"], 4).tolist()
    ('optimal', 0.125, [0.5, 0.0])
    """
    X, y, seg, Cv = _common(X_traj, y, segment, C)
    hard = math.isinf(Cv)
    if not isinstance(bias, bool):
        raise InvalidTypeError("bias", f"expected True or False, got {bias!r}")
    if method not in ("lukacs", "substitution"):
        raise InvalidInputError("method", f"must be 'lukacs' or 'substitution', got {method!r}")
    sos._check_cone(cone)
    m, R, n = X.shape
    w = cp.Variable(n, name="w")
    variables: dict[str, cp.Variable] = {"w": w}
    params: dict[str, cp.Parameter] = {}
    # the bias and slack part of g_0 = y_i x_i0' w + y_i b - 1 + xi_i (cheap: size m)
    col0_rest, obj, extra = _margin_terms(w, cp.Constant(np.full(m, -1.0)), y, Cv, bias,
                                          variables, params)
    built: dict[str, Any] = {}

    def build() -> cp.Problem:
        # the m x n coefficient columns and the m cones, built on first access of
        # f.problem only (a custom solver reads f.data; at m = 1e5 the cvxpy problem alone
        # takes gigabytes)
        cols = [(y[:, None] * X[:, k, :]) @ w for k in range(R)]
        G = [cols[0] + col0_rest, *cols[1:]]
        if seg is None:
            con = sos.nonneg_on_R(G, cone=cone)
        else:
            con = sos.nonneg_on_segment(G, seg, method=method, cone=cone)
        built["con"] = con
        return cp.Problem(cp.Minimize(obj), [*con.constraints, *extra])

    def extract(f: Formulation) -> dict[str, np.ndarray]:
        if w.value is None:
            raise InvalidInputError("point", "the problem has no solution stored")
        out = {"w": np.asarray(w.value, float)}
        out["b"] = np.asarray(float(variables["b"].value) if bias else 0.0)
        try:
            out["mu"] = built["con"].moments()
        except (InvalidInputError, KeyError):
            pass
        return out

    form = "SOCP" if R <= 3 and cone == "auto" and (seg is None or method == "lukacs") else "SDP"
    return Formulation(
        name=f"sdpm.primal({'hard' if hard else 'soft'}, "
             f"{'R' if seg is None else f'[-{seg:.4g},{seg:.4g}]'}, r={R - 1}, {form})",
        problem=build,
        variables=variables,
        parameters=params,
        source=f"{SOURCE}, eq. (6)",
        kind="sdpm.primal",
        data={"X_traj": X, "y": y, "segment": seg, "hard": hard, "bias": bias,
              "method": method, "cone": cone},
        certify=certify_point,
        extract=extract,
        dual_builder=lambda: dual(X, y, seg, None if hard else Cv, bias),
        default_solver=_default_solver(R, seg, hard),
        notes="the dual moments mu are read from the cone multipliers",
        hints={"infeasible": "no w separates the trajectories with margin 1 (hard "
                             "margin); use a soft margin, C > 0"} if hard else {},
        facts={"bounded": "the objective is >= 0",
               "feasible": separable_fact(X, y, seg, bias) if hard
               else "w = 0, b = 0, xi = 1 is feasible",
               **({"infeasible": clash_fact(X, y)} if hard else {})},
    )


def _default_solver(R: int, segment: float | None, hard: bool) -> str:
    """``sdpm-ipm`` (the structured barrier method, :mod:`convexkern.algorithms.sdpm_ipm`)
    where it applies and is the fastest: soft margin, degree ``<= 2``, on a segment; else
    ``clarabel`` (a hard margin on data that are not separable is infeasible, which Clarabel
    proves and a dual method cannot)."""
    return "sdpm-ipm" if not hard and segment is not None and R <= 3 else "clarabel"


def moment_cone(
    mu: cp.Expression, segment: float | None, cone: str = "auto"
) -> list[cp.Constraint]:
    """Constraints ``mu_i in M_r(S)`` for the rows of an ``(m, r+1)`` expression (the dual
    cone of :func:`convexkern.math.sos.nonneg`): Hankel (and localising) matrices PSD, 2x2 ones
    as second-order cones.  An odd degree on a segment gets one free padding moment."""
    m, R = mu.shape
    d = R - 1
    if d == 0:
        return [mu[:, 0] >= 0]
    if d % 2:
        pad = cp.Variable((m, 1), name="mu_pad")
        mu = cp.hstack([mu, pad])
        d += 1
    l = d // 2
    cons: list[cp.Constraint] = []

    def psd_block(rows: list[list[cp.Expression]], k: int) -> cp.Constraint:
        if k == 1:
            return rows[0][0] >= 0
        if k == 2 and cone != "psd":
            t = rows[0][0] + rows[1][1]
            X = cp.hstack([cp.reshape(2 * rows[0][1], (m, 1), order="C"),
                           cp.reshape(rows[0][0] - rows[1][1], (m, 1), order="C")])
            return cp.SOC(t, X, axis=1)
        cols = [cp.reshape(rows[a][b], (m, 1), order="C") for a in range(k) for b in range(k)]
        return cp.PSD(cp.reshape(cp.hstack(cols), (m, k, k), order="C"))

    H = [[mu[:, a + b] for b in range(l + 1)] for a in range(l + 1)]
    cons.append(psd_block(H, l + 1))
    if segment is not None and l >= 1:
        t2 = segment * segment
        Lc = [[t2 * mu[:, a + b] - mu[:, a + b + 2] for b in range(l)] for a in range(l)]
        cons.append(psd_block(Lc, l))
    return cons


def dual(
    X_traj: Any,
    y: Any,
    segment: float | None = DEFAULT_SEGMENT,
    C: float | None = None,
    bias: bool = True,
    *,
    G: Any = None,
    cone: str = "auto",
) -> Formulation:
    """The SDPM dual (8) over moment vectors ``mu`` (the dual matrices ``M_i = H(mu_i)``).

    Parameters
    ----------
    X_traj : (m, r+1, n) array, or None with ``G``
    y, segment, C, bias : as in :func:`primal`
    G : (m, r+1, m, r+1) array, optional
        Kernel on derivative pairs, ``G[i, u, j, v] = <phi_iu, phi_jv>`` (see
        :func:`trajectory_kernel`); replaces the linear inner products ``x_iu' x_jv``.  It
        must be symmetric and positive semidefinite up to :data:`GRAM_RTOL` relative
        round-off, else ``InvalidInputError`` naming ``G``.
    cone : {"auto", "psd"}

    Returns
    -------
    Formulation
        Maximisation; variable ``mu`` ``(m, r+1)``; reports carry ``x["mu"]`` (repaired
        into the dual feasible set) and ``x["w"]`` (linear case).
    """
    if G is None:
        X, y, seg, Cv = _common(X_traj, y, segment, C)
        m, R, n = X.shape
    else:
        Gm = np.asarray(G, float)
        if Gm.ndim != 4 or Gm.shape[0] != Gm.shape[2] or Gm.shape[1] != Gm.shape[3]:
            raise InvalidInputError("G", f"expected shape (m, r+1, m, r+1), got {Gm.shape}")
        if not np.all(np.isfinite(Gm)):
            raise InvalidInputError("G", "contains non-finite values")
        m, R = Gm.shape[:2]
        y = check_labels(y, "y", n=m)
        seg = _check_segment(segment, R - 1)
        Cv = check_margin_C(C)
        X = None
    hard = math.isinf(Cv)
    mu = cp.Variable((m, R), name="mu")
    v = cp.reshape(cp.multiply(np.repeat(y[:, None], R, 1), mu), (m * R,), order="C")
    if X is not None:
        Xf = X.reshape(m * R, -1)
        quad = cp.sum_squares(Xf.T @ v)
    else:
        Gf = Gm.reshape(m * R, m * R)
        big = max(float(np.abs(Gf).max()), 1e-300)
        asym = float(np.abs(Gf - Gf.T).max())
        if asym > GRAM_RTOL * big:
            raise InvalidInputError(
                "G", f"is not symmetric: max |G[i,u,j,v] - G[j,v,i,u]| = {asym:.3g} "
                     f"(relative {asym / big:.3g} > {GRAM_RTOL:g}); a trajectory Gram is "
                     "symmetric (nothing is symmetrised silently)")
        lam, U = np.linalg.eigh(0.5 * (Gf + Gf.T))
        lmax = max(float(np.abs(lam).max()), 1e-300)
        if lam.min() < -GRAM_RTOL * lmax:
            raise InvalidInputError(
                "G", f"is not positive semidefinite: smallest eigenvalue {lam.min():.3g} "
                     f"(relative {lam.min() / lmax:.3g} < -{GRAM_RTOL:g}); the SDPM dual needs "
                     "a PSD kernel on derivative pairs (see trajectory_kernel)")
        # eigenvalues at the round-off level (|lambda| <= GRAM_RTOL lambda_max) are dropped
        keep = lam > GRAM_RTOL * lmax
        Lf = U[:, keep] * np.sqrt(lam[keep])
        quad = cp.sum_squares(Lf.T @ v)
    cons = moment_cone(mu, seg, cone)
    params: dict[str, cp.Parameter] = {}
    if not hard:
        Cp = cp.Parameter(pos=True, name="C", value=Cv)
        params["C"] = Cp
        cons.append(mu[:, 0] <= Cp)
    if bias:
        cons.append(y @ mu[:, 0] == 0)
    problem = cp.Problem(cp.Maximize(cp.sum(mu[:, 0]) - 0.5 * quad), cons)
    return Formulation(
        name=f"sdpm.dual({'hard' if hard else 'soft'}, "
             f"{'R' if seg is None else f'[-{seg:.4g},{seg:.4g}]'}, r={R - 1})",
        problem=problem,
        variables={"mu": mu},
        parameters=params,
        source=f"{SOURCE}, eq. (8)",
        kind="sdpm.dual",
        data={"X_traj": X, "y": y, "segment": seg, "hard": hard, "bias": bias,
              "G": None if G is None else Gm},
        certify=certify_point,
        default_solver="clarabel" if G is not None else _default_solver(R, seg, hard),
        hints={"unbounded": "the hard-margin dual is unbounded when no w separates the "
                            "trajectories with margin 1 (the primal is infeasible); use a "
                            "soft margin, C > 0"} if hard else {},
        facts={"feasible": "mu = 0 is feasible",
               "bounded": separable_fact(X, y, seg, bias) if hard and X is not None
               else ("0 <= mu_i0 <= C bounds the objective" if not hard else ""),
               **({"unbounded": clash_fact(X, y)} if hard and X is not None else {})},
    )

