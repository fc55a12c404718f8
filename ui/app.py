"""The Kivy app: one ScreenManager, screens from a registry, hardware on the side.

The App only wires Kivy to the session (ui/session.py: the journaled game, the notices) and the flows
(ui/flows/: what the family does, and which page shows): the screen manager, the redraw trigger, the
clock timers, garbage collection, the hardware, the sounds and the phone server. None of those knows
about Kivy.

Threads: the card reader and the dice button call back from their own
threads; `on_main_thread` hands every such call to Kivy's Clock, so the
flows and the widgets are only ever touched on the main thread. The
session's changes are folded by one `Clock.create_trigger` into one
redraw per frame.
"""

from __future__ import annotations

import functools
import gc
import logging
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.base import ExceptionHandler, ExceptionManager
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics.opengl import glFlush
from kivy.uix.screenmanager import NoTransition, ScreenManager

from banker.journal import Journal
from ui import theme
from ui.drafts import DraftFile, draft_path
from ui.flows import Flows
from ui.i18n import msg
from ui.screens import BaseScreen, screens
from ui.session import Session
from ui.settings import Settings, settings_path
from ui.tags import TagStore, tags_path
from ui.widgets import create_trigger, schedule_once

if TYPE_CHECKING:
    from hardware.config import WebConfig
    from hardware.dice import DiceButton
    from hardware.reader import CardReader
    from ui.motion import MotionLayer
    from ui.voice import Voice
    from ui.web import PhoneServer

log = logging.getLogger(__name__)
IDLE = 0.25  # seconds after a redraw with nothing happening: time for idle work (loading the next sound)
BUSY_MOST = 10.0  # collect anyway after this long without a collection (the phone server's garbage)
AGAIN = 1.0  # seconds: an error this soon after the last one is logged, not shown (showing it redraws)
PUBLISH_LATEST = 0.2  # seconds: the phones get a change by then even if no frame comes
WARM = 2.0  # seconds after the first frame: what the start made (fonts, catalogues, the server) is kept for good


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

    def __init__(self, app: BankerApp) -> None:
        self.app = app
        self.last = -1.0

    def handle_exception(self, exc: BaseException) -> int:
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            return int(ExceptionManager.RAISE)
        log.exception("unexpected error in the app", exc_info=exc)
        try:
            self.app.session.settle()  # a commit in flight is on disk before any frame that may show its action
        except Exception:
            log.exception("could not wait for the last commit")
        now, before = time.monotonic(), self.last
        self.last = now
        if now - before < AGAIN:
            return int(ExceptionManager.PASS)  # failing again at once (a screen that cannot draw): no redraw loop
        try:
            self.app.session.notify(msg("ui.oops"), "error", "error")
            self.app.session.changed()
        except Exception:
            log.exception("could not report the error")
        return int(ExceptionManager.PASS)


class BankerApp(App):
    title = "Board Banker"

    def __init__(self, journal_path: Path, config_path: str | None = None, hardware: bool = True,
                 settings_file: Path | None = None, voice: bool = True, motion: bool = True,
                 phones: bool = True, pi: bool | None = None, **kw: Any) -> None:
        """`hardware`: False for --no-hardware (no reader, no dice button; the phone server stays as the config
        says). `phones`: False for no phone server and no config read at all unless `hardware` (the tour, which
        starts its own, and the tests that need none). `pi`: whether this is a Raspberry Pi (None: look,
        ui/where.py's `is_pi`), for what the app says about its hardware."""
        super().__init__(**kw)
        self.journal_path = journal_path
        self.config_path = config_path
        self.use_hardware = hardware
        self.use_phones = phones
        self.pi = pi
        self.settings_file = settings_file or settings_path()
        settings, self.settings_problems = Settings.load(self.settings_file)
        self.journal = Journal(journal_path)
        self.session = Session(self.journal, settings, save_settings=lambda s: s.save(self.settings_file),
                               play_sound=self.play_sound)
        self.flows = Flows(self.session)  # what the family does, and which page shows (flows.nav)
        self.flows.setup.keep_in(DraftFile(draft_path(self.settings_file)))  # a new game's draft, beside the settings
        self.session.tags = TagStore(tags_path(self.settings_file))  # the tagged deeds and cards, beside them too
        self.session.defer_commits = True  # each action's commit beside the redraw; the frame waits for it
        self.voice: Voice | None = None
        self.motion: MotionLayer | None = None  # the money in motion (ui/motion.py), over the window once started
        self.use_motion = motion
        if voice:  # (the tour photographs in silence)
            from ui.voice import EspeakSpeaker, Voice, kivy_player

            speaker = EspeakSpeaker(kivy_player, lambda fn: Clock.schedule_once(lambda dt: fn(), 0))
            self.voice = Voice(self.session, speaker)
            self.session.moment_listeners.append(self.voice.tell)
            self.flows.settings.voice_status = self.voice.status
        self.reader: CardReader | None = None
        self.web: PhoneServer | None = None
        self.dice_button: DiceButton | None = None
        self._sounds: dict[str, Any] = {}
        self._sounds_to_load: list[str] = []  # loaded one at a time at idle moments (sounds.py makes the files)
        self._sounds_prepared = False
        self.flip_callbacks: list[Callable[[], None]] = []
        self._redraw = create_trigger(self.redraw, 0)
        self._collect_after_frame = create_trigger(self._collect_garbage, 0)
        self.last_redraw = self.last_collect = time.monotonic()
        self.garbage = False  # a redraw has left the old widgets to collect
        self.collect_at_frames = True  # a full collection after each redraw's frame (the tour turns it off)
        self.warm = False  # the start's objects frozen out of the collections

    # ------------------------------------------------------------------ building

    def build(self) -> ScreenManager:
        Window.clearcolor = theme.BG
        ExceptionManager.add_handler(KeepRunning(self))
        self.manager = ScreenManager(transition=NoTransition())
        for name, cls in screens().items():
            self.manager.add_widget(cls(self.flows, name=name))
        self.session.listeners.append(self._redraw)
        for problem in self.settings_problems:
            self.session.notify(problem, "error")
        self.flows.home.resume()
        Window.bind(on_flip=self._flipped)
        # systemd stops the service with SIGTERM: close the reader, the button and the journal cleanly.
        signal.signal(signal.SIGTERM, lambda *_: Clock.schedule_once(lambda dt: self.stop(), 0))
        Clock.schedule_interval(lambda dt: self.flows.tick(), 1.0)
        # Rebuilding screens leaves cyclic garbage (Kivy's widgets are full of cycles). Left to itself,
        # Python collects whenever allocations add up, in the middle of a tap; collected only at idle
        # moments it piles up, and freeing a pile of dead widgets took 50-290 ms. So: no automatic
        # collection; one right after each frame that follows a redraw (the new screen is already shown,
        # and only the widgets it replaced are garbage: a few ms), never while a redraw is waiting, and
        # the objects the start made frozen out of the collections once the app is warm.
        gc.freeze()
        gc.disable()
        Clock.schedule_interval(self._idle_work, 0.1)
        self.started = time.monotonic()
        if self.use_hardware or self.use_phones:
            self.start_hardware()
        if self.session.settings.sounds:
            self.flip_callbacks.append(self.prepare_sounds)  # after the first frame too
        # The hall of fame's summaries (an older journal's filled in first), read beside the app: never a stall.
        from ui.flows.report import ReportFlow

        report = self.flows.of("ui.flows.report:ReportFlow")
        assert isinstance(report, ReportFlow)
        self.flip_callbacks.append(lambda: self.session.history.start(on_main_thread(report.history_in)))
        self.redraw()
        return self.manager

    def on_start(self) -> None:
        if self.use_motion:  # (the tour photographs screens at rest)
            from ui.motion import MotionLayer

            def sound(name: str) -> None:
                if self.session.settings.sounds:
                    self.play_sound(name)
            motion = self.motion = MotionLayer(self.session, lambda: self.manager.current_screen, play_sound=sound)
            Window.add_widget(motion)  # above the screens (the root is in the window by now), taking no touch
            self.session.moment_listeners.append(motion.tell)
            self.manager.bind(current=lambda *_: motion.screen_shown())  # houses built off the board pop on it

    def _collect_garbage(self, dt: float = 0) -> None:
        """A full collection, unless a redraw is waiting (a tap has come in): then after its frame."""
        if self._redraw.is_triggered or not self.collect_at_frames:
            return
        gc.collect()
        self.garbage = False
        self.last_collect = time.monotonic()

    def _idle_work(self, dt: float) -> None:
        """Every 0.1 s: at a quiet moment, freeze the start's objects (once), then load one sound; collect
        anyway once in a while (the phone server's thread makes garbage too, and nothing else collects it)."""
        now = time.monotonic()
        if self._redraw.is_triggered:
            return
        if now - self.last_collect > BUSY_MOST:
            self._collect_garbage()
        if now - self.last_redraw < IDLE:
            return
        if not self.warm and now - self.started > WARM:
            self.warm = True
            gc.collect()
            gc.freeze()  # fonts, catalogues, the ruleset, the server: alive for good, never traversed again
            self.last_collect = now
        elif self._sounds_to_load:
            self._load_sound(self._sounds_to_load.pop(0))

    def _flipped(self, *_: Any) -> None:
        # Have the frame drawn now, beside the main thread: software rendering (Mesa's llvmpipe, offscreen)
        # only draws when flushed, and with nothing to flush its frames they piled up (up to 70 MB) and
        # were drawn by whatever next had to wait for the GPU. A display's swap flushes by itself.
        glFlush()
        callbacks, self.flip_callbacks = self.flip_callbacks, []
        for callback in callbacks:
            callback()
        if self.garbage:
            self._collect_after_frame()  # at the next turn of the loop, once this frame is out

    def redraw(self, *_: Any) -> None:
        name = self.flows.nav.screen_name()
        screen = self.manager.get_screen(name)
        assert isinstance(screen, BaseScreen)
        screen.refresh()
        Window.canvas.ask_update()  # a frame even when no part changed: the tour and the idle work wait for it
        self.last_redraw = time.monotonic()
        self.garbage = True
        if self.manager.current != name:
            self.manager.current = name
        # The action's commit ran beside the redraw (Session.defer_commits): the frame waits for it, so nothing
        # reaches the screen before the journal has it. Should it have failed, the game is as the journal has
        # it again, and is drawn so before any frame.
        if not self.session.settle():
            self.redraw()

    def _publish_soon(self, publish: Callable[[], None]) -> None:
        """The phones' state is made after the frame that shows the change (a tap's screen comes first: the
        state took 1-8 ms), or PUBLISH_LATEST later if no frame comes."""
        latest = schedule_once(lambda dt: publish(), PUBLISH_LATEST)

        def after_frame() -> None:
            latest.cancel()
            Clock.schedule_once(lambda dt: publish(), 0)
        self.flip_callbacks.append(after_frame)

    def start_web(self, web: WebConfig) -> None:
        """The phone page's server ([web] in the config), started with the app and stopped with it."""
        if not web.enabled:
            self.flows.phones.off_because("disabled", web.port)
            return
        from ui.web import PhoneServer

        hosts = [lan_address() if h == "lan" else h for h in web.listen]
        moved = on_main_thread(self.flows.phones.game_moved)
        server = PhoneServer(hosts, web.port, on_moved=moved)
        try:
            server.start()
        except OSError as exc:  # the port taken, an address not on this machine: said in our words, logged in its
            from ui.where import phones_problem

            log.warning("the phone server cannot start on %s port %s: %s", hosts, web.port, exc)
            self.flows.phones.off_because(phones_problem(exc), web.port)
            self.session.notify(self.flows.phones.off_text(), "error")
            return
        from ui.phone import phone_state

        self.web = server
        host = hosts[0]
        base = f"http://[{host}]:{server.port}" if ":" in host else f"http://{host}:{server.port}"
        phones = self.flows.phones
        phones.connect(server, base, phone_state)
        phones.publish_soon = self._publish_soon
        phones.publish_finished()
        self.session.changed()

    # ------------------------------------------------------------------ hardware and sound

    def start_hardware(self) -> None:
        """Read the hardware config and start what it sets up: the phone server (unless the app was made without
        it: the tour and most tests), and, unless --no-hardware, the card reader and the dice button; carry on
        without any of them. Where the app runs (ui/where.py) is settled here, for everything it says about
        them; a library's own error text goes to the log, and the flows get its kind."""
        from hardware.config import SYSTEM_CONFIG, find_config, load_config
        from hardware.events import ConfigError, HardwareError
        from ui.where import Where, dice_problem, is_pi

        pi = is_pi() if self.pi is None else self.pi
        settings, phones = self.flows.settings, self.flows.phones
        try:
            config = load_config(self.config_path)
        except ConfigError as exc:
            log.warning("hardware config: %s", exc)
            self.session.notify(str(exc), "error")  # the file's own lines: which line, which key (hardware/config.py)
            try:
                source = str(find_config(self.config_path) or SYSTEM_CONFIG)
            except (OSError, ValueError, RuntimeError):
                source = str(self.config_path or SYSTEM_CONFIG)
            settings.place(Where(pi=pi, hardware=self.use_hardware, config=source, config_problem=True))
            settings.hardware_config(source, problem=str(exc))  # the checks say what is wrong
            phones.off_because("config_problem")
            return
        settings.place(Where(pi=pi, hardware=self.use_hardware, config=config.source or ""))
        # What the checks and the start screen's note name: the file ("" when there is none), the reader's kind
        # and port as the file gives them, the dice button's pin.
        from hardware import kinds

        kind = kinds.kind(config.reader.protocol)  # the config allows only the table's names
        settings.hardware_config(config.source or "", reader_kind=config.reader.protocol,
                                 reader_port=config.reader.url, reader_used=kind.used(config.reader.url),
                                 dice_pin=str(config.dice.pin) if config.dice.enabled else "")
        if not config.web.enabled:
            phones.off_because("disabled", config.web.port)
        elif self.use_phones:
            # The phone server (aiohttp: a tenth of a second to import and start) comes up once the first frame
            # is out, so that the table shows as soon as it can. It is not hardware: --no-hardware leaves it on.
            self.flip_callbacks.append(lambda: Clock.schedule_once(lambda dt: self.start_web(config.web), 0))
        if not self.use_hardware:
            return
        if kind.used(config.reader.url):
            from hardware.reader import CardReader

            tapped = on_main_thread(lambda event: self.flows.taps.card_tapped(event.uid))
            status = on_main_thread(lambda event: settings.reader_status(event.connected, event.detail,
                                                                         event.problem))
            try:
                protocol = kind.make(config.reader.baudrate, config.reader)
            except HardwareError as exc:  # its library is not installed: the check says how to get it
                log.warning("card reader: %s", exc)
                settings.reader_status(False, problem="library")
            else:
                self.reader = CardReader(config.reader.url, protocol, tapped, status,
                                         retap_window=config.reader.retap_window).start()
        if config.dice.enabled:
            pressed = on_main_thread(lambda event: self.flows.turn.dice_pressed(event.dice))
            try:
                from hardware.dice import DiceButton  # (gpiozero: missing on some computers)

                self.dice_button = DiceButton.from_config(config.dice, on_roll=pressed)
                settings.button_status(True)
            except Exception as exc:  # no GPIO on a computer: the on-screen button stands in
                log.info("no dice button: %s", exc)
                settings.button_status(False, dice_problem(exc))

    def prepare_sounds(self) -> None:
        """Have every sound ready before it is first played: the WAV files made by a thread (pure Python, a
        fraction of a second the very first time), then loaded one by one at idle moments (`_idle_work`)."""
        import threading

        from ui.sounds import TONES, cache_dir, make_all

        if self._sounds_prepared:
            return
        self._sounds_prepared = True
        folder = cache_dir()

        def made() -> None:
            try:
                make_all(folder)
            except OSError as exc:  # a read-only home: each sound is tried again when played
                log.debug("no sounds made: %s", exc)
                return
            self._sounds_to_load = [n for n in TONES if n not in self._sounds]

        threading.Thread(target=made, name="sounds", daemon=True).start()

    def _load_sound(self, name: str) -> Any:
        try:
            from kivy.core.audio import SoundLoader

            from ui.sounds import cache_dir, make

            if name not in self._sounds:
                self._sounds[name] = SoundLoader.load(str(make(name, cache_dir())))
        except Exception as exc:  # no audio device: stay quiet
            log.debug("no sound: %s", exc)
            self._sounds[name] = None
        return self._sounds[name]

    def play_sound(self, name: str) -> None:
        from ui.sounds import TONES

        if name not in TONES:
            return
        if name not in self._sounds:
            self.prepare_sounds()  # switched on in the settings: load the others at idle moments
        sound = self._load_sound(name)  # loaded already unless played before its idle moment came
        if sound is None:
            return
        try:
            sound.play()
        except Exception as exc:  # no audio device: stay quiet
            log.debug("no sound: %s", exc)

    def on_stop(self) -> None:
        self.session.settle()  # the last action's commit, before the journal closes
        self.session.history.stop()
        gc.enable()
        if self.web is not None:
            self.web.stop()
        if self.reader is not None:
            self.reader.close()
        if self.dice_button is not None:
            self.dice_button.close()
        self.journal.close()
