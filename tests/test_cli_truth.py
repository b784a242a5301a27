"""The command line tells the truth in its exit code and writes only where it is told:
a solve that ends in ``error`` exits 1, a refused setting exits 2, a benchmark where
nothing ran or a pair ended in ``error`` exits 1; a suite's name cannot leave
``--out-dir``; a corrupt cache entry is run again with a warning; a refused reproduction
leaves no folder behind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from convexkern.bench import run_suite
from convexkern.bench.suite import load_suite
from convexkern.cli import main
from convexkern.errors import SpecError

ROOT = Path(__file__).resolve().parents[1]
BLOBS = str(ROOT / "problems" / "svm_blobs_small.toml")

TINY = {
    "name": "tiny",
    "tol": 1e-6,
    "time_limit": 30.0,
    "problem": [{"name": "svm_pima", "spec": "svm_pima_rbf", "sizes": [30],
                 "solvers": ["clarabel"]}],
}


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_solve_that_ends_in_error_exits_1(capsys, monkeypatch):
    """A planted failure of the solver (its report says ``error``): the table prints it,
    stderr says so and the exit status is 1, for solve and compare alike."""
    import convexkern.solvers.dispatch as dispatch
    from convexkern.report import Status
    from convexkern.solvers.outcome import pointless_report

    def failing(f, spec, **kw):
        return pointless_report(f, solver=spec.name, status=Status.ERROR, tol=kw["tol"],
                                message="the solver failed (planted)")

    monkeypatch.setattr(dispatch, "solve_conic", failing)
    code, out, err = run(capsys, "solve", BLOBS, "--solver", "clarabel")
    assert code == 1 and "error" in out
    assert "clarabel ended in status 'error'" in err
    code, out, err = run(capsys, "compare", BLOBS, "--solvers", "clarabel,smo")
    assert code == 1 and "clarabel ended in status 'error'" in err


def test_an_answer_exits_0(capsys):
    code, out, err = run(capsys, "solve", BLOBS, "--solver", "clarabel")
    assert code == 0 and "optimal" in out and err == ""


def test_a_tol_below_the_floor_is_refused(capsys):
    code, out, err = run(capsys, "solve", BLOBS, "--tol", "1e-15")
    assert code == 2 and out == "" and "--tol" in err and "1e-14" in err


@pytest.mark.parametrize("name", ["../../escape", "/tmp/abs", ".hidden", "a/b", ""])
def test_a_suite_name_cannot_leave_the_out_dir(name):
    with pytest.raises(SpecError, match="spec field 'name'"):
        load_suite({**TINY, "name": name})


def test_a_corrupt_cache_entry_is_run_again_with_a_warning(tmp_path):
    first = run_suite(TINY, out_dir=tmp_path)
    assert first.solved_now == 1
    for p in (tmp_path / "tiny" / ".cache").glob("*.json"):
        if "outcome" not in json.loads(p.read_text()):
            p.write_text("{}")  # valid JSON, not a result
    with pytest.warns(RuntimeWarning, match="is not a result"):
        again = run_suite(TINY, out_dir=tmp_path)
    assert again.solved_now == 1
    assert [r["status"] for r in again.rows] == [r["status"] for r in first.rows]


def test_a_bench_where_nothing_ran_exits_1(tmp_path, capsys):
    suite = tmp_path / "only_smo.toml"
    suite.write_text('name = "only_smo"\n[[problem]]\nname = "lp"\nspec = "lp_svm_thyroid"\n'
                     'sizes = [40]\n')
    code, _, err = run(capsys, "bench", str(suite), "--solvers", "smo", "--out-dir",
                       str(tmp_path / "out"))
    assert code in (1, 2), err  # refused up front (2) or nothing ran (1): never 0
    assert "error" in err


def test_a_bench_where_some_pairs_end_in_error_exits_1(tmp_path, capsys, monkeypatch):
    """The report is written and printed, and the exit status is still 1, with a line
    naming the pairs that ended in ``error`` (a run where every pair answered exits 0)."""
    import types

    import convexkern.bench as bench

    report = tmp_path / "report.md"
    report.write_text("# the report\n")
    statuses = {"a": "optimal", "b": "error", "c": "infeasible", "d": "skipped"}

    def fake_run(*args, **kwargs):
        rows = [{"problem": p, "solver": "clarabel", "status": st}
                for p, st in statuses.items()]
        return types.SimpleNamespace(rows=rows, files={"report": report})

    monkeypatch.setattr(bench, "run_suite", fake_run)
    code, out, err = run(capsys, "bench", "quick", "--out-dir", str(tmp_path))
    assert code == 1 and "# the report" in out
    assert "1 of 3 pairs ended in status 'error' (b/clarabel; see the report)" in err
    statuses["b"] = "optimal"
    code, out, err = run(capsys, "bench", "quick", "--out-dir", str(tmp_path))
    assert code == 0 and "error" not in err


def test_a_refused_reproduction_leaves_no_folder(tmp_path, capsys):
    """abe2012 refuses an unknown data set once its run has begun (the context made the
    output folder): the folder it made is removed again."""
    out = tmp_path / "results"
    code, _, err = run(capsys, "reproduce", "abe2012", "--quick", "--datasets", "nosuch",
                       "--out-dir", str(out))
    assert code == 2 and "nosuch" in err
    assert not out.exists()


def test_datasets_is_refused_where_it_does_not_apply(tmp_path, capsys):
    out = tmp_path / "results"
    code, _, err = run(capsys, "reproduce", "luss2007", "--quick", "--datasets", "usps",
                       "--out-dir", str(out))
    assert code == 2 and "datasets: 'luss2007' runs its own data sets" in err
    assert not out.exists()
