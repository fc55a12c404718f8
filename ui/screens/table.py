"""The turn: whose turn, big dice, where to move, the space's card and what can be done now; and the bar
to the other pages."""

from __future__ import annotations

import datetime
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme, view
from ui.controller import Controller
from ui.navigator import Navigator
from ui.screens.base import BaseScreen, auto_height, column, grid, row
from ui.widgets import BigButton, Chip, Die, Panel, QRCode, Stripe, Text, colour

LAST_SECONDS = 10  # a timer shows in red from here
CARD_BESIDE_MOST = 5  # players whose list leaves room under it for the deed card


class TableScreen(BaseScreen):
    """Redrawn after every tap, so each part is rebuilt only when its own data changed (`part`): a purchase
    rebuilds the balance, the banner and the buttons, not the dice, the deed card or the navigation bar."""

    def build(self, root: BoxLayout) -> None:
        t = view.table(self.c)
        lang = self.c.tr.language
        players, cur, debts = t["players"], t["current"], t["debts"]
        pending = view.pending(self.c)
        crowded = bool(debts or pending or t["clocked"])
        main = self.box("main", lambda: BoxLayout(orientation="horizontal", spacing=theme.GAP_WIDE))
        left = self.box("left", lambda: BoxLayout(orientation="vertical", spacing=theme.GAP, size_hint_x=0.62))
        left.add_widget(self.part("top", (lang, cur["name"], cur["colour"], cur["cash_text"]), lambda: self._top(cur)))
        end = t["end_time"]
        if end is not None:
            left.add_widget(Text(self.tr("ui.ends_at", time=datetime.datetime.fromtimestamp(end).strftime("%H:%M")),
                                 theme.FONT_SMALL, color=theme.MUTED))
        dice = t["dice"]
        left.add_widget(self.part("dice", (tuple(d["value"] for d in dice), t["move_hint"], crowded),
                                  lambda: self._dice(dice, t["move_hint"], crowded)))
        clock = view.clock(self.c)
        if clock is not None:
            left.add_widget(self.part("clock", (lang, tuple(sorted((k, str(v)) for k, v in clock.items()))),
                                      lambda: self._clock(clock)))
        if pending is not None:
            left.add_widget(self.part("pending", (lang, pending["prompt"], tuple(pending["needs"]),
                                                  tuple(pending["tapped"])), lambda: self._banner()))
        for debt in debts:
            left.add_widget(self.part(f"debt {debt['name']}", (lang, tuple(sorted(debt.items()))),
                                      lambda debt=debt: self._debt(debt)))
        count = 1 if crowded else 3
        shown = view.notices(self.c, count)
        left.add_widget(self.part("notices", (count, tuple(n["text"] for n in shown)), lambda: self._notices(count)))
        many = len(players) > CARD_BESIDE_MOST  # the players' list takes the right column: the card goes left,
        if many and not crowded:  # unless a debt, a banner or the clock needs the room
            left.add_widget(self._card(t, players, many))
        left.add_widget(self.box("left gap", Widget))
        buttons = view.buttons(self.c)
        left.add_widget(self.part("buttons", tuple((b["id"], b["text"], b["kind"]) for b in buttons),
                                  lambda: self._buttons(buttons)))
        main.add_widget(left)
        right = self.box("right", lambda: BoxLayout(orientation="vertical", spacing=theme.GAP, size_hint_x=0.38))
        plist = self.box("players", column)
        for p in players:  # one part per player: a payment redraws two rows, not the list
            plist.add_widget(self.part(f"player {p['name']}", tuple(sorted(p.items())), lambda p=p: self._player(p)))
        right.add_widget(plist)
        if not many:
            right.add_widget(self._card(t, players, many))
        else:
            right.add_widget(self.box("right gap", Widget))
        main.add_widget(right)
        root.add_widget(main)
        bar = t["nav"]
        root.add_widget(self.part("nav", (lang, tuple(sorted(bar.items()))), lambda: NavBar(self.c, self.nav, bar)))

    def _card(self, t: dict[str, Any], players: list[dict[str, Any]], many: bool) -> Any:
        """The space landed on as its deed card, or after a card tap that player's phone code; in the right
        column under the players, or (many players) in the left one, as tall as it needs."""
        lang = self.c.tr.language
        if many:
            card = self.box("card left", lambda: auto_height(Panel(orientation="vertical", size_hint_y=None)))
        else:
            card = self.box("card", lambda: Panel(orientation="vertical"))
        qr = t["player_qr"]
        if qr is not None:  # after a card tap: that player's own phone view, for a while
            card.add_widget(self.part("player qr title", (lang, qr["player"]),
                                      lambda: Text(self.tr("ui.phones.player", player=qr["player"]), theme.FONT_SMALL,
                                                   bold=True, halign="center")))
            link = qr["link"]
            shape: dict[str, Any] = {"size_hint": (None, None), "size": theme.QR_BESIDE,
                                     "pos_hint": {"center_x": 0.5}} if many else {"size_hint": (1, 1)}
            code = self.part(f"player qr {many}", link, lambda: QRCode(link, **shape))
            code.role = "qr player"
            card.add_widget(code)
        else:
            deed = t["deed"]
            compact = len(players) > 4
            card.add_widget(self.part("deed", (lang, deed["index"], compact),
                                      lambda: DeedCard(self.c, deed, compact)))
            owner = (lang, deed["owner"], deed["owner_colour"], deed["built"], deed["mortgaged"], deed["price"])
            card.add_widget(self.part("deed owner", owner, lambda: self._owner_line(deed)))
            if not many:
                card.add_widget(self.box("card gap", Widget))
        return card

    def _top(self, cur: dict[str, Any]) -> Widget:
        top = Panel(orientation="horizontal", size_hint_y=None, height=theme.TARGET)
        top.add_widget(Chip(cur["colour"], size=theme.CHIP_TURN, pos_hint={"center_y": 0.5}))
        top.add_widget(Text(self.tr("ui.turn_of", player=cur["name"]), theme.FONT_HEADLINE, bold=True,
                            height=theme.TARGET_MEDIUM))
        top.add_widget(Text(cur["cash_text"], theme.FONT_LEAD, bold=True, halign="right", color=theme.ACCENT,
                            height=theme.TARGET_MEDIUM, size_hint_x=0.4))
        return top

    def _clock(self, clock: dict[str, Any]) -> Widget:
        """brands: the minute of play, the economy, the turn timer, a pause or a vote to pause."""
        box = auto_height(BoxLayout(orientation="vertical", size_hint_y=None))
        if clock["paused"]:
            box.add_widget(Text(self.tr("ui.pause.paused"), theme.FONT_HEADLINE, bold=True, color=theme.ACCENT,
                                halign="center"))
            if clock["vote"] is None:
                box.add_widget(BigButton(self.tr("ui.pause.resume"), self.c.ask_resume, "primary",
                                         size=theme.FONT_BODY, height=theme.TARGET_SNUG))
        if clock["vote"] is not None:
            vote = Text(clock["vote"]["text"], theme.FONT_BODY, bold=True, color=theme.ACCENT)
            vote.role = "vote"
            box.add_widget(vote)
        line = clock["line"]
        if clock["turn"] is not None:
            line = self.tr("ui.timer.turn", seconds=clock["turn"]) + " · " + line
        if clock["debt"] is not None:
            line = self.tr("ui.timer.debt", seconds=clock["debt"]) + " · " + line
        last = bool(clock["turn"]) and clock["turn"] <= LAST_SECONDS
        timer = Text(line, theme.FONT_SMALL, bold=True, color=theme.WARNING if last else theme.MUTED)
        timer.role = "clock"
        box.add_widget(timer)
        return box

    def _dice(self, dice: list[dict[str, Any]], hint: str | None, crowded: bool) -> Widget:
        line = row(theme.DICE_ROW_CROWDED if crowded else theme.DICE_ROW)
        side = theme.DIE_CROWDED if crowded else theme.DIE
        for d in dice:
            if d["speed"]:
                label = d["face"]
                long = len(label) > 1  # "BUS"
                size = (theme.FONT_BODY if long else theme.FONT_HEADLINE) if crowded else \
                    (theme.FONT_TITLE if long else theme.FONT_HUGE)
                face = Text(label, size, bold=True, halign="center", color=theme.INK, size_hint_x=None,
                            width=theme.SPEED_FACE_WIDTH_CROWDED if crowded else theme.SPEED_FACE_WIDTH,
                            height=side[1] - 2 * theme.PAD)  # centred on the die
                face.role = "speed die"
                holder = Panel(size_hint=(None, None), size=side, fill=theme.SPEED_DIE)
                holder.add_widget(face)
                line.add_widget(holder)
                continue
            line.add_widget(Die(d["value"], size=side))
        line.add_widget(Text(hint or "", theme.FONT_BIG if crowded else theme.FONT_LARGE, bold=True,
                             height=theme.TARGET_SNUG, color=theme.ACCENT))
        return line

    def _banner(self) -> Widget:
        box = auto_height(BoxLayout(orientation="vertical", size_hint_y=None))
        self.pending_banner(box)
        return box

    def _debt(self, debt: dict[str, Any]) -> Widget:
        sell_off = debt["sell_off"]  # biznes: no mortgages; auctions and sales instead
        panel = auto_height(Panel(orientation="vertical", size_hint_y=None, fill=theme.DEBT_FILL))
        key = "ui.debt.line_sell" if sell_off else "ui.debt.line"
        if not debt["enough"]:  # owing more than everything can raise: bankruptcy is the way out
            key = "ui.debt.hopeless"
        panel.add_widget(Text(self.tr(key, **debt), theme.FONT_READ, bold=True))
        buttons = row(theme.TARGET_SNUG)
        buttons.add_widget(BigButton(self.tr("ui.debt.raise_sell" if sell_off else "ui.debt.raise"),
                                     lambda n=debt["name"]: self.nav.show_deeds(n), "secondary",
                                     size=theme.FONT_SMALL, height=theme.TARGET_SNUG))
        buttons.add_widget(BigButton(self.tr("ui.debt.sell_to_rival" if sell_off else "ui.btn.trade"),
                                     lambda n=debt["name"]: self.nav.start_trade(n), "secondary",
                                     size=theme.FONT_SMALL, height=theme.TARGET_SNUG))
        buttons.add_widget(BigButton(self.tr("ui.debt.concede"),
                                     lambda n=debt["name"]: self.c.request({"do": "concede", "player": n}),
                                     "danger", size=theme.FONT_SMALL, height=theme.TARGET_SNUG))
        panel.add_widget(buttons)
        return panel

    def _notices(self, count: int) -> Widget:
        box = auto_height(BoxLayout(orientation="vertical", size_hint_y=None))
        self.notices(box, count, one_line=count == 1)
        return box

    def _buttons(self, buttons: list[dict[str, Any]]) -> Widget:
        box = grid(2)
        for b in buttons:
            box.add_widget(BigButton(b["text"], lambda b=b: self.nav.press(b), b["kind"], size=theme.FONT_BODY,
                                     height=theme.TARGET_LARGE))
        return box

    def _player(self, p: dict[str, Any]) -> Widget:
        line = Panel(orientation="horizontal", size_hint_y=None, height=theme.LINE_PLAYER, padding=theme.PLAYER_PAD,
                     fill=theme.CURRENT_FILL if p["current"] else None)
        line.add_widget(Chip(p["colour"], pos_hint={"center_y": 0.5}))
        line.add_widget(Text(p["name"] + (f"  ({p['flags']})" if p["flags"] else ""), theme.FONT_SMALL,
                             height=theme.LINE_PLAYER_TEXT))
        line.add_widget(Text(p["cash_text"], theme.FONT_BIG, bold=True, halign="right", height=theme.LINE_PLAYER_TEXT,
                             size_hint_x=0.45))
        return line

    def _owner_line(self, deed: dict[str, Any]) -> Widget:
        if deed["owner"]:
            extra = ", ".join(x for x in (deed["built"], self.tr("ui.deed.mortgaged") if deed["mortgaged"] else "")
                              if x)
            return Text(self.tr("ui.deed.owner", owner=deed["owner"]) + (f" — {extra}" if extra else ""),
                        theme.FONT_SMALL, bold=True, halign="center", color=colour(deed["owner_colour"]))
        if deed["price"] is not None:
            return Text(self.tr("ui.deed.for_sale"), theme.FONT_SMALL, bold=True, halign="center", color=theme.ACCENT)
        return Widget(size_hint_y=None, height=0)


class DeedCard(BoxLayout):
    """The printed part of a title deed: colour, name, price and rents (the owner is drawn beside it)."""

    def __init__(self, c: Controller, deed: dict[str, Any], compact: bool = False, **kw: Any) -> None:
        super().__init__(orientation="vertical", size_hint_y=None, spacing=theme.GAP_TIGHT, **kw)
        self.bind(minimum_height=self.setter("height"))
        self.add_widget(Stripe(deed["colour"], height=theme.STRIPE_DEED))
        self.add_widget(Text(deed["name"], theme.FONT_BIG, bold=True, halign="center"))
        if deed["price"] is not None:
            self.add_widget(Text(c.tr("ui.deed.price", price=deed["price"]), theme.FONT_SMALL, halign="center",
                                 color=theme.MUTED))
        if not compact and deed["lines"]:
            lines = grid(2, spacing=(theme.GAP, 0))
            for line in deed["lines"]:
                lines.add_widget(Text(line, theme.FONT_SMALL, halign="center"))
            self.add_widget(lines)


class NavBar(BoxLayout):
    """Deeds, trade, the money log and the banker; brands' pause; the bank's buildings and the hardware."""

    def __init__(self, c: Controller, nav: Navigator, bar: dict[str, Any], **kw: Any) -> None:
        super().__init__(orientation="horizontal", size_hint_y=None, height=theme.TARGET_SNUG, spacing=theme.GAP,
                         **kw)
        for key, page in ((bar["deeds_key"], "deeds"), ("ui.nav.trade", "trade"), ("ui.nav.log", "log"),
                          ("ui.nav.banker", "banker")):
            self.add_widget(BigButton(c.tr(key), lambda p=page: nav.go(p), "secondary", size=theme.FONT_SMALL,
                                      height=theme.TARGET_SNUG))
        if bar["can_pause"]:
            self.add_widget(BigButton(c.tr("ui.btn.pause"), c.ask_pause, "secondary", size=theme.FONT_SMALL,
                                      height=theme.TARGET_SNUG))
        self.add_widget(Text(bar["pool"] + "\n" + bar["status"], theme.FONT_SMALL, color=theme.MUTED,
                             height=theme.TARGET_SNUG))
