"""The power-cut kit itself (tests/powercut.py, tests/powercutfs.py): the model on hand-made records, then the
real mount with a live cut, and its teardown."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from powercut import PAGE, CutFS, Trace, fuse_problem, mounted

ROOT, A, B = 1, 2, 3  # the root folder's and two files' numbers in the hand-made records


def trace(ops: list[tuple[Any, ...]]) -> Trace:
    """A record over a root folder holding a ("old a") and b ("old b")."""
    initial = {"root": ROOT, "entries": {ROOT: {"a": A, "b": B}}, "kinds": {ROOT: "d", A: "f", B: "f"},
               "data": {A: b"old a", B: b"old b"}, "modes": {ROOT: 0o755, A: 0o644, B: 0o644}}
    return Trace(initial, ops)


def content(t: Trace, mode: str, seed: int = 0) -> dict[str, bytes]:
    return {path: data for path, (kind, data, _) in t.image(None, mode, seed).files.items() if kind == "f"}


# ---------------------------------------------------------------------------------------------------------------
# The model


def test_a_write_not_fsynced_is_lost_in_synced_and_kept_in_all() -> None:
    unsynced = trace([("write", A, 0, b"NEW")])
    assert content(unsynced, "synced")["/a"] == b"old a"
    assert content(unsynced, "all")["/a"] == b"NEW a"
    synced = trace([("write", A, 0, b"NEW"), ("sync", A)])
    assert content(synced, "synced")["/a"] == b"NEW a"
    assert synced.image(1, "synced").files["/a"][1] == b"old a"  # a cut before the fsync


def test_a_rename_is_kept_only_after_its_folders_fsync() -> None:
    rename = [("rename", ROOT, "b", ROOT, "a", B)]
    assert content(trace(rename), "synced") == {"/a": b"old a", "/b": b"old b"}
    assert content(trace(rename), "all") == {"/a": b"old b"}
    assert content(trace([*rename, ("sync", B)]), "synced") == {"/a": b"old a", "/b": b"old b"}  # the file's
    assert content(trace([*rename, ("sync", ROOT)]), "synced") == {"/a": b"old b"}


def test_a_file_renamed_before_its_data_was_fsynced_comes_back_empty_in_synced() -> None:
    made = [("create", ROOT, "new", 4, "f", 0o600, b""), ("write", 4, 0, b"the new a")]
    careless = trace([*made, ("rename", ROOT, "new", ROOT, "a", 4), ("sync", ROOT)])
    assert content(careless, "synced") == {"/a": b"", "/b": b"old b"}
    careful = trace([*made, ("sync", 4), ("rename", ROOT, "new", ROOT, "a", 4), ("sync", ROOT)])
    assert content(careful, "synced") == {"/a": b"the new a", "/b": b"old b"}


def test_random_tears_a_write_along_4_kib_pages_and_is_the_same_for_one_seed() -> None:
    pages = 4
    t = trace([("trunc", A, 0), ("write", A, 0, b"o" * (PAGE * pages)), ("sync", A),
               ("write", A, 0, b"N" * (PAGE * pages))])
    seen = set()
    for seed in range(40):
        data = content(t, "random", seed)["/a"]
        assert len(data) == PAGE * pages
        kept = tuple(data[i * PAGE:(i + 1) * PAGE] for i in range(pages))
        assert all(page in (b"o" * PAGE, b"N" * PAGE) for page in kept), f"seed {seed}: torn inside a page"
        seen.add(tuple(page == b"N" * PAGE for page in kept))
        assert content(t, "random", seed) == content(t, "random", seed)
    assert len(seen) > 2 and any(0 < sum(s) < pages for s in seen)  # some writes kept in part


# ---------------------------------------------------------------------------------------------------------------
# The real mount

pytestmark_fuse = pytest.mark.skipif(fuse_problem() is not None, reason=f"no power-cut filesystem: {fuse_problem()}")

WRITER = """
import os, sys
from powercut import mark
for i in range(1000):
    fd = os.open(os.path.join(sys.argv[1], f"f{i}"), os.O_CREAT | os.O_WRONLY, 0o644)
    os.write(fd, b"x" * 10)
    os.fsync(fd)
    os.close(fd)
    mark(f"synced {i}")
"""


def writer(mount: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    env = {**env, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), env.get("PYTHONPATH", "")])}
    return subprocess.Popen([sys.executable, "-c", WRITER, str(mount)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


@pytestmark_fuse
def test_a_live_cut_at_the_nth_sync_stops_and_kills_the_writer_where_it_was(tmp_path: Path) -> None:
    mount = tmp_path / "mount"
    with CutFS(tmp_path / "backing", mount, cut_at="sync:3") as fs:
        process = writer(mount, fs.env())
        t = fs.kill_at_cut(process)
    assert process.returncode == -9
    assert t.marks() == ["synced 0", "synced 1"]  # the third fsync never returned
    assert t.counts["sync"] == 3 and t.ops[t.cut_point()] == ("cut", "sync", 3)
    assert sorted(content(t, "all")) == ["/f0", "/f1", "/f2"]  # nothing after the cut
    assert content(t, "synced") == {}  # the names were never synced into the folder
    assert not mounted(mount)


@pytestmark_fuse
def test_the_mount_is_gone_after_the_with_even_when_its_body_raised(tmp_path: Path) -> None:
    mount = tmp_path / "mount"
    with pytest.raises(RuntimeError, match="the test failed"), CutFS(tmp_path / "b", mount, cut_at="sync:1") as fs:
        assert mounted(mount)
        process = writer(mount, fs.env())
        assert fs.wait_cut()  # the writer is stopped inside the filesystem, and the body fails there
        raise RuntimeError("the test failed")
    assert not mounted(mount)
    assert process.wait(timeout=30) != 0  # released: its stopped fsync failed, nothing hangs
