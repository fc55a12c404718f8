"""End-to-end: the real app, a card reader on a pseudo-terminal and the mock GPIO
dice button, played through touches, card taps and button presses only (the helpers in e2e_kit.py; no
text is set and no key sent, tests/ui/test_touch_only.py).

Run by test_app_e2e.py in a subprocess (Kivy opens one window per process):

    python tests/ui/e2e_app.py play|resume|debt|biznes|brands|phones WORKDIR

Exits 0 when every check passed; otherwise prints the failing step.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from e2e_kit import Step, button, decode_qr, enter, labels, press_button, run_app, seen, texts, touch, touch_role
from kivy.clock import Clock

from banker.journal import Journal
from banker.model import Decision
from banker.version import version_line
from hardware.emulate import LineReaderEmulator
from ui.app import BankerApp
from ui.i18n import winners_msg

ANN, BEN = "04A32B1C", "04B7771A2C5E80"


def type_names(app: BankerApp, names: tuple[str, ...] = ("Ann", "Ben")) -> list[tuple[str, Callable[[], bool]]]:
    """Each player's name typed on the on-screen keyboard, a touch a key: the name's button, Clear (the
    ready name goes), the letters (the first is a capital by itself), Done."""
    steps: list[tuple[str, Callable[[], bool]]] = []
    for k, name in enumerate(names):
        steps.append((f"player {k + 1}'s name", lambda k=k: touch_role(app, f"name {k}")))
        steps.append((f"clear name {k + 1}", lambda: touch_role(app, "key clear")))
        for n, letter in enumerate(name):
            ch = letter.lower()
            steps.append((f"name {k + 1}: {name[:n + 1]}", lambda ch=ch: touch_role(app, f"key {ch}")))
        steps.append((f"name {k + 1} done", lambda: touch_role(app, "done")))
    names_now = lambda: [p.name for p in app.flows.setup.draft.players] if app.flows.setup.draft else []  # noqa: E731
    steps.append(("the names typed", lambda: names_now()[:len(names)] == list(names)))
    return steps


def register(app: BankerApp, reader: LineReaderEmulator) -> list[tuple[str, Callable[[], bool]]]:
    c = app.flows
    return [
        *type_names(app),
        ("register Ann", lambda: touch(app, "Tap card to register")),
        ("Ann taps", lambda: reader.tap(ANN) or True),
        ("Ann's card registered", lambda: c.setup.draft is not None and c.setup.draft.players[0].card == ANN),
        ("Ben taps", lambda: reader.tap(BEN) or True),
        ("Ben's card registered", lambda: c.setup.draft is not None and c.setup.draft.players[1].card == BEN),
    ]


def break_once(app: BankerApp) -> bool:
    """Make the next roll raise, as a bug would."""
    c = app.flows
    real = c.turn.roll

    def broken(*args: Any) -> None:
        c.turn.roll = real  # type: ignore[method-assign]
        raise RuntimeError("a bug")

    c.turn.roll = broken  # type: ignore[method-assign]
    return True


def debt_game(work: Path, reader: LineReaderEmulator) -> list[tuple[str, Callable[[], bool]]]:
    """A game already under way, physical card decks, a debt nobody can pay, and a bankruptcy."""
    app: BankerApp = App_holder["app"]
    c = app.flows
    steps: list[tuple[str, Callable[[], bool]]] = [
        ("settings from home", lambda: touch(app, "Settings")),
        ("physical decks", lambda: touch(app, "Cards: the banker shuffles and draws")),
        ("set", lambda: c.session.settings.physical_decks),
        ("back home", lambda: touch(app, "Back")),
        ("new game", lambda: touch(app, "New game")),
        *register(app, reader),
        ("game already going", lambda: touch(app, "Game already going? Enter it")),
        ("Park Place is Ann's", lambda: touch_role(app, "owner 37")),
        ("Boardwalk is Ann's", lambda: touch_role(app, "owner 39")),
    ]
    for k in range(5):  # four houses, then the hotel, on each lot: evenly
        steps += [(f"Park Place level {k + 1}", lambda: touch_role(app, "level 37")),
                  (f"Boardwalk level {k + 1}", lambda: touch_role(app, "level 39"))]
    for k in range(3):
        steps.append((f"Ben one space back ({k + 1})", lambda: touch_role(app, "Ben position -")))
    steps += [
        ("Ben stands on Park Place", seen(app, "Standing on: Park Place")),
        ("start", lambda: touch(app, "Start the game")),
        ("the table", seen(app, "Ann's turn")),
        # The touch goes through Kivy's own loop, as a finger's does, so the app's handler meets the error.
        ("a bug in a button", lambda: break_once(app)
         and Clock.schedule_once(lambda dt: touch(app, "Roll the dice"), 0) is not None),
        ("is reported, and the app goes on", seen(app, "Something went wrong, but the game is safe")),
        ("the setup holds", lambda: c.session.game is not None and c.session.game.level[39] == c.session.game.hotel_level
         and c.session.game.players[1].position == 37),
        *enter(app, 3, 4),
        ("draw", lambda: touch(app, "Draw a Chance card")),
        ("pick the card drawn", lambda: touch(app, "Pay poor tax of 15.")),
        ("paid the card", lambda: c.session.game.players[0].cash == 1485),  # type: ignore[union-attr]
        ("end Ann's turn", lambda: touch(app, "End turn")),
        *enter(app, 1, 1),
        ("the debt", seen(app, f"Ben owes Ann {c.session.tr.money(2000)}")),
        ("declare bankruptcy", lambda: touch(app, "Declare bankruptcy")),
        ("Ben must tap", seen(app, "Ben: tap your card to declare bankruptcy")),
        ("Ben taps", lambda: reader.tap(BEN) or True),
        ("game over", seen(app, "Ann wins!")),
    ]
    return steps


def biznes_game(work: Path, reader: LineReaderEmulator) -> list[tuple[str, Callable[[], bool]]]:
    """Rulebook 000: an office on the visited firm, an own-property auction cancelled by its
    60-second timer, and a stepped auction by card taps."""
    app: BankerApp = App_holder["app"]
    c = app.flows
    real_clock = c.session.clock

    def minute_later() -> bool:
        c.session.clock = lambda: real_clock() + 61  # type: ignore[method-assign]
        return True

    steps: list[tuple[str, Callable[[], bool]]] = [
        ("new game", lambda: touch(app, "New game")),
        ("biznes", lambda: touch(app, "Biznes")),
        ("biznes chosen", lambda: c.setup.draft is not None and c.setup.draft.rules == "biznes"),
        *register(app, reader),
        ("game already going", lambda: touch(app, "Game already going? Enter it")),
    ]
    for i in (1, 3, 5, 25):
        steps.append((f"space {i} is Ann's", lambda i=i: touch_role(app, f"owner {i}")))
    steps += [
        ("no mortgages in biznes", lambda: button(app, "—") is None),
        ("start", lambda: touch(app, "Start the game")),
        ("the table", lambda: seen(app, "Ann's turn")() and button(app, "Deeds & offices") is not None),
        *enter(app, 1, 2),
        ("on her own firm", seen(app, "Ann: move your token to Bar mleczny")),
        ("open an office", lambda: touch(app, "Open a branch office on Bar mleczny: 50")),
        ("Ann taps", lambda: reader.tap(ANN) or True),
        ("one office", lambda: c.session.game is not None and c.session.game.level[3] == 1 and c.session.game.players[0].cash == 1450),
        ("once per visit", lambda: button(app, "Open a branch office on Bar mleczny: 50") is None),
        ("deeds", lambda: touch(app, "Deeds & offices")),
        ("auction her logistics", lambda: touch_role(app, "auction_own 25")),
        ("the opening bid", seen(app, "Opening bid: 100", f"From 100 (what the bank pays) to {c.session.tr.money(1500)}")),
        ("type the opening bid", lambda: touch_role(app, "reserve")),
        ("on the digit pad", lambda: app.manager.current == "digits"),
        ("1", lambda: touch_role(app, "digit 1")),
        ("1", lambda: touch_role(app, "digit 1")),
        ("0", lambda: touch_role(app, "digit 0")),
        ("OK", lambda: touch_role(app, "digit ok")),
        ("start it", lambda: touch(app, "Start the auction at 110")),
        ("Ann taps to start", lambda: reader.tap(ANN) or True),
        ("the countdown", seen(app, "Ann is selling", "No bid yet: cancelled in")),
        ("a minute passes with no bid", minute_later),
        ("cancelled", lambda: c.session.game is not None and c.session.game.auction is None and c.session.game.owner[25] == 0),
        ("said so", seen(app, "No bid: the auction of Spedycja kolejowa is cancelled")),
        ("end the move", lambda: touch(app, "End turn")),
        ("Ben's turn", seen(app, "Ben's turn")),
        *enter(app, 2, 4),
        ("Ben declines Pralnia", lambda: touch(app, "Don't buy: auction")),
        ("stepped auction", seen(app, "No bid yet (from 75)", "Bids go round the table")),
        ("Ann cannot bid first", lambda: reader.tap(ANN) or True),
        ("told whose bid", seen(app, "Ann cannot bid now: it is Ben's bid")),
        ("Ben taps to bid 75", lambda: reader.tap(BEN) or True),
        ("Ben leads", lambda: c.session.game is not None and c.session.game.auction is not None
         and c.session.game.auction.high_bid == 75),
        ("Ann taps: exactly 85", lambda: reader.tap(ANN) or True),
        ("Ann leads", lambda: c.session.game is not None and c.session.game.auction is not None
         and c.session.game.auction.high_bid == 85),
        ("Ben passes", lambda: touch_role(app, "pass Ben")),
        ("Ben taps to pass", lambda: (c.paying.pending is None) or (reader.tap(BEN) or True)),
        ("sold to Ann", lambda: c.session.game is not None and c.session.game.owner[6] == 0 and c.session.game.players[0].cash == 1365),
    ]
    return steps


def brands_game(work: Path, reader: LineReaderEmulator) -> list[tuple[str, Callable[[], bool]]]:
    """Rulebook 001 (fast mode): the family's table with the speed die from round 1, three real dice,
    the bus, the casino with the GPIO button rolling its die, the turn timer on screen."""
    app: BankerApp = App_holder["app"]
    c = app.flows

    steps: list[tuple[str, Callable[[], bool]]] = [
        ("new game", lambda: touch(app, "New game")),
        ("brands fast", lambda: touch(app, "Brands: fast")),
        ("chosen", lambda: c.setup.draft is not None and c.setup.draft.rules == "brands-fast"),
        *register(app, reader),
    ]
    for k in range(7):  # the speed die from round 8 down to round 1
        steps.append((f"speed die earlier ({k + 1})", lambda: touch_role(app, "speed_die_round -1")))
    steps += [
        ("from round 1", lambda: c.setup.draft is not None and c.setup.draft.options.get("speed_die_round") == 1),
        ("game already going", lambda: touch(app, "Game already going? Enter it")),
    ]
    for k in range(13):
        steps.append((f"Ann one space on ({k + 1})", lambda: touch_role(app, "Ann position +")))
    steps += [
        ("start", lambda: touch(app, "Start the game")),
        ("the turn timer", seen(app, "Ann's turn", "s left", "speed die")),
        ("enter three dice", lambda: touch(app, "Enter real dice")),
        ("die 3", lambda: touch_role(app, "die0-3")),
        ("die 4", lambda: touch_role(app, "die1-4")),
        ("the bus", lambda: touch_role(app, "die2-6")),
        ("move", lambda: touch(app, "Move by these dice")),
        ("bus choices", lambda: button(app, "Bus: move 3 spaces") is not None
         and button(app, "Bus: move 4 spaces") is not None),
        ("take the bus 7", lambda: touch(app, "Bus: move 7 spaces")),
        ("at the casino", lambda: c.session.game is not None and c.session.game.decision == Decision("casino", space=20)),
        ("casino", lambda: touch(app, f"Casino: bet {c.session.tr.money(1000)}")),
        ("pick 2", lambda: touch_role(app, "casino 2")),
        ("pick 5", lambda: touch_role(app, "casino 5")),
        ("the odds", seen(app, f"On 2, 5: a hit pays {c.session.tr.money(3000)}")),
        ("the dice button rolls the casino die", press_button),
        ("Ann must tap", seen(app, "Ann: tap your card")),
        ("Ann taps", lambda: reader.tap(ANN) or True),
        ("bet settled", lambda: c.session.game is not None and c.session.game.decision is None
         and c.session.game.players[0].cash in (17500 - 1000, 17500 + 2000, 17500 - 1000 + 500, 17500 + 2000 + 500)),
        ("back at the table", seen(app, "Ann's turn")),
    ]
    return steps


def phones_game(work: Path, reader: LineReaderEmulator) -> list[tuple[str, Callable[[], bool]]]:
    """Issue 9: the table's QR code opens the live game over HTTP; a card tap shows a player's own code;
    the move link downloads the game once and marks it moved."""
    import json
    import urllib.error
    import urllib.request

    app: BankerApp = App_holder["app"]
    c = app.flows
    got: dict[str, Any] = {}

    def read_code(role: str, key: str) -> bool:
        text = decode_qr(app, role, Path(App_holder["work"]))
        if text:
            got[key] = text
        return bool(text)

    def fetch(url: str) -> tuple[int, bytes]:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as exc:
            return exc.code, b""

    def live_state() -> bool:
        status, body = fetch(got["table"] + "/state")
        got["state"] = json.loads(body) if status == 200 else None
        return status == 200

    return [
        ("new game", lambda: touch(app, "New game")),
        *register(app, reader),
        ("start", lambda: touch(app, "Start the game")),
        ("the table", seen(app, "Ann's turn")),
        ("banker", lambda: touch(app, "Banker")),
        ("phones", lambda: touch(app, "Phones: QR code")),
        ("the table code decodes", lambda: read_code("qr table", "table")),
        ("to the live game", lambda: got["table"] == c.phones.table_link() and "/g/" in got["table"]),
        ("the page loads", lambda: fetch(got["table"])[0] == 200),
        ("its state", live_state),
        ("shows the players", lambda: [p["name"] for p in got["state"]["players"]] == ["Ann", "Ben"]
         and got.setdefault("where0", got["state"]["players"][0]["where"]) is not None),
        ("no card or PIN in it", lambda: "04A32B1C" not in json.dumps(got["state"])),
        ("a wrong token tells nothing", lambda: fetch(got["table"][:-3] + "xyz/state")[0] == 404),
        ("back", lambda: touch(app, "Back")),
        ("back to the table", lambda: touch(app, "Back")),
        ("Ann taps her card", lambda: reader.tap(ANN) or True),
        ("her own code", lambda: read_code("qr player", "player")),
        ("focused on Ann", lambda: got["player"] == got["table"] + "?p=Ann"),
        ("roll", lambda: touch(app, "Roll the dice")),
        ("the phone follows", lambda: live_state() and got["state"]["players"][0]["where"] != got["where0"]),
        ("banker again", lambda: touch(app, "Banker")),
        ("phones again", lambda: touch(app, "Phones: QR code")),
        ("continue on another device", lambda: touch(app, "Continue on another device")),
        ("the move code", lambda: read_code("qr move", "move")),
        ("a one-time link", lambda: "/m/" in got["move"]),
        ("download the game", lambda: fetch(got["move"])[0] == 200),
        ("only once", lambda: fetch(got["move"])[0] == 410),
        ("marked as moved here", lambda: c.session.live is None and button(app, "New game") is not None),
    ]


def play(work: Path, reader: LineReaderEmulator) -> list[tuple[str, Callable[[], bool]]]:
    app: BankerApp = App_holder["app"]
    c = app.flows
    journal = work / "games.sqlite3"

    def seen(*words: str) -> Callable[[], bool]:
        return lambda: all(w in texts(app) for w in words)

    def do(fn: Callable[[], Any]) -> Callable[[], bool]:
        def run() -> bool:
            result = fn()
            return result is not False
        return run

    def last_action() -> dict[str, Any]:
        with Journal(journal, create=False) as j:
            game_id = j.latest_active() or j.games()[-1].id
            return j.actions(game_id)[-1]

    def die(k: int, value: int) -> Callable[[], bool]:
        return lambda: touch_role(app, f"die{k}-{value}")

    def enter(a: int, b: int) -> list[tuple[str, Callable[[], bool]]]:
        return [(f"enter {a}+{b}", lambda: touch(app, "Enter real dice")), (f"die {a}", die(0, a)),
                (f"die {b}", die(1, b)), ("move by them", lambda: touch(app, "Move by these dice"))]

    def save_state() -> bool:
        """Pull the plug here: copy the journal as it is now, for the resume run."""
        import json
        import sqlite3
        later = work / "resume"
        later.mkdir(exist_ok=True)
        with sqlite3.connect(journal) as src, sqlite3.connect(later / "games.sqlite3") as dst:
            src.backup(dst)
        (later / "state.json").write_text(json.dumps(c.session.game.to_json()))  # type: ignore[union-attr]
        return True

    return [
        ("home shows New game", lambda: touch(app, "New game")),
        *type_names(app),
        ("register Ann", lambda: touch(app, "Tap card to register")),
        ("Ann taps", do(lambda: reader.tap(ANN))),
        ("Ann's card registered", lambda: c.setup.draft is not None and c.setup.draft.players[0].card == ANN),
        ("Ben taps", do(lambda: reader.tap(BEN))),
        ("Ben's card registered", lambda: c.setup.draft is not None and c.setup.draft.players[1].card == BEN),
        ("start", lambda: touch(app, "Start the game")),
        ("the table", seen("Ann's turn", c.session.tr.money(1500))),
        *enter(1, 2),
        ("where to move", seen("Ann: move your token to Baltic Avenue")),
        ("buy", lambda: touch(app, "Buy Baltic Avenue for 60")),
        ("the banner asks for Ann's card", seen("Ann: tap your card to buy Baltic Avenue for 60")),
        ("Ben's card is refused", do(lambda: reader.tap(BEN))),
        ("with Ben's name", seen("That is Ben's card. Ann must tap.")),
        ("Ann taps to pay", do(lambda: reader.tap(ANN))),
        ("bought and journaled", lambda: c.session.game.owner[3] == 0 and last_action()["do"] == "buy"),  # type: ignore
        ("the new balance", seen(c.session.tr.money(1440), "Ann buys Baltic Avenue for 60")),
        ("deeds", lambda: touch(app, "Deeds & houses")),
        ("Ann's deeds", seen("Ann's deeds", "Baltic Avenue")),
        ("mortgage Baltic", lambda: touch(app, "Mortgage")),
        ("Ann taps for the mortgage", do(lambda: reader.tap(ANN))),
        ("mortgaged", lambda: c.session.game.mortgaged[3]),  # type: ignore[union-attr]
        ("back", lambda: touch(app, "Back")),
        ("log", lambda: touch(app, "Money log")),
        ("the log", seen("Ann mortgages Baltic Avenue for 30", "Ann buys Baltic Avenue for 60")),
        ("back again", lambda: touch(app, "Back")),
        ("banker", lambda: touch(app, "Banker")),
        ("undo", lambda: touch(app, "Undo the last action")),
        ("undo asks for a second touch", lambda: c.session.game.mortgaged[3]  # type: ignore[union-attr]
         and touch(app, "Touch again to undo the last action")),
        ("undone", lambda: not c.session.game.mortgaged[3] and last_action()["do"] == "undo"),  # type: ignore[union-attr]
        ("settings", lambda: touch(app, "Settings")),
        ("the About line", lambda: f"About: {version_line()}" in texts(app).splitlines()),
        ("Polski", lambda: touch(app, "Polski")),
        ("Polish on screen", lambda: c.session.tr.language == "pl" and button(app, "English") is not None),
        ("the About line in Polish", lambda: f"O programie: {version_line()}" in texts(app).splitlines()),
        ("back to English", lambda: touch(app, "English")),
        ("animations off", lambda: touch(app, "Animations: on")),
        ("off, and saved", lambda: not c.session.settings.motion and button(app, "Animations: off") is not None),
        ("animations on again", lambda: touch(app, "Animations: off") and c.session.settings.motion),
        ("a louder voice", lambda: touch(app, "Volume: normal")),
        ("loud", lambda: c.session.settings.voice_volume == 3 and touch(app, "Volume: loud")),
        ("round to quiet", lambda: c.session.settings.voice_volume == 1 and touch(app, "Volume: quiet")),
        ("slower speech", lambda: c.session.settings.voice_volume == 2 and touch(app, "Speech: normal")),
        ("speech fast", lambda: c.session.settings.voice_speed == 3 and touch(app, "Speech: fast")),
        ("speech slow", lambda: c.session.settings.voice_speed == 1 and touch(app, "Speech: slow")),
        ("voice off", lambda: c.session.settings.voice_speed == 2 and touch(app, "Voice: on")),
        ("voice on again", lambda: not c.session.settings.voice and touch(app, "Voice: off") and c.session.settings.voice),
        ("leave settings", lambda: touch(app, "Back")),
        ("leave the banker", lambda: touch(app, "Back")),
        ("end turn", lambda: touch(app, "End turn")),
        ("Ben's turn", seen("Ben's turn")),
        *enter(2, 4),
        ("Ben declines Oriental", lambda: touch(app, "Don't buy: auction")),
        ("the auction", seen("Auction: Oriental Avenue")),
        ("Ann taps to bid", do(lambda: reader.tap(ANN))),
        ("Ann leads", seen("10 — Ann leads")),
        ("Ben taps to bid", do(lambda: reader.tap(BEN))),
        ("Ben leads", seen("20 — Ben leads")),
        ("the hammer", lambda: touch(app, "Sold!")),
        ("sold to Ben", lambda: c.session.game.owner[6] == 1 and app.manager.current == "table"),  # type: ignore
        ("end Ben's turn", lambda: touch(app, "End turn")),
        ("the GPIO button rolls for Ann", press_button),
        ("Ann rolled", lambda: last_action()["do"] == "roll" and bool(c.session.last_dice)),
        ("settle Ann's space by touches", settle(app)),
        ("end Ann's turn", lambda: touch(app, "End turn")),
        ("Ben again", seen("Ben's turn")),
        ("trade", lambda: touch(app, "Trade")),
        ("Ann gives Baltic", lambda: touch(app, "Baltic Avenue")),
        ("Ben gives Oriental", lambda: touch(app, "Oriental Avenue")),
        ("agree", lambda: touch(app, "Ann and Ben: tap to agree")),
        ("Ben taps", do(lambda: reader.tap(BEN))),
        ("Ann taps", do(lambda: reader.tap(ANN))),
        ("swapped", lambda: c.session.game.owner[3] == 1 and c.session.game.owner[6] == 0),  # type: ignore[union-attr]
        ("remember where we are", save_state),
        ("leave the trade", lambda: touch(app, "Back")),
        ("banker again", lambda: touch(app, "Banker")),
        ("end the game", lambda: touch(app, "End the game now (ranking)")),
        ("touch again to end it", lambda: touch(app, "Touch again to end the game")),
        # The result as the game has it (a tie when the ended game leaves both as rich, "Ben wins!" otherwise:
        # the dice button's rolls are random), in the game-over screen's words, and the chart.
        ("game over with the chart", lambda: c.session.game is not None and c.session.game.outcome is not None
         and seen(c.session.tr.render(winners_msg(c.session.game.outcome.winners)), "Net worth during the game")()),
        ("done", lambda: touch(app, "Done")),
        ("home again", lambda: button(app, "New game") is not None),
    ]


def settle(app: BankerApp) -> Callable[[], bool]:
    """Whatever a random roll (the GPIO button's) landed on, settled by touches as the player would: no
    purchase (an auction nobody bids in, closed by the hammer), a card drawn, the flat tax paid, the dice
    rolled again after a double. Done when the turn can end; a touch at a time, each after the redraw."""
    wait = [0]

    def touched(ok: bool) -> bool:
        if ok:
            wait[0] = 4  # the screen rebuilds before the next look
        return False

    def step() -> bool:
        if wait[0]:
            wait[0] -= 1
            return False
        if app.manager.current == "auction":
            return touched(touch(app, "Sold!"))
        shown = labels(app)
        if "End turn" in shown:
            return True
        for label in shown:
            if label == "Don't buy: auction" or label.startswith("Draw a ") or label.startswith("End move") \
                    or (label.startswith("Pay ") and "%" not in label and "jail" not in label):
                return touched(touch(app, label))
        return touched(touch(app, "Roll the dice"))
    return step


def resume_checks(work: Path) -> list[tuple[str, Callable[[], bool]]]:
    import json

    app: BankerApp = App_holder["app"]
    saved = json.loads((work / "state.json").read_text())
    cash = next(p["cash"] for p in saved["players"] if p["name"] == "Ann")
    return [
        ("the game reopened by itself", lambda: app.manager.current in ("table", "auction")),
        ("exactly where it was", lambda: app.session.game is not None
         and app.session.game.to_json() == saved),
        ("the same balances on screen", lambda: app.session.tr.money(cash) in texts(app)),
    ]


App_holder: dict[str, Any] = {}


def main() -> int:
    phase, work = sys.argv[1], Path(sys.argv[2])
    App_holder["work"] = str(work)
    phases = {"play": play, "debt": debt_game, "biznes": biznes_game, "brands": brands_game,
              "phones": phones_game}

    def steps(app: BankerApp, reader: LineReaderEmulator) -> list[Step]:
        App_holder["app"] = app
        return phases[phase](work, reader) if phase != "resume" else resume_checks(work)

    status, script = run_app(work, steps, phones=phase == "phones")
    if status or script is None:
        return 1
    print(f"{phase}: {len(script.steps)} steps passed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
