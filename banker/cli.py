"""`banker`: the one command.

    banker --version
    banker rules [NAME|FILE|EDITION] [--json]
    banker replay FILE [--json]
    banker simulate --rules NAME --games N --players P --seed S [--json] [--save-scripts DIR]
    banker replay FILE --journal DB [--progress]
    banker import FILE [--journal DB]
    banker games|export|state|undo|finish|delete [DB] [--game ID]
    banker tags list [--json] | export | import FILE

`banker hw ...` (hardware/cli.py), `banker app` (ui/cli.py) and `banker tags ...`
(ui/tagscli.py) come from the project's other packages: they are found by module
name and imported only when asked for, so the engine's own commands never load
Kivy, pyserial or gpiozero, and banker/ has no import of hardware/ or ui/.

Every number on the command line is checked as argparse reads it (`whole_number`, `seconds`: argparse types
of banker/outside.py, which hardware/cli.py and ui/cli.py use too), and every refusal of the command line is
one line and exit status 2, with no usage block: `banker simulate: --games: must be a whole number from 1 to
1000000, not "x"`. The bounds are in each option's help and in docs/hardware.md ("Limits").
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from banker.errors import ActionError, RulesetError, SetupError
from banker.game import Game
from banker.game_setup import game_options
from banker.limits import MAX_INT
from banker.options import DECLARED, HOUSE_RULES, OptionError
from banker.outside import escape_text, whole_number
from banker.ruleset import Ruleset, builtin_names, load_ruleset

if TYPE_CHECKING:
    from banker.journal import Journal, JournaledGame
    from banker.script import Header, ReplayResult


# ----------------------------------------------------------------------
# Checking the command line: every refusal one line

MAX_GAMES = 1_000_000  # banker simulate --games
MAX_TURNS = 1_000_000  # banker simulate --max-turns
PLAYERS_RANGE = (2, 8)  # banker simulate --players: what any ruleset may allow (its own range is checked after)
MAX_GAME_ID = 2**63 - 1  # --game: the largest id SQLite can store
MAX_UNDO_STEPS = MAX_INT  # undo --steps (the journal then says how many the game has)


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a refusal is one line naming the command and the option, then exit status 2:
    `banker simulate: --games: must be a whole number from 1 to 1000000, not "x"`. Sub-commands'
    parsers (the plugins' too) are of this class, as argparse makes them of their parent's."""

    def error(self, message: str) -> NoReturn:
        message = re.sub(r"^argument ([^:]+): ", r"\1: ", message)  # "argument --games: ..." -> "--games: ..."
        self.exit(2, f"{escape_text(self.prog, 100)}: {escape_text(message, 300)}\n")


class VersionAction(argparse.Action):
    """`banker --version`: this installation's version line (banker/version.py), then exit. Looked up only when
    asked for, so that the other commands never read the installation's metadata."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        from banker.version import version_line

        print(version_line())
        parser.exit(0)


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="banker", description="Board Banker: the electronic banker.")
    parser.add_argument("--version", action=VersionAction,
                        help="print the version, and the commit it was built from (board-banker 0.2.0 (git abc1234))")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    rules = sub.add_parser("rules", help="list the rulesets and the family's editions, or show one")
    rules.add_argument("name", nargs="?", help="a ruleset name, a ruleset file or an edition's name")
    rules.add_argument("--json", action="store_true", help="print the full ruleset data as JSON")

    replay = sub.add_parser("replay", help="apply a game script and print where the game stands")
    replay.add_argument("file", help="the game script")
    replay.add_argument("--json", action="store_true", help="print the state as JSON")
    replay.add_argument("--journal", metavar="DB", help="journal the game into this file, one transaction per action")
    replay.add_argument("--progress", action="store_true",
                        help="with --journal: write 'committed N' to standard error after each commit")

    imp = sub.add_parser("import", help="add a game script (e.g. from banker export) to a journal as a new game")
    imp.add_argument("file", help="the game script")
    imp.add_argument("--journal", metavar="DB", default=None,
                     help="the journal file (default: the one the app uses)")

    journal_help = "the journal file (default: %(default)s)"
    games = sub.add_parser("games", help="list the games in a journal")
    games.add_argument("db", nargs="?", default=None, help=journal_help)
    games.add_argument("--json", action="store_true")

    export = sub.add_parser("export", help="print a journaled game as a game script")
    export.add_argument("db", nargs="?", default=None, help=journal_help)
    export.add_argument("--game", type=whole_number(1, MAX_GAME_ID), help="the game's id (default: the latest game)")

    show = sub.add_parser("state", help="resume a journaled game and print where it stands")
    show.add_argument("db", nargs="?", default=None, help=journal_help)
    show.add_argument("--game", type=whole_number(1, MAX_GAME_ID), help="the game's id (default: the game the app would resume)")
    show.add_argument("--json", action="store_true")

    report = sub.add_parser("report", help="how a journaled game went: who received and paid what, its best street, "
                                           "its largest payment, the ranking")
    report.add_argument("db", nargs="?", default=None, help=journal_help)
    report.add_argument("--game", type=whole_number(1, MAX_GAME_ID),
                        help="the game's id (default: the game `banker state` shows)")
    report.add_argument("--json", action="store_true")

    stats = sub.add_parser("stats", help="the family's history over a journal's finished games")
    stats.add_argument("db", nargs="?", default=None, help=journal_help)
    stats.add_argument("--json", action="store_true")

    undo = sub.add_parser("undo", help="take back the latest actions of a journaled game")
    undo.add_argument("db", nargs="?", default=None, help=journal_help)
    undo.add_argument("--game", type=whole_number(1, MAX_GAME_ID), help="the game's id (default: the game the app would resume)")
    undo.add_argument("--steps", type=whole_number(), default=1,
                      help=f"how many actions, 1 to {MAX_UNDO_STEPS} (default 1)")

    finish = sub.add_parser("finish", help="end a journaled game now: the richest by net worth wins")
    finish.add_argument("db", nargs="?", default=None, help=journal_help)
    finish.add_argument("--game", type=whole_number(1, MAX_GAME_ID), help="the game's id (default: the game the app would resume)")

    delete = sub.add_parser("delete", help="delete a whole game from a journal")
    delete.add_argument("db", nargs="?", default=None, help=journal_help)
    delete.add_argument("--game", type=whole_number(1, MAX_GAME_ID), required=True, help="the game's id")
    delete.add_argument("--yes", action="store_true", help="confirm: the game cannot be brought back")

    sim = sub.add_parser("simulate", help="play whole games between computer players")
    sim.add_argument("--rules", default="classic", help="ruleset name or file (default classic)")
    sim.add_argument("--games", type=whole_number(1, MAX_GAMES), default=10,
                     help=f"how many games, 1 to {MAX_GAMES} (default 10)")
    sim.add_argument("--players", type=whole_number(*PLAYERS_RANGE), default=4,
                     help="players per game, 2 to 8 and within the ruleset's range (default 4)")
    sim.add_argument("--seed", type=whole_number(0, MAX_INT), default=0,
                     help=f"seed of the first game, 0 to {MAX_INT} (default 0); game k has seed + k")
    sim.add_argument("--max-turns", type=whole_number(1, MAX_TURNS), default=1000,
                     help=f"end a game that lasts longer than this many turns, 1 to {MAX_TURNS} (default 1000)")
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.add_argument("--save-scripts", metavar="DIR", help="write each game as a game script into DIR")
    sim.add_argument("--checked", action="store_true",
                     help="re-check every computer move through Game.apply (slower; same games)")
    sim.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                     help="play with this option (any of docs/rulesets.md, such as the house rules: "
                          f"{', '.join(HOUSE_RULES)}), e.g. snake_eyes_bonus=500 or buy_after_first_lap=true; "
                          "may be given again for another option")
    return parser


# Commands other packages of the project add: name -> module with
# register(subparsers) and run(args) -> exit status.
PLUGINS = {"hw": "hardware.cli", "app": "ui.cli", "tags": "ui.tagscli"}


def _plugin(name: str) -> Any:
    try:
        return importlib.import_module(PLUGINS[name])
    except ModuleNotFoundError as exc:
        if exc.name and PLUGINS[name].startswith(exc.name.split(".")[0]):
            return None  # that part of the product is not installed here
        raise


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader went away (`banker rules classic | head`): stop quietly, as Unix tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


def _main(argv: Sequence[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name in PLUGINS:
        try:
            plugin = _plugin(name) if argv[:1] == [name] else None
        except ModuleNotFoundError as exc:
            print(f"banker {name}: needs the Python package {exc.name!r}; install with ./scripts/run.sh",
                  file=sys.stderr)
            return 2
        if plugin is not None:
            plugin.register(sub)
        elif argv[:1] == [name]:
            print(f"banker {name}: not available in this installation", file=sys.stderr)
            return 2
        else:
            sub.add_parser(name, help={"hw": "card readers and the dice button: ports, cards, dice, emulate",
                                       "app": "start the touchscreen app",
                                       "tags": "the family's tagged deeds and cards: list, export, import"}[name],
                           add_help=False)
    args = parser.parse_args(argv)
    if args.command in PLUGINS:
        return int(_plugin(args.command).run(args))
    if args.command == "rules":
        return cmd_rules(args)
    if args.command == "replay":
        return cmd_replay(args)
    if args.command == "import":
        return cmd_import(args)
    if args.command == "simulate":
        return cmd_simulate(args)
    if args.command in ("games", "export", "state", "report", "stats", "undo", "finish", "delete"):
        return cmd_journal(args)
    parser.print_help()
    return 0 if args.command is None else 2


def cmd_rules(args: argparse.Namespace) -> int:
    if args.name is None:
        from banker.editions import folder_problem, list_editions

        entries: list[dict[str, str]] = [{**_summary(n), "kind": "shipped"} for n in builtin_names()]
        problem = folder_problem()  # said once below; the listing is then empty
        editions = list_editions() if problem is None else []
        # The editions that load, then the broken ones with their reason.
        for e in sorted(editions, key=lambda e: e.problem is not None):
            entry = {"name": e.name, "title": e.title, "description": e.description, "kind": "edition"}
            entries.append(entry if e.problem is None else {**entry, "problem": e.problem})
        if args.json:
            print(json.dumps(entries, ensure_ascii=False, indent=2))
        else:
            for s in entries:
                if s["kind"] == "shipped":
                    print(f"{s['name']:16} {s['title']}: {s['description']}")
                elif "problem" in s:  # an edition's texts are the family's: printed on one line each
                    print(f"{escape_text(s['name']):16} (edition, broken) {escape_text(s['problem'])}")
                else:
                    about = f": {escape_text(s['description'])}" if s["description"] else ""
                    print(f"{escape_text(s['name']):16} (edition) {escape_text(s['title'])}{about}")
        if problem is not None:
            print(f"banker rules: {problem}", file=sys.stderr)
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
    print("options: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in ruleset.options.to_dict().items()))
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

    if args.journal is None:
        result = replay_file(args.file)
    else:
        from banker.journal import Journal, JournalError

        try:
            journal = Journal(args.journal)
        except JournalError as exc:
            print(str(exc), file=sys.stderr)
            return 2
        on_action = None
        if args.progress:
            def on_action(game: Game, action: object) -> None:
                print(f"committed {len(game.script) - 1}", file=sys.stderr, flush=True)
        with journal:
            result, _ = _replay_into(journal, args.file, on_action)
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


def _replay_into(journal: Journal, path: str, on_action: Any = None) -> tuple[ReplayResult, int | None]:
    """Replay a game script into the journal as a new game, committing each action as it goes.

    Returns the replay's result and the new game's id (None when the header was refused and no game was made).
    """
    from banker.script import replay_file

    made: list[JournaledGame] = []

    def begin(header: Header, ruleset: Ruleset) -> JournaledGame:
        live = journal.start(header, ruleset)
        made.append(live)
        return live

    result = replay_file(path, on_action=on_action, begin=begin)
    return result, (made[0].id if made else None)


def cmd_import(args: argparse.Namespace) -> int:
    """`banker import FILE`: the game as a new game of the journal, every action checked.

    The whole import is one transaction: a refused line, a failure of any kind or a power cut half-way
    leaves nothing behind (no game, hidden or not), and the app never sees a half-imported game.
    """
    from banker.journal import Journal, JournalError, default_path

    path = args.journal if args.journal is not None else str(default_path())
    try:
        with Journal(path) as journal:
            try:
                with journal.batch():
                    result, game_id = _replay_into(journal, args.file)
                    if result.error is not None:
                        raise _ImportRefused()  # roll the whole import back
            except _ImportRefused:
                assert result.error is not None
                print(str(result.error), file=sys.stderr)
                return result.error.status
    except JournalError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    print(game_id)
    return 0


class _ImportRefused(Exception):
    """Raised inside the import's transaction to roll it back (the reason is the replay's error)."""


def cmd_journal(args: argparse.Namespace) -> int:
    from banker.journal import Journal, JournalError, UndoRefused, default_path
    from banker.script import describe

    path = args.db if args.db is not None else str(default_path())
    if args.command == "undo" and args.steps < 1:  # refused before the journal is even opened
        print(f"banker undo: --steps must be at least 1, not {args.steps}; nothing was undone", file=sys.stderr)
        return 2
    if args.command == "undo" and args.steps > MAX_UNDO_STEPS:
        print(f"banker undo: --steps must be at most {MAX_UNDO_STEPS}, not {args.steps}; nothing was undone",
              file=sys.stderr)
        return 2
    reading = args.command in ("games", "export", "state", "report", "stats")  # these never write to the journal
    try:
        with Journal(path, create=False, write=not reading) as journal:
            if args.command == "games":
                infos = journal.games(replay=True)  # a count only for a game that loads, as `state` would
                if args.json:
                    print(json.dumps([i.to_json() for i in infos], ensure_ascii=False))
                elif not infos:
                    print(f"no games in {path}")
                else:
                    import datetime

                    for i in infos:
                        when = datetime.datetime.fromtimestamp(i.updated).strftime("%Y-%m-%d %H:%M")
                        if i.damage is not None:
                            print(f"{i.id:4}  damaged   {when}  {i.damage}")
                        else:
                            print(f"{i.id:4}  {i.status:8}  {i.rules:14}  {i.actions:6} actions  {when}  "
                                  + ", ".join(i.players))
                return 0
            if args.command == "stats":
                from banker.report import family_stats

                summary = family_stats(journal)
                print(json.dumps(summary, ensure_ascii=False) if args.json else describe_stats(summary))
                return 0
            game_id = args.game
            if game_id is None:
                ids = journal.game_ids()
                game_id = (journal.latest_active() if args.command in ("state", "report", "undo", "finish")
                           else None)
                if game_id is None and ids:
                    game_id = ids[-1]
                if game_id is None:
                    print(f"no games in {path}", file=sys.stderr)
                    return 1
            if args.command == "export":
                print("\n".join(journal.export(game_id)))
            elif args.command == "state":
                state = journal.load(game_id).game.to_json()
                print(json.dumps(state, ensure_ascii=False) if args.json else describe(state))
            elif args.command == "report":
                from banker.report import journal_report

                found = journal_report(journal, game_id)
                print(json.dumps(found, ensure_ascii=False) if args.json else describe_report(found))
            elif args.command == "undo":
                live = journal.load(game_id)
                live.undo(args.steps)
                print(describe(live.game.to_json()))
            elif args.command == "finish":
                live = journal.load(game_id)
                if not live.game.ended:
                    live.apply({"do": "end_game"})
                print(describe(live.game.to_json()))
            elif args.command == "delete":
                if not args.yes:
                    print(f"this deletes game {game_id} for good; add --yes to confirm", file=sys.stderr)
                    return 1
                journal.delete_game(game_id)
                print(f"deleted game {game_id}")
    except JournalError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except (UndoRefused, ActionError) as exc:  # e.g. more steps than there are actions to take back
        print(str(exc), file=sys.stderr)
        return 1
    return 0


def option_values(pairs: Sequence[str]) -> dict[str, int | bool]:
    """`--option NAME=VALUE` pairs as a game's options, each read as its declaration says (banker/options.py:
    true or false, or a whole number in its range); ValueError (an OptionError naming the option) if not."""
    chosen: dict[str, int | bool] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        name = name.strip()
        if not sep or not name:
            raise ValueError(f"--option takes NAME=VALUE, not {pair!r}")
        option = DECLARED.get(name)
        if option is None:
            raise OptionError(name, "unknown option", unknown=True)
        chosen[name] = option.parse(text)
    return chosen


def describe_report(report: dict[str, Any]) -> str:
    """`banker report` as lines to read (`--json` gives every field)."""
    minutes = report["minutes"]
    length = f"{report['turns']} turns" + (f", {minutes:g} minutes" if minutes is not None else "")
    winner = report["winner"]
    won = ", ".join(winner) if isinstance(winner, list) else winner
    lines = [f"game {report['game']} ({report['rules']}, {report['status']}): {length}"
             + (f"; won by {won}" if won else "")]
    for p in report["players"]:
        lines.append(f"{p['rank']}. {p['name']}: cash {p['cash_start']} -> {p['cash_end']}, net worth {p['net_worth']}")
        if p["received"]:
            lines.append("   received: " + ", ".join(f"{k} {v}" for k, v in p["received"].items()))
        if p["paid"]:
            lines.append("   paid: " + ", ".join(f"{k} {v}" for k, v in p["paid"].items()))
        if p["best_property"]:
            lines.append(f"   best street: {p['best_property']['space']} ({p['best_property']['rent']} in rent)")
        if p["biggest_payment"]:
            b = p["biggest_payment"]
            lines.append(f"   largest payment: {b['amount']} to {b['to']} ({b['kind']}, turn {b['turn']})")
    return "\n".join(lines)


def describe_stats(stats: dict[str, Any]) -> str:
    """`banker stats` as lines to read (`--json` gives every field)."""
    lines = [f"finished games: {stats['games']}"]
    if stats["rulesets"]:
        lines.append("rulesets: " + ", ".join(f"{k} {v}" for k, v in stats["rulesets"].items()))
    for label in ("longest_game", "shortest_game"):
        g = stats[label]
        if g is not None:
            minutes = f", {g['minutes']:g} minutes" if g["minutes"] is not None else ""
            lines.append(f"{label.replace('_', ' ')}: game {g['game']}, {g['turns']} turns{minutes}")
    for p in stats["players"]:
        lines.append(f"{p['name']}: {p['wins']} wins in {p['games']} games ({p['win_rate']:.0%}), "
                     f"rent collected {p['rent_collected']}, best game {p['best_game']['game']} "
                     f"(net worth {p['best_game']['net_worth']})")
    for d in stats["damaged"]:
        lines.append(f"damaged game {d['game']}: {d['reason']}")
    return "\n".join(lines)


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
    try:
        options = option_values(args.option)
        game_options(ruleset, options, args.players)  # each option known, in its range, sensible on this board
    except (ValueError, SetupError) as exc:
        print(f"banker simulate: {exc}", file=sys.stderr)
        return 2
    summary = simulate(args.rules, ruleset, games=args.games, players=args.players, seed=args.seed,
                       max_turns=args.max_turns, save_dir=args.save_scripts, checked=args.checked, options=options)
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        print(f"games: {summary['games']}")
        print(f"dice rolls: {summary['rolls']} ({summary['rolls_per_second']:.0f} per second)")
        print(f"actions: {summary['actions']}")
        print("ended: " + ", ".join(f"{k} {v}" for k, v in sorted(summary["ended"].items())))
        print(f"seconds: {summary['seconds']:.3f}")
    return 0
