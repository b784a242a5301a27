"""Benchmark: what plugins cost (docs/plugins.md), as ratios in one run.

* **Spec loading**: ``load_spec`` of a spec naming ``my_formulations:svm_dual`` (the
  builder of docs/plugins.md, next to the spec) against the same spec naming the built-in
  ``svm.dual``: the first load (the module imported by location) and a repeated one (the
  module cached per file: one ``stat``).
* **Build and solve**: ``build()`` and a Clarabel solve of both, on the docs' Pima spec
  (384 training points): the plugin path should cost the same as the built-in one.
* **Entry points**: one scan of ``importlib.metadata.entry_points(group=...)`` (what the
  first solver listing or unknown solver name costs, once per process) against a plain
  ``ck.installed_solvers()`` once the group has been read.

Usage:  python benchmarks/bench_plugins.py [--repeat 5]

Expected on a quiet machine: a repeated plugin ``load_spec`` within ~10 % of the
built-in one; build + solve ratios ~1.0; an entry-point scan of milliseconds to tens of
milliseconds (it grows with the number of installed distributions), paid once.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import re
import statistics
import tempfile
import time
from pathlib import Path

import convexkern as ck
from convexkern.solvers import plugins as solver_plugins
from convexkern.specs import load_spec

DOCS = Path(__file__).resolve().parents[1] / "docs" / "plugins.md"


def _write_docs_example(folder: Path) -> tuple[Path, Path]:
    blocks = re.findall(r"```(\w*)\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
    for _, body in blocks:
        first = body.splitlines()[0]
        if first in ("# my_formulations.py", "# my_spec.toml"):
            (folder / first[2:]).write_text(body)
    user = folder / "my_spec.toml"
    builtin = folder / "builtin.toml"
    builtin.write_text(user.read_text().replace('"my_formulations:svm_dual"', '"svm.dual"'))
    return user, builtin


def _time(fn, repeat: int) -> float:
    """Median wall time of ``repeat`` calls, after one untimed warm-up call."""
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        user, builtin = _write_docs_example(Path(tmp))
        load_spec(builtin)  # imports what both need (the formulations, the data loaders)
        t0 = time.perf_counter()
        load_spec(user)
        first_user = time.perf_counter() - t0
        t_user = _time(lambda: load_spec(user), args.repeat)
        t_builtin = _time(lambda: load_spec(builtin), args.repeat)
        print(f"load_spec, first (module imported by location): {first_user * 1e3:8.2f} ms")
        print(f"load_spec, repeated: plugin {t_user * 1e3:.2f} ms, built-in "
              f"{t_builtin * 1e3:.2f} ms, ratio {t_user / t_builtin:.2f}")
        for what, fn in (("build", lambda s: s.build()),
                         ("build + clarabel", lambda s: ck.solve(s.build().formulation,
                                                                 "clarabel"))):
            su, sb = load_spec(user), load_spec(builtin)
            tu = _time(lambda fn=fn, su=su: fn(su), args.repeat)
            tb = _time(lambda fn=fn, sb=sb: fn(sb), args.repeat)
            print(f"{what:17s}: plugin {tu:.3f} s, built-in {tb:.3f} s, ratio {tu / tb:.2f}")
    for group in ("convexkern.solvers", "convexkern.formulations"):
        t = _time(lambda g=group: importlib.metadata.entry_points(group=g), args.repeat)
        print(f"entry-point scan of {group}: {t * 1e3:.2f} ms "
              f"({len(list(importlib.metadata.distributions()))} distributions installed)")
    solver_plugins._reset()
    t0 = time.perf_counter()
    ck.installed_solvers()
    first = time.perf_counter() - t0
    later = _time(ck.installed_solvers, args.repeat)
    print(f"installed_solvers(): first (reads the group) {first * 1e3:.2f} ms, "
          f"later {later * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
