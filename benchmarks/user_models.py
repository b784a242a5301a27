"""Benchmark: the first models a user writes, certified by every solver that takes them.

Twenty-six small cvxpy models of the kinds researchers write (regressions with ``huber``,
``pos``, ``maximum`` and ``norm1``; portfolio and box QPs; logistic and log-sum-exp
losses; entropy, KL and ``log_det``; max-cut, Lovasz theta, nuclear norm, ``lambda_max``,
``sigma_max`` and the nearest correlation matrix; an infeasible and an unbounded LP), each
solved through ``ck.from_cvxpy`` + ``ck.solve`` with every installed solver that
``ck.available_solvers`` offers, at its default tol.  Each row gives the status, the
certified bracket, the wall time and, when not ``optimal``, the start of the message.  A
model whose finite brackets do not all overlap is flagged ``DISJOINT`` (a wrong bracket
somewhere: none is expected).  Data are seeded per model.

Run: ``python benchmarks/user_models.py [--only lasso,huber] [--solvers clarabel,highs]``
(about a minute; MPAX, when installed, is left out unless named).
"""

from __future__ import annotations

import argparse
import time
import warnings

import cvxpy as cp
import numpy as np

import convexkern as ck

warnings.simplefilter("ignore")


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _models() -> dict[str, callable]:
    m: dict[str, callable] = {}

    def add(f):
        m[f.__name__] = f
        return f

    @add
    def lasso():
        r = _rng(1)
        A = r.standard_normal((300, 100))
        b = r.standard_normal(300)
        x = cp.Variable(100)
        return cp.Problem(cp.Minimize(cp.sum_squares(A @ x - b) / 300 + 0.1 * cp.norm1(x)))

    @add
    def huber():
        r = _rng(2)
        A = r.standard_normal((300, 30))
        b = A @ r.standard_normal(30) + r.standard_t(2, 300)
        x = cp.Variable(30)
        return cp.Problem(cp.Minimize(cp.sum(cp.huber(A @ x - b, 1.0))))

    @add
    def quantile():
        r = _rng(3)
        A = r.standard_normal((200, 10))
        b = A @ r.standard_normal(10) + r.standard_normal(200)
        x = cp.Variable(10)
        res = b - A @ x
        return cp.Problem(cp.Minimize(cp.sum(cp.maximum(0.3 * res, -0.7 * res))))

    @add
    def svm_primal():
        r = _rng(4)
        X = r.standard_normal((300, 20))
        y = np.sign(X[:, 0] + 0.5 * r.standard_normal(300))
        w, b = cp.Variable(20), cp.Variable()
        hinge = cp.pos(1 - cp.multiply(y, X @ w + b))
        return cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w) + cp.sum(hinge)))

    @add
    def l1_fit():
        r = _rng(5)
        A = r.standard_normal((100, 40))
        b = r.standard_normal(100)
        x = cp.Variable(40)
        return cp.Problem(cp.Minimize(cp.norm1(A @ x - b) + cp.norm_inf(x)))

    @add
    def chebyshev():
        r = _rng(6)
        A = r.standard_normal((30, 3))
        b = r.uniform(1, 2, 30)
        c, rad = cp.Variable(3), cp.Variable()
        return cp.Problem(cp.Maximize(rad), [A @ c + rad * np.linalg.norm(A, axis=1) <= b])

    @add
    def portfolio():
        r = _rng(7)
        F = r.standard_normal((300, 10))
        S = F @ F.T / 10 + np.diag(r.uniform(0.1, 0.5, 300))
        mu = r.uniform(0, 0.1, 300)
        x = cp.Variable(300)
        return cp.Problem(cp.Maximize(mu @ x - cp.quad_form(x, S)), [cp.sum(x) == 1, x >= 0])

    @add
    def box_qp():
        r = _rng(8)
        M = r.standard_normal((30, 30))
        q = r.standard_normal(30)
        x = cp.Variable(30)
        return cp.Problem(cp.Minimize(0.5 * cp.quad_form(x, M @ M.T) + q @ x), [x >= -1, x <= 1])

    @add
    def logistic():
        r = _rng(9)
        A = r.standard_normal((400, 20))
        y = np.sign(A @ r.standard_normal(20) + r.standard_normal(400))
        w = cp.Variable(20)
        loss = cp.sum(cp.logistic(-cp.multiply(y, A @ w))) / 400
        return cp.Problem(cp.Minimize(loss + 0.01 * cp.sum_squares(w)))

    @add
    def log_sum_exp():
        r = _rng(10)
        A = r.standard_normal((100, 50))
        x = cp.Variable(50)
        return cp.Problem(cp.Minimize(cp.log_sum_exp(A @ x) + cp.sum_squares(x)))

    @add
    def entropy():
        r = _rng(11)
        A = r.uniform(0, 1, (10, 100))
        x = cp.Variable(100)
        p = r.dirichlet(np.ones(100))
        return cp.Problem(cp.Maximize(cp.sum(cp.entr(x))), [A @ x == A @ p, cp.sum(x) == 1])

    @add
    def kl_div():
        r = _rng(12)
        q = r.dirichlet(np.ones(30))
        A = r.uniform(0, 1, (5, 30))
        x = cp.Variable(30)
        p = r.dirichlet(np.ones(30))
        return cp.Problem(cp.Minimize(cp.sum(cp.kl_div(x, q))), [A @ x == A @ p, cp.sum(x) == 1])

    @add
    def geo_mean():
        r = _rng(13)
        A = r.uniform(0.1, 1, (20, 30))
        x = cp.Variable(30, pos=True)
        return cp.Problem(cp.Maximize(cp.geo_mean(x)), [A @ x <= 1])

    @add
    def power():
        r = _rng(14)
        x = cp.Variable(10)
        c = r.standard_normal(10)
        return cp.Problem(cp.Minimize(cp.sum(cp.power(cp.abs(x - c), 1.5)) + cp.sum(x)))

    @add
    def log_det():
        r = _rng(15)
        Y = r.standard_normal((50, 8))
        X = cp.Variable((8, 8), PSD=True)
        S = Y.T @ Y / 50
        return cp.Problem(cp.Maximize(cp.log_det(X) - cp.trace(S @ X) - 0.1 * cp.sum(cp.abs(X))))

    @add
    def max_cut():
        r = _rng(16)
        W = r.uniform(0, 1, (40, 40))
        W = (W + W.T) / 2
        np.fill_diagonal(W, 0)
        X = cp.Variable((40, 40), symmetric=True)
        L = np.diag(W.sum(1)) - W
        return cp.Problem(cp.Maximize(cp.trace(L @ X) / 4), [cp.diag(X) == 1, X >> 0])

    @add
    def theta():
        r = _rng(17)
        E = [(i, j) for i in range(30) for j in range(i + 1, 30) if r.uniform() < 0.3]
        X = cp.Variable((30, 30), symmetric=True)
        zeros = [X[i, j] == 0 for i, j in E]
        return cp.Problem(cp.Maximize(cp.sum(X)), [cp.trace(X) == 1, X >> 0] + zeros)

    @add
    def nearest_correlation():
        r = _rng(18)
        B = r.uniform(-1, 1, (50, 50))
        A = (B + B.T) / 2
        np.fill_diagonal(A, 1.0)
        X = cp.Variable((50, 50), symmetric=True)
        return cp.Problem(cp.Minimize(cp.sum_squares(X - A)), [X >> 0, cp.diag(X) == 1])

    @add
    def nuclear_norm():
        r = _rng(19)
        M = r.standard_normal((15, 3)) @ r.standard_normal((3, 15))
        mask = r.uniform(size=(15, 15)) < 0.5
        X = cp.Variable((15, 15))
        seen = cp.multiply(mask, X) == cp.multiply(mask, M)
        return cp.Problem(cp.Minimize(cp.normNuc(X)), [seen])

    @add
    def lambda_max():
        r = _rng(20)
        A0, A1 = r.standard_normal((2, 30, 30))
        t = cp.Variable()
        return cp.Problem(cp.Minimize(cp.lambda_max(A0 + A0.T + t * (A1 + A1.T))))

    @add
    def sigma_max():
        r = _rng(21)
        A0, A1 = r.standard_normal((2, 10, 6))
        t = cp.Variable()
        return cp.Problem(cp.Minimize(cp.sigma_max(A0 + t * A1)))

    @add
    def min_norm():
        r = _rng(22)
        A = r.standard_normal((50, 200))
        b = r.standard_normal(50)
        x = cp.Variable(200)
        return cp.Problem(cp.Minimize(cp.norm(x, 2)), [A @ x == b])

    @add
    def sum_largest():
        r = _rng(23)
        A = r.standard_normal((40, 5))
        b = r.standard_normal(40)
        x = cp.Variable(5)
        return cp.Problem(cp.Minimize(cp.sum_largest(A @ x - b, 5) + cp.norm_inf(x)))

    @add
    def big_lp():
        r = _rng(24)
        A = r.standard_normal((400, 300))
        b = A @ r.uniform(0, 1, 300) + r.uniform(0, 1, 400)
        x = cp.Variable(300)
        return cp.Problem(cp.Minimize(r.standard_normal(300) @ x), [A @ x <= b, x >= 0, x <= 1])

    @add
    def infeasible_lp():
        x = cp.Variable(3)
        return cp.Problem(cp.Minimize(cp.sum(x)), [x >= 1, cp.sum(x) <= 2])

    @add
    def unbounded_lp():
        A = _rng(25).uniform(0, 1, (5, 3))
        x = cp.Variable(3)
        return cp.Problem(cp.Minimize(-cp.sum(x)), [A @ x >= 0])

    return m


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="")
    ap.add_argument("--solvers", default="")
    args = ap.parse_args()
    models = _models()
    if args.only:
        models = {k: v for k, v in models.items() if k in args.only.split(",")}
    wanted = args.solvers.split(",") if args.solvers else None
    print("| model | solver | status | certified bracket | wall [s] | note |")
    print("|---|---|---|---|---:|---|")
    counts: dict[str, int] = {}
    for name, build in models.items():
        f = ck.from_cvxpy(build(), name)
        brackets = []
        for s in ck.available_solvers(f):
            if (wanted and s not in wanted) or (not wanted and s == "mpax"):
                continue
            t0 = time.perf_counter()
            r = ck.solve(f, s)
            wall = time.perf_counter() - t0
            lo, up = sorted((r.primal_value, r.dual_value))
            if np.isfinite(lo) and np.isfinite(up):
                brackets.append((lo, up))
            counts[r.status.value] = counts.get(r.status.value, 0) + 1
            note = "" if r.status.value == "optimal" else r.message[:90].replace("|", "/")
            print(f"| {name} | {s} | {r.status.value} | [{lo:.9g}, {up:.9g}] | {wall:.2f} "
                  f"| {note} |",
                  flush=True)
        top, bottom = (max(b[0] for b in brackets), min(b[1] for b in brackets)) if brackets \
            else (-np.inf, np.inf)
        if top > bottom + 1e-9 * max(1.0, abs(bottom)):
            print(f"| {name} | | **DISJOINT** | | | the brackets do not all overlap |")
    print()
    print("Statuses:", ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    main()
