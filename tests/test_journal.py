"""The journal: durable, append-only, resumable, undoable, exportable, and loud about damage."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from banker.errors import IllegalAction
from banker.journal import SCHEMA_VERSION, Journal, JournalError, default_path
from banker.script import Header, replay_text

FIXTURES = Path(__file__).parent / "fixtures"
ROOT = Path(__file__).resolve().parent.parent

EXAMPLE = [{"do": "roll", "dice": [1, 2]}, {"do": "buy"}, {"do": "end_turn"},
           {"do": "roll", "dice": [1, 2]}, {"do": "end_turn"}]


def header(**kw: object) -> Header:
    return Header(rules="classic", players=["Ann", "Ben"], **kw)  # type: ignore[arg-type]


@pytest.fixture(params=["file", "memory"])
def journal(request: pytest.FixtureRequest, tmp_path: Path) -> Journal:
    """The same contract for a journal file and an in-memory one."""
    path = tmp_path / "games.sqlite3" if request.param == "file" else ":memory:"
    j = Journal(path)
    yield j
    j.close()


def cash(state: dict) -> list[int]:
    return [p["cash"] for p in state["players"]]


def test_actions_are_committed_and_resumed(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with Journal(path) as j:
        live = j.start(header())
        for action in EXAMPLE:
            live.apply(action)
        state = live.game.to_json()
        game_id = live.id
    assert cash(state) == [1444, 1496]
    with Journal(path) as j:  # after a restart
        assert j.latest_active() == game_id
        assert j.load(game_id).game.to_json() == state
        assert j.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert j.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_refused_action_writes_nothing(journal: Journal) -> None:
    live = journal.start(header())
    live.apply(EXAMPLE[0])
    with pytest.raises(IllegalAction):
        live.apply({"do": "end_turn"})
    assert len(journal.actions(live.id)) == 1
    assert journal.load(live.id).game.to_json() == live.game.to_json()


def test_double_append_fails_loudly(journal: Journal) -> None:
    live = journal.start(header())
    live.apply(EXAMPLE[0])
    with pytest.raises(JournalError, match="already has an action number 0"):
        journal.append(live.id, 0, {"do": "buy"})


def test_failed_commit_takes_the_action_back(journal: Journal, monkeypatch: pytest.MonkeyPatch) -> None:
    live = journal.start(header())
    live.apply(EXAMPLE[0])
    before = live.game.to_json()

    def full_disk(*args: object, **kw: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(journal, "append", full_disk)
    with pytest.raises(JournalError, match="could not be saved"):
        live.apply({"do": "buy"})
    assert live.game.to_json() == before
    assert len(live.game.script) == 1


def test_undo_any_number_of_times(journal: Journal) -> None:
    live = journal.start(header())
    states = [live.game.to_json()]
    for action in EXAMPLE:
        live.apply(action)
        states.append(live.game.to_json())
    for k in range(len(EXAMPLE)):
        live.undo()
        assert live.game.to_json() == states[-2 - k]
        assert journal.load(live.id).game.to_json() == live.game.to_json()
    with pytest.raises(IllegalAction):
        live.undo()
    rows = journal.actions(live.id)
    assert len(rows) == 2 * len(EXAMPLE)  # only ever appended: each undo is a row
    live.apply(EXAMPLE[0])
    assert journal.load(live.id).game.to_json() == live.game.to_json()


def test_export_replays_to_the_same_state(journal: Journal) -> None:
    import random

    from banker.ai import choose

    live = journal.start(header(seed=5))
    rng = random.Random(5)
    for step in range(120):
        if step % 17 == 16:
            live.undo()
        else:
            live.apply(choose(live.game, rng)[0])  # dice and cards filled in from the seed, journaled explicitly
    lines = journal.export(live.id)
    actions = [json.loads(line) for line in lines[1:]]
    assert all("dice" in a for a in actions if a["do"] == "roll")
    assert all("card" in a for a in actions if a["do"] == "draw")
    assert sum(a["do"] == "undo" for a in actions) == 7
    result = replay_text("\n".join(lines))
    assert result.error is None
    assert result.state == live.game.to_json()


def test_many_games_list_finish_delete(journal: Journal) -> None:
    first = journal.start(header())
    second = journal.start(Header(rules="classic-short", players=["Cy", "Dot", "Eve"], seed=1))
    second.apply({"do": "deal"})
    first.apply(EXAMPLE[0])
    infos = journal.games()
    assert [(i.id, i.rules, i.players, i.status, i.actions) for i in infos] == [
        (first.id, "classic", ["Ann", "Ben"], "active", 1),
        (second.id, "classic-short", ["Cy", "Dot", "Eve"], "active", 1)]
    assert journal.latest_active() == first.id  # the most recently played
    first.apply({"do": "end_game"})
    assert journal.status(first.id) == "finished"
    assert journal.latest_active() == second.id
    first.undo()  # taking back the end reopens the game
    assert journal.status(first.id) == "active"
    journal.set_status(second.id, "moved")
    assert journal.latest_active() == first.id
    journal.delete_game(first.id)
    assert [i.id for i in journal.games()] == [second.id]
    assert journal.actions(first.id) == []
    with pytest.raises(JournalError, match="no game"):
        journal.load(first.id)


def test_meta_document(journal: Journal) -> None:
    live = journal.start(header(), meta={"cards": {"04A32B1C": "Ann"}})
    meta = journal.meta(live.id)
    assert meta == {"version": 1, "cards": {"04A32B1C": "Ann"}}
    meta["pin"] = {"scheme": "scrypt", "salt": "00ff", "hash": "ab"}  # the app's PIN record (tests/ui/test_pin.py)
    journal.set_meta(live.id, meta)
    assert journal.meta(live.id)["pin"] == meta["pin"]


def test_ruleset_file_games_stand_on_their_own(tmp_path: Path) -> None:
    edition = tmp_path / "ours.toml"
    shutil.copy(ROOT / "banker" / "rulesets" / "classic.toml", edition)
    with Journal(tmp_path / "g.sqlite3") as j:
        live = j.start(Header(rules=str(edition), players=["Ann", "Ben"]))
        live.apply(EXAMPLE[0])
        edition.unlink()  # the family deletes their file: the game still loads and exports
        assert j.load(live.id).game.to_json() == live.game.to_json()
        assert "ruleset" in json.loads(j.export(live.id)[0])


def test_default_path_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("BANKER_JOURNAL", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_path() == tmp_path / "board-banker" / "games.sqlite3"
    monkeypatch.setenv("BANKER_JOURNAL", str(tmp_path / "x.db"))
    assert default_path() == tmp_path / "x.db"


# ---------------------------------------------------------------------------
# Damage: detected and reported in one sentence, never half-loaded


def make_journal(path: Path, actions: int = 40) -> tuple[int, dict]:
    from banker.ruleset import load_ruleset
    from banker.simulate import play_game

    game, head, _ = play_game("classic", load_ruleset("classic"), 4, 3)
    with Journal(path) as j:
        live = j.start(head)
        for action in game.script[:actions]:
            live.apply(action)
        j.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return live.id, live.game.to_json()


def load_all(path: Path) -> None:
    with Journal(path, create=False) as j:
        for info in j.games():
            j.load(info.id)


def one_sentence(message: str) -> None:
    assert message.count(". ") == 0 and message.endswith("."), message
    assert "\n" not in message


def test_truncated_file(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    make_journal(path)
    size = path.stat().st_size
    for keep in (size // 2, 100, 4096 + 10):
        damaged = tmp_path / f"cut{keep}.sqlite3"
        damaged.write_bytes(path.read_bytes()[:keep])
        with pytest.raises(JournalError) as info:
            load_all(damaged)
        one_sentence(str(info.value))


def test_flipped_bytes_anywhere(tmp_path: Path) -> None:
    import random

    path = tmp_path / "g.sqlite3"
    game_id, state = make_journal(path)
    data = path.read_bytes()
    rng = random.Random(4)
    outcomes = {"refused": 0, "unchanged": 0}
    for k in range(150):
        damaged = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            damaged[rng.randrange(len(damaged))] ^= 1 << rng.randrange(8)
        target = tmp_path / f"flip{k}.sqlite3"
        target.write_bytes(bytes(damaged))
        try:
            with Journal(target, create=False) as j:
                loaded = j.load(game_id).game.to_json()
        except JournalError as exc:
            one_sentence(str(exc))
            outcomes["refused"] += 1
            continue
        # A flip in unused space may be harmless, but whatever loads is the true game.
        assert loaded == state
        outcomes["unchanged"] += 1
    assert outcomes["refused"] > 0


def test_flipped_action_text_is_caught_by_its_checksum(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    game_id, _ = make_journal(path)
    with sqlite3.connect(path) as db:
        text = db.execute("SELECT action FROM actions WHERE game = ? AND seq = 5", (game_id,)).fetchone()[0]
        db.execute("UPDATE actions SET action = ? WHERE game = ? AND seq = 5",
                   (text.replace("1", "2", 1) if "1" in text else text + " ", game_id))
    with pytest.raises(JournalError, match="Action 5 of game 1 .* is damaged"):
        load_all(path)


def test_not_a_journal_and_newer_schema(tmp_path: Path) -> None:
    other = tmp_path / "notes.sqlite3"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE notes (x)")
    with pytest.raises(JournalError, match="not a Board Banker journal"):
        Journal(other)
    text = tmp_path / "text.sqlite3"
    text.write_text("hello, this is not a database at all " * 200)
    with pytest.raises(JournalError, match="damaged"):
        Journal(text)
    newer = tmp_path / "newer.sqlite3"
    make_journal(newer, 2)
    with sqlite3.connect(newer) as db:
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    with pytest.raises(JournalError, match="newer Board Banker"):
        Journal(newer)
    with pytest.raises(JournalError, match="There is no journal"):
        Journal(tmp_path / "missing.sqlite3", create=False)


def test_journal_written_by_version_0_1_still_opens(tmp_path: Path) -> None:
    """tests/fixtures/journal-v1.sqlite3 was written by the first journal (schema 1); keep it opening."""
    copy = tmp_path / "old.sqlite3"
    shutil.copy(FIXTURES / "journal-v1.sqlite3", copy)
    expected = json.loads((FIXTURES / "journal-v1.expected.json").read_text("utf-8"))
    with Journal(copy, create=False) as j:
        assert [i.to_json()["rules"] for i in j.games()] == ["classic", "classic-short"]
        for info in j.games():
            assert j.load(info.id).game.to_json() == expected[str(info.id)]
        assert j.meta(1)["cards"] == {"04A32B1C": "Ann", "04B7771A2C5E80": "Ben"}


# ---------------------------------------------------------------------------
# Crash test: SIGKILL at random instants while a real process journals a game


def long_script(tmp_path: Path) -> tuple[Path, list[dict]]:
    out = subprocess.run([sys.executable, "-m", "banker", "simulate", "--games", "1", "--players", "4",
                          "--seed", "2", "--save-scripts", str(tmp_path / "sims")],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.returncode == 0
    script = next((tmp_path / "sims").glob("*.jsonl"))
    actions = [json.loads(line) for line in script.read_text("utf-8").splitlines()[1:]]
    assert len(actions) > 500
    return script, actions


def _read_acks(proc: subprocess.Popen[str], acked: list[int], target: int, reached: threading.Event) -> None:
    """Collect the sequence numbers `banker replay --progress` says are committed; `reached` is set once
    there are `target` of them, or the process has ended."""
    assert proc.stderr is not None
    for line in proc.stderr:
        if line.startswith("committed "):
            acked.append(int(line.split()[1]))
            if len(acked) >= target:
                reached.set()
    reached.set()


def test_sigkill_at_random_moments_loses_nothing_acknowledged(tmp_path: Path) -> None:
    import random
    import signal

    script, actions = long_script(tmp_path)
    rng = random.Random(11)
    env = dict(os.environ)
    for run in range(12):
        db = tmp_path / f"crash{run}.sqlite3"
        proc = subprocess.Popen([sys.executable, "-m", "banker", "replay", str(script), "--journal", str(db),
                                 "--progress"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                env=env)
        acked: list[int] = []
        target = rng.randint(0, len(actions))  # kill after about this many acknowledgements
        reached = threading.Event()

        reader = threading.Thread(target=_read_acks, args=(proc, acked, target, reached), daemon=True)
        reader.start()
        reached.wait(timeout=120)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        reader.join(timeout=30)
        if not db.exists():
            assert not acked
            continue
        with Journal(db, create=False) as j:
            games = j.games()
            if not games:
                assert not acked
                continue
            saved = j.actions(games[0].id)
            live = j.load(games[0].id)  # opens and replays without error
            lines = j.export(games[0].id)
        print(f"run {run}: killed after {len(acked)} acknowledged, journal holds {len(saved)}")
        assert saved == actions[:len(saved)], "the journal holds a prefix of the script"
        if acked:
            assert len(saved) >= acked[-1] + 1, "an acknowledged action is missing"
        result = replay_text("\n".join(lines))
        assert result.error is None and result.state == live.game.to_json()


# ---------------------------------------------------------------------------
# The command line


def banker(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "banker", *args], capture_output=True, text=True, cwd=cwd,
                          env=dict(os.environ), timeout=120)


def test_command_line(tmp_path: Path) -> None:
    script = tmp_path / "example.jsonl"
    script.write_text("\n".join([json.dumps({"rules": "classic", "players": ["Ann", "Ben"]})]
                                + [json.dumps(a) for a in EXAMPLE]) + "\n", "utf-8")
    db = tmp_path / "games.sqlite3"
    out = banker("replay", str(script), "--journal", str(db), "--json")
    assert out.returncode == 0 and cash(json.loads(out.stdout)) == [1444, 1496]
    listed = banker("games", str(db), "--json")
    assert [(g["id"], g["actions"], g["status"]) for g in json.loads(listed.stdout)] == [(1, 5, "active")]
    exported = banker("export", str(db), "--game", "1")
    assert [json.loads(x) for x in exported.stdout.splitlines()[1:]] == EXAMPLE
    state = banker("state", str(db), "--json")
    assert cash(json.loads(state.stdout)) == [1444, 1496]
    assert banker("undo", str(db), "--steps", "2").returncode == 0
    assert cash(json.loads(banker("state", str(db), "--json").stdout)) == [1440, 1500]
    finished = banker("finish", str(db))
    assert finished.returncode == 0 and "game over: Ann and Ben tie for the win" in finished.stdout
    assert json.loads(banker("games", str(db), "--json").stdout)[0]["status"] == "finished"
    assert banker("delete", str(db), "--game", "1").returncode == 1  # needs --yes
    assert banker("delete", str(db), "--game", "1", "--yes").returncode == 0
    assert "no games" in banker("games", str(db)).stdout
    missing = banker("games", str(tmp_path / "none.sqlite3"))
    assert missing.returncode == 2 and "There is no journal" in missing.stderr
    bad = script.with_name("bad.jsonl")
    bad.write_text(script.read_text("utf-8") + '{"do": "buy"}\n', "utf-8")
    refused = banker("replay", str(bad), "--journal", str(db))
    assert refused.returncode == 1 and refused.stderr.startswith("line 7: ")
    with Journal(db) as j:
        assert len(j.actions(j.games()[-1].id)) == 5  # the refused line wrote nothing


# ---------------------------------------------------------------------------
# Reading never writes; permissions are not damage; undo --steps; seeds; imports that fail (issue 17)


def example_journal(tmp_path: Path, name: str = "games.sqlite3", seed: int | None = None) -> Path:
    script = tmp_path / "example.jsonl"
    head: dict = {"rules": "classic", "players": ["Ann", "Ben"]}
    if seed is not None:
        head["seed"] = seed
    script.write_text("\n".join([json.dumps(head)] + [json.dumps(a) for a in EXAMPLE[:3]]) + "\n", "utf-8")
    db = tmp_path / name
    out = banker("replay", str(script), "--journal", str(db))
    assert out.returncode == 0, out.stderr
    return db


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


def test_reading_commands_leave_an_empty_file_untouched(tmp_path: Path) -> None:
    folder = tmp_path / "j"
    folder.mkdir()
    empty = folder / "games.sqlite3"
    empty.write_bytes(b"")
    before = snapshot(folder)
    listed = banker("games", str(empty))
    assert listed.returncode == 0 and listed.stdout.strip() == f"no games in {empty}", listed.stderr
    assert banker("games", str(empty), "--json").stdout.strip() == "[]"
    for command in ("state", "export"):
        out = banker(command, str(empty))
        assert out.returncode == 1 and out.stderr.strip() == f"no games in {empty}", out.stderr
    assert snapshot(folder) == before  # no schema written into it, no log files beside it


def test_reading_commands_never_create_a_file(tmp_path: Path) -> None:
    missing = tmp_path / "none.sqlite3"
    for command in ("games", "state", "export", "undo", "finish"):
        out = banker(command, str(missing))
        assert out.returncode == 2 and out.stderr.strip() == f"There is no journal at {missing}.", out.stderr
    gone = tmp_path / "no-such-folder" / "games.sqlite3"
    out = banker("games", str(gone))
    assert out.returncode == 2 and "its folder" in out.stderr and "does not exist" in out.stderr
    assert list(tmp_path.iterdir()) == []


def test_reading_a_healthy_journal_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "j").mkdir()
    db = example_journal(tmp_path / "j")
    before = snapshot(db.parent)
    for command in (["games"], ["state"], ["export"], ["games", "--json"], ["state", "--json"]):
        out = banker(command[0], str(db), *command[1:])
        assert out.returncode == 0, out.stderr
    assert snapshot(db.parent) == before


def test_reading_an_old_schema_upgrades_a_private_copy_only(tmp_path: Path) -> None:
    copy = tmp_path / "old.sqlite3"
    shutil.copy(FIXTURES / "journal-v1.sqlite3", copy)
    before = copy.read_bytes()
    expected = json.loads((FIXTURES / "journal-v1.expected.json").read_text("utf-8"))
    with Journal(copy, create=False, write=False) as j:
        assert j.load(1).game.to_json() == expected["1"]
    assert copy.read_bytes() == before
    with sqlite3.connect(copy) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1
    with Journal(copy, create=False) as j:  # a writing open upgrades the file itself
        assert j.load(1).game.to_json() == expected["1"]
    with sqlite3.connect(copy) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def without_override(command: list[str]) -> list[str]:
    """The command run as a user that file permissions bind: root is stripped of its capabilities (CI runs
    as root, which otherwise ignores them)."""
    if os.geteuid() != 0:
        return command
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: cannot drop the capabilities that ignore permissions")
    return [setpriv, "--inh-caps=-all", "--bounding-set=-all", *command]


def plain_banker(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(without_override([sys.executable, "-m", "banker", *args]), capture_output=True,
                          text=True, cwd=ROOT, env=dict(os.environ), timeout=120)


@pytest.fixture
def read_only(tmp_path: Path):  # type: ignore[no-untyped-def]
    folders: list[Path] = []

    def make(folder: Path, files: bool = True) -> None:
        if files:
            for item in folder.iterdir():
                item.chmod(0o444)
        folder.chmod(0o555)
        folders.append(folder)

    yield make
    for folder in folders:
        folder.chmod(0o755)
        for item in folder.iterdir():
            item.chmod(0o644)


def test_read_only_folder_is_not_damage(tmp_path: Path, read_only) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "ro"
    folder.mkdir()
    db = example_journal(folder)
    flag = {"games": "--json", "state": "--json", "export": "--game=1"}
    expected = {c: banker(c, str(db), flag[c]).stdout for c in flag}
    read_only(folder)
    before = snapshot(folder)
    for command in flag:
        out = plain_banker(command, str(db), flag[command])
        assert out.returncode == 0 and out.stdout == expected[command], out.stderr
    for command in (["undo", str(db)], ["finish", str(db)], ["delete", str(db), "--game", "1", "--yes"]):
        out = plain_banker(*command)
        assert out.returncode == 2 and "damaged" not in out.stderr, out.stderr
        assert out.stderr.strip() == f"The journal {db} is read-only for this user; nothing was changed.", out.stderr
    assert snapshot(folder) == before


def test_read_only_folder_with_a_writable_file(tmp_path: Path, read_only) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "ro"
    folder.mkdir()
    db = example_journal(folder)
    read_only(folder, files=False)
    out = plain_banker("undo", str(db))
    assert out.returncode == 2 and out.stderr.strip() == (
        f"The journal {db} is in a folder this user cannot write ({folder}), and SQLite needs to write its log "
        "beside it; nothing was changed."), out.stderr
    assert plain_banker("state", str(db)).returncode == 0


def test_read_only_folder_still_shows_rows_in_the_log(tmp_path: Path,
                                                      read_only) -> None:  # type: ignore[no-untyped-def]
    """A journal left with committed rows in its -wal (the app was running, or lost power): reading it in a
    read-only folder shows them (SQLite's immutable mode would hide them)."""
    source = tmp_path / "live"
    source.mkdir()
    j = Journal(source / "games.sqlite3")
    j.db.execute("PRAGMA wal_autocheckpoint=0")  # keep every row in the log
    live = j.start(header())
    for action in EXAMPLE:
        live.apply(action)
    state = live.game.to_json()
    folder = tmp_path / "ro"
    folder.mkdir()
    for name in ("games.sqlite3", "games.sqlite3-wal"):  # copied while open: as a power cut leaves them
        shutil.copyfile(source / name, folder / name)
    j.close()
    assert (folder / "games.sqlite3-wal").stat().st_size > 0
    read_only(folder)
    before = snapshot(folder)
    out = plain_banker("state", str(folder / "games.sqlite3"), "--json")
    assert out.returncode == 0 and json.loads(out.stdout) == state, out.stderr
    listed = plain_banker("games", str(folder / "games.sqlite3"), "--json")
    assert [g["actions"] for g in json.loads(listed.stdout)] == [len(EXAMPLE)]
    assert snapshot(folder) == before


def test_unreadable_journal_is_not_damage(tmp_path: Path) -> None:
    db = example_journal(tmp_path)
    db.chmod(0o000)
    try:
        out = plain_banker("games", str(db))
    finally:
        db.chmod(0o644)
    assert out.returncode == 2 and out.stderr.strip() == (
        f"The journal {db} cannot be read by this user (permissions); nothing was changed."), out.stderr


def test_a_journal_folder_that_cannot_be_made(tmp_path: Path, read_only) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "ro"
    folder.mkdir()
    read_only(folder)
    script = tmp_path / "example.jsonl"
    script.write_text(json.dumps({"rules": "classic", "players": ["Ann", "Ben"]}) + "\n", "utf-8")
    out = plain_banker("import", str(script), "--journal", str(folder / "new" / "games.sqlite3"))
    assert out.returncode == 2 and out.stderr.startswith(f"The folder {folder / 'new'} for the journal "), out.stderr
    assert "Traceback" not in out.stderr and list(folder.iterdir()) == []


def test_undo_steps_are_checked_before_anything_is_written(tmp_path: Path) -> None:
    db = example_journal(tmp_path)  # three actions
    before = db.read_bytes()
    for steps in ("-5", "0"):
        out = banker("undo", str(db), "--steps", steps)
        assert out.returncode == 2 and out.stderr.strip() == (
            f"banker undo: --steps must be at least 1, not {steps}; nothing was undone"), out.stderr
    out = banker("undo", str(db), "--steps", "10")
    assert out.returncode == 1 and out.stderr.strip() == (
        "Game 1 has 3 actions that can be undone, not 10; nothing was undone."), out.stderr
    assert db.read_bytes() == before
    with Journal(db) as j:
        assert len(j.actions(1)) == 3
    assert banker("undo", str(db), "--steps", "3").returncode == 0
    with Journal(db) as j:
        assert [a["do"] for a in j.actions(1)] == ["roll", "buy", "end_turn", "undo", "undo", "undo"]
        assert j.load(1).game.history == []
    out = banker("undo", str(db))
    assert out.returncode == 1 and "Traceback" not in out.stderr and out.stderr.strip()


def test_undo_of_several_steps_is_one_transaction(journal: Journal) -> None:
    live = journal.start(header())
    for action in EXAMPLE:
        live.apply(action)
    state = live.game.to_json()
    # The third undo's row cannot be written: none of the three may stay.
    journal.db.execute("CREATE TEMP TRIGGER no_third BEFORE INSERT ON main.actions WHEN NEW.seq = 7 "
                       "BEGIN SELECT RAISE(ABORT, 'disk full'); END")
    with pytest.raises(JournalError):
        live.undo(3)
    assert live.game.to_json() == state and len(live.game.script) == len(EXAMPLE)
    assert len(journal.actions(live.id)) == len(EXAMPLE)
    journal.db.execute("DROP TRIGGER no_third")
    live.undo(3)
    assert [a["do"] for a in journal.actions(live.id)][-3:] == ["undo"] * 3
    assert journal.load(live.id).game.to_json() == live.game.to_json()


def test_games_gives_no_count_for_a_game_state_refuses(tmp_path: Path) -> None:
    db = example_journal(tmp_path)
    script = tmp_path / "example.jsonl"
    assert banker("import", str(script), "--journal", str(db)).returncode == 0  # game 2, healthy
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE games SET action_count = 2 WHERE id = 1")  # the record no longer matches its rows
    refused = banker("state", str(db), "--game", "1")
    assert refused.returncode == 2 and "holds 3 actions where its record counts 2" in refused.stderr
    listed = banker("games", str(db), "--json")
    assert listed.returncode == 0, listed.stderr
    games = json.loads(listed.stdout)
    assert games[0]["actions"] is None and games[0]["damaged"] == refused.stderr.strip()
    assert games[1]["actions"] == 3 and "damaged" not in games[1]
    text = banker("games", str(db)).stdout.splitlines()
    assert "damaged" in text[0] and refused.stderr.strip() in text[0] and "actions" not in text[0].split("damaged")[0]
    assert "3 actions" in text[1]


@pytest.mark.parametrize("seed", [2**63, -2**63 - 1, 10**99 + 7, -(10**99) - 3, 2**63 - 1, 0])
def test_every_seed_replay_accepts_is_journaled(tmp_path: Path, seed: int) -> None:
    script = tmp_path / "seeded.jsonl"
    script.write_text(json.dumps({"rules": "classic", "players": ["Ann", "Ben"], "seed": seed}) + "\n"
                      + json.dumps({"do": "roll"}) + "\n", "utf-8")  # dice and deck order from the seed
    plain = banker("replay", str(script), "--json")
    assert plain.returncode == 0, plain.stderr
    db = tmp_path / "g.sqlite3"
    journaled = banker("replay", str(script), "--journal", str(db), "--json")
    assert journaled.returncode == 0 and journaled.stdout == plain.stdout, journaled.stderr
    imported = banker("import", str(script), "--journal", str(db))
    assert imported.returncode == 0 and imported.stdout.strip() == "2", imported.stderr
    for game in ("1", "2"):
        exported = banker("export", str(db), "--game", game)
        assert json.loads(exported.stdout.splitlines()[0])["seed"] == seed
        assert banker("state", str(db), "--game", game, "--json").stdout == plain.stdout
    with Journal(db) as j:
        assert j.header(1).seed == seed and type(j.header(1).seed) is int


def test_a_refused_import_leaves_nothing_behind(tmp_path: Path) -> None:
    db = example_journal(tmp_path)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([json.dumps({"rules": "classic", "players": ["Cy", "Dot"]})]
                             + [json.dumps(a) for a in EXAMPLE[:3]] + ['{"do": "buy"}']) + "\n", "utf-8")
    out = banker("import", str(bad), "--journal", str(db))
    assert out.returncode == 1 and out.stderr.startswith("line 5: "), out.stderr
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT id, status FROM games").fetchall() == [(1, "active")]  # no hidden game
        assert raw.execute("SELECT COUNT(*) FROM actions WHERE game <> 1").fetchone()[0] == 0


def test_an_import_that_fails_half_way_leaves_nothing_behind(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure of the journal itself (here a disk error on the fourth action) rolls the whole import back."""
    from banker import cli

    db = example_journal(tmp_path)
    script = tmp_path / "example.jsonl"
    script.write_text("\n".join([json.dumps({"rules": "classic", "players": ["Cy", "Dot"]})]
                                + [json.dumps(a) for a in EXAMPLE]) + "\n", "utf-8")
    real = Journal.append_many
    calls: list[int] = []

    def failing(self: Journal, game_id: int, seq: int, actions: object, status: object = None,
                summary: object = None) -> None:
        calls.append(seq)
        if seq == 3:
            raise sqlite3.OperationalError("disk I/O error")
        real(self, game_id, seq, actions, status, summary)  # type: ignore[arg-type]

    monkeypatch.setattr(Journal, "append_many", failing)
    assert cli.main(["import", str(script), "--journal", str(db)]) == 2
    assert calls == [0, 1, 2, 3]
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT id FROM games").fetchall() == [(1,)]
        assert raw.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == 3


def test_a_journal_path_that_is_not_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    script = tmp_path / "example.jsonl"
    script.write_text(json.dumps({"rules": "classic", "players": ["Ann", "Ben"]}) + "\n", "utf-8")
    for path in (fifo, Path("/dev/zero")):
        for command in (["games", str(path)], ["undo", str(path)], ["import", str(script), "--journal", str(path)]):
            out = banker(*command)
            assert out.returncode == 2 and out.stderr.strip() == (
                f"{path} is not a regular file (a device or a pipe), so not a journal; nothing was changed."), out
    out = banker("games", str(tmp_path))
    assert out.returncode == 2
    assert out.stderr.strip() == f"{tmp_path} is a folder, not a journal file; nothing was changed."


def test_a_folder_this_user_cannot_look_into(tmp_path: Path) -> None:
    folder = tmp_path / "closed"
    folder.mkdir()
    db = example_journal(folder)
    script = folder / "example.jsonl"
    folder.chmod(0o600)  # readable, but not searchable: the file inside cannot even be looked at
    try:
        outs = [plain_banker(c, str(db)) for c in ("games", "state", "undo")]
        outs.append(plain_banker("import", str(tmp_path / "none.jsonl"), "--journal", str(db)))
    finally:
        folder.chmod(0o755)
    for out in outs:
        assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
        assert out.stderr.strip() == (
            f"The journal {db} cannot be read by this user (permissions); nothing was changed."), out.stderr
    assert script.exists()


def test_the_folder_made_for_a_new_journal_is_synced_into_its_parent(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder made by mkdir alone is lost by a power cut with the journal in it (tests/ui/test_power_cuts_app.py
    found the app's data folder lost so): each folder made is synced into its parent (banker/files.py)."""
    from banker import files

    synced: list[Path] = []
    real = files.sync_folder

    def sync_folder(folder: Path) -> None:
        synced.append(folder)
        real(folder)

    monkeypatch.setattr(files, "sync_folder", sync_folder)
    with Journal(tmp_path / "data" / "board-banker" / "games.sqlite3"):
        pass
    assert synced == [tmp_path, tmp_path / "data"]
