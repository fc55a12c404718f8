"""The phone page (ui/phone.html) in a real browser: headless Chromium (Debian's `chromium`) at a
phone's 375x667 loads the page from a real PhoneServer, shows every player's cash and deeds, takes
a screenshot, follows published changes live, and says so when the link is revoked or the
connection drops; a deed touched opens its title deed (at a 360-px phone's width too), names and all
as text, never markup.

Chromium is driven over the DevTools protocol (aiohttp's websocket client, already installed as
the server's library) rather than with --dump-dom/--screenshot: those act at the load event,
before the live stream's first message has been drawn, and --virtual-time-budget never ends while
the stream is open.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import shutil
import signal
import struct
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from ui.web import PhoneServer

aiohttp = pytest.importorskip("aiohttp")

TOKEN = "Zq8M1vXk3Jt6Rb0Nw2Yc5Lp9Hd4Gf7Sa"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None,
                                reason="Chromium is not installed (Debian: apt-get install chromium)")

# No traffic but to this machine: every host name but the loopback address fails to resolve, and
# the browser's own background services are off.
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
    "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-default-apps", "--disable-domain-reliability",
    "--disable-client-side-phishing-detection", "--no-pings", "--mute-audio", "--no-proxy-server",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", "--window-size=375,667",
    "--force-color-profile=srgb", "--hide-scrollbars", "--lang=en-US",
]


def sample(cash: int = 1440, ended: bool = False, pot: int | None = 300) -> dict[str, Any]:
    """What ui/phone.py publishes: a four-player classic game, Ann to play, Cy bankrupt; with the Free Parking
    jackpot's house rule, `pot` in the jackpot (None: the house rule off)."""
    labels = {
        "cash": "Cash", "turn_line": "Ann's turn", "net_worth": "Net worth", "bank": "Bank", "log": "Money log",
        "chart": "Net worth", "ranking": "Final ranking", "deeds": "Deeds & houses", "none": "No deeds yet",
        "connection_lost": "Connection lost: trying again…", "winner": "Dot wins!" if ended else "",
        "mortgaged": "mortgaged", "bankrupt": "bankrupt", "house_rules": "House rules",
        "rulebook": "None: the game as the rulebook has it", "for_sale": "For sale", "close": "Close",
        "not_mortgaged": "not mortgaged",
    }
    return {
        "title": "Classic", "language": "en", "labels": labels, "turn": "Ann", "ended": ended,
        "winner": "Dot" if ended else None,
        "players": [
            {"name": "Ann", "colour": "#E53935", "cash": cash, "net_worth": cash + 330, "where": "Baltic Avenue",
             "flags": "", "bankrupt": False, "current": True,
             "deeds": [
                 {"group": "purple", "group_name": "Purple", "colour": "#8B4A9C",
                  "deeds": [{"index": 1, "name": "Mediterranean Avenue", "buildings": "", "mortgaged": False},
                            {"index": 3, "name": "Baltic Avenue", "buildings": "2 houses", "mortgaged": False}]},
                 {"group": "railroad", "group_name": "Railroads", "colour": "#424242",
                  "deeds": [{"index": 5, "name": "Reading Railroad", "buildings": "", "mortgaged": True}]}]},
            {"name": "Ben", "colour": "#1E88E5", "cash": 980, "net_worth": 1720, "where": "In jail",
             "flags": "in jail", "bankrupt": False, "current": False,
             "deeds": [{"group": "orange", "group_name": "Orange", "colour": "#F7941D",
                        "deeds": [{"index": 16, "name": "St. James Place", "buildings": "hotel", "mortgaged": False},
                                  {"index": 18, "name": "Tennessee Avenue", "buildings": "", "mortgaged": False},
                                  {"index": 19, "name": "New York Avenue", "buildings": "1 house",
                                   "mortgaged": False}]}]},
            {"name": "Dot", "colour": "#43A047", "cash": 2210, "net_worth": 2210, "where": "Free Parking",
             "flags": "", "bankrupt": False, "current": False, "deeds": []},
            {"name": "Cy", "colour": "#FDD835", "cash": 0, "net_worth": 0, "where": "Go", "flags": "",
             "bankrupt": True, "current": False, "deeds": []},
        ],
        "for_sale": [{"group": "dark_blue", "group_name": "Dark blue", "colour": "#0072BB",
                      "deeds": [{"index": 39, "name": "Boardwalk", "buildings": "", "mortgaged": False}]}],
        "deed_cards": [
            lot(1, "Mediterranean Avenue", "#8B4A9C", "Purple", "Ann", 0, [2, 10, 30, 90, 160, 250], 50, 60),
            lot(3, "Baltic Avenue", "#8B4A9C", "Purple", "Ann", 2, [4, 20, 60, 180, 320, 450], 50, 60),
            {"index": 5, "name": "Reading Railroad", "colour": "#424242", "group_name": "Railroads",
             "price": "Price 200", "rents": ["Owning 1: 25", "Owning 2: 50", "Owning 3: 100", "Owning 4: 200"],
             "building_cost": None, "mortgage": "Mortgage value: 100", "owner": "Ann", "owner_colour": "#E53935",
             "owner_text": "Owner: Ann", "rent_now": "Rent now: 0", "level": None, "mortgaged": True, "built": ""},
            lot(16, "St. James Place", "#F7941D", "Orange", "Ben", 5, [14, 70, 200, 550, 750, 950], 100, 180),
            lot(18, "Tennessee Avenue", "#F7941D", "Orange", "Ben", 0, [14, 70, 200, 550, 750, 950], 100, 180),
            lot(19, "New York Avenue", "#F7941D", "Orange", "Ben", 1, [16, 80, 220, 600, 800, 1000], 100, 200),
            lot(39, "Boardwalk", "#0072BB", "Dark blue", None, None, [50, 200, 600, 1400, 1700, 2000], 200, 400)],
        "bank": "Bank: 29 houses, 11 hotels",
        "house_rules": ([f"Free Parking jackpot: {pot:,} now"] if pot is not None else []) + [
            "Two ones pay 500", "No auctions"],
        "pot": {"amount": pot, "text": f"{pot:,}", "label": "Jackpot"} if pot is not None else None,
        "log": ["Ann pays Ben 26 rent for St. James Place", "Ann buys Baltic Avenue for 60",
                "Ben pays 50 to get out of jail", "Cy goes bankrupt"],
        "chart": {"Ann": [1500, 1480, 1520, 1560, 1610, 1700, 1770], "Ben": [1500, 1540, 1400, 1350, 1420, 1600, 1720],
                  "Dot": [1500, 1700, 1900, 2000, 2100, 2150, 2210], "Cy": [1500, 1300, 900, 600, 200, 0, 0]},
        "ranking": [{"name": "Dot", "worth": 2210, "place": 1}, {"name": "Ann", "worth": 1770, "place": 2},
                    {"name": "Ben", "worth": 1720, "place": 3}, {"name": "Cy", "worth": 0, "place": 4}]
        if ended else [],
        "report": {"title": "The game's report", "winner": "Dot wins!", "length": "The game lasted 42 turns, 95 minutes.",
                   "turning": "The turning point, turn 31: Cy paid Dot 1,500 (rent).",
                   "players": [{"name": "Dot", "place": 1, "colour": "#43A047",
                                "lines": ["Dot collected 2,340 in rent, 1,500 of it from Boardwalk.",
                                          "Ended with 2,210 in cash, worth 2,210 in all."]},
                               {"name": "Cy", "place": 4, "colour": "#FDD835", "lines": ["Went bankrupt."]}]}
        if ended else None,
    }


def lot(index: int, name: str, colour: str, group: str, owner: str | None, level: int | None, rents: list[int],
        cost: int, price: int) -> dict[str, Any]:
    """A lot's deed card as ui/phone.py's `deed_cards` has it, in English: `level` its houses (5: a hotel)."""
    words = ["Rent", "With 1 house", "With 2 houses", "With 3 houses", "With 4 houses", "Hotel"]
    built = {None: "", 0: "", 1: "1 house", 5: "hotel"}.get(level, f"{level} houses")
    return {"index": index, "name": name, "colour": colour, "group_name": group, "price": f"Price {price:,}",
            "rents": [f"{w}: {r:,}" for w, r in zip(words, rents, strict=True)], "building_cost": f"Each building costs: {cost}",
            "mortgage": f"Mortgage value: {price // 2}", "owner": owner,
            "owner_colour": {"Ann": "#E53935", "Ben": "#1E88E5"}.get(owner or ""),
            "owner_text": f"Owner: {owner}" if owner else "For sale",
            "rent_now": f"Rent now: {rents[level]:,}" if owner and level is not None else None,
            "level": level if owner else None, "mortgaged": False, "built": built}


class Browser:
    """Headless Chromium with one page, driven over the DevTools protocol."""

    def __init__(self, profile: Path) -> None:
        self.profile = profile
        self.proc: subprocess.Popen[bytes] | None = None
        self.session: Any = None
        self.ws: Any = None
        self.next_id = 0
        self.events: list[dict[str, Any]] = []

    async def __aenter__(self) -> Browser:
        assert CHROMIUM is not None
        self.proc = subprocess.Popen(
            [CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={self.profile}", "--remote-debugging-port=0",
             "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        port_file = self.profile / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not (port_file.exists() and len(port_file.read_text().splitlines()) >= 2):
            assert self.proc.poll() is None, "Chromium exited at once"
            assert time.monotonic() < deadline, "Chromium did not open its DevTools port"
            await asyncio.sleep(0.05)
        port = int(port_file.read_text().splitlines()[0])
        self.session = aiohttp.ClientSession()
        targets: list[dict[str, Any]] = []
        while not any(t.get("type") == "page" for t in targets):
            async with self.session.get(f"http://127.0.0.1:{port}/json/list") as r:
                targets = await r.json()
            assert time.monotonic() < deadline, "Chromium opened no page"
        page = next(t for t in targets if t.get("type") == "page")
        self.ws = await self.session.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.session is not None:
            await self.session.close()
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)  # the browser and its helpers, which it started
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        wanted = self.next_id
        await self.ws.send_json({"id": wanted, "method": method, "params": params})
        while True:
            message = json.loads((await self.ws.receive(timeout=30)).data)
            if message.get("id") == wanted:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})  # type: ignore[no-any-return]
            self.events.append(message)

    async def js(self, expression: str) -> Any:
        result = await self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def wait_for(self, expression: str, timeout: float = 5.0) -> float:
        """Poll until `expression` is truthy in the page; the seconds it took."""
        started = time.monotonic()
        while not await self.js(expression):
            if time.monotonic() - started > timeout:
                text = await self.js("document.body.innerText")
                raise AssertionError(f"not true after {timeout} s: {expression}\npage text:\n{text}")
            await asyncio.sleep(0.03)
        return time.monotonic() - started

    async def screenshot(self, path: Path, full: bool = False) -> bytes:
        params: dict[str, Any] = {"format": "png"}
        if full:
            size = await self.js("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
            params.update(captureBeyondViewport=True, clip={"x": 0, "y": 0, "width": size[0], "height": size[1],
                                                           "scale": 1})
        data = base64.b64decode((await self.send("Page.captureScreenshot", **params))["data"])
        path.write_bytes(data)
        return data

    def problems(self) -> list[str]:
        """Script errors and console errors (a CSP violation among them) seen so far."""
        found = []
        for e in self.events:
            if e.get("method") == "Runtime.exceptionThrown":
                found.append(json.dumps(e["params"]["exceptionDetails"])[:500])
            elif e.get("method") == "Log.entryAdded" and e["params"]["entry"].get("level") == "error":
                found.append(e["params"]["entry"].get("text", ""))
            elif e.get("method") == "Runtime.consoleAPICalled" and e["params"].get("type") == "error":
                found.append(json.dumps(e["params"]["args"])[:500])
        return found


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


async def open_phone(browser: Browser, url: str) -> None:
    await browser.send("Runtime.enable")
    await browser.send("Log.enable")
    await browser.send("Page.enable")
    await browser.send("Emulation.setDeviceMetricsOverride", width=375, height=667, deviceScaleFactor=2, mobile=True)
    await browser.send("Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": "light"}])
    await browser.send("Page.navigate", url=url)


def test_the_phone_page_in_headless_chromium(tmp_path: Path) -> None:
    server = PhoneServer(["127.0.0.1"], 0)
    server.publish(TOKEN, sample())
    server.start()
    try:
        asyncio.run(_the_phone_page(server, tmp_path))
    finally:
        server.stop()


async def _the_phone_page(server: PhoneServer, tmp_path: Path) -> None:
    base = f"http://127.0.0.1:{server.port}/g/{TOKEN}"
    async with Browser(tmp_path / "profile") as b:
        await open_phone(b, base + "?p=Ben")
        await b.wait_for("document.querySelectorAll('.player').length === 4", timeout=10)
        text = await b.js("document.body.innerText")
        for shown in ("Ann", "Ben", "Cy", "Dot", "1,440", "980", "2,210", "Ann's turn", "Bank: 29 houses, 11 hotels",
                      "Baltic Avenue", "2 houses", "hotel", "Reading Railroad", "mortgaged", "in jail", "bankrupt",
                      "No deeds yet", "Money log", "Ann pays Ben 26 rent for St. James Place"):
            assert shown.lower() in text.lower(), shown  # (headings are upper case by CSS)
        # ?p=Ben: Ben's card first and highlighted; the turn is Ann's.
        assert await b.js("document.querySelector('.player').dataset.player") == "Ben"
        assert await b.js("document.querySelector('.player').classList.contains('me')")
        assert await b.js("document.querySelectorAll('.player.me').length") == 1
        assert await b.js("getComputedStyle(document.querySelector('.player.me')).borderTopColor") == "rgb(30, 136, 229)"
        assert await b.js("document.querySelector('[data-player=Ann] .tag.now') !== null")
        # The house rules in force, a line each, under their heading.
        assert await b.js("[...document.querySelectorAll('#rules li')].map(li => li.textContent)") == [
            "Free Parking jackpot: 300 now", "Two ones pay 500", "No auctions"]
        # The Free Parking jackpot under the turn, its amount large.
        assert await b.js("document.getElementById('pot').hidden") is False
        assert await b.js("document.getElementById('pot').innerText.replace(/\\s+/g, ' ')") == "Jackpot 300"
        assert float(await b.js("parseFloat(getComputedStyle(document.querySelector('#pot b')).fontSize)")) >= 24
        assert await b.js("document.querySelector('#house h2').textContent") == "House rules"
        # The log newest first; the chart one line a player, in the player's colour.
        assert await b.js("document.querySelector('#log li').textContent") == "Ann pays Ben 26 rent for St. James Place"
        assert await b.js("[...document.querySelectorAll('#chart polyline')].map(p => p.getAttribute('stroke'))") == [
            "#E53935", "#1E88E5", "#43A047", "#FDD835"]
        # The inline style was allowed by the page's CSP (a blocked stylesheet leaves the body white).
        assert await b.js("getComputedStyle(document.body).backgroundColor") == "rgb(243, 241, 236)"
        assert await b.js("document.title") == "Classic · Board Banker"
        shot = await b.screenshot(tmp_path / "phone.png")
        assert png_size(shot) == (750, 1334)  # 375x667 at a phone's 2x
        await b.screenshot(tmp_path / "phone-full.png", full=True)

        # A change at the table shows on the phone, without reloading.
        server.publish(TOKEN, {**sample(cash=1240, pot=500), "log": ["Ann pays 200 income tax"] + sample()["log"]})
        took = await b.wait_for("document.body.innerText.includes('1,240')")
        assert took < 3.0
        assert await b.js("document.querySelector('#log li').textContent") == "Ann pays 200 income tax"
        assert await b.js("document.querySelector('#pot b').textContent") == "500"  # the tax went into the jackpot
        # Without the house rule nothing of a jackpot shows.
        server.publish(TOKEN, sample(cash=1240, pot=None))
        await b.wait_for("document.getElementById('pot').hidden")
        assert "Jackpot" not in await b.js("document.body.innerText")
        assert "1,440" not in await b.js("document.body.innerText")

        # The game ends: the final ranking.
        server.publish(TOKEN, sample(ended=True))
        await b.wait_for("document.querySelectorAll('#ranking li').length === 4")
        assert await b.js("document.querySelector('#ranking li').innerText.includes('Dot')")
        assert "Dot wins!" in await b.js("document.getElementById('turn').innerText")
        # The game's report under the ranking: its length, the turning point, each player's lines.
        assert await b.js("document.querySelector('#report h2').textContent") == "The game's report"
        assert await b.js("document.querySelector('#report .turning').textContent") == (
            "The turning point, turn 31: Cy paid Dot 1,500 (rent).")
        assert await b.js("[...document.querySelectorAll('#report h3')].map(h => h.textContent)") == ["1. Dot", "4. Cy"]
        assert await b.js("[...document.querySelectorAll('#report li')].map(li => li.textContent)") == [
            "Dot collected 2,340 in rent, 1,500 of it from Boardwalk.", "Ended with 2,210 in cash, worth 2,210 in all.",
            "Went bankrupt."]
        await b.screenshot(tmp_path / "phone-ended.png", full=True)

        # The banker revokes the link: the page says so and stops trying.
        server.publish(TOKEN, None)
        await b.wait_for("document.getElementById('status').classList.contains('on')")
        assert "no longer" in await b.js("document.getElementById('status').innerText")

        # A fresh link, then the Pi goes away: "connection lost", with the last state still there.
        server.publish(TOKEN + "2", sample())
        await b.send("Page.navigate", url=f"http://127.0.0.1:{server.port}/g/{TOKEN}2")
        await b.wait_for("document.querySelectorAll('.player').length === 4 && "
                         "!document.getElementById('status').classList.contains('on')")
        server.stop()
        await b.wait_for("document.getElementById('status').innerText.includes('Connection lost')")
        assert "1,440" in await b.js("document.body.innerText")
        await b.screenshot(tmp_path / "phone-lost.png")
        assert b.problems() == []


def test_the_page_works_with_a_bare_state(tmp_path: Path) -> None:
    """Keys missing (an older or a minimal state): the page still shows the players, in English defaults."""
    server = PhoneServer(["127.0.0.1"], 0)
    server.publish(TOKEN, {"players": [{"name": "Ann", "cash": 1500}, {"name": "<b>Ben</b>", "cash": 12,
                                                                        "colour": "red;x:y", "deeds": "junk"}],
                           "turn": "Ann", "chart": {"Ann": [1, "x"]}, "log": "not a list"})
    server.start()
    try:
        asyncio.run(_bare(server, tmp_path))
    finally:
        server.stop()


async def _bare(server: PhoneServer, tmp_path: Path) -> None:
    async with Browser(tmp_path / "profile") as b:
        await open_phone(b, f"http://127.0.0.1:{server.port}/g/{TOKEN}")
        await b.wait_for("document.querySelectorAll('.player').length === 2")
        text = await b.js("document.body.innerText")
        assert "Ann's turn" in text and "1,500" in text
        assert "<b>Ben</b>" in text  # names are text, never markup
        assert await b.js("[...document.querySelectorAll('#rules li')].map(li => li.textContent)") == [
            "None: the game as the rulebook has it"]  # no house rules sent: the rulebook's game
        assert await b.js("document.getElementById('pot').hidden")  # no jackpot sent: none shown
        assert not await b.js("[...document.querySelectorAll('b')].some(e => e.textContent === 'Ben')")
        assert b.problems() == []


async def tap(browser: Browser, selector: str) -> None:
    """A finger's touch on the middle of the element `selector` (scrolled into sight first), as a phone sends it."""
    rect = await browser.js(f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
                            "e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
                            "return [r.left + r.width / 2, r.top + r.height / 2]; })()")
    await tap_at(browser, rect[0], rect[1])


async def tap_at(browser: Browser, x: float, y: float) -> None:
    await browser.send("Input.dispatchTouchEvent", type="touchStart", touchPoints=[{"x": x, "y": y}])
    await browser.send("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])


def chip(index: int) -> str:
    """The selector of the deed chip of the space at `index` (the first one on the page)."""
    return f"button.deed[data-index='{index}']"


CARD_LINES = "[...document.querySelectorAll('#sheet .rents li')].map(li => [...li.children].map(e => e.textContent))"


def test_a_touched_deed_opens_its_title_deed(tmp_path: Path) -> None:
    server = PhoneServer(["127.0.0.1"], 0)
    server.publish(TOKEN, sample())
    hostile = sample()
    evil = '<img src=x onerror="window.pwned=1">'
    hostile["deed_cards"][-1] = {**hostile["deed_cards"][-1], "name": evil, "group_name": "<i>Dark</i> blue",
                                 "rents": ["<script>window.pwned=2</script>: 50", "Hotel: <b>2,000</b>"],
                                 "owner": "<b>Ben</b>", "owner_text": "Owner: <b>Ben</b>", "level": 1,
                                 "rent_now": "Rent now: <u>9</u>", "built": "<em>hotel</em>"}
    hostile["for_sale"][0]["deeds"][0]["name"] = evil
    server.publish(TOKEN + "3", hostile)
    server.start()
    try:
        asyncio.run(_touched_deed(server, tmp_path))
    finally:
        server.stop()


async def _touched_deed(server: PhoneServer, tmp_path: Path) -> None:
    base = f"http://127.0.0.1:{server.port}/g/{TOKEN}"
    async with Browser(tmp_path / "profile") as b:
        await open_phone(b, base)
        await b.send("Emulation.setDeviceMetricsOverride", width=360, height=640, deviceScaleFactor=2, mobile=True)
        await b.send("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=1)
        await b.wait_for("document.querySelectorAll('.player').length === 4", timeout=10)
        # Every deed on the page is a button: the players' six and the bank's Boardwalk, under "For sale".
        assert await b.js("document.querySelectorAll('button.deed').length") == 7
        assert await b.js("document.querySelector('#for-sale h2').textContent") == "For sale"
        assert await b.js("document.querySelector('#for-sale button.deed').textContent") == "Boardwalk"
        assert await b.js("document.getElementById('sheet').hidden")

        # Ann's Baltic Avenue, two houses: its deed over the page, the line in force marked.
        await tap(b, chip(3))
        await b.wait_for("!document.getElementById('sheet').hidden")
        assert await b.js("document.querySelector('#sheet .band h3').textContent") == "Baltic Avenue"
        assert await b.js("document.querySelector('#sheet .band small').textContent") == "Purple"
        assert await b.js("getComputedStyle(document.querySelector('#sheet .band')).backgroundColor") == (
            "rgb(139, 74, 156)")
        assert await b.js("document.querySelector('#sheet .who').textContent") == "Owner: Ann"
        assert await b.js("document.querySelector('#sheet .price').textContent") == "Price 60"
        assert await b.js("document.querySelector('#sheet .rnow').textContent") == "Rent now: 60"
        assert await b.js(CARD_LINES) == [["Rent", "4"], ["With 1 house", "20"], ["With 2 houses", "60"],
                                          ["With 3 houses", "180"], ["With 4 houses", "320"], ["Hotel", "450"]]
        assert await b.js("[...document.querySelectorAll('#sheet .rents li')].findIndex(li => "
                          "li.classList.contains('on') && li.getAttribute('aria-current') === 'true')") == 2
        assert await b.js("document.querySelectorAll('#sheet .rents li.on').length") == 1
        facts = await b.js("document.querySelector('#sheet .facts').innerText")
        assert facts.split("\n") == ["2 houses", "Each building costs: 50", "Mortgage value: 30 · not mortgaged"]
        # Readable on a 360-px phone: nothing wider than the screen, a big close button in reach.
        assert await b.js("document.documentElement.clientWidth") == 360
        assert await b.js("document.querySelector('#sheet .dcard').getBoundingClientRect().right") <= 360
        assert await b.js("document.getElementById('sheet').scrollWidth") <= 360
        close = await b.js("(() => { const r = document.querySelector('#sheet button.close')"
                           ".getBoundingClientRect(); return [r.width, r.height]; })()")
        assert close[0] >= 300 and close[1] >= 48
        assert await b.js("document.querySelector('#sheet button.close').textContent") == "Close"
        assert float(await b.js("parseFloat(getComputedStyle(document.querySelector('#sheet .rents li')).fontSize)")) >= 16
        await b.screenshot(tmp_path / "deed.png")

        # The table builds a third house: the open card follows.
        later = sample()
        later["deed_cards"][1] = lot(3, "Baltic Avenue", "#8B4A9C", "Purple", "Ann", 3, [4, 20, 60, 180, 320, 450], 50, 60)
        server.publish(TOKEN, later)
        await b.wait_for("document.querySelector('#sheet .rnow').textContent === 'Rent now: 180'")
        assert await b.js("document.querySelector('#sheet .rents li.on b').textContent") == "180"

        # The close button closes it.
        await tap(b, "#sheet button.close")
        await b.wait_for("document.getElementById('sheet').hidden")
        assert await b.js("document.querySelector('#sheet .dcard')") is None

        # Ann's mortgaged railroad: no rent now, no line in force, said mortgaged.
        await tap(b, chip(5))
        await b.wait_for("!document.getElementById('sheet').hidden")
        assert await b.js(CARD_LINES) == [["Owning 1", "25"], ["Owning 2", "50"], ["Owning 3", "100"],
                                          ["Owning 4", "200"]]
        assert await b.js("document.querySelector('#sheet .rnow').textContent") == "Rent now: 0"
        assert await b.js("document.querySelectorAll('#sheet .rents li.on').length") == 0
        assert await b.js("document.querySelector('#sheet .facts .bad').textContent") == "mortgaged"
        # A touch beside the card closes it too; so does Escape.
        await tap_at(b, 4, 4)
        await b.wait_for("document.getElementById('sheet').hidden")

        # The bank's Boardwalk, from the list of deeds for sale: its price, no owner, no rent now.
        await tap(b, "#for-sale " + chip(39))
        await b.wait_for("!document.getElementById('sheet').hidden")
        assert await b.js("document.querySelector('#sheet .who').textContent") == "For sale"
        assert await b.js("document.querySelector('#sheet .price').textContent") == "Price 400"
        assert await b.js("document.querySelector('#sheet .rnow')") is None
        assert await b.js(CARD_LINES + "[5]") == ["Hotel", "2,000"]
        await b.screenshot(tmp_path / "deed-bank.png")
        await b.send("Input.dispatchKeyEvent", type="keyDown", key="Escape", code="Escape", windowsVirtualKeyCode=27)
        await b.wait_for("document.getElementById('sheet').hidden")
        await b.screenshot(tmp_path / "deeds-touchable.png", full=True)

        # A deed the game no longer has (another game published) closes its card.
        await tap(b, chip(16))
        await b.wait_for("!document.getElementById('sheet').hidden")
        assert await b.js("document.querySelector('#sheet .rents li.on').textContent") == "Hotel950"
        gone = sample()
        gone["deed_cards"] = [d for d in gone["deed_cards"] if d["index"] != 16]
        server.publish(TOKEN, gone)
        await b.wait_for("document.getElementById('sheet').hidden")
        assert await b.js("document.querySelector(\"[data-player='Ben'] div.deed\").textContent") == "St. James Place" + "hotel"

        # Names and words from an edition are text, never markup.
        await b.send("Page.navigate", url=base + "3")
        await b.wait_for("document.querySelectorAll('.player').length === 4")
        await tap(b, "#for-sale " + chip(39))
        await b.wait_for("!document.getElementById('sheet').hidden")
        assert await b.js("document.querySelector('#for-sale button.deed').textContent") == (
            '<img src=x onerror="window.pwned=1">')
        assert await b.js("document.querySelector('#sheet .band h3').textContent") == '<img src=x onerror="window.pwned=1">'
        assert await b.js("document.querySelector('#sheet .band small').textContent") == "<i>Dark</i> blue"
        assert await b.js("document.querySelector('#sheet .who').textContent") == "Owner: <b>Ben</b>"
        assert await b.js("document.querySelector('#sheet .rnow').textContent") == "Rent now: <u>9</u>"
        assert await b.js(CARD_LINES) == [["<script>window.pwned=2</script>", "50"], ["Hotel", "<b>2,000</b>"]]
        assert await b.js("document.querySelector('#sheet .built').textContent") == "<em>hotel</em>"
        assert await b.js("document.querySelectorAll('img, script:not(:first-of-type), i, u, em').length") == 0
        assert await b.js("document.querySelectorAll('#sheet b').length") == 2  # the page's own: the lines' amounts
        assert await b.js("window.pwned") is None
        assert b.problems() == []


def test_the_deed_card_of_a_real_game_in_two_languages(tmp_path: Path) -> None:
    """ui/phone.py's state of a game going, in English and in Polish: a touched deed shows its own words."""
    flowkit = pytest.importorskip("flowkit")
    from ui.phone import phone_state

    c = flowkit.make(tmp_path / "game", taps=False)
    flowkit.start(c, ("Ann", "Ben"), "classic", "", {"spaces": {"1": {"owner": "Ann", "houses": 2},
                                                                  "3": {"owner": "Ann", "houses": 1},
                                                                  "39": {"owner": "Ben", "mortgaged": True}}})
    server = PhoneServer(["127.0.0.1"], 0)
    states = {}
    for language in ("en", "pl"):
        c.settings.set_language(language)
        states[language] = phone_state(c.session)
        server.publish(TOKEN + language, states[language])
    server.start()
    try:
        asyncio.run(_real_game(server, tmp_path, states))
    finally:
        server.stop()


async def _real_game(server: PhoneServer, tmp_path: Path, states: dict[str, dict[str, Any]]) -> None:
    said = {"en": ("Owner: Ann", "Rent now: 30", "With 2 houses", "Close", "Mortgage value: 30 · not mortgaged"),
            "pl": ("Właściciel: Ann", "Czynsz teraz: 30", "Z 2 domami", "Zamknij", "Wartość zastawu: 30 · bez zastawu")}
    async with Browser(tmp_path / "profile") as b:
        for language, state in states.items():
            await open_phone(b, f"http://127.0.0.1:{server.port}/g/{TOKEN}{language}")
            await b.send("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=1)
            await b.wait_for("document.querySelectorAll('.player').length === 2", timeout=10)
            assert await b.js("document.documentElement.lang") == language
            # Every property of the board can be touched: the players' three and the bank's 25.
            assert await b.js("document.querySelectorAll('button.deed').length") == 28
            await tap(b, chip(1))
            await b.wait_for("!document.getElementById('sheet').hidden")
            owner, now, level, close, mortgage = said[language]
            card = next(d for d in state["deed_cards"] if d["index"] == 1)
            assert await b.js("document.querySelector('#sheet .band h3').textContent") == "Mediterranean Avenue"
            assert await b.js("document.querySelector('#sheet .who').textContent") == owner
            assert await b.js("document.querySelector('#sheet .rnow').textContent") == now
            assert await b.js(CARD_LINES) == [line.rsplit(": ", 1) for line in card["rents"]]
            assert await b.js("document.querySelector('#sheet .rents li.on span').textContent") == level
            assert await b.js("document.querySelector('#sheet .mortgage').textContent") == mortgage
            assert await b.js("document.querySelector('#sheet button.close').textContent") == close
            await b.screenshot(tmp_path / f"deed-{language}.png")
            await tap(b, "#sheet button.close")
            await b.wait_for("document.getElementById('sheet').hidden")
            # Ben's mortgaged Boardwalk: the ruleset's rents, none in force.
            await tap(b, chip(39))
            await b.wait_for("!document.getElementById('sheet').hidden")
            lines = await b.js(CARD_LINES)
            assert [int(amount.replace(",", "").replace("\u00a0", "").replace(" ", "")) for _, amount in lines] == [
                50, 200, 600, 1400, 1700, 2000]
            assert await b.js("document.querySelectorAll('#sheet .rents li.on').length") == 0
            assert await b.js("document.querySelector('#sheet .facts .bad').textContent") == state["labels"]["mortgaged"]
        assert b.problems() == []
