"""The flows on a session (the app without a window) on a scratch journal, and a game started on it by card taps.

Shared by tests/ui/test_flows.py and tests/ui/test_phone_state.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from banker.journal import Journal
from ui.flows import Flows
from ui.settings import Settings

CARDS = {"Ann": "04A32B1C", "Ben": "04B7771A2C5E80", "Cy": "0455AA12"}


class Clock:
    """A wall clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def make(tmp_path: Path, taps: bool = True, clock: Clock | None = None) -> Flows:
    journal = Journal(tmp_path / "games.sqlite3")
    rolls = iter([(1, 2)] * 100)
    return Flows.on(journal, Settings(taps=taps), save_settings=lambda s: s.save(tmp_path / "settings.json"),
                    roll=lambda n: next(rolls), power_off=lambda: None, clock=clock or Clock())


def start(c: Flows, names: tuple[str, ...] = ("Ann", "Ben"), rules: str = "classic", pin: str = "",
          setup: dict[str, Any] | None = None, options: dict[str, Any] | None = None) -> None:
    """A new game: the players named and their cards registered by taps, then started (with `options`: the
    table's own options chosen first, as its pages would)."""
    c.setup.new_game()  # the last game's players with their cards, or a draft put aside: these players instead
    c.setup.choose_rules(rules)
    for option, value in (options or {}).items():
        c.setup.set_option(option, value)
    while len(c.setup.draft.players) > max(2, len(names)):  # type: ignore[union-attr]
        c.setup.remove_player(len(c.setup.draft.players) - 1)  # type: ignore[union-attr]
    while len(c.setup.draft.players) < len(names):  # type: ignore[union-attr]
        c.setup.add_player()
    for p in c.setup.draft.players:  # type: ignore[union-attr]
        p.card = None  # registered afresh below, whoever had which before
    for k, name in enumerate(names):
        c.setup.set_player(k, name=name)
        c.setup.register(k)
        c.taps.card_tapped(CARDS[name])
    c.setup.draft.pin = pin  # type: ignore[union-attr]
    c.setup.draft.setup = setup  # type: ignore[union-attr]
    assert c.setup.start(), [n.text for n in c.session.notices]


def texts(c: Flows) -> list[str]:
    return [n.text for n in c.session.notices]


class FakeWeb:
    """What the flows hand the phone server (ui/web.PhoneServer), recorded: the states published, the moves and
    the editor's code."""

    def __init__(self) -> None:
        self.states: dict[str, object] = {}
        self.moves: dict[str, str] = {}
        self.editor: str | None = None

    def publish(self, token: str, state: object) -> None:
        if state is None:
            self.states.pop(token, None)
        else:
            self.states[token] = state

    def add_move(self, code: str, script: str, expires_at: float) -> None:
        self.moves[code] = script

    def open_editor(self, code: str, labels: Any, service: Any) -> None:
        self.editor = code

    def close_editor(self) -> None:
        self.editor = None

    def editor_status(self) -> dict[str, Any]:
        return {"state": "waiting", "saved": []}
