"""`banker replay` and `banker simulate` as outside tools drive them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

EXAMPLE = """{"rules": "classic", "players": ["Ann", "Ben"]}
{"do": "roll", "dice": [1, 2]}
{"do": "buy"}
{"do": "end_turn"}
{"do": "roll", "dice": [1, 2]}
{"do": "end_turn"}
"""


def banker(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "banker", *args], capture_output=True, text=True, timeout=120)


def test_spec_example(tmp_path: Path) -> None:
    script = tmp_path / "example.jsonl"
    script.write_text(EXAMPLE, "utf-8")
    out = banker("replay", str(script), "--json")
    assert out.returncode == 0, out.stderr
    state = json.loads(out.stdout)
    assert [(p["name"], p["cash"]) for p in state["players"]] == [("Ann", 1444), ("Ben", 1496)]
    text = banker("replay", str(script))
    assert text.returncode == 0
    assert "Ann: cash 1444" in text.stdout and "Ben: cash 1496" in text.stdout


def test_refused_line(tmp_path: Path) -> None:
    script = tmp_path / "bad.jsonl"
    script.write_text(EXAMPLE.replace('{"do": "buy"}', '{"do": "buy"}\n# a comment\n\n{"do": "buy"}'), "utf-8")
    out = banker("replay", str(script), "--json")
    assert out.returncode == 1
    assert out.stderr.startswith("line 6: Ann has no property to buy")  # comments and blanks count
    state = json.loads(out.stdout)  # the state before line 6
    assert state["players"][0]["cash"] == 1440 and state["spaces"]["3"]["owner"] == "Ann"


def test_bad_header_and_unreadable_file(tmp_path: Path) -> None:
    script = tmp_path / "header.jsonl"
    script.write_text('{"rules": "classic", "players": ["Ann", "Ben"], "options": {"salry": 1}}\n', "utf-8")
    out = banker("replay", str(script), "--json")
    assert out.returncode == 2 and "salry" in out.stderr and out.stdout == ""
    assert banker("replay", str(tmp_path / "missing.jsonl")).returncode == 2
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_bytes(b"\xff\xfe not text")
    out = banker("replay", str(garbage))
    assert out.returncode == 2 and "Traceback" not in out.stderr


def test_simulate_json_and_saved_scripts_replay(tmp_path: Path) -> None:
    out = banker("simulate", "--rules", "classic", "--games", "4", "--players", "4", "--seed", "11",
                 "--json", "--save-scripts", str(tmp_path))
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert {"games", "rolls", "actions", "seconds", "ended"} <= set(summary)
    assert summary["games"] == 4 and sum(summary["ended"].values()) == 4
    assert summary["rolls"] > 100 and summary["actions"] > summary["rolls"]
    scripts = sorted(tmp_path.glob("*.jsonl"))
    assert len(scripts) == 4
    from banker.ruleset import load_ruleset
    from banker.script import replay_file
    from banker.simulate import play_game
    for k, path in enumerate(scripts):
        result = replay_file(path)
        assert result.error is None
        game, _, _ = play_game("classic", load_ruleset("classic"), 4, 11 + k)
        assert result.state == game.to_json()
        assert result.state["ended"]
    for rules in ("classic-short", "classic-timed"):
        out = banker("simulate", "--rules", rules, "--games", "3", "--players", "3", "--seed", "2", "--json")
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout)["games"] == 3


def test_simulate_refuses_bad_arguments() -> None:
    assert banker("simulate", "--players", "9").returncode == 2
    assert banker("simulate", "--rules", "nope").returncode == 2
    assert banker("simulate", "--games", "0").returncode == 2
