"""The family's editions in the flows (ui/flows/editions.py, ui/flows/setup.py), without a window: the list
with a broken one, rename on the keyboard (refusals said), delete with the second touch, the new-game
screen offering the playable ones after the shipped rulesets, and a game on an edition that resumes after
its file is deleted."""

from __future__ import annotations

from pathlib import Path

import pytest

from banker.editions import list_editions
from banker.ruleset import editions_dir
from flowkit import Clock, make, start, texts
from ui.flows.editions import EditionsFlow
from ui.i18n import Translator
from ui.keys import BACKSPACE, CLEAR, SPACE
from ui.tags import Tagged, TagStore
from ui.tour_editions import HOSTILE, write_editions

EDITIONS = "ui.flows.editions:EditionsFlow"


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"


def editions_of(c) -> EditionsFlow:  # type: ignore[no-untyped-def]
    flow = c.of(EDITIONS)
    assert isinstance(flow, EditionsFlow)
    return flow


def renaming(c, language: str = "en") -> EditionsFlow:  # type: ignore[no-untyped-def]
    """The editions written, the family's language set, and "seaside" being renamed: its title on the keyboard."""
    write_editions()
    c.settings.set_language(language)
    flow = editions_of(c)
    flow.rename("seaside")
    return flow


def type_text(flow: EditionsFlow, text: str) -> None:
    flow.press(CLEAR)
    for ch in text:
        flow.press(SPACE if ch == " " else ch)


def test_the_list_shows_titles_names_and_a_broken_one_with_its_reason(tmp_path: Path, data_home: Path) -> None:
    c = make(tmp_path)
    flow = editions_of(c)
    assert flow.view() == {"editions": []}  # the screen says "No editions yet"
    write_editions()
    shown = flow.view()["editions"]
    assert [(e["name"], e["title"]) for e in shown] == [("broken", "Broken Board"), ("ours", HOSTILE),
                                                         ("seaside", "Seaside Town")]
    assert "start_cash" in shown[0]["problem"] and shown[1]["problem"] is None
    flow.rename("broken")  # a broken one is not renamed
    assert flow.editor is None


@pytest.mark.parametrize("language, said", [
    ("en", "options.start_cash: Must be at least 0."),
    ("pl", "options.start_cash: Musi wynosić co najmniej 0."),
    ("cs", "options.start_cash: " + Translator("cs")("ui.editor.refuse.least", least=0).rstrip(".") + "."),
    ("ru", "options.start_cash: Должно быть не меньше 0."),
])
def test_a_broken_edition_s_reason_is_in_the_family_s_language_where_the_app_has_words_for_it(
        tmp_path: Path, data_home: Path, language: str, said: str) -> None:
    folder = editions_dir()
    folder.mkdir(parents=True)
    (folder / "minus.toml").write_text('extends = "classic"\nname = "minus"\n[options]\nstart_cash = -5\n', "utf-8")
    (folder / "garbled.toml").write_text("name = = 3\n", "utf-8")
    c = make(tmp_path)
    c.settings.set_language(language)
    shown = {e["name"]: e["problem"] for e in editions_of(c).view()["editions"]}
    assert shown["minus"] == said
    assert shown["garbled"] == "not valid TOML: Invalid value (at line 1, column 8)."  # no words for it: the loader's


def test_the_settings_offer_the_editions_between_games_only(tmp_path: Path, data_home: Path) -> None:
    c = make(tmp_path)
    assert c.mode == "home" and c.settings.view()["editions"]
    start(c)
    assert not c.settings.view()["editions"]
    c.nav.go("editions")
    assert c.nav.screen_name() == "table"  # the page is not shown while a game is going


def test_rename_types_the_title_then_the_name(tmp_path: Path, data_home: Path) -> None:
    c = make(tmp_path)
    write_editions()
    flow = editions_of(c)
    flow.rename("seaside")
    assert c.nav.page == "edition_keyboard" and flow.editor is not None and flow.editor.text == "Seaside Town"
    flow.press(CLEAR)
    flow.done()  # an empty title: refused, said
    assert flow.part == "title" and texts(c)[-1] == "The title cannot be empty"
    type_text(flow, "Beach")
    flow.done()
    assert flow.part == "name" and flow.editor.text == "seaside"
    type_text(flow, "beach town")  # no capital by itself, and a space types a hyphen
    assert flow.editor.text == "beach-town"
    flow.press(BACKSPACE)
    flow.press("n")
    flow.done()
    assert c.nav.page == "editions" and flow.editor is None
    assert [(e.name, e.title) for e in list_editions()] == [("beach-town", "Beach"), ("broken", "Broken Board"),
                                                             ("ours", HOSTILE)]
    assert texts(c)[-1] == "Renamed: Beach (beach-town)"


def test_a_renamed_edition_keeps_its_tagged_deeds_and_cards(tmp_path: Path, data_home: Path) -> None:
    c = make(tmp_path)
    c.session.tags = TagStore(tmp_path / "tags.json")
    c.session.tags.assign("04A1", Tagged("edition:seaside", "deed", space=39))
    c.session.tags.assign("04B2", Tagged("classic", "deed", space=39))
    flow = renaming(c)
    flow.done()
    type_text(flow, "beach")
    flow.done()
    assert texts(c)[-1] == "Renamed: Seaside Town (beach)"
    for store in (c.session.tags, TagStore(tmp_path / "tags.json")):  # and on disk
        assert store.lookup("04A1") == Tagged("edition:beach", "deed", space=39)
        assert store.lookup("04B2") == Tagged("classic", "deed", space=39)  # another set's stay
        assert "edition:seaside" not in store.sets


@pytest.mark.parametrize("typed, said", [
    ("ours", "Another edition is already called ours"),
    ("classic", "classic is the name of rules that come with the game"),
    ("Ours", "The short name takes only a-z, 0-9 and - (not first), not O"),
    ("-sea", "The short name takes only a-z, 0-9 and - (not first), not -"),
    ("", "The short name cannot be empty"),
])
def test_a_refused_name_is_said_and_nothing_changes(tmp_path: Path, data_home: Path, typed: str, said: str) -> None:
    c = make(tmp_path)
    flow = renaming(c)
    before = {p.name: p.read_bytes() for p in editions_dir().iterdir()}
    flow.done()
    type_text(flow, typed)
    assert flow.keyboard()["can_finish"] is False
    flow.done()
    assert texts(c)[-1] == said and c.nav.page == "edition_keyboard"
    assert {p.name: p.read_bytes() for p in editions_dir().iterdir()} == before
    flow.cancel()
    assert c.nav.page == "editions"


def test_the_refusal_is_said_in_the_familys_language(tmp_path: Path, data_home: Path) -> None:
    c = make(tmp_path)
    flow = renaming(c, "pl")
    flow.done()
    type_text(flow, "ours")
    flow.done()
    assert texts(c)[-1] == "Inna edycja już nazywa się ours"


def test_delete_asks_for_a_second_touch(tmp_path: Path, data_home: Path) -> None:
    clock = Clock()
    c = make(tmp_path, clock=clock)
    write_editions()
    flow = editions_of(c)
    flow.delete("seaside")
    assert [e["armed"] for e in flow.view()["editions"]] == [False, False, True]
    assert len(list_editions()) == 3
    flow.delete("ours")  # another button: that one is armed instead, nothing deleted
    assert len(list_editions()) == 3
    flow.delete("ours")
    assert [e.name for e in list_editions()] == ["broken", "seaside"] and texts(c)[-1] == "Deleted: ours"
    flow.delete("broken")  # a broken file can go too
    flow.delete("broken")
    assert [e.name for e in list_editions()] == ["seaside"]


def test_the_new_game_offers_playable_editions_after_the_shipped_ones_by_title(tmp_path: Path,
                                                                             data_home: Path) -> None:
    c = make(tmp_path)
    write_editions()
    c.setup.new_game()
    offered = c.setup.view()["rulesets"]
    assert [r["name"] for r in offered[-2:]] == ["ours", "seaside"] and "broken" not in [r["name"] for r in offered]
    assert [r["text"] for r in offered[-2:]] == [HOSTILE, "Seaside Town"]  # by title: "[" before "S"
    assert not any(r["edition"] for r in offered[:-2])


def test_a_game_on_an_edition_resumes_after_its_file_is_deleted(tmp_path: Path, data_home: Path) -> None:
    c = make(tmp_path)
    write_editions()
    start(c, rules="seaside")
    assert c.session.game is not None and c.session.game.ruleset.spaces[3].name == "Harbour Lane"
    (editions_dir() / "seaside.toml").unlink()
    again = make(tmp_path)  # the app started anew on the same journal
    assert again.home.resume()
    assert again.session.game is not None and again.session.game.ruleset.spaces[3].name == "Harbour Lane"


def test_an_edition_chosen_is_played_as_chosen_though_its_file_goes_before_the_start(tmp_path: Path,
                                                                                     data_home: Path) -> None:
    c = make(tmp_path, taps=False)
    write_editions()
    c.setup.new_game()  # every player with a ready name
    c.setup.choose_rules("seaside")
    (editions_dir() / "seaside.toml").unlink()
    assert c.setup.start(), texts(c)
    assert c.session.game is not None and c.session.game.ruleset.spaces[3].name == "Harbour Lane"


def test_the_new_game_reads_the_editions_once(tmp_path: Path, data_home: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import ui.flows.setup as setup_flow
    c = make(tmp_path)
    write_editions()
    listed = []
    monkeypatch.setattr(setup_flow, "list_editions", lambda: listed.append(1) or list_editions())
    c.setup.new_game()
    for _ in range(3):
        c.setup.view()
    c.setup.choose_rules("seaside")
    c.setup.view()
    assert len(listed) == 1
    c.setup.new_game()  # a new game's screen looks again
    c.setup.view()
    assert len(listed) == 2
    c.setup.cancel()  # and once the start screen has been back
    c.setup.view()
    assert len(listed) == 3


def test_an_edition_gone_before_it_is_chosen_gives_way_to_classic(tmp_path: Path, data_home: Path) -> None:
    c = make(tmp_path)
    write_editions()
    c.setup.new_game()
    c.setup.view()  # offered
    (editions_dir() / "seaside.toml").unlink()
    c.setup.choose_rules("seaside")
    s = c.setup.view()
    assert c.setup.draft is not None and c.setup.draft.rules == "classic"
    assert [r["name"] for r in s["rulesets"] if r["chosen"]] == ["classic"]
    assert "The edition chosen cannot be played now" in texts(c)[-1]


def test_the_name_is_typed_on_latin_keys_in_every_language(tmp_path: Path, data_home: Path) -> None:
    c = make(tmp_path)
    flow = renaming(c, "ru")
    title_keys = {k["id"] for line in flow.keyboard()["rows"] for k in line}
    assert "п" in title_keys and "q" not in title_keys  # the title: the family's own letters
    flow.done()
    name_keys = {k["id"] for line in flow.keyboard()["rows"] for k in line}
    assert set("abcdefghijklmnopqrstuvwxyz") <= name_keys and "п" not in name_keys
    space = next(k for line in flow.keyboard()["rows"] for k in line if k["id"] == SPACE)
    assert space["label"] == "-"  # it types a hyphen in a name


def test_the_editions_are_loaded_again_only_when_the_folder_changed(tmp_path: Path, data_home: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import ui.flows.editions as module

    write_editions()
    c = make(tmp_path, taps=False)
    flow = editions_of(c)
    loads: list[int] = []
    monkeypatch.setattr(module, "list_editions", lambda: loads.append(1) or list_editions())
    first = flow.view()["editions"]
    assert flow.view()["editions"] == first and len(loads) == 1  # drawn again: the folder looked at, not loaded
    (editions_dir() / "seaside.toml").unlink()  # changed behind the app's back
    assert "seaside" not in [e["name"] for e in flow.view()["editions"]] and len(loads) == 2
