"""End-to-end: what a redraw of the turn screen keeps, and what waits for its frame, in the real app offscreen.

Run by test_redraw.py in a subprocess (Kivy opens one window per process):

    python tests/ui/redraw_app.py WORKDIR

A two-player classic game is waiting in the journal (Ann has rolled onto Baltic Avenue). Step by step: a
redraw with nothing changed keeps every widget and draws no text again; a purchase by card tap replaces
the banner and the buttons, changes the amounts in Ann's row and across the top in place, keeps Ben's row,
the dice and the navigation bar, and draws again no text that shows the same words as before; the phones
get the new state once, after the frame that shows it; a screen whose drawing fails is reported once
instead of being redrawn in a loop, and the table comes back.
Exits 0 when every step passed.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from e2e_kit import Step, play, texts, widgets  # sets Kivy up first
from kivy.core.window import Window
from kivy.uix.label import Label

from banker.journal import Journal
from banker.script import Header
from ui.app import BankerApp
from ui.screens.table import NavBar, TableScreen

ANN = "04A32B1C"
drawn: dict[str, Any] = {"labels": 0, "which": []}  # how many texts were drawn, and their words
_texture_update = Label.texture_update


def texture_update(self: Label, *args: Any) -> None:  # Kivy's clock finds a bound method by its name
    drawn["labels"] += 1
    drawn["which"].append(self.text)
    _texture_update(self, *args)


Label.texture_update = texture_update  # before any label exists: Kivy binds the method when a label is made


class Phones:
    """Stands in for the phone server: what was published, and how many frames had been shown by then."""

    def __init__(self) -> None:
        self.published: list[tuple[int, Any]] = []

    def publish(self, token: str | None, state: Any) -> None:
        self.published.append((frames["count"], state))


frames = {"count": 0}


def main(work: Path) -> int:
    work.mkdir(parents=True, exist_ok=True)
    with Journal(work / "games.sqlite3") as journal:
        live = journal.start(Header(rules="classic", players=["Ann", "Ben"], seed=1),
                             meta={"cards": {ANN: "Ann"}, "colours": {"Ann": "#E53935", "Ben": "#1E88E5"},
                                   "started": time.time()})
        live.apply({"do": "roll", "dice": [1, 2]})
    # Without the money in motion: its frames (a flight draws one as often as it can) would come between the
    # purchase's frame and the step that counts frames, which this script pins.
    app = BankerApp(work / "games.sqlite3", hardware=False, phones=False, settings_file=work / "settings.json", motion=False)
    c = app.flows
    Window.bind(on_flip=lambda *_: frames.__setitem__("count", frames["count"] + 1))
    phones = Phones()
    seen: dict[str, Any] = {}

    def row_of(name: str) -> Any:
        return next(w for w in widgets(app) if isinstance(w, Label) and w.text == name).parent

    def shown() -> set[str]:
        return {w.text for w in widgets(app) if isinstance(w, Label)}

    def ready() -> bool:
        if app.manager.current != "table" or frames["count"] < 1:
            return False
        c.phones.connect(phones, "http://127.0.0.1:1", lambda session: {"actions": len(session.game.script)})
        c.phones.publish_soon = app._publish_soon  # as the app wires its own phone server
        return True

    def redraw_unchanged() -> bool:
        seen["ids"] = {id(w) for w in widgets(app)}
        seen["frame"] = frames["count"]
        drawn["labels"] = 0
        app.redraw()
        return True

    def nothing_redrawn() -> bool:
        if frames["count"] <= seen["frame"]:
            return False  # the redraw's frame is not out yet
        same = {id(w) for w in widgets(app)} == seen["ids"]
        assert same, "a redraw with nothing changed replaced widgets"
        assert drawn["labels"] == 0, f"a redraw with nothing changed drew {drawn['labels']} texts again"
        return True

    def buy() -> bool:
        seen["ben"], seen["ann"] = row_of("Ben"), row_of("Ann")
        seen["nav"] = next(w for w in widgets(app) if isinstance(w, NavBar))
        parts = app.manager.get_screen("table")._parts  # the turn's first button and the prompt, kept by key
        seen["button"], seen["prompt"] = parts["button 0"][1], parts["prompt"][1]
        c.paying.request({"do": "buy"})
        return True

    def tap() -> bool:
        if c.paying.pending is None or "Ann" not in texts(app):
            return False
        seen["published"] = len(phones.published)
        seen["before"] = shown()
        drawn["which"] = []
        c.taps.card_tapped(ANN)
        return True

    def bought() -> bool:
        if c.session.tr.money(1440) not in texts(app):
            return False
        seen["shown at"] = frames["count"]
        assert row_of("Ben") is seen["ben"], "Ben's row was rebuilt though his money did not change"
        assert next(w for w in widgets(app) if isinstance(w, NavBar)) is seen["nav"], "the navigation bar was rebuilt"
        assert row_of("Ann") is seen["ann"], "Ann's row was rebuilt, not its amount changed"
        parts = app.manager.get_screen("table")._parts  # Buy gave way to the banner; End turn is its button again
        assert parts["button 0"][1] is seen["button"] and parts["prompt"][1] is seen["prompt"], \
            "the turn's button or the prompt was made anew after the banner, not kept aside and changed in place"
        assert seen["button"].text == c.session.tr("ui.btn.end_turn"), seen["button"].text
        amounts = [w.text for w in row_of("Ann").parent.children if isinstance(w, Label)]
        assert amounts == [c.session.tr.money(1440)], f"Ann's row shows {amounts}"
        same = seen["before"] & shown()  # the words on the screen before the tap and after it
        again = sorted(set(drawn["which"]) & same)
        assert not again, f"the purchase drew again texts whose words did not change: {again}"
        return True

    def phones_after_the_frame() -> bool:
        new = phones.published[seen["published"]:]
        if not new:
            return False
        frame, state = new[-1]
        assert state == {"actions": len(c.session.game.script)}, state
        assert frame >= seen["shown at"], f"published at frame {frame}, before the frame {seen['shown at']} " \
                                          "that showed the purchase"
        assert len(new) == 1, f"one change published {len(new)} times"
        return True

    def break_the_table() -> bool:
        seen["build"] = TableScreen.build
        seen["redraws"] = 0

        def broken(self: TableScreen, root: Any) -> None:
            seen["redraws"] += 1
            raise RuntimeError("a screen that cannot draw")
        TableScreen.build = broken  # type: ignore[method-assign]
        seen["broken at"] = time.monotonic()
        c.session.changed()
        return True

    def no_redraw_loop() -> bool:
        if time.monotonic() - seen["broken at"] < 1.5:
            return False
        assert 1 <= seen["redraws"] <= 3, f"a failing screen was drawn {seen['redraws']} times in 1.5 s"
        TableScreen.build = seen["build"]  # type: ignore[method-assign]
        c.session.changed()
        return True

    def table_again() -> bool:
        return c.session.tr.money(1440) in texts(app) and c.session.tr("ui.oops") in texts(app)

    steps: list[Step] = [
        ("the table", ready),
        ("a redraw with nothing changed", redraw_unchanged),
        ("keeps every widget and draws no text", nothing_redrawn),
        ("Ann asks to buy", buy),
        ("and taps her card", tap),
        ("her amounts, the button and the prompt change in place, nothing unchanged is drawn again", bought),
        ("the phones get it once, after its frame", phones_after_the_frame),
        ("a screen that fails to draw", break_the_table),
        ("is not redrawn in a loop", no_redraw_loop),
        ("the table comes back, saying what happened", table_again),
    ]
    code, script = play(app, lambda: steps)
    if code == 0 and script is not None:
        print(f"{len(script.steps)} steps passed")
    return code


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1])))
