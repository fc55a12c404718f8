"""The turn: the dice (the app's, the button's or the real dice entered), and what the turn owes: buy or
decline, the taxes, drawing a card (from the app's decks, or the physical card picked), brands' casino, bus
and jump; then the turn screen's view data.

What may be done now is the engine's answer (`game.owed()`, `game.can`); the buttons are made from it.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, TypedDict

from ui import pages, view
from ui.flows.base import Flow
from ui.flows.deeds import Debt
from ui.i18n import Msg, card_msg, msg
from ui.view import Deed, PlayerRow, Pot

if TYPE_CHECKING:
    from ui.flows import Flows

# The turn screen's prompt for the first of its buttons that asks something (bus buttons: ui.prompt.bus).
PROMPTS = {"buy": "ui.prompt.buy", "draw": "ui.prompt.draw", "tax_flat": "ui.prompt.tax", "casino": "ui.prompt.casino",
           "jump": "ui.prompt.jump", "pay_fine": "ui.prompt.jail", "use_card": "ui.prompt.jail",
           "roll": "ui.prompt.roll", "build_here": "ui.prompt.build_here", "end_turn": "ui.prompt.end_turn"}
# The pages of a choice the turn owes, each left once that choice is made: page -> the engine's decision kind.
CHOICE_PAGES = {pages.CARDS_PAGE: "draw", pages.CASINO_PAGE: "casino", pages.JUMP_PAGE: "jump"}


class Pressed(TypedDict):
    """What a touch of one of the turn's buttons hands `TurnFlow.press`: the button's id, and the action it
    requests (or {"page": ...}: a page it opens)."""

    id: str
    action: dict[str, Any]


class TurnButton(Pressed):
    """One of the turn screen's action buttons (`TurnFlow.buttons`): what a touch hands on, its words, and its
    kind (primary | secondary)."""

    text: str
    kind: str


class Die(TypedDict):
    """A die of the last roll: its value, whether it is brands' speed die, and the speed die's face."""

    value: int
    speed: bool
    face: str


class PlayerCode(TypedDict):
    """A player's own phone code, shown after their card tap: whose, and the link."""

    player: str
    link: str


class NavBar(TypedDict):
    """The turn screen's bottom bar (`TurnFlow.nav_bar`): (page, words key) for each page the registry puts
    there, the bank's buildings in words, whether a pause may be asked for, and the hardware's state."""

    links: tuple[tuple[str, str], ...]
    pool: str
    can_pause: bool
    status: str


class TurnView(TypedDict):
    """The turn screen (`TurnFlow.view`)."""

    players: list[PlayerRow]
    current: PlayerRow
    debts: list[Debt]
    clocked: bool
    dice: list[Die]
    move_hint: str | None
    end_time: float | None  # a timed game's end (wall-clock time), else None
    player_qr: PlayerCode | None
    deed: Deed  # the space the current player stands on
    nav: NavBar
    pot: Pot | None  # the Free Parking jackpot, None with the house rule off


class CasinoView(TypedDict):
    """brands' casino (`TurnFlow.casino`): the player, the bet, the jackpot and its odds, the numbers picked
    and what a hit pays (None until a number is picked)."""

    player: str
    bet: int
    jackpot: int
    odds: int
    pick: list[int]
    win: int | None


class CardChoice(TypedDict):
    """A card the player may have drawn (physical decks): its id and its words."""

    id: str
    text: str


class JumpSpace(TypedDict):
    """A space to jump to (brands' triple on the speed die)."""

    index: int
    name: str


class TurnFlow(Flow):
    def __init__(self, flows: Flows) -> None:
        super().__init__(flows)
        self.casino_pick: list[int] = []  # the numbers picked at brands' casino
        self.entered_dice: list[int] = []  # real dice being entered, 0 = not chosen yet

    def applied(self, action: dict[str, Any], turned: bool) -> None:
        if turned:
            self.casino_pick = []

    def leave(self, page: str) -> str | None:
        kind = CHOICE_PAGES.get(page)
        game = self.game
        if kind is not None and (game is None or game.decision is None or game.decision.kind != kind):
            return pages.TABLE_PAGE
        return None

    # ------------------------------------------------------------------ the dice

    def roll(self, dice: tuple[int, ...] | None = None) -> None:
        game = self.game
        if game is None:
            return
        if dice is None:
            dice = self.f.roll(game.dice_count())
        self.f.paying.request({"do": "roll", "dice": list(dice)})

    def dice_pressed(self, dice: tuple[int, ...]) -> None:
        """The GPIO dice button: roll for whoever must roll now (during the hardware check: only shown there)."""
        if self.f.settings.check is not None:
            self.f.settings.dice_seen(tuple(dice))
            return
        game = self.game
        if game is None or game.ended:
            return
        verbs = {v for o in game.owed() for v in o["verbs"]}
        d = game.decision
        if d is not None and d.kind == "casino" and self.casino_pick:  # the button rolls the casino's die
            self.f.paying.request({"do": "casino", "numbers": list(self.casino_pick), "die": dice[0]})
        elif "roll" in verbs:
            need = game.dice_count()  # a third, speed die when the ruleset adds one
            if len(dice) < need:
                dice = tuple(dice) + self.f.roll(need - len(dice))[:need - len(dice)]
            self.roll(tuple(dice[:need]))
        else:
            self.s.notify(msg("ui.no_roll_now"), "error", "error")
            self.changed()

    def enter_die(self, k: int, value: int) -> None:
        while len(self.entered_dice) <= k:
            self.entered_dice.append(0)
        self.entered_dice[k] = value
        self.changed()

    def dice_missing(self) -> bool:
        """Whether a die has no value entered yet ("Move by these dice" is greyed, the screen says why)."""
        game = self.game
        return game is None or len(self.entered_dice) != game.dice_count() or 0 in self.entered_dice

    def dice_entered(self) -> None:
        """Move by the real dice entered, once every die has a value."""
        if self.dice_missing():
            return
        self.f.nav.page = pages.TABLE_PAGE
        self.roll(tuple(self.entered_dice))

    # ------------------------------------------------------------------ the turn's buttons and cards

    def press(self, button: Pressed) -> None:
        """One of the turn screen's buttons (`buttons`)."""
        if button["id"] == "roll":
            self.roll()
        elif button["id"] == "enter_dice":
            self.entered_dice = []
            self.f.nav.go(pages.DICE_PAGE)
        elif button["id"] == "draw" and self.s.settings.physical_decks:
            self.f.nav.go(pages.CARDS_PAGE)
        elif "page" in button["action"]:
            self.f.nav.go(button["action"]["page"])
        else:
            self.f.paying.request(dict(button["action"]))

    def draw(self, card: str | None = None) -> None:
        action: dict[str, Any] = {"do": "draw"}
        if card is not None:
            action["card"] = card
        self.f.paying.request(action)

    def pick_card(self, card_id: str) -> None:
        """Physical decks: the card the player drew."""
        self.f.nav.page = pages.TABLE_PAGE
        self.draw(card_id)

    def buy_by_deed(self) -> None:
        """The deed on offer put on the reader (ui/taps.py): the purchase asked for as the Buy button asks, so
        that the buyer's card pays; with on-screen buttons the Buy button is the agreement, and the deed's tap
        only says so."""
        game = self.game
        assert game is not None and game.decision is not None
        self.f.nav.go(pages.TABLE_PAGE)
        if self.s.settings.taps:
            self.f.paying.request({"do": "buy"})
            return
        i = game.decision.space
        self.s.notify(msg("ui.tag.buy_touch", player=game.current.name, space=game.space_name(i),
                          price=game.prices[i]), "info", None)

    def card_tapped(self, deck: str, card: str) -> None:
        """A tagged card of a deck put on the reader: with physical decks on and a card due from its deck, the
        card drawn, exactly as `pick_card`; else refused in words."""
        game, s = self.game, self.s
        assert game is not None
        found = game.ruleset.card_by_id.get(card)
        if not s.settings.physical_decks:
            s.notify(msg("ui.tag.decks_off"), "error", "error")
            return
        if found is None or found.deck != deck:  # (an edition's decks changed since the card was tagged)
            s.notify(msg("ui.tag.not_here"), "error", "error")
            return
        text = card_msg(game.ruleset, found, game.options)
        holder = next((p.name for p in game.players if card in p.jail_cards), None)
        d = game.decision
        if holder is not None:
            s.notify(msg("ui.tag.card_held", card=text, player=holder), "error", "error")
        elif d is None or d.kind != "draw":
            s.notify(msg("ui.tag.no_draw"), "error", "error")
        elif d.deck != deck:
            s.notify(msg("ui.tag.wrong_deck", deck=self.deck_name(deck), due=self.deck_name(d.deck)), "error", "error")
        else:
            self.pick_card(card)

    def deck_name(self, deck: str) -> Msg | str:
        """A deck's name in the family's language (an edition's own deck: as its ruleset names it)."""
        game = self.game
        assert game is not None
        return msg(f"deck.{deck}") if self.s.tr.has(f"deck.{deck}") else str(game.ruleset.decks[deck]["name"])

    def casino_toggle(self, number: int) -> None:
        pick = self.casino_pick
        if number in pick:
            pick.remove(number)
        elif len(pick) < 3:
            pick.append(number)
            pick.sort()
        self.changed()

    # ------------------------------------------------------------------ what the screens show

    def buttons(self) -> list[TurnButton]:
        """The turn screen's action buttons, from what the engine says is owed now."""
        game, tr = self.game, self.s.tr
        if game is None or game.ended or game.clock_state.paused_at >= 0:  # nothing to press while the game is paused
            return []
        cur = game.current
        out: list[TurnButton] = []

        def add(key: str, action: dict[str, Any], text: str, kind: str = "primary") -> None:
            out.append({"id": key, "action": action, "text": text, "kind": kind})
        verbs = {o["player"]: o["verbs"] for o in game.owed()}.get(cur.name, [])
        d = game.decision
        if d is not None and d.kind == "buy" and game.auction is None:
            i = d.space
            add("buy", {"do": "buy"}, tr("ui.btn.buy", space=game.space_name(i), price=game.prices[i]))
            add("decline", {"do": "decline"}, tr("ui.btn.decline"), "secondary")
        if "draw" in verbs and d is not None:
            deck = game.ruleset.decks[d.deck]["name"]
            name = tr(f"deck.{d.deck}") if tr.has(f"deck.{d.deck}") else deck
            add("draw", {"do": "draw"}, tr("ui.btn.draw", deck=name))
        if "tax" in verbs:
            add("tax_flat", {"do": "tax", "choice": "flat"},
                tr("ui.btn.tax_flat", amount=game.income_tax(cur.index, "flat")))
            add("tax_percent", {"do": "tax", "choice": "percent"},
                tr("ui.btn.tax_percent", percent=game.options.income_tax_percent,
                   amount=game.income_tax(cur.index, "percent")))
        if "casino" in verbs:
            add("casino", {"page": pages.CASINO_PAGE}, tr("ui.btn.casino", bet=game.options.casino_bet))
            add("casino_no", {"do": "casino"}, tr("ui.btn.casino_no"), "secondary")
        if "bus" in verbs and d is not None:
            for steps in sorted({d.dice[0], d.dice[1], sum(d.dice)}):
                add(f"bus {steps}", {"do": "bus", "steps": steps}, tr("ui.btn.bus", steps=steps))
        if "jump" in verbs:
            add("jump", {"page": pages.JUMP_PAGE}, tr("ui.btn.jump"))
        if "roll" in verbs:
            if cur.in_jail and game.roll_owed and d is None:
                if "pay_fine" in verbs:
                    add("pay_fine", {"do": "pay_fine"}, tr("ui.btn.pay_fine", fine=game.options.jail_fine),
                        "secondary")
                if "use_card" in verbs:
                    add("use_card", {"do": "use_card"}, tr("ui.btn.use_card"), "secondary")
            add("roll", {"do": "roll"}, tr("ui.btn.roll"))
            add("enter_dice", {"do": "roll"}, tr("ui.btn.enter_dice"), "secondary")
        if "end_turn" in verbs:
            pos = cur.position
            here = game.variant.builds_on_visit and game.kinds[pos] == "lot"
            if here and game.can({"do": "build", "space": pos}) is None:
                key = "ui.btn.build_here_hotel" if game.level[pos] == game.hotel_houses else "ui.btn.build_here"
                add("build_here", {"do": "build", "space": pos},
                    tr(key, space=game.space_name(pos), price=game.ruleset.spaces[pos].building_cost), "secondary")
            add("end_turn", {"do": "end_turn"},
                tr("ui.btn.end_move_double" if game.doubles_state.extra_roll else "ui.btn.end_turn"))
        return out

    def prompt(self, shown: list[TurnButton] | None = None) -> str | None:
        """What happens now, in one sentence for the turn screen's large prompt: what the first of the turn's
        buttons (`shown`, `buttons`) asks of whose turn it is. None while card taps are awaited, a debt is
        open or nothing is asked (the banner, the debt panel or a pause say it). Where to move the token is
        said on the board (`Session.move_hint`)."""
        game, tr = self.game, self.s.tr
        if game is None or self.f.paying.pending is not None or any(p.debts for p in game.players):
            return None
        for b in self.buttons() if shown is None else shown:
            key = "ui.prompt.bus" if b["id"].startswith("bus ") else PROMPTS.get(b["id"])
            if key is None:
                continue
            if b["id"] == "buy" and game.decision is not None:
                i = game.decision.space
                return tr(key, player=game.current.name, space=game.space_name(i), price=game.prices[i])
            if b["id"] == "build_here":
                i = game.current.position
                return tr(key, player=game.current.name, space=game.space_name(i),
                          price=game.ruleset.spaces[i].building_cost)
            return tr(key, player=game.current.name)
        return None

    def view(self) -> TurnView:
        """The turn screen: the players, whose turn, the dice, the clock, debts, the space's deed, the Free Parking
        jackpot (with its house rule) and the bar."""
        game, s = self.game, self.s
        assert game is not None
        everyone = view.players(s)
        real = game.ruleset.dice
        speed = len(s.last_dice) == real + 1  # the speed die rolled beside the white dice
        dice: list[Die] = [{"value": v, "speed": speed and k == real,
                            "face": speed_face(v) if speed and k == real else ""} for k, v in enumerate(s.last_dice)]
        qr_player, until = self.f.phones.player_qr
        link = self.f.phones.player_link(qr_player) if qr_player and time.monotonic() < until else None
        return {
            "players": everyone, "current": next(p for p in everyone if p["current"]), "debts": self.f.deeds.debts(),
            "clocked": game.variant.clocked, "dice": dice, "move_hint": s.move_hint,
            "end_time": self.f.clock.end_time(),
            "player_qr": {"player": qr_player, "link": link} if link else None,
            "deed": view.space(s, game.current.position), "nav": self.nav_bar(),
            "pot": view.pot(s),  # the Free Parking jackpot, None with the house rule off
        }

    def nav_bar(self) -> NavBar:
        """The turn screen's bottom bar: a button for each page the registry puts there, (page, words key) in
        the ruleset's terms, the bank's buildings, pause, the hardware."""
        game = self.game
        links = tuple((p.name, self.f.of(p.flow).bar_key(p)) for p in pages.bar_pages())
        return {"links": links, "pool": self.f.deeds.pool_text() if game is not None else "",
                "can_pause": (game is not None and game.variant.clocked and game.clock_state.paused_at < 0
                              and not self.f.clock.vote_kind),
                "status": self.f.settings.status_text()}

    def casino(self) -> CasinoView:
        """brands' casino: the bet, the jackpot and its odds, the numbers picked and what a hit pays."""
        game = self.game
        assert game is not None
        pick = list(self.casino_pick)
        return {"player": game.current.name, "bet": game.options.casino_bet, "jackpot": game.casino_state.jackpot,
                "odds": game.options.casino_jackpot_odds, "pick": pick,
                "win": game.variant.casino_win(len(pick)) if pick else None}

    def card_choices(self) -> list[CardChoice]:
        """Physical decks: the cards the player may have drawn from the deck they draw from now."""
        game = self.game
        if game is None or game.decision is None or game.decision.kind != "draw":
            return []
        deck = game.decision.deck
        by_id = game.ruleset.card_by_id
        return [{"id": card_id, "text": self.s.tr.render(card_msg(game.ruleset, by_id[card_id], game.options))}
                for card_id in sorted(set(game.decks[deck]))]

    def dice_count(self) -> int:
        """How many dice this roll takes (brands' speed die is a third)."""
        game = self.game
        return game.dice_count() if game is not None else 0

    def jump_spaces(self) -> list[JumpSpace]:
        """brands' triple on the speed die: every space of the board, to jump to."""
        game = self.game
        assert game is not None
        return [{"index": s.index, "name": s.name} for s in game.ruleset.spaces]

    def player(self) -> str:
        """Whose turn it is."""
        game = self.game
        assert game is not None
        return game.current.name


def speed_face(value: int) -> str:
    """The speed die's face: 1-3 steps, Mr. Monopoly on 4 and 5, the bus on 6."""
    return str(value) if value <= 3 else ("M" if value <= 5 else "BUS")


__all__ = ["CardChoice", "CasinoView", "Die", "JumpSpace", "NavBar", "PROMPTS", "PlayerCode", "Pressed", "TurnButton",
           "TurnFlow", "TurnView", "speed_face"]
