"""brands' casino: pick one to three numbers and bet, or walk away; the dice button (or Bet) rolls the die.
While the bet waits for the player's card, the banner asks for it in place of the rules and the buttons."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme
from ui.pages import TABLE_PAGE
from ui.screens.base import BaseScreen, row
from ui.widgets import BigButton, Text


class CasinoScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        k = self.f.turn.casino()
        bet, pick = k["bet"], k["pick"]
        self.header(root, self.tr("ui.casino.title", player=k["player"], jackpot=k["jackpot"]),
                    lambda: self.f.nav.go(TABLE_PAGE))
        self.pending_banner(root)
        betting = self.f.paying.view() is not None  # the bet waits for the player's card: the banner asks
        if not betting:
            root.add_widget(Text(self.tr("ui.casino.how", bet=bet, jackpot=k["jackpot"], odds=k["odds"]),
                                 theme.FONT_READ, color=theme.MUTED, halign="center"))
        numbers = row(theme.ROW_DIE)
        for n in range(1, 7):
            b = BigButton(str(n), lambda n=n: self.f.turn.casino_toggle(n), "primary" if n in pick else "secondary",
                          size=theme.FONT_LEAD, height=theme.ROW_DIE)
            b.role = f"casino {n}"
            numbers.add_widget(b)
        root.add_widget(numbers)
        if pick:
            root.add_widget(Text(self.tr("ui.casino.pays", numbers=", ".join(map(str, pick)), win=k["win"]),
                                 theme.FONT_LARGE, bold=True, color=theme.ACCENT, halign="center"))
        self.notices(root, 2)
        root.add_widget(Widget())
        if betting:
            return
        bottom = row(theme.TARGET_LARGE)
        bottom.add_widget(BigButton(self.tr("ui.btn.casino_no"), lambda: self.f.paying.request({"do": "casino"}), "secondary",
                                    size=theme.FONT_BODY, height=theme.TARGET_LARGE))
        if pick:
            bottom.add_widget(BigButton(self.tr("ui.casino.bet", bet=bet, numbers=", ".join(map(str, pick))),
                                        lambda: self.f.paying.request({"do": "casino", "numbers": list(pick)}), "primary",
                                        size=theme.FONT_BODY, height=theme.TARGET_LARGE))
        root.add_widget(bottom)
