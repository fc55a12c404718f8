""""Game already going?": a game that started on the physical board before the app, entered on the new-game
screen's own page: each player's cash and position, and every property's owner, buildings and mortgage.
What is entered becomes the game script's `setup` (docs/game-script.md), which the engine checks at the
start like any other."""

from __future__ import annotations

from typing import Any, TypedDict

from banker.ruleset import load_ruleset
from banker.variant import Variant
from ui.flows.base import Flow
from ui.flows.draft import Draft

SETUP_CASH_STEP = 50  # the page's -/+ on a player's cash
DEFAULT_COLOUR = "#BDBDBD"  # a space of no colour group


class ProgressPlayer(TypedDict):
    """A player's cash (a number and in words), position and its space's name, and whether they have been
    round the board yet."""

    name: str
    cash: int
    cash_text: str
    position: int
    where: str
    lapped: bool


class ProgressSpace(TypedDict):
    """A property: its colour group's colour, owner (None: the bank), whether it takes buildings (`lot`), its
    buildings (0-4 houses, 5 a hotel) and whether it is mortgaged."""

    index: int
    name: str
    colour: str
    owner: str | None
    lot: bool
    level: int
    mortgaged: bool


class ProgressView(TypedDict):
    """The "game already going" page (`ProgressFlow.view`): the players, the properties, whether the ruleset has
    mortgages, the cash's -/+ step, and whether each player's first lap is asked (`laps`)."""

    players: list[ProgressPlayer]
    spaces: list[ProgressSpace]
    mortgages: bool
    step: int
    laps: bool


class ProgressFlow(Flow):
    def _draft(self) -> Draft:
        d = self.f.setup.draft
        assert d is not None
        return d

    def entered(self) -> dict[str, Any]:
        """The engine's setup being entered: every player named on the setup screen has today's cash and
        position (the starting cash on Go until changed)."""
        d = self._draft()
        setup = d.setup or {"players": {}, "spaces": {}}
        d.setup = setup
        start_cash = load_ruleset(d.rules).options.start_cash
        for name in d.names():
            setup["players"].setdefault(name, {"cash": start_cash, "position": 0})
        return setup

    def bump_player(self, name: str, key: str, step: int) -> None:
        """A player's cash (never below 0) or position (round the board) up or down."""
        d = self._draft()
        entry = self.entered()["players"][name]
        if key == "cash":
            entry[key] = max(0, entry[key] + step)
        else:
            entry[key] = (entry[key] + step) % len(load_ruleset(d.rules).spaces)
        self.changed()

    def laps(self) -> bool:
        """Whether the game being set up has the house rule `buy_after_first_lap`: the page then asks, for each
        player, whether they have been round the board yet (they buy and bid only once they have)."""
        return bool(self.f.setup.chosen_options().buy_after_first_lap)

    def toggle_lapped(self, name: str) -> None:
        """Whether the player has been round the board yet (the setup's `lapped`), the other way round."""
        entry = self.entered()["players"][name]
        entry["lapped"] = not entry.get("lapped", False)
        self.changed()

    def _space(self, i: int) -> dict[str, Any]:
        spaces: dict[str, dict[str, Any]] = self.entered()["spaces"]
        return spaces.setdefault(str(i), {})

    def cycle_owner(self, i: int) -> None:
        """The property's owner: the bank, then each player in turn, then the bank again (which clears it)."""
        entry = self._space(i)
        owner = entry.get("owner")
        order: list[str | None] = [None, *self._draft().names()]
        nxt = order[(order.index(owner) + 1) % len(order)] if owner in order else None
        entry["owner"] = nxt
        if nxt is None:
            entry.clear()
        self.changed()

    def cycle_level(self, i: int) -> None:
        """No houses, 1 to 4, a hotel, and round again."""
        entry = self._space(i)
        level = 5 if entry.get("hotel") else int(entry.get("houses", 0))
        level = (level + 1) % 6
        entry["houses"] = level if level < 5 else 0
        entry["hotel"] = level == 5
        self.changed()

    def toggle_mortgaged(self, i: int) -> None:
        entry = self._space(i)
        entry["mortgaged"] = not entry.get("mortgaged", False)
        self.changed()

    def view(self) -> ProgressView:
        """Each player's cash and position, and every property's owner, buildings and mortgage, as entered so
        far."""
        d = self._draft()
        entered = d.setup or {"players": {}, "spaces": {}}
        ruleset = load_ruleset(d.rules)
        start_cash = ruleset.options.start_cash
        players: list[ProgressPlayer] = []
        for name in d.names():
            entry = entered["players"].get(name, {})
            cash, position = int(entry.get("cash", start_cash)), int(entry.get("position", 0))
            players.append({"name": name, "cash": cash, "cash_text": self.s.tr.money(cash), "position": position,
                            "where": ruleset.spaces[position].name, "lapped": bool(entry.get("lapped", False))})
        spaces: list[ProgressSpace] = []
        for s in ruleset.spaces:
            if not s.is_property:
                continue
            entry = entered["spaces"].get(str(s.index), {})
            spaces.append({"index": s.index, "name": s.name,
                           "colour": ruleset.groups[s.group].get("color", DEFAULT_COLOUR) if s.group else DEFAULT_COLOUR,
                           "owner": entry.get("owner"), "lot": s.kind == "lot",
                           "level": 5 if entry.get("hotel") else int(entry.get("houses", 0)),
                           "mortgaged": bool(entry.get("mortgaged"))})
        return {"players": players, "spaces": spaces, "mortgages": Variant.of_ruleset(ruleset).has_mortgages,
                "step": SETUP_CASH_STEP, "laps": self.laps()}


__all__ = ["ProgressFlow", "ProgressPlayer", "ProgressSpace", "ProgressView", "SETUP_CASH_STEP"]
