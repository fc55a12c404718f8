"""The hall of fame on a big journal, in the app offscreen: does it open as fast as any page, and does an older
journal's background work stall the start or a touch?

    .venv/bin/python benchmarks/bench_fame.py [--games 1000] [--opens 30] [--json]

The journal is bench_stats.py's (1,000 finished games, made once and kept). Each run is the real app in a
process of its own (offscreen, 800x480, no hardware, no voice or motion), on one of two copies of it:

- schema 3, every game's summary stored (a journal this version has written all along);
- schema 2: the same file with the summaries' table dropped, as an older version left it. The app's first
  writing open upgrades it (the table only) and fills the summaries in on a thread beside the first screen.

Measured in each: the first frame (from the interpreter's start to the start screen's first frame), when the
history is in (the thread has filled and read the summaries), touches of "Settings" while the thread still
works (tap to the frame that shows the page), and then `--opens` touches each of "Hall of fame" and
"Settings", alternating (tap to the frame that shows the page). Printed: p50, p99 and the maximum in ms.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

STARTED = time.perf_counter()
ROOT = Path(__file__).resolve().parent.parent


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def row(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"n": 0, "p50_ms": None, "p99_ms": None, "max_ms": None}
    return {"n": len(values), "p50_ms": round(statistics.median(values), 1),
            "p99_ms": round(percentile(values, 0.99), 1), "max_ms": round(max(values), 1)}


def child(journal: Path, opens: int, out: Path) -> int:
    """The app on `journal`: the first frame, the history's reading, and the pages opened by touch."""
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "tests" / "ui"))
    import e2e_kit
    from kivy.clock import Clock
    from kivy.core.window import Window

    from ui.app import BankerApp

    work = Path(tempfile.mkdtemp(prefix="bench-fame-"))
    app = BankerApp(journal, hardware=False, phones=False, settings_file=work / "settings.json", voice=False, motion=False)
    result: dict[str, Any] = {"first_frame_s": None, "history_s": None, "filled": None, "during_fill": [],
                              "fame": [], "settings": [], "failed": None}
    state: dict[str, Any] = {"waiting": None, "t0": 0.0, "queue": [], "settle": 0}

    def page_button(page: str) -> Any:
        text = app.session.tr("ui.fame.open" if page == "fame" else "ui.settings")
        return e2e_kit.button(app, text)

    def flipped(*_: Any) -> None:
        now = time.perf_counter()
        if result["first_frame_s"] is None:
            result["first_frame_s"] = now - STARTED
        waiting = state["waiting"]
        if waiting is not None and app.manager.current == waiting[0]:
            result[waiting[1]].append((now - state["t0"]) * 1000)
            state["waiting"] = None
            state["settle"] = 3
            Clock.schedule_once(lambda dt: app.flows.nav.go("home") or app.session.changed(), 0.05)

    def tick(dt: float) -> None:
        history = app.session.history
        if result["first_frame_s"] is None or time.perf_counter() - STARTED < result["first_frame_s"] + 0.5:
            return  # the start screen laid out first
        if state["waiting"] is None and app.manager.current == "home" and state["settle"]:
            state["settle"] -= 1  # back on the start screen: let it be laid out before the next touch
            return
        if state["waiting"] is not None or app.manager.current != "home":
            if time.perf_counter() - state["t0"] > 30 and state["waiting"] is not None:
                result["failed"] = (f"no frame showing {state['waiting'][0]} after 30 s (page "
                                    f"{app.flows.nav.page}, screen {app.manager.current})")
                app.stop()
            return
        if history.reading:
            if len(result["during_fill"]) < opens:
                press("settings", "during_fill")
            return
        if result["history_s"] is None:
            result["history_s"] = time.perf_counter() - STARTED
            result["filled"] = history.filled
            state["queue"] = [page for _ in range(opens) for page in ("fame", "settings")]
        if not state["queue"]:
            app.stop()
            return
        page = state["queue"].pop(0)
        press(page, page)

    def press(page: str, into: str) -> None:
        widget = page_button(page)
        if widget is None:
            return
        state["waiting"] = (page, into)
        state["t0"] = time.perf_counter()
        e2e_kit.press(widget)

    Window.bind(on_flip=flipped)
    Clock.schedule_interval(tick, 0.1)
    app.run()
    out.write_text(json.dumps(result), "utf-8")
    return 0 if result["failed"] is None else 1


def run_child(journal: Path, opens: int) -> dict[str, Any]:
    out = Path(tempfile.mkdtemp(prefix="bench-fame-out-")) / "result.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, __file__, "--child", str(journal), "--opens", str(opens), "--out", str(out)],
                          env=env, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0 or not out.exists():
        raise SystemExit(f"the app run failed ({done.returncode}): {done.stdout[-2000:]} {done.stderr[-2000:]}")
    return dict(json.loads(out.read_text("utf-8")))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--opens", type=int, default=30)
    parser.add_argument("--dir", help="where bench_stats.py keeps its journals")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(Path(args.child), args.opens, Path(args.out))
    sys.path.insert(0, str(ROOT))
    from banker.journal import SCHEMA_VERSION
    from banker.report import SUMMARY_VERSION
    from benchmarks.bench_stats import make_journal

    folder = Path(args.dir) if args.dir else Path(tempfile.gettempdir()) / "banker-bench-stats"
    folder.mkdir(parents=True, exist_ok=True)
    stored = folder / f"stats-{args.games}-schema{SCHEMA_VERSION}-summary{SUMMARY_VERSION}.sqlite3"
    if not stored.exists():
        make_journal(stored, args.games)
    runs = {}
    for name in ("schema 3, summaries stored", "schema 2, filled beside the app"):
        copy = folder / "bench-fame.sqlite3"
        for leftover in (copy, Path(f"{copy}-wal"), Path(f"{copy}-shm")):
            leftover.unlink(missing_ok=True)
        shutil.copyfile(stored, copy)
        if name.startswith("schema 2"):
            with sqlite3.connect(copy) as db:
                db.execute("DROP TABLE summaries")
                db.execute("PRAGMA user_version=2")
        found = run_child(copy, args.opens)
        runs[name] = {"first_frame_s": round(found["first_frame_s"], 2), "history_s": round(found["history_s"], 1),
                      "filled": found["filled"], "settings_during_fill": row(found["during_fill"]),
                      "fame": row(found["fame"]), "settings": row(found["settings"])}
        copy.unlink()
    if args.json:
        print(json.dumps({"games": args.games, "runs": runs}, indent=1))
        return 0
    print(f"{args.games} finished games; tap to the frame showing the page, ms")
    print(f"{'journal':34} {'first frame':>11} {'history in':>10} {'filled':>6}")
    for name, r in runs.items():
        print(f"{name:34} {r['first_frame_s']:>10}s {r['history_s']:>9}s {r['filled']:>6}")
    print(f"{'journal':34} {'page':22} {'n':>3} {'p50':>7} {'p99':>7} {'max':>7}")
    for name, r in runs.items():
        for page, key in (("Hall of fame", "fame"), ("Settings", "settings"),
                          ("Settings, during the fill", "settings_during_fill")):
            v = r[key]
            if v["n"]:
                print(f"{name:34} {page:22} {v['n']:>3} {v['p50_ms']:>7} {v['p99_ms']:>7} {v['max_ms']:>7}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
