"""A new game being set up at the table: the ruleset, the players, their colours and cards, the house rules,
the banker's PIN; then the start.

The players' names are typed on the keyboard page (ui/flows/names.py); a game already going on the
physical board is entered on its own page (ui/flows/progress.py).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from banker.editions import Edition, list_editions
from banker.errors import BankerError, RulesetError
from banker.ruleset import Ruleset, builtin_names, load_ruleset, offered_house_rules
from banker.script import Header
from banker.variant import Variant
from ui import view
from ui.flows.base import Flow
from ui.i18n import Msg, msg
from ui.pin import hash_pin
from ui.session import NOTICES_KEPT

PLAYER_COLOURS = ["#E53935", "#1E88E5", "#43A047", "#FDD835", "#8E24AA", "#FB8C00", "#00ACC1", "#EC407A"]
# The house rules page (`SetupFlow.house`) offers the ruleset's `offered_house_rules`, each as one of:
# a rule on or off; `INVERTED`: one worded the other way round, on meaning the option false ("No auctions");
# `SWITCHED`: an amount, 0 when off, that starts at so many salaries when turned on and then steps by
# `money_step` (never below one step); `AMOUNTS`: an amount alone, from 0 ("none"), in the same steps.
INVERTED = ("auction_on_decline", "double_rent_with_mortgaged")
SWITCHED = {"start_landing_bonus": 1.0, "snake_eyes_bonus": 2.5}
AMOUNTS = ("free_parking_seed",)
SHOWN_WITH = {"free_parking_seed": "free_parking_pot"}  # shown only while the other is on
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

    def names(self) -> list[str]:
        """The players being set up, by name (#1, #2... until named)."""
        return [p.name or f"#{k + 1}" for k, p in enumerate(self.players)]


def money_step(ruleset: Ruleset) -> int:
    """The step of the house rules' amounts on the -/+ buttons: a round quarter of the salary (50 in classic,
    500 in brands), or of an eighth of the starting cash where a ruleset pays no salary."""
    base = int(ruleset.options["salary"]) or int(ruleset.options["start_cash"]) // 8
    quarter = max(1, base // 4)
    power = int(10 ** (len(str(quarter)) - 1))
    return max(m * power for m in (1, 2, 5) if m * power <= quarter)


class SetupFlow(Flow):
    def __init__(self, flows: Any) -> None:
        super().__init__(flows)
        self.draft: Draft | None = None
        # The family's editions as the new-game screen found them when it opened, and the draft's ruleset as
        # loaded when chosen: an edition's file is read once per new game, not at every touch (listing three
        # takes about 50 ms on a PC), and a game starts on the edition as it was chosen.
        self._editions: list[Edition] | None = None
        self._loaded: tuple[str, Ruleset] | None = None

    def opened(self, fresh: bool) -> None:
        self.draft = None  # a game is on: started from this draft, or resumed

    # ------------------------------------------------------------------ the draft

    def new_game(self) -> None:
        """The new-game screen, every player with a ready name (a game can start with no typing)."""
        self.f.names.editor = None
        self._editions, self._loaded = None, None
        self.draft = Draft(players=[DraftPlayer("", PLAYER_COLOURS[0]), DraftPlayer("", PLAYER_COLOURS[1])])
        self.f.names.fill()

    def cancel(self) -> None:
        """Back to the start screen: the draft goes (and the editions are looked at again when a new game's
        screen comes back: they are renamed and deleted from the start screen's side)."""
        self.draft = None
        self._editions, self._loaded = None, None
        self.changed()

    def _draft(self) -> Draft:
        if self.draft is None:
            self.draft = Draft()
        return self.draft

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
        holder = next((p for p in d.players if p.card == uid), None)
        if holder is not None and holder is not me:
            self.s.notify(msg("ui.card.taken", owner=owner), "error", "error")
            return
        me.card = uid
        self.s.notify(msg("ui.card.registered", player=me.name or f"#{d.registering + 1}"), "info", "payment")
        d.registering = next((k for k, p in enumerate(d.players) if p.card is None), None)

    def set_option(self, option: str, value: Any) -> None:
        """A house rule on or off, or a number of the family's own table (brands)."""
        self._draft().options[option] = value
        self.changed()

    def set_custom(self, option: str, value: int) -> None:
        """A number of brands' custom table, no lower than its least value (CUSTOM_OPTIONS)."""
        least = next(least for name, _step, least in CUSTOM_OPTIONS if name == option)
        self.set_option(option, max(least, value))

    # ------------------------------------------------------------------ the house rules

    def _value(self, option: str) -> Any:
        d = self._draft()
        return d.options.get(option, self._ruleset().options[option])

    def _least(self, ruleset: Ruleset, option: str) -> int:
        step = money_step(ruleset)
        if option == "start_cash":
            return max(step, int(ruleset.options["salary"]))
        return step if option in SWITCHED else 0

    def _step(self, ruleset: Ruleset, option: str) -> int:
        return money_step(ruleset) * (START_CASH_STEPS if option == "start_cash" else 1)

    def toggle_house_rule(self, option: str) -> None:
        """A house rule on or off: an amount turned on starts at its salaries (`SWITCHED`: landing on GO pays a
        salary more, two ones two and a half), and the pot turned off takes its seed with it."""
        ruleset = self._ruleset()
        if option in SWITCHED:
            on = bool(self._value(option))
            salary = int(ruleset.options["salary"]) or money_step(ruleset) * 4
            start = max(self._least(ruleset, option), round(salary * SWITCHED[option]))
            self.set_option(option, 0 if on else start)
            return
        value = not bool(self._value(option))
        self._draft().options[option] = value
        if option == "free_parking_pot" and not value:
            self._draft().options["free_parking_seed"] = 0  # no pot, nothing to seed
        self.changed()

    def step_house_rule(self, option: str, direction: int) -> None:
        """An amount one step up (`direction` 1) or down (-1), never below its least."""
        ruleset = self._ruleset()
        value = int(self._value(option)) + direction * self._step(ruleset, option)
        self.set_option(option, max(self._least(ruleset, option), value))

    def chosen_options(self) -> dict[str, Any]:
        """Every option of the game being set up: the ruleset's, with the family's changes."""
        d = self._draft()
        ruleset = self._ruleset()
        return {**ruleset.options, **d.options}

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
        rows = []
        for option in ("start_cash", *offered_house_rules(ruleset)):
            shown_with = SHOWN_WITH.get(option)
            if shown_with is not None and not self._value(shown_with):
                continue
            value = self._value(option)
            amount = None
            if option == "start_cash" or option in SWITCHED or option in AMOUNTS:
                value = int(value)
                switch = None if option == "start_cash" or option in AMOUNTS else value > 0
                if switch is not False:
                    shown = tr.money(value) if value or option == "start_cash" else tr("ui.house.none")
                    amount = {"value": value, "shown": shown, "lower": value > self._least(ruleset, option)}
            else:
                switch = (not value) if option in INVERTED else bool(value)
            rows.append({"option": option, "name": tr(f"ui.house.{option}"), "what": tr(f"ui.house.{option}.what"),
                         "switch": switch, "amount": amount})
        return {"rules": self._title(d.rules), "rows": rows}

    def set_time_limit(self, minutes: int) -> None:
        self._draft().time_limit = max(TIME_LIMIT_LEAST, min(TIME_LIMIT_MOST, minutes))
        self.changed()

    def set_pin(self, pin: str) -> None:
        """The new game's banker PIN (from the digit pad, ui/flows/pad.py)."""
        if self.draft is not None:
            self.draft.pin = pin

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
                self.s.notify(problem, "error", "error", holds=lambda p=problem, d=d: self._still(d, p))
            self.changed()
            return False
        options = dict(d.options)
        if d.time_limit is not None:
            options["time_limit"] = d.time_limit
        header = Header(rules=d.rules, players=[p.name for p in d.players], seed=secrets.randbits(48),
                        options=options, setup=d.setup)
        meta: dict[str, Any] = {
            "cards": {p.card: p.name for p in d.players if p.card},
            "colours": {p.name: p.colour for p in d.players},
            "started": self.s.clock(),
        }
        if d.pin:
            meta["pin"] = hash_pin(d.pin)
        try:
            live = self.s.journal.start(header, self._ruleset(), meta=meta)
        except (BankerError, ValueError) as exc:
            self.s.error(exc)
            self.changed()
            return False
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
            numbers = []
            for option, step, least in CUSTOM_OPTIONS:
                value = int(d.options.get(option, ruleset.options[option]))
                shown = tr.number(value)
                numbers.append({"option": option, "value": value, "shown": shown, "step": step, "least": least})
            custom = {"numbers": numbers,
                      "build_evenly": bool(d.options.get("build_evenly", ruleset.options["build_evenly"]))}
        titles = {e.name: e.title for e in self.editions()}
        time_limit = (d.time_limit or int(ruleset.options["time_limit"])) if ruleset.options["time_limit"] else None
        return {
            "rulesets": [{"name": name, "text": self._title(name, titles), "chosen": name == d.rules,
                          "edition": name in titles} for name in self.rulesets()],
            "players": [{"index": k, "name": p.name, "colour": p.colour, "card": p.card is not None,
                         "registering": d.registering == k} for k, p in enumerate(d.players)],
            "can_add": len(d.players) < ruleset.players_max,  # the ruleset's most (biznes 6): Add a player greyed
            "can_remove": len(d.players) > 2,  # two at least
            "pin": d.pin, "house_rules": self.in_force(), "custom": custom, "time_limit": time_limit,
            "problems": self.problems(),
            # The problems Start was refused for (said in red in the hint's own place, never repeated below it).
            "refused": [p for p in self.problems() if p in {n["text"] for n in self.s.notice_lines(NOTICES_KEPT)}],
        }


__all__ = ["AMOUNTS", "CUSTOM_OPTIONS", "Draft", "DraftPlayer", "INVERTED", "PLAYER_COLOURS", "SWITCHED", "SetupFlow",
           "money_step"]
