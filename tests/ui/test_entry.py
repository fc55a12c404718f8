"""The digit pad's logic and the destructive buttons' second touch (ui/entry.py), without Kivy."""

from __future__ import annotations

import pytest

from ui.entry import CLEAR, CONFIRM_SECONDS, ERASE, KEYS, MINUS, PIN_MOST, PLUS, Confirm, Entry


def typed(entry: Entry, keys: str) -> Entry:
    for key in keys:
        entry.press(key)
    return entry


def test_the_pad_has_ten_digits_erase_and_clear() -> None:
    assert sorted(k for k in KEYS if k.isdigit()) == list("0123456789") and {ERASE, CLEAR} <= set(KEYS)
    assert len(KEYS) == 12  # three columns, four rows


def test_an_amount_is_typed_digit_by_digit_never_in_steps() -> None:
    e = typed(Entry("trade_cash", back="trade", mode="table"), "1234")
    assert e.value == 1234 and e.digits == "1234" and e.ready()
    assert e.press(ERASE) and e.value == 123
    assert e.press(CLEAR) and e.value == 0 and e.digits == ""
    assert not e.press(ERASE) and not e.press(CLEAR)  # nothing to take away
    typed(e, "007")
    assert e.digits == "7"  # leading zeros go
    e = typed(Entry("trade_cash", back="trade", mode="table"), "00")
    assert e.digits == "0" and not e.press("0")
    assert not e.press("x") and not e.press("12") and not e.press(PLUS)  # not keys here


def test_a_digit_past_the_most_is_refused() -> None:
    e = typed(Entry("trade_cash", back="trade", mode="table", most=1500), "150")
    assert not e.press("1") and e.value == 150  # 1501 is more than the player has
    assert e.press("0") and e.value == 1500 and e.ready()
    e = Entry("trade_cash", back="trade", mode="table")
    assert not typed(e, "123456789").press("0") and e.value == 1234567  # AMOUNT_DIGITS at most


def test_a_value_shown_is_replaced_by_the_first_digit_typed() -> None:
    e = Entry("trade_cash", back="trade", mode="table", digits="250", fresh=True)
    assert e.value == 250
    e.press("4")
    assert e.value == 4 and not e.fresh
    e = Entry("trade_cash", back="trade", mode="table", digits="250", fresh=True)
    e.press(ERASE)  # erasing keeps the rest of it
    assert e.value == 25
    e.press("0")
    assert e.value == 250
    e = Entry("trade_cash", back="trade", mode="table", digits="250", fresh=True, most=5)
    assert not e.press("7") and e.value == 250  # a refused first digit leaves the value as it was


def test_the_opening_bid_keeps_the_bounds_and_the_step() -> None:
    e = Entry("reserve", back="ownauction", mode="table", least=100, most=1500, step=10)
    assert not e.ready() and e.breaks() == "least"
    typed(e, "12")
    assert e.breaks() == "least"
    e.press("5")
    assert e.breaks() == "step" and not e.ready()  # 125 is not 100 + a whole number of tens
    e.press(ERASE)
    e.press("0")
    assert e.value == 120 and e.breaks() is None and e.ready()
    assert not typed(e, "0").press("0") and e.value == 1200  # 12000 is past the most
    e = Entry("reserve", back="ownauction", mode="table", least=105, most=1505, step=10)
    assert typed(e, "115").ready() and not typed(Entry("reserve", back="o", mode="table", least=105, most=1505,
                                                       step=10), "110").ready()  # steps count from the least


def test_a_correction_adds_or_takes_away_and_shows_the_new_balance() -> None:
    e = typed(Entry("correction", back="banker", mode="table", signed=True, base=1500), "50")
    assert e.change() == 50 and e.result() == 1550 and e.ready()
    assert e.press(MINUS) and e.change() == -50 and e.result() == 1450
    assert e.press(PLUS) and e.result() == 1550
    e = Entry("correction", back="banker", mode="table", signed=True, base=60)
    assert not e.ready()  # nothing to correct yet
    e.press(MINUS)
    typed(e, "60")
    assert e.result() == 0 and e.ready()
    assert not e.press("0")  # taking away 600 would leave less than nothing
    e.press(PLUS)
    assert e.press("0") and e.result() == 660  # adding has no such limit
    e.press(MINUS)
    assert e.breaks() == "most" and not e.ready()  # ... until it takes away again


def test_a_pin_is_masked_keeps_its_zeros_and_a_new_one_has_four_to_eight_digits() -> None:
    e = typed(Entry("unlock", back="table", mode="table"), "0042")
    assert e.digits == "0042" and e.masked() == "\u25cf" * 4 and e.value == 0 and e.secret
    assert typed(e, "12345").digits == "00421234" and len(e.digits) == PIN_MOST
    assert not Entry("unlock", back="table", mode="table").ready()  # an empty PIN is never tried
    new = Entry("new_pin", back="setup", mode="setup")
    assert new.ready()  # none at all: a game without a PIN
    typed(new, "123")
    assert new.breaks() == "short" and not new.ready()
    new.press("4")
    assert new.ready()


def test_an_unknown_purpose_is_refused() -> None:
    with pytest.raises(ValueError):
        Entry("launch", back="table", mode="table")


class Ticks:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_first_touch_arms_the_second_confirms() -> None:
    clock = Ticks()
    confirm = Confirm(clock)
    assert not confirm.touch("abandon") and confirm.armed() == "abandon"
    assert confirm.left() == CONFIRM_SECONDS
    assert confirm.touch("abandon") and confirm.armed() is None  # done, and disarmed
    assert not confirm.touch("abandon")  # a third touch starts again


def test_another_button_or_any_other_touch_disarms() -> None:
    confirm = Confirm(Ticks())
    confirm.touch("abandon")
    assert not confirm.touch("end") and confirm.armed() == "end"  # the other one is armed instead
    assert confirm.disarm() and confirm.armed() is None
    assert not confirm.disarm()
    assert not confirm.touch("end")


def test_arming_lapses_after_a_few_seconds() -> None:
    clock = Ticks()
    confirm = Confirm(clock)
    confirm.touch("power_off")
    clock.now += CONFIRM_SECONDS - 0.5
    assert confirm.armed() == "power_off" and confirm.left() == pytest.approx(0.5)
    clock.now += 0.5
    assert confirm.armed() is None and confirm.left() is None
    assert not confirm.touch("power_off")  # too late: this touch only arms it again
