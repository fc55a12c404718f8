"""End-to-end: money in motion (ui/motion.py) in the real app offscreen, played by touches and card taps.

Run by test_motion.py in a subprocess (Kivy opens one window per process):

    E2E_SIZE=800x480 python tests/ui/motion_app.py WORKDIR LANGUAGE

A two-player classic game waits in the journal: Ben has hotels on the purples and the light blues, Ann has
500. Every button is found by the words the family reads in LANGUAGE (the catalogue's), every payment
confirmed by a card tap on the pseudo-terminal reader.

- Ann lands on Baltic Avenue and pays Ben 450: the frame with her new balance comes before anything moves;
  then the amount, large, travels from her cash to his (read frame by frame: it starts on her line, every
  frame brings it nearer his, it ends on his line, and it is gone within a second of frames); "End turn",
  touched under the amount in flight, ends her turn.
- Ben buys Reading Railroad with a flight slowed to three seconds: an undo on the banker screen takes
  what flies away at once. He buys it again: its space on the board glows in his colour (read from the
  pixels) while 200 flies to the board's middle, the bank.
- Ben builds a house on St. James Place on the deeds screen, where there is no board: nothing pops there;
  back on the table, a pop of light grows on its space of the board.
- With animations off (the settings, by touches) Ann pays Ben's railroad 25 and nothing moves; on again,
  she lands on Vermont Avenue, cannot pay, declares bankruptcy with her card: Ben's name, large, with
  confetti of both colours, over the game-over screen; then it is gone and the ranking and the chart show.

Photographs WORKDIR/rent*.png (mid-flight), bought*.png (the glow), built*.png (the pop), winner*.png (the
celebration) and over*.png (after it). Prints "N steps passed"; exits 0.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from e2e_kit import Cards, Step, button, by_role, run_app, texts, touch, touch_role  # sets Kivy up first
from kivy.core.image import Image as CoreImage
from kivy.core.window import Window
from kivy.uix.label import Label
from kivy.utils import get_color_from_hex

from banker.journal import Journal
from banker.script import Header
from ui import motion, theme
from ui.chart import Chart
from ui.settings import Settings

ANN, BEN = "04A1B2C3D4E5F6", "04FFEEDDCCBBAA"
COLOURS = {"Ann": "#E53935", "Ben": "#1E88E5"}
SETUP = {
    "players": {"Ann": {"cash": 500, "position": 0}, "Ben": {"position": 0}},
    "spaces": {**{str(i): {"owner": "Ben", "hotel": True} for i in (1, 3, 6, 8, 9)},
               **{str(i): {"owner": "Ben"} for i in (16, 18, 19)}},  # the oranges, to build on
}
NEAR = 0.12  # how far (a share of the screen's diagonal) a flight's ends may be from the cash they belong to
LIVENESS = 3.0  # seconds within which an amount has surely arrived and faded (it takes 0.8 s; a busy CI is slow)


def main(work: Path, language: str) -> int:
    work.mkdir(parents=True, exist_ok=True)
    with Journal(work / "games.sqlite3") as journal:
        journal.start(Header(rules="classic", players=["Ann", "Ben"], seed=1, setup=SETUP),
                      meta={"cards": {ANN: "Ann", BEN: "Ben"}, "colours": COLOURS, "started": time.time()})
    Settings(language=language).save(work / "settings.json")
    failed, script = run_app(work, lambda app, reader: steps(app, Cards(reader), work), timeout=10)
    if not failed and script is not None:
        print(f"{len(script.steps)} steps passed")
    return failed


def steps(app: Any, cards: Cards, work: Path) -> list[Step]:
    c = app.flows
    tr = c.session.tr
    frames: list[dict[str, Any]] = []  # what each frame showed: Ann's cash, the amounts in flight
    seen: dict[str, Any] = {}
    diagonal = math.hypot(Window.width, Window.height)

    def flying_amounts() -> list[Label]:
        return [w for w in app.motion.flying if isinstance(w, Label)]

    def record(*_: Any) -> None:
        cash = by_role(app, "purse Ann")
        frames.append({"t": time.monotonic(), "cash": cash.text if cash is not None else None,
                       "flying": [(w.text, tuple(w.center), w.opacity, getattr(w, "progress", 1.0))
                                  for w in flying_amounts()]})
    Window.bind(on_flip=record)

    def the(key: str, **params: Any) -> Callable[[], bool]:
        return lambda: touch(app, tr(key, **params))

    def the_button(id_: str) -> Callable[[], bool]:
        """The turn's button `id_` (its words name the space and the price in the family's language)."""
        def run() -> bool:
            b = next((b for b in c.turn.buttons() if b["id"] == id_), None)
            return b is not None and touch(app, b["text"])
        return run

    def dice(a: int, b: int) -> list[Step]:
        return [(f"enter {a}+{b}", the("ui.btn.enter_dice")),
                (f"die {a}", lambda: touch_role(app, f"die0-{a}")),
                (f"die {b}", lambda: touch_role(app, f"die1-{b}")),
                ("move by them", the("ui.dice.done"))]

    def centre(role: str) -> tuple[float, float]:
        w = by_role(app, role)
        return w.to_window(*w.center)

    def photograph(name: str) -> Callable[[], bool]:
        def run() -> bool:
            path = Window.screenshot(name=str(work / f"{name}.png"))
            assert path, "no screenshot"
            seen[name] = path
            print("screenshot:", path)
            return True
        return run

    def pixel(path: str, x: float, y: float) -> list[float]:
        image = CoreImage(path, keep_data=True)
        return list(image.read_pixel(int(x), image.height - 1 - int(y)))[:3]

    def mark(key: str) -> Callable[[], bool]:
        """Note the frame we are at."""
        def run() -> bool:
            seen[key] = len(frames)
            return True
        return run

    # ---- Ann pays the rent: the balance first, then the amount travels to Ben

    def rent_flies() -> bool:
        if not flying_amounts():
            return False
        seen["from"], seen["to"] = centre("purse Ann"), centre("purse Ben")
        return True

    def rent_half_way() -> bool:
        label = next((w for w in flying_amounts() if w.text == tr.money(450)), None)
        assert label is not None, "the rent stopped flying before half way"
        return label.progress >= 0.5

    def end_turn_under_the_flight() -> bool:
        if not flying_amounts():
            raise AssertionError("the rent landed before the touch: nothing flew over the button")
        return the_button("end_turn")()

    def the_rent_flew() -> bool:
        if flying_amounts():
            return False
        paid = tr.money(50)
        shown = [k for k in range(seen["rolled"], len(frames)) if frames[k]["cash"] == paid]
        assert shown, "Ann's new balance never showed"
        first = shown[0]
        assert not frames[first]["flying"], "something flew before the new balance was on screen"
        flight = [f for f in frames[first:] if f["flying"]]
        path = [f["flying"][0] for f in flight]
        assert path and all(p[0] == tr.money(450) for p in path), f"not the rent in flight: {path[:3]}"
        assert len(path) >= 3, f"the rent flew in {len(path)} frames"
        took = flight[-1]["t"] - frames[first]["t"]
        assert took < LIVENESS, f"the rent was still in flight {took:.1f} s on"
        (x0, y0), (x1, y1) = seen["from"], seen["to"]
        assert math.hypot(path[0][1][0] - x0, path[0][1][1] - y0) <= NEAR * diagonal, \
            f"the rent set off at {path[0][1]}, not Ann's cash at {(x0, y0)}"
        assert math.hypot(path[-1][1][0] - x1, path[-1][1][1] - y1) <= NEAR * diagonal, \
            f"the rent ended at {path[-1][1]}, not Ben's cash at {(x1, y1)}"
        progress = [p[3] for p in path]
        assert all(b >= a for a, b in zip(progress, progress[1:], strict=False)), "the rent went back on its way"
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        out = max(abs((x - x0) * (y1 - y0) - (y - y0) * (x1 - x0)) / length for _, (x, y), _, _ in path)
        # (a bow's top is half as far out as its control point)
        assert out >= motion.BOW * min(Window.size) * 0.45, f"the rent swung only {out:.0f} px out of its way"
        print(f"rent: {len(path)} frames in flight ({took:.2f} s), {out:.0f} px out on its bow")
        return True

    # ---- Ben buys Reading Railroad; an undo takes a slow flight away; he buys it again and it glows

    def slow_flights() -> bool:
        seen["flight"] = motion.FLIGHT
        motion.FLIGHT = 3.0
        return True

    def undone_at_once() -> bool:
        assert seen["flying at undo"], "nothing was in flight when the undo was touched"
        if c.session.game.owner[5] != -1:
            return False
        assert not app.motion.busy() and not any(w.parent for w in seen["in flight"]), \
            "the undone purchase still flies"
        motion.FLIGHT = seen["flight"]
        return True

    def confirm_undo() -> bool:
        seen["flying at undo"] = bool(flying_amounts())
        seen["in flight"] = list(app.motion.flying)
        return touch_role(app, "confirm undo")

    def glowing() -> bool:
        flash = next((w for w in app.motion.flying if isinstance(w, motion.Flash)), None)
        if flash is None or flash.opacity < 0.85:
            return False
        board = app.motion.board_view()
        x, y, w, h = board.boxes[5]
        seen["space 5"] = (*board.to_window(x, y), w, h)
        assert all(abs(a - b) < 1 for a, b in zip((*flash.pos, *flash.size), seen["space 5"], strict=True)), \
            f"the glow at {flash.pos} {flash.size} is not on space 5 at {seen['space 5']}"
        return photograph("bought")()

    def glow_in_bens_colour() -> bool:
        x, y, w, h = seen["space 5"]
        got = pixel(seen["bought"], x + w / 2, y + h / 2)
        ben = list(get_color_from_hex(COLOURS["Ben"]))[:3]
        assert all(abs(a - b) < 0.15 for a, b in zip(got, ben, strict=False)), f"space 5 is {got}, not Ben's colour {ben}"
        flying = [w for w in flying_amounts() if w.text == tr.money(200)]
        assert flying, "the price does not fly"
        return True

    # ---- Ben builds on the deeds screen (no board there): the house pops on its space when the board shows

    def built_unseen() -> bool:
        if c.session.game.level[16] != 1 or app.motion.waiting:
            return False  # the pop is decided once its moment is on screen (motion._later): a busy machine lags
        assert app.motion.unseen == [c.session.game.ruleset.spaces[16].name], app.motion.unseen
        assert not any(isinstance(w, motion.Piece) for w in app.motion.flying), "a pop with no board on screen"
        return True

    def house_pops() -> bool:
        piece = next((w for w in app.motion.flying if isinstance(w, motion.Piece)), None)
        board = app.motion.board_view()
        if piece is None or board is None or piece.opacity < 0.9 or piece.width < 20:
            return False
        x, y, w, h = board.boxes[16]
        wx, wy = board.to_window(x, y)
        assert math.hypot(piece.center_x - (wx + w / 2), piece.center_y - (wy + h / 2)) < 1, \
            f"the pop at {piece.center} is not on space 16 at {(wx, wy, w, h)}"
        assert not app.motion.unseen
        return photograph("built")()

    # ---- with animations off nothing moves; on again, the end of the game

    def count_started() -> bool:
        seen["started"] = app.motion.started
        return True

    def nothing_moved() -> bool:
        if c.session.game.players[0].cash != 25:
            return False
        assert app.motion.started == seen["started"] and not app.motion.busy(), "something moved with animations off"
        return True

    def celebration() -> bool:
        name = next((w for w in flying_amounts() if w.text == tr("ui.over.winner", player="Ben")), None)
        if name is None or name.font_size < theme.FONT_WINNER - 0.5:
            return False
        assert app.manager.current == "over", f"the celebration over {app.manager.current}"
        pieces = [w for w in app.motion.flying if isinstance(w, motion.Piece)]
        assert len(pieces) >= motion.CONFETTI, f"{len(pieces)} pieces of confetti"
        return photograph("winner")()

    def then_the_ranking() -> bool:
        if app.motion.busy():
            return False
        words = texts(app)
        assert "1. Ben" in words and "2. Ann" in words, words
        chart = next((w for w in app.manager.current_screen.walk() if isinstance(w, Chart)), None)
        assert chart is not None and chart.width > 100, "no chart"
        return photograph("over")()

    return [
        ("the table", lambda: app.manager.current == "table" and app.motion is not None),
        ("Ann's 500", lambda: by_role(app, "purse Ann").text == tr.money(500)),
        *dice(1, 2)[:-1],
        ("move by them", lambda: mark("rolled")() and the("ui.dice.done")()),
        ("the rent flies", rent_flies),
        ("half way", rent_half_way),
        ("photograph the flight", photograph("rent")),
        ("end turn under the flight", end_turn_under_the_flight),
        ("Ben's turn", lambda: c.session.game.turn == 1),
        ("the rent flew from Ann to Ben", the_rent_flew),
        *dice(2, 3),
        ("slow flights", slow_flights),
        ("buy Reading Railroad", the_button("buy")),
        ("Ben taps to buy", cards.tap(BEN)),
        ("bought", lambda: c.session.game.owner[5] == 1 and bool(flying_amounts())),
        ("the banker", the("ui.nav.banker")),
        ("undo", lambda: touch_role(app, "confirm undo")),
        ("touch again", confirm_undo),
        ("undone, and nothing flies", undone_at_once),
        ("back to the table", the("ui.back")),
        ("buy it again", the_button("buy")),
        ("Ben taps again", cards.tap(BEN)),
        ("the deed glows", glowing),
        ("in Ben's colour", glow_in_bens_colour),
        ("Ben's deeds", the("ui.nav.deeds")),
        ("build on St. James Place", lambda: touch_role(app, "build 16")),
        ("Ben taps to build", cards.tap(BEN)),
        ("built, nothing popped off the board", built_unseen),
        ("back to the board", the("ui.back")),
        ("the house pops on its space", house_pops),
        ("end Ben's turn", the_button("end_turn")),
        ("the banker again", the("ui.nav.banker")),
        ("settings", the("ui.settings")),
        ("animations off", the("ui.settings.motion.on")),
        ("off", lambda: not c.session.settings.motion and button(app, tr("ui.settings.motion.off")) is not None),
        ("leave settings", the("ui.back")),
        ("count what moved so far", count_started),
        ("leave the banker", the("ui.back")),
        *dice(1, 1),
        ("Ann paid 25, and nothing moved", nothing_moved),
        ("the banker once more", the("ui.nav.banker")),
        ("settings again", the("ui.settings")),
        ("animations on", the("ui.settings.motion.off")),
        ("on", lambda: c.session.settings.motion),
        ("out of settings", the("ui.back")),
        ("out of the banker", the("ui.back")),
        *dice(1, 2),
        ("the debt", lambda: bool(c.session.game.players[0].debts)),
        ("declare bankruptcy", the("ui.debt.concede")),
        ("Ann taps", cards.tap(ANN)),
        ("the winner, large", celebration),
        ("then the ranking and the chart", then_the_ranking),
    ]


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    failed = main(Path(sys.argv[1]), sys.argv[2])
    sys.exit(failed)
