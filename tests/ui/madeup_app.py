"""A new screen in three places, in the real app, offscreen, by touches only (issue 40): a made-up "tally"
page, its own flow and one entry in the page list (ui/pages.py), nothing else of the app touched.

- its flow (`TallyFlow`): a count the family raises with a button, and its view data;
- its screen (`TallyScreen`): a title with Back, the count, "+1";
- its entry: `Page("tally", "madeup_app:TallyScreen", "madeup_app:TallyFlow", bar="Tally")`, which puts a
  button on the turn screen's bottom bar.

The app resumes a game under way, the bar's "Tally" button is touched, "+1" twice, and Back goes to
the turn screen again; an auction then takes the table from the tally page as from any other. Run by
test_madeup_page.py in a subprocess (Kivy opens one window per process):

    python tests/ui/madeup_app.py WORKDIR

Exits 0 when every check passed; otherwise prints the failing step.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from e2e_kit import Step, by_role, play, touch
from kivy.uix.boxlayout import BoxLayout

from banker.journal import Journal
from banker.script import Header
from ui import pages, theme
from ui.app import BankerApp
from ui.flows.base import Flow
from ui.screens.base import BaseScreen
from ui.settings import Settings
from ui.widgets import BigButton, Text


class TallyFlow(Flow):
    """The made-up flow: a count, raised by its screen's button."""

    def __init__(self, flows: Any) -> None:
        super().__init__(flows)
        self.count = 0

    def add(self) -> None:
        self.count += 1
        self.changed()

    def view(self) -> dict[str, Any]:
        return {"count": self.count, "player": self.game.current.name if self.game is not None else ""}


class TallyScreen(BaseScreen):
    """The made-up screen: its title with Back, the count, and "+1"."""

    def build(self, root: BoxLayout) -> None:
        flow = self.f.of("madeup_app:TallyFlow")
        v = flow.view()
        self.header(root, f"Tally for {v['player']}", lambda: self.f.nav.go("table"))
        count = Text(f"Count {v['count']}", theme.FONT_FIGURE, bold=True)
        count.role = "tally count"
        root.add_widget(count)
        root.add_widget(BigButton("+1", flow.add, "primary", height=theme.TARGET_LARGE))


pages.register(pages.Page("tally", "madeup_app:TallyScreen", "madeup_app:TallyFlow", bar="Tally"))


def steps(app: BankerApp) -> list[Step]:
    f = app.flows

    def count_is(n: int) -> bool:
        shown = by_role(app, "tally count")
        return app.manager.current == "tally" and shown is not None and shown.text == f"Count {n}"

    return [
        ("the turn screen of the resumed game, the tally on its bar", lambda: app.manager.current == "table" and touch(app, "Tally")),
        ("the tally page", lambda: count_is(0)),
        ("+1", lambda: touch(app, "+1")),
        ("one", lambda: count_is(1)),
        ("+1 again", lambda: touch(app, "+1")),
        ("two", lambda: count_is(2)),
        ("back", lambda: touch(app, f.session.tr("ui.back"))),
        ("the turn screen again", lambda: app.manager.current == "table"),
        ("the tally once more", lambda: touch(app, "Tally")),
        ("still two", lambda: count_is(2)),
        ("Ann declines Baltic Avenue (the tally page shows meanwhile)",
         lambda: f.paying.request({"do": "decline"}) is None),
        ("the auction takes the table", lambda: app.manager.current == "auction"),
    ]


def main() -> int:
    work = Path(sys.argv[1])
    work.mkdir(parents=True, exist_ok=True)
    with Journal(work / "games.sqlite3") as journal:  # a game under way, for the app to resume
        live = journal.start(Header(rules="classic", players=["Ann", "Ben"], seed=1),
                             meta={"colours": {"Ann": "#E53935", "Ben": "#1E88E5"}, "started": time.time()})
        live.apply({"do": "roll", "dice": [1, 2]})  # Ann on Baltic Avenue, which she may buy
    Settings(taps=False).save(work / "settings.json")
    app = BankerApp(work / "games.sqlite3", hardware=False, phones=False, settings_file=work / "settings.json", voice=False,
                    motion=False)
    failed, script = play(app, lambda: steps(app))
    if not failed and script is not None:
        print(f"{len(script.steps)} steps passed")
    return failed


if __name__ == "__main__":
    sys.exit(main())
