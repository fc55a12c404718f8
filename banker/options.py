"""The options: every knob a ruleset file or a game's table may set, each declared once, and a game's typed value.

`Options` is one frozen value per game (`game.options`) and per ruleset (`ruleset.options`), with a typed field
for each option. Each field is the option's one declaration: its name (the field's), its type (true/false or a
whole number), its default (the classic game's; the rulebook's for a house rule), its range, whether it is an
amount of money, whether the phone editor offers it, and for a house rule its place on the new-game screen,
how the screen shows it, what board it needs and its message names (`HouseRule`). `DECLARED` lists the
declarations (`Option`), in the order of the fields; `OPTION_DEFAULTS`, `OPTION_RANGES` and `HOUSE_RULES` are
views of them.

Option names are the names of the ruleset files, the game scripts' headers and the journal: `options_from`
reads them (checking each value alone: known, of its kind, in its range) and `Options.to_dict` writes them
back. What a ruleset's board and dice cannot play together is the ruleset's to say
(`banker.ruleset.check_option_combinations`, which asks each house rule's `HouseRule.needs` here).

Adding a house rule (docs/engine.md, "Adding a house rule"): a field below with its `HouseRule`; its effect in
the engine, read as `game.options.<name>`; its words (the `ui.house.<name>` messages); a row in
docs/rulesets.md's tables (tests/test_options.py checks them against the declarations).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Final

__all__ = ["DECLARED", "HOUSE_RULES", "HouseRule", "MAX_WHOLE_NUMBER", "Need", "OPTION_DEFAULTS", "OPTION_RANGES",
           "Option", "OptionError", "Options", "Value", "options_from", "shown"]

# An option's value: true or false, or a whole number. Typed Any rather than `int | bool`: mypy folds that union
# into `int`, and the compiled build would then turn true into 1 wherever such a value passes through a variable.
Value = Any

# Every whole number a ruleset file holds, wherever it is (prices, rents, card amounts, options), lies within
# -MAX_WHOLE_NUMBER .. MAX_WHOLE_NUMBER, and each option within its own range below.
MAX_WHOLE_NUMBER: Final = 1_000_000_000


@dataclass(frozen=True, slots=True)
class Need:
    """What a ruleset must have for a house rule to make sense on it; `problem` words its lack, with {rules}
    (the ruleset's name) and {dice} (its dice). One of `space`, `dice`, `fact` is set."""

    problem: str
    space: str = ""  # a space of this kind on the board
    dice: int = 0  # exactly this many dice
    fact: str = ""  # this fact of the ruleset's variant (banker.variant.Variant), which its mechanics answer


@dataclass(frozen=True, slots=True)
class HouseRule:
    """An option the new-game screen offers a family (docs/rulesets.md, "House rules").

    Its message names are `ui.house.<name>` (its name on the house rules page), `ui.house.<name>.what` (what it
    does, in one line) and `ui.house.<name>.on` (it in force, with {amount}): `Option.house_words`."""

    place: int  # its place on the new-game screen, 1 first
    needs: tuple[Need, ...] = ()  # refused where any is lacking (and not offered)
    pointless: str = ""  # a fact of the variant under which it changes nothing: not offered (still accepted)
    inverted: bool = False  # shown worded the other way round: on means the option false ("No auctions")
    salaries: float = 0.0  # an amount turned on and off: turned on at this many salaries (0: an amount alone)
    shown_with: str = ""  # shown only while this other house rule is on


@dataclass(frozen=True, slots=True)
class Option:
    """One option's declaration (`DECLARED`): made from the field of `Options` that declares it."""

    name: str
    default: Value
    least: int = 0  # a whole number's range, least to most (0, 0 for true/false)
    most: int = 0
    money: bool = False  # an amount of money
    editor: bool = False  # the phone editor offers it among an edition's money (label `ui.editor.option.<name>`)
    house: HouseRule | None = None

    @property
    def switch(self) -> bool:
        """True or false, not a whole number."""
        return isinstance(self.default, bool)

    @property
    def label(self) -> str:
        """The message name of its label in the phone editor (`editor`)."""
        return f"ui.editor.option.{self.name}"

    def house_words(self, part: str = "") -> str:
        """A house rule's message names: its name on the house rules page (`part` ""), what it does in one line
        ("what"), it in force with {amount} ("on")."""
        return f"ui.house.{self.name}.{part}" if part else f"ui.house.{self.name}"

    def words(self) -> tuple[str, ...]:
        """Its message names in the app's catalogues (ui/locale): the editor's label, a house rule's three."""
        keys: tuple[str, ...] = (self.label,) if self.editor else ()
        if self.house is not None:
            keys += (self.house_words(), self.house_words("what"), self.house_words("on"))
        return keys

    def check(self, value: object) -> Value:
        """`value` if it is of this option's kind and in its range; else OptionError says why."""
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise OptionError(self.name, f"must be true or false, not {shown(value)}")
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionError(self.name, f"must be a whole number, not {shown(value)}")
        least, most = self.least, self.most
        if value < 0:
            raise OptionError(self.name, f"must not be negative, not {shown(value)}")
        if least <= value <= most:
            return int(value)
        if self.name.endswith("_percent") or most <= 10:
            raise OptionError(self.name, f"must be {least} to {most}, not {shown(value)}")
        if value < least:
            raise OptionError(self.name, f"must be at least {least}, not {shown(value)}")
        raise OptionError(self.name, f"must be at most {most}, not {shown(value)}")

    def parse(self, text: str) -> Value:
        """A value written on the command line (`banker simulate --option NAME=VALUE`): true, false or digits."""
        word = text.strip().lower()
        if self.switch:
            if word not in ("true", "false"):
                raise OptionError(self.name, f"must be true or false, not {text!r}")
            return word == "true"
        if not (word.isascii() and word.isdigit() and len(word) <= 18):
            raise OptionError(self.name, f"must be a whole number, not {text!r}")
        return self.check(int(word))


class OptionError(ValueError):
    """An option that is unknown (`unknown`), or whose value is not of its kind or not in its range."""

    def __init__(self, option: str, problem: str, unknown: bool = False) -> None:
        super().__init__(f"unknown option {option!r}" if unknown else f"option {option!r}: {problem}")
        self.option = option
        self.problem = problem
        self.unknown = unknown


def shown(value: object) -> str:
    """A value as an error message shows it: its repr, cut short if long."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# The declarations' makers: each returns the dataclass field that declares the option (typed Any for the
# class body: the field's type is the annotation beside it).
_MONEY = (0, MAX_WHOLE_NUMBER)
_PERCENT = (0, 100)
_SECONDS = (0, 86_400)  # a day
_MINUTES = (0, 10_080)  # a week


def _declare(default: Value, least: int = 0, most: int = 0, money: bool = False, editor: bool = False,
             house: HouseRule | None = None) -> Any:
    return field(default=default, metadata={"option": Option("", default, least, most, money, editor, house)})


def switch(default: bool, house: HouseRule | None = None) -> Any:
    """True or false."""
    return _declare(default, house=house)


def whole(default: int, least: int, most: int, editor: bool = False) -> Any:
    """A whole number from least to most."""
    return _declare(default, least, most, editor=editor)


def money(default: int, editor: bool = False, house: HouseRule | None = None) -> Any:
    """An amount of money, 0 to MAX_WHOLE_NUMBER."""
    return _declare(default, *_MONEY, money=True, editor=editor, house=house)


def percent(default: int, least: int = 0, editor: bool = False) -> Any:
    """A percent, least to 100."""
    return _declare(default, least, 100, editor=editor)


def seconds(default: int) -> Any:
    """A table timer in seconds, 0 (none) to a day."""
    return _declare(default, *_SECONDS)


def minutes(default: int, least: int = 0) -> Any:
    """Minutes of play, least to a week."""
    return _declare(default, least, _MINUTES[1])


_FREE_PARKING = Need("the board of {rules} has no Free Parking space", space="free_parking")
_GO = Need("the board of {rules} has no GO space", space="go")


@dataclass(frozen=True, slots=True)
class Options:
    """Every option of a game (or a ruleset): one typed field each, each field the option's declaration.

    Made by `options_from` (each value checked); frozen: a game's options never change."""

    start_cash: int = money(1500, editor=True)
    salary: int = money(200, editor=True)
    income_tax_flat: int = money(200, editor=True)
    income_tax_percent: int = percent(10, editor=True)
    luxury_tax: int = money(75, editor=True)
    jail_fine: int = money(50, editor=True)
    # This many doubles in a row send the player straight to jail.
    doubles_to_jail: int = whole(3, 1, 100)
    # A player in jail tries this many turns to roll a double; after the last, the fine is paid and they move.
    jail_tries: int = whole(3, 1, 100)
    houses: int = whole(32, 0, 10_000)
    hotels: int = whole(12, 0, 10_000)
    # A group's base rent doubles even with a lot of it mortgaged; off: the rulebook 003's reading.
    double_rent_with_mortgaged: bool = switch(True, HouseRule(
        8, inverted=True, needs=(Need("there are no mortgages in {rules}", fact="has_mortgages"),)))
    # The Czech rule: build only on the lot the token stands on (pointless where buildings go up on a visit).
    build_only_on_visit: bool = switch(False, HouseRule(9, pointless="builds_on_visit"))
    end_after_bankruptcies: int = whole(0, 0, 8)
    # A declined property is auctioned; off: "no auctions".
    auction_on_decline: bool = switch(True, HouseRule(7, inverted=True))
    # Taxes, fines and card payments to the bank go into a pot the next player on Free Parking takes.
    free_parking_pot: bool = switch(False, HouseRule(1, needs=(_FREE_PARKING,)))
    hotel_houses: int = whole(4, 1, 4)
    # At most the deeds each of the most players can be dealt, too (check_option_combinations).
    deal_deeds: int = whole(0, 0, 60)
    bankrupt_buildings_to_creditor: bool = switch(False)
    time_limit: int = minutes(0)
    mortgage_interest_percent: int = percent(10, editor=True)
    # The tax space of biznes (Akcyza).
    excise_tax: int = money(100, editor=True)
    # Used only with auction = "stepped": the opening bid of a decline auction
    # in percent of the price (rounded up), and the exact raise of every bid.
    auction_start_percent: int = percent(75, least=1)
    auction_step: int = whole(10, 1, MAX_WHOLE_NUMBER)
    # Used only with building = "visit": build steps per visit of a lot.
    builds_per_visit: int = whole(1, 1, 100)
    # Used only with trade = "once_per_move": accepted trades per move.
    trades_per_move: int = whole(1, 1, 100)
    # Used only where own-property auctions exist (debt = "sell_off", trade =
    # "once_per_move"): the app cancels one with no bid after this many seconds
    # (a table timer, not an engine rule).
    own_auction_cancel_seconds: int = seconds(60)
    # ---- brands (rulebook 001) and its modes. Each default keeps the classic
    # game as it was: an option the classic rulesets never set changes nothing.
    # Extra money for landing exactly on the start (not for passing it).
    start_landing_bonus: int = money(0, editor=True, house=HouseRule(3, needs=(_GO,), salaries=1.0))
    # Percent of a building's cost the bank pays back when it is sold; 0 to 100.
    building_refund_percent: int = percent(50)
    # Used only with building = "turn_start": build steps per colour group per
    # turn; 0 = any number.
    builds_per_group_turn: int = whole(1, 0, 100)
    # Used only with mortgage = "expiring": lifting a mortgage costs this
    # percent of the price (1 to 100), and a mortgage not lifted within this
    # many of its owner's rounds (at least 1) is lost to a bank auction.
    unmortgage_percent: int = percent(60, least=1)
    mortgage_rounds: int = whole(7, 1, 1_000)
    # Used only with trade = "balanced": accepted trades per turn; at least 1.
    trades_per_turn: int = whole(3, 1, 100)
    # The casino space: the stake, what each bet adds to the jackpot (from the
    # bank), the jackpot's chance (one in casino_jackpot_odds, at least 1) and
    # the jackpot at the start of the game; a hit pays the stake times
    # casino_payout (at least 1) over the count of numbers bet on.
    casino_bet: int = money(1000, editor=True)
    casino_payout: int = whole(6, 1, 1_000)
    casino_jackpot_add: int = money(500, editor=True)
    casino_jackpot_odds: int = whole(20, 1, 1_000_000)
    casino_jackpot_start: int = money(0, editor=True)
    # The dynamic economy, on the app's clock (minutes of play; 0 = never):
    # no salary from salary_stop_minutes on; a rent tax from
    # rent_tax_start_minutes on, starting at rent_tax_start_percent, rising by
    # rent_tax_step_percent every rent_tax_step_minutes (at least 1), up to
    # rent_tax_max_percent. Percents are 0 to 100.
    salary_stop_minutes: int = minutes(0)
    rent_tax_start_minutes: int = minutes(0)
    rent_tax_start_percent: int = percent(50)
    rent_tax_step_percent: int = percent(10)
    rent_tax_step_minutes: int = minutes(5, least=1)
    rent_tax_max_percent: int = percent(99)
    # Table timers in seconds (0 = none): a turn, an auction bid, a debt, a
    # pause vote; and the skipped (timed-out) turns in a row that bankrupt a
    # player (0 = never).
    turn_seconds: int = seconds(0)
    skipped_turns_bankrupt: int = whole(3, 0, 1_000)
    bid_seconds: int = seconds(0)
    debt_seconds: int = seconds(0)
    pause_vote_seconds: int = seconds(30)
    # The round from which a third, speed die is rolled; 0 = no speed die.
    speed_die_round: int = whole(0, 0, 10_000)
    # An owner in jail collects no rent.
    jail_no_rent: bool = switch(False, HouseRule(4))
    # Used only with building = "turn_start": build and sell evenly across a group.
    build_evenly: bool = switch(True)
    # Used only with trade = "balanced": the value limits between the two sides.
    trade_balance: bool = switch(True)
    # Two teams: seats 1 and 3 against seats 2 and 4 (needs players = [4, 4]).
    teams: bool = switch(False)
    # Every property dealt out before the first roll (brands-showdown).
    deal_all: bool = switch(False)
    # brands-showdown: a player may send their own mortgaged property to the bank's auction at once.
    mortgage_auction_now: bool = switch(False)
    # ---- House rules (docs/rulesets.md, "House rules"); each default is the rulebook's game.
    # A player buys nothing and bids in no auction before their token has passed or landed on GO once.
    buy_after_first_lap: bool = switch(False, HouseRule(5, needs=(_GO,)))
    # A roll of two ones by the player in turn pays this from the bank (0 = off).
    snake_eyes_bonus: int = money(0, editor=True, house=HouseRule(
        6, needs=(Need("two ones need two dice, and {rules} rolls {dice}", dice=2),), salaries=2.5))
    # With free_parking_pot: the bank puts this into the pot at the start and each time the pot is taken.
    free_parking_seed: int = money(0, editor=True, house=HouseRule(2, needs=(_FREE_PARKING,),
                                                                    shown_with="free_parking_pot"))

    def to_dict(self) -> dict[str, Value]:
        """Every option by its name, in the order of the declarations (`banker rules --json`)."""
        return {name: getattr(self, name) for name in _NAMES}

    def value(self, name: str) -> Value:
        """The option of this name (for code that holds option names as data: the house rules' pages, a tax
        space's `amount_option`); KeyError for a name no option has."""
        if name not in DECLARED:
            raise KeyError(name)
        return getattr(self, name)


def _declarations() -> dict[str, Option]:
    out = {}
    for f in fields(Options):
        o: Option = f.metadata["option"]
        out[f.name] = Option(f.name, o.default, o.least, o.most, o.money, o.editor, o.house)
    return out


# Every option's declaration by name, in the order of `Options`' fields.
DECLARED: Final[dict[str, Option]] = _declarations()
_NAMES: Final = tuple(DECLARED)
# Views of the declarations: every option's default; the range (least, most) of every whole-number option; the
# house rules in the order the new-game screen shows them.
OPTION_DEFAULTS: Final[dict[str, Value]] = {name: o.default for name, o in DECLARED.items()}
OPTION_RANGES: Final[dict[str, tuple[int, int]]] = {name: (o.least, o.most) for name, o in DECLARED.items()
                                                     if not o.switch}
HOUSE_RULES: Final[tuple[str, ...]] = tuple(
    name for _, name in sorted((o.house.place, name) for name, o in DECLARED.items() if o.house is not None))
DEFAULT: Final = Options()


def options_from(changes: Mapping[str, object], base: Options | None = None) -> Options:
    """`base` (the defaults when None) with `changes` (option name -> value) over it, each value checked alone
    (`Option.check`): OptionError names the first unknown option or bad value, in `changes`' order."""
    if not changes:
        return DEFAULT if base is None else base
    values: dict[str, Any] = base.to_dict() if base is not None else dict(OPTION_DEFAULTS)
    for name, value in changes.items():
        option = DECLARED.get(name)
        if option is None:
            raise OptionError(name, "unknown option", unknown=True)
        values[name] = option.check(value)
    return Options(**values)
