"""The family's own editions: ruleset files kept in the data folder, named by their `name` field.

An edition is a ruleset file of the format `banker rules FILE` reads (docs/rulesets.md), stored as
``$XDG_DATA_HOME/board-banker/editions/NAME.toml`` (XDG_DATA_HOME defaulting to ~/.local/share). Its
name is lower-case ASCII letters, digits and hyphens, starts with a letter or a digit, is at most
MAX_EDITION_NAME characters long, is no shipped ruleset's name, and is the file's stem.

Finding an edition by its name is banker/ruleset.py's, as `load_ruleset` finds any ruleset by name:
`editions_dir`, `is_edition_file`, `load_edition`, `edition_name_problem` (the rule above) and
`edition_from_data` live there, below this module. Listing, saving, renaming and deleting editions is
this module's; every function that touches the folder is in one of the two, and importing either does
no I/O. Saving writes atomically (banker/files.py's `write_atomically`: a temporary file in the same folder
written, flushed and synced, then renamed onto NAME.toml and the folder synced), so a pulled plug leaves the
old file or the new one, never half of one, and the next save of NAME removes a temporary file a cut left.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomli_w

from banker.errors import RulesetError
from banker.files import sync_folder, write_atomically
from banker.outside import escape_text, valid_text
from banker.ruleset import (
    EDITION_SUFFIX,
    MAX_FILE_BYTES,
    Ruleset,
    check_edition_name,
    edition_from_data,
    edition_name_problem,
    editions_dir,
    load_edition,
    parse_text,
    read_file,
    ruleset_from_data,
)

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
    name = check_edition_name(ruleset.name, source)
    where = _folder(folder)
    path = where / f"{name}{EDITION_SUFFIX}"
    _write_atomically(path, encoded)
    return Edition(name, ruleset.title, path, None, ruleset.description)


def delete_edition(name: str, folder: Path | None = None) -> None:
    """Remove the edition's file (a broken one too, by the name `list_editions` gives it)."""
    path = _existing_file(name, _folder(folder))
    try:
        path.unlink()
        sync_folder(path.parent)
    except OSError as exc:
        raise RulesetError(str(path), "", f"cannot delete the file ({exc.strerror or exc})") from None


def rename_edition(name: str, new_name: str, folder: Path | None = None, title: str | None = None) -> Edition:
    """Give an edition a new name (and title, if given): the file is written anew through `save_edition`
    (comments in a hand-written file are not kept), then the old one is removed. Refused whole (nothing
    written) when the edition is broken or the new name is invalid or taken."""
    where = _folder(folder)
    load_edition(name, where)  # a broken edition is not renamed: its reason is the refusal
    if new_name != name:
        check_edition_name(new_name, f"edition {_printable(name)}")
        if os.path.lexists(where / f"{new_name}{EDITION_SUFFIX}"):
            raise RulesetError(f"edition {name}", "name", f"{new_name!r} is already the name of an edition")
    data = read_file(where / f"{name}{EDITION_SUFFIX}")
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
        return [entry.name for entry in it if entry.name.endswith(EDITION_SUFFIX) and not entry.name.startswith(".")]


def _check_file(where: Path, file_name: str) -> Edition:
    """A file of the folder as `list_editions` lists it: read once, then checked as `load_edition` checks."""
    stem = file_name[:-len(EDITION_SUFFIX)]
    shown = _printable(stem)
    path = where / file_name
    bad_name = edition_name_problem(stem)
    if bad_name is not None:
        return Edition(shown, shown, path, _sentence(f"the file's name {bad_name}"))
    title = stem
    try:
        data = read_file(path)
        if isinstance(data.get("title"), str) and valid_text(data["title"]):
            title = data["title"]
        ruleset = edition_from_data(stem, path, data)
    except RulesetError as exc:
        problem = f"{exc.key}: {exc.problem}" if exc.key else exc.problem
        return Edition(stem, title, path, _sentence(problem), key=exc.key, reason=exc.problem)
    return Edition(stem, ruleset.title, path, None, ruleset.description)


def _existing_file(name: str, where: Path) -> Path:
    if (not isinstance(name, str) or not name or "/" in name or "\x00" in name or name.startswith(".")
            or not valid_text(name)):
        raise RulesetError(f"edition {_printable(str(name))}", "name", "no edition of that name")
    path = where / f"{name}{EDITION_SUFFIX}"
    if not os.path.lexists(path):
        raise RulesetError(f"edition {_printable(name)}", "", f"no edition of that name in {where}")
    if path.is_dir() and not path.is_symlink():
        raise RulesetError(str(path), "", "is a folder, not an edition's file; it was not deleted")
    return path


def _write_atomically(path: Path, data: bytes) -> None:
    try:
        write_atomically(path, data, mode=0o644)
    except OSError as exc:
        raise RulesetError(str(path), "", f"cannot write the file ({exc.strerror or exc})") from None


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
