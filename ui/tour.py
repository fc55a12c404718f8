"""`banker app --tour DIR`: a short scripted game through the real app, offscreen,
with a PNG of every screen.

The steps press what a family would press (through the same controller calls
the buttons make) and tap cards the way the reader reports them; after each
step the app redraws, and the first frame after that is saved as
DIR/NN-name.png. The games and settings live in a scratch folder.
"""

from __future__ import annotations

import sys
import shutil
from pathlib import Path
from typing import Any, Callable

from kivy.clock import Clock
from kivy.core.window import Window

from ui.app import BankerApp

CARDS = {"Ann": "04A32B1C", "Ben": "04B7771A2C5E80", "Cy": "0455AA12"}


def tour_steps(app: BankerApp) -> list[tuple[str, Callable[[], Any]]]:
    c = app.controller
    nav = app.navigator

    def setup() -> None:
        c.new_game()
        c.draft_add_player()
        for k, name in enumerate(CARDS):
            c.draft_set(k, name=name)
            c.draft_register(k)
            c.card_tapped(CARDS[name])
        c.draft_register(1)
        c.card_tapped(CARDS["Ann"])  # Ann's card again, for Ben: refused with her name

    def in_progress() -> None:
        assert c.draft is not None
        c.draft.pin = "1234"
        c.draft.setup = {
            "players": {"Ann": {"cash": 1200, "position": 0}, "Ben": {"cash": 1500, "position": 0},
                        "Cy": {"cash": 60, "position": 4}},
            "spaces": {"6": {"owner": "Ann", "houses": 2}, "8": {"owner": "Ann", "houses": 2},
                       "9": {"owner": "Ann", "houses": 1}, "16": {"owner": "Ann", "houses": 1},
                       "18": {"owner": "Ann", "houses": 1}, "19": {"owner": "Ann", "houses": 1},
                       "5": {"owner": "Ben"}, "15": {"owner": "Ben"}, "39": {"owner": "Ben", "mortgaged": True}},
        }
        nav.go("inprogress")

    def start() -> None:
        nav.go("table")
        c.draft_start()

    def tap(name: str) -> Callable[[], None]:
        return lambda: c.card_tapped(CARDS[name])

    def press(verb: str, **fields: Any) -> Callable[[], None]:
        return lambda: c.request({"do": verb, **fields})

    def roll(*dice: int) -> Callable[[], None]:
        return lambda: c.roll(tuple(dice))

    def steps_then(*fns: Callable[[], Any]) -> Callable[[], None]:
        def run() -> None:
            for fn in fns:
                fn()
        return run

    def language(code: str) -> Callable[[], None]:
        return lambda: c.set_language(code)

    def typing(code: str, k: int, *keys: str) -> Callable[[], None]:
        """The keyboard page in a language: player k's name cleared and typed anew (not kept)."""
        def run() -> None:
            c.set_language(code)
            nav.edit_name(k)
            for key in ("clear", *keys):
                nav.keyboard_press(key)
        return run

    def keys(*pressed: str) -> Callable[[], None]:
        """Keys of the digit pad, then its OK when the last is "ok"."""
        def run() -> None:
            for key in pressed:
                nav.entry_ok() if key == "ok" else nav.entry_press(key)
        return run

    def later(seconds: float) -> None:
        """The clock moves on (the wait after too many wrong PINs is over)."""
        now = c.clock
        c.clock = lambda: now() + seconds  # type: ignore[method-assign]

    def start_web() -> None:
        """A real phone server on this machine only, for the QR screens."""
        from hardware.config import WebConfig

        app.start_web(WebConfig(listen=("127.0.0.1",), port=0))

    def biznes_start() -> None:
        assert c.draft is not None
        c.draft.setup = {
            "players": {"Ann": {"cash": 1500, "position": 0}, "Ben": {"cash": 1500, "position": 0},
                        "Cy": {"cash": 60, "position": 1}},
            "spaces": {"1": {"owner": "Ann", "houses": 1}, "3": {"owner": "Ann", "houses": 1},
                       "5": {"owner": "Ann", "houses": 1}, "25": {"owner": "Ann"}, "15": {"owner": "Cy"},
                       "12": {"owner": "Cy"}},
        }
        nav.go("table")
        c.draft_start()

    def brands_start() -> None:
        assert c.draft is not None
        c.draft.options["speed_die_round"] = 1
        c.draft.setup = {"players": {"Ann": {"position": 16}, "Cy": {"position": 5}},
                         "spaces": {"1": {"owner": "Cy", "houses": 2}, "3": {"owner": "Cy", "houses": 2},
                                    "6": {"owner": "Ann", "mortgaged": True}}}
        nav.go("table")
        c.draft_start()

    trade = {"from": "Ann", "to": "Ben", "give": {"cash": 250}, "get": {"spaces": [5]}}
    return [
        ("home", lambda: None),
        ("setup-players-and-cards", setup),
        ("keyboard-english", typing("en", 1, "s", "a", "m")),
        ("keyboard-digits", steps_then(lambda: nav.keyboard_press("symbols"), lambda: nav.keyboard_press("2"))),
        ("keyboard-polski", typing("pl", 2, "ł", "u", "k", "a", "s", "z")),
        ("keyboard-cestina", typing("cs", 2, "ř", "e", "h", "o", "ř")),
        ("setup-cestina", nav.keyboard_cancel),
        ("keyboard-russkij", typing("ru", 2, "ф", "ё", "д", "о", "р")),
        ("setup-russkij", nav.keyboard_cancel),
        ("keyboard-name-taken", steps_then(typing("en", 2, "a", "n", "n"))),
        ("setup-game-in-progress", steps_then(nav.keyboard_cancel, in_progress)),
        ("setup-pin", steps_then(lambda: nav.go("setup"), nav.edit_pin, keys("1", "2"))),
        ("turn-start", start),
        ("turn-landed-on-unowned", roll(1, 2)),
        ("tap-your-card-to-buy", press("buy")),
        ("bought", tap("Ann")),
        ("cash-machine", steps_then(press("end_turn"), tap("Cy"))),
        ("rent-paid", roll(2, 4)),
        ("auction", steps_then(press("end_turn"), roll(3, 4), press("decline"))),
        ("auction-bids", steps_then(tap("Ann"), tap("Ben"), tap("Ann"))),
        ("deeds-and-buildings", steps_then(press("close_auction"), press("end_turn"), lambda: nav.show_deeds("Ann"))),
        ("trade", lambda: (nav.trade.update({"from": "Ann", "to": "Ben",
                                             "give": {"cash": 250, "spaces": [], "jail_cards": 0},
                                             "get": {"cash": 0, "spaces": [5], "jail_cards": 0}}),
                           nav.go("trade"))),
        ("trade-both-tap", press("trade", **trade)),
        ("debt", steps_then(tap("Ann"), tap("Ben"), lambda: nav.go("table"), roll(1, 2), press("end_turn"),
                            roll(1, 2), press("end_turn"), roll(2, 3))),
        ("log", lambda: nav.go("log")),
        ("banker-pin", steps_then(lambda: nav.go("banker"), keys("1", "2"))),
        ("banker-pin-wrong", keys("3", "5", "ok")),
        ("banker-pin-wait", keys(*"1111", "ok", *"1111", "ok", *"1111", "ok", *"1111", "ok")),
        ("banker-menu", steps_then(lambda: later(31), lambda: nav.unlock("1234"))),
        ("banker-touch-again", lambda: nav.destructive("abandon")),
        ("banker-correction", steps_then(nav.other_touch, lambda: nav.correct("Ann"), keys("5", "0", "-"))),
        ("phones-table-code", steps_then(nav.entry_cancel, start_web, lambda: nav.go("phones"))),
        ("phones-move-code", nav.show_move),
        ("phones-player-code", steps_then(nav.hide_move, lambda: nav.go("table"), tap("Ben"))),
        ("replace-lost-card", lambda: (nav.go("replace"), c.replace_card("Ben"))),
        ("settings", lambda: nav.go("settings")),
        ("table-polski", steps_then(language("pl"), lambda: nav.go("table"))),
        ("table-cestina", language("cs")),
        ("table-russkij", language("ru")),
        ("dice-entry", steps_then(language("en"), lambda: nav.go("dice"))),
        ("game-over-chart", steps_then(lambda: nav.go("table"), c.end_game)),
        ("game-over-undo-pin", nav.undo_end),
        # A biznes game (rulebook 000): one branch office per visit, stepped and own-property auctions.
        ("biznes-setup", steps_then(c.close_game, setup, lambda: c.draft_rules("biznes"))),
        ("biznes-build-here", steps_then(biznes_start, roll(1, 2))),
        ("biznes-own-auction-setup", steps_then(press("build", space=3), tap("Ann"),
                                                lambda: nav.start_own_auction("Ann", 25),
                                                lambda: nav.own_auction.update(reserve=120))),  # type: ignore[union-attr]
        ("biznes-own-auction-pad", steps_then(nav.edit_reserve, keys("1", "2", "5"))),
        ("biznes-own-auction-timer", steps_then(press("auction_own", player="Ann", space=25, reserve=120),
                                                tap("Ann"))),
        ("biznes-own-auction-sold", tap("Ben")),
        ("biznes-decline-stepped", steps_then(press("pass", player="Cy"), press("end_turn"), roll(2, 4),
                                              press("decline"))),
        ("biznes-debt", steps_then(tap("Ben"), press("pass", player="Ann"), press("end_turn"), roll(1, 2))),
        ("biznes-deeds", lambda: nav.show_deeds("Cy")),
        # A brands-fast game (rulebook 001) with the speed die from the start: the casino, the bus, a pause.
        ("brands-setup", steps_then(lambda: nav.go("table"), c.end_game, c.close_game, setup,
                                    lambda: c.draft_rules("brands-fast"))),
        ("brands-custom-table", lambda: nav.go("setup")),
        ("brands-casino", steps_then(brands_start, roll(1, 2, 1), lambda: nav.go("casino"),
                                     lambda: c.casino_toggle(2), lambda: c.casino_toggle(5))),
        ("brands-casino-tap", lambda: c.request({"do": "casino", "numbers": [2, 5], "die": 5})),
        ("brands-casino-result", steps_then(tap("Ann"), lambda: nav.go("table"))),
        ("brands-bus", steps_then(press("end_turn"), roll(3, 3, 6))),
        ("brands-pause-vote", steps_then(press("bus", steps=6), press("buy"), tap("Ben"),
                                         c.ask_pause,
                                         tap("Ann"))),
        ("brands-paused", steps_then(tap("Ben"), tap("Cy"))),
        # No typing at all: every new player has a ready name, and the keyboard offers the others.
        ("setup-ready-names", steps_then(lambda: nav.go("table"), c.end_game, c.close_game, language("pl"),
                                         nav.new_game, nav.add_player, nav.add_player)),
        ("keyboard-ready-names", lambda: nav.edit_name(3)),
    ]


def run_tour(out: Path, scratch: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    app = BankerApp(scratch / "games.sqlite3", hardware=False, settings_file=scratch / "settings.json")
    state: dict[str, Any] = {"k": 0, "failed": None}

    def next_step(dt: float = 0) -> None:
        steps = state["steps"]
        k = state["k"]
        if k >= len(steps):
            app.stop()
            return
        name, fn = steps[k]
        try:
            fn()
        except Exception as exc:  # a tour that cannot go on says where, and exits non-zero
            state["failed"] = f"step {k} ({name}): {exc!r}"
            app.stop()
            return
        app.redraw()
        # The screen manager swaps screens on the frame after a redraw: shoot the one after that.
        def second_frame() -> None:
            app.flip_callbacks.append(lambda: Clock.schedule_once(lambda dt: shoot(k, name), 0))
            Window.canvas.ask_update()

        app.flip_callbacks.append(second_frame)
        Window.canvas.ask_update()

    def shoot(k: int, name: str) -> None:
        saved = Window.screenshot(name=str(out / "shot.png"))
        if saved:
            shutil.move(saved, out / f"{k + 1:02d}-{name}.png")
        state["k"] = k + 1
        Clock.schedule_once(next_step, 0)

    def begin(*_: Any) -> None:
        state["steps"] = tour_steps(app)
        Clock.schedule_once(next_step, 0.1)

    Clock.schedule_once(begin, 0)
    app.run()
    if app.web is not None:
        app.web.stop()
    if state["failed"]:
        print(f"banker app --tour: {state['failed']}", file=sys.stderr)
        return 1
    shutil.rmtree(scratch, ignore_errors=True)
    return 0
