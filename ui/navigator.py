"""The app's own state between taps: which page shows, and the choices a family makes on a page before
anything goes to the engine (a trade being put together, an own-property auction's opening bid, the real
dice being entered, the banker's menu unlocked). No Kivy here, so it is tested without a window
(tests/ui/test_navigator.py).

The screens call the navigator's mutators and the controller's methods and read the view data
(ui/view.py); the App asks `screen_name()` which screen to show at every redraw. Every mutator ends with
`controller.changed()`, which is what asks the App for a redraw.
"""

from __future__ import annotations

from typing import Any

from banker.ruleset import load_ruleset
from ui import view
from ui.controller import PLAYER_COLOURS, Controller
from ui.entry import Confirm, Entry
from ui.i18n import msg
from ui.keys import NameEditor, free_presets, name_problem

# Every page the app has, one screen each (ui/screens/__init__.py registers them under these names).
PAGES = ("home", "setup", "inprogress", "table", "auction", "deeds", "trade", "log", "banker", "replace", "over",
         "settings", "cards", "dice", "ownauction", "casino", "jump", "phones", "keyboard", "digits", "check_reader",
         "check_dice")
# The settings' hardware checks, by page: while one shows, card taps and the dice button are only shown there.
CHECKS = {"check_reader": "reader", "check_dice": "dice"}
# The new-game screen's house rules (shown where the ruleset has a choice).
OPTION_TOGGLES = ("free_parking_pot", "auction_on_decline", "double_rent_with_mortgaged", "build_only_on_visit")
TIME_LIMIT_STEP, TIME_LIMIT_LEAST, TIME_LIMIT_MOST = 15, 15, 600  # minutes, for a timed game
SETUP_CASH_STEP = 50  # the "game already going" screen's -/+ on a player's cash
# The banker's buttons that ask for a confirming second touch (Navigator.destructive).
DESTRUCTIVE = ("undo", "end", "abandon", "power_off")


def empty_side() -> dict[str, Any]:
    return {"cash": 0, "spaces": [], "jail_cards": 0}


class Navigator:
    def __init__(self, controller: Controller) -> None:
        self.c = controller
        self.page = "table"  # the page the family chose while a game runs
        self.deeds_of: str | None = None  # whose deeds the deeds screen shows (None: the current player's)
        self.trade: dict[str, Any] = {}  # the trade being put together: {"from", "to", "give", "get"}
        self.own_auction: dict[str, Any] | None = None  # {"player", "space", "seq", "reserve"} while choosing
        self.move_url: str | None = None  # a "continue on another device" link being shown
        self.unlocked = False  # the banker's PIN was given (until the family leaves the banker's pages)
        self.entered_dice: list[int] = []  # real dice being entered, 0 = not chosen yet
        self.settings_return = "home"  # the page the settings' Back returns to
        self.check_return = "settings"  # the page a hardware check's Back returns to
        self.entry: Entry | None = None  # a PIN or an amount being entered on the digit pad (page "digits")
        self.confirm = Confirm()  # the destructive button armed for its second touch
        self.name_edit: NameEditor | None = None  # the player's name being typed on the keyboard page

    # ------------------------------------------------------------------ which screen

    def screen_name(self) -> str:
        """The screen to show now: the page the family chose, unless the game says otherwise (an auction
        comes up, a choice was made, a game started or ended). A hardware check not on the screen is over:
        taps and presses go to the game again."""
        name = self._screen_name()
        if name not in CHECKS and self.c.check is not None:
            self.c.start_check(None)
        return name

    def _screen_name(self) -> str:
        c = self.c
        mode = c.mode
        if self.page == "digits" and self._entry_gone(mode):
            self.page, self.entry = (self.entry.back if self.entry is not None else "table"), None
        if mode in ("home", "setup"):
            self.unlocked = False  # no game, or a new one: its PIN is asked afresh
        if mode == "home":
            return self.page if self.page in ("settings", *CHECKS) else "home"
        if mode == "setup":
            if self.page == "keyboard" and self._editing_a_player():
                return "keyboard"
            return self.page if self.page in ("inprogress", "settings", "digits", *CHECKS) else "setup"
        if mode == "over":
            return "digits" if self.page == "digits" else "over"
        game = c.game
        assert game is not None
        if game.auction is not None and self.page not in ("deeds", "banker", "settings", "digits", *CHECKS):
            if self.page == "ownauction":
                self.page = "table"  # the auction has started: after it, back to the table
            return "auction"
        plan = self.own_auction
        if self.page == "ownauction" and (plan is None or plan["seq"] != game.seq):
            self.page = "table"  # the auction came and went, or something else happened meanwhile
            self.own_auction = None
        if self.page == "cards" and (game.decision is None or game.decision.kind != "draw"):
            self.page = "table"
        for page, kind in (("casino", "casino"), ("jump", "jump")):  # brands' choices, once made
            if self.page == page and (game.decision is None or game.decision.kind != kind):
                self.page = "table"
        if self.page in ("home", "setup", "inprogress", "over", "keyboard"):
            self.page = "table"  # pages of another mode: the game has started (or was resumed)
        return self.page if self.page in PAGES else "table"

    def go(self, page: str) -> None:
        if page == "banker" and self.is_locked():
            self.ask_pin("unlock")  # the PIN pad first; its OK opens the menu
            return
        self.confirm.disarm()  # an armed button does not stay armed on another page
        if page == "settings" and self.page not in CHECKS:  # (back from a check: the settings' Back stays)
            self.settings_return = self.page
        if page in CHECKS and self.page not in CHECKS:
            self.check_return = self.page
        if page != "banker":
            self.unlocked = self.unlocked and page in ("settings", "replace", "digits", *CHECKS)
        if page != "replace":
            self.c.replacing = None  # leaving the screen drops a half-done card replacement
        self.c.start_check(CHECKS.get(page))  # a check starts afresh on its screen and ends when it is left
        self.page = page
        self.c.changed()

    def back_from_settings(self) -> None:
        self.go(self.settings_return if self.c.mode == "table" else "table")

    def back_from_check(self) -> None:
        """A hardware check's Back: where it was opened from (the settings, or the start screen's note)."""
        self.go(self.check_return)

    def show_deeds(self, player: str) -> None:
        self.deeds_of = player
        self.go("deeds")

    def deeds_player(self) -> str:
        """Whose deeds the deeds screen shows: the one chosen, or the player whose turn it is."""
        game = self.c.game
        assert game is not None
        return self.deeds_of or game.current.name

    def show_move(self) -> None:
        self.move_url = self.c.move_link()
        self.c.changed()

    def hide_move(self) -> None:
        self.move_url = None
        self.c.changed()

    # ------------------------------------------------------------------ the turn's buttons and cards

    def press(self, button: dict[str, Any]) -> None:
        """One of the turn screen's buttons (view.buttons)."""
        c = self.c
        if button["id"] == "roll":
            c.roll()
        elif button["id"] == "enter_dice":
            self.entered_dice = []
            self.go("dice")
        elif button["id"] == "draw" and c.settings.physical_decks:
            self.go("cards")
        elif "page" in button["action"]:
            self.go(button["action"]["page"])
        else:
            c.request(dict(button["action"]))

    def tap_as(self, player: str) -> None:
        """The on-screen stand-in for a player's card (a forgotten or lost card), when the banker allows it."""
        if not self.c.settings.stand_ins:
            return
        uid = next((u for u, n in self.c.meta.get("cards", {}).items() if n == player), None)
        if uid is None:
            self.c.cancel_pending()
            return
        self.c.card_tapped(uid)

    def pick_card(self, card_id: str) -> None:
        """Physical decks: the card the player drew."""
        self.page = "table"
        self.c.draw(card_id)

    def enter_die(self, k: int, value: int) -> None:
        while len(self.entered_dice) <= k:
            self.entered_dice.append(0)
        self.entered_dice[k] = value
        self.c.changed()

    def dice_entered(self) -> None:
        """Move by the real dice entered, once every die has a value."""
        game = self.c.game
        if game is None or len(self.entered_dice) != game.dice_count() or 0 in self.entered_dice:
            return
        self.page = "table"
        self.c.roll(tuple(self.entered_dice))

    def deed_action(self, player: str, verb: str, space: int) -> None:
        """A deed row's button; an own-property auction first asks the seller for the opening bid."""
        game = self.c.game
        if verb == "auction_own" and game is not None and game.can({"do": verb, "space": space}) is None:
            self.start_own_auction(player, space)
            return
        self.c.request({"do": verb, "space": space})

    def auction_bid(self, player: str) -> None:
        """A bid button: at once with on-screen buttons, else waiting for the bidder's card like any spending."""
        c = self.c
        if not c.settings.taps:
            c.bid(player)
        else:
            c.request({"do": "bid", "player": player, "amount": c.bid_amount(player)})

    def bid_step(self, delta: int) -> None:
        """The auction's Step -/+: how much a tap raises the high bid (at least 1)."""
        self.c.set_setting("bid_step", max(1, self.c.settings.bid_step + delta))

    # ------------------------------------------------------------------ the banker

    def is_locked(self) -> bool:
        """The banker's menu asks for the PIN (a game without a PIN is never locked)."""
        return self.c.has_pin() and not self.unlocked

    def unlock(self, pin: str) -> bool:
        """The banker's PIN given (on the PIN pad, whose OK calls this): True if it opens the menu. A wrong
        one is counted and said; while the wait after too many lasts, every PIN is refused unchecked."""
        waiting = self.c.pin_wait() is not None
        if not waiting and self.c.pin_ok(pin):
            self.unlocked = True
            if self.entry is not None and self.entry.purpose == "unlock":
                self.entry = None
                self.go("banker")
                return True
        elif not waiting:
            self.c.notify(msg("ui.banker.wrong_pin"), "error", "error")
        self.c.changed()
        return self.unlocked

    def destructive(self, key: str) -> None:
        """Undo, End the game, Abandon or Shut down (`DESTRUCTIVE`) on the banker's menu: the first touch
        arms the button, a second within CONFIRM_SECONDS does it (any other touch disarms it)."""
        if key not in DESTRUCTIVE:
            raise ValueError(f"not a destructive button: {key!r}")
        if self.is_locked():
            return
        if not self.confirm.touch(key):
            self.c.changed()  # armed: the button now says "Touch again to ..."
            return
        if key == "undo":
            self.c.undo(1)
        elif key == "end":
            self.end_game()
        elif key == "abandon":
            self.abandon()
        else:
            self.c.power_off()

    def armed(self) -> str | None:
        """The destructive button waiting for its second touch, or None."""
        return self.confirm.armed()

    def other_touch(self) -> None:
        """A touch anywhere but on the armed button disarms it."""
        if self.confirm.disarm():
            self.c.changed()

    def confirm_lapse(self) -> None:
        """Called when an armed button's time may be up: redraw it disarmed."""
        if self.confirm.key is not None and self.confirm.armed() is None:
            self.c.changed()

    def end_game(self) -> None:
        """End the game now (a ranking); the game-over screen's Undo asks for the PIN again."""
        self.unlocked = False
        self.page = "table"
        self.c.end_game()

    def abandon(self) -> None:
        self.unlocked = False
        self.page = "table"
        self.c.abandon()

    def undo_end(self) -> None:
        """Undo on the game-over screen, guarded like the banker's: behind a PIN the PIN pad first, then a
        confirming second touch; it takes back the game's last action and the table comes back, locked."""
        if self.c.mode != "over":
            return
        if self.is_locked():
            self.ask_pin("undo_pin")
            return
        if not self.confirm.touch("undo_end"):
            self.c.changed()
            return
        self.unlocked = False
        self.page = "table"
        self.c.undo(1)

    # ------------------------------------------------------------------ the digit pad (ui/entry.py)

    def ask_pin(self, purpose: str = "unlock") -> None:
        """The PIN pad: for the banker's menu ("unlock": its OK opens the menu, Cancel goes back) or for
        the game-over screen's Undo ("undo_pin": its OK arms Undo for the confirming touch)."""
        back = "table" if purpose == "undo_pin" else self.page
        self._open(Entry(purpose, back=back, mode=self.c.mode))

    def correct(self, player: str) -> None:
        """The banker's correction of `player`'s cash: an amount to add or take away on the pad, the new
        balance shown before OK."""
        if self.is_locked():
            return
        self._open(Entry("correction", back="banker", mode="table", signed=True, base=self._cash(player),
                         subject={"player": player}))

    def edit_trade_cash(self, side: str) -> None:
        """The pad for the cash one side of the trade gives ("give" or "get"), at most what they have."""
        offer = self.trade_offer()
        player = offer["from" if side == "give" else "to"]
        now = int(offer[side]["cash"])
        self._open(Entry("trade_cash", back="trade", mode="table", digits=str(now) if now else "", fresh=True,
                         most=self._cash(player), subject={"side": side, "player": player}))

    def edit_reserve(self) -> None:
        """The pad for an own-property auction's opening bid, within the bounds and steps the rules allow."""
        plan = self.own_auction_plan()
        info = view.own_auction(self.c, plan["player"], plan["space"])
        self._open(Entry("reserve", back="ownauction", mode="table", digits=str(plan["reserve"]), fresh=True,
                         least=info["low"], most=info["high"], step=info["step"],
                         subject={"player": plan["player"], "space": info["space"]}, seq=plan["seq"]))

    def edit_pin(self) -> None:
        """The pad for the new game's banker PIN (PIN_LEAST to PIN_MOST digits, or none at all)."""
        self._open(Entry("new_pin", back="setup", mode="setup"))

    def entry_press(self, key: str) -> None:
        """A key of the pad (ui.entry.KEYS, or + and - for a correction); the PIN pad refuses while the
        wait after too many wrong PINs lasts."""
        e = self.entry
        if e is None or (e.purpose in ("unlock", "undo_pin") and self.c.pin_wait() is not None):
            return
        if e.press(key):
            self.c.changed()

    def entry_ok(self) -> None:
        """The pad's OK: what the entry is for, then back where it came from (a wrong PIN stays, cleared)."""
        e = self.entry
        if e is None or not e.ready():
            return
        c = self.c
        if e.purpose in ("unlock", "undo_pin"):
            if c.pin_wait() is not None:
                return
            if not c.pin_ok(e.digits):
                e.digits = ""  # the pad says so itself: "Wrong PIN: 4 more tries before a wait"
                c.changed()
                return
            if e.purpose == "unlock":
                self.unlocked = True
                self._close_entry("banker")
                return
            self.entry, self.page, self.unlocked = None, e.back, True  # back to the game-over screen ...
            self.confirm.touch("undo_end")  # ... with Undo armed: one more touch of it takes the action back
            c.changed()
            return
        if e.purpose == "new_pin":
            if c.draft is not None:
                c.draft.pin = e.digits
        elif e.purpose == "correction":
            c.adjust(e.subject["player"], e.change(), None, c.tr("ui.banker.adjust_reason"))
        elif e.purpose == "trade_cash":
            offer = self.trade_offer()
            if offer["from" if e.subject["side"] == "give" else "to"] == e.subject["player"]:
                offer[e.subject["side"]]["cash"] = e.value
        elif e.purpose == "reserve" and self.own_auction is not None:
            self.own_auction["reserve"] = e.value
        self._close_entry(e.back)

    def entry_cancel(self) -> None:
        """The pad's Cancel: back where it came from, nothing changed."""
        self._close_entry(self.entry.back if self.entry is not None else "table")

    def entry_tick(self) -> None:
        """Every second while the PIN pad shows a wait: redraw it counting down."""
        if self.page == "digits":
            self.c.changed()

    def _open(self, entry: Entry) -> None:
        self.entry = entry
        self.go("digits")

    def _close_entry(self, page: str) -> None:
        self.entry = None
        self.go(page)

    def _cash(self, player: str) -> int:
        game = self.c.game
        assert game is not None
        return int(game.players[game.index_of[player]].cash)

    def _entry_gone(self, mode: str) -> bool:
        """Whether the pad's moment has passed: its game ended, started or went, the player being corrected
        went bankrupt, or something happened since an opening bid's pad opened. A correction's balance is
        kept up to date here."""
        e = self.entry
        if e is None or e.mode != mode:
            return True
        game = self.c.game
        if e.purpose == "correction" and game is not None:
            player = game.players[game.index_of[e.subject["player"]]]
            e.base = int(player.cash)
            return bool(player.bankrupt)
        if e.purpose == "reserve":
            plan = self.own_auction
            return plan is None or game is None or plan["seq"] != e.seq or game.seq != e.seq
        return False

    # ------------------------------------------------------------------ a trade being put together

    def start_trade(self, player: str) -> None:
        """The trade screen with `player` offering (a debtor raising money)."""
        game = self.c.game
        if game is not None and self.trade.get("from") != player:
            others = [p.name for p in game.players if not p.bankrupt and p.name != player]
            self.trade = {"from": player, "to": others[0], "give": empty_side(), "get": empty_side()}
        self.go("trade")

    def trade_offer(self) -> dict[str, Any]:
        """The trade draft, between two players still in (a fresh one if a side has gone bankrupt)."""
        game = self.c.game
        assert game is not None
        names = [p.name for p in game.players if not p.bankrupt]
        offer = self.trade
        if offer.get("from") not in names or offer.get("to") not in names:
            offer.update({"from": names[0], "to": names[1], "give": empty_side(), "get": empty_side()})
        return offer

    def trade_who(self, key: str, name: str) -> None:
        """Choose who offers ("from") or who receives ("to"); choosing the other side's player swaps them."""
        offer = self.trade_offer()
        other = "to" if key == "from" else "from"
        if offer[other] == name:
            offer[other] = offer[key]
        offer[key] = name
        offer["give"] = empty_side()
        offer["get"] = empty_side()
        self.c.changed()

    def trade_cash(self, side: str, delta: int) -> None:
        items = self.trade_offer()[side]
        items["cash"] = max(0, items["cash"] + delta)
        self.c.changed()

    def trade_space(self, side: str, space: int) -> None:
        spaces = self.trade_offer()[side]["spaces"]
        if space in spaces:
            spaces.remove(space)
        else:
            spaces.append(space)
        self.c.changed()

    def trade_cards(self, side: str, most: int) -> None:
        """Get-out-of-jail cards in the offer: one more each press, back to none after `most`."""
        items = self.trade_offer()[side]
        items["jail_cards"] = (items["jail_cards"] + 1) % (most + 1)
        self.c.changed()

    def trade_agree(self) -> None:
        """Both players tap to agree (biznes: a debtor's one firm for a rival's cash is a sale instead)."""
        offer = self.trade_offer()
        sale = view.trade_sale(self.c, offer)
        if sale is not None:
            self.c.request(sale)
            return
        action = {"do": "trade", "from": offer["from"], "to": offer["to"],
                  "give": {k: v for k, v in offer["give"].items() if v},
                  "get": {k: v for k, v in offer["get"].items() if v}}
        self.c.request(action)

    # ------------------------------------------------------------------ an own-property auction (biznes)

    def start_own_auction(self, player: str, space: int) -> None:
        """biznes: choose the opening bid of an auction of the player's own property."""
        game = self.c.game
        assert game is not None
        self.own_auction = {"player": player, "space": space, "seq": game.seq}
        self.go("ownauction")

    def own_auction_plan(self) -> dict[str, Any]:
        """The auction being planned, its opening bid kept within what the rules allow."""
        plan = self.own_auction
        assert plan is not None
        info = view.own_auction(self.c, plan["player"], plan["space"])
        plan["reserve"] = min(max(plan.get("reserve", info["low"]), info["low"]), info["high"])
        return plan

    def own_auction_go(self) -> None:
        """Start the auction at the chosen opening bid (the seller's card confirms it)."""
        plan = self.own_auction_plan()
        self.c.request({"do": "auction_own", "player": plan["player"], "space": plan["space"],
                        "reserve": plan["reserve"]})

    # ------------------------------------------------------------------ names: ready ones and the keyboard

    def new_game(self) -> None:
        """The new-game screen, every player with a ready name (a game can start with no typing)."""
        self.name_edit = None
        self.c.new_game()
        self.fill_names()

    def add_player(self) -> None:
        self.c.draft_add_player()
        self.fill_names()

    def presets(self) -> list[str]:
        """The ready names in the family's language that no player has yet."""
        d = self.c.draft
        return free_presets(self.c.tr, [p.name for p in d.players] if d is not None else [])

    def fill_names(self) -> None:
        """Every player without a name gets the first ready name nobody has."""
        d = self.c.draft
        if d is None:
            return
        for k, p in enumerate(d.players):
            free = self.presets()
            if not p.name and free:
                self.c.draft_set(k, name=free[0])
        self.c.changed()

    def _editing_a_player(self) -> bool:
        d = self.c.draft
        return d is not None and self.name_edit is not None and self.name_edit.index < len(d.players)

    def edit_name(self, k: int) -> None:
        """The keyboard page for player k's name, starting from the name as it is."""
        d = self.c.draft
        assert d is not None
        name = d.players[k].name
        self.name_edit = NameEditor(index=k, text=name, fresh=name in free_presets(self.c.tr, []))
        self.go("keyboard")

    def other_names(self) -> list[str]:
        """The names of the players other than the one being named."""
        d = self.c.draft
        e = self.name_edit
        if d is None or e is None:
            return []
        return [p.name for k, p in enumerate(d.players) if k != e.index and p.name]

    def keyboard_press(self, key: str) -> None:
        """A key of the keyboard page (its id: a character, or one of ui.keys.SPECIAL)."""
        if self.name_edit is not None:
            self.name_edit.press(key)
        self.c.changed()

    def keyboard_done(self, name: str | None = None) -> None:
        """Done (or a ready name touched): the name is the player's and the setup screen comes back.
        Nothing happens while the name is empty, "bank", or another player's."""
        e = self.name_edit
        if e is None or not self._editing_a_player():
            self.keyboard_cancel()
            return
        chosen = (e.result() if name is None else name).strip()
        if not chosen or name_problem(chosen, self.other_names()) is not None:
            self.c.changed()
            return
        self.c.draft_set(e.index, name=chosen)
        self.keyboard_cancel()

    def keyboard_cancel(self) -> None:
        """Back to the setup screen; the name stays as it was."""
        self.name_edit = None
        self.go("setup")

    # ------------------------------------------------------------------ the new-game screen

    def next_colour(self, k: int) -> None:
        """Player k's token colour: the next one nobody else has."""
        d = self.c.draft
        assert d is not None
        used = {p.colour for p in d.players}
        current = PLAYER_COLOURS.index(d.players[k].colour) if d.players[k].colour in PLAYER_COLOURS else 0
        for step in range(1, len(PLAYER_COLOURS) + 1):
            candidate = PLAYER_COLOURS[(current + step) % len(PLAYER_COLOURS)]
            if candidate not in used:
                self.c.draft_set(k, colour=candidate)
                return

    def set_option(self, option: str, value: Any) -> None:
        """A house rule on or off, or a number of the family's own table (brands)."""
        d = self.c.draft
        assert d is not None
        d.options[option] = value
        self.c.changed()

    def set_custom(self, option: str, value: int) -> None:
        """A number of brands' custom table, no lower than its least value (view.CUSTOM_OPTIONS)."""
        least = next(least for name, _step, least in view.CUSTOM_OPTIONS if name == option)
        self.set_option(option, max(least, value))

    def set_time_limit(self, minutes: int) -> None:
        d = self.c.draft
        assert d is not None
        d.time_limit = max(TIME_LIMIT_LEAST, min(TIME_LIMIT_MOST, minutes))
        self.c.changed()

    # ------------------------------------------------------------------ "game already going?"

    def progress_setup(self) -> dict[str, Any]:
        """The engine's setup being entered: every player named on the setup screen has today's cash and
        position (the starting cash on Go until changed)."""
        d = self.c.draft
        assert d is not None
        setup = d.setup or {"players": {}, "spaces": {}}
        d.setup = setup
        start_cash = int(load_ruleset(d.rules).options["start_cash"])
        for name in view.draft_names(d):
            setup["players"].setdefault(name, {"cash": start_cash, "position": 0})
        return setup

    def bump_player(self, name: str, key: str, step: int) -> None:
        """A player's cash (never below 0) or position (round the board) up or down."""
        d = self.c.draft
        assert d is not None
        entry = self.progress_setup()["players"][name]
        if key == "cash":
            entry[key] = max(0, entry[key] + step)
        else:
            entry[key] = (entry[key] + step) % len(load_ruleset(d.rules).spaces)
        self.c.changed()

    def _space(self, i: int) -> dict[str, Any]:
        spaces: dict[str, dict[str, Any]] = self.progress_setup()["spaces"]
        return spaces.setdefault(str(i), {})

    def cycle_owner(self, i: int) -> None:
        """The property's owner: the bank, then each player in turn, then the bank again (which clears it)."""
        d = self.c.draft
        assert d is not None
        entry = self._space(i)
        owner = entry.get("owner")
        order: list[str | None] = [None, *view.draft_names(d)]
        nxt = order[(order.index(owner) + 1) % len(order)] if owner in order else None
        entry["owner"] = nxt
        if nxt is None:
            entry.clear()
        self.c.changed()

    def cycle_level(self, i: int) -> None:
        """No houses, 1 to 4, a hotel, and round again."""
        entry = self._space(i)
        level = 5 if entry.get("hotel") else int(entry.get("houses", 0))
        level = (level + 1) % 6
        entry["houses"] = level if level < 5 else 0
        entry["hotel"] = level == 5
        self.c.changed()

    def toggle_mortgaged(self, i: int) -> None:
        entry = self._space(i)
        entry["mortgaged"] = not entry.get("mortgaged", False)
        self.c.changed()
