"""The platform's shape, read from its source: no import cycle anywhere in ``antipolix/`` or
``viz/`` (lazy, function-level and type-checking-only imports included), ``viz`` imports
``antipolix`` and never the reverse, and one version."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("antipolix", "viz")


def _modules() -> dict[str, Path]:
    """Every module of the packages: dotted name → file (a package's name → its __init__)."""
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def _imported(node: ast.AST, module: str, is_package: bool, known: set[str]) -> list[str]:
    """The modules of the packages one import statement loads (``from a.b import c`` loads
    ``a.b.c`` when that is a module, else ``a.b``)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name in known]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if node.level:  # relative: from the module's package
        parts = module.split(".") if is_package else module.split(".")[:-1]
        parts = parts[: len(parts) - (node.level - 1)]
        base = ".".join([*parts, *([base] if base else [])])
    out = []
    for alias in node.names:
        full = f"{base}.{alias.name}"
        if full in known:
            out.append(full)
        elif base in known:
            out.append(base)
    return out


def import_graph() -> dict[str, set[str]]:
    """Module → the modules of the packages it imports, wherever the import stands."""
    modules = _modules()
    known = set(modules)
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        is_package = path.name == "__init__.py"
        for node in ast.walk(tree):
            for target in _imported(node, module, is_package, known):
                if target != module:
                    graph[module].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_import_graph_is_read_whole() -> None:
    graph = import_graph()
    assert "antipolix.game" in graph["antipolix.replay"]
    assert "antipolix.runner.store" in graph["antipolix.runner.run"]
    assert any(m.startswith("antipolix") for m in graph["viz.scene"])
    # a cycle made of lazy imports is found (the reader sees imports inside functions)
    assert cycles({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b"]]


def test_no_import_cycle_anywhere() -> None:
    assert cycles(import_graph()) == []


def test_antipolix_never_imports_viz() -> None:
    graph = import_graph()
    leaks = {m: sorted(t for t in ts if t.startswith("viz")) for m, ts in graph.items()}
    assert {m: ts for m, ts in leaks.items() if ts and m.startswith("antipolix")} == {}


def test_one_version() -> None:
    from antipolix import __version__

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["version"] == __version__


PLANNER = ROOT / "antipolix" / "agents" / "planner"
LONGEST_KERNEL = 80  # lines, docstring included: the planner package's kernels stay readable


def _functions(path: Path) -> list[ast.FunctionDef]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]


def long_functions(paths: list[Path], limit: int) -> dict[str, int]:
    """``module:function`` → its length in lines, for every function longer than ``limit``."""
    out = {}
    for path in paths:
        for f in _functions(path):
            lines = (f.end_lineno or f.lineno) - f.lineno + 1
            if lines > limit:
                out[f"{path.relative_to(ROOT)}:{f.name}"] = lines
    return out


def test_no_planner_kernel_is_longer_than_about_80_lines() -> None:
    """The planner is a package whose modules follow the decision, no kernel over about 80
    lines (the search agent's included: it builds on the planner's kernels)."""
    paths = [*sorted(PLANNER.glob("*.py")), ROOT / "antipolix" / "agents" / "search.py"]
    assert len(paths) > 10
    assert long_functions(paths, LONGEST_KERNEL) == {}
    # (the check sees a long function: every module's longest is over a few lines)
    assert long_functions([PLANNER / "reading.py"], 10)


def test_only_the_planner_package_reads_its_private_names() -> None:
    """The kernels other modules build on (the search agent's) are public: nothing outside
    ``antipolix/agents/planner/`` imports a name starting with ``_`` from it."""
    private = {}
    for module, path in _modules().items():
        if module.startswith("antipolix.agents.planner"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "antipolix.agents.planner"
            ):
                names = [a.name for a in node.names if a.name.startswith("_")]
                if names:
                    private[module] = names
    assert private == {}
