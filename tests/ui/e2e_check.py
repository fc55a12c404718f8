"""End-to-end: the settings' hardware check in the real app, offscreen, by touches, card taps on a
pseudo-terminal reader and presses of the mock GPIO dice button only (e2e_kit.py; no text set, no key sent),
in a language chosen on the settings screen as a family chooses it.

    python tests/ui/e2e_check.py check|silent LANGUAGE WORKDIR

check: the setup's card refusal goes once the family switches to on-screen buttons, and again once the cards
are registered, and does not come back with its cause; in a game, the dice button pressed on its check shows
the press and rolls nothing, a card tapped on the reader's check shows its id and whose it is and pays nothing
(the purchase waiting for it still waits, and the same tap after the check pays); a reader that answers at
once never brings the start screen's note.
silent: the reader named in the config is not there at the start: after READER_QUIET_SECONDS the start screen
says so, its button opens the check, which says what to check; the reader plugged in, the check says it is
connected and shows a card tapped; back on the start screen the note is gone.

Run by test_app_e2e.py in a subprocess; exits 0 when every step passed, else prints the failing step.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from e2e_kit import Cards, Step, play, press_button, run_app, seen, texts, touch, touch_role, widgets
from kivy.clock import Clock
from kivy.uix.button import Button
from kivy.uix.label import Label

from hardware.emulate import LineReaderEmulator
from hardware.line import SETTLE
from ui import theme
from ui.app import BankerApp
from ui.flows.settings import READER_QUIET_SECONDS
from ui.i18n import LANGUAGES

ANN, BEN = "04A32B1C", "04B7771A2C5E80"


def words(app: BankerApp) -> Callable[..., str]:
    """The app's own words in the language of the moment (looked up when a step runs)."""
    return lambda key, **params: app.session.tr(key, **params)


def language(app: BankerApp, code: str) -> list[Step]:
    """The family's language, picked on the settings screen."""
    t = words(app)
    return [("settings", lambda: touch(app, t("ui.settings"))),
            (f"pick {LANGUAGES[code]}", lambda: touch(app, LANGUAGES[code])),
            ("picked", lambda: app.session.settings.language == code),
            ("back home", lambda: touch(app, t("ui.back")))]


def said(app: BankerApp, key: str, *also: str, **params: Any) -> Callable[[], bool]:
    """The app's words `key` (with `params`), in the language of the moment, and every one of `also`, on screen."""
    return lambda: seen(app, app.session.tr(key, **params), *also)()


def shows(app: BankerApp, text: Callable[[], str], times: int, red: bool | None = None) -> Callable[[], bool]:
    """`text()` is on the screen exactly `times` times (the setup lists what still stops a start below the players,
    grey, and a refused Start turns that same line red, never saying it again: issue 54); `red`: in red or not."""
    def check() -> bool:
        found = [w for w in widgets(app) if isinstance(w, Label) and not isinstance(w, Button) and w.text == text()]
        return len(found) == times and (red is None or all((list(w.color) == list(theme.DANGER)) is red
                                                           for w in found))
    return check


def switch_taps(app: BankerApp, on: bool) -> list[Step]:
    """From the start screen: the settings' cards-or-buttons switch, and back."""
    t = words(app)
    return [("settings", lambda: touch(app, t("ui.settings"))),
            ("cards or buttons", lambda: touch_role(app, "setting taps")),
            ("switched", lambda: app.session.settings.taps is on),
            ("back home", lambda: touch(app, t("ui.back")))]


def the_check(app: BankerApp, reader: LineReaderEmulator) -> list[Step]:
    c = app.flows
    t = words(app)
    cards = Cards(reader)
    need = lambda: t("ui.setup.need_cards")  # noqa: E731
    note_seen: list[str] = []

    def watch(dt: float) -> None:  # the start screen's note must never flash for a reader that answers at once
        if app.manager.current == "home" and t("ui.home.reader_silent") in texts(app):
            note_seen.append(app.manager.current)
    Clock.schedule_interval(watch, 1 / 30)
    game: dict[str, Any] = {}

    def remember() -> bool:
        g = c.session.game
        assert g is not None
        game.update(seq=g.seq, cash=[p.cash for p in g.players], first=g.players[0].name)
        return True

    def unchanged() -> bool:
        g = c.session.game
        return g is not None and g.seq == game["seq"] and [p.cash for p in g.players] == game["cash"]

    def buy_button() -> str:
        return next(b["text"] for b in c.turn.buttons() if b["id"] == "buy")

    def to_settings_in_game() -> list[Step]:
        return [("the banker's menu", lambda: touch(app, t("ui.nav.banker"))),
                ("settings", lambda: touch(app, t("ui.settings")))]

    def back_to_table() -> list[Step]:
        return [("back to the settings", lambda: touch(app, t("ui.back"))),
                ("back to the banker's menu", lambda: touch(app, t("ui.back"))),
                ("back to the table", lambda: touch(app, t("ui.back"))),
                ("the table", lambda: app.manager.current == "table")]

    return [
        ("the reader answers", lambda: c.settings.reader == "connected"),
        # The refusal goes once the family switches to on-screen buttons ...
        ("new game", lambda: touch(app, t("ui.home.new"))),
        ("start without cards", lambda: touch(app, t("ui.setup.start"))),
        ("refused: the list's line in red, said once", shows(app, need, 1, red=True)),
        ("back home", lambda: touch(app, t("ui.back"))),
        *switch_taps(app, False),
        ("a new game again", lambda: touch(app, t("ui.home.new"))),
        ("no refusal any more", lambda: app.manager.current == "setup" and shows(app, need, 0)()),
        ("back home again", lambda: touch(app, t("ui.back"))),
        *switch_taps(app, True),  # the cause back: the refusal is not (only the grey list says it)
        ("and a new game", lambda: touch(app, t("ui.home.new"))),
        ("only the list says it, grey", lambda: app.manager.current == "setup" and shows(app, need, 1, red=False)()),
        # ... and once the cards are registered.
        ("start again without cards", lambda: touch(app, t("ui.setup.start"))),
        ("refused again, red", shows(app, need, 1, red=True)),
        ("register the first card", lambda: touch(app, t("ui.setup.register"))),
        ("the first card", cards.tap(ANN)),
        ("the second card", cards.tap(BEN)),
        ("both registered, the refusal gone", lambda: c.setup.draft is not None
         and [p.card for p in c.setup.draft.players] == [ANN, BEN] and shows(app, need, 0)()),
        ("start", lambda: touch(app, t("ui.setup.start"))),
        ("the game", lambda: c.session.game is not None and app.manager.current == "table" and remember()),
        # The dice button on its check: the press shows, nothing rolls.
        *to_settings_in_game(),
        ("check the dice button", lambda: touch_role(app, "check_dice")),
        ("waiting for a press", said(app, "ui.check.press_button")),
        ("press the dice button", press_button),
        ("the press shows", said(app, "ui.check.presses", count=1)),
        ("nothing rolled", lambda: unchanged() and c.session.last_dice == ()),
        ("press it again", press_button),
        ("two presses", said(app, "ui.check.presses", count=2)),
        ("still nothing rolled", lambda: unchanged() and c.session.last_dice == ()),
        *back_to_table(),
        # A purchase waits for the first player's card; the reader's check shows the card and pays nothing.
        ("enter real dice", lambda: touch(app, t("ui.btn.enter_dice"))),
        ("die 1", lambda: touch_role(app, "die0-1")),
        ("die 2", lambda: touch_role(app, "die1-2")),
        ("move by them", lambda: touch(app, t("ui.dice.done"))),
        ("buy", lambda: touch(app, buy_button())),
        ("waiting for the card", lambda: c.paying.pending is not None and remember()),
        *to_settings_in_game(),
        ("check the reader", lambda: touch_role(app, "check_reader")),
        ("waiting for a card", said(app, "ui.check.tap_any")),
        ("the reader's kind, port and state", lambda: said(app, "ui.check.reader_facts", status=t("ui.reader.connected"),
                                                            kind="line", port=str(reader.link))()),
        ("tap the first player's card", cards.tap(ANN)),
        ("its id and whose it is", lambda: said(app, "ui.check.card_of", ANN, player=game["first"])()),
        ("nothing paid, the purchase still waits", lambda: unchanged() and c.paying.pending is not None),
        ("another card", cards.tap(BEN)),
        ("two taps", said(app, "ui.check.taps", BEN, count=2)),
        ("still nothing paid", lambda: unchanged() and c.paying.pending is not None),
        *back_to_table(),
        ("the same card, now at the table", cards.tap(ANN)),
        ("bought", lambda: c.paying.pending is None and c.session.game is not None and c.session.game.players[0].cash < game["cash"][0]),
        ("the start screen's note never showed", lambda: not note_seen),
    ]


def silent(work: Path, code: str) -> int:
    """The reader named in the config is not there when the app starts; it is plugged in during the check."""
    config = work / "config.toml"
    link = work / "reader"
    config.write_text(f'[reader]\nurl = "{link}"\nprotocol = "line"\nretap_window = 0.2\n'
                      '[dice]\npin = 17\ndebounce = 0\n[web]\nenabled = false\n', "utf-8")
    app = BankerApp(work / "games.sqlite3", config_path=str(config), settings_file=work / "settings.json")
    t = words(app)
    plugged: dict[str, LineReaderEmulator] = {}
    plugged_at: list[float] = []

    def plug_in() -> bool:
        plugged["reader"] = LineReaderEmulator(link=link)
        return True

    def tap(uid: str) -> bool:
        plugged["reader"].tap(uid)
        return True

    def steps() -> list[Step]:
        note = lambda: t("ui.home.reader_silent")  # noqa: E731
        return [
            *language(app, code),
            ("not said at once", lambda: time.monotonic() < app.started + READER_QUIET_SECONDS - 1
             and app.manager.current == "home" and note() not in texts(app) and app.flows.settings.reader != "connected"),
            ("said after a while", lambda: note() in texts(app)),
            ("the note's way to the check", lambda: touch_role(app, "check_reader")),
            ("the check says what to do: plug it in", said(app, "ui.check.reader_missing", port=str(link))),
            ("and where to look", said(app, "ui.check.reader_port", port=str(link), config=str(config))),
            ("plug the reader in", plug_in),
            ("connected", lambda: said(app, "ui.check.reader_facts", status=t("ui.reader.connected"), kind="line",
                                         port=str(link))() and plugged_at.append(time.monotonic()) is None),
            # a line reader drops a line that may be a tail until the port has been quiet SETTLE after opening
            ("a moment", lambda: time.monotonic() > plugged_at[0] + SETTLE),
            ("tap a card", lambda: tap(ANN)),
            ("the card shows", said(app, "ui.check.taps", ANN, count=1)),
            ("back home", lambda: touch(app, t("ui.back"))),
            ("the note is gone", lambda: app.manager.current == "home" and note() not in texts(app)),
        ]
    try:
        failed, script = play(app, steps, timeout=READER_QUIET_SECONDS + 8)
    finally:
        if "reader" in plugged:
            plugged["reader"].close()
    if not failed and script is not None:
        print(f"{len(script.steps)} steps passed")
    return failed


def main() -> int:
    mode, code, work = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    work.mkdir(parents=True, exist_ok=True)
    if mode == "silent":
        return silent(work, code)

    def steps(app: Any, reader: LineReaderEmulator) -> list[Step]:
        return [*language(app, code), *the_check(app, reader)]
    failed, script = run_app(work, steps)
    if not failed and script is not None:
        print(f"{len(script.steps)} steps passed")
    return failed


if __name__ == "__main__":
    sys.exit(main())
