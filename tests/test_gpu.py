"""The GPU path on a real CUDA device through CuPy (skipped, with the reason, where there is
none): the same checks as ``tests/test_device.py``, whose strict stand-in runs them in CI."""

from __future__ import annotations

import numpy as np
import pytest

import convexkern as ck
from convexkern.algorithms.rank_one import RankOneUpdate, secular_roots
from convexkern.formulations import krein
from convexkern.formulations import robust_indefinite as ri
from convexkern.math.device import gpu_available

_OK, _WHY = gpu_available()
pytestmark = pytest.mark.skipif(not _OK, reason=f"no CUDA device through CuPy: {_WHY}")


def _indefinite(n, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 4))
    K = np.tanh(X @ X.T / 4.0 - 0.3)
    y = np.where(X[:, 0] + 0.3 * rng.standard_normal(n) > 0, 1.0, -1.0)
    return K, y


def test_secular_roots_on_the_gpu():
    import cupy

    rng = np.random.default_rng(3)
    d = np.sort(rng.standard_normal(500)) * 3
    z = rng.uniform(0.1, 1.0, 500)
    o, t, _, _ = secular_roots(d, z, 0.7, np.arange(500), xp=cupy)
    ev = np.linalg.eigvalsh(np.diag(d) + 0.7 * np.outer(z, z))
    np.testing.assert_allclose(np.sort(d[o] + t), ev, rtol=1e-12, atol=1e-12)


def test_rank_one_update_on_the_gpu():
    K, _ = _indefinite(400)
    v = np.random.default_rng(1).standard_normal(400)
    a = RankOneUpdate(K).positive_apply(v, 0.25)
    gpu = RankOneUpdate(K, device="gpu")
    b = gpu.positive_apply(v, 0.25)
    np.testing.assert_allclose(b.Mv, a.Mv, rtol=1e-9, atol=1e-9)
    assert b.neg_norm2 == pytest.approx(a.neg_norm2, rel=1e-9)
    w, V = gpu.eigh(v, 0.25)
    Vh = V.get()
    np.testing.assert_allclose(Vh @ np.diag(w) @ Vh.T, K + 0.25 * np.outer(v, v), atol=1e-9)


def test_robust_solve_on_the_gpu_matches_the_cpu():
    K, y = _indefinite(300, seed=2)
    r_cpu = ck.solve(ri.dual(K, y), "robust_apg", tol=1e-7)
    r_gpu = ck.solve(ri.dual(K, y, device="gpu"), "robust_apg", tol=1e-7)
    assert r_cpu.status == r_gpu.status == "optimal"
    assert r_gpu.primal_value <= r_cpu.dual_value and r_cpu.primal_value <= r_gpu.dual_value
    assert r_gpu.primal_value == pytest.approx(r_cpu.primal_value, rel=1e-7)


def test_certificate_with_smo_on_the_gpu():
    K, y = _indefinite(200, seed=4)
    f_cpu, f_gpu = ri.dual(K, y, C=2.0, rho=0.5), ri.dual(K, y, C=2.0, rho=0.5, device="gpu")
    alpha = ck.solve(f_cpu, "robust_apg", tol=1e-3).x["alpha"]
    f_gpu.data["spectrum"].decomposition()
    c_cpu = ri.certificate(K, y, alpha, 2.0, 0.5, spectrum=f_cpu.data["spectrum"])
    c_gpu = ri.certificate(K, y, alpha, 2.0, 0.5, spectrum=f_gpu.data["spectrum"])
    assert c_gpu.primal_value == pytest.approx(c_cpu.primal_value, rel=1e-9)
    assert c_gpu.dual_value == pytest.approx(c_cpu.dual_value, rel=1e-7)


def test_krein_flip_on_the_gpu():
    K, y = _indefinite(300, seed=6)
    a = krein.stabilization(K, y, decomposition="flip").data["K"]
    b = krein.stabilization(K, y, decomposition="flip", device="gpu").data["K"]
    np.testing.assert_allclose(b, a, atol=1e-10)


def test_rbf_rows_on_the_gpu_within_the_bound_of_the_exact_kernel():
    from convexkern.data import load_binary
    from convexkern.kernels import RBF

    X, y = load_binary("usps", 3, 5, split="train")
    X, y = X[:400], y[:400]
    gr = RBF(1.0 / (X.shape[1] * X.var())).gram_rows(X, device="gpu")
    rows = np.arange(0, 400, 11)
    B = gr.rows(rows)
    Xc = (X - X.mean(axis=0)).astype(np.longdouble)  # the points the bound is about
    diff = Xc[rows][:, None, :] - Xc[None, :, :]
    exact = np.exp(-np.longdouble(RBF(1.0 / (X.shape[1] * X.var())).gamma)
                   * np.sum(diff * diff, axis=2))
    assert float(np.max(np.abs(B.astype(np.longdouble) - exact))) <= gr.entry_error
    coef = np.zeros(400)
    coef[rows] = 1.0
    np.testing.assert_allclose(gr.times(coef), B.sum(axis=0), rtol=1e-12)


def test_svm_classifier_with_rows_on_the_gpu():
    from convexkern.data import load_binary
    from convexkern.estimators import SVMClassifier

    X, y = load_binary("usps", 3, 5, split="train")
    a = SVMClassifier(C=10.0).fit(X, y)
    b = SVMClassifier(C=10.0, device="gpu").fit(X, y)
    assert b.report_.ok
    np.testing.assert_array_equal(a.predict(X), b.predict(X))
