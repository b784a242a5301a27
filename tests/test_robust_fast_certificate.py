"""One eigendecomposition per robust-SVM solve: the certificate reuses the
solver's decomposition of K0 (convexkern.math.robust_indefinite.K0Spectrum) through the
rank-one update (convexkern.math.rank_one.RankOneUpdate.eigh) instead of a second eigh.

Tolerances: the secular roots are accurate to a few hundred eps ||M|| (see
tests/test_rank_one.py), so eigenpairs are compared to 1e-10 relative to ||M||_2; the two
certificates (update vs eigh eigenpairs) are both rigorous, and differ only through the
eigenpairs' rounding, which enters the bounds at O(n eps ||M||) relative: agreement to 1e-9
relative to the objective.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sla

import convexkern as ck
from convexkern.data import load_binary, load_usps
from convexkern.formulations import robust_indefinite as ri
from convexkern.kernels import Simpson
from convexkern.math.rank_one import RankOneUpdate
from convexkern.math.robust_indefinite import K0Spectrum
from convexkern.projections import project_svm_feasible


@pytest.fixture(scope="module")
def usps_digits():
    """200 real USPS images, digits 0-4 vs 5-9, Simpson score (indefinite)."""
    ds = load_usps("train")
    X, d = ds.X[:200], ds.y[:200]
    return Simpson()(X), np.where(d < 5, 1.0, -1.0)


def test_update_eigh_matches_scipy(usps_digits):
    K0, y = usps_digits
    rng = np.random.default_rng(5)
    r1 = RankOneUpdate(K0)
    for rho in (0.05, 1.0, 20.0):
        v = y * rng.uniform(0, 1, y.size)
        s = 1.0 / (4.0 * rho)
        M = K0 + s * np.outer(v, v)
        w_ref = sla.eigvalsh(M)
        scale = float(np.max(np.abs(w_ref)))
        w, V = r1.eigh(v, s)
        assert np.all(np.diff(w) >= 0)
        assert np.max(np.abs(w - w_ref)) <= 1e-10 * scale
        assert np.max(np.abs((V * w) @ V.T - M)) <= 1e-10 * scale
        assert np.max(np.abs(V.T @ V - np.eye(y.size))) <= 1e-9


def _certs(K0, y, alpha, C, rho, tol=None):
    spec = K0Spectrum(K0)
    spec.decomposition()
    fast = ri.certificate(K0, y, alpha, C, rho, spectrum=spec, tol=tol)
    plain = ri.certificate(K0, y, alpha, C, rho, tol=tol)
    return fast, plain


@pytest.mark.parametrize("rho", [0.2, 1.0, 10.0])
def test_fast_certificate_matches_the_eigh_certificate(usps_digits, rho):
    """At a near-optimal and at a random feasible alpha, on real data: the certificate from
    the rank-one update of K0's decomposition and the one from eigh(M(alpha)) agree, and
    both brackets contain the optimum of a tight solve (whose own bracket is certified)."""
    K0, y = usps_digits
    C = 1.0
    f = ri.dual(K0, y, C=C, rho=rho)
    ref = ck.solve(f, tol=1e-8)
    assert ref.status.value == "optimal"
    rng = np.random.default_rng(1)
    for a in (ref.x["alpha"], project_svm_feasible(rng.uniform(0, C, y.size), y, C)):
        fast, plain = _certs(K0, y, a, C, rho)
        scale = max(abs(plain.primal_value), 1.0)
        assert abs(fast.primal_value - plain.primal_value) <= 1e-9 * scale
        assert abs(fast.dual_value - plain.dual_value) <= 1e-9 * scale
        assert fast.residuals["f0"] == pytest.approx(plain.residuals["f0"], rel=1e-10)
        for c in (fast, plain):  # both rigorous: each brackets the certified optimum
            assert c.primal_value <= ref.dual_value
            assert c.dual_value >= ref.primal_value


def test_fast_certificate_on_a_large_scale_kernel():
    """The cancellation case (K0 = 100 (XX' + 1)^3, rho = 1e6) through the fast
    path: the bracket still holds the optimum 0.0126822 (a 50-digit reference,
    quoted to six digits: the truth lies in [0.01268215, 0.01268225])."""
    rng = np.random.default_rng(2)
    y = np.where(np.arange(40) % 2 == 0, 1.0, -1.0)
    X = rng.normal(size=(40, 3)) + 0.8 * y[:, None]
    K0 = 100 * (X @ X.T + 1) ** 3
    f = ri.dual(K0, y, C=1.0, rho=1e6)
    r = ck.solve(f, "robust_apg", tol=1e-6)
    assert f.data["spectrum"].known  # the certificate took the fast path
    assert r.primal_value <= 0.01268225 and r.dual_value >= 0.01268215


class _Counter:
    def __init__(self, monkeypatch):
        self.calls: list[str] = []
        for mod, name in ((sla, "eigh"), (sla, "eigvalsh"), (np.linalg, "eigh"),
                          (np.linalg, "eigvalsh")):
            orig = getattr(mod, name)

            def wrapped(*a, _orig=orig, _name=f"{mod.__name__}.{name}", **k):
                if np.ndim(a[0]) == 2 and np.shape(a[0])[0] >= 100:
                    self.calls.append(_name)
                return _orig(*a, **k)

            monkeypatch.setattr(mod, name, wrapped)


def test_one_eigendecomposition_per_solve(monkeypatch, usps_digits):
    """The default solver's solve, certificate included, costs one O(n^3) decomposition
    (of K0); a second solve on the same formulation (a path over C) costs none."""
    K0, y = usps_digits
    f = ri.dual(K0, y, C=1.0, rho=1.0)
    cnt = _Counter(monkeypatch)
    r = ck.solve(f, tol=1e-4)
    assert r.status.value == "optimal"
    assert cnt.calls == ["scipy.linalg.eigh"]
    f.set_params(C=0.5)
    r2 = ck.solve(f, tol=1e-4)
    assert r2.status.value == "optimal"
    assert cnt.calls == ["scipy.linalg.eigh"]


def test_conic_certificate_does_not_decompose_k0(monkeypatch):
    """Without a solver's decomposition, the certificate keeps its one eigh of M(alpha)
    (and one cached eigvalsh of K0 for the diagnostic f(0) at n <= 2000)."""
    X, y = load_binary("usps", 3, 5)
    K0, y = Simpson()(X[:120]), y[:120]
    f = ri.dual(K0, y, C=1.0, rho=1.0)
    a = project_svm_feasible(np.full(y.size, 0.5), y, 1.0)
    cnt = _Counter(monkeypatch)
    f.certificate({"alpha": a})
    f.certificate({"alpha": a})
    assert sorted(cnt.calls) == ["scipy.linalg.eigh", "scipy.linalg.eigh",
                                 "scipy.linalg.eigvalsh"]
    assert not f.data["spectrum"].known
