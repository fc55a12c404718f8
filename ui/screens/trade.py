"""A trade: the two players, the cash, deeds and jail cards each gives; both tap to agree (biznes: a
debtor's one firm for a rival's cash is a sale at no less than the bank's price). Each side's cash is typed on
the digit pad."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout

from ui import theme, view
from ui.screens.base import BaseScreen, column, row, scroll
from ui.widgets import BigButton, Panel, Text


class TradeScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        t = view.trade(self.c, self.nav.trade_offer())
        self.header(root, self.tr("ui.trade.title"), lambda: self.nav.go("table"))
        self.pending_banner(root)
        sides = BoxLayout(orientation="horizontal", spacing=theme.GAP_WIDE)
        for s in t["sides"]:
            side, who_key = s["side"], s["who_key"]
            panel = Panel(orientation="vertical")
            pick = row(theme.TARGET_COMPACT)
            for n in t["names"]:
                pick.add_widget(BigButton(n, lambda n=n, k=who_key: self.nav.trade_who(k, n),
                                          "primary" if s["who"] == n else "secondary", size=theme.FONT_DETAIL,
                                          height=theme.TARGET_COMPACT))
            panel.add_widget(pick)
            panel.add_widget(Text(self.tr("ui.trade.gives", player=s["who"], cash=s["cash"]), theme.FONT_BODY,
                                  bold=True))
            cash = BigButton(self.tr("ui.trade.cash", cash=s["cash"]), lambda s=side: self.nav.edit_trade_cash(s),
                             "secondary", size=theme.FONT_BODY, height=theme.TARGET_COMPACT)
            cash.role = f"trade cash {side}"
            panel.add_widget(cash)
            deeds = column()
            for d in s["deeds"]:
                deeds.add_widget(BigButton(("+ " if d["chosen"] else "") + d["name"],
                                           lambda s=side, i=d["index"]: self.nav.trade_space(s, i),
                                           "primary" if d["chosen"] else "secondary", size=theme.FONT_DETAIL,
                                           height=theme.TARGET_LIST))
            if s["jail_cards_held"]:
                deeds.add_widget(BigButton(self.tr("ui.trade.jail_cards", count=s["jail_cards"]),
                                           lambda s=side, most=s["jail_cards_held"]: self.nav.trade_cards(s, most),
                                           "secondary", size=theme.FONT_DETAIL, height=theme.TARGET_LIST))
            panel.add_widget(scroll(deeds))
            sides.add_widget(panel)
        root.add_widget(sides)
        if t["sale_least"] is not None:
            root.add_widget(Text(self.tr("ui.trade.sale_hint", player=t["from"], least=t["sale_least"]),
                                 theme.FONT_SMALL, color=theme.MUTED))
        self.notices(root, 1)
        root.add_widget(BigButton(self.tr("ui.trade.agree", a=t["from"], b=t["to"]), self.nav.trade_agree, "primary",
                                  size=theme.FONT_BIG, height=theme.TARGET_BAR))
