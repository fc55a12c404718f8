"""The shared verbs: what every ruleset plays the same way.

The opening deal, the roll (the dice, jail, doubles and the move: what a speed die adds is its family's hooks,
banker/mechanics/speed_die.py), buying or declining the space landed on, the income tax's choice, leaving jail by the
fine or a card, ending the turn, the banker's corrections (`adjust`) and ending the game by agreement. Each
verb is a `check_<verb>` that raises and changes nothing, and a `do_<verb>` that changes the state and cannot
fail by the rules; banker/verbtable.py lists them. A ruleset's own ways live in banker/mechanics/.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from banker import limits
from banker.errors import IllegalAction, InvalidAction
from banker.mechanics import auction as auctions
from banker.model import BANK, POT, Player

if TYPE_CHECKING:
    from banker.game import Game


def check_deal(game: Game, p: int, a: Mapping[str, Any]) -> None:
    if not game.deal_owed:
        raise IllegalAction("rule.no_deal")
    deeds = a.get("deeds")
    if deeds is None:
        raise IllegalAction("rule.chance_needed", verb="deal", what="deeds")
    _parse_deeds(game, deeds)


def _parse_deeds(game: Game, deeds: Any) -> dict[int, list[int]]:
    if not isinstance(deeds, Mapping):
        raise InvalidAction("action.bad_field", field="deeds", problem="must map players to lists of spaces")
    want = game.options.deal_deeds
    result: dict[int, list[int]] = {}
    seen: set[int] = set()
    for name, spaces in deeds.items():
        p = game.player_index(name)
        if not isinstance(spaces, list):
            raise InvalidAction("action.bad_field", field="deeds", problem=f"{name}: must be a list of spaces")
        idx = [game.space_index(s) for s in spaces]
        for i in idx:
            if game.kinds[i] not in ("lot", "railroad", "utility"):
                raise IllegalAction("rule.deal_not_property", space=game.space_name(i))
            if i in seen or game.owner[i] >= 0:
                raise IllegalAction("rule.deal_twice", space=game.space_name(i))
            seen.add(i)
        result[p] = idx
    if game.options.deal_all:
        # brands-showdown: the whole board, dealt round the table from the first player, free.
        players = [q for q in game.players if not q.bankrupt]
        total = len(game.ruleset.property_indices)
        for k, player in enumerate(players):
            count = total // len(players) + (1 if k < total % len(players) else 0)
            if len(result.get(player.index, [])) != count:
                raise IllegalAction("rule.deal_count", player=player.name, count=count)
        return result
    for player in game.players:
        if player.bankrupt:
            continue
        if len(result.get(player.index, [])) != want:
            raise IllegalAction("rule.deal_count", player=player.name, count=want)
    return result


def do_deal(game: Game, p: int, a: Mapping[str, Any]) -> None:
    for q, spaces in _parse_deeds(game, a["deeds"]).items():
        for i in spaces:
            game.give_deed(i, q)
            if not game.options.deal_all:  # a dealt board (showdown) costs nothing
                game.charge(q, BANK, game.prices[i], "deal", game.space_params[i])
    game.dealt()
    game.emit("dealt", {})


def _nothing_to_buy(game: Game, p: int) -> IllegalAction:
    """The refusal of `buy` or `decline` with no property to buy: naming the house rule where the player stands,
    unlapped, on a property nobody owns (`buy_after_first_lap`)."""
    player = game.players[p]
    i = player.position
    if game.lap_rule and not player.lapped and game.is_property[i] and game.owner[i] < 0:
        return IllegalAction("rule.buy_before_lap", player=player.name, space=game.space_name(i))
    return IllegalAction("rule.nothing_to_buy", player=player.name)


def check_buy(game: Game, p: int, a: Mapping[str, Any]) -> None:
    game.require_current(p, "buy")
    d = game.decision
    if d is None or d.kind != "buy":
        raise _nothing_to_buy(game, p)
    player = game.players[p]
    if player.debts:
        raise IllegalAction("rule.in_debt", player=player.name, verb="buy")
    if player.cash < game.prices[d.space]:
        raise IllegalAction("rule.cannot_afford", player=player.name, space=game.space_name(d.space),
                            price=game.prices[d.space], cash=player.cash)


def do_buy(game: Game, p: int, a: Mapping[str, Any]) -> None:
    i = game.decision.space  # type: ignore[union-attr]
    game.pay_bank(p, game.prices[i], "buy", game.space_params[i])
    game.give_deed(i, p)
    game.set_decision(None)


def check_decline(game: Game, p: int, a: Mapping[str, Any]) -> None:
    game.require_current(p, "decline")
    d = game.decision
    if d is None or d.kind != "buy":
        raise _nothing_to_buy(game, p)


def do_decline(game: Game, p: int, a: Mapping[str, Any]) -> None:
    i = game.decision.space  # type: ignore[union-attr]
    game.set_decision(None)
    game.emit("declined", {"player": game.players[p].name, "space": game.space_name(i)})
    if game.options.auction_on_decline:
        auctions.start_property_auction(game, i, decliner=p)


def check_tax(game: Game, p: int, a: Mapping[str, Any]) -> None:
    game.require_current(p, "tax")
    d = game.decision
    if d is None or d.kind != "tax":
        raise IllegalAction("rule.no_tax_owed", player=game.players[p].name)
    if a.get("choice") not in ("flat", "percent"):
        raise InvalidAction("action.bad_field", field="choice", problem='must be "flat" or "percent"')


def do_tax(game: Game, p: int, a: Mapping[str, Any]) -> None:
    i = game.decision.space  # type: ignore[union-attr]
    game.set_decision(None)
    amount = game.income_tax(p, a["choice"])
    game.charge(p, BANK, amount, "tax", {"space": game.space_name(i), "choice": a["choice"]}, pot=True)


def check_pay_fine(game: Game, p: int, a: Mapping[str, Any]) -> None:
    game.require_current(p, "pay_fine")
    player = game.players[p]
    _jail_exit_window(game, player, "pay_fine")
    fine = game.options.jail_fine
    if player.cash < fine:
        raise IllegalAction("rule.cannot_afford_fine", player=player.name, fine=fine, cash=player.cash)


def _jail_exit_window(game: Game, player: Player, verb: str) -> None:
    if not player.in_jail:
        raise IllegalAction("rule.not_in_jail", player=player.name)
    game.refuse_blocked(verb, player.index)
    if not game.roll_owed:
        raise IllegalAction("rule.jail_before_roll", player=player.name)


def do_pay_fine(game: Game, p: int, a: Mapping[str, Any]) -> None:
    player = game.players[p]
    fine = game.options.jail_fine
    target = POT if game.options.free_parking_pot else BANK
    game.transfer(p, target, fine, "jail_fine", {})
    game.leave_jail(player, "fine")


def check_use_card(game: Game, p: int, a: Mapping[str, Any]) -> None:
    game.require_current(p, "use_card")
    player = game.players[p]
    _jail_exit_window(game, player, "use_card")
    if not player.jail_cards:
        raise IllegalAction("rule.no_jail_card", player=player.name)


def do_use_card(game: Game, p: int, a: Mapping[str, Any]) -> None:
    player = game.players[p]
    game.return_card(game.take_jail_card(p))
    game.leave_jail(player, "card")


def check_end_turn(game: Game, p: int, a: Mapping[str, Any]) -> None:
    game.require_current(p, "end_turn")
    game.refuse_blocked("end_turn", p)
    if game.roll_owed:
        raise IllegalAction("rule.roll_owed", player=game.players[p].name)


def do_end_turn(game: Game, p: int, a: Mapping[str, Any]) -> None:
    if not game.rules.doubles.end_move(game, p):  # doubles = "after_move": the extra roll comes now
        game.next_turn()


def check_adjust(game: Game, p: int, a: Mapping[str, Any]) -> None:
    cash = a.get("cash", 0)
    if isinstance(cash, bool) or not isinstance(cash, int):
        raise InvalidAction("action.bad_field", field="cash", problem="must be a whole number (a change, + or -)")
    if "position" in a and a["position"] is not None:
        game.space_index(a["position"])
    reason = a.get("reason", "")
    if not isinstance(reason, str):
        raise InvalidAction("action.bad_field", field="reason", problem="must be text")
    player = game.players[p]
    if player.cash + cash < 0:
        raise IllegalAction("rule.adjust_negative", player=player.name, cash=player.cash, change=cash)
    if player.cash + cash > limits.MAX_INT:
        raise IllegalAction("rule.adjust_bound", player=player.name, cash=player.cash, change=cash, most=limits.MAX_INT)


def do_adjust(game: Game, p: int, a: Mapping[str, Any]) -> None:
    cash = int(a.get("cash", 0))
    reason = a.get("reason", "")
    if cash > 0:
        game.transfer(BANK, p, cash, "adjust", {"reason": reason})
    elif cash < 0:
        game.transfer(p, BANK, -cash, "adjust", {"reason": reason})
    if a.get("position") is not None:
        game.place_token(p, game.space_index(a["position"]))
    game.emit("adjusted", {"player": game.players[p].name, "cash": cash, "reason": reason})


def check_end_game(game: Game, p: int, a: Mapping[str, Any]) -> None:
    return None


def do_end_game(game: Game, p: int, a: Mapping[str, Any]) -> None:
    game.end("ended", game.richest())


# ----------------------------------------------------------------------
# roll: the dice, then jail, doubles and the move. What a speed die adds (its face, the triple, the bus,
# Mr. Monopoly) is the speed die family's (banker/mechanics/speed_die.py): this verb only calls its hooks.

def parse_dice(game: Game, a: Mapping[str, Any]) -> tuple[int, ...]:
    """The action's dice, as many as the roll takes (`Game.dice_count`), each 1 to 6."""
    dice = a.get("dice")
    if dice is None:
        raise IllegalAction("rule.chance_needed", verb="roll", what="dice")
    n = game.rules.speed_die.dice_count(game)
    if (not isinstance(dice, (list, tuple)) or len(dice) != n
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)):
        raise InvalidAction("action.bad_dice", dice=dice, count=n)
    return tuple(dice)


def check_roll(game: Game, p: int, a: Mapping[str, Any]) -> None:
    game.require_current(p, "roll")
    parse_dice(game, a)
    d = game.decision
    if d is not None and d.kind == "card_roll":
        if game.auction is not None or game.mortgage_owed or game.build_owed:
            game.refuse_blocked("roll", p)
        return
    game.refuse_blocked("roll", p)
    if not game.roll_owed:
        raise IllegalAction("rule.no_roll_owed", player=game.current.name)


def do_roll(game: Game, p: int, a: Mapping[str, Any]) -> None:
    dice = a["dice"]
    player = game.players[p]
    game.count_roll(player, dice)
    d = game.decision
    if d is not None and d.kind == "card_roll":  # a card's roll for rent: the dice times the card's multiplier
        game.set_decision(None)
        i = d.space
        owner = game.owner[i]
        if owner >= 0 and owner != p and not game.mortgaged[i]:
            game.pay_rent(p, i, d.multiplier * (dice[0] + dice[1] if len(dice) == 2 else sum(dice)))
        return
    if game.snake_eyes and dice[0] == 1 and dice[1] == 1:  # house rule: two ones pay, before anything else
        game.pay_snake_eyes(player)
    speed_die = game.rules.speed_die
    steps, double = speed_die.read(game, player, dice)
    game.set_last_roll(steps)
    if player.in_jail:
        game.set_roll_owed(False)
        if double:
            game.leave_jail(player, "double")
            game.move_forward(player, steps)
        elif game.count_jail_try(player) >= game.jail_tries:
            game.charge(p, BANK, game.options.jail_fine, "jail_fine", {}, pot=True)
            game.leave_jail(player, "forced_fine")
            game.move_forward(player, steps)
        return
    if double:
        if game.count_double() >= game.rules.doubles.to_jail:
            game.send_to_jail(player)
            return
        game.rules.doubles.rolled_double(game)
    else:
        game.set_roll_owed(False)
    speed_die.move(game, player, dice, steps)
