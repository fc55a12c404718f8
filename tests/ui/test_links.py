"""The links a person may type off the screen (issue 54, point 9): every kind the app shows (the table's
phone link, a player's, continue on another device, the phone editor's code) is made of ui/tokens.py's
alphabet without look-alikes, with at least 128 random bits; a token handed out before keeps working; and no
module makes a token of its own (the class of problem: one function makes every typed token). The real app,
by touch, with HTTP: tests/ui/link_app.py."""

from __future__ import annotations

import ast
import math
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from flowkit import FakeWeb, make, start
from ui.flows.editions import EditionsFlow
from ui.phone import phone_state
from ui.tokens import ALPHABET, BITS, LOOK_ALIKES, TOKEN_LENGTH, is_typed_token, typed_token

ROOT = Path(__file__).resolve().parents[2]
OLD_TOKEN = "FlPLT0k3J9xQ2v7Lm4Tz1I"  # a secrets.token_urlsafe(16) of before, with every look-alike


def token_of(link: str) -> str:
    """The secret part of a link the app shows: the path's last segment (a player's ?p=NAME is their name)."""
    return urlsplit(link).path.rsplit("/", 1)[1]


def typed(token: str) -> bool:
    return (not set(LOOK_ALIKES) & set(token) and set(token) <= set(ALPHABET)
            and len(token) * math.log2(len(ALPHABET)) >= BITS)


def test_the_alphabet_has_no_look_alikes_and_a_token_at_least_128_bits() -> None:
    assert len(set(ALPHABET)) == len(ALPHABET) == 32 and not set(LOOK_ALIKES) & set(ALPHABET)
    assert ALPHABET == ALPHABET.lower() and TOKEN_LENGTH * math.log2(len(ALPHABET)) >= 128
    made = {typed_token() for _ in range(200)}
    assert len(made) == 200 and all(typed(t) and is_typed_token(t) for t in made)
    assert set("".join(made)) == set(ALPHABET)  # every character drawn (200 x 26 of 32: surely)
    assert not is_typed_token(OLD_TOKEN) and not is_typed_token(typed_token()[:-1])


def test_every_link_the_app_shows_is_typed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # the editions page's own folder
    c = make(tmp_path)
    c.phones.connect(FakeWeb(), "http://192.168.1.20:8080", phone_state)
    editions = c.of("ui.flows.editions:EditionsFlow")
    assert isinstance(editions, EditionsFlow)
    c.nav.go("settings")
    c.nav.go("editions")
    editions.edit_on_phone()  # between games: the phone editor's code
    editor = editions.phone_view()
    assert editor["server"] and "/e/" in editor["link"]
    editions.phone_done()
    start(c)
    c.taps.card_tapped(next(iter(c.session.meta["cards"])))  # a player's own code, on the turn screen
    shown = {"table": c.phones.view()["link"], "player": c.turn.view()["player_qr"]["link"],
             "editor": editor["link"]}
    c.phones.show_move()
    shown["move"] = c.phones.view()["move_url"]
    c.phones.hide_move()
    c.phones.revoke()
    shown["new link"] = c.phones.view()["link"]
    for kind, link in shown.items():
        assert link and typed(token_of(link)), f"{kind}: {link}"
    assert "/g/" in shown["table"] and "/m/" in shown["move"] and shown["player"].startswith(shown["table"] + "?p=")


def test_a_token_handed_out_before_keeps_working_beside_a_new_one(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c)
    c.session.meta["web_token"] = OLD_TOKEN  # as a game of before kept it
    c.session.save_meta()
    c.session.journal.close()
    again = make(tmp_path)  # the app started again, the game going on
    web = FakeWeb()
    again.phones.connect(web, "http://192.168.1.20:8080", phone_state)
    assert again.home.resume()
    again.phones.publish()
    link = again.phones.view()["link"]
    assert typed(token_of(link)) and OLD_TOKEN not in link
    assert set(web.states) == {token_of(link), OLD_TOKEN}  # both answer, with the same page
    assert web.states[OLD_TOKEN] == web.states[token_of(link)]
    assert again.session.journal.meta(again.session.live.id)["web_tokens_before"] == [OLD_TOKEN]  # type: ignore[union-attr]
    again.phones.revoke()  # New link: every link before answers nothing
    assert set(web.states) == {token_of(again.phones.view()["link"])} and OLD_TOKEN not in web.states
    # A finished game's results stay on its links, the old one's too, after a restart.
    other = make(tmp_path / "finished")
    start(other)
    other.session.meta["web_token"] = OLD_TOKEN
    other.session.save_meta()
    other.phones.connect(FakeWeb(), "http://192.168.1.20:8080", phone_state)
    other.phones.publish()
    other.banker.end_game()
    other.home.close_game()
    other.session.journal.close()
    restarted = make(tmp_path / "finished")
    restarted.phones.connect(FakeWeb(), "http://192.168.1.20:8080", phone_state)
    restarted.phones.publish_finished()
    assert OLD_TOKEN in restarted.phones.web.states and len(restarted.phones.web.states) == 2


TOKEN_MAKERS = {"token_urlsafe", "token_hex", "token_bytes"}


def test_no_module_makes_a_token_of_its_own() -> None:
    """The class: a link's token is made by ui/tokens.py only (its typed_token), so no new kind of link can
    bring look-alikes back; a call of secrets' token makers anywhere else in ui/ is a finding."""
    found = []
    for path in sorted((ROOT / "ui").rglob("*.py")):
        if path == ROOT / "ui" / "tokens.py":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            name = (node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name)
                    else None)
            if name in TOKEN_MAKERS:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
            if isinstance(node, ast.ImportFrom) and node.module == "secrets" and any(
                    a.name in TOKEN_MAKERS for a in node.names):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: from secrets import")
    assert not found, found


@pytest.mark.parametrize("language, mode, size", [("en", "new", "800x480"), ("ru", "old", "800x480"),
                                                  ("pl", "new", "1280x720")])
def test_the_link_shown_by_touch_opens_over_http(tmp_path: Path, language: str, mode: str, size: str) -> None:
    env = {**os.environ, "E2E_SIZE": size,
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "tests" / "ui"), str(ROOT / "tests"),
                                                       os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "ui" / "link_app.py"), str(tmp_path), language,
                           mode], capture_output=True, text=True, cwd=ROOT, env=env, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "steps passed" in done.stdout
