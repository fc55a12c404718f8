"""The banker's menu, behind the game's PIN: undo, corrections of a player's cash, a lost card replaced,
stand-ins for forgotten cards, the end of the game, abandoning it, and shutting the Pi down.

The PIN is checked against its salted hash in the game's meta document (ui/pin.py). After PIN_FREE_TRIES
wrong tries in a row each further one makes the next wait, twice as long each time; the count and the wait
are kept with the game in the journal, so pulling the plug does not reset them. The destructive buttons
(`DESTRUCTIVE`) ask for a confirming second touch (ui/entry.py's `Confirm`, kept by the navigator).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, TypedDict

from ui import pages, view
from ui.flows.base import Flow
from ui.i18n import Msg, msg
from ui.pin import check_pin
from ui.view import PlayerRow

if TYPE_CHECKING:
    from ui.flows import Flows

PIN_FREE_TRIES = 5  # wrong banker PINs in a row before each further one makes the next try wait
PIN_WAIT_FIRST = 30  # seconds of the first wait; each further wrong PIN doubles it ...
PIN_WAIT_MOST = 15 * 60  # ... up to this
# The banker's buttons that ask for a confirming second touch (BankerFlow.destructive).
DESTRUCTIVE = ("undo", "end", "abandon", "power_off")
# The pages the menu stays unlocked on once opened (settings, a lost card, the digit pad, the checks).
UNLOCKED_ON = (pages.SETTINGS_PAGE, pages.REPLACE_PAGE, pages.DIGITS_PAGE)


class BankerView(TypedDict):
    """The banker's menu (`BankerFlow.view`): the players still in, the player whose lost card is being
    replaced (None: none), whether phones can follow, whether stand-ins are allowed, and whether paying needs
    cards (the stand-ins are offered only then)."""

    players: list[PlayerRow]
    replacing: str | None
    phones: bool
    stand_ins: bool
    cards: bool


class BankerFlow(Flow):
    def __init__(self, flows: Flows) -> None:
        super().__init__(flows)
        self.unlocked = False  # the banker's PIN was given (until the family leaves the banker's pages)
        self.replacing: str | None = None  # the player whose lost card the next tap replaces

    def closed(self) -> None:
        self.replacing = None

    def going_to(self, page: str) -> None:
        """The family goes to `page`: the menu stays unlocked only on its own pages, and leaving the lost card's
        screen drops a half-done replacement."""
        if page != pages.BANKER_PAGE:
            self.unlocked = self.unlocked and (page in UNLOCKED_ON or page in pages.checks())
        if page != pages.REPLACE_PAGE:
            self.replacing = None

    # ------------------------------------------------------------------ the PIN

    def has_pin(self) -> bool:
        return "pin" in self.s.meta

    def is_locked(self) -> bool:
        """The banker's menu asks for the PIN (a game without a PIN is never locked)."""
        return self.has_pin() and not self.unlocked

    def pin_wait(self) -> int | None:
        """Seconds before the banker's PIN may be tried again after too many wrong tries, or None."""
        until = float(self.s.meta.get("pin_locked_until", 0.0))
        left = until - self.s.clock()
        return math.ceil(left) if left > 0 else None

    def pin_ok(self, pin: str) -> bool:
        """Whether `pin` unlocks the banker's menu (always, when the game has no PIN); a wrong one is counted,
        and while the wait after too many lasts every try is refused unchecked."""
        meta = self.s.meta
        if not self.has_pin():
            return True
        if self.pin_wait() is not None:
            return False
        failures = int(meta.get("pin_failures", 0))
        if check_pin(meta["pin"], pin):
            if failures or "pin_locked_until" in meta:
                meta.pop("pin_failures", None)
                meta.pop("pin_locked_until", None)
                self.s.save_meta()
            return True
        failures += 1
        meta["pin_failures"] = failures
        if failures >= PIN_FREE_TRIES:
            wait = min(PIN_WAIT_FIRST * 2 ** (failures - PIN_FREE_TRIES), PIN_WAIT_MOST)
            meta["pin_locked_until"] = self.s.clock() + wait
        self.s.save_meta()
        return False

    def pin_tries_left(self) -> int:
        """Wrong PIN tries left before each further one makes the next wait (0 once waits have begun)."""
        return max(0, PIN_FREE_TRIES - int(self.s.meta.get("pin_failures", 0)))

    def unlock(self, pin: str) -> bool:
        """The banker's PIN given: True if it opens the menu. A wrong one is counted and said; while the wait
        after too many lasts, every PIN is refused unchecked."""
        waiting = self.pin_wait() is not None
        if not waiting and self.pin_ok(pin):
            self.unlocked = True
            pad = self.f.pad
            if pad.entry is not None and pad.entry.purpose == "unlock":
                pad.entry = None
                self.f.nav.go(pages.BANKER_PAGE)
                return True
        elif not waiting:
            self.s.notify(msg("ui.banker.wrong_pin"), "error", "error")
        self.changed()
        return self.unlocked

    # ------------------------------------------------------------------ the menu's buttons

    def destructive(self, key: str) -> None:
        """Undo, End the game, Abandon or Shut down (`DESTRUCTIVE`): the first touch arms the button, a second
        within CONFIRM_SECONDS does it (any other touch disarms it)."""
        if key not in DESTRUCTIVE:
            raise ValueError(f"not a destructive button: {key!r}")
        if self.is_locked():
            return
        if not self.f.nav.confirm.touch(key):
            self.changed()  # armed: the button now says "Touch again to ..."
            return
        if key == "undo":
            self.undo(1)
        elif key == "end":
            self.end_game()
        elif key == "abandon":
            self.abandon()
        else:
            self.f.power_off()

    def armed(self) -> str | None:
        """The destructive button waiting for its second touch, or None."""
        return self.f.nav.confirm.armed()

    def other_touch(self) -> None:
        """A touch anywhere but on the armed button disarms it."""
        if self.f.nav.confirm.disarm():
            self.changed()

    def confirm_lapse(self) -> None:
        """Called when an armed button's time may be up: redraw it disarmed."""
        confirm = self.f.nav.confirm
        if confirm.key is not None and confirm.armed() is None:
            self.changed()

    def undo(self, steps: int = 1) -> None:
        self.f.paying.pending = None
        self.s.undo(steps)

    def correct(self, player: str) -> None:
        """A correction of `player`'s cash: an amount to add or take away, on the digit pad."""
        if not self.is_locked():
            self.f.pad.correction(player)

    def adjust(self, player: str, cash: int, reason: str) -> None:
        """The banker's correction: `cash` added to (or, negative, taken from) `player`'s."""
        self.s.apply({"do": "adjust", "player": player, "cash": cash, "reason": reason})
        self.changed()

    def end_game(self) -> None:
        """End the game now (a ranking); the game-over screen's Undo asks for the PIN again. Refused (the
        engine's reason, e.g. a game clock out of range), the menu stays with the reason on it: a confirming
        second touch never does nothing in silence."""
        if not self.s.apply({"do": "end_game"}):
            self.changed()
            return
        self.unlocked = False
        self.f.nav.page = pages.TABLE_PAGE
        self.changed()

    def abandon(self) -> None:
        """Stop this game without a winner; it stays in the journal, finished."""
        self.unlocked = False
        self.f.nav.page = pages.TABLE_PAGE
        s = self.s
        if s.live is not None:
            s.journal.set_status(s.live.id, "finished")
        s.close()
        self.changed()

    def undo_end(self) -> None:
        """Undo on the game-over screen, guarded like the banker's: behind a PIN the PIN pad first, then a
        confirming second touch; it takes back the game's last action and the table comes back, locked."""
        if self.f.mode != pages.OVER:
            return
        if self.is_locked():
            self.f.pad.ask_pin("undo_pin")
            return
        if not self.f.nav.confirm.touch("undo_end"):
            self.changed()
            return
        self.unlocked = False
        self.f.nav.page = pages.TABLE_PAGE
        self.undo(1)

    # ------------------------------------------------------------------ a lost card

    def replace_card(self, player: str) -> None:
        """The next card tapped becomes `player`'s (a lost card)."""
        self.replacing = player
        self.changed()

    def replace_tap(self, uid: str, owner: str | None, tagged: Msg | None = None) -> None:
        """A card tapped while replacing (ui/taps.py): `player`'s from now on, unless another player has it or
        it is a tagged deed or deck card (`tagged`: which, in words)."""
        s, player = self.s, self.replacing
        assert s.live is not None and player is not None
        if tagged is not None:
            s.notify(msg("ui.card.tagged", item=tagged), "error", "error")
            return
        if owner is not None and owner != player:
            s.notify(msg("ui.card.taken", owner=owner), "error", "error")
            return
        cards = {u: n for u, n in s.meta.get("cards", {}).items() if n != player}
        cards[uid] = player
        s.meta["cards"] = cards
        s.save_meta()
        s.notify(msg("ui.card.registered", player=player), "info", "payment")
        self.replacing = None

    def view(self) -> BankerView:
        """The banker's menu: the players still in (for corrections and lost cards), and whether phones can follow."""
        return {"players": [p for p in view.players(self.s) if not p["bankrupt"]], "replacing": self.replacing,
                "phones": self.f.phones.table_link() is not None, "stand_ins": self.s.settings.stand_ins,
                "cards": self.s.settings.taps}  # the stand-ins for a forgotten card: only when paying needs cards


__all__ = ["BankerFlow", "BankerView", "DESTRUCTIVE", "PIN_FREE_TRIES"]
