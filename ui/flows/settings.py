"""The settings: the language, the sounds, the voice, the money in motion, paying by card, physical decks; and
the hardware: the card reader's and the dice button's state as the hardware reports it, and the hardware
checks (pages "check_reader" and "check_dice"), which show each tap or press and act on none, and say what is
wrong and what to do in the words of the place the app runs in (ui/where.py: a Pi or a computer, --no-hardware,
a config file or none); last, the About line: the app's version as `banker --version` says it. The hardware's
own reasons (a library's error text) are logged, never shown."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from banker.version import version_line
from ui.flows.base import Flow
from ui.i18n import LANGUAGES, Translator
from ui.pages import HOME
from ui.settings import LEVELS
from ui.where import Where, dice_words, reader_words

if TYPE_CHECKING:
    from ui.flows import Flows

# A reader named in the config that has not answered this long after the start is said to be silent (the home
# screen's note): a line reader answers at once, a PN532 within about a second at worst (two configuration
# commands, up to three tries of about 0.2 s each, hardware/pn532.py), and a port that is not there yet is tried
# again every half second (hardware/reader.py), so a reader that comes up with the app never flashes the note.
log = logging.getLogger(__name__)
READER_QUIET_SECONDS = 5.0
SETTING_ROWS = (("sounds", "motion"), ("voice", "voice_volume", "voice_speed"), ("taps", "physical_decks"))
# The settings that choose between two ways of playing, neither of them "off" ("Pay with: players' cards" or "Pay
# with: on-screen buttons"; the banker's or the family's own decks): their button says the way chosen and looks
# the same, in force, either way. The others switch a thing on or off, and say which ("Sounds: off").
CHOICES = ("taps", "physical_decks")


class SettingButton(TypedDict):
    """A setting's button: its key, the key of its words for its state now, whether it shows as in force, and
    the value a touch sets (a switch the other way, or a level of the voice's the next one)."""

    key: str
    text_key: str
    on: bool
    next: bool | int


class SettingsView(TypedDict):
    """The settings screen (`SettingsFlow.view`)."""

    language: str
    languages: dict[str, str]  # language -> its name in itself
    rows: list[list[SettingButton]]
    status: str  # the hardware's state, and the voice's when it is silent
    editions: bool  # the family's editions offered (between games only)
    tagging: bool  # "Tag the cards" offered (between games only)
    about: str


class CheckView(TypedDict):
    """A hardware check's screen (`SettingsFlow.check_view`)."""

    title: str
    figure: str | None  # the card's id or the dice pressed, large; None until something comes
    about: str
    waiting: str
    facts: list[str]
    hints: list[str]


@dataclass
class HardwareCheck:
    """The settings' hardware check while its screen is open: what came since it opened. While it is open a card
    tap or a press of the dice button is only shown there, never acted on in the game."""

    kind: str  # "reader" | "dice": the screen open
    card: str | None = None  # the last card tapped
    taps: int = 0
    dice: tuple[int, ...] = ()  # the dice of the last press
    presses: int = 0


class SettingsFlow(Flow):
    def __init__(self, flows: Flows) -> None:
        super().__init__(flows)
        self.reader = "none"  # none | connected | disconnected
        self.button = "none"  # none | ready | missing
        # Where the app runs (ui/where.py), from the app at its start; until then (and in the flows' tests), a
        # computer without hardware.
        self.where = Where()
        # The hardware as the config file set it up (`hardware_config`: the app at its start), None before; why
        # the reader or the dice button cannot be used, as a word (hardware.events.READER_PROBLEMS, "library";
        # ui/where.py's DICE_PROBLEMS); the check being made.
        self.hardware: dict[str, str] | None = None
        self.reader_problem = ""
        self.button_problem = ""
        self.reader_since = 0.0  # the session's clock when the reader was started
        self._reader_silent = False  # what the screens were last told
        self.check: HardwareCheck | None = None
        # Why the voice is silent though switched on (no espeak-ng, no audio device), or None: the app sets
        # it to the voice's own (ui/voice.py), and the settings screen shows it under the hardware's state.
        self.voice_status: Callable[[], str | None] = lambda: None
        # The About line's version (banker/version.py's `version_line`, as `banker --version` prints it), looked
        # up when the screen is first shown; the tour sets its own, so that its pictures are the same whatever
        # build takes them.
        self.version: str | None = None

    def opened(self, fresh: bool) -> None:
        if fresh and self.s.settings.stand_ins:  # allowed for a forgotten card in the last game, not for this one
            self.set_setting("stand_ins", False)

    # ------------------------------------------------------------------ the settings

    def set_language(self, language: str) -> None:
        s = self.s
        unchanged = s.settings.language == language
        s.settings.language = language
        s.tr = Translator(language, currency=s.tr.currency)
        self.f.paying.retranslate()
        if not unchanged:  # the language already chosen touched again: nothing to write to the card
            s.save_settings(s.settings)
        self.changed()

    def set_setting(self, name: str, value: bool | int) -> None:
        before = getattr(self.s.settings, name)
        setattr(self.s.settings, name, value)
        if type(before) is not type(value) or before != value:  # the same value again: nothing to write
            self.s.save_settings(self.s.settings)
        self.changed()

    # ------------------------------------------------------------------ the hardware

    def hardware_config(self, source: str, *, reader_kind: str = "", reader_port: str = "", dice_pin: str = "",
                        problem: str = "", reader_used: bool | None = None) -> None:
        """What the hardware config file sets up, from the app at its start: the file (`source`), the reader's
        kind (its [reader] protocol, as the file names it) and port (its url), the dice button's pin ("" when
        it is off), or the file's `problem`. `reader_used`: whether the config has a reader at all (its kind's
        `used(url)`: a PC/SC reader with an empty url is the first reader there is); by default, whether a port
        is named. The reader's silence is counted from now."""
        used = bool(reader_port) if reader_used is None else reader_used
        self.hardware = {"source": source, "reader_kind": reader_kind, "reader_port": reader_port,
                         "reader_used": "yes" if used else "", "dice_pin": dice_pin, "problem": problem}
        self.reader_since = self.s.clock()
        self.changed()

    def place(self, where: Where) -> None:
        """Where the app runs (the app at its start)."""
        self.where = where
        self.changed()

    def reader_status(self, connected: bool, detail: str = "", problem: str = "") -> None:
        """The reader came or went: `detail` is the hardware's reason in its own words ("ready", "cannot open:
        [Errno 2] ..."), logged and never shown; `problem` the kind of it (hardware.events.READER_PROBLEMS, or
        "library": its kind's library is not installed), which the check says in the family's words."""
        self.reader = "connected" if connected else "disconnected"
        self.reader_problem = "" if connected else problem
        if detail:
            log.info("card reader %s: %s", self.reader, detail)
        self.changed()

    def button_status(self, ready: bool, problem: str = "") -> None:
        """The dice button can be used, or not: `problem` is why (ui/where.py's DICE_PROBLEMS)."""
        self.button = "ready" if ready else "missing"
        self.button_problem = "" if ready else problem
        self.changed()

    def reader_silent(self) -> bool:
        """A reader is named in the config but has not answered READER_QUIET_SECONDS after the start (or has
        gone since): the home screen says so, with the way to the check."""
        h = self.hardware
        if h is None or not self.where.hardware or not h["reader_used"] or self.reader == "connected":
            return False
        return self.s.clock() - self.reader_since >= READER_QUIET_SECONDS

    def tick(self) -> None:
        """Every second: a reader that stays silent after the start is said to be so."""
        if self.reader_silent() != self._reader_silent:
            self._reader_silent = not self._reader_silent
            self.changed()

    def start_check(self, kind: str | None) -> None:
        """The hardware check's screen opens ("reader" or "dice", afresh) or closes (None)."""
        self.check = HardwareCheck(kind) if kind is not None else None

    def card_seen(self, uid: str) -> None:
        """A card tapped during the reader's check (ui/taps.py): shown, nothing else."""
        assert self.check is not None
        self.check.card = uid
        self.check.taps += 1

    def dice_seen(self, dice: tuple[int, ...]) -> None:
        """A press of the dice button during the check: shown, nothing else."""
        assert self.check is not None
        self.check.dice = dice
        self.check.presses += 1
        self.changed()

    # ------------------------------------------------------------------ what the screens show

    def status_text(self) -> str:
        """The card reader's and the dice button's state, in a line."""
        tr = self.s.tr
        return tr("ui.status", reader=tr(f"ui.reader.{self.reader}"), button=tr(f"ui.button.{self.button}"))

    def view(self) -> SettingsView:
        """The settings screen: the languages, the settings' buttons in rows (each says what it is set to; a
        touch switches it, or steps a level on to the next), the hardware's and the voice's state, and
        whether the family's editions and the tagging of the cards are offered (`editions`, `tagging`: between
        games, never while one is going), and the About line (`about`: the version, as `banker --version` prints it)."""
        s = self.s.settings
        rows: list[list[SettingButton]] = []
        for keys in SETTING_ROWS:
            buttons: list[SettingButton] = []
            for key in keys:
                value = getattr(s, key)
                if isinstance(value, bool):  # its label says its state; a way chosen is never shown as off
                    buttons.append({"key": key, "text_key": f"ui.settings.{key}.{'on' if value else 'off'}",
                                    "on": value or key in CHOICES, "next": not value})
                else:  # a level of the voice's: it only counts while the voice is on
                    following = LEVELS[(LEVELS.index(value) + 1) % len(LEVELS)] if value in LEVELS else LEVELS[0]
                    buttons.append({"key": key, "text_key": f"ui.settings.{key}.{value}", "on": s.voice,
                                    "next": following})
            rows.append(buttons)
        status = self.status_text().replace("\n", " · ")  # one line under the checks' buttons, the voice's below it
        silent = self.voice_status() if s.voice else None
        if self.version is None:
            self.version = version_line()
        return {"language": s.language, "languages": dict(LANGUAGES), "rows": rows,
                "status": f"{status}\n{silent}" if silent else status,
                "editions": self.f.mode == HOME,  # the family's editions: between games only
                "tagging": self.f.mode == HOME,  # tagging the cards: between games only, as the page shows
                "about": self.s.tr("ui.settings.about", version=self.version)}

    def check_view(self, kind: str) -> CheckView:
        """The hardware check, `kind` "reader" or "dice": what came since its screen opened, in large figures
        (the card's id, or the dice of the press: `figure`, None until something comes) with what the card is
        (a player's, a tagged deed or deck card, or not tagged: ui/taps.py's `describe`) or how many came
        (`about`), else the heading (`waiting`: what to do, or that there is no such part); the
        part's kind, port or pin and state, the machine and its config file (`facts`); the cause when nothing
        can come and the one thing to do, or what to check, or that it works (`hints`), in the family's words
        for the place the app runs in (ui/where.py), the config file's own mistake last when it has one."""
        tr, h, check, where = self.s.tr, self.hardware, self.check, self.where
        figure: str | None = None
        about: list[str] = []
        if kind == "reader":
            port = h["reader_port"] if h is not None else ""
            used = bool(h is not None and h["reader_used"])  # a PC/SC reader may have no port: the first reader
            if check is not None and check.card is not None:
                figure = check.card
                what = self.f.taps.describe(check.card)  # a player's card, a tagged deed or card, or nothing known
                about.append(tr.render(what) if what is not None else tr("ui.check.not_tagged"))
                about.append(tr("ui.check.taps", count=check.taps))
            facts = [tr("ui.check.reader_facts", status=tr(f"ui.reader.{self.reader}"),
                        kind=(h["reader_kind"] if h is not None and used else "") or "—", port=port or "—")]
            heading, hints = reader_words(where, used=used, connected=self.reader == "connected",
                                          problem=self.reader_problem, kind=h["reader_kind"] if h else "",
                                          port=port, cards=self.s.settings.taps, tapped=figure is not None)
        else:
            pin = h["dice_pin"] if h is not None else ""
            if check is not None and check.presses:
                figure = " + ".join(str(d) for d in check.dice)
                about.append(tr("ui.check.presses", count=check.presses))
            facts = [tr("ui.check.dice_facts", status=tr(f"ui.button.{self.button}"), pin=pin or "—")]
            heading, hints = dice_words(where, pin=pin, ready=self.button == "ready", problem=self.button_problem,
                                        pressed=figure is not None)
        facts.append(tr.render(where.facts()))
        shown = [tr.render(hint) for hint in hints]
        if where.hardware and where.config_problem and h is not None and h["problem"]:
            shown.append(h["problem"])  # the file's own words: which line, which key (hardware/config.py's)
        return {"title": tr(f"ui.check.{kind}_title"), "figure": figure, "about": " · ".join(about),
                "waiting": tr.render(heading), "facts": facts, "hints": shown}


__all__ = ["CHOICES", "CheckView", "HardwareCheck", "READER_QUIET_SECONDS", "SETTING_ROWS", "SettingButton",
           "SettingsFlow", "SettingsView"]
