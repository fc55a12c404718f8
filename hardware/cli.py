"""`banker hw ...`: what a family runs while wiring the box.

    banker hw ports                                    serial ports on this machine
    banker hw cards [--port URL] [--protocol KIND]     "tap UID" per tap, "connected"/"disconnected"
    banker hw dice [--pin PIN] [--count N]             each roll as the button is pressed
    banker hw emulate --protocol KIND [--link PATH]    a fake reader: UIDs typed on stdin become taps

The reader kinds (KIND, the config's reader.protocol) are hardware/kinds.py's table, listed by
`banker hw cards --help`.

`cards` and `dice` run until interrupted (Ctrl-C) and keep going across
unplugs. Defaults come from the hardware config file (--config PATH, see
docs/hardware.md). The numbers given are held to the config's own bounds
(--retap as reader.retap_window, --pin as a pin of the config, --count as
dice.count), and a bad one is refused on one line.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import signal
import sys
import threading
from typing import Any

from banker.outside import seconds, whole_number
from hardware import kinds
from hardware.config import MAX_DICE, RETAP_RANGE, Pin, pin_problem
from hardware.events import CardTapped, ConfigError, DiceRolled, HardwareError, ReaderStatus


def register(sub: Any) -> None:
    hw = sub.add_parser("hw", help="card readers and the dice button: ports, cards, dice, emulate",
                        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    hw_sub = hw.add_subparsers(dest="hw_command", metavar="WHAT", required=True)
    hw_sub.add_parser("ports", help="list the serial ports")
    cards = hw_sub.add_parser("cards", help="print each card tap, across unplugs, until Ctrl-C",
                              description="Print each card tap, across unplugs, until Ctrl-C. The reader kinds:\n"
                                          + kinds.describe(), formatter_class=argparse.RawDescriptionHelpFormatter)
    cards.add_argument("--port", help="the reader's device, as its kind names it (default: the config's reader.url)")
    cards.add_argument("--protocol", choices=kinds.NAMES, metavar="KIND",
                       help=f"the reader's kind: {', '.join(kinds.NAMES)} (default: the config's reader.protocol)")
    cards.add_argument("--retap", type=seconds(*RETAP_RANGE), metavar="SECONDS",
                       help=f"seconds a card must be away before it taps again, {RETAP_RANGE[0]:g} to "
                            f"{RETAP_RANGE[1]:g} (default: the config's reader.retap_window)")
    cards.add_argument("--config", help="hardware config file")
    dice = hw_sub.add_parser("dice", help="print each roll as the dice button is pressed, until Ctrl-C")
    dice.add_argument("--pin", type=gpio_pin,
                      help='GPIO pin of the button: a number from 0 to 27 or a name such as "GPIO17" or "BOARD11", '
                           "as in the config (default: the config's dice.pin)")
    dice.add_argument("--count", type=whole_number(1, MAX_DICE),
                      help=f"dice per roll, 1 to {MAX_DICE} (default: the config's dice.count)")
    dice.add_argument("--config", help="hardware config file")
    emulate = hw_sub.add_parser("emulate", help="a fake reader; type UIDs to tap")
    emulate.add_argument("--protocol", choices=kinds.EMULATED, metavar="KIND", required=True,
                         help=f"the kind of reader to fake: {', '.join(kinds.EMULATED)}")
    emulate.add_argument("--link", help="also make this stable path (a symlink) point to the device")


def gpio_pin(text: str) -> Pin:
    """An argparse type: a pin checked exactly as the config checks one; a plain number becomes an int."""
    problem = pin_problem(text)
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return int(text) if re.fullmatch(r"[0-9]+", text) else text


def run(args: argparse.Namespace) -> int:
    try:
        if args.hw_command == "ports":
            return ports()
        if args.hw_command == "cards":
            return cards(args)
        if args.hw_command == "dice":
            return dice(args)
        return emulate(args)
    except (ConfigError, HardwareError) as exc:  # a bad config, or no GPIO on this machine
        print(f"banker hw: {exc}", file=sys.stderr)
        return 2


def say(text: str) -> None:
    print(text, flush=True)


def wait_for_interrupt() -> None:
    """Block until Ctrl-C or SIGTERM (systemd's stop)."""
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    while not stop.wait(0.5):
        pass


def ports() -> int:
    from serial.tools import list_ports

    found = sorted(list_ports.comports(include_links=True), key=lambda p: p.device)
    if not found:
        say("no serial ports found")
    for port in found:
        say(f"{port.device}\t{port.description}\t{port.hwid}")
    return 0


def cards(args: argparse.Namespace) -> int:
    from hardware.config import load_config
    from hardware.reader import CardReader

    config = load_config(args.config).reader
    url = config.url if args.port is None else args.port  # --port "": the first reader, for a kind that has one
    kind = kinds.kind(args.protocol or config.protocol)
    if not kind.used(url):
        print("banker hw cards: no reader: give --port URL or set reader.url in the config", file=sys.stderr)
        return 2
    protocol = kind.make(config.baudrate, config)
    retap = config.retap_window if args.retap is None else args.retap

    def on_tap(event: CardTapped) -> None:
        say(f"tap {event.uid}")

    def on_status(event: ReaderStatus) -> None:
        say(event.word if not event.detail or event.connected else f"{event.word} ({event.detail})")

    with CardReader(url, protocol, on_tap, on_status, retap_window=retap):
        wait_for_interrupt()
    return 0


def dice(args: argparse.Namespace) -> int:
    from hardware.config import load_config
    from hardware.dice import DiceButton

    config = load_config(args.config).dice
    pin: Any = args.pin if args.pin is not None else config.pin
    config = dataclasses.replace(config, pin=pin, count=args.count or config.count)

    def on_roll(event: DiceRolled) -> None:
        say("roll " + " ".join(map(str, event.dice)))

    with DiceButton.from_config(config, on_roll=on_roll):
        say(f"press the button on {pin} (Ctrl-C to stop)")
        wait_for_interrupt()
    return 0


def emulate(args: argparse.Namespace) -> int:
    device = kinds.kind(args.protocol).make_emulator(link=args.link)
    with device:
        say(device.url)
        for line in sys.stdin:
            uid = line.strip().replace(" ", "").upper()
            if not uid:
                continue
            if len(uid) not in (8, 14, 20) or any(c not in "0123456789ABCDEF" for c in uid):
                print(f"not a UID (4, 7 or 10 bytes in hex): {line.strip()}", file=sys.stderr, flush=True)
                continue
            device.tap(uid)
            say(f"tapped {uid}")
    return 0
