"""Equality rows that are exact combinations of the others, for :mod:`convexkern.math.conic`.

An upper bound needs a point that meets every equality row ``a_i' x = b_i`` exactly
(:func:`~convexkern.math.conic.fix.equality_fix`).  When a row is redundant, the square
system the correction inverts is singular, and no enclosure exists.  But a redundant row
``d`` with ``a_d = sum_i l_i a_i`` and ``b_d = sum_i l_i b_i`` *exactly* (in the stored
doubles: a duplicated row, a row that sums others, SDPA's repeated constraints) is met by
every point that meets the rows ``i``: the correction may drop it.

Exactness cannot be read off floating point, so it is proved: the multipliers ``l`` of a
rank-revealing QR are rounded to nearby fractions (denominators up to 10^6) and the two
identities are checked in rational arithmetic over the rows' nonzeros.  A row that is
dependent only to rounding (cvxpy's ``lp_5``: rows formed as ``R' A`` in floating point,
smallest singular value 1e-16 of 7) fails the check: the stored problem is then within
rounding of one with no feasible point (ill-posed in the sense of Renegar and of VSDP's
tests), and the bound stays open with that reason.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import scipy.linalg

from ..budget import affordable
from .data import ConicData

__all__ = ["independent_equalities"]

#: pivots of the rank-revealing QR below this fraction of the largest: a dependent row
RANK_TOL = 1e-9
#: the largest denominator tried for a multiplier
DENOMINATOR = 10**6
#: the most rational multiply-adds spent checking the identities of one form
WORK = 400_000


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


def _find(data: ConicData) -> tuple[np.ndarray, str]:
    z, n = data.zero, data.c.size
    everything = np.arange(z)
    if z < 2:
        return everything, ""
    AE = data.A[:z].tocsr()
    try:
        _, R, piv = scipy.linalg.qr(AE.T.toarray(), mode="economic", pivoting=True)
    except (ValueError, np.linalg.LinAlgError):
        return everything, ""
    diag = np.abs(np.diag(R))
    if diag.size == 0 or diag[0] == 0.0:
        return everything, ""
    rank = int(np.sum(diag > RANK_TOL * diag[0]))
    if rank == z:
        return everything, ""
    # the dependent rows' multipliers over the pivoted independent ones
    lam = scipy.linalg.solve_triangular(R[:rank, :rank], R[:rank, rank:])
    kept, dependent = piv[:rank], piv[rank:]
    proved, open_rows = [], []
    budget = [WORK]
    for k, d in enumerate(dependent):
        if _exact_combination(AE, data.b, kept, lam[:, k], int(d), budget):
            proved.append(int(d))
        else:
            open_rows.append(int(d))
    rows = np.setdiff1d(everything, np.asarray(proved, dtype=int))
    if not open_rows:
        return rows, ""
    shown = ", ".join(f"conic row {i}" for i in open_rows[:3])
    more = f" and {len(open_rows) - 3} more" if len(open_rows) > 3 else ""
    pivot = (f"relative pivot {float(diag[rank] / diag[0]):.1g}; " if rank < diag.size
             else f"more rows than the {n} columns; ")
    return rows, (f"of the {z} equality rows, {shown}{more} depend on the others only to "
                  f"rounding ({pivot}no exact combination found): the "
                  "stored problem is within rounding of one with no feasible point "
                  "(ill-posed)")


def _exact_combination(AE, b: np.ndarray, kept: np.ndarray, lam: np.ndarray, d: int,
                       budget: list[int]) -> bool:
    """Whether row ``d`` is ``sum l_i row_i`` over ``kept`` exactly, ``b`` included, for
    the multipliers ``lam`` rounded to fractions (rational arithmetic on the stored
    doubles, which are rationals)."""
    fracs = [(int(i), Fraction(float(v)).limit_denominator(DENOMINATOR))
             for i, v in zip(kept, lam)]
    fracs = [(i, f) for i, f in fracs if f != 0]
    cost = sum(AE.indptr[i + 1] - AE.indptr[i] for i, _ in fracs) + len(fracs)
    if cost > budget[0]:
        return False
    budget[0] -= cost
    acc: dict[int, Fraction] = {}
    for j, v in zip(AE.indices[AE.indptr[d]: AE.indptr[d + 1]],
                    AE.data[AE.indptr[d]: AE.indptr[d + 1]]):
        acc[int(j)] = -Fraction(float(v))
    rhs = -Fraction(float(b[d]))
    for i, f in fracs:
        lo, hi = AE.indptr[i], AE.indptr[i + 1]
        for j, v in zip(AE.indices[lo:hi], AE.data[lo:hi]):
            acc[int(j)] = acc.get(int(j), Fraction(0)) + f * Fraction(float(v))
        rhs += f * Fraction(float(b[i]))
    return rhs == 0 and all(v == 0 for v in acc.values())
