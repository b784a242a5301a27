"""Solver benchmarks over suites of problems (``convexkern bench SUITE``).

:func:`run_suite` runs every (problem, solver) pair of a suite (:mod:`.suite`: TOML,
shipped ones in ``convexkern/bench/suites/``) in its own process under a hard time limit
(:mod:`.worker`), caches each result on disk so an interrupted run resumes
(:mod:`.runner`), and writes ``report.md`` (success rate at the certified tolerance, shifted
geometric mean of time, a table per formulation), ``results.csv``, ``results.json`` and
Dolan–Moré performance profiles as PNG (:mod:`.report`, :mod:`.metrics`).  See
docs/benchmarking.md.
"""

from .metrics import SHIFT, is_success, performance_profile, performance_ratios, shifted_geomean
from .runner import BACKENDS, BenchResult, code_version, run_suite
from .suite import Problem, Suite, available_suites, load_suite

__all__ = [
    "BACKENDS",
    "BenchResult",
    "Problem",
    "SHIFT",
    "Suite",
    "available_suites",
    "code_version",
    "is_success",
    "load_suite",
    "performance_profile",
    "performance_ratios",
    "run_suite",
    "shifted_geomean",
]
