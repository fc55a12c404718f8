"""The moments of a game, as the session hands them to whatever makes them felt at the table.

Kivy-free. After every action the session (ui/session.py) passes the listeners in
`Session.moment_listeners` one list of `Moment`s, in the order they happened: each engine
event (`kind` "event", its code and parameters) and each money movement (`kind` "money", the
money log's code, with `payer`, `payee` and `amount` among the parameters). An undo passes one
moment of `kind` "undone" whose `seq` is the number of actions left: a listener drops whatever it
still holds about a later action (a phrase not yet spoken, an animation not yet run).

`seq` is the game's count of effective actions once the action that made the moment was applied,
so moments of one action share it and an undo back to `seq` n takes back every moment above n.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

EVENT = "event"
MONEY = "money"
UNDONE = "undone"


@dataclass(frozen=True)
class Moment:
    kind: str  # EVENT | MONEY | UNDONE
    code: str  # the engine's event code ("rolled", "bid", "game_over"...) or the money log's ("rent", "tax"...)
    params: dict[str, Any] = field(default_factory=dict)
    seq: int = 0


Listener = Callable[[list[Moment]], None]

__all__ = ["EVENT", "MONEY", "UNDONE", "Listener", "Moment"]
