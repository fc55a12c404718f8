"""The family's tags (ui/tags.py): the store's rules, its file written whole or not at all and read back after a
restart, a damaged file never overwritten, and the sets and their items for every shipped ruleset and an
edition. The hostile files are tests/ui/test_tags_fuzz.py's; `banker tags` is tests/ui/test_tagscli.py's."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from banker.editions import save_edition
from banker.ruleset import builtin_names, load_ruleset
from ui import tags as tags_module
from ui.tags import (
    FORMAT,
    TAGS_NAME,
    VERSION,
    Tagged,
    TagsError,
    TagStore,
    parse_document,
    read_document,
    set_catalogue,
    set_items,
    set_key,
    set_problem,
    tags_path,
)

BOARDWALK = Tagged("classic", "deed", space=39)
PARK_PLACE = Tagged("classic", "deed", space=37)
GO_CARD = Tagged("classic", "card", deck="chance", card="ch-advance-go")
GRANDMA = "edition:grandma"


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "board-banker" / TAGS_NAME


def doc(sets: dict[str, Any]) -> dict[str, object]:
    return {"format": FORMAT, "version": VERSION, "sets": sets}


def grandma() -> str:
    """The family's edition "grandma": classic with a name of its own (its deeds and cards are classic's)."""
    save_edition('name = "grandma"\ntitle = "Grandma\'s"\nextends = "classic"\n')
    return GRANDMA


# ----------------------------------------------------------------------
# Tagging: assign, refuse, forget, a lost card's sticker replaced


def test_assign_lookup_and_the_sticker_on_an_item(path: Path) -> None:
    store = TagStore(path)
    assert store.problem is None and store.sets == {} and not path.exists()  # no file: no tags, nothing written
    store.assign("04A32B1C", BOARDWALK)
    store.assign("04B0", GO_CARD)
    assert store.lookup("04A32B1C") == BOARDWALK and store.lookup("04B0") == GO_CARD and store.lookup("FF") is None
    assert store.uid_of(BOARDWALK) == "04A32B1C" and store.uid_of(PARK_PLACE) is None
    assert store.count([BOARDWALK, PARK_PLACE, GO_CARD]) == 2
    assert list(store.entries()) == [("classic", "04A32B1C", BOARDWALK), ("classic", "04B0", GO_CARD)]
    assert json.loads(path.read_text("utf-8")) == doc({"classic": {"04A32B1C": {"deed": 39},
                                                                   "04B0": {"deck": "chance", "card": "ch-advance-go"}}})
    store.assign("04A32B1C", BOARDWALK)  # again on the same card: nothing to refuse
    assert store.uid_of(BOARDWALK) == "04A32B1C"


def test_a_sticker_on_another_card_is_refused_and_nothing_changes(path: Path) -> None:
    store = TagStore(path)
    store.assign("04A32B1C", BOARDWALK)
    before = path.read_bytes()
    with pytest.raises(TagsError, match="sticker 04A32B1C is already another card"):
        store.assign("04A32B1C", PARK_PLACE)
    with pytest.raises(TagsError, match="already another card"):  # in another set too
        store.assign("04A32B1C", Tagged("brands", "deed", space=1))
    assert path.read_bytes() == before and store.uid_of(PARK_PLACE) is None and store.lookup("04A32B1C") == BOARDWALK


@pytest.mark.parametrize("uid", ["", "04 A3", "04\n", "x" * 65, "\ud800", "\u202e04"])
def test_a_bad_sticker_number_is_refused(path: Path, uid: str) -> None:
    store = TagStore(path)
    with pytest.raises(TagsError, match="a sticker's number"):
        store.assign(uid, BOARDWALK)
    assert not path.exists()


@pytest.mark.parametrize(("item", "why"), [
    (Tagged("classic-short", "deed", space=1), "classic-short's games play with the set 'classic'"),
    (Tagged("edition:Bad Name", "deed", space=1), "the edition's name must be lower-case"),
    (Tagged("edition:some/path.toml", "deed", space=1), "the edition's name must be lower-case"),
    (Tagged("monopoly", "deed", space=1), "not a shipped ruleset"),
    (Tagged("classic", "deed", space=1000), "from 0 to 999"),
    (Tagged("classic", "card", deck="", card="x"), '"deck" must be printable text'),
    (Tagged("classic", "card", deck="chance", card="x\n"), '"card" must be printable text'),
])
def test_an_item_the_file_could_not_hold_is_refused_before_writing(path: Path, item: Tagged, why: str) -> None:
    """What the store writes always reads back: a game of a ruleset file's rules (no set), a careless caller."""
    store = TagStore(path)
    with pytest.raises(TagsError, match=why.replace("(", r"\(")):
        store.assign("04A32B1C", item)
    assert not path.exists() and store.sets == {}


def test_a_lost_cards_sticker_is_replaced_by_tagging_that_card_again(path: Path) -> None:
    store = TagStore(path)
    store.assign("04A32B1C", BOARDWALK)
    store.assign("04FFFF01", BOARDWALK)  # the new sticker on the same card: the old one comes off
    assert store.uid_of(BOARDWALK) == "04FFFF01" and store.lookup("04A32B1C") is None
    store.assign("04A32B1C", PARK_PLACE)  # the lost sticker is free again
    assert TagStore(path).sets == {"classic": {"04FFFF01": BOARDWALK, "04A32B1C": PARK_PLACE}}


def test_forget_takes_the_sticker_off_and_writes_only_a_change(path: Path) -> None:
    store = TagStore(path)
    store.assign("04A32B1C", BOARDWALK)
    store.assign("04B0", GO_CARD)
    store.forget(BOARDWALK)
    assert store.lookup("04A32B1C") is None and TagStore(path).sets == {"classic": {"04B0": GO_CARD}}
    os.utime(path, (0, 0))
    store.forget(PARK_PLACE)  # never tagged: nothing written
    assert path.stat().st_mtime == 0
    store.forget(GO_CARD)  # the set's last sticker: the set goes from the file
    assert json.loads(path.read_text("utf-8")) == doc({}) and TagStore(path).sets == {}


def test_the_memory_store_writes_nothing(tmp_path: Path) -> None:
    store = TagStore()
    store.assign("04A32B1C", BOARDWALK)
    assert store.lookup("04A32B1C") == BOARDWALK and list(tmp_path.iterdir()) == []


# ----------------------------------------------------------------------
# The file: whole or not at all, read back after a restart


def test_a_restart_reads_every_set_back(path: Path) -> None:
    store = TagStore(path)
    brands = Tagged("brands", "card", deck="chance", card="brands-showdown-demolition")
    biznes = Tagged("biznes", "deed", space=1)
    ours = Tagged(grandma(), "deed", space=3)
    for uid, item in [("04A32B1C", BOARDWALK), ("04B0", GO_CARD), ("0012345678", brands), ("AA01", biznes),
                      ("AA02", ours)]:
        store.assign(uid, item)
    again = TagStore(path)
    assert again.problem is None and again.sets == store.sets and again.document() == store.document()
    assert again.lookup("AA02") == ours and again.lookup("0012345678") == brands


def test_a_failed_write_leaves_the_old_file_whole(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The new file is written beside the old one and renamed over it (os.replace): when that fails (a full
    card, a pulled plug), the old file is there, whole, no temporary file is left, and the store is as before."""
    store = TagStore(path)
    store.assign("04A32B1C", BOARDWALK)
    before = path.read_bytes()

    def fail(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError, match="No space left"):
        store.assign("04B0", GO_CARD)
    with pytest.raises(OSError):
        store.forget(BOARDWALK)
    with pytest.raises(OSError):
        store.import_document(doc({"biznes": {"AA01": {"deed": 1}}}))
    monkeypatch.undo()
    assert path.read_bytes() == before and os.listdir(path.parent) == [TAGS_NAME]
    assert store.sets == {"classic": {"04A32B1C": BOARDWALK}} and store.lookup("04B0") is None
    assert TagStore(path).sets == store.sets


def test_a_file_too_large_to_read_back_is_never_written(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = TagStore(path)
    store.assign("04A32B1C", BOARDWALK)
    before = path.read_bytes()
    monkeypatch.setattr(tags_module, "MAX_FILE_BYTES", len(before) + 10)
    with pytest.raises(TagsError, match=f"more than {len(before) + 10} bytes"):
        store.assign("04B0", GO_CARD)
    assert path.read_bytes() == before and store.lookup("04B0") is None


# ----------------------------------------------------------------------
# A damaged file: kept, never overwritten


def test_a_damaged_file_is_kept_when_the_family_tags_again(path: Path) -> None:
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"format": "board-banker-tags", "version": 1, "sets": {"classic": {"04A3')
    store = TagStore(path)
    assert store.problem is not None and store.problem.startswith("not JSON") and store.sets == {}
    assert store.lookup("04A3") is None and path.read_bytes().endswith(b"04A3")  # read, never touched
    store.assign("04B0", GO_CARD)
    assert (path.parent / "tags.json.damaged").read_bytes().endswith(b"04A3")
    assert store.problem is None and store.kept == path.parent / "tags.json.damaged"
    assert TagStore(path).sets == {"classic": {"04B0": GO_CARD}}

    path.write_bytes(b"\xff\xfe")  # damaged again: the first damaged file stays as it is
    store = TagStore(path)
    assert store.problem == "not UTF-8 text (byte 0xff at offset 0)"
    store.assign("04B0", GO_CARD)
    assert (path.parent / "tags.json.damaged").read_bytes().endswith(b"04A3")
    assert (path.parent / "tags.json.damaged-2").read_bytes() == b"\xff\xfe"
    assert sorted(os.listdir(path.parent)) == ["tags.json", "tags.json.damaged", "tags.json.damaged-2"]
    store.assign("04A32B1C", BOARDWALK)  # the store is sound now: no third copy
    assert len(os.listdir(path.parent)) == 3


def test_a_damaged_file_of_another_name_is_kept_beside_it(tmp_path: Path) -> None:
    path = tmp_path / "box.json"  # banker tags --file box.json
    path.write_text("[]")
    store = TagStore(path)
    assert store.problem == "the file is not a JSON object"
    store.assign("04B0", GO_CARD)
    assert (tmp_path / "box.json.damaged").read_text() == "[]" and not (tmp_path / "tags.json.damaged").exists()


def test_a_damaged_file_stays_in_its_place_when_the_write_fails(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path.parent.mkdir(parents=True)
    path.write_text('{"format": 1}')
    store = TagStore(path)
    monkeypatch.setattr(os, "replace", lambda src, dst: (_ for _ in ()).throw(OSError(30, "Read-only file system")))
    with pytest.raises(OSError):
        store.assign("04B0", GO_CARD)
    monkeypatch.undo()
    assert path.read_text() == '{"format": 1}' and os.listdir(path.parent) == [TAGS_NAME]
    assert store.problem is not None and store.kept is None  # still damaged, still kept: the next tag tries again
    store.assign("04B0", GO_CARD)
    assert (path.parent / "tags.json.damaged").read_text() == '{"format": 1}'


def test_a_damaged_file_gone_before_the_first_tag_leaves_nothing_to_keep(path: Path) -> None:
    """The file the store could not read is removed by hand while the app runs: the first tag writes a new one,
    and the next ones never take that good file for the damaged one."""
    path.parent.mkdir(parents=True)
    path.write_text("{")
    store = TagStore(path)
    path.unlink()
    store.assign("04B0", GO_CARD)
    store.assign("04A32B1C", BOARDWALK)
    assert os.listdir(path.parent) == [TAGS_NAME] and len(TagStore(path).sets["classic"]) == 2


def test_a_folder_in_the_files_place_is_moved_aside(path: Path) -> None:
    path.mkdir(parents=True)
    (path / "inside").write_text("kept")
    store = TagStore(path)
    assert store.problem == "is a folder, not a regular file"
    store.assign("04B0", GO_CARD)
    assert (path.parent / "tags.json.damaged" / "inside").read_text() == "kept" and TagStore(path).sets


# ----------------------------------------------------------------------
# The document


def test_the_document_round_trips_and_imports_all_or_nothing(path: Path) -> None:
    store = TagStore(path)
    store.assign("04A32B1C", BOARDWALK)
    store.assign("BB01", Tagged("biznes", "deed", space=1))
    document = store.document()
    assert parse_document(document) == store.sets == read_document(path)
    before = path.read_bytes()
    for bad, why in [
        (doc({"classic": {"04A32B1C": {"deed": 37}}, "brands": {"04A32B1C": {"deed": 1}}}), "in set 'classic' and"),
        (doc({"brands": {"BB01": {"deed": 1}}}), "sticker BB01 would be in set 'biznes' and in set 'brands'"),
        (doc({"classic": {"01": {"deed": 37}, "02": {"deed": 37}}}), "stickers 01 and 02 are on one card"),
    ]:
        with pytest.raises(TagsError, match=why):
            store.import_document(bad)
        assert path.read_bytes() == before
    assert store.import_document(doc({"classic": {"CC01": {"deed": 37}}})) == 1  # classic replaced, biznes stays
    assert TagStore(path).sets == {"classic": {"CC01": PARK_PLACE}, "biznes": {"BB01": Tagged("biznes", "deed", space=1)}}
    assert store.import_document(doc({"classic": {}})) == 0  # an empty set clears it
    assert set(TagStore(path).sets) == {"biznes"}
    assert store.import_document(document) == 2 and store.document() == document  # the export, back


def test_import_checks_new_stickers_against_the_set(path: Path) -> None:
    store = TagStore(path)
    store.import_document(doc({"classic": {"04A32B1C": {"deed": 12}}}))  # unchecked without `known`
    before = path.read_bytes()
    for entry, why in [({"deed": 0}, "space 0 is no title deed of this set"),
                       ({"deed": 40}, "space 40 is no title deed"),
                       ({"deck": "chanse", "card": "ch-advance-go"}, "this set has no deck 'chanse'"),
                       ({"deck": "chance", "card": "cc-sale-45"}, "the deck 'chance' has no card 'cc-sale-45'")]:
        with pytest.raises(TagsError, match=f"set 'classic', sticker 04B0: {why}"):
            store.import_document(doc({"classic": {"04A32B1C": {"deed": 12}, "04B0": entry}}), known=set_catalogue)
        assert path.read_bytes() == before
    # A sticker the store holds as it is stays unchecked (it came from tagging): the export imports back even
    # when its item has left the rules since (an edition edited, deleted).
    store.sets["classic"]["04A32B1C"] = Tagged("classic", "deed", space=0)
    assert store.import_document(store.document(), known=set_catalogue) == 1
    with pytest.raises(TagsError, match="set 'edition:grandma': the edition does not load"):
        store.import_document(doc({GRANDMA: {"AA01": {"deed": 1}}}), known=set_catalogue)
    grandma()
    assert store.import_document(doc({GRANDMA: {"AA01": {"deed": 1}}}), known=set_catalogue) == 1


@pytest.mark.parametrize(("document", "why"), [
    ([], "the file is not a JSON object"),
    ({"version": 1}, '"format" is missing'),
    ({"format": "board-banker-tag", "version": 1}, '"format" must be "board-banker-tags", not \'board-banker-tag\''),
    ({"format": FORMAT, "version": 2}, '"version" must be 1, not 2'),
    ({"format": FORMAT, "version": True}, '"version" must be 1, not True'),
    ({"format": FORMAT, "version": 1, "set": {}}, "unknown key 'set'"),
    ({"format": FORMAT, "version": 1, "sets": []}, '"sets" must be an object of sets'),
    (doc({"Classic": {}}), "set 'Classic': not a shipped ruleset"),
    (doc({"classic-timed": {}}), "classic-timed's games play with the set 'classic'"),
    (doc({"brands-showdown": {}}), "brands-showdown's games play with the set 'brands'"),
    (doc({"edition:": {}}), "set 'edition:': the edition's name must not be empty"),
    (doc({"edition:biznes": {}}), "is the name of a shipped ruleset"),
    (doc({"x" * 81: {}}), "a set's name must be printable text of 1 to 80 characters"),
    (doc({"classic": []}), "set 'classic': must be an object of stickers"),
    (doc({"classic": {"04 A3": {"deed": 1}}}), "set 'classic', sticker '04 A3': a sticker's number may hold only"),
    (doc({"classic": {"04A3": {"deed": -1}}}), '"deed" must be a space\'s index, a whole number from 0 to 999, not -1'),
    (doc({"classic": {"04A3": {"deed": 1.0}}}), "not 1.0"),
    (doc({"classic": {"04A3": {"deed": False}}}), "not False"),
    (doc({"classic": {"04A3": {"deed": 1, "deck": "chance"}}}), 'must be {"deed": INDEX} or'),
    (doc({"classic": {"04A3": {"deck": "chance"}}}), 'must be {"deed": INDEX} or'),
    (doc({"classic": {"04A3": {"deck": "chance", "card": 7}}}), '"card" must be printable text of 1 to 80 characters, not 7'),
    (doc({"classic": {"04A3": "Boardwalk"}}), 'must be {"deed": INDEX} or'),
])
def test_each_rule_of_the_document(document: object, why: str) -> None:
    with pytest.raises(TagsError) as caught:
        parse_document(document)
    assert why in str(caught.value) and "\n" not in str(caught.value)


# ----------------------------------------------------------------------
# The sets and what there is to tag in them


def test_set_key_of_every_shipped_ruleset_and_an_edition() -> None:
    assert {name: set_key(name) for name in builtin_names()} == {
        "biznes": "biznes", "brands": "brands", "brands-fast": "brands", "brands-showdown": "brands",
        "brands-teams": "brands", "classic": "classic", "classic-short": "classic", "classic-timed": "classic"}
    assert set_key(grandma()[len("edition:"):]) == GRANDMA and set_problem(GRANDMA) is None
    assert all(set_problem(set_key(name)) is None for name in builtin_names())


@pytest.mark.parametrize("name", builtin_names())
def test_set_items_deeds_in_board_order_then_each_decks_cards(name: str) -> None:
    ruleset = load_ruleset(name)
    items = set_items(ruleset, set_key(name))
    deeds = [it for it in items if it.kind == "deed"]
    assert items[:len(deeds)] == deeds and [it.space for it in deeds] == sorted(ruleset.property_indices)
    assert all(ruleset.spaces[it.space].is_property for it in deeds)
    cards = [(it.deck, it.card) for it in items[len(deeds):]]
    assert cards == [(card.deck, card.id) for deck in ruleset.decks for card in ruleset.cards if card.deck == deck]
    assert len(set(items)) == len(items) and {it.set for it in items} == {set_key(name)}


def test_set_items_of_classic_in_numbers() -> None:
    items = set_items(load_ruleset("classic"), "classic")
    assert [it.space for it in items[:4]] == [1, 3, 5, 6]  # Mediterranean, Baltic, Reading Railroad, Oriental
    assert [(it.deck, it.card) for it in items[28:30]] == [("community_chest", "cc-sale-45"),
                                                           ("community_chest", "cc-services-25")]
    assert len(items) == 28 + 16 + 16 and items[44].deck == "chance"


def test_set_catalogue_holds_every_game_of_the_set() -> None:
    """Brands' box: its 20 cards and showdown's own 21st, whichever brands mode is played; an edition's own."""
    brands = set_catalogue("brands")
    assert len([it for it in brands if it.kind == "deed"]) == 28 and len(brands) == 28 + 21
    assert brands[-1] == Tagged("brands", "card", deck="chance", card="brands-showdown-demolition")
    assert set_catalogue("classic") == set_items(load_ruleset("classic"), "classic")
    ours = set_catalogue(grandma())
    assert len(ours) == 60 and {it.set for it in ours} == {GRANDMA}


def test_tags_path_is_beside_the_settings(tmp_path: Path) -> None:
    assert tags_path(tmp_path / "board-banker" / "settings.json") == tmp_path / "board-banker" / "tags.json"
