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

from banker.editions import editions_dir, save_edition

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


def phone_saves(link: str, name: str, title: str, source: str = "classic") -> dict[str, object]:
    """A phone at the table: opens the editor's one-time `link` ({base}/e/{code}, claiming its session),
    loads `source` and saves it as the edition `name` titled `title`, with the session's cookie and the page's
    own Origin, as ui/editor.html does. Returns the save's answer; a refused step raises."""
    parts = urlsplit(link)
    assert parts.hostname is not None and parts.port is not None, link
    origin = f"{parts.scheme}://{parts.netloc}"
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        conn.request("GET", parts.path)
        answer = conn.getresponse()
        answer.read()
        cookie = (answer.getheader("Set-Cookie") or "").split(";", 1)[0]
        if answer.status != 303 or not cookie:
            raise RuntimeError(f"the editor's code was refused: {answer.status}")
        conn.request("GET", f"/edit/api/ruleset?name={source}", headers={"Cookie": cookie})
        answer = conn.getresponse()
        loaded = json.loads(answer.read())
        if answer.status != 200:
            raise RuntimeError(f"{source} was not loaded: {answer.status} {loaded}")
        data = loaded["data"]
        data["name"], data["title"] = name, title
        body = json.dumps({"data": data, "original": None, "replace": True}).encode("utf-8")
        conn.request("POST", "/edit/api/save", body=body,
                     headers={"Cookie": cookie, "Origin": origin, "Content-Type": "application/json"})
        answer = conn.getresponse()
        saved: dict[str, object] = json.loads(answer.read())
        if answer.status != 200 or not saved.get("ok"):
            raise RuntimeError(f"the edition was not saved: {answer.status} {saved}")
        return saved
    finally:
        conn.close()


__all__ = ["HOSTILE", "classic_copy", "phone_saves", "write_editions"]
