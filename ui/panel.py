"""How dense the panel is: the pixels that make one dp, so that the same seven inches look the same on each.

The app's sizes and fonts are in dp and sp, and Kivy turns them into pixels
with `kivy.metrics.Metrics.density`. The app is drawn for a 7-inch panel, and
the Raspberry Pi Touch Display (800x480) is density 1; every other 7-inch
panel packs more pixels into the same glass, so its density is its shorter
side over 480: 1.25 for the common 1024x600 panels, 1.5 for the Touch
Display 2 (720x1280, turned to 1280x720). The shorter side, so a portrait
window gives the same answer as the landscape one.

`[display] density` of the hardware config overrides that (a 10-inch panel,
or a family that wants everything bigger). `banker app` (ui/cli.py) works it
out here before Kivy is imported, since Kivy reads KIVY_METRICS_DENSITY once,
when `kivy.metrics` is first imported. Nothing here imports Kivy.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from hardware.config import DENSITY_RANGE, ScreenConfig, load_config
from hardware.events import ConfigError

REFERENCE_SHORT_SIDE = 480
"""The shorter side, in pixels, of the panel the app is drawn for (the official 7-inch display): density 1."""

DEFAULT_SIZE = (800, 480)
"""The window `banker app` opens when neither --size nor a full screen says otherwise."""

DENSITY_VARIABLE = "KIVY_METRICS_DENSITY"


def panel_density(width: int, height: int, configured: float | None = None) -> float:
    """The density for a window of width x height pixels: `configured` when given, else the
    density of a 7-inch panel of that size (the shorter side / 480), kept within 0.5 to 4
    like a configured one, so a tiny or a huge window still gives a usable app."""
    if configured is not None:
        return float(configured)
    if width <= 0 or height <= 0:
        raise ValueError(f"a panel has a positive size, not {width}x{height}")
    low, high = DENSITY_RANGE
    return min(max(min(width, height) / REFERENCE_SHORT_SIDE, low), high)


MAX_SIDE = 16384  # --size: the most pixels a side may have (the largest texture common GPUs draw)


def parse_size(text: str) -> tuple[int, int]:
    """'800x480' -> (800, 480); ValueError for anything but two whole numbers from 1 to MAX_SIDE around an x.

    A long text is refused before int() sees it (which refuses 4,300 digits its own way) and shown cut short."""
    if len(text) > 40:
        raise ValueError(f"--size must look like 800x480, not {text[:37] + '...'!r}")
    parts = text.strip().lower().split("x")
    if len(parts) != 2 or not all(part.isascii() and part.isdigit() for part in parts):
        raise ValueError(f"--size must look like 800x480, not {text!r}")
    width, height = int(parts[0]), int(parts[1])
    if width <= 0 or height <= 0:
        raise ValueError(f"--size must be at least 1x1, not {text!r}")
    if max(width, height) > MAX_SIDE:
        raise ValueError(f"--size must be at most {MAX_SIDE}x{MAX_SIDE}, not {text!r}")
    return width, height


def configured_display(path: str | None, *, search: bool = True,
                       environ: Mapping[str, str] | None = None) -> ScreenConfig:
    """[display] of the hardware config: the file `path` (--config), else, when `search`, the file
    hardware.config finds ($BANKER_CONFIG, the user's, /etc). The defaults when there is no file or
    it has a problem: a broken config must not stop the app, which reports the problem itself."""
    if path is None and not search:
        return ScreenConfig()
    try:
        return load_config(path, environ=environ).display
    except ConfigError:
        return ScreenConfig()


@dataclass(frozen=True, slots=True)
class PanelPlan:
    """The window `banker app` asks Kivy for and the density it starts Kivy with.

    `follow_window`: full screen with no --size and no configured density, so the window the
    screen gives decides (see `window_density`); `size` is then only a first guess: the panel
    [display] touch names (`touch`), or 800x480 for an HDMI screen (`touch` None).
    """

    size: tuple[int, int]
    density: float
    follow_window: bool = False
    touch: str | None = None


def plan_panel(size: tuple[int, int] | None, *, fullscreen: bool, display: ScreenConfig) -> PanelPlan:
    """The window and density for `banker app [--size WxH] [--fullscreen]` with this [display]."""
    if size is not None:
        return PanelPlan(size, panel_density(*size, display.density))
    if not fullscreen:
        return PanelPlan(DEFAULT_SIZE, panel_density(*DEFAULT_SIZE, display.density))
    implied = display.panel_size
    guess = implied or DEFAULT_SIZE
    return PanelPlan(guess, panel_density(*guess, display.density), follow_window=display.density is None,
                 touch=display.touch if implied else None)


def window_density(panel: PanelPlan, opened: tuple[int, int]) -> float | None:
    """The density for the full-screen window that opened at `opened` pixels, when it is not the
    density the app started with (an HDMI screen, or a `touch` that names another panel); else None."""
    if not panel.follow_window or opened[0] <= 0 or opened[1] <= 0:
        return None
    density = panel_density(*opened)
    return None if density == panel.density else density


def density_set_by_user(environ: Mapping[str, str] | None = None) -> bool:
    """Whether KIVY_METRICS_DENSITY is already set (Kivy ignores it when empty), which then wins."""
    env = os.environ if environ is None else environ
    return bool(env.get(DENSITY_VARIABLE))
