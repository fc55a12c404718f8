"""A filesystem that can lose power: the server half of tests/powercut.py.

Run by the tests as ``python powercutfs.py BACKING MOUNTPOINT CONTROL [--cut-at sync:N|write:N]``. It mounts a
FUSE filesystem (libfuse 3 through mfusepy) at MOUNTPOINT that passes every call through to the folder BACKING,
and records, in order, every call that changes what a disk would keep: creates, writes, truncations, renames,
removals, mode changes, and the fsyncs of files and folders. The record names files by an inode number of its
own, as a disk does, so that a write through a descriptor still lands in the file after a rename.

What a power cut keeps is worked out from that record by tests/powercut.py (`Trace.image`); this process only
records, and can stop the world at one call: with ``--cut-at sync:N`` the Nth fsync (of a file or a folder;
fdatasync counts) never returns, and neither does any call after it, so the writing process can be killed
(SIGKILL) there, as the power would stop it. ``write:N`` does the same at the Nth write.

The control socket (a Unix socket at CONTROL) takes one line per connection and answers one line:
``mark TEXT`` puts a marker in the record (the product's driver says "this was acknowledged" here),
``wait-cut SECONDS`` answers ``cut`` once the cut has happened (or ``no`` after SECONDS),
``release`` lets the call stopped at the cut fail (EIO), once the product is killed,
``dump PATH`` writes the record to PATH (pickle) and answers ``ok``,
``stats`` answers the calls and bytes so far as JSON.

Single-threaded (mfusepy's ``nothreads``): the calls are recorded in the order the kernel sent them.
"""

from __future__ import annotations

import errno
import json
import os
import pickle
import socket
import stat
import sys
import threading
from pathlib import Path
from typing import Any

import mfusepy as fuse  # type: ignore[import-untyped]

FuseOSError = fuse.FuseOSError


class Recorder(fuse.Operations):  # type: ignore[misc]
    """Pass-through to `backing`, recording what changes the disk (the format: tests/powercut.py, `Trace`)."""

    use_ns = True
    lock = None  # no lock call: the kernel keeps POSIX locks itself (SQLite's), as on a local disk

    def __init__(self, backing: Path, cut_at: tuple[str, int] | None) -> None:
        self.backing = str(backing)
        self.mutex = threading.RLock()
        self.cut_at = cut_at
        self.cut = threading.Event()
        self.released = threading.Event()
        self.counts = {"sync": 0, "write": 0}
        self.bytes_written: dict[str, int] = {}
        self.ops: list[tuple[Any, ...]] = []
        self.next_ino = 1
        self.paths: dict[str, int] = {}  # "/a/b" -> ino, for everything in the tree now
        self.fds: dict[int, tuple[int, str]] = {}  # fh -> (backing fd, the path it was opened at)
        self.fh_ino: dict[int, int] = {}
        self.initial = self._snapshot()

    # -- the record ---------------------------------------------------------------------------------------------

    def _snapshot(self) -> dict[str, Any]:
        """What is in `backing` at the mount: taken as durable (the tests make it, then mount)."""
        entries: dict[int, dict[str, int]] = {}
        kinds: dict[int, str] = {}
        data: dict[int, bytes] = {}
        modes: dict[int, int] = {}

        def visit(path: str) -> int:
            real = self.backing + path
            ino = self._new_ino(path)
            info = os.lstat(real)
            modes[ino] = stat.S_IMODE(info.st_mode)
            if stat.S_ISDIR(info.st_mode):
                kinds[ino] = "d"
                entries[ino] = {}
                for name in sorted(os.listdir(real)):
                    entries[ino][name] = visit(path.rstrip("/") + "/" + name)
            elif stat.S_ISLNK(info.st_mode):
                kinds[ino] = "l"
                data[ino] = os.readlink(real).encode()
            else:
                kinds[ino] = "f"
                with open(real, "rb") as f:
                    data[ino] = f.read()
            return ino

        root = visit("/")
        return {"root": root, "entries": entries, "kinds": kinds, "data": data, "modes": modes}

    def _new_ino(self, path: str) -> int:
        ino = self.next_ino
        self.next_ino += 1
        self.paths[path] = ino
        return ino

    def _record(self, *op: Any) -> None:
        self.ops.append(op)

    def _gate(self, kind: str) -> None:
        """Count a sync or a write; at the cut, stop here until released (`release`), then fail."""
        self._halt()
        self.counts[kind] += 1
        if self.cut_at is not None and self.cut_at == (kind, self.counts[kind]):
            self._record("cut", kind, self.counts[kind])
            self.cut.set()
            # The kernel waits for this answer even for a SIGKILL'ed process (a FUSE request in flight cannot
            # be abandoned): the test kills the product first, then releases this call, and the product dies
            # on its way back from the system call, before it sees the answer.
            self.released.wait()
            raise FuseOSError(errno.EIO)

    def _halt(self) -> None:
        """After the cut nothing changes any more: the power is off."""
        if self.cut.is_set():
            raise FuseOSError(errno.EIO)

    @staticmethod
    def _parent(path: str) -> tuple[str, str]:
        head, _, name = path.rpartition("/")
        return head or "/", name

    def _ino(self, path: str) -> int:
        try:
            return self.paths[path]
        except KeyError:
            raise FuseOSError(errno.ENOENT) from None

    def _real(self, path: str) -> str:
        return self.backing + path

    def _moved(self, old: str, new: str) -> None:
        """The tree's names after `old` became `new` (a folder takes its contents along)."""
        for path in [p for p in self.paths if p == new or p.startswith(new + "/")]:
            del self.paths[path]
        for path in [p for p in self.paths if p == old or p.startswith(old + "/")]:
            self.paths[new + path[len(old):]] = self.paths.pop(path)

    # -- reading ------------------------------------------------------------------------------------------------

    def getattr(self, path: str, fh: int | None = None) -> dict[str, Any]:
        try:
            info = os.fstat(self.fds[fh][0]) if fh in self.fds else os.lstat(self._real(path))
        except OSError as exc:
            raise FuseOSError(exc.errno) from None
        return {key: getattr(info, key) for key in (
            "st_mode", "st_nlink", "st_uid", "st_gid", "st_size", "st_atime_ns", "st_mtime_ns", "st_ctime_ns")}

    def readdir(self, path: str, fh: int) -> list[str]:
        return [".", "..", *os.listdir(self._real(path))]

    def readlink(self, path: str) -> str:
        return os.readlink(self._real(path))

    def access(self, path: str, amode: int) -> int:
        if not os.access(self._real(path), amode):
            raise FuseOSError(errno.EACCES)
        return 0

    def statfs(self, path: str) -> dict[str, int]:
        info = os.statvfs(self._real(path))
        return {key: getattr(info, key) for key in (
            "f_bsize", "f_frsize", "f_blocks", "f_bfree", "f_bavail", "f_files", "f_ffree", "f_namemax")}

    def read(self, path: str, size: int, offset: int, fh: int) -> bytes:
        return os.pread(self.fds[fh][0], size, offset)

    # -- files --------------------------------------------------------------------------------------------------

    def _opened(self, path: str, fd: int) -> int:
        fh = fd  # the backing descriptor is unique while open
        self.fds[fh] = (fd, path)
        self.fh_ino[fh] = self.paths[path]
        return fh

    def open(self, path: str, flags: int) -> int:
        with self.mutex:
            self._halt()
            ino = self._ino(path)
            try:
                fd = os.open(self._real(path), (flags & ~(os.O_APPEND | os.O_CREAT | os.O_EXCL)))
            except OSError as exc:
                raise FuseOSError(exc.errno) from None
            if flags & os.O_TRUNC:
                self._record("trunc", ino, 0)
            return self._opened(path, fd)

    def create(self, path: str, mode: int, fi: Any = None) -> int:
        with self.mutex:
            self._halt()
            if path in self.paths:
                return self.open(path, os.O_RDWR)
            try:
                fd = os.open(self._real(path), os.O_RDWR | os.O_CREAT | os.O_EXCL, mode)
            except OSError as exc:
                raise FuseOSError(exc.errno) from None
            parent, name = self._parent(path)
            ino = self._new_ino(path)
            self._record("create", self.paths[parent], name, ino, "f", stat.S_IMODE(mode), b"")
            return self._opened(path, fd)

    def write(self, path: str, data: bytes, offset: int, fh: int) -> int:
        with self.mutex:
            self._gate("write")
            fd, opened_at = self.fds[fh]
            written = os.pwrite(fd, data, offset)
            self._record("write", self.fh_ino[fh], offset, bytes(data[:written]))
            self.bytes_written[opened_at] = self.bytes_written.get(opened_at, 0) + written
            return written

    def truncate(self, path: str, length: int, fh: int | None = None) -> int:
        with self.mutex:
            self._halt()
            if fh in self.fds:
                os.ftruncate(self.fds[fh][0], length)
                ino = self.fh_ino[fh]
            else:
                ino = self._ino(path)
                os.truncate(self._real(path), length)
            self._record("trunc", ino, length)
            return 0

    def flush(self, path: str, fh: int) -> int:
        return 0

    def release(self, path: str, fh: int) -> int:
        with self.mutex:
            fd, _ = self.fds.pop(fh)
            self.fh_ino.pop(fh, None)
            os.close(fd)
            return 0

    def fsync(self, path: str, datasync: int, fh: int) -> int:
        with self.mutex:
            self._gate("sync")
            os.fsync(self.fds[fh][0])
            self._record("sync", self.fh_ino[fh])
            return 0

    def fsyncdir(self, path: str, datasync: int, fh: int) -> int:
        with self.mutex:
            self._gate("sync")
            self._record("sync", self._ino(path))
            return 0

    def fallocate(self, path: str, mode: int, offset: int, length: int, fh: int) -> int:
        raise FuseOSError(errno.EOPNOTSUPP)

    # -- the tree -----------------------------------------------------------------------------------------------

    def mkdir(self, path: str, mode: int) -> int:
        with self.mutex:
            self._halt()
            try:
                os.mkdir(self._real(path), mode)
            except OSError as exc:
                raise FuseOSError(exc.errno) from None
            parent, name = self._parent(path)
            self._record("create", self.paths[parent], name, self._new_ino(path), "d", stat.S_IMODE(mode), b"")
            return 0

    def symlink(self, target: str, source: str) -> int:
        with self.mutex:  # mfusepy: symlink(the link's path, what it points to)
            self._halt()
            try:
                os.symlink(source, self._real(target))
            except OSError as exc:
                raise FuseOSError(exc.errno) from None
            parent, name = self._parent(target)
            self._record("create", self.paths[parent], name, self._new_ino(target), "l", 0o777, source.encode())
            return 0

    def link(self, target: str, source: str) -> int:
        raise FuseOSError(errno.EPERM)  # no hard links: nothing the product writes makes one

    def _remove(self, path: str, remove: Any) -> int:
        with self.mutex:
            self._halt()
            ino = self._ino(path)
            try:
                remove(self._real(path))
            except OSError as exc:
                raise FuseOSError(exc.errno) from None
            parent, name = self._parent(path)
            self._record("unlink", self.paths[parent], name, ino)
            del self.paths[path]
            return 0

    def unlink(self, path: str) -> int:
        return self._remove(path, os.unlink)

    def rmdir(self, path: str) -> int:
        return self._remove(path, os.rmdir)

    def rename(self, old: str, new: str) -> int:
        with self.mutex:
            self._halt()
            ino = self._ino(old)
            try:
                os.rename(self._real(old), self._real(new))
            except OSError as exc:
                raise FuseOSError(exc.errno) from None
            (odir, oname), (ndir, nname) = self._parent(old), self._parent(new)
            self._record("rename", self.paths[odir], oname, self.paths[ndir], nname, ino)
            self._moved(old, new)
            return 0

    def chmod(self, path: str, mode: int) -> int:
        with self.mutex:
            self._halt()
            os.chmod(self._real(path), mode)
            self._record("chmod", self._ino(path), stat.S_IMODE(mode))
            return 0

    def chown(self, path: str, uid: int, gid: int) -> int:
        os.lchown(self._real(path), uid, gid)
        return 0

    def utimens(self, path: str, times: tuple[int, int] | None = None) -> int:
        if times is None:
            os.utime(self._real(path), follow_symlinks=False)
        else:
            os.utime(self._real(path), ns=times, follow_symlinks=False)
        return 0

    # -- control ------------------------------------------------------------------------------------------------

    def _record_now(self) -> dict[str, Any]:
        return {"initial": self.initial, "ops": list(self.ops), "counts": dict(self.counts)}

    def answer(self, line: str) -> str:
        command, _, argument = line.partition(" ")
        if command == "mark":
            with self.mutex:
                self._record("mark", argument)
            return "ok"
        if command == "wait-cut":
            return "cut" if self.cut.wait(float(argument)) else "no"
        if command == "release":
            self.released.set()
            return "ok"
        if command == "dump":
            if self.cut.is_set():  # the stopped call holds the lock, and its record is complete
                record = self._record_now()
            else:
                with self.mutex:
                    record = self._record_now()
            with open(argument, "wb") as f:
                pickle.dump(record, f)
            return "ok"
        if command == "stats":
            return json.dumps({"counts": self.counts, "bytes": self.bytes_written})
        return f"unknown command {command!r}"


def serve_control(recorder: Recorder, path: str) -> None:
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(8)

    def one(conn: socket.socket) -> None:
        with conn, conn.makefile("rw", encoding="utf-8") as stream:
            line = stream.readline().rstrip("\n")
            stream.write(recorder.answer(line) + "\n")
            stream.flush()

    while True:
        conn, _ = server.accept()
        threading.Thread(target=one, args=(conn,), daemon=True).start()


def main(argv: list[str]) -> int:
    backing, mountpoint, control = argv[:3]
    cut_at = None
    if len(argv) == 5 and argv[3] == "--cut-at":
        kind, _, n = argv[4].partition(":")
        cut_at = (kind, int(n))
    recorder = Recorder(Path(backing), cut_at)
    threading.Thread(target=serve_control, args=(recorder, control), daemon=True).start()
    # Without FUSE's writeback cache every write() reaches this process when it is made, in order; the page
    # cache stays (SQLite maps its -shm file). The mount is everyone's: the product may run as another user.
    fuse.FUSE(recorder, mountpoint, foreground=True, nothreads=True, allow_other=True, default_permissions=True,
              fsname="powercut")
    recorder.released.set()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
