"""Building a suite's problem at its size, and the builders a suite names by
``"convexkern.bench.problems:<function>"`` for formulations a TOML spec cannot feed
(their data are not a kernel matrix or features: Abe's LP duals take triplets, the SDPM
takes polynomial trajectories).

A size ``n`` keeps a stratified subsample of ``n`` points of the spec's training part
(scikit-learn's ``train_test_split`` with ``stratify=y`` and the suite's seed), after the
spec's own split and preprocessing (standardising uses the statistics of the whole
training part); the kernel matrix is computed on the subsample.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InvalidInputError, InvalidTypeError, SpecError
from ..formulation import Formulation
from .suite import Problem, _builder_function

__all__ = ["build", "lp_dual", "nu_lp_dual", "sdpm_rotations"]


def build(problem: Problem) -> tuple[Formulation, int]:
    """The formulation of ``problem`` at its size, and the number of points it was built on.

    Raises :class:`SpecError` naming the field (``sizes`` larger than the training part,
    a builder rejecting a parameter...).
    """
    if problem.file is not None:
        return _from_file(problem)
    if problem.cvxpy is not None:
        return _from_cvxpy_set(problem)
    from ..specs import load_spec
    from ..specs.build import call_builder, kernel_matrices, prepare_data

    spec = load_spec(dict(problem.spec), base_dir=problem.base_dir)
    quiet: Any = lambda msg: None  # noqa: E731
    timings: dict[str, float] = {}
    if spec.data is None:  # built from the formulation's own parameters (its size among them)
        fn = spec.formulation.builder_function()
        return call_builder(spec.formulation, fn, None, None, None, quiet, timings), 0
    X, y, *_ = prepare_data(spec.data, spec.split, spec.preprocess, quiet, timings)
    if problem.n is not None:
        X, y = _subsample(X, y, problem.n, problem.seed, problem.name,
                          stratify=spec.data.task == "classification")
    if problem.builder is not None:
        fn = _builder_function(problem.builder, f"{problem.name}.builder")
        try:
            return fn(X, y, **problem.params), int(y.size)
        except (InvalidInputError, InvalidTypeError) as exc:
            raise SpecError(f"{problem.name}.params.{exc.argument}", str(exc)) from None
        except TypeError as exc:
            raise SpecError(f"{problem.name}.params", str(exc)) from None
    K = None
    if spec.kernel is not None:
        _, K, _ = kernel_matrices(spec.kernel, X, None, quiet, timings)
    fn = spec.formulation.builder_function()
    return call_builder(spec.formulation, fn, K, X, y, quiet, timings), int(y.size)


def _from_file(problem: Problem) -> tuple[Formulation, int]:
    """The formulation of a file problem (``ck.from_cvxpy`` of the cvxpy problem that
    :func:`convexkern.data.mps.build_problem`, :func:`convexkern.data.sdpa.build_problem`
    or :func:`convexkern.data.cbf.build_problem` writes) and its number of variables
    (columns; SDPA's ``m``); its ``kind``, the group of the report, is the set's folder
    (``maros_meszaros``), with the SDPA form."""
    import warnings

    from ..data import cbf, mps, sdpa
    from ..formulation import from_cvxpy

    assert problem.file is not None
    if problem.fetch is not None and not Path(problem.file).is_file():
        from ..data.fetched import fetch

        fetch(problem.fetch)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # cvxpy's note on large constant matrices
        try:
            if problem.file.endswith(".dat-s"):
                sd = sdpa.read_sdpa(problem.file)
                prob, n = sdpa.build_problem(sd, problem.form), sd.m
            elif problem.file.endswith((".cbf", ".cbf.gz")):
                cd = cbf.read_cbf(problem.file)
                prob, n = cbf.build_problem(cd), cd.n
            else:
                md = mps.read_mps(problem.file)
                (prob, _), n = mps.build_problem(md), md.n
        except (mps.MPSError, sdpa.SDPAError, cbf.CBFError) as exc:
            raise SpecError(f"{problem.name}.file", str(exc).split(": ", 1)[-1]) from None
    # the problems of one public set (and one SDPA form) are one group of the report
    # (one table, one profile), as a formulation's sizes are
    group = Path(problem.file).parent.name or "file"
    if problem.file.endswith(".dat-s"):
        group += f" ({problem.form} form)"
    return from_cvxpy(prob, name=problem.name, kind=group), n


def _from_cvxpy_set(problem: Problem) -> tuple[Formulation, int]:
    """The formulation of a problem of cvxpy's standard test set and its number of
    variables (entries); the report groups them as ``cvxpy``."""
    import cvxpy as cp
    from cvxpy.tests import solver_test_helpers as sth

    from ..formulation import from_cvxpy

    assert problem.cvxpy is not None
    helper = getattr(sth, problem.cvxpy)(*problem.args)
    prob = cp.Problem(helper.objective, helper.constraints)
    n = sum(int(v.size) for v in prob.variables())
    return from_cvxpy(prob, name=problem.name, kind="cvxpy"), n


def _subsample(X: np.ndarray, y: np.ndarray, n: int, seed: int,
               name: str, stratify: bool = True) -> tuple[np.ndarray, np.ndarray]:
    from sklearn.model_selection import train_test_split

    if n > y.size:
        raise SpecError(f"{name}.sizes", f"{n} is more than the {y.size} training points of "
                                         "the spec")
    if n == y.size:
        return X, y
    idx, _ = train_test_split(np.arange(y.size), train_size=n,
                              stratify=y if stratify else None, random_state=seed)
    idx = np.sort(idx)
    return X[idx], y[idx]


def lp_dual(X: Any, y: Any, C_M: float = 1.0) -> Formulation:
    """Abe (ICANN 2012) LP dual (18)-(21) on the triplets of ``(X, y)``:
    ``lp_svm.lp_dual(triplet_matrix(X, y), C_M)``."""
    from ..formulations import lp_svm

    return lp_svm.lp_dual(lp_svm.triplet_matrix(X, y), C_M)


def nu_lp_dual(X: Any, y: Any, C_rho: float = 1.0) -> Formulation:
    """Abe (ICANN 2012) ν-LP dual (14)-(17) on the triplets of ``(X, y)``."""
    from ..formulations import lp_svm

    return lp_svm.nu_lp_dual(lp_svm.triplet_matrix(X, y), C_rho)


def sdpm_rotations(X: Any, y: Any, *, angle_deg: float = 10.0, C: float = 10.0,
                   dual: bool = False) -> Formulation:
    """Graepel & Herbrich (NIPS 2003) SDPM (their (9); dual (12)) on USPS-like images:
    the positive class rotated by ``-angle``, the negative by ``+angle``, second-order
    rotation trajectories (:func:`convexkern.transforms.rotation_trajectories`), the
    segment ``[-angle, angle]``, as in the reproduction's Figure 2(b, c).

    ``X`` must hold 16 x 16 images (256 columns).
    """
    from .. import transforms
    from ..formulations import sdpm

    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    if X.ndim != 2 or X.shape[1] != 256:
        raise InvalidInputError("X", f"needs 16 x 16 images (256 columns), got {X.shape}")
    rot = math.radians(angle_deg)
    imgs = X.copy()
    pos, neg = y > 0, y < 0
    imgs[pos] = transforms.rotate(X[pos], -rot)
    imgs[neg] = transforms.rotate(X[neg], +rot)
    T = transforms.rotation_trajectories(imgs, sigma2=0.0)
    return (sdpm.dual if dual else sdpm.primal)(T, y, rot, C)
