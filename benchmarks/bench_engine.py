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
both ways and require identical games. `--rules` may be given more than once
(default: classic); each ruleset gets its own report.

Before and after in the same run (`--against REV`, any git revision):

    .venv/bin/python benchmarks/bench_engine.py --against HEAD~5 --rules classic --rules brands --rounds 5 --games 100

compares this checkout's engine (the working tree of the repository this file
is in, uncommitted changes included) with REV's. REV is checked out into a
temporary `git worktree add --detach`, removed again at the end (also on an
error or Ctrl-C). Each version runs in a subprocess of its own (this Python,
PYTHONPATH set to that version's root, working directory outside both trees),
so what is compared is the two versions' pure-Python sources, never the
installed compiled engine, and the two engines never share a process. Each
version plays `--rounds` rounds of `--games` games per ruleset and mode, on the
same seeds, the rounds alternating between the versions (this, REV, this,
REV, ...) so that machine noise hits both alike. The report gives, per ruleset
and mode, each version's median, best and worst rolls per second, the ratio of
the medians (this / REV) and whether the median dropped by more than 5%
(`--json`: the same as one JSON object). It also says whether both versions
played the same games (the same rolls and actions on every seed).

Two engines already built (`--engines THIS OTHER`, each a folder holding a
`banker` package: a checkout, or a compiled wheel unpacked with `unzip`):

    .venv/bin/python -m pip wheel --no-deps -w /tmp/new .   # and the same for REV's tree into /tmp/old
    cd /tmp/new && unzip -q *.whl && cd /tmp/old && unzip -q *.whl
    cd /tmp && taskset -c 0 ~/board-banker/.venv/bin/python ~/board-banker/benchmarks/bench_engine.py \
        --engines /tmp/new /tmp/old --rules classic --rules brands --rounds 15 --games 150

runs the same alternating rounds and report on them; this is how the compiled
builds are compared (`--against` compares pure-Python sources only). Where
rounds of one engine vary by more than the 5% the report is about, count
instructions instead: benchmarks/bench_instructions.py.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import IO, Any

MODES = (("fast", False), ("checked", True))
DROP_LIMIT = 0.05  # issue 16: a median may not drop by more than 5%


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300, help="games per round (default 300)")
    parser.add_argument("--rounds", type=int, default=5,
                        help="rounds; the best one counts (default 5); with --against: rounds per version, "
                             "ruleset and mode, the median counts")
    parser.add_argument("--rules", action="append",
                        help="ruleset (default classic); may be given more than once")
    parser.add_argument("--against", metavar="REV",
                        help="also measure git revision REV's engine and compare (see above)")
    parser.add_argument("--engines", nargs=2, metavar=("THIS", "OTHER"), type=Path,
                        help="compare two engines already built (folders holding a banker package; see above)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--worker", metavar="ROOT", help=argparse.SUPPRESS)  # a version's subprocess
    args = parser.parse_args(argv)
    if args.worker:
        return worker(Path(args.worker))
    if args.games < 1 or args.rounds < 1:
        parser.error("--games and --rounds must be at least 1")
    rules: list[str] = args.rules or ["classic"]
    if args.against and args.engines:
        parser.error("--against and --engines compare different things: give one")
    if args.against:
        return compare(args.against, rules, args.rounds, args.games, args.json)
    if args.engines:
        return compare_engines(args.engines[0], args.engines[1], rules, args.rounds, args.games, args.json)
    for name in rules:
        measure(name, args.rounds, args.games, args.json)
    return 0


def cores_allowed() -> int | None:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None


def engine_kind() -> str:
    import banker.game

    return "compiled (mypyc)" if not banker.game.__file__.endswith(".py") else "pure Python"


def measure(rules: str, rounds: int, games: int, as_json: bool) -> None:
    """The benchmark in this process: the best of `rounds` rounds, per mode."""
    from banker.ruleset import load_ruleset
    from banker.simulate import simulate

    ruleset = load_ruleset(rules)
    cores = cores_allowed()
    results: dict[str, dict[str, Any]] = {}
    for mode, checked in MODES:
        best: dict[str, Any] | None = None
        for r in range(rounds):
            s = simulate(rules, ruleset, games=games, players=4, seed=1000 * r, checked=checked)
            if best is None or s["rolls_per_second"] > best["rolls_per_second"]:
                best = s
        assert best is not None
        results[mode] = {
            "games_per_second": round(best["games_per_second"], 1),
            "rolls_per_second": round(best["rolls_per_second"]),
            "actions_per_second": round(best["actions"] / best["seconds"]),
            "rolls_per_game": round(best["rolls"] / best["games"], 1),
        }
    engine = engine_kind()
    report = {"python": sys.version.split()[0], "engine": engine, "cores_allowed": cores, "rules": rules,
              "games_per_round": games, "results": results}
    if as_json:
        print(json.dumps(report))
    else:
        print(f"python {report['python']}, {engine} engine, cores allowed: {cores}, {rules}, 4 players, "
              f"best of {rounds} rounds of {games} games")
        for mode, res in results.items():
            print(f"  {mode:8} {res['games_per_second']:8.1f} games/s  {res['rolls_per_second']:8d} rolls/s  "
                  f"{res['actions_per_second']:8d} actions/s  ({res['rolls_per_game']} rolls a game)")


# --- a version's subprocess -------------------------------------------------------------------

def worker(root: Path) -> int:
    """Serve rounds for the engine under `root`: one JSON request a line on stdin, one JSON answer a line."""
    import banker

    where = Path(banker.__file__).resolve()
    if not where.is_relative_to(root.resolve()):
        print(json.dumps({"error": f"banker was imported from {where}, not from {root}"}), flush=True)
        return 1
    from banker.ruleset import load_ruleset
    from banker.simulate import simulate

    print(json.dumps({"banker": str(where.parent), "engine": engine_kind(),
                      "python": sys.version.split()[0]}), flush=True)
    rulesets: dict[str, Any] = {}
    for line in sys.stdin:
        req = json.loads(line)
        try:
            if req["rules"] not in rulesets:
                rulesets[req["rules"]] = load_ruleset(req["rules"])
            s = simulate(req["rules"], rulesets[req["rules"]], games=req["games"], players=4, seed=req["seed"],
                         checked=req["checked"])
            answer = {k: s[k] for k in ("games", "rolls", "actions", "seconds", "rolls_per_second",
                                        "games_per_second")}
        except Exception:
            answer = {"error": traceback.format_exc()}
        print(json.dumps(answer), flush=True)
    return 0


class Version:
    """One engine's subprocess, fed one round at a time."""

    def __init__(self, label: str, root: Path, cwd: Path) -> None:
        self.label = label
        self.root = root
        self.stderr_path = cwd / f"worker-{id(self)}.stderr"
        self.stderr: IO[bytes] = open(self.stderr_path, "wb")
        env = dict(os.environ, PYTHONPATH=str(root))
        # -P: not this file's folder on sys.path (it is in the checkout); -s: no user site-packages.
        # PYTHONPATH comes before site-packages, so the installed engine stays out; worker() checks.
        self.proc = subprocess.Popen(
            [sys.executable, "-P", "-s", str(Path(__file__).resolve()), "--worker", str(root)],
            cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr,
            text=True, start_new_session=True)  # Ctrl-C reaches the parent only; it ends the workers
        self.info: dict[str, Any] = {}

    def start(self) -> None:
        """Wait for the engine to be imported (and checked to come from `root`)."""
        self.info = self._answer()

    def _answer(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait()
            self.stderr.flush()
            raise RuntimeError(f"{self.label}'s engine ({self.root}) stopped:\n"
                               + self.stderr_path.read_text("utf-8", "replace"))
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"{self.label}'s engine ({self.root}): {answer['error']}")
        return answer

    def round(self, rules: str, games: int, seed: int, checked: bool) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"rules": rules, "games": games, "seed": seed, "checked": checked}) + "\n")
        self.proc.stdin.flush()
        return self._answer()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                pipe.close()
        self.stderr.close()


# --- before and after -------------------------------------------------------------------------

def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"git {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout.strip()


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)  # so that the worktree is removed on a plain `kill` too


def compare(rev: str, rules: list[str], rounds: int, games: int, as_json: bool) -> int:
    if shutil.which("git") is None:
        print("bench_engine: --against needs git", file=sys.stderr)
        return 2
    here = Path(__file__).resolve().parent
    try:
        root = Path(git(here, "rev-parse", "--show-toplevel")).resolve()
        head = git(root, "rev-parse", "HEAD")
        dirty = bool(git(root, "status", "--porcelain", "--untracked-files=all", "--", "banker"))
    except RuntimeError as e:
        print(f"bench_engine: --against needs a git checkout: {e}", file=sys.stderr)
        return 2
    try:
        commit = git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}")
    except RuntimeError:
        print(f"bench_engine: not a commit in {root}: {rev}", file=sys.stderr)
        return 2
    tmp = Path(tempfile.mkdtemp(prefix="bench-engine-"))
    tree = tmp / "rev"
    run_dir = tmp / "run"  # the workers' working directory: in neither tree
    run_dir.mkdir()
    try:
        report = _measure_pair((("this", root), (rev, tree)), run_dir, rules, rounds, games,
                               before=lambda: git(root, "worktree", "add", "--detach", "--quiet", str(tree), commit))
    finally:
        subprocess.run(["git", "-C", str(root), "worktree", "remove", "--force", str(tree)], capture_output=True)
        subprocess.run(["git", "-C", str(root), "worktree", "prune"], capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)
    if isinstance(report, int):
        return report
    report["this"].update({"root": str(root), "head": head, "uncommitted_changes_in_banker": dirty})
    report["against"].update({"rev": rev, "commit": commit, "worktree": str(tree)})
    _show(report, as_json)
    return 0


def compare_engines(this_root: Path, other_root: Path, rules: list[str], rounds: int, games: int,
                    as_json: bool) -> int:
    """Two engines already built, each in its own subprocess, rounds alternating (see the module's doc)."""
    for root in (this_root, other_root):
        if not (root / "banker" / "__init__.py").is_file():
            print(f"bench_engine: {root} holds no banker package (a checkout, or an unpacked wheel)", file=sys.stderr)
            return 2
    run_dir = Path(tempfile.mkdtemp(prefix="bench-engine-"))  # in neither tree
    try:
        report = _measure_pair((("this", this_root.resolve()), (other_root.name or str(other_root),
                                                                 other_root.resolve())), run_dir, rules, rounds, games)
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)
    if isinstance(report, int):
        return report
    report["this"]["root"] = str(this_root.resolve())
    report["against"]["root"] = str(other_root.resolve())
    _show(report, as_json)
    return 0


def _measure_pair(pair: tuple[tuple[str, Path], tuple[str, Path]], run_dir: Path, rules: list[str], rounds: int,
                  games: int, before: Callable[[], Any] | None = None) -> dict[str, Any] | int:
    """Start both engines' workers in `run_dir` (after `before()`) and run the alternating rounds.

    The report, or the exit status after saying what went wrong; the workers are always stopped, also on
    Ctrl-C or a plain `kill` (raised as SystemExit, so that the callers' clean-up runs).
    """
    previous = signal.signal(signal.SIGTERM, _terminate)
    versions: list[Version] = []
    try:
        if before is not None:
            before()
        for label, root in pair:
            versions.append(Version(label, root, run_dir))
            versions[-1].start()
        return run_comparison(versions[0], versions[1], rules, rounds, games)
    except RuntimeError as e:
        print(f"bench_engine: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("bench_engine: interrupted", file=sys.stderr)
        return 130
    finally:
        for v in versions:
            v.close()
        signal.signal(signal.SIGTERM, previous)


def _show(report: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(report))
    else:
        print_comparison(report)


def spread(rolls_per_second: list[float]) -> dict[str, Any]:
    return {"median": round(statistics.median(rolls_per_second)), "best": round(max(rolls_per_second)),
            "worst": round(min(rolls_per_second)), "rounds": [round(x) for x in rolls_per_second]}


def run_comparison(this: Version, other: Version, rules: list[str], rounds: int, games: int) -> dict[str, Any]:
    progress = sys.stderr.isatty()
    results: dict[str, dict[str, Any]] = {}
    for name in rules:
        results[name] = {}
        for mode, checked in MODES:
            speeds: dict[str, list[float]] = {"this": [], "against": []}
            played: dict[str, list[tuple[int, int]]] = {"this": [], "against": []}
            for r in range(rounds):
                for key, v in (("this", this), ("against", other)):  # alternating: this, REV, this, REV, ...
                    s = v.round(name, games, 1000 * r, checked)
                    speeds[key].append(s["rolls_per_second"])
                    played[key].append((s["rolls"], s["actions"]))
                if progress:
                    print(f"  {name} {mode} round {r + 1}/{rounds}: this {speeds['this'][-1]:,.0f}, "
                          f"{other.label} {speeds['against'][-1]:,.0f} rolls/s", file=sys.stderr)
            a, b = spread(speeds["this"]), spread(speeds["against"])
            ratio = a["median"] / b["median"] if b["median"] else float("inf")
            results[name][mode] = {"this": a, "against": b, "ratio": round(ratio, 3),
                                   "dropped_more_than_5_percent": ratio < 1 - DROP_LIMIT,
                                   "same_games": played["this"] == played["against"]}
    dropped = [f"{name} {mode}" for name, modes in results.items() for mode, res in modes.items()
               if res["dropped_more_than_5_percent"]]
    return {"python": sys.version.split()[0], "cores_allowed": cores_allowed(), "players": 4,
            "games_per_round": games, "rounds_per_version": rounds, "drop_limit": DROP_LIMIT,
            "this": dict(this.info), "against": dict(other.info), "results": results, "dropped": dropped}


def print_comparison(report: dict[str, Any]) -> None:
    this, other = report["this"], report["against"]
    label = other.get("rev") or Path(other["root"]).name or "other"
    width = max(len("this"), len(label))
    print(f"python {report['python']}, cores allowed: {report['cores_allowed']}, 4 players, "
          f"{report['rounds_per_version']} rounds of {report['games_per_round']} games per version, ruleset "
          f"and mode, alternating")
    if "rev" in other:  # --against
        state = "with uncommitted changes in banker/" if this["uncommitted_changes_in_banker"] else "clean banker/"
        print(f"  {'this':{width}}  {this['engine']} engine, working tree {this['root']} "
              f"(HEAD {this['head'][:10]}, {state})")
        print(f"  {label:{width}}  {other['engine']} engine, {other['commit'][:10]} (temporary worktree)")
    else:  # --engines
        print(f"  {'this':{width}}  {this['engine']} engine in {this['root']}")
        print(f"  {label:{width}}  {other['engine']} engine in {other['root']}")
    if this["engine"] != other["engine"]:
        print("  warning: the two engines are not the same kind; the comparison is not like for like")
    for name, modes in report["results"].items():
        print(name)
        for mode, res in modes.items():
            for key, shown in (("this", "this"), ("against", label)):
                s = res[key]
                print(f"  {mode if key == 'this' else '':8} {shown:{width}}  median {s['median']:8,d} rolls/s  "
                      f"best {s['best']:8,d}  worst {s['worst']:8,d}")
            verdict = (f"DROPPED by {1 - res['ratio']:.1%}, more than {report['drop_limit']:.0%}"
                       if res["dropped_more_than_5_percent"]
                       else f"did not drop by more than {report['drop_limit']:.0%}")
            print(f"  {'':8} ratio of the medians (this / {label}): {res['ratio']:.3f}: the median {verdict}"
                  + ("" if res["same_games"] else "  (note: the versions played different games)"))
    if report["dropped"]:
        print(f"RESULT: the median dropped by more than {report['drop_limit']:.0%} in: {', '.join(report['dropped'])}")
    else:
        print(f"RESULT: no median dropped by more than {report['drop_limit']:.0%}")


if __name__ == "__main__":
    raise SystemExit(main())
