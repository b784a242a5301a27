"""``convexkern bench``: suite validation, the CLI's files, the cache, hard time limits, the
Dask path, and the performance-profile arithmetic on a table worked by hand."""

from __future__ import annotations

import csv
import json
import math
import time

import numpy as np
import pytest

from convexkern.bench import (
    is_success,
    load_suite,
    performance_profile,
    performance_ratios,
    run_suite,
    shifted_geomean,
)
from convexkern.bench.metrics import disjoint_brackets
from convexkern.bench.worker import supervise
from convexkern.cli import main
from convexkern.errors import InvalidInputError, SpecError

#: a suite of two tiny real problems (Pima, 30 and 40 points) and two solvers: a few
#: seconds, most of it starting the worker processes
TINY = {
    "name": "tiny",
    "tol": 1e-6,
    "time_limit": 30.0,
    "problem": [{"name": "svm_pima", "spec": "svm_pima_rbf", "sizes": [30, 40],
                 "solvers": ["clarabel", "smo"]}],
}


def _suite(**changes):
    raw = json.loads(json.dumps(TINY))
    for key, value in changes.items():
        if key.startswith("p_"):
            raw["problem"][0][key[2:]] = value
        else:
            raw[key] = value
    return raw


# ------------------------------------------------------------------------- validation
@pytest.mark.parametrize("changes,field", [
    ({"tolerance": 1e-6}, "tolerance"),                      # unknown key (a typo)
    ({"tol": 1.5}, "tol"),
    ({"time_limit": -1}, "time_limit"),
    ({"seed": "zero"}, "seed"),
    ({"solvers": ["clarabel", "nosuch"]}, "solvers"),
    ({"problem": []}, "problem"),
    ({"p_sizes": [30, 0]}, "problem[0].sizes"),
    ({"p_sizes": [30, 30]}, "problem[0].sizes"),
    ({"p_sizez": [30]}, "problem[0].sizez"),
    ({"p_solvers": "smoo"}, "problem[0].solvers"),
    ({"p_spec": "no_such_spec"}, "problem[0].spec"),
    ({"p_builder": "convexkern.bench.problems:lp_dual"}, "problem[0].spec"),  # both given
    ({"p_override": {"kernel": {"gamma": "big"}}}, "problem[0].spec.kernel.gamma"),
    ({"p_override": {"formulation": {"Cee": 1.0}}}, "problem[0].spec.formulation.Cee"),
    ({"p_drop": ["formulation"]}, "problem[0].drop"),
])
def test_a_bad_suite_field_is_named(changes, field):
    with pytest.raises(SpecError) as info:
        load_suite(_suite(**changes))
    assert info.value.field == field, str(info.value)


@pytest.mark.parametrize("problem,field", [
    ({"name": "b", "builder": "convexkern.bench.problems", "data": {"dataset": "pima"}},
     "problem[0].builder"),
    ({"name": "b", "builder": "convexkern.bench.problems:nosuch",
      "data": {"dataset": "pima"}}, "problem[0].builder"),
    ({"name": "b", "builder": "convexkern.bench.problems:lp_dual"}, "problem[0].data"),
    ({"name": "b", "builder": "convexkern.bench.problems:lp_dual",
      "data": {"dataset": "pimaa"}}, "problem[0].spec.data.dataset"),
])
def test_a_bad_builder_problem_is_named(problem, field):
    with pytest.raises(SpecError) as info:
        load_suite({"name": "b", "problem": [problem]})
    assert info.value.field == field, str(info.value)


def test_shipped_suites_are_valid_and_the_kernels_suite_covers_every_formulation():
    quick, kernels = load_suite("quick"), load_suite("kernels")
    assert quick.problems and kernels.problems
    labels = {p.formulation_label for p in kernels.problems}
    for kind in ("svm.dual", "svm.primal", "robust_indefinite.dual",
                 "krein.stabilization[shift]", "krein.stabilization[flip]",
                 "lp_svm.lp_from_data", "nu_lp_from_data", "lp_dual", "nu_lp_dual",
                 "sdpm_rotations"):
        assert kind in labels, kind
    sdpm = [p.params.get("dual", False) for p in kernels.problems if p.builder and
            p.builder.endswith("sdpm_rotations")]
    assert set(sdpm) == {False, True}  # the SDPM primal and its dual
    assert all(len({p.n for p in kernels.problems if p.name == q.name}) >= 2
               for q in kernels.problems)  # several sizes of each


def test_a_size_beyond_the_training_part_is_named(tmp_path):
    with pytest.raises(SpecError) as info:
        run_suite(_suite(p_sizes=[100_000]), out_dir=tmp_path)
    assert info.value.field == "svm_pima.sizes"


# ------------------------------------------------------------------------- the CLI run
@pytest.mark.slow
def test_cli_bench_quick_writes_the_report_tables_and_a_profile(tmp_path, capsys):
    assert main(["bench", "quick", "--out-dir", str(tmp_path), "-q"]) == 0
    out = capsys.readouterr().out
    d = tmp_path / "quick"
    for name in ("report.md", "results.csv", "results.json", "profile.png"):
        assert (d / name).is_file(), name
    assert (d / "profile.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert out.startswith("# Benchmark `quick`") and "success" in out
    rows = list(csv.DictReader(open(d / "results.csv", encoding="utf-8")))
    data = json.loads((d / "results.json").read_text())
    assert len(rows) == len(data["rows"]) >= 8
    suite = load_suite("quick")
    assert {r["problem"] for r in rows} == {p.id for p in suite.problems}
    # a success is a certified bracket within tol; brackets of one problem overlap (each is
    # a proof that the optimum lies inside it)
    for problem in {r["problem"] for r in data["rows"]}:
        ok = [r for r in data["rows"] if r["problem"] == problem and r["success"]]
        assert ok, problem  # these small problems are solved by their solvers
        lo = [min(r["primal_value"], r["dual_value"]) for r in ok]
        hi = [max(r["primal_value"], r["dual_value"]) for r in ok]
        assert max(lo) <= min(hi) * (1 + 1e-12) + 1e-12, (problem, lo, hi)
        for r in ok:
            assert r["rel_gap"] <= suite.tol and r["status"] in ("optimal",
                                                                  "optimal_inaccurate")
            assert r["peak_rss_mb"] > 10 and r["time"] > 0


@pytest.mark.slow
def test_a_rerun_resumes_from_the_cache(tmp_path, monkeypatch):
    first = run_suite(TINY, out_dir=tmp_path)
    assert first.solved_now == 4 and first.from_cache == 0
    import convexkern.bench.runner as runner

    def no_solve(task):
        raise AssertionError("re-solved a cached pair")

    monkeypatch.setattr(runner, "run_pair", no_solve)
    second = run_suite(TINY, out_dir=tmp_path)
    assert second.solved_now == 0 and second.from_cache == 4
    keep = ("problem", "solver", "status", "rel_gap", "primal_value", "time")
    assert [{k: r[k] for k in keep} for r in second.rows] == \
        [{k: r[k] for k in keep} for r in first.rows]
    # an interrupted run: one result missing from the cache is the only pair run again
    monkeypatch.undo()
    victim = sorted((tmp_path / "tiny" / ".cache").glob("*.json"))
    pairs = [p for p in victim if "outcome" not in json.loads(p.read_text())]
    pairs[0].unlink()
    third = run_suite(TINY, out_dir=tmp_path)
    assert third.solved_now == 1 and third.from_cache == 3


@pytest.mark.slow
def test_repeated_runs_give_a_median_and_a_range_and_the_report_is_complete(
        tmp_path, monkeypatch):
    """``repeat=2``: every pair run twice (a rerun takes both from the cache), its time the
    median within the range; the report names the machine and the packages, gives the
    tables as LaTeX, the profiles as PNG and SVG; without matplotlib a warning, not
    silence."""
    import sys

    import cvxpy
    import numpy

    res = run_suite(TINY, out_dir=tmp_path, repeat=2)
    assert res.solved_now == 8 and res.rows
    for r in res.rows:
        assert r["repeats"] == 2
        assert r["time_min"] <= r["time"] <= r["time_max"]
    d = tmp_path / "tiny"
    md = (d / "report.md").read_text()
    assert "median of 2 runs" in md and "## Environment" in md
    assert f"numpy {numpy.__version__}" in md and f"cvxpy {cvxpy.__version__}" in md
    assert "### Success at looser tolerances" in md
    tex = (d / "report.tex").read_text()
    assert tex.count("\\begin{tabular}") >= 3 and "\\toprule" in tex
    assert (d / "profile.svg").read_text().lstrip().startswith("<?xml")
    meta = json.loads((d / "results.json").read_text())["meta"]
    assert meta["repeat"] == 2 and meta["environment"]["cores"] >= 1
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    (d / "profile.svg").unlink()
    with pytest.warns(UserWarning, match="matplotlib is not installed"):
        again = run_suite(TINY, out_dir=tmp_path, repeat=2)
    assert again.solved_now == 0
    assert not (d / "profile.svg").exists()
    assert "profiles not drawn" in (d / "report.md").read_text()


def test_latex_tables_escape_and_rule():
    from convexkern._tables import latex_table

    tex = latex_table(["solver", "rate %"], [["a_b", 0.5], ["c&d", float("nan")]], "x_y")
    assert tex.splitlines()[2] == "\\begin{tabular}{lr}"
    assert "a\\_b & 0.5 \\\\" in tex and "c\\&d & -- \\\\" in tex
    assert "rate \\%" in tex and "\\caption{x\\_y}" in tex


def test_a_bad_repeat_is_named(tmp_path):
    with pytest.raises(InvalidInputError) as info:
        run_suite(TINY, out_dir=tmp_path, repeat=0)
    assert info.value.argument == "repeat"


# ------------------------------------------------------------------------- time limits
def test_a_pair_over_a_tiny_time_limit_is_recorded_as_time_limit(tmp_path):
    res = run_suite(TINY, out_dir=tmp_path, time_limit=1e-4)
    assert res.rows and all(r["status"] == "time_limit" for r in res.rows), res.rows
    assert not any(r["success"] for r in res.rows)
    report = (tmp_path / "tiny" / "report.md").read_text()
    assert "| 0 | 0%" in report  # solved 0, success 0 % for each solver


def test_the_supervisor_kills_a_child_past_its_limit():
    t0 = time.perf_counter()
    kind, value, seconds = supervise(time.sleep, (60,), limit=0.2, grace=0.3)
    assert kind == "time_limit" and value is None
    assert 0.4 <= seconds < 10 and time.perf_counter() - t0 < 20
    kind, value, _ = supervise(math.sqrt, (-1.0,), limit=10)
    assert kind == "error" and value["type"] == "ValueError"
    assert supervise(math.sqrt, (16.0,), limit=10)[:2] == ("done", 4.0)


def test_bad_controls_are_named(tmp_path):
    with pytest.raises(InvalidInputError, match="backend"):
        run_suite(TINY, out_dir=tmp_path, backend="ray")
    with pytest.raises(InvalidInputError, match="scheduler"):
        run_suite(TINY, out_dir=tmp_path, scheduler="tcp://x:1")
    with pytest.raises(InvalidInputError, match="n_jobs"):
        run_suite(TINY, out_dir=tmp_path, n_jobs=0)
    with pytest.raises(InvalidInputError, match="solvers"):
        run_suite(TINY, out_dir=tmp_path, solvers=["clarabel", "nosuch"])


# ------------------------------------------------------------------------- Dask
@pytest.mark.slow
def test_the_dask_backend_on_a_local_cluster(tmp_path):
    pytest.importorskip("dask.distributed")
    res = run_suite(TINY, out_dir=tmp_path, backend="dask",
                    cluster_kwargs={"processes": False})
    assert res.solved_now == 4
    assert [r["solver"] for r in res.rows] == ["clarabel", "smo", "clarabel", "smo"]
    assert all(r["success"] for r in res.rows), res.rows
    assert "backend dask" in (tmp_path / "tiny" / "report.md").read_text()


@pytest.mark.slow
def test_the_dask_backend_with_worker_processes(tmp_path):
    """A LocalCluster's workers are daemonic processes (under a nanny): each still starts
    the child process a pair runs in."""
    pytest.importorskip("dask.distributed")
    res = run_suite(_suite(p_sizes=[30]), out_dir=tmp_path, backend="dask", n_jobs=2)
    assert res.solved_now == 2 and all(r["success"] for r in res.rows), res.rows


def test_reproduce_context_parallel_through_dask(tmp_path):
    pytest.importorskip("dask.distributed")
    from convexkern.reproduce.harness import Context, dask_client

    ctx = Context(name="t", quick=True, out_dir=tmp_path, backend="dask", verbose=False)
    # two workers: with one, joblib sees a single slot and runs the items locally
    with dask_client(n_workers=2, processes=False):
        assert ctx.parallel(_on_a_dask_worker, [-1, -2, 3]) == [1, 2, 3]


def _on_a_dask_worker(x):
    from distributed import get_worker

    get_worker()  # raises ValueError outside a Dask worker (joblib ran it locally)
    return abs(x)


def test_reproduce_runs_on_the_dask_backend(tmp_path):
    pytest.importorskip("dask.distributed")
    from convexkern.reproduce import ReproductionResult, available, register, run, table
    from convexkern.reproduce.harness import dask_client

    try:
        @register("bench_dask_probe", title="probe")
        def probe(ctx):
            assert ctx.backend == "dask"
            return ReproductionResult("bench_dask_probe", str(ctx.parallel(abs, [-1, -2])))

        with dask_client(processes=False) as client:  # --scheduler: an existing cluster
            res = run("bench_dask_probe", out_dir=tmp_path, verbose=False, backend="dask",
                      scheduler=client.scheduler.address)
        assert res.markdown == "[1, 2]"
    finally:
        table._table.pop("bench_dask_probe", None)
    assert "bench_dask_probe" not in available()
    with pytest.raises(InvalidInputError, match="backend"):
        run("luss2007", out_dir=tmp_path, backend="ray")


# ------------------------------------------------------------------------- the metrics
INF = math.inf
#: 4 problems x 3 solvers; problem 1 a tie of solvers 0 and 1, problem 2 solved by none
TIMES = [[1.0, 2.0, INF],
         [3.0, 3.0, 6.0],
         [INF, INF, INF],
         [2.0, 1.0, 4.0]]


def test_performance_ratios_by_hand():
    expected = [[1, 2, INF], [1, 1, 2], [INF, INF, INF], [2, 1, 4]]
    assert np.array_equal(performance_ratios(TIMES), np.array(expected, dtype=float))


def test_performance_profile_by_hand():
    taus, rho = performance_profile(TIMES)
    assert taus.tolist() == [1.0, 2.0, 4.0]
    # rho_s(tau) = #{p : r[p, s] <= tau} / 4, counted on the ratios above
    assert rho.tolist() == [[0.50, 0.50, 0.00],
                            [0.75, 0.75, 0.25],
                            [0.75, 0.75, 0.50]]
    _, at = performance_profile(TIMES, taus=[1.5, 100.0])
    assert at.tolist() == [[0.5, 0.5, 0.0], [0.75, 0.75, 0.5]]


def test_success_and_disjoint_brackets_by_hand():
    row = {"status": "optimal_inaccurate", "rel_gap": 5e-7}
    assert is_success(row, 1e-6) and not is_success(row, 1e-7)
    assert not is_success({"status": "time_limit", "rel_gap": 0.0}, 1e-6)
    assert not is_success({"status": "optimal", "rel_gap": math.inf}, 1e-6)
    rows = [{"problem": "p", "solver": "a", "primal_value": 1.0, "dual_value": 2.0},
            {"problem": "p", "solver": "b", "primal_value": 1.9, "dual_value": 1.5},
            {"problem": "q", "solver": "a", "primal_value": 1.0, "dual_value": 1.0},
            {"problem": "q", "solver": "b", "primal_value": 1.1, "dual_value": 1.2},
            {"problem": "q", "solver": "c", "primal_value": math.nan, "dual_value": 9.0}]
    assert disjoint_brackets(rows) == [("q", "b", "a")]


def test_shifted_geomean_by_hand():
    assert shifted_geomean([0.0, 3.0], shift=1.0) == pytest.approx(1.0)  # sqrt(1*4) - 1
    assert shifted_geomean([9.0], shift=10.0) == pytest.approx(9.0)
    assert shifted_geomean([2.0, 2.0, 2.0]) == pytest.approx(2.0)
    with pytest.raises(InvalidInputError, match="times"):
        shifted_geomean([1.0, INF])
    with pytest.raises(InvalidInputError, match="times"):
        performance_ratios([1.0, 2.0])
