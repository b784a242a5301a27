"""Helpers of benchmarks/bad_input_audit.py: the library-error check, the exact rational
oracles of the robust SVM objective, and running one audit item in a child process under
a wall-clock budget."""

from __future__ import annotations

import multiprocessing as mp
import time
import traceback
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np

import convexkern as ck


def lib_error(fn, argument, *, accept_ok=False):
    """(ok, what): ``fn()`` must raise a ConvexkernError naming ``argument`` (its
    ``.argument`` or the start of the message); ``accept_ok``: ending normally is fine too."""
    try:
        out = fn()
    except ck.ConvexkernError as exc:
        arg = getattr(exc, "argument", None) or getattr(exc, "field", None)
        msg = str(exc)
        named = arg == argument or msg.startswith(f"{argument}:") or (
            f"'{argument}'" in msg) or msg.startswith(f"spec field '{argument}'")
        return named, f"{type(exc).__name__}: {msg[:110]}"
    except Exception as exc:  # noqa: BLE001 - a foreign exception is what is audited
        return False, f"FOREIGN {type(exc).__name__}: {str(exc)[:110]}"
    return accept_ok, f"no error (returned {type(out).__name__})"


def all_ok(checks):
    """Combine (ok, what) pairs from sub-checks labelled by name."""
    ok = all(c[1][0] for c in checks)
    bad = [f"{k}: {w}" for k, (o, w) in checks if not o]
    good = [f"{k}: {w}" for k, (o, w) in checks if o]
    return ok, "; ".join(bad if bad else good)


def exact_base(K0F, y, alpha, rho):
    """base(a) = e'a - v'K0v/2 - |v|^4/(16 rho) <= f(a), exactly (v = Ya)."""
    v = [Fraction(float(yi)) * Fraction(float(ai)) for yi, ai in zip(y, alpha)]
    n = len(v)
    vKv = sum(v[i] * sum(K0F[i][j] * v[j] for j in range(n)) for i in range(n))
    vv = sum(t * t for t in v)
    return sum(Fraction(float(a)) for a in alpha) - vKv / 2 - vv * vv / (16 * Fraction(rho))


def exact_g(K0, K0F, y, alpha, rho):
    """g(a, PP') = e'a - v'PP'v/2 + rho |PP' - K0|^2 >= f(a), exactly (P from eigh of M)."""
    v = y * alpha
    w, V = np.linalg.eigh(K0 + np.outer(v, v) / (4.0 * rho))
    P = V[:, w > 0] * np.sqrt(w[w > 0])
    n, k = P.shape
    PF = [[Fraction(float(P[i, j])) for j in range(k)] for i in range(n)]
    vF = [Fraction(float(t)) for t in v]
    Pv = [sum(PF[i][j] * vF[i] for i in range(n)) for j in range(k)]
    dist = Fraction(0)
    for i in range(n):
        for j in range(i, n):
            dij = sum(PF[i][m] * PF[j][m] for m in range(k)) - K0F[i][j]
            dist += dij * dij * (1 if i == j else 2)
    return (sum(Fraction(float(a)) for a in alpha) - sum(t * t for t in Pv) / 2
            + Fraction(rho) * dist)


def in_child(fn, budget, q):
    warnings.simplefilter("ignore")
    try:
        ok, what = fn()
        q.put((bool(ok), str(what)))
    except Exception as exc:  # noqa: BLE001
        tb = traceback.extract_tb(exc.__traceback__)[-1]
        q.put((False, f"{type(exc).__name__}: {str(exc)[:160]} "
                      f"(at {Path(tb.filename).name}:{tb.lineno})"))


def run_item(fn, budget):
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=in_child, args=(fn, budget, q))
    t0 = time.perf_counter()
    p.start()
    p.join(budget)
    dt = time.perf_counter() - t0
    if p.is_alive():
        p.kill()
        p.join()
        return False, f"did not end within its {budget:.0f} s budget", dt
    try:
        ok, what = q.get(timeout=5)
    except Exception:  # noqa: BLE001
        return False, f"child died (exit code {p.exitcode})", dt
    return ok, what, dt
