"""A trade between two players: who offers and who receives, each side's cash, deeds and get-out-of-jail
cards, put together on the trade screen (a tagged deed put on the reader joins its owner's side: `deed_tapped`);
both players tap their cards to agree (ui/flows/paying.py).

biznes: a debtor's one firm for a rival's cash is a sale to that rival (`sell_to_player`), which the rules
check against the bank's price, not a trade.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict

from ui.flows.base import Flow
from ui.i18n import msg
from ui.pages import TRADE_PAGE

if TYPE_CHECKING:
    from ui.flows import Flows


class TradeDeed(TypedDict):
    """A deed a side could give: its index, name, and whether it is in the offer."""

    index: int
    name: str
    chosen: bool


class TradeSide(TypedDict):
    """One side of the trade on the screen: "give" (from the offering player) or "get" (from the other), the
    key of its player in the offer and the player, the cash offered, the side's deeds, and the jail cards offered
    and held."""

    side: str
    who_key: str
    who: str
    cash: int
    deeds: list[TradeDeed]
    jail_cards: int
    jail_cards_held: int


# The trade screen (`TradeFlow.view`): the players still in, who offers ("from": a keyword, hence this form) and
# who receives, both sides, and a debtor's sale's least price (biznes: the bank's price), else None.
TradeView = TypedDict("TradeView", {"names": list[str], "from": str, "to": str, "sides": list[TradeSide],
                                    "sale_least": int | None})


def empty_side() -> dict[str, Any]:
    return {"cash": 0, "spaces": [], "jail_cards": 0}


class TradeFlow(Flow):
    def __init__(self, flows: Flows) -> None:
        super().__init__(flows)
        self.offer: dict[str, Any] = {}  # the trade being put together: {"from", "to", "give", "get"}

    def start(self, player: str) -> None:
        """The trade screen with `player` offering (a debtor raising money)."""
        game = self.game
        if game is not None and self.offer.get("from") != player:
            others = [p.name for p in game.players if not p.bankrupt and p.name != player]
            self.offer = {"from": player, "to": others[0], "give": empty_side(), "get": empty_side()}
        self.f.nav.go(TRADE_PAGE)

    def current(self) -> dict[str, Any]:
        """The trade draft, between two players still in (a fresh one if a side has gone bankrupt)."""
        game = self.game
        assert game is not None
        names = [p.name for p in game.players if not p.bankrupt]
        offer = self.offer
        if offer.get("from") not in names or offer.get("to") not in names:
            offer.update({"from": names[0], "to": names[1], "give": empty_side(), "get": empty_side()})
        return offer

    def who(self, key: str, name: str) -> None:
        """Choose who offers ("from") or who receives ("to"); choosing the other side's player swaps them."""
        offer = self.current()
        other = "to" if key == "from" else "from"
        if offer[other] == name:
            offer[other] = offer[key]
        offer[key] = name
        offer["give"] = empty_side()
        offer["get"] = empty_side()
        self.changed()

    def cash(self, side: str, delta: int) -> None:
        items = self.current()[side]
        items["cash"] = max(0, items["cash"] + delta)
        self.changed()

    def set_cash(self, side: str, player: str, amount: int) -> None:
        """The cash entered on the digit pad for `side`, if `player` is still that side's."""
        offer = self.current()
        if offer["from" if side == "give" else "to"] == player:
            offer[side]["cash"] = amount

    def space(self, side: str, space: int) -> None:
        spaces = self.current()[side]["spaces"]
        if space in spaces:
            spaces.remove(space)
        else:
            spaces.append(space)
        self.changed()

    def deed_tapped(self, space: int) -> None:
        """A tagged deed put on the reader while the trade screen shows: it joins the side of its owner, or leaves
        it; a deed of neither player (or the bank's) is refused by name."""
        game = self.game
        assert game is not None
        offer, owner = self.current(), game.owner[space]
        who = game.players[owner].name if owner >= 0 else None
        side = "give" if who == offer["from"] else "get" if who == offer["to"] else None
        if side is None:
            name = game.space_name(space)
            self.s.notify(msg("ui.tag.trade_other", space=name, owner=who) if who is not None
                          else msg("ui.tag.trade_bank", space=name), "error", "error")
            return
        self.space(side, space)

    def cards(self, side: str, most: int) -> None:
        """Get-out-of-jail cards in the offer: one more each press, back to none after `most`."""
        items = self.current()[side]
        items["jail_cards"] = (items["jail_cards"] + 1) % (most + 1)
        self.changed()

    def agree(self) -> None:
        """Both players tap to agree (biznes: a debtor's one firm for a rival's cash is a sale instead)."""
        offer = self.current()
        sale = self.sale(offer)
        if sale is not None:
            self.f.paying.request(sale)
            return
        action = {"do": "trade", "from": offer["from"], "to": offer["to"],
                  "give": {k: v for k, v in offer["give"].items() if v},
                  "get": {k: v for k, v in offer["get"].items() if v}}
        self.f.paying.request(action)

    def sale(self, offer: dict[str, Any]) -> dict[str, Any] | None:
        """biznes: the offer as the sale it is (a debtor's one firm for a rival's cash), or None. Whether the
        rules allow it is the engine's to say when it is asked."""
        game = self.game
        if game is None or not game.variant.raises_by_selling or offer.get("from") not in game.index_of:
            return None
        if not game.players[game.index_of[offer["from"]]].debts:
            return None
        give, get = offer["give"], offer["get"]
        if len(give["spaces"]) != 1 or give["cash"] or get["spaces"] or get["jail_cards"] or give["jail_cards"]:
            return None
        return {"do": "sell_to_player", "player": offer["from"], "space": give["spaces"][0], "to": offer["to"],
                "price": get["cash"]}

    def view(self) -> TradeView:
        """The trade screen: the players to choose from, and each side's cash, deeds and jail cards on offer."""
        game = self.game
        assert game is not None
        offer = self.current()
        sides: list[TradeSide] = []
        for side, who_key in (("give", "from"), ("get", "to")):
            owner = game.index_of[offer[who_key]]
            items = offer[side]
            sides.append({
                "side": side, "who_key": who_key, "who": offer[who_key], "cash": items["cash"],
                "deeds": [{"index": i, "name": game.space_name(i), "chosen": i in items["spaces"]}
                          for i in game.iter_properties(owner)],
                "jail_cards": items["jail_cards"], "jail_cards_held": len(game.players[owner].jail_cards),
            })
        sale = self.sale(offer)
        return {"names": [p.name for p in game.players if not p.bankrupt], "from": offer["from"], "to": offer["to"],
                "sides": sides, "sale_least": game.bank_price(sale["space"]) if sale is not None else None}


__all__ = ["TradeDeed", "TradeFlow", "TradeSide", "TradeView", "empty_side"]
