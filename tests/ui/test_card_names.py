"""Cards follow the names (issue 43, part 3): a card's text names the spaces of the ruleset it is played with.

The catalogues write a card that sends a player somewhere with `{space}` (and the start space with `{go}`, the
salary with `{salary:money}`), filled by `ui.i18n.card_msg` from the game's ruleset and options. So a family's
edition that renames Illinois Avenue shows "Advance to Our Lane" on the table, in the voice and on the phone,
in all four languages, and the shipped rulesets read as before, with their own names.
"""

from __future__ import annotations

import copy
import string
from pathlib import Path

import pytest

from banker.editions import save_edition
from banker.options import options_from
from banker.ruleset import builtin_names, load_ruleset, ruleset_from_data
from flowkit import make, start, texts
from ui.i18n import LANGUAGES, Msg, Translator, card_msg
from ui.moments import EVENT, Moment
from ui.voice import Waiting, phrases, say

SHIPPED = [load_ruleset(name) for name in builtin_names()]


def renamed(ruleset_name: str) -> tuple[object, dict[int, str]]:
    """The ruleset with every space renamed ("Zeta Place 24") and the salary at 345, as an edition would be."""
    data = copy.deepcopy(load_ruleset(ruleset_name).source_data())
    names = {}
    for i, space in enumerate(data["spaces"]):
        names[i] = space["name"] = f"Zeta Place {i}"
    data.setdefault("options", {})["salary"] = 345
    data["name"] = "zeta"
    return ruleset_from_data(data, "zeta.toml"), names


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("ruleset", SHIPPED, ids=lambda r: r.name)
def test_every_shipped_card_renders_whole_and_names_its_target(ruleset: object, language: str) -> None:
    tr = Translator(language)
    for card in ruleset.cards:  # type: ignore[attr-defined]
        message = card_msg(ruleset, card)
        wanted = {name for _, name, _, _ in string.Formatter().parse(tr.template(message.key) or "") if name}
        assert wanted <= set(message.params), (language, card.id, wanted)  # each placeholder gets a value
        text = tr.render(message)
        assert "{" not in text and "}" not in text, (language, card.id, text)
        if card.to >= 0:
            assert ruleset.spaces[card.to].name in text, (language, card.id, text)  # type: ignore[attr-defined]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", ["classic", "brands", "biznes"])
def test_an_edition_s_cards_say_its_names_and_its_salary(name: str, language: str) -> None:
    shipped = load_ruleset(name)
    edition, names = renamed(name)
    tr = Translator(language)
    moved = 0
    for card in edition.cards:  # type: ignore[attr-defined]
        text = tr.render(card_msg(edition, card))
        if card.to >= 0:
            moved += 1
            assert names[card.to] in text, (language, card.id, text)
            assert shipped.spaces[card.to].name not in text, (language, card.id, text)
        template = tr.template(f"card.{card.id}") or ""
        if "{go}" in template:
            assert names[0] in text, (language, card.id, text)
        if "{salary" in template:
            assert "345" in text and "200" not in text, (language, card.id, text)
    assert moved >= 2


def test_a_hand_made_card_keeps_its_own_text() -> None:
    edition, _ = renamed("classic")
    card = edition.cards[0]  # type: ignore[attr-defined]
    mine = type(card)(id="my-own-card", deck=card.deck, text="Go to {the} shop", effect="advance", to=3)
    assert Translator("pl").render(card_msg(edition, mine)) == "Go to {the} shop"


def test_the_game_s_salary_is_the_one_said() -> None:
    classic = load_ruleset("classic")
    card = classic.card_by_id["ch-illinois"]
    assert "500" in Translator("en").render(card_msg(classic, card, options_from({"salary": 500}, classic.options)))
    assert Translator("en").render(card_msg(classic, card)) == \
        "Advance to Illinois Avenue. If you pass GO, collect 200."


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_game_on_an_edition_shows_and_says_the_card_with_the_new_name(tmp_path: Path, language: str,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    data = load_ruleset("classic").source_data()
    data.update(name="our-street", title="Our Street")
    data["spaces"][24]["name"] = "Our Lane"
    save_edition(data)
    c = make(tmp_path)
    c.settings.set_language(language)
    start(c, rules="our-street", setup={"players": {"Ann": {"position": 31}}})
    c.turn.roll((2, 3))  # onto Chance (36)
    c.turn.draw("ch-illinois")
    game = c.session.game
    assert game is not None and game.players[0].position == 24
    shown = [t for t in texts(c) if "Our Lane" in t]
    assert shown and not any("Illinois" in t for t in texts(c)), texts(c)
    spoken = phrases(c.session, [Moment(EVENT, "card", {"player": "Ann", "card": "ch-illinois", "text": "x"}, 1)])
    words = say(c.session, Waiting(spoken))
    assert "Our Lane" in words and "Illinois" not in words, words


def test_the_phone_s_money_log_renders_a_card_with_the_game_s_names(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c)
    shown = c.session.words({"card": "ch-illinois", "text": "x"})
    assert isinstance(shown["text"], Msg) and shown["text"].params["space"] == "Illinois Avenue"
    line = c.session.money_msg("card", "bank", "Ann", 50, {"card": "ch-illinois"})
    assert "Illinois Avenue" in c.session.tr.render(line)
