"""The real app, offscreen, playing a game on a data folder that can lose power (issue 58): run by
test_power_cuts_app.py in a subprocess, its data folder inside tests/powercut.py's filesystem.

    python tests/ui/cut_app.py play DATA WORK
    python tests/ui/cut_app.py resume DATA WORK

DATA is the app's XDG_DATA_HOME: the journal, settings.json, draft.json and tags.json are in DATA/board-banker/,
where `banker app` keeps them. WORK (outside the filesystem) holds the hardware config, the card reader's
pseudo-terminal link and the sounds cache.

- "play": a classic game by touches and card taps only (the helpers in e2e_kit.py). A deed's sticker tagged
  (tags.json), New game and both cards registered (the draft), Start (the game), twelve turns of real dice
  entered on the dice screen with three purchases by card and their rents, an undo, a settings change by touch,
  and the banker's End with its second touch (the game's end and its summary), then Done. Once the family sees
  each of these done (a frame drawn after it: the app draws nothing before the journal's commit is in,
  ui/app.py's `redraw`), the script puts a marker in the filesystem's record (`powercut.mark`):
  ``ack {"n": N, "what": ..., "files": {...}}``, N the actions committed for the game so far (null before the
  game exists) and "files" each data file as the product's own loader reads it then (null: no file). The last
  line printed is "N steps passed".
- "resume": the app started on a data folder a cut left: it must come up with no error shown, on the turn
  screen of the game the journal holds unfinished (its actions all there), or on the start screen when the
  game is finished or there is none. Prints "resume: SCREEN".

Exits 0 when every step passed; otherwise prints the failing step.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

MODE, DATA, WORK = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
os.environ["XDG_DATA_HOME"] = str(DATA)
os.environ["XDG_CACHE_HOME"] = str(WORK / "cache")  # the sounds cache: not the data folder under test
os.environ["HOME"] = str(WORK / "home")
HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from e2e_kit import Cards, Step, by_role, play, touch, touch_role  # noqa: E402  (sets Kivy up first)
from kivy.core.window import Window  # noqa: E402

from banker.journal import default_path  # noqa: E402
from hardware.emulate import LineReaderEmulator  # noqa: E402
from powercut import mark  # noqa: E402
from ui.app import BankerApp  # noqa: E402
from ui.drafts import DraftFile, draft_path  # noqa: E402
from ui.settings import Settings, settings_path  # noqa: E402
from ui.tags import TagStore, tags_path  # noqa: E402

ANN, BEN = "04A32B1C", "04B7771A2C5E80"
STICKER = "04D10001A1B201"  # a deed's sticker (7 bytes, as an NTAG213's)
# Each turn: the dice entered, and whether the player buys where they land. No doubles, no card space, no tax:
# Ann buys Baltic Avenue, Connecticut Avenue, Virginia Avenue, Illinois Avenue and Atlantic Avenue, and Ben, a
# turn behind on the same dice, pays her rent on each.
TURNS = [((1, 2), True), ((1, 2), False), ((2, 4), True), ((2, 4), False), ((1, 4), True), ((1, 4), False),
         ((2, 4), False), ((2, 4), False), ((1, 2), True), ((1, 2), False), ((1, 2), True), ((1, 2), False)]
UNDO_AFTER = 6  # Ben's end of turn 6 undone, then ended again


def data_files() -> dict[str, Any]:
    """Each data file as the product reads it now (None: no file): the settings, the draft, the tags."""
    settings, draft, tags = settings_path(), draft_path(settings_path()), tags_path(settings_path())
    return {"settings.json": asdict(Settings.load(settings)[0]) if settings.exists() else None,
            "draft.json": DraftFile(draft).read() if draft.exists() else None,
            "tags.json": TagStore(tags).document() if tags.exists() else None}


def play_steps(app: BankerApp, reader: LineReaderEmulator) -> list[Step]:
    c = app.flows
    s = c.session
    cards = Cards(reader)
    flips = [0.0]
    Window.bind(on_flip=lambda *_: flips.__setitem__(0, time.monotonic()))
    acks: list[str] = []

    def actions() -> int | None:
        return len(s.live.game.script) if s.live is not None else None

    def ack(what: str, done: Callable[[], bool], n: int | None = None) -> Step:
        """Done once `done()` holds, the redraw its change asked for has run (the redraw waits for the journal's
        commit: ui/app.py) and a frame was drawn after it: then the marker."""

        def check() -> bool:
            if not done() or app._redraw.is_triggered or flips[0] <= app.last_redraw:
                return False
            count = actions()
            if n is not None and count != n:
                raise AssertionError(f"{what}: {count} actions in the game, not {n}")
            acks.append(what)
            mark("ack " + json.dumps({"n": count, "what": what, "files": data_files()}, sort_keys=True))
            return True
        return (f"acknowledged: {what}", check)

    def at(n: int) -> Callable[[], bool]:
        return lambda: actions() == n

    def dice(a: int, b: int) -> list[Step]:
        return [(f"enter {a}+{b}", lambda: touch(app, "Enter real dice")),
                (f"die {a}", lambda: touch_role(app, f"die0-{a}")),
                (f"die {b}", lambda: touch_role(app, f"die1-{b}")),
                ("move by them", lambda: touch(app, "Move by these dice"))]

    def turn_button(verb: str) -> Callable[[], bool]:
        return lambda: any(b["id"] == verb and touch(app, b["text"]) for b in c.turn.buttons())

    steps: list[Step] = [
        ("the start screen", lambda: app.manager.current == "home"),
        ("settings", lambda: touch(app, "Settings")),
        ("tag the cards", lambda: touch_role(app, "tagging")),
        ("classic", lambda: touch_role(app, "set classic")),
        ("a deed waits for its sticker", lambda: by_role(app, "waiting for a sticker") is not None),
        ("its sticker", cards.tap(STICKER)),
        ack("a deed tagged", lambda: s.tags.lookup(STICKER) is not None),
        ("tagging done", lambda: touch_role(app, "done")),
        ("back to the settings", lambda: touch(app, "Back")),
        ("back home", lambda: app.manager.current == "settings" and touch(app, "Back")),
        ("new game", lambda: app.manager.current == "home" and touch(app, "New game")),
        ack("the new game's draft", lambda: c.setup.draft is not None and draft_path(settings_path()).exists()),
        ("register the cards", lambda: touch(app, "Tap card to register")),
        ("Ann taps", cards.tap(ANN)),
        ack("Ann's card in the draft", lambda: c.setup.draft is not None and c.setup.draft.players[0].card == ANN),
        ("Ben taps", cards.tap(BEN)),
        ack("Ben's card in the draft", lambda: c.setup.draft is not None and c.setup.draft.players[1].card == BEN),
        ("start", lambda: touch(app, "Start the game")),
        ack("the game started", lambda: app.manager.current == "table" and actions() == 0, 0),
    ]
    n = 0
    for k, ((a, b), buy) in enumerate(TURNS, start=1):
        steps += [*dice(a, b), ack(f"turn {k}: rolled {a}+{b}", at(n + 1), n + 1)]
        n += 1
        if buy:
            steps += [(f"turn {k}: buy", turn_button("buy")), (f"turn {k}: the buyer taps", cards.tap(ANN)),
                      ack(f"turn {k}: bought", at(n + 1), n + 1)]
            n += 1
        steps += [(f"turn {k}: end turn", turn_button("end_turn")), ack(f"turn {k}: ended", at(n + 1), n + 1)]
        n += 1
        if k == UNDO_AFTER:
            steps += [("banker", lambda: touch(app, "Banker")),
                      ("undo", lambda: touch_role(app, "confirm undo")),
                      ("touch again to undo", lambda: touch_role(app, "confirm undo")),
                      ack("undone", at(n + 1), n + 1),
                      ("settings", lambda: touch(app, "Settings")),
                      ("animations off", lambda: touch_role(app, "setting motion")),
                      ack("animations off", lambda: not s.settings.motion, n + 1),
                      ("leave settings", lambda: touch(app, "Back")),
                      ("leave the banker", lambda: app.manager.current == "banker" and touch(app, "Back")),
                      (f"turn {k}: end turn again", turn_button("end_turn")),
                      ack(f"turn {k}: ended again", at(n + 2), n + 2)]
            n += 2
    steps += [
        ("banker", lambda: touch(app, "Banker")),
        ("end the game", lambda: touch_role(app, "confirm end")),
        ("touch again to end it", lambda: touch_role(app, "confirm end")),
        ack("the game's end", lambda: app.manager.current == "over" and s.game is not None and s.game.ended, n + 1),
        ("done", lambda: touch(app, "Done")),
        ack("home again", lambda: app.manager.current == "home", None),
    ]
    return steps


def resume_steps(app: BankerApp) -> list[Step]:
    from banker.journal import Journal

    path = default_path()
    expected: dict[str, Any] = {"screen": "home", "actions": None}
    if path.exists():
        with Journal(path, create=False, write=False) as journal:
            active = journal.latest_active()
            if active is not None:
                expected = {"screen": "table", "actions": journal.actions(active)}

    def up() -> bool:
        errors = [n["text"] for n in app.session.notice_lines(10) if n["kind"] == "error"]
        if errors:
            raise AssertionError(f"an error shown at the start: {errors}")
        if app.manager.current != expected["screen"]:
            return False
        live = app.session.live
        if expected["actions"] is None:
            return live is None
        return live is not None and live.game.script == expected["actions"]

    def said() -> bool:
        print(f"resume: {app.manager.current}")
        return True

    return [("the app comes up where the journal is", up), ("no error after a few frames", lambda: not [
        n for n in app.session.notice_lines(10) if n["kind"] == "error"]), ("say where", said)]


def main() -> int:
    (WORK / "cache").mkdir(parents=True, exist_ok=True)
    config = WORK / "config.toml"
    link = WORK / "reader"
    config.write_text(f'[reader]\nurl = "{link}"\nprotocol = "line"\nretap_window = 0.2\n'
                      '[dice]\npin = 17\ndebounce = 0\n[web]\nenabled = false\n', "utf-8")
    reader = LineReaderEmulator(link=link)
    # As `banker app` makes it (ui/cli.py): the journal and the settings where XDG_DATA_HOME puts them. No voice
    # and no money in motion: neither writes to the data folder, and both cost time.
    app = BankerApp(default_path(), config_path=str(config), voice=False, motion=False)
    try:
        if MODE == "play":
            failed, script = play(app, lambda: play_steps(app, reader), timeout=15, interval=0)  # a look a frame
        else:
            failed, script = play(app, lambda: resume_steps(app), timeout=15, interval=0)
    finally:
        reader.close()
    if failed or script is None:
        return 1
    print(f"{len(script.steps)} steps passed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
