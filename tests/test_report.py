"""`banker report` and `banker stats`: a game's report and the family's history, from the journal.

The money identity (cash at the end = cash at the start + everything received - everything paid) is checked
for every player of simulated games of every ruleset, imported into a real SQLite journal, and against the
cash `banker state` shows."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from banker.journal import Journal, _summary_checksum
from banker.report import family_stats, journal_report
from banker.ruleset import builtin_names, load_ruleset
from banker.script import Header
from banker.simulate import play_game

ROOT = Path(__file__).resolve().parent.parent


def imported(journal: Journal, rules: str, seed: int, players: int = 3, max_turns: int = 1000,
             options: dict[str, Any] | None = None) -> int:
    """A simulated game of `rules`, written into the journal at once (as `banker import` does)."""
    game, header, _ = play_game(rules, load_ruleset(rules), players, seed, max_turns=max_turns, checked=True,
                                options=options)
    with journal.batch():
        live = journal.start(header)
        journal.append_many(live.id, 0, game.script, "finished" if game.ended else None)
    return live.id


def banker(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "banker", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


def identity_holds(report: dict[str, Any], state: dict[str, Any]) -> None:
    cash = {p["name"]: p["cash"] for p in state["players"]}
    for p in report["players"]:
        assert p["cash_end"] == p["cash_start"] + sum(p["received"].values()) - sum(p["paid"].values()), p["name"]
        assert p["cash_end"] == cash[p["name"]], p["name"]


@pytest.mark.parametrize("rules", builtin_names())
def test_every_players_money_adds_up_in_every_ruleset(tmp_path: Path, rules: str) -> None:
    ruleset = load_ruleset(rules)
    players = ruleset.players_min if ruleset.players_min == ruleset.players_max else 3
    with Journal(tmp_path / "j.db") as journal:
        for seed in range(3):
            game_id = imported(journal, rules, seed, players, max_turns=150,
                               options={"snake_eyes_bonus": 100} if seed == 1 else None)
            report = journal_report(journal, game_id)
            state = journal.load(game_id).game.to_json()
            identity_holds(report, state)
            assert report["game"] == game_id and report["rules"] == ruleset.name
            assert report["status"] == "finished" and report["winner"] == state["winner"]
            game = journal.load(game_id).game
            clocked = game.variant.clocked or bool(game.options.time_limit)
            # imported at once: no span of play; a game on the clock has its own minutes
            assert (report["minutes"] is not None) is clocked
            assert [p["name"] for p in report["players"]] == [p["name"] for p in state["players"]]
            ranks = sorted(p["rank"] for p in report["players"])
            assert ranks[0] == 1
            for p in report["players"]:
                payments = [entry.amount for entry in game.money_log() if entry.payer == p["name"]]
                if p["biggest_payment"] is None:
                    assert not payments
                else:
                    b = p["biggest_payment"]
                    assert set(b) == {"amount", "to", "kind", "turn"} and 1 <= b["turn"] <= report["turns"]
                    assert b["amount"] == max(payments)
                if p["best_property"] is not None:
                    assert p["best_property"]["rent"] <= p["received"]["rent"]


def test_a_debt_paid_later_counts_as_what_was_owed(tmp_path: Path) -> None:
    # Ben, with 10, lands on Ann's Boardwalk with a hotel (rent 2000): a debt; he mortgages and pays it.
    header = Header(rules="classic", players=["Ann", "Ben"], options={}, setup={
        "players": {"Ann": {"position": 0}, "Ben": {"cash": 10, "position": 35}},
        "spaces": {"37": {"owner": "Ann", "hotel": True}, "39": {"owner": "Ann", "hotel": True},
                   "1": {"owner": "Ben"}, "3": {"owner": "Ben"}, "5": {"owner": "Ben"}, "15": {"owner": "Ben"},
                   "25": {"owner": "Ben"}, "35": {"owner": "Ben"}, "12": {"owner": "Ben"}, "28": {"owner": "Ben"},
                   "6": {"owner": "Ben"}, "8": {"owner": "Ben"}, "9": {"owner": "Ben"}, "11": {"owner": "Ben"},
                   "13": {"owner": "Ben"}, "14": {"owner": "Ben"}, "16": {"owner": "Ben"}, "18": {"owner": "Ben"},
                   "19": {"owner": "Ben"}, "21": {"owner": "Ben"}, "23": {"owner": "Ben"}, "24": {"owner": "Ben"},
                   "26": {"owner": "Ben"}, "27": {"owner": "Ben"}, "29": {"owner": "Ben"}}})
    with Journal(tmp_path / "j.db") as journal:
        live = journal.start(header)
        live.apply({"do": "roll", "dice": [1, 2]})  # Ann: 0 -> 3, Baltic Avenue, Ben's: 4, doubled (the pair) 8
        live.apply({"do": "end_turn"})
        live.apply({"do": "roll", "dice": [1, 3]})  # Ben: 35 -> 39, Boardwalk with a hotel: 2000 owed
        assert live.game.players[1].debts
        for space in (1, 3, 5, 15, 25, 35, 12, 28, 6, 8, 9, 11, 13, 14, 16, 18, 19, 21, 23, 24, 26, 27, 29):
            if not live.game.players[1].debts:
                break
            live.apply({"do": "mortgage", "player": "Ben", "space": space})
        assert not live.game.players[1].debts
        report = journal_report(journal, live.id)
        identity_holds(report, live.game.to_json())
        ann, ben = report["players"]
        assert ben["paid"]["rent"] == 2000 and "debt_paid" not in ben["paid"]
        assert ann["received"]["rent"] == 2000 and ann["best_property"] == {"space": "Boardwalk", "rent": 2000}
        assert ann["paid"]["rent"] == ben["received"]["rent"] == 8
        assert ben["biggest_payment"] == {"amount": 2000, "to": "Ann", "kind": "rent", "turn": 2}
        assert report["status"] == "active" and report["winner"] is None and report["turns"] == 2
        assert report["minutes"] is not None  # played action by action: the span of its time stamps


def test_stats_count_finished_games_only_by_name_without_case(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    with Journal(path) as journal:
        finished = [imported(journal, "classic", seed, 2) for seed in range(4)]
        going = journal.start(Header(rules="classic", players=["Ann", "Ben"], seed=1, options={}))
        going.apply({"do": "roll", "dice": [1, 2]})
        renamed = journal.start(Header(rules="brands", players=[" ann ", "BEN"], seed=2, options={}))
        renamed.apply({"do": "end_game"})  # `banker finish`: the richest wins (equal: both share the win)
        stats = family_stats(journal)
        assert stats["games"] == 5 and stats["rulesets"] == {"brands": 1, "classic": 4}
        people = {p["name"].casefold(): p for p in stats["players"]}
        assert set(people) == {"ann", "ben"} and people["ann"]["games"] == 5 and people["ben"]["games"] == 5
        wins = {name: 0 for name in ("Ann", "Ben")}
        for game_id in finished:
            winner = journal.load(game_id).game.to_json()["winner"]
            for name in winner if isinstance(winner, list) else [winner]:
                wins[name] += 1
        assert renamed.game.outcome is not None and set(renamed.game.outcome.winners) == {" ann ", "BEN"}
        assert people["ann"]["wins"] == wins["Ann"] + 1 and people["ben"]["wins"] == wins["Ben"] + 1
        assert people["ann"]["win_rate"] == round(people["ann"]["wins"] / 5, 3)
        longest, shortest = stats["longest_game"], stats["shortest_game"]
        assert longest["turns"] >= shortest["turns"] and set(longest) == {"game", "turns", "minutes"}
        rents = sum(journal_report(journal, g)["players"][0]["received"].get("rent", 0) for g in finished)
        assert people["ann"]["rent_collected"] == rents
        # Undone after its end, a game leaves the history until it ends again.
        live = journal.load(finished[0])
        live.undo(1)
        assert family_stats(journal)["games"] == 4
        # A damaged game is listed with its reason and never counted.
        journal.db.execute("UPDATE actions SET action = '{}' WHERE game = ? AND seq = 0", (finished[1],))
        journal.db.commit()
        stats = family_stats(journal)
        assert stats["games"] == 3 and [d["game"] for d in stats["damaged"]] == [finished[1]]


def test_the_commands_print_json_and_pick_the_game_state_picks(tmp_path: Path) -> None:
    db = tmp_path / "j.db"
    with Journal(db) as journal:
        first = imported(journal, "classic", 3, 2)
        going = journal.start(Header(rules="classic", players=["Ann", "Ben"], seed=1, options={}))
        going.apply({"do": "roll", "dice": [1, 2]})
    report = banker("report", str(db), "--json")
    assert report.returncode == 0, report.stderr
    found = json.loads(report.stdout)
    state = json.loads(banker("state", str(db), "--json").stdout)
    assert found["game"] == going.id and found["status"] == "active"
    identity_holds(found, state)
    assert set(found) == {"game", "rules", "status", "turns", "minutes", "winner", "players"}
    assert set(found["players"][0]) == {"name", "rank", "cash_start", "cash_end", "net_worth", "received", "paid",
                                        "best_property", "biggest_payment"}
    text = banker("report", str(db), "--game", str(first))
    assert text.returncode == 0 and f"game {first} (classic, finished)" in text.stdout
    stats = banker("stats", str(db), "--json")
    assert stats.returncode == 0, stats.stderr
    assert set(json.loads(stats.stdout)) >= {"games", "rulesets", "longest_game", "shortest_game", "players"}
    missing = banker("report", str(db), "--game", "99")
    assert missing.returncode == 2 and "no game 99" in missing.stderr.lower()


# ---------------------------------------------------------------------------------------------------------------
# Stored summaries: the history of many games read, not replayed

FIXTURES = Path(__file__).parent / "fixtures"


def played_live(journal: Journal, rules: str, seed: int, players: int = 3, max_turns: int = 60) -> int:
    """A simulated game applied action by action, as the app and `banker import` do: it stores its summary."""
    game, header, _ = play_game(rules, load_ruleset(rules), players, seed, max_turns=max_turns, checked=True)
    live = journal.start(header)
    for action in game.script:
        live.apply(action)
    assert live.status == "finished"
    return live.id


def no_loads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every `Journal.load` from now on is counted (and still carried out)."""
    loads: list[int] = []
    real = Journal.load

    def counted(self: Journal, game_id: int) -> Any:
        loads.append(game_id)
        return real(self, game_id)

    monkeypatch.setattr(Journal, "load", counted)
    return loads


def stats_in_memory(path: Path) -> dict[str, Any]:
    """The history of a copy of the journal with every stored summary dropped: each game replayed."""
    copy = path.with_name("copy.db")
    with Journal(path) as journal:
        journal.db.execute("VACUUM INTO ?", (str(copy),))
    with Journal(copy) as journal:
        journal.db.execute("DELETE FROM summaries")
        assert journal.missing_summaries()
        stats = family_stats(journal)
    copy.unlink()
    return stats


def test_a_game_that_ends_stores_its_summary_and_stats_read_it_without_a_replay(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "j.db"
    with Journal(path) as journal:
        ids = [played_live(journal, rules, seed) for seed, rules in enumerate(("classic", "brands", "biznes"))]
        going = journal.start(Header(rules="classic", players=["Ann", "Ben"], seed=1, options={}))
        going.apply({"do": "roll", "dice": [1, 2]})
        assert journal.missing_summaries() == []
        stored = dict(journal.db.execute("SELECT game, summary FROM summaries").fetchall())
        assert sorted(stored) == ids  # the finished ones, not the one still going
        assert json.loads(stored[ids[1]])["rules"] == "brands"
    expected = stats_in_memory(path)
    assert expected["games"] == 3
    loads = no_loads(monkeypatch)
    with Journal(path, create=False, write=False) as journal:
        assert family_stats(journal) == expected
    assert loads == []  # read from the summaries: not one game replayed


def test_undone_after_its_end_a_game_drops_its_summary_until_it_ends_again(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.db") as journal:
        game_id = played_live(journal, "classic", 4)
        live = journal.load(game_id)
        live.undo(1)
        assert journal.db.execute("SELECT COUNT(*) FROM summaries").fetchone()[0] == 0
        assert family_stats(journal)["games"] == 0
        live.apply({"do": "end_game"})
        assert journal.db.execute("SELECT game FROM summaries").fetchall() == [(game_id,)]
        assert family_stats(journal)["games"] == 1 and journal.missing_summaries() == []


def test_a_summary_that_disagrees_with_its_game_is_never_trusted(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "j.db"
    with Journal(path) as journal:
        first, second, third = (played_live(journal, "classic", seed) for seed in (5, 6, 7))
    expected = stats_in_memory(path)
    with Journal(path) as journal:
        # A summary edited by hand (its checksum no longer fits): the game is summarised again from its rows.
        text = journal.db.execute("SELECT summary FROM summaries WHERE game = ?", (first,)).fetchone()[0]
        forged = json.loads(text)
        forged["players"][0]["rent"] += 1000
        journal.db.execute("UPDATE summaries SET summary = ? WHERE game = ?", (json.dumps(forged), first))
        # An action row changed under a summary that is itself intact: the game is damaged, and listed so.
        journal.db.execute("UPDATE actions SET action = action || ' ' WHERE game = ? AND seq = 3", (second,))
        # A summary of another format (its checksum made to fit): made again.
        text, count, digest, crc = journal.db.execute("SELECT summary, action_count, action_hash, actions_crc "
                                                      "FROM summaries WHERE game = ?", (third,)).fetchone()
        other = json.dumps({**json.loads(text), "version": 99})
        journal.db.execute("UPDATE summaries SET summary = ?, checksum = ? WHERE game = ?",
                           (other, _summary_checksum(third, count, digest, crc, other), third))
        assert journal.missing_summaries() == [first, second, third]  # the changed rows: found when loaded
        assert journal.fill_summaries() == 2  # the damaged game is left without one
        loads = no_loads(monkeypatch)
        stats = family_stats(journal)
        assert loads == [second]  # the others' summaries made again by the fill
        assert [d["game"] for d in stats["damaged"]] == [second]
        assert f"Action 3 of game {second}" in stats["damaged"][0]["reason"]
        assert stats["games"] == 2
    by_name = {p["name"]: p for p in expected["players"]}
    again = {p["name"]: p for p in stats["players"]}
    assert set(again) == set(by_name) and all(again[n]["games"] == 2 for n in again)


def test_the_actions_are_read_in_their_order_in_one_pass(tmp_path: Path) -> None:
    """The CRC a summary keeps is taken over the rows joined in (game, seq) order: SQLite walks the table's
    primary key for it, with no sort of its own that could reorder the rows of a game."""
    from banker.journal import _ROWS_AT_ONCE

    with Journal(tmp_path / "j.db") as journal:
        plan = " ".join(str(row[-1]) for row in journal.db.execute("EXPLAIN QUERY PLAN "
                                                                   + _ROWS_AT_ONCE.format(where="")))
        assert "TEMP B-TREE" not in plan.upper(), plan
        plan = " ".join(str(row[-1]) for row in journal.db.execute(
            "EXPLAIN QUERY PLAN " + _ROWS_AT_ONCE.format(where="WHERE game = ?"), (1,)))
        assert "TEMP B-TREE" not in plan.upper(), plan


def test_a_schema_2_journal_gets_its_summaries_and_keeps_its_history(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """tests/fixtures/journal-v2.sqlite3 was written before summaries (make_journal_v2_fixture.py). Read only,
    its history is worked out in memory and the file is untouched; opened for writing, it is upgraded and its
    finished games (the abandoned one too) get their summaries, and the history stays what it was."""
    import shutil

    path = tmp_path / "old.db"
    shutil.copy(FIXTURES / "journal-v2.sqlite3", path)
    expected = json.loads((FIXTURES / "journal-v2.stats.json").read_text("utf-8"))
    before = path.read_bytes()
    out = banker("stats", str(path), "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == expected
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["old.db"]
    with Journal(path) as journal:
        assert journal.missing_summaries() == [1, 2, 3, 5, 7]  # 4 and 6 are going; 5 was abandoned
        assert journal.fill_summaries(stop=lambda: False) == 5
        assert journal.missing_summaries() == []
        abandoned = journal.db.execute("SELECT summary FROM summaries WHERE game = 5").fetchone()[0]
        assert json.loads(abandoned)["ended"] is False
    loads = no_loads(monkeypatch)
    with Journal(path, create=False, write=False) as journal:
        assert family_stats(journal) == expected
    assert loads == []


def test_filling_stops_when_asked_and_leaves_a_game_played_on_since(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "j.db"
    with Journal(path) as journal:
        ids = [imported(journal, "classic", seed, 2, max_turns=40) for seed in range(3)]  # no summaries
        assert journal.missing_summaries() == ids
        asked = iter([False, True])
        assert journal.fill_summaries(stop=lambda: next(asked)) == 1
        assert journal.missing_summaries() == ids[1:]
        # The game is undone (by the app, on another connection) between its load and its summary's store.
        real = Journal.load

        def undone_meanwhile(self: Journal, game_id: int) -> Any:
            loaded = real(self, game_id)
            with Journal(path) as other:
                real(other, game_id).undo(1)
            return loaded

        monkeypatch.setattr(Journal, "load", undone_meanwhile)
        assert journal.fill_summaries() == 0
        monkeypatch.undo()
        assert journal.missing_summaries() == []  # both undone: going again, no longer finished
        assert journal.db.execute("SELECT COUNT(*) FROM summaries").fetchone()[0] == 1
