"""Benchmark: the generic certificate on public LP / QP test sets with published optima.

What it measures
----------------
Two public test sets nobody on this project wrote, shipped in
``convexkern/data/public/`` (sources, commits and published values in its ``README.md``):

* ``netlib``: 17 small Netlib LPs (MPS), optimal values from the Netlib ``lp/data``
  readme (MINOS 5.3, 11 digits);
* ``maros_meszaros``: 16 small Maros-Meszaros convex QPs (QPS), optimal values from the
  set's ``00README.QP`` (BPMPD, 8 digits);
* ``sdplib``: 14 small SDPLIB 1.2 SDPs (SDPA sparse format), each in SDPA's primal form
  (``truss1:primal``, an LMI in x) and dual form (``truss1:dual``, PSD matrices), optimal
  values from SDPLIB's table (SDPA, 3-7 digits).

For every instance the script

1. reads the shipped file with :mod:`convexkern.data.mps` and builds a ``cvxpy.Problem``;
2. checks the reader: one plain ``problem.solve(solver="CLARABEL")`` against the published
   optimum (relative difference; "matches" when within ``1e-6``);
3. for every conic solver convexkern offers for it (``ck.available_solvers(f)`` within
   ``convexkern.solvers.table.CONIC``) runs ``ck.solve(f, solver, time_limit=60)`` on a
   freshly read problem, in a worker process (a hung or crashed solver cannot stop the
   run: the worker is killed after ``HARD_TIMEOUT_S`` and restarted), and records status,
   primal, dual, rel_gap, message, native status, wall time and whether the certified
   bracket ``[min(p, d), max(p, d)]`` holds the reference optimum.

Reference and slack
-------------------
The reference is the published optimum, except where independent high-accuracy solves
show the published digits to be wrong by more than the slack (``REFINED``: SCAGR7, whose
MINOS 5.3 value is superseded in the same Netlib readme by the CPLEX value; QSC205, whose
BPMPD value is 2.9e-7 relative off), or where a feasible point refutes it (``AT_MOST``:
SDPLIB's hinf5, whose optimum is at most 362.2437 against the printed 3.63e+02; only lower
bounds are checked there).  Rows keep both values and flag a bracket that misses only the
published one.  Each finite side of the bracket is checked on its own (a lower
bound must not exceed the reference, an upper bound must not fall below it) with the
slack ``1e-7 * |reference|`` plus half a unit of the last published digit (the published
values are rounded; this also gives TAME, optimum 0, a slack of 5e-8).

Pairs are classified as in ``benchmarks/certify_cvxpy_standard.py`` (its functions are
reused): ``certified``, ``inaccurate``, ``false claim``, ``wrong bracket``, ``error``,
``exception``.  An instance whose plain solve takes over 60 s is skipped and listed; a pair
over 60 s is listed.

Usage::

    python benchmarks/public_sets/run.py [--sets netlib,maros_meszaros,sdplib]
        [--instances afiro,HS21] [--solvers clarabel,scs] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import re
import sys
import time
import warnings
from collections import Counter
from dataclasses import asdict, dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import cvxpy as cp  # noqa: E402
from certify_cvxpy_standard import (  # noqa: E402
    _NUMBER,
    NO_SOLUTION,
    Outcome,
    _jsonable,
    check_bracket,
    classify,
    fmt,
    off_tol,
    pair_alerts,
    record,
    short,
)

import convexkern as ck  # noqa: E402
from convexkern.data.mps import build_problem, public_file, read_mps  # noqa: E402
from convexkern.data.sdpa import build_problem as build_sdpa  # noqa: E402
from convexkern.data.sdpa import read_sdpa  # noqa: E402
from convexkern.solvers.table import CONIC  # noqa: E402

TIME_LIMIT_S = 60.0
HARD_TIMEOUT_S = 100.0   # the worker is killed when a pair gives no answer by then
RELATIVE_SLACK = 1e-7
READER_MATCH = 1e-6

#: published optima as printed (the string gives the rounding unit)
NETLIB: dict[str, str] = {
    "afiro": "-4.6475314286E+02",
    "sc50a": "-6.4575077059E+01",
    "sc50b": "-7.0000000000E+01",
    "adlittle": "2.2549496316E+05",
    "blend": "-3.0812149846E+01",
    "sc105": "-5.2202061212E+01",
    "kb2": "-1.7499001299E+03",
    "stocfor1": "-4.1131976219E+04",
    "share2b": "-4.1573224074E+02",
    "scagr7": "-2.3313892548E+06",
    "recipe": "-2.6661600000E+02",
    "boeing2": "-3.1501872802E+02",
    "israel": "-8.9664482186E+05",
    "vtp.base": "1.2983146246E+05",
    "sc205": "-5.2202061212E+01",
    "beaconfd": "3.3592485807E+04",
    "bandm": "-1.5862801845E+02",
}
MAROS_MESZAROS: dict[str, str] = {
    "HS21": "-9.9960000e+01",
    "HS35": "1.1111111e-01",
    "HS76": "-4.6818182e+00",
    "HS118": "6.6482045e+02",
    "GENHS28": "9.2717369e-01",
    "ZECEVIC2": "-4.1250000e+00",
    "TAME": "0.0000000e+00",
    "QPTEST": "4.3718750e+00",
    "LOTSCHD": "2.3984159e+03",
    "QAFIRO": "-1.5907818e+00",
    "DUAL1": "3.5012966e-02",
    "DUAL2": "3.3733676e-02",
    "DUAL4": "7.4609084e-01",
    "PRIMALC1": "-6.1552508e+03",
    "QSC205": "-5.8139518e-03",
    "QSHARE2B": "1.1703692e+04",
}
#: SDPLIB 1.2's published values (SDPA's sign convention), each instance in SDPA's
#: primal form (P, an LMI in x) and dual form (D, PSD matrices)
_SDPLIB = {"control1": "1.778463e+01", "control2": "8.300000e+00", "hinf1": "2.0326e+00",
           "hinf2": "1.0967e+01", "hinf3": "5.69e+01", "hinf4": "2.74764e+02",
           "hinf5": "3.63e+02", "truss1": "-8.999996e+00", "truss2": "-1.233804e+02",
           "truss3": "-9.109996e+00", "truss4": "-9.009996e+00", "theta1": "2.300000e+01",
           "qap5": "-4.360e+02", "mcp100": "2.261574e+02"}
SDPLIB: dict[str, str] = {f"{k}:{form}": v for k, v in _SDPLIB.items()
                          for form in ("primal", "dual")}
SETS: dict[str, tuple[str, str, dict[str, str]]] = {
    "netlib": ("netlib", "mps", NETLIB),
    "maros_meszaros": ("maros_meszaros", "QPS", MAROS_MESZAROS),
    "sdplib": ("sdplib", "dat-s", SDPLIB),
}
#: references where the published digits are off by more than the slack
REFINED: dict[str, tuple[str, str]] = {
    "scagr7": ("-2.3313898243E+06",
               "CPLEX(Sparc) column of the same Netlib readme; HiGHS and Clarabel at "
               "tol 1e-13 both give -2331389.824331 here"),
    "QSC205": ("-5.813953488e-03",
               "Clarabel (tol 1e-13) and OSQP (eps 1e-11, polished) agree to 1e-9 "
               "relative; = -0.25/43; the published BPMPD value is 2.9e-7 relative off"),
}


_REASON = re.compile(r"no certified (lower|upper) bound: (.*?)"
                     r"(?=; (?:no certified|certified relative|re-solved)|$)", re.S)


def reasons_of(message: str) -> list[str]:
    """The 'no certified lower/upper bound: ...' reasons of a message, with indices, the
    data cvxpy prints for a constraint and numbers masked (the messages name entries as
    ``'x'[12]``, which the standard benchmark's version cuts at the bracket); the
    message's first clause when it gives none."""
    found = _REASON.findall(message)
    if not found:
        clauses = [c.strip() for c in message.split(";")
                   if c.strip() and c.strip() != "generic certificate"]
        head = clauses[0] if clauses else "(no reason given in the message)"
        return [_NUMBER.sub("#", head)[:140]]
    out = []
    for side, why in found:
        why = re.sub(r"\((?:reshape|\[).*?\)\[", "(...)[", " ".join(why.split()))
        why = re.sub(r"\[[0-9, ]*\]", "[#]", why)
        out.append(f"{side}: {_NUMBER.sub('#', why.strip())[:140]}")
    return out


def half_unit(text: str) -> float:
    """Half a unit of the last digit of a published value (``-7.0000000000E+01``: 5e-10)."""
    return 0.5 * 10.0 ** Decimal(text).as_tuple().exponent


@dataclass(kw_only=True)
class Row(Outcome):
    set: str
    problem: str
    solver: str
    published: float
    reference: float
    slack: float
    expected_status: str = "optimal"
    sense: str = "minimize"
    misses_published_only: bool = False


@dataclass
class Check:
    """The reader check of one instance: plain Clarabel through cvxpy."""

    set: str
    problem: str
    size: str
    published: float
    reference: float
    plain_status: str = ""
    plain_value: float = math.nan
    rel_diff_published: float = math.nan
    rel_diff_reference: float = math.nan
    matches: bool = False
    wall_s: float = math.nan
    solvers: list[str] = field(default_factory=list)
    skipped: str = ""


#: instances whose published value is refuted by a feasible point: the optimum is at most
#: the value given, so only lower bounds are checked against it (an upper bound may be
#: anywhere above the unknown optimum)
AT_MOST: dict[str, tuple[str, str]] = {
    "hinf5": ("3.622436533e+02",
              "SDPLIB prints 3.63e+02, but x = Clarabel's multipliers of the dual form "
              "is strictly feasible for SDPA's (P) (lambda_min of the blocks 8.1e-7, "
              "4.5e-6, 6.6e-6) with c'x = 362.24365325: both forms' optima are at most "
              "that; (D) has no strictly feasible point, so no finite lower bound exists"),
}


def instance_path(set_name: str, name: str) -> Path:
    folder, ext, _ = SETS[set_name]
    return public_file(f"{folder}/{name.split(':')[0]}.{ext}")


def read(set_name: str, name: str) -> tuple[cp.Problem, str]:
    """The instance as a cvxpy problem (an SDPLIB name carries its form: ``truss1:dual``)
    and its size."""
    path = instance_path(set_name, name)
    if set_name == "sdplib":
        data = read_sdpa(path)
        return build_sdpa(data, name.split(":")[1]), data.size()
    mdata = read_mps(path)
    return build_problem(mdata)[0], mdata.size()


def reference_of(set_name: str, name: str) -> tuple[float, float, float]:
    """(published, reference, slack) of an instance."""
    text = SETS[set_name][2][name]
    published = float(text)
    ref_text = REFINED.get(name, AT_MOST.get(name.split(":")[0], (text, "")))[0]
    reference = float(ref_text)
    slack = RELATIVE_SLACK * abs(reference) + max(half_unit(text), half_unit(ref_text))
    return published, reference, slack


def load(set_name: str, name: str) -> cp.Problem:
    return read(set_name, name)[0]


def run_pair(set_name: str, name: str, solver: str) -> Row:
    """One ``ck.solve`` on a freshly read problem (runs in the worker process)."""
    published, reference, slack = reference_of(set_name, name)
    row = Row(set=set_name, problem=name, solver=solver, published=published,
              reference=reference, slack=slack)
    t0 = time.perf_counter()
    try:
        f = ck.from_cvxpy(load(set_name, name), name)
        row.sense = f.sense
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = ck.solve(f, solver, time_limit=TIME_LIMIT_S)
    except Exception as exc:  # noqa: BLE001 - every failure is a data point here
        row.wall_s = time.perf_counter() - t0
        row.status = f"exception: {type(exc).__name__}: {short(exc, 160)}"
        row.category = "exception"
        return row
    row.wall_s = time.perf_counter() - t0
    record(row, r, row.sense)
    at_most = name.split(":")[0] in AT_MOST
    row.bracket_holds, row.miss = check_bracket(
        row.lower, math.inf if at_most else row.upper, reference, slack)
    if row.bracket_holds and reference != published:
        held, _ = check_bracket(row.lower, row.upper, published,
                                RELATIVE_SLACK * abs(published) + half_unit(
                                    SETS[set_name][2][name]))
        row.misses_published_only = held is False
    row.caught_claim = row.status == "error" and any(
        f"said '{w}'" in r.message for w in NO_SOLUTION)
    row.category = classify(row)
    if row.category != "certified":
        row.reasons = reasons_of(r.message)
    return row


# --------------------------------------------------------------------------- worker
def _worker(conn: Any) -> None:
    while True:
        task = conn.recv()
        if task is None:
            return
        conn.send(asdict(run_pair(*task)))


class Worker:
    """A worker process that runs pairs; killed and replaced when one hangs or dies.

    It is started by a fork server, not forked from this process: a plain fork after this
    process has run Clarabel (the reader check) leaves the child's Clarabel waiting on
    threads the fork did not copy (seen with Clarabel 0.11 on control2's dual form: the
    phase-one solve hung until the hard timeout)."""

    def __init__(self) -> None:
        self.proc: Any = None
        self.conn: Any = None

    def start(self) -> None:
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(["convexkern", "cvxpy"])
        parent, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker, args=(child,), daemon=True)
        self.proc.start()
        self.conn = parent

    def run(self, set_name: str, name: str, solver: str) -> Row:
        if self.proc is None or not self.proc.is_alive():
            self.start()
        t0 = time.perf_counter()
        self.conn.send((set_name, name, solver))
        why = ""
        if self.conn.poll(HARD_TIMEOUT_S):
            try:
                return Row(**self.conn.recv())
            except EOFError:
                self.proc.join(1)
                why = f"worker died (exit code {self.proc.exitcode})"
        else:
            why = f"no answer within {HARD_TIMEOUT_S:.0f} s (worker killed)"
            self.proc.kill()
            self.proc.join(5)
        self.proc = None
        published, reference, slack = reference_of(set_name, name)
        return Row(set=set_name, problem=name, solver=solver, published=published,
                   reference=reference, slack=slack, status=f"exception: {why}",
                   category="exception", wall_s=time.perf_counter() - t0)

    def close(self) -> None:
        if self.proc is not None and self.proc.is_alive():
            self.conn.send(None)
            self.proc.join(5)


# --------------------------------------------------------------------------- driver
def check_instance(set_name: str, name: str) -> Check:
    published, reference, _ = reference_of(set_name, name)
    problem, size = read(set_name, name)
    chk = Check(set=set_name, problem=name, size=size, published=published,
                reference=reference)
    t0 = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            problem.solve(solver="CLARABEL")
        chk.plain_status = str(problem.status)
        chk.plain_value = float(problem.value)
    except Exception as exc:  # noqa: BLE001
        chk.plain_status = f"exception: {type(exc).__name__}: {short(exc, 100)}"
    chk.wall_s = time.perf_counter() - t0

    def rel(a: float, b: float) -> float:
        return abs(a - b) / max(abs(b), 1e-300) if b != 0 else abs(a)

    chk.rel_diff_published = rel(chk.plain_value, published)
    chk.rel_diff_reference = rel(chk.plain_value, reference)
    chk.matches = bool(chk.rel_diff_reference <= READER_MATCH
                       or abs(chk.plain_value - reference) <= 1e-9)
    if chk.wall_s > TIME_LIMIT_S:
        chk.skipped = f"plain Clarabel solve took {chk.wall_s:.0f} s"
    return chk


def consistency(rows: list[Row]) -> list[str]:
    """Brackets of different solvers on one instance must overlap (no reference needed)."""
    out = []
    for key in dict.fromkeys((r.set, r.problem) for r in rows):
        rs = [r for r in rows if (r.set, r.problem) == key]
        lows = [(r.lower, r.solver) for r in rs if math.isfinite(r.lower)]
        ups = [(r.upper, r.solver) for r in rs if math.isfinite(r.upper)]
        if not lows or not ups:
            continue
        lo, lo_s = max(lows)
        up, up_s = min(ups)
        if lo > up + RELATIVE_SLACK * max(1.0, abs(lo), abs(up)):
            out.append(f"INCONSISTENT {key[1]}: {lo_s}'s certified lower bound {lo!r} > "
                       f"{up_s}'s certified upper bound {up!r}")
    return out


#: instances on which a rigorous bound on one side is infinite by necessity (no strictly
#: feasible point on that side), listed and left out of the rate, with the reason
#: (Netlib BOEING2 was listed until its inequality rows met to rounding were proved exact
#: combinations of those met exactly: certified on every solver since)
ILL_POSED = {
    **{name: "SDPA's (D) has no interior (its phase one reaches t ~ 1e-10): the primal "
             "form's lower bound and the dual form's upper bound are infinite"
       for name in ("hinf1", "hinf3", "hinf4", "hinf5", "qap5")},
}


def off(row: Row) -> bool:
    """The solver said optimal with its own value farther from the reference than its tol."""
    return off_tol(row, row.reference, row.slack)


def totals(rows: list[Row]) -> str:
    """The rate per set the certificate is judged by: pairs the solver said optimal,
    certified ``optimal``; without the ill-posed instances; and of those, the solver's good
    answers (its own value within its tol of the reference)."""
    def rate(rs: list[Row]) -> str:
        k = sum(r.category == "certified" for r in rs)
        return f"{k} of {len(rs)} ({100.0 * k / max(len(rs), 1):.0f} %)"

    out = []
    for s_name in dict.fromkeys(r.set for r in rows):
        said = [r for r in rows if r.set == s_name and r.solver_status == "optimal"]
        well = [r for r in said if r.problem.split(":")[0] not in ILL_POSED]
        good = [r for r in well if not off(r)]
        far = ", ".join(f"{r.problem}/{r.solver} ({fmt(r.solver_value)})"
                        for r in well if off(r))
        out.append(f"- {s_name}: certified {rate(said)}; without the ill-posed {rate(well)}; "
                   f"of the solver's good answers {rate(good)}"
                   + (f" (own value off by more than tol: {far})" if far else ""))
    out += [f"  - ill-posed {name}: {why}" for name, why in ILL_POSED.items()]
    return "\n".join(out)


def summary(rows: list[Row]) -> str:
    out = ["| set | solver | pairs | solver said optimal | own value off > tol | certified "
           "| inaccurate | false claims | claims caught | wrong brackets | errors | exceptions "
           "| misses published only |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for s_name in dict.fromkeys(r.set for r in rows):
        for s in dict.fromkeys(r.solver for r in rows if r.set == s_name):
            rs = [r for r in rows if r.set == s_name and r.solver == s]
            c = Counter(r.category for r in rs)
            said = sum(r.solver_status == "optimal" for r in rs)
            caught = sum(r.caught_claim for r in rs)
            pub = sum(r.misses_published_only for r in rs)
            far = sum(off(r) for r in rs)
            out.append(f"| {s_name} | {s} | {len(rs)} | {said} | {far} | {c['certified']} | "
                       f"{c['inaccurate']} | {c['false claim']} | {caught} | "
                       f"{c['wrong bracket']} | {c['error']} | {c['exception']} | {pub} |")
    return "\n".join(out)


def check_table(checks: list[Check]) -> str:
    out = ["| set | instance | size | published | reference | plain Clarabel | rel. diff "
           "(published) | rel. diff (reference) | reader ok | s |",
           "|---|---|---|---:|---:|---:|---:|---:|---|---:|"]
    for c in checks:
        ref = "" if c.reference == c.published else fmt(c.reference)
        ok = "yes" if c.matches else f"NO ({c.plain_status})"
        out.append(f"| {c.set} | {c.problem} | {c.size} | {fmt(c.published)} | {ref} | "
                   f"{fmt(c.plain_value)} | {c.rel_diff_published:.1e} | "
                   f"{c.rel_diff_reference:.1e} | {ok} | {c.wall_s:.2f} |")
    return "\n".join(out)


def pair_table(rows: list[Row]) -> str:
    out = ["| set | instance | solver | status | native | primal | dual | rel_gap "
           "| category | s | first reason |",
           "|---|---|---|---|---|---:|---:|---:|---|---:|---|"]
    for r in rows:
        why = short(r.reasons[0], 90).replace("|", "/") if r.reasons else ""
        out.append(f"| {r.set} | {r.problem} | {r.solver} | {short(r.status, 60)} | "
                   f"{short(r.native_status, 40)} | {fmt(r.primal_value)} | "
                   f"{fmt(r.dual_value)} | {r.rel_gap:.2g} | {r.category}"
                   f"{' (misses published)' if r.misses_published_only else ''} | "
                   f"{r.wall_s:.2f} | {why} |")
    return "\n".join(out)


def reason_tables(rows: list[Row], top: int = 4) -> str:
    not_cert = [r for r in rows if r.category not in ("certified",)
                and not r.category.endswith("claim")]
    out = ["Overall:"]
    c = Counter(why for r in not_cert for why in (r.reasons or [short(r.status, 110)]))
    out += [f"- ({n}x) {why}" for why, n in c.most_common(8)]
    out.append("\nPer solver:")
    for s in dict.fromkeys(r.solver for r in rows):
        c = Counter(why for r in not_cert if r.solver == s
                    for why in (r.reasons or [short(r.status, 110)]))
        out += [f"- {s} ({n}x): {why}" for why, n in c.most_common(top)]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="", help="comma list (default: all): " + ",".join(SETS))
    ap.add_argument("--instances", default="", help="comma list (default: all)")
    ap.add_argument("--solvers", default="", help="comma list (default: all offered)")
    ap.add_argument("--json", default="", metavar="PATH", help="write every row as JSON")
    args = ap.parse_args(argv)
    sets = [s.strip() for s in args.sets.split(",") if s.strip()] or list(SETS)
    unknown = [s for s in sets if s not in SETS]
    if unknown:
        ap.error(f"unknown sets {unknown}; known: {list(SETS)}")
    only = {p.strip() for p in args.instances.split(",") if p.strip()}
    only_solvers = {p.strip() for p in args.solvers.split(",") if p.strip()}

    t_start = time.perf_counter()
    checks: list[Check] = []
    rows: list[Row] = []
    alerts: list[str] = []
    worker = Worker()
    try:
        for set_name in sets:
            for name in SETS[set_name][2]:
                if only and name not in only:
                    continue
                chk = check_instance(set_name, name)
                checks.append(chk)
                if chk.skipped:
                    alerts.append(f"skipped {name}: {chk.skipped}")
                    continue
                f = ck.from_cvxpy(load(set_name, name), name)
                chk.solvers = [s for s in ck.available_solvers(f) if s in CONIC
                               and (not only_solvers or s in only_solvers)]
                print(f"{set_name}/{name}: {chk.size}; plain Clarabel {chk.plain_value:.10g}"
                      f" ({chk.rel_diff_reference:.1e} from reference)", file=sys.stderr)
                for solver in chk.solvers:
                    row = worker.run(set_name, name, solver)
                    rows.append(row)
                    flag = pair_alerts(row, f"{name}/{solver}", TIME_LIMIT_S, alerts)
                    print(f"  {solver:9s} {row.category:14s} {row.wall_s:6.2f} s{flag}",
                          file=sys.stderr)
    finally:
        worker.close()
    alerts += consistency(rows)
    total = time.perf_counter() - t_start

    n_inst = sum(not c.skipped for c in checks)
    print(f"# convexkern generic certificate on public LP / QP test sets (cvxpy "
          f"{cp.__version__}; {n_inst} instances, {len(rows)} pairs, {total:.1f} s)\n")
    print("## Reader check (plain cvxpy + Clarabel vs published optimum)\n")
    print(check_table(checks))
    for name, (value, why) in REFINED.items():
        print(f"\n- reference for {name}: {value} ({why})")
    for name, (value, why) in AT_MOST.items():
        print(f"\n- {name}: optimum at most {value}, lower bounds checked only ({why})")
    print("\n## Summary per set and solver\n")
    print(summary(rows))
    print()
    print(totals(rows))
    bad = [r for r in rows if r.category in ("false claim", "wrong bracket")]
    print("\n## False claims and wrong brackets\n")
    for r in bad:
        print(f"- **{r.category}** {r.set}/{r.problem}/{r.solver}: status {r.status} (native "
              f"{r.native_status}), bracket [{fmt(r.lower)}, {fmt(r.upper)}] vs reference "
              f"{fmt(r.reference)} (miss {r.miss:.3g}, slack {r.slack:.2g}): {r.message}")
    if not bad:
        print("- none")
    print("\n## Typical reasons when not certified\n")
    print(reason_tables(rows))
    print("\n## Pairs\n")
    print(pair_table(rows))
    skipped = [c for c in checks if c.skipped]
    slow = [r for r in rows if r.wall_s > TIME_LIMIT_S]
    print("\n## Skipped instances and slow pairs (> 60 s)\n")
    for c in skipped:
        print(f"- skipped {c.set}/{c.problem}: {c.skipped}")
    for r in slow:
        print(f"- slow {r.set}/{r.problem}/{r.solver}: {r.wall_s:.0f} s ({short(r.status, 80)})")
    if not skipped and not slow:
        print("- none")
    if alerts:
        print("\n## Alerts\n")
        print("\n".join(f"- {a}" for a in alerts))
    print(f"\nTotal run time: {total:.1f} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"checks": [{k: _jsonable(v) for k, v in asdict(c).items()}
                                  for c in checks],
                       "rows": [{k: _jsonable(v) for k, v in asdict(r).items()}
                                for r in rows]}, fh, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
