"""The exchange method's master QP: Clarabel's own API against the cvxpy master rebuilt
every iteration (issue 14), on the SDPM primal of ``benchmarks/bench_sdpm.py``.

m rotation trajectories of real USPS digits (task "digit < 5" vs ">= 5", 256 inputs),
soft margin C = 1 on the segment +-10 degrees, exchange method to a certified relative gap
of 1e-6, with ``master="clarabel"`` (default: the QP's arrays handed to Clarabel, only new
cuts' rows computed) and ``master="cvxpy"`` (the old path), and the SOCP through Clarabel
for reference.  Prints process CPU seconds (user + system: the machine is shared) and wall
seconds per run, iterations, cuts, the certified bracket of each, and the ratios
``exchange CPU / SOCP CPU`` for both masters.  The two masters must reach the same
certified optimum (relative difference within the sum of their certified gaps).

Run:  python benchmarks/bench_exchange.py [m ...]        (default: 1000)
      python benchmarks/bench_exchange.py --quick        (m = 100, a smoke run)
"""

from __future__ import annotations

import math
import resource
import sys
import time
import warnings

warnings.filterwarnings("ignore")


def cpu_s() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def trajectories(m: int):
    import numpy as np

    from convexkern import transforms
    from convexkern.data import load_usps

    ds = load_usps("all")
    X, d = ds.X, ds.y
    reps = []
    k = 0
    while sum(len(r) for r in reps) < m:
        reps.append(X if k == 0 else transforms.rotate(X, math.radians(5.0 * k), sigma2=0.0))
        k += 1
    Xa = np.vstack(reps)[:m]
    ya = np.where(np.tile(d, k)[:m] < 5, 1.0, -1.0)
    return transforms.rotation_trajectories(Xa), ya


def run(m: int) -> None:
    import convexkern as ck
    from convexkern.formulations import sdpm

    T, y = trajectories(m)
    rows = {}
    for label, solver, opts in (("socp (clarabel via cvxpy)", "clarabel", {}),
                                ("exchange, master=clarabel (native)", "exchange",
                                 {"master": "clarabel"}),
                                ("exchange, master=cvxpy (rebuilt)", "exchange",
                                 {"master": "cvxpy"})):
        f = sdpm.primal(T, y, segment=math.radians(10), C=1.0)
        c0, t0 = cpu_s(), time.perf_counter()
        r = ck.solve(f, solver, tol=1e-6, **opts)
        rows[label] = (cpu_s() - c0, time.perf_counter() - t0, r)
        cuts = r.solver_stats.get("cuts", "-")
        print(f"| {m} | {label} | {r.status.value} | {r.iterations} | {cuts} | "
              f"[{r.dual_value:.10g}, {r.primal_value:.10g}] | {r.rel_gap:.1e} | "
              f"{rows[label][0]:.2f} | {rows[label][1]:.2f} |", flush=True)
    base = rows["socp (clarabel via cvxpy)"][0]
    nat = rows["exchange, master=clarabel (native)"]
    old = rows["exchange, master=cvxpy (rebuilt)"]
    print(f"\nm = {m}: exchange CPU / SOCP CPU: native master {nat[0] / base:.2f}, "
          f"cvxpy master {old[0] / base:.2f}; cvxpy / native {old[0] / nat[0]:.2f}")
    diff = abs(nat[2].primal_value - old[2].primal_value) / abs(old[2].primal_value)
    print(f"same certified optimum: relative difference {diff:.1e} "
          f"(<= {nat[2].rel_gap + old[2].rel_gap:.1e}, the sum of the certified gaps: "
          f"{diff <= nat[2].rel_gap + old[2].rel_gap})")


def main() -> None:
    args = sys.argv[1:]
    sizes = [100] if "--quick" in args else [int(a) for a in args if a.isdigit()] or [1000]
    print("| m | solver | status | iterations | cuts | certified bracket | rel. gap | CPU s "
          "| wall s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for m in sizes:
        run(m)
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
