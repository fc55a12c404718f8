"""The sounds' files: made once, all of them, by whoever asks first (the app's thread at start or a first play)."""

from __future__ import annotations

import threading
import wave
from pathlib import Path

import pytest

from banker import files
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


@pytest.mark.parametrize("damage", ["empty", "torn", "garbled header", "longer"])
def test_a_damaged_sound_is_made_anew_never_played(tmp_path: Path, damage: str) -> None:
    """A file an earlier version left empty or torn under a power cut (it wrote without fsync): `make` checks
    the cached file and makes it again, whole."""
    whole = sounds.make("payment", tmp_path / "whole").read_bytes()
    path = tmp_path / "payment.wav"
    path.write_bytes({"empty": b"", "torn": whole[:len(whole) // 2], "garbled header": b"\0" * len(whole),
                      "longer": whole + b"\0\0"}[damage])
    assert not sounds.is_whole(path, "payment")
    assert sounds.make("payment", tmp_path) == path
    assert path.read_bytes() == whole and sounds.is_whole(path, "payment")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["payment.wav", "whole"]  # no temporary file left


def test_a_sound_is_written_whole_and_synced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    writes: list[Path] = []
    real = files.write_atomically

    def write(p: Path, data: bytes, mode: int = 0o600) -> None:
        writes.append(p)
        real(p, data, mode)

    monkeypatch.setattr(files, "write_atomically", write)
    sounds.make_all(tmp_path)
    assert sorted(writes) == sorted(tmp_path / f"{name}.wav" for name in sounds.TONES)
