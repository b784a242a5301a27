"""The real data sets used by the seed papers, shipped with the package, and their loaders.

Every data set is read from the package itself (``convexkern/datasets/*.csv.gz``) through
:mod:`importlib.resources`; nothing is ever downloaded.  The files are the CSV copies of
``shared/data`` (one header row, label in the last column), gzip-compressed; their
provenance, citations, licences and SHA-256 checksums are in
``convexkern/datasets/README.md``, which is installed next to them.

Names accepted by :func:`load` (see :func:`available_datasets`):

==================  =============  ==========================================================
name                rows x feats   label ``y``
==================  =============  ==========================================================
``usps_train``      7291 x 256     ``digit`` 0-9 (int)
``usps_test``       2007 x 256     ``digit`` 0-9 (int)
``usps``            9298 x 256     train then test; ``split_index == 7291``
``pima``            768 x 8        ``class`` 0/1 (int; 1 = tested positive for diabetes)
``bupa``            345 x 6        ``selector`` 1/2 (int; see the caveat in :func:`load`)
``balance``         625 x 4        ``class`` "L", "B", "R" (str)
``thyroid_train``   3772 x 21      ``class`` 1, 2, 3 (int; 3 = normal)
``thyroid_test``    3428 x 21      ``class`` 1, 2, 3 (int)
``thyroid``         7200 x 21      train then test; ``split_index == 3772``
``abalone``         4177 x 10      ``rings`` 1-29 (int); ``sex`` one-hot as M, F, I
``satimage_train``  4435 x 36      ``class`` 1, 2, 3, 4, 5, 7 (int; there is no class 6)
``satimage_test``   2000 x 36      ``class`` as above
``satimage``        6435 x 36      train then test; ``split_index == 4435``
``letter``          20000 x 16     ``letter`` "A"-"Z" (str)
==================  =============  ==========================================================

Rows are in the order of the source files: nothing is shuffled, scaled, de-duplicated or
imputed (Pima's missing values are still coded as 0).  For a random split use
scikit-learn, seeded, e.g.
``sklearn.model_selection.train_test_split(X, y, test_size=0.25, random_state=0,
stratify=y)``; for the given (or conventional) split use :meth:`Dataset.train_test`.

Parsed files are cached in memory (read-only); every loader returns fresh copies, so a
caller may modify what it gets without affecting later calls.

Examples
--------
>>> from convexkern import data
>>> ds = data.load("pima")
>>> ds.X.shape, ds.y.shape
((768, 8), (768,))
>>> X, y = data.load_binary("usps", 3, 5)      # digits 3 (+1) and 5 (-1), train + test
>>> X.shape, int((y == 1).sum())
((1540, 256), 824)
"""

from __future__ import annotations

import csv
import errno
import functools
import gzip
import io
import os
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from typing import Any, NamedTuple

import numpy as np

from .errors import InvalidInputError, InvalidTypeError

__all__ = [
    "Dataset",
    "available_datasets",
    "load",
    "load_usps",
    "load_thyroid",
    "load_satimage",
    "load_abalone",
    "load_binary",
    "load_csv",
]


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


def _open_text(fh: Any, gz: bool) -> str:
    raw = fh.read()
    if gz:
        raw = gzip.decompress(raw)
    return raw.decode("utf-8-sig")


# --------------------------------------------------------------------------------------
# The shipped data sets
# --------------------------------------------------------------------------------------

_UCI_LICENSE = "UCI Machine Learning Repository data, CC BY 4.0."


@dataclass(frozen=True)
class _Spec:
    files: tuple[str, ...]
    description: str
    source: str
    license: str
    split_index: int | None = None  # conventional split of a single-file set


_USPS_DESC = (
    "USPS handwritten digits: 16x16 grey-scale images from US postal envelopes, 10 "
    "classes (0-9). Pixels p0..p255 are row-major (p[16*row + col], row 0 at the top) "
    "in [0, 1], 0 = background; they are (v + 1)/2 of the [-1, 1] ESL/LIBSVM version, "
    "so use 2*X - 1 for that scale. The standard split has 7291 training and 2007 test "
    "images."
)
_USPS_SOURCE = (
    "J. J. Hull, 'A database for handwritten text recognition research', IEEE Trans. "
    "PAMI 16(5):550-554, 1994; split as in LeCun et al., Neural Computation 1(4), 1989, "
    "and Hastie, Tibshirani & Friedman, The Elements of Statistical Learning. Copy: "
    "GitHub niuers/Learning-From-Data-A-Short-Course, data/usps.h5 (commit 879a698b)."
)
_USPS_LICENSE = (
    "No licence stated; freely redistributed for research for decades (ESL, LIBSVM, "
    "Kaggle, torchvision). Research use with citation."
)
_THYROID_DESC = (
    "Thyroid disease, 'ann' version (Schiffmann et al.): 21 inputs (15 binary, 6 "
    "continuous, already scaled to [0, 1]) and 3 classes: 1 hyperfunction, 2 subnormal "
    "functioning, 3 normal (about 92.5% of the rows). Given split: 3772 training and "
    "3428 test rows. Duplicate rows (63 in train, 8 in test) are kept."
)
_THYROID_SOURCE = (
    "UCI Machine Learning Repository, 'Thyroid Disease' (R. Quinlan, 1987), files "
    "ann-train.data / ann-test.data, DOI 10.24432/C5D010; W. Schiffmann, M. Joost, "
    "R. Werner, 'Optimization of the backpropagation algorithm for training multilayer "
    "perceptrons', tech. report, University of Koblenz. Copy: GitHub "
    "Asquator/Hyperthyroidism-ML (commit 6acee1f1)."
)
_SAT_DESC = (
    "Statlog (Landsat Satellite), 'satimage': 36 integer features (nominally 0-255; "
    "27-157 in these files), 4 spectral bands x 9 pixels of a 3x3 neighbourhood (UCI "
    "order f0..f35); the label is the class of the central pixel: 1 red soil, "
    "2 cotton crop, 3 grey soil, 4 damp grey soil, "
    "5 soil with vegetation stubble, 7 very damp grey soil (there is no class 6; LIBSVM's "
    "satimage.scale relabels 7 as 6 and scales to [-1, 1]; these are the raw values). "
    "Given split: 4435 training and 2000 test rows."
)
_SAT_SOURCE = (
    "UCI Machine Learning Repository, 'Statlog (Landsat Satellite)' (A. Srinivasan, "
    "1993), files sat.trn / sat.tst, DOI 10.24432/C55887; D. Michie, D. Spiegelhalter, "
    "C. Taylor (eds.), Machine Learning, Neural and Statistical Classification, 1994. "
    "Copy: GitHub YannisSch/Statlog_Landstat_Satellite_Project (commit 6f315383)."
)

_SPECS: dict[str, _Spec] = {
    "usps_train": _Spec(("usps_train.csv.gz",), _USPS_DESC, _USPS_SOURCE, _USPS_LICENSE),
    "usps_test": _Spec(("usps_test.csv.gz",), _USPS_DESC, _USPS_SOURCE, _USPS_LICENSE),
    "usps": _Spec(
        ("usps_train.csv.gz", "usps_test.csv.gz"), _USPS_DESC, _USPS_SOURCE, _USPS_LICENSE
    ),
    "pima": _Spec(
        ("pima_indians_diabetes.csv.gz",),
        "Pima Indians Diabetes: 768 female patients of Pima Indian heritage, aged 21 or "
        "over; class 1 = tested positive for diabetes (WHO criteria), 0 = negative "
        "(500 vs 268). Missing values are still coded as 0 (plasma_glucose 5, "
        "diastolic_bp 35, triceps_skinfold 227, serum_insulin 374, bmi 11 zeros).",
        "J. W. Smith, J. E. Everhart, W. C. Dickson, W. C. Knowler, R. S. Johannes, "
        "'Using the ADAP learning algorithm to forecast the onset of diabetes mellitus', "
        "Proc. Symp. Computer Applications and Medical Care, pp. 261-265, 1988; NIDDK, "
        "donated to UCI by V. Sigillito (1990). Copy: GitHub jbrownlee/Datasets "
        "(commit d20fcb64).",
        "No explicit licence in the source repository; the Kaggle mirror (uciml) marks it "
        "CC0 (not verified). Cite Smith et al. (1988).",
    ),
    "bupa": _Spec(
        ("bupa_liver_disorders.csv.gz",),
        "BUPA Liver Disorders: 345 male individuals, 5 blood tests (mcv, alkphos, sgpt, "
        "sgot, gammagt) and drinks (half-pint equivalents of alcohol per day). The label "
        "is the 7th field 'selector' (1: 145 rows, 2: 200 rows), as used by the classic "
        "ML/SVM literature and LIBSVM's liver-disorders. CAVEAT: McDermott & Forsyth "
        "(2016, Pattern Recognition Letters 73, 'Diagnosing a disorder in a "
        "classification benchmark') showed that 'selector' was a train/test selector, "
        "not a diagnosis; use it only to reproduce old papers. The intended task is to "
        "regress 'drinks' (e.g. thresholded at drinks > 3). 4 rows appear twice, as in "
        "the original.",
        "UCI Machine Learning Repository, 'Liver Disorders' (BUPA Medical Research Ltd.; "
        "donated by R. S. Forsyth, 1990), DOI 10.24432/C54G67. Copy: GitHub "
        "amritmaj/SVM-Tree, bupa.data (commit fe84201f), cross-checked against "
        "vilge/Liver_patient.",
        _UCI_LICENSE,
    ),
    "balance": _Spec(
        ("balance_scale.csv.gz",),
        "Balance Scale: all 5^4 = 625 combinations of left_weight, left_distance, "
        "right_weight, right_distance (1-5 each); class L, B or R is given by comparing "
        "left_weight*left_distance with right_weight*right_distance (a deterministic "
        "rule; 288 L, 49 B, 288 R). Class moved to the last column.",
        "UCI Machine Learning Repository, 'Balance Scale' (R. S. Siegler, 1976; donated "
        "by T. Hume, 1994), DOI 10.24432/C5488X. Copy: GitHub amritmaj/SVM-Tree "
        "(commit fe84201f).",
        _UCI_LICENSE,
    ),
    "thyroid_train": _Spec(
        ("thyroid_ann_train.csv.gz",), _THYROID_DESC, _THYROID_SOURCE, _UCI_LICENSE
    ),
    "thyroid_test": _Spec(
        ("thyroid_ann_test.csv.gz",), _THYROID_DESC, _THYROID_SOURCE, _UCI_LICENSE
    ),
    "thyroid": _Spec(
        ("thyroid_ann_train.csv.gz", "thyroid_ann_test.csv.gz"),
        _THYROID_DESC, _THYROID_SOURCE, _UCI_LICENSE,
    ),
    "abalone": _Spec(
        ("abalone.csv.gz",),
        "Abalone: physical measurements (already divided by 200 in the UCI original); "
        "the label is the integer number of rings (1-29, 28 distinct values; age is "
        "about rings + 1.5 years), for regression or classification. The categorical "
        "'sex' column (M 1528, F 1307, I = infant 1342) is one-hot encoded by default "
        "into three 0/1 columns sex_M, sex_F, sex_I placed first. Conventional split "
        "(abalone.names): first 3133 rows train, last 1044 test.",
        "UCI Machine Learning Repository, 'Abalone' (W. J. Nash, T. L. Sellers, S. R. "
        "Talbot, A. J. Cawthorn, W. B. Ford, 1994; donated by S. Waugh, 1995), DOI "
        "10.24432/C55C7W. Copy: GitHub jbrownlee/Datasets (commit d20fcb64).",
        _UCI_LICENSE,
        split_index=3133,
    ),
    "satimage_train": _Spec(("satimage_train.csv.gz",), _SAT_DESC, _SAT_SOURCE, _UCI_LICENSE),
    "satimage_test": _Spec(("satimage_test.csv.gz",), _SAT_DESC, _SAT_SOURCE, _UCI_LICENSE),
    "satimage": _Spec(
        ("satimage_train.csv.gz", "satimage_test.csv.gz"), _SAT_DESC, _SAT_SOURCE,
        _UCI_LICENSE,
    ),
    "letter": _Spec(
        ("letter_recognition.csv.gz",),
        "Letter Recognition: 20000 images of the 26 capital letters in 20 fonts, randomly "
        "distorted, described by 16 integer features (0-15); label 'letter' A-Z (734 to "
        "813 rows each). 1332 rows duplicate an earlier row, as in the original. "
        "Conventional split: first 16000 rows train, last 4000 test.",
        "P. W. Frey, D. J. Slate, 'Letter recognition using Holland-style adaptive "
        "classifiers', Machine Learning 6(2):161-182, 1991; UCI Machine Learning "
        "Repository, 'Letter Recognition' (D. J. Slate, 1991), DOI 10.24432/C5ZP40. "
        "Copy: GitHub davidgasquez/letter-recognition (commit fe3c4830).",
        _UCI_LICENSE,
        split_index=16000,
    ),
}

# the natural binary coding of the two-class sets: (positive, negative)
_BINARY_DEFAULTS: dict[str, tuple[Any, Any]] = {"pima": (1, 0), "bupa": (1, 2)}

_SPLITS = ("all", "train", "test")


@functools.cache
def _read_shipped(filename: str) -> _Table:
    """Parse one shipped file (cached; the arrays are read-only)."""
    resource = resources.files(__package__).joinpath("datasets").joinpath(filename)
    try:
        with resource.open("rb") as fh:
            text = _open_text(fh, filename.endswith(".gz"))
    except FileNotFoundError:  # pragma: no cover - a broken installation
        raise FileNotFoundError(
            errno.ENOENT,
            f"shipped data file {filename!r} is missing from the convexkern installation "
            "(package data 'datasets/*.csv.gz' not installed?)",
            filename,
        ) from None
    return _parse_csv_text(text, filename)


def available_datasets() -> list[str]:
    """Return the names accepted by :func:`load`, sorted.

    Returns
    -------
    list of str
    """
    return sorted(_SPECS)


def _check_name(name: Any) -> str:
    if not isinstance(name, str):
        raise InvalidTypeError("name", f"expected a data set name (str), got {type(name).__name__}")
    if name not in _SPECS:
        raise InvalidInputError(
            "name", f"unknown data set {name!r}; available: {', '.join(available_datasets())}"
        )
    return name


def _check_split(split: Any) -> str:
    if not isinstance(split, str) or split not in _SPLITS:
        raise InvalidInputError("split", f"must be one of {list(_SPLITS)}, got {split!r}")
    return split


def _labels(table: _Table, j: int) -> np.ndarray:
    """The label column: str if text, int64 if integral, else float64 (a copy)."""
    if j in table.text:
        return table.text[j].copy()
    col = table.numeric[:, j]
    if np.all(np.isfinite(col)) and np.all(col == np.round(col)):
        return col.astype(np.int64)
    return col.copy()


def _build_shipped(name: str, *, sex: str = "onehot") -> Dataset:
    spec = _SPECS[name]
    tables = [_read_shipped(f) for f in spec.files]
    header = tables[0].header
    for t, f in zip(tables[1:], spec.files[1:]):
        if t.header != header:  # pragma: no cover - guards the shipped files
            raise RuntimeError(f"{f}: header differs from {spec.files[0]}")
    label_j = len(header) - 1
    feat_j = [j for j in range(label_j) if j not in tables[0].text]
    X = np.concatenate([t.numeric[:, feat_j] for t in tables], axis=0)
    y = np.concatenate([_labels(t, label_j) for t in tables])
    names = [header[j] for j in feat_j]

    if name == "abalone":
        sex_col = tables[0].text[0]
        if sex == "onehot":
            levels = ("M", "F", "I")
            onehot = np.stack([(sex_col == lv) for lv in levels], axis=1).astype(np.float64)
            if not np.all(onehot.sum(axis=1) == 1):  # pragma: no cover
                raise RuntimeError("abalone.csv: unexpected value in column 'sex'")
            X = np.hstack([onehot, X])
            names = [f"sex_{lv}" for lv in levels] + names
        elif sex != "drop":
            raise InvalidInputError("sex", f"must be 'onehot' or 'drop', got {sex!r}")
    elif tables[0].text and any(j != label_j for j in tables[0].text):  # pragma: no cover
        raise RuntimeError(f"{name}: unexpected text feature column")

    split_index = spec.split_index
    if len(tables) == 2:
        split_index = tables[0].numeric.shape[0]
    return Dataset(
        name=name,
        X=X,
        y=y,
        feature_names=tuple(names),
        target_name=header[label_j],
        description=spec.description,
        source=spec.source,
        license=spec.license,
        split_index=split_index,
    )


def load(name: str) -> Dataset:
    """Load one of the shipped real data sets.

    Parameters
    ----------
    name : str
        One of :func:`available_datasets`: ``"usps_train"``, ``"usps_test"``,
        ``"usps"`` (train then test, ``split_index=7291``), ``"pima"``, ``"bupa"``,
        ``"balance"``, ``"thyroid_train"``, ``"thyroid_test"``, ``"thyroid"``,
        ``"abalone"``, ``"satimage_train"``, ``"satimage_test"``, ``"satimage"``,
        ``"letter"``.

    Returns
    -------
    Dataset
        ``X`` float64 (n, d); ``y`` the labels as in the file (int64, or str for
        ``balance`` and ``letter``); metadata with the citation in ``source``.

    Raises
    ------
    InvalidInputError
        (a ``ValueError``) for an unknown name; the message lists the available ones.

    Notes
    -----
    * ``usps``: pixels in [0, 1] (use ``2*X - 1`` for the LIBSVM/ESL [-1, 1] scale).
      Hull (1994), IEEE Trans. PAMI 16(5):550-554.
    * ``pima``: zeros stand for missing values, as in the original. Smith et al. (1988).
    * ``bupa``: the label is ``selector`` (1/2), as in the classic SVM literature and
      LIBSVM's ``liver-disorders``. McDermott & Forsyth (2016), Pattern Recognition
      Letters 73, showed it is a train/test selector and not a diagnosis: use it only to
      reproduce old results; the modern task is to regress ``drinks``
      (``X[:, 5]``).
    * ``abalone``: ``sex`` is one-hot encoded into ``sex_M, sex_F, sex_I`` (the first
      three columns); see :func:`load_abalone` to drop it instead. ``y`` = rings (int).
    * ``satimage``: classes 1, 2, 3, 4, 5, 7 (no 6), raw 0-255 values.
    * Full provenance, licences and checksums: ``convexkern/datasets/README.md``.
    """
    return _build_shipped(_check_name(name))


def load_usps(split: str = "all") -> Dataset:
    """Load the USPS digits (Hull, 1994): 16x16 images, pixels in [0, 1], labels 0-9.

    Parameters
    ----------
    split : {"all", "train", "test"}, default "all"
        ``"train"``: 7291 images; ``"test"``: 2007; ``"all"``: both, train first, with
        ``split_index == 7291``.

    Returns
    -------
    Dataset

    References
    ----------
    J. J. Hull, "A database for handwritten text recognition research", IEEE Trans.
    PAMI 16(5):550-554, 1994.
    """
    return _load_split("usps", split)


def load_thyroid(split: str = "all") -> Dataset:
    """Load the UCI thyroid data, "ann" version (Quinlan 1987; Schiffmann et al.).

    Parameters
    ----------
    split : {"all", "train", "test"}, default "all"
        ``"train"``: 3772 rows; ``"test"``: 3428; ``"all"``: both (``split_index=3772``).

    Returns
    -------
    Dataset
        21 features in [0, 1]; ``y`` in {1, 2, 3} with 3 = normal (the majority).
    """
    return _load_split("thyroid", split)


def load_satimage(split: str = "all") -> Dataset:
    """Load Statlog (Landsat Satellite) "satimage" (Srinivasan, 1993; UCI).

    Parameters
    ----------
    split : {"all", "train", "test"}, default "all"
        ``"train"``: 4435 rows; ``"test"``: 2000; ``"all"``: both (``split_index=4435``).

    Returns
    -------
    Dataset
        36 raw integer features (nominally 0-255, observed 27-157); ``y`` in {1, 2, 3, 4, 5, 7}.
    """
    return _load_split("satimage", split)


def _load_split(base: str, split: str) -> Dataset:
    split = _check_split(split)
    return _build_shipped(base if split == "all" else f"{base}_{split}")


def load_abalone(*, sex: str = "onehot") -> Dataset:
    """Load the UCI Abalone data (Nash et al., 1994), ``y`` = rings (int, 1-29).

    Parameters
    ----------
    sex : {"onehot", "drop"}, default "onehot"
        ``"onehot"``: the categorical ``sex`` column becomes three 0/1 columns
        ``sex_M, sex_F, sex_I`` (first in ``X``, each row sums to 1), for 10 features;
        ``"drop"``: only the 7 measurements are kept.

    Returns
    -------
    Dataset
        ``split_index = 3133`` (the conventional split of ``abalone.names``).
    """
    if sex not in ("onehot", "drop"):
        raise InvalidInputError("sex", f"must be 'onehot' or 'drop', got {sex!r}")
    return _build_shipped("abalone", sex=sex)


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
        empty or non-finite value (the column name and line are given), or
        ``label_column`` is out of range / not a column name.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise InvalidTypeError("path", f"expected a file path, got {type(path).__name__}")
    fspath = os.fspath(path)
    if not os.path.exists(fspath):
        raise FileNotFoundError(errno.ENOENT, "path: no such file", fspath)
    if os.path.isdir(fspath):
        raise InvalidInputError("path", f"{fspath!r} is a directory, not a CSV file")
    if not isinstance(delimiter, str) or len(delimiter) != 1:
        raise InvalidInputError("delimiter", f"must be a single character, got {delimiter!r}")
    with open(fspath, "rb") as fh:
        text = _open_text(fh, fspath.endswith(".gz"))
    base = os.path.basename(fspath)
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
        raise InvalidInputError("path", f"{base} has only the label column, no features")

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


def _is_number(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True

