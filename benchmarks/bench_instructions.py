"""Engine cost in machine instructions a dice roll, counted by valgrind's callgrind: the same on every run.

On a shared machine the rounds of bench_engine.py vary by 10% to 40% from one
to the next, more than the 5% a change is judged by. Instructions do not vary:
each engine plays the same seeded games under callgrind, and the instructions
of `--games` games (the run with them less the run without them, so that
starting Python, importing and loading the ruleset cancel out) are divided by
their dice rolls and their actions. It leaves out what instructions do not
show (cache misses, mispredicted branches); use it beside bench_engine.py, not
instead of it.

    .venv/bin/python benchmarks/bench_instructions.py /tmp/new /tmp/old --rules classic --games 40

Each ENGINE is a folder holding a `banker` package: a checkout (its pure-Python
sources) or a compiled wheel unpacked with `unzip`. Every count runs in a
process of its own (PYTHONPATH set to the engine, PYTHONHASHSEED=0, working
directory outside the engines), as many at once as there are cores. It needs
`valgrind` (Debian package `valgrind`). Under callgrind the engine runs about
50 times slower: 40 compiled classic games take about two minutes, pure Python
about five times that.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

PLAY = """
import json, sys
from pathlib import Path
import banker, banker.game
root = Path(sys.argv[1]).resolve()
if not Path(banker.__file__).resolve().is_relative_to(root):
    sys.exit(f"banker was imported from {banker.__file__}, not from {root}")
from banker.ruleset import load_ruleset
from banker.simulate import simulate
rules, games, checked = sys.argv[2], int(sys.argv[3]), sys.argv[4] == "checked"
ruleset = load_ruleset(rules)
s = simulate(rules, ruleset, games=games, players=4, seed=0, checked=checked) if games else {"rolls": 0, "actions": 0}
kind = "pure Python" if banker.game.__file__.endswith(".py") else "compiled (mypyc)"
print(json.dumps({"rolls": s["rolls"], "actions": s["actions"], "engine": kind}))
"""


def count(root: Path, rules: str, games: int, checked: bool, work: Path) -> dict[str, Any]:
    """Instructions of one run: Python started, the engine imported, the ruleset loaded, `games` games played."""
    out = Path(tempfile.mkstemp(prefix="callgrind-", suffix=".out", dir=work)[1])
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONHASHSEED="0")
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-P", "-s", "-c", PLAY,
         str(root), rules, str(games), "checked" if checked else "fast"],
        cwd=work, env=env, capture_output=True, text=True)
    if done.returncode:
        last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"
        raise RuntimeError(f"{root}: {last}")
    played: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    summary = re.search(r"^summary:\s*(\d+)", out.read_text("utf-8", "replace"), re.M)
    if summary is None:
        raise RuntimeError(f"{root}: callgrind wrote no summary in {out}")
    played["instructions"] = int(summary.group(1))
    return played


def measure(roots: list[Path], rules: list[str], games: int, checked: bool) -> list[dict[str, Any]]:
    work = Path(tempfile.mkdtemp(prefix="bench-instructions-"))
    jobs = [(root, name, n) for root in roots for name in rules for n in (0, games)]
    # Each engine imported once first, outside callgrind, so that its bytecode is cached before the counting: the
    # run without games and the run with them start alike. Otherwise whichever of the two, running side by side,
    # compiled the sources paid for it, which once made a short run's count a roll negative.
    try:
        for root in roots:
            env = dict(os.environ, PYTHONPATH=str(root), PYTHONHASHSEED="0")
            subprocess.run([sys.executable, "-P", "-s", "-c", PLAY, str(root), rules[0], "0", "fast"], cwd=work,
                           env=env, capture_output=True, text=True, check=True)
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            counted = list(pool.map(lambda job: count(job[0], job[1], job[2], checked, work), jobs))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    runs = dict(zip(jobs, counted, strict=True))
    results = []
    for root in roots:
        for name in rules:
            base, full = runs[(root, name, 0)], runs[(root, name, games)]
            spent = full["instructions"] - base["instructions"]
            results.append({"engine_root": str(root), "engine": full["engine"], "rules": name,
                            "mode": "checked" if checked else "fast", "games": games, "rolls": full["rolls"],
                            "actions": full["actions"], "instructions": spent,
                            "instructions_per_roll": round(spent / full["rolls"]),
                            "instructions_per_action": round(spent / full["actions"])})
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("engines", nargs="+", type=Path, metavar="ENGINE",
                        help="a folder holding a banker package (a checkout or an unpacked wheel)")
    parser.add_argument("--rules", action="append", help="ruleset (default classic); may be given more than once")
    parser.add_argument("--games", type=int, default=40, help="games counted per engine and ruleset (default 40)")
    parser.add_argument("--checked", action="store_true",
                        help="every move through Game.apply (banker simulate --checked)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if shutil.which("valgrind") is None:
        print("bench_instructions: needs valgrind (apt-get install valgrind)", file=sys.stderr)
        return 2
    roots = [root.resolve() for root in args.engines]
    for root in roots:
        if not (root / "banker" / "__init__.py").is_file():
            print(f"bench_instructions: {root} holds no banker package", file=sys.stderr)
            return 2
    try:
        results = measure(roots, args.rules or ["classic"], args.games, args.checked)
    except RuntimeError as e:
        print(f"bench_instructions: {e}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({"python": sys.version.split()[0], "results": results}))
        return 0
    first = {r["rules"]: r for r in results if r["engine_root"] == str(roots[0])}
    for r in results:
        ratio = r["instructions_per_roll"] / first[r["rules"]]["instructions_per_roll"]
        print(f"{r['rules']:10} {r['mode']:8} {r['engine']:17} {r['engine_root']}: {r['instructions_per_roll']:9,d} "
              f"instructions a roll, {r['instructions_per_action']:8,d} an action ({r['rolls']:,} rolls in "
              f"{r['games']} games){'' if r['engine_root'] == str(roots[0]) else f'; {ratio:.3f} of the first'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
