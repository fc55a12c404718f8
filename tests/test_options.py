"""The options (banker/options.py): one typed, frozen `Options` a game and a ruleset, each option declared once as
its field, and everything else read from those declarations: no option read by name outside the module, the
docs' tables, the app's message names, what a house rule needs of a board (asked of the board, the dice and the
variant's facts, never of a mechanic's name), and `banker simulate --option`."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

from banker import limits
from banker.cli import main
from banker.errors import RulesetError, SetupError
from banker.game import Game
from banker.mechanics.building import Visit
from banker.mechanics.mortgage import NoMortgages
from banker.options import (
    DECLARED,
    HOUSE_RULES,
    MAX_WHOLE_NUMBER,
    OPTION_DEFAULTS,
    OPTION_RANGES,
    OptionError,
    Options,
    options_from,
)
from banker.ruleset import load_ruleset, offered_house_rules, option_problem, ruleset_from_data
from banker.variant import Variant
from variantkit import registered

ROOT = Path(__file__).resolve().parent.parent


# ---------------------------------------------------------------- no option read by name outside its module

def _options_expression(node: ast.expr) -> bool:
    """`options`, `x.options` or `x.chosen_options()`: an expression that holds a game's or a table's options."""
    if isinstance(node, ast.Name):
        return node.id == "options"
    if isinstance(node, ast.Attribute):
        return node.attr == "options"
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "chosen_options")


def option_reads(source: str) -> list[int]:
    """The lines of `source` that index options by name (`options["salary"]`, `game.options[key] = ...`) or
    call `.get` on them (`d.options.get("teams")`)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Subscript) and _options_expression(node.value):
            lines.append(node.lineno)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
              and _options_expression(node.func.value)):
            lines.append(node.lineno)
    return sorted(lines)


def test_the_finder_finds_what_it_looks_for() -> None:
    planted = ('x = game.options["salary"]\nd.options[key] = 1\ny = options.get("teams", False)\n'
               'z = f.setup.chosen_options()["free_parking_pot"]\nok = game.options.salary\n')
    assert option_reads(planted) == [1, 2, 3, 4]


def test_no_option_is_read_by_name_outside_the_options_module() -> None:
    """The issue's words: no `options[` or `.options.get(` in banker/ or ui/ but banker/options.py; each option is
    a typed field (`game.options.salary`), and code that holds option names as data asks `Options.value`."""
    found = []
    for folder in ("banker", "ui"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == ROOT / "banker" / "options.py":
                continue
            text = path.read_text("utf-8")
            rel = path.relative_to(ROOT)
            found += [f"{rel}:{line}" for line in option_reads(text)]
            found += [f"{rel}:{text.count(chr(10), 0, m.start()) + 1} (text)"
                      for m in re.finditer(r"options\[|\.options\.get\(", text)]
    assert not found, f"options read by name (use the typed field, or Options.value): {found}"


# ---------------------------------------------------------------- the declarations

def test_each_field_of_options_is_a_declaration() -> None:
    names = [f.name for f in dataclasses.fields(Options)]
    assert names == list(DECLARED) == list(OPTION_DEFAULTS)
    defaults = Options()
    for name, option in DECLARED.items():
        assert option.name == name
        assert defaults.value(name) == option.default and type(defaults.value(name)) is type(option.default), name
        if option.switch:
            assert name not in OPTION_RANGES and not option.money and not option.editor, name
            continue
        assert OPTION_RANGES[name] == (option.least, option.most), name
        assert 0 <= option.least <= option.default <= option.most <= MAX_WHOLE_NUMBER, name
        assert option.most <= limits.MAX_INT, name  # a game script's numbers hold every option (game_setup)
        if option.money:
            assert (option.least, option.most) == (0, MAX_WHOLE_NUMBER), name


def test_house_rules_are_declared_whole() -> None:
    places = [DECLARED[name].house.place for name in HOUSE_RULES]  # type: ignore[union-attr]
    assert places == list(range(1, len(HOUSE_RULES) + 1))
    facts = {f.name for f in dataclasses.fields(Variant) if f.type in ("bool", bool)}
    for name in HOUSE_RULES:
        option = DECLARED[name]
        rule = option.house
        assert rule is not None
        for need in rule.needs:
            assert sum(map(bool, (need.space, need.dice, need.fact))) == 1, name
            assert not need.fact or need.fact in facts, (name, need.fact)
            assert "{rules}" in need.problem, name
        assert not rule.pointless or rule.pointless in facts, name
        assert not rule.inverted or option.switch, name  # a switch worded the other way round
        assert not rule.salaries or option.money, name  # an amount turned on at so many salaries
        if not option.switch:
            assert option.money, name  # the page steps every amount by the money step
        assert not rule.shown_with or DECLARED[rule.shown_with].switch and DECLARED[rule.shown_with].house, name


def test_every_message_the_declarations_name_is_in_the_catalogue() -> None:
    catalogue = (ROOT / "ui" / "locale" / "en" / "LC_MESSAGES" / "banker.po").read_text("utf-8")
    known = set(re.findall(r'^msgid "(.+)"$', catalogue, re.M))
    named = [key for option in DECLARED.values() for key in option.words()]
    assert len(named) == sum(o.editor for o in DECLARED.values()) + 3 * len(HOUSE_RULES)
    assert not [key for key in named if key not in known]


def test_options_are_typed_frozen_and_come_back_as_they_were_written() -> None:
    game = Game(load_ruleset("classic"), ["Ann", "Ben"], {"snake_eyes_bonus": 500, "jail_no_rent": True})
    assert isinstance(game.options, Options) and game.options.snake_eyes_bonus == 500 and game.options.jail_no_rent
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.options.salary = 1  # type: ignore[misc]
    written = game.options.to_dict()
    assert list(written) == list(DECLARED)
    assert all(type(written[name]) is type(option.default) for name, option in DECLARED.items())  # true stays true
    assert options_from(written) == game.options
    assert game.options.value("jail_no_rent") is True
    with pytest.raises(KeyError):
        game.options.value("salry")


def test_each_value_is_checked_alone_by_its_declaration() -> None:
    with pytest.raises(OptionError) as unknown:
        options_from({"salary": 100, "salry": 1})
    assert (unknown.value.option, unknown.value.unknown, str(unknown.value)) == ("salry", True, "unknown option 'salry'")
    for name, value, problem in (("teams", 1, "must be true or false, not 1"),
                                 ("salary", True, "must be a whole number, not True"),
                                 ("salary", -5, "must not be negative, not -5"),
                                 ("hotel_houses", 5, "must be 1 to 4, not 5"),
                                 ("mortgage_rounds", 0, "must be at least 1, not 0"),
                                 ("houses", 10_001, "must be at most 10000, not 10001")):
        with pytest.raises(OptionError) as bad:
            options_from({name: value})
        assert (bad.value.option, bad.value.problem) == (name, problem)
    with pytest.raises(SetupError, match="unknown option 'salry'"):
        Game(load_ruleset("classic"), ["Ann", "Ben"], {"salry": 1})


# ---------------------------------------------------------------- what a house rule needs, asked of the variant

NO_LOANS = """format = 1
name = "biznes-no-loans"
extends = "biznes"
title = "Biznes without mortgages, by a variant of another name"
description = "The mortgage family's none under a name of its own."

[mechanics]
mortgage = "no_loans"
"""

ON_VISIT = (NO_LOANS.replace("biznes-no-loans", "classic-on-visit").replace('extends = "biznes"', 'extends = "classic"')
            .replace('mortgage = "no_loans"', 'building = "on_visit"'))


class NoLoans(NoMortgages):
    """The family's `none`, registered under another name: the name says nothing, the class answers."""


class OnVisit(Visit):
    """Building on a visit, registered under another name."""


def test_what_a_house_rule_needs_is_answered_by_the_mechanics_not_their_names(tmp_path: Path) -> None:
    with registered(tmp_path / "biznes-no-loans.toml", "mortgage", "no_loans", NoLoans, NO_LOANS) as path:
        ruleset = load_ruleset(str(path))
        assert option_problem(ruleset, "double_rent_with_mortgaged") == "there are no mortgages in biznes-no-loans"
        assert "double_rent_with_mortgaged" not in offered_house_rules(ruleset)
        assert "mortgage" not in ruleset.to_json()["spaces"][1] and ruleset.to_json()["spaces"][1]["price"] > 0
        broken = path.read_text("utf-8") + "\n[options]\ndouble_rent_with_mortgaged = false\n"
        path.write_text(broken, "utf-8")
        with pytest.raises(RulesetError, match="there are no mortgages in biznes-no-loans: it can only be true"):
            load_ruleset(str(path))
    with registered(tmp_path / "classic-on-visit.toml", "building", "on_visit", OnVisit, ON_VISIT) as path:
        ruleset = load_ruleset(str(path))
        assert "build_only_on_visit" not in offered_house_rules(ruleset)
        assert option_problem(ruleset, "build_only_on_visit") is None  # pointless there, still accepted


def test_a_board_without_mortgages_refuses_mortgage_keys_by_the_mechanic(tmp_path: Path) -> None:
    with registered(tmp_path / "biznes-no-loans.toml", "mortgage", "no_loans", NoLoans, NO_LOANS) as path:
        data = load_ruleset(str(path)).source_data()
        data["spaces"][1]["mortgage"] = 30
        with pytest.raises(RulesetError, match="this ruleset has no mortgages"):
            ruleset_from_data(data, "mine.toml")


# ---------------------------------------------------------------- banker simulate --option

def test_simulate_reads_each_option_as_declared(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert all(name in said for name in HOUSE_RULES)  # the help lists the house rules, from their declarations
    for value, problem in (("free_parking_pot=1", "option 'free_parking_pot': must be true or false, not '1'"),
                           ("snake_eyes_bonus=true", "option 'snake_eyes_bonus': must be a whole number, not 'true'"),
                           ("hotel_houses=9", "option 'hotel_houses': must be 1 to 4, not 9")):
        assert main(["simulate", "--games", "1", "--option", value]) == 2
        assert capsys.readouterr().err.strip() == f"banker simulate: {problem}"


# ---------------------------------------------------------------- docs/rulesets.md's tables

DOCS = ROOT / "docs" / "rulesets.md"


def _section(title: str) -> list[list[str]]:
    """The rows of the first table under `## title`, each a list of its cells."""
    text = DOCS.read_text("utf-8")
    body = text[text.index(f"\n## {title}\n"):]
    body = body[:body.index("\n## ", 1)]
    rows = [line for line in body.splitlines() if line.startswith("| ")]
    start = next(k for k, line in enumerate(rows) if not line.startswith("| ---"))
    table = []
    for line in rows[start + 2:]:
        if line.startswith("| ---"):
            break
        table.append([cell.strip() for cell in line.strip("|").split(" | ")])
    return table


def _value(text: str) -> int | bool:
    if text in ("true", "false"):
        return text == "true"
    return int(text.replace(",", ""))


def _range(text: str) -> tuple[int, int]:
    m = re.match(r"([\d,]+) to ([\d,]+)", text)
    assert m is not None, text
    return int(m.group(1).replace(",", "")), int(m.group(2).replace(",", ""))


def test_the_options_table_holds_every_option_with_its_default() -> None:
    documented: dict[str, int | bool] = {}
    for cells in _section("Options"):
        names = re.findall(r"`(\w+)`", cells[0])
        values = [_value(v.strip()) for v in cells[1].split(", ")]
        assert len(names) == len(values), cells
        documented.update(zip(names, values, strict=True))
    assert documented == OPTION_DEFAULTS
    assert all(type(documented[name]) is type(default) for name, default in OPTION_DEFAULTS.items())


def test_the_ranges_table_holds_every_whole_number_option_with_its_range() -> None:
    text = DOCS.read_text("utf-8")
    body = text[text.index("| range | options |"):]
    documented = {}
    for line in body.splitlines()[2:]:
        if not line.startswith("| "):
            break
        cells = [cell.strip() for cell in line.strip("|").split(" | ")]
        for name in re.findall(r"`(\w+)`", cells[1]):
            documented[name] = _range(cells[0])
    assert documented == OPTION_RANGES


def test_the_house_rules_table_holds_every_house_rule_in_its_place_with_its_default_and_values() -> None:
    rows = _section("House rules")
    assert [re.findall(r"`(\w+)`", cells[0])[0] for cells in rows] == list(HOUSE_RULES)
    for cells in rows:
        name = re.findall(r"`(\w+)`", cells[0])[0]
        option = DECLARED[name]
        assert _value(cells[1]) == option.default and type(_value(cells[1])) is type(option.default), name
        if option.switch:
            assert cells[2] == "true or false", name
        else:
            assert _range(cells[2]) == (option.least, option.most), name
        rule = option.house
        assert rule is not None
        assert (cells[-1] == "everywhere") == (not rule.needs and not rule.pointless), name
