"""The table's controller: between the engine, journal and hardware and the screens.

No Kivy here, so it is tested without a window. The app calls it on Kivy's
main thread (hardware callbacks are handed over with Clock.schedule_once
first), and after every call asks for plain view data (`view.py`) to draw.

What it decides:
- which actions need a player's card tap (everything a player chooses to
  spend), keeping such an action *pending* until the right card is tapped,
  and refusing someone else's card with its owner's name;
- what a tap means when nothing is pending (that player's balance and deeds,
  like a cash machine), during an auction (a bid raised by the step) and
  while cards are being registered;
- the notices that say who paid whom and why, with a sound.
Every action goes through `JournaledGame.apply`, which commits it before it
returns: nothing reaches the screen before the journal has it.
"""

from __future__ import annotations

import logging
import math
import secrets
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from banker.chance import complete_action, complete_bet
from banker.errors import ActionError, BankerError, SetupError
from banker.game import Game
from banker.journal import Journal, JournaledGame, JournalError
from banker.ruleset import builtin_names, load_ruleset
from banker.script import Header
from ui.i18n import Msg, Translator, msg
from ui.moments import EVENT, MONEY, UNDONE, Listener, Moment
from ui.pin import check_pin, hash_pin
from ui.settings import Settings

log = logging.getLogger(__name__)

_SYSTEM_RANDOM = secrets.SystemRandom()  # the app's own draws (the jackpot), not the seeded game's

PLAYER_COLOURS = ["#E53935", "#1E88E5", "#43A047", "#FDD835", "#8E24AA", "#FB8C00", "#00ACC1", "#EC407A"]
RESUME_COUNTDOWN = 3  # seconds between everyone being back and the game going on
MOVE_SECONDS = 600  # a "continue on another device" link lives 10 minutes
PLAYER_QR_SECONDS = 20  # how long the table shows a player's own QR code after their card tap
PIN_FREE_TRIES = 5  # wrong banker PINs in a row before each further one makes the next try wait
PIN_WAIT_FIRST = 30  # seconds of the first wait; each further wrong PIN doubles it ...
PIN_WAIT_MOST = 15 * 60  # ... up to this
# A reader named in the config that has not answered this long after the start is said to be silent (the home
# screen's note): a line reader answers at once, a PN532 within about a second at worst (two configuration
# commands, up to three tries of about 0.2 s each, hardware/pn532.py), and a port that is not there yet is tried
# again every half second (hardware/reader.py), so a reader that comes up with the app never flashes the note.
READER_QUIET_SECONDS = 5.0
SPENDING = {"buy", "bid", "pay_fine", "use_card", "build", "sell", "sell_all", "mortgage", "unmortgage",
            "keep_mortgage", "concede", "auction_own", "sell_to_bank"}
# Engine events worth a line on the screen (money movements always are).
SHOWN_EVENTS = {"card", "jail", "left_jail", "declined", "sold", "unsold", "bankrupt", "game_over", "debt",
                "building_won", "built", "sold_building", "sold_all", "traded", "adjusted", "dealt",
                "extra_roll", "card_skipped", "auction_cancelled", "unsold_own", "own_auction", "sold_to_bank",
                "sold_to_player", "mortgage_lapsed", "building_destroyed", "casino", "casino_declined", "timed_out",
                "paused", "resumed", "speed_die", "mr_monopoly"}
SOUNDS = {"rent": "payment", "tax": "payment", "card": "payment", "buy": "payment", "auction": "payment",
          "salary": "payment", "debt_paid": "payment", "build": "building", "sell": "building",
          "sell_all": "building", "jail_fine": "payment", "trade": "payment", "pot": "payment",
          "own_auction": "payment", "sell_to_bank": "building", "sell_to_player": "payment"}


@dataclass
class Notice:
    """A line for the screen, kept as its key and parameters (a `Msg`) so that it reads in the
    table's language of the moment: switching the language re-renders every notice."""

    message: Msg | str  # a plain string (an unexpected error's own words) is shown as it is
    kind: str = "info"  # info | money | error | card | move | balance
    sound: str | None = None
    translator: Callable[[], Translator] = field(default=Translator, repr=False, compare=False)
    turn: int = 0  # the controller's count of turns when it was made: shown during that turn only
    # A refusal's cause: while it returns True the notice stands; once it returns False the notice goes for good
    # (Controller.changed drops it), e.g. the setup's "every player needs a registered card" once they all have one.
    holds: Callable[[], bool] | None = field(default=None, repr=False, compare=False)

    @property
    def text(self) -> str:
        """The notice in the current language."""
        return self.translator().render(self.message)


@dataclass
class HardwareCheck:
    """The settings' hardware check while its screen is open: what came since it opened. While it is open a card
    tap or a press of the dice button is only shown there, never acted on in the game."""

    kind: str  # "reader" | "dice": the screen open
    card: str | None = None  # the last card tapped
    taps: int = 0
    dice: tuple[int, ...] = ()  # the dice of the last press
    presses: int = 0


@dataclass
class Pending:
    """An action waiting for card taps: every player in `needs` must tap."""

    action: dict[str, Any]
    needs: list[str]
    prompt: str
    tapped: set[str] = field(default_factory=set)


@dataclass
class DraftPlayer:
    name: str
    colour: str
    card: str | None = None


@dataclass
class Draft:
    """A new game being set up at the table."""

    rules: str = "classic"
    players: list[DraftPlayer] = field(default_factory=list)
    registering: int | None = None  # the player whose card the next tap registers
    pin: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    setup: dict[str, Any] | None = None  # "game in progress": the engine's setup
    time_limit: int | None = None  # minutes, for timed rulesets


class Controller:
    def __init__(self, journal: Journal, settings: Settings, *,
                 save_settings: Callable[[Settings], None] | None = None,
                 roll: Callable[[int], tuple[int, ...]] | None = None,
                 play_sound: Callable[[str], None] | None = None,
                 power_off: Callable[[], None] | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.journal = journal
        self.settings = settings
        self.tr = Translator(settings.language)
        self._save_settings = save_settings or (lambda s: s.save())
        self._roll = roll or _secure_roll
        self._play_sound = play_sound or (lambda name: None)
        self._power_off = power_off or _system_power_off
        self.clock = clock
        self.live: JournaledGame | None = None
        self.meta: dict[str, Any] = {}
        self.draft: Draft | None = None
        self.pending: Pending | None = None
        self.replacing: str | None = None  # the player whose lost card the next tap replaces
        self.notices: list[Notice] = []
        self.turns = 0  # turns passed in this session: the notices of one turn are not shown in the next
        self._move: dict[str, Any] | None = None  # where the token must go, in the language of the moment
        self.last_dice: tuple[int, ...] = ()
        self.reader = "none"  # none | connected | disconnected
        self.button = "none"  # none | ready | missing
        # The hardware as the config file set it up (`hardware_config`: the app at its start), None when the app
        # runs without hardware; the reader's last status in the hardware's own words; the check being made.
        self.hardware: dict[str, str] | None = None
        self.reader_detail = ""
        self.button_detail = ""
        self.reader_since = 0.0  # the controller's clock when the reader was started
        self._reader_silent = False  # what the screens were last told
        self.check: HardwareCheck | None = None
        self.listeners: list[Callable[[], None]] = []
        # Who hears each action's moments (ui/moments.py); issue 19 builds the voice and the money in motion on it.
        self.moment_listeners: list[Listener] = []
        # Why the voice is silent though switched on (no espeak-ng, no audio device), or None: the app sets
        # it to the voice's own (ui/voice.py), and the settings screen shows it under the hardware's state.
        self.voice_status: Callable[[], str | None] = lambda: None
        self.alarm_sounded = False
        # brands: the turn, bid and debt timers count from these game-clock moments (seconds);
        # the numbers picked at the casino; the table's votes to pause and to resume.
        self.turn_began = 0.0
        self.bid_began: tuple[Any, ...] = ()
        self.debt_began = -1.0
        self.casino_pick: list[int] = []
        self.votes: set[str] = set()
        self.vote_kind = ""  # "" | "pause" | "resume"
        self.vote_began = 0.0
        self.resume_at = -1.0  # game time at which an agreed resume happens (after a short countdown)
        # Phones (issue 9): the web server (ui/web.PhoneServer) once the app starts it, its base address,
        # what was last published, and whose QR code the table shows after a card tap (name, until).
        self.web: Any = None
        self.web_base = ""
        self.phone_state: Callable[[Controller], dict[str, Any]] = lambda c: {}
        self._published: tuple[Any, ...] = ()
        # How a change reaches the phones: at once (None: the tests' and the tools' way), or handed to the
        # app, which publishes after the frame that shows the change, so a tap's screen never waits for it.
        self.publish_soon: Callable[[Callable[[], None]], None] | None = None
        self._publish_waiting = False
        self.player_qr: tuple[str, float] = ("", 0.0)
        self.move_codes: dict[str, int] = {}  # one-time move code -> game id

    # ------------------------------------------------------------------ basics

    @property
    def game(self) -> Game | None:
        return self.live.game if self.live is not None else None

    @property
    def move_hint(self) -> str | None:
        """"Ann: move your token to Kentucky Avenue" after the latest move."""
        return self.tr("ui.move_to", **self._move) if self._move else None

    @property
    def mode(self) -> str:
        if self.draft is not None:
            return "setup"
        if self.live is None:
            return "home"
        return "over" if self.live.game.ended else "table"

    def changed(self) -> None:
        self._drop_resolved()
        if self.publish_soon is None:
            self._publish()
        elif not self._publish_waiting:
            self._publish_waiting = True
            self.publish_soon(self._publish_waited)
        for listener in list(self.listeners):
            listener()

    # ------------------------------------------------------------------ phones (issue 9)

    def web_token(self) -> str | None:
        """The live game's secret link token (128 random bits), made when first needed and kept in the journal."""
        if self.live is None:
            return None
        token = self.meta.get("web_token")
        if not token:
            token = secrets.token_urlsafe(16)
            self.meta["web_token"] = token
            self.journal.set_meta(self.live.id, self.meta)
        return str(token)

    def table_link(self) -> str | None:
        token = self.web_token()
        return f"{self.web_base}/g/{token}" if token and self.web_base else None

    def player_link(self, player: str) -> str | None:
        from urllib.parse import quote

        link = self.table_link()
        return f"{link}?p={quote(player)}" if link else None

    def revoke_link(self) -> None:
        """The banker's "new link": the old one answers nothing any more."""
        old = self.meta.get("web_token")
        if self.live is None:
            return
        if self.web is not None and old:
            self.web.publish(old, None)
        self.meta.pop("web_final", None)
        self.meta["web_token"] = secrets.token_urlsafe(16)
        self.journal.set_meta(self.live.id, self.meta)
        self._published = ()
        self.notify(msg("ui.phones.revoked"), "info", None)
        self.changed()

    def _publish_waited(self) -> None:
        if self._publish_waiting:  # once, however many changes came in meanwhile
            self._publish_waiting = False
            self._publish()

    def _publish(self) -> None:
        """Send the phone page's state to the web server when the game has changed."""
        if self.web is None or self.live is None:
            return
        game = self.live.game
        token = self.web_token()
        key = (token, self.live.id, len(game.script), game.ended, self.tr.language)
        if key == self._published:
            return
        self._published = key
        state = self.phone_state(self)
        self.web.publish(token, state)
        if game.ended and self.meta.get("web_final") != state:
            # The final results stay on the phones after a restart too, until the link is revoked
            # or the game deleted: keep them with the game.
            self.meta["web_final"] = state
            self.journal.set_meta(self.live.id, self.meta)

    def publish_finished(self) -> None:
        """At start: the finished games whose phone links still stand show their final results."""
        if self.web is None:
            return
        for info in self.journal.games():
            if info.status != "finished":
                continue
            meta = self.journal.meta(info.id)
            if meta.get("web_token") and meta.get("web_final"):
                self.web.publish(meta["web_token"], meta["web_final"])

    def move_link(self) -> str | None:
        """"Continue on another device": a one-time link, valid 10 minutes, to this game as a game script."""
        if self.web is None or self.live is None or not self.web_base:
            return None
        code = secrets.token_urlsafe(16)
        script = "\n".join(self.journal.export(self.live.id)) + "\n"
        self.web.add_move(code, script, time.monotonic() + MOVE_SECONDS)
        self.move_codes[code] = self.live.id
        return f"{self.web_base}/m/{code}"

    def game_moved(self, code: str) -> None:
        """The move link was used: the game now lives on another device; here it is marked moved, not deleted."""
        game_id = self.move_codes.pop(code, None)
        if game_id is None:
            return
        self.journal.set_status(game_id, "moved")
        if self.live is not None and self.live.id == game_id:
            self.live = None
            self.meta = {}
            self.pending = None
            self.notices.clear()
            self._follow_currency()
        self.notify(msg("ui.phones.moved"), "info", "payment")
        self.changed()

    def show_player_qr(self, player: str) -> None:
        if self.table_link():
            self.player_qr = (player, time.monotonic() + PLAYER_QR_SECONDS)

    def connect_phones(self, web: Any, base: str, phone_state: Callable[["Controller"], dict[str, Any]]) -> None:
        """The phone server (ui/web.PhoneServer or a test's fake), its base address, and what builds the state it
        publishes (ui/phone.phone_state: handed in, so the controller does not import the screens' side)."""
        self.web, self.web_base, self.phone_state = web, base, phone_state

    def notice_lines(self, count: int) -> list[dict[str, str]]:
        """The latest `count` notices of this turn as the screens show them: {"text", "kind"}, oldest
        first, rendered now in the current language (the money log keeps every payment)."""
        tr = self.tr
        if count <= 0:
            return []
        now = [n for n in self.notices if n.turn == self.turns]  # a turn's notices clear when it passes
        return [{"text": tr.render(n.message), "kind": n.kind} for n in now[-count:]]

    def notify(self, text: Msg | str, kind: str = "info", sound: str | None = None,
               holds: Callable[[], bool] | None = None) -> None:
        """A notice: a `Msg` (msg("ui.card.unknown")) re-renders in the language of the moment;
        a plain string stays as it is. `holds`: a refusal's cause, the notice going once it no longer holds."""
        self.notices.append(Notice(text, kind, sound, self._translator, self.turns, holds))
        del self.notices[:-30]
        if sound and self.settings.sounds:
            self._play_sound(sound)

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
            text: Msg | str = Msg(exc.code, self._words(exc.params))
        else:
            text = str(exc)
        self.notify(text, "error", "error", holds)

    def set_language(self, language: str) -> None:
        self.settings.language = language
        self.tr = Translator(language, currency=self.tr.currency)
        if self.pending is not None and self.game is not None:  # the waiting prompt in the new language
            self.pending.prompt = self._tap_prompt(self.pending.action, self.pending.needs)
        self._save_settings(self.settings)
        self.changed()

    def _follow_currency(self) -> None:
        """Money is shown in the live game's currency (its ruleset's `currency`), or as plain numbers."""
        self.tr.currency = self.live.game.ruleset.currency if self.live is not None else None

    def set_setting(self, name: str, value: Any) -> None:
        setattr(self.settings, name, value)
        self._save_settings(self.settings)
        self.changed()

    # ------------------------------------------------------------------ games

    def resume(self) -> bool:
        """Reopen the last unfinished game, exactly where it was."""
        game_id = self.journal.latest_active()
        if game_id is None:
            return False
        try:
            self.live = self.journal.load(game_id)
        except JournalError as exc:
            self.error(exc)
            return False
        self.meta = self.journal.meta(game_id)
        self.draft = None
        self._follow_currency()
        self.turn_began = self.game_time()  # a restart gives the player at the table their full time
        self.changed()
        return True

    def new_game(self) -> None:
        self.draft = Draft(players=[DraftPlayer("", PLAYER_COLOURS[0]), DraftPlayer("", PLAYER_COLOURS[1])])
        self.changed()

    def leave_draft(self) -> None:
        self.draft = None
        self.changed()

    def rulesets(self) -> list[str]:
        """The shipped rulesets, the classic family first, then biznes and the brands modes."""
        first = ["classic", "classic-short", "classic-timed", "biznes", "brands", "brands-fast", "brands-showdown",
                 "brands-teams"]
        names = builtin_names()
        return [n for n in first if n in names] + [n for n in names if n not in first]

    def draft_add_player(self) -> None:
        d = self._draft()
        if len(d.players) < 8:
            used = {p.colour for p in d.players}
            colour = next(c for c in PLAYER_COLOURS if c not in used)
            d.players.append(DraftPlayer("", colour))
        self.changed()

    def draft_remove_player(self, index: int) -> None:
        d = self._draft()
        if len(d.players) > 2:
            del d.players[index]
            d.registering = None
        self.changed()

    def draft_set(self, index: int, name: str | None = None, colour: str | None = None) -> None:
        p = self._draft().players[index]
        if name is not None:
            p.name = name.strip()[:16]
        if colour is not None:
            p.colour = colour
        self.changed()

    def draft_register(self, index: int | None) -> None:
        """The next card tapped becomes this player's card (None: stop registering)."""
        self._draft().registering = index
        self.changed()

    def draft_rules(self, rules: str) -> None:
        d = self._draft()
        d.rules = rules
        d.options = {}
        self.changed()

    def _draft(self) -> Draft:
        if self.draft is None:
            self.draft = Draft()
        return self.draft

    def draft_problems(self) -> list[str]:
        """What still stops the game from starting, in words."""
        return [self.tr.render(m) for m in self._draft_problems()]

    def _draft_problems(self) -> list[Msg]:
        d = self._draft()
        problems = []
        names = [p.name for p in d.players]
        if any(not n for n in names):
            problems.append(msg("ui.setup.need_names"))
        if len(set(names)) != len(names):
            problems.append(msg("ui.setup.same_name"))
        if any(n.lower() == "bank" for n in names):
            problems.append(msg("ui.setup.bank_name"))
        if self.settings.taps and any(p.card is None for p in d.players):
            problems.append(msg("ui.setup.need_cards"))
        ruleset = load_ruleset(d.rules)
        if not ruleset.players_min <= len(d.players) <= ruleset.players_max:  # showdown 3, teams 4
            problems.append(msg("ui.setup.player_count", least=ruleset.players_min, most=ruleset.players_max))
        return problems

    def _draft_still(self, draft: Draft, problem: Msg) -> bool:
        """Whether `problem` still stops this draft from starting (False once the draft is gone)."""
        return self.draft is draft and problem in self._draft_problems()

    def draft_start(self) -> bool:
        d = self._draft()
        problems = self._draft_problems()
        if problems:
            for problem in problems:  # each refusal stands until the family has fixed its cause
                self.notify(problem, "error", "error", holds=lambda p=problem, d=d: self._draft_still(d, p))
            self.changed()
            return False
        options = dict(d.options)
        if d.time_limit is not None:
            options["time_limit"] = d.time_limit
        header = Header(rules=d.rules, players=[p.name for p in d.players], seed=secrets.randbits(48),
                        options=options, setup=d.setup)
        meta: dict[str, Any] = {
            "cards": {p.card: p.name for p in d.players if p.card},
            "colours": {p.name: p.colour for p in d.players},
            "started": self.clock(),
        }
        if d.pin:
            meta["pin"] = hash_pin(d.pin)
        try:
            self.live = self.journal.start(header, meta=meta)
        except (BankerError, ValueError) as exc:
            self.error(exc)
            self.changed()
            return False
        self.meta = self.journal.meta(self.live.id)
        self.draft = None
        self._follow_currency()
        if self.settings.stand_ins:  # allowed for a forgotten card in the last game, not for this one
            self.set_setting("stand_ins", False)
        self.turn_began = 0.0
        self.player_qr = ("", 0.0)  # a code shown for the last game's player is not this game's
        self.last_dice, self._move = (), None  # nor are the last game's dice and move
        self.notices.clear()
        if self.live.game.deal_owed:
            self.apply({"do": "deal"})  # the banker shuffles and deals the title deeds
        self.changed()
        return True

    # ------------------------------------------------------------------ names and cards

    def colour(self, name: str) -> str:
        return str(self.meta.get("colours", {}).get(name, "#9E9E9E"))

    def card_owner(self, uid: str) -> str | None:
        if self.draft is not None:
            return next((p.name or f"#{k + 1}" for k, p in enumerate(self.draft.players) if p.card == uid), None)
        owner = self.meta.get("cards", {}).get(uid)
        return str(owner) if owner is not None else None

    def card_tapped(self, uid: str) -> None:
        """A card was put on the reader (already on the main thread)."""
        if self.check is not None:  # the hardware check: shown there, nothing paid or registered
            self.check.card = uid
            self.check.taps += 1
        elif self.draft is not None:
            self._register_tap(uid)
        elif self.replacing is not None:
            self._replace_tap(uid)
        elif self.live is not None:
            self._game_tap(uid)
        self.changed()

    def _register_tap(self, uid: str) -> None:
        d = self._draft()
        if d.registering is None:
            return
        me = d.players[d.registering]
        holder = next((p for p in d.players if p.card == uid), None)
        if holder is not None and holder is not me:
            self.notify(msg("ui.card.taken", owner=holder.name or f"#{d.players.index(holder) + 1}"),
                        "error", "error")
            return
        me.card = uid
        self.notify(msg("ui.card.registered", player=me.name or f"#{d.registering + 1}"), "info", "payment")
        nxt = next((k for k, p in enumerate(d.players) if p.card is None), None)
        d.registering = nxt

    def replace_card(self, player: str) -> None:
        """After the banker's PIN: the next card tapped becomes `player`'s (a lost card)."""
        self.replacing = player
        self.changed()

    def _replace_tap(self, uid: str) -> None:
        assert self.live is not None and self.replacing is not None
        owner = self.card_owner(uid)
        if owner is not None and owner != self.replacing:
            self.notify(msg("ui.card.taken", owner=owner), "error", "error")
            return
        cards = {u: n for u, n in self.meta.get("cards", {}).items() if n != self.replacing}
        cards[uid] = self.replacing
        self.meta["cards"] = cards
        self.journal.set_meta(self.live.id, self.meta)
        self.notify(msg("ui.card.registered", player=self.replacing), "info", "payment")
        self.replacing = None

    def _game_tap(self, uid: str) -> None:
        owner = self.card_owner(uid)
        if owner is None:
            self.notify(msg("ui.card.unknown"), "error", "error")
            return
        game = self.live.game  # type: ignore[union-attr]
        if self.vote_kind:
            self._vote(owner)  # a tap during a vote to pause or resume is that player's yes
            return
        pending = self.pending
        if pending is not None:
            if owner not in pending.needs:
                who = " / ".join(n for n in pending.needs if n not in pending.tapped)
                self.notify(msg("ui.card.not_yours", owner=owner, player=who), "error", "error")
                return
            pending.tapped.add(owner)
            if set(pending.needs) <= pending.tapped:
                self.pending = None
                self.apply(pending.action)
            return
        if game.auction is not None and owner in self.auction_bidders():
            self.bid(owner)
            return
        # Nothing waits for this card: show its balance and deeds, like a cash machine (and their phone code).
        self.show_player_qr(owner)
        p = game.players[game.index_of[owner]]
        deeds = ", ".join(game.space_name(i) for i in game.iter_properties(p.index)) or "—"
        self.notify(msg("ui.balance", player=owner, cash=p.cash, deeds=deeds), "balance", None)

    # ------------------------------------------------------------------ doing things

    def request(self, action: dict[str, Any], needs: list[str] | None = None) -> None:
        """An action from a button: done at once, or kept until the right cards are tapped."""
        game = self.game
        if game is None or self.live is None:
            return
        if action["do"] in ("draw", "deal"):
            action = complete_action(game, action, self.live.chance)  # the app's own shuffled decks
        if action["do"] == "casino" and action.get("numbers"):  # the app's own die and jackpot draw
            action = complete_bet(game, action, lambda: self._roll(1)[0], _SYSTEM_RANDOM.random)
        problem = game.can(self._stamped(action))
        if problem is not None:
            live = self.live

            def still() -> bool:  # the refusal goes once the game would take the action, or refuses it otherwise
                return self.live is live and live.game.can(self._stamped(action)) == problem
            try:
                game.check(self._stamped(action))
            except ActionError as exc:
                self.error(exc, holds=still)
            self.changed()
            return
        if needs is None:
            needs = self._who_pays(action)
        if needs and self.settings.taps:
            self.pending = Pending(action, needs, self._tap_prompt(action, needs))
        else:
            self.pending = None
            self.apply(action)
        self.changed()

    def cancel_pending(self) -> None:
        self.pending = None
        self.changed()

    def _who_pays(self, action: dict[str, Any]) -> list[str]:
        game = self.game
        assert game is not None
        verb = action["do"]
        if verb == "trade":
            return [action["from"], action["to"]]
        if verb == "casino":  # a bet needs the player's card; walking away does not
            return [game.current.name] if action.get("numbers") else []
        if verb == "sell_to_player":  # a sale both sides agree to
            owner = game.owner[game.space_index(action["space"])]
            return [game.players[owner].name, action["to"]] if owner >= 0 else [action["to"]]
        if verb not in SPENDING:
            return []
        if "player" in action:
            return [action["player"]]
        if "space" in action:
            owner = game.owner[game.space_index(action["space"])]
            if owner >= 0:
                return [game.players[owner].name]
        return [game.current.name]

    def _tap_prompt(self, action: dict[str, Any], needs: list[str]) -> str:
        what = self.describe_action(action)
        return self.tr("ui.tap.prompt", players=" + ".join(needs), what=what)

    def describe_action(self, action: dict[str, Any]) -> str:
        game = self.game
        assert game is not None
        verb = action["do"]
        params: dict[str, Any] = dict(action)
        if "space" in action:
            i = game.space_index(action["space"])
            params["space"] = game.space_name(i)
        if verb == "buy" and game.decision is not None and game.decision.kind == "buy":
            params["space"] = game.space_name(game.decision.space)
            params["price"] = game.prices[game.decision.space]
        if verb == "pay_fine":
            params["fine"] = game.options["jail_fine"]
        return self.tr(f"ui.do.{verb}", **params)

    def _stamped(self, action: dict[str, Any]) -> dict[str, Any]:
        """The action with the game clock: seconds since the game started."""
        return {**action, "t": round(self.game_time(), 1)}

    def apply(self, action: dict[str, Any]) -> bool:
        """Apply and commit; then turn what happened into notices. False if refused."""
        live = self.live
        if live is None:
            return False
        game = live.game
        log_from = len(game.log)
        turn_before = game.turn
        try:
            events = live.apply(self._stamped(action) if action["do"] != "undo" else action)
        except (ActionError, JournalError) as exc:
            self.error(exc)
            return False
        game = live.game
        self._move = None
        if game.turn != turn_before:
            self.turns += 1  # what this action says (the rent, the jail) is shown on the turn it passed to
        for event in events:
            if event.code == "rolled":
                self.last_dice = tuple(event.params["dice"])
                self.notify(msg("event.rolled", player=event.params["player"],
                                    dice=" + ".join(map(str, self.last_dice))), "info", "dice")
            elif event.code == "moved":
                self._move = {"player": event.params["player"], "space": event.params["space"]}
            elif event.code == "card":
                card = game.ruleset.card_by_id[event.params["card"]]
                self.notify(Msg(f"card.{card.id}", default=card.text), "card", None)
            elif event.code in SHOWN_EVENTS:
                sound = "building" if event.code in ("built", "sold_building", "sold_all") else None
                if event.code == "built" and game.variant.builds_on_visit:
                    sound = "office"  # rulebook 000: opening an office has its own sound
                self.notify(Msg("event." + event.code, self._words(event.params)), "info", sound)
        for entry in game.money_log()[log_from:] if len(game.log) > log_from else []:
            sound = "office" if entry.code == "build" and game.variant.builds_on_visit else SOUNDS.get(entry.code, "payment")
            self.notify(self.money_msg(entry.code, entry.payer, entry.payee, entry.amount, entry.params),
                        "money", sound)
        if game.turn != turn_before and not game.ended:
            self.last_dice = ()
            self.turn_began = self.game_time()
            self.casino_pick = []
        if game.debtors and self.debt_began < 0:
            self.debt_began = self.game_time()
        elif not game.debtors:
            self.debt_began = -1.0
        if game.ended:
            self.pending = None
        self._tell_moments(action, events, game.money_log()[log_from:] if len(game.log) > log_from else [])
        return True

    def _tell_moments(self, action: dict[str, Any], events: list[Any], entries: list[Any]) -> None:
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
        for listener in list(self.moment_listeners):
            try:
                listener(moments)
            except Exception:  # a listener's bug must not lose the table its game: the action is committed
                log.exception("a moment listener failed")

    def money_text(self, code: str, payer: str, payee: str, amount: int, params: dict[str, Any]) -> str:
        """A money-log line in the current language."""
        return self.tr.render(self.money_msg(code, payer, payee, amount, params))

    def money_msg(self, code: str, payer: str, payee: str, amount: int, params: dict[str, Any]) -> Msg:
        """A money-log line as a `Msg`: the bank, the pot, a card and a building word are pieces of their own."""
        names = {"bank": msg("ui.bank"), "pot": msg("ui.pot")}
        shown = self._words(params)
        if "card" in shown and self.game is not None:
            card = self.game.ruleset.card_by_id.get(shown["card"])
            if card is not None:
                shown["card"] = Msg(f"card.{card.id}", default=card.text)
        return Msg(f"log.{code}", {**shown, "payer": names.get(payer, payer), "payee": names.get(payee, payee),
                                   "amount": amount})

    def _words(self, params: Mapping[str, Any]) -> dict[str, Any]:
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
                shown["text"] = Msg(f"card.{card.id}", default=card.text)
        kind = shown.get("kind")
        if kind in ("house", "hotel"):
            words = game.variant.building_words
            shown["kind"] = msg(f"ui.word.{words[0] if kind == 'house' else words[1]}")
        return shown

    # Buttons of the turn screen: each is an action request.

    def roll(self, dice: tuple[int, ...] | None = None) -> None:
        game = self.game
        if game is None:
            return
        if dice is None:
            dice = self._roll(game.dice_count())
        self.request({"do": "roll", "dice": list(dice)})

    def dice_pressed(self, dice: tuple[int, ...]) -> None:
        """The GPIO dice button: roll for whoever must roll now (during the hardware check: only shown there)."""
        if self.check is not None:
            self.check.dice = tuple(dice)
            self.check.presses += 1
            self.changed()
            return
        game = self.game
        if game is None or game.ended:
            return
        verbs = {v for o in game.owed() for v in o["verbs"]}
        d = game.decision
        if d is not None and d.kind == "casino" and self.casino_pick:
            self.request({"do": "casino", "numbers": list(self.casino_pick), "die": dice[0]})  # the button rolls the die
        elif "roll" in verbs:
            need = game.dice_count()  # a third, speed die when the ruleset adds one
            if len(dice) < need:
                dice = tuple(dice) + self._roll(need - len(dice))[:need - len(dice)]
            dice = tuple(dice[:need])
            self.roll(dice)
        else:
            self.notify(msg("ui.no_roll_now"), "error", "error")
            self.changed()

    def draw(self, card: str | None = None) -> None:
        action: dict[str, Any] = {"do": "draw"}
        if card is not None:
            action["card"] = card
        self.request(action)

    def bid_amount(self, player: str) -> int:
        game = self.game
        assert game is not None and game.auction is not None
        a = game.auction
        least = game.least_bid(game.index_of[player])  # the rules' answer
        if game.variant.free_raise:  # any raise is allowed: offer the table's own step
            return max(least, a.high_bid + self.settings.bid_step)
        return least

    def bid(self, player: str, amount: int | None = None) -> None:
        """A bid from a card tap or a button: the high bid raised by the step."""
        game = self.game
        if game is None or game.auction is None:
            return
        action = {"do": "bid", "player": player, "amount": amount or self.bid_amount(player)}
        if game.can(action) is not None:
            self.request(action)
            return
        self.apply(action)  # the tap itself was the player's consent
        self.changed()

    def auction_bidders(self) -> list[str]:
        game = self.game
        if game is None or game.auction is None:
            return []
        return [game.players[b].name for b in game.auction.bidders]

    # ------------------------------------------------------------------ the banker (behind the PIN)

    def has_pin(self) -> bool:
        return "pin" in self.meta

    def pin_wait(self) -> int | None:
        """Seconds before the banker's PIN may be tried again after too many wrong tries, or None."""
        until = float(self.meta.get("pin_locked_until", 0.0))
        left = until - self.clock()
        return math.ceil(left) if left > 0 else None

    def pin_ok(self, pin: str) -> bool:
        """Whether `pin` unlocks the banker's menu (always, when the game has no PIN).

        After PIN_FREE_TRIES wrong tries in a row each further wrong try makes the next one wait,
        twice as long each time (PIN_WAIT_FIRST seconds, at most PIN_WAIT_MOST); while it waits,
        every try is refused unchecked. The count and the wait are kept with the game in the
        journal, so pulling the plug does not reset them; the right PIN does.
        """
        if not self.has_pin():
            return True
        if self.pin_wait() is not None:
            return False
        failures = int(self.meta.get("pin_failures", 0))
        if check_pin(self.meta["pin"], pin):
            if failures or "pin_locked_until" in self.meta:
                self.meta.pop("pin_failures", None)
                self.meta.pop("pin_locked_until", None)
                self._save_meta()
            return True
        failures += 1
        self.meta["pin_failures"] = failures
        if failures >= PIN_FREE_TRIES:
            wait = min(PIN_WAIT_FIRST * 2 ** (failures - PIN_FREE_TRIES), PIN_WAIT_MOST)
            self.meta["pin_locked_until"] = self.clock() + wait
        self._save_meta()
        return False

    def pin_tries_left(self) -> int:
        """Wrong PIN tries left before each further one makes the next wait (0 once waits have begun)."""
        return max(0, PIN_FREE_TRIES - int(self.meta.get("pin_failures", 0)))

    def _save_meta(self) -> None:
        if self.live is not None:
            self.journal.set_meta(self.live.id, self.meta)

    def undo(self, steps: int = 1) -> None:
        for _ in range(steps):
            if not self.apply({"do": "undo"}):
                break
        self.pending = None
        self.notify(msg("ui.banker.undone"), "info", None)
        self.changed()

    def adjust(self, player: str, cash: int, position: int | None, reason: str) -> None:
        action: dict[str, Any] = {"do": "adjust", "player": player, "cash": cash, "reason": reason}
        if position is not None:
            action["position"] = position
        self.apply(action)
        self.changed()

    def end_game(self) -> None:
        self.apply({"do": "end_game"})
        self.changed()

    def abandon(self) -> None:
        """Stop this game without a winner; it stays in the journal, finished."""
        if self.live is not None:
            self.journal.set_status(self.live.id, "finished")
        self.live = None
        self.meta = {}
        self.pending = None
        self.notices.clear()
        self._follow_currency()
        self.changed()

    def close_game(self) -> None:
        """Back to the start screen after the game-over screen (the game stays finished)."""
        self.live = None
        self.meta = {}
        self.replacing = None
        self.player_qr = ("", 0.0)
        self.notices.clear()
        self._follow_currency()
        self.changed()

    def power_off(self) -> None:
        self._power_off()

    # ------------------------------------------------------------------ hardware status and the clock

    def hardware_config(self, source: str, *, reader_kind: str = "", reader_port: str = "", dice_pin: str = "",
                        problem: str = "", reader_used: bool | None = None) -> None:
        """What the hardware config file sets up, from the app at its start: the file (`source`), the reader's
        kind (its [reader] protocol, as the file names it) and port (its url), the dice button's pin ("" when
        it is off), or the file's `problem`. `reader_used`: whether the config has a reader at all (its kind's
        `used(url)`: a PC/SC reader with an empty url is the first reader there is); by default, whether a port
        is named. The reader's silence is counted from now."""
        used = bool(reader_port) if reader_used is None else reader_used
        self.hardware = {"source": source, "reader_kind": reader_kind, "reader_port": reader_port,
                         "reader_used": "yes" if used else "", "dice_pin": dice_pin, "problem": problem}
        self.reader_since = self.clock()
        self.changed()

    def reader_status(self, connected: bool, detail: str = "") -> None:
        """The reader came or went; `detail` is the hardware's reason ("ready", "cannot open: ...")."""
        self.reader = "connected" if connected else "disconnected"
        self.reader_detail = detail
        self.changed()

    def button_status(self, ready: bool, detail: str = "") -> None:
        self.button = "ready" if ready else "missing"
        self.button_detail = detail
        self.changed()

    def reader_silent(self) -> bool:
        """A reader is named in the config but has not answered READER_QUIET_SECONDS after the start (or has
        gone since): the home screen says so, with the way to the check."""
        h = self.hardware
        if h is None or not h["reader_used"] or self.reader == "connected":
            return False
        return self.clock() - self.reader_since >= READER_QUIET_SECONDS

    def start_check(self, kind: str | None) -> None:
        """The hardware check's screen opens ("reader" or "dice", afresh) or closes (None)."""
        self.check = HardwareCheck(kind) if kind is not None else None

    def end_time(self) -> float | None:
        """Wall-clock time a timed game ends, or None."""
        game = self.game
        if game is None or not game.time_limit:
            return None
        return float(self.meta.get("started", 0.0)) + game.time_limit

    def game_time(self) -> float:
        """Seconds since the game started, as the actions' `t` counts them."""
        return max(0.0, self.clock() - float(self.meta.get("started", self.clock())))

    def auction_countdown(self) -> int | None:
        """Seconds left before an own-property auction with no bid is cancelled (biznes), else None.

        Counted from the auction's opening in the journal, so neither a pass
        nor a restart of the app starts it again (rulebook 000).
        """
        game = self.game
        if game is None or game.auction is None:
            return None
        a = game.auction
        limit = int(game.options["own_auction_cancel_seconds"])
        if a.kind != "own" or a.high_bidder >= 0 or not limit or a.opened_at < 0:
            return None
        # (`t` is stamped to a tenth of a second, so the first reading may round up past the limit)
        return min(limit, max(0, math.ceil(a.opened_at + limit - self.game_time())))

    # brands: the turn, bid and debt timers, and the table's votes to pause and resume.

    def _left(self, began: float, seconds: int) -> int:
        return min(seconds, max(0, math.ceil(began + seconds - self.game_time())))

    def turn_countdown(self) -> int | None:
        """Seconds left in the current turn (brands' turn timer), or None."""
        game = self.game
        if game is None or game.ended or game.paused_at >= 0 or game.auction is not None or game.debtors:
            return None
        seconds = int(game.options["turn_seconds"])
        return self._left(self.turn_began, seconds) if seconds else None

    def bid_countdown(self) -> int | None:
        """Seconds the bidder whose turn it is has left (brands), or None."""
        game = self.game
        if game is None or game.auction is None or game.paused_at >= 0 or game.auction.next_bidder < 0:
            return None
        seconds = int(game.options["bid_seconds"])
        if not seconds:
            return None
        a = game.auction
        key = (a.space, a.kind, a.next_bidder, a.high_bid, len(a.bidders))
        if self.bid_began[:1] != (key,):
            self.bid_began = (key, self.game_time())
        return self._left(float(self.bid_began[1]), seconds)

    def debt_countdown(self) -> int | None:
        """Seconds shown on the debt panel (brands), or None."""
        game = self.game
        if game is None or not game.debtors or self.debt_began < 0:
            return None
        seconds = int(game.options["debt_seconds"])
        return self._left(self.debt_began, seconds) if seconds else None

    def time_out(self) -> None:
        """The turn timer ran out: a skipped turn, and the app plays the turn's defaults for the player."""
        game = self.game
        if game is None:
            return
        if not game.turn_skipped:  # the first time this turn: a skipped turn (after an auction, just go on)
            if not self.apply({"do": "timeout"}):
                return
            self.notify(msg("ui.timer.out"), "error", "alarm")
        for _ in range(12):
            game = self.game
            if game is None or game.ended or game.auction is not None or game.debtors:
                break
            cur = game.current.name
            verbs: list[str] = next((o["verbs"] for o in game.owed() if o["player"] == cur), [])
            d = game.decision
            if "decline" in verbs:
                action: dict[str, Any] = {"do": "decline"}
            elif "draw" in verbs:
                action = complete_action(game, {"do": "draw"}, self.live.chance if self.live else None)
            elif "casino" in verbs:
                action = {"do": "casino"}
            elif "bus" in verbs and d is not None:
                action = {"do": "bus", "steps": sum(d.dice)}
            elif "jump" in verbs:
                action = {"do": "jump", "space": game.current.position}
            elif "tax" in verbs:
                action = {"do": "tax", "choice": "flat"}
            elif "roll" in verbs:
                action = {"do": "roll", "dice": list(self._roll(game.dice_count()))}
            elif "end_turn" in verbs:
                action = {"do": "end_turn"}
            else:
                break
            if not self.apply(action):
                break
            if action["do"] == "end_turn":
                break
        self.turn_began = self.game_time()

    def ask_pause(self) -> None:
        """Any player asks for a pause: it starts only if every player still in taps their card in time."""
        game = self.game
        if game is None or game.paused_at >= 0 or not game.variant.clocked:
            return
        self.vote_kind, self.votes, self.vote_began = "pause", set(), self.game_time()
        self.notify(msg("ui.pause.asked"), "info", "alarm")
        self.changed()

    def ask_resume(self) -> None:
        game = self.game
        if game is None or game.paused_at < 0:
            return
        self.vote_kind, self.votes, self.vote_began = "resume", set(), self.game_time()
        self.changed()

    def vote_countdown(self) -> int | None:
        game = self.game
        if game is None or not self.vote_kind:
            return None
        return self._left(self.vote_began, int(game.options["pause_vote_seconds"]))

    def _vote(self, player: str) -> None:
        game = self.game
        assert game is not None
        self.votes.add(player)
        alive = {p.name for p in game.players if not p.bankrupt}
        if alive <= self.votes:
            kind = self.vote_kind
            self.vote_kind, self.votes = "", set()
            if kind == "resume":  # everyone is back: a short countdown, then the game goes on
                self.resume_at = self.game_time() + RESUME_COUNTDOWN
                return
            self.apply({"do": kind})
            self.turn_began = self.game_time()

    def resume_countdown(self) -> int | None:
        return None if self.resume_at < 0 else max(0, math.ceil(self.resume_at - self.game_time()))

    def casino_toggle(self, number: int) -> None:
        pick = self.casino_pick
        if number in pick:
            pick.remove(number)
        elif len(pick) < 3:
            pick.append(number)
            pick.sort()
        self.changed()

    def tick(self) -> None:
        """Called every second: a timed game ends when its time comes, with an alarm;
        an own-property auction with no first bid is cancelled when its minute is up;
        brands' turn and bid timers take their defaults; a pause vote runs out; a reader that stays silent
        after the start is said to be so."""
        if self.reader_silent() != self._reader_silent:
            self._reader_silent = not self._reader_silent
            self.changed()
        if self.player_qr[0] and time.monotonic() >= self.player_qr[1]:
            self.player_qr = ("", 0.0)  # the player's phone code has been shown long enough
            self.changed()
        left = self.auction_countdown()
        if left is not None:
            if left == 0:
                self.apply({"do": "close_auction"})
            self.changed()
            return
        game = self.game
        if game is not None and not game.ended and self.resume_at >= 0:
            if self.resume_countdown() == 0:
                self.resume_at = -1.0
                self.apply({"do": "resume"})
                self.turn_began = self.game_time()
            self.changed()
            return
        if game is not None and not game.ended:
            vote = self.vote_countdown()
            if vote == 0 or (self.vote_kind == "pause" and game.paused_at >= 0):
                self.vote_kind, self.votes = "", set()
                self.notify(msg("ui.pause.no_vote"), "error", "error")
            bid = self.bid_countdown()
            if bid == 0 and game.auction is not None:
                self.apply({"do": "pass", "player": game.players[game.auction.next_bidder].name})
            turn = self.turn_countdown()
            timed_out = game.turn_skipped and game.auction is None and not game.debtors  # finish a timed-out turn
            if (turn == 0 or timed_out) and self.pending is None and game.paused_at < 0:
                self.time_out()
            if vote is not None or bid is not None or turn is not None or self.debt_countdown() is not None:
                self.changed()
        end = self.end_time()
        game = self.game
        if end is None or game is None or game.ended or self.clock() < end:
            return
        if not self.alarm_sounded:
            self.alarm_sounded = True
            self.notify(msg("ui.time_up"), "info", "alarm")
        self.apply({"do": "end_game"})
        self.changed()


def _secure_roll(count: int) -> tuple[int, ...]:
    from hardware.dice import roll_dice

    return roll_dice(count)


def _system_power_off() -> None:
    """Shut the Pi down cleanly (the journal is already safe on disk)."""
    command = shutil.which("systemctl")
    if command is not None:
        subprocess.run([command, "poweroff"], check=False)


__all__ = ["Controller", "Draft", "DraftPlayer", "HardwareCheck", "Notice", "Pending", "PLAYER_COLOURS"]
