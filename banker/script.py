"""Game scripts (format 1): read, replay and write them.

The format is fixed by docs/game-script.md: UTF-8, one JSON object per
line, the header first, then one action per line; blank lines and lines
starting with ``#`` are skipped; line numbers count every line of the file.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from banker.chance import SeededChance, complete_action
from banker.errors import ActionError, BankerError, RulesetError, SetupError
from banker.game import Game
from banker.limits import MAX_SCRIPT_BYTES, LineRefused, decode_line, shown
from banker.outside import FileTooLarge, NotRegularFile, control_character, read_text_file
from banker.ruleset import Ruleset, builtin_names, load_ruleset, ruleset_from_data

HEADER_KEYS = frozenset({"rules", "players", "seed", "options", "setup", "ruleset", "format"})


class ScriptError(BankerError):
    """A script could not be replayed: where, why, and the exit status it means."""

    def __init__(self, line: int | None, status: int, message: str, code: str | None = None,
                 params: Mapping[str, Any] | None = None) -> None:
        self.line = line
        self.status = status
        self.message = message
        self.code = code
        self.params = dict(params or {})
        super().__init__(f"line {line}: {message}" if line is not None else message)


@dataclass
class Header:
    rules: str
    players: list[str]
    seed: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    setup: dict[str, Any] | None = None
    ruleset_data: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rules": self.rules, "players": list(self.players)}
        if self.seed is not None:
            out["seed"] = self.seed
        if self.options:
            out["options"] = dict(self.options)
        if self.setup:
            out["setup"] = self.setup
        if self.ruleset_data is not None:
            out["ruleset"] = self.ruleset_data
        return out


def parse_header(obj: Any, base_dir: Path | None = None) -> tuple[Header, Ruleset]:
    """Check a header object and load its ruleset. Raises ScriptError (status 2)."""
    def bad(message: str) -> ScriptError:
        return ScriptError(1, 2, message)

    if not isinstance(obj, dict):
        raise bad("the header must be a JSON object")
    for key in obj:
        if key not in HEADER_KEYS:
            raise bad(f"unknown header field {key!r}")
    rules = obj.get("rules")
    if not isinstance(rules, str) or not rules:
        raise bad('the header needs "rules": a ruleset name or file')
    if control_character(rules) is not None:
        raise bad(f'"rules" must be a ruleset name or file without control characters, not {shown(rules)}')
    players = obj.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise bad('the header needs "players": a list of names')
    seed = obj.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise bad(f"seed must be a whole number, not {seed!r}")
    options = obj.get("options", {})
    if not isinstance(options, dict):
        raise bad("options must be an object")
    setup = obj.get("setup")
    if setup is not None and not isinstance(setup, dict):
        raise bad("setup must be an object")
    fmt = obj.get("format", 1)
    if fmt != 1:
        raise bad(f"this version reads game script format 1, not {fmt!r}")
    data = obj.get("ruleset")
    try:
        if data is not None:
            ruleset = ruleset_from_data(data, f"{rules} (in the script header)")
        else:
            ruleset = _load_rules(rules, base_dir)
    except RulesetError as exc:
        raise bad(str(exc)) from None
    except OSError as exc:  # the path itself cannot be looked up: a name too long for the file system
        raise bad(f'cannot read the ruleset file {shown(rules)} ({exc.strerror or exc})') from None
    if data is None and rules not in builtin_names():
        data = ruleset.source_data()  # an exported game must stand on its own
    return Header(rules, list(players), seed, dict(options), setup, data), ruleset


def _load_rules(rules: str, base_dir: Path | None) -> Ruleset:
    """A shipped ruleset, a file (from the working folder, else beside the script), else a family's edition."""
    try:
        return load_ruleset(rules, editions=base_dir is None)
    except RulesetError:
        if base_dir is None:
            raise
        if not Path(rules).is_absolute():
            candidate = base_dir / rules
            try:
                found = candidate.exists()
            except OSError:  # a name too long for the file system is no file here
                found = False
            if found:
                return load_ruleset(str(candidate), editions=False)
        return load_ruleset(rules)  # an edition, or the first refusal again


def new_game(header: Header, ruleset: Ruleset) -> tuple[Game, SeededChance | None]:
    """Start the game a header describes. Raises ScriptError (status 2) for a bad setup."""
    chance = SeededChance(header.seed) if header.seed is not None else None
    order = chance.deck_order(ruleset) if chance is not None else None
    try:
        game = Game(ruleset, header.players, header.options, header.setup, order)
    except SetupError as exc:
        raise ScriptError(1, 2, str(exc), exc.code, exc.params) from None
    return game, chance


@dataclass
class ReplayResult:
    game: Game | None
    header: Header | None
    error: ScriptError | None
    actions: int = 0

    @property
    def state(self) -> dict[str, Any] | None:
        return self.game.to_json() if self.game is not None else None


def iter_lines(text: str) -> Iterable[tuple[int, str]]:
    """(line number, text) of every line that is not blank or a comment.

    Lines end at a line feed, a carriage return and line feed, or a carriage return, only: a raw
    U+2028 inside a JSON string neither splits its line nor shifts the numbers of the lines after it.
    """
    for number, line in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            yield number, stripped


class PlainRunner:
    """Plays a script's actions on a bare Game, filling in chance from the header's seed."""

    def __init__(self, header: Header, ruleset: Ruleset) -> None:
        self.game, self.chance = new_game(header, ruleset)

    def apply(self, action: Mapping[str, Any]) -> Any:
        return self.game.apply(complete_action(self.game, action, self.chance))


def replay_text(text: str, base_dir: Path | None = None, on_action: Any = None,
                begin: Callable[[Header, Ruleset], Any] = PlainRunner) -> ReplayResult:
    """Replay a whole script; never raises for a bad script (see ReplayResult.error).

    `begin(header, ruleset)` makes the runner that applies the actions (it has
    `.game` and `.apply(action)`): the journal passes one that commits each
    action. `on_action(game, action)` is called after each accepted action
    with the completed action (chance inputs filled in).
    """
    lines = iter_lines(text)
    first = next(iter(lines), None)
    if first is None:
        return ReplayResult(None, None, ScriptError(None, 2, "the script is empty: no header"))
    number, raw = first
    try:
        obj = decode_line(raw, header=True)
    except json.JSONDecodeError as exc:
        return ReplayResult(None, None, ScriptError(number, 2, f"the header is not valid JSON ({exc.msg})"))
    except LineRefused as exc:
        return ReplayResult(None, None, ScriptError(number, 2, f"the header: {exc}"))
    try:
        header, ruleset = parse_header(obj, base_dir)
        runner = begin(header, ruleset)
    except ScriptError as exc:
        exc.line = number
        return ReplayResult(None, None, exc)
    except BankerError as exc:
        return ReplayResult(None, None, ScriptError(number, 2, str(exc)))
    game = runner.game
    count = 0
    for number, raw in lines:
        try:
            action = decode_line(raw, header=False)
        except json.JSONDecodeError as exc:
            return ReplayResult(game, header, ScriptError(number, 1, f"not valid JSON ({exc.msg})"), count)
        except LineRefused as exc:
            return ReplayResult(game, header, ScriptError(number, 1, str(exc)), count)
        try:
            runner.apply(action)
        except ActionError as exc:
            return ReplayResult(game, header, ScriptError(number, 1, str(exc), exc.code, exc.params), count)
        except BankerError as exc:  # the journal could not save it
            return ReplayResult(game, header, ScriptError(number, 2, str(exc)), count)
        count += 1
        if on_action is not None:
            on_action(game, game.script[-1])
    return ReplayResult(game, header, None, count)


def replay_file(path: Path | str, on_action: Any = None,
                begin: Callable[[Header, Ruleset], Any] = PlainRunner) -> ReplayResult:
    path = Path(path)
    try:
        text = read_text_file(path, MAX_SCRIPT_BYTES)
    except FileNotFoundError:
        return ReplayResult(None, None, ScriptError(None, 2, f"{path}: cannot read the file (no such file)"))
    except NotRegularFile:  # a folder, a FIFO (reading would wait for ever), /dev/zero (no end)
        return ReplayResult(None, None, ScriptError(None, 2, f"{path}: cannot read the file (not a regular file)"))
    except FileTooLarge:
        return ReplayResult(None, None, ScriptError(
            None, 2, f"{path}: the file is larger than {MAX_SCRIPT_BYTES:,} bytes, the most a script may have"))
    except (OSError, ValueError) as exc:  # ValueError: a name holding NUL, or outside.NotText
        return ReplayResult(None, None, ScriptError(None, 2, f"{path}: cannot read the file ({exc})"))
    return replay_text(text, path.parent, on_action, begin)


def script_lines(header: Header, actions: Iterable[Mapping[str, Any]]) -> list[str]:
    """A game as game script lines: the header, then every action (chance inputs explicit)."""
    out = [json.dumps(header.to_json(), ensure_ascii=False)]
    out += [json.dumps(dict(a), ensure_ascii=False) for a in actions]
    return out


def describe(state: Mapping[str, Any]) -> str:
    """The state for a person to read (what `banker replay` prints without --json)."""
    lines = [f"rules: {state['rules']}"]
    if state["ended"]:
        winner = state["winner"]
        if isinstance(winner, list):
            lines.append(f"game over: {' and '.join(winner)} tie for the win")
        else:
            lines.append(f"game over: {winner} wins")
    else:
        lines.append(f"turn: {state['turn']}")
    for p in state["players"]:
        owned = [s["name"] + _building_text(s) for s in state["spaces"].values() if s["owner"] == p["name"]]
        flags = []
        if p["bankrupt"]:
            flags.append("bankrupt")
        if p["in_jail"]:
            flags.append(f"in jail ({p['jail_turns']} tries)")
        if p["jail_cards"]:
            flags.append(f"{p['jail_cards']} jail card(s)")
        for d in p["debts"]:
            flags.append(f"owes {d['to']} {d['amount']}")
        extra = f" [{', '.join(flags)}]" if flags else ""
        lines.append(f"{p['name']}: cash {p['cash']}, on space {p['position']}{extra}")
        if owned:
            lines.append("  owns: " + "; ".join(owned))
    bank = state["bank"]
    pot = f", pot {bank['pot']}" if "pot" in bank else ""
    lines.append(f"bank: {bank['houses']} houses, {bank['hotels']} hotels{pot}")
    a = state["auction"]
    if a is not None:
        what = a["kind"] if a["space"] is None else state["spaces"][str(a["space"])]["name"]
        lead = f"{a['high_bid']} by {a['high_bidder']}" if a["high_bidder"] else "no bid yet"
        seller = f" (sold by {a['seller']})" if a.get("seller") else ""
        turn = f"; next bid {a['min_bid']} by {a['next_bidder']}" if a.get("next_bidder") else ""
        lines.append(f"auction of {what}{seller}: {lead}; still in: {', '.join(a['bidders'])}{turn}")
    move = state.get("move")
    if move is not None and move["extra_roll"]:
        lines.append(f"{state['turn']} rolled a double: end the move, then roll again")
    for o in state["owed"]:
        lines.append(f"waiting for {o['player']}: {' / '.join(o['verbs'])}")
    return "\n".join(lines)


def _building_text(space: Mapping[str, Any]) -> str:
    parts = []
    if space["hotel"]:
        parts.append("hotel")
    elif space["houses"]:
        parts.append(f"{space['houses']} house{'s' if space['houses'] > 1 else ''}")
    if space["mortgaged"]:
        parts.append("mortgaged")
    return f" ({', '.join(parts)})" if parts else ""
