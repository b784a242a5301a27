"""Benchmark: the soft-margin SVM dual (lecture notes §11.2) — SMO vs LIBSVM vs conic solvers.

One run, on the shipped real data, the same kernel matrix ``K``, ``y`` and ``C`` for every
solver:

* ``smo``: ``ck.solve(svm.dual(K, y, C), "smo", tol=TOL)``: our SMO, restarted until the
  *certified* relative gap is below ``TOL`` (the time includes the certificate);
* ``smo eps``: the bare :func:`convexkern.algorithms.smo.smo` with LIBSVM's own stopping
  rule (maximal KKT violation ``eps = 1e-3``), ``check_input=False`` (no validation of
  K); ``smo eps+v`` is the same call with ``check_input=True`` (finiteness, symmetry and
  label checks), since LIBSVM's time below includes scikit-learn's validation and copy of
  K: the two rows bracket a like-for-like comparison;
* ``libsvm``: ``sklearn.svm.SVC(kernel="precomputed", tol=1e-3)`` (``fit``, which copies
  and validates K);
* ``clarabel``, ``scs``: ``ck.solve`` through cvxpy (compile + solve), only up to
  ``--conic-max-n`` points (the dense QP grows as n^2 in cvxpy's canonicalisation).

For every answer (LIBSVM's included) the certified relative duality gap is recomputed from
its alpha with :func:`convexkern.formulations.svm.certificate`, so the speed ratios are read
beside the accuracy each solver actually reached.  Ratios are ``time / libsvm time``.

Instances: USPS 3 vs 5 (all training images of the two digits, RBF gamma = 1/(256 var));
Pima (standardised, RBF gamma = 1/8); USPS digits 0-4 vs 5-9 on the first 2000 and 5000
training images.

Run: ``python3 benchmarks/bench_svm.py [--C 1] [--tol 1e-6] [--repeat 3] [--conic-max-n 1300]``
(about 2 minutes on 2 cores; BLAS threads are left as configured).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from sklearn.svm import SVC

import convexkern as ck
from convexkern.algorithms.smo import smo
from convexkern.data import load, load_usps
from convexkern.formulations import svm
from convexkern.kernels import RBF


def instances() -> list[tuple[str, np.ndarray, np.ndarray]]:
    """(name, K, y) for each benchmark instance, from the shipped data."""
    out = []
    ds = load_usps("train")
    keep = (ds.y == 3) | (ds.y == 5)
    X, y = ds.X[keep], np.where(ds.y[keep] == 3, 1.0, -1.0)
    out.append(("usps 3v5", RBF(gamma=1.0 / (X.shape[1] * X.var()))(X), y))
    pima = load("pima")
    Xp = (pima.X - pima.X.mean(0)) / pima.X.std(0)
    yp = np.where(pima.y == 1, 1.0, -1.0)
    out.append(("pima", RBF(gamma=1.0 / Xp.shape[1])(Xp), yp))
    for n in (2000, 5000):
        X, d = ds.X[:n], ds.y[:n]
        yy = np.where(d < 5, 1.0, -1.0)
        out.append((f"usps 0-4v5-9 n={n}", RBF(gamma=1.0 / (X.shape[1] * X.var()))(X), yy))
    return out


def best_of(repeat: int, fn):
    """(minimum wall time, last result) of ``repeat`` calls."""
    best, res = np.inf, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        res = fn()
        best = min(best, time.perf_counter() - t0)
    return best, res


def libsvm_alpha(model: SVC, n: int) -> np.ndarray:
    a = np.zeros(n)
    a[model.support_] = np.abs(model.dual_coef_[0])
    return a


def run_instance(name: str, K: np.ndarray, y: np.ndarray, C: float,
                 args: argparse.Namespace) -> None:
    """Time every solver on one instance and print its rows."""
    n = y.size
    rows = []
    t_lib, model = best_of(args.repeat, lambda: SVC(kernel="precomputed", C=C,
                                                     tol=1e-3).fit(K, y))
    cert = svm.certificate(K, y, libsvm_alpha(model, n), C, feas_tol=None, check=False)
    rows.append(("libsvm", "-", t_lib, int(model.n_iter_[0]), cert.primal_value,
                 cert.rel_gap))

    t_eps, res = best_of(args.repeat, lambda: smo(K, y, C, eps=1e-3, check_input=False))
    cert = svm.certificate(K, y, res.alpha, C, feas_tol=None, check=False)
    rows.append(("smo eps", res.status, t_eps, res.iterations, cert.primal_value,
                 cert.rel_gap))

    # The same with our input validation (finiteness, symmetry, labels), as LIBSVM's
    # ``fit`` validates and copies K: the two ``smo eps`` rows bracket a like-for-like time.
    t_chk, res = best_of(args.repeat, lambda: smo(K, y, C, eps=1e-3, check_input=True))
    cert = svm.certificate(K, y, res.alpha, C, feas_tol=None, check=False)
    rows.append(("smo eps+v", res.status, t_chk, res.iterations, cert.primal_value,
                 cert.rel_gap))

    f = svm.dual(K, y, C=C)
    t_smo, rep = best_of(args.repeat, lambda: ck.solve(f, "smo", tol=args.tol))
    rows.append(("smo", rep.status.value, t_smo, rep.iterations, rep.primal_value,
                 rep.rel_gap))

    if n <= args.conic_max_n:
        for solver in ("clarabel", "scs"):
            fc = svm.dual(K, y, C=C)
            t_c, rc = best_of(1, lambda fc=fc, s=solver: ck.solve(fc, s, tol=args.tol))
            rows.append((solver, rc.status.value, t_c, rc.iterations, rc.primal_value,
                         rc.rel_gap))
    for solver, status, t, it, obj, gap in rows:
        print(f"{name:<22} {n:>5} {solver:<9} {str(status):<18} {t:>8.3f} "
              f"{t / t_lib:>8.2f} {it if it is not None else '-':>7} {obj:>16.10g} "
              f"{gap:>12.2e}")
    print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--C", type=float, default=1.0)
    ap.add_argument("--tol", type=float, default=1e-6, help="certified rel. gap for ck.solve")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--conic-max-n", type=int, default=1300)
    args = ap.parse_args()
    C = args.C

    head = (f"{'instance':<22} {'n':>5} {'solver':<9} {'status':<18} {'time s':>8} "
            f"{'/libsvm':>8} {'iters':>7} {'objective D(a)':>16} {'cert rel gap':>12}")
    print(f"C = {C}, certified tol for ck.solve = {args.tol:g}, best of {args.repeat}")
    print(head)
    print("-" * len(head))
    for name, K, y in instances():
        run_instance(name, K, y, C, args)


if __name__ == "__main__":
    main()
