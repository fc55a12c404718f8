"""Board Banker's rules engine: pure Python, rules as data, chance as input.

Nothing here imports Kivy, pyserial, gpiozero, ``ui`` or ``hardware``.
"""

from banker.errors import ActionError, BankerError, IllegalAction, InvalidAction, RulesetError, SetupError
from banker.game import Game
from banker.ruleset import Ruleset, builtin_names, load_ruleset

__all__ = [
    "ActionError", "BankerError", "Game", "IllegalAction", "InvalidAction", "Ruleset",
    "RulesetError", "SetupError", "builtin_names", "load_ruleset",
]
