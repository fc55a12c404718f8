"""Golden traces: what the engine does, hashed, so a change of its layout can be proven to change nothing.

For every shipped ruleset: 50 games between the computer players (`banker simulate`'s player, every action
through the checked entry point, events recorded) and 10 random legal games of the property tests (with
refused probes and undos), each with its seed. A game's trace is the hashes of its game script, its money
log, the events it showed and its final state (`banker replay --json`). They are recorded in
tests/golden/traces.json, and test_golden.py plays them again and compares.

    .venv-test/bin/python tests/golden.py            # compare, and print the games whose traces differ
    .venv-test/bin/python tests/golden.py --write    # record (only for a rule change, in a commit of its own)

It plays the installed engine (scripts/test.sh's .venv-test); `PYTHONPATH=. .venv/bin/python tests/golden.py`
plays the checkout's sources instead.

A rule that is meant to change (a mended rule) is recorded with `--write` in a commit of its own, naming
the rule and the games whose traces it changed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # randomplay, beside this file

from banker.game import Game
from banker.ruleset import builtin_names, load_ruleset
from banker.simulate import play_game
from randomplay import play_random_game

TRACES = Path(__file__).resolve().parent / "golden" / "traces.json"
AI_GAMES = 50
RANDOM_GAMES = 10
MAX_TURNS = 300  # a long game ends by the turn cap (end_game), as `banker simulate` ends it


def digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


def trace(game: Game) -> dict[str, Any]:
    return {
        "actions": len(game.script),
        "script": digest(game.script),
        "money": digest([e.to_json() for e in game.money_log()]),
        "events": digest([[code, params] for code, params in game.events]),
        "state": digest(game.to_json()),
    }


def players_for(rules: str, seed: int) -> int:
    """Every player count the ruleset allows, in turn (teams: always four)."""
    ruleset = load_ruleset(rules)
    low, high = ruleset.players_min, ruleset.players_max
    if ruleset.options.teams:
        return 4
    return low + seed % (high - low + 1)


def ai_game(rules: str, seed: int) -> dict[str, Any]:
    game, _, reason = play_game(rules, load_ruleset(rules), players_for(rules, seed), seed, MAX_TURNS,
                                observe=lambda game, action: None, checked=True)  # observed: events recorded
    return {**trace(game), "ended": reason}


def random_game(rules: str, seed: int) -> dict[str, Any]:
    ruleset = load_ruleset(rules)
    players = 4 if ruleset.options.teams else min(4, ruleset.players_max)
    return trace(play_random_game(rules, ruleset, seed, players=players))


def record() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for rules in builtin_names():
        out[rules] = {
            "ai": {str(seed): ai_game(rules, seed) for seed in range(AI_GAMES)},
            "random": {str(seed): random_game(rules, seed) for seed in range(RANDOM_GAMES)},
        }
    return out


def differences(recorded: dict[str, Any], now: dict[str, Any]) -> list[str]:
    found = []
    for rules in sorted(set(recorded) | set(now)):
        for kind in ("ai", "random"):
            was, got = recorded.get(rules, {}).get(kind, {}), now.get(rules, {}).get(kind, {})
            for seed in sorted(set(was) | set(got), key=int):
                if was.get(seed) != got.get(seed):
                    parts = [k for k in sorted(set(was.get(seed, {})) | set(got.get(seed, {})))
                             if was.get(seed, {}).get(k) != got.get(seed, {}).get(k)]
                    found.append(f"{rules} {kind} seed {seed}: {', '.join(parts)} differ")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="record the traces (a rule change only)")
    args = parser.parse_args()
    now = record()
    if args.write:
        TRACES.parent.mkdir(exist_ok=True)
        TRACES.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n", "utf-8")
        print(f"recorded {sum(len(v['ai']) + len(v['random']) for v in now.values())} games in {TRACES}")
        return 0
    found = differences(json.loads(TRACES.read_text("utf-8")), now)
    for line in found:
        print(line)
    print(f"{len(found)} games differ")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
