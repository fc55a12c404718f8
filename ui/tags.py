"""The family's tagged cards: which sticker is on which title deed and on which card of a deck, per physical
set, kept in `tags.json` in the app's data folder (beside the settings and the games).

A physical set is what one box holds: a shipped ruleset with its board and decks, shared by the forms that
extend it (classic's short and timed games play with classic's cards: set "classic"; the brands modes with
brands' board: set "brands", where showdown's own 21st card is one more card), or one of the family's
editions ("edition:NAME"). A deed is keyed by its space's index and a card by its deck and id, so renaming a
property in the phone editor keeps its sticker.

A sticker is one card at most, in every set: tagging it again for another card is refused by name
(`TagsError`), and so is tagging a player's card. The file is written atomically (ui/drafts.py's
`write_atomically`: a temporary file, fsync, `os.replace`, the folder fsync'ed). A file that cannot be read
is never overwritten: the store says why (`problem`), holds no tags, and the first tag the family makes moves
the bad file aside (`tags.json.damaged`), so nothing on disk is lost. `banker tags` lists, exports and imports
the file (ui/tagscli.py); its format is in docs/hardware.md ("Tagged deeds and cards"). No Kivy here.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from banker.ruleset import Ruleset, builtin_family, builtin_names
from ui.drafts import write_atomically

log = logging.getLogger(__name__)

FORMAT = "board-banker-tags"
VERSION = 1
TAGS_NAME = "tags.json"
EDITION_PREFIX = "edition:"
MAX_FILE_BYTES = 1 << 20  # a full house of sets is a few tens of KiB
UID_LONGEST = 64  # as a player's card's (ui/flows/draft.py's CARD_LONGEST): hex of 4, 7 or 10 bytes, or digits
NAME_LONGEST = 80  # a set's, deck's or card's key


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


def set_key(rules: str) -> str:
    """The physical set a game of `rules` (a shipped ruleset's name or an edition's) plays with."""
    return builtin_family(rules) if rules in builtin_names() else EDITION_PREFIX + rules


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
        return "a sticker's number may hold no spaces or control characters"
    return None


def _key_problem(value: object, what: str) -> str | None:
    if not isinstance(value, str) or not 0 < len(value) <= NAME_LONGEST or not value.isprintable():
        return f"{what} must be printable text of 1 to {NAME_LONGEST} characters"
    return None


def parse_document(doc: object) -> dict[str, dict[str, Tagged]]:
    """A tags document (as `TagStore.document` makes it) as {set: {uid: Tagged}}; TagsError naming the first
    thing wrong: the format, a set's name, a sticker's number, an entry, or a sticker given twice."""
    if not isinstance(doc, Mapping):
        raise TagsError("the file is not a JSON object")
    if doc.get("format") != FORMAT:
        raise TagsError(f'"format" must be "{FORMAT}"')
    if doc.get("version") != VERSION:
        raise TagsError(f'"version" must be {VERSION}, not {doc.get("version")!r}')
    unknown = sorted(set(doc) - {"format", "version", "sets"})
    if unknown:
        raise TagsError(f"unknown key {unknown[0]!r}")
    sets = doc.get("sets", {})
    if not isinstance(sets, Mapping):
        raise TagsError('"sets" must be an object of sets')
    out: dict[str, dict[str, Tagged]] = {}
    seen: dict[str, str] = {}  # sticker -> its set
    for key, entries in sets.items():
        problem = _key_problem(key, "a set's name")
        if problem is not None:
            raise TagsError(problem)
        if not key.startswith(EDITION_PREFIX) and key not in builtin_names():
            raise TagsError(f"set {key!r}: not a shipped ruleset (or \"{EDITION_PREFIX}NAME\" for an edition)")
        if not isinstance(entries, Mapping):
            raise TagsError(f"set {key!r}: must be an object of stickers")
        tags: dict[str, Tagged] = {}
        items: dict[Tagged, str] = {}
        for uid, entry in entries.items():
            problem = uid_problem(uid)
            if problem is not None:
                raise TagsError(f"set {key!r}: {problem}")
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
            raise TagsError(f"{where}: \"deed\" must be a space's index, a whole number from 0")
        return Tagged(key, "deed", space=space)
    if set(entry) == {"deck", "card"}:
        for field in ("deck", "card"):
            problem = _key_problem(entry[field], f'"{field}"')
            if problem is not None:
                raise TagsError(f"{where}: {problem}")
        return Tagged(key, "card", deck=entry["deck"], card=entry["card"])
    raise TagsError(f"{where}: must be {{\"deed\": INDEX}} or {{\"deck\": DECK, \"card\": ID}}")


def read_document(path: Path) -> dict[str, dict[str, Tagged]]:
    """The tags in the file at `path` ({} when there is none); TagsError when it cannot be taken."""
    try:
        with path.open("rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise TagsError(f"cannot be read ({exc.strerror or exc})") from None
    if len(data) > MAX_FILE_BYTES:
        raise TagsError(f"larger than {MAX_FILE_BYTES} bytes, the most a tags file may be")
    try:
        doc = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise TagsError("not UTF-8 text") from None
    except (ValueError, RecursionError) as exc:
        raise TagsError(f"not JSON ({exc})") from None
    return parse_document(doc)


class TagStore:
    """The tags of every set, read from `path` at the start (None: kept in memory only, as in the flows' tests)
    and written there whole after each change."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.problem: str | None = None  # why the file on disk could not be taken (it is kept, unread)
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

    def import_document(self, doc: object) -> int:
        """Take every set of `doc` in place of the same set here (sets it does not name stay), all or nothing:
        TagsError (nothing changed) for a bad document or a sticker that would then be on two cards; returns
        how many stickers came in."""
        incoming = parse_document(doc)
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
            if self.problem is not None and self.path.exists():  # the unreadable file is kept, never overwritten
                os.replace(self.path, self.path.with_name(TAGS_NAME + ".damaged"))
                self.problem = None
            write_atomically(self.path, text)
        self.sets = sets
        self._index()


def _document(sets: Mapping[str, Mapping[str, Tagged]]) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION,
            "sets": {key: {uid: item.to_doc() for uid, item in sorted(tags.items())}
                     for key, tags in sorted(sets.items())}}


__all__ = ["EDITION_PREFIX", "FORMAT", "TAGS_NAME", "TagStore", "Tagged", "TagsError", "VERSION", "parse_document",
           "read_document", "set_items", "set_key", "tags_path", "uid_problem"]
