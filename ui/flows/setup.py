"""A new game being set up at the table: the ruleset, the players, their colours and cards, the house rules,
the banker's PIN; then the start.

The draft is this flow's alone, and only this flow drops it: when its game starts. Leaving the new game's pages
(Back to the start screen, the settings, the hall of fame, the editions, a game resumed) only puts it aside;
New game takes it up again as it was, and it is kept in the app's data folder at every change (ui/drafts.py),
so that it also outlives a restart of the app. A draft whose ruleset or edition has gone is dropped. With no
draft, a new game starts with the last game's players in the journal, their colours and cards.

The players' names are typed on the keyboard page (ui/flows/names.py); a game already going on the
physical board is entered on its own page (ui/flows/progress.py).
"""

from __future__ import annotations

import logging
import re
import secrets
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from banker.editions import Edition, list_editions
from banker.errors import BankerError, RulesetError
from banker.journal import JournalError
from banker.options import DECLARED, OptionError, Options, options_from
from banker.ruleset import Ruleset, builtin_names, load_ruleset, offered_house_rules
from banker.script import Header
from banker.variant import Variant
from ui import view
from ui.drafts import DraftFile
from ui.flows.base import Flow
from ui.i18n import Msg, msg
from ui.pin import hash_pin
from ui.session import NOTICES_KEPT

if TYPE_CHECKING:
    from ui.flows import Flows

log = logging.getLogger(__name__)

PLAYER_COLOURS = ["#E53935", "#1E88E5", "#43A047", "#FDD835", "#8E24AA", "#FB8C00", "#00ACC1", "#EC407A"]
# The house rules page (`SetupFlow.house`) offers the ruleset's `offered_house_rules`, each as its declaration
# says (banker/options.py, `HouseRule`): a rule on or off, or one worded the other way round, on meaning the
# option false ("No auctions": `inverted`); an amount, 0 when off, that starts at so many salaries when turned
# on (`salaries`) and then steps by `money_step` (never below one step); or an amount alone, from 0 ("none"), in
# the same steps; shown only while another house rule is on (`shown_with`).
# The starting cash, every ruleset's: steps of two `money_step`s, never below a salary.
START_CASH_STEPS = 2
# brands' custom table (rulebook 001): option, step of the -/+ buttons, least value (0 = "off").
CUSTOM_OPTIONS = (("turn_seconds", 15, 0), ("salary_stop_minutes", 5, 0), ("rent_tax_start_minutes", 5, 0),
                  ("mortgage_rounds", 1, 1), ("speed_die_round", 1, 0))
TIME_LIMIT_STEP, TIME_LIMIT_LEAST, TIME_LIMIT_MOST = 15, 15, 600  # minutes, for a timed game
# The shipped rulesets in the order the new-game screen offers them: the classic family first, then biznes and
# the brands modes (any other after them).
RULESET_ORDER = ("classic", "classic-short", "classic-timed", "biznes", "brands", "brands-fast", "brands-showdown",
                 "brands-teams")
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
        (Whether its ruleset is still there, its options the ruleset's and its cards still good is the setup
        flow's to say: `SetupFlow.new_game`.)"""
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


def money_step(ruleset: Ruleset) -> int:
    """The step of the house rules' amounts on the -/+ buttons: a round quarter of the salary (50 in classic,
    500 in brands), or of an eighth of the starting cash where a ruleset pays no salary."""
    base = ruleset.options.salary or ruleset.options.start_cash // 8
    quarter = max(1, base // 4)
    power = int(10 ** (len(str(quarter)) - 1))
    return max(m * power for m in (1, 2, 5) if m * power <= quarter)


class SetupFlow(Flow):
    def __init__(self, flows: Flows) -> None:
        super().__init__(flows)
        # The new game's draft: this flow's alone, put aside while the family is elsewhere and dropped only when
        # its game starts (`draft` is it while the new game's pages are up, `showing`); kept in `file` (the app
        # gives it one: ui/drafts.py) at every change, so that it outlives the app.
        self._kept: Draft | None = None
        self.showing = False
        self.file: DraftFile | None = None
        self._pin_hash: tuple[str, dict[str, Any]] | None = None  # the last PIN hashed for the file, and its hash
        # The family's editions as the new-game screen found them when it opened, and the draft's ruleset as
        # loaded when chosen: an edition's file is read once per new game, not at every touch (listing three
        # takes about 50 ms on a PC), and a game starts on the edition as it was chosen.
        self._editions: list[Edition] | None = None
        self._loaded: tuple[str, Ruleset] | None = None
        self.s.listeners.append(self.keep)

    @property
    def draft(self) -> Draft | None:
        """The new game being set up while its pages are up, else None (`Flows.mode` is "setup" only then)."""
        return self._kept if self.showing else None

    def opened(self, fresh: bool) -> None:
        self.showing = False  # a game is on: started from this draft (which is gone), or resumed (it waits)

    # ------------------------------------------------------------------ the draft

    def keep_in(self, file: DraftFile) -> None:
        """Keep the draft in `file` (the app's data folder), and take up the one it has at the next New game."""
        self.file = file

    def new_game(self) -> None:
        """The new-game screen: the draft put aside, as it was; else the one kept in the data folder (unless its
        ruleset or edition has gone); else the last game's players with their colours and cards, or two; every
        player with a ready name (a game can start with no typing)."""
        self.f.names.editor = None
        self._editions, self._loaded = None, None
        d = self._kept if self._kept is not None else self._from_file()
        if d is not None and not self._playable(d):
            if self.file is not None:
                self.file.remove()
            d = None
        if d is None:
            d = Draft(players=self._last_players())
        self._kept, self.showing = d, True
        self.f.names.fill()

    def cancel(self) -> None:
        """Back to the start screen: the draft is put aside, as it is, for New game (and the editions are looked
        at again when a new game's screen comes back: they are renamed and deleted from the start screen's
        side)."""
        self.keep()
        self.showing = False
        self._editions, self._loaded = None, None
        self.changed()

    def keep(self) -> None:
        """The draft into its file (at every change the session hears of; written only when it changed)."""
        if self.file is not None and self._kept is not None and self.showing:
            self.file.write(self._kept.to_doc(self._pin_record(self._kept)))

    def _pin_record(self, d: Draft) -> dict[str, Any] | None:
        """The draft's PIN as the file and the game's meta keep it: its salted hash (made once per PIN)."""
        if not d.pin:
            return d.pin_record
        if self._pin_hash is None or self._pin_hash[0] != d.pin:
            self._pin_hash = (d.pin, hash_pin(d.pin))
        return self._pin_hash[1]

    def _from_file(self) -> Draft | None:
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

    def _playable(self, d: Draft) -> bool:
        """Whether a draft put aside or kept can be taken up: its ruleset (a shipped one, or an edition that can
        be played) is still there. Its choices of options there are not, or of values their declarations refuse
        (`valid_choice`), go, and so do cards that cannot be registered now (`_cards_settled`)."""
        if d.rules not in builtin_names() and d.rules not in {e.name for e in self.editions()}:
            log.warning("the new game's draft was for %r, which is gone: dropped", d.rules)
            return False
        try:
            ruleset = load_ruleset(d.rules)
        except RulesetError as exc:
            log.warning("the new game's draft was for %r, which cannot be played now (%s): dropped", d.rules, exc)
            return False
        self._loaded = (d.rules, ruleset)
        d.options = {k: v for k, v in d.options.items() if valid_choice(k, v)}
        self._cards_settled(d.players)
        return True

    def _last_players(self) -> list[DraftPlayer]:
        """The players of the last game in the journal (the last draft started), in their order, with their
        colours and cards; two unnamed players when there is none (or it cannot be read)."""
        journal = self.s.journal
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
        self._cards_settled(players)
        return players

    def _cards_settled(self, players: list[DraftPlayer]) -> None:
        """A card remembered (from the file or the last game) stays only where a tap could register it now: a
        card another player has already (`_card_holder`) is left unregistered."""
        for k, p in enumerate(players):
            if p.card is not None and (card_uid(p.card) is None or self._card_holder(players[:k], p.card)):
                p.card = None

    @staticmethod
    def _card_holder(players: list[DraftPlayer], uid: str) -> DraftPlayer | None:
        """The player of `players` whose card `uid` is."""
        return next((p for p in players if p.card == uid), None)

    def _draft(self) -> Draft:
        if self._kept is None:
            self._kept, self.showing = Draft(), True
        return self._kept

    def rulesets(self) -> list[str]:
        """The shipped rulesets in the order the screen offers them, then the family's editions that can be
        played (banker/editions.py; a broken one is not offered), by title."""
        names = builtin_names()
        shipped = [n for n in RULESET_ORDER if n in names] + [n for n in names if n not in RULESET_ORDER]
        return shipped + [e.name for e in self.editions()]

    def editions(self) -> list[Edition]:
        """The family's editions that can be played, by title (then name), as listed when this new game's
        screen opened."""
        if self._editions is None:
            usable = [e for e in list_editions() if e.problem is None]
            self._editions = sorted(usable, key=lambda e: (e.title.casefold(), e.name))
        return self._editions

    def _ruleset(self) -> Ruleset:
        """The draft's ruleset, loaded once when chosen; an edition that cannot be loaded then (its file gone
        or broken since it was listed) gives way to classic, and that is said."""
        d = self._draft()
        if self._loaded is not None and self._loaded[0] == d.rules:
            return self._loaded[1]
        try:
            ruleset = load_ruleset(d.rules)
        except RulesetError as exc:
            self.s.notify(msg("ui.setup.edition_gone", reason=exc.problem), "error", "error")
            d.rules, d.options = "classic", {}
            ruleset = load_ruleset(d.rules)
        self._loaded = (d.rules, ruleset)
        return ruleset

    def _title(self, name: str, titles: dict[str, str] | None = None) -> str:
        """A ruleset's words on the screen: a shipped one's in the family's language, an edition's title."""
        tr = self.s.tr
        if tr.has(f"ui.rules.{name}"):
            return tr(f"ui.rules.{name}")
        if titles is None:
            titles = {e.name: e.title for e in self.editions()}
        return titles.get(name, name)

    def choose_rules(self, rules: str) -> None:
        d = self._draft()
        d.rules = rules
        d.options = {}
        self._ruleset()  # an edition's file read now (one gone since it was listed: classic, said)
        self.changed()

    def add_player(self) -> None:
        d = self._draft()
        if len(d.players) < 8:
            used = {p.colour for p in d.players}
            colour = next(c for c in PLAYER_COLOURS if c not in used)
            d.players.append(DraftPlayer("", colour))
        self.f.names.fill()

    def remove_player(self, index: int) -> None:
        d = self._draft()
        if len(d.players) > 2:
            del d.players[index]
            d.registering = None
        self.changed()

    def set_player(self, index: int, name: str | None = None, colour: str | None = None) -> None:
        p = self._draft().players[index]
        if name is not None:
            p.name = name.strip()[:16]
        if colour is not None:
            p.colour = colour
        self.changed()

    def next_colour(self, k: int) -> None:
        """Player k's token colour: the next one nobody else has."""
        d = self._draft()
        used = {p.colour for p in d.players}
        current = PLAYER_COLOURS.index(d.players[k].colour) if d.players[k].colour in PLAYER_COLOURS else 0
        for step in range(1, len(PLAYER_COLOURS) + 1):
            candidate = PLAYER_COLOURS[(current + step) % len(PLAYER_COLOURS)]
            if candidate not in used:
                self.set_player(k, colour=candidate)
                return

    def register(self, index: int | None) -> None:
        """The next card tapped becomes this player's card (None: stop registering)."""
        self._draft().registering = index
        self.changed()

    def register_tap(self, uid: str, owner: str | None) -> None:
        """A card tapped while setting up (ui/taps.py): the card of the player being registered, unless another
        player has it already; then the next player without a card is registered."""
        d = self._draft()
        if d.registering is None:
            return
        me = d.players[d.registering]
        holder = self._card_holder(d.players, uid)
        if holder is not None and holder is not me:
            self.s.notify(msg("ui.card.taken", owner=owner), "error", "error")
            return
        me.card = uid
        self.s.notify(msg("ui.card.registered", player=me.name or f"#{d.registering + 1}"), "info", "payment")
        d.registering = next((k for k, p in enumerate(d.players) if p.card is None), None)

    def set_option(self, option: str, value: Any) -> None:
        """A house rule on or off, or a number of the family's own table (brands), a number no higher than its
        declaration's most (banker/options.py)."""
        declared = DECLARED[option]
        if not declared.switch:
            value = min(int(value), declared.most)
        self._draft().choose(option, value)
        self.changed()

    def set_custom(self, option: str, value: int) -> None:
        """A number of brands' custom table, no lower than its least value (CUSTOM_OPTIONS)."""
        least = next(least for name, _step, least in CUSTOM_OPTIONS if name == option)
        self.set_option(option, max(least, value))

    # ------------------------------------------------------------------ the house rules

    def _least(self, ruleset: Ruleset, option: str) -> int:
        step = money_step(ruleset)
        if option == "start_cash":
            return max(step, ruleset.options.salary)
        rule = DECLARED[option].house
        return step if rule is not None and rule.salaries else 0

    def _step(self, ruleset: Ruleset, option: str) -> int:
        return money_step(ruleset) * (START_CASH_STEPS if option == "start_cash" else 1)

    def toggle_house_rule(self, option: str) -> None:
        """A house rule on or off: an amount turned on starts at its salaries (`SWITCHED`: landing on GO pays a
        salary more, two ones two and a half), and the pot turned off takes its seed with it."""
        ruleset = self._ruleset()
        rule = DECLARED[option].house
        if rule is not None and rule.salaries:
            on = bool(self.chosen_options().value(option))
            salary = ruleset.options.salary or money_step(ruleset) * 4
            start = max(self._least(ruleset, option), round(salary * rule.salaries))
            self.set_option(option, 0 if on else start)
            return
        d = self._draft()
        value = not bool(self.chosen_options().value(option))
        d.choose(option, value)
        if not value:  # the pot turned off: nothing to seed
            for name, declared in DECLARED.items():
                if declared.house is not None and declared.house.shown_with == option:
                    d.choose(name, declared.default)
        self.changed()

    def step_house_rule(self, option: str, direction: int) -> None:
        """An amount one step up (`direction` 1) or down (-1), never below its least."""
        ruleset = self._ruleset()
        value = int(self.chosen_options().value(option)) + direction * self._step(ruleset, option)
        self.set_option(option, max(self._least(ruleset, option), value))

    def chosen_options(self) -> Options:
        """Every option of the game being set up: the ruleset's, with the family's changes (those it may make)."""
        d = self._draft()
        return options_from({k: v for k, v in d.options.items() if valid_choice(k, v)}, self._ruleset().options)

    def in_force(self) -> list[str]:
        """The house rules the game being set up will have, in words (`view.house_rules`)."""
        return [r["text"] for r in view.house_rules(self.s, self._ruleset(), self.chosen_options())]

    def house(self) -> dict[str, Any]:
        """The house rules page: the starting cash, then each house rule the ruleset allows, with its name, what
        it does in one line and its state: {"option", "name", "what", "switch" (None: an amount alone, else
        whether it is on), "amount" (None: on or off alone, else {"value", "shown", "lower"})}."""
        d = self._draft()
        tr = self.s.tr
        ruleset = self._ruleset()
        chosen = self.chosen_options()
        rows = []
        for option in ("start_cash", *offered_house_rules(ruleset)):
            declared = DECLARED[option]
            rule = declared.house
            if rule is not None and rule.shown_with and not chosen.value(rule.shown_with):
                continue
            value = chosen.value(option)
            amount = None
            if not declared.switch:  # the starting cash, or an amount
                value = int(value)
                switch = value > 0 if rule is not None and rule.salaries else None
                if switch is not False:
                    shown = tr.money(value) if value or option == "start_cash" else tr("ui.house.none")
                    amount = {"value": value, "shown": shown, "lower": value > self._least(ruleset, option)}
            else:
                switch = (not value) if rule is not None and rule.inverted else bool(value)
            rows.append({"option": option, "name": tr(declared.house_words()), "what": tr(declared.house_words("what")),
                         "switch": switch, "amount": amount})
        return {"rules": self._title(d.rules), "rows": rows}

    def set_time_limit(self, minutes: int) -> None:
        self._draft().time_limit = max(TIME_LIMIT_LEAST, min(TIME_LIMIT_MOST, minutes))
        self.changed()

    def set_pin(self, pin: str) -> None:
        """The new game's banker PIN (from the digit pad, ui/flows/pad.py)."""
        if self.draft is not None:
            self.draft.pin, self.draft.pin_record, self.draft.pin_digits = pin, None, 0

    # ------------------------------------------------------------------ the start

    def problems(self) -> list[str]:
        """What still stops the game from starting, in words."""
        return [self.s.tr.render(m) for m in self._problems()]

    def _problems(self) -> list[Msg]:
        d = self._draft()
        problems = []
        names = [p.name for p in d.players]
        if any(not n for n in names):
            problems.append(msg("ui.setup.need_names"))
        if len(set(names)) != len(names):
            problems.append(msg("ui.setup.same_name"))
        if any(n.lower() == "bank" for n in names):
            problems.append(msg("ui.setup.bank_name"))
        if self.s.settings.taps and any(p.card is None for p in d.players):
            problems.append(msg("ui.setup.need_cards"))
        ruleset = self._ruleset()
        if not ruleset.players_min <= len(d.players) <= ruleset.players_max:  # showdown 3, teams 4
            problems.append(msg("ui.setup.player_count", least=ruleset.players_min, most=ruleset.players_max))
        return problems

    def _still(self, draft: Draft, problem: Msg) -> bool:
        """Whether `problem` still stops this draft from starting (False once the draft is gone)."""
        return self.draft is draft and problem in self._problems()

    def start(self) -> bool:
        """Start the game as set up (journaled at once); each problem that stops it is said and stands until the
        family has fixed its cause."""
        d = self._draft()
        problems = self._problems()
        if problems:
            for problem in problems:
                self.s.notify(problem, "error", "error", holds=partial(self._still, d, problem))
            self.changed()
            return False
        chosen = dict(d.options)
        if d.time_limit is not None:
            chosen["time_limit"] = d.time_limit
        header = Header(rules=d.rules, players=[p.name for p in d.players], seed=secrets.randbits(48),
                        options=chosen, setup=d.setup)
        meta: dict[str, Any] = {
            "cards": {p.card: p.name for p in d.players if p.card},
            "colours": {p.name: p.colour for p in d.players},
            "started": self.s.clock(),
        }
        pin = self._pin_record(d)
        if pin is not None:
            meta["pin"] = dict(pin)  # the hash made for the draft's file (scrypt once per PIN)
        try:
            live = self.s.journal.start(header, self._ruleset(), meta=meta)
        except (BankerError, ValueError) as exc:
            self.s.error(exc)
            self.changed()
            return False
        self._kept, self.showing = None, False  # the draft is the game now: gone, here and on disk
        if self.file is not None:
            self.file.remove()
        self.s.open(live, fresh=True)
        if live.game.deal_owed:
            self.s.apply({"do": "deal"})  # the banker shuffles and deals the title deeds
        self.changed()
        return True

    # ------------------------------------------------------------------ what the screen shows

    def view(self) -> dict[str, Any]:
        """The new-game screen: the rulesets, the players and their cards, the house rules chosen (in words: they
        are chosen on the house rules page, `house`), brands' own table and a timed game's length."""
        d = self._draft()
        tr = self.s.tr
        ruleset = self._ruleset()
        facts = Variant.of_ruleset(ruleset)
        custom = None
        if facts.builds_at_turn_start:  # brands: the family's own table
            chosen = self.chosen_options()
            numbers = []
            for option, step, least in CUSTOM_OPTIONS:
                value = int(chosen.value(option))
                shown = tr.number(value)
                numbers.append({"option": option, "value": value, "shown": shown, "step": step, "least": least})
            custom = {"numbers": numbers, "build_evenly": chosen.build_evenly}
        titles = {e.name: e.title for e in self.editions()}
        time_limit = (d.time_limit or ruleset.options.time_limit) if ruleset.options.time_limit else None
        return {
            "rulesets": [{"name": name, "text": self._title(name, titles), "chosen": name == d.rules,
                          "edition": name in titles} for name in self.rulesets()],
            "players": [{"index": k, "name": p.name, "colour": p.colour, "card": p.card is not None,
                         "registering": d.registering == k} for k, p in enumerate(d.players)],
            "can_add": len(d.players) < ruleset.players_max,  # the ruleset's most (biznes 6): Add a player greyed
            "can_remove": len(d.players) > 2,  # two at least
            "pin_digits": d.pin_length(), "house_rules": self.in_force(), "custom": custom, "time_limit": time_limit,
            "problems": self.problems(),
            # The problems Start was refused for (said in red in the hint's own place, never repeated below it).
            "refused": [p for p in self.problems() if p in {n["text"] for n in self.s.notice_lines(NOTICES_KEPT)}],
        }


__all__ = ["CUSTOM_OPTIONS", "Draft", "DraftPlayer", "PLAYER_COLOURS", "SetupFlow", "card_uid", "money_step",
           "valid_choice"]
