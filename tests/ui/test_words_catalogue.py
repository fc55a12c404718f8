"""Issue 54's words, for the whole catalogue in its four languages (no window): every sentence shown on its own
begins with a capital letter, as the app fills it in; every text that asks for a card tap has an on-screen
buttons' twin or is shown only when cards are used, and the twins ask for no card; every switch's label says
its state; GO, Just Visiting and a tie in the family's words. The touch-only tests of the same points are
tests/ui/test_words.py."""

from __future__ import annotations

import re
import string
from pathlib import Path
from typing import Any

import pytest

import i18n_tool  # scripts/i18n_tool.py (pyproject.toml's pythonpath)
from banker.report import game_report
from banker.ruleset import load_ruleset
from banker.simulate import play_game
from flowkit import make, start
from ui.flows import Flows
from ui.flows.settings import CHOICES, SETTING_ROWS
from ui.i18n import Msg, Translator, msg, winners_msg
from ui.moments import EVENT, Moment
from ui.session import BUTTONS_WORDS, CARDS_ONLY
from ui.settings import Settings
from ui.voice import Waiting, phrases, say

LANGUAGES = ["en", "pl", "cs", "ru"]


def catalogue(language: str) -> dict[str, list[str]]:
    """key -> its forms, as the .po file has them."""
    found: dict[str, list[str]] = {}
    for m in i18n_tool.read(language):
        if m.id:
            key = m.id[0] if isinstance(m.id, (list, tuple)) else m.id
            found[key] = list(m.string) if isinstance(m.string, (list, tuple)) else [m.string]
    return found


CATALOGUES = {language: catalogue(language) for language in LANGUAGES}

# ---------------------------------------------------------------------- capitals

# Pieces that are never shown on their own, each where it goes: they start in lower case on purpose. A sentence
# that begins with one of them gets its capital from the Translator (ui/i18n.py's `_fill`).
PIECES = (
    "ui.do.",  # what a card tap agrees to, inside ui.tap.prompt ("Ann: tap your card to buy ...")
    "ui.how.",  # how a player left jail, inside event.left_jail
    "ui.kind.",  # what is auctioned (a house, a hotel), inside ui.auction.title and the voice's phrases
    "ui.word.",  # the ruleset's building words, inside sentences about buildings
    "ui.face.",  # the speed die's face, inside event.speed_die
    "ui.reader.", "ui.button.",  # the reader's and the dice button's state, after "Reader:" and "Button:" (ui.status)
    "ui.report.kind.",  # a kind of money: inside the report's lines, and a label of its chart's legend
)
PIECE_KEYS = {
    "ui.bank", "ui.pot",  # the bank and the pot as a payer or payee, inside money-log lines
    "ui.auction.leading", "ui.auction.out", "ui.auction.your_bid",  # after a bidder's name and cash
    "ui.player.bankrupt", "ui.player.in_jail", "ui.player.owes",  # a player's flags, after the name, comma-joined
    "ui.deed.mortgaged", "ui.progress.not_mortgaged",  # after a deed's name
    "ui.clock.no_salary", "ui.clock.rent_tax", "ui.clock.speed_die",  # after ui.clock.minute on the clock's line
    "ui.banker.adjust_reason",  # the {reason} of log.adjust
    "ui.report.chart.other",  # a label of the report chart's legend, beside ui.report.kind's
    "ui.fame.wins",  # after the player's name in the hall of fame
    "ui.house.none",  # shown where a house rule's amount goes, as a value
    "ui.keyboard.space",  # the on-screen keyboard's space bar
    "ui.editor.name_hint",  # begins with the characters allowed, "a-z, 0-9 and -"
    "ui.on", "ui.off",  # a state after a label
    "ui.where.pi", "ui.where.computer", "ui.where.no_config",  # the machine and the config file, in ui.where.facts
    # Sentences that begin with the word "bank" quoted as a player would type it (a name refused): a quotation
    # keeps the letters as typed.
    "setup.bank_name", "ui.setup.bank_name",
}
# A lower-case value at a sentence's start, as the app passes it: the bank paying (ui.bank renders "the bank",
# "bank", "banka", "банк").
LOWER_VALUE = msg("ui.bank")


def piece(key: str) -> bool:
    return key in PIECE_KEYS or key.startswith(PIECES)


def filled(tr: Translator, key: str, template: str) -> str:
    """The message as the app fills it: a lower-case value for every text parameter, numbers for the rest."""
    param = tr.plural_param(key)
    params: dict[str, Any] = {}
    for _, name, spec, _ in string.Formatter().parse(template):
        if name is None:
            continue
        if name == param or (spec and "." in spec) or spec == "money":
            params[name] = 2
        else:
            params[name] = LOWER_VALUE
    return tr.render(Msg(key, params))


def first_letter(text: str) -> str:
    """The first letter or digit of the text (after any opening quote, dash or bracket)."""
    found = re.search(r"\w", text)
    return found.group(0) if found else ""


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_sentence_shown_on_its_own_begins_with_a_capital(language: str) -> None:
    tr = Translator(language)
    small = []
    for key, forms in CATALOGUES[language].items():
        if piece(key) or key.startswith(("card.", "group.", "deck.", "space.")):  # the rulesets' own names
            continue
        for form in forms:
            text = filled(tr, key, form)
            if first_letter(text).islower():
                small.append((key, text))
    assert small == [], small


def test_the_pieces_listed_exist() -> None:
    """An exception names a real key (a key renamed would otherwise leave its exception behind)."""
    keys = set(CATALOGUES["en"])
    assert sorted(k for k in PIECE_KEYS if k not in keys) == []
    assert [p for p in PIECES if not any(k.startswith(p) for k in keys)] == []


def test_the_bank_paying_begins_with_a_capital_and_keeps_its_small_letter_inside() -> None:
    line = msg("log.card", payer=msg("ui.bank"), payee="Car", amount=10, card=Msg("card.cc-bank-error-200",
                                                                                  default="x"))
    assert Translator("en").render(line).startswith("The bank pays Car 10")
    assert Translator("en").render(msg("log.rent", payer="Car", payee=msg("ui.bank"), amount=10,
                                       space="Boardwalk")).startswith("Car pays the bank 10")
    for language in LANGUAGES:
        assert Translator(language).render(line)[0].isupper(), language


# ---------------------------------------------------------------------- the card mode's words

# A text asks for a card when its English says to tap (the other languages keep to their English: each twin is
# checked below against its own cards-side text in every language).
ASKS_FOR_CARD = re.compile(r"\btap(s|ping|ped)?\b", re.I)


def test_every_text_asking_for_a_card_has_a_buttons_twin_or_is_shown_only_with_cards() -> None:
    asking = sorted(k for k, forms in CATALOGUES["en"].items() if k.startswith("ui.") and not k.startswith("ui.voice.")
                    and any(ASKS_FOR_CARD.search(f) for f in forms))
    unsorted = [k for k in asking if k not in BUTTONS_WORDS and k not in CARDS_ONLY]
    assert unsorted == [], "give these an on-screen buttons' twin in ui/session.py's BUTTONS_WORDS, or list them " \
                           f"in CARDS_ONLY with where they are shown: {unsorted}"
    assert sorted(k for k in CARDS_ONLY if k not in CATALOGUES["en"]) == []


def literal_parts(template: str) -> list[str]:
    """The template's fixed words between its placeholders, each run of 8 characters or more: what a reader
    sees of the text whatever values fill it."""
    return [text.strip(" :.,—–-") for text, *_ in string.Formatter().parse(template)
            if len(text.strip(" :.,—–-")) >= 8]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_buttons_twins_ask_for_no_card(language: str) -> None:
    cat = CATALOGUES[language]
    for cards_key, buttons_key in BUTTONS_WORDS.items():
        assert cards_key in cat and buttons_key in cat, (language, cards_key, buttons_key)
        twin = cat[buttons_key][0]
        assert twin != cat[cards_key][0], (language, buttons_key)
        for part in literal_parts(cat[cards_key][0]):
            assert part not in twin, (language, buttons_key, part)
        if language == "en":
            assert not ASKS_FOR_CARD.search(twin), buttons_key


def test_by_mode_picks_the_twin_with_buttons_only(tmp_path: Path) -> None:
    with_cards, with_buttons = make(tmp_path / "a"), make(tmp_path / "b", taps=False)
    for key, twin in BUTTONS_WORDS.items():
        assert with_cards.session.by_mode(key) == key and with_buttons.session.by_mode(key) == twin
    assert with_buttons.session.by_mode("ui.auction.title") == "ui.auction.title"


def auction(c: Flows) -> dict[str, Any]:
    """A classic game's auction of Baltic Avenue, declined by Ann: the auction's view."""
    c.turn.roll()  # flowkit's dice: 1 + 2, Baltic Avenue
    c.paying.request({"do": "decline"})
    view = c.auction.view()
    assert view is not None
    return view


def start_buttons(c: Flows, names: tuple[str, ...] = ("Ann", "Ben")) -> None:
    """A new game with on-screen buttons: no cards to register."""
    c.setup.new_game()
    for k, name in enumerate(names):
        c.setup.set_player(k, name=name)
    assert c.setup.start(), [n.text for n in c.session.notices]


@pytest.mark.parametrize("taps", [True, False])
def test_the_auctions_words_agree_with_its_buttons_in_both_modes(tmp_path: Path, taps: bool) -> None:
    c = make(tmp_path, taps=taps)
    if taps:
        start(c)
    else:
        start_buttons(c)
    a = auction(c)
    bids = {b["next"] for b in a["bidders"] if b["may_bid"]}
    assert bids == {a["opening"]} == {10}  # "No bid yet (from 10)" beside "Bid 10"
    assert a["how_key"] == ("ui.auction.how" if taps else "ui.auction.how_buttons")
    tr = c.session.tr
    assert "tap" not in tr(a["how_key"], step=a["step"]).lower() or taps
    assert tr("ui.auction.step", delta="+5") == "Bid step +5"


# ---------------------------------------------------------------------- switches


# The switches outside the settings' rows, by the keys of their two labels: the house rules page's On / Off
# beside each rule's name, the banker's stand-ins, a game already going's first lap, and brands' custom table's
# "Build evenly: on / off" (ui/screens/setup.py adds ui.on or ui.off to its name).
SWITCHES = (("ui.house.switch_on", "ui.house.switch_off"), ("ui.banker.stand_ins.on", "ui.banker.stand_ins.off"),
            ("ui.progress.lapped", "ui.progress.not_lapped"), ("ui.on", "ui.off"))


def setting_labels(c: Flows) -> dict[str, tuple[str, bool]]:
    """Each boolean setting's button on the settings screen: its label and whether it looks switched on."""
    view = c.settings.view()
    return {b["key"]: (c.session.tr(b["text_key"]), b["on"]) for line in view["rows"] for b in line
            if isinstance(getattr(c.session.settings, b["key"]), bool)}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_switch_says_its_state_and_a_way_chosen_never_looks_off(tmp_path: Path, language: str) -> None:
    c = make(tmp_path)
    c.settings.set_language(language)
    switches = [k for row in SETTING_ROWS for k in row if isinstance(getattr(Settings(), k), bool)]
    assert set(CHOICES) <= set(switches)
    for key in switches:
        before = setting_labels(c)[key]
        c.settings.set_setting(key, not getattr(c.session.settings, key))
        after = setting_labels(c)[key]
        c.settings.set_setting(key, not getattr(c.session.settings, key))
        assert before[0] != after[0], (language, key, before)
        if key in CHOICES:  # two ways of playing: the one chosen is in force, never greyed as off
            assert before[1] and after[1], (language, key)
    tr = c.session.tr
    for on, off in SWITCHES:  # the other switches' two labels
        assert tr(on) != tr(off), (language, on)
    if language == "en":
        c.settings.set_setting("taps", False)
        assert setting_labels(c)["taps"] == ("Pay with: on-screen buttons", True)
        c.settings.set_setting("taps", True)
        assert setting_labels(c)["taps"] == ("Pay with: players' cards", True)


# ---------------------------------------------------------------------- GO, Just Visiting, a tie


def test_go_is_called_by_the_rulesets_name() -> None:
    """The bonus for landing exactly on GO names the space as the ruleset does ("GO" in classic, "Start" in
    biznes's Polish rulebook), in every language: the engine's log entry carries the space's name."""
    for rules, go in (("classic", "GO"), ("biznes", "Start")):
        entry = None
        for seed in range(1, 40):
            game, _, _ = play_game(rules, load_ruleset(rules), 3, seed, max_turns=400,
                                   options={"start_landing_bonus": 200})
            entry = next((e for e in game.log if e[4] == "start_bonus"), None)
            if entry is not None:
                break
        assert entry is not None, rules
        _, _, payee, amount, code, params = entry
        assert params == {"space": go}, (rules, params)
        for language in LANGUAGES:
            line = Translator(language).render(Msg(f"log.{code}", {**params, "payee": "Ann", "amount": amount}))
            assert go in line, (language, line)
        english = Translator("en").render(Msg("log.start_bonus", {**params, "payee": "Ann", "amount": amount}))
        assert english.startswith(f"Ann lands exactly on {go}:"), english


def test_a_tie_shares_the_first_place_in_every_language() -> None:
    expected = {"en": "Car and Ship share first place", "pl": "Car i Ship dzielą pierwsze miejsce",
                "cs": "Car a Ship se dělí o první místo", "ru": "Car и Ship делят первое место"}
    for language, words in expected.items():
        tr = Translator(language)
        assert tr.render(winners_msg(["Car", "Ship"])) == words
        assert tr.render(winners_msg("Car")) == tr("ui.over.winner", player="Car")
    assert Translator("en").render(winners_msg(["Car", "Ship", "Dog"])) == "Car, Ship and Dog share first place"
    assert Translator("pl").render(winners_msg(("Car", "Ship", "Dog"))) == "Car, Ship i Dog dzielą pierwsze miejsce"


def test_the_voice_says_a_tie_as_a_shared_first_place(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c)
    tie = Moment(EVENT, "game_over", {"reason": "ended", "winner": ["Ann", "Ben"]}, 1)
    assert [say(c.session, Waiting([p])) for p in phrases(c.session, [tie])] == [
        "Game over. Ann and Ben share first place"]
    c.banker.end_game()  # and the notice says so too (not "Game over: ['Ann', 'Ben'] wins")
    assert [n.text for n in c.session.notices][-1] == "Game over. Ann and Ben share first place"


def test_a_tie_ranks_the_tied_players_first_on_the_game_over_screen_as_in_the_report(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c, ("Ann", "Ben", "Cy"))
    c.banker.end_game()  # nobody has moved: all three are as rich, all three win
    over = c.home.game_over()
    assert over["winner"] == "Ann, Ben and Cy share first place"
    assert [r["place"] for r in over["ranking"]] == [1, 1, 1]
    game = c.session.game
    assert game is not None
    assert [p["rank"] for p in game_report(game, 1, "finished")["players"]] == [1, 1, 1]  # as the report ranks


def test_landing_on_the_jail_says_just_visiting(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c)
    game = c.session.game
    assert game is not None
    c.session.apply({"do": "roll", "dice": [4, 6]})  # GO + 10: the jail's space, only visiting
    assert game.kinds[game.players[0].position] == "jail" and not game.players[0].in_jail
    assert c.session.move_hint == "Ann: move your token to Jail (just visiting)"
    for language in LANGUAGES[1:]:
        c.settings.set_language(language)
        hint = c.session.move_hint
        assert hint is not None and hint != Translator(language)("ui.move_to", player="Ann", space="Jail"), language
    c.settings.set_language("en")
