"""The banker speaks: the game's moments as short phrases in the family's language, through espeak-ng.

The parts, from the game to the loudspeaker:

- `phrases(c, moments)` turns one action's moments (ui/moments.py) into what is worth saying: whose
  turn it is, the dice, where to move, purchases, rent, taxes, the Free Parking jackpot, two ones' bonus,
  cards, the auction's bids and its hammer, debts, bankruptcy and the winner; and a title deed shown big
  (`DEED_SHOWN`, ui/flows/deedcard.py: whose it is and the rent it takes now). The words are the gettext
  catalogues' `ui.voice.*` entries in the table's language; every number in them is plain digits ("15000", never "15 000" or "15,000",
  which espeak-ng would read as two numbers), so amounts go in as text (`{sum}`), not as money.
- `SpeechQueue` holds the phrases not yet said, at most `QUEUE_MOST` of them: when more come than the
  voice can say, the older ones fold into one summary ("3 payments, 2 rolls"), and an undo drops what
  it took back.
- `Voice` is the session's moment listener: it feeds the queue and hands one phrase at a time to a
  speaker, the next once the last has been said.
- `EspeakSpeaker` renders a phrase to a WAV file with the `espeak-ng` program on a thread of its own
  (a few tens of milliseconds a phrase, never on the main thread), in a folder in memory (`memory_folder`:
  nothing of it written to the SD card), and hands the file to `play`, on the
  main thread: the app plays it through Kivy's audio like its other sounds (one owner of the sound
  device). Without espeak-ng, or without an audio device, the voice stays silent and `status()` says
  why, once, on the settings screen; nothing else changes.

Only `kivy_player` touches Kivy; the rest is tested with a fake speaker (tests/ui/test_voice.py).
espeak-ng is called as a program rather than through a Python binding: the binding (py-espeak-ng)
wraps the same program, and Debian ships no package of it.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from banker import files
from ui.i18n import Msg, card_msg, winners_msg
from ui.moments import EVENT, MONEY, UNDONE, Moment

if TYPE_CHECKING:
    from ui.session import Session

log = logging.getLogger(__name__)

QUEUE_MOST = 3  # phrases waiting to be said; more fold into a summary
RENDER_MOST = 10.0  # seconds espeak-ng may take over one phrase before it is given up
VOICE_PREFIX = "banker-voice-"  # a phrase's WAV file: banker-voice-BOOT-PID.XXXXXXXX.wav (banker/files.py)
NICENESS = 19  # espeak-ng runs under coreutils' nice at the lowest priority: drawing the table comes first
PLAY_SLACK = 1.0  # seconds past a sound's length before it is taken as said (its stop was not heard)
# espeak-ng's words a minute and amplitude (0-200, 100 its default) for the settings' three steps.
SPEEDS = {1: 130, 2: 160, 3: 195}
VOLUMES = {1: 60, 2: 120, 3: 180}
ESPEAK_VOICES = {"en": "en", "pl": "pl", "cs": "cs", "ru": "ru"}

# What each kind of phrase is called in a summary (`ui.voice.many.<kind>`, counted).
PAYMENT, ROLL, BID, OTHER = "payment", "roll", "bid", "other"
# Money movements another phrase of the same action already tells (the hammer says the price, the
# building and the bankruptcy have their own events, a trade is told as one).
TOLD_BY_AN_EVENT = {"auction", "own_auction", "build", "bankruptcy", "trade", "building_auction",
                    "sell_to_bank", "sell_to_player"}
# Events worth saying: code -> (catalogue key, kind). The money log's movements are below.
EVENTS = {
    "turn": ("ui.voice.turn", OTHER),
    "rolled": ("ui.voice.rolled", ROLL),
    "extra_roll": ("ui.voice.extra_roll", OTHER),
    "moved": ("ui.voice.moved", OTHER),
    "jail": ("ui.voice.jail", OTHER),
    "left_jail": ("ui.voice.left_jail", OTHER),
    "card": ("ui.voice.card", OTHER),
    "auction": ("ui.voice.auction", OTHER),
    "bid": ("ui.voice.bid", BID),
    "sold": ("ui.voice.sold", OTHER),
    "unsold": ("ui.voice.unsold", OTHER),
    "built": ("ui.voice.built", OTHER),
    "traded": ("ui.voice.traded", OTHER),
    "debt": ("ui.voice.debt", OTHER),
    "bankrupt": ("ui.voice.bankrupt", OTHER),
    "game_over": ("ui.voice.game_over", OTHER),
    "sold_to_bank": ("ui.voice.sold_to_bank", PAYMENT),
    "sold_to_player": ("ui.voice.sold_to_player", PAYMENT),
    "not_lapped": ("ui.voice.not_lapped", OTHER),
}
# Phrases never folded into a summary: the house rules' windfalls a family waits to hear (the Free Parking
# jackpot won, two ones' bonus), said whole however many phrases come with them.
SAID_WHOLE = {"ui.voice.pot", "ui.voice.snake_eyes"}
# A title deed shown big (ui/flows/deedcard.py): not the engine's event but the app's own moment, said as
# `deed_phrase` says it.
DEED_SHOWN = "deed_shown"
MONEY_KEYS = {"rent": "ui.voice.rent", "tax": "ui.voice.tax", "buy": "ui.voice.buy", "salary": "ui.voice.salary",
              "pot": "ui.voice.pot", "jail_fine": "ui.voice.jail_fine", "snake_eyes": "ui.voice.snake_eyes",
              "pot_seed": "ui.voice.pot_seed"}


@dataclass(frozen=True)
class Phrase:
    kind: str  # PAYMENT | ROLL | BID | OTHER: what it counts as in a summary
    key: str
    params: dict[str, Any]
    seq: int  # the action it tells of (Moment.seq)


@dataclass
class Waiting:
    """One thing the voice will say: a phrase, or several folded into a summary."""
    phrases: list[Phrase] = field(default_factory=list)

    @property
    def seq(self) -> int:
        return max(p.seq for p in self.phrases)

    @property
    def whole(self) -> bool:
        """One phrase that is said whole, never folded (`SAID_WHOLE`)."""
        return len(self.phrases) == 1 and self.phrases[0].key in SAID_WHOLE


def _plain(n: Any) -> str:
    """A number as espeak-ng must get it: digits, no grouping, no currency."""
    return str(int(n)) if isinstance(n, (int, float)) and not isinstance(n, bool) else str(n)


def phrases(c: Session, moments: list[Moment]) -> list[Phrase]:
    """What is worth saying of one action's moments, in the order they happened."""
    found: list[Phrase] = []
    for m in moments:
        p = m.params
        if m.kind == EVENT and m.code == DEED_SHOWN:
            found.append(deed_phrase(p, m.seq))
        elif m.kind == EVENT and m.code in EVENTS:
            key, kind = EVENTS[m.code]
            params: dict[str, Any] = {k: v for k, v in p.items() if isinstance(v, str)}
            if m.code == "rolled":
                dice = [d for d in p.get("dice", []) if isinstance(d, int) and not isinstance(d, bool)]
                if not dice:
                    continue
                params["total"] = _plain(sum(dice))
            if "amount" in p:
                params["sum"] = _plain(p["amount"])
            if m.code == "card":
                params["text"] = _card_text(c, p)
            if m.code == "debt" and p.get("to") in ("bank", "pot"):
                key += "_bank"
            if m.code == "game_over" and isinstance(p.get("winner"), list):  # a tie: they share first place
                key, params["result"] = "ui.over.tie_line", winners_msg(p["winner"])
            found.append(Phrase(kind, key, params, m.seq))
        elif m.kind == MONEY and m.code not in TOLD_BY_AN_EVENT:
            payer, payee, amount = p.get("payer"), p.get("payee"), p.get("amount")
            if not isinstance(amount, int) or amount <= 0:
                continue
            params = {"payer": payer, "payee": payee, "sum": _plain(amount)}
            if isinstance(p.get("space"), str):
                params["space"] = p["space"]
            money_key = MONEY_KEYS.get(m.code)
            if money_key is None or (m.code == "rent" and payee in ("bank", "pot")):
                money_key = ("ui.voice.pays_bank" if payee == "bank" else "ui.voice.pays_pot" if payee == "pot"
                             else "ui.voice.gets_bank" if payer in ("bank", "pot") else "ui.voice.pays")
            found.append(Phrase(PAYMENT, money_key, params, m.seq))
    return found


def deed_phrase(p: dict[str, Any], seq: int) -> Phrase:
    """A title deed shown big, said: its name and whose it is, and the rent it takes now (a utility: its
    multiplier of the dice; mortgaged: none), or the bank's price."""
    params: dict[str, Any] = {"space": str(p.get("space", "")), "owner": str(p.get("owner", ""))}
    if not params["owner"]:
        key, params["sum"] = "ui.voice.deed_bank", _plain(p.get("price", 0))
    elif p.get("mortgaged"):
        key = "ui.voice.deed_mortgaged"
    elif p.get("times"):
        key, params["times"] = "ui.voice.deed_dice", _plain(p["times"])
    else:
        key, params["sum"] = "ui.voice.deed", _plain(p.get("rent", 0))
    return Phrase(OTHER, key, params, seq)


def _card_text(c: Session, params: dict[str, Any]) -> Msg | str:
    game = c.game
    card_id, text = params.get("card"), params.get("text", "")
    if game is not None and card_id is not None:
        card = game.ruleset.card_by_id.get(card_id)
        if card is not None:
            return card_msg(game.ruleset, card, game.options)
    return str(text)


def say(c: Session, waiting: Waiting) -> str:
    """The words of one waiting thing in the table's language: the phrase, or the summary of several."""
    if len(waiting.phrases) == 1:
        p = waiting.phrases[0]
        return c.tr(p.key, **p.params)
    counts: dict[str, int] = {}
    for p in waiting.phrases:
        counts[p.kind] = counts.get(p.kind, 0) + 1
    return c.tr("ui.voice.summary", parts=", ".join(c.tr(f"ui.voice.many.{kind}", count=n)
                                                    for kind, n in counts.items()))


class SpeechQueue:
    """The phrases not yet said, oldest first, never more than `most`: the older fold into a summary (the two
    oldest that may: a jackpot or two ones' bonus stays whole, and the summary takes the place of the first)."""

    def __init__(self, most: int = QUEUE_MOST) -> None:
        self.most = most
        self.waiting: list[Waiting] = []

    def add(self, phrase: Phrase) -> None:
        self.waiting.append(Waiting([phrase]))
        while len(self.waiting) > self.most:  # the two oldest become one summary; the newest stay whole
            foldable = [k for k, w in enumerate(self.waiting) if not w.whole]
            a, b = foldable[:2] if len(foldable) >= 2 else (0, 1)
            self.waiting[a] = Waiting(self.waiting[a].phrases + self.waiting[b].phrases)
            del self.waiting[b]

    def undone(self, seq: int) -> None:
        """An undo back to `seq` actions: nothing of a later action is said."""
        kept = []
        for w in self.waiting:
            w.phrases = [p for p in w.phrases if p.seq <= seq]
            if w.phrases:
                kept.append(w)
        self.waiting = kept

    def take(self) -> Waiting | None:
        return self.waiting.pop(0) if self.waiting else None

    def __len__(self) -> int:
        return len(self.waiting)


class Speaker(Protocol):
    def speak(self, text: str, language: str, volume: int, speed: int, done: Callable[[], None]) -> None:
        """Say `text`; call `done` (on the main thread) once it has been said or could not be."""

    def status(self) -> str | None:
        """A catalogue key saying why nothing can be heard, or None."""


class Voice:
    """The session's moment listener that speaks: one phrase at a time from a short queue."""

    def __init__(self, c: Session, speaker: Speaker) -> None:
        self.c = c
        self.speaker = speaker
        self.queue = SpeechQueue()
        self.speaking: Waiting | None = None
        self.said: list[str] = []  # the last phrases handed to the speaker (the newest last), for the log and tests
        self.count = 0  # phrases handed to the speaker since the start

    def tell(self, moments: list[Moment]) -> None:
        for m in moments:
            if m.kind == UNDONE:
                self.queue.undone(m.seq)
        if not self.c.settings.voice or self.speaker.status() is not None:
            self.queue.waiting.clear()
            return
        for phrase in phrases(self.c, [m for m in moments if m.kind != UNDONE]):
            self.queue.add(phrase)
        self._next()

    def status(self) -> str | None:
        """Why the voice cannot be heard though switched on, in the table's language, or None."""
        key = self.speaker.status()
        return self.c.tr(key) if key else None

    def _next(self) -> None:
        if self.speaking is not None:
            return
        waiting = self.queue.take()
        if waiting is None:
            return
        self.speaking = waiting
        text = say(self.c, waiting)
        self.said = [*self.said[-49:], text]
        self.count += 1
        s = self.c.settings
        self.speaker.speak(text, self.c.tr.language, s.voice_volume, s.voice_speed, self._done)

    def _done(self) -> None:
        self.speaking = None
        if self.c.settings.voice:
            self._next()


def memory_folder() -> Path:
    """Where the spoken phrases' WAV files are rendered: a folder in memory (the user's runtime folder, else
    /dev/shm), so that the voice writes nothing to the SD card, a file a phrase; the temporary folder (which on
    the Pi's card is on the disk) only where neither is there to write in."""
    for candidate in (os.environ.get("XDG_RUNTIME_DIR"), "/dev/shm"):
        if candidate and os.path.isdir(candidate) and os.access(candidate, os.W_OK | os.X_OK):
            return Path(candidate)
    return Path(tempfile.gettempdir())


class EspeakSpeaker:
    """Renders with the espeak-ng program on a thread, plays the WAV file on the main thread.

    `play(path, done)` plays the file through the app's audio and calls `done` once it has stopped; it
    returns False when there is no audio device (the voice then stays silent). `main(fn)` runs `fn` on
    the main thread. `which` finds the program (shutil.which; tests pass their own)."""

    def __init__(self, play: Callable[[Path, Callable[[], None]], bool], main: Callable[[Callable[[], None]], None],
                 which: Callable[[str], str | None] = shutil.which, folder: Path | None = None) -> None:
        self.play = play
        self.main = main
        self.program = which("espeak-ng")
        self.folder = folder or memory_folder()
        # A phrase's WAV file lives while it is played; a kill mid-phrase leaves it behind (the folder is in
        # memory, gone at a power cut, unless the system has none): those of a process gone go at the next start.
        files.remove_stale(self.folder, VOICE_PREFIX, ".wav")
        self.no_audio = False
        self.failed = False
        if self.program is None:
            log.warning("no voice: espeak-ng is not installed")

    def status(self) -> str | None:
        if self.program is None:
            return "ui.voice.no_espeak"
        if self.no_audio:
            return "ui.voice.no_audio"
        if self.failed:
            return "ui.voice.failed"
        return None

    def render(self, text: str, language: str, volume: int, speed: int) -> Path | None:
        """The phrase as a WAV file (the caller removes it), or None when espeak-ng fails."""
        assert self.program is not None
        fd, name = tempfile.mkstemp(prefix=files.owned_prefix(VOICE_PREFIX), suffix=".wav", dir=self.folder)
        os.close(fd)
        command = ["nice", "-n", str(NICENESS), self.program, "-v", ESPEAK_VOICES.get(language, "en"),
                   "-s", str(SPEEDS.get(speed, SPEEDS[2])), "-a", str(VOLUMES.get(volume, VOLUMES[2])), "-w", name,
                   "--", text]
        try:
            subprocess.run(command, check=True, timeout=RENDER_MOST, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        except (OSError, subprocess.SubprocessError) as exc:
            log.warning("espeak-ng could not say %r: %s", text, exc)
            Path(name).unlink(missing_ok=True)
            return None
        return Path(name)

    def speak(self, text: str, language: str, volume: int, speed: int, done: Callable[[], None]) -> None:
        def work() -> None:
            path = self.render(text, language, volume, speed) if self.status() is None else None
            self.main(lambda: self._play(path, done))

        threading.Thread(target=work, name="voice", daemon=True).start()

    def _play(self, path: Path | None, done: Callable[[], None]) -> None:
        if path is None:
            if self.program is not None and not self.no_audio:
                self.failed = True  # espeak-ng is there but fails: say so rather than try every phrase
            done()
            return

        def finished() -> None:
            path.unlink(missing_ok=True)
            done()
        try:
            playing = self.play(path, finished)
        except Exception:
            log.exception("the voice could not be played")
            playing = False
        if not playing:
            if not self.no_audio:
                log.warning("no voice: no audio device")
            self.no_audio = True
            finished()


def kivy_player(path: Path, done: Callable[[], None]) -> bool:
    """Play a WAV file through Kivy's audio (the app's own sound output) and call `done` once, when it stops
    (or a little after its length, should the stop not be heard). False: no audio device."""
    from kivy.clock import Clock
    from kivy.core.audio import SoundLoader

    sound = SoundLoader.load(str(path))
    if sound is None or not sound.length:  # SDL opened no audio device: the sound is empty
        return False
    called: list[bool] = []

    def once(*_: Any) -> None:
        if called:
            return
        called.append(True)
        fallback.cancel()
        sound.unbind(on_stop=once)
        sound.unload()
        done()

    fallback = Clock.schedule_once(once, sound.length + PLAY_SLACK)
    sound.bind(on_stop=once)
    sound.play()
    return True


__all__ = ["DEED_SHOWN", "EspeakSpeaker", "Phrase", "SpeechQueue", "Voice", "Waiting", "deed_phrase", "kivy_player",
           "memory_folder", "phrases", "say"]
