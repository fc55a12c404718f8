"""The board view: view.board's data for every shipped ruleset (one entry per space in order, the owners'
colours, buildings, mortgages, the tokens without the bankrupt), and ui/board.py's BoardView in the real
app offscreen (tests/ui/board_app.py: owners, buildings, mortgage and tokens read back from the pixels)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import flowkit
from banker.ruleset import load_ruleset
from flowkit import make, start
from ui import view

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ["classic", "classic-short", "classic-timed", "biznes", "brands", "brands-fast", "brands-showdown",
            "brands-teams"]
NAMES = {2: ("Ann", "Ben"), 3: ("Ann", "Ben", "Cy"), 4: ("Ann", "Ben", "Cy", "Dee")}


def test_the_board_on_the_window_reads_back_from_the_pixels(tmp_path: Path) -> None:
    env = dict(os.environ)
    played = subprocess.run([sys.executable, str(ROOT / "tests" / "ui" / "board_app.py"), str(tmp_path)],
                            capture_output=True, text=True, cwd=ROOT, env=env, timeout=180)
    assert played.returncode == 0, played.stdout + played.stderr[-3000:]
    assert "12 steps passed" in played.stdout, played.stdout


def test_classic_owners_buildings_mortgages_and_tokens(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c, ("Ann", "Ben", "Cy"), setup={
        "players": {"Ann": {"position": 3}, "Ben": {"position": 3}, "Cy": {"position": 24}},
        "spaces": {"1": {"owner": "Ann", "houses": 2}, "3": {"owner": "Ann", "houses": 3},
                   "6": {"owner": "Ben", "hotel": True}, "8": {"owner": "Ben", "hotel": True},
                   "9": {"owner": "Ben", "hotel": True}, "5": {"owner": "Cy", "mortgaged": True},
                   "12": {"owner": "Cy"}}})
    b = view.board(c.session)
    colour = {n: c.session.colour(n) for n in ("Ann", "Ben", "Cy")}
    spaces = b["spaces"]
    assert [s["index"] for s in spaces] == list(range(40))
    assert spaces[0] == {"index": 0, "name": "GO", "kind": "go", "colour": None, "owner_colour": None, "houses": 0,
                         "hotels": 0, "mortgaged": False}
    assert spaces[1]["name"] == "Mediterranean Avenue" and spaces[1]["kind"] == "lot"
    assert spaces[1]["colour"] == "#8B4A9C" and spaces[39]["colour"] == "#0072BB"
    assert (spaces[1]["owner_colour"], spaces[1]["houses"], spaces[1]["hotels"]) == (colour["Ann"], 2, 0)
    assert (spaces[3]["houses"], spaces[3]["hotels"]) == (3, 0)
    assert all((spaces[i]["owner_colour"], spaces[i]["houses"], spaces[i]["hotels"]) == (colour["Ben"], 0, 1)
               for i in (6, 8, 9))
    assert spaces[5]["kind"] == "railroad" and spaces[5]["mortgaged"] and spaces[5]["owner_colour"] == colour["Cy"]
    assert spaces[12]["kind"] == "utility" and not spaces[12]["mortgaged"]
    assert [s["kind"] for s in spaces if s["index"] in (2, 4, 7, 10, 20, 30)] == \
        ["card", "tax_choice", "card", "jail", "free_parking", "go_to_jail"]
    owned = {s["index"] for s in spaces if s["owner_colour"]}
    assert owned == {1, 3, 5, 6, 8, 9, 12}
    assert not any(s["mortgaged"] for s in spaces if s["index"] != 5)
    assert b["tokens"] == [
        {"name": "Ann", "colour": colour["Ann"], "position": 3, "in_jail": False, "current": True},
        {"name": "Ben", "colour": colour["Ben"], "position": 3, "in_jail": False, "current": False},
        {"name": "Cy", "colour": colour["Cy"], "position": 24, "in_jail": False, "current": False},
    ]
    assert b["current"] == "Ann"


def test_a_bankrupt_players_token_is_left_out(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c, ("Ann", "Ben", "Cy"))
    c.session.game.declare_bankrupt(1)  # type: ignore[union-attr]
    assert [t["name"] for t in view.board(c.session)["tokens"]] == ["Ann", "Cy"]


def test_the_board_follows_the_game(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c)
    before = view.board(c.session)
    c.turn.roll()  # the kit's dice roll 1 + 2: Ann to Baltic Avenue
    after = view.board(c.session)
    assert [t["position"] for t in after["tokens"]] == [3, 0] and after != before
    assert view.board(c.session) == after  # the same game gives the same data (BoardView then draws nothing)


@pytest.mark.parametrize("rules", RULESETS)
def test_every_ruleset_has_one_entry_per_space(tmp_path: Path, rules: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(flowkit.CARDS, "Dee", "04DD0001")
    ruleset = load_ruleset(rules)
    count = max(ruleset.players_min, min(3, ruleset.players_max))
    names = NAMES[count]
    lots = [s for s in ruleset.spaces if s.kind == "lot"]
    group = [s.index for s in lots if s.group == lots[0].group]
    railroad = next(s.index for s in ruleset.spaces if s.kind in ("railroad", "utility"))
    spaces: dict[str, dict[str, object]] = {str(i): {"owner": "Ann", "houses": 1} for i in group}
    spaces[str(railroad)] = {"owner": "Ben", "mortgaged": ruleset.mechanics.get("mortgage") != "none"}
    setup = {"players": {names[1]: {"position": 5}, names[2 % count]: {"position": 7}}, "spaces": spaces}
    c = make(tmp_path)
    start(c, names, rules=rules, setup=setup)
    game = c.session.game
    assert game is not None
    b = view.board(c.session)
    assert len(b["spaces"]) == len(ruleset.spaces) == game.n_spaces
    for s, entry in zip(ruleset.spaces, b["spaces"], strict=True):
        assert entry["index"] == s.index and entry["name"] == game.space_name(s.index) and entry["kind"] == s.kind
        assert entry["colour"] == (ruleset.groups[s.group]["color"] if s.group else None)
        owner = game.owner[s.index] if s.is_property else -1
        assert entry["owner_colour"] == (c.session.colour(game.players[owner].name) if owner >= 0 else None)
        assert entry["mortgaged"] == bool(game.mortgaged[s.index])
        level = game.level[s.index]
        assert (entry["houses"], entry["hotels"]) == ((0, 1) if level == game.hotel_level else (level, 0))
    assert all(b["spaces"][i]["houses"] == 1 and b["spaces"][i]["owner_colour"] == c.session.colour("Ann") for i in group)
    assert b["spaces"][railroad]["owner_colour"] == c.session.colour("Ben")
    assert b["spaces"][railroad]["mortgaged"] == (ruleset.mechanics.get("mortgage") != "none")
    assert [(t["name"], t["position"]) for t in b["tokens"]] == \
        [(p.name, p.position) for p in game.players if not p.bankrupt]
    assert {t["name"]: t["position"] for t in b["tokens"]}[names[1]] == 5
    assert [t["name"] for t in b["tokens"] if t["current"]] == [b["current"]] == [game.current.name]
