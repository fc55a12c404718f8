"""The phone editor's logic (issue 43): what the editing session's requests do, without aiohttp or Kivy.

`EditorService` lists the rulesets an edition can start from, hands out a ruleset's data, and saves,
downloads and uploads editions through banker/editions.py, whose `save_edition` is the loader
`banker rules FILE` uses: what is saved passes the same validation. ui/phoneserver/editing.py serves it to the phone
that claimed the editing session (its routes run these calls in the loop's executor: saving syncs files).

Everything that comes from the phone is bounded before the engine sees it: the body (MAX_EDIT_BODY), the
names and titles the page edits (MAX_TEXT characters, not empty, no control characters), any other text
(MAX_OTHER_TEXT), the nesting of the data (MAX_DEPTH, the top level counting
one), every list (MAX_ITEMS) and table (MAX_KEYS). A refusal names the field as the engine does
("spaces[24].price", "options.salary", "groups.red.name", "name", "title"; "" for the whole request),
with a message in the table's language where there is one (ui.editor_page.refusal_text, the touchscreen
rename's ui.editions.name_* texts), else the engine's own English problem. A refused request writes nothing.
"""

from __future__ import annotations

import json
import logging
import threading
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from banker import outside
from banker.editions import list_editions, save_edition
from banker.errors import RulesetError
from banker.ruleset import (
    EDITION_SUFFIX,
    MAX_DIGITS,
    MAX_EDITION_NAME,
    MAX_FILE_BYTES,
    builtin_names,
    edition_name_problem,
    editions_dir,
    is_edition_file,
    load_edition,
    load_ruleset,
    parse_text,
    ruleset_from_data,
)
from ui import editor_page
from ui.i18n import Translator, msg

log = logging.getLogger(__name__)

MAX_EDIT_BODY = 256 * 1024  # bytes of a save's JSON or an upload's TOML
MAX_TEXT = 60  # characters of a name or title the page edits (title, spaces[].name, groups.*.name)
MAX_OTHER_TEXT = 1000  # characters of any other text in the data (a description, a card's text)
MAX_KEY_TEXT = 64  # characters of a table's key
MAX_DEPTH = 6  # tables and lists inside one another, the top level counting one
MAX_ITEMS = 64  # entries of a list
MAX_KEYS = 128  # keys of a table
SOURCE = "the edition"  # what the engine's refusals call the data


class EditorRefusal(Exception):
    """A request the editor refuses, with the fields it names: `errors` is [{"field", "message"}]."""

    def __init__(self, errors: list[dict[str, str]]) -> None:
        super().__init__("; ".join(f"{e['field'] or '-'}: {e['message']}" for e in errors))
        self.errors = errors

    def result(self) -> dict[str, Any]:
        """The refusal as the API answers it."""
        return {"ok": False, "errors": self.errors}


class EditorService:
    """The editor's calls for one table: `tr` says the refusals in the table's language; `folder` is the
    editions folder (None: banker.ruleset.editions_dir(), looked up at each call)."""

    def __init__(self, folder: Path | None = None, tr: Translator | None = None) -> None:
        self.folder = folder
        self.tr = tr if tr is not None else Translator("en")
        self._lock = threading.Lock()  # one save at a time: the name is checked and written together

    @property
    def language(self) -> str:
        return self.tr.language

    @staticmethod
    def limits() -> dict[str, int]:
        """The bounds the page may tell its user about."""
        return {"body": MAX_EDIT_BODY, "text": MAX_TEXT, "name": MAX_EDITION_NAME, "other_text": MAX_OTHER_TEXT,
                "depth": MAX_DEPTH, "items": MAX_ITEMS}

    # ------------------------------------------------------------------ reading

    def sources(self) -> list[dict[str, str]]:
        """Every shipped ruleset, then every playable edition: {"name", "title", "kind"}."""
        found = [{"name": name, "title": load_ruleset(name, editions=False).title, "kind": "shipped"}
                 for name in builtin_names()]
        found += [{"name": e.name, "title": e.title, "kind": "edition"}
                  for e in list_editions(self.folder) if e.problem is None]
        return found

    def ruleset(self, name: object) -> dict[str, Any]:
        """{"data": the ruleset's merged data (loadable alone), "original": the edition's name or None}."""
        if isinstance(name, str) and name in builtin_names():
            return {"data": load_ruleset(name, editions=False).source_data(), "original": None}
        if (not isinstance(name, str) or edition_name_problem(name) is not None
                or not is_edition_file(name, self.folder)):
            raise self._refused("name", "no ruleset or edition of that name")
        try:
            ruleset = load_edition(name, self.folder)
        except RulesetError as exc:
            raise EditorRefusal([self._error("name", exc)]) from None
        return {"data": ruleset.source_data(), "original": name}

    def download(self, name: object) -> tuple[str, bytes]:
        """The edition's file as stored: ("NAME.toml", its bytes)."""
        if (not isinstance(name, str) or edition_name_problem(name) is not None
                or not is_edition_file(name, self.folder)):
            raise self._refused("name", "no edition of that name")
        path = self._folder() / f"{name}{EDITION_SUFFIX}"
        try:
            text = outside.read_text_file(path, MAX_FILE_BYTES)
        except (OSError, ValueError) as exc:
            problem = getattr(exc, "strerror", None) or type(exc).__name__
            raise self._refused("name", f"cannot read the file ({problem})") from None
        return f"{name}{EDITION_SUFFIX}", text.encode("utf-8")

    # ------------------------------------------------------------------ writing

    def save_body(self, body: bytes) -> dict[str, Any]:
        """`save` of a request's JSON body (bounded and parsed here)."""
        try:
            payload = json.loads(self._text(body, toml=False), parse_constant=_no_constant)
        except EditorRefusal as exc:
            return exc.result()
        except (ValueError, RecursionError) as exc:
            return self._refusal("", RulesetError(SOURCE, "", f"not valid JSON: {_short(exc)}"))
        return self.save(payload)

    def save(self, payload: object) -> dict[str, Any]:
        """Save `{"data": {...}, "original": str|None, "replace": bool}` as the edition its data names.

        {"ok": true, "name", "title"}, or {"ok": false, "errors": [{"field", "message"}]} (nothing written).
        A name that is another existing edition than `original` is refused unless `replace`."""
        try:
            if not isinstance(payload, Mapping):
                raise self._refused("", "must be a table with data, original and replace")
            data = payload.get("data")
            original = payload.get("original")
            replace = payload.get("replace", False)
            if not isinstance(data, Mapping):
                raise self._refused("", "the data must be a table of keys")
            if original is not None and not isinstance(original, str):
                raise self._refused("original", f"must be text or null, not {_type(original)}")
            if not isinstance(replace, bool):
                raise self._refused("replace", f"must be true or false, not {_type(replace)}")
            self._bound(data)
        except EditorRefusal as exc:
            return exc.result()
        return self._write(data, data.get("name"), original, replace)

    def upload(self, text: object, replace: bool = False) -> dict[str, Any]:
        """Save an edition's TOML file (its text), as `save` saves data; an existing edition of its name is
        replaced only with `replace`."""
        try:
            if not isinstance(text, str):
                raise self._refused("", f"must be the text of a TOML file, not {_type(text)}")
            if len(text.encode("utf-8", "surrogatepass")) > MAX_EDIT_BODY:
                raise self._refused("", f"the file is larger than {MAX_EDIT_BODY} bytes")
            try:
                data = parse_text(text, SOURCE, toml=True)
            except RulesetError as exc:
                raise EditorRefusal([self._error(exc.key, exc)]) from None
            except (ValueError, RecursionError) as exc:
                raise self._refused("", f"not valid TOML: {_short(exc)}") from None
            self._bound(data)
        except EditorRefusal as exc:
            return exc.result()
        return self._write(text, data.get("name"), None, replace)

    def upload_body(self, body: bytes, replace: bool = False) -> dict[str, Any]:
        """`upload` of a request's body (UTF-8 text)."""
        try:
            text = self._text(body, toml=True)
        except EditorRefusal as exc:
            return exc.result()
        return self.upload(text, replace)

    # ------------------------------------------------------------------ inside

    def _write(self, data: Mapping[str, Any] | str, name: object, original: str | None,
               replace: bool) -> dict[str, Any]:
        with self._lock:
            errors = self._name_errors(name, original, replace)
            if errors:  # the data's own refusal too, if it has one, so the page can show both at once
                try:
                    ruleset_from_data(parse_text(data, SOURCE, toml=True) if isinstance(data, str) else data, SOURCE)
                except RulesetError as exc:
                    if exc.key != "name":
                        errors.append(self._error(exc.key, exc))
                return {"ok": False, "errors": errors}
            try:
                edition = save_edition(data, self.folder)
            except RulesetError as exc:
                return {"ok": False, "errors": [self._error(exc.key, exc)]}
        return {"ok": True, "name": edition.name, "title": edition.title}

    def _name_errors(self, name: object, original: str | None, replace: bool) -> list[dict[str, str]]:
        """The refusal of the edition's name, in the touchscreen rename's words (an empty list: none): its rules
        (banker.ruleset.edition_name_problem), then another edition's name unless replacing it or saving it again."""
        problem = edition_name_problem(name)
        if problem is not None:  # said as the page says the engine's refusals of a name (ui/editor_page.py)
            return [self._error("name", RulesetError(SOURCE, "name", problem))]
        assert isinstance(name, str)
        if name != original and not replace and is_edition_file(name, self.folder):
            return [{"field": "name", "message": self.tr.render(msg("ui.editions.name_taken", name=name))}]
        return []

    def _bound(self, data: Mapping[str, Any]) -> None:
        """Refuse data past the editor's bounds (see the module's docstring), naming the first field."""
        stack: list[tuple[str, Any, int]] = [("", data, 1)]
        while stack:
            path, value, depth = stack.pop()
            if isinstance(value, (Mapping, list)):
                if depth > MAX_DEPTH:
                    raise self._refused(path, f"nested more than {MAX_DEPTH} levels deep")
                if isinstance(value, Mapping):
                    if len(value) > MAX_KEYS:
                        raise self._refused(path, f"must have at most {MAX_KEYS} keys, not {len(value)}")
                    for key, item in value.items():
                        if not isinstance(key, str) or len(key) > MAX_KEY_TEXT:
                            raise self._refused(path, f"a key must be text of at most {MAX_KEY_TEXT} characters")
                        stack.append((f"{path}.{key}" if path else key, item, depth + 1))
                else:
                    if len(value) > MAX_ITEMS:
                        raise self._refused(path, f"must have at most {MAX_ITEMS} items, not {len(value)}")
                    stack.extend((f"{path}[{k}]", item, depth + 1) for k, item in enumerate(value))
            elif isinstance(value, str):
                if _edited_text(path):
                    if not value.strip():
                        raise self._refused(path, "must not be empty")
                    if len(value) > MAX_TEXT:
                        raise self._refused(path, f"must be at most {MAX_TEXT} characters, not {len(value)}")
                    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in value):
                        raise self._refused(path, "must not hold control characters")
                elif len(value) > MAX_OTHER_TEXT:
                    raise self._refused(path, f"must be at most {MAX_OTHER_TEXT} characters, not {len(value)}")

    def _text(self, body: bytes, toml: bool) -> str:
        """A request's body as text, within the bounds, scanned before any parser sees it."""
        if len(body) > MAX_EDIT_BODY:
            raise self._refused("", f"the request is larger than {MAX_EDIT_BODY} bytes")
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise self._refused("", f"not UTF-8 text (byte 0x{body[exc.start]:02x} at offset {exc.start})") from None
        found = outside.scan_document(text, toml=toml, max_depth=MAX_DEPTH + 1, max_digits=MAX_DIGITS,
                                      max_key_parts=MAX_DEPTH + 1)
        if found is not None:
            what, line = found
            raise self._refused(f"line {line}", {outside.DEEP: f"nested more than {MAX_DEPTH} levels deep",
                                                 outside.LONG_NUMBER: f"a number of more than {MAX_DIGITS} digits",
                                                 outside.LONG_KEY: "a dotted key of too many parts"}[what])
        return text

    def _folder(self) -> Path:
        return editions_dir() if self.folder is None else Path(self.folder)

    def _refused(self, field: str, problem: str) -> EditorRefusal:
        return EditorRefusal([self._error(field, RulesetError(SOURCE, field, problem))])

    def _refusal(self, field: str, error: RulesetError) -> dict[str, Any]:
        return {"ok": False, "errors": [self._error(field, error)]}

    def _error(self, field: str, error: RulesetError) -> dict[str, str]:
        """One refusal as the API says it: the field and the message in the table's language, if we have one."""
        return {"field": field, "message": self._message(error)}

    def _message(self, error: RulesetError) -> str:
        try:
            text = editor_page.refusal_text(self.tr, error)
        except Exception:  # the page's wording failed: the engine's words still say why
            log.exception("refusal_text failed for %s", error.key)
            return error.problem
        return text or error.problem


def _edited_text(path: str) -> bool:
    """Whether `path` is a name or title the page edits (bounded to MAX_TEXT, not empty)."""
    if path == "title":
        return True
    if path.startswith("spaces[") and path.endswith("].name") and path[7:-6].isdigit():
        return True
    parts = path.split(".")
    return len(parts) == 3 and parts[0] == "groups" and parts[2] == "name"


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON allows")


def _type(value: object) -> str:
    return "null" if value is None else type(value).__name__


def _short(exc: BaseException) -> str:
    return outside.escape_text(str(exc) or type(exc).__name__, 200)


__all__ = ["EditorRefusal", "EditorService", "MAX_DEPTH", "MAX_EDIT_BODY", "MAX_ITEMS", "MAX_TEXT"]
