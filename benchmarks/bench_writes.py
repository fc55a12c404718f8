"""Bytes written to the disk per action and per hour of play: what wears the Pi's SD card.

    .venv/bin/python benchmarks/bench_writes.py [--games 10] [--players 4] [--rules classic] [--seed 1]
                                                [--max-turns 1000] [--dir DIR] [--trace FILE] [--json]

Plays `--games` whole games through the code the app writes with: the flows and their session
(ui/flows, ui/session.py) on the real journal (banker/journal.py), a SQLite file in DIR (default: a
temporary folder), its commits on the journal's own thread as in the app (`defer_commits`), and the real
settings save (`Settings.save` through the settings page's flow). The new-game page starts each game
(`SetupFlow.start`: the game row and its meta); the computer players (banker/ai.py) choose every action,
the dice come from a seeded generator, and the game clock moves `SECONDS_PER_ROLL` (banker/simulate.py:
"about a roll every half minute") at each roll, so that an hour of play is that clock's hour. After the
games: one settings change, the same setting set to the value it has, `Settings.save` of unchanged
settings, and the journal closed.

It all runs in a child process under `strace -f -y` (every thread, file names on the descriptors), which
records each write, pwrite64, pwritev(2), fsync, fdatasync, rename(at)(2), unlink(at) and ftruncate; the
child writes a marker to /dev/null after each step, and every call between two markers is counted to the
step the second one names. Written bytes are what the calls returned, by the file they went to: the
journal's database, its -wal, its -shm, the settings (settings.json and its temporary file), anything
else. "4 KiB pages" counts the distinct pages of each file a step wrote, the least the disk must write.
A step during which SQLite checkpointed (an fsync of the database itself: the WAL reached
`wal_autocheckpoint`, 1,000 pages; the journal asks for no checkpoint of its own) is counted as one.

The -shm is the WAL's index, memory-mapped by SQLite: the file is extended by write() (counted) but then
changed through the mapping, which no system call shows and SQLite never syncs. The kernel still writes its
dirty pages back to the disk (a page at most once per `vm.dirty_expire_centisecs`, 30 s by default). The
child reads the -shm after each action and compares it page by page with the last copy: the pages that
changed in each such interval of the game clock are the estimate of what reaches the disk.

The figures do not depend on the machine's speed (no timing), only on the games: `--seed` makes the dice
and the players' choices the same in every run, but each game's own seed (its decks) is drawn by the
new-game page as in the app, so two runs differ by a little. Needs strace (scripts/_venv.sh installs it).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PAGE = 4096
MARK = "@@bench-writes "  # the child's markers, written to /dev/null
KINDS = ("journal", "wal", "shm", "settings", "other")
SYSCALLS = ("write", "pwrite64", "pwritev", "pwritev2", "fsync", "fdatasync", "rename", "renameat", "renameat2",
            "unlink", "unlinkat", "ftruncate")
JOURNAL_NAME = "games.sqlite3"
SETTINGS_NAME = "settings.json"


# ---------------------------------------------------------------------------------------------- the child


def play(folder: Path, games: int, players: int, rules: str, seed: int, max_turns: int) -> dict[str, Any]:
    """The games and the settings steps, a marker after each step; returns what the trace cannot see (the
    game clock at each action, the -shm's changed pages)."""
    import random

    from banker.ai import choose
    from banker.chance import complete_action
    from banker.journal import Journal
    from banker.simulate import SECONDS_PER_ROLL, player_names
    from ui.flows import Flows
    from ui.settings import Settings

    marker = os.open(os.devnull, os.O_WRONLY)

    def mark(label: str) -> None:
        os.write(marker, f"{MARK}{label}@@".encode())

    journal_path, settings_path = folder / JOURNAL_NAME, folder / SETTINGS_NAME
    shm_path = Path(f"{journal_path}-shm")
    now = [1_000_000.0]
    rng = random.Random(seed)
    # Buttons for paying (no card taps): the computer players act for everyone, through `Session.apply`.
    settings = Settings(taps=False, sounds=False, voice=False)
    settings.save(settings_path)
    mark("settings first saved")
    journal = Journal(journal_path)
    flows = Flows.on(journal, settings, save_settings=lambda s: s.save(settings_path), clock=lambda: now[0],
                     roll=lambda n: tuple(rng.randint(1, 6) for _ in range(n)), power_off=lambda: None)
    session = flows.session
    session.defer_commits = True  # as the app: each commit on the journal's thread, waited for before the frame
    mark("journal opened")
    clock: list[float] = []  # the game clock (seconds since the first game started) after each action
    shm_pages: list[list[int]] = []  # the -shm's pages changed by each action
    shm_before = b""
    started = now[0]
    ended = 0
    outcomes: list[str] = []  # how each game ended (a game at `max_turns` is ended by the banker: "turn_cap")
    for g in range(games):
        setup = flows.setup
        setup.new_game()
        setup.choose_rules(rules)
        draft = setup.draft
        assert draft is not None
        while len(draft.players) > players:
            setup.remove_player(len(draft.players) - 1)
        while len(draft.players) < players:
            setup.add_player()
        for k, name in enumerate(player_names(players)):
            setup.set_player(k, name=name)
        if not setup.start():
            raise SystemExit(f"bench_writes.py: the game could not start: {[n.text for n in session.notices]}")
        session.settle()
        mark(f"game {g} started")
        live = session.live
        assert live is not None
        game = live.game
        while not game.ended:
            if game.turns >= max_turns:
                action: dict[str, Any] = {"do": "end_game"}
            else:
                action, _ = choose(game, rng)
            verb = action["do"]
            if verb == "roll":
                action["dice"] = list(flows.roll(game.dice_count()))
                now[0] += SECONDS_PER_ROLL
            elif verb in ("draw", "deal", "casino"):
                action = complete_action(game, action, live.chance)
            if not session.apply(action) or not session.settle():
                raise SystemExit(f"bench_writes.py: {action} was refused: {[n.text for n in session.notices][-3:]}")
            mark(f"action {g} {verb}{' end' if game.ended else ''}")
            clock.append(now[0] - started)
            shm = shm_path.read_bytes() if shm_path.exists() else b""
            shm_pages.append([k for k in range(math.ceil(len(shm) / PAGE))
                              if shm[k * PAGE:(k + 1) * PAGE] != shm_before[k * PAGE:(k + 1) * PAGE]])
            shm_before = shm
        ended += 1
        capped = verb == "end_game"  # ended by the banker at `max_turns`, as `banker simulate` says it
        outcomes.append("turn_cap" if capped else game.outcome.reason if game.outcome is not None else "ended")
        session.close()
        mark(f"game {g} closed")
    flows.settings.set_setting("sounds", True)
    mark("settings changed")
    flows.settings.set_setting("sounds", True)
    mark("settings set as they are")
    settings.save(settings_path)
    mark("settings saved unchanged")
    journal.close()
    mark("journal closed")
    os.close(marker)
    return {"games": ended, "outcomes": outcomes, "clock": clock, "shm_pages": shm_pages}


# ---------------------------------------------------------------------------------------------- the trace


@dataclass
class Step:
    """What one step (the calls before its marker) wrote."""

    label: str
    bytes: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    pages: dict[str, set[tuple[str, int]]] = field(default_factory=lambda: {k: set() for k in KINDS})
    syncs: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    renames: int = 0
    unlinks: int = 0
    truncates: int = 0

    @property
    def total(self) -> int:
        return sum(self.bytes.values())

    @property
    def total_syncs(self) -> int:
        return sum(self.syncs.values())

    @property
    def checkpoint(self) -> bool:
        """SQLite copied the WAL into the database (which it syncs only then)."""
        return self.syncs["journal"] > 0


_CALL = re.compile(r"^(\d+)\s+(\w+)\((.*)\)\s+=\s+(-?\d+)")
_UNFINISHED = re.compile(r"^(\d+)\s+(.*) <unfinished \.\.\.>$")
_RESUMED = re.compile(r"^(\d+)\s+<\.\.\. (\w+) resumed>(.*)$")
_FD = re.compile(r"^\d+<(.*)>$")
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def calls(lines: list[str]) -> list[tuple[str, str, int]]:
    """strace -f's lines as (call, arguments, result), a call cut by another thread's put back together."""
    pending: dict[str, str] = {}
    out = []
    for line in lines:
        line = line.rstrip("\n")
        cut = _UNFINISHED.match(line)
        if cut:
            pending[cut.group(1)] = cut.group(2)
            continue
        resumed = _RESUMED.match(line)
        if resumed:
            head = pending.pop(resumed.group(1), None)
            if head is None:
                continue
            line = f"{resumed.group(1)} {head}{resumed.group(3)}"
        found = _CALL.match(line)
        if found:
            out.append((found.group(2), found.group(3), int(found.group(4))))
    return out


def kind_of(path: str, folder: Path) -> str | None:
    """The file kind a path is counted to (None: not a file on the disk)."""
    path = path.removesuffix(" (deleted)")
    if not path.startswith("/") or path.startswith(("/dev/", "/proc/", "/sys/")):
        return None
    journal = str(folder / JOURNAL_NAME)
    if path in (journal, f"{journal}-journal"):  # (-journal: SQLite's rollback journal, before WAL is on)
        return "journal"
    if path in (f"{journal}-wal", f"{journal}-shm"):
        return path[-3:]
    name = Path(path).name
    if Path(path).parent == folder and (name.startswith("settings.") or name.startswith(".settings.json.")):
        return "settings"
    return "other"


def steps_of(lines: list[str], folder: Path) -> tuple[list[Step], dict[str, int]]:
    """The trace cut into steps at the child's markers, and the other files written (path: bytes)."""
    steps: list[Step] = []
    current = Step("before the first step")
    others: dict[str, int] = defaultdict(int)
    for name, args, result in calls(lines):
        fd = _FD.match(args.split(", ", 1)[0])
        path = fd.group(1) if fd else ""
        if name == "write" and path == os.devnull:
            text = _STRING.search(args)
            if text and text.group(1).startswith(MARK):
                current.label = text.group(1)[len(MARK):].removesuffix("@@")
                steps.append(current)
                current = Step("after the last step")
            continue
        if result < 0:
            continue
        if name in ("rename", "renameat", "renameat2", "unlink", "unlinkat"):
            named = [s for s in _STRING.findall(args)]
            if any(kind_of(p if p.startswith("/") else str(folder / p), folder) for p in named):
                if name.startswith("rename"):
                    current.renames += 1
                else:
                    current.unlinks += 1
            continue
        kind = kind_of(path, folder)
        if kind is None:
            continue
        if name in ("fsync", "fdatasync"):
            current.syncs[kind] += 1
        elif name == "ftruncate":
            current.truncates += 1
        else:
            current.bytes[kind] += result
            if kind == "other":
                others[path] += result
            if name.startswith("pwrite") and result > 0:
                offset = int(args.rsplit(", ", 1)[1])
                first, last = offset // PAGE, (offset + result - 1) // PAGE
            else:  # write(): the files written this way (the settings) are written whole from their start
                first, last = 0, max(0, (result - 1) // PAGE)
            current.pages[kind].update((path, k) for k in range(first, last + 1))
    if current.total or current.total_syncs or current.renames or current.unlinks:
        steps.append(current)
    return steps, dict(others)


# ---------------------------------------------------------------------------------------------- the report


def percentile(values: list[int], p: float) -> int:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(len(ordered) * p) - 1)] if ordered else 0


def summary(values: list[int]) -> dict[str, float]:
    return {"mean": round(sum(values) / len(values), 1) if values else 0.0, "p99": percentile(values, 0.99),
            "max": max(values, default=0)}


def shm_per_hour(clock: list[float], pages: list[list[int]], expire: float) -> dict[str, float]:
    """The -shm's pages the kernel writes back: each page changed within an interval of `expire` seconds of the
    game clock, once per interval."""
    if not clock or clock[-1] <= 0:
        return {"pages": 0, "bytes_per_hour": 0}
    windows: dict[int, set[int]] = defaultdict(set)
    for t, changed in zip(clock, pages, strict=True):
        windows[int(t // expire)].update(changed)
    written = sum(len(p) for p in windows.values())
    return {"pages": written, "bytes_per_hour": round(written * PAGE * 3600 / clock[-1])}


def report(steps: list[Step], others: dict[str, int], child: dict[str, Any], expire: float) -> dict[str, Any]:
    actions = [s for s in steps if s.label.startswith("action ")]
    starts = [s for s in steps if s.label.startswith("game ") and s.label.endswith(" started")]
    ends = [s for s in actions if s.label.endswith(" end")]
    by_label = {s.label: s for s in steps}
    hours = child["clock"][-1] / 3600 if child["clock"] else 0.0
    played = starts + actions + [s for s in steps if s.label.startswith("game ") and s.label.endswith(" closed")]
    shm = shm_per_hour(child["clock"], child["shm_pages"], expire)
    per_kind = {kind: {**summary([s.bytes[kind] for s in actions]),
                       "pages_mean": round(sum(len(s.pages[kind]) for s in actions) / max(1, len(actions)), 2),
                       "fsyncs_per_action": round(sum(s.syncs[kind] for s in actions) / max(1, len(actions)), 3)}
                for kind in KINDS}
    total_bytes = [s.total for s in actions]
    checkpoints = [s for s in actions if s.checkpoint]
    play_bytes = sum(s.total for s in played)
    play_pages = sum(sum(len(p) for p in s.pages.values()) for s in played)

    def step_json(s: Step | None) -> dict[str, Any] | None:
        if s is None:
            return None
        return {"bytes": s.total, "by_kind": {k: v for k, v in s.bytes.items() if v},
                "pages": sum(len(p) for p in s.pages.values()), "fsyncs": s.total_syncs, "renames": s.renames,
                "unlinks": s.unlinks, "truncates": s.truncates}

    return {
        "games": child["games"], "outcomes": child["outcomes"], "actions": len(actions),
        "actions_per_game": round(len(actions) / max(1, child["games"]), 1),
        "game_hours": round(hours, 3), "actions_per_hour": round(len(actions) / hours) if hours else 0,
        "per_action": {**summary(total_bytes), "fsyncs_mean": round(sum(s.total_syncs for s in actions)
                                                                     / max(1, len(actions)), 3),
                       "fsyncs_max": max((s.total_syncs for s in actions), default=0),
                       "pages_mean": round(sum(sum(len(p) for p in s.pages.values()) for s in actions)
                                           / max(1, len(actions)), 2)},
        "per_action_by_kind": per_kind,
        "checkpoints": {"count": len(checkpoints), "bytes_mean": round(sum(s.total for s in checkpoints)
                                                                        / max(1, len(checkpoints)))},
        "game_start": summary([s.total for s in starts]),
        "game_end": summary([s.total for s in ends]),
        "per_game": round(play_bytes / max(1, child["games"])),
        "per_hour": {"written": round(play_bytes / hours) if hours else 0,
                     "pages": round(play_pages * PAGE / hours) if hours else 0,
                     "shm_estimate": shm["bytes_per_hour"], "shm_expire_seconds": expire,
                     "shm_pages_per_action": round(sum(map(len, child["shm_pages"])) / max(1, len(actions)), 2)},
        "settings_first_save": step_json(by_label.get("settings first saved")),
        "settings_change": step_json(by_label.get("settings changed")),
        "settings_set_unchanged": step_json(by_label.get("settings set as they are")),
        "settings_save_unchanged": step_json(by_label.get("settings saved unchanged")),
        "journal_open": step_json(by_label.get("journal opened")),
        "journal_close": step_json(by_label.get("journal closed")),
        "other_files": others,
    }


def kib(n: float) -> str:
    return f"{n / 1024:,.1f} KiB" if n >= 1024 else f"{n:,.0f} B"


def show(r: dict[str, Any], folder: Path) -> None:
    print(f"journal in {folder}: {r['games']} games, {r['actions']} actions ({r['actions_per_game']} a game), "
          f"{r['game_hours']} h of game clock: {r['actions_per_hour']} actions an hour")
    print()
    print(f"{'per action':<22}{'mean':>12}{'p99':>12}{'max':>12}{'4 KiB pages':>13}{'fsyncs':>9}")
    names = {"journal": "journal (.sqlite3)", "wal": "-wal", "shm": "-shm (write() only)", "settings": "settings",
             "other": "anything else"}
    for kind in KINDS:
        k = r["per_action_by_kind"][kind]
        print(f"{names[kind]:<22}{kib(k['mean']):>12}{kib(k['p99']):>12}{kib(k['max']):>12}{k['pages_mean']:>13}"
              f"{k['fsyncs_per_action']:>9}")
    a = r["per_action"]
    print(f"{'all':<22}{kib(a['mean']):>12}{kib(a['p99']):>12}{kib(a['max']):>12}{a['pages_mean']:>13}"
          f"{a['fsyncs_mean']:>9}  (fsyncs at most {a['fsyncs_max']})")
    print()
    c = r["checkpoints"]
    print(f"checkpoints (WAL at 1,000 pages): {c['count']}, {kib(c['bytes_mean'])} each (inside the figures above)")
    print(f"a game's start: {kib(r['game_start']['mean'])} mean; its last action (status, summary): "
          f"{kib(r['game_end']['mean'])} mean; a whole game: {kib(r['per_game'])}")
    h = r["per_hour"]
    print(f"per hour of play: {kib(h['written'])} written, {kib(h['pages'])} in 4 KiB pages; "
          f"the -shm's pages written back, estimated: {kib(h['shm_estimate'])} "
          f"(each page changed in {h['shm_expire_seconds']:.0f} s, once)")
    for what, key in (("settings, first save", "settings_first_save"), ("one settings change", "settings_change"),
                      ("a setting set to what it is", "settings_set_unchanged"),
                      ("Settings.save unchanged", "settings_save_unchanged"),
                      ("journal opened", "journal_open"), ("journal closed", "journal_close")):
        s = r[key]
        if s is not None:
            print(f"{what}: {kib(s['bytes'])}, {s['fsyncs']} fsyncs, {s['renames']} renames, "
                  f"{s['unlinks']} unlinks, {s['truncates']} truncates")
    if r["other_files"]:
        print("other files:", ", ".join(f"{p} {kib(n)}" for p, n in sorted(r["other_files"].items())))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-turns", type=int, default=1000, help="a game still on then is ended (end_game)")
    parser.add_argument("--dir", help="folder for the journal and the settings (default: a temporary folder)")
    parser.add_argument("--trace", help="keep strace's output in this file")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    folder = Path(args.dir).resolve() if args.dir else Path(tempfile.mkdtemp(prefix="bench-writes-"))
    if args.child:
        print(json.dumps(play(folder, args.games, args.players, args.rules, args.seed, args.max_turns)))
        return 0
    strace = shutil.which("strace")
    if strace is None:
        print("bench_writes.py needs strace (apt-get install strace; scripts/_venv.sh installs it)", file=sys.stderr)
        return 2
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob(f"{JOURNAL_NAME}*"):
        old.unlink()
    (folder / SETTINGS_NAME).unlink(missing_ok=True)
    trace = Path(args.trace) if args.trace else folder / "strace.txt"
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "KIVY_NO_ARGS": "1",
           "KIVY_NO_FILELOG": "1", "KIVY_NO_CONSOLELOG": "1"}
    command = [strace, "-f", "-y", "-s", "80", "-o", str(trace), "-e", "trace=" + ",".join(SYSCALLS),
               sys.executable, str(Path(__file__).resolve()), "--child", "--dir", str(folder), "--games",
               str(args.games), "--players", str(args.players), "--rules", args.rules, "--seed", str(args.seed),
               "--max-turns", str(args.max_turns)]
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        print(done.stdout + done.stderr, file=sys.stderr)
        return 1
    child = json.loads(done.stdout.strip().splitlines()[-1])
    lines = trace.read_text(errors="replace").splitlines()
    if not args.trace:
        trace.unlink()
    steps, others = steps_of(lines, folder)
    expire = int(Path("/proc/sys/vm/dirty_expire_centisecs").read_text()) / 100
    result = report(steps, others, child, expire)
    result["folder"] = str(folder)
    if args.json:
        print(json.dumps(result))
    else:
        show(result, folder)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
