"""Engine speed: 4-player classic games per second and dice rolls per second, one core.

Every rule is on (auctions, buildings and the house pool, mortgages, trades,
debts, bankruptcies), computer players included, exactly as `banker simulate`
plays them. Run it pinned to one core, from outside the checkout so that the installed
(compiled) engine is the one measured:

    cd /tmp && taskset -c 0 ~/board-banker/.venv/bin/python ~/board-banker/benchmarks/bench_engine.py

From the checkout with PYTHONPATH=. it measures the pure-Python source.

It prints the best of several rounds for the two ways `banker simulate` can
drive the engine: `fast` (the default: the computer players' moves go to the
engine's unchecked core, `Game.push`) and `checked` (`--checked`: every move
through `Game.apply`, re-checked by the rules). The tests play the same seeds
both ways and require identical games.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from banker.ruleset import load_ruleset
from banker.simulate import simulate


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300, help="games per round (default 300)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds; the best one counts (default 5)")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    ruleset = load_ruleset(args.rules)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    results = {}
    for mode, checked in (("fast", False), ("checked", True)):
        best = None
        for r in range(args.rounds):
            s = simulate(args.rules, ruleset, games=args.games, players=4, seed=1000 * r, checked=checked)
            if best is None or s["rolls_per_second"] > best["rolls_per_second"]:
                best = s
        assert best is not None
        results[mode] = {
            "games_per_second": round(best["games_per_second"], 1),
            "rolls_per_second": round(best["rolls_per_second"]),
            "actions_per_second": round(best["actions"] / best["seconds"]),
            "rolls_per_game": round(best["rolls"] / best["games"], 1),
        }
    import banker.game

    engine = "compiled (mypyc)" if not banker.game.__file__.endswith(".py") else "pure Python"
    report = {"python": sys.version.split()[0], "engine": engine, "cores_allowed": cores, "rules": args.rules,
              "games_per_round": args.games, "results": results}
    if args.json:
        print(json.dumps(report))
    else:
        print(f"python {report['python']}, {engine} engine, cores allowed: {cores}, {args.rules}, 4 players, "
              f"best of {args.rounds} rounds of {args.games} games")
        for mode, r in results.items():
            print(f"  {mode:8} {r['games_per_second']:8.1f} games/s  {r['rolls_per_second']:8d} rolls/s  "
                  f"{r['actions_per_second']:8d} actions/s  ({r['rolls_per_game']} rolls a game)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
