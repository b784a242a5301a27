"""Edges of the command line and of bench / reproduce found by review: absurd controls
refused by name (exit 2, nothing written), caches that follow the files and the code they
depend on, corrupt cache entries run again, results.json that is standard JSON."""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import pytest

import convexkern as ck
from convexkern.bench import load_suite, run_suite
from convexkern.bench.report import strict_json
from convexkern.bench.runner import _PLAN_KEYS, _RESULT_KEYS, _Cache, code_version
from convexkern.bench.worker import supervise
from convexkern.cli import main
from convexkern.errors import InvalidInputError, SpecError
from convexkern.specs import load_spec

ROOT = Path(__file__).resolve().parents[1]
BLOBS = ROOT / "problems" / "svm_blobs_small.toml"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _suite(**top):
    raw = {"name": "edge", "time_limit": 10.0,
           "problem": [{"name": "blobs", "spec": "svm_blobs_small", "sizes": [20],
                        "solvers": top.pop("solvers", ["smo"])}]}
    raw.update(top)
    return raw


def _spec(tmp_path, old, new, name="spec.toml"):
    text = BLOBS.read_text()
    assert old in text
    p = tmp_path / name
    p.write_text(text.replace(old, new))
    return p


# ------------------------------------------------------------------ suite fields (D1, D5, D13)
@pytest.mark.parametrize("changes,field", [
    ({"tol": 1e-20}, "tol"),                 # below the certificate floor
    ({"time_limit": 1e308}, "time_limit"),   # past the cap (the poll's timer overflowed)
    ({"time_limit": 2e6}, "time_limit"),
    ({"seed": 2**32}, "seed"),               # scikit-learn's range, as --seed
    ({"seed": -1}, "seed"),
    ({"description": 3}, "description"),
])
def test_an_absurd_suite_control_is_named_at_load(changes, field):
    with pytest.raises(SpecError) as info:
        load_suite(_suite(**changes))
    assert info.value.field == field, str(info.value)


def test_a_large_but_sane_time_limit_is_kept():
    assert load_suite(_suite(time_limit=1e5, seed=2**32 - 1)).time_limit == 1e5


def test_run_suite_checks_its_own_tol_and_time_limit(tmp_path):
    for kw, name in (({"time_limit": 1e308}, "time_limit"), ({"tol": 1e-20}, "tol")):
        with pytest.raises(InvalidInputError) as info:
            run_suite(_suite(), out_dir=tmp_path, **kw)
        assert info.value.argument == name
    assert not any(tmp_path.iterdir())


def test_the_supervisor_waits_a_long_budget_in_slices():
    # limit 1e6 s: setup 5e6 s and limit + grace are past a poll's millisecond int
    assert supervise(math.sqrt, (16.0,), limit=1e6, setup_limit=5e6)[:2] == ("done", 4.0)


# ------------------------------------------------------------------ CLI flags (D1, D14)
@pytest.mark.parametrize("argv,flag", [
    (["--time-limit", "1e308"], "--time-limit"),
    (["--time-limit", "2e6"], "--time-limit"),
    (["--jobs", "100000"], "--jobs"),
    (["--repeat", "100000000"], "--repeat"),
])
def test_absurd_bench_flags_are_refused_by_name(tmp_path, capsys, argv, flag):
    code, _, err = run(capsys, "bench", "quick", "--out-dir", tmp_path / "o", *argv)
    assert code == 2 and f"argument {flag}:" in err and "Traceback" not in err
    assert not (tmp_path / "o").exists()


def test_absurd_flags_of_solve_and_reproduce_are_refused(capsys):
    code, _, err = run(capsys, "solve", BLOBS, "--time-limit", "1e9")
    assert code == 2 and "argument --time-limit:" in err
    code, _, err = run(capsys, "reproduce", "luss2007", "--jobs", "100000")
    assert code == 2 and "argument --jobs:" in err


# ------------------------------------------------------------------ specs (D5, D7)
def test_a_spec_tol_below_the_floor_names_solve_tol(tmp_path):
    with pytest.raises(SpecError) as info:
        load_spec(_spec(tmp_path, "[solve]", "[solve]\ntol = 1e-20"))
    assert info.value.field == "solve.tol"
    with pytest.raises(SpecError) as info:
        load_spec(_spec(tmp_path, "[solve]", "[solve]\ntime_limit = 1e308"))
    assert info.value.field == "solve.time_limit"


def test_n_features_is_capped_by_memory(tmp_path, capsys):
    p = tmp_path / "wide.toml"
    p.write_text('name = "wide"\n[data]\ngenerator = "blobs"\nn_samples = 20\n'
                 'n_features = 10000000000000\n[kernel]\nname = "rbf"\ngamma = 1.0\n'
                 '[formulation]\nname = "svm.dual"\nC = 1.0\n')
    with pytest.raises(SpecError) as info:
        load_spec(p)
    assert info.value.field == "data.n_features" and "GiB" in str(info.value)
    code, _, err = run(capsys, "solve", p, "-q")
    assert code == 2 and "data.n_features" in err and "Traceback" not in err


# ------------------------------------------------------------------ solve / compare (D8, D9)
def test_solve_never_substitutes_a_solver_for_the_spec_s(tmp_path, capsys):
    if "mosek" in ck.installed_solvers():
        pytest.skip("mosek is installed here")
    p = _spec(tmp_path, 'solvers = ["clarabel", "scs", "smo"]', 'solvers = ["mosek"]')
    for command in ("solve", "compare"):
        code, out, err = run(capsys, command, p)
        assert code == 2 and out == "", command
        assert "none of the spec's solvers ['mosek'] can solve svm.dual" in err, command


def test_compare_without_solvers_keeps_the_library_default(tmp_path, capsys, monkeypatch):
    """No --solvers and no [solve].solvers: ck.compare gets ``solvers=None``, so its
    default skip of a conic solver on a PSD cone beyond its reach applies."""
    import convexkern.solvers as solvers

    seen = []
    real = solvers.compare

    def spy(f, names=None, **kw):
        seen.append(names)
        return real(f, ["smo"] if names is None else names, **kw)

    monkeypatch.setattr(solvers, "compare", spy)
    p = _spec(tmp_path, 'solvers = ["clarabel", "scs", "smo"]', "")
    code, out, _ = run(capsys, "compare", p, "-q")
    assert code == 0 and seen == [None] and "smo" in out
    code, _, _ = run(capsys, "compare", p, "-q", "--solvers", "smo")
    assert seen[-1] == ["smo"]


# ------------------------------------------------------------------ --out and refusals (D12)
@pytest.mark.parametrize("command", [
    ["solve", str(BLOBS)], ["compare", str(BLOBS)], ["bench", "quick"],
    ["reproduce", "luss2007", "--quick"],
])
def test_an_unwritable_out_is_refused_before_any_work(tmp_path, capsys, command):
    extra = ["--out-dir", str(tmp_path / "o")] if command[0] in ("bench", "reproduce") else []
    code, out, err = run(capsys, *command, *extra, "--out", "/nonexistent/report.md")
    assert code == 2 and "--out" in err and out == ""
    assert not (tmp_path / "o").exists()
    code, _, err = run(capsys, *command, *extra, "--out", tmp_path)  # a folder
    assert code == 2 and "is a folder" in err


def test_a_suite_that_cannot_be_built_writes_nothing(tmp_path, capsys):
    p = tmp_path / "bad.toml"
    p.write_text('name = "bad"\n[[problem]]\nname = "blobs"\nspec = "svm_blobs_small"\n'
                 '[problem.override.formulation]\nC = -1.0\n')
    code, _, err = run(capsys, "bench", p, "--out-dir", tmp_path / "o", "-q")
    assert code == 2 and "formulation.C" in err
    assert not (tmp_path / "o").exists()


# ------------------------------------------------------------------ the bench cache (D3, D6)
_MPS = """NAME          TINY
ROWS
 N  COST
 G  LIM1
COLUMNS
    X         COST         {a}   LIM1         1.0
    Y         COST         {b}   LIM1         1.0
RHS
    RHS       LIM1         1.0
BOUNDS
 LO BND       X            0.0
 LO BND       Y            0.0
ENDATA
"""


def test_the_cache_key_follows_the_content_of_a_problem_file(tmp_path):
    mps = tmp_path / "tiny.mps"
    mps.write_text(_MPS.format(a="1.0", b="2.0"))
    suite = {"name": "f", "problem": [{"name": "tiny", "file": str(mps)}]}
    before = load_suite(suite).problems[0].key()
    assert load_suite(suite).problems[0].key() == before  # stable
    mps.write_text(_MPS.format(a="5.0", b="7.0"))
    assert load_suite(suite).problems[0].key() != before


def test_the_cache_key_follows_a_user_builder_and_csv_data(tmp_path):
    (tmp_path / "mybuild.py").write_text(
        "from convexkern.formulations import svm\nSCALE = 1.0\n"
        "def build(K, y, C=1.0):\n    return svm.dual(K, y, C=C * SCALE)\n")
    rows = "\n".join(f"{i % 7},{(i * 3) % 5},{1 if i % 2 else -1}" for i in range(12))
    (tmp_path / "d.csv").write_text("a,b,label\n" + rows + "\n")
    (tmp_path / "spec.toml").write_text(
        'name = "plug"\n[data]\ncsv = "d.csv"\nlabel_column = "label"\n'
        '[kernel]\nname = "rbf"\ngamma = 0.5\n[formulation]\nname = "mybuild:build"\n'
        'C = 1.0\n')
    (tmp_path / "suite.toml").write_text(
        'name = "s"\n[[problem]]\nname = "plug"\nspec = "spec.toml"\nsolvers = ["smo"]\n')

    def key():
        return load_suite(tmp_path / "suite.toml").problems[0].key()

    first = key()
    (tmp_path / "mybuild.py").write_text(
        (tmp_path / "mybuild.py").read_text().replace("SCALE = 1.0", "SCALE = 10.0"))
    second = key()
    (tmp_path / "d.csv").write_text("a,b,label\n" + rows.replace("-1", "1", 1) + "\n")
    assert len({first, second, key()}) == 3
    # a shipped spec on shipped data has no user files: its key is what it was
    assert load_suite(_suite()).problems[0].sources() == {}


def test_a_cache_entry_missing_a_field_is_run_again(tmp_path):
    cache = _Cache(tmp_path / ".cache", enabled=True)
    good = {"status": "optimal", "solver_status": "optimal", "message": "",
            "time": 0.1, "rel_gap": math.inf, "gap": math.nan, "primal_value": 1.0,
            "dual_value": 1.0, "solve_time": 0.1, "peak_rss_mb": 100.0,
            "base_rss_mb": 90.0, "iterations": None}
    cache.put("good", good)  # NaN / inf as Python's JSON tokens: read back as they were
    hit = cache.get("good", _RESULT_KEYS)
    assert hit is not None and math.isinf(hit["rel_gap"]) and math.isnan(hit["gap"])
    for bad in ({"status": "optimal", "time": 0.1}, {**good, "rel_gap": "0.1"},
                {**good, "iterations": 2.5}, [good]):
        (tmp_path / ".cache" / "bad.json").write_text(json.dumps(bad))
        with pytest.warns(RuntimeWarning, match="not a result"):
            assert cache.get("bad", _RESULT_KEYS) is None
    plan = {"solvers": ["smo"], "skipped": {}, "kind": "svm.dual", "formulation": "svm.dual",
            "variant": "", "n": 20}
    cache.put("plan", plan)
    assert cache.get("plan", _PLAN_KEYS) == plan
    for k in plan:
        cache.put("plan", {j: v for j, v in plan.items() if j != k})
        with pytest.warns(RuntimeWarning, match=k):
            assert cache.get("plan", _PLAN_KEYS) is None


def test_a_cache_folder_is_made_by_the_first_result_only(tmp_path):
    cache = _Cache(tmp_path / ".cache", enabled=True)
    assert cache.get("x", _RESULT_KEYS) is None and not (tmp_path / ".cache").exists()


# ------------------------------------------------------------------ results.json (D11)
def test_strict_json_has_no_bare_nan_or_infinity():
    out = strict_json({"a": math.nan, "b": [math.inf, -math.inf, 1.5], "c": {"d": 2}})
    assert out == {"a": None, "b": ["inf", "-inf", 1.5], "c": {"d": 2}}


def test_results_json_is_standard_json(tmp_path):
    res = run_suite(_suite(solvers=["clarabel"]), out_dir=tmp_path, time_limit=1e-6)
    assert res.rows
    text = (tmp_path / "edge" / "results.json").read_text()

    def refuse(token):
        raise AssertionError(f"non-JSON token {token}")

    data = json.loads(text, parse_constant=refuse)
    odd = 0
    for mine, written in zip(res.rows, data["rows"]):
        for k, v in mine.items():
            if isinstance(v, float) and not math.isfinite(v):
                odd += 1
                assert written[k] == (None if math.isnan(v) else ("inf" if v > 0 else "-inf"))
    assert odd  # the tiny limit leaves no time, no iterations count or no gap somewhere


# ------------------------------------------------------------------ reproduce's cache (D4)
def _squares(n):
    return [i * i for i in range(n)]


def test_the_reproduce_cache_depends_on_the_code_version(tmp_path, monkeypatch):
    from convexkern.reproduce import harness
    from convexkern.reproduce.harness import Context

    ctx = Context(name="t", quick=True, out_dir=tmp_path / "a")
    assert f"code-{code_version()}" in str(ctx.memory.location)
    monkeypatch.setattr(harness, "code_version", lambda: "changed")
    other = Context(name="t", quick=True, out_dir=tmp_path / "a")
    assert other.memory.location != ctx.memory.location


def test_an_unreadable_reproduce_cache_entry_is_one_warning(tmp_path, caplog):
    from convexkern.reproduce.harness import Context

    ctx = Context(name="t", quick=True, out_dir=tmp_path / "a", verbose=False)
    want = _squares(300)
    assert ctx.cached(_squares)(300) == want
    (pkl,) = Path(ctx.memory.location).rglob("output.pkl")
    pkl.write_bytes(pkl.read_bytes()[:100])  # torn by an interrupted run
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert ctx.cached(_squares)(300) == want
    said = [str(w.message) for w in seen if issubclass(w.category, RuntimeWarning)]
    assert len(said) == 1 and "unreadable" in said[0] and "\n" not in said[0]
    assert "Traceback" not in caplog.text
