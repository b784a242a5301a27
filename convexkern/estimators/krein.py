"""Loosli (ESANN 2019): the SVM in a Kreĭn space, TrIK (shift) or KSVM (flip), as a classifier."""

from __future__ import annotations

import warnings
from numbers import Integral, Real
from typing import Any

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from .._validation import check_kernel
from ..errors import InvalidInputError, SolverError
from ..formulations.krein import stabilization, to_krein
from ..math.krein import dominant_negative_pairs
from ..report import Status
from ._base import _BinaryKernelClassifier
from ._compat import Interval, StrOptions

__all__ = ["KreinSVC"]


#: a coefficient below this share of the largest is round-off, not a support vector
_SUPPORT_RTOL = 1e-12


class KreinSVC(_BinaryKernelClassifier):
    """SVM with an indefinite kernel in a Kreĭn space: TrIK (shift) or KSVM (flip).

    Default (``decomposition="shift"``, ``expansion="delta"``, ``solver="smo"``): the
    shift decomposition of TrIK-SVM (Loosli, ESANN 2019, eq. 4), ``lam = lambda_min(K)``
    by Lanczos (no eigendecomposition), the Hilbert-space SVM dual with
    ``K~ = K - 2 lam I`` solved by SMO to a certified relative gap (eq. 3), and the
    Kreĭn function of that decomposition evaluated where it is used, off the training
    set: ``f(x) = sum_i alpha~_i y_i k(x_i, x) + b``.  Why: ``K_- = -lam I`` is the kernel
    ``-lam [x = z]``, whose part of ``f = f~`` vanishes at any point that is not a
    training point, so ``alpha = alpha~`` there *exactly*, with no transition to
    compute.  The paper's transition (eq. 6, ``expansion="eq6"``) instead rewrites that
    delta part with the smooth kernel, ``alpha_W = (I - 2 lam G_WW^-1) alpha~_W``, which
    makes ``f`` interpolate the labels on the free support vectors: on the paper's blobs
    (Epanechnikov sigma = 6, C = 0.1) its test accuracy falls to chance from n = 1000 on
    (0.53 at n = 1000, 0.55 at n = 3000) while ``alpha = alpha~`` gives 0.963 and 0.957,
    KSVM 0.954 and 0.956, at the cost of one Lanczos run and one SMO solve instead of a
    full eigendecomposition (docs/krein.md, "Why TrIK fails at n >= 1000").  KSVM's flip
    needs all negative eigenpairs (about 40 % of the spectrum for that kernel), so a
    partial eigensolver does not make it cheaper there.

    Before the shift, the few eigenpairs of ``K`` whose negative eigenvalue dwarfs the
    next one are flipped (``flip_pairs``, default up to 8, found by Lanczos: pair ``j``
    while ``|d_{j+1}| <= |d_j| / 2``), so the shift that remains is ``lam =
    lambda_min(K')`` of ``K' = K - 2 U_k D_k U_k'``: a single dominant negative eigenvalue
    (the sigmoid kernel's, -144 then -1.27 on Pima at n = 200) would otherwise set a ridge
    ``2 |lam|`` that swamps the kernel (test accuracy 0.651, the majority rate, against
    0.762 with it flipped and 0.768 for KSVM).  The Kreĭn coefficients are then
    ``Y alpha = (I - 2 U_k U_k') Y alpha~`` (dense when ``k > 0``); on the blobs no pair
    qualifies and the default is the plain shift.

    ``fit`` takes no ``sample_weight``: the Kreĭn-space stabilisation
    (``krein.stabilization``) has one scalar ``C``, and its flip/shift solvers are written
    for it; per-example penalties exist only in
    :class:`~convexkern.estimators.SVMClassifier` (``svm.dual`` with a vector ``C``).

    Parameters
    ----------
    C : float, default 1.0
    kernel : str, callable or "precomputed", default "sigmoid"
        As in :class:`convexkern.estimators.SVMClassifier` (indefinite kernels welcome).
    gamma, degree, coef0 : kernel parameters (scikit-learn conventions).
    decomposition : {"shift", "flip"}, default "shift"
    lam : float, optional
        Shift (default ``min(lambda_min(K), 0)``, Lanczos).  Shift only.
    expansion : {"delta", "eq6"}, optional
        Shift only (default ``"delta"``): how the Hilbert solution ``alpha~`` becomes
        the Kreĭn coefficients ``alpha_`` used by :meth:`decision_function`.
        ``"delta"``: ``alpha = alpha~`` (above; the exact value of the Kreĭn function at
        points that are not training points — at a training point ``x_i`` it would add
        ``-2 lam y_i alpha~_i``).  ``"eq6"``: the paper's eq. 6 on the free support
        vectors.  ``decomposition="flip"`` always uses its transition ``P = U sign(D) U'``.
    flip_pairs : int, optional
        Shift only: at most this many dominant negative eigenpairs flipped before the
        shift (above; :func:`convexkern.math.krein.dominant_negative_pairs`).  Default 8
        with ``expansion="delta"``, 0 (the paper's plain shift) with ``"eq6"``.
    solver : str, optional
        Default ``"smo"`` (flip, and shift with ``expansion="delta"``): the QP optimum to
        a certified gap.  ``"trik"`` (the active set with the Hilbert check) reaches the
        same optimum.  With ``expansion="eq6"`` the default is ``"trik-krein"``, the
        paper's active set, which checks primal optimality in the Kreĭn space and stops
        before the Hilbert QP optimum (certified status ``optimal_inaccurate``, expected
        and not warned about); it stops earlier than the QP optimum mapped back by eq. 6
        and generalises better than it, but not as well as ``"delta"`` from n ~ 1000 on.
    tol, max_iter : passed to :func:`convexkern.solve`.
    device : {"cpu", "gpu"}, default "cpu"
        Where the flip's eigendecomposition runs (``"gpu"``: CuPy and a CUDA device,
        :mod:`convexkern.math.device`).

    Attributes
    ----------
    alpha_ : Kreĭn coefficients on the training points (unlabelled convention)
    dual_coef_ : ``y_i alpha_i`` on ``support_``
    intercept_ : float
    report_ : the certified :class:`~convexkern.SolveReport` of the Hilbert problem
    lam_ : the shift used (None for flip)
    expansion_ : ``"delta"`` or ``"eq6"`` (shift), None (flip)
    flipped_ : the eigenvalues flipped before the shift (empty: none; None for flip)

    Raises
    ------
    InvalidInputError
        Bad parameters or data (``lam``, ``expansion`` or ``flip_pairs`` with flip, a
        solver that cannot solve the problem).
    SolverError
        The solver returned no solution (a status without a point).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.datasets import make_blobs
    >>> X, lab = make_blobs(60, n_features=5, centers=4, random_state=0)
    >>> y = np.where(lab % 2 == 0, 1, -1)
    >>> clf = KreinSVC(C=1.0, kernel="sigmoid", gamma=0.05, coef0=-1.0).fit(X, y)
    >>> bool(clf.score(X, y) > 0.5)
    True
    """

    _parameter_constraints: dict[str, list[Any]] = {
        **_BinaryKernelClassifier._parameter_constraints,
        "C": [Interval(Real, 0, None, closed="neither")],
        "decomposition": [StrOptions({"shift", "flip"})],
        "lam": [Interval(Real, None, 0, closed="right"), None],
        "expansion": [StrOptions({"delta", "eq6"}), None],
        "flip_pairs": [Interval(Integral, 0, None, closed="left"), None],
        "solver": [str, None],
        "device": [StrOptions({"cpu", "gpu"})],
    }

    def __init__(self, C: float = 1.0, *, kernel: Any = "sigmoid", gamma: Any = "scale",
                 degree: int = 3, coef0: float = 0.0, decomposition: str = "shift",
                 lam: float | None = None, expansion: str | None = None,
                 flip_pairs: int | None = None, solver: str | None = None,
                 tol: float | None = None, max_iter: int | None = None,
                 device: str = "cpu") -> None:
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.decomposition = decomposition
        self.lam = lam
        self.expansion = expansion
        self.flip_pairs = flip_pairs
        self.solver = solver
        self.tol = tol
        self.max_iter = max_iter
        self.device = device

    def fit(self, X: Any, y: Any) -> KreinSVC:
        """Train on ``X`` (or a precomputed square kernel) and labels ``y`` (two classes)."""
        from ..solvers import available_solvers, solve

        self._validate_params()
        X, y_pm = self._validate_train(X, y)
        K = self._train_kernel(X)
        if self.decomposition == "flip" and self.lam is not None:
            raise InvalidInputError("lam", "is only used by decomposition='shift'")
        if self.decomposition == "flip" and self.expansion is not None:
            raise InvalidInputError("expansion", "is only used by decomposition='shift' (flip "
                                    "maps alpha~ back with its transition P = U sign(D) U')")
        if self.decomposition == "flip" and self.flip_pairs is not None:
            raise InvalidInputError("flip_pairs", "is only used by decomposition='shift' "
                                    "(flip flips every negative eigenpair)")
        expansion = None if self.decomposition == "flip" else (self.expansion or "delta")
        d, U = None, None
        if expansion is not None:
            n_pairs = self.flip_pairs if self.flip_pairs is not None else (
                8 if expansion == "delta" else 0)
            K = check_kernel(K, "K", n=y_pm.size)  # before any eigensolver sees it
            d, U = dominant_negative_pairs(K, max_pairs=int(n_pairs))
            if d.size:  # K' = K - 2 U_k D_k U_k' (the pairs flipped), symmetric
                K = K - 2.0 * (U * d) @ U.T
                K = 0.5 * (K + K.T)
        f = stabilization(K, y_pm, float(self.C), self.decomposition, self.lam,
                          device=self.device)
        name = (self.solver or ("trik-krein" if expansion == "eq6" else "smo")).lower()
        if name not in available_solvers(f):
            raise InvalidInputError("solver", f"{name!r} cannot solve {f.name}; use one of "
                                    f"{available_solvers(f)}")
        rep = solve(f, name, tol=self.tol, max_iter=self.max_iter)
        if not rep.status.has_solution:
            others = [s for s in available_solvers(f) if s != name]
            raise SolverError(
                f"KreinSVC: solver {name!r} returned status '{rep.status}' and no solution "
                f"({rep.message or 'no message'}); try another solver (solver=...) among "
                f"{others}")
        if rep.status in (Status.ITERATION_LIMIT, Status.TIME_LIMIT) or (
                rep.status is Status.OPTIMAL_INACCURATE and name != "trik-krein"):
            warnings.warn(f"KreinSVC: solver {name!r} stopped with status '{rep.status}' "
                          f"({rep.message})", ConvergenceWarning, stacklevel=2)
        if expansion == "delta":  # alpha = alpha~ (class docstring)
            sol = to_krein(f, y_pm, rep.x["alpha"], float(rep.x["b"]), method="delta")
            alpha, b = sol.alpha, sol.b
        elif "alpha_krein" in rep.x:
            alpha, b = np.asarray(rep.x["alpha_krein"], float), float(rep.x["b_krein"])
        else:
            sol = to_krein(f, y_pm, rep.x["alpha"], float(rep.x["b"]), singular="lstsq")
            alpha, b = sol.alpha, sol.b
        if d is not None and d.size:  # back to the original kernel: Y a = (I - 2UU') Y a'
            u = y_pm * alpha
            alpha = y_pm * (u - 2.0 * U @ (U.T @ u))
        self.flipped_ = d
        self.report_ = rep
        self.n_iter_ = rep.iterations
        self.lam_ = f.data["lam"]
        self.expansion_ = expansion
        self.alpha_ = alpha
        # round-off-sized coefficients are not support vectors (the flip's map back
        # leaves 1e-17..1e-15 on every point): dropping them moves a decision value by
        # at most n 1e-12 max|alpha| max|K|
        top = float(np.max(np.abs(alpha))) if alpha.size else 0.0
        mask = np.abs(alpha) > _SUPPORT_RTOL * top
        self._set_support(X, mask, y_pm)
        self.dual_coef_ = (y_pm * alpha)[mask]
        self.intercept_ = b
        return self

    def decision_function(self, X: Any) -> np.ndarray:
        """``f(x) = sum_i alpha_i y_i k(x_i, x) + b`` with the original kernel."""
        X = self._validate_test(X)
        return self._kernel_to_support(X) @ self.dual_coef_ + self.intercept_
