"""The dice button: a big push button on a GPIO pin that rolls electronic dice.

`roll_dice(count)` rolls 1 to 3 dice with the operating system's secure random
source. `DiceButton(pin)` wraps a gpiozero `Button`: one press is one roll. A
held button rolls once (there is no hold-repeat), and contact bounce is
filtered in this module, not by gpiozero (its mock pins ignore `bounce_time`,
so the filter could not be tested there): an edge that comes less than
`debounce` seconds after the last accepted press or release is ignored. The
clock is injectable, so tests step time instead of sleeping.

`roll(count)` rolls on demand (the on-screen button uses it, and asks for 1 or
3 dice when the game needs them); a press calls the same method. Optional
outputs, either ready-made gpiozero devices passed in or built from the config
file by `DiceButton.from_config`:

* `display`: an `LEDCharDisplay` (one 7-segment digit), an `LEDMultiCharDisplay`
  (several multiplexed digits, one per die), a list or tuple of `LEDCharDisplay`
  (one digit per die, each on its own pins) or an `LEDBoard` of pip LEDs,
  4 or 7 per die (see `PIP_LAYOUTS`);
* `buzzer`: a `Buzzer` (anything with `on()` and `off()`), clicked once per
  tumble step.

After a roll the display tumbles through a few random faces and then shows the
result. The animation runs on one small worker thread owned by the button, so
it never blocks the press handler or the caller, and a new roll cancels an
animation still running. Devices passed in stay the caller's to close;
`close()` closes every device this object opened.

Threads: the hand-off contract
------------------------------
gpiozero calls the press handler from its own thread on real hardware (lgpio
delivers edges on a background thread) and synchronously on the caller's
thread with mock pins. Therefore `on_roll`:

* is called on whatever thread detected the press, or on the thread that
  called `roll()`;
* is called exactly once per accepted press (and once per `roll()`);
* is never called concurrently with itself: rolls are serialised by a lock,
  so one slow `on_roll` delays the next roll rather than overlapping it;
* must return quickly and hand the event to the UI thread itself. The Kivy
  app wraps it with `Clock.schedule_once`; nothing here knows about Kivy.

An `on_roll` that raises is logged and the button keeps working. Calling
`roll()` or `close()` from inside `on_roll` raises RuntimeError (a roll inside
a roll; closing gpiozero's Button inside its own callback); hand them to
another thread. Once `close()` has returned, `on_roll` is not called again.
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from gpiozero import Button, Buzzer, LEDBoard, LEDCharDisplay, LEDMultiCharDisplay
from gpiozero.exc import GPIOZeroError

from hardware.config import DiceConfig, DiceDisplayConfig
from hardware.events import DiceRolled, HardwareError

log = logging.getLogger(__name__)

FACES = (1, 2, 3, 4, 5, 6)
MIN_DICE = 1
MAX_DICE = 3
SECURE_RANDOM = secrets.SystemRandom()
"""The default source: os.urandom underneath, so nobody can predict or replay a roll."""

# Pip LEDs. With 4 pins per die the LEDs that always light together share a pin:
# (centre, top-left + bottom-right, top-right + bottom-left, middle-left + middle-right).
# With 7 pins per die each LED has its own, in reading order:
# (top-left, top-right, middle-left, centre, middle-right, bottom-left, bottom-right).
_CENTRE, _FALLING, _RISING, _MIDDLE = range(4)
_GROUPS_LIT = {
    1: (_CENTRE,),
    2: (_FALLING,),
    3: (_CENTRE, _FALLING),
    4: (_FALLING, _RISING),
    5: (_CENTRE, _FALLING, _RISING),
    6: (_FALLING, _RISING, _MIDDLE),
}
_GROUP_LEDS_7 = {_CENTRE: (3,), _FALLING: (0, 6), _RISING: (1, 5), _MIDDLE: (2, 4)}


def _pip_pattern(face: int, per_die: int) -> tuple[bool, ...]:
    lit: set[int] = set()
    for group in _GROUPS_LIT[face]:
        lit.update((group,) if per_die == 4 else _GROUP_LEDS_7[group])
    return tuple(index in lit for index in range(per_die))


PIP_LAYOUTS: dict[int, dict[int, tuple[bool, ...]]] = {
    per_die: {face: _pip_pattern(face, per_die) for face in FACES} for per_die in (4, 7)
}
"""LEDs per die -> face -> which of that die's LEDs are lit."""


def _check_count(count: int) -> int:
    if isinstance(count, bool) or not isinstance(count, int) or not MIN_DICE <= count <= MAX_DICE:
        raise ValueError(f"count must be 1, 2 or 3 dice, not {count!r}")
    return count


def roll_dice(count: int = 2, rng: random.Random | None = None) -> tuple[int, ...]:
    """`count` dice (1 to 3), each 1 to 6, from `rng` or else the operating system's secure source."""
    _check_count(count)
    source = SECURE_RANDOM if rng is None else rng
    return tuple(source.randint(1, 6) for _ in range(count))


def tumble_frames(result: Sequence[int], steps: int, rng: random.Random,
                  shown: Sequence[int] = ()) -> list[tuple[int, ...]]:
    """The faces a tumble passes through before `result`, one tuple per step.

    Every frame differs from the one before in every die (the first from `shown`, what the
    display showed last) and the last differs from `result`, so each step, and the landing,
    is visibly a change rather than a stall.
    """
    frames: list[tuple[int, ...]] = []
    previous = tuple(shown)
    for step in range(steps):
        landing = step == steps - 1
        frame = []
        for die, final in enumerate(result):
            avoid = {previous[die]} if die < len(previous) else set()
            if landing:
                avoid.add(final)
            frame.append(rng.choice([face for face in FACES if face not in avoid]))
        previous = tuple(frame)
        frames.append(previous)
    return frames


@dataclass(frozen=True, slots=True)
class Tumble:
    """The animation's timing: `steps` random faces `interval` seconds apart, a `click` of the buzzer each."""

    steps: int = 6
    interval: float = 0.1
    click: float = 0.01

    def __post_init__(self) -> None:
        if self.steps < 0 or self.interval < 0 or self.click < 0:
            raise ValueError("tumble steps and times must not be negative")


# ----------------------------------------------------------------------
# Showing faces on the optional display


def _face_writer(display: Any) -> Callable[[tuple[int, ...]], None]:
    """A function that shows dice on `display`, one digit or one group of pip LEDs per die.

    A display with room for fewer dice than were rolled shows the first ones (a two-digit
    display with a speed die shows the two number dice).
    """
    if isinstance(display, LEDMultiCharDisplay):
        width = len(display.plex)

        def show_multi(faces: tuple[int, ...]) -> None:
            display.value = "".join(str(face) for face in faces[:width])

        return show_multi
    if isinstance(display, LEDCharDisplay):
        def show_one(faces: tuple[int, ...]) -> None:
            display.value = str(faces[0])

        return show_one
    if isinstance(display, LEDBoard):
        leds = tuple(display.leds)
        per_die = 4 if len(leds) in (4, 8, 12) else 7 if len(leds) in (7, 14, 21) else 0
        if not per_die:
            raise ValueError(f"a pip display needs 4 or 7 LEDs per die (4, 8, 12, 7, 14 or 21 LEDs), "
                             f"not {len(leds)}")
        slots = len(leds) // per_die

        def show_pips(faces: tuple[int, ...]) -> None:
            states: list[bool] = []
            for slot in range(slots):
                states.extend(PIP_LAYOUTS[per_die][faces[slot]] if slot < len(faces) else (False,) * per_die)
            for led, state in zip(leds, states, strict=True):
                led.value = state

        return show_pips
    if isinstance(display, (list, tuple)) and display and all(isinstance(d, LEDCharDisplay) for d in display):
        digits = tuple(display)

        def show_digits(faces: tuple[int, ...]) -> None:
            for index, digit in enumerate(digits):
                digit.value = str(faces[index]) if index < len(faces) else " "

        return show_digits
    raise TypeError("display must be a gpiozero LEDCharDisplay, LEDMultiCharDisplay or LEDBoard, "
                    f"or a list of LEDCharDisplay, not {type(display).__name__}")


class _Animator:
    """One worker thread that plays the tumble; a new roll replaces the one playing."""

    def __init__(self, show: Callable[[tuple[int, ...]], None] | None, buzzer: Any, tumble: Tumble) -> None:
        self.show = show
        self.buzzer = buzzer
        self.tumble = tumble
        # Tumble faces are decoration, not dice: a private generator, so they neither drain nor
        # depend on the roll's source (a seeded test rng gives the same rolls however the thread runs).
        self.rng = random.Random()
        self.shown: tuple[int, ...] = ()
        self.idle = threading.Event()
        self.idle.set()
        self._changed = threading.Condition()
        self._pending: tuple[int, ...] | None = None
        self._generation = 0
        self._closed = False
        self._thread: threading.Thread | None = None

    def play(self, result: tuple[int, ...]) -> None:
        with self._changed:
            if self._closed:
                return
            self._pending = result
            self._generation += 1
            self.idle.clear()
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="dice animation", daemon=True)
                self._thread.start()
            self._changed.notify_all()

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify_all()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2)
        self.idle.set()

    def _run(self) -> None:
        while True:
            with self._changed:
                while self._pending is None and not self._closed:
                    self._changed.wait()
                if self._closed:
                    return
                result, generation = self._pending, self._generation
                self._pending = None
            assert result is not None
            try:
                self._animate(result, generation)
            except Exception:  # a device closed under us or a bad font: the next roll gets a fresh try
                log.exception("dice animation failed")
            finally:
                self._quiet()
            with self._changed:
                if self._pending is None:
                    self.idle.set()

    def _animate(self, result: tuple[int, ...], generation: int) -> None:
        tumble = self.tumble
        for frame in tumble_frames(result, tumble.steps, self.rng, self.shown):
            self._show(frame)
            if self.buzzer is not None:
                self.buzzer.on()
                if self._cancelled(generation, tumble.click):
                    return
                self.buzzer.off()
            if self._cancelled(generation, max(0.0, tumble.interval - tumble.click)):
                return
        self._show(result)

    def _show(self, faces: tuple[int, ...]) -> None:
        if self.show is not None:
            self.show(faces)
        self.shown = faces

    def _quiet(self) -> None:
        if self.buzzer is not None:
            try:
                self.buzzer.off()
            except Exception:
                log.exception("could not switch the dice buzzer off")

    def _cancelled(self, generation: int, wait: float) -> bool:
        """Wait up to `wait` seconds; True at once if a newer roll or close() came in."""
        with self._changed:
            return self._changed.wait_for(lambda: self._closed or self._generation != generation, wait)


# ----------------------------------------------------------------------
# The button


class DiceButton:
    """A push button that rolls dice: one press, one roll, `on_roll(DiceRolled)` each time.

    Use as a context manager, or call `close()` (safe to call twice). See the module
    docstring for the threads `on_roll` runs on.
    """

    def __init__(self, pin: int | str = 17, *, count: int = 2, pull_up: bool = True,
                 on_roll: Callable[[DiceRolled], None] | None = None, debounce: float = 0.05,
                 display: Any = None, buzzer: Any = None, pin_factory: Any = None,
                 rng: random.Random | None = None, clock: Callable[[], float] = time.monotonic,
                 tumble: Tumble = Tumble()) -> None:
        self._count = _check_count(count)
        if not debounce >= 0:
            raise ValueError(f"debounce must be 0 or more seconds, not {debounce!r}")
        self.debounce = debounce
        self.on_roll = on_roll
        self.display = display
        self.buzzer = buzzer
        self._rng = rng
        self._clock = clock
        show = _face_writer(display) if display is not None else None
        self._animator = _Animator(show, buzzer, tumble) if show is not None or buzzer is not None else None
        self._owned: list[Any] = []
        self._edge_lock = threading.Lock()
        self._last_edge: float | None = None
        self._roll_lock = threading.Lock()
        self._rolling_thread: int | None = None
        self._closed = False
        try:
            self.button = Button(pin, pull_up=pull_up, pin_factory=pin_factory)
        except GPIOZeroError as exc:
            raise HardwareError(f"dice button on pin {pin!r}: {exc}") from exc
        self._owned.append(self.button)
        self.button.when_pressed = self._pressed
        self.button.when_released = self._released

    @classmethod
    def from_config(cls, config: DiceConfig, *, on_roll: Callable[[DiceRolled], None] | None = None,
                    pin_factory: Any = None, rng: random.Random | None = None,
                    clock: Callable[[], float] = time.monotonic, tumble: Tumble = Tumble()) -> DiceButton:
        """The button, display and buzzer of the config's [dice] section; close() closes them all.

        Builds regardless of `config.enabled`: whether to have a dice button is the app's call.
        """
        opened: list[Any] = []
        try:
            display = _open_display(config.display, pin_factory, opened)
            buzzer = None
            if config.buzzer.pin is not None:
                with _opening("dice.buzzer.pin"):
                    buzzer = Buzzer(config.buzzer.pin, pin_factory=pin_factory)
                opened.append(buzzer)
            dice = cls(config.pin, count=config.count, pull_up=config.pull_up, on_roll=on_roll,
                       debounce=config.debounce, display=display, buzzer=buzzer, pin_factory=pin_factory,
                       rng=rng, clock=clock, tumble=tumble)
        except BaseException:
            _close_all(opened)
            raise
        dice._owned.extend(opened)
        return dice

    @property
    def count(self) -> int:
        """Dice per press, 1 to 3."""
        return self._count

    @count.setter
    def count(self, value: int) -> None:
        self._count = _check_count(value)

    @property
    def closed(self) -> bool:
        return self._closed

    def roll(self, count: int | None = None) -> DiceRolled:
        """Roll `count` dice (default: `self.count`) now, animate, call `on_roll`, return the event."""
        event = self._roll(_check_count(self._count if count is None else count), None)
        if event is None:
            raise HardwareError("the dice button is closed")
        return event

    def wait_for_animation(self, timeout: float | None = None) -> bool:
        """Wait until the display shows the latest result; False if `timeout` seconds passed first."""
        return True if self._animator is None else self._animator.idle.wait(timeout)

    def close(self) -> None:
        """Stop the animation and close every gpiozero device this object opened; safe to call twice."""
        if self._rolling_thread == threading.get_ident():
            # gpiozero's Button breaks if closed inside its own press callback, and on_roll may be that.
            raise RuntimeError("close() called from on_roll: hand it to another thread first")
        # Taking the roll lock waits for a roll in flight: that is what makes
        # "no on_roll after close() returns" true.
        with self._roll_lock:
            if self._closed:
                return
            self._closed = True
        self.button.when_pressed = None
        self.button.when_released = None
        if self._animator is not None:
            self._animator.close()
        _close_all(self._owned)

    def __enter__(self) -> DiceButton:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"count={self._count}"
        return f"<DiceButton on {self.button.pin if not self._closed else '-'} {state}>"

    # ------------------------------------------------------------------

    def _pressed(self) -> None:
        at = self._accept_edge()
        if at is None:
            return
        try:
            self._roll(self._count, at)
        except Exception:  # never raise into gpiozero's callback thread, where nobody would see it
            log.exception("dice roll failed")

    def _released(self) -> None:
        self._accept_edge()

    def _accept_edge(self) -> float | None:
        """The edge's time if it is a real press or release, None if it is contact bounce.

        Any edge counts, not just a release after a press: gpiozero reports a press only after
        it saw the pin inactive, so a press long after the last accepted edge is a new press even
        when its release came so fast that it was taken for bounce.
        """
        with self._edge_lock:
            now = self._clock()
            if self._last_edge is not None and now - self._last_edge < self.debounce:
                return None
            self._last_edge = now
            return now

    def _roll(self, count: int, at: float | None) -> DiceRolled | None:
        me = threading.get_ident()
        if self._rolling_thread == me:
            raise RuntimeError("roll() called from on_roll: hand the event to another thread first")
        with self._roll_lock:
            if self._closed:
                return None
            event = DiceRolled(roll_dice(count, self._rng), self._clock() if at is None else at)
            if self._animator is not None:
                self._animator.play(event.dice)
            callback = self.on_roll
            if callback is not None:
                self._rolling_thread = me
                try:
                    callback(event)
                except Exception:
                    log.exception("on_roll failed for %s", event)
                finally:
                    self._rolling_thread = None
            return event


@contextmanager
def _opening(key: str) -> Iterator[None]:
    """Turns gpiozero's errors while opening a configured device into a HardwareError naming the key."""
    try:
        yield
    except GPIOZeroError as exc:
        raise HardwareError(f"{key}: {exc}") from exc


def _open_display(config: DiceDisplayConfig, pin_factory: Any, opened: list[Any]) -> Any:
    if config.kind == "digits":
        segments, dp = config.pins[:7], (config.pins[7] if len(config.pins) > 7 else None)
        with _opening("dice.display.pins"):
            char = LEDCharDisplay(*segments, dp=dp, active_high=config.active_high, pin_factory=pin_factory)
        opened.append(char)
        if not config.digit_pins:
            return char
        # A common-anode display needs high-side (PNP) digit switches, which are on when their pin
        # is low; a common-cathode one needs low-side (NPN) switches, on when high: the same
        # polarity as the segments, so one active_high setting serves both.
        with _opening("dice.display.digit_pins"):
            multi = LEDMultiCharDisplay(char, *config.digit_pins, active_high=config.active_high,
                                        pin_factory=pin_factory)
        opened.append(multi)
        return multi
    if config.kind == "pips":
        with _opening("dice.display.pins"):
            board = LEDBoard(*config.pins, active_high=config.active_high, pin_factory=pin_factory)
        opened.append(board)
        return board
    return None


def _close_all(devices: list[Any]) -> None:
    """Close in reverse order of opening; one device failing to close must not keep the others open."""
    for device in reversed(list(devices)):
        try:
            device.close()
        except Exception:
            log.exception("could not close %r", device)
