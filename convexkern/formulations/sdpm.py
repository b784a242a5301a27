# ruff: noqa: E741  (l is the paper's half-degree)
r"""Semidefinite Programming Machines (Graepel & Herbrich, NIPS 2003).

Notation (the paper's, formulas reconstructed; see ``docs/sdpm.md``).  Training example
``i`` is a polynomial trajectory :math:`\tilde x_i(\theta) = \tilde X_i^\top(1, \theta,
\dots, \theta^r)^\top`, :math:`\tilde X_i \in \mathbb R^{(r+1)\times n}` (``X_traj[i]``,
row ``k`` = coefficient of :math:`\theta^k`), label :math:`y_i \in \{-1,+1\}`, and
:math:`S` is the real line or a segment :math:`[-\tau, \tau]`.  The margin polynomial of
example ``i`` is

.. math:: g_i(\theta) = y_i\,(w^\top\tilde x_i(\theta) + b) - 1 + \xi_i
          = \sum_{k=0}^r g_{ik}\theta^k,\quad
          g_{ik} = y_i w^\top\tilde x_{ik} + [k = 0](y_i b - 1 + \xi_i).

* Primal (6): :math:`\min_{w,b,\xi}\ \tfrac12\|w\|^2 (+\,C\textstyle\sum_i\xi_i)` s.t.
  :math:`g_i(\theta) \ge 0\ \forall\theta\in S` (and :math:`\xi\ge0`).  Each constraint is a
  positive semidefinite Gram matrix (:mod:`convexkern.sos`): for :math:`r = 2` on
  :math:`\mathbb R`, :math:`\begin{pmatrix} g_{i0} & g_{i1}/2\\ g_{i1}/2 & g_{i2}
  \end{pmatrix}\succeq 0`, a second-order cone.
* Dual (8): with moment vectors :math:`\mu_i = (\mu_{i0},\dots,\mu_{ir})` (the dual matrices
  :math:`M_i = H(\mu_i)` are their Hankel matrices),

  .. math:: \max_{\mu}\ \sum_i \mu_{i0} - \tfrac12\Big\|\sum_i y_i \tilde X_i^\top\mu_i\Big\|^2
      \ \text{s.t.}\ \mu_i \in \mathcal M_r(S),\ \mu_{i0}\le C,\ \sum_i y_i\mu_{i0} = 0,

  :math:`\mathcal M_r(S)` the (closed) cone of moment vectors of nonnegative measures on
  :math:`S`: :math:`H(\mu_i)\succeq0` (and :math:`(\tau^2\mu_{i,a+b}-\mu_{i,a+b+2})\succeq0`
  on the segment).  At the optimum :math:`w = \sum_i y_i\tilde X_i^\top\mu_i`.
* Virtual support vectors (Propositions 2, 3): a measure with moments :math:`\mu_i` is a
  sum of atoms :math:`\alpha_{ij}\delta_{\theta_{ij}}`, so
  :math:`w = \sum_{ij}\alpha_{ij}y_i\tilde x_i(\theta_{ij})`: an ordinary SVM expansion on
  the *truly virtual* examples :math:`\tilde x_i(\theta_{ij})`, which lie on the margin.
  Rank 1 gives one atom :math:`\theta_i = \mu_{i1}/\mu_{i0}`; on a segment rank 2 gives
  atoms at both ends :math:`\pm\tau` (:func:`convexkern.sos.atoms`).

Certificate (valid for any point, recomputed from the data).  Upper bound: for any
:math:`w` the worst-case margin :math:`c_i = \min_{\theta\in S} y_i w^\top\tilde
x_i(\theta)` is exact (polynomial roots, :func:`convexkern.sos.poly_min`); the best bias
is then closed-form (hard margin: :math:`(w,b)/\gamma` with :math:`\gamma = \max_b\min_i
c_i + y_ib`) or a 1-D piecewise-linear minimisation (soft margin, slack = exact worst-case
hinge), giving a primal-feasible point.  Lower bound: any :math:`\mu` is moved into the
dual feasible set (:func:`convexkern.sos.moment_repair`, then scaled for
:math:`\mu_{i0}\le C` and balanced for :math:`y^\top\mu_0 = 0`) and the dual objective
evaluated.  A finite set of virtual points with SVM multipliers is a particular
:math:`\mu` (a discrete measure), so the exchange method is certified the same way.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import cvxpy as cp
import numpy as np

from .. import sos
from .._validation import check_labels, check_positive
from ..errors import InvalidInputError, InvalidTypeError
from ..formulation import Formulation
from ..report import Certificate
from .svm import best_hinge_bias

__all__ = [
    "DEFAULT_SEGMENT",
    "primal",
    "dual",
    "moment_cone",
    "primal_multi",
    "certificate_multi",
    "certificate",
    "certify_point",
    "worst_case",
    "dual_objective",
    "VirtualSupport",
    "virtual_support_vectors",
    "check_virtual_support_vectors",
    "trajectory_kernel",
    "check_trajectories",
]

SOURCE = "Graepel & Herbrich, Invariant pattern recognition by SDP machines, NIPS 2003"
#: Relative round-off allowed in a trajectory Gram ``G``: asymmetry and negative
#: eigenvalues up to this fraction of its largest entry / eigenvalue (beyond: an error).
GRAM_RTOL = 1e-10
#: Default segment half-width: 10 degrees in radians (the paper's Figure 2(b, c) setting).
DEFAULT_SEGMENT = math.pi / 18


# --------------------------------------------------------------------------- checks
def check_trajectories(X_traj: Any, name: str = "X_traj") -> np.ndarray:
    """Return ``X_traj`` as a finite float array of shape ``(m, r+1, n)`` or raise."""
    if isinstance(X_traj, (str, bytes)):
        raise InvalidTypeError(name, "expected an array of shape (m, r+1, n)")
    try:
        X = np.asarray(X_traj, dtype=float)
    except (TypeError, ValueError):
        raise InvalidTypeError(name, "expected an array of numbers of shape (m, r+1, n)") from None
    if X.ndim != 3:
        raise InvalidInputError(
            name, f"expected shape (m, r+1, n) (row k of example i = coefficient of theta^k), "
                  f"got shape {X.shape}")
    if min(X.shape) == 0:
        raise InvalidInputError(name, f"is empty (shape {X.shape})")
    if not np.all(np.isfinite(X)):
        raise InvalidInputError(name, "contains non-finite values (NaN or inf)")
    return X


def _check_segment(segment: Any, degree: int) -> float | None:
    if segment is None:
        if degree % 2:
            raise InvalidInputError(
                "segment", f"on the whole real line the trajectory degree must be even (a "
                           f"polynomial of odd degree {degree} takes every value); give a "
                           "segment tau > 0")
        return None
    return sos._check_tau(segment)


def _check_C(C: Any) -> float:
    return math.inf if C is None else check_positive(C, "C")


def _common(X_traj: Any, y: Any, segment: Any, C: Any):
    X = check_trajectories(X_traj)
    y = check_labels(y, "y", n=X.shape[0])
    seg = _check_segment(segment, X.shape[1] - 1)
    Cv = _check_C(C)
    return X, y, seg, Cv


# --------------------------------------------------------------------------- certificate
def worst_case(
    F: np.ndarray, y: np.ndarray, segment: float | None
) -> tuple[np.ndarray, np.ndarray]:
    """``c_i = min_{theta in S} y_i f_i(theta)`` and the minimiser, ``f_i`` with coefficients
    ``F[i]`` (e.g. ``F = X_traj @ w``)."""
    return sos.poly_min(y[:, None] * F, segment)


def _upper(F: np.ndarray, quad: float, y: np.ndarray, segment: float | None, C: float,
           bias: bool) -> tuple[float, dict[str, Any]]:
    """Primal value of the repaired point (see the module docstring) and its parts."""
    c, th = worst_case(F, y, segment)
    return _upper_margins(c, quad, y, C, bias, {"theta_worst": th, "margin_worst": c})


def _upper_margins(c: np.ndarray, quad: float, y: np.ndarray, C: float, bias: bool,
                   info: dict[str, Any]) -> tuple[float, dict[str, Any]]:
    """Primal value from exact worst-case margins ``c_i`` (without bias) of ``w`` with
    ``quad = ||w||^2``: best bias, exact hinge slack (soft margin) or the rescaling
    ``(w, b) / gamma`` (hard margin)."""
    quad = max(float(quad), 0.0)
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
        info.update(b=b, gamma=gamma)
        if gamma <= 0:
            info.update(scale=math.nan, xi=np.zeros(y.size))
            return math.inf, info
        info.update(scale=1.0 / gamma, xi=np.zeros(y.size))
        return 0.5 * quad / gamma**2, info
    if bias:
        b, hinge = best_hinge_bias(y * c, y)
    else:
        b, hinge = 0.0, float(np.maximum(0.0, 1.0 - c).sum())
    xi = np.maximum(0.0, 1.0 - c - y * b)
    info.update(b=b, scale=1.0, xi=xi)
    return 0.5 * quad + C * float(hinge), info


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
    Cf = _check_C(C)
    residuals: dict[str, float] = {}
    point: dict[str, np.ndarray] = {}
    mu_f = None
    if mu is not None:
        mu = np.asarray(mu, float)
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
        X = np.asarray(X_traj, float)
        if w is None:
            if mu is None:
                raise InvalidInputError("w", "give w or mu")
            wv = np.einsum("ik,ikn->n", y[:, None] * mu, X)
        else:
            wv = np.asarray(w, float).reshape(-1)
        F = X @ wv
        quad = float(wv @ wv)
        if segment is None:
            wv, F, quad, moved = _repair_leading(X, y, wv, F)
            if moved:
                residuals["leading_repair"] = moved
    upper, info = _upper(F, quad, y, segment, Cf, bias)
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
    cert = certificate(
        d.get("X_traj"), d["y"], segment=d["segment"], C=C, bias=d["bias"],
        w=w, mu=mu, G=d.get("G"),
    )
    if f.kind == "sdpm.dual":
        return Certificate(
            primal_value=cert.dual_value, dual_value=cert.primal_value, sense="maximize",
            point=cert.point, residuals=cert.residuals, note=cert.note,
        )
    return cert


# --------------------------------------------------------------------------- builders
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
        Form of the segment constraint (:func:`convexkern.sos.nonneg_on_segment`):
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
    m, R, n = X.shape
    w = cp.Variable(n, name="w")
    variables: dict[str, cp.Variable] = {"w": w}
    params: dict[str, cp.Parameter] = {}
    # coefficient columns g_k = (y_i x_ik' w)_i (+ y_i b - 1 + xi_i for k = 0)
    cols: list[cp.Expression] = [(y[:, None] * X[:, k, :]) @ w for k in range(R)]
    col0_expr: cp.Expression = cols[0] - 1.0
    if bias:
        b = cp.Variable(name="b")
        variables["b"] = b
        col0_expr = col0_expr + y * b
    obj = 0.5 * cp.sum_squares(w)
    extra: list[cp.Constraint] = []
    if not hard:
        xi = cp.Variable(m, name="xi")
        Cp = cp.Parameter(pos=True, name="C", value=Cv)
        variables["xi"] = xi
        params["C"] = Cp
        col0_expr = col0_expr + xi
        obj = obj + Cp * cp.sum(xi)
        extra.append(xi >= 0)
    G = [col0_expr, *cols[1:]]
    if seg is None:
        con = sos.nonneg_on_R(G, cone=cone)
    else:
        con = sos.nonneg_on_segment(G, seg, method=method, cone=cone)
    problem = cp.Problem(cp.Minimize(obj), [*con.constraints, *extra])

    def extract(f: Formulation) -> dict[str, np.ndarray]:
        if w.value is None:
            raise InvalidInputError("point", "the problem has no solution stored")
        out = {"w": np.asarray(w.value, float)}
        out["b"] = np.asarray(float(variables["b"].value) if bias else 0.0)
        try:
            out["mu"] = con.moments()
        except InvalidInputError:
            pass
        return out

    form = "SOCP" if R <= 3 and cone == "auto" and (seg is None or method == "lukacs") else "SDP"
    return Formulation(
        name=f"sdpm.primal({'hard' if hard else 'soft'}, "
             f"{'R' if seg is None else f'[-{seg:.4g},{seg:.4g}]'}, r={R - 1}, {form})",
        problem=problem,
        variables=variables,
        parameters=params,
        source=f"{SOURCE}, eq. (6)",
        kind="sdpm.primal",
        data={"X_traj": X, "y": y, "segment": seg, "hard": hard, "bias": bias,
              "method": method, "cone": cone, "constraint": con},
        certify=certify_point,
        extract=extract,
        dual_builder=lambda: dual(X, y, seg, None if hard else Cv, bias),
        default_solver="clarabel",
        notes="the dual moments mu are read from the cone multipliers",
        hints={"infeasible": "no w separates the trajectories with margin 1 (hard "
                             "margin); use a soft margin, C > 0"} if hard else {},
    )


def moment_cone(
    mu: cp.Expression, segment: float | None, cone: str = "auto"
) -> list[cp.Constraint]:
    """Constraints ``mu_i in M_r(S)`` for the rows of an ``(m, r+1)`` expression (the dual
    cone of :func:`convexkern.sos.nonneg`): Hankel (and localising) matrices PSD, 2x2 ones
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
        Cv = _check_C(C)
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
        default_solver="clarabel",
        hints={"unbounded": "the hard-margin dual is unbounded when no w separates the "
                            "trajectories with margin 1 (the primal is infeasible); use a "
                            "soft margin, C > 0"} if hard else {},
    )


# --------------------------------------------------------------------------- several parameters
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
    X0 = np.asarray(X0, float)
    J = np.asarray(J, float)
    H = np.asarray(H, float)
    if X0.ndim != 2 or J.ndim != 3 or H.ndim != 4:
        raise InvalidInputError("X0", "expected X0 (m, n), J (m, D, n), H (m, D, D, n)")
    m, n = X0.shape
    D = J.shape[1]
    if J.shape != (m, D, n) or H.shape != (m, D, D, n):
        raise InvalidInputError("J", f"shapes do not match: X0 {X0.shape}, J {J.shape}, "
                                     f"H {H.shape}")
    for nm, a in (("X0", X0), ("J", J), ("H", H)):
        if not np.all(np.isfinite(a)):
            raise InvalidInputError(nm, "contains non-finite values")
    y = check_labels(y, "y", n=m)
    Cv = _check_C(C)
    hard = math.isinf(Cv)
    if box is not None:
        box = sos._check_tau(box)
    k = D + 1
    w = cp.Variable(n, name="w")
    variables: dict[str, cp.Variable] = {"w": w}
    params: dict[str, cp.Parameter] = {}
    # entries of the (m, k, k) matrix, row-major, each an (m,) expression
    c0: cp.Expression = cp.multiply(y, X0 @ w) - 1
    if bias:
        b = cp.Variable(name="b")
        variables["b"] = b
        c0 = c0 + y * b
    obj = 0.5 * cp.sum_squares(w)
    cons: list[cp.Constraint] = []
    if not hard:
        xi = cp.Variable(m, name="xi")
        Cp = cp.Parameter(pos=True, name="C", value=Cv)
        variables["xi"] = xi
        params["C"] = Cp
        c0 = c0 + xi
        obj = obj + Cp * cp.sum(xi)
        cons.append(xi >= 0)
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
    X0 = np.asarray(X0, float)
    J = np.asarray(J, float)
    H = np.asarray(H, float)
    y = check_labels(y, "y", n=X0.shape[0])
    Cf = _check_C(C)
    m, n = X0.shape
    D = J.shape[1]
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


# --------------------------------------------------------------------------- virtual SVs
@dataclass(frozen=True)
class VirtualSupport:
    """The truly virtual support vectors of a fitted SDPM (Propositions 2 and 3).

    Attributes
    ----------
    index : (k,) int array
        Trajectory of each virtual support vector.
    theta : (k,) array
        Its parameter value :math:`\\theta_{ij}` (in ``S``), or ``inf`` for an atom at
        infinity (real line only, see :func:`convexkern.sos.atoms`).
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
    weights by nonnegative least squares on the moments (:func:`convexkern.sos.atoms`);
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
    Cf = _check_C(C)
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


# --------------------------------------------------------------------------- kernels
def _jet_mul(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """Product of truncated bivariate series (last two axes: powers of theta, phi)."""
    P, Q = A.shape[-2:]
    out = np.zeros(np.broadcast_shapes(A.shape, B.shape))
    for u in range(P):
        for v in range(Q):
            out[..., u:, v:] += A[..., u:u + 1, v:v + 1] * B[..., : P - u, : Q - v]
    return out


def _jet_compose(s: np.ndarray, derivs: Callable[[np.ndarray, int], np.ndarray]) -> np.ndarray:
    """``f(s)`` for a truncated series ``s``: ``sum_k f^(k)(s_00)/k! (s - s_00)^k``."""
    P, Q = s.shape[-2:]
    s0 = s[..., 0, 0]
    delta = s.copy()
    delta[..., 0, 0] = 0.0
    out = np.zeros_like(s)
    out[..., 0, 0] = derivs(s0, 0)
    power = np.zeros_like(s)
    power[..., 0, 0] = 1.0
    for k in range(1, P + Q - 1):
        power = _jet_mul(power, delta)
        out += (derivs(s0, k) / math.factorial(k))[..., None, None] * power
    return out


def trajectory_kernel(kernel: Any, A: Any, B: Any = None, *, degree: int | None = None,
                      degree_b: int | None = None) -> np.ndarray:
    """Kernel on derivative pairs (§3, "Learning with kernels"), in closed form.

    For input trajectories :math:`a_i(\\theta) = \\sum_u A_{iu}\\theta^u` and
    :math:`b_j(\\varphi)`, returns the Taylor coefficients of
    :math:`k(a_i(\\theta), b_j(\\varphi))`:

    .. math:: G[i, u, j, v] = \\frac{1}{u!\\,v!}\\,\\partial_\\theta^u\\partial_\\varphi^v
              k(a_i(\\theta), b_j(\\varphi))\\big|_{0,0} = \\langle c_u(i), c_v(j)\\rangle,

    the inner products of the feature-space Taylor coefficients :math:`c_u` of
    :math:`\\phi(a_i(\\theta))` (so the SDPM on the feature-space trajectories of degree
    ``degree`` uses ``G`` in place of :math:`x_{iu}^\\top x_{jv}`).  Computed by truncated
    bivariate series arithmetic: the inner product (or squared distance) is a polynomial
    in :math:`(\\theta, \\varphi)` and :math:`k` an analytic function of it.

    Parameters
    ----------
    kernel : convexkern.kernels.Polynomial, RBF (Gaussian) or Linear
    A : (m, ra+1, n); B : (m', rb+1, n), default ``A``
    degree, degree_b : output degrees in theta and phi (default: 2, and ``degree`` for B
        when B is None, else B's own degree; a test point is ``B`` of shape (m', 1, n) with
        ``degree_b=0``).

    Returns
    -------
    (m, degree+1, m', degree_b+1) array
    """
    from ..kernels import RBF, Linear, Polynomial

    A = check_trajectories(A, "A")
    same = B is None
    B = A if same else check_trajectories(B, "B")
    P = 2 if degree is None else int(degree)
    Q = (P if same else B.shape[1] - 1) if degree_b is None else int(degree_b)
    P1, Q1 = P + 1, Q + 1

    def pad(X: np.ndarray, k: int) -> np.ndarray:
        if X.shape[1] >= k:
            return X[:, :k]
        return np.concatenate([X, np.zeros((X.shape[0], k - X.shape[1], X.shape[2]))], 1)

    Ap, Bp = pad(A, P1), pad(B, Q1)
    S = np.einsum("iun,jvn->iujv", Ap, Bp).transpose(0, 2, 1, 3)  # (m, m', P1, Q1)
    if isinstance(kernel, Linear):
        out = S
    elif isinstance(kernel, Polynomial):
        g, c0, p = kernel.gamma, kernel.coef0, kernel.degree
        s = g * S
        s[..., 0, 0] += c0

        def dpoly(s0: np.ndarray, k: int) -> np.ndarray:
            if k > p:
                return np.zeros_like(s0)
            return math.perm(p, k) * s0 ** (p - k)

        out = _jet_compose(s, dpoly)
    elif isinstance(kernel, RBF):
        g = kernel.gamma

        def self_series(X: np.ndarray, k: int) -> np.ndarray:
            # coefficients of |x(theta)|^2 up to theta^(k-1)
            full = np.einsum("iun,ivn->iuv", X, X)
            out_ = np.zeros((X.shape[0], k))
            for u in range(full.shape[1]):
                for v in range(full.shape[2]):
                    if u + v < k:
                        out_[:, u + v] += full[:, u, v]
            return out_

        aa = self_series(Ap, P1)
        bb = self_series(Bp, Q1)
        Dist = -2.0 * S
        Dist[..., :, 0] += aa[:, None, :]
        Dist[..., 0, :] += bb[None, :, :]

        def dexp(s0: np.ndarray, k: int) -> np.ndarray:
            return (-g) ** k * np.exp(-g * s0)

        out = _jet_compose(Dist, dexp)
    else:
        raise InvalidTypeError("kernel", "expected a Linear, Polynomial or RBF/Gaussian kernel, "
                                         f"got {type(kernel).__name__}")
    return out.transpose(0, 2, 1, 3)
