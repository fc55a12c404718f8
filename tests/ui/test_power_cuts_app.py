"""A played game under power cuts (issue 58): the real app offscreen (tests/ui/cut_app.py) plays a classic game
of about 30 actions by touches and card taps, its data folder (the journal, the settings, the new game's draft,
the tags) inside the power-cut filesystem (tests/powercut.py), and every sync point of that run is a cut.

- The replay: one recorded run; at every sync point the image a cut there leaves, "synced" (only what was
  synced) and seeded "random" (the unsynced changes kept or not, writes torn into pages: one image per point
  by default; BANKER_POWER_CUTS=N makes it N per point, the seed and count printed by `seeds`). On each:
  `banker state DB --json` (the real command line) answers the game, or says cleanly that there is no journal
  or no game yet, only where no game was acknowledged before the cut; the game's actions are the run's
  actions from the first, whole and in order, at least every one acknowledged before the cut and at most
  those acknowledged by the next marker; a game whose end is in is finished, its summary stored; the
  settings, the draft and the tags read back with the product's loaders as the version acknowledged before
  the cut, one written whole since (a touch may write the draft twice), or the one the next marker
  acknowledges: never empty, garbled, or missing once written; at most one temporary file per file is left,
  and nothing else. XDG_DATA_HOME is there before the app, as ~/.local/share is; the app makes board-banker/
  in it. The regression case: that folder, made by the journal's mkdir alone (the journal makes it first), was
  lost whole by a cut, every file in it with it (the journal makes it with banker/files.py's `make_folder` now).
- A handful of those images (a cut in the game's first turns, mid-game, at the commit of the game's end, and
  after the end): the app started on a copy comes up where the journal is, with no error shown.
- A live cut: the product stopped at its Nth sync mid-game and killed there (SIGKILL), the same checks on what
  it left: the replay's premise on the real process.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pytest

from banker.files import leftovers
from banker.journal import Journal, JournalError
from powercut import CutFS, Trace, fuse_problem, seeds
from ui.drafts import DraftFile
from ui.settings import Settings
from ui.tags import TagStore

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "tests" / "ui" / "cut_app.py"
FOLDER = ("data", "board-banker")  # the app's data folder inside XDG_DATA_HOME (the image's "data")
FILES = ("settings.json", "draft.json", "tags.json")
JOURNAL_FILES = {"games.sqlite3", "games.sqlite3-wal", "games.sqlite3-shm", "games.sqlite3-journal"}

# One worker for the three tests (scripts/test.sh's --dist loadgroup): the recorded run is made once.
pytestmark = [pytest.mark.skipif(fuse_problem() is not None, reason=str(fuse_problem())),
              pytest.mark.xdist_group("power-cuts-app")]


def run_app(mode: str, data: Path, work: Path, env: dict[str, str] | None = None,
            timeout: int = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(APP), mode, str(data), str(work)], capture_output=True, text=True,
                          cwd=ROOT, env=env or dict(os.environ), timeout=timeout)


def banker(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "banker", *args], capture_output=True, text=True, cwd=ROOT,
                          env=dict(os.environ), timeout=120)


def without_time(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions without their game clock (`t`): the same game played again has other times."""
    return [{k: v for k, v in a.items() if k != "t"} for a in actions]


@dataclass
class Ack:
    """One thing the family saw done (a marker of cut_app.py): the game's action count then (None: no game
    yet), what it was, and each data file as the product read it then (None: no file)."""

    n: int | None
    what: str
    files: dict[str, Any]


def acks(trace: Trace, upto: int | None = None) -> list[Ack]:
    found = []
    for text in trace.marks(upto):
        assert text.startswith("ack "), text
        doc = json.loads(text[4:])
        found.append(Ack(doc["n"], doc["what"], doc["files"]))
    return found


@dataclass
class Run:
    """The recorded run: its record, and the game's actions at its end."""

    trace: Trace
    actions: list[dict[str, Any]]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Run:
    base = tmp_path_factory.mktemp("cut-app")
    (base / "backing" / "data").mkdir(parents=True)  # XDG_DATA_HOME is there before the app (~/.local/share)
    with CutFS(base / "backing", base / "mount") as fs:
        played = run_app("play", base / "mount" / "data", base / "work", env=fs.env())
        assert played.returncode == 0, played.stdout + played.stderr[-3000:] + fs.errors()
        trace = fs.trace()
    with Journal(base.joinpath("backing", *FOLDER, "games.sqlite3"), create=False, write=False) as journal:
        actions = journal.actions(journal.games()[-1].id)
    assert len(actions) >= 30 and actions[-1]["do"] == "end_game"
    return Run(trace, actions)


class Checker:
    """The checks of one image (see the module's docstring): `check(upto, dest)` gives the problems found."""

    def __init__(self, trace: Trace, final: list[dict[str, Any]], scratch: Path, strip_time: bool = False) -> None:
        self.trace, self.strip_time, self.scratch = trace, strip_time, scratch
        self.final = without_time(final) if strip_time else final
        self.all = acks(trace)
        self.marked = [i for i, op in enumerate(trace.ops) if op[0] == "mark"]
        self.states: dict[str, subprocess.CompletedProcess[str]] = {}  # `banker state` by the journal's bytes
        self.keys: dict[Path, str] = {}  # the images' journals asked about, by their bytes before
        self.versions = written_versions(trace)
        self.parsed: dict[bytes, Any] = {}

    def state(self, db: Path) -> subprocess.CompletedProcess[str]:
        """`banker state DB --json`, once per content of the journal's files as the cut left them (SQLite's
        recovery, run by the first reader, may change them: `ask` runs it before any check)."""
        key = self.keys.pop(db, None) or journal_key(db)
        if key not in self.states:
            self.states[key] = banker("state", str(db), "--json")
        return self.states[key]

    def ask(self, dests: list[Path]) -> None:
        """`banker state` on the journal of each image, two at a time (each is a process of its own)."""
        first: dict[str, Path] = {}
        for db in (dest.joinpath(*FOLDER, "games.sqlite3") for dest in dests):
            self.keys[db] = journal_key(db)
            first.setdefault(self.keys[db], db)
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            answers = pool.map(lambda db: banker("state", str(db), "--json"), first.values())
            self.states.update(zip(first, answers, strict=True))

    def check(self, upto: int | None, dest: Path) -> list[str]:
        before = acks(self.trace, upto)
        k = len(before)
        last = self.all[k - 1] if k else None
        following = self.all[k] if k < len(self.all) else None  # the first marker after the cut
        folder = dest.joinpath(*FOLDER)
        problems = self.journal(folder / "games.sqlite3", last, following)
        since = self.marked[k - 1] if k else -1
        cut = self.trace.cut_point() if upto is None else upto
        for name in FILES:
            # Each version of the file written whole since the last marker (one touch may write it twice).
            between = [self.version(name, data) for i, data in self.versions[name] if since < i < cut]
            problems += self.data_file(folder / name, name, last, following, between)
        names = set(os.listdir(folder)) if folder.is_dir() else set()
        temporary = set()
        for name in FILES:
            left = leftovers(folder / name)
            if len(left) > 1:
                problems.append(f"{len(left)} temporary files of {name} left: {[p.name for p in left]}")
            temporary |= {p.name for p in left}
        stray = names - JOURNAL_FILES - set(FILES) - temporary
        if stray:
            problems.append(f"stray files in the data folder: {sorted(stray)}")
        return problems

    def journal(self, db: Path, last: Ack | None, following: Ack | None) -> list[str]:
        acked = last.n if last is not None else None
        most = following.n if following is not None else len(self.final)
        state = self.state(db)
        if "Traceback" in state.stderr:
            return [f"banker state crashed: {state.stderr[-2000:]}"]
        if state.returncode != 0:
            clean = state.stderr.startswith(("There is no journal at", "no games in"))
            if not clean or acked is not None:
                return [f"banker state failed ({state.returncode}) with {acked} actions acknowledged: "
                        f"{state.stdout[-500:]}{state.stderr[-1500:]}"]
            return []
        try:
            shown = json.loads(state.stdout)
            players = [p["name"] for p in shown["players"]]
        except (ValueError, KeyError, TypeError) as exc:
            return [f"banker state's JSON is not a game's state ({exc}): {state.stdout[:300]}"]
        try:
            with Journal(db, create=False, write=False) as journal:
                games = journal.games()
                if len(games) != 1:
                    return [f"{len(games)} games in the journal, not 1"]
                game_id = games[0].id
                actions = journal.actions(game_id)
                status, stored = journal.status(game_id), game_id not in journal.missing_summaries()
                header = journal.header(game_id)
        except JournalError as exc:
            return [f"the journal cannot be read: {exc}"]
        if players != header.players:
            return [f"banker state shows the players {players}, the journal has {header.players}"]
        got = without_time(actions) if self.strip_time else actions
        problems = []
        if got != self.final[:len(got)]:
            problems.append(f"the journal's {len(got)} actions are not the game's first ones")
        if acked is not None and len(got) < acked:
            problems.append(f"{len(got)} actions in the journal, {acked} acknowledged before the cut")
        if most is not None and len(got) > most:
            problems.append(f"{len(got)} actions in the journal, where the next marker counts {most}")
        ended = bool(got) and got[-1]["do"] == "end_game"
        if ended and (status != "finished" or not stored):
            problems.append(f"the game's end is in, but its status is {status}, its summary stored: {stored}")
        if not ended and status != "active":
            problems.append(f"the game is {status} without its end")
        return problems

    def version(self, name: str, data: bytes) -> Any:
        """A version the product wrote, as its loader reads it."""
        if data not in self.parsed:
            path = self.scratch / name
            path.write_bytes(data)
            self.parsed[data], problem = read(path, name)
            assert problem is None, f"the product wrote a {name} its loader refuses: {problem}"
        return self.parsed[data]

    def data_file(self, path: Path, name: str, last: Ack | None, following: Ack | None,
                  between: list[Any]) -> list[str]:
        """The file as the product reads it is the version acknowledged before the cut, one written since, or the
        one the next marker acknowledges."""
        allowed = [last.files[name] if last is not None else None, *between]
        if following is not None:
            allowed.append(following.files[name])
        now, problem = read(path, name) if path.exists() else (None, None)
        if problem is not None:
            return [f"{name}: {problem}"]
        if now not in allowed:
            what = "missing" if now is None else "another version"
            return [f"{name}: {what} ({str(now)[:200]}); acknowledged: {str(allowed[0])[:200]}"]
        return []


def journal_key(db: Path) -> str:
    """What the journal's files hold (a digest)."""
    digest = hashlib.sha256()
    for name in sorted(JOURNAL_FILES):
        path = db.with_name(name)
        digest.update(name.encode() + (path.read_bytes() if path.exists() else b"-"))
    return digest.hexdigest()


def read(path: Path, name: str) -> tuple[Any, str | None]:
    """The data file at `path` as the product's own loader reads it, and what it found wrong (None: nothing)."""
    if name == "settings.json":
        settings, problems = Settings.load(path)
        return asdict(settings), "; ".join(problems) or None
    if name == "draft.json":
        doc = DraftFile(path).read()
        return doc, None if doc is not None else f"not taken up: {path.read_bytes()[:200]!r}"
    store = TagStore(path)
    return store.document(), store.problem


def written_versions(trace: Trace) -> dict[str, list[tuple[int, bytes]]]:
    """Each data file's versions as the product wrote them: (where in the record, the bytes) of each file renamed
    onto its name, with all its writes."""
    data: dict[int, bytearray] = {}
    found: dict[str, list[tuple[int, bytes]]] = {name: [] for name in FILES}
    for i, op in enumerate(trace.ops):
        if op[0] == "create":
            data[op[3]] = bytearray(op[6])
        elif op[0] == "write":
            content = data.setdefault(op[1], bytearray())
            content.extend(bytes(max(0, op[2] - len(content))))
            content[op[2]:op[2] + len(op[3])] = op[3]
        elif op[0] == "trunc":
            content = data.setdefault(op[1], bytearray())
            del content[op[2]:]
            content.extend(bytes(op[2] - len(content)))
        elif op[0] == "rename" and op[4] in found:
            found[op[4]].append((i, bytes(data.get(op[5], b""))))
    return found


def report(failures: list[tuple[str, str]]) -> str:
    """The failures (where, what) for the assertion: how many, and the first three of each kind (the file or
    the check they are about)."""
    kinds: dict[str, list[str]] = {}
    for where, what in failures:
        kinds.setdefault(what.split(":")[0].split(" (")[0], []).append(f"{where}: {what}")
    return f"{len(failures)} problems\n" + "\n".join(line for lines in kinds.values() for line in lines[:3])


def images(trace: Trace, points: list[int], count: int, first: int) -> Iterator[tuple[int, str, int]]:
    """(point, mode, seed) of each image to check: "synced", then `count` seeded "random" ones."""
    for k, point in enumerate(points):
        yield point, "synced", 0
        for j in range(count):
            yield point, "random", first + k * count + j


def test_every_sync_point_of_a_played_game(recorded: Run, tmp_path: Path) -> None:
    trace = recorded.trace
    points = trace.sync_points()
    first, count = seeds(1)
    checker = Checker(trace, recorded.actions, tmp_path)
    failures = []
    made = [(point, mode, seed, trace.image(point, mode, seed).write(tmp_path / f"{point}-{mode}-{seed}"))
            for point, mode, seed in images(trace, points, count, first)]
    checker.ask([dest for *_, dest in made])
    for point, mode, seed, dest in made:
        failures += [(f"cut at {point} ({mode}, seed {seed})", p) for p in checker.check(point, dest)]
        shutil.rmtree(dest)
    assert not failures, report(failures)
    assert len(points) >= 40, f"only {len(points)} sync points"
    print(f"{len(points)} sync points, {len(points) * (1 + count)} images, "
          f"{len(checker.states)} journals asked with banker state")


def resume_points(trace: Trace) -> dict[str, int]:
    """Four cuts: in the game's first turns, mid-game, at the commit of the game's end, after the end."""
    points = trace.sync_points()
    marks = [i for i, op in enumerate(trace.ops) if op[0] == "mark"]
    names = [acks(trace)[k].what for k in range(len(marks))]
    end = marks[names.index("the game's end")]
    before_end = marks[names.index("the game's end") - 1]
    started = marks[names.index("the game started")]
    in_game = [p for p in points if started < p < before_end]
    return {"first turns": in_game[2], "mid-game": in_game[len(in_game) // 2],
            "the game's end": max(p for p in points if before_end < p < end), "after the end": points[-1]}


def test_the_app_comes_up_after_a_cut(recorded: Run, tmp_path: Path) -> None:
    trace = recorded.trace
    seen = {}
    for name, point in resume_points(trace).items():
        dest = trace.image(point, "synced").write(tmp_path / str(point))
        resumed = run_app("resume", dest / "data", tmp_path / f"work-{point}")
        assert resumed.returncode == 0, f"cut at {point} ({name}): " + resumed.stdout + resumed.stderr[-3000:]
        seen[name] = resumed.stdout.split("resume: ")[-1].split()[0]
    assert seen == {"first turns": "table", "mid-game": "table", "the game's end": "table", "after the end": "home"}


def test_a_live_cut_mid_game(recorded: Run, tmp_path: Path) -> None:
    """The product stopped at its Nth sync (N: the middle of the recorded game's), killed there by SIGKILL."""
    trace = recorded.trace
    point = resume_points(trace)["mid-game"]
    nth = trace.sync_points().index(point) + 1
    (tmp_path / "backing" / "data").mkdir(parents=True)
    with CutFS(tmp_path / "backing", tmp_path / "mount", cut_at=f"sync:{nth}") as fs:
        process = subprocess.Popen([sys.executable, str(APP), "play", str(tmp_path / "mount" / "data"),
                                    str(tmp_path / "work")], cwd=ROOT, env=fs.env(), stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        try:
            cut = fs.kill_at_cut(process, timeout=120)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert acks(cut), "the cut came before anything was acknowledged"
    checker = Checker(cut, recorded.actions, tmp_path, strip_time=True)
    failures = []
    for mode, seed in (("synced", 0), ("random", 1)):
        dest = cut.image(None, mode, seed).write(tmp_path / mode)
        failures += [(f"live cut at sync {nth} ({mode}, seed {seed})", p) for p in checker.check(None, dest)]
    assert not failures, report(failures)
