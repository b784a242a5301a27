r"""Direct sparse HiGHS path for the LPs of :mod:`convexkern.formulations.lp_svm`.

The four LPs of Abe (ICANN 2012) are written once in the standard form of
:func:`scipy.optimize.linprog` (``min c'x  s.t.  A_ub x <= b_ub, A_eq x = b_eq, lo <= x <= hi``)
with sparse constraint matrices, and handed to HiGHS (``method="highs"``) without cvxpy's
compilation.  The constraint marginals HiGHS returns are the dual variables the
certificates need (``delta`` for the ν-LP SVM, ``alpha`` for the LP SVM, ``R`` for the
two duals).  :func:`solve_formulation` is the adapter the solver table's ``"linprog"``
entry points to: it reads ``A`` and the parameter off the Formulation, solves, and hands
the point and the marginals to the formulation's certificate.

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
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from .._validation import check_choice
from ..errors import InvalidInputError
from ..formulation import Formulation
from ..report import SolveReport, Status
from ..solvers.outcome import certified_report, pointless_report
from ..solvers.status import algorithm_status

__all__ = ["StandardLP", "standard_form", "solve_standard", "LinprogResult", "choose",
           "solve_formulation"]

#: Above this many nonzeros in ``A`` the ``"auto"`` strategy uses the interior-point
#: method on the form with fewer rows (on USPS, 7291 x 256, C_M = 10: IPM on the 256-row
#: dual took 3.0 s where ``method="highs"`` on the 7291-row primal took 10.4 s; quiet
#: 2-core machine, docs/lp_svm.md).
AUTO_NNZ = 200_000

#: The ``method`` values :func:`choose` takes: scipy's HiGHS methods, or ``"auto"``.
METHODS = ("auto", "highs", "highs-ds", "highs-ipm")
FORMS = ("auto", "given", "partner")

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
    check_choice(form, "form", FORMS)
    check_choice(method, "method", METHODS)
    M, m = shape
    large = M * m >= AUTO_NNZ
    if form == "given" or (form == "auto" and not large):
        target = kind
    else:  # "partner" or "auto" on a large problem
        few = "lp_svm.lp_dual" if kind.startswith("lp_svm.lp") else "lp_svm.nu_lp_dual"
        target = (_PARTNER[kind] if form == "partner"
                  else (few if m <= M else _PARTNER[few]))
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
        # HiGHS stops 5-10 ms past its own limit (a review: 1.01-1.10 T at T = 0.05)
        options["time_limit"] = max(float(time_limit) - min(0.01, 0.2 * float(time_limit)),
                                    1e-6)
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


# ================================================================== the adapter
def _with_hint(f: Formulation, status: Status, message: str) -> str:
    hint = f.hints.get(status.value)
    return f"{message}: {hint}" if hint else message


#: scipy.optimize.linprog's status codes, in the words of the built-in algorithms
_LINPROG_WORD = {0: "optimal", 1: "iteration_limit", 2: "infeasible", 3: "unbounded",
                 4: "error"}


def _param_of(f: Formulation) -> float:
    key = "C_rho" if "C_rho" in f.parameters else "C_M"
    return float(f.parameters[key].value)


def solve_formulation(
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

    The adapter of the solver table's ``"linprog"`` entry.  ``method`` (a linprog HiGHS
    method or ``"auto"``) and ``form`` (``"given"``, ``"partner"`` = solve the LP dual and
    read this problem's solution off the marginals, or ``"auto"``) are chosen by
    :func:`choose`: small problems run HiGHS's default on the given form; large ones run the
    interior-point method on the form with fewer rows.  linprog statuses map to: 0 optimal, 1
    iteration limit (time limit when its message says so), 2 infeasible, 3 unbounded, 4
    numerical trouble (error).  When the partner form is solved, its infeasibility is this
    problem's unboundedness and vice versa (the LPs are a primal-dual pair, and both are
    feasible or exactly one is, as Theorem 2 shows).  The point and the marginals are
    certified like any conic answer.  Any other keyword is refused (it used to be ignored).
    """
    if options:
        raise InvalidInputError("options", f"linprog does not take {sorted(options)}")
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
        if status in (Status.OPTIMAL, Status.OPTIMAL_INACCURATE):  # "solved", no point
            status = Status.ERROR
        return pointless_report(
            f, status=status, solver="linprog", solve_time=res.solve_time,
            iterations=res.iterations, tol=tol, solver_stats=stats,
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
        return pointless_report(
            f, status=Status.ERROR, solver="linprog", solve_time=res.solve_time,
            iterations=res.iterations, tol=tol, solver_stats=stats,
            message=f"HiGHS returned no marginals for the {target} form",
        )
    point = got
    return certified_report(
        f, point, solver="linprog", status=status, tol=tol, solve_time=res.solve_time,
        iterations=res.iterations, solver_stats=stats,
    )

