"""Settings: the language, sounds, cards or buttons, physical decks, and the hardware's state."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme, view
from ui.screens.base import BaseScreen, row
from ui.widgets import BigButton, Text


class SettingsScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        s = view.settings(self.c)
        self.header(root, self.tr("ui.settings"), self.nav.back_from_settings)
        languages = row()
        for code, name in s["languages"].items():
            languages.add_widget(BigButton(name, lambda code=code: self.c.set_language(code),
                                           "primary" if s["language"] == code else "secondary", height=theme.TARGET))
        root.add_widget(languages)
        for switch in s["switches"]:
            key, on = switch["key"], switch["on"]
            root.add_widget(BigButton(self.tr(f"ui.settings.{key}.{'on' if on else 'off'}"),
                                      lambda k=key, v=on: self.c.set_setting(k, not v),
                                      "primary" if on else "secondary", height=theme.TARGET))
        root.add_widget(Text(s["status"], theme.FONT_BODY, color=theme.MUTED))
        root.add_widget(Widget())
