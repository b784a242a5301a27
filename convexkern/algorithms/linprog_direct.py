r"""Direct sparse HiGHS path for the LPs of :mod:`convexkern.formulations.lp_svm`.

The four LPs of Abe (ICANN 2012) are written once in the standard form of
:func:`scipy.optimize.linprog` (``min c'x  s.t.  A_ub x <= b_ub, A_eq x = b_eq, lo <= x <= hi``)
with sparse constraint matrices, and handed to HiGHS (``method="highs"``) without cvxpy's
compilation.  The constraint marginals HiGHS returns are the dual variables the
certificates need (``delta`` for the ν-LP SVM, ``alpha`` for the LP SVM, ``R`` for the
two duals).

Notation: ``A`` is (M triplets, m inputs), row ``r`` = :math:`(a_{1r},\dots,a_{mr})`.

========================  ===============================================  ==================
kind                      variables ``x``                                  marginals give
========================  ===============================================  ==================
``lp_svm.nu_lp``          ``[R (m), xi (M), rho]``; ``min -rho + C e'xi``  ``delta`` (M)
``lp_svm.nu_lp_dual``     ``[delta (M), z]``; ``min z (+ eps (1 - e'delta))``  ``R`` (m)
``lp_svm.lp``             ``[R (m), xi (M)]``; ``min e'R + C e'xi``         ``alpha`` (M)
``lp_svm.lp_dual``        ``alpha (M)``; ``min -e'alpha``                   ``R`` (m)
========================  ===============================================  ==================
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

__all__ = ["StandardLP", "standard_form", "solve_standard", "LinprogResult", "choose"]

#: Above this many nonzeros in ``A`` the ``"auto"`` strategy uses the interior-point
#: method on the form with fewer rows (on USPS, 7291 x 256, C_M = 10: IPM on the 256-row
#: dual took 3.0 s where ``method="highs"`` on the 7291-row primal took 10.4 s; quiet
#: 2-core machine, docs/lp_svm.md).
AUTO_NNZ = 200_000

_PARTNER = {"lp_svm.lp": "lp_svm.lp_dual", "lp_svm.lp_dual": "lp_svm.lp",
            "lp_svm.nu_lp": "lp_svm.nu_lp_dual", "lp_svm.nu_lp_dual": "lp_svm.nu_lp"}
_ROWS_M = {"lp_svm.lp", "lp_svm.nu_lp"}  # forms whose constraint rows are the M triplets


def choose(kind: str, shape: tuple[int, int], method: str = "auto",
           form: str = "auto") -> tuple[str, str]:
    """The (kind to solve, linprog method) for a request.

    ``form``: ``"given"`` solves ``kind`` itself, ``"partner"`` its LP dual (the answer is
    then read off the marginals), ``"auto"`` the one with fewer rows when the problem is
    large (``M * m >= AUTO_NNZ``).  ``method``: a linprog HiGHS method, or ``"auto"``
    (``"highs-ipm"`` when large, else ``"highs"``).
    """
    M, m = shape
    large = M * m >= AUTO_NNZ
    if form == "given" or (form == "auto" and not large):
        target = kind
    elif form in ("partner", "auto"):
        few = "lp_svm.lp_dual" if kind.startswith("lp_svm.lp") else "lp_svm.nu_lp_dual"
        target = (_PARTNER[kind] if form == "partner"
                  else (few if m <= M else _PARTNER[few]))
    else:
        raise ValueError(f"form must be 'auto', 'given' or 'partner', got {form!r}")
    if method == "auto":
        method = "highs-ipm" if large else "highs"
    return target, method


@dataclass
class StandardLP:
    """An LP in :func:`scipy.optimize.linprog` form (sparse matrices)."""

    c: np.ndarray
    A_ub: Any
    b_ub: np.ndarray
    A_eq: Any
    b_eq: np.ndarray | None
    bounds: list[tuple[float | None, float | None]] | np.ndarray
    sign: float  # +1: linprog's value is the formulation's objective; -1: its negative
    offset: float = 0.0  # constant added to sign * fun


@dataclass
class LinprogResult:
    """What :func:`solve_standard` returns: linprog's raw answer, timed."""

    status: int
    message: str
    x: np.ndarray | None
    fun: float | None
    ineq_marginals: np.ndarray | None
    eq_marginals: np.ndarray | None
    iterations: int | None
    solve_time: float
    raw: Any = field(default=None, repr=False)


def standard_form(kind: str, A: np.ndarray, C: float, rho_min: float | None = 0.0) -> StandardLP:
    """Build the linprog standard form of one of the four LPs.

    Parameters
    ----------
    kind : {"lp_svm.nu_lp", "lp_svm.nu_lp_dual", "lp_svm.lp", "lp_svm.lp_dual"}
    A : (M, m) array
    C : float
        ``C_rho`` for the ν-LP pair, ``C_M`` for the LP SVM pair.
    rho_min : float or None
        The ν-LP margin bound (see :func:`convexkern.formulations.lp_svm.nu_lp`).
    """
    M, m = A.shape
    As = sp.csr_matrix(A)
    IM = sp.identity(M, format="csr")
    if kind == "lp_svm.nu_lp":
        # x = [R, xi, rho];  -A R - xi + rho <= 0;  e'R = 1
        c = np.concatenate([np.zeros(m), np.full(M, C), [-1.0]])
        A_ub = sp.hstack([-As, -IM, sp.csr_matrix(np.ones((M, 1)))], format="csr")
        A_eq = sp.csr_matrix(np.concatenate([np.ones(m), np.zeros(M + 1)])[None, :])
        bounds = [(0.0, None)] * (m + M) + [(rho_min, None)]
        return StandardLP(c, A_ub, np.zeros(M), A_eq, np.ones(1), bounds, sign=-1.0)
    if kind == "lp_svm.nu_lp_dual":
        # x = [delta, z];  A'delta - z <= 0;  e'delta >= 1 (or = 1 when rho is free)
        eps = 0.0 if rho_min is None else float(rho_min)
        c = np.concatenate([np.full(M, -eps), [1.0]])
        top = sp.hstack([As.T, sp.csr_matrix(-np.ones((m, 1)))], format="csr")
        sum_row = sp.csr_matrix(np.concatenate([np.ones(M), [0.0]])[None, :])
        bounds = [(0.0, C)] * M + [(None, None)]
        if rho_min is None:
            return StandardLP(c, top, np.zeros(m), sum_row, np.ones(1), bounds, sign=1.0)
        A_ub = sp.vstack([top, -sum_row], format="csr")
        b_ub = np.concatenate([np.zeros(m), [-1.0]])
        return StandardLP(c, A_ub, b_ub, None, None, bounds, sign=1.0, offset=eps)
    if kind == "lp_svm.lp":
        # x = [R, xi];  -A R - xi <= -1
        c = np.concatenate([np.ones(m), np.full(M, C)])
        A_ub = sp.hstack([-As, -IM], format="csr")
        return StandardLP(c, A_ub, -np.ones(M), None, None, [(0.0, None)] * (m + M), sign=1.0)
    if kind == "lp_svm.lp_dual":
        # x = alpha;  A'alpha <= 1;  0 <= alpha <= C
        return StandardLP(-np.ones(M), sp.csr_matrix(As.T), np.ones(m), None, None,
                          [(0.0, C)] * M, sign=-1.0)
    raise ValueError(f"unknown LP kind {kind!r}")


def solve_standard(
    lp: StandardLP,
    *,
    tol: float = 1e-9,
    time_limit: float | None = None,
    max_iter: int | None = None,
    presolve: bool = True,
    verbose: bool = False,
    method: str = "highs",
) -> LinprogResult:
    """Solve ``lp`` with ``linprog(method=method)`` (a HiGHS method) and time the call.

    ``tol`` becomes HiGHS's primal and dual feasibility tolerances (clamped to
    ``[1e-10, 1e-5]``); the optimality of the answer is then certified by the caller.
    """
    options: dict[str, Any] = {
        "presolve": presolve,
        "disp": verbose,
        "primal_feasibility_tolerance": float(min(max(tol, 1e-10), 1e-5)),
        "dual_feasibility_tolerance": float(min(max(tol, 1e-10), 1e-5)),
    }
    if time_limit is not None:
        options["time_limit"] = float(time_limit)
    if max_iter is not None:
        options["maxiter"] = int(max_iter)
    t0 = time.perf_counter()
    res = linprog(lp.c, A_ub=lp.A_ub, b_ub=lp.b_ub, A_eq=lp.A_eq, b_eq=lp.b_eq,
                  bounds=lp.bounds, method=method, options=options)
    elapsed = time.perf_counter() - t0
    ineq = getattr(res, "ineqlin", None)
    eq = getattr(res, "eqlin", None)
    return LinprogResult(
        status=int(res.status),
        message=str(res.message),
        x=None if res.x is None else np.asarray(res.x, float),
        fun=None if res.fun is None else float(res.fun),
        ineq_marginals=None if ineq is None or ineq.marginals is None
        else np.asarray(ineq.marginals, float),
        eq_marginals=None if eq is None or eq.marginals is None
        else np.asarray(eq.marginals, float),
        iterations=int(getattr(res, "nit", 0) or 0),
        solve_time=elapsed,
        raw=res,
    )
