"""The banker's PIN record (ui/pin.py): salted scrypt, kept in the game's meta document in the journal."""

from __future__ import annotations

import json
from pathlib import Path

from banker.journal import Journal
from banker.script import Header
from ui.pin import check_pin, hash_pin

# A record as journals already hold it (made by the code before it moved out of banker/journal.py): it
# must go on checking, so the format never changes.
OLD_RECORD = {"scheme": "scrypt", "n": 16384, "r": 8, "p": 1, "salt": "000102030405060708090a0b0c0d0e0f",
              "hash": "cea4f1390f7e25d3e56e52eacd3a602cc3365139a2960ffded25685db19eb9ff"}


def test_a_pin_is_kept_hashed_in_the_journal_and_checks(tmp_path: Path) -> None:
    with Journal(tmp_path / "g.sqlite3") as journal:
        live = journal.start(Header(rules="classic", players=["Ann", "Ben"]))
        meta = journal.meta(live.id)
        meta["pin"] = hash_pin("2468")
        journal.set_meta(live.id, meta)
        stored = journal.meta(live.id)["pin"]
    assert "2468" not in json.dumps(stored)
    assert check_pin(stored, "2468") and not check_pin(stored, "1357")


def test_the_record_is_byte_for_byte_what_journals_hold() -> None:
    assert hash_pin("2468", bytes(range(16))) == OLD_RECORD
    assert check_pin(OLD_RECORD, "2468") and not check_pin(OLD_RECORD, "2469")
    assert hash_pin("2468")["salt"] != hash_pin("2468")["salt"]  # a fresh salt each time


def test_a_record_of_another_scheme_never_checks() -> None:
    assert not check_pin({**OLD_RECORD, "scheme": "plain"}, "2468")
    assert not check_pin({}, "2468")
