"""The start screen: resume the unfinished game, start a new one, the hall of fame (ui/screens/report.py) or the settings; and, when a card reader named
in the config has not answered since the start, a note saying so with the way to its check."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme
from ui.flows.report import ReportFlow
from ui.pages import CHECK_READER_PAGE, SETTINGS_PAGE
from ui.screens.base import BaseScreen, column, row
from ui.widgets import BigButton, Text


class HomeScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        root.add_widget(Text(self.tr("ui.app_name"), theme.FONT_HUGE, bold=True, halign="center",
                             height=theme.TARGET_HOME))
        if self.f.settings.reader_silent():  # in the tagline's place, gone as soon as the reader answers
            note = row()
            note.add_widget(Text(self.tr("ui.home.reader_silent"), theme.FONT_BIG, bold=True, color=theme.WARNING,
                                 height=theme.TARGET))
            check = BigButton(self.tr("ui.settings.check_reader"), lambda: self.f.nav.go(CHECK_READER_PAGE), "accent",
                              size=theme.FONT_BODY, size_hint_x=0.45)
            check.role = "check_reader"
            note.add_widget(check)
            root.add_widget(note)
        else:
            root.add_widget(Text(self.tr(self.s.by_mode("ui.home.tagline")), theme.FONT_BIG, color=theme.MUTED,
                                 halign="center"))
        box = column(padding=theme.HOME_PAD)
        if self.f.home.can_resume():
            box.add_widget(BigButton(self.tr("ui.home.resume"), self.f.home.resume, "primary", size=theme.FONT_LARGE,
                                     height=theme.TARGET_HOME))
        box.add_widget(BigButton(self.tr("ui.home.new"), self.f.setup.new_game, "primary", size=theme.FONT_LARGE,
                                 height=theme.TARGET_HOME))
        more = row(theme.TARGET)
        more.add_widget(BigButton(self.tr("ui.fame.open"), self.f.own(ReportFlow).open_fame,
                                  "accent", size=theme.FONT_BIG))
        more.add_widget(BigButton(self.tr("ui.settings"), lambda: self.f.nav.go(SETTINGS_PAGE), "secondary",
                                  size=theme.FONT_BIG))
        box.add_widget(more)
        root.add_widget(box)
        self.notices(root, 2)
        root.add_widget(Widget())
