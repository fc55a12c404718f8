"""English text for every error, event and money-log code.

The engine never builds a sentence by hand: it raises or records a stable
code with its parameters, and ``render`` turns them into English here, for
the command line (``banker replay`` prints ``line N: REASON``) and the JSON
``text`` fields. This table is also the single source of the app's English
for these codes: ``.venv/bin/python scripts/i18n_tool.py update`` copies it into
ui/locale/en/LC_MESSAGES/banker.po, and the app's Polish, Czech and Russian
catalogues translate the same codes (docs/i18n.md).

Two conventions the catalogues share:
- ``{amount:money}``: the parameter is an amount of the game's money. The app
  shows it the way the language writes money (grouped digits, the ruleset's
  currency); the engine writes plain digits, so its text never changes.
- ``Plural("houses", one, other)``: a message that counts something, by the
  parameter named first: the ``one`` text for 1, ``other`` for any other
  count (English's two forms; the app's catalogues hold each language's own).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple


class Plural(NamedTuple):
    """A counted message: ``one`` when ``params[param] == 1``, else ``other``."""

    param: str
    one: str
    other: str


MESSAGES: dict[str, str | Plural] = {
    # Malformed actions (InvalidAction).
    "action.not_object": "an action must be a JSON object",
    "action.unknown_verb": "unknown verb {verb!r}",
    "action.unknown_field": "{verb} does not take the field {field!r}",
    "action.unknown_player": "no player {player!r}",
    "action.unknown_space": "no space {space!r}",
    "action.unknown_card": "no card {card!r}",
    "action.bad_time": "t must be seconds since the start (0 or more), not {value!r}",
    "action.bad_dice": Plural("count",
                              "dice must be a list of {count} whole number from 1 to 6, not {dice!r}",
                              "dice must be a list of {count} whole numbers from 1 to 6, not {dice!r}"),
    "action.bad_field": "{field}: {problem}",
    "action.not_whole_number": "{field} must be a whole number, not {value}",
    "action.number_range": "{field} must be a whole number from {least} to {most}, not {value}",
    "action.not_text": "{field} must be text, not {value}",
    "action.bad_text": "{field} must be valid text (no lone surrogate; no control character in a name), not {value}",
    "action.not_space": "{field} must name a space by its index or its name, not {value}",
    "action.not_list": "{field} must be a list, not {value}",
    "action.not_object_field": "{field} must be an object, not {value}",
    "action.not_true_false": "{field} must be true or false, not {value}",
    "action.too_deep": "{field} is nested more than {most} deep",
    "action.time_not_finite": "t must be a finite number of seconds, not {value}",
    "action.time_too_large": "t must be at most {most} seconds, not {value}",
    "action.player_needed": "say which player does {verb} (\"player\")",
    "action.space_needed": "say which space to {verb} (\"space\")",
    "action.amount_needed": "say how much {player} bids (\"amount\")",
    # Refused by a rule (IllegalAction).
    "rule.game_over": "the game is over: only undo is possible, not {verb}",
    "rule.nothing_to_undo": "there is nothing to undo",
    "rule.bankrupt_player": "{player} is bankrupt and out of the game",
    "rule.not_your_turn": "{player} cannot {verb}: it is {current}'s turn",
    "rule.chance_needed": "{verb} needs its {what} (the script has no seed to draw them from)",
    # A decision owed blocks the verb: one message a kind of decision (`decision_owed`).
    "rule.decision_owed_buy": "{player} cannot {verb} now: first buy or decline",
    "rule.decision_owed_draw": "{player} cannot {verb} now: first draw a card",
    "rule.decision_owed_tax": "{player} cannot {verb} now: first choose the tax",
    "rule.decision_owed_card_roll": "{player} cannot {verb} now: first roll for the card",
    "rule.decision_owed_casino": "{player} cannot {verb} now: first bet at the casino or decline",
    "rule.decision_owed_bus": "{player} cannot {verb} now: first choose the bus move",
    "rule.decision_owed_jump": "{player} cannot {verb} now: first choose where to jump",
    "rule.debt_blocks": "{player} cannot {verb} now: {debtor} owes {amount:money} and must raise it or concede (debts come first)",
    "rule.mortgage_decision_owed": "{player} cannot {verb} now: {player} must first keep or lift the mortgage on {space}",
    "rule.blocked_deal": "{player} cannot {verb} now: the title deeds must be dealt first",
    "rule.blocked_auction": "{player} cannot {verb} now: an auction is running",
    "rule.blocked_building_owed": "{player} cannot {verb} now: a building won at auction must be built first",
    "rule.no_roll_owed": "{player} has no roll to make now (end the turn)",
    "rule.roll_owed": "{player} cannot end the turn: a roll is still owed (a double rolls again)",
    "rule.nothing_to_buy": "{player} has no property to buy or decline now",
    "rule.buy_before_lap": ("{player} may not buy {space} before going once round the board "
                            "(house rule buy_after_first_lap)"),
    "rule.not_lapped_bid": ("{player} takes no part in auctions before going once round the board "
                            "(house rule buy_after_first_lap)"),
    "rule.in_debt": "{player} cannot {verb} while in debt: raise the money or concede",
    "rule.cannot_afford": "{player} cannot pay {price:money} for {space}: only {cash:money} in cash",
    "rule.no_auction": "{player} cannot bid or pass: there is no auction",
    "rule.not_bidding": "{player} is not in this auction (passed, or not allowed to bid)",
    "rule.already_high": "{player} already holds the high bid of {amount:money}",
    "rule.bid_too_low": "{player} cannot bid {amount:money}: the bid must be at least {least:money}",
    "rule.bid_over_cash": "{player} cannot bid {amount:money}: only {cash:money} in cash",
    "rule.high_bidder_cannot_pass": "{player} holds the high bid of {amount:money} and cannot pass",
    "rule.concede_high_bidder": "{player} holds the high bid in the running auction and cannot concede now",
    "rule.bank_out_of": "the bank has no {kind} left",
    "rule.no_building_shortage": "no building auction: fewer than two players can build a {kind} now",
    "rule.no_draw_owed": "{player} has no card to draw now",
    "rule.wrong_deck": "{card} is not a card of {deck}, the deck owed now",
    "rule.card_held": "{card} is not in its deck: {holder} holds it",
    "rule.no_tax_owed": "{player} has no tax choice to make now",
    "rule.not_buildable": "{player} cannot build on {space}: it takes no buildings",
    "rule.not_owner": "{player} does not own {space}",
    "rule.not_owned": "nobody owns {space}",
    "rule.build_group": "{player} cannot build on {space}: the whole group is needed ({missing} is not theirs)",
    "rule.build_mortgaged": "{player} cannot build on {space}: {mortgaged} in the group is mortgaged",
    "rule.build_max": "{player} cannot build on {space}: it already has a hotel",
    "rule.build_even_first": "{player} cannot build on {space}: {other} has no house yet (build evenly)",
    "rule.build_even": Plural("houses",
                              "{player} cannot build on {space}: {other} has only {houses} house (build evenly)",
                              "{player} cannot build on {space}: {other} has only {houses} houses (build evenly)"),
    "rule.build_kind": "{player} cannot build on {space}: the building won at auction is a {kind}",
    "rule.build_on_visit": "{player} cannot build on {space}: only on the lot your token stands on",
    "rule.no_building": "{player} has no building to sell on {space}",
    "rule.sell_even": "{player} cannot sell from {space}: {other} has more (sell evenly)",
    "rule.hotel_breakdown": Plural("need",
                              "{player} cannot break down the hotel on {space}: it needs {need} house from the bank, which has {left} (sell the whole group instead)",
                              "{player} cannot break down the hotel on {space}: it needs {need} houses from the bank, which has {left} (sell the whole group instead)"),
    "rule.already_mortgaged": "{player} has already mortgaged {space}",
    "rule.mortgage_buildings": "{player} cannot mortgage {space}: sell the buildings of its group first ({other})",
    "rule.not_mortgaged": "{space} is not mortgaged",
    "rule.no_mortgage_decision": "{player} has no decision to make about the mortgage on {space}",
    "rule.not_in_jail": "{player} is not in jail",
    "rule.jail_before_roll": "{player} can leave jail this way only before rolling",
    "rule.cannot_afford_fine": "{player} cannot pay the fine of {fine:money}: only {cash:money} in cash",
    "rule.no_jail_card": "{player} has no Get Out of Jail Free card",
    "rule.trade_self": "{player} cannot trade with themselves",
    "rule.trade_empty": "a trade must hand something over",
    "rule.trade_cash": "{player} cannot hand over {amount:money}: only {cash:money} in cash (no loans)",
    "rule.trade_cards": Plural("count",
                              "{player} has fewer than {count} Get Out of Jail Free card",
                              "{player} has fewer than {count} Get Out of Jail Free cards"),
    "rule.trade_buildings": "{space} cannot change hands: its group has buildings (sell them first)",
    "rule.no_deal": "the title deeds have already been dealt",
    "rule.deal_not_property": "{space} has no title deed to deal",
    "rule.deal_twice": "{space} is dealt twice or already owned",
    "rule.deal_count": Plural("count",
                              "{player} must be dealt exactly {count} title deed",
                              "{player} must be dealt exactly {count} title deeds"),
    "rule.adjust_negative": "{player} has {cash:money}: a change of {change:money} would make it negative",
    "rule.adjust_bound": "{player} has {cash:money}: a change of {change:money} would take it past {most:money}",
    # Rules of the biznes mechanics (stepped auctions, visit building, sell-off debts, one trade per move).
    "rule.not_your_move": "{player} cannot {verb} now: only {current}, whose move it is, may",
    "rule.build_before_roll": "{player} cannot build before rolling: build on the firm you land on",
    "rule.build_once_per_visit": Plural("count",
                              "{player} cannot build on {space} again: {count} building per visit",
                              "{player} cannot build on {space} again: {count} buildings per visit"),
    "rule.no_building_auctions": "there are no building auctions in {rules}",
    "rule.no_sell_all": "in {rules} buildings come down one at a time (sell)",
    "rule.no_mortgages": "there are no mortgages in {rules}",
    "rule.not_next_bidder": "{player} cannot bid now: it is {next}'s bid",
    "rule.bid_exact": "{player} cannot bid {amount:money}: the next bid is exactly {bid:money} (steps of {step:money})",
    "rule.close_after_bid": "the auction cannot be cancelled: {bidder} has bid {amount:money}",
    "rule.random_target_here": "a random move cannot go to {space}: the player stands there",
    "rule.random_target_last": "a random move cannot go to {space}: it was the last random target",
    "rule.trade_in_debt": "{player} is in debt: no trade now (sell buildings, auction or sell a firm, or concede)",
    "rule.trade_before_roll": "{player} cannot trade before rolling",
    "rule.trade_used": Plural("count",
                              "{player} has used this move's trade ({count} trade per move)",
                              "{player} has used this move's trade ({count} trades per move)"),
    "rule.trade_jail_cards": "release cards cannot be traded",
    "rule.trade_form": "{player} may only exchange (get a rival's property for cash or property) or sell (own property for cash)",
    "rule.sale_below_bank": "{player} cannot sell for {price:money}: no cheaper than the bank pays ({least:money})",
    "rule.not_property": "{space} is not a property",
    "rule.no_own_auctions": "there are no own-property auctions in {rules}",
    "rule.own_auction_buildings": "{player} cannot auction {space}: take down the buildings of its group first",
    "rule.auctioned_this_debt": "{player} has already put {space} up for auction in this debt",
    "rule.own_auction_before_roll": "{player} cannot start an auction before rolling",
    "rule.own_auction_trade_used": "{player} has used this move's trade: no own auction now",
    "rule.reserve": "{player} cannot open {space} at {reserve:money}: from {low:money} to {high:money} in steps of {step:money}",
    "rule.no_bank_sales": "the bank buys no property back in {rules}",
    "rule.bank_sale_needs_debt": "{player} can sell to the bank only to pay a debt",
    "rule.bank_sale_needs_auction": "{player} can sell {space} to the bank only after an auction of it in this debt found no buyer",
    "rule.no_direct_sales": "there are no direct sales in {rules} (trade instead)",
    "rule.sale_needs_debt": "{player} can sell directly only to pay a debt (trade instead)",
    # Rules of the brands mechanics (turn-start building, expiring mortgages, balanced trades, casino, clock).
    "rule.build_after_roll": "{player} cannot build now: buildings are bought only before rolling",
    "rule.build_once_per_turn": Plural("count",
                              "{player} cannot build on {space} again: {count} building per group a turn",
                              "{player} cannot build on {space} again: {count} buildings per group a turn"),
    "rule.trade_moment": "{player} can trade only before rolling, while deciding to buy, or while in debt",
    "rule.trades_per_turn": Plural("count",
                              "{player} has made {count} trade this turn, the most allowed",
                              "{player} has made {count} trades this turn, the most allowed"),
    "rule.trade_mortgaged": "{space} is mortgaged: mortgaged properties change hands only between allies",
    "rule.trade_unbalanced": "this trade is lopsided ({a:money} against {b:money}): neither side may be worth more than twice the other",
    "rule.no_casino": "{player} is not at the casino",
    "rule.cannot_afford_bet": "{player} cannot bet {bet:money}: only {cash:money} in cash",
    "rule.no_turn_timer": "{rules} has no turn timer",
    "rule.already_timed_out": "{player}'s turn has already timed out",
    "rule.no_clock": "{rules} does not run on the clock: nothing to pause",
    "rule.paused": "the game is already paused",
    "rule.not_paused": "the game is not paused",
    "rule.paused_now": "the game is paused: resume it before {verb}",
    "rule.no_speed_choice": "{player} has no speed-die choice to make ({verb})",
    "rule.bus_steps": Plural("both",
                              "the bus goes {a}, {b} or {both} space, not {steps}",
                              "the bus goes {a}, {b} or {both} spaces, not {steps}"),
    "rule.holding_breakdown": Plural("need",
                              "{player} cannot take down the holding on {space}: it needs {need} office from the bank, which has {left}",
                              "{player} cannot take down the holding on {space}: it needs {need} offices from the bank, which has {left}"),
    "rule.concede_seller": "{player} is auctioning {space} and cannot concede until it ends",
    # Setup and header problems (SetupError).
    "setup.unknown_option": "unknown option {option!r}",
    "setup.bad_option": "option {option!r}: {problem}",
    "setup.player_count": Plural("most",
                              "{rules} takes {least} to {most} player, not {count}",
                              "{rules} takes {least} to {most} players, not {count}"),
    "setup.bad_name": "a player's name must be non-empty text, not {name!r}",
    "setup.name_characters": "a player's name must be valid text without control characters, not {name}",
    "setup.name_too_long": "a player's name may have at most {most} characters, not {count}",
    "setup.bank_name": "\"bank\" is not a player name",
    "setup.duplicate_name": "two players have the same name",
    "setup.short_rents": Plural("need",
                              "{space} needs {need} rent for this hotel rule",
                              "{space} needs {need} rents for this hotel rule"),
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
    "event.bid": "{player} bids {amount:money}",
    "event.passed": "{player} passes",
    "event.sold": "{player} buys {space} at auction for {amount:money}",
    "event.unsold": "nobody bid: {space} stays with the bank",
    "event.not_lapped": "{player} has not been round the board yet: {space} stays with the bank",
    "event.building_auction": "auction of one {kind}, starting at {start:money}",
    "event.building_won": "{player} wins a {kind} for {amount:money}",
    "event.built": "{player} builds a {kind} on {space}",
    "event.sold_building": "{player} sells a {kind} on {space}",
    "event.sold_all": "{player} sells every building of {space}'s group",
    "event.traded": "{from} and {to} trade",
    "event.debt": "{player} owes {to} {amount:money} and must raise it",
    "event.bankrupt": "{player} is bankrupt (to {to})",
    "event.adjusted": "banker's correction for {player}: {cash:money} ({reason})",
    "event.dealt": "the title deeds are dealt",
    "event.game_over": "game over: {winner} wins",
    "event.extra_roll": "{player} rolled a double: roll again",
    "event.card_skipped": "{player} drew a second random move in one roll: skipped, draw again",
    "event.auction_cancelled": "no bid: the auction of {space} is cancelled",
    "event.unsold_own": "nobody bought {space}: it stays with {player}",
    "event.own_auction": "{player} auctions {space}, opening at {start:money}",
    "event.sold_to_bank": "{player} sells {space} to the bank for {amount:money}",
    "event.mortgage_lapsed": "{player} did not lift the mortgage on {space} in time: it goes to auction",
    "event.building_destroyed": "a building of {player}'s on {space} is destroyed",
    "event.casino": "{player} bets on {numbers}: the die shows {die}",
    "event.casino_declined": "{player} does not bet at the casino",
    "event.timed_out": Plural("count",
                              "{player}'s time is up ({count} skipped turn in a row)",
                              "{player}'s time is up ({count} skipped turns in a row)"),
    "event.paused": "the game is paused",
    "event.speed_die": "{player} rolls the speed die: {face}",
    "event.mr_monopoly": "Mr. Monopoly takes {player} on to {space}",
    "event.resumed": "the game goes on",
    "event.sold_to_player": "{player} sells {space} to {to} for {amount:money}",
    # Money log entries: {payer} paid {payee} {amount}.
    "log.salary": "{payee} collects {amount:money} salary",
    "log.rent": "{payer} pays {payee} {amount:money} rent for {space}",
    "log.tax": "{payer} pays {amount:money} tax ({space})",
    "log.card": "{payer} pays {payee} {amount:money} ({card})",
    "log.buy": "{payer} buys {space} for {amount:money}",
    "log.auction": "{payer} pays {amount:money} for {space} at auction",
    "log.building_auction": "{payer} pays {amount:money} for a {kind} at auction",
    "log.build": "{payer} pays {amount:money} for a {kind} on {space}",
    "log.sell": "{payee} gets {amount:money} for buildings on {space}",
    "log.sell_all": "{payee} gets {amount:money} for every building of {space}'s group",
    "log.mortgage": "{payee} mortgages {space} for {amount:money}",
    "log.unmortgage": "{payer} lifts the mortgage on {space} for {amount:money}",
    "log.keep_mortgage": "{payer} pays {amount:money} interest to keep {space} mortgaged",
    "log.jail_fine": "{payer} pays the jail fine of {amount:money}",
    "log.trade": "{payer} hands {payee} {amount:money} in a trade",
    "log.deal": "{payer} pays {amount:money} for the dealt deed {space}",
    "log.debt_paid": "{payer} pays {payee} {amount:money} owed ({reason})",
    "log.bankruptcy": "{payer} is bankrupt: {amount:money} goes to {payee}",
    "log.pot": "{payee} takes the Free Parking pot of {amount:money}",
    "log.pot_seed": "the bank puts {amount:money} into the Free Parking pot",
    "log.snake_eyes": "{payee} rolls two ones: {amount:money} from the bank",
    "log.adjust": "banker's correction: {payer} to {payee} {amount:money} ({reason})",
    "log.start_bonus": "{payee} lands exactly on {space}: {amount:money} more",
    "log.rent_tax": "{payer} pays {amount:money} tax on the rent for {space}",
    "log.casino_bet": "{payer} bets {amount:money} at the casino",
    "log.casino_win": "{payee} wins {amount:money} at the casino",
    "log.casino_jackpot": "{payee} wins the casino jackpot of {amount:money}",
    "log.own_auction": "{payer} pays {payee} {amount:money} for {space} at auction",
    "log.sell_to_bank": "{payee} sells {space} to the bank for {amount:money}",
    "log.sell_to_player": "{payer} pays {payee} {amount:money} for {space}",
}


def decision_owed(kind: str) -> str:
    """The code of a refusal because a decision of `kind` (`model.Decision.kind`) is owed first: the engine
    passes the kind, and each catalogue words what is owed ("first buy or decline")."""
    return f"rule.decision_owed_{kind}"


def _plain(template: str) -> str:
    """The template with the money marks taken out: the engine writes amounts as plain digits."""
    return template.replace(":money}", "}")


# What render formats, built once at import (no I/O): the money marks taken out.
_PLAIN: dict[str, str | Plural] = {
    code: Plural(t.param, _plain(t.one), _plain(t.other)) if isinstance(t, Plural) else _plain(t)
    for code, t in MESSAGES.items()
}


def render(code: str, params: Mapping[str, Any]) -> str:
    """The English sentence for a code; never fails (a missing parameter shows as ?)."""
    entry = _PLAIN.get(code)
    if entry is None:
        return code + (" " + repr(dict(params)) if params else "")
    if isinstance(entry, Plural):
        entry = entry.one if params.get(entry.param) == 1 else entry.other
    try:
        return entry.format_map(_Lenient(params))
    except (ValueError, IndexError):
        return entry


class _Lenient(dict[str, Any]):
    def __init__(self, params: Mapping[str, Any]) -> None:
        super().__init__(params)

    def __missing__(self, key: str) -> str:
        return "?"
