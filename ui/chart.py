"""The game-over chart (`Chart`) and the report page's money in and out (`MoneyBars`, below).

The game-over chart: everyone's net worth over the game, a line per player, on axes the family can read:
round numbers along the bottom and money amounts up the side (thousands grouped the language's way), each
tick labelled in theme.FONT_SMALL, never closer than its labels allow.

    Chart(series, colours, rounds=[1, 1, 1, 2, ...], number=c.tr.number)

`series`: a player's net worth at each point (the start of each turn, view.worth_history); `rounds`: the
round each point falls in (1 for the first); `number`: how an amount is written ("1 500", "1,500").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from kivy.graphics import Color, Rectangle, RoundedRectangle
from kivy.graphics import SmoothLine as Line
from kivy.uix.label import Label
from kivy.uix.widget import Widget
from kivy.utils import get_color_from_hex

from ui import theme
from ui.widgets import texture_size

TICKS_MOST = 6  # amounts labelled up the side, at most


def nice_step(span: float, most: int) -> int:
    """The least of 1, 2, 5 times a power of ten that splits `span` into at most `most` steps."""
    if span <= 0:
        return 1
    raw = span / max(1, most)
    power = 10 ** max(0, math.floor(math.log10(raw))) if raw >= 1 else 1
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return int(factor * power)
    return int(10 * power)


def amount_ticks(values: list[int], most: int) -> list[int]:
    """Round amounts from at most 0 to at least the highest value (and below 0 if a worth was), evenly
    stepped, at most `most` + 1 of them."""
    low, high = min(min(values), 0), max(max(values), 1)
    most = max(2 if low < 0 else 1, most)  # below 0 and above it: two steps at the least
    step = nice_step(high - low, most)
    while math.ceil(high / step) - math.floor(low / step) > most:
        step = nice_step(step * 1.01, 1)  # the next of 1, 2, 5, 10, 20...: fewer ticks
    first, last = math.floor(low / step), math.ceil(high / step)
    return [k * step for k in range(first, last + 1)]


def round_starts(rounds: list[int]) -> list[tuple[int, int]]:
    """(point, round) where each round begins: the first point of round 1, 2, ..."""
    starts: list[tuple[int, int]] = []
    for k, r in enumerate(rounds):
        if not starts or r != starts[-1][1]:
            starts.append((k, r))
    return starts


class Chart(Widget):
    """Net worth over the game: one line per player, over labelled axes."""

    def __init__(self, series: dict[str, list[int]], colours: dict[str, str], rounds: list[int] | None = None,
                 number: Callable[[int], str] = str, **kw: Any) -> None:
        super().__init__(**kw)
        self.series = series
        self.colours = colours
        length = max((len(s) for s in series.values()), default=1)
        self.rounds = list(rounds) if rounds else [1] * length
        self.number = number
        self.bind(pos=self._draw, size=self._draw)

    def _label(self, text: str) -> Label:
        """A tick's label, as big as its text (not yet on the chart)."""
        label = Label(text=text, font_size=theme.FONT_SMALL, color=theme.MUTED, size_hint=(None, None))
        label.texture_update()
        label.size = texture_size(label)
        label.role = "chart tick"
        return label

    def _draw(self, *_: Any) -> None:
        self.clear_widgets()
        self.canvas.clear()
        if self.width < 1 or self.height < 1:
            return
        values = [v for s in self.series.values() for v in s] or [0]
        length = max((len(s) for s in self.series.values()), default=1)
        m = theme.CHART_MARGIN
        line_height = self._label("0").height
        # Up the side: as many amounts as fit with a label's height of room between them.
        room = self.height - 2 * m - 2 * line_height
        amounts = amount_ticks(values, min(TICKS_MOST, max(1, int(room // (2 * line_height)))))
        side = [self._label(self.number(a)) for a in amounts]
        left: float = self.x + m + max(label.width for label in side) + theme.GAP_WIDE
        right: float = self.right - m
        bottom: float = self.y + m + line_height + theme.GAP
        top: float = self.top - m - line_height / 2
        low, high = amounts[0], amounts[-1]

        def y_of(v: float) -> float:
            return bottom + (top - bottom) * (v - low) / ((high - low) or 1)

        def x_of(k: int) -> float:
            return left + (right - left) * k / max(1, length - 1)

        # Along the bottom: where each round begins, every n-th round so that the labels keep apart.
        starts = round_starts(self.rounds[:length])
        along = [self._label(str(r)) for _, r in starts]
        widest = max((label.width for label in along), default=0)
        per_point = (right - left) / max(1, length - 1)
        every = 1
        while every < len(starts) and any((starts[i + every][0] - starts[i][0]) * per_point
                                          < widest + 2 * theme.GAP_WIDE
                                          for i in range(0, len(starts) - every, every)):
            every += 1
        with self.canvas:
            Color(*theme.PANEL)
            Rectangle(pos=self.pos, size=self.size)
            Color(*theme.AXIS)
            for a in amounts:  # a line across at each amount, the base line (0) firmer
                Line(points=[left, y_of(a), right, y_of(a)], width=theme.CHART_AXIS * (2 if a == 0 else 1))
            Line(points=[left, bottom, left, top], width=theme.CHART_AXIS)
            for k, _r in starts[::every]:
                Line(points=[x_of(k), bottom, x_of(k), bottom - theme.GAP], width=theme.CHART_AXIS)
            for name, points in self.series.items():
                if len(points) < 2:
                    continue
                Color(*get_color_from_hex(self.colours.get(name, theme.NO_COLOUR)))
                coords: list[float] = []
                for k, v in enumerate(points):
                    coords += [x_of(k), y_of(v)]
                Line(points=coords, width=theme.CHART_LINE)
        for a, label in zip(amounts, side, strict=True):
            label.pos = (left - theme.GAP_WIDE - label.width, y_of(a) - label.height / 2)
            self.add_widget(label)
        last_right = -math.inf
        for (k, _r), label in list(zip(starts, along, strict=True))[::every]:
            x = min(max(x_of(k) - label.width / 2, left), self.right - m - label.width)
            if x < last_right + theme.GAP_WIDE:  # squeezed against the last one at the end: left out
                continue
            label.pos = (x, self.y + m)
            last_right = x + label.width
            self.add_widget(label)


# ---------------------------------------------------------------------- money in and out, per player

SHADES = (1.0, 0.62, 0.34)  # money received by kind (rent, salary, the rest): the player's colour, then paler
PAID_EDGE, PAID_FILL = 0.9, 0.2  # money paid: a bar of theme.MUTED's edge this strong, its inside this faint


def shade(colour: list[float], strength: float, under: list[float] | None = None) -> list[float]:
    """`colour` laid over `under` (the chart's panel) at `strength`: an opaque colour, paler as it weakens."""
    base = theme.PANEL if under is None else under
    return [c * strength + b * (1 - strength) for c, b in zip(colour[:3], base[:3], strict=True)] + [1.0]


def bar_scale(most_paid: int, most_received: int, room: float) -> float:
    """Pixels per unit of money for bars that share `room`: the most any player paid to the left of the axis
    and the most any received to its right, on one scale (0 when nobody paid or received anything)."""
    total = max(0, most_paid) + max(0, most_received)
    return max(0.0, room) / total if total > 0 else 0.0


class MoneyBars(Widget):
    """Each player's money over the game on one line, an axis down the middle: what they paid as a bar to its
    left (hollow, grey), what they received to its right, that bar split by kind (rent in the player's colour,
    salary and the rest paler), each bar's total at its end; "paid" and "received" over the axis, the kinds'
    legend under the bars, in the first player's colour. The amounts are the engine's report's (ui.flows.report.money_view); the widget draws only.

        MoneyBars({"players": [{"name": "Ann", "colour": "#E53935", "received": [["rent", 300], ...],
                                "paid": 450, "received_text": "1,950", "paid_text": "450"}, ...],
                   "paid": "paid", "received": "received", "kinds": [["rent", "rent"], ...]})

    Its height follows from its width (the legend wraps): it sets its own."""

    height: float  # Kivy's property (Any to mypy), typed: the widget reads and sets it itself (`_draw`)

    def __init__(self, data: Mapping[str, Any], **kw: Any) -> None:  # ui/flows/report.py's MoneyView
        kw.setdefault("size_hint_y", None)
        super().__init__(**kw)
        self.data = data
        self.bind(pos=self._draw, size=self._draw)

    def _label(self, text: str, role: str, size: float | None = None, bold: bool = False,
               color: list[float] | None = None) -> Label:
        label = Label(text=text, font_size=theme.FONT_SMALL if size is None else size, bold=bold,
                      color=theme.MUTED if color is None else color, size_hint=(None, None))
        label.texture_update()
        label.size = texture_size(label)
        label.role = role
        return label

    def _draw(self, *_: Any) -> None:
        self.clear_widgets()
        self.canvas.clear()
        if self.width < 1:
            return
        players = self.data["players"]
        m, gap, wide = theme.CHART_MARGIN, theme.GAP, theme.GAP_WIDE
        row_h, bar_h = theme.LINE_PLAYER_TEXT, theme.LINE_BAR
        names = [self._label(p["name"], "chart name", theme.FONT_BODY, bold=True, color=theme.TEXT) for p in players]
        paid_words = [self._label(p["paid_text"], "chart amount", theme.FONT_BODY, color=theme.TEXT)
                      if p["paid"] else None for p in players]
        received_words = [self._label(p["received_text"], "chart amount", theme.FONT_BODY, color=theme.TEXT)
                          if sum(a for _k, a in p["received"]) else None for p in players]
        paid_head = self._label(self.data["paid"], "chart heading", theme.FONT_BODY, bold=True, color=theme.TEXT)
        received_head = self._label(self.data["received"], "chart heading", theme.FONT_BODY, bold=True,
                                    color=theme.TEXT)
        lines_of_legend: list[tuple[int, float, Label]] = []  # the kinds' legend: (its line, x, word), wrapped
        words = [self._label(word, "chart legend", theme.FONT_BODY) for _kind, word in self.data["kinds"]]
        line_h = max([paid_head.height] + [w.height for w in words])
        swatch = line_h * 0.7
        x, legend_rows = 0.0, 0
        for word in words:
            need = swatch + gap + word.width
            if x > 0 and x + need > self.width - 2 * m:
                x, legend_rows = 0.0, legend_rows + 1
            lines_of_legend.append((legend_rows, x, word))
            x += need + 2 * wide
        height: float = 2 * m + line_h + gap + len(players) * row_h + gap + (legend_rows + 1) * line_h
        if abs(self.height - height) > 0.5:
            self.height = height  # drawn again at this height
            return
        widest = max((w.width for w in paid_words + received_words if w is not None), default=0.0)
        chip_w, chip_h = theme.CHIP
        left = self.x + m + chip_w + gap + max((n.width for n in names), default=0.0) + wide  # the bars' room
        right = self.right - m
        most_paid = max((p["paid"] for p in players), default=0)
        most_received = max((sum(a for _k, a in p["received"]) for p in players), default=0)
        # One scale for every bar, the totals at the bars' ends and "paid" and "received" over the axis in the room.
        room = right - left - 2 * (widest + gap)
        for _try in range(3):  # the headings' room taken from the bars' where they are wider than a bar and its total
            scale = bar_scale(most_paid, most_received, room)
            left_of_axis = max(most_paid * scale + gap + widest, paid_head.width + gap)
            right_of_axis = max(most_received * scale + gap + widest, received_head.width + gap)
            room -= max(0.0, left_of_axis + right_of_axis - (right - left))
        axis = left + left_of_axis
        top = self.top - m
        with self.canvas:
            Color(*theme.PANEL)
            Rectangle(pos=self.pos, size=self.size)
            bars_top = top - line_h - gap
            for k, p in enumerate(players):
                mid = bars_top - k * row_h - row_h / 2
                y = mid - bar_h / 2
                if p["paid"] > 0:  # hollow: money gone, told apart from every kind received
                    paid_w, edge = p["paid"] * scale, min(theme.CHART_LINE, p["paid"] * scale / 2)
                    Color(*shade(theme.MUTED, PAID_EDGE))
                    Rectangle(pos=(axis - paid_w, y), size=(paid_w, bar_h))
                    Color(*shade(theme.MUTED, PAID_FILL))
                    Rectangle(pos=(axis - paid_w + edge, y + edge), size=(paid_w - 2 * edge, bar_h - 2 * edge))
                colour = get_color_from_hex(p["colour"] or theme.NO_COLOUR)
                Color(*colour)  # the player's chip, as in the lines under the chart
                RoundedRectangle(pos=(self.x + m, mid - chip_h / 2), size=(chip_w, chip_h), radius=[theme.RADIUS_CHIP])
                x0 = axis
                # a shade for each kind received (ui/flows/report.py's CHART_KINDS, and the rest)
                for (_kind, amount), strength in zip(p["received"], SHADES, strict=True):
                    if amount <= 0:
                        continue
                    Color(*shade(colour, strength))
                    Rectangle(pos=(x0, y), size=(amount * scale, bar_h))
                    x0 += amount * scale
            Color(*theme.AXIS)
            Line(points=[axis, top - line_h, axis, bars_top - len(players) * row_h], width=theme.CHART_AXIS * 2)
            legend_top = bars_top - len(players) * row_h - gap
            # the kinds in the first player's colour (the winner's, whose bar is on top), as in that bar
            legend_colour = get_color_from_hex(players[0]["colour"] or theme.NO_COLOUR) if players else theme.TEXT
            for line, x, word in lines_of_legend:
                k = words.index(word)
                y = legend_top - (line + 1) * line_h
                Color(*shade(legend_colour, SHADES[k]))
                Rectangle(pos=(self.x + m + x, y + (line_h - swatch) / 2), size=(swatch, swatch))
        paid_head.pos = (axis - gap - paid_head.width, top - line_h)
        received_head.pos = (axis + gap, top - line_h)
        self.add_widget(paid_head)
        self.add_widget(received_head)
        for k, p in enumerate(players):
            mid = bars_top - k * row_h - row_h / 2
            names[k].pos = (self.x + m + chip_w + gap, mid - names[k].height / 2)
            self.add_widget(names[k])
            paid, received = paid_words[k], received_words[k]
            if paid is not None:
                paid.pos = (axis - p["paid"] * scale - gap - paid.width, mid - paid.height / 2)
                self.add_widget(paid)
            if received is not None:
                received.pos = (axis + sum(a for _k, a in p["received"]) * scale + gap, mid - received.height / 2)
                self.add_widget(received)
        for line, x, word in lines_of_legend:
            word.pos = (self.x + m + x + swatch + gap, legend_top - (line + 1) * line_h)
            self.add_widget(word)
