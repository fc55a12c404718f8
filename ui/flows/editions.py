"""The family's editions (banker/editions.py), between games: Settings -> Editions lists them, each with its
title and name (a broken one with its reason, greyed, not choosable); an edition is renamed on the on-screen
keyboard (first its title, then its name; a refusal is said as a notice naming what is wrong) and deleted with
a confirming second touch (ui/entry.py's `Confirm`, the navigator's, as the banker's destructive buttons).

The pages "editions" and "edition_keyboard" show only on the start screen's side (mode HOME): the Settings
button to them is absent while a game is going."""

from __future__ import annotations

import os
from typing import Any

from banker.editions import (MAX_NAME_LENGTH, Edition, delete_edition, editions_dir, is_edition_file,
                             list_editions, rename_edition)
from banker.errors import RulesetError
from banker.ruleset import builtin_names
from ui.flows.base import Flow
from ui.i18n import Msg, msg
from ui.keys import NameEditor, keyboard_rows

TITLE_MAX = 40  # characters of an edition's title typed on the keyboard
NAME_MARKS = "abcdefghijklmnopqrstuvwxyz0123456789-"  # what an edition's name may hold (banker/editions.py)


def delete_key(name: str) -> str:
    """The key of an edition's Delete button for the navigator's second touch."""
    return f"delete {name}"


class EditionsFlow(Flow):
    def __init__(self, flows: Any) -> None:
        super().__init__(flows)
        self.editor: NameEditor | None = None  # the title or the name being typed
        self.renaming: str | None = None  # the edition being renamed, by its name
        self.part = "title"  # what the keyboard types: "title", then "name"
        self.title = ""  # the new title, once typed
        self._kept: tuple[Any, list[Edition]] | None = None  # the folder's files as last seen, and their editions

    def leave(self, page: str) -> str | None:
        if page == "edition_keyboard" and self.editor is None:
            return "editions"
        return None

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
        self.f.nav.go("edition_keyboard")

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
        if len(typed) > MAX_NAME_LENGTH:
            return msg("ui.editions.name_long", most=MAX_NAME_LENGTH)
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
            self.editor = NameEditor(index=0, text=self.renaming, limit=MAX_NAME_LENGTH, capitals=False)
            self.changed()
            return
        new_name = e.result()
        try:
            edition = rename_edition(self.renaming, new_name, title=self.title)
        except RulesetError as exc:
            self.s.notify(msg("ui.editions.not_renamed", reason=exc.problem), "error", "error")
            self.changed()
            return
        self.s.notify(msg("ui.editions.renamed", title=edition.title, name=edition.name), "info")
        self.cancel()

    def cancel(self) -> None:
        """Back to the editions; the edition stays as it was."""
        self.editor, self.renaming = None, None
        self.f.nav.go("editions")

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

    # ------------------------------------------------------------------ what the screens show

    def view(self) -> dict[str, Any]:
        """The editions page: each edition's title, name, and its problem (None: it can be played), and
        whether its Delete is armed."""
        armed = self.f.nav.confirm.armed()
        return {"editions": [{"name": e.name, "title": e.title, "problem": e.problem,
                              "armed": armed == delete_key(e.name)} for e in self.editions()]}

    def keyboard(self) -> dict[str, Any]:
        """The keyboard page while renaming, as the names' keyboard shows (ui/flows/names.py's `view`)."""
        e, tr = self.editor, self.s.tr
        assert e is not None
        problem = self.problem() if e.result() else None
        what = "ui.editions.type_title" if self.part == "title" else "ui.editions.type_name"
        return {"title": tr(what, name=self.renaming or ""), "colour": None, "text": e.text, "fresh": False,
                "full": e.full(), "rows": keyboard_rows(tr, e, "en" if self.part == "name" else None), "presets": [],
                "problem": None if problem is None else tr.render(problem),
                "can_finish": bool(e.result()) and problem is None}


def _folder_key() -> tuple[tuple[str, int, int], ...] | None:
    """The editions folder's entries with their sizes and change times (None: it cannot be looked at)."""
    try:
        with os.scandir(editions_dir()) as entries:
            return tuple(sorted((e.name, e.stat().st_size, e.stat().st_mtime_ns) for e in entries))
    except OSError:
        return None


__all__ = ["EditionsFlow", "NAME_MARKS", "TITLE_MAX", "delete_key"]
