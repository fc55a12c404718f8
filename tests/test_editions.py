"""The family's editions (banker/editions.py, issue 43): the name rules, the atomic save, the listing of broken
files, the names resolving to editions, a journaled game keeping its edition, and `banker rules`."""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
import tomllib
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from banker.editions import Edition, delete_edition, folder_problem, list_editions, rename_edition, save_edition
from banker.errors import RulesetError
from banker.files import boot_id
from banker.journal import Journal
from banker.ruleset import MAX_FILE_BYTES, editions_dir, load_edition, load_ruleset, ruleset_from_data
from banker.script import Header

CLASSIC_TOML = Path(__file__).resolve().parent.parent / "banker" / "rulesets" / "classic.toml"
REPO = Path(__file__).resolve().parent.parent
BALTIC = 3  # a roll of 1 and 2 from GO lands there


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home


def our_street(name: str = "our-street", title: str = "Our Street", baltic: int = 77) -> dict[str, Any]:
    """Classic with a name and title of its own and Baltic Avenue renamed and repriced."""
    data = tomllib.loads(CLASSIC_TOML.read_text("utf-8"))
    data["name"], data["title"] = name, title
    data["spaces"][BALTIC]["name"] = "Konopacka"
    data["spaces"][BALTIC]["price"] = baltic
    return data


def files(folder: Path) -> list[str]:
    return sorted(os.listdir(folder)) if folder.exists() else []


# ----------------------------------------------------------------------
# Where editions live, and their names


def test_editions_dir_follows_xdg_data_home(data_home: Path, monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    assert editions_dir() == data_home / "board-banker" / "editions"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert editions_dir() == tmp_path / "home" / ".local" / "share" / "board-banker" / "editions"


@pytest.mark.parametrize(("name", "rule"), [
    ("", "must not be empty"),
    ("a" * 41, "must be at most 40 characters, not 41"),
    ("Our-Street", "lower-case ASCII letters, digits and hyphens"),
    ("-street", "starting with a letter or a digit"),
    ("our_street", "lower-case ASCII letters, digits and hyphens"),
    ("our street", "lower-case ASCII letters, digits and hyphens"),
    ("ulica-łódzka", "lower-case ASCII letters, digits and hyphens"),
    ("../evil", "lower-case ASCII letters, digits and hyphens"),
    ("classic", "is the name of a shipped ruleset"),
    ("biznes", "is the name of a shipped ruleset"),
])
def test_each_name_rule_refuses_naming_the_field(name: str, rule: str) -> None:
    with pytest.raises(RulesetError) as caught:
        save_edition(our_street(name))
    assert caught.value.key == "name"
    assert rule in caught.value.problem
    assert str(caught.value).startswith("the edition: name: ")
    assert files(editions_dir().parent) == []  # nothing written, not even the folder


@pytest.mark.parametrize("name", ["a", "7", "a" * 40, "our-street", "9-lives", "x--y", "classic2"])
def test_valid_names_are_saved_under_their_name(name: str) -> None:
    edition = save_edition(our_street(name))
    assert edition == Edition(name, "Our Street", editions_dir() / f"{name}.toml", None,
                              load_ruleset("classic").description)
    assert files(editions_dir()) == [f"{name}.toml"]


def test_a_name_from_extends_is_the_shipped_one_and_refused() -> None:
    with pytest.raises(RulesetError, match="name: 'classic' is the name of a shipped ruleset"):
        save_edition('extends = "classic"\ntitle = "Mine"\n')
    assert files(editions_dir()) == []


# ----------------------------------------------------------------------
# Saving and loading


def test_saved_data_loads_back_to_the_same_ruleset() -> None:
    data = our_street()
    wanted = ruleset_from_data(data, "wanted").to_json()
    edition = save_edition(data)
    assert edition.problem is None and edition.title == "Our Street"
    loaded = load_edition("our-street")
    assert loaded.to_json() == wanted
    assert loaded.spaces[BALTIC].name == "Konopacka" and loaded.spaces[BALTIC].price == 77
    assert tomllib.loads(edition.path.read_text("utf-8"))["name"] == "our-street"


def test_mappings_and_tuples_from_a_caller_are_saved_too() -> None:
    data = our_street()
    data["players"] = (2, 6)
    data["options"] = MappingProxyType({"start_cash": 2000})
    save_edition(MappingProxyType(data))
    loaded = load_edition("our-street")
    assert (loaded.players_min, loaded.players_max, loaded.options.start_cash) == (2, 6, 2000)


def test_saved_text_is_kept_as_written_with_its_comments() -> None:
    text = '# our street\nextends = "classic"\nname = "our-street"\ntitle = "Our Street"  # grandma\'s\n'
    edition = save_edition(text)
    assert edition.path.read_text("utf-8") == text
    loaded = load_edition("our-street")
    assert loaded.title == "Our Street" and len(loaded.spaces) == 40


def test_saving_again_replaces_the_edition() -> None:
    save_edition(our_street(baltic=77))
    save_edition(our_street(baltic=88))
    assert load_edition("our-street").spaces[BALTIC].price == 88
    assert files(editions_dir()) == ["our-street.toml"]


def test_a_refused_save_writes_nothing_and_keeps_the_old_file() -> None:
    save_edition(our_street())
    before = (editions_dir() / "our-street.toml").read_bytes()
    bad = our_street()
    bad["spaces"][BALTIC]["price"] = -1
    with pytest.raises(RulesetError, match=r"spaces\[3\]\.price: must be at least 1"):
        save_edition(bad)
    with pytest.raises(RulesetError, match="not valid TOML"):
        save_edition('name = "our-street"\ntitle = ')
    assert files(editions_dir()) == ["our-street.toml"]
    assert (editions_dir() / "our-street.toml").read_bytes() == before


def test_an_oversized_edition_is_refused() -> None:
    text = 'extends = "classic"\nname = "big"\ndescription = "' + "x" * MAX_FILE_BYTES + '"\n'
    with pytest.raises(RulesetError, match="larger than 1048576 bytes"):
        save_edition(text)
    data = our_street("big")
    data["description"] = "x" * MAX_FILE_BYTES
    with pytest.raises(RulesetError, match="larger than 1048576 bytes"):
        save_edition(data)
    assert files(editions_dir()) == []


def test_a_crash_between_write_and_replace_leaves_the_old_file_and_no_temporary(
        monkeypatch: pytest.MonkeyPatch) -> None:
    save_edition(our_street(baltic=77))
    before = (editions_dir() / "our-street.toml").read_bytes()
    seen: list[str] = []

    def pulled_plug(src: str, dst: str) -> None:
        seen.append(Path(src).read_text("utf-8"))  # the new file was written in full before the rename
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "replace", pulled_plug)
    with pytest.raises(RulesetError, match=r"our-street\.toml: cannot write the file \(Input/output error\)"):
        save_edition(our_street(baltic=88))
    assert seen and tomllib.loads(seen[0])["spaces"][BALTIC]["price"] == 88
    assert (editions_dir() / "our-street.toml").read_bytes() == before
    assert files(editions_dir()) == ["our-street.toml"]


def test_an_interrupted_save_removes_its_temporary(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save_edition(our_street())
    assert files(editions_dir()) == []


def test_a_save_syncs_the_file_before_the_rename_and_the_folder_after(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        calls.append("fsync folder" if os.path.isdir(f"/proc/self/fd/{fd}") else "fsync file")
        real_fsync(fd)

    def replace(src: str, dst: str) -> None:
        calls.append("replace")
        real_replace(src, dst)

    editions_dir().mkdir(parents=True)  # a missing folder would be synced into its parent first (make_folder)
    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    save_edition(our_street())
    assert calls == ["fsync file", "replace", "fsync folder"]


def test_a_save_removes_the_temporary_file_a_cut_left_of_that_edition() -> None:
    boot = boot_id()
    other_boot = ("0" if boot[:1] != "0" else "1") + boot[1:]  # an earlier boot's: a power cut's leftover
    folder = editions_dir()
    folder.mkdir(parents=True)
    ours = f".our-street.toml.{other_boot}-{os.getpid()}.abcdefgh.tmp"
    another = f".seaside.toml.{other_boot}-{os.getpid()}.abcdefgh.tmp"  # goes at seaside's next save
    for name in (ours, another):
        (folder / name).write_text("half of one", "utf-8")
    save_edition(our_street())
    assert files(folder) == sorted([another, "our-street.toml"])
    save_edition(our_street("seaside", "Seaside"))
    assert files(folder) == ["our-street.toml", "seaside.toml"]


def test_load_edition_refuses_missing_and_broken() -> None:
    with pytest.raises(RulesetError, match="file not found"):
        load_edition("nowhere")
    with pytest.raises(RulesetError, match="name: must be lower-case"):
        load_edition("../classic")
    editions_dir().mkdir(parents=True)
    (editions_dir() / "other.toml").write_text('extends = "classic"\nname = "another"\n', "utf-8")
    with pytest.raises(RulesetError, match="name: must be the file's name 'other', not 'another'"):
        load_edition("other")


# ----------------------------------------------------------------------
# The listing


def broken_folder() -> Path:
    """An editions folder with one good edition and a broken file of every kind."""
    folder = editions_dir()
    save_edition(our_street())
    (folder / "bad-toml.toml").write_text('name = "bad-toml"\ntitle = \n', "utf-8")
    (folder / "wrong-stem.toml").write_text('extends = "classic"\nname = "right"\ntitle = "Right"\n', "utf-8")
    (folder / "classic.toml").write_bytes(CLASSIC_TOML.read_bytes())
    (folder / "latin2.toml").write_bytes('extends = "classic"\nname = "latin2"\ntitle = "Łódź"\n'.encode("iso-8859-2"))
    (folder / "too-big.toml").write_text('extends = "classic"\nname = "too-big"\n#' + "x" * MAX_FILE_BYTES, "utf-8")
    (folder / "folder.toml").mkdir()
    (folder / "Upper.toml").write_text('extends = "classic"\nname = "Upper"\n', "utf-8")
    (folder / "schema.toml").write_text('extends = "classic"\nname = "schema"\ndice = 9\n', "utf-8")
    (folder / "line\nbreak.toml").write_text("", "utf-8")
    (folder / ".our-street.x1y2.tmp").write_text("half of one", "utf-8")  # a pulled plug's leftover: skipped
    (folder / "notes.txt").write_text("not an edition", "utf-8")
    return folder


def test_broken_files_of_every_kind_are_listed_with_their_reason() -> None:
    broken_folder()
    found = {e.name: e for e in list_editions()}
    assert [e.name for e in list_editions()] == sorted(found)
    problems = {name: e.problem for name, e in found.items()}
    assert problems["our-street"] is None and found["our-street"].title == "Our Street"
    assert problems["bad-toml"] is not None and problems["bad-toml"].startswith("not valid TOML")
    assert problems["wrong-stem"] == "name: must be the file's name 'wrong-stem', not 'right'."
    assert found["wrong-stem"].title == "Right"
    assert problems["classic"] is not None and "is the name of a shipped ruleset" in problems["classic"]
    assert problems["latin2"] == "not UTF-8 text (byte 0xa3 at offset 45)."
    assert problems["too-big"] is not None and "larger than 1048576 bytes" in problems["too-big"]
    assert problems["folder"] == "is a folder, not a regular file."
    assert problems["Upper"] is not None and problems["Upper"].startswith("the file's name must be lower-case")
    assert problems["schema"] == "dice: must be 1, 2 or 3, not 9."
    assert problems["line\\nbreak"] is not None  # shown escaped, on one line
    assert set(found) == {"our-street", "bad-toml", "wrong-stem", "classic", "latin2", "too-big", "folder",
                          "Upper", "schema", "line\\nbreak"}
    for edition in found.values():
        assert edition.problem is None or edition.problem.endswith(".")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_file_is_listed_as_broken() -> None:
    save_edition(our_street())
    (editions_dir() / "our-street.toml").chmod(0)
    try:
        [edition] = list_editions()
        assert edition.problem == "cannot read the file (permission denied)."
        with pytest.raises(RulesetError, match="permission denied"):
            load_ruleset("our-street")
    finally:
        (editions_dir() / "our-street.toml").chmod(0o644)


def test_a_file_the_system_refuses_to_read_is_listed_as_broken(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same as above where the tests run as root: the system's refusal, as the loader words it."""
    from banker import outside

    save_edition(our_street())
    save_edition(our_street("readable"))
    real = outside.read_text_file

    def refused(path: Any, limit: int) -> str:
        if Path(path).name == "our-street.toml":
            raise PermissionError(13, "Permission denied")
        return real(path, limit)

    monkeypatch.setattr(outside, "read_text_file", refused)
    assert [(e.name, e.problem) for e in list_editions()] == [
        ("our-street", "cannot read the file (permission denied)."), ("readable", None)]


def test_a_missing_folder_holds_no_editions() -> None:
    assert list_editions() == [] and folder_problem() is None


def test_a_folder_that_cannot_be_listed_is_no_editions_with_a_logged_reason(
        caplog: pytest.LogCaptureFixture) -> None:
    editions_dir().parent.mkdir(parents=True)
    editions_dir().write_text("a file where the folder should be", "utf-8")
    with caplog.at_level("WARNING", logger="banker.editions"):
        assert list_editions() == []
    assert "cannot list the editions" in caplog.text
    assert folder_problem() == f"cannot list the editions in {editions_dir()} (Not a directory)"


# ----------------------------------------------------------------------
# Rename and delete


def test_rename_rewrites_the_name_and_title_and_removes_the_old_file() -> None:
    save_edition(our_street())
    renamed = rename_edition("our-street", "our-road", title="Our Road")
    assert (renamed.name, renamed.title) == ("our-road", "Our Road")
    assert files(editions_dir()) == ["our-road.toml"]
    loaded = load_edition("our-road")
    assert (loaded.name, loaded.title, loaded.spaces[BALTIC].price) == ("our-road", "Our Road", 77)
    retitled = rename_edition("our-road", "our-road", title="The Road")
    assert retitled.title == "The Road" and files(editions_dir()) == ["our-road.toml"]


def test_rename_is_refused_whole() -> None:
    save_edition(our_street())
    save_edition(our_street("taken", "Taken"))
    before = {name: (editions_dir() / name).read_bytes() for name in files(editions_dir())}
    with pytest.raises(RulesetError, match="name: 'taken' is already the name of an edition"):
        rename_edition("our-street", "taken")
    with pytest.raises(RulesetError, match="name: must be lower-case"):
        rename_edition("our-street", "Our Street")
    with pytest.raises(RulesetError, match="is the name of a shipped ruleset"):
        rename_edition("our-street", "classic")
    with pytest.raises(RulesetError, match="file not found"):
        rename_edition("gone", "here")
    (editions_dir() / "taken.toml").write_text("broken = ", "utf-8")
    with pytest.raises(RulesetError, match="not valid TOML"):
        rename_edition("taken", "fixed")
    before["taken.toml"] = b"broken = "
    assert {name: (editions_dir() / name).read_bytes() for name in files(editions_dir())} == before


def test_delete_removes_an_edition_or_a_broken_file() -> None:
    broken_folder()
    delete_edition("our-street")
    delete_edition("Upper")  # a broken file, by the name the listing gives it
    delete_edition("bad-toml")
    names = [e.name for e in list_editions()]
    assert "our-street" not in names and "Upper" not in names and "bad-toml" not in names
    with pytest.raises(RulesetError, match="no edition of that name"):
        delete_edition("our-street")
    with pytest.raises(RulesetError, match="is a folder, not an edition's file"):
        delete_edition("folder")
    with pytest.raises(RulesetError, match="no edition of that name"):
        delete_edition("../data")
    assert (editions_dir() / "folder.toml").is_dir()


# ----------------------------------------------------------------------
# Names resolve to editions


def test_load_ruleset_finds_an_edition_by_name_and_reads_it_anew_each_time() -> None:
    save_edition(our_street(baltic=77))
    assert load_ruleset("our-street").spaces[BALTIC].price == 77
    save_edition(our_street(baltic=99))  # edited between two games: not kept by name
    assert load_ruleset("our-street").spaces[BALTIC].price == 99
    delete_edition("our-street")
    with pytest.raises(RulesetError, match="no such ruleset"):
        load_ruleset("our-street")


def test_a_shipped_name_and_a_path_come_before_an_edition(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    save_edition(our_street())
    (editions_dir() / "classic.toml").write_text('extends = "classic"\nname = "classic"\ntitle = "Mine"\n', "utf-8")
    assert load_ruleset("classic").title == "Classic"
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RulesetError, match=r"our-street\.toml: file not found"):
        load_ruleset("our-street.toml")  # a name that looks like a path is a path
    (tmp_path / "our-street").write_text('extends = "classic"\nname = "here"\ntitle = "Here"\n', "utf-8")
    assert load_ruleset("our-street").title == "Here"  # a file of that name here is the path, as before


def test_a_broken_edition_is_refused_by_name_with_its_reason() -> None:
    editions_dir().mkdir(parents=True)
    (editions_dir() / "broken-one.toml").write_text('extends = "classic"\nname = "broken-one"\ndice = 9\n', "utf-8")
    with pytest.raises(RulesetError, match=r"broken-one\.toml: dice: must be 1, 2 or 3, not 9"):
        load_ruleset("broken-one")


def play_onto_baltic(journal: Journal, header: Header) -> tuple[int, dict[str, Any]]:
    live = journal.start(header)
    for action in ({"do": "roll", "dice": [1, 2]}, {"do": "buy"}):
        live.apply(action)
    return live.id, live.game.to_json()


def test_a_journaled_game_keeps_its_edition_when_the_file_is_edited_or_deleted(tmp_path: Path) -> None:
    save_edition(our_street(baltic=77))
    db = tmp_path / "games.sqlite3"
    with Journal(db) as journal:
        game_id, state = play_onto_baltic(journal, Header("our-street", ["Ann", "Ben"], seed=5))
    assert state["players"][0]["cash"] == 1500 - 77
    save_edition(our_street(baltic=300))
    with Journal(db) as journal:
        assert journal.load(game_id).game.to_json() == state
    delete_edition("our-street")
    with Journal(db) as journal:
        again = journal.load(game_id)
        assert again.game.to_json() == state
        assert again.game.ruleset.spaces[BALTIC].name == "Konopacka"
        lines = journal.export(game_id)
    script = tmp_path / "exported.jsonl"
    script.write_text("\n".join(lines) + "\n", "utf-8")
    elsewhere = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "another-machine"))
    other_db = tmp_path / "other.sqlite3"
    imported = subprocess.run([sys.executable, "-m", "banker", "import", str(script), "--journal", str(other_db)],
                              capture_output=True, text=True, env=elsewhere, timeout=120)
    assert imported.returncode == 0, imported.stderr
    with Journal(other_db) as journal:
        assert journal.load(int(imported.stdout)).game.to_json() == state


# ----------------------------------------------------------------------
# The command line


def banker(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)  # XDG_DATA_HOME is the test's (the autouse fixture)
    return subprocess.run([sys.executable, "-m", "banker", *args], capture_output=True, text=True, env=env,
                          timeout=120, cwd=cwd)


def test_banker_rules_lists_editions_after_the_shipped_ones_then_the_broken() -> None:
    broken_folder()
    listing = banker("rules")
    assert listing.returncode == 0, listing.stderr
    lines = listing.stdout.splitlines()
    assert lines[0].startswith("biznes ") and "Traceback" not in listing.stderr
    ours = lines.index("our-street       (edition) Our Street: " + load_ruleset("classic").description)
    broken = [line for line in lines if "(edition, broken)" in line]
    assert len(broken) == 9 and lines.index(broken[0]) == ours + 1
    assert "wrong-stem       (edition, broken) name: must be the file's name 'wrong-stem', not 'right'." in lines
    assert "line\\nbreak" in listing.stdout  # a file name with a line break is printed on one line

    listed = json.loads(banker("rules", "--json").stdout)
    shipped = [e for e in listed if e["kind"] == "shipped"]
    assert shipped[0] == {"name": "biznes", "title": load_ruleset("biznes").title,
                          "description": load_ruleset("biznes").description, "kind": "shipped"}
    by_name = {e["name"]: e for e in listed if e["kind"] == "edition"}
    assert by_name["our-street"] == {"name": "our-street", "title": "Our Street",
                                     "description": load_ruleset("classic").description, "kind": "edition"}
    assert by_name["folder"]["problem"] == "is a folder, not a regular file."
    assert sum("problem" in e for e in listed) == 9


def test_banker_rules_shows_an_edition_and_refuses_a_broken_one() -> None:
    broken_folder()
    shown = banker("rules", "our-street", "--json")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["spaces"][BALTIC]["name"] == "Konopacka"
    assert banker("rules", "our-street").stdout.startswith("our-street: Our Street\n")
    refused = banker("rules", "schema")
    assert refused.returncode == 2
    assert refused.stderr.strip() == f"banker rules: {editions_dir() / 'schema.toml'}: dice: must be 1, 2 or 3, not 9"


def test_banker_rules_says_when_the_folder_cannot_be_listed() -> None:
    editions_dir().parent.mkdir(parents=True)
    editions_dir().write_text("", "utf-8")
    listing = banker("rules")
    assert listing.returncode == 0 and "classic " in listing.stdout
    assert listing.stderr.strip() == f"banker rules: cannot list the editions in {editions_dir()} (Not a directory)"


def test_a_game_script_and_simulate_name_an_edition(tmp_path: Path) -> None:
    save_edition(our_street())
    script = tmp_path / "game.jsonl"
    script.write_text('{"rules": "our-street", "players": ["Ann", "Ben"]}\n{"do": "roll", "dice": [1, 2]}\n'
                      '{"do": "buy"}\n', "utf-8")
    out = banker("replay", str(script), "--json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["players"][0]["cash"] == 1500 - 77
    sim = banker("simulate", "--rules", "our-street", "--games", "1", "--seed", "1")
    assert sim.returncode == 0, sim.stderr


# ----------------------------------------------------------------------
# Fuzz: whatever the phone editor sends, a refusal is a RulesetError and writes nothing


VALUES: list[Any] = [None, 0, -1, 1, 10**12, 2.5, float("nan"), True, "", "x", "our-street", "Classic", "\ud800",
                     [], [1, 2], {}, {"a": 1}, ["a", {"b": None}], "\x00", "a" * 50]


def mutate_data(rng: random.Random, data: Any, depth: int = 0) -> Any:
    if isinstance(data, dict) and data and rng.random() < 0.8:
        key = rng.choice(list(data))
        choice = rng.random()
        if choice < 0.2:
            del data[key]
        elif choice < 0.5:
            data[key] = copy.deepcopy(rng.choice(VALUES))
        elif choice < 0.6:
            data[rng.choice(["extra", "extends", "name", "format", 7])] = copy.deepcopy(rng.choice(VALUES))
        else:
            data[key] = mutate_data(rng, data[key], depth + 1)
        return data
    if isinstance(data, list) and data and rng.random() < 0.8:
        i = rng.randrange(len(data))
        if rng.random() < 0.3:
            del data[i]
        else:
            data[i] = mutate_data(rng, data[i], depth + 1)
        return data
    return copy.deepcopy(rng.choice(VALUES))


def mutate_text(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(text) + 1)
        choice = rng.random()
        if choice < 0.3:
            text = text[:at] + text[at + rng.randint(1, 20):]
        elif choice < 0.6:
            text = text[:at] + rng.choice(['"', "[", "]", "=", "\n", "\x00", "\ud800", "ł", "{", "9" * 20, "#",
                                           '"""', "[[spaces]]\n", 'name = "fuzz"\n']) + text[at:]
        else:
            text = text[:at] + "".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randint(1, 5))) + text[at:]
    return text


def test_fuzz_save_edition_refuses_only_with_ruleset_error_and_writes_nothing_when_refusing() -> None:
    rng = random.Random(43)
    base = our_street("fuzz", "Fuzz")
    base_text = 'extends = "classic"\nname = "fuzz"\ntitle = "Fuzz"\n[options]\nstart_cash = 2000\n'
    folder = editions_dir()
    saved = refused = 0
    for _ in range(400):
        if rng.random() < 0.5:
            candidate: Any = mutate_data(rng, copy.deepcopy(base))
        else:
            candidate = mutate_text(rng, base_text if rng.random() < 0.7 else CLASSIC_TOML.read_text("utf-8"))
        before = {name: (folder / name).read_bytes() for name in files(folder)}
        try:
            edition = save_edition(candidate)
        except RulesetError:
            refused += 1
            assert {name: (folder / name).read_bytes() for name in files(folder)} == before
            continue
        saved += 1
        assert edition.problem is None and files(folder) == sorted({*before, f"{edition.name}.toml"})
        assert load_edition(edition.name).to_json() == load_ruleset(str(edition.path)).to_json()
        delete_edition(edition.name)
    assert saved >= 15 and refused >= 300, (saved, refused)  # both ways were exercised
    assert all(e.problem is None for e in list_editions())


def test_a_file_beside_the_script_comes_before_an_edition_of_that_name(tmp_path: Path) -> None:
    from banker.script import replay_file

    save_edition(our_street(baltic=77))
    folder = tmp_path / "scripts"
    folder.mkdir()
    script = folder / "game.jsonl"
    script.write_text('{"rules": "our-street", "players": ["Ann", "Ben"]}\n{"do": "roll", "dice": [1, 2]}\n'
                      '{"do": "buy"}\n', "utf-8")
    played = replay_file(str(script))
    assert played.error is None and played.state is not None
    assert played.state["players"][0]["cash"] == 1500 - 77  # the edition
    (folder / "our-street").write_text(CLASSIC_TOML.read_text("utf-8"), "utf-8")
    played = replay_file(str(script))
    assert played.error is None and played.state is not None
    assert played.state["players"][0]["cash"] == 1500 - 60  # the file beside the script, as before editions
