"""A lost card (after the banker's PIN): choose whose, then tap the new card."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme, view
from ui.screens.base import BaseScreen
from ui.widgets import BigButton, Text


class ReplaceCardScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        b = view.banker(self.c)
        self.header(root, self.tr("ui.banker.replace_card"), lambda: self.nav.go("banker"))
        if b["replacing"]:
            root.add_widget(Text(self.tr("ui.replace.tap", player=b["replacing"]), theme.FONT_TITLE, bold=True,
                                 color=theme.ACCENT))
        for p in b["players"]:
            root.add_widget(BigButton(p["name"], lambda n=p["name"]: self.c.replace_card(n), "secondary"))
        self.notices(root, 2)
        root.add_widget(Widget())
