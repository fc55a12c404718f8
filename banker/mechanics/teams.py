"""Teams: whether the players play as two teams of two (option `teams`).

Chosen from the options, not from a ruleset's ``[mechanics]`` table:

- `NoTeams` (the default): everyone plays for themselves; no two players are allies.
- `Teams` (brands-teams, ``teams = true``): seats 1 and 3 play against seats 2 and 4; a game needs exactly
  four players. Allies pay each other no rent, trade outside the balance limits, inherit a bankrupt partner's
  properties, and a team left alone wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from banker.errors import SetupError
from banker.mechanics.base import Mechanic, mypyc_attr

if TYPE_CHECKING:
    from banker.ruleset import Ruleset


@mypyc_attr(allow_interpreted_subclasses=True)
class NoTeams(Mechanic):
    """Everyone for themselves."""

    def present(self) -> bool:
        """Whether the game is played in teams."""
        return False

    def check_setup(self, ruleset: Ruleset, names: Sequence[str]) -> None:
        """Refuse a game the teams cannot be made from (raises SetupError)."""

    def allies(self, p: int, q: int) -> bool:
        """Whether players p and q (seat indexes) play on the same team."""
        return False


@mypyc_attr(allow_interpreted_subclasses=True)
class Teams(NoTeams):
    """brands-teams: seats 1 and 3 play against 2 and 4."""

    def present(self) -> bool:
        return True

    def check_setup(self, ruleset: Ruleset, names: Sequence[str]) -> None:
        if len(names) != 4:
            raise SetupError("setup.player_count", count=len(names), least=4, most=4, rules=ruleset.name)

    def allies(self, p: int, q: int) -> bool:
        return p != q and p % 2 == q % 2


VARIANTS: dict[str, type[NoTeams]] = {"none": NoTeams, "teams": Teams}
