"""A new game's draft as a family meets it (issue 54, points 1 and 10), in the real app, offscreen, by touches
and card taps only. Run by test_draft.py in a subprocess (Kivy opens one window per process):

    python tests/ui/draft_app.py WORKDIR LANGUAGE SCENARIO

SCENARIO:
- "trips": cards needed (the settings' default). New game, a third player, three house rules and a PIN set by
  touch; Start refused (no cards); then every way away from the new game and back (Back to the start screen
  and Settings, where on-screen buttons are switched on; the House rules page; the game already going; a name's
  keyboard; the hall of fame; Settings' editions): each time the draft is the same, on the screen too. Start
  then starts the game, and the draft's file is gone.
- "set-up": on-screen buttons. New game, a third player, three house rules, a colour changed and a PIN, by
  touch, then the app stops; the draft as set up is written to WORKDIR/expected.json for "taken-up".
- "taken-up": a new app on the same data folder: New game shows the draft of "set-up" (its names, colour,
  house rules and PIN on the screen); Start starts that game.
- "fresh": New game shows today's two players (the draft's file, if any, was not taken up) and can start.
- "edition": WORKDIR/data's edition "seaside" chosen by touch, a third player added; the app stops.
- "last-players": a card reader (a pseudo-terminal): New game, a third player, player 2's colour changed, the
  three cards tapped; Start, the banker's End with its second touch, Done; New game again shows the same
  players in the same order, with their colours and their cards registered.

Exits 0 when every check passed; otherwise prints the failing step.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

WORK = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(".")
os.environ["XDG_DATA_HOME"] = str(WORK / "data")  # the family's editions: the test's own

from e2e_kit import Cards, Step, by_role, labels, passed, play, run_app, texts, touch, touch_role  # noqa: E402  (sets Kivy up first)

from ui.app import BankerApp  # noqa: E402
from ui.drafts import draft_path  # noqa: E402
from ui.settings import Settings  # noqa: E402

HOUSE = ("house free_parking_pot", "house snake_eyes_bonus", "house auction_on_decline")
CARDS = ("04A32B1C", "04B7771A2C5E80", "0455AA12")


def state(app: BankerApp) -> dict[str, Any] | None:
    """The draft on the new-game screen, as the family sees it: None when the screen is not up."""
    d = app.flows.setup.draft
    if d is None or app.manager.current != "setup":
        return None
    return {"rules": d.rules, "players": [[p.name, p.colour, p.card] for p in d.players], "options": dict(d.options),
            "pin_digits": pin.text.count("\u2022") if (pin := by_role(app, "setup pin")) is not None else None,
            "in_force": app.flows.setup.in_force()}


def on(app: BankerApp, screen: str) -> Callable[[], bool]:
    return lambda: app.manager.current == screen


def the_same(app: BankerApp, kept: dict[str, Any], where: str) -> Step:
    """The new-game screen again, its draft as `kept` holds it, and its names and house rules on the screen."""
    def check() -> bool:
        now = state(app)
        if now is None:
            return False
        if now != kept.get("draft"):
            raise AssertionError(f"after {where}: {now} != {kept.get('draft')}")
        shown = texts(app).splitlines() + labels(app)  # the names are on buttons
        return all(p[0] in shown for p in now["players"]) and all(line in shown for line in now["in_force"])
    return (f"the same draft after {where}", check)


def setting_up(app: BankerApp, *, colour: bool) -> list[Step]:
    """New game, a third player, three house rules, player 3's colour changed (`colour`) and a PIN, by touch."""
    tr = app.flows.session.tr
    found: list[Step] = [
        ("the start screen", on(app, "home")),
        ("New game", lambda: touch(app, tr("ui.home.new"))),
        ("the new-game screen", on(app, "setup")),
        ("two players", lambda: (s := state(app)) is not None and len(s["players"]) == 2),
        ("Add a player", lambda: touch(app, tr("ui.setup.add_player"))),
        ("three players", lambda: (s := state(app)) is not None and len(s["players"]) == 3),
        ("House rules", lambda: touch_role(app, "house rules")),
        ("the house rules page", on(app, "houserules")),
        *((role, lambda role=role: touch_role(app, role)) for role in HOUSE),
        ("Back", lambda: touch(app, tr("ui.back"))),
        ("three house rules listed", lambda: (s := state(app)) is not None and len(s["in_force"]) == 3),
    ]
    if colour:
        found.append(("player 3's colour", lambda: touch_role(app, "colour 2")))
    found += [
        ("the PIN's pad", lambda: touch_role(app, "setup pin")),
        ("the digit pad", on(app, "digits")),
        *((f"digit {d}", lambda d=d: touch_role(app, f"digit {d}")) for d in "2468"),
        ("OK", lambda: touch_role(app, "digit ok")),
        ("the PIN set", lambda: (s := state(app)) is not None and s["pin_digits"] == 4),
    ]
    return found


def trips(app: BankerApp) -> list[Step]:
    tr = app.flows.session.tr
    kept: dict[str, Any] = {}

    def remember() -> bool:
        kept["draft"] = state(app)
        return kept["draft"] is not None

    def new_game(where: str) -> list[Step]:
        return [(f"{where}: New game", lambda: on(app, "home")() and touch(app, tr("ui.home.new"))),
                the_same(app, kept, where)]

    back = ("Back", lambda: touch(app, tr("ui.back")))
    return [
        *setting_up(app, colour=True),
        ("the draft as set up", remember),
        ("Start", lambda: touch(app, tr("ui.setup.start"))),
        ("refused: no cards", lambda: tr("ui.setup.need_cards") in texts(app) and on(app, "setup")()),
        # Back to the start screen and Settings, where the family switches to on-screen buttons
        back,
        ("Settings", lambda: on(app, "home")() and touch(app, tr("ui.settings"))),
        ("the settings", on(app, "settings")),
        ("on-screen buttons", lambda: touch_role(app, "setting taps")),
        ("switched", lambda: not app.flows.session.settings.taps),
        back,
        *new_game("Settings"),
        ("House rules", lambda: touch_role(app, "house rules")),
        ("the house rules page", on(app, "houserules")),
        back,
        the_same(app, kept, "House rules"),
        ("Game already going", lambda: touch(app, tr("ui.setup.in_progress"))),
        ("the game already going", on(app, "inprogress")),
        back,
        the_same(app, kept, "Game already going"),
        ("a name's keyboard", lambda: touch_role(app, "name 2")),
        ("the keyboard", on(app, "keyboard")),
        ("the keyboard's Cancel", lambda: touch(app, tr("ui.cancel"))),
        the_same(app, kept, "the keyboard"),
        back,
        ("Hall of fame", lambda: on(app, "home")() and touch(app, tr("ui.fame.open"))),
        ("the hall of fame", on(app, "fame")),
        back,
        *new_game("the hall of fame"),
        back,
        ("Settings again", lambda: on(app, "home")() and touch(app, tr("ui.settings"))),
        ("Your editions", lambda: touch_role(app, "editions")),
        ("the editions page", on(app, "editions")),
        back,
        ("back in the settings", on(app, "settings")),
        back,
        *new_game("the editions"),
        ("Start", lambda: touch(app, tr("ui.setup.start"))),
        ("the turn screen", on(app, "table")),
        ("the game as set up", lambda: app.flows.session.game is not None
         and [p.name for p in app.flows.session.game.players] == [p[0] for p in kept["draft"]["players"]]
         and all(app.flows.session.game.options.value(k) == v for k, v in kept["draft"]["options"].items())),
        ("the draft's file gone", lambda: not draft_path(WORK / "settings.json").exists()),
    ]


def set_up(app: BankerApp) -> list[Step]:
    def written() -> bool:
        s = state(app)
        if s is None or not draft_path(WORK / "settings.json").exists():
            return False
        (WORK / "expected.json").write_text(json.dumps(s), "utf-8")
        return True
    return [*setting_up(app, colour=True), ("the draft kept", written)]


def taken_up(app: BankerApp) -> list[Step]:
    tr = app.flows.session.tr
    kept = {"draft": json.loads((WORK / "expected.json").read_text("utf-8"))}
    return [
        ("the start screen", on(app, "home")),
        ("New game", lambda: touch(app, tr("ui.home.new"))),
        the_same(app, kept, "a restart"),
        ("the PIN's dots", lambda: tr("ui.setup.pin_shown", dots="\u2022" * 4) in labels(app)),
        ("Start", lambda: touch(app, tr("ui.setup.start"))),
        ("the turn screen", on(app, "table")),
        ("the PIN kept", lambda: "pin" in app.flows.session.meta),
        ("the draft's file gone", lambda: not draft_path(WORK / "settings.json").exists()),
    ]


def fresh(app: BankerApp) -> list[Step]:
    tr = app.flows.session.tr
    return [
        ("the start screen", on(app, "home")),
        ("New game", lambda: touch(app, tr("ui.home.new"))),
        ("two players, classic, no house rules", lambda: (s := state(app)) is not None and len(s["players"]) == 2
         and s["rules"] == "classic" and s["options"] == {} and s["pin_digits"] == 0),
        ("Start", lambda: touch(app, tr("ui.setup.start"))),
        ("the turn screen", on(app, "table")),
    ]


def edition(app: BankerApp) -> list[Step]:
    tr = app.flows.session.tr
    return [
        ("the start screen", on(app, "home")),
        ("New game", lambda: touch(app, tr("ui.home.new"))),
        ("Seaside Town", lambda: touch_role(app, "ruleset seaside")),
        ("Add a player", lambda: touch(app, tr("ui.setup.add_player"))),
        ("kept", lambda: (s := state(app)) is not None and s["rules"] == "seaside" and len(s["players"]) == 3
         and "seaside" in draft_path(WORK / "settings.json").read_text("utf-8")),
    ]


def last_players(app: BankerApp, cards: Cards) -> list[Step]:
    tr = app.flows.session.tr
    kept: dict[str, Any] = {}

    def remember() -> bool:
        s = state(app)
        if s is None or any(p[2] is None for p in s["players"]):
            return False
        kept["draft"] = s
        return True

    return [
        ("the start screen", on(app, "home")),
        ("New game", lambda: touch(app, tr("ui.home.new"))),
        ("Add a player", lambda: touch(app, tr("ui.setup.add_player"))),
        ("player 2's colour", lambda: touch_role(app, "colour 1")),
        ("player 1's card", lambda: touch_role(app, "card 0")),
        *((f"card {uid}", cards.tap(uid)) for uid in CARDS),
        ("three cards registered", remember),
        ("Start", lambda: touch(app, tr("ui.setup.start"))),
        ("the turn screen", on(app, "table")),
        ("Banker", lambda: touch(app, tr("ui.nav.banker"))),
        ("End the game", lambda: on(app, "banker")() and touch_role(app, "confirm end")),
        ("touched again", lambda: touch_role(app, "confirm end")),
        ("the game-over screen", on(app, "over")),
        ("Done", lambda: touch(app, tr("ui.over.close"))),
        ("New game again", lambda: on(app, "home")() and touch(app, tr("ui.home.new"))),
        the_same(app, kept, "the game"),
        ("their cards shown", lambda: labels(app).count(tr("ui.setup.card_ok")) == 3),
    ]


def main() -> int:
    language, scenario = sys.argv[2], sys.argv[3]
    WORK.mkdir(parents=True, exist_ok=True)
    if scenario == "last-players":
        Settings(language=language, voice=False).save(WORK / "settings.json")
        return passed(*run_app(WORK, lambda app, reader: last_players(app, Cards(reader))))
    else:
        if not (WORK / "settings.json").exists():
            Settings(taps=scenario == "trips", language=language, voice=False).save(WORK / "settings.json")
        app = BankerApp(WORK / "games.sqlite3", hardware=False, settings_file=WORK / "settings.json", voice=False,
                        motion=False)
        make = {"trips": trips, "set-up": set_up, "taken-up": taken_up, "fresh": fresh, "edition": edition}[scenario]
        return passed(*play(app, lambda: make(app)))


if __name__ == "__main__":
    sys.exit(main())
