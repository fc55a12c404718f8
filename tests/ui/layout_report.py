"""A report, not a test (yet): the layout checker (ui/layout.py) at every shot of the app's tour (ui/tour.py
`tour_steps`), in the real app offscreen at the window E2E_SIZE gives (800x480 unless told) and that
panel's density.

    E2E_SIZE=1024x600 PYTHONPATH=. python tests/ui/layout_report.py [--figures] [--brief] [--tour-at REV]
        [--language CODE]

Prints, per shot, the problems found (the figures that matter too, with --figures: their roles are not
marked on the screens yet), then a count per shot and per kind of problem. --brief prints the counts only;
--language CODE plays the tour in that language (as `banker app --tour --language`); --tour-at REV takes the tour's steps from ui/tour.py as committed at REV (HEAD) instead of the file.
Exits 0 when the tour ran to its end (whatever it found), 1 when a step failed.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

from ui.panel import panel_density, parse_size

WIDTH, HEIGHT = parse_size(os.environ.get("E2E_SIZE", "800x480"))
os.environ["E2E_SIZE"] = f"{WIDTH}x{HEIGHT}"
os.environ.setdefault("KIVY_METRICS_DENSITY", repr(panel_density(WIDTH, HEIGHT)))  # as `banker app` starts

import e2e_kit  # noqa: E402,F401  (sets Kivy up first)
from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402

from ui import layout  # noqa: E402
from ui.app import BankerApp  # noqa: E402


def _tour_steps() -> Any:
    """ui/tour.py's `tour_steps`; with --tour-at REV, the one of that commit (while tour.py is being edited)."""
    if "--tour-at" not in sys.argv:
        from ui.tour import tour_steps
        return tour_steps
    import subprocess
    import types

    rev = sys.argv[sys.argv.index("--tour-at") + 1]
    root = Path(__file__).resolve().parents[2]
    source = subprocess.run(["git", "show", f"{rev}:ui/tour.py"], cwd=root, capture_output=True, text=True,
                            check=True).stdout
    module = types.ModuleType("ui.tour_at_" + rev.replace("~", "_").replace("^", "_"))
    exec(compile(source, f"{rev}:ui/tour.py", "exec"), module.__dict__)
    return module.tour_steps


tour_steps = _tour_steps()
LANGUAGE = sys.argv[sys.argv.index("--language") + 1] if "--language" in sys.argv else None


KINDS = {"text does not fit": "text does not fit", "outside the window": "outside the window",
         "outside its scroll": "outside its scroll content", "texts overlap": "texts overlap",
         "touch target": "small touch target", "font": "small font", "list too small": "list too small",
         "figure": "small figure"}


def kind(line: str) -> str:
    """A problem's kind, from the words it starts with."""
    return next((name for start, name in KINDS.items() if line.startswith(start)), line.split(":", 1)[0])


def run(scratch: Path, figures: bool) -> tuple[list[tuple[str, str, list[str]]], str | None]:
    """The tour's steps, each followed by the check of the screen it shows, as run_tour shoots it."""
    app = BankerApp(scratch / "games.sqlite3", hardware=False, settings_file=scratch / "settings.json")
    shots: list[tuple[str, str, list[str]]] = []
    state: dict[str, Any] = {"k": 0, "failed": None}

    def next_step(dt: float = 0) -> None:
        steps = state["steps"]
        k = state["k"]
        if k >= len(steps):
            app.stop()
            return
        name, fn = steps[k]
        try:
            fn()
        except Exception as exc:
            state["failed"] = f"step {k + 1} ({name}): {exc!r}\n{traceback.format_exc()}"
            app.stop()
            return
        app.redraw()

        def second_frame() -> None:  # the screen manager swaps screens on the frame after a redraw
            app.flip_callbacks.append(lambda: Clock.schedule_once(lambda dt: check(k, name), 0))
            Window.canvas.ask_update()

        app.flip_callbacks.append(second_frame)
        Window.canvas.ask_update()

    def check(k: int, name: str) -> None:
        screen = app.manager.current_screen
        found = layout.problems(screen, tuple(Window.size))
        if figures:
            found += layout.figures_too_small(screen, tuple(Window.size), tuple(layout.FIGURE_ROLES))
        shots.append((f"{k + 1:02d}-{name}", app.manager.current, found))
        state["k"] = k + 1
        Clock.schedule_once(next_step, 0)

    def begin(*_: Any) -> None:
        if LANGUAGE is not None:
            app.controller.set_language(LANGUAGE)
        state["steps"] = tour_steps(app, LANGUAGE)
        Clock.schedule_once(next_step, 0.1)

    Clock.schedule_once(begin, 0)
    app.run()
    if app.web is not None:
        app.web.stop()
    return shots, state["failed"]


def main() -> int:
    figures = "--figures" in sys.argv
    brief = "--brief" in sys.argv
    scratch = Path(tempfile.mkdtemp(prefix="layout-report-"))
    try:
        shots, failed = run(scratch, figures)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"# layout report at {WIDTH}x{HEIGHT} (window {tuple(Window.size)}), {len(shots)} shots")
    kinds: Counter[str] = Counter()
    per_screen: Counter[str] = Counter()
    for shot, screen, found in shots:
        kinds.update(kind(line) for line in found)
        per_screen[screen] += len(found)
        if not brief:
            print(f"\n## {shot} (screen {screen}): {len(found)} problems")
            for line in found:
                print(f"- {line}")
    print("\n# problems per shot")
    for shot, screen, found in shots:
        counted = Counter(kind(line) for line in found)
        print(f"{shot:40} {screen:12} {len(found):4}  " + ", ".join(f"{k} {n}" for k, n in counted.most_common()))
    print("\n# problems per screen")
    for screen, n in per_screen.most_common():
        print(f"{screen:12} {n:5}")
    print("\n# problems per kind")
    for name, n in kinds.most_common():
        print(f"{name:40} {n:5}")
    print(f"\ntotal {sum(kinds.values())} problems in {len(shots)} shots")
    if failed:
        print(f"the tour stopped at {failed}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
