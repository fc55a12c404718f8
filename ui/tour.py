"""`banker app --tour DIR [--language CODE]`: scripted games through the real app, offscreen,
with a PNG of every screen.

The steps press what a family would press (through the same flow calls
the buttons make) and tap cards the way the reader reports them; after each
step the app redraws, and the first frame after that is saved as
DIR/NN-name.png. The family's editions are shown early (Settings -> Editions, empty, then two and a broken
one, "Edit on a phone" with no phone server yet, and the new-game screen offering them), from the scratch
folder's own $XDG_DATA_HOME; "Edit on a phone" again after the largest tables, on the tour's phone server, with
a phone's edits made by plain requests (ui/tour_editions.py's `phone_saves`, an `EditorPhone`); then Settings ->
"Tag the cards" (`tagging-*`, ui/tour_tagging.py: the sets, a deed, a refusal by name, a Chance card, the end of a
set tagged partly, the reader's check naming a tagged card). Besides a three-player classic game and short biznes and
brands games, the tour plays the largest tables the rulesets allow: eight
players of classic and six of biznes (shots `classic8-*`, `biznes6-*`), and
last the settings' hardware check (the start screen's note for a reader that
does not answer, the reader's check with nothing coming and with a card, the
dice button's check) and what the app says of its hardware and phone server
where it runs (`where-*`: a computer, a Pi whose config switches the phone
server off, a port taken, --no-hardware).

The whole tour is in the language given (the settings' own call,
`SettingsFlow.set_language`, before the first shot; English without one), except
the shots that show another language by name (`keyboard-polski`,
`table-russkij`...). The settings' About line shows the installed version with a
sample commit (`TOUR_COMMIT`), so that the shots are the same whichever build or
checkout takes them. After the last shot the tour writes DIR/shots.json (per
shot its file, its name, the screen's name and the texts on screen, top of the widget tree first)
and DIR/contact-sheet.png (every shot of the run at a quarter of its size,
SHEET_COLUMNS to a row, its file name under it), drawn by Kivy itself in an
offscreen frame buffer. The games and settings live in a scratch folder.

The layout test (tests/ui/test_layout.py, through tests/ui/layout_report.py) plays the same tour with
`run_tour(..., check=True, pictures=False)`: the layout checker's findings on each shot's screen, in shots.json.
"""

from __future__ import annotations

import gc
import json
import math
import os
import re
import shutil
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.base import ExceptionHandler, ExceptionManager
from kivy.clock import Clock
from kivy.core.window import Window

from banker.ruleset import editions_dir
from banker.version import format_version_line, installed_version
from ui.app import BankerApp
from ui.flows.editions import EditionsFlow
from ui.flows.report import ReportFlow
from ui.flows.settings import READER_QUIET_SECONDS
from ui.pages import (
    BANKER_PAGE,
    CASINO_PAGE,
    CHECK_DICE_PAGE,
    CHECK_READER_PAGE,
    DEEDS_PAGE,
    DICE_PAGE,
    EDITIONS_PAGE,
    HOUSERULES_PAGE,
    INPROGRESS_PAGE,
    LOG_PAGE,
    OVER_PAGE,
    PHONES_PAGE,
    REPLACE_PAGE,
    RULES_PAGE,
    SETTINGS_PAGE,
    SETUP_PAGE,
    TABLE_PAGE,
    TRADE_PAGE,
)
from ui.tags import Tagged, set_key
from ui.tour_editions import phone_saves, write_editions
from ui.tour_tagging import tagging_shots
from ui.where import Where

CARDS = {"Ann": "04A32B1C", "Ben": "04B7771A2C5E80", "Cy": "0455AA12", "Dorota": "04D0D0A1",
         "Eve": "04E5E5E5", "Francesca": "04F1F2F3F4F5F6", "Gus": "0409C0DE", "Hania": "04AA55AA"}
CARDS_THREE = ["Ann", "Ben", "Cy"]  # the first games' players
# The largest tables: classic takes 2 to 8 players, biznes 2 to 6 (their rulesets' `players`).
CLASSIC8 = list(CARDS)
BIZNES6 = CLASSIC8[:6]

# The contact sheet: each shot at 1/SHEET_SCALE of its size, SHEET_COLUMNS to a row, a caption strip
# of 1/SHEET_CAPTION of the thumbnail's height under it, SHEET_MARGIN pixels around each cell.
SHEET_COLUMNS = 8
SHEET_SCALE = 4
SHEET_CAPTION = 6
SHEET_MARGIN = 4
SHEET = "contact-sheet.png"
TEXTS = "shots.json"
STEP_SECONDS = 60
"""A step whose shot has not come after this long (the app stuck) stops the tour: a hang must not be silent."""
TOUR_COMMIT = "0123abc"
"""The commit the tour's About line shows (Settings): a sample, as long as a real one; the version is the installed
one (banker/version.py)."""
COLLECT_EVERY = 10
"""The tour collects garbage itself every so many shots, not after each frame as the app does: its tables of
eight leave about 300,000 objects alive, and a full collection after each shot (80-180 ms) made a quarter of
a tour's time (a tour at 800x480: 20.5 s, collected every 10 shots 16.3 s, and 45 MB more at its largest)."""


def steps_then(*fns: Callable[[], object]) -> Callable[[], None]:
    """One step of the tour that does each of `fns`, in order."""
    def run() -> None:
        for fn in fns:
            fn()
    return run


def tour_steps(app: BankerApp, chosen: str | None = None) -> list[tuple[str, Callable[[], Any]]]:
    """The tour's steps: (shot name, what to do before the shot). `chosen`: the tour's language (--language),
    the one every shot is in unless it shows another language by name; without one, English, with the
    ready names in Polish."""
    f = app.flows
    s = app.session
    base = chosen or "en"

    def setup() -> None:
        """Ann, Ben and Cy with their cards (a new game starts with the last game's players: the same three)."""
        f.setup.new_game()
        players(len(CARDS_THREE))
        for k, name in enumerate(CARDS_THREE):
            f.setup.set_player(k, name=name)
            f.setup.register(k)
            f.taps.card_tapped(CARDS[name])
        f.setup.register(1)
        f.taps.card_tapped(CARDS["Ann"])  # Ann's card again, for Ben: refused with her name

    def players(count: int) -> None:
        """As many players as `count` on the new-game screen: added, or the last ones' X touched."""
        while f.setup.draft is not None and len(f.setup.draft.players) < count:
            f.setup.add_player()
        while f.setup.draft is not None and len(f.setup.draft.players) > count:
            f.setup.remove_player(len(f.setup.draft.players) - 1)

    def in_progress() -> None:
        assert f.setup.draft is not None
        f.setup.draft.pin = "1234"
        f.setup.draft.setup = {
            "players": {"Ann": {"cash": 1200, "position": 0}, "Ben": {"cash": 1500, "position": 0},
                        "Cy": {"cash": 60, "position": 4}},
            "spaces": {"6": {"owner": "Ann", "houses": 2}, "8": {"owner": "Ann", "houses": 2},
                       "9": {"owner": "Ann", "houses": 1}, "16": {"owner": "Ann", "houses": 1},
                       "18": {"owner": "Ann", "houses": 1}, "19": {"owner": "Ann", "houses": 1},
                       "5": {"owner": "Ben"}, "15": {"owner": "Ben"}, "39": {"owner": "Ben", "mortgaged": True}},
        }
        f.nav.go(INPROGRESS_PAGE)

    def start() -> None:
        f.nav.go(TABLE_PAGE)
        f.setup.start()

    def tap(name: str) -> Callable[[], None]:
        return lambda: f.taps.card_tapped(CARDS[name])

    def press(verb: str, **fields: Any) -> Callable[[], None]:
        return lambda: f.paying.request({"do": verb, **fields})

    def roll(*dice: int) -> Callable[[], None]:
        return lambda: f.turn.roll(tuple(dice))

    def language(code: str) -> Callable[[], None]:
        return lambda: f.settings.set_language(code)

    def typing(code: str, k: int, *keys: str) -> Callable[[], None]:
        """The keyboard page in a language: player k's name cleared and typed anew (not kept)."""
        def run() -> None:
            f.settings.set_language(code)
            f.names.edit(k)
            for key in ("clear", *keys):
                f.names.press(key)
        return run

    def keys(*pressed: str) -> Callable[[], None]:
        """Keys of the digit pad, then its OK when the last is "ok"."""
        def run() -> None:
            for key in pressed:
                f.pad.ok() if key == "ok" else f.pad.press(key)
        return run

    def later(seconds: float) -> None:
        """The clock moves on (the wait after too many wrong PINs is over)."""
        now = s.clock
        s.clock = lambda: now() + seconds

    def start_web() -> None:
        """A real phone server on this machine only, for the QR screens."""
        from hardware.config import WebConfig

        app.start_web(WebConfig(listen=("127.0.0.1",), port=0))

    def biznes_start() -> None:
        assert f.setup.draft is not None
        f.setup.draft.setup = {
            "players": {"Ann": {"cash": 1500, "position": 0}, "Ben": {"cash": 1500, "position": 0},
                        "Cy": {"cash": 60, "position": 1}},
            "spaces": {"1": {"owner": "Ann", "houses": 1}, "3": {"owner": "Ann", "houses": 1},
                       "5": {"owner": "Ann", "houses": 1}, "25": {"owner": "Ann"}, "15": {"owner": "Cy"},
                       "12": {"owner": "Cy"}},
        }
        f.nav.go(TABLE_PAGE)
        f.setup.start()

    def reserve(amount: int) -> None:
        """The own-property auction just planned (`start_own`) gets its reserve."""
        own = f.auction.own
        assert own is not None
        own["reserve"] = amount

    def brands_start() -> None:
        assert f.setup.draft is not None
        f.setup.set_option("speed_die_round", 1)
        f.setup.draft.setup = {"players": {"Ann": {"position": 16}, "Cy": {"position": 5}},
                         "spaces": {"1": {"owner": "Cy", "houses": 2}, "3": {"owner": "Cy", "houses": 2},
                                    "6": {"owner": "Ann", "mortgaged": True}}}
        f.nav.go(TABLE_PAGE)
        f.setup.start()

    def no_game() -> None:
        """No game open any more (a running one ended first), in the tour's language."""
        f.names.cancel()
        if s.live is not None:
            if f.mode == "table":
                f.banker.end_game()
            f.home.close_game()
        f.settings.set_language(base)

    # ------------------------------------------------------------------ the largest tables
    def table_of(names: list[str], rules: str) -> Callable[[], None]:
        """A new game of `rules` with these players, each card registered by a tap."""
        def run() -> None:
            no_game()
            f.setup.new_game()
            if rules != "classic":
                f.setup.choose_rules(rules)
            players(len(names))
            for k, name in enumerate(names):
                f.setup.set_player(k, name=name)
                f.setup.register(k)
                f.taps.card_tapped(CARDS[name])
            f.nav.go(SETUP_PAGE)
        return run

    def going(cash: dict[str, int], positions: dict[str, int], spaces: dict[int, dict[str, Any]]) -> Callable[[], None]:
        """The game already going, entered on the game-in-progress screen."""
        def run() -> None:
            assert f.setup.draft is not None
            f.setup.draft.setup = {
                "players": {name: {"cash": cash[name], "position": positions.get(name, 0)} for name in cash},
                "spaces": {str(i): space for i, space in spaces.items()},
            }
            f.nav.go(INPROGRESS_PAGE)
        return run

    def deed_tapped(space: int) -> Callable[[], None]:
        """The sticker on the title deed of `space` put on the reader (tagged first, as "Tag the cards" would)."""
        def run() -> None:
            assert s.live is not None
            s.tags.assign(f"DEED{space:02d}", Tagged(set_key(s.live.header.rules), "deed", space=space))
            f.taps.card_tapped(f"DEED{space:02d}")
        return run

    def taps(*names: str) -> Callable[[], None]:
        return steps_then(*(tap(name) for name in names))

    def passes(*names: str) -> Callable[[], None]:
        return steps_then(*(press("pass", player=name) for name in names))

    def trade_screen(offer: dict[str, Any]) -> Callable[[], None]:
        """The trade screen put together: who, and what each side gives."""
        def side(items: dict[str, Any]) -> dict[str, Any]:
            return {"cash": 0, "spaces": [], "jail_cards": 0, **items}

        def run() -> None:
            f.nav.go(TABLE_PAGE)
            f.trade.offer.update({"from": offer["from"], "to": offer["to"], "give": side(offer["give"]),
                              "get": side(offer["get"])})
            f.nav.go(TRADE_PAGE)
        return run

    def agreed(offer: dict[str, Any]) -> Callable[[], None]:
        """Both players tap to agree to the trade on the screen."""
        return steps_then(press("trade", **offer), tap(offer["from"]), tap(offer["to"]), lambda: f.nav.go(TABLE_PAGE))

    def over() -> Callable[[], None]:
        return steps_then(lambda: f.nav.go(TABLE_PAGE), f.banker.end_game)

    report = f.of("ui.flows.report:ReportFlow")  # the game's report and the hall of fame
    assert isinstance(report, ReportFlow)

    def aside() -> None:
        """Back to the start screen: the new game's draft is put aside as it is (the hall of fame is the start
        screen's)."""
        f.setup.cancel()

    def taken_up() -> None:
        """New game on the start screen: the draft put aside comes back as it was."""
        f.setup.new_game()
        f.nav.go(SETUP_PAGE)

    def ready_names() -> None:
        """Every player with a ready name, by no typing: the last game's two first players each given one on
        the keyboard page (its ready names), the third's X, and two players added."""
        players(2)
        for k in range(2):
            f.names.edit(k)
            f.names.done(f.names.presets()[0])
        players(4)

    editions = f.own(EditionsFlow)

    def editor_link() -> str:
        """The phone editor's link on the tour's phone server (its page is open)."""
        shown = editions.phone_view()
        assert shown["server"]
        return shown["link"]

    def phone_server_off() -> None:
        f.settings.place(Where(pi=True, hardware=True, config="/etc/board-banker/config.toml"))
        f.phones.off_because("disabled", 8080)

    def no_editions() -> None:
        shutil.rmtree(editions_dir(), ignore_errors=True)

    # Issue 54 (points 4 and 10): each message only where it was raised, a long one never hiding the roll, the dice
    # page saying what to do, New game's refusal said once in its hint, a past game's report from the hall of fame.
    messages: dict[str, list[tuple[str, Callable[[], object]]]] = {
        "rent": [("msg-long-with-roll", press("buy"))],  # refused (Ann's already) under the roll that brought Ben there
        "deeds": [("msg-deeds-refusal", steps_then(lambda: f.nav.go(DEEDS_PAGE),
                                                   lambda: f.deeds.act("Ann", "build", 3)))],
        "banker": [("msg-banker-menu-clean", lambda: None)],  # the deeds page's refusal left behind with it
        "dice": [("touch-move-no-die", steps_then(lambda: f.turn.press({"id": "enter_dice", "action": {}}),
                                                  f.turn.dice_entered))],
        "setup": [("msg-setup-refusal", f.setup.start)],  # cards on, none registered: the hint turns red
        "fame": [("report-from-fame", lambda: report.open_past(report.past_games()[0]["game"]))],
    }

    # Eight players of classic: Ann declines Baltic Avenue and all eight bid for it; Ann buys Ben's
    # railroad; Ben lands on Cy's Boardwalk hotel and owes more than he has.
    classic_deal = {"from": "Ann", "to": "Ben", "give": {"cash": 250}, "get": {"spaces": [15]}}
    classic8 = [
        ("classic8-setup", table_of(CLASSIC8, "classic")),
        ("classic8-setup-scrolled", lambda: None),
        ("classic8-in-progress", going(
            {"Ann": 1500, "Ben": 30, "Cy": 2200, "Dorota": 900, "Eve": 640, "Francesca": 1250, "Gus": 480,
             "Hania": 300},
            {"Ben": 34, "Cy": 24, "Dorota": 11, "Eve": 19, "Francesca": 26, "Gus": 28, "Hania": 39},
            {6: {"owner": "Ann", "houses": 2}, 8: {"owner": "Ann", "houses": 2}, 9: {"owner": "Ann", "houses": 2},
             5: {"owner": "Ben"}, 15: {"owner": "Ben"}, 25: {"owner": "Ben"}, 12: {"owner": "Ben", "mortgaged": True},
             37: {"owner": "Cy", "hotel": True}, 39: {"owner": "Cy", "hotel": True},
             11: {"owner": "Dorota", "houses": 1}, 13: {"owner": "Dorota", "houses": 1},
             14: {"owner": "Dorota", "houses": 1},
             16: {"owner": "Eve"}, 18: {"owner": "Eve"}, 19: {"owner": "Eve"},
             21: {"owner": "Francesca"}, 23: {"owner": "Francesca"}, 24: {"owner": "Francesca", "mortgaged": True},
             26: {"owner": "Gus"}, 27: {"owner": "Gus"}, 29: {"owner": "Gus"},
             31: {"owner": "Hania"}, 32: {"owner": "Hania"}, 34: {"owner": "Hania"}})),
        ("classic8-turn", start),
        ("classic8-landed", roll(1, 2)),
        ("classic8-auction", steps_then(press("decline"), taps(*CLASSIC8))),
        ("classic8-auction-scrolled", lambda: None),
        ("classic8-deeds", steps_then(press("close_auction"), lambda: f.deeds.show("Ann"))),
        ("classic8-trade", trade_screen(classic_deal)),
        ("classic8-banker-corrections", steps_then(agreed(classic_deal), lambda: f.nav.go(BANKER_PAGE))),
        ("classic8-banker-corrections-scrolled", lambda: None),
        ("classic8-correction", lambda: f.banker.correct("Hania")),
        ("classic8-debt", steps_then(f.pad.cancel, lambda: f.nav.go(TABLE_PAGE), press("end_turn"), roll(2, 3))),
        ("classic8-log", lambda: f.nav.go(LOG_PAGE)),
        ("classic8-game-over", over()),
        ("classic8-report", report.open_report),
        ("classic8-report-scrolled", lambda: None),
    ]
    # Six players of biznes: Ann declines Bar mleczny and the auction goes round all six; Ann buys Ben's
    # power station at the bank's price; Ben lands on Cy's data centre with three offices.
    biznes_deal = {"from": "Ann", "to": "Ben", "give": {"cash": 150}, "get": {"spaces": [12]}}
    biznes6 = [
        ("biznes6-setup", table_of(BIZNES6, "biznes")),
        ("biznes6-setup-scrolled", lambda: None),
        ("biznes6-in-progress", going(
            {"Ann": 1500, "Ben": 60, "Cy": 1800, "Dorota": 700, "Eve": 420, "Francesca": 980},
            {"Ben": 34, "Cy": 20, "Dorota": 16, "Eve": 8, "Francesca": 27},
            {6: {"owner": "Ann", "houses": 1}, 8: {"owner": "Ann", "houses": 1}, 9: {"owner": "Ann", "houses": 1},
             12: {"owner": "Ben"},
             37: {"owner": "Cy", "houses": 3}, 38: {"owner": "Cy", "houses": 3}, 39: {"owner": "Cy", "houses": 3},
             11: {"owner": "Dorota"}, 13: {"owner": "Dorota"}, 14: {"owner": "Dorota"},
             15: {"owner": "Eve"}, 25: {"owner": "Eve"},
             21: {"owner": "Francesca"}, 23: {"owner": "Francesca"}})),
        ("biznes6-turn", start),
        ("biznes6-landed", roll(1, 2)),
        ("biznes6-auction", steps_then(press("decline"), taps(*BIZNES6))),
        ("biznes6-auction-scrolled", lambda: None),
        ("biznes6-auction-passes", passes("Ann", "Cy", "Dorota")),
        ("biznes6-trade", steps_then(passes("Eve"), trade_screen(biznes_deal))),
        ("biznes6-banker-corrections", steps_then(agreed(biznes_deal), lambda: f.nav.go(BANKER_PAGE))),
        ("biznes6-debt", steps_then(lambda: f.nav.go(TABLE_PAGE), press("end_turn"), roll(2, 3))),
        ("biznes6-deeds", lambda: f.deeds.show("Ben")),
        ("biznes6-game-over", over()),
        ("biznes6-report", report.open_report),
        ("hall-of-fame", steps_then(f.home.close_game, report.open_fame)),  # every game the tour has finished
        ("hall-of-fame-scrolled", lambda: None),
        *messages["fame"],
    ]
    largest = classic8 + biznes6

    # The Free Parking jackpot (issue 54): a classic game of three with the house rule and a seed of 100, Ben
    # already on Just Visiting. Ann rolls onto Income Tax and pays 200 into the jackpot (its line under the
    # players and the board's corner: 300); then Ben rolls onto Free Parking and takes it (back to the seed).
    def jackpot_on() -> None:
        if not f.setup.chosen_options().free_parking_pot:
            f.setup.toggle_house_rule("free_parking_pot")
        while f.setup.chosen_options().free_parking_seed < 100:
            f.setup.step_house_rule("free_parking_seed", 1)

    jackpot = [
        ("jackpot-turn", steps_then(table_of(CARDS_THREE, "classic"), jackpot_on,
                                    going({"Ann": 1500, "Ben": 1500, "Cy": 1500}, {"Ben": 10}, {}), start,
                                    roll(1, 3), press("tax", choice="flat"))),
        ("jackpot-won", steps_then(press("end_turn"), roll(4, 6))),
    ]

    # The settings' hardware checks (issue 35). The app starts its hardware as ui/app.py's start_hardware does it
    # (the tour has no reader of its own): a PN532 named in the config whose port is not there, and the dice
    # button on pin 17. The start screen says the reader is not answering once READER_QUIET_SECONDS have gone by;
    # its button opens the reader's check (nothing comes: what to check); once the reader answers, a card tapped
    # on the check during a new game's setup shows whose it is and registers nothing; the dice button's check
    # shows the presses and rolls nothing.
    def reader_not_answering() -> None:
        no_game()
        f.setup.cancel()
        f.nav.go(TABLE_PAGE)  # the start screen
        f.settings.place(Where(pi=True, hardware=True, config="/etc/board-banker/config.toml"))
        f.settings.hardware_config("/etc/board-banker/config.toml", reader_kind="pn532", reader_port="/dev/serial0",
                          dice_pin="17")
        f.settings.reader_status(False, "cannot open: [Errno 2] could not open port /dev/serial0", "missing")
        f.settings.button_status(True)
        later(READER_QUIET_SECONDS)

    def check(page: str) -> Callable[[], None]:
        return steps_then(lambda: f.nav.go(SETTINGS_PAGE), lambda: f.nav.go(page))

    hardware = [
        ("home-reader-not-answering", steps_then(no_editions, reader_not_answering)),
        ("check-reader-nothing-comes", lambda: f.nav.go(CHECK_READER_PAGE)),  # the note's own button
        ("check-reader-card", steps_then(lambda: f.settings.reader_status(True, "ready"), f.nav.back_from_check,
                                         table_of(CARDS_THREE, "classic"), lambda: f.setup.register(0),
                                         check(CHECK_READER_PAGE), tap("Ben"))),
        ("check-dice-pressed", steps_then(f.nav.back_from_check, check(CHECK_DICE_PAGE),
                                          lambda: f.turn.dice_pressed((2, 4)), lambda: f.turn.dice_pressed((3, 5)))),
    ]

    # The new game's draft (issue 54): the setup screen after a trip to Settings by the start screen (its three
    # players, house rules and PIN as they were), and New game after the first game, with its players.
    def draft_kept() -> list[tuple[str, Callable[[], Any]]]:
        return [("draft-kept-after-settings", steps_then(aside, lambda: f.nav.go(SETTINGS_PAGE),
                                                         f.nav.back_from_settings, taken_up))]

    def draft_last_players() -> list[tuple[str, Callable[[], Any]]]:
        return [("draft-last-players", steps_then(f.home.close_game, taken_up))]

    # Where the app runs (issue 54; ui/where.py): on a computer with no config file, played with on-screen buttons,
    # the reader's check says there is none, which file would set one up, and that nothing is to be done; its dice
    # button's check that a computer has no pins for one. On a Pi whose config file switches the phone server off,
    # the banker's Phones button says it is off, and its page why, naming the file; then the port taken. Last, on a
    # Pi started with --no-hardware, the reader's check names the flag.
    phones_kept: list[Any] = []

    def on_a_computer() -> None:
        f.settings.place(Where(pi=False, hardware=True, user_config="/home/ann/.config/board-banker/config.toml"))
        f.settings.hardware_config("", reader_kind="pn532", dice_pin="17")
        f.settings.reader = "none"  # as the app has it when the config names no reader
        f.settings.button_status(False, "no_gpio")
        f.settings.set_setting("taps", False)

    def phones_off_in_config() -> None:
        start()  # the setup's game, on on-screen buttons
        f.settings.place(Where(pi=True, hardware=True, config="/etc/board-banker/config.toml"))
        phones_kept[:] = [f.phones.web, f.phones.base]
        f.phones.connect(None, "", f.phones.phone_state)  # as if never started: [web] enabled = false
        f.phones.off_because("disabled", 8080)
        f.nav.go(BANKER_PAGE)

    def phones_back() -> None:
        f.phones.connect(phones_kept[0], phones_kept[1], f.phones.phone_state)
        f.settings.set_setting("taps", True)

    def no_hardware_on_a_pi() -> None:
        f.settings.place(Where(pi=True, hardware=False, config="/etc/board-banker/config.toml"))

    where = [
        ("where-reader-check-no-reader", steps_then(f.nav.back_from_check, on_a_computer, check(CHECK_READER_PAGE))),
        ("where-dice-check-computer", steps_then(f.nav.back_from_check, check(CHECK_DICE_PAGE))),
        ("where-phones-button-off", steps_then(f.nav.back_from_check, f.nav.back_from_settings, phones_off_in_config)),
        ("where-phones-off-in-config", lambda: f.nav.go(PHONES_PAGE)),
        ("where-phones-port-taken", lambda: f.phones.off_because("port_in_use", 8080)),
        # Started with --no-hardware on a Pi: the reader's check says the flag is why, and how to start without it.
        ("where-reader-check-no-hardware", steps_then(phones_back, lambda: f.nav.go(TABLE_PAGE), no_hardware_on_a_pi,
                                                      check(CHECK_READER_PAGE))),
    ]

    trade = {"from": "Ann", "to": "Ben", "give": {"cash": 250}, "get": {"spaces": [5]}}
    return [
        ("home", lambda: None),
        ("setup-players-and-cards", setup),
        ("keyboard-english", typing("en", 1, "s", "a", "m")),
        # The family's editions, between games (the draft put aside): Settings with its Editions button, the
        # page empty, then two editions and a broken file (ui/tour_editions.py, in the tour's own scratch
        # $XDG_DATA_HOME), a Delete armed, a rename's name on the keyboard, the new-game screen offering them
        # (one chosen: its title would be markup, were markup on). Then classic again, and no editions.
        ("settings-between-games", steps_then(language(base), f.names.cancel, aside, lambda: f.nav.go(SETTINGS_PAGE))),
        ("editions-empty", lambda: f.nav.go(EDITIONS_PAGE)),
        ("editions", write_editions),
        ("editions-delete-armed", lambda: editions.delete("ours")),
        ("editions-rename-name", steps_then(lambda: editions.rename("seaside"), editions.done)),
        # "Edit on a phone" on a Pi whose config file switches the phone server off: the page says so, naming the
        # file, and how to turn it on (the tour's own server starts later, for the phones' QR codes).
        ("edition-phone-off", steps_then(editions.cancel, phone_server_off, editions.edit_on_phone)),
        ("setup-editions", steps_then(editions.phone_done, taken_up, lambda: f.setup.choose_rules("ours"))),
        ("keyboard-digits", steps_then(lambda: f.setup.choose_rules("classic"), no_editions,
                                       typing("en", 1, "s", "a", "m"), lambda: f.names.press("symbols"),
                                       lambda: f.names.press("2"))),
        ("keyboard-polski", typing("pl", 2, "ł", "u", "k", "a", "s", "z")),
        ("keyboard-cestina", typing("cs", 2, "ř", "e", "h", "o", "ř")),
        ("setup-cestina", f.names.cancel),
        ("keyboard-russkij", typing("ru", 2, "ф", "ё", "д", "о", "р")),
        ("setup-russkij", f.names.cancel),
        ("keyboard-name-taken", steps_then(typing(base, 2, "a", "n", "n"))),
        ("setup-game-in-progress", steps_then(f.names.cancel, in_progress)),
        ("setup-pin", steps_then(lambda: f.nav.go(SETUP_PAGE), f.pad.new_pin, keys("1", "2"))),
        # The house rules page: the Free Parking jackpot with the bank's seed, a bonus for landing on GO, two
        # ones' bonus (none of them changes what the tour's rolls do below).
        ("setup-house-rules", steps_then(f.pad.cancel, lambda: f.nav.go(HOUSERULES_PAGE),
                                         lambda: f.setup.toggle_house_rule("free_parking_pot"),
                                         lambda: f.setup.step_house_rule("free_parking_seed", 1),
                                         lambda: f.setup.step_house_rule("free_parking_seed", 1),
                                         lambda: f.setup.toggle_house_rule("start_landing_bonus"),
                                         lambda: f.setup.toggle_house_rule("snake_eyes_bonus"))),
        ("setup-house-rules-scrolled", lambda: None),
        # The house rule buy_after_first_lap asks, of a game already going, who has been round the board (off
        # again after the shot: the tour's game buys as it goes).
        ("setup-game-in-progress-laps", steps_then(lambda: f.setup.toggle_house_rule("buy_after_first_lap"),
                                                   lambda: f.progress.toggle_lapped("Ann"),
                                                   lambda: f.nav.go(INPROGRESS_PAGE))),
        ("setup-house-rules-chosen", steps_then(lambda: f.setup.toggle_house_rule("buy_after_first_lap"),
                                                lambda: f.nav.go(SETUP_PAGE))),
        *draft_kept(),
        # The hall of fame before the tour's first game, still empty: the start screen's button (the new game's
        # draft is put aside meanwhile, and taken up again as it was).
        ("hall-of-fame-empty", steps_then(aside, report.open_fame)),
        ("turn-start", steps_then(taken_up, start)),
        ("turn-landed-on-unowned", roll(1, 2)),
        ("tap-your-card-to-buy", press("buy")),
        ("bought", tap("Ann")),
        ("cash-machine", steps_then(press("end_turn"), tap("Cy"))),
        ("rent-paid", roll(2, 4)),
        *messages["rent"],
        ("auction", steps_then(press("end_turn"), roll(3, 4), press("decline"))),
        ("auction-bids", steps_then(tap("Ann"), tap("Ben"), tap("Ann"))),
        ("deeds-and-buildings", steps_then(press("close_auction"), press("end_turn"), lambda: f.deeds.show("Ann"))),
        # Issue 57: a tagged deed put on the reader on the deeds screen is chosen there (its owner's deeds, it first,
        # marked); with nothing waiting it is shown big: a lot with houses, a railroad, a mortgaged lot.
        ("deeds-chosen-by-its-deed", deed_tapped(39)),
        ("deed-big-houses", steps_then(lambda: f.nav.go(TABLE_PAGE), deed_tapped(6))),
        ("deed-big-railroad", deed_tapped(15)),
        ("deed-big-mortgaged", deed_tapped(39)),
        ("trade", steps_then(lambda: f.trade.offer.update({"from": "Ann", "to": "Ben",
                                                           "give": {"cash": 250, "spaces": [], "jail_cards": 0},
                                                           "get": {"cash": 0, "spaces": [5], "jail_cards": 0}}),
                             lambda: f.nav.go(TRADE_PAGE))),
        ("trade-both-tap", press("trade", **trade)),
        ("debt", steps_then(tap("Ann"), tap("Ben"), lambda: f.nav.go(TABLE_PAGE), roll(1, 2), press("end_turn"),
                            roll(1, 2), press("end_turn"), roll(2, 3))),
        ("log", lambda: f.nav.go(LOG_PAGE)),
        ("house-rules-in-force", lambda: f.nav.go(RULES_PAGE)),
        *messages["deeds"],
        ("banker-pin", steps_then(lambda: f.nav.go(BANKER_PAGE), keys("1", "2"))),
        ("banker-pin-wrong", keys("3", "5", "ok")),
        ("banker-pin-wait", keys(*"1111", "ok", *"1111", "ok", *"1111", "ok", *"1111", "ok")),
        ("banker-menu", steps_then(lambda: later(31), lambda: f.banker.unlock("1234"))),
        *messages["banker"],
        ("banker-touch-again", lambda: f.banker.destructive("abandon")),
        ("banker-correction", steps_then(f.banker.other_touch, lambda: f.banker.correct("Ann"), keys("5", "0", "-"))),
        ("phones-table-code", steps_then(f.pad.cancel, start_web, lambda: f.nav.go(PHONES_PAGE))),
        ("phones-move-code", f.phones.show_move),
        ("phones-player-code", steps_then(f.phones.hide_move, lambda: f.nav.go(TABLE_PAGE), tap("Ben"))),
        ("replace-lost-card", steps_then(lambda: f.nav.go(REPLACE_PAGE), lambda: f.banker.replace_card("Ben"))),
        ("settings", lambda: f.nav.go(SETTINGS_PAGE)),
        ("table-polski", steps_then(language("pl"), lambda: f.nav.go(TABLE_PAGE))),
        ("table-cestina", language("cs")),
        ("table-russkij", language("ru")),
        ("dice-entry", steps_then(language(base), lambda: f.nav.go(DICE_PAGE))),
        *messages["dice"],
        ("game-over-chart", steps_then(lambda: f.nav.go(TABLE_PAGE), f.banker.end_game)),
        ("game-report", report.open_report),  # the three players' money in and out on its chart
        ("game-over-undo-pin", steps_then(lambda: f.nav.go(OVER_PAGE), f.banker.undo_end)),
        # A biznes game (rulebook 000): one branch office per visit, stepped and own-property auctions.
        *draft_last_players(),
        ("biznes-setup", steps_then(setup, lambda: f.setup.choose_rules("biznes"))),
        ("biznes-build-here", steps_then(biznes_start, roll(1, 2))),
        ("biznes-own-auction-setup", steps_then(press("build", space=3), tap("Ann"),
                                                lambda: f.auction.start_own("Ann", 25),
                                                lambda: reserve(120))),
        ("biznes-own-auction-pad", steps_then(f.pad.reserve, keys("1", "2", "5"))),
        ("biznes-own-auction-timer", steps_then(press("auction_own", player="Ann", space=25, reserve=120),
                                                tap("Ann"))),
        ("biznes-own-auction-sold", tap("Ben")),
        ("biznes-decline-stepped", steps_then(press("pass", player="Cy"), press("end_turn"), roll(2, 4),
                                              press("decline"))),
        ("biznes-debt", steps_then(tap("Ben"), press("pass", player="Ann"), press("end_turn"), roll(1, 2))),
        ("biznes-deeds", lambda: f.deeds.show("Cy")),
        # A brands-fast game (rulebook 001) with the speed die from the start: the casino, the bus, a pause.
        ("brands-setup", steps_then(lambda: f.nav.go(TABLE_PAGE), f.banker.end_game, f.home.close_game, setup,
                                    lambda: f.setup.choose_rules("brands-fast"))),
        ("brands-custom-table", lambda: f.nav.go(SETUP_PAGE)),
        ("brands-house-rules", steps_then(lambda: f.nav.go(HOUSERULES_PAGE),
                                          lambda: f.setup.step_house_rule("start_cash", -1),
                                          lambda: f.setup.toggle_house_rule("snake_eyes_bonus"))),
        ("brands-casino", steps_then(brands_start, roll(1, 2, 1), lambda: f.nav.go(CASINO_PAGE),
                                     lambda: f.turn.casino_toggle(2), lambda: f.turn.casino_toggle(5))),
        ("brands-casino-tap", lambda: f.paying.request({"do": "casino", "numbers": [2, 5], "die": 5})),
        ("brands-casino-result", steps_then(tap("Ann"), lambda: f.nav.go(TABLE_PAGE))),
        ("brands-bus", steps_then(press("end_turn"), roll(3, 3, 6))),
        ("brands-pause-vote", steps_then(press("bus", steps=6), press("buy"), tap("Ben"),
                                         f.clock.ask_pause,
                                         tap("Ann"))),
        ("brands-paused", steps_then(tap("Ben"), tap("Cy"))),
        # No typing at all: every player has a ready name (the last game's players given theirs from the keyboard's
        # ready names), and the keyboard offers the others.
        ("setup-ready-names", steps_then(lambda: f.nav.go(TABLE_PAGE), f.banker.end_game, f.home.close_game,
                                         language(chosen or "pl"), f.setup.new_game, ready_names)),
        *messages["setup"],
        ("keyboard-ready-names", lambda: f.names.edit(3)),
        *jackpot,
        *largest,
        # "Edit on a phone" between games, on the tour's phone server (started for the phones' QR codes): the
        # code waiting for a phone, then a phone (ui/tour_editions.py's requests, as the editor page makes them)
        # has saved a copy of classic as "Our Street", and the editions list shows it once Done.
        ("edition-phone-waiting", steps_then(lambda: f.nav.go(SETTINGS_PAGE), lambda: f.nav.go(EDITIONS_PAGE),
                                             editions.edit_on_phone)),
        ("edition-phone-editing", steps_then(lambda: phone_saves(editor_link(), "our-street",
                                                                 "Our Street"), editions.tick)),
        ("editions-from-phone", editions.phone_done),
        *tagging_shots(app),  # Settings -> Tag the cards, between games (ui/tour_tagging.py)
        *hardware,
        *where,
        *words_shots(app, base),
    ]


def words_shots(app: BankerApp, base: str) -> list[tuple[str, Callable[[], Any]]]:
    """Issue 54's words, after the rest of the tour (so that no earlier shot changes): a classic game of Ann and
    Ben with cards, Ann on the jail's space only visiting, then ended at once in a tie (both as rich: they share
    the first place, the phones' link named on its button); Ann landing exactly on GO with its house rule on
    (the money's lines name GO as the ruleset does); then a game with on-screen buttons instead of cards
    (the settings' call, switched back after the last shot): the new-game screen's optional card, the settings'
    switch, an auction whose opening bid is what its Bid buttons bid, a trade agreed by a touch, the banker's
    menu without the stand-ins for a forgotten card."""
    f, s = app.flows, app.session

    def fresh(names: list[str], cards: bool) -> None:
        """A new classic game of `names` (their cards registered by taps when `cards`), started."""
        f.names.cancel()
        if f.settings.check is not None:
            f.nav.back_from_check()
        if s.live is not None:
            if f.mode == "table":
                f.banker.end_game()
            f.home.close_game()
        f.settings.set_language(base)
        f.setup.new_game()  # the last game's players, with their cards: these instead, registered afresh
        draft = f.setup.draft
        assert draft is not None
        while len(draft.players) > len(names):
            f.setup.remove_player(len(draft.players) - 1)
        while len(draft.players) < len(names):
            f.setup.add_player()
        for p in draft.players:
            p.card = None
        for k, name in enumerate(names):
            f.setup.set_player(k, name=name)
            if cards:
                f.setup.register(k)
                f.taps.card_tapped(CARDS[name])

    def start() -> None:
        f.nav.go(TABLE_PAGE)
        f.setup.start()

    def buttons(on: bool) -> None:
        f.settings.set_setting("taps", not on)

    offer = {"from": "Ann", "to": "Ben", "give": {"cash": 0, "spaces": [3], "jail_cards": 0},  # the lot she won
             "get": {"cash": 100, "spaces": [], "jail_cards": 0}}
    return [
        ("words-just-visiting", steps_then(lambda: fresh(["Ann", "Ben"], True), start, lambda: f.turn.roll((4, 6)))),
        ("words-tie", steps_then(lambda: f.nav.go(TABLE_PAGE), lambda: f.banker.end_game())),
        ("words-go-bonus", steps_then(lambda: fresh(["Ann", "Ben"], True),
                                      lambda: f.setup.toggle_house_rule("start_landing_bonus"),
                                      lambda: setattr(f.setup.draft, "setup", {"players": {"Ann": {"position": 36}}}),
                                      start,
                                      lambda: f.turn.roll((1, 3)))),  # lands on GO: the bonus names it as the board does
        ("buttons-setup", steps_then(lambda: buttons(True), lambda: fresh(["Ann", "Ben"], False),
                                     lambda: f.nav.go(SETUP_PAGE))),
        ("buttons-settings-switch", steps_then(start, lambda: f.nav.go(SETTINGS_PAGE))),
        ("buttons-auction", steps_then(lambda: f.nav.go(TABLE_PAGE), lambda: f.turn.roll((1, 2)),
                                       lambda: f.paying.request({"do": "decline"}))),
        ("buttons-trade", steps_then(lambda: f.auction.bid_button("Ann"),
                                     lambda: f.paying.request({"do": "close_auction"}),
                                     lambda: f.nav.go(TABLE_PAGE), lambda: f.trade.offer.update(offer),
                                     lambda: f.nav.go(TRADE_PAGE))),
        ("buttons-banker-menu", steps_then(lambda: f.nav.go(TABLE_PAGE), lambda: f.nav.go(BANKER_PAGE))),
        ("buttons-home", steps_then(lambda: f.nav.go(TABLE_PAGE), lambda: f.banker.end_game(),
                                    lambda: f.home.close_game())),
        ("words-cards-again", steps_then(lambda: buttons(False), lambda: f.nav.go(SETTINGS_PAGE))),
    ]


Steps = Callable[[BankerApp, str | None], list[tuple[str, Callable[[], Any]]]]
"""What `tour_steps` is: the steps for an app and a language."""


def shot_file(k: int, name: str, count: int) -> str:
    """The k-th shot's file (from 0) of a tour of `count` steps: "007-setup-cestina.png" once the tour has 100 steps
    or more, "07-setup-cestina.png" below, so that the files sort in the tour's order. The width comes from the
    whole tour, also when --tour-shots plays only its first few."""
    return f"{k + 1:0{max(2, len(str(count)))}d}-{name}.png"


def run_tour(out: Path, scratch: Path, language: str | None = None, *, check: bool = False,
             pictures: bool = True, steps: Steps | None = None, first: int | None = None) -> int:
    """Play the tour (in `language`, or English), writing the shots, shots.json and the contact sheet into `out`.

    Each shot is taken on the second frame after its step (the screen manager swaps screens on the frame
    after a redraw); a shot named "...-scrolled" first has every list scrolled to its end. `check`: each
    shot's entry in shots.json also gets "layout", what the layout checker finds on the screen as shot
    (`layout_findings`). `pictures=False`: no PNG and no contact sheet (each shot's "file" is None, and
    so is "contact_sheet"), for a check alone. `steps`: another `tour_steps` (the layout report's
    --tour-at). `first`: only the first so many shots (--tour-shots). The same loop serves `banker app --tour`
    and the layout test, so the test checks exactly the screens the tour photographs."""
    out.mkdir(parents=True, exist_ok=True)
    os.environ["XDG_DATA_HOME"] = str(scratch / "data")  # the tour's editions: its own, never the user's
    app = BankerApp(scratch / "games.sqlite3", hardware=False, phones=False, settings_file=scratch / "settings.json",
                    voice=False, motion=False)
    state: dict[str, Any] = {"k": 0, "failed": None, "shots": [], "since": time.monotonic()}
    errors = _AppErrors()

    def fail(why: str) -> None:
        if state["failed"] is None:
            state["failed"] = why
        app.stop()

    def next_step(dt: float = 0) -> None:
        steps = state["steps"]
        k = state["k"]
        state["since"] = time.monotonic()
        if k >= len(steps):
            finish()
            return
        name, fn = steps[k]
        try:
            fn()
            app.redraw()
        except Exception as exc:  # a tour that cannot go on says where, and exits non-zero
            fail(f"step {k} ({name}): {exc!r}\n{traceback.format_exc()}")
            return
        scroll = name.endswith("-scrolled")  # the lists scrolled to their ends, as a finger's swipe leaves them
        # The screen manager swaps screens on the frame after a redraw: shoot the one after that.
        def second_frame() -> None:
            if scroll:  # the lists laid out: scroll them to their ends, and shoot the second frame after that
                scroll_to_ends()
                app.flip_callbacks.append(second_frame_plain)
                Window.canvas.ask_update()  # a frame even when nothing scrolled (no list to scroll)
            else:
                second_frame_plain()

        def second_frame_plain() -> None:
            app.flip_callbacks.append(lambda: Clock.schedule_once(lambda dt: shoot(k, name), 0))
            Window.canvas.ask_update()

        app.flip_callbacks.append(second_frame)
        Window.canvas.ask_update()

    def watch(dt: float) -> None:
        """A step whose shot does not come (the app stuck, or its frames never drawn) stops the tour."""
        if state["failed"] is None and time.monotonic() - state["since"] > STEP_SECONDS:
            steps = state.get("steps") or []
            name = steps[state["k"]][0] if state["k"] < len(steps) else "the end"
            fail(f"step {state['k']} ({name}): no shot after {STEP_SECONDS} s")

    def shoot(k: int, name: str) -> None:
        if errors.seen:  # the app hit a bug (its handler kept it running): the shot would show the wreck
            fail(f"step {k} ({name}): the app failed: {errors.seen[0]}")
            return
        file: str | None = None
        if pictures:
            saved = Window.screenshot(name=str(out / "shot.png"))
            if saved:
                file = shot_file(k, name, state["count"])
                shutil.move(saved, out / file)
        if file is not None or not pictures:
            shot: dict[str, Any] = {"file": file, "name": name, "screen": app.manager.current,
                                    "texts": screen_texts()}
            if check:
                try:
                    shot["layout"] = layout_findings(app)
                except Exception as exc:  # a checker that cannot look says so, and the tour exits non-zero
                    fail(f"the layout check of step {k} ({name}): {exc!r}\n{traceback.format_exc()}")
                    return
            state["shots"].append(shot)
        state["k"] = k + 1
        if state["k"] % COLLECT_EVERY == 0:
            gc.collect()
        Clock.schedule_once(next_step, 0)

    def finish() -> None:
        try:
            (out / TEXTS).write_text(json.dumps(
                {"language": app.session.settings.language if language is None else language,
                 "size": [int(Window.width), int(Window.height)], "contact_sheet": SHEET if pictures else None,
                 "shots": state["shots"]},
                ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
            if pictures:
                contact_sheet([out / shot["file"] for shot in state["shots"]],
                              (int(Window.width), int(Window.height)), out / SHEET)
        except Exception as exc:
            state["failed"] = f"the contact sheet: {exc!r}"
        app.stop()

    def begin(*_: Any) -> None:
        ExceptionManager.add_handler(errors)
        Clock.schedule_interval(watch, 1.0)
        if language is not None:
            app.flows.settings.set_language(language)  # what the settings' language button does
        app.flows.settings.version = format_version_line(installed_version(), TOUR_COMMIT)
        every = (steps or tour_steps)(app, language)
        state["count"] = len(every)  # the whole tour's: --tour-shots names its files as the whole tour does
        state["steps"] = every[:first]
        app.collect_at_frames = False  # collected every COLLECT_EVERY shots instead (shoot)
        Clock.schedule_once(next_step, 0.1)

    Clock.schedule_once(begin, 0)
    app.run()
    if app.web is not None:
        app.web.stop()
    if state["failed"]:
        # Kivy sends sys.stderr to its log (off unless BANKER_KIVY_LOG): say it on the real one.
        print(f"banker app --tour: {state['failed']}", file=sys.__stderr__ or sys.stderr)
        return 1
    shutil.rmtree(scratch, ignore_errors=True)
    return 0


class _AppErrors(ExceptionHandler):
    """Notes each exception the app's own handler (ui/app.py's KeepRunning) lets it survive, so that the tour
    fails where the family would have seen "Something went wrong"; decides nothing itself."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def handle_exception(self, exc: BaseException) -> int:
        self.seen.append("".join(traceback.format_exception(exc)).strip())
        return int(ExceptionManager.RAISE)  # no say: KeepRunning's PASS still keeps the app running


def layout_findings(app: BankerApp) -> list[str]:
    """What the layout checker (ui/layout.py) finds on the window as it is now, a line each: `problems` of
    every widget tree in the window, the marked figures under theme.MIN_FIGURE, and the figures this
    screen must show (`layout.required_figures`: by the screen's name, and 'owed' on the turn screen
    while someone owes and its debt panel shows) that no widget is marked with."""
    from ui import layout

    size = (int(Window.width), int(Window.height))
    screen = app.manager.current
    debt_panel = screen == TABLE_PAGE and bool(app.flows.deeds.debts())
    required = layout.required_figures(screen, debt_panel)
    found: list[str] = []
    roots = list(reversed(Window.children))  # the screens, then anything drawn over them
    for root in roots:
        found += layout.problems(root, size)
    for root in roots:
        found += layout.figures_too_small(root, size)
    shown = set().union(*(layout.figures_shown(root, required) for root in roots))
    found += [f"figure '{role}' not on the screen (the {screen} screen shows {layout.FIGURE_ROLES[role]})"
              for role in required if role not in shown]
    return found


_MARKUP = re.compile(r"\[/?(?:b|i|u|s|sub|sup|color|size|font|font_family|font_context|ref|anchor|text_language)"
                     r"(?:=[^\]]*)?\]")


def screen_texts() -> list[str]:
    """The texts on screen now: every label's and button's text in the window's widget tree (each parent's
    children in the order they were added, overlays such as a popup after the screen), without markup."""
    from kivy.uix.label import Label

    texts: list[str] = []

    def walk(widget: Any) -> None:
        if getattr(widget, "opacity", 1) == 0:
            return
        if isinstance(widget, Label) and widget.text.strip():
            text = widget.text
            if widget.markup:
                text = _MARKUP.sub("", text).replace("&bl;", "[").replace("&br;", "]").replace("&amp;", "&")
            texts.append(text)
        for child in reversed(widget.children):
            walk(child)

    for root in reversed(Window.children):
        walk(root)
    return texts


def scroll_to_ends() -> None:
    """Every scrolling list on screen at its end (the last rows in view), as a finger's swipe leaves it."""
    from kivy.uix.scrollview import ScrollView

    def walk(widget: Any) -> None:
        if isinstance(widget, ScrollView) and widget.do_scroll_y:
            widget.scroll_y = 0
            widget.update_from_scroll()
        for child in widget.children:
            walk(child)

    for root in Window.children:
        walk(root)
    Window.canvas.ask_update()


def sheet_size(count: int, shot: tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int], int]:
    """The contact sheet's size, a thumbnail's size and the caption strip's height, for `count` shots of
    size `shot`."""
    thumb = (shot[0] // SHEET_SCALE, shot[1] // SHEET_SCALE)
    caption = thumb[1] // SHEET_CAPTION
    columns = min(SHEET_COLUMNS, max(count, 1))
    rows = max(1, math.ceil(count / SHEET_COLUMNS))
    width = columns * (thumb[0] + 2 * SHEET_MARGIN)
    height = rows * (thumb[1] + caption + 2 * SHEET_MARGIN)
    return (width, height), thumb, caption


def contact_sheet(shots: list[Path], shot_size: tuple[int, int], path: Path) -> None:
    """All `shots` tiled in one PNG at `path`: a grid in the tour's order, each scaled down (mipmapped, so
    small text stays legible) with its file name under it. Drawn in an offscreen frame buffer, as Kivy has
    no image library of its own to compose with; needs the window's GL context."""
    from kivy.core.image import Image as CoreImage
    from kivy.core.text import Label as CoreLabel
    from kivy.graphics import ClearBuffers, ClearColor, Color, Rectangle
    from kivy.graphics.fbo import Fbo

    (width, height), (tw, th), caption = sheet_size(len(shots), shot_size)
    cell_w, cell_h = tw + 2 * SHEET_MARGIN, th + caption + 2 * SHEET_MARGIN
    font = max(8, round(caption * 0.7))
    fbo = Fbo(size=(width, height), with_stencilbuffer=False)
    keep: list[Any] = []  # the textures stay alive until the frame buffer has drawn them
    with fbo:
        ClearColor(0.12, 0.12, 0.14, 1)
        ClearBuffers()
        for k, shot in enumerate(shots):
            x = (k % SHEET_COLUMNS) * cell_w + SHEET_MARGIN
            top = height - (k // SHEET_COLUMNS) * cell_h - SHEET_MARGIN
            image = CoreImage(str(shot), mipmap=True)
            texture = image.texture
            texture.min_filter = "linear_mipmap_linear"
            texture.mag_filter = "linear"
            keep.append(image)
            Color(1, 1, 1, 1)
            Rectangle(texture=texture, pos=(x, top - th), size=(tw, th))
            label = CoreLabel(text=shot.stem, font_size=font, color=(0.9, 0.9, 0.9, 1))
            label.refresh()
            text = label.texture
            keep.append(label)
            w, h = text.size
            if w > tw:  # a long name is drawn smaller to fit the thumbnail's width, never cut
                w, h = tw, h * tw / w
            Rectangle(texture=text, pos=(x, top - th - caption + (caption - h) / 2), size=(w, h))
    fbo.draw()
    fbo.texture.save(str(path), flipped=True)
