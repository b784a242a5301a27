"""User formulations and solvers as plugins (docs/plugins.md).

* ``formulation.name = "module:function"``: a builder in a module next to the spec, in
  the current directory, or installed; solved from Python and through the CLI; every
  error case names ``formulation.name`` (or ``formulation``) and says what went wrong.
* The entry-point groups ``convexkern.formulations`` and ``convexkern.solvers``, read
  from a real (fake) distribution: a ``*.dist-info`` folder on ``sys.path`` in tmp_path,
  found by :func:`importlib.metadata.entry_points` itself; broken plugins warn and leave
  every other solver working.

The user builder is the SVM dual with the hand certificate of
:func:`convexkern.math.svm.dual_bounds` (notes §11.2); its optimum is checked against the
built-in ``svm.dual`` on the same spec data, which shares no code with the plugin path.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import cvxpy as cp
import numpy as np
import pytest

import convexkern as ck
from convexkern.errors import SolverNotFoundError, SpecError
from convexkern.report import Certificate, Status
from convexkern.solvers import plugins as solver_plugins
from convexkern.solvers import table
from convexkern.specs import load_spec
from tests.printed_tables import PRINT_RTOL, bracket

ROOT = Path(__file__).resolve().parents[1]

#: the user's module: an SVM dual with the certificate of convexkern.math.svm
BUILDER = '''
"""A user's SVM dual (Mansour 2013 notes §11.2), certified by convexkern.math.svm."""
import cvxpy as cp
import numpy as np

import convexkern as ck
from convexkern.math.svm import check_psd, dual_bounds
from convexkern.report import Certificate

TAG = "{tag}"


def svm_dual(K, y, C=1.0):
    K = np.asarray(K, dtype=float)
    y = np.asarray(y, dtype=float)
    eps = check_psd(K)
    a = cp.Variable(y.size, name="alpha")
    Cp = cp.Parameter(pos=True, name="C", value=C)
    problem = cp.Problem(
        cp.Maximize(cp.sum(a) - 0.5 * cp.quad_form(cp.multiply(y, a), cp.psd_wrap(K))),
        [y @ a == 0, a >= 0, a <= Cp])

    def certify(f, point):
        b = dual_bounds(f.data["K"], f.data["y"], point["alpha"], f.param("C"), eps)
        return Certificate(primal_value=b.lower, dual_value=b.upper, sense="maximize",
                           point={{"alpha": b.alpha, "b": np.asarray(b.b)}},
                           residuals=b.residuals)

    return ck.Formulation(name="user.svm_dual." + TAG, problem=problem,
                          variables={{"alpha": a}}, parameters={{"C": Cp}},
                          source="test builder", kind="{kind}", data={{"K": K, "y": y}},
                          certify=certify, default_solver="clarabel",
                          decision="dual_expansion")


def not_a_formulation(K, y, C=1.0):
    return {{"K": K}}


def raises(K, y, C=1.0):
    raise RuntimeError("the user's builder is broken")


def bad_value(K, y, C=1.0):
    raise ValueError("C must be small")


def no_data(C=1.0):
    return None


NOT_CALLABLE = 3
'''

#: 40 blobs (30 train after the split), RBF kernel: a QP Clarabel solves in well under 1 s
SPEC = """
name = "user_svm"

[data]
generator = "blobs"
n_samples = 40
centers = [[-1.0, 0.0], [1.0, 0.0]]
seed = 0

[split]
test_size = 0.25
seed = 0

[kernel]
name = "rbf"
gamma = 0.5

[formulation]
name = "{name}"
C = 1.0

[solve]
solvers = ["clarabel", "scs"]
"""


def write_builder(folder: Path, module: str = "my_formulations", tag: str = "a",
                  kind: str = "user.svm_dual") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder.joinpath(*module.split(".")).with_suffix(".py")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(BUILDER.format(tag=tag, kind=kind))
    return path


def write_spec(folder: Path, name: str = "my_formulations:svm_dual",
               file: str = "spec.toml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    p = folder / file
    p.write_text(SPEC.format(name=name))
    return p


@pytest.fixture(scope="module")
def reference_optimum(tmp_path_factory):
    """The built-in svm.dual on the same spec data, solved tightly by Clarabel."""
    spec = write_spec(tmp_path_factory.mktemp("ref"), name="svm.dual")
    inst = load_spec(spec).build()
    r = ck.solve(inst.formulation, "clarabel", tol=1e-9)
    assert r.status is Status.OPTIMAL
    return r.primal_value


def _user_modules() -> set[str]:
    return {m for m in sys.modules if m.startswith("_convexkern_user_")}


# --------------------------------------------------------------------------- module:function
def test_builder_next_to_the_spec_solves_from_python(tmp_path, reference_optimum):
    write_builder(tmp_path)
    path_before = list(sys.path)
    spec = load_spec(write_spec(tmp_path))
    assert spec.formulation.is_plugin
    assert (spec.formulation.module, spec.formulation.builder) == ("my_formulations",
                                                                   "svm_dual")
    inst = spec.build()
    f = inst.formulation
    assert f.name == "user.svm_dual.a" and f.param("C") == 1.0
    r = ck.solve(f, "clarabel")
    assert r.status is Status.OPTIMAL
    # Clarabel's default tol is 1e-8 relative: the user's problem is the built-in's
    assert r.primal_value == pytest.approx(reference_optimum, rel=1e-6)
    assert r.dual_value >= reference_optimum - 1e-6 * abs(reference_optimum)
    # prediction by convention works for the user's formulation too (it keeps K and y)
    assert inst.accuracy(r) is not None
    # loaded by location: the folder never went on sys.path, no top-level module appeared
    assert sys.path == path_before
    assert "my_formulations" not in sys.modules


def test_package_module_with_relative_import(tmp_path, reference_optimum):
    pkg = tmp_path / "mypkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    write_builder(pkg, module="_impl")
    (pkg / "forms.py").write_text("from ._impl import svm_dual  # noqa: F401\n")
    inst = load_spec(write_spec(tmp_path, name="mypkg.forms:svm_dual")).build()
    r = ck.solve(inst.formulation, "clarabel")
    assert r.primal_value == pytest.approx(reference_optimum, rel=1e-6)
    assert "mypkg" not in sys.modules and str(tmp_path) not in sys.path


def test_two_folders_with_the_same_module_name_do_not_clash(tmp_path):
    write_builder(tmp_path / "one", tag="one")
    write_builder(tmp_path / "two", tag="two")
    f1 = load_spec(write_spec(tmp_path / "one")).build().formulation
    f2 = load_spec(write_spec(tmp_path / "two")).build().formulation
    assert (f1.name, f2.name) == ("user.svm_dual.one", "user.svm_dual.two")


def test_module_is_cached_per_file_and_read_again_when_it_changes(tmp_path):
    path = write_builder(tmp_path, tag="old")
    spec = write_spec(tmp_path)
    assert load_spec(spec).formulation.builder_function() is \
        load_spec(spec).formulation.builder_function()  # cached: the same function object
    assert load_spec(spec).build().formulation.name == "user.svm_dual.old"
    path.write_text(BUILDER.format(tag="new, longer", kind="user.svm_dual"))
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    assert load_spec(spec).build().formulation.name == "user.svm_dual.new, longer"


def test_lookup_in_the_current_directory(tmp_path, monkeypatch):
    work = tmp_path / "work"
    write_builder(work, tag="cwd")
    spec = write_spec(tmp_path / "specs")
    monkeypatch.chdir(work)
    assert load_spec(spec).build().formulation.name == "user.svm_dual.cwd"


def test_the_spec_folder_wins_over_the_current_directory(tmp_path, monkeypatch):
    write_builder(tmp_path / "work", tag="cwd")
    write_builder(tmp_path / "specs", tag="spec-folder")
    spec = write_spec(tmp_path / "specs")
    monkeypatch.chdir(tmp_path / "work")
    assert load_spec(spec).build().formulation.name == "user.svm_dual.spec-folder"


def test_a_dict_spec_looks_in_base_dir(tmp_path):
    import tomllib

    write_builder(tmp_path, tag="dict")
    raw = tomllib.loads(SPEC.format(name="my_formulations:svm_dual"))
    assert load_spec(raw, base_dir=tmp_path).build().formulation.name == "user.svm_dual.dict"


def test_builtin_names_still_work_and_hint_at_module_function(tmp_path):
    assert load_spec(write_spec(tmp_path, name="svm.dual")).formulation.module == "svm"
    with pytest.raises(SpecError, match=r"'my_formulations:svm_dual'") as exc:
        load_spec(write_spec(tmp_path, name="my_formulations.svm_dual"))
    assert exc.value.field == "formulation.name"


# --------------------------------------------------------------------------- the errors
def test_module_not_found_says_where_it_looked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "specs"
    name = f"nosuchmod_{uuid.uuid4().hex[:8]}"
    with pytest.raises(SpecError) as exc:
        load_spec(write_spec(folder, name=f"{name}:svm_dual"))
    e = exc.value
    assert e.field == "formulation.name"
    msg = str(e)
    assert f"module '{name}' not found" in msg
    assert str(folder.resolve() / f"{name}.py") in msg and "the spec's folder" in msg
    assert str(tmp_path.resolve() / f"{name}.py") in msg and "current directory" in msg
    assert "convexkern.formulations" in msg and "installed module" in msg


def test_function_missing_lists_the_module_functions(tmp_path):
    write_builder(tmp_path)
    with pytest.raises(SpecError, match=r"has no function 'svm_primal'.*svm_dual") as exc:
        load_spec(write_spec(tmp_path, name="my_formulations:svm_primal"))
    assert exc.value.field == "formulation.name"
    with pytest.raises(SpecError, match="NOT_CALLABLE is a int, not a builder"):
        load_spec(write_spec(tmp_path, name="my_formulations:NOT_CALLABLE"))


@pytest.mark.parametrize("name", ["my_formulations:a:b", "my formulations:f", ":svm_dual",
                                  "my_formulations:", "1mod:f", "with space"])
def test_malformed_names(tmp_path, name):
    with pytest.raises(SpecError) as exc:
        load_spec(write_spec(tmp_path, name=name))
    assert exc.value.field == "formulation.name"


def test_builder_that_returns_no_formulation(tmp_path):
    write_builder(tmp_path)
    spec = load_spec(write_spec(tmp_path, name="my_formulations:not_a_formulation"))
    with pytest.raises(SpecError, match="returned dict, not a convexkern.Formulation") as exc:
        spec.build()
    assert exc.value.field == "formulation.name"


def test_builder_that_raises(tmp_path):
    write_builder(tmp_path)
    spec = load_spec(write_spec(tmp_path, name="my_formulations:raises"))
    with pytest.raises(SpecError, match="raised RuntimeError: the user's builder is broken") \
            as exc:
        spec.build()
    assert exc.value.field == "formulation.name"
    assert isinstance(exc.value.__cause__, RuntimeError)  # the user's traceback is kept
    spec = load_spec(write_spec(tmp_path, name="my_formulations:bad_value"))
    with pytest.raises(SpecError, match="bad_value: C must be small") as exc:
        spec.build()
    assert exc.value.field == "formulation"


def test_builder_a_spec_cannot_feed(tmp_path):
    write_builder(tmp_path)
    with pytest.raises(SpecError, match="neither a kernel matrix"):
        load_spec(write_spec(tmp_path, name="my_formulations:no_data"))


def test_module_that_fails_to_import(tmp_path):
    (tmp_path / "broken_forms.py").write_text("import numpy as np\ndef svm_dual(:\n")
    with pytest.raises(SpecError, match=r"importing .*broken_forms.py failed: SyntaxError") \
            as exc:
        load_spec(write_spec(tmp_path, name="broken_forms:svm_dual"))
    assert exc.value.field == "formulation.name"
    assert not [m for m in _user_modules() if m.endswith(".broken_forms")]  # not kept
    (tmp_path / "missing_dep.py").write_text("import nosuchdependency_ck\n")
    with pytest.raises(SpecError, match="ModuleNotFoundError.*nosuchdependency_ck"):
        load_spec(write_spec(tmp_path, name="missing_dep:svm_dual"))


def test_an_absolute_sibling_import_gets_a_hint(tmp_path):
    (tmp_path / "helpers_ck.py").write_text("X = 1\n")
    (tmp_path / "uses_sibling.py").write_text("import helpers_ck\n")
    with pytest.raises(SpecError, match=r"not on sys.path: import it relatively, "
                                        r"'from \. import helpers_ck'"):
        load_spec(write_spec(tmp_path, name="uses_sibling:svm_dual"))
    (tmp_path / "uses_sibling.py").write_text(
        "from . import helpers_ck\nfrom .my_formulations import svm_dual  # noqa: F401\n")
    write_builder(tmp_path, tag="sibling")
    assert load_spec(write_spec(tmp_path, name="uses_sibling:svm_dual")).build() \
        .formulation.name == "user.svm_dual.sibling"


def test_installed_module_by_import(tmp_path, monkeypatch):
    name = f"ck_installed_{uuid.uuid4().hex[:8]}"
    site = tmp_path / "site"
    write_builder(site, module=name, tag="installed")
    monkeypatch.syspath_prepend(str(site))
    try:
        spec = write_spec(tmp_path / "specs", name=f"{name}:svm_dual")
        assert load_spec(spec).build().formulation.name == "user.svm_dual.installed"
    finally:
        sys.modules.pop(name, None)


# --------------------------------------------------------------------------- the CLI
def _cli(*args, cwd):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "convexkern", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_cli_compare_and_solve_a_user_builder(tmp_path, reference_optimum, capsys):
    write_builder(tmp_path / "specs")
    spec = write_spec(tmp_path / "specs")
    proc = _cli("compare", str(spec), "--solvers", "clarabel,scs", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    rows = {r["solver"]: r for r in json.loads(proc.stdout)}
    assert set(rows) == {"clarabel", "scs"}
    assert rows["clarabel"]["status"] == "optimal"
    assert rows["clarabel"]["primal_value"] == pytest.approx(reference_optimum, rel=1e-6)
    # SCS at its default tol 1e-4: a valid bracket around the optimum, whatever its status
    assert rows["scs"]["primal_value"] <= reference_optimum * (1 + 1e-9)
    assert rows["scs"]["dual_value"] >= reference_optimum * (1 - 1e-9)
    proc = _cli("solve", str(spec), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "clarabel" in proc.stdout and "optimal" in proc.stdout
    # an error is a spec error naming the field, exit status 2 (in-process: same main())
    from convexkern.cli import main

    bad = write_spec(tmp_path / "specs", name="my_formulations:nope", file="bad.toml")
    assert main(["solve", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "spec field 'formulation.name'" in err and "no function 'nope'" in err


# --------------------------------------------------------------------------- entry points
SOLVERS_MODULE = '''
import time

import convexkern as ck
from convexkern.solvers import algorithm_status, certified_report


def solve_via_clarabel(f, *, tol, max_iter, time_limit, verbose=False, x0=None, **options):
    """A plugin algorithm: hands the problem to Clarabel, certifies like any solver."""
    t0 = time.perf_counter()
    f.problem.solve(solver="CLARABEL")
    return certified_report(f, f.current_point(), solver="{solver}",
                            status=algorithm_status("optimal"), tol=tol,
                            solve_time=time.perf_counter() - t0, iterations=1)


def register():
    ck.register_solver("{solver}", kinds=["{kind}"], default_tol=1e-6,
                       description="test plugin")(solve_via_clarabel)


def register_nothing():
    pass


def register_raises():
    raise RuntimeError("plugin setup failed")


NOT_A_FUNCTION = 7
'''

ON_IMPORT = '''
import convexkern as ck
from {pkg}.solvers import solve_via_clarabel

ck.register_solver("{solver}", kinds=["{kind}"])(solve_via_clarabel)
'''


class FakeDist:
    """A distribution on sys.path: ``<site>/<name>-0.1.dist-info`` and a package."""

    def __init__(self, root: Path, entry_points: dict[str, dict[str, str]]):
        self.pkg = f"ckplug_{uuid.uuid4().hex[:10]}"
        self.site = root / "site"
        self.kind = f"{self.pkg}.svm_dual"
        info = self.site / f"{self.pkg}-0.1.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {self.pkg}\nVersion: 0.1\n")
        lines = []
        for group, eps in entry_points.items():
            lines.append(f"[{group}]")
            lines += [f"{k} = {v.format(pkg=self.pkg)}" for k, v in eps.items()]
        (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
        pkg = self.site / self.pkg
        pkg.mkdir()
        (pkg / "__init__.py").write_text("")
        write_builder(pkg, module="forms", tag="entry-point", kind=self.kind)

    def solver_module(self, module: str, solver: str, text: str = SOLVERS_MODULE) -> None:
        (self.site / self.pkg / f"{module}.py").write_text(
            text.format(solver=solver, kind=self.kind, pkg=self.pkg))


def _plugin_formulation(d: FakeDist):
    """The fake distribution's builder on a small real-data RBF kernel (30 Pima patients),
    called directly, so that no solver list is asked for."""
    import importlib

    from convexkern.data import load_binary
    from convexkern.kernels import RBF

    X, y = load_binary("pima", 1, 0)
    idx = np.r_[np.flatnonzero(y > 0)[:15], np.flatnonzero(y < 0)[:15]]
    X, y = X[idx], y[idx]
    X = (X - X.mean(0)) / X.std(0)
    return importlib.import_module(f"{d.pkg}.forms").svm_dual(RBF(gamma=0.1)(X), y, C=1.0)


@pytest.fixture
def fake_dist(tmp_path, monkeypatch):
    """Make a fake installed distribution; restore the solver table and sys.modules."""
    algorithms = dict(table._algorithms)
    solver_plugins._reset()
    made = []

    def make(entry_points):
        d = FakeDist(tmp_path, entry_points)
        monkeypatch.syspath_prepend(str(d.site))
        made.append(d)
        return d

    yield make
    table._algorithms.clear()
    table._algorithms.update(algorithms)
    solver_plugins._reset()
    for d in made:
        for m in [m for m in sys.modules if m == d.pkg or m.startswith(d.pkg + ".")]:
            del sys.modules[m]


def test_formulation_entry_points_builder_and_module(tmp_path, fake_dist, reference_optimum):
    fake_dist({"convexkern.formulations": {"fake_svm": "{pkg}.forms:svm_dual",
                                           "fake_forms": "{pkg}.forms"}})
    folder = tmp_path / "specs"
    # an entry point naming a builder: the bare name
    f = load_spec(write_spec(folder, name="fake_svm")).build().formulation
    assert f.name == "user.svm_dual.entry-point"
    assert ck.solve(f, "clarabel").primal_value == pytest.approx(reference_optimum, rel=1e-6)
    # an entry point naming a module: "name:function"
    f = load_spec(write_spec(folder, name="fake_forms:svm_dual")).build().formulation
    assert f.name == "user.svm_dual.entry-point"
    # each used the other way: a clear error
    with pytest.raises(SpecError, match="is a builder, not a module"):
        load_spec(write_spec(folder, name="fake_svm:svm_dual"))
    with pytest.raises(SpecError, match=r"is the module .*'fake_forms:<function>'.*svm_dual"):
        load_spec(write_spec(folder, name="fake_forms"))
    with pytest.raises(SpecError, match=r"not an entry point .*fake_forms, fake_svm"):
        load_spec(write_spec(folder, name="fake_nothing"))


def test_formulation_entry_point_that_fails_to_load(tmp_path, fake_dist):
    d = fake_dist({"convexkern.formulations": {"fake_broken": "{pkg}.missing:builder"}})
    with pytest.raises(SpecError, match=rf"entry point 'fake_broken' \({d.pkg}.missing:builder "
                                        rf"from {d.pkg} 0.1\) .* failed to load") as exc:
        load_spec(write_spec(tmp_path, name="fake_broken"))
    assert exc.value.field == "formulation.name"


def test_solver_entry_point_read_lazily_by_name(tmp_path, fake_dist):
    d = fake_dist({"convexkern.formulations": {"fake_svm": "{pkg}.forms:svm_dual"},
                   "convexkern.solvers": {"fakemethod": "{pkg}.solvers:register"}})
    d.solver_module("solvers", "fakemethod")
    f = _plugin_formulation(d)  # (a spec's [solve] solvers would read the whole list)
    assert "fakemethod" not in ck.solvers.ALGORITHMS  # nothing read yet
    assert f"{d.pkg}.solvers" not in sys.modules
    r = ck.solve(f, "fakemethod")  # not in the table: its entry point is read now
    assert r.solver == "fakemethod" and r.status is Status.OPTIMAL
    ref = ck.solve(f, "clarabel")
    assert r.primal_value == pytest.approx(ref.primal_value, rel=1e-6)
    # the listing and a default compare include it
    assert "fakemethod" in ck.installed_solvers()
    assert "fakemethod" in ck.available_solvers(f)
    assert "fakemethod" in {row.solver for row in ck.compare(f, ["clarabel", "fakemethod"])}


def test_solver_entry_point_read_when_the_list_is_asked(fake_dist):
    d = fake_dist({"convexkern.solvers": {"fakemethod": "{pkg}.solvers:register"}})
    d.solver_module("solvers", "fakemethod")
    rows = {r["name"]: r for r in ck.solver_info()}
    assert rows["fakemethod"]["solves"] == d.kind
    assert rows["fakemethod"]["description"] == "test plugin"


def test_solver_registered_on_import_of_the_plugin_module(fake_dist):
    d = fake_dist({"convexkern.solvers": {"fakeimport": "{pkg}.on_import:solve_via_clarabel"}})
    d.solver_module("solvers", "unused")
    d.solver_module("on_import", "fakeimport", ON_IMPORT)
    assert "fakeimport" in ck.installed_solvers()  # loading it registered it; not called
    assert ck.solvers.ALGORITHMS["fakeimport"].kinds == {d.kind}


def test_the_users_own_registration_wins(fake_dist):
    d = fake_dist({"convexkern.solvers": {"mine": "{pkg}.solvers:register_raises"}})
    d.solver_module("solvers", "mine")
    ck.register_solver("mine", kinds=["elsewhere.kind"])(lambda f, **kw: None)
    with _no_plugin_warning():
        assert "mine" in ck.installed_solvers()
    assert ck.solvers.ALGORITHMS["mine"].kinds == {"elsewhere.kind"}


class _no_plugin_warning:
    def __enter__(self):
        import warnings

        self._cm = warnings.catch_warnings()
        self._cm.__enter__()
        warnings.simplefilter("error", solver_plugins.PluginWarning)

    def __exit__(self, *exc):
        return self._cm.__exit__(*exc)


BROKEN = {
    "fake_noimport": ("{pkg}.missing:register", "failed: ModuleNotFoundError"),
    "fake_raises": ("{pkg}.solvers:register_raises",
                    "failed: RuntimeError: plugin setup failed"),
    "fake_nothing": ("{pkg}.solvers:register_nothing", "registered no solver named"),
    "fake_notfn": ("{pkg}.solvers:NOT_A_FUNCTION", "is a int, not a function"),
    "smo": ("{pkg}.solvers:register", "is a built-in solver's name"),
}


def test_broken_solver_plugins_warn_and_leave_the_others_working(tmp_path, fake_dist):
    d = fake_dist({"convexkern.formulations": {"fake_svm": "{pkg}.forms:svm_dual"},
                   "convexkern.solvers": {
                       **{k: v for k, (v, _) in BROKEN.items()},
                       "fakemethod": "{pkg}.solvers:register"}})
    d.solver_module("solvers", "fakemethod")
    with pytest.warns(solver_plugins.PluginWarning) as caught:
        names = ck.installed_solvers()
    messages = [str(w.message) for w in caught]
    for name, (_, why) in BROKEN.items():
        hits = [m for m in messages if f"solver plugin '{name}'" in m]
        assert len(hits) == 1 and why in hits[0], (name, messages)
    assert {"clarabel", "scs", "smo", "fakemethod"} <= set(names)
    assert not {"fake_noimport", "fake_raises", "fake_nothing", "fake_notfn"} & set(names)
    f = load_spec(write_spec(tmp_path, name="fake_svm")).build().formulation
    assert ck.solve(f, "clarabel").status is Status.OPTIMAL
    assert ck.solve(f, "fakemethod").status is Status.OPTIMAL
    assert d.kind not in ck.solvers.ALGORITHMS["smo"].kinds  # the built-in was not touched
    with pytest.raises(SolverNotFoundError, match="plugin setup failed"):
        ck.solve(f, "fake_raises")  # asked for by name: an error with the reason


def test_broken_plugin_asked_by_name_first(tmp_path, fake_dist):
    d = fake_dist({"convexkern.formulations": {"fake_svm": "{pkg}.forms:svm_dual"},
                   "convexkern.solvers": {"fake_raises": "{pkg}.solvers:register_raises"}})
    d.solver_module("solvers", "unused")
    f = _plugin_formulation(d)
    with pytest.warns(solver_plugins.PluginWarning, match="fake_raises"), \
            pytest.raises(SolverNotFoundError, match=r"unknown solver 'fake_raises' \(solver "
                                                      r"plugin 'fake_raises'.*plugin setup"):
        ck.solve(f, "fake_raises")


def test_unreadable_metadata_is_a_warning(monkeypatch, fake_dist):
    def broken(**kw):
        raise OSError("metadata unreadable")

    monkeypatch.setattr(importlib.metadata, "entry_points", broken)
    with pytest.warns(solver_plugins.PluginWarning, match="metadata unreadable"):
        names = ck.installed_solvers()
    assert "clarabel" in names
    from convexkern.specs.plugins import entry_point_names

    with pytest.warns(solver_plugins.PluginWarning, match="convexkern.formulations"):
        assert entry_point_names() == []


def test_import_reads_no_plugin_and_cli_lists_them(tmp_path):
    """In a fresh interpreter: ``import convexkern`` loads no plugin module (a broken one
    cannot break it); ``convexkern solvers`` lists a plugin's solver and warns about a
    broken one by name."""
    d = FakeDist(tmp_path, {"convexkern.solvers": {
        "fakemethod": "{pkg}.solvers:register", "fake_raises": "{pkg}.solvers:register_raises"}})
    d.solver_module("solvers", "fakemethod")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(d.site)]))
    code = (f"import sys, convexkern as ck; print('{d.pkg}.solvers' in sys.modules, "
            "'fakemethod' in ck.solvers.ALGORITHMS)")
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["False", "False"]
    proc = subprocess.run([sys.executable, "-m", "convexkern", "solvers", "--json"], env=env,
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    rows = {r["name"]: r for r in json.loads(proc.stdout)}
    assert rows["fakemethod"]["solves"] == d.kind and "fake_raises" not in rows
    assert rows["fakemethod"]["kind"] == f"plugin ({d.pkg} 0.1)"
    assert rows["smo"]["kind"] == "built-in"
    assert "solver plugin 'fake_raises'" in proc.stderr and "plugin setup failed" in proc.stderr


def test_entry_points_are_searched_by_the_standard_api(fake_dist):
    """The fake distribution is seen by importlib.metadata itself (not a test double)."""
    d = fake_dist({"convexkern.formulations": {"fake_svm": "{pkg}.forms:svm_dual"}})
    eps = importlib.metadata.entry_points(group="convexkern.formulations")
    assert any(ep.name == "fake_svm" and ep.value.startswith(d.pkg) for ep in eps)
    from convexkern.specs.plugins import entry_point_names

    assert "fake_svm" in entry_point_names()


# --------------------------------------------------------------------------- the docs
def test_docs_plugins_example_runs_and_prints_the_truth(tmp_path):
    """docs/plugins.md's two files, written as they are in the page, give the certified
    optimum the page prints, which is also the built-in svm.dual's on the same spec."""
    import re

    text = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```(\w*)\n(.*?)```", text, re.S)
    files = {body.splitlines()[0][2:].strip(): body for _, body in blocks
             if body.startswith(("# my_formulations.py", "# my_spec.toml"))}
    assert set(files) == {"my_formulations.py", "my_spec.toml"}
    for name, body in files.items():
        (tmp_path / name).write_text(body)
    printed = next(line.split() for _, body in blocks for line in body.splitlines()
                   if line.startswith("clarabel  optimal"))
    r = ck.solve(load_spec(tmp_path / "my_spec.toml").build().formulation, "clarabel")
    assert r.status is Status.OPTIMAL and r.rel_gap <= r.tol
    # the page's bracket and this machine's are both proofs about one optimum: they
    # overlap (the page's widened by its 10-digit rounding), whatever the machine's digits
    lo, up = bracket(r.primal_value, r.dual_value)
    plo, pup = bracket(float(printed[2]), float(printed[3]), PRINT_RTOL)
    assert lo <= pup and plo <= up, ((lo, up), (plo, pup))
    raw = (tmp_path / "my_spec.toml").read_text().replace('"my_formulations:svm_dual"',
                                                          '"svm.dual"')
    (tmp_path / "builtin.toml").write_text(raw)
    ref = ck.solve(load_spec(tmp_path / "builtin.toml").build().formulation, "clarabel")
    rlo, rup = bracket(ref.primal_value, ref.dual_value)
    assert ref.status is Status.OPTIMAL and lo <= rup and rlo <= up, ((lo, up), (rlo, rup))


GENERIC_BUILDER = '''
import cvxpy as cp
import numpy as np
import convexkern as ck


def svm_dual(K, y, C=1.0):
    """The SVM dual written plainly in cvxpy: no certificate of its own."""
    a = cp.Variable(y.size, name="alpha")
    Cp = cp.Parameter(pos=True, value=C, name="C")
    Q = cp.psd_wrap(np.asarray(K) * np.outer(y, y))
    problem = cp.Problem(cp.Maximize(cp.sum(a) - 0.5 * cp.quad_form(a, Q)),
                         [a >= 0, a <= Cp, y @ a == 0])
    return ck.from_cvxpy(problem, "user.svm_dual")
'''


def test_cli_certifies_a_user_builder_without_a_certificate(tmp_path, reference_optimum):
    """An outside module's builder with no certificate runs from a
    spec and the CLI, certified optimal by Clarabel (generic certificate) at the built-in
    formulation's optimum."""
    folder = tmp_path / "specs"
    folder.mkdir()
    (folder / "my_formulations.py").write_text(GENERIC_BUILDER)
    spec = write_spec(folder)
    proc = _cli("compare", str(spec), "--solvers", "clarabel,scs", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    rows = {r["solver"]: r for r in json.loads(proc.stdout)}
    assert rows["clarabel"]["status"] == "optimal"
    lo = min(rows["clarabel"]["primal_value"], rows["clarabel"]["dual_value"])
    up = max(rows["clarabel"]["primal_value"], rows["clarabel"]["dual_value"])
    assert lo <= reference_optimum * (1 + 1e-8) and up >= reference_optimum * (1 - 1e-8)
    s_lo = min(rows["scs"]["primal_value"], rows["scs"]["dual_value"])
    s_up = max(rows["scs"]["primal_value"], rows["scs"]["dual_value"])
    assert s_lo <= reference_optimum * (1 + 1e-8) and s_up >= reference_optimum * (1 - 1e-8)


KLR_BUILDER = '''
import cvxpy as cp
import numpy as np
import convexkern as ck


def klr(K, y, C=1.0, decision=None):
    """Kernel logistic regression, f(x) = sum_i alpha_i k(x_i, x) + b (no labels in it)."""
    n = y.size
    a = cp.Variable(n, name="alpha")
    b = cp.Variable(name="b")
    lam = 1.0 / (C * n)
    loss = cp.sum(cp.logistic(-cp.multiply(y, K @ a + b))) / n
    problem = cp.Problem(cp.Minimize(loss + lam / 2 * cp.quad_form(a, cp.psd_wrap(K))))
    return ck.from_cvxpy(problem, "user.klr", data={"K": K, "y": y}, decision=decision)


def klr_declared(K, y, C=1.0):
    return klr(K, y, C, decision="expansion")
'''


def test_a_spec_never_applies_the_svm_rule_to_another_model(tmp_path):
    """A user's kernel logistic regression names its variables alpha and b, like the SVM
    dual: undeclared, the spec reports no accuracy (it once printed the SVM rule's 0.35
    against a true 0.75); declared as an expansion, its accuracy is the one computed here
    from the report's own alpha and b on the test kernel."""
    (tmp_path / "my_klr.py").write_text(KLR_BUILDER)
    undeclared = load_spec(write_spec(tmp_path, name="my_klr:klr")).build()
    r = ck.solve(undeclared.formulation, "clarabel")
    assert r.x and undeclared.accuracy(r) is None
    declared = load_spec(write_spec(tmp_path, name="my_klr:klr_declared",
                                    file="declared.toml")).build()
    r = ck.solve(declared.formulation, "clarabel")
    alpha, b = np.asarray(r.x["alpha"]), float(np.asarray(r.x["b"]))
    truth = float(np.mean(np.where(declared.K_test @ alpha + b >= 0, 1.0, -1.0)
                          == declared.y_test))
    assert declared.accuracy(r) == truth and truth >= 0.8  # two well-separated blobs


def test_an_unknown_decision_rule_is_refused():
    x = cp.Variable(2, name="x")
    with pytest.raises(ck.InvalidInputError, match="^decision: "):
        ck.from_cvxpy(cp.Problem(cp.Minimize(cp.sum(x)), [x >= 0]), "d", decision="svm")


def test_tol_reaches_a_certifier_that_takes_it_every_time():
    """``Formulation.certificate`` forwards ``tol`` to a certifier with a ``tol`` keyword;
    whether it has one is remembered by code object (a builder makes one closure per
    formulation), so closures of two different functions must keep their own answers."""
    seen = []

    def make(with_tol):
        if with_tol:
            def certify(f, point, *, tol=None):
                seen.append(tol)
                return Certificate(primal_value=0.0, dual_value=0.0, sense="minimize")
        else:
            def certify(f, point):
                seen.append("no tol")
                return Certificate(primal_value=0.0, dual_value=0.0, sense="minimize")
        return certify

    x = cp.Variable(name="x")
    for with_tol in (True, False, True, False):
        f = ck.Formulation(name="t", problem=cp.Problem(cp.Minimize(x), [x >= 0]),
                           variables={"x": x}, parameters={}, source="test", kind="t",
                           data={}, certify=make(with_tol))
        f.certificate({"x": np.array(0.0)}, tol=1e-5)
    assert seen == [1e-5, "no tol", 1e-5, "no tol"]


def test_tol_is_read_from_the_signature_where_the_code_object_does_not_say_it():
    """Functions made by ``functools.partialmethod`` share one code object, and a
    ``__signature__`` overrides the code's: neither is answered from the cache."""
    import functools
    import inspect

    from convexkern.formulation import _takes_tol

    class Cert:
        def _with(self, f, point, tol=None):
            return "tol"

        def _without(self, f, point):
            return "no tol"

        with_tol = functools.partialmethod(_with)
        without = functools.partialmethod(_without)

    m1 = Cert.__dict__["with_tol"].__get__(None, Cert)
    m2 = Cert.__dict__["without"].__get__(None, Cert)
    assert m1.__code__ is m2.__code__
    assert _takes_tol(m1) and not _takes_tol(m2)

    def make():
        def certify(f, point, **kw):
            return kw
        return certify

    a, b = make(), make()
    b.__signature__ = inspect.Signature(
        [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in ("f", "point")])
    assert _takes_tol(a) and not _takes_tol(b)
