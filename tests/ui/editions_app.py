"""The family's editions by touch (issue 43, the touchscreen's part), in the real app, offscreen: with two
editions and a broken file in $XDG_DATA_HOME/board-banker/editions (ui/tour_editions.py), Settings ->
Editions lists them, the broken one with its reason; "Seaside Town" is renamed on the on-screen keyboard
(its title "Beach" in the family's language on its own keys, then a taken name refused, said, and "beach" typed); "ours" (a title that would be
markup) is deleted with its confirming second touch; back on the start screen, New game offers "Beach" and
neither the deleted nor the broken one; the game started on it, real dice 1 and 2 entered, shows the renamed street on the table.
Run by test_editions_e2e.py in a subprocess (Kivy opens one window per process), in a language and at a
size (E2E_SIZE), with XDG_DATA_HOME set to a scratch folder:

    python tests/ui/editions_app.py WORKDIR LANGUAGE

Exits 0 when every check passed; otherwise prints the failing step.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from e2e_kit import Step, by_role, play_touch_only, texts, touch, touch_role

from banker.editions import list_editions
from ui.app import BankerApp
from ui.flows.editions import broken_reason
from ui.tour_editions import HOSTILE, write_editions

# The new title typed on each language's own keys (the name after it on a-z, in every language).
BEACH = {"en": "beach", "pl": "plaża", "cs": "pláž", "ru": "пляж"}


def steps(app: BankerApp) -> list[Step]:
    f = app.flows
    tr = f.session.tr
    title = BEACH[tr.language].capitalize()  # the first letter a capital by itself

    def on(screen: str) -> Callable[[], bool]:
        return lambda: app.manager.current == screen

    def keys(*pressed: str) -> list[Step]:
        return [(f"key {k}", lambda k=k: touch_role(app, f"key {k}")) for k in pressed]

    def plain(role: str, text: str) -> Callable[[], bool]:
        """The widget shows `text` as it is: markup off."""
        return lambda: (w := by_role(app, role)) is not None and w.text == text and not w.markup

    def absent(role: str) -> Callable[[], bool]:
        return lambda: by_role(app, role) is None

    return [
        ("the start screen", on("home")),
        ("Settings", lambda: touch(app, tr("ui.settings"))),
        ("the settings", on("settings")),
        ("Editions", lambda: touch_role(app, "editions")),
        ("the editions page", on("editions")),
        ("Seaside Town listed", plain("edition seaside", "Seaside Town")),
        ("a title that would be markup, as it is", plain("edition ours", HOSTILE)),
        ("the broken one, greyed", lambda: by_role(app, "edition broken") is not None
         and by_role(app, "rename broken").disabled),
        ("with its reason", lambda: (w := by_role(app, "about broken")) is not None and "start_cash" in w.text
         and w.text == tr("ui.editions.broken", name="broken", reason=broken_reason(tr, list_editions()[0]))),
        ("Rename Seaside Town", lambda: touch_role(app, "rename seaside")),
        ("the keyboard", on("edition_keyboard")),
        ("Clear", lambda: touch_role(app, "key clear")),
        *keys(*BEACH[tr.language]),
        ("the title typed", lambda: f.of("ui.flows.editions:EditionsFlow").editor.text == title),
        ("Done", lambda: touch_role(app, "done")),
        ("the name next", lambda: tr("ui.editions.type_name", name="seaside") in texts(app)),
        ("Clear the name", lambda: touch_role(app, "key clear")),
        *keys("o", "u", "r", "s"),
        ("the taken name said on the keyboard", lambda: tr("ui.editions.name_taken", name="ours") in texts(app)),
        ("Done refused", lambda: touch_role(app, "done")),
        ("still the keyboard", on("edition_keyboard")),
        ("Clear again", lambda: touch_role(app, "key clear")),
        *keys("b", "e", "a", "c", "h"),
        ("Done with the name", lambda: touch_role(app, "done")),
        ("back on the editions", on("editions")),
        ("renamed", plain("edition beach", title)),
        ("the old name gone", absent("edition seaside")),
        ("Delete ours", lambda: touch_role(app, "confirm delete ours")),
        ("it asks for a second touch", lambda: by_role(app, "confirm delete ours").text
         == tr("ui.editions.delete_again") and by_role(app, "edition ours") is not None),
        ("the second touch", lambda: touch_role(app, "confirm delete ours")),
        ("deleted", absent("edition ours")),
        ("said", lambda: tr("ui.editions.deleted", name="ours") in texts(app)),
        ("Back to the settings", lambda: touch(app, tr("ui.back"))),
        ("the settings again", on("settings")),
        ("Back to the start", lambda: touch(app, tr("ui.back"))),
        ("the start screen again", on("home")),
        ("New game", lambda: touch(app, tr("ui.home.new"))),
        ("the new-game screen", on("setup")),
        ("Beach offered", plain("ruleset beach", title)),
        ("neither the deleted nor the broken one", lambda: absent("ruleset ours")() and absent("ruleset broken")()),
        ("Beach chosen", lambda: touch_role(app, "ruleset beach")),
        ("the draft's", lambda: f.setup.draft is not None and f.setup.draft.rules == "beach"),
        ("Start the game", lambda: touch(app, tr("ui.setup.start"))),
        ("the turn screen", on("table")),
        ("Enter real dice", lambda: touch(app, tr("ui.btn.enter_dice"))),
        ("die 1", lambda: touch_role(app, "die0-1")),
        ("die 2", lambda: touch_role(app, "die1-2")),
        ("move by them", lambda: touch(app, tr("ui.dice.done"))),
        ("on the renamed street (space 3)", lambda: f.session.game is not None
         and f.session.game.current.position == 3),
        ("its new name on the table", lambda: "Harbour Lane" in texts(app)),
    ]


def main() -> int:
    work, language = Path(sys.argv[1]), sys.argv[2]
    work.mkdir(parents=True, exist_ok=True)
    write_editions()
    return play_touch_only(work, language, steps)


if __name__ == "__main__":
    sys.exit(main())
