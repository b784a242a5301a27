"""The house rules of docs/architecture.md, read from the package's source.

The import graph is built from the AST of every module under ``convexkern/`` (imports
inside functions count: a lazy import is still an arrow), then checked for cycles and for
arrows that leave a layer's allowed set.  Sizes (modules <= 800 lines, functions <= 150)
are checked the same way.  Nothing here imports the package's modules except the last
test, which asks a fresh interpreter for the solver table.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "convexkern"

#: layer of a module: the first matching prefix wins (longest prefixes first)
LAYER_OF = (
    ("convexkern.errors", "base"),
    ("convexkern._validation", "base"),
    ("convexkern._tables", "base"),
    ("convexkern.kernels", "math"),
    ("convexkern.spectral", "math"),
    ("convexkern.projections", "math"),
    ("convexkern.transforms", "math"),
    ("convexkern.math", "math"),
    ("convexkern.formulation", "core"),
    ("convexkern.report", "core"),
    ("convexkern.generic", "core"),
    ("convexkern.solvers", "core"),
    ("convexkern.data", "data"),
    ("convexkern.splits", "data"),
    ("convexkern.formulations", "formulations"),
    ("convexkern.algorithms", "algorithms"),
    ("convexkern.verify", "verify"),
    ("convexkern.estimators", "estimators"),
    ("convexkern.specs", "specs"),
    ("convexkern.reproduce", "reproduce"),
    ("convexkern.bench", "bench"),
    ("convexkern.cli", "cli"),
    ("convexkern.__main__", "cli"),
)

#: which layers each layer may import (its own included); docs/architecture.md
ALLOWED = {
    "base": {"base"},
    "math": {"base", "math"},
    "core": {"base", "math", "core"},
    "data": {"base", "data"},
    "formulations": {"base", "math", "core", "data", "formulations"},
    "algorithms": {"base", "math", "core", "algorithms"},
    "verify": {"base", "math", "core", "data", "formulations", "algorithms", "verify"},
    "estimators": {"base", "math", "core", "data", "formulations", "estimators"},
    "specs": {"base", "math", "core", "data", "formulations", "specs"},
    "reproduce": {"base", "math", "core", "data", "formulations", "algorithms", "verify",
                  "estimators", "specs", "reproduce"},
    # beside reproduce: everything but cli (it reuses the harness's dask client)
    "bench": {"base", "math", "core", "data", "formulations", "algorithms", "verify",
              "estimators", "specs", "reproduce", "bench"},
    "cli": {"base", "math", "core", "data", "formulations", "algorithms", "verify",
            "estimators", "specs", "reproduce", "bench", "cli"},
    # the package's front door: the core names and the formulations package
    "root": {"base", "core", "formulations"},
}

#: third-party imports the math layer may use (threadpoolctl: BLAS thread limits only)
MATH_THIRD_PARTY = {"numpy", "scipy", "cvxpy", "threadpoolctl"}

#: the one optional accelerator import of the math layer, in the one module that may make
#: it (imported on demand, never at import time: numpy stays the only array requirement)
MATH_DEVICE = ("convexkern.math.device", {"cupy"})

#: the certificate's phase ones handed to Clarabel (a required dependency) on the conic
#: data directly, in the one module that may: through cvxpy each costs a compilation
MATH_PHASE_ONE = ("convexkern.math.conic.phase_one", {"clarabel"})

#: layers that may import the package root (whose lazy attributes reach every layer)
ROOT_IMPORTERS = {"reproduce", "bench", "cli"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PKG.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PKG.rglob("*.py"))}


MODULES = _modules()


def _layer(mod: str) -> str:
    if mod == "convexkern":
        return "root"
    for prefix, layer in LAYER_OF:
        if mod == prefix or mod.startswith(prefix + "."):
            return layer
    raise AssertionError(f"{mod} belongs to no layer: add it to LAYER_OF and the docs")


def _resolve(importer: str, is_pkg: bool, level: int, module: str | None) -> str:
    """Absolute name of ``from <level dots><module> import ...`` inside ``importer``."""
    if level == 0:
        return module or ""
    base = importer.split(".")
    if not is_pkg:
        base = base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _imports(mod: str, path: Path) -> tuple[set[str], set[str]]:
    """(convexkern modules imported, top-level third-party packages imported)."""
    tree = ast.parse(path.read_text(), str(path))
    is_pkg = path.name == "__init__.py"
    inner: set[str] = set()
    outer: set[str] = set()

    def add(target: str) -> None:
        if target == "convexkern" or target.startswith("convexkern."):
            # the nearest enclosing module that exists (a name imported from a module)
            while target not in MODULES and "." in target:
                target = target.rsplit(".", 1)[0]
            inner.add(target)
        else:
            outer.add(target.split(".")[0])

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(mod, is_pkg, node.level, node.module)
            if node.module == "__future__":
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                add(sub if sub in MODULES else base)
    inner.discard(mod)
    return inner, outer


GRAPH = {mod: _imports(mod, path) for mod, path in MODULES.items()}


def test_every_module_has_a_layer():
    for mod in MODULES:
        assert _layer(mod) in ALLOWED, mod


def test_no_arrow_leaves_its_layer():
    bad = []
    for mod, (inner, _) in GRAPH.items():
        layer = _layer(mod)
        for target in sorted(inner):
            if target == "convexkern":
                # the root's names (ck.solve...) are core, but its lazy attributes reach
                # every layer (ck.estimators, ck.cli): only the top layers use it bare
                if layer not in ROOT_IMPORTERS | {"root"}:
                    bad.append(f"{mod} ({layer}) -> convexkern (the package root)")
                continue
            if _layer(target) not in ALLOWED[layer]:
                bad.append(f"{mod} ({layer}) -> {target} ({_layer(target)})")
    assert not bad, "arrows against docs/architecture.md:\n" + "\n".join(bad)


def test_math_layer_uses_numpy_scipy_cvxpy_only():
    bad = []
    for mod, (_, outer) in GRAPH.items():
        if _layer(mod) in ("math", "base"):
            foreign = outer - MATH_THIRD_PARTY - set(sys.stdlib_module_names)
            for allowed_mod, allowed in (MATH_DEVICE, MATH_PHASE_ONE):
                if mod == allowed_mod:
                    foreign -= allowed
            if foreign:
                bad.append(f"{mod}: {sorted(foreign)}")
    assert not bad, "\n".join(bad)


def _cycles() -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    edges = {m: {t for t in GRAPH[m][0] if t != "convexkern"} for m in GRAPH if m != "convexkern"}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle():
    assert _cycles() == []


def test_the_graph_reader_sees_a_planted_cycle_and_a_bad_arrow(monkeypatch):
    """The checks above can fail: a cycle and an upward arrow planted in a copy of the
    graph are reported."""
    planted = dict(GRAPH)
    planted["convexkern.kernels"] = (GRAPH["convexkern.kernels"][0] | {"convexkern.report"},
                                     GRAPH["convexkern.kernels"][1])
    planted["convexkern.report"] = (GRAPH["convexkern.report"][0] | {"convexkern.kernels"},
                                     GRAPH["convexkern.report"][1])
    monkeypatch.setattr(sys.modules[__name__], "GRAPH", planted)
    assert ["convexkern.kernels", "convexkern.report"] in _cycles()
    with pytest.raises(AssertionError, match=r"convexkern.kernels \(math\) -> convexkern.report"):
        test_no_arrow_leaves_its_layer()


@pytest.mark.parametrize("mod", sorted(MODULES))
def test_module_and_function_sizes(mod):
    """No module over 800 lines, no function over 150 (docs/architecture.md)."""
    path = MODULES[mod]
    text = path.read_text()
    lines = text.count("\n")
    assert lines <= 800, f"{path}: {lines} lines"
    long = [
        f"{node.name} ({node.end_lineno - node.lineno} lines)"
        for node in ast.walk(ast.parse(text))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.end_lineno - node.lineno > 150
    ]
    assert not long, f"{path}: {long}"


def test_bare_import_knows_every_algorithm():
    """A fresh interpreter lists every built-in algorithm after ``import convexkern`` alone
    (the table is data; nothing registers on import), and has not imported any of them."""
    code = (
        "import json, sys, convexkern as ck; "
        "print(json.dumps([[r['name'], r['kind']] for r in ck.solver_info()])); "
        "print(json.dumps(sorted(m for m in sys.modules "
        "if m.startswith('convexkern.algorithms'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    rows = json.loads(out[0])
    built_in = {name for name, kind in rows if kind == "built-in"}
    assert built_in == {"smo", "robust_apg", "robust_pg", "robust_accpm", "linprog",
                        "exchange", "trik", "trik-krein", "sdpm-ipm", "sdpm-dcd"}
    assert json.loads(out[1]) == []


def test_every_adapter_in_the_table_resolves_to_an_algorithm():
    """The table's strings are arrows too: each adapter is a function of
    ``convexkern.algorithms`` and each reproduction a module of ``convexkern.reproduce``."""
    from convexkern.reproduce import table as reproductions
    from convexkern.solvers import ALGORITHMS

    for spec in ALGORITHMS.values():
        for kind, target in spec.adapters.items():
            assert isinstance(target, str), (spec.name, kind)
            assert target.startswith("convexkern.algorithms."), (spec.name, kind, target)
            assert callable(spec.adapter(kind)), (spec.name, kind)
    targets = [entry.target for entry in reproductions.REPRODUCTIONS.values()]
    assert len(targets) >= 4
    for target in targets:
        assert isinstance(target, str), target
        assert target.startswith("convexkern.reproduce."), target


def _calls_and_assignments() -> list[tuple[str, ast.AST]]:
    out = []
    for mod, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            out.append((mod, node))
    return out


NODES = _calls_and_assignments()


def test_every_report_is_made_in_the_outcome_module():
    """A ``SolveReport(...)`` is built only by :mod:`convexkern.solvers.outcome` (and the
    report module's own methods): one place decides a status."""
    makers = {mod for mod, node in NODES if isinstance(node, ast.Call)
              and getattr(node.func, "id", getattr(node.func, "attr", None)) == "SolveReport"}
    assert makers <= {"convexkern.solvers.outcome", "convexkern.report"}, makers


def test_no_method_of_a_cvxpy_object_is_replaced():
    """cvxpy through its documented API only: no assignment to an attribute named like a
    ``cvxpy.Problem`` method (``problem.unpack_results = ...``)."""
    import cvxpy as cp

    names = {n for n in dir(cp.Problem)
             if not n.startswith("__") and callable(getattr(cp.Problem, n, None))}
    bad = []
    for mod, node in NODES:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else []
        bad += [(mod, t.attr) for t in targets
                if isinstance(t, ast.Attribute) and t.attr in names]
    assert not bad, bad


def test_a_conic_solver_is_one_module_and_one_table_line():
    """Every module of ``solvers/backends`` (but the base) is named once in the table and
    defines ``SOLVER`` under its own name; the table has no other conic entry."""
    import importlib

    from convexkern.solvers import table
    from convexkern.solvers.backends.base import ConicSolverSpec

    folder = PKG / "solvers" / "backends"
    modules = {p.stem for p in folder.glob("*.py")} - {"__init__", "base"}
    assert set(table.CONIC_MODULES) == modules
    assert len(table.CONIC_MODULES) == len(set(table.CONIC_MODULES))
    for name in modules:
        solver = importlib.import_module(f"convexkern.solvers.backends.{name}").SOLVER
        assert isinstance(solver, ConicSolverSpec) and solver.name == name
        assert table.CONIC[name] is solver
    assert list(table.CONIC) == list(table.CONIC_MODULES)


def test_pyproject_lists_every_package_and_ships_the_problem_specs():
    """pyproject.toml names the packages one by one (the top-level ``problems/`` is mapped
    to ``convexkern.problems``): the list is the package tree, nothing more or less."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    cfg = tomllib.loads((PKG.parent / "pyproject.toml").read_text())["tool"]["setuptools"]
    tree = {_module_name(p.parent / "__init__.py") for p in PKG.rglob("__init__.py")}
    assert set(cfg["packages"]) == tree | {"convexkern.problems"}
    assert cfg["package-dir"] == {"convexkern.problems": "problems"}
    assert sorted(p.name for p in (PKG.parent / "problems").glob("*.toml"))


def _package_of(mod: str) -> str:
    """The package a module belongs to (a package is its own)."""
    return mod if MODULES[mod].name == "__init__.py" else mod.rsplit(".", 1)[0]


def _private_imports() -> list[tuple[str, str, str]]:
    """``(importer, module, name)`` for every underscore name imported from a module of
    another package (dunder names aside)."""
    out = []
    for mod, path in MODULES.items():
        is_pkg = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.ImportFrom):
                continue
            base = _resolve(mod, is_pkg, node.level, node.module)
            if not base.startswith("convexkern"):
                continue
            home = base
            while home not in MODULES and "." in home:
                home = home.rsplit(".", 1)[0]
            for alias in node.names:
                name = alias.name
                if (name.startswith("_") and not name.startswith("__")
                        and f"{base}.{name}" not in MODULES
                        and _package_of(home) != _package_of(mod)):
                    out.append((mod, home, name))
    return out


def test_no_private_name_crosses_a_package():
    """An underscore name is its package's own: another package imports only public
    names (inside one package, modules share their helpers)."""
    assert _private_imports() == []


def test_the_private_import_check_sees_one(monkeypatch):
    """The check above is not vacuous: a planted module importing another package's
    private name is found."""
    planted = PKG / "formulations" / "_planted_for_test.py"
    monkeypatch.setitem(MODULES, "convexkern.formulations._planted_for_test", planted)
    original = Path.read_text

    def read(self: Path, *a, **k) -> str:
        if self == planted:
            return "from ..math.lp_svm import _hidden\n"
        return original(self, *a, **k)

    monkeypatch.setattr(Path, "read_text", read)
    assert ("convexkern.formulations._planted_for_test", "convexkern.math.lp_svm",
            "_hidden") in _private_imports()
