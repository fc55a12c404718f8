"""The money log: every money movement in words, newest first."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout

from ui import theme
from ui.pages import TABLE_PAGE
from ui.screens.base import BaseScreen, list_column, listing
from ui.widgets import Text


class LogScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        self.header(root, self.tr("ui.log.title"), lambda: self.f.nav.go(TABLE_PAGE))
        sv = self.box("list", listing)  # kept: scrolled where the finger left it
        body = self.box("rows", list_column)
        for line in self.f.home.log():
            body.add_widget(Text(line, theme.FONT_READ))
        sv.add_widget(body)
        root.add_widget(sv)
