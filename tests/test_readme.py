"""The README's Python example runs and prints what the README says it prints.

The README quotes real output; this test keeps it true on any machine.  It runs the
README's first ```python block as written, then parses the comparison table the README
shows after it and checks it against fresh reports by what is proven, not by one
machine's digits (:mod:`tests.printed_tables`): the same statuses, every fresh ``optimal``
row certified to its ``tol``, and every fresh certified bracket overlapping every printed
one.
"""

from __future__ import annotations

import contextlib
import io
import pathlib
import re

from tests.printed_tables import bracket, check_against_printed

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
    check_against_printed(expected, ck.compare(namespace["f"],
                                               solvers=["clarabel", "scs", "smo"]))
    # the inline comment on ck.solve: "optimal 51.567696, rel_gap 3.2e-07": SMO's point is
    # certified to the tol asked (1e-6), and its bracket holds the optimum, which the
    # printed value rounds (the printed Clarabel bracket lies in that rounding interval)
    comment = re.search(r'ck\.solve\(f, "smo", tol=1e-6\)\s+# (\w+) ([\d.]+), rel_gap', text)
    assert comment is not None
    status, value = comment.group(1), comment.group(2)
    half = 0.5 * 10.0 ** -len(value.partition(".")[2])
    smo = namespace["r"]
    assert smo.status.value == status and smo.rel_gap <= 1e-6
    lo, up = bracket(smo.primal_value, smo.dual_value)
    assert lo <= float(value) + half and up >= float(value) - half, (lo, up, value)
