"""The on-screen keyboard in the real app, offscreen, by touches only (no key events, no text set):
from the Polish start screen to a new game, a ready name touched for player 1, "Łukasz" typed key by key
for player 2 (the first letter replaces the ready name), and every key of every language's keyboard at least a fingertip (theme.KEY) each way.

Run by test_keyboard_app.py in a subprocess (Kivy opens one window per process):

    python tests/ui/keyboard_app.py WORKDIR WIDTHxHEIGHT

Exits 0 when every check passed; otherwise prints the failing step.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterator

from ui.panel import panel_density, parse_size

WIDTH, HEIGHT = parse_size(sys.argv[2] if len(sys.argv) > 2 else "800x480")
os.environ["KIVY_NO_ARGS"] = "1"
os.environ["KIVY_NO_FILELOG"] = "1"
os.environ["KIVY_NO_CONSOLELOG"] = "1"
os.environ["KIVY_HOME"] = tempfile.mkdtemp(prefix="keyboard-kivy-")
os.environ["KIVY_METRICS_DENSITY"] = repr(panel_density(WIDTH, HEIGHT))

from kivy.config import Config  # noqa: E402

Config.set("graphics", "width", str(WIDTH))
Config.set("graphics", "height", str(HEIGHT))
Config.set("kivy", "kivy_clock", "interrupt")

from kivy.clock import Clock  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402
from kivy.uix.button import Button  # noqa: E402

from ui import theme  # noqa: E402
from ui.app import BankerApp  # noqa: E402
from ui.settings import Settings  # noqa: E402

Step = tuple[str, Callable[[], bool]]


def widgets(app: BankerApp) -> Iterator[Any]:
    stack = [app.manager.current_screen]
    while stack:
        w = stack.pop()
        yield w
        stack.extend(w.children)


def by_role(app: BankerApp, role: str) -> Any:
    return next((w for w in widgets(app) if getattr(w, "role", None) == role), None)


def press(widget: Any) -> bool:
    """Touch a widget where a finger would: its centre, in window coordinates."""
    t = UnitTestTouch(*widget.to_window(*widget.center))
    t.touch_down()
    t.touch_up()
    return True


def touch_role(app: BankerApp, role: str) -> bool:
    w = by_role(app, role)
    return w is not None and press(w)


def touch_text(app: BankerApp, text: str) -> bool:
    w = next((w for w in widgets(app) if isinstance(w, Button) and w.text == text), None)
    return w is not None and press(w)


def keys_big_enough(app: BankerApp) -> bool:
    """Every key and ready name at least theme.KEY tall and wide, and inside the window."""
    keys = [w for w in widgets(app) if str(getattr(w, "role", "")).startswith(("key ", "preset "))]
    assert len(keys) > 30, len(keys)
    small = [(w.role, round(w.width), round(w.height)) for w in keys
             if w.height < theme.KEY - 0.5 or w.width < theme.KEY - 0.5]
    assert not small, f"keys smaller than {theme.KEY} px: {small}"
    outside = [w.role for w in keys if w.to_window(w.x, w.y)[1] < 0 or w.to_window(w.right, w.top)[0] > WIDTH + 1]
    assert not outside, f"keys outside the window: {outside}"
    return True


def steps(app: BankerApp) -> list[Step]:
    c = app.controller

    def tr(key: str) -> str:
        return c.tr(key)  # in the language of the moment

    def names() -> list[str]:
        return [p.name for p in c.draft.players] if c.draft is not None else []

    def on(screen: str) -> Callable[[], bool]:
        return lambda: app.manager.current == screen

    def language(code: str) -> list[Step]:
        """The keyboard of another language, chosen in the settings from the start screen, by touches."""
        return [(f"{code}: cancel", lambda: touch_text(app, tr("ui.cancel"))),
                (f"{code}: the setup", on("setup")),
                (f"{code}: back to the start", lambda: touch_text(app, tr("ui.back"))),
                (f"{code}: settings", lambda: app.manager.current == "home" and touch_text(app, tr("ui.settings"))),
                (f"{code}: the language", lambda: touch_text(app, {"en": "English", "cs": "Čeština",
                                                                     "ru": "Русский"}[code])),
                (f"{code}: chosen", lambda: c.tr.language == code),
                (f"{code}: back", lambda: touch_text(app, tr("ui.back"))),
                (f"{code}: a new game", lambda: app.manager.current == "home" and touch_text(app, tr("ui.home.new"))),
                (f"{code}: the name", lambda: touch_role(app, "name 1")),
                (f"{code}: the keyboard", on("keyboard")),
                (f"{code}: keys big enough", lambda: keys_big_enough(app)),
                (f"{code}: its own letters", lambda: all(by_role(app, f"key {ch}") is not None
                                                         for ch in {"cs": "řůď", "ru": "йёъ", "en": "qwz"}[code])),
                (f"{code}: and not Polish ones", lambda: by_role(app, "key ł") is None)]

    typed = [(f"type {ch}", lambda ch=ch: touch_role(app, f"key {ch}")) for ch in "łukasz"]
    return [
        ("the start screen in Polish", lambda: touch_text(app, tr("ui.home.new"))),
        ("ready names, no typing", lambda: names() == ["Auto", "Statek"]),
        ("player 1's name", lambda: touch_role(app, "name 0")),
        ("the keyboard page", on("keyboard")),
        ("keys big enough (pl)", lambda: keys_big_enough(app)),
        ("a ready name, one touch", lambda: touch_role(app, "preset Pies")),
        ("player 1 is Pies", lambda: names()[0] == "Pies" and app.manager.current == "setup"),
        ("player 2's name", lambda: touch_role(app, "name 1")),
        ("the keyboard again", on("keyboard")),
        ("the ready name shown, to give way", lambda: by_role(app, "name typed").text == "Statek"),
        *typed,
        ("the name shown large", lambda: by_role(app, "name typed").text == "Łukasz|"),
        ("not yet the player's", lambda: names()[1] == "Statek"),
        ("done", lambda: touch_role(app, "done")),
        ("player 2 is Łukasz", lambda: names() == ["Pies", "Łukasz"]),
        ("the setup shows it", lambda: app.manager.current == "setup" and by_role(app, "name 1").text == "Łukasz"),
        ("player 2's name again", lambda: touch_role(app, "name 1")),
        ("on the keyboard", on("keyboard")),
        *language("cs"),
        *language("ru"),
        *language("en"),
        ("cancel keeps the name", lambda: touch_role(app, "key x") and touch_text(app, tr("ui.cancel"))),
        ("Ship still", lambda: app.manager.current == "setup" and names() == ["Car", "Ship"]),
    ]


class Script:
    """One step a frame until each says it is done, the screen settling between touches; 8 s a step."""

    def __init__(self, app: BankerApp, todo: list[Step]) -> None:
        self.app, self.todo, self.k, self.settle = app, todo, 0, 0
        self.started = time.monotonic()
        self.failed: str | None = None

    def tick(self, dt: float) -> None:
        if self.settle:
            self.settle -= 1
            return
        if self.k >= len(self.todo):
            self.app.stop()
            return
        name, step = self.todo[self.k]
        try:
            done = step()
        except Exception as exc:
            self.failed = f"{name}: {exc!r} (screen {self.app.manager.current})"
            self.app.stop()
            return
        if done:
            self.k, self.settle, self.started = self.k + 1, 3, time.monotonic()
        elif time.monotonic() - self.started > 8:
            self.failed = f"{name}: timed out (screen {self.app.manager.current})"
            self.app.stop()


def main() -> int:
    work = Path(sys.argv[1])
    work.mkdir(parents=True, exist_ok=True)
    Settings(language="pl").save(work / "settings.json")
    app = BankerApp(work / "games.sqlite3", hardware=False, settings_file=work / "settings.json")
    holder: dict[str, Script] = {}

    def begin(*_: Any) -> None:
        holder["script"] = Script(app, steps(app))
        Clock.schedule_interval(holder["script"].tick, 0)

    Clock.schedule_once(begin, 0.2)
    app.run()
    script = holder.get("script")
    if script is None or script.failed or script.k < len(script.todo):
        print("FAILED:", script.failed if script else "never started")
        return 1
    print(f"{len(script.todo)} steps passed at {WIDTH}x{HEIGHT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
