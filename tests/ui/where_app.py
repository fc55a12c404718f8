"""What the app says about its hardware and the phone server, wherever it runs (issue 54, points 2 and 5), in the
real app, offscreen, by touches only. Run by test_where.py in a subprocess (Kivy opens one window per process):

    python tests/ui/where_app.py WORKDIR SCENARIO [ARGS...]

Scenarios:
- `no-hardware`: started as `--no-hardware` on a computer, with a config file that leaves the phone server on: the
  reader's check says there is no reader because of the flag, without asking for a card or to switch on the
  on-screen buttons already on; a game's Phones button shows the table's QR code, which decodes to the game's link.
- `computer`: on a computer with no config file at all, hardware on, gpiozero finding no pins ("Unable to load
  any default pin factory!"): the dice button's check says this computer has no pins for it and the screen's
  button rolls, never gpiozero's words nor "restart the Pi"; the reader's check says no reader is set up, which
  file to create (not one to edit), and that the on-screen buttons already on need nothing.
- `phones-off`: on a Pi whose config file switches the phone server off: "Edit on a phone" and the game's Phones
  button (greyed, but it answers a touch) say so, naming that file.
- `port-taken`: `--no-hardware`, the phone server's port held by another program: the Phones button's page says
  the port is taken.
- `raw PLACE READER DICE PHONES`: each failure the hardware and the phone server can meet, raised with a marker
  in its text (the device's open, the reader's library, gpiozero, the server's start): every screen shows the
  app's own words for it, and the marker never reaches any widget or notice (checked at every step). PLACE is
  pi or computer; READER missing|denied|busy|lost|library; DICE no_gpio|pin; PHONES port|address.

Exits 0 when every check passed; otherwise prints the failing step.
"""

from __future__ import annotations

import errno
import os
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from e2e_kit import Step, by_role, decode_qr, free_port, play, texts, touch, touch_role, widgets
from kivy.core.window import Window

from hardware.config import find_config
from ui.app import BankerApp
from ui.settings import Settings

MARKER = "ZQX-RAW-LIBRARY-TEXT"
"""What a failure's own text holds in the `raw` scenario: it must never be on the screen."""


def everything(app: BankerApp) -> str:
    """Every text of the screen showing now, buttons' labels too, the layers over it, and the notices."""
    shown = [str(getattr(w, "text", "")) for w in widgets(app)]
    stack = list(Window.children)
    while stack:
        w = stack.pop()
        shown.append(str(getattr(w, "text", "")))
        stack.extend(w.children)
    shown += [n["text"] for n in app.session.notice_lines(30)]
    return "\n".join(shown)


def config(work: Path, text: str) -> str:
    path = work / "config.toml"
    path.write_text(text, "utf-8")
    return str(path)


def make(work: Path, *, hardware: bool, pi: bool, config_path: str | None, phones: bool = True,
         taps: bool = False) -> BankerApp:
    Settings(taps=taps, language="en").save(work / "settings.json")
    return BankerApp(work / "games.sqlite3", config_path=config_path, hardware=hardware, phones=phones, pi=pi,
                     settings_file=work / "settings.json", voice=False, motion=False)


def tr(app: BankerApp) -> Callable[..., str]:
    return lambda key, **params: app.session.tr(key, **params)


def on(app: BankerApp, screen: str) -> Callable[[], bool]:
    return lambda: app.manager.current == screen


def says(app: BankerApp, key: str, **params: Any) -> Callable[[], bool]:
    """The app's words `key` are on the screen (texts, not buttons)."""
    return lambda: app.session.tr(key, **params) in texts(app)


def never(app: BankerApp, *keys: str) -> Callable[[], bool]:
    """None of these messages (whatever their parameters: their first words) is on the screen."""
    def check() -> bool:
        shown = everything(app)
        for key in keys:
            start = app.session.tr(key).split("{")[0][:30]
            assert start not in shown, f"{key} is on the screen: {start!r}"
        return True
    return check


def to_check(app: BankerApp, kind: str) -> list[Step]:
    t = tr(app)
    return [("Settings", lambda: touch(app, t("ui.settings"))),
            ("the settings", on(app, "settings")),
            (f"check the {kind}", lambda: touch_role(app, f"check_{kind}")),
            (f"the {kind}'s check", on(app, f"check_{kind}"))]


def back(app: BankerApp, screen: str) -> list[Step]:
    return [("Back", lambda: touch(app, app.session.tr("ui.back"))), (f"back on {screen}", on(app, screen))]


def a_game_s_phones(app: BankerApp) -> list[Step]:
    """A new game of the default players started with on-screen buttons, and the banker's Phones button."""
    t = tr(app)
    return [("New game", lambda: touch(app, t("ui.home.new"))),
            ("the new-game screen", on(app, "setup")),
            ("Start the game", lambda: touch(app, t("ui.setup.start"))),
            ("the table", on(app, "table")),
            ("Banker", lambda: touch(app, t("ui.nav.banker"))),
            ("the banker's menu", on(app, "banker"))]


def no_hardware(app: BankerApp, work: Path) -> list[Step]:
    t = tr(app)
    got: dict[str, str] = {}

    def read_code() -> bool:
        text = decode_qr(app, "qr table", work)
        if text:
            got["link"] = text
        return bool(text)

    return [
        *to_check(app, "reader"),
        ("no reader, because of the flag", says(app, "ui.check.no_reader")),
        ("the flag named", says(app, "ui.where.no_hardware_computer")),
        ("the buttons already on need nothing", says(app, "ui.check.buttons_on")),
        ("no card asked for, no switch to switch on", never(app, "ui.check.tap_any", "ui.check.use_buttons")),
        *back(app, "settings"), *back(app, "home"),
        *a_game_s_phones(app),
        ("Phones: QR code, not greyed", lambda: (b := by_role(app, "phones")) is not None
         and b.text == t("ui.phones.button") and not b.disabled),
        ("Phones", lambda: touch_role(app, "phones")),
        ("the phones page", on(app, "phones")),
        ("the table's code decodes", read_code),
        ("to the game's link", lambda: got["link"] == app.flows.phones.table_link() and "/g/" in got["link"]),
    ]


def computer(app: BankerApp, work: Path) -> list[Step]:
    to_create = str(work / "xdg" / "board-banker" / "config.toml")
    return [
        ("no config file here", lambda: find_config() is None and app.flows.settings.hardware is not None),
        *to_check(app, "dice"),
        ("no dice button here", says(app, "ui.check.no_dice")),
        ("this computer has no pins: the screen's button rolls", says(app, "ui.where.dice_computer")),
        ("not gpiozero's words", lambda: "pin factory" not in everything(app) and "Unable to" not in everything(app)),
        ("nothing to restart", never(app, "ui.check.dice_missing", "ui.check.press_button")),
        ("the dice button could not be had", lambda: app.flows.settings.button == "missing"),
        *back(app, "settings"),
        ("check the reader", lambda: touch_role(app, "check_reader")),
        ("no reader", says(app, "ui.check.no_reader")),
        ("which file to create", says(app, "ui.where.reader_no_config", config=to_create)),
        ("the buttons already on need nothing", says(app, "ui.check.buttons_on")),
        ("no card asked for, no switch to switch on, no file to edit",
         never(app, "ui.check.tap_any", "ui.check.use_buttons", "ui.check.reader_unset")),
        ("nothing of /etc", lambda: "/etc/" not in everything(app)),
    ]


def phones_off(app: BankerApp, work: Path) -> list[Step]:
    t = tr(app)
    file = str(work / "config.toml")
    return [
        ("Settings", lambda: touch(app, t("ui.settings"))),
        ("Editions", lambda: touch_role(app, "editions")),
        ("Edit on a phone", lambda: touch_role(app, "edit on a phone")),
        ("the phone page", on(app, "edition_phone")),
        ("switched off in that file", says(app, "ui.where.phones_disabled", config=file)),
        ("nothing of /etc", lambda: "/etc/" not in everything(app)),
        ("Done", lambda: touch_role(app, "phone done")),
        *back(app, "settings"), *back(app, "home"),
        *a_game_s_phones(app),
        ("Phones: off, greyed", lambda: (b := by_role(app, "phones")) is not None
         and b.text == t("ui.phones.button_off")),
        ("touched all the same", lambda: touch_role(app, "phones")),
        ("why", says(app, "ui.where.phones_disabled", config=file)),
    ]


def port_taken(app: BankerApp, work: Path, port: int) -> list[Step]:
    t = tr(app)
    return [
        *a_game_s_phones(app),
        ("Phones: off", lambda: (b := by_role(app, "phones")) is not None and b.text == t("ui.phones.button_off")),
        ("touched", lambda: touch_role(app, "phones")),
        ("the port is taken", says(app, "ui.where.phones_port", port=str(port))),
    ]


# ---------------------------------------------------------------------- every failure, with a marker

def raise_(exc: BaseException) -> Any:
    raise exc


def inject(reader: str, dice: str, phones: str) -> None:
    """Make the hardware and the phone server fail, each with MARKER in its text, as their libraries do."""
    import serial

    from hardware import kinds
    from hardware.kinds import MissingLibrary
    from hardware.line import LineProtocol
    from ui.web import PhoneServer

    opened: dict[str, BaseException] = {
        "missing": serial.SerialException(errno.ENOENT, f"could not open port: {MARKER}"),
        "denied": serial.SerialException(errno.EACCES, f"could not open port: {MARKER}"),
        "busy": serial.SerialException(errno.EAGAIN, f"Could not exclusively lock port: {MARKER}"),
        "lost": serial.SerialException(f"device reports readiness to read but returned no data {MARKER}"),
    }
    if reader == "library":
        kinds.ReaderKind.make = lambda self, *a, **k: raise_(MissingLibrary(f"needs {MARKER}"))  # type: ignore[method-assign]
    else:
        LineProtocol.open = lambda self, url: raise_(opened[reader])  # type: ignore[method-assign]
    if dice == "no_gpio":
        os.environ["GPIOZERO_PIN_FACTORY"] = MARKER  # gpiozero: "Unable to find pin factory '...'"
    else:
        from hardware import dice as dice_module

        dice_module.DiceButton.from_config = classmethod(  # type: ignore[method-assign, assignment]
            lambda cls, *a, **k: raise_(RuntimeError(f"GPIO busy {MARKER}")))
    number = errno.EADDRINUSE if phones == "port" else errno.EADDRNOTAVAIL
    PhoneServer.start = lambda self: raise_(OSError(number, f"[Errno {number}] {MARKER}"))  # type: ignore[method-assign]


def raw(app: BankerApp, work: Path, pi: bool, reader: str, dice: str, phones: str) -> list[Step]:
    place = "pi" if pi else "computer"
    port = "/dev/ttyUSB7"
    reader_says = {"missing": ("ui.check.reader_missing", {"port": port}),
                   "denied": (f"ui.where.reader_denied_{place}", {"port": port}),
                   "busy": ("ui.check.reader_busy", {"port": port}),
                   "lost": ("ui.check.reader_cable", {}),
                   "library": (f"ui.where.reader_library_{place}", {"kind": "line"})}[reader]
    dice_says = ("ui.where.dice_no_gpio_pi" if dice == "no_gpio" else "ui.check.dice_missing") if pi else \
        ("ui.where.dice_computer" if dice == "no_gpio" else "ui.where.dice_failed_computer")
    phones_says = ("ui.where.phones_port", {"port": "8199"}) if phones == "port" else ("ui.where.phones_cannot_start", {})
    return [
        ("the phone server has been tried: a notice", lambda: bool(app.session.notice_lines(5))),
        ("the reader has been tried", lambda: app.flows.settings.reader == "disconnected"),
        *to_check(app, "reader"),
        ("not answering", says(app, "ui.check.reader_not_answering")),
        ("why, in our words", says(app, reader_says[0], **reader_says[1])),
        *back(app, "settings"),
        ("check the dice button", lambda: touch_role(app, "check_dice")),
        ("why not, in our words", says(app, dice_says, pin="17")),
        *back(app, "settings"),
        ("Editions", lambda: touch_role(app, "editions")),
        ("Edit on a phone", lambda: touch_role(app, "edit on a phone")),
        ("no server: why, in our words", says(app, phones_says[0], **phones_says[1])),
        ("Done", lambda: touch_role(app, "phone done")),
        *back(app, "settings"), *back(app, "home"),
        *a_game_s_phones(app),
        ("Phones: off", lambda: touch_role(app, "phones")),
        ("the same words", says(app, phones_says[0], **phones_says[1])),
    ]


def watched(app: BankerApp, steps: list[Step]) -> list[Step]:
    """Each step, and before it: the marker is nowhere on the screen or in the notices."""
    def guard(step: Callable[[], bool]) -> Callable[[], bool]:
        def run() -> bool:
            assert MARKER not in everything(app), f"a library's text is on the screen:\n{everything(app)}"
            return step()
        return run
    return [(name, guard(step)) for name, step in steps]


def main() -> int:
    work, scenario, rest = Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
    work.mkdir(parents=True, exist_ok=True)
    os.environ["XDG_CONFIG_HOME"] = str(work / "xdg")  # no config file of the machine's
    os.environ.pop("BANKER_CONFIG", None)
    web = f'[web]\nlisten = ["127.0.0.1"]\nport = {free_port()}\n'
    held: socket.socket | None = None
    steps: Callable[[BankerApp], list[Step]]
    if scenario == "no-hardware":
        app = make(work, hardware=False, pi=False, config_path=config(work, web))
        steps = lambda app: no_hardware(app, work)  # noqa: E731
    elif scenario == "computer":
        os.environ.pop("GPIOZERO_PIN_FACTORY", None)  # gpiozero looks for real pins, and finds none here
        app = make(work, hardware=True, pi=False, config_path=None, phones=False)
        steps = lambda app: computer(app, work)  # noqa: E731
    elif scenario == "phones-off":
        app = make(work, hardware=True, pi=True, config_path=config(work, '[dice]\nenabled = false\n'
                                                                            '[web]\nenabled = false\n'))
        steps = lambda app: phones_off(app, work)  # noqa: E731
    elif scenario == "port-taken":
        held = socket.socket()
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        app = make(work, hardware=False, pi=False, config_path=config(work, f'[web]\nlisten = ["127.0.0.1"]\n'
                                                                             f'port = {port}\n'))
        steps = lambda app: port_taken(app, work, port)  # noqa: E731
    elif scenario == "raw":
        place, reader, dice, phones = rest
        inject(reader, dice, phones)
        app = make(work, hardware=True, pi=place == "pi", config_path=config(
            work, '[reader]\nurl = "/dev/ttyUSB7"\nprotocol = "line"\n[dice]\npin = 17\n'
                  '[web]\nlisten = ["127.0.0.1"]\nport = 8199\n'))
        steps = lambda app: raw(app, work, place == "pi", reader, dice, phones)  # noqa: E731
    else:
        print(f"unknown scenario {scenario}")
        return 2
    try:
        failed, script = play(app, lambda: watched(app, steps(app)))
    finally:
        if held is not None:
            held.close()
    if failed or script is None:
        return 1
    print(f"{len(script.steps)} steps passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
