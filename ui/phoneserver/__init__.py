"""The phone page's web server: the live game, read-only, on the local network only; and between games the
phone editor of the family's editions, writable by the one phone holding the editing session.

`PhoneServer` runs aiohttp in a daemon thread with its own asyncio event loop, beside Kivy's main loop; the
app talks to it only through `publish`, `add_move`, `open_editor`, `close_editor` and `editor_status`, which
are safe from any thread. See docs/web.md.

The modules:

- `server.py`: `PhoneServer`, the parts joined; its thread and loop, and the middleware every request passes
  through (the rate limit, the methods allowed, the security headers, the refusals logged)
- `gate.py`: the connection gate and its limits (the time to send a request, the caps on connections per
  address and in all, making room at a cap, the rate limit's count)
- `live.py`: the live game's routes (/g/{token}, its state and event stream; /m/{code}) and its page
  (ui/phone.html)
- `editing.py`: the phone editor's routes (/e/{code}, /edit, /edit/api/...) and its page (ui/editor.html)
- `base.py`: what they share (the lock, the clock, the refusal log, the one 404, the constant-time lookup
  of a token, a page's Content-Security-Policy)

Both pages stay files of the `ui` package (ui/phone.html, ui/editor.html). ui/web.py names `PhoneServer`
too: the app and the tests import it from there.
"""

from ui.phoneserver.server import PhoneServer

__all__ = ["PhoneServer"]
