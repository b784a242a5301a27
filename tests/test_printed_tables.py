"""The checker of printed solver tables fails on what it guards against (a checker that
cannot fail proves nothing): a changed status, an uncertified 'optimal', a bracket that
misses the printed one."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests.printed_tables import check_against_printed, doc_tables

PAGE = """
```
solver    status   primal       dual         gap       rel_gap   time[s]  iter
--------  -------  -----------  -----------  --------  --------  -------  ----
clarabel  optimal  82.18034213  82.18034212  6.32e-09  7.69e-11  0.0152   15
scs       optimal  82.18034213  82.18034213  3.23e-09  3.93e-11  0.0346   275
```
"""


def _report(solver, status, primal, dual, rel_gap, tol):
    return SimpleNamespace(solver=solver, status=SimpleNamespace(value=status),
                           primal_value=primal, dual_value=dual, rel_gap=rel_gap, tol=tol,
                           message="")


def _fresh(**scs):
    args = dict(status="optimal", primal=82.17714338, dual=82.18035, rel_gap=3.9e-5,
                tol=1e-4)
    args.update(scs)
    return [_report("clarabel", "optimal", 82.18034213, 82.18034212, 7.7e-11, 1e-8),
            _report("scs", **args)]


def test_another_machines_digits_pass_when_the_brackets_hold():
    # an SCS row printed on a fresh machine: 225 iterations, rel_gap 3.91e-05
    check_against_printed(doc_tables(PAGE)[0], _fresh())


@pytest.mark.parametrize("change", [
    dict(status="optimal_inaccurate"),       # another status than the page's
    dict(rel_gap=2e-4),                      # 'optimal' beyond its tol
    dict(primal=82.1804, dual=82.1805),      # a bracket above the optimum
    dict(primal=82.17, dual=82.18),          # a bracket below it
])
def test_a_broken_promise_fails(change):
    with pytest.raises(AssertionError):
        check_against_printed(doc_tables(PAGE)[0], _fresh(**change))


def test_disjoint_printed_brackets_fail():
    page = PAGE.replace("scs       optimal  82.18034213  82.18034213",
                        "scs       optimal  82.18134213  82.18134213")
    with pytest.raises(AssertionError):
        check_against_printed(doc_tables(page)[0], _fresh())
