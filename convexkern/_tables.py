"""The one table printer and the one CSV writer.

* :func:`text_table`: an aligned plain-text table (``ReportTable``'s ``str``, the command
  line's listings);
* :func:`markdown_table`: the same rows as a GitHub-flavoured Markdown table (the
  reproductions' reports);
* :func:`latex_table`: the same rows as a LaTeX ``tabular`` (booktabs rules), for a
  benchmark report to paste into a paper;
* :func:`flatten` and :func:`csv_text`: dict rows (nested dicts flattened to dotted
  keys) as CSV (``ReportTable.to_csv``, ``convexkern solve/compare --csv``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

__all__ = ["text_table", "markdown_table", "latex_table", "flatten", "csv_text"]


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Columns left-aligned to their widest cell, two spaces apart, a dashed rule under
    the header, trailing blanks stripped."""
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(header)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()

    return "\n".join([line(header), "  ".join("-" * w for w in widths),
                      *(line(r) for r in rows)])


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A GitHub-flavoured Markdown table; floats printed with 4 significant digits, NaN
    as ``-``."""

    def cell(v: Any) -> str:
        if isinstance(v, (float, np.floating)):
            return "-" if np.isnan(v) else f"{v:.4g}"
        return str(v)

    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$",
                  "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}"}


def latex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped."""
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in str(text))


def latex_table(header: Sequence[str], rows: Iterable[Sequence[Any]],
                caption: str = "") -> str:
    """A LaTeX ``table`` with a ``tabular`` (first column left, the others right) and
    booktabs rules (``\\usepackage{booktabs}``); cells as :func:`markdown_table` prints
    them, escaped."""

    def cell(v: Any) -> str:
        if isinstance(v, (float, np.floating)):
            return "--" if np.isnan(v) else f"{v:.4g}"
        return latex_escape(v)

    cols = "l" + "r" * (len(header) - 1)
    lines = [r"\begin{table}[ht]", r"\centering", rf"\begin{{tabular}}{{{cols}}}",
             r"\toprule", " & ".join(latex_escape(h) for h in header) + r" \\", r"\midrule"]
    lines += [" & ".join(cell(v) for v in row) + r" \\" for row in rows]
    lines += [r"\bottomrule", r"\end{tabular}"]
    if caption:
        lines.append(rf"\caption{{{latex_escape(caption)}}}")
    lines.append(r"\end{table}")
    return "\n".join(lines)


def flatten(row: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """``{"a": {"b": 1}}`` -> ``{"a.b": 1}``, recursively, keys in order."""
    out: dict[str, Any] = {}
    for k, v in row.items():
        if isinstance(v, Mapping):
            out.update(flatten(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def csv_text(rows: Iterable[Mapping[str, Any]]) -> str:
    """CSV of dict rows, nested fields flattened; the columns are every key, in order of
    first appearance (a row without a key leaves its cell empty); ``\\n`` line ends."""
    flat = [flatten(r) for r in rows]
    fields: list[str] = []
    for r in flat:
        fields.extend(k for k in r if k not in fields)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    writer.writerows(flat)
    return buf.getvalue()
