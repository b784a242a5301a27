"""Abe (2012) Table 1: the numerics of one cross-validation job (``CV_NUMERICS = "v2"``).

The v2 job computes what v1 (one cold scikit-learn SVC and ``decision_function`` per grid
point, fresh ``exp`` arrays) computed, faster: Gram matrices in reused buffers, decisions
from the support vectors, and a solution with no ``alpha`` at its bound ``C_k`` kept for
every larger ``C``.  The last step rests on LIBSVM's stopping rule (Fan, Chen & Lin, JMLR
6, 2005, Sec. 2: maximal violation ``m(alpha) - M(alpha) < tol``), checked here from its
definition, not through the code under test.
"""

from __future__ import annotations

import numpy as np
import pytest

from convexkern.reproduce import abe2012

_TOL = 1e-3  # LIBSVM's default stopping tolerance (scikit-learn's SVC tol)


def _balance_fold(seed=0):
    X, y, splits = abe2012.load_problem("balance", n_splits=1, seed=seed)
    tr, _ = splits[0]
    rng = np.random.default_rng(seed)
    perm = rng.permutation(tr)
    a, b = np.sort(perm[: int(0.8 * tr.size)]), np.sort(perm[int(0.8 * tr.size):])
    return X, y, a, b


def _violation(K, y, alpha, C):
    """LIBSVM's maximal violation m(alpha) - M(alpha) of the box [0, C], from v = y - K(y alpha)
    (v_t = -y_t grad_t of the dual in minimisation form)."""
    v = y - K @ (y * alpha)
    up = ((y > 0) & (alpha < C)) | ((y < 0) & (alpha > 0))
    low = ((y > 0) & (alpha > 0)) | ((y < 0) & (alpha < C))
    return float(v[up].max() - v[low].min())


def test_a_saturated_solution_is_kept_and_meets_the_stopping_rule_at_larger_C():
    """On Balance (one problem, delta = 50: a nearly diagonal Gram matrix, so every alpha
    stays far below C from C = 10 on), the decisions of C = 10 are reused for C = 50 ... 2000
    and, as LIBSVM's stopping rule requires, that alpha's maximal violation in the box of
    every larger C is < tol; the unsaturated C = 1 agrees with a cold SVC."""
    from sklearn.svm import SVC

    X, y, a, b = _balance_fold()
    Xa, Xb = abe2012._minmax(X[a], X[b])
    yb = np.where(y[a] == "L", 1, -1).astype(float)
    D, Dv = abe2012._sqdist(Xa, Xa), abe2012._sqdist(Xb, Xa)
    K, Kv = np.exp(-50.0 * D), np.exp(-50.0 * Dv)
    Cs = abe2012.GRIDS["C"]
    dec = abe2012._decisions_over_C(K.copy(), Kv.copy(), yb, Cs)

    svm = SVC(kernel="precomputed", C=10.0).fit(K, yb)
    alpha = np.zeros(yb.size)
    alpha[svm.support_] = np.abs(svm.dual_coef_[0])
    assert alpha.max() < 10.0  # saturated at C = 10: the case under test
    ref10 = svm.decision_function(Kv)
    for j, C in enumerate(Cs):
        if C >= 10.0:
            assert np.array_equal(dec[j], dec[1])  # kept
            assert _violation(K, yb, alpha, C) < _TOL
    np.testing.assert_allclose(dec[1], ref10, rtol=0, atol=1e-9 * np.abs(ref10).max())
    ref1 = SVC(kernel="precomputed", C=1.0).fit(K, yb).decision_function(Kv)
    np.testing.assert_allclose(dec[0], ref1, rtol=0, atol=1e-9 * np.abs(ref1).max())


def _rates_v1(X, y, tr, va, method, C_M, deltas, Cs):
    """The v1 job (before CV_NUMERICS = "v2"): a cold SVC and decision_function per point."""
    from sklearn.svm import SVC

    Xtr, Xva = abe2012._minmax(X[tr], X[va])
    classes = np.unique(y[tr])
    probs = abe2012._problems(y[tr], classes)
    dec = np.zeros((len(probs), len(deltas), len(Cs), va.size))
    for p, yb in enumerate(probs):
        t = abe2012._weights(method, Xtr, yb, C_M)
        Ftr, Fva = t.transform(Xtr), t.transform(Xva)
        Dtr, Dva = abe2012._sqdist(Ftr, Ftr), abe2012._sqdist(Fva, Ftr)
        for i, d in enumerate(deltas):
            Ktr, Kva = np.exp(-d * Dtr), np.exp(-d * Dva)
            for j, C in enumerate(Cs):
                dec[p, i, j] = SVC(kernel="precomputed", C=C).fit(Ktr, yb).decision_function(Kva)
    return np.array([[100.0 * np.mean(abe2012._predict(dec[:, i, j], classes) == y[va])
                      for j in range(len(Cs))] for i in range(len(deltas))])


@pytest.mark.parametrize("method", ["lp", "rbf"])
@pytest.mark.slow
def test_cv_job_rates_equal_the_cold_fits(method):
    """The v2 job's validation rates on one Balance fold (3 problems, the paper's 9 x 7
    grid) are the v1 job's at every grid point: a kept saturated solution and the decisions
    from the support vectors change no prediction here."""
    X, y, a, b = _balance_fold()
    deltas, Cs = abe2012.GRIDS["delta"], abe2012.GRIDS["C"]
    C_M = 2000.0 if method == "lp" else None
    got = abe2012.fold_scores((X, y, a, b, method, C_M, deltas, Cs, abe2012.CV_NUMERICS))
    want = _rates_v1(X, y, a, b, method, C_M, deltas, Cs)
    np.testing.assert_array_equal(got["rates"], want)
    assert len(got["selected"]) == len(got["lp_status"]) == 3


@pytest.mark.slow
def test_stage_two_takes_the_stage_one_row_and_selects_as_the_full_grid_does():
    """The two-stage C_M selection with stage 2's C_M = 2000 row taken from stage 1 picks
    the (C_M, C) and CV rate that stage 2 computed over its whole C_M grid picks."""
    X, y, splits = abe2012.load_problem("balance", n_splits=1)
    tr, te = splits[0]
    g = dict(abe2012.QUICK_GRIDS, C_M=[1.0, 2000.0, 10.0])
    r = abe2012.evaluate(X, y, tr, te, "lp", g, folds=3, seed=0, stages=2)
    mean1, _, _ = abe2012._cv_grid(X, y, tr, "lp", [2000.0], g["delta"], g["C"], 3, 0,
                                   None, None)
    delta = g["delta"][abe2012._best(mean1)[1]]
    mean, _, _ = abe2012._cv_grid(X, y, tr, "lp", g["C_M"], [delta], g["C"], 3, 0, None, None)
    k, _, j = abe2012._best(mean)
    assert r["best"] == {"C_M": g["C_M"][k], "delta": delta, "C": g["C"][j]}
    assert r["cv_rate"] == float(mean[k, 0, j])


def test_distances_into_a_buffer_equal_the_v1_formula():
    """The squared distances written into a reused buffer are the v1 formula's, bit for bit
    (the v2 job changed where they are written, not what they are)."""
    X, y, a, b = _balance_fold()
    Xa, Xb = abe2012._minmax(X[a], X[b])
    rng = np.random.default_rng(0)
    big, wide = rng.random((5000, 3)), rng.random((2000, 3))  # 2 row blocks of 4194
    for A, B in ((Xa, Xa), (Xb, Xa), (big, wide)):
        want = np.maximum((A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2.0 * A @ B.T,
                          0.0)
        out = np.full((A.shape[0], B.shape[0]), np.nan)
        assert abe2012._sqdist(A, B, out) is out
        assert np.array_equal(out, want)


@pytest.mark.slow
def test_the_first_stage_batch_holds_exactly_the_jobs_evaluate_reads(tmp_path):
    """With several workers, ``table1`` runs every method's first CV stage in one batch; the
    jobs ``evaluate`` then asks for are the same tuples (cache hits, nothing computed
    twice), and the table equals that of a serial run without the batch."""
    from convexkern.reproduce.harness import Context

    class Recording(Context):
        def parallel(self, fn, items):
            items = list(items)
            self.calls.append(items)
            return [fn(it) for it in items]

    def key(job):
        X, y, a, b, method, C_M, deltas, Cs = job[:8]
        return (a.tobytes(), b.tobytes(), method, C_M, tuple(deltas), tuple(Cs), job[8:])

    ctx = Recording("abe2012", True, tmp_path / "par", n_jobs=2, verbose=False)
    ctx.calls = []
    par = abe2012.table1(ctx, datasets=["thyroid"], quick=True)
    fold_calls = [c for c in ctx.calls if len(c[0]) == 9]  # fold_scores jobs (9-tuples)
    batch = {key(j) for j in fold_calls[0]}
    assert len(batch) == len(fold_calls[0]) == 3 * 3  # 3 methods x 3 folds, distinct
    firsts = [c for c in fold_calls[1:] if len(c[0][6]) > 1]  # the full delta grid
    assert len(firsts) == 3 and all(key(j) in batch for c in firsts for j in c)
    stage2 = [j for c in fold_calls[1:] if len(c[0][6]) == 1 for j in c]
    assert stage2 and not any(key(j) in batch for j in stage2)

    ser = abe2012.table1(None, datasets=["thyroid"], quick=True)

    def strip(d):
        if isinstance(d, dict):
            return {k: strip(v) for k, v in d.items() if k != "time"}
        return [strip(v) for v in d] if isinstance(d, list) else d
    assert strip(par) == strip(ser)
