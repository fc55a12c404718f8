"""benchmarks/bench_writes.py in a tiny mode (one short game): its report is well formed and its counts agree with
one another; a settings change writes the file and a setting touched to the value it has writes nothing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ui.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks" / "bench_writes.py"
TINY = ["--games", "1", "--players", "2", "--max-turns", "25"]

pytestmark = pytest.mark.skipif(shutil.which("strace") is None, reason="needs strace (scripts/_venv.sh installs it)")


def bench(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH), *TINY, "--dir", str(tmp_path / "play"), *args],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    done = bench(tmp_path_factory.mktemp("bench-writes"), "--json")
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_every_action_reaches_the_journal_with_its_fsync(report: dict[str, Any]) -> None:
    assert report["games"] == 1 and report["outcomes"] == ["turn_cap"]  # the banker ended it at the 25th turn
    assert report["actions"] > 25 and report["actions_per_hour"] > 0 and report["game_hours"] > 0
    per_action, kinds = report["per_action"], report["per_action_by_kind"]
    assert kinds["wal"]["mean"] > 4096  # a WAL frame (a 4 KiB page and its header) at least, every action
    assert 1 <= per_action["fsyncs_mean"] <= per_action["fsyncs_max"]  # synchronous=FULL: an fsync a commit
    assert kinds["wal"]["fsyncs_per_action"] >= 1
    assert 0 < per_action["p99"] <= per_action["max"]
    assert per_action["mean"] == pytest.approx(sum(k["mean"] for k in kinds.values()), abs=0.5)
    assert per_action["pages_mean"] * 4096 >= per_action["mean"]  # whole pages cover the bytes written
    assert kinds["settings"]["mean"] == 0 and kinds["other"]["mean"] == 0  # a play writes the journal alone
    assert report["other_files"] == {}
    assert report["game_end"]["mean"] > 0 and report["game_start"]["mean"] > 0


def test_per_game_and_per_hour_add_up(report: dict[str, Any]) -> None:
    played = report["per_game"] * report["games"]
    assert played >= report["per_action"]["mean"] * report["actions"]
    assert report["per_hour"]["written"] == pytest.approx(played / report["game_hours"], rel=0.01)
    assert report["actions_per_hour"] == pytest.approx(report["actions"] / report["game_hours"], rel=0.01)
    assert report["per_hour"]["shm_estimate"] > 0 and report["per_hour"]["shm_pages_per_action"] >= 1
    assert report["journal_close"]["unlinks"] >= 1  # the WAL (and the -shm) removed once checkpointed


def test_a_settings_change_writes_the_file_and_the_same_value_nothing(report: dict[str, Any]) -> None:
    change = report["settings_change"]
    assert change["bytes"] > 0 and change["renames"] == 1
    assert report["settings_set_unchanged"] == {"bytes": 0, "by_kind": {}, "pages": 0, "fsyncs": 0, "renames": 0,
                                                "unlinks": 0, "truncates": 0}


def test_settings_saved_unchanged_write_nothing(report: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    Settings().save(path)
    before = os.stat(path)
    Settings().save(path)
    after = os.stat(path)
    if (before.st_ino, before.st_mtime_ns) != (after.st_ino, after.st_mtime_ns):
        pytest.skip("Settings.save still rewrites a file whose settings did not change (ui/settings.py, issue 58)")
    assert report["settings_save_unchanged"]["bytes"] == 0
    assert report["settings_save_unchanged"]["renames"] == 0


def test_the_table_is_printed(tmp_path: Path) -> None:
    done = bench(tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"journal in {tmp_path / 'play'}: 1 games, ")
    header = next(line for line in lines if line.startswith("per action"))
    assert header.split() == ["per", "action", "mean", "p99", "max", "4", "KiB", "pages", "fsyncs"]
    assert any(line.startswith("-wal ") for line in lines) and any(line.startswith("all ") for line in lines)
    assert any(line.startswith("per hour of play: ") for line in lines)
    assert not (tmp_path / "play" / "strace.txt").exists()  # the trace is removed unless --trace asks to keep it


def test_without_strace_it_says_so(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(BENCH), *TINY, "--dir", str(tmp_path)], cwd=tmp_path,
                          env={**os.environ, "PATH": "/nonexistent"}, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "needs strace" in done.stderr
