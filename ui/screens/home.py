"""The start screen: resume the unfinished game, start a new one, or the settings."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme, view
from ui.screens.base import BaseScreen, column
from ui.widgets import BigButton, Text


class HomeScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        root.add_widget(Text(self.tr("ui.app_name"), theme.FONT_HUGE, bold=True, halign="center",
                             height=theme.TARGET_HOME))
        root.add_widget(Text(self.tr("ui.home.tagline"), theme.FONT_BIG, color=theme.MUTED, halign="center"))
        box = column(padding=theme.HOME_PAD)
        if view.can_resume(self.c):
            box.add_widget(BigButton(self.tr("ui.home.resume"), self.c.resume, "primary", size=theme.FONT_LARGE,
                                     height=theme.TARGET_HOME))
        box.add_widget(BigButton(self.tr("ui.home.new"), self.nav.new_game, "primary", size=theme.FONT_LARGE,
                                 height=theme.TARGET_HOME))
        box.add_widget(BigButton(self.tr("ui.settings"), lambda: self.nav.go("settings"), "secondary",
                                 size=theme.FONT_BIG))
        root.add_widget(box)
        self.notices(root, 2)
        root.add_widget(Widget())
