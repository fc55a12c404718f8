"""Undo's cost: a long game's script replayed, then the same script followed by as many undos.

Issue 17 found that 2,000 actions followed by 2,000 undos took 7 to 9 seconds
to replay and twice that 42: every undo played the whole history again. Now a
run of undos plays each action about once (banker/kernel.py, "Going back"), so the undos of a
game should cost about what the game itself does. For each size N this plays
a computer game of `--rules` (biznes by default: its games are long) to at
least N actions, writes its first N actions as a game script, and times
`banker replay`'s path (`banker.script.replay_text`, in this process) on

- the script alone (the game), and
- the script followed by N undos (the game, then every action taken back),

best of `--rounds`, and each undo on its own (the tail: p50, p99, the maximum).

    .venv/bin/python benchmarks/bench_undo.py --sizes 2000 4000
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from banker.game import Game
from banker.ruleset import load_ruleset
from banker.script import replay_text, script_lines
from banker.simulate import play_game


def long_script(rules: str, actions: int) -> list[str]:
    """A game script of exactly `actions` actions from a computer game (seeds tried in turn)."""
    ruleset = load_ruleset(rules)
    for seed in range(1000):
        game, header, _how = play_game(rules, ruleset, players=4, seed=seed, max_turns=20000)
        if len(game.history) >= actions:
            return script_lines(header, game.history[:actions])
    raise SystemExit(f"bench_undo: no {rules} game of {actions} actions in 1000 seeds")


def timed_replay(text: str) -> tuple[float, Game]:
    start = time.perf_counter()
    result = replay_text(text)
    seconds = time.perf_counter() - start
    if result.error is not None or result.game is None:
        raise SystemExit(f"bench_undo: the script was refused: {result.error}")
    return seconds, result.game


def measure(rules: str, size: int, rounds: int) -> dict[str, Any]:
    lines = long_script(rules, size)
    game_text = "\n".join(lines) + "\n"
    undo_text = game_text + '{"do": "undo"}\n' * size
    game_best = min(timed_replay(game_text)[0] for _ in range(rounds))
    both_best = min(timed_replay(undo_text)[0] for _ in range(rounds))
    _, game = timed_replay(game_text)
    each = []
    for _ in range(size):
        start = time.perf_counter()
        game.apply({"do": "undo"})
        each.append(time.perf_counter() - start)
    assert not game.history
    each.sort()
    undos = both_best - game_best
    return {"rules": rules, "actions": size, "script_bytes": len(undo_text.encode()),
            "game_seconds": round(game_best, 3), "game_and_undos_seconds": round(both_best, 3),
            "undos_seconds": round(undos, 3), "undos_over_game": round(undos / game_best, 2),
            "undo_ms": {"p50": round(1000 * statistics.median(each), 3),
                        "p99": round(1000 * each[int(0.99 * (len(each) - 1))], 3),
                        "max": round(1000 * each[-1], 3)}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="biznes")
    parser.add_argument("--sizes", type=int, nargs="+", default=[2000, 4000])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.rounds < 1 or any(n < 1 for n in args.sizes):
        parser.error("--rounds and every size must be at least 1")
    results = [measure(args.rules, n, args.rounds) for n in args.sizes]
    if args.json:
        print(json.dumps({"python": sys.version.split()[0], "results": results}))
        return 0
    for r in results:
        u = r["undo_ms"]
        print(f"{r['rules']} {r['actions']} actions ({r['script_bytes']:,} bytes with the undos): game "
              f"{r['game_seconds']:.3f} s, game and {r['actions']} undos {r['game_and_undos_seconds']:.3f} s, "
              f"the undos {r['undos_seconds']:.3f} s ({r['undos_over_game']}x the game); one undo p50 "
              f"{u['p50']} ms, p99 {u['p99']} ms, max {u['max']} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
