"""The board, drawn for reading across the table: a square ring of spaces like the physical board (GO in
the bottom-right corner, play running left along the bottom, up, right along the top and down), each street
with its group's colour band on the inner edge, the owner's colour as a thick border, houses as small green
squares and a hotel as a red bar on the band, a mortgaged space dimmed and crossed, every token as a
disc in its player's colour on its space (the current player's ringed), and with the `free_parking_pot`
house rule the jackpot's amount on the Free Parking corner.

    BoardView(view.board(session))    # the view data of ui/view.py, nothing of the engine
    board.update(view.board(session)) # draws again only when the data changed

One widget, canvas instructions only (one Label: the Free Parking jackpot's amount on its corner, with that
house rule): the turn screen is redrawn after every tap, and the board
draws again only when its data, position or size change, at most once a frame. It paints only the spaces:
the gaps between them and the middle show the panel behind it (every pixel filled costs a software
renderer's frame time). Every proportion below is a
fraction of the board's side (the smaller of the widget's width and height), so it scales with any panel.
A board of any number of spaces (from four) draws a closed ring: four corners, the other spaces shared out
among the four sides.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from kivy.graphics import Color, Mesh, SmoothEllipse, SmoothLine
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget
from kivy.utils import get_color_from_hex

from ui import theme
from ui.widgets import create_trigger, texture_size

# ---------------------------------------------------------------------- proportions (of the board's side)

CORNER = 0.13  # a corner's side (a classic side: two corners and nine spaces, a corner 1.6 spaces wide)
GAP = 0.004  # between two spaces
BAND = 0.36  # a street's colour band: this much of the space's depth, on its inner edge
OWNER_LINE = 0.011  # the owner's border round an owned space
MARK_LINE = 0.004  # the thin lines: the mortgage's cross, the kinds' marks
HOUSE = 0.52  # a house's side, of the band's depth (and at most a fifth of the space's breadth)
HOTEL = (0.5, 0.66)  # the hotel's bar: of the space's breadth, of the band's depth
TOKEN = 0.052  # a token's largest diameter
TOKEN_FIT = 0.88  # a token's diameter, of the room its share of the space leaves
TOKEN_EDGE = 0.14  # the light edge round a token, of its diameter
RING = 0.008  # the ring round the current player's token: its width
RING_GAP = 0.006  # and how far outside the token it runs
MARK = 0.34  # a kind's mark (card, tax, railroad...): its size, of the space's smaller side
JAIL = 0.42  # the jail corner: the jailed stand in its inner part beyond this fraction, visitors below
SEGMENTS = 28  # a token's circle, in straight pieces (Kivy's 180 cost a software renderer 0.2 ms a token)
MORTGAGE_DIM = 0.62  # how much of the board's background covers a mortgaged space
MIDDLE_MARGIN = 0.025  # between the ring's inner edge and what its middle holds

_CACHE: dict[str, list[float]] = {}
Box = tuple[float, float, float, float]


def rgba(hex_code: str | None, fallback: str = theme.NO_COLOUR) -> list[float]:
    code = hex_code or fallback
    found = _CACHE.get(code)
    if found is None:
        found = _CACHE[code] = list(get_color_from_hex(code))
    return found


def side_counts(n: int) -> tuple[list[int], int]:
    """How many spaces each side holds between its corners, and how many corners (four, or n if fewer)."""
    corners = min(4, n)
    rest = n - corners
    return [rest // 4 + (1 if k < rest % 4 else 0) for k in range(4)], corners


def layout(n: int, x: float, y: float, side: float) -> list[tuple[float, float, float, float, int | None]]:
    """Each space's box (x, y, w, h) and the side it lies on (0 bottom, 1 left, 2 top, 3 right; None for a
    corner), in play order, on a square board of `side` at (x, y)."""
    counts, corners = side_counts(n)
    c = side * CORNER
    boxes: list[tuple[float, float, float, float, int | None]] = []
    right, top = x + side, y + side
    corner_at = [(right - c, y), (x, y), (x, top - c), (right - c, top - c)]  # GO, jail, parking, go-to-jail
    # a corner before an empty side (a board of fewer than eight spaces) runs along it, to close the ring
    stretched = [(x + c, y, side - c, c), (x, y, c, side - c), (x, top - c, side - c, c),
                 (right - c, y + c, c, side - c)]
    for k in range(4):
        count = counts[k]
        if k < corners:
            box = (*corner_at[k], c, c) if count or corners < 4 else stretched[k]
            boxes.append((*box, None))
        if not count:
            continue
        step = (side - 2 * c) / count
        for j in range(count):
            if k == 0:  # bottom, right to left
                boxes.append((right - c - (j + 1) * step, y, step, c, 0))
            elif k == 1:  # left, bottom to top
                boxes.append((x, y + c + j * step, c, step, 1))
            elif k == 2:  # top, left to right
                boxes.append((x + c + j * step, top - c, step, c, 2))
            else:  # right, top to bottom
                boxes.append((right - c, top - c - (j + 1) * step, c, step, 3))
    return boxes


def middle(x: float, y: float, w: float, h: float) -> Box:
    """The empty middle of the ring a BoardView at (x, y) of w x h draws, less a margin: (x, y, w, h)."""
    side = min(w, h)
    inner = max(0.0, side * (1 - 2 * CORNER - 2 * MIDDLE_MARGIN))
    return (x + (w - inner) / 2, y + (h - inner) / 2, inner, inner)


def band_and_body(box: tuple[float, float, float, float], side: int | None,
                  depth: float) -> tuple[tuple[float, float, float, float], tuple[float, float, float, float]]:
    """A space's colour band (on its inner edge, `depth` deep) and the rest of it."""
    x, y, w, h = box
    if side == 0:
        return (x, y + h - depth, w, depth), (x, y, w, h - depth)
    if side == 1:
        return (x + w - depth, y, depth, h), (x, y, w - depth, h)
    if side == 2:
        return (x, y, w, depth), (x, y + depth, w, h - depth)
    if side == 3:
        return (x, y, depth, h), (x + depth, y, w - depth, h)
    return (x, y, 0, 0), box


def token_grid(k: int, w: float, h: float) -> tuple[int, int, float]:
    """Columns, rows and the cell size that fit k tokens into a w x h box with the biggest discs."""
    best = (1, k, 0.0)
    for cols in range(1, k + 1):
        rows = math.ceil(k / cols)
        size = min(w / cols, h / rows)
        if size > best[2]:
            best = (cols, rows, size)
    return best


class Paint:
    """The board's shapes by layer and colour, each (layer, colour) drawn as one Mesh: a few dozen draw
    calls for the whole board instead of one per rectangle (a software renderer pays for each)."""

    def __init__(self) -> None:
        self.layers: dict[tuple[int, tuple[float, ...]], tuple[list[float], list[int]]] = {}

    def poly(self, layer: int, colour: list[float], points: list[tuple[float, float]]) -> None:
        """A convex polygon, as a fan of triangles."""
        vertices, indices = self.layers.setdefault((layer, tuple(colour)), ([], []))
        first = len(vertices) // 4
        for x, y in points:
            vertices += (x, y, 0.0, 0.0)
        for k in range(1, len(points) - 1):
            indices += (first, first + k, first + k + 1)

    def rect(self, layer: int, colour: list[float], x: float, y: float, w: float, h: float) -> None:
        self.poly(layer, colour, [(x, y), (x + w, y), (x + w, y + h), (x, y + h)])

    def frame(self, layer: int, colour: list[float], box: Box, width: float) -> None:
        """A rectangle's outline, `width` thick, inside the box."""
        x, y, w, h = box
        self.rect(layer, colour, x, y, w, width)
        self.rect(layer, colour, x, y + h - width, w, width)
        self.rect(layer, colour, x, y + width, width, h - 2 * width)
        self.rect(layer, colour, x + w - width, y + width, width, h - 2 * width)

    def line(self, layer: int, colour: list[float], x0: float, y0: float, x1: float, y1: float,
             width: float) -> None:
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        nx, ny = -(y1 - y0) / length * width / 2, (x1 - x0) / length * width / 2
        self.poly(layer, colour, [(x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x0 - nx, y0 - ny)])

    def emit(self) -> None:
        """Add the meshes to the canvas being built, layer by layer."""
        for (_, colour), (vertices, indices) in sorted(self.layers.items(), key=lambda kv: kv[0][0]):
            Color(*colour)
            Mesh(vertices=vertices, indices=indices, mode="triangles")


# the layers, bottom to top
CELLS, BANDS, MARKS, DIM, CROSS, OWNERS, EDGES, BUILDINGS = range(8)


class BoardView(Widget):
    """The ring of spaces, the owners, the buildings, the mortgages and the tokens of `data` (view.board)."""

    def __init__(self, data: Mapping[str, Any], **kw: Any) -> None:
        super().__init__(**kw)
        self.data = data
        self.boxes: list[Box] = []  # each space's box, in the parent's frame
        self.spots: dict[str, tuple[float, float, float]] = {}  # each token's centre and diameter
        self.pot_label: Label | None = None  # the Free Parking jackpot's amount on its corner (`_pot`)
        self.pot_box: Box | None = None  # that corner's box, where the jackpot's payments fly (ui/motion.py)
        self.pot_corner: int | None = None  # the Free Parking corner's index
        self.draws = 0
        self._trigger = create_trigger(self.draw, -1)  # at most once a frame, before it is drawn
        self.bind(pos=self._trigger, size=self._trigger)
        self.draw()

    def update(self, data: Mapping[str, Any]) -> None:
        """New view data: drawn again (before the next frame) only if it changed."""
        if data != self.data:
            self.data = data
            self._trigger()

    def draw(self, *_: Any) -> None:
        self.draws += 1
        self.canvas.clear()
        spaces = self.data["spaces"]
        n = len(spaces)
        if not n or self.width <= 0 or self.height <= 0:
            self.boxes, self.spots = [], {}
            return
        side = min(self.width, self.height)
        x0, y0 = self.x + (self.width - side) / 2, self.y + (self.height - side) / 2
        placed = layout(n, x0, y0, side)
        gap = side * GAP
        boxes: list[Box] = [(x + gap / 2, y + gap / 2, w - gap, h - gap) for x, y, w, h, _ in placed]
        self.boxes = boxes
        depth = side * CORNER * BAND
        sides = [s for *_, s in placed]
        parts = [band_and_body(box, s, depth) for box, s in zip(boxes, sides, strict=True)]
        fine = max(1.0, side * MARK_LINE)
        line = max(1.0, side * OWNER_LINE)
        paint = Paint()
        dim = [theme.BG[0], theme.BG[1], theme.BG[2], MORTGAGE_DIM]
        for sp, box, (band, body), s in zip(spaces, boxes, parts, sides, strict=True):  # a box a space (`layout`)
            x, y, w, h = box
            paint.rect(CELLS, theme.SECONDARY, x, y, w, h)
            lot = sp["kind"] == "lot"
            if lot and band[2] > 0:
                paint.rect(BANDS, rgba(sp["colour"], theme.NO_GROUP), *band)
            self._mark(paint, sp, body if lot else box, fine)
            if sp["mortgaged"]:
                paint.rect(DIM, dim, x, y, w, h)
                paint.line(CROSS, theme.TEXT, x, y, x + w, y + h, fine)
                paint.line(CROSS, theme.TEXT, x, y + h, x + w, y, fine)
            if sp["owner_colour"]:
                paint.frame(OWNERS, rgba(sp["owner_colour"]), box, line)
            if sp["houses"] or sp["hotels"]:
                self._buildings(paint, sp, band, s)
        self._pot(spaces, boxes)
        if self.pot_label is not None and self.pot_corner is not None:  # the tokens there stand under the amount
            x, y, w, h = boxes[self.pot_corner]
            below = (x, y, w, max(h * 0.4, self.pot_label.y - y))
            parts = [(band, below) if k == self.pot_corner else (band, body) for k, (band, body) in enumerate(parts)]
        with self.canvas:
            paint.emit()
            self._tokens(spaces, boxes, parts, side)
        if self.pot_label is not None:  # over the spaces (the clear above took the label's canvas away)
            if self.pot_label.canvas in self.canvas.children:
                self.canvas.remove(self.pot_label.canvas)
            self.canvas.add(self.pot_label.canvas)

    def _pot(self, spaces: list[dict[str, Any]], boxes: list[Box]) -> None:
        """The Free Parking jackpot's amount on its corner (the view data's "pot", None with the house rule
        off: then no label at all). Its one Label, kept and told the new amount; centred on the corner, and
        wider than it only when the amount needs (then running along the top row, inside the board)."""
        corner = self.pot_corner = next((k for k, sp in enumerate(spaces) if sp["kind"] == "free_parking"), None)
        text = self.data.get("pot")
        if text is None or corner is None:
            self.pot_box = None
            if self.pot_label is not None:
                self.remove_widget(self.pot_label)
                self.pot_label = None
            return
        label = self.pot_label
        if label is None:
            label = self.pot_label = Label(font_size=theme.FONT_SMALL, bold=True, color=theme.ACCENT,
                                           halign="center", valign="middle", size_hint=(None, None))
            label.role = "board pot"
            self.add_widget(label)
        if label.text != text:
            label.text = text
        label.texture_update()
        x, y, w, h = boxes[corner]
        tw, th = texture_size(label)
        width = max(w, tw)
        left = min(max(x + (w - width) / 2, self.x), self.right - width)  # inside the board
        label.size = (width, min(h, th))
        label.pos = (left, y + h - label.height)  # along the corner's top, the tokens below it
        self.pot_box = (x, y, w, h)

    def _mark(self, paint: Paint, sp: dict[str, Any], box: Box, fine: float) -> None:
        """A small mark of the space's kind, so the family finds the cards, taxes and corners at a glance."""
        kind = sp["kind"]
        x, y, w, h = box
        m = min(w, h) * MARK
        cx, cy = x + w / 2, y + h / 2
        diamond = [(cx, cy - m / 2), (cx + m / 2, cy), (cx, cy + m / 2), (cx - m / 2, cy)]
        if kind == "card":
            paint.frame(MARKS, theme.ACCENT, (cx - m / 2, cy - m / 2, m, m), fine)
        elif kind in ("tax", "tax_choice"):
            paint.rect(MARKS, theme.MUTED, cx - m / 2, cy - fine, m, 2 * fine)
            paint.rect(MARKS, theme.MUTED, cx - fine, cy - m / 2, 2 * fine, m)
        elif kind == "railroad":
            if w >= h:
                paint.rect(MARKS, theme.MUTED, cx - m, cy - m / 3 - fine / 2, 2 * m, fine)
                paint.rect(MARKS, theme.MUTED, cx - m, cy + m / 3 - fine / 2, 2 * m, fine)
            else:
                paint.rect(MARKS, theme.MUTED, cx - m / 3 - fine / 2, cy - m, fine, 2 * m)
                paint.rect(MARKS, theme.MUTED, cx + m / 3 - fine / 2, cy - m, fine, 2 * m)
        elif kind == "utility":
            paint.poly(MARKS, theme.MUTED, diamond)
        elif kind == "casino":
            paint.poly(MARKS, theme.ACCENT, diamond)
        elif kind == "go":
            paint.rect(MARKS, theme.PRIMARY, x, y, w, h)
            # an arrow the way play goes (left, along the bottom)
            paint.line(BUILDINGS, theme.TEXT, cx + m, cy, cx - m, cy, 2 * fine)
            paint.poly(BUILDINGS, theme.TEXT, [(cx - m * 1.2, cy), (cx - m / 3, cy - m / 2),
                                               (cx - m / 3, cy + m / 2)])
        elif kind == "jail":
            for k in range(4):  # the bars, over the part of the corner where the jailed stand
                paint.rect(MARKS, theme.MUTED, x + w * (JAIL + (1 - JAIL) * (k + 0.5) / 4) - fine / 2,
                           y + h * JAIL, fine, h * (1 - JAIL))
        elif kind == "go_to_jail":
            paint.frame(MARKS, theme.MUTED, (cx - m, cy - m, 2 * m, 2 * m), fine)
            paint.line(MARKS, theme.MUTED, cx - m, cy - m, cx + m, cy + m, fine)

    def _buildings(self, paint: Paint, sp: dict[str, Any], band: Box, side: int | None) -> None:
        """Houses as small squares along the band, a hotel as a bar across it; each with a light edge."""
        x, y, w, h = band
        along = w if side in (0, 2) else h  # the band's length, along the side of the board
        deep = h if side in (0, 2) else w
        edge = max(1.0, deep * 0.08)
        if sp["hotels"]:
            shapes = [(along / 2, along * HOTEL[0])]  # (centre along, length along)
            fill, across = theme.DANGER, deep * HOTEL[1]
        else:
            count = sp["houses"]
            size = min(deep * HOUSE, along / (count * 1.2 + 0.2))
            slot = along / count
            shapes = [(slot * (k + 0.5), size) for k in range(count)]
            fill, across = theme.PRIMARY, size
        for layer, colour, grow in ((EDGES, theme.TEXT, edge), (BUILDINGS, fill, 0.0)):
            for centre, length in shapes:
                a0, a1 = centre - length / 2 - grow, length + 2 * grow
                d0, d1 = (deep - across) / 2 - grow, across + 2 * grow
                if side in (0, 2):
                    paint.rect(layer, colour, x + a0, y + d0, a1, d1)
                else:
                    paint.rect(layer, colour, x + d0, y + a0, d1, a1)

    def _tokens(self, spaces: list[dict[str, Any]], boxes: list[Box], parts: list[tuple[Box, Box]],
                side: float) -> None:
        """Every token on its space (the body of a street, below the band), several side by side."""
        self.spots = {}
        at: dict[int, list[dict[str, Any]]] = {}
        for t in self.data["tokens"]:
            if 0 <= t["position"] < len(spaces):
                at.setdefault(t["position"], []).append(t)
        biggest = side * TOKEN
        groups: list[tuple[Box, list[dict[str, Any]]]] = []
        for i, tokens in at.items():
            box = parts[i][1] if spaces[i]["kind"] == "lot" or i == self.pot_corner else boxes[i]
            jailed = [t for t in tokens if t["in_jail"]]
            if jailed and spaces[i]["kind"] == "jail":  # behind the bars, the visitors along the outer edge
                x, y, w, h = box
                groups.append(((x + w * JAIL, y + h * JAIL, w * (1 - JAIL), h * (1 - JAIL)), jailed))
                tokens = [t for t in tokens if not t["in_jail"]]
                box = (x, y, w, h * JAIL)
            if tokens:
                groups.append((box, tokens))
        for (x, y, w, h), tokens in groups:
            cols, rows, cell = token_grid(len(tokens), w, h)
            d = min(cell * TOKEN_FIT, biggest)
            left = x + (w - cols * cell) / 2
            bottom = y + (h - rows * cell) / 2
            for k, t in enumerate(tokens):
                cx = left + cell * (k % cols + 0.5)
                cy = bottom + cell * (rows - 1 - k // cols + 0.5)
                self.spots[t["name"]] = (cx, cy, d)
                if t["current"]:
                    width = max(1.0, side * RING)
                    Color(*theme.ACCENT)
                    SmoothLine(circle=(cx, cy, d / 2 + side * RING_GAP + width / 2, 0, 360, SEGMENTS),
                               width=width / 2)
                Color(*theme.TEXT)
                SmoothEllipse(pos=(cx - d / 2, cy - d / 2), size=(d, d), segments=SEGMENTS)
                inner = d * (1 - TOKEN_EDGE)
                Color(*rgba(t["colour"]))
                SmoothEllipse(pos=(cx - inner / 2, cy - inner / 2), size=(inner, inner), segments=SEGMENTS)


class BoardFrame(Widget):
    """A board with something in the middle of its ring, as a printed board has its centre: `board`, the
    BoardView over the whole widget, and `middle`, a vertical box laid into the ring's empty middle (the
    turn screen puts the dice and the deed card of the space landed on there)."""

    def __init__(self, data: Mapping[str, Any], square: bool = False, **kw: Any) -> None:
        if square:  # as wide as the row it stands in is high
            kw["size_hint_x"] = None
        super().__init__(**kw)
        if square:
            self.bind(height=self.setter("width"))
        self.board = BoardView(data)
        self.middle = BoxLayout(orientation="vertical", spacing=theme.GAP_TIGHT)
        self.add_widget(self.board)
        self.add_widget(self.middle)
        self.bind(pos=self._place, size=self._place)
        self._place()

    def _place(self, *_: Any) -> None:
        self.board.pos, self.board.size = self.pos, self.size
        x, y, w, h = middle(self.x, self.y, self.width, self.height)
        self.middle.pos, self.middle.size = (x, y), (w, h)
