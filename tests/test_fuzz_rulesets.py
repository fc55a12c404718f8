"""Damaged ruleset files are refused with the file, the key and the problem; accepted ones play (issue 17).

Two parts:

- The seed corpus (tests/fuzz/rulesets/ and a few cases made here: a FIFO, /dev/zero, a folder, a
  missing file, a file too large): one case of every class of bad ruleset input, each run through the
  real `banker rules`, `banker simulate` and `banker replay` command lines and checked for its OWN reason.
- The fuzzer: the shipped rulesets (banker/rulesets/*.toml) damaged in many seeded ways, each loaded; a
  refusal must name the file, an accepted file must survive `banker rules` and `banker simulate --games 2`
  (in-process `main()`, the same code as the command line) with exit 0. A hang is a failure.

`BANKER_FUZZ_CASES` sets how many fuzz cases run (default 300, about twenty seconds here) and
`BANKER_FUZZ_SEED` the seed (default 17): `BANKER_FUZZ_CASES=20000 pytest tests/test_fuzz_rulesets.py`.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import math
import os
import random
import re
import subprocess
import sys
import tomllib
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from banker.cli import main
from banker.errors import RulesetError
from banker.mechanics import families
from banker.ruleset import MAX_FILE_BYTES, MAX_NESTING, MAX_WHOLE_NUMBER, OPTION_DEFAULTS, OPTION_RANGES, load_ruleset
from fuzzkit import Hang, time_limit

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "fuzz" / "rulesets"
SHIPPED = sorted((ROOT / "banker" / "rulesets").glob("*.toml"))
CASES = int(os.environ.get("BANKER_FUZZ_CASES", "300"))
SEED = int(os.environ.get("BANKER_FUZZ_SEED", "17"))
TIMEOUT = 60  # seconds for one command: a hang is a failure

# Each stored case and a fragment of its own reason.
STORED: list[tuple[str, str]] = [
    ("not-utf8.toml", "not UTF-8 text (byte 0xe9 at offset 31)"),
    ("deep-brackets.toml", f"line 2: nested more than {MAX_NESTING} levels deep"),
    ("deep-brackets.json", f"line 1: nested more than {MAX_NESTING} levels deep"),
    ("deep-dotted.toml", f"line 2: a dotted key of more than {MAX_NESTING} parts"),
    ("long-number.json", "line 1: a number written with more than 18 digits"),
    ("long-number.toml", "line 3: a number written with more than 18 digits"),
    ("huge-number.toml", f"options.start_cash: must be within -{MAX_WHOLE_NUMBER} to {MAX_WHOLE_NUMBER}"),
    ("option-too-large.toml", "options.doubles_to_jail: must be at most 100, not 1000"),
    ("option-negative.toml", "options.salary: must not be negative, not -200"),
    ("option-float.toml", "options.start_cash: must be a whole number, not 1500.5"),
    ("option-nan.toml", "options.start_cash: must be a whole number, not nan"),
    ("option-inf.toml", "options.jail_fine: must be a whole number, not inf"),
    ("option-wrong-type.toml", "options.teams: must be true or false, not 'yes'"),
    ("surrogate-text.json", "title: not valid text (a lone surrogate)"),
    ("surrogate-key.json", "options: a key is not valid text"),
    ("deal-too-many-deeds.toml", "options.deal_deeds: 4 deeds to each of up to 8 players need 32, "
                                 "but the board has 28 title deeds (at most 3 each)"),
    ("speed-die-one-die.toml", "options.speed_die_round: the speed die is rolled beside two dice: "
                               "it needs dice = 2, not 1"),
    ("speed-die-three-dice.toml", "options.speed_die_round: the speed die is rolled beside two dice: "
                                  "it needs dice = 2, not 3"),
    ("broken-syntax.toml", "not valid TOML: Expected ']' at the end of a table declaration"),
    ("duplicate-key.toml", "not valid TOML: Cannot overwrite a value"),
    ("truncated.toml", "not valid TOML: Unterminated string"),
    ("broken.json", "not valid JSON"),
    ("top-level-list.json", "the top level must be a table of keys"),
    ("unknown-mechanic.toml", "mechanics.dice_style: unknown mechanic"),
    ("unknown-variant.toml", "mechanics.auction: must be one of open, stepped, in_turn, not 'silent'"),
    ("empty-name.toml", "name: must not be empty"),
]

# Game scripts whose header options the board cannot satisfy: game setup refuses them on line 1.
HEADERS: list[tuple[str, str]] = [
    ("header-deal-too-many-deeds.jsonl", "line 1: option 'deal_deeds': 15 deeds to each of 2 players need 30, "
                                         "but the board has 28 title deeds (at most 14 each)"),
    ("header-speed-die-one-die.jsonl", "line 1: option 'speed_die_round': the speed die is rolled beside two dice"),
    ("header-option-too-large.jsonl", "line 1: option 'houses': must be at most 10000, not 1000000"),
]


def made_cases(folder: Path) -> list[tuple[str, str]]:
    """The cases that are no stored file: a FIFO, a device, a folder, a missing file, a file too large."""
    fifo = folder / "pipe.toml"
    os.mkfifo(fifo)
    big = folder / "big.toml"
    big.write_text('extends = "classic"\n' + "# padding\n" * (MAX_FILE_BYTES // 10 + 1), "utf-8")
    (folder / "folder.toml").mkdir()
    dotted = folder / "dotted.toml"  # tomllib took more than ten minutes over this key (3 s over 20,000 parts)
    dotted.write_text('extends = "classic"\n# a key of 100,000 parts\n' + ".".join(["a"] * 100_000) + " = 1\n", "utf-8")
    return [
        (str(fifo), "is a FIFO (a named pipe), not a regular file"),
        ("/dev/zero", "is a character device, not a regular file"),
        (str(folder / "folder.toml"), "is a folder, not a regular file"),
        (str(folder / "missing.toml"), "file not found"),
        (str(big), f"the file is larger than {MAX_FILE_BYTES} bytes"),
        (str(dotted), f"line 3: a dotted key of more than {MAX_NESTING} parts"),
    ]


def banker(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "banker", *args], capture_output=True, text=True,
                          timeout=TIMEOUT, cwd=ROOT)


def check_refusal(run: subprocess.CompletedProcess[str], prefix: str, fragment: str) -> None:
    out = run.stdout + run.stderr
    assert "Traceback" not in out, out
    assert run.returncode == 2, (run.returncode, out)
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr  # one line: the reason
    assert lines[0].startswith(prefix), (prefix, lines[0])
    assert fragment in lines[0], (fragment, lines[0])


def test_every_class_refused_with_its_own_reason_by_every_command(tmp_path: Path) -> None:
    """Each case through `banker rules`, `banker simulate` and `banker replay` (its header naming the file):
    all three in-process, and one of them, in turn, as a real subprocess."""
    cases = [(str(CORPUS / name), fragment) for name, fragment in STORED] + made_cases(tmp_path)
    fragments = [fragment for _, fragment in cases]
    assert len(set(fragments)) == len(fragments)  # a reason of its own for each case
    commands: list[tuple[Callable[[str, Path], list[str]], str]] = [
        (lambda path, script: ["rules", path], "banker rules: {path}: "),
        (lambda path, script: ["simulate", "--rules", path, "--games", "2"], "banker simulate: {path}: "),
        (lambda path, script: ["replay", str(script)], "line 1: {path}: "),
    ]
    runs = []
    for k, (path, fragment) in enumerate(cases):
        script = tmp_path / f"script-{k}.jsonl"
        script.write_text(json.dumps({"rules": path, "players": ["Ann", "Ben"], "seed": 1}) + '\n{"do": "roll"}\n')
        for argv, prefix in commands:
            status, out = in_process(argv(path, script))
            check_refusal(subprocess.CompletedProcess(argv(path, script), status, "", out),
                          prefix.format(path=path), fragment)
        argv, prefix = commands[k % len(commands)]
        runs.append((argv(path, script), prefix.format(path=path), fragment))
    with ThreadPoolExecutor(max_workers=2) as pool:
        done = list(pool.map(lambda run: (banker(*run[0]), run), runs))
    for result, (_, prefix, fragment) in done:
        check_refusal(result, prefix, fragment)


@pytest.mark.parametrize("name,fragment", HEADERS)
def test_header_options_the_board_cannot_satisfy_are_refused_on_the_header_line(name: str, fragment: str) -> None:
    check_refusal(banker("replay", str(CORPUS / name)), "line 1: ", fragment)


def test_a_one_die_ruleset_plays_without_the_speed_die() -> None:
    """The helper file of the speed-die header case is itself a good ruleset."""
    ruleset = load_ruleset(str(CORPUS / "one-die.toml"))
    assert ruleset.dice == 1
    assert in_process(["simulate", "--rules", str(CORPUS / "one-die.toml"), "--games", "2"])[0] == 0


def test_a_ruleset_may_extend_one_that_extends_another(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('extends = "brands-fast"\nname = "mine"\n', "utf-8")
    ruleset = load_ruleset(str(path))
    assert ruleset.options.speed_die_round == 8 and ruleset.options.start_cash == 17500
    assert len(ruleset.spaces) == len(load_ruleset("brands").spaces)


def test_every_whole_number_option_has_a_range_and_its_ends_load(tmp_path: Path) -> None:
    whole = {k for k, v in OPTION_DEFAULTS.items() if not isinstance(v, bool)}
    assert set(OPTION_RANGES) == whole
    for key in sorted(whole):
        least, most = OPTION_RANGES[key]
        assert least <= OPTION_DEFAULTS[key] <= most, key
        for value, ok in ((least, True), (most, True), (least - 1, False), (most + 1, False)):
            if key == "deal_deeds" and value > 0:
                continue  # bounded by the board too: below
            path = tmp_path / f"{key}-{value}.json"
            options: dict[str, object] = {key: value}
            if key == "free_parking_seed":
                options["free_parking_pot"] = True  # the seed needs the pot
            path.write_text(json.dumps({"extends": "classic", "options": options}), "utf-8")
            if ok:
                assert load_ruleset(str(path)).options.value(key) == value
            else:
                with pytest.raises(RulesetError) as refused:
                    load_ruleset(str(path))
                assert refused.value.key == f"options.{key}", str(refused.value)


def test_deal_deeds_up_to_the_board_loads_and_one_more_is_refused(tmp_path: Path) -> None:
    # classic: 28 title deeds, up to 8 players: 3 each fit, 4 do not; with players = [2, 2], 14 fit.
    for players, fits in (([2, 8], 3), ([2, 2], 14)):
        for dealt in (fits, fits + 1):
            path = tmp_path / f"deal-{players[1]}-{dealt}.json"
            path.write_text(json.dumps({"extends": "classic", "players": players, "options": {"deal_deeds": dealt}}))
            if dealt == fits:
                assert load_ruleset(str(path)).options.deal_deeds == dealt
                assert in_process(["simulate", "--rules", str(path), "--games", "2",
                                   "--players", str(players[1])])[0] == 0
            else:
                with pytest.raises(RulesetError, match="options.deal_deeds: .* but the board has 28 title deeds"):
                    load_ruleset(str(path))


# --------------------------------------------------------------------------
# The fuzzer


def in_process(argv: list[str]) -> tuple[int, str]:
    """`banker ARGV` through its main() in this process: the exit status and everything printed."""
    out = io.StringIO()
    with time_limit(TIMEOUT), contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        status = main(argv)
    return status, out.getvalue()


def paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in the data, as a tuple of keys and indices."""
    found = [prefix] if prefix else []
    if isinstance(data, dict):
        for key, value in data.items():
            found += paths(value, prefix + (key,))
    elif isinstance(data, list):
        for k, value in enumerate(data):
            found += paths(value, prefix + (k,))
    return found


def parent_of(data: Any, where: tuple[Any, ...]) -> Any:
    for step in where[:-1]:
        data = data[step]
    return data


ODD_VALUES: list[Any] = ["", "x", " ", [], {}, [1], [[]], {"a": 1}, True, False, None, 1.5, -0.0,
                         math.nan, math.inf, -math.inf, "\ud800", "\x00", "ü" * 300]
ODD_NUMBERS: list[Any] = [-1, 0, 1, 2, 3, 4, 5, 7, 8, 12, 40, 99, 100, 101, 1000, 10_000, 10_001, 86_401,
                          MAX_WHOLE_NUMBER, MAX_WHOLE_NUMBER + 1, -MAX_WHOLE_NUMBER - 1, 2**31, 2**63, 10**18,
                          10**19, -(10**12), 1.0, 2.5, math.nan, math.inf]


def option_value(rng: random.Random, key: str) -> Any:
    """A value for one option: mostly within its range (to reach the simulator), sometimes just outside."""
    default = OPTION_DEFAULTS[key]
    if isinstance(default, bool):
        return rng.choice([True, False, True, False, 0, 1, "true"])
    least, most = OPTION_RANGES[key]
    return rng.choice([least, most, least, least + 1, min(most, least + rng.randrange(1, 12)),
                       rng.randint(least, min(most, 10_000)), rng.randint(least, most), least - 1, most + 1])


def table_of(data: dict[str, Any], name: str) -> dict[str, Any]:
    """The table data[name], made a table again if an earlier damage made it something else."""
    table = data.get(name)
    if not isinstance(table, dict):
        table = data[name] = {}
    return table


def damage_data(rng: random.Random, data: dict[str, Any]) -> str:
    """Damage parsed ruleset data in place, in one of many ways; returns what was done."""
    kind = rng.choice(["delete", "duplicate", "retype", "number", "empty", "mechanic", "options", "options",
                       "options", "options", "dice", "players", "nest", "unknown", "rename", "swap", "cards"])
    places = paths(data)
    where = rng.choice(places)
    parent = parent_of(data, where)
    last = where[-1]
    if kind == "delete":
        del parent[last]
    elif kind == "duplicate":
        if isinstance(parent, list):
            parent.insert(last, copy.deepcopy(parent[last]))
        else:
            parent[f"{last}2" if isinstance(last, str) else last] = copy.deepcopy(parent[last])
    elif kind == "retype":
        parent[last] = rng.choice(ODD_VALUES)
    elif kind == "number":
        numbers = [p for p in places if type(parent_of(data, p)[p[-1]]) is int]
        if numbers:
            where = rng.choice(numbers)
            parent, last = parent_of(data, where), where[-1]
        parent[last] = rng.choice(ODD_NUMBERS)
    elif kind == "empty":
        texts = [p for p in places if isinstance(parent_of(data, p)[p[-1]], str)]
        if texts:
            where = rng.choice(texts)
            parent_of(data, where)[where[-1]] = rng.choice(["", " ", "\t", "?"])
    elif kind == "mechanic":
        known = families()
        family = rng.choice(sorted(known) + ["bogus"])
        table_of(data, "mechanics")[family] = rng.choice(list(known.get(family, ["x"])) + ["bogus", 1])
    elif kind == "options":
        table = table_of(data, "options")
        for key in rng.sample(sorted(OPTION_DEFAULTS), rng.randint(1, 6)):
            table[key] = option_value(rng, key)
        if rng.random() < 0.3:
            data["dice"] = rng.choice([1, 2, 2, 3])
    elif kind == "dice":
        data["dice"] = rng.choice([0, 1, 2, 3, 4, -1, "2", 2.0])
        if rng.random() < 0.5:
            table_of(data, "options")["speed_die_round"] = rng.choice([0, 1, 8])
    elif kind == "players":
        data["players"] = rng.choice([[2, 8], [8, 8], [2, 2], [3, 3], [4, 4], [1, 8], [2, 9], [5, 4], [2], [2, "8"]])
        if rng.random() < 0.5:
            table_of(data, "options")["deal_deeds"] = rng.randint(0, 15)
    elif kind == "nest":
        value: Any = parent[last]
        for _ in range(rng.choice([1, 2, 5, MAX_NESTING, 200])):
            value = [value] if rng.random() < 0.5 else {"a": value}
        parent[last] = value
    elif kind == "unknown":
        target = parent if isinstance(parent, dict) else data
        target[rng.choice(["zzz", "Name", "price2", "", "dice "])] = 1
    elif kind == "rename":
        if isinstance(parent, dict):
            parent[rng.choice(["name", "kind", "group", "deck", "effect", "id", "to"])] = parent.pop(last)
    elif kind == "swap":
        lists = [p for p in places if isinstance(parent_of(data, p)[p[-1]], list)
                 and len(parent_of(data, p)[p[-1]]) > 1]
        if lists:
            chosen = rng.choice(lists)
            seq = parent_of(data, chosen)[chosen[-1]]
            i, j = rng.randrange(len(seq)), rng.randrange(len(seq))
            seq[i], seq[j] = seq[j], seq[i]
    elif kind == "cards":
        cards = data.get("cards")
        card = rng.choice(cards) if isinstance(cards, list) and cards else {}
        if isinstance(card, dict):
            card[rng.choice(["amount", "to", "steps", "per_house", "rent_multiplier", "dice_multiplier"])] = \
                rng.choice(ODD_NUMBERS)
    return f"{kind} at {list(where)}"


NUMBER = re.compile(r"(?<![\w.\"'])-?\d[\d_]*(?![\w.\"'])")


def damage_text(rng: random.Random, text: str) -> tuple[bytes, str]:
    """Damage a ruleset file's text in one of many ways; returns the bytes and what was done."""
    kind = rng.choice(["truncate", "bytes", "delete_line", "duplicate_line", "swap_lines", "number",
                       "number", "flip", "nest", "table"])
    lines = text.splitlines(keepends=True)
    if kind == "truncate":
        return text.encode("utf-8")[:rng.randrange(len(text))], kind
    if kind == "bytes":
        raw = bytearray(text.encode("utf-8"))
        for _ in range(rng.randint(1, 8)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        return bytes(raw), kind
    if kind == "delete_line":
        del lines[rng.randrange(len(lines))]
    elif kind == "duplicate_line":
        k = rng.randrange(len(lines))
        lines.insert(k, lines[k])
    elif kind == "swap_lines":
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "number":
        spots = [m for m in NUMBER.finditer(text)]
        if spots:
            m = rng.choice(spots)
            new = rng.choice(["nan", "inf", "-inf", "+inf", "-1", "0", "1e400", "0x7fffffff", "1_000_000_000_000",
                              "9" * rng.choice([10, 19, 400, 5000]), "1.5", "true", '""', "[]", "{}",
                              str(rng.randint(-5, 200))])
            return (text[:m.start()] + new + text[m.end():]).encode("utf-8"), f"number {m.group()} -> {new[:30]}"
    elif kind == "flip":
        k = rng.randrange(len(text))
        return (text[:k] + rng.choice("[]{}=\"'#,\n.\\x") + text[k + 1:]).encode("utf-8"), kind
    elif kind == "nest":
        depth = rng.choice([MAX_NESTING - 2, MAX_NESTING, 100, 3000])
        lines.insert(rng.randrange(len(lines) + 1), "deep = " + "[" * depth + "]" * depth + "\n")
    elif kind == "table":
        headers = [k for k, line in enumerate(lines) if line.startswith("[")]
        if headers:
            k = rng.choice(headers)
            lines.insert(rng.randrange(len(lines) + 1), lines[k])
    return "".join(lines).encode("utf-8"), kind


def fuzz_case(rng: random.Random, folder: Path, k: int) -> tuple[Path, str]:
    """Write case k: a shipped ruleset, damaged as data (saved as JSON) or as text (saved as TOML)."""
    shipped = rng.choice(SHIPPED)
    text = shipped.read_text("utf-8")
    if rng.random() < 0.55:
        data = tomllib.loads(text)
        done = [damage_data(rng, data) for _ in range(rng.choice([1, 1, 1, 2, 3]))]
        path = folder / f"case-{k}.json"
        path.write_text(json.dumps(data, ensure_ascii=rng.random() < 0.5), "utf-8", errors="surrogatepass")
        return path, f"{shipped.name}: " + "; ".join(done)
    raw, done = damage_text(rng, text)
    path = folder / f"case-{k}.toml"
    path.write_bytes(raw)
    return path, f"{shipped.name}: {done}"


def test_fuzz_damaged_rulesets(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    refused = accepted = 0
    for k in range(CASES):
        path, done = fuzz_case(rng, tmp_path, k)
        players_pick = rng.random()
        where = f"case {k} (BANKER_FUZZ_SEED={SEED}), {done}, file {path}"
        try:
            try:
                with time_limit(TIMEOUT):
                    ruleset = load_ruleset(str(path))
            except RulesetError as exc:
                refused += 1
                message = str(exc)
                assert message.startswith(f"{path}: ") and "\n" not in message, (where, message)
                status, out = in_process(["rules", str(path)])
                assert status == 2 and out == f"banker rules: {message}\n", (where, out)
                continue
            accepted += 1
            players = ruleset.players_min + int(players_pick * (ruleset.players_max - ruleset.players_min + 1))
            for argv in (["rules", str(path)], ["rules", str(path), "--json"],
                         ["simulate", "--rules", str(path), "--games", "2", "--players", str(players)]):
                status, out = in_process(argv)
                assert status == 0 and "Traceback" not in out, (where, argv, status, out[-2000:])
        except (AssertionError, Hang):
            raise
        except Exception as exc:  # the very thing the fuzzer looks for: report the case that made it
            raise AssertionError(f"{where}: {''.join(traceback.format_exception(exc))}") from None
        finally:
            path.unlink()
    assert refused and accepted, (refused, accepted)  # the damage reaches both the checks and the game
    print(f"{CASES} cases: {refused} refused, {accepted} accepted and simulated")


def test_a_deal_is_judged_by_the_game_s_players() -> None:
    """10 deeds each fit two players on classic's 28 deeds (not eight): the game plays; 15 each do not."""
    from banker.errors import SetupError
    from banker.game import Game
    from banker.ruleset import load_ruleset

    game = Game(load_ruleset("classic"), ["Ann", "Ben"], {"deal_deeds": 10})
    assert game.to_json()["owed"] == [{"player": "bank", "verbs": ["deal"]}]  # the bank deals
    with pytest.raises(SetupError, match="15 deeds to each of 2 players need 30"):
        Game(load_ruleset("classic"), ["Ann", "Ben"], {"deal_deeds": 15})
