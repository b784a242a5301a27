# ruff: noqa: E741  (l is the half-degree, as in the paper)
r"""Nonnegative univariate polynomials as conic constraints, vectorised over many polynomials.

A polynomial is a coefficient row :math:`p = (p_0, \dots, p_d)`, :math:`p(\theta) =
\sum_k p_k \theta^k`; ``N`` polynomials are an ``(N, d + 1)`` array or cvxpy expression
(affine in the decision variables).  Every builder returns a :class:`PolyNonneg` holding
the cvxpy constraints, the auxiliary variables and the means to read back, after a solve,
the Gram matrices (the primal certificate) and the *moments* (the dual certificate: the
multiplier functional :math:`L(\theta^k) = \mu_k`, i.e. the dual matrices of the paper).

On the real line (Nesterov 2000; Graepel & Herbrich 2003, eq. (5))
    :math:`p` of degree :math:`2l` is nonnegative on :math:`\mathbb R` iff
    :math:`p_j = \sum_{a+b=j} P_{ab}` for some :math:`P \succeq 0` of size :math:`l+1`.
    :math:`P` is parameterised by the coefficients (placed on the central entries of each
    anti-diagonal) plus :math:`l(l-1)/2` auxiliary variables (moved between entries of an
    anti-diagonal without changing its sum).  For :math:`l = 1`,
    :math:`P = \begin{pmatrix} p_0 & p_1/2 \\ p_1/2 & p_2\end{pmatrix}`, emitted as the
    second-order cone :math:`\|(p_1,\ p_0 - p_2)\|_2 \le p_0 + p_2`; for :math:`l = 2`,
    :math:`P = \begin{pmatrix} p_0 & p_1/2 & z \\ p_1/2 & p_2 - 2z & p_3/2 \\ z & p_3/2 &
    p_4\end{pmatrix}`.  All ``N`` cones go in *one* cvxpy constraint (a stacked SOC, or
    one PSD constraint on an ``(N, l+1, l+1)`` expression).

On a segment :math:`[-\tau, \tau]`, two exact forms
    * ``"lukacs"`` (Markov–Lukács): :math:`p = s_0 + (\tau^2 - \theta^2)\, s_1` with
      :math:`s_0, s_1` sums of squares of degrees :math:`2l, 2l-2`.  An odd degree
      :math:`2l+1` is padded to :math:`2l+2` (exact: :math:`(\tau+\theta)s =
      [(\tau+\theta)^2 s + (\tau^2-\theta^2) s] / 2\tau`).  For :math:`d = 2`:
      :math:`\lambda \ge 0` and the 2x2 Gram of :math:`p - \lambda(\tau^2 - \theta^2)`
      positive semidefinite: a second-order cone plus a sign constraint.
    * ``"substitution"`` (the paper's): :math:`\theta = \tau(t^2-1)/(t^2+1)` maps
      :math:`\mathbb R` onto :math:`[-\tau, \tau)`; :math:`p \ge 0` on the segment iff
      :math:`q(t) = (1+t^2)^d\, p(\theta(t)) = \sum_k p_k \tau^k (t^2-1)^k (t^2+1)^{d-k}`
      is nonnegative on :math:`\mathbb R` (degree :math:`2d`: the degree doubles, and a
      quadratic needs a 3x3 LMI with one auxiliary variable).

Moment side (the duals): :math:`\mu` is a valid dual point iff it is a limit of moment
vectors of nonnegative measures on the domain; for degree :math:`2l` that is the Hankel
matrix :math:`H(\mu) = (\mu_{a+b})_{a,b \le l} \succeq 0`, and on the segment also the
localising matrix :math:`H((\tau^2-\theta^2)\mu) = (\tau^2\mu_{a+b} -
\mu_{a+b+2})_{a,b\le l-1} \succeq 0`; for an odd degree :math:`2l+1` on the segment it is
the two localising matrices :math:`(\tau\mu_{a+b} \pm \mu_{a+b+1})_{a,b\le l} \succeq 0`.
:func:`moment_repair` moves any vector into that
cone; :func:`atoms` recovers a discrete measure (support points and weights), including
the rank-2 case with atoms at both ends of the segment.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import cvxpy as cp
import numpy as np
from scipy.optimize import nnls

from ..errors import InvalidInputError, InvalidTypeError

__all__ = [
    "PolyNonneg",
    "nonneg",
    "nonneg_on_R",
    "nonneg_on_segment",
    "gram_basis",
    "substitution_matrix",
    "lukacs_matrix",
    "poly_min",
    "hankel",
    "localizing",
    "localizing_linear",
    "moment_repair",
    "moment_violation",
    "atoms",
]


# ------------------------------------------------------------------------ linear maps
def gram_basis(l: int) -> tuple[np.ndarray, np.ndarray]:
    """The Gram parameterisation for degree ``2l``.

    Returns ``(Bp, Bz)`` with ``vec(P) = p @ Bp + z @ Bz`` (row-major ``vec`` of the
    ``(l+1) x (l+1)`` Gram matrix): ``Bp`` is ``(2l+1, (l+1)^2)`` and puts coefficient
    :math:`p_j` on the central entry (entries) of anti-diagonal ``j``; ``Bz`` is
    ``(l(l-1)/2, (l+1)^2)``, one row per auxiliary variable, adding ``z`` to a symmetric
    off-central pair of anti-diagonal ``j`` and removing it from the centre, so every
    anti-diagonal sum stays :math:`p_j`.
    """
    n = l + 1
    Bp = np.zeros((2 * l + 1, n * n))
    rows: list[np.ndarray] = []
    for j in range(2 * l + 1):
        lo, hi = max(0, j - l), min(j, l)
        if j % 2 == 0:
            c = j // 2
            Bp[j, c * n + c] = 1.0
            pairs = [(a, j - a) for a in range(lo, c)]
            for a, b in pairs:
                r = np.zeros(n * n)
                r[a * n + b] = r[b * n + a] = 1.0
                r[c * n + c] = -2.0
                rows.append(r)
        else:
            c = (j - 1) // 2
            Bp[j, c * n + c + 1] = Bp[j, (c + 1) * n + c] = 0.5
            pairs = [(a, j - a) for a in range(lo, c)]
            for a, b in pairs:
                r = np.zeros(n * n)
                r[a * n + b] = r[b * n + a] = 1.0
                r[c * n + c + 1] = r[(c + 1) * n + c] = -1.0
                rows.append(r)
        del hi
    Bz = np.array(rows) if rows else np.zeros((0, n * n))
    return Bp, Bz


def substitution_matrix(d: int, tau: float) -> np.ndarray:
    """``T`` with ``q = T p``: coefficients of :math:`q(t) = (1+t^2)^d p(\\tau(t^2-1)/(t^2+1))`.

    ``T`` has shape ``(2d + 1, d + 1)``; only even powers of ``t`` are nonzero.
    """
    T = np.zeros((2 * d + 1, d + 1))
    for k in range(d + 1):
        # (s - 1)^k (s + 1)^(d - k) in s = t^2, times tau^k
        poly = np.array([1.0])
        for _ in range(k):
            poly = np.convolve(poly, [-1.0, 1.0])  # ascending powers: -1 + s
        for _ in range(d - k):
            poly = np.convolve(poly, [1.0, 1.0])
        T[0::2, k] = tau**k * poly
    return T


def lukacs_matrix(l: int, tau: float) -> np.ndarray:
    """``L`` (``(2l-1, 2l+1)``) with ``coeffs((tau^2 - theta^2) s1) = s1 @ L``."""
    L = np.zeros((2 * l - 1, 2 * l + 1))
    for k in range(2 * l - 1):
        L[k, k] = tau * tau
        L[k, k + 2] = -1.0
    return L


# ------------------------------------------------------------------------ the blocks
# Polynomials are handled as a list of coefficient *columns*, each an (N,) cvxpy
# expression: linear maps of the coefficients are then sums of columns, with no reshape or
# slicing of large stacked expressions (which dominates cvxpy's compile time at scale).
Cols = list


def _cols_matmul(cols: Cols, M: np.ndarray) -> Cols:
    """Columns of ``E @ M`` for ``E`` given by its columns."""
    out = []
    for j in range(M.shape[1]):
        terms = [M[k, j] * cols[k] for k in range(M.shape[0]) if M[k, j] != 0.0]
        if not terms:
            out.append(cp.Constant(np.zeros(cols[0].shape[0])))
        else:
            e = terms[0]
            for t in terms[1:]:
                e = e + t
            out.append(e)
    return out


def _value(cols: Cols) -> np.ndarray:
    return np.column_stack([np.asarray(c.value, float).reshape(-1) for c in cols])


@dataclass
class _GramBlock:
    """``N`` Gram cones of degree ``2l`` on the coefficient columns ``cols``."""

    l: int
    cone: str  # "linear", "soc", "psd"
    constraint: cp.Constraint
    aux: cp.Variable | None
    cols: Cols

    def moments(self) -> np.ndarray:
        dv = self.constraint.dual_value
        if dv is None:
            raise InvalidInputError("constraint", "has no dual value: solve the problem first")
        if self.cone == "linear":
            return np.asarray(dv, float).reshape(-1, 1)
        if self.cone == "soc":
            lam = np.asarray(dv[0], float).reshape(-1)
            nu = np.asarray(dv[1], float).reshape(2, lam.size).T
            return np.column_stack([lam + nu[:, 1], nu[:, 0], lam - nu[:, 1]])
        n = self.l + 1
        M = np.asarray(dv, float).reshape(-1, n * n)
        Bp, _ = gram_basis(self.l)
        return M @ Bp.T

    def gram(self) -> np.ndarray:
        E = _value(self.cols)
        if self.l == 0:
            return E[:, :1, None]
        Bp, Bz = gram_basis(self.l)
        vec = E @ Bp
        if self.aux is not None and Bz.shape[0]:
            vec = vec + np.asarray(self.aux.value, float).reshape(-1, Bz.shape[0]) @ Bz
        return vec.reshape(-1, self.l + 1, self.l + 1)


def _gram_block(cols: Cols, l: int, cone: str) -> _GramBlock:
    N = cols[0].shape[0]
    if l == 0:
        return _GramBlock(0, "linear", cols[0] >= 0, None, cols)
    if l == 1 and cone != "psd":
        t = cols[0] + cols[2]
        X = cp.vstack([cols[1], cols[0] - cols[2]])  # (2, N): column i is cone i
        return _GramBlock(1, "soc", cp.SOC(t, X, axis=0), None, cols)
    Bp, Bz = gram_basis(l)
    n = l + 1
    ent = _cols_matmul(cols, Bp)
    aux = None
    if Bz.shape[0]:
        aux = cp.Variable((N, Bz.shape[0]), name="sos_aux")
        for a in range(Bz.shape[0]):
            for e in np.flatnonzero(Bz[a]):
                ent[e] = ent[e] + Bz[a, e] * aux[:, a]
    P = cp.reshape(cp.vstack(ent).T, (N, n, n), order="C")
    return _GramBlock(l, "psd", cp.PSD(P), aux, cols)


@dataclass
class PolyNonneg:
    """``N`` constraints "p_i(theta) >= 0 on the domain", ready for a cvxpy problem.

    Attributes
    ----------
    constraints : list of cvxpy constraints
        Add them to a problem (``cp.Problem(objective, [..., *c.constraints])``).
    degree : int
        Degree ``d`` of the polynomials (columns - 1).
    segment : float or None
        ``tau`` of the segment ``[-tau, tau]``; ``None`` for the real line.
    method : str
        ``"gram"`` (real line), ``"lukacs"`` or ``"substitution"``.
    """

    constraints: list[cp.Constraint]
    degree: int
    segment: float | None
    method: str
    _blocks: list[_GramBlock] = field(repr=False, default_factory=list)
    _to_p: np.ndarray | None = field(repr=False, default=None)

    def moments(self) -> np.ndarray:
        """``(N, d+1)``: the dual functional at the monomials, :math:`\\mu_k = L(\\theta^k)`.

        For a problem ``min f(x) s.t. p_x >= 0``, the Lagrangian is ``f - sum_k mu_k p_k``:
        these are the multipliers of the coefficient rows, in the moment cone of the
        domain at the optimum (up to solver accuracy).
        """
        mu = self._blocks[0].moments()
        if self._to_p is not None:
            mu = mu @ self._to_p
        return mu[:, : self.degree + 1]

    def gram(self) -> list[np.ndarray]:
        """The Gram matrices (``(N, k, k)`` arrays): one per sum of squares in the form."""
        return [b.gram() for b in self._blocks]

    def __iter__(self):
        return iter(self.constraints)


def _as_cols(coeffs: Any, name: str = "coeffs") -> Cols:
    """Coefficient columns from an (N, d+1) array/expression or a list of (N,) columns."""
    if isinstance(coeffs, (list, tuple)):
        cols = [c if isinstance(c, cp.Expression) else cp.Constant(np.asarray(c, float))
                for c in coeffs]
        if not cols or any(c.ndim != 1 or c.shape != cols[0].shape for c in cols):
            raise InvalidInputError(name, "expected a list of (N,) coefficient columns")
        for c in cols:
            if isinstance(c, cp.Constant) and not np.all(np.isfinite(c.value)):
                raise InvalidInputError(name, "contains non-finite values")
        return list(cols)
    if isinstance(coeffs, cp.Expression):
        E = coeffs
    else:
        try:
            arr = np.asarray(coeffs, dtype=float)
        except (TypeError, ValueError):
            raise InvalidTypeError(name, "expected an array or a cvxpy expression") from None
        if not np.all(np.isfinite(arr)):
            raise InvalidInputError(name, "contains non-finite values")
        if arr.ndim == 1:
            arr = arr[None, :]
        if arr.ndim != 2:
            raise InvalidInputError(name, f"expected shape (N, degree + 1), got {arr.shape}")
        return [cp.Constant(arr[:, k]) for k in range(arr.shape[1])]
    if E.ndim == 1:
        E = cp.reshape(E, (1, E.shape[0]), order="C")
    if E.ndim != 2 or E.shape[1] < 1:
        raise InvalidInputError(name, f"expected shape (N, degree + 1), got {E.shape}")
    return [E[:, k] for k in range(E.shape[1])]


def _check_tau(tau: Any) -> float:
    if isinstance(tau, bool) or not isinstance(tau, (int, float, np.integer, np.floating)):
        raise InvalidTypeError("segment", f"expected a positive number tau, got {tau!r}")
    t = float(tau)
    if not (math.isfinite(t) and t > 0):
        raise InvalidInputError("segment", f"tau must be a positive finite number, got {tau!r}")
    return t


def _check_cone(cone: str) -> str:
    if cone not in ("auto", "psd"):
        raise InvalidInputError("cone", f"must be 'auto' or 'psd', got {cone!r}")
    return cone


def nonneg_on_R(coeffs: Any, *, cone: str = "auto") -> PolyNonneg:
    """``p_i(theta) >= 0`` for every real ``theta`` (degree must be even).

    Parameters
    ----------
    coeffs : (N, 2l+1) array or cvxpy expression, or a list of 2l+1 (N,) columns
        Row ``i`` holds the coefficients of ``p_i`` in increasing powers.  Passing the
        columns (e.g. ``[A0 @ w, A1 @ w, A2 @ w]``) avoids stacking and slicing large
        expressions, which is what costs compile time at scale.
    cone : {"auto", "psd"}
        ``"auto"`` emits degree 2 as a stacked second-order cone; ``"psd"`` forces the
        2x2 LMI form (for comparisons).

    Examples
    --------
    >>> import cvxpy as cp
    >>> c = cp.Variable()
    >>> con = nonneg_on_R(cp.hstack([1 - c, -2.0, 1.0]))     # theta^2 - 2 theta + 1 - c
    >>> round(cp.Problem(cp.Maximize(c), con.constraints).solve("CLARABEL"), 6)
    0.0
    """
    cols = _as_cols(coeffs)
    cone = _check_cone(cone)
    d = len(cols) - 1
    if d % 2:
        raise InvalidInputError(
            "coeffs", f"a polynomial nonnegative on the whole real line has even degree; "
                      f"got degree {d} (restrict to a segment, or pad a zero coefficient "
                      "only if the leading one is meant to vanish)")
    b = _gram_block(cols, d // 2, cone)
    return PolyNonneg([b.constraint], d, None, "gram", [b])


def nonneg_on_segment(
    coeffs: Any, tau: float, *, method: str = "lukacs", cone: str = "auto"
) -> PolyNonneg:
    """``p_i(theta) >= 0`` for every ``theta`` in ``[-tau, tau]``.

    Parameters
    ----------
    coeffs : (N, d+1) array or cvxpy expression
    tau : float > 0
    method : {"lukacs", "substitution"}
        See the module docstring.  Both are exact; ``"lukacs"`` keeps the degree (a
        quadratic costs one second-order cone and one sign constraint), ``"substitution"``
        doubles it (a quadratic costs a 3x3 LMI).
    cone : {"auto", "psd"}
        ``"psd"`` emits 2x2 Gram blocks as LMIs instead of second-order cones.
    """
    cols = _as_cols(coeffs)
    tau = _check_tau(tau)
    cone = _check_cone(cone)
    N, d = cols[0].shape[0], len(cols) - 1
    if method == "substitution":
        T = substitution_matrix(d, tau)
        b = _gram_block(_cols_matmul(cols, T.T), d, cone)
        return PolyNonneg([b.constraint], d, tau, method, [b], _to_p=T)
    if method != "lukacs":
        raise InvalidInputError("method", f"must be 'lukacs' or 'substitution', got {method!r}")
    if d == 0:
        b = _gram_block(cols, 0, cone)
        return PolyNonneg([b.constraint], d, tau, method, [b])
    if d % 2:
        cols = [*cols, cp.Constant(np.zeros(N))]
    l = len(cols) // 2
    S1 = cp.Variable((N, 2 * l - 1), name="lukacs_s1")
    s1 = [S1[:, j] for j in range(2 * l - 1)]
    shift = _cols_matmul(s1, lukacs_matrix(l, tau))
    E0 = [c - t for c, t in zip(cols, shift, strict=True)]
    b0 = _gram_block(E0, l, cone)
    b1 = _gram_block(s1, l - 1, cone)
    return PolyNonneg([b0.constraint, b1.constraint], d, tau, method, [b0, b1])


def nonneg(coeffs: Any, segment: float | None = None, **kwargs: Any) -> PolyNonneg:
    """:func:`nonneg_on_R` when ``segment`` is None, else :func:`nonneg_on_segment`."""
    if segment is None:
        return nonneg_on_R(coeffs, **kwargs)
    return nonneg_on_segment(coeffs, segment, **kwargs)


# ------------------------------------------------------------------------ exact minima
def poly_min(coeffs: Any, segment: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Exact minimum of each polynomial over ``[-tau, tau]`` (or ``R``) and a minimiser.

    Uses the real roots of the derivative (closed form up to degree 2, batched companion
    eigenvalues above) and the segment's ends.  On ``R`` a polynomial unbounded below gets
    ``-inf`` and the minimiser ``+-inf``.

    Returns
    -------
    values, argmins : (N,) arrays
    """
    F = np.atleast_2d(np.asarray(coeffs, dtype=float))
    N, d = F.shape[0], F.shape[1] - 1
    # trim exactly-zero leading columns (common to all rows)
    if d == 0:
        return F[:, 0].copy(), np.zeros(N)
    if segment is None:
        return _poly_min_R(F)
    tau = float(segment)
    cands = [np.full(N, -tau), np.full(N, tau), np.zeros(N)]
    if d == 1:
        pass
    elif d == 2:
        with np.errstate(divide="ignore", invalid="ignore"):
            v = -F[:, 1] / (2 * F[:, 2])
        v = np.where(np.isfinite(v), np.clip(v, -tau, tau), 0.0)
        cands.append(v)
    else:
        r = _deriv_roots(F)
        cands.extend(np.clip(np.where(np.isfinite(r), r, 0.0), -tau, tau).T)
    C = np.column_stack(cands)
    vals = _polyval(F, C)
    k = np.argmin(vals, axis=1)
    return vals[np.arange(N), k], C[np.arange(N), k]


def _polyval(F: np.ndarray, T: np.ndarray) -> np.ndarray:
    """Horner: ``F`` (N, d+1), points ``T`` (N, K) -> (N, K)."""
    out = np.zeros_like(T) + F[:, -1:]
    for k in range(F.shape[1] - 2, -1, -1):
        out = out * T + F[:, k:k + 1]
    return out


def _deriv_roots(F: np.ndarray) -> np.ndarray:
    """Real roots of ``p'`` per row (NaN-padded to d-1 columns)."""
    N, d = F.shape[0], F.shape[1] - 1
    D = F[:, 1:] * np.arange(1, d + 1)  # derivative, degree d-1
    out = np.full((N, d - 1), np.nan)
    for i in range(N):
        c = np.trim_zeros(D[i, ::-1], "f")
        if c.size <= 1:
            continue
        r = np.roots(c)
        r = r[np.abs(r.imag) <= 1e-9 * (1 + np.abs(r.real))].real
        out[i, : r.size] = r
    return out


def _poly_min_R(F: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    N = F.shape[0]
    vals = np.empty(N)
    args = np.empty(N)
    for i in range(N):
        c = F[i]
        nz = np.flatnonzero(c)
        deg = int(nz[-1]) if nz.size else 0
        if deg == 0:
            vals[i], args[i] = c[0], 0.0
            continue
        if deg % 2 == 1 or c[deg] < 0:
            lead = c[deg]
            vals[i] = -math.inf
            args[i] = -math.inf if (deg % 2 == 1 and lead > 0) else math.inf
            continue
        if deg == 2:
            t = -c[1] / (2 * c[2])
            cand = np.array([t])
        else:
            r = _deriv_roots(c[None, : deg + 1])[0]
            cand = r[np.isfinite(r)]
            if cand.size == 0:
                cand = np.array([0.0])
        v = _polyval(np.repeat(c[None, : deg + 1], cand.size, 0), cand[:, None])[:, 0]
        k = int(np.argmin(v))
        vals[i], args[i] = v[k], cand[k]
    return vals, args


# ------------------------------------------------------------------------ moment side
def hankel(mu: np.ndarray) -> np.ndarray:
    """``(N, l+1, l+1)`` Hankel matrices :math:`(\\mu_{a+b})` of ``(N, 2l+1)`` moments."""
    mu = np.atleast_2d(mu)
    l = (mu.shape[1] - 1) // 2
    idx = np.add.outer(np.arange(l + 1), np.arange(l + 1))
    return mu[:, idx]


def localizing(mu: np.ndarray, tau: float) -> np.ndarray:
    """``(N, l, l)`` localising matrices :math:`(\\tau^2\\mu_{a+b} - \\mu_{a+b+2})`."""
    mu = np.atleast_2d(mu)
    l = (mu.shape[1] - 1) // 2
    if l == 0:
        return np.zeros((mu.shape[0], 0, 0))
    idx = np.add.outer(np.arange(l), np.arange(l))
    return tau * tau * mu[:, idx] - mu[:, idx + 2]


def _min_eig(A: np.ndarray) -> np.ndarray:
    if A.shape[-1] == 0:
        return np.full(A.shape[0], np.inf)
    return np.linalg.eigvalsh(0.5 * (A + np.swapaxes(A, -1, -2)))[:, 0]


def _reference_moments(d: int, segment: float | None) -> np.ndarray:
    """Moments of a measure whose Hankel (and localising) matrices are positive definite:
    the uniform probability on the segment, or the standard normal on ``R``."""
    k = np.arange(d + 1)
    if segment is None:
        out = np.zeros(d + 1)
        for j in k[::2]:
            out[j] = float(np.prod(np.arange(1, j, 2))) if j else 1.0
        return out
    tau = float(segment)
    return np.where(k % 2 == 0, tau**k / (k + 1), 0.0)


def localizing_linear(mu: np.ndarray, tau: float) -> tuple[np.ndarray, np.ndarray]:
    """``(N, l+1, l+1)`` localising matrices of :math:`\\tau \\pm \\theta` for ``(N, 2l+2)``
    moments (odd degree ``2l+1``): :math:`(\\tau\\mu_{a+b} \\pm \\mu_{a+b+1})_{a,b\\le l}`.

    A vector of odd degree ``2l+1`` is in the (closed) moment cone of :math:`[-\\tau, \\tau]`
    iff both are positive semidefinite (Karlin & Studden 1966, ch. II; the dual of
    :math:`p = (\\tau+\\theta)s_1 + (\\tau-\\theta)s_2`, :math:`s_1, s_2` sums of squares of
    degree ``2l``).  Their sum is :math:`2\\tau H(\\mu_{0..2l})`, so the Hankel condition
    follows."""
    mu = np.atleast_2d(mu)
    l = (mu.shape[1] - 2) // 2
    idx = np.add.outer(np.arange(l + 1), np.arange(l + 1))
    return tau * mu[:, idx] + mu[:, idx + 1], tau * mu[:, idx] - mu[:, idx + 1]


def _cone_min_eigs(mu: np.ndarray, segment: float | None) -> list[np.ndarray]:
    """The matrices whose positive semidefiniteness defines the moment cone (Hankel and
    localising), as a list of ``(N, k, k)`` arrays."""
    d = mu.shape[1] - 1
    if segment is None:
        return [hankel(mu)]
    if d % 2:
        return list(localizing_linear(mu, segment))
    out = [hankel(mu)]
    if d >= 2:
        out.append(localizing(mu, segment))
    return out


def moment_violation(mu: Any, segment: float | None = None) -> np.ndarray:
    """Per row, how far ``mu`` is from the moment cone: ``max(0, -lambda_min)`` over the
    matrices defining it: the Hankel matrix, and on a segment the localising matrix of
    :math:`\\tau^2-\\theta^2` (even degree) or both localising matrices of
    :math:`\\tau\\pm\\theta` (odd degree, :func:`localizing_linear`).  On the real line an odd
    degree has no moment cone with interior (only the even part is checked)."""
    mu = np.atleast_2d(np.asarray(mu, float))
    d = mu.shape[1] - 1
    if segment is None and d % 2:
        mu = mu[:, :d]
    v = np.zeros(mu.shape[0])
    for A in _cone_min_eigs(mu, segment):
        v = np.maximum(v, np.maximum(0.0, -_min_eig(A)))
    return v


def moment_repair(mu: Any, segment: float | None = None) -> np.ndarray:
    """Move each row of ``mu`` into the moment cone of the domain (a valid dual point).

    Adds ``delta * nu`` (``nu``: moments of a reference measure with positive definite
    moment matrices, see :func:`_reference_moments`) with the smallest ``delta >= 0`` that
    makes the Hankel and localising matrices (those of :func:`moment_violation`) positive
    semidefinite, via the bound ``lambda_min(A + delta B) >= lambda_min(A) + delta
    lambda_min(B)`` (each matrix is linear in the moments).  Rows already in the cone are
    returned unchanged.  Only even degrees are supported on ``R``; an odd degree on a
    segment uses both localising matrices of :math:`\\tau\\pm\\theta`
    (:func:`localizing_linear`), the exact odd-degree moment cone.
    """
    mu = np.array(np.atleast_2d(np.asarray(mu, float)))
    d = mu.shape[1] - 1
    if d == 0:
        return np.maximum(mu, 0.0)
    if segment is None and d % 2:
        raise InvalidInputError("mu", "moments on the real line need an even degree")
    nu = _reference_moments(d, segment)
    delta = np.zeros(mu.shape[0])
    for A, B in zip(_cone_min_eigs(mu, segment), _cone_min_eigs(nu[None], segment),
                    strict=True):
        lamB = float(_min_eig(B)[0])
        delta = np.maximum(delta, np.maximum(0.0, -_min_eig(A)) / lamB)
    bad = delta > 0
    if np.any(bad):
        # a hair more than needed: eigenvalue round-off must not leave it outside
        delta = np.where(bad, delta * (1 + 1e-9) + 1e-300, 0.0)
        mu += delta[:, None] * nu[None, :]
    return mu


def atoms(
    mu: Any,
    segment: float | None = None,
    *,
    candidates: Sequence[np.ndarray] | None = None,
    rtol: float = 1e-6,
    scale: float | None = None,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Recover a discrete measure ``sum_j w_j delta_{theta_j}`` from each row of moments.

    Degree 2 (the paper's case) is done in closed form from the 2x2 moment matrix
    :math:`M = \\begin{pmatrix}\\mu_0 & \\mu_1\\\\ \\mu_1 & \\mu_2\\end{pmatrix}`:

    * rank 1 (variance :math:`\\mu_2/\\mu_0 - (\\mu_1/\\mu_0)^2 \\approx 0`, Proposition 3):
      one atom at :math:`\\theta = \\mu_1/\\mu_0` with weight :math:`\\mu_0`;
    * rank 2 on a segment with the localising constraint tight
      (:math:`\\mu_2 \\approx \\tau^2\\mu_0`): atoms at both ends,
      weights :math:`(\\mu_0 \\pm \\mu_1/\\tau)/2`;
    * otherwise (inside the cone): the two-atom representation with one atom at
      :math:`+\\tau` (or :math:`-\\tau`) and one interior atom;
    * on :math:`\\mathbb R`, rank 2: one atom at the mean with weight :math:`\\mu_0` and an
      atom *at infinity* (``theta = inf``) with weight :math:`\\mu_2 - \\mu_1^2/\\mu_0` on
      the leading moment (the closed moment cone of :math:`\\mathbb R` holds these limits
      of atoms escaping to infinity; the SDPM reaches them when a trajectory's leading
      coefficient :math:`y_i w^\\top\\tilde x_{ir}` is zero at the optimum).

    Degree 0 (one moment, the mass): one atom at ``theta = 0`` carrying it.

    Higher degrees: when the moment matrix has numerical rank ``k <= l`` (flat), the ``k``
    support points are the generalised eigenvalues of the shifted Hankel pair (Prony); and
    from ``candidates`` (per row: support points to try, e.g. the minimisers of the optimal
    margin polynomial).  Weights by nonnegative least squares on all the moments (plus the
    atom at infinity on :math:`\\mathbb R`); the representation with the smaller moment
    residual wins.  (The minimisers of a polynomial at its minimum are known only to about
    the square root of the solver's accuracy; Prony's points come from the moments.)

    A row whose moments are all below ``rtol * scale`` (default: the largest moment of all
    rows) is a zero measure.

    Returns
    -------
    list of (theta, weight) arrays, one pair per row; empty arrays for a zero measure;
    ``theta = inf`` for an atom at infinity (real line only).
    """
    mu = np.atleast_2d(np.asarray(mu, float))
    N, d = mu.shape[0], mu.shape[1] - 1
    out: list[tuple[np.ndarray, np.ndarray]] = []
    if scale is None:
        scale = float(np.max(np.abs(mu), initial=0.0))
    for i in range(N):
        m = mu[i]
        size = float(np.max(np.abs(m)))
        if size <= rtol * scale or size == 0.0:
            out.append((np.zeros(0), np.zeros(0)))
            continue
        if m[0] <= rtol * size:
            # no mass at finite points: on R the limit of atoms escaping to infinity
            # (weight on the top moment, which must then be the only sizeable one)
            if segment is None and d % 2 == 0 and m[d] > 0:
                out.append((np.array([math.inf]), np.array([m[d]])))
            else:
                out.append((np.zeros(0), np.zeros(0)))
            continue
        if d == 0:
            # degree 0 (a constant trajectory): one atom carrying the whole mass; its
            # position does not matter, theta = 0 is taken
            out.append((np.zeros(1), np.array([m[0]])))
            continue
        if d == 2 and candidates is None:
            out.append(_atoms2(m, segment, rtol))
            continue
        if d == 1:
            t = m[1] / m[0]
            if segment is not None:
                t = float(np.clip(t, -segment, segment))
            out.append((np.array([t]), np.array([m[0]])))
            continue
        fits = []
        if d >= 3:
            pts = _prony_points(m, segment, rtol)
            if pts is not None:
                fits.append(_fit_atoms(m, pts, segment, size, rtol))
        if candidates is not None:
            cand = np.unique(np.asarray(candidates[i], float))
            cand = cand[np.isfinite(cand)]
            if segment is not None:
                cand = np.clip(cand, -segment, segment)
            fits.append(_fit_atoms(m, cand, segment, size, rtol))
        if not fits:
            raise InvalidInputError("candidates", "degree > 2 needs candidate support points "
                                                  "(the moment matrix is not flat)")
        # the representation that reproduces the moments best
        t, wt, _res = min(fits, key=lambda f: f[2])
        out.append((t, wt))
    return out


def _prony_points(m: np.ndarray, segment: float | None, rtol: float) -> np.ndarray | None:
    """Support points of a measure whose moment matrix has numerical rank ``k <= l``
    (degree ``2l``, or ``2l+1``): the generalised eigenvalues of the shifted Hankel pair
    :math:`((\\mu_{a+b+1}), (\\mu_{a+b}))_{a,b<k}` (Prony; Curto & Fialkow's flat case).
    ``None`` when the matrix is of full rank or the eigenvalues are not real."""
    from scipy.linalg import eigvals

    d = m.size - 1
    l = d // 2
    H = hankel(m[None, : 2 * l + 1])[0]
    ev = np.linalg.eigvalsh(0.5 * (H + H.T))
    k = int((ev > rtol * max(float(ev.max()), 1e-300)).sum())
    if k == 0 or k > l:
        return None
    idx = np.add.outer(np.arange(k), np.arange(k))
    z = eigvals(m[idx + 1], m[idx])
    if not np.all(np.isfinite(z)) or np.any(np.abs(z.imag) > 1e-6 * (1 + np.abs(z.real))):
        return None
    t = z.real
    if segment is not None:
        t = np.clip(t, -segment, segment)
    return np.unique(t)


def _fit_atoms(m: np.ndarray, cand: np.ndarray, segment: float | None, size: float,
               rtol: float) -> tuple[np.ndarray, np.ndarray, float]:
    """Nonnegative weights on the points ``cand`` (plus infinity on R) fitting the moments
    ``m``; returns the kept points, weights and the relative moment residual."""
    d = m.size - 1
    V = np.vander(cand, d + 1, increasing=True).T
    if segment is None and d % 2 == 0:  # the atom at infinity: weight on the top moment only
        cand = np.append(cand, math.inf)
        V = np.column_stack([V, np.eye(d + 1)[:, d]])
    wts, _ = nnls(V / size, m / size)
    keep = wts * np.abs(V).max(0) > rtol * size
    res = float(np.max(np.abs(V[:, keep] @ wts[keep] - m))) / size
    return cand[keep], wts[keep], res


def _atoms2(m: np.ndarray, segment: float | None, rtol: float) -> tuple[np.ndarray, np.ndarray]:
    m0, m1, m2 = (float(v) for v in m)
    mean = m1 / m0
    var = m2 / m0 - mean * mean
    size = max(1.0, abs(m2 / m0))
    if segment is None:
        # on R the closed moment cone also holds the limits of atoms escaping to infinity:
        # mu = m0 delta_mean + (m2 - m1^2/m0) e_2, the second term an atom "at infinity"
        # (theta = inf) whose weight sits on the leading moment only
        rest = m2 - m1 * m1 / m0
        if rest <= rtol * abs(m2):  # rank one (up to round-off in the subtraction)
            return np.array([mean]), np.array([m0])
        return np.array([mean, math.inf]), np.array([m0, rest])
    tau = float(segment)
    if var <= rtol * size:
        return np.array([float(np.clip(mean, -tau, tau))]), np.array([m0])
    slack = tau * tau - m2 / m0
    if slack <= rtol * tau * tau:
        wp = 0.5 * (m0 + m1 / tau)
        wm = 0.5 * (m0 - m1 / tau)
        th = np.array([-tau, tau])
        w = np.array([max(wm, 0.0), max(wp, 0.0)])
        keep = w > 0
        return th[keep], w[keep]
    # one atom at the end nearest the mean, one interior atom x:
    # weights a (at e), c (at x): a + c = m0, a e + c x = m1, a e^2 + c x^2 = m2
    e = tau if mean >= 0 else -tau
    # c (x - e) = m1 - m0 e, c (x^2 - e^2) = m2 - m0 e^2  =>  x + e = (m2 - m0 e^2)/(m1 - m0 e)
    den = m1 - m0 * e
    x = (m2 - m0 * e * e) / den - e
    c = den / (x - e)
    a = m0 - c
    return np.array([e, x]), np.array([a, c])
