"""brands: a triple on the speed die: jump to any space."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from ui import theme
from ui.pages import TABLE_PAGE
from ui.screens.base import BaseScreen, grid, listing, rewind
from ui.widgets import BigButton


def spaces_grid() -> GridLayout:
    """Four spaces a row, clear of the scroll bar."""
    board = grid(4, spacing=theme.GAP_TIGHT)
    board.padding = [0, 0, theme.LIST_BAR + theme.GAP, 0]
    return board


class JumpScreen(BaseScreen):
    def on_pre_enter(self, *args: Any) -> None:
        rewind(self)

    def build(self, root: BoxLayout) -> None:
        self.header(root, self.tr("ui.jump.title", player=self.f.turn.player()), lambda: self.f.nav.go(TABLE_PAGE))
        sv = self.box("list", listing)  # kept: scrolled where the finger left it
        board = self.box("spaces", spaces_grid)
        for s in self.f.turn.jump_spaces():
            b = BigButton(f"{s['index']}. {s['name']}", lambda i=s["index"]: self.f.paying.request({"do": "jump", "space": i}),
                          "secondary", size=theme.FONT_SMALL, height=theme.TARGET_COMPACT)
            b.role = f"jump {s['index']}"
            board.add_widget(b)
        sv.add_widget(board)
        root.add_widget(sv)
