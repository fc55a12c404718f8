"""The family's history for the hall of fame, kept ready so that the page opens as fast as any other.

Reading and checking the stored summaries of a thousand games (`Journal.summaries`: one pass of SQLite over
every action row) takes half a second here, more on a Pi: too long for a tap. So the app reads them once, on a
thread of its own with a journal connection of its own, after its first frame (`History.start`, from
ui/app.py), having first given an older journal the summaries it lacks (`Journal.fill_summaries`, which replays
each finished game once; a schema 2 journal of 1,000 games takes some 17 s here). From then on each look at the
history (`History.stats`, on the main thread) costs one query for every game's status, count and hash
(`Journal.game_keys`) and the summary of each game that changed since (`Journal.summary`: the game just ended,
one undone or deleted), and then the sums (`banker.report.tally`).

Until the first reading is in, `stats` gives None (the hall of fame says it is counting); a session whose thread
was never started (the flow tests, the tools) reads everything on the spot at its first look.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from banker.journal import GameSummary, Journal, JournalError
from banker.report import tally

log = logging.getLogger(__name__)

PAUSE = 0.01
"""Seconds the filling thread sleeps after each game: a replay holds the interpreter, and a touch that comes
meanwhile waits for it (benchmarks/bench_fame.py: touches during the fill of 1,000 games)."""

Keys = dict[int, tuple[Any, Any, Any]]  # game -> (status, action count, running hash): `Journal.game_keys`


class History:
    """Every finished game's summary, kept in step with the journal."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._keys: Keys = {}
        self._summaries: dict[int, GameSummary] | None = None  # None until the first reading is in
        self._read: tuple[Keys, list[GameSummary]] | None = None  # the thread's reading, adopted by `stats`
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.filled = 0  # summaries the thread stored for an older journal

    def start(self, on_ready: Callable[[], None] = lambda: None) -> None:
        """Fill in and read the summaries on a thread of its own; `on_ready()` (called from that thread) once
        the reading is in. Once only; nothing for a journal in memory."""
        if self._thread is not None or str(self.path) == ":memory:":
            return
        self._thread = threading.Thread(target=self._work, args=(on_ready,), name="history", daemon=True)
        self._thread.start()

    def _work(self, on_ready: Callable[[], None]) -> None:
        try:
            with Journal(self.path, create=False) as journal:
                self.filled = journal.fill_summaries(stop=self._stop.is_set, pause=PAUSE)
                if self._stop.is_set():
                    return
                keys = journal.game_keys()  # before the summaries: a game changed in between is read again
                self._read = (keys, journal.summaries())
        except JournalError as exc:  # the main thread's own look will meet the same journal and say so
            log.info("the history was not read beside the app: %s", exc)
        finally:
            if not self._stop.is_set():
                on_ready()

    def stop(self) -> None:
        """Stop the thread after the game it is at (the app is closing)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    @property
    def reading(self) -> bool:
        """The thread's first reading is still under way."""
        return (self._summaries is None and self._read is None and self._thread is not None
                and self._thread.is_alive())

    def stats(self, journal: Journal) -> dict[str, Any] | None:
        """The family's history now (`banker.report.family_stats`'s JSON), or None while the first reading is
        under way. Raises JournalError when the journal cannot be read."""
        if self._summaries is None:
            if self.reading:
                return None
            if self._read is not None:
                self._keys, found = self._read
            else:  # never started, or the thread could not read: read it here
                self._keys, found = journal.game_keys(), journal.summaries()
            self._summaries = {s.id: s for s in found}
            self._read = None
        keys = journal.game_keys()
        summaries = self._summaries
        for game_id in set(self._keys) | set(keys):
            if self._keys.get(game_id) == keys.get(game_id):
                continue
            summaries.pop(game_id, None)
            if game_id in keys:
                found_one = journal.summary(game_id)
                if found_one is not None:
                    summaries[game_id] = found_one
        self._keys = keys
        return tally(summaries[k] for k in sorted(summaries))

    def finished(self) -> list[GameSummary]:
        """The finished games the last `stats` counted (played to an end, not abandoned), newest first: the hall
        of fame lists them, each opening its report."""
        found = self._summaries or {}
        return [s for k, s in sorted(found.items(), reverse=True) if s.summary is not None and s.summary["ended"]]


__all__ = ["History"]
