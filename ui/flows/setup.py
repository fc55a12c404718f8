"""A new game being set up at the table: the ruleset, the players, their colours and cards, the house rules,
the banker's PIN; then the start.

The draft (ui/flows/draft.py) is this flow's alone, and only this flow drops it: when its game starts. Leaving the
new game's pages (Back to the start screen, the settings, the hall of fame, the editions, a game resumed) only puts
it aside; New game takes it up again as it was, and it is kept in the app's data folder at every change
(ui/flows/draft.py's `DraftKeeper`, ui/drafts.py), so that it also outlives a restart of the app. A draft whose
ruleset or edition has gone is dropped. With no draft, a new game starts with the last game's players in the
journal, their colours and cards.

The players' names are typed on the keyboard page (ui/flows/names.py); a game already going on the
physical board is entered on its own page (ui/flows/progress.py); the house rules page is drawn by
ui/flows/house.py from what this flow has chosen.
"""

from __future__ import annotations

import logging
import secrets
from functools import partial
from typing import TYPE_CHECKING, Any, TypedDict

from banker.editions import Edition, list_editions
from banker.errors import BankerError, RulesetError
from banker.options import DECLARED, Options, options_from
from banker.ruleset import Ruleset, builtin_names, load_ruleset
from banker.script import Header
from banker.variant import Variant
from ui import view
from ui.drafts import DraftFile
from ui.flows.base import Flow
from ui.flows.draft import (
    PLAYER_COLOURS,
    TIME_LIMIT_LEAST,
    TIME_LIMIT_MOST,
    TIME_LIMIT_STEP,
    Draft,
    DraftKeeper,
    DraftPlayer,
    card_holder,
    card_uid,
    valid_choice,
)
from ui.flows.house import (
    CUSTOM_OPTIONS,
    CustomTable,
    HousePage,
    amount_step,
    custom_table,
    house_page,
    least_amount,
    money_step,
)
from ui.i18n import Msg, msg
from ui.session import NOTICES_KEPT

if TYPE_CHECKING:
    from ui.flows import Flows

log = logging.getLogger(__name__)

# The shipped rulesets in the order the new-game screen offers them: the classic family first, then biznes and
# the brands modes (any other after them).
RULESET_ORDER = ("classic", "classic-short", "classic-timed", "biznes", "brands", "brands-fast", "brands-showdown",
                 "brands-teams")


class RulesetButton(TypedDict):
    """A ruleset the new-game screen offers: its name, its words (an edition's title), whether it is the one
    chosen, and whether it is one of the family's editions."""

    name: str
    text: str
    chosen: bool
    edition: bool


class SetupPlayer(TypedDict):
    """A player of the new game: their place, name ("" until named), colour, whether their card is registered
    and whether the next tap registers it."""

    index: int
    name: str
    colour: str
    card: bool
    registering: bool


class SetupView(TypedDict):
    """The new-game screen (`SetupFlow.view`)."""

    rulesets: list[RulesetButton]
    players: list[SetupPlayer]
    can_add: bool  # the ruleset's most not reached: Add a player is not greyed
    can_remove: bool  # more than two: a player's X is not greyed
    pin_digits: int  # the banker's PIN's digits (0: none)
    house_rules: list[str]  # the house rules chosen, in words
    custom: CustomTable | None  # brands' own table, else None
    time_limit: int | None  # a timed game's minutes, else None
    problems: list[str]  # what stops the start, in words
    refused: list[str]  # the problems Start was refused for


class SetupFlow(Flow):
    def __init__(self, flows: Flows) -> None:
        super().__init__(flows)
        # The new game's draft: this flow's alone, put aside while the family is elsewhere and dropped only when
        # its game starts (`draft` is it while the new game's pages are up, `showing`); kept in the keeper's file
        # (the app gives it one: `keep_in`) at every change, so that it outlives the app.
        self._kept: Draft | None = None
        self.showing = False
        self.keeper = DraftKeeper()
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
        self.keeper.file = file

    def new_game(self) -> None:
        """The new-game screen: the draft put aside, as it was; else the one kept in the data folder (unless its
        ruleset or edition has gone); else the last game's players with their colours and cards, or two; every
        player with a ready name (a game can start with no typing)."""
        self.f.names.editor = None
        self._editions, self._loaded = None, None
        d = self._kept if self._kept is not None else self.keeper.from_file()
        ruleset = self.keeper.playable(d, {e.name for e in self.editions()}) if d is not None else None
        if d is not None and ruleset is None:
            self.keeper.remove()
            d = None
        elif d is not None and ruleset is not None:
            self._loaded = (d.rules, ruleset)
        if d is None:
            d = Draft(players=self.keeper.last_players(self.s.journal))
        for p in d.players:  # a card tagged since as a deed or a deck's card is no player's: registered anew
            if p.card is not None and self.s.tags.lookup(p.card) is not None:
                p.card = None
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

    def cards_kept(self) -> dict[str, str]:
        """The cards of the new game's draft, also while it is put aside or only in its file: card -> player
        ("#2" until named)."""
        d = self._kept if self._kept is not None else self.keeper.from_file()
        return {p.card: p.name or f"#{k + 1}" for k, p in enumerate(d.players) if p.card} if d is not None else {}

    def keep(self) -> None:
        """The draft into its file (at every change the session hears of; written only when it changed)."""
        if self._kept is not None and self.showing:
            self.keeper.write(self._kept)

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

    def register_tap(self, uid: str, owner: str | None, tagged: Msg | None = None) -> None:
        """A card tapped while setting up (ui/taps.py): the card of the player being registered, unless another
        player has it already or it is a tagged deed or deck card (`tagged`: which, in words); then the next
        player without a card is registered."""
        d = self._draft()
        if d.registering is None:
            return
        if tagged is not None:
            self.s.notify(msg("ui.card.tagged", item=tagged), "error", "error")
            return
        me = d.players[d.registering]
        holder = card_holder(d.players, uid)
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

    def toggle_house_rule(self, option: str) -> None:
        """A house rule on or off: an amount turned on starts at its salaries (`SWITCHED`: landing on GO pays a
        salary more, two ones two and a half), and the pot turned off takes its seed with it."""
        ruleset = self._ruleset()
        rule = DECLARED[option].house
        if rule is not None and rule.salaries:
            on = bool(self.chosen_options().value(option))
            salary = ruleset.options.salary or money_step(ruleset) * 4
            start = max(least_amount(ruleset, option), round(salary * rule.salaries))
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
        value = int(self.chosen_options().value(option)) + direction * amount_step(ruleset, option)
        self.set_option(option, max(least_amount(ruleset, option), value))

    def chosen_options(self) -> Options:
        """Every option of the game being set up: the ruleset's, with the family's changes (those it may make)."""
        d = self._draft()
        return options_from({k: v for k, v in d.options.items() if valid_choice(k, v)}, self._ruleset().options)

    def in_force(self) -> list[str]:
        """The house rules the game being set up will have, in words (`view.house_rules`)."""
        return [r["text"] for r in view.house_rules(self.s, self._ruleset(), self.chosen_options())]

    def house(self) -> HousePage:
        """The house rules page (ui/flows/house.py's `house_page`): the starting cash, then each house rule the
        ruleset allows, with its name, what it does in one line and its state."""
        d = self._draft()
        ruleset = self._ruleset()
        chosen = self.chosen_options()
        return house_page(self.s.tr, self._title(d.rules), ruleset, chosen)

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
        pin = self.keeper.pin_record(d)
        if pin is not None:
            meta["pin"] = dict(pin)  # the hash made for the draft's file (scrypt once per PIN)
        try:
            live = self.s.journal.start(header, self._ruleset(), meta=meta)
        except (BankerError, ValueError) as exc:
            self.s.error(exc)
            self.changed()
            return False
        self._kept, self.showing = None, False  # the draft is the game now: gone, here and on disk
        self.keeper.remove()
        self.s.open(live, fresh=True)
        if live.game.deal_owed:
            self.s.apply({"do": "deal"})  # the banker shuffles and deals the title deeds
        self.changed()
        return True

    # ------------------------------------------------------------------ what the screen shows

    def view(self) -> SetupView:
        """The new-game screen: the rulesets, the players and their cards, the house rules chosen (in words: they
        are chosen on the house rules page, `house`), brands' own table and a timed game's length."""
        d = self._draft()
        ruleset = self._ruleset()
        facts = Variant.of_ruleset(ruleset)
        # brands: the family's own table
        custom = custom_table(self.s.tr, self.chosen_options()) if facts.builds_at_turn_start else None
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


# Kept importable from here, where they were first: the new-game screen's and the tests' names.
__all__ = ["CUSTOM_OPTIONS", "Draft", "DraftPlayer", "PLAYER_COLOURS", "RulesetButton",
           "SetupFlow", "SetupPlayer", "SetupView", "TIME_LIMIT_STEP", "card_uid", "money_step", "valid_choice"]
