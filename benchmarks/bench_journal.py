"""Journal speed on this machine's disk: what a tap pays to commit, and how fast a game is rebuilt.

    .venv/bin/python benchmarks/bench_journal.py [--dir DIR]

DIR (default: a temporary folder) should be on the disk the journal will
live on: the commit latency is mostly the disk's fsync. Prints commits per
second with p50/p99 commit latency (one transaction per action, WAL,
synchronous=FULL), and actions per second when rebuilding a 5,000-action
game from the file (open, check, replay through the rules).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from banker.journal import Journal
from banker.ruleset import load_ruleset
from banker.simulate import play_game


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", help="folder for the journal file (default: a temporary folder)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    # A long game: rich players reach the turn cap, some 5,000 actions later.
    game, header, _ = play_game("classic", load_ruleset("classic"), 4, 7, max_turns=2060,
                                options={"start_cash": 200000})
    actions = list(game.script)
    folder = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="bench-journal-"))
    path = folder / "bench.sqlite3"
    path.unlink(missing_ok=True)
    latencies = []
    with Journal(path) as j:
        live = j.start(header)
        started = time.perf_counter()
        for action in actions:  # every action committed the way a tap commits it
            t0 = time.perf_counter()
            live.apply(action)
            latencies.append(time.perf_counter() - t0)
        commit_seconds = time.perf_counter() - started
        game_id = live.id
    t0 = time.perf_counter()
    with Journal(path, create=False) as j:
        rebuilt = j.load(game_id)
    rebuild_seconds = time.perf_counter() - t0
    assert rebuilt.game.to_json() == live.game.to_json()
    rows = actions
    report = {
        "folder": str(folder),
        "commits": len(latencies),
        "commits_per_second": round(len(latencies) / commit_seconds),
        "commit_ms_p50": round(statistics.median(latencies) * 1000, 2),
        "commit_ms_p99": round(sorted(latencies)[int(len(latencies) * 0.99) - 1] * 1000, 2),
        "rebuild_actions": len(rows),
        "rebuild_seconds": round(rebuild_seconds, 3),
        "rebuild_actions_per_second": round(len(rows) / rebuild_seconds),
    }
    if args.json:
        print(json.dumps(report))
    else:
        print(f"journal in {folder}")
        print(f"commit: {report['commits_per_second']} actions/s, p50 {report['commit_ms_p50']} ms, "
              f"p99 {report['commit_ms_p99']} ms (one transaction per action, WAL, synchronous=FULL)")
        print(f"rebuild: {report['rebuild_actions']} actions in {report['rebuild_seconds']} s "
              f"({report['rebuild_actions_per_second']} actions/s, open and check included)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
