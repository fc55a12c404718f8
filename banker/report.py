"""After the game: a report of one game, and the family's history across the games of a journal.

`game_report` works a game's report out of its journal (`banker report`, docs/game-script.md "Reports"):
who received and paid what, by the money log's kinds, the street that earned the most rent, the largest
payment, the ranking and the game's length. `family_stats` sums the finished games of a journal up
(`banker stats`): games, wins, rent collected, the longest and the shortest game. It reads each game's
`game_summary`, which the journal stores when the game ends (banker/journal.py), so that the history of a
thousand games is read, not replayed.

Every amount comes from the money log, whose entries are every change of a player's cash: so for every
player `cash_end == cash_start + sum(received) - sum(paid)` exactly. A debt paid later is counted under the
kind of what was owed (rent paid out of a debt is `rent`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from banker.model import BANK, POT

if TYPE_CHECKING:
    from banker.game import Game
    from banker.journal import GameSummary, Journal

DEBT_PAID = "debt_paid"
SUMMARY_VERSION = 1  # the format of `game_summary`: a stored summary of another format is made again


def kind_of(code: str, params: dict[str, Any]) -> str:
    """The kind a money-log entry counts under: a debt paid counts as what was owed."""
    if code == DEBT_PAID:
        return str(params.get("reason", DEBT_PAID))
    return code


def _turns_of_actions(game: Game) -> list[int]:
    """For each action in effect, the turn (1 for the first) it was taken in: the game played again."""
    fresh = game.new_like()
    fresh.unobserved(watched=False)
    turns = []
    for action in game.history:
        turns.append(fresh.turns + 1)
        fresh.apply(action)
    return turns


def ranks(game: Game) -> dict[int, int]:
    """Each player's rank, 1 the best, tied players sharing one (and the next rank skipping as many): the
    winners first, then the players still in by net worth, then the bankrupt, the last to go bankrupt first."""
    winners = set(game.outcome.winners) if game.outcome is not None else set()
    gone = [params["player"] for code, params in game.events if code == "bankrupt"]
    keys: dict[int, tuple[int, ...]] = {}
    for q in game.players:
        if q.name in winners:
            keys[q.index] = (0,)
        elif not q.bankrupt:
            keys[q.index] = (1, 0, -game.net_worth(q.index))
        else:
            order = gone.index(q.name) if q.name in gone else -1
            keys[q.index] = (1, 1, -order)
    ordered = sorted(keys.values())
    return {p: ordered.index(key) + 1 for p, key in keys.items()}


def _clock_minutes(game: Game) -> float | None:
    """The game's own clock in minutes, where it keeps one (a timed game, brands' economy), else None."""
    if game.variant.clocked or game.options.time_limit:
        return round(game.economy_minutes(), 1)
    return None


def _minutes(clock: float | None, times: tuple[float, float] | None) -> float | None:
    """The game's length in minutes: its own clock's where it keeps one, else the span of its actions' time
    stamps (None when they were all written at once)."""
    if clock is not None:
        return clock
    if times is None:
        return None
    return round((times[1] - times[0]) / 60, 1)


def game_report(game: Game, game_id: int, status: str, times: tuple[float, float] | None = None,
                with_turns: bool = True) -> dict[str, Any]:
    """The report of one game (the JSON `banker report` prints; docs/game-script.md, "Reports").

    `times`: the first and last action's time stamps (`Journal.action_times`). `with_turns`: work out the turn
    of each player's largest payment (it plays the game again); `banker stats` does without."""
    start = game.new_like()
    n = len(game.players)
    received: list[dict[str, int]] = [{} for _ in range(n)]
    paid: list[dict[str, int]] = [{} for _ in range(n)]
    rent_by_space: list[dict[str, int]] = [{} for _ in range(n)]
    biggest: list[tuple[int, int, int, str] | None] = [None] * n  # amount, seq, payee, kind
    for seq, payer, payee, amount, code, params in game.log:
        kind = kind_of(code, params)
        if payee >= 0:
            received[payee][kind] = received[payee].get(kind, 0) + amount
            if kind == "rent" and "space" in params:
                space = str(params["space"])
                rent_by_space[payee][space] = rent_by_space[payee].get(space, 0) + amount
        if payer >= 0:
            paid[payer][kind] = paid[payer].get(kind, 0) + amount
            top = biggest[payer]
            if top is None or amount > top[0]:
                biggest[payer] = (amount, seq, payee, kind)
    turns = _turns_of_actions(game) if with_turns and any(b is not None for b in biggest) else []
    ranks_of = ranks(game)
    players = []
    for q in game.players:
        p = q.index
        rents = rent_by_space[p]
        best = max(rents.items(), key=lambda item: (item[1], item[0])) if rents else None
        top = biggest[p]
        payment = None
        if top is not None:
            amount, seq, payee, kind = top
            to = "bank" if payee == BANK else "pot" if payee == POT else game.players[payee].name
            turn = turns[seq] if 0 <= seq < len(turns) else None
            payment = {"amount": amount, "to": to, "kind": kind, "turn": turn}
        players.append({
            "name": q.name,
            "rank": ranks_of[p],
            "cash_start": start.players[p].cash,
            "cash_end": q.cash,
            "net_worth": 0 if q.bankrupt else game.net_worth(p),
            "received": dict(sorted(received[p].items())),
            "paid": dict(sorted(paid[p].items())),
            "best_property": {"space": best[0], "rent": best[1]} if best is not None else None,
            "biggest_payment": payment,
        })
    return {
        "game": game_id,
        "rules": game.ruleset.name,
        "status": status,
        "turns": game.turns + 1 if game.history else 0,
        "minutes": _minutes(_clock_minutes(game), times),
        "winner": game.outcome.winner if game.outcome is not None else None,
        "players": players,
    }


def journal_report(journal: Journal, game_id: int) -> dict[str, Any]:
    """`game_report` of a journaled game (JournalError when it does not load)."""
    live = journal.load(game_id)
    return game_report(live.game, game_id, journal.status(game_id), journal.action_times(game_id))


def game_summary(game: Game) -> dict[str, Any]:
    """What the family's history (`family_stats`) needs of a game: stored by the journal in the transaction of
    the action that ends it. A game marked finished without an end (abandoned) is `{"ended": false}`."""
    if game.outcome is None:
        return {"version": SUMMARY_VERSION, "ended": False}
    report = game_report(game, 0, "finished", None, with_turns=False)
    return {"version": SUMMARY_VERSION, "ended": True, "rules": report["rules"], "turns": report["turns"],
            "clock_minutes": _clock_minutes(game), "winners": list(game.outcome.winners),
            "players": [{"name": p["name"], "net_worth": p["net_worth"], "rent": p["received"].get("rent", 0)}
                        for p in report["players"]]}


def _key(name: str) -> str:
    """A player's name as the history compares it: without case or surrounding spaces."""
    return name.strip().casefold()


def family_stats(journal: Journal) -> dict[str, Any]:
    """The family's history over the journal's finished games (`banker stats`; docs/game-script.md, "Reports").

    A finished game is one ended by the rules or by `banker finish` (its status `finished` and its state
    ended); games still going or abandoned are left out, and damaged ones are listed with their reason. Each
    game's stored summary is read where it still agrees with the game (`Journal.summaries`), else the game is
    summarised in memory."""
    return tally(journal.summaries())


def tally(summaries: Iterable[GameSummary]) -> dict[str, Any]:
    """`family_stats` of the games' summaries (`Journal.summaries`, `Journal.summary`), in the order of their ids."""
    games = 0
    rulesets: dict[str, int] = {}
    lengths: list[dict[str, Any]] = []
    damaged: list[dict[str, Any]] = []
    people: dict[str, dict[str, Any]] = {}
    for found in summaries:
        summary = found.summary
        if summary is None:
            damaged.append({"game": found.id, "reason": found.damage})
            continue
        if not summary["ended"]:
            continue  # marked finished without an end (abandoned): not a finished game
        games += 1
        rulesets[summary["rules"]] = rulesets.get(summary["rules"], 0) + 1
        lengths.append({"game": found.id, "turns": summary["turns"],
                        "minutes": _minutes(summary["clock_minutes"], found.times)})
        winners = set(summary["winners"])
        for entry in summary["players"]:
            key = _key(entry["name"])
            person = people.setdefault(key, {"name": entry["name"].strip(), "games": 0, "wins": 0,
                                             "rent_collected": 0, "best_game": None})
            person["name"] = entry["name"].strip()  # the latest game's spelling
            person["games"] += 1
            person["wins"] += 1 if entry["name"] in winners else 0
            person["rent_collected"] += entry["rent"]
            best = person["best_game"]
            if best is None or entry["net_worth"] > best["net_worth"]:
                person["best_game"] = {"game": found.id, "net_worth": entry["net_worth"]}
    players = []
    for person in people.values():
        person["win_rate"] = round(person["wins"] / person["games"], 3)
        players.append({k: person[k] for k in ("name", "games", "wins", "win_rate", "rent_collected", "best_game")})
    players.sort(key=lambda p: (-p["wins"], -p["win_rate"], p["name"].casefold()))
    longest = max(lengths, key=lambda g: (g["turns"], g["game"]), default=None)
    shortest = min(lengths, key=lambda g: (g["turns"], -g["game"]), default=None)
    return {"games": games, "rulesets": dict(sorted(rulesets.items())), "longest_game": longest,
            "shortest_game": shortest, "players": players, "damaged": damaged}
