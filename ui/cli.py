"""`banker app`: start the touchscreen banker (or, with --tour, photograph every screen).

Kivy reads its settings from the environment when first imported, so this
module sets them before importing anything of Kivy: among them the panel's
density (KIVY_METRICS_DENSITY, read once when `kivy.metrics` is first
imported), from [display] density of the hardware config or else from the
window's size (ui/panel.py). Kivy's own config file is ui/kivyconfig.py's: Kivy
is first imported through it, so that a power cut never leaves that file torn.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from banker.outside import whole_number
from ui.i18n import LANGUAGES
from ui.panel import (
    DENSITY_VARIABLE,
    MAX_SIDE,
    PanelPlan,
    configured_display,
    density_set_by_user,
    parse_size,
    plan_panel,
    window_density,
)

log = logging.getLogger(__name__)


def register(sub: Any) -> None:
    app = sub.add_parser("app", help="start the touchscreen app")
    app.add_argument("--journal", metavar="DB", help="the games file (default: the user's data directory)")
    app.add_argument("--config", metavar="PATH", help="the hardware config file")
    app.add_argument("--size", metavar="WxH",
                     help=f"window size, each side 1 to {MAX_SIDE} pixels (default 800x480, the official display); "
                          "the app's density is that of "
                          "a 7-inch panel of this size (1024x600: 1.25, 1280x720: 1.5) unless [display] density "
                          "in the config says otherwise")
    app.add_argument("--fullscreen", action="store_true",
                     help="fill the screen (the Pi appliance does); without --size the density follows the screen")
    app.add_argument("--no-hardware", action="store_true",
                     help="do not look for a card reader or dice button (the phone page stays as the config says)")
    app.add_argument("--tour", metavar="DIR",
                     help="play a short scripted demo offscreen, write a PNG of every screen into DIR, exit")
    app.add_argument("--language", metavar="CODE",
                     help="with --tour: the tour's language (" + ", ".join(LANGUAGES) + "; default en)")
    app.add_argument("--tour-shots", metavar="N", type=whole_number(1, 999),
                     help="with --tour: only the first N shots (a quick look, or a slow machine such as an emulated "
                          "Pi: tests/deploy/arm64_install.sh)")


@dataclass(frozen=True, slots=True)
class Prepared:
    """What `prepare` settled: the window and density, whether the user's KIVY_METRICS_DENSITY
    stands, and the tour's scratch folder."""

    panel: PanelPlan
    density_from_user: bool
    scratch: Path | None


def run(args: argparse.Namespace, **tour: Any) -> int:
    """`banker app`; `tour`: more options for ui.tour.run_tour with --tour (the layout report's check and
    pictures), not on the command line."""
    try:
        size = parse_size(args.size) if args.size is not None else None
    except ValueError as exc:  # one line: the text is shown as its repr, escapes and all
        print(f"banker app: {exc}", file=sys.stderr)
        return 2
    language = getattr(args, "language", None)
    if language is not None and language not in LANGUAGES:
        print(f"banker app: unknown language {language!r}; the app knows {', '.join(LANGUAGES)}", file=sys.stderr)
        return 2
    if language is not None and not args.tour:
        print("banker app: --language goes with --tour (the family picks the app's language in its settings)",
              file=sys.stderr)
        return 2
    shots = getattr(args, "tour_shots", None)
    if shots is not None and not args.tour:
        print("banker app: --tour-shots goes with --tour", file=sys.stderr)
        return 2
    prepared = prepare(args, size)
    follow_the_window(prepared)

    from banker.journal import default_path

    if args.tour:
        from ui.tour import run_tour

        assert prepared.scratch is not None
        return run_tour(Path(args.tour), prepared.scratch, language, first=shots, **tour)
    from ui.app import BankerApp

    journal = Path(args.journal) if args.journal else default_path()
    BankerApp(journal, config_path=args.config, hardware=not args.no_hardware).run()
    return 0


def prepare(args: argparse.Namespace, size: tuple[int, int] | None) -> Prepared:
    """Set the environment and Kivy's config for `banker app`, before any window or widget exists.

    The density: [display] density of the config, else that of a 7-inch panel of the window's size
    (--size; with --fullscreen and no --size, the panel [display] touch names). The config is
    the --config file or the one hardware.config finds; the tour, whose pictures must not depend
    on the machine, reads only a --config it is given. A KIVY_METRICS_DENSITY already in the
    environment wins over both.
    """
    display = configured_display(args.config, search=not args.tour)
    panel = plan_panel(size, fullscreen=bool(args.fullscreen and not args.tour), display=display)
    from_user = density_set_by_user()
    if not from_user:
        os.environ[DENSITY_VARIABLE] = repr(panel.density)
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    if not os.environ.get("BANKER_KIVY_LOG"):
        os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    scratch = None
    if args.tour:
        # A tour leaves the family's games, settings and Kivy's own files alone.
        scratch = Path(tempfile.mkdtemp(prefix="banker-tour-"))
        os.environ["KIVY_HOME"] = str(scratch / "kivy")
        os.environ["KIVY_NO_FILELOG"] = "1"
    from ui.kivyconfig import take_over

    take_over()  # Kivy's own config.ini written whole or not at all, never in place
    from kivy.config import Config

    if not from_user and "kivy.metrics" in sys.modules:
        # Kivy's metrics were imported before us (banker app called in-process): the variable
        # came too late for them, so set the density itself.
        from kivy.metrics import Metrics

        Metrics.density = panel.density
    width, height = panel.size
    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "resizable", "0")
    if args.fullscreen:
        Config.set("graphics", "fullscreen", "auto")
    Config.set("kivy", "exit_on_escape", "0")
    # No multisampling: the rounded shapes smooth their own edges (ui/widgets.py), and with software
    # rendering 2x multisampling cost a third of every frame (8 against 13 ms at 800x480).
    Config.set("graphics", "multisamples", "0")
    # A tap from the reader's thread wakes the main loop at once instead of at the next 60 Hz tick.
    Config.set("kivy", "kivy_clock", "interrupt")
    # On the Pi, SDL turns each touch into a mouse event while Kivy also reads the touchscreen
    # itself: ignore the mouse while a touch is active, so a tap is never counted twice.
    Config.set("input", "mouse", "mouse,disable_on_activity,disable_multitouch")
    return Prepared(panel, from_user, scratch)


def follow_the_window(prepared: Prepared) -> None:
    """Full screen without --size or a configured density: open the window, and when the screen
    gave another size than the panel [display] touch names (an HDMI screen, or the wrong touch),
    take the density of the window that opened. Before any widget is made, so every dp and sp
    is measured with it."""
    if not prepared.panel.follow_window or prepared.density_from_user:
        return
    from kivy.core.window import Window
    from kivy.metrics import Metrics

    opened = (int(Window.width), int(Window.height))
    density = window_density(prepared.panel, opened)
    if density is None:
        return
    Metrics.density = density
    os.environ[DENSITY_VARIABLE] = repr(density)
    if prepared.panel.touch is not None:
        width, height = prepared.panel.size
        log.warning('Panel: the screen is %dx%d, not the %dx%d of [display] touch = "%s"; density %g, from the screen',
                    opened[0], opened[1], width, height, prepared.panel.touch, density)
