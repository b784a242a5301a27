"""Input checks shared by every module.

Each check names the argument it rejects and never alters the data: nothing is silently
symmetrised, clipped or relabelled.  Functions return the validated array as a float64
(or the scalar as a float) so callers can use the result directly.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .errors import InvalidInputError, InvalidTypeError

__all__ = [
    "check_matrix",
    "check_kernel",
    "check_labels",
    "check_positive",
    "check_margin_C",
    "check_nonnegative",
    "check_in_range",
    "check_open_unit",
    "check_int",
    "check_same_length",
]


def _as_float_array(x: Any, name: str) -> np.ndarray:
    if isinstance(x, (str, bytes)):
        raise InvalidTypeError(name, f"expected an array of numbers, got {type(x).__name__}")
    try:
        arr = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InvalidTypeError(name, f"expected an array of numbers ({exc})") from None
    return arr


def check_matrix(x: Any, name: str, *, ndim: int = 2, allow_empty: bool = False) -> np.ndarray:
    """Return ``x`` as a finite float64 array with ``ndim`` dimensions, or raise."""
    arr = _as_float_array(x, name)
    if arr.ndim != ndim:
        raise InvalidInputError(name, f"expected a {ndim}-d array, got shape {arr.shape}")
    if not allow_empty and arr.size == 0:
        raise InvalidInputError(name, "is empty")
    if not np.all(np.isfinite(arr)):
        bad = int(np.size(arr) - np.count_nonzero(np.isfinite(arr)))
        raise InvalidInputError(name, f"contains {bad} non-finite value(s) (NaN or inf)")
    return arr


def _max_asymmetry(arr: np.ndarray, block: int = 256) -> float:
    """``max |A - A'|`` over the upper triangle of tiles, without an n x n temporary."""
    n = arr.shape[0]
    worst = 0.0
    for i in range(0, n, block):
        for j in range(i, n, block):
            tile = arr[i:i + block, j:j + block] - arr[j:j + block, i:i + block].T
            worst = max(worst, float(np.max(np.abs(tile))))
    return worst


def check_kernel(
    K: Any, name: str = "K", *, n: int | None = None, symmetric_tol: float = 1e-10
) -> np.ndarray:
    """Return a square, finite, symmetric kernel matrix or raise naming ``name``.

    Symmetry is checked to ``symmetric_tol`` relative to ``max|K|``; the matrix is
    returned as given (not symmetrised).
    """
    arr = check_matrix(K, name)
    if arr.shape[0] != arr.shape[1]:
        raise InvalidInputError(name, f"must be square, got shape {arr.shape}")
    if n is not None and arr.shape[0] != n:
        raise InvalidInputError(name, f"must be {n} x {n} to match the labels, got {arr.shape}")
    scale = max(float(arr.max()), -float(arr.min()), 1.0)  # max|K| without a temporary
    asym = _max_asymmetry(arr)
    if asym > symmetric_tol * scale:
        raise InvalidInputError(
            name,
            f"is not symmetric (max |K - K'| = {asym:.3g}); symmetrise it explicitly "
            "with (K + K.T) / 2 if that is what you mean",
        )
    return arr


def check_labels(y: Any, name: str = "y", *, n: int | None = None) -> np.ndarray:
    """Return binary labels in {-1, +1} as float64, or raise.

    Both classes must be present.  Labels in {0, 1} or any other coding are rejected
    rather than recoded.
    """
    arr = _as_float_array(y, name)
    if arr.ndim != 1:
        raise InvalidInputError(name, f"expected a 1-d array of labels, got shape {arr.shape}")
    if arr.size == 0:
        raise InvalidInputError(name, "is empty")
    if n is not None and arr.size != n:
        raise InvalidInputError(name, f"has {arr.size} labels but the data has {n} rows")
    if not np.all(np.isfinite(arr)):
        raise InvalidInputError(name, "contains non-finite values")
    values = np.unique(arr)
    if not np.all(np.isin(values, (-1.0, 1.0))):
        raise InvalidInputError(
            name, f"labels must be -1 or +1, got values {values[:6].tolist()}"
        )
    if values.size != 2:
        raise InvalidInputError(
            name, f"both classes -1 and +1 are needed, got only {values.tolist()}"
        )
    return arr


def check_positive(value: Any, name: str, *, allow_inf: bool = False) -> float:
    """Return ``value`` as a float > 0 or raise."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InvalidTypeError(name, f"expected a positive number, got {value!r}")
    v = float(value)
    if np.isnan(v) or v <= 0 or (np.isinf(v) and not allow_inf):
        raise InvalidInputError(name, f"must be a positive finite number, got {value!r}")
    return v


def check_margin_C(value: Any, name: str = "C") -> float:
    """A soft-margin penalty ``C > 0`` as a float, or ``inf`` for ``None`` (the hard margin)."""
    return float("inf") if value is None else check_positive(value, name)


def check_nonnegative(value: Any, name: str) -> float:
    """Return ``value`` as a finite float >= 0 or raise."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InvalidTypeError(name, f"expected a nonnegative number, got {value!r}")
    v = float(value)
    if not np.isfinite(v) or v < 0:
        raise InvalidInputError(name, f"must be a finite number >= 0, got {value!r}")
    return v


def check_in_range(value: Any, name: str, low: float, high: float) -> float:
    """Return ``value`` as a float in ``[low, high]`` or raise."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InvalidTypeError(name, f"expected a number, got {value!r}")
    v = float(value)
    if not (low <= v <= high):
        raise InvalidInputError(name, f"must lie in [{low}, {high}], got {value!r}")
    return v


def check_open_unit(value: Any, name: str) -> float:
    """Return ``value`` as a float strictly between 0 and 1 (a ``tol``, a fraction) or raise.

    The one check of an open-unit-interval scalar: :func:`convexkern.solve`'s ``tol``, the
    CLI's ``--tol`` and the TOML specs' ``tol``, ``test_size`` and ``factor`` all use it.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InvalidTypeError(name, f"expected a number in (0, 1), got {value!r}")
    v = float(value)
    if not 0 < v < 1:
        raise InvalidInputError(name, f"must be a number in (0, 1), got {value!r}")
    return v


def check_int(value: Any, name: str, *, minimum: int = 0) -> int:
    """Return ``value`` as an int >= ``minimum`` or raise."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InvalidTypeError(name, f"expected an integer, got {value!r}")
    if int(value) < minimum:
        raise InvalidInputError(name, f"must be >= {minimum}, got {value!r}")
    return int(value)


def check_same_length(a: np.ndarray, b: np.ndarray, name_a: str, name_b: str) -> None:
    """Raise if the first dimensions of ``a`` and ``b`` differ."""
    if a.shape[0] != b.shape[0]:
        raise InvalidInputError(
            name_b, f"has {b.shape[0]} rows but {name_a} has {a.shape[0]}"
        )
