"""The sounds' files: made once, all of them, by whoever asks first (the app's thread at start or a first play)."""

from __future__ import annotations

import threading
import wave
from pathlib import Path

from ui import sounds


def test_make_all_writes_every_tone_once(tmp_path: Path) -> None:
    paths = sounds.make_all(tmp_path)
    assert sorted(p.name for p in paths) == sorted(f"{name}.wav" for name in sounds.TONES)
    for path in paths:
        with wave.open(str(path)) as w:
            assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, sounds.RATE)
            assert w.getnframes() > 0
    stamps = {p: p.stat().st_mtime_ns for p in paths}
    assert sounds.make_all(tmp_path) == paths
    assert {p: p.stat().st_mtime_ns for p in paths} == stamps  # made once: the second call only finds them


def test_two_makers_at_once_leave_whole_files_and_no_scraps(tmp_path: Path) -> None:
    threads = [threading.Thread(target=sounds.make_all, args=(tmp_path,)) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"{name}.wav" for name in sounds.TONES)
    for path in tmp_path.iterdir():
        with wave.open(str(path)) as w:
            assert w.getnframes() > 0
