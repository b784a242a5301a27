"""The exponential-cone steps of the generic certificate, done by array operations over
all blocks at once (``cones._into_exp``, ``cones._exp_moves``, the exponential part of
``cones._cone_box``): each result is checked against the cone's own definition, with
``math.exp`` in Python, at random points drawn over twenty orders of magnitude, at the
cone's two pieces and at points out of range, and against a per-block reading of the same
rules written here."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from convexkern.math.conic import cones
from convexkern.math.conic.data import ConicData
from convexkern.math.rounding import E_DOWN

_MAG = st.floats(min_value=-10.0, max_value=10.0)


def _data(blocks: int, nonneg: int = 0) -> ConicData:
    """A form with ``nonneg`` nonnegative rows then ``blocks`` exponential cones (the
    matrix is not read by these steps)."""
    m = nonneg + 3 * blocks
    import scipy.sparse as sp

    return ConicData(c=np.zeros(1), A=sp.csr_matrix((m, 1)), b=np.zeros(m), nonneg=nonneg,
                     exp=blocks)


def _points(rng: np.random.Generator, k: int) -> np.ndarray:
    """``k`` blocks of signed entries of magnitudes 1e-10 to 1e10, some exactly 0 and
    some on the boundary ``y exp(x/y) = z``."""
    v = rng.choice([-1.0, 1.0], (k, 3)) * 10.0 ** rng.uniform(-10, 10, (k, 3))
    v[rng.random((k, 3)) < 0.1] = 0.0
    on = rng.random(k) < 0.2
    y = np.abs(v[on, 1]) + 1.0
    x = np.clip(v[on, 0], -50 * y, 50 * y)
    v[on, 0], v[on, 1], v[on, 2] = x, y, y * np.exp(x / y)
    return v


def _next(v: float) -> float:
    """The next double up (the rules round every bound they compute upward)."""
    return float(np.nextafter(v, np.inf))


def _in_primal(x: float, y: float, z: float) -> bool:
    """``(x, y, z)`` in ``K_exp``, by ``math.exp`` (within an ulp of exp)."""
    if y > 0:
        return y * math.exp(x / y) <= z if x / y < 700 else False
    return y == 0 and x <= 0 and z >= 0


def _in_dual(u: float, v: float, w: float) -> bool:
    """``(u, v, w)`` in ``K*_exp = {u < 0, -u exp(v/u - 1) <= w} U {u = 0, v, w >= 0}``."""
    if u < 0:
        return -u * math.exp(v / u - 1.0) <= w if v / u - 1.0 < 700 else False
    return u == 0 and v >= 0 and w >= 0


@pytest.mark.parametrize("dual", [False, True])
def test_into_cone_lands_every_block_in_the_cone_or_says_why(dual):
    rng = np.random.default_rng(7 + dual)
    k = 4000
    v = _points(rng, k).ravel()
    out, reason = cones._into_cone(v, _data(k), dual)
    inside = _in_dual if dual else _in_primal
    landed = [inside(*out[3 * j: 3 * j + 3]) for j in range(k)]
    # a block the rule could not move (exp's argument past 700) is said, and only then
    missed = [j for j in range(k) if not landed[j]]
    for j in missed:
        a, bb, _ = v[3 * j: 3 * j + 3]
        arg = (bb / a - 1.0) if dual else (a / bb)
        assert arg >= 700, (j, v[3 * j: 3 * j + 3], out[3 * j: 3 * j + 3])
    assert (reason != "") == bool(missed)
    assert sum(landed) > 0.8 * k  # not vacuous
    # a block inside by more than the rule's margin for exp's error is not moved
    deep = 0
    for j in range(k):
        a, bb, cc = v[3 * j: 3 * j + 3]
        if dual and a < 0 and bb / a - 1.0 < 700:
            room = cc > -a * math.exp(bb / a - 1.0) * (1 + 1e-11)
        elif not dual and bb > 0 and a / bb < 700:
            room = cc > bb * math.exp(a / bb) * (1 + 1e-11)
        else:
            room = False
        if room:
            deep += 1
            assert np.array_equal(out[3 * j: 3 * j + 3], v[3 * j: 3 * j + 3])
    assert deep > 0.05 * k  # not vacuous either


def test_cone_moves_put_every_point_of_the_box_into_the_cone():
    rng = np.random.default_rng(11)
    k = 3000
    s = _points(rng, k)
    s[:, 1] = np.abs(s[:, 1]) + 1e-12  # y > 0 for most blocks
    rad = np.abs(s) * 10.0 ** rng.uniform(-16, -2, (k, 3))
    move, reason = cones._cone_moves(s.ravel(), rad.ravel(), _data(k))
    move = move.reshape(k, 3)
    assert np.all(move[:, :2] == 0.0)
    checked = 0
    for j in range(k):
        x, y, z = s[j]
        rx, ry, rz = rad[j]
        if not (y - ry > 0) or (x + rx) / (y - ry if x + rx >= 0 else y + ry) >= 700:
            continue  # no move exists: said by the reason (below)
        checked += 1
        for cx, cy, cz in ((1, -1, -1), (1, 1, -1), (-1, -1, -1), (0, 0, -1)):
            p = (x + cx * rx, y + cy * ry, z + cz * rz + move[j, 2])
            assert _in_primal(*p), (j, s[j], rad[j], move[j])
    assert checked > 0.5 * k
    edge = (s[:, 1] - rad[:, 1] <= 0)
    assert (reason != "") == bool(np.any(edge) or checked < k)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_MAG, _MAG, _MAG, _MAG, _MAG, _MAG), min_size=1, max_size=6),
       st.booleans())
def test_the_array_steps_match_the_per_block_rules(blocks, dual):
    """The array forms against the rules read one block at a time (the definitions of
    the module's docstrings, written here), on signed entries of magnitudes 1e-10..1e10:
    the same pieces and reasons, and values within 4 ulps (numpy's ``exp`` against
    Python's; both far inside the ``1e-12`` the rules allow for it)."""
    k = len(blocks)
    raw = np.array(blocks)
    sgn, mag = np.sign(raw[:, :3]), raw[:, 3:]
    v = (sgn * 10.0 ** mag).ravel()
    data = _data(k)
    out, reason = cones._into_cone(v, data, dual)
    want, why = v.copy(), ""
    for j in range(k):
        a, bb, cc = v[3 * j: 3 * j + 3]
        i = 3 * j
        if dual:
            if a >= 0:
                want[i: i + 3] = 0.0, max(bb, 0.0), max(cc, 0.0)
            elif bb / a - 1.0 < 700.0:
                want[i + 2] = max(cc, _next(-a * math.exp(bb / a - 1.0) * (1.0 + 1e-12)))
            else:
                why = "out of range"
        else:
            if bb <= 0:
                want[i: i + 3] = min(a, 0.0), 0.0, max(cc, 0.0)
            elif a / bb < 700.0:
                want[i + 2] = max(cc, _next(bb * math.exp(a / bb) * (1.0 + 1e-12)))
            else:
                why = "out of range"
        if not np.all(np.isfinite(want[i: i + 3])):
            why = "not finite"
    assert np.all(np.abs(out - want) <= 4 * np.spacing(np.abs(want))), (out, want)
    assert (why in reason) if why else reason == ""
    # the box of a vector in the cone: the same bounds as the per-block rules
    lo, hi = np.full(3 * k, -np.inf), v.copy() + np.abs(v)
    cones._cone_box(lo, hi, data, 0, dual)
    lo_w, hi_w = np.full(3 * k, -np.inf), v.copy() + np.abs(v)
    for j in range(k):
        i = 3 * j
        if dual:
            hi_w[i] = min(hi_w[i], 0.0)
        else:
            lo_w[i + 1] = max(lo_w[i + 1], 0.0)
            cap = max(hi_w[i + 2], 0.0) / E_DOWN * (1.0 + 1e-12)
            hi_w[i] = min(hi_w[i], float(np.nextafter(cap, np.inf)))
        lo_w[i + 2] = max(lo_w[i + 2], 0.0)
    assert np.array_equal(lo, lo_w) and np.array_equal(hi, hi_w)


def test_nonnegative_rows_before_the_blocks_keep_their_places():
    """The blocks' rows are found after the other cones' rows (a form with nonnegative
    rows first): the nonnegative rows are clipped, the blocks moved."""
    data = _data(2, nonneg=3)
    v = np.array([-1.0, 2.0, -3.0, 1.0, 1.0, 0.0, -1.0, 2.0, 0.0])
    out, reason = cones._into_cone(v, data, dual=False)
    assert reason == ""
    assert np.array_equal(out[:3], [0.0, 2.0, 0.0])
    assert out[5] >= math.e and _in_primal(*out[3:6]) and _in_primal(*out[6:9])
