"""End-to-end: the digit pad and the confirming touches, in the real app offscreen, by touches only.

Run by test_pad_e2e.py in a subprocess (Kivy opens one window per process):

    python tests/ui/e2e_pad.py WORKDIR

A game with the banker PIN 2468 is waiting in the journal (as after a restart); the app reopens it, and
then, touch by touch: five wrong PINs on the pad and the wait they bring, counting down on screen with
the keys refused; the right PIN; a correction with its new balance shown before OK; the banker's Undo,
End and Abandon, each armed by a first touch (a touch elsewhere disarms); the game-over screen's Undo
through the PIN pad; a trade's cash; the stand-ins switch; a new game's PIN. Exits 0 when every step passed.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from e2e_kit import (  # sets Kivy up first
    Step,
    UnitTestTouch,
    button,
    by_role,
    play,
    seen,
    texts,
    touch,
    touch_role,
    widgets,
)
from kivy.uix.button import Button
from kivy.uix.label import Label

from banker.journal import Journal
from ui.app import BankerApp
from ui.flows import Flows
from ui.flows.banker import PIN_FREE_TRIES
from ui.settings import Settings

PIN = "2468"
CARDS = {"Ann": "04A32B1C", "Ben": "04B7771A2C5E80"}


def touch_nothing(app: BankerApp) -> bool:
    """A finger on the screen's title, where no button is."""
    title = next((w for w in widgets(app) if isinstance(w, Label) and not isinstance(w, Button)
                  and w.text == app.session.tr("ui.banker.title")), None)
    if title is None:
        return False
    t = UnitTestTouch(*title.to_window(*title.center))
    t.touch_down()
    t.touch_up()
    return True


def labelled(app: BankerApp, role: str, text: str) -> Callable[[], bool]:
    return lambda: (b := by_role(app, role)) is not None and b.text == text


def digits(app: BankerApp, keys: str) -> list[Step]:
    """Keys of the pad, a touch each (each waits for the redraw that shows it)."""
    steps: list[Step] = []
    for k, key in enumerate(keys):
        def one(key: str = key, count: int = k + 1) -> bool:
            entry = app.flows.pad.entry
            return entry is not None and touch_role(app, f"digit {key}")
        steps.append((f"key {key} ({k + 1} of {len(keys)})", one))
    return steps


def prepared_game(journal: Path) -> None:
    """A game of Ann and Ben with the banker PIN, left unfinished in the journal (the app reopens it)."""
    j = Journal(journal)
    c = Flows.on(j, Settings(), save_settings=lambda s: None, power_off=lambda: None)
    c.setup.new_game()
    assert c.setup.draft is not None
    while len(c.setup.draft.players) < 2:
        c.setup.add_player()
    for k, (name, uid) in enumerate(CARDS.items()):
        c.setup.set_player(k, name=name)
        c.setup.register(k)
        c.taps.card_tapped(uid)
    c.setup.draft.pin = PIN
    assert c.setup.start(), [n.text for n in c.session.notices]
    j.close()


def steps(app: BankerApp) -> list[Step]:
    c = app.flows
    real_clock = c.session.clock

    def cash(k: int) -> int:
        return c.session.game.players[k].cash if c.session.game is not None else -1

    def later(seconds: float) -> bool:
        c.session.clock = lambda: real_clock() + seconds  # type: ignore[method-assign]
        return True

    def screen(name: str) -> Callable[[], bool]:
        return lambda: app.manager.current == name

    def keys_refused() -> bool:
        key = by_role(app, "digit 2")
        return key is not None and key.disabled and by_role(app, "digit ok").disabled

    wrong: list[Step] = []
    for k in range(PIN_FREE_TRIES):
        wrong += [*digits(app, "1111"), (f"wrong PIN {k + 1}", lambda: touch_role(app, "digit ok"))]
        if k == 0:
            wrong.append(("told how many tries are left", seen(app, "Wrong PIN: 4 more tries before a wait")))
    return [
        ("the game reopened", seen(app, "Ann's turn")),
        ("banker", lambda: touch(app, "Banker")),
        ("the PIN pad", lambda: screen("digits")() and "Banker PIN" in texts(app) and "Type the PIN" in texts(app)),
        ("an empty PIN is not tried", lambda: by_role(app, "digit ok").disabled),
        *wrong,
        ("the wait after five wrong PINs", seen(app, "Too many wrong PINs: wait 30 seconds")),
        ("the keys refuse while it lasts", keys_refused),
        ("it counts down", lambda: "Too many wrong PINs: wait 2" in texts(app)),
        ("half a minute passes", lambda: later(31)),
        ("the keys are back", lambda: not by_role(app, "digit 2").disabled
         and "the next wrong one means a longer wait" in texts(app)),
        *digits(app, PIN),
        ("masked", lambda: by_role(app, "digits shown").text == "\u25cf" * 4),
        ("open", lambda: touch_role(app, "digit ok")),
        ("the banker's menu", lambda: screen("banker")() and "Correct a player's cash: touch their name" in texts(app)),
        ("Ann's row", lambda: touch_role(app, "correct Ann")),
        ("the correction pad", seen(app, "Correct Ann's cash", "Ann has 1,500")),
        *digits(app, "50"),
        ("take away", lambda: touch_role(app, "digit -")),
        ("the new balance before OK", lambda: seen(app, "New balance: 1,450")() and cash(0) == 1500
         and by_role(app, "digits shown").text == "\u221250"),
        ("OK", lambda: touch_role(app, "digit ok")),
        ("corrected", lambda: cash(0) == 1450 and screen("banker")()
         and labelled(app, "correct Ann", "Ann: 1,450")()),
        ("undo: the first touch arms", lambda: touch_role(app, "confirm undo")),
        ("it says so", labelled(app, "confirm undo", "Touch again to undo the last action")),
        ("nothing undone yet", lambda: cash(0) == 1450),
        ("the second touch undoes", lambda: touch_role(app, "confirm undo")),
        ("undone", lambda: cash(0) == 1500 and labelled(app, "confirm undo", "Undo the last action")()),
        ("end: armed", lambda: touch_role(app, "confirm end")),
        ("armed end", labelled(app, "confirm end", "Touch again to end the game")),
        ("a touch elsewhere", lambda: touch_nothing(app)),
        ("disarmed", labelled(app, "confirm end", "End the game now (ranking)")),
        ("stand-ins for a forgotten card", lambda: touch_role(app, "stand-ins")),
        ("switched on", lambda: c.session.settings.stand_ins
         and labelled(app, "stand-ins", "'Tap as' buttons for a forgotten card: on")()),
        ("end: armed again", lambda: touch_role(app, "confirm end")),
        ("end: confirmed", lambda: labelled(app, "confirm end", "Touch again to end the game")()
         and touch_role(app, "confirm end")),
        ("game over", lambda: screen("over")() and "Ann and Ben share first place" in texts(app)),  # a tie
        ("undo at the game's end", lambda: touch_role(app, "confirm undo_end")),
        ("asks for the PIN", lambda: screen("digits")() and "one more touch of Undo" in texts(app)),
        *digits(app, PIN),
        ("OK", lambda: touch_role(app, "digit ok")),
        ("back, Undo armed", lambda: screen("over")()
         and labelled(app, "confirm undo_end", "Touch again to undo the last action")()
         and c.session.game is not None and c.session.game.ended),
        ("the confirming touch", lambda: touch_role(app, "confirm undo_end")),
        ("the game goes on", lambda: c.mode == "table" and screen("table")()),
        ("trade", lambda: touch(app, "Trade")),
        ("Ann's cash", lambda: touch_role(app, "trade cash give")),
        ("the trade's pad", seen(app, "Cash Ann gives", "At most 1,500: all Ann has")),
        *digits(app, "250"),
        ("OK", lambda: touch_role(app, "digit ok")),
        ("in the offer", lambda: screen("trade")() and "Ann gives 250" in texts(app)),
        ("back", lambda: touch(app, "Back")),
        ("banker again", lambda: touch(app, "Banker")),
        *digits(app, PIN),
        ("open", lambda: touch_role(app, "digit ok")),
        ("abandon: armed", lambda: screen("banker")() and touch_role(app, "confirm abandon")),
        ("abandon: confirmed", lambda: labelled(app, "confirm abandon", "Touch again to abandon the game")()
         and touch_role(app, "confirm abandon")),
        ("home", lambda: c.mode == "home" and button(app, "New game") is not None),
        ("a new game", lambda: touch(app, "New game")),
        ("no PIN yet", labelled(app, "setup pin", "Banker PIN: none")),
        ("its PIN", lambda: touch_role(app, "setup pin")),
        *digits(app, "12"),
        ("too short for a PIN", lambda: by_role(app, "digit ok").disabled and "4 to 8 digits" in texts(app)),
        *digits(app, "34"),
        ("OK", lambda: touch_role(app, "digit ok")),
        ("the PIN is set", lambda: screen("setup")() and c.setup.draft is not None and c.setup.draft.pin == "1234"
         and labelled(app, "setup pin", "Banker PIN: \u2022\u2022\u2022\u2022")()),
    ]


def main() -> int:
    work = Path(sys.argv[1])
    work.mkdir(parents=True, exist_ok=True)
    prepared_game(work / "games.sqlite3")
    app = BankerApp(work / "games.sqlite3", hardware=False, phones=False, settings_file=work / "settings.json")
    failed, script = play(app, lambda: steps(app))
    if not failed and script is not None:
        print(f"pad: {len(script.steps)} steps passed")
    return failed


if __name__ == "__main__":
    raise SystemExit(main())
