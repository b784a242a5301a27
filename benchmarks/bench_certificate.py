"""Cost of the generic certificate against the solve, and what a
hand-written certificate buys (docs/certificates.md).

Part 1 runs the four examples of docs/extending.md (1-norm SVM LP, nu-SVM QP, norm-SVM
SOCP, nearest-kernel SDP, at the sizes printed there) with every conic solver that takes
them and reports, per solve, the wall time of ``ck.solve`` and the part of it spent in
the certificate (``certify`` wrapped with a timer).  Target: certificate <= 25 % of the
solve.  Part 2 solves the papers' builders on small real instances twice, with their own
certificate and with the generic one, and prints both certified relative gaps.

    python benchmarks/bench_certificate.py            # both parts, ~2 minutes
    python benchmarks/bench_certificate.py --part 1

Quote timings from a quiet machine only.
"""

from __future__ import annotations

import argparse
import math
import pathlib
import re
import time
from dataclasses import replace

import numpy as np

import convexkern as ck
from convexkern.generic import generic_certify

DOC = pathlib.Path(__file__).resolve().parents[1] / "docs" / "extending.md"


def _doc_scope() -> dict:
    """The builders and data of docs/extending.md's first two examples (one copy: the
    page's own code, without its print calls)."""
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"(?ms)^```python\n(.*?)^```", text)[:2]
    scope: dict = {}
    for b in blocks:
        exec(compile(re.sub(r"(?m)^print\(.*\)$", "", b), str(DOC), "exec"), scope)
    return scope


def _timed(f):
    spent = [0.0]

    def certify(form, point, **kw):
        t0 = time.perf_counter()
        try:
            return generic_certify(form, point)
        finally:
            spent[0] += time.perf_counter() - t0

    certify.generic = True
    return replace(f, certify=certify), spent


def part1(repeat: int) -> None:
    s = _doc_scope()
    cases = {
        "l1_svm (LP)": (lambda: s["l1_svm"](s["K"], s["y"]), ["clarabel", "scs", "ecos", "highs"]),
        "nu_svm_dual (QP)": (lambda: s["nu_svm_dual"](s["K"], s["y"]),
                             ["clarabel", "scs", "ecos", "osqp"]),
        "norm_svm (SOCP)": (lambda: s["norm_svm"](s["X"], s["y"]), ["clarabel", "scs", "ecos"]),
        "nearest_kernel (SDP)": (lambda: s["nearest_kernel"](s["S"]), ["clarabel", "scs"]),
    }
    print(f"{'example':22s} {'solver':9s} {'status':19s} {'rel_gap':>9s} "
          f"{'solve[s]':>9s} {'cert[s]':>8s} {'cert/solve':>10s}")
    for name, (build, solvers) in cases.items():
        for solver in solvers:
            walls, certs, r = [], [], None
            for _ in range(repeat):
                f, spent = _timed(build())
                t0 = time.perf_counter()
                r = ck.solve(f, solver)
                walls.append(time.perf_counter() - t0)
                certs.append(spent[0])
            wall, cert = float(np.median(walls)), float(np.median(certs))
            print(f"{name:22s} {solver:9s} {r.status.value:19s} {r.rel_gap:9.2g} "
                  f"{wall - cert:9.3f} {cert:8.3f} {cert / max(wall - cert, 1e-9):10.2f}")


def part2() -> None:
    import sys

    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests"))
    from conftest import _subset  # the tests' small real instances

    from convexkern.data import load_binary
    from convexkern.kernels import RBF

    X, y = load_binary("usps", 3, 5)
    X, y = _subset(X, y, 120, seed=0)
    K = RBF(gamma=1.0 / X.shape[1] / X.var())(X)
    from test_generic import YARDSTICK, _yardstick

    print(f"\n{'formulation':24s} {'solver':9s} {'hand status':19s} {'hand gap':>9s} "
          f"{'generic status':19s} {'generic gap':>11s}")
    for name in YARDSTICK:
        hand = _yardstick(name, (X, y, K))
        gen = replace(hand, certify=None)
        for solver in [v for v in ck.available_solvers(gen) if v in ("clarabel", "scs", "ecos")]:
            a = ck.solve(hand, solver)
            b = ck.solve(gen, solver)
            print(f"{name:24s} {solver:9s} {a.status.value:19s} {a.rel_gap:9.2g} "
                  f"{b.status.value:19s} {b.rel_gap:11.2g}")
            assert not (math.isfinite(b.gap) and math.isfinite(a.gap)) or (
                min(a.primal_value, a.dual_value) <= max(b.primal_value, b.dual_value))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--part", type=int, choices=(1, 2))
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    if a.part in (None, 1):
        part1(a.repeat)
    if a.part in (None, 2):
        part2()


if __name__ == "__main__":
    main()
