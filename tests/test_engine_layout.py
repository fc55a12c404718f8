"""The engine's layout (docs/engine.md, "Modules"): every verb in the one verb table with its check and its do,
every card effect the loader accepts played by banker/cards.py, no engine module over 1,200 lines, and nothing
outside the core and the mechanics reading which mechanics are in play (they ask the game, or the ruleset,
questions)."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

import banker.game
import banker.kernel
from banker import cards, mechanics
from banker.game import VERBS, Game
from banker.messages import MESSAGES, decision_owed
from banker.ruleset import CARD_EFFECTS, load_ruleset
from banker.statefields import PART
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


def _assigned(node: ast.AST) -> list[ast.AST]:
    """What an assignment, an augmented or annotated one, or a `del` writes, a tuple or list of targets spread."""
    targets: list[ast.AST] = []
    if isinstance(node, (ast.Assign, ast.Delete)):
        targets = list(node.targets)
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        targets = [node.target]
    return [t for target in targets for t in (target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target])]


def _outside_core_uses(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                and _game_rooted(node.value)):
            found.append((node.lineno, f"uses game.{node.attr}"))
        for t in _assigned(node):
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


# ----------------------------------------------------------------------
# The records (docs/engine.md, "Read-only records"): a `Player`, an `Auction` or a `Debt` is written only by the
# core (banker/kernel.py, banker/game.py and banker/model.py, whose writers the kernel calls). The walk below
# follows a record through every name it is reached by in a function: `p = game.players[i]`, `q = p`, loops and
# comprehensions over a game's players or a player's debts, `next(...)`, `max(...)`, parameters annotated with a
# record's type, calls of functions whose return annotation names one, a game's `.current` and `.auction` (a game
# being `game`, any `.game`, a parameter annotated `Game` and any name given one); a write through any of them
# (an attribute assigned, augmented or deleted, an item assigned, a list method that changes it, `setattr`) is a
# finding.

RECORD_CORE = {"banker/kernel.py", "banker/game.py", "banker/model.py"}
# The families' state objects (`game.trade_state`, ... : banker/statefields.py) are records too: the kernel's verbs
# change them (`game.count_trade()`), nothing else.
FAMILY_STATES = {f.name: f.start.__name__ for f in banker.kernel.FIELDS if f.copy == PART}
RECORD_TYPES = {"Player", "Auction", "Debt", *FAMILY_STATES.values()}
GAME_TYPES = {"Game", "Kernel"}
RECORD_ATTRS = {"current", "auction", *FAMILY_STATES}  # `game.current`, `self.game.auction`: a record
RECORDS_ATTRS = {"players"}  # `game.players`; and a record's `debts`
PICKS = {"next", "max", "min"}  # a call that picks one element of what it is given
KEEPS = {"list", "tuple", "sorted", "reversed", "filter", "iter", "set"}  # a call that keeps the elements


def _annotation_names(node: ast.expr | None, types: set[str]) -> bool:
    if node is None:
        return False
    text = node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else ast.unparse(node)
    return bool(set(re.findall(r"[A-Za-z_]+", text)) & types)


def _annotation_names_a_record(node: ast.expr | None) -> bool:
    return _annotation_names(node, RECORD_TYPES)


def _record_returners(trees: list[ast.AST]) -> set[str]:
    """The functions (by name) whose return annotation names a record type."""
    return {node.name for tree in trees for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _annotation_names_a_record(node.returns)}


class _Records:
    """Which names in one function hold a record (`one`) or several (`many`), grown to a fixed point."""

    def __init__(self, returners: set[str]) -> None:
        self.one: set[str] = set()
        self.many: set[str] = set()
        self.games: set[str] = {"game"}
        self.returners = returners

    def is_game(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Name):
            return node.id in self.games
        return isinstance(node, ast.Attribute) and node.attr == "game"

    def is_one(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Name):
            return node.id in self.one
        if isinstance(node, ast.Attribute):
            return node.attr in RECORD_ATTRS and self.is_game(node.value)
        if isinstance(node, ast.Subscript):
            return not isinstance(node.slice, ast.Slice) and self.is_many(node.value)
        if isinstance(node, ast.NamedExpr):
            return self.is_one(node.value)
        if isinstance(node, ast.IfExp):
            return self.is_one(node.body) or self.is_one(node.orelse)
        if isinstance(node, ast.BoolOp):
            return any(self.is_one(v) for v in node.values)
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name in self.returners:
                return True
            if name == "copy" and isinstance(func, ast.Attribute) and self.is_one(func.value):
                return True
            if name in PICKS and node.args:
                return any(self.is_many(a) for a in node.args) or (len(node.args) > 1 and any(self.is_one(a) for a in node.args))
        return False

    def is_many(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Name):
            return node.id in self.many
        if isinstance(node, ast.Attribute):
            return (node.attr in RECORDS_ATTRS and self.is_game(node.value)) or (
                node.attr == "debts" and self.is_one(node.value))
        if isinstance(node, ast.Subscript):
            return isinstance(node.slice, ast.Slice) and self.is_many(node.value)
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return any(self.is_one(e) or self.is_many(e) for e in node.elts)
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            self.bind_comprehension(node)
            return self.is_one(node.elt)
        if isinstance(node, ast.BinOp):
            return self.is_many(node.left) or self.is_many(node.right)
        if isinstance(node, ast.IfExp):
            return self.is_many(node.body) or self.is_many(node.orelse)
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else ""
            if name in KEEPS:
                return any(self.is_many(a) for a in node.args)
            if isinstance(func, ast.Attribute) and func.attr in ("values", "copy") and self.is_many(func.value):
                return True
        return False

    def bind(self, target: ast.AST, one: bool, many: bool, game: bool = False) -> bool:
        """Mark the names `target` binds; True if that is news."""
        if isinstance(target, ast.Name):
            sets = (self.one, self.many, self.games)
            before = [target.id in kind for kind in sets]
            for flag, kind in zip((one, many, game), sets, strict=True):
                if flag:
                    kind.add(target.id)
            return before != [target.id in kind for kind in sets]
        if isinstance(target, (ast.Tuple, ast.List)):
            return any([self.bind(e, one, many, game) for e in target.elts])
        if isinstance(target, ast.Starred):
            return self.bind(target.value, False, one or many)
        return False

    def bind_value(self, target: ast.AST, value: ast.AST) -> bool:
        return self.bind(target, self.is_one(value), self.is_many(value), self.is_game(value))

    def bind_iteration(self, target: ast.AST, iterable: ast.AST) -> bool:
        """`for target in iterable`: what each element is."""
        call = iterable.func.id if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) else ""
        if call == "enumerate" and iterable.args and isinstance(target, (ast.Tuple, ast.List)) \
                and len(target.elts) == 2:
            return self.bind_iteration(target.elts[1], iterable.args[0])
        if call == "zip" and isinstance(target, (ast.Tuple, ast.List)):
            return any([self.bind_iteration(t, a) for t, a in zip(target.elts, iterable.args, strict=False)])
        if self.is_many(iterable):
            return self.bind(target, True, False)
        return False

    def bind_comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp) -> bool:
        return any([self.bind_iteration(g.target, g.iter) for g in node.generators])

    def grow(self, scope: ast.AST) -> None:
        changed = True
        while changed:
            changed = False
            for node in ast.walk(scope):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                    args = node.args
                    for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
                        if _annotation_names_a_record(arg.annotation):
                            changed |= self.bind(ast.Name(arg.arg), True, False)
                        if _annotation_names(arg.annotation, GAME_TYPES):
                            changed |= self.bind(ast.Name(arg.arg), False, False, True)
                elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for target in targets:
                        if isinstance(target, (ast.Tuple, ast.List)) and isinstance(node.value, (ast.Tuple, ast.List)):
                            for t, v in zip(target.elts, node.value.elts, strict=False):
                                changed |= self.bind_value(t, v)
                        else:
                            changed |= self.bind_value(target, node.value)
                elif isinstance(node, (ast.For, ast.AsyncFor)):
                    changed |= self.bind_iteration(node.target, node.iter)
                elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
                    changed |= self.bind_comprehension(node)
                elif isinstance(node, (ast.With, ast.AsyncWith)):
                    for item in node.items:
                        if item.optional_vars is not None:
                            changed |= self.bind_value(item.optional_vars, item.context_expr)


def _record_writes(tree: ast.AST, returners: set[str]) -> list[tuple[int, str]]:
    """Every write to an engine record in `tree`, through whatever name, and every writer named."""
    found = []
    scopes = [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))]
    seen: set[tuple[int, str]] = set()
    for scope in scopes:
        records = _Records(returners)
        records.grow(scope)

        def held(node: ast.AST, records: _Records = records) -> bool:  # a record, or a record's list (`p.debts`, `a.bidders`)
            if isinstance(node, ast.Attribute):
                return records.is_one(node.value)
            return records.is_one(node)

        for node in ast.walk(scope):
            for t in _assigned(node):
                if isinstance(t, ast.Attribute) and records.is_one(t.value):
                    seen.add((node.lineno, "writes " + ast.unparse(t)))
                elif isinstance(t, ast.Subscript) and held(t.value):
                    seen.add((node.lineno, "writes " + ast.unparse(t)))
            if isinstance(node, ast.Call):
                func = node.func
                if isinstance(func, ast.Attribute) and func.attr in MUTATORS and held(func.value):
                    seen.add((node.lineno, "changes " + ast.unparse(func)))
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                if name in ("setattr", "delattr", "__setattr__", "__delattr__") and node.args and \
                        any(records.is_one(a) for a in node.args[:2]):
                    seen.add((node.lineno, f"{name} on a record"))
                if name == "__set__":
                    seen.add((node.lineno, "a slot descriptor's __set__"))
    found = sorted(seen)
    return found


def _outside_record_core() -> list[tuple[str, ast.AST]]:
    return [(str(path.relative_to(ROOT)), ast.parse(path.read_text("utf-8")))
            for top in ("banker", "ui", "hardware") for path in sorted((ROOT / top).rglob("*.py"))
            if str(path.relative_to(ROOT)) not in RECORD_CORE]


def test_no_engine_record_is_written_outside_the_core() -> None:
    """Mechanics, cards, verbs, setup, the computer players, the app and the hardware change a player, an auction
    or a debt through the kernel's verbs (`game.move_to`, `game.record_bid`, ...), through no name of theirs."""
    files = _outside_record_core()
    returners = _record_returners([tree for _, tree in files])
    found = [f"{name}:{line}: {what}" for name, tree in files for line, what in _record_writes(tree, returners)]
    assert not found


PLANTED = '''
def card(game, p):
    player = game.players[p]
    also = player
    also.position = 3
    game.players[p].cash += 10
    for q in game.players:
        q.in_jail = False
    for i, q in enumerate(game.players):
        q.jail_turns = 1
    debtor = next(q for q in game.players if q.debts)
    debtor.debts[0] = None
    rich = max(game.players, key=lambda q: q.cash)
    rich.lapped = True
    others = [q for q in game.players if q is not player]
    others[0].bankrupt = True
    a = game.auction
    a.bidders.remove(1)
    self.game.current.jail_cards.append("x")
    setattr(also, "cash", 0)
    d = player.debts[0]
    d.creditor = 2
    found = _auction_for(game, p)
    found.min_bid = 5

def hook(game, who: "Player", a: Auction | None):
    who.debt_auctioned.clear()
    a.high_bid = 7
    if (b := game.auction) is not None:
        b.next_bidder = 0

def app(session, table: Game):
    g = session.game
    g.current.cash = 1
    table.players[0].position = 1
    object.__setattr__(table.current, "lapped", True)
'''


def test_the_record_walk_follows_every_alias() -> None:
    found = _record_writes(ast.parse(PLANTED), {"_auction_for"})
    lines = PLANTED.splitlines()
    expected = {i for i, text in enumerate(lines, start=1)
                if re.search(r"\.\w+ (\+)?= |\.(append|remove|clear)\(|\[0\] = |setattr__\(|setattr\(", text)
                and "= game" not in text and "= player" not in text and "= _auction" not in text
                and "= next" not in text and "= max" not in text and "= [q" not in text}
    assert {line for line, _ in found} == expected, found
    # Reading a record through those names is no write, and a record of the app's own is not the engine's.
    assert not _record_writes(ast.parse("p = game.players[0]\nx = p.cash\nself.cash = 3\nrow.position = 2\n"
                                        "for d in draft.players:\n    d.name = 'x'\n"
                                        "for e, q in zip(rows, game.players):\n    e['cash'] = q.cash\n"
                                        "self.f.trade.set_cash(1, 2, 3)\n"), set())


def test_a_familys_state_is_a_record_too() -> None:
    """A family's counters change through the kernel's verbs only: a write through the game's state object, or
    any name it is reached by, is found."""
    planted = ("def hook(game, clock: ClockState):\n    timer = game.clock_state\n    timer.paused_at = 1.0\n"
               "    game.trade_state.trades_used += 1\n    game.building_state.group_builds.clear()\n"
               "    clock.skipped[0] = 2\n    x = game.casino_state.jackpot\n")
    found = _record_writes(ast.parse(planted), set())
    assert sorted(line for line, _ in found) == [3, 4, 5, 6], found
    assert {"trade_state", "clock_state", "random_move_state"} <= set(FAMILY_STATES)


def test_a_write_planted_in_a_real_module_is_found() -> None:
    """The real banker/cards.py with `player.position = target` put back where a card moved the token by hand."""
    source = (ROOT / "banker" / "cards.py").read_text("utf-8")
    planted = source.replace("    game.note_random_move(target)\n",
                             "    game.note_random_move(target)\n    player.position = target\n", 1)
    assert planted != source
    returners = _record_returners([ast.parse(planted)])
    assert not _record_writes(ast.parse(source), returners)
    found = _record_writes(ast.parse(planted), returners)
    assert [what for _, what in found] == ["writes player.position"]


def _fields(record: object) -> tuple[str, ...]:
    """A record's fields: its slots, or in the compiled build mypyc's list of its attributes (no `__slots__`)."""
    fields: tuple[str, ...] = getattr(type(record), "__slots__", None) or type(record).__mypyc_attrs__
    assert {"cash", "position", "bidders", "high_bid"} & set(fields)
    return fields


def test_records_refuse_writes_at_run_time() -> None:
    """What the engine hands out cannot be written: the compiled build refuses it always, pure Python under
    `BANKER_GUARD_RECORDS=1`, which tests/conftest.py sets for the whole suite (the app's processes too)."""
    assert os.environ.get("BANKER_GUARD_RECORDS") == "1"
    game = Game(load_ruleset("classic"), ["Ann", "Ben"])
    game.apply({"do": "roll", "dice": [3, 4]})  # Ann on Chance: a card to draw; nothing owed is a debt
    player = game.players[0]
    for field in _fields(player):
        with pytest.raises(AttributeError):
            setattr(player, field, getattr(player, field))
        with pytest.raises(AttributeError):
            delattr(player, field)
    assert isinstance(player.jail_cards, tuple) and isinstance(player.debts, tuple)
    from banker.model import Auction, debt
    auction = Auction(1, "property", (0, 1))
    for field in _fields(auction):
        with pytest.raises(AttributeError):
            setattr(auction, field, getattr(auction, field))
    owed = debt(10, 1, False, "rent", {"space": "Baltic Avenue"})
    with pytest.raises(AttributeError):
        owed.amount = 0  # type: ignore[misc]
    with pytest.raises(TypeError):
        owed.params["space"] = "Boardwalk"  # type: ignore[index]
    assert game.players[0] is player and player.cash == 1500
    game.apply({"do": "draw", "card": "ch-advance-go"})  # the kernel writes as ever
    assert player.position == 0 and player.cash == 1700
