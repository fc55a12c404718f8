"""Random legal games with the engine's promises checked after every step.

In the manner of OpenSpiel's random_sim_test: play random legal actions
(and now and then a computer player's sensible one, so that games get far
enough for buildings, debts and bankruptcies), and after each step check
the invariants that every state must keep. Used by test_properties.py.
"""

from __future__ import annotations

import json
import random
from typing import Any

from banker.ai import choose
from banker.chance import complete_action
from banker.errors import ActionError
from banker.game import Game
from banker.messages import MESSAGES
from banker.model import BANK, POT
from banker.ruleset import OPTION_DEFAULTS, Ruleset, offered_house_rules
from banker.script import Header, new_game, replay_text, script_lines

NAMES = ["Ann", "Ben", "Cy", "Dot", "Eve", "Fay"]
# Every kind of money movement the engine logs (docs/game-script.md, "The money log"): each has its English.
MONEY_KINDS = frozenset(key[len("log."):] for key in MESSAGES if key.startswith("log."))


def random_house_rules(ruleset: Ruleset, rng: random.Random) -> dict[str, Any]:
    """A random choice of the house rules a family may set for this ruleset (each on or off, amounts varied)."""
    options: dict[str, Any] = {}
    salary = int(ruleset.options.salary) or 200
    for option in offered_house_rules(ruleset):
        if rng.random() < 0.5:
            continue
        default = OPTION_DEFAULTS[option]
        if isinstance(default, bool):
            options[option] = not ruleset.options.value(option)
        else:
            options[option] = rng.choice([salary // 2, salary, 5 * salary // 2])
    if not options.get("free_parking_pot", ruleset.options.free_parking_pot):
        options.pop("free_parking_seed", None)  # the seed needs the pot
    return options


class InvariantError(AssertionError):
    pass


def snapshot(game: Game, script: bool = True) -> str:
    """Everything a refused action must leave alone (an undo adds itself to the script)."""
    return json.dumps([game.to_json(), len(game.log), len(game.history), game.decks, game.pot,
                       [p.jail_cards for p in game.players], len(game.script) if script else 0],
                      sort_keys=True)


def money_in_play(game: Game) -> int:
    return sum(p.cash for p in game.players) + game.pot


def check_house_rules(game: Game, action: dict[str, Any], roller: int, card_roll: bool, log_from: int,
                      where: str) -> None:
    """What the house rules promise after `action` (taken when `roller` was in turn; `card_roll`: a card's roll
    for rent was owed)."""
    def fail(message: str) -> None:
        raise InvariantError(f"{where}: {message}")

    entries = game.log[log_from:]
    for _seq, payer, payee, amount, code, _params in entries:
        if code not in MONEY_KINDS:
            fail(f"money log kind {code!r} is not documented")
        if code == "snake_eyes" and (payer != BANK or payee != roller or amount != game.options.snake_eyes_bonus):
            fail(f"snake_eyes paid {amount} from {payer} to {payee}")
        if code == "pot_seed" and (payer != BANK or payee != POT or amount != game.options.free_parking_seed):
            fail(f"pot_seed of {amount} from {payer} to {payee}")
        if code in ("buy", "auction") and game.lap_rule and not game.players[payer].lapped:
            fail(f"{game.players[payer].name} bought before going round the board")
    dice = action.get("dice")
    two_ones = (action["do"] == "roll" and not card_roll and dice is not None and len(dice) >= 2
                and dice[0] == 1 and dice[1] == 1)
    paid = sum(1 for entry in entries if entry[4] == "snake_eyes")
    if paid != (1 if two_ones and game.options.snake_eyes_bonus else 0):
        fail(f"a roll of {dice} paid the snake-eyes bonus {paid} times")
    takes = sum(1 for entry in entries if entry[4] == "pot")
    seeds = sum(1 for entry in entries if entry[4] == "pot_seed")
    if seeds != (takes if game.options.free_parking_seed and game.options.free_parking_pot else 0):
        fail(f"the pot was taken {takes} times and seeded {seeds} times")
    if game.options.free_parking_pot and game.pot < int(game.options.free_parking_seed):
        fail(f"the pot holds {game.pot}, less than its seed")
    if game.lap_rule:
        d = game.decision
        if d is not None and d.kind == "buy" and not game.current.lapped:
            fail(f"{game.current.name} may buy before going round the board")
        if game.auction is not None and any(not game.players[b].lapped for b in game.auction.bidders):
            fail("an unlapped player bids")


def check_invariants(game: Game, before_money: int, log_from: int, where: str) -> None:
    def fail(message: str) -> None:
        raise InvariantError(f"{where}: {message}")

    # Money changed only by what the bank paid or took.
    bank_net = 0
    for _seq, payer, payee, amount, _code, _params in game.log[log_from:]:
        if amount <= 0:
            fail(f"a log entry moves {amount}")
        if payer == BANK:
            bank_net += amount
        if payee == BANK:
            bank_net -= amount
    if money_in_play(game) - before_money != bank_net:
        fail(f"money in play changed by {money_in_play(game) - before_money}, the bank's entries say {bank_net}")
    # The pool: board plus bank is always the set total.
    houses = sum(lv for lv in game.level if lv <= game.hotel_houses)
    hotels = sum(1 for lv in game.level if lv == game.hotel_level)
    if houses + game.bank_houses != game.options.houses:
        fail(f"houses: {houses} on the board + {game.bank_houses} in the bank")
    if hotels + game.bank_hotels != game.options.hotels:
        fail(f"hotels: {hotels} on the board + {game.bank_hotels} in the bank")
    if game.pot < 0:
        fail("negative pot")
    for p in game.players:
        if p.cash < 0:
            fail(f"{p.name} has {p.cash}")
        if any(d.amount <= 0 for d in p.debts):
            fail(f"{p.name} has a debt of nothing")
        if p.bankrupt and (p.cash or p.debts or p.jail_cards):
            fail(f"bankrupt {p.name} still has cash, debts or cards")
    # Every property has at most one owner, who is still playing.
    for i in game.ruleset.property_indices:
        o = game.owner[i]
        if o >= 0 and game.players[o].bankrupt:
            fail(f"bankrupt {game.players[o].name} owns {game.space_name(i)}")
        if o < 0 and (game.level[i] or game.mortgaged[i]):
            fail(f"unowned {game.space_name(i)} has buildings or a mortgage")
        if game.kinds[i] != "lot" and game.level[i]:
            fail(f"{game.space_name(i)} is not a lot but has buildings")
    for members, _cost in game.lot_groups:
        if game.variant.raises_by_selling:
            # biznes's holding exception: the bank may take back a firm of a built branch,
            # leaving the branch split; the firms still owned keep their buildings, evenly.
            # Check the built firms and the rest of their owner's firms of the branch.
            built_owners = {game.owner[j] for j in members if game.level[j]}
            if len(built_owners) > 1:
                fail(f"buildings of two owners in {members}")
            members = tuple(j for j in members if game.owner[j] in built_owners)
            if not members:
                continue
        levels = [game.level[j] for j in members]
        if max(levels):
            if len({game.owner[j] for j in members}) != 1:
                fail(f"buildings on a split group {members}")
            if any(game.mortgaged[j] for j in members):
                fail(f"buildings beside a mortgage in {members}")
            if max(levels) - min(levels) > 1 and game.options.build_evenly:
                fail(f"uneven group {members}: {levels}")
    # Every Get Out of Jail Free card is in one place only.
    held = [c for p in game.players for c in p.jail_cards]
    in_decks = [c for deck in game.decks.values() for c in deck]
    if game.variant.shuffled_decks:  # drawn cards stay out until the deck is used up and filled again
        if len(set(held + in_decks)) != len(held + in_decks) or not set(held + in_decks) <= set(game.ruleset.card_by_id):
            fail("cards duplicated or unknown")
    elif sorted(held + in_decks) != sorted(c.id for c in game.ruleset.cards):
        fail("cards lost or duplicated")
    if game.ended and game.owed():
        fail("an ended game still owes decisions")
    if not game.ended and not game.owed():
        fail("a running game owes nothing")


def random_trade(game: Game, rng: random.Random) -> dict[str, Any] | None:
    alive = [p for p in game.players if not p.bankrupt]
    if len(alive) < 2:
        return None
    a, b = rng.sample(alive, 2)

    def side(p: Any) -> dict[str, Any]:
        owned = game.iter_properties(p.index)
        out: dict[str, Any] = {}
        if owned and rng.random() < 0.6:
            out["spaces"] = rng.sample(owned, rng.randint(1, min(2, len(owned))))
        if p.cash and rng.random() < 0.5:
            out["cash"] = rng.randint(0, p.cash)
        if p.jail_cards and rng.random() < 0.3:
            out["jail_cards"] = 1
        return out

    return {"do": "trade", "from": a.name, "to": b.name, "give": side(a), "get": side(b)}


def illegal_candidates(game: Game, rng: random.Random) -> list[dict[str, Any]]:
    """Actions that are likely refused now, to check a refusal changes nothing."""
    names = [p.name for p in game.players]
    spaces = list(game.ruleset.property_indices)
    return [
        {"do": "roll", "dice": [rng.randint(1, 6), rng.randint(1, 6)]},
        {"do": "end_turn"},
        {"do": "buy"},
        {"do": "build", "space": rng.choice(spaces)},
        {"do": "sell", "space": rng.choice(spaces)},
        {"do": "mortgage", "space": rng.choice(spaces)},
        {"do": "unmortgage", "space": rng.choice(spaces)},
        {"do": "bid", "player": rng.choice(names), "amount": rng.randint(0, 3000)},
        {"do": "pass", "player": rng.choice(names)},
        {"do": "pay_fine"},
        {"do": "use_card"},
        {"do": "tax", "choice": "flat"},
        {"do": "draw", "card": rng.choice(game.ruleset.cards).id},
        {"do": "keep_mortgage", "space": rng.choice(spaces)},
        {"do": "building_auction", "kind": "house"},
        {"do": "adjust", "player": rng.choice(names), "cash": -10**7},
        random_trade(game, rng) or {"do": "trade", "from": names[0], "to": names[0]},
        {"do": "fly"},
        {"do": "roll", "dice": [7, 1]},
        {"do": "build"},
    ]


def play_random_game(ruleset_name: str, ruleset: Ruleset, seed: int, players: int = 4,
                     max_turns: int = 60, options: dict[str, Any] | None = None) -> Game:
    """One random legal game with every invariant checked after every step."""
    rng = random.Random(seed)
    header = Header(rules=ruleset_name, players=NAMES[:players], seed=seed, options=dict(options or {}))
    game, chance = new_game(header, ruleset)
    assert chance is not None
    steps = 0
    previous: list[str] = []
    while not game.ended and game.turns < max_turns and steps < 3000:
        steps += 1
        where = f"{ruleset_name} seed {seed} step {steps}"
        # A refused action changes nothing.
        if rng.random() < 0.3:
            probe = rng.choice(illegal_candidates(game, rng))
            if game.can(probe) is not None:
                before = snapshot(game)
                try:
                    game.apply(probe)
                except ActionError:
                    pass
                else:
                    raise InvariantError(f"{where}: can() refused {probe} but apply() took it")
                if snapshot(game) != before:
                    raise InvariantError(f"{where}: refused {probe} changed the state")
        if previous and rng.random() < 0.03:
            action: dict[str, Any] = {"do": "undo"}
        else:
            action = complete_action(game, pick_action(game, rng), chance)
        money = money_in_play(game)
        log_from = len(game.log)
        state_before = snapshot(game, script=False)
        roller = game.turn
        card_roll = game.decision is not None and game.decision.kind == "card_roll"
        if action["do"] == "undo":
            game.apply(action)
            if snapshot(game, script=False) != previous[-1]:
                raise InvariantError(f"{where}: undo did not restore the previous state")
            previous.pop()
            continue
        try:
            game.apply(action)
        except ActionError as exc:
            raise InvariantError(f"{where}: a listed legal action was refused: {action}: {exc}") from exc
        previous.append(state_before)
        if len(previous) > 5:
            previous.pop(0)
        check_invariants(game, money, log_from, where)
        check_house_rules(game, action, roller, card_roll, log_from, where)
    if not game.ended:
        game.apply({"do": "end_game"})
    # Replaying the game's own script gives the same state.
    text = "\n".join(script_lines(header, game.script))
    result = replay_text(text)
    if result.error is not None:
        raise InvariantError(f"{ruleset_name} seed {seed}: replay failed: {result.error}")
    if result.state != game.to_json():
        raise InvariantError(f"{ruleset_name} seed {seed}: replay gives another state")
    return game


def pick_action(game: Game, rng: random.Random) -> dict[str, Any]:
    r = rng.random()
    if r < 0.55:
        action, _ = choose(game, rng)
        return action
    if r < 0.6:
        trade = random_trade(game, rng)
        if trade is not None and game.can(trade) is None:
            return trade
    legal = [a for a in game.legal_actions() if a["do"] not in ("undo", "end_game", "concede")]
    if not legal:
        action, _ = choose(game, rng)
        return action
    if rng.random() < 0.01:
        concede = [a for a in game.legal_actions() if a["do"] == "concede"]
        if concede:
            return rng.choice(concede)
    action = dict(rng.choice(legal))
    if action["do"] == "bid" and not game.variant.auction_in_turn:  # stepped auctions take exactly the next step
        auction = game.auction
        assert auction is not None
        cash = game.players[game.index_of[action["player"]]].cash
        if cash >= auction.min_bid:
            action["amount"] = rng.randint(auction.min_bid, min(cash, auction.min_bid + 100))
    return action
