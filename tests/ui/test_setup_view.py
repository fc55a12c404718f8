"""The setup screen's view data (view.setup): Add a player stops at the ruleset's most players, the X at the
least, so the screen greys them rather than offer a touch that does nothing."""

from __future__ import annotations

from pathlib import Path

from flowkit import make


def test_add_a_player_stops_at_the_rulesets_most_and_the_x_at_two(tmp_path: Path) -> None:
    c = make(tmp_path)
    c.setup.new_game()
    assert c.setup.draft is not None
    s = c.setup.view()
    assert len(s["players"]) == 2 and s["can_add"] and not s["can_remove"]
    c.setup.add_player()
    assert c.setup.view()["can_remove"]
    while len(c.setup.draft.players) < 6:
        c.setup.add_player()
    assert c.setup.view()["can_add"]  # classic takes eight
    c.setup.choose_rules("biznes")
    assert not c.setup.view()["can_add"]  # biznes takes six
    c.setup.choose_rules("classic")
    while len(c.setup.draft.players) < 8:
        c.setup.add_player()
    assert not c.setup.view()["can_add"]
    c.setup.choose_rules("biznes")  # too many for biznes now: the setup says so, and Start would refuse
    assert not c.setup.view()["can_add"] and c.setup.view()["problems"]
