"""An auction: the property, the high bid and its leader, each bidder's cash, Bid and Pass, the step, Sold!
(biznes: bids go round the table in fixed steps; an own-property auction's countdown; brands' bid timer)."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme, view
from ui.screens.base import BaseScreen, grid, row
from ui.widgets import BigButton, Chip, Panel, Text

STEP_CHANGE = 5  # the Step -/+ buttons change the classic auction's step by this much
LAST_SECONDS = 10  # the own-auction countdown shows in red from here
COLUMN_MOST = 3  # bidders in one column; more go into two


class AuctionScreen(BaseScreen):
    """Every bidder shows without scrolling: up to COLUMN_MOST in one column, more in two."""

    def _bidder(self, b: dict[str, Any], stepped: bool, compact: bool) -> Widget:
        fill = theme.LEADING_FILL if b["leading"] else theme.CURRENT_FILL if b["turn"] and compact else None
        height = theme.TARGET_COMPACT if compact else theme.TARGET_BAR
        pad = theme.PAD_SLIM if compact else theme.PAD
        line = Panel(orientation="horizontal", size_hint_y=None, height=height, fill=fill, padding=pad)
        line.add_widget(Chip(b["colour"], pos_hint={"center_y": 0.5}))
        state = self.tr("ui.auction.leading") if b["leading"] else self.tr("ui.auction.your_bid") \
            if b["turn"] else "" if b["in"] else self.tr("ui.auction.out")
        if compact and b["in"]:
            state = ""  # the colour says who leads and whose bid it is; the line above names the leader
        words = f"{b['name']}\n{b['cash_text']}  {state}" if compact else f"{b['name']}  {b['cash_text']}  {state}"
        who = Text(words.rstrip(), theme.FONT_SMALL if compact else theme.FONT_BIG, bold=True,
                   color=theme.TEXT if b["in"] else theme.MUTED, height=height - 2 * pad)
        line.add_widget(who)
        button_height = height - 2 * pad
        if b["may_bid"]:
            line.add_widget(BigButton(self.tr("ui.auction.bid", amount=b["next"]),
                                      lambda n=b["name"]: self.nav.auction_bid(n), "primary",
                                      size=theme.FONT_SMALL, size_hint_x=None,
                                      width=theme.WIDTH_BID_COMPACT if compact else theme.WIDTH_BID,
                                      height=button_height))
        if b["in"] and (not b["leading"] or stepped):  # stepped: the high bidder may pass and keep the bid
            passing = BigButton(self.tr("ui.auction.pass"),
                                lambda n=b["name"]: self.c.request({"do": "pass", "player": n}),
                                "secondary", size=theme.FONT_SMALL, size_hint_x=None,
                                width=theme.WIDTH_PASS_COMPACT if compact else theme.WIDTH_PASS, height=button_height)
            passing.role = f"pass {b['name']}"
            line.add_widget(passing)
        return line

    def build(self, root: BoxLayout) -> None:
        a = view.auction(self.c)
        if a is None:
            return
        title = self.tr("ui.auction.title", what=a["what"])
        if a["price"]:
            title += "  " + self.tr("ui.deed.price", price=a["price"])
        self.header(root, title)
        lead = self.tr("ui.auction.high", amount=a["high_bid"], player=a["leader"]) if a["leader"] \
            else self.tr("ui.auction.no_bid", amount=a["min_bid"])
        root.add_widget(Text(lead, theme.FONT_LEAD, bold=True, color=theme.ACCENT, halign="center"))
        if a["seller"]:
            root.add_widget(Text(self.tr("ui.auction.seller", player=a["seller"]), theme.FONT_BODY, bold=True,
                                 halign="center"))
        if a["bid_countdown"] is not None:
            bid_timer = Text(self.tr("ui.auction.bid_countdown", seconds=a["bid_countdown"]), theme.FONT_BIG,
                             bold=True, color=theme.ACCENT, halign="center")
            bid_timer.role = "bid countdown"
            root.add_widget(bid_timer)
        if a["countdown"] is not None:
            timer = Text(self.tr("ui.auction.countdown", seconds=a["countdown"]), theme.FONT_LARGE, bold=True,
                         color=theme.WARNING if a["countdown"] <= LAST_SECONDS else theme.ACCENT, halign="center")
            timer.role = "countdown"
            root.add_widget(timer)
        how = self.tr("ui.auction.how_stepped", step=a["fixed_step"]) if a["stepped"] \
            else self.tr("ui.auction.how", step=a["step"])
        root.add_widget(Text(how, theme.FONT_BODY, color=theme.MUTED, halign="center"))
        self.pending_banner(root)
        bidders = a["bidders"]
        compact = len(bidders) > COLUMN_MOST  # two columns: every bidder on screen, none scrolled away
        body = grid(2 if compact else 1)
        for b in bidders:
            body.add_widget(self._bidder(b, a["stepped"], compact))
        root.add_widget(body)
        self.notices(root, 1, one_line=True)  # a refused bid says why
        root.add_widget(Widget())
        bottom = row(theme.TARGET_BAR)
        if not a["stepped"]:  # fixed steps (biznes) need no step control
            for delta in (-STEP_CHANGE, STEP_CHANGE):
                bottom.add_widget(BigButton(self.tr("ui.auction.step", delta=f"{delta:+d}"),
                                            lambda d=delta: self.nav.bid_step(d), "secondary", size=theme.FONT_SMALL,
                                            height=theme.TARGET_BAR))
        if a["can_close"]:
            key = "ui.auction.cancel" if a["stepped"] else "ui.auction.sold"
            bottom.add_widget(BigButton(self.tr(key), lambda: self.c.request({"do": "close_auction"}),
                                        "accent", size=theme.FONT_BIG, height=theme.TARGET_BAR))
        root.add_widget(bottom)
