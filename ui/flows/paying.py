"""Paying by card: an action a player chooses to spend on waits for that player's card tap.

Every action from a button comes through `request`: refused at once with the rule's own words when the
game would refuse it (the notice stands until the cause is gone), else done at once, or kept *pending*
until every player it needs has tapped their card (a purchase: the buyer; a trade: both sides). The tap
router (ui/taps.py) hands a tap here while something is pending; a card that is not one of those asked for
is refused there, naming whose card is awaited.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

from banker.chance import complete_action, complete_bet
from banker.errors import ActionError
from ui.flows.base import SYSTEM_RANDOM, Flow

if TYPE_CHECKING:
    from ui.flows import Flows

# The verbs that spend a player's money or property: each waits for that player's card.
SPENDING = {"buy", "bid", "pay_fine", "use_card", "build", "sell", "sell_all", "mortgage", "unmortgage",
            "keep_mortgage", "concede", "auction_own", "sell_to_bank"}


class PendingView(TypedDict):
    """An action waiting for card taps, as the banner shows it (`PayingFlow.view`): the prompt, whose cards it
    needs, who has still to tap and who has, and whether the banker allows stand-ins for a forgotten card."""

    prompt: str
    needs: list[str]
    waiting: list[str]
    tapped: list[str]
    stand_ins: bool


@dataclass
class Pending:
    """An action waiting for card taps: every player in `needs` must tap."""

    action: dict[str, Any]
    needs: list[str]
    prompt: str
    tapped: set[str] = field(default_factory=set)


class PayingFlow(Flow):
    def __init__(self, flows: Flows) -> None:
        super().__init__(flows)
        self.pending: Pending | None = None

    def applied(self, action: dict[str, Any], turned: bool) -> None:
        game = self.game
        if action["do"] == "undo" or (game is not None and game.ended):
            self.pending = None  # what it waited for may be gone; a game over waits for nothing

    def opened(self, fresh: bool) -> None:
        self.pending = None

    def closed(self) -> None:
        self.pending = None

    def request(self, action: dict[str, Any], needs: list[str] | None = None) -> None:
        """An action from a button: done at once, or kept until the right cards are tapped."""
        s = self.s
        game, live = s.game, s.live
        if game is None or live is None:
            return
        if action["do"] in ("draw", "deal"):
            action = complete_action(game, action, live.chance)  # the app's own shuffled decks
        if action["do"] == "casino" and action.get("numbers"):  # the app's own die and jackpot draw
            action = complete_bet(game, action, lambda: self.f.roll(1)[0], SYSTEM_RANDOM.random)
        problem = game.can(s.stamped(action))
        if problem is not None:
            def still() -> bool:  # the refusal goes once the game would take the action, or refuses it otherwise
                return s.live is live and live.game.can(s.stamped(action)) == problem
            try:
                game.check(s.stamped(action))
            except ActionError as exc:
                s.error(exc, holds=still)
            s.changed()
            return
        if needs is None:
            needs = self.who_pays(action)
        if needs and s.settings.taps:
            self.pending = Pending(action, needs, self._prompt(action, needs))
        else:
            self.pending = None
            s.apply(action)
        s.changed()

    def agreed(self, player: str) -> None:
        """`player`'s card was tapped for the pending action: done once everyone it needs has tapped."""
        pending = self.pending
        assert pending is not None
        pending.tapped.add(player)
        if set(pending.needs) <= pending.tapped:
            self.pending = None
            self.s.apply(pending.action)

    def cancel(self) -> None:
        self.pending = None
        self.changed()

    def stand_in(self, player: str) -> None:
        """The on-screen stand-in for a player's card (a forgotten or lost card), when the banker allows it."""
        if not self.s.settings.stand_ins:
            return
        uid = next((u for u, n in self.s.meta.get("cards", {}).items() if n == player), None)
        if uid is None:
            self.cancel()
            return
        self.f.taps.card_tapped(uid)

    def who_pays(self, action: dict[str, Any]) -> list[str]:
        """Whose cards the action waits for: the spender's (`SPENDING`), both sides of a trade or a sale."""
        game = self.game
        assert game is not None
        verb = action["do"]
        if verb == "trade":
            return [action["from"], action["to"]]
        if verb == "casino":  # a bet needs the player's card; walking away does not
            return [game.current.name] if action.get("numbers") else []
        if verb == "sell_to_player":  # a sale both sides agree to
            owner = game.owner[game.space_index(action["space"])]
            return [game.players[owner].name, action["to"]] if owner >= 0 else [action["to"]]
        if verb not in SPENDING:
            return []
        if "player" in action:
            return [action["player"]]
        if "space" in action:
            owner = game.owner[game.space_index(action["space"])]
            if owner >= 0:
                return [game.players[owner].name]
        return [game.current.name]

    def retranslate(self) -> None:
        """The waiting prompt in the table's new language."""
        if self.pending is not None and self.game is not None:
            self.pending.prompt = self._prompt(self.pending.action, self.pending.needs)

    def _prompt(self, action: dict[str, Any], needs: list[str]) -> str:
        return self.s.tr("ui.tap.prompt", players=" + ".join(needs), what=self.describe(action))

    def describe(self, action: dict[str, Any]) -> str:
        """The action in words ("buy Baltic Avenue for 60")."""
        game = self.game
        assert game is not None
        verb = action["do"]
        params: dict[str, Any] = dict(action)
        if "space" in action:
            i = game.space_index(action["space"])
            params["space"] = game.space_name(i)
        if verb == "buy" and game.decision is not None and game.decision.kind == "buy":
            params["space"] = game.space_name(game.decision.space)
            params["price"] = game.prices[game.decision.space]
        if verb == "pay_fine":
            params["fine"] = game.options.jail_fine
        return self.s.tr(f"ui.do.{verb}", **params)

    def view(self) -> PendingView | None:
        """An action waiting for card taps: the prompt, and who still has to tap."""
        p = self.pending
        if p is None:
            return None
        return {"prompt": p.prompt, "needs": list(p.needs), "waiting": [n for n in p.needs if n not in p.tapped],
                "tapped": sorted(p.tapped), "stand_ins": self.s.settings.stand_ins}


__all__ = ["Pending", "PayingFlow", "PendingView", "SPENDING"]
