"""The house rules of a new game as its pages offer them: the house rules page (`house_page`, drawn from what
the setup flow has chosen so far, ui/flows/setup.py), the amounts' steps and least values, and brands' own
table of numbers on the new-game screen. No Kivy here.

The house rules page offers the ruleset's `offered_house_rules`, each as its declaration says (banker/options.py,
`HouseRule`): a rule on or off, or one worded the other way round, on meaning the option false ("No auctions":
`inverted`); an amount, 0 when off, that starts at so many salaries when turned on (`salaries`) and then steps by
`money_step` (never below one step); or an amount alone, from 0 ("none"), in the same steps; shown only while
another house rule is on (`shown_with`).
"""

from __future__ import annotations

from typing import TypedDict

from banker.options import DECLARED, Options
from banker.ruleset import Ruleset, offered_house_rules
from ui.i18n import Translator

# The starting cash, every ruleset's: steps of two `money_step`s, never below a salary.
START_CASH_STEPS = 2
# brands' custom table (rulebook 001): option, step of the -/+ buttons, least value (0 = "off").
CUSTOM_OPTIONS = (("turn_seconds", 15, 0), ("salary_stop_minutes", 5, 0), ("rent_tax_start_minutes", 5, 0),
                  ("mortgage_rounds", 1, 1), ("speed_die_round", 1, 0))


class Amount(TypedDict):
    """A house rule's amount: its value, in words ("none" for 0 where that means none), and whether - may
    lower it (it is above its least)."""

    value: int
    shown: str
    lower: bool


class HouseRow(TypedDict):
    """One row of the house rules page: the option, its name and what it does in one line; `switch` None for
    an amount alone, else whether it is on; `amount` None for a rule on or off alone."""

    option: str
    name: str
    what: str
    switch: bool | None
    amount: Amount | None


class HousePage(TypedDict):
    """The house rules page: the ruleset's name, then the starting cash and each house rule it allows."""

    rules: str
    rows: list[HouseRow]


class CustomNumber(TypedDict):
    """A number of brands' own table: its option, value, the value in words, the -/+ step and its least."""

    option: str
    value: int
    shown: str
    step: int
    least: int


class CustomTable(TypedDict):
    """brands' own table on the new-game screen: its numbers, and whether buildings go up evenly."""

    numbers: list[CustomNumber]
    build_evenly: bool


def money_step(ruleset: Ruleset) -> int:
    """The step of the house rules' amounts on the -/+ buttons: a round quarter of the salary (50 in classic,
    500 in brands), or of an eighth of the starting cash where a ruleset pays no salary."""
    base = ruleset.options.salary or ruleset.options.start_cash // 8
    quarter = max(1, base // 4)
    power = int(10 ** (len(str(quarter)) - 1))
    return max(m * power for m in (1, 2, 5) if m * power <= quarter)


def least_amount(ruleset: Ruleset, option: str) -> int:
    """The least an amount may be: the starting cash a salary (and a step); an amount turned on by so many
    salaries one step; any other amount nothing."""
    step = money_step(ruleset)
    if option == "start_cash":
        return max(step, ruleset.options.salary)
    rule = DECLARED[option].house
    return step if rule is not None and rule.salaries else 0


def amount_step(ruleset: Ruleset, option: str) -> int:
    """What the -/+ buttons take away or add (`START_CASH_STEPS` steps for the starting cash)."""
    return money_step(ruleset) * (START_CASH_STEPS if option == "start_cash" else 1)


def house_page(tr: Translator, rules: str, ruleset: Ruleset, chosen: Options) -> HousePage:
    """The house rules page of a game of `ruleset` (named `rules` on the page) with the options `chosen` so
    far: the starting cash, then each house rule the ruleset allows, with its name, what it does in one line
    and its state."""
    rows: list[HouseRow] = []
    for option in ("start_cash", *offered_house_rules(ruleset)):
        declared = DECLARED[option]
        rule = declared.house
        if rule is not None and rule.shown_with and not chosen.value(rule.shown_with):
            continue
        value = chosen.value(option)
        amount: Amount | None = None
        switch: bool | None
        if not declared.switch:  # the starting cash, or an amount
            value = int(value)
            switch = value > 0 if rule is not None and rule.salaries else None
            if switch is not False:
                shown = tr.money(value) if value or option == "start_cash" else tr("ui.house.none")
                amount = {"value": value, "shown": shown, "lower": value > least_amount(ruleset, option)}
        else:
            switch = (not value) if rule is not None and rule.inverted else bool(value)
        rows.append({"option": option, "name": tr(declared.house_words()), "what": tr(declared.house_words("what")),
                     "switch": switch, "amount": amount})
    return {"rules": rules, "rows": rows}


def custom_table(tr: Translator, chosen: Options) -> CustomTable:
    """brands' own table on the new-game screen, from the options `chosen` so far: each number of
    `CUSTOM_OPTIONS` with its value in words and its -/+ step and least, and whether buildings go up evenly."""
    numbers: list[CustomNumber] = []
    for option, step, least in CUSTOM_OPTIONS:
        value = int(chosen.value(option))
        numbers.append({"option": option, "value": value, "shown": tr.number(value), "step": step, "least": least})
    return {"numbers": numbers, "build_evenly": chosen.build_evenly}


__all__ = ["Amount", "CUSTOM_OPTIONS", "CustomNumber", "CustomTable", "HousePage", "HouseRow", "START_CASH_STEPS",
           "amount_step", "custom_table", "house_page", "least_amount", "money_step"]
