"""The turn: whose turn, big dice, where to move, the space's card and what can be done now; and the bar
to the other pages."""

from __future__ import annotations

import datetime
import functools
from typing import TYPE_CHECKING, Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme, view
from ui.board import BoardFrame
from ui.screens.base import BaseScreen, auto_height, grid, notice_colour, row
from ui.screens.table_parts import DeedCard, NavBar, Notices, PotMark
from ui.widgets import BigButton, Chip, Die, Panel, QRCode, Text, colour, snug

if TYPE_CHECKING:
    from ui.flows.clock import ClockView
    from ui.flows.deeds import Debt
    from ui.flows.turn import Die as DieView
    from ui.flows.turn import TurnButton, TurnView
    from ui.session import NoticeLine
    from ui.view import Deed, PlayerRow, Pot

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
                                       functools.partial(self._debt, debt, explain)))
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

    def _middle(self, middle: Any, t: TurnView) -> None:
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

    def _notice_texts(self, shown: list[NoticeLine]) -> list[Text]:
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

    def _top(self, root: Any, cur: PlayerRow) -> None:
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

    def _clock(self, clock: ClockView) -> Widget:
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
        last = clock["turn"] is not None and 0 < clock["turn"] <= LAST_SECONDS  # (a countdown is never below 0)
        timer = Text(line, theme.FONT_SMALL, bold=True, color=theme.WARNING if last else theme.MUTED)
        timer.role = "clock"
        box.add_widget(timer)
        return box

    def _dice(self, dice: list[DieView]) -> Widget:
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

    def _debt(self, debt: Debt, explain: bool) -> Widget:
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


    def _buttons(self, buttons: list[TurnButton], crowded: bool) -> Widget:
        """The turn's buttons, two to a row: each kept and told its words, colour and action (`button`)."""
        box = self.box("buttons", lambda: grid(2))
        height = theme.TARGET_MEDIUM if len(buttons) > 2 else theme.TARGET if crowded else theme.TARGET_LARGE
        for k, b in enumerate(buttons):
            box.add_widget(self.button(f"button {k}", b["text"], lambda b=b: self.f.turn.press(b), b["kind"],
                                       theme.FONT_BODY, height))
        return box.widget

    def _player(self, p: PlayerRow, height: float) -> Any:
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

    def _pot(self, pot: Pot, height: float) -> Any:
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
    def _player_words(p: PlayerRow, height: float, line: Widget) -> Widget:
        """The name, and under it what holds the player (jail, a jail card, bankrupt; a debt has its panel)."""
        words = auto_height(BoxLayout(orientation="vertical", size_hint_y=None, pos_hint={"center_y": 0.5}))
        words.add_widget(Text(p["name"], theme.FONT_BODY, bold=p["current"]))
        line.height = height  # the line is kept: taller only while something holds the player
        if p["held"]:
            words.add_widget(Text(p["held"], theme.FONT_SMALL, color=theme.MUTED))
            words.bind(height=lambda w, h: setattr(line, "height", max(height, h + 2 * theme.PLAYER_PAD[1])))
        return words

    def _owner_line(self, deed: Deed) -> Widget:
        """Under the deed card: its owner (in their colour, with buildings and mortgage) or "For sale", its words
        and colour changed in place; nothing for a space nobody can own."""
        if deed["owner"] and deed["owner_colour"] is not None:  # (an owned space has its owner's colour)
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
