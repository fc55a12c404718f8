"""A new screen is three places (issue 40): a made-up page, its flow and one entry in ui/pages.py, reached by
touches in the real app (tests/ui/madeup_app.py), and registered without Kivy on the flows alone."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from flowkit import make, start
from ui import pages
from ui.flows.base import Flow

ROOT = Path(__file__).resolve().parents[2]


def test_a_made_up_page_is_reached_by_touch(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "tests" / "ui"), str(ROOT / "tests"), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "ui" / "madeup_app.py"), str(tmp_path)],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "steps passed" in done.stdout


class Leaving(Flow):
    """A flow whose page may show only while the game waits for a decision (else the deeds page shows)."""

    def leave(self, page: str) -> str | None:
        game = self.game
        return "deeds" if game is not None and game.decision is None else None


def test_a_registered_page_and_flow_route_like_the_others(tmp_path: Path) -> None:
    page = pages.register(pages.Page("made", "nowhere:Screen", f"{__name__}:Leaving", bar="Made up"))
    try:
        c = make(tmp_path, taps=False)
        start(c)
        assert ("made", "Made up") in c.turn.nav_bar()["links"]  # its button on the turn screen's bar
        c.turn.roll()  # Ann on Baltic Avenue: a decision owed, so the page may show
        c.nav.go("made")
        assert c.nav.screen_name() == "made" and isinstance(c.of(page.flow), Leaving)
        assert c.of(page.flow) is c.of(page.flow) and c.of(page.flow) in c.session.flows  # one flow, told of actions
        c.paying.request({"do": "buy"})  # decided: the flow sends the family on
        assert c.nav.screen_name() == "deeds" and c.nav.page == "deeds"
        c.banker.end_game()
        c.nav.page = "made"
        assert c.nav.screen_name() == "over"  # a page of the table only: the game-over screen shows instead
    finally:
        pages.unregister("made")
    assert "made" not in pages.PAGES
