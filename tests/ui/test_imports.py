"""No import cycles in ui/: every import between ui modules (at module level, inside functions, and under
TYPE_CHECKING alike) is an edge of one graph, and the graph has no cycle; as tests/test_purity.py keeps
the engine pure. One kind of import is left out: `Flows` imported from `ui.flows` under TYPE_CHECKING, the one
type every flow, the navigator and the tap router are checked against (`self.f`), whose module makes them all;
never run, it cannot close a cycle at import time, and it is the only such import allowed.

An import of `ui.screens.base` counts as an edge to that module only, not to its package `ui.screens`
(Python runs a package's __init__ first, but a package importing its own modules is no cycle). The graph is
tests/importkit.py's, as for banker/ (tests/test_import_rules.py), where TYPE_CHECKING imports are left out."""

from __future__ import annotations

from importkit import Import, cycles, imports, modules


def typing_flows(imp: Import) -> bool:
    """`from ui.flows import Flows` under TYPE_CHECKING (nothing else): the flows' type, left out of the graph."""
    return imp.type_checking and imp.module == "ui.flows" and imp.names == ("Flows",)


def imports_of(name: str, source: str, is_package: bool, known: set[str]) -> set[str]:
    """The ui modules that module `name` imports anywhere in `source` (but the flows' type, `typing_flows`)."""
    return {target for imp in imports(source, name, is_package) if not typing_flows(imp)
            for target in imp.targets(known)} - {name, "ui"}


def import_graph() -> dict[str, set[str]]:
    found = modules("ui")
    known = set(found)
    return {name: imports_of(name, path.read_text("utf-8"), path.name == "__init__.py", known)
            for name, path in found.items()}


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


def test_only_the_flows_type_under_type_checking_is_left_out() -> None:
    known = {"ui.flows", "ui.flows.base", "ui.session"}
    typed = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ui.flows import Flows\n"
    assert imports_of("ui.flows.base", typed, False, known) == set()
    for source in ("from ui.flows import Flows\n",  # run at import: an edge
                   "def f():\n    from ui.flows import Flows\n",  # run at the first call: an edge
                   "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ui.flows import Flows, mode\n",
                   "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import ui.flows\n"):
        assert imports_of("ui.flows.base", source, False, known) == {"ui.flows"}, source
    graph = import_graph()
    assert "ui.flows" not in graph["ui.flows.base"] and "ui.flows" not in graph["ui.taps"]
    assert "ui.flows.base" in graph["ui.flows"]  # the real imports stay edges: a real import back is a cycle
