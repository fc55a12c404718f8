"""brands: a triple on the speed die: jump to any space."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout

from ui import theme, view
from ui.screens.base import BaseScreen, grid, scroll
from ui.widgets import BigButton


class JumpScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        self.header(root, self.tr("ui.jump.title", player=view.turn_player(self.c)), lambda: self.nav.go("table"))
        board = grid(4, spacing=theme.GAP_TIGHT)
        for s in view.jump_spaces(self.c):
            b = BigButton(f"{s['index']}. {s['name']}", lambda i=s["index"]: self.c.request({"do": "jump", "space": i}),
                          "secondary", size=theme.FONT_SMALL, height=theme.TARGET_COMPACT)
            b.role = f"jump {s['index']}"
            board.add_widget(b)
        root.add_widget(scroll(board))
