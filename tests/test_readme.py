"""The README's Python example runs and prints what the README says it prints.

The README quotes real output; this test keeps it true.  It runs the README's first
```python block as written, then parses the comparison table the README shows after it and
checks every row against the freshly computed reports: the same statuses, and primal and
dual values equal to the solvers' certified accuracy (the README prints 10 significant
digits; a rerun may differ in the last digits only through the solvers' own round-off).
"""

from __future__ import annotations

import contextlib
import io
import pathlib
import re

import pytest

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def _blocks(text: str) -> list[tuple[str, str]]:
    """(language, body) of every fenced block, in order."""
    return [(m.group(1), m.group(2)) for m in re.finditer(r"```(\w*)\n(.*?)```", text, re.S)]


def _table_after(blocks: list[tuple[str, str]], index: int) -> dict[str, list[str]]:
    """Rows of the first output table (a block with a '--------' rule) after ``index``."""
    for lang, body in blocks[index + 1:]:
        if lang == "" and "--------" in body:
            rows = {}
            for line in body.strip().splitlines()[2:]:
                cells = line.split()
                rows[cells[0]] = cells
            return rows
    raise AssertionError("no output table after the README's Python example")


def test_readme_python_example_output_is_true():
    text = README.read_text(encoding="utf-8")
    blocks = _blocks(text)
    idx = next(i for i, (lang, _) in enumerate(blocks) if lang == "python")
    expected = _table_after(blocks, idx)
    assert set(expected) == {"clarabel", "scs", "smo"}

    namespace: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(blocks[idx][1], "README.md", "exec"), namespace)  # noqa: S102
    ck = namespace["ck"]
    reports = {r.solver: r for r in ck.compare(namespace["f"],
                                               solvers=["clarabel", "scs", "smo"])}
    for name, cells in expected.items():
        r = reports[name]
        status, primal, dual = cells[1], float(cells[2]), float(cells[3])
        assert r.status.value == status, (name, r)
        # each solver's value moves only within its certified gap between runs
        assert r.primal_value == pytest.approx(primal, abs=max(r.gap, 1e-8)), (name, r)
        assert r.dual_value == pytest.approx(dual, abs=max(r.gap, 1e-8)), (name, r)
        assert r.primal_value <= r.dual_value + 1e-12 * abs(r.dual_value), (name, r)
    # the inline comment on ck.solve: "optimal 51.567696, rel_gap 2.2e-07"
    smo = namespace["r"]
    assert smo.status.value == "optimal" and smo.primal_value == pytest.approx(51.567696,
                                                                                abs=5e-7)
    assert smo.rel_gap <= 1e-6
