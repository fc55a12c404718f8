"""The imports of the project's modules, read from their source (nothing is imported): where each import
points, the graph of a package's imports and its cycles.

Shared by tests/test_import_rules.py (banker/, ui/, hardware/) and tests/ui/test_imports.py (ui/).

An import of `banker.mechanics.auction` counts as an edge to that module only, not to its package
`banker.mechanics` (Python runs a package's __init__ first, but a package importing its own modules is
no cycle); `from banker import outside` is an edge to the module `banker.outside`, `from banker import Game`
one to the package's __init__ (`banker`).
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Import:
    """One import of a module: `import M` (names empty) or `from M import a, b` (names ("a", "b")), M made
    absolute (`from .ruleset import x` in banker/editions.py: M is banker.ruleset); `import A, B` is two."""

    line: int
    module: str
    names: tuple[str, ...]
    # The local names it binds, each with the dotted path it stands for: `import banker.ruleset` binds banker
    # (banker), `import banker.ruleset as r` r (banker.ruleset), `from banker import ruleset as r, Game`
    # r (banker.ruleset) and Game (banker.Game).
    bound: tuple[tuple[str, str], ...]
    type_checking: bool  # under `if TYPE_CHECKING:` (typing.TYPE_CHECKING too): never run
    in_function: bool  # inside a function: run when the function is first called, not at import

    def targets(self, known: Collection[str]) -> set[str]:
        """The modules of `known` that this import runs: for `from M import n`, M.n when that is a module, else
        M; for `import M`, M; each cut to its nearest known module (`import banker.x.y` -> banker.x)."""
        wanted = [self.module] if not self.names else [
            f"{self.module}.{n}" if f"{self.module}.{n}" in known else self.module for n in self.names]
        found = set()
        for target in wanted:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target:
                found.add(target)
        return found


def modules(*packages: str) -> dict[str, Path]:
    """Every module of the given top-level packages of the checkout, by dotted name (a package by its own
    name, for its __init__.py)."""
    found = {}
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def is_type_checking(test: ast.expr) -> bool:
    return ((isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
            or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def imports(source: str, name: str, is_package: bool) -> list[Import]:
    """Every import statement of module `name` (whose text is `source`), anywhere in it: at module level,
    inside functions and classes, under TYPE_CHECKING (marked so) or not."""
    package = name if is_package else name.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, type_checking: bool, in_function: bool) -> None:
        if isinstance(node, ast.If) and is_type_checking(node.test):
            for child in node.body:
                visit(child, True, in_function)
            for child in node.orelse:
                visit(child, type_checking, in_function)
            return
        if isinstance(node, ast.Import):
            found.extend(Import(node.lineno, alias.name, (),
                                ((alias.asname, alias.name) if alias.asname else (alias.name.partition(".")[0],) * 2,),
                                type_checking, in_function) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - (node.level - 1)]
                module = ".".join([*anchor, module] if module else anchor)
            found.append(Import(node.lineno, module, tuple(alias.name for alias in node.names),
                                tuple((alias.asname or alias.name, f"{module}.{alias.name}") for alias in node.names),
                                type_checking, in_function))
        inside = in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        for child in ast.iter_child_nodes(node):
            visit(child, type_checking, inside)

    visit(ast.parse(source), False, False)
    return found


def module_imports(found: dict[str, Path]) -> Iterator[tuple[str, Path, Import]]:
    """(module, its file, one of its imports) for every import of every module of `found`."""
    for name, path in found.items():
        for imp in imports(path.read_text("utf-8"), name, path.name == "__init__.py"):
            yield name, path, imp


def import_graph(found: dict[str, Path], *, type_checking: bool) -> dict[str, set[str]]:
    """Each module of `found` -> the modules of `found` it imports (those under TYPE_CHECKING only if
    `type_checking`)."""
    graph: dict[str, set[str]] = {name: set() for name in found}
    for name, _, imp in module_imports(found):
        if type_checking or not imp.type_checking:
            graph[name] |= imp.targets(found) - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The modules of each strongly connected group of the graph that holds a cycle, sorted (Tarjan)."""
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
