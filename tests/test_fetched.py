"""The Maros-Meszaros files fetched on first use (:mod:`convexkern.data.fetched`): the
manifest against the set's own readme and the shipped files, the download checked against
its checksums (from a ``file://`` mirror: CI has no network), the suites that use them, and
the fixed-format MPS reading one of them (QFORPLAN) needs.

No test here reaches the network: a fetch is pointed at a folder made from a shipped file.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from convexkern.bench import load_suite
from convexkern.data import fetched
from convexkern.data.fetched import FetchError, fetch, fetchable, manifest
from convexkern.data.mps import public_file, read_mps
from convexkern.errors import ConvexkernError

SHIPPED = Path(str(public_file("maros_meszaros/HS21.QPS").parent))


def test_the_manifest_lists_the_138_problems_of_the_readme():
    rows = manifest()
    assert len(rows) == 138 and len({r.name for r in rows}) == 138
    assert all(len(r.git_blob) == 40 for r in rows)
    # the readme's rows as published: HS21 (1 row, 2 variables, -99.96), BOYD1's size
    hs21 = fetchable("maros_meszaros/HS21.QPS")
    assert hs21 is not None and (hs21.m, hs21.n, hs21.optimum) == (1, 2, -99.96)
    boyd1 = fetchable("maros_meszaros/BOYD1.QPS")
    assert boyd1 is not None and (boyd1.m, boyd1.n, boyd1.nz) == (18, 93261, 558985)
    assert fetchable("maros_meszaros/NOPE.QPS") is None and fetchable("netlib/afiro.mps") is None


@pytest.mark.parametrize("entry", [e for e in manifest() if (SHIPPED / e.file).is_file()],
                         ids=lambda e: e.name)
def test_every_shipped_file_matches_its_checksums_and_published_sizes(entry):
    """The shipped copies are the files the manifest describes (bytes, git blob id,
    SHA-256), and the reader finds the readme's M, N, NZ, QN and QNZ in each."""
    data = (SHIPPED / entry.file).read_bytes()
    assert fetched._mismatch(entry, data) == ""
    d = read_mps(SHIPPED / entry.file)
    Q = sp.coo_matrix(d.Q if d.Q is not None else (d.n, d.n))
    used = Q.data != 0
    qn = len(set(Q.row[used]) | set(Q.col[used]))
    qnz = int(np.sum((Q.row > Q.col) & used))
    assert (d.m, d.n, d.A.nnz, qn, qnz) == (entry.m, entry.n, entry.nz, entry.qn, entry.qnz)


@pytest.fixture
def offline_set(tmp_path, monkeypatch):
    """A package root with the manifest but no shipped QPS file, a mirror folder holding
    HS21 and GENHS28 (copies of the shipped files) and an empty cache."""
    root = tmp_path / "public"
    (root / "maros_meszaros").mkdir(parents=True)
    shutil.copy(SHIPPED.parent / "maros_meszaros.csv", root)
    mirror = tmp_path / "mirror" / "maros_meszaros"
    mirror.mkdir(parents=True)
    for name in ("HS21.QPS", "GENHS28.QPS"):
        shutil.copy(SHIPPED / name, mirror)
    monkeypatch.setattr(fetched, "public_root", lambda: root)
    monkeypatch.setenv("CONVEXKERN_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("CONVEXKERN_MIRROR", (tmp_path / "mirror").as_uri())
    return tmp_path


def test_a_fetch_keeps_the_file_only_when_its_checksums_match(offline_set):
    said = []
    path = fetch("maros_meszaros/HS21.QPS", said.append)
    assert path == offline_set / "cache" / "maros_meszaros" / "HS21.QPS"
    assert path.read_bytes() == (SHIPPED / "HS21.QPS").read_bytes()
    assert len(said) == 1 and "HS21.QPS" in said[0]
    assert fetch("maros_meszaros/HS21.QPS", said.append) == path and len(said) == 1  # cached
    # a mirror whose copy differs by one byte: refused, nothing kept
    bad = offline_set / "mirror" / "maros_meszaros" / "GENHS28.QPS"
    bad.write_bytes(bad.read_bytes().replace(b"1", b"2", 1))
    with pytest.raises(FetchError, match="GENHS28.QPS.*does not match the manifest") as exc:
        fetch("maros_meszaros/GENHS28.QPS", said.append)
    assert isinstance(exc.value, ConvexkernError) and isinstance(exc.value, OSError)
    assert sorted(p.name for p in (offline_set / "cache" / "maros_meszaros").iterdir()) == [
        "HS21.QPS"]
    # a cached copy that was altered is fetched again
    path.write_bytes(b"NAME broken\n")
    assert fetch("maros_meszaros/HS21.QPS", said.append).read_bytes() == (
        SHIPPED / "HS21.QPS").read_bytes()
    assert len(said) == 3


def test_a_fetch_that_cannot_download_says_how_to_work_offline(offline_set, monkeypatch):
    with pytest.raises(FetchError, match="could not download .*CONVEXKERN_MIRROR"):
        fetch("maros_meszaros/TAME.QPS", lambda msg: None)  # not in the mirror
    monkeypatch.setattr(fetched, "_MAX_BYTES", 10)  # BOYD1's size is not in the manifest
    shutil.copy(SHIPPED / "HS21.QPS", offline_set / "mirror" / "maros_meszaros" / "BOYD1.QPS")
    with pytest.raises(FetchError, match="more than the 10 bytes"):
        fetch("maros_meszaros/BOYD1.QPS", lambda msg: None)
    with pytest.raises(ValueError, match="not in a fetchable set"):
        fetch("netlib/afiro.mps")


def test_public_file_fetches_what_is_not_shipped(offline_set):
    assert public_file("maros_meszaros/HS21.QPS") == (
        offline_set / "cache" / "maros_meszaros" / "HS21.QPS")


def test_the_fetched_suites_load_without_fetching(tmp_path, monkeypatch):
    """Loading (or listing) a suite downloads nothing; its files not shipped point into
    the cache, to be fetched before a run."""
    monkeypatch.setenv("CONVEXKERN_CACHE", str(tmp_path))
    full, medium = load_suite("maros_meszaros"), load_suite("maros-meszaros-medium")
    assert (len(full.problems), len(medium.problems)) == (138, 72)
    assert not any(tmp_path.iterdir())
    published = {e.name: e.optimum for e in manifest()}
    for p in full.problems:
        assert p.optimum == published[p.name] and p.slack > 0
        if (SHIPPED / Path(p.file).name).is_file():
            assert p.fetch is None and Path(p.file) == SHIPPED / Path(p.file).name
        else:
            assert p.fetch == f"maros_meszaros/{Path(p.file).name}"
            assert Path(p.file).parent == tmp_path / "maros_meszaros"
    sizes = {e.name: (e.m, e.n) for e in manifest()}
    assert all(max(sizes[p.name]) <= 1000 for p in medium.problems)


def test_a_run_fetches_its_files_first(offline_set):
    from convexkern.bench import run_suite

    suite = {"name": "fetched", "tol": 1e-6, "time_limit": 30.0, "solvers": ["clarabel"],
             "problem": [{"name": "GENHS28", "file": "maros_meszaros/GENHS28.QPS",
                          "optimum": 0.92717369, "optimum_digits": 8}]}
    said: list[str] = []
    result = run_suite(suite, out_dir=offline_set / "out", n_jobs=1, progress=said.append)
    assert any("fetching maros_meszaros/GENHS28.QPS" in line for line in said)
    (row,) = result.rows
    assert row["status"] == "optimal" and row["bracket_holds"] is True
    # a cached copy altered since is checked again before the next run, and fetched anew
    cached = offline_set / "cache" / "maros_meszaros" / "GENHS28.QPS"
    cached.write_bytes(cached.read_bytes() + b"* appended\n")
    run_suite(suite, out_dir=offline_set / "out", n_jobs=1, progress=said.append)
    assert sum("fetching maros_meszaros/GENHS28.QPS" in line for line in said) == 2
    assert cached.read_bytes() == (SHIPPED / "GENHS28.QPS").read_bytes()


# ---------------------------------------------------------------- fixed-format MPS
FREE = """NAME          TINY
ROWS
 N  COST
 L  LIM1
 G  LIM2
COLUMNS
    X1        COST         1.0   LIM1         1.0
    X1        LIM2         1.0
    X2        COST         2.0   LIM1         1.0
RHS
    RHS       LIM1         4.0   LIM2         1.0
BOUNDS
 UP BND       X2           3.0
ENDATA
"""

# the same problem in fixed format, with blanks inside the names (as QFORPLAN has)
FIXED = """NAME          TINY
ROWS
 N  COST
 L  LIM 1
 G  LIM 2
COLUMNS
    X 1       COST               1.0   LIM 1              1.0
    X 1       LIM 2              1.0
    X 2       COST               2.0   LIM 1              1.0
RHS
    RHS       LIM 1              4.0   LIM 2              1.0
BOUNDS
 UP BND       X 2                3.0
ENDATA
"""


def test_fixed_format_names_with_blanks_read_as_the_free_format_file(tmp_path):
    (tmp_path / "free.mps").write_text(FREE)
    (tmp_path / "fixed.mps").write_text(FIXED)
    a, b = read_mps(tmp_path / "free.mps"), read_mps(tmp_path / "fixed.mps")
    assert (a.A != b.A).nnz == 0 and np.array_equal(a.c, b.c)
    for side in ("col_lower", "col_upper", "row_lower", "row_upper"):
        assert np.array_equal(getattr(a, side), getattr(b, side))
    assert [r.replace(" ", "") for r in b.row_names] == a.row_names
