"""The family's own editions: ruleset files kept in the data folder, named by their `name` field.

An edition is a ruleset file of the format `banker rules FILE` reads (docs/rulesets.md), stored as
``$XDG_DATA_HOME/board-banker/editions/NAME.toml`` (XDG_DATA_HOME defaulting to ~/.local/share). Its
name is lower-case ASCII letters, digits and hyphens, starts with a letter or a digit, is at most
MAX_NAME_LENGTH characters long, is no shipped ruleset's name, and is the file's stem.

Every function here that touches files is in this module; importing it does no I/O. Saving writes
atomically: a temporary file in the same folder is written, flushed and synced, then renamed onto
NAME.toml and the folder synced, so a pulled plug leaves the old file or the new one, never half of one.
"""

from __future__ import annotations

import logging
import os
import re
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import tomli_w

from banker.errors import RulesetError
from banker.outside import escape_text, valid_text
from banker.ruleset import MAX_FILE_BYTES, Ruleset, builtin_names, parse_text, read_file, ruleset_from_data

MAX_NAME_LENGTH = 40
SUFFIX = ".toml"
_NAME = re.compile(r"[a-z0-9][a-z0-9-]*")
_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Edition:
    """One file of the editions folder: `problem` is None for an edition that loads, else the reason it
    cannot be used, in one sentence (then `title` is the file's title if it could be read, else `name`)."""

    name: str
    title: str
    path: Path
    problem: str | None
    description: str = ""
    # The loader's refusal behind `problem`, when there is one: the key it names and its words, which the app
    # says in the family's language where it has words for it (ui/editor_page.refusal_text).
    key: str = ""
    reason: str = ""


def editions_dir() -> Path:
    """The folder of the family's editions: $XDG_DATA_HOME/board-banker/editions."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "board-banker" / "editions"


def name_problem(name: object) -> str | None:
    """Why `name` cannot name an edition (the rule it breaks), or None when it can."""
    if not isinstance(name, str):
        return f"must be text, not {type(name).__name__}"
    if not name:
        return "must not be empty"
    if len(name) > MAX_NAME_LENGTH:
        return f"must be at most {MAX_NAME_LENGTH} characters, not {len(name)}"
    if not _NAME.fullmatch(name):
        return ("must be lower-case ASCII letters, digits and hyphens, starting with a letter or a digit, "
                f"not '{_printable(name)}'")
    if name in builtin_names():
        return f"{name!r} is the name of a shipped ruleset; an edition needs a name of its own"
    return None


def check_name(name: object, source: str) -> str:
    """`name` if it can name an edition; else RulesetError(source, "name", the rule it breaks)."""
    problem = name_problem(name)
    if problem is not None:
        raise RulesetError(source, "name", problem)
    assert isinstance(name, str)
    return name


def is_edition_file(name: str, folder: Path | None = None) -> bool:
    """Whether `name` is a valid edition name with a file (of any kind, broken or not) in the folder."""
    if name_problem(name) is not None:
        return False
    try:
        return os.path.lexists(_folder(folder) / f"{name}{SUFFIX}")
    except (OSError, ValueError):
        return False


def list_editions(folder: Path | None = None) -> list[Edition]:
    """Every `*.toml` file of the editions folder, sorted by name, each checked by loading it.

    Never raises: a broken file (unreadable, not UTF-8, too big, not valid TOML or not a valid ruleset,
    wrongly named, not a regular file) is listed with its problem; a missing folder holds no editions;
    a folder that cannot be read is listed as no editions, with the reason logged (and given by
    `folder_problem`, which `banker rules` shows). Files of other names (a `.tmp` left by a pulled plug)
    are skipped.
    """
    where = _folder(folder)
    try:
        entries = _toml_names(where)
    except FileNotFoundError:
        return []
    except OSError as exc:
        _log.warning("cannot list the editions in %s (%s)", where, exc.strerror or exc)
        return []
    return sorted((_check_file(where, file_name) for file_name in entries), key=lambda e: e.name)


def folder_problem(folder: Path | None = None) -> str | None:
    """Why the editions folder cannot be listed, in one sentence, or None (also for a missing folder)."""
    where = _folder(folder)
    try:
        _toml_names(where)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot list the editions in {_printable(str(where))} ({exc.strerror or exc})"
    return None


def load_edition(name: str, folder: Path | None = None) -> Ruleset:
    """The edition of this name; RulesetError with the reason when it is missing or broken."""
    check_name(name, f"edition {_printable(name)}")
    path = _folder(folder) / f"{name}{SUFFIX}"
    return _checked(name, path, read_file(path))


def save_edition(data: Mapping[str, Any] | str, folder: Path | None = None) -> Edition:
    """Validate an edition (ruleset data, or the text of a TOML ruleset file) and write it atomically as
    NAME.toml, NAME being its `name` field. A refusal (RulesetError) writes nothing."""
    source = "the edition"
    wanted: Ruleset | None = None
    if isinstance(data, str):
        text = data
    elif isinstance(data, Mapping):
        plain = _plain(data)
        wanted = ruleset_from_data(plain, source)  # the schema's message before any TOML writer sees the data
        try:
            text = tomli_w.dumps(plain)
        except (TypeError, ValueError) as exc:
            raise RulesetError(source, "", f"cannot be written as TOML ({exc})") from None
    else:
        raise RulesetError(source, "", f"must be ruleset data or the text of a TOML file, not {type(data).__name__}")
    if not valid_text(text):
        raise RulesetError(source, "", "not valid text (a lone surrogate)")
    encoded = text.encode("utf-8")
    if len(encoded) > MAX_FILE_BYTES:
        raise RulesetError(source, "", f"the file would be larger than {MAX_FILE_BYTES} bytes (1 MiB), "
                                       f"the most a ruleset file may be")
    ruleset = ruleset_from_data(parse_text(text, source, toml=True), source)
    if wanted is not None and ruleset.to_json() != wanted.to_json():
        raise RulesetError(source, "", "does not read back the same once written as TOML")  # a writer's fault
    name = check_name(ruleset.name, source)
    where = _folder(folder)
    path = where / f"{name}{SUFFIX}"
    _write_atomically(where, path, encoded)
    return Edition(name, ruleset.title, path, None, ruleset.description)


def delete_edition(name: str, folder: Path | None = None) -> None:
    """Remove the edition's file (a broken one too, by the name `list_editions` gives it)."""
    path = _existing_file(name, _folder(folder))
    try:
        path.unlink()
        _sync_folder(path.parent)
    except OSError as exc:
        raise RulesetError(str(path), "", f"cannot delete the file ({exc.strerror or exc})") from None


def rename_edition(name: str, new_name: str, folder: Path | None = None, title: str | None = None) -> Edition:
    """Give an edition a new name (and title, if given): the file is written anew through `save_edition`
    (comments in a hand-written file are not kept), then the old one is removed. Refused whole (nothing
    written) when the edition is broken or the new name is invalid or taken."""
    where = _folder(folder)
    load_edition(name, where)  # a broken edition is not renamed: its reason is the refusal
    if new_name != name:
        check_name(new_name, f"edition {_printable(name)}")
        if os.path.lexists(where / f"{new_name}{SUFFIX}"):
            raise RulesetError(f"edition {name}", "name", f"{new_name!r} is already the name of an edition")
    data = read_file(where / f"{name}{SUFFIX}")
    data["name"] = new_name
    if title is not None:
        data["title"] = title
    saved = save_edition(data, where)
    if new_name != name:
        delete_edition(name, where)
    return saved


# --------------------------------------------------------------------------


def _folder(folder: Path | None) -> Path:
    return editions_dir() if folder is None else Path(folder)


def _toml_names(where: Path) -> list[str]:
    with os.scandir(where) as it:
        return [entry.name for entry in it if entry.name.endswith(SUFFIX) and not entry.name.startswith(".")]


def _checked(name: str, path: Path, data: Mapping[str, Any]) -> Ruleset:
    ruleset = ruleset_from_data(data, str(path))
    if ruleset.name != name:
        raise RulesetError(str(path), "name", f"must be the file's name '{name}', not '{_printable(ruleset.name)}'")
    return ruleset


def _check_file(where: Path, file_name: str) -> Edition:
    """A file of the folder as `list_editions` lists it: read once, then checked as `load_edition` checks."""
    stem = file_name[:-len(SUFFIX)]
    shown = _printable(stem)
    path = where / file_name
    bad_name = name_problem(stem)
    if bad_name is not None:
        return Edition(shown, shown, path, _sentence(f"the file's name {bad_name}"))
    title = stem
    try:
        data = read_file(path)
        if isinstance(data.get("title"), str) and valid_text(data["title"]):
            title = data["title"]
        ruleset = _checked(stem, path, data)
    except RulesetError as exc:
        problem = f"{exc.key}: {exc.problem}" if exc.key else exc.problem
        return Edition(stem, title, path, _sentence(problem), key=exc.key, reason=exc.problem)
    return Edition(stem, ruleset.title, path, None, ruleset.description)


def _existing_file(name: str, where: Path) -> Path:
    if (not isinstance(name, str) or not name or "/" in name or "\x00" in name or name.startswith(".")
            or not valid_text(name)):
        raise RulesetError(f"edition {_printable(str(name))}", "name", "no edition of that name")
    path = where / f"{name}{SUFFIX}"
    if not os.path.lexists(path):
        raise RulesetError(f"edition {_printable(name)}", "", f"no edition of that name in {where}")
    if path.is_dir() and not path.is_symlink():
        raise RulesetError(str(path), "", "is a folder, not an edition's file; it was not deleted")
    return path


def _write_atomically(where: Path, path: Path, data: bytes) -> None:
    try:
        where.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=where, prefix=f".{path.stem}.", suffix=".tmp")
    except OSError as exc:
        raise RulesetError(str(path), "", f"cannot write the file ({exc.strerror or exc})") from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fchmod(out.fileno(), 0o644)
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException as exc:
        try:
            os.unlink(temp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise RulesetError(str(path), "", f"cannot write the file ({exc.strerror or exc})") from None
        raise
    _sync_folder(where)


def _sync_folder(where: Path) -> None:
    """Make a rename or removal in `where` durable (where the system can sync a folder)."""
    try:
        fd = os.open(where, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _plain(value: Any) -> Any:
    """Ruleset data as the dicts and lists a TOML writer takes (a Mapping or tuple from the caller too)."""
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def _printable(text: str) -> str:
    """A name as a message or a listing shows it: control characters and undecodable bytes escaped."""
    return escape_text(text)


def _sentence(problem: str) -> str:
    return problem if problem.endswith(".") else problem + "."
