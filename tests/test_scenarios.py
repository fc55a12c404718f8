"""Scenario tests: game scripts with hand-computed expected final states.

Every file under ``tests/scenarios/<ruleset>/*.jsonl`` is a valid game script
(game-script.md) whose comment lines carry its expectations:

``# rule: ...``
    the rule of rulesets.md the scenario checks (required).
``# expect {...}``
    a partial expected final state (several lines may appear; all apply).
    ``players`` is keyed by player name, ``spaces`` by index string, and each
    entry is a partial dict; ``bank`` and ``auction`` are partial dicts (or an
    exact ``null`` for ``auction``); any other top-level key is compared exactly.
``# expect-error {"line": N, "status": 1, "contains": "..."}``
    the replay must stop at line N (the header is line 1) with that exit status;
    ``line`` is left out for a bad header (status 2). The ``# expect`` lines
    then apply to the state just before the failing line.

Besides, every replayed state shows ``lapped`` (true or false) for every player
exactly when the header's options turn ``buy_after_first_lap`` on, and
``bank.pot`` exactly when they turn ``free_parking_pot`` on (issue 41; no
shipped ruleset turns either on by itself).

The numbers were worked out by hand from shared/spec/rulesets.md, never from
the engine, so these scenarios are an independent check of it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

TESTS_DIR = Path(__file__).resolve().parent
REPO_ROOT = TESTS_DIR.parent
SCENARIO_DIR = TESTS_DIR / "scenarios"
SCENARIOS = sorted(SCENARIO_DIR.glob("**/*.jsonl"))
RULESETS = ("classic", "classic-short", "classic-timed", "biznes", "brands", "brands-fast", "brands-showdown",
            "brands-teams")
STATE_KEYS = {"rules", "turn", "ended", "winner", "players", "spaces", "bank", "auction", "owed",
              "end_reason", "ranking", "move", "last_random_target", "round", "clock"}
ERROR_KEYS = {"line", "status", "contains"}

# A few scenarios also run through the command line, `banker replay FILE --json`.
CLI_SCENARIOS = [
    "classic/spec-example.jsonl",
    "classic/doubles-end-turn-refused.jsonl",
    "classic/action-invalid-json.jsonl",
    "classic/header-unknown-option.jsonl",
    "classic-short/short-deal.jsonl",
    "classic-timed/timed-limit-ends-game.jsonl",
    "classic/house-lap-setup-mid-game.jsonl",
    "classic/house-lap-setup-option-off.jsonl",
    "classic/house-seed-win.jsonl",
    "classic/house-seed-without-pot-refused.jsonl",
    "brands/house-pot-refused.jsonl",
]


def scenario_id(path: Path) -> str:
    try:
        return path.relative_to(SCENARIO_DIR).as_posix()
    except ValueError:
        return path.as_posix()


@dataclass
class Scenario:
    path: Path
    lines: list[str]
    rules: list[str] = field(default_factory=list)
    expects: list[dict[str, Any]] = field(default_factory=list)
    expect_error: dict[str, Any] | None = None

    @property
    def ruleset(self) -> str:
        return self.path.parent.name


def parse_scenario(path: Path) -> Scenario:
    """Read a scenario's expectations from its comment lines."""
    lines = path.read_text(encoding="utf-8").splitlines()
    scenario = Scenario(path=path, lines=lines)
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line.startswith("#"):
            continue
        text = line[1:].strip()
        where = f"{scenario_id(path)}:{number}"
        if text.startswith("rule:"):
            scenario.rules.append(text[len("rule:"):].strip())
        elif text.startswith("expect-error"):
            assert scenario.expect_error is None, f"{where}: a second # expect-error"
            scenario.expect_error = _load_json(text[len("expect-error"):], where)
        elif text.startswith("expect "):
            scenario.expects.append(_load_json(text[len("expect "):], where))
        elif text.startswith("expect"):
            raise AssertionError(f"{where}: malformed expectation comment: {raw!r}")
    return scenario


def _load_json(text: str, where: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise AssertionError(f"{where}: expectation is not valid JSON: {exc}") from exc
    assert isinstance(value, dict), f"{where}: expectation must be a JSON object"
    return value


# --------------------------------------------------------------------------
# Matching a partial expected state against the engine's state


def _same(expected: Any, actual: Any) -> bool:
    """Exact JSON equality: True is not 1, 1.0 is not 1."""
    if type(expected) is not type(actual):
        return False
    if isinstance(expected, dict):
        return expected.keys() == actual.keys() and all(_same(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return len(expected) == len(actual) and all(_same(e, a) for e, a in zip(expected, actual, strict=True))
    return bool(expected == actual)


def _show(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _match_exact(expected: Any, actual: Any, path: str, problems: list[str]) -> None:
    if not _same(expected, actual):
        problems.append(f"{path}: expected {_show(expected)}, got {_show(actual)}")


def _match_partial(expected: Any, actual: Any, path: str, problems: list[str]) -> None:
    """Every key of `expected` must be in `actual` with the same value; nested
    dicts are matched partially too, everything else exactly."""
    if not isinstance(expected, dict):
        _match_exact(expected, actual, path, problems)
        return
    if not isinstance(actual, dict):
        problems.append(f"{path}: expected an object like {_show(expected)}, got {_show(actual)}")
        return
    for key, value in expected.items():
        if key not in actual:
            problems.append(f"{path}.{key}: missing (expected {_show(value)}); has keys {sorted(actual)}")
        else:
            _match_partial(value, actual[key], f"{path}.{key}", problems)


def match_state(expected: dict[str, Any], state: dict[str, Any]) -> list[str]:
    """Return one readable line per mismatch between a partial expected state
    and the full state; an empty list means it matches."""
    problems: list[str] = []
    for key, value in expected.items():
        path = f"state.{key}"
        if key not in state:
            problems.append(f"{path}: missing from the state (expected {_show(value)})")
            continue
        actual = state[key]
        if key == "players":
            by_name = {p.get("name"): p for p in actual} if isinstance(actual, list) else actual
            if not isinstance(by_name, dict):
                problems.append(f"{path}: expected a list of players, got {_show(actual)}")
                continue
            for name, partial in value.items():
                if name not in by_name:
                    problems.append(f"{path}.{name}: no such player; players are {sorted(map(str, by_name))}")
                else:
                    _match_partial(partial, by_name[name], f"{path}.{name}", problems)
        elif key == "spaces":
            if not isinstance(actual, dict):
                problems.append(f"{path}: expected an object keyed by index, got {_show(actual)}")
                continue
            for index, partial in value.items():
                if str(index) not in actual:
                    problems.append(f"{path}.{index}: no such property in the state")
                else:
                    _match_partial(partial, actual[str(index)], f"{path}.{index}", problems)
        elif key in ("bank", "auction") and value is not None:
            _match_partial(value, actual, path, problems)
        else:
            _match_exact(value, actual, path, problems)
    return problems


def house_rule_key_problems(header: dict[str, Any], state: dict[str, Any]) -> list[str]:
    """Issue 41: `lapped` shows for every player while `buy_after_first_lap`
    is on, and not otherwise; `bank.pot` shows while `free_parking_pot` is on,
    and not otherwise. Only for the shipped rulesets, which turn neither on."""
    if header.get("rules") not in RULESETS:
        return []
    options = header.get("options") or {}
    problems: list[str] = []
    lap_on = options.get("buy_after_first_lap") is True
    for player in state.get("players") or []:
        name = player.get("name")
        if lap_on and not isinstance(player.get("lapped"), bool):
            problems.append(f"state.players.{name}.lapped: expected true or false while buy_after_first_lap is on,"
                            f" got {_show(player.get('lapped', '(missing)'))}")
        if not lap_on and "lapped" in player:
            problems.append(f"state.players.{name}.lapped: shown while buy_after_first_lap is off")
    pot_on = options.get("free_parking_pot") is True
    bank = state.get("bank") or {}
    if pot_on and not isinstance(bank.get("pot"), int):
        problems.append(f"state.bank.pot: expected a whole number while free_parking_pot is on, "
                        f"got {_show(bank.get('pot', '(missing)'))}")
    if not pot_on and "pot" in bank:
        problems.append("state.bank.pot: shown while free_parking_pot is off")
    return problems


def _normalised(state: Any) -> Any:
    """The state as it would read back from JSON (tuples become lists, ...)."""
    return json.loads(json.dumps(state))


# --------------------------------------------------------------------------
# The scenario files themselves (these run without the engine)


def test_scenarios_exist() -> None:
    found = {p.parent.name for p in SCENARIOS}
    assert found == set(RULESETS), f"scenario folders {sorted(found)}, expected {list(RULESETS)}"


@pytest.mark.parametrize("path", SCENARIOS, ids=scenario_id)
def test_scenario_is_well_formed(path: Path) -> None:
    scenario = parse_scenario(path)
    name = scenario_id(path)
    assert scenario.ruleset in RULESETS, f"{name}: folder must be one of {RULESETS}"
    assert scenario.rules and all(scenario.rules), f"{name}: needs a '# rule: ...' line"
    assert scenario.expects or scenario.expect_error, f"{name}: expects nothing"
    for expected in scenario.expects:
        unknown = set(expected) - STATE_KEYS
        assert not unknown, f"{name}: unknown state keys {sorted(unknown)} in # expect"

    error = scenario.expect_error
    if error is not None:
        unknown = set(error) - ERROR_KEYS
        assert not unknown, f"{name}: unknown keys {sorted(unknown)} in # expect-error"
        assert error.get("status") in (1, 2), f"{name}: expect-error status must be 1 or 2"
        if error["status"] == 1:
            assert isinstance(error.get("line"), int), f"{name}: an action error needs its line"
    error_line = error.get("line") if error else None

    # Line 1 is the header, so line numbers agree however they are counted.
    header = json.loads(scenario.lines[0])
    assert isinstance(header, dict), f"{name}: line 1 must be the header"
    if not error or error["status"] != 2:
        assert header.get("rules") == scenario.ruleset, f"{name}: header rules must be {scenario.ruleset!r}"
    for number, raw in enumerate(scenario.lines[1:], start=2):
        line = raw.strip()
        if not line or line.startswith("#") or number == error_line:
            continue
        action = json.loads(line)
        assert isinstance(action, dict) and "do" in action, f"{name}:{number}: not an action"
    if error_line is not None:
        assert 1 < error_line <= len(scenario.lines), f"{name}: error line {error_line} is outside the file"
        target = scenario.lines[error_line - 1].strip()
        assert target and not target.startswith("#"), f"{name}: error line {error_line} is not an action line"
        # Nothing after the failing line is replayed, so only comments may follow it.
        for raw in scenario.lines[error_line:]:
            assert not raw.strip() or raw.strip().startswith("#"), f"{name}: action after the failing line"


def test_match_state_reports_paths() -> None:
    state = {"turn": "Ann", "players": [{"name": "Ann", "cash": 1440, "debts": []}],
             "spaces": {"3": {"owner": "Ann", "houses": 0}}, "bank": {"houses": 32}, "auction": None}
    assert match_state({"players": {"Ann": {"cash": 1440}}, "spaces": {"3": {"owner": "Ann"}}}, state) == []
    problems = match_state({"players": {"Ann": {"cash": 1444}, "Zed": {}}, "spaces": {"3": {"owner": "Ben"}},
                            "auction": None, "turn": "Ben", "bank": {"hotels": 12}}, state)
    assert "state.players.Ann.cash: expected 1444, got 1440" in problems
    assert "state.spaces.3.owner: expected \"Ben\", got \"Ann\"" in problems
    assert "state.turn: expected \"Ben\", got \"Ann\"" in problems
    assert any(p.startswith("state.players.Zed: no such player") for p in problems)
    assert any(p.startswith("state.bank.hotels: missing") for p in problems)
    assert len(problems) == 5
    assert match_state({"ended": True}, {"ended": 1}) == ["state.ended: expected true, got 1"]


# --------------------------------------------------------------------------
# Against the engine


def _replay(path: Path) -> Any:
    script = pytest.importorskip("banker.script", reason="the rules engine (banker.script) is not there yet")
    return script.replay_file(path)


def _describe(error: Any) -> str:
    if error is None:
        return "no error"
    return f"status {error.status} at line {error.line}: {error.message}"


@pytest.mark.parametrize("path", SCENARIOS, ids=scenario_id)
def test_scenario(path: Path) -> None:
    scenario = parse_scenario(path)
    result = _replay(path)
    name = scenario_id(path)
    expected_error = scenario.expect_error

    if expected_error is None:
        assert result.error is None, f"{name}: replay stopped ({_describe(result.error)})"
    else:
        assert result.error is not None, f"{name}: expected the replay to stop ({expected_error}), but it did not"
        if "status" in expected_error:
            assert result.error.status == expected_error["status"], (
                f"{name}: expected status {expected_error['status']}, got {_describe(result.error)}")
        if "line" in expected_error:
            assert result.error.line == expected_error["line"], (
                f"{name}: expected the replay to stop at line {expected_error['line']}, got {_describe(result.error)}")
        if "contains" in expected_error:
            assert expected_error["contains"] in result.error.message, (
                f"{name}: error message should contain {expected_error['contains']!r}: {_describe(result.error)}")

    if scenario.expects:
        state = _normalised(result.state)
        problems = [p for expected in scenario.expects for p in match_state(expected, state)]
        where = "before the failing line" if expected_error else "at the end"
        assert not problems, f"{name}: state {where} differs:\n  " + "\n  ".join(problems)

    if result.state is not None:
        header = json.loads(scenario.lines[0])
        problems = house_rule_key_problems(header, _normalised(result.state))
        assert not problems, f"{name}: " + "; ".join(problems)


@pytest.mark.parametrize("name", CLI_SCENARIOS)
def test_cli_replay(name: str) -> None:
    path = SCENARIO_DIR / name
    scenario = parse_scenario(path)
    result = _replay(path)
    env = dict(os.environ)
    proc = subprocess.run(
        [sys.executable, "-m", "banker", "replay", str(path), "--json"],
        capture_output=True, text=True, cwd=REPO_ROOT, env=env, timeout=120,
    )
    error = scenario.expect_error
    status = error["status"] if error else 0
    assert proc.returncode == status, (
        f"{name}: exit status {proc.returncode}, expected {status}\nstderr: {proc.stderr}")
    if status == 2:
        assert proc.stderr.strip(), f"{name}: a bad header must be explained on stderr"
        return
    if error is not None:
        prefix = f"line {error['line']}: "
        assert proc.stderr.startswith(prefix), f"{name}: stderr should start with {prefix!r}: {proc.stderr!r}"
    try:
        printed = json.loads(proc.stdout)
    except json.JSONDecodeError as exc:
        raise AssertionError(f"{name}: stdout is not JSON ({exc}): {proc.stdout[:500]!r}") from exc
    assert printed == _normalised(result.state), f"{name}: `banker replay --json` differs from replay_file().state"


def test_house_rule_keys() -> None:
    plain = {"players": [{"name": "Ann"}], "bank": {"houses": 32}}
    assert house_rule_key_problems({"rules": "classic"}, plain) == []
    lapped = {"players": [{"name": "Ann", "lapped": False}], "bank": {"houses": 32, "pot": 0}}
    assert len(house_rule_key_problems({"rules": "classic"}, lapped)) == 2
    on = {"rules": "classic", "options": {"buy_after_first_lap": True, "free_parking_pot": True}}
    assert house_rule_key_problems(on, lapped) == []
    assert len(house_rule_key_problems(on, plain)) == 2
    assert house_rule_key_problems({"rules": "my-edition.toml"}, lapped) == []
