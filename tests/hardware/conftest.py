"""The tests' own pcscd, for every test of the pcsc kind (test_pcsc.py, and test_reader_contract.py's pcsc cases).

One pcscd for the whole run: it is started by the first test that needs it and stopped at the end. A pcscd that
was already running (or a socket systemd holds for one) is never touched: those tests are skipped instead. vpcd
listens on one fixed port and pcscd has one socket, so those tests share one xdist worker (xdist_group "pcsc")
and run one at a time.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from readerkit import Pcscd, pcscd_missing


@pytest.fixture(scope="session")
def pcscd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pcscd]:
    why = pcscd_missing()
    if why:
        pytest.skip(why)
    daemon = Pcscd(tmp_path_factory.mktemp("pcscd") / "pcscd.log")
    daemon.start()
    try:
        yield daemon
    finally:
        daemon.stop()


@pytest.fixture
def running(pcscd: Pcscd) -> Iterator[Pcscd]:
    """pcscd up at the start of the test (a test that stopped it leaves it running again)."""
    if pcscd.process is None:
        pcscd.start()
    yield pcscd
    if pcscd.process is None:
        pcscd.start()
