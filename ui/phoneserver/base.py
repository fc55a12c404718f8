"""What the phone server's parts share: the state every part reads (the clock, the lock, the refusal log,
the server's loop), the one 404, the constant-time lookup of a token or code, and the reading of a page with
the Content-Security-Policy that allows exactly its inline code.

`ServerBase` is the base of each part (ui/phoneserver/gate.py, live.py, editing.py); `PhoneServer`
(ui/phoneserver/server.py) joins the parts. Each part sets its own state in its `_setup_...` method, which
`PhoneServer.__init__` calls after this class's `__init__`.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
import math
import re
import threading
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import web

from ui.tokens import is_typed_token

# The server's log is "ui.web", the name the app imports the server by (ui/web.py): a logging setup or a
# filter naming "ui.web" sees every line of it, whichever part wrote it.
log = logging.getLogger("ui.web")

MAX_KEY = 256  # longer tokens or codes are not even compared
NOT_FOUND = "Not found.\n"
LOG_BURST = 10  # refusal lines logged per window; the rest are counted in one line
LOG_WINDOW = 60.0  # seconds


def load_page(file: str) -> tuple[bytes, str]:
    """A page's bytes and the Content-Security-Policy that allows exactly its inline code. `file` is a
    file of the ui package, or an absolute path."""
    if Path(file).is_absolute():
        text = Path(file).read_text(encoding="utf-8")
    else:
        text = resources.files("ui").joinpath(file).read_text(encoding="utf-8")
    scripts = re.findall(r"<script>(.*?)</script>", text, re.S)
    styles = re.findall(r"<style>(.*?)</style>", text, re.S)

    def sha(code: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(code.encode("utf-8")).digest()).decode("ascii") + "'"

    csp = "; ".join([
        "default-src 'none'",
        "script-src " + (" ".join(sha(s) for s in scripts) or "'none'"),
        "style-src " + (" ".join(sha(s) for s in styles) or "'none'"),
        "connect-src 'self'",
        "img-src 'self' data:",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ])
    return text.encode("utf-8"), csp


def find(keys: Sequence[str], wanted: str) -> str | None:
    """The key equal to `wanted`, comparing against every key in constant time (no early exit). A key of
    the kind a person types (ui/tokens.py: lower case only) also answers to `wanted` typed in capitals; a
    key made before (mixed case) only to itself."""
    given = wanted.encode("utf-8", "surrogateescape")
    if len(given) > MAX_KEY:
        return None
    folded = wanted.lower().encode("utf-8", "surrogateescape")
    found = None
    for key in keys:
        stored = key.encode("utf-8", "surrogateescape")
        exact = hmac.compare_digest(stored, given)
        typed = hmac.compare_digest(stored, folded) and is_typed_token(key)
        if exact or typed:
            found = key
    return found


def not_found() -> web.Response:
    """The one 404 for every unknown path, token or code: it says nothing about any game."""
    return web.Response(status=404, text=NOT_FOUND)


class RefusalLog:
    """One short warning a refusal, at most `burst` a `window`; the next line counts the ones left out.

    The lines name the client's address and why, never a path or a header (a path holds a token).
    Called on the server's loop only.
    """

    def __init__(self, clock: Callable[[], float], burst: int = LOG_BURST, window: float = LOG_WINDOW) -> None:
        self.clock = clock
        self.burst = burst
        self.window = window
        self.since = -math.inf
        self.lines = 0
        self.left_out = 0

    def __call__(self, client: str, why: str, verb: str = "refused") -> None:
        if self.allow():
            log.warning("phone server: %s %s: %s", verb, _printable(client), why)

    def allow(self) -> bool:
        """Whether one more line fits in this window's budget (counted either way)."""
        now = self.clock()
        if now - self.since >= self.window:
            if self.left_out:
                log.warning("phone server: %d more refusals and closings in the last %g s were not logged",
                            self.left_out, self.window)
            self.since, self.lines, self.left_out = now, 0, 0
        if self.lines < self.burst:
            self.lines += 1
            return True
        self.left_out += 1
        return False

    def flush(self) -> None:
        """Log the count of the refusals left out so far (when the server stops)."""
        if self.left_out:
            log.warning("phone server: %d more refusals and closings were not logged", self.left_out)
            self.left_out = 0


def _printable(text: str) -> str:
    """An address for a log line: short, and nothing that could start a line of its own."""
    return "".join(c if c.isprintable() else "?" for c in text[:64])


class ServerBase:
    """The state the parts of the phone server share.

    `clock` is the server's time (injected by tests); `_lock` guards what the app's thread and the server's
    loop both touch (the published states, the moves, the editing session); `_refused` is the one refusal
    log, within one budget; `_loop` is the server's event loop while it runs, and `_stopping` is set when it
    is being stopped.
    """

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._refused = RefusalLog(clock)
        self._stopping = False
        self._loop: asyncio.AbstractEventLoop | None = None

    def _call(self, fn: Callable[..., Any], *args: Any) -> None:
        """Call `fn(*args)` on the server's loop, from any thread; nothing when the server is not running."""
        loop = self._loop
        if loop is None:
            return
        try:
            loop.call_soon_threadsafe(fn, *args)
        except RuntimeError:
            pass  # the loop closed meanwhile: nobody is listening
