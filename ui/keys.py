"""The on-screen keyboard for player names, without Kivy: the layouts of the four languages, the ready
names (presets), and the name being typed (`NameEditor`: the buffer, shift, the digits layer, the length
limit and what Done gives). The keyboard page (ui/screens/keyboard.py) draws `layout()` and sends each
touched key's id to `NamesFlow.press` (ui/flows/names.py), which hands it to the editor that flow holds.

A family at the table has a touchscreen and nothing else, so this is the only way a name is typed; a game
can also start with no typing at all, every new player getting a ready name (`PRESETS`).

    editor = NameEditor(index=0, text="")
    for key in ("a", "n", "n"):
        editor.press(key)
    editor.result()  # "Ann": the first letter is a capital by itself
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol, TypedDict

from ui.i18n import Translator

NAME_MAX = 16  # characters; the setup keeps no more than this (SetupFlow.set_player)

# The keys that are not characters, by id.
SHIFT, BACKSPACE, SPACE, CLEAR, SYMBOLS, LETTERS = "shift", "backspace", "space", "clear", "symbols", "letters"
SPECIAL = (SHIFT, BACKSPACE, SPACE, CLEAR, SYMBOLS, LETTERS)

# Letter rows, top to bottom, lower case; each character is its own key. Each language keeps its letters
# where its family's keyboards have them: Polish is QWERTY with its nine letters on a row of their own
# (on a desktop they are AltGr+letter, which a touchscreen has not); Czech is QWERTZ with the number row's
# ě š č ř ž ý á í é on top, ú and ů where they sit on a Czech keyboard, and ď ť ň ó (dead keys on a
# desktop) at the end of the bottom row; Russian is ЙЦУКЕН with ъ after х and ё at the end.
LAYOUTS: dict[str, tuple[str, ...]] = {
    "en": ("qwertyuiop", "asdfghjkl", "zxcvbnm"),
    "pl": ("ąćęłńóśźż", "qwertyuiop", "asdfghjkl", "zxcvbnm"),
    "cs": ("ěščřžýáíé", "qwertzuiopú", "asdfghjklů", "yxcvbnmďťňó"),
    "ru": ("йцукенгшщзхъ", "фывапролджэ", "ячсмитьбюё"),
}
# The language-neutral digits and the marks a name may have (Anna-Maria, O'Brien, Mum & Dad, Ann 2).
SYMBOL_ROWS = ("1234567890", "-'.&!?()+#")

# Where a name begins a new word, the next letter is a capital by itself.
WORD_STARTS = " -"

# Ready names: the classic tokens, a key each (ui.preset.<id> in every language). Tokens rather than
# colour names: each player's colour is already on the setup screen and changes with a touch, so "Red"
# would soon sit beside a blue swatch; a token is the thing each player moves on the board.
PRESETS = ("car", "ship", "dog", "cat", "hat", "boot", "iron", "thimble")


@dataclass(frozen=True)
class Key:
    """One key: its id (the character itself, or one of SPECIAL), what it shows, and how many letter
    widths it takes."""

    id: str
    label: str
    width: float = 1.0


def layout(language: str, layer: str = LETTERS, shift: str = "off") -> list[list[Key]]:
    """The keyboard's rows for a language (English where it has none): the letter rows or, on the
    symbols layer, the digits and marks; then the bottom row (shift, the layer key, space, clear and
    backspace). Letters show as capitals while shift is on. Labels of the special keys are ids; the
    page puts words or symbols on them."""
    if layer == SYMBOLS:
        rows = [[Key(ch, ch) for ch in line] for line in SYMBOL_ROWS]
    else:
        up = shift != "off"
        rows = [[Key(ch, ch.upper() if up else ch) for ch in line] for line in LAYOUTS.get(language, LAYOUTS["en"])]
    bottom = [Key(SHIFT, SHIFT, 1.5), Key(LETTERS if layer == SYMBOLS else SYMBOLS, "", 1.5),
              Key(SPACE, SPACE, 4.0), Key(CLEAR, CLEAR, 1.5), Key(BACKSPACE, BACKSPACE, 1.5)]
    return [*rows, bottom]


# What the special keys show: symbols (drawn in a font that has them, see `glyph`) or words of the language.
GLYPHS = {BACKSPACE: "\u232b", SHIFT: "\u21e7", "lock": "\u21ea"}  # ⌫ ⇧ ⇪


class KeyView(TypedDict):
    """A key as the keyboard page draws it (`keyboard_rows`)."""

    id: str
    label: str
    width: float
    glyph: bool
    on: bool


class KeyboardView(TypedDict):
    """The keyboard page: whose name (or what) is typed and its colour's chip (None: no chip), the text so far,
    whether it is a ready name about to give way (`fresh`) or at its limit (`full`), the keys, the ready names
    nobody has, what stops Done in words (None: nothing) and whether Done may finish (ui/flows/names.py's
    `view`, ui/flows/editions.py's `keyboard`)."""

    title: str
    colour: str | None
    text: str
    fresh: bool
    full: bool
    rows: list[list[KeyView]]
    presets: list[str]
    problem: str | None
    can_finish: bool


def keyboard_rows(tr: Translator, editor: NameEditor, letters_of: str | None = None) -> list[list[KeyView]]:
    """The keyboard page's keys for the editor's state, in the translator's language (the letters of
    `letters_of`'s layout instead, when given: an edition's name takes a-z alone, and its space key, which
    types a hyphen there, shows one): each key's id (what
    `NameEditor.press` takes), label, width in letter widths, whether its label is a symbol (`glyph`)
    and whether it is on (shift while it holds)."""
    words = {SPACE: tr("ui.keyboard.space") if editor.capitals else "-", CLEAR: tr("ui.keyboard.clear"), LETTERS: tr("ui.keyboard.letters"),
             SYMBOLS: "123"}
    rows = []
    for line in layout(letters_of or tr.language, editor.layer, editor.shift):
        keys: list[KeyView] = []
        for k in line:
            if k.id == SHIFT:
                label, glyph = GLYPHS["lock" if editor.shift == "lock" else SHIFT], True
            elif k.id in GLYPHS:
                label, glyph = GLYPHS[k.id], True
            else:
                label, glyph = words.get(k.id, k.label), False
            keys.append({"id": k.id, "label": label, "width": k.width, "glyph": glyph,
                         "on": k.id == SHIFT and editor.shift != "off"})
        rows.append(keys)
    return rows


def letters(language: str) -> set[str]:
    """Every letter a language's keyboard types, lower case."""
    return set("".join(LAYOUTS.get(language, LAYOUTS["en"])))


def free_presets(tr: Callable[[str], str], used: Iterable[str]) -> list[str]:
    """The ready names, in the language of `tr`, that none of the names `used` already is."""
    taken = {n.strip().casefold() for n in used}
    return [name for name in (tr(f"ui.preset.{p}") for p in PRESETS) if name.casefold() not in taken]


def name_problem(text: str, others: Iterable[str]) -> str | None:
    """What stops `text` from being this player's name, as a message key (None: nothing). An empty name
    is no problem to say: Done simply does nothing until there is one."""
    name = text.strip()
    if not name:
        return None
    if name.casefold() == "bank":
        return "ui.setup.bank_name"
    if name.casefold() in {o.strip().casefold() for o in others}:
        return "ui.keyboard.taken"
    return None


@dataclass
class NameEditor:
    """The name of player `index` being typed: starts from their name as it is; `press` takes a key id.

    Shift is "off", "once" (the next letter only) or "lock"; touching shift goes off, once, lock, off.
    The first letter, and the first after a space or a hyphen, is a capital by itself. Nothing goes past
    `limit` characters; a space never starts the name or follows another space. `result()` is the name
    Done gives: the buffer without spaces at its ends.

    `fresh` (a ready name being replaced): the name is shown as it is, but the first letter typed starts
    a new one, and backspace takes it all; any other key keeps it to edit. `capitals` False (an edition's
    file name, lower case by rule): no letter is a capital by itself, and a space types a hyphen."""

    index: int
    text: str = ""
    shift: str = "off"
    layer: str = LETTERS
    limit: int = NAME_MAX
    fresh: bool = False
    capitals: bool = True

    def __post_init__(self) -> None:
        self.text = self.text[: self.limit]
        self._auto_shift()

    def _auto_shift(self) -> None:
        if not self.capitals:
            if self.shift == "once" and self.text:
                self.shift = "off"
            return
        if self.shift != "lock":
            start = self.fresh or not self.text or self.text[-1] in WORD_STARTS
            self.shift = "once" if start else "off"

    def press(self, key: str) -> None:
        if key == SHIFT:
            self.shift = {"off": "once", "once": "lock"}.get(self.shift, "off")
            return
        if key in (SYMBOLS, LETTERS):
            self.layer = key
            return
        if self.fresh:
            self.fresh = False
            if key == BACKSPACE or (len(key) == 1 and key.isprintable() and key != " "):
                self.text = ""  # a ready name gives way to the first letter
        if key == BACKSPACE:
            self.text = self.text[:-1]
        elif key == CLEAR:
            self.text = ""
        elif key == SPACE and not self.capitals:
            if len(self.text) < self.limit:
                self.text += "-"
        elif key == SPACE:
            if self.text and not self.text.endswith(" ") and len(self.text) < self.limit:
                self.text += " "
        elif len(key) == 1 and key.isprintable():
            if len(self.text) >= self.limit:
                return
            self.text += key.upper() if self.shift != "off" else key
        else:
            return  # not a key of this keyboard
        self._auto_shift()

    def result(self) -> str:
        return self.text.strip()

    def full(self) -> bool:
        return len(self.text) >= self.limit


class Typist(Protocol):
    """A flow whose text is typed on the keyboard page (ui/screens/keyboard.py): a player's name
    (ui/flows/names.py), an edition's title and name (ui/flows/editions.py). `editor` is the text being typed
    (None: nothing is, and the page gives way), `press` takes a key's id, Done and Cancel end it."""

    editor: NameEditor | None

    def press(self, key: str) -> None: ...

    def done(self) -> None: ...

    def cancel(self) -> None: ...


__all__ = ["BACKSPACE", "CLEAR", "Key", "KeyView", "KeyboardView", "LAYOUTS", "LETTERS", "NAME_MAX", "NameEditor",
           "PRESETS", "SHIFT", "SPACE", "SPECIAL", "SYMBOLS", "SYMBOL_ROWS", "Typist", "free_presets", "keyboard_rows",
           "layout", "letters", "name_problem"]
