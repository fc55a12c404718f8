"""A player's deeds and buildings: the deeds screen (build, sell, mortgage and the rest, each offered where
the engine would take it now), the debt panel that sends a debtor there, and the bank's buildings left. A tagged
deed put on the reader there (ui/taps.py) is chosen: its owner's deeds, that one first and marked (`choose`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from banker.errors import ActionError
from ui import view
from ui.flows.base import Flow
from ui.i18n import msg
from ui.pages import DEEDS_PAGE, Page
from ui.view import Deed, buildings_text, deeds_key, pool_text

if TYPE_CHECKING:
    from ui.flows import Flows

# What a deed's row offers, in this order, where the ruleset has the verb (lots take all, others the last four).
DEED_VERBS = ("build", "sell", "sell_all", "mortgage", "unmortgage", "auction_own", "sell_to_bank")


class DeedAction(TypedDict):
    """A button of a deed's row: its verb, its words, and whether the engine would take it now."""

    verb: str
    text: str
    enabled: bool


class DeedRow(Deed):
    """A deed on the deeds screen: the title deed (ui/view.py's `Deed`), its buildings in words, its buttons, and
    whether it is the deed chosen by its tagged card (shown first, marked)."""

    houses_text: str
    actions: list[DeedAction]
    chosen: bool


class DeedGroup(TypedDict):
    """A colour group of a player's deeds: its key, name in the family's language, colour, and deeds."""

    group: str
    name: str
    colour: str
    deeds: list[DeedRow]


class Debt(TypedDict):
    """A debtor on the debt panel: what they owe in all, what is missing (a number and in words), to whom, what
    selling and mortgaging could raise, whether that is enough, and whether the ruleset raises by selling."""

    name: str
    colour: str
    cash: int
    owed: int
    missing: int
    missing_text: str
    to: str
    raisable: int
    enough: bool
    sell_off: bool


class DeedsFlow(Flow):
    def __init__(self, flows: Flows) -> None:
        super().__init__(flows)
        self.of: str | None = None  # whose deeds the deeds screen shows (None: the current player's)
        self.chosen: int | None = None  # the deed chosen by its tagged card: first on the screen, marked

    def bar_key(self, page: Page) -> str:
        return deeds_key(self.game)

    def show(self, player: str) -> None:
        self.of = player
        self.chosen = None
        self.f.nav.go(DEEDS_PAGE)

    def choose(self, space: int) -> None:
        """A tagged deed put on the reader on the deeds screen (or, its owner in debt, at the debt panel): its
        owner's deeds, that one first and marked; when the engine would take none of its row's actions now, its
        refusal of the one a family means (mortgage, or lifting the mortgage) is said. The bank's: refused."""
        game, s = self.game, self.s
        assert game is not None
        owner = game.owner[space]
        if owner < 0:
            s.notify(msg("ui.tag.deed_bank", space=game.space_name(space)), "error", "error")
            return
        self.of, self.chosen = game.players[owner].name, space
        self.f.nav.go(DEEDS_PAGE)
        verbs = self.verbs(space)
        if any(game.can({"do": verb, "space": space}) is None for verb in verbs):
            return
        verb = "unmortgage" if game.mortgaged[space] else "mortgage"
        if verb in verbs:
            try:
                game.check(s.stamped({"do": verb, "space": space}))
            except ActionError as exc:
                s.error(exc)

    def verbs(self, space: int) -> tuple[str, ...]:
        """What a deed's row offers (lots all of `DEED_VERBS`, the others the last four) in the ruleset's verbs."""
        game = self.game
        assert game is not None
        verbs = DEED_VERBS if game.kinds[space] == "lot" else DEED_VERBS[3:]
        return tuple(verb for verb in verbs if verb in game.space_verbs)

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

    def view(self, player: str) -> list[DeedGroup]:
        """A player's properties grouped by colour, each with what can be done to it."""
        s, game = self.s, self.game
        assert game is not None
        p = game.index_of[player]
        groups: dict[str, list[DeedRow]] = {}
        owned = game.iter_properties(p)
        if self.chosen in owned:  # the deed chosen by its card first: its group, and it first in it
            chosen = self.chosen
            rest = sorted((i for i in owned if i != chosen), key=lambda i: game.groups[i] != game.groups[chosen])
            owned = [chosen, *rest]
        for i in owned:
            entry: DeedRow = {**view.space(s, i), "houses_text": buildings_text(s, game, i), "actions": [
                {"verb": verb, "text": s.tr(f"ui.btn.{verb}"), "enabled": game.can({"do": verb, "space": i}) is None}
                for verb in self.verbs(i)
            ], "chosen": i == self.chosen}
            groups.setdefault(game.groups[i] or "", []).append(entry)
        return [{"group": g, "name": s.tr.group(g, game.ruleset.groups.get(g, {}).get("name", g)),
                 "colour": game.ruleset.groups.get(g, {}).get("color", "#BDBDBD"), "deeds": items}
                for g, items in groups.items()]

    def debts(self) -> list[Debt]:
        """Who owes whom how much, what is missing, and what selling and mortgaging could raise."""
        s, game = self.s, self.game
        if game is None:
            return []
        out: list[Debt] = []
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


__all__ = ["DEED_VERBS", "DeedAction", "DeedGroup", "DeedRow", "DeedsFlow", "Debt"]
