"""The phone links a person may type (issue 54, point 9), in the real app offscreen with its phone server on
127.0.0.1, by touches only:

- "new": a new game by touch, Banker, Phones: QR code. The link shown as text on the phones page holds no
  look-alike character (0 O 1 l I) in its token, which has at least 128 bits; the link read off the screen
  opens the phone page and its state over HTTP (200). Continue on another device: its one-time link, as
  shown, the same, and it downloads the game (200), which then lives on the other device.
- "old": a game started before, whose phone link ("/g/" + a `secrets.token_urlsafe` token with l, I, 0 and
  1 in it) was handed out then, going on where the app opens: the phones page shows a new link without look-alikes,
  and both the new and the old link open the page and its state (200); after New link neither does (404).

Run by test_links.py in a subprocess (Kivy opens one window per process):

    E2E_SIZE=800x480 python tests/ui/link_app.py WORKDIR LANGUAGE new|old

Prints "N steps passed" and exits 0 when every check passed; otherwise prints the failing step.
"""

from __future__ import annotations

import math
import re
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from e2e_kit import Step, passed, run_app, texts, touch  # sets Kivy up first

from banker.journal import Journal
from banker.script import Header
from ui.settings import Settings

OLD_TOKEN = "FlPLT0k3J9xQ2v7Lm4Tz1I"  # made before (secrets.token_urlsafe(16)): every look-alike in it
LOOK_ALIKES = set("0O1lIo")
TYPED = set("23456789abcdefghijkmnpqrstuvwxyz")  # what a link shown for typing is made of (ui/tokens.py)
LINK = re.compile(r"https?://\S+/(g|m)/([^/?\s]+)")


def fetch(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def steps(app: Any, mode: str) -> list[Step]:
    f = app.flows
    tr = f.session.tr
    got: dict[str, Any] = {}

    def on(screen: str) -> Callable[[], bool]:
        return lambda: app.manager.current == screen

    def shown_link(kind: str) -> Callable[[], bool]:
        """The link on the screen as text (what a person would type), of kind "g" (the table) or "m" (move)."""
        def run() -> bool:
            found = [m for m in LINK.finditer(texts(app)) if m.group(1) == kind]
            if len(found) != 1:
                return False
            got[kind] = found[0].group(0)
            token = found[0].group(2)
            assert not LOOK_ALIKES & set(token), f"look-alike characters in the link shown: {token!r}"
            assert set(token) <= TYPED and len(token) * math.log2(len(TYPED)) >= 128, (
                f"the link's token {token!r} is not of the typed alphabet, or under 128 bits")
            return True
        return run

    def answers(url: Callable[[], str], status: int) -> Callable[[], bool]:
        return lambda: fetch(url()) == status and fetch(url() + "/state") == status

    found: list[Step] = []
    if mode == "new":
        found += [("the start screen", on("home")),
                  ("New game", lambda: touch(app, tr("ui.home.new"))),
                  ("the new-game screen", on("setup")),
                  ("Start the game", lambda: touch(app, tr("ui.setup.start")))]
    found += [  # (a game going is where the app opens)
        ("the turn screen", on("table")),
        ("Banker", lambda: touch(app, tr("ui.nav.banker"))),
        ("Phones: QR code", lambda: touch(app, tr("ui.phones.button"))),
        ("the phones page", on("phones")),
        ("the table's link as text, without look-alikes", shown_link("g")),
        ("it opens the phone page and its state", answers(lambda: got["g"], 200)),
    ]
    if mode == "old":
        old = lambda: got["g"].rsplit("/g/", 1)[0] + "/g/" + OLD_TOKEN  # noqa: E731
        found += [
            ("a new token shown, not the old one", lambda: OLD_TOKEN not in texts(app)),
            ("the link handed out before still opens the page", answers(old, 200)),
            ("the same game's state under both", lambda: fetch(old() + "/state") == 200),
            ("New link", lambda: touch(app, tr("ui.phones.revoke"))),
            ("a newer link shown", lambda: got["g"] not in texts(app) and shown_link("g")()),
            ("the links before answer nothing", lambda: fetch(old() + "/state") == 404),
            ("the newer one opens", answers(lambda: got["g"], 200)),
        ]
    else:
        found += [
            ("Continue on another device", lambda: touch(app, tr("ui.phones.move"))),
            ("its one-time link as text, without look-alikes", shown_link("m")),
            ("it downloads the game", lambda: fetch(got["m"]) == 200),
            ("the game moved: the start screen", lambda: on("home")() and f.session.live is None),
        ]
    return found


def main() -> int:
    work, language, mode = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    work.mkdir(parents=True, exist_ok=True)
    if mode == "old":
        with Journal(work / "games.sqlite3") as journal:
            journal.start(Header(rules="classic", players=["Ann", "Ben"], seed=1),
                          meta={"colours": {"Ann": "#E53935", "Ben": "#1E88E5"}, "started": time.time(),
                                "web_token": OLD_TOKEN})
    Settings(taps=False, language=language).save(work / "settings.json")
    return passed(*run_app(work, lambda app, reader: steps(app, mode), phones=True, timeout=10))


if __name__ == "__main__":
    sys.exit(main())
