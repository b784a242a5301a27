"""The numbers of a benchmark report: success, shifted geometric means, performance profiles.

* **Success** of a pair: a finished solve (status ``optimal`` or ``optimal_inaccurate``,
  within the time limit) whose certified relative gap is at most ``tol``.  The gap is
  recomputed from the data, so it proves the point within ``tol`` of the optimum whatever
  the solver said of its own accuracy (ECOS flags itself inaccurate at gaps of 1e-10);
  a run stopped by an iteration or time limit is a failure even with a small gap.
* **Shifted geometric mean** of times (Mittelmann's benchmarks, qpbenchmark):
  ``exp(mean(log(t_i + shift))) - shift`` with ``shift = 1 s`` here (qpbenchmark uses
  10 s, for longer runs); a failed pair counts at the time limit, so failing is never
  faster than succeeding slowly.
* **Performance profile** (Dolan & Moré, Math. Program. 91, 2002): for problem ``p`` and
  solver ``s`` with time ``t[p, s]`` (``inf`` on failure), the ratio
  ``r[p, s] = t[p, s] / min_s t[p, s]`` (``inf`` when ``s`` failed, or when no solver
  succeeded on ``p``), and ``rho_s(tau) = |{p : r[p, s] <= tau}| / |P|``: the fraction of
  problems ``s`` solves within a factor ``tau`` of the best.  ``rho_s(1)`` is the fraction
  where ``s`` is fastest (ties count for every tied solver); ``rho_s(inf)`` its success rate.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from ..errors import InvalidInputError

__all__ = ["SHIFT", "FINISHED", "is_success", "disjoint_brackets", "shifted_geomean",
           "performance_ratios", "performance_profile"]

#: the shift of the geometric mean of times, in seconds
SHIFT = 1.0


#: statuses of a finished solve
FINISHED = ("optimal", "optimal_inaccurate")


def is_success(row: Mapping[str, Any], tol: float) -> bool:
    """A pair succeeded: a finished solve with certified relative gap <= ``tol``; for a
    problem expected to have no optimum (``row["expect"]``: ``"infeasible"`` or
    ``"unbounded"``), the report's status saying so (only a proven claim is reported)."""
    expect = row.get("expect") or "optimal"
    if expect != "optimal":
        return row.get("status") == expect
    gap = row.get("rel_gap")
    return (row.get("status") in FINISHED and gap is not None
            and math.isfinite(float(gap)) and float(gap) <= tol)


def shifted_geomean(times: Iterable[float], shift: float = SHIFT) -> float:
    """``exp(mean(log(t + shift))) - shift`` (NaN for no times)."""
    t = np.asarray(list(times), dtype=float)
    if t.size == 0:
        return math.nan
    if np.any(~np.isfinite(t)) or np.any(t < 0):
        raise InvalidInputError("times", "must be finite and nonnegative (count a failure at "
                                         "the time limit)")
    return float(np.exp(np.mean(np.log(t + shift))) - shift)


def performance_ratios(times: Any) -> np.ndarray:
    """``r[p, s] = t[p, s] / min_s t[p, s]`` for a (problems x solvers) array of times
    with ``inf`` for failures; a problem no solver solved gets ``inf`` everywhere."""
    t = np.asarray(times, dtype=float)
    if t.ndim != 2:
        raise InvalidInputError("times", f"expected a (problems, solvers) array, got {t.shape}")
    if np.any(np.isnan(t)) or np.any(t < 0):
        raise InvalidInputError("times", "must be nonnegative, with inf for a failure")
    best = t.min(axis=1, initial=math.inf, where=np.isfinite(t))
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.where(np.isfinite(t) & np.isfinite(best)[:, None],
                     t / np.maximum(best, 1e-300)[:, None], math.inf)
    r[np.isfinite(t) & (t == best[:, None])] = 1.0  # ties (and a zero time) are exact
    return r


def performance_profile(times: Any, taus: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """Dolan–Moré profile: ``(taus, rho)`` with ``rho[k, s]`` the fraction of problems
    solver ``s`` solves within ``taus[k]`` times the best time.

    ``taus`` defaults to the sorted finite ratios (the profile's breakpoints), starting
    at 1.
    """
    r = performance_ratios(times)
    if taus is None:
        finite = r[np.isfinite(r)]
        taus = np.unique(np.concatenate([[1.0], finite]))
    taus = np.asarray(taus, dtype=float)
    n_p = r.shape[0]
    rho = np.array([[np.count_nonzero(r[:, s] <= tau) / n_p if n_p else math.nan
                     for s in range(r.shape[1])] for tau in taus])
    return taus, rho.reshape(len(taus), r.shape[1])


def disjoint_brackets(rows: Iterable[Mapping[str, Any]],
                      rtol: float = 1e-9) -> list[tuple[str, str, str]]:
    """Problems whose certified brackets do not all overlap: ``(problem, solver_a,
    solver_b)`` with solver_a's lower bound above solver_b's upper bound by more than
    ``rtol`` relative (rounding of the two certificates).  Each bracket
    ``[min(primal, dual), max(primal, dual)]`` of a solve with a solution is a proof that
    the optimum lies inside it, so a disjoint pair means a wrong certificate."""
    by: dict[str, list[tuple[float, float, str]]] = {}
    for r in rows:
        p, d = r.get("primal_value"), r.get("dual_value")
        if p is None or d is None or not (math.isfinite(p) and math.isfinite(d)):
            continue
        by.setdefault(r["problem"], []).append((min(p, d), max(p, d), r["solver"]))
    bad = []
    for problem, b in by.items():
        lo = max(b, key=lambda t: t[0])
        hi = min(b, key=lambda t: t[1])
        if lo[0] - hi[1] > rtol * max(1.0, abs(lo[0]), abs(hi[1])):
            bad.append((problem, lo[2], hi[2]))
    return bad
