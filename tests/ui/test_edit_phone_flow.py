""""Edit on a phone" in the flows (ui/flows/editions.py), without a window, on a real phone server (ui/phoneserver/'s
PhoneServer on 127.0.0.1, its clock injected): the editions page opens the server's editor with a fresh one-time
code and shows its link; "New code" ends the old one; the editor's state is polled every second and redrawn only
when it changed; leaving the page any way (Done, Back, another page, a new game, a game resumed) closes the
editor; without a phone server the page says it is off and how to turn it on; never during a game. A phone is
played by plain requests, as the editor page makes them (ui/tour_editions.py's `EditorPhone`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web import Clock

from flowkit import make, start
from ui.flows.editions import EditionsFlow, editor_parts
from ui.pages import EDITION_PHONE_PAGE
from ui.phoneserver.editing import EDIT_IDLE
from ui.tokens import is_typed_token
from ui.tour_editions import EditorPhone as Phone
from ui.web import PhoneServer
from ui.where import Where

EDITIONS = "ui.flows.editions:EditionsFlow"


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"


class Server(PhoneServer):
    """The real phone server, counting how often the flow asks for the editor's state."""

    polls = 0

    def editor_status(self) -> dict[str, Any]:
        self.polls += 1
        return super().editor_status()


@pytest.fixture
def web() -> Iterator[Server]:
    server = Server(["127.0.0.1"], 0, clock=Clock())
    server.start()
    try:
        yield server
    finally:
        server.stop()


def app(tmp_path: Path, web: Server | None) -> tuple[Any, EditionsFlow, list[str]]:
    """The flows with the phone server `web` (None: no server), on the editions page; the languages the editor
    was opened in."""
    c = make(tmp_path, taps=False)
    if web is not None:
        c.phones.connect(web, f"http://127.0.0.1:{web.port}", lambda session: {})
    flow = c.of(EDITIONS)
    assert isinstance(flow, EditionsFlow)
    languages: list[str] = []

    def parts(tr: Any) -> tuple[dict[str, str], Any]:
        languages.append(tr.language)
        return editor_parts(tr)

    flow.editor_parts = parts
    c.nav.go("settings")
    c.nav.go("editions")
    return c, flow, languages


def redraws(c: Any) -> list[int]:
    """Counts the session's changes (each one a redraw in the app)."""
    seen: list[int] = []
    c.session.listeners.append(lambda: seen.append(1))
    return seen


def test_edit_on_a_phone_offers_a_fresh_code_as_a_link(tmp_path: Path, data_home: Path, web: Server) -> None:
    c, flow, languages = app(tmp_path, web)
    c.settings.set_language("pl")
    flow.edit_on_phone()
    assert c.nav.screen_name() == EDITION_PHONE_PAGE
    view = flow.phone_view()
    base = f"http://127.0.0.1:{web.port}/e/"
    assert view == {"server": True, "link": view["link"], "state": "waiting", "saved": []}
    code = view["link"][len(base):]
    assert view["link"] == base + code and is_typed_token(code)  # no look-alikes, 128 bits at least (ui/tokens.py)
    assert languages == ["pl"]
    stranger = Phone(view["link"])
    status, _, page = stranger.request("GET", "/edit")  # no session yet: the editor says so in the table's language
    assert status == 403 and c.session.tr("ui.editor.ended").split(":")[0] in page.decode("utf-8")
    assert Phone(view["link"]).open() == 303  # the first phone claims it
    assert stranger.open() == 410  # the next is refused


def test_new_code_ends_the_old_one(tmp_path: Path, data_home: Path, web: Server) -> None:
    c, flow, _ = app(tmp_path, web)
    flow.edit_on_phone()
    first = flow.phone_view()["link"]
    phone = Phone(first)
    assert phone.open() == 303
    phone.save("our-street", "Our Street")
    flow.tick()
    assert flow.phone_view()["state"] == "editing" and flow.phone_view()["saved"] == ["Our Street"]
    flow.new_code()
    second = flow.phone_view()["link"]
    assert second != first and c.nav.page == EDITION_PHONE_PAGE
    assert flow.phone_view() == {"server": True, "link": second, "state": "waiting", "saved": []}
    assert phone.request("GET", "/edit")[0] == 403  # the old session ended with its code
    assert Phone(first).open() == 404 and Phone(second).open() == 303


def test_the_state_is_redrawn_only_when_it_changed(tmp_path: Path, data_home: Path, web: Server) -> None:
    c, flow, _ = app(tmp_path, web)
    flow.edit_on_phone()
    seen = redraws(c)
    polls = web.polls
    for _ in range(3):
        c.tick()  # the app's every second
    assert web.polls == polls + 3 and seen == []  # asked each second, nothing changed: nothing redrawn
    phone = Phone(flow.phone_view()["link"])
    assert phone.open() == 303
    c.tick()
    c.tick()
    assert len(seen) == 1 and flow.phone_view()["state"] == "editing"
    phone.save("our-street", "Our Street")
    c.tick()
    phone.save("our-street", "Our Street")
    phone.save("ours", "[b]Ours[/b]")
    c.tick()
    assert len(seen) == 3
    assert flow.phone_view()["saved"] == ["Our Street", "[b]Ours[/b]"]  # each title once, as typed
    web.clock.now += EDIT_IDLE + 1  # the phone put away: the session lapses
    c.tick()
    assert len(seen) == 4 and flow.phone_view()["state"] == "ended"


@pytest.mark.parametrize("leave", ["done", "settings", "new game", "another page"])
def test_leaving_the_page_any_way_closes_the_editor(tmp_path: Path, data_home: Path, web: Server,
                                                    leave: str) -> None:
    c, flow, languages = app(tmp_path, web)
    flow.edit_on_phone()
    phone = Phone(flow.phone_view()["link"])
    assert phone.open() == 303
    if leave == "done":  # Done, and the header's Back
        flow.phone_done()
        assert c.nav.page == "editions"
    elif leave == "settings":
        c.nav.go("settings")
    elif leave == "new game":
        c.setup.new_game()
        assert c.mode == "setup"
    else:
        c.nav.go("fame")
    assert not flow.on_phone and phone.request("GET", "/edit")[0] == 403  # the phone's session is over
    polls = web.polls
    c.tick()
    assert web.polls == polls  # nothing polled once closed
    c.nav.go(EDITION_PHONE_PAGE)  # not through "Edit on a phone": the page gives way to the editions
    if c.mode == "home":
        assert c.nav.screen_name() == "editions"
    assert languages == ["en"] and web.editor_status()["state"] == "ended"  # opened once, and no more


def test_a_game_resumed_closes_the_editor(tmp_path: Path, data_home: Path, web: Server) -> None:
    c, flow, _ = app(tmp_path, web)
    start(c)
    c.session.close()  # the game left unfinished: the start screen offers it again
    c.nav.go("editions")
    assert c.mode == "home" and c.home.can_resume()
    flow.edit_on_phone()
    assert web.editor_status()["state"] == "waiting"
    seen = redraws(c)
    assert c.home.resume()  # the session's `opened` hook closes the editor
    assert web.editor_status()["state"] == "ended" and not flow.on_phone and seen
    assert Phone(f"http://127.0.0.1:{web.port}/e/x").open() == 404


def test_without_a_phone_server_the_page_says_why_and_what_to_do(tmp_path: Path, data_home: Path) -> None:
    """The page names the real cause (ui/where.py's words, as the app reports them), never a file that is not
    there: switched off in the config file read, or the port taken."""
    c, flow, languages = app(tmp_path, None)
    flow.edit_on_phone()
    assert c.nav.screen_name() == EDITION_PHONE_PAGE
    assert flow.phone_view() == {"server": False, "off": c.session.tr("ui.where.phones_starting")}
    assert languages == []  # no editor opened
    flow.new_code()
    flow.tick()
    assert flow.phone_view()["server"] is False
    c.settings.place(Where(pi=True, hardware=True, config="/home/pi/banker.toml"))  # the config file the app read
    c.phones.off_because("disabled", 8080)
    off = flow.phone_view()["off"]
    assert off == c.session.tr("ui.where.phones_disabled", config="/home/pi/banker.toml") and "/etc/" not in off
    c.phones.off_because("port_in_use", 8080)
    assert flow.phone_view()["off"] == c.session.tr("ui.where.phones_port", port="8080")
    assert "8080" in flow.phone_view()["off"] and "banker.toml" not in flow.phone_view()["off"]
    flow.phone_done()
    assert c.nav.page == "editions"


def test_the_editor_is_not_offered_during_a_game(tmp_path: Path, data_home: Path, web: Server) -> None:
    c, flow, languages = app(tmp_path, web)
    start(c)
    flow.edit_on_phone()
    assert languages == [] and not flow.on_phone and web.editor_status() == {"state": "ended", "saved": []}
    c.nav.go(EDITION_PHONE_PAGE)
    assert c.nav.screen_name() == "table"


def test_the_editor_parts_are_the_editor_page_and_service() -> None:
    """The real wiring (ui/editor.py, ui/editor_page.py): the labels in the family's language, a service that
    lists the shipped rulesets."""
    from ui.i18n import Translator

    labels, service = editor_parts(Translator("cs"))
    assert labels and all(isinstance(k, str) and isinstance(v, str) for k, v in labels.items())
    assert "classic" in [s["name"] for s in service.sources()]
