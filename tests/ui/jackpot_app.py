"""The Free Parking jackpot as a family sees it (issue 54, point 3), in the real app, offscreen, by touches
only (cards off: the buttons pay), animations on:

- "on": a classic game set up by touch with the `free_parking_pot` house rule and a seed (the House rules
  page's switch and its + button). The turn screen's jackpot line and the board's Free Parking corner show
  the seed. The first player rolls 1 + 3 (real dice entered by touch) onto Income Tax and pays 200: the
  line and the corner show seed + 200, and the 200 flies to the corner. The House rules page lists the
  jackpot with what is in it now. Then 4 + 6, 2 + 4 and 4 + 6 bring the second player to Free Parking:
  they take the jackpot (their cash grows by it), it flies from the corner to their cash, and the line and
  the corner show the seed again.
- "off": the same game without the house rule: the tax is paid, and nothing about a jackpot shows (no
  line, nothing on the corner, no word of it in the house rules).

Run by test_jackpot.py in a subprocess (Kivy opens one window per process):

    E2E_SIZE=800x480 python tests/ui/jackpot_app.py WORKDIR LANGUAGE on|off

Prints "N steps passed" and exits 0 when every check passed; otherwise prints the failing step.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from e2e_kit import Step, by_role, passed, play, texts, touch, touch_role  # sets Kivy up first

from ui.app import BankerApp
from ui.motion import FlyingAmount
from ui.settings import Settings

NEAR = 0.06  # how far (a share of the window's diagonal) a flight's end may be from the corner's centre


def steps(app: BankerApp, pot_on: bool) -> list[Step]:
    f = app.flows
    s = f.session
    tr = s.tr
    seen: dict[str, Any] = {}

    def on(screen: str) -> Callable[[], bool]:
        return lambda: app.manager.current == screen

    def game() -> Any:
        assert s.game is not None
        return s.game

    def dice(a: int, b: int) -> list[Step]:
        return [(f"enter {a} + {b}", lambda: touch(app, tr("ui.btn.enter_dice"))),
                (f"die {a}", lambda: touch_role(app, f"die0-{a}")),
                (f"die {b}", lambda: touch_role(app, f"die1-{b}")),
                ("move by them", lambda: touch(app, tr("ui.dice.done"))),
                ("back on the turn screen", on("table"))]

    def end_turn() -> list[Step]:
        return [("End turn", lambda: touch(app, tr("ui.btn.end_turn")))]

    def shows(amount: Callable[[], int]) -> Callable[[], bool]:
        """The turn screen's jackpot line and the board's corner both read `amount`."""
        def run() -> bool:
            line, corner = by_role(app, "pot"), by_role(app, "board pot")
            want = tr.money(amount())
            return (line is not None and corner is not None and line.text == want and corner.text == want
                    and line.width > 0 and corner.width > 0 and tr("ui.pot.label") in texts(app))
        return run

    def corner_centre() -> tuple[float, float]:
        board = app.motion.board_view()
        assert board is not None and board.pot_box is not None, "no board, or no jackpot on its corner"
        x, y, w, h = board.pot_box
        return board.to_window(x + w / 2, y + h / 2)

    def near(a: tuple[float, float], b: tuple[float, float]) -> bool:
        return math.dist(a, b) <= NEAR * math.hypot(*app.root_window.size)

    def flies(amount: Callable[[], int], end: str) -> Callable[[], bool]:
        """An amount in flight whose `end` ("start" or "end") is the Free Parking corner."""
        def run() -> bool:
            want = tr.money(amount())
            for w in app.motion.flying:
                if isinstance(w, FlyingAmount) and w.text == want:
                    assert near(getattr(w, end), corner_centre()), (
                        f"{want} flies {end} {getattr(w, end)}, not the Free Parking corner {corner_centre()}")
                    return True
            return False
        return run

    def nothing_of_a_pot() -> bool:
        shown = texts(app)
        return (by_role(app, "pot") is None and by_role(app, "board pot") is None
                and tr("ui.pot.label") not in shown and app.motion.board_view() is not None
                and getattr(app.motion.board_view(), "pot_box", None) is None)

    def remember_cash() -> bool:
        seen["cash"] = game().players[1].cash
        seen["pot"] = game().pot
        return True

    found: list[Step] = [
        ("the start screen", on("home")),
        ("New game", lambda: touch(app, tr("ui.home.new"))),
        ("the new-game screen", on("setup")),
        ("House rules", lambda: touch_role(app, "house rules")),
        ("the house rules page", on("houserules")),
    ]
    if pot_on:
        found += [("the Free Parking jackpot on", lambda: touch_role(app, "house free_parking_pot")),
                  ("its seed a step up", lambda: touch_role(app, "house free_parking_seed +"))]
    found += [
        ("Back", lambda: touch(app, tr("ui.back"))),
        ("Start the game", lambda: touch(app, tr("ui.setup.start"))),
        ("the turn screen", on("table")),
        ("the game's house rule as touched", lambda: bool(game().options.free_parking_pot) == pot_on),
    ]
    if pot_on:
        seed = lambda: int(game().options.free_parking_seed)  # noqa: E731
        found += [
            ("a seed", lambda: seed() > 0 and game().pot == seed()),
            ("the seed on the turn screen and the corner", shows(seed)),
        ]
    found += dice(1, 3)
    found += [
        ("Income Tax: pay 200", lambda: touch(app, tr("ui.btn.tax_flat", amount=200))),
        ("paid", lambda: game().players[0].cash == 1300),
    ]
    if pot_on:
        found += [
            ("into the jackpot", lambda: game().pot == seed() + 200),
            ("the 200 flies to the Free Parking corner", flies(lambda: 200, "end")),
            ("the new amount on the turn screen and the corner", shows(lambda: seed() + 200)),
            ("House rules on the bar", lambda: touch(app, tr("ui.nav.rules"))),
            ("the jackpot in the house rules with what is in it",
             lambda: on("rules")() and tr("ui.house.free_parking_pot.now", amount=seed() + 200) in texts(app)),
            ("Back to the table", lambda: touch(app, tr("ui.back"))),
            ("the turn screen again", on("table")),
        ]
    else:
        found += [
            ("to the bank", lambda: game().pot == 0),
            ("no jackpot on the turn screen or the board", nothing_of_a_pot),
            ("House rules on the bar", lambda: touch(app, tr("ui.nav.rules"))),
            ("no jackpot in the house rules", lambda: on("rules")() and tr("ui.house.rulebook") in texts(app)
             and tr("ui.house.free_parking_pot.on") not in texts(app)),
            ("Back to the table", lambda: touch(app, tr("ui.back"))),
            ("the turn screen again", on("table")),
        ]
    found += end_turn() + dice(4, 6) + end_turn() + dice(2, 4) + end_turn()
    found += [("before Free Parking", remember_cash)]
    found += dice(4, 6)
    found += [("on Free Parking", lambda: game().players[1].position == 20)]
    if pot_on:
        found += [
            ("the jackpot taken", lambda: game().players[1].cash == seen["cash"] + seen["pot"]
             and seen["pot"] == seed() + 200),
            ("it flies from the Free Parking corner", flies(lambda: seen["pot"], "start")),
            ("the seed again on the turn screen and the corner", shows(seed)),
        ]
    else:
        found += [
            ("nothing taken", lambda: game().players[1].cash == seen["cash"]),
            ("still no jackpot anywhere", nothing_of_a_pot),
        ]
    return found


def main() -> int:
    work, language, mode = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    work.mkdir(parents=True, exist_ok=True)
    Settings(taps=False, language=language).save(work / "settings.json")
    app = BankerApp(work / "games.sqlite3", hardware=False, settings_file=work / "settings.json", voice=False,
                    motion=True)
    return passed(*play(app, lambda: steps(app, mode == "on")))


if __name__ == "__main__":
    sys.exit(main())
