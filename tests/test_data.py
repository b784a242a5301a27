"""Tests of the shipped real data sets and their loaders (convexkern.data).

The expected shapes, class counts and checksums are copied from the data README
(shared/data/README.md, repeated in convexkern/datasets/README.md): they are facts about
the files, not derived from the loader.
"""

from __future__ import annotations

import gzip
import hashlib
import re
from collections import Counter
from importlib import resources

import numpy as np
import pytest

from convexkern import data
from convexkern.errors import InvalidInputError

# -- independent facts (README table) ---------------------------------------------------

# name -> (rows, columns including the label, {class: count} or None)
EXPECTED = {
    "usps_train": (7291, 257, {0: 1194, 1: 1005, 2: 731, 3: 658, 4: 652, 5: 556, 6: 664,
                               7: 645, 8: 542, 9: 644}),
    "usps_test": (2007, 257, {0: 359, 1: 264, 2: 198, 3: 166, 4: 200, 5: 160, 6: 170,
                              7: 147, 8: 166, 9: 177}),
    "pima": (768, 9, {0: 500, 1: 268}),
    "bupa": (345, 7, {1: 145, 2: 200}),
    "balance": (625, 5, {"L": 288, "B": 49, "R": 288}),
    "thyroid_train": (3772, 22, {1: 93, 2: 191, 3: 3488}),
    "thyroid_test": (3428, 22, {1: 73, 2: 177, 3: 3178}),
    "abalone": (4177, 9, None),
    "satimage_train": (4435, 37, {1: 1072, 2: 479, 3: 961, 4: 415, 5: 470, 7: 1038}),
    "satimage_test": (2000, 37, {1: 461, 2: 224, 3: 397, 4: 211, 5: 237, 7: 470}),
    "letter": (20000, 17, None),
}

# SHA-256 from the README: of the uncompressed .csv for the small files, of the .gz file
# itself for USPS.
SHA_OF_CSV = {
    "abalone.csv": "b36baf97dbcb1ae8d70ae95dd06794ce7878aef96cefc29cd0c8ca0fd9f8aee1",
    "balance_scale.csv": "890a1daea942695a0bfeaa445963d936cb8feaeca337da9a833a95f65668f246",
    "bupa_liver_disorders.csv": "ab7c9f801a6fc0568605bda3796a3962d0b940a19ced4060fb1e2ff98438b5cc",
    "letter_recognition.csv": "959f2845c1b0e7d4a92948866e85b568017b5b85ec1403132582e44bf48bcaed",
    "pima_indians_diabetes.csv": "7fd4173fdf6a3334eb2cf4c4d97a1c863a83c526fcaa6fed5ad01cb461075555",
    "satimage_test.csv": "68f26265bd3431a9ed4d5c3baad108d00a29b287f07cd3d2c3f303e931bd7a73",
    "satimage_train.csv": "68be00bc24fb2864ea6179c4fc479ebd290bb323a825fa154323c1eb2d0babbe",
    "thyroid_ann_test.csv": "11fe0db414fe0496459ef6c45b929b4d31672539312a07de081be4bc69ca0aad",
    "thyroid_ann_train.csv": "db8b77f720d342ad5b9dbd4b775696cd7fa04fb6332e327a0eb55402e1479db4",
}
SHA_OF_GZ = {
    "usps_test.csv.gz": "d4fc123463a4d24b075bf63864250ddb3461ededd8cf69531927d2aabb87d1f6",
    "usps_train.csv.gz": "9a3a99ab7a62ec2bfde2909a3896a01a7c5ee1e70af4b96c4e9da3751c72c045",
}


def _shipped_dir():
    return resources.files("convexkern").joinpath("datasets")


def _sha(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


# -- the shipped files ------------------------------------------------------------------


def test_every_file_is_shipped_gzipped_and_nothing_else():
    names = {p.name for p in _shipped_dir().iterdir() if p.name.endswith(".gz")}
    expected = {f + ".gz" for f in SHA_OF_CSV} | set(SHA_OF_GZ)
    assert names == expected
    for n in names:
        assert _shipped_dir().joinpath(n).read_bytes()[:2] == b"\x1f\x8b", n


@pytest.mark.parametrize("csv_name", sorted(SHA_OF_CSV))
def test_small_files_decompress_to_the_original_bytes(csv_name):
    raw = gzip.decompress(_shipped_dir().joinpath(csv_name + ".gz").read_bytes())
    assert _sha(raw) == SHA_OF_CSV[csv_name]


@pytest.mark.parametrize("gz_name", sorted(SHA_OF_GZ))
def test_usps_files_are_the_original_gz_files(gz_name):
    blob = _shipped_dir().joinpath(gz_name).read_bytes()
    assert _sha(blob) == SHA_OF_GZ[gz_name]
    # and the other way round: the decompressed content is the checksummed CSV in the
    # package README, and it is not what the README's .gz checksum refers to
    content = gzip.decompress(blob)
    assert _sha(content) != SHA_OF_GZ[gz_name]
    readme = _shipped_dir().joinpath("README.md").read_text(encoding="utf-8")
    assert f"{_sha(content)}  {gz_name[:-3]}" in readme


def test_package_readme_lists_the_original_checksums():
    readme = _shipped_dir().joinpath("README.md").read_text(encoding="utf-8")
    listed = dict(
        (m.group(2), m.group(1))
        for m in re.finditer(r"^([0-9a-f]{64})  (\S+)$", readme, flags=re.MULTILINE)
    )
    for name, sha in {**SHA_OF_CSV, **SHA_OF_GZ}.items():
        assert listed[name] == sha
    for phrase in ("McDermott", "CC BY 4.0", "Hull", "Smith", "10.24432/C55887"):
        assert phrase in readme


# -- load(): shapes and class counts -----------------------------------------------------


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_shapes_and_class_counts(name):
    rows, cols, counts = EXPECTED[name]
    ds = data.load(name)
    n_features = cols - 1 + (2 if name == "abalone" else 0)  # sex -> 3 one-hot columns
    assert ds.X.shape == (rows, n_features)
    assert ds.X.dtype == np.float64 and ds.y.shape == (rows,)
    assert len(ds.feature_names) == n_features
    assert np.all(np.isfinite(ds.X))
    if counts is not None:
        assert dict(Counter(ds.y.tolist())) == counts
    assert ds.source and ds.description


def test_label_types():
    assert data.load("usps_test").y.dtype == np.int64
    assert data.load("balance").y.dtype.kind == "U"
    letters = Counter(data.load("letter").y.tolist())
    assert sorted(letters) == [chr(c) for c in range(ord("A"), ord("Z") + 1)]
    assert letters["A"] == 789 and letters["Z"] == 734
    assert min(letters.values()) == 734 and max(letters.values()) == 813
    rings = data.load("abalone").y
    assert rings.dtype == np.int64 and rings.min() == 1 and rings.max() == 29
    assert np.unique(rings).size == 28


def test_available_datasets():
    names = data.available_datasets()
    for n in ("usps", "usps_train", "usps_test", "pima", "bupa", "balance", "thyroid",
              "abalone", "satimage", "letter"):
        assert n in names


def test_pooled_sets_are_train_then_test():
    for base, n_train, n_test in (("usps", 7291, 2007), ("thyroid", 3772, 3428),
                                  ("satimage", 4435, 2000)):
        pooled = data.load(base)
        assert pooled.split_index == n_train and pooled.n_samples == n_train + n_test
        train, test = data.load(base + "_train"), data.load(base + "_test")
        np.testing.assert_array_equal(pooled.X[:n_train], train.X)
        np.testing.assert_array_equal(pooled.y[n_train:], test.y)
        Xtr, ytr, Xte, yte = pooled.train_test()
        np.testing.assert_array_equal(Xte, test.X)
        np.testing.assert_array_equal(ytr, train.y)
    assert data.load_usps("train").n_samples == 7291
    assert data.load_usps("test").n_samples == 2007
    assert data.load_usps().n_samples == 9298
    assert data.load_thyroid("test").n_samples == 3428
    assert data.load_satimage("train").n_samples == 4435
    with pytest.raises(ValueError, match="split"):
        data.load_usps("validation")
    with pytest.raises(ValueError, match="split_index"):
        data.load("pima").train_test()


def test_usps_pixels_in_unit_interval():
    X = data.load("usps").X
    assert X.min() == 0.0 and X.max() == 1.0


def test_abalone_one_hot():
    ds = data.load("abalone")
    assert ds.feature_names[:3] == ("sex_M", "sex_F", "sex_I")
    onehot = ds.X[:, :3]
    assert set(np.unique(onehot)) == {0.0, 1.0}
    np.testing.assert_array_equal(onehot.sum(axis=1), 1.0)
    assert onehot.sum(axis=0).tolist() == [1528, 1307, 1342]
    dropped = data.load_abalone(sex="drop")
    np.testing.assert_array_equal(dropped.X, ds.X[:, 3:])
    with pytest.raises(ValueError, match="sex"):
        data.load_abalone(sex="ordinal")


def test_pima_missing_values_still_zero():
    ds = data.load("pima")
    zeros = dict(zip(ds.feature_names, (ds.X == 0).sum(axis=0).tolist()))
    assert zeros["plasma_glucose"] == 5 and zeros["diastolic_bp"] == 35
    assert zeros["triceps_skinfold"] == 227 and zeros["serum_insulin"] == 374
    assert zeros["bmi"] == 11


def test_balance_follows_its_rule():
    ds = data.load("balance")
    lw, ld, rw, rd = ds.X.T
    rule = np.where(lw * ld > rw * rd, "L", np.where(lw * ld < rw * rd, "R", "B"))
    np.testing.assert_array_equal(rule, ds.y)


def test_returned_arrays_are_copies():
    a = data.load("pima")
    a.X[:] = -1.0
    a.y[:] = 7
    b = data.load("pima")
    assert b.X.min() >= 0 and set(b.y.tolist()) == {0, 1}
    assert b.X.flags.writeable


def test_unknown_dataset_lists_the_available_ones():
    with pytest.raises(ValueError, match="mnist") as info:
        data.load("mnist")
    assert isinstance(info.value, InvalidInputError) and info.value.argument == "name"
    assert "usps" in str(info.value) and "letter" in str(info.value)
    with pytest.raises(ValueError, match="mnist"):
        data.load_binary("mnist", 0, 1)


# -- load_binary ---------------------------------------------------------------------------


def test_usps_3_vs_5():
    X, y = data.load_binary("usps", 3, 5)
    assert X.shape == (1540, 256)  # 658 + 556 train, 166 + 160 test
    assert int((y == 1).sum()) == 824 and int((y == -1).sum()) == 716
    assert set(np.unique(y)) == {-1.0, 1.0}
    Xtr, ytr = data.load_binary("usps", 3, 5, split="train")
    Xte, yte = data.load_binary("usps", 3, 5, split="test")
    assert Xtr.shape[0] == 658 + 556 and int((ytr == 1).sum()) == 658
    assert Xte.shape[0] == 166 + 160 and int((yte == 1).sum()) == 166
    np.testing.assert_array_equal(np.vstack([Xtr, Xte]), X)


def test_pima_and_bupa_natural_coding():
    X, y = data.load_binary("pima")
    assert X.shape == (768, 8)
    assert int((y == 1).sum()) == 268 and int((y == -1).sum()) == 500
    np.testing.assert_array_equal(y == 1, data.load("pima").y == 1)
    X, y = data.load_binary("bupa")
    assert int((y == 1).sum()) == 145 and int((y == -1).sum()) == 200
    np.testing.assert_array_equal(y == 1, data.load("bupa").y == 1)


def test_binary_groups_and_rest():
    _, y = data.load_binary("thyroid_train", [1, 2], 3)
    assert int((y == 1).sum()) == 93 + 191 and y.size == 3772
    _, y = data.load_binary("letter", "A", "rest")
    assert y.size == 20000 and int((y == 1).sum()) == 789
    _, y = data.load_binary("balance", "L", "R")
    assert y.size == 576


@pytest.mark.parametrize(
    "args, kwargs, argument",
    [
        (("usps", 3, 11), {}, "negative"),
        (("usps", "3", 5), {}, "positive"),
        (("usps", True, 5), {}, "positive"),
        (("usps", 3, 3), {}, "negative"),
        (("usps", 3), {}, "negative"),
        (("satimage", 6, 7), {}, "positive"),
        (("letter", 1, 2), {}, "positive"),
        (("pima", 1, 0), {"split": "train"}, "split"),
        (("usps", 3, 5), {"split": "both"}, "split"),
    ],
)
def test_binary_bad_arguments_are_named(args, kwargs, argument):
    with pytest.raises(ValueError, match=argument) as info:
        data.load_binary(*args, **kwargs)
    assert info.value.argument == argument


# -- load_csv -----------------------------------------------------------------------------


def test_load_csv_roundtrip(tmp_path):
    p = tmp_path / "mine.csv"
    p.write_text("a,b,label\n1,2.5,1\n3,4,-1\n\n5,6e-1,1\n")
    ds = data.load_csv(p)
    np.testing.assert_array_equal(ds.X, [[1, 2.5], [3, 4], [5, 0.6]])
    np.testing.assert_array_equal(ds.y, [1, -1, 1])
    assert ds.y.dtype == np.int64
    assert ds.feature_names == ("a", "b") and ds.target_name == "label"
    ds = data.load_csv(str(p), label_column="a")
    assert ds.feature_names == ("b", "label") and ds.y.tolist() == [1, 3, 5]


def test_load_csv_string_labels_and_gzip(tmp_path):
    p = tmp_path / "mine.csv.gz"
    p.write_bytes(gzip.compress(b'x,"y z",kind\n0.5,1,cat\n-2,3,dog\n'))
    ds = data.load_csv(p)
    assert ds.feature_names == ("x", "y z")
    assert ds.y.tolist() == ["cat", "dog"]
    np.testing.assert_array_equal(ds.X, [[0.5, 1], [-2, 3]])


def test_load_csv_errors(tmp_path):
    p = tmp_path / "bad.csv"
    p.write_text("height,color,label\n1.0,red,1\n2.0,blue,-1\n")
    with pytest.raises(ValueError, match="color") as info:
        data.load_csv(p)
    assert "line 2" in str(info.value) and "red" in str(info.value)

    p.write_text("height,width,label\n1.0,,1\n")
    with pytest.raises(ValueError, match="width.*empty"):
        data.load_csv(p)

    p.write_text("height,width,label\n1.0,2.0,1\n1.0,1\n")
    with pytest.raises(ValueError, match="line 3"):
        data.load_csv(p)

    p.write_text("height,width,label\n1.0,nan,1\n")
    with pytest.raises(ValueError, match="width"):
        data.load_csv(p)

    p.write_text("height,width,label\n")
    with pytest.raises(ValueError, match="no data rows"):
        data.load_csv(p)

    p.write_text("height,width,label\n1,2,3\n")
    with pytest.raises(ValueError, match="label_column"):
        data.load_csv(p, label_column=3)
    with pytest.raises(ValueError, match="label_column"):
        data.load_csv(p, label_column="weight")

    with pytest.raises(FileNotFoundError, match="path"):
        data.load_csv(tmp_path / "missing.csv")


def test_load_csv_reads_a_shipped_file(tmp_path):
    p = tmp_path / "pima.csv.gz"
    p.write_bytes(_shipped_dir().joinpath("pima_indians_diabetes.csv.gz").read_bytes())
    mine, shipped = data.load_csv(p), data.load("pima")
    np.testing.assert_array_equal(mine.X, shipped.X)
    np.testing.assert_array_equal(mine.y, shipped.y)
    assert mine.feature_names == shipped.feature_names


# ---------------------------------------------------------------- foreign exceptions
def _csv(tmp_path, name, raw: bytes):
    p = tmp_path / name
    p.write_bytes(raw)
    return p


GOOD_CSV = b"a,b,c\n1,2,1\n3,4,-1\n"


@pytest.mark.parametrize("name, raw, text", [
    ("latin.csv", b"a,b,c\n1,2,\xff\n3,4,-1\n", "is not UTF-8 text"),
    ("plain.csv.gz", GOOD_CSV, "is not a gzip file"),
    ("cut.csv.gz", gzip.compress(GOOD_CSV)[:-6], "truncated gzip"),
])
def test_load_csv_unreadable_content_names_path(tmp_path, name, raw, text):
    p = _csv(tmp_path, name, raw)
    with pytest.raises(InvalidInputError, match=rf"^path: {re.escape(name)} .*{text}") as exc:
        data.load_csv(p)
    assert exc.value.argument == "path"


@pytest.mark.parametrize("delimiter", ["\n", "\r", '"', "1", ".", "-", "e"])
def test_load_csv_bad_delimiter_names_delimiter(tmp_path, delimiter):
    p = _csv(tmp_path, "ok.csv", GOOD_CSV)
    with pytest.raises(InvalidInputError, match=r"^delimiter: .* cannot separate fields") as exc:
        data.load_csv(p, delimiter=delimiter)
    assert exc.value.argument == "delimiter"
    assert data.load_csv(p).X.shape == (2, 2)


def test_splits_labels_and_seed_name_the_argument():
    from convexkern.errors import InvalidTypeError
    from convexkern.splits import seeded_splits, train_test_indices

    y = [1, -1] * 10
    for bad, what in (([1, None] * 10, "contains None"), ([1, "a"] * 10, "mixes label types"),
                      ([1.0, float("nan")] * 10, "contains non-finite")):
        with pytest.raises(InvalidInputError, match=rf"^y: {what}"):
            train_test_indices(bad, test_size=0.25)
    for seed in (-1, 2**32, 2**40):
        with pytest.raises(InvalidInputError,
                           match=r"^seed: must be an integer in \[0, 4294967295\]"):
            train_test_indices(y, test_size=0.25, seed=seed)
    with pytest.raises(InvalidTypeError, match=r"^seed: "):
        train_test_indices(y, test_size=0.25, seed=1.5)
    train_test_indices(y, test_size=0.25, seed=2**32 - 1)  # the top of the range works
    with pytest.raises(InvalidInputError, match=r"^seed: .*4294967294"):
        seeded_splits(y, test_size=0.25, n_splits=2, seed=2**32 - 1)
