"""Loosli (ESANN 2019): the SVM in a Kreĭn space, TrIK (shift) or KSVM (flip), as a classifier."""

from __future__ import annotations

import warnings
from numbers import Real
from typing import Any

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from ..errors import InvalidInputError, SolverError
from ..formulations.krein import stabilization, to_krein
from ..report import Status
from ._base import _BinaryKernelClassifier
from ._compat import Interval, StrOptions

__all__ = ["KreinSVC"]


class KreinSVC(_BinaryKernelClassifier):
    """SVM with an indefinite kernel in a Kreĭn space: TrIK (shift) or KSVM (flip).

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
    solver : str, optional
        Default ``"trik-krein"`` for shift: the paper's active set, which checks primal
        optimality in the Kreĭn space.  It stops *before* the Hilbert QP optimum (its
        certified status is then ``optimal_inaccurate``, which is expected and not warned
        about) with fewer support vectors, and in our measurements it generalises much
        better than the QP optimum mapped back by eq. 6 (``"trik"``, or any conic solver),
        which interpolates the training labels when ``|lam|`` is large (see
        ``docs/krein.md``).  ``"smo"`` is the default for flip.
    tol, max_iter : passed to :func:`convexkern.solve`.

    Attributes
    ----------
    alpha_ : Kreĭn coefficients on the training points (unlabelled convention)
    dual_coef_ : ``y_i alpha_i`` on ``support_``
    intercept_ : float
    report_ : the certified :class:`~convexkern.SolveReport` of the Hilbert problem

    Raises
    ------
    InvalidInputError
        Bad parameters or data (``lam`` with flip, a solver that cannot solve the problem).
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
        "solver": [str, None],
    }

    def __init__(self, C: float = 1.0, *, kernel: Any = "sigmoid", gamma: Any = "scale",
                 degree: int = 3, coef0: float = 0.0, decomposition: str = "shift",
                 lam: float | None = None, solver: str | None = None,
                 tol: float | None = None, max_iter: int | None = None) -> None:
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.decomposition = decomposition
        self.lam = lam
        self.solver = solver
        self.tol = tol
        self.max_iter = max_iter

    def fit(self, X: Any, y: Any) -> KreinSVC:
        """Train on ``X`` (or a precomputed square kernel) and labels ``y`` (two classes)."""
        from ..solvers import available_solvers, solve

        self._validate_params()
        X, y_pm = self._validate_train(X, y)
        K = self._train_kernel(X)
        if self.decomposition == "flip" and self.lam is not None:
            raise InvalidInputError("lam", "is only used by decomposition='shift'")
        f = stabilization(K, y_pm, float(self.C), self.decomposition, self.lam)
        name = (self.solver or ("trik-krein" if self.decomposition == "shift"
                                else "smo")).lower()
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
        if "alpha_krein" in rep.x:
            alpha, b = np.asarray(rep.x["alpha_krein"], float), float(rep.x["b_krein"])
        else:
            sol = to_krein(f, y_pm, rep.x["alpha"], float(rep.x["b"]), singular="lstsq")
            alpha, b = sol.alpha, sol.b
        self.report_ = rep
        self.n_iter_ = rep.iterations
        self.lam_ = f.data["lam"]
        self.alpha_ = alpha
        mask = alpha != 0
        self._set_support(X, mask, y_pm)
        self.dual_coef_ = (y_pm * alpha)[mask]
        self.intercept_ = b
        return self

    def decision_function(self, X: Any) -> np.ndarray:
        """``f(x) = sum_i alpha_i y_i k(x_i, x) + b`` with the original kernel."""
        X = self._validate_test(X)
        return self._kernel_to_support(X) @ self.dual_coef_ + self.intercept_
