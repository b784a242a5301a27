r"""ν-LP and LP SVMs that train a diagonal Mahalanobis kernel (Abe, ICANN 2012).

Notation (the paper's): ``m`` inputs, ``M`` triplets, :math:`R = \mathrm{diag}(R_{11}..R_{mm})`.
For training sample ``r``, ``j`` is its nearest neighbour of the same class and ``k`` its
nearest neighbour of another class (§2, see :func:`triplets`), and

.. math:: a_{ir} = (x_{ir} - x_{ik})^2 - (x_{ir} - x_{ij})^2

(the paper's (4) prints the second term with a wrong index).  ``A`` is the (M, m) matrix
whose row ``r`` is :math:`(a_{1r}, \dots, a_{mr})`, so :math:`(AR)_r = \sum_i a_{ir}R_{ii}`
is the squared-distance margin of triplet ``r`` under the metric ``R``.

* **ν-LP SVM** (5)–(9), :func:`nu_lp`:
  :math:`\max\ \rho - C_\rho\sum_r\xi_r` s.t. :math:`\sum_i R_{ii} = 1,\ R \ge 0,\
  AR \ge \rho e - \xi,\ \xi \ge 0,\ \rho > 0`.
* **its dual** (14)–(17), :func:`nu_lp_dual`:
  :math:`\min\ z` s.t. :math:`\sum_r\delta_r \ge 1,\ A^\top\delta \le z e,\
  0 \le \delta \le C_\rho`.
* **LP SVM** (10)–(13), :func:`lp`:
  :math:`\min\ \sum_i R_{ii} + C_M\sum_r\xi_r` s.t. :math:`R \ge 0,\ AR \ge e - \xi,\ \xi\ge 0`.
* **its dual** (derived here; not in the paper), :func:`lp_dual`:
  :math:`\max\ \sum_r\alpha_r` s.t. :math:`A^\top\alpha \le e,\ 0 \le \alpha \le C_M`.
  (Lagrangian :math:`e^\top R + C_M e^\top\xi - \alpha^\top(AR - e + \xi)`; the infimum over
  ``R >= 0`` is finite iff :math:`e - A^\top\alpha \ge 0`, over ``xi >= 0`` iff
  :math:`\alpha \le C_M`.)

**The strict ρ > 0.**  An LP cannot state a strict inequality.  ``rho_min`` chooses what
is solved instead:

* ``rho_min=0.0`` (default): the closure ``rho >= 0``.  Its Lagrange dual is exactly the
  paper's (14)–(17) (the multiplier of ``rho >= 0`` turns :math:`\sum\delta = 1` into
  :math:`\sum\delta \ge 1`).  When the optimum has ``rho = 0`` (the "zero-margin
  solution", Theorem 4), the strict problem has no solution: its supremum is approached
  but the set ``rho > 0`` does not contain a maximiser that beats it.
* ``rho_min=None``: ``rho`` free; the dual then has :math:`\sum_r\delta_r = 1`.  Negative
  margins become possible for non-separable data.
* ``rho_min=eps > 0``: ``rho >= eps``; the dual objective becomes
  :math:`z + \varepsilon(1 - \sum_r\delta_r)` with :math:`\sum_r\delta_r \ge 1`.

**Certificates** (recomputed from ``A`` for every solver):

* ν-LP primal value at ``R``: ``R`` is projected onto the simplex, and for fixed ``R`` the
  best ``rho`` and ``xi`` are closed form.  With :math:`s = AR`,
  :math:`h(\rho) = \rho - C_\rho\sum_r(\rho - s_r)_+` is concave piecewise linear with
  kinks at the :math:`s_r` and slope :math:`1 - C_\rho\,\#\{s_r < \rho\}`; its maximum over
  :math:`\rho \ge \rho_{\min}` lies at a kink or at :math:`\rho_{\min}` (all are evaluated
  with sorted prefix sums), and is :math:`+\infty` when :math:`C_\rho M < 1`.
* ν-LP dual value at ``delta``: ``delta`` is clipped to :math:`[0, C_\rho]` and, if its sum
  is below 1, raised in proportion to the room left below :math:`C_\rho` (possible iff
  :math:`M C_\rho \ge 1`); then the best ``z`` is closed form, :math:`z = \max_i
  (A^\top\delta)_i`.
* LP SVM primal value at ``R``: ``R`` clipped at 0, :math:`\xi = (e - AR)_+`, value
  :math:`e^\top R + C_M e^\top(e - AR)_+`.
* LP SVM dual value at ``alpha``: ``alpha`` clipped to :math:`[0, C_M]` and divided by
  :math:`t = \max_i (A^\top\alpha)_i` when ``t > 1``; value :math:`e^\top\alpha`.

The multipliers the certificates need are read from the conic solver's constraint duals
(cvxpy) or from HiGHS's marginals (solver ``"linprog"``, the direct sparse path).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import cvxpy as cp
import numpy as np

from .._validation import check_matrix, check_positive
from ..errors import InvalidInputError, InvalidTypeError
from ..formulation import Formulation
from ..report import Certificate, SolveReport, Status
from ..solvers.certify import certified_report
from ..solvers.status import algorithm_status

__all__ = [
    "triplets",
    "coefficients",
    "triplet_matrix",
    "nu_lp",
    "nu_lp_dual",
    "lp",
    "lp_dual",
    "lp_from_data",
    "nu_lp_from_data",
    "nu_lp_value",
    "nu_lp_dual_value",
    "lp_value",
    "lp_dual_value",
    "c_min",
    "TheoremVerdict",
    "check_theorem_1",
    "check_theorem_2",
    "check_theorem_3",
    "check_theorem_4",
    "check_theorem_5",
    "check_theorem_6",
]

SOURCE = "Abe, 'Training Mahalanobis kernels by linear programming', ICANN 2012"
KINDS = ("lp_svm.nu_lp", "lp_svm.nu_lp_dual", "lp_svm.lp", "lp_svm.lp_dual")


# ================================================================== triplets and A
def _sq_dist_rows(X: np.ndarray, rows: np.ndarray, sq: np.ndarray) -> np.ndarray:
    D = sq[rows, None] + sq[None, :] - 2.0 * (X[rows] @ X.T)
    np.maximum(D, 0.0, out=D)
    return D


#: Relative width of the candidate band of :func:`triplets`: a sample ``c`` is a candidate
#: neighbour of ``r`` when its fast distance is within ``TIE_RTOL * (|x_r|^2 + max|x|^2)``
#: of the row minimum.  The rounding error of ``|x|^2 + |z|^2 - 2 x'z`` (BLAS blocking
#: included) is a small multiple of ``m * eps * (|x|^2 + |z|^2)``, far below this band for
#: any ``m`` up to ~10^6 inputs.
TIE_RTOL = 1e-9

#: Candidate pairs whose exact distances are computed at once (bounds the memory of the
#: exact pass to about ``_EXACT_BLOCK * m`` floats even when many samples tie).
_EXACT_BLOCK = 1 << 16


def _exact_argmin(X: np.ndarray, rows: np.ndarray, D: np.ndarray, sq: np.ndarray,
                  sq_max: float) -> np.ndarray:
    """Per row of ``D`` (fast distances, ``inf`` = not allowed): the column with the
    smallest *exactly recomputed* distance ``((X[r] - X[c]) ** 2).sum()`` among the
    columns within the ``TIE_RTOL`` band of the row minimum; ties go to the lowest index.
    """
    dmin = D.min(axis=1)
    cutoff = dmin + TIE_RTOL * (sq[rows] + sq_max)
    ii, cc = np.nonzero(D <= cutoff[:, None])  # row-major: columns ascending per row
    exact = np.empty(ii.size)
    for s in range(0, ii.size, _EXACT_BLOCK):
        sl = slice(s, s + _EXACT_BLOCK)
        exact[sl] = ((X[rows[ii[sl]]] - X[cc[sl]]) ** 2).sum(axis=1)
    order = np.lexsort((cc, exact, ii))  # by row, then exact distance, then index
    ii, cc = ii[order], cc[order]
    first = np.flatnonzero(np.r_[True, ii[1:] != ii[:-1]])
    out = np.empty(rows.size, dtype=np.int64)
    out[ii[first]] = cc[first]
    return out


def triplets(
    X: Any, y: Any, *, singletons: str = "raise", chunk: int = 1024
) -> np.ndarray:
    r"""The triplets ``(r, j, k)`` of Abe (2012), §2.

    For every training sample ``r``: ``j`` is its nearest neighbour (squared Euclidean
    distance) among the *other* samples of its class, ``k`` its nearest neighbour among the
    samples of every other class.

    Deterministic handling of ties and duplicates:

    * the distance that decides is the exact-order one,
      :math:`d(r, c) = \sum_i (x_{ir} - x_{ic})^2` evaluated as
      ``((X[r] - X[c]) ** 2).sum()``; among equal values of it the **lowest sample
      index** wins.  The result is therefore independent of ``chunk`` and of BLAS.
      (The fast expansion :math:`|x|^2 + |z|^2 - 2x^	op z` only preselects the
      candidates within a relative band ``TIE_RTOL`` of the row minimum; its rounding,
      which depends on the BLAS blocking, never decides.)
    * ``r`` itself is excluded by index only, so an exact duplicate of ``x_r`` in the same
      class is a valid same-class neighbour at distance 0 (its row of ``A`` is then
      :math:`(x_r - x_k)^2 \ge 0`); a duplicate in *another* class is a nearest
      other-class neighbour at distance 0, which makes row ``r`` of ``A`` :math:`\le 0`
      in every input (that triplet can never get a positive margin).

    Parameters
    ----------
    X : (n, m) array
        Finite inputs.
    y : (n,) array
        Class labels of any type (two or more classes).
    singletons : {"raise", "skip"}
        What to do with a sample that is alone in its class (it has no same-class
        neighbour): raise an error naming the class, or leave the sample out.  If no
        sample is left, an error names ``y``.
    chunk : int >= 1
        Rows of the distance matrix computed at a time (memory ``chunk * n`` floats).

    Returns
    -------
    (M, 3) int64 array
        Rows ``(r, j, k)``, in increasing ``r``; ``M = n`` unless singletons are skipped.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [3.0], [4.5]])
    >>> triplets(X, np.array([0, 0, 1, 1])).tolist()
    [[0, 1, 2], [1, 0, 2], [2, 3, 1], [3, 2, 1]]
    """
    X = check_matrix(X, "X")
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise InvalidInputError("y", f"expected {X.shape[0]} labels, got shape {y.shape}")
    if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
        raise InvalidInputError("y", "contains non-finite labels")
    if singletons not in ("raise", "skip"):
        raise InvalidInputError("singletons", f"must be 'raise' or 'skip', got {singletons!r}")
    if isinstance(chunk, bool) or not isinstance(chunk, (int, np.integer)):
        raise InvalidTypeError("chunk", f"expected an integer >= 1, got {chunk!r}")
    if chunk < 1:
        raise InvalidInputError("chunk", f"must be an integer >= 1, got {chunk!r}")
    chunk = int(chunk)
    classes, codes, counts = np.unique(y, return_inverse=True, return_counts=True)
    codes = codes.ravel()
    if classes.size < 2:
        raise InvalidInputError(
            "y", f"needs at least two classes for nearest other-class neighbours, got "
                 f"{classes.tolist()}")
    lonely = counts < 2
    if np.any(lonely) and singletons == "raise":
        raise InvalidInputError(
            "y", f"class(es) {classes[lonely].tolist()} have a single sample, which has no "
                 "same-class neighbour; pass singletons='skip' to leave such samples out")
    if np.all(lonely):
        raise InvalidInputError(
            "y", f"every class {classes.tolist()} has a single sample: no sample has a "
                 "same-class neighbour, so no triplet remains")
    n = X.shape[0]
    sq = np.einsum("ij,ij->i", X, X)
    sq_max = float(sq.max())
    keep = ~lonely[codes]
    out = []
    for start in range(0, n, chunk):
        rows = np.arange(start, min(start + chunk, n))
        rows = rows[keep[rows]]
        if rows.size == 0:
            continue
        D = _sq_dist_rows(X, rows, sq)
        same = codes[rows, None] == codes[None, :]
        Ds = np.where(same, D, np.inf)
        Ds[np.arange(rows.size), rows] = np.inf
        Do = np.where(same, np.inf, D)
        j = _exact_argmin(X, rows, Ds, sq, sq_max)
        k = _exact_argmin(X, rows, Do, sq, sq_max)
        out.append(np.stack([rows, j, k], axis=1))
    return np.concatenate(out).astype(np.int64)


def coefficients(X: Any, triplets: Any) -> np.ndarray:
    r"""The matrix ``A`` (M, m): :math:`a_{ir} = (x_{ir} - x_{ik})^2 - (x_{ir} - x_{ij})^2`.

    The second term is :math:`(x_{ir} - x_{ij})^2` (same-class neighbour); the paper's (4)
    prints it with a wrong index.
    """
    X = check_matrix(X, "X")
    T = np.asarray(triplets)
    if T.ndim != 2 or T.shape[1] != 3 or T.shape[0] == 0:
        raise InvalidInputError("triplets", f"expected an (M, 3) array of (r, j, k), got {T.shape}")
    if not np.issubdtype(T.dtype, np.integer):
        raise InvalidTypeError("triplets", "expected integer indices")
    if T.min() < 0 or T.max() >= X.shape[0]:
        raise InvalidInputError("triplets", f"indices must lie in [0, {X.shape[0]})")
    r, j, k = T[:, 0], T[:, 1], T[:, 2]
    return (X[r] - X[k]) ** 2 - (X[r] - X[j]) ** 2


def triplet_matrix(X: Any, y: Any, **kwargs: Any) -> np.ndarray:
    """``coefficients(X, triplets(X, y, **kwargs))``: the ``A`` of the paper from data."""
    return coefficients(X, triplets(X, y, **kwargs))


# ================================================================== closed-form values
def _check_A(A: Any) -> np.ndarray:
    return check_matrix(A, "A")


def _check_C(C: Any, name: str) -> float:
    return check_positive(C, name)


def _check_rho_min(rho_min: Any) -> float | None:
    if rho_min is None:
        return None
    if isinstance(rho_min, bool) or not isinstance(rho_min, (int, float, np.integer, np.floating)):
        raise InvalidTypeError("rho_min", f"expected None or a number >= 0, got {rho_min!r}")
    v = float(rho_min)
    if not math.isfinite(v) or v < 0:
        raise InvalidInputError("rho_min", f"must be None or a finite number >= 0, got {rho_min!r}")
    return v


def _simplex_repair(R: np.ndarray) -> np.ndarray:
    Rp = np.maximum(R, 0.0)
    s = Rp.sum()
    return np.full(R.size, 1.0 / R.size) if not s > 0 else Rp / s


#: ``M C_rho`` within this of 1 counts as the threshold ``C_rho = 1/M`` of Theorem 2.  A
#: ``C_rho`` computed as ``1/M`` is ``(1 + d1)/M`` with ``|d1| <= u`` (``u = eps/2``, one
#: rounding) and the float product ``C_rho * M`` adds one more rounding, so it lies within
#: ``2u + u^2 < eps`` of 1 (below 1 for about one ``M`` in nine); four ulps leave room for
#: one or two more roundings in how the caller formed ``C_rho`` (``c / M`` with ``c = 1``,
#: ``2 / (2M)``).  Anything further from 1 is a genuine ``C_rho < 1/M``: the ν-LP is then
#: unbounded and its dual infeasible (Theorem 2), never "optimal".
THRESHOLD_RTOL = 4.0 * float(np.finfo(float).eps)


def _below_threshold(C: float, M: int) -> bool:
    """True when ``M C < 1`` beyond rounding (Theorem 2: unbounded ν-LP, infeasible dual)."""
    return C * M < 1.0 - THRESHOLD_RTOL


def _best_rho(s: np.ndarray, C: float, rho_min: float | None) -> tuple[float, float]:
    """``max_{rho >= rho_min} rho - C sum (rho - s)_+`` and its maximiser (module doc).

    ``inf`` when ``M C < 1 - THRESHOLD_RTOL`` (Theorem 2).  Otherwise the best kink: at
    ``C = 1/M`` up to rounding the slope beyond the last kink is ``1 - M C``, at most a few
    ulps, and the kink's value is still the objective of a feasible point (a valid lower
    bound)."""
    M = s.size
    if _below_threshold(C, M):
        return math.inf, math.inf
    ss = np.sort(s)
    prefix = np.concatenate([[0.0], np.cumsum(ss)[:-1]])
    k = np.arange(M)
    vals = ss - C * (k * ss - prefix)  # h at rho = ss[k]: k smaller values below it
    if rho_min is not None:
        vals = np.where(ss >= rho_min, vals, -np.inf)
        v0 = rho_min - C * float(np.maximum(rho_min - s, 0.0).sum())
    else:
        v0 = -np.inf
    i = int(np.argmax(vals))
    if vals[i] >= v0:
        return float(vals[i]), float(ss[i])
    return float(v0), float(rho_min)


def nu_lp_value(A: np.ndarray, R: np.ndarray, C_rho: float, rho_min: float | None = 0.0
                ) -> tuple[float, dict[str, np.ndarray]]:
    """ν-LP objective at ``R`` with the best ``rho``, ``xi`` (``R`` projected on the simplex).

    Returns the value and the completed point ``{"R", "rho", "xi"}``.
    """
    Rs = _simplex_repair(np.asarray(R, float))
    s = A @ Rs
    val, rho = _best_rho(s, C_rho, rho_min)
    xi = np.maximum(rho - s, 0.0) if math.isfinite(rho) else np.full(s.size, math.inf)
    return val, {"R": Rs, "rho": np.asarray(rho), "xi": xi}


def _repair_delta(delta: np.ndarray, C: float, rho_min: float | None) -> np.ndarray | None:
    """``delta`` clipped to ``[0, C]`` and raised to ``sum >= 1`` (``= 1`` when ``rho_min``
    is None); None when impossible (``M C < 1``, Theorem 2).  At the threshold
    ``C = 1/M`` (``|M C - 1| <= THRESHOLD_RTOL``) the only feasible point is ``e/M``; the
    proportional raise can fall short of it by rounding, so ``e/M`` (clipped at ``C``) is
    used then, and only when it is feasible to that same ulp-level tolerance:
    ``delta <= C`` by the clip and ``sum delta = M min(1/M, C) >= 1 - THRESHOLD_RTOL``
    (one rounding, unlike a float sum of ``M`` terms)."""
    if _below_threshold(C, delta.size):
        return None
    d = np.clip(delta, 0.0, C)
    total = d.sum()
    if rho_min is None and total > 1.0:
        return d / total
    if total < 1.0:
        room = C - d
        if room.sum() >= 1.0 - total:
            d = np.minimum(d + room * ((1.0 - total) / room.sum()), C)
        else:
            v = min(1.0 / d.size, C)
            if v * d.size < 1.0 - THRESHOLD_RTOL:
                return None
            d = np.full(d.size, v)
    return d


def nu_lp_dual_value(A: np.ndarray, delta: np.ndarray, C_rho: float,
                     rho_min: float | None = 0.0) -> tuple[float, dict[str, np.ndarray]]:
    """ν-LP dual objective at ``delta`` (repaired) with the best ``z``; ``inf`` if
    ``M C_rho < 1`` (the dual is then infeasible)."""
    d = _repair_delta(np.asarray(delta, float), C_rho, rho_min)
    if d is None:
        return math.inf, {"delta": np.clip(delta, 0.0, C_rho), "z": np.asarray(math.inf)}
    z = float(np.max(A.T @ d))
    val = z if not rho_min else z + rho_min * (1.0 - float(d.sum()))
    return val, {"delta": d, "z": np.asarray(z)}


def lp_value(A: np.ndarray, R: np.ndarray, C_M: float) -> tuple[float, dict[str, np.ndarray]]:
    """LP SVM objective at ``R`` (clipped at 0) with the best slacks ``xi = (1 - AR)_+``."""
    Rp = np.maximum(np.asarray(R, float), 0.0)
    xi = np.maximum(1.0 - A @ Rp, 0.0)
    return float(Rp.sum() + C_M * xi.sum()), {"R": Rp, "xi": xi}


def lp_dual_value(A: np.ndarray, alpha: np.ndarray, C_M: float
                  ) -> tuple[float, dict[str, np.ndarray]]:
    """LP SVM dual objective at ``alpha`` made feasible (clip, then scale by ``max A'alpha``)."""
    a = np.clip(np.asarray(alpha, float), 0.0, C_M)
    # A few selective passes first: for each violated column i, shrink the alpha_r with
    # a_ir > 0 by the fraction that removes the excess (costs far less than scaling all of
    # alpha when one column with large |a_ir| is violated by round-off); then the uniform
    # scaling by max(A'alpha) guarantees feasibility whatever is left.
    Ap = np.maximum(A, 0.0)
    for _ in range(5):
        g = A.T @ a
        excess = g - 1.0
        bad = excess > 0
        if not np.any(bad):
            break
        pos = Ap[:, bad].T @ a  # sum_r a_ir^+ alpha_r, per violated column
        theta = np.minimum(np.where(pos > 0, excess[bad] / np.where(pos > 0, pos, 1.0), 0.0), 1.0)
        shrink = np.max(np.where(Ap[:, bad] > 0, theta, 0.0), axis=1)  # per-row fraction
        a = a * (1.0 - shrink)
    t = float(np.max(A.T @ a))
    if t > 1.0:
        a = a / t
    return float(a.sum()), {"alpha": a}


def c_min(A: Any) -> float:
    r"""Theorem 5, (18): :math:`C_{\min} = 1 / \max_i \sum_r a_{ir}`.

    For :math:`C_M \le C_{\min}` the LP SVM solution is ``R = 0`` (unique below it); above
    it ``R != 0``.  ``inf`` when every column sum is ``<= 0`` (``R = 0`` for every ``C_M``).
    """
    A = _check_A(A)
    b = float(A.sum(axis=0).max())
    return 1.0 / b if b > 0 else math.inf


# ================================================================== builders
def _dist(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.max(np.abs(a - b))) if a.size else 0.0


def _theorem2_hint(M: int) -> str:
    return (f"by Theorem 2 (Abe 2012) this happens exactly when C_rho < 1/M = {1.0 / M:.6g} "
            f"(M = {M} triplets); raise C_rho")


def _with_hint(f: Formulation, status: Status, message: str) -> str:
    hint = f.hints.get(status.value)
    return f"{message}: {hint}" if hint else message


def nu_lp(A: Any, C_rho: float = 1.0, *, rho_min: float | None = 0.0) -> Formulation:
    """The ν-LP SVM (5)–(9) (maximisation) as a :class:`~convexkern.Formulation`.

    Parameters
    ----------
    A : (M, m) array
        Triplet coefficients, row ``r`` = ``(a_1r .. a_mr)`` (see :func:`triplet_matrix`).
    C_rho : float > 0
        Margin parameter, a ``cvxpy.Parameter`` (``f.parameters["C_rho"]``).  Below ``1/M``
        the problem is unbounded (Theorem 2): every solver reports ``unbounded``.
    rho_min : float >= 0 or None
        How the paper's strict ``rho > 0`` is represented (module docstring): ``0.0`` the
        closure (dual = the paper's (14)–(17)), ``None`` free, ``eps > 0`` ``rho >= eps``.

    Returns
    -------
    Formulation
        Variables ``R`` (m,), ``rho``, ``xi`` (M,); reports carry ``x["R"], x["rho"],
        x["xi"]`` and the multipliers ``x["delta"]``.

    Examples
    --------
    >>> import numpy as np, convexkern as ck
    >>> A = np.array([[1.0, -1.0], [-1.0, 2.0], [0.5, 0.5]])
    >>> r = ck.solve(ck.formulations.lp_svm.nu_lp(A, C_rho=1.0), "linprog")
    >>> r.status.value, round(r.primal_value, 6), round(r.dual_value, 6)
    ('optimal', 0.2, 0.2)
    """
    A = _check_A(A)
    Cv = _check_C(C_rho, "C_rho")
    rmin = _check_rho_min(rho_min)
    M, m = A.shape
    R = cp.Variable(m, nonneg=True, name="R")
    xi = cp.Variable(M, nonneg=True, name="xi")
    rho = cp.Variable(name="rho")
    Cp = cp.Parameter(pos=True, name="C_rho", value=Cv)
    margin = A @ R >= rho - xi
    cons = [cp.sum(R) == 1, margin]
    if rmin is not None:
        cons.append(rho >= rmin)
    problem = cp.Problem(cp.Maximize(rho - Cp * cp.sum(xi)), cons)

    def extract(f: Formulation) -> dict[str, np.ndarray]:
        if R.value is None:
            raise InvalidInputError("point", "the problem has no solution stored")
        out = {"R": np.asarray(R.value, float)}
        if margin.dual_value is not None:
            out["delta"] = np.asarray(margin.dual_value, float)
        return out

    def certify(f: Formulation, point: Mapping[str, np.ndarray]) -> Certificate:
        C = f.param("C_rho")
        Ad = f.data["A"]
        val, pt = nu_lp_value(Ad, point["R"], C, rmin)
        res = {"projection": _dist(pt["R"], np.asarray(point["R"], float))}
        upper = math.inf
        if "delta" in point:
            upper, dpt = nu_lp_dual_value(Ad, point["delta"], C, rmin)
            pt["delta"] = dpt["delta"]
            res["delta_projection"] = _dist(dpt["delta"], np.asarray(point["delta"], float))
        if math.isfinite(val) and math.isfinite(upper):
            upper = max(upper, val)
        note = "" if "delta" in point else "no multipliers: no upper bound"
        proven = None
        if _below_threshold(C, Ad.shape[0]):
            note = "unbounded: " + _theorem2_hint(Ad.shape[0])
            proven = Status.UNBOUNDED
        return Certificate(primal_value=val, dual_value=upper, sense="maximize", point=pt,
                           residuals=res, note=note, proven=proven)

    return Formulation(
        name="lp_svm.nu_lp", problem=problem,
        variables={"R": R, "rho": rho, "xi": xi}, parameters={"C_rho": Cp},
        source=f"{SOURCE}, (5)-(9)", kind="lp_svm.nu_lp",
        data={"A": A, "rho_min": rmin}, certify=certify, extract=extract,
        dual_builder=lambda: nu_lp_dual(A, float(Cp.value), rho_min=rmin),
        default_solver="linprog",
        hints={"unbounded": _theorem2_hint(A.shape[0])},
    )


def nu_lp_dual(A: Any, C_rho: float = 1.0, *, rho_min: float | None = 0.0) -> Formulation:
    """The dual (14)–(17) of the ν-LP SVM (minimisation) as a Formulation.

    ``min z  s.t.  sum delta >= 1, A' delta <= z e, 0 <= delta <= C_rho`` (with
    ``sum delta = 1`` when ``rho_min is None`` and the objective ``z + eps (1 - sum delta)``
    when ``rho_min = eps > 0``).  Infeasible for ``C_rho < 1/M`` (every solver reports
    ``infeasible``).  Variables ``delta`` (M,), ``z``; the multipliers of ``A'delta <= z``
    are the ν-LP's ``R`` (``x["R"]`` in reports).
    """
    A = _check_A(A)
    Cv = _check_C(C_rho, "C_rho")
    rmin = _check_rho_min(rho_min)
    M, m = A.shape
    delta = cp.Variable(M, nonneg=True, name="delta")
    z = cp.Variable(name="z")
    Cp = cp.Parameter(pos=True, name="C_rho", value=Cv)
    cover = A.T @ delta <= z
    cons = [cover, delta <= Cp]
    obj = z
    if rmin is None:
        cons.append(cp.sum(delta) == 1)
    else:
        cons.append(cp.sum(delta) >= 1)
        if rmin > 0:
            obj = z + rmin * (1 - cp.sum(delta))
    problem = cp.Problem(cp.Minimize(obj), cons)

    def extract(f: Formulation) -> dict[str, np.ndarray]:
        if delta.value is None:
            raise InvalidInputError("point", "the problem has no solution stored")
        out = {"delta": np.asarray(delta.value, float)}
        if cover.dual_value is not None:
            out["R"] = np.asarray(cover.dual_value, float)
        return out

    def certify(f: Formulation, point: Mapping[str, np.ndarray]) -> Certificate:
        C = f.param("C_rho")
        Ad = f.data["A"]
        val, pt = nu_lp_dual_value(Ad, point["delta"], C, rmin)
        res = {"projection": _dist(pt["delta"], np.asarray(point["delta"], float))}
        lower = -math.inf
        if "R" in point:
            lower, ppt = nu_lp_value(Ad, point["R"], C, rmin)
            pt.update({"R": ppt["R"], "rho": ppt["rho"]})
            res["R_projection"] = _dist(ppt["R"], np.asarray(point["R"], float))
        if math.isfinite(val) and math.isfinite(lower):
            lower = min(lower, val)
        note = "" if "R" in point else "no multipliers: no lower bound"
        proven = None
        if _below_threshold(C, Ad.shape[0]):
            note = "infeasible: " + _theorem2_hint(Ad.shape[0])
            proven = Status.INFEASIBLE
        return Certificate(primal_value=val, dual_value=lower, sense="minimize", point=pt,
                           residuals=res, note=note, proven=proven)

    return Formulation(
        name="lp_svm.nu_lp_dual", problem=problem,
        variables={"delta": delta, "z": z}, parameters={"C_rho": Cp},
        source=f"{SOURCE}, (14)-(17)", kind="lp_svm.nu_lp_dual",
        data={"A": A, "rho_min": rmin}, certify=certify, extract=extract,
        dual_builder=lambda: nu_lp(A, float(Cp.value), rho_min=rmin),
        default_solver="linprog",
        hints={"infeasible": _theorem2_hint(A.shape[0])},
    )


def lp(A: Any, C_M: float = 1.0) -> Formulation:
    """The LP SVM (10)–(13) (minimisation) as a Formulation.

    ``min sum R + C_M sum xi  s.t.  R >= 0, A R >= 1 - xi, xi >= 0``.  Always feasible
    (``R = 0, xi = 1``) and bounded below by 0.  Variables ``R``, ``xi``; parameter
    ``C_M``; reports carry the multipliers ``x["alpha"]`` of the margin constraints.

    Examples
    --------
    >>> import numpy as np, convexkern as ck
    >>> A = np.array([[1.0, -1.0], [-1.0, 2.0], [0.5, 0.5]])
    >>> r = ck.solve(ck.formulations.lp_svm.lp(A, C_M=10.0), "linprog")
    >>> np.round(r.x["R"], 6).tolist(), round(r.primal_value, 6)
    ([3.0, 2.0], 5.0)
    """
    A = _check_A(A)
    Cv = _check_C(C_M, "C_M")
    M, m = A.shape
    R = cp.Variable(m, nonneg=True, name="R")
    xi = cp.Variable(M, nonneg=True, name="xi")
    Cp = cp.Parameter(pos=True, name="C_M", value=Cv)
    margin = A @ R >= 1 - xi
    problem = cp.Problem(cp.Minimize(cp.sum(R) + Cp * cp.sum(xi)), [margin])

    def extract(f: Formulation) -> dict[str, np.ndarray]:
        if R.value is None:
            raise InvalidInputError("point", "the problem has no solution stored")
        out = {"R": np.asarray(R.value, float)}
        if margin.dual_value is not None:
            out["alpha"] = np.asarray(margin.dual_value, float)
        return out

    def certify(f: Formulation, point: Mapping[str, np.ndarray]) -> Certificate:
        C = f.param("C_M")
        Ad = f.data["A"]
        val, pt = lp_value(Ad, point["R"], C)
        res = {"projection": _dist(pt["R"], np.asarray(point["R"], float))}
        lower = -math.inf
        if "alpha" in point:
            lower, dpt = lp_dual_value(Ad, point["alpha"], C)
            pt["alpha"] = dpt["alpha"]
            res["alpha_projection"] = _dist(dpt["alpha"], np.asarray(point["alpha"], float))
            lower = min(lower, val)
        return Certificate(primal_value=val, dual_value=lower, sense="minimize", point=pt,
                           residuals=res,
                           note="" if "alpha" in point else "no multipliers: no lower bound")

    return Formulation(
        name="lp_svm.lp", problem=problem, variables={"R": R, "xi": xi},
        parameters={"C_M": Cp}, source=f"{SOURCE}, (10)-(13)", kind="lp_svm.lp",
        data={"A": A}, certify=certify, extract=extract,
        dual_builder=lambda: lp_dual(A, float(Cp.value)), default_solver="linprog",
    )


def lp_dual(A: Any, C_M: float = 1.0) -> Formulation:
    """The dual of the LP SVM (derived in the module docstring; not in the paper).

    ``max sum alpha  s.t.  A' alpha <= e, 0 <= alpha <= C_M``.  Variable ``alpha``; the
    multipliers of ``A' alpha <= e`` are the LP SVM's ``R`` (``x["R"]`` in reports).
    """
    A = _check_A(A)
    Cv = _check_C(C_M, "C_M")
    M, m = A.shape
    alpha = cp.Variable(M, nonneg=True, name="alpha")
    Cp = cp.Parameter(pos=True, name="C_M", value=Cv)
    cover = A.T @ alpha <= 1
    problem = cp.Problem(cp.Maximize(cp.sum(alpha)), [cover, alpha <= Cp])

    def extract(f: Formulation) -> dict[str, np.ndarray]:
        if alpha.value is None:
            raise InvalidInputError("point", "the problem has no solution stored")
        out = {"alpha": np.asarray(alpha.value, float)}
        if cover.dual_value is not None:
            out["R"] = np.asarray(cover.dual_value, float)
        return out

    def certify(f: Formulation, point: Mapping[str, np.ndarray]) -> Certificate:
        C = f.param("C_M")
        Ad = f.data["A"]
        val, pt = lp_dual_value(Ad, point["alpha"], C)
        res = {"projection": _dist(pt["alpha"], np.asarray(point["alpha"], float))}
        upper = math.inf
        if "R" in point:
            upper, ppt = lp_value(Ad, point["R"], C)
            pt["R"] = ppt["R"]
            res["R_projection"] = _dist(ppt["R"], np.asarray(point["R"], float))
            upper = max(upper, val)
        return Certificate(primal_value=val, dual_value=upper, sense="maximize", point=pt,
                           residuals=res,
                           note="" if "R" in point else "no multipliers: no upper bound")

    return Formulation(
        name="lp_svm.lp_dual", problem=problem, variables={"alpha": alpha},
        parameters={"C_M": Cp}, source=f"{SOURCE}, dual of (10)-(13)",
        kind="lp_svm.lp_dual", data={"A": A}, certify=certify, extract=extract,
        dual_builder=lambda: lp(A, float(Cp.value)), default_solver="linprog",
    )


def lp_from_data(X: Any, y: Any, C_M: float = 1.0) -> Formulation:
    """:func:`lp` on ``A = triplet_matrix(X, y)`` (for TOML specs, which pass ``X``, ``y``).

    ``data["X"]`` is not kept: the formulation learns a metric, not a classifier, so a
    spec reports no test accuracy for it.
    """
    f = lp(triplet_matrix(X, y), C_M)
    f.data["triplets_from"] = tuple(np.shape(X))
    return f


def nu_lp_from_data(X: Any, y: Any, C_rho: float = 1.0, *,
                    rho_min: float | None = 0.0) -> Formulation:
    """:func:`nu_lp` on ``A = triplet_matrix(X, y)`` (for TOML specs)."""
    f = nu_lp(triplet_matrix(X, y), C_rho, rho_min=rho_min)
    f.data["triplets_from"] = tuple(np.shape(X))
    return f


# ================================================================== direct HiGHS path
#: scipy.optimize.linprog's status codes, in the words of the built-in algorithms
_LINPROG_WORD = {0: "optimal", 1: "iteration_limit", 2: "infeasible", 3: "unbounded",
                 4: "error"}


def _param_of(f: Formulation) -> float:
    key = "C_rho" if "C_rho" in f.parameters else "C_M"
    return float(f.parameters[key].value)


def _solve_linprog(
    f: Formulation,
    *,
    tol: float,
    max_iter: int | None,
    time_limit: float | None,
    verbose: bool = False,
    x0: Mapping[str, np.ndarray] | None = None,
    presolve: bool = True,
    method: str = "auto",
    form: str = "auto",
    **options: Any,
) -> SolveReport:
    """Solve one of the four LPs by a direct ``linprog`` (HiGHS) call on sparse matrices.

    ``method`` (a linprog HiGHS method or ``"auto"``) and ``form`` (``"given"``,
    ``"partner"`` = solve the LP dual and read this problem's solution off the marginals,
    or ``"auto"``) are chosen by :func:`convexkern.algorithms.linprog_direct.choose`: small
    problems run HiGHS's default on the given form; large ones run the interior-point
    method on the form with fewer rows.  linprog statuses map to: 0 optimal, 1 iteration
    limit (time limit when its message says so), 2 infeasible, 3 unbounded, 4 numerical
    trouble (error).  When the partner form is solved, its infeasibility is this
    problem's unboundedness and vice versa (the LPs are a primal-dual pair, and both
    are feasible or exactly one is, as Theorem 2 shows).  The point and the marginals are
    certified like any conic answer.
    """
    from ..algorithms.linprog_direct import choose, solve_standard, standard_form

    A = f.data["A"]
    M, m = A.shape
    C = _param_of(f)
    target, meth = choose(f.kind, A.shape, method, form)
    std = standard_form(target, A, C, f.data.get("rho_min", 0.0))
    res = solve_standard(std, tol=tol * 0.1, time_limit=time_limit, max_iter=max_iter,
                         presolve=presolve, verbose=verbose, method=meth)
    status = algorithm_status(_LINPROG_WORD.get(res.status, "error"))
    if res.status == 1 and "time" in res.message.lower():
        status = Status.TIME_LIMIT
    if target != f.kind and status in (Status.INFEASIBLE, Status.UNBOUNDED):
        status = Status.UNBOUNDED if status is Status.INFEASIBLE else Status.INFEASIBLE
    # HiGHS's feasibility tolerances accept M C_rho = 1 - 5e-13 as 1: the certificate then
    # proves Theorem 2's status (Certificate.proven), as for every other solver.
    stats = {"status": res.status, "message": res.message, "solved_form": target,
             "method": meth,
             "objective": None if res.fun is None else std.sign * res.fun + std.offset}
    if not status.has_solution or res.x is None:
        primal = math.nan
        if status is Status.UNBOUNDED:
            primal = math.inf if f.sense == "maximize" else -math.inf
        if status.has_solution:  # a limit without a point
            status = Status.ERROR if status is Status.OPTIMAL else status
        return SolveReport(
            status=status, solver="linprog", formulation=f.name, primal_value=primal,
            solve_time=res.solve_time, iterations=res.iterations, tol=tol,
            params=f.param_values(), solver_stats=stats,
            message=_with_hint(f, status, {Status.INFEASIBLE: "the problem is infeasible",
                                           Status.UNBOUNDED: "the problem is unbounded"}
                               .get(status, res.message)),
        )
    x = res.x
    lam = res.ineq_marginals
    got: dict[str, np.ndarray] = {}
    if target == "lp_svm.nu_lp":
        got["R"] = x[:m]
        if lam is not None:
            got["delta"] = -lam
    elif target == "lp_svm.nu_lp_dual":
        got["delta"] = x[:M]
        if lam is not None:
            got["R"] = -lam[:m]
    elif target == "lp_svm.lp":
        got["R"] = x[:m]
        if lam is not None:
            got["alpha"] = -lam
    else:
        got["alpha"] = x
        if lam is not None:
            got["R"] = -lam
    main = {"lp_svm.nu_lp": "R", "lp_svm.nu_lp_dual": "delta", "lp_svm.lp": "R",
            "lp_svm.lp_dual": "alpha"}[f.kind]
    if main not in got:
        return SolveReport(
            status=Status.ERROR, solver="linprog", formulation=f.name,
            solve_time=res.solve_time, iterations=res.iterations, tol=tol,
            params=f.param_values(), solver_stats=stats,
            message=f"HiGHS returned no marginals for the {target} form",
        )
    point = got
    return certified_report(
        f, point, solver="linprog", status=status, tol=tol, solve_time=res.solve_time,
        iterations=res.iterations, solver_stats=stats,
    )


# ================================================================== theorems
@dataclass(frozen=True)
class TheoremVerdict:
    """The outcome of checking one of the paper's theorems on given data.

    Attributes
    ----------
    theorem : int
    statement : str
        The statement that was checked (as printed, or as corrected: see ``as_printed``).
    holds : bool
        Whether the checked statement held on this data, to ``tol``.
    as_printed : bool or None
        Whether the statement *as printed in the paper* holds here (``None`` when the
        check does not distinguish).
    numbers : dict
        The numbers behind the verdict.
    note : str
        Conditions, counterexamples, caveats.
    """

    theorem: int
    statement: str
    holds: bool
    as_printed: bool | None
    numbers: dict[str, Any] = field(default_factory=dict)
    note: str = ""

    def __bool__(self) -> bool:
        return self.holds

    def __str__(self) -> str:
        nums = ", ".join(f"{k}={_short(v)}" for k, v in self.numbers.items())
        printed = "" if self.as_printed is None else f"; as printed: {self.as_printed}"
        return (f"Theorem {self.theorem}: {'holds' if self.holds else 'FAILS'}{printed} "
                f"[{nums}]" + (f" -- {self.note}" if self.note else ""))


def _short(v: Any) -> str:
    if isinstance(v, (float, np.floating)):
        return f"{float(v):.6g}"
    if isinstance(v, np.ndarray):
        return f"array{v.shape}"
    return str(v)


def _solve(f: Formulation, solver: str, tol: float) -> SolveReport:
    from ..solvers import solve

    return solve(f, solver, tol=tol)


def _rel(a: float, b: float) -> float:
    """Relative difference, scale-free (0 when equal, also when both are 0)."""
    d = abs(a - b)
    return 0.0 if d == 0 else d / max(abs(a), abs(b))


def _amax(A: np.ndarray) -> float:
    """``max |a_ir|``: the scale of margins, ``rho`` and ν-LP values (``R`` on the simplex)."""
    return float(np.abs(A).max())


def _fixed_R_best(A: np.ndarray, R: np.ndarray, C: float) -> float:
    """ν-LP value of ``R`` normalised to ``sum R = 1`` with the best ``rho >= 0``."""
    return nu_lp_value(A, R, C)[0]


def check_theorem_1(A: Any, C_rho: float, *, C_M: float | None = None,
                    solver: str = "linprog", tol: float = 1e-6) -> TheoremVerdict:
    r"""Theorem 1: equivalence of the ν-LP SVM and the LP SVM, both ways.

    Forward: if the ν-LP optimum :math:`\bar J_\rho = \bar\rho - C_\rho\sum\bar\xi` is
    **positive**, then :math:`(\bar R, \bar\xi)/\bar\rho` solves the LP SVM with
    :math:`C_M = C_\rho/\bar J_\rho` and :math:`\hat J = 1/\bar J_\rho`.  Converse: an LP
    SVM solution :math:`\hat R \ne 0` with value :math:`\hat J` gives, scaled by
    :math:`1/\sum\hat R`, a ν-LP solution for :math:`C_\rho = C_M/\hat J` — not for the
    printed :math:`C_\rho = C_M\hat J` (which agrees only when :math:`\hat J = 1`).

    Parameters
    ----------
    A : (M, m) array
    C_rho : float > 0
        ν-LP parameter of the forward direction.
    C_M : float > 0, optional
        LP SVM parameter of the converse direction; default: the forward image
        :math:`C_\rho/\bar J_\rho` (when :math:`\bar J_\rho > 0`).  Pass it to test the
        converse on its own, from an arbitrary LP SVM.
    solver, tol
        Solver of every LP, and the relative tolerance of the comparisons (``10 tol``).

    Every threshold is relative, so the verdict is invariant under ``A -> s A``
    (:math:`\bar J_\rho` and :math:`\bar\rho` scale with ``s``, ``C_M`` and :math:`\hat J`
    with ``1/s``): :math:`\bar J_\rho` counts as positive when it exceeds
    ``tol * (rho + C_rho sum xi)``, the size of the two terms it is the difference of.

    ``holds`` is the corrected statement (forward with the condition, corrected
    converse); ``as_printed`` is False when the printed converse fails here or when
    :math:`\bar J_\rho \le 0` (no equivalent LP SVM exists).
    """
    A = _check_A(A)
    C_rho = _check_C(C_rho, "C_rho")
    if C_M is not None:
        C_M = _check_C(C_M, "C_M")
    amax = _amax(A)
    nu = _solve(nu_lp(A, C_rho), solver, tol)
    nums: dict[str, Any] = {"C_rho": C_rho, "J_rho": nu.primal_value, "nu_status": nu.status.value}
    if not nu.status.has_solution:
        return TheoremVerdict(1, "equivalence needs a finite nu-LP optimum", False, False, nums,
                              f"nu-LP SVM status {nu.status.value} (C_rho < 1/M?)")
    J = nu.primal_value
    rho = float(nu.x["rho"])
    loss = C_rho * float(np.sum(nu.x["xi"]))
    nums["rho"] = rho
    notes: list[str] = []
    fwd_ok, fwd_printed = True, False
    if J > tol * (rho + loss):
        C_fwd = C_rho / J
        lpr = _solve(lp(A, C_fwd), solver, tol)
        J_hat = lpr.primal_value
        mapped_val, _ = lp_value(A, nu.x["R"] / rho, C_fwd)
        fwd_ok = bool(lpr.status.has_solution and _rel(J_hat, 1.0 / J) <= 10 * tol
                      and _rel(mapped_val, J_hat) <= 10 * tol)
        fwd_printed = fwd_ok
        nums.update({"C_M": C_fwd, "J_hat": J_hat, "1/J_rho": 1.0 / J,
                     "mapped_lp_value": mapped_val})
    else:
        C_fwd = None
        notes.append(
            f"J_rho = {J:.6g} <= 0 (rho = {rho:.3g}"
            + (", the zero-margin solution" if rho <= tol * amax else "")
            + "): C_M = C_rho/J_rho is undefined or negative and no LP SVM is equivalent; "
            "the printed theorem omits the condition J_rho > 0")
    C_conv = C_M if C_M is not None else C_fwd
    if C_conv is None:
        return TheoremVerdict(1, "forward direction needs J_rho > 0", True, False, nums,
                              notes[0])
    # converse from the LP SVM side, both mappings
    lpc = _solve(lp(A, C_conv), solver, tol)
    J_hat_c = lpc.primal_value
    nums.update({"C_M_converse": C_conv, "J_hat_converse": J_hat_c})
    R_hat = np.asarray(lpc.x["R"], float) if lpc.status.has_solution else np.zeros(A.shape[1])
    t = float(R_hat.sum())
    if not t > 0:  # C_M <= C_min (Theorem 5), or M C_rho = 1 exactly
        notes.append("the LP SVM solution is R = 0 (C_M <= C_min?): the converse is not "
                     "tested")
        return TheoremVerdict(1, "converse needs an LP SVM solution R != 0", fwd_ok, None,
                              nums, "; ".join(notes))
    C_right = C_conv / J_hat_c
    C_printed = C_conv * J_hat_c
    back = _solve(nu_lp(A, C_right), solver, tol)
    mapped_nu = _fixed_R_best(A, R_hat, C_right)
    conv_ok = bool(back.status.has_solution
                   and _rel(back.primal_value, 1.0 / J_hat_c) <= 10 * tol
                   and _rel(mapped_nu, back.primal_value) <= 10 * tol)
    printed = _solve(nu_lp(A, C_printed), solver, tol)
    mapped_printed = _fixed_R_best(A, R_hat, C_printed)
    printed_ok = bool(printed.status.has_solution
                      and _rel(mapped_printed, printed.primal_value) <= 10 * tol)
    nums.update({"C_rho_corrected": C_right, "J_rho_corrected": back.primal_value,
                 "mapped_value_at_corrected": mapped_nu,
                 "C_rho_printed": C_printed, "J_rho_printed": printed.primal_value,
                 "mapped_value_at_printed": mapped_printed})
    if conv_ok:
        notes.append(
            "converse with the printed C_rho = C_M*J_hat: the mapped point is "
            + ("optimal" if printed_ok else
               f"NOT optimal ({mapped_printed:.6g} < {printed.primal_value:.6g})"
               if printed.status.has_solution else
               f"NOT a solution: that C_rho = {C_printed:.6g} gives nu-LP status "
               f"{printed.status.value} (Theorem 2 when C_rho < 1/M)")
            + "; with C_rho = C_M/J_hat it is optimal")
    return TheoremVerdict(
        1, "nu-LP(C_rho) ~ LP(C_M = C_rho/J_rho) when J_rho > 0; converse C_rho = C_M/J_hat",
        fwd_ok and conv_ok, bool(fwd_printed and printed_ok), nums, "; ".join(notes))


def check_theorem_2(A: Any, C_rho: float | None = None, *,
                    solvers: tuple[str, ...] = ("linprog", "highs", "clarabel", "scs", "ecos")
                    ) -> TheoremVerdict:
    """Theorem 2: for ``C_rho < 1/M`` the ν-LP SVM is unbounded (its dual infeasible).

    ``C_rho`` defaults to ``0.5/M``.  Every installed solver of ``solvers`` is run on both
    problems; the verdict holds when each reports ``unbounded`` / ``infeasible``.  The
    ray ``rho = t, xi = t - AR`` (any simplex ``R``) has objective
    ``t (1 - M C_rho) + C_rho e'AR`` -> inf, given in ``numbers["ray_slope"]``.
    """
    from ..solvers import available_solvers

    A = _check_A(A)
    M = A.shape[0]
    C = 0.5 / M if C_rho is None else _check_C(C_rho, "C_rho")
    fp, fd = nu_lp(A, C), nu_lp_dual(A, C)
    names = [s for s in solvers if s in available_solvers(fp)]
    statuses = {}
    for s in names:
        statuses[s] = (_solve(fp, s, 1e-6).status.value, _solve(fd, s, 1e-6).status.value)
    below = C < 1.0 / M
    ok = all(p == "unbounded" and d == "infeasible" for p, d in statuses.values())
    nums = {"M": M, "C_rho": C, "1/M": 1.0 / M, "ray_slope": 1.0 - M * C, "statuses": statuses}
    if not below:
        return TheoremVerdict(2, "C_rho < 1/M => unbounded", True, True, nums,
                              "C_rho >= 1/M: the theorem says nothing")
    return TheoremVerdict(2, "C_rho < 1/M => nu-LP unbounded, dual infeasible", ok, ok, nums)


def check_theorem_3(A: Any, C_values: tuple[float, ...] = (1.0, 2.0, 10.0, 100.0), *,
                    solver: str = "linprog", tol: float = 1e-7) -> TheoremVerdict:
    r"""Theorem 3: for :math:`C_\rho \ge 1` the ν-LP SVM solution does not depend on
    :math:`C_\rho`.

    For :math:`C_\rho \ge 1` the best ``rho`` for fixed ``R`` is :math:`\min_r (AR)_r`
    (clamped at ``rho_min``) with ``xi = 0`` (see the module docstring), so the objective
    as a function of ``R`` is the same for every :math:`C_\rho \ge 1` when the optimum
    has ``rho > 0``.  Checked: the optimal values agree, and each solver's ``R`` is
    optimal for every other :math:`C_\rho` of the list (solutions need not be unique, so
    the ``R`` vectors themselves are compared only through their values).
    """
    A = _check_A(A)
    reps = [_solve(nu_lp(A, C), solver, tol) for C in C_values]
    vals = [r.primal_value for r in reps]
    cross = max(abs(nu_lp_value(A, ri.x["R"], C)[0] - vals[j])
                for ri in reps for j, C in enumerate(C_values))
    scale = max(abs(v) for v in vals)
    ok = all(r.ok for r in reps) and cross <= 10 * tol * scale
    rdiff = max(_dist(r.x["R"], reps[0].x["R"]) for r in reps)
    rhos = [float(r.x["rho"]) for r in reps]
    note = ""
    amax = _amax(A)
    if min(rhos) <= tol * amax and max(abs(v) for v in vals) > tol * amax:
        note = ("rho = 0 at the optimum: the objective -C_rho sum xi scales with C_rho, so "
                "the optimal value changes although the optimal R set does not")
        ok = all(r.ok for r in reps) and max(
            _rel(nu_lp_value(A, ri.x["R"], C)[0], vals[j])
            for ri in reps for j, C in enumerate(C_values)) <= 10 * tol
    return TheoremVerdict(
        3, "C_rho >= 1 => the nu-LP solution (R, rho) is independent of C_rho", ok, ok,
        {"C_values": list(C_values), "values": vals, "rho": rhos,
         "max_cross_value_error": cross, "max_R_difference": rdiff}, note)


def check_theorem_4(A: Any, C_rho: float = 1.0, *, solver: str = "linprog",
                    tol: float = 1e-7) -> TheoremVerdict:
    r"""Theorem 4 (zero-margin solution), as stated in the paper's abstract: when the
    triplets cannot all be given a positive margin by a diagonal ``R``
    (:math:`\max_{R\in\Delta}\min_r (AR)_r \le 0`), the ν-LP SVM with :math:`C_\rho \ge 1`
    has the zero-margin solution ``rho = 0`` — which the LP SVM never has (its optimum
    with ``R != 0`` always corresponds to ``rho = 1/sum R > 0``).

    ``numbers`` give the separability margin :math:`\gamma = \max_{R}\min_r (AR)_r`
    (an LP, solved here), the ν-LP ``rho`` and value, and the ν-property counts
    :math:`\#\{\xi_r > 0\} \le 1/C_\rho \le \#\{\delta_r > 0\}` (which hold whenever
    ``rho > 0``).

    ``as_printed`` is always None: the paper's printed statement of Theorem 4 is not
    available to this package (only the abstract's wording), so whether *it* holds is
    not decided here; ``holds`` is the statement above.
    """
    A = _check_A(A)
    C_rho = _check_C(C_rho, "C_rho")
    sep = _solve(nu_lp(A, max(C_rho, 1.0), rho_min=None), solver, tol)
    gamma = sep.primal_value
    r = _solve(nu_lp(A, C_rho), solver, tol)
    rho = float(r.x["rho"])
    xi = np.asarray(r.x["xi"])
    delta = np.asarray(r.x.get("delta", np.zeros(0)))
    thr = tol * _amax(A)  # margins, rho, gamma and xi all scale with A
    n_err = int(np.sum(xi > thr))
    n_sv = int(np.sum(delta > 1e-7 * C_rho))
    nums = {"gamma": gamma, "C_rho": C_rho, "rho": rho, "J_rho": r.primal_value,
            "margin_errors": n_err, "1/C_rho": 1.0 / C_rho, "support_triplets": n_sv}
    if C_rho >= 1.0 and gamma <= thr:
        ok = abs(rho) <= thr
        return TheoremVerdict(4, "non-separable and C_rho >= 1 => rho = 0", ok, None, nums,
                              "zero-margin solution: no LP SVM corresponds (Theorem 1 needs "
                              "J_rho > 0); the printed statement is not available")
    ok = True
    if rho > thr:
        ok = n_err <= 1.0 / C_rho + 1e-9 and (n_sv == 0 or n_sv >= 1.0 / C_rho - 1e-9)
    return TheoremVerdict(4, "separable or C_rho < 1: rho > 0 and the nu-property holds", ok,
                          None, nums)


def check_theorem_5(A: Any, *, factor: float = 1e-2, solver: str = "linprog",
                    tol: float = 1e-8) -> TheoremVerdict:
    r"""Theorem 5, (18): ``R = 0`` for :math:`C_M \le C_{\min}`, ``R != 0`` above it, with
    :math:`C_{\min} = 1/\max_i\sum_r a_{ir}`.

    Solved at :math:`C_{\min}(1 \mp \text{factor})`.  Below, ``R = 0`` is the unique
    optimum (any ``R != 0`` costs :math:`\sum_i R_i(1 - C_M b_i) > 0` more, ``b`` the
    column sums); above, ``R = eps e_{i*}`` improves on ``R = 0``.
    """
    A = _check_A(A)
    c0 = c_min(A)
    if not math.isfinite(c0):
        return TheoremVerdict(5, "C_min = 1/max_i sum_r a_ir", True, True, {"C_min": c0},
                              "every column sum <= 0: R = 0 for every C_M")
    lo = _solve(lp(A, c0 * (1 - factor)), solver, tol)
    hi = _solve(lp(A, c0 * (1 + factor)), solver, tol)
    M = A.shape[0]
    R_lo = float(np.abs(lo.x["R"]).max()) if lo.status.has_solution else math.nan
    R_hi = float(np.abs(hi.x["R"]).max()) if hi.status.has_solution else math.nan
    # R scales with 1/A: a weight counts as nonzero above 1e-7 / max|a_ir| (1e-7 of the
    # weight one input needs to give the largest triplet margin 1); values scale with 1/A
    r_thr = 1e-7 / _amax(A)
    at_zero = M * c0 * (1 + factor)  # the value of R = 0 above C_min
    ok = bool(lo.status.has_solution and hi.status.has_solution
              and R_lo <= r_thr and R_hi > r_thr
              and hi.primal_value < at_zero * (1 - 10 * tol)
              and _rel(lo.primal_value, M * c0 * (1 - factor)) <= 10 * tol)
    return TheoremVerdict(
        5, "R = 0 iff C_M <= C_min = 1/max_i sum_r a_ir", ok, ok,
        {"C_min": c0, "max_R_below": R_lo, "max_R_above": R_hi,
         "value_above": hi.primal_value, "M*C_M_above": M * c0 * (1 + factor)})


def check_theorem_6(A: Any, *, solver: str = "linprog", tol: float = 1e-8) -> TheoremVerdict:
    r"""Theorem 6: there is a :math:`C_0` beyond which the LP SVM solution no longer changes.

    Found exactly: the limit solution :math:`R_\infty` minimises :math:`\sum\xi` first and
    :math:`\sum R` second (two LPs); it is optimal for :math:`C_M` iff some dual-feasible
    ``alpha`` attains its value, so

    .. math:: C_0 = \min\{C : 0 \le \alpha \le C,\ A^\top\alpha \le e,\
              e^\top\alpha - C\sum\xi_\infty = \sum R_\infty\},

    one more LP in :math:`(\alpha, C)`.  Checked: :math:`R_\infty` is optimal at
    :math:`C_0`, :math:`2C_0` and :math:`100C_0` (the LP optimum equals its value) and not
    at :math:`C_0/2`.
    """
    import scipy.sparse as sp
    from scipy.optimize import linprog

    A = _check_A(A)
    M, m = A.shape
    As = sp.csr_matrix(A)
    # phase 1: min sum xi  s.t. A R + xi >= 1
    c1 = np.concatenate([np.zeros(m), np.ones(M)])
    Aub = sp.hstack([-As, -sp.identity(M)], format="csr")
    r1 = linprog(c1, A_ub=Aub, b_ub=-np.ones(M), bounds=(0, None), method="highs")
    s_inf = float(r1.fun)
    # phase 2: min sum R  s.t. the same and sum xi <= s_inf (+ round-off)
    c2 = np.concatenate([np.ones(m), np.zeros(M)])
    Aub2 = sp.vstack([Aub, sp.csr_matrix(c1[None, :])], format="csr")
    b2 = np.concatenate([-np.ones(M), [s_inf + 1e-9 * max(1.0, s_inf)]])
    r2 = linprog(c2, A_ub=Aub2, b_ub=b2, bounds=(0, None), method="highs")
    R_inf = r2.x[:m]
    xi_inf = np.maximum(1 - A @ R_inf, 0)
    t_inf, s_inf = float(R_inf.sum()), float(xi_inf.sum())
    # C_0 LP in (alpha, C): min C s.t. A'alpha <= 1, alpha <= C, e'alpha - C s_inf >= t_inf
    # (weak duality makes ">=" an equality; a relative slack of 1e-9 absorbs round-off)
    c3 = np.concatenate([np.zeros(M), [1.0]])
    A_ub = sp.vstack([
        sp.hstack([As.T, sp.csr_matrix((m, 1))]),
        sp.hstack([sp.identity(M), sp.csr_matrix(-np.ones((M, 1)))]),
        sp.csr_matrix(np.concatenate([-np.ones(M), [s_inf]])[None, :]),
    ], format="csr")
    b_ub = np.concatenate([np.ones(m), np.zeros(M), [-t_inf * (1 - 1e-9)]])
    r3 = linprog(c3, A_ub=A_ub, b_ub=b_ub, bounds=(0, None), method="highs")
    if r3.status != 0:
        return TheoremVerdict(6, "a C_0 exists", False, None, {"linprog_status": r3.status},
                              "the C_0 LP failed")
    C0 = float(r3.x[-1])
    checks = {}
    for label, C in (("C0/2", C0 / 2), ("C0", C0), ("2C0", 2 * C0), ("100C0", 100 * C0)):
        if C <= 0:
            continue
        rep = _solve(lp(A, C), solver, tol)
        f_inf = t_inf + C * s_inf
        checks[label] = (rep.primal_value, f_inf)
    ok = all(_rel(v, f) <= 100 * tol for k, (v, f) in checks.items() if k != "C0/2")
    if "C0/2" in checks:  # strictly better than the limit point, beyond solver accuracy
        v, f = checks["C0/2"]
        ok = ok and v < f - 10 * tol * abs(f)
    return TheoremVerdict(
        6, "exists C_0: LP SVM solution constant for C_M >= C_0", ok, ok,
        {"C_0": C0, "sum_R_inf": t_inf, "sum_xi_inf": s_inf, "separable": s_inf <= 1e-9,
         "value_vs_limit": checks})
