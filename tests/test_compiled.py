"""The installed engine (compiled by mypyc where the machine could) plays exactly
like the source: the same simulated games and the same scenario results.

The rest of the suite imports the sources from the checkout; this test runs
the package installed in the venv, from outside the checkout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

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


def installed_results(tmp_path: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run([sys.executable, "-c", PROBE % {"seeds": list(SEEDS)}, *map(str, SCENARIOS)],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    if run.returncode != 0 and "No module named 'banker'" in run.stderr:
        pytest.skip("board-banker is not installed in this interpreter (scripts/test.sh installs it)")
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_installed_engine_plays_like_the_source(tmp_path: Path) -> None:
    installed = installed_results(tmp_path)
    assert not installed["file"].startswith(str(ROOT / "banker")), "the probe imported the checkout"
    print("installed engine:", installed["file"])
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
