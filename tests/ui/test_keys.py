"""The on-screen keyboard's logic without a window (ui/keys.py): every language's letters on its keys,
and how the name being typed takes each key."""

from __future__ import annotations

import pytest

from ui.i18n import LANGUAGES, Translator
from ui.keys import (
    BACKSPACE,
    CLEAR,
    LAYOUTS,
    LETTERS,
    NAME_MAX,
    PRESETS,
    SHIFT,
    SPACE,
    SPECIAL,
    SYMBOLS,
    NameEditor,
    free_presets,
    keyboard_rows,
    layout,
    letters,
    name_problem,
)

ALPHABETS = {
    "en": "abcdefghijklmnopqrstuvwxyz",
    "pl": "aąbcćdeęfghijklłmnńoóprsśtuwyzźż" + "qvx",
    "cs": "aábcčdďeéěfghiíjklmnňoópqrřsštťuúůvwxyýzž",
    "ru": "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
}


def typed(editor: NameEditor, *keys: str) -> NameEditor:
    for key in keys:
        editor.press(key)
    return editor


def test_every_language_has_a_layout() -> None:
    assert set(LAYOUTS) == set(LANGUAGES)


@pytest.mark.parametrize("language", sorted(ALPHABETS))
def test_every_letter_of_the_language_is_on_a_key_once(language: str) -> None:
    keys = "".join(LAYOUTS[language])
    assert letters(language) == set(ALPHABETS[language])
    assert len(keys) == len(set(keys))  # no letter twice


def test_the_languages_own_letters() -> None:
    assert set("ąćęłńóśźż") <= letters("pl")
    assert set("ěščřžýáíéúůďťňó") <= letters("cs")
    assert "ё" in letters("ru") and "qwertyuiop" == LAYOUTS["en"][0]
    assert LAYOUTS["ru"][0].startswith("йцукен") and LAYOUTS["cs"][1].startswith("qwertz")
    assert LAYOUTS["pl"][1] == "qwertyuiop"


@pytest.mark.parametrize("language", sorted(LAYOUTS))
def test_the_rows_fit_a_small_panel_and_end_with_the_special_keys(language: str) -> None:
    rows = layout(language)
    assert all(sum(k.width for k in r) <= 12 for r in rows)  # a key at least 60 dp wide across 800 dp
    assert [k.id for k in rows[-1]] == [SHIFT, SYMBOLS, SPACE, CLEAR, BACKSPACE]
    symbols = layout(language, SYMBOLS)
    assert "".join(k.id for r in symbols[:-1] for k in r).startswith("1234567890")
    assert LETTERS in [k.id for k in symbols[-1]]


def test_capitals_show_while_shift_is_on() -> None:
    assert layout("ru", shift="once")[0][0].label == "Й" and layout("ru")[0][0].label == "й"
    assert layout("pl", shift="lock")[0][0].label == "Ą"


def test_a_name_starts_with_a_capital_and_each_word_too() -> None:
    e = typed(NameEditor(0), "a", "n", "n", SPACE, "m", "a", "r", "i", "e")
    assert e.result() == "Ann Marie"
    e = typed(NameEditor(0), "a", "n", "n", "a", SYMBOLS, "-", LETTERS, "m", "a", "r", "i", "a")
    assert e.text == "Anna-Maria" and e.layer == LETTERS


def test_shift_goes_once_lock_off() -> None:
    e = NameEditor(0, "Ann")
    assert e.shift == "off"
    typed(e, SHIFT, "b", "c")
    assert e.text == "AnnBc" and e.shift == "off"  # once: the next letter only
    typed(e, SHIFT, SHIFT, "d", "e")
    assert e.text == "AnnBcDE" and e.shift == "lock"
    typed(e, SHIFT, "f")
    assert e.text == "AnnBcDEf"
    lower = typed(NameEditor(0), SHIFT, SHIFT, "m", "u", "m")  # the capital at the start, taken away
    assert lower.text == "mum"


def test_polish_diacritics_and_their_capitals() -> None:
    e = typed(NameEditor(0), "ł", "u", "k", "a", "s", "z", SPACE, "ż", "ó", "ł", "ć")
    assert e.result() == "Łukasz Żółć"
    assert typed(NameEditor(0), "ё", "ж").text == "Ёж"


def test_backspace_clear_and_spaces() -> None:
    e = typed(NameEditor(0), SPACE, "a", SPACE, SPACE, "b", BACKSPACE, BACKSPACE, SPACE)
    assert e.text == "A "  # no space first, none twice
    assert e.shift == "once" and e.result() == "A"  # the ends' spaces are not the name's
    typed(e, BACKSPACE, BACKSPACE, BACKSPACE)
    assert e.text == "" and e.shift == "once"
    assert typed(NameEditor(0, "Thimble"), CLEAR).text == ""


def test_a_ready_name_gives_way_to_the_first_letter() -> None:
    e = NameEditor(0, "Thimble", fresh=True)
    assert e.shift == "once"  # what is typed starts a name
    assert typed(e, "a", "n", "n").text == "Ann" and not e.fresh
    assert typed(NameEditor(0, "Dog", fresh=True), BACKSPACE).text == ""  # backspace takes it all
    kept = typed(NameEditor(0, "Dog", fresh=True), SHIFT, SYMBOLS, LETTERS)  # shift and pages keep it fresh
    assert kept.fresh and kept.text == "Dog"
    assert typed(NameEditor(0, "Dog", fresh=True), SPACE, "b").text == "Dog B"  # anything else edits it


def test_nothing_goes_past_the_limit() -> None:
    e = typed(NameEditor(0), *"abcdefghijklmnopqrstuvwxyz")
    assert len(e.text) == NAME_MAX == 16 and e.full()
    typed(e, SPACE)
    assert len(e.text) == NAME_MAX
    assert NameEditor(0, "x" * 40).text == "x" * NAME_MAX


def test_keys_a_keyboard_does_not_have_are_ignored() -> None:
    e = typed(NameEditor(0, "Ann"), "enter", "\n", "")
    assert e.text == "Ann"


def test_what_stops_a_name() -> None:
    assert name_problem("", ["Ann"]) is None  # empty: Done just waits
    assert name_problem("Bank ", []) == "ui.setup.bank_name"
    assert name_problem("ann", ["Ann", "Ben"]) == "ui.keyboard.taken"
    assert name_problem("Anna", ["Ann"]) is None


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_ready_names_are_in_the_language_and_distinct(language: str) -> None:
    tr = Translator(language)
    names = free_presets(tr, [])
    assert len(names) == len(PRESETS) == 8 and len(set(names)) == 8
    assert all(0 < len(n) <= NAME_MAX and not n.startswith("ui.") for n in names)
    assert free_presets(tr, [names[0].upper(), "Ann"]) == names[1:]  # taken, whatever the case


def test_the_rows_for_the_page_have_words_and_symbols_in_the_language() -> None:
    e = NameEditor(0)
    rows = keyboard_rows(Translator("pl"), e)
    assert rows[0][0] == {"id": "ą", "label": "Ą", "width": 1.0, "glyph": False, "on": False}
    bottom = {k["id"]: k for k in rows[-1]}
    assert bottom[SPACE]["label"] == "spacja" and bottom[SHIFT]["on"] and bottom[SHIFT]["glyph"]
    assert set(bottom) <= set(SPECIAL)
    e.press(SYMBOLS)
    ru = keyboard_rows(Translator("ru"), e)
    assert ru[0][0]["label"] == "1" and {k["id"]: k for k in ru[-1]}[LETTERS]["label"] == "АБВ"
