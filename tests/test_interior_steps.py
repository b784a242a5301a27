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



def _losing(threshold: float):
    """:func:`_counting` with a bound that loses the step (1 + theta where one exists)."""
    at, calls = _counting(threshold)

    def losing(theta: float):
        value = at(theta)[0]
        return (value + theta if math.isfinite(value) else value), "", {}

    return losing, calls


@pytest.mark.parametrize("reach", [0.0, 1e-6, 1e-3, 1.0])
def test_a_near_bound_ends_the_search(reach):
    """A bound ``near`` enough (within ``reach`` of 1) ends the search: the step found
    gives a near bound, or is the smallest working step, and the search costs no more
    evaluations than without the stop; with the largest step near, there is none."""
    threshold = 1e-9  # the steps below this give no bound
    at, calls = _losing(threshold)
    (value, _, _), theta = _smallest_step(at, math.isfinite, lambda v: v <= 1.0 + reach)
    full, full_calls = _losing(threshold)
    (best, _, _), smallest = _smallest_step(full, math.isfinite)
    assert smallest == min(s for s in _STEPS if s >= threshold) and best == 1.0 + smallest
    assert math.isfinite(value) and theta >= smallest and len(calls) <= len(full_calls)
    if theta != smallest:  # stopped early: only at a near bound
        assert value <= 1.0 + reach and len(calls) < len(full_calls)
    if reach >= _STEPS[-1]:
        assert theta == _STEPS[-1] and len(calls) == 2
    if 0.0 < reach < _STEPS[-1]:  # a near step above the smallest: found by the bisection
        assert smallest < theta <= reach
    if reach == 0.0:  # nothing is near: the full search
        assert (theta, calls) == (smallest, full_calls)
