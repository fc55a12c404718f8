"""`banker app`: start the touchscreen banker (or, with --tour, photograph every screen).

Kivy reads its settings from the environment when first imported, so this
module sets them before importing anything of Kivy.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Any


def register(sub: Any) -> None:
    app = sub.add_parser("app", help="start the touchscreen app")
    app.add_argument("--journal", metavar="DB", help="the games file (default: the user's data directory)")
    app.add_argument("--config", metavar="PATH", help="the hardware config file")
    app.add_argument("--size", default="800x480", help="window size WxH (default 800x480, the official display)")
    app.add_argument("--fullscreen", action="store_true", help="fill the screen (the Pi appliance does)")
    app.add_argument("--no-hardware", action="store_true", help="no card reader or dice button, on-screen only")
    app.add_argument("--tour", metavar="DIR",
                     help="play a short scripted demo offscreen, write a PNG of every screen into DIR, exit")


def run(args: argparse.Namespace) -> int:
    try:
        width, height = (int(x) for x in args.size.lower().split("x"))
    except ValueError:
        print(f"banker app: --size must look like 800x480, not {args.size!r}", file=sys.stderr)
        return 2
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    if not os.environ.get("BANKER_KIVY_LOG"):
        os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    if args.tour:
        # A tour leaves the family's games, settings and Kivy's own files alone.
        scratch = Path(tempfile.mkdtemp(prefix="banker-tour-"))
        os.environ["KIVY_HOME"] = str(scratch / "kivy")
        os.environ["KIVY_NO_FILELOG"] = "1"
    from kivy.config import Config

    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "resizable", "0")
    if args.fullscreen:
        Config.set("graphics", "fullscreen", "auto")
    Config.set("kivy", "exit_on_escape", "0")
    # A tap from the reader's thread wakes the main loop at once instead of at the next 60 Hz tick.
    Config.set("kivy", "kivy_clock", "interrupt")
    # On the Pi, SDL turns each touch into a mouse event while Kivy also reads the touchscreen
    # itself: ignore the mouse while a touch is active, so a tap is never counted twice.
    Config.set("input", "mouse", "mouse,disable_on_activity,disable_multitouch")

    from banker.journal import default_path

    if args.tour:
        from ui.tour import run_tour

        return run_tour(Path(args.tour), scratch)
    from ui.app import BankerApp

    journal = Path(args.journal) if args.journal else default_path()
    BankerApp(journal, config_path=args.config, hardware=not args.no_hardware).run()
    return 0
