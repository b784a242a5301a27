"""The phase ones handed to Clarabel directly (``convexkern.math.conic.phase_one``): the
same depth ``t`` as the same problem written through cvxpy, and a point whose slack is
inside every cone by that depth, checked here from the conic data with numpy (the PSD
blocks in both layouts: SCS lists the lower triangle, Clarabel the upper)."""

from __future__ import annotations

import math
import time
from types import SimpleNamespace

import cvxpy as cp
import numpy as np
import pytest

from convexkern.generic import conic_data
from convexkern.math.budget import deadline
from convexkern.math.conic import cones, phase_one

SETTINGS = cones.PHASE_ONE_SETTINGS["CLARABEL"]


def _problems() -> dict[str, cp.Problem]:
    rng = np.random.default_rng(3)
    x = cp.Variable(4)
    A = rng.normal(size=(2, 4))
    lp = cp.Problem(cp.Minimize(np.ones(4) @ x), [A @ x == A @ np.ones(4), x >= -2, x <= 5])
    z = cp.Variable(3)
    socp = cp.Problem(cp.Minimize(cp.norm(z - 1) + cp.norm(z[:2], 1)), [cp.sum(z) == 1])
    S = cp.Variable((3, 3), symmetric=True)
    C = rng.normal(size=(3, 3))
    sdp = cp.Problem(cp.Minimize(cp.trace((C + C.T) @ S)), [S >> 0, cp.trace(S) == 1,
                                                             S[0, 1] >= -0.2])
    u = cp.Variable(3)
    expo = cp.Problem(cp.Minimize(cp.sum(cp.logistic(u)) + cp.sum_squares(u)),
                      [cp.sum(u) >= -1])
    w = cp.Variable(3, pos=True)
    powc = cp.Problem(cp.Minimize(cp.sum(w) - cp.geo_mean(w)), [w <= 2, w[0] >= 0.1])
    q = cp.Variable(3)
    qp = cp.Problem(cp.Minimize(cp.sum_squares(q - 1) + q[0]), [q >= 0, cp.sum(q) <= 2])
    e = cp.Variable(2)  # exponential blocks alone set the dual depth (0.01)
    exp_only = cp.Problem(cp.Minimize(0.01 * cp.sum(cp.exp(e)) - 0.01 * cp.sum(e)))
    return {"lp": lp, "socp": socp, "sdp": sdp, "exp": expo, "pow": powc, "qp": qp,
            "exp_only": exp_only}


def _smat(v: np.ndarray, k: int, lower: bool) -> np.ndarray:
    """The symmetric matrix of a scaled svec listed column by column over the lower (or
    upper) triangle, written out independently of the library."""
    M = np.zeros((k, k))
    pos = 0
    for col in range(k):
        rows = range(col, k) if lower else range(col + 1)
        for row in rows:
            val = v[pos] if row == col else v[pos] / math.sqrt(2.0)
            M[row, col] = M[col, row] = val
            pos += 1
    return M


def _margin(data, s: np.ndarray, exp: bool = True) -> float:
    """How deep the slack ``s`` lies in the cone blocks after the zero rows (the largest
    ``t`` with ``s - t e`` in the cone, for nonneg, SOC and PSD; exp and power blocks by
    their own directions, checked by the defining inequalities)."""
    out = math.inf
    z, nn = data.zero, data.nonneg
    if nn:
        out = min(out, float(np.min(s[z: z + nn])))
    alphas = iter(data.p3d)
    for kind, i, k in data.blocks:
        if kind == "soc":
            out = min(out, float(s[i] - np.linalg.norm(s[i + 1: i + k])))
        elif kind == "psd":
            size = k * (k + 1) // 2
            out = min(out, float(np.linalg.eigvalsh(_smat(s[i: i + size], k,
                                                           data.psd_lower))[0]))
        elif kind == "exp" and not exp:
            continue
        elif kind == "exp":  # the largest t with (x + t, y - t, z - t) in K_exp
            xx, yy, zz = s[i: i + 3]
            lo, hi = 0.0, max(yy, zz)
            for _ in range(60):
                t = 0.5 * (lo + hi)
                ok = yy - t > 0 and (yy - t) * math.exp((xx + t) / (yy - t)) <= zz - t
                lo, hi = (t, hi) if ok else (lo, t)
            out = min(out, lo)
        else:  # the largest t with (x - t, y - t, z) in the power cone
            a = next(alphas)
            xx, yy, zz = s[i: i + 3]
            lo, hi = 0.0, max(min(xx, yy), 0.0)
            for _ in range(60):
                t = 0.5 * (lo + hi)
                ok = (xx - t) ** a * (yy - t) ** (1 - a) >= abs(zz)
                lo, hi = (t, hi) if ok else (lo, t)
            out = min(out, lo)
    return out


def _data(prob: cp.Problem, solver: str):
    try:
        raw, chain, _ = prob.get_problem_data(solver)
    except cp.error.SolverError:
        pytest.skip(f"{solver} is not installed")
    data, reason = conic_data(raw, chain.solver)
    assert reason == ""
    return data


def _through_cvxpy(monkeypatch, fn, *args):
    """The same phase one written through cvxpy (the direct path made unavailable)."""
    monkeypatch.setattr(phase_one, "primal", lambda *a, **k: None)
    monkeypatch.setattr(phase_one, "dual", lambda *a, **k: None)
    try:
        return fn(*args)
    finally:
        monkeypatch.undo()


@pytest.mark.parametrize("solver", ["CLARABEL", "SCS"])
@pytest.mark.parametrize("name", ["lp", "socp", "sdp", "exp", "pow", "qp"])
def test_primal_phase_one_matches_cvxpy_and_its_point_is_that_deep(monkeypatch, name, solver):
    prob = _problems()[name]
    data = _data(prob, solver)
    x, t, _ = phase_one.primal(data, None, None, SETTINGS, None)
    assert x is not None and 0 < t <= 1 + 1e-5  # t <= 1 to the phase one's feasibility tol
    x_ref, t_ref, _ = _through_cvxpy(monkeypatch, cones._phase_one, data, cp)
    assert x_ref is not None
    assert abs(t - t_ref) <= 1e-3 * max(1.0, abs(t_ref))  # both at a 1e-4 phase-one tol
    s = data.b - data.A @ x
    assert np.max(np.abs(s[: data.zero]), initial=0.0) <= 1e-7
    assert _margin(data, s) >= t * (1 - 1e-3) - 1e-7


@pytest.mark.parametrize("solver", ["CLARABEL", "SCS"])
@pytest.mark.parametrize("name", ["lp", "socp", "sdp", "exp", "qp", "exp_only"])
def test_dual_phase_one_matches_cvxpy_and_its_point_is_that_deep(monkeypatch, name, solver):
    prob = _problems()[name]
    data = _data(prob, solver)
    y, w, t = phase_one.dual(data, None, SETTINGS, None)
    assert y is not None and 0 < t <= 1 + 1e-5  # t <= 1 to the phase one's feasibility tol
    y_ref, _, t_ref = _through_cvxpy(monkeypatch, cones._dual_phase_one, data, cp, None)
    assert y_ref is not None
    assert abs(t - t_ref) <= 1e-3 * max(1.0, abs(t_ref))
    resid = data.c + data.A.T @ y + (data.P @ w if w is not None else 0.0)
    assert np.max(np.abs(resid)) <= 1e-7 * max(1.0, float(np.max(np.abs(data.c))))
    for kind, i, _ in data.blocks:  # K*_exp: (u, v, w) - t (-1, 1, 1) in K*_exp, i.e.
        if kind == "exp":  # (u - v, -u, w) in K_exp with u = y0 + t, v = y1 - t, w = y2 - t
            u, v, ww = y[i] + t, y[i + 1] - t, y[i + 2] - t
            assert -u > 0 and -u * math.exp((u - v) / -u) <= ww * (1 + 1e-6) + 1e-9
    assert _margin(data, y, exp=False) >= t * (1 - 1e-3) - 1e-7


def test_the_box_around_a_point_and_blocked_rows_are_kept(monkeypatch):
    """With a box of radius max(1, |near|) around ``near``, the point stays inside it; a
    blocked nonnegative row is only kept >= 0 (its direction is 0)."""
    data = _data(_problems()["lp"], "CLARABEL")
    near = np.full(data.A.shape[1], 30.0)
    x, t, _ = phase_one.primal(data, None, near, SETTINGS, None)
    assert x is not None and np.max(np.abs(x - near)) <= 30.0 * (1 + 1e-6)
    blocked = np.zeros(data.nonneg, dtype=bool)
    blocked[0] = True
    xb, tb, _ = phase_one.primal(data, blocked, None, SETTINGS, None)
    x_ref, t_ref, _ = _through_cvxpy(monkeypatch, cones._phase_one, data, cp, blocked)
    assert xb is not None and abs(tb - t_ref) <= 1e-3 * max(1.0, t_ref)
    s = data.b - data.A @ xb
    assert s[data.zero] >= -1e-7  # blocked: only >= 0
    assert np.min(s[data.zero + 1: data.zero + data.nonneg]) >= tb * (1 - 1e-3) - 1e-7


def test_the_dual_block_rows_are_the_dual_cones_margins():
    """``-B (y, w, t)`` is ``y - t e`` on SOC and PSD rows and ``(y0 - y1 + 2t, -y0 - t,
    y2 - t)`` on an exponential block, for any ``(y, t)``, written out here by hand."""
    rng = np.random.default_rng(0)
    for name in ("socp", "sdp", "exp", "exp_only"):
        for solver in ("CLARABEL", "SCS"):
            data = _data(_problems()[name], solver)
            m = data.A.shape[0]
            _, _, e = phase_one._cones(data, phase_one._clarabel(), [])
            y, t = rng.normal(size=m), 0.37
            B = phase_one._dual_block_rows(data, e, m + 1, m)
            got = -(B @ np.concatenate([y, [t]]))
            start = data.zero + data.nonneg
            want = y[start:] - t * e[start:]
            for kind, i, _ in data.blocks:
                if kind == "exp":
                    r = i - start
                    want[r: r + 3] = (y[i] - y[i + 1] + 2 * t, -y[i] - t, y[i + 2] - t)
            np.testing.assert_array_equal(got, want)


class _Clock:
    """A clock for ``phase_one``'s reads of ``time.perf_counter``: each read advances it by
    ``tick`` seconds."""

    def __init__(self, tick: float) -> None:
        self.now, self.tick = 0.0, tick

    def perf_counter(self) -> float:
        self.now += self.tick
        return self.now


class _Spy:
    """Clarabel with each solve's status and iteration count written down."""

    def __init__(self, clarabel) -> None:
        self._clarabel, self.solves = clarabel, []

    def __getattr__(self, name: str):
        return getattr(self._clarabel, name)

    def DefaultSolver(self, *args):  # noqa: N802 (Clarabel's name)
        solver, solves = self._clarabel.DefaultSolver(*args), self.solves

        class _Solver:
            def __getattr__(self, name: str):
                return getattr(solver, name)

            def solve(self):
                sol = solver.solve()
                solves.append((str(sol.status), sol.iterations))
                return sol

        return _Solver()


@pytest.mark.parametrize("side", ["primal", "dual"])
def test_the_phase_one_ends_when_its_next_iteration_would_pass_the_limit(monkeypatch, side):
    """Clarabel's own ``time_limit`` is read after an iteration's work (on kernel logistic
    regression's phase one a limit of 0.05 s ended after 0.107 s): the termination
    callback ends the solve when the next iteration, reckoned at 1.5 times the last one
    (before the first, the set-up's time), would pass the limit.  With a clock that moves
    a second a read and a limit of 2.5 s, no iteration fits: the solve ends at the
    callback's first call, where unhurried (or by Clarabel's own clock: 2.5 s is ages)
    it runs its iterations to the end."""
    data = _data(_problems()["socp"], "CLARABEL")
    spy = _Spy(phase_one._clarabel())
    monkeypatch.setattr(phase_one, "_clarabel", lambda: spy)
    call = (lambda limit: phase_one.primal(data, None, None, SETTINGS, limit)) \
        if side == "primal" else (lambda limit: phase_one.dual(data, None, SETTINGS, limit))
    call(None)
    status, iterations = spy.solves.pop()
    assert status == "Solved" and iterations >= 3
    monkeypatch.setattr(phase_one, "time", SimpleNamespace(perf_counter=_Clock(1.0).perf_counter),
                        raising=False)
    try:
        call(2.5)
    except phase_one.OutOfTime:
        pass
    status, iterations = spy.solves.pop()
    assert status == "CallbackTerminated" and iterations == 0


def test_no_fallback_solve_after_a_phase_one_the_clock_ended(monkeypatch):
    """A direct phase one ended by its limit leaves no time for the fallback through cvxpy
    (SCS's, begun with 0.1 s left, overran ``time_limit=1`` by a third of a second): the
    phase one answers 'no point' at once; one that ended without a point for another
    reason still falls back."""
    data = _data(_problems()["lp"], "CLARABEL")

    def out_of_time(*args, **kwargs):
        raise phase_one.OutOfTime

    solves = []
    real_solve = cp.Problem.solve
    monkeypatch.setattr(cp.Problem, "solve",
                        lambda self, *a, **k: (solves.append(1), real_solve(self, *a, **k))[1])
    monkeypatch.setattr(phase_one, "primal", out_of_time)
    monkeypatch.setattr(phase_one, "dual", out_of_time)
    with deadline(time.perf_counter() + 60.0):
        assert cones._phase_one(data, cp) == (None, 0.0, None)
        y = np.zeros(data.A.shape[0])
        assert cones._dual_phase_one(data, cp, y) == (None, None, 0.0)
    assert not solves
    monkeypatch.setattr(phase_one, "primal", lambda *a, **k: (None, math.nan, None))
    with deadline(time.perf_counter() + 60.0):
        x, t, _ = cones._phase_one(data, cp)
    assert solves and x is not None and t > 0  # no answer directly: the fallback ran


@pytest.mark.parametrize("side", ["primal", "dual"])
def test_no_second_solver_after_a_phase_one_that_found_no_interior(monkeypatch, side):
    """Clarabel's phase one solved with a margin of at most 1e-12 says the side has no
    strictly feasible point (to its accuracy): SCS is not asked again (its points there
    had margins of 1e-10 to 7e-8 and closed no bound on the public sets); a phase one
    that ended without an answer still asks it (the test above)."""
    data = _data(_problems()["lp"], "CLARABEL")
    solves = []
    real_solve = cp.Problem.solve
    monkeypatch.setattr(cp.Problem, "solve",
                        lambda self, *a, **k: (solves.append(1), real_solve(self, *a, **k))[1])
    if side == "primal":
        monkeypatch.setattr(phase_one, "primal", lambda *a, **k: (None, -3e-13, None))
        assert cones._phase_one(data, cp) == (None, 0.0, None)
    else:
        monkeypatch.setattr(phase_one, "dual", lambda *a, **k: (None, None, 1e-13))
        assert cones._dual_phase_one(data, cp, None) == (None, None, 0.0)
    assert not solves
    monkeypatch.setattr(phase_one, side, (lambda *a, **k: (None, math.nan, None)) if
                        side == "primal" else (lambda *a, **k: (None, None, math.nan)))
    got = cones._phase_one(data, cp) if side == "primal" else cones._dual_phase_one(
        data, cp, None)
    assert solves and got[0] is not None


def test_a_phase_one_without_interior_says_so_by_its_margin():
    """A side with no strictly feasible point (``x >= 0, -x >= 0``: the margin is 0) gives
    no point and a finite margin of at most 1e-12, not the NaN of a solve that ended
    without an answer."""
    x = cp.Variable(2)
    data = _data(cp.Problem(cp.Minimize(cp.sum(x)), [x >= 0, -x >= 0]), "CLARABEL")
    got, t, _ = phase_one.primal(data, None, None, SETTINGS, None)
    assert got is None and math.isfinite(t) and t <= 1e-12
