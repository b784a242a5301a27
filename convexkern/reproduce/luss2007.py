"""Reproduction of Luss & d'Aspremont, "Support vector machine classification with
indefinite kernels", NIPS 2007 (Tables 1-2, Figure 1).

``convexkern reproduce luss2007 [--quick]``:

* data: USPS 3 vs 5 and 4 vs 6 (train and test files pooled, split at random in halves)
  with the Simpson score; Pima diabetes (614/154) and BUPA liver (276/69), standardised,
  with the Epanechnikov kernel (``sigma = 3``, indefinite on both);
* Table 1: eigenvalue range of each training kernel;
* Table 2: test accuracy and recall of five methods, hyper-parameters chosen by 5-fold
  cross-validation on the training set: denoise / flip / shift of the kernel then the
  standard SVM (the spectral transform is applied to the whole train+test kernel, as for
  the robust method's prediction heuristic); the SVM on the raw indefinite kernel (SMO with
  its curvature guard: a stationary point, not an optimum); the robust SVM (problem (3),
  accelerated projected gradient, prediction by the §2.3 heuristic);
* Figure 1: certified duality gap against iteration for ACCPM, projected gradient with the
  fixed step 1/L (both with a full eigendecomposition per iteration, as in the paper) and
  the accelerated method with rank-one eigen-updates, on the USPS 3-5 training kernel.

``--quick`` runs USPS 3-5 only, on 200 + 200 images, 3 folds, a 2 x 2 grid, and a
shorter Figure 1 on 150 images.
"""

from __future__ import annotations

import math

import numpy as np

from ..algorithms.robust_svm import accelerated_gradient, accpm, projected_gradient
from ..algorithms.smo import smo
from ..data import load_binary
from ..formulations import robust_indefinite as ri
from ..formulations import svm
from ..kernels import Epanechnikov, Simpson
from .harness import Context, ReproductionResult, cv_select, markdown_table, seeded_splits

#: The paper's numbers as the issue quotes them (Table 1 rounded: "about -35 and 454");
#: the others are not reproduced here from memory: the tables leave them blank rather
#: than invent them.
PAPER_TABLE1 = {"USPS-3-5": (-35.0, 454.0)}
PAPER_ACCURACY = {("USPS-3-5", "robust"): 96.25}

DATASETS = {
    # name: (loader args, kernel, test size)
    "USPS-3-5": (("usps", 3, 5), "simpson", 773),
    "USPS-4-6": (("usps", 4, 6), "simpson", 0.5),
    "Diabetes": (("pima", 1, 0), "epanechnikov", 154),
    "Liver": (("bupa", 1, 2), "epanechnikov", 69),
}
METHODS = ("denoise", "flip", "shift", "svm", "robust")


# ------------------------------------------------------------------ spectral baselines
def _spectral(K: np.ndarray, how: str) -> np.ndarray:
    """Denoise (clip negative eigenvalues), flip (absolute values) or shift (add
    ``|lambda_min| I``): :mod:`convexkern.spectral`."""
    from .. import spectral

    return np.asarray({"denoise": spectral.denoise, "flip": spectral.flip,
                       "shift": spectral.shift}[how](K), dtype=float)


def fit_status(method: str, solver_status: str) -> str:
    """What a training run reached, in the words of the report.

    The SVM on the raw indefinite kernel (``method="svm"``) is a nonconvex QP: SMO with
    its curvature guard stopping on its KKT tolerance has found a *stationary point*, not
    an optimum (Luss & d'Aspremont 2007, §4.1), so its ``"optimal"`` becomes
    ``"stationary_point"``.  Every other status (the spectral baselines' SMO on a PSD
    kernel, the robust SVM's certified gap, iteration limits) is kept.
    """
    if method == "svm" and solver_status == "optimal":
        return "stationary_point"
    return solver_status


def fit_predict(method: str, K_full: np.ndarray, n: int, y: np.ndarray, params: dict,
                *, tol: float = 1e-5, info: dict | None = None) -> np.ndarray:
    """Train ``method`` on the block ``K_full[:n, :n]`` and return test decision values
    for the rows ``n:`` (test kernel rows read from ``K_full``).

    ``info``, if given, is filled with ``status`` (:func:`fit_status`: the raw-kernel SVM
    reports ``"stationary_point"``, never ``"optimal"``), ``solver``, ``iterations`` and,
    for the robust SVM, its certified ``rel_gap``.
    """
    C = float(params["C"])
    if method == "robust":
        rho = float(params["rho"])
        K0 = K_full[:n, :n]
        res = accelerated_gradient(K0, y, C, rho, tol=tol, max_iter=3000)
        a = res.alpha
        if info is not None:
            info.update(status=fit_status(method, res.status), solver="robust_apg",
                        iterations=res.iterations, rel_gap=res.rel_gap)
        Kp = ri.predict_kernel(K_full, n, y, a, rho)
        b = svm.primal_bias(Kp[:n, :n] @ (y * a), y, C)
        return Kp[n:, :n] @ (y * a) + b
    Kt = K_full if method == "svm" else _spectral(K_full, method)
    Ktr = np.ascontiguousarray(Kt[:n, :n])
    r = smo(Ktr, y, C, eps=1e-3, max_iter=200_000)
    if info is not None:
        info.update(status=fit_status(method, r.status), solver="smo",
                    iterations=r.iterations, max_violation=r.max_violation)
    return Kt[n:, :n] @ (y * r.alpha) + r.b


def _kernel(name: str, X: np.ndarray) -> np.ndarray:
    if name == "simpson":
        return Simpson()(X)
    return Epanechnikov(3.0)(X)


class _FoldScorer:
    """Picklable ``fit_score(params, tr, va)`` for :func:`cv_select`."""

    def __init__(self, method: str, K: np.ndarray, y: np.ndarray) -> None:
        self.method, self.K, self.y = method, K, y

    def __call__(self, params: dict, tr: np.ndarray, va: np.ndarray) -> float:
        idx = np.concatenate([tr, va])
        Kf = self.K[np.ix_(idx, idx)]
        d = fit_predict(self.method, Kf, tr.size, self.y[tr], params, tol=1e-4)
        return float(np.mean(np.where(d > 0, 1.0, -1.0) == self.y[va]))


def _grids(quick: bool) -> tuple[list[float], list[float]]:
    if quick:
        return [1.0, 10.0], [1.0]
    return [0.1, 1.0, 10.0, 100.0], [0.1, 1.0, 10.0]


def _figure1(ctx: Context, K0: np.ndarray, y: np.ndarray, C: float, rho: float) -> dict:
    quick = ctx.quick
    tl = 4.0 if quick else 150.0
    runs = {}
    for label, fn, kw in (
        ("ACCPM (full eigh)", accpm, {"eig": "full"}),
        ("projected gradient, fixed step (full eigh)", projected_gradient,
         {"eig": "full", "step": "fixed"}),
        ("accelerated, rank-one update", accelerated_gradient, {"eig": "rank_one"}),
    ):
        ctx.progress(f"Figure 1: {label}, n = {y.size}, time limit {tl:.0f} s")
        res = fn(K0, y, C, rho, tol=1e-6, time_limit=tl, **kw)
        h = np.asarray(res.history)
        runs[label] = {
            "iteration": h[:, 0], "time": h[:, 1], "lower": h[:, 2], "upper": h[:, 3],
            "status": res.status, "final_rel_gap": res.rel_gap,
        }
    f0 = float(rho * np.sum(np.minimum(np.linalg.eigvalsh(K0), 0) ** 2))
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, axes = plt.subplots(1, 2, figsize=(11, 4))
        for label, r in runs.items():
            gap = np.maximum(r["upper"] - r["lower"], 1e-16)
            axes[0].semilogy(r["iteration"], gap / np.abs(r["upper"]), label=label)
            denom = r["lower"] - f0
            # at alpha = 0, f = f(0): the ratio is undefined there, leave those points out
            ok = denom > 1e-9 * np.abs(r["upper"])
            axes[1].semilogy(r["time"][ok], gap[ok] / denom[ok], label=label)
        axes[0].set_xlabel("iteration")
        axes[0].set_ylabel("certified gap / |upper bound|")
        axes[1].set_xlabel("seconds")
        axes[1].set_ylabel("certified gap / (f - f(0))")
        for ax in axes:
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=8)
        fig.suptitle(f"Luss & d'Aspremont 2007, Figure 1: USPS 3-5, n = {y.size}, "
                     f"C = {C:g}, rho = {rho:g}")
        fig.tight_layout()
        path = ctx.figure_path("figure1_gap.png")
        fig.savefig(path, dpi=110)
        plt.close(fig)
    except ImportError:  # pragma: no cover
        path = None
    return {"runs": runs, "f0": f0, "path": path}


def reproduce(ctx: Context) -> ReproductionResult:
    quick = ctx.quick
    names = ["USPS-3-5"] if quick else list(DATASETS)
    Cs, rhos = _grids(quick)
    folds = 3 if quick else 5
    t1_rows, t2_rows, data = [], [], {"table1": {}, "table2": {}}
    figures = []
    fig_input = None
    for name in names:
        (ds, pos, neg), kname, test_size = DATASETS[name]
        X, y = load_binary(ds, pos, neg)
        if kname == "epanechnikov":
            X = (X - X.mean(0)) / X.std(0)
        if quick:
            sub = seeded_splits(y, test_size=400, seed=ctx.seed)[0][1]
            X, y = X[sub], y[sub]
            test_size = 200
        tr, te = seeded_splits(y, test_size=test_size, seed=ctx.seed)[0]
        idx = np.concatenate([tr, te])
        ctx.progress(f"{name}: kernel on {idx.size} points ({tr.size} train / {te.size} test)")
        K_full = _kernel(kname, X[idx])
        n = tr.size
        ytr, yte = y[tr], y[te]
        w = np.linalg.eigvalsh(K_full[:n, :n])
        data["table1"][name] = (float(w[0]), float(w[-1]))
        p1 = PAPER_TABLE1.get(name, (math.nan, math.nan))
        t1_rows.append([name, n, w[0], w[-1], p1[0], p1[1]])
        if name == "USPS-3-5":
            fig_input = (K_full[:n, :n], ytr)
        Ktr = K_full[:n, :n]
        row_acc, row_rec = {}, {}
        for method in METHODS:
            grid = [{"C": c, "rho": r} for c in Cs for r in rhos] if method == "robust" \
                else [{"C": c} for c in Cs]
            best, scores = cv_select(_FoldScorer(method, Ktr, ytr), grid, ytr, folds=folds,
                                     seed=ctx.seed, ctx=ctx)
            fit_info: dict = {}
            d = fit_predict(method, K_full, n, ytr, best, info=fit_info)
            pred = np.where(d > 0, 1.0, -1.0)
            acc = 100.0 * float(np.mean(pred == yte))
            rec = 100.0 * float(np.mean(pred[yte > 0] > 0))
            row_acc[method], row_rec[method] = acc, rec
            data["table2"][f"{name}/{method}"] = {
                "accuracy": acc, "recall": rec, "params": best, "cv": scores.tolist(),
                "fit_status": fit_info["status"], "fit": fit_info,
            }
            ctx.progress(f"{name} {method}: params {best}, accuracy {acc:.2f}%, recall "
                         f"{rec:.2f}% ({fit_info['status']})")
            t2_rows.append([name, method, f"{best}", fit_info["status"], acc, rec,
                            PAPER_ACCURACY.get((name, method), math.nan)])
    # Figure 1
    K0f, yf = fig_input
    if quick:
        sub = seeded_splits(yf, test_size=100, seed=ctx.seed)[0][1]
        K0f, yf = K0f[np.ix_(sub, sub)], yf[sub]
    fig = _figure1(ctx, K0f, yf, C=1.0, rho=1.0)
    if fig["path"] is not None:
        figures.append(fig["path"])
    data["figure1"] = {k: {kk: vv for kk, vv in v.items()} for k, v in fig["runs"].items()}

    def t_to(r: dict, thr: float) -> float:
        rel = (r["upper"] - r["lower"]) / np.abs(r["upper"])
        i = np.flatnonzero(rel <= thr)
        return float(r["time"][i[0]]) if i.size else math.nan

    f_rows = [[k, int(v["iteration"][-1]), v["status"], v["final_rel_gap"], t_to(v, 1e-3),
               t_to(v, 1e-4), t_to(v, 1e-6)] for k, v in fig["runs"].items()]
    md = [
        "## Table 1: eigenvalues of the training kernels",
        "",
        markdown_table(["data set", "n train", "lambda_min", "lambda_max",
                        "paper lambda_min (approx.)", "paper lambda_max (approx.)"], t1_rows),
        "",
        *(["Quick run: the spectrum is that of a 200-image training kernel, printed beside "
           "the paper's for 767 training images; the eigenvalue range grows with n, so the "
           "two are not comparable.", ""] if quick else []),
        "## Table 2: test accuracy and recall (%), parameters by "
        f"{folds}-fold cross-validation",
        "",
        markdown_table(["data set", "method", "parameters", "final fit", "accuracy",
                        "recall", "paper accuracy"], t2_rows),
        "",
        "Paper values are shown only where the issue quotes them (a dash otherwise). The "
        "raw-kernel SVM is SMO with its curvature guard on an indefinite kernel: a "
        "stationary point, not an optimum (\"final fit\": stationary_point). The spectral "
        "baselines' SMO status is for a PSD kernel; the robust SVM's is that of its "
        "certified gap. Prediction by the heuristic of section 2.3 projects the whole "
        "train+test kernel, so a test point's decision value depends on the test batch it "
        "is predicted with.",
        "",
        "## Figure 1: certified duality gap",
        "",
        markdown_table(["method", "iterations", "status", "final rel. gap",
                        "s to 1e-3", "s to 1e-4", "s to 1e-6"], f_rows),
        "",
        "Relative gap = (U - f) / |U| with the certified bounds of each iterate; "
        f"f(0) = rho ||(K0)_-||^2 = {fig['f0']:.4g}.",
        "",
    ]
    if fig["path"] is not None:
        md.append(f"![Figure 1]({fig['path'].name})")
    return ReproductionResult(name="luss2007", markdown="\n".join(md), figures=figures,
                              data=data)
