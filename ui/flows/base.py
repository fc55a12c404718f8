"""What every flow shares (`Flow`), and the app's own randomness and power switch."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from ui.session import Session

if TYPE_CHECKING:
    from banker.game import Game
    from ui.flows import Flows
    from ui.pages import Page

SYSTEM_RANDOM = secrets.SystemRandom()  # the app's own draws (the casino's jackpot), not the seeded game's


class Flow:
    """What every flow shares: the session (`s`), the other flows (`f`) and the hooks the session calls.

    The hooks do nothing unless a flow has something to do then: `applied` after every action the game
    took, `opened` when a game starts or is resumed, `closed` when it goes; `leave(page)` is asked before
    one of the flow's pages shows and returns the page to show instead, or None to stay; `bar_key(page)`
    gives the words of a page's button on the turn screen's bottom bar."""

    def __init__(self, flows: Flows) -> None:
        self.f = flows  # every flow, by name (`self.f.paying`): ui/flows/__init__.py's Flows, which makes this one
        self.s: Session = flows.session

    @property
    def game(self) -> Game | None:
        return self.s.game

    def changed(self) -> None:
        self.s.changed()

    def applied(self, action: dict[str, Any], turned: bool) -> None:
        """After the game took `action` (committed); `turned`: the turn passed to another player."""

    def opened(self, fresh: bool) -> None:
        """A game was started (`fresh`) or resumed."""

    def closed(self) -> None:
        """The game went: abandoned, closed after its end, or moved to another device."""

    def leave(self, page: str) -> str | None:
        """Whether this flow's `page` may show now: None, or the page to show instead."""
        return None

    def bar_key(self, page: Page) -> str:
        """The words of `page`'s button on the turn screen's bottom bar (the registry's, unless the flow has
        words of the ruleset's own)."""
        return page.bar or page.name


def secure_roll(count: int) -> tuple[int, ...]:
    from hardware.dice import roll_dice

    return roll_dice(count)


def system_power_off() -> None:
    """Shut the Pi down cleanly (the journal is already safe on disk)."""
    import shutil
    import subprocess

    command = shutil.which("systemctl")
    if command is not None:
        subprocess.run([command, "poweroff"], check=False)


__all__ = ["Flow", "SYSTEM_RANDOM", "secure_roll", "system_power_off"]
