"""A journal that loads, loads whole: damaged pages are refused in one sentence, never a shorter game.

A journal with several games (two of them hundreds of actions long) is damaged the ways a disk or a
careless copy damages a file: two database pages swapped, a page zeroed (dropped), one page copied over
another (duplicated), the file cut short. Every open, `games`, `state` (load) and `export` of the copy then
either refuses with JournalError's one sentence or gives exactly the full game: the same number of actions,
the same state and the same exported script. Before each game row kept its action count and running hash,
a copied page could make a game load with fewer actions and no error (issue 17).

tests/fuzz/journal/cases.json is the seed corpus: one case of each class, each with the refusal it must
get, run through the real `banker` command line. The seeded fuzzer runs DEFAULT_CASES random damages by
default, each through the journal's API and `banker games`, `state` and `export` (their `main()`,
in-process, under a 60-second alarm); BANKER_FUZZ_CASES=20000 runs more (BANKER_FUZZ_SEED picks another
seed).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from banker.journal import Journal, JournalError
from banker.report import family_stats

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).parent / "fuzz" / "journal" / "cases.json"
DEFAULT_CASES = 200
OPS = ("swap", "zero", "dup", "truncate")


@dataclass
class Original:
    """What the undamaged journal holds, game by game."""

    path: Path
    data: bytes
    page_size: int
    games: dict[int, tuple[int, dict, list[str]]]  # id -> (action count, state, exported lines)
    stats: dict  # `banker stats` of the whole journal


def build(path: Path) -> Original:
    """Four games: two played to the end (hundreds of actions, their summaries stored), one with undos, one
    short; WAL folded in."""
    from banker.ruleset import load_ruleset
    from banker.simulate import play_game

    classic = load_ruleset("classic")
    games: dict[int, tuple[int, dict, list[str]]] = {}
    with Journal(path) as j:
        for seed, keep, undos in ((3, None, 0), (5, 40, 3), (7, None, 0), (9, 12, 0)):
            game, head, _ = play_game("classic", classic, 4, seed)
            live = j.start(head)
            for action in game.script if keep is None else game.script[:keep]:
                live.apply(action)
            if undos:
                live.undo(undos)
            games[live.id] = (len(live.game.script), live.game.to_json(), j.export(live.id))
        stats = family_stats(j)
        j.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = path.read_bytes()
    size = int.from_bytes(data[16:18], "big")
    return Original(path, data, 65536 if size == 1 else size, games, stats)


@pytest.fixture(scope="module")
def original(tmp_path_factory: pytest.TempPathFactory) -> Original:
    return build(tmp_path_factory.mktemp("journal") / "games.sqlite3")


def damage(original: Original, op: str, a: int, b: int) -> bytes:
    """The journal's bytes with pages a and b swapped, page a zeroed, page a copied over page b, or cut at a."""
    data, ps = original.data, original.page_size
    pages = len(data) // ps
    out = bytearray(data)
    if op == "truncate":
        return bytes(out[:a])
    a, b = a % pages, b % pages
    page_a, page_b = data[a * ps:(a + 1) * ps], data[b * ps:(b + 1) * ps]
    if op == "swap":
        out[a * ps:(a + 1) * ps], out[b * ps:(b + 1) * ps] = page_b, page_a
    elif op == "zero":
        out[a * ps:(a + 1) * ps] = bytes(ps)
    elif op == "dup":
        out[b * ps:(b + 1) * ps] = page_a
    else:
        raise ValueError(f"unknown damage {op!r}")
    return bytes(out)


def one_sentence(message: str) -> None:
    assert "\n" not in message and message.endswith("."), message
    assert message.count(". ") == 0, message
    assert "Traceback" not in message


def check_copy(original: Original, path: Path) -> list[str]:
    """Every read of the damaged copy refuses in one sentence or gives the whole game; returns the refusals."""
    before = path.read_bytes()
    refusals: list[str] = []
    try:
        journal = Journal(path, create=False, write=False)
    except JournalError as exc:
        one_sentence(str(exc))
        assert path.read_bytes() == before, "a reading open wrote to the file"
        return [str(exc)]
    with journal:
        try:
            infos = journal.games(replay=True)
        except JournalError as exc:
            one_sentence(str(exc))
            refusals.append(str(exc))
            infos = []
        for info in infos:
            if info.damage is not None:
                assert info.actions is None, "a count for a game that does not load"
                one_sentence(info.damage)
            else:
                assert info.id in original.games and info.actions == original.games[info.id][0], \
                    f"games lists game {info.id} with {info.actions} actions"
        for game_id, (count, state, lines) in original.games.items():
            try:
                live = journal.load(game_id)
            except JournalError as exc:
                one_sentence(str(exc))
                refusals.append(str(exc))
                listed = [i for i in infos if i.id == game_id]
                assert not listed or listed[0].damage == str(exc), "games and state disagree about a game"
            else:
                assert len(live.game.script) == count, f"game {game_id} loaded {len(live.game.script)} of {count}"
                assert live.game.to_json() == state
            try:
                exported = journal.export(game_id)
            except JournalError as exc:
                one_sentence(str(exc))
                refusals.append(str(exc))
            else:
                assert exported == lines, f"game {game_id} exported differently"
    assert path.read_bytes() == before, "reading the journal wrote to it"
    return refusals


def run_main(*args: str) -> tuple[int, str, str]:
    """`banker ARGS` in-process (the same `main()` as the command line), with a generous alarm: a hang fails."""
    import contextlib
    import io
    import signal

    from banker.cli import main

    def hung(signum: int, frame: object) -> None:
        raise AssertionError(f"banker {' '.join(args)} hung")

    out, err = io.StringIO(), io.StringIO()
    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(60)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(list(args))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert status in (0, 1, 2), status
    assert "Traceback" not in out.getvalue() + err.getvalue()
    if status != 0:
        assert out.getvalue() == ""
        one_sentence(err.getvalue().strip())
    return status, out.getvalue(), err.getvalue().strip()


def check_commands(original: Original, path: Path) -> None:
    """`banker games`, `state` and `export` of the damaged copy: a refusal, or exactly the original game;
    `banker stats`: a refusal, or the original history when no game is listed damaged (a damaged game is never
    counted as something else), every damaged game's reason in one sentence."""
    status, out, _ = run_main("stats", str(path), "--json")
    if status == 0:
        stats = json.loads(out)
        for entry in stats["damaged"]:
            one_sentence(entry["reason"])
        if not stats["damaged"]:
            assert stats == original.stats, "stats of a copy that shows no damage differ"
        assert stats["games"] <= original.stats["games"]
    status, out, _ = run_main("games", str(path), "--json")
    listed = {g["id"]: g for g in json.loads(out)} if status == 0 else {}
    for game_id, (count, state, lines) in original.games.items():
        status, out, err = run_main("state", str(path), "--game", str(game_id), "--json")
        if status == 0:
            assert json.loads(out) == state, f"state of game {game_id} differs"
            assert listed[game_id]["actions"] == count
        elif game_id in listed:
            assert listed[game_id]["actions"] is None and listed[game_id]["damaged"] == err
        status, out, err = run_main("export", str(path), "--game", str(game_id))
        if status == 0:
            assert out.splitlines() == lines, f"export of game {game_id} differs"


def test_fuzz_damaged_pages_never_load_a_shorter_game(original: Original, tmp_path: Path) -> None:
    cases = int(os.environ.get("BANKER_FUZZ_CASES", DEFAULT_CASES))
    rng = random.Random(int(os.environ.get("BANKER_FUZZ_SEED", 17)))
    pages = len(original.data) // original.page_size
    refused = whole = 0
    for k in range(cases):
        op = OPS[k % len(OPS)]
        if op == "truncate":
            a, b = rng.randrange(len(original.data)), 0
        else:
            a, b = rng.randrange(pages), rng.randrange(pages)
        path = tmp_path / f"case{k}.sqlite3"  # a fresh name: no log file of an earlier case beside it
        path.write_bytes(damage(original, op, a, b))
        try:
            if check_copy(original, path):
                refused += 1
            else:
                whole += 1
            check_commands(original, path)
        except AssertionError as exc:
            raise AssertionError(f"case {k}: {op} {a} {b}: {exc}") from None
        for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            assert leftover == path or not leftover.exists(), f"reading left {leftover.name} behind"
        path.unlink()
    print(f"{cases} damaged copies: {refused} refused, {whole} loaded whole")
    assert refused > cases // 2  # the damage is real: most copies must be refused


def load_corpus() -> list[dict]:
    return json.loads(CORPUS.read_text("utf-8"))


def banker(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "banker", *args], capture_output=True, text=True, cwd=ROOT,
                          env=dict(os.environ), timeout=120)


def test_corpus_holds_every_class() -> None:
    assert {case["op"] for case in load_corpus()} == set(OPS)


@pytest.mark.parametrize("case", load_corpus(), ids=lambda case: case["name"])
def test_corpus_case_is_refused_for_its_own_reason(original: Original, tmp_path: Path, case: dict) -> None:
    """Each corpus case through the real command line: `state` and `export` of the game it damages refuse
    with the case's own reason, `games` marks that game damaged in the same words, and nothing is written."""
    path = tmp_path / "damaged.sqlite3"
    data = damage(original, case["op"], case["a"], case["b"])
    path.write_bytes(data)
    refusals = check_copy(original, path)
    assert any(case["reason"] in r for r in refusals), refusals
    game = str(case["game"])
    for command in (["state", str(path), "--game", game, "--json"], ["export", str(path), "--game", game]):
        out = banker(*command)
        assert out.returncode == 2 and "Traceback" not in out.stderr + out.stdout, out.stderr
        assert out.stdout == "" and case["reason"] in out.stderr, out.stderr
        one_sentence(out.stderr.strip())
    listed = banker("games", str(path), "--json")
    assert "Traceback" not in listed.stderr
    if listed.returncode == 0:
        infos = {g["id"]: g for g in json.loads(listed.stdout)}
        state = banker("state", str(path), "--game", game)
        assert infos[case["game"]]["actions"] is None
        assert infos[case["game"]]["damaged"] == state.stderr.strip()
    else:
        assert listed.returncode == 2 and case["reason"] in listed.stderr
    assert path.read_bytes() == data, "a reading command wrote to the journal"


def test_a_duplicated_page_was_a_shorter_game(original: Original, tmp_path: Path) -> None:
    """The corpus's page copies did load a shorter game without the action count and running hash: prove
    it by loading them with those two checks blinded (the count and hash rewritten to what is there)."""
    import sqlite3

    from banker import journal as module

    shorter = 0
    for case in load_corpus():
        if case.get("was_shorter"):
            path = tmp_path / f"{case['name']}.sqlite3"
            path.write_bytes(damage(original, case["op"], case["a"], case["b"]))
            with sqlite3.connect(path) as db:
                game_id = case["game"]
                rows = db.execute("SELECT seq, action, version FROM actions WHERE game = ? ORDER BY seq",
                                  (game_id,)).fetchall()
                digest = module._chain_start(game_id)
                for seq, text, version in rows:
                    digest = module._chain(digest, seq, version, text)
                db.execute("UPDATE games SET action_count = ?, action_hash = ? WHERE id = ?",
                           (len(rows), digest, game_id))
            with Journal(path, create=False) as j:
                loaded = len(j.load(game_id).game.script)
            assert loaded < original.games[game_id][0]
            shorter += 1
    assert shorter >= 1
