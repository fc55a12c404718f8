"""`banker tags`: the family's tagged deeds and deck cards (ui/tags.py) from the command line.

    banker tags list [--json] [--file PATH]   every tag, set by set, with what it is, and each set's progress
    banker tags export [--file PATH]          the tags file's JSON document on standard output
    banker tags import FILE [--file PATH]     take the sets of FILE ("-": standard input), all or nothing

The tags file is the app's, tags.json in its data folder ($XDG_DATA_HOME/board-banker/, else
~/.local/share/board-banker/), unless --file names another. `import` takes each set the document names in
place of that set (a set given empty clears it; the sets it does not name stay), and refuses the whole
document, changing nothing, for one thing wrong: a file that cannot be read or is no tags document, a
sticker on two cards, or a sticker new to the file on no title deed or card of its set (a space that is no
title deed, a deck or card its rulesets lack; an edition's set needs the edition, which must load). The
tool's own export always imports back. Every refusal is one line on standard error and exit status 1, and so
is a tags file that cannot be read (list, export) or written (import).

The command line does not know the games, so it cannot tell a player's card from a sticker: the app refuses a
player's card when the family tags (Settings -> Tag the cards). The file's format and the list's JSON are in
docs/hardware.md, "Tagged deeds and cards". No Kivy here.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from banker.outside import escape_text
from banker.ruleset import Ruleset
from ui.settings import settings_path
from ui.tags import (
    MAX_FILE_BYTES,
    Tagged,
    TagsError,
    TagStore,
    decode_document,
    read_bytes,
    set_catalogue,
    set_rulesets,
    tags_path,
)


def register(sub: Any) -> None:
    tags = sub.add_parser("tags", help="the family's tagged deeds and cards: list, export, import",
                          description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    tags_sub = tags.add_subparsers(dest="tags_command", metavar="WHAT", required=True)
    listing = tags_sub.add_parser("list", help="every tag, set by set, with what it is, and each set's progress")
    listing.add_argument("--json", action="store_true",
                         help="print it as one JSON document (its fields: docs/hardware.md)")
    export = tags_sub.add_parser("export", help="print the tags file's JSON document")
    load = tags_sub.add_parser("import", help="take the sets of a tags document (as export prints it), all or "
                                              "nothing")
    load.add_argument("source", metavar="FILE", help='the document\'s file, or "-" for standard input')
    for parser in (listing, export, load):
        parser.add_argument("--file", type=tags_file, metavar="PATH",
                            help="the tags file (default: the app's, tags.json in $XDG_DATA_HOME/board-banker/, "
                                 "else in ~/.local/share/board-banker/)")


def tags_file(text: str) -> Path:
    """An argparse type: a path the system can open (no NUL, no character that is not text)."""
    try:
        os.fsencode(text)
    except UnicodeEncodeError:
        raise argparse.ArgumentTypeError("the file name is not valid text (a lone surrogate)") from None
    if "\x00" in text or not text:
        raise argparse.ArgumentTypeError("must be a file's name (not empty, no NUL)")
    return Path(text)


def run(args: argparse.Namespace) -> int:
    path = args.file if args.file is not None else tags_path(settings_path())
    store = TagStore(path)
    if args.tags_command == "import":
        return import_file(store, args.source)
    if store.problem is not None:
        return fail(args.tags_command, f"{shown(path)}: {store.problem}")
    if args.tags_command == "export":
        print(json.dumps(store.document(), ensure_ascii=False, indent=1, sort_keys=True))
        return 0
    report = listing(store)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        print("\n".join(list_lines(report)))
    return 0


def fail(command: str, message: str) -> int:
    print(f"banker tags {command}: {message}", file=sys.stderr)
    return 1


def shown(path: Path | str) -> str:
    """A path as a message shows it: on one line."""
    return escape_text(str(path), 300)


# ----------------------------------------------------------------------
# banker tags import


def import_file(store: TagStore, source: str) -> int:
    """`banker tags import SOURCE`: the document's sets into the store, all or nothing (see the module's doc)."""
    assert store.path is not None
    name = "standard input" if source == "-" else shown(source)
    try:
        doc = decode_document(read_source(source))
        damaged = store.problem
        before = {key: len(tags) for key, tags in store.sets.items()}
        count = store.import_document(doc, known=set_catalogue)
    except FileNotFoundError:
        return fail("import", f"{name}: no such file")
    except TagsError as exc:
        return fail("import", f"{name}: {exc}; nothing was imported")
    except OSError as exc:  # the OSError's own file: the folder, when it cannot be made
        where = f": {exc.filename}" if exc.filename not in (None, str(store.path)) else ""
        return fail("import", f"{shown(store.path)}: cannot be written ({exc.strerror or exc}{shown(where)}); "
                              "nothing changed")
    assert isinstance(doc, dict)
    named = sorted(doc.get("sets", {}))
    if not named:
        print(f"{name} names no set: {shown(store.path)} is unchanged")
        return 0
    words = [f"{key} ({_stickers(len(store.sets.get(key, {})))}, before {before.get(key, 0)})" for key in named]
    print(f"{_stickers(count)} imported into {shown(store.path)}: " + ", ".join(words))
    if damaged is not None and store.kept is not None:
        print(f"The tags file before could not be read ({damaged}); it is kept as {shown(store.kept)}")
    return 0


def read_source(source: str) -> bytes:
    """The bytes of the import's file, or of standard input for "-"; FileNotFoundError, or TagsError saying why
    they cannot be read (so that an OSError after this is the tags file's, being written)."""
    if source != "-":
        return read_bytes(Path(source))
    if sys.stdin is None:  # started with no standard input at all
        raise TagsError("there is none (started without one)")
    try:
        data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise TagsError(f"cannot be read ({exc.strerror or exc})") from None
    if len(data) > MAX_FILE_BYTES:
        raise TagsError(f"larger than {MAX_FILE_BYTES} bytes, the most a tags file may be")
    return data


def _stickers(n: int) -> str:
    return f"{n} sticker" if n == 1 else f"{n} stickers"


# ----------------------------------------------------------------------
# banker tags list


@dataclass(slots=True)
class SetNames:
    """A set as its rulesets say it: what there is to tag (`items`) and each item's words, or why they cannot be
    read (`problem`: an edition that does not load)."""

    key: str
    items: list[Tagged] = field(default_factory=list)
    names: dict[Tagged, tuple[str, str | None]] = field(default_factory=dict)  # item -> (name, deck's name)
    problem: str | None = None


def set_names(key: str) -> SetNames:
    try:
        rulesets = set_rulesets(key)
    except TagsError as exc:
        return SetNames(key, problem=str(exc).removeprefix(f"set {key!r}: "))
    names: dict[Tagged, tuple[str, str | None]] = {}
    for ruleset in reversed(rulesets):  # the set's own ruleset last: its words win
        names.update(_words(ruleset, key))
    return SetNames(key, set_catalogue(key, rulesets), names)


def _words(ruleset: Ruleset, key: str) -> dict[Tagged, tuple[str, str | None]]:
    out: dict[Tagged, tuple[str, str | None]] = {
        Tagged(key, "deed", space=i): (ruleset.spaces[i].name, None) for i in ruleset.property_indices}
    for card in ruleset.cards:
        deck = str(ruleset.decks.get(card.deck, {}).get("name", card.deck))
        out[Tagged(key, "card", deck=card.deck, card=card.id)] = (card.text, deck)
    return out


def listing(store: TagStore) -> dict[str, Any]:
    """`banker tags list --json`: {"file", "sets": [{"set", "problem", "deeds", "deeds_total", "cards",
    "cards_total"}], "tags": [{"set", "sticker", "kind", "space", "deck", "card", "name", "deck_name",
    "known"}]}, sets by name and each set's tags in the order the tagging screen shows them (deeds in board order,
    then deck by deck), those on nothing the set has after them, deeds first, by sticker. Every key is always
    there; a value that does not apply is null (docs/hardware.md)."""
    assert store.path is not None
    sets: list[dict[str, Any]] = []
    tags: list[dict[str, Any]] = []
    for key in sorted(store.sets):
        info = set_names(key)
        order = {item: n for n, item in enumerate(info.items)}
        held = sorted(store.sets[key].items(),
                      key=lambda ui: (ui[1] not in order, order.get(ui[1], 0), ui[1].kind != "deed", ui[0]))
        known = set(info.items)
        sets.append({"set": key, "problem": info.problem,
                     "deeds": sum(1 for _, it in held if it.kind == "deed" and (it in known or info.problem)),
                     "deeds_total": None if info.problem else sum(1 for it in info.items if it.kind == "deed"),
                     "cards": sum(1 for _, it in held if it.kind == "card" and (it in known or info.problem)),
                     "cards_total": None if info.problem else sum(1 for it in info.items if it.kind == "card")})
        for uid, item in held:
            name, deck_name = info.names.get(item, (None, None))
            tags.append({"set": key, "sticker": uid, "kind": item.kind,
                         "space": item.space if item.kind == "deed" else None,
                         "deck": item.deck if item.kind == "card" else None,
                         "card": item.card if item.kind == "card" else None,
                         "name": name, "deck_name": deck_name,
                         "known": None if info.problem else item in known})
    return {"file": str(store.path), "sets": sets, "tags": tags}


def list_lines(report: dict[str, Any]) -> list[str]:
    """`banker tags list`: each set's progress, then its tags, one a line."""
    if not report["sets"]:
        return [f"No tags in {shown(report['file'])} yet (the app: Settings -> Tag the cards)."]
    lines = [f"Tags in {shown(report['file'])}:"]
    for entry in report["sets"]:
        lines.append(f"{entry['set']}: {_progress(entry)}")
        width = max(len(t["sticker"]) for t in report["tags"] if t["set"] == entry["set"])
        lines.extend(f"  {t['sticker']:<{width}}  {_what(t)}" for t in report["tags"] if t["set"] == entry["set"])
    return lines


def _progress(entry: dict[str, Any]) -> str:
    if entry["problem"] is not None:
        return (f"{_count(entry['deeds'], 'deed')} and {_count(entry['cards'], 'card')} tagged; "
                f"{entry['problem']}, so what they are cannot be said")
    said = [f"{entry['deeds']} of {_count(entry['deeds_total'], 'deed')}"]
    if entry["cards_total"]:
        said.append(f"{entry['cards']} of {_count(entry['cards_total'], 'card')}")
    return ", ".join(said)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _what(tag: dict[str, Any]) -> str:
    """A tag in words: "Boardwalk (deed, space 39)", "Chance: Advance to Go (card chance/ch-go)"."""
    where = f"deed, space {tag['space']}" if tag["kind"] == "deed" else f"card {tag['deck']}/{tag['card']}"
    if tag["known"] is False:
        return f"({where}: not in this set's rulesets)"
    if tag["name"] is None:
        return f"({where})"
    name = tag["name"] if tag["deck_name"] is None else f"{tag['deck_name']}: {tag['name']}"
    return f"{escape_text(name)} ({where})"


__all__ = ["import_file", "list_lines", "listing", "read_source", "register", "run", "set_names", "tags_file"]
