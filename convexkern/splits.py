"""Seeded train/test splits: the one split of the TOML specs and the paper reproductions.

A split is scikit-learn's :func:`sklearn.model_selection.train_test_split` (stratified by
the labels unless asked otherwise) with ``random_state=seed``, returned as sorted index
arrays, so the same ``(y, test_size, seed)`` gives the same split wherever it is asked
for: ``[split]`` in a spec (:mod:`convexkern.specs`) and :func:`seeded_splits` in
:mod:`convexkern.reproduce.harness`.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ._validation import check_class_labels, check_int, check_seed
from .errors import InvalidInputError, InvalidTypeError

__all__ = ["train_test_indices", "seeded_splits"]


def train_test_indices(
    y: np.ndarray,
    *,
    test_size: float | int,
    seed: int = 0,
    stratify: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """Sorted train and test indices of one seeded (stratified) split of ``range(len(y))``.

    Parameters
    ----------
    y : array of shape (n,)
        Labels; the split keeps their class proportions when ``stratify`` is true.
    test_size : float or int
        A fraction in (0, 1) of the points, or a number of points in [1, n - 1], held out.
        scikit-learn rounds a fraction up: ``ceil(test_size * n)`` test points, shared out
        between the classes in proportion.
    seed : int
        ``random_state`` of the split, in ``[0, 2**32 - 1]`` (numpy's and scikit-learn's
        seed range).
    stratify : bool
        Stratify by ``y`` (default) or draw a plain random split.

    Raises
    ------
    InvalidInputError
        Naming ``test_size`` (out of range, or too small/large for a stratified split of
        these classes), ``seed`` (outside ``[0, 2**32 - 1]``) or ``y`` (not 1-d, ``None``,
        NaN, or labels of mixed types).
    """
    from sklearn.model_selection import train_test_split

    y = check_class_labels(y, "y")
    seed = check_seed(seed, "seed")
    n = y.size
    if isinstance(test_size, bool) or not isinstance(test_size, numbers.Real):
        raise InvalidTypeError("test_size", f"expected a fraction or a count, got {test_size!r}")
    if isinstance(test_size, numbers.Integral):
        if not 1 <= test_size <= n - 1:
            raise InvalidInputError("test_size", f"a count must lie in [1, {n - 1}], got "
                                                 f"{test_size}")
        size: float | int = int(test_size)
    else:
        size = float(test_size)
        if not (math.isfinite(size) and 0 < size < 1):
            raise InvalidInputError("test_size", f"a fraction must lie in (0, 1), got {size!r}")
    idx = np.arange(n)
    try:
        tr, te = train_test_split(idx, test_size=size, random_state=seed,
                                  stratify=y if stratify else None)
    except ValueError as exc:  # e.g. fewer test points than classes, a one-point class
        raise InvalidInputError("test_size", f"{size!r} of {n} points: {exc}") from None
    return np.sort(tr), np.sort(te)


def seeded_splits(
    y: np.ndarray,
    *,
    test_size: float | int,
    n_splits: int = 1,
    seed: int = 0,
    stratify: bool = True,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """``n_splits`` random train/test index pairs, reproducible from ``seed``.

    Split ``k`` is :func:`train_test_indices` with seed ``seed + k``, so adding splits
    leaves the earlier ones unchanged (and split 0 is the split of a spec with the same
    ``test_size`` and ``seed``).
    """
    n_splits = check_int(n_splits, "n_splits", minimum=1)
    seed = check_seed(seed, "seed", count=n_splits)
    return [train_test_indices(y, test_size=test_size, seed=seed + k, stratify=stratify)
            for k in range(n_splits)]
