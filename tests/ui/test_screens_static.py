"""What the screens may not do, checked in their source (ui/screens/*.py):

- read the engine: no `game.` anything, no ruleset mechanics, no `load_ruleset`, no `banker` import, and
  none of the session's raw state (its live game, journal, meta, notices...) nor a flow's (the setup's
  draft, a pending payment, the trade's offer...): the flows' view data (ui/flows/, ui/view.py) say what a
  screen needs;
- write a pixel number: a size, height, width, font size, padding, spacing or bar width (in the screens
  and in ui/widgets.py) comes from ui/theme.py, in dp/sp, so the panel's density scales it.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCREENS = sorted((ROOT / "ui" / "screens").glob("*.py"))
# Never read in a screen, on anything; the session's state a screen must not read itself, and a flow's (the
# flows turn it into view data).
ENGINE = {"game", "mechanics", "ruleset", "load_ruleset", "live"}
RAW_STATE = {"journal", "meta", "draft", "notices", "pending", "settings", "replacing", "player_qr", "last_dice"}
FLOW_STATE = {"draft", "pending", "replacing", "player_qr", "offer", "own", "check", "hardware", "casino_pick"}
LENGTHS = {"size", "height", "width", "font_size", "padding", "spacing", "bar_width", "radius"}


def _is_session(node: ast.expr) -> bool:
    """`self.s` or `s`: the session, as the screens name it."""
    return (isinstance(node, ast.Attribute) and node.attr == "s") or (isinstance(node, ast.Name) and node.id == "s")


def _is_flow(node: ast.expr) -> bool:
    """`self.f.<flow>` or `f.<flow>`: one of the flows, as the screens name them."""
    return isinstance(node, ast.Attribute) and (
        (isinstance(node.value, ast.Attribute) and node.value.attr == "f")
        or (isinstance(node.value, ast.Name) and node.value.id == "f"))


def engine_reads(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [f"import {a.name}" for a in node.names if a.name.split(".")[0] == "banker"]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "banker":
            found.append(f"from {node.module} import ...")
        elif isinstance(node, ast.Attribute) and node.attr in ENGINE:
            found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Attribute) and node.attr in RAW_STATE and _is_session(node.value):
            found.append(f"line {node.lineno}: s.{node.attr}")
        elif isinstance(node, ast.Attribute) and node.attr in FLOW_STATE and _is_flow(node.value):
            found.append(f"line {node.lineno}: f.<flow>.{node.attr}")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "game":
            found.append(f"line {node.lineno}: game.{node.attr}")
        elif isinstance(node, ast.Name) and node.id == "load_ruleset":
            found.append(f"line {node.lineno}: load_ruleset")
    return found


def _raw(value: ast.expr) -> bool:
    """A pixel number written out: a literal (0 aside), one in a tuple or list, or one added or subtracted."""
    if isinstance(value, ast.Constant):
        return isinstance(value.value, (int, float)) and not isinstance(value.value, bool) and value.value != 0
    if isinstance(value, (ast.Tuple, ast.List)):
        return any(_raw(v) for v in value.elts)
    if isinstance(value, ast.UnaryOp):
        return _raw(value.operand)
    if isinstance(value, ast.BinOp):
        if isinstance(value.op, (ast.Add, ast.Sub)):
            return _raw(value.left) or _raw(value.right)
        return _raw(value.left) and _raw(value.right)  # 2 * theme.GAP is a count of lengths
    if isinstance(value, ast.IfExp):
        return _raw(value.body) or _raw(value.orelse)
    return False


def pixel_numbers(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        for kw in node.keywords:
            if kw.arg in LENGTHS and _raw(kw.value):
                found.append(f"line {node.lineno}: {kw.arg}={ast.unparse(kw.value)}")
        func = node.func
        if isinstance(func, ast.Name) and func.id == "Text" and len(node.args) > 1 and _raw(node.args[1]):
            found.append(f"line {node.lineno}: Text(..., {ast.unparse(node.args[1])})")  # its font size
        if isinstance(func, ast.Attribute) and func.attr == "setdefault" and len(node.args) == 2:
            key = node.args[0]
            if isinstance(key, ast.Constant) and key.value in LENGTHS and _raw(node.args[1]):
                found.append(f"line {node.lineno}: setdefault({key.value!r}, {ast.unparse(node.args[1])})")
    return found


def test_there_is_a_module_per_screen() -> None:
    names = {p.stem for p in SCREENS}
    assert {"__init__", "base", "table", "setup", "trade", "auction", "deeds"} <= names and len(names) >= 20


def test_no_screen_reads_the_engine() -> None:
    offenders = {p.name: engine_reads(p.read_text("utf-8")) for p in SCREENS}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_no_pixel_numbers_in_the_screens_or_widgets() -> None:
    offenders = {p.name: pixel_numbers(p.read_text("utf-8")) for p in [*SCREENS, ROOT / "ui" / "widgets.py"]}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_the_checks_catch_what_they_are_for() -> None:
    bad = ("from banker.ruleset import load_ruleset\n"
           "def build(self):\n"
           "    game = self.s.game\n"
           "    n = game.dice_count()\n"
           "    r = load_ruleset('classic').mechanics\n"
           "    self.s.meta['pin'], s.notices, self.f.setup.draft.pin, f.trade.offer\n"
           "    self.notices(root), self.f.paying.view(), self.f.setup.view()\n")
    assert len(engine_reads(bad)) == 9
    sizes = ("BigButton('x', height=64)\nrow(height=theme.TARGET + 8)\nChip(size=(40, 40))\n"
             "Text('x', 20)\nkw.setdefault('height', 14)\nBox(spacing=-6)\nBox(height=cond and 0 or 56)\n"
             "Widget(height=0)\nGrid(height=4 * theme.TARGET)\nBigButton('x', size=theme.FONT_BODY)\n")
    assert [line.split(":")[0] for line in pixel_numbers(sizes)] == [f"line {n}" for n in range(1, 7)]
