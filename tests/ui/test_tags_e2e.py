"""Issue 57's end-to-end game: tests/ui/e2e_tags.py in the real app, once with the cards tagged and the deeds
and a Chance card tapped on the reader, once by the on-screen lists, in a language at a panel size; both must
pass every step and end in the same game (cash, places, owners, buildings, mortgages, jail, whose turn) by
the same actions in the journal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def play(mode: str, language: str, size: str, work: Path) -> dict[str, Any]:
    env = {**os.environ, "E2E_SIZE": size,
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "tests" / "ui"), str(ROOT / "tests"),
                                                       os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "ui" / "e2e_tags.py"), mode, language, str(work)],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "steps passed" in done.stdout
    saved: dict[str, Any] = json.loads((work / "state.json").read_text("utf-8"))
    return saved


@pytest.mark.parametrize("language, size", [("en", "800x480"), ("pl", "1024x600"), ("cs", "1280x720")])
def test_a_game_by_tapped_deeds_and_cards_ends_as_the_same_game_by_the_lists(tmp_path: Path, language: str,
                                                                             size: str) -> None:
    tapped = play("tags", language, size, tmp_path / "tags")
    listed = play("lists", language, size, tmp_path / "lists")
    assert tapped["state"] == listed["state"]
    assert tapped["actions"] == listed["actions"]
    verbs = [a["do"] for a in tapped["actions"]]
    assert verbs == ["roll", "buy", "build", "mortgage", "trade", "end_turn", "roll", "draw", "end_turn"]
    assert json.loads((tmp_path / "tags" / "tags.json").read_text("utf-8"))["sets"]["classic"]
    assert not (tmp_path / "lists" / "tags.json").exists()
