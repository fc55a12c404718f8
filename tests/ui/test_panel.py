"""The panel's density: ui/panel.py's arithmetic, and `banker app` handing it to Kivy before Kivy starts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hardware.config import ScreenConfig
from ui.panel import (
    DEFAULT_SIZE,
    PanelPlan,
    configured_display,
    density_set_by_user,
    panel_density,
    parse_size,
    plan_panel,
    window_density,
)

ROOT = Path(__file__).resolve().parents[2]


# ----------------------------------------------------------------------
# The arithmetic


@pytest.mark.parametrize("width, height, density", [
    (800, 480, 1.0),     # Touch Display 1
    (1024, 600, 1.25),   # the common 7-inch HDMI panels
    (1280, 720, 1.5),    # Touch Display 2, turned to landscape
    (720, 1280, 1.5),    # ... and as its portrait panel
    (480, 800, 1.0),
    (1920, 1080, 2.25),
    (1366, 768, 1.6),
])
def test_a_7_inch_panel_of_each_size(width: int, height: int, density: float) -> None:
    assert panel_density(width, height) == pytest.approx(density)


def test_a_configured_density_wins_over_the_size() -> None:
    assert panel_density(1280, 720, 1.0) == 1.0
    assert panel_density(800, 480, 2.5) == 2.5
    assert isinstance(panel_density(800, 480, 2), float)


def test_a_tiny_or_huge_window_stays_within_the_config_bounds() -> None:
    assert panel_density(200, 120) == 0.5
    assert panel_density(7680, 4320) == 4.0


@pytest.mark.parametrize("width, height", [(0, 480), (800, 0), (-800, 480)])
def test_a_window_without_area_has_no_density(width: int, height: int) -> None:
    with pytest.raises(ValueError):
        panel_density(width, height)


@pytest.mark.parametrize("text, size", [("800x480", (800, 480)), ("1024X600", (1024, 600)),
                                        (" 1280x720 ", (1280, 720))])
def test_sizes(text: str, size: tuple[int, int]) -> None:
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["12x", "x480", "800", "800x480x2", "800 x 480", "-800x480", "800x-480", "8.5x480",
                                  "0x480", "800x0", "²x480", ""])
def test_sizes_that_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match="--size must"):
        parse_size(text)


# ----------------------------------------------------------------------
# The config and the plan


def test_the_display_comes_from_the_named_file_or_the_search(tmp_path: Path) -> None:
    named = tmp_path / "named.toml"
    named.write_text('[display]\ntouch = "touch-display-2"\ndensity = 1.2\n', encoding="utf-8")
    assert configured_display(str(named)) == ScreenConfig(touch="touch-display-2", density=1.2)
    user = tmp_path / "xdg" / "board-banker" / "config.toml"
    user.parent.mkdir(parents=True)
    user.write_text("[display]\ndensity = 3\n", encoding="utf-8")
    environ = {"XDG_CONFIG_HOME": str(tmp_path / "xdg"), "HOME": str(tmp_path)}
    assert configured_display(None, environ=environ).density == 3.0
    assert configured_display(None, environ={"BANKER_CONFIG": str(named)}).density == 1.2
    # The tour does not search: its pictures must not depend on the machine's config.
    assert configured_display(None, search=False, environ=environ) == ScreenConfig()
    assert configured_display(str(named), search=False).density == 1.2


def test_a_missing_or_broken_config_gives_the_defaults(tmp_path: Path) -> None:
    assert configured_display(str(tmp_path / "missing.toml")) == ScreenConfig()
    broken = tmp_path / "broken.toml"
    broken.write_text('[display]\ndensity = 1.5\n[reader]\nprotocol = "pn533"\n', encoding="utf-8")
    assert configured_display(str(broken)) == ScreenConfig()
    broken.write_text("[display\n", encoding="utf-8")
    assert configured_display(str(broken)) == ScreenConfig()


def test_the_plan_for_each_way_of_starting() -> None:
    official, td2, hdmi = ScreenConfig(), ScreenConfig(touch="touch-display-2"), ScreenConfig(touch="hdmi")
    # A window: its size, or 800x480; the touchscreen's kind does not matter.
    assert plan_panel((1024, 600), fullscreen=False, display=td2) == PanelPlan((1024, 600), 1.25)
    assert plan_panel(None, fullscreen=False, display=td2) == PanelPlan(DEFAULT_SIZE, 1.0)
    # An explicit size wins even full screen.
    assert plan_panel((1280, 720), fullscreen=True, display=official) == PanelPlan((1280, 720), 1.5)
    # Full screen without a size: the panel the config's touch names, then the window that opens.
    assert plan_panel(None, fullscreen=True, display=official) == PanelPlan((800, 480), 1.0, True, "official-7in")
    assert plan_panel(None, fullscreen=True, display=td2) == PanelPlan((1280, 720), 1.5, True, "touch-display-2")
    assert plan_panel(None, fullscreen=True, display=hdmi) == PanelPlan((800, 480), 1.0, True, None)
    # A configured density is the density, whatever the window.
    dense = ScreenConfig(touch="hdmi", density=2.0)
    assert plan_panel(None, fullscreen=True, display=dense) == PanelPlan((800, 480), 2.0, False, None)
    assert plan_panel((1280, 720), fullscreen=False, display=dense) == PanelPlan((1280, 720), 2.0)


def test_the_window_that_opened_corrects_only_a_full_screen_guess() -> None:
    guess = PanelPlan((800, 480), 1.0, True, None)
    assert window_density(guess, (1024, 600)) == 1.25
    assert window_density(guess, (800, 480)) is None      # the guess was right
    assert window_density(guess, (0, 0)) is None          # no window size to go by
    assert window_density(PanelPlan((800, 480), 1.0), (1024, 600)) is None  # a window of a given size
    assert window_density(PanelPlan((800, 480), 2.0, False), (1024, 600)) is None  # a configured density


def test_a_density_in_the_environment_is_the_users() -> None:
    assert density_set_by_user({"KIVY_METRICS_DENSITY": "2"})
    assert not density_set_by_user({"KIVY_METRICS_DENSITY": ""})  # Kivy ignores an empty one too
    assert not density_set_by_user({})


# ----------------------------------------------------------------------
# `banker app`: the density Kivy ends up with

PROBE = """
import argparse, json, os, shutil, sys
from ui import cli
parser = argparse.ArgumentParser()
cli.register(parser.add_subparsers())
args = parser.parse_args(["app", *sys.argv[1:]])
assert "kivy" not in sys.modules
prepared = cli.prepare(args, cli.parse_size(args.size) if args.size else None)
from kivy.config import Config
from kivy.metrics import Metrics
started = Metrics.density
cli.follow_the_window(prepared)
window = None
if "kivy.core.window" in sys.modules:
    from kivy.core.window import Window
    window = [int(Window.width), int(Window.height)]
if prepared.scratch:
    shutil.rmtree(prepared.scratch)
print(json.dumps({"started": started, "density": Metrics.density, "window": window,
                  "size": [Config.getint("graphics", "width"), Config.getint("graphics", "height")]}))
"""


def probe(tmp_path: Path, *args: str, **env: str) -> dict[str, object]:
    """Run `banker app ARGS`'s preparation in a fresh Python, then ask Kivy for its density."""
    environ = {key: value for key, value in os.environ.items()
               if key not in ("KIVY_METRICS_DENSITY", "BANKER_CONFIG", "XDG_CONFIG_HOME")}
    environ.update(KIVY_HOME=str(tmp_path / "kivy"), HOME=str(tmp_path / "home"),
                   XDG_CONFIG_HOME=str(tmp_path / "xdg"), **env)
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, cwd=ROOT,
                          env=environ, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def config(tmp_path: Path, text: str, name: str = "config.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("size, density", [("800x480", 1.0), ("1024x600", 1.25), ("1280x720", 1.5),
                                           ("600x1024", 1.25)])
def test_the_size_gives_kivy_the_density_of_that_panel(tmp_path: Path, size: str, density: float) -> None:
    got = probe(tmp_path, "--size", size, "--config", config(tmp_path, "[display]\n"))
    width, height = (int(n) for n in size.split("x"))
    assert got == {"started": density, "density": density, "window": None, "size": [width, height]}


def test_without_a_size_the_window_is_800x480_at_density_1(tmp_path: Path) -> None:
    got = probe(tmp_path, "--config", config(tmp_path, '[display]\ntouch = "touch-display-2"\n'))
    assert got == {"started": 1.0, "density": 1.0, "window": None, "size": [800, 480]}


def test_the_configs_density_wins_over_the_size(tmp_path: Path) -> None:
    got = probe(tmp_path, "--size", "1280x720", "--config", config(tmp_path, "[display]\ndensity = 1.1\n"))
    assert got["density"] == 1.1 and got["size"] == [1280, 720]


def test_the_config_is_found_where_hardware_config_looks(tmp_path: Path) -> None:
    user = tmp_path / "xdg" / "board-banker" / "config.toml"
    user.parent.mkdir(parents=True)
    user.write_text("[display]\ndensity = 2\n", encoding="utf-8")
    assert probe(tmp_path, "--size", "800x480")["density"] == 2.0
    named = config(tmp_path, "[display]\ndensity = 0.75\n", "named.toml")
    assert probe(tmp_path, "--size", "800x480", BANKER_CONFIG=named)["density"] == 0.75


def test_a_missing_or_broken_config_falls_back_to_the_size(tmp_path: Path) -> None:
    broken = config(tmp_path, "[display]\ndensity = 9\n")
    assert probe(tmp_path, "--size", "1024x600", "--config", broken)["density"] == 1.25
    assert probe(tmp_path, "--size", "1280x720", "--config", str(tmp_path / "missing.toml"))["density"] == 1.5


def test_a_density_the_user_set_in_the_environment_stays(tmp_path: Path) -> None:
    dense = config(tmp_path, "[display]\ndensity = 1.5\n")
    got = probe(tmp_path, "--size", "1024x600", "--config", dense, KIVY_METRICS_DENSITY="3")
    assert got["density"] == 3.0


def test_the_tour_takes_its_density_from_its_size_not_the_machines_config(tmp_path: Path) -> None:
    searched = config(tmp_path, "[display]\ndensity = 2\n")
    tour = str(tmp_path / "tour")
    assert probe(tmp_path, "--tour", tour, "--size", "1024x600", BANKER_CONFIG=searched)["density"] == 1.25
    assert probe(tmp_path, "--tour", tour, BANKER_CONFIG=searched)["density"] == 1.0
    assert probe(tmp_path, "--tour", tour, "--size", "1024x600", "--config", searched)["density"] == 2.0


def test_full_screen_starts_with_the_touchscreens_panel_and_follows_the_screen(tmp_path: Path) -> None:
    got = probe(tmp_path, "--fullscreen", "--config", config(tmp_path, '[display]\ntouch = "touch-display-2"\n'))
    assert got["started"] == 1.5 and got["size"] == [1280, 720]
    window = got["window"]
    assert isinstance(window, list)
    # Whatever screen this machine gives a full-screen window, the density is that screen's.
    assert got["density"] == pytest.approx(panel_density(*window))
    hdmi = probe(tmp_path, "--fullscreen", "--config", config(tmp_path, '[display]\ntouch = "hdmi"\n'))
    assert hdmi["started"] == 1.0 and hdmi["window"] == window
    assert hdmi["density"] == pytest.approx(panel_density(*window))
    # The two first guesses differ (720 and 480 pixels high), so on any screen one of them was corrected.


def test_full_screen_with_a_configured_density_keeps_it(tmp_path: Path) -> None:
    got = probe(tmp_path, "--fullscreen", "--config", config(tmp_path, '[display]\ntouch = "hdmi"\ndensity = 1.8\n'))
    assert got == {"started": 1.8, "density": 1.8, "window": None, "size": [800, 480]}


@pytest.mark.parametrize("size", ["12x", "0x480", "800x480x1"])
def test_a_bad_size_is_refused_with_status_2(size: str) -> None:
    done = subprocess.run([sys.executable, "-m", "banker", "app", "--size", size], capture_output=True, text=True,
                          cwd=ROOT, env=dict(os.environ), timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith("banker app: --size must ") and repr(size) in done.stderr
