"""Where a card tap goes: to the flow waiting for it, or, when none is, the card's balance.

The app hands every tap here (on the main thread). In order:
- the hardware check's screen shows it, and nothing else happens (ui/flows/settings.py);
- a new game being set up registers it as a player's card (ui/flows/setup.py);
- the banker's menu replacing a lost card makes it that player's (ui/flows/banker.py);
- in a game: a card nobody has is refused here ("unknown card"); otherwise it is a vote to pause or resume
  (ui/flows/clock.py), a payment's agreement (ui/flows/paying.py: a purchase, a trade's two sides, a bid made
  with the bid buttons), an auction bid (ui/flows/auction.py), or, when nothing waits for it, that player's
  balance and deeds, like a cash machine, with their phone code (ui/flows/phones.py).
The "wrong card" and "unknown card" answers are made here and nowhere else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ui.i18n import msg

if TYPE_CHECKING:
    from ui.flows import Flows


class TapRouter:
    def __init__(self, flows: Flows) -> None:
        self.f = flows  # ui/flows/__init__.py's Flows (which makes this)

    def card_owner(self, uid: str) -> str | None:
        """Whose card this is: a player of the game, or of the new game being set up ("#2" until named)."""
        draft = self.f.setup.draft
        if draft is not None:
            return next((p.name or f"#{k + 1}" for k, p in enumerate(draft.players) if p.card == uid), None)
        owner = self.f.session.meta.get("cards", {}).get(uid)
        return str(owner) if owner is not None else None

    def card_tapped(self, uid: str) -> None:
        """A card was put on the reader (already on the main thread)."""
        f, s = self.f, self.f.session
        if f.settings.check is not None:  # the hardware check: shown there, nothing paid or registered
            f.settings.card_seen(uid)
        elif f.setup.draft is not None:
            f.setup.register_tap(uid, self.card_owner(uid))
        elif f.banker.replacing is not None:
            f.banker.replace_tap(uid, self.card_owner(uid))
        elif s.live is not None:
            self._game_tap(uid)
        s.changed()

    def _game_tap(self, uid: str) -> None:
        f, s = self.f, self.f.session
        owner = self.card_owner(uid)
        if owner is None:
            s.notify(msg("ui.card.unknown"), "error", "error")
            return
        if f.clock.vote_kind:
            f.clock.vote(owner)  # a tap during a vote to pause or resume is that player's yes
            return
        pending = f.paying.pending
        if pending is not None:
            if owner not in pending.needs:
                who = " / ".join(n for n in pending.needs if n not in pending.tapped)
                s.notify(msg("ui.card.not_yours", owner=owner, player=who), "error", "error")
                return
            f.paying.agreed(owner)
            return
        if owner in f.auction.bidders():
            f.auction.bid(owner)
            return
        f.phones.show_player_qr(owner)  # nothing waits for this card: the player's balance, deeds and phone code
        game = s.game
        assert game is not None
        p = game.players[game.index_of[owner]]
        deeds = ", ".join(game.space_name(i) for i in game.iter_properties(p.index)) or "—"
        s.notify(msg("ui.balance", player=owner, cash=p.cash, deeds=deeds), "balance", None)


__all__ = ["TapRouter"]
