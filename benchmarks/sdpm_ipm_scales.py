"""sdpm-ipm on the extreme-scale SDPM cases of benchmarks/reliability.py.

The 27 "sdpm soft" cases (16 USPS rotation trajectories, 1 against 7; data x 1e-3, 1, 1e3;
C = 1e-3, 1, 1e4; segment 0.02, 0.35, 1.5 rad) plus a synthetic sweep (40 random
quadratic trajectories, entries x 1e-2..1e4, C 1e-2..1e4, degree 0..2): for each, the
status of ``sdpm-ipm`` at its default tol and whether its bracket holds a tight Clarabel
bracket (the oracle).  Prints one line per case and the share reaching ``optimal``.

    python benchmarks/sdpm_ipm_scales.py [--budget 20] [--no-oracle] [--set usps|synthetic|all]
"""

from __future__ import annotations

import argparse
import collections
import itertools
import time
import warnings

import numpy as np

import convexkern as ck
from convexkern.formulations import sdpm


def _rotations():
    from convexkern import transforms
    from convexkern.data import load_usps

    ds = load_usps("train")
    sel = np.concatenate([np.flatnonzero(ds.y == 1)[:8], np.flatnonzero(ds.y == 7)[:8]])
    return transforms.rotation_trajectories(ds.X[sel]), np.where(ds.y[sel] == 1, 1.0, -1.0)


def cases(which: str):
    if which in ("usps", "all"):
        traj, ty = _rotations()
        for scale, C, tau in itertools.product((1e-3, 1.0, 1e3), (1e-3, 1.0, 1e4),
                                               (0.02, 0.35, 1.5)):
            yield f"usps x{scale:g} C={C:g} tau={tau:g}", traj * scale, ty, tau, C
    if which in ("synthetic", "all"):
        for scale, C, deg in itertools.product((1e-2, 1.0, 1e4), (1e-2, 1.0, 1e4), (0, 1, 2)):
            rng = np.random.default_rng(7)
            y = np.where(np.arange(40) % 2 == 0, 1.0, -1.0)
            X = rng.normal(size=(40, deg + 1, 5))
            X[:, 0, :] += 0.5 * y[:, None]
            yield f"synthetic x{scale:g} C={C:g} r={deg}", scale * X, y, 0.5, C


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--budget", type=float, default=20.0)
    ap.add_argument("--no-oracle", action="store_true")
    ap.add_argument("--set", default="all", choices=["usps", "synthetic", "all"])
    args = ap.parse_args(argv)
    warnings.simplefilter("ignore")
    count = collections.Counter()
    bad = 0
    for name, X, y, tau, C in cases(args.set):
        f = sdpm.primal(X, y, tau, C)
        t0 = time.perf_counter()
        r = ck.solve(f, "sdpm-ipm", time_limit=args.budget)
        dt = time.perf_counter() - t0
        count[r.status.value] += 1
        ok = ""
        if not args.no_oracle and r.status.has_solution:
            ref = ck.solve(f, "clarabel", tol=1e-9, time_limit=args.budget)
            if ref.status.has_solution:
                meets = (r.dual_value <= ref.primal_value * (1 + 1e-9) + 1e-300
                         and ref.dual_value <= r.primal_value * (1 + 1e-9) + 1e-300)
                ok = "bracket meets oracle" if meets else "BRACKET MISSES ORACLE"
                bad += not meets
        print(f"{name:34s} {r.status.value:18s} gap {r.rel_gap:9.2e} steps "
              f"{r.solver_stats.get('newton_steps', '-')!s:>4} {dt:6.1f}s {ok}", flush=True)
    total = sum(count.values())
    print(f"optimal: {count['optimal']} of {total}; " + ", ".join(
        f"{k} {v}" for k, v in sorted(count.items())) + f"; brackets missing the oracle: {bad}")


if __name__ == "__main__":
    main()
