"""The bounds of a game script, and the checks that hold every value to them at the edge.

Two layers, both before any rule sees a value (docs/game-script.md, "Bounds"):

- `decode_line` turns one line of a script into a JSON value, or raises `LineRefused` with the
  problem: a line too long, nesting too deep (found by a cheap scan, before decoding), `NaN` or
  `Infinity`, a number of more than `MAX_DIGITS` digits or too large for a float, an integer past
  `MAX_INT` (except the header's `seed`), text that is not valid Unicode, an action that is not a
  JSON object.
- `check_fields` holds every field of an action to its kind (`FIELD_KINDS`): a whole number within
  its range, text, a space, a list, an object, true or false, and `t` a finite number of seconds
  up to `MAX_TIME`. `Game.apply` and `Game.check` call it for every action, so a caller that
  builds actions in Python (the app) meets the same bounds as a script.

Reading the file (a regular file of at most `MAX_SCRIPT_BYTES`) and the checks of text itself (no lone
surrogate, no control character) are banker/outside.py's, shared with the rulesets and the hardware config.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any, Final

from banker.errors import InvalidAction
from banker.outside import control_character, valid_text

MAX_INT: Final = 2**53 - 1  # every integer of a script but the seed: the range JSON interoperates in (RFC 7493)
MAX_DIGITS: Final = 100  # the most digits of any integer (the seed may be any integer of at most this many digits)
MAX_TIME: Final = 10**9  # the largest `t`, in seconds (over 31 years)
MAX_LINE_CHARS: Final = 1_000_000  # the longest line of a script, in characters
MAX_DEPTH: Final = 32  # the deepest nesting of lists and objects in a line
MAX_SCRIPT_BYTES: Final = 64 * 1024 * 1024  # the largest script file
MAX_NAME_CHARS: Final = 100  # the longest player name
DIE_FACES: Final = (1, 6)

# How each action field is checked (besides `do`): the kind, and for whole numbers the range.
INT: Final = "int"
TEXT: Final = "text"
NAME: Final = "name"  # a player's name: text without control characters
SPACE: Final = "space"  # a space: its index (a whole number) or its name (text)
LIST: Final = "list"
INT_LIST: Final = "int_list"  # a list of whole numbers (their range is the rule's)
OBJECT: Final = "object"
BOOL: Final = "bool"
FIELD_KINDS: Final[dict[str, tuple[str, int, int]]] = {
    "player": (NAME, 0, 0),
    "deeds": (OBJECT, 0, 0),
    "dice": (LIST, 0, 0),
    "amount": (INT, 0, MAX_INT),
    "kind": (TEXT, 0, 0),
    "card": (TEXT, 0, 0),
    "target": (SPACE, 0, 0),
    "choice": (TEXT, 0, 0),
    "space": (SPACE, 0, 0),
    "from": (NAME, 0, 0),
    "to": (NAME, 0, 0),
    "give": (OBJECT, 0, 0),
    "get": (OBJECT, 0, 0),
    "cash": (INT, -MAX_INT, MAX_INT),
    "position": (SPACE, 0, 0),
    "reason": (TEXT, 0, 0),
    "reserve": (INT, 0, MAX_INT),
    "price": (INT, 0, MAX_INT),
    "numbers": (INT_LIST, -MAX_INT, MAX_INT),
    "die": (INT, DIE_FACES[0], DIE_FACES[1]),
    "jackpot": (BOOL, 0, 0),
    "steps": (INT, 1, 2 * DIE_FACES[1]),
}

_CODES = {INT: "action.not_whole_number", TEXT: "action.not_text", NAME: "action.not_text",
          SPACE: "action.not_space", LIST: "action.not_list", INT_LIST: "action.not_list",
          OBJECT: "action.not_object_field",
          BOOL: "action.not_true_false"}
_SHOWN_CHARS: Final = 40


class LineRefused(Exception):
    """A line of a script breaks a bound or is not the JSON value it must be; the message says how."""


def shown(value: Any) -> str:
    """A value as JSON text for a message, cut short (safe for any value, lone surrogates included)."""
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (TypeError, ValueError):
        text = type(value).__name__
    return text if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS - 3] + "..."


# ----------------------------------------------------------------------
# Decoding a line

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def nesting_depth(raw: str) -> int:
    """The deepest nesting of lists and objects in a line of JSON, without decoding it."""
    if raw.count("[") + raw.count("{") <= MAX_DEPTH:
        return raw.count("[") + raw.count("{")  # cannot be deeper than this: the common case, at once
    depth = deepest = 0
    for m in _BRACKET.finditer(_STRING.sub("", raw)):
        if m.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth = max(depth - 1, 0)
    return deepest


def _constant(name: str) -> Any:
    raise LineRefused(f"{name} is not a number JSON allows")


def _integer(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise LineRefused(f"a number of more than {MAX_DIGITS} digits")
    return int(digits)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise LineRefused(f"the number {shown_text(text)} is too large")
    return value


def shown_text(text: str) -> str:
    return text if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS - 3] + "..."


_DECODER = json.JSONDecoder(parse_int=_integer, parse_float=_float, parse_constant=_constant)
# For a plain line: no number of 16 digits or more (so every integer is within MAX_INT and MAX_DIGITS), only
# ASCII and no \u escape (so no lone surrogate): the C scanner reads its integers, nothing needs a second look.
_PLAIN_DECODER = json.JSONDecoder(parse_float=_float, parse_constant=_constant)
_LONG_NUMBER = re.compile(r"\d{16}")


def decode_line(raw: str, header: bool) -> Any:
    """One line of a script as a JSON value held to the bounds; LineRefused says what is wrong.

    json.JSONDecodeError (a ValueError) still means the line is not JSON at all.
    """
    if len(raw) > MAX_LINE_CHARS:
        raise LineRefused(f"the line is {len(raw):,} characters long, more than {MAX_LINE_CHARS:,}")
    depth = nesting_depth(raw)
    if depth > MAX_DEPTH:
        raise LineRefused(f"lists and objects are nested {depth} deep, more than {MAX_DEPTH}")
    plain = not header and raw.isascii() and "\\u" not in raw and _LONG_NUMBER.search(raw) is None
    value = (_PLAIN_DECODER if plain else _DECODER).decode(raw)
    if not header and not isinstance(value, dict):
        raise LineRefused(f"an action must be a JSON object, not {shown(value)}")
    if plain:
        return value  # its integers are within the bound and its text is valid (above)
    if isinstance(value, dict):
        for key, item in value.items():
            _check_value(item, key, skip_int=header and key == "seed")
            _check_key(key)
    else:
        _check_value(value, "", False)
    return value


def _check_key(key: str) -> None:
    if not valid_text(key):
        raise LineRefused(f"the key {shown(key)} is not valid text (a lone surrogate)")


def _check_value(value: Any, where: str, skip_int: bool) -> None:
    """Every integer within ±MAX_INT and every text valid, all the way down (the depth is bounded)."""
    if isinstance(value, str):
        if not valid_text(value):
            raise LineRefused(f"{where or 'a value'}: {shown(value)} is not valid text (a lone surrogate)")
    elif isinstance(value, bool):
        return
    elif isinstance(value, int):
        if not skip_int and not -MAX_INT <= value <= MAX_INT:
            raise LineRefused(f"{where or 'a value'}: {shown_text(str(value))} is past the bound of "
                              f"±{MAX_INT} for a whole number")
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_key(key)
            _check_value(item, f"{where}.{key}" if where else key, False)
    elif isinstance(value, list):
        for k, item in enumerate(value):
            _check_value(item, f"{where}[{k}]", False)


# ----------------------------------------------------------------------
# The fields of an action

def check_time(t: Any) -> None:
    """`t`: a finite number of seconds from 0 to MAX_TIME (None: unstamped)."""
    if t is None:
        return
    if isinstance(t, bool) or not isinstance(t, (int, float)):
        raise InvalidAction("action.bad_time", value=shown_text(t) if isinstance(t, str) else shown(t))
    if isinstance(t, float) and not math.isfinite(t):
        raise InvalidAction("action.time_not_finite", value=repr(t))
    if t < 0:
        raise InvalidAction("action.bad_time", value=t)
    if t > MAX_TIME:
        raise InvalidAction("action.time_too_large", value=shown(t), most=MAX_TIME)


def check_fields(action: Mapping[str, Any]) -> None:
    """Hold every field of an action but `do` to its kind and range (FIELD_KINDS); None means left out."""
    for key, value in action.items():
        if value is None or key == "do":
            continue
        if key == "t":
            check_time(value)
            continue
        entry = FIELD_KINDS.get(key)
        if entry is None:
            continue  # Game.apply refuses a field the verb does not take
        kind, least, most = entry
        if kind == INT:
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidAction(_CODES[kind], field=key, value=shown(value))
            if not least <= value <= most:
                raise InvalidAction("action.number_range", field=key, value=shown(value), least=least, most=most)
        elif kind == TEXT or kind == NAME:
            if not isinstance(value, str):
                raise InvalidAction(_CODES[kind], field=key, value=shown(value))
            if not valid_text(value) or (kind == NAME and control_character(value) is not None):
                raise InvalidAction("action.bad_text", field=key, value=shown(value))
        elif kind == SPACE:
            if isinstance(value, bool) or not isinstance(value, (int, str)):
                raise InvalidAction(_CODES[kind], field=key, value=shown(value))
            if isinstance(value, str) and not valid_text(value):
                raise InvalidAction("action.bad_text", field=key, value=shown(value))
        elif kind == BOOL:
            if not isinstance(value, bool):
                raise InvalidAction(_CODES[kind], field=key, value=shown(value))
        elif kind == LIST and type(value) is list and all(type(x) is int and -MAX_INT <= x <= MAX_INT for x in value):
            continue  # the common case (dice): whole numbers within the bound
        else:
            if not isinstance(value, Mapping if kind == OBJECT else list):
                raise InvalidAction(_CODES[kind], field=key, value=shown(value))
            if kind == INT_LIST:
                for k, item in enumerate(value):
                    if isinstance(item, bool) or not isinstance(item, int):
                        raise InvalidAction("action.not_whole_number", field=f"{key}[{k}]", value=shown(item))
            _check_nested(value, key, 1)


def _check_nested(value: Any, where: str, depth: int) -> None:
    """Inside a list or object field: whole numbers within ±MAX_INT, text valid (the engine checks the rest)."""
    if isinstance(value, bool) or value is None:
        return
    if depth > MAX_DEPTH:
        raise InvalidAction("action.too_deep", field=where, most=MAX_DEPTH)
    if isinstance(value, int):
        if not -MAX_INT <= value <= MAX_INT:
            raise InvalidAction("action.number_range", field=where, value=shown(value), least=-MAX_INT, most=MAX_INT)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidAction("action.not_whole_number", field=where, value=repr(value))
    elif isinstance(value, str):
        if not valid_text(value):
            raise InvalidAction("action.bad_text", field=where, value=shown(value))
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str) or not valid_text(key):
                raise InvalidAction("action.bad_text", field=where, value=shown(key))
            _check_nested(item, f"{where}.{key}", depth + 1)
    elif isinstance(value, (list, tuple)):
        for k, item in enumerate(value):
            if type(item) is int and -MAX_INT <= item <= MAX_INT:
                continue  # the common case (dice), without naming the place
            _check_nested(item, f"{where}[{k}]", depth + 1)
