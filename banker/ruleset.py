"""Rulesets: the board, prices, cards and options of one edition, as data.

A ruleset is a TOML (or JSON) file. The shipped ones live in
``banker/rulesets/``; a family may copy one, edit it and play it by path.
Every key is checked on load, and a problem is reported as
``RulesetError(file, key, problem)``: never a traceback, never a half-loaded
ruleset. docs/rulesets.md describes the schema.
"""

from __future__ import annotations

import copy
import json
import math
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from banker import outside
from banker.errors import RulesetError
from banker.mechanics import Mechanics
from banker.mechanics import choose as choose_mechanics
from banker.mechanics import families as mechanic_families
from banker.options import DECLARED, OptionError, Options, Value, options_from

# Views of the options' declarations (banker/options.py), where they were before it.
from banker.options import HOUSE_RULES as HOUSE_RULES
from banker.options import MAX_WHOLE_NUMBER as MAX_WHOLE_NUMBER
from banker.options import OPTION_DEFAULTS as OPTION_DEFAULTS
from banker.options import OPTION_RANGES as OPTION_RANGES
from banker.options import shown as _shown
from banker.outside import valid_text
from banker.variant import Variant

FORMAT = 1

# Every whole number a ruleset file holds, wherever it is (prices, rents, card amounts, options), lies
# within -MAX_WHOLE_NUMBER .. MAX_WHOLE_NUMBER (banker/options.py), and each option within its own range.
# A ruleset file is a regular file of at most this many bytes, nested at most MAX_NESTING deep
# (tables and lists inside one another, the top level counting one), and no number in it is written
# with more than MAX_DIGITS digits.
MAX_FILE_BYTES = 1_048_576
MAX_NESTING = 32
MAX_DIGITS = 18

# ISO 4217 currency codes (the list of 2025): a ruleset's optional `currency`
# must be one of them. Only the app uses it, to show money with the currency's
# symbol; the engine's own texts stay plain numbers.
CURRENCIES = frozenset("""
AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN BZD
CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP
GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW
KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN
NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL
SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED VES
VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG ZWL
""".split())

PROPERTY_KINDS = ("lot", "railroad", "utility")
SPACE_KINDS = PROPERTY_KINDS + (
    "go",
    "jail",
    "go_to_jail",
    "free_parking",
    "card",
    "tax",
    "tax_choice",
    "casino",
)
CARD_EFFECTS = (
    "money",
    "advance",
    "back",
    "jail_free",
    "go_to_jail",
    "collect_each",
    "repairs",
    "nearest",
    "random_move",
    "destroy_building",
)


@dataclass(frozen=True, slots=True)
class Space:
    index: int
    name: str
    kind: str
    group: str | None = None
    price: int = 0
    rents: tuple[int, ...] = ()
    building_cost: int = 0
    mortgage: int = 0
    multipliers: tuple[int, ...] = ()
    deck: str | None = None
    amount_option: str | None = None

    @property
    def is_property(self) -> bool:
        return self.kind in PROPERTY_KINDS


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    deck: str
    text: str
    effect: str
    amount: int = 0
    to: int = -1
    steps: int = 0
    per_house: int = 0
    per_hotel: int = 0
    kind: str | None = None
    rent_multiplier: int = 1
    dice_multiplier: int = 0


@dataclass(frozen=True)
class Ruleset:
    name: str
    title: str
    description: str
    players_min: int
    players_max: int
    dice: int
    mechanics: Mapping[str, str]
    options: Options
    groups: Mapping[str, Mapping[str, str]]
    decks: Mapping[str, Mapping[str, str]]
    cards: tuple[Card, ...]
    spaces: tuple[Space, ...]
    source: str
    data: Mapping[str, Any] = field(repr=False)
    currency: str | None = None  # ISO 4217 code of the edition's money, for the app's texts only
    # Derived lookups, filled in __post_init__.
    group_members: Mapping[str, tuple[int, ...]] = field(init=False, repr=False)
    deck_cards: Mapping[str, tuple[str, ...]] = field(init=False, repr=False)
    card_by_id: Mapping[str, Card] = field(init=False, repr=False)
    property_indices: tuple[int, ...] = field(init=False, repr=False)
    jail_index: int = field(init=False, repr=False)
    # Why each house rule that makes no sense here does not (`option_problem`), and the house rules offered.
    house_rule_problems: Mapping[str, str] = field(init=False, repr=False)
    house_rules_offered: tuple[str, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        members: dict[str, list[int]] = {}
        for space in self.spaces:
            if space.group is not None:
                members.setdefault(space.group, []).append(space.index)
        decks: dict[str, list[str]] = {name: [] for name in self.decks}
        for card in self.cards:
            decks[card.deck].append(card.id)
        set_ = object.__setattr__
        set_(self, "group_members", {g: tuple(v) for g, v in members.items()})
        set_(self, "deck_cards", {d: tuple(v) for d, v in decks.items()})
        set_(self, "card_by_id", {c.id: c for c in self.cards})
        set_(self, "property_indices", tuple(s.index for s in self.spaces if s.is_property))
        set_(self, "jail_index", next(s.index for s in self.spaces if s.kind == "jail"))
        problems, offered = _house_rules_here(self)
        set_(self, "house_rule_problems", problems)
        set_(self, "house_rules_offered", offered)

    def rules(self) -> Mechanics:
        """The variant of each mechanic family this ruleset names (banker/mechanics), made with its options (the
        app asks `banker.variant.Variant.of_ruleset` for their facts before a game exists)."""
        return choose_mechanics(self.mechanics, self.options, [s.kind for s in self.spaces])

    def space_index(self, name: str) -> int | None:
        """The index of the space with this exact name, if exactly one has it."""
        found = [s.index for s in self.spaces if s.name == name]
        return found[0] if len(found) == 1 else None

    def to_json(self) -> dict[str, Any]:
        """The full ruleset as plain data: what `banker rules NAME --json` prints."""
        spaces = []
        mortgages = self.rules().mortgage.allowed()  # asked once: the answer comes from the ruleset's mechanics
        for s in self.spaces:
            entry: dict[str, Any] = {"index": s.index, "name": s.name, "kind": s.kind}
            if s.group is not None:
                entry["group"] = s.group
            if s.is_property:
                entry["price"] = s.price
                if mortgages:
                    entry["mortgage"] = s.mortgage
            if s.rents:
                entry["rents"] = list(s.rents)
            if s.kind == "lot":
                entry["building_cost"] = s.building_cost
            if s.multipliers:
                entry["multipliers"] = list(s.multipliers)
            if s.deck is not None:
                entry["deck"] = s.deck
            if s.amount_option is not None:
                entry["amount_option"] = s.amount_option
                entry["amount"] = self.options.value(s.amount_option)
            spaces.append(entry)
        cards = []
        for c in self.cards:
            raw = next(r for r in self.data["cards"] if r["id"] == c.id)
            cards.append(dict(raw))
        return {
            "format": FORMAT,
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "players": [self.players_min, self.players_max],
            "dice": self.dice,
            "mechanics": dict(self.mechanics),
            "options": self.options.to_dict(),
            "groups": {k: dict(v) for k, v in self.groups.items()},
            "decks": {k: dict(v) for k, v in self.decks.items()},
            "cards": cards,
            "spaces": spaces,
            **({"currency": self.currency} if self.currency is not None else {}),
        }

    def source_data(self) -> dict[str, Any]:
        """The merged ruleset data (no `extends`), loadable on its own."""
        return copy.deepcopy(dict(self.data))


# --------------------------------------------------------------------------
# Loading


def builtin_names() -> list[str]:
    """Names of the rulesets shipped with the package, sorted."""
    folder = resources.files("banker.rulesets")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


def builtin_family(name: str) -> str:
    """The shipped ruleset at the root of `name`'s `extends` chain: the one whose board and decks it plays
    with ("classic" for "classic-short", "brands" for "brands-showdown"); `name` itself when it extends none."""
    for _ in range(5):  # the loader's own limit of levels
        parent = _read_builtin(name).get("extends")
        if not isinstance(parent, str) or parent not in builtin_names():
            return name
        name = parent
    return name


_cache: dict[str, Ruleset] = {}


def load_ruleset(name_or_path: str, editions: bool = True) -> Ruleset:
    """Load a shipped ruleset by name, a ruleset file by path, or else (unless `editions` is false) the
    family's edition of that name (`load_edition`; read anew each time: it may be edited between games)."""
    if name_or_path in _cache:
        return _cache[name_or_path]
    if name_or_path in builtin_names():
        data = _read_builtin(name_or_path)
        ruleset = ruleset_from_data(data, f"{name_or_path}.toml")
        _cache[name_or_path] = ruleset
        return ruleset
    _check_path_name(name_or_path)
    path = Path(name_or_path)
    looks_like_path = path.suffix in (".toml", ".json") or "/" in name_or_path or path.exists()
    if not looks_like_path:
        if editions and is_edition_file(name_or_path):
            return load_edition(name_or_path)
        known = ", ".join(builtin_names())
        raise RulesetError(name_or_path, "", f"no such ruleset (shipped: {known}; "
                                             f"or an edition's name, see `banker rules`; or give a file path)")
    return ruleset_from_data(read_file(path), str(path))


def _read_builtin(name: str) -> dict[str, Any]:
    text = resources.files("banker.rulesets").joinpath(f"{name}.toml").read_text("utf-8")
    return parse_text(text, f"{name}.toml", toml=True)


# The family's editions: ruleset files of the data folder, each named by its `name` field, found here by that
# name (load_ruleset) and listed, saved, renamed and deleted by banker/editions.py.
EDITION_SUFFIX = ".toml"
MAX_EDITION_NAME = 40  # characters
_EDITION_NAME = re.compile(r"[a-z0-9][a-z0-9-]*")


def editions_dir() -> Path:
    """The folder of the family's editions: $XDG_DATA_HOME/board-banker/editions."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "board-banker" / "editions"


def edition_name_problem(name: object) -> str | None:
    """Why `name` cannot name an edition (the rule it breaks), or None when it can: lower-case ASCII letters,
    digits and hyphens, starting with a letter or a digit, at most MAX_EDITION_NAME characters, and no shipped
    ruleset's name."""
    if not isinstance(name, str):
        return f"must be text, not {type(name).__name__}"
    if not name:
        return "must not be empty"
    if len(name) > MAX_EDITION_NAME:
        return f"must be at most {MAX_EDITION_NAME} characters, not {len(name)}"
    if not _EDITION_NAME.fullmatch(name):
        return ("must be lower-case ASCII letters, digits and hyphens, starting with a letter or a digit, "
                f"not '{outside.escape_text(name)}'")
    if name in builtin_names():
        return f"{name!r} is the name of a shipped ruleset; an edition needs a name of its own"
    return None


def check_edition_name(name: object, source: str) -> str:
    """`name` if it can name an edition; else RulesetError(source, "name", the rule it breaks)."""
    problem = edition_name_problem(name)
    if problem is not None:
        raise RulesetError(source, "name", problem)
    assert isinstance(name, str)
    return name


def is_edition_file(name: str, folder: Path | None = None) -> bool:
    """Whether `name` is a valid edition name with a file (of any kind, broken or not) in the folder (None:
    `editions_dir()`)."""
    if edition_name_problem(name) is not None:
        return False
    try:
        return os.path.lexists((editions_dir() if folder is None else Path(folder)) / f"{name}{EDITION_SUFFIX}")
    except (OSError, ValueError):
        return False


def load_edition(name: str, folder: Path | None = None) -> Ruleset:
    """The edition of this name in the folder (None: `editions_dir()`); RulesetError with the reason when it is
    missing or broken."""
    check_edition_name(name, f"edition {outside.escape_text(name)}")
    path = (editions_dir() if folder is None else Path(folder)) / f"{name}{EDITION_SUFFIX}"
    return edition_from_data(name, path, read_file(path))


def edition_from_data(name: str, path: Path, data: Mapping[str, Any]) -> Ruleset:
    """The edition `name` from the data of its file `path`: a ruleset whose `name` field is the file's name."""
    ruleset = ruleset_from_data(data, str(path))
    if ruleset.name != name:
        raise RulesetError(str(path), "name",
                           f"must be the file's name '{name}', not '{outside.escape_text(ruleset.name)}'")
    return ruleset


def read_file(path: Path) -> dict[str, Any]:
    """The data of a ruleset file, not yet checked as a ruleset (`ruleset_from_data` does that): a regular
    file of at most MAX_FILE_BYTES of UTF-8 text (read as banker.outside.read_text_file reads any file from
    outside), parsed by `parse_text` as JSON when its name ends in ".json", else as TOML.

    Raises RulesetError(str(path), "", why) when the file cannot be read or parsed. banker/editions.py reads
    the family's editions with it."""
    source = str(path)
    try:
        text = outside.read_text_file(path, MAX_FILE_BYTES)
    except outside.NotRegularFile as exc:
        kind = outside.file_kind(exc.mode, folder="is a folder", other="is not a file")
        raise RulesetError(source, "", f"{kind}, not a regular file") from None
    except outside.NotText as exc:
        raise RulesetError(source, "", f"not UTF-8 text (byte 0x{exc.byte:02x} at offset {exc.offset})") from None
    except outside.FileTooLarge:
        raise RulesetError(source, "", f"the file is larger than {MAX_FILE_BYTES} bytes (1 MiB), "
                                       f"the most a ruleset file may be") from None
    except FileNotFoundError:
        raise RulesetError(source, "", "file not found") from None
    except NotADirectoryError:
        raise RulesetError(source, "", "file not found (a part of the path is not a folder)") from None
    except PermissionError:
        raise RulesetError(source, "", "cannot read the file (permission denied)") from None
    except OSError as exc:
        raise RulesetError(source, "", f"cannot read the file ({exc.strerror or exc})") from None
    return parse_text(text, source, toml=path.suffix != ".json")


def _check_path_name(name: str) -> None:
    """Refuse a ruleset path the operating system could not even look up."""
    shown = _shown(name)
    if "\x00" in name:
        raise RulesetError(shown, "", "a file name cannot hold the character NUL")
    try:
        os.fsencode(name)
    except UnicodeEncodeError:
        raise RulesetError(shown.encode("ascii", "backslashreplace").decode("ascii"), "",
                           "the file name is not valid text (a lone surrogate)") from None


def _scan(text: str, source: str, toml: bool) -> None:
    """Refuse, before parsing, nesting deeper than MAX_NESTING, numbers of more than MAX_DIGITS digits
    and dotted keys of more than MAX_NESTING parts (see banker.outside.scan_document for why)."""
    found = outside.scan_document(text, toml=toml, max_depth=MAX_NESTING - 1, max_digits=MAX_DIGITS,
                                 max_key_parts=MAX_NESTING)
    if found is None:
        return
    what, line = found
    problem = {outside.DEEP: f"nested more than {MAX_NESTING} levels deep (tables and lists inside one another)",
               outside.LONG_NUMBER: f"a number written with more than {MAX_DIGITS} digits",
               outside.LONG_KEY: f"a dotted key of more than {MAX_NESTING} parts"}[what]
    raise RulesetError(source, f"line {line}", problem)


def parse_text(text: str, source: str, toml: bool) -> dict[str, Any]:
    """The data of a ruleset's text, TOML (`toml`) or JSON, not yet checked as a ruleset (`ruleset_from_data`
    does that): its top-level table as a dict.

    The text is first scanned for what the parsers cannot be trusted with (nesting deeper than MAX_NESTING,
    numbers of more than MAX_DIGITS digits, dotted keys of more than MAX_NESTING parts); that, a parser's
    refusal, or a top level that is not a table raises RulesetError(source, key, why), `source` naming the
    text in the message. For text from outside that is not a file: the phone editor's (ui/editor.py) and an
    edition being saved (banker/editions.py)."""
    _scan(text, source, toml)
    try:
        if toml:
            return tomllib.loads(text)
        data = json.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(source, "", f"not valid TOML: {exc}") from None
    except json.JSONDecodeError as exc:
        raise RulesetError(source, "", f"not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise RulesetError(source, "", "the top level must be a table of keys")
    return data


def _check_values(data: Mapping[str, Any], source: str) -> None:
    """Walk the data once (without recursion): nesting at most MAX_NESTING, every text valid Unicode
    (no lone surrogate, which JSON allows and no output can print), every whole number within
    MAX_WHOLE_NUMBER, no float that is not a number (nan, inf). The key paths are those of the loader."""
    stack: list[tuple[str, Any, int]] = [("", data, 1)]
    while stack:
        path, value, depth = stack.pop()
        if isinstance(value, Mapping):
            if depth > MAX_NESTING:
                raise RulesetError(source, path, f"nested more than {MAX_NESTING} levels deep")
            for key, item in value.items():
                if not isinstance(key, str) or not valid_text(key):
                    raise RulesetError(source, _ascii(path), f"a key is not valid text: {_ascii(_shown(key))}")
                stack.append((f"{path}.{key}" if path else key, item, depth + 1))
        elif isinstance(value, list):
            if depth > MAX_NESTING:
                raise RulesetError(source, path, f"nested more than {MAX_NESTING} levels deep")
            for k, item in enumerate(value):
                stack.append((f"{path}[{k}]", item, depth + 1))
        elif isinstance(value, str):
            if not valid_text(value):
                raise RulesetError(source, _ascii(path), f"not valid text (a lone surrogate): {_ascii(_shown(value))}")
        elif isinstance(value, int) and not isinstance(value, bool):
            if not -MAX_WHOLE_NUMBER <= value <= MAX_WHOLE_NUMBER:
                raise RulesetError(source, path, f"must be within -{MAX_WHOLE_NUMBER} to {MAX_WHOLE_NUMBER}, "
                                                 f"not {_shown(value)}")
        elif isinstance(value, float) and not math.isfinite(value):
            raise RulesetError(source, path, f"must be a whole number, not {value!r}")


def _is_colour(text: str) -> bool:
    """Whether `text` is a colour written "#RRGGBB" (hexadecimal digits, either case)."""
    return len(text) == 7 and text[0] == "#" and all(c in "0123456789abcdefABCDEF" for c in text[1:])


def _ascii(text: str) -> str:
    return text.encode("ascii", "backslashreplace").decode("ascii") if not valid_text(text) else text


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    merged = copy.deepcopy(base)
    for key, value in over.items():
        if key == "extends":
            continue
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def ruleset_from_data(data: Mapping[str, Any], source: str, _depth: int = 0) -> Ruleset:
    """Validate ruleset data (as read from a file or a script header)."""
    if not isinstance(data, Mapping):
        raise RulesetError(source, "", "a ruleset must be a table of keys")
    if _depth == 0:
        _check_values(data, source)
    data = dict(data)
    if "extends" in data:
        parent = data["extends"]
        if not isinstance(parent, str) or parent not in builtin_names():
            raise RulesetError(source, "extends", f"must name a shipped ruleset, not {parent!r}")
        if _depth > 4:
            raise RulesetError(source, "extends", "too many levels of extends")
        parent_data = _read_builtin(parent)
        data = _merge(parent_data, data)
        data.pop("extends", None)
        if "extends" in parent_data:  # the parent extends another in turn (brands-fast extends brands)
            data["extends"] = parent_data["extends"]
        return ruleset_from_data(data, source, _depth + 1)
    return _Validator(source, data).ruleset()


class _Validator:
    def __init__(self, source: str, data: dict[str, Any]) -> None:
        self.source = source
        self.data = data

    def fail(self, key: str, problem: str) -> RulesetError:
        return RulesetError(self.source, key, problem)

    def get(self, table: Mapping[str, Any], key: str, path: str, kind: type | tuple[type, ...],
            default: Any = ...) -> Any:
        if key not in table:
            if default is ...:
                raise self.fail(path, "missing")
            return default
        value = table[key]
        if kind is int or kind == (int,):
            if isinstance(value, bool) or not isinstance(value, int):
                raise self.fail(path, f"must be a whole number, not {value!r}")
        elif not isinstance(value, kind):
            want = {str: "text", bool: "true or false", list: "a list", dict: "a table"}.get(
                kind if isinstance(kind, type) else kind[0], str(kind))
            raise self.fail(path, f"must be {want}, not {value!r}")
        return value

    def count(self, table: Mapping[str, Any], key: str, path: str, default: Any = ...,
              minimum: int = 0) -> int:
        value = self.get(table, key, path, int, default)
        if value < minimum:
            raise self.fail(path, f"must be at least {minimum}, not {value}")
        return int(value)

    def check_keys(self, table: Mapping[str, Any], allowed: set[str], path: str) -> None:
        for key in table:
            if key not in allowed:
                where = f"{path}.{key}" if path else key
                raise self.fail(where, "unknown key")

    def ruleset(self) -> Ruleset:
        d = self.data
        self.check_keys(d, {"format", "name", "title", "description", "players", "dice", "currency",
                            "mechanics", "options", "groups", "decks", "cards", "spaces"}, "")
        fmt = self.count(d, "format", "format")
        if fmt != FORMAT:
            raise self.fail("format", f"this version reads format {FORMAT}, not {fmt}")
        name = self.get(d, "name", "name", str)
        if not name.strip():
            raise self.fail("name", "must not be empty")
        title = self.get(d, "title", "title", str, name)
        description = self.get(d, "description", "description", str, "")
        currency = self.get(d, "currency", "currency", str, None)
        if currency is not None and currency not in CURRENCIES:
            raise self.fail("currency", f"must be an ISO 4217 currency code in capitals, such as \"PLN\" or "
                                        f"\"USD\", not {currency!r}")
        players = self.get(d, "players", "players", list)
        if (len(players) != 2 or not all(isinstance(p, int) and not isinstance(p, bool) for p in players)
                or not 2 <= players[0] <= players[1] <= 8):
            raise self.fail("players", f"must be [least, most] with 2 <= least <= most <= 8, not {players!r}")
        dice = self.count(d, "dice", "dice", 2, minimum=1)
        if dice > 3:
            raise self.fail("dice", f"must be 1, 2 or 3, not {dice}")
        mechanics = self.mechanics(self.get(d, "mechanics", "mechanics", dict, {}))
        options = self.options(self.get(d, "options", "options", dict, {}))
        if options.teams and players != [4, 4]:
            raise self.fail("options.teams", f"two teams of two need players = [4, 4], not {players!r}")
        groups = self.named_tables(self.get(d, "groups", "groups", dict, {}), "groups", {"color", "name"})
        decks = self.named_tables(self.get(d, "decks", "decks", dict, {}), "decks", {"name"})
        spaces = self.spaces(self.get(d, "spaces", "spaces", list), groups, decks, mechanics["mortgage"],
                             mortgages=choose_mechanics(mechanics, options).mortgage.allowed())
        cards = self.cards(self.get(d, "cards", "cards", list, []), decks, spaces)
        used_decks = {s.deck for s in spaces if s.deck}
        for deck in used_decks:
            if not any(c.deck == deck for c in cards):
                raise self.fail("cards", f"deck {deck!r} is used by a space but has no cards")
        ruleset = Ruleset(
            name=name, title=title, description=description,
            players_min=players[0], players_max=players[1], dice=dice,
            mechanics=mechanics, options=options, groups=groups, decks=decks,
            cards=tuple(cards), spaces=tuple(spaces), source=self.source, data=d, currency=currency,
        )
        check_option_combinations(ruleset, options, lambda key, problem: self.fail(f"options.{key}", problem))
        return ruleset

    def mechanics(self, table: Mapping[str, Any]) -> dict[str, str]:
        known = mechanic_families()  # each family and its variants, the default first (banker/mechanics)
        result = {k: v[0] for k, v in known.items()}
        for key, value in table.items():
            if key not in known:
                raise self.fail(f"mechanics.{key}", f"unknown mechanic (known: {', '.join(known)})")
            if value not in known[key]:
                raise self.fail(f"mechanics.{key}",
                                f"must be one of {', '.join(known[key])}, not {value!r}")
            result[key] = value
        return result

    def options(self, table: Mapping[str, Any]) -> Options:
        try:
            return options_from(table)
        except OptionError as exc:
            raise self.fail(f"options.{exc.option}", exc.problem) from None

    def named_tables(self, table: Mapping[str, Any], path: str, keys: set[str]) -> dict[str, dict[str, str]]:
        result = {}
        for name, entry in table.items():
            where = f"{path}.{name}"
            if not isinstance(entry, dict):
                raise self.fail(where, "must be a table")
            self.check_keys(entry, keys, where)
            for k, v in entry.items():
                if not isinstance(v, str):
                    raise self.fail(f"{where}.{k}", f"must be text, not {v!r}")
            colour = entry.get("color")
            if colour is not None and not _is_colour(colour):  # the app draws it: "#RRGGBB" only
                raise self.fail(f"{where}.color", f"must be a colour written #RRGGBB, such as \"#1FB25A\", "
                                                  f"not {_shown(colour)}")
            result[name] = {"name": entry.get("name", name), **entry}
        return result

    def spaces(self, raw: list[Any], groups: Mapping[str, Any], decks: Mapping[str, Any], mortgage: str,
               mortgages: bool = True) -> list[Space]:
        """The board; `mortgage` the ruleset's mortgage variant, which says whether it has `mortgages` at all."""
        if not 12 <= len(raw) <= 60:
            raise self.fail("spaces", f"a board needs 12 to 60 spaces, not {len(raw)}")
        spaces: list[Space] = []
        names: dict[str, int] = {}
        common = {"name", "kind"}
        allowed = {
            "lot": common | {"group", "price", "rents", "building_cost", "mortgage"},
            "railroad": common | {"group", "price", "rents", "mortgage"},
            "utility": common | {"group", "price", "multipliers", "mortgage"},
            "card": common | {"deck"},
            "tax": common | {"amount_option"},
        }
        for i, entry in enumerate(raw):
            path = f"spaces[{i}]"
            if not isinstance(entry, dict):
                raise self.fail(path, "must be a table")
            name = self.get(entry, "name", f"{path}.name", str)
            kind = self.get(entry, "kind", f"{path}.kind", str)
            if kind not in SPACE_KINDS:
                raise self.fail(f"{path}.kind", f"must be one of {', '.join(SPACE_KINDS)}, not {kind!r}")
            if not mortgages and "mortgage" in entry:
                raise self.fail(f"{path}.mortgage",
                                f'this ruleset has no mortgages (mechanics.mortgage = "{mortgage}")')
            self.check_keys(entry, allowed.get(kind, common), path)
            fields: dict[str, Any] = {"index": i, "name": name, "kind": kind}
            if kind in PROPERTY_KINDS:
                if name in names:
                    raise self.fail(f"{path}.name", f"{name!r} is already the name of space {names[name]}")
                names[name] = i
                group = self.get(entry, "group", f"{path}.group", str)
                if group not in groups:
                    raise self.fail(f"{path}.group", f"no group {group!r} in [groups]")
                price = self.count(entry, "price", f"{path}.price", minimum=1)
                fields.update(group=group, price=price,
                              mortgage=self.count(entry, "mortgage", f"{path}.mortgage", price // 2))
                if kind == "lot":
                    fields["rents"] = self.money_list(entry, "rents", f"{path}.rents", 6)
                    fields["building_cost"] = self.count(entry, "building_cost", f"{path}.building_cost",
                                                         minimum=1)
                elif kind == "railroad":
                    fields["rents"] = self.money_list(entry, "rents", f"{path}.rents", 1)
                else:
                    fields["multipliers"] = self.money_list(entry, "multipliers", f"{path}.multipliers", 1)
            elif kind == "card":
                deck = self.get(entry, "deck", f"{path}.deck", str)
                if deck not in decks:
                    raise self.fail(f"{path}.deck", f"no deck {deck!r} in [decks]")
                fields["deck"] = deck
            elif kind == "tax":
                option = self.get(entry, "amount_option", f"{path}.amount_option", str)
                if option not in DECLARED or DECLARED[option].switch:
                    raise self.fail(f"{path}.amount_option", f"must name a whole-number option, not {option!r}")
                fields["amount_option"] = option
            spaces.append(Space(**fields))
        kinds = [s.kind for s in spaces]
        if kinds[0] != "go":
            raise self.fail("spaces[0].kind", "the first space must be the start (kind \"go\")")
        if kinds.count("go") != 1:
            raise self.fail("spaces", "exactly one space must be of kind \"go\"")
        if kinds.count("jail") != 1:
            raise self.fail("spaces", "exactly one space must be of kind \"jail\"")
        if kinds.count("casino") > 1:
            second = [s.index for s in spaces if s.kind == "casino"][1]
            raise self.fail(f"spaces[{second}].kind", "a board has at most one space of kind \"casino\"")
        members: dict[str, list[Space]] = {}
        for s in spaces:
            if s.group is not None:
                members.setdefault(s.group, []).append(s)
        for group, group_spaces in members.items():
            if len({s.kind for s in group_spaces}) != 1:
                raise self.fail(f"groups.{group}", "a group must hold spaces of one kind")
            first = group_spaces[0]
            if first.kind == "railroad" and any(len(s.rents) < len(group_spaces) for s in group_spaces):
                raise self.fail(f"spaces[{first.index}].rents",
                                f"needs a rent for each of the {len(group_spaces)} spaces of group {group!r}")
            if first.kind == "utility" and any(len(s.multipliers) < len(group_spaces) for s in group_spaces):
                raise self.fail(f"spaces[{first.index}].multipliers",
                                f"needs a multiplier for each of the {len(group_spaces)} spaces of group {group!r}")
        return spaces

    def money_list(self, table: Mapping[str, Any], key: str, path: str, least: int) -> tuple[int, ...]:
        values = self.get(table, key, path, list)
        if len(values) < least:
            raise self.fail(path, f"needs at least {least} numbers, not {len(values)}")
        for j, v in enumerate(values):
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise self.fail(f"{path}[{j}]", f"must be a whole number of at least 0, not {v!r}")
        return tuple(values)

    def cards(self, raw: list[Any], decks: Mapping[str, Any], spaces: list[Space]) -> list[Card]:
        cards: list[Card] = []
        seen: set[str] = set()
        params = {
            "money": {"amount"}, "advance": {"to"}, "back": {"steps"}, "jail_free": set(),
            "go_to_jail": set(), "collect_each": {"amount"}, "repairs": {"per_house", "per_hotel"},
            "nearest": {"kind", "rent_multiplier", "dice_multiplier"}, "random_move": set(),
            "destroy_building": set(),
        }
        for i, entry in enumerate(raw):
            path = f"cards[{i}]"
            if not isinstance(entry, dict):
                raise self.fail(path, "must be a table")
            card_id = self.get(entry, "id", f"{path}.id", str)
            if card_id in seen:
                raise self.fail(f"{path}.id", f"{card_id!r} is used twice")
            seen.add(card_id)
            deck = self.get(entry, "deck", f"{path}.deck", str)
            if deck not in decks:
                raise self.fail(f"{path}.deck", f"no deck {deck!r} in [decks]")
            effect = self.get(entry, "effect", f"{path}.effect", str)
            if effect not in CARD_EFFECTS:
                raise self.fail(f"{path}.effect", f"must be one of {', '.join(CARD_EFFECTS)}, not {effect!r}")
            self.check_keys(entry, {"id", "deck", "text", "effect"} | params[effect], path)
            fields: dict[str, Any] = {"id": card_id, "deck": deck, "effect": effect,
                                      "text": self.get(entry, "text", f"{path}.text", str, card_id)}
            if effect in ("money", "collect_each"):
                fields["amount"] = self.get(entry, "amount", f"{path}.amount", int)
            elif effect == "advance":
                to = self.count(entry, "to", f"{path}.to")
                if to >= len(spaces):
                    raise self.fail(f"{path}.to", f"no space {to} on a board of {len(spaces)}")
                fields["to"] = to
            elif effect == "back":
                fields["steps"] = self.count(entry, "steps", f"{path}.steps", minimum=1)
            elif effect == "repairs":
                fields["per_house"] = self.count(entry, "per_house", f"{path}.per_house")
                fields["per_hotel"] = self.count(entry, "per_hotel", f"{path}.per_hotel")
            elif effect == "nearest":
                kind = self.get(entry, "kind", f"{path}.kind", str)
                if kind not in ("railroad", "utility") or not any(s.kind == kind for s in spaces):
                    raise self.fail(f"{path}.kind", f"must be a kind of space on this board (railroad or utility), not {kind!r}")
                fields["kind"] = kind
                fields["rent_multiplier"] = self.count(entry, "rent_multiplier", f"{path}.rent_multiplier", 1, 1)
                fields["dice_multiplier"] = self.count(entry, "dice_multiplier", f"{path}.dice_multiplier", 0)
            cards.append(Card(**fields))
        return cards


def check_option_value(key: str, value: Any, fail: Callable[..., Exception]) -> Value:
    """Check one option's value against its declaration's kind and range (banker/options.py); `fail(problem)`
    makes the error."""
    try:
        return DECLARED[key].check(value)
    except OptionError as exc:
        raise fail(exc.problem) from None


def _house_rules_here(ruleset: Ruleset) -> tuple[dict[str, str], tuple[str, ...]]:
    """Why each house rule that makes no sense on this ruleset does not, and the house rules offered on it (in
    order): what each house rule's declaration needs (banker/options.py, `HouseRule.needs`) asked of the board,
    the dice and the variant's facts, which its mechanics answer (banker/variant.py)."""
    kinds = {s.kind for s in ruleset.spaces}
    variant = Variant.of(ruleset.rules())
    problems: dict[str, str] = {}
    offered = []
    for name in HOUSE_RULES:
        rule = DECLARED[name].house
        assert rule is not None
        for need in rule.needs:
            lacking = ((need.space and need.space not in kinds) or (need.dice and need.dice != ruleset.dice)
                       or (need.fact and not getattr(variant, need.fact)))
            if lacking:
                problems[name] = need.problem.format(rules=ruleset.name, dice=ruleset.dice)
                break
        if name not in problems and not (rule.pointless and getattr(variant, rule.pointless)):
            offered.append(name)
    return problems, tuple(offered)


def option_problem(ruleset: Ruleset, option: str) -> str | None:
    """Why `option` (a house rule) makes no sense on this ruleset's board, or None when it does.

    Such an option is not offered for the ruleset, and a ruleset file or a game's options that set it to
    anything but its default are refused (`check_option_combinations`)."""
    return ruleset.house_rule_problems.get(option)


def offered_house_rules(ruleset: Ruleset) -> list[str]:
    """The house rules (`HOUSE_RULES`, in order) a family may change for a game of this ruleset: those that make
    sense on its board, less those its variant makes pointless (`build_only_on_visit` where buildings go up
    only on a visit anyway: biznes)."""
    return list(ruleset.house_rules_offered)


def check_option_combinations(ruleset: Ruleset, options: Options,
                              fail: Callable[[str, str], Exception], players: int | None = None) -> None:
    """Refuse options, each valid alone, that the ruleset's board and dice cannot play together.

    `fail(option, problem)` makes the error. Used by the loader on a ruleset's own options (for as many
    players as the ruleset allows) and by game setup on a game's options (the header's over the
    ruleset's, for the game's players).
    """
    deeds = len(ruleset.property_indices)
    dealt = options.deal_deeds
    most = ruleset.players_max if players is None else players
    if dealt and not options.deal_all and dealt * most > deeds:
        who = f"up to {most} players" if players is None else f"{most} players"
        raise fail("deal_deeds", f"{dealt} deeds to each of {who} need {dealt * most}, but the board has "
                                 f"{deeds} title deeds (at most {deeds // most} each)")
    for option, problem in ruleset.house_rule_problems.items():  # in the order of HOUSE_RULES
        default = DECLARED[option].default
        if options.value(option) != default:
            shown = str(default).lower() if isinstance(default, bool) else str(default)
            raise fail(option, f"{problem}: it can only be {shown} here")
    if options.free_parking_seed and not options.free_parking_pot:
        raise fail("free_parking_seed", "seeds the Free Parking pot: it needs free_parking_pot = true "
                                        "(or free_parking_seed = 0)")
    if options.speed_die_round and ruleset.dice != 2:
        raise fail("speed_die_round", f"the speed die is rolled beside two dice: it needs dice = 2, "
                                      f"not {ruleset.dice}")
