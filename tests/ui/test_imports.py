"""No import cycles in ui/: every import between ui modules (at module level, inside functions, and under
TYPE_CHECKING alike) is an edge of one graph, and the graph has no cycle; as tests/test_purity.py keeps
the engine pure.

An import of `ui.screens.base` counts as an edge to that module only, not to its package `ui.screens`
(Python runs a package's __init__ first, but a package importing its own modules is no cycle)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def ui_modules() -> dict[str, Path]:
    modules = {}
    for path in sorted((ROOT / "ui").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def imports_of(name: str, source: str, is_package: bool, known: set[str]) -> set[str]:
    """The ui modules that module `name` imports anywhere in `source`."""
    found: set[str] = set()
    package = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            # `from ui import view` imports the module ui.view; `from ui.view import x` imports ui.view
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]  # `import ui.screens.base.x` -> the nearest module
            if target and target != name and target != "ui":
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = ui_modules()
    known = set(modules)
    return {name: imports_of(name, path.read_text("utf-8"), path.name == "__init__.py", known)
            for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected group of modules that has one (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1 or v in graph.get(v, ()):
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return groups


def test_no_import_cycle_in_ui() -> None:
    assert cycles(import_graph()) == []


def test_the_graph_sees_the_imports_that_matter() -> None:
    graph = import_graph()
    assert {"ui.session", "ui.flows", "ui.screens", "ui.theme"} <= graph["ui.app"]
    assert "ui.phone" in graph["ui.app"] and "ui.web" in graph["ui.app"]  # imported inside functions
    assert {"ui.flows.setup", "ui.navigator", "ui.taps", "ui.session"} <= graph["ui.flows"]
    assert {"ui.flows.base", "ui.view"} <= graph["ui.flows.turn"] and "ui.session" in graph["ui.flows.base"]
    assert "ui.pages" in graph["ui.navigator"] and "ui.pages" in graph["ui.screens"]
    assert "ui.screens.base" in graph["ui.screens.table"]  # (ui.screens imports each screen by its page's name)
    assert "ui.app" not in graph["ui.screens.base"]


def test_function_level_and_type_checking_imports_are_edges_and_cycles_are_found() -> None:
    known = {"ui.a", "ui.b", "ui.c", "ui.pkg", "ui.pkg.d"}
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ui.b import B\n"
              "def f():\n    import ui.c\n    from ui import pkg\n    from .pkg import d\n")
    assert imports_of("ui.a", source, False, known) == {"ui.b", "ui.c", "ui.pkg", "ui.pkg.d"}
    ring = {"ui.a": {"ui.b"}, "ui.b": {"ui.c"}, "ui.c": {"ui.a"}, "ui.d": {"ui.a"}}
    assert cycles(ring) == [["ui.a", "ui.b", "ui.c"]]
    assert cycles({"ui.a": {"ui.b"}, "ui.b": set()}) == []
