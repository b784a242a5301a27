"""the SDPM upper bound is rigorous at any segment length (item 2), checked
against exact rational arithmetic (``fractions``: every float is a rational, so the
coefficients ``x_ik' w`` and the minimum of a quadratic on ``[-tau, tau]`` are computed
without rounding), and the separability witness that refutes a false ``infeasible``
(item 1) is checked the same way."""

from __future__ import annotations

import math
from fractions import Fraction as Fr

import numpy as np
import pytest

from convexkern.formulations import sdpm
from convexkern.formulations.sdpm.witness import check_witness, separability
from convexkern.math import sos
from convexkern.math.sdpm import coefficient_error, rigorous_min


def _exact_coeffs(Xi: np.ndarray, w: np.ndarray, yi: float, b: float = 0.0) -> list[Fr]:
    co = [sum((Fr(float(p)) * Fr(float(q)) for p, q in zip(row, w)), Fr(0)) for row in Xi]
    co[0] += Fr(float(b))
    return [c * int(yi) for c in co]


def _exact_min(co: list[Fr], tau: float) -> Fr:
    """min over [-tau, tau] of sum_k co[k] theta^k, degree <= 2, exactly."""
    T = Fr(tau)
    co = co + [Fr(0)] * (3 - len(co))
    c, b, a = co
    cands = [T, -T]
    if a > 0 and abs(b) <= 2 * a * T:
        cands.append(-b / (2 * a))
    return min(c + b * t + a * t * t for t in cands)


def _adversarial(seed: int, m: int = 16, n: int = 24):
    """Random quadratic trajectories and, per trajectory ``i``, a ``w`` projected onto the
    orthogonal complement of ``x_i2`` in floating point: its leading coefficient on ``i``
    is zero only to round-off (either sign), which ``tau^2`` then magnifies."""
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(m) % 2 == 0, 1.0, -1.0)
    X = rng.normal(size=(m, 3, n)) * np.array([1.0, 0.3, 0.1])[None, :, None]
    X[:, 0, :] += 0.8 * y[:, None]
    w0 = rng.normal(size=n)
    ws = [w0 - (X[i, 2] @ w0) / (X[i, 2] @ X[i, 2]) * X[i, 2] for i in range(m)]
    return X, y, ws


@pytest.mark.parametrize("tau", [0.35, 1e6, 1e12])
def test_rigorous_margins_below_exact(tau):
    X, y, ws = _adversarial(0)
    naive_over = 0
    for w in ws[:8]:
        F = y[:, None] * (X @ w)
        lo = rigorous_min(F, coefficient_error(X, w), tau)
        naive, _ = sos.poly_min(F, tau)
        for i in range(y.size):
            ex = _exact_min(_exact_coeffs(X[i], w, y[i]), tau)
            assert Fr(float(lo[i])) <= ex, (i, lo[i], float(ex))
            naive_over += Fr(float(naive[i])) > ex
    # the test discriminates: the plain floating-point minimum overestimates somewhere
    assert naive_over > 0


def _exact_upper(X, y, w, tau, C, scale=1.0):
    """The exact primal value of the best point on the ray of this w: hard margin
    ``1/2 |w|^2 / gamma^2`` with the best bias, soft margin (the point ``scale * w``, the
    certificate's scaling) ``1/2 s^2 |w|^2 + C min_b sum hinge``."""
    c = [_exact_min(_exact_coeffs(X[i], w, y[i]), tau) for i in range(y.size)]
    quad = sum((Fr(float(v)) ** 2 for v in w), Fr(0))
    if C is None:
        gamma = (min(ci for ci, yi in zip(c, y) if yi > 0)
                 + min(ci for ci, yi in zip(c, y) if yi < 0)) / 2
        return math.inf if gamma <= 0 else quad / 2 / gamma**2
    s = Fr(float(scale))
    kinks = [int(yi) * (1 - s * ci) for ci, yi in zip(c, y)]
    hinge = min(sum(max(Fr(0), 1 - s * ci - int(yi) * bb) for ci, yi in zip(c, y))
                for bb in kinks)
    return s * s * quad / 2 + Fr(C) * hinge


@pytest.mark.parametrize("C", [None, 1.0])
@pytest.mark.parametrize("tau", [0.35, 1e6, 1e12])
def test_certificate_upper_bound_is_rigorous(tau, C):
    """The certified upper bound is at least the exact value of the point it describes
    (so at least the optimum), for weight vectors whose leading coefficients are zero only
    to round-off."""
    from convexkern.math.svm import best_hinge_bias

    X, y, ws = _adversarial(1)
    if C is None:  # weight vectors that separate, then projected as in _adversarial
        _, _, w0, _ = separability(X, y, 1.0, bias=True)
        ws = [w0 - (X[i, 2] @ w0) / (X[i, 2] @ X[i, 2]) * X[i, 2] for i in range(y.size)]
    finite = naive_below = 0
    for w in [*ws[:6], 1e-3 * ws[0]]:
        cert = sdpm.certificate(X, y, segment=tau, C=C, w=w)
        ex = _exact_upper(X, y, w, tau, C, float(cert.point["scale"]))
        if C is not None:  # the former bound: floating-point margins, s = 1, best bias
            c, _ = sos.poly_min(y[:, None] * (X @ w), tau)
            naive = 0.5 * float(w @ w) + C * best_hinge_bias(y * c, y)[1]
            naive_below += Fr(naive) < _exact_upper(X, y, w, tau, C, 1.0)
        if math.isinf(cert.primal_value):
            continue
        finite += 1
        assert ex != math.inf and Fr(cert.primal_value) >= ex, (cert.primal_value, float(ex))
    if C is not None or tau < 1:  # (a hard margin at huge tau: nothing finite to check)
        assert finite > 0
    if C is not None and tau > 1:  # the floating-point margins alone gave a bound below
        assert naive_below > 0     # the exact value: the test discriminates


def _usps(k: int = 6):
    from convexkern import transforms
    from convexkern.data import load_usps

    ds = load_usps("train")
    sel = np.concatenate([np.flatnonzero(ds.y == 1)[:k], np.flatnonzero(ds.y == 9)[:k]])
    return transforms.rotation_trajectories(ds.X[sel]), np.where(ds.y[sel] == 1, 1.0, -1.0)


@pytest.mark.parametrize("tau", [1e6, 1e12])
def test_witness_separates_in_exact_arithmetic(tau):
    X, y = _usps()
    verdict, reason, w, b = separability(X, y, tau)
    assert verdict == "separable", reason
    margins = [_exact_min(_exact_coeffs(X[i], w, y[i], b), tau) for i in range(y.size)]
    assert min(margins) > 0
    assert Fr(check_witness(X, y, tau, w, b)) <= min(margins)


def test_witness_not_claimed_on_inseparable_trajectories():
    """One trajectory with both labels: nothing separates them, so no witness passes, and
    Clarabel's infeasibility proof stands."""
    import convexkern as ck

    X, y = _usps(3)
    X2 = np.concatenate([X, X[:1]])
    y2 = np.concatenate([y, -y[:1]])
    for tau in (0.35, 1e6):
        verdict, _, _, _ = separability(X2, y2, tau)
        assert verdict == "unknown"
    r = ck.solve(sdpm.primal(X2, y2, 0.35, None), "clarabel")
    assert r.status is ck.Status.INFEASIBLE, r


@pytest.mark.slow
def test_best_scale_beats_every_grid_point():
    """The soft-margin certificate also scales ``(w, b)`` by the exact minimiser ``s`` of
    ``1/2 q s^2 + C sum max(0, 1 - s marg_i)``: its value is at most the value at every
    point of a fine grid plus every kink (an independent brute force)."""
    from convexkern.formulations.sdpm.certificate import _best_scale

    rng = np.random.default_rng(0)
    for _ in range(200):
        m = int(rng.integers(1, 30))
        marg = rng.normal(size=m) * rng.choice([0.01, 1, 10]) + rng.choice([0, 0.9, 1])
        q, C = 10 ** rng.uniform(-3, 3), 10 ** rng.uniform(-3, 4)

        def phi(s, q=q, C=C, marg=marg):
            return 0.5 * q * s * s + C * np.maximum(0, 1 - s * marg).sum()

        s = _best_scale(q, marg, C)
        assert s >= 0
        grid = np.concatenate([np.linspace(0, 10, 4001), 1 / np.abs(marg[marg != 0]), [1.0]])
        best = min(phi(g) for g in grid)
        assert phi(s) <= best * (1 + 1e-12) + 1e-12, (q, C, marg, s)
