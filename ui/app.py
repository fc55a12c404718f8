"""The Kivy app: one ScreenManager, screens from a registry, hardware on the side.

Threads: the card reader and the dice button call back from their own
threads; `on_main_thread` hands every such call to Kivy's Clock, so the
controller and the widgets are only ever touched on the main thread. The
controller's changes are folded by one `Clock.create_trigger` into one
redraw per frame.
"""

from __future__ import annotations

import functools
import gc
import logging
import signal
import time
from pathlib import Path
from typing import Any, Callable

from kivy.app import App
from kivy.base import ExceptionHandler, ExceptionManager
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.screenmanager import NoTransition, ScreenManager

from banker.journal import Journal
from ui.controller import Controller
from ui.screens import SCREENS, BaseScreen
from ui.settings import Settings, settings_path
from ui.widgets import BG

log = logging.getLogger(__name__)
IDLE = 0.25  # seconds after a redraw with nothing happening: time to collect garbage
BUSY_MOST = 10.0  # collect anyway after this long without an idle moment


def on_main_thread(fn: Callable[..., Any]) -> Callable[..., None]:
    """Run `fn` on Kivy's main thread at the next frame, whatever thread calls it."""
    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> None:
        Clock.schedule_once(lambda dt: fn(*args, **kwargs), 0)
    return call


def lan_address() -> str:
    """This machine's address on the local network (the one a route to a private address would use);
    127.0.0.1 when there is no network. A UDP socket "connects" without sending anything."""
    import socket

    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


class KeepRunning(ExceptionHandler):
    """A bug in a button or a callback must not close the bank: log it, say so, carry on.

    Every committed action is already in the journal, so the game is intact;
    the family sees one line and can go on (or undo).
    """

    def __init__(self, app: "BankerApp") -> None:
        self.app = app

    def handle_exception(self, exc: BaseException) -> int:
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            return ExceptionManager.RAISE
        log.exception("unexpected error in the app", exc_info=exc)
        try:
            self.app.controller.notify(self.app.controller.tr("ui.oops"), "error", "error")
            self.app.controller.changed()
        except Exception:
            log.exception("could not report the error")
        return ExceptionManager.PASS


class BankerApp(App):
    title = "Board Banker"

    def __init__(self, journal_path: Path, config_path: str | None = None, hardware: bool = True,
                 settings_file: Path | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.journal_path = journal_path
        self.config_path = config_path
        self.use_hardware = hardware
        self.settings_file = settings_file or settings_path()
        settings, self.settings_problems = Settings.load(self.settings_file)
        self.journal = Journal(journal_path)
        self.controller = Controller(self.journal, settings, save_settings=lambda s: s.save(self.settings_file),
                                     play_sound=self.play_sound)
        self.page = "table"  # the page the family chose while a game runs
        self.deeds_of: str | None = None
        self.trade: dict[str, Any] = {}
        self.own_auction: dict[str, Any] | None = None  # {"player", "space", "reserve"} while choosing
        self.move_url: str | None = None  # a "continue on another device" link being shown
        self.unlocked = False
        self.entered_dice: list[int] = []
        self.settings_return = "home"
        self.reader: Any = None
        self.web: Any = None
        self.dice_button: Any = None
        self._sounds: dict[str, Any] = {}
        self.flip_callbacks: list[Callable[[], None]] = []
        self._redraw = Clock.create_trigger(self.redraw, 0)
        self.last_redraw = self.last_collect = time.monotonic()

    # ------------------------------------------------------------------ building

    def build(self) -> ScreenManager:
        Window.clearcolor = BG
        ExceptionManager.add_handler(KeepRunning(self))
        self.manager = ScreenManager(transition=NoTransition())
        for name, cls in SCREENS.items():
            self.manager.add_widget(cls(self, name=name))
        self.controller.listeners.append(self._redraw)
        for problem in self.settings_problems:
            self.controller.notify(problem, "error")
        self.controller.resume()
        Window.bind(on_key_down=self.on_key, on_flip=self._flipped)
        # systemd stops the service with SIGTERM: close the reader, the button and the journal cleanly.
        signal.signal(signal.SIGTERM, lambda *_: Clock.schedule_once(lambda dt: self.stop(), 0))
        Clock.schedule_interval(lambda dt: self.controller.tick(), 1.0)
        # Rebuilding screens leaves cyclic garbage; a full collection in the middle of a tap
        # costs 50-150 ms on software rendering. Collect while the table is idle instead.
        gc.freeze()
        gc.disable()
        Clock.schedule_interval(self._collect_when_idle, 0.1)
        if self.use_hardware:
            self.start_hardware()
        self.redraw()
        return self.manager

    def _collect_when_idle(self, dt: float) -> None:
        now = time.monotonic()
        if now - self.last_collect < 0.5:
            return
        if now - self.last_redraw > IDLE or now - self.last_collect > BUSY_MOST:
            gc.collect()
            self.last_collect = now

    def _flipped(self, *_: Any) -> None:
        callbacks, self.flip_callbacks = self.flip_callbacks, []
        for callback in callbacks:
            callback()

    def screen_name(self) -> str:
        c = self.controller
        mode = c.mode
        if mode == "home":
            return "settings" if self.page == "settings" else "home"
        if mode == "setup":
            return self.page if self.page in ("inprogress", "settings") else "setup"
        if mode == "over":
            return "over"
        game = c.game
        assert game is not None
        if game.auction is not None and self.page not in ("deeds", "banker", "settings"):
            if self.page == "ownauction":
                self.page = "table"  # the auction has started: after it, back to the table
            return "auction"
        plan = self.own_auction
        if self.page == "ownauction" and (plan is None or plan["seq"] != game.seq):
            self.page = "table"  # the auction came and went, or something else happened meanwhile
            self.own_auction = None
        if self.page == "cards" and (game.decision is None or game.decision[0] != "draw"):
            self.page = "table"
        for page, kind in (("casino", "casino"), ("jump", "jump")):  # brands' choices, once made
            if self.page == page and (game.decision is None or game.decision[0] != kind):
                self.page = "table"
        if self.page in ("home", "setup", "inprogress", "over"):
            self.page = "table"  # pages of another mode: the game has started (or was resumed)
        return self.page if self.page in SCREENS else "table"

    def redraw(self, *_: Any) -> None:
        name = self.screen_name()
        screen = self.manager.get_screen(name)
        assert isinstance(screen, BaseScreen)
        screen.refresh()
        self.last_redraw = time.monotonic()
        if self.manager.current != name:
            self.manager.current = name

    def go(self, page: str) -> None:
        if page == "settings":
            self.settings_return = self.page
        if page != "banker":
            self.unlocked = self.unlocked and page in ("settings", "replace")
        if page != "replace":
            self.controller.replacing = None  # leaving the screen drops a half-done card replacement
        self.page = page
        self._redraw()

    def back_from_settings(self) -> None:
        self.go(self.settings_return if self.controller.mode == "table" else "table")

    def show_deeds(self, player: str) -> None:
        self.deeds_of = player
        self.go("deeds")

    def show_move(self) -> None:
        self.move_url = self.controller.move_link()
        self._redraw()

    def hide_move(self) -> None:
        self.move_url = None
        self._redraw()

    def start_web(self, web: Any) -> None:
        """The phone page's server ([web] in the config), started with the app and stopped with it."""
        if not web.enabled:
            return
        from ui.web import PhoneServer

        hosts = [lan_address() if h == "lan" else h for h in web.listen]
        moved = on_main_thread(self.controller.game_moved)
        server = PhoneServer(hosts, web.port, on_moved=moved)
        try:
            server.start()
        except OSError as exc:
            self.controller.notify(self.controller.tr("ui.phones.cannot_start", problem=str(exc)), "error")
            return
        from ui.phone import phone_state

        self.web = server
        host = hosts[0]
        base = f"http://[{host}]:{server.port}" if ":" in host else f"http://{host}:{server.port}"
        self.controller.connect_phones(server, base, phone_state)
        self.controller.publish_finished()
        self.controller.changed()

    def start_trade(self, player: str) -> None:
        """The trade screen with `player` offering (a debtor raising money)."""
        game = self.controller.game
        if game is not None and self.trade.get("from") != player:
            others = [p.name for p in game.players if not p.bankrupt and p.name != player]
            self.trade = {"from": player, "to": others[0], "give": {"cash": 0, "spaces": [], "jail_cards": 0},
                          "get": {"cash": 0, "spaces": [], "jail_cards": 0}}
        self.go("trade")

    def start_own_auction(self, player: str, space: int) -> None:
        """biznes: choose the opening bid of an auction of the player's own property."""
        game = self.controller.game
        assert game is not None
        self.own_auction = {"player": player, "space": space, "seq": game.seq}
        self.go("ownauction")

    # ------------------------------------------------------------------ buttons

    def press(self, button: dict[str, Any]) -> None:
        c = self.controller
        if button["id"] == "roll":
            c.roll()
        elif button["id"] == "enter_dice":
            self.entered_dice = []
            self.go("dice")
        elif button["id"] == "draw" and c.settings.physical_decks:
            self.go("cards")
        elif "page" in button["action"]:
            self.go(button["action"]["page"])
        else:
            c.request(dict(button["action"]))

    def tap_as(self, player: str) -> None:
        """The on-screen stand-in for a player's card (a lost card, or no reader)."""
        uid = next((u for u, n in self.controller.meta.get("cards", {}).items() if n == player), None)
        if uid is None:
            self.controller.cancel_pending()
            return
        self.controller.card_tapped(uid)

    def unlock(self, pin: str) -> None:
        if self.controller.pin_ok(pin):
            self.unlocked = True
        else:
            self.controller.notify(self.controller.tr("ui.banker.wrong_pin"), "error", "error")
        self._redraw()

    def abandon(self) -> None:
        self.unlocked = False
        self.page = "table"
        self.controller.abandon()

    def undo_end(self) -> None:
        if self.controller.has_pin() and not self.unlocked:
            self.page = "table"
            self.controller.undo(1)
            return
        self.controller.undo(1)

    def pick_card(self, card_id: str) -> None:
        self.page = "table"
        self.controller.draw(card_id)

    def enter_die(self, k: int, value: int) -> None:
        while len(self.entered_dice) <= k:
            self.entered_dice.append(0)
        self.entered_dice[k] = value
        self._redraw()

    def dice_entered(self) -> None:
        game = self.controller.game
        if game is None or len(self.entered_dice) != game.dice_count() or 0 in self.entered_dice:
            return
        self.page = "table"
        self.controller.roll(tuple(self.entered_dice))

    def on_key(self, window: Any, key: int, scancode: int, codepoint: str | None, modifiers: list[str]) -> bool:
        """Keyboard shortcuts for a desktop: r roll, b buy, n no (decline), e end turn,
        d deeds, t trade, l log, 1-8 tap player N's card, Escape back to the table."""
        c = self.controller
        game = c.game
        if game is None or key is None:
            return False
        if key == 27:
            self.go("table")
            return True
        actions = {"r": c.roll, "b": lambda: c.request({"do": "buy"}), "n": lambda: c.request({"do": "decline"}),
                   "e": lambda: c.request({"do": "end_turn"}), "d": lambda: self.go("deeds"),
                   "t": lambda: self.go("trade"), "l": lambda: self.go("log")}
        if codepoint in actions:
            actions[codepoint]()
            return True
        if codepoint and codepoint.isdigit() and 1 <= int(codepoint) <= len(game.players):
            self.tap_as(game.players[int(codepoint) - 1].name)
            return True
        return False

    # ------------------------------------------------------------------ hardware and sound

    def start_hardware(self) -> None:
        """Open the card reader and the dice button from the hardware config; carry on without them."""
        from hardware.config import load_config
        from hardware.events import ConfigError, HardwareError

        try:
            config = load_config(self.config_path)
        except ConfigError as exc:
            self.controller.notify(str(exc), "error")
            return
        self.start_web(config.web)
        if config.reader.url:
            from hardware.cli import make_protocol
            from hardware.reader import CardReader

            tapped = on_main_thread(lambda event: self.controller.card_tapped(event.uid))
            status = on_main_thread(lambda event: self.controller.reader_status(event.connected))
            self.reader = CardReader(config.reader.url, make_protocol(config.reader.protocol, config.reader.baudrate),
                                     tapped, status, retap_window=config.reader.retap_window).start()
        if config.dice.enabled:
            from hardware.dice import DiceButton

            pressed = on_main_thread(lambda event: self.controller.dice_pressed(event.dice))
            try:
                self.dice_button = DiceButton.from_config(config.dice, on_roll=pressed)
                self.controller.button_status(True)
            except (HardwareError, Exception) as exc:  # no GPIO on a desktop: the on-screen button stands in
                log.info("no dice button: %s", exc)
                self.controller.button_status(False)

    def play_sound(self, name: str) -> None:
        try:
            from kivy.core.audio import SoundLoader

            from ui.sounds import TONES, cache_dir, make

            if name not in TONES:
                return
            if name not in self._sounds:
                self._sounds[name] = SoundLoader.load(str(make(name, cache_dir())))
            sound = self._sounds[name]
            if sound is not None:
                sound.play()
        except Exception as exc:  # no audio device: stay quiet
            log.debug("no sound: %s", exc)

    def on_stop(self) -> None:
        gc.enable()
        if self.web is not None:
            self.web.stop()
        if self.reader is not None:
            self.reader.close()
        if self.dice_button is not None:
            self.dice_button.close()
        self.journal.close()
