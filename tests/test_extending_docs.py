"""docs/extending.md's first examples (formulations with no certificate of their own) run
as written, and the tables the page prints hold on this machine by what is proven, not by
one machine's digits (:mod:`tests.printed_tables`): the same statuses, every fresh
``optimal`` row certified to its ``tol``, and every fresh certified bracket overlapping
every certified bracket the page prints."""

from __future__ import annotations

import pathlib

import convexkern as ck
from tests.printed_tables import check_against_printed, doc_tables, fences

DOC = pathlib.Path(__file__).resolve().parents[1] / "docs" / "extending.md"


def test_generic_certificate_examples_hold_what_the_page_prints():
    text = DOC.read_text(encoding="utf-8")
    code = [body for lang, body in fences(text) if lang == "python"][:2]
    printed_objects: list = []
    scope: dict = {"print": printed_objects.append}  # the examples' print(ck.compare(...))
    for block in code:
        exec(compile(block, str(DOC), "exec"), scope)  # noqa: S102
    expected = doc_tables(text)[:4]
    assert len(printed_objects) == len(expected) == 4
    for want, have in zip(expected, printed_objects):
        assert isinstance(have, ck.ReportTable)
        check_against_printed(want, have)


def test_the_added_solver_example_holds_what_the_page_prints():
    """The "Adding a conic solver" table (QOCO beside Clarabel and ECOS on the norm-SVM of
    the first section), checked where QOCO is installed."""
    import pytest

    if "qoco" not in ck.installed_solvers():
        pytest.skip("qoco is not installed (pip install qoco)")
    text = DOC.read_text(encoding="utf-8")
    printed = next(t for t in doc_tables(text) if "qoco" in t)
    code = [body for lang, body in fences(text) if lang == "python"][:2]
    scope: dict = {"print": lambda *a: None}
    for block in code:
        exec(compile(block, str(DOC), "exec"), scope)  # noqa: S102
    f = scope["norm_svm"](scope["X"], scope["y"])
    check_against_printed(printed, ck.compare(f, solvers=list(printed)))
