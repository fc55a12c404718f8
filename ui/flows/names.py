"""The players' names on the new-game screen: ready names in the family's language, and the keyboard page
for typing one (ui/keys.py: the layouts, the name being typed)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ui.flows.base import Flow
from ui.keys import KeyboardView, NameEditor, free_presets, keyboard_rows, name_problem
from ui.pages import KEYBOARD_PAGE, SETUP_PAGE

if TYPE_CHECKING:
    from ui.flows import Flows


class NamesFlow(Flow):
    def __init__(self, flows: Flows) -> None:
        super().__init__(flows)
        self.editor: NameEditor | None = None  # the player's name being typed on the keyboard page

    def leave(self, page: str) -> str | None:
        return None if self.editing() else SETUP_PAGE

    def presets(self) -> list[str]:
        """The ready names in the family's language that no player has yet."""
        d = self.f.setup.draft
        return free_presets(self.s.tr, [p.name for p in d.players] if d is not None else [])

    def fill(self) -> None:
        """Every player without a name gets the first ready name nobody has."""
        d = self.f.setup.draft
        if d is None:
            return
        for k, p in enumerate(d.players):
            free = self.presets()
            if not p.name and free:
                self.f.setup.set_player(k, name=free[0])
        self.changed()

    def editing(self) -> bool:
        d = self.f.setup.draft
        return d is not None and self.editor is not None and self.editor.index < len(d.players)

    def edit(self, k: int) -> None:
        """The keyboard page for player k's name, starting from the name as it is."""
        d = self.f.setup.draft
        assert d is not None
        name = d.players[k].name
        self.editor = NameEditor(index=k, text=name, fresh=name in free_presets(self.s.tr, []))
        self.f.nav.go(KEYBOARD_PAGE)

    def others(self) -> list[str]:
        """The names of the players other than the one being named."""
        d = self.f.setup.draft
        e = self.editor
        if d is None or e is None:
            return []
        return [p.name for k, p in enumerate(d.players) if k != e.index and p.name]

    def press(self, key: str) -> None:
        """A key of the keyboard page (its id: a character, or one of ui.keys.SPECIAL)."""
        if self.editor is not None:
            self.editor.press(key)
        self.changed()

    def done(self, name: str | None = None) -> None:
        """Done (or a ready name touched): the name is the player's and the setup screen comes back.
        Nothing happens while the name is empty, "bank", or another player's."""
        e = self.editor
        if e is None or not self.editing():
            self.cancel()
            return
        chosen = (e.result() if name is None else name).strip()
        if not chosen or name_problem(chosen, self.others()) is not None:
            self.changed()
            return
        self.f.setup.set_player(e.index, name=chosen)
        self.cancel()

    def cancel(self) -> None:
        """Back to the setup screen; the name stays as it was."""
        self.editor = None
        self.f.nav.go(SETUP_PAGE)

    def view(self) -> KeyboardView:
        """The keyboard page: whose name is typed (their number and colour), the name so far, the keys in the
        family's language (ui/keys.py), the ready names nobody has, and what stops Done (None: nothing)."""
        d, editor, tr = self.f.setup.draft, self.editor, self.s.tr
        assert d is not None and editor is not None
        player = d.players[editor.index]
        problem = name_problem(editor.text, self.others())
        return {"title": tr("ui.keyboard.title", number=editor.index + 1), "colour": player.colour,
                "text": editor.text, "fresh": editor.fresh, "full": editor.full(),
                "rows": keyboard_rows(tr, editor),
                "presets": free_presets(tr, [p.name for p in d.players]),
                "problem": None if problem is None else tr(problem, name=editor.result()),
                "can_finish": bool(editor.result()) and problem is None}


__all__ = ["NamesFlow"]
