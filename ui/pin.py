"""The banker's PIN as a game keeps it: salted scrypt, never the PIN. No Kivy.

The new-game screen's PIN is hashed here (`hash_pin`) into the game's meta document in the journal, and the
banker's menu (ui/flows/banker.py, `pin_ok`) checks a typed PIN against it (`check_pin`). The record's format
is what journals already hold, so it stays as it is: {"scheme": "scrypt", "n", "r", "p", "salt", "hash"},
the salt and the hash in hex.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Mapping
from typing import Any


def hash_pin(pin: str, salt: bytes | None = None) -> dict[str, Any]:
    """The banker PIN as the game's meta document keeps it: salted scrypt, never the PIN."""
    salt = salt if salt is not None else os.urandom(16)
    digest = hashlib.scrypt(pin.encode("utf-8"), salt=salt, n=2**14, r=8, p=1, dklen=32)
    return {"scheme": "scrypt", "n": 2**14, "r": 8, "p": 1, "salt": salt.hex(), "hash": digest.hex()}


def check_pin(record: Mapping[str, Any], pin: str) -> bool:
    """Whether `pin` matches a record made by hash_pin."""
    if record.get("scheme") != "scrypt":
        return False
    digest = hashlib.scrypt(pin.encode("utf-8"), salt=bytes.fromhex(record["salt"]), n=int(record["n"]),
                            r=int(record["r"]), p=int(record["p"]), dklen=32)
    return hmac.compare_digest(digest.hex(), str(record["hash"]))
