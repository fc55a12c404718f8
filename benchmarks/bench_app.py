"""The app's speed, offscreen with software rendering (Mesa): tap-to-screen latency,
cold start and peak memory.

    .venv/bin/python benchmarks/bench_app.py [--taps 300] [--json] [--no-phones] [--no-sounds]
                                             [--no-voice] [--no-motion] [--followers 1] [--slowest 5]
                                             [--tree DIR] [--profile PREFIX]

Tap-to-screen: a player's purchase waits for their card; the tap's line is
written to a pseudo-terminal card reader, and the time from its last byte to
the first frame (`on_flip`, the swap) whose widgets show the player's new
balance is measured. Tap-to-pixels adds the drawing of that frame: Mesa's
llvmpipe draws after the swap, on threads of its own, so the benchmark waits
for it (glFinish) and takes the time again (on a Pi, the GPU draws). Then the
purchase is undone and asked for again. The tap comes a
random 0.15 to 0.6 s after the purchase is asked for (seeded, the same in
every run), so that taps land at every moment of the app's idle-time work
rather than always at the same one; about one tap a second, as at a table.

As in real use, the phone server runs (on 127.0.0.1, a free port) with
`--followers` phones following the game's event stream, and the sounds, the
voice and the money in motion are on (`--no-phones`, `--no-sounds`,
`--no-voice`, `--no-motion` leave them out): every purchase is spoken
(espeak-ng on its thread, when installed) and its amount travels across the
screen. On a machine with no sound card the audio goes to SDL's dummy output,
which plays at the real pace, so that speech and tones take their time as
through a speaker. Cold start: from the
interpreter's start to the first frame of the table screen of a resumed
game. Peak memory: the process's maximum resident set size at the end.

Every tap is also cut into its phases, from timestamps taken around the
app's own functions (no change to the app): waiting for the main thread
(the reader's thread, the clock, whatever the main thread was doing), the
controller's tap (the engine and the journal's commit), the phone state
(0: the app makes it after the frame), the redraw (view data and widgets),
and the frame (Kivy's layout, drawing, the swap); garbage collections and the app's other main-thread work (idle
collection, the clock's tick) that overlap a tap are listed with it. The
slowest taps are printed with their index and phases.

The main thread's own work per tap (`main_thread_ms_p50`, `_p99`, `_max`,
the p99 taken as for tap-to-screen): the whole tap (the engine, the
journal's commit, the moment listeners: voice, motion) plus the redraws
between it and the frame, without the frame itself (Kivy's layout, drawing
and swap: the software renderer). The journal's commit alone is
`commit_ms_p50`, `_p99`, `_max`; since issue 40 it runs on the journal's own
thread beside the redraw, and the main thread waits for it before the frame
(`Session.settle`, inside the redraw and so inside the main thread's figure:
`commit_wait_ms_p50`, `_p99`, `_max`). What is timed and driven is found on
`app.controller` or, after issue 40, on `app.flows` and `app.session`
(`HOOKS`), so the same file measures both; `--tree DIR` measures the app of
another checkout (benchmarks/compare_app.py), `--profile PREFIX` profiles the
taps and the redraws that follow them with cProfile.
"""

from __future__ import annotations

import argparse
import faulthandler
import gc
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

STARTED = time.perf_counter()


def _tree() -> Path:
    """The app measured: `--tree DIR` (read before anything is imported), else this checkout."""
    for k, arg in enumerate(sys.argv):
        if arg == "--tree" and k + 1 < len(sys.argv):
            return Path(sys.argv[k + 1]).resolve()
        if arg.startswith("--tree="):
            return Path(arg.split("=", 1)[1]).resolve()
    return Path(__file__).resolve().parent.parent


TREE = _tree()
if not (TREE / "ui" / "app.py").is_file() or not (TREE / "banker").is_dir():
    sys.exit(f"bench_app.py: {TREE} is not a checkout of the app (no ui/app.py or banker/ in it)")
sys.path.insert(0, str(TREE))  # the measured checkout's app, not an installed copy
os.environ["KIVY_NO_ARGS"] = "1"
os.environ["KIVY_NO_FILELOG"] = "1"
os.environ["KIVY_NO_CONSOLELOG"] = "1"
os.environ["KIVY_HOME"] = tempfile.mkdtemp(prefix="bench-kivy-")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
if not Path("/proc/asound/cards").exists() or "no soundcards" in Path("/proc/asound/cards").read_text():
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")  # no sound card: play, at the real pace, to nothing

from kivy.config import Config  # noqa: E402

Config.set("graphics", "width", "800")
Config.set("graphics", "height", "480")
Config.set("kivy", "kivy_clock", "interrupt")  # as `banker app` runs
Config.set("graphics", "multisamples", "0")  # as `banker app` runs

from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.graphics.opengl import glFinish  # noqa: E402
from kivy.uix.label import Label  # noqa: E402

from banker.journal import Journal  # noqa: E402
from banker.script import Header  # noqa: E402
from hardware.emulate import LineReaderEmulator  # noqa: E402
from ui.app import BankerApp  # noqa: E402

ANN, BEN = "04A32B1C", "04B7771A2C5E80"
TAP_LOST = 5.0  # seconds: a tap not on screen by then fails the run (it never hangs)
PHASES = ("wait", "tap", "phone", "redraw", "frame")


def shows(app: BankerApp, text: str) -> bool:
    stack = [app.manager.current_screen]
    while stack:
        w = stack.pop()
        if isinstance(w, Label) and w.text == text:
            return True
        stack.extend(w.children)
    return False


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Recorder:
    """Intervals of main-thread work, by kind, with perf_counter times."""

    def __init__(self) -> None:
        self.spans: list[tuple[str, float, float]] = []  # (kind, start, end)
        self._gc_start = 0.0
        self._gc_gen = 0
        self.profiles: dict[str, Any] = {}  # kind: a cProfile.Profile enabled during its spans (--profile)
        self.tapped = False  # a tap has ended and no redraw has run since: the next redraw is the tap's

    def profile(self, kind: str) -> Any:
        """The profile to enable for a span of `kind`: every tap, and only the redraw that follows a tap."""
        if kind == "redraw" and not self.tapped:
            return None
        return self.profiles.get(kind)

    def timed(self, kind: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            profile = self.profile(kind) if self.profiles else None
            start = time.perf_counter()
            if profile is not None:
                profile.enable()
            try:
                return fn(*args, **kwargs)
            finally:
                if profile is not None:
                    profile.disable()
                self.spans.append((kind, start, time.perf_counter()))
                if kind in ("tap", "redraw"):
                    self.tapped = kind == "tap"
        return run

    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_start = time.perf_counter()
            self._gc_gen = info["generation"]
        else:
            self.spans.append((f"gc{self._gc_gen}", self._gc_start, time.perf_counter()))

    def within(self, start: float, end: float) -> list[tuple[str, float, float]]:
        return [s for s in self.spans if s[2] > start and s[1] < end]


FOLLOWER = """
import http.client, sys
conn = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=600)
conn.request("GET", sys.argv[2])
response = conn.getresponse()
states = 0
try:
    for line in response:
        states += line.startswith(b"event: state")
except OSError:
    pass
print(states)
"""


def follow(port: int, path: str) -> subprocess.Popen[str]:
    """A phone following the game's event stream, in a process of its own (as a phone is a device of its own):
    prints how many states it received when the stream ends."""
    return subprocess.Popen([sys.executable, "-c", FOLLOWER, str(port), path], stdout=subprocess.PIPE, text=True)


class BenchApp(BankerApp):
    """The app as it is, with its redraw timed (bound in __init__, before an instance could be patched)."""

    recorder: Recorder

    def redraw(self, *args: Any) -> None:
        self.recorder.timed("redraw", super().redraw)(*args)


# What the benchmark times and drives, on the object that has it before issue 40 (the controller) or after it
# (the flows around one session): role -> (its names, the places to look, both in order; the first found wins).
HOOKS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "card_tapped": (("card_tapped",), ("flows.taps", "flows", "controller")),
    "publish": (("_publish", "publish"), ("flows.phones", "flows", "controller")),
    "table_link": (("table_link",), ("flows.phones", "flows", "controller")),
    "tick": (("tick",), ("flows", "flows.clock", "controller")),  # the whole one-second tick
    "request": (("request",), ("flows.paying", "flows", "controller")),
    "pending": (("pending",), ("flows.paying", "flows", "controller")),
    "reader": (("reader",), ("flows.settings", "flows", "session", "controller")),
    "moment_listeners": (("moment_listeners",), ("session", "flows.session", "controller")),
    "notice_lines": (("notice_lines",), ("session", "flows.session", "controller")),
    "undo": (("undo",), ("session", "flows.session", "flows.banker", "controller")),
    "game": (("game",), ("session", "flows.session", "controller")),
    "tr": (("tr",), ("session", "flows.session", "controller")),
}


class Hook:
    """One role's holder and name: `get()` the value, `set(value)` it (an instance attribute, as a patch)."""

    def __init__(self, holder: Any, name: str) -> None:
        self.holder, self.name = holder, name

    def get(self) -> Any:
        return getattr(self.holder, self.name)

    def set(self, value: Any) -> None:
        setattr(self.holder, self.name, value)


def hooks(app: BankerApp) -> dict[str, Hook]:
    """For each role of HOOKS, where this app keeps it, old (`app.controller`) or new (`app.flows`,
    `app.session`): the same benchmark so measures the code before and after the change."""
    if not callable(getattr(BankerApp, "redraw", None)):
        raise SystemExit("bench_app.py: the app has no redraw() to time (BenchApp.redraw)")
    found: dict[str, Hook] = {}
    for role, (names, places) in HOOKS.items():
        for place in places:
            holder: Any = app
            for part in place.split("."):
                holder = getattr(holder, part, None)
                if holder is None:
                    break
            name = next((n for n in names if holder is not None and hasattr(holder, n)), None)
            if name is not None:
                found[role] = Hook(holder, name)
                break
        else:
            raise SystemExit(f"bench_app.py: the app has no {' or '.join(names)} on any of {', '.join(places)} "
                             f"(update HOOKS in {Path(__file__).name})")
    return found


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=300, help="taps to measure (at least 300 for a p99)")
    parser.add_argument("--json", action="store_true", help="print the results as one JSON object")
    parser.add_argument("--no-phones", action="store_true", help="without the phone server")
    parser.add_argument("--no-sounds", action="store_true", help="with the sounds off")
    parser.add_argument("--no-voice", action="store_true", help="with the voice off")
    parser.add_argument("--no-motion", action="store_true", help="with the money in motion off")
    parser.add_argument("--followers", type=int, default=1, help="phones following the game's event stream")
    parser.add_argument("--slowest", type=int, default=5, help="how many of the slowest taps to show")
    parser.add_argument("--tree", metavar="DIR", help="the checkout whose app is measured (default: this one's); "
                        "put first on sys.path (benchmarks/compare_app.py runs this file against two trees)")
    parser.add_argument("--profile", metavar="PREFIX", help="profile the taps and the redraws that follow them "
                        "with cProfile into PREFIX.tap.prof and PREFIX.redraw.prof (slower: the figures are then "
                        "not the app's)")
    args = parser.parse_args()
    phones = not args.no_phones

    work = Path(tempfile.mkdtemp(prefix="bench-app-"))
    with Journal(work / "games.sqlite3") as journal:  # a game under way, for the app to resume
        live = journal.start(Header(rules="classic", players=["Ann", "Ben"], seed=1),
                             meta={"cards": {ANN: "Ann", BEN: "Ben"}, "colours": {"Ann": "#E53935", "Ben": "#1E88E5"},
                                   "started": time.time()})
        live.apply({"do": "roll", "dice": [1, 2]})
    link = work / "reader"
    reader = LineReaderEmulator(link=link)
    port = free_port()
    config = work / "config.toml"
    config.write_text(f'[reader]\nurl = "{link}"\nprotocol = "line"\nretap_window = 0\n[dice]\nenabled = false\n'
                      f'[web]\nenabled = {"true" if phones else "false"}\nlisten = ["127.0.0.1"]\nport = {port}\n')
    settings = work / "settings.json"
    settings.write_text(json.dumps({"sounds": not args.no_sounds, "voice": not args.no_voice,
                                    "motion": not args.no_motion}))

    stall = open(work / "stall.txt", "w+")
    rec = Recorder()
    gc.callbacks.append(rec.on_gc)
    BenchApp.recorder = rec
    if args.profile:
        import cProfile
        rec.profiles = {"tap": cProfile.Profile(), "redraw": cProfile.Profile()}
    app = BenchApp(work / "games.sqlite3", config_path=str(config), settings_file=settings)
    h = hooks(app)
    for role, kind in (("card_tapped", "tap"), ("publish", "phone"), ("tick", "tick")):
        h[role].set(rec.timed(kind, h[role].get()))
    # The journal's commit: on the main thread (`append`), or since issue 40 on the journal's own thread beside
    # the redraw (`_append_on_writer`), which the main thread waits for before the frame (`Session.settle`).
    writer = "_append_on_writer" if hasattr(app.journal, "_append_on_writer") else "append"
    setattr(app.journal, writer, rec.timed("commit", getattr(app.journal, writer)))
    if hasattr(getattr(app, "session", None), "settle"):
        app.session.settle = rec.timed("settle", app.session.settle)  # type: ignore[method-assign]
    for name in ("_idle_work", "_collect_when_idle", "_load_sound"):  # the app's idle work, where it has it
        if hasattr(app, name):
            setattr(app, name, rec.timed("sound" if name == "_load_sound" else "idle", getattr(app, name)))
    if app.voice is not None:  # the voice's main-thread work: hearing the moments, and loading and playing a phrase
        listeners = h["moment_listeners"].get()
        listeners[listeners.index(app.voice.tell)] = rec.timed("voice", app.voice.tell)
        speaker = app.voice.speaker
        speaker._play = rec.timed("speech", speaker._play)  # type: ignore[method-assign]
    balance = h["tr"].get().money(1440)  # Ann's 1500 less Baltic Avenue's 60, as the table writes it
    rng = random.Random(14)
    results: dict[str, Any] = {"phones": phones, "sounds": not args.no_sounds, "voice": not args.no_voice,
                               "motion": not args.no_motion,
                               "followers": args.followers if phones else 0}
    taps: list[dict[str, Any]] = []
    followers: list[subprocess.Popen[str]] = []
    state: dict[str, Any] = {"sent": None, "first": True, "failed": None}

    def on_flip(*_: Any) -> None:
        now = time.perf_counter()
        if state["first"]:
            state["first"] = False
            if app.motion is not None:  # laid over the window as the app started: hearing the moments
                listeners = h["moment_listeners"].get()
                listeners[listeners.index(app.motion.tell)] = rec.timed("motion", app.motion.tell)
            results["cold_start_s"] = round(now - STARTED, 3)
            state["started"] = now
            if phones:
                Clock.schedule_once(lambda dt: connect(), 0)
            Clock.schedule_once(lambda dt: ask(), 1.0)
            return
        sent = state["sent"]
        if sent is None:
            return
        if shows(app, balance):
            faulthandler.cancel_dump_traceback_later()
            glFinish()  # the frame drawn: software rendering draws after the swap, on threads of its own
            taps.append({"sent": sent, "shown": now, "drawn": time.perf_counter()})
            state["sent"] = None
            Clock.schedule_once(lambda dt: reset(), 0.25)
        elif now - sent > TAP_LOST:
            fail(f"tap {len(taps)}: the balance {balance!r} was not on screen {TAP_LOST} s after the tap")

    def connect() -> None:  # the phones, once the server is up (the app may start it after the first frame)
        if app.web is None:
            Clock.schedule_once(lambda dt: connect(), 0.05)
            return
        link = h["table_link"].get()() or ""
        path = link[link.index("/g/"):] + "/events"
        followers.extend(follow(app.web.port, path) for _ in range(args.followers))

    def fail(why: str) -> None:
        game = h["game"].get()
        cash = game.players[0].cash if game is not None else None
        notices = [n["text"] for n in h["notice_lines"].get()(3)]
        state["failed"] = f"{why} (Ann's cash {cash}, pending {h['pending'].get() is not None}, " \
                          f"reader {h['reader'].get()}, " \
                          f"the latest notices {notices}, on the main thread since the tap " \
                          f"{[(k, ms(e - s)) for k, s, e in rec.within(state['sent'] or 0, time.perf_counter())]}; " \
                          f"last spans {[(k, ms(s - (state['sent'] or 0)), ms(e - s)) for k, s, e in rec.spans[-8:]]})"
        state["sent"] = None
        app.stop()

    def ask() -> None:
        h["request"].get()({"do": "buy"})
        Clock.schedule_once(lambda dt: tap(), rng.uniform(0.15, 0.6))

    def tap() -> None:
        if h["reader"].get() != "connected":
            Clock.schedule_once(lambda dt: tap(), 0.1)
            return
        reader.write(b"Card UID: 04 A3 2B 1C\r")
        state["sent"] = time.perf_counter()
        reader.write(b"\n")  # the last byte
        faulthandler.dump_traceback_later(1.5, file=stall)  # from C: works even if the GIL is held
        count = len(taps)
        Clock.schedule_once(lambda dt: watchdog(count), TAP_LOST + 1)

    def watchdog(count: int) -> None:  # no frame at all after a tap
        if state["sent"] is not None and len(taps) == count:
            fail(f"tap {count}: no frame showed it within {TAP_LOST} s")

    def reset() -> None:
        if len(taps) >= args.taps:
            app.stop()
            return
        h["undo"].get()(1)
        Clock.schedule_once(lambda dt: ask(), 0.2)

    Window.bind(on_flip=on_flip)
    app.run()
    reader.close()
    gc.callbacks.remove(rec.on_gc)
    for kind, profile in rec.profiles.items():
        profile.dump_stats(f"{args.profile}.{kind}.prof")

    for t in taps:  # the phases of each tap, from the spans recorded on the main thread
        spans = rec.within(t["sent"], t["shown"])
        tap_spans = [s for s in spans if s[0] == "tap" and s[1] >= t["sent"]]
        t["ms"] = ms(t["shown"] - t["sent"])
        phases = dict.fromkeys(PHASES, 0.0)
        if tap_spans:
            start, end = tap_spans[0][1], tap_spans[0][2]
            phone = sum(e - s for k, s, e in spans if k == "phone" and start <= s < end)
            commit = sum(e - s for k, s, e in spans if k == "commit" and start <= s < t["shown"])
            settle = sum(e - s for k, s, e in spans if k == "settle" and end <= s < t["shown"])
            redraw = [s for s in spans if s[0] == "redraw" and s[1] >= end]
            phases["wait"] = ms(start - t["sent"])
            phases["tap"] = ms(end - start - phone)
            phases["phone"] = ms(phone)
            t["commit"] = ms(commit)
            t["settle"] = ms(settle)
            after = end
            if redraw:
                phases["redraw"] = ms(redraw[0][2] - redraw[0][1])
                after = redraw[0][2]
            phases["frame"] = ms(t["shown"] - after)
            # the main thread's own work for the tap: the whole tap (engine, commit, moment listeners) and
            # every redraw between it and the frame, without the frame (Kivy's layout, drawing, the swap)
            t["main"] = ms(end - start + sum(e - s for k, s, e in spans if k == "redraw" and s >= end))
        t["phases"] = phases
        t["other"] = [f"{k} {ms(min(e, t['shown']) - max(s, t['sent']))}" for k, s, e in spans
                      if k not in ("tap", "phone", "redraw", "commit", "settle") and e - s >= 0.0001]

    results["taps"] = len(taps)
    if state["failed"]:
        results["failed"] = state["failed"]
    if taps:
        values = sorted(t["ms"] for t in taps)
        results["tap_to_screen_ms_p50"] = round(statistics.median(values), 1)
        results["tap_to_screen_ms_p99"] = values[min(len(values) - 1, int(len(values) * 0.99))]
        results["tap_to_screen_ms_max"] = values[-1]
        results["taps_over_33_ms"] = sum(v > 33 for v in values)
        results["taps_over_100_ms"] = sum(v > 100 for v in values)
        drawn = sorted(ms(t["drawn"] - t["sent"]) for t in taps)
        results["tap_to_pixels_ms_p50"] = round(statistics.median(drawn), 1)
        results["tap_to_pixels_ms_p99"] = drawn[min(len(drawn) - 1, int(len(drawn) * 0.99))]
        results["tap_to_pixels_ms_max"] = drawn[-1]
        commits = sorted(t["commit"] for t in taps if "commit" in t)  # the journal's commit within the tap
        if commits:
            results["commit_ms_p50"] = round(statistics.median(commits), 1)
            results["commit_ms_p99"] = commits[min(len(commits) - 1, int(len(commits) * 0.99))]
            results["commit_ms_max"] = commits[-1]
        settles = sorted(t["settle"] for t in taps if "settle" in t)  # waiting for it before the frame
        if settles:
            results["commit_wait_ms_p50"] = round(statistics.median(settles), 1)
            results["commit_wait_ms_p99"] = settles[min(len(settles) - 1, int(len(settles) * 0.99))]
            results["commit_wait_ms_max"] = settles[-1]
        main = sorted(t["main"] for t in taps if "main" in t)
        if main:
            results["main_thread_ms_p50"] = round(statistics.median(main), 1)
            results["main_thread_ms_p99"] = main[min(len(main) - 1, int(len(main) * 0.99))]
            results["main_thread_ms_max"] = main[-1]
        for phase in PHASES:
            results[f"{phase}_ms_p50"] = round(statistics.median(t["phases"][phase] for t in taps), 1)
        slow = sorted(range(len(taps)), key=lambda k: -taps[k]["ms"])[:args.slowest]
        results["slowest"] = [{"index": k, "ms": taps[k]["ms"], **taps[k]["phases"], "commit": taps[k].get("commit", 0),
                               "main": taps[k].get("main", 0),
                               "other": taps[k]["other"]} for k in slow]
    if followers:
        received = [f.communicate(timeout=30)[0].strip() for f in followers]  # the server stopped with the app
        results["phone_states_received"] = sum(int(r) for r in received if r.isdigit())
    running = [span for span in rec.spans if span[1] >= state.get("started", 0)]  # after the first frame
    longest: dict[str, float] = {}
    for k, s, e in running:
        longest[k] = max(longest.get(k, 0.0), ms(e - s))
    results["longest_ms"] = dict(sorted(longest.items()))  # each kind of main-thread work, taps or not
    for gen in (0, 1, 2):
        took = [e - s for k, s, e in running if k == f"gc{gen}"]
        results[f"gc{gen}_collections"] = len(took)
        results[f"gc{gen}_ms_max"] = ms(max(took, default=0))
        results[f"gc{gen}_ms_p50"] = ms(statistics.median(took)) if took else 0.0
    if app.voice is not None and not args.no_voice:
        results["voice_phrases"] = app.voice.count  # handed to espeak-ng
        results["voice_status"] = app.voice.status()  # None: it was heard
    if app.motion is not None and not args.no_motion:
        results["motion_started"] = app.motion.started  # amounts flown, deeds glowed
    results["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    results["load_average"] = [round(x, 2) for x in os.getloadavg()]
    if args.json:
        print(json.dumps(results))
    else:
        print(f"tap to screen ({results['taps']} taps; phones {'on' if phones else 'off'}, "
              f"sounds {'on' if not args.no_sounds else 'off'}, voice {'on' if not args.no_voice else 'off'}, "
              f"motion {'on' if not args.no_motion else 'off'}): p50 {results.get('tap_to_screen_ms_p50')} ms, "
              f"p99 {results.get('tap_to_screen_ms_p99')} ms, max {results.get('tap_to_screen_ms_max')} ms "
              f"({results.get('taps_over_33_ms')} over 33 ms, {results.get('taps_over_100_ms')} over 100 ms)")
        if "voice_phrases" in results or "motion_started" in results:
            print(f"voice: {results.get('voice_phrases', 0)} phrases spoken"
                  f" ({results.get('voice_status') or 'heard'}); motion: {results.get('motion_started', 0)} animations")
        print(f"tap to pixels (the swapped frame drawn by the software renderer): "
              f"p50 {results.get('tap_to_pixels_ms_p50')} ms, p99 {results.get('tap_to_pixels_ms_p99')} ms, "
              f"max {results.get('tap_to_pixels_ms_max')} ms")
        print(f"main thread's own work per tap (the tap with its commit and moments, and the redraw; not the "
              f"frame): p50 {results.get('main_thread_ms_p50')} ms, p99 {results.get('main_thread_ms_p99')} ms, "
              f"max {results.get('main_thread_ms_max')} ms; the journal's commit p50 "
              f"{results.get('commit_ms_p50')} ms, p99 {results.get('commit_ms_p99')} ms, "
              f"max {results.get('commit_ms_max')} ms"
              + (f", waited for before the frame p50 {results['commit_wait_ms_p50']} ms, "
                 f"p99 {results['commit_wait_ms_p99']} ms, max {results['commit_wait_ms_max']} ms"
                 if "commit_wait_ms_p50" in results else " (on the main thread)"))
        print("  median phases: " + ", ".join(f"{p} {results.get(f'{p}_ms_p50')}" for p in PHASES) + " ms")
        for s in results.get("slowest", []):
            print(f"  tap {s['index']}: {s['ms']} ms = " + ", ".join(f"{p} {s[p]}" for p in PHASES)
                  + f" (commit {s['commit']}, main thread {s['main']})"
                  + (f"; also {', '.join(s['other'])}" if s["other"] else ""))
        print("garbage collections: " + ", ".join(f"generation {g}: {results[f'gc{g}_collections']} "
                                                  f"(median {results[f'gc{g}_ms_p50']}, longest {results[f'gc{g}_ms_max']} ms)"
                                                  for g in (0, 1, 2) if results[f"gc{g}_collections"])
              + (f"; a phone received {results['phone_states_received']} states" if followers else ""))
        print("longest main-thread work after the first frame: "
              + ", ".join(f"{k} {v}" for k, v in results["longest_ms"].items()) + " ms")
        print(f"cold start to the first frame: {results.get('cold_start_s')} s")
        print(f"peak memory: {results['peak_rss_mb']} MB")
        print(f"load average: {' '.join(map(str, results['load_average']))}")
        if state["failed"]:
            print(f"FAILED: {state['failed']}")
            stall.seek(0)
            print("the threads 1.5 s after the tap:\n" + stall.read())
    return 1 if state["failed"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
