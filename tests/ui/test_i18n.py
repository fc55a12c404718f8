"""The app's languages: gettext catalogues, plural forms, numbers and money per locale, notices that re-render."""

from __future__ import annotations

import shutil
import string
from pathlib import Path
from typing import Any

import pytest
from babel import Locale
from babel.messages.catalog import Catalog

import i18n_tool  # scripts/i18n_tool.py (pyproject.toml's pythonpath)
from banker.messages import MESSAGES, Plural, render
from banker.ruleset import CURRENCIES, builtin_names, load_ruleset
from flowkit import CARDS, make, start, texts
from ui import i18n
from ui.i18n import Msg, Translator, msg

NBSP = "\u00a0"
LANGUAGES = ["en", "pl", "cs", "ru"]
# The plural forms each catalogue lists, in order, by their CLDR category.
CATEGORIES = {"en": ["one", "other"], "pl": ["one", "few", "many"], "cs": ["one", "few", "other"],
              "ru": ["one", "few", "many"]}
# What the brief of the plural test asks for, counted 1, 2, 5 and 22.
EXPECTED = {"en": ["one", "other", "other", "other"], "pl": ["one", "few", "many", "few"],
            "cs": ["one", "few", "other", "other"], "ru": ["one", "few", "many", "few"]}
COUNTS = [1, 2, 5, 22]
STANDARD_PLURAL_FORMS = {
    "en": "nplurals=2; plural=(n != 1);",
    "pl": "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "cs": "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;",
    "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
}


def po(language: str) -> Catalog:
    return i18n_tool.read(language)


def entries(language: str) -> dict[str, tuple[str | None, list[str]]]:
    """key -> (counting parameter or None, the forms as written in the .po file)."""
    found = {}
    for m in po(language):
        if not m.id:
            continue
        if isinstance(m.id, (list, tuple)):
            found[m.id[0]] = (m.id[1], list(m.string))
        else:
            found[m.id] = (None, [m.string])
    return found


def ruleset_texts() -> dict[str, str]:
    """The shipped rulesets' own texts of their cards, groups and decks (English, or biznes's Polish)."""
    found: dict[str, str] = {}
    for name in builtin_names():
        r = load_ruleset(name)
        found.update({f"card.{c.id}": c.text for c in r.cards})
        found.update({f"group.{g}": v.get("name", g) for g, v in r.groups.items()})
        found.update({f"deck.{d}": v.get("name", d) for d, v in r.decks.items()})
    return found


def placeholders(template: str) -> set[tuple[str, str | None, str]]:
    return {(name, conv, spec or "") for _, name, spec, conv in string.Formatter().parse(template) if name is not None}


ALL = {language: entries(language) for language in LANGUAGES}
KEYS = sorted(set().union(*ALL.values()))


# ---------------------------------------------------------------------- the catalogues


def test_every_key_is_in_all_four_catalogues() -> None:
    english = set(ALL["en"])
    own = set(ruleset_texts())  # English for these is the shipped ruleset's own text (docs/i18n.md)
    for language in ("pl", "cs", "ru"):
        assert sorted(english - set(ALL[language])) == [], language
        assert sorted(set(ALL[language]) - english - own) == [], language
        assert sorted(own - set(ALL[language])) == [], language
    assert set(MESSAGES) <= english and {k for k in english if k.startswith("ui.")}


def test_every_message_has_the_same_placeholders_and_plural_parameter_in_every_language() -> None:
    own = ruleset_texts()
    for key in KEYS:
        if key in ALL["en"]:
            param, forms = ALL["en"][key]
        else:
            param, forms = None, [own[key]]
        want = placeholders(forms[0])
        for form in forms[1:]:
            assert placeholders(form) == want, (key, form)
        if param is not None:
            assert any(name == param for name, _, _ in want), (key, param)
        for language in LANGUAGES[1:]:
            their_param, their_forms = ALL[language][key]
            assert their_param == param, (language, key)
            assert len(their_forms) == len(CATEGORIES[language]) if param else len(their_forms) == 1
            for form in their_forms:
                assert form, (language, key)
                assert placeholders(form) == want, (language, key, form)


def test_amounts_of_money_are_marked_as_money_everywhere() -> None:
    money_names = {"amount", "price", "cash", "fine", "bet", "jackpot", "win", "raisable", "reserve"}
    for key, (_, forms) in ALL["en"].items():
        for name, _, spec in placeholders(forms[0]):
            if name in money_names:
                assert spec == "money", (key, name)


def test_the_plural_rules_are_the_standard_ones_and_agree_with_cldr() -> None:
    for language in LANGUAGES:
        header = po(language).mime_headers
        assert dict(header)["Plural-Forms"] == STANDARD_PLURAL_FORMS[language]
        cat = i18n.catalogue(language)
        assert cat is not None
        cldr = Locale.parse(language).plural_form
        for n in range(0, 1001):
            assert cat.plural(n) == CATEGORIES[language].index(cldr(n)), (language, n)


def test_the_compiled_catalogues_are_what_the_po_files_compile_to_and_the_engine_english_is_current() -> None:
    assert i18n_tool.problems() == []


def test_the_installed_catalogues_are_the_checkouts() -> None:
    """The app reads the installed .mo files; the translators' tool checks the checkout's."""
    for language in LANGUAGES:
        assert i18n.mo_path(language).read_bytes() == i18n_tool.mo_path(language).read_bytes(), language


def test_the_freshness_check_notices_a_stale_mo_and_a_stale_engine_entry(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "locale"
    shutil.copytree(i18n_tool.LOCALE, copy)
    monkeypatch.setattr(i18n_tool, "LOCALE", copy)
    assert i18n_tool.problems() == []
    pl = copy / "pl" / "LC_MESSAGES" / "banker.po"
    pl.write_text(pl.read_text("utf-8").replace('msgstr "Licytacja: {what}"', 'msgstr "Aukcja: {what}"'), "utf-8")
    assert i18n_tool.problems() == ["pl: banker.mo is not what banker.po compiles to (python scripts/i18n_tool.py compile)"]
    i18n_tool.compile_all(["pl"])
    assert i18n_tool.problems() == []
    monkeypatch.setitem(MESSAGES, "rule.paused", "the game is on hold")
    assert i18n_tool.problems() == ["en: rule.paused is not as banker/messages.py says"]
    i18n_tool.update_english()
    i18n_tool.compile_all(["en"])
    assert i18n_tool.problems() == []
    assert 'msgid "rule.paused"\nmsgstr "the game is on hold"' in (copy / "en" / "LC_MESSAGES" / "banker.po").read_text()


# ---------------------------------------------------------------------- rendering every message


def sample_params(key: str, template: str, n: int) -> dict[str, Any]:
    param = Translator("en").plural_param(key)
    params: dict[str, Any] = {}
    for name, _, spec in placeholders(template):
        if name == param or (spec and "." in spec):
            params[name] = n
        elif spec == "money":
            params[name] = 1500
        else:
            params[name] = f"<{name}>"
    return params


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_renders_in_every_language_with_the_right_plural_form(language: str) -> None:
    tr = Translator(language)
    own = ruleset_texts()
    counted = 0
    for key in KEYS:
        param, forms = ALL[language][key] if key in ALL[language] else (None, [own[key]])
        for n, category in zip(COUNTS, EXPECTED[language], strict=True):
            params = sample_params(key, forms[0], n)
            text = tr.render(Msg(key, params, default=own.get(key)))  # a card's English is the ruleset's own
            assert "{" not in text and "}" not in text and key not in text, (key, text)
            for value in params.values():
                if isinstance(value, str):
                    assert value in text, (key, value, text)
            if param is not None:
                form = forms[CATEGORIES[language].index(category)]
                assert text == tr._fill(form, params, key), (language, key, n, category)
                counted += 1
            for *_, spec in placeholders(forms[0]):  # only the spec matters here
                if spec and "." in spec:  # a counted sub-phrase: its own form for its own count
                    sub_param, sub_forms = ALL[language][spec]
                    sub = sub_forms[CATEGORIES[language].index(category)]
                    assert tr._fill(sub, {sub_param: n}) in text, (language, key, n)
    assert counted >= 4 * 30


@pytest.mark.parametrize("language, n, text", [
    ("en", 1, "1 house"), ("en", 2, "2 houses"), ("en", 22, "22 houses"),
    ("pl", 1, "1 dom"), ("pl", 2, "2 domy"), ("pl", 5, "5 domów"), ("pl", 22, "22 domy"), ("pl", 12, "12 domów"),
    ("cs", 1, "1 dům"), ("cs", 2, "2 domy"), ("cs", 5, "5 domů"), ("cs", 22, "22 domů"),
    ("ru", 1, "1 дом"), ("ru", 2, "2 дома"), ("ru", 5, "5 домов"), ("ru", 22, "22 дома"), ("ru", 21, "21 дом"),
    ("ru", 11, "11 домов"),
])
def test_houses_in_each_language(language: str, n: int, text: str) -> None:
    assert Translator(language).count("ui.n.house", n) == text


def test_two_counts_in_one_message_each_get_their_own_form() -> None:
    assert Translator("pl")("ui.pool", houses=22, hotels=5) == "W banku: 22 domy, 5 hoteli"
    assert Translator("ru")("ui.pool", houses=1, hotels=12) == "В банке: 1 дом, 12 отелей"
    assert Translator("cs")("ui.pool_offices", houses=3, hotels=1) == "V bance: 3 pobočky, 1 holding"
    assert Translator("en")("ui.pool_branches", houses=1, hotels=2) == "Bank: 1 branch, 2 corporations"


def test_the_engine_counts_in_english_too() -> None:
    params = {"player": "Ann", "space": "Baltic Avenue", "other": "Mediterranean Avenue"}
    assert render("rule.build_even", {**params, "houses": 1}).endswith("has only 1 house (build evenly)")
    assert render("rule.build_even", {**params, "houses": 2}).endswith("has only 2 houses (build evenly)")
    assert isinstance(MESSAGES["rule.build_even"], Plural)
    assert Translator("pl")("rule.build_even", **params, houses=5).endswith("jest tylko 5 domów – buduj równo")


def test_the_engine_keeps_plain_digits_for_the_command_line() -> None:
    text = render("log.rent", {"payer": "Ben", "payee": "Ann", "amount": 15000, "space": "Boardwalk"})
    assert text == "Ben pays Ann 15000 rent for Boardwalk"
    assert Translator("en")("log.rent", payer="Ben", payee="Ann", amount=15000, space="Boardwalk") == \
        "Ben pays Ann 15,000 rent for Boardwalk"


def test_lenient_rendering() -> None:
    tr = Translator("pl")
    assert tr("ui.balance", player="Ann") == "Ann: ? w gotówce. Nieruchomości: ?"  # a missing parameter
    assert tr("no.such.key") == "no.such.key" and not tr.has("no.such.key") and tr.has("ui.pool")
    assert tr("rule.build_even", player="A", space="B", other="C", houses="many").endswith("domów – buduj równo")
    assert Translator("de").language == "en" and Translator("de")("ui.turn_of", player="Ann") == "Ann's turn"
    assert tr.render(Msg("card.no-such-card", default="A custom card")) == "A custom card"  # a custom ruleset's own
    assert tr.render(Msg("card.cc-doctor-50", default="Doctor's fee")) != "Doctor's fee"
    assert tr.render(Msg("log.pot", {"payee": "Ann", "amount": 20000})) == "Ann zabiera pieniądze z Bezpłatnego parkingu: 20\u00a0000"


def test_nested_pieces_render_in_the_same_language() -> None:
    m = msg("log.card", payer=msg("ui.bank"), payee="Ann", amount=50, card=Msg("card.cc-opera-50", default="x"))
    # the bank at the start of a sentence gets its capital (issue 54), inside one it keeps its small letter
    assert Translator("en").render(m).startswith("The bank pays Ann 50")
    polish = Translator("pl").render(m)
    assert polish.startswith("Bank") and Translator("pl").render(Msg("card.cc-opera-50")) in polish


# ---------------------------------------------------------------------- numbers and money


@pytest.mark.parametrize("language, text", [("en", "15,000"), ("pl", f"15{NBSP}000"), ("cs", f"15{NBSP}000"),
                                            ("ru", f"15{NBSP}000")])
def test_numbers_are_grouped_the_way_each_language_writes_them(language: str, text: str) -> None:
    tr = Translator(language)
    assert tr.number(15000) == text and tr.number(7) == "7"
    assert text in tr("ui.balance", player="Ann", cash=15000, deeds="—")  # every whole number in a text
    assert text in tr("ui.setup.time_limit", minutes=15000)


def test_money_without_a_currency_is_the_plain_number_of_the_language() -> None:
    assert Translator("en").money(1500) == "1,500"
    assert Translator("ru").money(-15000) == f"-15{NBSP}000"


@pytest.mark.parametrize("language, currency, text", [
    ("pl", "PLN", f"15{NBSP}000{NBSP}zł"), ("en", "USD", "$15,000"), ("cs", "CZK", f"15{NBSP}000{NBSP}Kč"),
    ("ru", "RUB", f"15{NBSP}000{NBSP}₽"), ("en", "PLN", "PLN15,000"), ("cs", "EUR", f"-15{NBSP}000{NBSP}€"),
])
def test_money_with_a_currency_has_its_symbol_for_the_language_and_no_fraction(language: str, currency: str,
                                                                               text: str) -> None:
    amount = -15000 if text.startswith("-") else 15000
    assert Translator(language, currency=currency).money(amount) == text


def test_money_parameters_carry_the_currency_and_counts_do_not() -> None:
    tr = Translator("pl", currency="PLN")
    assert tr("ui.btn.buy", space="Aleje", price=400) == f"Kup Aleje za 400{NBSP}zł"
    assert tr("ui.setup.player_count", least=2, most=8) == "W tę grę gra od 2 do 8 graczy."


def test_every_currency_a_ruleset_may_name_has_a_symbol_in_every_language() -> None:
    for code in CURRENCIES:
        for language in LANGUAGES:
            shown = Translator(language, currency=code).money(1000)
            assert shown != Translator(language).money(1000) and Translator(language).number(1000) in shown


# ---------------------------------------------------------------------- the flows: notices and currency


def test_notices_re_render_after_a_language_switch(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c)
    c.turn.roll((1, 2))
    c.paying.request({"do": "buy"})
    c.taps.card_tapped(CARDS["Ann"])  # a money notice: Ann buys Baltic Avenue
    c.paying.request({"do": "roll", "dice": [2, 2]})  # refused by a rule: an error notice from the engine's code
    c.taps.card_tapped(CARDS["Ben"])  # Ben's balance
    english = texts(c)
    assert "Ann has no roll to make now (end the turn)" in english
    assert "Ann buys Baltic Avenue for 60" in english and english[-1] == "Ben: 1,500 in cash. Deeds: —"
    c.settings.set_language("pl")
    polish = texts(c)
    assert len(polish) == len(english) and not set(polish) & set(english) - {"Ann rolled 1 + 2"}
    assert polish[-1] == f"Ben: 1{NBSP}500 w gotówce. Nieruchomości: —"
    assert c.session.tr("rule.no_roll_owed", player="Ann") in polish
    assert [line["text"] for line in c.session.notice_lines(2)] == polish[-2:]
    c.settings.set_language("en")
    assert texts(c) == english


def test_a_pending_prompt_follows_the_language(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c)
    c.turn.roll((1, 2))
    c.paying.request({"do": "buy"})
    assert c.paying.pending is not None and c.paying.pending.prompt == "Ann: tap your card to buy Baltic Avenue for 60"
    c.settings.set_language("ru")
    assert c.paying.pending.prompt == c.session.tr("ui.tap.prompt", players="Ann", what=c.paying.describe({"do": "buy"}))
    assert "Ann" in c.paying.pending.prompt and "tap your card" not in c.paying.pending.prompt


def test_money_is_shown_in_the_game_s_currency_while_it_lasts(tmp_path: Path) -> None:
    rules = tmp_path / "zloty.toml"
    rules.write_text('extends = "classic"\nname = "zloty"\ncurrency = "PLN"\n', "utf-8")
    c = make(tmp_path)
    c.settings.set_language("pl")
    assert c.session.tr.currency is None
    start(c, rules=str(rules))
    assert c.session.tr.currency == "PLN" and c.session.tr.money(1500) == f"1{NBSP}500{NBSP}zł"
    c.taps.card_tapped(CARDS["Ben"])
    assert texts(c)[-1] == f"Ben: 1{NBSP}500{NBSP}zł w gotówce. Nieruchomości: —"
    c.settings.set_language("en")  # a new language keeps the game's currency
    assert texts(c)[-1] == "Ben: PLN1,500 in cash. Deeds: —"
    c.home.close_game()
    assert c.session.tr.currency is None
    assert c.home.resume() and c.session.tr.currency == "PLN"  # reopening the game brings its currency back


def test_how_a_player_left_jail_is_said_in_the_family_s_language(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c, setup={"players": {"Ann": {"in_jail": True, "position": 10}}})
    c.paying.request({"do": "pay_fine"})
    c.taps.card_tapped(CARDS["Ann"])
    assert "Ann leaves jail (the fine paid)" in texts(c)
    c.settings.set_language("pl")
    assert "Ann wychodzi z więzienia (zapłacona kara)" in texts(c)


def test_a_key_a_translation_lacks_falls_back_to_english_with_english_plural_rules() -> None:
    import io

    from babel.messages.mofile import write_mo

    partial = Catalog(locale="pl", domain="banker", fuzzy=False)
    partial.add("ui.turn_of", "Teraz gra {player}")
    partial.add(("ui.n.hotel", "count"), ("{count} hotel", "{count} hotele", ""))  # a form left untranslated
    buf = io.BytesIO()
    write_mo(buf, partial)
    buf.seek(0)
    tr = Translator("pl")
    tr._catalogues = [i18n.Catalogue(buf), i18n.catalogue("en")]  # type: ignore[list-item]
    assert tr("ui.turn_of", player="Ann") == "Teraz gra Ann"
    assert tr("ui.n.house", count=5) == "5 houses" and tr("ui.n.house", count=1) == "1 house"
    assert tr("ui.n.hotel", count=2) == "2 hotele"
    assert tr("ui.n.hotel", count=5) == "5 hotels"  # not the parameter's name, not the key


def test_the_bank_as_a_creditor_and_a_card_s_text_are_pieces_in_the_family_s_language(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c, setup={"players": {"Ann": {"cash": 10, "position": 35}}})
    c.turn.roll((1, 2))  # Luxury Tax, 75, with 10 in cash: a debt to the bank
    assert "Ann owes the bank 75 and must raise it" in texts(c)
    c.settings.set_language("pl")
    assert c.session.tr("event.debt", player="Ann", to=c.session.tr("ui.bank"), amount=75) in texts(c)
    skipped = Msg("event.card", c.session.words({"player": "Ann", "card": "cc-opera-50", "text": "Opera night"}))
    assert c.session.tr.render(Msg("card.cc-opera-50")) in c.session.tr.render(skipped)
    assert "Opera night" not in c.session.tr.render(skipped)


def test_the_tool_s_check_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert i18n_tool.main(["check"]) == 0 and capsys.readouterr().err == ""
    assert i18n_tool.main(["frobnicate"]) == 2 and "scripts/i18n_tool.py update" in capsys.readouterr().err
