"""A game's beginning and end at the table: the start screen (a new game, or the unfinished one resumed
exactly where it was), the money log, the house rules in force, and the game-over screen (the winner, the ranking and everyone's net
worth over the game), from which the table goes back to the start."""

from __future__ import annotations

from typing import TypedDict

from banker.journal import JournalError
from ui import view
from ui.flows.base import Flow
from ui.i18n import winners_msg
from ui.view import Rank


class RulesInForce(TypedDict):
    """The house rules page of a game going (`HomeFlow.house_rules`): the ruleset's name, the rules in words."""

    rules: str
    lines: list[str]


class GameOver(TypedDict):
    """The game-over screen (`HomeFlow.game_over`): the winner in words, the ranking, everyone's net worth at
    the start of each turn with the round of each point, and the players' colours."""

    winner: str
    ranking: list[Rank]
    history: dict[str, list[int]]
    rounds: list[int]
    colours: dict[str, str]


class HomeFlow(Flow):
    def can_resume(self) -> bool:
        """There is an unfinished game in the journal to go back to."""
        return self.s.journal.latest_active() is not None

    def resume(self) -> bool:
        """Reopen the last unfinished game, exactly where it was."""
        s = self.s
        game_id = s.journal.latest_active()
        if game_id is None:
            return False
        try:
            live = s.journal.load(game_id)
        except JournalError as exc:
            s.error(exc)
            return False
        s.open(live, fresh=False)
        self.changed()
        return True

    def close_game(self) -> None:
        """Back to the start screen after the game-over screen (the game stays finished)."""
        self.s.close()
        self.changed()

    def log(self, limit: int = 200) -> list[str]:
        """Every money movement in words, newest first."""
        return view.log(self.s, limit)

    def house_rules(self) -> RulesInForce:
        """The house rules in force in this game, in words (`view.house_rules`), and the ruleset's name."""
        s, game = self.s, self.game
        assert game is not None
        name = game.ruleset.name
        return {"rules": s.tr(f"ui.rules.{name}") if s.tr.has(f"ui.rules.{name}") else game.ruleset.title,
                "lines": [r["text"] for r in view.house_rules(s, game.ruleset, game.options, pot_now=game.pot)]}

    def game_over(self) -> GameOver:
        """The winner, the ranking by net worth, and everyone's net worth over the game for the chart (with the
        round of each of its points)."""
        s, game = self.s, self.game
        assert game is not None and game.outcome is not None
        history, rounds = view.worth_history_and_rounds(game)
        return {"winner": s.tr.render(winners_msg(game.outcome.winners)), "ranking": view.ranking(s),
                "history": history, "rounds": rounds, "colours": {p.name: s.colour(p.name) for p in game.players}}


__all__ = ["GameOver", "HomeFlow", "RulesInForce"]
