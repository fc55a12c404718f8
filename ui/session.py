"""The table's session: the journaled game, undo, the notices and who hears about each action.

No Kivy here, so it is tested without a window. Everything a family does reaches the game through
`Session.apply`, which commits the action to the journal before it returns (`JournaledGame.apply`):
nothing reaches the screen before the journal has it. What the action did then becomes notices (who paid
whom and why, with a sound) and moments for the listeners (the voice, the money in motion), and the flows
(ui/flows/) hear it through their `applied` hook (a new turn restarts the turn timer, an ended game drops a
payment waiting for cards).

The session holds nothing of any one flow: the setup's draft, a payment waiting for cards, the trade being
put together and the rest live in their flows, which all share this one session.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypedDict

from banker.errors import ActionError, SetupError
from banker.game import Game
from banker.journal import Commit, Journal, JournaledGame, JournalError
from banker.model import Entry, Event
from ui.history import History
from ui.i18n import Msg, Translator, card_msg, msg, winners_msg
from ui.moments import EVENT, MONEY, UNDONE, Listener, Moment
from ui.settings import Settings
from ui.tags import TagStore

log = logging.getLogger(__name__)

NOTICES_KEPT = 30  # the newest notices kept (the money log keeps every payment)
# Engine events worth a line on the screen (money movements always are).
SHOWN_EVENTS = {"card", "jail", "left_jail", "declined", "sold", "unsold", "bankrupt", "game_over", "debt",
                "building_won", "built", "sold_building", "sold_all", "traded", "adjusted", "dealt",
                "extra_roll", "card_skipped", "auction_cancelled", "unsold_own", "own_auction", "sold_to_bank",
                "sold_to_player", "mortgage_lapsed", "building_destroyed", "casino", "casino_declined", "timed_out",
                "paused", "resumed", "speed_die", "mr_monopoly",
                "not_lapped"}  # an unlapped player on an unowned property (buy_after_first_lap): why nothing is offered
SOUNDS = {"rent": "payment", "tax": "payment", "card": "payment", "buy": "payment", "auction": "payment",
          "salary": "payment", "debt_paid": "payment", "build": "building", "sell": "building",
          "sell_all": "building", "jail_fine": "payment", "trade": "payment", "pot": "payment",
          "own_auction": "payment", "sell_to_bank": "building", "sell_to_player": "payment", "snake_eyes": "payment"}
# The texts that read differently with on-screen buttons instead of cards (Settings' "Pay with"): each cards-mode
# key and its on-screen buttons' twin. `Session.by_mode` picks one, the one place that does: a text that asks for a
# card tap either has a twin here or is shown only when cards are used (tests/ui/test_words_catalogue.py keeps
# the catalogue to that).
BUTTONS_WORDS = {
    "ui.auction.how": "ui.auction.how_buttons",  # a card tap bids; with buttons, the Bid button does
    "ui.trade.agree": "ui.trade.agree_buttons",  # both players' cards agree; with buttons, the touch does
    "ui.phones.how": "ui.phones.how_buttons",  # a card tap shows a player's own code; no cards, no such code
    "ui.home.tagline": "ui.home.tagline_buttons",  # "tap to pay"
    "ui.setup.register": "ui.setup.register_buttons",  # a card is optional with buttons (a tap shows the balance)
}
# The texts that ask for a card and are shown only when cards are used, each with where and why.
CARDS_ONLY = {
    "ui.tap.prompt": "ui/flows/paying.py: a payment waits for cards only when paying needs them (settings.taps)",
    "ui.tap.as": "the banker's stand-ins for a forgotten card: offered only with cards",
    "ui.banker.stand_ins.on": "ui/screens/banker.py offers the stand-ins only with cards",
    "ui.banker.stand_ins.off": "ui/screens/banker.py offers the stand-ins only with cards",
    "ui.card.not_yours": "ui/taps.py: a card refused while a payment waits for cards, only when paying needs them",
    "ui.setup.tap_now": "a card being registered: the family touched the button for it",
    "ui.replace.tap": "replacing a lost card: the family touched the button for it",
    "ui.pause.asked": "ui/flows/clock.py: with buttons a pause needs no vote",
    "ui.vote.pause": "ui/flows/clock.py: with buttons a pause needs no vote",
    "ui.vote.resume": "ui/flows/clock.py: with buttons the game resumes at a touch",
    "ui.tag.agree_first": "ui/taps.py: a deed or deck card refused while a payment waits for cards or a vote runs",
    "ui.check.tap_any": "the reader's check is about the reader, in either mode",
    "ui.check.taps": "the reader's check counts the taps it saw, in either mode",
    "ui.check.reader_nothing": "the reader's check, in either mode",
    "ui.check.reader_works": "the reader's check, in either mode",
}


class Hooks(Protocol):
    """What the session tells each flow (ui/flows/base.py's `Flow`, which says what each hook is for): an
    action applied, a game opened, the game closed."""

    def applied(self, action: dict[str, Any], turned: bool) -> None: ...

    def opened(self, fresh: bool) -> None: ...

    def closed(self) -> None: ...


class NoticeLine(TypedDict):
    """A notice as the screens show it (`Session.notice_lines`): its words now, and its kind (`Notice.kind`)."""

    text: str
    kind: str


@dataclass
class Notice:
    """A line for the screen, kept as its key and parameters (a `Msg`) so that it reads in the
    table's language of the moment: switching the language re-renders every notice."""

    message: Msg | str  # a plain string (an unexpected error's own words) is shown as it is
    kind: str = "info"  # info | money | error | card | move | balance | roll (the dice rolled: the turn screen keeps it)
    sound: str | None = None
    translator: Callable[[], Translator] = field(default=Translator, repr=False, compare=False)
    turn: int = 0  # the session's count of turns when it was made: shown during that turn only
    # Where it was raised: the place (ui/pages.py's `place_of`) showing then; it shows there only, and goes when the
    # family leaves that place (`Session.enter`). None: raised before any page showed (the app's start), the
    # first place entered takes it.
    place: str | None = None
    # A refusal's cause: while it returns True the notice stands; once it returns False the notice goes for good
    # (Session.changed drops it), e.g. the setup's "every player needs a registered card" once they all have one.
    holds: Callable[[], bool] | None = field(default=None, repr=False, compare=False)

    @property
    def text(self) -> str:
        """The notice in the current language."""
        return self.translator().render(self.message)


class Session:
    """The live game and its journal, the notices, and the listeners of every change and every action."""

    def __init__(self, journal: Journal, settings: Settings, *,
                 save_settings: Callable[[Settings], None] | None = None,
                 play_sound: Callable[[str], None] | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.journal = journal
        self.history = History(journal.path)  # the hall of fame's summaries, read beside the app (ui/history.py)
        self.settings = settings
        self.tr = Translator(settings.language)
        self.save_settings = save_settings or (lambda s: s.save())
        self._play_sound = play_sound or (lambda name: None)
        self.clock = clock
        self.live: JournaledGame | None = None
        # The family's tagged deeds and deck cards (ui/tags.py), kept in memory unless the app gives its file.
        self.tags = TagStore()
        self.meta: dict[str, Any] = {}  # the live game's meta document in the journal (cards, colours, PIN...)
        self.notices: list[Notice] = []
        self.turns = 0  # turns passed in this session: the notices of one turn are not shown in the next
        self.place: str | None = None  # where the family is (the navigator's `enter`): a notice belongs there
        self._move: dict[str, Any] | None = None  # where the token must go, in the language of the moment
        self.last_dice: tuple[int, ...] = ()
        # Who hears that something changed (the app: a redraw), and who hears each action's moments
        # (ui/moments.py: the voice, the money in motion).
        self.listeners: list[Callable[[], None]] = []
        self.moment_listeners: list[Listener] = []
        # The flows (ui/flows/base.py's Flow), told of every action and of a game opened or closed.
        self.flows: list[Hooks] = []
        # The app commits each action beside drawing the screen (`defer_commits`: JournaledGame.apply_later), and
        # waits for the commit before the frame shows anything of it (`settle`); tests and tools commit at once.
        self.defer_commits = False
        self._commit: tuple[Commit, dict[str, Any], list[Event], list[Entry]] | None = None

    # ------------------------------------------------------------------ the game

    @property
    def game(self) -> Game | None:
        return self.live.game if self.live is not None else None

    def by_mode(self, key: str) -> str:
        """The message key to show for `key` in the card mode of the moment: its on-screen buttons' twin
        (`BUTTONS_WORDS`) when paying needs no card, else `key` itself."""
        return key if self.settings.taps else BUTTONS_WORDS.get(key, key)

    @property
    def move_hint(self) -> str | None:
        """"Ann: move your token to Kentucky Avenue" after the latest move; on the jail's space without being
        sent there, "... (just visiting)"."""
        if not self._move:
            return None
        move = dict(self._move)
        return self.tr("ui.move_to_visiting" if move.pop("visiting", False) else "ui.move_to", **move)

    def open(self, live: JournaledGame, fresh: bool) -> None:
        """A game to play: `fresh` for one just started (nothing of the last game's shown), else resumed."""
        self.settle()
        self.live = live
        self.meta = self.journal.meta(live.id)
        self.follow_currency()
        if fresh:
            self.last_dice, self._move = (), None
            self.notices.clear()
        for flow in self.flows:
            flow.opened(fresh)

    def close(self) -> None:
        """No game any more (abandoned, closed after its end, or moved to another device)."""
        self.settle()
        self.live = None
        self.meta = {}
        self.notices.clear()
        self.follow_currency()
        for flow in self.flows:
            flow.closed()

    def save_meta(self) -> None:
        if self.live is not None:
            self.journal.set_meta(self.live.id, self.meta)

    def colour(self, name: str) -> str:
        return str(self.meta.get("colours", {}).get(name, "#9E9E9E"))

    def game_time(self) -> float:
        """Seconds since the game started, as the actions' `t` counts them."""
        return max(0.0, self.clock() - float(self.meta.get("started", self.clock())))

    def stamped(self, action: dict[str, Any]) -> dict[str, Any]:
        """The action with the game clock: seconds since the game started."""
        return {**action, "t": round(self.game_time(), 1)}

    def follow_currency(self) -> None:
        """Money is shown in the live game's currency (its ruleset's `currency`), or as plain numbers."""
        self.tr.currency = self.live.game.ruleset.currency if self.live is not None else None

    def changed(self) -> None:
        """Something the screens show has changed: the notices whose cause is gone go, and the listeners hear."""
        self._drop_resolved()
        for listener in list(self.listeners):
            listener()

    # ------------------------------------------------------------------ actions

    def apply(self, action: dict[str, Any]) -> bool:
        """Apply and commit; then turn what happened into notices and moments. False if refused.

        With `defer_commits` the commit runs beside what follows (the notices, the redraw), and `settle` waits
        for it: before the next action, and before the frame that shows this one (ui/app.py). The moments go
        to the listeners (the voice, the money in motion) only once it is committed."""
        if not self.settle():
            return False
        live = self.live
        if live is None:
            return False
        game = live.game
        log_from = len(game.log)
        turn_before = game.turn
        commit = None
        try:
            stamped = self.stamped(action) if action["do"] != "undo" else action
            if self.defer_commits:
                events, commit = live.apply_later(stamped)
            else:
                events = live.apply(stamped)
        except (ActionError, JournalError) as exc:
            self.error(exc)
            return False
        game = live.game
        self._move = None
        turned = game.turn != turn_before
        if turned:
            self.turns += 1  # what this action says (the rent, the jail) is shown on the turn it passed to
        for event in events:
            if event.code == "rolled":
                self.last_dice = tuple(event.params["dice"])
                self.notify(msg("event.rolled", player=event.params["player"],
                                dice=" + ".join(map(str, self.last_dice))), "roll", "dice")
            elif event.code == "moved":
                name, where = event.params["player"], event.params.get("index", -1)
                visiting = (0 <= where < len(game.kinds) and game.kinds[where] == "jail"
                            and not game.players[game.index_of[name]].in_jail)  # landed there: just visiting
                self._move = {"player": name, "space": event.params["space"], "visiting": visiting}
            elif event.code == "card":
                card = game.ruleset.card_by_id[event.params["card"]]
                self.notify(card_msg(game.ruleset, card, game.options), "card", None)
            elif event.code == "game_over" and isinstance(event.params.get("winner"), list):  # a tie
                self.notify(msg("ui.over.tie_line", result=winners_msg(event.params["winner"])), "info", None)
            elif event.code in SHOWN_EVENTS:
                sound = "building" if event.code in ("built", "sold_building", "sold_all") else None
                if event.code == "built" and game.variant.builds_on_visit:
                    sound = "office"  # rulebook 000: opening an office has its own sound
                self.notify(Msg("event." + event.code, self.words(event.params)), "info", sound)
        entries = game.money_log()[log_from:] if len(game.log) > log_from else []  # made once per action
        for entry in entries:
            office = entry.code == "build" and game.variant.builds_on_visit
            sound = "office" if office else SOUNDS.get(entry.code, "payment")
            self.notify(self.money_msg(entry.code, entry.payer, entry.payee, entry.amount, entry.params),
                        "money", sound)
        if turned and not game.ended:
            self.last_dice = ()
        for flow in self.flows:
            flow.applied(action, turned)
        if commit is not None:
            self._commit = (commit, action, events, entries)
        else:
            self._tell_moments(action, events, entries)
        return True

    def settle(self) -> bool:
        """Wait for the action being committed beside the app (`defer_commits`), then tell its moments. False
        if its commit failed: the game is then as the journal has it (loaded again, the flows told as after a
        restart) and a notice says the action was not saved."""
        waiting, self._commit = self._commit, None
        if waiting is None:
            return True
        commit, action, events, entries = waiting
        try:
            commit.wait()
        except JournalError as exc:
            self._recover(exc)
            return False
        self._tell_moments(action, events, entries)
        return True

    def _recover(self, exc: JournalError) -> None:
        """An action shown to nobody yet could not be saved: back to the game as the journal has it."""
        log.error("an action could not be saved: %s", exc)
        live = self.live
        assert live is not None
        try:
            again = self.journal.load(live.id)
        except JournalError as problem:  # the journal cannot be read either (the card pulled): no game, said so
            self.close()
            self.error(problem)
        else:
            self.open(again, fresh=False)
        self.error(exc)
        self.changed()

    def undo(self, steps: int = 1) -> None:
        """Take back the game's last `steps` actions (as far as they go)."""
        for _ in range(steps):
            if not self.apply({"do": "undo"}):
                break
        self.notify(msg("ui.banker.undone"), "info", None)
        self.changed()

    def _tell_moments(self, action: dict[str, Any], events: list[Event], entries: list[Entry]) -> None:
        """Hand the listeners what this action did (or, for an undo, how far the game went back)."""
        if not self.moment_listeners or self.game is None:
            return
        seq = len(self.game.history)
        if action["do"] == "undo":
            moments = [Moment(UNDONE, "undo", {}, seq)]
        else:
            moments = [Moment(EVENT, event.code, dict(event.params), seq) for event in events]
            moments += [Moment(MONEY, entry.code, {**entry.params, "payer": entry.payer, "payee": entry.payee,
                                                   "amount": entry.amount}, seq) for entry in entries]
        self.tell(moments)

    def tell(self, moments: list[Moment]) -> None:
        """Hand `moments` to every moment listener (the voice, the money in motion): an action's, or the app's own
        (a deed shown big, ui/flows/deedcard.py)."""
        for listener in list(self.moment_listeners):
            try:
                listener(moments)
            except Exception:  # a listener's bug must not lose the table its game: the action is committed
                log.exception("a moment listener failed")

    # ------------------------------------------------------------------ notices

    def notice_lines(self, count: int) -> list[NoticeLine]:
        """The latest `count` notices of this turn as the screens show them: {"text", "kind"}, oldest
        first, rendered now in the current language (the money log keeps every payment)."""
        tr = self.tr
        if count <= 0:
            return []
        # A turn's notices clear when it passes, and a page's when the family leaves it (`enter`): none raised
        # elsewhere is ever shown here.
        now = [n for n in self.notices if n.turn == self.turns and n.place == self.place]
        return [{"text": tr.render(n.message), "kind": n.kind} for n in now[-count:]]

    def notify(self, text: Msg | str, kind: str = "info", sound: str | None = None,
               holds: Callable[[], bool] | None = None) -> None:
        """A notice: a `Msg` (msg("ui.card.unknown")) re-renders in the language of the moment;
        a plain string stays as it is. `holds`: a refusal's cause, the notice going once it no longer holds."""
        self.notices.append(Notice(text, kind, sound, self._translator, self.turns, self.place, holds))
        del self.notices[:-NOTICES_KEPT]
        self.sound(sound)

    def sound(self, sound: str | None) -> None:
        """Play `sound` (when the table has its sounds on): a refusal said on its own page, without a notice."""
        if sound and self.settings.sounds:
            self._play_sound(sound)

    def enter(self, place: str) -> None:
        """The family is at `place` now (the navigator says so at every redraw and every move): the notices raised
        at another place go for good, the refusal of one page never following the family to the next. The
        notices raised before any page showed (the app's start) belong to the first place entered."""
        if place == self.place and all(n.place is not None for n in self.notices):
            return
        self.place = place
        for n in self.notices:
            if n.place is None:
                n.place = place
        self.notices = [n for n in self.notices if n.place == place]

    def _drop_resolved(self) -> None:
        """Every notice of this turn whose cause is gone (its `holds` now False) goes, for good: fixed is fixed,
        even if the cause comes back later (a new refusal then says so anew)."""
        if not any(n.holds is not None for n in self.notices):
            return
        kept = []
        for n in self.notices:
            try:
                gone = n.holds is not None and n.turn == self.turns and not n.holds()
            except Exception:  # a condition's bug must not lose the table its notices: keep it as it was
                log.exception("a notice's condition failed")
                gone = False
            if not gone:
                kept.append(n)
        self.notices = kept

    def _translator(self) -> Translator:
        return self.tr

    def error(self, exc: BaseException, holds: Callable[[], bool] | None = None) -> None:
        if isinstance(exc, (ActionError, SetupError)):
            text: Msg | str = Msg(exc.code, self.words(exc.params))
        else:
            text = str(exc)
        self.notify(text, "error", "error", holds)

    # ------------------------------------------------------------------ the engine's words

    def money_text(self, code: str, payer: str, payee: str, amount: int, params: dict[str, Any]) -> str:
        """A money-log line in the current language."""
        return self.tr.render(self.money_msg(code, payer, payee, amount, params))

    def money_msg(self, code: str, payer: str, payee: str, amount: int, params: dict[str, Any]) -> Msg:
        """A money-log line as a `Msg`: the bank, the pot, a card and a building word are pieces of their own."""
        names = {"bank": msg("ui.bank"), "pot": msg("ui.pot")}
        shown = self.words(params)
        if "card" in shown and self.game is not None:
            card = self.game.ruleset.card_by_id.get(shown["card"])
            if card is not None:
                shown["card"] = card_msg(self.game.ruleset, card, self.game.options)
        return Msg(f"log.{code}", {**shown, "payer": names.get(payer, payer), "payee": names.get(payee, payee),
                                   "amount": amount})

    def words(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """An engine code's parameters with the engine's words as pieces in the family's language: the building
        kind in the ruleset's words (biznes: offices and holdings), the speed die's face, how a player left jail,
        the bank or the pot as a creditor, and a card's text."""
        shown = dict(params)
        if "face" in shown:
            shown["face"] = msg(f"ui.face.{shown['face']}")
        if "how" in shown:  # a double, the fine, a card
            shown["how"] = msg(f"ui.how.{shown['how']}")
        if shown.get("to") in ("bank", "pot"):
            shown["to"] = msg(f"ui.{shown['to']}")
        game = self.game
        if game is None:
            return shown
        if "card" in shown and "text" in shown:
            card = game.ruleset.card_by_id.get(shown["card"])
            if card is not None:
                shown["text"] = card_msg(game.ruleset, card, game.options)
        kind = shown.get("kind")
        if kind in ("house", "hotel"):
            words = game.variant.building_words
            shown["kind"] = msg(f"ui.word.{words[0] if kind == 'house' else words[1]}")
        return shown


__all__ = ["Hooks", "Notice", "NoticeLine", "Session", "SHOWN_EVENTS", "SOUNDS"]
