"""What a ruleset calls things, for the texts: Kivy-free, shared by the controller and the view data."""

from __future__ import annotations

from banker.game import Game


def building_words(game: Game) -> tuple[str, str]:
    """What the ruleset calls its buildings: houses and hotels, biznes's branch offices and holdings,
    brands' branches and corporations."""
    return game.building_words()
