"""The bad-input audit, item by item: every concrete example of the audit list, re-run.

One line per item: ``PASS (what happened)`` or ``FAIL (what happened)``.  Each item runs in
a forked child process under a wall-clock budget, so a run that does not end is a FAIL of
its own item and not a hang of the audit.  Oracles are independent of the code under test
wherever the issue gives one:

* the robust SVM (item W1): exact rational evaluation (``fractions``) of
  ``base(a) <= f(a) <= g(a, PP')`` at every solver's point (Luss & d'Aspremont 2007,
  eq. (6) and its closed-form inner minimiser; see tests/test_robust_indefinite.py), and the
  optimum the issue quotes from 50-digit arithmetic;
* the hard-margin SVM (W4): a hand-written cvxpy primal ``min |w|^2/2, y(Xw + b) >= 1``
  solved tightly by Clarabel (not the library's builder);
* the SVM dual (W2, W6): scikit-learn's LIBSVM point, whose dual value is a lower bound;
* the SDPM on huge segments (W5): the optimum at tau = 1e3 equals the real line's, which
  pins it for every larger tau (tests/test_sdpm_huge_segments.py).

Run: ``OMP_NUM_THREADS=1 python benchmarks/bad_input_audit.py [--only W1a,R2c] [--scale 1]``
(about 10-20 minutes on a quiet machine; ``--scale`` multiplies every budget).
"""

from __future__ import annotations

import argparse
import gzip
import os
import subprocess
import sys
import tempfile
import time
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np

import convexkern as ck
from convexkern.formulations import krein, lp_svm, sdpm, svm
from convexkern.formulations import robust_indefinite as ri

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _audit_tools import all_ok, exact_base, exact_g, lib_error, run_item  # noqa: E402

NO_SOLUTION = (ck.Status.INFEASIBLE, ck.Status.UNBOUNDED, ck.Status.INFEASIBLE_OR_UNBOUNDED)
ITEMS: list[tuple[str, str, float, object]] = []


def item(key, title, budget=120.0):
    def deco(fn):
        ITEMS.append((key, title, budget, fn))
        return fn
    return deco


# ------------------------------------------------------------------------------- helpers
def issue_data(n=40, seed=2, shift=0.8, d=3):
    """The issue's recipe: default_rng(seed), y = +-1 alternating, X = N(0,1) + shift*y."""
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    return rng.normal(size=(n, d)) + shift * y[:, None], y


def bracket(r):
    return min(r.primal_value, r.dual_value), max(r.primal_value, r.dual_value)


def short(r):
    if r.status.has_solution:
        lo, hi = bracket(r)
        return f"{r.solver} {r.status.value} [{lo:.9g}, {hi:.9g}]"
    return f"{r.solver} {r.status.value}"


def robust_case(K0, y, rho, solvers, quoted=None, half_unit=None, tol=1e-6):
    """Every solver's bracket against the exact oracles at every solver's point, and
    against the issue's quoted optimum (+- half a unit in its last digit)."""
    K0F = [[Fraction(float(t)) for t in row] for row in K0]
    f = ri.dual(K0, y, C=1.0, rho=rho)
    runs = {}
    for s, opts in solvers.items():
        r = ck.solve(f, s, tol=tol, **opts)
        if r.status in NO_SOLUTION:
            return False, f"{s}: {r.status.value} on a feasible bounded problem"
        if "alpha" not in r.x:
            runs[s] = (r, None, None)
            continue
        a = np.asarray(r.x["alpha"])
        runs[s] = (r, exact_base(K0F, y, a, rho), exact_g(K0, K0F, y, a, rho))
    best_base = max((b for _, b, _ in runs.values() if b is not None), default=None)
    out = []
    for s, (r, _, g_up) in runs.items():
        if not r.status.has_solution:
            out.append(f"{s} {r.status.value} (no claim)")
            continue
        lo, hi = r.primal_value, r.dual_value  # the robust dual is a maximisation
        why = []
        if not lo <= hi:
            why.append("inverted")
        if g_up is not None and not Fraction(lo) <= g_up:
            why.append(f"lower {lo:.9g} > f(own point) <= {float(g_up):.9g}")
        if best_base is not None and not Fraction(hi) >= best_base:
            why.append(f"upper {hi:.9g} < a feasible point's value {float(best_base):.9g}")
        if quoted is not None and not (lo <= quoted + half_unit and hi >= quoted - half_unit):
            why.append(f"misses the issue's optimum {quoted}")
        if r.status is ck.Status.OPTIMAL and not r.rel_gap <= r.tol:
            why.append(f"optimal at rel_gap {r.rel_gap:.2g} > tol")
        if why:
            return False, f"{short(r)}: " + ", ".join(why)
        out.append(short(r))
    if best_base is not None:
        out.append(f"best exact f >= {float(best_base):.9g}")
    return True, "; ".join(out)


# ========================================================================= wrong answers
def _poly(X, scale=1.0):
    return scale * (X @ X.T + 1.0) ** 3


ROBUST_SOLVERS = {"robust_apg": {}, "scs": {}}  # SCS uncapped, as in the issue


@item("W1a", "robust, K0 = 100 (XX'+1)^3, rho = 1e6 (robust_apg, SCS; OPT 0.0126822)", 400)
def _():
    X, y = issue_data()
    return robust_case(_poly(X, 100.0), y, 1e6, ROBUST_SOLVERS, 0.0126822, 5e-8)


@item("W1b", "robust, K0 = 1e6 RBF(0.1), rho = 1 (robust_apg, SCS; OPT 1.1377e-4)", 400)
def _():
    X, y = issue_data()
    return robust_case(1e6 * ck.kernels.RBF(0.1)(X), y, 1.0, ROBUST_SOLVERS, 1.1377e-4, 5e-9)


@item("W1c", "robust, K0 = (XX'+1)^3, rho = 1e4, SCS: upper bound >= feasible values", 400)
def _():
    X, y = issue_data()
    return robust_case(_poly(X), y, 1e4, ROBUST_SOLVERS)


@item("W1d", "robust conic path (Clarabel, capped) at the three scales: valid brackets", 600)
def _():
    X, y = issue_data()
    res = []
    for name, K0, rho in (("poly x100 rho 1e6", _poly(X, 100.0), 1e6),
                          ("1e6 RBF rho 1", 1e6 * ck.kernels.RBF(0.1)(X), 1.0),
                          ("poly rho 1e4", _poly(X), 1e4)):
        ok, what = robust_case(K0, y, rho, {"clarabel": {"max_iter": 30}})
        res.append((name, (ok, what)))
    return all_ok(res)


def _no_claim(f, solver, **kw):
    r = ck.solve(f, solver, **kw)
    if r.status in NO_SOLUTION:
        return False, f"{r.status.value} on a feasible, bounded problem"
    if r.status.has_solution:
        lo, hi = bracket(r)
        if not lo <= hi:
            return False, f"inverted bracket {lo, hi}"
        if r.status is ck.Status.OPTIMAL and not r.rel_gap <= r.tol:
            return False, f"optimal at rel_gap {r.rel_gap:.2g}"
    return True, short(r) if r.status.has_solution else f"{r.status.value}: {r.message[:70]}"


def _libsvm_dual_value(K, y, C):
    """The SVM dual value at LIBSVM's point (scikit-learn): a lower bound on the optimum."""
    from sklearn.svm import SVC

    m = SVC(kernel="precomputed", C=C, tol=1e-6, max_iter=2_000_000).fit(K, y)
    a = np.zeros(len(y))
    a[m.support_] = np.abs(m.dual_coef_[0])
    a = np.clip(a, 0.0, C)
    v = y * a
    return float(a.sum() - 0.5 * v @ K @ v), abs(float(y @ a))


@item("W2a", "svm.dual, C = 3e7 and 1e12, Clarabel: no infeasible/unbounded", 300)
def _():
    X, y = issue_data(seed=0, shift=0.7)
    K = X @ X.T
    res = []
    for C in (3e7, 1e12):
        res.append((f"C={C:g}", _no_claim(svm.dual(K, y, C), "clarabel")))
    lb, viol = _libsvm_dual_value(K, y, 3e7)
    r = ck.solve(svm.dual(K, y, 3e7), "clarabel")
    if r.status.has_solution and viol < 1e-9 * 3e7:
        res.append(("upper >= LIBSVM value", (bracket(r)[1] >= lb * (1 - 1e-9),
                                             f"{bracket(r)[1]:.9g} vs {lb:.9g}")))
    return all_ok(res)


@item("W2b", "svm.primal, C = 1e12 (Clarabel, SCS): no infeasible/unbounded", 300)
def _():
    X, y = issue_data(seed=0, shift=0.7)
    f = svm.primal(X, y, 1e12)
    return all_ok([(s, _no_claim(f, s)) for s in ("clarabel", "scs")])


@item("W2c", "robust rho = 1e6, 1e7 with SCS (K0 = (XX'+1)^3 - 10 I): no false claim", 300)
def _():
    X, y = issue_data(n=20)
    K0 = _poly(X) - 10.0 * np.eye(20)
    return all_ok([(f"rho={rho:g} kscale={ks:g}", _no_claim(ri.dual(ks * K0, y, 1.0, rho), "scs"))
                   for rho in (1e6, 1e7) for ks in (1.0, 1e6)])


def _lps(scale=1.0, n=14):
    X, y = issue_data(n=n, seed=0, shift=0.7)
    return lp_svm.triplet_matrix(X, y) * scale


@item("W2d", "lp/lp_dual, C_M = 1e12 (linprog, Clarabel, SCS, HiGHS): no false claim", 300)
def _():
    A = _lps()
    return all_ok([(f"{form}/{s}", _no_claim(getattr(lp_svm, form)(A, 1e12), s))
                   for form in ("lp", "lp_dual") for s in ("linprog", "clarabel", "scs", "highs")])


@item("W2e", "nu_lp/nu_lp_dual with A x 1e12, C_rho = 1 (>= 1/M): no false claim", 300)
def _():
    A = _lps(1e12)
    return all_ok([(f"{form}/{s}", _no_claim(getattr(lp_svm, form)(A, 1.0), s))
                   for form in ("nu_lp", "nu_lp_dual")
                   for s in ("linprog", "clarabel", "scs", "highs")])


@item("W2f", "all four LPs with A x 1e150 through linprog: no false claim", 200)
def _():
    X, y = issue_data(n=14, seed=0, shift=0.7)
    A = lp_svm.triplet_matrix(X, y)
    res = []
    for form, C in (("lp", 1.0), ("lp_dual", 1.0), ("nu_lp", 1.0), ("nu_lp_dual", 1.0)):
        def run(form=form, C=C):
            return _no_claim(getattr(lp_svm, form)(A * 1e150, C), "linprog")
        ok, what = lib_error(run, "A", accept_ok=True)
        if ok and what.startswith("no error"):
            ok, what = run()
        res.append((form, (ok, what)))
    return all_ok(res)


def _rotations(sel=((1, 8), (7, 8))):
    from convexkern import transforms
    from convexkern.data import load_usps

    ds = load_usps("train")
    (a, na), (b, nb) = sel
    idx = np.concatenate([np.flatnonzero(ds.y == a)[:na], np.flatnonzero(ds.y == b)[:nb]])
    return transforms.rotation_trajectories(ds.X[idx]), np.where(ds.y[idx] == a, 1.0, -1.0)


@item("W2g", "sdpm soft C = 1e12 (Clarabel, SCS; USPS 1 vs 7 rotations): no false claim", 400)
def _():
    Xt, y = _rotations()
    f = sdpm.primal(Xt, y, 0.35, 1e12)
    return all_ok([(s, _no_claim(f, s)) for s in ("clarabel", "scs")])


@item("W2h", "krein shift C = 1e12 (Clarabel, SCS, trik, smo): no false claim", 300)
def _():
    X, y = issue_data(n=20, seed=0, shift=0.7)
    f = krein.stabilization(np.tanh(0.5 * X @ X.T - 1.0), y, 1e12, "shift")
    return all_ok([(s, _no_claim(f, s, time_limit=60)) for s in ("clarabel", "scs", "trik",
                                                                 "smo")])


@item("W3", "svm.primal(X, y, None) with SMO on non-separable data: infeasible", 120)
def _():
    X, y = issue_data(seed=0, shift=0.2)
    r = ck.solve(svm.primal(X, y, None), "smo")
    ok = r.status is ck.Status.INFEASIBLE
    return ok, f"{r.status.value}, primal_value {r.primal_value}"


@item("W4", "separable data, HiGHS at C = 1e4: tight bracket holding the hard-margin optimum",
      200)
def _():
    import cvxpy as cp

    rng = np.random.default_rng(1)
    X = np.vstack([rng.normal(size=(20, 2)) + 3.0, rng.normal(size=(20, 2)) - 3.0])
    y = np.r_[np.ones(20), -np.ones(20)]
    w, b = cp.Variable(2), cp.Variable()
    hard = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w)), [cp.multiply(y, X @ w + b) >= 1])
    hard.solve(solver="CLARABEL", tol_gap_abs=1e-12, tol_gap_rel=1e-12, tol_feas=1e-12)
    opt = hard.value  # the hard-margin optimum = the C = 1e4 optimum if no alpha hits C
    r = ck.solve(svm.dual(X @ X.T, y, 1e4), "highs")
    lo, hi = bracket(r)
    ok = (r.status is ck.Status.OPTIMAL and lo <= opt * (1 + 1e-9) and hi >= opt * (1 - 1e-9)
          and (hi - lo) <= 1e-6 * abs(hi))
    return ok, f"{short(r)}, hard-margin optimum (own cvxpy primal) {opt:.10g}"


@item("W5", "SDPM exchange and Clarabel on huge segments tau = 1e6, 1e12 (USPS 1 vs 9)", 900)
def _():
    X, y = _rotations(((1, 6), (9, 6)))
    res = []
    for C in (None, 0.01):
        r3 = ck.solve(sdpm.primal(X, y, 1e3, C), "clarabel", tol=1e-8)
        rR = ck.solve(sdpm.primal(X, y, None, C), "clarabel", tol=1e-8)
        lo_p, hi_p = r3.dual_value, rR.primal_value  # opt(tau >= 1e3) in [lo_p, hi_p]
        if not (r3.status.has_solution and rR.status.has_solution and lo_p <= hi_p
                and hi_p - lo_p <= 1e-7 * hi_p):
            return False, f"could not pin the optimum (C={C}): {short(r3)}, {short(rR)}"
        for tau in (1e6, 1e12):
            for s, kw in (("exchange", {"tol": 1e-7}), ("clarabel", {"tol": 1e-9})):
                r = ck.solve(sdpm.primal(X, y, tau, C), s, **kw)
                key = f"C={C} tau={tau:g} {s}"
                if r.status in NO_SOLUTION:  # every instance here is feasible
                    res.append((key, (False, f"{r.status.value} on a feasible problem")))
                    continue
                if not r.status.has_solution:
                    res.append((key, (True, r.status.value)))
                    continue
                ok = r.dual_value <= hi_p * (1 + 1e-9) and r.primal_value >= lo_p * (1 - 1e-9)
                if r.status is ck.Status.OPTIMAL:
                    ok = ok and r.rel_gap <= kw["tol"]
                res.append((key, (ok, f"{short(r)} vs OPT in [{lo_p:.9g}, {hi_p:.9g}]")))
    return all_ok(res)


@item("W5b", "hard-margin SDPM at tau = 1e6 with SCS (reported false 'infeasible')", 400)
def _():
    X, y = _rotations(((1, 6), (9, 6)))
    return _no_claim(sdpm.primal(X, y, 1e6, None), "scs")


@item("W6", "Clarabel certifies |opt| ~ 3e-4; below 1e-9 the report says the gap is absolute",
      200)
def _():
    X, y = issue_data(n=30, seed=0, shift=0.7)
    K = X @ X.T
    res = []
    f = svm.dual(K, y, 1e-5)
    r = ck.solve(f, "clarabel")
    lb, _ = _libsvm_dual_value(K, y, 1e-5)
    ok = (r.status is ck.Status.OPTIMAL and r.rel_gap <= r.tol
          and bracket(r)[1] >= lb * (1 - 1e-12))
    res.append(("|opt|~3e-4", (ok, f"{short(r)} rel_gap {r.rel_gap:.2g}; LIBSVM {lb:.9g}")))
    r = ck.solve(svm.dual(K, y, 1e-12), "clarabel")
    says = "absolute" in (r.message or "")
    res.append(("|opt|~3e-11", (says or r.status is not ck.Status.OPTIMAL,
                                f"{short(r)}; message: {r.message[:80]!r}")))
    return all_ok(res)


# ======================================================================= runs that end
def _x300(C):
    X, y = issue_data(n=300, seed=0, shift=0.7)
    return svm.dual(ck.kernels.RBF(0.5)(X), y, C)


@item("R1a", "SMO on svm.dual(rbf(X300), y, 1e12) ends (budget 300 s)", 300)
def _():
    r = ck.solve(_x300(1e12), "smo")
    return r.status is not ck.Status.OPTIMAL or r.rel_gap <= r.tol, \
        f"{short(r)}, {r.iterations} iterations, {r.wall_time:.0f} s"


@item("R1b", "SMO on svm.dual(rbf(X300), y, 1e6) ends (budget 300 s)", 300)
def _():
    r = ck.solve(_x300(1e6), "smo")
    return True, f"{short(r)}, {r.iterations} iterations, {r.wall_time:.0f} s"


@item("R1d", "SMO, no max_iter, non-separable X300 (RBF(0.05), overlap 0.2), C = 1e12: ends",
      900)
def _():
    X, y = issue_data(n=300, seed=0, shift=0.2)
    r = ck.solve(svm.dual(ck.kernels.RBF(0.05)(X), y, 1e12), "smo")
    ok = r.status is not ck.Status.OPTIMAL or r.rel_gap <= r.tol
    return ok, f"{short(r)}, {r.iterations} iterations, {r.wall_time:.0f} s: {r.message[:60]}"


@item("R1c", "SVMClassifier(C=1e12).fit(X300) with its default solver ends (budget 300 s)", 300)
def _():
    from convexkern.estimators import SVMClassifier

    X, y = issue_data(n=300, seed=0, shift=0.7)
    t0 = time.perf_counter()
    try:
        m = SVMClassifier(C=1e12).fit(X, y)
        what = f"fitted: {m.report_.status.value}" if hasattr(m, "report_") else "fitted"
    except ck.ConvexkernError as exc:
        what = f"{type(exc).__name__}: {str(exc)[:80]}"
    return True, f"{what} in {time.perf_counter() - t0:.0f} s"


def _robust100(n=100, seed=0):
    X, y = issue_data(n=n, seed=seed, shift=0.7)
    return ri.dual(_poly(X) - 0.5 * np.eye(n), y, 1.0, 1.0)


@item("R2a", "robust_pg and robust_accpm at tol = 1e-16 (n = 100): refused or end (300 s)", 300)
def _():
    f = _robust100()
    res = []
    for s in ("robust_pg", "robust_accpm"):
        ok, what = lib_error(lambda s=s: ck.solve(f, s, tol=1e-16), "tol", accept_ok=True)
        res.append((s, (ok, what)))
    return all_ok(res)


def _robust_floor(s):
    t0 = time.perf_counter()
    r = ck.solve(_robust100(), s, tol=1e-14)
    return True, f"{short(r)}, {r.iterations} iterations in {time.perf_counter() - t0:.0f} s"


@item("R2b", "robust_pg at tol = 1e-14 (the floor), n = 100, no limits: ends (300 s)", 300)
def _():
    return _robust_floor("robust_pg")


@item("R2c", "robust_accpm at tol = 1e-14 (the floor), n = 100, no limits: ends (300 s)", 300)
def _():
    return _robust_floor("robust_accpm")


@item("R2d", "robust_apg at n = 16 over kernel scales 1e-4..1e6, rho 1e-2..1e6: each < 30 s",
      600)
def _():
    X, y = issue_data(n=16, seed=0, shift=0.7)
    worst, slow = (0.0, ""), []
    for ks in (1e-4, 1.0, 1e3, 1e6):
        for rho in (1e-2, 1.0, 1e4, 1e6):
            f = ri.dual(ks * (_poly(X) - 2.0 * np.eye(16)), y, 1.0, rho)
            t0 = time.perf_counter()
            r = ck.solve(f, "robust_apg")
            dt = time.perf_counter() - t0
            if dt > worst[0]:
                worst = (dt, f"kscale {ks:g} rho {rho:g}: {short(r)}")
            if dt > 30:
                slow.append(f"kscale {ks:g} rho {rho:g} {dt:.0f} s")
    return not slow, (f"slow: {slow}" if slow else
                      f"slowest {worst[0]:.1f} s ({worst[1]})")


@item("R3a", "ck.compare(f), robust n = 150: Clarabel's n x n PSD row skipped, saying why", 600)
def _():
    f = _robust100(150)
    rows = list(ck.compare(f, time_limit=60))
    skipped = {r.solver: r.message for r in rows if r.status.value == "skipped"}
    ok = "clarabel" in skipped and all("reach" in m for m in skipped.values())
    named = ck.compare(f, ["clarabel"], max_iter=1)  # naming it forces it
    ok = ok and all(r.status.value != "skipped" for r in named)
    return ok, (f"{len(rows)} rows ({', '.join(f'{r.solver} {r.status.value}' for r in rows)}); "
                f"skipped: {skipped.get('clarabel', '')[:70]!r}; named: "
                f"{[r.status.value for r in named]}")


@item("R3b", "ck.compare(f) with default solvers and no limits, robust n = 150: ends (900 s)",
      900)
def _():
    f = _robust100(150)
    times = {}
    t0 = time.perf_counter()

    def progress(name, r):
        times[name] = round(time.perf_counter() - t0)

    rows = ck.compare(f, progress=progress)
    return True, f"{[(r.solver, r.status.value) for r in rows]}, cumulative s {times}"


# ==================================================================== foreign exceptions
def _svm_small(n=12):
    X, y = issue_data(n=n, seed=0, shift=0.7)
    return X, y, svm.dual(X @ X.T, y, 1.0)


@item("F1", "time_limit=1e-9 with SMO (svm, krein): a report or a library error", 120)
def _():
    X, y, f = _svm_small()
    fk = krein.stabilization(np.tanh(0.5 * X @ X.T - 1.0), y, 1.0, "shift")
    res = []
    for name, g in (("svm smo", f), ("krein smo", fk)):
        ok, what = lib_error(lambda g=g: ck.solve(g, "smo", time_limit=1e-9), "time_limit",
                             accept_ok=True)
        res.append((name, (ok, what)))
    return all_ok(res)


BLOBS_TOML = """name = "t"
[data]
generator = "blobs"
n_samples = {n}
seed = {seed}
centers = [[-1.5, 0.0], [1.5, 0.0]]
{data_extra}
[split]
test_size = 0.25
seed = 0
[kernel]
name = "rbf"
gamma = 0.5
[formulation]
name = "svm.dual"
C = 1.0
{form_extra}
[solve]
solvers = ["smo"]
{solve_extra}
"""


def _cli(*argv, spec=None, **fmt):
    with tempfile.TemporaryDirectory() as d:
        args = list(argv)
        if spec is not None:
            p = Path(d) / "s.toml"
            kw = {"n": 40, "seed": 1, "data_extra": "", "form_extra": "", "solve_extra": ""}
            kw.update(fmt)
            p.write_text(BLOBS_TOML.format(**kw))
            args = [a if a != "SPEC" else str(p) for a in args]
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
        cp_ = subprocess.run([sys.executable, "-m", "convexkern", *args], capture_output=True,
                             text=True, env=env, timeout=300, cwd=d)
    return cp_.returncode, cp_.stdout, cp_.stderr


def _cli_clean(code, out, err, want_code=None, words=None):
    foreign = "Traceback" in err
    ok = not foreign and (want_code is None or code == want_code) and (
        words is None or words in err + out)
    last = (err.strip().splitlines() or out.strip().splitlines() or [""])[-1]
    return ok, f"exit {code}: {last[:110]}"


@item("F1b", "CLI --time-limit 1e-9 and [solve] time_limit = 1e-9 with SMO: no traceback", 200)
def _():
    res = [("--time-limit", _cli_clean(*_cli("solve", "SPEC", "--solver", "smo",
                                             "--time-limit", "1e-9", spec=True))),
           ("[solve] time_limit", _cli_clean(*_cli("solve", "SPEC", spec=True,
                                                   solve_extra="time_limit = 1e-9")))]
    return all_ok(res)


@item("F2", "unknown solver keyword foo=1 (smo, clarabel, scs, robust_apg, linprog): options")
def _():
    X, y, f = _svm_small()
    fr = ri.dual(_poly(X), y, 1.0, 1.0)
    fl = lp_svm.lp(_lps(), 1.0)
    return all_ok([(s, lib_error(lambda g=g, s=s: ck.solve(g, s, foo=1), "options"))
                   for s, g in (("smo", f), ("clarabel", f), ("scs", f), ("robust_apg", fr),
                                ("linprog", fl))])


@item("F3", "bad option values eig=, step=, linprog method=, form=: library errors naming them")
def _():
    X, y, _ = _svm_small()
    fr = ri.dual(_poly(X), y, 1.0, 1.0)
    fl = lp_svm.lp(_lps(), 1.0)
    return all_ok([
        ("eig", lib_error(lambda: ck.solve(fr, "robust_apg", eig="bogus"), "eig")),
        ("step", lib_error(lambda: ck.solve(fr, "robust_pg", step="bogus"), "step")),
        ("method", lib_error(lambda: ck.solve(fl, "linprog", method="bogus"), "method")),
        ("form", lib_error(lambda: ck.solve(fl, "linprog", form="bogus"), "form")),
    ])


@item("F4", "ck.compare(f, 5); ck.path(f, 'C', None | 1.0 | [[1, 2]] | ['a'])")
def _():
    _, _, f = _svm_small()
    res = [("compare(f, 5)", lib_error(lambda: ck.compare(f, 5), "solvers"))]
    for v in (None, 1.0, [[1, 2]], ["a"]):
        res.append((f"path {v!r}", lib_error(lambda v=v: ck.path(f, "C", v, "clarabel"),
                                             "values")))
    return all_ok(res)


@item("F5", "ri.objective/gradient/inner_kernel with a wrong-length alpha; predict_kernel(K0,'a')")
def _():
    X, y, _ = _svm_small()
    K0 = _poly(X)
    a = np.full(5, 0.1)
    res = [(fn.__name__, lib_error(lambda fn=fn: fn(K0, y, a, 1.0), "alpha"))
           for fn in (ri.objective, ri.gradient, ri.inner_kernel)]
    res.append(("predict_kernel", lib_error(
        lambda: ri.predict_kernel(K0, "a", y, np.full(12, 0.1), 1.0), "n_train")))
    return all_ok(res)


@item("F6", "triplet_matrix(X*1e200), LPMahalanobis(scale=False), None/mixed labels, "
            "check_theorem_3(A, ())")
def _():
    from convexkern.estimators import LPMahalanobis, SVMClassifier
    from convexkern.verify.lp_svm import check_theorem_3

    X, y = issue_data(n=14, seed=0, shift=0.7)
    res = [("triplet_matrix", lib_error(lambda: lp_svm.triplet_matrix(X * 1e200, y), "X")),
           ("LPMahalanobis", lib_error(lambda: LPMahalanobis(scale=False).fit(X * 1e200, y),
                                       "X"))]
    for bad in ([1, None] * 7, [1, "a"] * 7):
        res.append((f"svm.dual y={bad[:2]}", lib_error(lambda b=bad: svm.dual(X @ X.T, b), "y")))
        res.append((f"SVMClassifier y={bad[:2]}",
                    lib_error(lambda b=bad: SVMClassifier().fit(X, b), "y")))
        res.append((f"triplets y={bad[:2]}", lib_error(lambda b=bad: lp_svm.triplets(X, b), "y")))
    res.append(("check_theorem_3", lib_error(lambda: check_theorem_3(_lps(), ()), "C_values")))
    return all_ok(res)


@item("F7", "sdpm.certificate with wrong shapes; primal_multi(X0, 'J', H, y)")
def _():
    rng = np.random.default_rng(3)
    Xt, y = rng.normal(size=(10, 3, 2)), np.array([1.0, -1.0] * 5)
    X0, H = rng.normal(size=(10, 2)), rng.normal(size=(10, 1, 1, 2))
    return all_ok([
        ("w (3,)", lib_error(lambda: sdpm.certificate(Xt, y, w=np.ones(3)), "w")),
        ("mu (9,3)", lib_error(lambda: sdpm.certificate(Xt, y, mu=np.ones((9, 3))), "mu")),
        ("y[:9]", lib_error(lambda: sdpm.certificate(Xt, y[:9], w=np.ones(2)), "y")),
        ("primal_multi J='J'", lib_error(lambda: sdpm.primal_multi(X0, "J", H, y), "J")),
    ])


@item("F8", "to_krein(..., 'x'); check_equivalence / decision_function with mismatched sizes")
def _():
    from convexkern.verify import krein as vk

    X = np.random.default_rng(6).normal(size=(10, 2))
    y = np.array([1.0, -1.0] * 5)
    K = np.tanh(X @ X.T - 0.5)
    f = krein.stabilization(K, y, 1.0, "shift")
    r = ck.solve(f, "clarabel")
    at, b = r.x["alpha"], float(r.x["b"])
    sol = krein.to_krein(f, y, at, b)
    dec = f.data["decomposition"]
    return all_ok([
        ("to_krein C='x'", lib_error(lambda: krein.to_krein(f, y, at, b, "x"), "C")),
        ("check_equivalence y[:5]", lib_error(
            lambda: vk.check_equivalence(dec, y[:5], at, sol.alpha, b), "y")),
        ("check_equivalence alpha[:5]", lib_error(
            lambda: vk.check_equivalence(dec, y, at, sol.alpha[:5], b), "alpha")),
        ("decision_function K[:, :5]", lib_error(
            lambda: krein.decision_function(K[:, :5], y, sol.alpha, b), "K_eval")),
        ("decision_function alpha[:5]", lib_error(
            lambda: krein.decision_function(K, y, sol.alpha[:5], b), "alpha")),
    ])


@item("F9", "KreinSVC(C=1e12, solver='clarabel').fit; SDPMClassifier.fit(sparse X)", 300)
def _():
    import scipy.sparse as sp

    from convexkern.estimators import KreinSVC, SDPMClassifier

    X, y = issue_data(n=30, seed=0, shift=0.7)
    def krein_svc():
        try:
            KreinSVC(C=1e12, solver="clarabel").fit(X, y)
        except ck.SolverError as exc:  # a library error naming the solver, suggesting others
            return "try another solver (solver=...)" in str(exc), f"SolverError: {exc}"[:140]
        except Exception as exc:  # noqa: BLE001
            return False, f"FOREIGN {type(exc).__name__}: {exc}"[:140]
        return True, "fitted"

    res = [("KreinSVC", krein_svc()),
           ("SDPMClassifier sparse", lib_error(
               lambda: SDPMClassifier().fit(sp.csr_matrix(X), y), "X"))]
    return all_ok(res)


@item("F10", "load_csv: non-UTF-8, .gz not gzip, truncated .gz, delimiter='\\n' / '\"'")
def _():
    from convexkern.data import load_csv

    good = b"a,b,c\n1,2,1\n3,4,-1\n"
    res = []
    with tempfile.TemporaryDirectory() as d:
        for name, raw, arg, kw in (("latin.csv", b"a,b,c\n1,2,\xff\n3,4,-1\n", "path", {}),
                                   ("plain.csv.gz", good, "path", {}),
                                   ("cut.csv.gz", gzip.compress(good * 50)[:-20], "path", {}),
                                   ("ok.csv", good, "delimiter", {"delimiter": "\n"}),
                                   ("ok2.csv", good, "delimiter", {"delimiter": '"'})):
            p = Path(d) / name
            p.write_bytes(raw)
            res.append((f"{name} {kw}", lib_error(lambda p=p, kw=kw: load_csv(p, **kw), arg)))
    return all_ok(res)


@item("F11", "CLI: [data] seed = 2**40, reproduce --seed -1, n_samples = 200000, non-UTF-8 CSV",
      300)
def _():
    res = [("seed 2**40", _cli_clean(*_cli("solve", "SPEC", spec=True, seed=2**40),
                                     words="data.seed")),
           ("--seed -1", _cli_clean(*_cli("reproduce", "luss2007", "--quick", "--seed", "-1"),
                                    want_code=2, words="--seed")),
           ("n_samples", _cli_clean(*_cli("solve", "SPEC", spec=True, n=200000),
                                    words="GiB"))]
    with tempfile.TemporaryDirectory() as d:
        csv = Path(d) / "latin.csv"
        csv.write_bytes(b"x1,x2,y\n1,2,1\n3,4,\xff\n5,6,-1\n")
        spec = Path(d) / "c.toml"
        spec.write_text(f'name = "c"\n[data]\ncsv = "{csv}"\n[kernel]\nname = "linear"\n'
                        '[formulation]\nname = "svm.dual"\nC = 1.0\n')
        res.append(("non-UTF-8 CSV", _cli_clean(*_cli("solve", str(spec)), words="data.csv")))
    return all_ok(res)


@item("F12", "misleading names: x0, delimiter='\"', psd_check='no', lam=+1e-9, cvxpy warning")
def _():
    from convexkern.specs import load_spec

    X, y, f = _svm_small()
    res = [("x0", lib_error(lambda: ck.solve(f, "smo", x0={"alpha": np.ones(5)}), "x0['alpha']"))]
    spec = {"name": "t", "data": {"generator": "blobs", "n_samples": 40, "seed": 1,
                                  "centers": [[-1.5, 0.0], [1.5, 0.0]]},
            "kernel": {"name": "rbf", "gamma": 0.5},
            "formulation": {"name": "svm.dual", "C": 1.0, "psd_check": "no"}}
    res.append(("psd_check='no'", lib_error(lambda: load_spec(spec), "formulation.psd_check")))
    K = X @ X.T + np.eye(12)
    res.append(("lam=+1e-9", lib_error(
        lambda: krein.stabilization(K, y, 1.0, "shift", lam=1e-9), "lam")))
    # cvxpy's "Solution may be inaccurate" warning: SCS capped at 5 iterations
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        ck.solve(f, "scs", max_iter=5)
    leaked = [str(w.message)[:60] for w in rec if "inaccurate" in str(w.message)
              and "cvxpy" in (w.filename or "")]
    res.append(("cvxpy warning", (not leaked, f"leaked: {leaked}" if leaked else "none leaked")))
    return all_ok(res)


# ================================================================================ listing
@item("L1", "available_solvers(krein flip) lists only solvers that apply (no trik-krein)", 300)
def _():
    X, y = issue_data(n=16, seed=0, shift=0.7)
    f = krein.stabilization(np.tanh(0.5 * X @ X.T - 1.0), y, 1.0, "flip")
    names = ck.available_solvers(f)
    bad = []
    for s in names:
        r = ck.solve(f, s, time_limit=60)
        if r.status is ck.Status.ERROR:
            bad.append(f"{s}: {r.message[:60]}")
    ok = "trik-krein" not in names and not bad
    return ok, f"listed {names}" + (f"; error: {bad}" if bad else "; every one answered")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default="", help="comma-separated item keys")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every budget")
    args = ap.parse_args(argv)
    only = {k for k in args.only.split(",") if k}
    fails = 0
    for key, title, budget, fn in ITEMS:
        if only and key not in only:
            continue
        ok, what, dt = run_item(fn, budget * args.scale)
        fails += not ok
        print(f"{key:4s} {'PASS' if ok else 'FAIL'} {title}\n      ({what}) [{dt:.0f} s]",
              flush=True)
    print(f"{fails} FAIL" if fails else "all PASS")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
