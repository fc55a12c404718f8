"""The new game's draft: what the family has chosen so far (`Draft`: the ruleset, the players with their
colours and cards, the house rules, the banker's PIN, a game already going), as its file keeps it and as it is
checked when taken up again (`Draft.to_doc`, `Draft.from_doc`); and where a draft comes from (`DraftKeeper`): the
one kept in the app's data folder (ui/drafts.py keeps its text safe), else the last game's players in the journal.

The setup flow (ui/flows/setup.py) owns the draft and is the only one to drop it; no Kivy here.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Any

from banker.errors import RulesetError
from banker.journal import Journal, JournalError
from banker.options import DECLARED, OptionError
from banker.ruleset import Ruleset, builtin_names, load_ruleset
from ui.drafts import DraftFile
from ui.pin import hash_pin

log = logging.getLogger(__name__)

PLAYER_COLOURS = ["#E53935", "#1E88E5", "#43A047", "#FDD835", "#8E24AA", "#FB8C00", "#00ACC1", "#EC407A"]
TIME_LIMIT_STEP, TIME_LIMIT_LEAST, TIME_LIMIT_MOST = 15, 15, 600  # minutes, for a timed game
PLAYERS_MOST = 8  # the most players any ruleset takes (and colours there are)
NAME_LONGEST = 16  # a player's name, at most
CARD_LONGEST = 64  # a card's UID as a reader gives it (hex of 4, 7 or 10 bytes, or a keyboard reader's digits)
_COLOUR = re.compile(r"#[0-9A-Fa-f]{6}")
_PIN_RECORD = {"scheme": str, "n": int, "r": int, "p": int, "salt": str, "hash": str}  # ui/pin.py's hash_pin


def card_uid(value: Any) -> str | None:
    """`value` as a card's UID, or None when it cannot be one (not text, empty, too long, spaces or controls)."""
    if not isinstance(value, str) or not 0 < len(value) <= CARD_LONGEST:
        return None
    return value if value.isprintable() and not any(c.isspace() for c in value) else None


def _bad(why: str) -> ValueError:
    return ValueError(f"the draft's {why}")


def _checked_setup(setup: Any) -> dict[str, Any] | None:
    """A "game already going" entered on its page (ui/flows/progress.py), as a draft's file has it: checked
    for its shape (the engine checks the rest at the start)."""
    if setup is None:
        return None
    if not isinstance(setup, dict) or set(setup) != {"players", "spaces"}:
        raise _bad("game already going is not {players, spaces}")
    players, spaces = setup["players"], setup["spaces"]
    if not isinstance(players, dict) or not isinstance(spaces, dict):
        raise _bad("game already going is not {players, spaces}")
    for name, entry in players.items():
        if not isinstance(entry, dict) or not all(
                k in ("cash", "position", "lapped") and isinstance(v, int) for k, v in entry.items()):
            raise _bad(f"game already going has a bad player {name!r}")
    kinds: dict[str, type | tuple[type, ...]] = {"owner": (str, type(None)), "houses": int, "hotel": bool,
                                                 "mortgaged": bool}
    for index, entry in spaces.items():
        if not index.isdigit() or not isinstance(entry, dict) or not all(
                k in kinds and isinstance(v, kinds[k]) for k, v in entry.items()):
            raise _bad(f"game already going has a bad space {index!r}")
    return setup


@dataclass
class DraftPlayer:
    name: str
    colour: str
    card: str | None = None


@dataclass
class Draft:
    """A new game being set up at the table."""

    rules: str = "classic"
    players: list[DraftPlayer] = field(default_factory=list)
    registering: int | None = None  # the player whose card the next tap registers
    pin: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    setup: dict[str, Any] | None = None  # "game in progress": the engine's setup
    time_limit: int | None = None  # minutes, for timed rulesets
    # A draft taken up from its file has its PIN as the file keeps it, never the PIN itself: ui/pin.py's salted
    # hash (what the game's meta keeps once it starts), and how many digits it has (the setup screen's dots).
    pin_record: dict[str, Any] | None = None
    pin_digits: int = 0

    def choose(self, option: str, value: int | bool) -> None:
        """The family's choice of one option, over the ruleset's (`options`: option name -> value)."""
        self.options = {**self.options, option: value}

    def names(self) -> list[str]:
        """The players being set up, by name (#1, #2... until named)."""
        return [p.name or f"#{k + 1}" for k, p in enumerate(self.players)]

    def pin_length(self) -> int:
        """The PIN's digits (0: no PIN)."""
        return len(self.pin) if self.pin else self.pin_digits if self.pin_record is not None else 0

    def to_doc(self, pin_record: dict[str, Any] | None) -> dict[str, Any]:
        """The draft as its file keeps it (ui/drafts.py), the PIN as `pin_record` (its hash) only."""
        return {"rules": self.rules,
                "players": [{"name": p.name, "colour": p.colour, "card": p.card} for p in self.players],
                "registering": self.registering,
                "options": dict(self.options), "setup": self.setup, "time_limit": self.time_limit,
                "pin": pin_record, "pin_digits": self.pin_length() if pin_record is not None else 0}

    @classmethod
    def from_doc(cls, doc: dict[str, Any]) -> Draft:
        """A draft from its file's document, every field checked: ValueError says the first that is wrong.
        (Whether its ruleset is still there, its options the ruleset's and its cards still good is said when the
        setup flow takes it up: `DraftKeeper.playable`, from `SetupFlow.new_game`.)"""
        rules, players, options = doc.get("rules"), doc.get("players"), doc.get("options")
        if not isinstance(rules, str) or not rules:
            raise _bad("ruleset is not named")
        if not isinstance(players, list) or not 2 <= len(players) <= PLAYERS_MOST:
            raise _bad(f"players are not a list of 2 to {PLAYERS_MOST}")
        kept = []
        for p in players:
            if not isinstance(p, dict):
                raise _bad("player is not {name, colour, card}")
            name, colour, card = p.get("name"), p.get("colour"), p.get("card")
            if not isinstance(name, str) or len(name) > NAME_LONGEST:
                raise _bad(f"player's name {name!r} is not a name")
            if not isinstance(colour, str) or _COLOUR.fullmatch(colour) is None:
                raise _bad(f"player's colour {colour!r} is not a colour")
            if card is not None and card_uid(card) is None:
                raise _bad(f"player's card {card!r} is not a card")
            kept.append(DraftPlayer(name, colour, card))
        if not isinstance(options, dict) or not all(
                isinstance(k, str) and isinstance(v, (bool, int, float, str)) for k, v in options.items()):
            raise _bad("house rules are not {option: value}")
        registering = doc.get("registering")
        if registering is not None and (not isinstance(registering, int) or isinstance(registering, bool)
                                        or not 0 <= registering < len(kept)):
            raise _bad(f"player waiting for a card, {registering!r}, is not one of its players")
        time_limit, pin, digits = doc.get("time_limit"), doc.get("pin"), doc.get("pin_digits")
        if time_limit is not None and (not isinstance(time_limit, int) or isinstance(time_limit, bool)
                                       or not TIME_LIMIT_LEAST <= time_limit <= TIME_LIMIT_MOST):
            raise _bad(f"time limit {time_limit!r} is not a number of minutes")
        if pin is not None and (not isinstance(pin, dict) or set(pin) != set(_PIN_RECORD)
                                or not all(isinstance(pin[k], kind) for k, kind in _PIN_RECORD.items())
                                or not isinstance(digits, int) or not 4 <= digits <= 8):
            raise _bad("PIN is not a PIN's hash")
        return cls(rules=rules, players=kept, registering=registering, options=dict(options),
                   setup=_checked_setup(doc.get("setup")), time_limit=time_limit, pin_record=pin,
                   pin_digits=digits if pin is not None and isinstance(digits, int) else 0)


def valid_choice(option: str, value: Any) -> bool:
    """Whether `value` may be the table's choice of `option`: an option there is, a value of its kind in its
    range (banker/options.py)."""
    declared = DECLARED.get(option)
    if declared is None:
        return False
    try:
        declared.check(value)
    except OptionError:
        return False
    return True


def card_holder(players: list[DraftPlayer], uid: str) -> DraftPlayer | None:
    """The player of `players` whose card `uid` is."""
    return next((p for p in players if p.card == uid), None)


def cards_settled(players: list[DraftPlayer]) -> None:
    """A card remembered (from the file or the last game) stays only where a tap could register it now: a
    card another player has already (`card_holder`) is left unregistered."""
    for k, p in enumerate(players):
        if p.card is not None and (card_uid(p.card) is None or card_holder(players[:k], p.card)):
            p.card = None


class DraftKeeper:
    """Where the new game's draft is kept and where a new one comes from: its `file` in the app's data folder
    (the app gives it one; None in the tests and the tools), written at every change with the PIN as its salted
    hash only, and read back when a new game's screen opens; else the last game's players in the journal."""

    def __init__(self) -> None:
        self.file: DraftFile | None = None
        self._pin_hash: tuple[str, dict[str, Any]] | None = None  # the last PIN hashed for the file, and its hash

    def write(self, d: Draft) -> None:
        """The draft into its file (only when it changed: `DraftFile.write`)."""
        if self.file is not None:
            self.file.write(d.to_doc(self.pin_record(d)))

    def remove(self) -> None:
        """No draft kept any more (its game started, or it was dropped)."""
        if self.file is not None:
            self.file.remove()

    def pin_record(self, d: Draft) -> dict[str, Any] | None:
        """The draft's PIN as the file and the game's meta keep it: its salted hash (made once per PIN)."""
        if not d.pin:
            return d.pin_record
        if self._pin_hash is None or self._pin_hash[0] != d.pin:
            self._pin_hash = (d.pin, hash_pin(d.pin))
        return self._pin_hash[1]

    def from_file(self) -> Draft | None:
        """The draft kept in the data folder, or None: none, or a bad one (said in the log; the next change
        writes over it)."""
        doc = self.file.read() if self.file is not None else None
        if doc is None:
            return None
        try:
            return Draft.from_doc(doc)
        except ValueError as exc:
            log.warning("%s: %s; the new game's draft is not taken up", self.file and self.file.path, exc)
            return None

    def playable(self, d: Draft, editions: set[str]) -> Ruleset | None:
        """The ruleset of a draft put aside or kept, loaded, when the draft can be taken up: its ruleset (a
        shipped one, or one of the family's `editions` that can be played) is still there; else None. Its choices
        of options there are not, or of values their declarations refuse (`valid_choice`), go, and so do cards
        that cannot be registered now (`cards_settled`)."""
        if d.rules not in builtin_names() and d.rules not in editions:
            log.warning("the new game's draft was for %r, which is gone: dropped", d.rules)
            return None
        try:
            ruleset = load_ruleset(d.rules)
        except RulesetError as exc:
            log.warning("the new game's draft was for %r, which cannot be played now (%s): dropped", d.rules, exc)
            return None
        d.options = {k: v for k, v in d.options.items() if valid_choice(k, v)}
        cards_settled(d.players)
        return ruleset

    def last_players(self, journal: Journal) -> list[DraftPlayer]:
        """The players of the last game in `journal` (the last draft started), in their order, with their
        colours and cards; two unnamed players when there is none (or it cannot be read)."""
        players: list[DraftPlayer] = []
        try:
            ids = journal.game_ids()
            if ids:
                header, meta = journal.header(ids[-1]), journal.meta(ids[-1])
                colours, cards = meta.get("colours"), meta.get("cards")
                colours = colours if isinstance(colours, dict) else {}
                card_of = {name: uid for uid, name in cards.items()} if isinstance(cards, dict) else {}
                for name in header.players[:PLAYERS_MOST]:
                    players.append(DraftPlayer(str(name).strip()[:NAME_LONGEST], str(colours.get(name, "")),
                                               card_uid(card_of.get(name))))
        except JournalError as exc:
            log.warning("the last game's players could not be read (%s): a new game starts with two", exc)
            players = []
        if len(players) < 2:
            return [DraftPlayer("", PLAYER_COLOURS[0]), DraftPlayer("", PLAYER_COLOURS[1])]
        for p in players:  # a colour that is not one, or another player's already: the next one nobody has
            if _COLOUR.fullmatch(p.colour) is None or sum(q.colour == p.colour for q in players) > 1:
                used = {q.colour for q in players}
                p.colour = next(c for c in PLAYER_COLOURS if c not in used)
        cards_settled(players)
        return players


__all__ = ["CARD_LONGEST", "Draft", "DraftKeeper", "DraftPlayer", "NAME_LONGEST", "PLAYERS_MOST", "PLAYER_COLOURS",
           "TIME_LIMIT_LEAST", "TIME_LIMIT_MOST", "TIME_LIMIT_STEP", "card_holder", "card_uid", "cards_settled",
           "valid_choice"]
