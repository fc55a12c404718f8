"""The tour's shots of Settings -> "Tag the cards" (ui/flows/tagging.py), between games: the sets, a deed with the
sticker of the one before it just kept, a refusal by name (a sticker that is another card's already), a Chance
card with the longest words of the deck, the end of a set tagged partly, the sets again with their progress,
and the reader's check naming a tagged card. Stickers are tapped the way the reader reports them. (Its own
module, as ui/tour_editions.py: ui/tour.py takes these steps where they belong with one line.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ui.app import BankerApp
from ui.pages import CHECK_READER_PAGE, SETTINGS_PAGE

STICKERS = ["5A000001", "5A000002"]  # the tour's stickers: Mediterranean Avenue's, a Chance card's
LONGEST = "ch-nearest-utility"  # classic's card of the most words in every language (181 characters in Polish)


def tagging_shots(app: BankerApp) -> list[tuple[str, Callable[[], Any]]]:
    """The steps: (shot name, what to do before the shot), from the start screen's side with no game going."""
    f = app.flows
    tagging = f.tagging

    def tap(uid: str) -> Callable[[], None]:
        return lambda: f.taps.card_tapped(uid)

    def sets() -> None:
        f.nav.go(SETTINGS_PAGE)
        tagging.begin()

    def deed() -> None:
        """Classic chosen; Mediterranean Avenue's sticker kept: Baltic Avenue shows, on its colour band."""
        tagging.choose("classic")
        f.taps.card_tapped(STICKERS[0])

    def to_longest() -> None:
        """On to Chance's card of the most words."""
        while (item := tagging.item()) is not None and item.card != LONGEST:
            tagging.skip()

    def to_end() -> None:
        """Its sticker kept, then on past the last card."""
        f.taps.card_tapped(STICKERS[1])
        while tagging.item() is not None:
            tagging.skip()

    def check() -> None:
        """The reader's check (from the settings): the Chance card's sticker, named with its set."""
        f.nav.go(SETTINGS_PAGE)
        f.nav.go(CHECK_READER_PAGE)
        f.taps.card_tapped(STICKERS[1])

    return [
        ("tagging-sets", sets),
        ("tagging-deed", deed),
        ("tagging-refused", tap(STICKERS[0])),  # on Baltic Avenue: that sticker is Mediterranean Avenue's
        ("tagging-card", to_longest),
        ("tagging-end", to_end),
        ("tagging-sets-progress", tagging.done),
        ("tagging-check-names-a-card", check),
    ]


__all__ = ["STICKERS", "tagging_shots"]
