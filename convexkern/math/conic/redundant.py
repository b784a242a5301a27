"""Equality rows that are exact combinations of the others, for :mod:`convexkern.math.conic`.

An upper bound needs a point that meets every equality row ``a_i' x = b_i`` exactly
(:func:`~convexkern.math.conic.fix.equality_fix`).  When a row is redundant, the square
system the correction inverts is singular, and no enclosure exists.  But a redundant row
``d`` with ``a_d = sum_i l_i a_i`` and ``b_d = sum_i l_i b_i`` *exactly* (in the stored
doubles: a duplicated row, a row that sums others, SDPA's repeated constraints) is met by
every point that meets the rows ``i``: the correction may drop it.

Exactness cannot be read off floating point, so it is proved: the multipliers ``l`` of a
rank-revealing QR are rounded to nearby fractions (denominators up to 10^6) and the two
identities are checked in exact arithmetic (integers) over the rows' nonzeros.  A row that is
dependent only to rounding (cvxpy's ``lp_5``: rows formed as ``R' A`` in floating point,
smallest singular value 1e-16 of 7) fails the check: the stored problem is then within
rounding of one with no feasible point (ill-posed in the sense of Renegar and of VSDP's
tests), and the bound stays open with that reason.

The same proof serves the lower bound (:func:`exact_dependence`): a free column whose
dual row ``(c_j, A'_j, P_j)`` is an exact combination of other free columns' rows has a
zero residual once theirs is, so the exact dual correction leaves it out.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import scipy.linalg
import scipy.sparse as sp

from ..budget import affordable
from .data import ConicData

__all__ = ["exact_dependence", "exact_followers", "follow_exactly", "ill_posed",
           "independent_equalities"]

#: pivots of the rank-revealing QR below this fraction of the largest: a dependent row
RANK_TOL = 1e-9
#: the largest denominator tried for a multiplier
DENOMINATOR = 10**6
#: the most rational multiply-adds spent checking the identities of one form
WORK = 400_000
#: the most rows a dependent row is solved for exactly (:func:`_consistent`)
SUPPORT = 8


def independent_equalities(data: ConicData) -> tuple[np.ndarray, str]:
    """The equality rows an exact correction must meet, and why some cannot be dropped.

    Returns ``(rows, reason)``: ``rows`` excludes each row proved an exact combination of
    the kept ones (their equalities then hold at any point meeting ``rows``); ``reason``
    is ``""`` when every numerically dependent row was proved redundant (or the rows were
    not searched: too many for the deadline), else it says which rows are dependent only
    to rounding.  Computed once per form (it depends on the
    data only) and only when the correction has met a singular basis."""
    cached = data.cache.get("independent")
    if cached is not None:
        return cached
    z, n = data.zero, data.c.size
    if z > 2000 or not affordable(4.0 * z * z * n):
        return np.arange(z), ""  # not searched (not kept: a later call may have the time)
    cached = data.cache["independent"] = _find(data)
    return cached


def ill_posed(data: ConicData) -> str:
    """Why no point of this form is corrected onto its equality rows (``""``: none
    known): the equality correction found the rows it must meet rank deficient (their
    numerical rank, whatever the point's basis of columns), and
    :func:`independent_equalities` proved no exact combination for the dependent ones,
    whose right-hand side is not 0.  Both depend on the data alone, so a phase one or a
    more accurate point of the same form meets the same singular rows; only a point
    meeting the rows exactly in floating point needs no correction, which a nonzero
    right-hand side makes a matter of chance (with a zero one, ``y = 0`` meets them: not
    flagged).  Set by :func:`~convexkern.math.conic.fix.equality_fix` (the active-row
    correction's own reading of the rows, unscaled, is not enough: a row of integers
    scaled by 1e-16 reads as dependent there and is corrected onto by the equality
    correction)."""
    return data.cache.get("ill_posed", "")


def _find(data: ConicData) -> tuple[np.ndarray, str]:
    z, n = data.zero, data.c.size
    everything = np.arange(z)
    if z < 2:
        return everything, ""
    kept, open_rows, pivot = exact_dependence(data.A[:z].tocsr(), data.b[:z])
    rows = np.union1d(kept, open_rows)
    if not open_rows.size:
        return rows, ""
    shown = ", ".join(f"conic row {i}" for i in open_rows[:3])
    more = f" and {len(open_rows) - 3} more" if len(open_rows) > 3 else ""
    pivot_text = (f"relative pivot {pivot:.1g}; " if math.isfinite(pivot)
                  else f"more rows than the {n} columns; ")
    head = (f"of the {z} equality rows, {shown}{more} depend on the others only to "
            f"rounding ({pivot_text}no exact combination found)")
    if not np.any(data.b[open_rows]):
        # E y = 0 with a row fl(0.1 e1 + 0.7 e2): y = 0 meets it, a point whose columns
        # sit there needs no correction (a review's reproducer, certified after a
        # re-solve): nothing is claimed of the problem
        return rows, (f"{head}, with right-hand side 0: no correction meets them, only a "
                      "point that meets them exactly has an upper bound")
    data.cache["ill_posed_rows"] = open_rows
    return rows, (f"{head}: the stored problem is within rounding of one with no feasible "
                  "point (ill-posed)")


def exact_dependence(M: sp.csr_matrix, rhs: np.ndarray, cols: np.ndarray | None = None,
                     budget: list[int] | None = None) -> tuple[np.ndarray, np.ndarray, float]:
    """The rows of ``[M rhs]`` (over the columns ``cols`` of ``M`` only, when given) split
    into an independent set and the numerically dependent rest, each dependent row
    proved an exact combination of the independent ones or not.

    Returns ``(kept, unproved, pivot)``: ``kept`` are the independent rows (a pivoted QR,
    pivots below :data:`RANK_TOL` of the largest counting as zero), ``unproved`` the
    dependent rows no exact combination was found for (the proved ones are in neither),
    ``pivot`` the first dependent pivot relative to the largest (``inf`` when there are
    more rows than columns).  A proved row ``d`` has ``M_d = sum l_i M_i`` and ``rhs_d =
    sum l_i rhs_i`` exactly over ``kept`` (in rational arithmetic on the stored doubles):
    any ``v`` with ``M_i v = rhs_i`` on ``kept`` meets it.  ``budget`` (a one-element
    list, spent in place) caps the rational work, :data:`WORK` when not given."""
    k = M.shape[0]
    everything = np.arange(k)
    none = np.zeros(0, dtype=int)
    Ms = M if cols is None else M[:, cols]
    if k < 2:
        return everything, none, math.inf
    try:
        _, R, piv = scipy.linalg.qr(Ms.T.toarray(), mode="economic", pivoting=True)
    except (ValueError, np.linalg.LinAlgError):
        return everything, none, math.inf
    diag = np.abs(np.diag(R))
    if diag.size == 0 or diag[0] == 0.0:
        return everything, none, math.inf
    rank = int(np.sum(diag > RANK_TOL * diag[0]))
    if rank == k:
        return everything, none, math.inf
    # the dependent rows' multipliers over the pivoted independent ones
    lam = scipy.linalg.solve_triangular(R[:rank, :rank], R[:rank, rank:])
    kept, dependent = piv[:rank], piv[rank:]
    Mr = sp.csr_matrix(Ms)
    budget = [WORK] if budget is None else budget
    unproved = [int(d) for j, d in enumerate(dependent)
                if not _exact_combination(Mr, rhs, kept, lam[:, j], int(d), budget)]
    pivot = float(diag[rank] / diag[0]) if rank < diag.size else math.inf
    return np.sort(kept), np.asarray(unproved, dtype=int), pivot


def follow_exactly(data: ConicData, x: np.ndarray, move: np.ndarray, met: np.ndarray
                   ) -> np.ndarray:
    """The rows a point near ``x`` misses (``move > 0``), all of them proved exact
    combinations (:func:`exact_followers`) of the equality rows and the rows ``met``,
    which that point meets exactly: it meets these exactly too.  Empty unless every
    missed row is an inequality row missed only to rounding (within :data:`ROUNDING` of
    ``1 + |b_i| + |a_i| |x|``) and every one is proved (the caller passes the misses no
    multiplier bound can pay for: a bound needs them all).

    At a degenerate vertex the exact correction of the active rows
    (:func:`~convexkern.math.conic.fix.active_fix`) meets an independent subset of them;
    the others, and rows the solver's point left a little slack, are missed by rounding
    (Netlib BOEING2: 5e-27) while their multipliers have no finite bound.  A larger miss
    is a row the point does not meet (OSQP's answers: 1e-2 and more)."""
    none = np.zeros(0, dtype=int)
    z, nn = data.zero, data.nonneg
    rows = np.flatnonzero(move > 0)
    if rows.size == 0 or rows.size > FOLLOW_ROWS or np.any((rows < z) | (rows >= z + nn)):
        return none
    Ar = data.A[rows]
    scale = 1.0 + np.abs(data.b[rows]) + abs(Ar) @ np.abs(x)
    if np.any(move[rows] > ROUNDING * scale):
        return none
    return exact_followers(data, np.concatenate([np.arange(z), met]), rows, every=True)


#: the largest miss, relative to its row's scale, :func:`follow_exactly` reads as rounding
ROUNDING = 1e-9
#: the most missed rows :func:`follow_exactly` tries
FOLLOW_ROWS = 200


def exact_followers(data: ConicData, base: np.ndarray, rows: np.ndarray,
                    every: bool = False) -> np.ndarray:
    """The rows of ``rows`` proved exact combinations of the rows ``base`` (``b``
    included: :func:`_exact_combination` on least-squares multipliers, rounded to
    fractions): a point that meets every row of ``base`` exactly meets these exactly.
    ``every``: none unless all are (the proofs stop at the first failure).  The answer
    depends on the rows alone, not on any point: kept per form, by the two row sets (a
    certificate's step search asks again for the same ones)."""
    n = data.c.size
    if rows.size == 0 or base.size == 0 or base.size > 2000 or not affordable(
            2.0 * n * base.size * (base.size + rows.size)):
        return np.zeros(0, dtype=int)  # (not kept: there may be time on a later call)
    memo = data.cache.setdefault("exact_followers", {})
    key = (base.tobytes(), rows.tobytes(), every)
    if key not in memo:
        memo[key] = _followers(data, base, rows, every)
    return memo[key]


def _followers(data: ConicData, base: np.ndarray, rows: np.ndarray, every: bool
               ) -> np.ndarray:
    """:func:`exact_followers`, computed."""
    none = np.zeros(0, dtype=int)
    AB, AR = data.A[base], data.A[rows]
    try:
        lam = scipy.linalg.lstsq(AB.toarray().T, AR.toarray().T, lapack_driver="gelsy")[0]
    except (ValueError, np.linalg.LinAlgError):
        return none
    AE = sp.vstack([AB, AR], format="csr")
    bE = np.concatenate([data.b[base], data.b[rows]])
    budget = data.cache.setdefault("follow_work", [WORK])
    kept = np.arange(base.size)
    ok = np.zeros(rows.size, dtype=bool)
    for j in range(rows.size):
        ok[j] = _exact_combination(AE, bE, kept, lam[:, j], base.size + j, budget)
        if every and not ok[j]:
            return none
    return rows[ok]


def _exact_combination(AE, b: np.ndarray, kept: np.ndarray, lam: np.ndarray, d: int,
                       budget: list[int]) -> bool:
    """Whether row ``d`` is ``sum l_i row_i`` over ``kept`` exactly, ``b`` included, for
    the multipliers ``lam`` rounded to fractions (exact arithmetic on the stored doubles,
    which are rationals).

    Done in integers: with ``Q`` the multipliers' common denominator and ``2^-E`` the
    smallest power of two among the doubles involved, the identity times ``Q 2^E`` is
    one between integers (each double ``m 2^e`` is ``m << (e + E)``), checked with no
    fraction normalised per operation."""
    # a multiplier below 1/(2 DENOMINATOR) rounds to the fraction 0: not converted
    big = np.flatnonzero(np.abs(lam) >= 0.49 / DENOMINATOR)
    fracs = [(int(kept[k]), Fraction(float(lam[k])).limit_denominator(DENOMINATOR))
             for k in big.tolist()]
    fracs = [(i, f) for i, f in fracs if f != 0]
    cost = sum(AE.indptr[i + 1] - AE.indptr[i] for i, _ in fracs) + len(fracs)
    if cost > budget[0]:
        return False
    budget[0] -= cost
    Q = math.lcm(*(f.denominator for _, f in fracs)) if fracs else 1
    # every row involved, row d first with multiplier -Q: the sum must vanish
    rows = [d] + [i for i, _ in fracs]
    coef = [-Q] + [f.numerator * (Q // f.denominator) for _, f in fracs]
    spans = [(AE.indptr[i], AE.indptr[i + 1]) for i in rows]
    vals = np.concatenate([AE.data[lo:hi] for lo, hi in spans] + [b[rows]]).astype(float)
    if not np.all(np.isfinite(vals)):
        return False  # no exact identity holds between rows holding inf or NaN
    mant, expo = np.frexp(vals)  # v = mant 2^expo, 1/2 <= |mant| < 1 (0: mant 0)
    ints = (mant * 2.0**53).astype(np.int64)  # exact: 53-bit integers
    shift = expo - 53
    nz = ints != 0
    low = int(np.min(shift[nz])) if nz.any() else 0
    scaled = [0 if v == 0 else v << (t - low) if v > 0 else -((-v) << (t - low))
              for v, t in zip(ints.tolist(), shift.tolist(), strict=True)]
    acc: dict[int, int] = {}
    at = 0
    for c, (lo, hi) in zip(coef, spans, strict=True):
        for j, v in zip(AE.indices[lo:hi].tolist(), scaled[at: at + hi - lo], strict=True):
            acc[j] = acc.get(j, 0) + c * v
        at += hi - lo
    rhs = sum(c * v for c, v in zip(coef, scaled[at:], strict=True))
    if rhs == 0 and not any(acc.values()):
        return True
    support = [int(i) for i, v in zip(kept, lam) if abs(v) > 1e-12 * float(np.max(np.abs(lam)))]
    return _consistent(AE, b, support, d, budget)


def _consistent(AE, b: np.ndarray, support: list[int], d: int, budget: list[int]) -> bool:
    """Whether row ``d`` (``b`` included) is *some* exact combination of the rows
    ``support``: the system ``sum_i l_i (row_i, b_i) = (row_d, b_d)`` solved by Gaussian
    elimination in rational arithmetic.  Needed where the multipliers are not fractions
    with small denominators but the stored doubles themselves (a column ``0.12 a + 0.38 b``
    of decimal data: its 0.12 is the double nearest 3/25, not 3/25)."""
    k = len(support)
    if not 0 < k <= SUPPORT:
        return False
    cols = sorted({int(j) for i in [*support, d]
                   for j in AE.indices[AE.indptr[i]: AE.indptr[i + 1]]})
    cost = 20 * k * k * (len(cols) + 1)  # a rational operation on doubles' fractions
    if cost > budget[0]:
        return False
    budget[0] -= cost
    where = {j: t for t, j in enumerate(cols)}
    # one equation per column (and one for b); the unknowns are l_1..l_k, then the rhs
    eqs = [[Fraction(0)] * (k + 1) for _ in range(len(cols) + 1)]
    for t, i in enumerate([*support, d]):
        slot = min(t, k)
        for j, v in zip(AE.indices[AE.indptr[i]: AE.indptr[i + 1]],
                        AE.data[AE.indptr[i]: AE.indptr[i + 1]]):
            eqs[where[int(j)]][slot] += Fraction(float(v))  # a duplicate entry adds
        eqs[-1][slot] = Fraction(float(b[i]))
    row = 0
    for col in range(k):
        pivot = next((e for e in range(row, len(eqs)) if eqs[e][col] != 0), None)
        if pivot is None:
            continue
        eqs[row], eqs[pivot] = eqs[pivot], eqs[row]
        p = eqs[row]
        for e in range(len(eqs)):
            if e != row and eqs[e][col] != 0:
                f = eqs[e][col] / p[col]
                eqs[e] = [a - f * c for a, c in zip(eqs[e], p)]
        row += 1
    return all(e[k] == 0 for e in eqs[row:])
