"""A parsed CSV table and the :class:`Dataset` every loader returns."""

from __future__ import annotations

import csv
import gzip
import io
import warnings
import zlib
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from ..errors import InvalidInputError

# --------------------------------------------------------------------------------------
# The Dataset record
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Dataset:
    """A data set: features, labels and where they came from.

    Attributes
    ----------
    name : str
        The name it was loaded under (e.g. ``"usps"``), or the file name for
        :func:`load_csv`.
    X : numpy.ndarray of float64, shape (n_samples, n_features)
        The features, in the order of the source file.
    y : numpy.ndarray, shape (n_samples,)
        The labels as in the file: ``int64`` for numeric classes (digits, class codes,
        abalone rings), ``str`` for letter/balance classes; ``float64`` only for a
        user CSV whose label column is numeric but not integral.
    feature_names : tuple of str
        One name per column of ``X``.
    target_name : str
        The name of the label column.
    description : str
        What the data are, with the caveats that matter for kernel-machine experiments.
    source : str
        The citation (original authors / UCI DOI) and where the copy was taken from.
    license : str
        The licence note, as far as it is known.
    split_index : int or None
        If not None, rows ``[:split_index]`` are the training part and the rest the test
        part: the given split for the pooled ``usps``/``thyroid``/``satimage``, the
        conventional one from the UCI documentation for ``abalone`` (3133) and
        ``letter`` (16000).
    """

    name: str
    X: np.ndarray
    y: np.ndarray
    feature_names: tuple[str, ...]
    target_name: str
    description: str = ""
    source: str = ""
    license: str = ""
    split_index: int | None = None

    @property
    def n_samples(self) -> int:
        """Number of rows."""
        return int(self.X.shape[0])

    @property
    def n_features(self) -> int:
        """Number of feature columns."""
        return int(self.X.shape[1])

    @property
    def classes(self) -> np.ndarray:
        """The sorted distinct labels."""
        return np.unique(self.y)

    def train_test(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Return ``(X_train, y_train, X_test, y_test)`` cut at :attr:`split_index`.

        Raises
        ------
        InvalidInputError
            If the data set has no given or conventional split (``split_index`` is None).
        """
        if self.split_index is None:
            raise InvalidInputError(
                "split_index",
                f"data set {self.name!r} has no given train/test split; use e.g. "
                "sklearn.model_selection.train_test_split with a fixed random_state",
            )
        s = self.split_index
        return self.X[:s].copy(), self.y[:s].copy(), self.X[s:].copy(), self.y[s:].copy()

    def __repr__(self) -> str:
        split = "" if self.split_index is None else f", split_index={self.split_index}"
        return (
            f"Dataset(name={self.name!r}, n_samples={self.n_samples}, "
            f"n_features={self.n_features}, target={self.target_name!r}, "
            f"n_classes={self.classes.size}{split})"
        )


# --------------------------------------------------------------------------------------
# CSV parsing (shared by the shipped files and load_csv)
# --------------------------------------------------------------------------------------


class _Table(NamedTuple):
    header: tuple[str, ...]
    numeric: np.ndarray  # (n_rows, n_cols) float64; NaN in the text columns
    text: dict[int, np.ndarray]  # column index -> str array, for non-numeric columns
    line_numbers: np.ndarray | None  # file line of each row (None: row i is on line i+2)

    def line_of(self, row: int) -> int:
        if self.line_numbers is None:
            return row + 2
        return int(self.line_numbers[row])


def _freeze(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


def _parse_csv_text(text: str, source: str, delimiter: str = ",") -> _Table:
    """Parse CSV text with one header row into a :class:`_Table`.

    Purely numeric files take a fast path (``numpy.loadtxt``); anything else (string
    columns, quoting, empty cells, ragged rows) is read with the :mod:`csv` module, which
    finds and reports the problem precisely.
    """
    first_nl = text.find("\n")
    head_line = text if first_nl < 0 else text[:first_nl]
    header_rows = list(csv.reader([head_line], delimiter=delimiter))
    header = tuple(h.strip() for h in header_rows[0]) if header_rows else ()
    if not header or header == ("",):
        raise InvalidInputError("path", f"{source} is empty; expected a header row")
    body = "" if first_nl < 0 else text[first_nl + 1 :]
    if not body.strip():
        raise InvalidInputError("path", f"{source} has a header row but no data rows")
    ncol = len(header)

    try:  # fast path: every cell is a plain number
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            numeric = np.loadtxt(
                io.StringIO(body), delimiter=delimiter, dtype=np.float64, ndmin=2,
                comments=None,
            )
        if numeric.shape[1] == ncol:
            return _Table(header, _freeze(numeric), {}, None)
    except ValueError:
        pass

    # slow path: csv module, cell by cell diagnostics
    reader = csv.reader(io.StringIO(body), delimiter=delimiter)
    rows: list[list[str]] = []
    lines: list[int] = []
    for row in reader:
        if not row or (len(row) == 1 and not row[0].strip()):
            continue  # blank line
        if len(row) != ncol:
            raise InvalidInputError(
                "path",
                f"{source}, line {reader.line_num + 1}: {len(row)} fields, but the header "
                f"has {ncol} ({', '.join(header[:6])}{', ...' if ncol > 6 else ''})",
            )
        rows.append(row)
        lines.append(reader.line_num + 1)
    if not rows:
        raise InvalidInputError("path", f"{source} has a header row but no data rows")
    numeric = np.full((len(rows), ncol), np.nan)
    text_cols: dict[int, np.ndarray] = {}
    for j, col in enumerate(zip(*rows)):
        try:
            numeric[:, j] = np.array(col, dtype=np.float64)
        except ValueError:
            text_cols[j] = _freeze(np.array([c.strip() for c in col], dtype=str))
    return _Table(header, _freeze(numeric), text_cols, _freeze(np.asarray(lines)))


def _first_non_numeric(table: _Table, j: int) -> tuple[int, str]:
    for i, value in enumerate(table.text[j]):
        try:
            float(value)
        except ValueError:
            return table.line_of(i), str(value)
    return 0, ""  # pragma: no cover - only called for text columns


def _open_text(fh: Any, gz: bool, source: str = "the file") -> str:
    """The text of an open binary file, gunzipped when ``gz``; a file that is not gzip, a
    truncated or corrupt ``.gz``, or bytes that are not UTF-8 raise an
    :class:`InvalidInputError` naming ``path``."""
    raw = fh.read()
    if gz:
        try:
            raw = gzip.decompress(raw)
        except gzip.BadGzipFile:
            raise InvalidInputError(
                "path", f"{source} ends in .gz but is not a gzip file (it starts with "
                        f"{raw[:8]!r}); rename it or compress it") from None
        except EOFError:
            raise InvalidInputError(
                "path", f"{source} is a truncated gzip file (the compressed stream ends "
                        "early)") from None
        except zlib.error as exc:
            raise InvalidInputError("path", f"{source} is a corrupt gzip file ({exc})") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidInputError(
            "path", f"{source} is not UTF-8 text: byte {raw[exc.start:exc.start + 1]!r} at "
                    f"offset {exc.start} ({exc.reason}); re-encode it as UTF-8") from None

def _labels(table: _Table, j: int) -> np.ndarray:
    """The label column: str if text, int64 if integral, else float64 (a copy)."""
    if j in table.text:
        return table.text[j].copy()
    col = table.numeric[:, j]
    if np.all(np.isfinite(col)) and np.all(col == np.round(col)):
        return col.astype(np.int64)
    return col.copy()
