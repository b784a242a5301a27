"""A user's own CSV file as a :class:`Dataset`."""

from __future__ import annotations

import errno
import os
import warnings

import numpy as np

from ..errors import InvalidInputError, InvalidTypeError
from ._table import Dataset, _first_non_numeric, _labels, _open_text, _parse_csv_text

# --------------------------------------------------------------------------------------
# A user's own CSV
# --------------------------------------------------------------------------------------


def load_csv(
    path: str | os.PathLike[str],
    label_column: int | str = -1,
    *,
    delimiter: str = ",",
    name: str | None = None,
) -> Dataset:
    """Load a user's CSV file (one header row) into a :class:`Dataset`.

    The format is that of the shipped files: a header row with the column names, one
    sample per line, every column but the label numeric. ``.gz`` files are decompressed.
    The file is read locally and not cached.

    Parameters
    ----------
    path : str or os.PathLike
        The file. The first line is always taken as the header.
    label_column : int or str, default -1
        Position (negative counts from the end) or header name of the label column.
    delimiter : str, default ","
    name : str, optional
        The data set name; the file name by default.

    Returns
    -------
    Dataset
        ``X`` float64 of the other columns in file order; ``y`` int64 if the labels are
        integral numbers, float64 if other numbers, str otherwise.

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    InvalidInputError
        (a ``ValueError``) if the file is empty or has no data rows, a row has the wrong
        number of fields (the line is given), a feature column holds a non-numeric,
        empty or non-finite value (the column name and line are given), the bytes are not
        UTF-8, a ``.gz`` file is not gzip or is truncated (all naming ``path``); a
        ``delimiter`` that cannot separate fields (a line end, ``"``, a character of a
        number); or ``label_column`` is out of range / not a column name.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise InvalidTypeError("path", f"expected a file path, got {type(path).__name__}")
    fspath = os.fspath(path)
    if not os.path.exists(fspath):
        raise FileNotFoundError(errno.ENOENT, "path: no such file", fspath)
    if os.path.isdir(fspath):
        raise InvalidInputError("path", f"{fspath!r} is a directory, not a CSV file")
    _check_delimiter(delimiter)
    base = os.path.basename(fspath)
    with open(fspath, "rb") as fh:
        text = _open_text(fh, fspath.endswith(".gz"), base)
    table = _parse_csv_text(text, base, delimiter)
    header = table.header
    ncol = len(header)

    if isinstance(label_column, str):
        if label_column not in header:
            raise InvalidInputError(
                "label_column",
                f"{label_column!r} is not a column of {base}; columns: {list(header)}",
            )
        label_j = header.index(label_column)
    elif isinstance(label_column, (int, np.integer)) and not isinstance(label_column, bool):
        if not -ncol <= int(label_column) < ncol:
            raise InvalidInputError(
                "label_column", f"{label_column} is out of range for {ncol} columns"
            )
        label_j = int(label_column) % ncol
    else:
        raise InvalidTypeError(
            "label_column", f"expected a column index or name, got {label_column!r}"
        )
    if ncol < 2:
        raise InvalidInputError(
            "path", f"{base} has only the label column, no features (its header splits into "
                    f"one column at delimiter={delimiter!r}: is that the file's delimiter?)")

    if all(_is_number(h) for h in header):
        warnings.warn(
            f"the header row of {base} looks numeric ({', '.join(header[:4])}, ...); "
            "load_csv always treats the first line as column names, so that row is not data",
            UserWarning,
            stacklevel=2,
        )

    feat_j = [j for j in range(ncol) if j != label_j]
    for j in feat_j:
        if j in table.text:
            line, value = _first_non_numeric(table, j)
            what = (
                "an empty value (missing data?)" if value == "" else f"non-numeric value {value!r}"
            )
            raise InvalidInputError(
                "path",
                f"{base}: feature column {header[j]!r} (index {j}) has {what} on line {line}; "
                "encode or drop it first",
            )
    X = table.numeric[:, feat_j].copy()
    finite = np.isfinite(X)
    if not finite.all():
        i, k = np.argwhere(~finite)[0]
        raise InvalidInputError(
            "path",
            f"{base}: feature column {header[feat_j[k]]!r} has the non-finite value "
            f"{X[i, k]} on line {table.line_of(int(i))}",
        )
    return Dataset(
        name=name if name is not None else base,
        X=X,
        y=_labels(table, label_j),
        feature_names=tuple(header[j] for j in feat_j),
        target_name=header[label_j],
        description=f"User data read from {fspath}.",
        source=fspath,
    )


#: Characters that cannot separate the fields: line ends, the CSV quote, and characters
#: of a number (a field "1.5e-3" must stay one field).
_BAD_DELIMITERS = "\r\n\"0123456789.+-eE"


def _check_delimiter(delimiter: object) -> None:
    """A single character that can separate numeric fields, or an error naming it."""
    if not isinstance(delimiter, str) or len(delimiter) != 1:
        raise InvalidInputError("delimiter", f"must be a single character, got {delimiter!r}")
    if delimiter in _BAD_DELIMITERS:
        why = ("a line end" if delimiter in "\r\n" else "the CSV quote character"
               if delimiter == '"' else "a character of numbers (1.5e-3)")
        raise InvalidInputError(
            "delimiter", f"{delimiter!r} cannot separate fields: it is {why}; use e.g. ',', "
                         "';', '\\t' or ' '")


def _is_number(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True
