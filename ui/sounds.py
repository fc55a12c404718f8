"""The app's sounds: short tones made once with the standard library and cached.

Generating them (a few kilobytes of 16-bit PCM each) avoids shipping binary
assets and any licensing question; Kivy's SoundLoader plays the WAV files.
The app makes them all in a thread at start and loads them at idle moments,
so that no tap waits for a sound to be made or loaded.
A machine without an audio device simply stays quiet.
"""

from __future__ import annotations

import math
import os
import random
import struct
import threading
import wave
from pathlib import Path

RATE = 22050

# name -> list of (frequency Hz or 0 for noise, seconds, volume 0..1)
TONES: dict[str, list[tuple[float, float, float]]] = {
    "payment": [(1318.5, 0.07, 0.5), (1760.0, 0.12, 0.5)],  # a coin: two bright notes
    "building": [(196.0, 0.09, 0.7), (0.0, 0.05, 0.3), (261.6, 0.1, 0.6)],
    "auction": [(0.0, 0.03, 0.8), (110.0, 0.12, 0.8)],  # the hammer
    "office": [(523.3, 0.08, 0.5), (659.3, 0.08, 0.5), (784.0, 0.16, 0.6)],  # biznes: a new branch office
    "dice": [(0.0, 0.04, 0.5), (0.0, 0.03, 0.0), (0.0, 0.05, 0.5), (0.0, 0.03, 0.0), (0.0, 0.04, 0.4)],
    "error": [(220.0, 0.12, 0.5), (174.6, 0.18, 0.5)],
    "celebration": [(523.3, 0.1, 0.5), (659.3, 0.1, 0.5), (784.0, 0.1, 0.5), (1046.5, 0.35, 0.6),
                    (0.0, 0.05, 0.0), (784.0, 0.08, 0.4), (1046.5, 0.4, 0.6)],  # the end of a game: a fanfare
    "alarm": [(880.0, 0.2, 0.6), (0.0, 0.1, 0.0), (880.0, 0.2, 0.6), (0.0, 0.1, 0.0), (880.0, 0.4, 0.6)],
}


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "board-banker" / "sounds"


def make(name: str, folder: Path) -> Path:
    """Write the sound `name` as a WAV file in folder (once) and return its path."""
    path = folder / f"{name}.wav"
    if path.exists():
        return path
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(name)
    frames = bytearray()
    for freq, seconds, volume in TONES[name]:
        count = int(RATE * seconds)
        for k in range(count):
            fade = min(1.0, k / 200, (count - k) / 200)  # no clicks at the edges
            value = math.sin(2 * math.pi * freq * k / RATE) if freq else rng.uniform(-1, 1)
            frames += struct.pack("<h", int(value * volume * fade * 32000))
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")  # two makers never share one
    with wave.open(str(tmp), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(bytes(frames))
    os.replace(tmp, path)
    return path


def make_all(folder: Path) -> list[Path]:
    """Every sound's file (made where missing): the app does this in a thread at start."""
    return [make(name, folder) for name in TONES]
