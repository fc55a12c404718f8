"""The turn: whose turn, big dice, where to move, the space's card and what can be done now; and the bar
to the other pages."""

from __future__ import annotations

import datetime
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme, view
from ui.flows import Flows
from ui.session import Session
from ui.screens.base import BaseScreen, auto_height, column, grid, list_column, listing, notice_colour, row
from ui.board import BoardFrame
from ui.widgets import BigButton, Chip, Die, Panel, QRCode, Stripe, Text, colour, snug

LAST_SECONDS = 10  # a timer shows in red from here
PLAYERS_ONE_COLUMN = 4  # more players than this share their list out in two columns
PLAYERS_COMPACT = 4  # from this many players their lines are shorter
POT_ONE_COLUMN = 3  # with the Free Parking jackpot's line, more lines than this share the list out in two columns
NOTICES_MOST = 3  # the latest notices of the turn, the newest first, as many of them as fit


class TableScreen(BaseScreen):
    """Whose turn and their cash across the top; the board on the left, with the dice and the deed card of
    the space landed on in its middle; on the right the players, the one large prompt (or the banner
    waiting for card taps, or a debt), the latest notices and the turn's buttons; the bar to the other
    pages at the bottom.

    Redrawn after every tap, so each part is rebuilt only when its own data changed (`part`): a purchase
    rebuilds the balance, the banner and the buttons, not the dice, the deed card or the navigation bar;
    the board is one widget, told the new data (it draws again only if it changed)."""

    def build(self, root: BoxLayout) -> None:
        t = self.f.turn.view()
        lang = self.s.tr.language
        players, cur, debts = t["players"], t["current"], t["debts"]
        pending = self.f.paying.view()
        self._top(root, cur)
        main = self.box("main", lambda: BoxLayout(orientation="horizontal", spacing=theme.GAP_WIDE))
        board = view.board(self.s)
        frame = self.part("board", (), lambda: BoardFrame(board, square=True))
        frame.board.update(board)  # drawn again only if it changed
        middle = self.box("middle", lambda: frame.middle)
        self._middle(middle, t)
        main.add_widget(frame)
        right = self.box("right", lambda: BoxLayout(orientation="vertical", spacing=theme.GAP))
        pot = t["pot"]  # the Free Parking jackpot's line (with its house rule), one more in the players' list
        lines = len(players) + (1 if pot is not None else 0)
        cols = 1 if len(players) <= PLAYERS_ONE_COLUMN and (pot is None or lines <= POT_ONE_COLUMN) else 2
        buttons = self.f.turn.buttons() if pending is None else []  # the banner's Cancel is the way out
        clock = self.f.clock.view()
        # A crowded column (four players or more, a debt, a banner, the clock, many buttons) takes less room a
        # part, so the notices keep some.
        crowded = bool(debts or pending or clock) or len(players) >= PLAYERS_COMPACT or len(buttons) > 2
        line = theme.LINE_PLAYER_COMPACT if len(players) >= PLAYERS_COMPACT else theme.LINE_PLAYER
        plist = self.box(f"players {cols}", lambda: grid(cols))
        for p in players:  # a row per player, its cash changed in place: a payment draws two amounts again
            plist.add_widget(self._player(p, line))
        if pot is not None:  # the Free Parking jackpot, under the players like one more purse
            plist.add_widget(self._pot(pot, line))
        right.add_widget(plist)
        end = t["end_time"]
        if end is not None:
            right.add_widget(Text(self.tr("ui.ends_at", time=datetime.datetime.fromtimestamp(end).strftime("%H:%M")),
                                  theme.FONT_SMALL, color=theme.MUTED))
        if clock is not None:
            right.add_widget(self.part("clock", (lang, tuple(sorted((k, str(v)) for k, v in clock.items()))),
                                       lambda: self._clock(clock)))
        if pending is not None:
            right.add_widget(self.part("pending", (lang, pending["prompt"], tuple(pending["needs"]),
                                                   tuple(pending["tapped"])), lambda: self._banner()))
        explain = cols == 1 and len(debts) == 1  # what the debt means, when the column has room for it
        for debt in debts if pending is None else ():  # while a card is awaited, its banner is what happens now
            right.add_widget(self.part(f"debt {debt['name']}", (lang, explain, tuple(sorted(debt.items()))),
                                       lambda debt=debt: self._debt(debt, explain)))
        prompt = self.f.turn.prompt(buttons)
        if prompt is not None:  # its words and font changed in place (a crowded column takes a smaller one)
            said = self.words("prompt", prompt, lambda: self._prompt(prompt, crowded))
            size = theme.FONT_LARGE if crowded else theme.FONT_PROMPT
            if said.font_size != size:
                said.font_size = size
            right.add_widget(said)
        # The latest notices of this turn fill the room left above the buttons, as many as fit (a refused
        # card shows under the banner that asked for one).
        shown = view.notices(self.s, NOTICES_MOST)
        notices = self.part("notices", (), lambda: Notices([]))  # kept, told the texts to show
        notices.role = "notices"
        notices.show(self._notice_texts(shown))
        right.add_widget(notices)
        if buttons:
            right.add_widget(self._buttons(buttons, crowded))
        main.add_widget(right)
        root.add_widget(main)
        bar = t["nav"]
        shown_bar = tuple(sorted((k, v) for k, v in bar.items() if k != "pool"))  # the pool is in the board's middle
        root.add_widget(self.part("nav", (lang, shown_bar), lambda: NavBar(self.f, bar)))

    def _middle(self, middle: Any, t: dict[str, Any]) -> None:
        """The board's middle: the dice, then where to move the token and the space landed on as its deed
        card (after a card tap, that player's phone code instead), else the bank's buildings left."""
        lang = self.s.tr.language
        middle.add_widget(self.box("middle top", Widget))
        dice = t["dice"]
        qr = t["player_qr"]
        hint = t["move_hint"]
        if dice and qr is None:
            middle.add_widget(self.part("dice", tuple(d["value"] for d in dice), lambda: self._dice(dice)))
        if qr is not None:  # after a card tap: that player's own phone view, for a while
            middle.add_widget(self.part("player qr title", (lang, qr["player"]),
                                        lambda: Text(self.tr("ui.phones.player", player=qr["player"]),
                                                     theme.FONT_SMALL, bold=True, halign="center")))
            link = qr["link"]
            code = self.part("player qr", link, lambda: QRCode(link, size_hint=(None, None), size=theme.QR_BESIDE,
                                                               pos_hint={"center_x": 0.5}))
            code.role = "qr player"
            middle.add_widget(code)
        else:
            if hint is not None:  # where to move the token, over the deed of where it goes
                middle.add_widget(self.part("move", hint, lambda: self._move(hint)))
            deed = t["deed"]
            middle.add_widget(self.part("deed", (lang, deed["index"]), lambda: DeedCard(self.s, deed, True)))
            middle.add_widget(self._owner_line(deed))
        if hint is None or qr is not None:  # the bank's buildings left, when the middle has room for them
            pool = t["nav"]["pool"]
            middle.add_widget(self.part("pool", pool, lambda: Text(pool, theme.FONT_SMALL, color=theme.MUTED,
                                                                   halign="center")))
        middle.add_widget(self.box("middle bottom", Widget))

    def _notice_texts(self, shown: list[dict[str, str]]) -> list[Text]:
        """A Text for each notice shown, the one of the last refresh where the notice is the same: a new notice
        draws one text, not every notice again (a software renderer pays about 2 ms a text); and a new notice
        takes the Text of one no longer shown, its words changed, rather than a new widget."""
        kept: dict[tuple[str, str], list[Text]] = getattr(self, "_notices_kept", {})
        now: dict[tuple[str, str], list[Text]] = {}
        texts: list[Text | None] = []
        for n in shown:  # the same notice twice (two equal payments) has a Text each
            key = (n["text"], n["kind"])
            same = kept.get(key)
            texts.append(same.pop(0) if same else None)
        # The Texts of notices no longer shown, and of those a turn ago: a new notice takes one
        spare: list[Text] = [t for left in kept.values() for t in left] + getattr(self, "_notices_spare", [])
        for k, n in enumerate(shown):
            text = texts[k]
            if text is None:
                text = spare.pop() if spare else Text("", theme.FONT_BODY)
                text.text, text.color = n["text"], notice_colour(n["kind"])
                texts[k] = text
            text.kind = n["kind"]  # the dice rolled stay in sight (`Notices`)
            now.setdefault((n["text"], n["kind"]), []).append(text)
        self._notices_kept = now
        self._notices_spare = spare[-NOTICES_MOST:]
        return [t for t in texts if t is not None]

    def _move(self, hint: str) -> Widget:
        move = Text(hint, theme.FONT_SMALL, bold=True, color=theme.ACCENT, halign="center")
        move.role = "move"
        return move

    def _prompt(self, text: str, crowded: bool) -> Widget:
        prompt = Text(text, theme.FONT_LARGE if crowded else theme.FONT_PROMPT, bold=True, color=theme.ACCENT)
        prompt.role = "prompt"
        return prompt

    def _top(self, root: Any, cur: dict[str, Any]) -> None:
        """Whose turn and their cash, each kept and changed in place: a payment draws the amount again only."""
        top = self.box("top", lambda: Panel(orientation="horizontal", size_hint_y=None, height=theme.TARGET_MEDIUM,
                                            padding=(theme.PAD, theme.PAD_SLIM)))
        top.add_widget(self.part("top chip", cur["colour"], lambda: Chip(cur["colour"], size=theme.CHIP_TURN,
                                                                         pos_hint={"center_y": 0.5})))
        top.add_widget(self.words("turn", self.tr("ui.turn_of", player=cur["name"]),
                                  lambda: self._figure("turn", theme.TEXT, halign="left")))
        top.add_widget(self.words("cash", cur["cash_text"],
                                  lambda: self._figure("cash", theme.ACCENT, halign="right", size_hint_x=0.35)))
        root.add_widget(top)

    @staticmethod
    def _figure(role: str, color: Any, **kw: Any) -> Text:
        figure = Text("", theme.FONT_HUGE, bold=True, color=color, height=theme.LINE_FIGURE, **kw)
        figure.role = role
        return figure

    def _clock(self, clock: dict[str, Any]) -> Widget:
        """brands: the minute of play, the economy, the turn timer, a pause or a vote to pause."""
        box = auto_height(BoxLayout(orientation="vertical", size_hint_y=None))
        if clock["paused"]:
            box.add_widget(Text(self.tr("ui.pause.paused"), theme.FONT_HEADLINE, bold=True, color=theme.ACCENT,
                                halign="center"))
            if clock["vote"] is None:
                box.add_widget(BigButton(self.tr("ui.pause.resume"), self.f.clock.ask_resume, "primary",
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

    def _dice(self, dice: list[dict[str, Any]]) -> Widget:
        """The dice as rolled, in the board's middle (brands' speed die beside the white ones)."""
        line = BoxLayout(orientation="horizontal", size_hint=(None, None), height=theme.DIE_BOARD[1],
                         spacing=theme.GAP_WIDE, pos_hint={"center_x": 0.5})
        line.width = len(dice) * theme.DIE_BOARD[0] + (len(dice) - 1) * theme.GAP_WIDE
        for d in dice:
            if d["speed"]:
                label = d["face"]
                face = Text(label, theme.FONT_BODY if len(label) > 1 else theme.FONT_HUGE, bold=True,
                            halign="center", color=theme.INK, height=theme.DIE_BOARD[1] - 2 * theme.PAD)
                face.role = "speed die"
                holder = Panel(size_hint=(None, None), size=theme.DIE_BOARD, fill=theme.SPEED_DIE)
                holder.add_widget(face)
                line.add_widget(holder)
                continue
            line.add_widget(Die(d["value"], size=theme.DIE_BOARD))
        return line

    def _banner(self) -> Widget:
        """"Ann: tap your card to buy ..." with Cancel beside it (and a stand-in button for each card still
        missing, when the banker allows them): one row, so a refused card's notice has room under it."""
        pending = self.f.paying.view()
        assert pending is not None
        panel = Panel(orientation="horizontal", size_hint_y=None, fill=theme.PENDING_FILL)
        panel.add_widget(Text(pending["prompt"], theme.FONT_BIG, bold=True, pos_hint={"center_y": 0.5}))
        stand_ins = pending["waiting"] if pending["stand_ins"] else []  # only when the banker allows them
        side = auto_height(BoxLayout(orientation="vertical", size_hint=(None, None), spacing=theme.GAP,
                                     width=theme.WIDTH_REGISTER if stand_ins else theme.WIDTH_BACK,
                                     pos_hint={"center_y": 0.5}))
        for name in stand_ins:
            side.add_widget(BigButton(self.tr("ui.tap.as", player=name), lambda n=name: self.f.paying.stand_in(n),
                                      "secondary", size=theme.FONT_SMALL))
        side.add_widget(BigButton(self.tr("ui.cancel"), self.f.paying.cancel, "danger", size=theme.FONT_SMALL))
        panel.add_widget(side)

        def fit(*_: Any) -> None:
            words = panel.children[1]
            panel.height = max(side.height, words.height) + panel.padding[1] + panel.padding[3]
        side.bind(height=fit)
        panel.children[1].bind(height=fit)
        fit()
        return panel

    def _debt(self, debt: dict[str, Any], explain: bool) -> Widget:
        sell_off = debt["sell_off"]  # biznes: no mortgages; auctions and sales instead
        panel = auto_height(Panel(orientation="vertical", size_hint_y=None, fill=theme.DEBT_FILL))
        key = "ui.debt.line_sell" if sell_off else "ui.debt.line"
        if not debt["enough"]:  # owing more than everything can raise: bankruptcy is the way out
            key = "ui.debt.hopeless"
        short = row(theme.LINE_FIGURE)
        short.add_widget(Text(self.tr("ui.debt.short"), theme.FONT_BODY, bold=True, height=theme.LINE_FIGURE))
        owed = Text(debt["missing_text"], theme.FONT_HUGE, bold=True, halign="right", color=theme.ACCENT,
                    height=theme.LINE_FIGURE)
        owed.role = "owed"
        short.add_widget(owed)
        panel.add_widget(short)
        if explain:
            panel.add_widget(Text(self.tr(key, **debt), theme.FONT_SMALL))
        else:  # whom the debt is to, in a line
            panel.add_widget(Text(self.tr("ui.debt.owes", **debt), theme.FONT_SMALL))
        buttons = row(theme.TARGET_COMPACT)
        buttons.add_widget(BigButton(self.tr("ui.debt.raise_sell" if sell_off else "ui.debt.raise"),
                                     lambda n=debt["name"]: self.f.deeds.show(n), "secondary",
                                     size=theme.FONT_SMALL, height=theme.TARGET_COMPACT))
        buttons.add_widget(BigButton(self.tr("ui.debt.sell_to_rival" if sell_off else "ui.btn.trade"),
                                     lambda n=debt["name"]: self.f.trade.start(n), "secondary",
                                     size=theme.FONT_SMALL, height=theme.TARGET_COMPACT))
        buttons.add_widget(BigButton(self.tr("ui.debt.concede"),
                                     lambda n=debt["name"]: self.f.paying.request({"do": "concede", "player": n}),
                                     "danger", size=theme.FONT_SMALL, height=theme.TARGET_COMPACT))
        panel.add_widget(buttons)
        return panel


    def _buttons(self, buttons: list[dict[str, Any]], crowded: bool) -> Widget:
        """The turn's buttons, two to a row: each kept and told its words, colour and action (`button`)."""
        box = self.box("buttons", lambda: grid(2))
        height = theme.TARGET_MEDIUM if len(buttons) > 2 else theme.TARGET if crowded else theme.TARGET_LARGE
        for k, b in enumerate(buttons):
            box.add_widget(self.button(f"button {k}", b["text"], lambda b=b: self.f.turn.press(b), b["kind"],
                                       theme.FONT_BODY, height))
        return box.widget

    def _player(self, p: dict[str, Any], height: float) -> Any:
        """A player's line: colour, name (what holds them, jail or a debt, under it) and cash (changed in place).
        The line is made again when the turn passes (its fill) or the list's line height changes."""
        name, current = p["name"], p["current"]
        line = self.box(f"player {name} {current} {height}",
                        lambda: Panel(orientation="horizontal", size_hint_y=None, height=height,
                                      padding=theme.PLAYER_PAD, fill=theme.CURRENT_FILL if current else None))
        line.add_widget(self.part(f"player {name} chip", p["colour"],
                                  lambda: Chip(p["colour"], pos_hint={"center_y": 0.5})))
        line.add_widget(self.part(f"player {name} words", (current, height, p["held"]),
                                  lambda: self._player_words(p, height, line.widget)))
        line.add_widget(self.words(f"player {name} cash {height}", p["cash_text"],
                                   lambda: self._cash(name, snug(Text(p["cash_text"], theme.FONT_BIG, bold=True,
                                                                      halign="right",
                                                                      height=height - 2 * theme.PLAYER_PAD[1])))))
        return line

    def _pot(self, pot: dict[str, Any], height: float) -> Any:
        """The Free Parking jackpot (house rule `free_parking_pot`): a line like a player's, its amount in the
        accent colour and changed in place; a payment into the pot flies to the board's Free Parking corner."""
        lang = self.s.tr.language
        line = self.box(f"pot {height}", lambda: Panel(orientation="horizontal", size_hint_y=None, height=height,
                                                         padding=theme.PLAYER_PAD))
        line.add_widget(self.part("pot chip", (), lambda: PotMark(pos_hint={"center_y": 0.5})))
        line.add_widget(self.part("pot words", (lang, pot["label"]),
                                  lambda: Text(pot["label"], theme.FONT_BODY, pos_hint={"center_y": 0.5})))
        line.add_widget(self.words(f"pot amount {height}", pot["text"],
                                   lambda: self._pot_amount(snug(Text(pot["text"], theme.FONT_BIG, bold=True,
                                                                      halign="right", color=theme.ACCENT,
                                                                      height=height - 2 * theme.PLAYER_PAD[1])))))
        return line

    @staticmethod
    def _pot_amount(text: Text) -> Text:
        text.role = "pot"  # read by the tests and the tour; the flights go to the board's corner (ui/motion.py)
        return text

    @staticmethod
    def _cash(name: str, text: Text) -> Text:
        text.role = f"purse {name}"  # where a payment of this player's sets off from or lands (ui/motion.py)
        return text

    @staticmethod
    def _player_words(p: dict[str, Any], height: float, line: Widget) -> Widget:
        """The name, and under it what holds the player (jail, a jail card, bankrupt; a debt has its panel)."""
        words = auto_height(BoxLayout(orientation="vertical", size_hint_y=None, pos_hint={"center_y": 0.5}))
        words.add_widget(Text(p["name"], theme.FONT_BODY, bold=p["current"]))
        line.height = height  # the line is kept: taller only while something holds the player
        if p["held"]:
            words.add_widget(Text(p["held"], theme.FONT_SMALL, color=theme.MUTED))
            words.bind(height=lambda w, h: setattr(line, "height", max(height, h + 2 * theme.PLAYER_PAD[1])))
        return words

    def _owner_line(self, deed: dict[str, Any]) -> Widget:
        """Under the deed card: its owner (in their colour, with buildings and mortgage) or "For sale", its words
        and colour changed in place; nothing for a space nobody can own."""
        if deed["owner"]:
            extra = ", ".join(x for x in (deed["built"], self.tr("ui.deed.mortgaged") if deed["mortgaged"] else "")
                              if x)
            said = self.tr("ui.deed.owner", owner=deed["owner"]) + (f" — {extra}" if extra else "")
            tint = colour(deed["owner_colour"])
        elif deed["price"] is not None:
            said, tint = self.tr("ui.deed.for_sale"), list(theme.ACCENT)
        else:
            return self.part("deed nobody", (), lambda: Widget(size_hint_y=None, height=0))
        line = self.words("deed owner", said, lambda: Text("", theme.FONT_SMALL, bold=True, halign="center"))
        if list(line.color) != tint:
            line.color = tint
        return line


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

    def __init__(self, s: Session, deed: dict[str, Any], compact: bool = False, **kw: Any) -> None:
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
    return max((CoreLabel(text=word, font_size=size, bold=True).get_extents(word)[0] for word in text.split()),
               default=0)


class NavBar(BoxLayout):
    """The pages the registry puts on the bar (deeds, trade, the money log, the banker); brands' pause; the card
    reader's and the dice button's state."""

    def __init__(self, f: Flows, bar: dict[str, Any], **kw: Any) -> None:
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
                                             or getattr(t, "measured")[0] != t.text for t in texts):
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
        for text, height in zip(order, heights):
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
        if getattr(text, "measured", None) != (text.text, width) or not text.texture_size[1]:
            text.width = width  # Text wraps to its width
            text.text_size = (width, None)
            text.texture_update()  # drawn once a width and words, to know its height now
            text.measured = (text.text, width)
        return float(text.texture_size[1])
