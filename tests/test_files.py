"""The one atomic write (banker/files.py): the data fsync'ed before the rename, the folder fsync'ed after it,
the temporary file gone on a failure, and a cut's leftovers removed at the next write, never anyone else's."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from banker import files


def dead_pid() -> int:
    """The pid of a process of this boot that has ended."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    return int(done.stdout)


def test_the_data_is_synced_before_the_rename_and_the_folder_after_it(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(b"old")
    calls: list[tuple[str, Any]] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            calls.append(("fsync folder", os.readlink(f"/proc/self/fd/{fd}")))
        else:
            with open(f"/proc/self/fd/{fd}", "rb") as f:  # what the file holds when it is synced
                calls.append(("fsync file", f.read()))
        real_fsync(fd)

    def replace(src: Any, dst: Any) -> None:
        calls.append(("replace", Path(dst)))
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    files.write_atomically(path, b"new")
    assert calls == [("fsync file", b"new"), ("replace", path), ("fsync folder", str(tmp_path))]
    assert path.read_bytes() == b"new" and os.listdir(tmp_path) == ["settings.json"]


def test_the_folder_is_made_and_the_mode_is_the_callers(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "draft.json"
    files.write_atomically(path, b"{}")
    assert path.read_bytes() == b"{}" and stat.S_IMODE(path.stat().st_mode) == 0o600  # its owner's only
    files.write_atomically(path, b"[]", mode=0o644)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644


@pytest.mark.parametrize("failing", ["write", "fsync", "replace"])
def test_a_failure_keeps_the_old_file_and_leaves_no_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  failing: str) -> None:
    path = tmp_path / "tags.json"
    path.write_bytes(b"old")

    def full(*args: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    if failing == "write":
        monkeypatch.setattr(os, "fchmod", full)  # between the write and the sync: the same path out
    else:
        monkeypatch.setattr(os, failing, full)
    with pytest.raises(OSError, match="No space"):
        files.write_atomically(path, b"new")
    assert path.read_bytes() == b"old" and os.listdir(tmp_path) == ["tags.json"]


def test_a_folder_sync_the_file_system_does_not_have_is_no_error_and_a_failing_one_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def fsync(error: int) -> Any:
        def call(fd: int) -> None:
            if stat.S_ISDIR(os.fstat(fd).st_mode):
                raise OSError(error, os.strerror(error))
        return call

    monkeypatch.setattr(os, "fsync", fsync(errno.EINVAL))
    files.write_atomically(tmp_path / "x.json", b"1")
    monkeypatch.setattr(os, "fsync", fsync(errno.EIO))
    with pytest.raises(OSError) as raised:
        files.write_atomically(tmp_path / "x.json", b"2")
    assert raised.value.errno == errno.EIO


def test_the_leftovers_of_a_cut_or_a_kill_go_at_the_next_write_and_nothing_else(tmp_path: Path) -> None:
    boot, me, gone = files.boot_id(), os.getpid(), dead_pid()
    assert len(boot) == 8  # Linux: the boot's id tells a power cut's leftover
    other_boot = ("0" if boot[0] != "0" else "1") + boot[1:]
    stale = [f".settings.json.{other_boot}-{me}.abcd_123.tmp",  # a power cut: the same pid in another boot
             f".settings.json.{boot}-{gone}.zz99zz99.tmp"]  # a process of this boot that was killed
    kept = [f".settings.json.{boot}-{me}.inflight.tmp",  # this process's own, being written by another thread
            f".settings.json.{boot}-1.abcdefgh.tmp",  # a process still running (init)
            ".settings.json.tmp", "settings.tmp.json", "settings.json.bak",  # names we never make
            f".settings.json.{other_boot}-{me}.abcdefgh.tmp.toml", f"x.settings.json.{other_boot}-{me}.abcdefgh.tmp",
            f".draft.json.{other_boot}-{me}.abcdefgh.tmp",  # another file's: its own write removes it
            f".settings.json.{other_boot}-{me}.abcdefg.tmp"]  # not mkstemp's 8 characters
    for name in stale + kept:
        (tmp_path / name).write_text("half", "utf-8")
    path = tmp_path / "settings.json"
    assert files.leftovers(path) == sorted(tmp_path / name for name in stale)
    files.write_atomically(path, b"{}")
    assert sorted(os.listdir(tmp_path)) == sorted([*kept, "settings.json"])
    assert files.leftovers(path) == []


def test_across_many_cuts_at_most_one_leftover_waits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cut between the temporary file's creation and its rename, again and again, each in a boot of its own."""
    path = tmp_path / "settings.json"
    real_unlink = os.unlink
    for boot in range(20):
        monkeypatch.setattr(files, "boot_id", lambda boot=boot: f"{boot:08x}")

        def cut(src: Any, dst: Any) -> None:
            raise KeyboardInterrupt  # stands for the process stopping dead: nothing after it runs

        def unlink(p: Any, boot: int = boot) -> None:
            if f".{boot:08x}-" not in str(p):  # a dead process removes nothing of its own
                real_unlink(p)

        with monkeypatch.context() as m:
            m.setattr(os, "replace", cut)
            m.setattr(os, "unlink", unlink)
            with pytest.raises(KeyboardInterrupt):
                files.write_atomically(path, b"lost")
        assert len(os.listdir(tmp_path)) == 1  # this boot's leftover; the earlier ones went
    monkeypatch.setattr(files, "boot_id", lambda: "abcdef01")  # the boot after the last cut
    files.write_atomically(path, b"kept")
    assert os.listdir(tmp_path) == ["settings.json"]


def test_stale_temporary_files_of_another_kind(tmp_path: Path) -> None:
    boot, gone = files.boot_id(), dead_pid()
    mine = files.owned_prefix("banker-voice-")
    assert mine == f"banker-voice-{boot}-{os.getpid()}."
    (tmp_path / f"banker-voice-{boot}-{gone}.abcdefgh.wav").write_bytes(b"")
    (tmp_path / f"{mine}abcdefgh.wav").write_bytes(b"")
    (tmp_path / "banker-voice-abcdefgh.wav").write_bytes(b"")  # not a name of ours now: left alone
    removed = files.remove_stale(tmp_path, "banker-voice-", ".wav")
    assert removed == [tmp_path / f"banker-voice-{boot}-{gone}.abcdefgh.wav"]
    assert sorted(os.listdir(tmp_path)) == sorted([f"{mine}abcdefgh.wav", "banker-voice-abcdefgh.wav"])
