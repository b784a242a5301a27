"""Writing a benchmark's results: ``results.csv``, ``results.json``, ``report.md``,
``report.tex`` (the same tables as LaTeX) and the performance profiles as PNG and SVG
(matplotlib, Agg backend; without matplotlib a warning says the profiles were not drawn)."""

from __future__ import annotations

import csv
import json
import math
import re
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .._tables import latex_escape, latex_table, markdown_table
from .metrics import (
    SHIFT,
    disjoint_brackets,
    is_success,
    performance_profile,
    shifted_geomean,
)

__all__ = ["COLUMNS", "write_report", "group_times", "strict_json"]

#: the columns of results.csv (results.json has the same keys per row)
COLUMNS = ("problem", "formulation", "kind", "n", "solver", "status", "success", "rel_gap",
           "gap", "primal_value", "dual_value", "time", "time_min", "time_max", "repeats",
           "solve_time", "iterations",
           "peak_rss_mb", "base_rss_mb", "solver_status", "tol", "time_limit", "cached",
           "optimum", "bracket_holds", "expect", "message")


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


#: line styles of the profiles: a marker and a dash pattern per solver, so that curves that
#: lie on one another stay distinguishable (and legible in black and white)
_STYLES = (("o", "-"), ("s", "--"), ("^", "-."), ("D", ":"), ("v", "-"), ("P", "--"),
           ("X", "-."), ("*", ":"))


def _profile(stem: Path, t: np.ndarray, solvers: Sequence[str], title: str) -> list[Path]:
    """The performance profile of the times ``t`` (problems x solvers, ``inf`` a failure)
    as ``stem.png`` and ``stem.svg``; every solver in the legend, those that solved
    nothing as a line at 0.  Nothing (and a warning) without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError:
        warnings.warn("matplotlib is not installed: the performance profiles are not drawn "
                      "(pip install matplotlib, or the 'bench' extra)", stacklevel=3)
        return []
    taus, rho = performance_profile(t)
    tmax = max(2.0, float(taus.max()) * 1.5)
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for j, s in enumerate(solvers):
        marker, dash = _STYLES[j % len(_STYLES)]
        x = np.r_[taus, tmax]
        ax.step(x, np.r_[rho[:, j], rho[-1, j]], where="post", label=s, marker=marker,
                linestyle=dash, markersize=4, markevery=max(1, x.size // 12))
    ax.set_xscale("log")
    ax.set_xlim(1.0, tmax)
    ticks = [v for v in (1, 1.25, 1.5, 2, 3, 5, 10, 20, 50, 100, 1000, 1e4) if v <= tmax]
    ax.set_xticks(ticks, [f"{v:g}" for v in ticks])
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("tau: time within a factor tau of the best solver", fontsize=10)
    ax.set_ylabel("fraction of problems solved", fontsize=10)
    ax.tick_params(labelsize=9)
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="lower right", fontsize=8, ncol=1 + len(solvers) // 6)
    out = []
    for ext in ("png", "svg"):
        path = stem.with_suffix(f".{ext}")
        fig.savefig(path, dpi=120, bbox_inches="tight")
        out.append(path)
    plt.close(fig)
    return out


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_")


def _time(r: Mapping[str, Any]) -> str:
    """The median time, with the range of the runs when there were several."""
    if (r.get("repeats") or 0) > 1 and r.get("time_min") is not None:
        return f"{_fmt(r['time'])} [{_fmt(r['time_min'])}, {_fmt(r['time_max'])}]"
    return _fmt(r["time"])


_DETAIL_HEAD = ["problem", "n", "solver", "status", "rel gap", "lower", "upper", "time (s)",
                "iterations", "peak RSS (MiB)", "added RSS (MiB)"]


def _detail_rows(rows: Sequence[Mapping[str, Any]]) -> list[list[str]]:
    """Per pair: status, certified gap and bracket, time (median [range]), memory."""
    out = []
    for r in rows:
        p, d = r.get("primal_value"), r.get("dual_value")
        known = p is not None and d is not None and not (math.isnan(p) or math.isnan(d))
        lo, up = (min(p, d), max(p, d)) if known else (math.nan, math.nan)
        out.append([r["problem"], r["n"], r["solver"], r["status"], _fmt(r["rel_gap"], 2),
                    _fmt(lo, 10), _fmt(up, 10), _time(r), _fmt(r["iterations"]),
                    _fmt(r["peak_rss_mb"]), _fmt(r["peak_rss_mb"] - r["base_rss_mb"])])
    return out


def _details(rows: Sequence[Mapping[str, Any]]) -> str:
    return markdown_table(_DETAIL_HEAD, _detail_rows(rows))


def _tolerance_rows(rows: Sequence[Mapping[str, Any]], tol: float,
                    solvers: Sequence[str]) -> tuple[list[str], list[list[str]]]:
    """Success rates at ``100 tol``, ``10 tol`` and ``tol`` from the same runs (a run
    certified to ``rel_gap`` succeeds at every looser tolerance), over the pairs run."""
    levels = [100 * tol, 10 * tol, tol]
    head = ["solver", "pairs run", *(f"gap <= {t:.0e}" for t in levels)]
    out = []
    for s in solvers:
        ran = [r for r in rows if r["solver"] == s and r["status"] != "skipped"]
        cells = [s, str(len(ran))]
        for t in levels:
            ok = sum(1 for r in ran if is_success(r, t))
            cells.append(f"{ok} ({100.0 * ok / len(ran):.0f}%)" if ran else "-")
        out.append(cells)
    return head, out


def _environment(meta: Mapping[str, Any]) -> list[str]:
    """The machine and software lines of the report (Markdown)."""
    env = meta.get("environment") or {}
    if not env:
        return []
    pk = env.get("packages", {})
    return ["## Environment", "",
            f"- CPU: {env.get('cpu', '?')}; {env.get('cores', '?')} logical cores, "
            f"{env.get('usable_cores', '?')} usable by this run",
            f"- OS: {env.get('os', '?')}; Python {env.get('python', '?')}",
            f"- BLAS: {'; '.join(env.get('blas', [])) or 'unknown'}",
            "- packages: " + ", ".join(f"{k} {v}" for k, v in pk.items()), ""]


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


def _no_solution(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """The pairs on problems expected to have no optimum (``expect``): per solver, how
    many reported the expected status (a proven claim), and what each of the others said."""
    judged = [r for r in rows if (r.get("expect") or "optimal") != "optimal"]
    if not judged:
        return []
    out = ["## Expected infeasible or unbounded", "",
           "A pair succeeds when its report says what the problem is (a solver's claim is "
           "reported only once its ray, a phase one or a second solver proves it).", ""]
    for s in dict.fromkeys(r["solver"] for r in judged):
        mine = [r for r in judged if r["solver"] == s]
        ok = sum(1 for r in mine if r.get("status") == r["expect"])
        out.append(f"- {s}: {ok} of {len(mine)} proven")
    out += [f"- **not proven** {r['problem']} / {r['solver']}: {r['status']} (expected "
            f"{r['expect']})" for r in judged if r.get("status") != r["expect"]]
    return out + [""]


def strict_json(obj: Any) -> Any:
    """``obj`` with every float JSON can hold: NaN (no value: no point, no time) becomes
    ``null`` and an infinity (a gap with no certificate) the string ``"inf"`` or
    ``"-inf"``, as results.csv writes it, so results.json is standard JSON (Python's own
    ``NaN`` / ``Infinity`` tokens are refused by strict parsers, and jq reads ``Infinity``
    as the largest double).  The results cache keeps Python's tokens: only this code reads
    it."""
    if isinstance(obj, Mapping):
        return {k: strict_json(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [strict_json(v) for v in obj]
    if isinstance(obj, (float, np.floating)):
        v = float(obj)
        if math.isnan(v):
            return None
        return v if math.isfinite(v) else ("inf" if v > 0 else "-inf")
    if isinstance(obj, np.integer):
        return int(obj)
    return obj


def write_report(rows: Sequence[Mapping[str, Any]], *, out_dir: Path, suite: Any,
                 tol: float, time_limit: float, solvers: Sequence[str],
                 meta: Mapping[str, Any]) -> dict[str, Path]:
    """Write the CSV, JSON, Markdown and LaTeX reports and the profiles (PNG and SVG);
    returns their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    files = {"csv": out_dir / "results.csv", "json": out_dir / "results.json",
             "report": out_dir / "report.md", "tex": out_dir / "report.tex"}
    with open(files["csv"], "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=COLUMNS, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    files["json"].write_text(json.dumps(strict_json({"meta": dict(meta), "rows": list(rows)}),
                                        indent=1, default=str, allow_nan=False) + "\n",
                             encoding="utf-8")
    repeat = int(meta.get("repeat", 1) or 1)
    times = ("median of " + str(repeat) + " runs, each in a fresh worker, with their "
             "range in the details" if repeat > 1 else "one run per pair")
    md = [f"# Benchmark `{suite.name}`", "", suite.description, "",
          f"Target certified relative gap `tol = {tol:g}` for every solver; hard time limit "
          f"{time_limit:g} s per (problem, solver) pair; {len(rows)} pairs over "
          f"{len({r['problem'] for r in rows})} problems.  Success: a finished solve (status "
          "`optimal`, or `optimal_inaccurate` by the solver's own flag) within the limit "
          "whose certified relative gap, recomputed from the data, is at most `tol`.  Times "
          f"are wall times of `ck.solve` (compilation, solver, certificate; {times}). "
          f"Shifted geometric mean (sgm): shift {SHIFT:g} s, a failure counted at the time "
          "limit.", "",
          f"_convexkern {meta.get('version', '?')} (code {meta.get('code', '?')}), "
          f"{meta.get('jobs', 1)} job(s), backend {meta.get('backend', '?')}, "
          f"{meta.get('cached', 0)} pair(s) from the cache, "
          f"{meta.get('elapsed', math.nan):.1f} s elapsed._", "", *_environment(meta),
          "## All problems", ""]
    tex = [f"% convexkern benchmark {latex_escape(suite.name)}: tables of report.md",
           "% \\usepackage{booktabs}", ""]
    head = ["solver", "pairs run", "skipped", "solved", "success", f"sgm time (s, shift "
            f"{SHIFT:g})"]
    table, t = _solver_table(rows, tol, time_limit, solvers, common=False)
    md += [markdown_table(head, table), "",
           "Over the pairs each solver was given (they differ: a solver takes only some "
           "formulations), so compare times in the tables per formulation below.  The "
           "profile is over all problems: a problem a solver does not take counts as a "
           "failure.", ""]
    tex += [latex_table(head, table, f"{suite.name}: all problems, tol {tol:g}"), ""]
    thead, trows = _tolerance_rows(rows, tol, solvers)
    md += ["### Success at looser tolerances", "",
           "The same runs, a pair counted where its certified gap is within each level:",
           "", markdown_table(thead, trows), ""]
    tex += [latex_table(thead, trows, f"{suite.name}: certified success by tolerance"), ""]
    drawn = _profile(out_dir / "profile", t, solvers,
                     f"{suite.name}: all problems (tol {tol:g})") if solvers else []
    if drawn:
        files.update(profile=drawn[0], profile_svg=drawn[1])
        md += ["![performance profile](profile.svg)", ""]
    elif solvers:
        md += ["_(profiles not drawn: matplotlib is not installed)_", ""]
    groups = list(dict.fromkeys(r["formulation"] for r in rows))
    for g in groups:
        sub = [r for r in rows if r["formulation"] == g]
        names = [s for s in solvers if any(r["solver"] == s for r in sub)]
        table, t = _solver_table(sub, tol, time_limit, names, common=True)
        md += [f"## {g}", "", markdown_table([*head, "sgm / best"], table), ""]
        tex += [latex_table([*head, "sgm / best"], table, f"{suite.name}: {g}"), ""]
        if len(names) > 1 and len({r["problem"] for r in sub}) > 1 and len(groups) > 1:
            drawn = _profile(out_dir / f"profile_{_slug(g)}", t, names, f"{g} (tol {tol:g})")
            if drawn:
                files[f"profile_{g}"] = drawn[0]
                md += [f"![performance profile, {g}]({drawn[1].name})", ""]
        md += [_details(sub), ""]
        tex += [latex_table(_DETAIL_HEAD, _detail_rows(sub), f"{suite.name}: {g}, per pair"),
                ""]
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
    md += _no_solution(rows)
    notes = [f"- {r['problem']} / {r['solver']}: {r['message']}" for r in rows
             if r.get("message")]
    if notes:
        md += ["## Notes", "", *notes, ""]
    files["report"].write_text("\n".join(md), encoding="utf-8")
    files["tex"].write_text("\n".join(tex), encoding="utf-8")
    return files
