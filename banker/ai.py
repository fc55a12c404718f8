"""Computer players: sensible, quick, and only ever legal.

``choose(game, rng)`` returns the next action for whoever the game is
waiting on, as a game-script action without chance inputs (the caller's
seeded source fills those in). The policy is that of a careful family
player: buy what leaves a cash cushion, bid up to a property's worth to
them, build on complete groups when cash allows, lift mortgages when rich,
trade now and then to complete a group, raise money by selling buildings
and mortgaging when in debt, and concede only when nothing is left.

The computer players read the game's state directly (they live in the
engine package) so that simulations stay fast; every action they return
goes through the engine's checked entry point all the same.
"""

from __future__ import annotations

import random
from typing import Any

from banker.game import Game

CUSHION = 150  # cash a computer player likes to keep after a purchase


Move = tuple[dict[str, Any], int]  # the action and the index of the player who takes it


def choose(game: Game, rng: random.Random) -> Move:
    """The next action of whoever the game waits on, and that player's index."""
    if game.deal_owed:
        return {"do": "deal"}, game.turn
    auction = game.auction
    if auction is not None:
        return _auction_move(game, auction.bidders, rng)
    if game.mortgage_owed:
        p, i = game.mortgage_owed[0]
        player = game.players[p]
        verb = "unmortgage" if player.cash - game.unmortgage_cost(i) >= 2 * CUSHION and not player.debts \
            else "keep_mortgage"
        return {"do": verb, "player": player.name, "space": i}, p
    if game.build_owed:
        p, kind = game.build_owed[0]
        for i in game.iter_properties(p):
            if game.build_problem(p, i, kind, ignore_cash=True) is None:
                return {"do": "build", "player": game.players[p].name, "space": i}, p
    if game.debtors:
        for player in game.players:
            if player.debts:
                return _raise_money(game, player.index)
    p = game.turn
    cur = game.players[p]
    d = game.decision
    if d is not None:
        kind = d.kind
        if kind == "buy":
            i = d.space
            price = game.prices[i]
            if cur.cash >= price and (cur.cash - price >= CUSHION or _completes_group(game, p, i)):
                return {"do": "buy"}, p
            return {"do": "decline"}, p
        if kind == "draw":
            return {"do": "draw"}, p
        if kind == "bus":
            return {"do": "bus", "steps": sum(d.dice)}, p
        if kind == "jump":  # a triple: to the first property still for sale, else to Start
            n = game.n_spaces
            ahead = [(cur.position + k) % n for k in range(1, n + 1)]
            target = next((i for i in ahead if game.is_property[i] and game.owner[i] < 0), 0)
            return {"do": "jump", "space": target}, p
        if kind == "casino":
            bet = game.options.casino_bet
            if cur.cash >= 5 * bet and not cur.debts and rng.random() < 0.5:
                return {"do": "casino", "numbers": rng.sample(range(1, 7), rng.randint(1, 3))}, p
            return {"do": "casino"}, p
        if kind == "tax":
            flat = game.income_tax(p, "flat")
            pct = game.income_tax(p, "percent")
            return {"do": "tax", "choice": "flat" if flat <= pct else "percent"}, p
        return {"do": "roll"}, p  # a roll the card asks for
    on_visit = game.variant.builds_on_visit  # asked once a move: the computer players are the simulator's hot path
    if game.roll_owed:
        if game.doubles == 0 and cur.cash >= 2 * CUSHION and not on_visit:
            manage = _manage(game, p, rng)
            if manage is not None:
                return manage, p
        if cur.in_jail:
            if cur.jail_cards:
                return {"do": "use_card"}, p
            if cur.cash >= game.options.jail_fine + 2 * CUSHION and _board_open(game):
                return {"do": "pay_fine"}, p
        return {"do": "roll"}, p
    if on_visit or game.trades_left_in_move() is not None:
        after = _after_roll(game, p, rng, on_visit)
        if after is not None:
            return after, p
    return {"do": "end_turn"}, p


def _after_roll(game: Game, p: int, rng: random.Random, on_visit: bool) -> dict[str, Any] | None:
    """Rulesets that build and trade only after the roll (biznes): build on the firm under the token."""
    cur = game.players[p]
    i = cur.position
    if (on_visit and game.kinds[i] == "lot" and game.owner[i] == p
            and game.building_state.visit_builds < game.options.builds_per_visit
            and cur.cash - game.ruleset.spaces[i].building_cost >= CUSHION // 3
            and game.build_problem(p, i, None) is None):
        return {"do": "build", "player": cur.name, "space": i}
    if (game.trades_left_in_move() or 0) > 0 and cur.cash >= 2 * CUSHION and rng.random() < 0.3:
        return _trade_offer(game, p)
    return None


def _board_open(game: Game) -> bool:
    """Early in the game (properties still for sale) leaving jail fast pays off."""
    return any(game.owner[i] < 0 for i in game.ruleset.property_indices)


def _completes_group(game: Game, p: int, i: int) -> bool:
    group = game.groups[i]
    if group is None:
        return False
    return all(game.owner[j] == p for j in game.group_members[group] if j != i)


def worth_to(game: Game, p: int, i: int) -> int:
    """How much property i is worth to player p in an auction."""
    price = game.prices[i]
    if _completes_group(game, p, i):
        return price * 2
    group = game.groups[i]
    others = {game.owner[j] for j in game.group_members[group] if j != i} if group else set()
    if any(o >= 0 and o != p for o in others):
        return price * 3 // 4  # blocks a rival's group
    return price


def _auction_move(game: Game, bidders: tuple[int, ...], rng: random.Random) -> Move:
    """The first bidder who is not leading raises (by about a tenth of the price) or passes."""
    auction = game.auction
    assert auction is not None
    if game.variant.auction_in_turn:
        b = auction.next_bidder
        if b < 0:
            return {"do": "close_auction"}, game.turn
        player = game.players[b]
        limit = worth_to(game, b, auction.space)
        least = game.least_bid(b)
        if least <= limit and least <= player.cash - CUSHION // 2:
            return {"do": "bid", "player": player.name, "amount": least}, b
        return {"do": "pass", "player": player.name}, b
    for b in bidders:
        if b == auction.high_bidder:
            continue
        player = game.players[b]
        if auction.kind == "property":
            limit = worth_to(game, b, auction.space)
            step = max(1, game.prices[auction.space] // 10)
        else:
            limit = auction.min_bid + 50
            step = 10
        amount = auction.min_bid + rng.randrange(step)
        if not player.debts and amount <= limit and amount <= player.cash - CUSHION // 2:
            return {"do": "bid", "player": player.name, "amount": amount}, b
        return {"do": "pass", "player": player.name}, b
    return {"do": "close_auction"}, game.turn


def _raise_money(game: Game, p: int) -> Move:
    """A debtor sells buildings, then mortgages, cheapest first; concedes when nothing is left."""
    name = game.players[p].name
    owned = game.iter_properties(p)
    level = game.level
    # Sell a building from the most built lot: that is selling evenly, since
    # buildings stand only on groups the debtor owns whole.
    best = -1
    for i in owned:
        if level[i] and (best < 0 or level[i] > level[best]):
            best = i
    if best >= 0:
        if level[best] == game.hotel_level and game.bank_houses < game.hotel_houses:
            if game.variant.raises_by_selling:  # the holding exception: the bank takes the firm at once
                return {"do": "sell_to_bank", "player": name, "space": best}, p
            return {"do": "sell_all", "player": name, "space": best}, p  # the hotel cannot come down
        return {"do": "sell", "player": name, "space": best}, p
    if game.variant.raises_by_selling:
        # No mortgages: auction a property to the rivals, and sell it to the bank if nobody buys.
        auctioned = game.players[p].debt_auctioned
        for i in owned:
            if i in auctioned:
                return {"do": "sell_to_bank", "player": name, "space": i}, p
        if owned and game.auction is None:
            i = min(owned, key=lambda i: (_completes_group(game, p, i), game.prices[i]))
            return {"do": "auction_own", "player": name, "space": i}, p
        return {"do": "concede", "player": name}, p
    # No buildings left anywhere: mortgage, keeping complete lot groups for last.
    candidates = [i for i in owned if not game.mortgaged[i]]
    if candidates:
        i = min(candidates, key=lambda i: (_completes_group(game, p, i) and game.kinds[i] == "lot",
                                           game.prices[i]))
        return {"do": "mortgage", "player": name, "space": i}, p
    return {"do": "concede", "player": name}, p


def _manage(game: Game, p: int, rng: random.Random) -> dict[str, Any] | None:
    """Between rolls: build, lift mortgages, and now and then trade."""
    cash = game.players[p].cash
    level = game.level
    # Build on a complete group, evenly, keeping a cushion.
    for members in game.complete_lot_groups(p):
        if cash - game.ruleset.spaces[members[0]].building_cost >= 2 * CUSHION:
            low = members[0]
            for j in members:
                if level[j] < level[low]:
                    low = j
            if level[low] == game.hotel_level:
                continue
            if game.variant.builds_at_turn_start:  # brands: once per group a turn, and maybe unevenly
                build = {"do": "build", "player": game.players[p].name, "space": low}
                if game.can(build) is None:
                    return build
                continue
            if game.build_problem(p, low, None) is None:
                return {"do": "build", "player": game.players[p].name, "space": low}
    # Lift a mortgage when comfortably rich.
    if cash >= 4 * CUSHION and any(game.mortgaged):
        for i in game.iter_properties(p):
            if game.mortgaged[i] and cash - game.unmortgage_cost(i) >= 4 * CUSHION:
                return {"do": "unmortgage", "player": game.players[p].name, "space": i}
    # Now and then, offer to buy the deed that completes a group.
    if rng.random() < 0.05:
        offer = _trade_offer(game, p)
        if offer is not None and game.variant.trades_per_turn is not None and game.can(offer) is not None:
            return None  # brands: not this one (balance, the turn's trades)
        return offer
    return None


def _trade_offer(game: Game, p: int) -> dict[str, Any] | None:
    player = game.players[p]
    by_move = game.trades_left_in_move() is not None  # biznes: trades counted by the move
    for members in game.group_members.values():
        mine = [j for j in members if game.owner[j] == p]
        theirs = [j for j in members if game.owner[j] not in (p, -1)]
        if by_move:
            # Groups of three split between owners (biznes): buy out a rival who holds fewer.
            theirs = [j for j in theirs
                      if sum(1 for k in members if game.owner[k] == game.owner[j]) <= len(mine)]
            if not mine or not theirs:
                continue
        elif len(mine) != len(members) - 1 or len(theirs) != 1:
            continue
        i = theirs[0]
        seller = game.players[game.owner[i]]
        if any(game.level[j] for j in members) or _completes_group(game, seller.index, i):
            continue
        offer = game.prices[i] * 2 if by_move else game.prices[i] * 3 // 2
        if player.cash - offer < 2 * CUSHION:
            continue
        return {"do": "trade", "from": player.name, "to": seller.name,
                "give": {"cash": offer}, "get": {"spaces": [i]}}
    return None
