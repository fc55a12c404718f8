"""The app's four languages: English, Polish, Czech and Russian (docs/i18n.md).

Every piece of text on screen is looked up by key in a gettext catalogue,
ui/locale/<language>/LC_MESSAGES/banker.po compiled to banker.mo: `ui.*` for
the app's own words, the engine's codes (`rule.*`, `event.*`, `log.*`,
`action.*`, `setup.*`, whose English comes from banker/messages.py), and
`card.<id>`, `group.<id>` and `deck.<id>` for the rulesets' texts. The
catalogues are loaded with the standard library's `gettext` from the `.mo`
files; Babel (CLDR) formats the numbers and the money.

How a template is filled (the same for every language):
- a whole number is written the language's way: 15,000 / 15 000;
- `{amount:money}` is an amount of money: the number, or with the game's
  currency its symbol for the language ("15 000 zł");
- `{houses:ui.n.house}` renders the counted sub-phrase `ui.n.house` with the
  value as its count ("2 domy"), so a message with two counts gives each its
  own plural form;
- a `Msg` value (the bank, a card's text, a building word) is rendered in the
  same language first, so a notice kept as a `Msg` re-renders after a switch.
A message that counts something is a plural entry whose `msgid_plural` is the
name of its counting parameter; its form is chosen by the catalogue's
Plural-Forms rule. A key missing from a translation falls back to English, a
missing parameter shows as "?": text never crashes the app.
"""

from __future__ import annotations

import gettext
import io
import re
import string
import struct
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.numbers import NumberPattern, format_currency, parse_pattern

from banker.messages import MESSAGES, Plural
from banker.options import Options

LOCALE = Path(__file__).parent / "locale"
DOMAIN = "banker"
LANGUAGES = {"en": "English", "pl": "Polski", "cs": "Čeština", "ru": "Русский"}
MONEY = "money"  # the format spec of an amount of money: {amount:money}
# The engine's families of messages, each a sentence shown on its own (a refusal, a notice, a money-log line):
# shown with a capital letter whatever the engine's English starts with ("the bank puts 100 into the pot").
SENTENCES = ("action.", "event.", "log.", "rule.", "setup.")
LEADING_FIELD = re.compile(r"\{(\w+)")  # a template that begins with a value: its name


@dataclass(frozen=True)
class Msg:
    """A text kept as its key and parameters, rendered in whatever language is current when shown.

    Parameters may be Msgs themselves (the bank, a card, a building word).
    `default` is shown when no catalogue has the key (a custom ruleset's own card text).
    """

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)
    default: str | None = None


def card_msg(ruleset: Any, card: Any, options: Options | None = None) -> Msg:
    """A card's text as a `Msg`: the catalogue's text for the card's id, filled with the names this ruleset gives
    the spaces it names: `{space}` the space the card sends a player to, `{go}` the start space; and
    `{salary:money}` the salary in force (the game's options, else the ruleset's). So a family's edition that
    renames Illinois Avenue, or raises the salary, has its Chance card say so in every language. A card no
    catalogue knows (a hand-made ruleset's own) shows the ruleset's text as it is."""
    spaces = ruleset.spaces
    go = next((s for s in spaces if s.kind == "go"), spaces[0])
    params: dict[str, Any] = {"go": go.name, "salary": (options or ruleset.options).salary}
    if 0 <= card.to < len(spaces):
        params["space"] = spaces[card.to].name
    return Msg(f"card.{card.id}", params, default=card.text)


def msg(key: str, **params: Any) -> Msg:
    return Msg(key, params)


def winners_msg(winners: Any) -> Msg:
    """The game's result in a line: "Ann wins!", or for a tie "Ann and Ben share first place" (each tied
    player ranked first, as the report ranks them). `winners`: a name, or the names (the engine's
    `Outcome.winners`, a game_over event's "winner")."""
    names = [winners] if isinstance(winners, str) else [str(n) for n in winners]
    if not any(names):  # a game abandoned: no winner
        return Msg("ui.phone.ended")
    if len(names) == 1:
        return Msg("ui.over.winner", {"player": names[0]})
    # "A, B and C": commas (as the app lists names everywhere), the last joined by the language's "and"
    joined = Msg("ui.over.and", {"first": ", ".join(names[:-1]), "next": names[-1]})
    return Msg("ui.over.tie", {"players": joined})


class Catalogue(gettext.GNUTranslations):
    """A compiled catalogue that also remembers each plural entry's counting parameter.

    (The standard library drops `msgid_plural` when it reads a .mo file; here it
    is the parameter's name, so it is read back from the file's table of originals.)
    """

    plural_params: dict[str, str]

    def _parse(self, fp: Any) -> None:
        data = fp.read()
        super()._parse(io.BytesIO(data))
        self.plural_params = dict(_plural_ids(data))


def _plural_ids(data: bytes) -> list[tuple[str, str]]:
    """(msgid, msgid_plural) of every plural entry of a .mo file."""
    order = "<" if struct.unpack("<I", data[:4])[0] == 0x950412DE else ">"
    count, originals = struct.unpack(order + "4x4xII", data[:16])
    found = []
    for k in range(count):
        length, offset = struct.unpack(order + "II", data[originals + 8 * k:originals + 8 * k + 8])
        raw = data[offset:offset + length]
        if b"\0" in raw:
            singular, plural = raw.split(b"\0", 1)
            found.append((singular.decode("utf-8"), plural.decode("utf-8")))
    return found


def mo_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.mo"


@cache
def catalogue(language: str) -> Catalogue | None:
    """The compiled catalogue of a language (None if it has none)."""
    path = mo_path(language)
    if not path.exists():
        return None
    with path.open("rb") as fp:
        return Catalogue(fp)


@cache
def _locale(language: str) -> Locale:
    return Locale.parse(language)


@cache
def _whole_money_pattern(language: str) -> NumberPattern:
    """The locale's currency pattern without fraction digits: board-game money is whole."""
    pattern = _locale(language).currency_formats["standard"].pattern
    return parse_pattern(re.sub(r"\.[0#]+", "", pattern))


# Babel formats a number in about 35 us (a tap's redraw writes a dozen or more); a game shows the same few
# hundred amounts again and again, so the last FORMATTED of each are kept, by language (and currency).
FORMATTED = 4096


@lru_cache(maxsize=FORMATTED)
def _number(language: str, n: int) -> str:
    locale = _locale(language)
    return str(locale.decimal_formats[None].apply(n, locale))


@lru_cache(maxsize=FORMATTED)
def _money(language: str, currency: str, amount: int) -> str:
    return str(format_currency(amount, currency, format=_whole_money_pattern(language), locale=_locale(language),
                               currency_digits=False))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Formatter(string.Formatter):
    def __init__(self, tr: Translator) -> None:
        self.tr = tr

    def get_value(self, key: int | str, args: Any, kwargs: Mapping[str, Any]) -> Any:
        return kwargs.get(key, "?") if isinstance(key, str) else "?"

    def format_field(self, value: Any, format_spec: str) -> str:
        tr = self.tr
        if isinstance(value, Msg):
            value = tr.render(value)
        if format_spec == MONEY:
            return tr.money(value) if _is_int(value) else str(value)
        if format_spec[:1].isalpha() and "." in format_spec:  # a counted sub-phrase: {houses:ui.n.house}
            return tr.count(format_spec, value)
        if _is_int(value) and not format_spec:
            return tr.number(value)
        return str(super().format_field(value, format_spec))


class Translator:
    """`tr(key, **params)` in the chosen language, falling back to English."""

    def __init__(self, language: str = "en", currency: str | None = None) -> None:
        self.language = language if language in LANGUAGES else "en"
        self.currency = currency  # the game's ISO 4217 code (its ruleset's `currency`), or None: plain numbers
        chain = [catalogue(self.language), catalogue("en") if self.language != "en" else None]
        self._catalogues = [c for c in chain if c is not None]
        self._formatter = _Formatter(self)

    # ---- looking texts up

    def plural_param(self, key: str) -> str | None:
        """The name of the parameter a counted message counts by, or None if it counts nothing."""
        for cat in self._catalogues:
            if key in cat.plural_params:
                return cat.plural_params[key]
        entry = MESSAGES.get(key)
        return entry.param if isinstance(entry, Plural) else None

    def template(self, key: str, params: Mapping[str, Any] | None = None) -> str | None:
        """The template for a key in this language (the plural form its count asks for), or None."""
        params = params or {}
        for cat in self._catalogues:
            param = cat.plural_params.get(key)
            if param is not None:
                n = params.get(param)
                # A count that is missing or not a whole number takes the form of 0 ("many"/"other").
                text = cat.ngettext(key, param, n if isinstance(n, int) and not isinstance(n, bool) else 0)
                if text not in (key, param):  # (a form the catalogue lacks: the next catalogue's)
                    return text
                continue
            text = cat.gettext(key)
            if text != key:
                return text
        entry = MESSAGES.get(key)  # no catalogue at all: the engine's own English
        if isinstance(entry, Plural):
            return entry.one if params.get(entry.param) == 1 else entry.other
        return entry

    def has(self, key: str) -> bool:
        return self.template(key) is not None

    # ---- rendering

    def __call__(self, key: str, **params: Any) -> str:
        return self.format(key, params)

    def format(self, key: str, params: Mapping[str, Any]) -> str:
        template = self.template(key, params)
        if template is None:
            return key
        return self._fill(template, params, key)

    def render(self, message: Msg | str) -> str:
        """A kept text in this language (a plain string is shown as it is)."""
        if isinstance(message, str):
            return message
        template = self.template(message.key, message.params)
        if template is None:
            return message.default if message.default is not None else message.key
        return self._fill(template, message.params, message.key)

    def count(self, key: str, n: Any) -> str:
        """A counted sub-phrase with `n` as its count: count("ui.n.house", 2) -> "2 houses"."""
        return self.format(key, {self.plural_param(key) or "count": n})

    def _fill(self, template: str, params: Mapping[str, Any], key: str = "") -> str:
        """The template filled in. A text that begins with a piece of the app's own words ("{payer} pays...",
        the payer the bank: `msg("ui.bank")`), or an engine sentence (`SENTENCES`) that begins with its own
        words, begins with a capital letter: "The bank pays Ann 10". A value as the family typed it (a name, an
        edition's short name) stays as typed."""
        try:
            text = self._formatter.vformat(template, (), params)
        except (ValueError, IndexError, KeyError, TypeError):
            return template
        if text[:1].islower():
            lead = LEADING_FIELD.match(template)
            if (isinstance(params.get(lead.group(1)), Msg) if lead is not None
                    else key.startswith(SENTENCES)):
                text = text[0].upper() + text[1:]
        return text

    def group(self, group: str, english_name: str) -> str:
        return self.render(Msg(f"group.{group}", default=english_name))

    # ---- numbers and money

    def number(self, n: int) -> str:
        """A whole number the way the language writes it (CLDR): 15,000 in English, 15 000 in Polish."""
        return _number(self.language, n)

    def money(self, amount: int) -> str:
        """An amount of the game's money: with the currency's symbol for the language and no fraction
        digits when the ruleset names a currency ("15 000 zł"), else the plain number."""
        if not self.currency:
            return _number(self.language, amount)
        return _money(self.language, self.currency, amount)
