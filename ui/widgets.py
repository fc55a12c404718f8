"""Small building blocks with the app's look: big, high-contrast, readable across the table; and the app's
typed edge over Kivy.

Every colour and size comes from ui/theme.py; a font size given to `Text` or `BigButton` is already in
pixels (a `theme.FONT_*`).

Kivy has no type hints: to mypy its classes, and whatever they return, are Any. The values the app takes out
of Kivy and keeps or hands on go through the small typed functions below (the Clock's events, a label's
texture size, a text's width, a point in window coordinates), so that no Any spreads from Kivy into the rest
of ui/ (docs/app.md, "Kivy and the type checker").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Rectangle
from kivy.graphics import SmoothRoundedRectangle as RoundedRectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.widget import Widget
from kivy.utils import get_color_from_hex

from ui import theme

# ---------------------------------------------------------------------- the typed edge over Kivy


class Action(Protocol):
    """What a button does: called with nothing. A Protocol rather than `Callable[[], object]`: mypy cannot infer
    a lambda that binds a loop's value as a default (`lambda n=name: f.deeds.show(n)`) against a Callable of no
    parameters (python/mypy#15459), and against this it can, and checks the lambda's body."""

    def __call__(self) -> object: ...


class Scheduled(Protocol):
    """A call Kivy's Clock is to make (its ClockEvent): `cancel` calls it off."""

    def cancel(self) -> None: ...


class Trigger(Scheduled, Protocol):
    """A call Kivy's Clock makes at most once a frame however often it is asked for (`create_trigger`): calling
    the trigger asks for it."""

    @property
    def is_triggered(self) -> bool: ...

    def __call__(self, *_: object) -> None: ...


def schedule_once(fn: Callable[[float], object], delay: float = 0) -> Scheduled:
    """`fn(dt)` once, `delay` seconds from now (0: at the next frame), on Kivy's main thread."""
    event: Scheduled = Clock.schedule_once(fn, delay)
    return event


def create_trigger(fn: Callable[..., object], delay: float = 0) -> Trigger:
    """A trigger of `fn`: called once, `delay` seconds after it is first asked for (-1: before the next frame)."""
    trigger: Trigger = Clock.create_trigger(fn, delay)
    return trigger


def texture_size(label: Label) -> tuple[float, float]:
    """The size of `label`'s text as Kivy last drew it (`texture_update` draws it now)."""
    width, height = label.texture_size
    return float(width), float(height)


def text_width(text: str, size: float, bold: bool = True) -> float:
    """How wide `text` is on one line at font size `size`, measured without a widget."""
    width = CoreLabel(text=text, font_size=size, bold=bold).get_extents(text)[0]
    return float(width)


def window_point(widget: Widget, x: float, y: float) -> tuple[float, float]:
    """The point (x, y), given as `widget`'s own position is (its parent's frame), in window coordinates: where
    a touch lands, where the money in motion flies."""
    wx, wy = widget.to_window(x, y)
    return float(wx), float(wy)


# ---------------------------------------------------------------------- the building blocks


def colour(hex_code: str) -> list[float]:
    return list(get_color_from_hex(hex_code))


class Text(Label):
    """A label that wraps to its width and grows to its text."""

    def __init__(self, text: str = "", size: float | None = None, bold: bool = False, color: Any = None,
                 halign: str = "left", **kw: Any) -> None:
        self._asked = kw.get("height", 0)  # a row's height: the text is centred in it, never shrinks it
        super().__init__(text=text, font_size=theme.FONT_BODY if size is None else size, bold=bold,
                         color=color or theme.TEXT, halign=halign,
                         valign="middle", size_hint_y=None, **kw)
        self.bind(width=self._wrap, texture_size=self._grow)
        self._wrap()

    def _wrap(self, *_: Any) -> None:
        self.text_size = (self.width, None)

    def _grow(self, *_: Any) -> None:
        self.height = max(texture_size(self)[1], self.font_size * 0.2, self._asked)


class BigButton(Button):
    """A big touch target (theme.TARGET tall unless told), bold text that says what it does. `action` is what
    a touch does; a kept button (ui/screens/base.py's `button`) is given a new one in place."""

    def __init__(self, text: str, on_press: Action | None = None, kind: str = "primary",
                 size: float | None = None, **kw: Any) -> None:
        kw.setdefault("size_hint_y", None)
        kw.setdefault("height", theme.TARGET)
        if kw.get("background_color") is None:
            kw["background_color"] = theme.KINDS.get(kind, theme.PRIMARY)
        super().__init__(text=text, font_size=theme.FONT_BODY if size is None else size, bold=True,
                         background_normal="", background_down="", color=theme.TEXT, halign="center",
                         valign="middle", **kw)
        self.bind(size=lambda *_: setattr(self, "text_size", (self.width - theme.TEXT_INSET, self.height)))
        self.text_size = (self.width - theme.TEXT_INSET, self.height)  # a fixed width may never fire `size`
        self.action = on_press
        self.bind(on_release=lambda *_: self.action() if self.action is not None else None)


class Panel(BoxLayout):
    """A dark rounded panel behind a group of widgets."""

    def __init__(self, fill: Any = None, **kw: Any) -> None:
        kw.setdefault("padding", theme.PAD)
        kw.setdefault("spacing", theme.GAP)
        super().__init__(**kw)
        with self.canvas.before:
            Color(*(fill or theme.PANEL))
            self._rect = RoundedRectangle(radius=[theme.RADIUS])
        self.bind(pos=self._redraw, size=self._redraw)

    def _redraw(self, *_: Any) -> None:
        self._rect.pos = self.pos
        self._rect.size = self.size


class Chip(Widget):
    """A player's token colour."""

    def __init__(self, hex_code: str, **kw: Any) -> None:
        kw.setdefault("size_hint", (None, None))
        kw.setdefault("size", theme.CHIP)
        super().__init__(**kw)
        with self.canvas:
            Color(*colour(hex_code))
            self._rect = RoundedRectangle(radius=[theme.RADIUS_CHIP])
        self.bind(pos=self._redraw, size=self._redraw)

    def _redraw(self, *_: Any) -> None:
        self._rect.pos = self.pos
        self._rect.size = self.size


class Die(Widget):
    """One big die face with pips."""

    PIPS = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (0, 2), (2, 0), (2, 2)],
            5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)], 6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)]}

    def __init__(self, value: int, **kw: Any) -> None:
        kw.setdefault("size_hint", (None, None))
        kw.setdefault("size", theme.DIE)
        super().__init__(**kw)
        self.value = value
        self.bind(pos=self._draw, size=self._draw)
        self._draw()

    def _draw(self, *_: Any) -> None:
        self.canvas.clear()
        with self.canvas:
            Color(*theme.DIE_FACE)
            RoundedRectangle(pos=self.pos, size=self.size, radius=[theme.RADIUS_DIE])
            Color(*theme.INK)
            step = self.width / 4
            r = self.width / 9
            for gx, gy in self.PIPS.get(self.value, []):
                cx = self.x + step * (gx + 1)
                cy = self.y + step * (gy + 1)
                RoundedRectangle(pos=(cx - r, cy - r), size=(2 * r, 2 * r), radius=[r])


class Stripe(Widget):
    """A coloured bar, as on a title deed."""

    def __init__(self, hex_code: str, **kw: Any) -> None:
        kw.setdefault("size_hint_y", None)
        kw.setdefault("height", theme.STRIPE)
        super().__init__(**kw)
        with self.canvas:
            Color(*colour(hex_code))
            self._rect = Rectangle()
        self.bind(pos=self._redraw, size=self._redraw)

    def _redraw(self, *_: Any) -> None:
        self._rect.pos = self.pos
        self._rect.size = self.size


class QRCode(Widget):
    """A QR code of `text`, made with the qrcode library into a Kivy texture (one texel per module,
    drawn with nearest-neighbour scaling so the modules stay sharp), with the quiet zone around it."""

    def __init__(self, text: str, **kw: Any) -> None:
        import qrcode
        from kivy.graphics.texture import Texture

        kw.setdefault("size_hint", (None, None))
        kw.setdefault("size", theme.QR)
        super().__init__(**kw)
        self.text = text
        qr = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=4)
        qr.add_data(text)
        qr.make(fit=True)
        matrix = qr.get_matrix()  # rows of booleans, quiet zone included; True = dark
        n = len(matrix)
        # Texture rows go bottom-up: the matrix's last row is the texture's first.
        data = bytes(0 if dark else 255 for row in reversed(matrix) for dark in row)
        texture = Texture.create(size=(n, n), colorfmt="luminance")
        texture.blit_buffer(data, colorfmt="luminance", bufferfmt="ubyte")
        texture.mag_filter = "nearest"
        texture.min_filter = "nearest"
        self.texture = texture
        with self.canvas:
            Color(*theme.DIE_FACE)  # white: the texture's own greys show as they are
            self._rect = Rectangle(texture=texture)
        self.bind(pos=self._redraw, size=self._redraw)
        self._redraw()

    def _redraw(self, *_: Any) -> None:
        side = min(self.width, self.height)
        self._rect.size = (side, side)
        self._rect.pos = (self.center_x - side / 2, self.center_y - side / 2)


def snug(label: Text) -> Text:
    """`label` made as wide as its text on one line (an amount beside a name: the name gets the rest), and
    kept so when its text changes."""
    label.size_hint_x = None
    label.unbind(width=label._wrap)
    label.text_size = (None, None)

    def fit(*_: Any) -> None:
        label.width = texture_size(label)[0] + label.padding[0] + label.padding[2]
    label.bind(texture_size=fit)
    label.texture_update()  # its width now, not Kivy's first 100 px
    fit()
    return label
