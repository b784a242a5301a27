"""Reliability table: every builder x solver over extreme scales and bad input, each answer
classified against an independent solve (docs/reliability.md).

Outcomes, per case:

* ``correct``: a report with a point whose bracket meets the oracle's (and ``optimal`` only
  within ``tol``);
* ``honest``: a report without a certified optimum that says so truthfully (a limit, an
  ``optimal_inaccurate`` whose bracket is valid, an ``error``, a true no-solution claim);
* ``refused``: a library error (``ConvexkernError``) before or instead of a solve;
* ``WRONG``: a bracket that misses the oracle's, ``optimal`` beyond ``tol``, or an
  ``infeasible``/``unbounded`` claim where the oracle certified a finite bracket;
* ``FOREIGN``: any other exception; ``SLOW``: over the time budget.

The oracle is a tight Clarabel solve (``tol=1e-9``) and, where it applies, the
purpose-built method (SMO, linprog) at its tightest; a case whose oracles agree on no
certified optimum is judged on its own promises only.

Run: ``python benchmarks/reliability.py [--budget 30]`` (a few minutes on 2 cores).
"""

from __future__ import annotations

import argparse
import collections
import itertools
import math
import time
import warnings
from dataclasses import replace

import numpy as np

import convexkern as ck
from convexkern.formulations import krein, lp_svm, robust_indefinite, sdpm, svm

NO_SOLUTION = (ck.Status.INFEASIBLE, ck.Status.UNBOUNDED, ck.Status.INFEASIBLE_OR_UNBOUNDED)


def _data(seed, n, d, scale):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    return scale * (rng.normal(size=(n, d)) + 0.7 * y[:, None]), y


def _bracket(r):
    return min(r.primal_value, r.dual_value), max(r.primal_value, r.dual_value)


def _finite(r):
    return r.status.has_solution and all(math.isfinite(v) for v in _bracket(r))


def _oracle(f, extra):
    best = None
    for name, kw in [("clarabel", {"tol": 1e-9})] + extra:
        if name not in ck.available_solvers(f):
            continue
        try:
            r = ck.solve(f, name, **kw)
        except ck.ConvexkernError:
            continue
        if r.status is ck.Status.OPTIMAL and _finite(r) and (
                best is None or r.gap < best.gap):
            best = r
    return best


def classify(f, solver, oracle, budget):
    inputs = [v.copy() for v in f.data.values() if isinstance(v, np.ndarray)]
    t0 = time.perf_counter()
    try:
        r = ck.solve(f, solver, time_limit=budget)
    except ck.ConvexkernError:
        return "refused", ""
    except Exception as exc:  # noqa: BLE001 - the point is to count these
        return "FOREIGN", f"{type(exc).__name__}: {exc}"
    after = [v for v in f.data.values() if isinstance(v, np.ndarray)]
    if any(not np.array_equal(a, b, equal_nan=True) for a, b in zip(inputs, after)):
        return "WRONG", "an input array changed"
    if time.perf_counter() - t0 > budget + 10:
        return "SLOW", f"{time.perf_counter() - t0:.0f} s"
    if r.status is ck.Status.OPTIMAL and not r.rel_gap <= r.tol:
        return "WRONG", f"optimal at rel_gap {r.rel_gap:.2g} > tol {r.tol:.2g}"
    if r.status in NO_SOLUTION:
        if oracle is not None:
            return "WRONG", f"{r.status.value} but {oracle.solver} certified {_bracket(oracle)}"
        return "honest", r.status.value
    if not r.status.has_solution:
        return "honest", r.status.value
    lo, hi = _bracket(r)
    if not lo <= hi:
        return "WRONG", f"inverted bracket {lo, hi}"
    if oracle is not None:
        olo, ohi = _bracket(oracle)
        slack = 1e-12 * max(1.0, abs(lo), abs(hi), abs(olo), abs(ohi))
        if max(lo, olo) > min(hi, ohi) + slack:
            return "WRONG", f"bracket {lo, hi} misses {oracle.solver}'s {olo, ohi}"
    return ("correct" if r.status is ck.Status.OPTIMAL else "honest"), r.status.value


def cases():
    """(class, builder thunk, solvers, extra oracles[, oracle formulation thunk]): the
    oracle solves the formulation itself unless a separate one (the same problem with its
    hand certificate, for the generic certificate's class) is given."""
    for seed, scale, C, form in itertools.product(range(2), (1e-6, 1.0, 1e6),
                                                  (1e-6, 1.0, 1e6, 1e12), ("dual", "primal")):
        X, y = _data(seed, 16, 3, scale)
        yield ("svm soft", (lambda X=X, y=y, C=C, form=form:
               svm.dual(X @ X.T, y, C) if form == "dual" else svm.primal(X, y, C)),
               ["smo", "clarabel", "scs", "highs", "ecos", "osqp"], [("smo", {"tol": 1e-9})])
    for seed, scale, form in itertools.product(range(3), (1e-6, 1.0, 1e6), ("dual", "primal")):
        X, y = _data(seed, 16, 3, scale)
        yield ("svm hard", (lambda X=X, y=y, form=form:
               svm.dual(X @ X.T, y, None) if form == "dual" else svm.primal(X, y, None)),
               ["smo", "clarabel", "scs", "ecos"], [("smo", {"tol": 1e-9})])
    for seed, scale, C, form in itertools.product(range(2), (1e-4, 1.0, 1e8), (1e-3, 1.0, 1e12),
                                                  ("lp", "lp_dual")):
        X, y = _data(seed, 14, 3, scale)
        yield ("lp_svm", (lambda X=X, y=y, C=C, form=form:
               getattr(lp_svm, form)(lp_svm.triplet_matrix(X, y), C)),
               ["linprog", "clarabel", "scs", "highs"], [("linprog", {})])
    for seed, C, dec in itertools.product(range(2), (1e-3, 1.0, 1e12), ("shift", "flip")):
        X, y = _data(seed, 16, 3, 1.0)
        K = np.tanh(0.5 * X @ X.T - 1.0)
        yield ("krein", (lambda K=K, y=y, C=C, dec=dec: krein.stabilization(K, y, C, dec)),
               ["trik", "trik-krein", "smo", "clarabel", "scs"], [("smo", {"tol": 1e-9})])
    for seed, kscale, rho in itertools.product(range(2), (1.0, 100.0, 1e6), (1.0, 1e4, 1e6)):
        X, y = _data(seed, 20, 3, 1.0)
        K0 = kscale * (X @ X.T + 1.0) ** 3 - (0.5 * kscale) * np.eye(20)
        yield ("robust", (lambda K0=K0, y=y, rho=rho:
               robust_indefinite.dual(K0, y, 1.0, rho)),
               ["robust_apg", "robust_pg", "robust_accpm", "clarabel", "scs"],
               [("robust_apg", {"tol": 1e-9})])
    for seed, scale, C, form in itertools.product(range(2), (1e-4, 1.0, 1e8), (1e-3, 1.0, 1e12),
                                                  ("nu_lp", "nu_lp_dual")):
        X, y = _data(seed, 14, 3, scale)
        yield ("nu_lp", (lambda X=X, y=y, C=C, form=form:
               getattr(lp_svm, form)(lp_svm.triplet_matrix(X, y), C)),
               ["linprog", "clarabel", "scs", "highs"], [("linprog", {})])
    traj, ty = _rotations()
    for scale, C, tau in itertools.product((1e-3, 1.0, 1e3), (1e-3, 1.0, 1e4),
                                           (0.02, 0.35, 1.5)):
        yield ("sdpm soft", (lambda s=scale, C=C, tau=tau: sdpm.primal(traj * s, ty, tau, C)),
               ["sdpm-ipm", "sdpm-dcd", "exchange", "clarabel", "scs"], [])
    for seed, scale, C in itertools.product(range(2), (1e-5, 1.0, 1e5), (1e-4, 1.0, 1e8)):
        X, y = _data(seed, 16, 3, scale)
        yield ("generic (svm dual)", (lambda X=X, y=y, C=C:
               replace(svm.dual(X @ X.T, y, C), certify=None)),
               ["clarabel", "scs", "ecos", "osqp", "highs"], [("smo", {"tol": 1e-9})],
               (lambda X=X, y=y, C=C: svm.dual(X @ X.T, y, C)))


def bad_inputs():
    """(what, thunk): inputs the house rules say must be refused with a library error
    naming the argument (docs/reliability.md): non-finite, non-symmetric or mis-shaped
    data, labels outside {-1, +1} or of mixed types, hyper-parameters out of range, bad
    solver controls and options.  Accepting one is WRONG, any other exception FOREIGN."""
    X, y = _data(0, 12, 3, 1.0)
    K = X @ X.T
    nanK = K.copy()
    nanK[0, 1] = nanK[1, 0] = np.nan
    asym = K.copy()
    asym[0, 1] += 1.0
    A = lp_svm.triplet_matrix(X, y)
    nanA = A.copy()
    nanA[0, 0] = np.inf
    traj, ty = np.random.default_rng(0).normal(size=(12, 3, 2)), y
    f = svm.dual(K, y, 1.0)
    builders = {
        "svm.dual K nan": lambda: svm.dual(nanK, y),
        "svm.dual K asymmetric": lambda: svm.dual(asym, y),
        "svm.dual K not square": lambda: svm.dual(K[:, :5], y),
        "svm.dual y short": lambda: svm.dual(K, y[:5]),
        "svm.dual y in {0, 1}": lambda: svm.dual(K, (y > 0).astype(float)),
        "svm.dual y with None": lambda: svm.dual(K, [1, None] * 6),
        "svm.dual y mixed types": lambda: svm.dual(K, [1, "a"] * 6),
        "svm.dual C = -1": lambda: svm.dual(K, y, -1.0),
        "svm.dual C = 'x'": lambda: svm.dual(K, y, "x"),
        "svm.dual C = nan": lambda: svm.dual(K, y, float("nan")),
        "svm.primal X inf": lambda: svm.primal(np.where(X > 1, np.inf, X), y),
        "svm.primal C = 0": lambda: svm.primal(X, y, 0.0),
        "triplet_matrix X x 1e200": lambda: lp_svm.triplet_matrix(X * 1e200, y),
        "lp A inf": lambda: lp_svm.lp(nanA, 1.0),
        "lp C_M = -1": lambda: lp_svm.lp(A, -1.0),
        "nu_lp C_rho = 0": lambda: lp_svm.nu_lp(A, 0.0),
        "krein K asymmetric": lambda: krein.stabilization(asym, y, 1.0),
        "krein lam = +1e-9": lambda: krein.stabilization(K + np.eye(12), y, 1.0, "shift",
                                                         lam=1e-9),
        "krein decomposition 'x'": lambda: krein.stabilization(K, y, 1.0, "x"),
        "robust rho = 0": lambda: robust_indefinite.dual(K, y, 1.0, 0.0),
        "robust K0 nan": lambda: robust_indefinite.dual(nanK, y, 1.0, 1.0),
        "sdpm tau = -1": lambda: sdpm.primal(traj, ty, -1.0, 1.0),
        "sdpm X_traj 2-d": lambda: sdpm.primal(traj[:, 0, :], ty, 0.5, 1.0),
        "solve tol = 0": lambda: ck.solve(f, "clarabel", tol=0.0),
        "solve tol = 1e-16": lambda: ck.solve(f, "smo", tol=1e-16),
        "solve max_iter = -1": lambda: ck.solve(f, "smo", max_iter=-1),
        "solve time_limit = -1": lambda: ck.solve(f, "scs", time_limit=-1.0),
        "solve unknown solver": lambda: ck.solve(f, "nosuch"),
        "solve foo=1 (smo)": lambda: ck.solve(f, "smo", foo=1),
        "solve foo=1 (clarabel)": lambda: ck.solve(f, "clarabel", foo=1),
        "solve x0 wrong length": lambda: ck.solve(f, "smo", x0={"alpha": np.ones(3)}),
        "linprog method='x'": lambda: ck.solve(lp_svm.lp(A, 1.0), "linprog", method="x"),
        "compare(f, 5)": lambda: ck.compare(f, 5),
        "path(f, 'C', None)": lambda: ck.path(f, "C", None, "clarabel"),
        "path(f, 'C', ['a'])": lambda: ck.path(f, "C", ["a"], "clarabel"),
    }
    yield from builders.items()


def _rotations():
    """16 real USPS digits (1 against 7) as rotation trajectories, for the SDPM."""
    from convexkern import transforms
    from convexkern.data import load_usps

    ds = load_usps("train")
    sel = np.concatenate([np.flatnonzero(ds.y == 1)[:8], np.flatnonzero(ds.y == 7)[:8]])
    return transforms.rotation_trajectories(ds.X[sel]), np.where(ds.y[sel] == 1, 1.0, -1.0)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--budget", type=float, default=30.0, help="time limit per solve (s)")
    args = ap.parse_args(argv)
    warnings.simplefilter("ignore")
    table = collections.defaultdict(collections.Counter)
    bad = []
    for cls, build, solvers, extra, *own in cases():
        try:
            f = build()
        except ck.ConvexkernError:
            table[cls]["refused"] += 1
            continue
        except Exception as exc:  # noqa: BLE001 - a builder's foreign exception is counted
            table[cls]["FOREIGN"] += 1
            bad.append(f"{cls:9s} build: FOREIGN {type(exc).__name__}: {exc}")
            continue
        oracle = _oracle(own[0]() if own else f, extra)
        for s in solvers:
            if s not in ck.available_solvers(f):
                continue
            outcome, why = classify(f, s, oracle, args.budget)
            table[cls][outcome] += 1
            if outcome in ("WRONG", "FOREIGN", "SLOW"):
                bad.append(f"{cls:9s} {f.name} {s}: {outcome} {why}")
    for what, thunk in bad_inputs():
        try:
            thunk()
        except ck.ConvexkernError:
            table["bad input"]["refused"] += 1
            continue
        except Exception as exc:  # noqa: BLE001
            table["bad input"]["FOREIGN"] += 1
            bad.append(f"bad input {what}: FOREIGN {type(exc).__name__}: {exc}")
            continue
        table["bad input"]["WRONG"] += 1
        bad.append(f"bad input {what}: WRONG accepted")
    cols = ["correct", "honest", "refused", "WRONG", "FOREIGN", "SLOW"]
    print("| class | cases | " + " | ".join(cols) + " |")
    print("|---" * (len(cols) + 2) + "|")
    for cls, cnt in table.items():
        print(f"| {cls} | {sum(cnt.values())} | " + " | ".join(str(cnt[c]) for c in cols) + " |")
    tot = sum((c for c in table.values()), collections.Counter())
    print(f"| all | {sum(tot.values())} | " + " | ".join(str(tot[c]) for c in cols) + " |")
    for line in bad:
        print(line)


if __name__ == "__main__":
    main()
