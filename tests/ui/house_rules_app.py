"""House rules as a family sets them (issue 41), in the real app, offscreen, by touches only: from the start
screen a new game, its House rules page (the Free Parking jackpot turned on and its seed raised, two ones'
bonus turned on and raised, "No auctions", the starting cash a step down, for a brands game the bonus for
landing on GO turned off), back to the new-game screen that lists them, Start; then the turn screen's
House rules button shows the same list, and Back goes to the table. After the app has gone, the game in
the journal must have exactly the options touched. Run by test_house_rules_e2e.py in a subprocess (Kivy
opens one window per process), in a language and at a size (E2E_SIZE):

    python tests/ui/house_rules_app.py WORKDIR LANGUAGE RULES

Exits 0 when every check passed; otherwise prints the failing step.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from e2e_kit import Step, by_role, play, texts, touch, touch_role

from banker.journal import Journal
from ui.app import BankerApp
from ui.settings import Settings

# What the family touches on the house rules page, per ruleset, and the game's options it must give.
TOUCHES = {
    "classic": ["house free_parking_pot", "house free_parking_seed +", "house free_parking_seed +",
                "house snake_eyes_bonus", "house snake_eyes_bonus +", "house auction_on_decline",
                "house start_cash -"],
    "brands": ["house start_landing_bonus", "house snake_eyes_bonus", "house snake_eyes_bonus +",
               "house auction_on_decline", "house start_cash -"],
}
EXPECTED = {
    "classic": {"free_parking_pot": True, "free_parking_seed": 100, "snake_eyes_bonus": 550,
                "auction_on_decline": False, "start_cash": 1400, "start_landing_bonus": 0},
    "brands": {"start_landing_bonus": 0, "snake_eyes_bonus": 5500, "auction_on_decline": False,
               "start_cash": 14000, "free_parking_pot": False},
}


def steps(app: BankerApp, rules: str) -> list[Step]:
    f = app.flows
    tr = f.session.tr

    def on(screen: str) -> Callable[[], bool]:
        return lambda: app.manager.current == screen

    def shows(role: str, text: Callable[[], str]) -> Callable[[], bool]:
        return lambda: (found := by_role(app, role)) is not None and found.text == text()

    def listed() -> list[str]:
        return f.setup.in_force()

    def all_seen(lines: Callable[[], list[str]]) -> Callable[[], bool]:
        return lambda: bool(lines()) and all(line in texts(app) for line in lines())

    app_lines: list[list[str]] = [[]]  # what the new-game screen listed, for the turn screen's list

    def remember() -> bool:
        app_lines[0] = listed()
        return bool(app_lines[0])

    found: list[Step] = [
        ("the start screen", on("home")),
        ("New game", lambda: touch(app, tr("ui.home.new"))),
        ("the new-game screen", on("setup")),
    ]
    if rules != "classic":
        found.append((rules, lambda: touch(app, tr(f"ui.rules.{rules}"))))
        found.append((f"{rules} chosen", lambda: f.setup.draft is not None and f.setup.draft.rules == rules))
    found += [
        *([("the rulebook's game: no house rules listed", seen_all(app, lambda: [tr("ui.house.rulebook")]))]
          if rules == "classic" else []),
        ("House rules", lambda: touch_role(app, "house rules")),
        ("the house rules page", on("houserules")),
    ]
    for role in TOUCHES[rules]:
        found.append((role, lambda role=role: touch_role(app, role)))
    expected = EXPECTED[rules]
    found += [
        ("two ones' bonus shown", shows("house snake_eyes_bonus amount",
                                        lambda: tr.money(expected["snake_eyes_bonus"]))),
        ("the starting cash shown", shows("house start_cash amount", lambda: tr.money(expected["start_cash"]))),
        ("Back", lambda: touch(app, tr("ui.back"))),
        ("the new-game screen lists them", lambda: on("setup")() and all_seen(listed)()),
        ("the lines chosen", remember),
        ("Start the game", lambda: touch(app, tr("ui.setup.start"))),
        ("the turn screen", on("table")),
        ("the game's options", lambda: f.session.game is not None and all(
            f.session.game.options.value(k) == v for k, v in expected.items())),
        ("House rules on the bar", lambda: touch(app, tr("ui.nav.rules"))),
        ("the house rules in force", lambda: on("rules")() and all_seen(
            lambda: f.home.house_rules()["lines"])()),
        ("as chosen (the jackpot's line with what is in it now)", lambda: f.home.house_rules()["lines"] == [
            tr("ui.house.free_parking_pot.now", amount=f.session.game.pot)
            if line == tr("ui.house.free_parking_pot.on") else line for line in app_lines[0]]),
        ("Back to the table", lambda: touch(app, tr("ui.back"))),
        ("the turn screen again", on("table")),
    ]
    return found


def seen_all(app: Any, lines: Callable[[], list[str]]) -> Callable[[], bool]:
    return lambda: all(line in texts(app) for line in lines())


def main() -> int:
    work, language, rules = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    work.mkdir(parents=True, exist_ok=True)
    Settings(taps=False, language=language).save(work / "settings.json")
    app = BankerApp(work / "games.sqlite3", hardware=False, phones=False, settings_file=work / "settings.json", voice=False,
                    motion=False)
    failed, script = play(app, lambda: steps(app, rules))
    if failed or script is None:
        return 1
    with Journal(work / "games.sqlite3") as journal:  # the game as the journal keeps it
        game_id = journal.latest_active()
        assert game_id is not None
        game = journal.load(game_id).game
        wrong = {k: game.options.value(k) for k, v in EXPECTED[rules].items() if game.options.value(k) != v}
        if wrong or [p.cash for p in game.players] != [EXPECTED[rules]["start_cash"]] * len(game.players):
            print("FAILED: the journal's game has", wrong, [p.cash for p in game.players])
            return 1
    print(f"{len(script.steps)} steps passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
