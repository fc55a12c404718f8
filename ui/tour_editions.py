"""The family's editions the tour shows and the tests play with: copies of classic under names and titles of
their own, a street renamed, and a broken file, written into an editions folder (ui/tour.py: its own scratch
$XDG_DATA_HOME, never the user's); and a phone's visit to the phone server's editor (`phone_saves`: the
requests ui/editor.html makes, so that the tour shows the touchscreen's page while a phone edits). No Kivy
here."""

from __future__ import annotations

import http.client
import json
from importlib import resources
from pathlib import Path
from urllib.parse import urlsplit

from banker.editions import save_edition
from banker.ruleset import editions_dir

HOSTILE = "[b]Ours[/b] & <i>"  # a title that would be markup, were markup on


def classic_copy(name: str, title: str, street: str) -> str:
    """The text of classic as an edition: its `name` and `title`, Baltic Avenue (space 3: a throw of 1 and 2
    from GO) called `street`."""
    text = resources.files("banker.rulesets").joinpath("classic.toml").read_text(encoding="utf-8")
    text = text.replace('name = "classic"', f'name = "{name}"', 1).replace('title = "Classic"', f'title = "{title}"', 1)
    return text.replace('name = "Baltic Avenue"', f'name = "{street}"', 1)


def write_editions(folder: Path | None = None) -> Path:
    """Two editions ("seaside", titled "Seaside Town", its first street "Harbour Lane"; "ours", titled HOSTILE,
    its first street "Our Street") and a broken one ("broken": its starting cash is words, not a number) in
    `folder` (by default the editions folder)."""
    where = folder or editions_dir()
    save_edition(classic_copy("seaside", "Seaside Town", "Harbour Lane"), where)
    save_edition(classic_copy("ours", HOSTILE, "Our Street"), where)
    broken = classic_copy("broken", "Broken Board", "Nowhere")
    (where / "broken.toml").write_text(broken.replace("start_cash = 1500", 'start_cash = "lots"', 1), encoding="utf-8")
    return where


class EditorPhone:
    """A phone at the table, by plain requests as ui/editor.html makes them: `open()` opens the editor's one-time
    link ({base}/e/{code}), claiming its session and keeping its cookie; `save()` loads a ruleset and saves it as
    an edition, with the cookie and the page's own Origin."""

    def __init__(self, link: str) -> None:
        parts = urlsplit(link)
        assert parts.hostname is not None and parts.port is not None, link
        self.host, self.port, self.path = parts.hostname, parts.port, parts.path
        self.origin = f"{parts.scheme}://{parts.netloc}"
        self.cookie = ""

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, str, bytes]:
        """(status, Set-Cookie, body) of one request, with the cookie held, if any."""
        sent = dict(headers or {})
        if self.cookie:
            sent["Cookie"] = self.cookie
        conn = http.client.HTTPConnection(self.host, self.port, timeout=10)
        try:
            conn.request(method, path, body=body, headers=sent)
            answer = conn.getresponse()
            return answer.status, answer.getheader("Set-Cookie") or "", answer.read()
        finally:
            conn.close()

    def open(self) -> int:
        """Open the link; its status (303 when the session is this phone's)."""
        status, cookie, _ = self.request("GET", self.path)
        if status == 303 and cookie:
            self.cookie = cookie.split(";", 1)[0]
        return status

    def save(self, name: str, title: str, source: str = "classic") -> dict[str, object]:
        """Save `source` as the edition `name` titled `title` (replacing one of that name); the save's answer.
        A refused step raises."""
        status, _, body = self.request("GET", f"/edit/api/ruleset?name={source}")
        loaded = json.loads(body)
        if status != 200:
            raise RuntimeError(f"{source} was not loaded: {status} {loaded}")
        data = loaded["data"]
        data["name"], data["title"] = name, title
        payload = json.dumps({"data": data, "original": None, "replace": True}).encode("utf-8")
        status, _, body = self.request("POST", "/edit/api/save", payload,
                                       {"Origin": self.origin, "Content-Type": "application/json"})
        saved: dict[str, object] = json.loads(body)
        if status != 200 or not saved.get("ok"):
            raise RuntimeError(f"the edition was not saved: {status} {saved}")
        return saved


def phone_saves(link: str, name: str, title: str, source: str = "classic") -> dict[str, object]:
    """A phone opens the editor's `link` and saves `source` as the edition `name` titled `title` (the tour's
    phone); the save's answer. A refused step raises."""
    phone = EditorPhone(link)
    status = phone.open()
    if status != 303 or not phone.cookie:
        raise RuntimeError(f"the editor's code was refused: {status}")
    return phone.save(name, title, source)


__all__ = ["EditorPhone", "HOSTILE", "classic_copy", "phone_saves", "write_editions"]
