"""The compiled engine (mypyc) plays exactly like the pure-Python one the installer falls back to: the same
simulated games and the same scenario results.

This process plays with the engine the run tests (scripts/test.sh: the compiled one installed in .venv-test,
or the pure one first on PYTHONPATH in the engine's second run); a process of its own plays with the other:
the pure engine's install (BANKER_PURE_ENGINE) when this one is compiled, the venv's compiled one when this
one is pure. The developers' loop from the checkout (scripts/test-dev.sh) compares the sources with .venv's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import banker.game
from banker.ruleset import load_ruleset
from banker.script import replay_file
from banker.simulate import play_game

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "tests" / "scenarios").rglob("*.jsonl"))
SEEDS = range(12)

PROBE = """
import json, sys
import banker.game
from banker.ruleset import load_ruleset
from banker.script import replay_file
from banker.simulate import play_game
out = {"file": banker.game.__file__, "sims": {}, "scenarios": {}}
for rules in ("classic", "classic-short", "classic-timed"):
    ruleset = load_ruleset(rules)
    for seed in %(seeds)r:
        for checked in (False, True):
            game, _, reason = play_game(rules, ruleset, 2 + seed %% 4, seed, checked=checked)
            out["sims"]["%%s %%d %%s" %% (rules, seed, checked)] = [game.to_json(), reason, game.rolls]
for path in sys.argv[1:]:
    r = replay_file(path)
    out["scenarios"][path] = [r.state, None if r.error is None else [r.error.line, r.error.status, r.error.message]]
print(json.dumps(out))
"""


def compiled(path: str) -> bool:
    return path.endswith((".so", ".pyd"))


def other_results(tmp_path: Path) -> dict:
    """The probe's results with the other engine than this process's."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if compiled(banker.game.__file__):
        pure = os.environ.get("BANKER_PURE_ENGINE")
        if not pure:
            pytest.skip("no pure-Python engine installed beside this one (scripts/test.sh installs it)")
        env["PYTHONPATH"] = pure
    run = subprocess.run([sys.executable, "-c", PROBE % {"seeds": list(SEEDS)}, *map(str, SCENARIOS)],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_the_compiled_engine_plays_like_the_pure_one(tmp_path: Path) -> None:
    installed = other_results(tmp_path)
    assert compiled(installed["file"]) != compiled(banker.game.__file__), (installed["file"], banker.game.__file__)
    print("this process:", banker.game.__file__, "the probe:", installed["file"])
    for rules in ("classic", "classic-short", "classic-timed"):
        ruleset = load_ruleset(rules)
        for seed in SEEDS:
            game, _, reason = play_game(rules, ruleset, 2 + seed % 4, seed)
            for checked in (False, True):
                state, their_reason, rolls = installed["sims"][f"{rules} {seed} {checked}"]
                assert (state, their_reason, rolls) == (game.to_json(), reason, game.rolls), (rules, seed, checked)
    for path in SCENARIOS:
        r = replay_file(path)
        mine = [r.state, None if r.error is None else [r.error.line, r.error.status, r.error.message]]
        assert installed["scenarios"][str(path)] == mine, path.name
