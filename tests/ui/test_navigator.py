"""The navigator without a window: which screen shows, and every choice the screens make before anything
reaches the engine (trades, own-property auctions, real dice, the banker's PIN, the new-game screen),
on real flows and a scratch journal."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from banker.ruleset import load_ruleset
from flowkit import CARDS, Clock, make, start
from ui import view
from ui.entry import CONFIRM_SECONDS
from ui.flows import Flows
from ui.flows.banker import PIN_FREE_TRIES, PIN_WAIT_FIRST
from ui.flows.setup import PLAYER_COLOURS, money_step
from ui.navigator import Navigator
from ui.pages import PAGES


def navigator(tmp_path: Path, taps: bool = True) -> tuple[Flows, Navigator, list[int]]:
    c = make(tmp_path, taps=taps)
    nav = c.nav
    redraws: list[int] = []
    c.session.listeners.append(lambda: redraws.append(1))
    return c, nav, redraws


def test_the_screen_follows_the_mode_and_the_page(tmp_path: Path) -> None:
    c, nav, redraws = navigator(tmp_path)
    assert c.nav.screen_name() == "home"
    c.nav.go("settings")
    assert c.nav.screen_name() == "settings" and redraws
    c.nav.back_from_settings()  # no game yet: back to the start screen
    assert c.nav.screen_name() == "home"
    c.setup.new_game()
    assert c.nav.screen_name() == "setup"
    c.nav.go("inprogress")
    assert c.nav.screen_name() == "inprogress"
    c.nav.go("setup")
    start(c)
    assert c.nav.screen_name() == "table" and c.nav.page == "table"  # a page of the setup is left behind
    c.nav.go("log")
    c.nav.go("settings")
    c.nav.back_from_settings()
    assert c.nav.screen_name() == "log"  # back where the settings were opened from
    c.nav.go("nonsense")
    assert c.nav.screen_name() == "table"
    c.banker.end_game()
    assert c.nav.screen_name() == "over"


def test_an_auction_takes_the_screen_except_from_deeds_banker_and_settings(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c)
    c.turn.roll()
    c.paying.request({"do": "decline"})
    assert c.nav.screen_name() == "auction"
    for page in ("deeds", "banker", "settings"):
        c.nav.go(page)
        assert c.nav.screen_name() == page
    c.nav.go("log")
    assert c.nav.screen_name() == "auction"
    c.paying.request({"do": "close_auction"})
    assert c.nav.screen_name() == "log"


def test_the_turn_buttons(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c)
    by_id = {b["id"]: b for b in c.turn.buttons()}
    c.turn.entered_dice = [4]
    c.turn.press(by_id["enter_dice"])
    assert c.nav.page == "dice" and c.turn.entered_dice == []
    c.nav.go("table")
    c.turn.press(by_id["roll"])  # the kit's fake roll: 1 + 2
    assert c.session.last_dice == (1, 2) and c.session.game is not None and c.session.game.players[0].position == 3
    buy = {b["id"]: b for b in c.turn.buttons()}["buy"]
    c.turn.press(buy)
    assert c.paying.pending is not None and c.paying.pending.needs == ["Ann"]  # spending waits for the card


def test_real_dice_move_only_when_every_die_is_entered(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c)
    c.turn.press({"id": "enter_dice", "action": {"do": "roll"}})
    c.turn.enter_die(1, 4)
    assert c.turn.entered_dice == [0, 4]
    c.turn.dice_entered()
    assert c.nav.page == "dice" and c.session.game is not None and c.session.game.rolls == 0  # the first die is missing
    c.turn.enter_die(0, 6)
    c.turn.enter_die(1, 5)  # changed her mind
    c.turn.dice_entered()
    assert c.nav.page == "table" and c.session.last_dice == (6, 5) and c.session.game.players[0].position == 11


def test_physical_decks_pick_the_card_drawn(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    c.session.settings.physical_decks = True
    start(c, setup={"players": {"Ann": {"position": 4}}})
    c.turn.roll()  # 4 + 3 = Chance
    draw = {b["id"]: b for b in c.turn.buttons()}["draw"]
    c.turn.press(draw)
    assert c.nav.screen_name() == "cards"
    assert "ch-dividend-50" in {card["id"] for card in c.turn.card_choices()}
    c.turn.pick_card("ch-dividend-50")
    assert c.nav.screen_name() == "table" and c.session.game is not None and c.session.game.players[0].cash == 1550


def test_tap_as_does_nothing_unless_the_banker_allows_stand_ins(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c)
    assert c.session.settings.stand_ins is False  # cards mean something: no stand-ins by default
    c.turn.roll()
    c.paying.request({"do": "buy"})
    c.paying.stand_in("Ann")
    assert c.paying.pending is not None and c.session.game is not None and c.session.game.owner[3] == -1
    assert c.paying.view()["stand_ins"] is False  # type: ignore[index]
    c.taps.card_tapped(CARDS["Ann"])  # her real card still pays
    assert c.paying.pending is None and c.session.game.owner[3] == 0


def test_tap_as_stands_in_for_a_card(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c)
    c.settings.set_setting("stand_ins", True)  # the banker allowed stand-ins for a forgotten card
    c.turn.roll()
    c.paying.request({"do": "buy"})
    assert c.paying.view()["stand_ins"] is True  # type: ignore[index]
    c.paying.stand_in("Ann")
    assert c.paying.pending is None and c.session.game is not None and c.session.game.owner[3] == 0
    c.paying.request({"do": "end_turn"})
    c.turn.roll()
    c.paying.request({"do": "buy"})
    c.paying.stand_in("Nobody")  # a name with no card cancels what was waiting
    assert c.paying.pending is None and c.session.game.owner[6] == -1


def test_the_bankers_pin_and_what_it_unlocks(tmp_path: Path) -> None:
    c, nav, redraws = navigator(tmp_path)
    start(c, pin="2468")
    c.nav.go("banker")
    assert c.banker.is_locked()
    c.banker.unlock("1111")
    assert c.banker.is_locked() and c.session.notice_lines(1)[0]["kind"] == "error"
    c.banker.unlock("2468")
    assert not c.banker.is_locked()
    c.nav.go("settings")
    c.nav.go("banker")
    assert not c.banker.is_locked()  # the settings are part of the banker's round
    c.nav.go("replace")
    c.banker.replace_card("Ben")
    c.nav.go("table")
    assert c.banker.is_locked() and c.banker.replacing is None  # leaving drops the half-done replacement, and the menu locks


def test_a_game_without_a_pin_is_never_locked(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c)
    c.nav.go("banker")
    assert not c.banker.is_locked()


def test_undo_from_the_game_over_screen_asks_for_the_pin_then_a_second_touch(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, pin="2468")
    c.turn.roll()
    c.banker.end_game()
    assert c.nav.screen_name() == "over" and not c.banker.unlocked
    c.banker.undo_end()  # behind a PIN: the PIN pad first
    assert c.nav.screen_name() == "digits" and c.pad.entry is not None and c.pad.entry.purpose == "undo_pin"
    assert c.session.game is not None and c.session.game.ended  # nothing taken back yet
    for key in "1111":
        c.pad.press(key)
    c.pad.ok()
    assert c.nav.screen_name() == "digits" and c.pad.entry.digits == "" and c.session.game.ended  # wrong: asked again
    assert c.pad.view()["lines"][-1]["text"] == "Wrong PIN: 4 more tries before a wait"
    for key in "2468":
        c.pad.press(key)
    c.pad.ok()
    assert c.nav.screen_name() == "over" and c.banker.armed() == "undo_end" and c.session.game.ended  # armed, not yet done
    c.banker.undo_end()  # the confirming touch
    assert c.mode == "table" and c.nav.screen_name() == "table" and c.banker.is_locked()
    c.banker.end_game()
    c.banker.undo_end()
    c.pad.cancel()  # Cancel on the pad: the game stays over
    assert c.nav.screen_name() == "over" and c.mode == "over" and c.banker.armed() is None


def test_undo_from_the_game_over_screen_without_a_pin_still_asks_a_second_touch(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c)
    c.banker.end_game()
    c.banker.undo_end()
    assert c.mode == "over" and c.banker.armed() == "undo_end" and c.pad.entry is None
    c.banker.other_touch()  # a touch elsewhere disarms it
    c.banker.undo_end()
    assert c.mode == "over"
    c.banker.undo_end()
    assert c.mode == "table"


def test_the_banker_pin_on_the_digit_pad(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, pin="2468")
    c.nav.go("log")
    c.nav.go("banker")
    assert c.nav.screen_name() == "digits" and c.pad.entry is not None and c.pad.entry.purpose == "unlock"
    pad = c.pad.view()
    assert pad["title"] == "Banker PIN" and pad["shown"] == "Type the PIN" and pad["empty"] and not pad["ok"]
    for key in "246":
        c.pad.press(key)
    pad = c.pad.view()
    assert pad["shown"] == "\u25cf\u25cf\u25cf" and pad["ok"] and pad["keys"] and pad["lines"] == []
    c.pad.cancel()
    assert c.nav.screen_name() == "log" and c.pad.entry is None and c.banker.is_locked()  # back where it was asked
    c.nav.go("banker")
    for key in "2468":
        c.pad.press(key)
    c.pad.ok()
    assert c.nav.screen_name() == "banker" and not c.banker.is_locked() and c.pad.entry is None
    c.nav.go("table")
    c.banker.end_game()  # the game ends (a timed game's alarm) while the PIN pad shows: the pad goes
    assert c.nav.screen_name() == "over"


def test_wrong_pins_back_off_on_the_pad_and_after_a_restart(tmp_path: Path) -> None:
    clock = Clock()
    c = make(tmp_path, clock=clock)
    start(c, pin="2468")
    c.nav.go("banker")
    for _ in range(PIN_FREE_TRIES):
        assert c.pad.entry is not None
        for key in "1111":
            c.pad.press(key)
        c.pad.ok()
    pad = c.pad.view()  # type: ignore[arg-type]
    assert pad["wait"] == PIN_WAIT_FIRST and not pad["keys"] and not pad["ok"]
    assert pad["lines"][-1] == {"text": "Too many wrong PINs: wait 30 seconds", "kind": "error"}
    c.pad.press("2")
    assert c.pad.entry is not None and c.pad.entry.digits == ""  # the pad refuses while the wait lasts
    clock.now += 20
    assert c.pad.view()["lines"][-1]["text"] == "Too many wrong PINs: wait 10 seconds"
    # A restart (new flows on the same journal) keeps the count and the wait.
    c2 = make(tmp_path, clock=clock)
    assert c2.home.resume()
    c2.nav.go("banker")
    assert c2.pad.entry is not None and c2.pad.view()["wait"] == 10
    clock.now += 10
    pad = c2.pad.view()
    assert pad["wait"] is None and pad["keys"]
    assert pad["lines"][-1]["text"] == "Too many wrong PINs: the next wrong one means a longer wait"
    for key in "1111":
        c2.pad.press(key)
    c2.pad.ok()
    assert c2.pad.view()["wait"] == 2 * PIN_WAIT_FIRST  # each wrong one doubles it
    c2.session.clock = lambda: clock.now + 20 * 60  # type: ignore[method-assign]
    assert c2.pad.view()["wait"] is None
    c2.session.meta["pin_locked_until"] = clock.now + 20 * 60 + 600
    c2.nav.go("banker")
    assert c2.pad.view()["lines"][-1]["text"] == "Too many wrong PINs: wait 10:00"  # type: ignore
    del c2.session.meta["pin_locked_until"]
    for key in "2468":
        c2.pad.press(key)
    c2.pad.ok()
    assert c2.nav.screen_name() == "banker" and c2.banker.pin_tries_left() == PIN_FREE_TRIES


def test_the_bankers_destructive_buttons_need_a_second_touch(tmp_path: Path) -> None:
    c, nav, redraws = navigator(tmp_path)
    start(c, pin="2468")
    c.turn.roll()
    c.banker.destructive("undo")  # locked: nothing at all
    assert c.banker.armed() is None and c.session.game is not None and c.session.game.players[0].position == 3
    c.nav.go("banker")
    c.banker.unlock("2468")
    redraws.clear()
    c.banker.destructive("undo")
    assert c.banker.armed() == "undo" and redraws and c.session.game.players[0].position == 3  # armed: it says so
    c.banker.destructive("undo")
    assert c.banker.armed() is None and c.session.game.players[0].position == 0  # the second touch took it back
    c.banker.destructive("abandon")
    c.banker.destructive("end")  # another destructive button: that one is armed instead
    assert c.banker.armed() == "end" and c.mode == "table"
    c.banker.other_touch()
    assert c.banker.armed() is None
    c.banker.destructive("abandon")
    c.nav.go("settings")  # leaving the page disarms
    c.nav.go("banker")
    c.banker.destructive("abandon")
    assert c.banker.armed() == "abandon" and c.mode == "table"
    c.nav.confirm.clock = lambda: time.monotonic() + CONFIRM_SECONDS  # type: ignore[method-assign]
    redraws.clear()
    c.banker.confirm_lapse()
    assert c.banker.armed() is None and redraws  # too late: redrawn disarmed
    c.nav.confirm.clock = time.monotonic  # type: ignore[method-assign]
    off: list[int] = []
    c.power_off = lambda: off.append(1)
    c.banker.destructive("power_off")
    assert not off
    c.banker.destructive("power_off")
    assert off == [1]
    c.banker.destructive("end")
    c.banker.destructive("end")
    assert c.mode == "over" and not c.banker.unlocked  # the game-over screen's Undo asks for the PIN again
    with pytest.raises(ValueError):
        c.banker.destructive("settings")


def test_abandon_needs_its_second_touch_too(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c)
    c.nav.go("banker")
    c.banker.destructive("abandon")
    assert c.mode == "table"
    c.banker.destructive("abandon")
    assert c.mode == "home" and c.nav.screen_name() == "home"


def test_a_correction_on_the_digit_pad(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, pin="2468")
    c.banker.correct("Ann")  # locked: no pad
    assert c.pad.entry is None
    c.nav.go("banker")
    c.banker.unlock("2468")
    c.banker.correct("Ann")
    assert c.nav.screen_name() == "digits" and not c.banker.is_locked()
    pad = c.pad.view()  # type: ignore[arg-type]
    assert pad["title"] == "Correct Ann's cash" and pad["sign"] == 1 and not pad["ok"]
    for key in "50":
        c.pad.press(key)
    c.pad.press("-")
    pad = c.pad.view()  # type: ignore[arg-type]
    assert pad["shown"] == "\u221250" and pad["ok"]
    assert [line["text"] for line in pad["lines"]] == ["Ann has 1,500", "New balance: 1,450"]  # before OK
    c.pad.ok()
    assert c.session.game is not None and c.session.game.players[0].cash == 1450 and c.nav.screen_name() == "banker"
    c.banker.correct("Ben")
    for key in "1500":
        c.pad.press(key)
    c.pad.press("-")
    c.pad.press("0")  # taking away more than Ben has: refused
    assert c.pad.entry is not None and c.pad.entry.value == 1500
    c.pad.ok()
    assert c.session.game.players[1].cash == 0
    c.banker.correct("Ben")
    c.pad.cancel()
    assert c.nav.screen_name() == "banker" and c.session.game.players[1].cash == 0 and not c.banker.is_locked()


def test_a_trades_cash_on_the_digit_pad(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, ("Ann", "Ben", "Cy"))
    c.nav.go("trade")
    c.pad.trade_cash("give")
    assert c.nav.screen_name() == "digits"
    pad = c.pad.view()  # type: ignore[arg-type]
    assert pad["title"] == "Cash Ann gives" and pad["lines"][0]["text"] == "At most 1,500: all Ann has"
    for key in "2500":
        c.pad.press(key)  # the last 0 is refused: Ann has 1,500
    assert c.pad.view()["shown"] == "250"  # type: ignore[arg-type]
    c.pad.ok()
    assert c.nav.screen_name() == "trade" and c.trade.current()["give"]["cash"] == 250
    c.pad.trade_cash("give")
    assert c.pad.entry is not None and c.pad.entry.value == 250  # shown as it is ...
    c.pad.press("4")
    c.pad.ok()
    assert c.trade.current()["give"]["cash"] == 4  # ... and replaced by what is typed
    c.pad.trade_cash("get")
    c.pad.press("7")
    c.pad.cancel()
    assert c.trade.current()["get"]["cash"] == 0 and c.nav.screen_name() == "trade"


def test_an_own_auctions_opening_bid_on_the_digit_pad(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, ("Ann", "Ben", "Cy"), rules="biznes", setup={"spaces": {"25": {"owner": "Ann"}}})
    c.turn.roll((2, 4))
    c.paying.request({"do": "decline"})
    c.paying.request({"do": "close_auction"})
    c.deeds.act("Ann", "auction_own", 25)
    c.pad.reserve()
    info = c.auction.own_view("Ann", 25)
    assert c.nav.screen_name() == "digits" and c.pad.entry is not None and c.pad.entry.value == info["low"]
    for key in "125":
        c.pad.press(key)
    pad = c.pad.view()
    assert not pad["ok"] and pad["lines"][0]["kind"] == "error"  # not a whole step above the bank's price
    c.pad.press("erase")
    c.pad.press("0")
    assert c.pad.view()["ok"]
    c.pad.ok()
    assert c.nav.screen_name() == "ownauction" and c.auction.own_plan()["reserve"] == 120
    c.pad.reserve()
    c.paying.request({"do": "end_turn"})  # something else happened: the opening bid's moment has passed
    assert c.nav.screen_name() == "table" and c.pad.entry is None


def test_the_new_games_pin_on_the_digit_pad(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    c.setup.new_game()
    c.pad.new_pin()
    assert c.nav.screen_name() == "digits"
    for key in "123":
        c.pad.press(key)
    pad = c.pad.view()  # type: ignore[arg-type]
    assert not pad["ok"] and pad["lines"] == [{"text": "4 to 8 digits, or none for no PIN", "kind": "error"}]
    c.pad.press("4")
    c.pad.ok()
    assert c.nav.screen_name() == "setup" and c.setup.draft is not None and c.setup.draft.pin == "1234"
    c.pad.new_pin()
    c.pad.ok()  # none at all: no PIN
    assert c.setup.draft.pin == ""
    c.pad.new_pin()
    c.setup.cancel()
    assert c.nav.screen_name() == "home" and c.pad.entry is None  # the pad belonged to that new game


def test_the_banker_lets_buttons_stand_in_for_cards(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c)
    assert c.banker.view()["stand_ins"] is False
    c.settings.set_setting("stand_ins", True)
    assert c.banker.view()["stand_ins"] is True and c.paying.view() is None


def test_abandon(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, pin="2468")
    c.nav.go("banker")
    c.banker.unlock("2468")
    c.banker.abandon()
    assert c.mode == "home" and c.nav.page == "table" and c.banker.is_locked() is False and not c.banker.unlocked


def test_a_trade_put_together_and_agreed(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, ("Ann", "Ben", "Cy"), setup={"spaces": {"5": {"owner": "Ben"}, "6": {"owner": "Ann"}}})
    c.nav.go("trade")
    offer = c.trade.current()
    assert (offer["from"], offer["to"]) == ("Ann", "Ben")
    c.trade.cash("give", 100)
    c.trade.cash("give", 100)
    c.trade.cash("give", -10)
    c.trade.cash("get", -10)  # never below nothing
    c.trade.space("get", 5)
    c.trade.space("give", 6)
    c.trade.space("give", 6)  # and back out
    t = c.trade.view()
    give, get = t["sides"]
    assert give["cash"] == 190 and get["cash"] == 0 and not any(d["chosen"] for d in give["deeds"])
    assert get["deeds"] == [{"index": 5, "name": "Reading Railroad", "chosen": True}]
    assert t["sale_least"] is None
    c.trade.agree()
    assert c.paying.pending is not None and c.paying.pending.needs == ["Ann", "Ben"]
    assert c.paying.pending.action == {"do": "trade", "from": "Ann", "to": "Ben", "give": {"cash": 190},
                                "get": {"spaces": [5]}}
    c.taps.card_tapped(CARDS["Ann"])
    c.taps.card_tapped(CARDS["Ben"])
    assert c.session.game is not None and c.session.game.owner[5] == 0 and c.session.game.players[0].cash == 1500 - 190


def test_choosing_the_other_sides_player_swaps_them_and_starts_afresh(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, ("Ann", "Ben", "Cy"))
    c.trade.cash("give", 100)
    c.trade.who("from", "Ben")  # Ben was receiving: now Ann does
    offer = c.trade.current()
    assert (offer["from"], offer["to"]) == ("Ben", "Ann") and offer["give"]["cash"] == 0
    c.trade.who("to", "Cy")
    assert (offer["from"], offer["to"]) == ("Ben", "Cy")


def test_jail_cards_in_a_trade_go_round(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c)
    for _ in range(3):
        c.trade.cards("give", 2)
    assert c.trade.current()["give"]["jail_cards"] == 0  # 1, 2, none again


def test_a_debtors_trade_starts_with_them_offering(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, ("Ann", "Ben", "Cy"))
    c.trade.cash("give", 50)
    c.trade.start("Cy")
    offer = c.trade.current()
    assert c.nav.page == "trade" and offer["from"] == "Cy" and offer["to"] == "Ann" and offer["give"]["cash"] == 0
    c.trade.cash("give", 10)
    c.trade.start("Cy")  # the same debtor again: the draft is kept
    assert c.trade.current()["give"]["cash"] == 10


def test_a_bankrupt_sides_trade_starts_again(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, ("Ann", "Ben", "Cy"))
    c.trade.offer = {"from": "Zed", "to": "Ben", "give": {"cash": 5, "spaces": [], "jail_cards": 0},
                 "get": {"cash": 0, "spaces": [], "jail_cards": 0}}
    offer = c.trade.current()
    assert (offer["from"], offer["to"], offer["give"]["cash"]) == ("Ann", "Ben", 0)


def test_biznes_a_debtors_one_firm_for_cash_is_a_sale(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, ("Ann", "Ben", "Cy"), rules="biznes",
          setup={"players": {"Ann": {"cash": 40}}, "spaces": {"15": {"owner": "Ann"}}})
    c.turn.roll((1, 3))  # Akcyza: 100 owed with 40 in cash
    c.trade.start("Ann")
    c.trade.space("give", 15)
    for _ in range(10):
        c.trade.cash("get", 10)
    t = c.trade.view()
    assert t["sale_least"] == 100
    c.trade.agree()
    assert c.paying.pending is not None and c.paying.pending.action == {"do": "sell_to_player", "player": "Ann", "space": 15,
                                                          "to": "Ben", "price": 100}
    c.taps.card_tapped(CARDS["Ann"])
    c.taps.card_tapped(CARDS["Ben"])
    assert c.session.game is not None and c.session.game.owner[15] == 1 and not c.session.game.players[0].debts


def test_biznes_own_auction_opening_bid(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, ("Ann", "Ben", "Cy"), rules="biznes", setup={"spaces": {"25": {"owner": "Ann"}}})
    c.turn.roll((2, 4))
    c.paying.request({"do": "decline"})
    c.paying.request({"do": "close_auction"})  # nobody wants Pralnia: now Ann may auction her own firm
    c.nav.go("deeds")
    c.deeds.act("Ann", "auction_own", 25)
    assert c.nav.screen_name() == "ownauction"
    plan = c.auction.own_plan()
    info = c.auction.own_view("Ann", 25)
    assert plan["reserve"] == info["low"] == 100
    def typed(keys: str) -> bool:
        """The opening bid typed on the pad; whether OK took it."""
        c.pad.reserve()
        for key in keys:
            c.pad.press(key)
        ok = bool(c.pad.view()["ok"])
        c.pad.ok() if ok else c.pad.cancel()
        return ok

    assert not typed("90")  # never below what the bank pays
    assert plan["reserve"] == 100
    assert typed("210") and plan["reserve"] == 210
    assert not typed(str(info["high"] + info["step"]))  # nor above the most it may ask
    assert plan["reserve"] == 210
    assert typed("120")
    c.auction.own_go()
    assert c.paying.pending is not None and c.paying.pending.action == {"do": "auction_own", "player": "Ann", "space": 25,
                                                          "reserve": 120}
    c.taps.card_tapped(CARDS["Ann"])
    assert c.nav.screen_name() == "auction" and c.nav.page == "table"  # after the auction: the table


def test_an_own_auction_plan_is_dropped_when_something_else_happens(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, ("Ann", "Ben", "Cy"), rules="biznes", setup={"spaces": {"25": {"owner": "Ann"}}})
    c.auction.start_own("Ann", 25)
    c.turn.roll((1, 2))
    assert c.nav.screen_name() == "table" and c.auction.own is None


def test_a_deed_action_goes_to_its_flow(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c, setup={"spaces": {"3": {"owner": "Ann"}}})
    c.deeds.act("Ann", "mortgage", 3)
    assert c.paying.pending is not None and c.paying.pending.action == {"do": "mortgage", "space": 3}
    assert c.auction.own is None
    c.deeds.act("Ann", "auction_own", 3)  # classic has no own auctions: refused, no plan
    assert c.auction.own is None and c.session.notice_lines(1)[0]["kind"] == "error"


@pytest.mark.parametrize("taps", [True, False])
def test_an_auction_bid_button(tmp_path: Path, taps: bool) -> None:
    c, nav, _ = navigator(tmp_path, taps=taps)
    start(c, ("Ann", "Ben", "Cy"))
    c.turn.roll()
    c.paying.request({"do": "decline"})
    c.auction.step(5)
    assert c.session.settings.bid_step == 15
    c.auction.bid_button("Ben")
    game = c.session.game
    assert game is not None and game.auction is not None
    if taps:
        assert c.paying.pending is not None and c.paying.pending.action["amount"] == 15 and game.auction.high_bid == 0
        c.taps.card_tapped(CARDS["Ben"])
    assert game.auction.high_bid == 15 and game.players[game.auction.high_bidder].name == "Ben"
    for _ in range(5):
        c.auction.step(-5)
    assert c.session.settings.bid_step == 1


def test_the_move_link_shown_and_hidden(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c)
    c.phones.show_move()
    assert c.phones.move_url is None  # no phone server: no link
    c.phones.move_url = "http://x/m/abc"
    c.phones.hide_move()
    assert c.phones.move_url is None


def test_deeds_of_the_current_player_unless_chosen(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    start(c)
    assert c.deeds.player() == "Ann"
    c.deeds.show("Ben")
    assert c.nav.page == "deeds" and c.deeds.player() == "Ben"


def test_the_new_game_screens_choices(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    c.setup.new_game()
    d = c.setup.draft
    assert d is not None
    c.setup.next_colour(0)  # the next colour nobody has: the second player has the second
    assert d.players[0].colour == PLAYER_COLOURS[2]
    c.setup.toggle_house_rule("free_parking_pot")
    assert d.options["free_parking_pot"] is True
    assert c.setup.view()["house_rules"] == ["Free Parking jackpot"]
    c.setup.choose_rules("classic-timed")
    assert c.setup.view()["time_limit"] == 90 and c.setup.view()["house_rules"] == []  # another ruleset: afresh
    c.setup.set_time_limit(90 - 15)
    assert d.time_limit == 75
    c.setup.set_time_limit(5)
    assert d.time_limit == 15
    c.setup.set_time_limit(6000)
    assert d.time_limit == 600
    c.setup.choose_rules("brands")
    c.setup.set_custom("turn_seconds", -15)  # 0 is "off"
    c.setup.set_custom("mortgage_rounds", -5)  # never below its least
    assert d.options["turn_seconds"] == 0 and d.options["mortgage_rounds"] == 1
    assert "start_cash" not in [n["option"] for n in c.setup.view()["custom"]["numbers"]]  # one way: the house rules


def rows(c: Flows) -> dict[str, dict[str, Any]]:
    return {r["option"]: r for r in c.setup.house()["rows"]}


def test_the_house_rules_page_offers_what_the_ruleset_allows(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    c.setup.new_game()
    nav.go("houserules")
    assert nav.screen_name() == "houserules"
    classic = rows(c)
    assert list(classic) == ["start_cash", "free_parking_pot", "start_landing_bonus", "jail_no_rent",
                             "buy_after_first_lap", "snake_eyes_bonus", "auction_on_decline",
                             "double_rent_with_mortgaged", "build_only_on_visit"]  # the seed: only with the pot
    assert all(r["switch"] is False for o, r in classic.items() if o != "start_cash")  # the rulebook's game
    assert classic["start_cash"]["amount"] == {"value": 1500, "shown": "1,500", "lower": True}
    assert classic["auction_on_decline"]["name"] == "No auctions"
    assert classic["snake_eyes_bonus"]["what"] == "Rolling two ones on your turn pays this from the bank."
    c.setup.choose_rules("biznes")
    assert "double_rent_with_mortgaged" not in rows(c) and "build_only_on_visit" not in rows(c)
    c.setup.choose_rules("brands")
    brands = rows(c)
    assert "free_parking_pot" not in brands  # no Free Parking on its board
    assert brands["start_landing_bonus"]["switch"] is True and brands["start_landing_bonus"]["amount"]["value"] == 1000
    assert brands["jail_no_rent"]["switch"] is True  # brands' own rule, shown on
    assert c.setup.view()["house_rules"] == ["Landing on GO pays 1,000 more", "No rent while in jail"]


def test_house_rules_amounts_step_and_never_go_below_their_least(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    c.setup.new_game()
    d = c.setup.draft
    assert d is not None
    assert money_step(load_ruleset("classic")) == 50 and money_step(load_ruleset("brands")) == 500
    c.setup.toggle_house_rule("snake_eyes_bonus")  # on: two and a half salaries
    assert d.options["snake_eyes_bonus"] == 500
    c.setup.step_house_rule("snake_eyes_bonus", 1)
    assert d.options["snake_eyes_bonus"] == 550
    for _ in range(20):
        c.setup.step_house_rule("snake_eyes_bonus", -1)
    assert d.options["snake_eyes_bonus"] == 50 and rows(c)["snake_eyes_bonus"]["amount"]["lower"] is False
    c.setup.toggle_house_rule("snake_eyes_bonus")
    assert d.options["snake_eyes_bonus"] == 0 and rows(c)["snake_eyes_bonus"]["amount"] is None
    c.setup.toggle_house_rule("start_landing_bonus")  # on: a salary more
    assert d.options["start_landing_bonus"] == 200
    for _ in range(40):
        c.setup.step_house_rule("start_cash", -1)
    assert d.options["start_cash"] == 200  # a salary at the least, in steps of 100
    c.setup.step_house_rule("start_cash", 1)
    assert d.options["start_cash"] == 300
    c.setup.toggle_house_rule("free_parking_pot")
    assert rows(c)["free_parking_seed"]["amount"] == {"value": 0, "shown": "none", "lower": False}
    c.setup.step_house_rule("free_parking_seed", 1)
    c.setup.step_house_rule("free_parking_seed", 1)
    assert d.options["free_parking_seed"] == 100
    c.setup.toggle_house_rule("free_parking_pot")  # the pot off takes its seed with it (the engine refuses one)
    assert d.options["free_parking_pot"] is False and d.options["free_parking_seed"] == 0
    assert "free_parking_seed" not in rows(c)
    c.setup.toggle_house_rule("auction_on_decline")  # "No auctions" on: the option false
    assert d.options["auction_on_decline"] is False and rows(c)["auction_on_decline"]["switch"] is True
    c.setup.choose_rules("brands")
    c.setup.toggle_house_rule("snake_eyes_bonus")
    assert d.options["snake_eyes_bonus"] == 5000  # scaled for brands' money
    c.setup.toggle_house_rule("start_landing_bonus")  # brands' own 1000: off
    assert d.options["start_landing_bonus"] == 0
    assert c.setup.view()["house_rules"] == ["No rent while in jail", "Two ones pay 5,000"]


def test_the_house_rules_chosen_are_the_games_and_the_table_lists_them(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    c.setup.new_game()
    for k, name in enumerate(["Ann", "Ben"]):
        c.setup.set_player(k, name=name)
    c.settings.set_setting("taps", False)
    c.setup.toggle_house_rule("free_parking_pot")
    c.setup.step_house_rule("free_parking_seed", 1)
    c.setup.toggle_house_rule("snake_eyes_bonus")
    c.setup.toggle_house_rule("auction_on_decline")
    c.setup.step_house_rule("start_cash", 1)
    assert c.setup.start()
    game = c.session.game
    assert game is not None
    assert (game.options.free_parking_pot, game.options.free_parking_seed, game.options.snake_eyes_bonus,
            game.options.auction_on_decline, game.options.start_cash) == (True, 50, 500, False, 1600)
    assert [p.cash for p in game.players] == [1600, 1600]
    nav.go("rules")
    assert nav.screen_name() == "rules"
    assert c.home.house_rules() == {"rules": "Classic", "lines": [
        "Free Parking jackpot: 50 now", "The jackpot starts with 50", "Two ones pay 500", "No auctions",
        "Starting cash: 1,600"]}  # (the jackpot's line says what is in it now)
    c.settings.set_language("pl")
    assert c.home.house_rules()["lines"][2] == "Dwie jedynki dają 500"


def test_a_game_already_going(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    c.setup.new_game()
    c.setup.set_player(0, name="Ann")
    c.setup.set_player(1, name="Ben")
    c.nav.go("inprogress")
    setup = c.progress.entered()
    assert setup["players"] == {"Ann": {"cash": 1500, "position": 0}, "Ben": {"cash": 1500, "position": 0}}
    c.progress.bump_player("Ann", "cash", -50)
    c.progress.bump_player("Ben", "position", -1)  # round the board
    for _ in range(2):
        c.progress.cycle_owner(39)  # from the bank to Ann, then to Ben
    c.progress.cycle_owner(37)
    for _ in range(5):
        c.progress.cycle_level(37)  # four houses, then the hotel
    c.progress.toggle_mortgaged(39)
    g = c.progress.view()
    assert [(p["name"], p["cash"], p["where"]) for p in g["players"]] == [("Ann", 1450, "GO"),
                                                                          ("Ben", 1500, "Boardwalk")]
    spaces = {s["index"]: s for s in g["spaces"]}
    assert spaces[39]["owner"] == "Ben" and spaces[39]["mortgaged"] and spaces[37]["level"] == 5
    c.progress.cycle_level(37)
    c.progress.cycle_owner(39)  # back to the bank: nothing left of it
    assert setup["spaces"]["39"] == {} and setup["spaces"]["37"] == {"owner": "Ann", "houses": 0, "hotel": False}
    c.progress.bump_player("Ann", "cash", -5000)
    assert setup["players"]["Ann"]["cash"] == 0
    for _ in range(4):
        c.setup.next_colour(1)
    c.setup.register(0)
    c.taps.card_tapped(CARDS["Ann"])
    c.taps.card_tapped(CARDS["Ben"])
    assert c.setup.start()
    assert c.nav.screen_name() == "table" and c.session.game is not None and c.session.game.players[1].position == 39


def test_a_game_already_going_says_who_has_been_round_the_board(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    c.setup.new_game()
    c.setup.set_player(0, name="Ann")
    c.setup.set_player(1, name="Ben")
    c.nav.go("inprogress")
    assert c.progress.view()["laps"] is False  # the house rule is off: nothing to ask
    c.setup.toggle_house_rule("buy_after_first_lap")
    g = c.progress.view()
    assert g["laps"] is True and [p["lapped"] for p in g["players"]] == [False, False]
    c.progress.toggle_lapped("Ann")
    assert [p["lapped"] for p in c.progress.view()["players"]] == [True, False]
    c.progress.bump_player("Ben", "position", 6)  # Ben on Oriental Avenue, not yet round the board
    for k in range(2):
        c.setup.register(k)
        c.taps.card_tapped(CARDS[("Ann", "Ben")[k]])
    assert c.setup.start()
    game = c.session.game
    assert game is not None and game.options.buy_after_first_lap
    assert [p["lapped"] for p in game.to_json()["players"]] == [True, False]


def test_every_page_names_a_screen_and_a_flow_that_exist(tmp_path: Path) -> None:
    """The one page list (ui/pages.py): each page's screen class is defined in its module (read, not imported:
    no Kivy here) and its flow is one the app has."""
    import ast

    c = make(tmp_path)
    root = Path(__file__).resolve().parents[2]
    for page in PAGES.values():
        module, name = page.screen.split(":")
        tree = ast.parse((root / (module.replace(".", "/") + ".py")).read_text("utf-8"))
        assert name in {n.name for n in tree.body if isinstance(n, ast.ClassDef)}, page
        assert c.of(page.flow) is not None
    assert {"home", "setup", "table", "over"} <= set(PAGES)  # each mode's own page


def test_a_new_game_has_ready_names_in_the_family_s_language(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    c.settings.set_language("pl")
    c.setup.new_game()
    assert c.setup.draft.names() == ["Auto", "Statek"]  # type: ignore[arg-type]
    c.setup.add_player()
    assert c.setup.view()["players"][2]["name"] == "Pies"
    assert c.names.presets() == ["Kot", "Kapelusz", "But", "Żelazko", "Naparstek"]
    assert not [p for p in c.setup.problems() if "imi" in p.lower()]  # no name is missing


def test_a_name_typed_on_the_keyboard_page(tmp_path: Path) -> None:
    c, nav, redraws = navigator(tmp_path)
    c.setup.new_game()
    c.names.edit(1)
    assert c.nav.screen_name() == "keyboard" and c.names.editor is not None and c.names.editor.text == "Ship"
    k = c.names.view()
    assert k["title"] == "Name of player 2" and k["colour"] == PLAYER_COLOURS[1] and k["can_finish"]
    assert "Car" not in k["presets"] and "Ship" not in k["presets"] and "Dog" in k["presets"]
    redraws.clear()
    for key in ("clear", "b", "e", "n"):
        c.names.press(key)
    assert c.names.editor.text == "Ben" and len(redraws) == 4
    assert c.setup.draft is not None and c.setup.draft.players[1].name == "Ship"  # not until Done
    c.names.done()
    assert c.setup.draft.players[1].name == "Ben" and c.nav.screen_name() == "setup" and c.names.editor is None
    c.names.edit(0)  # a ready name: the first letter typed replaces it
    assert c.names.editor is not None and c.names.editor.fresh and c.names.view()["fresh"]
    for key in ("a", "n", "n"):
        c.names.press(key)
    c.names.done()
    assert c.setup.draft.players[0].name == "Ann"
    c.names.edit(0)  # a name of the family's own is edited where it ends
    c.names.press("a")
    assert c.names.editor is not None and c.names.editor.text == "Anna" and not c.names.editor.fresh


def test_done_waits_for_a_name_that_can_be_a_player_s(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    c.setup.new_game()
    c.names.edit(1)
    c.names.press("clear")
    c.names.done()  # nothing typed: still on the keyboard
    assert c.nav.screen_name() == "keyboard" and not c.names.view()["can_finish"]  # type: ignore[arg-type]
    for key in ("c", "a", "r"):
        c.names.press(key)
    k = c.names.view()  # type: ignore[arg-type]
    assert k["problem"] == "Another player is already called Car." and not k["can_finish"]
    c.names.done()
    assert c.nav.screen_name() == "keyboard" and c.setup.draft is not None and c.setup.draft.players[1].name == "Ship"
    c.names.done("Bank")  # a ready name goes through the same checks
    assert c.nav.screen_name() == "keyboard"
    c.names.done("Dog")  # a ready name, one touch
    assert c.nav.screen_name() == "setup" and c.setup.draft.players[1].name == "Dog"


def test_cancel_keeps_the_name_and_the_keyboard_page_belongs_to_the_setup(tmp_path: Path) -> None:
    c, nav, _ = navigator(tmp_path)
    c.setup.new_game()
    c.names.edit(0)
    c.names.press("x")
    c.names.cancel()
    assert c.nav.screen_name() == "setup" and c.setup.draft is not None and c.setup.draft.players[0].name == "Car"
    c.names.edit(1)
    c.setup.remove_player(1)  # not possible with two players: the page stays
    assert c.nav.screen_name() == "keyboard"
    c.setup.add_player()
    c.names.edit(2)
    c.setup.remove_player(2)  # the player whose name was typed is gone: back to the setup
    assert c.nav.screen_name() == "setup"
    c.names.edit(0)
    c.setup.cancel()
    assert c.nav.screen_name() == "home"
    c.setup.new_game()  # a new game starts on its setup screen, whatever was typed before
    assert c.nav.screen_name() == "setup" and c.names.editor is None
    start(c)
    c.nav.page = "keyboard"
    assert c.nav.screen_name() == "table"


@pytest.mark.parametrize("language, said", [
    ("en", "Ann has not been round the board yet: Baltic Avenue stays with the bank"),
    ("pl", "Ann: jeszcze bez pełnego okrążenia, Baltic Avenue zostaje w banku"),
    ("cs", "Ann: ještě bez celého kola, Baltic Avenue zůstává bance"),
    ("ru", "Ann: ещё не было полного круга, Baltic Avenue остаётся у банка"),
])
def test_an_unlapped_player_is_told_why_nothing_is_offered(tmp_path: Path, language: str, said: str) -> None:
    """Buy only after one lap: Ann lands on Baltic Avenue before passing GO; the turn screen's notices say why
    she is offered nothing (the engine's not_lapped event), and no Buy button shows."""
    c, nav, _ = navigator(tmp_path)
    c.settings.set_language(language)
    c.settings.set_setting("taps", False)
    c.setup.new_game()
    for k, name in enumerate(["Ann", "Ben"]):
        c.setup.set_player(k, name=name)
    c.setup.toggle_house_rule("buy_after_first_lap")
    assert c.setup.start()
    c.turn.roll((1, 2))
    game = c.session.game
    assert game is not None and game.decision is None and game.owner[3] == -1  # the bank keeps it
    assert [n["text"] for n in view.notices(c.session, 3)][-1] == said
    assert "buy" not in [b["id"] for b in c.turn.buttons()]
