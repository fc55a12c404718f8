"""The turn screen's own parts (ui/screens/table.py lays them out): the Free Parking jackpot's mark, the deed
card of the space landed on, the bar to the other pages, and the latest notices in the room the column leaves."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.graphics import Color, Ellipse
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme
from ui.flows import Flows
from ui.screens.base import column, grid, list_column, listing
from ui.session import Session
from ui.widgets import BigButton, Stripe, Text, snug, text_width, texture_size

if TYPE_CHECKING:
    from ui.flows.turn import NavBar as NavBarView
    from ui.view import Deed


class PotMark(Widget):
    """The jackpot's mark beside its line, where a player's line has their colour: a gold coin."""

    def __init__(self, **kw: Any) -> None:
        kw.setdefault("size_hint", (None, None))
        kw.setdefault("size", theme.CHIP)
        super().__init__(**kw)
        with self.canvas:
            Color(*theme.ACCENT)
            self._coin = Ellipse()
        self.bind(pos=self._redraw, size=self._redraw)

    def _redraw(self, *_: Any) -> None:
        side = min(self.width, self.height)
        self._coin.pos = (self.center_x - side / 2, self.center_y - side / 2)
        self._coin.size = (side, side)


class DeedCard(BoxLayout):
    """The printed part of a title deed: colour, name, price and rents (the owner is drawn beside it)."""

    def __init__(self, s: Session, deed: Deed, compact: bool = False, **kw: Any) -> None:
        super().__init__(orientation="vertical", size_hint_y=None, spacing=theme.GAP_TIGHT, **kw)
        self.bind(minimum_height=self.setter("height"))
        self.add_widget(Stripe(deed["colour"], height=theme.STRIPE_DEED))
        self.add_widget(Text(deed["name"], theme.FONT_BIG, bold=True, halign="center"))
        if deed["price"] is not None:
            self.add_widget(Text(s.tr("ui.deed.price", price=deed["price"]), theme.FONT_SMALL, halign="center",
                                 color=theme.MUTED))
        if not compact and deed["lines"]:
            lines = grid(2, spacing=(theme.GAP, 0))
            for line in deed["lines"]:
                lines.add_widget(Text(line, theme.FONT_SMALL, halign="center"))
            self.add_widget(lines)


def longest_word(text: str, size: float) -> float:
    """The width of the widest word of `text` in bold at `size`: what a button of it needs not to break a word."""
    return max((text_width(word, size) for word in text.split()), default=0.0)


class NavBar(BoxLayout):
    """The pages the registry puts on the bar (deeds, trade, the money log, the banker); brands' pause; the card
    reader's and the dice button's state."""

    def __init__(self, f: Flows, bar: NavBarView, **kw: Any) -> None:
        super().__init__(orientation="horizontal", size_hint_y=None, height=theme.TARGET_MEDIUM, spacing=theme.GAP,
                         **kw)
        tr = f.session.tr
        buttons = [BigButton(tr(key), lambda p=page: f.nav.go(p), "secondary", size=theme.FONT_SMALL,
                             height=theme.TARGET_MEDIUM)
                   for page, key in bar["links"]]  # the pages the registry puts on the bar (ui/pages.py)
        if bar["can_pause"]:
            buttons.append(BigButton(tr("ui.btn.pause"), f.clock.ask_pause, "secondary", size=theme.FONT_SMALL,
                                     height=theme.TARGET_MEDIUM))
        for b in buttons:  # the room shared by each one's longest word: "Nieruchomości" wider than "Handel"
            b.size_hint_x = longest_word(b.text, b.font_size) + theme.TEXT_INSET
            self.add_widget(b)
        self.add_widget(snug(Text(bar["status"], theme.FONT_SMALL, color=theme.MUTED, height=theme.TARGET_MEDIUM)))


class Notices(BoxLayout):
    """The latest notices of the turn (who paid whom and why, errors in red) in the room the turn screen's column
    leaves: the dice rolled first ("Ann rolled 5 + 4", whatever came after them), then the others newest first,
    each whole, in a list that scrolls (its bar in sight) when they are more than the room: a long message never
    pushes the roll out of sight, and is never cut (the money log keeps every word). A flexible part of the
    column, so it never pushes the column out of the window; with no room for even the first line, none shows."""

    def __init__(self, texts: list[Text], **kw: Any) -> None:
        """`texts`: a Text a notice, oldest first (TableScreen keeps them from one refresh to the next)."""
        super().__init__(orientation="vertical", **kw)
        self.texts = list(reversed(texts))
        self.rest = Widget()
        # The notices that fit stand in a plain column; only when they are more than the room do they go in a
        # list that scrolls. A ScrollView's bar fades and its scroll effect ticks for a while after each change,
        # a frame drawn every tick: on the table, a redraw a tap (the tap benchmark's tap to screen went from
        # 9 to 33 ms at p50 with the notices always in one).
        self.plain = column()
        self.scroll = listing()
        self.scroll.size_hint_y = None
        self.scrolled = list_column()
        self.scroll.add_widget(self.scrolled)
        self.bind(size=self._fit, parent=self._fit)

    def show(self, texts: list[Text]) -> None:
        """The notices to show now, oldest first (the widget is kept from one refresh to the next)."""
        newest_first = list(reversed(texts))
        if newest_first != self.texts or any(getattr(t, "measured", None) is None
                                             or t.measured[0] != t.text for t in texts):
            self.texts = newest_first
            self._fit()

    def _fit(self, *_: Any) -> None:
        if self.parent is None:  # not laid out yet: measuring at Kivy's first 100 px would draw each text twice
            return
        rolls = [t for t in self.texts if getattr(t, "kind", None) == "roll"][:1]  # the newest roll, first
        order = rolls + [t for t in self.texts if all(t is not r for r in rolls)]  # then the newest first
        width = self.width
        heights = [self._measure(t, width) for t in order]
        overflow = sum(heights) + theme.GAP * max(0, len(order) - 1) > self.height
        if overflow:  # more than the room: a list that scrolls
            width = self.width - theme.LIST_BAR - theme.GAP
            heights = [self._measure(t, width) for t in order]
        if order and heights[0] > self.height:  # not even the first: the log has them
            order = []
        for text, height in zip(order, heights, strict=False):  # (none shown: `order` emptied above)
            text.height = height
        whole = sum(heights[:len(order)]) + theme.GAP * max(0, len(order) - 1)
        holder, shown = (self.scrolled, self.scroll) if overflow else (self.plain, self.plain)
        self.scrolled.padding = [0, 0, self.width - width, 0]
        self.scroll.height = min(whole, self.height)
        if [c for c in reversed(holder.children)] == order and (shown.parent is self) == bool(order):
            return
        self.clear_widgets()
        self.scrolled.clear_widgets()
        self.plain.clear_widgets()
        for text in order:
            if text.parent is not None:  # still in the notices of the last refresh
                text.parent.remove_widget(text)
            holder.add_widget(text)
        if order:
            if overflow:
                self.scroll.scroll_y = 1  # the roll and the newest first
            self.add_widget(shown)
        self.add_widget(self.rest)

    @staticmethod
    def _measure(text: Text, width: float) -> float:
        """The notice's height whole at `width` (drawn once a width and words)."""
        if getattr(text, "measured", None) != (text.text, width) or not texture_size(text)[1]:
            text.width = width  # Text wraps to its width
            text.text_size = (width, None)
            text.texture_update()  # drawn once a width and words, to know its height now
            text.measured = (text.text, width)
        return texture_size(text)[1]
