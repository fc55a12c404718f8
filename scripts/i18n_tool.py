"""The catalogue tool: keeps the English of the engine's codes in step and compiles the catalogues.

    .venv/bin/python scripts/i18n_tool.py update    # copy banker/messages.py into the English catalogue, then compile
    .venv/bin/python scripts/i18n_tool.py compile   # compile every ui/locale/<language>/LC_MESSAGES/banker.po to .mo
    .venv/bin/python scripts/i18n_tool.py check     # say what is out of date (exit 1), change nothing

banker/messages.py stays the one source of the engine's English (the engine
renders it itself for the command line); its entries in the English `.po`
are generated from it and marked with the comment `source: banker/messages.py`.
Every other entry of every `.po` is written by hand. The `.mo` files are
committed (the app and the tests read them from the checkout); tests run
`check` so that neither can go stale. docs/i18n.md has the whole story.

A translators' tool, not part of the app: it lives beside the checkout's scripts and works on the
checkout's catalogues (ui/locale). Run as a script it reads the checkout's banker/messages.py and ui/i18n.py
too; imported by the tests, it takes them from the installed package, which the suite checks is built from
the same files.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any, Iterable

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))  # the checkout's engine and app, whatever the venv has installed

from banker.messages import MESSAGES, Plural  # noqa: E402
from ui.i18n import LANGUAGES, DOMAIN, Catalogue  # noqa: E402

LOCALE = ROOT / "ui" / "locale"  # the checkout's catalogues

ENGINE_SOURCE = "source: banker/messages.py"
LANGUAGE_ORDER = ["en", "pl", "cs", "ru"]
assert sorted(LANGUAGE_ORDER) == sorted(LANGUAGES)


def mo_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.mo"


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(language: str) -> Catalog:
    with po_path(language).open("rb") as fp:
        return read_po(fp, locale=language, domain=DOMAIN)


def write(language: str, catalog: Catalog) -> None:
    buf = io.BytesIO()
    write_po(buf, catalog, width=0, sort_output=True, include_previous=False)
    po_path(language).write_bytes(buf.getvalue())


def engine_messages() -> list[Message]:
    """The English catalogue's entries for the engine's codes, as banker/messages.py has them."""
    found = []
    for code, entry in MESSAGES.items():
        if isinstance(entry, Plural):
            found.append(Message((code, entry.param), (entry.one, entry.other), auto_comments=[ENGINE_SOURCE]))
        else:
            found.append(Message(code, entry, auto_comments=[ENGINE_SOURCE]))
    return found


def _key(message: Message) -> str:
    return str(message.id[0] if isinstance(message.id, (list, tuple)) else message.id)


def _generated(message: Message) -> bool:
    return ENGINE_SOURCE in message.auto_comments


def _entry(message: Message) -> tuple[Any, Any]:
    ident = tuple(message.id) if isinstance(message.id, (list, tuple)) else message.id
    text = tuple(message.string) if isinstance(message.string, (list, tuple)) else message.string
    return ident, text


def english_problems(catalog: Catalog) -> list[str]:
    """Where the English catalogue's engine entries differ from banker/messages.py."""
    have = {_key(m): _entry(m) for m in catalog if m.id and _generated(m)}
    want = {_key(m): _entry(m) for m in engine_messages()}
    problems = [f"en: {k} is not as banker/messages.py says" for k in sorted(want) if have.get(k) != want[k]]
    problems += [f"en: {k} is no longer in banker/messages.py" for k in sorted(set(have) - set(want))]
    hand = {_key(m) for m in catalog if m.id and not _generated(m)}
    problems += [f"en: {k} is written by hand but comes from banker/messages.py" for k in sorted(hand & set(want))]
    return problems


def update_english() -> None:
    catalog = read("en")
    for message in list(catalog):
        if message.id and _generated(message):
            catalog.delete(message.id)
    for message in engine_messages():
        catalog[message.id] = message
    write("en", catalog)


def compiled(language: str) -> bytes:
    buf = io.BytesIO()
    write_mo(buf, read(language), use_fuzzy=False)
    return buf.getvalue()


def _contents(data: bytes) -> dict[Any, Any]:
    """What a .mo file holds, as the app reads it (minus the header lines that name the tool)."""
    cat = Catalogue(io.BytesIO(data))
    table = dict(getattr(cat, "_catalog"))  # (gettext keeps its table there)
    table.pop("", None)
    info = cat.info()
    return {"entries": table, "plural_params": cat.plural_params, "plural_forms": info.get("plural-forms"),
            "language": info.get("language")}


def compile_all(languages: Iterable[str] = LANGUAGE_ORDER) -> None:
    for language in languages:
        mo_path(language).write_bytes(compiled(language))


def mo_problems(language: str) -> list[str]:
    path = mo_path(language)
    if not path.exists():
        return [f"{language}: {path.name} is missing (python scripts/i18n_tool.py compile)"]
    if _contents(path.read_bytes()) != _contents(compiled(language)):
        return [f"{language}: {path.name} is not what {po_path(language).name} compiles to "
                f"(python scripts/i18n_tool.py compile)"]
    return []


def problems() -> list[str]:
    found = english_problems(read("en"))
    for language in LANGUAGE_ORDER:
        found += mo_problems(language)
    return found


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "update":
        update_english()
        compile_all()
    elif command == "compile":
        compile_all()
    elif command != "check":
        print(__doc__, file=sys.stderr)
        return 2
    found = problems()
    for line in found:
        print(line, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
