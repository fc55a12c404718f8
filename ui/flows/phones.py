"""The players' phones: the game's secret link and its QR codes, the phone page's state published to the
phone server (ui/phoneserver/) after every change, a player's own code after their card tap, the banker's "new
link", and "continue on another device" (a one-time link to the game as a game script). Without the server, why
it is off and the one thing to do (`off_text`, in the words of ui/where.py)."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypedDict
from urllib.parse import quote

from ui.flows.base import Flow
from ui.i18n import Msg, msg
from ui.session import Session
from ui.tokens import is_typed_token, typed_token
from ui.where import phones_off

if TYPE_CHECKING:
    from ui.editor import EditorService
    from ui.flows import Flows

MOVE_SECONDS = 600  # a "continue on another device" link lives 10 minutes
PLAYER_QR_SECONDS = 20  # how long the table shows a player's own QR code after their card tap


class PhoneWeb(Protocol):
    """What the flows ask of the phone server (ui/phoneserver's `PhoneServer`, or a test's fake): the phone
    page's state served for a token (None: the token answers nothing any more), a one-time move link, and the
    phone editor's one session (ui/flows/editions.py): opened with a code, closed, and its state
    ({"state": "waiting" | "editing" | "ended", "saved": [titles]})."""

    def publish(self, token: str, state: Mapping[str, Any] | None) -> None: ...

    def add_move(self, code: str, script: str, expires_at: float) -> None: ...

    def open_editor(self, code: str, page_labels: Mapping[str, str], service: EditorService) -> None: ...

    def close_editor(self) -> None: ...

    def editor_status(self) -> dict[str, Any]: ...


class PhonesOn(TypedDict):
    """The phones page (`PhonesFlow.view`): the table's link, how many minutes a move link lives, and the move
    link being shown (None: none)."""

    link: str
    move_minutes: int
    move_url: str | None
    off: None


class PhonesOff(TypedDict):
    """The phones page with no link (no server, or no game): why, and the one thing to do (`off`)."""

    link: None
    move_minutes: int
    move_url: str | None
    off: str


PhonesView = PhonesOn | PhonesOff


class PhonesFlow(Flow):
    def __init__(self, flows: Flows) -> None:
        super().__init__(flows)
        # The phone server (ui/phoneserver's PhoneServer) once the app starts it, its base address, what builds
        # the state it publishes, and what was last published.
        self.web: PhoneWeb | None = None
        self.base = ""
        # Why there is no server (ui/where.py's PHONES_OFF; the app says, at its start), and the port it was to
        # listen on.
        self.off = "starting"
        self.port = 0
        self.phone_state: Callable[[Session], dict[str, Any]] = lambda session: {}
        self._published: tuple[object, ...] = ()
        # How a change reaches the phones: at once (None: the tests' and the tools' way), or handed to the
        # app, which publishes after the frame that shows the change, so a tap's screen never waits for it.
        self.publish_soon: Callable[[Callable[[], None]], None] | None = None
        self._waiting = False
        self.player_qr: tuple[str, float] = ("", 0.0)  # whose code the table shows after a card tap, until when
        self.move_codes: dict[str, int] = {}  # one-time move code -> game id
        self.move_url: str | None = None  # a "continue on another device" link being shown
        self.s.listeners.append(self._changed)

    def opened(self, fresh: bool) -> None:
        if fresh:
            self.player_qr = ("", 0.0)  # a code shown for the last game's player is not this game's

    def closed(self) -> None:
        self.player_qr = ("", 0.0)

    def connect(self, web: PhoneWeb | None, base: str, phone_state: Callable[[Session], dict[str, Any]]) -> None:
        """The phone server (ui/phoneserver's PhoneServer or a test's fake; None: none, as if it never started),
        its base address, and what builds the state it publishes (ui/phone.phone_state: handed in, so the flows
        do not import the screens' side)."""
        self.web, self.base, self.phone_state = web, base, phone_state

    def off_because(self, off: str, port: int = 0) -> None:
        """The phone server is not running, and why (ui/where.py's PHONES_OFF): the app at its start."""
        self.off, self.port = off, port
        self.changed()

    def off_text(self) -> Msg:
        """Why phones cannot follow the game, and the one thing to do, for the place the app runs in: the phones
        page, the banker's menu's button and "Edit on a phone" all say it."""
        return phones_off(self.f.settings.where, self.off, self.port)

    # ------------------------------------------------------------------ links

    def token(self) -> str | None:
        """The live game's secret link token (ui/tokens.py: at least 128 random bits, no look-alike characters),
        made when first needed and kept in the journal's meta. A game whose token was made before that kind
        (`secrets.token_urlsafe`: "FlPLT...") gets a new one to show, and the old one joins `web_tokens_before`:
        the links already handed out keep working (`accepted`)."""
        s = self.s
        if s.live is None:
            return None
        token = s.meta.get("web_token")
        if not token or not is_typed_token(str(token)):
            if token:
                s.meta["web_tokens_before"] = [*s.meta.get("web_tokens_before", []), str(token)]
            token = typed_token()
            s.meta["web_token"] = token
            s.save_meta()
        return str(token)

    def accepted(self) -> list[str]:
        """Every token the live game's phone page answers to: the one shown, and any made before it."""
        token = self.token()
        return [token, *self.s.meta.get("web_tokens_before", [])] if token else []

    def table_link(self) -> str | None:
        token = self.token()
        return f"{self.base}/g/{token}" if token and self.base else None

    def player_link(self, player: str) -> str | None:
        link = self.table_link()
        return f"{link}?p={quote(player)}" if link else None

    def revoke(self) -> None:
        """The banker's "new link": the old one answers nothing any more."""
        s = self.s
        if s.live is None:
            return
        old = [str(t) for t in (s.meta.get("web_token"), *s.meta.get("web_tokens_before", [])) if t]
        if self.web is not None:
            for token in old:
                self.web.publish(token, None)
        s.meta.pop("web_final", None)
        s.meta.pop("web_tokens_before", None)
        s.meta["web_token"] = typed_token()
        s.save_meta()
        self._published = ()
        s.notify(msg("ui.phones.revoked"), "info", None)
        self.changed()

    def show_player_qr(self, player: str) -> None:
        if self.table_link():
            self.player_qr = (player, time.monotonic() + PLAYER_QR_SECONDS)

    def tick(self) -> None:
        """Every second: the player's phone code goes once it has been shown long enough."""
        if self.player_qr[0] and time.monotonic() >= self.player_qr[1]:
            self.player_qr = ("", 0.0)
            self.changed()

    # ------------------------------------------------------------------ publishing

    def _changed(self) -> None:
        if self.publish_soon is None:
            self.publish()
        elif not self._waiting:
            self._waiting = True
            self.publish_soon(self._publish_waited)

    def _publish_waited(self) -> None:
        if self._waiting:  # once, however many changes came in meanwhile
            self._waiting = False
            self.publish()

    def publish(self) -> None:
        """Send the phone page's state to the web server when the game has changed."""
        s = self.s
        if self.web is None or s.live is None:
            return
        game = s.live.game
        token = self.token()
        key = (token, s.live.id, len(game.script), game.ended, s.tr.language)
        if key == self._published:
            return
        self._published = key
        state = self.phone_state(self.s)
        for each in self.accepted():
            self.web.publish(each, state)
        if game.ended and s.meta.get("web_final") != state:
            # The final results stay on the phones after a restart too, until the link is revoked
            # or the game deleted: keep them with the game.
            s.meta["web_final"] = state
            s.save_meta()

    def publish_finished(self) -> None:
        """At start: the finished games whose phone links still stand show their final results."""
        if self.web is None:
            return
        journal = self.s.journal
        for info in journal.games():
            if info.status != "finished":
                continue
            meta = journal.meta(info.id)
            if meta.get("web_token") and meta.get("web_final"):
                for token in (meta["web_token"], *meta.get("web_tokens_before", [])):
                    self.web.publish(token, meta["web_final"])

    # ------------------------------------------------------------------ continue on another device

    def move_link(self) -> str | None:
        """"Continue on another device": a one-time link, valid 10 minutes, to this game as a game script."""
        s = self.s
        if self.web is None or s.live is None or not self.base:
            return None
        code = typed_token()
        script = "\n".join(s.journal.export(s.live.id)) + "\n"
        self.web.add_move(code, script, time.monotonic() + MOVE_SECONDS)
        self.move_codes[code] = s.live.id
        return f"{self.base}/m/{code}"

    def show_move(self) -> None:
        self.move_url = self.move_link()
        self.changed()

    def hide_move(self) -> None:
        self.move_url = None
        self.changed()

    def game_moved(self, code: str) -> None:
        """The move link was used: the game now lives on another device; here it is marked moved, not deleted."""
        s = self.s
        game_id = self.move_codes.pop(code, None)
        if game_id is None:
            return
        s.journal.set_status(game_id, "moved")
        if s.live is not None and s.live.id == game_id:
            s.close()
        s.notify(msg("ui.phones.moved"), "info", "payment")
        self.changed()

    def view(self) -> PhonesView:
        """The table's link, the move link being shown, how many minutes a one-time move link lives, and
        without a server why (`off`)."""
        link, minutes = self.table_link(), MOVE_SECONDS // 60
        if link is None:
            return {"link": None, "move_minutes": minutes, "move_url": self.move_url,
                    "off": self.s.tr.render(self.off_text())}
        return {"link": link, "move_minutes": minutes, "move_url": self.move_url, "off": None}


__all__ = ["MOVE_SECONDS", "PhoneWeb", "PhonesFlow", "PhonesOff", "PhonesOn", "PhonesView"]
