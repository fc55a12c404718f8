"""The hall of fame's history (ui/history.py): read once beside the app (an older journal's summaries filled in
first), then kept in step with the journal by looking only at the games that changed."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest

from banker.journal import Journal
from banker.report import family_stats
from banker.ruleset import load_ruleset
from banker.simulate import play_game
from ui.history import History

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def finished_game(journal: Journal, seed: int, rules: str = "classic") -> int:
    game, header, _ = play_game(rules, load_ruleset(rules), 3, seed, max_turns=40)
    live = journal.start(header)
    for action in game.script:
        live.apply(action)
    return live.id


def counted(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    """Calls of `Journal.<name>(game_id)` from now on, by game."""
    calls: list[int] = []
    real = getattr(Journal, name)

    def wrapper(self: Journal, game_id: int) -> Any:
        calls.append(game_id)
        return real(self, game_id)

    monkeypatch.setattr(Journal, name, wrapper)
    return calls


def test_an_older_journal_is_filled_and_read_beside_the_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "games.sqlite3"
    shutil.copy(FIXTURES / "journal-v2.sqlite3", path)
    expected = json.loads((FIXTURES / "journal-v2.stats.json").read_text("utf-8"))
    with Journal(path) as journal:  # the app's own open: upgraded to schema 3, summaries still missing
        assert journal.missing_summaries() == [1, 2, 3, 5, 7]
        history = History(path)
        ready = threading.Event()
        history.start(ready.set)
        assert ready.wait(60)
        assert history.filled == 5
        assert journal.missing_summaries() == []
        loads = counted(monkeypatch, "load")
        assert history.stats(journal) == expected
        assert loads == []  # everything read by the thread
        # A game ends at the table: the next look reads that game's summary alone.
        looked = counted(monkeypatch, "summary")
        new = finished_game(journal, 4)
        stats = history.stats(journal)
        assert looked == [new] and loads == []
        assert stats == family_stats(journal) and stats["games"] == expected["games"] + 1
        # Its end undone, it leaves the history; deleted, it is gone; the others are not looked at again.
        journal.load(new).undo(1)
        assert history.stats(journal) == expected
        journal.delete_game(new)
        assert history.stats(journal) == expected
        assert looked == [new, new]
        history.stop()


def test_while_the_first_reading_is_under_way_there_is_no_history_yet(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "games.sqlite3"
    with Journal(path) as journal:
        finished_game(journal, 1)
        release, entered = threading.Event(), threading.Event()
        real = Journal.fill_summaries

        def slow(self: Journal, stop: Any = lambda: False, pause: float = 0.0) -> int:
            entered.set()
            release.wait(30)
            return real(self, stop, pause)

        monkeypatch.setattr(Journal, "fill_summaries", slow)
        history = History(path)
        ready = threading.Event()
        history.start(ready.set)
        assert entered.wait(30)
        assert history.reading and history.stats(journal) is None
        release.set()
        assert ready.wait(30)
        assert history.stats(journal) == family_stats(journal)
        history.stop()


def test_stopped_it_stops_after_the_game_it_is_at(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "games.sqlite3"
    with Journal(path) as journal:
        ids = [finished_game(journal, seed) for seed in range(3)]
        journal.db.execute("DELETE FROM summaries")  # as an older journal: every summary to be made
        history = History(path)
        real = Journal.load
        stopping: list[int] = []

        def load_then_stop(self: Journal, game_id: int) -> Any:
            stopping.append(game_id)
            history._stop.set()  # the app closes while the first game is being summarised
            return real(self, game_id)

        monkeypatch.setattr(Journal, "load", load_then_stop)
        ready = threading.Event()
        history.start(ready.set)
        history._thread.join(30)  # type: ignore[union-attr]
        assert stopping == [ids[0]] and history.filled == 1 and not ready.is_set()
        monkeypatch.undo()
        assert journal.missing_summaries() == ids[1:]


def test_never_started_it_reads_at_the_first_look(tmp_path: Path) -> None:
    with Journal(tmp_path / "games.sqlite3") as journal:
        finished_game(journal, 2, "brands")
        history = History(journal.path)
        assert not history.reading
        assert history.stats(journal) == family_stats(journal)
    assert History(Path(":memory:")).reading is False
