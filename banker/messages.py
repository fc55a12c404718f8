"""English text for every error, event and money-log code.

The engine never builds a sentence by hand: it raises or records a stable
code with its parameters, and ``render`` turns them into English here. The
app keeps its own tables for Polish, Czech and Russian keyed by the same
codes (``ui/`` translations), so a new rule means one new line here and one
in each translation.
"""

from __future__ import annotations

from typing import Any, Mapping

MESSAGES: dict[str, str] = {
    # Malformed actions (InvalidAction).
    "action.not_object": "an action must be a JSON object",
    "action.unknown_verb": "unknown verb {verb!r}",
    "action.unknown_field": "{verb} does not take the field {field!r}",
    "action.unknown_player": "no player {player!r}",
    "action.unknown_space": "no space {space!r}",
    "action.unknown_card": "no card {card!r}",
    "action.bad_time": "t must be seconds since the start (0 or more), not {value!r}",
    "action.bad_dice": "dice must be a list of {count} whole numbers from 1 to 6, not {dice!r}",
    "action.bad_field": "{field}: {problem}",
    "action.player_needed": "say which player does {verb} (\"player\")",
    "action.space_needed": "say which space to {verb} (\"space\")",
    "action.amount_needed": "say how much {player} bids (\"amount\")",
    # Refused by a rule (IllegalAction).
    "rule.game_over": "the game is over: only undo is possible, not {verb}",
    "rule.nothing_to_undo": "there is nothing to undo",
    "rule.bankrupt_player": "{player} is bankrupt and out of the game",
    "rule.not_your_turn": "{player} cannot {verb}: it is {current}'s turn",
    "rule.chance_needed": "{verb} needs its {what} (the script has no seed to draw them from)",
    "rule.decision_owed": "{player} cannot {verb} now: first {owed}",
    "rule.debt_blocks": "{player} cannot {verb} now: {debtor} owes {amount} and must raise it or concede (debts come first)",
    "rule.mortgage_decision_owed": "{player} cannot {verb} now: {player} must first keep or lift the mortgage on {space}",
    "rule.blocked_deal": "{player} cannot {verb} now: the title deeds must be dealt first",
    "rule.blocked_auction": "{player} cannot {verb} now: an auction is running",
    "rule.blocked_building_owed": "{player} cannot {verb} now: a building won at auction must be built first",
    "rule.no_roll_owed": "{player} has no roll to make now (end the turn)",
    "rule.roll_owed": "{player} cannot end the turn: a roll is still owed (a double rolls again)",
    "rule.nothing_to_buy": "{player} has no property to buy or decline now",
    "rule.in_debt": "{player} cannot {verb} while in debt: raise the money (sell, mortgage, trade) or concede",
    "rule.cannot_afford": "{player} cannot pay {price} for {space}: only {cash} in cash",
    "rule.no_auction": "{player} cannot bid or pass: there is no auction",
    "rule.not_bidding": "{player} is not in this auction (passed, or not allowed to bid)",
    "rule.already_high": "{player} already holds the high bid of {amount}",
    "rule.bid_too_low": "{player} cannot bid {amount}: the bid must be at least {least}",
    "rule.bid_over_cash": "{player} cannot bid {amount}: only {cash} in cash",
    "rule.high_bidder_cannot_pass": "{player} holds the high bid of {amount} and cannot pass",
    "rule.concede_high_bidder": "{player} holds the high bid in the running auction and cannot concede now",
    "rule.bank_out_of": "the bank has no {kind} left",
    "rule.no_building_shortage": "no building auction: fewer than two players can build a {kind} now",
    "rule.no_draw_owed": "{player} has no card to draw now",
    "rule.wrong_deck": "{card} is not a card of {deck}, the deck owed now",
    "rule.card_held": "{card} is not in its deck: {holder} holds it",
    "rule.no_tax_owed": "{player} has no tax choice to make now",
    "rule.not_buildable": "{player} cannot build on {space}: only lots take buildings",
    "rule.not_owner": "{player} does not own {space}",
    "rule.not_owned": "nobody owns {space}",
    "rule.build_group": "{player} cannot build on {space}: the whole colour group is needed ({missing} is not theirs)",
    "rule.build_mortgaged": "{player} cannot build on {space}: {mortgaged} in the group is mortgaged",
    "rule.build_max": "{player} cannot build on {space}: it already has a hotel",
    "rule.build_even_first": "{player} cannot build on {space}: {other} has no house yet (build evenly)",
    "rule.build_even": "{player} cannot build on {space}: {other} has only {houses} houses (build evenly)",
    "rule.build_kind": "{player} cannot build on {space}: the building won at auction is a {kind}",
    "rule.build_on_visit": "{player} cannot build on {space}: only on the lot your token stands on (house rule)",
    "rule.no_building": "{player} has no building to sell on {space}",
    "rule.sell_even": "{player} cannot sell from {space}: {other} has more (sell evenly)",
    "rule.hotel_breakdown": "{player} cannot break down the hotel on {space}: it needs {need} houses from the bank, which has {left} (sell the whole group instead)",
    "rule.already_mortgaged": "{player} has already mortgaged {space}",
    "rule.mortgage_buildings": "{player} cannot mortgage {space}: sell the buildings of its group first ({other})",
    "rule.not_mortgaged": "{space} is not mortgaged",
    "rule.no_mortgage_decision": "{player} has no decision to make about the mortgage on {space}",
    "rule.not_in_jail": "{player} is not in jail",
    "rule.jail_before_roll": "{player} can leave jail this way only before rolling",
    "rule.cannot_afford_fine": "{player} cannot pay the fine of {fine}: only {cash} in cash",
    "rule.no_jail_card": "{player} has no Get Out of Jail Free card",
    "rule.trade_self": "{player} cannot trade with themselves",
    "rule.trade_empty": "a trade must hand something over",
    "rule.trade_cash": "{player} cannot hand over {amount}: only {cash} in cash (no loans)",
    "rule.trade_cards": "{player} has fewer than {count} Get Out of Jail Free cards",
    "rule.trade_buildings": "{space} cannot change hands: its colour group has buildings (sell them first)",
    "rule.no_deal": "the title deeds have already been dealt",
    "rule.deal_not_property": "{space} has no title deed to deal",
    "rule.deal_twice": "{space} is dealt twice or already owned",
    "rule.deal_count": "{player} must be dealt exactly {count} title deeds",
    "rule.adjust_negative": "{player} has {cash}: a change of {change} would make it negative",
    # Setup and header problems (SetupError).
    "setup.unknown_option": "unknown option {option!r}",
    "setup.bad_option": "option {option!r}: {problem}",
    "setup.player_count": "{rules} takes {least} to {most} players, not {count}",
    "setup.bad_name": "a player's name must be non-empty text, not {name!r}",
    "setup.bank_name": "\"bank\" is not a player name",
    "setup.duplicate_name": "two players have the same name",
    "setup.short_rents": "{space} needs {need} rents for this hotel rule",
    "setup.bad_deck_order": "the deck order of {deck} does not hold exactly its cards",
    "setup.bad": "setup: {problem}",
    "setup.rule": "setup breaks a rule: {problem}",
    # Events, for the app's screen.
    "event.turn": "{player}'s turn",
    "event.rolled": "{player} rolled {dice}",
    "event.moved": "{player} moves to {space}",
    "event.jail": "{player} goes to jail",
    "event.left_jail": "{player} leaves jail ({how})",
    "event.card": "{player} drew: {text}",
    "event.declined": "{player} declined to buy {space}",
    "event.auction": "auction of {space}",
    "event.bid": "{player} bids {amount}",
    "event.passed": "{player} passes",
    "event.sold": "{player} buys {space} at auction for {amount}",
    "event.unsold": "nobody bid: {space} stays with the bank",
    "event.building_auction": "auction of one {kind}, starting at {start}",
    "event.building_won": "{player} wins a {kind} for {amount}",
    "event.built": "{player} builds a {kind} on {space}",
    "event.sold_building": "{player} sells a {kind} on {space}",
    "event.sold_all": "{player} sells every building of {space}'s group",
    "event.traded": "{from} and {to} trade",
    "event.debt": "{player} owes {to} {amount} and must raise it",
    "event.bankrupt": "{player} is bankrupt (to {to})",
    "event.adjusted": "banker's correction for {player}: {cash} ({reason})",
    "event.dealt": "the title deeds are dealt",
    "event.game_over": "game over: {winner} wins",
    # Money log entries: {payer} paid {payee} {amount}.
    "log.salary": "{payee} collects {amount} salary",
    "log.rent": "{payer} pays {payee} {amount} rent for {space}",
    "log.tax": "{payer} pays {amount} tax ({space})",
    "log.card": "{payer} pays {payee} {amount} ({card})",
    "log.buy": "{payer} buys {space} for {amount}",
    "log.auction": "{payer} pays {amount} for {space} at auction",
    "log.building_auction": "{payer} pays {amount} for a {kind} at auction",
    "log.build": "{payer} pays {amount} for a {kind} on {space}",
    "log.sell": "{payee} gets {amount} for buildings on {space}",
    "log.sell_all": "{payee} gets {amount} for every building of {space}'s group",
    "log.mortgage": "{payee} mortgages {space} for {amount}",
    "log.unmortgage": "{payer} lifts the mortgage on {space} for {amount}",
    "log.keep_mortgage": "{payer} pays {amount} interest to keep {space} mortgaged",
    "log.jail_fine": "{payer} pays the jail fine of {amount}",
    "log.trade": "{payer} hands {payee} {amount} in a trade",
    "log.deal": "{payer} pays {amount} for the dealt deed {space}",
    "log.debt_paid": "{payer} pays {payee} {amount} owed ({reason})",
    "log.bankruptcy": "{payer} is bankrupt: {amount} goes to {payee}",
    "log.pot": "{payee} takes the Free Parking pot of {amount}",
    "log.adjust": "banker's correction: {payer} to {payee} {amount} ({reason})",
}


def render(code: str, params: Mapping[str, Any]) -> str:
    """The English sentence for a code; never fails (a missing parameter shows as ?)."""
    template = MESSAGES.get(code)
    if template is None:
        return code + (" " + repr(dict(params)) if params else "")
    try:
        return template.format_map(_Lenient(params))
    except (ValueError, IndexError):
        return template


class _Lenient(dict[str, Any]):
    def __init__(self, params: Mapping[str, Any]) -> None:
        super().__init__(params)

    def __missing__(self, key: str) -> str:
        return "?"
