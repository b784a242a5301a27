"""The search for the smallest step toward an interior point
(``convexkern.math.conic.bounds._smallest_step``): the smallest step of the grid whose
bound is finite, found with few evaluations (each one is a correction of its own, up to
seconds on a dense block)."""

from __future__ import annotations

import math

import pytest

from convexkern.math.conic.bounds import _STEPS, _smallest_step


def _counting(threshold: float):
    calls: list[float] = []

    def at(theta: float):
        calls.append(theta)
        return (1.0 if theta >= threshold else math.inf), "", {}

    return at, calls


def test_the_smallest_step_costs_one_evaluation_when_it_works():
    at, calls = _counting(0.0)
    (value, _, _), theta = _smallest_step(at, math.isfinite)
    assert theta == _STEPS[0] == min(_STEPS) and value == 1.0
    assert calls == [_STEPS[0]]


@pytest.mark.parametrize("threshold", [2e-12, 1e-9, 3e-5, 0.1, _STEPS[-1]])
def test_the_search_finds_the_smallest_working_step(threshold):
    at, calls = _counting(threshold)
    _, theta = _smallest_step(at, math.isfinite)
    assert theta == min(s for s in _STEPS if s >= threshold)
    assert len(calls) <= 2 + math.ceil(math.log2(len(_STEPS)))


def test_no_working_step_gives_the_largest_steps_result():
    at, calls = _counting(math.inf)
    (value, _, _), theta = _smallest_step(at, math.isfinite)
    assert value == math.inf and theta == _STEPS[-1]
    assert len(calls) == 2
