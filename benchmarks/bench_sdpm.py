"""Scale benchmark for the SDPM primal in its SOCP form (Graepel & Herbrich 2003).

m rotation trajectories of real USPS digits (16x16 = 256 inputs; 9,298 images, topped up
with copies rotated by 5 degrees when m is larger), task "digit < 5" vs ">= 5", soft margin
C = 1 on the segment +-10 degrees, solved by Clarabel through cvxpy.  Reports cvxpy compile
time, solver time, certificate time, certified gap and peak memory (ru_maxrss) for each m,
and, for the smaller sizes, the exchange method on the same problem (the ratio of the two
times is the benchmark's output, not an assertion).

The structured solver: ``sdpm-ipm``, the default solver of these formulations
(a barrier method on the dual whose Newton systems are n x n; see
convexkern/algorithms/sdpm_ipm.py), against Clarabel in one run, and alone at scale:

Run:  python benchmarks/bench_sdpm.py [m ...]     (default: 1000 10000)
      python benchmarks/bench_sdpm.py agreement   (the SDP / SOCP / exchange / dual table
                                                   of docs/sdpm.md on 20 USPS digits)
      python benchmarks/bench_sdpm.py ratio [m]   (default solver vs Clarabel, same
                                                   formulation, one run; default m = 10000)
      python benchmarks/bench_sdpm.py scale m ... (the default solver alone: wall time,
                                                   peak memory of the solve and of the
                                                   process, certified gap)
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
    p = X.shape[0]
    k = -(-m // p)  # copies: the images, then rotated by 5, 10, ... degrees
    ya = np.where(np.tile(d, k)[:m] < 5, 1.0, -1.0)
    # filled copy by copy (the peak stays near the result's size, 6 GB at m = 10^6)
    T = np.empty((m, 3, X.shape[1]))
    for c in range(k):
        rows = min(p, m - c * p)
        Xc = X if c == 0 else transforms.rotate(X, math.radians(5.0 * c), sigma2=0.0)
        T[c * p: c * p + rows] = transforms.rotation_trajectories(Xc[:rows])
    return T, ya


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


def _reset_peak_rss() -> bool:
    """Reset the kernel's high-water mark of this process's RSS (Linux: VmHWM), so that
    the solve's own peak can be read after the data were made; False if not supported."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def _hwm_mb() -> float:
    """The process's RSS high-water mark since the last reset (MB), or ru_maxrss."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return rss_mb()


def _fmt(row: dict) -> str:
    return "  ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                     for k, v in row.items())


def ours(m: int, f=None) -> dict:
    """The default solver (sdpm-ipm) on m USPS trajectories: wall and CPU time, Newton
    steps, certified values and gap, peak RSS of the solve (the high-water mark is reset
    after the data are made) and of the whole process."""
    import convexkern as ck
    from convexkern.formulations import sdpm

    if f is None:
        T, y = trajectories(m)
        f = sdpm.primal(T, y, segment=math.radians(10), C=1.0)
    reset = _reset_peak_rss()
    base = _hwm_mb()
    t0, c0 = time.perf_counter(), cpu_s()
    r = ck.solve(f, tol=1e-6)
    wall, cpu = time.perf_counter() - t0, cpu_s() - c0
    return {
        "m": m, "solver": r.solver, "status": r.status.value, "wall_s": wall, "cpu_s": cpu,
        "newton_steps": r.iterations, "upper": r.primal_value, "lower": r.dual_value,
        "rel_gap": r.rel_gap, "data_mb": f.data["X_traj"].nbytes / 2**20,
        "rss_before_solve_mb": base,
        "peak_rss_solve_mb": _hwm_mb() if reset else math.nan,
        "peak_rss_process_mb": rss_mb(),
        "cvxpy_problem_built": not callable(f.__dict__["_problem"]),
    }


def ratio(m: int) -> None:
    """The default solver and Clarabel on one formulation, in one run: the time ratio and
    whether the certified optima agree (brackets overlap, values within 1e-6)."""
    import convexkern as ck
    from convexkern.formulations import sdpm

    T, y = trajectories(m)
    f = sdpm.primal(T, y, segment=math.radians(10), C=1.0)
    row = ours(m, f)
    print(_fmt(row), flush=True)
    t0 = time.perf_counter()
    f2 = sdpm.primal(T, y, segment=math.radians(10), C=1.0)
    rc = ck.solve(f2, "clarabel", tol=1e-6)
    wall_c = time.perf_counter() - t0  # cvxpy build + compile + Clarabel + certificate
    print(_fmt({"m": m, "solver": "clarabel", "status": rc.status.value, "wall_s": wall_c,
                "upper": rc.primal_value, "lower": rc.dual_value, "rel_gap": rc.rel_gap}))
    low, up = max(row["lower"], rc.dual_value), min(row["upper"], rc.primal_value)
    print(_fmt({"ratio_ours_to_clarabel": row["wall_s"] / wall_c,
                "brackets_overlap": low <= up * (1 + 1e-12),
                "rel_diff_upper": abs(row["upper"] - rc.primal_value) / rc.primal_value}))


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
    if sys.argv[1:2] == ["ratio"]:
        ratio(int(float(sys.argv[2])) if len(sys.argv) > 2 else 10000)
        sys.exit(0)
    if sys.argv[1:2] == ["scale"]:
        for a in sys.argv[2:] or ["100000"]:
            print(_fmt(ours(int(float(a)))), flush=True)
        sys.exit(0)
    sizes = [int(a) for a in sys.argv[1:]] or [1000, 10000]
    for m in sizes:
        row = run(m, exchange=m <= 1000)
        print("  ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                        for k, v in row.items()), flush=True)
