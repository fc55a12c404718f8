"""The app's languages: catalogues, plural forms, numbers and money per locale."""

from __future__ import annotations

import pytest

from ui.i18n import Translator

NBSP = "\u00a0"


@pytest.mark.parametrize("language, text", [("en", "15,000"), ("pl", f"15{NBSP}000"), ("cs", f"15{NBSP}000"),
                                            ("ru", f"15{NBSP}000")])
def test_numbers_are_grouped_the_way_each_language_writes_them(language: str, text: str) -> None:
    assert Translator(language).number(15000) == text
    assert Translator(language).number(7) == "7"


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
