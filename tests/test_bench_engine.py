"""benchmarks/bench_engine.py --against: both versions measured, each ratio given, the worktree gone afterwards.

The benchmarks measure engines in source trees. The suite imports nothing from the checkout (scripts/test.sh's
import check), so each test gives them copies: the engine's folder copied, or the benchmark run from a git
worktree of HEAD.
"""

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


def engine_copy(folder: Path) -> Path:
    """A source tree holding a copy of the checkout's engine."""
    shutil.copytree(ROOT / "banker", folder / "banker", ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def test_against_head_measures_both_versions_and_removes_its_worktree(tmp_path: Path) -> None:
    checkout = _git_root()
    if checkout is None:
        pytest.skip("needs git and a git checkout")
    root = tmp_path / "this"
    subprocess.run(["git", "-C", str(checkout), "worktree", "add", "--detach", "--quiet", str(root), "HEAD"],
                   check=True, timeout=120)
    try:
        before = _worktrees(root)
        done = subprocess.run([sys.executable, str(root / "benchmarks" / "bench_engine.py"), "--against", "HEAD",
                               "--rounds", "1", "--games", "2", "--json"],
                              cwd=tmp_path, capture_output=True, text=True, timeout=120)
        after = _worktrees(root)
    finally:
        subprocess.run(["git", "-C", str(checkout), "worktree", "remove", "--force", str(root)], timeout=120)
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
    assert after == before and against["worktree"] not in after
    assert not Path(against["worktree"]).exists()


def test_engines_compares_two_built_engines(tmp_path: Path) -> None:
    """--engines: two folders holding a banker package (here two copies of the checkout's engine)."""
    this, other = engine_copy(tmp_path / "this"), engine_copy(tmp_path / "other")
    done = subprocess.run([sys.executable, str(BENCH), "--engines", str(this), str(other), "--rounds", "2",
                           "--games", "2", "--json"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert Path(report["this"]["banker"]) == this / "banker"
    assert Path(report["against"]["banker"]) == other / "banker"
    res = report["results"]["classic"]["fast"]
    assert len(res["this"]["rounds"]) == len(res["against"]["rounds"]) == 2 and res["same_games"]
    shown = subprocess.run([sys.executable, str(BENCH), "--engines", str(this), str(other), "--rounds", "1",
                            "--games", "1"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0, shown.stderr
    assert f"engine in {other}" in shown.stdout and "ratio of the medians (this / other)" in shown.stdout
    refused = subprocess.run([sys.executable, str(BENCH), "--engines", str(this), str(tmp_path / "nothing")],
                             cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "holds no banker package" in refused.stderr


INSTRUCTIONS = ROOT / "benchmarks" / "bench_instructions.py"
# Stands in for valgrind: runs the command and writes a callgrind summary of 1,000 instructions a roll on top
# of 5,000,000 for starting up, so that the benchmark's arithmetic can be checked exactly.
FAKE_VALGRIND = """#!/usr/bin/env python3
import json, subprocess, sys
out = next(a.split("=", 1)[1] for a in sys.argv if a.startswith("--callgrind-out-file="))
command = sys.argv[sys.argv.index(next(a for a in sys.argv[1:] if not a.startswith("--"))):]
done = subprocess.run(command, capture_output=True, text=True)
sys.stdout.write(done.stdout); sys.stderr.write(done.stderr)
played = json.loads(done.stdout.strip().splitlines()[-1])
open(out, "w").write(f"events: Ir\\nsummary: {5_000_000 + 1000 * played['rolls']}\\n")
sys.exit(done.returncode)
"""


def test_instructions_counts_the_games_alone(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "valgrind").write_text(FAKE_VALGRIND)
    (bin_dir / "valgrind").chmod(0o755)
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path)}
    engine = engine_copy(tmp_path / "engine")
    done = subprocess.run([sys.executable, str(INSTRUCTIONS), str(engine), "--games", "3", "--json"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    [result] = json.loads(done.stdout)["results"]
    assert result["rolls"] > 0 and result["engine"] == "pure Python" and result["rules"] == "classic"
    assert result["instructions"] == 1000 * result["rolls"] and result["instructions_per_roll"] == 1000
    assert result["instructions_per_action"] == round(1000 * result["rolls"] / result["actions"])
    missing = subprocess.run([sys.executable, str(INSTRUCTIONS), str(engine)], cwd=tmp_path,
                             env={"PATH": "/nonexistent"}, capture_output=True, text=True, timeout=60)
    assert missing.returncode == 2 and "needs valgrind" in missing.stderr


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="needs valgrind (scripts/test.sh installs it)")
def test_instructions_under_real_callgrind(tmp_path: Path) -> None:
    engine = engine_copy(tmp_path / "engine")
    done = subprocess.run([sys.executable, str(INSTRUCTIONS), str(engine), "--games", "1", "--json"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    [result] = json.loads(done.stdout)["results"]
    assert 10_000 < result["instructions_per_roll"] < 10_000_000
