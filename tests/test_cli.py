"""The command line (convexkern.cli), run in-process with main([...])."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import convexkern as ck
from convexkern.cli import main

ROOT = Path(__file__).resolve().parents[1]
PROBLEMS = ROOT / "problems"
BLOBS = str(PROBLEMS / "svm_blobs_small.toml")
REPORT_FIELDS = {"spec", "formulation", "solver", "status", "primal_value", "dual_value",
                 "gap", "rel_gap", "solve_time", "iterations", "tol", "n_train", "n_test",
                 "test_accuracy"}


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def table_rows(out):
    """Data rows of the aligned table: the lines after the dashed rule, up to a blank."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("---")) + 1
    rows = []
    for line in lines[start:]:
        if not line.strip() or line.startswith(("test accuracy", "note:")):
            break
        rows.append(line.split())
    return rows


def write_spec(tmp_path, old, new, name="bad.toml"):
    text = Path(BLOBS).read_text()
    assert old in text
    p = tmp_path / name
    p.write_text(text.replace(old, new))
    return str(p)


# --------------------------------------------------------------------------- solvers, specs
def test_solvers_lists_the_registry(capsys):
    code, out, err = run(capsys, "solvers")
    assert code == 0
    names = {row[0] for row in table_rows(out)}
    assert {"clarabel", "scs"} <= names
    if "smo" in ck.installed_solvers():
        assert "smo" in names
    assert "conic via cvxpy" in out and "default tol" in out
    for row in table_rows(out):
        if row[0] == "clarabel":
            assert row[-3:] == ["yes", "EXP,LP,POW,QP,SDP,SOCP", "1e-08"]


def test_solvers_json(capsys):
    code, out, _ = run(capsys, "solvers", "--json")
    assert code == 0
    rows = json.loads(out)
    by_name = {r["name"]: r for r in rows}
    assert by_name["clarabel"]["installed"] is True
    for r in rows:
        assert set(r) >= {"name", "kind", "installed", "solves", "default_tol", "install"}
        assert r["installed"] or r["install"]  # a missing solver says how to get it


def test_python_dash_m_entry_point():
    proc = subprocess.run([sys.executable, "-m", "convexkern", "solvers"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "clarabel" in proc.stdout and "scs" in proc.stdout


def test_specs_lists_the_shipped_specs(capsys):
    code, out, _ = run(capsys, "specs")
    assert code == 0
    assert "svm_usps_3v5_rbf" in out and "USPS digits 3 vs 5" in out
    assert "svm_blobs_small" in out and "svm_pima_rbf" in out


# --------------------------------------------------------------------------- compare
def test_compare_prints_one_row_per_solver(capsys):
    code, out, err = run(capsys, "compare", BLOBS, "--solvers", "clarabel,scs")
    assert code == 0, err
    rows = table_rows(out)
    assert [r[0] for r in rows] == ["clarabel", "scs"]
    assert all(r[1] == "optimal" for r in rows)
    assert "test accuracy (20 held-out points)" in out
    assert err == ""  # stderr is not a terminal: no progress unless asked


def test_compare_json(capsys):
    code, out, _ = run(capsys, "compare", BLOBS, "--solvers", "clarabel,scs", "--json")
    assert code == 0
    rows = json.loads(out)
    assert [r["solver"] for r in rows] == ["clarabel", "scs"]
    for r in rows:
        assert set(r) >= REPORT_FIELDS
        assert r["status"] == "optimal" and r["spec"] == "svm_blobs_small"
        assert r["n_train"] == 60 and r["n_test"] == 20
        assert 0.5 < r["test_accuracy"] <= 1.0
        assert r["gap"] >= 0 and r["param_C"] == 1.0
    assert rows[0]["primal_value"] == pytest.approx(rows[1]["primal_value"], rel=1e-4)


def test_compare_csv(capsys):
    code, out, _ = run(capsys, "compare", BLOBS, "--solvers", "clarabel,scs", "--csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["solver"] for r in rows] == ["clarabel", "scs"]
    assert {r["status"] for r in rows} == {"optimal"}
    assert set(rows[0]) >= REPORT_FIELDS
    float(rows[0]["primal_value"])


def test_compare_defaults_to_the_spec_solvers(capsys):
    code, out, _ = run(capsys, "compare", "svm_blobs_small")  # by bare name
    assert code == 0
    expected = [s for s in ("clarabel", "scs", "smo") if s in ck.installed_solvers()]
    assert [r[0] for r in table_rows(out)] == expected


def test_progress_goes_to_stderr_only(capsys):
    code, out, err = run(capsys, "compare", BLOBS, "--solvers", "clarabel,scs", "--progress")
    assert code == 0
    assert "loading data" in err and "building kernel (" not in out
    assert "building kernel" in err and "(n=60)" in err
    assert "[1/2] clarabel ... optimal in" in err and "[2/2] scs ... optimal in" in err
    assert out.splitlines()[0].startswith("svm_blobs_small")
    code, out, err = run(capsys, "compare", BLOBS, "--solvers", "clarabel", "--quiet")
    assert code == 0 and err == ""


def test_out_file(capsys, tmp_path):
    target = tmp_path / "rows.json"
    code, out, err = run(capsys, "compare", BLOBS, "--solvers", "clarabel", "--json",
                         "--out", str(target))
    assert code == 0 and out == ""
    assert json.loads(target.read_text())[0]["solver"] == "clarabel"
    assert str(target) in err


# --------------------------------------------------------------------------- solve
def test_solve_prints_report_and_accuracy(capsys):
    code, out, err = run(capsys, "solve", BLOBS, "--solver", "clarabel")
    assert code == 0, err
    rows = table_rows(out)
    assert len(rows) == 1 and rows[0][:2] == ["clarabel", "optimal"]
    assert "test accuracy (20 held-out points): clarabel 0." in out


def test_solve_json_with_overrides(capsys):
    code, out, _ = run(capsys, "solve", BLOBS, "--solver", "scs", "--tol", "1e-3", "--json")
    assert code == 0
    row = json.loads(out)
    assert row["solver"] == "scs" and row["tol"] == 1e-3
    assert 0.0 <= row["test_accuracy"] <= 1.0


def test_solve_defaults_to_the_first_spec_solver(capsys):
    code, out, _ = run(capsys, "solve", BLOBS, "--csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 1 and rows[0]["solver"] == "clarabel"


def test_iteration_limit_is_a_status_not_an_optimum(capsys):
    code, out, _ = run(capsys, "solve", BLOBS, "--solver", "scs", "--max-iter", "2",
                       "--json")
    assert code == 0
    row = json.loads(out)
    # SCS stops at max_iters without deciding a status ("failed": cvxpy raises
    # SolverError); the report names the limit that stopped it, claims no optimum, and
    # still certifies SCS's last iterate
    assert row["status"] == "iteration_limit", row
    assert row["iterations"] == 2
    assert row["primal_value"] <= row["dual_value"]


# --------------------------------------------------------------------------- errors
def assert_clean_error(code, out, err, *words):
    assert code == 2
    assert out == ""
    assert err.startswith("convexkern: error: ") and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    for w in words:
        assert w in err, err


def test_unknown_solver_lists_installed_solvers(capsys):
    code, out, err = run(capsys, "compare", BLOBS, "--solvers", "clarabel,nosuch")
    assert_clean_error(code, out, err, "nosuch", "clarabel", "scs")
    code, out, err = run(capsys, "solve", BLOBS, "--solver", "nosuch")
    assert_clean_error(code, out, err, "nosuch", "installed solvers", "clarabel")


def test_missing_solver_says_how_to_install(capsys):
    missing = [r for r in ck.solver_info() if not r["installed"]]
    if not missing:
        pytest.skip("every known solver is installed")
    code, out, err = run(capsys, "solve", BLOBS, "--solver", missing[0]["name"])
    assert_clean_error(code, out, err, missing[0]["install"])


@pytest.mark.parametrize("old, new, words", [
    ('[kernel]', '[kernal]', ["'kernal'", "unknown key"]),
    ('gamma = 0.5', 'gamma = 0.5\ngama = 1.0', ["'kernel.gama'"]),
    ('name = "rbf"', 'name = "rbff"', ["'kernel.name'", "rbf"]),
    ('generator = "blobs"', 'dataset = "uspss"', ["'data"]),
    ('name = "svm.dual"', 'name = "svm.duall"', ["'formulation.name'", "svm.dual"]),
    ('C = 1.0', 'C = -1.0', ["'formulation.C'"]),
    ('C = 1.0', 'C = 1.0\nCC = 2.0', ["'formulation.CC'"]),
    ('test_size = 0.25', 'test_size = 1.25', ["'split.test_size'"]),
    ('solvers = ["clarabel", "scs", "smo"]', 'solvers = ["clarabel", "gurobbi"]',
     ["'solve.solvers'", "gurobbi"]),
])
def test_bad_specs_exit_2_naming_the_field(capsys, tmp_path, old, new, words):
    path = write_spec(tmp_path, old, new)
    code, out, err = run(capsys, "compare", path, "--solvers", "clarabel")
    assert_clean_error(code, out, err, *words)


def test_bad_dataset_name(capsys, tmp_path):
    p = tmp_path / "usps_typo.toml"
    p.write_text((PROBLEMS / "svm_usps_3v5_rbf.toml").read_text()
                 .replace('dataset = "usps"', 'dataset = "uspss"'))
    code, out, err = run(capsys, "solve", str(p))
    assert_clean_error(code, out, err, "'data.dataset'", "usps", "pima")


def test_missing_spec_file(capsys):
    code, out, err = run(capsys, "compare", "no_such_spec.toml")
    assert_clean_error(code, out, err, "no_such_spec.toml", "svm_usps_3v5_rbf")


def test_usage_errors(capsys):
    assert main([]) == 2
    assert main(["compare"]) == 2
    assert main(["solve", BLOBS, "--tol", "2"]) == 2
    assert "argument --tol: must be a number in (0, 1), got 2.0" in capsys.readouterr().err
    assert main(["solve", BLOBS, "--tol", "abc"]) == 2
    assert "argument --tol: expected a number, got 'abc'" in capsys.readouterr().err
    assert main(["compare", BLOBS, "--json", "--csv"]) == 2
    capsys.readouterr()
    assert main(["--help"]) == 0
    assert "compare" in capsys.readouterr().out


# --------------------------------------------------------------------------- reproduce
def test_reproduce_lists_the_four_papers(capsys):
    code, out, err = run(capsys, "reproduce", "--list")
    assert code == 0
    names = {row[0] for row in table_rows(out)}
    assert names == {"luss2007", "abe2012", "graepel2003", "loosli2019"}


def test_reproductions_are_a_table_imported_only_when_run():
    """Listing the reproductions imports none of their modules (no register-on-import)."""
    code = ("import json, sys; from convexkern.reproduce import available; a = available(); "
            "print(json.dumps([sorted(a), sorted(m for m in sys.modules "
            "if m.rsplit('.', 1)[-1] in a)]))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    names, imported = json.loads(proc.stdout)
    assert names == ["abe2012", "graepel2003", "loosli2019", "luss2007"]
    assert imported == []


def test_a_users_reproduction_joins_the_table_at_run_time(tmp_path):
    from convexkern.reproduce import ReproductionResult, available, register, run, table

    try:
        @register("mine", title="Me (2026): one table")
        def reproduce(ctx):
            return ReproductionResult("mine", "| a |\n|---|\n| 1 |")

        assert available()["mine"] == "Me (2026): one table"
        res = run("mine", out_dir=tmp_path, verbose=False)
        assert res.markdown.startswith("| a |")
        assert (tmp_path / "mine" / "report.md").read_text().startswith(
            "# Me (2026): one table")
        with pytest.raises(ValueError, match="built-in"):
            register("luss2007", title="x")
    finally:
        table._table.pop("mine", None)
    assert "mine" not in available()


def test_reproduce_unknown_paper_and_dataset(capsys, tmp_path):
    code, out, err = run(capsys, "reproduce", "nosuch", "--out-dir", str(tmp_path))
    assert_clean_error(code, out, err, "nosuch", "luss2007")
    code, out, err = run(capsys, "reproduce", "abe2012", "--quick", "--datasets", "nosuch",
                         "--out-dir", str(tmp_path), "--quiet")
    assert_clean_error(code, out, err, "nosuch", "thyroid")


@pytest.mark.slow
def test_reproduce_abe2012_quick_on_one_dataset(capsys, tmp_path):
    code, out, err = run(capsys, "reproduce", "abe2012", "--quick", "--datasets", "balance",
                         "--out-dir", str(tmp_path), "--quiet")
    assert code == 0, err
    assert "| balance | 4/3/532/93 | 1 |" in out
    assert "| thyroid | 21/3/3772/3428 | — | not run |" in out
    report = tmp_path / "abe2012" / "report.md"
    assert report.exists() and "| balance |" in report.read_text()
    # the paper's values beside ours (Abe 2012, Table 1 as printed: Balance 99.03 ± 1.12)
    assert "| paper | diff |" in out and "99.03 ± 1.12" in out and "| not available |" in out
    # the theorems quoted as printed (Theorem 1's erratum C_rho = C_M J_hat included)
    assert "**Theorem 4** (printed)" in out and "C_\\rho = C_M\\hat{J}$." in out


# ---------------------------------------------------------------- foreign exceptions
@pytest.mark.parametrize("seed", ["-1", "4294967296", "1099511627776"])
def test_reproduce_seed_outside_the_numpy_range_is_a_usage_error(capsys, seed):
    code, out, err = run(capsys, "reproduce", "luss2007", "--quick", "--seed", seed)
    assert code == 2
    assert "argument --seed: must be an integer in [0, 4294967295]" in err
    assert "random_state" not in err  # scikit-learn's own message no longer leaks
