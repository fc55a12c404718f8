"""The app's session and flows, without a window: taps, pending payments, auctions, trades,
the banker's menu, resume after a restart."""

from __future__ import annotations

from pathlib import Path

from banker.model import Decision
from flowkit import CARDS, Clock, FakeWeb, make, start, texts
from ui.flows import Flows
from ui.phone import phone_state
from ui.settings import Settings


def test_registering_cards_refuses_one_already_taken(tmp_path: Path) -> None:
    c = make(tmp_path)
    c.setup.new_game()
    c.setup.set_player(0, name="Ann")
    c.setup.set_player(1, name="Ben")
    c.setup.register(0)
    c.taps.card_tapped(CARDS["Ann"])
    assert c.setup.draft.registering == 1  # type: ignore[union-attr]  # on to the next player
    c.taps.card_tapped(CARDS["Ann"])
    assert texts(c)[-1] == "That card is already Ann's."
    assert c.setup.draft.players[1].card is None  # type: ignore[union-attr]
    assert "Every player needs a registered card" in " ".join(c.setup.problems())
    c.taps.card_tapped(CARDS["Ben"])
    assert c.setup.problems() == []
    assert c.setup.start()
    assert c.mode == "table"
    meta = c.session.journal.meta(c.session.live.id)  # type: ignore[union-attr]
    assert meta["cards"] == {CARDS["Ann"]: "Ann", CARDS["Ben"]: "Ben"}


def test_buying_needs_the_buyers_card(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c)
    c.turn.roll()
    assert c.session.move_hint == "Ann: move your token to Baltic Avenue"
    c.paying.request({"do": "buy"})
    assert c.paying.pending is not None and c.paying.pending.prompt == "Ann: tap your card to buy Baltic Avenue for 60"
    c.taps.card_tapped(CARDS["Ben"])
    assert texts(c)[-1] == "That is Ben's card. Ann must tap."
    assert c.session.game.owner[3] == -1  # type: ignore[union-attr]
    c.taps.card_tapped(CARDS["Ann"])
    assert c.paying.pending is None and c.session.game.owner[3] == 0  # type: ignore[union-attr]
    assert "Ann buys Baltic Avenue for 60" in texts(c)
    assert c.session.journal.actions(c.session.live.id)[-1]["do"] == "buy"  # type: ignore[union-attr]


def test_on_screen_buttons_instead_of_cards(tmp_path: Path) -> None:
    c = make(tmp_path, taps=False)
    start(c)
    c.turn.roll()
    c.paying.request({"do": "buy"})
    assert c.paying.pending is None and c.session.game.owner[3] == 0  # type: ignore[union-attr]


def test_a_refused_action_says_which_rule(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c)
    c.paying.request({"do": "end_turn"})
    assert c.paying.pending is None
    assert c.session.notices[-1].kind == "error"
    assert texts(c)[-1] == "Ann cannot end the turn: a roll is still owed (a double rolls again)"


def test_a_tap_with_nothing_pending_shows_the_balance(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c)
    c.taps.card_tapped(CARDS["Ben"])
    assert texts(c)[-1] == "Ben: 1,500 in cash. Deeds: —"  # the number the way English writes it
    c.taps.card_tapped("DEADBEEF")
    assert texts(c)[-1] == "That card is not registered in this game."


def test_rent_and_salary_are_shown_with_a_sound(tmp_path: Path) -> None:
    sounds: list[str] = []
    c = make(tmp_path, taps=False)
    c.session._play_sound = sounds.append
    start(c)
    c.turn.roll()
    c.paying.request({"do": "buy"})
    c.paying.request({"do": "end_turn"})
    c.turn.roll()
    assert "Ben pays Ann 4 rent for Baltic Avenue" in texts(c)
    assert "payment" in sounds and "dice" in sounds


def test_a_turns_notices_clear_when_the_turn_passes(tmp_path: Path) -> None:
    c = make(tmp_path, taps=False)
    start(c)
    c.turn.roll()
    c.paying.request({"do": "buy"})
    shown = [n["text"] for n in c.session.notice_lines(3)]
    assert shown == ["Ann rolled 1 + 2", "Ann buys Baltic Avenue for 60"]
    c.paying.request({"do": "end_turn"})
    assert "Ann buys Baltic Avenue for 60" not in [n["text"] for n in c.session.notice_lines(3)]  # Ben's turn now
    c.turn.roll()
    shown = [n["text"] for n in c.session.notice_lines(3)]
    assert shown == ["Ben rolled 1 + 2", "Ben pays Ann 4 rent for Baltic Avenue"]
    assert "Ann buys Baltic Avenue for 60" in texts(c)  # kept, only no longer shown on the table
    c.paying.request({"do": "end_turn"})
    c.taps.card_tapped("DEADBEEF")  # an error in Ann's next turn is shown in it
    assert [n["text"] for n in c.session.notice_lines(3)] == ["That card is not registered in this game."]


def test_a_new_game_does_not_show_the_last_games_dice(tmp_path: Path) -> None:
    c = make(tmp_path, taps=False)
    start(c)
    c.turn.roll()
    assert c.session.last_dice == (1, 2) and c.session.move_hint is not None
    c.banker.abandon()
    start(c)
    assert c.session.last_dice == () and c.session.move_hint is None


def test_auction_taps_raise_by_the_step(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c, ("Ann", "Ben", "Cy"))
    c.turn.roll()
    c.paying.request({"do": "decline"})
    assert c.session.game.auction is not None  # type: ignore[union-attr]
    c.taps.card_tapped(CARDS["Ben"])
    c.taps.card_tapped(CARDS["Cy"])
    assert c.session.game.auction.high_bid == 20  # type: ignore[union-attr]
    c.session.settings.bid_step = 25
    c.taps.card_tapped(CARDS["Ben"])
    assert c.session.game.auction.high_bid == 45  # type: ignore[union-attr]
    c.paying.request({"do": "pass", "player": "Cy"})
    c.paying.request({"do": "pass", "player": "Ann"})
    assert c.session.game.auction is None and c.session.game.owner[3] == 1  # type: ignore[union-attr]
    assert c.session.game.players[1].cash == 1500 - 45  # type: ignore[union-attr]


BIZNES_SETUP = {"spaces": {"1": {"owner": "Ann"}, "3": {"owner": "Ann"}, "5": {"owner": "Ann"},
                           "25": {"owner": "Ann"}}}


def test_biznes_stepped_auction_goes_round_by_taps(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c, ("Ann", "Ben", "Cy"), rules="biznes", setup={"players": {"Cy": {"cash": 80}}})
    c.turn.roll((2, 4))  # Pralnia, price 100: the auction opens at 75
    c.paying.request({"do": "decline"})
    a = c.session.game.auction  # type: ignore[union-attr]
    assert a is not None and a.min_bid == 75 and c.session.game.players[a.next_bidder].name == "Ann"  # type: ignore[union-attr]
    c.taps.card_tapped(CARDS["Ben"])  # not Ben's bid yet: refused with the rule
    assert texts(c)[-1] == "Ben cannot bid now: it is Ann's bid"
    c.taps.card_tapped(CARDS["Ann"])  # Ann bids 75; Cy (80) cannot make 85 and is passed by the rules
    assert a.high_bid == 75 and c.auction.bid_amount("Ben") == 85
    assert [c.session.game.players[b].name for b in a.bidders] == ["Ann", "Ben"]  # type: ignore[union-attr]
    c.taps.card_tapped(CARDS["Ben"])
    assert a.high_bid == 85
    c.paying.request({"do": "pass", "player": "Ann"})
    assert c.session.game.auction is None and c.session.game.owner[6] == 1  # type: ignore[union-attr]
    assert c.session.game.players[1].cash == 1500 - 85  # type: ignore[union-attr]


def _own_auction(tmp_path: Path, clock: Clock) -> Flows:
    c = make(tmp_path, clock=clock)
    start(c, ("Ann", "Ben", "Cy"), rules="biznes", setup=BIZNES_SETUP)
    c.turn.roll((2, 4))
    c.paying.request({"do": "decline"})
    c.paying.request({"do": "close_auction"})  # nobody wants Pralnia: it stays with the bank
    c.paying.request({"do": "auction_own", "player": "Ann", "space": 25, "reserve": 110})
    assert c.paying.pending is not None and c.paying.pending.needs == ["Ann"]  # the seller agrees with a tap
    c.taps.card_tapped(CARDS["Ann"])
    assert c.session.game.auction is not None and c.session.game.auction.kind == "own"  # type: ignore[union-attr]
    return c


def test_biznes_own_auction_is_cancelled_after_a_minute_without_a_bid(tmp_path: Path) -> None:
    clock = Clock()
    c = _own_auction(tmp_path, clock)
    assert c.clock.auction_countdown() == 60
    clock.now += 20
    c.paying.request({"do": "pass", "player": "Cy"})  # a pass does not start the minute again
    c.tick()
    assert c.clock.auction_countdown() == 40 and c.session.game.auction is not None  # type: ignore[union-attr]
    c.session.journal.close()
    again = make(tmp_path, clock=clock)  # nor does a restart of the app
    assert again.home.resume() and again.clock.auction_countdown() == 40
    clock.now += 40
    again.tick()
    game = again.session.game
    assert game is not None and game.auction is None and game.owner[25] == 0
    assert any("cancelled" in t for t in texts(again))
    assert game.players[0].cash == 1500


def test_biznes_own_auction_timer_stops_at_the_first_bid(tmp_path: Path) -> None:
    clock = Clock()
    c = _own_auction(tmp_path, clock)
    c.taps.card_tapped(CARDS["Ben"])  # Ben bids the opening 110
    assert c.clock.auction_countdown() is None
    clock.now += 300
    c.tick()
    assert c.session.game.auction is not None and c.session.game.auction.high_bid == 110  # type: ignore[union-attr]
    c.paying.request({"do": "pass", "player": "Cy"})
    game = c.session.game
    assert game is not None and game.auction is None and game.owner[25] == 1
    assert game.players[0].cash == 1610 and game.players[1].cash == 1390


def test_biznes_debtor_sells_to_a_rival_with_both_cards(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c, ("Ann", "Ben", "Cy"), rules="biznes",
          setup={"players": {"Ann": {"cash": 40}}, "spaces": {"15": {"owner": "Ann"}}})
    c.turn.roll((1, 3))  # Akcyza: 100 owed with 40 in cash
    assert c.session.game.players[0].debts  # type: ignore[union-attr]
    c.paying.request({"do": "sell_to_player", "space": 15, "to": "Ben", "price": 90})
    assert "no cheaper than the bank pays (100)" in texts(c)[-1]
    c.paying.request({"do": "sell_to_player", "space": 15, "to": "Ben", "price": 100})
    assert c.paying.pending is not None and c.paying.pending.needs == ["Ann", "Ben"]
    c.taps.card_tapped(CARDS["Ann"])
    c.taps.card_tapped(CARDS["Ben"])
    game = c.session.game
    assert game is not None and game.owner[15] == 1 and not game.players[0].debts
    assert game.players[0].cash == 40 and game.players[1].cash == 1400


def test_a_trade_needs_both_cards(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c, setup={"spaces": {"5": {"owner": "Ben"}}})
    c.paying.request({"do": "trade", "from": "Ann", "to": "Ben", "give": {"cash": 300}, "get": {"spaces": [5]}})
    assert c.paying.pending is not None and c.paying.pending.needs == ["Ann", "Ben"]
    c.taps.card_tapped(CARDS["Ben"])
    assert c.session.game.owner[5] == 1  # type: ignore[union-attr]
    c.taps.card_tapped(CARDS["Ann"])
    assert c.session.game.owner[5] == 0 and c.session.game.players[0].cash == 1200  # type: ignore[union-attr]


def test_the_dice_button_rolls_only_when_a_roll_is_due(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c)
    c.turn.dice_pressed((3, 4))
    assert c.session.last_dice == (3, 4) and c.session.game.players[0].position == 7  # type: ignore[union-attr]
    c.turn.dice_pressed((1, 1))
    assert texts(c)[-1] == "No roll is due now."


def test_resume_after_a_restart(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c, pin="2468")
    c.turn.roll()
    c.paying.request({"do": "buy"})
    c.taps.card_tapped(CARDS["Ann"])
    state = c.session.game.to_json()  # type: ignore[union-attr]
    c.session.journal.close()
    again = make(tmp_path)
    assert again.mode == "home"
    assert again.home.resume()
    assert again.mode == "table"
    assert again.session.game.to_json() == state  # type: ignore[union-attr]
    assert again.taps.card_owner(CARDS["Ann"]) == "Ann"
    assert again.banker.has_pin() and again.banker.pin_ok("2468") and not again.banker.pin_ok("1111")


def test_the_bankers_menu(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c)
    c.turn.roll()
    c.banker.adjust("Ben", -25, "spilled the money")
    assert c.session.game.players[1].cash == 1475  # type: ignore[union-attr]
    c.banker.undo(2)
    assert c.session.game.players[1].cash == 1500 and c.session.game.players[0].position == 0  # type: ignore[union-attr]
    c.banker.replace_card("Ben")
    c.taps.card_tapped("CAFEBABE")
    assert c.taps.card_owner("CAFEBABE") == "Ben" and c.taps.card_owner(CARDS["Ben"]) is None
    assert c.session.journal.meta(c.session.live.id)["cards"]["CAFEBABE"] == "Ben"  # type: ignore[union-attr]
    c.banker.end_game()
    assert c.mode == "over" and c.session.journal.status(c.session.live.id) == "finished"  # type: ignore[union-attr]
    game_id = c.session.live.id  # type: ignore[union-attr]
    c.home.close_game()
    assert c.mode == "home" and c.session.journal.latest_active() is None
    start(c)
    c.banker.abandon()
    assert c.session.journal.status(game_id + 1) == "finished" and c.mode == "home"


def test_timed_game_ends_at_its_time_with_an_alarm(tmp_path: Path) -> None:
    clock = Clock()
    sounds: list[str] = []
    c = make(tmp_path, clock=clock)
    c.session._play_sound = sounds.append
    start(c, rules="classic-timed")
    assert c.session.game.deal_owed is False  # the banker dealt the title deeds at the start
    assert sum(1 for o in c.session.game.owner if o >= 0) == 4  # type: ignore[union-attr]
    assert c.clock.end_time() == clock.now + 90 * 60
    c.tick()
    assert c.mode == "table"
    clock.now += 90 * 60
    c.tick()
    assert c.mode == "over" and c.session.game.outcome.reason == "time"  # type: ignore[union-attr]
    assert "alarm" in sounds


def test_game_in_progress_and_physical_decks(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c, setup={"players": {"Ann": {"cash": 700, "position": 4}}, "spaces": {"39": {"owner": "Ben"}}})
    assert c.session.game.players[0].cash == 700 and c.session.game.owner[39] == 1  # type: ignore[union-attr]
    c.turn.roll()  # 4 + 3 = 7: Chance
    c.turn.draw("ch-dividend-50")
    assert c.session.game.players[0].cash == 750  # type: ignore[union-attr]


def test_language_switch_translates_what_follows(tmp_path: Path) -> None:
    c = make(tmp_path, taps=False)
    start(c)
    c.settings.set_language("pl")
    c.paying.request({"do": "end_turn"})
    assert c.session.notices[-1].kind == "error"
    assert c.session.tr.language == "pl"
    assert Settings.load(tmp_path / "settings.json")[0].language == "pl"
    assert c.session.notices[-1].text != "Ann cannot end the turn: a roll is still owed (a double rolls again)"


def test_settings_file_problems_never_stop_the_app(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"language": "xx", "sounds": "loud", "taps": false}')
    settings, problems = Settings.load(path)
    assert settings.language == "en" and settings.sounds is True and settings.taps is False
    assert len(problems) == 2 and "language" in problems[0]
    path.write_text("{not json")
    assert Settings.load(path)[0] == Settings()


def test_voice_levels_outside_the_three_steps_fall_back(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"voice": false, "voice_volume": 3, "voice_speed": 0, "motion": false}')
    settings, problems = Settings.load(path)
    assert (settings.voice, settings.voice_volume, settings.voice_speed, settings.motion) == (False, 3, 2, False)
    assert len(problems) == 1 and "voice_speed: 0 is not allowed; using 2" in problems[0]
    path.write_text('{"voice_volume": true, "voice_speed": 1}')
    settings, problems = Settings.load(path)
    assert (settings.voice_volume, settings.voice_speed) == (2, 1) and "voice_volume" in problems[0]


def test_the_settings_screen_steps_the_voice_levels_round_and_says_why_it_is_silent(tmp_path: Path) -> None:
    c = make(tmp_path)

    def button(key: str) -> dict[str, object]:
        return next(b for line in c.settings.view()["rows"] for b in line if b["key"] == key)

    assert [[b["key"] for b in line] for line in c.settings.view()["rows"]] == [
        ["sounds", "motion"], ["voice", "voice_volume", "voice_speed"], ["taps", "physical_decks"]]
    seen = []
    for _ in range(3):  # normal, loud, quiet, and round to normal again
        b = button("voice_volume")
        seen.append(c.session.tr(str(b["text_key"])))
        c.settings.set_setting("voice_volume", b["next"])
    assert seen == ["Volume: normal", "Volume: loud", "Volume: quiet"]
    assert c.session.tr(str(button("voice_volume")["text_key"])) == "Volume: normal"
    assert Settings.load(tmp_path / "settings.json")[0].voice_volume == 2
    assert c.session.tr(str(button("motion")["text_key"])) == "Animations: on" and button("motion")["next"] is False
    c.settings.voice_status = lambda: "No voice: espeak-ng is not installed"
    assert c.settings.view()["status"].endswith("\nNo voice: espeak-ng is not installed")
    c.settings.set_setting("voice", False)  # switched off, it is silent on purpose: nothing to explain
    assert "espeak" not in c.settings.view()["status"]
    assert button("voice_speed")["on"] is False and c.session.tr(str(button("voice")["text_key"])) == "Voice: off"
    c.settings.set_language("ru")
    assert c.session.tr(str(button("voice_speed")["text_key"])) == "Речь: обычная"


def test_the_settings_say_the_version_on_their_about_line(tmp_path: Path) -> None:
    from banker.version import version_line

    c = make(tmp_path)
    assert c.settings.view()["about"] == f"About: {version_line()}"  # as `banker --version` prints it
    c.settings.set_language("pl")
    assert c.settings.view()["about"] == f"O programie: {version_line()}"
    c.settings.version = "board-banker 0.2.0 (git abc1234)"  # what the tour sets: its pictures' own
    c.settings.set_language("ru")
    assert c.settings.view()["about"] == "О программе: board-banker 0.2.0 (git abc1234)"


def test_biznes_office_on_the_visited_firm_has_its_own_sound(tmp_path: Path) -> None:
    c = make(tmp_path)
    sounds: list[str] = []
    c.session._play_sound = sounds.append  # type: ignore[method-assign]
    start(c, ("Ann", "Ben"), rules="biznes", setup=BIZNES_SETUP)
    c.paying.request({"do": "build", "space": 3})  # before the roll: refused with the rule
    assert texts(c)[-1] == "Ann cannot build before rolling: build on the firm you land on"
    c.turn.roll((1, 2))  # Bar mleczny (3), Ann's whole branch
    c.paying.request({"do": "build", "space": 3})
    c.taps.card_tapped(CARDS["Ann"])
    assert c.session.game.level[3] == 1 and "office" in sounds  # type: ignore[union-attr]
    assert "Ann builds a branch office on Bar mleczny" in texts(c)


def test_brands_casino_bet_by_card_and_the_dice_button(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c, ("Ann", "Ben"), rules="brands", setup={"players": {"Ann": {"position": 13}}})
    c.turn.roll((3, 4))  # 13 + 7 = the casino (20)
    game = c.session.game
    assert game is not None and game.decision == Decision("casino", space=20)
    c.turn.casino_toggle(2)
    c.turn.casino_toggle(5)
    c.turn.dice_pressed((5, 1))  # the dice button rolls the casino's die: the first die counts
    assert c.paying.pending is not None and c.paying.pending.needs == ["Ann"]
    c.taps.card_tapped(CARDS["Ann"])
    # bet 1,000, a hit on two numbers pays 1,000 x 6 / 2 = 3,000 (and maybe the jackpot)
    assert game.decision is None and game.players[0].cash in (15000 - 1000 + 3000, 15000 - 1000 + 3000 + 500)
    assert game.casino_state.jackpot in (500, 0)


def test_brands_turn_timer_plays_the_defaults_and_counts_skipped_turns(tmp_path: Path) -> None:
    clock = Clock()
    c = make(tmp_path, clock=clock)
    start(c, ("Ann", "Ben"), rules="brands")
    assert c.clock.turn_countdown() == 75
    clock.now += 76
    c.tick()  # Ann's time is up: the app rolls for her (1 + 2: lot 3, unowned) and declines it for her
    game = c.session.game
    assert game is not None and game.clock_state.skipped[0] == 1 and game.turn == 0
    assert game.auction is not None and game.players[game.auction.next_bidder].name == "Ben"  # the decliner is out
    assert c.clock.bid_countdown() == 20
    clock.now += 21
    c.tick()  # Ben did not bid in time: a pass, and nobody is left: the lot stays with the bank
    assert game.auction is None and game.owner[3] == -1
    c.tick()  # Ann's time is still up: the app ends her turn (one skipped turn, not two)
    assert game.turn == 1 and game.clock_state.skipped[0] == 1
    assert "Time is up" in " ".join(texts(c))


def test_brands_pause_needs_every_player_and_stops_the_clock(tmp_path: Path) -> None:
    clock = Clock()
    c = make(tmp_path, clock=clock)
    start(c, ("Ann", "Ben"), rules="brands")
    c.clock.ask_pause()
    c.taps.card_tapped(CARDS["Ann"])
    clock.now += 31
    c.tick()  # Ben never agreed: no pause
    assert c.session.game is not None and c.session.game.clock_state.paused_at < 0 and "no pause" in texts(c)[-1]
    c.clock.ask_pause()
    c.taps.card_tapped(CARDS["Ann"])
    c.taps.card_tapped(CARDS["Ben"])
    game = c.session.game
    assert game is not None and game.clock_state.paused_at >= 0 and c.clock.turn_countdown() is None
    c.turn.roll((1, 2))
    assert "paused" in texts(c)[-1]
    clock.now += 600  # ten minutes of pause do not count for the economy
    c.clock.ask_resume()
    c.taps.card_tapped(CARDS["Ben"])
    c.taps.card_tapped(CARDS["Ann"])
    assert game.clock_state.paused_at >= 0 and c.clock.resume_countdown() == 3  # a short countdown first
    clock.now += 3
    c.tick()
    assert game.clock_state.paused_at < 0 and game.clock_state.paused_total >= 600
    assert game.to_json()["clock"]["minutes"] < 1


def test_brands_speed_die_joins_the_dice_button(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c, ("Ann", "Ben"), rules="brands-fast", options={"speed_die_round": 1})  # from the first round, for the test
    game = c.session.game
    assert game is not None and game.dice_count() == 3
    c.turn.dice_pressed((2, 2))  # a two-dice button: the app adds the speed die (the fake roll gives 1, 2: a 1)
    assert game.rolls == 1 and len(c.session.last_dice) == 3


def test_phone_links_revoke_final_results_and_moving_a_game(tmp_path: Path) -> None:
    c = make(tmp_path)
    c.phones.connect(FakeWeb(), "http://192.168.1.20:8080", phone_state)
    start(c)
    token = c.phones.token()
    assert token is not None and len(token) >= 22  # 128 random bits, URL-safe
    assert c.phones.table_link() == f"http://192.168.1.20:8080/g/{token}" and token in c.phones.web.states
    assert c.phones.player_link("Ann") == c.phones.table_link() + "?p=Ann"
    c.taps.card_tapped(CARDS["Ann"])  # nothing waits: her balance, and her own phone code for a while
    assert c.phones.player_qr[0] == "Ann"
    c.phones.revoke()
    assert token not in c.phones.web.states and c.phones.token() != token and c.phones.token() in c.phones.web.states
    c.banker.end_game()
    final = c.phones.web.states[c.phones.token()]
    assert final["ended"] is True  # type: ignore[index]
    c.home.close_game()
    c.session.journal.close()
    again = make(tmp_path)
    again.phones.connect(FakeWeb(), "http://192.168.1.20:8080", phone_state)
    again.phones.publish_finished()  # after a restart the finished game's link still shows its results
    assert list(again.phones.web.states.values()) == [final]
    # Moving a game: a one-time link with the game script; once used, the game here is marked moved.
    c2 = make(tmp_path / "other")
    c2.phones.connect(FakeWeb(), "http://10.0.0.5:8080", phone_state)
    start(c2)
    link = c2.phones.move_link()
    assert link is not None and link.startswith("http://10.0.0.5:8080/m/")
    code = link.rsplit("/", 1)[1]
    assert c2.phones.web.moves[code].startswith('{"')  # the game script's header line
    game_id = c2.session.live.id  # type: ignore[union-attr]
    c2.phones.game_moved(code)
    assert c2.session.live is None and c2.mode == "home"
    assert c2.session.journal.status(game_id) == "moved" and c2.session.journal.latest_active() is None


def test_wrong_pins_make_the_next_try_wait_longer_and_the_wait_survives_a_restart(tmp_path: Path) -> None:
    clock = Clock()
    c = make(tmp_path, clock=clock)
    start(c, pin="2468")
    for k in range(4):  # four wrong tries cost nothing but the count
        assert not c.banker.pin_ok("1111")
        assert c.banker.pin_wait() is None and c.banker.pin_tries_left() == 4 - k
    assert not c.banker.pin_ok("1111")  # the fifth: now a wait
    assert c.banker.pin_wait() == 30 and c.banker.pin_tries_left() == 0
    assert not c.banker.pin_ok("2468")  # while it waits, even the right PIN is refused unchecked
    clock.now += 29.5
    assert c.banker.pin_wait() == 1 and not c.banker.pin_ok("2468")
    clock.now += 1
    assert c.banker.pin_wait() is None
    assert not c.banker.pin_ok("0000")  # the sixth wrong one: twice as long
    assert c.banker.pin_wait() == 60
    c.session.journal.close()
    again = make(tmp_path, clock=clock)  # the plug was pulled: the count and the wait stay
    assert again.home.resume() and again.banker.pin_wait() == 60
    clock.now += 60
    assert not again.banker.pin_ok("9999") and again.banker.pin_wait() == 120
    for _ in range(10):  # the waits stop growing at a quarter of an hour
        clock.now += 10_000
        again.banker.pin_ok("9999")
    assert again.banker.pin_wait() == 15 * 60
    clock.now += 15 * 60
    assert again.banker.pin_ok("2468")  # the right PIN clears it all
    assert again.banker.pin_wait() is None and again.banker.pin_tries_left() == 5
    again.session.journal.close()
    third = make(tmp_path, clock=clock)
    assert third.home.resume() and third.banker.pin_tries_left() == 5 and not third.banker.pin_ok("1111") and third.banker.pin_tries_left() == 4


def test_a_game_without_a_pin_never_waits(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c)
    for _ in range(8):
        assert c.banker.pin_ok("1111")
    assert c.banker.pin_wait() is None


def test_stand_ins_allowed_in_one_game_are_not_carried_into_the_next(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c)
    c.settings.set_setting("stand_ins", True)  # the banker allowed a forgotten card's stand-in
    c.banker.end_game()
    c.home.close_game()
    start(c, names=("Ben", "Cy"))
    assert c.session.settings.stand_ins is False
    assert Settings.load(tmp_path / "settings.json")[0].stand_ins is False  # and saved so


def test_each_action_hands_its_moments_to_the_listeners_and_an_undo_says_how_far_back(tmp_path: Path) -> None:
    from ui.moments import EVENT, MONEY, UNDONE

    c = make(tmp_path)
    start(c)
    heard: list[list[tuple[str, str, int]]] = []
    c.session.moment_listeners.append(lambda moments: heard.append([(m.kind, m.code, m.seq) for m in moments]))

    def broken(moments: object) -> None:
        raise RuntimeError("a listener's bug")

    c.session.moment_listeners.append(broken)  # logged; the others still hear, and the action stands
    c.turn.roll()  # Ann rolls 1 + 2 onto Baltic Avenue
    assert heard[-1][:2] == [(EVENT, "rolled", 1), (EVENT, "moved", 1)]
    c.paying.request({"do": "buy"})
    c.taps.card_tapped(CARDS["Ann"])
    assert (MONEY, "buy", 2) in heard[-1]
    c.session.moment_listeners.remove(broken)
    c.banker.undo()
    assert heard[-1] == [(UNDONE, "undo", 1)]
    assert c.session.game is not None and c.session.game.owner[3] == -1
    assert len(heard) == 3
    c.session.apply({"do": "build", "space": 1})  # refused: Ann owns no colour group
    assert len(heard) == 3  # a refused action tells nothing


def test_the_app_offers_the_engine_s_least_bid_where_the_rules_set_the_step(tmp_path: Path) -> None:
    """An auction variant registered from outside ("bids rise by exactly 50"): the app offers the engine's least
    bid, not the high bid plus the table's own step, which it adds only where any raise is allowed."""
    from variantkit import fifty_ruleset

    with fifty_ruleset(tmp_path) as path:
        c = make(tmp_path)
        start(c, ("Ann", "Ben", "Cy"), rules=str(path))
        c.turn.roll()
        c.paying.request({"do": "decline"})
        c.session.settings.bid_step = 25
        c.taps.card_tapped(CARDS["Ben"])
        c.taps.card_tapped(CARDS["Cy"])
        a = c.session.game.auction  # type: ignore[union-attr]
        assert a is not None and (a.high_bid, a.high_bidder) == (51, 2) and c.auction.bid_amount("Ann") == 101
