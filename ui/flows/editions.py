"""The family's editions (banker/editions.py), between games: Settings -> Editions lists them, each with its
title and name (a broken one with its reason, greyed, not choosable); an edition is renamed on the on-screen
keyboard (first its title, then its name; a refusal is said as a notice naming what is wrong) and deleted with
a confirming second touch (ui/entry.py's `Confirm`, the navigator's, as the banker's destructive buttons).

"Edit on a phone" opens the page "edition_phone": a one-time code for the phone server's editor
(ui/phoneserver/editing.py's `open_editor`: the first phone to open `{base}/e/{code}` edits, ui/editor.html),
shown as a QR code and as text, with the editor's state polled every second (waiting for a phone, a phone
editing, the code ended) and the titles saved from the phone. "New code" ends the old session and offers a new
one; Done, or leaving the page any way (Back, another page, a game started or resumed), closes the editor.
Without the phone server ([web] switched off in the config, or it could not start) the page says why, and the
one thing to do (`PhonesFlow.off_text`).

The pages "editions", "edition_keyboard" and "edition_phone" show only on the start screen's side (mode
HOME): the Settings button to them is absent while a game is going."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, TypedDict

from banker.editions import Edition, delete_edition, list_editions, rename_edition
from banker.errors import RulesetError
from banker.ruleset import MAX_EDITION_NAME, builtin_names, editions_dir, is_edition_file
from ui.editor import EditorService
from ui.editor_page import editor_labels, translated_refusal
from ui.flows.base import Flow
from ui.i18n import Msg, Translator, msg
from ui.keys import KeyboardView, NameEditor, keyboard_rows
from ui.pages import EDITION_KEYBOARD_PAGE, EDITION_PHONE_PAGE, EDITIONS_PAGE, HOME
from ui.tags import TagsError, set_key
from ui.tokens import typed_token

if TYPE_CHECKING:
    from ui.flows import Flows

log = logging.getLogger(__name__)
TITLE_MAX = 40  # characters of an edition's title typed on the keyboard
NAME_MARKS = "abcdefghijklmnopqrstuvwxyz0123456789-"  # what an edition's name may hold (banker/editions.py)
FolderKey = tuple[tuple[str, int, int], ...]  # the editions folder's entries, sizes and change times (`_folder_key`)


class EditionRow(TypedDict):
    """An edition on the editions page: its name, title, why it cannot be played (None: it can), and whether
    its Delete is armed for the second touch."""

    name: str
    title: str
    problem: str | None
    armed: bool


class EditionsView(TypedDict):
    """The editions page (`EditionsFlow.view`)."""

    editions: list[EditionRow]


class EditorStatus(TypedDict):
    """The phone editor's state as last polled: "waiting", "editing" or "ended", and the titles saved."""

    state: str
    saved: list[str]


class PhoneOff(TypedDict):
    """The phone page without a phone server: why, and the one thing to do."""

    server: Literal[False]
    off: str


class PhoneOn(TypedDict):
    """The phone page: the editor's link, its state, and the titles saved from the phone, each once."""

    server: Literal[True]
    link: str
    state: str
    saved: list[str]


def editor_parts(tr: Translator) -> tuple[dict[str, str], EditorService]:
    """What the phone server's editor is opened with: the editor page's words in the family's language
    (ui/editor_page.py) and the service that lists, loads and saves editions (ui/editor.py; no aiohttp there:
    the requests are the phone server's)."""
    return editor_labels(tr), EditorService(tr=tr)


def broken_reason(tr: Translator, edition: Edition) -> str | None:
    """Why an edition cannot be played, in the family's language where the app has words for the loader's
    refusal (the phone editor's, ui/editor_page.translated_refusal: "options.start_cash: Musi być liczbą
    całkowitą."), else the loader's own sentence; None for an edition that can be played."""
    if edition.problem is None:
        return None
    if edition.reason:
        said = translated_refusal(tr, RulesetError(str(edition.path), edition.key, edition.reason))
        if said is not None:
            said = said if said.endswith(".") else said + "."
            return f"{edition.key}: {said}" if edition.key else said
    return edition.problem


def delete_key(name: str) -> str:
    """The key of an edition's Delete button for the navigator's second touch."""
    return f"delete {name}"


class EditionsFlow(Flow):
    def __init__(self, flows: Flows) -> None:
        super().__init__(flows)
        self.editor: NameEditor | None = None  # the title or the name being typed
        self.renaming: str | None = None  # the edition being renamed, by its name
        self.part = "title"  # what the keyboard types: "title", then "name"
        self.title = ""  # the new title, once typed
        # The folder's files as last seen, and their editions.
        self._kept: tuple[FolderKey | None, list[Edition]] | None = None
        # "Edit on a phone": whether its page is open, the code the phone server offers (None: no server), the
        # editor's state as last polled, and what opens an editor (a test gives its own).
        self.on_phone = False
        self.code: str | None = None
        self.status: EditorStatus | None = None
        self.editor_parts: Callable[[Translator], tuple[dict[str, str], EditorService]] = editor_parts
        self.s.listeners.append(self._heard)

    def leave(self, page: str) -> str | None:
        if page == EDITION_KEYBOARD_PAGE and self.editor is None:
            return EDITIONS_PAGE
        if page == EDITION_PHONE_PAGE and not self.on_phone:
            return EDITIONS_PAGE
        return None

    def opened(self, fresh: bool) -> None:
        self.close_phone()  # a game started or resumed: no editing meanwhile

    def editions(self) -> list[Edition]:
        """The family's editions, each file loaded again only when the folder's files have changed since (their
        names, sizes and times: one look at the folder per drawing, not a load of every edition)."""
        key = _folder_key()
        if key is None or self._kept is None or self._kept[0] != key:
            self._kept = (key, list_editions())
        return self._kept[1]

    # ------------------------------------------------------------------ rename

    def rename(self, name: str) -> None:
        """The keyboard for the edition's title, from the title as it is."""
        edition = next((e for e in self.editions() if e.name == name and e.problem is None), None)
        if edition is None:  # gone, or broken since the list was drawn
            self.changed()
            return
        self.f.nav.confirm.disarm()
        self.renaming, self.part, self.title = name, "title", edition.title
        self.editor = NameEditor(index=0, text=edition.title[:TITLE_MAX], limit=TITLE_MAX)
        self.f.nav.go(EDITION_KEYBOARD_PAGE)

    def press(self, key: str) -> None:
        if self.editor is not None:
            self.editor.press(key)
        self.changed()

    def problem(self) -> Msg | None:
        """What stops Done on the keyboard, as a message (None: nothing)."""
        e = self.editor
        if e is None:
            return None
        typed = e.result()
        if self.part == "title":
            return None if typed else msg("ui.editions.title_empty")
        if not typed:
            return msg("ui.editions.name_empty")
        if len(typed) > MAX_EDITION_NAME:
            return msg("ui.editions.name_long", most=MAX_EDITION_NAME)
        wrong = "".join(dict.fromkeys(ch for ch in typed if ch not in NAME_MARKS))
        if wrong or typed.startswith("-"):
            return msg("ui.editions.name_marks", marks=wrong or "-")
        if typed in builtin_names():
            return msg("ui.editions.name_shipped", name=typed)
        if typed != self.renaming and is_edition_file(typed):
            return msg("ui.editions.name_taken", name=typed)
        return None

    def done(self) -> None:
        """Done: the title typed, the name is typed next; the name typed, the edition is renamed. A refusal is
        said as a notice (the keyboard stays, to put it right)."""
        e = self.editor
        if e is None or self.renaming is None:
            self.cancel()
            return
        problem = self.problem()
        if problem is not None:
            self.s.notify(problem, "error", "error")
            self.changed()
            return
        if self.part == "title":
            self.title, self.part = e.result(), "name"
            self.editor = NameEditor(index=0, text=self.renaming, limit=MAX_EDITION_NAME, capitals=False)
            self.changed()
            return
        new_name = e.result()
        try:
            edition = rename_edition(self.renaming, new_name, title=self.title)
        except RulesetError as exc:
            self.s.notify(msg("ui.editions.not_renamed", reason=exc.problem), "error", "error")
            self.changed()
            return
        try:  # the edition's tagged deeds and cards (ui/tags.py) follow its new name
            self.s.tags.rename_set(set_key(self.renaming), set_key(edition.name))
        except (OSError, TagsError) as exc:
            log.warning("the tags of edition %s could not follow its new name (%s)", self.renaming, exc)
        self.s.notify(msg("ui.editions.renamed", title=edition.title, name=edition.name), "info")
        self.cancel()

    def cancel(self) -> None:
        """Back to the editions; the edition stays as it was."""
        self.editor, self.renaming = None, None
        self.f.nav.go(EDITIONS_PAGE)

    # ------------------------------------------------------------------ delete

    def delete(self, name: str) -> None:
        """The first touch arms the edition's Delete ("Touch again to delete"); a second within
        CONFIRM_SECONDS deletes its file."""
        if not self.f.nav.confirm.touch(delete_key(name)):
            self.changed()
            return
        try:
            delete_edition(name)
        except RulesetError as exc:
            self.s.notify(msg("ui.editions.not_deleted", reason=exc.problem), "error", "error")
        else:
            self.s.notify(msg("ui.editions.deleted", name=name), "info")
        self.changed()

    # ------------------------------------------------------------------ edit on a phone

    def edit_on_phone(self) -> None:
        """The page with the editor's code, between games only: a new code if the phone server runs, else the
        page says it is off."""
        if self.f.mode != HOME:
            return
        self.f.nav.confirm.disarm()
        self.f.nav.go(EDITION_PHONE_PAGE)
        self.on_phone = True
        self._offer()
        self.changed()

    def new_code(self) -> None:
        """A fresh code: the old one, and any phone's session with it, ends."""
        if self.on_phone:
            self._offer()
            self.changed()

    def phone_done(self) -> None:
        """Done (and the page's Back): the editor closes, back to the editions."""
        self.close_phone()
        self.f.nav.go(EDITIONS_PAGE)

    def close_phone(self) -> None:
        """The editor closed on the phone server (a phone editing is stopped; what it saved stays)."""
        web = self.f.phones.web
        if self.code is not None and web is not None:
            web.close_editor()
        self.on_phone, self.code, self.status = False, None, None

    def tick(self) -> None:
        """Every second, on the phone page: the editor's state, redrawn when it changed."""
        if not self.on_phone:
            return
        if not self._on_page():
            self.close_phone()
            return
        if self.code is None:
            return
        status = self._status()
        if status != self.status:
            self.status = status
            self.changed()

    def phone_view(self) -> PhoneOn | PhoneOff:
        """The phone page: `server` (False: no phone server, `off` says why and what to do), the link
        to show as a QR code and as text, the editor's `state` ("waiting", "editing" or "ended") and the titles
        `saved` from the phone, oldest first, each once."""
        phones = self.f.phones
        if self.code is None or phones.web is None:
            return {"server": False, "off": self.s.tr.render(phones.off_text())}
        status: EditorStatus = self.status or {"state": "waiting", "saved": []}
        return {"server": True, "link": f"{phones.base}/e/{self.code}", "state": status["state"],
                "saved": list(dict.fromkeys(status["saved"]))}  # an edition saved again is named once

    def _offer(self) -> None:
        """A new code on the phone server, replacing the last one (nothing without a server)."""
        phones = self.f.phones
        if phones.web is None or not phones.base:
            self.code, self.status = None, None
            return
        labels, service = self.editor_parts(self.s.tr)
        code = typed_token()  # a link a person may type: no look-alike characters (ui/tokens.py)
        phones.web.open_editor(code, labels, service)
        self.code = code
        self.status = self._status()

    def _status(self) -> EditorStatus:
        web = self.f.phones.web
        assert web is not None  # a code is offered only on a phone server (`_offer`)
        status = web.editor_status()
        return {"state": str(status["state"]), "saved": [str(title) for title in status["saved"]]}

    def _on_page(self) -> bool:
        return bool(self.f.nav.page == EDITION_PHONE_PAGE and self.f.mode == HOME)

    def _heard(self) -> None:
        """After every change: the phone page left any way (another page, a game begun) closes the editor."""
        if self.on_phone and not self._on_page():
            self.close_phone()

    # ------------------------------------------------------------------ what the screens show

    def view(self) -> EditionsView:
        """The editions page: each edition's title, name, and its problem (None: it can be played), and
        whether its Delete is armed."""
        armed = self.f.nav.confirm.armed()
        return {"editions": [{"name": e.name, "title": e.title, "problem": broken_reason(self.s.tr, e),
                              "armed": armed == delete_key(e.name)} for e in self.editions()]}

    def keyboard(self) -> KeyboardView:
        """The keyboard page while renaming, as the names' keyboard shows (ui/flows/names.py's `view`)."""
        e, tr = self.editor, self.s.tr
        assert e is not None
        problem = self.problem() if e.result() else None
        what = "ui.editions.type_title" if self.part == "title" else "ui.editions.type_name"
        return {"title": tr(what, name=self.renaming or ""), "colour": None, "text": e.text, "fresh": False,
                "full": e.full(), "rows": keyboard_rows(tr, e, "en" if self.part == "name" else None), "presets": [],
                "problem": None if problem is None else tr.render(problem),
                "can_finish": bool(e.result()) and problem is None}


def _folder_key() -> FolderKey | None:
    """The editions folder's entries with their sizes and change times (None: it cannot be looked at)."""
    try:
        with os.scandir(editions_dir()) as entries:
            return tuple(sorted((e.name, e.stat().st_size, e.stat().st_mtime_ns) for e in entries))
    except OSError:
        return None


__all__ = ["EditionRow", "EditionsFlow", "EditionsView", "EditorStatus", "NAME_MARKS", "PhoneOff", "PhoneOn",
           "TITLE_MAX", "broken_reason", "delete_key", "editor_parts"]
