"""Money in motion: what a payment, a purchase, a building and the end of a game look like at the table.

The new balances are on screen in the first frame after a tap, as ever (the redraw never waits for any
of this). Then `MotionLayer`, a widget laid over the whole window, hears the action's moments
(ui/moments.py) and plays them with Kivy's `Animation`, each well under a second:

- a payment: its amount, large, travels on a bow from the payer's cash on the screen to the payee's (the bank
  is the board's middle, or the screen's when there is no board; the Free Parking jackpot is the board's Free
  Parking corner, where its amount shows), then fades: a tax into the jackpot flies to the corner, the
  jackpot won flies from the corner to the player;
  several payments of one action set off `STAGGER` apart, at most `FLYING_MOST` at once;
- a purchase: the deed's space on the board flashes in the buyer's colour;
- a building: a pop of light on its space; built where the board is not on screen (the deeds screen, where
  the family builds), it pops when the board shows again;
- the end of the game: "Ann wins!", large, over the game-over screen, with a burst of the
  players' colours and the celebration sound; it fades out by itself and shows the ranking and the
  chart beneath.

The layer takes no touches: every touch goes through to the screen beneath, whatever is in flight.
An undo stops what is in flight (it told of something taken back). With the *Animations* setting off
nothing moves. The layer finds what it animates from by the `role` the screens give their widgets
(`purse NAME` on the turn screen's player lines) and the board view's space boxes.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kivy.animation import Animation
from kivy.graphics import Color, Ellipse, Rectangle
from kivy.properties import NumericProperty
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from ui import theme
from ui.board import BoardView, rgba
from ui.i18n import winners_msg
from ui.moments import EVENT, MONEY, UNDONE, Moment
from ui.widgets import Scheduled, schedule_once, texture_size, window_point

if TYPE_CHECKING:
    from ui.session import Session

FLIGHT = 0.6  # seconds an amount travels from the payer to the payee
FADE = 0.2  # seconds it then takes to fade
BOW = 0.5  # how far (a share of the screen's shorter side) at least a flight swings out on its way
STAGGER = 0.15  # seconds between the payments of one action
FLYING_MOST = 4  # amounts in flight at once; more of one action are not flown (the notices list them)
FLASH = 0.8  # seconds a bought deed or a new building glows on the board
CELEBRATION = 2.4  # seconds the winner's name stays over the game-over screen (its fade included)
CONFETTI = 36  # pieces of the players' colours in the celebration
STEP = 1 / 30  # seconds between two frames of an animation (Kivy's default, every frame, spins the loop flat out)
SETTLE = 0.1  # seconds after the moment before anything moves: the frame with the new balances comes first


def _animation(**kw: Any) -> Animation:
    return Animation(step=STEP, **kw)


class Flash(Widget):
    """A rectangle of colour that fades (its opacity animated: one Color, one Rectangle)."""

    def __init__(self, colour: list[float], box: tuple[float, float, float, float], **kw: Any) -> None:
        super().__init__(size_hint=(None, None), pos=box[:2], size=box[2:], **kw)
        with self.canvas:
            Color(*colour)
            Rectangle(pos=self.pos, size=self.size)


class FlyingAmount(Label):
    """An amount on its way: `progress` 0 at the payer, 1 at the payee, along a bow that swings towards the
    screen's middle (payer and payee are often neighbouring lines: a straight hop would hardly be seen)."""

    progress = NumericProperty(0.0)

    def __init__(self, start: tuple[float, float], end: tuple[float, float], middle: tuple[float, float],
                 bow: float, **kw: Any) -> None:
        super().__init__(size_hint=(None, None), **kw)
        self.texture_update()
        self.size = texture_size(self)
        self.start, self.end = start, end
        (x0, y0), (x1, y1) = start, end
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        dx, dy = x1 - x0, y1 - y0
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length, dx / length  # across the way
        if (middle[0] - mx) * nx + (middle[1] - my) * ny < 0:  # bow out towards the middle of the screen
            nx, ny = -nx, -ny
        reach = max(bow, length * 0.3)
        self.control = (mx + nx * reach, my + ny * reach)
        self.center = start

    def on_progress(self, _: Any, t: float) -> None:
        (x0, y0), (cx, cy), (x1, y1) = self.start, self.control, self.end
        u = 1 - t
        x, y = u * u * x0 + 2 * u * t * cx + t * t * x1, u * u * y0 + 2 * u * t * cy + t * t * y1
        if self.parent is not None:  # wholly on screen, even from a cash at its edge
            x = min(max(x, self.width / 2), self.parent.width - self.width / 2)
            y = min(max(y, self.height / 2), self.parent.height - self.height / 2)
        self.center = (x, y)


class Piece(Widget):
    """One piece of confetti (or the pop of a building): a dot of colour."""

    def __init__(self, colour: list[float], diameter: float, **kw: Any) -> None:
        super().__init__(size_hint=(None, None), size=(diameter, diameter), **kw)
        with self.canvas:
            Color(*colour)
            self._dot = Ellipse(pos=self.pos, size=self.size)
        self.bind(pos=self._move, size=self._move)

    def _move(self, *_: Any) -> None:
        self._dot.pos, self._dot.size = self.pos, self.size


class MotionLayer(Widget):
    """Over the whole window; animates the moments it hears; takes no touches."""

    def __init__(self, session: Session, screen: Callable[[], Widget | None],
                 play_sound: Callable[[str], None] | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.c = session
        self.screen = screen  # the screen showing now
        self.play_sound = play_sound or (lambda name: None)
        self.waiting: list[Scheduled] = []  # scheduled starts not yet run
        self.flying: list[Widget] = []
        self.started = 0  # what has set off since the start (tests and the tour count on it)
        self.unseen: list[Any] = []  # the spaces built on while the board was not on screen, to pop when it is
        self.flips = 0  # frames put on screen so far: nothing moves before the moment's figures are drawn (_later)
        from kivy.core.window import Window

        Window.bind(on_flip=self._flipped)

    # ---- touches go through

    def on_touch_down(self, touch: Any) -> bool:
        return False

    def on_touch_move(self, touch: Any) -> bool:
        return False

    def on_touch_up(self, touch: Any) -> bool:
        return False

    # ---- the moments

    def tell(self, moments: list[Moment]) -> None:
        if any(m.kind == UNDONE for m in moments):
            self.stop()
            return
        if not self.c.settings.motion:
            return
        over = next((m for m in moments if m.kind == EVENT and m.code == "game_over"), None)
        if over is not None:  # the last payments are the ranking's business: the occasion is the winner
            self.unseen.clear()
            if over.params.get("winner"):  # (a game abandoned has none)
                self._later(SETTLE, self._celebrate, over.params["winner"])
            return
        flights = 0
        for m in moments:
            if m.kind == MONEY and isinstance(m.params.get("amount"), int) and m.params["amount"] > 0:
                if flights < FLYING_MOST:
                    self._later(SETTLE + flights * STAGGER, self._fly, m.params)
                    flights += 1
                if m.code in ("buy", "auction", "own_auction", "deal", "sell_to_player"):
                    self._later(SETTLE, self._flash, m.params.get("space"), m.params.get("payer"))
            elif m.kind == EVENT and m.code == "built":
                self._later(SETTLE, self._pop, m.params.get("space"))

    def stop(self) -> None:
        """Nothing more moves: what waits is called off, what flies is taken away."""
        for event in self.waiting:
            event.cancel()
        self.waiting.clear()
        for w in self.flying:
            Animation.cancel_all(w)
            if w.parent is self:
                self.remove_widget(w)
        self.flying.clear()
        self.unseen.clear()

    def screen_shown(self) -> None:
        """Another screen is showing: if it has the board, what was built meanwhile pops on it (after a
        frame with the board at rest)."""
        if self.unseen:
            self._later(SETTLE, self._pop_unseen)

    def _pop_unseen(self) -> None:
        if not self.c.settings.motion:  # turned off meanwhile: nothing pops
            self.unseen.clear()
            return
        if self.board_view() is None:
            return  # (kept for the board's next showing)
        spaces, self.unseen = self.unseen, []
        for space in spaces:
            self._pop(space)

    def busy(self) -> bool:
        return bool(self.waiting or self.flying)

    def _flipped(self, *_: Any) -> None:
        self.flips += 1

    def _later(self, delay: float, fn: Callable[..., None], *args: Any) -> None:
        """`fn(*args)` in `delay` seconds, and never before the frame that shows what the moment changed (the
        new balances) is on screen, however slowly a busy machine draws. The screen is rebuilt at the loop's
        next turn (the app's redraw is a Clock trigger), so the frame of the turn that handled the tap still
        shows the old figures: the new ones are in the second frame from the moment."""
        flips = self.flips
        event: Scheduled | None = None

        def run(dt: float) -> None:
            nonlocal event
            if event in self.waiting:
                self.waiting.remove(event)
            if self.flips < flips + 2:  # not on screen yet: ask for a frame and wait as long again
                self.canvas.ask_update()
                event = schedule_once(run, delay)
                self.waiting.append(event)
                return
            fn(*args)
        event = schedule_once(run, delay)
        self.waiting.append(event)

    def _add(self, widget: Widget, animation: Animation) -> None:
        self.started += 1
        self.flying.append(widget)
        self.add_widget(widget)
        animation.bind(on_complete=lambda *_: self._gone(widget))
        animation.start(widget)

    def _gone(self, widget: Widget) -> None:
        if widget in self.flying:
            self.flying.remove(widget)
        if widget.parent is self:
            self.remove_widget(widget)

    # ---- where things are

    def _find(self, role: str) -> Widget | None:
        root = self.screen()
        if root is None:
            return None
        return next((w for w in root.walk() if getattr(w, "role", None) == role), None)

    def board_view(self) -> BoardView | None:
        root = self.screen()
        if root is None:
            return None
        return next((w for w in root.walk() if isinstance(w, BoardView) and w.boxes), None)

    def _centre_of(self, who: Any) -> tuple[float, float]:
        """Where a player's money is on screen (their cash), the Free Parking jackpot's (the board's Free Parking
        corner, else its line on the turn screen), or the bank's (the board's middle)."""
        if who == "pot":
            board = self.board_view()
            if board is not None and board.pot_box is not None:
                x, y, w, h = board.pot_box
                return window_point(board, x + w / 2, y + h / 2)
            line = self._find("pot")
            if line is not None and line.width > 0:
                return window_point(line, line.center_x, line.center_y)
        if who not in ("bank", "pot"):
            purse = self._find(f"purse {who}")
            if purse is not None and purse.width > 0:
                x, y = window_point(purse, purse.center_x, purse.center_y)
                if 0 <= x <= self.width and 0 <= y <= self.height:  # not scrolled out of sight
                    return x, y
        board = self.board_view()
        if board is not None:
            return window_point(board, board.center_x, board.center_y)
        return self.center_x, self.center_y

    def _space_box(self, space: Any) -> tuple[BoardView, tuple[float, float, float, float]] | None:
        board, game = self.board_view(), self.c.game
        if board is None or game is None:
            return None
        index = space if isinstance(space, int) else next(
            (k for k, s in enumerate(game.ruleset.spaces) if s.name == space), None)
        if index is None or not 0 <= index < len(board.boxes):
            return None
        x, y, w, h = board.boxes[index]
        wx, wy = window_point(board, x, y)
        return board, (wx, wy, w, h)

    # ---- what moves

    def _fly(self, params: dict[str, Any]) -> None:
        payer, payee, amount = params.get("payer"), params.get("payee"), int(params["amount"])
        start, end = self._centre_of(payer), self._centre_of(payee)
        colour = rgba(self.c.colour(str(payer))) if payer not in ("bank", "pot") else list(theme.ACCENT)
        label = FlyingAmount(start, end, (self.center_x, self.center_y), min(self.width, self.height) * BOW,
                             text=self.c.tr.money(amount), font_size=theme.FONT_FLYING, bold=True,
                             color=theme.ACCENT, outline_width=theme.FLYING_OUTLINE, outline_color=colour[:3])
        travel = _animation(progress=1, duration=FLIGHT, transition="in_out_quad")
        self._add(label, travel + _animation(opacity=0, duration=FADE))
        label.on_progress(label, 0.0)  # on screen from the first frame

    def _flash(self, space: Any, buyer: Any) -> None:
        found = self._space_box(space)
        if found is None or buyer in (None, "bank", "pot"):
            return
        flash = Flash(rgba(self.c.colour(str(buyer))), found[1], opacity=0.9)
        self._add(flash, _animation(opacity=0.9, duration=FLASH * 0.4) + _animation(opacity=0, duration=FLASH * 0.6))

    def _pop(self, space: Any) -> None:
        found = self._space_box(space)
        if found is None:
            if self.board_view() is None and space not in self.unseen:
                self.unseen.append(space)
            return
        x, y, w, h = found[1]
        side = min(w, h)
        piece = Piece(list(theme.ACCENT), side * 0.2, center=(x + w / 2, y + h / 2), opacity=1)
        grow = _animation(size=(side * 1.6, side * 1.6), center=(x + w / 2, y + h / 2), duration=FLASH * 0.5,
                          transition="out_back")
        self._add(piece, grow + _animation(opacity=0, duration=FLASH * 0.5))

    def _celebrate(self, winner: Any) -> None:
        """The winner's name, large, in their colour's light (a tie: the first's); confetti of every player's
        colour; the sound. `winner`: the game_over event's, a name or the tied names."""
        self.play_sound("celebration")
        names = [winner] if isinstance(winner, str) else [str(n) for n in winner]
        colour = rgba(self.c.colour(names[0]))
        shade = Flash([*theme.BG[:3], 0.82], (0, 0, self.width, self.height), opacity=1)
        self._add(shade, _animation(opacity=1, duration=CELEBRATION - 0.5) + _animation(opacity=0, duration=0.5))
        name = Label(text=self.c.tr.render(winners_msg(winner)), font_size=theme.FONT_WINNER, bold=True,
                     color=theme.TEXT, outline_width=theme.FLYING_OUTLINE, outline_color=colour[:3],
                     size_hint=(None, None), halign="center", valign="middle")
        name.text_size = (self.width * 0.9, None)
        name.texture_update()
        name.size = (self.width * 0.9, texture_size(name)[1])
        name.center = (self.center_x, self.height * 0.55)
        name.font_size = theme.FONT_WINNER * 0.6
        pulse = _animation(font_size=theme.FONT_WINNER, duration=0.35, transition="out_back")
        self._add(name, pulse + _animation(opacity=1, duration=CELEBRATION - 0.85) + _animation(opacity=0, duration=0.5))
        colours = [rgba(c) for c in self.c.meta.get("colours", {}).values()] or [list(theme.ACCENT)]
        rng = random.Random(" & ".join(names))  # the same confetti for the same winners
        size = max(8.0, min(self.width, self.height) / 40)
        for k in range(CONFETTI):
            angle = 2 * math.pi * k / CONFETTI + rng.uniform(-0.1, 0.1)
            reach = rng.uniform(0.25, 0.55) * min(self.width, self.height)
            piece = Piece(colours[k % len(colours)], size, center=name.center)
            end = (name.center_x + math.cos(angle) * reach * 1.4, name.center_y + math.sin(angle) * reach)
            fly = _animation(center=end, duration=rng.uniform(0.7, 1.1), transition="out_cubic")
            fall = _animation(center_y=end[1] - reach * 0.5, opacity=0, duration=0.8, transition="in_quad")
            self._add(piece, fly + fall)


__all__ = ["MotionLayer", "FlyingAmount", "Flash", "Piece", "FLIGHT", "FADE", "STAGGER", "FLYING_MOST"]
