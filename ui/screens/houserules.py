"""The house rules of a new game, reached from the new-game screen: the starting cash, then each house rule
the ruleset allows (ui/flows/setup.py's `house`), a rule to a row: its name and, at the right, On / Off and,
for an amount, - and + either side of it; under them, one line saying what the rule does. The list scrolls,
with its scroll bar in sight, and stays where the finger left it."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout

from ui import theme
from ui.flows.house import HouseRow
from ui.pages import SETUP_PAGE
from ui.screens.base import BaseScreen, auto_height, list_column, listing, rewind, row
from ui.widgets import BigButton, Text


class HouseRulesScreen(BaseScreen):
    def on_pre_enter(self, *args: Any) -> None:
        rewind(self)

    def build(self, root: BoxLayout) -> None:
        h = self.f.setup.house()
        self.header(root, self.tr("ui.house.title", rules=h["rules"]), lambda: self.f.nav.go(SETUP_PAGE))
        sv = self.box("list", listing)  # kept: scrolled where the finger left it
        body = self.box("rows", lambda: list_column(spacing=theme.GAP_WIDE))
        for r in h["rows"]:
            body.add_widget(self.rule(r))
        sv.add_widget(body)
        root.add_widget(sv)

    def rule(self, r: HouseRow) -> BoxLayout:
        """One house rule: its name, its switch and amount on one row, what it does under them."""
        option = r["option"]
        box = auto_height(BoxLayout(orientation="vertical", size_hint_y=None, spacing=theme.GAP_TIGHT))
        line = row(theme.SETUP_ROW)
        line.add_widget(Text(r["name"], theme.FONT_BODY, bold=True, height=theme.SETUP_ROW))
        amount = r["amount"]
        if amount is not None:
            lower = BigButton("-", lambda: self.f.setup.step_house_rule(option, -1), "secondary",
                              size=theme.FONT_LARGE, size_hint_x=None, width=theme.WIDTH_NUDGE,
                              height=theme.SETUP_ROW)
            lower.role = f"house {option} -"
            lower.disabled = not amount["lower"]  # at its least: no lower
            line.add_widget(lower)
            shown = Text(amount["shown"], theme.FONT_BIG, bold=True, halign="center", size_hint_x=None,
                         width=theme.WIDTH_HOUSE_AMOUNT, height=theme.SETUP_ROW)
            shown.role = f"house {option} amount"
            line.add_widget(shown)
            higher = BigButton("+", lambda: self.f.setup.step_house_rule(option, 1), "secondary",
                               size=theme.FONT_LARGE, size_hint_x=None, width=theme.WIDTH_NUDGE,
                               height=theme.SETUP_ROW)
            higher.role = f"house {option} +"
            line.add_widget(higher)
        switch = r["switch"]
        if switch is not None:
            button = BigButton(self.tr("ui.house.switch_on" if switch else "ui.house.switch_off"),
                               lambda: self.f.setup.toggle_house_rule(option), "primary" if switch else "secondary",
                               size=theme.FONT_SMALL, size_hint_x=None, width=theme.WIDTH_HOUSE_SWITCH,
                               height=theme.SETUP_ROW)
            button.role = f"house {option}"
            line.add_widget(button)
        box.add_widget(line)
        box.add_widget(Text(r["what"], theme.FONT_SMALL, color=theme.MUTED))
        return box
