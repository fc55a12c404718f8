"""The big deed: a title deed shown across the whole screen when its tagged card is put on the reader with
nothing waiting for it (ui/taps.py decides), as Monopoly Ultimate Banking's rent check: its name and colour,
whose it is (or the bank's, with its price), the rent it takes now (the engine's `rent_due`; a utility's
multiplier of the dice), every rent level with the one in force marked, the mortgage, the buildings. It is
said aloud when the voice is on (a `deed_shown` moment to the session's moment listeners, ui/voice.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict

from ui import view
from ui.flows.base import Flow
from ui.moments import EVENT, Moment
from ui.pages import DEED_PAGE, TABLE_PAGE
from ui.voice import DEED_SHOWN

if TYPE_CHECKING:
    from ui.flows import Flows


class RentLine(TypedDict):
    """A line of the deed's rents (ui/view.py's `Deed` lines) and whether it is the rent taken now."""

    text: str
    now: bool


class BigDeed(TypedDict):
    """The big deed page (`DeedCardFlow.view`): the deed's name and group colour (`light`: a light colour, to be
    written on in dark ink), whose it is in words and the owner's colour (None: the bank's), the rent now in
    words, the rent lines, the mortgage in words and whether it is mortgaged, and its buildings in words ("" for
    none or for a space that takes none)."""

    name: str
    colour: str
    light: bool
    owner: str
    owner_colour: str | None
    rent_now: str
    rents: list[RentLine]
    mortgage: str
    mortgaged: bool
    built: str


class DeedCardFlow(Flow):
    def __init__(self, flows: Flows) -> None:
        super().__init__(flows)
        self.space: int | None = None  # the deed shown
        self.back = TABLE_PAGE  # where Back returns: the page the deed was tapped on

    def opened(self, fresh: bool) -> None:
        self.space = None

    def closed(self) -> None:
        self.space = None

    def leave(self, page: str) -> str | None:
        game = self.game
        if self.space is None or game is None or not 0 <= self.space < len(game.kinds):
            return TABLE_PAGE
        return None

    def show(self, i: int) -> None:
        """The deed of space `i` shown big, and said when the voice is on."""
        if self.f.nav.page != DEED_PAGE:
            self.back = self.f.nav.page
        self.space = i
        self.f.nav.go(DEED_PAGE)
        self._say(i)

    def close(self) -> None:
        """Back to the page the deed was tapped on."""
        self.space = None
        self.f.nav.go(self.back)

    def _say(self, i: int) -> None:
        """The deed to the moment listeners (the voice says it: ui/voice.py's `deed_phrase`)."""
        game = self.game
        assert game is not None
        owner = game.owner[i]
        utility = game.kinds[i] == "utility"
        params: dict[str, Any] = {
            "space": game.space_name(i), "owner": game.players[owner].name if owner >= 0 else "",
            "price": game.prices[i], "mortgaged": bool(game.mortgaged[i]),
            "rent": 0 if utility else game.rent_due(i, 0), "times": game.rent_due(i, 1) if utility else 0}
        self.s.tell([Moment(EVENT, DEED_SHOWN, params, len(game.history))])

    def view(self) -> BigDeed:
        """The deed shown, in words."""
        s, game, i = self.s, self.game, self.space
        assert game is not None and i is not None
        deed = view.space(s, i)
        tr = s.tr
        if deed["owner"] is None:
            owner = tr("ui.bigdeed.bank", price=game.prices[i])
            rent_now = tr("ui.bigdeed.no_rent_bank")
        else:
            owner = tr("ui.deed.owner", owner=deed["owner"])
            if deed["mortgaged"]:
                rent_now = tr("ui.bigdeed.no_rent_mortgaged")
            elif deed["kind"] == "utility":  # the engine's rent for a roll of 1 is its multiplier of the dice
                rent_now = tr("ui.bigdeed.rent_dice", times=game.rent_due(i, 1))
            else:
                rent_now = tr("ui.bigdeed.rent_now", amount=game.rent_due(i, 0))
        if deed["mortgaged"]:
            mortgage = tr("ui.bigdeed.mortgaged", amount=game.unmortgage_cost(i))
        else:
            mortgage = tr("ui.bigdeed.mortgage", amount=game.mortgage_value(i))
        built = deed["built"] or (tr("ui.bigdeed.none_built") if deed["kind"] == "lot" and deed["owner"] else "")
        return {"name": deed["name"], "colour": deed["colour"], "light": view.dark_ink(deed["colour"]), "owner": owner,
                "owner_colour": deed["owner_colour"], "rent_now": rent_now,
                "rents": [{"text": line, "now": k == deed["rent_line"]} for k, line in enumerate(deed["lines"])],
                "mortgage": mortgage, "mortgaged": deed["mortgaged"], "built": built}


__all__ = ["BigDeed", "DeedCardFlow", "RentLine"]
