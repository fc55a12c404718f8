"""The app's sounds: short tones made once with the standard library and cached.

Generating them (a few kilobytes of 16-bit PCM each) avoids shipping binary
assets and any licensing question; Kivy's SoundLoader plays the WAV files.
The app makes them all in a thread at start and loads them at idle moments,
so that no tap waits for a sound to be made or loaded.
A machine without an audio device simply stays quiet.
"""

from __future__ import annotations

import io
import math
import os
import random
import struct
import wave
from pathlib import Path

from banker import files

RATE = 22050
WAV_HEADER = 44  # bytes before the frames in a PCM WAV file the wave module writes

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


def frame_count(name: str) -> int:
    """How many frames the sound `name` has (its file is whole when it holds exactly these)."""
    return sum(int(RATE * seconds) for _, seconds, _ in TONES[name])


def is_whole(path: Path, name: str) -> bool:
    """Whether `path` is the sound `name` as `make` writes it: a WAV file of our format, all of its frames
    there and nothing after them. A file an older version left empty or torn (it wrote without fsync) is not."""
    try:
        with wave.open(str(path), "rb") as w:
            if (w.getnchannels(), w.getsampwidth(), w.getframerate(), w.getnframes()) != (1, 2, RATE,
                                                                                          frame_count(name)):
                return False
        return path.stat().st_size == WAV_HEADER + 2 * frame_count(name)
    except (OSError, EOFError, wave.Error):
        return False


def make(name: str, folder: Path) -> Path:
    """Write the sound `name` as a WAV file in folder (once: again only when it is not whole) and return its
    path. The cache is written with banker/files.py's atomic write, so after a power cut a file is there
    whole or not at all; `is_whole` still checks it first, and a damaged one is made anew, never played."""
    path = folder / f"{name}.wav"
    if is_whole(path, name):
        return path
    rng = random.Random(name)
    frames = bytearray()
    for freq, seconds, volume in TONES[name]:
        count = int(RATE * seconds)
        for k in range(count):
            fade = min(1.0, k / 200, (count - k) / 200)  # no clicks at the edges
            value = math.sin(2 * math.pi * freq * k / RATE) if freq else rng.uniform(-1, 1)
            frames += struct.pack("<h", int(value * volume * fade * 32000))
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(bytes(frames))
    files.write_atomically(path, out.getvalue(), mode=0o644)  # two makers at once: each renames a whole file
    return path


def make_all(folder: Path) -> list[Path]:
    """Every sound's file (made where missing): the app does this in a thread at start."""
    return [make(name, folder) for name in TONES]
