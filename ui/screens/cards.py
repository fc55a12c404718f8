"""Physical decks: the player picks the card they drew (each card's whole text on its button, as many lines
as it takes)."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout

from ui import theme
from ui.pages import TABLE_PAGE
from ui.screens.base import BaseScreen, list_column, listing
from ui.widgets import BigButton


class CardChoice(BigButton):
    """A card's button as tall as its text needs (a long card wraps to three or four lines), theme.TARGET_SNUG
    at the least."""

    def __init__(self, text: str, on_press: Any, **kw: Any) -> None:
        super().__init__(text, on_press, "secondary", size=theme.FONT_SMALL, height=theme.TARGET_SNUG, **kw)
        self.bind(size=self._wrap, texture_size=self._grow)  # after BigButton's own: the text wraps, unbounded
        self._wrap()

    def _wrap(self, *_: Any) -> None:
        self.text_size = (self.width - theme.TEXT_INSET, None)

    def _grow(self, *_: Any) -> None:
        self.height = max(theme.TARGET_SNUG, self.texture_size[1] + theme.TEXT_INSET)


class CardPickScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        self.header(root, self.tr("ui.cards.which"), lambda: self.f.nav.go(TABLE_PAGE))
        sv = self.box("list", listing)
        body = self.box("rows", list_column)
        for card in self.f.turn.card_choices():
            body.add_widget(CardChoice(card["text"], lambda cid=card["id"]: self.f.turn.pick_card(cid)))
        sv.add_widget(body)
        root.add_widget(sv)
