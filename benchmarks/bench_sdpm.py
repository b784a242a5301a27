"""Scale benchmark for the SDPM primal in its SOCP form (Graepel & Herbrich 2003).

m rotation trajectories of real USPS digits (16x16 = 256 inputs; 9,298 images, topped up
with copies rotated by 5 degrees when m is larger), task "digit < 5" vs ">= 5", soft margin
C = 1 on the segment +-10 degrees, solved by Clarabel through cvxpy.  Reports cvxpy compile
time, solver time, certificate time, certified gap and peak memory (ru_maxrss) for each m,
and, for the smaller sizes, the exchange method on the same problem (the ratio of the two
times is the benchmark's output, not an assertion).

Run:  python benchmarks/bench_sdpm.py [m ...]     (default: 1000 10000)
      python benchmarks/bench_sdpm.py agreement   (the SDP / SOCP / exchange / dual table
                                                   of docs/sdpm.md on 20 USPS digits)
"""

from __future__ import annotations

import math
import resource
import sys
import time
import warnings

import numpy as np

warnings.filterwarnings("ignore")


def trajectories(m: int) -> tuple[np.ndarray, np.ndarray]:
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


def cpu_s() -> float:
    """Process CPU time (user + system, s): the wall time on a shared machine overstates."""
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def run(m: int, exchange: bool) -> dict:
    import convexkern as ck
    from convexkern.formulations import sdpm

    t0 = time.perf_counter()
    T, y = trajectories(m)
    t_data = time.perf_counter() - t0
    t0 = time.perf_counter()
    c0 = cpu_s()
    f = sdpm.primal(T, y, segment=math.radians(10), C=1.0)
    t_build = time.perf_counter() - t0
    r = ck.solve(f, "clarabel", tol=1e-6)
    cpu_conic = cpu_s() - c0
    row = {
        "m": m, "n": T.shape[2], "form": f.cone_class, "data_s": t_data, "build_s": t_build,
        "compile_s": r.solver_stats.get("compile_time"), "solve_s": r.solve_time,
        "wall_s": r.wall_time + t_build, "cpu_s": cpu_conic, "status": r.status.value,
        "iterations": r.iterations, "objective": r.primal_value, "rel_gap": r.rel_gap,
        "peak_rss_mb": rss_mb(),
    }
    if exchange:
        c0 = cpu_s()
        re = ck.solve(f, "exchange", tol=1e-6)
        row.update(exchange_wall_s=re.wall_time, exchange_cpu_s=cpu_s() - c0,
                   exchange_iterations=re.iterations, exchange_objective=re.primal_value,
                   exchange_status=re.status.value, exchange_rel_gap=re.rel_gap)
    return row


def agreement() -> None:
    """Every form and solver on 20 real USPS trajectories (segment +-20 degrees)."""
    import convexkern as ck
    from convexkern import transforms
    from convexkern.data import load_usps
    from convexkern.formulations import sdpm

    ds = load_usps("train")
    sel = np.concatenate([np.flatnonzero(ds.y == 1)[:10], np.flatnonzero(ds.y == 9)[:10]])
    X = transforms.rotation_trajectories(ds.X[sel])
    y = np.where(ds.y[sel] == 1, 1.0, -1.0)
    tau = math.radians(20)
    print("| margin | form | solver | cone | primal (certified upper) | dual (certified lower)"
          " | rel. gap | time [s] | iter |")
    print("|---|---|---|---|---|---|---|---|---|")
    forms = (("Lukacs SOCP", {}, "clarabel"), ("2x2 LMI", {"cone": "psd"}, "clarabel"),
             ("substitution 3x3 LMI", {"method": "substitution"}, "clarabel"),
             ("Lukacs SOCP", {}, "exchange"), ("Lukacs SOCP", {}, "scs"))
    for C in (None, 0.005):
        tag = "hard" if C is None else f"C={C}"
        for label, kw, solver in forms:
            f = sdpm.primal(X, y, tau, C, **kw)
            r = ck.solve(f, solver, tol=1e-7 if solver != "scs" else 1e-5)
            print(f"| {tag} | primal, {label} | {solver} | {f.cone_class} | "
                  f"{r.primal_value:.10f} | {r.dual_value:.10f} | {r.rel_gap:.1e} | "
                  f"{r.wall_time:.2f} | {r.iterations} |")
        fd = sdpm.dual(X, y, tau, C)
        r = ck.solve(fd, "clarabel")
        print(f"| {tag} | dual (8) | clarabel | {fd.cone_class} | {r.dual_value:.10f} | "
              f"{r.primal_value:.10f} | {r.rel_gap:.1e} | {r.wall_time:.2f} | {r.iterations} |")


if __name__ == "__main__":
    if sys.argv[1:] == ["agreement"]:
        agreement()
        sys.exit(0)
    sizes = [int(a) for a in sys.argv[1:]] or [1000, 10000]
    for m in sizes:
        row = run(m, exchange=m <= 1000)
        print("  ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                        for k, v in row.items()), flush=True)
