"""The state of a game as plain data: what `banker replay --json` prints and scenario scripts expect
(docs/game-script.md, "The state"). `Game.to_json()` answers with `describe(game)`.

The parts every game has come first; a family that keeps something of its own adds it (the mortgage family's
`describe`), as do the options that keep a clock or a jackpot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from banker.game import Game


def describe(game: Game) -> dict[str, Any]:
    """The state exactly as `banker replay --json` prints it (docs/game-script.md)."""
    players = []
    for q in game.players:
        players.append({
            "name": q.name, "cash": q.cash, "position": q.position, "in_jail": q.in_jail,
            "jail_turns": q.jail_turns, "jail_cards": len(q.jail_cards), "bankrupt": q.bankrupt,
            "debts": [{"amount": d.amount, "to": game.name(d.creditor)} for d in q.debts],
        })
        if game.lap_rule:
            players[-1]["lapped"] = q.lapped
    spaces = {}
    for i in game.ruleset.property_indices:
        lv = game.level[i]
        owner = game.owner[i]
        spaces[str(i)] = {
            "name": game.space_name(i),
            "owner": game.players[owner].name if owner >= 0 else None,
            "houses": lv if lv <= game.hotel_houses else 0,
            "hotel": lv == game.hotel_level,
            "mortgaged": game.mortgaged[i],
        }
    bank: dict[str, Any] = {"houses": game.bank_houses, "hotels": game.bank_hotels}
    if game.options.free_parking_pot:
        bank["pot"] = game.pot
    if game.variant.has_casino:
        bank["jackpot"] = game.casino_state.jackpot
    auction: dict[str, Any] | None = None
    if game.auction is not None:
        a = game.auction
        auction = {
            "space": a.space if a.space >= 0 else None,
            "kind": a.kind,
            "high_bid": a.high_bid,
            "high_bidder": game.players[a.high_bidder].name if a.high_bidder >= 0 else None,
            "bidders": [game.players[b].name for b in a.bidders],
            "min_bid": a.min_bid,
            "next_bidder": game.players[a.next_bidder].name if a.next_bidder >= 0 else None,
        }
        if game.variant.raises_by_selling or game.variant.own_auctions:
            auction["seller"] = game.players[a.seller].name if a.seller >= 0 else None
            opened = a.opened_at
            auction["opened_at"] = (int(opened) if opened.is_integer() else opened) if opened >= 0 else None
    state: dict[str, Any] = {
        "rules": game.ruleset.name,
        "turn": game.current.name,
        "ended": game.outcome is not None,
        "winner": game.outcome.winner if game.outcome is not None else None,
        "players": players,
        "spaces": spaces,
        "bank": bank,
        "auction": auction,
        "owed": game.owed(),
    }
    rules = game.rules
    rules.debt.describe(game, state)
    variant = game.variant
    if variant.trades_per_move is not None or variant.builds_on_visit or rules.doubles.per_move():
        state["move"] = {"trades_used": game.trade_state.trades_used,
                         "visit_builds": game.building_state.visit_builds,
                         "extra_roll": game.doubles_state.extra_roll}
    if game.has_random_move:
        target = game.random_move_state.last_random_target
        state["last_random_target"] = target if target >= 0 else None
    rules.mortgage.describe(game, state)
    if variant.clocked:
        state["clock"] = {"minutes": round(game.economy_minutes(), 2), "paused": game.clock_state.paused_at >= 0,
                          "salary": game.salary_paid(), "rent_tax_percent": game.rent_tax_percent()}
        if game.options.turn_seconds:
            for entry, q in zip(players, game.players, strict=True):
                entry["skipped_turns"] = game.clock_state.skipped[q.index]
    if game.outcome is not None:
        state["end_reason"] = game.outcome.reason
        state["ranking"] = [{"name": n, "net_worth": w} for n, w in game.ranking()]
    return state
