"""The digit pad (page "digits"): a PIN or an amount, entered for another flow and handed back to it on OK.

What it is for (ui/entry.py's `Entry.purpose`): the banker's PIN ("unlock", or "undo_pin" for the game-over
screen's Undo), the new game's PIN ("new_pin"), a correction of a player's cash ("correction"), the cash
one side of a trade gives ("trade_cash") and an own-property auction's opening bid ("reserve"). The pad
goes back where it came from, and goes by itself once its moment has passed (`leave`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from ui import view
from ui.entry import PIN_LEAST, PIN_MOST, Entry
from ui.flows.banker import PIN_FREE_TRIES
from ui.flows.base import Flow
from ui.pages import BANKER_PAGE, DIGITS_PAGE, OWNAUCTION_PAGE, SETUP_PAGE, TABLE_PAGE, TRADE_PAGE

if TYPE_CHECKING:
    from ui.flows import Flows


class PadLine(TypedDict):
    """A line under the pad's value: its words, and its kind (info | money | error)."""

    text: str
    kind: str


class PadView(TypedDict):
    """The digit pad (`PadFlow.view`)."""

    title: str
    shown: str  # the value, large: a PIN as dots, a correction with its sign
    empty: bool
    secret: bool
    lines: list[PadLine]
    sign: int | None  # a correction's sign, else None
    keys: bool  # the keys may be touched now
    ok: bool  # OK may be touched now
    ok_text: str
    wait: int | None  # the PIN's wait in seconds, else None


class PadFlow(Flow):
    def __init__(self, flows: Flows) -> None:
        super().__init__(flows)
        self.entry: Entry | None = None  # a PIN or an amount being entered

    def leave(self, page: str) -> str | None:
        if self._gone():
            back = self.entry.back if self.entry is not None else TABLE_PAGE
            self.entry = None
            return back
        return None

    def _gone(self) -> bool:
        """Whether the pad's moment has passed: its game ended, started or went, the player being corrected
        went bankrupt, or something happened since an opening bid's pad opened. A correction's balance is
        kept up to date here."""
        e = self.entry
        if e is None or e.mode != self.f.mode:
            return True
        game = self.game
        if e.purpose == "correction" and game is not None:
            player = game.players[game.index_of[e.subject["player"]]]
            e.base = int(player.cash)
            return bool(player.bankrupt)
        if e.purpose == "reserve":
            plan = self.f.auction.own
            return plan is None or game is None or plan["seq"] != e.seq or game.seq != e.seq
        return False

    # ------------------------------------------------------------------ what it is opened for

    def ask_pin(self, purpose: str = "unlock") -> None:
        """The PIN pad: for the banker's menu ("unlock": its OK opens the menu, Cancel goes back) or for
        the game-over screen's Undo ("undo_pin": its OK arms Undo for the confirming touch)."""
        back = TABLE_PAGE if purpose == "undo_pin" else self.f.nav.page
        self._open(Entry(purpose, back=back, mode=self.f.mode))

    def correction(self, player: str) -> None:
        """The banker's correction of `player`'s cash: an amount to add or take away, the new balance shown
        before OK."""
        self._open(Entry("correction", back=BANKER_PAGE, mode="table", signed=True, base=self._cash(player),
                         subject={"player": player}))

    def trade_cash(self, side: str) -> None:
        """The cash one side of the trade gives ("give" or "get"), at most what they have."""
        offer = self.f.trade.current()
        player = offer["from" if side == "give" else "to"]
        now = int(offer[side]["cash"])
        self._open(Entry("trade_cash", back=TRADE_PAGE, mode="table", digits=str(now) if now else "", fresh=True,
                         most=self._cash(player), subject={"side": side, "player": player}))

    def reserve(self) -> None:
        """An own-property auction's opening bid, within the bounds and steps the rules allow."""
        plan = self.f.auction.own_plan()
        info = self.f.auction.own_view(plan["player"], plan["space"])
        self._open(Entry("reserve", back=OWNAUCTION_PAGE, mode="table", digits=str(plan["reserve"]), fresh=True,
                         least=info["low"], most=info["high"], step=info["step"],
                         subject={"player": plan["player"], "space": info["space"]}, seq=plan["seq"]))

    def new_pin(self) -> None:
        """The new game's banker PIN (PIN_LEAST to PIN_MOST digits, or none at all)."""
        self._open(Entry("new_pin", back=SETUP_PAGE, mode="setup"))

    # ------------------------------------------------------------------ its keys

    def press(self, key: str) -> None:
        """A key of the pad (ui.entry.KEYS, or + and - for a correction); the PIN pad refuses while the
        wait after too many wrong PINs lasts."""
        e = self.entry
        if e is None or (e.purpose in ("unlock", "undo_pin") and self.f.banker.pin_wait() is not None):
            return
        if e.press(key):
            self.changed()

    def ok(self) -> None:
        """OK: what the entry is for, then back where it came from (a wrong PIN stays, cleared)."""
        e = self.entry
        if e is None or not e.ready():
            return
        banker = self.f.banker
        if e.purpose in ("unlock", "undo_pin"):
            if banker.pin_wait() is not None:
                return
            if not banker.pin_ok(e.digits):
                e.digits = ""  # the pad says so itself: "Wrong PIN: 4 more tries before a wait"
                self.changed()
                return
            banker.unlocked = True
            if e.purpose == "unlock":
                self._close(BANKER_PAGE)
                return
            self.entry = None
            self.f.nav.page = e.back  # back to the game-over screen ...
            self.f.nav.confirm.touch("undo_end")  # ... with Undo armed: one more touch of it takes the action back
            self.changed()
            return
        if e.purpose == "new_pin":
            self.f.setup.set_pin(e.digits)
        elif e.purpose == "correction":
            banker.adjust(e.subject["player"], e.change(), self.s.tr("ui.banker.adjust_reason"))
        elif e.purpose == "trade_cash":
            self.f.trade.set_cash(e.subject["side"], e.subject["player"], e.value)
        elif e.purpose == "reserve" and e.seq is not None:  # (an opening bid's pad always has its moment)
            self.f.auction.set_reserve(e.seq, e.value)
        self._close(e.back)

    def cancel(self) -> None:
        """Cancel: back where it came from, nothing changed."""
        self._close(self.entry.back if self.entry is not None else TABLE_PAGE)

    def tick(self) -> None:
        """Every second while the PIN pad shows a wait: redraw it counting down."""
        if self.f.nav.page == DIGITS_PAGE:
            self.changed()

    def _open(self, entry: Entry) -> None:
        self.entry = entry
        self.f.nav.go(DIGITS_PAGE)

    def _close(self, page: str) -> None:
        self.entry = None
        self.f.nav.go(page)

    def _cash(self, player: str) -> int:
        game = self.game
        assert game is not None
        return int(game.players[game.index_of[player]].cash)

    # ------------------------------------------------------------------ what the pad shows

    def view(self) -> PadView:
        """Its title; the value shown large the language's way (a PIN as dots, a correction with its sign); the
        lines under it (whose cash, the new balance, the rule the amount keeps, the PIN's tries left or its
        wait), each {"text", "kind"} (info | money | error); a correction's sign; whether the keys and OK may
        be touched now; and the wait in seconds, or None."""
        e, tr = self.entry, self.s.tr
        assert e is not None
        lines: list[PadLine] = []
        broken = e.breaks()
        player = e.subject.get("player", "")
        wait = None
        ok_text = tr("ui.digits.ok")
        if e.secret:
            shown = e.masked() or tr("ui.digits.pin_empty")
            if e.purpose == "new_pin":
                title = tr("ui.setup.pin")
                lines.append({"text": tr("ui.digits.pin_rule", least=PIN_LEAST, most=PIN_MOST),
                              "kind": "error" if broken else "info"})
            else:
                title = tr("ui.banker.pin")
                ok_text = tr("ui.banker.unlock")
                if e.purpose == "undo_pin":
                    lines.append({"text": tr("ui.digits.undo_why"), "kind": "info"})
                wait = self.f.banker.pin_wait()
                left = self.f.banker.pin_tries_left()
                if wait is not None:
                    text = (tr("ui.digits.pin_wait", seconds=wait) if wait < 120
                            else tr("ui.digits.pin_wait_long", time=f"{wait // 60}:{wait % 60:02d}"))
                    lines.append({"text": text, "kind": "error"})
                elif left == 0:
                    lines.append({"text": tr("ui.digits.pin_last"), "kind": "error"})
                elif left < PIN_FREE_TRIES:
                    lines.append({"text": tr("ui.digits.pin_wrong", tries=left), "kind": "error"})
        else:
            shown = (("+" if e.sign > 0 else "\u2212") if e.signed else "") + view.money(self.s, e.value)
            if e.purpose == "correction":
                title = tr("ui.digits.correct_title", player=player)
                lines.append({"text": tr("ui.digits.has", player=player, cash=e.base or 0), "kind": "info"})
                if broken == "most":
                    lines.append({"text": tr("ui.digits.at_most", amount=e.upper() or 0, player=player),
                                  "kind": "error"})
                else:
                    lines.append({"text": tr("ui.digits.new_balance", amount=e.result() or 0), "kind": "money"})
            elif e.purpose == "trade_cash":
                title = tr("ui.digits.trade_title", player=player)
                lines.append({"text": tr("ui.digits.at_most", amount=e.most or 0, player=player),
                              "kind": "error" if broken else "info"})
            else:
                title = tr("ui.own.title", space=e.subject.get("space", ""), player=player)
                lines.append({"text": tr("ui.own.bounds", low=e.least, high=e.most or 0, step=e.step),
                              "kind": "error" if broken else "info"})
        return {"title": title, "shown": shown, "empty": not e.digits, "secret": e.secret, "lines": lines,
                "sign": e.sign if e.signed else None, "keys": wait is None, "ok": e.ready() and wait is None,
                "ok_text": ok_text, "wait": wait}


__all__ = ["PadFlow", "PadLine", "PadView"]
