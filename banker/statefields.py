"""The game's state, declared: one `Field` a piece of it, saying what it starts with and how going back copies it.

The kernel declares its own state with them (banker/kernel.py, `FIELDS`), and each family of mechanic that keeps
state of its own declares it in its module, as a `State` subclass whose `FIELDS` list it (`TradeState` in
banker/mechanics/trade.py, ...); the kernel holds one such object a family (mypyc's native classes take no
attributes added at run time, so each family's state is a typed object of its own). From the declarations the
kernel derives which attributes an action can change (`kernel.STATE`) and how a copy for going back holds each of
them, and a family's object starts its fields from them (docs/engine.md, "The kernel's state").

How a piece of state is copied (`Field.copy`), so that a copy shares nothing that can change:

- `SHARED`: only ever replaced, never changed in place (a number, text, a tuple, a frozen record, None): a copy
  shares it as it is;
- `FLAT`: a list of such values: a new list;
- `DICT`: a dict of such values: a new dict;
- `LISTS`: a dict of lists of such values (the decks): each list copied;
- `RECORDS`: a list of mutable records (the players): each record copied by its `copy()`;
- `RECORD`: one mutable record or None (the auction): copied by its `copy()`;
- `APPEND_ONLY`: a list only ever appended to (the money log, the events, the history): a copy keeps its length,
  and going back cuts the list to it;
- `PART`: a family's `State` object: a copy holds each of its fields, copied by its own declaration, and going
  back puts them into the same object.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Final

SHARED: Final = "shared"
FLAT: Final = "flat"
DICT: Final = "dict"
LISTS: Final = "lists"
RECORDS: Final = "records"
RECORD: Final = "record"
APPEND_ONLY: Final = "append_only"
PART: Final = "part"


class ByConstructor:
    """The start of a kernel field that the kernel's constructor sets itself (`BY_CONSTRUCTOR`)."""

    def __repr__(self) -> str:
        return "BY_CONSTRUCTOR"


BY_CONSTRUCTOR: Final = ByConstructor()


@dataclass(frozen=True)
class Field:
    """One piece of the game's state: its attribute's `name`, how a copy for going back holds it (`copy`, one of
    the kinds above) and what a new game starts with (`start`: a value that is never changed in place, or a
    function of the game being made, which is called with it; a family's fields always say; the kernel's own
    are `BY_CONSTRUCTOR`, set one by one in `Kernel.__init__`, which lets the compiled build read them without
    checking that they are set)."""

    name: str
    copy: str = SHARED
    start: Any = BY_CONSTRUCTOR

    def first(self, game: Any) -> Any:
        """What a new `game` starts with (its fixed attributes are set already)."""
        start = self.start
        return start(game) if callable(start) else start


def _flat(value: list[Any]) -> list[Any]:
    return value[:]


def _dict(value: dict[Any, Any]) -> dict[Any, Any]:
    return dict(value)


def _lists(value: dict[Any, list[Any]]) -> dict[Any, list[Any]]:
    return {key: items[:] for key, items in value.items()}


def _records(value: list[Any]) -> list[Any]:
    return [record.copy() for record in value]


def _record(value: Any) -> Any:
    return None if value is None else value.copy()


# How each kind is copied (SHARED, APPEND_ONLY and PART are the plan's own: shared, cut to a length, flattened).
COPIERS: Final[dict[str, Callable[[Any], Any]]] = {FLAT: _flat, DICT: _dict, LISTS: _lists, RECORDS: _records,
                                                   RECORD: _record}
KINDS: Final = frozenset({SHARED, APPEND_ONLY, PART, *COPIERS})


class State:
    """The state of one family of mechanic: the fields its class's `FIELDS` declare (each also annotated on the
    class, with its type), set to their starts when a game is made (`game`: the game being made, its fixed
    attributes and the kernel's own fields set). Only the kernel's verbs change them."""

    FIELDS: ClassVar[tuple[Field, ...]] = ()

    def __init__(self, game: Any) -> None:
        for f in self.FIELDS:
            setattr(self, f.name, f.first(game))
