"""What a card reader reports, collected for the tests, with a condition to wait on
(tests never sleep to wait for an event)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from hardware.events import CardTapped, ReaderStatus

WAIT = 3.0  # the most any wait may take; they normally end within milliseconds


class Collector:
    def __init__(self) -> None:
        self.taps: list[CardTapped] = []
        self.statuses: list[ReaderStatus] = []
        self.changed = threading.Condition()

    def on_tap(self, event: CardTapped) -> None:
        with self.changed:
            self.taps.append(event)
            self.changed.notify_all()

    def on_status(self, event: ReaderStatus) -> None:
        with self.changed:
            self.statuses.append(event)
            self.changed.notify_all()

    def wait(self, predicate: Callable[[], bool], timeout: float = WAIT) -> bool:
        with self.changed:
            return self.changed.wait_for(predicate, timeout)

    def uids(self) -> list[str]:
        with self.changed:
            return [t.uid for t in self.taps]

    def words(self) -> list[str]:
        with self.changed:
            return [s.word for s in self.statuses]
