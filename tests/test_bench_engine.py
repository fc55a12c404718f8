"""benchmarks/bench_engine.py --against: both versions measured, each ratio given, the worktree gone afterwards."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks" / "bench_engine.py"


def _git_root() -> Path | None:
    if shutil.which("git") is None:
        return None
    done = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--show-toplevel"], capture_output=True, text=True)
    return Path(done.stdout.strip()).resolve() if done.returncode == 0 else None


def _worktrees(root: Path) -> set[str]:
    out = subprocess.run(["git", "-C", str(root), "worktree", "list", "--porcelain"], capture_output=True,
                         text=True, check=True).stdout
    return {line.split(" ", 1)[1] for line in out.splitlines() if line.startswith("worktree ")}


def test_against_head_measures_both_versions_and_removes_its_worktree(tmp_path: Path) -> None:
    root = _git_root()
    if root is None:
        pytest.skip("needs git and a git checkout")
    before = _worktrees(root)
    done = subprocess.run([sys.executable, str(BENCH), "--against", "HEAD", "--rounds", "1", "--games", "2", "--json"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    this, against = report["this"], report["against"]
    assert Path(this["banker"]) == root / "banker"
    assert Path(against["banker"]).is_relative_to(against["worktree"])
    assert against["commit"] == this["head"]
    assert this["engine"] == against["engine"] == "pure Python"
    assert set(report["results"]) == {"classic"}
    for mode in ("fast", "checked"):
        res = report["results"]["classic"][mode]
        for version in ("this", "against"):
            assert res[version]["median"] > 0 and len(res[version]["rounds"]) == 1
        assert res["ratio"] == pytest.approx(res["this"]["median"] / res["against"]["median"], abs=1e-3)
        assert isinstance(res["dropped_more_than_5_percent"], bool)
    after = _worktrees(root)
    assert after == before and against["worktree"] not in after
    assert not Path(against["worktree"]).exists()
