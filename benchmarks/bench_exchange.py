"""The exchange method against the SOCP, on the SDPM primal of
``benchmarks/bench_sdpm.py``.

m rotation trajectories of real USPS digits (task "digit < 5" vs ">= 5", 256 inputs),
soft margin C = 1 on the segment +-10 degrees, exchange method to a certified relative gap
of 1e-6 with

* the default: ``master="ipm"`` (the dense interior-point master of
  ``convexkern.math.exchange``, inexact while the certified gap is large, warm-started),
  a working set of cuts (``drop_after=1``), ``init="ends"``;
* ``master="clarabel", drop_after=None, init="center"``: the previous default (Clarabel's
  API, every cut kept, a cold interior-point solve per iteration);
* ``master="cvxpy", drop_after=None, init="center"``: the first path (the QP rebuilt in
  cvxpy every iteration); skipped with ``--no-cvxpy``;

and the SOCP through Clarabel (via cvxpy) for reference.  Prints process CPU seconds
(user + system: the machine is shared) and wall seconds per run, iterations, cuts, the
master's interior-point steps, the largest working set, the certified bracket of each, and
the ratios ``exchange / SOCP`` (CPU and wall).  All runs must reach the same certified
optimum (relative difference within the sum of their certified gaps).

Run:  OMP_NUM_THREADS=1 python benchmarks/bench_exchange.py [m ...]   (default: 1000)
      python benchmarks/bench_exchange.py --quick                     (m = 100, a smoke run)
      python benchmarks/bench_exchange.py 1000 --no-cvxpy             (skip the slowest)
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


RUNS = (
    ("socp (clarabel via cvxpy)", "clarabel", {}),
    ("exchange, default (ipm master, working set, ends)", "exchange", {}),
    ("exchange, master=clarabel, all cuts, centre (previous)", "exchange",
     {"master": "clarabel", "drop_after": None, "init": "center"}),
    ("exchange, master=cvxpy, all cuts, centre (first)", "exchange",
     {"master": "cvxpy", "drop_after": None, "init": "center"}),
)


def run(m: int, cvxpy: bool = True) -> None:
    import convexkern as ck
    from convexkern.formulations import sdpm

    T, y = trajectories(m)
    rows = {}
    for label, solver, opts in RUNS:
        if not cvxpy and opts.get("master") == "cvxpy":
            continue
        f = sdpm.primal(T, y, segment=math.radians(10), C=1.0)
        c0, t0 = cpu_s(), time.perf_counter()
        r = ck.solve(f, solver, tol=1e-6, **opts)
        rows[label] = (cpu_s() - c0, time.perf_counter() - t0, r)
        st = r.solver_stats
        print(f"| {m} | {label} | {r.status.value} | {r.iterations} | {st.get('cuts', '-')} "
              f"| {st.get('master_steps', '-')} | {st.get('max_working', '-')} | "
              f"[{r.dual_value:.10g}, {r.primal_value:.10g}] | {r.rel_gap:.1e} | "
              f"{rows[label][0]:.2f} | {rows[label][1]:.2f} |", flush=True)
    base = rows[RUNS[0][0]]
    print()
    for label, (cpu, wall, _r) in list(rows.items())[1:]:
        print(f"m = {m}: {label}: CPU / SOCP CPU {cpu / base[0]:.2f}, "
              f"wall / SOCP wall {wall / base[1]:.2f}")
    ref = base[2]
    ok = all(abs(r.primal_value - ref.primal_value) <= (r.rel_gap + ref.rel_gap)
             * abs(ref.primal_value) for _, _, r in rows.values())
    print(f"same certified optimum (within the sums of the certified gaps): {ok}")


def main() -> None:
    args = sys.argv[1:]
    sizes = [100] if "--quick" in args else [int(a) for a in args if a.isdigit()] or [1000]
    print("| m | solver | status | iterations | cuts | master ipm steps | max working set "
          "| certified bracket | rel. gap | CPU s | wall s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for m in sizes:
        run(m, cvxpy="--no-cvxpy" not in args)
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
