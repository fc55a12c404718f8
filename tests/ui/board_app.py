"""End-to-end: the board view (ui/board.py) of a game from the journal, in the real app offscreen at 800x480.

Run by test_board.py in a subprocess (Kivy opens one window per process):

    python tests/ui/board_app.py WORKDIR

A three-player classic game is waiting in the journal: Ann owns the purple streets with two houses each
and the light blues with hotels, Ben the magentas with houses, a mortgaged railroad and a mortgaged orange
street, Cy the utility and Boardwalk; Ann and Ben stand on Baltic Avenue, Cy on Illinois Avenue, and it is
Ann's turn. The board of `view.board(app.session)` goes on the window where the turn screen's deed card
is (300 x 300 at 800x480); after a frame the window is photographed (WORKDIR/board0001.png) and read back:
each owner's colour runs round the owned spaces' boxes and nowhere on an unowned space, the houses and the
hotel are on their bands, each token's colour is at its centre, Ann's token is ringed; new data with
nothing changed draws nothing, a move draws once. Prints the drawing times, then "N steps passed"; exits 0.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Any

from e2e_kit import Step, play  # sets Kivy up first
from kivy.core.image import Image as CoreImage
from kivy.core.window import Window
from kivy.graphics import Color, Rectangle
from kivy.graphics.opengl import glFinish
from kivy.uix.widget import Widget
from kivy.utils import get_color_from_hex

from banker.journal import Journal
from banker.ruleset import builtin_names, load_ruleset
from banker.script import Header
from ui import theme, view
from ui.app import BankerApp
from ui.board import BoardView, band_and_body, layout

COLOURS = {"Ann": "#E53935", "Ben": "#1E88E5", "Cy": "#00ACC1"}
SETUP = {
    "players": {"Ann": {"position": 3}, "Ben": {"position": 3}, "Cy": {"position": 24}},
    "spaces": {"1": {"owner": "Ann", "houses": 2}, "3": {"owner": "Ann", "houses": 2},
               "6": {"owner": "Ann", "hotel": True}, "8": {"owner": "Ann", "hotel": True},
               "9": {"owner": "Ann", "hotel": True},
               "11": {"owner": "Ben", "houses": 3}, "13": {"owner": "Ben", "houses": 3},
               "14": {"owner": "Ben", "houses": 4},
               "5": {"owner": "Ben", "mortgaged": True}, "16": {"owner": "Ben", "mortgaged": True},
               "12": {"owner": "Cy"}, "39": {"owner": "Cy"}},
}
PLACE = (492, 64, 300, 300)  # where the turn screen's deed card is at 800x480: x, y, width, height
TOLERANCE = 0.09  # a channel may differ this much (the smooth edges blend)

frames = {"count": 0}


def near(a: list[float], b: list[float]) -> bool:
    return all(abs(x - y) <= TOLERANCE for x, y in zip(a[:3], b[:3], strict=True))


class Shot:
    """The window's photograph, read back by window coordinates (x right, y up, as Kivy places widgets)."""

    def __init__(self, path: str) -> None:
        self.image = CoreImage(path, keep_data=True)
        self.height = self.image.height

    def pixel(self, x: float, y: float) -> list[float]:
        return list(self.image.read_pixel(int(x), self.height - 1 - int(y)))

    def runs(self, box: tuple[float, float, float, float], colour: list[float], along_x: bool) -> int:
        """How many separate stretches of `colour` a line through the middle of the box crosses."""
        x, y, w, h = box
        if along_x:
            line = [self.pixel(px, y + h / 2) for px in range(int(x), int(x + w))]
        else:
            line = [self.pixel(x + w / 2, py) for py in range(int(y), int(y + h))]
        hits = [near(p, colour) for p in line]
        return sum(1 for k, hit in enumerate(hits) if hit and (k == 0 or not hits[k - 1]))

    def count(self, box: tuple[float, float, float, float], colour: list[float]) -> int:
        x, y, w, h = box
        return sum(1 for px in range(int(x), int(x + w)) for py in range(int(y), int(y + h))
                   if near(self.pixel(px, py), colour))


def main(work: Path) -> int:
    work.mkdir(parents=True, exist_ok=True)
    with Journal(work / "games.sqlite3") as journal:
        journal.start(Header(rules="classic", players=["Ann", "Ben", "Cy"], seed=1, setup=SETUP),
                      meta={"cards": {}, "colours": COLOURS, "started": time.time()})
    app = BankerApp(work / "games.sqlite3", hardware=False, phones=False, settings_file=work / "settings.json")
    c = app.flows
    Window.bind(on_flip=lambda *_: frames.__setitem__("count", frames["count"] + 1))
    seen: dict[str, Any] = {}
    colour = {name: list(get_color_from_hex(code)) for name, code in COLOURS.items()}

    def ready() -> bool:
        return app.manager.current == "table" and frames["count"] >= 1

    def put_the_board() -> bool:
        started = time.perf_counter()
        data = view.board(c.session)
        seen["view ms"] = (time.perf_counter() - started) * 1000
        started = time.perf_counter()
        board = BoardView(data, size_hint=(None, None), pos=PLACE[:2], size=PLACE[2:])
        seen["build ms"] = (time.perf_counter() - started) * 1000
        panel = Widget(size_hint=(None, None), pos=PLACE[:2], size=PLACE[2:])
        with panel.canvas:  # the panel it would sit on (the board paints only its spaces)
            Color(*theme.PANEL)
            Rectangle(pos=PLACE[:2], size=PLACE[2:])
        Window.add_widget(panel)
        Window.add_widget(board)
        seen["board"], seen["frame"] = board, frames["count"]
        return True

    def photographed() -> bool:
        if frames["count"] < seen["frame"] + 1:
            return False
        path = Window.screenshot(name=str(work / "board.png"))
        assert path, "no screenshot"
        seen["shot"] = Shot(path)
        print("screenshot:", path)
        return True

    def owners_on_their_spaces() -> bool:
        shot: Shot = seen["shot"]
        boxes = seen["board"].boxes
        data = view.board(c.session)
        for sp in data["spaces"]:
            owner = next((n for n, code in COLOURS.items() if code == sp["owner_colour"]), None)
            if owner is None:
                continue
            x, y, w, h = boxes[sp["index"]]
            border = shot.count((x, y, w, 3), colour[owner]) + shot.count((x, y + h - 3, w, 3), colour[owner])
            assert border >= w, f"{sp['name']}: {owner}'s colour is not round its box ({border} pixels)"
        for i in (21, 23, 26, 27, 29, 31, 32, 34, 37):  # unowned streets nobody stands on
            for name in COLOURS:
                assert shot.count(boxes[i], colour[name]) == 0, f"{name}'s colour on {data['spaces'][i]['name']}"
        return True

    def buildings_on_their_bands() -> bool:
        shot: Shot = seen["shot"]
        board: BoardView = seen["board"]
        depth = min(board.size) * 0.13 * 0.36

        def band(i: int) -> tuple[float, float, float, float]:
            side = 0 if i < 10 else 1 if i < 20 else 2 if i < 30 else 3
            return band_and_body(board.boxes[i], side, depth)[0]
        for i, fill in ((1, theme.PRIMARY), (3, theme.PRIMARY), (13, theme.PRIMARY), (6, theme.DANGER),
                        (9, theme.DANGER)):
            assert shot.count(band(i), fill) >= 6, f"no building drawn on space {i}"
        assert shot.count(band(21), theme.PRIMARY) == 0 and shot.count(band(21), theme.DANGER) == 0
        for i, count in ((1, 2), (3, 2), (11, 3), (13, 3), (14, 4)):
            assert shot.runs(band(i), theme.PRIMARY, along_x=i < 10) == count, f"not {count} houses on space {i}"
        assert shot.runs(band(6), theme.DANGER, along_x=True) == 1, "not one hotel on space 6"
        return True

    def mortgage_dimmed() -> bool:
        shot: Shot = seen["shot"]
        boxes = seen["board"].boxes
        x, y, w, h = boxes[16]  # mortgaged St. James Place, beside the unmortgaged Tennessee Avenue (18)
        orange = list(get_color_from_hex("#F7941D"))
        plain = shot.count(boxes[18], orange)
        dimmed = shot.count(boxes[16], orange)
        assert plain > 20 and dimmed < plain / 4, f"the mortgage is not dimmed ({dimmed} vs {plain} pixels)"
        return True

    def tokens_at_their_spaces() -> bool:
        shot: Shot = seen["shot"]
        board: BoardView = seen["board"]
        for name, where in (("Ann", 3), ("Ben", 3), ("Cy", 24)):
            cx, cy, d = board.spots[name]
            x, y, w, h = board.boxes[where]
            assert x <= cx <= x + w and y <= cy <= y + h, f"{name}'s token is not on space {where}"
            assert near(shot.pixel(cx, cy), colour[name]), f"{name}'s token: {shot.pixel(cx, cy)} at its centre"
        ann, ben = board.spots["Ann"], board.spots["Ben"]
        assert abs(ann[0] - ben[0]) + abs(ann[1] - ben[1]) >= ann[2], "Ann's and Ben's tokens overlap"
        cx, cy, d = ann
        ring = d / 2 + min(board.size) * (0.006 + 0.004)
        hits = sum(near(shot.pixel(cx + ring * dx, cy + ring * dy), theme.ACCENT)
                   for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))
        assert hits >= 3, "the current player's token is not ringed"
        cx, cy, d = board.spots["Ben"]
        ring = d / 2 + min(board.size) * (0.006 + 0.004)
        assert not near(shot.pixel(cx + ring, cy), theme.ACCENT) or not near(shot.pixel(cx - ring, cy), theme.ACCENT)
        return True

    def redraws_only_on_change() -> bool:
        board: BoardView = seen["board"]
        draws = board.draws
        board.update(view.board(c.session))
        seen["same draws"] = draws
        data = view.board(c.session)
        data["tokens"][2]["position"] = 25
        seen["moved"] = data
        board.update(data)
        board.update(data)
        seen["frame"] = frames["count"]
        return True

    def drawn_once() -> bool:
        if frames["count"] < seen["frame"] + 1:
            return False
        board: BoardView = seen["board"]
        assert board.draws == seen["same draws"] + 1, f"{board.draws - seen['same draws']} draws for one change"
        x, y, w, h = board.boxes[25]
        cx, cy, _ = board.spots["Cy"]
        assert x <= cx <= x + w and y <= cy <= y + h, "Cy's token did not move"
        return True

    def timed() -> bool:
        board: BoardView = seen["board"]
        data = view.board(c.session)
        built, redrawn = [], []
        for _ in range(30):
            started = time.perf_counter()
            BoardView(view.board(c.session), size_hint=(None, None), pos=PLACE[:2], size=PLACE[2:])
            built.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            board.draw()
            redrawn.append((time.perf_counter() - started) * 1000)
        board.update(data)
        alone, empty = fbo_times(board), fbo_times(None)
        with_board, without = [], []
        for _ in range(5):  # alternated, so the machine's load falls on both alike
            with_board += frame_times()
            Window.remove_widget(board)
            without += frame_times()
            Window.add_widget(board)
        print(f"board: view.board {seen['view ms']:.2f} ms; the first BoardView built and drawn "
              f"{seen['build ms']:.2f} ms, then {statistics.median(built):.2f} ms (view data included; median "
              f"of 30, slowest {max(built):.2f}); drawn again {statistics.median(redrawn):.2f} ms; a frame of the "
              f"window {statistics.median(with_board):.2f} ms with the board, {statistics.median(without):.2f} ms "
              f"without (median of 100 each); the board's canvas alone in an offscreen buffer "
              f"{statistics.median(alone):.2f} ms, the empty buffer {statistics.median(empty):.2f} ms")
        return True

    def every_board_a_closed_ring() -> bool:
        sizes = {len(load_ruleset(name).spaces) for name in builtin_names()} | {4, 5, 13, 22, 41, 60}
        for n in sorted(sizes):
            boxes = layout(n, 0, 0, 300)
            assert len(boxes) == n, f"{n} spaces: {len(boxes)} boxes"
            for k, (x, y, w, h, _) in enumerate(boxes):  # each space touches the next, the last touches GO
                nx, ny, nw, nh, _ = boxes[(k + 1) % n]
                touch = x <= nx + nw + 0.01 and nx <= x + w + 0.01 and y <= ny + nh + 0.01 and ny <= y + h + 0.01
                assert touch, f"{n} spaces: space {k} does not touch space {(k + 1) % n}"
                assert 0 <= x and x + w <= 300.01 and 0 <= y and y + h <= 300.01, f"{n} spaces: {k} off the board"
                for j in range(k + 1, n):  # and no two overlap
                    ox, oy, ow, oh, _ = boxes[j]
                    overlap = min(x + w, ox + ow) - max(x, ox) > 0.01 and min(y + h, oy + oh) - max(y, oy) > 0.01
                    assert not overlap, f"{n} spaces: {k} and {j} overlap"
            data = {"spaces": [{"index": i, "name": "", "kind": "lot", "colour": "#FF0000", "owner_colour": None,
                                "houses": i % 5, "hotels": 0, "mortgaged": False} for i in range(n)],
                    "tokens": [{"name": "T", "colour": "#00FF00", "position": n - 1, "in_jail": False,
                                "current": True}], "current": "T"}
            drawn = BoardView(data, size_hint=(None, None), size=(300, 200))
            assert len(drawn.boxes) == n and "T" in drawn.spots
        return True

    def jailed_behind_the_bars() -> bool:
        data = view.board(c.session)
        for t, jailed in zip(data["tokens"], (True, False, True), strict=False):
            t["position"], t["in_jail"] = 10, jailed
        board = BoardView(data, size_hint=(None, None), size=PLACE[2:])
        x, y, w, h = board.boxes[10]
        for name, jailed in (("Ann", True), ("Ben", False), ("Cy", True)):
            cx, cy, d = board.spots[name]
            inside = cx - d / 2 >= x + w * 0.42 - 0.01 and cy - d / 2 >= y + h * 0.42 - 0.01
            below = cy + d / 2 <= y + h * 0.42 + 0.01
            assert (inside if jailed else below), f"{name} {'in jail' if jailed else 'visiting'} at {cx, cy}"
        return True

    steps: list[Step] = [
        ("the table", ready),
        ("the board on the window", put_the_board),
        ("photographed after its frame", photographed),
        ("the owners' colours round their spaces", owners_on_their_spaces),
        ("houses and hotels on their bands", buildings_on_their_bands),
        ("the mortgaged street dimmed", mortgage_dimmed),
        ("the tokens on their spaces, Ann's ringed", tokens_at_their_spaces),
        ("the same data draws nothing, a move draws once", redraws_only_on_change),
        ("drawn once, before the next frame", drawn_once),
        ("every board size draws a closed ring", every_board_a_closed_ring),
        ("the jailed behind the bars, a visitor below", jailed_behind_the_bars),
        ("how long drawing takes", timed),
    ]
    code, script = play(app, lambda: steps, timeout=10)
    if code == 0 and script is not None:
        print(f"{len(script.steps)} steps passed")
    return code


def fbo_times(board: BoardView | None) -> list[float]:
    """The board's canvas (or nothing) drawn 100 times into an offscreen buffer of the window's size, each
    until the GPU has finished it: what the board adds to a frame, without the rest of the window."""
    from kivy.graphics import Fbo

    fbo = Fbo(size=Window.size)
    parent = board.parent if board is not None else None
    if board is not None:
        parent.remove_widget(board)
        fbo.add(board.canvas)
    out = []
    for _ in range(100):
        started = time.perf_counter()
        fbo.ask_update()
        fbo.draw()
        glFinish()
        out.append((time.perf_counter() - started) * 1000)
    if board is not None:
        fbo.remove(board.canvas)
        parent.add_widget(board)
    return out


def frame_times() -> list[float]:
    """The window drawn 20 times, each until the GPU (here llvmpipe) has finished it."""
    out = []
    for _ in range(20):
        started = time.perf_counter()
        Window.dispatch("on_draw")
        glFinish()
        out.append((time.perf_counter() - started) * 1000)
    return out


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1])))
