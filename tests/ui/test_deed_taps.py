"""Issue 57: what a tagged title deed or deck card does when it is put on the reader during a game (ui/taps.py's
`_tagged_tap`), without a window: the big deed (and its voice), a purchase by deed and card, a trade's deeds, the
deeds screen and the debt panel, an own auction's lot, a physical deck's card drawn; and every refusal, in words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from banker.game import Game
from banker.ruleset import load_ruleset
from flowkit import CARDS, make, start, texts
from ui.flows import Flows
from ui.tags import Tagged, set_key
from ui.view import dark_ink
from ui.voice import Voice


def game_of(c: Flows) -> Game:
    game = c.session.game
    assert game is not None
    return game


def deed(c: Flows, space: int, key: str | None = None) -> str:
    """A sticker on the title deed of `space` (of the game's set, unless `key` says another), as its uid."""
    live = c.session.live
    assert live is not None
    uid = f"DE{space:02d}{key or ''}"
    c.session.tags.assign(uid, Tagged(key or set_key(live.header.rules), "deed", space=space))
    return uid


def card(c: Flows, deck: str, card_id: str) -> str:
    """A sticker on a card of the game's decks, as its uid."""
    live = c.session.live
    assert live is not None
    uid = f"CA{card_id}"
    c.session.tags.assign(uid, Tagged(set_key(live.header.rules), "card", deck=deck, card=card_id))
    return uid


def buttons(c: Flows) -> dict[str, Any]:
    return {b["id"]: b for b in c.turn.buttons()}


CLASSIC_DEEDS = {"1": {"owner": "Ann", "houses": 1}, "3": {"owner": "Ann", "houses": 2}, "5": {"owner": "Ann"},
                 "15": {"owner": "Ann"}, "12": {"owner": "Ben"}, "39": {"owner": "Cy", "mortgaged": True}}


# ---------------------------------------------------------------------- the big deed


def test_a_deed_tapped_with_nothing_waiting_is_shown_big_with_the_rent_now(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c, ("Ann", "Ben", "Cy"), setup={"spaces": CLASSIC_DEEDS})
    c.deeds.show("Ann")  # tapped on the deeds screen's neighbour: Back returns where it was tapped
    c.nav.go("log")
    c.taps.card_tapped(deed(c, 3))
    assert c.nav.screen_name() == "deed"
    big = c.deedcard.view()
    assert (big["name"], big["owner"], big["rent_now"], big["built"]) == (
        "Baltic Avenue", "Owner: Ann", "Rent now: 60", "2 houses")  # the engine's rent with two houses
    assert [line["text"] for line in big["rents"] if line["now"]] == ["With 2 houses: 60"]
    assert big["mortgage"] == "Mortgage value: 30" and not big["mortgaged"]
    c.taps.card_tapped(deed(c, 5))  # another deed on the big page: that one
    big = c.deedcard.view()
    assert big["rent_now"] == "Rent now: 50"  # two railroads
    assert [line["text"] for line in big["rents"] if line["now"]] == ["Owning 2: 50"]
    c.taps.card_tapped(deed(c, 12))
    assert c.deedcard.view()["rent_now"] == "Rent now: 4 × the dice"  # a utility: its multiplier
    c.taps.card_tapped(deed(c, 39))
    big = c.deedcard.view()
    assert big["rent_now"] == "Mortgaged: no rent" and big["mortgaged"]
    assert big["mortgage"] == "Mortgaged: lifting it costs 220" and not any(line["now"] for line in big["rents"])
    c.taps.card_tapped(deed(c, 6))
    big = c.deedcard.view()
    assert big["owner"] == "The bank's: for sale at 100" and big["rent_now"] == "No rent until someone buys it"
    assert big["owner_colour"] is None and big["built"] == ""
    c.deedcard.close()
    assert c.nav.screen_name() == "log"


def test_the_deed_shown_is_said_when_the_voice_is_on(tmp_path: Path) -> None:
    said: list[str] = []

    class Speaker:
        def speak(self, text: str, language: str, volume: int, speed: int, done: Any) -> None:
            said.append(text)
            done()

        def status(self) -> str | None:
            return None

    c = make(tmp_path)
    c.session.moment_listeners.append(Voice(c.session, Speaker()).tell)
    start(c, ("Ann", "Ben", "Cy"), setup={"spaces": CLASSIC_DEEDS})
    c.session.settings.voice = True
    for space in (3, 12, 39, 6):
        c.taps.card_tapped(deed(c, space))
    assert said == ["Baltic Avenue belongs to Ann: rent 60", "Electric Company belongs to Ben: rent 4 times the dice",
                    "Boardwalk belongs to Cy: mortgaged, no rent", "Oriental Avenue belongs to the bank: for sale at 100"]
    c.session.settings.voice = False
    c.taps.card_tapped(deed(c, 5))
    assert len(said) == 4 and c.nav.screen_name() == "deed"  # shown, not said


# ---------------------------------------------------------------------- buying by deed and card


@pytest.mark.parametrize("rules", ["classic", "biznes", "brands"])
def test_the_deed_on_offer_is_bought_by_the_buyers_card(tmp_path: Path, rules: str) -> None:
    c = make(tmp_path)
    start(c, rules=rules)
    c.turn.roll((1, 2))
    game = game_of(c)
    d = game.decision
    assert d is not None and d.kind == "buy"
    c.taps.card_tapped(deed(c, 1))  # another deed: shown big, nothing bought
    assert c.nav.screen_name() == "deed" and c.paying.pending is None
    c.taps.card_tapped(deed(c, d.space))
    assert c.nav.screen_name() == "table"
    assert c.paying.pending is not None and c.paying.pending.action == {"do": "buy"}
    assert c.paying.pending.needs == ["Ann"]
    c.taps.card_tapped(deed(c, 1))  # one thing at a time
    assert texts(c)[-1] == "Tap a player's card to agree first." and c.paying.pending is not None
    c.taps.card_tapped(CARDS["Ben"])
    assert game.owner[d.space] == -1
    c.taps.card_tapped(CARDS["Ann"])
    assert c.paying.pending is None and game.owner[d.space] == 0


def test_with_on_screen_buttons_the_buy_button_agrees_to_the_deeds_purchase(tmp_path: Path) -> None:
    c = make(tmp_path, taps=False)
    start(c)
    c.turn.roll((1, 2))
    c.taps.card_tapped(deed(c, 3))
    game = game_of(c)
    assert game.owner[3] == -1 and c.paying.pending is None  # a deed's tap alone buys nothing
    assert texts(c)[-1] == "Ann may buy Baltic Avenue for 60: touch Buy to agree."
    c.turn.press(buttons(c)["buy"])
    assert game.owner[3] == 0


def test_a_tap_waits_while_a_vote_runs(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c, rules="brands")
    c.clock.ask_pause()
    assert c.clock.vote_kind == "pause"
    c.taps.card_tapped(deed(c, 1))
    assert texts(c)[-1] == "Tap a player's card to agree first." and c.nav.screen_name() == "table"


# ---------------------------------------------------------------------- a trade's deeds


def test_a_trades_deeds_join_and_leave_their_owners_side(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c, ("Ann", "Ben", "Cy"), setup={"spaces": CLASSIC_DEEDS})
    c.trade.start("Ann")
    assert c.trade.offer["to"] == "Ben"
    c.taps.card_tapped(deed(c, 5))
    c.taps.card_tapped(deed(c, 15))
    c.taps.card_tapped(deed(c, 12))
    c.taps.card_tapped(deed(c, 15))  # again: out of the trade
    offer = c.trade.current()
    assert offer["give"]["spaces"] == [5] and offer["get"]["spaces"] == [12]
    c.taps.card_tapped(deed(c, 39))
    assert texts(c)[-1] == "Boardwalk is Cy's: not in this trade."
    c.taps.card_tapped(deed(c, 6))
    assert texts(c)[-1] == "Oriental Avenue is the bank's: not in this trade."
    assert c.nav.screen_name() == "trade" and c.trade.current()["give"]["spaces"] == [5]
    c.trade.agree()
    c.taps.card_tapped(CARDS["Ann"])
    c.taps.card_tapped(CARDS["Ben"])
    game = game_of(c)
    assert game.owner[5] == 1 and game.owner[12] == 0 and game.owner[15] == 0


# ---------------------------------------------------------------------- the deeds screen and the debt panel


def test_a_deed_on_the_deeds_screen_is_chosen_first_and_its_refusal_said(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c, ("Ann", "Ben", "Cy"), setup={"spaces": CLASSIC_DEEDS, "players": {"Cy": {"cash": 100}}})
    c.deeds.show("Ann")
    c.taps.card_tapped(deed(c, 15))  # Ann's second railroad: shown first, its buttons as the engine takes them
    groups = c.deeds.view("Ann")
    first = groups[0]["deeds"][0]
    assert (first["index"], first["chosen"]) == (15, True) and [d["index"] for d in groups[0]["deeds"]] == [15, 5]
    assert [a["verb"] for a in first["actions"] if a["enabled"]] == ["mortgage"]
    assert not any(d["chosen"] for g in groups[1:] for d in g["deeds"])
    assert not [n for n in c.session.notices if n.kind == "error"]  # a deed the engine takes: nothing refused
    c.taps.card_tapped(deed(c, 39))  # Cy's, mortgaged, and Cy cannot pay to lift it: the engine's words
    assert c.deeds.player() == "Cy" and c.deeds.chosen == 39
    assert texts(c)[-1] == "Cy cannot pay 220 for Boardwalk: only 100 in cash"
    assert c.nav.screen_name() == "deeds"
    c.taps.card_tapped(deed(c, 6))
    assert texts(c)[-1] == "Oriental Avenue is the bank's: nobody owns it yet." and c.deeds.player() == "Cy"
    c.deeds.show("Ben")  # a tab: nothing chosen any more
    assert c.deeds.chosen is None


def test_a_debtors_deed_at_the_debt_panel_chooses_it_on_the_deeds_screen(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c, setup={"spaces": {"39": {"owner": "Ben", "hotel": True}, "37": {"owner": "Ben", "hotel": True},
                               "5": {"owner": "Ann"}},
                    "players": {"Ann": {"cash": 100, "position": 34}}})
    c.turn.roll((2, 3))  # Boardwalk with a hotel: 2,000 owed
    game = game_of(c)
    assert game.players[0].debts and c.nav.screen_name() == "table"
    c.taps.card_tapped(deed(c, 37))  # Ben owes nothing: his deed is shown big
    assert c.nav.screen_name() == "deed"
    c.deedcard.close()
    c.taps.card_tapped(deed(c, 5))
    assert c.nav.screen_name() == "deeds" and c.deeds.player() == "Ann" and c.deeds.chosen == 5
    row = c.deeds.view("Ann")[0]["deeds"][0]
    assert row["chosen"] and [a["verb"] for a in row["actions"] if a["enabled"]] == ["mortgage"]
    c.deeds.act("Ann", "mortgage", 5)
    c.taps.card_tapped(CARDS["Ann"])
    assert game.mortgaged[5]


# ---------------------------------------------------------------------- an own auction's lot (biznes)


def test_an_own_auctions_lot_is_chosen_by_its_deed(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c, ("Ann", "Ben", "Cy"), rules="biznes",
          setup={"spaces": {"1": {"owner": "Ann"}, "3": {"owner": "Ann"}, "25": {"owner": "Ann"},
                            "26": {"owner": "Ben"}}})
    c.turn.roll((2, 4))
    c.paying.request({"do": "decline"})
    c.paying.request({"do": "close_auction"})
    c.deeds.act("Ann", "auction_own", 25)
    assert c.nav.screen_name() == "ownauction" and c.auction.own is not None and c.auction.own["space"] == 25
    c.taps.card_tapped(deed(c, 3))
    assert c.auction.own is not None and (c.auction.own["player"], c.auction.own["space"]) == ("Ann", 3)
    game = game_of(c)
    refusal = game.can({"do": "auction_own", "space": 26})
    assert refusal is not None
    c.taps.card_tapped(deed(c, 26))  # Ben's, not his turn: the engine's refusal, the plan as it was
    assert c.session.notices[-1].kind == "error" and c.auction.own["space"] == 3
    c.taps.card_tapped(deed(c, 6))  # the bank's
    assert c.session.notices[-1].kind == "error" and c.auction.own["space"] == 3
    c.auction.own_go()
    c.taps.card_tapped(CARDS["Ann"])
    assert game.auction is not None and game.auction.space == 3


# ---------------------------------------------------------------------- a deck's card


def drawn_by(tmp_path: Path, rules: str, deck: str, by_tap: bool) -> tuple[Flows, str]:
    """A game of `rules` whose first roll lands on a space of `deck`, physical decks on, and the first money card of
    that deck drawn: by its sticker (`by_tap`) or picked from the list."""
    c = make(tmp_path)
    c.session.settings.physical_decks = True
    space = next(s.index for s in load_ruleset(rules).spaces if s.kind == "card" and s.deck == deck and s.index > 3)
    start(c, rules=rules, setup={"players": {"Ann": {"position": space - 3}}})
    c.turn.roll((1, 2))
    game = game_of(c)
    assert game.decision is not None and game.decision.kind == "draw" and game.decision.deck == deck
    chosen = next(i for i in game.decks[deck][1:] if game.ruleset.card_by_id[i].effect == "money")  # not the top one
    if by_tap:
        c.taps.card_tapped(card(c, deck, chosen))
    else:
        c.turn.press(buttons(c)["draw"])
        assert c.nav.screen_name() == "cards"
        c.turn.pick_card(chosen)
    return c, chosen


@pytest.mark.parametrize(("rules", "deck"), [("classic", "chance"), ("biznes", "pomoc"), ("brands", "chance")])
def test_a_deck_card_tapped_is_the_card_drawn_as_if_picked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           rules: str, deck: str) -> None:
    monkeypatch.setattr("ui.flows.setup.secrets.randbits", lambda bits: 57)  # both games shuffled alike
    tapped, chosen = drawn_by(tmp_path / "tap", rules, deck, True)
    picked, _ = drawn_by(tmp_path / "pick", rules, deck, False)
    a, b = game_of(tapped), game_of(picked)
    assert a.decision is None or a.decision.kind != "draw"
    assert a.to_json() == b.to_json()
    last = [f.session.journal.actions(f.session.live.id)[-1] for f in (tapped, picked)]  # type: ignore[union-attr]
    assert last[0] == last[1] and last[0]["do"] == "draw" and last[0]["card"] == chosen
    assert tapped.nav.screen_name() == "table"


def test_a_deck_card_is_refused_from_another_deck_held_when_none_is_due_or_with_the_banks_decks(
        tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c, ("Ann", "Ben", "Cy"), setup={"players": {"Ann": {"position": 4}, "Cy": {"jail_cards": 1}}})
    game = game_of(c)
    held = game.players[2].jail_cards[0]
    held_deck = game.ruleset.card_by_id[held].deck
    dividend = card(c, "chance", "ch-dividend-50")
    c.taps.card_tapped(dividend)
    assert texts(c)[-1] == "The banker shuffles and draws the cards: turn on our own physical decks in Settings."
    c.session.settings.physical_decks = True
    c.taps.card_tapped(dividend)
    assert texts(c)[-1] == "No card is to be drawn now."
    c.turn.roll((1, 2))  # Chance
    c.taps.card_tapped(card(c, "community_chest", "cc-sale-45"))
    assert texts(c)[-1] == "That is a Community Chest card: draw from Chance."
    c.taps.card_tapped(card(c, held_deck, held))
    assert texts(c)[-1].startswith("Cy holds that card, so it is not in the deck: Get Out of Jail Free")
    assert game.players[0].cash == 1500 and game.decision is not None and game.decision.kind == "draw"
    c.taps.card_tapped(dividend)
    assert game.players[0].cash == 1550 and game.decision is None


# ---------------------------------------------------------------------- stickers of no use here


def test_a_sticker_of_another_set_is_refused_by_name_and_an_unknown_one_stays_unknown(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c)
    c.taps.card_tapped(deed(c, 39, key="brands"))
    assert texts(c)[-1].startswith("That sticker is ") and texts(c)[-1].endswith(" (Brands): not of this game's set.")
    assert load_ruleset("brands").spaces[39].name in texts(c)[-1]
    c.session.tags.assign("CHB", Tagged("biznes", "card", deck="pomoc", card="pomoc-dotacja-100"))
    c.taps.card_tapped("CHB")
    assert texts(c)[-1].endswith(" (Biznes): not of this game's set.") and c.nav.screen_name() == "table"
    c.taps.card_tapped("0DDBA11")
    assert texts(c)[-1] == "That card is not registered in this game."
    c.session.tags.assign("GONE", Tagged("classic", "deed", space=4))  # no title deed there (a board changed)
    c.taps.card_tapped("GONE")
    assert texts(c)[-1] == "That sticker's card is not in this game any more: tag it again in Settings."


def test_the_big_deed_stays_over_an_auction_to_see_the_lots_rents(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c)
    c.turn.roll((1, 2))
    c.paying.request({"do": "decline"})  # Baltic Avenue goes to auction
    assert game_of(c).auction is not None and c.nav.screen_name() == "auction"
    c.taps.card_tapped(deed(c, 3))
    assert c.nav.screen_name() == "deed" and c.deedcard.view()["owner"] == "The bank's: for sale at 60"
    c.deedcard.close()
    assert c.nav.screen_name() == "auction"


def test_the_colour_band_of_a_light_group_is_written_in_dark_ink() -> None:
    assert dark_ink("#A9D8F0") and dark_ink("#FFEB3B") and dark_ink("#1FB25A")  # light blue, yellow, green
    assert not dark_ink("#8B4A9C") and not dark_ink("#444444") and not dark_ink("#0072BB")  # brown-purple, railroads, blue
