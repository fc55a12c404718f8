"""Hostile and damaged tags files get a clear one-line refusal and lose nothing (issue 57).

Three parts:

- The seed corpus (tests/fuzz/tags/, and a few cases made here: a file too large, a FIFO, /dev/zero, a
  folder): one case of every class of bad tags file found so far, each refused for its OWN reason, on one
  line, by `read_document`, by `TagStore(path)` (which holds no tags, says why, and leaves the file as it
  was) and by `banker tags import` (status 1, one line, the family's tags file unchanged).
- The fuzzer: a good file with a sticker of every set kind, damaged in many seeded ways (bytes flipped,
  inserted and dropped, truncations, random bytes, a value of every JSON type put at every level, deep
  nesting, huge numbers, keys written twice, lone surrogates, control characters, a file too large), each
  through the same three doors: a document that reads is a sound one (it writes back as it reads), a
  refusal is one printable line, never another exception, never a hang, and the files on disk stay whole.
- Properties (hypothesis): any JSON value is a sound document or one clear TagsError; any store the
  family can make writes a file that reads back the same.

`BANKER_FUZZ_CASES` sets how many fuzz cases run (default 600, a few seconds) and `BANKER_FUZZ_SEED` the seed
(default 57): `BANKER_FUZZ_CASES=20000 pytest tests/ui/test_tags_fuzz.py`.
"""

from __future__ import annotations

import json
import os
import random
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from banker.cli import main
from fuzzkit import Hang, time_limit
from ui.tags import (
    FORMAT,
    MAX_DIGITS,
    MAX_FILE_BYTES,
    MAX_NESTING,
    VERSION,
    Tagged,
    TagsError,
    TagStore,
    parse_document,
    read_document,
    set_catalogue,
)

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "fuzz" / "tags"
CASES = int(os.environ.get("BANKER_FUZZ_CASES", "600"))
SEED = int(os.environ.get("BANKER_FUZZ_SEED", "57"))
TIMEOUT = 10  # seconds for one case: a hang is a failure
LONGEST_LINE = 400  # characters of a refusal: one clear line, not a file quoted whole

# Each stored case and its whole reason.
STORED: list[tuple[str, str]] = [
    ("bidi-set.json", "a set's name must be printable text of 1 to 80 characters, not 'edition:\\u202eevil'"),
    ("big-float.json", "set 'classic', sticker 04A3: \"deed\" must be a space's index, a whole number from 0 to 999, "
                       "not inf"),
    ("bom.json", "not JSON: Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"),
    ("control-in-sticker.json", "set 'classic', sticker '04A3\\n': a sticker's number may hold only printable "
                                "characters, no spaces"),
    ("deed-text.json", "set 'classic', sticker 04A3: \"deed\" must be a space's index, a whole number from 0 to 999, "
                       "not '39'"),
    ("deep-nesting.json", f"line 1: nested more than {MAX_NESTING} levels deep"),
    ("duplicate-set.json", "the key 'classic' is given twice in one object"),
    ("duplicate-sticker.json", "the key '04A3' is given twice in one object"),
    ("empty.json", "not JSON: Expecting value: line 1 column 1 (char 0)"),
    ("huge-number.json", f"line 1: a number written with more than {MAX_DIGITS} digits"),
    ("long-key.json", "unknown key '" + "k" * 56 + "... (a tags file has format, version and sets)"),
    ("nan.json", "NaN is no number a tags file holds"),
    ("not-utf8.json", "not UTF-8 text (byte 0xe9 at offset 70)"),
    ("nul-byte.json", "not JSON: Invalid control character at: line 6 column 8 (char 84)"),
    ("sets-list.json", '"sets" must be an object of sets'),
    ("sticker-in-two-sets.json", "sticker 04A3 is in set 'biznes' and in set 'classic'"),
    ("surrogate-card.json", "set 'classic', sticker 04A3: \"card\" must be printable text of 1 to 80 characters, "
                            "not '\\udc80'"),
    ("surrogate-set.json", "a set's name must be printable text of 1 to 80 characters, not 'classic\\udcff'"),
    ("surrogate-sticker.json", "set 'classic', sticker '04\\ud800': a sticker's number may hold only printable "
                               "characters, no spaces"),
    ("top-level-list.json", "the file is not a JSON object"),
    ("truncated.json", "not JSON: Expecting ',' delimiter: line 7 column 4 (char 95)"),
    ("two-stickers-one-card.json", "set 'classic': stickers 01 and 02 are on one card"),
    ("version-text.json", "\"version\" must be 1, not '1'"),
]

# The family's tags before each import: a sticker of every set kind (an edition's set needs no edition here).
FAMILY = {"format": FORMAT, "version": VERSION, "sets": {
    "classic": {"04A32B1C": {"deed": 39}, "04B0": {"deck": "chance", "card": "ch-advance-go"}},
    "brands": {"0012345678": {"deck": "chance", "card": "brands-showdown-demolition"}},
    "biznes": {"BB01": {"deed": 1}, "BB02": {"deck": "rynek", "card": "rynek-nowe-kontrakty"}},
    "edition:grandma": {"AA01": {"deed": 3}, "AA02": {"deck": "community_chest", "card": "cc-sale-45"}}}}
GOOD = json.dumps(FAMILY, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home


def one_line(message: str) -> None:
    """A refusal as the family reads it: one printable line, not too long."""
    assert message and message.isprintable() and len(message) <= LONGEST_LINE, repr(message)


def import_refused(capsys: pytest.CaptureFixture[str], source: Path, family: Path) -> str:
    """`banker tags import SOURCE --file FAMILY`, refused: status 1, one line (returned), the family's file whole."""
    before = family.read_bytes()
    status = main(["tags", "import", str(source), "--file", str(family)])
    out = capsys.readouterr()
    assert (status, out.out) == (1, ""), out
    assert out.err.endswith("\n") and len(out.err.splitlines()) == 1, out.err
    one_line(out.err.rstrip("\n"))
    assert family.read_bytes() == before and sorted(os.listdir(family.parent)) == [family.name]
    return out.err.rstrip("\n")


def family_file(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "tags.json"
    path.write_text(GOOD, "utf-8")
    return path


# ----------------------------------------------------------------------
# The seed corpus


@pytest.mark.parametrize(("name", "why"), STORED)
def test_each_stored_case_is_refused_for_its_own_reason(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                        name: str, why: str) -> None:
    data = (CORPUS / name).read_bytes()
    path = tmp_path / "tags.json"
    path.write_bytes(data)
    with pytest.raises(TagsError) as caught:
        read_document(path)
    assert str(caught.value) == why
    store = TagStore(path)  # the app starting on it: no tags, why, and the file as it was
    assert store.problem == why and store.sets == {} and store.lookup("04A3") is None
    assert path.read_bytes() == data and os.listdir(tmp_path) == ["tags.json"]
    for command in ("list", "export"):
        assert main(["tags", command, "--file", str(path)]) == 1
        err = capsys.readouterr().err
        assert err == f"banker tags {command}: {path}: {why}\n"
    family = family_file(tmp_path / "family")
    assert import_refused(capsys, path, family) == f"banker tags import: {path}: {why}; nothing was imported"
    assert path.read_bytes() == data


def test_the_corpus_has_no_case_without_its_reason() -> None:
    assert sorted(p.name for p in CORPUS.iterdir()) == sorted(name for name, _ in STORED)


def test_files_that_are_no_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Too large, a FIFO (opening it would wait for a writer), a device that never ends, a folder: refused
    without reading them, in a moment."""
    big = tmp_path / "big.json"
    big.write_bytes(GOOD.encode()[:-2] + b" " * MAX_FILE_BYTES + b"}\n")
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    family = family_file(tmp_path / "family")
    for path, why in [(big, f"larger than {MAX_FILE_BYTES} bytes, the most a tags file may be"),
                      (fifo, "is a FIFO (a named pipe), not a regular file"),
                      (Path("/dev/zero"), "is a character device, not a regular file"),
                      (tmp_path / "family", "is a folder, not a regular file")]:
        with time_limit(TIMEOUT):
            with pytest.raises(TagsError, match=f"^{why.replace('(', '.').replace(')', '.')}$"):
                read_document(path)
            assert TagStore(path).problem == why
            assert import_refused(capsys, path, family) == f"banker tags import: {path}: {why}; nothing was imported"


def test_a_too_large_standard_input(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import sys

    family = family_file(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b" " * (MAX_FILE_BYTES + 1))))
    assert main(["tags", "import", "-", "--file", str(family)]) == 1
    assert capsys.readouterr().err == (f"banker tags import: standard input: larger than {MAX_FILE_BYTES} bytes, the "
                                       "most a tags file may be; nothing was imported\n")
    assert family.read_text("utf-8") == GOOD


# ----------------------------------------------------------------------
# The fuzzer

ODD_VALUES: list[Any] = [None, True, False, 0, -1, 1, 39, 999, 1000, 2**63, -2**63, 1.5, 1e308, -0.0, "", " ", "39",
                         "chance", "classic", "edition:grandma", "edition:", "\ud800", "\udcff", "a\nb", "\u202e",
                         "\x00", "x" * 81, "😀", [], [1], {}, {"deed": 1}, {"deck": "chance"},
                         {"deck": "chance", "card": "ch-advance-go"}, {"deed": 1, "deck": "x", "card": "y"}]
ODD_KEYS = ["", " ", "format", "version", "sets", "deed", "deck", "card", "classic", "classic-short", "brands",
            "edition:grandma", "edition:Grandma", "04A32B1C", "BB01", "\ud800", "a\tb", "x" * 100, "😀", "\u2028"]


def odd_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(6 if depth < 3 else 4)
    if kind < 3:
        return rng.choice(ODD_VALUES)
    if kind == 3:
        return rng.randint(-10**18, 10**18) if rng.random() < 0.5 else rng.uniform(-1e6, 1e6)
    if kind == 4:
        return [odd_value(rng, depth + 1) for _ in range(rng.randrange(3))]
    return {rng.choice(ODD_KEYS): odd_value(rng, depth + 1) for _ in range(rng.randrange(3))}


def places(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in the document a value sits: the top, each set, each sticker, each field."""
    found = [path]
    if isinstance(doc, dict):
        for key, value in doc.items():
            found.extend(places(value, (*path, key)))
    return found


def put(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    doc[path[0]] = put(doc[path[0]], path[1:], value)
    return doc


def dumps(doc: Any, rng: random.Random) -> bytes:
    """The document as JSON, lone surrogates and all (written escaped, as JSON may hold them)."""
    return json.dumps(doc, ensure_ascii=rng.random() < 0.5, allow_nan=True).encode("utf-8", "surrogatepass")


def wrong_type(rng: random.Random) -> bytes:
    doc = json.loads(GOOD)
    return dumps(put(doc, rng.choice(places(doc)), odd_value(rng)), rng)


def odd_key(rng: random.Random) -> bytes:
    """A key of any kind added to any object: the top, the sets, a set, an entry."""
    doc = json.loads(GOOD)
    objects = [doc, doc["sets"], *doc["sets"].values(), *(e for tags in doc["sets"].values() for e in tags.values())]
    rng.choice(objects)[rng.choice(ODD_KEYS)] = odd_value(rng)
    return dumps(doc, rng)


def duplicate(rng: random.Random) -> bytes:
    """A line of the file written twice: a sticker, a field or a set given twice in one object."""
    lines = GOOD.splitlines(keepends=True)
    k = rng.randrange(1, len(lines) - 1)
    line = lines[k] if lines[k].rstrip().endswith(",") else lines[k].rstrip("\n") + ",\n"
    return "".join([*lines[:k], line, *lines[k:]]).encode()


def flip(rng: random.Random) -> bytes:
    data = bytearray(GOOD.encode())
    for _ in range(rng.randint(1, 4)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


def insert(rng: random.Random) -> bytes:
    data = GOOD.encode()
    k = rng.randrange(len(data) + 1)
    extra = rng.choice([b"\x00", b"\xff", b"\xed\xa0\x80", b"\\ud800", b"[" * 50, b"{" * 20, b'"', b",", b"9" * 30,
                        b"NaN", b"-Infinity", b"1e999", b"\xef\xbb\xbf", b"\r", b"\\", bytes([rng.randrange(256)])])
    return data[:k] + extra + data[k:]


def drop(rng: random.Random) -> bytes:
    data = GOOD.encode()
    k = rng.randrange(len(data))
    return data[:k] + data[k + rng.randint(1, 20):]


def truncate(rng: random.Random) -> bytes:
    return GOOD.encode()[:rng.randrange(len(GOOD))]


def noise(rng: random.Random) -> bytes:
    return bytes(rng.randrange(256) for _ in range(rng.randrange(200)))


def nested(rng: random.Random) -> bytes:
    depth = rng.choice([MAX_NESTING - 3, MAX_NESTING - 2, MAX_NESTING + 1, 100, 100_000])
    value = "[" * depth + "]" * depth if rng.random() < 0.5 else '{"a": ' * depth + "1" + "}" * depth
    return (GOOD[:GOOD.index('"version"')] + f'"deep": {value}, ' + GOOD[GOOD.index('"version"'):]).encode()


def huge_number(rng: random.Random) -> bytes:
    digits = rng.choice([MAX_DIGITS, MAX_DIGITS + 1, 5000, 100_000])
    return GOOD.replace('"deed": 39', f'"deed": {"1" * digits}').encode()


DAMAGE: list[Callable[[random.Random], bytes]] = [wrong_type, wrong_type, odd_key, duplicate, flip, insert, drop,
                                                  truncate, noise, nested, huge_number]


def sound(sets: dict[str, dict[str, Tagged]]) -> None:
    """A document that reads is one the store can hold: it writes back as it reads, every sticker once."""
    doc = {"format": FORMAT, "version": VERSION,
           "sets": {key: {uid: item.to_doc() for uid, item in tags.items()} for key, tags in sets.items()}}
    assert parse_document(json.loads(json.dumps(doc))) == sets
    uids = [uid for tags in sets.values() for uid in tags]
    assert len(uids) == len(set(uids)) and all(uid.isprintable() for uid in uids)


def test_damaged_files_are_refused_clearly_and_lose_nothing(capsys: pytest.CaptureFixture[str],
                                                            tmp_path: Path) -> None:
    rng = random.Random(SEED)
    family = family_file(tmp_path / "family")
    path = tmp_path / "case" / "tags.json"
    path.parent.mkdir()
    kinds: dict[str, int] = {}
    for case in range(CASES):
        damage = rng.choice(DAMAGE)
        data = damage(rng)
        path.write_bytes(data)
        try:
            with time_limit(TIMEOUT):
                try:
                    sets = read_document(path)
                except TagsError as exc:
                    one_line(str(exc))
                    kinds["refused"] = kinds.get("refused", 0) + 1
                    store = TagStore(path)
                    assert store.problem == str(exc) and store.sets == {}
                    line = import_refused(capsys, path, family)
                    assert line == f"banker tags import: {path}: {exc}; nothing was imported"
                else:
                    sound(sets)
                    kinds["read"] = kinds.get("read", 0) + 1
                    assert TagStore(path).sets == sets
                    status = main(["tags", "import", str(path), "--file", str(family)])
                    out = capsys.readouterr()
                    if status == 1:  # a sticker on nothing of its set, or on two cards with the family's
                        one_line(out.err.rstrip("\n"))
                        assert len(out.err.splitlines()) == 1 and family.read_text("utf-8") == GOOD
                    else:
                        assert status == 0 and TagStore(family).problem is None
                        sound(TagStore(family).sets)
                        family.write_text(GOOD, "utf-8")
                assert path.read_bytes() == data  # reading never touches the file
        except (AssertionError, Hang, Exception) as exc:
            raise AssertionError(f"case {case} ({damage.__name__}, seed {SEED}): {data[:300]!r}\n"
                                 f"{''.join(traceback.format_exception(exc))}") from None
    assert kinds.get("refused", 0) > CASES // 3 and kinds.get("read", 0) > 0, kinds  # both doors were tried


# ----------------------------------------------------------------------
# Properties

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=20), inner, max_size=4),
    max_leaves=20)
set_names = st.sampled_from(["classic", "brands", "biznes", "classic-short", "edition:grandma", "edition:x", "nope"])
entries = st.one_of(st.fixed_dictionaries({"deed": st.integers(-5, 1005) | json_values}),
                    st.fixed_dictionaries({"deck": st.text(max_size=5) | json_values,
                                           "card": st.text(max_size=5) | json_values}),
                    json_values)
documents = st.fixed_dictionaries(
    {"format": st.just(FORMAT) | json_values, "version": st.just(VERSION) | json_values,
     "sets": st.dictionaries(set_names | st.text(max_size=10),
                             st.dictionaries(st.text(max_size=12), entries, max_size=4) | json_values, max_size=3)})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(json_values, documents))
def test_any_document_is_sound_or_one_clear_refusal(document: Any) -> None:
    try:
        sets = parse_document(document)
    except TagsError as exc:
        one_line(str(exc))
    else:
        sound(sets)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.text(alphabet="0123456789ABCDEF", min_size=1, max_size=20),
                          st.sampled_from(set_catalogue("classic") + set_catalogue("biznes")[:5])), max_size=12),
       st.randoms(use_true_random=False))
def test_every_store_the_family_makes_reads_back(tmp_path: Path, tags: list[tuple[str, Tagged]],
                                                 rng: random.Random) -> None:
    """Tag, retag and forget in any order: what the store holds is what a restart reads, and a refused tag
    changed nothing."""
    path = tmp_path / f"tags-{rng.randrange(10**9)}.json"
    store = TagStore(path)
    for uid, item in tags:
        before = dict(store.sets)
        if rng.random() < 0.2:
            store.forget(item)
            continue
        try:
            store.assign(uid, item)
        except TagsError:
            assert store.lookup(uid) not in (None, item) and store.sets == before
    assert TagStore(path).sets == store.sets
    assert parse_document(store.document()) == store.sets
