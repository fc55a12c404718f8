"""Page names are constants, declared with their page in ui/pages.py (issue 56): `TRADE_PAGE` for "trade". Every
other module of ui/ (the flows, the screens, the tour...) names a page by its constant only, so that a misspelt
page is a NameError where it is written rather than a page that never shows, and a renamed one is renamed
everywhere. Checked in the source, with `ast`, wherever a page goes:

- an argument of the navigator's methods that take a page (`go`, found from their signatures), however the
  navigator is reached (`self.f.nav.go`, `f.nav.go`, `nav.go`, the navigator's own `self.go`);
- a value given to, or compared with, what holds a page: the navigator's attributes that hold one (`page`,
  `settings_return`, `check_return`, found on a new navigator), a name or attribute `page` or `*_page`, an
  entry's `back` (the page the digit pad returns to), `screen` (the shown screen's name, which is its page's);
- a page argument of any ui/ function that takes one (a parameter named as above: a flow's `_close(page)`,
  the banker's `going_to(page)`, the tour's `check(page)`), and a button's action's "page";
- what returns a page: a flow's `leave` (the page the family is sent to instead), the navigator's
  `_screen_name`, a function named for a page;
- the pages a `*_PAGES` constant lists, or the pages it is keyed by (the turn's `CHOICE_PAGES`).

A string there is a finding, whatever it says (a real page's name, a misspelt one, an f-string). The checker is
tried on planted sources too, so that it is known to find what it is for.
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from ui import pages
from ui.navigator import Navigator

ROOT = Path(__file__).resolve().parents[2]
# Every module of ui/ but the page list itself, subpackages included.
MODULES = sorted(p for p in (ROOT / "ui").rglob("*.py") if p != ROOT / "ui" / "pages.py")
# The navigator's methods that take a page: every one with a parameter `page`, so that a new one is checked too.
GOING = {name for name, fn in inspect.getmembers(Navigator, inspect.isfunction)
         if "page" in inspect.signature(fn).parameters}
# The navigator's attributes that hold a page: those a new navigator starts with a page's name in.
HOLDING = {name for name, value in vars(Navigator(SimpleNamespace())).items()
           if isinstance(value, str) and value in pages.PAGES}
# Entry.back (ui/entry.py): the page the digit pad's OK and Cancel return to; `screen`: the shown screen's name.
ALSO_PAGES = {"back", "screen"}


def _is_page(name: str) -> bool:
    """A name that holds a page: `page`, `*_page`, a navigator's attribute that holds one, an entry's `back`, the
    shown `screen`."""
    return name == "page" or name.endswith("_page") or name in HOLDING or name in ALSO_PAGES


def _named(node: ast.expr) -> str | None:
    """The name of `x` or of `a.b.x`; None for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _gives_page(function: str) -> bool:
    """A function that returns a page: a flow's `leave` (the page the family is sent to instead), the navigator's
    `screen_name` and `_screen_name`, one named for a page (`home_page`)."""
    name = function.lstrip("_")
    return name in ("leave", "screen_name") or _is_page(name)


def _holds_page(node: ast.expr) -> bool:
    """An expression that is a page, or a tuple with one among its items: a name that holds one (`nav.page`,
    `(page, mode)`), or the navigator's `screen_name()`."""
    if isinstance(node, ast.Tuple | ast.List):
        return any(_holds_page(item) for item in node.elts)
    if isinstance(node, ast.Call):
        return _named(node.func) == "screen_name"
    return _is_page(_named(node) or "")


def _strings(node: ast.expr | None) -> list[ast.expr]:
    """The string literals `node` may be: itself, either side of a conditional or an `or`, the items of a tuple,
    list or set (what a page is compared `in`). Not what a call or a subscript makes of a string."""
    if (isinstance(node, ast.Constant) and isinstance(node.value, str)) or isinstance(node, ast.JoinedStr):
        return [node]
    if isinstance(node, ast.IfExp):
        return _strings(node.body) + _strings(node.orelse)
    if isinstance(node, ast.BoolOp):
        return [s for value in node.values for s in _strings(value)]
    if isinstance(node, ast.NamedExpr):
        return _strings(node.value)
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [s for item in node.elts for s in _strings(item)]
    return []


def _page_parameters(trees: list[ast.Module]) -> dict[str, set[int | str]]:
    """Each function or method of ui/ that takes a page: name -> the positions (as called: a method's `self`
    left out) and keywords of its page parameters."""
    found: dict[str, set[int | str]] = {}
    for tree in trees:
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            params = node.args.posonlyargs + node.args.args
            skip = 1 if params and params[0].arg in ("self", "cls") else 0
            for i, arg in enumerate(params[skip:]):
                if _is_page(arg.arg):
                    found.setdefault(node.name, set()).update({i, arg.arg})
            for arg in node.args.kwonlyargs:
                if _is_page(arg.arg):
                    found.setdefault(node.name, set()).add(arg.arg)
    return found


def bare_pages(source: str, takes_page: dict[str, set[int | str]] | None = None) -> list[str]:
    """Where `source` writes a page as a string: "line N: what", one per string. `takes_page`: the functions that
    take a page (`_page_parameters`), the source's own by default."""
    tree = ast.parse(source)
    takes_page = _page_parameters([tree]) if takes_page is None else takes_page
    found: list[tuple[int, str]] = []

    def flag(nodes: list[ast.expr], what: str) -> None:
        found.extend((n.lineno, f"{what}: {ast.unparse(n)}") for n in nodes)

    def returns(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for sub in ast.walk(fn):
            if isinstance(sub, ast.Return):
                flag(_strings(sub.value), f"{fn.name}() returns")

    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _named(node.func) or ""
            if name in GOING:  # every argument is a page
                flag([s for arg in [*node.args, *(kw.value for kw in node.keywords)] for s in _strings(arg)],
                     f"the navigator's {name}()")
            else:
                params = takes_page.get(name, set())
                flag([s for i, arg in enumerate(node.args) if i in params for s in _strings(arg)], f"{name}()'s page")
                flag([s for kw in node.keywords if kw.arg is not None and (kw.arg in params or _is_page(kw.arg))
                      for s in _strings(kw.value)], f"{name}()'s page")
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(target, ast.Subscript):
                    key = target.slice
                    if isinstance(key, ast.Constant) and isinstance(key.value, str) and _is_page(key.value):
                        flag(_strings(node.value), f"[{key.value!r}] =")
                elif isinstance(target, ast.Name | ast.Attribute) and _is_page(_named(target) or ""):
                    flag(_strings(node.value), f"{_named(target)} =")
                elif isinstance(target, ast.Name) and target.id.lower().endswith("pages"):  # pages, or keyed by page
                    value = node.value
                    flag([s for key in value.keys for s in _strings(key)] if isinstance(value, ast.Dict)
                         else _strings(value), f"{target.id} =")
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_holds_page(side) for side in sides):
                flag([s for side in sides for s in _strings(side)], "compared with a page")
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and isinstance(key.value, str) and _is_page(key.value):
                    flag(_strings(value), f"{{{key.value!r}: ...}}")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _gives_page(node.name):
            returns(node)
    return [f"line {line}: {what}" for line, what in sorted(set(found))]


def _ui_trees() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text("utf-8")) for path in MODULES}


def test_the_checker_knows_the_navigator() -> None:
    """What the checker reads off the navigator: `go` takes a page; the page shown and both Backs hold one."""
    assert "go" in GOING
    assert HOLDING == {"page", "settings_return", "check_return"}
    assert len(MODULES) > 60 and ROOT / "ui" / "tour.py" in MODULES and ROOT / "ui" / "flows" / "turn.py" in MODULES


def test_no_page_is_named_by_a_string_outside_the_page_list() -> None:
    trees = _ui_trees()
    takes_page = _page_parameters(list(trees.values()))
    found = [f"{path.relative_to(ROOT)} {finding}" for path in MODULES
             for finding in bare_pages(path.read_text("utf-8"), takes_page)]
    assert found == []


def test_the_page_parameters_of_ui() -> None:
    """The functions of ui/ that take a page, as the checker finds them: the navigator's `go`, a flow's `leave`
    and `_close`, the banker's `going_to`, the tour's `check`."""
    takes_page = _page_parameters(list(_ui_trees().values()))
    assert {"go", "leave", "_close", "going_to", "check"} <= set(takes_page)
    assert 0 in takes_page["go"] and "page" in takes_page["go"]


def test_every_page_has_its_constant() -> None:
    """Each page of the list is `NAME_PAGE` in ui/pages.py, declared with its entry; no constant names a page
    that is not in the list."""
    constants = {name: value for name, value in vars(pages).items() if re.fullmatch(r"[A-Z_]+_PAGE", name)}
    assert constants == {f"{name.upper()}_PAGE": name for name in pages.PAGES}
    assert set(constants) <= set(pages.__all__)
    source = (ROOT / "ui" / "pages.py").read_text("utf-8")
    for name in pages.PAGES:  # declared where the page is registered, not somewhere else in the module
        assert re.search(rf'^{name.upper()}_PAGE = register\(Page\("{name}",', source, re.M), name


# Planted sources: each writes one page as a string, in one of the places the checker looks.
PLANTED = {
    "the flows' navigator": 'self.f.nav.go("trade")',
    "a navigator of its own": 'nav.go("log")',
    "the tour's navigator": 'lambda: f.nav.go("banker")',
    "the navigator itself": 'self.go("table")',
    "a misspelt page": 'self.f.nav.go("tabel")',
    "an f-string": 'self.f.nav.go(f"check_{kind}")',
    "either side of a conditional": 'self.f.nav.go(FAME_PAGE if home else "over")',
    "a page by keyword": 'self.f.nav.go(page="deeds")',
    "the page set": 'self.f.nav.page = "table"',
    "the settings' Back": 'nav.settings_return = "home"',
    "a check's Back": 'self.check_return = "settings"',
    "a page compared": 'if self.f.nav.page == "digits":\n    pass',
    "a page compared the other way round": 'if "fame" != page:\n    pass',
    "a page among others": 'if page in (SETTINGS_PAGE, "replace"):\n    pass',
    "a page and a mode": 'if (page, mode) in ((FAME_PAGE, HOME), ("report", OVER)):\n    pass',
    "the screen shown": 'if self.f.nav.screen_name() == "auction":\n    pass',
    "the screen's name": 'debt = screen == "table"',
    "a page kept in a variable": 'back_page = "banker"',
    "an entry's way back": 'Entry("reserve", back="ownauction", mode=TABLE)',
    "a button's page": 'add("casino", {"page": "casino"}, text)',
    "a button's page set": 'action["page"] = "jump"',
    "leave() sends elsewhere": 'class F:\n    def leave(self, page):\n        return "table"',
    "leave() one way or another": 'class F:\n    def leave(self, page):\n        return None if ok else "setup"',
    "the screen to show": 'class N:\n    def _screen_name(self):\n        return "auction"',
    "a mode's own page": 'def home_page(mode):\n    return "table"',
    "pages listed": 'CHOICE_PAGES = ("cards", CASINO_PAGE)',
    "a table keyed by page": 'CHOICE_PAGES = {"cards": "draw", CASINO_PAGE: "casino"}',
    "a function that navigates": 'def check(page):\n    nav.go(page)\ncheck("check_dice")',
    "a method that navigates": ('class P:\n    def _close(self, page):\n        self.f.nav.go(page)\n'
                                '    def cancel(self):\n        self._close("table")'),
    "a method that navigates, by keyword": ('class B:\n    def going_to(self, page):\n        pass\n'
                                            'b.going_to(page="replace")'),
}


@pytest.mark.parametrize("source", PLANTED.values(), ids=PLANTED.keys())
def test_a_planted_page_name_is_found(source: str) -> None:
    assert len(bare_pages(source)) == 1, bare_pages(source)


def test_a_planted_page_name_fails_the_check_of_a_module() -> None:
    """The same page, by its constant and then by its name: the first passes, the second is found at its line."""
    good = "from ui.pages import TRADE_PAGE\n\n\ndef open_trade(self):\n    self.f.nav.go(TRADE_PAGE)\n"
    assert bare_pages(good) == []
    bad = good.replace("go(TRADE_PAGE)", 'go("trade")')
    assert bare_pages(bad) == ["line 5: the navigator's go(): 'trade'"]


# What is not a page, though it may read like one: left alone.
NOT_PAGES = {
    "a page by its constant": "self.f.nav.go(TABLE_PAGE)",
    "a page from a button": 'self.f.nav.go(button["action"]["page"])',
    "a mode": 'if self.f.mode == "table":\n    pass',
    "an entry's mode": 'Entry("reserve", back=OWNAUCTION_PAGE, mode="table")',
    "an action's verb": 'self.f.paying.request({"do": "casino"})',
    "a button's id": 'add("casino", {"page": CASINO_PAGE}, text)',
    "a key of the view data": 'v["deeds"]',
    "a widget's role": 'button.role = "check_reader"',
    "a shot's name": '("trade", lambda: f.nav.go(TRADE_PAGE))',
    "leave() stays": 'class F:\n    def leave(self, page):\n        return None',
    "what a table keyed by page gives": 'CHOICE_PAGES = {CARDS_PAGE: "draw", CASINO_PAGE: "casino"}',
    "whether on a page": 'def _on_page(self):\n    return self.f.nav.page == EDITION_PHONE_PAGE',
    "a word on the Back button": 'self.header(root, self.tr("ui.back"), back=self.f.nav.back_from_settings)',
}


@pytest.mark.parametrize("source", NOT_PAGES.values(), ids=NOT_PAGES.keys())
def test_what_is_not_a_page_is_not_found(source: str) -> None:
    assert bare_pages(source) == []
