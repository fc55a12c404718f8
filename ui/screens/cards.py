"""Physical decks: the player picks the card they drew."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout

from ui import theme, view
from ui.screens.base import BaseScreen
from ui.screens.setup import list_column, listing
from ui.widgets import BigButton


class CardPickScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        self.header(root, self.tr("ui.cards.which"), lambda: self.nav.go("table"))
        sv = self.box("list", listing)
        body = self.box("rows", list_column)
        for card in view.card_choices(self.c):
            body.add_widget(BigButton(card["text"], lambda cid=card["id"]: self.nav.pick_card(cid), "secondary",
                                      size=theme.FONT_SMALL, height=theme.TARGET_SNUG))
        sv.add_widget(body)
        root.add_widget(sv)
