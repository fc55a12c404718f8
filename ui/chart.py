"""The game-over chart: everyone's net worth over the game, a line per player, on axes the family can read:
round numbers along the bottom and money amounts up the side (thousands grouped the language's way), each
tick labelled in theme.FONT_SMALL, never closer than its labels allow.

    Chart(series, colours, rounds=[1, 1, 1, 2, ...], number=c.tr.number)

`series`: a player's net worth at each point (the start of each turn, view.worth_history); `rounds`: the
round each point falls in (1 for the first); `number`: how an amount is written ("1 500", "1,500").
"""

from __future__ import annotations

import math
from typing import Any, Callable

from kivy.graphics import Color, Rectangle
from kivy.graphics import SmoothLine as Line
from kivy.uix.label import Label
from kivy.uix.widget import Widget
from kivy.utils import get_color_from_hex

from ui import theme

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
        label.size = label.texture_size
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
        left = self.x + m + max(label.width for label in side) + theme.GAP_WIDE
        right = self.right - m
        bottom = self.y + m + line_height + theme.GAP
        top = self.top - m - line_height / 2
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
        for a, label in zip(amounts, side):
            label.pos = (left - theme.GAP_WIDE - label.width, y_of(a) - label.height / 2)
            self.add_widget(label)
        last_right = -math.inf
        for (k, _r), label in list(zip(starts, along))[::every]:
            x = min(max(x_of(k) - label.width / 2, left), self.right - m - label.width)
            if x < last_right + theme.GAP_WIDE:  # squeezed against the last one at the end: left out
                continue
            label.pos = (x, self.y + m)
            last_right = x + label.width
            self.add_widget(label)
