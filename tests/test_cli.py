"""`banker replay` and `banker simulate` as outside tools drive them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

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


def test_export_then_import_gives_the_same_game(tmp_path: Path) -> None:
    out = banker("simulate", "--rules", "classic", "--games", "1", "--players", "3", "--seed", "5",
                 "--max-turns", "40", "--save-scripts", str(tmp_path))
    assert out.returncode == 0, out.stderr
    script = next(tmp_path.glob("*.jsonl"))
    here, there = tmp_path / "here.sqlite3", tmp_path / "there.sqlite3"
    played = banker("replay", str(script), "--journal", str(here), "--json")
    assert played.returncode == 0, played.stderr
    exported = tmp_path / "moved.jsonl"
    exported.write_text(banker("export", str(here), "--game", "1").stdout, "utf-8")
    first = banker("import", str(script), "--journal", str(there))  # an import starts a journal if needed
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip() == "1"
    imported = banker("import", str(exported), "--journal", str(there))
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.strip() == "2"  # the new game's id
    state = banker("state", str(there), "--game", "2", "--json")
    assert json.loads(state.stdout) == json.loads(played.stdout)
    listed = json.loads(banker("games", str(there), "--json").stdout)
    status = "finished" if json.loads(played.stdout)["ended"] else "active"
    assert [(g["id"], g["status"]) for g in listed] == [(1, status), (2, status)]
    assert banker("export", str(there), "--game", "2").stdout == exported.read_text("utf-8")


def test_an_imported_game_in_progress_is_the_one_to_resume(tmp_path: Path) -> None:
    script = tmp_path / "example.jsonl"
    script.write_text(EXAMPLE, "utf-8")
    db = tmp_path / "games.sqlite3"
    assert banker("import", str(script), "--journal", str(db)).returncode == 0
    from banker.journal import Journal

    with Journal(db) as journal:
        assert journal.status(1) == "active" and journal.latest_active() == 1
        assert [a["do"] for a in journal.actions(1)] == ["roll", "buy", "end_turn", "roll", "end_turn"]


def test_import_of_a_refused_line_leaves_no_game(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    good = tmp_path / "good.jsonl"
    good.write_text(EXAMPLE, "utf-8")
    assert banker("import", str(good), "--journal", str(db)).returncode == 0
    bad = tmp_path / "bad.jsonl"
    bad.write_text(EXAMPLE.replace('{"do": "buy"}', '{"do": "buy"}\n# a comment\n\n{"do": "buy"}'), "utf-8")
    out = banker("import", str(bad), "--journal", str(db))
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.startswith("line 6: Ann has no property to buy")
    listed = json.loads(banker("games", str(db), "--json").stdout)
    assert [g["id"] for g in listed] == [1]  # the half-imported game 2 is gone again
    from banker.journal import Journal

    with Journal(db) as journal:
        assert journal.actions(2) == [] and journal.latest_active() == 1


def test_import_of_a_bad_file_exits_2(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    header = tmp_path / "header.jsonl"
    header.write_text('{"rules": "classic", "players": ["Ann", "Ben"], "options": {"salry": 1}}\n', "utf-8")
    out = banker("import", str(header), "--journal", str(db))
    assert out.returncode == 2 and "salry" in out.stderr and out.stdout == ""
    assert banker("import", str(tmp_path / "missing.jsonl"), "--journal", str(db)).returncode == 2
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_bytes(b"\xff\xfe not text")
    out = banker("import", str(garbage), "--journal", str(db))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    empty = tmp_path / "empty.jsonl"
    empty.write_text("# nothing\n", "utf-8")
    assert banker("import", str(empty), "--journal", str(db)).returncode == 2
    assert "no games" in banker("games", str(db)).stdout
    broken = tmp_path / "broken.sqlite3"
    broken.write_bytes(b"not a journal at all" * 100)
    good = tmp_path / "good.jsonl"
    good.write_text(EXAMPLE, "utf-8")
    out = banker("import", str(good), "--journal", str(broken))
    assert out.returncode == 2 and "Traceback" not in out.stderr


def test_a_moved_game_stays_but_is_not_resumed(tmp_path: Path) -> None:
    import pytest

    from banker.journal import Journal
    from banker.script import Header

    db = tmp_path / "games.sqlite3"
    with Journal(db) as journal:
        first = journal.start(Header(rules="classic", players=["Ann", "Ben"]))
        first.apply({"do": "roll", "dice": [1, 2]})
        second = journal.start(Header(rules="classic", players=["Cy", "Dot"]))
        assert journal.latest_active() == second.id
        journal.set_status(second.id, "moved")
        assert journal.status(second.id) == "moved"
        assert journal.latest_active() == first.id
        journal.set_status(first.id, "moved")
        assert journal.latest_active() is None  # nothing for the app to reopen
        assert journal.load(second.id).game.players[0].name == "Cy"  # still there, until deleted
        with pytest.raises(ValueError):
            journal.set_status(first.id, "gone")
    listed = banker("games", str(db))
    assert listed.returncode == 0 and listed.stdout.count("moved") == 2
    assert [g["status"] for g in json.loads(banker("games", str(db), "--json").stdout)] == ["moved", "moved"]
    assert banker("delete", str(db), "--game", "2", "--yes").returncode == 0
    assert [g["id"] for g in json.loads(banker("games", str(db), "--json").stdout)] == [1]


def test_a_closed_pipe_ends_the_output_quietly(monkeypatch: pytest.MonkeyPatch) -> None:
    """`banker rules brands | head -1`: when the reader has gone, no traceback, exit status 141."""
    import io
    import os

    from banker.cli import main

    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone: every write now fails with a broken pipe
    out = io.TextIOWrapper(os.fdopen(write_end, "wb", buffering=0), write_through=True)
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["rules", "brands"]) == 141


# ----------------------------------------------------------------------
# Every number on the command line: a refusal of one line naming the option, exit status 2 (issue 18)

BAD_NUMBERS = [
    (["simulate", "--games", "x"], "banker simulate: --games: must be a whole number from 1 to 1000000, not \"x\""),
    (["simulate", "--games", "0"], "banker simulate: --games: must be a whole number from 1 to 1000000, not \"0\""),
    (["simulate", "--games", "1000001"], "banker simulate: --games: must be a whole number from 1 to 1000000, "
                                         "not \"1000001\""),
    (["simulate", "--games", "1_000"], "banker simulate: --games: must be a whole number from 1 to 1000000, "
                                       "not \"1_000\""),
    (["simulate", "--games", " 5"], "banker simulate: --games: must be a whole number from 1 to 1000000, not \" 5\""),
    (["simulate", "--games", "\u0661\u0660"], "banker simulate: --games: must be a whole number from 1 to 1000000, "
                                              "not \"\u0661\u0660\""),
    (["simulate", "--games", "9" * 5000], "banker simulate: --games: must be a whole number from 1 to 1000000, "
                                          f"not \"{'9' * 37}...\""),
    (["simulate", "--games", "1\n2"], "banker simulate: --games: must be a whole number from 1 to 1000000, "
                                      "not \"1\\n2\""),
    (["simulate", "--players", "9"], "banker simulate: --players: must be a whole number from 2 to 8, not \"9\""),
    (["simulate", "--players", "1"], "banker simulate: --players: must be a whole number from 2 to 8, not \"1\""),
    (["simulate", "--seed", "-1"], "banker simulate: --seed: must be a whole number from 0 to 9007199254740991, "
                                   "not \"-1\""),
    (["simulate", "--seed", "9007199254740992"], "banker simulate: --seed: must be a whole number from 0 to "
                                                 "9007199254740991, not \"9007199254740992\""),
    (["simulate", "--max-turns", "1e3"], "banker simulate: --max-turns: must be a whole number from 1 to 1000000, "
                                         "not \"1e3\""),
    (["simulate", "--max-turns", "0"], "banker simulate: --max-turns: must be a whole number from 1 to 1000000, "
                                       "not \"0\""),
    # undo --steps keeps its own refusal of a count below 1 (tests/test_journal.py).
    (["undo", "--steps", "0"], "banker undo: --steps must be at least 1, not 0; nothing was undone"),
    (["undo", "--steps", "-1"], "banker undo: --steps must be at least 1, not -1; nothing was undone"),
    (["undo", "--steps", "9007199254740992"], "banker undo: --steps must be at most 9007199254740991, "
                                              "not 9007199254740992; nothing was undone"),
    (["undo", "--steps", "two"], "banker undo: --steps: must be a whole number, not \"two\""),
    (["undo", "--steps", "1" * 31], f"banker undo: --steps: must be a whole number, not \"{'1' * 31}\""),
    *[([command, "--game", value], f"banker {command}: --game: must be a whole number from 1 to 9223372036854775807, "
                                   f"not \"{value}\"")
      for command in ("export", "state", "undo", "finish", "delete")
      for value in ("0", "x", "9223372036854775808")],
    (["simulate", "--games"], "banker simulate: --games: expected one argument"),
    *[(["app", "--size", value], f"banker app: --size must be at most 16384x16384, not {value!r}")
      for value in ("16385x480", "800x99999999")],
    *[(["app", "--size", value], f"banker app: --size must look like 800x480, not {value!r}")
      for value in ("800", "800x480x2", "axb", "800.5x480", "800x\u0664\u0668\u0660")],
    (["app", "--size", "9" * 5000 + "x1"], f"banker app: --size must look like 800x480, not '{'9' * 37}...'"),
    (["app", "--size", "0x480"], "banker app: --size must be at least 1x1, not '0x480'"),
]


@pytest.mark.parametrize("argv, line", BAD_NUMBERS)
def test_a_bad_number_is_refused_on_one_line(argv: list[str], line: str, capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    from banker.cli import main

    try:
        status = main([*argv, *(["--yes"] if argv[0] == "delete" else [])])  # banker app returns its 2
    except SystemExit as exc:  # argparse's refusal
        status = exc.code
    assert status == 2
    out = capsys.readouterr()
    assert out.err == line + "\n" and out.out == ""


def test_bad_numbers_from_the_real_command_line_have_no_traceback(tmp_path: Path) -> None:
    """The same through `python -m banker`: one line on stderr, nothing on stdout, no journal made."""
    db = tmp_path / "games.sqlite3"
    for argv in (["simulate", "--games", "nan"], ["simulate", "--seed", "1" * 200],
                 ["undo", str(db), "--steps", "-3"], ["state", str(db), "--game", "99999999999999999999999"]):
        out = banker(*argv)
        assert out.returncode == 2 and out.stdout == "", (argv, out)
        [line] = out.stderr.splitlines()
        assert line.startswith(f"banker {argv[0]}: --") and "Traceback" not in out.stderr
    assert not db.exists()


def test_the_bounds_are_in_the_help() -> None:
    out = banker("simulate", "--help")
    assert out.returncode == 0
    text = " ".join(out.stdout.split())
    for words in ("1 to 1000000 (default 10)", "2 to 8", "0 to 9007199254740991", "this many turns, 1 to 1000000"):
        assert words in text, words


def test_good_numbers_at_the_bounds_still_work(tmp_path: Path) -> None:
    out = banker("simulate", "--games", "1", "--players", "2", "--seed", "9007199254740991", "--max-turns", "1",
                 "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["games"] == 1
