"""The journal: durable, append-only, resumable, undoable, exportable, and loud about damage."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from banker.errors import IllegalAction
from banker.journal import (SCHEMA_VERSION, Journal, JournalError, check_pin, default_path, hash_pin)
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


def test_meta_document_and_pin(journal: Journal) -> None:
    live = journal.start(header(), meta={"cards": {"04A32B1C": "Ann"}})
    meta = journal.meta(live.id)
    assert meta == {"version": 1, "cards": {"04A32B1C": "Ann"}}
    meta["pin"] = hash_pin("2468")
    journal.set_meta(live.id, meta)
    stored = journal.meta(live.id)["pin"]
    assert "2468" not in json.dumps(stored)
    assert check_pin(stored, "2468") and not check_pin(stored, "1357")


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


def test_sigkill_at_random_moments_loses_nothing_acknowledged(tmp_path: Path) -> None:
    import random
    import signal
    import threading

    script, actions = long_script(tmp_path)
    rng = random.Random(11)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for run in range(12):
        db = tmp_path / f"crash{run}.sqlite3"
        proc = subprocess.Popen([sys.executable, "-m", "banker", "replay", str(script), "--journal", str(db),
                                 "--progress"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                env=env)
        acked: list[int] = []
        target = rng.randint(0, len(actions))  # kill after about this many acknowledgements
        reached = threading.Event()

        def read() -> None:
            assert proc.stderr is not None
            for line in proc.stderr:
                if line.startswith("committed "):
                    acked.append(int(line.split()[1]))
                    if len(acked) >= target:
                        reached.set()
            reached.set()

        reader = threading.Thread(target=read, daemon=True)
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
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)


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
