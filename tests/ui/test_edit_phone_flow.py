""""Edit on a phone" in the flows (ui/flows/editions.py), without a window: the editions page opens the phone
server's editor with a fresh one-time code and shows its link; "New code" ends the old one; the editor's state is
polled every second and redrawn only when it changed; leaving the page any way (Done, Back, another page, a new
game) closes the editor; without a phone server the page says it is off and how to turn it on; never during a
game. The phone server here is a fake that records what the flow asks of it (ui/web.py's PhoneServer is
tested with its own routes in tests/ui/test_web.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from controllerkit import make, start
from ui.flows.editions import PHONE_PAGE, EditionsFlow

EDITIONS = "ui.flows.editions:EditionsFlow"
BASE = "http://192.168.1.20:8080"


class FakeWeb:
    """What the flow asks of ui/web.py's PhoneServer: `open_editor` replaces the code (the old session ends),
    `close_editor` ends it, `editor_status` reports the state a test sets."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.code: str | None = None
        self.state: dict[str, Any] = {"state": "ended", "saved": []}
        self.polls = 0

    def open_editor(self, code: str, page_labels: dict[str, str], service: Any) -> None:
        self.calls.append(("open", code, page_labels, service))
        self.code = code
        self.state = {"state": "waiting", "saved": []}

    def close_editor(self) -> None:
        self.calls.append(("close",))
        self.code = None
        self.state = {"state": "ended", "saved": self.state["saved"]}

    def editor_status(self) -> dict[str, Any]:
        self.polls += 1
        return {"state": self.state["state"], "saved": list(self.state["saved"])}

    def publish(self, token: str, state: Any) -> None:  # the game's phone page (ui/flows/phones.py)
        self.calls.append(("publish", token))

    def opened(self) -> list[str]:
        return [call[1] for call in self.calls if call[0] == "open"]

    def closes(self) -> int:
        return sum(1 for call in self.calls if call[0] == "close")


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"


def app(tmp_path: Path, web: FakeWeb | None) -> tuple[Any, EditionsFlow, list[str]]:
    """The flows with the phone server `web` (None: no server), the editions flow with its editor parts
    recorded (the language each was asked in), on the editions page."""
    c = make(tmp_path, taps=False)
    if web is not None:
        c.phones.connect(web, BASE, lambda session: {})
    flow = c.of(EDITIONS)
    assert isinstance(flow, EditionsFlow)
    languages: list[str] = []

    def parts(tr: Any) -> tuple[dict[str, str], Any]:
        languages.append(tr.language)
        return {"ended": tr("ui.editions.phone_ended")}, f"service {len(languages)}"

    flow.editor_parts = parts
    c.nav.go("settings")
    c.nav.go("editions")
    return c, flow, languages


def redraws(c: Any) -> list[int]:
    """Counts the session's changes (each one a redraw in the app)."""
    seen: list[int] = []
    c.session.listeners.append(lambda: seen.append(1))
    return seen


def test_edit_on_a_phone_offers_a_fresh_code_as_a_link(tmp_path: Path, data_home: Path) -> None:
    web = FakeWeb()
    c, flow, languages = app(tmp_path, web)
    c.settings.set_language("pl")
    flow.edit_on_phone()
    assert c.nav.screen_name() == PHONE_PAGE
    [(verb, code, labels, service)] = web.calls
    assert verb == "open" and len(code) == 22 and code.replace("-", "").replace("_", "").isalnum()  # 128 bits
    assert labels == {"ended": "Ten kod już wygasł. Dotknij „Nowy kod”, aby zrobić nowy."} and service == "service 1"
    assert languages == ["pl"]
    assert flow.phone_view() == {"server": True, "link": f"{BASE}/e/{code}", "state": "waiting", "saved": []}


def test_new_code_ends_the_old_one(tmp_path: Path, data_home: Path) -> None:
    web = FakeWeb()
    c, flow, _ = app(tmp_path, web)
    flow.edit_on_phone()
    web.state = {"state": "editing", "saved": ["Our Street"]}
    flow.tick()
    first = flow.phone_view()["link"]
    flow.new_code()
    old, new = web.opened()
    assert old != new and web.code == new  # the server's open_editor replaced the code: the old session ended
    assert flow.phone_view() == {"server": True, "link": f"{BASE}/e/{new}", "state": "waiting", "saved": []}
    assert first == f"{BASE}/e/{old}" and c.nav.page == PHONE_PAGE


def test_the_state_is_redrawn_only_when_it_changed(tmp_path: Path, data_home: Path) -> None:
    web = FakeWeb()
    c, flow, _ = app(tmp_path, web)
    flow.edit_on_phone()
    seen = redraws(c)
    polls = web.polls
    for _ in range(3):
        c.tick()  # the app's every second
    assert web.polls == polls + 3 and seen == []  # asked each second, nothing changed: nothing redrawn
    web.state = {"state": "editing", "saved": []}
    c.tick()
    c.tick()
    assert len(seen) == 1 and flow.phone_view()["state"] == "editing"
    web.state = {"state": "editing", "saved": ["Our Street"]}
    c.tick()
    web.state = {"state": "editing", "saved": ["Our Street", "Our Street", "[b]Ours[/b]"]}
    c.tick()
    assert len(seen) == 3
    assert flow.phone_view()["saved"] == ["Our Street", "[b]Ours[/b]"]  # each title once, as typed
    web.state = {"state": "ended", "saved": ["Our Street"]}  # the session lapsed
    c.tick()
    assert len(seen) == 4 and flow.phone_view()["state"] == "ended"


@pytest.mark.parametrize("leave", ["done", "settings", "new game", "another page"])
def test_leaving_the_page_any_way_closes_the_editor(tmp_path: Path, data_home: Path, leave: str) -> None:
    web = FakeWeb()
    c, flow, _ = app(tmp_path, web)
    flow.edit_on_phone()
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
    assert web.closes() == 1 and web.code is None and not flow.on_phone
    polls = web.polls
    c.tick()
    assert web.polls == polls  # nothing polled once closed
    c.nav.go(PHONE_PAGE)  # not through "Edit on a phone": the page gives way to the editions
    if c.mode == "home":
        assert c.nav.screen_name() == "editions"
    assert web.opened() and len(web.opened()) == 1 and web.closes() == 1


def test_a_game_resumed_closes_the_editor(tmp_path: Path, data_home: Path) -> None:
    web = FakeWeb()
    c, flow, _ = app(tmp_path, web)
    start(c)
    c.session.close()  # the game left unfinished: the start screen offers it again
    c.nav.go("editions")
    assert c.mode == "home" and c.home.can_resume()
    flow.edit_on_phone()
    assert web.code is not None
    seen = redraws(c)
    assert c.home.resume()  # the session's `opened` hook closes the editor
    assert web.closes() == 1 and web.code is None and not flow.on_phone and seen


def test_without_a_phone_server_the_page_says_how_to_turn_it_on(tmp_path: Path, data_home: Path) -> None:
    c, flow, languages = app(tmp_path, None)
    flow.edit_on_phone()
    assert c.nav.screen_name() == PHONE_PAGE
    assert flow.phone_view() == {"server": False, "config": "/etc/board-banker/config.toml"}
    assert languages == []  # no editor opened
    flow.new_code()
    flow.tick()
    assert flow.phone_view()["server"] is False
    c.settings.hardware_config("/home/pi/banker.toml")  # the app names the config file it read
    assert flow.phone_view() == {"server": False, "config": "/home/pi/banker.toml"}
    assert c.session.tr("ui.editions.phone_off", config="/home/pi/banker.toml").count("[web]") == 1
    flow.phone_done()
    assert c.nav.page == "editions"


def test_the_editor_is_not_offered_during_a_game(tmp_path: Path, data_home: Path) -> None:
    web = FakeWeb()
    c, flow, languages = app(tmp_path, web)
    start(c)
    flow.edit_on_phone()
    assert web.opened() == [] and languages == [] and not flow.on_phone
    c.nav.go(PHONE_PAGE)
    assert c.nav.screen_name() == "table"


def test_the_editor_parts_are_the_editor_page_and_service() -> None:
    """The real wiring (ui/editor.py, ui/editor_page.py): the labels in the family's language, a service that
    lists the shipped rulesets."""
    pytest.importorskip("ui.editor")
    pytest.importorskip("ui.editor_page")
    from ui.flows.editions import editor_parts
    from ui.i18n import Translator

    labels, service = editor_parts(Translator("cs"))
    assert labels and all(isinstance(k, str) and isinstance(v, str) for k, v in labels.items())
    assert "classic" in [s["name"] for s in service.sources()]
