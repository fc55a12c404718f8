"""The family's tagged cards: which sticker is on which title deed and on which card of a deck, per physical
set, kept in `tags.json` in the app's data folder (beside the settings and the games).

A physical set is what one box holds: a shipped ruleset with its board and decks, shared by the forms that
extend it (classic's short and timed games play with classic's cards: set "classic"; the brands modes with
brands' board: set "brands", where showdown's own 21st card is one more card), or one of the family's
editions ("edition:NAME"). A deed is keyed by its space's index and a card by its deck and id, so renaming a
property in the phone editor keeps its sticker.

A sticker is one card at most, in every set: tagging it again for another card is refused by name
(`TagsError`), and so is tagging a player's card. The file is written atomically (banker/files.py's
`write_atomically`: a temporary file, fsync, `os.replace`, the folder fsync'ed), and only what reads back: a
tag the file could not hold is refused before anything is written. A file that cannot be read is never
overwritten: the store says why (`problem`), holds no tags, and the first tag the family makes keeps the bad
file under a name of its own (`tags.json.damaged`, then `tags.json.damaged-2`, ...), so nothing on disk is
lost. The file is read as anything from outside is (banker/outside.py): a regular file of at most
MAX_FILE_BYTES, scanned for deep nesting and long numbers before JSON parses it, a key given twice and NaN
refused. `banker tags` lists, exports and imports the file (ui/tagscli.py); its format is in docs/hardware.md
("Tagged deeds and cards"). No Kivy here.
"""

from __future__ import annotations

import functools
import itertools
import json
import logging
import os
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from banker import outside
from banker.errors import RulesetError
from banker.ruleset import Ruleset, builtin_family, builtin_names, edition_name_problem, load_edition, load_ruleset
from ui.drafts import write_atomically

log = logging.getLogger(__name__)

FORMAT = "board-banker-tags"
VERSION = 1
TAGS_NAME = "tags.json"
EDITION_PREFIX = "edition:"
MAX_FILE_BYTES = 1 << 20  # a full house of sets is a few tens of KiB
UID_LONGEST = 64  # as a player's card's (ui/flows/draft.py's CARD_LONGEST): hex of 4, 7 or 10 bytes, or digits
NAME_LONGEST = 80  # a set's, deck's or card's key
MAX_NESTING = 8  # the document is four objects deep; more is no tags file
MAX_DIGITS = 18  # a number written with more digits is no space's index or version
SHOWN_LONGEST = 60  # characters of a value from the file quoted in a message


class TagsError(ValueError):
    """A tag refused, or a tags file that cannot be taken: one sentence that says why."""


@dataclass(frozen=True, slots=True)
class Tagged:
    """What a sticker is: a title deed (`space`) or a deck's card (`deck`, `card`) of the physical set `set`."""

    set: str
    kind: str  # "deed" | "card"
    space: int = -1
    deck: str = ""
    card: str = ""

    def to_doc(self) -> dict[str, Any]:
        return {"deed": self.space} if self.kind == "deed" else {"deck": self.deck, "card": self.card}


def tags_path(settings_file: Path) -> Path:
    """The tags' file: beside the app's settings file, in the app's data folder."""
    return settings_file.with_name(TAGS_NAME)


@functools.cache
def _families() -> dict[str, str]:
    """Each shipped ruleset's set ({"classic-short": "classic", ...}): read once, as the shipped files never change."""
    return {name: builtin_family(name) for name in builtin_names()}


def set_key(rules: str) -> str:
    """The physical set a game of `rules` (a shipped ruleset's name or an edition's) plays with."""
    return _families().get(rules, EDITION_PREFIX + rules)


def set_problem(key: object) -> str | None:
    """Why `key` cannot name a set (the rule it breaks), or None: a shipped ruleset that extends none (the
    set of its family) or "edition:" and an edition's name."""
    problem = _key_problem(key, "a set's name")
    if problem is not None:
        return problem
    assert isinstance(key, str)
    if key.startswith(EDITION_PREFIX):
        problem = edition_name_problem(key[len(EDITION_PREFIX):])
        return None if problem is None else f"set {_shown(key)}: the edition's name {problem}"
    family = _families().get(key)
    if family is None:
        return f"set {_shown(key)}: not a shipped ruleset (or \"{EDITION_PREFIX}NAME\" for an edition)"
    if family != key:
        return f"set {_shown(key)}: {key}'s games play with the set {family!r}"
    return None


def set_rulesets(key: str) -> list[Ruleset]:
    """The rulesets whose games play with the set `key`: every shipped one of its family (the set's own first),
    or its edition, read anew; TagsError when the edition does not load (missing or broken)."""
    if key.startswith(EDITION_PREFIX):
        try:
            return [load_edition(key[len(EDITION_PREFIX):])]
        except (RulesetError, OSError) as exc:
            raise TagsError(f"set {_shown(key)}: the edition does not load ({outside.escape_text(str(exc), 200)})"
                            ) from None
    return [load_ruleset(name) for name, family in sorted(_families().items(), key=lambda nf: nf[0] != key)
            if family == key]


def set_catalogue(key: str, rulesets: Sequence[Ruleset] | None = None) -> list[Tagged]:
    """Everything of the set `key` there is to tag, whichever of its games is played: `set_items` of each of its
    rulesets (`rulesets`, else `set_rulesets`: brands' deck with showdown's own card), deeds first; TagsError as
    `set_rulesets`."""
    found = dict.fromkeys(it for ruleset in (set_rulesets(key) if rulesets is None else rulesets)
                          for it in set_items(ruleset, key))
    return sorted(found, key=lambda it: it.kind != "deed")  # stable: board order, then deck by deck


def set_items(ruleset: Ruleset, key: str) -> list[Tagged]:
    """What there is to tag in `ruleset`'s set `key`, in the order the tagging screen shows it: every title deed
    in board order, then every card of each deck, deck by deck."""
    out = [Tagged(key, "deed", space=i) for i in ruleset.property_indices]
    for deck, cards in ruleset.deck_cards.items():
        out.extend(Tagged(key, "card", deck=deck, card=card) for card in cards)
    return out


def uid_problem(uid: object) -> str | None:
    """Why `uid` cannot be a sticker's number (as a reader gives it), or None."""
    if not isinstance(uid, str) or not 0 < len(uid) <= UID_LONGEST:
        return f"a sticker's number must be text of 1 to {UID_LONGEST} characters"
    if not uid.isprintable() or any(c.isspace() for c in uid):
        return "a sticker's number may hold only printable characters, no spaces"
    return None


def _key_problem(value: object, what: str) -> str | None:
    if not isinstance(value, str) or not 0 < len(value) <= NAME_LONGEST or not value.isprintable():
        return f"{what} must be printable text of 1 to {NAME_LONGEST} characters, not {_shown(value)}"
    return None


def _shown(value: object) -> str:
    """A value from the file as a message quotes it: on one line, printable, cut short."""
    return outside.escape_text(repr(value), SHOWN_LONGEST)


def parse_document(doc: object) -> dict[str, dict[str, Tagged]]:
    """A tags document (as `TagStore.document` makes it) as {set: {uid: Tagged}}; TagsError naming the first
    thing wrong: the format, a set's name, a sticker's number, an entry, or a sticker given twice."""
    if not isinstance(doc, Mapping):
        raise TagsError("the file is not a JSON object")
    if "format" not in doc:
        raise TagsError(f'"format" is missing: a tags file is {{"format": "{FORMAT}", "version": {VERSION}, '
                        '"sets": {...}}')
    if doc.get("format") != FORMAT:
        raise TagsError(f'"format" must be "{FORMAT}", not {_shown(doc.get("format"))}')
    if doc.get("version") != VERSION or isinstance(doc.get("version"), bool):
        raise TagsError(f'"version" must be {VERSION}, not {_shown(doc.get("version"))}')
    unknown = sorted(set(doc) - {"format", "version", "sets"}, key=str)
    if unknown:
        raise TagsError(f"unknown key {_shown(unknown[0])} (a tags file has format, version and sets)")
    sets = doc.get("sets", {})
    if not isinstance(sets, Mapping):
        raise TagsError('"sets" must be an object of sets')
    out: dict[str, dict[str, Tagged]] = {}
    seen: dict[str, str] = {}  # sticker -> its set
    for key, entries in sets.items():
        problem = set_problem(key)
        if problem is not None:
            raise TagsError(problem)
        if not isinstance(entries, Mapping):
            raise TagsError(f"set {key!r}: must be an object of stickers")
        tags: dict[str, Tagged] = {}
        items: dict[Tagged, str] = {}
        for uid, entry in entries.items():
            problem = uid_problem(uid)
            if problem is not None:
                raise TagsError(f"set {key!r}, sticker {_shown(uid)}: {problem}")
            if uid in seen:
                raise TagsError(f"sticker {uid} is in set {seen[uid]!r} and in set {key!r}")
            item = _entry(key, uid, entry)
            if item in items:
                raise TagsError(f"set {key!r}: stickers {items[item]} and {uid} are on one card")
            tags[uid], items[item], seen[uid] = item, uid, key
        out[key] = tags
    return out


def _entry(key: str, uid: str, entry: object) -> Tagged:
    where = f"set {key!r}, sticker {uid}"
    if not isinstance(entry, Mapping):
        raise TagsError(f"{where}: must be {{\"deed\": INDEX}} or {{\"deck\": DECK, \"card\": ID}}")
    if set(entry) == {"deed"}:
        space = entry["deed"]
        if not isinstance(space, int) or isinstance(space, bool) or not 0 <= space < 1000:
            raise TagsError(f"{where}: \"deed\" must be a space's index, a whole number from 0 to 999, not "
                            f"{_shown(space)}")
        return Tagged(key, "deed", space=space)
    if set(entry) == {"deck", "card"}:
        for field in ("deck", "card"):
            problem = _key_problem(entry[field], f'"{field}"')
            if problem is not None:
                raise TagsError(f"{where}: {problem}")
        return Tagged(key, "card", deck=entry["deck"], card=entry["card"])
    raise TagsError(f"{where}: must be {{\"deed\": INDEX}} or {{\"deck\": DECK, \"card\": ID}}")


def read_bytes(path: Path) -> bytes:
    """The bytes of the file at `path`, read as banker/outside.py reads any file from outside (never waiting on
    a FIFO or reading a device without end); FileNotFoundError when there is none, else TagsError saying why
    it cannot be read."""
    try:
        return outside.read_regular_file(path, MAX_FILE_BYTES)
    except FileNotFoundError:
        raise
    except outside.NotRegularFile as exc:
        kind = outside.file_kind(exc.mode, folder="is a folder", other="is not a file")
        raise TagsError(f"{kind}, not a regular file") from None
    except outside.FileTooLarge:
        raise TagsError(f"larger than {MAX_FILE_BYTES} bytes, the most a tags file may be") from None
    except PermissionError:
        raise TagsError("cannot be read (permission denied)") from None
    except OSError as exc:
        raise TagsError(f"cannot be read ({exc.strerror or exc})") from None
    except ValueError:  # a NUL or a lone surrogate in the name
        raise TagsError("the file's name cannot be used (it holds a NUL or a character that is not text)") from None


def decode_document(data: bytes) -> object:
    """The JSON document in `data`; TagsError when it is not UTF-8 JSON of a tags file's shape: nested deeper
    than MAX_NESTING, a number of more than MAX_DIGITS digits, NaN or Infinity, a key given twice in one object
    (a sticker or a set written twice: which one would count?)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TagsError(f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})") from None
    found = outside.scan_document(text, toml=False, max_depth=MAX_NESTING, max_digits=MAX_DIGITS,
                                  max_key_parts=MAX_NESTING)
    if found is not None:
        what, line = found
        raise TagsError(f"line {line}: " + (f"nested more than {MAX_NESTING} levels deep" if what == outside.DEEP
                                            else f"a number written with more than {MAX_DIGITS} digits"))
    try:
        return json.loads(text, object_pairs_hook=_object, parse_constant=_constant)
    except TagsError:
        raise
    except json.JSONDecodeError as exc:
        raise TagsError(f"not JSON: {exc}") from None
    except (ValueError, RecursionError) as exc:  # the scan above leaves none, but never a traceback
        raise TagsError(f"not JSON: {outside.escape_text(str(exc), 200)}") from None


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise TagsError(f"the key {_shown(key)} is given twice in one object")
        out[key] = value
    return out


def _constant(name: str) -> Any:
    raise TagsError(f"{name} is no number a tags file holds")


def read_document(path: Path) -> dict[str, dict[str, Tagged]]:
    """The tags in the file at `path` ({} when there is none); TagsError when it cannot be taken."""
    try:
        data = read_bytes(path)
    except FileNotFoundError:
        return {}
    return parse_document(decode_document(data))


class TagStore:
    """The tags of every set, read from `path` at the start (None: kept in memory only, as in the flows' tests)
    and written there whole after each change."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.problem: str | None = None  # why the file on disk could not be taken (it is kept, unread)
        self.kept: Path | None = None  # where that file was kept when the first change replaced it
        self.sets: dict[str, dict[str, Tagged]] = {}
        self._where: dict[str, Tagged] = {}
        if path is not None:
            try:
                self.sets = read_document(path)
            except TagsError as exc:
                self.problem = str(exc)
                log.warning("%s: %s; no tags are read from it, and it is kept", path, exc)
        self._index()

    def _index(self) -> None:
        self._where = {uid: item for tags in self.sets.values() for uid, item in tags.items()}

    # ------------------------------------------------------------------ reading

    def lookup(self, uid: str) -> Tagged | None:
        """What the sticker `uid` is, in any set, or None."""
        return self._where.get(uid)

    def uid_of(self, item: Tagged) -> str | None:
        """The sticker on `item`, or None."""
        return next((uid for uid, it in self.sets.get(item.set, {}).items() if it == item), None)

    def count(self, items: Iterable[Tagged]) -> int:
        """How many of `items` have a sticker."""
        tagged = {it for tags in self.sets.values() for it in tags.values()}
        return sum(1 for it in items if it in tagged)

    def entries(self) -> Iterator[tuple[str, str, Tagged]]:
        """(set, sticker, what it is) of every tag, sets and stickers in order."""
        for key in sorted(self.sets):
            for uid in sorted(self.sets[key]):
                yield key, uid, self.sets[key][uid]

    def document(self) -> dict[str, Any]:
        """The tags as a JSON document (the file's, `banker tags export`'s)."""
        return _document(self.sets)

    # ------------------------------------------------------------------ changing

    def assign(self, uid: str, item: Tagged) -> None:
        """Put sticker `uid` on `item` (a sticker it had before comes off: a lost card's replacement); TagsError
        when `uid` is not a sticker's number or is already another card (`lookup` says which), OSError when the
        file cannot be written (then nothing changed)."""
        problem = uid_problem(uid)
        if problem is not None:
            raise TagsError(problem)
        parse_document(_document({item.set: {uid: item}}))  # an item the file could not hold is refused here
        held = self.lookup(uid)
        if held is not None and held != item:
            raise TagsError(f"sticker {uid} is already another card")
        tags = {u: it for u, it in self.sets.get(item.set, {}).items() if it != item}
        tags[uid] = item
        self._replace({**self.sets, item.set: tags})

    def forget(self, item: Tagged) -> None:
        """Take the sticker off `item` (nothing when it has none)."""
        tags = {u: it for u, it in self.sets.get(item.set, {}).items() if it != item}
        if tags != self.sets.get(item.set, {}):
            self._replace({**self.sets, item.set: tags})

    def rename_set(self, old: str, new: str) -> None:
        """An edition renamed: its stickers follow it (`old` and `new` are set keys; nothing when `old` has none)."""
        if old != new and self.sets.get(old):
            sets = {key: tags for key, tags in self.sets.items() if key not in (old, new)}
            sets[new] = {uid: Tagged(new, it.kind, it.space, it.deck, it.card) for uid, it in self.sets[old].items()}
            self._replace(sets)

    def import_document(self, doc: object, known: Callable[[str], Collection[Tagged]] | None = None) -> int:
        """Take every set of `doc` in place of the same set here (sets it does not name stay), all or nothing:
        TagsError (nothing changed) for a bad document or a sticker that would then be on two cards; returns
        how many stickers came in. With `known` (a set's items: `set_catalogue`), a sticker new here or on
        another item than here must be on an item of its set (a sticker the store holds as it is stays
        unchecked: it came from tagging, and the tool's own export always imports back)."""
        incoming = parse_document(doc)
        if known is not None:
            for key, tags in incoming.items():
                here = self.sets.get(key, {})
                fresh = sorted((uid, item) for uid, item in tags.items() if here.get(uid) != item)
                items = frozenset(known(key) if fresh else ())
                for uid, item in fresh:
                    if item not in items:
                        raise TagsError(f"set {_shown(key)}, sticker {uid}: {_unknown(item, items)}")
        merged = {**self.sets, **incoming}
        seen: dict[str, str] = {}
        for key, tags in merged.items():
            for uid in tags:
                if uid in seen:
                    raise TagsError(f"sticker {uid} would be in set {seen[uid]!r} and in set {key!r}")
                seen[uid] = key
        self._replace(merged)
        return sum(len(tags) for tags in incoming.values())

    def _replace(self, sets: dict[str, dict[str, Tagged]]) -> None:
        sets = {key: tags for key, tags in sets.items() if tags}
        if self.path is not None:
            text = json.dumps(_document(sets), ensure_ascii=False, indent=1, sort_keys=True) + "\n"
            if len(text.encode("utf-8")) > MAX_FILE_BYTES:  # it would not read back
                raise TagsError(f"the tags would take more than {MAX_FILE_BYTES} bytes, the most a tags file may be")
            linked = self._keep_damaged() if self.problem is not None else None
            try:
                write_atomically(self.path, text)
            except BaseException:
                if linked is not None:  # the damaged file is still in its place: one name for it is enough
                    linked.unlink(missing_ok=True)
                    self.kept = None
                raise
            self.problem = None
        self.sets = sets
        self._index()

    def _keep_damaged(self) -> Path | None:
        """Keep the unreadable file under a name no earlier one has (`tags.json.damaged`, `...damaged-2`, ...)
        before the new file replaces it: a second name (a hard link), so that the file also stays in its place
        should the write fail (that name is returned, to take back then), or moved there when it cannot be
        linked (a folder, a file system without hard links)."""
        assert self.path is not None
        if not os.path.lexists(self.path):
            return None
        base = self.path.name + ".damaged"
        for n in itertools.count(1):
            aside = self.path.with_name(base if n == 1 else f"{base}-{n}")
            if not os.path.lexists(aside):
                break
        log.warning("%s: kept as %s, unread (%s)", self.path, aside.name, self.problem)
        self.kept = aside
        try:
            os.link(self.path, aside, follow_symlinks=False)
            return aside
        except OSError:
            os.replace(self.path, aside)
            return None


def _unknown(item: Tagged, items: Collection[Tagged]) -> str:
    """Why `item` is none of `items`, its set's: in words."""
    if item.kind == "deed":
        return f"space {item.space} is no title deed of this set"
    if not any(it.deck == item.deck for it in items):
        return f"this set has no deck {_shown(item.deck)}"
    return f"the deck {_shown(item.deck)} has no card {_shown(item.card)}"


def _document(sets: Mapping[str, Mapping[str, Tagged]]) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION,
            "sets": {key: {uid: item.to_doc() for uid, item in sorted(tags.items())}
                     for key, tags in sorted(sets.items())}}


__all__ = ["EDITION_PREFIX", "FORMAT", "TAGS_NAME", "TagStore", "Tagged", "TagsError", "VERSION", "decode_document",
           "parse_document", "read_bytes", "read_document", "set_catalogue", "set_items", "set_key", "set_problem",
           "set_rulesets", "tags_path", "uid_problem"]
