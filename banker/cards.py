"""Cards: the `draw` verb and what each card's effect does.

A ruleset's cards (`[[cards]]`, docs/rulesets.md) name an `effect`; `EFFECTS` maps each effect to the function
that carries it out on the drawer. The deck family (banker/mechanics/deck.py) decides what becomes of the drawn
card; this module only plays it. Chance comes from outside: the action names the card (and, for a random move,
the target), and the check refuses a card that is not in the deck the game waits for.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from banker.errors import IllegalAction, InvalidAction
from banker.model import BANK, decision
from banker.ruleset import Card
from banker.statefields import Field, State

if TYPE_CHECKING:
    from banker.game import Game


class RandomMoveState(State):
    """The random-move card's (`game.random_move_state`; the kernel's `note_random_move` changes it, a roll
    lets the roller be moved again)."""

    random_moved: bool
    last_random_target: int
    FIELDS = (
        Field("random_moved", start=False),  # a random-move card already moved the player in this roll
        Field("last_random_target", start=-1),  # where the last one sent a player (any player's); -1 = none yet
    )


def check_draw(game: Game, p: int, a: Mapping[str, Any]) -> None:
    game.require_current(p, "draw")
    d = game.decision
    if d is None or d.kind != "draw":
        raise IllegalAction("rule.no_draw_owed", player=game.players[p].name)
    card = a.get("card")
    if card is None:
        raise IllegalAction("rule.chance_needed", verb="draw", what="card")
    found = game.ruleset.card_by_id.get(card) if isinstance(card, str) else None
    if found is None:
        raise InvalidAction("action.unknown_card", card=card)
    if found.deck != d.deck:
        raise IllegalAction("rule.wrong_deck", card=card, deck=game.ruleset.decks[d.deck]["name"])
    if card not in game.decks[found.deck]:
        holder = next((q.name for q in game.players if card in q.jail_cards), "?")
        raise IllegalAction("rule.card_held", card=card, holder=holder)
    target = a.get("target")
    if found.effect == "random_move" and not game.random_move_state.random_moved:
        if target is None:
            raise IllegalAction("rule.chance_needed", verb="draw", what="target")
        i = game.space_index(target)
        if i == game.players[p].position:
            raise IllegalAction("rule.random_target_here", space=game.space_name(i))
        if i == game.random_move_state.last_random_target:
            raise IllegalAction("rule.random_target_last", space=game.space_name(i))
    elif target is not None:
        raise InvalidAction("action.bad_field", field="target",
                            problem="only a random-move card that moves the player takes a target")


def do_draw(game: Game, p: int, a: Mapping[str, Any]) -> None:
    card = game.ruleset.card_by_id[a["card"]]
    player = game.players[p]
    deck = game.decks[card.deck]
    deck.remove(card.id)
    if card.effect == "random_move" and game.random_move_state.random_moved:
        # A second random move in the same roll is skipped: the card goes under, the draw stays owed.
        deck.append(card.id)
        game.emit("card_skipped", {"player": player.name, "card": card.id, "text": card.text})
        return
    game.set_decision(None)
    game.emit("card", {"player": player.name, "card": card.id, "text": card.text})
    game.rules.deck.after_draw(game, deck, card)
    EFFECTS[card.effect](game, p, card, a)


def _jail_free(game: Game, p: int, card: Card, a: Mapping[str, Any]) -> None:
    game.keep_jail_card(p, card.id)


def _money(game: Game, p: int, card: Card, a: Mapping[str, Any]) -> None:
    if card.amount >= 0:
        game.transfer(BANK, p, card.amount, "card", {"card": card.id})
        player = game.players[p]
        if player.debts:
            game.settle(player)
    else:
        game.charge(p, BANK, -card.amount, "card", {"card": card.id}, pot=True)


def _collect_each(game: Game, p: int, card: Card, a: Mapping[str, Any]) -> None:
    for q in game.players:
        if q.index != p and not q.bankrupt:
            if card.amount >= 0:
                game.charge(q.index, p, card.amount, "card", {"card": card.id})
            else:
                game.charge(p, q.index, -card.amount, "card", {"card": card.id})


def _repairs(game: Game, p: int, card: Card, a: Mapping[str, Any]) -> None:
    houses = hotels = 0
    for i in game.ruleset.property_indices:
        if game.owner[i] == p and game.level[i]:
            if game.level[i] == game.hotel_level:
                hotels += 1
            else:
                houses += game.level[i]
    amount = houses * card.per_house + hotels * card.per_hotel
    game.charge(p, BANK, amount, "card", {"card": card.id}, pot=True)


def _go_to_jail(game: Game, p: int, card: Card, a: Mapping[str, Any]) -> None:
    game.send_to_jail(game.players[p])


def _advance(game: Game, p: int, card: Card, a: Mapping[str, Any]) -> None:
    game.move_to(game.players[p], card.to)


def _destroy_building(game: Game, p: int, card: Card, a: Mapping[str, Any]) -> None:
    built = [i for i in game.ruleset.property_indices if game.owner[i] == p and game.level[i]]
    if not built:
        return
    i = max(built, key=lambda j: game.level[j])  # the most built lot of the drawer loses one building, for nothing
    if game.level[i] == game.hotel_level:  # a corporation comes down to its branches, if the bank has them
        game.set_level(i, game.hotel_houses if game.bank_houses >= game.hotel_houses else 0)
    else:
        game.set_level(i, game.level[i] - 1)
    game.emit("building_destroyed", {"player": game.players[p].name, "space": game.space_name(i)})


def _random_move(game: Game, p: int, card: Card, a: Mapping[str, Any]) -> None:
    player = game.players[p]
    target = game.space_index(a["target"])
    game.note_random_move(target)
    game.move_straight_to(player, target)  # landing straight on the start pays; passing it does not


def _back(game: Game, p: int, card: Card, a: Mapping[str, Any]) -> None:
    game.move_back(game.players[p], card.steps)  # landing on GO counts; passing it backwards does not


def _nearest(game: Game, p: int, card: Card, a: Mapping[str, Any]) -> None:
    player = game.players[p]
    n = game.n_spaces
    target = next((player.position + k) % n for k in range(1, n + 1)
                  if game.kinds[(player.position + k) % n] == card.kind)
    game.move_to(player, target, lands=False)  # passing or landing on GO pays the salary
    game.new_visit()
    game.emit("moved", {"player": player.name, "space": game.space_name(target), "index": target})
    owner = game.owner[target]
    if owner < 0:
        game.offer(player, target)
    elif owner != p and not game.mortgaged[target]:
        if card.dice_multiplier:
            game.set_decision(decision("card_roll", space=target, multiplier=card.dice_multiplier))
        else:
            rent = game.rent_due(target, game.last_roll, rent_multiplier=card.rent_multiplier)
            game.pay_rent(p, target, rent)


# effect -> what it does to the drawer (the ruleset loader accepts exactly these effects).
EFFECTS: dict[str, Callable[[Game, int, Card, Mapping[str, Any]], None]] = {
    "jail_free": _jail_free,
    "money": _money,
    "collect_each": _collect_each,
    "repairs": _repairs,
    "go_to_jail": _go_to_jail,
    "advance": _advance,
    "destroy_building": _destroy_building,
    "random_move": _random_move,
    "back": _back,
    "nearest": _nearest,
}
