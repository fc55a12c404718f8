"""The game's report and the hall of fame as a family reaches them (issue 42), in the real app, offscreen, by
touches only. The journal already holds three finished games (written with the Journal API, as `banker
import` writes a game): from the start screen the hall of fame shows their wins; then a short game played
by touch (two names typed on the keyboard page, real dice entered on the dice screen, Ann buys Baltic Avenue
and Ben pays her rent there, the banker's End with its second touch), the game-over screen's report button,
the report page (the winner, every player's lines, the chart's money in and out), Back, Done, and the hall of
fame again with the game just played counted. Run by test_report_e2e.py in a subprocess (Kivy opens one
window per process), in a language and at a size (E2E_SIZE):

    python tests/ui/report_app.py WORKDIR LANGUAGE

Exits 0 when every check passed; otherwise prints the failing step.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from e2e_kit import Step, by_role, play_touch_only, texts, touch, touch_role

from banker.journal import Journal
from banker.script import Header
from ui.app import BankerApp

IMPORTED = [("Ann", "Ben"), ("Cy", "Ann", "Ben"), ("Ann", "Cy")]  # the first player wins each
BALTIC, BALTIC_PRICE, BALTIC_RENT = "Baltic Avenue", 60, 4  # classic's space 3, reached by a roll of 1 and 2


def finished_game(journal: Journal, players: tuple[str, ...]) -> None:
    """A finished classic game: the first player buys Baltic Avenue, every other lands on it and pays its rent,
    and the banker ends the game: the first player is the richest and wins."""
    live = journal.start(Header(rules="classic", players=list(players), seed=1, options={}))
    for k in range(len(players)):
        live.apply({"do": "roll", "dice": [1, 2]})
        if k == 0:
            live.apply({"do": "buy"})
        live.apply({"do": "end_turn"})
    live.apply({"do": "end_game"})


def steps(app: BankerApp) -> list[Step]:
    f = app.flows
    tr = f.session.tr
    report: Any = f.of("ui.flows.report:ReportFlow")

    def on(screen: str) -> Callable[[], bool]:
        return lambda: app.manager.current == screen

    def shown(*lines: str) -> Callable[[], bool]:
        return lambda: all(line in texts(app).splitlines() for line in lines)

    def wins(place: int, name: str, won: int, games: int) -> str:
        return f"{place}. {name}: " + tr("ui.fame.wins", wins=won, games=games, rate=round(100 * won / games))

    def button_of(verb: str) -> Callable[[], bool]:
        """The turn screen's button for `verb`, by its words (the ones the turn flow gives the screen)."""
        return lambda: any(b["id"] == verb and touch(app, b["text"]) for b in f.turn.buttons())

    def dice(a: int, b: int) -> list[Step]:
        return [(f"enter {a}+{b}", lambda: touch(app, tr("ui.btn.enter_dice"))),
                (f"die {a}", lambda: touch_role(app, f"die0-{a}")),
                (f"die {b}", lambda: touch_role(app, f"die1-{b}")),
                ("move by them", lambda: touch(app, tr("ui.dice.done")))]

    def names() -> list[Step]:
        found: list[Step] = []
        for k, name in enumerate(("Ann", "Ben")):
            found.append((f"player {k + 1}'s name", lambda k=k: touch_role(app, f"name {k}")))
            found.append((f"clear name {k + 1}", lambda: touch_role(app, "key clear")))
            for n, letter in enumerate(name):
                ch = letter.lower()
                found.append((f"{name[:n + 1]}", lambda ch=ch: touch_role(app, f"key {ch}")))
            found.append((f"name {k + 1} done", lambda: touch_role(app, "done")))
        return found

    def chart_shows() -> bool:
        """The chart draws the engine's amounts: Ann received Baltic's rent and paid its price, Ben paid the rent;
        each total at its bar's end."""
        chart = by_role(app, "money chart")
        if chart is None:
            return False
        bars = [(p["name"], p["received"], p["paid"]) for p in chart.data["players"]]
        amounts = sorted(w.text for w in chart.children if getattr(w, "role", None) == "chart amount")
        return bars == [("Ann", [["rent", BALTIC_RENT], ["salary", 0], ["other", 0]], BALTIC_PRICE),
                        ("Ben", [["rent", 0], ["salary", 0], ["other", 0]], BALTIC_RENT)] \
            and amounts == sorted([tr.money(BALTIC_RENT), tr.money(BALTIC_PRICE), tr.money(BALTIC_RENT)])

    ann_cash, ben_cash = 1500 - BALTIC_PRICE + BALTIC_RENT, 1500 - BALTIC_RENT
    return [
        ("the start screen", on("home")),
        ("Hall of fame", lambda: touch(app, tr("ui.fame.open"))),
        ("the imported games' wins", lambda: on("fame")() and shown(
            tr("ui.fame.games", count=3), wins(1, "Ann", 2, 3), wins(2, "Cy", 1, 2), wins(3, "Ben", 0, 2))()),
        ("Back", lambda: touch(app, tr("ui.back"))),
        ("New game", lambda: on("home")() and touch(app, tr("ui.home.new"))),
        ("the new-game screen", on("setup")),
        *names(),
        ("the names typed", lambda: f.setup.draft is not None
         and [p.name for p in f.setup.draft.players] == ["Ann", "Ben"]),
        ("Start the game", lambda: touch(app, tr("ui.setup.start"))),
        ("the turn screen", on("table")),
        *dice(1, 2),
        ("Ann buys Baltic Avenue", button_of("buy")),
        ("bought", lambda: f.session.game is not None and f.session.game.players[0].cash == 1500 - BALTIC_PRICE),
        ("Ann ends her turn", button_of("end_turn")),
        *dice(1, 2),
        ("Ben paid the rent", lambda: f.session.game is not None and f.session.game.players[1].cash == ben_cash),
        ("Ben ends his turn", button_of("end_turn")),
        ("Banker", lambda: touch(app, tr("ui.nav.banker"))),
        ("End the game", lambda: on("banker")() and touch_role(app, "confirm end")),
        ("touched again", lambda: touch_role(app, "confirm end")),
        ("the game-over screen", on("over")),
        ("Game report", lambda: touch_role(app, "report")),
        ("the report page", on("report")),
        ("the winner", lambda: (w := by_role(app, "winner")) is not None and w.text == tr("ui.over.winner",
                                                                                          player="Ann")),
        ("the players' lines", shown(
            tr("ui.report.rent_all", player="Ann", amount=BALTIC_RENT, space=BALTIC),
            tr("ui.report.out", spending=tr("ui.report.kind.buy"), amount_out=BALTIC_PRICE),
            tr("ui.report.ended", cash=ann_cash, worth=ann_cash + BALTIC_PRICE),
            tr("ui.report.out", spending=tr("ui.report.kind.rent"), amount_out=BALTIC_RENT),
            tr("ui.report.ended", cash=ben_cash, worth=ben_cash))),
        ("in rank order", lambda: [p["name"] for p in report.report_view()["players"]] == ["Ann", "Ben"]
         and shown("1. Ann", "2. Ben")()),
        ("the chart's money in and out", chart_shows),
        ("Back", lambda: touch(app, tr("ui.back"))),
        ("the game-over screen again", on("over")),
        ("Done", lambda: touch(app, tr("ui.over.close"))),
        ("Hall of fame again", lambda: on("home")() and touch(app, tr("ui.fame.open"))),
        ("the game just played counted", lambda: on("fame")() and shown(
            tr("ui.fame.games", count=4), wins(1, "Ann", 3, 4), wins(2, "Cy", 1, 2), wins(3, "Ben", 0, 3))()),
    ]


def main() -> int:
    work, language = Path(sys.argv[1]), sys.argv[2]
    work.mkdir(parents=True, exist_ok=True)
    with Journal(work / "games.sqlite3") as journal:
        for players in IMPORTED:
            finished_game(journal, players)
    return play_touch_only(work, language, steps)


if __name__ == "__main__":
    sys.exit(main())
