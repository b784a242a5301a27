"""Reproduction of Luss & d'Aspremont, "Support vector machine classification with
indefinite kernels", NIPS 2007 (Tables 1-2, Figure 1).

``convexkern reproduce luss2007 [--quick]``:

* data: USPS 3 vs 5 and 4 vs 6 (train and test files pooled) with the Simpson score;
  Pima diabetes and BUPA liver, standardised, with the Epanechnikov kernel (``sigma = 3``,
  indefinite on both); plain random splits of the paper's sizes (Table 1: 767/773,
  829/857, 614/154, 276/69), :data:`N_SPLITS` of them in the full run (seeds ``seed`` ..
  ``seed + 4``), each data set's recall that of the class the paper's recalls imply;
* Table 1: eigenvalue range of each training kernel, beside the paper's
  (:data:`PAPER_TABLE1`);
* Table 2: test accuracy and recall of five methods, hyper-parameters chosen by 5-fold
  cross-validation on the training set: denoise / flip / shift of the kernel then the
  standard SVM (the spectral transform is applied to the whole train+test kernel, as for
  the robust method's prediction heuristic); the SVM on the raw indefinite kernel (SMO with
  its curvature guard: a stationary point, not an optimum); the robust SVM (problem (3),
  accelerated projected gradient, prediction by the §2.3 heuristic); mean ± std over the
  splits beside the paper's values (:data:`PAPER_TABLE2`) and the difference;
* Figure 1: certified duality gap against iteration for ACCPM, projected gradient with the
  fixed step 1/L (both with a full eigendecomposition per iteration, as in the paper) and
  the accelerated method with rank-one eigen-updates, on the USPS 3-5 training kernel.

``--quick`` runs USPS 3-5 only, one split of 200 + 200 images, 3 folds, C in {1, 10}
and rho = 1, and a shorter Figure 1 on 100 images; its tables still print the paper's
columns (not like for like: the report says so).
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

#: Luss & d'Aspremont 2007, Table 1 ("Statistics for various data sets"), typed in from
#: the paper's text: # train, # test, lambda_min and lambda_max of the training kernels.
PAPER_TABLE1 = {
    "USPS-3-5": (767, 773, -34.76, 453.58),
    "USPS-4-6": (829, 857, -37.30, 413.17),
    "Diabetes": (614, 154, -0.27, 18.17),
    "Liver": (276, 69, -1.38e-15, 3.74),
}
#: Luss & d'Aspremont 2007, Table 2 ("Performance Measures for various data sets"), typed
#: in from the paper's text: (accuracy, recall) in %, one random split per data set
#: (the paper gives no standard deviations).  "svm" is the paper's "SVM" (the raw
#: indefinite kernel), "robust" its "Indefinite SVM".
PAPER_TABLE2 = {
    ("USPS-3-5", "denoise"): (95.47, 94.50), ("USPS-3-5", "flip"): (95.73, 95.45),
    ("USPS-3-5", "shift"): (90.43, 92.11), ("USPS-3-5", "svm"): (74.90, 72.73),
    ("USPS-3-5", "robust"): (96.25, 96.65),
    ("USPS-4-6", "denoise"): (97.78, 98.42), ("USPS-4-6", "flip"): (97.90, 98.65),
    ("USPS-4-6", "shift"): (94.28, 93.68), ("USPS-4-6", "svm"): (90.08, 88.49),
    ("USPS-4-6", "robust"): (97.90, 98.87),
    ("Diabetes", "denoise"): (75.32, 90.00), ("Diabetes", "flip"): (74.68, 90.00),
    ("Diabetes", "shift"): (68.83, 92.00), ("Diabetes", "svm"): (75.32, 90.00),
    ("Diabetes", "robust"): (68.83, 95.00),
    ("Liver", "denoise"): (63.77, 22.58), ("Liver", "flip"): (63.77, 22.58),
    ("Liver", "shift"): (57.97, 25.81), ("Liver", "svm"): (63.77, 22.58),
    ("Liver", "robust"): (65.22, 22.58),
}

DATASETS = {
    # name: (loader args (data set, positive class, negative class), kernel, test size).
    # The positive class (whose recall is reported) is the one the paper's recall values
    # imply: each is k / d for one count d of positives in its test set: USPS-3-5 418 of
    # 773 (the digit 3), USPS-4-6 443 of 857 (the digit 4), Diabetes 100 of 154 (90.00,
    # 92.00, 95.00: the *non-diabetic* class, 500 of 768), Liver 31 of 69 (22.58 = 7/31,
    # 25.81 = 8/31: BUPA selector 1, 145 of 345).
    "USPS-3-5": (("usps", 3, 5), "simpson", 773),
    "USPS-4-6": (("usps", 4, 6), "simpson", 857),
    "Diabetes": (("pima", 0, 1), "epanechnikov", 154),
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
        # the paper's protocol: every method runs for the same time (no stall stop)
        res = fn(K0, y, C, rho, tol=1e-6, time_limit=tl, stall_window=0, **kw)
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


#: random train/test splits of the full run (the paper reports one; five or more give a spread)
N_SPLITS = 5
#: deviations from the paper above this many points are listed in the report
FLAG_POINTS = 2.0


def load_split(name: str, split_seed: int, quick: bool
               ) -> tuple[np.ndarray, int, np.ndarray, np.ndarray]:
    """The kernel on train+test points of one random split of data set ``name``:
    ``(K_full, n_train, y_train, y_test)`` (training rows first).

    The paper's protocol (§4.1): "the data is randomly divided into training and testing
    data" with the sizes of its Table 1, so the split is a plain random one (not
    stratified).  ``quick`` first draws 400 points (seeded) and splits them 200 / 200.
    """
    (ds, pos, neg), kname, test_size = DATASETS[name]
    X, y = load_binary(ds, pos, neg)
    if kname == "epanechnikov":
        X = (X - X.mean(0)) / X.std(0)
    if quick:
        sub = seeded_splits(y, test_size=400, seed=split_seed)[0][1]
        X, y = X[sub], y[sub]
        test_size = 200
    tr, te = seeded_splits(y, test_size=test_size, seed=split_seed, stratify=False)[0]
    idx = np.concatenate([tr, te])
    return _kernel(kname, X[idx]), tr.size, y[tr], y[te]


def table2_split(name: str, split_seed: int, quick: bool) -> dict:
    """Tables 1 and 2 on one random split: the training kernel's spectrum and, for each
    method, the test accuracy and recall (%) with C (and rho) chosen by cross-validation
    on the training part (5-fold, 3 with ``quick``), as in the paper's §4.1.

    Module-level and of plain arguments so that :meth:`Context.cached` can memoise it:
    an interrupted full run resumes split by split.
    """
    K_full, n, ytr, yte = load_split(name, split_seed, quick)
    Cs, rhos = _grids(quick)
    folds = 3 if quick else 5
    w = np.linalg.eigvalsh(K_full[:n, :n])
    out: dict = {"name": name, "seed": split_seed, "n_train": n, "n_test": yte.size,
                 "n_test_positive": int(np.sum(yte > 0)),
                 "lambda_min": float(w[0]), "lambda_max": float(w[-1]), "methods": {}}
    Ktr = K_full[:n, :n]
    for method in METHODS:
        grid = [{"C": c, "rho": r} for c in Cs for r in rhos] if method == "robust" \
            else [{"C": c} for c in Cs]
        best, scores = cv_select(_FoldScorer(method, Ktr, ytr), grid, ytr, folds=folds,
                                 seed=split_seed)
        info: dict = {}
        pred = np.where(fit_predict(method, K_full, n, ytr, best, info=info) > 0, 1.0, -1.0)
        out["methods"][method] = {
            "accuracy": 100.0 * float(np.mean(pred == yte)),
            "recall": 100.0 * float(np.mean(pred[yte > 0] > 0)),
            "params": best, "cv": scores.tolist(), "fit_status": info["status"],
            "fit": info,
        }
    return out


def _mean_std(v: list[float]) -> str:
    a = np.asarray(v, float)
    if a.size == 1:
        return f"{a[0]:.2f}"
    return f"{a.mean():.2f} ± {a.std(ddof=1):.2f}"


def _diff(ours: list[float], paper: float) -> float:
    return float(np.mean(ours) - paper)


def table1_markdown(splits: dict[str, list[dict]]) -> str:
    """Table 1 (spectra of the training kernels), ours (mean ± std over the splits) beside
    the paper's."""
    rows = []
    for name, runs in splits.items():
        ntr, nte, lo, hi = PAPER_TABLE1[name]
        rows.append([name, f"{runs[0]['n_train']} / {runs[0]['n_test']}", f"{ntr} / {nte}",
                     _mean_std([r["lambda_min"] for r in runs]), f"{lo:g}",
                     _mean_std([r["lambda_max"] for r in runs]), f"{hi:g}"])
    return markdown_table(["data set", "train / test (ours)", "train / test (paper)",
                           "lambda_min (ours)", "lambda_min (paper)", "lambda_max (ours)",
                           "lambda_max (paper)"], rows)


def table2_markdown(splits: dict[str, list[dict]]) -> tuple[str, list[str]]:
    """Table 2: accuracy and recall (%) per data set and method, ours as mean ± std over
    the splits, the paper's value (:data:`PAPER_TABLE2`) in the next column and ours minus
    the paper's in a third.  Also returns the cells that differ by more than
    :data:`FLAG_POINTS`."""
    rows, flagged = [], []
    for name, runs in splits.items():
        for method in METHODS:
            cells = [name, method]
            for j, measure in enumerate(("accuracy", "recall")):
                ours = [r["methods"][method][measure] for r in runs]
                paper = PAPER_TABLE2[(name, method)][j]
                d = _diff(ours, paper)
                cells += [_mean_std(ours), f"{paper:.2f}", f"{d:+.2f}"]
                if abs(d) > FLAG_POINTS:
                    flagged.append(f"{name} {method} {measure}: {np.mean(ours):.2f} vs "
                                   f"{paper:.2f} ({d:+.2f})")
            params = [r["methods"][method]["params"] for r in runs]
            cells.append("; ".join(
                ", ".join(f"{k}={v:g}" for k, v in p.items()) for p in params))
            cells.append(", ".join(sorted({r["methods"][method]["fit_status"]
                                           for r in runs})))
            rows.append(cells)
    return markdown_table(
        ["data set", "method", "accuracy (ours)", "accuracy (paper)", "diff",
         "recall (ours)", "recall (paper)", "diff", "CV choice per split", "final fit"],
        rows), flagged


def _paper_only_markdown(names: list[str]) -> str:
    """The paper's Table 2 rows (:data:`PAPER_TABLE2`) for data sets not run."""
    rows = [[name, method, f"{PAPER_TABLE2[(name, method)][0]:.2f}",
             f"{PAPER_TABLE2[(name, method)][1]:.2f}"] for name in names for method in METHODS]
    return markdown_table(["data set", "method", "accuracy (paper)", "recall (paper)"], rows)


def _figure1_markdown(fig: dict) -> list[str]:
    def t_to(r: dict, thr: float) -> float:
        rel = (r["upper"] - r["lower"]) / np.abs(r["upper"])
        i = np.flatnonzero(rel <= thr)
        return float(r["time"][i[0]]) if i.size else math.nan

    f_rows = [[k, int(v["iteration"][-1]), v["status"], v["final_rel_gap"], t_to(v, 1e-3),
               t_to(v, 1e-4), t_to(v, 1e-6)] for k, v in fig["runs"].items()]
    md = [
        "## Figure 1: certified duality gap",
        "",
        markdown_table(["method", "iterations", "status", "final rel. gap",
                        "s to 1e-3", "s to 1e-4", "s to 1e-6"], f_rows),
        "",
        "Relative gap = (U - f) / |U| with the certified bounds of each iterate; "
        f"f(0) = rho ||(K0)_-||^2 = {fig['f0']:.4g}. The paper's Figure 1 prints no numbers: "
        "averaged over randomly perturbed USPS sets, its ACCPM's absolute gap falls from "
        "about 1e4 to about 1e-4 in 200 iterations (linearly) and its projected gradient's "
        "from about 1e1 to about 1e-3 in 1000 iterations, faster at first, then stalling "
        "(axis ranges as far as the paper's text shows them). Times here are wall-clock on "
        "the machine that ran the report.",
        "",
    ]
    if fig["path"] is not None:
        md.append(f"![Figure 1]({fig['path'].name})")
    return md


def reproduce(ctx: Context) -> ReproductionResult:
    quick = ctx.quick
    names = ["USPS-3-5"] if quick else list(DATASETS)
    n_splits = 1 if quick else N_SPLITS
    folds = 3 if quick else 5
    run_split = ctx.cached(table2_split)
    splits: dict[str, list[dict]] = {}
    for name in names:
        seeds = [ctx.seed + k for k in range(n_splits)]
        ctx.progress(f"{name}: {n_splits} random split(s), {folds}-fold CV per method")
        splits[name] = ctx.parallel(_run_split, [(run_split, name, s, quick) for s in seeds])
        for r in splits[name]:
            ctx.progress(f"{name} split {r['seed']}: " + ", ".join(
                f"{m} {v['accuracy']:.2f}" for m, v in r["methods"].items()))
    # Figure 1 on the first split's USPS-3-5 training kernel
    K_full, n, ytr, _ = load_split("USPS-3-5", ctx.seed, quick)
    K0f, yf = K_full[:n, :n], ytr
    if quick:
        sub = seeded_splits(yf, test_size=100, seed=ctx.seed)[0][1]
        K0f, yf = K0f[np.ix_(sub, sub)], yf[sub]
    fig = _figure1(ctx, K0f, yf, C=1.0, rho=1.0)
    figures = [fig["path"]] if fig["path"] is not None else []
    t2, flagged = table2_markdown(splits)
    md = [
        "## Table 1: eigenvalues of the training kernels",
        "",
        table1_markdown(splits),
        "",
        *(["Quick run: the spectrum is that of a 200-point training kernel, printed beside "
           "the paper's for its training size; the eigenvalue range grows with n, so the "
           "two are not comparable.", ""] if quick else []),
        f"## Table 2: test accuracy and recall (%), {n_splits} random split(s), "
        f"parameters by {folds}-fold cross-validation",
        "",
        t2,
        "",
        "Ours: mean ± standard deviation over the splits (seeds "
        f"{ctx.seed}..{ctx.seed + n_splits - 1}); paper: its Table 2 (one split); diff = "
        "our mean minus the paper's value. Recall is that of the class the paper's recall "
        "values imply (USPS: 3 and 4; Diabetes: non-diabetic; Liver: BUPA selector 1). "
        "C in " + ", ".join(f"{c:g}" for c in _grids(quick)[0]) + "; rho in "
        + ", ".join(f"{r:g}" for r in _grids(quick)[1]) + " (robust SVM). The raw-kernel "
        "SVM is SMO on an indefinite kernel: a stationary point, not an optimum ('final "
        "fit': stationary_point). Prediction by the heuristic of section 2.3 projects the "
        "whole train+test kernel.",
        "",
        *(["Quick run: 200 / 200 points of USPS-3-5 and one split, beside the paper's full "
           "767 / 773 split; not like for like. The paper's values for the data sets the "
           "quick run leaves out (the full run reproduces them):", "",
           _paper_only_markdown([d for d in DATASETS if d not in names]), ""]
          if quick else []),
        f"Cells more than {FLAG_POINTS:g} points from the paper: "
        + ("; ".join(flagged) if flagged else "none") + ".",
        "",
        *_figure1_markdown(fig),
    ]
    data = {"table1": {k: [(r["lambda_min"], r["lambda_max"]) for r in v]
                       for k, v in splits.items()},
            "table2": {f"{k}/{m}": {
                "accuracy": float(np.mean([r["methods"][m]["accuracy"] for r in v])),
                "recall": float(np.mean([r["methods"][m]["recall"] for r in v])),
                "paper": PAPER_TABLE2[(k, m)],
                "fit_status": v[0]["methods"][m]["fit_status"]}
                for k, v in splits.items() for m in METHODS},
            "splits": splits, "deviations": flagged,
            "figure1": {k: dict(v) for k, v in fig["runs"].items()}}
    return ReproductionResult(name="luss2007", markdown="\n".join(md), figures=figures,
                              data=data)


def _run_split(args: tuple) -> dict:
    fn, name, seed, quick = args
    return fn(name, seed, quick)
