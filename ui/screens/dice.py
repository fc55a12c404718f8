"""Physical dice: the player enters what came up, a row of values per die; "Move by these dice" is greyed, with
what to do said above it, until every die has its number."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme
from ui.pages import TABLE_PAGE
from ui.screens.base import BaseScreen, row
from ui.widgets import BigButton, Text


class DiceEntryScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        self.header(root, self.tr("ui.dice.enter"), lambda: self.f.nav.go(TABLE_PAGE))
        chosen = self.f.turn.entered_dice
        for k in range(self.f.turn.dice_count()):
            line = row(theme.ROW_DIE)
            for value in range(1, 7):
                die = BigButton(str(value), lambda k=k, v=value: self.f.turn.enter_die(k, v),
                                "primary" if len(chosen) > k and chosen[k] == value else "secondary",
                                size=theme.FONT_HEADLINE, height=theme.TARGET_DIE)
                die.role = f"die{k}-{value}"  # two rows share the labels 1-6: tests tell them apart
                line.add_widget(die)
            root.add_widget(line)
        missing = self.f.turn.dice_missing()
        if missing:  # the button is greyed until each die has its number: say what to do
            why = Text(self.tr("ui.dice.choose"), theme.FONT_BODY, color=theme.MUTED)
            why.role = "dice why"
            root.add_widget(why)
        done = BigButton(self.tr("ui.dice.done"), self.f.turn.dice_entered, "primary", height=theme.TARGET_LARGE)
        done.disabled = missing
        done.role = "dice done"
        root.add_widget(done)
        root.add_widget(Widget())
