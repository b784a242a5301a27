"""The GPU code path of the robust SVM (decomposition, rank-one updates, secular blocks and
certificate on a device), run on the CPU through a strict CuPy stand-in
(``tests/strict_device.py``: device arrays that refuse to mix with host arrays), and
checked against the CPU path and an independent conic solve."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import convexkern as ck
from convexkern.algorithms.rank_one import RankOneUpdate, secular_roots
from convexkern.errors import InvalidInputError
from convexkern.formulations import robust_indefinite as ri
from convexkern.math import device, secular
from tests.strict_device import DeviceArray, HostMixError, make_module


@pytest.fixture
def fake_gpu(monkeypatch):
    mod = make_module()
    monkeypatch.setitem(sys.modules, "cupy", mod)
    return mod


def _indefinite(n, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 4))
    K = np.tanh(X @ X.T / 4.0 - 0.3)  # sigmoid kernel: indefinite
    y = np.where(X[:, 0] + 0.3 * rng.standard_normal(n) > 0, 1.0, -1.0)
    return K, y


def test_the_stand_in_is_strict(fake_gpu):
    a = fake_gpu.asarray(np.ones(3))
    with pytest.raises(HostMixError):
        a + np.ones(3)
    with pytest.raises(HostMixError):
        np.asarray(a)
    with pytest.raises(HostMixError):
        sum(a)
    assert isinstance(a + 1.0, DeviceArray)
    assert float(fake_gpu.sum(a)) == 3.0


def test_resolve_names_the_argument(fake_gpu, monkeypatch):
    assert device.resolve("auto", np.eye(2)) == "cpu"
    assert device.resolve("auto", fake_gpu.asarray(np.eye(2))) == "gpu"
    assert device.resolve("cuda") == "gpu"
    with pytest.raises(InvalidInputError, match="device"):
        device.resolve("tpu")
    monkeypatch.setitem(sys.modules, "cupy", None)  # not installed
    with pytest.raises(InvalidInputError, match="device.*CuPy"):
        device.resolve("gpu")


@pytest.mark.parametrize("block", [None, 40])
def test_secular_roots_on_the_device_match_the_cpu(fake_gpu, monkeypatch, block):
    if block is not None:  # several row blocks per sweep
        monkeypatch.setattr(secular, "_GPU_BLOCK_ENTRIES", block * 60)
    rng = np.random.default_rng(3)
    d = np.sort(rng.standard_normal(60)) * 3
    z = rng.uniform(0.1, 1.0, 60)
    which = np.arange(60)
    o1, t1, N1, _ = secular_roots(d, z, 0.7, which)
    o2, t2, N2, _ = secular_roots(d, z, 0.7, which, xp=fake_gpu)
    mu1, mu2 = d[o1] + t1, d[o2] + t2
    np.testing.assert_allclose(mu2, mu1, rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(N2, N1, rtol=1e-10)
    # the roots are the eigenvalues of D + sigma zz' (independent check)
    ev = np.linalg.eigvalsh(np.diag(d) + 0.7 * np.outer(z, z))
    np.testing.assert_allclose(np.sort(mu2), ev, rtol=1e-12, atol=1e-12)


def test_rank_one_update_on_the_device(fake_gpu):
    K, _ = _indefinite(80)
    rng = np.random.default_rng(1)
    v = rng.standard_normal(80)
    cpu = RankOneUpdate(K)
    gpu = RankOneUpdate(fake_gpu.asarray(K), device="auto")
    assert gpu.device == "gpu" and isinstance(gpu.Q, DeviceArray)
    a, b = cpu.positive_apply(v, 0.25), gpu.positive_apply(v, 0.25)
    assert isinstance(b.Mv, np.ndarray)
    np.testing.assert_allclose(b.Mv, a.Mv, rtol=1e-10, atol=1e-10)
    for name in ("norm2", "neg_norm2", "neg_quad", "vK0v", "neg_trace"):
        assert getattr(b, name) == pytest.approx(getattr(a, name), rel=1e-10, abs=1e-10)
    np.testing.assert_allclose(b.Mfull_v, a.Mfull_v, rtol=1e-10, atol=1e-10)
    # eigenpairs of M = K0 + s vv' from the update: V on the device, checked from the data
    w, V = gpu.eigh(v, 0.25)
    assert isinstance(V, DeviceArray)
    Vh = V.get()
    M = K + 0.25 * np.outer(v, v)
    np.testing.assert_allclose(Vh @ np.diag(w) @ Vh.T, M, atol=1e-10)
    np.testing.assert_allclose(w, np.linalg.eigvalsh(M), atol=1e-10)
    w32, V32 = gpu.eigh(v, 0.25, single=True)
    np.testing.assert_allclose(V32.get() @ np.diag(w32) @ V32.get().T, M, atol=1e-4)


def test_robust_solve_on_the_device_matches_the_cpu_and_a_conic_solve(fake_gpu):
    K, y = _indefinite(40, seed=2)
    f_cpu = ri.dual(K, y, C=1.0, rho=1.0)
    f_gpu = ri.dual(fake_gpu.asarray(K), y, C=1.0, rho=1.0)
    assert f_gpu.data["spectrum"].device == "gpu"
    r_cpu = ck.solve(f_cpu, "robust_apg", tol=1e-8)
    r_gpu = ck.solve(f_gpu, "robust_apg", tol=1e-8)
    assert r_cpu.status == r_gpu.status == "optimal"
    # same method, same data: the iterates agree to rounding, so do the brackets
    np.testing.assert_allclose(r_gpu.x["alpha"], r_cpu.x["alpha"], atol=1e-7)
    assert r_gpu.primal_value == pytest.approx(r_cpu.primal_value, rel=1e-9)
    assert r_gpu.dual_value == pytest.approx(r_cpu.dual_value, rel=1e-9)
    # an independent solve: Clarabel on the conic dual (6), certified; both brackets hold
    # the optimum, so they meet
    conic = ck.solve(ri.dual(K, y, C=1.0, rho=1.0), "clarabel", tol=1e-7)
    assert conic.status == "optimal"
    assert r_gpu.primal_value <= conic.dual_value and conic.primal_value <= r_gpu.dual_value


def test_certificate_on_the_device_with_smo_and_single_precision(fake_gpu, monkeypatch):
    K, y = _indefinite(60, seed=4)
    f_cpu = ri.dual(K, y, C=2.0, rho=0.5, device="cpu")
    f_gpu = ri.dual(K, y, C=2.0, rho=0.5, device="gpu")
    r = ck.solve(f_cpu, "robust_apg", tol=1e-3)
    alpha = r.x["alpha"]
    for f in (f_cpu, f_gpu):
        f.data["spectrum"].decomposition()
    # tol=None: the SMO refinement runs (kernel brought to the host for it)
    c_cpu = ri.certificate(K, y, alpha, 2.0, 0.5, spectrum=f_cpu.data["spectrum"])
    c_gpu = ri.certificate(K, y, alpha, 2.0, 0.5, spectrum=f_gpu.data["spectrum"])
    assert c_gpu.residuals["smo_iterations"] > 0
    assert c_gpu.primal_value == pytest.approx(c_cpu.primal_value, rel=1e-10)
    assert c_gpu.dual_value == pytest.approx(c_cpu.dual_value, rel=1e-8)
    assert c_gpu.primal_value <= c_gpu.dual_value
    # the single-precision eigenvectors (loose tol, large n): still a valid bracket
    monkeypatch.setattr(ri, "SINGLE_N", 10)
    c32 = ri.certificate(K, y, alpha, 2.0, 0.5, tol=1e-3, spectrum=f_gpu.data["spectrum"])
    assert c32.primal_value <= c_cpu.dual_value and c_cpu.primal_value <= c32.dual_value


def test_conic_certificate_on_the_device(fake_gpu):
    """A conic solve of a GPU formulation: the certificate decomposes M(alpha) there."""
    K, y = _indefinite(25, seed=5)
    r_gpu = ck.solve(ri.dual(K, y, device="gpu"), "clarabel", tol=1e-7)
    r_cpu = ck.solve(ri.dual(K, y), "clarabel", tol=1e-7)
    assert r_gpu.status == r_cpu.status
    assert r_gpu.primal_value == pytest.approx(r_cpu.primal_value, rel=1e-9)
    assert r_gpu.dual_value == pytest.approx(r_cpu.dual_value, rel=1e-9)


def test_krein_flip_on_the_device(fake_gpu):
    from convexkern.formulations import krein

    K, y = _indefinite(50, seed=6)
    f_cpu = krein.stabilization(K, y, C=1.0, decomposition="flip")
    f_gpu = krein.stabilization(fake_gpu.asarray(K), y, C=1.0, decomposition="flip")
    d_gpu = f_gpu.data["decomposition"]
    assert isinstance(d_gpu.K_tilde, np.ndarray) and isinstance(d_gpu.eigvecs, np.ndarray)
    np.testing.assert_allclose(d_gpu.K_tilde, f_cpu.data["K"], atol=1e-12)
    # K~ = U|D|U' checked from the data: |D| are the singular values of the symmetric K
    np.testing.assert_allclose(np.linalg.eigvalsh(d_gpu.K_tilde),
                               np.sort(np.abs(np.linalg.eigvalsh(K))), atol=1e-12)
    r_cpu, r_gpu = ck.solve(f_cpu, "smo", tol=1e-8), ck.solve(f_gpu, "smo", tol=1e-8)
    assert r_cpu.status == r_gpu.status == "optimal"
    assert r_gpu.primal_value == pytest.approx(r_cpu.primal_value, rel=1e-9)
    # the Krein coefficients by U sign(D) U' without forming P agree with P itself
    at = r_gpu.x["alpha"]
    sol = krein.to_krein(f_gpu, y, at, 0.0, method="full")
    P = krein.transition_matrix(d_gpu)
    np.testing.assert_allclose(sol.alpha, y * (P @ (y * at)), atol=1e-12)
    with pytest.raises(InvalidInputError, match="device"):
        krein.stabilization(K, y, decomposition="shift", device="tpu")


def test_estimators_take_a_device(fake_gpu):
    from convexkern.estimators import KreinSVC, RobustSVMClassifier

    rng = np.random.default_rng(7)
    X = rng.standard_normal((40, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    for est in (RobustSVMClassifier(kernel="sigmoid", gamma=0.3, coef0=-0.5),
                KreinSVC(kernel="sigmoid", gamma=0.3, coef0=-0.5, decomposition="flip")):
        a = est.fit(X, y).decision_function(X)
        b = est.set_params(device="gpu").fit(X, y).decision_function(X)
        np.testing.assert_allclose(b, a, rtol=1e-6, atol=1e-6)
        with pytest.raises(ValueError, match="device"):
            est.set_params(device="tpu").fit(X, y)


def test_certificate_is_about_its_own_k0_not_the_spectrums(fake_gpu):
    """A spectrum of another matrix only loosens a certificate, on either device: the
    bracket for K2 must hold K2's optimum (Clarabel's certified bracket on K2)."""
    K, y = _indefinite(30, seed=8)
    K2 = K + 0.5 * np.eye(30)
    alpha = ck.solve(ri.dual(K2, y), "robust_apg", tol=1e-8).x["alpha"]
    conic = ck.solve(ri.dual(K2, y), "clarabel", tol=1e-7)
    for dev in ("cpu", "gpu"):
        spec = ri.dual(K, y, device=dev).data["spectrum"]
        spec.decomposition()
        c = ri.certificate(K2, y, alpha, 1.0, 1.0, spectrum=spec)
        assert c.primal_value <= conic.dual_value and conic.primal_value <= c.dual_value


# --------------------------------------------------------------------------- kernel rows
def _usps_pair(n=300):
    from convexkern.data import load_binary
    X, y = load_binary("usps", 3, 5, split="train")
    return X[:n], y[:n]


def test_rbf_rows_on_the_device_are_the_cpu_rows(fake_gpu):
    from convexkern.kernels import RBF
    X, _ = _usps_pair(200)
    k = RBF(1.0 / (X.shape[1] * X.var()))
    cpu, gpu = k.gram_rows(X), k.gram_rows(X, device="gpu")
    assert gpu.device == "gpu" and gpu.entry_error == cpu.entry_error
    rows, cols = np.arange(0, 200, 9), np.arange(5, 150, 4)
    assert isinstance(gpu.block(rows, None), DeviceArray)  # computed on the device
    # the same formula on the same doubles (here the same numpy underneath): equal rows
    np.testing.assert_array_equal(gpu.rows(rows, cols), cpu.rows(rows, cols))
    coef = np.zeros(200)
    coef[rows] = np.linspace(-1.0, 2.0, rows.size)
    np.testing.assert_allclose(gpu.times(coef), cpu.times(coef), rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(gpu.times(coef, cols), cpu.times(coef)[cols], rtol=1e-13,
                               atol=1e-13)
    np.testing.assert_array_equal(gpu.full(), cpu.full())


def test_smo_and_certificate_on_device_rows_match_the_cpu(fake_gpu):
    from convexkern.formulations import svm
    from convexkern.kernels import RBF
    X, y = _usps_pair(300)
    k = RBF(1.0 / (X.shape[1] * X.var()))
    r_cpu = ck.solve(svm.dual(k.gram_rows(X), y, C=10.0), "smo", tol=1e-6)
    r_gpu = ck.solve(svm.dual(k.gram_rows(X, device="gpu"), y, C=10.0), "smo", tol=1e-6)
    assert r_cpu.status == r_gpu.status == "optimal"
    np.testing.assert_allclose(r_gpu.x["alpha"], r_cpu.x["alpha"], atol=1e-9)
    # both brackets hold the optimum of an independent conic solve on the whole matrix
    ref = ck.solve(svm.dual(k(X), y, C=10.0), "clarabel", tol=1e-8)
    for r in (r_cpu, r_gpu):
        assert r.primal_value <= ref.dual_value + 1e-6 * abs(ref.dual_value)
        assert ref.primal_value - 1e-6 * abs(ref.primal_value) <= r.dual_value


def test_svm_classifier_on_the_device(fake_gpu):
    from convexkern.estimators import SVMClassifier
    X, y = _usps_pair(300)
    a = SVMClassifier(C=10.0).fit(X, y)
    b = SVMClassifier(C=10.0, device="gpu").fit(X, y)
    assert b.report_.ok
    np.testing.assert_array_equal(a.predict(X), b.predict(X))
    np.testing.assert_allclose(b.alpha_, a.alpha_, atol=1e-9)
    with pytest.raises(InvalidInputError, match="device"):
        SVMClassifier(kernel="linear", device="gpu").fit(X, y)
