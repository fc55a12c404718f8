"""What the end-to-end scripts share: the real app offscreen with a card reader on a pseudo-terminal and
gpiozero's mock dice button, found by what the family sees (a button's text, or the `role` a screen gives
buttons that share a label) and touched the way a finger touches (kivy.tests.common.UnitTestTouch).

Importing this module sets Kivy up (offscreen 800x480 or the E2E_SIZE a script sets first, the interrupt clock `banker app` runs with, no
log file), so it comes before any other Kivy import. The scripts run a list of steps, one per frame: a
step is a name and a function that returns True when it is done (a touch made, a text on screen, a
state reached); a step that is not done within its time fails the run. Nothing sleeps.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

os.environ["KIVY_NO_ARGS"] = "1"
os.environ["KIVY_NO_FILELOG"] = "1"
if not os.environ.get("E2E_DEBUG"):
    os.environ["KIVY_NO_CONSOLELOG"] = "1"
os.environ["KIVY_HOME"] = tempfile.mkdtemp(prefix="e2e-kivy-")
os.environ["GPIOZERO_PIN_FACTORY"] = "mock"

from kivy.config import Config

_width, _height = os.environ.get("E2E_SIZE", "800x480").split("x")  # a script may ask for another panel
Config.set("graphics", "width", _width)
Config.set("graphics", "height", _height)
Config.set("kivy", "kivy_clock", "interrupt")  # as `banker app` runs
Config.set("graphics", "multisamples", "0")  # as `banker app` runs

from gpiozero import Device  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402
from kivy.uix.button import Button  # noqa: E402
from kivy.uix.label import Label  # noqa: E402
from kivy.uix.scrollview import ScrollView  # noqa: E402

from hardware.emulate import LineReaderEmulator  # noqa: E402

Step = tuple[str, Callable[[], bool]]

RETAP_GAP = 0.3  # seconds between two taps of the same card (the reader's retap window is 0.2 s)


def widgets(app: Any) -> Iterator[Any]:
    """Every widget of the screen showing now."""
    stack = [app.manager.current_screen]
    while stack:
        w = stack.pop()
        yield w
        stack.extend(w.children)


def texts(app: Any) -> str:
    """Every text on the screen that is not a button's label, a line each."""
    return "\n".join(w.text for w in widgets(app) if isinstance(w, Label) and not isinstance(w, Button))


def labels(app: Any) -> list[str]:
    """The buttons' labels on the screen."""
    return [w.text for w in widgets(app) if isinstance(w, Button)]


def button(app: Any, text: str) -> Button | None:
    return next((w for w in widgets(app) if isinstance(w, Button) and w.text == text), None)


def by_role(app: Any, role: str) -> Any:
    return next((w for w in widgets(app) if getattr(w, "role", None) == role), None)


def press(widget: Any) -> bool:
    """Touch a widget the way a finger does; first scroll it into view (False: try next frame)."""
    parent = widget.parent
    while parent is not None and not isinstance(parent, ScrollView):
        parent = parent.parent if parent.parent is not parent else None  # the window is its own parent
    if parent is not None:
        x, y = widget.to_window(*widget.center)
        left, bottom = parent.to_window(parent.x, parent.y)
        if not (left <= x <= left + parent.width and bottom <= y <= bottom + parent.height):
            parent.scroll_to(widget, animate=False)
            return False
    if getattr(widget, "disabled", False):
        return False
    t = UnitTestTouch(*widget.to_window(*widget.center))
    t.touch_down()
    t.touch_up()
    return True


def touch(app: Any, text: str) -> bool:
    """Touch the button that reads `text` (False while there is none)."""
    b = button(app, text)
    return b is not None and press(b)


def touch_role(app: Any, role: str) -> bool:
    """Touch the button the screen marked with this role (for buttons that share a label)."""
    found = by_role(app, role)
    return found is not None and press(found)


def seen(app: Any, *words: str) -> Callable[[], bool]:
    """Every one of `words` is in a text on the screen."""
    return lambda: all(w in texts(app) for w in words)


def enter(app: Any, a: int, b: int) -> list[Step]:
    """Enter real dice through the dice screen's buttons."""
    return [(f"enter {a}+{b}", lambda: touch(app, "Enter real dice")),
            (f"die {a}", lambda: touch_role(app, f"die0-{a}")),
            (f"die {b}", lambda: touch_role(app, f"die1-{b}")),
            ("move by them", lambda: touch(app, "Move by these dice"))]


def enter_words(app: Any, a: int, b: int) -> list[Step]:
    """`enter` in the family's language of the moment: the buttons' words are the app's own (its translator
    looked up when the step runs: a language picked on the settings screen is a new one)."""
    return [(f"enter {a}+{b}", lambda: touch(app, app.session.tr("ui.btn.enter_dice"))),
            (f"die {a}", lambda: touch_role(app, f"die0-{a}")),
            (f"die {b}", lambda: touch_role(app, f"die1-{b}")),
            ("move by them", lambda: touch_role(app, "dice done"))]


def press_button() -> bool:
    """Press and release the dice button on gpiozero's mock pin 17, as a finger does."""
    pin = Device.pin_factory.pin(17)
    pin.drive_low()
    pin.drive_high()
    return True


class Cards:
    """The family's cards on the pseudo-terminal reader: a tap waits (a frame at a time) until the same card
    was last tapped longer ago than the reader's retap window, as a hand takes a moment to come back."""

    def __init__(self, reader: LineReaderEmulator) -> None:
        self.reader = reader
        self.last: dict[str, float] = {}

    def tap(self, uid: str) -> Callable[[], bool]:
        def run() -> bool:
            now = time.monotonic()
            if now - self.last.get(uid, -RETAP_GAP) < RETAP_GAP:
                return False
            self.reader.tap(uid)
            self.last[uid] = now
            return True
        return run


class Script:
    """Steps run one per frame until each says it is done; a step has `timeout` seconds."""

    def __init__(self, app: Any, steps: list[Step], timeout: float = 8) -> None:
        self.app = app
        self.steps = steps
        self.timeout = timeout
        self.k = 0
        self.started = time.monotonic()
        self.failed: str | None = None
        self.settle = 0

    def tick(self, dt: float) -> None:
        if self.settle:  # let the screen rebuild and lay out before the next touch
            self.settle -= 1
            return
        if self.k >= len(self.steps):
            self.app.stop()
            return
        name, step = self.steps[self.k]
        try:
            done = step()
        except Exception as exc:
            self.failed = f"step {self.k + 1} {name}: {exc!r}\n{self.where()}"
            self.app.stop()
            return
        if done:
            self.k += 1
            self.settle = 3
            self.started = time.monotonic()
        elif time.monotonic() - self.started > self.timeout:
            self.failed = f"step {self.k + 1} {name}: timed out\n{self.where()}"
            self.app.stop()

    def where(self) -> str:
        app = self.app
        notices = [n["text"] for n in app.session.notice_lines(3)]
        return (f"screen: {app.manager.current}\n{texts(app)}\nbuttons: {labels(app)}\n"
                f"entered dice: {app.flows.turn.entered_dice}; notices: {notices}")


def decode_qr(app: Any, role: str, work: Path) -> str | None:
    """Read the QR code the screen shows under `role` back from the window's pixels, as a phone would (zxing-cpp);
    None while the screen shows none. The screenshot is written into `work`."""
    import numpy
    import zxingcpp
    from kivy.core.image import Image as CoreImage
    from kivy.core.window import Window

    if by_role(app, role) is None:
        return None
    shot = Window.screenshot(name=str(work / "qr.png"))
    if not shot:
        return None
    texture = CoreImage(shot).texture
    pixels = numpy.frombuffer(texture.pixels, dtype=numpy.uint8).reshape(texture.height, texture.width, 4)
    results = zxingcpp.read_barcodes(numpy.ascontiguousarray(pixels[:, :, :3]))
    return str(results[0].text) if results else None


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def run_app(work: Path, make_steps: Callable[[Any, LineReaderEmulator], list[Step]], *, phones: bool = False,
            timeout: float = 8) -> tuple[int, Script | None]:
    """The real app on a journal in `work`, a card reader on a pseudo-terminal and the dice button on pin 17,
    playing `make_steps(app, reader)`; (0, script) when every step passed, else (1, script)."""
    from ui.app import BankerApp

    config = work / "config.toml"
    link = work / "reader"
    web = f'[web]\nlisten = ["127.0.0.1"]\nport = {free_port()}\n' if phones else "[web]\nenabled = false\n"
    config.write_text(f'[reader]\nurl = "{link}"\nprotocol = "line"\nretap_window = 0.2\n'
                      '[dice]\npin = 17\ndebounce = 0\n' + web, "utf-8")
    reader = LineReaderEmulator(link=link)
    app = BankerApp(work / "games.sqlite3", config_path=str(config), settings_file=work / "settings.json")
    try:
        return play(app, lambda: make_steps(app, reader), timeout)
    finally:
        reader.close()


def play(app: Any, make_steps: Callable[[], list[Step]], timeout: float = 8,
         interval: float = 1 / 30) -> tuple[int, Script | None]:
    """Run `app` with the steps `make_steps()` gives once it has started, a look every `interval` seconds (0: every
    frame); (0, script) when every step passed, else (1, script) after printing what failed."""
    holder: dict[str, Script] = {}

    def begin(dt: float) -> None:
        script = Script(app, make_steps(), timeout)
        holder["script"] = script
        Clock.schedule_interval(script.tick, interval)

    Clock.schedule_once(begin, 0.5)
    app.run()
    script = holder.get("script")
    if script is None or script.failed or script.k < len(script.steps):
        print("FAILED:", script.failed if script else "never started")
        return 1, script
    return 0, script


def passed(failed: int, script: Script | None) -> int:
    """An app script's exit status from `play`'s answer: 0 and "N steps passed" printed when every step passed."""
    if failed or script is None:
        return 1
    print(f"{len(script.steps)} steps passed")
    return 0


def play_touch_only(work: Path, language: str, make_steps: Callable[[Any], list[Step]]) -> int:
    """The real app on the journal in `work`, no hardware, voice or motion, cards off (buttons for paying), in
    `language`, playing `make_steps(app)`: 0 and "N steps passed" printed when every step passed, else 1."""
    from ui.app import BankerApp
    from ui.settings import Settings

    Settings(taps=False, language=language).save(work / "settings.json")
    app = BankerApp(work / "games.sqlite3", hardware=False, phones=False, settings_file=work / "settings.json", voice=False,
                    motion=False)
    return passed(*play(app, lambda: make_steps(app)))
