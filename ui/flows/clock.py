"""The clocks: a timed game's end, biznes's minute for an own-property auction's first bid, and brands' turn,
bid and debt timers and the table's votes to pause and to resume (rulebook 001).

The timers count on the game clock (seconds since the game started, as the actions' `t` stamps them), so a
restart of the app does not start them again. `tick` is called every second.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, TypedDict

from banker.chance import complete_action
from ui.flows.base import Flow
from ui.i18n import msg

if TYPE_CHECKING:
    from banker.game import Game
    from ui.flows import Flows

RESUME_COUNTDOWN = 3  # seconds between everyone being back and the game going on
TIMEOUT_STEPS = 12  # the most defaults a timed-out turn plays for the player (a turn never takes so many)
# A bid timer's auction moment: the space, the kind, the bidder whose turn it is, the high bid, the bidders left.
BidMoment = tuple[int, str, int, int, int]


class Vote(TypedDict):
    """A vote to pause or resume, or an agreed resume counting down, in words."""

    text: str


class ClockView(TypedDict):
    """brands' clock on the turn screen (`ClockFlow.view`): the game clock and the economy in a line, the turn's
    and the debt's seconds left (None: no timer), whether the game is paused, a vote (None: none), and the
    casino's jackpot (None: no casino)."""

    line: str
    turn: int | None
    debt: int | None
    paused: bool
    vote: Vote | None
    jackpot: int | None


class ClockFlow(Flow):
    def __init__(self, flows: Flows) -> None:
        super().__init__(flows)
        self.alarm_sounded = False
        # The turn, bid and debt timers count from these game-clock moments (seconds).
        self.turn_began = 0.0
        self.bid_began: tuple[BidMoment, float] | None = None
        self.debt_began = -1.0
        self.votes: set[str] = set()
        self.vote_kind = ""  # "" | "pause" | "resume"
        self.vote_began = 0.0
        self.resume_at = -1.0  # game time at which an agreed resume happens (after a short countdown)

    def opened(self, fresh: bool) -> None:
        self.turn_began = 0.0 if fresh else self.s.game_time()  # a restart gives the player their full time

    def applied(self, action: dict[str, Any], turned: bool) -> None:
        game = self.game
        assert game is not None
        if turned and not game.ended:
            self.turn_began = self.s.game_time()
        if game.debtors and self.debt_began < 0:
            self.debt_began = self.s.game_time()
        elif not game.debtors:
            self.debt_began = -1.0

    def end_time(self) -> float | None:
        """Wall-clock time a timed game ends, or None."""
        game = self.game
        if game is None or not game.time_limit:
            return None
        return float(self.s.meta.get("started", 0.0)) + game.time_limit

    def auction_countdown(self) -> int | None:
        """Seconds left before an own-property auction with no bid is cancelled (biznes), else None.

        Counted from the auction's opening in the journal, so neither a pass
        nor a restart of the app starts it again (rulebook 000).
        """
        game = self.game
        if game is None or game.auction is None:
            return None
        a = game.auction
        limit = game.options.own_auction_cancel_seconds
        if a.kind != "own" or a.high_bidder >= 0 or not limit or a.opened_at < 0:
            return None
        # (`t` is stamped to a tenth of a second, so the first reading may round up past the limit)
        return min(limit, max(0, math.ceil(a.opened_at + limit - self.s.game_time())))

    def _left(self, began: float, seconds: int) -> int:
        return min(seconds, max(0, math.ceil(began + seconds - self.s.game_time())))

    def turn_countdown(self) -> int | None:
        """Seconds left in the current turn (brands' turn timer), or None."""
        game = self.game
        if game is None or game.ended or game.clock_state.paused_at >= 0 or game.auction is not None or game.debtors:
            return None
        seconds = game.options.turn_seconds
        return self._left(self.turn_began, seconds) if seconds else None

    def bid_countdown(self) -> int | None:
        """Seconds the bidder whose turn it is has left (brands), or None."""
        game = self.game
        if game is None or game.auction is None or game.clock_state.paused_at >= 0 or game.auction.next_bidder < 0:
            return None
        seconds = game.options.bid_seconds
        if not seconds:
            return None
        a = game.auction
        key = (a.space, a.kind, a.next_bidder, a.high_bid, len(a.bidders))
        if self.bid_began is None or self.bid_began[0] != key:
            self.bid_began = (key, self.s.game_time())
        return self._left(self.bid_began[1], seconds)

    def debt_countdown(self) -> int | None:
        """Seconds shown on the debt panel (brands), or None."""
        game = self.game
        if game is None or not game.debtors or self.debt_began < 0:
            return None
        seconds = game.options.debt_seconds
        return self._left(self.debt_began, seconds) if seconds else None

    def time_out(self) -> None:
        """The turn timer ran out: a skipped turn, and the app plays the turn's defaults for the player."""
        s = self.s
        game = s.game
        if game is None:
            return
        if not game.clock_state.turn_skipped:  # the first time this turn: a skipped turn (after an auction, just go on)
            if not s.apply({"do": "timeout"}):
                return
            s.notify(msg("ui.timer.out"), "error", "alarm")
        for _ in range(TIMEOUT_STEPS):
            game = s.game
            if game is None or game.ended or game.auction is not None or game.debtors:
                break
            action = self._default(game)
            if action is None or not s.apply(action):
                break
            if action["do"] == "end_turn":
                break
        self.turn_began = s.game_time()

    def _default(self, game: Game) -> dict[str, Any] | None:
        """What a timed-out turn does for the player now: the choice that spends nothing, from what the engine
        says the player owes (decline, draw, walk past the casino, the bus's full roll, stay put, the flat tax,
        roll, end the turn), or None."""
        cur = game.current.name
        verbs: list[str] = next((o["verbs"] for o in game.owed() if o["player"] == cur), [])
        d = game.decision
        if "decline" in verbs:
            return {"do": "decline"}
        if "draw" in verbs:
            return complete_action(game, {"do": "draw"}, self.s.live.chance if self.s.live else None)
        if "casino" in verbs:
            return {"do": "casino"}
        if "bus" in verbs and d is not None:
            return {"do": "bus", "steps": sum(d.dice)}
        if "jump" in verbs:
            return {"do": "jump", "space": game.current.position}
        if "tax" in verbs:
            return {"do": "tax", "choice": "flat"}
        if "roll" in verbs:
            return {"do": "roll", "dice": list(self.f.roll(game.dice_count()))}
        if "end_turn" in verbs:
            return {"do": "end_turn"}
        return None

    # ------------------------------------------------------------------ the table's votes

    def ask_pause(self) -> None:
        """Any player asks for a pause: it starts only if every player still in taps their card in time; with
        on-screen buttons instead of cards there is no card to vote with, and the touch pauses at once."""
        game = self.game
        if game is None or game.clock_state.paused_at >= 0 or not game.variant.clocked:
            return
        if not self.s.settings.taps:
            self.s.apply({"do": "pause"})
            self.turn_began = self.s.game_time()
            self.changed()
            return
        self.vote_kind, self.votes, self.vote_began = "pause", set(), self.s.game_time()
        self.s.notify(msg("ui.pause.asked"), "info", "alarm")
        self.changed()

    def ask_resume(self) -> None:
        game = self.game
        if game is None or game.clock_state.paused_at < 0:
            return
        if not self.s.settings.taps:  # no cards to vote with: the touch starts the countdown back
            self.resume_at = self.s.game_time() + RESUME_COUNTDOWN
            self.changed()
            return
        self.vote_kind, self.votes, self.vote_began = "resume", set(), self.s.game_time()
        self.changed()

    def vote_countdown(self) -> int | None:
        game = self.game
        if game is None or not self.vote_kind:
            return None
        return self._left(self.vote_began, game.options.pause_vote_seconds)

    def vote(self, player: str) -> None:
        """A card tapped during a vote (ui/taps.py): that player's yes."""
        game = self.game
        assert game is not None
        self.votes.add(player)
        alive = {p.name for p in game.players if not p.bankrupt}
        if alive <= self.votes:
            kind = self.vote_kind
            self.vote_kind, self.votes = "", set()
            if kind == "resume":  # everyone is back: a short countdown, then the game goes on
                self.resume_at = self.s.game_time() + RESUME_COUNTDOWN
                return
            self.s.apply({"do": kind})
            self.turn_began = self.s.game_time()

    def resume_countdown(self) -> int | None:
        return None if self.resume_at < 0 else max(0, math.ceil(self.resume_at - self.s.game_time()))

    # ------------------------------------------------------------------ every second

    def tick(self) -> None:
        """Called every second: a timed game ends when its time comes, with an alarm; an own-property auction
        with no first bid is cancelled when its minute is up; brands' turn and bid timers take their defaults;
        a pause vote runs out."""
        s = self.s
        left = self.auction_countdown()
        if left is not None:
            if left == 0:
                s.apply({"do": "close_auction"})
            self.changed()
            return
        game = s.game
        if game is not None and not game.ended and self.resume_at >= 0:
            if self.resume_countdown() == 0:
                self.resume_at = -1.0
                s.apply({"do": "resume"})
                self.turn_began = s.game_time()
            self.changed()
            return
        if game is not None and not game.ended:
            vote = self.vote_countdown()
            if vote == 0 or (self.vote_kind == "pause" and game.clock_state.paused_at >= 0):
                self.vote_kind, self.votes = "", set()
                s.notify(msg("ui.pause.no_vote"), "error", "error")
            bid = self.bid_countdown()
            if bid == 0 and game.auction is not None:
                s.apply({"do": "pass", "player": game.players[game.auction.next_bidder].name})
            turn = self.turn_countdown()
            # finish a timed-out turn
            timed_out = game.clock_state.turn_skipped and game.auction is None and not game.debtors
            if (turn == 0 or timed_out) and self.f.paying.pending is None and game.clock_state.paused_at < 0:
                self.time_out()
            if vote is not None or bid is not None or turn is not None or self.debt_countdown() is not None:
                self.changed()
        end = self.end_time()
        game = s.game
        if end is None or game is None or game.ended or s.clock() < end:
            return
        if not self.alarm_sounded:
            self.alarm_sounded = True
            s.notify(msg("ui.time_up"), "info", "alarm")
        s.apply({"do": "end_game"})
        self.changed()

    def view(self) -> ClockView | None:
        """brands: the game clock, the economy and the timers, for the turn screen."""
        game, tr = self.game, self.s.tr
        if game is None or not game.variant.clocked:
            return None
        lines = [tr("ui.clock.minute", minute=int(game.economy_minutes()))]
        if not game.salary_paid():
            lines.append(tr("ui.clock.no_salary"))
        if game.rent_tax_percent():
            lines.append(tr("ui.clock.rent_tax", percent=game.rent_tax_percent()))
        if game.speed_die_active():
            lines.append(tr("ui.clock.speed_die"))
        vote: Vote | None = None
        if self.vote_kind:
            alive = [p.name for p in game.players if not p.bankrupt]
            vote = {"text": tr(f"ui.vote.{self.vote_kind}", seconds=self.vote_countdown(),
                               players=", ".join(n for n in alive if n not in self.votes))}
        resume = self.resume_countdown()
        if resume is not None:
            vote = {"text": tr("ui.pause.resuming", seconds=resume)}
        return {"line": " · ".join(lines), "turn": self.turn_countdown(), "debt": self.debt_countdown(),
                "paused": game.clock_state.paused_at >= 0, "vote": vote,
                "jackpot": game.casino_state.jackpot if game.variant.has_casino else None}


__all__ = ["ClockFlow", "ClockView", "RESUME_COUNTDOWN", "Vote"]
