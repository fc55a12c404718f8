"""The navigator without a window: which screen shows, and every choice the screens make before anything
reaches the engine (trades, own-property auctions, real dice, the banker's PIN, the new-game screen),
on a real controller and a scratch journal."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from controllerkit import CARDS, Clock, make, start
from ui.controller import PIN_FREE_TRIES, PIN_WAIT_FIRST, PLAYER_COLOURS, Controller
from ui.entry import CONFIRM_SECONDS
from ui.navigator import PAGES, Navigator
from ui import view


def navigator(tmp_path: Path, taps: bool = True) -> tuple[Controller, Navigator, list[int]]:
    c = make(tmp_path, taps=taps)
    nav = Navigator(c)
    redraws: list[int] = []
    c.listeners.append(lambda: redraws.append(1))
    return c, nav, redraws


def test_the_screen_follows_the_mode_and_the_page(tmp_path: Path) -> None:
    c, nav, redraws = navigator(tmp_path)
    assert nav.screen_name() == "home"
    nav.go("settings")
    assert nav.screen_name() == "settings" and redraws
    nav.back_from_settings()  # no game yet: back to the start screen
    assert nav.screen_name() == "home"
    c.new_game()
    assert nav.screen_name() == "setup"
    nav.go("inprogress")
    assert nav.screen_name() == "inprogress"
    nav.go("setup")
    start(c)
    assert nav.screen_name() == "table" and nav.page == "table"  # a page of the setup is left behind
    nav.go("log")
    nav.go("settings")
    nav.back_from_settings()
    assert nav.screen_name() == "log"  # back where the settings were opened from
    nav.go("nonsense")
    assert nav.screen_name() == "table"
    c.end_game()
    assert nav.screen_name() == "over"


def test_an_auction_takes_the_screen_except_from_deeds_banker_and_settings(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c)
    c.roll()
    c.request({"do": "decline"})
    assert nav.screen_name() == "auction"
    for page in ("deeds", "banker", "settings"):
        nav.go(page)
        assert nav.screen_name() == page
    nav.go("log")
    assert nav.screen_name() == "auction"
    c.request({"do": "close_auction"})
    assert nav.screen_name() == "log"


def test_the_turn_buttons(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c)
    by_id = {b["id"]: b for b in view.buttons(c)}
    nav.entered_dice = [4]
    nav.press(by_id["enter_dice"])
    assert nav.page == "dice" and nav.entered_dice == []
    nav.go("table")
    nav.press(by_id["roll"])  # the controller's fake roll: 1 + 2
    assert c.last_dice == (1, 2) and c.game is not None and c.game.players[0].position == 3
    buy = {b["id"]: b for b in view.buttons(c)}["buy"]
    nav.press(buy)
    assert c.pending is not None and c.pending.needs == ["Ann"]  # spending waits for the card


def test_real_dice_move_only_when_every_die_is_entered(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c)
    nav.press({"id": "enter_dice", "action": {"do": "roll"}})
    nav.enter_die(1, 4)
    assert nav.entered_dice == [0, 4]
    nav.dice_entered()
    assert nav.page == "dice" and c.game is not None and c.game.rolls == 0  # the first die is missing
    nav.enter_die(0, 6)
    nav.enter_die(1, 5)  # changed her mind
    nav.dice_entered()
    assert nav.page == "table" and c.last_dice == (6, 5) and c.game.players[0].position == 11


def test_physical_decks_pick_the_card_drawn(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    c.settings.physical_decks = True
    start(c, setup={"players": {"Ann": {"position": 4}}})
    c.roll()  # 4 + 3 = Chance
    draw = {b["id"]: b for b in view.buttons(c)}["draw"]
    nav.press(draw)
    assert nav.screen_name() == "cards"
    assert "ch-dividend-50" in {card["id"] for card in view.card_choices(c)}
    nav.pick_card("ch-dividend-50")
    assert nav.screen_name() == "table" and c.game is not None and c.game.players[0].cash == 1550


def test_tap_as_does_nothing_unless_the_banker_allows_stand_ins(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c)
    assert c.settings.stand_ins is False  # cards mean something: no stand-ins by default
    c.roll()
    c.request({"do": "buy"})
    nav.tap_as("Ann")
    assert c.pending is not None and c.game is not None and c.game.owner[3] == -1
    assert view.pending(c)["stand_ins"] is False  # type: ignore[index]
    c.card_tapped(CARDS["Ann"])  # her real card still pays
    assert c.pending is None and c.game.owner[3] == 0


def test_tap_as_stands_in_for_a_card(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c)
    c.set_setting("stand_ins", True)  # the banker allowed stand-ins for a forgotten card
    c.roll()
    c.request({"do": "buy"})
    assert view.pending(c)["stand_ins"] is True  # type: ignore[index]
    nav.tap_as("Ann")
    assert c.pending is None and c.game is not None and c.game.owner[3] == 0
    c.request({"do": "end_turn"})
    c.roll()
    c.request({"do": "buy"})
    nav.tap_as("Nobody")  # a name with no card cancels what was waiting
    assert c.pending is None and c.game.owner[6] == -1


def test_the_bankers_pin_and_what_it_unlocks(tmp_path: Path) -> None:
    c, nav, redraws = navigator(tmp_path)
    start(c, pin="2468")
    nav.go("banker")
    assert nav.is_locked()
    nav.unlock("1111")
    assert nav.is_locked() and c.notice_lines(1)[0]["kind"] == "error"
    nav.unlock("2468")
    assert not nav.is_locked()
    nav.go("settings")
    nav.go("banker")
    assert not nav.is_locked()  # the settings are part of the banker's round
    nav.go("replace")
    c.replace_card("Ben")
    nav.go("table")
    assert nav.is_locked() and c.replacing is None  # leaving drops the half-done replacement, and the menu locks


def test_a_game_without_a_pin_is_never_locked(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c)
    nav.go("banker")
    assert not nav.is_locked()


def test_undo_from_the_game_over_screen_asks_for_the_pin_then_a_second_touch(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, pin="2468")
    c.roll()
    nav.end_game()
    assert nav.screen_name() == "over" and not nav.unlocked
    nav.undo_end()  # behind a PIN: the PIN pad first
    assert nav.screen_name() == "digits" and nav.entry is not None and nav.entry.purpose == "undo_pin"
    assert c.game is not None and c.game.ended  # nothing taken back yet
    for key in "1111":
        nav.entry_press(key)
    nav.entry_ok()
    assert nav.screen_name() == "digits" and nav.entry.digits == "" and c.game.ended  # wrong: asked again
    assert view.digits(c, nav.entry)["lines"][-1]["text"] == "Wrong PIN: 4 more tries before a wait"
    for key in "2468":
        nav.entry_press(key)
    nav.entry_ok()
    assert nav.screen_name() == "over" and nav.armed() == "undo_end" and c.game.ended  # armed, not yet done
    nav.undo_end()  # the confirming touch
    assert c.mode == "table" and nav.screen_name() == "table" and nav.is_locked()
    nav.end_game()
    nav.undo_end()
    nav.entry_cancel()  # Cancel on the pad: the game stays over
    assert nav.screen_name() == "over" and c.mode == "over" and nav.armed() is None


def test_undo_from_the_game_over_screen_without_a_pin_still_asks_a_second_touch(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c)
    nav.end_game()
    nav.undo_end()
    assert c.mode == "over" and nav.armed() == "undo_end" and nav.entry is None
    nav.other_touch()  # a touch elsewhere disarms it
    nav.undo_end()
    assert c.mode == "over"
    nav.undo_end()
    assert c.mode == "table"


def test_the_banker_pin_on_the_digit_pad(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, pin="2468")
    nav.go("log")
    nav.go("banker")
    assert nav.screen_name() == "digits" and nav.entry is not None and nav.entry.purpose == "unlock"
    pad = view.digits(c, nav.entry)
    assert pad["title"] == "Banker PIN" and pad["shown"] == "Type the PIN" and pad["empty"] and not pad["ok"]
    for key in "246":
        nav.entry_press(key)
    pad = view.digits(c, nav.entry)
    assert pad["shown"] == "\u25cf\u25cf\u25cf" and pad["ok"] and pad["keys"] and pad["lines"] == []
    nav.entry_cancel()
    assert nav.screen_name() == "log" and nav.entry is None and nav.is_locked()  # back where it was asked
    nav.go("banker")
    for key in "2468":
        nav.entry_press(key)
    nav.entry_ok()
    assert nav.screen_name() == "banker" and not nav.is_locked() and nav.entry is None
    nav.go("table")
    c.end_game()  # the game ends (a timed game's alarm) while the PIN pad shows: the pad goes
    nav2 = Navigator(c)
    assert nav2.screen_name() == "over"


def test_wrong_pins_back_off_on_the_pad_and_after_a_restart(tmp_path: Path) -> None:
    clock = Clock()
    c = make(tmp_path, clock=clock)
    nav = Navigator(c)
    start(c, pin="2468")
    nav.go("banker")
    for k in range(PIN_FREE_TRIES):
        assert nav.entry is not None
        for key in "1111":
            nav.entry_press(key)
        nav.entry_ok()
    pad = view.digits(c, nav.entry)  # type: ignore[arg-type]
    assert pad["wait"] == PIN_WAIT_FIRST and not pad["keys"] and not pad["ok"]
    assert pad["lines"][-1] == {"text": "Too many wrong PINs: wait 30 seconds", "kind": "error"}
    nav.entry_press("2")
    assert nav.entry is not None and nav.entry.digits == ""  # the pad refuses while the wait lasts
    clock.now += 20
    assert view.digits(c, nav.entry)["lines"][-1]["text"] == "Too many wrong PINs: wait 10 seconds"
    # A restart (a new controller on the same journal) keeps the count and the wait.
    c2 = make(tmp_path, clock=clock)
    assert c2.resume()
    nav2 = Navigator(c2)
    nav2.go("banker")
    assert nav2.entry is not None and view.digits(c2, nav2.entry)["wait"] == 10
    clock.now += 10
    pad = view.digits(c2, nav2.entry)
    assert pad["wait"] is None and pad["keys"]
    assert pad["lines"][-1]["text"] == "Too many wrong PINs: the next wrong one means a longer wait"
    for key in "1111":
        nav2.entry_press(key)
    nav2.entry_ok()
    assert view.digits(c2, nav2.entry)["wait"] == 2 * PIN_WAIT_FIRST  # each wrong one doubles it
    c2.clock = lambda: clock.now + 20 * 60  # type: ignore[method-assign]
    assert view.digits(c2, nav2.entry)["wait"] is None
    long = Navigator(c2)
    c2.meta["pin_locked_until"] = clock.now + 20 * 60 + 600
    long.go("banker")
    assert view.digits(c2, long.entry)["lines"][-1]["text"] == "Too many wrong PINs: wait 10:00"  # type: ignore
    del c2.meta["pin_locked_until"]
    for key in "2468":
        nav2.entry_press(key)
    nav2.entry_ok()
    assert nav2.screen_name() == "banker" and c2.pin_tries_left() == PIN_FREE_TRIES


def test_the_bankers_destructive_buttons_need_a_second_touch(tmp_path: Path) -> None:
    c, nav, redraws = navigator(tmp_path)
    start(c, pin="2468")
    c.roll()
    nav.destructive("undo")  # locked: nothing at all
    assert nav.armed() is None and c.game is not None and c.game.players[0].position == 3
    nav.go("banker")
    nav.unlock("2468")
    redraws.clear()
    nav.destructive("undo")
    assert nav.armed() == "undo" and redraws and c.game.players[0].position == 3  # armed: it says so
    nav.destructive("undo")
    assert nav.armed() is None and c.game.players[0].position == 0  # the second touch took it back
    nav.destructive("abandon")
    nav.destructive("end")  # another destructive button: that one is armed instead
    assert nav.armed() == "end" and c.mode == "table"
    nav.other_touch()
    assert nav.armed() is None
    nav.destructive("abandon")
    nav.go("settings")  # leaving the page disarms
    nav.go("banker")
    nav.destructive("abandon")
    assert nav.armed() == "abandon" and c.mode == "table"
    nav.confirm.clock = lambda: time.monotonic() + CONFIRM_SECONDS  # type: ignore[method-assign]
    redraws.clear()
    nav.confirm_lapse()
    assert nav.armed() is None and redraws  # too late: redrawn disarmed
    nav.confirm.clock = time.monotonic  # type: ignore[method-assign]
    off: list[int] = []
    c._power_off = lambda: off.append(1)  # type: ignore[method-assign]
    nav.destructive("power_off")
    assert not off
    nav.destructive("power_off")
    assert off == [1]
    nav.destructive("end")
    nav.destructive("end")
    assert c.mode == "over" and not nav.unlocked  # the game-over screen's Undo asks for the PIN again
    with pytest.raises(ValueError):
        nav.destructive("settings")


def test_abandon_needs_its_second_touch_too(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c)
    nav.go("banker")
    nav.destructive("abandon")
    assert c.mode == "table"
    nav.destructive("abandon")
    assert c.mode == "home" and nav.screen_name() == "home"


def test_a_correction_on_the_digit_pad(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, pin="2468")
    nav.correct("Ann")  # locked: no pad
    assert nav.entry is None
    nav.go("banker")
    nav.unlock("2468")
    nav.correct("Ann")
    assert nav.screen_name() == "digits" and not nav.is_locked()
    pad = view.digits(c, nav.entry)  # type: ignore[arg-type]
    assert pad["title"] == "Correct Ann's cash" and pad["sign"] == 1 and not pad["ok"]
    for key in "50":
        nav.entry_press(key)
    nav.entry_press("-")
    pad = view.digits(c, nav.entry)  # type: ignore[arg-type]
    assert pad["shown"] == "\u221250" and pad["ok"]
    assert [line["text"] for line in pad["lines"]] == ["Ann has 1,500", "New balance: 1,450"]  # before OK
    nav.entry_ok()
    assert c.game is not None and c.game.players[0].cash == 1450 and nav.screen_name() == "banker"
    nav.correct("Ben")
    for key in "1500":
        nav.entry_press(key)
    nav.entry_press("-")
    nav.entry_press("0")  # taking away more than Ben has: refused
    assert nav.entry is not None and nav.entry.value == 1500
    nav.entry_ok()
    assert c.game.players[1].cash == 0
    nav.correct("Ben")
    nav.entry_cancel()
    assert nav.screen_name() == "banker" and c.game.players[1].cash == 0 and not nav.is_locked()


def test_a_trades_cash_on_the_digit_pad(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, ("Ann", "Ben", "Cy"))
    nav.go("trade")
    nav.edit_trade_cash("give")
    assert nav.screen_name() == "digits"
    pad = view.digits(c, nav.entry)  # type: ignore[arg-type]
    assert pad["title"] == "Cash Ann gives" and pad["lines"][0]["text"] == "At most 1,500: all Ann has"
    for key in "2500":
        nav.entry_press(key)  # the last 0 is refused: Ann has 1,500
    assert view.digits(c, nav.entry)["shown"] == "250"  # type: ignore[arg-type]
    nav.entry_ok()
    assert nav.screen_name() == "trade" and nav.trade_offer()["give"]["cash"] == 250
    nav.edit_trade_cash("give")
    assert nav.entry is not None and nav.entry.value == 250  # shown as it is ...
    nav.entry_press("4")
    nav.entry_ok()
    assert nav.trade_offer()["give"]["cash"] == 4  # ... and replaced by what is typed
    nav.edit_trade_cash("get")
    nav.entry_press("7")
    nav.entry_cancel()
    assert nav.trade_offer()["get"]["cash"] == 0 and nav.screen_name() == "trade"


def test_an_own_auctions_opening_bid_on_the_digit_pad(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, ("Ann", "Ben", "Cy"), rules="biznes", setup={"spaces": {"25": {"owner": "Ann"}}})
    c.roll((2, 4))
    c.request({"do": "decline"})
    c.request({"do": "close_auction"})
    nav.deed_action("Ann", "auction_own", 25)
    nav.edit_reserve()
    info = view.own_auction(c, "Ann", 25)
    assert nav.screen_name() == "digits" and nav.entry is not None and nav.entry.value == info["low"]
    for key in "125":
        nav.entry_press(key)
    pad = view.digits(c, nav.entry)
    assert not pad["ok"] and pad["lines"][0]["kind"] == "error"  # not a whole step above the bank's price
    nav.entry_press("erase")
    nav.entry_press("0")
    assert view.digits(c, nav.entry)["ok"]
    nav.entry_ok()
    assert nav.screen_name() == "ownauction" and nav.own_auction_plan()["reserve"] == 120
    nav.edit_reserve()
    c.request({"do": "end_turn"})  # something else happened: the opening bid's moment has passed
    assert nav.screen_name() == "table" and nav.entry is None


def test_the_new_games_pin_on_the_digit_pad(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    c.new_game()
    nav.edit_pin()
    assert nav.screen_name() == "digits"
    for key in "123":
        nav.entry_press(key)
    pad = view.digits(c, nav.entry)  # type: ignore[arg-type]
    assert not pad["ok"] and pad["lines"] == [{"text": "4 to 8 digits, or none for no PIN", "kind": "error"}]
    nav.entry_press("4")
    nav.entry_ok()
    assert nav.screen_name() == "setup" and c.draft is not None and c.draft.pin == "1234"
    nav.edit_pin()
    nav.entry_ok()  # none at all: no PIN
    assert c.draft.pin == ""
    nav.edit_pin()
    c.leave_draft()
    assert nav.screen_name() == "home" and nav.entry is None  # the pad belonged to that new game


def test_the_banker_lets_buttons_stand_in_for_cards(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c)
    assert view.banker(c)["stand_ins"] is False
    c.set_setting("stand_ins", True)
    assert view.banker(c)["stand_ins"] is True and view.pending(c) is None


def test_abandon(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, pin="2468")
    nav.go("banker")
    nav.unlock("2468")
    nav.abandon()
    assert c.mode == "home" and nav.page == "table" and nav.is_locked() is False and not nav.unlocked


def test_a_trade_put_together_and_agreed(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, ("Ann", "Ben", "Cy"), setup={"spaces": {"5": {"owner": "Ben"}, "6": {"owner": "Ann"}}})
    nav.go("trade")
    offer = nav.trade_offer()
    assert (offer["from"], offer["to"]) == ("Ann", "Ben")
    nav.trade_cash("give", 100)
    nav.trade_cash("give", 100)
    nav.trade_cash("give", -10)
    nav.trade_cash("get", -10)  # never below nothing
    nav.trade_space("get", 5)
    nav.trade_space("give", 6)
    nav.trade_space("give", 6)  # and back out
    t = view.trade(c, nav.trade_offer())
    give, get = t["sides"]
    assert give["cash"] == 190 and get["cash"] == 0 and not any(d["chosen"] for d in give["deeds"])
    assert get["deeds"] == [{"index": 5, "name": "Reading Railroad", "chosen": True}]
    assert t["sale_least"] is None
    nav.trade_agree()
    assert c.pending is not None and c.pending.needs == ["Ann", "Ben"]
    assert c.pending.action == {"do": "trade", "from": "Ann", "to": "Ben", "give": {"cash": 190},
                                "get": {"spaces": [5]}}
    c.card_tapped(CARDS["Ann"])
    c.card_tapped(CARDS["Ben"])
    assert c.game is not None and c.game.owner[5] == 0 and c.game.players[0].cash == 1500 - 190


def test_choosing_the_other_sides_player_swaps_them_and_starts_afresh(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, ("Ann", "Ben", "Cy"))
    nav.trade_cash("give", 100)
    nav.trade_who("from", "Ben")  # Ben was receiving: now Ann does
    offer = nav.trade_offer()
    assert (offer["from"], offer["to"]) == ("Ben", "Ann") and offer["give"]["cash"] == 0
    nav.trade_who("to", "Cy")
    assert (offer["from"], offer["to"]) == ("Ben", "Cy")


def test_jail_cards_in_a_trade_go_round(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c)
    for _ in range(3):
        nav.trade_cards("give", 2)
    assert nav.trade_offer()["give"]["jail_cards"] == 0  # 1, 2, none again


def test_a_debtors_trade_starts_with_them_offering(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, ("Ann", "Ben", "Cy"))
    nav.trade_cash("give", 50)
    nav.start_trade("Cy")
    offer = nav.trade_offer()
    assert nav.page == "trade" and offer["from"] == "Cy" and offer["to"] == "Ann" and offer["give"]["cash"] == 0
    nav.trade_cash("give", 10)
    nav.start_trade("Cy")  # the same debtor again: the draft is kept
    assert nav.trade_offer()["give"]["cash"] == 10


def test_a_bankrupt_sides_trade_starts_again(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, ("Ann", "Ben", "Cy"))
    nav.trade = {"from": "Zed", "to": "Ben", "give": {"cash": 5, "spaces": [], "jail_cards": 0},
                 "get": {"cash": 0, "spaces": [], "jail_cards": 0}}
    offer = nav.trade_offer()
    assert (offer["from"], offer["to"], offer["give"]["cash"]) == ("Ann", "Ben", 0)


def test_biznes_a_debtors_one_firm_for_cash_is_a_sale(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, ("Ann", "Ben", "Cy"), rules="biznes",
          setup={"players": {"Ann": {"cash": 40}}, "spaces": {"15": {"owner": "Ann"}}})
    c.roll((1, 3))  # Akcyza: 100 owed with 40 in cash
    nav.start_trade("Ann")
    nav.trade_space("give", 15)
    for _ in range(10):
        nav.trade_cash("get", 10)
    t = view.trade(c, nav.trade_offer())
    assert t["sale_least"] == 100
    nav.trade_agree()
    assert c.pending is not None and c.pending.action == {"do": "sell_to_player", "player": "Ann", "space": 15,
                                                          "to": "Ben", "price": 100}
    c.card_tapped(CARDS["Ann"])
    c.card_tapped(CARDS["Ben"])
    assert c.game is not None and c.game.owner[15] == 1 and not c.game.players[0].debts


def test_biznes_own_auction_opening_bid(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, ("Ann", "Ben", "Cy"), rules="biznes", setup={"spaces": {"25": {"owner": "Ann"}}})
    c.roll((2, 4))
    c.request({"do": "decline"})
    c.request({"do": "close_auction"})  # nobody wants Pralnia: now Ann may auction her own firm
    nav.go("deeds")
    nav.deed_action("Ann", "auction_own", 25)
    assert nav.screen_name() == "ownauction"
    plan = nav.own_auction_plan()
    info = view.own_auction(c, "Ann", 25)
    assert plan["reserve"] == info["low"] == 100
    def typed(keys: str) -> bool:
        """The opening bid typed on the pad; whether OK took it."""
        nav.edit_reserve()
        for key in keys:
            nav.entry_press(key)
        ok = bool(view.digits(c, nav.entry)["ok"])
        nav.entry_ok() if ok else nav.entry_cancel()
        return ok

    assert not typed("90")  # never below what the bank pays
    assert plan["reserve"] == 100
    assert typed("210") and plan["reserve"] == 210
    assert not typed(str(info["high"] + info["step"]))  # nor above the most it may ask
    assert plan["reserve"] == 210
    assert typed("120")
    nav.own_auction_go()
    assert c.pending is not None and c.pending.action == {"do": "auction_own", "player": "Ann", "space": 25,
                                                          "reserve": 120}
    c.card_tapped(CARDS["Ann"])
    assert nav.screen_name() == "auction" and nav.page == "table"  # after the auction: the table


def test_an_own_auction_plan_is_dropped_when_something_else_happens(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, ("Ann", "Ben", "Cy"), rules="biznes", setup={"spaces": {"25": {"owner": "Ann"}}})
    nav.start_own_auction("Ann", 25)
    c.roll((1, 2))
    assert nav.screen_name() == "table" and nav.own_auction is None


def test_a_deed_action_goes_to_the_controller(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, setup={"spaces": {"3": {"owner": "Ann"}}})
    nav.deed_action("Ann", "mortgage", 3)
    assert c.pending is not None and c.pending.action == {"do": "mortgage", "space": 3}
    assert nav.own_auction is None
    nav.deed_action("Ann", "auction_own", 3)  # classic has no own auctions: refused, no plan
    assert nav.own_auction is None and c.notice_lines(1)[0]["kind"] == "error"


@pytest.mark.parametrize("taps", [True, False])
def test_an_auction_bid_button(tmp_path: Path, taps: bool) -> None:
    c, nav, _ = navigator(tmp_path, taps=taps)
    start(c, ("Ann", "Ben", "Cy"))
    c.roll()
    c.request({"do": "decline"})
    nav.bid_step(5)
    assert c.settings.bid_step == 15
    nav.auction_bid("Ben")
    game = c.game
    assert game is not None and game.auction is not None
    if taps:
        assert c.pending is not None and c.pending.action["amount"] == 15 and game.auction.high_bid == 0
        c.card_tapped(CARDS["Ben"])
    assert game.auction.high_bid == 15 and game.players[game.auction.high_bidder].name == "Ben"
    for _ in range(5):
        nav.bid_step(-5)
    assert c.settings.bid_step == 1


def test_the_move_link_shown_and_hidden(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c)
    nav.show_move()
    assert nav.move_url is None  # no phone server: no link
    nav.move_url = "http://x/m/abc"
    nav.hide_move()
    assert nav.move_url is None


def test_deeds_of_the_current_player_unless_chosen(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c)
    assert nav.deeds_player() == "Ann"
    nav.show_deeds("Ben")
    assert nav.page == "deeds" and nav.deeds_player() == "Ben"


def test_the_new_game_screens_choices(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    c.new_game()
    d = c.draft
    assert d is not None
    nav.next_colour(0)  # the next colour nobody has: the second player has the second
    assert d.players[0].colour == PLAYER_COLOURS[2]
    nav.set_option("free_parking_pot", True)
    assert d.options["free_parking_pot"] is True
    assert {"option": "free_parking_pot", "on": True} in view.setup(c)["options"]
    c.draft_rules("classic-timed")
    assert view.setup(c)["time_limit"] == 90
    nav.set_time_limit(90 - 15)
    assert d.time_limit == 75
    nav.set_time_limit(5)
    assert d.time_limit == 15
    nav.set_time_limit(6000)
    assert d.time_limit == 600
    c.draft_rules("brands")
    numbers = {n["option"]: n for n in view.setup(c)["custom"]["numbers"]}
    nav.set_custom("start_cash", numbers["start_cash"]["value"] - 100000)  # never below its least
    nav.set_custom("turn_seconds", -15)  # 0 is "off"
    assert d.options["start_cash"] == 2500 and d.options["turn_seconds"] == 0


def test_the_setup_screen_asks_the_ruleset_through_the_view(tmp_path: Path) -> None:
    c, _, _ = navigator(tmp_path)
    c.new_game()
    c.draft_rules("biznes")
    s = view.setup(c)
    options = [o["option"] for o in s["options"]]
    assert "double_rent_with_mortgaged" not in options and "build_only_on_visit" not in options
    assert s["custom"] is None and s["time_limit"] is None
    assert [r["name"] for r in s["rulesets"] if r["chosen"]] == ["biznes"]
    c.draft_rules("classic")
    assert view.in_progress(c)["mortgages"] and view.setup(c)["custom"] is None


def test_a_game_already_going(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    c.new_game()
    c.draft_set(0, name="Ann")
    c.draft_set(1, name="Ben")
    nav.go("inprogress")
    setup = nav.progress_setup()
    assert setup["players"] == {"Ann": {"cash": 1500, "position": 0}, "Ben": {"cash": 1500, "position": 0}}
    nav.bump_player("Ann", "cash", -50)
    nav.bump_player("Ben", "position", -1)  # round the board
    for _ in range(2):
        nav.cycle_owner(39)  # from the bank to Ann, then to Ben
    nav.cycle_owner(37)
    for _ in range(5):
        nav.cycle_level(37)  # four houses, then the hotel
    nav.toggle_mortgaged(39)
    g = view.in_progress(c)
    assert [(p["name"], p["cash"], p["where"]) for p in g["players"]] == [("Ann", 1450, "GO"),
                                                                          ("Ben", 1500, "Boardwalk")]
    spaces = {s["index"]: s for s in g["spaces"]}
    assert spaces[39]["owner"] == "Ben" and spaces[39]["mortgaged"] and spaces[37]["level"] == 5
    nav.cycle_level(37)
    nav.cycle_owner(39)  # back to the bank: nothing left of it
    assert setup["spaces"]["39"] == {} and setup["spaces"]["37"] == {"owner": "Ann", "houses": 0, "hotel": False}
    nav.bump_player("Ann", "cash", -5000)
    assert setup["players"]["Ann"]["cash"] == 0
    for _ in range(4):
        nav.next_colour(1)
    c.draft_register(0)
    c.card_tapped(CARDS["Ann"])
    c.card_tapped(CARDS["Ben"])
    assert c.draft_start()
    assert nav.screen_name() == "table" and c.game is not None and c.game.players[1].position == 39


def test_every_page_has_a_screen() -> None:
    import ast

    source = (Path(__file__).resolve().parents[2] / "ui" / "screens" / "__init__.py").read_text("utf-8")
    registry = next(node.value for node in ast.walk(ast.parse(source))
                    if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "SCREENS")
    assert isinstance(registry, ast.Dict)
    assert sorted(k.value for k in registry.keys if isinstance(k, ast.Constant)) == sorted(PAGES)


def test_a_new_game_has_ready_names_in_the_family_s_language(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    c.set_language("pl")
    nav.new_game()
    assert view.draft_names(c.draft) == ["Auto", "Statek"]  # type: ignore[arg-type]
    nav.add_player()
    assert view.setup(c)["players"][2]["name"] == "Pies"
    assert nav.presets() == ["Kot", "Kapelusz", "But", "Żelazko", "Naparstek"]
    assert not [p for p in c.draft_problems() if "imi" in p.lower()]  # no name is missing


def test_a_name_typed_on_the_keyboard_page(tmp_path: Path) -> None:
    c, nav, redraws = navigator(tmp_path)
    nav.new_game()
    nav.edit_name(1)
    assert nav.screen_name() == "keyboard" and nav.name_edit is not None and nav.name_edit.text == "Ship"
    k = view.keyboard(c, nav.name_edit)
    assert k["title"] == "Name of player 2" and k["colour"] == PLAYER_COLOURS[1] and k["can_finish"]
    assert "Car" not in k["presets"] and "Ship" not in k["presets"] and "Dog" in k["presets"]
    redraws.clear()
    for key in ("clear", "b", "e", "n"):
        nav.keyboard_press(key)
    assert nav.name_edit.text == "Ben" and len(redraws) == 4
    assert c.draft is not None and c.draft.players[1].name == "Ship"  # not until Done
    nav.keyboard_done()
    assert c.draft.players[1].name == "Ben" and nav.screen_name() == "setup" and nav.name_edit is None
    nav.edit_name(0)  # a ready name: the first letter typed replaces it
    assert nav.name_edit is not None and nav.name_edit.fresh and view.keyboard(c, nav.name_edit)["fresh"]
    for key in ("a", "n", "n"):
        nav.keyboard_press(key)
    nav.keyboard_done()
    assert c.draft.players[0].name == "Ann"
    nav.edit_name(0)  # a name of the family's own is edited where it ends
    nav.keyboard_press("a")
    assert nav.name_edit is not None and nav.name_edit.text == "Anna" and not nav.name_edit.fresh


def test_done_waits_for_a_name_that_can_be_a_player_s(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    nav.new_game()
    nav.edit_name(1)
    nav.keyboard_press("clear")
    nav.keyboard_done()  # nothing typed: still on the keyboard
    assert nav.screen_name() == "keyboard" and not view.keyboard(c, nav.name_edit)["can_finish"]  # type: ignore[arg-type]
    for key in ("c", "a", "r"):
        nav.keyboard_press(key)
    k = view.keyboard(c, nav.name_edit)  # type: ignore[arg-type]
    assert k["problem"] == "Another player is already called Car." and not k["can_finish"]
    nav.keyboard_done()
    assert nav.screen_name() == "keyboard" and c.draft is not None and c.draft.players[1].name == "Ship"
    nav.keyboard_done("Bank")  # a ready name goes through the same checks
    assert nav.screen_name() == "keyboard"
    nav.keyboard_done("Dog")  # a ready name, one touch
    assert nav.screen_name() == "setup" and c.draft.players[1].name == "Dog"


def test_cancel_keeps_the_name_and_the_keyboard_page_belongs_to_the_setup(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    nav.new_game()
    nav.edit_name(0)
    nav.keyboard_press("x")
    nav.keyboard_cancel()
    assert nav.screen_name() == "setup" and c.draft is not None and c.draft.players[0].name == "Car"
    nav.edit_name(1)
    c.draft_remove_player(1)  # not possible with two players: the page stays
    assert nav.screen_name() == "keyboard"
    nav.add_player()
    nav.edit_name(2)
    c.draft_remove_player(2)  # the player whose name was typed is gone: back to the setup
    assert nav.screen_name() == "setup"
    nav.edit_name(0)
    c.leave_draft()
    assert nav.screen_name() == "home"
    nav.new_game()  # a new game starts on its setup screen, whatever was typed before
    assert nav.screen_name() == "setup" and nav.name_edit is None
    start(c)
    nav.page = "keyboard"
    assert nav.screen_name() == "table"
