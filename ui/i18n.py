"""The app's four languages: English, Polish, Czech and Russian.

Every piece of text on screen is looked up by key: `ui.*` for the app's own
words (ui/locale/en.json and its translations), and the engine's codes
(`rule.*`, `event.*`, `log.*`, `action.*`, `setup.*`, banker/messages.py)
plus `card.<id>`, `group.<id>` and `deck.<id>`, so an error or a payment
reads in the family's language. A key missing from a translation falls back
to English, and a missing parameter shows as "?": text never crashes the app.
"""

from __future__ import annotations

import json
import re
import string
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from babel import Locale
from babel.numbers import NumberPattern, format_currency, parse_pattern

from banker.messages import MESSAGES

LOCALE = Path(__file__).parent / "locale"
LANGUAGES = {"en": "English", "pl": "Polski", "cs": "Čeština", "ru": "Русский"}


@lru_cache(maxsize=None)
def catalogue(language: str) -> dict[str, str]:
    path = LOCALE / f"{language}.json"
    if not path.exists():
        return {}
    data = json.loads(path.read_text("utf-8"))
    return {str(k): str(v) for k, v in data.items()}


def english() -> dict[str, str]:
    return {**MESSAGES, **catalogue("en")}


@lru_cache(maxsize=None)
def _locale(language: str) -> Locale:
    return Locale.parse(language)


@lru_cache(maxsize=None)
def _whole_money_pattern(language: str) -> NumberPattern:
    """The locale's currency pattern without fraction digits: board-game money is whole."""
    pattern = _locale(language).currency_formats["standard"].pattern
    return parse_pattern(re.sub(r"\.[0#]+", "", pattern))


class _Lenient(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"


class Translator:
    """`tr(key, **params)` in the chosen language, falling back to English."""

    def __init__(self, language: str = "en", currency: str | None = None) -> None:
        self.language = language if language in LANGUAGES else "en"
        self.currency = currency  # the game's ISO 4217 code (its ruleset's `currency`), or None: plain numbers
        self._table = {**english(), **catalogue(self.language)} if self.language != "en" else english()

    def __call__(self, key: str, **params: Any) -> str:
        return self.format(key, params)

    def format(self, key: str, params: Mapping[str, Any]) -> str:
        template = self._table.get(key)
        if template is None:
            return key
        try:
            return string.Formatter().vformat(template, (), _Lenient(params))
        except (ValueError, IndexError, KeyError):
            return template

    def has(self, key: str) -> bool:
        return key in self._table

    def card(self, card_id: str, english_text: str) -> str:
        return self._table.get(f"card.{card_id}", english_text)

    def group(self, group: str, english_name: str) -> str:
        return self._table.get(f"group.{group}", english_name)

    def number(self, n: int) -> str:
        """A whole number the way the language writes it (CLDR): 15,000 in English, 15 000 in Polish."""
        locale = _locale(self.language)
        return str(locale.decimal_formats[None].apply(n, locale))

    def money(self, amount: int) -> str:
        """An amount of the game's money: with the currency's symbol for the language and no fraction
        digits when the ruleset names a currency ("15 000 zł"), else the plain number."""
        if not self.currency:
            return self.number(amount)
        return str(format_currency(amount, self.currency, format=_whole_money_pattern(self.language),
                                   locale=_locale(self.language), currency_digits=False))
