"""The secret tokens of the links the app shows (the table's phone link, a player's, "continue on another
device", the phone editor's code): made here and nowhere else, so that a link a person may read off the
screen and type is easy to type.

`typed_token()` draws `TOKEN_LENGTH` characters of `ALPHABET` with `secrets` (at least `BITS` random bits):
lower-case letters and the digits 2 to 9, without the characters a reader mistakes for another (0 and O, 1, l
and I: "FlPLT" read as "FIPLT" was a 404, issue 54). Lower case only, so no letter has a capital twin to
mistake it for, and a phone's keyboard types it as shown.

Tokens made before (`secrets.token_urlsafe(16)`, any of A-Z a-z 0-9 - _) are still accepted where they were
handed out: `is_typed_token` tells the app which of its stored tokens are of the old kind (ui/flows/phones.py
keeps them answering beside a new one). A token never shown to a person (the phone editor's session cookie)
is `secret_token()`. No Kivy here.
"""

from __future__ import annotations

import math
import secrets

ALPHABET = "23456789abcdefghijkmnpqrstuvwxyz"
"""32 characters: a-z and 2-9 without 0, 1, l and o (and no capitals, so no O or I)."""
LOOK_ALIKES = "0O1lIo"
"""The characters a link shown for typing never holds."""
BITS = 128
"""The least random bits of a token (docs/web.md, "The token")."""
TOKEN_LENGTH = math.ceil(BITS / math.log2(len(ALPHABET)))
"""26 characters of 5 bits each: 130 bits."""


def typed_token() -> str:
    """A new secret token for a link a person may type: TOKEN_LENGTH characters of ALPHABET, from `secrets`."""
    return "".join(secrets.choice(ALPHABET) for _ in range(TOKEN_LENGTH))


def is_typed_token(token: str) -> bool:
    """Whether `token` is of the kind `typed_token` makes (else a token made before it, still accepted)."""
    return len(token) == TOKEN_LENGTH and all(c in ALPHABET for c in token)


def secret_token() -> str:
    """A secret never shown nor typed (a session cookie): 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


__all__ = ["ALPHABET", "BITS", "LOOK_ALIKES", "TOKEN_LENGTH", "is_typed_token", "secret_token", "typed_token"]
