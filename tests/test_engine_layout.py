"""The engine's layout (docs/engine.md, "Modules"): every verb in the one verb table with its check and its do,
every card effect the loader accepts played by banker/cards.py, no engine module over 1,200 lines, and nothing
outside the core and the mechanics reading which mechanics are in play (they ask the game, or the ruleset,
questions)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import banker.game
from banker import cards, mechanics
from banker.game import VERBS, Game
from banker.messages import MESSAGES, decision_owed
from banker.ruleset import CARD_EFFECTS, load_ruleset
from banker.verbtable import TABLE


def test_every_verb_is_in_the_table_with_its_own_check_and_do() -> None:
    assert tuple(TABLE) == VERBS
    for verb, row in TABLE.items():
        if verb == "undo":  # Game takes the latest action back itself
            assert row.check is None and row.do is None
            continue
        assert row.check is not None and row.do is not None, verb
        assert row.check.__name__ == f"check_{verb}" and row.do.__name__ == f"do_{verb}", verb
        assert row.check.__module__ == row.do.__module__, f"{verb}: its check and its do in two modules"
    functions = [f for row in TABLE.values() for f in (row.check, row.do) if f is not None]
    assert len(functions) == len(set(functions)), "one function serves two verbs"
    assert set(banker.game._CHECKS) == set(banker.game._DOERS) == set(VERBS) - {"undo"}
    assert not [verb for verb in VERBS if hasattr(Game, f"_check_{verb}") or hasattr(Game, f"_do_{verb}")]
    for module in (banker.game, cards, mechanics, *(getattr(mechanics, f) for f in mechanics.REGISTRY),
                   *(getattr(mechanics, f) for f in mechanics.OPTION_CHOSEN)):
        assert not hasattr(module, "HANDLERS"), f"{module.__name__} keeps a verb table of its own"


def test_every_decision_the_engine_makes_has_its_refusal_worded() -> None:
    """A decision owed blocks other verbs with the message of its kind (`messages.decision_owed`)."""
    source = "".join(p.read_text("utf-8") for p in (ROOT / "banker").rglob("*.py"))
    kinds = set(re.findall(r'\bdecision\("([a-z_]+)"', source))
    assert {"buy", "draw", "tax", "card_roll", "casino", "bus", "jump"} <= kinds
    assert not [kind for kind in sorted(kinds) if decision_owed(kind) not in MESSAGES]


def test_every_card_effect_is_played() -> None:
    assert set(cards.EFFECTS) == set(CARD_EFFECTS)


ROOT = Path(__file__).resolve().parent.parent
# Where the mechanics in play may be known: the core, its modules, the mechanics, the ruleset loader and the
# variant record (banker/variant.py), which the rest asks.
KNOWING = {"banker/game.py", "banker/kernel.py", "banker/game_setup.py", "banker/verbs.py", "banker/cards.py", "banker/state.py",
           "banker/model.py", "banker/ruleset.py", "banker/variant.py"}
# The flags that chose a mechanic before the families were classes (issue 16).
OLD_FLAGS = {"stepped", "exact_bids", "visit_building", "turn_start_building", "sell_off", "casino_index",
             "teams", "expiring", "trade_once", "fields_free"}


def _outside_files() -> list[Path]:
    files = [p for p in (ROOT / "banker").rglob("*.py")
             if str(p.relative_to(ROOT)) not in KNOWING and "mechanics" not in p.parts]
    files += list((ROOT / "ui").rglob("*.py")) + [ROOT / "tests" / "randomplay.py"]
    return files


def test_no_engine_module_is_over_1200_lines() -> None:
    long = {str(p.relative_to(ROOT)): n for p in (ROOT / "banker").rglob("*.py")
            if (n := len(p.read_text("utf-8").splitlines())) > 1200}
    assert not long


def test_only_the_core_and_the_mechanics_know_which_mechanics_are_in_play() -> None:
    found = []
    for path in _outside_files():
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Attribute):
                continue
            family_read = isinstance(node.value, ast.Attribute) and node.value.attr == "rules"  # game.rules.x
            if family_read or node.attr == "mechanics" or node.attr in OLD_FLAGS:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: .{node.attr}")
    assert not found


def test_the_old_flags_are_gone() -> None:
    game = Game(load_ruleset("classic"), ["Ann", "Ben"])
    assert not [flag for flag in OLD_FLAGS if hasattr(game, flag)]


# The core (docs/engine.md, "The kernel"): the only code that may write a game's attributes or use its private names.
CORE = {"banker/game.py", "banker/kernel.py"}
MUTATORS = {"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "sort", "reverse", "add",
            "discard", "popitem"}


def _game_rooted(node: ast.AST) -> bool:
    """Whether `node` is a game or reached from one: `game`, `self.game`, `game.x`, `live.game.x[i]`."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Attribute) and node.attr == "game":
            return True
        node = node.value
    return isinstance(node, ast.Name) and node.id == "game"


def _outside_core_uses(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                and _game_rooted(node.value)):
            found.append((node.lineno, f"uses game.{node.attr}"))
        targets: list[ast.AST] = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            for t in target.elts if isinstance(target, ast.Tuple) else [target]:
                if isinstance(t, (ast.Attribute, ast.Subscript)) and _game_rooted(t.value):
                    found.append((node.lineno, "writes " + ast.unparse(t)))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            receiver = node.func.value
            if (node.func.attr in MUTATORS and isinstance(receiver, (ast.Attribute, ast.Subscript))
                    and _game_rooted(receiver)):
                found.append((node.lineno, "changes " + ast.unparse(node.func)))
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr")
                and node.args and (_game_rooted(node.args[0]) or ast.unparse(node.args[0]) == "game")):
            found.append((node.lineno, f"{node.func.id} on the game"))
    return found


def test_only_the_core_writes_the_game_or_uses_its_private_names() -> None:
    """Mechanics, card effects, verbs, setup, the computer players, the app and the hardware change a game
    through the kernel's methods and read it through public names."""
    found = []
    for top in ("banker", "ui", "hardware"):
        for path in sorted((ROOT / top).rglob("*.py")):
            name = str(path.relative_to(ROOT))
            if name not in CORE:
                found += [f"{name}:{line}: {what}" for line, what in _outside_core_uses(ast.parse(path.read_text("utf-8")))]
    assert not found


def test_the_walk_finds_what_it_looks_for() -> None:
    code = """
game.owner[3] = 1
self.game.decision = None
game.events.append(("x", {}))
live.game.auction_queue.pop(0)
setattr(game, "turn", 2)
game._transfer(0, 1, 5, "rent", {})
game.owner_version += 1
game.give_deed(3, 1)
x = game.owner[3]
game.emit("x", {})
"""
    found = sorted(what for _, what in _outside_core_uses(ast.parse(code)))
    assert found == ["changes game.events.append", "changes live.game.auction_queue.pop", "setattr on the game",
                     "uses game._transfer", "writes game.owner[3]", "writes game.owner_version",
                     "writes self.game.decision"]
    assert not _outside_core_uses(ast.parse("self.game = game\nlive.game = None\n"))


def test_owner_version_changes_in_one_place() -> None:
    """Caches key on `owner_version`: it is set when the game is made and changed only by `give_deed`."""
    writers = []
    for name in sorted(CORE):
        for func in ast.walk(ast.parse((ROOT / name).read_text("utf-8"))):
            if isinstance(func, ast.FunctionDef):
                for node in ast.walk(func):
                    targets = node.targets if isinstance(node, ast.Assign) else (
                        [node.target] if isinstance(node, ast.AugAssign) else [])
                    if any(isinstance(t, ast.Attribute) and t.attr == "owner_version" for t in targets):
                        writers.append(f"{name}:{func.name}")
    assert writers == ["banker/kernel.py:__init__", "banker/kernel.py:give_deed"]


def test_the_engine_shares_its_decisions() -> None:
    """A decision is a frozen value made once and shared (`model.decision`): in the compiled build each new one
    runs the interpreted `__init__` that `dataclasses` writes, which cost 7% of a simulated game."""
    from banker.model import Decision, decision

    assert decision("buy", space=3) is decision("buy", space=3) == Decision("buy", space=3)
    assert decision("buy", space=3) is not decision("buy", space=5)
    assert decision("bus", dice=(2, 5)) is decision("bus", dice=(2, 5)) != decision("bus", dice=(5, 2))
    made = [f"{path.relative_to(ROOT)}:{node.lineno}"
            for path in (ROOT / "banker").rglob("*.py") if path.name != "model.py"
            for node in ast.walk(ast.parse(path.read_text("utf-8")))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Decision"]
    assert not made, "the engine makes a Decision directly instead of asking model.decision()"


def test_the_app_and_the_hardware_never_import_the_mechanics() -> None:
    """The app and the hardware ask the game and its variant record (banker/variant.py), and take chance from
    banker/chance.py: no module of ui/ or hardware/ imports banker.mechanics (issue 39)."""
    found = []
    for path in sorted([*(ROOT / "ui").rglob("*.py"), *(ROOT / "hardware").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                module = node.module or ""
                names = [module, *(f"{module}.{alias.name}" for alias in node.names)]
            else:
                continue
            if any(name == "banker.mechanics" or name.startswith("banker.mechanics.") for name in names):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, f"banker.mechanics imported by {found}"
