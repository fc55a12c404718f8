"""A player's deeds and buildings: the deeds screen (build, sell, mortgage and the rest, each offered where
the engine would take it now), the debt panel that sends a debtor there, and the bank's buildings left."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ui import view
from ui.flows.base import Flow
from ui.pages import DEEDS_PAGE, Page
from ui.view import buildings_text, deeds_key, pool_text

if TYPE_CHECKING:
    from ui.flows import Flows

# What a deed's row offers, in this order, where the ruleset has the verb (lots take all, others the last four).
DEED_VERBS = ("build", "sell", "sell_all", "mortgage", "unmortgage", "auction_own", "sell_to_bank")


class DeedsFlow(Flow):
    def __init__(self, flows: Flows) -> None:
        super().__init__(flows)
        self.of: str | None = None  # whose deeds the deeds screen shows (None: the current player's)

    def bar_key(self, page: Page) -> str:
        return deeds_key(self.game)

    def show(self, player: str) -> None:
        self.of = player
        self.f.nav.go(DEEDS_PAGE)

    def player(self) -> str:
        """Whose deeds the deeds screen shows: the one chosen, or the player whose turn it is."""
        game = self.game
        assert game is not None
        return self.of or game.current.name

    def act(self, player: str, verb: str, space: int) -> None:
        """A deed row's button; an own-property auction first asks the seller for the opening bid."""
        game = self.game
        if verb == "auction_own" and game is not None and game.can({"do": verb, "space": space}) is None:
            self.f.auction.start_own(player, space)
            return
        self.f.paying.request({"do": verb, "space": space})

    # ------------------------------------------------------------------ what the screens show

    def view(self, player: str) -> list[dict[str, Any]]:
        """A player's properties grouped by colour, each with what can be done to it."""
        s, game = self.s, self.game
        assert game is not None
        p = game.index_of[player]
        groups: dict[str, list[dict[str, Any]]] = {}
        for i in game.iter_properties(p):
            entry = view.space(s, i)
            entry["houses_text"] = buildings_text(s, game, i)
            verbs = DEED_VERBS if game.kinds[i] == "lot" else DEED_VERBS[3:]
            entry["actions"] = [
                {"verb": verb, "text": s.tr(f"ui.btn.{verb}"), "enabled": game.can({"do": verb, "space": i}) is None}
                for verb in verbs if verb in game.space_verbs
            ]
            groups.setdefault(game.groups[i] or "", []).append(entry)
        return [{"group": g, "name": s.tr.group(g, game.ruleset.groups.get(g, {}).get("name", g)),
                 "colour": game.ruleset.groups.get(g, {}).get("color", "#BDBDBD"), "deeds": items}
                for g, items in groups.items()]

    def debts(self) -> list[dict[str, Any]]:
        """Who owes whom how much, what is missing, and what selling and mortgaging could raise."""
        s, game = self.s, self.game
        if game is None:
            return []
        out = []
        for p in game.players:
            if not p.debts:
                continue
            owed = sum(d.amount for d in p.debts)
            raisable = game.raisable(p.index)  # the rules' answer
            out.append({
                "name": p.name, "colour": s.colour(p.name), "cash": p.cash, "owed": owed,
                "missing": max(0, owed - p.cash), "missing_text": view.money(s, max(0, owed - p.cash)),
                "to": ", ".join(f"{view.party(s, game, d.creditor)} {view.money(s, d.amount)}" for d in p.debts),
                "raisable": raisable, "enough": p.cash + raisable >= owed, "sell_off": game.variant.raises_by_selling,
            })
        return out

    def pool_text(self) -> str:
        """"Bank: 30 houses, 12 hotels", in the ruleset's words (offices, branches...)."""
        game = self.game
        return pool_text(self.s, game) if game is not None else ""


__all__ = ["DEED_VERBS", "DeedsFlow"]
