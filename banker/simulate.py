"""Whole games between computer players, through the engine's checked entry point.

Used by `banker simulate`, the benchmarks and the property tests. Every game
is reproducible from its seed, and with `save_dir` written out as a game
script (chance inputs explicit) that `banker replay` turns into the same state.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from banker.ai import choose
from banker.chance import SeededChance, complete_action
from banker.game import Game
from banker.ruleset import Ruleset
from banker.script import Header, new_game, script_lines

SECONDS_PER_ROLL = 30  # the simulated table clock (about a roll every half minute), for rulesets that read it


def player_names(count: int) -> list[str]:
    names = ["Ann", "Ben", "Cy", "Dot", "Eve", "Fay", "Gus", "Hal"]
    return names[:count] if count <= len(names) else [f"P{k + 1}" for k in range(count)]


def play_game(rules: str, ruleset: Ruleset, players: int, seed: int, max_turns: int = 1000,
              observe: Callable[[Game, dict[str, Any]], None] | None = None,
              checked: bool = True, options: dict[str, Any] | None = None) -> tuple[Game, Header, str]:
    """Play one game to its end or the turn cap; return the game, its header and how it ended.

    `checked=False` hands the computer players' actions to the engine's
    unchecked core (`Game.push`): the same rules, without re-checking moves
    the players already know to be legal. The tests play the same seeds
    checked and compare.
    """
    header = Header(rules=rules, players=player_names(players), seed=seed, options=dict(options or {}))
    if not _is_builtin(rules):
        header.ruleset_data = ruleset.source_data()  # the saved script stands on its own
    game, chance = new_game(header, ruleset)
    assert chance is not None
    game.unobserved(watched=observe is not None)  # no undo here, and events only for an observer
    ai_rng = random.Random(seed ^ 0x5EED)
    # A game on the clock (a timed game, brands' economy) needs every action stamped with `t`.
    timed = bool(game.options.time_limit) or game.variant.clocked
    if not checked and observe is None and not timed and ruleset.dice == 2 and not game.options.speed_die_round:
        return game, header, _fast_loop(game, chance, ai_rng, max_turns)
    clock = 0
    while game.outcome is None:
        if game.turns >= max_turns:
            game.apply({"do": "end_game"})
            return game, header, "turn_cap"
        action, actor = choose(game, ai_rng)
        verb = action["do"]
        if verb == "roll":
            action["dice"] = chance.dice(game.dice_count())
        elif verb in ("draw", "deal", "casino"):
            action = complete_action(game, action, chance)
        if timed:
            if verb == "roll":
                clock += SECONDS_PER_ROLL
            action["t"] = clock
        if checked:
            game.apply(action)
        else:
            game.push(verb, actor, action)
        if observe is not None:
            observe(game, action)
    return game, header, (game.outcome.reason if game.outcome is not None else "ended")


def _fast_loop(game: Game, chance: SeededChance, ai_rng: random.Random, max_turns: int) -> str:
    """play_game's loop for the common case (two dice, no clock, nobody watching), kept tight."""
    push = game.push
    rnd = chance.rng.random
    while game.outcome is None:
        if game.turns >= max_turns:
            game.apply({"do": "end_game"})
            return "turn_cap"
        action, actor = choose(game, ai_rng)
        verb = action["do"]
        if verb == "roll":
            action["dice"] = [int(rnd() * 6) + 1, int(rnd() * 6) + 1]  # as SeededChance.dice(2)
        elif verb == "draw" or verb == "deal" or verb == "casino":
            action = complete_action(game, action, chance)
        push(verb, actor, action)
    return (game.outcome.reason if game.outcome is not None else "ended")


def _is_builtin(rules: str) -> bool:
    from banker.ruleset import builtin_names

    return rules in builtin_names()


def simulate(rules: str, ruleset: Ruleset, games: int, players: int, seed: int,
             max_turns: int = 1000, save_dir: str | None = None, checked: bool = False,
             options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play `games` games (seeds seed, seed+1, ...) with the table's `options` over the ruleset's, and sum them
    up."""
    out = Path(save_dir) if save_dir else None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    rolls = actions = 0
    ended: dict[str, int] = {}
    started = time.perf_counter()
    for k in range(games):
        game, header, reason = play_game(rules, ruleset, players, seed + k, max_turns, checked=checked,
                                         options=options)
        rolls += game.rolls
        actions += len(game.script)
        ended[reason] = ended.get(reason, 0) + 1
        if out is not None:
            path = out / f"game-{seed + k:06d}.jsonl"
            path.write_text("\n".join(script_lines(header, game.script)) + "\n", "utf-8")
    seconds = time.perf_counter() - started
    return {
        "rules": ruleset.name,
        "games": games,
        "players": players,
        "options": dict(options or {}),
        "rolls": rolls,
        "actions": actions,
        "ended": ended,
        "seconds": round(seconds, 4),
        "rolls_per_second": rolls / seconds if seconds else 0.0,
        "games_per_second": games / seconds if seconds else 0.0,
    }
