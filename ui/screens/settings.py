"""Settings: the language, sounds and motion, the voice (on or off, its volume and speed), cards or buttons,
physical decks, the hardware checks (ui/screens/check.py), between games the family's editions and "Tag the
cards" (ui/screens/tagging.py), and the state of the hardware and the voice; the About
line, the app's version as `banker --version` prints it, is in the title bar, where it takes no line of its own
(at 800x480 the screen is full when the voice's silence is explained under the hardware's state)."""

from __future__ import annotations

from collections.abc import Callable

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme
from ui.pages import CHECK_DICE_PAGE, CHECK_READER_PAGE, EDITIONS_PAGE, TAGGING_PAGE
from ui.screens.base import BaseScreen, fit_font, row
from ui.widgets import BigButton, Text


class SettingsScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        s = self.f.settings.view()
        # the hardware checks' pages, and the editions' and the tagging's between games: (page, words, how to go)
        shown: tuple[tuple[str, str, Callable[[str], None]], ...]
        about = Text(s["about"], theme.FONT_SMALL, color=theme.MUTED, halign="right", height=theme.TARGET_MEDIUM,
                     size_hint_x=2)  # two thirds of the bar after Back: the title is a word
        about.role = "about"
        self.header(root, self.tr("ui.settings"), self.f.nav.back_from_settings, aside=about)
        languages = row()
        for code, name in s["languages"].items():
            languages.add_widget(BigButton(name, lambda code=code: self.f.settings.set_language(code),
                                           "primary" if s["language"] == code else "secondary", height=theme.TARGET))
        root.add_widget(languages)
        for buttons in s["rows"]:
            line = row()
            for b in buttons:
                button = BigButton(self.tr(b["text_key"]),
                                   lambda k=b["key"], v=b["next"]: self.f.settings.set_setting(k, v),
                                   "primary" if b["on"] else "secondary", height=theme.TARGET)
                button.role = f"setting {b['key']}"
                fit_font(button, [theme.FONT_BODY, theme.FONT_SMALL], theme.TEXT_INSET)
                line.add_widget(button)
            root.add_widget(line)
        checks = row()
        go = self.f.nav.go
        shown = ((CHECK_READER_PAGE, "ui.settings.check_reader", go), (CHECK_DICE_PAGE, "ui.settings.check_dice", go))
        if s["editions"]:  # between games only: absent while a game is going
            shown += ((EDITIONS_PAGE, "ui.settings.editions", go),)
        if s["tagging"]:  # the same: its page starts at the list of sets
            shown += ((TAGGING_PAGE, "ui.tagging.title", lambda _page: self.f.tagging.begin()),)
        for page, key, action in shown:
            button = BigButton(self.tr(key), lambda page=page, action=action: action(page), "secondary",
                               height=theme.TARGET)
            button.role = page
            fit_font(button, [theme.FONT_BODY, theme.FONT_SMALL], theme.TEXT_INSET)
            checks.add_widget(button)
        root.add_widget(checks)
        root.add_widget(Text(s["status"], theme.FONT_BODY, color=theme.MUTED))
        root.add_widget(Widget())
