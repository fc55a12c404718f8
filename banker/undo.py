"""Going back: undo in time proportional to what it takes back.

The engine keeps no inverse of its rules: the state after the first k actions
in effect is made by playing them again. Playing the whole history again for
every undo made a run of n undos cost about n*n/2 actions (2,000 actions and
then 2,000 undos: 7 to 9 seconds; twice that, 42). So a game keeps a *trail*:
copies of its state, each labelled with the number of actions in effect it
belongs to.

`Game.apply` keeps a copy every SPARSE actions (about 2% of its time; the
simulator, which never undoes, turns it off). To go back to k actions,
`go_back` takes the copy for exactly k if there is one (moving it into the
game: going further back never needs it again); otherwise it starts from the
copy nearest below k (or from the start of the game), plays forward to k
through `Game.apply`, and keeps a copy after each of the last DENSE actions.
The next undo (to k - 1) then finds its copy waiting; once those are used up,
one more replay of at most SPARSE actions makes the next DENSE. A run of n
undos thus plays each action about once more (benchmarks/bench_undo.py), and
the trail holds at most k / SPARSE + DENSE copies.

A copy for j actions stays true while the first j actions in effect stay the
same. Actions are only ever appended to the history, and going back to k drops
every copy above k, so the trail is always true and always sorted.

A copy holds every attribute `_STATE` names (banker/game.py), copied so that
it shares nothing that can change, except the append-only lists (the money
log, the events, the history): of those it keeps the length, and going back
cuts the game's list to it.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any, Callable

from banker.model import Auction, Debt, Player

if TYPE_CHECKING:
    from banker.game import Game

SPARSE = 64  # a copy every this many actions on the way forward
DENSE = 64  # and one after each of the last this many
APPEND_ONLY = frozenset({"log", "events", "history"})


def _copied(value: Any) -> Any:
    """`value` sharing nothing that can change: lists, dicts and the mutable records are copied."""
    if isinstance(value, list):
        return [_copied(v) for v in value]
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, (Player, Auction, Debt)):
        return value.copy()
    return value  # numbers, text, tuples, frozen values (Decision, Outcome), None


def _flat(value: list[Any]) -> list[Any]:
    return value[:]


def _players(value: list[Player]) -> list[Player]:
    return [p.copy() for p in value]


def _auction(value: Auction | None) -> Auction | None:
    return None if value is None else value.copy()


def _decks(value: dict[str, list[str]]) -> dict[str, list[str]]:
    return {name: cards[:] for name, cards in value.items()}


def _dict(value: dict[str, int]) -> dict[str, int]:
    return dict(value)


# How the attributes that hold lists and records are copied, faster than `_copied` can (a copy is taken for
# most actions undone); every other attribute not in APPEND_ONLY goes through `_copied`, which copies any
# value correctly, and tests/test_undo.py checks that a copy shares nothing that can change.
COPIERS: dict[str, Callable[[Any], Any]] = {
    "players": _players, "auction": _auction, "decks": _decks, "group_builds": _dict,
    **{name: _flat for name in ("owner", "level", "mortgaged", "mortgage_round", "skipped", "auction_queue",
                                "mortgage_owed", "build_owed")},  # lists of numbers and tuples
}
# Values that are never changed in place, only replaced: shared by a copy as they are.
SHARED = frozenset({"owner_version", "_groups_cache", "bank_houses", "bank_hotels", "pot", "turn", "roll_owed",
                    "doubles", "last_roll", "decision", "turn_over_after_auctions", "deal_owed", "outcome",
                    "bankruptcies", "clock", "seq", "rolls", "turns", "debtors", "trades_used", "visit_builds",
                    "extra_roll", "random_moved", "last_random_target", "action_t", "round", "turn_trades",
                    "jackpot", "turn_skipped", "paused_at", "paused_total", "mr_monopoly"})


class _Plan:
    """How to copy the attributes `names`: read them all at once, then copy those that need it."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.read: Callable[[Any], Any] = operator.attrgetter(*names) if names else (lambda game: ())
        self.copied = [(i, COPIERS.get(name, _copied)) for i, name in enumerate(names)
                       if name not in SHARED and name not in APPEND_ONLY]
        self.lengths = [i for i, name in enumerate(names) if name in APPEND_ONLY]
        self.cut = [(i, name) for i, name in enumerate(names) if name in APPEND_ONLY]
        self.assign = [(i, name) for i, name in enumerate(names) if name not in APPEND_ONLY]


_PLANS: dict[tuple[str, ...], _Plan] = {}


def _plan(names: tuple[str, ...]) -> _Plan:
    plan = _PLANS.get(names)
    if plan is None:
        plan = _PLANS[names] = _Plan(names)
    return plan


def _copies(plan: _Plan, values: list[Any]) -> list[Any]:
    for i, copier in plan.copied:
        values[i] = copier(values[i])
    return values


def snapshot(game: Game, names: tuple[str, ...]) -> tuple[Any, ...]:
    """A copy of the state: every name in `names`, the append-only lists by their length."""
    plan = _plan(names)
    read = plan.read(game)
    values = _copies(plan, list(read) if len(names) != 1 else [read])
    for i in plan.lengths:
        values[i] = len(values[i])
    return tuple(values)


def put_back(game: Game, names: tuple[str, ...], copy: tuple[Any, ...], keep: bool = True) -> None:
    """Make `game`'s state the one in `copy`: copied again if `keep` (to be used again), else moved in."""
    plan = _plan(names)
    values = _copies(plan, list(copy)) if keep else copy
    for i, name in plan.cut:
        del getattr(game, name)[values[i]:]
    for i, name in plan.assign:
        setattr(game, name, values[i])


def go_back(game: Game, length: int, names: tuple[str, ...]) -> None:
    """Make `game`'s state the one after the first `length` of its actions in effect (`game.history`).

    The recorded script (`game.script`) is left as it is: the caller records the undo.
    """
    history = game.history
    if not 0 <= length <= len(history):
        raise ValueError(f"cannot go back to {length} actions: the game has {len(history)}")
    at, copies = game.trail_at, game.trail
    while at and at[-1] > length:  # copies of a future that going back leaves behind
        at.pop()
        copies.pop()
    if at and at[-1] == length:  # the copy for exactly here: moved in, as going further back never needs it
        at.pop()
        put_back(game, names, copies.pop(), keep=False)
        return
    todo = history[at[-1] if at else 0:length]
    if at:
        put_back(game, names, copies[-1])  # kept: the base for going back to anywhere above it
        start = at[-1]
    else:
        fresh = game.new_like()
        for name in names:
            setattr(game, name, getattr(fresh, name))
        start = 0
        at.append(0)
        copies.append(snapshot(game, names))
    script = game.script
    game.script = []  # apply() records what it plays; these actions are recorded already
    try:
        for reached, action in enumerate(todo, start=start + 1):
            game.apply(action)  # keeps a copy every SPARSE actions (Game.keeps_trail)
            if reached % SPARSE == 0 or reached > length - DENSE:
                keep(game, names)
    finally:
        game.script = script


def keep(game: Game, names: tuple[str, ...]) -> None:
    """Add a copy of the state as it is now to the trail (unless the trail has one for here already)."""
    reached = len(game.history)
    if not game.trail_at or game.trail_at[-1] < reached:
        game.trail_at.append(reached)
        game.trail.append(snapshot(game, names))


def forget(game: Game) -> None:
    """Drop the trail (the state was replaced wholesale)."""
    game.trail_at.clear()
    game.trail.clear()
