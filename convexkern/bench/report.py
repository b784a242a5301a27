"""Writing a benchmark's results: ``results.csv``, ``results.json``, ``report.md`` and the
performance profiles as PNG (matplotlib, Agg backend)."""

from __future__ import annotations

import csv
import json
import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .._tables import markdown_table
from .metrics import (
    SHIFT,
    disjoint_brackets,
    is_success,
    performance_profile,
    shifted_geomean,
)

__all__ = ["COLUMNS", "write_report", "group_times"]

#: the columns of results.csv (results.json has the same keys per row)
COLUMNS = ("problem", "formulation", "kind", "n", "solver", "status", "success", "rel_gap",
           "gap", "primal_value", "dual_value", "time", "solve_time", "iterations",
           "peak_rss_mb", "base_rss_mb", "solver_status", "tol", "time_limit", "cached",
           "optimum", "bracket_holds", "message")


def _fmt(v: Any, digits: int = 3) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return "-" if math.isnan(v) else ("inf" if math.isinf(v) else f"{v:.{digits}g}")
    return str(v)


def group_times(rows: Sequence[Mapping[str, Any]], tol: float, time_limit: float,
                solvers: Sequence[str]) -> tuple[list[str], np.ndarray, np.ndarray]:
    """``(problems, times, penalised)`` over ``solvers``: ``times[p, s]`` the time of a
    success, ``inf`` otherwise (failure, skipped, not applicable); ``penalised`` the time of
    a success, the time limit otherwise (for the shifted geometric mean)."""
    problems = list(dict.fromkeys(r["problem"] for r in rows))
    pi = {p: i for i, p in enumerate(problems)}
    si = {s: j for j, s in enumerate(solvers)}
    t = np.full((len(problems), len(solvers)), math.inf)
    for r in rows:
        if r["solver"] in si and is_success(r, tol):
            t[pi[r["problem"]], si[r["solver"]]] = float(r["time"])
    return problems, t, np.where(np.isfinite(t), t, time_limit)


def _solver_table(rows: Sequence[Mapping[str, Any]], tol: float, time_limit: float,
                  solvers: Sequence[str], common: bool) -> tuple[list[list[Any]], np.ndarray]:
    """Per solver: pairs run, skipped, solved, success rate and shifted geometric mean.

    ``common`` (a table per formulation): over every problem of the group, a failure, a
    skip or a pair the solver does not take counted at the time limit, with the ratio to
    the best solver.  Otherwise (all problems): over the pairs the solver was given (run
    or skipped), which differ between solvers, so no ratio.
    """
    problems, t, pen = group_times(rows, tol, time_limit, solvers)
    pi = {p: i for i, p in enumerate(problems)}
    out, gms = [], []
    for j, s in enumerate(solvers):
        mine = [r for r in rows if r["solver"] == s]
        ran = [r for r in mine if r["status"] != "skipped"]
        ok = int(np.count_nonzero(np.isfinite(t[:, j])))
        idx = list(range(len(problems))) if common else [pi[r["problem"]] for r in mine]
        gm = shifted_geomean(pen[idx, j])
        gms.append(gm)
        rate = 100.0 * ok / len(idx) if idx else math.nan
        out.append([s, len(ran), len(mine) - len(ran), ok, f"{rate:.0f}%", _fmt(gm)])
    if common:
        best = min(gms, default=math.nan)
        for row, gm in zip(out, gms):
            row.append(_fmt(gm / best if best > 0 else math.nan))
    return out, t


def _profile_png(path: Path, t: np.ndarray, solvers: Sequence[str], title: str) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - matplotlib is in the test extra
        return False
    taus, rho = performance_profile(t)
    tmax = max(2.0, float(taus.max()) * 1.5)
    fig, ax = plt.subplots(figsize=(6, 4))
    for j, s in enumerate(solvers):
        x = np.r_[taus, tmax]
        ax.step(x, np.r_[rho[:, j], rho[-1, j]], where="post", label=s)
    ax.set_xscale("log")
    ax.set_xlim(1.0, tmax)
    ax.set_ylim(0.0, 1.02)
    ax.set_xlabel("tau: time within a factor tau of the best solver")
    ax.set_ylabel("fraction of problems solved")
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return True


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_")


def _details(rows: Sequence[Mapping[str, Any]]) -> str:
    return markdown_table(
        ["problem", "n", "solver", "status", "rel gap", "time (s)", "iterations",
         "peak RSS (MiB)", "added RSS (MiB)"],
        [[r["problem"], r["n"], r["solver"], r["status"], _fmt(r["rel_gap"], 2),
          _fmt(r["time"]), _fmt(r["iterations"]), _fmt(r["peak_rss_mb"]),
          _fmt(r["peak_rss_mb"] - r["base_rss_mb"])] for r in rows])


def _published(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """The brackets checked against published optimal values (file problems that give
    ``optimum``): how many hold, and every one that misses."""
    checked = [r for r in rows if r.get("optimum") is not None]
    if not checked:
        return []
    judged = [r for r in checked if r.get("bracket_holds") is not None]
    miss = [r for r in judged if not r["bracket_holds"]]
    out = ["## Against the published optima", "",
           f"{len(judged)} of the {len(checked)} pairs on problems with a published optimal "
           f"value returned a finite bound; {len(judged) - len(miss)} of those brackets hold "
           "the published value (within half a unit of its last digit), "
           f"{len(miss)} miss it.", ""]
    out += [f"- **miss** {r['problem']} / {r['solver']}: [{_fmt(r['dual_value'], 10)}, "
            f"{_fmt(r['primal_value'], 10)}] vs published {r['optimum']!r}" for r in miss]
    return out + ([""] if miss else [])


def write_report(rows: Sequence[Mapping[str, Any]], *, out_dir: Path, suite: Any,
                 tol: float, time_limit: float, solvers: Sequence[str],
                 meta: Mapping[str, Any]) -> dict[str, Path]:
    """Write the CSV, JSON, Markdown report and profile PNGs; returns their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    files = {"csv": out_dir / "results.csv", "json": out_dir / "results.json",
             "report": out_dir / "report.md"}
    with open(files["csv"], "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=COLUMNS, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    files["json"].write_text(json.dumps({"meta": dict(meta), "rows": list(rows)}, indent=1,
                                        default=str) + "\n", encoding="utf-8")
    md = [f"# Benchmark `{suite.name}`", "", suite.description, "",
          f"Target certified relative gap `tol = {tol:g}` for every solver; hard time limit "
          f"{time_limit:g} s per (problem, solver) pair; {len(rows)} pairs over "
          f"{len({r['problem'] for r in rows})} problems.  Success: a finished solve (status "
          "`optimal`, or `optimal_inaccurate` by the solver's own flag) within the limit "
          "whose certified relative gap, recomputed from the data, is at most `tol`.  Times "
          "are wall times of `ck.solve` (compilation, solver, certificate). "
          f"Shifted geometric mean (sgm): shift {SHIFT:g} s, a failure counted at the time "
          "limit.", "",
          f"_convexkern {meta.get('version', '?')} (code {meta.get('code', '?')}), "
          f"{meta.get('jobs', 1)} job(s), backend {meta.get('backend', '?')}, "
          f"{meta.get('cached', 0)} pair(s) from the cache, "
          f"{meta.get('elapsed', math.nan):.1f} s elapsed._", "", "## All problems", ""]
    head = ["solver", "pairs run", "skipped", "solved", "success", f"sgm time (s, shift "
            f"{SHIFT:g})"]
    table, t = _solver_table(rows, tol, time_limit, solvers, common=False)
    md += [markdown_table(head, table), "",
           "Over the pairs each solver was given (they differ: a solver takes only some "
           "formulations), so compare times in the tables per formulation below.  The "
           "profile is over all problems: a problem a solver does not take counts as a "
           "failure.", ""]
    if solvers and _profile_png(out_dir / "profile.png", t, solvers,
                                f"{suite.name}: all problems (tol {tol:g})"):
        files["profile"] = out_dir / "profile.png"
        md += ["![performance profile](profile.png)", ""]
    groups = list(dict.fromkeys(r["formulation"] for r in rows))
    for g in groups:
        sub = [r for r in rows if r["formulation"] == g]
        names = [s for s in solvers if any(r["solver"] == s for r in sub)]
        table, t = _solver_table(sub, tol, time_limit, names, common=True)
        md += [f"## {g}", "", markdown_table([*head, "sgm / best"], table), ""]
        png = out_dir / f"profile_{_slug(g)}.png"
        if len(names) > 1 and _profile_png(png, t, names, f"{g} (tol {tol:g})"):
            files[f"profile_{g}"] = png
            md += [f"![performance profile, {g}]({png.name})", ""]
        md += [_details(sub), ""]
    bad = disjoint_brackets(rows)
    n_prob = len({r["problem"] for r in rows})
    md += ["## Certified brackets", "",
           (f"On each of the {n_prob} problems, the certified brackets [lower, upper] of "
            "every solver that returned a point overlap (each is a proof that the optimum "
            "lies inside it)." if not bad else
            "**Disjoint certified brackets (a wrong certificate):** "
            + "; ".join(f"{p}: {a}'s lower bound is above {b}'s upper bound"
                        for p, a, b in bad)), ""]
    md += _published(rows)
    notes = [f"- {r['problem']} / {r['solver']}: {r['message']}" for r in rows
             if r.get("message")]
    if notes:
        md += ["## Notes", "", *notes, ""]
    files["report"].write_text("\n".join(md), encoding="utf-8")
    return files
