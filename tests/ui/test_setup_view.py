"""The setup screen's view data (view.setup): Add a player stops at the ruleset's most players, the X at the
least, so the screen greys them rather than offer a touch that does nothing."""

from __future__ import annotations

from pathlib import Path

from controllerkit import make
from ui import view


def test_add_a_player_stops_at_the_rulesets_most_and_the_x_at_two(tmp_path: Path) -> None:
    c = make(tmp_path)
    c.new_game()
    assert c.draft is not None
    s = view.setup(c)
    assert len(s["players"]) == 2 and s["can_add"] and not s["can_remove"]
    c.draft_add_player()
    assert view.setup(c)["can_remove"]
    while len(c.draft.players) < 6:
        c.draft_add_player()
    assert view.setup(c)["can_add"]  # classic takes eight
    c.draft_rules("biznes")
    assert not view.setup(c)["can_add"]  # biznes takes six
    c.draft_rules("classic")
    while len(c.draft.players) < 8:
        c.draft_add_player()
    assert not view.setup(c)["can_add"]
    c.draft_rules("biznes")  # too many for biznes now: the setup says so, and Start would refuse
    assert not view.setup(c)["can_add"] and view.setup(c)["problems"]
