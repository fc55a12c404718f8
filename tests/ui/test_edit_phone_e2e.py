"""Issue 43's whole story, by touch and with a phone only: the real app (tests/ui/edit_phone_app.py, offscreen,
its phone server on 127.0.0.1) shows the editor's QR code; the test reads the link the app's pixels decoded and
opens it in a headless Chromium at a phone's 375x667, which copies classic into "our-street" titled "Our
Street", renames Illinois Avenue and changes its price, saves, and downloads the edition as its TOML file; the
file then uploads on another Board Banker (a second phone server with its own editions folder). The app goes on
by touch: the new-game screen offers "Our Street", and a game on it shows the new name, draws the Chance card
that names it and charges the new price. A hand-broken file in the editions folder is listed as broken."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from banker.ruleset import load_edition
from ui.editor import EditorService
from ui.editor_page import editor_labels
from ui.i18n import Translator
from ui.web import PhoneServer

ROOT = Path(__file__).resolve().parents[2]
page = pytest.importorskip("test_phone_page")  # its Browser and CHROMIUM
editing = pytest.importorskip("test_editor_page")  # its ways of typing, choosing a file, reading a promise
pytestmark = pytest.mark.skipif(page.CHROMIUM is None,
                                reason="Chromium is not installed (Debian: apt-get install chromium)")

LANE, PRICE = "Our Lane", 260  # edit_phone_app.py expects these
BROKEN = 'extends = "classic"\nname = "broken"\ntitle = "Broken"\n[options]\nstart_cash = -5\n'


@pytest.mark.parametrize("language, size", [("en", "800x480"), ("pl", "1024x600"), ("cs", "1280x720"),
                                            ("ru", "800x480")])
def test_an_edition_made_on_a_phone_is_played_on_the_table(tmp_path: Path, language: str, size: str) -> None:
    data = tmp_path / "data"
    folder = data / "board-banker" / "editions"
    folder.mkdir(parents=True)
    (folder / "broken.toml").write_text(BROKEN, "utf-8")
    work = tmp_path / "work"
    env = {**os.environ, "E2E_SIZE": size, "XDG_DATA_HOME": str(data),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "tests" / "ui"), str(ROOT / "tests"), os.environ.get("PYTHONPATH")]))}
    app = subprocess.Popen([sys.executable, str(ROOT / "tests" / "ui" / "edit_phone_app.py"), str(work), language],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    try:
        link = _link(work / "link.txt", app)
        asyncio.run(_phone(link, tmp_path, Translator(language)))
        (work / "phone-done").write_text("", "utf-8")
        out, err = app.communicate(timeout=240)
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()
    assert app.returncode == 0, out + err[-3000:]
    assert "steps passed" in out
    assert load_edition("our-street", folder).spaces[24].name == LANE


def _link(path: Path, app: subprocess.Popen[str]) -> str:
    """The editor's link, once the app has read its QR code from the screen."""
    deadline = time.monotonic() + 120
    while not path.exists():
        if app.poll() is not None:
            out, err = app.communicate()
            raise AssertionError("the app ended before showing the code:\n" + out + err[-3000:])
        assert time.monotonic() < deadline, "the app showed no code"
        time.sleep(0.1)
    return path.read_text("utf-8")


async def _phone(link: str, tmp_path: Path, tr: Translator) -> None:
    field, labels = editing.field, editor_labels(tr)
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    async with page.Browser(tmp_path / "profile") as b:
        await b.send("Page.enable")
        await b.send("Runtime.enable")
        await b.send("Browser.setDownloadBehavior", behavior="allow", downloadPath=str(downloads))
        await b.send("Page.navigate", url=link)
        # Start from classic; name, title, the street's name and price; save.
        await b.wait_for("document.querySelector('button[data-name=classic]') !== null", timeout=20)
        await b.js("document.querySelector('button[data-name=classic]').click()")
        await b.wait_for(f"document.querySelector('{field('spaces[24].price')}') !== null")
        await editing._type(b, field("name"), "our-street")
        await editing._type(b, field("title"), "Our Street")
        await editing._type(b, field("spaces[24].name"), LANE)
        await editing._type(b, field("spaces[24].price"), str(PRICE))
        await b.js("document.getElementById('save').click()")
        await b.wait_for("document.getElementById('note').classList.contains('ok')", timeout=10)
        assert "Our Street" in await b.js("document.getElementById('note').textContent")
        # Download: the edition's file, as the phone's browser saves it.
        await b.js("document.getElementById('back').click()")
        link_css = "[data-kind=edition] a.dl"
        await b.wait_for(f"document.querySelector('{link_css}') !== null")
        assert await b.js(f"document.querySelector('{link_css}').textContent") == labels["download"]
        await b.js(f"document.querySelector('{link_css}').click()")
        saved = downloads / "our-street.toml"
        deadline = time.monotonic() + 20
        while not saved.exists():
            assert time.monotonic() < deadline, sorted(p.name for p in downloads.iterdir())
            await asyncio.sleep(0.1)
        assert tomllib.loads(saved.read_text("utf-8"))["spaces"][24]["name"] == LANE
    await _upload_elsewhere(saved, tmp_path, tr)


async def _upload_elsewhere(saved: Path, tmp_path: Path, tr: Translator) -> None:
    """Another Board Banker (its own phone server and editions folder) takes the file through its upload."""
    other = tmp_path / "other-editions"
    server = PhoneServer(["127.0.0.1"], 0)
    server.open_editor("another-table-code", editor_labels(tr), EditorService(other, tr))
    server.start()
    try:
        async with page.Browser(tmp_path / "profile2") as b:
            await b.send("Page.enable")
            await b.send("Runtime.enable")
            await b.send("Page.navigate", url=f"http://127.0.0.1:{server.port}/e/another-table-code")
            await b.wait_for("document.getElementById('file') !== null", timeout=20)
            await editing._choose_file(b, saved)
            await b.wait_for("document.getElementById('upnote')?.classList.contains('ok')", timeout=10)
            await b.wait_for("document.querySelector('button[data-name=\"our-street\"]') !== null")
        assert server.editor_status()["saved"] == ["Our Street"]
    finally:
        server.stop()
    assert load_edition("our-street", other).spaces[24].price == PRICE
    assert (other / "our-street.toml").read_bytes() == saved.read_bytes()
