"""Who may import what (docs/engine.md, "Imports"), read from the source by tests/importkit.py:

- no module uses another module's private name (one that starts with an underscore): no `from M import _x`
  nor `import M._x` outside M, and no `m._x` (or `getattr(m, "_x")`) where `m` is a module of banker/, ui/
  or hardware/ imported by another, in banker/, ui/, hardware/, benchmarks/ and scripts/;
- hardware/ uses of banker/ only banker/outside.py (the helpers for what comes from outside: files, text,
  the command line's numbers), nothing of ui/, and banker/outside.py imports only the standard library;
- banker/ has no runtime import cycle: every import not under TYPE_CHECKING, at module level or inside a
  function, is an edge.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from importkit import ROOT, Import, cycles, import_graph, imports, module_imports, modules

PACKAGES = ("banker", "ui", "hardware")  # the installed packages: the modules whose private names are guarded
WALKED = (*PACKAGES, "benchmarks", "scripts")
SHARED = "banker.outside"  # the one module of banker/ that hardware/ imports
ATTRIBUTE_CALLS = {"getattr", "setattr", "hasattr", "delattr"}


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def within(importer: str, owner: str) -> bool:
    """Whether module `importer` is `owner` or inside the package `owner`, where owner's private names are its own."""
    return importer == owner or importer.startswith(owner + ".")


def ours(path: str, known: set[str]) -> bool:
    """Whether the dotted `path` is a module of `known` or a package of some."""
    return any(within(module, path) for module in known)


def private_imports(name: str, found: list[Import]) -> list[tuple[int, str]]:
    """(line, what) for every import in module `name` of a private name or module of another module."""
    bad = []
    for imp in found:
        parts = imp.module.split(".")
        for k, part in enumerate(parts):
            if is_private(part) and not within(name, ".".join(parts[:k])):
                bad.append((imp.line, f"imports {imp.module}"))
                break
        for alias in imp.names:
            if is_private(alias) and not within(name, imp.module):
                bad.append((imp.line, f"imports {alias} from {imp.module}"))
    return bad


def private_attributes(name: str, source: str, is_package: bool, known: set[str]) -> list[tuple[int, str]]:
    """(line, what) for every use in module `name` of a private name of another module of `known` as an
    attribute of that module: `ruleset._cache`, `banker.ruleset._cache`, `getattr(ruleset, "_cache")`."""
    tree = ast.parse(source)
    bound = {local: path for imp in imports(source, name, is_package) for local, path in imp.bound
             if ours(path, known)}

    def module_of(node: ast.expr) -> str | None:
        if isinstance(node, ast.Name):
            return bound.get(node.id)
        if isinstance(node, ast.Attribute):
            base = module_of(node.value)
            path = f"{base}.{node.attr}" if base else None
            return path if path and ours(path, known) else None
        return None

    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and is_private(node.attr):
            owner, attr = module_of(node.value), node.attr
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ATTRIBUTE_CALLS
              and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
              and isinstance(node.args[1].value, str) and is_private(node.args[1].value)):
            owner, attr = module_of(node.args[0]), node.args[1].value
        else:
            continue
        if owner is not None and not within(name, owner):
            bad.append((node.lineno, f"uses {owner}.{attr}"))
    return bad


def private_uses(name: str, source: str, is_package: bool, known: set[str]) -> list[tuple[int, str]]:
    return sorted(private_imports(name, imports(source, name, is_package))
                  + private_attributes(name, source, is_package, known))


def where(path: Path, line: int) -> str:
    return f"{path.relative_to(ROOT)}:{line}"


def test_no_module_uses_a_private_name_of_another() -> None:
    known = set(modules(*PACKAGES))
    found = [f"{where(path, line)}: {what}"
             for name, path in modules(*WALKED).items()
             for line, what in private_uses(name, path.read_text("utf-8"), path.name == "__init__.py", known)]
    assert not found, "private names used across modules:\n" + "\n".join(found)


def test_the_private_walk_finds_what_it_looks_for() -> None:
    known = {"banker", "banker.ruleset", "banker.outside", "banker.editions", "banker.version", "ui", "ui.editor"}

    def lines(name: str, source: str) -> list[int]:
        return [line for line, _ in private_uses(name, source, False, known)]

    assert lines("ui.editor", "from banker.ruleset import MAX_DIGITS, _parse_text\n") == [1]
    assert lines("banker.editions", "from .ruleset import _read_file\n") == [1]
    assert lines("ui.editor", "def f():\n    from banker import _build_info\n") == [2]
    assert lines("ui.editor", "import banker._build_info\n") == [1]
    assert lines("banker.version", "from banker import _build_info\nimport banker._build_info\n") == []
    assert lines("ui.editor", "import banker.ruleset\nbanker.ruleset._cache.clear()\n") == [2]
    assert lines("ui.editor", "import banker.ruleset as r\nr._cache\n") == [2]
    assert lines("ui.editor", "from banker import ruleset\nruleset._cache\n") == [2]
    assert lines("ui.editor", "from banker import ruleset as r\nr._cache\n") == [2]
    assert lines("ui.editor", "from banker import ruleset\ngetattr(ruleset, '_cache')\n") == [2]
    assert lines("ui.editor", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                              "    from banker.ruleset import _Validator\n") == [3]
    # Not private, or not another module's: dunders, objects' own attributes, a module's own names.
    assert lines("ui.editor", "from banker import __version__\nimport banker\nbanker.__file__\n") == []
    assert lines("ui.editor", "from banker.ruleset import load_ruleset\nr = load_ruleset('x')\nr._data\n"
                              "self._x\nimport argparse\nargparse._SubParsersAction\n") == []
    assert lines("banker.ruleset", "import banker.ruleset\nbanker.ruleset._cache\n") == []


def test_hardware_uses_of_the_engine_only_its_shared_module() -> None:
    """hardware/ imports (anywhere: at module level, in functions, under TYPE_CHECKING) nothing of banker/ but
    banker/outside.py and nothing of ui/; banker/outside.py imports only the standard library, so that what
    hardware/ uses of the engine is that one module."""
    engine_and_app = modules("banker", "ui")
    found = [f"{where(path, imp.line)}: imports {target}"
             for _, path, imp in module_imports(modules("hardware"))
             for target in sorted(imp.targets(engine_and_app)) if target != SHARED]
    shared = modules("banker")[SHARED]
    found += [f"{where(shared, imp.line)}: imports {imp.module}"
              for imp in imports(shared.read_text("utf-8"), SHARED, False)
              if imp.module.partition(".")[0] not in sys.stdlib_module_names | {"__future__"}]
    assert not found, "hardware/ must use of the engine only banker/outside.py:\n" + "\n".join(found)
    uses = {target for _, _, imp in module_imports(modules("hardware")) for target in imp.targets(engine_and_app)}
    assert uses == {SHARED}  # the walk sees hardware/config.py's and hardware/cli.py's imports


def test_the_engine_has_no_runtime_import_cycle() -> None:
    """An import under TYPE_CHECKING is never run; every other one is, at import or when its function first
    runs, so a cycle through a function-level import is still a cycle (it only moves the failure to the call)."""
    engine = modules("banker")
    found = cycles(import_graph(engine, type_checking=False))
    edges = [f"{where(path, imp.line)}: {name} imports {target}"
             for group in found for name, path, imp in module_imports({m: engine[m] for m in group})
             if not imp.type_checking for target in sorted(imp.targets(group)) if target != name]
    assert not found, f"import cycles in banker/ ({'; '.join(' <-> '.join(g) for g in found)}):\n" + "\n".join(edges)


def test_the_cycle_walk_counts_function_imports_and_leaves_type_checking_out() -> None:
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from banker.game import Game\n"
              "else:\n    from banker import model\nfrom banker.model import BANK\n"
              "def f():\n    from banker import editions\n    import banker.mechanics.auction\n")
    found = imports(source, "banker.ruleset", False)
    known = {"banker", "banker.game", "banker.model", "banker.editions", "banker.mechanics",
             "banker.mechanics.auction"}
    assert [(imp.line, imp.type_checking, imp.in_function, sorted(imp.targets(known))) for imp in found] == [
        (1, False, False, []), (3, True, False, ["banker.game"]), (5, False, False, ["banker.model"]),
        (6, False, False, ["banker.model"]), (8, False, True, ["banker.editions"]),
        (9, False, True, ["banker.mechanics.auction"])]
    graph = import_graph(modules("banker"), type_checking=False)
    assert "banker.kernel" in graph["banker.game"] and "banker.game" not in graph["banker.kernel"]  # TYPE_CHECKING
    assert "banker.editions" in graph["banker.cli"]  # `banker rules` imports it inside a function
    assert cycles({"banker.ruleset": {"banker.editions"}, "banker.editions": {"banker.ruleset"},
                   "banker.game": {"banker.ruleset"}}) == [["banker.editions", "banker.ruleset"]]
