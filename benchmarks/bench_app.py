"""The app's speed, offscreen with software rendering (Mesa): tap-to-screen latency,
cold start and peak memory.

    .venv/bin/python benchmarks/bench_app.py [--taps 100]

Tap-to-screen: a player's purchase waits for their card; the tap's line is
written to a pseudo-terminal card reader, and the time from its last byte to
the first frame (`on_flip`) whose widgets show the player's new balance is
measured; then the purchase is undone and asked for again. Cold start: from
the interpreter's start to the first frame of the table screen of a resumed
game. Peak memory: the process's maximum resident set size at the end.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

STARTED = time.perf_counter()
os.environ["KIVY_NO_ARGS"] = "1"
os.environ["KIVY_NO_FILELOG"] = "1"
os.environ["KIVY_NO_CONSOLELOG"] = "1"
os.environ["KIVY_HOME"] = tempfile.mkdtemp(prefix="bench-kivy-")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")

from kivy.config import Config  # noqa: E402

Config.set("graphics", "width", "800")
Config.set("graphics", "height", "480")
Config.set("kivy", "kivy_clock", "interrupt")  # as `banker app` runs
Config.set("graphics", "multisamples", os.environ.get("BENCH_MSAA", "2"))

from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.uix.label import Label  # noqa: E402

from banker.journal import Journal  # noqa: E402
from banker.script import Header  # noqa: E402
from hardware.emulate import LineReaderEmulator  # noqa: E402
from ui.app import BankerApp  # noqa: E402

ANN, BEN = "04A32B1C", "04B7771A2C5E80"


def shows(app: BankerApp, text: str) -> bool:
    stack = [app.manager.current_screen]
    while stack:
        w = stack.pop()
        if isinstance(w, Label) and w.text == text:
            return True
        stack.extend(w.children)
    return False


def main() -> int:
    taps = int(sys.argv[sys.argv.index("--taps") + 1]) if "--taps" in sys.argv else 100
    work = Path(tempfile.mkdtemp(prefix="bench-app-"))
    with Journal(work / "games.sqlite3") as journal:  # a game under way, for the app to resume
        live = journal.start(Header(rules="classic", players=["Ann", "Ben"], seed=1),
                             meta={"cards": {ANN: "Ann", BEN: "Ben"}, "colours": {"Ann": "#E53935", "Ben": "#1E88E5"},
                                   "started": time.time()})
        live.apply({"do": "roll", "dice": [1, 2]})
    link = work / "reader"
    reader = LineReaderEmulator(link=link)
    config = work / "config.toml"
    config.write_text(f'[reader]\nurl = "{link}"\nprotocol = "line"\nretap_window = 0\n[dice]\nenabled = false\n')
    app = BankerApp(work / "games.sqlite3", config_path=str(config), settings_file=work / "settings.json")
    results: dict[str, Any] = {}
    latencies: list[float] = []
    state: dict[str, Any] = {"sent": None, "first": True}

    def on_flip(*_: Any) -> None:
        if state["first"]:
            state["first"] = False
            results["cold_start_s"] = round(time.perf_counter() - STARTED, 3)
            Clock.schedule_once(lambda dt: ask(), 0.5)
            return
        sent = state["sent"]
        if sent is not None and shows(app, "1440"):
            latencies.append(time.perf_counter() - sent)
            state["sent"] = None
            Clock.schedule_once(lambda dt: reset(), 0.3)  # about one tap a second, as at a table

    def ask() -> None:
        app.controller.request({"do": "buy"})
        Clock.schedule_once(lambda dt: tap(), 0.3)

    def tap() -> None:
        if app.controller.reader != "connected":
            Clock.schedule_once(lambda dt: tap(), 0.1)
            return
        reader.write(b"Card UID: 04 A3 2B 1C\r")
        state["sent"] = time.perf_counter()
        reader.write(b"\n")  # the last byte

    def reset() -> None:
        if len(latencies) >= taps:
            app.stop()
            return
        app.controller.undo(1)
        Clock.schedule_once(lambda dt: ask(), 0.3)

    Window.bind(on_flip=on_flip)
    app.run()
    reader.close()
    results["taps"] = len(latencies)
    if latencies:
        ordered = sorted(latencies)
        results["tap_to_screen_ms_p50"] = round(statistics.median(ordered) * 1000, 1)
        results["tap_to_screen_ms_p99"] = round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 1)
    results["peak_memory_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    if "--json" in sys.argv:
        print(json.dumps(results))
    else:
        print(f"tap to screen ({results['taps']} taps): p50 {results.get('tap_to_screen_ms_p50')} ms, "
              f"p99 {results.get('tap_to_screen_ms_p99')} ms")
        print(f"cold start to the first frame: {results['cold_start_s']} s")
        print(f"peak memory: {results['peak_memory_mb']} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
