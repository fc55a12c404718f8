"""Auctions: who bids, in what order, by how much, and how an auction ends; the verbs `bid`, `pass`,
`close_auction` and `building_auction`.

- ``open`` (`Open`, the default): the bank's auction of a declined (or a bankrupt's) property opens at 1;
  anyone still in bids any amount above the high bid, in any order; `close_auction` ends it (sold to the
  high bidder, or unsold).
- ``stepped`` (`Stepped`, biznes): everyone bids in turn order, from the player whose turn it is, each bid
  exactly `auction_step` more than the last, from `auction_start_percent` of the price (rounded up); a
  player who cannot make the next bid is passed; `close_auction` only cancels an auction nobody bid in.
- ``in_turn`` (`InTurn`, brands): as stepped, but the decliner takes no part, and a bid is at least
  `auction_step` more than the last.

The state of a running auction is the game's (`game.auction`, a `banker.model.Auction`; `game.auction_queue`
holds the properties the bank auctions next). Own-property auctions (`auction_own`, biznes) are started by
the game and always run in turn order (`auction_changed`); their bids follow the game's auction variant.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from banker.errors import IllegalAction, InvalidAction
from banker.mechanics.base import Mechanic, mypyc_attr
from banker.model import BANK, Auction
from banker.options import Options

if TYPE_CHECKING:
    from banker.game import Game


@mypyc_attr(allow_interpreted_subclasses=True)
class Open(Mechanic):
    """open (classic): anyone bids any amount above the high bid; `close_auction` ends it."""

    def in_turn(self) -> bool:
        """Whether the bidders bid in turn order (`Auction.next_bidder` is whose bid it is)."""
        return False

    def start_property(self, game: Game, i: int, decliner: int) -> None:
        """The bank opens its auction of space i (`decliner` declined it, or -1)."""
        auction = Auction(space=i, kind="property", bidders=bidders_from_current(game))
        game.set_auction(auction)
        game.emit("auction", game.space_params[i])
        if not auction.bidders:  # nobody may bid (`buy_after_first_lap`): unsold at once
            finish_auction(game)

    def high_bidder_may_pass(self) -> bool:
        """Whether the high bidder may `pass` (leave the auction)."""
        return False

    def check_bidder(self, game: Game, p: int, auction: Auction) -> None:
        """Raises IllegalAction when player p, still in and not the high bidder, may not bid now."""

    def default_bid(self, auction: Auction) -> int | None:
        """The amount of a bid that names none (None: a bid must name its amount)."""
        return None

    def check_amount(self, game: Game, p: int, auction: Auction, amount: int) -> None:
        """Raises IllegalAction when player p may not bid `amount` (checked before the least bid and the
        bidder's cash)."""

    def bid_made(self, game: Game, auction: Auction, p: int, amount: int) -> None:
        """Player p is the high bidder at `amount` now: set the next least bid and end the auction if it is
        over."""
        game.set_least_bid(amount + 1)
        auction_maybe_over(game)

    def bidder_left(self, game: Game, auction: Auction, p: int) -> None:
        """Player p has left the auction (passed, or went bankrupt): end the auction if it is over."""
        auction_maybe_over(game)

    def check_close(self, game: Game, auction: Auction) -> None:
        """Raises IllegalAction when `close_auction` may not end the auction now."""

    def closing(self, game: Game, auction: Auction) -> None:
        """`close_auction` ends the auction (before it is settled)."""

    def owed(self, game: Game, auction: Auction) -> list[dict[str, Any]]:
        """Who the auction waits for, as in the state's `owed`."""
        out: list[dict[str, Any]] = []
        for b in auction.bidders:
            if b != auction.high_bidder:
                out.append({"player": game.players[b].name, "verbs": ["bid", "pass"]})
        out.append({"player": "bank", "verbs": ["close_auction"]})
        return out

    def free_raise(self) -> bool:
        """Whether a bid may raise the high bid by any amount, so that the app may offer its table's own bid
        step (a family setting); False where the rules set the step (`least_bid` is then the bid to offer)."""
        return True

    def least_bid(self, game: Game, auction: Auction, p: int) -> int:
        """The least amount player p may bid in the running auction (their cash and their turn aside)."""
        return auction.min_bid


@mypyc_attr(allow_interpreted_subclasses=True)
class InTurn(Open):
    """in_turn (brands): in turn order, at least a step more, the decliner left out."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self.step = options.auction_step
        self.start_percent = options.auction_start_percent

    def in_turn(self) -> bool:
        return True

    def decliner_bids(self) -> bool:
        """Whether the player who declined the property takes part in its auction."""
        return False

    def start_property(self, game: Game, i: int, decliner: int) -> None:
        """The auction opens at `auction_start_percent` of the price, the current player bidding first."""
        bidders = bidders_from_current(game)
        if not self.decliner_bids() and decliner >= 0:
            bidders = tuple([q for q in bidders if q != decliner])  # brands: the decliner takes no part
        opening = -(-game.prices[i] * self.start_percent // 100)
        game.set_auction(Auction(space=i, kind="property", bidders=bidders, min_bid=opening,
                                 next_bidder=bidders[0] if bidders else -1, opened_at=game.action_t))
        game.emit("auction", {"space": game.space_names[i], "start": opening})
        auction_changed(game)

    def high_bidder_may_pass(self) -> bool:
        return True

    def check_bidder(self, game: Game, p: int, auction: Auction) -> None:
        """Only the player whose bid it is may bid."""
        if p != auction.next_bidder:
            raise IllegalAction("rule.not_next_bidder", player=game.players[p].name,
                                next=game.players[auction.next_bidder].name)

    def default_bid(self, auction: Auction) -> int | None:
        return auction.min_bid

    def bid_made(self, game: Game, auction: Auction, p: int, amount: int) -> None:
        """The next bid is a step more, from the next player round the table."""
        game.set_least_bid(amount + self.step, bidder_after(game, auction, p))
        auction_changed(game)

    def bidder_left(self, game: Game, auction: Auction, p: int) -> None:
        """If it was p's bid, it is the next player's."""
        if auction.next_bidder == p:
            game.give_bid_to(bidder_after(game, auction, p))
        auction_changed(game)

    def check_close(self, game: Game, auction: Auction) -> None:
        """Only an auction nobody bid in may be closed (cancelled)."""
        if auction.high_bidder >= 0:
            raise IllegalAction("rule.close_after_bid", bidder=game.players[auction.high_bidder].name,
                                amount=auction.high_bid)

    def closing(self, game: Game, auction: Auction) -> None:
        if auction.high_bidder < 0:
            game.emit("auction_cancelled", {"space": game.space_name(auction.space)})

    def owed(self, game: Game, auction: Auction) -> list[dict[str, Any]]:
        """The player whose bid it is, and the bank's close while nobody has bid."""
        out: list[dict[str, Any]] = []
        if auction.next_bidder >= 0:
            out.append({"player": game.players[auction.next_bidder].name, "verbs": ["bid", "pass"]})
        if auction.high_bidder < 0:
            out.append({"player": "bank", "verbs": ["close_auction"]})
        return out

    def free_raise(self) -> bool:
        """Each bid is a step (`auction_step`, a rule) more than the last: the least bid already holds it."""
        return False


@mypyc_attr(allow_interpreted_subclasses=True)
class Stepped(InTurn):
    """stepped (biznes): in turn order, everyone, each bid exactly a step more."""

    def decliner_bids(self) -> bool:
        return True

    def check_amount(self, game: Game, p: int, auction: Auction, amount: int) -> None:
        """The only bid is the next step."""
        if amount != auction.min_bid:
            raise IllegalAction("rule.bid_exact", player=game.players[p].name, amount=amount, bid=auction.min_bid,
                                step=self.step)


# ----------------------------------------------------------------------
# Helpers


def bidders_from_current(game: Game) -> tuple[int, ...]:
    """The players who may bid (still in and, with `buy_after_first_lap`, lapped), round the table from the
    player whose turn it is."""
    n = len(game.players)
    order = [(game.turn + k) % n for k in range(n)]
    return tuple([q for q in order if game.may_bid(q)])


def start_property_auction(game: Game, i: int, decliner: int = -1) -> None:
    """The bank auctions space i (after `decliner` declined it, or a bankruptcy or a lapsed mortgage)."""
    game.rules.auction.start_property(game, i, decliner)


def _auction_for(game: Game, p: int, high_code: str) -> Auction:
    """The running auction, if player p may still bid or pass in it."""
    auction = game.auction
    name = game.players[p].name
    if auction is None:
        raise IllegalAction("rule.no_auction", player=name)
    if game.lap_rule and not game.players[p].lapped:
        raise IllegalAction("rule.not_lapped_bid", player=name)
    if p not in auction.bidders:
        raise IllegalAction("rule.not_bidding", player=name)
    if p == auction.high_bidder and not (game.rules.auction.high_bidder_may_pass()
                                         and high_code == "rule.high_bidder_cannot_pass"):
        raise IllegalAction(high_code, player=name, amount=auction.high_bid)
    return auction


def bidder_after(game: Game, auction: Auction, p: int) -> int:
    """The next player round the table after p who is still in and not the high bidder (-1: none)."""
    return _after(len(game.players), auction.bidders, auction.high_bidder, p)


def _after(n: int, bidders: tuple[int, ...], high: int, p: int) -> int:
    for k in range(1, n + 1):
        q = (p + k) % n
        if q in bidders and q != high:
            return q
    return -1


def auction_changed(game: Game) -> None:
    """Auctions in turn order: pass whoever cannot make the next bid, then end the auction if it is over."""
    auction = game.auction
    assert auction is not None
    n = len(game.players)
    high = auction.high_bidder
    bidders = auction.bidders
    turn = auction.next_bidder
    for q in auction.bidders:
        if q == high:
            continue
        player = game.players[q]
        if player.debts or player.cash < auction.min_bid:
            bidders = tuple([b for b in bidders if b != q])
            game.emit("passed", {"player": player.name,
                                 "reason": "debt" if player.debts else "cash"})
            if turn == q:
                turn = _after(n, bidders, high, q)
    if turn >= 0 and (turn not in bidders or turn == high):
        turn = _after(n, bidders, high, turn)
    if bidders is not auction.bidders or turn != auction.next_bidder:
        game.set_bidders(bidders, turn)  # one change for all who could not bid on
    auction_maybe_over(game)


def auction_maybe_over(game: Game) -> None:
    """End the auction when nobody but the high bidder is left in it."""
    auction = game.auction
    assert auction is not None
    high = auction.high_bidder
    if not any(b != high for b in auction.bidders):
        finish_auction(game)


def leave_auction(game: Game, p: int) -> None:
    """Player p leaves the running auction, if they are in it (they went bankrupt)."""
    auction = game.auction
    if auction is not None and p in auction.bidders:
        game.drop_bidder(p)
        game.rules.auction.bidder_left(game, auction, p)


def finish_auction(game: Game) -> None:
    """Settle the auction (the high bidder pays and takes what was sold), then start the next queued one."""
    auction = game.auction
    assert auction is not None
    game.set_auction(None)
    winner = auction.high_bidder
    if auction.kind == "own":
        i = auction.space
        seller = auction.seller
        if winner >= 0:
            game.transfer(winner, seller, auction.high_bid, "own_auction", game.space_params[i])
            game.give_deed(i, winner)
            game.emit("sold", {"player": game.players[winner].name,
                               "space": game.space_name(i), "amount": auction.high_bid})
        else:
            game.emit("unsold_own", {"player": game.players[seller].name,
                                     "space": game.space_name(i)})
    elif auction.kind == "property":
        i = auction.space
        if winner >= 0:
            game.charge(winner, BANK, auction.high_bid, "auction", game.space_params[i])
            game.give_deed(i, winner)
            game.set_mortgaged(i, False)
            game.emit("sold", {"player": game.players[winner].name,
                               "space": game.space_name(i), "amount": auction.high_bid})
        else:
            game.emit("unsold", game.space_params[i])
    elif winner >= 0:
        game.charge(winner, BANK, auction.high_bid, "building_auction", {"kind": auction.kind})
        game.owe_building(winner, auction.kind)
        game.emit("building_won", {"player": game.players[winner].name,
                                   "kind": auction.kind, "amount": auction.high_bid})
    if game.auction_queue:
        start_property_auction(game, game.next_queued_auction())


def _building_bidders(game: Game, kind: str) -> tuple[int, ...]:
    """The players, round the table from the current one, who could build a `kind` now (cash aside)."""
    result = []
    for q in bidders_from_current(game):
        for i in game.ruleset.property_indices:
            if game.owner[i] == q and game.kinds[i] == "lot" and game.build_problem(q, i, kind, True) is None:
                result.append(q)
                break
    return tuple(result)


# ----------------------------------------------------------------------
# The verbs


def check_bid(game: Game, p: int, a: Mapping[str, Any]) -> None:
    auction = _auction_for(game, p, "rule.already_high")
    player = game.players[p]
    name = player.name
    if player.debts:
        raise IllegalAction("rule.in_debt", player=name, verb="bid")
    rule = game.rules.auction
    rule.check_bidder(game, p, auction)
    amount = a.get("amount")
    if amount is None:
        amount = rule.default_bid(auction)
    if amount is None:
        raise InvalidAction("action.amount_needed", player=name)
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidAction("action.bad_field", field="amount", problem="must be a whole number")
    rule.check_amount(game, p, auction, amount)
    if amount < auction.min_bid:
        raise IllegalAction("rule.bid_too_low", player=name, amount=amount, least=auction.min_bid)
    if amount > player.cash:
        raise IllegalAction("rule.bid_over_cash", player=name, amount=amount, cash=player.cash)


def do_bid(game: Game, p: int, a: Mapping[str, Any]) -> None:
    auction = game.auction
    assert auction is not None
    given = a.get("amount")
    amount = auction.min_bid if given is None else int(given)
    game.record_bid(p, amount)
    game.emit("bid", {"player": game.players[p].name, "amount": amount})
    game.rules.auction.bid_made(game, auction, p, amount)


def check_pass(game: Game, p: int, a: Mapping[str, Any]) -> None:
    _auction_for(game, p, "rule.high_bidder_cannot_pass")


def do_pass(game: Game, p: int, a: Mapping[str, Any]) -> None:
    auction = game.auction
    assert auction is not None
    game.drop_bidder(p)
    game.emit("passed", {"player": game.players[p].name})
    game.rules.auction.bidder_left(game, auction, p)


def check_close_auction(game: Game, p: int, a: Mapping[str, Any]) -> None:
    auction = game.auction
    if auction is None:
        raise IllegalAction("rule.no_auction", player=game.players[p].name)
    game.rules.auction.check_close(game, auction)


def do_close_auction(game: Game, p: int, a: Mapping[str, Any]) -> None:
    auction = game.auction
    assert auction is not None
    game.rules.auction.closing(game, auction)
    finish_auction(game)


def check_building_auction(game: Game, p: int, a: Mapping[str, Any]) -> None:
    if not game.variant.building_auctions:
        raise IllegalAction("rule.no_building_auctions", rules=game.ruleset.name)
    kind = a.get("kind")
    if kind not in ("house", "hotel"):
        raise InvalidAction("action.bad_field", field="kind", problem='must be "house" or "hotel"')
    if not game.free_window():
        game.refuse_blocked("building_auction", p)
        raise IllegalAction("rule.blocked_auction", verb="building_auction", player=game.players[p].name)
    left = game.bank_houses if kind == "house" else game.bank_hotels
    if left == 0:
        raise IllegalAction("rule.bank_out_of", kind=kind)
    if len(_building_bidders(game, kind)) < 2:
        raise IllegalAction("rule.no_building_shortage", kind=kind)


def do_building_auction(game: Game, p: int, a: Mapping[str, Any]) -> None:
    kind = str(a["kind"])
    bidders = _building_bidders(game, kind)
    cheapest = min(game.ruleset.spaces[i].building_cost for i in game.ruleset.property_indices
                   if game.owner[i] in bidders and game.kinds[i] == "lot"
                   and game.build_problem(game.owner[i], i, kind, True) is None)
    game.set_auction(Auction(space=-1, kind=kind, bidders=bidders, min_bid=cheapest))
    game.emit("building_auction", {"kind": kind, "start": cheapest})


VARIANTS: dict[str, type[Open]] = {"open": Open, "stepped": Stepped, "in_turn": InTurn}
