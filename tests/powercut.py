"""Power cuts for the tests: a FUSE filesystem that records every write and sync, and what a cut keeps.

`CutFS` mounts tests/powercutfs.py over a backing folder; the product writes through the mount, exactly as it
writes to an SD card. The record (`Trace`) is every change in order: creates, writes, truncations, renames,
removals and mode changes, the fsyncs of files and folders, and the markers the product's driver puts in with
`mark` ("acknowledged: action 7") when the product has told the family that something is done.

What a power cut keeps (`Trace.image`) follows what a disk must keep and what it may:
- a write or truncation of a file is kept when an fsync of that file came after it (before the cut);
- a create, rename or removal in a folder is kept when an fsync of that folder came after it;
- every other change since is unsynced: a power cut may keep any of them, in any order, and a write only in
  part. The mode says which: "synced" keeps none, "all" keeps all (what SIGKILL alone would leave),
  "random" keeps each with even odds and tears each kept write into its 4 KiB pages, each kept or not (seeded).
Changes are applied in their order, each kept or skipped; a rename whose source is not there is skipped, and
data written to a file that lost its name is lost with it.

Two ways to cut:
- **replay**: run the product once to the end with the record on, then work out the image at each point
  (`Trace.sync_points()`): the image at a sync is what a cut just before that sync returned would leave.
  Exhaustive and fast; correct because what the product did before the cut does not depend on the cut.
- **live**: `CutFS(cut_at="sync:N")` stops the Nth sync inside the filesystem; the test kills the product
  with SIGKILL while it waits there, and `cut()` takes the image. Slower; it proves the replay's premise on
  the real process.

The model's limits (docs/engine.md, "Power cuts"): it is the POSIX promise, not one filesystem's: ext4's
extra ordering (data=ordered) is not assumed, so the product is held to more than ext4 needs; file modes are
kept as soon as set; hard links are refused. The Pi's boot partition is vfat, whose rename is not atomic
on a cut at all: the model cannot show what vfat does, only what the installer asks of it.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SERVER = Path(__file__).with_name("powercutfs.py")
CONTROL_VARIABLE = "BANKER_POWERCUT_CONTROL"
PAGE = 4096
MODES = ("synced", "all", "random")


def fuse_problem() -> str | None:
    """Why this machine cannot run the power-cut filesystem, or None."""
    if not os.path.exists("/dev/fuse"):
        return "no /dev/fuse"
    if shutil.which("fusermount3") is None:
        return "no fusermount3 (apt-get install fuse3)"
    try:
        import mfusepy  # type: ignore[import-untyped]  # noqa: F401
    except (ImportError, OSError) as exc:
        return f"mfusepy cannot load libfuse 3 ({exc})"
    return None


def ask(control: str | Path, line: str, timeout: float = 60.0) -> str:
    """Send one control line to the filesystem at `control` and return its answer."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        s.connect(str(control))
        s.sendall((line + "\n").encode())
        answer = b""
        while not answer.endswith(b"\n"):
            chunk = s.recv(65536)
            if not chunk:
                break
            answer += chunk
    return answer.decode().rstrip("\n")


def mark(text: str) -> None:
    """Put a marker in the record of the filesystem this process writes to (its control socket is in
    BANKER_POWERCUT_CONTROL); nothing when there is none. For the product's drivers in other processes."""
    control = os.environ.get(CONTROL_VARIABLE)
    if control:
        ask(control, f"mark {text}")


@dataclass
class Image:
    """The files a cut leaves: path (relative, "/" for the root) -> ("f", bytes, mode) | ("d", b"", mode) |
    ("l", target, mode)."""

    files: dict[str, tuple[str, bytes, int]]

    def write(self, dest: Path) -> Path:
        """Make the image in the folder `dest` (made, empty)."""
        dest.mkdir(parents=True, exist_ok=True)
        for path, (kind, data, mode) in sorted(self.files.items()):
            if path == "/":
                continue
            target = dest / path.lstrip("/")
            if kind == "d":
                target.mkdir(exist_ok=True)
                os.chmod(target, mode)
            elif kind == "l":
                os.symlink(data.decode(), target)
            else:
                target.write_bytes(data)
                os.chmod(target, mode)
        return dest


@dataclass
class Trace:
    """The record of one run through the filesystem (see the module's docstring)."""

    initial: dict[str, Any]
    ops: list[tuple[Any, ...]]
    counts: dict[str, int] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path) -> Trace:
        with open(path, "rb") as f:
            record = pickle.load(f)
        return cls(record["initial"], record["ops"], record["counts"])

    def sync_points(self) -> list[int]:
        """The index of every sync in the record: a cut there leaves what was made durable before it."""
        return [i for i, op in enumerate(self.ops) if op[0] == "sync"]

    def write_points(self) -> list[int]:
        return [i for i, op in enumerate(self.ops) if op[0] == "write"]

    def cut_point(self) -> int:
        """Where a live cut stopped the product (the record's end when none did)."""
        for i, op in enumerate(self.ops):
            if op[0] == "cut":
                return i
        return len(self.ops)

    def marks(self, upto: int | None = None) -> list[str]:
        """The markers before `upto` (all by default), in order."""
        return [op[1] for op in self.ops[:upto] if op[0] == "mark"]

    def image(self, upto: int | None = None, mode: str = "synced", seed: int = 0) -> Image:
        """What a power cut before the record's entry `upto` leaves on the disk (see the module's docstring)."""
        if mode not in MODES:
            raise ValueError(f"mode {mode!r}: one of {MODES}")
        ops = self.ops[:self.cut_point() if upto is None else upto]
        last_sync: dict[int, int] = {}
        for i, op in enumerate(ops):
            if op[0] == "sync":
                last_sync[op[1]] = i
        rng = random.Random(seed)
        init = self.initial
        entries = {ino: dict(names) for ino, names in init["entries"].items()}
        kinds = dict(init["kinds"])
        data = {ino: bytearray(content) for ino, content in init["data"].items()}
        modes = dict(init["modes"])

        def synced(i: int, *inos: int) -> bool:
            return all(last_sync.get(ino, -1) > i for ino in inos)

        def kept(i: int, *inos: int) -> bool:
            return synced(i, *inos) or mode == "all" or (mode == "random" and rng.random() < 0.5)

        for i, op in enumerate(ops):
            kind = op[0]
            if kind == "write":
                _, ino, offset, chunk = op
                if synced(i, ino) or mode == "all":
                    _put(data.setdefault(ino, bytearray()), offset, chunk)
                elif mode == "random" and rng.random() < 0.5:
                    for start, piece in _pages(offset, chunk):
                        if rng.random() < 0.5:
                            _put(data.setdefault(ino, bytearray()), start, piece)
            elif kind == "trunc":
                _, ino, size = op
                if kept(i, ino):
                    content = data.setdefault(ino, bytearray())
                    del content[size:]
                    content.extend(bytes(size - len(content)))
            elif kind == "create":
                _, parent, name, ino, what, perm, content = op
                kinds[ino] = what
                modes[ino] = perm
                data.setdefault(ino, bytearray(content))
                if what == "d":
                    entries.setdefault(ino, {})
                if kept(i, parent):
                    entries.setdefault(parent, {})[name] = ino
            elif kind == "rename":
                _, odir, oname, ndir, nname, ino = op
                if kept(i, odir, ndir) and entries.get(odir, {}).get(oname) == ino:
                    del entries[odir][oname]
                    entries.setdefault(ndir, {})[nname] = ino
            elif kind == "unlink":
                _, parent, name, ino = op
                if kept(i, parent) and entries.get(parent, {}).get(name) == ino:
                    del entries[parent][name]
            elif kind == "chmod":
                modes[op[1]] = op[2]
        files: dict[str, tuple[str, bytes, int]] = {}

        def visit(ino: int, path: str, seen: frozenset[int]) -> None:
            files[path] = (kinds[ino], bytes(data.get(ino, b"")), modes.get(ino, 0o644))
            if kinds[ino] == "d" and ino not in seen:
                for name, child in entries.get(ino, {}).items():
                    visit(child, path.rstrip("/") + "/" + name, seen | {ino})

        visit(init["root"], "/", frozenset())
        return Image(files)


def _put(content: bytearray, offset: int, chunk: bytes) -> None:
    if len(content) < offset:
        content.extend(bytes(offset - len(content)))
    content[offset:offset + len(chunk)] = chunk


def _pages(offset: int, chunk: bytes) -> Iterator[tuple[int, bytes]]:
    """A write cut along the disk's 4 KiB pages: (offset, bytes) of each page it touches."""
    start = offset
    while start < offset + len(chunk):
        end = min((start // PAGE + 1) * PAGE, offset + len(chunk))
        yield start, chunk[start - offset:end - offset]
        start = end


def mounted(path: Path) -> bool:
    """Whether `path` is in the mount table (os.path.ismount cannot stat a FUSE mount whose process died)."""
    return any(line.split(" ")[1] == str(path) for line in Path("/proc/self/mounts").read_text().splitlines())


class CutFS:
    """The power-cut filesystem over `backing`, mounted at `mountpoint` while in a `with`.

    `cut_at`: "sync:N" or "write:N" stops the product at that call (see `wait_cut`). Unmounted on leaving the
    `with`, even after a failure; `trace()` is the record so far."""

    def __init__(self, backing: Path, mountpoint: Path, cut_at: str | None = None) -> None:
        self.backing, self.mountpoint, self.cut_at = backing, mountpoint, cut_at
        self.control = Path(tempfile.mkdtemp(prefix="powercut-")) / "control"
        self.server: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> CutFS:
        self.backing.mkdir(parents=True, exist_ok=True)
        self.mountpoint.mkdir(parents=True, exist_ok=True)
        command = [sys.executable, str(SERVER), str(self.backing), str(self.mountpoint), str(self.control)]
        if self.cut_at:
            command += ["--cut-at", self.cut_at]
        self.log = self.control.with_name("server.log")
        with open(self.log, "wb") as log:  # a file, not a pipe: a full pipe would stop the filesystem
            self.server = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        deadline = time.monotonic() + 30
        while not (os.path.ismount(self.mountpoint) and self.control.exists()):
            if self.server.poll() is not None or time.monotonic() > deadline:
                error = self.log.read_text(errors="replace")
                self._stop()
                raise RuntimeError(f"the power-cut filesystem did not mount at {self.mountpoint}: {error}")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop()

    def env(self) -> dict[str, str]:
        """The environment for a product process that marks what it acknowledged (`mark`)."""
        return {**os.environ, CONTROL_VARIABLE: str(self.control)}

    def mark(self, text: str) -> None:
        ask(self.control, f"mark {text}")

    def wait_cut(self, timeout: float = 60.0) -> bool:
        """True once the product is stopped at the cut (kill it then), False after `timeout` seconds."""
        return ask(self.control, f"wait-cut {timeout}", timeout + 5) == "cut"

    def errors(self) -> str:
        """What the filesystem's process wrote to its log (a failed call's traceback), "" when nothing."""
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def kill_at_cut(self, process: subprocess.Popen[Any], timeout: float = 60.0) -> Trace:
        """Wait until `process` is stopped at the cut, kill it (SIGKILL) there, and return the record.

        A FUSE call cannot be abandoned once the filesystem has it, even by SIGKILL: the kill comes first,
        then the stopped call is released, and the process dies on its way back, never seeing the answer."""
        if not self.wait_cut(timeout):
            raise AssertionError(f"the product never reached the cut at {self.cut_at}")
        process.send_signal(signal.SIGKILL)
        ask(self.control, "release")
        process.wait(timeout=30)
        return self.trace()

    def trace(self) -> Trace:
        dump = self.control.with_name("trace.pickle")
        answer = ask(self.control, f"dump {dump}")
        if answer != "ok":
            raise RuntimeError(f"the power-cut filesystem did not dump its record: {answer}")
        return Trace.load(dump)

    def _stop(self) -> None:
        if self.server is not None and self.server.poll() is None:
            with contextlib.suppress(OSError):  # a call stopped at a cut would hold the unmount
                ask(self.control, "release", timeout=5)
        if mounted(self.mountpoint):  # also a mount whose filesystem's process died (no longer stat-able)
            subprocess.run(["umount", "-l", str(self.mountpoint)], check=False, capture_output=True)
        if self.server is not None:
            try:
                self.server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.server.kill()
                self.server.wait()
            self.server = None
        shutil.rmtree(self.control.parent, ignore_errors=True)


def seeds(default: int) -> tuple[int, int]:
    """(first seed, how many) for the seeded cuts: BANKER_POWER_CUTS=N asks for N (the long run), from a seed
    of the time unless BANKER_POWER_CUTS_SEED is set; else `default` from seed 0. Printed, to run again."""
    many = os.environ.get("BANKER_POWER_CUTS")
    if many:
        first = int(os.environ.get("BANKER_POWER_CUTS_SEED", str(int(time.time()))))
        count = int(many)
    else:
        first, count = 0, default
    print(f"power cuts: {count} seeded points from seed {first} (BANKER_POWER_CUTS_SEED={first} "
          f"BANKER_POWER_CUTS={count} repeats them)")
    return first, count
