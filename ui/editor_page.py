"""The words of the phone editor's page (ui/editor.html), in the family's language.

`editor_labels(tr)` is every text the page shows, each from a `ui.editor.*` catalogue entry (the shipped
rulesets' titles from `ui.rules.*`, the house counts from `ui.n.house`): the page itself holds no English.
The server hands them to the page with the editing session (`GET /edit/api/start`), and its 403 page says
`labels["ended"]`.

`refusal_text(tr, error)` says why the engine refused an edit of a field the page shows (a number too small,
not a whole number, a name of the wrong marks, ...) in the family's language; any other refusal is the
engine's own English problem after a translated lead. The problems matched here are the exact texts of
banker/ruleset.py's `_Validator`, `check_option_value` and `edition_name_problem`, and the
editor's own limits (ui/editor.py); tests/ui/test_editor_page.py makes the engine refuse each of them.
"""

from __future__ import annotations

import re

from banker.errors import RulesetError
from banker.options import DECLARED
from banker.ruleset import builtin_names
from ui.i18n import Translator

# The integer options the page offers, in the order it shows them (those present in the edition's data): those
# whose declaration says the editor offers them (banker/options.py: the money the game pays and charges, and the
# percents of money), in the order declared. Other options (timers, counts, modes) are the rules' business, not
# an edition's, and are kept as they are.
MONEY_OPTIONS = tuple(name for name, option in DECLARED.items() if option.editor)
# House counts the page names by their plural ("3 houses"); a longer list of rents names a level by number.
HOUSE_LABELS = 8
# What an edition's name may hold (banker/editions.py: lower-case ASCII letters, digits and hyphens).
NAME_MARKS = "abcdefghijklmnopqrstuvwxyz0123456789-"

# The page's own words: page key -> ui.editor.<key>.
_WORDS = (
    "title", "intro", "start_from", "shipped", "editions", "no_editions", "back", "drop_again",
    "edition", "name", "name_hint", "title_field", "currency", "currency_hint", "replace",
    "money", "groups", "group_name", "colour", "spaces", "other_spaces", "space_name", "price", "rents",
    "rent_none", "rent_hotel", "rent_level", "rent_owned", "multipliers", "house_cost", "mortgage",
    "mortgage_hint", "save", "saving", "saved", "refused", "lapsed", "ended", "offline",
    "failed", "too_big", "download", "upload", "upload_hint", "choose_file", "uploading", "uploaded",
    "upload_refused",
)


def editor_labels(tr: Translator) -> dict[str, str]:
    """Every text of the editor page in `tr`'s language, by the key the page looks it up by.

    Templates keep their `{placeholders}` for the page to fill: `saved`/`uploaded` ({title}), `failed`
    ({status}), `rent_level` ({level}), `rent_owned` ({count})."""
    labels = {key: tr.template(f"ui.editor.{key}") or f"ui.editor.{key}" for key in _WORDS}
    for option in MONEY_OPTIONS:
        labels[f"option.{option}"] = tr(DECLARED[option].label)
    for n in range(1, HOUSE_LABELS + 1):
        labels[f"houses_{n}"] = tr.count("ui.n.house", n)
    for name in builtin_names():
        if tr.has(f"ui.rules.{name}"):
            labels[f"rules.{name}"] = tr(f"ui.rules.{name}")
    labels["language"] = tr.language
    return labels


# ---- refusals

_WHOLE = re.compile(r"must be a whole number, not ")
_LEAST = re.compile(r"must be (?:a whole number of )?at least (-?\d+), not ")
_MOST = re.compile(r"must be at most (-?\d+), not ")
_RANGE = re.compile(r"must be (?:within )?(-?\d+) to (-?\d+), not ")
_NEGATIVE = re.compile(r"must not be negative, not ")
_EMPTY = re.compile(r"must not be empty$")
_LONG = re.compile(r"must be at most (\d+) characters")
_MARKS = re.compile(r"must be lower-case ASCII letters, digits and hyphens, starting with a letter or a digit, "
                    r"not '(.*)'$", re.S)
_SHIPPED = re.compile(r"'(.*)' is the name of a shipped ruleset", re.S)
_TAKEN = re.compile(r"'(.*)' is already the name of an edition", re.S)
_SPACE_TAKEN = re.compile(r"'(.*)' is already the name of space (\d+)$", re.S)
_CURRENCY = re.compile(r"must be an ISO 4217 currency code")
_COLOUR = re.compile(r"#RRGGBB")
_CONTROL = re.compile(r"must not hold control characters")


def refusal_text(tr: Translator, error: RulesetError) -> str:
    """Why the engine refused `error.key`, in `tr`'s language where the page's fields have words for it;
    else the engine's problem after the translated lead `ui.editor.refuse.engine`."""
    said = translated_refusal(tr, error)
    return said if said is not None else tr("ui.editor.refuse.engine", problem=error.problem)


def translated_refusal(tr: Translator, error: RulesetError) -> str | None:
    """Why the engine refused `error.key`, in `tr`'s language, if the app has words for that refusal."""
    key, problem = error.key, error.problem
    if key == "name":
        m = _LONG.match(problem)
        if m:
            return tr("ui.editions.name_long", most=int(m.group(1)))
        if _EMPTY.match(problem):
            return tr("ui.editions.name_empty")
        m = _MARKS.match(problem)
        if m:
            typed = m.group(1)
            wrong = "".join(dict.fromkeys(ch for ch in typed if ch not in NAME_MARKS))
            return tr("ui.editions.name_marks", marks=wrong or "-")
        m = _SHIPPED.match(problem) or _TAKEN.match(problem)
        if m:
            which = "ui.editions.name_shipped" if m.re is _SHIPPED else "ui.editions.name_taken"
            return tr(which, name=m.group(1))
    if key == "title" and _EMPTY.match(problem):
        return tr("ui.editions.title_empty")
    m = _SPACE_TAKEN.match(problem)
    if m:
        return tr("ui.editor.refuse.space_name", name=m.group(1))
    if _WHOLE.match(problem):
        return tr("ui.editor.refuse.whole")
    m = _LEAST.match(problem)
    if m:
        return tr("ui.editor.refuse.least", least=int(m.group(1)))
    m = _MOST.match(problem)
    if m:
        return tr("ui.editor.refuse.most", most=int(m.group(1)))
    m = _RANGE.match(problem)
    if m:
        return tr("ui.editor.refuse.range", least=int(m.group(1)), most=int(m.group(2)))
    if _NEGATIVE.match(problem):
        return tr("ui.editor.refuse.least", least=0)
    if _CURRENCY.match(problem):
        return tr("ui.editor.refuse.currency")
    if _COLOUR.search(problem):
        return tr("ui.editor.refuse.colour")
    if _CONTROL.match(problem):
        return tr("ui.editor.refuse.control")
    m = _LONG.match(problem)
    if m:
        return tr("ui.editor.refuse.text_long", most=int(m.group(1)))
    if _EMPTY.match(problem):
        return tr("ui.editor.refuse.text_empty")
    return None


__all__ = ["HOUSE_LABELS", "MONEY_OPTIONS", "NAME_MARKS", "editor_labels", "refusal_text", "translated_refusal"]
