"""Before an own-property auction (biznes): the seller sets the opening bid, in steps, then taps to start."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme, view
from ui.screens.base import BaseScreen, row
from ui.widgets import BigButton, Text


class OwnAuctionScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        plan = self.nav.own_auction_plan()
        info = view.own_auction(self.c, plan["player"], plan["space"])
        self.header(root, self.tr("ui.own.title", space=info["space"], player=plan["player"]),
                    lambda: self.nav.go("deeds"))
        self.pending_banner(root)
        root.add_widget(Text(self.tr("ui.own.reserve", amount=plan["reserve"]), theme.FONT_HUGE, bold=True,
                             color=theme.ACCENT, halign="center"))
        root.add_widget(Text(self.tr("ui.own.bounds", low=info["low"], high=info["high"], step=info["step"]),
                             theme.FONT_BODY, color=theme.MUTED, halign="center"))
        steps = row(theme.TARGET_LARGE)
        for delta in (-10 * info["step"], -info["step"], info["step"], 10 * info["step"]):
            steps.add_widget(BigButton(f"{delta:+d}", lambda d=delta: self.nav.bump_reserve(d), "secondary",
                                       size=theme.FONT_BIG, height=theme.TARGET_LARGE))
        root.add_widget(steps)
        root.add_widget(Text(self.tr("ui.own.how"), theme.FONT_BODY, color=theme.MUTED, halign="center"))
        self.notices(root, 2)
        root.add_widget(Widget())
        root.add_widget(BigButton(self.tr("ui.own.start", amount=plan["reserve"]), self.nav.own_auction_go, "primary",
                                  size=theme.FONT_LARGE, height=theme.TARGET_LARGE))
