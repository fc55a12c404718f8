"""Rulesets as data: the shipped ones load, broken files are refused clearly,
and a family's edited copy plays."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from banker.errors import RulesetError
from banker.ruleset import builtin_names, load_ruleset, ruleset_from_data
from banker.script import replay_text

CLASSIC_TOML = Path(__file__).resolve().parent.parent / "banker" / "rulesets" / "classic.toml"


def classic_data() -> dict:
    return tomllib.loads(CLASSIC_TOML.read_text("utf-8"))


def test_shipped_rulesets() -> None:
    assert {"classic", "classic-short", "classic-timed"} <= set(builtin_names())
    classic = load_ruleset("classic")
    assert len(classic.spaces) == 40
    assert [s.name for s in classic.spaces if s.kind == "railroad"] == [
        "Reading Railroad", "Pennsylvania Railroad", "B. & O. Railroad", "Short Line"]
    assert classic.spaces[27].name == "Ventnor Avenue"
    assert classic.spaces[1].name == "Mediterranean Avenue"
    assert sum(1 for s in classic.spaces if s.is_property) == 28
    assert len(classic.deck_cards["chance"]) == 16 and len(classic.deck_cards["community_chest"]) == 16
    for s in classic.spaces:
        if s.is_property:
            assert s.mortgage == s.price // 2
    costs = {s.group: s.building_cost for s in classic.spaces if s.kind == "lot"}
    assert costs == {"purple": 50, "light_blue": 50, "magenta": 100, "orange": 100,
                     "red": 150, "yellow": 150, "green": 200, "dark_blue": 200}
    short = load_ruleset("classic-short")
    assert short.options["hotel_houses"] == 3 and short.options["deal_deeds"] == 2
    assert short.options["end_after_bankruptcies"] == 2
    assert load_ruleset("classic-timed").options["time_limit"] > 0


def problem(data: dict) -> RulesetError:
    with pytest.raises(RulesetError) as info:
        ruleset_from_data(data, "my-edition.toml")
    return info.value


@pytest.mark.parametrize("edit,key,words", [
    (lambda d: d["spaces"][3].__setitem__("price", -5), "spaces[3].price", "at least 1"),
    (lambda d: d["spaces"][3].__setitem__("price", "cheap"), "spaces[3].price", "whole number"),
    (lambda d: d["spaces"][3].__setitem__("rents", [1, 2]), "spaces[3].rents", "at least 6"),
    (lambda d: d["spaces"][3].__setitem__("group", "pink"), "spaces[3].group", "no group"),
    (lambda d: d["spaces"][3].__setitem__("colour", "pink"), "spaces[3].colour", "unknown key"),
    (lambda d: d["spaces"][2].__setitem__("deck", "surprise"), "spaces[2].deck", "no deck"),
    (lambda d: d["spaces"][0].__setitem__("kind", "free_parking"), "spaces[0].kind", "first space must be the start"),
    (lambda d: d["spaces"][5].__setitem__("name", "Baltic Avenue"), "spaces[5].name", "already the name"),
    (lambda d: d["options"].__setitem__("salry", 200), "options.salry", "unknown option"),
    (lambda d: d["options"].__setitem__("salary", -1), "options.salary", "negative"),
    (lambda d: d["options"].__setitem__("free_parking_pot", "yes"), "options.free_parking_pot", "true or false"),
    (lambda d: d["mechanics"].__setitem__("auction", "dutch"), "mechanics.auction", "must be one of"),
    (lambda d: d["cards"][0].__setitem__("effect", "teleport"), "cards[0].effect", "must be one of"),
    (lambda d: d["cards"][3].__setitem__("to", 99), "cards[3].to", "no space 99"),
    (lambda d: d["cards"][1].__setitem__("id", "cc-sale-45"), "cards[1].id", "used twice"),
    (lambda d: d.__setitem__("players", [1, 8]), "players", "2 <= least"),
    (lambda d: d.__setitem__("format", 7), "format", "format 1"),
    (lambda d: d.__setitem__("spaces", d["spaces"][:5]), "spaces", "12 to 60"),
])
def test_broken_ruleset_names_file_key_and_problem(edit, key: str, words: str) -> None:
    data = classic_data()
    edit(data)
    err = problem(data)
    assert err.source == "my-edition.toml"
    assert err.key == key
    assert words in err.problem
    assert str(err).startswith(f"my-edition.toml: {key}: ")


def test_unreadable_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("name = [unclosed", "utf-8")
    with pytest.raises(RulesetError, match="bad.toml: not valid TOML"):
        load_ruleset(str(bad))
    with pytest.raises(RulesetError, match="file not found"):
        load_ruleset(str(tmp_path / "missing.toml"))
    with pytest.raises(RulesetError, match="no such ruleset"):
        load_ruleset("monopoly-deluxe")


def family_edition(tmp_path: Path) -> Path:
    """A family copies classic.toml, renames a street and changes its price."""
    text = CLASSIC_TOML.read_text("utf-8")
    text = text.replace('name = "classic"', 'name = "our-edition"', 1)
    text = text.replace('name = "Baltic Avenue"\nkind = "lot"\ngroup = "purple"\nprice = 60',
                        'name = "Ulica Konopacka"\nkind = "lot"\ngroup = "purple"\nprice = 70')
    path = tmp_path / "our-edition.toml"
    path.write_text(text, "utf-8")
    return path


def test_edited_copy_plays_by_path(tmp_path: Path) -> None:
    path = family_edition(tmp_path)
    script = "\n".join([
        json.dumps({"rules": str(path), "players": ["Ann", "Ben"]}),
        '{"do": "roll", "dice": [1, 2]}',
        '{"do": "buy"}',
        '{"do": "end_turn"}',
        '{"do": "roll", "dice": [1, 2]}',
    ])
    result = replay_text(script)
    assert result.error is None
    state = result.state
    assert state["rules"] == "our-edition"
    assert state["spaces"]["3"]["name"] == "Ulica Konopacka"
    assert [p["cash"] for p in state["players"]] == [1500 - 70 + 4, 1500 - 4]
    # The script stands on its own: its header carries the ruleset's content.
    assert result.header.to_json()["ruleset"]["name"] == "our-edition"


def run_banker(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "banker", *args], capture_output=True, text=True)


def test_banker_rules_lists_and_shows(tmp_path: Path) -> None:
    listing = run_banker("rules")
    assert listing.returncode == 0
    for name in ("classic", "classic-short", "classic-timed"):
        assert name in listing.stdout
    shown = run_banker("rules", "classic", "--json")
    assert shown.returncode == 0
    data = json.loads(shown.stdout)
    boardwalk = data["spaces"][39]
    assert boardwalk == {"index": 39, "name": "Boardwalk", "kind": "lot", "group": "dark_blue", "price": 400,
                         "mortgage": 200, "rents": [50, 200, 600, 1400, 1700, 2000], "building_cost": 200}
    assert data["spaces"][5]["rents"] == [25, 50, 100, 200]
    assert data["spaces"][12]["multipliers"] == [4, 10]
    assert data["spaces"][38]["amount"] == 75
    assert data["options"]["start_cash"] == 1500
    assert {c["id"] for c in data["cards"]} >= {"cc-opera-50", "ch-nearest-railroad-2"}
    assert len(data["cards"]) == 32
    edited = run_banker("rules", str(family_edition(tmp_path)), "--json")
    assert json.loads(edited.stdout)["spaces"][3]["name"] == "Ulica Konopacka"
    broken = tmp_path / "broken.toml"
    broken.write_text(CLASSIC_TOML.read_text("utf-8").replace("price = 400", "price = -400"), "utf-8")
    refused = run_banker("rules", str(broken))
    assert refused.returncode == 2
    assert "broken.toml: spaces[39].price: must be at least 1" in refused.stderr
    assert "Traceback" not in refused.stderr
