"""Benchmark: the LP SVM (Abe, ICANN 2012) at USPS size, 7291 triplets x 256 inputs.

Times, in one run and on the same ``A`` (USPS training set, digits' triplets):

* ``ck.solve(f, "linprog")``: the direct sparse HiGHS path (auto: interior point on the
  256-row dual form, ``R`` read off the marginals), including the certificate;
* a bare ``scipy.optimize.linprog`` call on exactly the same standard form and method
  (the ratio of the two is the framework's overhead; target <= 1.2);
* a bare ``linprog(method="highs")`` on the 7291-row primal (what a user would write);
* the cvxpy paths: ``highs``, ``clarabel``, ``scs`` (each with a time limit).

Run: ``python3 benchmarks/bench_lp_svm.py [--C-M 10] [--repeat 2] [--skip-cvxpy]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy.optimize import linprog

import convexkern as ck
from convexkern.algorithms.linprog_direct import choose, standard_form
from convexkern.data import load_usps
from convexkern.formulations import lp_svm


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--C-M", type=float, default=10.0)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--skip-cvxpy", action="store_true")
    ap.add_argument("--time-limit", type=float, default=300.0)
    args = ap.parse_args()

    ds = load_usps("train")
    t0 = time.perf_counter()
    A = lp_svm.triplet_matrix(ds.X, ds.y)
    print(f"A = {A.shape} (triplets x inputs), built in {time.perf_counter() - t0:.2f} s")
    f = lp_svm.lp(A, args.C_M)

    rows = []
    best_ck = best_bare = np.inf
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        r = ck.solve(f, "linprog")
        t_ck = time.perf_counter() - t0
        best_ck = min(best_ck, t_ck)
        kind, meth = choose(f.kind, A.shape)
        t0 = time.perf_counter()
        std = standard_form(kind, A, args.C_M)
        res = linprog(std.c, A_ub=std.A_ub, b_ub=std.b_ub, bounds=std.bounds, method=meth)
        t_bare = time.perf_counter() - t0
        best_bare = min(best_bare, t_bare)
    rows.append(("ck.solve(f, 'linprog')", best_ck, r.status.value, r.primal_value, r.rel_gap))
    rows.append((f"bare linprog({meth}) on {kind} form", best_bare, str(res.status),
                 std.sign * res.fun, float("nan")))
    std = standard_form("lp_svm.lp", A, args.C_M)
    t0 = time.perf_counter()
    res = linprog(std.c, A_ub=std.A_ub, b_ub=std.b_ub, bounds=std.bounds, method="highs")
    rows.append(("bare linprog(highs) on the primal", time.perf_counter() - t0,
                 str(res.status), res.fun, float("nan")))
    if not args.skip_cvxpy:
        for s in ("highs", "clarabel", "scs"):
            t0 = time.perf_counter()
            rr = ck.solve(f, s, time_limit=args.time_limit)
            rows.append((f"ck.solve(f, '{s}') via cvxpy", time.perf_counter() - t0,
                         rr.status.value, rr.primal_value, rr.rel_gap))
    print(f"\nLP SVM, USPS train, C_M = {args.C_M}; wall times, best of {args.repeat} for the "
          "first two rows")
    print(f"{'path':45s} {'time[s]':>9s} {'status':>18s} {'objective':>16s} {'rel_gap':>9s}")
    for name, t, st, val, gap in rows:
        print(f"{name:45s} {t:9.2f} {st:>18s} {val:16.8f} {gap:9.2g}")
    print(f"\noverhead ratio ck.solve / bare linprog (same form and method): "
          f"{best_ck / best_bare:.3f}")


if __name__ == "__main__":
    main()
