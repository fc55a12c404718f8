"""The app's flows: one module for each thing a family does at the table, around one shared session.

A flow holds its own state between taps (the setup's draft, the trade being put together, a payment waiting
for cards), its commands (what the screens' buttons call) and its view data (plain dicts and lists, texts
already translated, for its screens; each dict's keys declared by a `TypedDict` beside the function that makes
it, ui/view.py for the shared ones). It asks the engine's questions (`game.can`, `game.least_bid`,
`game.owed`...) and never works a rule out itself. No Kivy here: the flows are tested without a window.

`Flows` builds them all on one `Session` (ui/session.py: the journaled game, undo, the notices, the
listeners), with the navigator (ui/navigator.py: which page shows) and the tap router (ui/taps.py: where a
card tap goes). A flow reaches the others through `self.f`, typed: `Flows` has an attribute per flow
(`self.f.paying.request(...)`), and a page's flow of its own (ui/pages.py's "module:Class") is reached by its
class (`self.f.own(ReportFlow)`), so that the type checker sees every call from one flow to another.

The pages each flow's screens show are listed once, in ui/pages.py; a page names its flow there, so a new
screen is its screen module, its flow (or an existing one) and one entry in that list.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from ui.flows.auction import AuctionFlow
from ui.flows.banker import BankerFlow
from ui.flows.base import Flow, secure_roll, system_power_off
from ui.flows.clock import ClockFlow
from ui.flows.deedcard import DeedCardFlow
from ui.flows.deeds import DeedsFlow
from ui.flows.home import HomeFlow
from ui.flows.names import NamesFlow
from ui.flows.pad import PadFlow
from ui.flows.paying import PayingFlow
from ui.flows.phones import PhonesFlow
from ui.flows.progress import ProgressFlow
from ui.flows.settings import SettingsFlow
from ui.flows.setup import SetupFlow
from ui.flows.tagging import TaggingFlow
from ui.flows.trade import TradeFlow
from ui.flows.turn import TurnFlow
from ui.navigator import Navigator
from ui.session import Session
from ui.taps import TapRouter

if TYPE_CHECKING:
    from banker.journal import Journal
    from ui.settings import Settings

F = TypeVar("F", bound=Flow)


class Flows:
    """Every flow of the app on one session: `flows.setup`, `flows.turn`, `flows.trade`...

    `roll` draws the app's own dice (hardware/dice.py's secure roll unless a test gives its own),
    `power_off` shuts the Pi down (systemctl unless a test gives its own)."""

    def __init__(self, session: Session, *, roll: Callable[[int], tuple[int, ...]] | None = None,
                 power_off: Callable[[], None] | None = None) -> None:
        self.session = session
        self.roll: Callable[[int], tuple[int, ...]] = roll or secure_roll
        self.power_off: Callable[[], None] = power_off or system_power_off
        self.phones: PhonesFlow = PhonesFlow(self)  # first: the phones hear a change before the redraw does
        self.settings: SettingsFlow = SettingsFlow(self)
        self.home: HomeFlow = HomeFlow(self)
        self.setup: SetupFlow = SetupFlow(self)
        self.names: NamesFlow = NamesFlow(self)
        self.progress: ProgressFlow = ProgressFlow(self)
        self.paying: PayingFlow = PayingFlow(self)
        self.turn: TurnFlow = TurnFlow(self)
        self.clock: ClockFlow = ClockFlow(self)
        self.auction: AuctionFlow = AuctionFlow(self)
        self.trade: TradeFlow = TradeFlow(self)
        self.deeds: DeedsFlow = DeedsFlow(self)
        self.deedcard: DeedCardFlow = DeedCardFlow(self)
        self.banker: BankerFlow = BankerFlow(self)
        self.pad: PadFlow = PadFlow(self)
        self.tagging: TaggingFlow = TaggingFlow(self)
        self.nav: Navigator = Navigator(self)
        self.taps: TapRouter = TapRouter(self)
        self._added: dict[str, Flow] = {}  # flows named by a page of the registry as "module:Class"
        session.flows.extend([self.phones, self.settings, self.home, self.setup, self.names, self.progress, self.paying,
                              self.turn, self.clock, self.auction, self.trade, self.deeds, self.deedcard, self.banker,
                              self.pad, self.tagging])

    @classmethod
    def on(cls, journal: Journal, settings: Settings, *, save_settings: Callable[[Settings], None] | None = None,
           play_sound: Callable[[str], None] | None = None, clock: Callable[[], float] | None = None,
           roll: Callable[[int], tuple[int, ...]] | None = None,
           power_off: Callable[[], None] | None = None) -> Flows:
        """The flows on a new session of `journal` (the tests' and the tools' way; the app makes its session
        itself)."""
        kw: dict[str, Any] = {"save_settings": save_settings, "play_sound": play_sound}
        if clock is not None:
            kw["clock"] = clock
        return cls(Session(journal, settings, **kw), roll=roll, power_off=power_off)

    @property
    def mode(self) -> str:
        """What the table is doing: "home" (no game), "setup" (a new game), "table" (playing) or "over"."""
        if self.setup.draft is not None:
            return "setup"
        game = self.session.game
        if game is None:
            return "home"
        return "over" if game.ended else "table"

    def tick(self) -> None:
        """Every second: a silent reader is said to be so, a player's phone code goes in time, the clocks
        run (ui/flows/clock.py), and a page's flow of its own that has a `tick` has it (the phone editor's state,
        ui/flows/editions.py)."""
        self.settings.tick()
        self.phones.tick()
        self.clock.tick()
        for flow in list(self._added.values()):
            tick = getattr(flow, "tick", None)
            if tick is not None:
                tick()

    def of(self, name: str) -> Flow:
        """A flow by its name here ("trade") or, for a flow of its own, the "module:Class" a page names (made
        at its first call, and told of every action from then on)."""
        if ":" not in name:
            flow = getattr(self, name)
            assert isinstance(flow, Flow), name
            return flow
        if name not in self._added:
            module, cls = name.split(":")
            made = getattr(importlib.import_module(module), cls)(self)
            assert isinstance(made, Flow), name
            self._added[name] = made
            self.session.flows.append(made)
        return self._added[name]

    def own(self, kind: type[F]) -> F:
        """A page's flow of its own by its class (`f.own(ReportFlow)`), typed as that class: the same one
        `of("ui.flows.report:ReportFlow")` gives the navigator."""
        made = self.of(f"{kind.__module__}:{kind.__qualname__}")
        assert isinstance(made, kind), kind
        return made


__all__ = ["Flow", "Flows"]
