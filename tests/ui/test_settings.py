"""The settings' file (ui/settings.py): written with the one atomic write (synced before and after its rename),
never rewritten when it holds the same settings, and no temporary file of an earlier cut left beside it."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from banker import files
from ui.settings import Settings, settings_path


def test_a_save_is_synced_then_renamed_then_its_folder_synced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "board-banker" / "settings.json"
    calls: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        calls.append("folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        real_fsync(fd)

    def replace(src: Any, dst: Any) -> None:
        calls.append("replace")
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    Settings(language="pl", voice_volume=3).save(path)
    assert calls == ["folder", "file", "replace", "folder"]  # the new board-banker folder synced into its parent first
    assert Settings.load(path) == (Settings(language="pl", voice_volume=3), [])
    assert os.listdir(path.parent) == ["settings.json"]
    assert stat.S_IMODE(path.stat().st_mode) == 0o644  # as before: nothing secret in it


def test_the_same_settings_are_not_written_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "settings.json"
    Settings(sounds=False).save(path)
    writes: list[Path] = []
    real = files.write_atomically

    def write(p: Path, data: bytes, mode: int = 0o600) -> None:
        writes.append(p)
        real(p, data, mode)

    monkeypatch.setattr(files, "write_atomically", write)
    Settings(sounds=False).save(path)
    assert writes == []  # the bytes on disk are these already: the SD card is spared a write
    Settings(sounds=True).save(path)
    assert writes == [path] and json.loads(path.read_text("utf-8"))["sounds"] is True
    path.write_text("{", "utf-8")  # damaged by hand: written whole again
    Settings(sounds=True).save(path)
    assert len(writes) == 2 and Settings.load(path)[0] == Settings(sounds=True)


def test_a_save_removes_what_cuts_left(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    boot = files.boot_id()
    other_boot = ("0" if boot[:1] != "0" else "1") + boot[1:]
    gone = f".settings.json.{other_boot}-{os.getpid()}.abcdefgh.tmp"  # an earlier boot's: a power cut's
    (tmp_path / "settings.tmp").write_text('{"lang', "utf-8")  # the fixed temporary file of earlier versions
    (tmp_path / gone).write_text('{"lang', "utf-8")
    (tmp_path / "settings.json.bak").write_text("the family's own", "utf-8")
    Settings().save(path)
    assert sorted(os.listdir(tmp_path)) == ["settings.json", "settings.json.bak"]


def test_a_save_that_fails_raises_and_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "settings.json"
    Settings(language="cs").save(path)

    def full(*args: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(OSError):
        Settings(language="ru").save(path)
    assert Settings.load(path)[0].language == "cs" and os.listdir(tmp_path) == ["settings.json"]


def test_the_default_path_is_still_the_one_save_takes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    Settings(bid_step=50).save()
    assert settings_path() == tmp_path / "board-banker" / "settings.json"
    assert Settings.load()[0].bid_step == 50
