"""Auctions: the engine's (a declined property, a building the bank runs short of, brands' bids in turn)
and biznes's auction of a player's own property, whose opening bid the seller chooses first (a tagged deed put on
the reader then chooses the lot: `lot_tapped`).

A bid is the least the rules allow now (`game.least_bid`), or, where any raise is allowed, the high bid
raised by the table's own step. A card tap of a bidder is that player's bid (ui/taps.py); the screen's bid
buttons wait for the bidder's card like any spending.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NotRequired, TypedDict

from banker.errors import ActionError
from ui import view
from ui.flows.base import Flow
from ui.pages import OWNAUCTION_PAGE, TABLE_PAGE

if TYPE_CHECKING:
    from ui.flows import Flows


class OwnPlan(TypedDict):
    """An own-property auction being planned (`AuctionFlow.own`): the seller, the space, the game's action count
    when it was planned (it is for that moment only), and the opening bid once chosen."""

    player: str
    space: int
    seq: int
    reserve: NotRequired[int]


class OwnAuction(TypedDict):
    """What the seller chooses before an own-property auction (`AuctionFlow.own_view`): the space (by name and
    index), the opening bid's bounds and step, and the bank's price."""

    space: str
    index: int
    low: int
    high: int
    step: int
    bank_price: int


# A player at the auction: their cash (a number and in words), whether still bidding ("in": a keyword, hence
# this form), leading, their turn (bids in turn order), whether they may bid now, and the bid their Bid button
# (and card tap) makes.
Bidder = TypedDict("Bidder", {"name": str, "colour": str, "cash": int, "cash_text": str, "in": bool, "leading": bool,
                              "turn": bool, "may_bid": bool, "next": int})


class AuctionView(TypedDict):
    """The auction screen (`AuctionFlow.view`)."""

    what: str  # the space's name, or the kind of building auctioned
    space: int | None
    high_bid: int
    opening: int  # the first bid the Bid buttons make
    how_key: str
    leader: str | None
    min_bid: int
    step: int  # the table's own bid step
    bidders: list[Bidder]
    price: int | None
    stepped: bool  # bids in turn order
    fixed_step: int  # the ruleset's step of a bid
    seller: str | None
    countdown: int | None
    bid_countdown: int | None
    can_close: bool


class AuctionFlow(Flow):
    def __init__(self, flows: Flows) -> None:
        super().__init__(flows)
        self.own: OwnPlan | None = None  # an own-property auction being planned

    def leave(self, page: str) -> str | None:
        if page != OWNAUCTION_PAGE:
            return None
        game, plan = self.game, self.own
        if game is None or game.auction is not None or plan is None or plan["seq"] != game.seq:
            self.own = None  # the auction has started, or came and went, or something else happened meanwhile
            return TABLE_PAGE
        return None

    def bidders(self) -> list[str]:
        """The players still bidding, by name (none when no auction runs)."""
        game = self.game
        if game is None or game.auction is None:
            return []
        return [game.players[b].name for b in game.auction.bidders]

    def bid_amount(self, player: str) -> int:
        game = self.game
        assert game is not None and game.auction is not None
        least = game.least_bid(game.index_of[player])  # the rules' answer
        if game.variant.free_raise:  # any raise is allowed: offer the table's own step
            return max(least, game.auction.high_bid + self.s.settings.bid_step)
        return least

    def bid(self, player: str, amount: int | None = None) -> None:
        """A bid from a card tap: the high bid raised by the step (the tap itself was the player's consent)."""
        game = self.game
        if game is None or game.auction is None:
            return
        action = {"do": "bid", "player": player, "amount": amount or self.bid_amount(player)}
        if game.can(action) is not None:
            self.f.paying.request(action)  # refused, in the rule's words
            return
        self.s.apply(action)
        self.changed()

    def bid_button(self, player: str) -> None:
        """A bid button: at once with on-screen buttons, else waiting for the bidder's card like any spending."""
        if not self.s.settings.taps:
            self.bid(player)
        else:
            self.f.paying.request({"do": "bid", "player": player, "amount": self.bid_amount(player)})

    def step(self, delta: int) -> None:
        """The auction's "Bid step -/+": how much a bid (a Bid button, a card's tap) raises the high bid (at
        least 1)."""
        self.f.settings.set_setting("bid_step", max(1, self.s.settings.bid_step + delta))

    # ------------------------------------------------------------------ an own-property auction (biznes)

    def start_own(self, player: str, space: int) -> None:
        """biznes: choose the opening bid of an auction of the player's own property."""
        game = self.game
        assert game is not None
        self.own = {"player": player, "space": space, "seq": game.seq}
        self.f.nav.go(OWNAUCTION_PAGE)

    def lot_tapped(self, space: int) -> None:
        """A tagged deed put on the reader while an own-property auction is planned: that deed is the lot when the
        engine would take its auction (its owner the seller), else the engine's refusal, in words."""
        game, s = self.game, self.s
        assert game is not None
        action = {"do": "auction_own", "space": space}
        if game.can(action) is None and game.owner[space] >= 0:
            self.start_own(game.players[game.owner[space]].name, space)
            return
        try:
            game.check(s.stamped(action))
        except ActionError as exc:
            s.error(exc)

    def own_plan(self) -> OwnPlan:
        """The auction being planned, its opening bid kept within what the rules allow."""
        plan = self.own
        assert plan is not None
        info = self.own_view(plan["player"], plan["space"])
        plan["reserve"] = min(max(plan.get("reserve", info["low"]), info["low"]), info["high"])
        return plan

    def own_go(self) -> None:
        """Start the auction at the chosen opening bid (the seller's card confirms it)."""
        plan = self.own_plan()
        self.f.paying.request({"do": "auction_own", "player": plan["player"], "space": plan["space"],
                               "reserve": plan["reserve"]})

    def set_reserve(self, seq: int, amount: int) -> None:
        """The opening bid entered on the digit pad, for the plan it was entered for."""
        if self.own is not None and self.own["seq"] == seq:
            self.own["reserve"] = amount

    def own_view(self, player: str, i: int) -> OwnAuction:
        """What the seller chooses before an own-property auction: the reserve's bounds and step."""
        game = self.game
        assert game is not None
        low, high = game.own_auction_reserves(game.index_of[player], i)
        return {"space": game.space_name(i), "index": i, "low": low, "high": high, "step": game.auction_step,
                "bank_price": game.bank_price(i)}

    # ------------------------------------------------------------------ what the screen shows

    def view(self) -> AuctionView | None:
        s, game = self.s, self.game
        if game is None or game.auction is None:
            return None
        a = game.auction
        in_turn = game.variant.auction_in_turn  # bids in turn order
        what = game.space_name(a.space) if a.space >= 0 else s.tr(f"ui.kind.{a.kind}")
        bidders: list[Bidder] = []
        for p in game.players:
            if p.bankrupt or p.index == a.seller:
                continue
            bidders.append({"name": p.name, "colour": s.colour(p.name), "cash": p.cash,
                            "cash_text": view.money(s, p.cash),
                            "in": p.index in a.bidders, "leading": p.index == a.high_bidder,
                            "turn": in_turn and p.index == a.next_bidder,
                            "may_bid": p.index in a.bidders and p.index != a.high_bidder
                            and (not in_turn or p.index == a.next_bidder),
                            "next": self.bid_amount(p.name)})
        clock = self.f.clock
        # "No bid yet (from X)": X is the first bid the Bid buttons (and a card's tap) make, not the rules' least
        opening = min((b["next"] for b in bidders if b["in"]), default=a.min_bid)
        return {"what": what, "space": a.space if a.space >= 0 else None, "high_bid": a.high_bid,
                "opening": opening, "how_key": s.by_mode("ui.auction.how"),
                "leader": game.players[a.high_bidder].name if a.high_bidder >= 0 else None,
                "min_bid": a.min_bid, "step": s.settings.bid_step, "bidders": bidders,
                "price": game.prices[a.space] if a.space >= 0 else None,
                "stepped": in_turn, "fixed_step": game.auction_step,
                "seller": game.players[a.seller].name if a.seller >= 0 else None,
                "countdown": clock.auction_countdown(), "bid_countdown": clock.bid_countdown(),
                "can_close": game.can({"do": "close_auction"}) is None}


__all__ = ["AuctionFlow", "AuctionView", "Bidder", "OwnAuction", "OwnPlan"]
