"""The settings' hardware checks: "Check the reader" (tap any card: its id shows, what it is (a player's card, a
tagged deed or deck card, or not tagged: ui/taps.py's `describe`), with the reader's kind, port and last status)
and "Check the dice button" (press it: the dice show). While one shows, a tap or a press acts on nothing in the
game (ui/flows/settings.py's `check`); under the result, what to check when nothing comes, in the family's words
(the same flow's `check_view`)."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme
from ui.screens.base import BaseScreen, auto_height
from ui.widgets import Panel, Text


class CheckScreen(BaseScreen):
    """One hardware check; the subclasses name the part (`kind`)."""

    kind = ""

    def build(self, root: BoxLayout) -> None:
        v = self.f.settings.check_view(self.kind)
        self.header(root, v["title"], self.f.nav.back_from_check)
        result = auto_height(Panel(orientation="vertical", size_hint_y=None))
        if v["figure"] is not None:  # what came, large enough to read from across the table
            shown = Text(v["figure"], theme.FONT_FIGURE, bold=True, color=theme.ACCENT, halign="center")
            shown.role = f"check {self.kind}"
            result.add_widget(shown)
            result.add_widget(Text(v["about"], theme.FONT_LARGE, halign="center"))
        else:
            result.add_widget(Text(v["waiting"], theme.FONT_LARGE, bold=True, halign="center"))
        root.add_widget(result)
        for line in v["facts"]:
            root.add_widget(Text(line, theme.FONT_BODY, color=theme.MUTED))
        for line in v["hints"]:
            root.add_widget(Text(line, theme.FONT_BIG))
        root.add_widget(Widget())


class ReaderCheckScreen(CheckScreen):
    kind = "reader"


class DiceCheckScreen(CheckScreen):
    kind = "dice"
