"""Before an own-property auction (biznes): the seller types the opening bid on the digit pad (within the
bounds and steps the rules allow), then taps to start."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme
from ui.pages import DEEDS_PAGE
from ui.screens.base import BaseScreen
from ui.widgets import BigButton, Text


class OwnAuctionScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        plan = self.f.auction.own_plan()
        info = self.f.auction.own_view(plan["player"], plan["space"])
        self.header(root, self.tr("ui.own.title", space=info["space"], player=plan["player"]),
                    lambda: self.f.nav.go(DEEDS_PAGE))
        self.pending_banner(root)
        opening = Text(self.tr("ui.own.reserve", amount=plan["reserve"]), theme.FONT_FIGURE, bold=True,
                       color=theme.ACCENT, halign="center")
        opening.role = "bid"  # the opening bid: a figure the table reads
        root.add_widget(opening)
        root.add_widget(Text(self.tr("ui.own.bounds", low=info["low"], high=info["high"], step=info["step"]),
                             theme.FONT_BODY, color=theme.MUTED, halign="center"))
        change = BigButton(self.tr("ui.own.change"), self.f.pad.reserve, "secondary", size=theme.FONT_BIG,
                           height=theme.TARGET_LARGE)
        change.role = "reserve"
        root.add_widget(change)
        root.add_widget(Text(self.tr("ui.own.how"), theme.FONT_BODY, color=theme.MUTED, halign="center"))
        self.notices(root, 2)
        root.add_widget(Widget())
        root.add_widget(BigButton(self.tr("ui.own.start", amount=plan["reserve"]), self.f.auction.own_go, "primary",
                                  size=theme.FONT_LARGE, height=theme.TARGET_LARGE))
