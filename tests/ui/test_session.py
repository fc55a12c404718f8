"""The session's commits beside the app (issue 40): with `defer_commits`, as the app runs, an action's row is
committed on the journal's own thread while the screen is drawn, `settle` waits for it before anything of it
is shown, and the voice and the money in motion hear of it only once it is on disk. Should the commit fail,
the game is as the journal has it again and a notice says so; nothing unsaved was ever heard or shown."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from banker.journal import Journal, JournalError
from banker.script import Header
from flowkit import make, start, texts


def deferred(tmp_path: Path) -> Any:
    c = make(tmp_path, taps=False)
    start(c)
    c.session.defer_commits = True
    heard: list[list[Any]] = []
    c.session.moment_listeners.append(heard.append)
    return c, heard


def rows(path: Path) -> int:
    """The game's actions in the file, as another program reads it."""
    with Journal(path, write=False) as other:
        return len(other.export(other.latest_active() or 1)) - 1  # the header line aside


def test_a_deferred_commit_is_on_disk_and_heard_once_settled(tmp_path: Path) -> None:
    c, heard = deferred(tmp_path)
    before = rows(tmp_path / "games.sqlite3")
    threads = set()
    append = c.session.journal._append_on_writer

    def on_writer(*args: Any) -> None:
        threads.add(threading.current_thread().name)
        append(*args)
    c.session.journal._append_on_writer = on_writer  # type: ignore[method-assign]
    c.turn.roll()  # Ann to Baltic Avenue
    assert heard == []  # nothing heard before the commit is in
    assert c.session.settle()
    assert [m.code for m in heard[0]][:2] == ["rolled", "moved"]
    assert rows(tmp_path / "games.sqlite3") == before + 1
    assert threads and all(name.startswith("journal") for name in threads)  # the journal's own thread
    c.paying.request({"do": "buy"})  # the next action waits for the last one first
    assert c.session.settle() and c.session.settle()  # nothing in flight: settled at once
    assert rows(tmp_path / "games.sqlite3") == before + 2 and len(heard) == 2
    assert "Ann buys Baltic Avenue for 60" in texts(c)


def test_a_commit_that_fails_puts_the_game_back_as_the_journal_has_it(tmp_path: Path) -> None:
    c, heard = deferred(tmp_path)
    c.turn.roll()
    assert c.session.settle()
    heard.clear()
    cash = c.session.game.players[0].cash  # type: ignore[union-attr]
    journal = c.session.journal

    def full(*_: Any) -> None:
        raise JournalError(f"The disk holding the journal {journal.path} is full; nothing was changed.")
    journal._append_rows = full  # type: ignore[method-assign]
    c.paying.request({"do": "buy"})
    assert c.session.game.players[0].cash == cash - 60  # type: ignore[union-attr]  # in memory, not yet shown
    assert not c.session.settle()
    game = c.session.game
    assert game is not None and game.players[0].cash == cash and game.owner[3] == -1  # as the journal has it
    assert heard == []  # the voice never said it, the money never flew
    assert texts(c)[-1].startswith("The disk holding the journal") and c.paying.pending is None
    del journal._append_rows  # the disk has room again: the purchase goes through
    c.paying.request({"do": "buy"})
    assert c.session.settle() and c.session.game.owner[3] == 0  # type: ignore[union-attr]


def test_closing_waits_for_the_last_commit(tmp_path: Path) -> None:
    c, _ = deferred(tmp_path)
    c.turn.roll()
    c.paying.request({"do": "buy"})
    game_id = c.session.live.id  # type: ignore[union-attr]
    c.banker.abandon()
    assert c.session.live is None
    with Journal(tmp_path / "games.sqlite3", write=False) as other:
        assert other.load(game_id).game.owner[3] == 0  # the purchase is in the file


def test_append_later_in_memory_commits_at_once_and_a_failed_commit_is_taken_back(tmp_path: Path) -> None:
    with Journal(":memory:") as memory:  # no file: on the caller's thread, done when apply_later returns
        live = memory.start(Header(rules="classic", players=["Ann", "Ben"], seed=1))
        events, commit = live.apply_later({"do": "roll", "dice": [1, 2]})
        assert commit.pending.done() and commit.wait() is None and len(memory.export(live.id)) == 2
        assert [e.code for e in events][:2] == ["rolled", "moved"]
    path = tmp_path / "games.sqlite3"
    with Journal(path) as journal:
        live = journal.start(Header(rules="classic", players=["Ann", "Ben"], seed=1))
        _, commit = live.apply_later({"do": "roll", "dice": [1, 2]})
        commit.wait()
        journal.append_later(live.id, 1, {"do": "decline"}).result()  # another program's row in its place
        _, clash = live.apply_later({"do": "buy"})
        with pytest.raises(JournalError):
            clash.wait()
        assert live.game.owner[3] == -1 and len(live.game.script) == 1  # taken back in memory too


def test_the_writer_s_rows_are_numbered_and_counted_like_the_others(tmp_path: Path) -> None:
    """The writer's own connection keeps the journal's guarantees: a row number already taken is refused, and
    the file loads and checks as one written on the main thread."""
    path = tmp_path / "games.sqlite3"
    with Journal(path) as journal:
        live = journal.start(Header(rules="classic", players=["Ann", "Ben"], seed=1))
        for action in ({"do": "roll", "dice": [1, 2]}, {"do": "decline"}):
            _, commit = live.apply_later(action)
            commit.wait()
        taken = journal.append_later(live.id, 1, {"do": "roll", "dice": [1, 1]})
        with pytest.raises(JournalError):
            taken.result()
        game_id, script = live.id, list(live.game.script)
    with Journal(path, write=False) as reading:
        assert reading.load(game_id).game.script == script
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
