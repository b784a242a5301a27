"""Several transformation parameters at once (the paper's §"Extensions"): the D+1 LMI
primal and its certificate (see :mod:`convexkern.formulations.sdpm`)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import cvxpy as cp
import numpy as np

from ..._validation import check_labels, check_margin_C, check_matrix
from ...errors import InvalidInputError
from ...formulation import Formulation
from ...math import sos
from ...report import Certificate
from ._common import SOURCE, _check_candidate, _margin_terms
from .certificate import _upper_margins


def _check_expansion(X0: Any, J: Any, H: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``X0`` (m, n), ``J`` (m, D, n), ``H`` (m, D, D, n) as finite float arrays, or an
    error naming the first argument that is not (type, dimensions, or a shape that does
    not match ``X0``)."""
    X0 = check_matrix(X0, "X0", ndim=2)
    m, n = X0.shape
    J = check_matrix(J, "J", ndim=3)
    D = J.shape[1]
    if J.shape != (m, D, n):
        raise InvalidInputError("J", f"expected shape (m, D, n) = ({m}, D, {n}) to match X0 "
                                     f"{X0.shape}, got {J.shape}")
    H = check_matrix(H, "H", ndim=4)
    if H.shape != (m, D, D, n):
        raise InvalidInputError("H", f"expected shape (m, D, D, n) = {(m, D, D, n)} to match "
                                     f"X0 {X0.shape} and J {J.shape}, got {H.shape}")
    return X0, J, H


def primal_multi(
    X0: Any, J: Any, H: Any, y: Any, C: float | None = None, bias: bool = True,
    *, box: float | None = None,
) -> Formulation:
    """Several transformation parameters at once (the paper's §"Extensions").

    Each example is the second-order expansion
    :math:`\\tilde x_i(\\theta) = x_i + J_i^\\top\\theta + \\tfrac12\\sum_{ab}\\theta_a\\theta_b
    H_{i,ab}`, :math:`\\theta\\in\\mathbb R^D`.  The margin is a quadratic in
    :math:`\\theta`, nonnegative everywhere iff the :math:`(D+1)\\times(D+1)` matrix

    .. math:: \\begin{pmatrix} y_i(w^\\top x_i + b) - 1 + \\xi_i & \\tfrac12 y_i (J_iw)^\\top\\\\
              \\tfrac12 y_i J_iw & \\tfrac12 y_i \\sum_n w_n H_{i,\\cdot\\cdot n}\\end{pmatrix}
              \\succeq 0

    (exact for quadratics; for higher degrees the same Gram condition is only sufficient).
    With ``box = tau`` the constraint is asked on the box :math:`|\\theta_a|\\le\\tau` by the
    S-procedure (sufficient): subtract :math:`\\sum_a\\lambda_{ia}(\\tau^2-\\theta_a^2)`,
    :math:`\\lambda\\ge0`.

    Parameters
    ----------
    X0 : (m, n); J : (m, D, n); H : (m, D, D, n) symmetric in the two D axes; y : (m,)

    Returns
    -------
    Formulation
        Variables ``w``, ``b``, ``xi``, ``lambda`` (box); reports carry them (repaired to a
        feasible point) and ``x["Z"]``, the LMI multipliers, with bounds certified by
        :func:`certificate_multi` (a Schur-complement upper bound, a dual lower bound).
    """
    X0, J, H = _check_expansion(X0, J, H)
    m, n = X0.shape
    D = J.shape[1]
    y = check_labels(y, "y", n=m)
    Cv = check_margin_C(C)
    hard = math.isinf(Cv)
    if box is not None:
        box = sos._check_tau(box)
    k = D + 1
    w = cp.Variable(n, name="w")
    variables: dict[str, cp.Variable] = {"w": w}
    params: dict[str, cp.Parameter] = {}
    # entries of the (m, k, k) matrix, row-major, each an (m,) expression
    c0, obj, cons = _margin_terms(w, cp.multiply(y, X0 @ w) - 1, y, Cv, bias, variables, params)
    Jw = cp.reshape((y[:, None, None] * J).reshape(m * D, n) @ w, (m, D), order="C")
    Hw = cp.reshape((0.5 * y[:, None, None, None] * H).reshape(m * D * D, n) @ w, (m, D * D),
                    order="C")
    lam = None
    if box is not None:
        lam = cp.Variable((m, D), name="lambda", nonneg=True)
        variables["lambda"] = lam
        c0 = c0 - box * box * cp.sum(lam, axis=1)
    cols = []
    for a in range(k):
        for bb in range(k):
            if a == 0 and bb == 0:
                e = c0
            elif a == 0 or bb == 0:
                e = 0.5 * Jw[:, max(a, bb) - 1]
            else:
                e = Hw[:, (a - 1) * D + (bb - 1)]
                if lam is not None and a == bb:
                    e = e + lam[:, a - 1]
            cols.append(cp.reshape(e, (m, 1), order="C"))
    M = cp.reshape(cp.hstack(cols), (m, k, k), order="C")
    cons.append(cp.PSD(M))
    problem = cp.Problem(cp.Minimize(obj), cons)

    psd = cons[-1]

    def extract(f: Formulation) -> dict[str, np.ndarray]:
        if w.value is None:
            raise InvalidInputError("point", "the problem has no solution stored")
        out = {k: np.asarray(v.value, float) for k, v in variables.items()
               if v.value is not None}
        if psd.dual_value is not None:
            out["Z"] = np.asarray(psd.dual_value, float).reshape(m, k, k)
        return out

    def certify(f: Formulation, point: Mapping[str, np.ndarray]) -> Certificate:
        Cc = None if hard else f.param("C")
        return certificate_multi(X0, J, H, y, C=Cc, bias=bias, box=box, w=point.get("w"),
                                 lam=point.get("lambda"), Z=point.get("Z"))

    return Formulation(
        name=f"sdpm.primal_multi(D={D})", problem=problem, variables=variables,
        parameters=params, source=f"{SOURCE}, §4 (several parameters)",
        kind="sdpm.primal_multi",
        data={"X0": X0, "J": J, "H": H, "y": y, "hard": hard, "bias": bias, "box": box},
        certify=certify, extract=extract, default_solver="clarabel",
    )


def _multi_penalty(A: np.ndarray, g: np.ndarray, lam: np.ndarray | None,
                   box: float | None) -> tuple[np.ndarray, np.ndarray]:
    """Per example, the smallest :math:`p_i = \\tau^2\\sum_a\\lambda_{ia} + \\tfrac14
    g_i^\\top(A_i + \\mathrm{diag}\\,\\lambda_i)^{-1} g_i` over ``lambda_i + t 1`` (``t`` such
    that the matrix is positive definite and the multipliers nonnegative), and the
    multipliers; ``box=None``: ``lambda = 0`` and ``p = inf`` where ``A_i`` is not positive
    definite.  The Schur complement: the (D+1)-matrix of :func:`primal_multi` is PSD iff
    its corner is at least ``p_i`` more than ``y_i (w'x_i + b) - 1 + xi_i`` needs."""
    m, D = g.shape
    if box is None:
        lam = np.zeros((m, D))
    else:
        lam = np.zeros((m, D)) if lam is None else np.maximum(np.asarray(lam, float), 0.0)
    B = A + lam[:, :, None] * np.eye(D)[None]
    beta, U = np.linalg.eigh(B)
    gh = np.einsum("mab,ma->mb", U, g)  # g in the eigenbasis
    scale = np.maximum(np.abs(beta).max(1), np.abs(g).max(1) ** 2 / 4)
    scale = np.maximum(scale, 1e-300)
    if box is None:
        ok = beta[:, 0] > 1e-12 * scale
        with np.errstate(divide="ignore", invalid="ignore"):
            p = np.where(ok, 0.25 * np.sum(gh**2 / np.where(ok[:, None], beta, 1.0), 1),
                         np.inf)
        return p, lam
    tau2D = box * box * D
    # t >= t0 keeps B + t I positive definite (and lambda + t >= 0); phi(t) = tau^2 D t +
    # 1/4 sum gh^2 / (beta + t) is convex with derivative tau^2 D - 1/4 sum gh^2/(beta+t)^2
    t0 = np.maximum(0.0, -beta[:, 0] + 1e-12 * scale)

    def dphi(t: np.ndarray) -> np.ndarray:
        return tau2D - 0.25 * np.sum(gh**2 / (beta + t[:, None]) ** 2, 1)

    lo = t0.copy()
    hi = t0 + np.maximum(np.abs(beta).max(1), 1e-300)
    for _ in range(200):  # grow hi until the derivative is nonnegative
        bad = dphi(hi) < 0
        if not np.any(bad):
            break
        hi = np.where(bad, 2 * hi + np.sqrt(np.sum(gh**2, 1) / (4 * tau2D)), hi)
    need = dphi(lo) < 0
    for _ in range(100):  # bisection on the monotone derivative
        mid = 0.5 * (lo + hi)
        pos = dphi(mid) >= 0
        hi = np.where(need & pos, mid, hi)
        lo = np.where(need & ~pos, mid, lo)
    t = np.where(need, hi, t0)
    lam = lam + t[:, None]
    p = box * box * lam.sum(1) + 0.25 * np.sum(gh**2 / (beta + t[:, None]), 1)
    return p, lam


def certificate_multi(
    X0: Any, J: Any, H: Any, y: Any, *, C: float | None = None, bias: bool = True,
    box: float | None = None, w: Any = None, lam: Any = None, Z: Any = None,
) -> Certificate:
    """Certified bounds for :func:`primal_multi` (several parameters, D+1 LMIs).

    Upper bound, from ``w`` (and the solver's multipliers ``lam``, box only): with
    :math:`g_i = y_iJ_iw`, :math:`A_i = \\tfrac12 y_i\\sum_n w_nH_{i,\\cdot\\cdot n}` and
    :math:`\\lambda_i \\ge 0` moved (uniformly) to the best value with
    :math:`A_i + \\mathrm{diag}\\,\\lambda_i \\succ 0`, the LMI holds iff (Schur complement)
    :math:`y_i(w^\\top x_i + b) - 1 + \\xi_i \\ge \\tau^2\\sum_a\\lambda_{ia} + \\tfrac14
    g_i^\\top(A_i + \\mathrm{diag}\\,\\lambda_i)^{-1}g_i`: an effective margin
    :math:`c_i`, then the best bias and exact hinge slack (soft margin), or
    :math:`(w, b, \\lambda)/\\gamma` with :math:`\\gamma = \\max_b\\min_i c_i + y_ib` (hard
    margin).  Without a box, :math:`\\lambda = 0` and an :math:`A_i` that is not positive
    definite gives no upper bound (``inf``).

    Lower bound, from the LMI multipliers :math:`Z_i = \\begin{pmatrix} z_{i0} &
    z_i^\\top\\\\ z_i & \\bar Z_i\\end{pmatrix}`: the dual is
    :math:`\\max \\sum_i z_{i0} - \\tfrac12\\|\\sum_i y_i(z_{i0}x_i + J_i^\\top z_i +
    \\tfrac12 H_i[\\bar Z_i])\\|^2` s.t. :math:`Z_i\\succeq0`, :math:`z_{i0}\\le C`,
    :math:`\\sum_i y_iz_{i0} = 0` (bias), :math:`\\mathrm{diag}\\,\\bar Z_i \\le \\tau^2 z_{i0}`
    (box), :math:`H_i[\\bar Z] = \\sum_{ab}\\bar Z_{ab}H_{i,ab}`.  ``Z`` is projected onto
    the PSD cone, the box met by the congruence :math:`\\mathrm{diag}(1, sI)`,
    :math:`s = \\min(1, \\tau\\sqrt{z_{i0}/\\max_a\\bar Z_{i,aa}})`, then scaled for
    :math:`z_0 \\le C` and balanced between the classes, all of which keep it feasible.
    """
    X0, J, H = _check_expansion(X0, J, H)
    y = check_labels(y, "y", n=X0.shape[0])
    Cf = check_margin_C(C)
    m, n = X0.shape
    D = J.shape[1]
    if box is not None:
        box = sos._check_tau(box)
    if w is not None:
        w = _check_candidate(w, "w", (n,))
    if lam is not None:
        lam = _check_candidate(lam, "lam", (m, D))
    if Z is not None:
        Z = _check_candidate(Z, "Z", (m, D + 1, D + 1))
    residuals: dict[str, float] = {}
    point: dict[str, np.ndarray] = {}
    upper = math.inf
    note = ""
    if w is not None:
        wv = np.asarray(w, float).reshape(-1)
        g = y[:, None] * np.einsum("ian,n->ia", J, wv)
        A = 0.5 * y[:, None, None] * np.einsum("iabn,n->iab", H, wv)
        A = 0.5 * (A + A.transpose(0, 2, 1))
        pen, lam_f = _multi_penalty(A, g, lam, box)
        c = y * (X0 @ wv) - pen
        upper, info = _upper_margins(c, float(wv @ wv), y, Cf, bias, {"penalty": pen})
        if math.isfinite(Cf):
            # w = 0 is feasible with a soft margin (all LMI blocks but the corner vanish);
            # it is the optimum when the Hessian blocks force w to collapse (no box), where
            # the solver's w ~ 0 has blocks A_i only PSD up to round-off
            u0, i0 = _upper_margins(np.zeros(m), 0.0, y, Cf, bias, {"penalty": np.zeros(m)})
            if u0 < upper:
                upper, info, wv = u0, i0, np.zeros(n)
                lam_f = np.zeros((m, D))
        sc = info.get("scale", math.nan)
        sc = sc if math.isfinite(sc) else 1.0
        point.update(w=wv * sc, b=np.asarray(info.get("b", 0.0) * sc),
                     xi=np.asarray(info.get("xi", np.zeros(m))))
        if box is not None:
            point["lambda"] = lam_f * sc
        if not math.isfinite(upper):
            note = ("no feasible (b, xi, lambda) for this w: "
                    + ("a Hessian block A_i is not positive definite (no box)"
                       if not np.all(np.isfinite(pen)) else
                       "the worst-case margin is not positive (hard margin: use C > 0)"))
    lower = -math.inf
    if Z is not None:
        Zr = np.asarray(Z, float).reshape(m, D + 1, D + 1)
        Z0 = Zr
        Zr = 0.5 * (Zr + Zr.transpose(0, 2, 1))
        ev, U = np.linalg.eigh(Zr)
        Zr = np.einsum("mij,mj,mkj->mik", U, np.maximum(ev, 0.0), U)
        if box is not None:
            zb = np.diagonal(Zr[:, 1:, 1:], axis1=1, axis2=2).max(1)
            with np.errstate(divide="ignore", invalid="ignore"):
                s = np.where(zb > 0, np.sqrt(box * box * np.maximum(Zr[:, 0, 0], 0.0)
                                             / np.where(zb > 0, zb, 1.0)), 1.0)
            s = np.minimum(1.0, s)
            S = np.concatenate([np.ones((m, 1)), np.repeat(s[:, None], D, 1)], 1)
            Zr = Zr * S[:, :, None] * S[:, None, :]
        if math.isfinite(Cf):
            Zr = Zr * np.minimum(1.0, Cf / np.maximum(Zr[:, 0, 0], 1e-300))[:, None, None]
        if bias:
            P, N = float(Zr[y > 0, 0, 0].sum()), float(Zr[y < 0, 0, 0].sum())
            if P > N and P > 0:
                Zr[y > 0] *= N / P
            elif N > P and N > 0:
                Zr[y < 0] *= P / N
        z0, z, Zb = Zr[:, 0, 0], Zr[:, 0, 1:], Zr[:, 1:, 1:]
        v = (np.einsum("i,in->n", y * z0, X0) + np.einsum("i,ia,ian->n", y, z, J)
             + 0.5 * np.einsum("i,iab,iabn->n", y, Zb, H))
        lower = float(z0.sum() - 0.5 * float(v @ v))
        residuals["Z_repair"] = float(np.max(np.abs(Zr - Z0))) if Z0.size else 0.0
        point["Z"] = Zr
    elif not note:
        note = "no LMI multipliers Z: no lower bound"
    return Certificate(primal_value=float(upper), dual_value=float(lower), sense="minimize",
                       point=point, residuals=residuals, note=note)

