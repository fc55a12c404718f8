"""Where a card tap goes: to the flow waiting for it, or, when none is, the card's balance; and what a sticker is.

The app hands every tap here (on the main thread). In order:
- the hardware check's screen shows it, with what the sticker is, and nothing else happens
  (ui/flows/settings.py);
- the tagging page puts it on the deed or deck card shown (ui/flows/tagging.py);
- a new game being set up registers it as a player's card (ui/flows/setup.py), unless it is a tagged deed's or
  card's;
- the banker's menu replacing a lost card makes it that player's (ui/flows/banker.py), the same;
- in a game: a tagged deed or deck card of the game's set (ui/tags.py) goes where the table means it to
  (`_tagged_tap`: a purchase, a trade's side, the deeds screen, an own auction's lot, the card drawn, else the
  big deed); a sticker of another set, or one tapped while a payment or a vote waits, is refused in words; a
  card nobody has is refused here ("unknown card"); otherwise it is a vote to pause or resume
  (ui/flows/clock.py), a payment's agreement (ui/flows/paying.py: a purchase, a trade's two sides, a bid made
  with the bid buttons), an auction bid (ui/flows/auction.py), or, when nothing waits for it, that player's
  balance and deeds, like a cash machine, with their phone code (ui/flows/phones.py).
The "wrong card" and "unknown card" answers are made here and nowhere else, and so is what a sticker is
(`describe`: a player's card, a deed, a deck's card, one of another set, or nothing known).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from banker.journal import JournalError
from ui import pages
from ui.i18n import Msg, msg
from ui.tags import Tagged, set_key

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

    def player_of(self, uid: str) -> str | None:
        """Whose card this is as far as the table knows: a player of the game or of the new game being set up
        (`card_owner`); between games also of the new game's draft put aside, and of the unfinished game the
        start screen would resume."""
        owner = self.card_owner(uid)
        if owner is not None or self.f.mode != pages.HOME:
            return owner
        kept = self.f.setup.cards_kept().get(uid)
        if kept is not None:
            return kept
        journal = self.f.session.journal
        try:
            game_id = journal.latest_active()
            cards = journal.meta(game_id).get("cards", {}) if game_id is not None else {}
        except JournalError:  # a damaged record: its cards are not known
            return None
        owner = cards.get(uid) if isinstance(cards, dict) else None
        return str(owner) if owner is not None else None

    def tagged(self, uid: str) -> Msg | None:
        """The tagged deed or deck card this sticker is, in words, or None."""
        item = self.f.session.tags.lookup(uid)
        return self.f.tagging.item_msg(item) if item is not None else None

    def describe(self, uid: str) -> Msg | None:
        """What a sticker is, in words: a player's card ("Ann's card"), a deed ("Boardwalk"), a deck's card
        ("Chance: Advance to GO ..."), one of a set the table does not play with now ("Boardwalk (Classic)"), or
        None when nothing is known of it."""
        owner = self.player_of(uid)
        return msg("ui.check.card_of", player=owner) if owner is not None else self.tagged(uid)

    def card_tapped(self, uid: str) -> None:
        """A card was put on the reader (already on the main thread)."""
        f, s = self.f, self.f.session
        if f.settings.check is not None:  # the hardware check: shown there, nothing paid or registered
            f.settings.card_seen(uid)
        elif f.tagging.showing():
            f.tagging.tap(uid)
        elif f.setup.draft is not None:
            f.setup.register_tap(uid, self.card_owner(uid), self.tagged(uid))
        elif f.banker.replacing is not None:
            f.banker.replace_tap(uid, self.card_owner(uid), self.tagged(uid))
        elif s.live is not None:
            self._game_tap(uid)
        s.changed()

    def _game_tap(self, uid: str) -> None:
        f, s = self.f, self.f.session
        owner = self.card_owner(uid)
        if owner is None:
            tagged = s.tags.lookup(uid)
            if tagged is not None:
                self._tagged_tap(tagged)
            else:
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

    def _tagged_tap(self, item: Tagged) -> None:
        """A tagged deed or deck card: refused when it is of another set or the table waits for a player's card;
        a deck's card is the card drawn (ui/flows/turn.py); a deed is bought when it is the one on offer, else it
        joins the trade being put together, is chosen on the deeds screen (or from the debt panel, its owner in
        debt) or as an own auction's lot, or else is shown big (ui/flows/deedcard.py)."""
        f, s = self.f, self.f.session
        game, live = s.game, s.live
        assert game is not None and live is not None
        if item.set != set_key(live.header.rules):
            s.notify(msg("ui.tag.other_set", item=f.tagging.item_msg(item)), "error", "error")
            return
        if f.paying.pending is not None or f.clock.vote_kind:  # one thing at a time: the agreement first
            s.notify(msg("ui.tag.agree_first"), "error", "error")
            return
        if item.kind == "card":
            f.turn.card_tapped(item.deck, item.card)
            return
        i = item.space
        if not 0 <= i < len(game.kinds) or not game.ruleset.spaces[i].is_property:  # (an edition's board changed)
            s.notify(msg("ui.tag.not_here"), "error", "error")
            return
        page, d, owner = f.nav.screen_name(), game.decision, game.owner[i]
        if d is not None and d.kind == "buy" and d.space == i and game.auction is None:
            f.turn.buy_by_deed()
        elif page == pages.TRADE_PAGE:
            f.trade.deed_tapped(i)
        elif page == pages.OWNAUCTION_PAGE:
            f.auction.lot_tapped(i)
        elif page == pages.DEEDS_PAGE or (page == pages.TABLE_PAGE and owner >= 0 and game.players[owner].debts):
            f.deeds.choose(i)
        else:
            f.deedcard.show(i)



__all__ = ["TapRouter"]
