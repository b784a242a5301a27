"""The machine and software a benchmark ran on, for its report: a timing table without
them cannot be compared with anyone else's (Mittelmann's tables and qpbenchmark's reports
print the same facts)."""

from __future__ import annotations

import os
import platform
from importlib import metadata
from typing import Any

__all__ = ["environment", "PACKAGES"]

#: the distributions whose versions a report names, when installed (the numerical stack
#: and every conic solver convexkern can call)
PACKAGES = ("convexkern", "numpy", "scipy", "cvxpy", "clarabel", "scs", "ecos", "highspy",
            "osqp", "qoco", "piqp", "cvxopt", "Mosek", "scikit-learn")


def _cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo`` on Linux, else :func:`platform.processor`)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def _blas() -> list[str]:
    """The BLAS/OpenMP libraries numpy and scipy loaded: API, library, version, threads."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:  # pragma: no cover - threadpoolctl comes with scikit-learn
        return []
    out = []
    for lib in threadpool_info():
        name = lib.get("internal_api") or lib.get("prefix", "?")
        arch = f", {lib['architecture']}" if lib.get("architecture") else ""
        out.append(f"{name} {lib.get('version') or '?'}{arch} "
                   f"({lib.get('num_threads', '?')} threads)")
    return sorted(set(out))


def environment() -> dict[str, Any]:
    """The facts a benchmark report prints: CPU model, logical cores, the cores this
    process may use, OS, Python, BLAS, and the version of every installed package of
    :data:`PACKAGES`."""
    try:
        usable = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        usable = os.cpu_count() or 1
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return {"cpu": _cpu_model(), "cores": os.cpu_count() or 1, "usable_cores": usable,
            "os": platform.platform(), "python": platform.python_version(),
            "blas": _blas(), "packages": versions}
