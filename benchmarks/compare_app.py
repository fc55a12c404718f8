"""The tap benchmark before and after a change, side by side, in one run.

    .venv/bin/python benchmarks/compare_app.py --before DIR [--after DIR] [--runs 5] [--taps 300]
                                               [--wait-load 0.5] [--json] [-- bench_app.py's options]

`--before` is a checkout of the old code (e.g. `git worktree add /tmp/before <commit>`), `--after` another
(default: this checkout). Both are measured by this checkout's `benchmarks/bench_app.py`, so the figures are
computed the same way; its `--tree DIR` puts the measured tree first on sys.path (and PYTHONPATH is set to it
as well). Each run is a process of its own with `--json`, before and after alternately (before, after, before,
after, ...). With `--wait-load L`, each run waits until the 1-minute load average is under L (checked every 5 s;
after 10 minutes it gives up waiting, says so, and runs anyway, the row marked `!`).

The table: per run and tree, the load average at its start, tap-to-screen p50/p99/max and the main thread's own
work per tap p50/p99/max (ms); then the medians over the runs, and how many of the after runs met issue 40's
targets (main thread p99 <= 5 ms, tap-to-screen p99 <= 20 ms and max <= 33 ms, started under a load of 0.5).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
BENCH = HERE / "bench_app.py"
FIGURES = ("tap_to_screen_ms_p50", "tap_to_screen_ms_p99", "tap_to_screen_ms_max",
           "main_thread_ms_p50", "main_thread_ms_p99", "main_thread_ms_max")
LOAD_EVERY = 5.0  # seconds between looks at the load average
LOAD_GIVE_UP = 600.0  # seconds waited for a quiet machine before running anyway
TARGETS = {"main_thread_ms_p99": 5.0, "tap_to_screen_ms_p99": 20.0, "tap_to_screen_ms_max": 33.0}
QUIET = 0.5  # the load average a run of the five starts under


def tree(value: str) -> Path:
    path = Path(value).expanduser().resolve()
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"{value}: no such directory")
    if not (path / "ui" / "app.py").is_file() or not (path / "banker" / "__init__.py").is_file():
        raise argparse.ArgumentTypeError(f"{value}: not a checkout of the app (no ui/app.py or banker/__init__.py "
                                         f"in it); make one with `git worktree add DIR <commit>`")
    return path


def positive(kind: type) -> Callable[[str], Any]:
    """An argparse type: a whole number (`int`) of at least 1, or a number (`float`) above 0."""
    def parse(value: str) -> Any:
        try:
            n = kind(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{value!r} is not a {'whole ' if kind is int else ''}number") from None
        if not n > 0:
            raise argparse.ArgumentTypeError(f"{value}: {'at least 1' if kind is int else 'more than 0'}")
        return n
    return parse


positive_int, positive_float = positive(int), positive(float)


def wait_for_quiet(limit: float) -> bool:
    """True once the 1-minute load average is under `limit`; False after LOAD_GIVE_UP seconds."""
    began = time.monotonic()
    said = False
    while os.getloadavg()[0] >= limit:
        if time.monotonic() - began > LOAD_GIVE_UP:
            print(f"  the load average stayed at or over {limit} for {LOAD_GIVE_UP / 60:.0f} minutes "
                  f"(now {os.getloadavg()[0]:.2f}): running anyway", file=sys.stderr, flush=True)
            return False
        if not said:
            print(f"  waiting for the load average ({os.getloadavg()[0]:.2f}) to go under {limit} ...",
                  file=sys.stderr, flush=True)
            said = True
        time.sleep(LOAD_EVERY)
    return True


def run_once(python: str, where: Path, taps: int, extra: list[str]) -> dict[str, Any]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(where) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    done = subprocess.run([python, str(BENCH), "--json", "--tree", str(where), "--taps", str(taps), *extra],
                          cwd=where, env=env, capture_output=True, text=True)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        return {"error": f"exit {done.returncode}: " + (done.stderr.strip().splitlines() or ["no output"])[-1]}
    result: dict[str, Any] = json.loads(lines[-1])
    if done.returncode != 0:
        result["error"] = result.get("failed") or f"exit {done.returncode}"
    return result


def cell(result: dict[str, Any]) -> str:
    if "error" in result and "tap_to_screen_ms_p50" not in result:
        return f"{'FAILED':>44}"
    load = f"{result['load_start']:.2f}" + ("!" if not result.get("quiet", True) else " ")
    screen = "/".join(f"{result.get(k, float('nan')):.1f}" for k in FIGURES[:3])
    main = "/".join(f"{result.get(k, float('nan')):.1f}" for k in FIGURES[3:])
    return f"{load:>5} {screen:>18} {main:>18}"


def median(results: list[dict[str, Any]], key: str) -> float | None:
    values = [r[key] for r in results if key in r]
    return round(statistics.median(values), 1) if values else None


def meets(result: dict[str, Any]) -> bool:
    return "error" not in result and result["load_start"] < QUIET \
        and all(key in result and result[key] <= limit for key, limit in TARGETS.items())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=tree, required=True, help="a checkout of the old code")
    parser.add_argument("--after", type=tree, default=HERE.parent, help="a checkout of the new code (default: this)")
    parser.add_argument("--runs", type=positive_int, default=5, help="runs of each tree (default 5)")
    parser.add_argument("--taps", type=positive_int, default=300, help="taps a run (default 300, for a p99)")
    parser.add_argument("--wait-load", type=positive_float, metavar="LOAD",
                        help="before each run, wait until the 1-minute load average is under LOAD")
    parser.add_argument("--python", default=sys.executable, help="the interpreter to run bench_app.py with")
    parser.add_argument("--json", action="store_true", help="print every run's figures as one JSON object too")
    args, extra = parser.parse_known_args()
    if extra and extra[0] == "--":
        extra = extra[1:]
    if any(a in ("--json", "--tree", "--taps") or a.startswith(("--tree=", "--taps=")) for a in extra):
        parser.error("--json, --tree and --taps are this script's to give bench_app.py")
    if args.before == args.after:
        parser.error(f"--before and --after are the same tree ({args.before})")

    trees = {"before": args.before, "after": args.after}
    print(f"before: {args.before}\nafter:  {args.after}\n"
          f"{args.runs} run{'s' if args.runs != 1 else ''} of each, {args.taps} taps a run, alternately, by {BENCH}"
          + (f" {' '.join(extra)}" if extra else "") + (f"; each started under a load of {args.wait_load}"
                                                        if args.wait_load else ""), flush=True)
    header = f"{'load':>5} {'screen p50/p99/max':>18} {'main p50/p99/max':>18}"
    print(f"\n{'run':>3} | {'before':^44} | {'after':^44}\n{'':>3} | {header} | {header}", flush=True)
    results: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}
    for run in range(1, args.runs + 1):
        for name, where in trees.items():
            quiet = wait_for_quiet(args.wait_load) if args.wait_load else True
            load = os.getloadavg()[0]
            result = run_once(args.python, where, args.taps, extra)
            result.update(load_start=round(load, 2), quiet=quiet)
            results[name].append(result)
            if "error" in result:
                print(f"  run {run}, {name}: {result['error']}", file=sys.stderr, flush=True)
        print(f"{run:>3} | {cell(results['before'][-1])} | {cell(results['after'][-1])}", flush=True)

    def medians(name: str) -> str:
        got = [median(results[name], k) for k in FIGURES]
        return (f"tap to screen {'/'.join(map(str, got[:3]))} ms, main thread {'/'.join(map(str, got[3:]))} ms")

    print(f"\nmedians over the runs (p50/p99/max): before {medians('before')}; after {medians('after')}")
    main_before = median(results["before"], "main_thread_ms_p99")
    main_after = median(results["after"], "main_thread_ms_p99")
    if main_before and main_after:
        print(f"main thread p99: {main_before} -> {main_after} ms ({(main_after - main_before) / main_before:+.0%}); "
              f"after runs meeting issue 40's targets (main p99 <= 5, screen p99 <= 20, max <= 33 ms, started under "
              f"a load of {QUIET}): {sum(map(meets, results['after']))} of {args.runs}; "
              f"before: {sum(map(meets, results['before']))} of {args.runs}")
    failed = sum("error" in r for rs in results.values() for r in rs)
    if failed:
        print(f"{failed} runs failed (above, on stderr)")
    if args.json:
        print(json.dumps({name: [{k: r.get(k) for k in ("load_start", "quiet", *FIGURES, "error")} for r in rs]
                          for name, rs in results.items()}))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
