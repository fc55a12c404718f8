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
from banker.ruleset import (
    HOUSE_RULES,
    builtin_names,
    load_ruleset,
    offered_house_rules,
    option_problem,
    ruleset_from_data,
)
from banker.script import replay_text
from banker.variant import Variant

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
    assert short.options.hotel_houses == 3 and short.options.deal_deeds == 2
    assert short.options.end_after_bankruptcies == 2
    assert load_ruleset("classic-timed").options.time_limit > 0


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


# --------------------------------------------------------------------------
# biznes (rulebook 000, example edition) and what it adds to the schema

BIZNES_TOML = CLASSIC_TOML.parent / "biznes.toml"


def biznes_data() -> dict:
    return tomllib.loads(BIZNES_TOML.read_text("utf-8"))


def test_biznes_loads() -> None:
    assert "biznes" in builtin_names()
    r = load_ruleset("biznes")
    assert (r.name, r.title, r.players_min, r.players_max, r.dice) == ("biznes", "Biznes (example edition)", 2, 6, 2)
    assert len(r.spaces) == 40 and len(r.cards) == 20
    kinds = [s.kind for s in r.spaces]
    assert {k: kinds.count(k) for k in set(kinds)} == {
        "lot": 24, "railroad": 3, "utility": 2, "card": 6, "tax": 1,
        "go": 1, "jail": 1, "free_parking": 1, "go_to_jail": 1}
    lots = {g: m for g, m in r.group_members.items() if r.spaces[m[0]].kind == "lot"}
    assert len(lots) == 8 and all(len(m) == 3 for m in lots.values())
    assert r.group_members["logistyka"] == (15, 25, 35)
    assert r.group_members["komunalne"] == (12, 28)
    assert [(s.index, s.deck) for s in r.spaces if s.kind == "card"] == [
        (2, "pomoc"), (7, "rynek"), (17, "pomoc"), (22, "rynek"), (33, "pomoc"), (36, "rynek")]
    assert (r.spaces[0].name, r.spaces[10].name, r.spaces[20].name, r.spaces[30].name) == (
        "Start", "Kontrola skarbowa", "Forum biznesu", "Urząd skarbowy")
    assert r.jail_index == 10 and [s.index for s in r.spaces if s.kind == "go_to_jail"] == [30]
    akcyza = r.spaces[4]
    assert (akcyza.name, akcyza.kind, akcyza.amount_option) == ("Akcyza", "tax", "excise_tax")
    assert r.options.excise_tax == 100
    assert r.spaces[1].name == "Budka z zapiekankami" and r.spaces[1].rents == (2, 10, 30, 90, 160, 250)
    assert r.spaces[39].name == "Centrum danych" and r.spaces[39].price == 400
    assert r.spaces[15].rents == (25, 50, 120) and r.spaces[12].multipliers == (4, 10)
    assert sum(s.price for s in r.spaces if s.kind == "lot") == 5020
    assert list(r.decks) == ["rynek", "pomoc"]
    assert len(r.deck_cards["rynek"]) == 10 and len(r.deck_cards["pomoc"]) == 10
    assert r.mechanics == {"auction": "stepped", "building": "visit", "debt": "sell_off", "doubles": "after_move",
                           "mortgage": "none", "trade": "once_per_move", "bankruptcy": "fields_free",
                           "deck": "cycle"}
    assert not Variant.of_ruleset(r).has_mortgages
    for key, value in {"start_cash": 1500, "salary": 200, "jail_fine": 50, "houses": 32, "hotels": 12,
                       "hotel_houses": 4, "auction_on_decline": True, "auction_start_percent": 75,
                       "auction_step": 10, "build_only_on_visit": True, "builds_per_visit": 1,
                       "trades_per_move": 1, "own_auction_cancel_seconds": 60, "free_parking_pot": False,
                       "end_after_bankruptcies": 0}.items():
        assert r.options.value(key) == value, key
    trip = r.card_by_id["rynek-niespodziewana-podroz"]
    assert trip.effect == "random_move" and trip.deck == "rynek"
    shipment = r.card_by_id["rynek-pilna-wysylka"]
    assert (shipment.effect, shipment.kind, shipment.rent_multiplier) == ("nearest", "railroad", 1)
    assert r.card_by_id["rynek-kara-100"].text == "Kara za spóźnione sprawozdanie: −100"
    assert r.card_by_id["rynek-kara-100"].amount == -100
    assert r.card_by_id["pomoc-przetarg-50"].effect == "collect_each"
    assert r.card_by_id["rynek-impreza-firmowa-50"].amount == -50
    # The bank's price (half) and the stepped opening bid (75%, rounded up) of section 1 of the plan.
    assert [-(-r.spaces[i].price * 75 // 100) for i in (1, 12, 37)] == [45, 113, 263]
    assert "EXAMPLE EDITION" in BIZNES_TOML.read_text("utf-8")


def test_classic_takes_the_classic_mechanics() -> None:
    r = load_ruleset("classic")
    assert r.mechanics == {"auction": "open", "building": "even", "debt": "whole", "doubles": "classic",
                           "mortgage": "classic", "trade": "open", "bankruptcy": "classic", "deck": "cycle"}
    assert Variant.of_ruleset(r).has_mortgages
    assert "mortgage" in r.to_json()["spaces"][1]


def test_biznes_shows_no_mortgage_values() -> None:
    data = load_ruleset("biznes").to_json()
    assert all("mortgage" not in s for s in data["spaces"])
    assert data["spaces"][4]["amount"] == 100
    assert data["cards"][1] == {"deck": "rynek", "id": "rynek-niespodziewana-podroz",
                                "text": load_ruleset("biznes").cards[1].text, "effect": "random_move"}


def test_no_mortgage_keys_without_mortgages() -> None:
    data = biznes_data()
    data["spaces"][6]["mortgage"] = 50
    err = problem(data)
    assert err.key == "spaces[6].mortgage"
    assert err.problem == 'this ruleset has no mortgages (mechanics.mortgage = "none")'
    # The same space with mortgages allowed is fine.
    data["mechanics"]["mortgage"] = "classic"
    assert ruleset_from_data(data, "my-edition.toml").spaces[6].mortgage == 50
    # On any space, not only a property.
    data["mechanics"]["mortgage"] = "none"
    del data["spaces"][6]["mortgage"]
    data["spaces"][0]["mortgage"] = 0
    assert problem(data).key == "spaces[0].mortgage"
    # Classic's spaces all carry `mortgage`, so classic with mortgage = "none" is refused at the first one.
    classic = classic_data()
    classic["mechanics"]["mortgage"] = "none"
    assert problem(classic).key == "spaces[1].mortgage"


@pytest.mark.parametrize("key,value,words", [
    ("auction_start_percent", 0, "1 to 100"),
    ("auction_start_percent", 101, "1 to 100"),
    ("auction_start_percent", 7.5, "whole number"),
    ("auction_step", 0, "at least 1"),
    ("auction_step", -10, "negative"),
    ("builds_per_visit", 0, "at least 1"),
    ("trades_per_move", 0, "at least 1"),
    ("trades_per_move", True, "whole number"),
    ("excise_tax", -1, "negative"),
    ("excise_tax", "100", "whole number"),
    ("own_auction_cancel_seconds", -60, "negative"),
])
def test_new_options_refuse_bad_values(key: str, value: object, words: str) -> None:
    data = biznes_data()
    data["options"][key] = value
    err = problem(data)
    assert err.key == f"options.{key}"
    assert words in err.problem


@pytest.mark.parametrize("key,value", [
    ("auction_start_percent", 1), ("auction_start_percent", 100), ("auction_step", 1),
    ("builds_per_visit", 2), ("trades_per_move", 3), ("excise_tax", 0), ("own_auction_cancel_seconds", 0),
])
def test_new_options_accept_sane_values(key: str, value: int) -> None:
    data = biznes_data()
    data["options"][key] = value
    assert ruleset_from_data(data, "my-edition.toml").options.value(key) == value


@pytest.mark.parametrize("mechanic,value", [
    ("auction", "stepped"), ("building", "visit"), ("debt", "sell_off"), ("doubles", "after_move"),
    ("mortgage", "none"), ("trade", "once_per_move"), ("bankruptcy", "fields_free"),
])
def test_new_mechanic_values(mechanic: str, value: str) -> None:
    data = biznes_data()
    data["mechanics"] = {mechanic: value}
    assert ruleset_from_data(data, "my-edition.toml").mechanics[mechanic] == value
    data["mechanics"] = {mechanic: "sometimes"}
    err = problem(data)
    assert err.key == f"mechanics.{mechanic}" and "must be one of" in err.problem


def test_random_move_card() -> None:
    data = classic_data()
    data["cards"][0] = {"deck": "community_chest", "id": "cc-trip", "text": "Go anywhere.",
                        "effect": "random_move"}
    card = ruleset_from_data(data, "my-edition.toml").card_by_id["cc-trip"]
    assert card.effect == "random_move"
    data["cards"][0]["steps"] = 3
    err = problem(data)
    assert err.key == "cards[0].steps" and "unknown key" in err.problem


def test_banker_rules_lists_biznes() -> None:
    listing = run_banker("rules")
    assert listing.returncode == 0
    assert "biznes" in listing.stdout and "Biznes (example edition)" in listing.stdout
    shown = run_banker("rules", "biznes", "--json")
    assert shown.returncode == 0
    data = json.loads(shown.stdout)
    assert data["spaces"][1] == {"index": 1, "name": "Budka z zapiekankami", "kind": "lot",
                                 "group": "gastronomia", "price": 60, "rents": [2, 10, 30, 90, 160, 250],
                                 "building_cost": 50}
    assert data["spaces"][4] == {"index": 4, "name": "Akcyza", "kind": "tax", "amount_option": "excise_tax",
                                 "amount": 100}
    assert data["mechanics"]["mortgage"] == "none"


# --------------------------------------------------------------------------
# brands (rulebook 001, example edition), its three modes, and what they add

BRANDS_TOML = CLASSIC_TOML.parent / "brands.toml"
BRANDS_MODES = ("brands", "brands-fast", "brands-showdown", "brands-teams")


def brands_data() -> dict:
    return tomllib.loads(BRANDS_TOML.read_text("utf-8"))


@pytest.mark.parametrize("name", BRANDS_MODES)
def test_brands_board(name: str) -> None:
    assert name in builtin_names()
    r = load_ruleset(name)
    assert r.name == name and "(example edition)" in r.title
    assert len(r.spaces) == 40
    kinds = [s.kind for s in r.spaces]
    assert {k: kinds.count(k) for k in set(kinds)} == {
        "lot": 22, "railroad": 4, "utility": 2, "card": 6, "tax": 2,
        "go": 1, "jail": 1, "casino": 1, "go_to_jail": 1}
    lots = {g: m for g, m in r.group_members.items() if r.spaces[m[0]].kind == "lot"}
    assert len(lots) == 8 and sorted(len(m) for m in lots.values()) == [2, 2, 3, 3, 3, 3, 3, 3]
    classic = load_ruleset("classic")
    assert [s.index for s in r.spaces if s.kind == "lot"] == [s.index for s in classic.spaces if s.kind == "lot"]
    assert r.group_members["finance"] == (5, 15, 25, 35)
    assert r.group_members["industry"] == (12, 28)
    assert [(s.index, s.deck) for s in r.spaces if s.kind == "card"] == [
        (i, "chance") for i in (2, 7, 17, 22, 33, 36)]
    assert [(s.index, s.kind) for s in r.spaces if s.index in (0, 10, 20, 30)] == [
        (0, "go"), (10, "jail"), (20, "casino"), (30, "go_to_jail")]
    assert r.spaces[20].name == "Casino" and r.jail_index == 10
    assert [(s.index, s.name, s.amount_option, r.options.value(s.amount_option)) for s in r.spaces if s.kind == "tax"] == [
        (4, "Income Tax", "income_tax_flat", 2000), (38, "Luxury Tax", "luxury_tax", 1000)]
    # The example prices: the classic board's numbers times ten.
    for mine, theirs in zip(r.spaces, classic.spaces, strict=True):
        if mine.is_property:
            assert mine.kind == theirs.kind
            assert (mine.price, mine.mortgage, mine.building_cost) == (
                theirs.price * 10, theirs.mortgage * 10, theirs.building_cost * 10)
            assert mine.rents == tuple(x * 10 for x in theirs.rents)
            assert mine.multipliers == tuple(x * 10 for x in theirs.multipliers)
    costs = {r.groups[s.group]["name"]: s.building_cost for s in r.spaces if s.kind == "lot"}
    assert costs["Supermarkets"] == min(costs.values()) == 500
    assert costs["Technology"] == max(costs.values()) == 2000
    assert r.spaces[5].rents == (250, 500, 1000, 2000) and r.spaces[12].multipliers == (40, 100)
    names = [s.name for s in r.spaces if s.is_property]
    assert len(set(names)) == 28
    assert r.mechanics == {"auction": "in_turn", "building": "turn_start", "debt": "whole", "doubles": "classic",
                           "mortgage": "expiring", "trade": "balanced", "bankruptcy": "by_creditor",
                           "deck": "reshuffle"}
    assert Variant.of_ruleset(r).has_mortgages
    assert list(r.decks) == ["chance"] and r.decks["chance"]["name"] == "Chance"


def test_brands_chance_deck() -> None:
    r = load_ruleset("brands")
    assert len(r.cards) == 20 and len(r.deck_cards["chance"]) == 20
    assert all(c.id.startswith("brands-") for c in r.cards)
    effects = [c.effect for c in r.cards]
    for effect in ("money", "collect_each", "advance", "go_to_jail", "nearest", "back", "repairs", "jail_free"):
        assert effect in effects, effect
    assert "destroy_building" not in effects
    amounts = [c.amount for c in r.cards if c.effect == "money"]
    assert min(amounts) < 0 < max(amounts)
    each = [c.amount for c in r.cards if c.effect == "collect_each"]
    assert min(each) < 0 < max(each)
    targets = {c.to for c in r.cards if c.effect == "advance"}
    assert {0, 20} <= targets
    assert len([t for t in targets if r.spaces[t].kind == "lot"]) >= 2
    nearest = {c.kind: c for c in r.cards if c.effect == "nearest"}
    assert (nearest["railroad"].rent_multiplier, nearest["railroad"].dice_multiplier) == (1, 0)
    assert (nearest["utility"].rent_multiplier, nearest["utility"].dice_multiplier) == (1, 0)
    assert r.card_by_id["brands-back-3"].steps == 3
    assert {(c.per_house, c.per_hotel) for c in r.cards if c.effect == "repairs"} == {(250, 1000), (400, 1150)}
    assert effects.count("jail_free") == 1
    assert r.card_by_id["brands-bank-dividend-500"].amount == 500
    assert "EXAMPLE EDITION" in BRANDS_TOML.read_text("utf-8")


BRANDS_OPTIONS = {
    "start_cash": 15000, "salary": 2000, "start_landing_bonus": 1000, "income_tax_flat": 2000,
    "luxury_tax": 1000, "jail_fine": 500, "jail_no_rent": True, "houses": 88, "hotels": 22, "hotel_houses": 4,
    "auction_on_decline": True, "auction_start_percent": 100, "auction_step": 100, "bid_seconds": 20,
    "building_refund_percent": 100, "build_evenly": True, "builds_per_group_turn": 1, "unmortgage_percent": 60,
    "mortgage_rounds": 7, "trades_per_turn": 3, "trade_balance": True, "casino_bet": 1000,
    "casino_jackpot_add": 500, "casino_jackpot_odds": 20, "casino_jackpot_start": 0, "salary_stop_minutes": 46,
    "rent_tax_start_minutes": 61, "rent_tax_start_percent": 50, "rent_tax_step_percent": 10,
    "rent_tax_step_minutes": 5, "rent_tax_max_percent": 99, "turn_seconds": 75, "skipped_turns_bankrupt": 3,
    "debt_seconds": 60, "pause_vote_seconds": 30, "speed_die_round": 0, "teams": False, "deal_all": False,
    "end_after_bankruptcies": 0, "free_parking_pot": False,
}
FAST = {"start_cash": 17500, "build_evenly": False, "salary_stop_minutes": 30, "rent_tax_start_minutes": 40,
        "turn_seconds": 45, "speed_die_round": 8}


@pytest.mark.parametrize("name,players,changes", [
    ("brands", (2, 6), {}),
    ("brands-fast", (2, 6), FAST),
    ("brands-showdown", (3, 3), {**FAST, "start_cash": 25000, "builds_per_group_turn": 0,
                                 "building_refund_percent": 75, "deal_all": True}),
    ("brands-teams", (4, 4), {"teams": True}),
])
def test_brands_modes_options(name: str, players: tuple[int, int], changes: dict) -> None:
    r = load_ruleset(name)
    assert (r.players_min, r.players_max) == players
    assert {k: r.options.value(k) for k in BRANDS_OPTIONS} == {**BRANDS_OPTIONS, **changes}


def test_brands_showdown_deck_is_brands_deck_plus_demolition() -> None:
    base = load_ruleset("brands")
    showdown = load_ruleset("brands-showdown")
    assert len(showdown.deck_cards["chance"]) == 21
    # `extends` replaces the card list whole: the showdown file repeats the 20 cards, unchanged.
    assert showdown.cards[:20] == base.cards
    assert showdown.data["cards"][:20] == base.data["cards"]
    demolition = showdown.cards[20]
    assert (demolition.id, demolition.effect, demolition.deck) == (
        "brands-showdown-demolition", "destroy_building", "chance")
    for name in ("brands-fast", "brands-teams"):
        assert load_ruleset(name).cards == base.cards


def test_classic_rulesets_keep_the_classic_values_of_the_new_options() -> None:
    for name in ("classic", "classic-short", "classic-timed", "biznes"):
        r = load_ruleset(name)
        assert r.mechanics["deck"] == "cycle"
        assert r.mechanics["auction"] != "in_turn" and r.mechanics["building"] != "turn_start"
        for key in ("start_landing_bonus", "salary_stop_minutes", "rent_tax_start_minutes", "turn_seconds",
                    "bid_seconds", "debt_seconds", "speed_die_round", "casino_jackpot_start"):
            assert r.options.value(key) == 0, (name, key)
        assert r.options.building_refund_percent == 50
        for key in ("jail_no_rent", "teams", "deal_all"):
            assert r.options.value(key) is False, (name, key)
        assert "casino" not in [s.kind for s in r.spaces]


@pytest.mark.parametrize("key,value,words", [
    ("building_refund_percent", 101, "0 to 100"),
    ("building_refund_percent", -1, "negative"),
    ("unmortgage_percent", 0, "1 to 100"),
    ("unmortgage_percent", 101, "1 to 100"),
    ("mortgage_rounds", 0, "at least 1"),
    ("trades_per_turn", 0, "at least 1"),
    ("casino_jackpot_odds", 0, "at least 1"),
    ("rent_tax_start_percent", 150, "0 to 100"),
    ("rent_tax_step_percent", 101, "0 to 100"),
    ("rent_tax_max_percent", 100.5, "whole number"),
    ("rent_tax_max_percent", 101, "0 to 100"),
    ("rent_tax_step_minutes", 0, "at least 1"),
    ("builds_per_group_turn", -1, "negative"),
    ("casino_bet", "1000", "whole number"),
    ("turn_seconds", -75, "negative"),
    ("start_landing_bonus", True, "whole number"),
    ("jail_no_rent", 1, "true or false"),
    ("build_evenly", "no", "true or false"),
    ("trade_balance", 0, "true or false"),
    ("deal_all", 1, "true or false"),
    ("teams", "yes", "true or false"),
])
def test_brands_options_refuse_bad_values(key: str, value: object, words: str) -> None:
    data = brands_data()
    data["options"][key] = value
    err = problem(data)
    assert err.key == f"options.{key}"
    assert words in err.problem


@pytest.mark.parametrize("key,value", [
    ("building_refund_percent", 0), ("building_refund_percent", 100), ("unmortgage_percent", 1),
    ("unmortgage_percent", 100), ("mortgage_rounds", 1), ("trades_per_turn", 1), ("casino_jackpot_odds", 1),
    ("rent_tax_start_percent", 0), ("rent_tax_max_percent", 100), ("rent_tax_step_minutes", 1),
    ("builds_per_group_turn", 0), ("builds_per_group_turn", 5), ("salary_stop_minutes", 0),
    ("speed_die_round", 1), ("skipped_turns_bankrupt", 0), ("deal_all", True), ("jail_no_rent", False),
])
def test_brands_options_accept_sane_values(key: str, value: object) -> None:
    data = brands_data()
    data["options"][key] = value
    assert ruleset_from_data(data, "my-edition.toml").options.value(key) == value


def test_teams_need_four_players() -> None:
    data = brands_data()
    data["options"]["teams"] = True
    err = problem(data)
    assert err.key == "options.teams" and "[4, 4]" in err.problem
    data["players"] = [4, 4]
    assert ruleset_from_data(data, "my-edition.toml").options.teams is True


@pytest.mark.parametrize("mechanic,value", [
    ("auction", "in_turn"), ("building", "turn_start"), ("mortgage", "expiring"), ("trade", "balanced"),
    ("bankruptcy", "by_creditor"), ("deck", "cycle"), ("deck", "reshuffle"),
])
def test_brands_mechanic_values(mechanic: str, value: str) -> None:
    data = classic_data()
    data["mechanics"] = {mechanic: value}
    assert ruleset_from_data(data, "my-edition.toml").mechanics[mechanic] == value
    data["mechanics"] = {mechanic: "sometimes"}
    err = problem(data)
    assert err.key == f"mechanics.{mechanic}" and "must be one of" in err.problem


def test_a_second_casino_is_refused() -> None:
    data = brands_data()
    data["spaces"][30] = {"name": "Casino Royale", "kind": "casino"}
    err = problem(data)
    assert err.key == "spaces[30].kind" and "at most one" in err.problem
    # A casino takes no fields.
    data = brands_data()
    data["spaces"][20]["deck"] = "chance"
    assert problem(data).key == "spaces[20].deck"
    # And a board may have none.
    data = brands_data()
    data["spaces"][20] = {"name": "Free Parking", "kind": "free_parking"}
    assert "casino" not in [s.kind for s in ruleset_from_data(data, "my-edition.toml").spaces]


def test_destroy_building_card() -> None:
    data = classic_data()
    data["cards"][0] = {"deck": "community_chest", "id": "cc-demolition", "text": "A building comes down.",
                        "effect": "destroy_building"}
    card = ruleset_from_data(data, "my-edition.toml").card_by_id["cc-demolition"]
    assert card.effect == "destroy_building"
    data["cards"][0]["amount"] = 100
    err = problem(data)
    assert err.key == "cards[0].amount" and "unknown key" in err.problem


def test_brands_showdown_as_a_script_header_stands_alone() -> None:
    # The merged data (no `extends`) loads on its own, 21 cards and all.
    r = load_ruleset("brands-showdown")
    again = ruleset_from_data(r.source_data(), "copy.toml")
    assert again.cards == r.cards and again.options == r.options and again.spaces == r.spaces
    shown = r.to_json()
    assert shown["spaces"][20] == {"index": 20, "name": "Casino", "kind": "casino"}
    assert shown["cards"][20] == {"deck": "chance", "id": "brands-showdown-demolition",
                                  "text": r.cards[20].text, "effect": "destroy_building"}


def test_banker_rules_lists_brands() -> None:
    listing = run_banker("rules")
    assert listing.returncode == 0
    for name in BRANDS_MODES:
        assert name in listing.stdout


# --------------------------------------------------------------------------
# currency: an optional ISO 4217 code, for the app's money texts


@pytest.mark.parametrize("value, words", [
    ("zł", "ISO 4217"), ("pln", "ISO 4217"), ("ABC", "ISO 4217"), (985, "must be text"),
])
def test_a_bad_currency_is_refused_with_file_key_and_problem(value: object, words: str) -> None:
    data = classic_data()
    data["currency"] = value
    err = problem(data)
    assert (err.source, err.key) == ("my-edition.toml", "currency")
    assert words in err.problem and repr(value) in err.problem


def test_currency_is_optional_and_shown_by_banker_rules(tmp_path: Path) -> None:
    assert load_ruleset("classic").currency is None
    assert "currency" not in load_ruleset("classic").to_json()
    path = tmp_path / "zloty.toml"
    path.write_text('extends = "classic"\nname = "zloty"\ncurrency = "PLN"\n', "utf-8")
    assert load_ruleset(str(path)).currency == "PLN"
    shown = run_banker("rules", str(path), "--json")
    assert shown.returncode == 0 and json.loads(shown.stdout)["currency"] == "PLN"
    path.write_text('extends = "classic"\nname = "zloty"\ncurrency = "Zloty"\n', "utf-8")
    refused = run_banker("rules", str(path))
    assert refused.returncode == 2 and "zloty.toml: currency: must be an ISO 4217" in refused.stderr


# ---------------------------------------------------------------------------
# House rules that make no sense on a board are not offered, and refused when set to anything but the default.

def _extends(tmp_path: Path, base: str, options: dict[str, object]) -> str:
    path = tmp_path / "edition.json"
    path.write_text(json.dumps({"extends": base, "options": options}), "utf-8")
    return str(path)


@pytest.mark.parametrize("option,value", [("free_parking_pot", True), ("free_parking_seed", 100)])
def test_the_free_parking_pot_on_a_board_without_free_parking_is_refused(tmp_path: Path, option: str,
                                                                         value: object) -> None:
    options = {option: value, "free_parking_pot": True} if option == "free_parking_seed" else {option: value}
    with pytest.raises(RulesetError) as refused:
        load_ruleset(_extends(tmp_path, "brands", options))
    assert refused.value.key == "options.free_parking_pot"
    assert "no Free Parking space" in str(refused.value)
    # Its default stays valid (brands.toml itself sets free_parking_pot = false).
    assert load_ruleset(_extends(tmp_path, "brands", {option: False if value is True else 0})).name


def test_a_seed_without_the_pot_is_refused_naming_both(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as refused:
        load_ruleset(_extends(tmp_path, "classic", {"free_parking_seed": 100}))
    assert refused.value.key == "options.free_parking_seed"
    assert "free_parking_pot" in str(refused.value)
    loaded = load_ruleset(_extends(tmp_path, "classic", {"free_parking_seed": 100, "free_parking_pot": True}))
    assert loaded.options.free_parking_seed == 100


def test_double_rent_with_mortgaged_off_is_refused_where_there_are_no_mortgages(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as refused:
        load_ruleset(_extends(tmp_path, "biznes", {"double_rent_with_mortgaged": False}))
    assert refused.value.key == "options.double_rent_with_mortgaged"
    assert "no mortgages" in str(refused.value)


def test_snake_eyes_need_two_dice(tmp_path: Path) -> None:
    path = tmp_path / "one-die.json"
    path.write_text(json.dumps({"extends": "classic", "dice": 1, "options": {"snake_eyes_bonus": 500}}), "utf-8")
    with pytest.raises(RulesetError) as refused:
        load_ruleset(str(path))
    assert refused.value.key == "options.snake_eyes_bonus"


def test_offered_house_rules_follow_the_board() -> None:
    classic = offered_house_rules(load_ruleset("classic"))
    assert classic == list(HOUSE_RULES)
    brands = offered_house_rules(load_ruleset("brands"))
    assert "free_parking_pot" not in brands and "free_parking_seed" not in brands
    assert {"buy_after_first_lap", "snake_eyes_bonus", "jail_no_rent", "start_landing_bonus"} <= set(brands)
    biznes = offered_house_rules(load_ruleset("biznes"))
    assert "double_rent_with_mortgaged" not in biznes and "build_only_on_visit" not in biznes
    for name in builtin_names():
        ruleset = load_ruleset(name)
        for option in offered_house_rules(ruleset):
            assert option_problem(ruleset, option) is None


@pytest.mark.parametrize("colour", ["banana", "#12345", "#1234567", "#GGGGGG", "", "red"])
def test_a_group_s_colour_is_written_rrggbb(colour: str) -> None:
    """The app draws a group's colour: anything but "#RRGGBB" is refused, naming the key (a file that said
    "banana" loaded and then stopped the app drawing the board)."""
    data = load_ruleset("classic").source_data()
    data["groups"]["red"]["color"] = colour
    with pytest.raises(RulesetError) as caught:
        ruleset_from_data(data, "mine.toml")
    assert caught.value.key == "groups.red.color" and "#RRGGBB" in caught.value.problem


def test_a_group_s_colour_in_either_case_and_none_at_all_load() -> None:
    data = load_ruleset("classic").source_data()
    data["groups"]["red"]["color"] = "#ed1b24"
    del data["groups"]["green"]["color"]
    ruleset = ruleset_from_data(data, "mine.toml")
    assert ruleset.groups["red"]["color"] == "#ed1b24" and "color" not in ruleset.groups["green"]
