"""The dice button on gpiozero's mock pins: presses, bounce, threads, the display and fairness.

Time is a FakeClock the tests step; nothing sleeps to wait for a result. Where a test
must show that something does NOT happen (a held button rolling again), it waits on an
event with a short timeout.
"""

from __future__ import annotations

import itertools
import logging
import random
import secrets
import threading
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero import LED, Button, Buzzer, Device, LEDBoard, LEDCharDisplay, LEDMultiCharDisplay
from gpiozero.pins.mock import MockFactory

import hardware.dice
from hardware.config import BuzzerConfig, DiceConfig, DiceDisplayConfig
from hardware.dice import PIP_LAYOUTS, DiceButton, Tumble, roll_dice, tumble_frames
from hardware.events import DiceRolled, HardwareError

QUICK = Tumble(steps=6, interval=0.0, click=0.0)
SEGMENTS = (5, 6, 13, 19, 26, 12, 16)
TIMEOUT = 5.0


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    previous = Device.pin_factory
    mock = MockFactory()
    Device.pin_factory = mock
    try:
        yield mock
    finally:
        mock.reset()
        Device.pin_factory = previous


class FakeClock:
    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Rolls:
    """An on_roll that records each event and the thread it came on."""

    def __init__(self) -> None:
        self.events: list[DiceRolled] = []
        self.threads: list[int] = []
        self._changed = threading.Condition()

    def __call__(self, event: DiceRolled) -> None:
        with self._changed:
            self.events.append(event)
            self.threads.append(threading.get_ident())
            self._changed.notify_all()

    def wait_for(self, count: int, timeout: float = TIMEOUT) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: len(self.events) >= count, timeout)


class RecordingDigit(LEDCharDisplay):  # type: ignore[misc]
    """A real LEDCharDisplay that also remembers every value it was given."""

    def __init__(self, *pins: Any, **kwargs: Any) -> None:
        self.shown: list[str] = []
        self.changed = threading.Condition()
        super().__init__(*pins, **kwargs)

    @property
    def value(self) -> Any:
        return LEDCharDisplay.value.fget(self)

    @value.setter
    def value(self, value: Any) -> None:
        LEDCharDisplay.value.fset(self, value)
        if hasattr(self, "shown"):  # LEDCharDisplay sets an initial value inside its own __init__
            with self.changed:
                self.shown.append(value)
                self.changed.notify_all()

    def wait_for_frames(self, count: int, timeout: float = TIMEOUT) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: len(self.shown) >= count, timeout)


def button_pin(factory: MockFactory, pin: int = 17) -> Any:
    return factory.pin(pin)


def tap(pin: Any, clock: FakeClock, *, pull_up: bool = True) -> None:
    """Press and release, further apart than the debounce window.

    Tests release before closing because closing a held gpiozero Button waits out its
    hold_time (a second) in gpiozero's hold thread.
    """
    pin.drive_low() if pull_up else pin.drive_high()
    clock.advance(0.2)
    pin.drive_high() if pull_up else pin.drive_low()
    clock.advance(0.2)


def is_free(pin: int) -> bool:
    try:
        LED(pin).close()
    except Exception:
        return False
    return True


# ----------------------------------------------------------------------
# Presses and bounce


@pytest.mark.parametrize("count", [1, 2, 3])
def test_a_press_rolls_once_with_count_dice(factory: MockFactory, count: int) -> None:
    rolls, clock = Rolls(), FakeClock()
    with DiceButton(17, count=count, on_roll=rolls, clock=clock):
        pin = button_pin(factory)
        pin.drive_low()
        clock.advance(0.2)
        pin.drive_high()
    assert len(rolls.events) == 1
    dice = rolls.events[0].dice
    assert len(dice) == count and all(1 <= die <= 6 for die in dice)
    assert rolls.events[0].at == 100.0  # the time of the press edge


def test_a_held_button_rolls_once(factory: MockFactory) -> None:
    rolls, clock = Rolls(), FakeClock()
    with DiceButton(17, on_roll=rolls, clock=clock) as dice:
        pin = button_pin(factory)
        pin.drive_low()
        clock.advance(30)
        assert not rolls.wait_for(2, timeout=0.3), "a held button must not repeat"
        assert dice.button.is_pressed
        pin.drive_high()  # closing a held gpiozero Button waits out its hold_time (1 s)
    assert len(rolls.events) == 1


def test_bouncing_contacts_roll_once(factory: MockFactory) -> None:
    rolls, clock = Rolls(), FakeClock()
    with DiceButton(17, on_roll=rolls, clock=clock, debounce=0.05):
        pin = button_pin(factory)
        pin.drive_low()
        for step in range(8):  # chatter for 40 ms after the press
            clock.advance(0.005)
            pin.drive_high() if step % 2 == 0 else pin.drive_low()
        clock.advance(0.5)
        pin.drive_high()  # the real release
        for step in range(8):  # and chatter after it
            clock.advance(0.005)
            pin.drive_low() if step % 2 == 0 else pin.drive_high()
    assert len(rolls.events) == 1


def test_presses_further_apart_than_the_window_roll_twice(factory: MockFactory) -> None:
    rolls, clock = Rolls(), FakeClock()
    with DiceButton(17, on_roll=rolls, clock=clock, debounce=0.05):
        pin = button_pin(factory)
        pin.drive_low()
        clock.advance(0.06)
        pin.drive_high()
        clock.advance(0.06)
        pin.drive_low()
        clock.advance(0.06)
        pin.drive_high()
    assert len(rolls.events) == 2


def test_a_tap_shorter_than_the_window_does_not_swallow_the_next_press(factory: MockFactory) -> None:
    rolls, clock = Rolls(), FakeClock()
    with DiceButton(17, on_roll=rolls, clock=clock, debounce=0.05):
        pin = button_pin(factory)
        pin.drive_low()
        clock.advance(0.02)
        pin.drive_high()  # a real release, but inside the window: taken for bounce
        clock.advance(1.0)
        tap(pin, clock)
    assert len(rolls.events) == 2


def test_without_debounce_every_press_counts(factory: MockFactory) -> None:
    rolls = Rolls()
    with DiceButton(17, on_roll=rolls, clock=FakeClock(), debounce=0):
        pin = button_pin(factory)
        for _ in range(3):
            pin.drive_low()
            pin.drive_high()
    assert len(rolls.events) == 3


def test_a_pull_down_button_presses_high(factory: MockFactory) -> None:
    rolls, clock = Rolls(), FakeClock()
    with DiceButton(17, pull_up=False, on_roll=rolls, clock=clock):
        tap(button_pin(factory), clock, pull_up=False)
    assert len(rolls.events) == 1


def test_pin_names_as_gpiozero_takes_them(factory: MockFactory) -> None:
    rolls, clock = Rolls(), FakeClock()
    with DiceButton("BOARD11", on_roll=rolls, clock=clock):
        tap(button_pin(factory, 17), clock)
    assert len(rolls.events) == 1


# ----------------------------------------------------------------------
# Rolling on demand, count, close


def test_roll_on_demand(factory: MockFactory) -> None:
    rolls, clock = Rolls(), FakeClock()
    with DiceButton(17, on_roll=rolls, clock=clock) as dice:
        assert len(dice.roll(1).dice) == 1
        assert len(dice.roll(3).dice) == 3
        assert len(dice.roll().dice) == 2
        dice.count = 3
        assert len(dice.roll().dice) == 3
        tap(button_pin(factory), clock)
        assert len(rolls.events[-1].dice) == 3
        for bad in (0, 4, True, 2.0):
            with pytest.raises(ValueError):
                dice.roll(bad)  # type: ignore[arg-type]
            with pytest.raises(ValueError):
                dice.count = bad  # type: ignore[assignment]
    assert [len(event.dice) for event in rolls.events] == [1, 3, 2, 3, 3]


def test_bad_arguments(factory: MockFactory) -> None:
    with pytest.raises(ValueError):
        DiceButton(17, count=4)
    with pytest.raises(ValueError):
        DiceButton(17, debounce=-1)
    with pytest.raises(HardwareError, match="dice button on pin 'GPIO99'"):
        DiceButton("GPIO99")
    assert is_free(17)


def test_close_twice_then_nothing_rolls(factory: MockFactory) -> None:
    rolls = Rolls()
    dice = DiceButton(17, on_roll=rolls, clock=FakeClock())
    assert not dice.closed
    dice.close()
    dice.close()
    assert dice.closed and dice.button.closed
    with pytest.raises(HardwareError, match="closed"):
        dice.roll()
    assert is_free(17)
    Button(17).close()
    assert rolls.events == []


def test_context_manager_closes(factory: MockFactory) -> None:
    with DiceButton(17) as dice:
        pass
    assert dice.closed and is_free(17)


def test_on_roll_that_raises_is_logged_and_the_button_keeps_working(
        factory: MockFactory, caplog: pytest.LogCaptureFixture) -> None:
    calls: list[DiceRolled] = []

    def on_roll(event: DiceRolled) -> None:
        calls.append(event)
        raise RuntimeError("app bug")

    clock = FakeClock()
    with DiceButton(17, on_roll=on_roll, clock=clock):
        pin = button_pin(factory)
        with caplog.at_level(logging.ERROR, logger="hardware.dice"):
            pin.drive_low()
        clock.advance(1)
        pin.drive_high()
        clock.advance(1)
        tap(pin, clock)
    assert len(calls) == 2
    assert "on_roll failed" in caplog.text


def test_roll_inside_on_roll_is_refused_not_deadlocked(factory: MockFactory) -> None:
    errors: list[BaseException] = []
    dice = DiceButton(17, clock=FakeClock())

    def on_roll(event: DiceRolled) -> None:
        try:
            dice.roll()
        except RuntimeError as exc:
            errors.append(exc)

    dice.on_roll = on_roll
    with dice:
        dice.roll()
    assert len(errors) == 1 and "from on_roll" in str(errors[0])


def test_close_inside_on_roll_is_refused(factory: MockFactory) -> None:
    errors: list[BaseException] = []
    clock = FakeClock()
    dice = DiceButton(17, clock=clock)

    def on_roll(event: DiceRolled) -> None:
        try:
            dice.close()
        except RuntimeError as exc:
            errors.append(exc)

    dice.on_roll = on_roll
    tap(button_pin(factory), clock)
    assert len(errors) == 1 and not dice.closed
    dice.close()
    assert dice.closed and is_free(17)


# ----------------------------------------------------------------------
# Threads


def test_a_press_detected_on_another_thread_calls_on_roll_there(factory: MockFactory) -> None:
    rolls, clock = Rolls(), FakeClock()
    with DiceButton(17, on_roll=rolls, clock=clock):
        presser = threading.Thread(target=tap, args=(button_pin(factory), clock))
        presser.start()
        presser.join(TIMEOUT)
        assert rolls.wait_for(1)
    assert rolls.threads == [presser.ident]


def test_simultaneous_presses_each_roll_once_and_on_roll_never_overlaps(factory: MockFactory) -> None:
    """6 presses (a second apart, says the clock) and 2 roll() calls arrive on 8 threads at once."""
    presses, on_demand = 6, 2
    reads = itertools.count(1)
    read_lock = threading.Lock()
    all_pressed = threading.Event()
    rollers_ready = threading.Semaphore(0)

    def clock() -> float:
        with read_lock:
            read = next(reads)
        if read == presses:
            all_pressed.set()
        return float(read)  # a second apart: every press is a real one

    state = threading.Lock()
    active = [0]
    overlapped = threading.Event()
    first = threading.Event()
    events: list[DiceRolled] = []

    def on_roll(event: DiceRolled) -> None:
        with state:
            active[0] += 1
            if active[0] > 1:
                overlapped.set()
            events.append(event)
            is_first = not first.is_set()
            first.set()
        try:
            if is_first:
                # Hold the first roll until the other threads are all at the roll lock (a press
                # reads the clock before it, roll() announces itself), then give a second
                # on_roll the chance to start alongside: it must not.
                assert all_pressed.wait(TIMEOUT)
                for _ in range(on_demand):
                    assert rollers_ready.acquire(timeout=TIMEOUT)
                overlapped.wait(0.2)
        finally:
            with state:
                active[0] -= 1

    with DiceButton(17, on_roll=on_roll, clock=clock) as dice:
        start = threading.Barrier(presses + on_demand)

        def press() -> None:
            start.wait(TIMEOUT)
            dice.button.when_pressed()  # exactly what gpiozero's callback thread calls

        def roll() -> None:
            start.wait(TIMEOUT)
            rollers_ready.release()
            dice.roll()

        workers = [threading.Thread(target=press) for _ in range(presses)]
        workers += [threading.Thread(target=roll) for _ in range(on_demand)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(TIMEOUT)
        assert not any(worker.is_alive() for worker in workers)
    assert not overlapped.is_set(), "on_roll ran on two threads at once"
    assert len(events) == presses + on_demand
    assert len({event.at for event in events}) == presses + on_demand


def test_simultaneous_bounces_roll_once(factory: MockFactory) -> None:
    rolls = Rolls()
    with DiceButton(17, on_roll=rolls, clock=FakeClock()) as dice:  # a frozen clock: all in one window
        start = threading.Barrier(6)

        def press() -> None:
            start.wait(TIMEOUT)
            dice.button.when_pressed()

        workers = [threading.Thread(target=press) for _ in range(6)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(TIMEOUT)
    assert len(rolls.events) == 1


# ----------------------------------------------------------------------
# Display and buzzer


def test_digit_and_buzzer_are_driven_during_the_animation(factory: MockFactory) -> None:
    digit = RecordingDigit(*SEGMENTS)
    buzzer = Buzzer(27)
    with DiceButton(17, count=1, display=digit, buzzer=buzzer, tumble=QUICK, clock=FakeClock()) as dice:
        digit.shown.clear()
        event = dice.roll()
        assert dice.wait_for_animation(TIMEOUT)
        face = str(event.dice[0])
        assert len(digit.shown) == QUICK.steps + 1
        assert digit.shown[-1] == face
        assert all(a != b for a, b in itertools.pairwise(digit.shown)), "every step shows a new face"
        assert digit.value == face  # read back from the segment pins through the font
        clicks = [state.state for state in factory.pin(27).states]
        assert clicks == [False] + [True, False] * QUICK.steps
        assert not buzzer.is_active
    assert not digit.closed and not buzzer.closed  # borrowed devices stay the caller's
    digit.close()
    buzzer.close()


def test_multi_digit_display_shows_one_die_per_digit(factory: MockFactory) -> None:
    display = LEDMultiCharDisplay(LEDCharDisplay(*SEGMENTS), 21, 22)
    with DiceButton(17, display=display, tumble=QUICK, clock=FakeClock()) as dice:
        event = dice.roll()
        assert dice.wait_for_animation(TIMEOUT)
        assert display.value == tuple(str(die) for die in event.dice)
        event = dice.roll(1)
        assert dice.wait_for_animation(TIMEOUT)
        assert display.value == (" ", str(event.dice[0]))
    display.close()


def test_separate_digits_blank_the_unused_ones(factory: MockFactory) -> None:
    digits = [LEDCharDisplay(*SEGMENTS), LEDCharDisplay(20, 21, 22, 23, 24, 25, 27)]
    with DiceButton(17, count=1, display=digits, tumble=QUICK, clock=FakeClock()) as dice:
        event = dice.roll()
        assert dice.wait_for_animation(TIMEOUT)
        assert [digit.value for digit in digits] == [str(event.dice[0]), " "]
    for digit in digits:
        digit.close()


@pytest.mark.parametrize("per_die", [4, 7])
def test_pip_leds_show_the_faces(factory: MockFactory, per_die: int) -> None:
    pins = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 18)[:2 * per_die]
    board = LEDBoard(*pins)
    with DiceButton(17, display=board, tumble=QUICK, clock=FakeClock()) as dice:
        for _ in range(10):
            event = dice.roll()
            assert dice.wait_for_animation(TIMEOUT)
            expected = PIP_LAYOUTS[per_die][event.dice[0]] + PIP_LAYOUTS[per_die][event.dice[1]]
            assert tuple(bool(factory.pin(pin).state) for pin in pins) == expected
    board.close()


def test_pip_layouts_light_as_many_dots_as_the_face() -> None:
    for face, lit in PIP_LAYOUTS[7].items():
        assert sum(lit) == face
        assert lit == lit[::-1], "a die face looks the same upside down"
    for face, lit in PIP_LAYOUTS[4].items():
        assert sum(lit) + sum(lit[1:]) == face  # all groups but the centre are LED pairs


def test_a_new_roll_cancels_the_running_animation(factory: MockFactory) -> None:
    digit = RecordingDigit(*SEGMENTS)
    buzzer = Buzzer(27)
    slow = Tumble(steps=3, interval=30.0, click=10.0)
    dice = DiceButton(17, count=1, display=digit, buzzer=buzzer, tumble=slow, clock=FakeClock())
    digit.shown.clear()
    dice.roll()
    assert digit.wait_for_frames(1)
    dice.roll()  # the first animation would next change the digit 30 s from now
    assert digit.wait_for_frames(2, timeout=TIMEOUT), "the second roll's tumble did not start"
    assert not dice.wait_for_animation(0.05)
    dice.close()  # cancels the second one too, without waiting 90 s
    assert not buzzer.is_active
    digit.close()
    buzzer.close()


def test_unsupported_display_is_refused_before_any_pin_is_taken(factory: MockFactory) -> None:
    with pytest.raises(TypeError, match="display must be"):
        DiceButton(17, display="7-segment")
    board = LEDBoard(2, 3, 4, 5, 6)
    with pytest.raises(ValueError, match="4 or 7 LEDs per die"):
        DiceButton(17, display=board)
    board.close()
    assert is_free(17)


# ----------------------------------------------------------------------
# Built from the config file


def test_from_config_opens_and_closes_every_device(factory: MockFactory) -> None:
    config = DiceConfig(pin="GPIO17", count=2, debounce=0.05,
                        display=DiceDisplayConfig(kind="digits", pins=SEGMENTS + (20,), digit_pins=(21, 22)),
                        buzzer=BuzzerConfig(pin=27))
    rolls, clock = Rolls(), FakeClock()
    dice = DiceButton.from_config(config, on_roll=rolls, clock=clock, tumble=QUICK)
    assert isinstance(dice.display, LEDMultiCharDisplay) and isinstance(dice.buzzer, Buzzer)
    pin = button_pin(factory)
    pin.drive_low()
    assert dice.wait_for_animation(TIMEOUT)
    assert dice.display.value == tuple(str(die) for die in rolls.events[0].dice)
    clock.advance(1)
    pin.drive_high()
    dice.close()
    assert dice.display.closed and dice.buzzer.closed and dice.button.closed
    assert all(is_free(pin) for pin in SEGMENTS + (17, 20, 21, 22, 27))


def test_from_config_pips_active_low(factory: MockFactory) -> None:
    config = DiceConfig(count=1, display=DiceDisplayConfig(kind="pips", pins=(5, 6, 13, 19), active_high=False))
    with DiceButton.from_config(config, tumble=QUICK, clock=FakeClock()) as dice:
        event = dice.roll()
        assert dice.wait_for_animation(TIMEOUT)
        lit = PIP_LAYOUTS[4][event.dice[0]]
        assert tuple(not factory.pin(pin).state for pin in (5, 6, 13, 19)) == lit


def test_from_config_that_fails_closes_what_it_opened(factory: MockFactory) -> None:
    clash = DiceConfig(display=DiceDisplayConfig(kind="pips", pins=(5, 6, 13, 19)), buzzer=BuzzerConfig(pin=5))
    with pytest.raises(HardwareError, match="dice.buzzer.pin"):
        DiceButton.from_config(clash)
    taken = Button(17)
    try:
        with pytest.raises(HardwareError, match="dice button on pin 17"):
            DiceButton.from_config(DiceConfig(display=DiceDisplayConfig(kind="pips", pins=(5, 6, 13, 19))))
    finally:
        taken.close()
    assert all(is_free(pin) for pin in (5, 6, 13, 17, 19))


# ----------------------------------------------------------------------
# The dice themselves


def test_roll_dice() -> None:
    for count in (1, 2, 3):
        dice = roll_dice(count)
        assert len(dice) == count and all(1 <= die <= 6 for die in dice)
    assert roll_dice(3, random.Random(7)) == roll_dice(3, random.Random(7))
    for bad in (0, 4, -1):
        with pytest.raises(ValueError):
            roll_dice(bad)


def test_the_default_source_is_the_operating_systems(monkeypatch: pytest.MonkeyPatch, factory: MockFactory) -> None:
    assert isinstance(hardware.dice.SECURE_RANDOM, secrets.SystemRandom)
    used = []

    class Counting(secrets.SystemRandom):
        def randint(self, a: int, b: int) -> int:
            used.append((a, b))
            return super().randint(a, b)

    monkeypatch.setattr(hardware.dice, "SECURE_RANDOM", Counting())
    roll_dice(2)
    with DiceButton(17, clock=FakeClock()) as dice:
        dice.roll(3)
    assert used == [(1, 6)] * 5


def chi_square(observed: Counter[int], expected: dict[int, float]) -> float:
    return sum((observed[key] - want) ** 2 / want for key, want in expected.items())


def test_each_face_is_equally_likely() -> None:
    rolls = 60_000
    faces = Counter(roll_dice(1)[0] for _ in range(rolls))
    assert set(faces) <= set(range(1, 7))
    statistic = chi_square(faces, {face: rolls / 6 for face in range(1, 7)})
    assert statistic < 25.74, f"chi-square {statistic:.2f} with 5 degrees of freedom: {sorted(faces.items())}"


def test_two_dice_sum_like_two_dice() -> None:
    rolls = 60_000
    sums = Counter(sum(roll_dice(2)) for _ in range(rolls))
    ways = {total: 6 - abs(total - 7) for total in range(2, 13)}
    statistic = chi_square(sums, {total: rolls * ways[total] / 36 for total in ways})
    assert statistic < 35.56, f"chi-square {statistic:.2f} with 10 degrees of freedom: {sorted(sums.items())}"


def test_tumble_frames_always_change() -> None:
    rng = random.Random(3)
    for _ in range(500):
        result = roll_dice(rng.randint(1, 3), rng)
        shown = roll_dice(rng.randint(1, 3), rng)
        frames = tumble_frames(result, 6, rng, shown)
        assert len(frames) == 6
        for before, after in itertools.pairwise((shown, *frames)):
            # the dice both have: `shown` may be of another number of dice than the roll
            assert all(a != b for a, b in zip(before, after, strict=before is not shown))
        assert all(a != b for a, b in zip(frames[-1], result, strict=True))
    assert tumble_frames((3,), 0, rng) == []
