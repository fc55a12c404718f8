"""An auction: the property, the high bid and its leader, each bidder's cash, Bid and Pass, the step, Sold!
(biznes: bids go round the table in fixed steps; an own-property auction's countdown; brands' bid timer).

Every bidder shows without scrolling, 8 of them at 800x480 too: up to COLUMN_MOST in one column, more in two.
The high bid (role "bid") and a countdown's seconds (role "timer") are in theme.FONT_FIGURE, the figures a
family reads from across the table; the countdown sits in the bottom bar, beside the button that ends the
auction, so it takes no line of its own."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme
from ui.flows.auction import Bidder
from ui.screens.base import BaseScreen, grid, row
from ui.widgets import BigButton, Chip, Panel, Text

STEP_CHANGE = 5  # the "Bid step -/+" buttons change the classic auction's step by this much
LAST_SECONDS = 10  # the own-auction countdown shows in red from here
COLUMN_MOST = 3  # bidders in one column (one fewer under a seller's line); more go into two


class AuctionScreen(BaseScreen):
    def _bidder(self, b: Bidder, stepped: bool, compact: bool) -> Widget:
        fill = theme.LEADING_FILL if b["leading"] else theme.CURRENT_FILL if b["turn"] and compact else None
        height = theme.BIDDER_ROW_COMPACT if compact else theme.BIDDER_ROW
        # compact: no padding above and below, so the buttons keep the whole (least) height of a target
        pad = [theme.PAD_SLIM, 0, theme.PAD_SLIM, 0] if compact else [theme.PAD, theme.PAD_SLIM, theme.PAD,
                                                                      theme.PAD_SLIM]
        line = Panel(orientation="horizontal", size_hint_y=None, height=height, fill=fill, padding=pad)
        line.add_widget(Chip(b["colour"], pos_hint={"center_y": 0.5}))
        state = self.tr("ui.auction.leading") if b["leading"] else self.tr("ui.auction.your_bid") \
            if b["turn"] else "" if b["in"] else self.tr("ui.auction.out")
        if compact and b["in"]:
            state = ""  # the colour says who leads and whose bid it is; the line above names the leader
        words = f"{b['name']}\n{b['cash_text']}  {state}" if compact else f"{b['name']}  {b['cash_text']}  {state}"
        inner = height if compact else height - 2 * theme.PAD_SLIM
        who = Text(words.rstrip(), theme.FONT_SMALL if compact else theme.FONT_BIG, bold=True,
                   color=theme.TEXT if b["in"] else theme.MUTED, height=inner)
        line.add_widget(who)
        if b["may_bid"]:
            line.add_widget(BigButton(self.tr("ui.auction.bid", amount=b["next"]),
                                      lambda n=b["name"]: self.f.auction.bid_button(n), "primary",
                                      size=theme.FONT_SMALL, size_hint_x=None,
                                      width=theme.WIDTH_BID_COMPACT if compact else theme.WIDTH_BID,
                                      height=inner))
        if b["in"] and (not b["leading"] or stepped):  # stepped: the high bidder may pass and keep the bid
            passing = BigButton(self.tr("ui.auction.pass"),
                                lambda n=b["name"]: self.f.paying.request({"do": "pass", "player": n}),
                                "secondary", size=theme.FONT_SMALL, size_hint_x=None,
                                width=theme.WIDTH_PASS_COMPACT if compact else theme.WIDTH_PASS, height=inner)
            passing.role = f"pass {b['name']}"
            line.add_widget(passing)
        return line

    def _timer(self, caption: str, seconds: int, warn: bool) -> Widget:
        """"No bid yet: cancelled in  60 s": the words, and the seconds as a figure."""
        box = BoxLayout(orientation="horizontal", spacing=theme.GAP_WIDE)
        box.add_widget(Text(caption, theme.FONT_BODY, bold=True, halign="right", height=theme.TARGET_BAR))
        figure = Text(self.tr("ui.auction.seconds", seconds=seconds), theme.FONT_FIGURE, bold=True,
                      color=theme.WARNING if warn else theme.ACCENT, size_hint_x=None, width=theme.WIDTH_TIMER,
                      height=theme.TARGET_BAR)
        figure.role = "timer"
        box.add_widget(figure)
        return box

    def build(self, root: BoxLayout) -> None:
        a = self.f.auction.view()
        if a is None:
            return
        title = self.tr("ui.auction.title", what=a["what"])
        if a["price"]:
            title += "  " + self.tr("ui.deed.price", price=a["price"])
        self.header(root, title)
        lead = self.tr("ui.auction.high", amount=a["high_bid"], player=a["leader"]) if a["leader"] \
            else self.tr("ui.auction.no_bid", amount=a["opening"])
        bid = Text(lead, theme.FONT_FIGURE, bold=True, color=theme.ACCENT, halign="center")
        bid.role = "bid"
        root.add_widget(bid)
        if a["seller"]:
            root.add_widget(Text(self.tr("ui.auction.seller", player=a["seller"]), theme.FONT_BODY, bold=True,
                                 halign="center"))
        how = self.tr("ui.auction.how_stepped", step=a["fixed_step"]) if a["stepped"] \
            else self.tr(a["how_key"], step=a["step"])
        root.add_widget(Text(how, theme.FONT_SMALL, color=theme.MUTED, halign="center"))
        self.pending_banner(root)
        bidders = a["bidders"]
        # two columns: every bidder on screen, none scrolled away
        compact = len(bidders) > (COLUMN_MOST - 1 if a["seller"] else COLUMN_MOST)
        body = grid(2 if compact else 1, spacing=theme.GAP_TIGHT if compact else theme.GAP)
        for b in bidders:
            body.add_widget(self._bidder(b, a["stepped"], compact))
        root.add_widget(body)
        self.notices(root, 1, one_line=True)  # a refused bid says why
        root.add_widget(Widget())
        bottom = row(theme.TARGET_BAR)
        if a["countdown"] is not None:
            bottom.add_widget(self._timer(self.tr("ui.auction.cancel_in"), a["countdown"],
                                          a["countdown"] <= LAST_SECONDS))
        elif a["bid_countdown"] is not None:
            bottom.add_widget(self._timer(self.tr("ui.auction.bid_in"), a["bid_countdown"],
                                          a["bid_countdown"] <= LAST_SECONDS))
        if not a["stepped"]:  # fixed steps (biznes) need no step control
            for delta in (-STEP_CHANGE, STEP_CHANGE):
                bottom.add_widget(BigButton(self.tr("ui.auction.step", delta=f"{delta:+d}"),
                                            lambda d=delta: self.f.auction.step(d), "secondary", size=theme.FONT_SMALL,
                                            height=theme.TARGET_BAR))
        if a["can_close"]:
            key = "ui.auction.cancel" if a["stepped"] else "ui.auction.sold"
            bottom.add_widget(BigButton(self.tr(key), lambda: self.f.paying.request({"do": "close_auction"}),
                                        "accent", size=theme.FONT_BIG, height=theme.TARGET_BAR))
        root.add_widget(bottom)
