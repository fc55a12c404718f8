"""The engine's layout (docs/engine.md, "Modules"): every verb carried out in exactly one place, every card
effect the loader accepts played by banker/cards.py."""

from __future__ import annotations

import banker.game
from banker import cards, mechanics, verbs
from banker.game import VERBS, Game
from banker.ruleset import CARD_EFFECTS


def test_every_verb_but_undo_has_one_handler() -> None:
    modules = [set(mechanics.HANDLERS), set(cards.HANDLERS), set(verbs.HANDLERS)]
    assert sum(len(m) for m in modules) == len(set().union(*modules)), "a verb carried out by two modules"
    own = {verb for verb in VERBS if hasattr(Game, f"_check_{verb}") or hasattr(Game, f"_do_{verb}")}
    for handled in modules:
        assert not own & handled, f"both Game and a module carry out {sorted(own & handled)}"
    assert set(banker.game._HANDLERS) == set(VERBS) - {"undo"}


def test_every_card_effect_is_played() -> None:
    assert set(cards.EFFECTS) == set(CARD_EFFECTS)
