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
    "check_box_C",
    "check_nonnegative",
    "check_positive_sequence",
    "check_in_range",
    "check_open_unit",
    "check_int",
    "check_seed",
    "check_class_labels",
    "check_label_types",
    "check_same_length",
    "check_choice",
]

#: The largest seed numpy's legacy ``RandomState`` and scikit-learn's ``random_state``
#: accept: seeds lie in ``[0, MAX_SEED]``.
MAX_SEED = 2**32 - 1


def _as_float_array(x: Any, name: str) -> np.ndarray:
    if isinstance(x, (str, bytes)):
        raise InvalidTypeError(name, f"expected an array of numbers, got {type(x).__name__}")
    try:
        arr = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InvalidTypeError(name, f"expected an array of numbers ({exc})") from None
    return arr


def check_matrix(x: Any, name: str, *, ndim: int = 2, allow_empty: bool = False,
                 finite: bool = True) -> np.ndarray:
    """Return ``x`` as a finite float64 array with ``ndim`` dimensions, or raise.

    ``finite=False`` lets NaN and inf through (a solver's candidate point, which a
    certificate turns into an infinite bound rather than an error).
    """
    arr = _as_float_array(x, name)
    if arr.ndim != ndim:
        raise InvalidInputError(name, f"expected a {ndim}-d array, got shape {arr.shape}")
    if not allow_empty and arr.size == 0:
        raise InvalidInputError(name, "is empty")
    if finite and not np.all(np.isfinite(arr)):
        bad = int(np.size(arr) - np.count_nonzero(np.isfinite(arr)))
        raise InvalidInputError(name, f"contains {bad} non-finite value(s) (NaN or inf)")
    return arr


def _max_asymmetry(arr: np.ndarray, block: int = 128) -> float:
    """``max |A - A'|`` in one pass over ``arr``, tile pair by tile pair; NaN or inf when
    ``arr`` holds a non-finite entry.

    The upper triangle of ``block x block`` tiles is compared with the transposed tiles of
    the lower one: both tiles and the difference (one reused buffer) stay in cache, so the
    matrix is read once and nothing of size ``n x n`` is allocated.  A non-finite entry
    makes its difference NaN or +-inf (``inf - inf``, ``nan - x``, ``inf - x``), which the
    maxima propagate: the same pass checks finiteness.
    """
    n = arr.shape[0]
    buf = np.empty((block, block))
    worst = np.empty((n + block - 1) // block * ((n + block - 1) // block + 1) // 2)
    k = 0
    with np.errstate(invalid="ignore"):  # inf - inf: NaN is the answer wanted
        for i in range(0, n, block):
            ie = min(i + block, n)
            for j in range(i, n, block):
                je = min(j + block, n)
                d = buf[: ie - i, : je - j]
                np.subtract(arr[i:ie, j:je], arr[j:je, i:ie].T, out=d)
                np.abs(d, out=d)
                worst[k] = d.max()
                k += 1
    return float(worst[:k].max())  # NaN propagates (Python's max() would drop it)


def check_kernel(
    K: Any, name: str = "K", *, n: int | None = None, symmetric_tol: float = 1e-10,
    values: bool = True, labels: str = "y",
) -> np.ndarray:
    """Return a square, finite, symmetric kernel matrix or raise naming ``name``.

    ``n`` is the number of labels (the argument ``labels``): a size mismatch raises naming
    ``name`` with a message that names both arguments and both sizes, since either may be
    the wrong one.

    Symmetry is checked to ``symmetric_tol`` relative to ``max|K|``; the matrix is
    returned as given (not symmetrised).  One blocked pass over ``K``
    (:func:`_max_asymmetry`) checks symmetry and finiteness together; ``max|K|`` is read
    (two more passes) only when ``K`` is not exactly symmetric, and the non-finite entries
    are counted only for the error message.

    ``values=False`` checks the type and the shape only, not the ``n^2`` values: for a
    caller that validated ``K`` already (see the ``check_input`` keyword of
    :func:`convexkern.formulations.svm.dual` and :func:`convexkern.math.smo.smo`).
    """
    arr = check_matrix(K, name, finite=False)
    if arr.shape[0] != arr.shape[1]:
        raise InvalidInputError(name, f"must be square, got shape {arr.shape}")
    if n is not None and arr.shape[0] != n:
        raise InvalidInputError(name, f"is {arr.shape[0]} x {arr.shape[1]} but {labels} has "
                                      f"{n} labels: {name} must be n x n for n labels")
    if not values:
        return arr
    asym = _max_asymmetry(arr)
    if asym == 0.0:
        return arr  # exactly symmetric, and finite (a non-finite entry gives NaN or inf)
    if not np.isfinite(asym):
        check_matrix(arr, name)  # raises, counting the non-finite values
    scale = max(float(arr.max()), -float(arr.min()), 1.0)  # max|K| without a temporary
    if asym > symmetric_tol * scale:
        raise InvalidInputError(
            name,
            f"is not symmetric (max |K - K'| = {asym:.3g}); symmetrise it explicitly "
            "with (K + K.T) / 2 if that is what you mean",
        )
    return arr


def _label_kind(v: Any) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "bool"
    if isinstance(v, (int, float, np.integer, np.floating)):
        return "number"
    if isinstance(v, (str, np.str_)):
        return "str"
    if isinstance(v, (bytes, np.bytes_)):
        return "bytes"
    return type(v).__name__


def check_label_types(y: Any, name: str) -> None:
    """Raise if the labels ``y`` (a list or an object array) hold ``None`` or mix types.

    numpy would turn ``[1, "a"]`` into the strings ``"1"``, ``"a"`` and ``None`` into NaN
    or an unorderable object; both are refused here, naming ``name``.  Arrays of one
    numeric or string dtype are not inspected element by element (they are homogeneous).
    """
    if y is None or (isinstance(y, np.ndarray) and y.dtype != object):
        return  # no labels at all: the caller's own message (scikit-learn's for estimators)
    try:
        items = np.asarray(y, dtype=object).ravel()
    except (TypeError, ValueError):  # ragged: reported by the caller's shape check
        return
    first: dict[str, tuple[int, Any]] = {}
    for i, v in enumerate(items):
        if v is None:
            raise InvalidInputError(name, f"contains None (a missing label) at index {i}")
        kind = _label_kind(v)
        if kind not in first:
            first[kind] = (i, v)
            if len(first) > 1:
                (k1, (i1, v1)), (k2, (i2, v2)) = list(first.items())[:2]
                raise InvalidInputError(
                    name, f"mixes label types: {v1!r} ({k1}, index {i1}) and {v2!r} "
                          f"({k2}, index {i2}); give labels of one type")


def check_class_labels(y: Any, name: str = "y", *, n: int | None = None) -> np.ndarray:
    """Return class labels of any one type (numbers or strings) as a 1-d array, or raise.

    Refused, naming ``name``: ``None`` (a missing label), labels of mixed types (numpy
    would silently turn ``[1, "a"]`` into the strings ``"1"`` and ``"a"``), NaN or inf,
    a shape other than 1-d, and a length other than ``n`` when given.  The labels are not
    recoded; a numpy array of one dtype is returned as given (not copied).
    """
    if y is None or isinstance(y, (str, bytes)):
        raise InvalidTypeError(name, f"expected an array of labels, got {type(y).__name__}")
    check_label_types(y, name)
    try:
        arr = np.asarray(y)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(name, f"expected a 1-d array of labels ({exc})") from None
    if arr.dtype == object:  # numbers of mixed Python types, or one non-numeric type
        try:
            arr = np.asarray(arr.tolist())
        except (TypeError, ValueError):
            pass
    if arr.ndim != 1:
        raise InvalidInputError(name, f"expected a 1-d array of labels, got shape {arr.shape}")
    if n is not None and arr.size != n:
        raise InvalidInputError(name, f"has {arr.size} labels but the data has {n} rows")
    if arr.dtype.kind in "fc" and not np.all(np.isfinite(arr)):
        raise InvalidInputError(name, "contains non-finite labels (NaN or inf)")
    return arr


def check_labels(y: Any, name: str = "y", *, n: int | None = None) -> np.ndarray:
    """Return binary labels in {-1, +1} as float64, or raise.

    Both classes must be present.  Labels in {0, 1} or any other coding are rejected
    rather than recoded; ``None`` and labels of mixed types are named as such.
    """
    if not isinstance(y, (str, bytes)):
        check_label_types(y, name)
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


def _real(value: Any, name: str, expected: str) -> float:
    """``value`` (an int or a float, numpy's included, not a bool) as a float, or an
    :class:`InvalidTypeError` naming ``name`` and what was ``expected``."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InvalidTypeError(name, f"expected {expected}, got {value!r}")
    return float(value)


def check_positive(value: Any, name: str, *, allow_inf: bool = False) -> float:
    """Return ``value`` as a float > 0 or raise."""
    v = _real(value, name, "a positive number")
    if np.isnan(v) or v <= 0 or (np.isinf(v) and not allow_inf):
        raise InvalidInputError(name, f"must be a positive finite number, got {value!r}")
    return v


def check_positive_sequence(values: Any, name: str) -> list[float]:
    """Return a non-empty sequence of positive finite numbers as a list of floats, or raise.

    A string, a bare number or an empty sequence is refused naming ``name``; a bad entry
    is named ``name[i]``.
    """
    if isinstance(values, (str, bytes)) or not isinstance(values, (list, tuple, np.ndarray)):
        raise InvalidTypeError(
            name, f"expected a non-empty list of positive numbers, got {values!r}")
    items = list(np.ravel(values)) if isinstance(values, np.ndarray) else list(values)
    if not items:
        raise InvalidInputError(name, "is empty; give at least one positive number")
    return [check_positive(v, f"{name}[{i}]") for i, v in enumerate(items)]


def check_margin_C(value: Any, name: str = "C") -> float:
    """A soft-margin penalty ``C > 0`` as a float, or ``inf`` for ``None`` (the hard margin)."""
    return float("inf") if value is None else check_positive(value, name)


def check_box_C(value: Any, n: int, name: str = "C", *,
                allow_inf: bool = False) -> float | np.ndarray:
    """An SVM box: a number ``C > 0`` as a float (``inf`` only with ``allow_inf``), or the
    per-example bounds of a weighted SVM, ``n`` finite numbers ``>= 0`` (not all zero), as
    a float64 array."""
    if np.ndim(value) == 0 or isinstance(value, (str, bytes)):
        return check_positive(value, name, allow_inf=allow_inf)
    arr = check_matrix(value, name, ndim=1)
    if arr.size != n:
        raise InvalidInputError(name, f"has {arr.size} per-example bounds, expected {n}")
    if np.any(arr < 0) or not np.any(arr > 0):
        raise InvalidInputError(
            name, f"per-example bounds must be >= 0 and not all zero, got min {arr.min():.6g} "
                  f"and max {arr.max():.6g}")
    return arr


def check_nonnegative(value: Any, name: str, *,
                      expected: str = "a nonnegative number") -> float:
    """Return ``value`` as a finite float >= 0 or raise (a value of the wrong type is
    refused as not ``expected``)."""
    v = _real(value, name, expected)
    if not np.isfinite(v) or v < 0:
        raise InvalidInputError(name, f"must be a finite number >= 0, got {value!r}")
    return v


def check_in_range(value: Any, name: str, low: float, high: float) -> float:
    """Return ``value`` as a float in ``[low, high]`` or raise."""
    v = _real(value, name, "a number")
    if not (low <= v <= high):
        raise InvalidInputError(name, f"must lie in [{low}, {high}], got {value!r}")
    return v


def check_open_unit(value: Any, name: str) -> float:
    """Return ``value`` as a float strictly between 0 and 1 (a ``tol``, a fraction) or raise.

    The one check of an open-unit-interval scalar: :func:`convexkern.solve`'s ``tol``, the
    CLI's ``--tol`` and the TOML specs' ``tol``, ``test_size`` and ``factor`` all use it.
    """
    v = _real(value, name, "a number in (0, 1)")
    if not 0 < v < 1:
        raise InvalidInputError(name, f"must be a number in (0, 1), got {value!r}")
    return v


def check_int(value: Any, name: str, *, minimum: int = 0, maximum: int | None = None) -> int:
    """Return ``value`` as an int >= ``minimum`` (and <= ``maximum``) or raise."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InvalidTypeError(name, f"expected an integer, got {value!r}")
    if int(value) < minimum:
        raise InvalidInputError(name, f"must be >= {minimum}, got {value!r}")
    if maximum is not None and int(value) > maximum:
        raise InvalidInputError(name, f"must be <= {maximum}, got {value!r}")
    return int(value)


def check_seed(value: Any, name: str = "seed", *, count: int = 1) -> int:
    """Return a random seed as an int in ``[0, MAX_SEED]`` (``2**32 - 1``), or raise.

    numpy's ``RandomState`` and scikit-learn's ``random_state`` accept no other integer.
    With ``count`` seeds used in a row (``seed, seed + 1, ..., seed + count - 1``) the last
    one must fit too.
    """
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InvalidTypeError(name, f"expected an integer seed in [0, 2**32 - 1], got {value!r}")
    top = MAX_SEED - (count - 1)
    if not 0 <= int(value) <= top:
        extra = f" (seeds {name}..{name} + {count - 1} are used)" if count > 1 else ""
        raise InvalidInputError(
            name, f"must be an integer in [0, {top}]{extra}, the seed range of numpy and "
                  f"scikit-learn, got {value!r}")
    return int(value)


def check_same_length(a: np.ndarray, b: np.ndarray, name_a: str, name_b: str) -> None:
    """Raise if the first dimensions of ``a`` and ``b`` differ."""
    if a.shape[0] != b.shape[0]:
        raise InvalidInputError(
            name_b, f"has {b.shape[0]} rows but {name_a} has {a.shape[0]}"
        )


def check_choice(value: Any, name: str, choices: tuple[str, ...]) -> str:
    """Return ``value`` if it is one of the strings ``choices``, or raise naming ``name``
    (a solver option such as ``method`` or ``form``: a plain ``ValueError`` from deep
    inside a solver used to reach users)."""
    if not isinstance(value, str):
        raise InvalidTypeError(name, f"expected one of {list(choices)}, got {value!r}")
    if value not in choices:
        raise InvalidInputError(name, f"must be one of {list(choices)}, got {value!r}")
    return value
