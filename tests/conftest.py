"""Shared fixtures: small real instances and the per-solver tolerance table.

Tolerances are relative agreement with a reference optimum and reflect each solver's
accuracy at the settings convexkern gives it (``tol`` = the solver's default): Clarabel is
accurate to ~1e-8; ECOS (default certified gap 1e-5, but its dual value, the lower bound,
is within 1e-6 of the optimum on these problems) and HiGHS (gap 1e-6) to 1e-6; SMO is run to
a certified gap of 1e-6 by default, SCS (first-order) to 1e-4 and OSQP to 1e-3.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import settings
from threadpoolctl import threadpool_limits

import convexkern as ck
from convexkern.data import load, load_binary, load_thyroid
from convexkern.formulations import lp_svm
from convexkern.kernels import RBF

# Property tests draw the same examples on every run ("deterministic", the default: CI is
# reproducible and a failure is a bug to fix, not a roll of the dice);
# HYPOTHESIS_PROFILE=explore draws new ones (with CONVEXKERN_FUZZ_EXAMPLES=500 for the long
# fuzz run, docs/reliability.md).
settings.register_profile("deterministic", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))

#: relative agreement of a solver's certified value with the reference optimum
SOLVER_RTOL = {
    "clarabel": 1e-7,
    "ecos": 1e-6,
    "highs": 1e-6,
    "piqp": 1e-6,
    "mosek": 1e-7,
    "cvxopt": 1e-6,
    "smo": 1e-6,
    "scs": 1e-4,
    "osqp": 1e-3,
}


@pytest.fixture
def clean_table(monkeypatch):
    """The solver table as shipped, restored after the test whatever it registers."""
    from convexkern.solvers import dispatch, table

    monkeypatch.setattr(table, "_algorithms", dict(table._algorithms))
    monkeypatch.setattr(table, "ALGORITHMS", table.MappingProxyType(table._algorithms))
    monkeypatch.setattr(dispatch, "ALGORITHMS", table.ALGORITHMS)
    return table


def subset(X, y, n, seed):
    """``n`` points, half of each class, drawn with ``seed``."""
    rng = np.random.default_rng(seed)
    pos = rng.permutation(np.flatnonzero(y > 0))[: n // 2]
    neg = rng.permutation(np.flatnonzero(y < 0))[: n - n // 2]
    idx = np.sort(np.concatenate([pos, neg]))
    return X[idx], y[idx]


@pytest.fixture(scope="session")
def usps35_small():
    """120 real USPS images, digit 3 (+1) vs digit 5 (-1), with an RBF kernel."""
    X, y = load_binary("usps", 3, 5)
    X, y = subset(X, y, 120, seed=0)
    K = RBF(gamma=1.0 / X.shape[1] / X.var())(X)
    return X, y, K


@pytest.fixture(scope="session")
def pima_small():
    """150 real Pima patients (standardised features), RBF kernel."""
    X, y = load_binary("pima", 1, 0)
    X, y = subset(X, y, 150, seed=1)
    X = (X - X.mean(0)) / X.std(0)
    K = RBF(gamma=1.0 / X.shape[1])(X)
    return X, y, K


def conic_solvers_for(f):
    return [s for s in ck.available_solvers(f) if s in SOLVER_RTOL]


@pytest.fixture(scope="session")
def usps19():
    """20 real USPS training images, ten '1' (+1) and ten '9' (-1), as rotation
    trajectories (the SDPM tests): ``(X_traj, y, images)``."""
    from convexkern import transforms
    from convexkern.data import load_usps

    ds = load_usps("train")
    sel = np.concatenate([np.flatnonzero(ds.y == 1)[:10], np.flatnonzero(ds.y == 9)[:10]])
    X = transforms.rotation_trajectories(ds.X[sel])
    y = np.where(ds.y[sel] == 1, 1.0, -1.0)
    return X, y, ds.X[sel]


@pytest.fixture(scope="module")
def one_blas_thread():
    """For modules of small matrices (n <= 500; ``pytestmark = usefixtures``): one BLAS
    thread is fastest, and it keeps the timings stable when the machine is shared (threaded
    LAPACK degrades badly under oversubscription)."""
    with threadpool_limits(limits=1, user_api="blas"):
        yield


def blas_pool() -> int:
    """The BLAS pool's size now (the threads a BLAS call may use)."""
    from threadpoolctl import threadpool_info

    return max(p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas")


@pytest.fixture
def blas_seen(monkeypatch):
    """``watch(module, name)``: a list that receives :func:`blas_pool` at each call of
    ``module.name`` (the BLAS threads a method runs on)."""
    def watch(module, name):
        seen = []
        inner = getattr(module, name)

        def watched(*a, **k):
            seen.append(blas_pool())
            return inner(*a, **k)

        monkeypatch.setattr(module, name, watched)
        return seen
    return watch


@pytest.fixture(scope="session")
def usps_35() -> tuple[np.ndarray, np.ndarray]:
    """USPS training digits 3 (+1) and 5 (-1), pixels in [0, 1], in file order (read-only)."""
    X, y = load_binary("usps", 3, 5, split="train")
    X.setflags(write=False)
    return X, y


def minmax(X):
    """Every input scaled to [0, 1] (a constant input to 0)."""
    rng = X.max(0) - X.min(0)
    return (X - X.min(0)) / np.where(rng > 0, rng, 1.0)


@pytest.fixture(scope="session")
def A_balance():
    """Abe's triplet matrix of balance scale (625 x 4, 3 classes), inputs in [0, 1]."""
    ds = load("balance")
    return lp_svm.triplet_matrix(minmax(ds.X), ds.y)


@pytest.fixture(scope="session")
def A_pima():
    """Abe's triplet matrix of Pima (768 x 8), inputs in [0, 1]."""
    ds = load("pima")
    return lp_svm.triplet_matrix(minmax(ds.X), ds.y)


@pytest.fixture(scope="session")
def A_thyroid():
    """400 thyroid training rows (seeded), normal (3) vs the rest; 21 inputs in [0, 1]."""
    ds = load_thyroid("train")
    idx = np.sort(np.random.default_rng(0).choice(ds.y.size, 400, replace=False))
    return lp_svm.triplet_matrix(ds.X[idx], np.where(ds.y[idx] == 3, 1, -1))
