"""A trade: the two players, the cash, deeds and jail cards each gives; both tap to agree (biznes: a
debtor's one firm for a rival's cash is a sale at no less than the bank's price). Each side's cash is typed on
the digit pad. While both are asked to tap, each side's offer shows in words, as large as the room allows."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme
from ui.flows.trade import TradeSide
from ui.pages import TABLE_PAGE
from ui.screens.base import BaseScreen, column, list_column, listing, row
from ui.widgets import BigButton, Panel, Text

PICK_NAME_MOST = {1: 16, 2: 16, 3: 9, 4: 7}
"""Players side by side on a trade side's buttons, and the letters of the longest name that fits one of them
then (4: "Dorota", 3: "Francesca"); more players, or a longer name, are stepped through instead."""


class TradeScreen(BaseScreen):
    def _pick(self, names: list[str], who: str, other: str, key: str) -> BoxLayout:
        """Who gives on this side: a button per player, or with many players (or a long name) the name whole
        between a previous and a next button (the other side's player is skipped)."""
        pick = row(theme.TARGET_COMPACT)
        if max(map(len, names), default=0) <= PICK_NAME_MOST.get(len(names), 0):
            for n in names:
                pick.add_widget(BigButton(n, lambda n=n: self.f.trade.who(key, n),
                                          "primary" if who == n else "secondary", size=theme.FONT_SMALL,
                                          height=theme.TARGET_COMPACT))
            return pick
        choices = [n for n in names if n != other]
        at = choices.index(who) if who in choices else 0
        for step, label in ((-1, "<"), (1, ">")):
            button = BigButton(label, lambda step=step: self.f.trade.who(key, choices[(at + step) % len(choices)]),
                               "secondary", size=theme.FONT_BIG, size_hint_x=None, width=theme.WIDTH_NUDGE,
                               height=theme.TARGET_COMPACT)
            button.role = f"trade {key} {'next' if step > 0 else 'previous'}"
            pick.add_widget(button)
            if step < 0:
                pick.add_widget(Text(who, theme.FONT_BODY, bold=True, halign="center", height=theme.TARGET_COMPACT))
        return pick

    def _summary(self, s: TradeSide) -> Widget:
        """While both tap to agree: what this side gives (the cash, the deeds chosen, the jail cards), to read."""
        items = column()
        lines = [self.tr("ui.trade.cash", cash=s["cash"])] if s["cash"] else []
        lines += [d["name"] for d in s["deeds"] if d["chosen"]]
        if s["jail_cards"]:
            lines.append(self.tr("ui.trade.jail_cards", count=s["jail_cards"]))
        for line in lines or [self.tr("ui.trade.nothing")]:
            items.add_widget(Text(line, theme.FONT_BIG, bold=True, color=theme.TEXT if lines else theme.MUTED))
        sv = listing()
        sv.add_widget(items)
        return sv

    def build(self, root: BoxLayout) -> None:
        t = self.f.trade.view()
        agreeing = self.f.paying.view() is not None  # both are asked to tap: the offer is shown, not edited
        self.header(root, self.tr("ui.trade.title"), lambda: self.f.nav.go(TABLE_PAGE))
        self.pending_banner(root)
        sides = self.box("sides", lambda: BoxLayout(orientation="horizontal", spacing=theme.GAP_WIDE))
        for s in t["sides"]:
            side, who_key = s["side"], s["who_key"]
            panel = self.box(f"{side} panel", lambda: Panel(orientation="vertical"))
            other = next(o["who"] for o in t["sides"] if o is not s)
            if not agreeing:
                panel.add_widget(self._pick(t["names"], s["who"], other, who_key))
            gives = Text(self.tr("ui.trade.offer", player=s["who"]) if agreeing
                         else self.tr("ui.trade.gives", player=s["who"], cash=s["cash"]),
                         theme.FONT_BIG if agreeing else theme.FONT_BODY, bold=True,
                         color=theme.ACCENT if agreeing else theme.TEXT)
            gives.role = f"trade gives {side}"
            panel.add_widget(gives)
            if agreeing:
                panel.add_widget(self._summary(s))
                sides.add_widget(panel)
                continue
            cash = BigButton(self.tr("ui.trade.cash", cash=s["cash"]), lambda s=side: self.f.pad.trade_cash(s),
                             "secondary", size=theme.FONT_BODY, height=theme.TARGET_COMPACT)
            cash.role = f"trade cash {side}"
            panel.add_widget(cash)
            sv = self.box(f"{side} list", listing)  # kept: a deed chosen far down leaves it in view
            deeds = self.box(f"{side} rows", list_column)
            for d in s["deeds"]:
                deeds.add_widget(BigButton(("+ " if d["chosen"] else "") + d["name"],
                                           lambda s=side, i=d["index"]: self.f.trade.space(s, i),
                                           "primary" if d["chosen"] else "secondary", size=theme.FONT_SMALL,
                                           height=theme.TARGET_LIST))
            if s["jail_cards_held"]:
                deeds.add_widget(BigButton(self.tr("ui.trade.jail_cards", count=s["jail_cards"]),
                                           lambda s=side, most=s["jail_cards_held"]: self.f.trade.cards(s, most),
                                           "secondary", size=theme.FONT_SMALL, height=theme.TARGET_LIST))
            sv.add_widget(deeds)
            panel.add_widget(sv)
            sides.add_widget(panel)
        root.add_widget(sides)
        if t["sale_least"] is not None:
            root.add_widget(Text(self.tr("ui.trade.sale_hint", player=t["from"], least=t["sale_least"]),
                                 theme.FONT_SMALL, color=theme.MUTED))
        self.notices(root, 1)
        if not agreeing:  # the banner above asks for the taps (and cancels)
            agree = self.tr(self.s.by_mode("ui.trade.agree"), a=t["from"], b=t["to"])
            root.add_widget(BigButton(agree, self.f.trade.agree,
                                      "primary", size=theme.FONT_BIG, height=theme.TARGET_BAR))
