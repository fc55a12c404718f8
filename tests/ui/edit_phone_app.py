"""A family's edition made on a phone (issue 43), the touchscreen's side, in the real app offscreen with its
phone server on 127.0.0.1: Settings -> Your editions lists a broken file with its reason; "Edit on a phone"
shows a QR code, read back from the window's pixels as a phone's camera reads it and handed to the phone (the
test's headless Chromium, tests/ui/test_edit_phone_e2e.py) through WORK/link.txt; the screen follows the phone
(editing, then "Our Street" saved); once the phone has also downloaded the edition (WORK/phone-done), Done; the
new-game screen offers "Our Street", and a game on it, by touch (real dice entered, physical decks), draws the
Chance card that sends Ann to the renamed street, which the card, the table and the Buy button name, and buys it
at the new price.

    python tests/ui/edit_phone_app.py WORK LANGUAGE     (E2E_SIZE, XDG_DATA_HOME set by the test)

Exits 0 when every step passed; otherwise prints the failing step.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

from e2e_kit import Step, by_role, decode_qr, run_app, texts, touch, touch_role

from banker.editions import list_editions
from ui.app import BankerApp
from ui.flows.editions import broken_reason
from ui.i18n import Msg, card_msg
from ui.settings import Settings

LANE, PRICE = "Our Lane", 260  # what the phone makes of Illinois Avenue (space 24; classic: 240)
PHONE_SECONDS = 120  # the longest step: the phone's whole part, Chromium started


def steps(app: BankerApp, work: Path) -> list[Step]:
    f = app.flows
    tr = f.session.tr
    got: dict[str, str] = {}

    def on(screen: str) -> Callable[[], bool]:
        return lambda: app.manager.current == screen

    def scanned() -> bool:
        link = decode_qr(app, "qr editor", work)
        if link:
            # Whole or not there: the test reads the file as soon as it exists (a plain write_text let it read
            # an empty link on a slow machine).
            (work / "link.tmp").write_text(link, "utf-8")
            os.replace(work / "link.tmp", work / "link.txt")
            got["link"] = link
        return bool(link)

    def shot(name: str) -> bool:
        """With E2E_SHOTS set, the screen as it is now saved there as LANGUAGE-SIZE-NAME.png (to look at)."""
        where = os.environ.get("E2E_SHOTS")
        if where:
            from kivy.core.window import Window

            Path(where).mkdir(parents=True, exist_ok=True)
            size = os.environ.get("E2E_SIZE", "800x480")
            Window.screenshot(name=str(Path(where) / f"{tr.language}-{size}-{name}.png"))
        return True

    def card_button() -> str:
        game = f.session.game
        assert game is not None
        return tr.render(card_msg(game.ruleset, game.ruleset.card_by_id["ch-illinois"], game.options))

    def deck() -> str:
        return tr.render(Msg("deck.chance", default="Chance"))

    def enter(a: int, b: int) -> list[Step]:
        """Real dice entered on the dice screen's buttons."""
        return [(f"enter {a}+{b}", lambda: touch(app, tr("ui.btn.enter_dice"))),
                (f"die {a}", lambda: touch_role(app, f"die0-{a}")),
                (f"die {b}", lambda: touch_role(app, f"die1-{b}")),
                ("move by them", lambda: touch(app, tr("ui.dice.done")))]

    broken = next(e for e in list_editions() if e.name == "broken")
    return [
        ("the start screen", on("home")),
        ("Settings", lambda: touch(app, tr("ui.settings"))),
        ("our own physical decks", lambda: touch_role(app, "setting physical_decks")),
        ("set", lambda: f.session.settings.physical_decks),
        ("Editions", lambda: touch_role(app, "editions")),
        ("the editions page", on("editions")),
        ("the broken file listed as broken, with its reason",
         lambda: (w := by_role(app, "about broken")) is not None
         and w.text == tr("ui.editions.broken", name="broken", reason=broken_reason(tr, broken))
         and (tr.language == "en" or "must" not in w.text)),  # the reason in the family's language
        ("Edit on a phone", lambda: touch_role(app, "edit on a phone")),
        ("the code read as a phone reads it", scanned),
        ("the link shown is the code's", lambda: (w := by_role(app, "editor link")) is not None
         and w.text.replace("\n", "") == got["link"]),
        ("a link to the editor", lambda: "/e/" in got["link"] and got["link"].startswith("http://127.0.0.1:")),
        ("the phone edits, saves and downloads", lambda: (work / "phone-done").exists()),
        ("the table says what the phone saved", lambda: (w := by_role(app, "editor saved")) is not None
         and "Our Street" in w.text),
        ("Done", lambda: touch_role(app, "phone done")),
        ("the editions page again", on("editions")),
        ("Our Street listed", lambda: (w := by_role(app, "edition our-street")) is not None
         and w.text == "Our Street"),
        ("Back to the settings", lambda: touch(app, tr("ui.back"))),
        ("Back to the start", lambda: touch(app, tr("ui.back"))),
        ("New game", lambda: touch(app, tr("ui.home.new"))),
        ("Our Street offered", lambda: (w := by_role(app, "ruleset our-street")) is not None
         and w.text == "Our Street"),
        ("Our Street chosen", lambda: touch_role(app, "ruleset our-street")),
        ("Start the game", lambda: touch(app, tr("ui.setup.start"))),
        ("the turn screen", on("table")),
        *enter(3, 4),  # GO + 7: Chance
        ("draw a Chance card", lambda: touch(app, tr("ui.btn.draw", deck=deck()))),
        ("the cards to pick from", lambda: app.manager.current == "cards" and shot("cards")),
        ("the card that names the new street", lambda: LANE in card_button() and touch(app, card_button())),
        ("Ann on the renamed street", lambda: f.session.game is not None and f.session.game.current.position == 24),
        ("the card said with the new name", lambda: card_button() in texts(app) or any(
            n["text"] == card_button() for n in f.session.notice_lines(5))),
        ("its new name on the table", lambda: LANE in texts(app) and shot("card-drawn")),
        ("buy it at the new price", lambda: touch(app, tr("ui.btn.buy", space=LANE, price=PRICE))),
        ("charged the new price", lambda: f.session.game is not None
         and f.session.game.players[0].cash == 1500 - PRICE and f.session.game.owner[24] == 0),
    ]


def main() -> int:
    work, language = Path(sys.argv[1]), sys.argv[2]
    work.mkdir(parents=True, exist_ok=True)
    Settings(taps=False, language=language).save(work / "settings.json")
    status, script = run_app(work, lambda app, reader: steps(app, work), phones=True, timeout=PHONE_SECONDS)
    if status or script is None:
        return 1
    print(f"{len(script.steps)} steps passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
