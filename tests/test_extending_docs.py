"""docs/extending.md's first examples (formulations with no certificate of their own) run
as written and print what the page says: the same statuses, and certified values equal to
the printed ones within the solvers' accuracy (the page prints 10 significant digits; the
certified gaps printed there are below 1e-6 relative for every 'optimal' row)."""

from __future__ import annotations

import contextlib
import io
import pathlib
import re

import numpy as np

DOC = pathlib.Path(__file__).resolve().parents[1] / "docs" / "extending.md"


def _fences(text: str) -> list[tuple[str, str]]:
    """(language, body) of every fenced block, walking the lines (a closing fence is
    never taken for an opening one)."""
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


def _tables(text: str) -> list[dict[str, list[str]]]:
    out = []
    for lang, block in _fences(text):
        if lang or "--------" not in block:
            continue
        for chunk in re.split(r"(?m)^solver ", block)[1:]:
            rows = {}
            for line in chunk.strip().splitlines()[2:]:
                cells = line.split()
                rows[cells[0]] = cells
            out.append(rows)
    return out


def test_generic_certificate_examples_print_what_the_page_says():
    text = DOC.read_text(encoding="utf-8")
    code = [body for lang, body in _fences(text) if lang == "python"][:2]
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        scope: dict = {}
        for block in code:
            exec(compile(block, str(DOC), "exec"), scope)
    expected = _tables(text)[:4]
    got = _tables("```\n" + buf.getvalue() + "```")
    assert len(got) == len(expected) == 4
    for want, have in zip(expected, got):
        assert set(want) == set(have)
        for solver, cells in want.items():
            assert have[solver][1] == cells[1], (solver, have[solver], cells)
            if cells[1] == "optimal":
                for k in (2, 3):  # primal and dual, certified to rel_gap <= 1e-6
                    assert np.isclose(float(have[solver][k]), float(cells[k]),
                                      rtol=2e-6, atol=0.0), (solver, k)
