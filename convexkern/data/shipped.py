"""The shipped data sets: their catalogue (provenance, licence) and their loaders."""

from __future__ import annotations

import errno
import functools
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np

from ..errors import InvalidInputError, InvalidTypeError
from ._table import Dataset, _labels, _open_text, _parse_csv_text, _Table

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
    resource = resources.files("convexkern").joinpath("datasets").joinpath(filename)
    try:
        with resource.open("rb") as fh:
            text = _open_text(fh, filename.endswith(".gz"), filename)
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
