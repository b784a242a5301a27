"""Benchmark: the soft-margin SVM dual (lecture notes §11.2) — SMO vs LIBSVM vs conic solvers.

One run, on the shipped real data, the same kernel matrix ``K``, ``y`` and ``C`` for every
solver:

* ``smo``: ``ck.solve(svm.dual(K, y, C), "smo", tol=TOL)``: our SMO, run until the gap it
  evaluates from its gradient is below ``TOL / 2``, then certified once from ``K`` (the
  time includes the certificate; the builder, which validates ``K`` once, is outside);
* ``smo eps``: the bare :func:`convexkern.algorithms.smo.smo` with LIBSVM's own stopping
  rule (maximal KKT violation ``eps = 1e-3``), ``check_input=False`` (no validation of
  K); ``smo eps+v`` is the same call with ``check_input=True`` (finiteness, symmetry and
  label checks), since LIBSVM's time below includes scikit-learn's validation and copy of
  K: the two rows bracket a like-for-like comparison;
* ``libsvm``: ``sklearn.svm.SVC(kernel="precomputed", tol=1e-3)`` (``fit``, which copies
  and validates K);
* ``smo noshrink``: the same certified solve with ``shrinking=False`` (one run);
* ``check K``: :func:`convexkern._validation.check_kernel` alone (finite and symmetric, one
  blocked pass), the validation ``svm.dual`` pays once; ``check K (old)`` is the check it
  replaced (a finiteness pass with an ``n x n`` temporary, ``max``/``min``, then the
  256-tiles symmetry pass), kept here for the comparison;
* ``clarabel``, ``scs``: ``ck.solve`` through cvxpy (compile + solve), only up to
  ``--conic-max-n`` points (the dense QP grows as n^2 in cvxpy's canonicalisation).

At the end, one line per instance gives the ratios to LIBSVM's fit: ``smo eps``,
``smo certified``, and the validation share ``check K / libsvm`` (what ``svm.dual`` pays
once; ``ck.solve`` and ``ck.path`` never check ``K`` again).

For every answer (LIBSVM's included) the certified relative duality gap is recomputed from
its alpha with :func:`convexkern.formulations.svm.certificate`, so the speed ratios are read
beside the accuracy each solver actually reached.  Ratios are ``time / libsvm time``.

Instances: USPS 3 vs 5 (all training images of the two digits, RBF gamma = 1/(256 var));
Pima (standardised, RBF gamma = 1/8); USPS digits 0-4 vs 5-9 on the first 2000 and 5000
training images.

Run: ``python3 benchmarks/bench_svm.py [--C 1] [--tol 1e-6] [--repeat 3] [--conic-max-n 1300]``
(about 2 minutes on 2 cores; BLAS threads are left as configured);
``python3 benchmarks/bench_svm.py --only 5000 --repeat 7`` runs the USPS 0-4 vs 5-9,
n = 5000 instance alone (the target row, under a minute).
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from sklearn.svm import SVC

import convexkern as ck
from convexkern._validation import check_kernel
from convexkern.algorithms.smo import smo
from convexkern.data import load, load_usps
from convexkern.formulations import svm
from convexkern.kernels import RBF


def instances(only: int | None = None) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """(name, K, y) for each benchmark instance, from the shipped data (``only``: the
    USPS 0-4 vs 5-9 instance of that size alone)."""
    out = []
    ds = load_usps("train")
    if only is None:
        keep = (ds.y == 3) | (ds.y == 5)
        X, y = ds.X[keep], np.where(ds.y[keep] == 3, 1.0, -1.0)
        out.append(("usps 3v5", RBF(gamma=1.0 / (X.shape[1] * X.var()))(X), y))
        pima = load("pima")
        Xp = (pima.X - pima.X.mean(0)) / pima.X.std(0)
        yp = np.where(pima.y == 1, 1.0, -1.0)
        out.append(("pima", RBF(gamma=1.0 / Xp.shape[1])(Xp), yp))
    for n in (2000, 5000) if only is None else (only,):
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


def old_check_kernel(K: np.ndarray) -> None:
    """The kernel check ``svm.dual`` ran before the blocked kernel pass (for the comparison only):
    ``isfinite`` over an ``n x n`` temporary, ``max``/``min`` for the scale, then
    ``max |A - A'|`` on 256-tiles with a temporary per tile."""
    if not np.all(np.isfinite(K)):
        raise ValueError("K: non-finite")
    scale = max(float(K.max()), -float(K.min()), 1.0)
    n, worst = K.shape[0], 0.0
    for i in range(0, n, 256):
        for j in range(i, n, 256):
            tile = K[i:i + 256, j:j + 256] - K[j:j + 256, i:i + 256].T
            worst = max(worst, float(np.max(np.abs(tile))))
    if worst > 1e-10 * scale:
        raise ValueError("K: not symmetric")


def libsvm_alpha(model: SVC, n: int) -> np.ndarray:
    a = np.zeros(n)
    a[model.support_] = np.abs(model.dual_coef_[0])
    return a


def run_instance(name: str, K: np.ndarray, y: np.ndarray, C: float,
                 args: argparse.Namespace) -> dict[str, float]:
    """Time every solver on one instance, print its rows, return the times by row."""
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

    # a fresh formulation per repetition (built outside the clock): svm.dual caches the
    # certificate of the last point, and a repeated solve would find it there
    psd_eps = svm.dual(K, y, C=C).data["psd_eps"]
    t_smo, rep = math.inf, None
    for _ in range(args.repeat):
        f = svm.dual(K, y, C=C, psd_check=False)
        f.data["psd_eps"] = psd_eps
        t0 = time.perf_counter()
        rep = ck.solve(f, "smo", tol=args.tol)
        t_smo = min(t_smo, time.perf_counter() - t0)
    rows.append(("smo", rep.status.value, t_smo, rep.iterations, rep.primal_value,
                 rep.rel_gap))
    f = svm.dual(K, y, C=C, psd_check=False)  # the same without shrinking (one run: the
    f.data["psd_eps"] = psd_eps               # lever's worth; the cache does not matter)
    t0 = time.perf_counter()
    rep = ck.solve(f, "smo", tol=args.tol, shrinking=False)
    rows.append(("smo noshrink", rep.status.value, time.perf_counter() - t0, rep.iterations,
                 rep.primal_value, rep.rel_gap))

    t_chk_new, _ = best_of(args.repeat, lambda: check_kernel(K, "K", n=n))
    rows.append(("check K", "-", t_chk_new, None, math.nan, math.nan))
    t_chk_old, _ = best_of(args.repeat, lambda: old_check_kernel(K))
    rows.append(("check K (old)", "-", t_chk_old, None, math.nan, math.nan))

    if n <= args.conic_max_n:
        for solver in ("clarabel", "scs"):
            fc = svm.dual(K, y, C=C)
            t_c, rc = best_of(1, lambda fc=fc, s=solver: ck.solve(fc, s, tol=args.tol))
            rows.append((solver, rc.status.value, t_c, rc.iterations, rc.primal_value,
                         rc.rel_gap))
    for solver, status, t, it, obj, gap in rows:
        print(f"{name:<22} {n:>5} {solver:<13} {str(status):<18} {t:>8.3f} "
              f"{t / t_lib:>8.2f} {it if it is not None else '-':>7} {obj:>16.10g} "
              f"{gap:>12.2e}")
    print()
    return {r[0]: r[2] for r in rows}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--C", type=float, default=1.0)
    ap.add_argument("--tol", type=float, default=1e-6, help="certified rel. gap for ck.solve")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--conic-max-n", type=int, default=1300)
    ap.add_argument("--only", type=int, default=None,
                    help="only the USPS 0-4 vs 5-9 instance with this many points")
    args = ap.parse_args()
    C = args.C

    head = (f"{'instance':<22} {'n':>5} {'solver':<13} {'status':<18} {'time s':>8} "
            f"{'/libsvm':>8} {'iters':>7} {'objective D(a)':>16} {'cert rel gap':>12}")
    print(f"C = {C}, certified tol for ck.solve = {args.tol:g}, best of {args.repeat}")
    print(head)
    print("-" * len(head))
    ratios = []
    for name, K, y in instances(args.only):
        times = run_instance(name, K, y, C, args)
        lib = times["libsvm"]
        ratios.append((name, y.size, lib, times["smo eps"] / lib, times["smo"] / lib,
                       times["check K"] / lib, times["check K (old)"] / lib))
    print("ratios to LIBSVM's fit (targets: smo certified <= 2, check K <= 0.10)")
    print(f"{'instance':<22} {'n':>5} {'libsvm s':>9} {'smo eps':>8} {'smo cert':>9} "
          f"{'check K':>8} {'old check':>9}")
    for name, n, lib, r_eps, r_cert, r_chk, r_old in ratios:
        print(f"{name:<22} {n:>5} {lib:>9.4f} {r_eps:>8.2f} {r_cert:>9.2f} {r_chk:>8.2f} "
              f"{r_old:>9.2f}")


if __name__ == "__main__":
    main()
