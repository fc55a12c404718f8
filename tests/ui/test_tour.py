"""`banker app --tour DIR --size WxH --language CODE`: the tour in a language and a size, the largest tables
(eight players of classic, six of biznes), DIR/shots.json with the texts of every shot, and the contact sheet.

One tour is read (Polish at 1280x720, about 30 s): the one tests/ui/test_layout.py plays for its layout check,
with its PNGs and contact sheet (tests/ui/layout_report.py's `tours`: `banker app --tour`'s own code, ui/cli.py's
`run`, with the check on; played here when test_layout.py has not run). The English tour at 800x480 from the
command line is tests/ui/test_app_e2e.py::test_the_tour_writes_every_screen."""

from __future__ import annotations

import json
import math
import os
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import layout_report
import pytest

from ui.i18n import LANGUAGES, Translator

ROOT = Path(__file__).resolve().parents[2]
# One worker plays the tours of this file and the other (tests/ui/test_layout.py, tests/ui/test_tour.py) once:
# scripts/test.sh runs pytest-xdist with --dist loadgroup, which also sends this largest group out first.
pytestmark = pytest.mark.xdist_group("tours")
SIZE = (1280, 720)

# The contact sheet as ui/tour.py draws it: each shot at a quarter of its size, eight to a row, a caption
# strip of a sixth of the thumbnail's height under it and a 4 px margin around each cell.
COLUMNS, SCALE, CAPTION, MARGIN = 8, 4, 6, 4


def run(*args: str, timeout: int = 300) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    return subprocess.run([sys.executable, "-m", "banker", "app", *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=timeout)


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's header (its IHDR chunk)."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", path.name
    width, height = struct.unpack(">II", head[16:24])
    return int(width), int(height)


@pytest.fixture(scope="module")
def tour(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    pair = (f"{SIZE[0]}x{SIZE[1]}", "pl")
    toured = layout_report.tours([pair], tmp_path_factory.mktemp("tour"), pictures=[pair])[pair]
    assert toured.returncode == 0, toured.output
    return toured.out, toured.shots


def by_name(shots: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {shot["name"]: shot for shot in shots["shots"]}


def test_the_tours_tests_share_one_worker(request: pytest.FixtureRequest) -> None:
    """Under scripts/test.sh's --dist loadgroup, pytest-xdist marks this file's and test_layout.py's tests as
    one group (their node ids end in "@tours"), so one worker plays the tours once; a pytest whose node ids
    no longer take the mark (9.2: pytest-dev/pytest-xdist#1386, hence pyproject.toml's pin) would have every
    worker play all twelve."""
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not a pytest-xdist worker under --dist loadgroup (run by scripts/test.sh)")
    assert request.node.nodeid.endswith("@tours"), request.node.nodeid


def test_every_shot_is_listed_with_its_texts(tour: tuple[Path, dict[str, Any]]) -> None:
    out, shots = tour
    files = sorted(p.name for p in out.glob("[0-9]*.png"))
    assert [shot["file"] for shot in shots["shots"]] == files
    assert shots["language"] == "pl" and shots["size"] == list(SIZE) and shots["contact_sheet"] == "contact-sheet.png"
    width = 3 if len(shots["shots"]) >= 100 else 2  # the files sort in the tour's order past shot 99
    for k, shot in enumerate(shots["shots"]):
        assert shot["file"] == f"{k + 1:0{width}d}-{shot['name']}.png"
        assert shot["texts"] and all(isinstance(t, str) and t for t in shot["texts"]), shot["name"]
        assert isinstance(shot["screen"], str) and isinstance(shot["layout"], list), shot["name"]


def test_the_tour_in_polish(tour: tuple[Path, dict[str, Any]]) -> None:
    _, shots = tour
    pl, en = Translator("pl"), Translator("en")
    named = by_name(shots)
    for name, key in (("home", "ui.home.new"), ("classic8-setup", "ui.setup.title"), ("classic8-turn", "ui.btn.roll"),
                      ("biznes6-setup", "ui.setup.title"), ("biznes6-turn", "ui.btn.roll"),
                      ("classic8-banker-corrections", "ui.banker.title"), ("dice-entry", "ui.dice.enter")):
        assert pl(key) != en(key)
        assert pl(key) in named[name]["texts"], (name, named[name]["texts"])
    english = {en("ui.btn.roll"), en("ui.setup.title"), en("ui.banker.title"), en("ui.home.new")}
    for shot in shots["shots"]:
        if shot["name"].startswith("keyboard-english") or shot["name"] == "keyboard-digits":
            continue  # the English keyboard, shown by name
        assert not english & set(shot["texts"]), shot["name"]
    # The shots that show another language by name keep it.
    assert any("Ходит" in t or "ы" in t for t in named["table-russkij"]["texts"])
    assert en("ui.cancel") in named["keyboard-english"]["texts"]


def test_the_shots_are_the_size_asked(tour: tuple[Path, dict[str, Any]]) -> None:
    out, shots = tour
    for shot in shots["shots"]:
        assert png_size(out / shot["file"]) == SIZE, shot["file"]


def test_the_largest_tables(tour: tuple[Path, dict[str, Any]]) -> None:
    _, shots = tour
    named = by_name(shots)
    eight = ["Ann", "Ben", "Cy", "Dorota", "Eve", "Francesca", "Gus", "Hania"]
    for table, players in (("classic8", eight), ("biznes6", eight[:6])):
        for screen in ("setup", "in-progress", "turn", "auction", "trade", "banker-corrections", "debt", "game-over"):
            assert f"{table}-{screen}" in named, f"{table}-{screen}"
        for screen in ("turn", "banker-corrections", "game-over"):
            texts = " ".join(named[f"{table}-{screen}"]["texts"])
            assert all(p in texts for p in players), (table, screen, texts)
        auction = " ".join(named[f"{table}-auction"]["texts"])  # every bidder has a row
        assert all(p in auction for p in players), auction
    assert "Gus" not in " ".join(named["biznes6-setup"]["texts"])  # six, not eight


def test_the_report_and_the_hall_of_fame(tour: tuple[Path, dict[str, Any]]) -> None:
    """Issue 42: the game's report after each of the largest games, every player in it; the hall of fame empty at
    the start and, at the end, over the games the tour finished."""
    _, shots = tour
    named = by_name(shots)
    pl = Translator("pl")
    eight = ["Ann", "Ben", "Cy", "Dorota", "Eve", "Francesca", "Gus", "Hania"]
    for table, players in (("classic8", eight), ("biznes6", eight[:6])):
        shot = named[f"{table}-report"]
        assert shot["screen"] == "report"
        texts = shot["texts"]
        assert pl("ui.report.title") in texts
        assert any(t.startswith(pl("ui.report.length", length="")[:-1]) for t in texts), texts
        assert all(any(t.endswith(f". {p}") for t in texts) for p in players), texts
    assert named["hall-of-fame-empty"]["screen"] == "fame"
    assert pl("ui.fame.empty") in named["hall-of-fame-empty"]["texts"]
    fame = named["hall-of-fame"]["texts"]
    assert pl("ui.fame.title") in fame and any(t.startswith("Ukończone gry: ") for t in fame), fame
    assert any(t.startswith("1. ") for t in fame) and any(t.startswith(pl("ui.fame.longest", game=1, length="")[:12])
                                                        for t in fame), fame


def test_the_free_parking_jackpot_and_the_typed_link(tour: tuple[Path, dict[str, Any]]) -> None:
    """Issue 54: the jackpot's line and the board's corner read 300 after Ann's tax, 100 (the seed) after Ben took
    it; the phones page's link is made of the typed alphabet (ui/tokens.py), no look-alikes."""
    _, shots = tour
    named = by_name(shots)
    pl = Translator("pl")
    for name, amount in (("jackpot-turn", "300"), ("jackpot-won", "100")):
        texts = named[name]["texts"]
        assert named[name]["screen"] == "table" and pl("ui.pot.label") in texts, texts
        assert texts.count(amount) == 2, texts  # the line under the players and the board's Free Parking corner
    link = next(t for t in named["phones-table-code"]["texts"] if "/g/" in t)
    token = link.rsplit("/g/", 1)[1]
    assert set(token) <= set("23456789abcdefghijkmnpqrstuvwxyz") and len(token) >= 26, link


def test_the_contact_sheet(tour: tuple[Path, dict[str, Any]]) -> None:
    out, shots = tour
    count = len(shots["shots"])
    thumb = (SIZE[0] // SCALE, SIZE[1] // SCALE)
    rows = math.ceil(count / COLUMNS)
    expected = (COLUMNS * (thumb[0] + 2 * MARGIN), rows * (thumb[1] + thumb[1] // CAPTION + 2 * MARGIN))
    sheet = out / "contact-sheet.png"
    assert png_size(sheet) == expected
    assert sheet.stat().st_size > 100_000  # drawn, not an empty frame


def test_an_unknown_language_is_refused_before_a_window_opens(tmp_path: Path) -> None:
    refused = run("--tour", str(tmp_path / "tour"), "--language", "de", timeout=60)
    assert refused.returncode == 2
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1, refused.stderr
    assert "'de'" in lines[0] and all(code in lines[0] for code in LANGUAGES)
    assert not (tmp_path / "tour").exists()
    assert "Kivy" not in refused.stdout + refused.stderr


def test_the_first_shots_alone(tmp_path: Path) -> None:
    """--tour-shots N: the tour's first N shots and no more (what tests/deploy/arm64_install.sh takes on an
    emulated Pi), listed in shots.json and on the contact sheet."""
    out = tmp_path / "tour"
    toured = run("--tour", str(out), "--size", "800x480", "--tour-shots", "3", timeout=120)
    assert toured.returncode == 0, toured.stdout + toured.stderr
    files = sorted(p.name for p in out.glob("[0-9]*.png"))
    # numbered as in the whole tour (over 99 shots: three digits), the start screen and a new game's first pages
    assert files == ["001-home.png", "002-setup-players-and-cards.png", "003-keyboard-english.png"], files
    listed = json.loads((out / "shots.json").read_text())["shots"]
    assert [shot["file"] for shot in listed] == files
    assert png_size(out / "contact-sheet.png")[0] > 0


@pytest.mark.parametrize("args, words", [
    (("--tour", "DIR", "--tour-shots", "0"), 'must be a whole number from 1 to 999, not "0"'),
    (("--tour", "DIR", "--tour-shots", "three"), 'must be a whole number from 1 to 999, not "three"'),
    (("--tour-shots", "3"), "--tour-shots goes with --tour"),
])
def test_tour_shots_refused_before_a_window_opens(tmp_path: Path, args: tuple[str, ...], words: str) -> None:
    refused = run(*(str(tmp_path / "tour") if a == "DIR" else a for a in args), timeout=60)
    assert refused.returncode == 2
    assert words in refused.stderr, refused.stderr
    assert not (tmp_path / "tour").exists()
    assert "Kivy" not in refused.stdout + refused.stderr


def test_the_familys_editions(tour: tuple[Path, dict[str, Any]]) -> None:
    """Settings between games offers the editions; the page empty says so; with two editions and a broken file
    it lists their titles and the broken one's reason; the new-game screen offers the playable ones after the
    shipped rulesets (ui/tour_editions.py, in the tour's own scratch folder)."""
    _, shots = tour
    pl = Translator("pl")
    named = by_name(shots)
    assert [shot["name"] for shot in shots["shots"][3:10]] == [
        "settings-between-games", "editions-empty", "editions", "editions-delete-armed", "editions-rename-name",
        "edition-phone-off", "setup-editions"]
    assert pl("ui.settings.editions") in named["settings-between-games"]["texts"]
    assert pl("ui.settings.editions") not in named["settings"]["texts"]  # the tour's settings during its game
    assert pl("ui.editions.none") in named["editions-empty"]["texts"]
    listed = named["editions"]["texts"]
    assert {"Broken Board", "[b]Ours[/b] & <i>", "Seaside Town", "ours", "seaside"} <= set(listed)
    assert any(t.startswith("broken: ") and "start_cash" in t for t in listed), listed
    assert pl("ui.editions.delete_again") in named["editions-delete-armed"]["texts"]
    assert pl("ui.editions.type_name", name="seaside") in named["editions-rename-name"]["texts"]
    offered = named["setup-editions"]["texts"]
    assert offered.index(pl("ui.rules.classic")) < offered.index("[b]Ours[/b] & <i>") < offered.index("Seaside Town")
    assert "Broken Board" not in offered


def test_edit_on_a_phone(tour: tuple[Path, dict[str, Any]]) -> None:
    """"Edit on a phone": with the phone server off in the config the page says so and how to turn it on, and shows
    no code; on the
    tour's phone server its code waits for a phone as a QR code and a link, then a phone's save (the editor's own
    requests) shows as editing with the title saved, and the editions list has it once Done."""
    _, shots = tour
    pl = Translator("pl")
    named = by_name(shots)
    off = named["edition-phone-off"]
    assert off["screen"] == "edition_phone"
    assert pl("ui.where.phones_disabled", config="/etc/board-banker/config.toml") in off["texts"]
    assert not any("/e/" in t for t in off["texts"])
    waiting, editing = named["edition-phone-waiting"], named["edition-phone-editing"]
    assert waiting["screen"] == editing["screen"] == "edition_phone"
    assert pl("ui.editions.phone_waiting") in waiting["texts"]
    links = [t for t in waiting["texts"] if t.startswith("http://127.0.0.1:") and "/e/\n" in t]  # the code below
    assert len(links) == 1 and links[0] in editing["texts"]  # the same code, now claimed
    assert pl("ui.editions.phone_editing") in editing["texts"]
    assert pl("ui.editions.phone_saved", titles="Our Street") in editing["texts"]
    listed = named["editions-from-phone"]["texts"]
    assert named["editions-from-phone"]["screen"] == "editions" and {"Our Street", "our-street"} <= set(listed)


def test_where_the_app_runs(tour: tuple[Path, dict[str, Any]]) -> None:
    """What the app says of its hardware and its phone server depends on where it runs (issue 54, ui/where.py): a
    computer with no config file, on-screen buttons on; a Pi whose config switches the phone server off; the port
    taken; --no-hardware on a Pi."""
    _, shots = tour
    pl = Translator("pl")
    named = by_name(shots)
    reader = named["where-reader-check-no-reader"]
    assert reader["screen"] == "check_reader"
    assert {pl("ui.check.no_reader"), pl("ui.check.buttons_on"),
            pl("ui.where.reader_no_config", config="/home/ann/.config/board-banker/config.toml")} <= set(reader["texts"])
    assert pl("ui.check.tap_any") not in reader["texts"] and pl("ui.check.use_buttons") not in reader["texts"]
    dice = named["where-dice-check-computer"]
    assert dice["screen"] == "check_dice" and pl("ui.where.dice_computer") in dice["texts"]
    assert named["where-phones-button-off"]["screen"] == "banker"
    assert pl("ui.phones.button_off") in named["where-phones-button-off"]["texts"]
    off = named["where-phones-off-in-config"]
    assert off["screen"] == "phones"
    assert pl("ui.where.phones_disabled", config="/etc/board-banker/config.toml") in off["texts"]
    assert pl("ui.where.phones_port", port="8080") in named["where-phones-port-taken"]["texts"]
    flag = named["where-reader-check-no-hardware"]
    assert pl("ui.where.reader_no_hardware_pi") in flag["texts"] and pl("ui.check.no_reader") in flag["texts"]
