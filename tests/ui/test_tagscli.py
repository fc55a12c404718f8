"""`banker tags list [--json] | export | import FILE` (ui/tagscli.py) as a family or a script runs them: the
file found where the app keeps it, every set kind exported and imported back, a refusal one line and exit
status 1 with the tags file unchanged."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from banker.cli import main
from banker.editions import save_edition
from ui.tags import FORMAT, VERSION, Tagged, TagStore

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home


@pytest.fixture
def app_file(data_home: Path) -> Path:
    """The app's tags file: where the app keeps it (beside the settings), as `banker tags` finds it."""
    return data_home / "board-banker" / "tags.json"


def banker(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """A refusal: exit status 1, nothing on standard output, one line on standard error (returned)."""
    status, out, err = banker(capsys, *argv)
    assert (status, out) == (1, ""), err
    assert len(err.splitlines()) == 1 and err.endswith("\n") and "Traceback" not in err
    return err.rstrip("\n")


def doc(sets: dict[str, object]) -> str:
    return json.dumps({"format": FORMAT, "version": VERSION, "sets": sets})


def grandma() -> None:
    save_edition('name = "grandma"\ntitle = "Grandma\'s"\nextends = "classic"\n')


def every_kind(path: Path) -> TagStore:
    """A store with a sticker of every kind in every kind of set: classic, brands (showdown's own card), biznes,
    and an edition of the family."""
    grandma()
    store = TagStore(path)
    for uid, item in [("04A32B1C", Tagged("classic", "deed", space=39)),
                      ("04B0", Tagged("classic", "card", deck="chance", card="ch-advance-go")),
                      ("0012345678", Tagged("brands", "card", deck="chance", card="brands-showdown-demolition")),
                      ("BB01", Tagged("biznes", "deed", space=1)),
                      ("BB02", Tagged("biznes", "card", deck="rynek", card="rynek-nowe-kontrakty")),
                      ("AA01", Tagged("edition:grandma", "deed", space=3)),
                      ("AA02", Tagged("edition:grandma", "card", deck="community_chest", card="cc-sale-45"))]:
        store.assign(uid, item)
    return store


# ----------------------------------------------------------------------
# The command and its help


def test_the_command_and_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0 and "the family's tagged deeds and cards: list, export, import" in capsys.readouterr().out
    with pytest.raises(SystemExit) as done:
        main(["tags", "--help"])
    text = capsys.readouterr().out
    assert done.value.code == 0 and "banker tags import FILE [--file PATH]" in text and "list" in text
    assert "docs/hardware.md" in text and "player's card" in text
    for command, option in [("list", "--json"), ("export", "--file"), ("import", "FILE")]:
        with pytest.raises(SystemExit) as done:
            main(["tags", command, "--help"])
        assert done.value.code == 0 and option in capsys.readouterr().out


def test_a_bad_command_line_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, words in [(["tags"], "the following arguments are required: WHAT"),
                        (["tags", "import"], "the following arguments are required: FILE"),
                        (["tags", "list", "--file", ""], "--file: must be a file's name"),
                        (["tags", "list", "--file", "a\x00b"], "--file: must be a file's name"),
                        (["tags", "list", "--file", "\ud800"], "--file: the file name is not valid text")]:
        with pytest.raises(SystemExit) as done:
            main(argv)
        err = capsys.readouterr().err
        assert done.value.code == 2 and words in err and len(err.splitlines()) == 1, err


def test_installed_command_runs(tmp_path: Path) -> None:
    """As a family runs it: `python -m banker tags` in a process of its own (the plugin found by name)."""
    path = tmp_path / "tags.json"
    export = subprocess.run([sys.executable, "-m", "banker", "tags", "export", "--file", str(path)],
                            capture_output=True, text=True, timeout=60, cwd=ROOT, env=dict(os.environ))
    assert export.returncode == 0 and json.loads(export.stdout) == {"format": FORMAT, "version": VERSION, "sets": {}}
    bad = subprocess.run([sys.executable, "-m", "banker", "tags", "import", "-", "--file", str(path)], input="{",
                         capture_output=True, text=True, timeout=60, cwd=ROOT, env=dict(os.environ))
    assert bad.returncode == 1 and bad.stdout == "" and len(bad.stderr.splitlines()) == 1
    assert bad.stderr.startswith("banker tags import: standard input: not JSON") and not path.exists()


# ----------------------------------------------------------------------
# list


def test_list_without_tags(capsys: pytest.CaptureFixture[str], app_file: Path) -> None:
    status, out, _ = banker(capsys, "tags", "list")
    assert status == 0 and out == f"No tags in {app_file} yet (the app: Settings -> Tag the cards).\n"
    status, out, _ = banker(capsys, "tags", "list", "--json")
    assert status == 0 and json.loads(out) == {"file": str(app_file), "sets": [], "tags": []}
    assert not app_file.exists()  # looking writes nothing


def test_list_says_each_sticker_and_each_sets_progress(capsys: pytest.CaptureFixture[str], app_file: Path) -> None:
    every_kind(app_file)
    status, out, _ = banker(capsys, "tags", "list")
    assert status == 0
    assert out.splitlines() == [
        f"Tags in {app_file}:",
        "biznes: 1 of 29 deeds, 1 of 20 cards",
        "  BB01  Budka z zapiekankami (deed, space 1)",
        "  BB02  Rynek: Nowe kontrakty: na start — odbierz pensję (card rynek/rynek-nowe-kontrakty)",
        "brands: 0 of 28 deeds, 1 of 21 cards",
        "  0012345678  Chance: Demolition order: one of your buildings is destroyed. "
        "(card chance/brands-showdown-demolition)",
        "classic: 1 of 28 deeds, 1 of 32 cards",
        "  04A32B1C  Boardwalk (deed, space 39)",
        "  04B0      Chance: Advance to GO. Collect 200. (card chance/ch-advance-go)",
        "edition:grandma: 1 of 28 deeds, 1 of 32 cards",
        "  AA01  Baltic Avenue (deed, space 3)",
        "  AA02  Community Chest: From sale of stock you get 45. (card community_chest/cc-sale-45)"]


def test_list_json_fields(capsys: pytest.CaptureFixture[str], app_file: Path) -> None:
    every_kind(app_file)
    status, out, _ = banker(capsys, "tags", "list", "--json")
    report = json.loads(out)
    assert status == 0 and report["file"] == str(app_file)
    assert [s["set"] for s in report["sets"]] == ["biznes", "brands", "classic", "edition:grandma"]
    assert report["sets"][2] == {"set": "classic", "problem": None, "deeds": 1, "deeds_total": 28, "cards": 1,
                                 "cards_total": 32}
    classic = [t for t in report["tags"] if t["set"] == "classic"]
    assert classic == [
        {"set": "classic", "sticker": "04A32B1C", "kind": "deed", "space": 39, "deck": None, "card": None,
         "name": "Boardwalk", "deck_name": None, "known": True},
        {"set": "classic", "sticker": "04B0", "kind": "card", "space": None, "deck": "chance", "card": "ch-advance-go",
         "name": "Advance to GO. Collect 200.", "deck_name": "Chance", "known": True}]


def test_list_in_board_order_and_what_the_rules_no_longer_have(capsys: pytest.CaptureFixture[str],
                                                               app_file: Path) -> None:
    """Deeds in board order, then the cards, whatever the stickers' numbers; a sticker on what its set's rules
    no longer have (an edition edited) is listed, not counted; an edition that does not load is said."""
    app_file.parent.mkdir(parents=True)
    app_file.write_text(doc({"classic": {"01": {"deck": "chance", "card": "ch-advance-go"}, "02": {"deed": 39},
                                         "03": {"deed": 1}, "00": {"deed": 0}},
                             "edition:gone": {"09": {"deed": 5}, "08": {"deck": "x", "card": "y"}}}))
    status, out, _ = banker(capsys, "tags", "list")
    lines = out.splitlines()
    assert status == 0 and [line.split()[0] for line in lines[2:6]] == ["03", "02", "01", "00"]
    assert lines[1] == "classic: 2 of 28 deeds, 1 of 32 cards"
    assert lines[5] == "  00  (deed, space 0: not in this set's rulesets)"
    assert lines[6].startswith("edition:gone: 1 deed and 1 card tagged; the edition does not load (")
    assert lines[6].endswith("gone.toml: file not found), so what they are cannot be said")
    assert lines[7:] == ["  09  (deed, space 5)", "  08  (card x/y)"]
    report = json.loads(banker(capsys, "tags", "list", "--json")[1])
    assert report["sets"][1]["deeds_total"] is None and report["sets"][1]["problem"].startswith("the edition does")
    assert [t["known"] for t in report["tags"]] == [True, True, True, False, None, None]


# ----------------------------------------------------------------------
# export and import


def test_every_set_kind_exports_and_imports_back(capsys: pytest.CaptureFixture[str], app_file: Path,
                                                 tmp_path: Path) -> None:
    store = every_kind(app_file)
    status, exported, _ = banker(capsys, "tags", "export")
    assert status == 0 and json.loads(exported) == store.document()
    assert exported == app_file.read_text("utf-8")  # the file's own document, byte for byte
    (tmp_path / "export.json").write_text(exported)
    other = tmp_path / "other" / "tags.json"  # a new box: nothing tagged yet
    status, out, _ = banker(capsys, "tags", "import", str(tmp_path / "export.json"), "--file", str(other))
    assert status == 0 and out.startswith(f"7 stickers imported into {other}: biznes (2 stickers, before 0)")
    assert other.read_text("utf-8") == exported
    status, out, _ = banker(capsys, "tags", "import", str(tmp_path / "export.json"))  # into itself: no change
    assert status == 0 and app_file.read_text("utf-8") == exported


def test_import_from_standard_input(capsys: pytest.CaptureFixture[str], app_file: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(doc({"classic": {"04A3": {"deed": 1}}}).encode())))
    status, out, _ = banker(capsys, "tags", "import", "-")
    assert status == 0 and out == f"1 sticker imported into {app_file}: classic (1 sticker, before 0)\n"
    assert TagStore(app_file).lookup("04A3") == Tagged("classic", "deed", space=1)


def test_import_replaces_the_sets_it_names(capsys: pytest.CaptureFixture[str], app_file: Path,
                                           tmp_path: Path) -> None:
    every_kind(app_file)
    source = tmp_path / "in.json"
    source.write_text(doc({"classic": {"CC01": {"deed": 1}}, "brands": {}}))
    status, out, _ = banker(capsys, "tags", "import", str(source))
    assert status == 0 and out == (f"1 sticker imported into {app_file}: brands (0 stickers, before 1), "
                                   "classic (1 sticker, before 2)\n")
    assert {key: len(tags) for key, tags in TagStore(app_file).sets.items()} == {
        "classic": 1, "biznes": 2, "edition:grandma": 2}
    source.write_text(doc({}))
    assert banker(capsys, "tags", "import", str(source))[1] == f"{source} names no set: {app_file} is unchanged\n"


@pytest.mark.parametrize(("text", "why"), [
    ("", "not JSON: Expecting value: line 1 column 1 (char 0)"),
    ("[1]", "the file is not a JSON object"),
    (doc({"brands": {"04A32B1C": {"deed": 1}}}), "sticker 04A32B1C would be in set"),
    (doc({"classic": {"NEW1": {"deed": 12}, "NEW2": {"deed": 2}}}), "sticker NEW2: space 2 is no title deed"),
    (doc({"classic": {"NEW1": {"deck": "chance", "card": "cc-sale-45"}}}), "the deck 'chance' has no card"),
    (doc({"brands": {"NEW1": {"deck": "community_chest", "card": "cc-sale-45"}}}), "this set has no deck"),
    (doc({"edition:nobody": {"NEW1": {"deed": 1}}}), "set 'edition:nobody': the edition does not load ("),
    ('{"format": "board-banker-tags", "version": 1, "sets": {"classic": {"A1": {"deed": 1}, "A1": {"deed": 3}}}}',
     "the key 'A1' is given twice in one object"),
])
def test_a_bad_import_is_one_line_and_changes_nothing(capsys: pytest.CaptureFixture[str], app_file: Path,
                                                      tmp_path: Path, text: str, why: str) -> None:
    every_kind(app_file)
    before = app_file.read_bytes()
    source = tmp_path / "in.json"
    source.write_text(text)
    line = refused(capsys, "tags", "import", str(source))
    assert line.startswith(f"banker tags import: {source}: ") and why in line, line
    assert line.endswith("; nothing was imported")
    assert app_file.read_bytes() == before and sorted(os.listdir(app_file.parent)) == ["editions", "tags.json"]


def test_an_import_file_that_cannot_be_read(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                            app_file: Path) -> None:
    assert refused(capsys, "tags", "import", str(tmp_path / "missing.json")) == (
        f"banker tags import: {tmp_path / 'missing.json'}: no such file")
    assert refused(capsys, "tags", "import", str(tmp_path)).endswith("is a folder, not a regular file; nothing was "
                                                                     "imported")
    os.mkfifo(tmp_path / "fifo")
    assert "is a FIFO (a named pipe), not a regular file" in refused(capsys, "tags", "import", str(tmp_path / "fifo"))
    assert not app_file.exists()


def test_a_tags_file_that_cannot_be_written(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("a file, not a folder")
    target = tmp_path / "plain" / "tags.json"
    source = tmp_path / "in.json"
    source.write_text(doc({"classic": {"04A3": {"deed": 1}}}))
    line = refused(capsys, "tags", "import", str(source), "--file", str(target))
    assert line == f"banker tags import: {target}: cannot be written (File exists: {tmp_path / 'plain'}); nothing changed"
    assert (tmp_path / "plain").read_text() == "a file, not a folder"


def test_a_damaged_tags_file(capsys: pytest.CaptureFixture[str], app_file: Path, tmp_path: Path) -> None:
    """list and export refuse it (one line, status 1, the file untouched); an import keeps it beside the new one."""
    app_file.parent.mkdir(parents=True)
    app_file.write_bytes(b'{"format": "board-banker-tags", "version": 1, "sets": {"classic": {"04')
    for command in ("list", "export"):
        line = refused(capsys, "tags", command)
        assert line.startswith(f"banker tags {command}: {app_file}: not JSON: Unterminated string")
    assert app_file.read_bytes().endswith(b'{"04') and os.listdir(app_file.parent) == ["tags.json"]
    source = tmp_path / "in.json"
    source.write_text(doc({"classic": {"04A3": {"deed": 1}}}))
    status, out, _ = banker(capsys, "tags", "import", str(source))
    assert status == 0 and out.splitlines()[1].startswith("The tags file before could not be read (not JSON:")
    assert out.splitlines()[1].endswith(f"; it is kept as {app_file}.damaged")
    assert Path(f"{app_file}.damaged").read_bytes().endswith(b'{"04') and TagStore(app_file).lookup("04A3")


def test_standard_input_that_cannot_be_read(capsys: pytest.CaptureFixture[str], app_file: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """No standard input at all (a service), or one that fails: the import's source is named, not the tags file."""
    monkeypatch.setattr(sys, "stdin", None)
    assert refused(capsys, "tags", "import", "-") == ("banker tags import: standard input: there is none (started "
                                                      "without one); nothing was imported")

    class Broken(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def readinto(self, buffer: object) -> int:
            raise OSError(5, "Input/output error")

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(Broken())))
    assert refused(capsys, "tags", "import", "-") == ("banker tags import: standard input: cannot be read "
                                                      "(Input/output error); nothing was imported")
    assert not app_file.exists()
