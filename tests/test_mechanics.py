"""The mechanics registry (banker/mechanics), and docs/engine.md's walk-through done for real: a ruleset with
one new mechanic value, its class registered from outside the engine, played by the engine and by
`banker replay`."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from banker import mechanics
from banker.errors import IllegalAction, RulesetError
from banker.game import Game
from banker.mechanics.doubles import Doubles
from banker.ruleset import load_ruleset
from banker.script import replay_file
from variantkit import registered

ROOT = Path(__file__).resolve().parent.parent


class NoExtraRoll(Doubles):
    """A made-up house rule: a double gives no extra roll (three in a row still send you to jail)."""

    def rolled_double(self, game: Game) -> None:
        game.set_roll_owed(False)  # the kernel changes the game; a mechanic asks it to


RULESET = """format = 1
name = "classic-no-extra"
extends = "classic"
title = "Classic, no extra roll for a double"
description = "The walk-through's ruleset: a double gives no extra roll."

[mechanics]
doubles = "no_extra"
"""


@pytest.fixture
def no_extra(tmp_path: Path) -> Iterator[Path]:
    with registered(tmp_path / "classic-no-extra.toml", "doubles", "no_extra", NoExtraRoll, RULESET) as path:
        yield path


def test_every_family_has_its_default_first_and_every_variant_subclasses_it() -> None:
    for family, variants in mechanics.REGISTRY.items():
        base = next(iter(variants.values()))
        assert all(issubclass(cls, base) for cls in variants.values()), family
    assert set(mechanics.families()) >= set(mechanics.REGISTRY)


def test_a_ruleset_with_a_new_mechanic_value_plays_by_its_class(no_extra: Path) -> None:
    game = Game(load_ruleset(str(no_extra)), ["Ann", "Ben"])
    assert isinstance(game.rules.doubles, NoExtraRoll)
    game.apply({"do": "roll", "dice": [3, 3]})  # a double: Ann to Oriental Avenue
    game.apply({"do": "decline"})
    while game.auction is not None:
        game.apply({"do": "pass", "player": game.players[game.auction.bidders[0]].name})
    game.apply({"do": "end_turn"})  # no extra roll owed: the turn passes
    assert game.current.name == "Ben"

    classic = Game(load_ruleset("classic"), ["Ann", "Ben"])
    classic.apply({"do": "roll", "dice": [3, 3]})
    classic.apply({"do": "decline"})
    while classic.auction is not None:
        classic.apply({"do": "pass", "player": classic.players[classic.auction.bidders[0]].name})
    with pytest.raises(IllegalAction):  # the classic double: Ann rolls again first
        classic.apply({"do": "end_turn"})


def test_banker_replay_plays_the_new_mechanic(no_extra: Path, tmp_path: Path) -> None:
    script = tmp_path / "game.jsonl"
    lines: list[Any] = [{"rules": str(no_extra), "players": ["Ann", "Ben"]},
                        {"do": "roll", "dice": [3, 3]}, {"do": "decline"}, {"do": "pass", "player": "Ann"},
                        {"do": "pass", "player": "Ben"}, {"do": "end_turn"}]
    script.write_text("\n".join(json.dumps(line) for line in lines) + "\n", "utf-8")
    result = replay_file(script)
    assert result.error is None, result.error
    assert result.state is not None and result.state["turn"] == "Ben"


def test_an_unknown_value_is_refused_with_file_key_and_the_names_it_knows(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(RULESET.replace("no_extra", "no_such_rule"), "utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(str(path))
    err = caught.value
    assert err.key == "mechanics.doubles" and "classic, after_move" in err.problem and "bad.toml" in str(err)


def test_families_chosen_from_the_options_are_refused_in_the_mechanics_table(tmp_path: Path) -> None:
    assert not set(mechanics.OPTION_CHOSEN) & set(mechanics.families())
    path = tmp_path / "casino.toml"
    path.write_text(RULESET.replace('doubles = "no_extra"', 'casino = "casino"'), "utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(str(path))
    assert caught.value.key == "mechanics.casino"
    with pytest.raises(KeyError):
        mechanics.register("casino", "other", mechanics.casino.Casino)


def test_the_casino_is_chosen_from_the_board() -> None:
    from banker.mechanics.casino import Casino, NoCasino, jackpot_won
    brands = Game(load_ruleset("brands"), ["Ann", "Ben"])
    classic = Game(load_ruleset("classic"), ["Ann", "Ben"])
    assert type(brands.rules.casino) is Casino and brands.variant.has_casino and brands.variant.casino_win(2) == 3000
    assert type(classic.rules.casino) is NoCasino and not classic.variant.has_casino
    assert jackpot_won(20, lambda: 0.04) and not jackpot_won(20, lambda: 0.05)


def test_register_refuses_a_class_of_another_family() -> None:
    with pytest.raises(TypeError):
        mechanics.register("deck", "no_extra", NoExtraRoll)
    with pytest.raises(KeyError):
        mechanics.register("weather", "rain", NoExtraRoll)


def test_the_cli_knows_a_variant_registered_before_it_runs(no_extra: Path, tmp_path: Path) -> None:
    """`banker replay` in a process of its own: a plug-in registers its class, then the command runs."""
    script = tmp_path / "game.jsonl"
    script.write_text(json.dumps({"rules": str(no_extra), "players": ["Ann", "Ben"]}) + "\n"
                      + json.dumps({"do": "roll", "dice": [3, 3]}) + "\n", "utf-8")
    code = (f"import sys; sys.path.insert(0, {str(ROOT / 'tests')!r}); import test_mechanics as t;"
            "from banker import mechanics; mechanics.register('doubles', 'no_extra', t.NoExtraRoll);"
            f"from banker.cli import main; sys.exit(main(['replay', '--json', {str(script)!r}]))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert run.returncode == 0, run.stderr
    state = json.loads(run.stdout)
    assert state["players"][0]["position"] == 6
