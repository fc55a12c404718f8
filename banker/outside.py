"""What comes from outside: reading a file safely, finding and escaping the characters of outside text
that a message must not print as they are, and reading numbers from the command line.

One home for the engine (game scripts, ruleset files, the `banker` command's messages, players' names), the
hardware (its config, hardware/config.py, and `banker hw`, hardware/cli.py) and the app's command line
(ui/cli.py) alike; each caller words its own messages from what is found here. It is the one module of
banker/ that hardware/ imports, and it imports nothing but the standard library (tests/test_import_rules.py).

- Files: `read_text_file` (and `read_regular_file` below it) reads a regular file of at most a given size
  without opening anything else for reading, and decodes it as UTF-8; `file_kind` says what a path that is no
  regular file is; `scan_document` finds the bounds a TOML or JSON document breaks before a parser meets them.
- Text: `valid_text` (no lone surrogate), `control_character` (the first character of given Unicode
  categories, with its place) and `escape_text` (every character that is not printable escaped, so that a
  message stays one line).
- The command line: the argparse types `whole_number` and `seconds`, whose refusals quote the value as
  `quoted` shows it (the `banker` command, `banker hw` and `banker app` alike).
"""

from __future__ import annotations

import argparse
import os
import re
import stat
import unicodedata
from collections.abc import Callable
from typing import Final

# ----------------------------------------------------------------------
# Outside text

# The characters refused in a player's name and a script's ruleset name: controls and lone surrogates.
CONTROLS: Final = frozenset({"Cc", "Cs"})
# The characters refused in a hardware config value: those, format characters (U+200B, the bidirectional
# overrides) and the line and paragraph separators (which some terminals and editors break a line at).
CONTROLS_AND_FORMAT: Final = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def valid_text(text: str) -> bool:
    """Whether text can be written as UTF-8 (no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def control_character(text: str, categories: frozenset[str] = CONTROLS) -> tuple[int, str] | None:
    """The place and the character of the first character in text of one of the Unicode `categories`
    (CONTROLS: control characters and lone surrogates), or None."""
    if text.isprintable():  # every category above is one that isprintable refuses: the common case, at once
        return None
    for index, ch in enumerate(text):
        if unicodedata.category(ch) in categories:
            return index, ch
    return None


_ESCAPES: Final = {"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def escape_text(text: str, limit: int | None = None) -> str:
    """Text with every character that is not printable written as TOML and JSON escape it (\\n, \\t,
    \\u0000; a lone surrogate as \\udcff), so that it prints on one line; cut to `limit` characters
    (then ending in "...") if given. For messages that quote what came from outside (the command
    line, the hardware config file)."""
    if not text.isprintable():
        text = "".join(ch if ch.isprintable() else _ESCAPES.get(ch) or
                       (f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}") for ch in text)
    if limit is not None and len(text) > limit:
        text = text[:limit - 3] + "..."
    return text


# ----------------------------------------------------------------------
# Reading a file from outside


class NotRegularFile(Exception):
    """The path is a folder, a FIFO, a device or a socket; `mode` says which (`file_kind` words it)."""

    def __init__(self, mode: int) -> None:
        super().__init__(f"not a regular file (mode {mode:o})")
        self.mode = mode


class FileTooLarge(Exception):
    """The file holds more than the bytes its reader takes."""


class NotText(ValueError):
    """The file's bytes are not UTF-8: `byte` (the first bad one) at `offset`, on line `line`.

    Its message is the decoder's own, as a UnicodeDecodeError's."""

    def __init__(self, data: bytes, error: UnicodeDecodeError) -> None:
        super().__init__(str(error))
        self.offset = error.start
        self.byte = data[error.start]
        self.line = data[:error.start].count(b"\n") + 1


_FILE_KINDS: Final = ((stat.S_ISFIFO, "is a FIFO (a named pipe)"), (stat.S_ISCHR, "is a character device"),
                      (stat.S_ISBLK, "is a block device"), (stat.S_ISSOCK, "is a socket"))


def file_kind(mode: int, folder: str, other: str) -> str:
    """What a path of this mode is, for a message that refuses it: "is a FIFO (a named pipe)", ..., `folder`
    for a folder (its caller's word: "is a folder", "is a directory"), `other` for anything else."""
    if stat.S_ISDIR(mode):
        return folder
    return next((what for test, what in _FILE_KINDS if test(mode)), other)


def read_regular_file(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes: a game script, a ruleset, the hardware config.

    Nothing is opened for reading before it is known to be a regular file (opening a FIFO would wait
    for a writer, a device such as /dev/zero never ends), the open itself does not block, and the
    file is checked again once open (the path may have become something else in between). No more
    than `limit` + 1 bytes are read. Raises NotRegularFile, FileTooLarge, or the OSError (ValueError
    for a name holding NUL) that the system gives; the callers word each in their own messages.
    """
    before = os.stat(path)
    if not stat.S_ISREG(before.st_mode):
        raise NotRegularFile(before.st_mode)
    if before.st_size > limit:
        raise FileTooLarge()
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):
            raise NotRegularFile(opened.st_mode)
        if opened.st_size > limit:
            raise FileTooLarge()
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > limit:  # it grew after the stat
        raise FileTooLarge()
    return b"".join(chunks)


def read_text_file(path: str | os.PathLike[str], limit: int) -> str:
    """The text of a regular UTF-8 file of at most `limit` bytes, read as `read_regular_file` reads it.

    Raises what read_regular_file raises, or NotText (a ValueError) for bytes that are not UTF-8."""
    data = read_regular_file(path, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotText(data, exc) from None


# ----------------------------------------------------------------------
# Scanning a TOML or JSON document before it is parsed

DEEP: Final = "deep"
LONG_NUMBER: Final = "long_number"
LONG_KEY: Final = "long_key"


def scan_document(text: str, *, toml: bool, max_depth: int, max_digits: int,
                  max_key_parts: int) -> tuple[str, int] | None:
    """The first bound a document breaks, as (what, line), or None: brackets nested more than
    `max_depth` deep (`DEEP`), a number written with more than `max_digits` digits (`LONG_NUMBER`),
    or, in TOML, a dotted key of more than `max_key_parts` parts (`LONG_KEY`).

    Run before parsing, because the parsers cannot be trusted with such input: they recurse once
    a level (a RecursionError thousands deep), Python refuses to convert an integer of more than
    4,300 digits, and tomllib takes time that grows faster than the square of a dotted key's parts
    (3 s for `a.a.a... = 1` of 20,000 parts here, more than ten minutes for 100,000). Strings and comments are skipped. Used for ruleset files and the hardware
    config file; an ordinary file is passed by a quick look without the character-by-character walk.
    """
    if (text.count("[") + text.count("{") <= max_depth
            and not re.search(rf"[0-9](?:_?[0-9]){{{max_digits}}}", text)
            and not (toml and re.search(rf"\.(?:[^.\n]*\.){{{max_key_parts - 1}}}", text))):
        return None
    depth = 0
    digits = 0
    dots = 0  # dots since the last "=", ",", bracket or line end: the parts of a dotted key, less one
    word = False  # inside a bare word (a TOML key, true, nan, 0x...): its digits are no number's
    line = 1
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
        if word and (c.isalnum() or c in "_-"):
            i += 1
            continue
        word = c.isalpha()
        if word:
            digits = 0
            i += 1
            continue
        if c.isdigit() or (c == "_" and digits and toml):
            if c != "_":
                digits += 1
                if digits > max_digits:
                    return LONG_NUMBER, line
            i += 1
            continue
        digits = 0
        if c == "." and toml:
            dots += 1
            if dots >= max_key_parts:
                return LONG_KEY, line
        elif c in "=,\n":
            dots = 0
        elif c in "[{":
            dots = 0
            depth += 1
            if depth > max_depth:
                return DEEP, line
        elif c in "]}":
            dots = 0
            depth = max(0, depth - 1)
        elif toml and c == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif c == '"' or (toml and c == "'"):
            quote = text[i:i + 3] if toml and text[i:i + 3] in ('"""', "'''") else c
            j = i + len(quote)
            while j < n and not text.startswith(quote, j):
                if text[j] == "\\" and quote[0] == '"':
                    j += 1
                elif text[j] == "\n":
                    line += 1
                    if len(quote) == 1:
                        break  # an unclosed one-line string: the parser says so
                j += 1
            i = j + len(quote)
            continue
        i += 1
    return None


# ----------------------------------------------------------------------
# Numbers on the command line: argparse types

_SHOWN_CHARS: Final = 40
_WHOLE: Final = re.compile(r"-?[0-9]{1,30}")  # ASCII digits only: int() would also take "1_000", " 5" or "١٧"
_DECIMAL: Final = re.compile(r"-?(?:[0-9]{1,30}(?:\.[0-9]{0,30})?|\.[0-9]{1,30})(?:[eE][-+]?[0-9]{1,3})?")


def quoted(text: str) -> str:
    """A command-line value as a message shows it: in double quotes, on one line, cut short if long."""
    inner = text.replace("\\", "\\\\").replace('"', '\\"')
    escaped = escape_text(inner[:_SHOWN_CHARS + 1], _SHOWN_CHARS)
    return f'"{escaped}"'


def whole_number(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from `low` to `high`, written in ASCII digits (at most 30 of them,
    when no bounds are given: the command then checks the range itself)."""
    wanted = "a whole number" if low is None or high is None else f"a whole number from {low} to {high}"

    def parse(text: str) -> int:
        value = int(text) if _WHOLE.fullmatch(text) else None
        if value is None or (low is not None and value < low) or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be {wanted}, not {quoted(text)}")
        return value
    return parse


def seconds(low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a finite number of seconds from `low` to `high` (no nan, no inf)."""
    def parse(text: str) -> float:
        value = float(text) if _DECIMAL.fullmatch(text) else None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be a number of seconds from {low:g} to {high:g}, not {quoted(text)}")
        return value
    return parse
