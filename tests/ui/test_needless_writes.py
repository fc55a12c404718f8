"""Nothing written to the SD card without need (issue 58, benchmarks/bench_writes.py): a setting touched to the
value it has is not saved again, and the voice renders its phrases in memory, not on the disk."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from banker.journal import Journal
from ui.flows import Flows
from ui.settings import Settings
from ui.voice import EspeakSpeaker, memory_folder


def flows_saving(tmp_path: Path, saved: list[Settings]) -> Flows:
    def save(s: Settings) -> None:
        saved.append(Settings(**vars(s)))
        s.save(tmp_path / "settings.json")

    return Flows.on(Journal(tmp_path / "games.sqlite3"), Settings(), save_settings=save, power_off=lambda: None)


def test_a_setting_set_to_the_value_it_has_is_not_saved_again(tmp_path: Path) -> None:
    saved: list[Settings] = []
    c = flows_saving(tmp_path, saved)
    c.settings.set_setting("sounds", False)
    assert [s.sounds for s in saved] == [False]
    written = (tmp_path / "settings.json").stat()
    c.settings.set_setting("sounds", False)
    c.settings.set_setting("voice_volume", c.session.settings.voice_volume)
    assert len(saved) == 1, "a setting touched to the value it had was saved again"
    again = (tmp_path / "settings.json").stat()
    assert (again.st_ino, again.st_mtime_ns) == (written.st_ino, written.st_mtime_ns)
    c.settings.set_setting("sounds", True)  # a real change is saved, as before
    assert [s.sounds for s in saved] == [False, True]


def test_the_language_already_chosen_is_not_saved_again(tmp_path: Path) -> None:
    saved: list[Settings] = []
    c = flows_saving(tmp_path, saved)
    c.settings.set_language("pl")
    c.settings.set_language("pl")
    assert [s.language for s in saved] == ["pl"]
    assert c.session.tr.language == c.session.settings.language == "pl"
    c.settings.set_language("en")
    assert [s.language for s in saved] == ["pl", "en"]


def test_the_voice_renders_in_the_runtime_folder_in_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    assert memory_folder() == tmp_path
    speaker = EspeakSpeaker(lambda path, done: True, lambda fn: fn(), which=lambda name: None)
    assert speaker.folder == tmp_path


@pytest.mark.skipif(not os.path.isdir("/dev/shm") or not os.access("/dev/shm", os.W_OK),
                    reason="needs /dev/shm (Linux)")
def test_without_a_runtime_folder_the_voice_renders_in_dev_shm(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    assert memory_folder() == Path("/dev/shm")
    monkeypatch.setenv("XDG_RUNTIME_DIR", "/nonexistent/run")  # set but not there: /dev/shm still
    assert EspeakSpeaker(lambda path, done: True, lambda fn: fn(), which=lambda name: None).folder == Path("/dev/shm")


def test_with_no_folder_in_memory_the_voice_uses_the_temporary_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.path.isdir
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.setattr(os.path, "isdir", lambda p: False if str(p) == "/dev/shm" else real(p))
    assert memory_folder() == Path(tempfile.gettempdir())
