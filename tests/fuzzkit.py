"""What the fuzzers share (tests/test_fuzz_scripts.py, tests/test_fuzz_rulesets.py,
tests/hardware/test_config_fuzz.py): a time limit on one case, so that a hang fails the case that made it."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator


class Hang(Exception):
    """A case took longer than its time limit."""


@contextlib.contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    """Raise Hang in the block once `seconds` have passed (SIGALRM: the main thread only)."""
    def ring(signum: int, frame: object) -> None:
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
