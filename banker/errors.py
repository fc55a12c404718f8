"""The engine's exceptions.

Two kinds of refusal, both ``ValueError``s, in the manner of python-chess:
``InvalidAction`` for input that is malformed whatever the state of the game
(an unknown verb, field, player or space), and ``IllegalAction`` for a
well-formed action that the rules do not allow now. Each carries a stable
``code`` and its ``params`` beside the English text, so that the app can say
the same thing in Polish, Czech or Russian.
"""

from __future__ import annotations

from typing import Any

from banker.messages import render


class BankerError(Exception):
    """Root of every error the engine raises on purpose."""


class ActionError(BankerError, ValueError):
    """An action was refused; the game is exactly as it was before it."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        self._text: str | None = None
        super().__init__(code)

    def __str__(self) -> str:
        # Rendered when first asked for: the engine's own checks (Game.legal_actions) refuse hundreds of
        # candidate actions a call and never read why.
        if self._text is None:
            self._text = render(self.code, self.params)
        return self._text

    @property
    def message(self) -> str:
        return str(self)


class InvalidAction(ActionError):
    """The action is malformed: unknown verb, field, player or space, wrong type."""


class IllegalAction(ActionError):
    """The action is well formed but the rules do not allow it now."""


class RulesetError(BankerError, ValueError):
    """A ruleset file or ruleset data is unreadable or breaks the schema.

    The message names the file, the key and the problem.
    """

    def __init__(self, source: str, key: str, problem: str) -> None:
        self.source = source
        self.key = key
        self.problem = problem
        where = f"{source}: {key}" if key else source
        super().__init__(f"{where}: {problem}")


class SetupError(BankerError, ValueError):
    """A game could not be started: bad players, options or setup."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(render(code, params))
