"""The family's history over a big journal: `banker stats` over 1,000 finished games, read from the summaries the
journal stores when a game ends, side by side with the same journal without them (every game replayed, as before
schema 3 and as a read-only open of an older journal still does).

    .venv/bin/python benchmarks/bench_stats.py [--games 1000] [--runs 10] [--dir DIR] [--json]

The journal is made once in DIR (default: a folder under the system's temporary one, kept between runs; made
again when the schema or the summary's format moves on): simulated games of classic, brands, biznes and
classic-short for two to six players, each played to its end or a 120-turn cap and applied action by action
through the journal the way `banker import` does, so that each stores its summary. Each measurement is the
whole command (`python -m banker stats DB --json`, interpreter start included) in a process of its own, the two
journals alternating; printed: p50, p99 and the maximum in seconds, and the in-process `family_stats` alone. The
two journals' histories must be equal. Also printed: what `Journal.fill_summaries` takes to give the journal
without summaries all of its own (the app's background job on an older journal).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from banker.journal import SCHEMA_VERSION, Journal  # noqa: E402
from banker.report import SUMMARY_VERSION, family_stats  # noqa: E402
from banker.ruleset import load_ruleset  # noqa: E402
from banker.simulate import play_game  # noqa: E402

RULES = ("classic", "brands", "biznes", "classic-short")


def make_journal(path: Path, games: int) -> None:
    """`games` finished games, each applied action by action in one transaction (as `banker import` does)."""
    part = path.with_suffix(".part")
    part.unlink(missing_ok=True)
    with Journal(part) as journal:
        for k in range(games):
            rules = RULES[k % len(RULES)]
            ruleset = load_ruleset(rules)
            players = max(ruleset.players_min, min(ruleset.players_max, 2 + k % 5))
            game, header, _ = play_game(rules, ruleset, players, k, max_turns=120)
            with journal.batch():
                live = journal.start(header)
                for action in game.script:
                    live.apply(action)
            assert live.status == "finished"
        assert journal.missing_summaries() == []
    part.rename(path)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def run_stats(path: Path) -> tuple[float, dict[str, Any]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "banker", "stats", str(path), "--json"], capture_output=True,
                         text=True, env=env, check=True)
    return time.perf_counter() - t0, json.loads(out.stdout)


def in_process(path: Path) -> float:
    t0 = time.perf_counter()
    with Journal(path, create=False, write=False) as journal:
        family_stats(journal)
    return time.perf_counter() - t0


def summary_row(name: str, values: list[float]) -> dict[str, Any]:
    return {"journal": name, "runs": len(values), "p50_s": round(statistics.median(values), 3),
            "p99_s": round(percentile(values, 0.99), 3), "max_s": round(max(values), 3)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=10, help="runs of the command on the journal with summaries")
    parser.add_argument("--replayed-runs", type=int, default=3, help="runs on the journal without them (slow)")
    parser.add_argument("--dir", help="where the journals are kept (default: under the temporary folder)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    folder = Path(args.dir) if args.dir else Path(tempfile.gettempdir()) / "banker-bench-stats"
    folder.mkdir(parents=True, exist_ok=True)
    stored = folder / f"stats-{args.games}-schema{SCHEMA_VERSION}-summary{SUMMARY_VERSION}.sqlite3"
    made = 0.0
    if not stored.exists():
        t0 = time.perf_counter()
        make_journal(stored, args.games)
        made = time.perf_counter() - t0
    bare = folder / "without-summaries.sqlite3"
    bare.unlink(missing_ok=True)
    shutil.copyfile(stored, bare)
    with Journal(bare) as journal:
        journal.db.execute("DELETE FROM summaries")
        finished = len(journal.missing_summaries())
    times: dict[str, list[float]] = {"summaries stored": [], "no summaries (replayed)": []}
    results = {}
    for k in range(max(args.runs, args.replayed_runs)):  # the two journals alternating
        if k < args.runs:
            seconds, results["stored"] = run_stats(stored)
            times["summaries stored"].append(seconds)
        if k < args.replayed_runs:
            seconds, results["bare"] = run_stats(bare)
            times["no summaries (replayed)"].append(seconds)
    assert results["stored"] == results["bare"], "the two journals' histories differ"
    assert results["stored"]["games"] == args.games
    process = [in_process(stored) for _ in range(args.runs)]
    with Journal(bare) as journal:
        t0 = time.perf_counter()
        filled = journal.fill_summaries()
        fill_seconds = time.perf_counter() - t0
    assert filled == finished
    bare.unlink()
    report = {
        "games": args.games,
        "journal_mb": round(stored.stat().st_size / 1e6, 1),
        "made_s": round(made, 1) if made else None,
        "banker_stats": [summary_row(name, values) for name, values in times.items()],
        "family_stats_in_process": summary_row("summaries stored", process),
        "fill_summaries_s": round(fill_seconds, 1),
    }
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    print(f"{args.games} finished games, journal {report['journal_mb']} MB"
          + (f" (made in {made:.0f} s)" if made else ""))
    print(f"{'banker stats --json':28} {'runs':>4} {'p50 s':>7} {'p99 s':>7} {'max s':>7}")
    for row in report["banker_stats"]:
        print(f"{row['journal']:28} {row['runs']:>4} {row['p50_s']:>7} {row['p99_s']:>7} {row['max_s']:>7}")
    row = report["family_stats_in_process"]
    print(f"{'family_stats() in process':28} {row['runs']:>4} {row['p50_s']:>7} {row['p99_s']:>7} {row['max_s']:>7}")
    print(f"fill_summaries on the journal without them: {fill_seconds:.1f} s for {filled} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
