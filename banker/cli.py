"""`banker`: the one command.

    banker rules [NAME|FILE] [--json]
    banker replay FILE [--json]
    banker simulate --rules NAME --games N --players P --seed S [--json] [--save-scripts DIR]

Later issues add `banker app`, `banker hw ...`, `banker export` and
`banker games`; they are loaded lazily so that the engine's commands never
import Kivy or the hardware libraries.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from banker.errors import RulesetError
from banker.ruleset import builtin_names, load_ruleset


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="banker", description="Board Banker: the electronic banker.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    rules = sub.add_parser("rules", help="list the rulesets, or show one")
    rules.add_argument("name", nargs="?", help="a ruleset name or a ruleset file")
    rules.add_argument("--json", action="store_true", help="print the full ruleset data as JSON")

    replay = sub.add_parser("replay", help="apply a game script and print where the game stands")
    replay.add_argument("file", help="the game script")
    replay.add_argument("--json", action="store_true", help="print the state as JSON")

    sim = sub.add_parser("simulate", help="play whole games between computer players")
    sim.add_argument("--rules", default="classic", help="ruleset name or file (default classic)")
    sim.add_argument("--games", type=int, default=10, help="how many games (default 10)")
    sim.add_argument("--players", type=int, default=4, help="players per game (default 4)")
    sim.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    sim.add_argument("--max-turns", type=int, default=1000,
                     help="end a game that lasts longer than this many turns (default 1000)")
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.add_argument("--save-scripts", metavar="DIR", help="write each game as a game script into DIR")
    sim.add_argument("--checked", action="store_true",
                     help="re-check every computer move through Game.apply (slower; same games)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "rules":
        return cmd_rules(args)
    if args.command == "replay":
        return cmd_replay(args)
    if args.command == "simulate":
        return cmd_simulate(args)
    parser.print_help()
    return 0 if args.command is None else 2


def cmd_rules(args: argparse.Namespace) -> int:
    if args.name is None:
        names = builtin_names()
        if args.json:
            print(json.dumps([_summary(n) for n in names], ensure_ascii=False, indent=2))
        else:
            for n in names:
                s = _summary(n)
                print(f"{n:16} {s['title']}: {s['description']}")
        return 0
    try:
        ruleset = load_ruleset(args.name)
    except RulesetError as exc:
        print(f"banker rules: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(ruleset.to_json(), ensure_ascii=False, indent=2))
        return 0
    print(f"{ruleset.name}: {ruleset.title}")
    print(ruleset.description)
    print(f"players {ruleset.players_min}-{ruleset.players_max}, {ruleset.dice} dice")
    print("options: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in ruleset.options.items()))
    for space in ruleset.spaces:
        price = f" {space.price}" if space.is_property else ""
        group = f" [{space.group}]" if space.group else ""
        print(f"{space.index:3} {space.name}{group}{price}")
    return 0


def _summary(name: str) -> dict[str, str]:
    r = load_ruleset(name)
    return {"name": r.name, "title": r.title, "description": r.description}


def cmd_replay(args: argparse.Namespace) -> int:
    from banker.script import describe, replay_file

    result = replay_file(args.file)
    state = result.state
    if state is not None:
        if args.json:
            print(json.dumps(state, ensure_ascii=False))
        else:
            print(describe(state))
    if result.error is not None:
        print(str(result.error), file=sys.stderr)
        return result.error.status
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from banker.simulate import simulate

    for name, value in (("--games", args.games), ("--players", args.players), ("--max-turns", args.max_turns)):
        if value < 1:
            print(f"banker simulate: {name} must be at least 1", file=sys.stderr)
            return 2
    try:
        ruleset = load_ruleset(args.rules)
    except RulesetError as exc:
        print(f"banker simulate: {exc}", file=sys.stderr)
        return 2
    if not ruleset.players_min <= args.players <= ruleset.players_max:
        print(f"banker simulate: {ruleset.name} takes {ruleset.players_min} to {ruleset.players_max} players",
              file=sys.stderr)
        return 2
    summary = simulate(args.rules, ruleset, games=args.games, players=args.players, seed=args.seed,
                       max_turns=args.max_turns, save_dir=args.save_scripts, checked=args.checked)
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        print(f"games: {summary['games']}")
        print(f"dice rolls: {summary['rolls']} ({summary['rolls_per_second']:.0f} per second)")
        print(f"actions: {summary['actions']}")
        print("ended: " + ", ".join(f"{k} {v}" for k, v in sorted(summary["ended"].items())))
        print(f"seconds: {summary['seconds']:.3f}")
    return 0
