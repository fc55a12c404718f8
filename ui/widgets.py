"""Small building blocks with the app's look: big, high-contrast, readable across the table.

Every colour and size comes from ui/theme.py; a font size given to `Text` or `BigButton` is already in
pixels (a `theme.FONT_*`).
"""

from __future__ import annotations

from typing import Any, Callable

from kivy.graphics import Color, Rectangle
from kivy.graphics import SmoothRoundedRectangle as RoundedRectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.widget import Widget
from kivy.utils import get_color_from_hex

from ui import theme


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
        self.height = max(self.texture_size[1], self.font_size * 0.2, self._asked)


class BigButton(Button):
    """A big touch target (theme.TARGET tall unless told), bold text that says what it does. `action` is what
    a touch does; a kept button (ui/screens/base.py's `button`) is given a new one in place."""

    def __init__(self, text: str, on_press: Callable[[], Any] | None = None, kind: str = "primary",
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
        label.width = label.texture_size[0] + label.padding[0] + label.padding[2]
    label.bind(texture_size=fit)
    label.texture_update()  # its width now, not Kivy's first 100 px
    fit()
    return label
