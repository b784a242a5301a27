r"""Dual coordinate descent for the SDPM (Graepel & Herbrich 2003), certified.

The SDPM primal (6) is a linear SVM over polynomial trajectories: ``n`` weights and one
small cone per example.  Its dual (8),

.. math:: \max_{\mu}\ \sum_i \mu_{i0} - \tfrac12\Big\|\sum_i y_i\tilde X_i^\top\mu_i\Big\|^2
    \quad\text{s.t.}\quad \mu_i\in\mathcal M_r(S),\ \mu_{i0}\le C,\ \sum_i y_i\mu_{i0} = 0,

is separable over the blocks :math:`\mu_i` but for the quadratic term and the bias
equality.  As dual coordinate descent does for the linear SVM (Hsieh et al., ICML 2008),
this solver keeps :math:`w = \sum_i y_i\tilde X_i^\top\mu_i` and visits the blocks in a
random order each epoch; a block's update is an exact minimisation of a convex quadratic in
``r+1 <= 3`` variables over the truncated moment cone
(:func:`convexkern.algorithms.sdpm_block.solve_block`), and costs ``O(n)`` for
:math:`\tilde X_i w` and the update of ``w``.  Blocks already optimal to the accuracy asked
of them (:func:`~convexkern.algorithms.sdpm_block.block_violation`, a bound on the block's
suboptimality) are left alone, and blocks at zero with a margin beyond the largest
violation of the last epoch are *shrunk* (skipped until the end, then checked again).

The bias equality is handled by the method of multipliers (augmented Lagrangian) on
:math:`s = \sum_i y_i\mu_{i0}`: epoch ``k`` maximises :math:`\sum_i\mu_{i0}(1 - y_ib_k)
- \tfrac12\|w\|^2 - \tfrac\rho2 s^2`, which is the same block problem with :math:`\rho`
added to each block's :math:`Q_{00}` and the bias :math:`b = b_k + \rho s` in the
gradient; after the epoch :math:`b_{k+1} = b_k + \rho s` (a proximal-point step on ``b``).
Without a bias the dual has no equality and :math:`\rho = 0`.

Stopping is on the formulation's own certificate
(:func:`convexkern.formulations.sdpm.certificate`, reached through ``f.certificate``): the
worst-case margins of ``w`` (exact polynomial minima), the best bias and exact hinge slack
give the upper bound; the moments, moved into the dual feasible set (the bias equality by a
rescaling of one class), give the lower bound.  The solver stops when that certified
relative gap meets ``tol``; the report's numbers are that certificate's.

Memory is ``O(m (r+1)^2)`` beyond the data: the block Hessians
:math:`Q_i = \tilde X_i\tilde X_i^\top` and the moments; no ``m x m`` matrix is formed.

Supported: trajectories of degree ``r <= 2`` on a segment ``[-tau, tau]`` (``r = 0`` is the
ordinary SVM), soft or hard margin, with or without bias.  On the real line, or for
``r > 2``, use ``clarabel`` (the moment cone is then not a cone over a compact arc).

Like dual coordinate descent for the linear SVM, it needs many epochs when ``C`` is large
relative to ``1 / |x|^2`` (on 500 USPS digits at ``C = 1`` the certified gap is 0.3 % after
1,000 epochs; LIBLINEAR needs ~4,000 epochs for 1e-6 on the plain SVM of the same digits),
so it is not the default: :mod:`convexkern.algorithms.sdpm_ipm` is (``docs/sdpm.md``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InvalidInputError
from ..report import SolveReport
from ..solvers.outcome import certified_report, pointless_report
from ..solvers.status import algorithm_status
from ._progress import SdpmResult, checkpoint
from .sdpm_block import block_violation, min_on_segment, solve_block
from .sdpm_ipm import SdpmProblem, supported_problem

__all__ = ["DCDResult", "dcd", "solve_formulation"]

#: fraction of the target gap (times the current lower bound) handed to the blocks as their
#: total accuracy: a block is re-solved only while its suboptimality bound exceeds
#: ``BLOCK_SHARE * tol * |lower| / m``
BLOCK_SHARE = 0.05
#: every this many epochs the shrunk blocks are visited again (with the bias, b moves every
#: epoch, so the active set alone may never settle)
UNSHRINK_EVERY = 10


@dataclass
class DCDResult(SdpmResult):
    """Raw output of :func:`dcd`, with the bias ``b`` of the method of multipliers;
    :func:`solve_formulation` makes it a ``SolveReport``."""

    b: float = 0.0


def _block_hessians(X: np.ndarray) -> np.ndarray:
    """Packed upper triangles of :math:`Q_i = \\tilde X_i\\tilde X_i^\\top`, ``(m, R(R+1)/2)``,
    computed in chunks (no ``(m, R, R, n)`` temporary)."""
    m, R, _ = X.shape
    iu = np.triu_indices(R)
    out = np.empty((m, iu[0].size))
    step = 8192
    for s in range(0, m, step):
        Xs = X[s:s + step]
        out[s:s + step] = np.matmul(Xs, Xs.transpose(0, 2, 1))[:, iu[0], iu[1]]
    return out


def _linear_term(Q: list[float], nu: list[float], G: list[float]) -> list[float]:
    """``d = Q nu - G``: the block problem ``min 1/2 x'Qx - d'x`` (``Q`` packed)."""
    if len(nu) == 3:
        q00, q01, q02, q11, q12, q22 = Q
        return [q00 * nu[0] + q01 * nu[1] + q02 * nu[2] - G[0],
                q01 * nu[0] + q11 * nu[1] + q12 * nu[2] - G[1],
                q02 * nu[0] + q12 * nu[1] + q22 * nu[2] - G[2]]
    if len(nu) == 2:
        q00, q01, q11 = Q
        return [q00 * nu[0] + q01 * nu[1] - G[0], q01 * nu[0] + q11 * nu[1] - G[1]]
    return [Q[0] * nu[0] - G[0]]


def dcd(
    problem: SdpmProblem,
    *,
    tol: float = 1e-6,
    max_iter: int | None = None,
    time_limit: float | None = None,
    seed: int = 0,
    verbose: bool = False,
    mu0: np.ndarray | None = None,
    b0: float = 0.0,
) -> DCDResult:
    """Run dual coordinate descent on ``problem`` (module docstring).

    ``problem.certify`` gives the certified bounds that stop it; ``max_iter``
    counts epochs (default 1000); ``mu0``, ``b0``: a warm start (moments inside the
    feasible set; a point outside is moved to zero).  Statuses: ``optimal``,
    ``iteration_limit``, ``time_limit``, ``stalled`` (the blocks are optimal to the
    accuracy of double precision but the certified gap misses ``tol``), ``infeasible``
    (hard margin, a block proves it: a trajectory point ``x_i(theta) = 0`` without bias).
    """
    X, y, tau, C, bias, certify = problem
    m, R, n = X.shape
    hard = math.isinf(C)
    rng = np.random.default_rng(seed)
    t0 = time.perf_counter()
    Qp = _block_hessians(X)
    rho = float(np.mean(Qp[:, 0])) if bias else 0.0
    rho = rho if rho > 0 else 1.0 if bias else 0.0
    Qp[:, 0] += rho
    Ql = Qp.tolist()
    del Qp
    yl = y.tolist()
    if mu0 is None:
        mu = [[0.0] * R for _ in range(m)]
        w = np.zeros(n)
    else:
        mu = np.asarray(mu0, float).tolist()
        w = np.einsum("ik,ikn->n", y[:, None] * np.asarray(mu0, float), X)
    s = sum(yi * mi[0] for yi, mi in zip(yl, mu, strict=True))
    bk = float(b0) if bias else 0.0
    limit = 1000 if max_iter is None else int(max_iter)
    history: list[tuple[float, float, float, float]] = []
    status, message = "iteration_limit", ""
    eps = 0.0  # per-block accuracy; set from the first certificate's lower bound
    shrink_at = math.inf
    active = np.arange(m)
    full_pass = True
    solves = skips = 0
    it = 0
    lower = -math.inf
    dl = np.empty(R)
    tmp = np.empty(n)
    for it in range(1, limit + 1):
        worst = 0.0  # largest violation of a zero block this epoch (for shrinking)
        keep = np.ones(active.size, dtype=bool)
        changed = 0
        viol_sum = 0.0
        for pos, i in enumerate(rng.permutation(active).tolist()):
            Xi = X[i]
            yi = yl[i]
            xw = (Xi @ w).tolist()
            b = bk + rho * s
            G = [yi * v for v in xw]
            G[0] += yi * b - 1.0
            nu = mu[i]
            low = min_on_segment(G, tau)
            if nu[0] == 0.0:
                if low >= 0.0:
                    if low > shrink_at and not full_pass:
                        keep[pos] = False
                    continue
                worst = max(worst, -low)
            Q = Ql[i]
            gnu = sum(a * c for a, c in zip(G, nu, strict=True))
            Ceff = C if not hard else 10.0 * max(1.0, nu[0])
            viol = gnu - Ceff * min(0.0, low)
            viol_sum += viol
            if viol <= eps:
                skips += 1
                continue
            d = _linear_term(Q, nu, G)
            res = solve_block(Q, d, C, tau, cheap_only=True)
            if res is not None and R == 3 and block_violation(Q, d, res[0], Ceff, tau) > eps:
                res = solve_block(Q, d, C, tau)
            solves += 1
            if res is None:
                status = "infeasible"
                message = (f"trajectory {i} has a point x_i(theta) = 0 on the segment: no "
                           "hard margin without a bias; use a soft margin, C > 0")
                return DCDResult(w=w, b=bk, mu=np.asarray(mu), status=status,
                                 iterations=it, history=history, message=message)
            new = res[0]
            for k in range(R):
                dl[k] = yi * (new[k] - nu[k])
            if not dl.any():
                continue
            np.dot(dl, Xi, out=tmp)
            w += tmp
            s += dl[0]
            mu[i] = new
            changed += 1
        if bias:
            bk += rho * s
        active = active[keep]
        # Hsieh et al.'s rule: shrink a zero block whose margin exceeds the largest
        # violation of the last epoch (none: shrink nothing next epoch)
        shrink_at = worst if worst > 0 else math.inf
        mu_arr = np.asarray(mu, float)
        cert = certify(w, mu_arr)
        lower = max(lower, cert.lower)
        stop = checkpoint(history, it, t0, cert, tol, time_limit,
                          (f"sdpm-dcd: epoch={it} active={active.size} "
                           f"changed={changed} |s|={abs(s):.3g} b={bk:.6g}") if verbose else None)
        if stop:
            status = stop
            break
        if math.isfinite(cert.lower) and cert.lower > 0:
            eps = BLOCK_SHARE * tol * cert.lower / m
        if changed == 0 or it % UNSHRINK_EVERY == 0:
            if full_pass and changed == 0:
                if eps == 0.0:
                    status = "stalled"
                    message = ("every block is optimal to double precision but the certified "
                               "gap misses tol")
                    break
                eps *= 0.1
            full_pass = True
            active = np.arange(m)
            shrink_at = math.inf
        else:
            full_pass = False
    mu_arr = np.asarray(mu, float)
    return DCDResult(w=w, b=bk, mu=mu_arr, status=status, iterations=it, history=history,
                     message=message,
                     stats={"block_solves": float(solves), "block_skips": float(skips),
                            "rho": rho})


def solve_formulation(
    f: Any, *, tol: float, max_iter: int | None, time_limit: float | None,
    verbose: bool = False, x0: Mapping[str, np.ndarray] | None = None, **options: Any,
) -> SolveReport:
    """The solver table's adapter for ``sdpm.primal`` and ``sdpm.dual`` (linear, degree
    ``<= 2``, on a segment): :func:`dcd`, then certify.

    ``options``: ``seed`` (the epochs' random order, default 0).  ``x0``: ``{"mu": ...,
    "b": ...}`` warm start (``mu`` of shape ``(m, r+1)``).
    """
    if options.keys() - {"seed"}:
        raise InvalidInputError("options", f"unknown options {sorted(options)}")
    problem = supported_problem(f, "sdpm-dcd", tol)
    X = problem.X
    seed = options.get("seed", 0)
    mu0, b0 = None, 0.0
    if x0 is not None and "mu" in x0:
        mu0 = np.asarray(x0["mu"], float)
        if mu0.shape != (X.shape[0], X.shape[1]):
            raise InvalidInputError("x0['mu']", f"expected shape {(X.shape[0], X.shape[1])}, "
                                                f"got {mu0.shape}")
        b0 = float(np.asarray(x0.get("b", 0.0)))

    t0 = time.perf_counter()
    res = dcd(problem, tol=tol, max_iter=max_iter,
              time_limit=time_limit, seed=seed, verbose=verbose, mu0=mu0, b0=b0)
    elapsed = time.perf_counter() - t0
    stats = {"epochs": res.iterations, **res.stats}
    if res.status == "infeasible":
        return pointless_report(
            f, status=algorithm_status(res.status), solver="sdpm-dcd", solve_time=elapsed,
            iterations=res.iterations, tol=tol, message=res.message, solver_stats=stats,
        )
    message = res.message
    if math.isinf(problem.C) and res.status != "optimal" and not math.isfinite(res.history[-1][3]):
        message = (message + "; " if message else "") + (
            f"no w found with a positive worst-case margin after {res.iterations} epochs "
            f"while the certified lower bound grew to {res.history[-1][2]:.6g}: the "
            "trajectories may not be separable (use a soft margin, C > 0, or 'clarabel', "
            "which proves infeasibility)")
    point = {"mu": res.mu}
    if f.kind == "sdpm.primal":
        point.update(w=res.w, b=np.asarray(res.b))
    return certified_report(
        f, point, solver="sdpm-dcd", status=algorithm_status(res.status), tol=tol,
        solve_time=elapsed, iterations=res.iterations, history=res.history, message=message,
        solver_stats=stats,
    )
