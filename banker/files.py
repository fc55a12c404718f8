"""The one atomic write of the product: a file whole or not at all, and durable, under a pulled plug.

A power cut loses every write that was not synced; a rename is on the disk only once its folder is synced;
and a file renamed before its data was synced may come back empty. So `write_atomically` writes the bytes to
a temporary file in the file's own folder, flushes and fsyncs it, `os.replace`s it over the file, then
fsyncs the folder: after a cut the file is the old version or the new one, whole. On a failure the
temporary file is removed; the caller gets the OSError.

A cut between the temporary file's creation and its rename leaves it behind. Its name says whose it is:
``.NAME.BOOT-PID.XXXXXXXX.tmp`` (NAME the file's name, BOOT the start of the machine's boot id, PID the
writing process, XXXXXXXX mkstemp's random part), and each write of NAME first removes those of its
leftovers that no one is still writing: from an earlier boot (a power cut), or from a process of this boot
that is gone (a kill). So at most one leftover per file waits for the file's next write, and nothing piles
up across cuts. Only names of that exact shape are touched, never a family's file. `owned_prefix` and
`remove_stale` do the same for other temporary files (the voice's WAV files, ui/voice.py).

The editions (banker/editions.py), the settings, the new game's draft, the tags, the sounds cache and Kivy's
config file (ui/) all write through here. Standard library only; no I/O at import.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import re
import tempfile
from pathlib import Path

BOOT_ID = "/proc/sys/kernel/random/boot_id"  # Linux; elsewhere a leftover is known by its process alone


@functools.cache
def boot_id() -> str:
    """The start of this boot's id (8 hex digits), or "" where the system has none."""
    try:
        with open(BOOT_ID, encoding="ascii") as f:
            return f.read(8)
    except (OSError, ValueError):
        return ""


def _alive(pid: int) -> bool:
    if pid <= 0:  # no process's (0 and below would name process groups)
        return False
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process is there
    except (ProcessLookupError, OverflowError):
        return False
    except OSError:
        return True  # another user's process (PermissionError), or cannot tell: leave its file
    return True


def owned_prefix(prefix: str) -> str:
    """`prefix`, then this boot and this process: the start of a temporary file's name that says whose it is
    (mkstemp adds 8 random characters, then the suffix)."""
    return f"{prefix}{boot_id()}-{os.getpid()}."


def stale(folder: Path, prefix: str, suffix: str) -> list[Path]:
    """The files of `folder` named `owned_prefix(prefix)` + 8 random characters + `suffix` that no process is
    still writing: of an earlier boot (a power cut), or of a process of this boot that is gone (a kill)."""
    pattern = re.compile(re.escape(prefix) + r"([0-9a-f]{0,8})-([0-9]+)\.[a-z0-9_]{8}" + re.escape(suffix))
    boot, me = boot_id(), os.getpid()
    found = []
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    for entry in names:
        match = pattern.fullmatch(entry)
        if match is None:
            continue
        pid = int(match.group(2))
        if match.group(1) != boot or (pid != me and not _alive(pid)):
            found.append(folder / entry)
    return sorted(found)


def remove_stale(folder: Path, prefix: str, suffix: str) -> list[Path]:
    """Remove `stale(folder, prefix, suffix)`; the ones removed. One that cannot be removed stays (it is tried
    again next time)."""
    removed = []
    for path in stale(folder, prefix, suffix):
        with contextlib.suppress(OSError):
            path.unlink()
            removed.append(path)
    return removed


def leftovers(path: Path) -> list[Path]:
    """The temporary files of `write_atomically(path, ...)` that a cut or a kill left behind."""
    return stale(path.parent, f".{path.name}.", ".tmp")


def sync_folder(folder: Path) -> None:
    """Make the folder's entries durable (a rename, a create or an unlink is in the folder, not the file).
    Where a folder cannot be opened or synced at all (not Linux, or a file system that has no such sync),
    nothing; any other failure raises OSError."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except (IsADirectoryError, PermissionError):
        return
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):
            raise
    finally:
        os.close(fd)


def make_folder(folder: Path) -> None:
    """`folder.mkdir(parents=True, exist_ok=True)`, durable: each folder made is synced into its parent (a new
    folder's name is in its parent, and a cut would lose it, and all in it, with the parent unsynced)."""
    if folder.is_dir() or folder.parent == folder:
        return
    make_folder(folder.parent)
    try:
        folder.mkdir()
    except FileExistsError:
        if not folder.is_dir():
            raise
    sync_folder(folder.parent)


def write_atomically(path: Path, data: bytes, mode: int = 0o600) -> None:
    """`data` into `path` whole or not at all, and durable: the folder made if missing (`make_folder`), the
    leftovers of earlier writes of `path` removed, a temporary file of permissions `mode` written in the same folder,
    flushed and fsync'ed, `os.replace`d over `path`, the folder fsync'ed. Raises OSError (the temporary file
    removed)."""
    folder = path.parent
    make_folder(folder)
    remove_stale(folder, f".{path.name}.", ".tmp")
    fd, temp = tempfile.mkstemp(prefix=owned_prefix(f".{path.name}."), suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fchmod(out.fileno(), mode)
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    sync_folder(folder)


__all__ = ["boot_id", "leftovers", "make_folder", "owned_prefix", "remove_stale", "stale", "sync_folder",
           "write_atomically"]
