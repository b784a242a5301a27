"""What the solver table runs on a Kreĭn stabilization formulation
(:func:`convexkern.formulations.krein.stabilization`): ``trik`` and ``trik-krein`` (the
active set of :func:`convexkern.algorithms.trik.trik`, certified by the formulation's
certificate) and ``smo`` (delegated to the SMO of the SVM dual on ``K~``).

Everything is read from the formulation handed in: ``f.data`` (``decomposition``, ``y``,
``hard``), ``f.param("C")``; the Kreĭn coefficients of the flip decomposition come from
:mod:`convexkern.math.krein`.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from ...errors import InvalidInputError
from ...formulation import Formulation, stored_problem
from ...math.krein import Decomposition, full_coefficients
from ...report import SolveReport, Status
from ...solvers.outcome import certified_report, pointless_report
from ...solvers.status import algorithm_status
from .._progress import blas_threads
from .result import TrIKResult
from .solver import trik

__all__ = ["run_trik", "solve_smo_krein", "solve_trik", "solve_trik_krein"]


def solve_smo_krein(f: Formulation, **kw: Any) -> SolveReport:
    """SMO on K~ through the svm.dual glue (the formulation is the svm dual on K~; the
    hard margin too, as the svm dual's SMO solves it)."""
    from ...solvers import solve

    # the problem as stored: a builder not yet called stays one (SMO never reads it;
    # replace() reading f.problem would build it)
    as_svm = dataclasses.replace(f, kind="svm.dual", problem=stored_problem(f))
    options = {k: v for k, v in kw.items() if k not in ("tol", "max_iter", "time_limit",
                                                        "verbose", "x0")}
    return solve(as_svm, "smo", tol=kw.get("tol"), max_iter=kw.get("max_iter"),
                 time_limit=kw.get("time_limit"), verbose=kw.get("verbose", False),
                 x0=kw.get("x0"), **options)


def _eps_from_tol(tol: float) -> float:
    """Margin-violation tolerance of the active set for a target relative gap ``tol``.

    At a feasible ``alpha~`` whose margins violate by at most ``eps`` (free points exact),
    the SVM duality gap is at most ``sum_i C max(0, violation_i) <= (#violators) C eps``,
    so ``eps = 1e-3 tol`` meets ``tol`` unless more than about ``1000 |objective| / C``
    points violate by the full ``eps``; the certified gap of the report decides the status
    either way.  Clipped to ``[1e-12, 1e-4]`` (``tol = 1e-6``, the default, gives the
    ``1e-9`` used before ``tol`` was mapped).
    """
    return float(min(max(1e-3 * tol, 1e-12), 1e-4))


def run_trik(f: Formulation, optimality: str, *, tol: float, max_iter: int | None,
             time_limit: float | None, verbose: bool = False, eps: float | None = None,
             block: int | None = None, x0: Any = None, **options: Any
             ) -> tuple[TrIKResult | None, SolveReport]:
    """Run :func:`trik` on a stabilization formulation and certify the result.

    ``tol`` (target relative certified gap) sets the margin tolerance ``eps`` of the
    optimality check (:func:`_eps_from_tol`) unless ``eps`` is given explicitly;
    ``blas_threads`` (default 1, ``None``: the process's pool) goes to :func:`trik`.  A
    start ``x0`` is not used (the active set starts from its own working set).
    """
    del x0
    if unknown := sorted(options.keys() - {"blas_threads"}):
        raise InvalidInputError("options", f"unknown options {unknown} for TrIK (it takes "
                                           "eps, block and blas_threads)")
    threads = blas_threads(options)
    dec: Decomposition = f.data["decomposition"]
    C = None if f.data["hard"] else f.param("C")
    eps_v = _eps_from_tol(tol) if eps is None else float(eps)
    if dec.kind == "shift":
        res = trik(dec.K, f.data["y"], C, dec.lam, optimality=optimality, eps=eps_v,
                   max_iter=max_iter, time_limit=time_limit, block=block, check_lam=False,
                   verbose=verbose, blas_threads=threads)
        alpha_k = res.alpha
    else:
        if optimality == "krein":
            return None, pointless_report(
                f, status=Status.ERROR, solver="trik-krein", tol=tol,
                message="trik-krein checks optimality through the shift transition (eq. 6); "
                        "use 'trik' (Hilbert optimality) or 'smo' for the flip decomposition")
        # flip: the active set on K~ = U|D|U' with no shift (lam = 0)
        res = trik(dec.K_tilde, f.data["y"], C, 0.0, optimality="hilbert", eps=eps_v,
                   max_iter=max_iter, time_limit=time_limit, block=block, check_lam=False,
                   verbose=verbose, blas_threads=threads)
        alpha_k = full_coefficients(dec, f.data["y"], res.alpha_tilde)
    status = algorithm_status(res.status)
    name = "trik" if optimality == "hilbert" else "trik-krein"
    history = [(h[0], h[1], h[4], math.nan) for h in res.history]
    notes: list[str] = []
    if res.status == "stalled":
        notes.append(f"stalled: the remaining Kreĭn-space violators (up to "
                     f"{res.max_violation:.3g}) are all rejected by the Hilbert QP")
    if res.status == "krein_stationary":
        notes.append("stopped where the Kreĭn-space optimality check holds (the paper's "
                     "Algorithm 1), not at the Hilbert QP optimum")
    if res.status == "inaccurate":
        notes.append(f"the returned point fails the final check (Hilbert KKT violation "
                     f"{res.hilbert_violation:.3g} vs {res.kkt_tol:.3g}, |y'alpha~| = "
                     f"{res.equality_residual:.3g})")
    if optimality == "krein" and res.hilbert_violation > res.kkt_tol:
        notes.append(f"KKT violation of the Hilbert QP {res.hilbert_violation:.3g}")
    if res.singular_pivots:
        what = ("K~ = U|D|U' (flip; rank "
                f"{int(np.sum(np.abs(dec.eigvals) > 1e-12 * np.abs(dec.eigvals).max()))} of "
                f"{dec.K.shape[0]})" if dec.kind == "flip" else
                f"K~ = K - 2 lam I (lam = {dec.lam:.3g})")
        notes.append(f"{what} was numerically singular on the working set {res.singular_pivots}"
                     f" time(s): {res.dense_solves} dense bordered KKT solves; SMO or a conic "
                     "solver handles a singular K~ more robustly")
    if res.singular_fallbacks:
        notes.append(f"K_WW numerically singular: {res.singular_fallbacks} Kreĭn coefficient "
                     "solve(s) by least squares (minimum norm)")
    if res.refactorizations:
        notes.append(f"{res.refactorizations} refactorization(s) of K_WW^-1")
    report = certified_report(
        f, {"alpha": res.alpha_tilde, "alpha_krein": alpha_k, "b_krein": np.asarray(res.b)},
        solver=name, status=status, tol=tol, solve_time=res.solve_time,
        iterations=res.iterations, history=history, message="; ".join(notes),
        solver_stats={"n_free": int(res.free.size), "n_bounded": int(res.bounded.size),
                      "n_added": res.n_added, "n_removed": res.n_removed,
                      "trik_status": res.status, "eps": eps_v,
                      "max_violation": res.max_violation,
                      "hilbert_violation": res.hilbert_violation, "kkt_tol": res.kkt_tol,
                      "equality_residual": res.equality_residual,
                      "singular_fallbacks": res.singular_fallbacks,
                      "refactorizations": res.refactorizations,
                      "singular_pivots": res.singular_pivots,
                      "dense_solves": res.dense_solves},
    )
    return res, report


def solve_trik(f: Formulation, **kw: Any) -> SolveReport:
    return run_trik(f, "hilbert", **kw)[1]


def solve_trik_krein(f: Formulation, **kw: Any) -> SolveReport:
    return run_trik(f, "krein", **kw)[1]
