"""Two-class problems from the shipped data sets (one class or a group against another)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ..errors import InvalidInputError
from .shipped import _BINARY_DEFAULTS, _build_shipped, _check_name, _check_split

# --------------------------------------------------------------------------------------
# Binary problems
# --------------------------------------------------------------------------------------


def _as_class_list(value: Any, argument: str) -> list[Any]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        return [value]
    if isinstance(value, np.ndarray) and value.ndim == 0:
        return [value.item()]
    items = list(value)
    if not items:
        raise InvalidInputError(argument, "is empty; give at least one class")
    return items


def _match_class(value: Any, classes: list[Any], argument: str, name: str) -> Any:
    """Return the class of ``classes`` equal to ``value`` (strict about types)."""
    if isinstance(value, np.generic):
        value = value.item()
    string_labels = isinstance(classes[0], str)
    ok_type = isinstance(value, str) if string_labels else (
        isinstance(value, (int, float)) and not isinstance(value, bool)
    )
    if ok_type:
        for c in classes:
            if c == value:
                return c
    shown = classes if len(classes) <= 30 else classes[:30] + ["..."]
    raise InvalidInputError(
        argument, f"{value!r} is not a class of {name!r}; its classes are {shown}"
    )


def load_binary(
    name: str,
    positive: Any = None,
    negative: Any = None,
    *,
    split: str = "all",
) -> tuple[np.ndarray, np.ndarray]:
    """Load a two-class problem from a shipped data set, with labels in {-1, +1}.

    Parameters
    ----------
    name : str
        A name of :func:`available_datasets`. For ``"usps"``, ``"thyroid"`` and
        ``"satimage"`` the pooled set (train then test) is used unless ``split`` says
        otherwise.
    positive : label or sequence of labels
        The class(es) that become ``+1``, e.g. ``3`` for USPS, ``"A"`` for letter,
        ``[1, 2]`` for the two abnormal thyroid classes. Optional only for ``"pima"``
        (default 1, tested positive) and ``"bupa"`` (default ``selector`` 1).
    negative : label, sequence of labels, or "rest"
        The class(es) that become ``-1``; ``"rest"`` means every class not in
        ``positive`` (one-vs-rest). Optional only for ``"pima"`` (default 0) and
        ``"bupa"`` (default ``selector`` 2).
    split : {"all", "train", "test"}, default "all"
        Which rows: everything, or the part before / after :attr:`Dataset.split_index`
        (the given split of usps/thyroid/satimage, the conventional one of
        abalone/letter). Other data sets accept only ``"all"``.

    Returns
    -------
    X : numpy.ndarray of float64, shape (m, d)
        The rows of the two classes, in file order (train rows before test rows).
    y : numpy.ndarray of float64, shape (m,)
        ``+1`` for ``positive``, ``-1`` for ``negative``.

    Raises
    ------
    InvalidInputError
        (a ``ValueError``) naming ``name``, ``positive``, ``negative`` or ``split``: an
        unknown data set, a value that is not a class of it (``"3"`` is not USPS class
        ``3``), a class on both sides, a missing class for a multi-class set, or a split
        the data set does not have.

    Notes
    -----
    * ``load_binary("usps", 3, 5)`` gives 1540 images (658 + 556 train, 166 + 160 test),
      824 of them ``+1``.
    * ``pima``: ``class`` 1 (tested positive for diabetes) -> +1, 0 -> -1 (268 / 500).
    * ``bupa``: ``selector`` 1 -> +1, 2 -> -1 (145 / 200). This reproduces the classic
      literature, but see McDermott & Forsyth (2016): ``selector`` is not a diagnosis.
    """
    name = _check_name(name)
    split = _check_split(split)
    ds = _build_shipped(name)
    if split != "all":
        if ds.split_index is None:
            raise InvalidInputError(
                "split", f"data set {name!r} has no train/test split; use split='all'"
            )
        rows = slice(None, ds.split_index) if split == "train" else slice(ds.split_index, None)
        X, y = ds.X[rows], ds.y[rows]
    else:
        X, y = ds.X, ds.y

    defaults = _BINARY_DEFAULTS.get(name.split("_")[0])
    if positive is None or negative is None:
        if defaults is None:
            missing = "positive" if positive is None else "negative"
            raise InvalidInputError(
                missing,
                f"is required for the multi-class data set {name!r} "
                f"(classes {ds.classes.tolist()})",
            )
        positive = defaults[0] if positive is None else positive
        negative = defaults[1] if negative is None else negative

    classes = ds.classes.tolist()
    pos = [_match_class(v, classes, "positive", name) for v in _as_class_list(positive, "positive")]
    if isinstance(negative, str) and negative == "rest":
        neg = [c for c in classes if c not in pos]
        if not neg:
            raise InvalidInputError("negative", "'rest' is empty: positive takes every class")
    else:
        neg = [
            _match_class(v, classes, "negative", name)
            for v in _as_class_list(negative, "negative")
        ]
    both = sorted(set(pos) & set(neg), key=str)
    if both:
        raise InvalidInputError("negative", f"class(es) {both} are also in positive")

    is_pos = np.isin(y, pos)
    is_neg = np.isin(y, neg)
    for arg, mask, vals in (("positive", is_pos, pos), ("negative", is_neg, neg)):
        if not mask.any():
            raise InvalidInputError(arg, f"no rows of class(es) {vals} in split {split!r}")
    keep = is_pos | is_neg
    y_pm = np.where(is_pos[keep], 1.0, -1.0)
    return np.array(X[keep], dtype=np.float64), y_pm
