"""The new game's draft without a window (issue 54, points 1 and 10): one owner (ui/flows/setup.py) that nothing
else resets, whatever page the family visits or hook the session calls; its file in the data folder
(ui/drafts.py), written atomically, read back checked (a bad file ignored with a log line), dropped with its
ruleset; a new game with the last game's players, colours and cards (cards that cannot be registered left
unregistered)."""

from __future__ import annotations

import copy
import json
import logging
import os
from pathlib import Path
from typing import Any

import pytest

from banker.editions import save_edition
from banker.ruleset import editions_dir
from flowkit import CARDS, make, start
from ui import pages
from ui.drafts import DraftFile, write_atomically
from ui.flows import Flows
from ui.flows.setup import PLAYER_COLOURS, Draft
from ui.pin import check_pin
from ui.tour_editions import classic_copy


def flows(tmp_path: Path, taps: bool = True) -> Flows:
    c = make(tmp_path, taps=taps)
    c.setup.keep_in(DraftFile(tmp_path / "draft.json"))
    return c


def set_up(c: Flows) -> dict[str, Any]:
    """A draft with a bit of everything: three players (one named, a colour changed, a card registered), house
    rules with an amount, a PIN and a game already going; its document."""
    c.setup.new_game()
    c.setup.add_player()
    c.setup.set_player(0, name="Ann")
    c.setup.next_colour(2)
    c.setup.register(1)
    c.taps.card_tapped(CARDS["Ben"])
    c.setup.toggle_house_rule("free_parking_pot")
    c.setup.step_house_rule("free_parking_seed", 1)
    c.setup.toggle_house_rule("auction_on_decline")
    c.setup.set_pin("2468")
    c.progress.bump_player("Ann", "cash", 50)
    c.session.changed()
    return doc(c)


def doc(c: Flows) -> dict[str, Any]:
    d = c.setup.draft
    assert d is not None
    return copy.deepcopy({**d.to_doc(None), "pin": d.pin, "pin_length": d.pin_length()})


def test_every_page_and_every_hook_leaves_the_draft_as_it_was(tmp_path: Path) -> None:
    c = flows(tmp_path)
    before = set_up(c)
    for name, page in pages.PAGES.items():
        if pages.SETUP in page.modes:  # a page of the new game's own, or one it may visit (the settings, a check)
            c.nav.go(name)
            c.nav.screen_name()
            c.nav.go("setup")
        else:  # a page between games (the hall of fame, the editions) or of a game: by the start screen
            c.setup.cancel()
            assert c.mode == pages.HOME
            c.nav.go(name)
            c.nav.screen_name()
            c.pad.cancel()
            c.setup.new_game()
        assert c.nav.screen_name() == "setup" and doc(c) == before, name
    for flow in [*c.session.flows]:  # every hook the session and the navigator call
        flow.opened(False)
        flow.closed()
        for name in pages.PAGES:
            flow.leave(name)
        c.setup.new_game()
        assert doc(c) == before, type(flow).__name__


def test_the_draft_is_written_at_every_change_and_taken_up_by_a_new_app(tmp_path: Path) -> None:
    c = flows(tmp_path)
    before = set_up(c)
    text = (tmp_path / "draft.json").read_text("utf-8")
    kept = json.loads(text)
    assert kept["players"][0]["name"] == "Ann" and kept["options"]["free_parking_pot"] is True
    assert '"2468"' not in text and check_pin(kept["pin"], "2468") and kept["pin_digits"] == 4  # the hash only
    c.setup.add_player()  # a change: written at once
    assert len(json.loads((tmp_path / "draft.json").read_text("utf-8"))["players"]) == 4
    c.setup.remove_player(3)
    before = doc(c)
    c.session.journal.close()
    again = flows(tmp_path)  # the app restarted on the same data folder
    assert again.mode == pages.HOME
    again.setup.new_game()
    after = doc(again)
    assert {k: v for k, v in after.items() if k != "pin"} == {k: v for k, v in before.items() if k != "pin"}
    assert after["pin"] == "" and after["pin_length"] == 4  # the PIN itself is never kept
    again.setup.register(0)
    again.taps.card_tapped(CARDS["Ann"])
    again.setup.register(2)
    again.taps.card_tapped(CARDS["Cy"])
    assert again.setup.start()
    assert check_pin(again.session.meta["pin"], "2468")  # the game's PIN is the one typed before the restart
    assert not (tmp_path / "draft.json").exists()
    again.home.close_game()
    again.setup.new_game()  # the draft went with its game: its players come back, its house rules do not
    assert again.setup.draft is not None and again.setup.draft.options == {} and again.setup.draft.pin_length() == 0


def test_a_write_is_atomic_and_fsynced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "data" / "draft.json"
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd)))
    write_atomically(path, "one")
    # The new folder "data" into its parent, the file, then its folder.
    assert path.read_text("utf-8") == "one" and len(synced) == 3
    assert path.stat().st_mode & 0o077 == 0  # its owner's only: it has the PIN's hash

    def failing(src: Any, dst: Any) -> None:
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", failing)
    with pytest.raises(OSError):
        write_atomically(path, "two")
    assert path.read_text("utf-8") == "one" and os.listdir(path.parent) == ["draft.json"]  # no temporary file left
    assert DraftFile(path).write({"rules": "classic"}) is False  # said in the log; the app goes on


def test_a_draft_that_cannot_be_written_stays_in_memory(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    c = make(tmp_path)
    (tmp_path / "blocked").write_text("a file where the folder would be", "utf-8")
    c.setup.keep_in(DraftFile(tmp_path / "blocked" / "draft.json"))
    with caplog.at_level(logging.WARNING):
        c.setup.new_game()
        c.setup.add_player()
    assert "could not be kept" in caplog.text
    c.setup.cancel()
    c.setup.new_game()
    assert c.setup.draft is not None and len(c.setup.draft.players) == 3


GOOD = {"version": 1, "rules": "classic", "options": {}, "setup": None, "time_limit": None, "pin": None,
        "pin_digits": 0, "players": [{"name": "Ann", "colour": "#E53935", "card": None},
                                     {"name": "Ben", "colour": "#1E88E5", "card": "04B7771A2C5E80"},
                                     {"name": "Cy", "colour": "#43A047", "card": None}]}


@pytest.mark.parametrize("text, why", [
    ("{", "not JSON"),
    (b"\xff\xfe{}", "unreadable"),
    ("[]", "not a draft of version 1"),
    (json.dumps({**GOOD, "version": 99}), "not a draft of version 1"),
    (json.dumps({**GOOD, "players": GOOD["players"][:1]}), "players are not a list"),
    (json.dumps({**GOOD, "players": GOOD["players"] * 3}), "players are not a list"),
    (json.dumps({**GOOD, "players": [{"name": "Ann", "colour": "red", "card": None}] * 2}), "is not a colour"),
    (json.dumps({**GOOD, "players": [{"name": "A" * 40, "colour": "#E53935", "card": None}] * 2}), "is not a name"),
    (json.dumps({**GOOD, "players": [{"name": "Ann", "colour": "#E53935", "card": "04 A3"}] * 2}), "is not a card"),
    (json.dumps({**GOOD, "rules": 3}), "ruleset is not named"),
    (json.dumps({**GOOD, "options": {"free_parking_pot": [1]}}), "house rules are not"),
    (json.dumps({**GOOD, "time_limit": "soon"}), "time limit"),
    (json.dumps({**GOOD, "registering": 7}), "player waiting for a card"),
    (json.dumps({**GOOD, "pin": {"hash": "ab"}, "pin_digits": 4}), "PIN is not"),
    (json.dumps({**GOOD, "setup": {"players": {"Ann": {"cash": "lots"}}, "spaces": {}}}), "bad player"),
    (json.dumps({**GOOD, "setup": {"players": {}, "spaces": {"x": {}}}}), "bad space"),
    (json.dumps({**GOOD, "setup": {"players": {}, "spaces": {"6": {"houses": "two"}}}}), "bad space"),
])
def test_a_bad_draft_file_is_ignored_with_a_log_line(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                                    text: str | bytes, why: str) -> None:
    path = tmp_path / "draft.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    c = flows(tmp_path)
    with caplog.at_level(logging.WARNING):
        c.setup.new_game()
    assert why in caplog.text
    d = c.setup.draft
    assert d is not None and len(d.players) == 2 and d.rules == "classic" and d.options == {}  # today's new game
    c.setup.add_player()  # the next change writes a good draft over it
    assert len(Draft.from_doc(json.loads(path.read_text("utf-8"))).players) == 3


def test_a_draft_file_that_cannot_be_read_is_ignored(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "draft.json").mkdir()  # a folder in its place: reading it fails
    c = flows(tmp_path)
    with caplog.at_level(logging.WARNING):
        c.setup.new_game()
    assert "unreadable" in caplog.text and c.setup.draft is not None and len(c.setup.draft.players) == 2


def test_a_draft_whose_edition_has_gone_is_dropped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    save_edition(classic_copy("seaside", "Seaside Town", "Harbour Lane"))
    c = flows(tmp_path)
    c.setup.new_game()
    c.setup.choose_rules("seaside")
    c.setup.add_player()
    c.setup.cancel()  # put aside, and kept on disk
    assert json.loads((tmp_path / "draft.json").read_text("utf-8"))["rules"] == "seaside"
    (editions_dir() / "seaside.toml").unlink()
    with caplog.at_level(logging.WARNING):
        c.setup.new_game()  # the draft put aside: dropped with its edition
    assert "'seaside', which is gone" in caplog.text
    d = c.setup.draft
    assert d is not None and d.rules == "classic" and len(d.players) == 2
    assert json.loads((tmp_path / "draft.json").read_text("utf-8"))["rules"] == "classic"  # the new draft's


def test_options_the_ruleset_no_longer_has_go_and_a_card_twice_is_registered_once(tmp_path: Path) -> None:
    players = [{**GOOD["players"][0], "card": "04A32B1C"}, {**GOOD["players"][1], "card": "04A32B1C"}]
    (tmp_path / "draft.json").write_text(json.dumps({**GOOD, "players": players,
                                                     "options": {"no_such_rule": True, "free_parking_pot": True}}))
    c = flows(tmp_path)
    c.setup.new_game()
    d = c.setup.draft
    assert d is not None and d.options == {"free_parking_pot": True}
    assert [p.card for p in d.players] == ["04A32B1C", None]  # Ben's would be refused: "That card is Ann's"


def test_a_new_game_starts_with_the_last_games_players_colours_and_cards(tmp_path: Path) -> None:
    c = flows(tmp_path)
    c.setup.new_game()
    assert [p.name for p in c.setup.draft.players] == ["Car", "Ship"]  # type: ignore[union-attr]  # no game yet
    c.setup.cancel()
    start(c, ("Cy", "Ann", "Ben"))
    c.banker.end_game()
    c.home.close_game()
    c.setup.new_game()
    d = c.setup.draft
    assert d is not None
    assert [(p.name, p.colour, p.card) for p in d.players] == [
        ("Cy", PLAYER_COLOURS[0], CARDS["Cy"]), ("Ann", PLAYER_COLOURS[1], CARDS["Ann"]),
        ("Ben", PLAYER_COLOURS[2], CARDS["Ben"])]
    assert c.setup.start()  # nothing to type or tap: the same family plays again
    assert c.session.meta["cards"] == {CARDS[n]: n for n in ("Cy", "Ann", "Ben")}


def test_the_last_games_cards_and_colours_that_cannot_be_used_are_left_unset(tmp_path: Path) -> None:
    c = flows(tmp_path)
    start(c, ("Ann", "Ben", "Cy"))
    live = c.session.live
    assert live is not None
    meta = c.session.journal.meta(live.id)
    meta["cards"] = {"04 A3": "Ann", CARDS["Ben"]: "Ben", "": "Cy"}  # a UID no reader gives, and an empty one
    meta["colours"] = {"Ann": "#1E88E5", "Ben": "#1E88E5", "Cy": "green"}  # one twice, one not a colour
    c.session.journal.set_meta(live.id, meta)
    c.banker.end_game()
    c.home.close_game()
    c.setup.new_game()
    d = c.setup.draft
    assert d is not None
    assert [p.card for p in d.players] == [None, CARDS["Ben"], None]
    assert len({p.colour for p in d.players}) == 3 and all(p.colour in PLAYER_COLOURS for p in d.players)


def test_a_kept_draft_keeps_only_the_choices_the_options_declare(tmp_path: Path) -> None:
    """A draft file's house rules are taken up as banker/options.py declares them: an option there is, of its kind,
    in its range. The rest go, and the game starts with what is left (an amount out of range no longer stops it)."""
    c = flows(tmp_path)
    set_up(c)
    kept = json.loads((tmp_path / "draft.json").read_text("utf-8"))
    kept["options"] = {"snake_eyes_bonus": -50, "salry": 1, "jail_no_rent": 1, "start_landing_bonus": 200,
                       "free_parking_pot": True, "free_parking_seed": 10**12}
    write_atomically(tmp_path / "draft.json", json.dumps(kept))
    c.session.journal.close()
    again = flows(tmp_path)
    again.setup.new_game()
    assert again.setup.draft is not None
    assert again.setup.draft.options == {"start_landing_bonus": 200, "free_parking_pot": True}
    chosen = again.setup.chosen_options()
    assert (chosen.start_landing_bonus, chosen.free_parking_pot, chosen.snake_eyes_bonus) == (200, True, 0)
    rows = {row["option"]: row for row in again.setup.house()["rows"]}
    assert rows["start_landing_bonus"]["switch"] is True and rows["free_parking_seed"]["amount"]["value"] == 0
    again.setup.set_option("snake_eyes_bonus", 10**12)  # never above its declared most
    assert again.setup.draft.options["snake_eyes_bonus"] == 1_000_000_000
