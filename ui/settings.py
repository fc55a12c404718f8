"""The app's own settings, kept as JSON in the user's data directory.

Language, sounds, the voice (on or off, its volume and speed), whether money
is seen to move, whether spending needs the player's card, whether on-screen
"Tap as NAME" buttons may stand in for a card (the banker switches that on,
behind the PIN, for a forgotten card), and whether the family draws from its
physical card decks. (The hardware config
file is separate and only read: hardware/config.py.) A missing, unreadable or
hand-broken settings file never stops the app: bad values fall back to the
defaults and the app says which.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from banker import files
from ui.i18n import LANGUAGES

LEVELS = (1, 2, 3)  # the voice's volume and speed: low, normal, high
LEGACY_TEMP_SUFFIX = ".tmp"  # settings.tmp: the temporary file earlier versions wrote beside settings.json


def settings_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "board-banker" / "settings.json"


@dataclass
class Settings:
    language: str = "en"
    sounds: bool = True
    taps: bool = True  # spending needs the player's card; False: no cards at all, the buttons act at once
    stand_ins: bool = False  # "Tap as NAME" buttons may stand in for a card (a card forgotten or lost mid-game)
    physical_decks: bool = False  # the player picks the card they drew from a list
    bid_step: int = 10
    voice: bool = True  # the banker speaks the game's moments (ui/voice.py); needs espeak-ng and a speaker
    voice_volume: int = 2  # 1 quiet, 2 normal, 3 loud
    voice_speed: int = 2  # 1 slow, 2 normal, 3 fast
    motion: bool = True  # amounts travel from payer to payee, deeds and buildings flash (ui/motion.py)

    @classmethod
    def load(cls, path: Path | None = None) -> tuple[Settings, list[str]]:
        """The settings, and the problems found (each names the key); never raises."""
        path = path or settings_path()
        settings = cls()
        problems: list[str] = []
        try:
            data = json.loads(path.read_text("utf-8"))
        except FileNotFoundError:
            return settings, problems
        except (OSError, ValueError) as exc:
            return settings, [f"{path}: unreadable ({exc}); using the defaults"]
        if not isinstance(data, dict):
            return settings, [f"{path}: not a JSON object; using the defaults"]
        for f in fields(cls):
            if f.name not in data:
                continue
            value = data[f.name]
            default = getattr(settings, f.name)
            ok = isinstance(value, type(default)) and not (isinstance(value, bool) != isinstance(default, bool))
            if f.name == "language":
                ok = ok and value in LANGUAGES
            if f.name == "bid_step":
                ok = ok and 1 <= value <= 1000
            if f.name in ("voice_volume", "voice_speed"):
                ok = ok and value in LEVELS
            if ok:
                setattr(settings, f.name, value)
            else:
                problems.append(f"{path}: {f.name}: {value!r} is not allowed; using {default!r}")
        return settings, problems

    def save(self, path: Path | None = None) -> None:
        """Keep the settings in `path` (default `settings_path()`) with banker/files.py's atomic write: after a
        power cut the file is the old settings or the new, whole. Nothing is written when the file holds these
        settings already (an SD card wears by its writes). Raises OSError."""
        path = path or settings_path()
        data = json.dumps(asdict(self), indent=1).encode("utf-8")
        legacy = path.with_suffix(LEGACY_TEMP_SUFFIX)
        if legacy != path:  # the fixed temporary file of the versions before banker/files.py, a cut's leftover
            with contextlib.suppress(OSError):
                legacy.unlink(missing_ok=True)
        try:
            if path.read_bytes() == data:
                return
        except OSError:
            pass  # no file yet, or one that cannot be read: write it
        files.write_atomically(path, data, mode=0o644)
