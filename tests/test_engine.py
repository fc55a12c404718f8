"""The engine's API: questions, checked commands, refusals with codes, undo, the money log."""

from __future__ import annotations

import json

import pytest

import banker.kernel
from banker import Game, IllegalAction, InvalidAction, load_ruleset
from banker.chance import SeededChance, complete_action
from banker.messages import MESSAGES, render


@pytest.fixture
def game() -> Game:
    return Game(load_ruleset("classic"), ["Ann", "Ben", "Cy"])


def state(g: Game) -> str:
    return json.dumps(g.to_json(), sort_keys=True)


def test_refusal_names_the_rule_and_changes_nothing(game: Game) -> None:
    before = state(game)
    with pytest.raises(IllegalAction) as info:
        game.apply({"do": "end_turn"})
    assert info.value.code == "rule.roll_owed"
    assert info.value.params == {"player": "Ann"}
    assert "a roll is still owed" in str(info.value)
    assert state(game) == before
    with pytest.raises(InvalidAction) as bad:
        game.apply({"do": "roll", "dice": [1, 2], "speed": 3})
    assert bad.value.code == "action.unknown_field"
    assert isinstance(bad.value, ValueError)
    assert state(game) == before and game.script == []


def test_build_evenly_message_matches_the_spec_example() -> None:
    g = Game(load_ruleset("classic"), ["Ann", "Ben"],
             setup={"spaces": {"37": {"owner": "Ann"}, "39": {"owner": "Ann", "houses": 1}}})
    with pytest.raises(IllegalAction) as info:
        g.apply({"do": "build", "space": "Boardwalk"})
    assert str(info.value) == "Ann cannot build on Boardwalk: Park Place has no house yet (build evenly)"
    assert info.value.code == "rule.build_even_first"
    assert g.can({"do": "build", "space": "Park Place"}) is None


def test_every_code_used_has_english_text() -> None:
    import re
    from pathlib import Path
    source = "".join(p.read_text("utf-8") for p in (Path(__file__).parent.parent / "banker").glob("*.py"))
    used = set(re.findall(r'"((?:rule|action|setup)\.[a-z_]+)"', source))
    used |= {"event." + c for c in re.findall(r'self\.events\.append\(\("([a-z_]+)"', source)}
    used.discard("rule.blocked_")
    missing = sorted(c for c in used if c not in MESSAGES)
    assert missing == []
    assert render("no.such.code", {"x": 1}).startswith("no.such.code")
    assert "?" in render("rule.not_owner", {})  # a missing parameter never raises


def test_owed_and_legal_actions_drive_the_buttons(game: Game) -> None:
    assert game.owed() == [{"player": "Ann", "verbs": ["roll"]}]
    verbs = {a["do"] for a in game.legal_actions()}
    assert {"roll", "end_game"} <= verbs and "end_turn" not in verbs and "buy" not in verbs
    game.apply({"do": "roll", "dice": [3, 3]})  # Oriental Avenue, a double
    assert game.owed() == [{"player": "Ann", "verbs": ["buy", "decline"]}]
    assert {a["do"] for a in game.legal_actions("Ann")} >= {"buy", "decline"}
    assert not [a for a in game.legal_actions("Ben") if a["do"] in ("buy", "roll")]
    game.apply({"do": "buy"})
    assert game.owed() == [{"player": "Ann", "verbs": ["roll"]}]  # the double rolls again
    for action in game.legal_actions():
        assert game.can(action if action["do"] != "roll" else {**action, "dice": [1, 2]}) is None


def test_events_and_money_log(game: Game) -> None:
    events = game.apply({"do": "roll", "dice": [1, 2]})
    assert [e.code for e in events] == ["rolled", "moved"]
    assert events[1].text == "Ann moves to Baltic Avenue"
    game.apply({"do": "buy"})
    game.apply({"do": "end_turn"})
    game.apply({"do": "roll", "dice": [1, 2]})
    log = [e.to_json() for e in game.money_log()]
    assert log[0] == {"seq": 1, "from": "Ann", "to": "bank", "amount": 60, "code": "buy",
                      "params": {"space": "Baltic Avenue"}, "text": "Ann buys Baltic Avenue for 60"}
    assert log[1]["text"] == "Ben pays Ann 4 rent for Baltic Avenue"
    assert log[1]["code"] == "rent" and log[1]["seq"] == 3


def test_undo_several_in_a_row(game: Game) -> None:
    states = [state(game)]
    for action in ({"do": "roll", "dice": [1, 2]}, {"do": "buy"}, {"do": "end_turn"},
                   {"do": "roll", "dice": [1, 2]}):
        game.apply(action)
        states.append(state(game))
    for expected in reversed(states[:-1]):
        game.apply({"do": "undo"})
        assert state(game) == expected
    with pytest.raises(IllegalAction, match="nothing to undo"):
        game.apply({"do": "undo"})
    assert [a["do"] for a in game.script].count("undo") == 4


def test_chance_is_an_input() -> None:
    g = Game(load_ruleset("classic"), ["Ann", "Ben"])
    with pytest.raises(IllegalAction, match="no seed"):
        g.apply({"do": "roll"})
    chance = SeededChance(7)
    ruleset = load_ruleset("classic")
    seeded = Game(ruleset, ["Ann", "Ben"], deck_order=chance.deck_order(ruleset))
    seeded.apply(complete_action(seeded, {"do": "roll", "dice": [3, 4]}, chance))  # Chance at 7
    top = seeded.decks["chance"][0]
    filled = complete_action(seeded, {"do": "draw"}, chance)
    assert filled == {"do": "draw", "card": top}
    seeded.apply(filled)
    assert seeded.script[-1]["card"] == top  # the record names the card: replays need no seed
    # The same seed shuffles the same way; the engine itself holds no generator.
    assert SeededChance(7).deck_order(ruleset) == SeededChance(7).deck_order(ruleset)
    state = vars(seeded).values() if hasattr(seeded, "__dict__") else [getattr(seeded, n) for n in banker.kernel.STATE]
    assert not any("random" in type(v).__module__ for v in state)


def test_a_failing_effect_is_rolled_back(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    game.apply({"do": "roll", "dice": [1, 2]})
    before = state(game)

    def broken(self: Game, p: int, a: dict) -> None:
        self.transfer(p, -1, 60, "buy", {})  # half done...
        raise RuntimeError("disk on fire")

    import banker.game
    monkeypatch.setitem(banker.game._DOERS, "buy", broken)
    with pytest.raises(RuntimeError):
        game.apply({"do": "buy"})
    assert state(game) == before


def test_net_worth_and_end_game() -> None:
    g = Game(load_ruleset("classic"), ["Ann", "Ben"], setup={
        "players": {"Ann": {"cash": 100}, "Ben": {"cash": 100}},
        "spaces": {"1": {"owner": "Ann", "houses": 1}, "3": {"owner": "Ann", "houses": 1},
                   "5": {"owner": "Ben", "mortgaged": True}}})
    assert g.net_worth(0) == 100 + 60 + 60 + 50 + 50
    assert g.net_worth(1) == 100 + 100
    g.apply({"do": "end_game"})
    s = g.to_json()
    assert s["ended"] and s["winner"] == "Ann" and s["owed"] == []
    assert s["ranking"] == [{"name": "Ann", "net_worth": 320}, {"name": "Ben", "net_worth": 200}]
    with pytest.raises(IllegalAction, match="game is over"):
        g.apply({"do": "roll", "dice": [1, 2]})


def test_rebuild_copies_every_changing_attribute() -> None:
    """Undo rebuilds the state into the same object: kernel.STATE must name all that can change."""
    import banker.game
    g = Game(load_ruleset("classic"), ["Ann", "Ben"])
    if not hasattr(g, "__dict__"):
        pytest.skip("compiled build: checked on the pure-Python source")
    fixed = {"ruleset", "_init_args", "options", "n_spaces", "kinds", "space_names", "is_property",
             "space_params", "prices", "groups", "group_members", "lot_groups", "hotel_houses",
             "hotel_level", "salary", "time_limit", "jail_index", "jail_tries", "index_of", "record_events", "script",
             "has_random_move", "auction_step", "space_verbs",
             "refund_percent", "rules", "variant", "trail_at", "trail", "keeps_trail", "lap_rule", "snake_eyes",
             "pot_seed", "tax_amounts"}
    assert set(vars(g)) == fixed | set(banker.kernel.STATE)
