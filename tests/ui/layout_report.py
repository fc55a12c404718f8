"""The layout checker (ui/layout.py) at every shot of the app's tour: the tour of `banker app --tour` itself
(ui/cli.py's `run`, ui/tour.py's `run_tour` with check=True), so the screens checked are exactly the ones the
tour photographs, "-scrolled" shots scrolled, at the panel's size and density as `banker app --size` sets them.

As a script, a report:

    .venv-test/bin/python tests/ui/layout_report.py [--size WxH] [--language CODE] [--figures] [--brief]
        [--out DIR] [--pictures] [--quiet] [--tour-at REV]

--size is the window (E2E_SIZE, else 800x480, without it); --language CODE plays the tour in that language
(as `banker app --tour --language`). Prints, per shot, the problems found (with --figures also the figures
that matter: too small, or not marked on a screen that must show them), then a count per shot, per screen
and per kind. --brief prints the counts only, --quiet nothing. --out DIR keeps DIR/shots.json (each shot
with its "layout" findings, figures included) instead of a scratch folder; --pictures writes the PNGs and
the contact sheet too (without it none are drawn: the check alone). --tour-at REV takes the tour's steps
from ui/tour.py as committed at REV instead of the file. Exits 0 when the tour ran to its end (whatever it
found), 1 when a step failed.

    .venv-test/bin/python tests/ui/layout_report.py --all [--brief] [--figures]

--all plays every panel size (SIZES) in every language, two at a time (as the test does), and prints each
one's problems (the counts only with --brief), then the count per size and language.

As a module (tests/ui/test_layout.py, tests/ui/test_tour.py): `tours(wanted, base)` plays the tours of the
(size, language) pairs asked for, each in a subprocess running this script, JOBS at a time, once per
test session; a run asked for again is the one already made.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

KINDS = {"text does not fit": "text does not fit", "outside the window": "outside the window",
         "outside its scroll": "outside its scroll content", "texts overlap": "texts overlap",
         "touch target": "small touch target", "font": "small font", "list too small": "list too small",
         "figure": "figure"}


def kind(line: str) -> str:
    """A problem's kind, from the words it starts with ("figure" for the figures that matter)."""
    return next((name for start, name in KINDS.items() if line.startswith(start)), line.split(":", 1)[0])


def is_figure(line: str) -> bool:
    return line.startswith("figure ")


# ---------------------------------------------------------------------- the tours, for the tests

SIZES = ("800x480", "1024x600", "1280x720")
"""The panels the layout test checks: the official 7-inch display, the common 1024x600 ones, Touch Display 2."""

JOBS = max(1, min(int(os.environ.get("LAYOUT_JOBS", "2")), os.cpu_count() or 1))
"""Tours played at once: two (CI has two cores), or LAYOUT_JOBS."""


@dataclass(frozen=True)
class Tour:
    """One tour played with the layout check: where its shots.json is, what it says, how it went."""

    size: str
    language: str
    out: Path
    returncode: int
    output: str  # its stdout and the end of its stderr, for a failure's message
    seconds: float
    pictures: bool

    @property
    def shots(self) -> dict[str, Any]:
        return json.loads((self.out / "shots.json").read_text(encoding="utf-8"))


_made: dict[tuple[str, str], Tour] = {}
_lock = threading.Lock()


def play(size: str, language: str, out: Path, pictures: bool, timeout: float = 600) -> Tour:
    """One tour in a subprocess of its own (Kivy opens one window per process), as `banker app` starts it."""
    env = dict(os.environ)
    for name in ("E2E_SIZE", "KIVY_METRICS_DENSITY"):  # the size and density come from --size, as for the app
        env.pop(name, None)
    command = [sys.executable, str(Path(__file__).resolve()), "--size", size, "--language", language,
               "--out", str(out), "--quiet", *(["--pictures"] if pictures else [])]
    started = time.monotonic()
    try:
        ran = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env, timeout=timeout)
    except subprocess.TimeoutExpired as late:  # stuck past the script's own watchdog: say so, not hang the suite
        told = "".join(part.decode(errors="replace") if isinstance(part, bytes) else part or ""
                       for part in (late.stdout, late.stderr))
        return Tour(size, language, out, -1, f"no end after {timeout:.0f} s\n{_said(told)[-3000:]}",
                    time.monotonic() - started, pictures)
    return Tour(size, language, out, ran.returncode, ran.stdout + _said(ran.stderr)[-3000:],
                time.monotonic() - started, pictures)


def _said(stderr: str) -> str:
    """A tour's stderr without the sound library's complaints of a machine with no sound card."""
    return "".join(line for line in stderr.splitlines(keepends=True) if not line.startswith("ALSA lib "))


def tours(wanted: Iterable[tuple[str, str]], base: Path, pictures: Iterable[tuple[str, str]] = ()
          ) -> dict[tuple[str, str], Tour]:
    """The tours of the (size, language) pairs `wanted`, played JOBS at a time into folders under `base`
    (the largest windows first: they take longest), each once per process; those in `pictures` with their
    PNGs and contact sheet (a tour already played without them is played again)."""
    wanted = list(dict.fromkeys(wanted))
    drawn = set(pictures)
    with _lock:
        to_play = [pair for pair in wanted if pair not in _made or (pair in drawn and not _made[pair].pictures)]
        to_play.sort(key=lambda pair: -int(pair[0].split("x")[1]))

        def one(pair: tuple[str, str]) -> Tour:
            size, language = pair
            out = Path(tempfile.mkdtemp(prefix=f"tour-{size}-{language}-", dir=base))
            return play(size, language, out, pair in drawn)

        with ThreadPoolExecutor(max_workers=JOBS) as pool:
            for tour in pool.map(one, to_play):
                _made[(tour.size, tour.language)] = tour
        return {pair: _made[pair] for pair in wanted}


# ---------------------------------------------------------------------- the script


def _option(name: str, default: str | None = None) -> str | None:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def _steps_at(rev: str) -> Callable[..., Any]:
    """ui/tour.py's `tour_steps` as committed at `rev`, loaded when first called (after the window opens:
    tour.py imports Kivy's window)."""
    def steps(app: Any, language: str | None) -> Any:
        import types

        source = subprocess.run(["git", "show", f"{rev}:ui/tour.py"], cwd=ROOT, capture_output=True, text=True,
                                check=True).stdout
        module = types.ModuleType("ui.tour_at_" + rev.replace("~", "_").replace("^", "_"))
        exec(compile(source, f"{rev}:ui/tour.py", "exec"), module.__dict__)
        return module.tour_steps(app, language)
    return steps


def report(shots: dict[str, Any], figures: bool, brief: bool) -> None:
    found_of = [(shot, [line for line in shot["layout"] if figures or not is_figure(line)])
                for shot in shots["shots"]]
    width, height = shots["size"]
    print(f"# layout report at {width}x{height}, {shots['language']}, {len(found_of)} shots")
    kinds: Counter[str] = Counter()
    per_screen: Counter[str] = Counter()
    for k, (shot, found) in enumerate(found_of):
        kinds.update(kind(line) for line in found)
        per_screen[shot["screen"]] += len(found)
        if not brief:
            print(f"\n## {shot_name(shot, k, len(found_of))} (screen {shot['screen']}): {len(found)} problems")
            for line in found:
                print(f"- {line}")
    print("\n# problems per shot")
    for k, (shot, found) in enumerate(found_of):
        counted = Counter(kind(line) for line in found)
        print(f"{shot_name(shot, k, len(found_of)):40} {shot['screen']:12} {len(found):4}  "
              + ", ".join(f"{name} {n}" for name, n in counted.most_common()))
    print("\n# problems per screen")
    for screen, n in per_screen.most_common():
        print(f"{screen:12} {n:5}")
    print("\n# problems per kind")
    for name, n in kinds.most_common():
        print(f"{name:40} {n:5}")
    print(f"\ntotal {sum(kinds.values())} problems in {len(found_of)} shots")


def shot_name(shot: dict[str, Any], k: int, count: int) -> str:
    """'007-setup-cestina': the shot's file name without .png (the same without pictures), numbered as ui/tour.py's
    shot_file numbers the files of a tour of `count` steps (three digits from 100 steps)."""
    return f"{k + 1:0{max(2, len(str(count)))}d}-{shot['name']}"


WATCHDOG = 480
"""Seconds after which a tour still running prints every thread's stack and exits (a hang outside the Clock,
which run_tour's own watchdog cannot see)."""


def every_panel(figures: bool, brief: bool) -> int:
    """--all: every size in every language, JOBS at a time, each one's report, then the counts."""
    from ui.i18n import LANGUAGES

    base = Path(tempfile.mkdtemp(prefix="layout-report-all-"))
    try:
        made = tours([(size, language) for size in SIZES for language in LANGUAGES], base)
        counts: list[str] = []
        for (size, language), tour in made.items():
            if tour.returncode != 0:
                counts.append(f"{size:9} {language:3} the tour stopped: {tour.output.strip().splitlines()[-1:]}")
                continue
            shots = tour.shots
            if not brief:
                report(shots, figures, brief=False)
            lines = [line for shot in shots["shots"] for line in shot["layout"]]
            shown = [line for line in lines if figures or not is_figure(line)]
            figure_lines = sum(map(is_figure, lines))
            counted = f"{figure_lines} of them figures" if figures else f"and {figure_lines} about figures"
            counts.append(f"{size:9} {language:3} {len(shown):5} problems ({counted}) in {len(shots['shots'])} "
                          f"shots, {tour.seconds:.0f} s")
        print("\n# problems per size and language" + ("" if figures else " (figures left out)"))
        print("\n".join(counts))
        return 0 if all(t.returncode == 0 for t in made.values()) else 1
    finally:
        shutil.rmtree(base, ignore_errors=True)


def main() -> int:
    if "--all" in sys.argv:
        return every_panel("--figures" in sys.argv, "--brief" in sys.argv)
    import faulthandler

    faulthandler.dump_traceback_later(WATCHDOG, exit=True)
    size = _option("--size") or os.environ.get("E2E_SIZE") or "800x480"
    language = _option("--language")
    kept = _option("--out")
    rev = _option("--tour-at")
    pictures = "--pictures" in sys.argv
    out = Path(kept) if kept else Path(tempfile.mkdtemp(prefix="layout-report-"))
    import argparse

    from ui import cli

    parser = argparse.ArgumentParser(prog="banker")
    cli.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["app", "--tour", str(out), "--size", size,
                              *(["--language", language] if language else [])])
    try:
        code = cli.run(args, check=True, pictures=pictures, steps=_steps_at(rev) if rev else None)
        shots = json.loads((out / "shots.json").read_text(encoding="utf-8")) if code == 0 else None
    finally:
        if not kept:
            shutil.rmtree(out, ignore_errors=True)
    if shots is not None and "--quiet" not in sys.argv:
        report(shots, "--figures" in sys.argv, "--brief" in sys.argv)
    return code


if __name__ == "__main__":
    sys.exit(main())
