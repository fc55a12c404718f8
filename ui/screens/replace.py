"""A lost card (after the banker's PIN): choose whose, then tap the new card. Up to four players in a
column of wide buttons; more (up to eight) in two columns, so every name is in view at once."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme
from ui.pages import BANKER_PAGE
from ui.screens.base import BaseScreen, grid
from ui.widgets import BigButton, Text

ONE_COLUMN = 4  # players listed one under another; more go in two columns


class ReplaceCardScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        b = self.f.banker.view()
        self.header(root, self.tr("ui.banker.replace_card"), lambda: self.f.nav.go(BANKER_PAGE))
        if b["replacing"]:
            root.add_widget(Text(self.tr("ui.replace.tap", player=b["replacing"]), theme.FONT_TITLE, bold=True,
                                 color=theme.ACCENT))
        players = b["players"]
        names = grid(1 if len(players) <= ONE_COLUMN else 2, spacing=theme.GAP_WIDE)
        for p in players:
            names.add_widget(BigButton(p["name"], lambda n=p["name"]: self.f.banker.replace_card(n),
                                       "accent" if p["name"] == b["replacing"] else "secondary",
                                       size=theme.FONT_BIG,
                                       height=theme.TARGET if len(players) <= ONE_COLUMN else theme.TARGET_MEDIUM))
        root.add_widget(names)
        self.notices(root, 1)
        root.add_widget(Widget())
