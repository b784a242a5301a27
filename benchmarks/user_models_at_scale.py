"""Benchmark: the first models a user writes, at the sizes of a real data set, against
the plain solve.

Huber regression 1000 x 100 and 20,000 x 20 (``huber_tall``), a least absolute deviation
fit 5000 x 20 (``lad_tall``), lasso 2000 x 400, linear SVM (hinge loss) 2000 x 50,
portfolio n = 1000 (a factor model) and logistic regression 2000 x 50, each solved by
``problem.solve`` with the settings convexkern gives the solver and by ``ck.solve``
(``ck.from_cvxpy``), once each, on a freshly built problem: the status, the certified
relative gap, both wall times, their ratio and the certificate's time.  Feeds
docs/certificates.md ("The same models at scale"); quote numbers from a quiet machine.

Run: ``python benchmarks/user_models_at_scale.py [--only huber,logistic]
[--solvers clarabel,scs,ecos,highs,osqp,qoco]`` (a few minutes; HiGHS on the SVM alone
takes a minute).
"""

from __future__ import annotations

import argparse
import time
import warnings

import cvxpy as cp
import numpy as np

import convexkern as ck
from convexkern.solvers import TOLERANCE
from convexkern.solvers.table import CONIC

warnings.simplefilter("ignore")


def _models() -> dict[str, callable]:
    def huber():
        r = np.random.default_rng(2)
        A = r.standard_normal((1000, 100))
        b = A @ r.standard_normal(100) + r.standard_t(2, 1000)
        x = cp.Variable(100)
        return cp.Problem(cp.Minimize(cp.sum(cp.huber(A @ x - b, 1.0))))

    def huber_tall():  # many rows, few dense columns: x's residuals sum 20,000 terms
        r = np.random.default_rng(7)
        A = r.standard_normal((20000, 20))
        b = A @ r.standard_normal(20) + r.standard_t(2, 20000)
        x = cp.Variable(20)
        return cp.Problem(cp.Minimize(cp.sum(cp.huber(A @ x - b, 1.0))))

    def lad_tall():  # norm1 of the residual: rows of 21 entries, epigraph pairs
        r = np.random.default_rng(4)
        X = r.standard_normal((5000, 20))
        y = X @ r.standard_normal(20) + r.standard_t(2, 5000)
        b = cp.Variable(20)
        return cp.Problem(cp.Minimize(cp.norm1(X @ b - y)))

    def lasso():
        r = np.random.default_rng(1)
        A = r.standard_normal((2000, 400))
        b = r.standard_normal(2000)
        x = cp.Variable(400)
        return cp.Problem(cp.Minimize(cp.sum_squares(A @ x - b) / 2000 + 0.1 * cp.norm1(x)))

    def svm():
        r = np.random.default_rng(4)
        X = r.standard_normal((2000, 50))
        y = np.sign(X @ r.standard_normal(50) + 0.5 * r.standard_normal(2000))
        w, b = cp.Variable(50), cp.Variable()
        return cp.Problem(cp.Minimize(cp.sum(cp.pos(1 - cp.multiply(y, X @ w + b))) / 2000
                                      + 0.01 * cp.sum_squares(w)))

    def portfolio():
        r = np.random.default_rng(5)
        n, k = 1000, 20
        F = r.standard_normal((n, k)) / np.sqrt(k)
        d = r.uniform(0.01, 0.1, n)
        mu = r.standard_normal(n) * 0.05
        x = cp.Variable(n)
        risk = cp.sum_squares(F.T @ x) + cp.sum(cp.multiply(d, cp.square(x)))
        return cp.Problem(cp.Minimize(risk - 0.1 * mu @ x), [cp.sum(x) == 1, x >= 0])

    def logistic():
        r = np.random.default_rng(0)
        A = r.standard_normal((2000, 50))
        y = np.sign(A @ r.standard_normal(50) + 0.5 * r.standard_normal(2000))
        w = cp.Variable(50)
        return cp.Problem(cp.Minimize(cp.sum(cp.logistic(-cp.multiply(y, A @ w))) / 2000
                                      + 0.1 * cp.sum_squares(w)))

    return {f.__name__: f for f in (huber, huber_tall, lad_tall, lasso, svm, portfolio, logistic)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="")
    ap.add_argument("--solvers", default="clarabel,scs,ecos,highs,osqp,qoco")
    args = ap.parse_args()
    models = _models()
    if args.only:
        models = {k: v for k, v in models.items() if k in args.only.split(",")}
    wanted = args.solvers.split(",")
    print("| model | solver | status | certified rel. gap | plain [s] | ck.solve [s] "
          "| ratio | certificate [s] |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for name, build in models.items():
        for s in ck.available_solvers(ck.from_cvxpy(build(), name)):
            if s not in wanted or s not in CONIC:
                continue
            spec = CONIC[s]
            kwargs = spec.settings(TOLERANCE.settings(spec.default_tol, spec.safety,
                                                      spec.settings_floor), None, None)
            t0 = time.perf_counter()
            try:
                build().solve(solver=spec.cvxpy_name, **kwargs)
            except (cp.error.SolverError, ValueError, ArithmeticError):
                pass
            plain = time.perf_counter() - t0
            t0 = time.perf_counter()
            r = ck.solve(ck.from_cvxpy(build(), name), s)
            wall = time.perf_counter() - t0
            print(f"| {name} | {s} | {r.status.value} | {r.rel_gap:.1e} | {plain:.2f} "
                  f"| {wall:.2f} | {wall / plain:.2f} | {r.certify_time:.2f} |", flush=True)


if __name__ == "__main__":
    main()
