"""Settings -> "Tag the cards" in the flows (ui/flows/tagging.py), without a window: the sets and their progress,
the walk through a set (skip, back, "tag this one again", done), the refusals by name (another card's sticker,
a player's card of the unfinished game or of the new game's draft, a card with a sticker already), a set tagged
partly and taken up again, a write that fails, the tags file that cannot be read, each set's key (classic's
short and timed forms, brands' showdown card, an edition); and who hears a tap first (ui/taps.py): the hardware
check only shows it, naming what it is, the tagging page tags it, the setup and a lost card's replacement refuse
a tagged sticker."""

from __future__ import annotations

from pathlib import Path

import pytest

import ui.tags
from banker.journal import Journal
from banker.ruleset import load_ruleset
from flowkit import CARDS, Clock, make, start, texts
from ui.drafts import DraftFile
from ui.flows import Flows
from ui.i18n import Translator, card_msg
from ui.pages import BANKER_PAGE, CHECK_READER_PAGE, HOME_PAGE, SETTINGS_PAGE, TABLE_PAGE, TAGGING_PAGE
from ui.settings import Settings
from ui.tags import TagStore, set_items
from ui.tour_editions import write_editions

CLASSIC = set_items(load_ruleset("classic"), "classic")  # 28 deeds, then 16 Community Chest and 16 Chance cards


def sticker(k: int) -> str:
    return f"5A{k:06X}"


def sounding(tmp_path: Path) -> tuple[Flows, list[str]]:
    """The flows (as flowkit's `make`), with the sounds they play."""
    played: list[str] = []
    journal = Journal(tmp_path / "games.sqlite3")
    c = Flows.on(journal, Settings(taps=True), save_settings=lambda s: None, play_sound=played.append,
                 power_off=lambda: None, clock=Clock())
    return c, played


def tagging(c: Flows, key: str = "classic") -> None:
    """Settings -> Tag the cards, the set `key` chosen."""
    c.nav.go(SETTINGS_PAGE)
    c.tagging.begin()
    assert c.nav.screen_name() == TAGGING_PAGE
    c.tagging.choose(key)


def shown(c: Flows) -> str:
    """The name on the card being tagged (a deed's, or a card's deck), with its words."""
    item = c.tagging.view()["item"]
    assert item is not None
    return f"{item['name']}: {item['text']}"


# ---------------------------------------------------------------------- the sets


def test_the_sets_are_the_shipped_families_with_their_progress(tmp_path: Path) -> None:
    c = make(tmp_path)
    assert c.settings.view()["tagging"]  # between games: Settings offers it
    c.tagging.begin()
    v = c.tagging.view()
    assert v["stage"] == "sets" and v["title"] == "Tag the cards" and v["problem"] is None
    assert [(s["key"], s["title"], s["progress"]) for s in v["sets"]] == [
        ("classic", "Classic", "Tagged: 0 of 28 deeds, 0 of 32 cards"),
        ("biznes", "Biznes", "Tagged: 0 of 29 deeds, 0 of 20 cards"),
        ("brands", "Brands", "Tagged: 0 of 28 deeds, 0 of 21 cards"),  # showdown's 21st card is brands'
    ]
    c.settings.set_language("pl")
    assert c.tagging.view()["sets"][0]["progress"] == "Z naklejką: 0 z 28 aktów własności, 0 z 32 kart"


def test_the_settings_offer_tagging_between_games_only_and_the_page_gives_way_to_a_game(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c)
    assert not c.settings.view()["tagging"]
    c.nav.go(TAGGING_PAGE)  # not offered; and were it asked for, the table shows
    assert c.nav.screen_name() == TABLE_PAGE and not c.tagging.showing()
    cash = c.session.game.players[0].cash  # type: ignore[union-attr]
    c.taps.card_tapped(CARDS["Ann"])  # the game hears it: Ann's balance, no tag
    assert c.session.tags.entries() is not None and list(c.session.tags.entries()) == []
    assert texts(c)[-1].startswith("Ann: ") and c.session.game.players[0].cash == cash  # type: ignore[union-attr]


# ---------------------------------------------------------------------- the walk through a set


def test_a_whole_set_tagged_one_sticker_after_another(tmp_path: Path) -> None:
    c, played = sounding(tmp_path)
    tagging(c)
    item = c.tagging.view()["item"]
    assert item == {"kind": "deed", "name": "Mediterranean Avenue", "text": "Price 60", "colour": "#8B4A9C",
                    "dark": False, "tagged": False, "status": "Hold this card's sticker to the reader.",
                    "progress": "Tagged: 0 of 28 deeds"}
    for k, expected in enumerate(CLASSIC):
        assert c.tagging.item() == expected
        c.taps.card_tapped(sticker(k))
        assert c.session.tags.lookup(sticker(k)) == expected
    assert played == ["payment"] * len(CLASSIC)  # the registered card's sound, each time
    v = c.tagging.view()
    assert v["stage"] == "end" and v["end"] == "All 60 cards of Classic are tagged." and not v["rest"]
    assert texts(c)[-1].startswith("Chance: ") and texts(c)[-1].endswith(": tagged.")
    c.tagging.done()
    assert c.tagging.view()["sets"][0] == {"key": "classic", "title": "Classic", "done": True,
                                           "progress": "Tagged: 28 of 28 deeds, 32 of 32 cards"}


def test_a_deck_card_shows_its_deck_and_words_and_its_deck_s_progress(tmp_path: Path) -> None:
    c = make(tmp_path)
    tagging(c)
    for _ in range(28):
        c.tagging.skip()
    item = c.tagging.view()["item"]
    assert item is not None and item["kind"] == "card" and item["name"] == "Community Chest"
    classic = load_ruleset("classic")
    assert item["text"] == Translator("en").render(card_msg(classic, classic.card_by_id[CLASSIC[28].card]))
    assert item["progress"] == "Tagged: 0 of 16 Community Chest cards"
    c.taps.card_tapped(sticker(1))
    c.tagging.back()
    assert c.tagging.view()["item"]["progress"] == "Tagged: 1 of 16 Community Chest cards"  # type: ignore[index]
    for language, words in (("pl", "Z naklejką: 1 z 16 kart (Kasa Społeczna)"),
                            ("cs", "S nálepkou: 1 z 16 karet ({deck})"), ("ru", "С наклейкой: 1 из 16 карточек ({deck})")):
        c.settings.set_language(language)
        deck = Translator(language)("deck.community_chest")
        assert c.tagging.view()["item"]["progress"] == words.format(deck=deck)  # type: ignore[index]


def test_skip_back_and_the_end_with_the_rest_left(tmp_path: Path) -> None:
    c = make(tmp_path)
    tagging(c)
    assert not c.tagging.view()["can_back"]
    c.tagging.skip()
    assert c.tagging.item() == CLASSIC[1] and c.tagging.view()["can_back"]
    c.taps.card_tapped(sticker(1))  # Baltic Avenue; the next without a sticker is Reading Railroad
    assert c.tagging.item() == CLASSIC[2]
    c.tagging.back()
    c.tagging.back()
    assert c.tagging.item() == CLASSIC[0] and c.session.tags.uid_of(CLASSIC[0]) is None  # skipped, not tagged
    for _ in range(len(CLASSIC) + 3):  # past the last: the end, and no further
        c.tagging.skip()
    v = c.tagging.view()
    assert v["stage"] == "end" and v["rest"] and v["end"] == "Classic: 1 of 60 cards tagged. The others can wait " \
                                                              "for another time."
    c.tagging.back()
    assert c.tagging.item() == CLASSIC[-1]
    c.tagging.skip()
    c.tagging.rest()
    assert c.tagging.item() == CLASSIC[0]


def test_tag_this_one_again_takes_its_sticker_off_for_the_next(tmp_path: Path) -> None:
    c = make(tmp_path)
    tagging(c)
    c.tagging.again()  # no sticker to take off: nothing said, nothing changed
    assert texts(c) == [] and c.tagging.item() == CLASSIC[0]
    c.taps.card_tapped(sticker(0))
    c.tagging.back()
    item = c.tagging.view()["item"]
    assert item is not None and item["tagged"] and item["status"] == "This card has its sticker."
    c.taps.card_tapped(sticker(9))  # another sticker for a card that has one: refused by name
    assert texts(c)[-1] == "Mediterranean Avenue has its sticker already: 'Tag this one again' gives it a new one."
    assert c.session.tags.uid_of(CLASSIC[0]) == sticker(0) and c.tagging.item() == CLASSIC[0]
    c.taps.card_tapped(sticker(0))  # its own sticker: kept, and on to the next
    assert c.tagging.item() == CLASSIC[1]
    c.tagging.back()
    c.tagging.again()  # the card was lost: its replacement's sticker goes on
    assert c.session.tags.uid_of(CLASSIC[0]) is None and not c.tagging.view()["item"]["tagged"]  # type: ignore[index]
    assert texts(c)[-1].startswith("Mediterranean Avenue: its old sticker no longer counts.")
    c.taps.card_tapped(sticker(9))
    assert c.session.tags.uid_of(CLASSIC[0]) == sticker(9) and c.session.tags.lookup(sticker(0)) is None


def test_a_set_tagged_partly_is_taken_up_at_its_first_card_without_a_sticker(tmp_path: Path) -> None:
    c = make(tmp_path)
    c.session.tags = TagStore(tmp_path / "tags.json")
    tagging(c)
    c.taps.card_tapped(sticker(0))
    c.taps.card_tapped(sticker(1))
    c.tagging.skip()  # Reading Railroad left for later
    c.taps.card_tapped(sticker(3))
    c.tagging.done()
    assert c.tagging.view()["sets"][0]["progress"] == "Tagged: 3 of 28 deeds, 0 of 32 cards"
    again = make(tmp_path / "later")  # the app started again: the tags come from their file
    again.session.tags = TagStore(tmp_path / "tags.json")
    tagging(again)
    assert again.tagging.item() == CLASSIC[2]
    again.taps.card_tapped(sticker(2))
    assert again.tagging.item() == CLASSIC[4]  # past the one tagged before
    assert TagStore(tmp_path / "tags.json").count(CLASSIC) == 4


# ---------------------------------------------------------------------- refusals


def test_another_card_s_sticker_is_refused_by_name_in_any_set(tmp_path: Path) -> None:
    c, played = sounding(tmp_path)
    tagging(c)
    c.taps.card_tapped(sticker(0))
    c.taps.card_tapped(sticker(0))  # Baltic Avenue shows: that sticker is Mediterranean Avenue's
    assert texts(c)[-1] == "That sticker is already Mediterranean Avenue." and played[-1] == "error"
    assert c.tagging.item() == CLASSIC[1] and c.session.tags.uid_of(CLASSIC[1]) is None
    c.tagging.skip()  # the refusal was Baltic Avenue's: it goes when the family moves on, and so does what the
    assert texts(c) == []  # last sticker did
    c.tagging.done()
    c.tagging.choose("biznes")
    c.taps.card_tapped(sticker(0))  # a sticker of another set: named with its set
    assert texts(c)[-1] == "That sticker is already Mediterranean Avenue (Classic)."
    c.settings.set_language("pl")
    assert texts(c)[-1] == "Ta naklejka jest już na karcie: Mediterranean Avenue (Gra klasyczna)."


def test_a_player_s_card_of_the_unfinished_game_is_refused_by_name(tmp_path: Path) -> None:
    first = make(tmp_path)
    start(first)  # Ann and Ben, the game not finished
    c = make(tmp_path)  # the app started again: the start screen, the game to resume
    assert c.mode == "home" and c.home.can_resume()
    tagging(c)
    c.taps.card_tapped(CARDS["Ben"])
    assert texts(c)[-1] == "That sticker is Ben's card." and c.session.tags.lookup(CARDS["Ben"]) is None
    assert c.tagging.item() == CLASSIC[0]
    c.settings.set_language("cs")
    assert texts(c)[-1] == "Tahle nálepka je karta hráče Ben."


def test_a_player_s_card_of_the_new_game_s_draft_is_refused_put_aside_or_kept_in_its_file(tmp_path: Path) -> None:
    c = make(tmp_path)
    c.setup.keep_in(DraftFile(tmp_path / "draft.json"))
    c.setup.new_game()
    c.setup.set_player(0, name="Ann")
    c.setup.register(0)
    c.taps.card_tapped(CARDS["Ann"])
    c.setup.cancel()  # the draft put aside: the start screen
    tagging(c)
    c.taps.card_tapped(CARDS["Ann"])
    assert texts(c)[-1] == "That sticker is Ann's card." and c.session.tags.lookup(CARDS["Ann"]) is None
    later = make(tmp_path / "later")  # the app started again: the draft only in its file
    later.setup.keep_in(DraftFile(tmp_path / "draft.json"))
    tagging(later)
    later.taps.card_tapped(CARDS["Ann"])
    assert texts(later)[-1] == "That sticker is Ann's card." and later.session.tags.lookup(CARDS["Ann"]) is None


def test_a_write_that_fails_is_said_and_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    c = make(tmp_path)
    c.session.tags = TagStore(tmp_path / "tags.json")
    tagging(c)
    c.taps.card_tapped(sticker(0))

    def full(path: Path, text: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(ui.tags, "write_atomically", full)
    c.taps.card_tapped(sticker(1))
    assert texts(c)[-1] == "The tag could not be saved, so nothing changed: the data folder cannot be written to."
    assert c.tagging.item() == CLASSIC[1] and c.session.tags.lookup(sticker(1)) is None
    c.tagging.back()
    c.tagging.again()
    assert c.session.tags.uid_of(CLASSIC[0]) == sticker(0)  # not taken off either
    assert TagStore(tmp_path / "tags.json").count(CLASSIC) == 1


def test_a_sticker_s_number_that_cannot_be_kept_is_refused(tmp_path: Path) -> None:
    c = make(tmp_path)
    tagging(c)
    c.taps.card_tapped("5A" * 40)  # longer than any sticker's number
    assert texts(c)[-1] == "The reader gave this sticker a number that cannot be kept: try another sticker."
    assert c.tagging.item() == CLASSIC[0] and list(c.session.tags.entries()) == []


def test_a_tags_file_that_cannot_be_read_is_said_in_a_line_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "tags.json"
    path.write_text("{ not json", "utf-8")
    c = make(tmp_path)
    c.session.tags = TagStore(path)
    c.tagging.begin()
    assert c.tagging.view()["problem"] == ("The tags file could not be read: it is kept as it was, and the first "
                                           "tag starts a new one.")
    c.tagging.choose("classic")
    c.taps.card_tapped(sticker(0))
    assert (tmp_path / "tags.json.damaged").read_text("utf-8") == "{ not json"
    c.tagging.done()
    assert c.tagging.view()["problem"] is None and TagStore(path).count(CLASSIC) == 1


def test_on_the_list_or_the_end_a_sticker_is_only_named(tmp_path: Path) -> None:
    c = make(tmp_path)
    tagging(c)
    c.taps.card_tapped(sticker(0))
    c.tagging.done()
    c.taps.card_tapped(sticker(0))
    assert texts(c)[-1] == "That sticker is Mediterranean Avenue (Classic)."  # no set being tagged: named with it
    c.taps.card_tapped(sticker(5))
    assert texts(c)[-1] == "That sticker is on no card yet." and c.session.tags.lookup(sticker(5)) is None


# ---------------------------------------------------------------------- the sets' keys


@pytest.mark.parametrize("rules", ["classic", "classic-short", "classic-timed"])
def test_classic_s_short_and_timed_games_play_with_classic_s_stickers(tmp_path: Path, rules: str) -> None:
    c = make(tmp_path)
    tagging(c)
    c.taps.card_tapped(sticker(0))
    c.nav.go(HOME_PAGE)
    start(c, rules=rules)
    assert c.tagging.here() == "classic"
    assert c.session.tr.render(c.taps.describe(sticker(0))) == "Mediterranean Avenue"  # type: ignore[arg-type]


def test_a_sticker_of_another_set_is_named_with_its_set_in_a_game(tmp_path: Path) -> None:
    c = make(tmp_path)
    tagging(c)
    c.taps.card_tapped(sticker(0))
    c.nav.go(HOME_PAGE)
    start(c, rules="biznes")
    assert c.session.tr.render(c.taps.describe(sticker(0))) == "Mediterranean Avenue (Classic)"  # type: ignore[arg-type]


def test_brands_set_has_showdown_s_own_card(tmp_path: Path) -> None:
    c = make(tmp_path)
    tagging(c, "brands")
    own = set(load_ruleset("brands-showdown").deck_cards["chance"]) - set(load_ruleset("brands").deck_cards["chance"])
    assert len(own) == 1
    for _ in range(28 + 20):
        c.tagging.skip()
    item = c.tagging.item()
    assert item is not None and item.kind == "card" and item.card in own
    c.taps.card_tapped(sticker(7))
    assert c.session.tags.lookup(sticker(7)) == ui.tags.Tagged("brands", "card", deck="chance", card=item.card)


def test_an_edition_is_a_set_of_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    write_editions()  # "seaside" (Seaside Town), "ours", and a broken one
    c = make(tmp_path)
    c.tagging.begin()
    keys = [s["key"] for s in c.tagging.view()["sets"]]
    assert keys[:3] == ["classic", "biznes", "brands"] and "edition:seaside" in keys and "edition:broken" not in keys
    seaside = next(s for s in c.tagging.view()["sets"] if s["key"] == "edition:seaside")
    assert seaside["title"] == "Seaside Town" and seaside["progress"] == "Tagged: 0 of 28 deeds, 0 of 32 cards"
    c.tagging.choose("edition:seaside")
    assert c.tagging.view()["title"] == "Seaside Town"
    c.tagging.skip()
    assert shown(c) == "Harbour Lane: Price 60"  # Baltic Avenue renamed
    c.taps.card_tapped(sticker(0))
    assert c.session.tags.lookup(sticker(0)) == ui.tags.Tagged("edition:seaside", "deed", space=3)
    assert c.session.tags.uid_of(CLASSIC[1]) is None  # classic's own Baltic Avenue is another card
    c.tagging.done()
    c.tagging.choose("classic")
    c.taps.card_tapped(sticker(0))
    assert texts(c)[-1] == "That sticker is already Harbour Lane (Seaside Town)."


# ---------------------------------------------------------------------- who hears a tap first


def test_the_check_only_shows_a_tap_and_names_what_it_is(tmp_path: Path) -> None:
    c = make(tmp_path)
    tagging(c)
    c.taps.card_tapped(sticker(0))
    c.nav.go(SETTINGS_PAGE)
    c.nav.go(CHECK_READER_PAGE)
    c.taps.card_tapped(sticker(0))
    assert c.settings.check_view("reader")["about"] == "Mediterranean Avenue (Classic) · 1 tap so far"
    c.taps.card_tapped(sticker(1))  # the check: nothing tagged
    assert c.settings.check_view("reader")["about"] == "Not a player's card, not tagged · 2 taps so far"
    assert c.session.tags.lookup(sticker(1)) is None
    c.nav.back_from_check()
    c.tagging.begin()
    c.tagging.choose("classic")  # the check closed: the tagging page hears the taps again
    c.taps.card_tapped(sticker(1))
    assert c.session.tags.lookup(sticker(1)) == CLASSIC[1]


def test_the_check_names_a_chance_card_shortened_and_a_player_s_card(tmp_path: Path) -> None:
    c = make(tmp_path)
    tagging(c)
    c.tagging.skip()
    for _ in range(27 + 16):
        c.tagging.skip()
    c.taps.card_tapped(sticker(44))  # Chance's first card
    start(c)
    c.nav.go(SETTINGS_PAGE)
    c.nav.go(CHECK_READER_PAGE)
    c.taps.card_tapped(sticker(44))
    about = c.settings.check_view("reader")["about"]
    assert about.startswith("Chance: ") and " (" not in about  # the game's own set
    c.taps.card_tapped(CARDS["Ann"])
    assert c.settings.check_view("reader")["about"] == "Ann's card · 2 taps so far"


def test_a_long_card_s_words_are_shortened_at_a_word(tmp_path: Path) -> None:
    from ui.flows.tagging import shortened

    words = "Go to the nearest utility. If unowned, you may buy it from the bank. If owned, roll the dice."
    short = shortened(words)
    assert len(short) <= 60 and short.endswith("…") and words.startswith(short[:-1]) and short[-2] != " "
    assert shortened("Advance to GO.") == "Advance to GO."


def test_setup_refuses_a_tagged_sticker_as_a_player_s_card(tmp_path: Path) -> None:
    c = make(tmp_path)
    tagging(c)
    c.taps.card_tapped(sticker(0))
    c.nav.go(HOME_PAGE)
    c.setup.new_game()
    c.setup.register(0)
    c.taps.card_tapped(sticker(0))
    assert texts(c)[-1] == "That sticker is Mediterranean Avenue. A player needs a card of their own."
    assert c.setup.draft is not None and c.setup.draft.players[0].card is None and c.setup.draft.registering == 0
    c.settings.set_language("ru")
    assert texts(c)[-1] == "Эта наклейка уже на карточке: Mediterranean Avenue. Игроку нужна своя карта."
    c.taps.card_tapped(CARDS["Ann"])  # a card of her own
    assert c.setup.draft.players[0].card == CARDS["Ann"]


def test_a_new_game_drops_a_card_of_the_last_game_tagged_since(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c)
    c.banker.end_game()
    c.home.close_game()
    tagging(c)
    c.taps.card_tapped(CARDS["Ben"])  # Ben's card of the finished game: a sticker now
    assert c.session.tags.lookup(CARDS["Ben"]) == CLASSIC[0]
    c.nav.go(HOME_PAGE)
    c.setup.new_game()  # the last game's players, with their cards
    assert c.setup.draft is not None
    assert [(p.name, p.card) for p in c.setup.draft.players] == [("Ann", CARDS["Ann"]), ("Ben", None)]


def test_a_lost_card_s_replacement_refuses_a_tagged_sticker(tmp_path: Path) -> None:
    c = make(tmp_path)
    tagging(c)
    c.taps.card_tapped(sticker(0))
    c.nav.go(HOME_PAGE)
    start(c)
    c.nav.go(BANKER_PAGE)
    c.banker.replace_card("Ben")
    c.taps.card_tapped(sticker(0))
    assert texts(c)[-1] == "That sticker is Mediterranean Avenue. A player needs a card of their own."
    assert c.session.meta["cards"] == {CARDS["Ann"]: "Ann", CARDS["Ben"]: "Ben"} and c.banker.replacing == "Ben"
    c.taps.card_tapped("0499887766")
    assert c.session.meta["cards"] == {CARDS["Ann"]: "Ann", "0499887766": "Ben"}
