"""The house rules in force in this game, a touch away on the turn screen's bar: a line each, large enough
to read across the table ("Landing on GO pays 200 more", "No auctions"), or that the game is the rulebook's."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout

from ui import theme
from ui.pages import TABLE_PAGE
from ui.screens.base import BaseScreen, list_column, listing
from ui.widgets import Text


class RulesScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        r = self.f.home.house_rules()
        self.header(root, self.tr("ui.house.title", rules=r["rules"]), lambda: self.f.nav.go(TABLE_PAGE))
        sv = self.box("list", listing)  # kept: scrolled where the finger left it
        body = self.box("rows", lambda: list_column(spacing=theme.GAP_WIDE))
        for line in r["lines"]:
            text = Text("\u2022 " + line, theme.FONT_PROMPT)
            text.role = "house rule"
            body.add_widget(text)
        if not r["lines"]:
            body.add_widget(Text(self.tr("ui.house.rulebook"), theme.FONT_PROMPT, color=theme.MUTED))
        sv.add_widget(body)
        root.add_widget(sv)
