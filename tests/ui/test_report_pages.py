"""The game's report page and the hall of fame without a window (ui/flows/report.py): the words a family reads
after a game, in two languages, over a real scratch journal; and how the pages are reached."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import flowkit
from banker.report import family_stats
from ui.flows import Flows
from ui.flows.report import ReportFlow, fame_view, money_view, report_view

FLOW = "ui.flows.report:ReportFlow"
# Ann on Go's neighbour with two houses on Mediterranean and one on Baltic; Ben with Reading and a mortgaged Boardwalk.
SETUP = {"players": {"Ann": {"position": 2}},
         "spaces": {"1": {"owner": "Ann", "houses": 2}, "3": {"owner": "Ann", "houses": 1},
                    "5": {"owner": "Ben"}, "39": {"owner": "Ben", "mortgaged": True}}}


def report_flow(c: Flows) -> ReportFlow:
    flow = c.of(FLOW)
    assert isinstance(flow, ReportFlow)
    return flow


def played(c: Flows) -> None:
    """Ann lands on Reading (25 to Ben), Ben on Baltic with a house (20 to Ann), then the banker ends it."""
    flowkit.start(c, setup=SETUP)
    c.turn.roll()
    c.paying.request({"do": "end_turn"})
    c.turn.roll()
    c.paying.request({"do": "end_turn"})
    c.banker.end_game()


def test_a_finished_games_report_in_plain_words(tmp_path: Path) -> None:
    c = flowkit.make(tmp_path, taps=False)
    played(c)
    assert c.mode == "over"
    v = report_flow(c).report_view()
    assert v["title"] == "The game's report"
    assert v["winner"] == "Ben wins!"
    assert v["length"] == "The game lasted 3 turns."  # the test clock stands still: no minutes
    assert v["turning"] == "The turning point, turn 1: Ann paid Ben 25 (rent)."
    assert [(p["place"], p["name"]) for p in v["players"]] == [(1, "Ben"), (2, "Ann")]  # by rank
    ben, ann = v["players"]
    assert ben["lines"] == ["Ben collected 25 in rent, all of it from Reading Railroad.",
                            "Most money out: rent (20).",
                            "Ended with 1,505 in cash, worth 1,905 in all."]
    assert ann["lines"] == ["Ann collected 20 in rent, all of it from Baltic Avenue.",
                            "Most money out: rent (25).",
                            "Ended with 1,495 in cash, worth 1,765 in all."]
    assert ben["colour"] == c.session.colour("Ben")


def test_the_report_in_polish(tmp_path: Path) -> None:
    c = flowkit.make(tmp_path, taps=False)
    played(c)
    c.settings.set_language("pl")
    v = report_flow(c).report_view()
    assert v["title"] == "Podsumowanie gry" and v["winner"] == "Wygrywa Ben!"
    assert v["length"] == "Długość gry: 3 tury."
    assert v["turning"] == "Punkt zwrotny, tura 1: Ann płaci 25 (czynsze) – dostaje Ben."
    assert v["players"][0]["lines"] == ["Ben — zebrany czynsz: 25, w całości z pola Reading Railroad.",
                                        "Najwięcej wydatków: czynsze (20).",
                                        "Na koniec: 1\u00a0505 w gotówce, majątek 1\u00a0905."]


def report(players: list[dict[str, Any]], minutes: float | None = 95.4, turns: int = 42) -> dict[str, Any]:
    return {"game": 7, "rules": "classic", "status": "finished", "turns": turns, "minutes": minutes,
            "winner": "Ann", "players": players}


def player(name: str, rank: int, **kw: Any) -> dict[str, Any]:
    p = {"name": name, "rank": rank, "cash_start": 1500, "cash_end": 0, "net_worth": 0, "received": {}, "paid": {},
         "best_property": None, "biggest_payment": None}
    p.update(kw)
    return p


def test_the_lines_from_the_engines_report(tmp_path: Path) -> None:
    """Rent with the street that brought the most of it, the biggest kinds in and out besides rent, the
    turning point the largest payment of all (to the bank, in the bank's words), minutes when known."""
    c = flowkit.make(tmp_path, taps=False)
    flowkit.start(c)
    s = c.session
    ann = player("Ann", 1, cash_end=3210, net_worth=4410,
                 received={"rent": 2340, "salary": 1600, "trade": 100},
                 paid={"buy": 1800, "rent": 300, "tax": 1900},
                 best_property={"space": "Boardwalk", "rent": 1500},
                 biggest_payment={"amount": 400, "to": "Ben", "kind": "buy", "turn": 9})
    ben = player("Ben", 2, received={"salary": 400}, paid={"rent": 2340},
                 biggest_payment={"amount": 1500, "to": "Ann", "kind": "rent", "turn": 31})
    cy = player("Cy", 3, paid={"casino_bet": 75},
                biggest_payment={"amount": 75, "to": "bank", "kind": "casino_bet", "turn": None})
    v = report_view(s, report([ann, ben, cy]))
    assert v["length"] == "The game lasted 42 turns, 95 minutes."
    assert v["turning"] == "The turning point, turn 31: Ben paid Ann 1,500 (rent)."
    assert v["players"][0]["lines"] == [
        "Ann collected 2,340 in rent, 1,500 of it from Boardwalk.",
        "Most money in: salary (1,600); most money out: taxes (1,900).",
        "Ended with 3,210 in cash, worth 4,410 in all."]
    assert v["players"][1]["lines"] == ["Most money in: salary (400); most money out: rent (2,340).", "Went bankrupt."]
    assert v["players"][2]["lines"] == ["Most money out: other payments (75).", "Went bankrupt."]
    alone = report_view(s, report([cy], minutes=None, turns=1))
    assert alone["length"] == "The game lasted 1 turn."
    assert alone["turning"] == "The largest payment: Cy paid the bank 75 (other payments)."
    c.settings.set_language("ru")
    v = report_view(s, report([ann, ben, cy]))
    assert v["length"] == "Длительность игры: 42 хода, 95 минут."
    assert v["players"][0]["lines"][0] == "Ann — собранная рента: 2\u00a0340, из них 1\u00a0500 с поля Boardwalk."


def finish(c: Flows, names: tuple[str, ...]) -> None:
    """Ann buys Baltic Avenue, each other player lands on it (4 rent to Ann), then the banker ends the game."""
    flowkit.start(c, names)
    c.turn.roll()
    c.paying.request({"do": "buy"})
    for _ in names[1:]:
        c.paying.request({"do": "end_turn"})
        c.turn.roll()
    c.banker.end_game()
    c.home.close_game()


def test_the_hall_of_fame_over_two_finished_games_and_one_going(tmp_path: Path) -> None:
    c = flowkit.make(tmp_path, taps=False)
    finish(c, ("Ann", "Ben"))  # Ann wins both
    finish(c, ("Ann", "Ben", "Cy"))
    flowkit.start(c, ("Cy", "Ben"))  # going: not counted
    c.turn.roll()
    c.paying.request({"do": "buy"})
    c.banker.end_game()
    c.banker.undo()  # taken back: the game goes on
    assert c.mode == "table"
    flow = report_flow(c)
    v = flow.fame_view()
    assert v["empty"] is False and v["title"] == "Hall of fame"
    assert v["games"] == "Finished games: 2"
    assert [(p["name"], p["wins"]) for p in v["players"]] == [
        ("Ann", "won 2 of 2 (100%)"), ("Ben", "won 0 of 2 (0%)"), ("Cy", "won 0 of 1 (0%)")]
    assert v["players"][0]["more"] == "Rent collected: 12; best game: no. 2, worth 1,508."
    assert v["players"][1]["more"] == "Rent collected: 0; best game: no. 1, worth 1,496."
    assert v["lengths"] == ["Longest game: no. 2 (3 turns)", "Shortest game: no. 1 (2 turns)"]
    c.settings.set_language("cs")
    stats = family_stats(c.session.journal)
    v = fame_view(c.session, {**stats, "players": stats["players"][:1]})
    assert v["games"] == "Dokončené hry: 2"
    assert v["players"] == [{"name": "Ann", "wins": "výhry: 2 z 2 (100 %)",
                             "more": "Vybrané nájemné: 12; nejlepší hra: č. 2, majetek 1\u00a0508."}]


def test_an_empty_history_says_so_kindly(tmp_path: Path) -> None:
    c = flowkit.make(tmp_path, taps=False)
    flow = report_flow(c)
    flow.open_fame()
    assert c.nav.screen_name() == "fame"
    v = flow.fame_view()
    assert v == {"title": "Hall of fame", "games": "No finished games yet. The first win will be remembered here!",
                 "players": [], "lengths": [], "empty": True, "past": [], "past_title": "Each game's report"}
    c.settings.set_language("pl")
    assert flow.fame_view()["games"].startswith("Nie ma jeszcze ukończonych gier")


def test_the_pages_are_reached_from_the_game_over_and_the_start_screens(tmp_path: Path) -> None:
    c = flowkit.make(tmp_path, taps=False)
    flow = report_flow(c)
    flow.open_report()
    assert c.nav.screen_name() == "home"  # no game over: the report is not a page of the start screen
    played(c)
    assert c.nav.screen_name() == "over"
    flow.open_report()
    assert c.nav.screen_name() == "report"
    flow.open_fame()
    assert c.nav.screen_name() == "over"  # the hall of fame is the start screen's
    c.nav.go("over")
    c.home.close_game()
    assert c.nav.screen_name() == "home"
    flow.open_fame()
    assert c.nav.screen_name() == "fame"
    assert flow.fame_view()["games"] == "Finished games: 1"  # the game just over has joined the history


def test_the_pages_do_not_come_back_once_the_table_has_moved_on(tmp_path: Path) -> None:
    c = flowkit.make(tmp_path, taps=False)
    flow = report_flow(c)
    flow.open_fame()
    c.setup.new_game()
    assert c.nav.screen_name() == "setup"
    c.setup.cancel()
    assert c.mode == "home"
    assert c.nav.screen_name() == "home"  # not the hall of fame again
    played(c)
    flow.open_report()
    c.home.close_game()
    c.setup.new_game()
    c.setup.cancel()
    assert c.nav.screen_name() == "home"


def test_the_charts_money_in_and_out_is_the_reports(tmp_path: Path) -> None:
    """The report page's chart (ui/chart.py's MoneyBars) draws what the engine's report says: per player, in rank
    order, rent, salary and the rest received (adding up to all received), and all paid; with the legend's words."""
    c = flowkit.make(tmp_path, taps=False)
    played(c)
    flow = report_flow(c)
    v = flow.money_view()
    assert (v["title"], v["paid"], v["received"]) == ("Money in and out", "Paid out", "Received")
    assert v["kinds"] == [["rent", "rent"], ["salary", "salary"], ["other", "the rest"]]
    assert v["players"] == [
        {"name": "Ben", "colour": c.session.colour("Ben"), "received": [["rent", 25], ["salary", 0], ["other", 0]],
         "paid": 20, "received_text": "25", "paid_text": "20"},
        {"name": "Ann", "colour": c.session.colour("Ann"), "received": [["rent", 20], ["salary", 0], ["other", 0]],
         "paid": 25, "received_text": "20", "paid_text": "25"}]
    s = c.session
    ann = player("Ann", 1, received={"rent": 2340, "salary": 400, "trade": 100, "sell": 35},
                 paid={"buy": 1200, "build": 500, "rent": 85})
    ben = player("Ben", 2, received={"salary": 200}, paid={})
    c.settings.set_language("pl")
    v = money_view(s, report([ben, ann]))
    assert v["kinds"] == [["rent", "czynsze"], ["salary", "pensja"], ["other", "reszta"]]
    assert [p["name"] for p in v["players"]] == ["Ann", "Ben"]  # by rank, whatever the seats
    first = v["players"][0]
    assert first["received"] == [["rent", 2340], ["salary", 400], ["other", 135]]
    assert sum(amount for _kind, amount in first["received"]) == 2875 and first["paid"] == 1785
    assert (first["received_text"], first["paid_text"]) == ("2\u00a0875", "1\u00a0785")
    assert v["players"][1]["received"] == [["rent", 0], ["salary", 200], ["other", 0]] and v["players"][1]["paid"] == 0


def test_the_hall_of_fame_says_it_is_counting_until_the_history_is_in(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """While the app is still reading the journal's summaries beside the first screen (ui/history.py), the hall
    of fame opens at once and says so; once they are in, the next drawing shows them."""
    from ui.history import History

    c = flowkit.make(tmp_path, taps=False)
    played(c)
    c.home.close_game()
    monkeypatch.setattr(History, "reading", property(lambda self: True))
    flow = report_flow(c)
    flow.open_fame()
    assert c.nav.screen_name() == "fame"
    v = flow.fame_view()
    assert v["games"] == "Counting the games played so far…" and v["empty"] is True and v["players"] == []
    c.settings.set_language("ru")
    assert flow.fame_view()["games"] == "Подсчитываю сыгранные игры…"
    monkeypatch.undo()  # the reading is in: the page is drawn again, and then shows it
    c.settings.set_language("en")
    drawn: list[str] = []
    c.session.listeners.append(lambda: drawn.append(c.nav.screen_name()))
    flow.history_in()
    assert drawn == ["fame"]
    assert flow.fame_view()["games"] == "Finished games: 1"
    flow.history_in()  # no longer counting: nothing to draw again
    assert drawn == ["fame"]
    c.nav.go("home")
    drawn.clear()
    flow.history_in()  # another page: left alone
    assert drawn == []
