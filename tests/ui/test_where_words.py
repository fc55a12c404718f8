"""ui/where.py without a window: whether this is a Pi, the kinds of failure, and the words for every state of the
reader, the dice button and the phone server in every place the app can run (a Pi or a computer, --no-hardware,
a config file, none, or one with a mistake): the heading fits the state, the one thing to do fits the place, and
nothing suggests a setting already on or a file that is not there. The same in the real app: test_where.py."""

from __future__ import annotations

import errno
import itertools
from pathlib import Path

from hardware.events import READER_PROBLEMS, HardwareError
from hardware.reader import open_problem
from ui.i18n import LANGUAGES, Msg, Translator
from ui.where import (
    DICE_PROBLEMS,
    PHONES_OFF,
    Where,
    dice_problem,
    dice_words,
    is_pi,
    phones_off,
    phones_problem,
    reader_words,
)

EN = Translator("en")
PLACES = [Where(pi=pi, hardware=hardware, config=config, config_problem=problem)
          for pi, hardware, config, problem in itertools.product(
              (True, False), (True, False), ("", "/home/ann/.config/board-banker/config.toml"), (False, True))
          if not (problem and not config)]


def text(m: Msg) -> str:
    return EN.render(m)


def test_a_pi_is_told_by_its_device_tree_model(tmp_path: Path) -> None:
    model = tmp_path / "model"
    assert not is_pi(model)  # no device tree: a computer
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\x00")
    assert is_pi(model)
    model.write_bytes(b"Pine64 RockPro64 v2.1\x00")
    assert not is_pi(model)


def test_the_kinds_of_failure() -> None:
    import serial

    assert open_problem(serial.SerialException(errno.ENOENT, "could not open port")) == "missing"
    assert open_problem(FileNotFoundError(2, "x")) == "missing"
    assert open_problem(PermissionError(13, "x")) == "denied"
    assert open_problem(serial.SerialException(errno.EAGAIN, "Could not exclusively lock port")) == "busy"
    assert open_problem(serial.SerialException("returned no data")) == "lost"
    assert open_problem(ValueError("invalid URL")) == "lost"
    from gpiozero.exc import BadPinFactory

    try:
        try:
            raise BadPinFactory("Unable to load any default pin factory!")
        except BadPinFactory as inner:
            raise HardwareError(f"dice button on pin 17: {inner}") from inner
    except HardwareError as wrapped:
        assert dice_problem(wrapped) == "no_gpio"  # hardware/dice.py's wrapping looked through
    assert dice_problem(ImportError("No module named 'gpiozero'")) == "no_gpio"
    assert dice_problem(HardwareError("dice button on pin 17: pin in use")) == "pin"
    assert phones_problem(OSError(errno.EADDRINUSE, "address already in use")) == "port_in_use"
    assert phones_problem(OSError(errno.EADDRNOTAVAIL, "cannot assign requested address")) == "cannot_start"


def reader_cases() -> list[tuple[Where, dict[str, object]]]:
    cases = []
    for where in PLACES:
        for used, connected, problem, cards, port in itertools.product(
                (True, False), (True, False), (*READER_PROBLEMS, "library"), (True, False), ("/dev/ttyUSB0", "")):
            if connected and problem or not used and connected:
                continue
            cases.append((where, {"used": used, "connected": connected, "problem": problem, "kind": "line",
                                  "port": port, "cards": cards, "tapped": False}))
    return cases


def test_the_reader_s_words_fit_the_state_and_the_place() -> None:
    for where, state in reader_cases():
        reader_case(where, state)


def reader_case(where: Where, state: dict[str, object]) -> None:
    heading, hints = reader_words(where, **state)  # type: ignore[arg-type]
    said = [text(h) for h in hints]
    answering = where.hardware and not where.config_problem and state["used"] and state["connected"]
    # Only a reader that answers is asked for a card.
    assert (heading.key == "ui.check.tap_any") == bool(answering)
    # Never a setting already on: on-screen buttons are offered only while the game is played with cards.
    assert ("ui.check.use_buttons" in [h.key for h in hints]) <= bool(state["cards"])
    assert not (not state["cards"] and any("On-screen buttons instead of cards" in s for s in said))
    # A file is named to edit only when it is there; else the file to create.
    if not where.config:
        assert not any(h.key in ("ui.check.reader_unset", "ui.check.reader_port") for h in hints)
    # What only a Pi has is said only on a Pi; --no-hardware is the cause whenever it was given.
    if not where.pi:
        assert not any("restart the Pi" in s or "deploy/install.sh" in s for s in said)
    if not where.hardware:
        assert "--no-hardware" in said[0]
    assert hints and all(s.strip() for s in said)


def test_the_dice_button_s_words_fit_the_state_and_the_place() -> None:
    for where, pin, ready, problem in itertools.product(PLACES, ("17", ""), (True, False), ("", *DICE_PROBLEMS)):
        if not (ready and problem) and not (pin == "" and ready):
            dice_case(where, pin, ready, problem)


def dice_case(where: Where, pin: str, ready: bool, problem: str) -> None:
    heading, hints = dice_words(where, pin=pin, ready=ready, problem=problem, pressed=False)
    said = [text(h) for h in hints]
    assert (heading.key == "ui.check.press_button") == (where.hardware and not where.config_problem and ready)
    if not where.pi:
        assert not any("the Pi" in s or "deploy/install.sh" in s for s in said)
    if not where.hardware:
        assert "--no-hardware" in said[0]
    assert hints


def test_the_phone_server_s_words_name_the_real_cause() -> None:
    for where, off in itertools.product(PLACES, PHONES_OFF):
        phones_case(where, off)


def phones_case(where: Where, off: str) -> None:
    said = text(phones_off(where, off, 8080))
    if off == "disabled":
        assert (where.config or where.config_to_create()) in said and "enabled = true" in said
    else:
        assert "enabled = true" not in said  # never "switch on" what is on
    if off == "port_in_use":
        assert "8080" in said
    assert "/etc/board-banker" not in said or where.config.startswith("/etc/") or (where.pi and not where.config)


def test_every_word_is_in_every_language() -> None:
    """The place-dependent words, each translated (not left in English) in Polish, Czech and Russian."""
    keys: set[str] = set()
    for where, state in reader_cases():
        heading, hints = reader_words(where, **state)  # type: ignore[arg-type]
        keys |= {heading.key, *(h.key for h in hints)}
    for where in PLACES:
        for pin, ready, problem in itertools.product(("17", ""), (True, False), ("", *DICE_PROBLEMS)):
            heading, hints = dice_words(where, pin=pin, ready=ready, problem=problem, pressed=False)
            keys |= {heading.key, *(h.key for h in hints)}
        keys |= {phones_off(where, off, 8080).key for off in PHONES_OFF}
        keys |= {where.facts().key, "ui.where.pi", "ui.where.computer", "ui.where.no_config"}
    for language in LANGUAGES:
        tr = Translator(language)
        for key in sorted(keys):
            assert tr.has(key), (language, key)
            if language != "en":
                assert tr.template(key) != EN.template(key), (language, key)
