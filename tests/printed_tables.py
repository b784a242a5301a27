"""Checking a solver table that the docs print against a fresh run, by what is guaranteed.

An iterative solver's path depends on the floating-point environment (the BLAS kernel, the
CPU, the thread count), so two machines print different digits for SCS, OSQP or ECOS, and
even for an interior-point method's last iterate.  What does not depend on the machine is
what a certificate proves: every certified bracket holds the true optimum, so any two of
them, printed on one machine or computed on another, overlap.  A printed table is checked
against a fresh one by

* the same status for every solver (the page's claim about each solver's outcome);
* every fresh ``optimal`` row certified to its ``tol`` (``rel_gap <= tol``);
* every fresh bracket overlapping every printed certified bracket, each widened by the
  rounding of the 10 significant digits the table prints.

A row is ``[solver, status, primal, dual, gap, rel_gap, ...]`` as
:class:`convexkern.report.ReportTable` prints it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence

#: the tables print values with 10 significant digits (``%.10g``): half a unit of the last
#: one is 5e-10 relative; 1e-9 leaves room for the rounding of the comparison itself
PRINT_RTOL = 1e-9


def fences(text: str) -> list[tuple[str, str]]:
    """(language, body) of every fenced block of a Markdown text, walking the lines (a
    closing fence is never taken for an opening one)."""
    out, lang, body = [], None, []
    for line in text.splitlines():
        if line.startswith("```"):
            if lang is None:
                lang, body = line[3:].strip(), []
            else:
                out.append((lang, "\n".join(body) + "\n"))
                lang = None
        elif lang is not None:
            body.append(line)
    return out


def tables(text: str) -> list[dict[str, list[str]]]:
    """Every solver table in ``text`` (a printed ``ReportTable``): solver -> its cells."""
    out = []
    for chunk in re.split(r"(?m)^solver ", text)[1:]:
        rows = {}
        for line in chunk.strip().splitlines()[2:]:
            cells = line.split()
            if not cells or cells[0].startswith("-"):
                break
            rows[cells[0]] = cells
        out.append(rows)
    return out


def doc_tables(text: str) -> list[dict[str, list[str]]]:
    """The solver tables of a Markdown page's unlabelled fenced blocks."""
    out = []
    for lang, block in fences(text):
        if not lang and "--------" in block:
            out.extend(tables(block))
    return out


def bracket(primal: float, dual: float, rtol: float = 0.0) -> tuple[float, float]:
    """The interval between two certified values, widened by ``rtol`` of their size."""
    lo, up = min(primal, dual), max(primal, dual)
    return lo - rtol * abs(lo), up + rtol * abs(up)


def _printed_bracket(cells: Sequence[str]) -> tuple[float, float]:
    return bracket(float(cells[2]), float(cells[3]), PRINT_RTOL)


def check_against_printed(
    printed: Mapping[str, Sequence[str]],
    fresh: Iterable[object],
) -> None:
    """Assert that fresh reports agree with a printed table by what is proven (see the
    module docstring).  ``fresh``: :class:`convexkern.SolveReport` objects."""
    reports = {r.solver: r for r in fresh}
    assert set(reports) == set(printed), (sorted(reports), sorted(printed))
    # the printed certified brackets are proofs about one optimum: they overlap
    proofs = [_printed_bracket(c) for c in printed.values() if c[1] == "optimal"]
    for a in proofs:
        for b in proofs:
            assert a[0] <= b[1] and b[0] <= a[1], ("printed brackets disjoint", a, b)
    for name, cells in printed.items():
        r = reports[name]
        assert r.status.value == cells[1], (name, r.status.value, cells[1], r.message)
        if r.status.value == "optimal":
            assert r.rel_gap <= r.tol, (name, r.rel_gap, r.tol)
        if not (math.isfinite(r.primal_value) or math.isfinite(r.dual_value)):
            continue
        lo, up = bracket(r.primal_value, r.dual_value)
        for plo, pup in proofs:
            assert lo <= pup and plo <= up, (name, "fresh bracket", (lo, up),
                                             "misses the printed one", (plo, pup))

